#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"

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
        [TC_ERR_BAD_OP] = "reduce with an unknown operation or lane width, longer than the Reducer holds, a ReduceId it does not have (red_rids), or fsum of an odd length; or values (VALS) on anything but an fsum",
        [TC_ERR_CREDIT] = "packet found no free buffer slot: its sender broke the credits; dropped",
        [TC_ERR_MISMATCH] = "contribution disagrees with the first of its reduce (type, op, lane, length or DST)",
        [TC_ERR_RID_REUSE] = "second contribution from one source to a ReduceId still in flight; ignored",
        [TC_ERR_BARRIER_BUSY] = "barrier request while this node's barrier is in progress; ignored",
        [TC_ERR_BAD_BARRIER] = "barrier request with K = 0, K beyond the phase counter, or an unknown mode; ignored",
        [TC_ERR_PHASE_AHEAD] = "phase packet from a neighbour 2 phases ahead (lemma 1 broken); ignored",
        [TC_ERR_RID_ORDER] = "PE's contribution not to its tree's next ReduceId (they go in turn); ignored",
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

    /* A transit leaf expects Pe + Dir_sum = 0 contributions, so it never sends any up,
     * and its parent's Reducer and tree barrier would wait for it forever. */
    for (node = 0; node < t->n; node++) {
        tc_row r = TC_ROWP(rows, node, tree);
        if (TC_RGET(r, VALID) && !TC_RGET(r, ROOT) && !TC_RGET(r, PE) && !TC_RGET(r, DIRS))
            FAIL(6, "Pe = 0 and no down direction: a transit node with nothing below it (its parent would wait "
                    "for its reduce contribution forever)");
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
    tc_plan_tree_split(t, rows, tree, root, pe, NULL, NULL);
}

void tc_plan_tree_split(const tc_topo *t, tc_row *rows, int tree, int root, const uint8_t *pe,
                        int (*split)(void *ctx, int k, const int c[TC_MAX_DIMS], int size), void *ctx)
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
        /* Offsets 1..split are reached from the root going +, the rest going -. */
        int s = t->size[k], off = (c[k] - rc[k] + s) % s;
        up[node] = off <= (split ? split(ctx, k, c, s) : s / 2) ? 2 * k + 1 : 2 * k;
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

/* A field that must be a decimal number in 0..max: digits only (no sign, no space),
 * no wrap-around however long. 0, or -1 with the message. */
static int parse_num(const char *tok, const char *what, unsigned long max, int lineno, unsigned long *v, char *err,
                     size_t errlen)
{
    unsigned long x = 0;
    const char *p = tok;
    for (; *p >= '0' && *p <= '9'; p++)
        x = x <= max ? x * 10 + (unsigned long)(*p - '0') : x; /* max is small: no wrap */
    if (p == tok || *p || x > max) {
        snprintf(err, errlen, "line %d: %s '%.24s%s' is not a number in 0..%lu", lineno, what, tok,
                 strlen(tok) > 24 ? "..." : "", max);
        return -1;
    }
    *v = x;
    return 0;
}

int tc_table_load(const tc_topo *t, tc_row *rows, FILE *f, char *err, size_t errlen)
{
    char line[TC_LINE_MAX], why[96];
    int lineno = 0, nports = 2 * t->ndims, r, rc = -1;
    int *first = calloc((size_t)t->n * TC_TREES, sizeof *first); /* the line that set each row */

    memset(rows, 0, sizeof(tc_row) * (size_t)t->n * TC_TREES);
    if (!first) {
        snprintf(err, errlen, "out of memory for a table of %d nodes", t->n);
        return -1;
    }
    while ((r = tc_read_line(f, line, sizeof line, why, sizeof why)) > 0) {
        char *hash = strchr(line, '#'), *tok[7], *save = NULL;
        unsigned long tree, node, root, pe;
        int ntok = 0, toroot = -1;
        unsigned dirs = 0;
        if (lineno == 0x7fffffff) {
            snprintf(err, errlen, "line %d: more lines than a table has", lineno);
            goto out;
        }
        lineno++;
        if (hash)
            *hash = 0;
        for (char *w = strtok_r(line, " \t\r", &save); w && ntok < 7; w = strtok_r(NULL, " \t\r", &save))
            tok[ntok++] = w;
        if (!ntok)
            continue;
        if (ntok != 6) {
            snprintf(err, errlen, "line %d: expected 'tree node root toroot pe dirs', found %s%d field%s", lineno,
                     ntok > 6 ? "more than " : "", ntok > 6 ? 6 : ntok, ntok == 1 ? "" : "s");
            goto out;
        }
        if (parse_num(tok[0], "tree", TC_TREES - 1, lineno, &tree, err, errlen) ||
            parse_num(tok[1], "node", (unsigned long)t->n - 1, lineno, &node, err, errlen) ||
            parse_num(tok[2], "root", 1, lineno, &root, err, errlen) ||
            parse_num(tok[4], "pe", 1, lineno, &pe, err, errlen))
            goto out;
        if (strcmp(tok[3], "-") && (toroot = parse_dir(tok[3], nports)) < 0) {
            snprintf(err, errlen, "line %d: toRoot '%.16s' is not a direction of this torus", lineno, tok[3]);
            goto out;
        }
        if (!root && toroot < 0) {
            snprintf(err, errlen, "line %d: tree %lu, node %lu is not the root but has no toRoot", lineno, tree, node);
            goto out;
        }
        if (root && toroot >= 0) { /* found by fuzzing: it was kept in the row, and lost on writing */
            snprintf(err, errlen, "line %d: tree %lu, node %lu is the root but names toRoot %s ('-' expected)", lineno,
                     tree, node, tok[3]);
            goto out;
        }
        if (strcmp(tok[5], "-"))
            for (char *s2 = NULL, *d = strtok_r(tok[5], ",", &s2); d; d = strtok_r(NULL, ",", &s2)) {
                int dir = parse_dir(d, nports);
                if (dir < 0) {
                    snprintf(err, errlen, "line %d: down direction '%.16s' is not a direction of this torus",
                             lineno, d);
                    goto out;
                }
                dirs |= 1u << dir;
            }
        int *was = &first[node * TC_TREES + tree];
        if (*was) {
            snprintf(err, errlen, "line %d: tree %lu, node %lu is listed twice (first at line %d)", lineno, tree,
                     node, *was);
            goto out;
        }
        *was = lineno;
        TC_ROWP(rows, node, tree) = tc_row_make((int)root, toroot, (int)pe, dirs);
    }
    if (r < 0) {
        snprintf(err, errlen, "line %d: %s", lineno + 1, why);
        goto out;
    }
    rc = tc_table_validate(t, rows, err, errlen) ? -1 : 0;
out:
    free(first);
    return rc;
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
