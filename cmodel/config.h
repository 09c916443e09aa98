/* Strict text input: a line reader that refuses what is not a text file, and
 * `key = value` configurations in which every key is declared with its default and
 * range; an unknown key, a key given twice, or a bad value is an error naming it. A key
 * with names takes a name or its place in the list (op = max or op = 2).
 * Used by the table loader (table.c) and the network simulator (tools/tcnet.c). */
#ifndef TC_CONFIG_H
#define TC_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TC_LINE_MAX 1024 /* a line holds at most TC_LINE_MAX - 1 characters */

/* Reads one line into buf (without its newline; the last line may lack one).
 * 1: a line; 0: end of file; -1: err says why: a line longer than size - 1
 * characters, a NUL byte (not a text file), or a read error (a directory). */
int tc_read_line(FILE *f, char *buf, size_t size, char *err, size_t errlen);
/* A numeric command-line option: a decimal number in min..max, nothing else; 0, or
 * -1 with a message on stderr: "OPT = 'v' is not an integer in min..max" (opt may
 * start with the tool's name: "tcsim: seed"). */
int tc_parse_num(const char *opt, const char *v, uint64_t min, uint64_t max, uint64_t *out);

typedef struct {
    const char *key, *def, *help;
    long min, max;            /* an integer in min..max; min > max: a string */
    const char *const *enums; /* or one of these names (NULL-terminated) */
} tc_key;

#define TC_VAL_MAX 512 /* a value holds at most TC_VAL_MAX - 1 characters */

typedef struct {
    const tc_key *keys;
    size_t n;
    char (*val)[TC_VAL_MAX];
    int *from; /* where each value was set: 0 default, -1 the command line, else its line in the file */
    const char *tool; /* set by tc_config_cli: messages name it */
} tc_config;

/* Every key at its default; -1 if out of memory. */
int tc_config_init(tc_config *c, const tc_key *keys, size_t n);
void tc_config_free(tc_config *c);
/* Reads `key = value` lines ('#' starts a comment) from f, called name in messages.
 * 0, or -1 and err naming name:line and the key. */
int tc_config_read(tc_config *c, FILE *f, const char *name, char *err, size_t errlen);
/* One `key=value` (or `--key=value`) command-line argument, taken as it is (no blanks
 * dropped); it may override the file, not itself. '-' and '_' are alike in a key. */
int tc_config_arg(tc_config *c, const char *arg, char *err, size_t errlen);
/* The one command-line style of tcsim, tcnet and tccheck: argv[*i] as `key=value`,
 * `--key=value` or `--key value`, '-' and '_' alike in a key (--link-lat is link_lat);
 * a bare `--key` of an off/on key turns it on. Moves *i past what it took. 0: taken;
 * 1: not an option (a configuration file, say), *i unmoved; -1: err says why. */
int tc_config_argv(tc_config *c, int argc, char **argv, int *i, char *err, size_t errlen);
/* The one command line of tcsim, tcnet and tccheck, and its one error format:
 * `TOOL: what is wrong: what is allowed`, with a near miss suggested for an unknown key
 * or name (": did you mean 'workload'?"). Each tool declares its keys and this: */
typedef struct {
    const char *tool;                  /* "tcnet": the messages' first word */
    const char *args;                  /* the usage line after the tool's name */
    size_t nusage;                     /* keys --help shows (0: all) */
    int file;                          /* a configuration file may come first */
    void (*list)(FILE *f);             /* --list prints names and descriptions (NULL: no --list) */
    const char *(*hint)(const char *err); /* more words on a message, or "" (NULL: none) */
} tc_cli;
/* Takes every argument: `key=value`, `--key=value`, `--key value`; a bare `--key` of
 * an off/on key is on, and the word after it (not an option) is its value, as
 * --key=word would be; off/on keys also take yes/no, true/false. --help and --list
 * print and return 1 (exit 0); a bad argument prints TOOL: message and returns 2 (exit
 * 2); 0: go on. */
int tc_config_cli(tc_config *c, const tc_cli *cli, int argc, char **argv);
/* The `progress` key of tcsim and tcnet: a progress line on stderr now and then. */
extern const char *const tc_progress_names[]; /* off on auto */
#define TC_PROGRESS_KEY {"progress", "auto", "progress on stderr now and then (auto: when stderr is a terminal)", 0, 0, tc_progress_names}
/* Whether the progress key asks for it (auto: stderr is a terminal). */
int tc_config_progress(const tc_config *c);
/* The `seed` key of tcsim, tcnet and tccheck: 0..2^64-1 (a string key, checked by
 * tc_config_seed). */
#define TC_SEED_KEY(help) {"seed", "1", help ", 0..2^64-1", 1, 0, NULL}
/* The seed's value; -1 with "TOOL: seed = 'x' is not an integer in 0..2^64-1" on stderr. */
int tc_config_seed(const tc_config *c, uint64_t *seed);
/* Whether key was given (in the file or on the command line). */
int tc_config_given(const tc_config *c, const char *key);
/* The near miss of word among n names (each stride bytes after the last, NULL ends
 * them early): the one name that word is a prefix of (none if several), else the one
 * nearest name at edit distance <= 2 (and less than word's length); NULL if none. */
const char *tc_suggest(const char *word, const char *const *names, size_t n, size_t stride);
/* The first n keys with their defaults, help and names, one a line. */
void tc_config_usage(FILE *f, const tc_config *c, size_t n);
/* Index of key, or -1. */
int tc_config_find(const tc_config *c, const char *key);
/* Values of declared keys (checked when they were set). */
const char *tc_config_str(const tc_config *c, const char *key);
long tc_config_int(const tc_config *c, const char *key);
int tc_config_enum(const tc_config *c, const char *key); /* index into the key's enums */

#endif
