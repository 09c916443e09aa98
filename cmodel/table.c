#include "table.h"

#include <stdlib.h>
#include <string.h>

static const char *const dir_names[8] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "W+", "W-"};

const char *tc_dir_name(unsigned dir) { return dir < 8 ? dir_names[dir] : "?"; }

const char *tc_err_name(unsigned code)
{
    static const char *const names[] = {
        [TC_ERR_NONE] = "none",
        [TC_ERR_NO_TREE] = "TreeId not configured at this node",
        [TC_ERR_BAD_TYPE] = "packet type unknown or not carried on this subnet",
        [TC_ERR_BAD_DIR] = "packet arrived from a direction its tree does not allow",
        [TC_ERR_NOT_MEMBER] = "injected by a PE whose node has Pe = 0 in this tree",
        [TC_ERR_BAD_SRC] = "injected header names another node as its source",
        [TC_ERR_BAD_OP] = "reduce with an unknown operation or lane width, or longer than the Reducer holds",
        [TC_ERR_CREDIT] = "packet found no free buffer slot: its sender broke the credits; dropped",
        [TC_ERR_MISMATCH] = "contribution disagrees with the first of its reduce (type, op, lane, length or DST)",
        [TC_ERR_RID_REUSE] = "second contribution from one source to a ReduceId still in flight; ignored",
        [TC_ERR_BARRIER_BUSY] = "barrier request while this node's barrier is in progress; ignored",
        [TC_ERR_BAD_BARRIER] = "barrier request with K = 0, K beyond the phase counter, or an unknown mode; ignored",
        [TC_ERR_PHASE_AHEAD] = "phase packet from a neighbour 2 phases ahead (lemma 1 broken); ignored",
    };
    return code < sizeof names / sizeof names[0] && names[code] ? names[code] : "unknown error code";
}

tc_row tc_row_make(int root, int toroot, int pe, unsigned dirs)
{
    tc_row r = 0;
    TC_RSET(r, VALID, 1);
    TC_RSET(r, ROOT, root);
    TC_RSET(r, TOROOT, toroot < 0 ? 0 : toroot);
    TC_RSET(r, PE, pe);
    TC_RSET(r, DIRS, dirs);
    TC_RSET(r, DIRSUM, __builtin_popcount(dirs));
    return r;
}

#define FAIL(rule, ...)                                                                    \
    do {                                                                                   \
        char c_[48];                                                                       \
        int o_ = snprintf(err, errlen, "tree %d, node %d %s: rule %d: ", tree, node,       \
                          tc_coord_name(t, node, c_, sizeof c_), rule);                    \
        if (o_ >= 0 && (size_t)o_ < errlen)                                                \
            snprintf(err + o_, errlen - (size_t)o_, __VA_ARGS__);                          \
        return rule;                                                                       \
    } while (0)

int tc_tree_validate(const tc_topo *t, const tc_row *rows, int tree, char *err, size_t errlen)
{
    int nports = 2 * t->ndims, root = -1, node;

    for (node = 0; node < t->n; node++) {
        tc_row r = TC_ROWP(rows, node, tree);
        if (!TC_RGET(r, VALID))
            continue;
        unsigned dirs = TC_RGET(r, DIRS), up = TC_RGET(r, TOROOT);
        if (dirs >> nports)
            FAIL(5, "Dirs name a direction beyond the %d dimension(s) of the torus", t->ndims);
        if ((unsigned)__builtin_popcount(dirs) != TC_RGET(r, DIRSUM))
            FAIL(5, "Dir_sum is %u but Dirs list %d directions", TC_RGET(r, DIRSUM),
                 __builtin_popcount(dirs));
        if (TC_RGET(r, ROOT)) {
            if (root >= 0)
                FAIL(1, "a second root (node %d is a root already)", root);
            root = node;
        } else if (up >= (unsigned)nports) {
            FAIL(5, "toRoot %s is beyond the %d dimension(s) of the torus", tc_dir_name(up), t->ndims);
        }
    }
    if (root < 0) {
        for (node = 0; node < t->n; node++)
            if (TC_RGET(TC_ROWP(rows, node, tree), VALID))
                FAIL(1, "the tree has members but no root");
        return 0; /* tree not configured anywhere */
    }

    for (node = 0; node < t->n; node++) {
        tc_row r = TC_ROWP(rows, node, tree);
        if (!TC_RGET(r, VALID))
            continue;
        unsigned dirs = TC_RGET(r, DIRS), up = TC_RGET(r, TOROOT);
        int is_root = TC_RGET(r, ROOT);
        for (int d = 0; d < nports; d++) {
            if (!((dirs >> d) & 1))
                continue;
            int nb = tc_neighbour(t, node, d);
            tc_row nr = TC_ROWP(rows, nb, tree);
            if (nb == node)
                FAIL(2, "down direction %s leads back to the node itself (dimension of size 1)",
                     tc_dir_name((unsigned)d));
            if (!TC_RGET(nr, VALID))
                FAIL(2, "down direction %s leads to node %d, which is not in the tree",
                     tc_dir_name((unsigned)d), nb);
            if (TC_RGET(nr, ROOT) || TC_RGET(nr, TOROOT) != (unsigned)(d ^ 1))
                FAIL(2, "down direction %s leads to node %d, whose toRoot is %s, not %s",
                     tc_dir_name((unsigned)d), nb,
                     TC_RGET(nr, ROOT) ? "none (it is the root)" : tc_dir_name(TC_RGET(nr, TOROOT)),
                     tc_dir_name((unsigned)(d ^ 1)));
            if (!is_root && d != (int)(up ^ 1) && (d >> 1) <= (int)(up >> 1))
                FAIL(3, "down direction %s is neither in a dimension after toRoot %s nor opposite to it",
                     tc_dir_name((unsigned)d), tc_dir_name(up));
        }
        if (is_root)
            continue;
        int p = tc_neighbour(t, node, (int)up);
        tc_row pr = TC_ROWP(rows, p, tree);
        if (p == node)
            FAIL(2, "toRoot %s leads back to the node itself (dimension of size 1)", tc_dir_name(up));
        if (!TC_RGET(pr, VALID) || !((TC_RGET(pr, DIRS) >> (up ^ 1)) & 1))
            FAIL(2, "toRoot %s leads to node %d, which does not list %s as a down direction",
                 tc_dir_name(up), p, tc_dir_name(up ^ 1));
    }

    /* Rules 1-3 allow a cycle of members that never reaches the root. */
    for (node = 0; node < t->n; node++) {
        int m = node, steps = 0;
        if (!TC_RGET(TC_ROWP(rows, node, tree), VALID))
            continue;
        while (!TC_RGET(TC_ROWP(rows, m, tree), ROOT) && steps++ <= t->n)
            m = tc_neighbour(t, m, (int)TC_RGET(TC_ROWP(rows, m, tree), TOROOT));
        if (steps > t->n)
            FAIL(4, "following toRoot from this node never reaches the root (node %d)", root);
    }
    return 0;
}
#undef FAIL

int tc_table_validate(const tc_topo *t, const tc_row *rows, char *err, size_t errlen)
{
    for (int tree = 0; tree < TC_TREES; tree++) {
        int rule = tc_tree_validate(t, rows, tree, err, errlen);
        if (rule)
            return rule;
    }
    return 0;
}

void tc_plan_tree(const tc_topo *t, tc_row *rows, int tree, int root, const uint8_t *pe)
{
    int n = t->n, rc[TC_MAX_DIMS], c[TC_MAX_DIMS];
    int *up = malloc(sizeof(int) * (size_t)n);
    unsigned *dirs = calloc((size_t)n, sizeof(unsigned));
    uint8_t *member = malloc((size_t)n);

    tc_coords(t, root, rc);
    for (int node = 0; node < n; node++) {
        int k = -1;
        tc_coords(t, node, c);
        for (int d = 0; d < TC_MAX_DIMS; d++)
            if (c[d] != rc[d])
                k = d;
        member[node] = 1;
        up[node] = -1;
        if (k < 0)
            continue;
        /* Offsets 1..size/2 are reached from the root going +, the rest going -. */
        int s = t->size[k], off = (c[k] - rc[k] + s) % s;
        up[node] = off <= s / 2 ? 2 * k + 1 : 2 * k;
    }
    for (int node = 0; node < n; node++)
        if (up[node] >= 0)
            dirs[tc_neighbour(t, node, up[node])] |= 1u << (up[node] ^ 1);
    /* Prune leaves that are neither the root nor a Pe node, until none is left. */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int node = 0; node < n; node++) {
            if (!member[node] || node == root || dirs[node] || (!pe || pe[node]))
                continue;
            member[node] = 0;
            dirs[tc_neighbour(t, node, up[node])] &= ~(1u << (up[node] ^ 1));
            changed = 1;
        }
    }
    for (int node = 0; node < n; node++)
        TC_ROWP(rows, node, tree) =
            member[node] ? tc_row_make(node == root, up[node], !pe || pe[node], dirs[node]) : 0;
    free(up);
    free(dirs);
    free(member);
}

static int parse_dir(const char *s, int nports)
{
    for (int d = 0; d < nports; d++)
        if (!strcmp(s, dir_names[d]))
            return d;
    return -1;
}

int tc_table_load(const tc_topo *t, tc_row *rows, FILE *f, char *err, size_t errlen)
{
    char line[512];
    int lineno = 0, nports = 2 * t->ndims;

    memset(rows, 0, sizeof(tc_row) * (size_t)t->n * TC_TREES);
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#'), up[16], dl[128];
        int tree, node, root, pe, toroot = -1;
        unsigned dirs = 0;
        lineno++;
        if (hash)
            *hash = 0;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (sscanf(line, "%d %d %d %15s %d %127s", &tree, &node, &root, up, &pe, dl) != 6) {
            snprintf(err, errlen, "line %d: expected 'tree node root toroot pe dirs'", lineno);
            return -1;
        }
        if (tree < 0 || tree >= TC_TREES || node < 0 || node >= t->n) {
            snprintf(err, errlen, "line %d: tree %d or node %d out of range (16 trees, %d nodes)",
                     lineno, tree, node, t->n);
            return -1;
        }
        if ((root != 0 && root != 1) || (pe != 0 && pe != 1)) {
            snprintf(err, errlen, "line %d: root and pe must be 0 or 1", lineno);
            return -1;
        }
        if (strcmp(up, "-") && (toroot = parse_dir(up, nports)) < 0) {
            snprintf(err, errlen, "line %d: toRoot '%s' is not a direction of this torus", lineno, up);
            return -1;
        }
        if (!root && toroot < 0) {
            snprintf(err, errlen, "line %d: tree %d, node %d is not the root but has no toRoot",
                     lineno, tree, node);
            return -1;
        }
        if (strcmp(dl, "-"))
            for (char *tok = strtok(dl, ","); tok; tok = strtok(NULL, ",")) {
                int d = parse_dir(tok, nports);
                if (d < 0) {
                    snprintf(err, errlen, "line %d: down direction '%s' is not a direction of this torus",
                             lineno, tok);
                    return -1;
                }
                dirs |= 1u << d;
            }
        if (TC_RGET(TC_ROWP(rows, node, tree), VALID)) {
            snprintf(err, errlen, "line %d: tree %d, node %d is listed twice", lineno, tree, node);
            return -1;
        }
        TC_ROWP(rows, node, tree) = tc_row_make(root, toroot, pe, dirs);
    }
    return tc_table_validate(t, rows, err, errlen) ? -1 : 0;
}

void tc_table_write(const tc_topo *t, const tc_row *rows, FILE *f)
{
    fprintf(f, "# tree node root toroot pe dirs\n");
    for (int tree = 0; tree < TC_TREES; tree++)
        for (int node = 0; node < t->n; node++) {
            tc_row r = TC_ROWP(rows, node, tree);
            if (!TC_RGET(r, VALID))
                continue;
            fprintf(f, "%d %d %d %s %d ", tree, node, TC_RGET(r, ROOT),
                    TC_RGET(r, ROOT) ? "-" : tc_dir_name(TC_RGET(r, TOROOT)), TC_RGET(r, PE));
            unsigned dirs = TC_RGET(r, DIRS);
            if (!dirs)
                fputc('-', f);
            for (int d = 0, first = 1; d < 8; d++)
                if ((dirs >> d) & 1) {
                    fprintf(f, "%s%s", first ? "" : ",", tc_dir_name((unsigned)d));
                    first = 0;
                }
            fputc('\n', f);
        }
}

int tc_tree_root(const tc_topo *t, const tc_row *rows, int tree)
{
    for (int k = 0; k < t->n; k++)
        if (TC_RGET(TC_ROWP(rows, k, tree), VALID) && TC_RGET(TC_ROWP(rows, k, tree), ROOT))
            return k;
    return -1;
}
