#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tc_read_line(FILE *f, char *buf, size_t size, char *err, size_t errlen)
{
    size_t n = 0;
    int c;
    errno = 0;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (c == 0) {
            snprintf(err, errlen, "a NUL byte at character %zu: not a text file", n + 1);
            return -1;
        }
        if (n + 1 >= size) {
            snprintf(err, errlen, "line longer than %zu characters", size - 1);
            return -1;
        }
        buf[n++] = (char)c;
    }
    buf[n] = 0;
    if (c == EOF && ferror(f)) {
        snprintf(err, errlen, "read error: %s", errno ? strerror(errno) : "unknown");
        return -1;
    }
    return c != EOF || n > 0;
}

int tc_config_init(tc_config *c, const tc_key *keys, size_t n)
{
    c->keys = keys;
    c->n = n;
    c->tool = NULL;
    c->val = calloc(n ? n : 1, sizeof *c->val);
    c->from = calloc(n ? n : 1, sizeof *c->from);
    if (!c->val || !c->from) {
        tc_config_free(c);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        snprintf(c->val[i], sizeof c->val[i], "%s", keys[i].def);
    return 0;
}

void tc_config_free(tc_config *c)
{
    free(c->val);
    free(c->from);
    c->val = NULL;
    c->from = NULL;
}

int tc_config_find(const tc_config *c, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->keys[i].key, key))
            return (int)i;
    return -1;
}

static int need(const tc_config *c, const char *key)
{
    int i = tc_config_find(c, key);
    if (i < 0) { /* a bug in the caller, not bad input */
        fprintf(stderr, "tc_config: key '%s' is not declared\n", key);
        abort();
    }
    return i;
}

const char *tc_config_str(const tc_config *c, const char *key) { return c->val[need(c, key)]; }
long tc_config_int(const tc_config *c, const char *key) { return strtol(c->val[need(c, key)], NULL, 10); }

int tc_config_enum(const tc_config *c, const char *key)
{
    int i = need(c, key);
    for (int e = 0; c->keys[i].enums && c->keys[i].enums[e]; e++)
        if (!strcmp(c->val[i], c->keys[i].enums[e]))
            return e;
    return 0;
}

/* Levenshtein distance of a and b, at most cap + 1 (enough to tell a near miss). */
static int distance(const char *a, const char *b, int cap)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return cap + 1;
    int d[65], prev;
    for (size_t j = 0; j <= lb; j++)
        d[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        prev = d[0];
        d[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int t = d[j], c = prev + (a[i - 1] != b[j - 1]);
            c = d[j] + 1 < c ? d[j] + 1 : c;
            c = d[j - 1] + 1 < c ? d[j - 1] + 1 : c;
            d[j] = c;
            prev = t;
        }
    }
    return d[lb] > cap ? cap + 1 : d[lb];
}

const char *tc_suggest(const char *word, const char *const *names, size_t n, size_t stride)
{
    const char *best = NULL, *pre = NULL;
    int bd = 3, ties = 0, npre = 0;
    size_t lw = strlen(word);
    for (size_t i = 0; i < n; i++) {
        const char *name = *(const char *const *)((const char *)names + i * stride);
        if (!name)
            break;
        if (lw && !strncmp(name, word, lw) && name[lw]) {
            pre = name;
            npre++;
        }
        int d = distance(word, name, 2);
        if (d < bd) {
            bd = d;
            best = name;
            ties = 1;
        } else if (d == bd) {
            ties++;
        }
    }
    if (npre)
        return npre == 1 ? pre : NULL; /* a prefix of several: none of them */
    return best && ties == 1 && bd < (int)lw ? best : NULL; /* not a word of its own length changed */
}

/* ": did you mean 'x'?" after err's text, if word has a near miss among names. */
static void suggest(char *err, size_t errlen, const char *word, const char *const *names, size_t n, size_t stride)
{
    const char *s = tc_suggest(word, names, n, stride);
    size_t o = strlen(err);
    if (s && o < errlen)
        snprintf(err + o, errlen - o, ": did you mean '%s'?", s);
}

static int onoff(const tc_key *s)
{
    return s->enums && !strcmp(s->enums[0], "off") && s->enums[1] && !strcmp(s->enums[1], "on");
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        *--e = 0;
    return s;
}

/* key = value from `where` (from: -1 the command line, taken as it is; else a line of
 * the file, where blanks around the key and the value are dropped). */
static int set(tc_config *c, const char *where, int from, char *k, char *v, char *err, size_t errlen)
{
    char pfx[112] = "";
    if (where)
        snprintf(pfx, sizeof pfx, "%s: ", where);
    if (from > 0) {
        k = trim(k);
        v = trim(v);
    }
    int i = tc_config_find(c, k);
    if (i < 0) {
        snprintf(err, errlen, "%sunknown key '%.64s'", pfx, k);
        suggest(err, errlen, k, &c->keys[0].key, c->n, sizeof c->keys[0]);
        if (!tc_suggest(k, &c->keys[0].key, c->n, sizeof c->keys[0]) && c->tool) {
            size_t o = strlen(err);
            snprintf(err + o, errlen - o, ": %s --help lists the keys", c->tool);
        }
        return -1;
    }
    const tc_key *s = &c->keys[i];
    if (c->from[i] && (c->from[i] > 0) == (from > 0)) {
        if (from > 0)
            snprintf(err, errlen, "%skey '%s' is set twice (first at line %d)", pfx, k, c->from[i]);
        else
            snprintf(err, errlen, "%skey '%s' is given twice: once is allowed", pfx, k);
        return -1;
    }
    if (strlen(v) >= sizeof c->val[i]) {
        snprintf(err, errlen, "%s%s = '%.32s...' is longer than %zu characters", pfx, k, v, sizeof c->val[i] - 1);
        return -1;
    }
    if (s->enums) {
        int ok = 0, ne = 0;
        while (s->enums[ne])
            ne++;
        if (onoff(s)) { /* an off/on key: the usual spellings of yes and no too */
            static const char *const yes[] = {"yes", "true", "y", NULL}, *const no[] = {"no", "false", "n", NULL};
            for (int e = 0; yes[e]; e++)
                v = !strcmp(v, yes[e]) ? (char *)"on" : !strcmp(v, no[e]) ? (char *)"off" : v;
        }
        for (int e = 0; e < ne; e++)
            ok |= !strcmp(v, s->enums[e]);
        if (!ok && v[0] >= '0' && v[0] <= '9' && (!v[1] || (v[0] != '0' && v[1] >= '0' && v[1] <= '9' && !v[2])) &&
            atoi(v) < ne) { /* a value's number, its place in the list (op = 2 is op = max) */
            v = (char *)s->enums[atoi(v)];
            ok = 1;
        }
        if (!ok) {
            size_t o = (size_t)snprintf(err, errlen, "%s%s = '%.64s' is not one of:", pfx, k, v);
            for (int e = 0; s->enums[e] && o < errlen; e++)
                o += (size_t)snprintf(err + o, errlen - o, " %s", s->enums[e]);
            if (o < errlen && onoff(s))
                snprintf(err + o, errlen - o, " (or yes, no)");
            suggest(err, errlen, v, s->enums, (size_t)ne, sizeof *s->enums);
            return -1;
        }
    } else if (s->min <= s->max) {
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (!((*v >= '0' && *v <= '9') || (*v == '-' && v[1] >= '0' && v[1] <= '9')) || *end || errno ||
            x < s->min || x > s->max) {
            snprintf(err, errlen, "%s%s = '%.64s' is not an integer in %ld..%ld", pfx, k, v, s->min, s->max);
            return -1;
        }
    }
    snprintf(c->val[i], sizeof c->val[i], "%s", v);
    c->from[i] = from;
    return 0;
}

int tc_config_read(tc_config *c, FILE *f, const char *name, char *err, size_t errlen)
{
    char line[TC_LINE_MAX], where[96], why[96];
    int no = 0, r;
    while ((r = tc_read_line(f, line, sizeof line, why, sizeof why)) > 0) {
        char *h = strchr(line, '#'), *eq, *l;
        if (++no == 0x7fffffff) { /* a line number an int cannot hold: no configuration is that long */
            snprintf(err, errlen, "%.80s: more than %d lines", name, no - 1);
            return -1;
        }
        snprintf(where, sizeof where, "%.80s:%d", name, no);
        if (h)
            *h = 0;
        if (!*(l = trim(line)))
            continue;
        if (!(eq = strchr(l, '='))) {
            snprintf(err, errlen, "%s: expected 'key = value'", where);
            return -1;
        }
        *eq = 0;
        if (set(c, where, no, l, eq + 1, err, errlen))
            return -1;
    }
    if (r < 0) {
        snprintf(err, errlen, "%.80s:%d: %s", name, no + 1, why);
        return -1;
    }
    return 0;
}

/* A key as a command line may spell it: '-' for '_' (link-lat is link_lat). */
static void underscores(char *k)
{
    for (; *k; k++)
        if (*k == '-')
            *k = '_';
}

/* One argument as key=value or --key=value; where NULL: the tools' format (no
 * "command line: " before the message). */
static int take_arg(tc_config *c, const char *where, const char *arg, char *err, size_t errlen)
{
    char buf[TC_LINE_MAX], *eq;
    const char *pfx = where ? "command line: " : "";
    if (strlen(arg) >= sizeof buf) {
        snprintf(err, errlen, "%sargument '%.32s...' is longer than %zu characters", pfx, arg, sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", arg[0] == '-' && arg[1] == '-' ? arg + 2 : arg);
    if (!(eq = strchr(buf, '='))) {
        snprintf(err, errlen, "%s'%.64s': expected key=value", pfx, arg);
        return -1;
    }
    *eq = 0;
    underscores(buf);
    return set(c, where, -1, buf, eq + 1, err, errlen);
}

int tc_config_arg(tc_config *c, const char *arg, char *err, size_t errlen)
{
    return take_arg(c, "command line", arg, err, errlen);
}

static int take_argv(tc_config *c, const char *where, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *a = argv[*i], *pfx = where ? "command line: " : "";
    if (strchr(a, '=')) { /* key=value or --key=value */
        (*i)++;
        return take_arg(c, where, a, err, errlen);
    }
    if (a[0] != '-' || a[1] != '-')
        return 1;
    char k[TC_VAL_MAX];
    snprintf(k, sizeof k, "%s", a + 2);
    underscores(k);
    int x = tc_config_find(c, k);
    if (x < 0 && where) {
        snprintf(err, errlen, "%sunknown option '%.64s'", pfx, a);
        return -1;
    }
    if (x < 0) /* the message of key=value */
        return set(c, where, -1, k, "", err, errlen);
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (where) { /* as before: a bare --flag of an off/on key unless one of its names follows */
        const char *const *e = c->keys[x].enums;
        int named = 0;
        for (int n = 0; e && v && e[n]; n++)
            named |= !strcmp(v, e[n]);
        if (e && !strcmp(e[0], "off") && e[1] && !strcmp(e[1], "on") && !named) {
            (*i)++;
            return set(c, where, -1, k, "on", err, errlen);
        }
    } else if (onoff(&c->keys[x]) && (!v || v[0] == '-' || strchr(v, '='))) {
        /* a bare --flag of an off/on key (nothing follows, or an option): on; a word
         * that follows is its value, checked as --flag=word would be */
        (*i)++;
        return set(c, where, -1, k, "on", err, errlen);
    }
    if (!v || (v[0] == '-' && v[1] == '-')) {
        snprintf(err, errlen, "%soption '%.64s' needs a value", pfx, a);
        if (!where) {
            size_t o = strlen(err);
            snprintf(err + o, errlen - o, ": %s", c->keys[x].help);
        }
        return -1;
    }
    *i += 2;
    return set(c, where, -1, k, (char *)v, err, errlen);
}

int tc_config_argv(tc_config *c, int argc, char **argv, int *i, char *err, size_t errlen)
{
    return take_argv(c, "command line", argc, argv, i, err, errlen);
}

int tc_config_cli(tc_config *c, const tc_cli *cli, int argc, char **argv)
{
    char err[512];
    c->tool = cli->tool;
    for (int a = 1; a < argc;) {
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
            printf("usage: %s %s\n\n", cli->tool, cli->args);
            tc_config_usage(stdout, c, cli->nusage ? cli->nusage : c->n);
            return 1;
        }
        if (!strcmp(argv[a], "--list") && cli->list) {
            cli->list(stdout);
            return 1;
        }
        int r = take_argv(c, NULL, argc, argv, &a, err, sizeof err);
        if (r < 0) {
            fprintf(stderr, "%s: %s%s\n", cli->tool, err, cli->hint ? cli->hint(err) : "");
            return 2;
        }
        if (r > 0 && a == 1 && cli->file) { /* a configuration file, before the options that override it */
            FILE *f = fopen(argv[a], "r");
            if (!f) {
                fprintf(stderr, "%s: cannot open configuration '%s': %s\n", cli->tool, argv[a], strerror(errno));
                return 2;
            }
            int bad = tc_config_read(c, f, argv[a], err, sizeof err);
            fclose(f);
            if (bad) {
                fprintf(stderr, "%s: %s%s\n", cli->tool, err, cli->hint ? cli->hint(err) : "");
                return 2;
            }
            a++;
        } else if (r > 0) {
            fprintf(stderr, "%s: '%s': expected --key value or key=value%s (%s --help lists the keys)\n", cli->tool,
                    argv[a], cli->file ? "; a configuration file comes first" : "", cli->tool);
            return 2;
        }
    }
    return 0;
}

const char *const tc_progress_names[] = {"off", "on", "auto", NULL};

int tc_config_progress(const tc_config *c)
{
    int e = tc_config_enum(c, "progress");
    return e == 1 || (e == 2 && isatty(2));
}

int tc_config_seed(const tc_config *c, uint64_t *seed)
{
    char opt[80];
    snprintf(opt, sizeof opt, "%s%sseed", c->tool ? c->tool : "", c->tool ? ": " : "");
    return tc_parse_num(opt, tc_config_str(c, "seed"), 0, UINT64_MAX, seed);
}

int tc_config_given(const tc_config *c, const char *key) { return c->from[need(c, key)] != 0; }

/* A numeric option: a decimal number in min..max, nothing else (decimal only, as the
 * configuration's numbers: "010" is ten, not eight). */
int tc_parse_num(const char *opt, const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : 0;
    if (!(*v >= '0' && *v <= '9') || *end || errno || x < min || x > max) {
        fprintf(stderr, "%s = '%s' is not an integer in %" PRIu64 "..%" PRIu64 "\n", opt, v, min, max);
        return -1;
    }
    *out = x;
    return 0;
}

void tc_config_usage(FILE *f, const tc_config *c, size_t n)
{
    fprintf(f, "keys (default):\n");
    for (size_t i = 0; i < n && i < c->n; i++) {
        const tc_key *k = &c->keys[i];
        fprintf(f, "  %-11s %-10s %s", k->key, k->def[0] ? k->def : "\"\"", k->help);
        for (int e = 0; k->enums && k->enums[e]; e++)
            fprintf(f, "%s%s", e ? " | " : ": ", k->enums[e]);
        fputc('\n', f);
    }
}
