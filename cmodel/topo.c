#include "topo.h"

#include <stdio.h>

int tc_topo_init(tc_topo *t, int ndims, const int *size, char *err, size_t errlen)
{
    if (ndims < 1 || ndims > TC_MAX_DIMS) {
        snprintf(err, errlen, "number of dimensions %d is not in 1..%d", ndims, TC_MAX_DIMS);
        return -1;
    }
    t->ndims = ndims;
    t->n = 1;
    for (int d = 0; d < TC_MAX_DIMS; d++) {
        int s = d < ndims ? size[d] : 1;
        if (s < 1 || s > 65536) {
            snprintf(err, errlen, "size %d of dimension %c is not in 1..65536", s, "XYZW"[d]);
            return -1;
        }
        t->size[d] = s;
        t->n *= s;
        if (t->n > 65536) {
            snprintf(err, errlen, "more than 65536 nodes: node ids are 16 bits");
            return -1;
        }
    }
    return 0;
}

void tc_coords(const tc_topo *t, int node, int c[TC_MAX_DIMS])
{
    for (int d = 0; d < TC_MAX_DIMS; d++) {
        c[d] = node % t->size[d];
        node /= t->size[d];
    }
}

int tc_node_at(const tc_topo *t, const int c[TC_MAX_DIMS])
{
    int node = 0;
    for (int d = TC_MAX_DIMS - 1; d >= 0; d--)
        node = node * t->size[d] + c[d];
    return node;
}

int tc_neighbour(const tc_topo *t, int node, int dir)
{
    int c[TC_MAX_DIMS];
    int d = dir >> 1, s = t->size[d];
    tc_coords(t, node, c);
    c[d] = (dir & 1) ? (c[d] + s - 1) % s : (c[d] + 1) % s;
    return tc_node_at(t, c);
}

const char *tc_topo_name(const tc_topo *t, char *buf, size_t len)
{
    size_t o = 0;
    for (int d = 0; d < t->ndims && o < len; d++)
        o += (size_t)snprintf(buf + o, len - o, d ? "x%d" : "%d", t->size[d]);
    return buf;
}

const char *tc_coord_name(const tc_topo *t, int node, char *buf, size_t len)
{
    int c[TC_MAX_DIMS];
    size_t o = 0;
    tc_coords(t, node, c);
    for (int d = 0; d < t->ndims && o < len; d++)
        o += (size_t)snprintf(buf + o, len - o, "%s%d", d ? "," : "(", c[d]);
    if (o < len)
        snprintf(buf + o, len - o, ")");
    return buf;
}

int tc_hops(const tc_topo *t, int a, int b)
{
    int ca[TC_MAX_DIMS], cb[TC_MAX_DIMS], h = 0;
    tc_coords(t, a, ca);
    tc_coords(t, b, cb);
    for (int d = 0; d < TC_MAX_DIMS; d++) {
        int s = t->size[d], off = (cb[d] - ca[d] + s) % s;
        h += off <= s / 2 ? off : s - off;
    }
    return h;
}

int tc_farthest(const tc_topo *t, int from)
{
    int best = from, bh = 0;
    for (int k = 0; k < t->n; k++) {
        int h = tc_hops(t, from, k);
        if (h > bh)
            best = k, bh = h;
    }
    return best;
}

int tc_diameter(const tc_topo *t)
{
    int d = 0;
    for (int i = 0; i < TC_MAX_DIMS; i++)
        d += t->size[i] / 2;
    return d ? d : 1;
}
