/* Torus geometry: 1 to 4 dimensions X, Y, Z, W; node ids are x + SX*(y + SY*(z + SZ*w)). */
#ifndef TC_TOPO_H
#define TC_TOPO_H

#include <stddef.h>

#define TC_MAX_DIMS 4
#define TC_MAX_PORTS (2 * TC_MAX_DIMS)

typedef struct {
    int ndims;
    int size[TC_MAX_DIMS]; /* 1 for dimensions beyond ndims */
    int n;                 /* node count */
} tc_topo;

/* 0 on success; otherwise -1 and a message naming the bad value. */
int tc_topo_init(tc_topo *t, int ndims, const int *size, char *err, size_t errlen);
/* Parses "8x8x8": one to four sizes, each a decimal number of at least 1, joined by
 * 'x', nothing before, between or after (no sign, space or trailing text); at most
 * 65536 nodes. 0 on success; otherwise -1 and a message naming the string and what
 * is wrong with it. The one parser of tcsim --topo and tcnet topo=. */
int tc_topo_parse(const char *s, tc_topo *t, char *err, size_t errlen);
/* The torus of tcsim, tcnet and tccheck when none is given, and their one `topo` key
 * (a tc_key of config.h) */
#define TC_TOPO_DEFAULT "4x4"
#define TC_TOPO_KEY {"topo", TC_TOPO_DEFAULT, "torus sizes per dimension, 1 to 4 of them: 8x8x8, 16x16x16x8", 1, 0, NULL}
void tc_coords(const tc_topo *t, int node, int c[TC_MAX_DIMS]);
int tc_node_at(const tc_topo *t, const int c[TC_MAX_DIMS]);
/* Neighbour in direction dir (0 = X+, 1 = X-, 2 = Y+, ...); on a size-1 dimension, the node itself. */
int tc_neighbour(const tc_topo *t, int node, int dir);
/* "3x4x2" style name, and "(x,y)" style coordinates, into buf. */
const char *tc_topo_name(const tc_topo *t, char *buf, size_t len);
const char *tc_coord_name(const tc_topo *t, int node, char *buf, size_t len);
/* Hops between two nodes (the shorter way round every ring); the node farthest from
 * `from` (the lowest id of those); the diameter, at least 1 (K of a barrier that
 * names none, and the depth of a dimension-ordered tree). */
int tc_hops(const tc_topo *t, int a, int b);
int tc_farthest(const tc_topo *t, int from);
int tc_diameter(const tc_topo *t);

#endif
