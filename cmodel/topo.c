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
        if ((long long)t->n * s > 65536) { /* each at most 65536: the product needs more than an int */
            snprintf(err, errlen, "more than 65536 nodes: node ids are 16 bits");
            return -1;
        }
        t->n *= s;
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

/* "unexpected character 'a' at character 4" or, for a control or non-ASCII byte, its code. */
static void topo_bad_char(const char *s, const char *p, const char *form, char *err, size_t errlen)
{
    unsigned char c = (unsigned char)*p;
    char what[24];
    if (c > ' ' && c < 127)
        snprintf(what, sizeof what, "'%c'", c);
    else
        snprintf(what, sizeof what, "code %u", c);
    snprintf(err, errlen, "topology '%s': unexpected character %s at character %d: %s", s, what, (int)(p - s) + 1,
             form);
}

int tc_topo_parse(const char *s, tc_topo *t, char *err, size_t errlen)
{
    static const char form[] = "expected 1 to 4 sizes joined by x, e.g. 4x4 or 8x8x8";
    int size[TC_MAX_DIMS], nd = 0;
    const char *p = s;

    if (!s || !*s) {
        snprintf(err, errlen, "topology is empty: %s", form);
        return -1;
    }
    for (;;) {
        long v = 0;
        const char *start = p;
        if (*p == '-' || *p == '+') {
            snprintf(err, errlen, "topology '%s': sign at character %d: sizes are positive numbers without sign", s,
                     (int)(p - s) + 1);
            return -1;
        }
        if (*p == 'x' || !*p) {
            snprintf(err, errlen, "topology '%s': a size is missing at character %d: %s", s, (int)(p - s) + 1, form);
            return -1;
        }
        if (*p < '0' || *p > '9') {
            topo_bad_char(s, p, form, err, errlen);
            return -1;
        }
        while (*p >= '0' && *p <= '9') {
            if (v <= 65536) /* stop before it could wrap: anything above is too big */
                v = v * 10 + (*p - '0');
            p++;
        }
        if (nd == TC_MAX_DIMS) {
            snprintf(err, errlen, "topology '%s': more than %d dimensions", s, TC_MAX_DIMS);
            return -1;
        }
        if (v < 1 || v > 65536) {
            snprintf(err, errlen, "topology '%s': size %.*s of dimension %c is not in 1..65536", s,
                     (int)(p - start), start, "XYZW"[nd]);
            return -1;
        }
        size[nd++] = (int)v;
        if (!*p)
            break;
        if (*p != 'x') {
            topo_bad_char(s, p, form, err, errlen);
            return -1;
        }
        p++;
    }
    char why[128];
    if (tc_topo_init(t, nd, size, why, sizeof why)) {
        snprintf(err, errlen, "topology '%s': %s", s, why);
        return -1;
    }
    return 0;
}
