/* The GTKWave views of the co-simulation (make wave, docs/waves.md): the RTL's FST
 * with every block of the routers concerned grouped and named, and a mismatch's
 * observation records on both sides. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cmodel/config.h"
#include "dut.h"
#include "waveview.h"

/* GTKWave views (make wave, docs/waves.md). Times in the RTL's FST: two steps of
 * TC_WAVE_HALF_PS per cycle; the run's cycle 0 starts after reset (3 steps) and the
 * table writes (a cycle a tree): see tb/dut_rtl.cpp. */
static uint64_t wave_ps(uint64_t cycle) { return (3 + 2 * TC_TREES + 2 * cycle) * (uint64_t)TC_WAVE_HALF_PS; }

/* The translate filters of the header's enumerations, from format.def's constants
 * TYPE_* and OP_*: "DIR/tc_type.gtkwf" and "DIR/tc_op.gtkwf" (hex value, name). */
static void write_filters(const char *dir)
{
    static const struct {
        const char *file, *prefix;
    } enums[] = {{"tc_type.gtkwf", "TYPE_"}, {"tc_op.gtkwf", "OP_"}};
    static const struct {
        const char *name;
        int value;
    } consts[] = {
#define TC_HDR(n, l, w)
#define TC_ROW(n, l, w)
#define TC_OBS(n, l, w)
#define TC_CONST(n, v) {#n, v},
#include "../cmodel/format.def"
#undef TC_HDR
#undef TC_ROW
#undef TC_OBS
#undef TC_CONST
    };
    for (size_t e = 0; e < sizeof enums / sizeof enums[0]; e++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, enums[e].file);
        FILE *f = fopen(path, "w");
        if (!f) {
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
            continue;
        }
        for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
            if (!strncmp(consts[i].name, enums[e].prefix, strlen(enums[e].prefix)))
                fprintf(f, "%X %s\n", (unsigned)consts[i].value, consts[i].name + strlen(enums[e].prefix));
        fclose(f);
    }
}

/* The view's header: the file, the window from cycle `from` to `to`, the marker and
 * marker A (UINT64_MAX: none). */
static void gtkw_head(FILE *f, const char *dump, uint64_t from, uint64_t to, uint64_t marker, uint64_t marker_a)
{
    char abs[PATH_MAX]; /* so that the view opens from any directory */
    if (realpath(dump, abs))
        dump = abs;
    double span = (double)(wave_ps(to) - wave_ps(from)), zoom = 0;
    for (double px = span / 1100 * 200; px > 1; px /= 2) /* GTKWave's zoom: 2^-zoom / 200 time units a pixel */
        zoom -= 1;
    fprintf(f, "[dumpfile] \"%s\"\n[timestart] %" PRIu64 "\n[size] 1400 860\n[sst_width] 1\n"
            "[signals_width] 430\n[sst_expanded] 0\n*%.6f %" PRIu64,
            dump, wave_ps(from), zoom, wave_ps(marker));
    fprintf(f, " %" PRId64, marker_a == UINT64_MAX ? -1 : (int64_t)wave_ps(marker_a)); /* named marker A */
    for (int i = 1; i < 26; i++)
        fputs(" -1", f);
    fputc('\n', f);
}
/* A group's start (GTKWave's flags 800200; c00200: closed, a click opens it) or end. */
enum { GRP_OPEN, GRP_CLOSED, GRP_END };
static void gtkw_group(FILE *f, const char *name, int how)
{
    fprintf(f, "@%s\n-%s\n", how == GRP_END ? "1000200" : how == GRP_CLOSED ? "c00200" : "800200", name);
}
static void gtkw_comment(FILE *f, const char *text) { fprintf(f, "@200\n-%s\n", text); }

/* Every trace is shown under a label (GTKWave's alias) that fits the names' pane at
 * the view's opening: label_pfx, then the signal's name. */
static char label_pfx[64];

/* A trace: flags (GTKWave's: 22 hex, 28 binary, 24 decimal, 424 signed decimal, 2022
 * through the file filter `filter`), the full name with its range (width > 1). */
static void gtkw_sig(FILE *f, const char *flags, const char *filter, const char *path, const char *name, int width)
{
    if (filter)
        fprintf(f, "^1 %s\n", filter);
    fprintf(f, "@%s\n+{%s%s} %s.%s", flags, label_pfx, name, path, name);
    if (width > 1)
        fprintf(f, "[%d:0]", width - 1);
    fputc('\n', f);
}

/* A packet's decoded header fields: the monitor's wires PFX{type,tree,rid,op,src,tag};
 * on a port (hdr) also PFXhdr, the flits that are headers (the fields are the
 * packet's header over all its flits). */
static void gtkw_hdr(FILE *f, const char *dir, const char *path, const char *pfx, int op, int hdr)
{
    char n[64], ft[4200], fo[4200];
    snprintf(ft, sizeof ft, "%s/tc_type.gtkwf", dir);
    snprintf(fo, sizeof fo, "%s/tc_op.gtkwf", dir);
#define HDR_SIG(field, flags, filt, w) snprintf(n, sizeof n, "%s" field, pfx), gtkw_sig(f, flags, filt, path, n, w)
    if (hdr)
        HDR_SIG("hdr", "28", NULL, 1);
    HDR_SIG("type", "2022", ft, TC_HDR_TYPE_W);
    HDR_SIG("tree", "24", NULL, TC_HDR_TREE_W);
    HDR_SIG("rid", "24", NULL, TC_HDR_RID_W);
    if (op)
        HDR_SIG("op", "2022", fo, TC_HDR_OP_W);
    HDR_SIG("src", "24", NULL, TC_HDR_SRC_W);
    HDR_SIG("tag", "22", NULL, TC_HDR_TAG_W);
#undef HDR_SIG
}

/* Link port p's name: its dimension and direction (0 X+, 1 X-, 2 Y+, ...). */
static const char *port_name(int p)
{
    static const char *const names[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "W+", "W-"};
    return names[p];
}

/* One router's view, a group for each block: its PE and link ports with the header
 * fields decoded, the VC units (occupancy, head packet), the output arbiters, the
 * Reducer, the credit block and the phase counters. */
static void gtkw_router(FILE *f, const char *dir, int node, const char *role, int np, int ns, int slots,
                        int inj_slots, int red_rids)
{
    char title[96], p[96], c[112], s[160];
    int nu = TC_NUNITS(np, ns), no = TC_NOUTS(np, ns);
    snprintf(title, sizeof title, "router %d: %s", node, role);
    snprintf(p, sizeof p, tc_dut_rtl_router_scope(), node);
    snprintf(c, sizeof c, "%s.u_core", p);
    gtkw_group(f, title, GRP_OPEN);
    label_pfx[0] = '\0';
    gtkw_sig(f, "424", NULL, p, "cycle_q", 32); /* the run's cycle, as the co-simulation's messages count it */
    gtkw_group(f, "PE ports", GRP_OPEN);
    gtkw_sig(f, "28", NULL, p, "clk_i", 1);
    gtkw_sig(f, "28", NULL, p, "inj_valid_i", 1);
    gtkw_hdr(f, dir, p, "inj_", 1, 1);
    gtkw_sig(f, "28", NULL, p, "inj_cred_o", 1);
    gtkw_sig(f, "28", NULL, p, "ej_valid_o", 1);
    gtkw_hdr(f, dir, p, "ej_", 1, 1);
    gtkw_sig(f, "28", NULL, p, "ej_cred_i", 1);
    gtkw_group(f, "PE ports", GRP_END);
    gtkw_group(f, "links out", GRP_OPEN);
    gtkw_comment(f, "bit p: port p = dimension p/2, + then -");
    gtkw_sig(f, "28", NULL, p, "link_valid_o", np);
    gtkw_sig(f, "28", NULL, p, "link_vc_o", np);
    gtkw_sig(f, "22", NULL, p, "link_cred_i", 2 * np);
    for (int o = 0; o < np; o++) {
        snprintf(s, sizeof s, "%s.g_out[%d]", p, o);
        snprintf(label_pfx, sizeof label_pfx, "%s ", port_name(o));
        gtkw_hdr(f, dir, s, "link_", 0, 1);
    }
    gtkw_group(f, "links out", GRP_END);
    gtkw_group(f, "VC units", GRP_OPEN);
    for (int u = 0; u < nu; u++) {
        snprintf(s, sizeof s, "%s.g_unit[%d].u_unit", c, u);
        if (u < 2 * np)
            snprintf(label_pfx, sizeof label_pfx, "%d %s %s ", u, port_name(u / 2), u % 2 ? "VCDown" : "VCUp");
        else if (u > 2 * np && u < nu - 1 && ns > 1)
            snprintf(label_pfx, sizeof label_pfx, "%d results %d ", u, u - 2 * np - 1);
        else
            snprintf(label_pfx, sizeof label_pfx, "%d %s ", u, u == 2 * np ? "PE" : u < nu - 1 ? "results" : "reports");
        gtkw_sig(f, "28", NULL, s, "full_q", u == 2 * np ? inj_slots : slots);
        gtkw_sig(f, "28", NULL, s, "hv_q", 2);
        gtkw_sig(f, "28", NULL, s, "pend_q", no);
        snprintf(s, sizeof s, "%s.g_head[%d]", p, u);
        gtkw_hdr(f, dir, s, "head_", 0, 0);
    }
    gtkw_group(f, "VC units", GRP_END);
    gtkw_group(f, "arbiters", GRP_OPEN);
    gtkw_comment(f, "per output: granted this cycle, the unit granted");
    for (int o = 0; o < no; o++) {
        snprintf(s, sizeof s, "%s.g_out[%d].u_arb", c, o);
        if (o > np && ns > 1)
            snprintf(label_pfx, sizeof label_pfx, "to Reducer %d ", o - np - 1);
        else
            snprintf(label_pfx, sizeof label_pfx, "to %s ", o < np ? port_name(o) : o == np ? "PE" : "Reducer");
        gtkw_sig(f, "28", NULL, s, "gnt_o", 1);
        gtkw_sig(f, "24", NULL, s, "idx_o", 5);
    }
    gtkw_group(f, "arbiters", GRP_END);
    label_pfx[0] = '\0';
    gtkw_group(f, "Reducer", GRP_CLOSED);
    for (int k = 0; k < ns; k++) { /* its slices: slice k takes the trees t with t mod ns = k */
        snprintf(s, sizeof s, "%s.g_slice[%d].u_reducer", c, k);
        if (ns > 1)
            snprintf(label_pfx, sizeof label_pfx, "slice %d ", k);
        gtkw_sig(f, "28", NULL, s, "first_q", 1);
        gtkw_sig(f, "28", NULL, s, "last_q", 1);
        gtkw_sig(f, "24", NULL, s, "tree_q", 4);
        gtkw_sig(f, "24", NULL, s, "rid_q", __builtin_ctz((unsigned)red_rids)); /* log2(RedRids) bits */
        gtkw_sig(f, "24", NULL, s, "idx_q", 3);
        gtkw_sig(f, "24", NULL, s, "h_cnt", 4);
        gtkw_sig(f, "22", NULL, s, "waddr_full", 32);
        gtkw_sig(f, "22", NULL, s, "raddr_full", 32);
        gtkw_sig(f, "28", NULL, s, "cp_on_q", 1);
        gtkw_sig(f, "24", NULL, s, "cp_slot_q", 8 - (ns > 1) - (ns > 2)); /* {the slice's tree, ReduceId} */
    }
    gtkw_comment(f, "FSUM, at an element's flit 1: stored, incoming, result; a PE's value converted in; at the root the value converted out (reals)");
    for (int k = 0; k < ns; k++) { /* the monitor's g_fsum[k]: slice k's */
        snprintf(s, sizeof s, "%s.g_fsum[%d]", p, k);
        if (ns > 1)
            snprintf(label_pfx, sizeof label_pfx, "slice %d ", k);
        gtkw_sig(f, "28", NULL, s, "fsum_on", 1);
        gtkw_sig(f, "40000", NULL, s, "fsum_a", 64); /* GTKWave's TR_REAL: a 64-bit vector as binary64 */
        gtkw_sig(f, "40000", NULL, s, "fsum_b", 64);
        gtkw_sig(f, "40000", NULL, s, "fsum_y", 64);
        gtkw_sig(f, "28", NULL, s, "fsum_in_on", 1);
        gtkw_sig(f, "40000", NULL, s, "fsum_in", 64);
        gtkw_sig(f, "28", NULL, s, "fsum_cv_on", 1);
        gtkw_sig(f, "40000", NULL, s, "fsum_cv", 64);
    }
    label_pfx[0] = '\0';
    gtkw_group(f, "Reducer", GRP_END);
    gtkw_group(f, "credit block", GRP_CLOSED);
    snprintf(s, sizeof s, "%s.u_credit_block", c);
    gtkw_sig(f, "24", NULL, s, "n_q", 3);
    gtkw_sig(f, "24", NULL, s, "lost_q", 8);
    gtkw_group(f, "credit block", GRP_END);
    gtkw_group(f, "phase counters", GRP_CLOSED);
    snprintf(s, sizeof s, "%s.u_phase", c);
    gtkw_sig(f, "24", NULL, s, "mode_q", 2);
    gtkw_sig(f, "24", NULL, s, "ph_q", 13);
    gtkw_sig(f, "24", NULL, s, "target_q", 13);
    gtkw_sig(f, "24", NULL, s, "total_q", 16);
    gtkw_sig(f, "28", NULL, s, "cnt_q", 2 * np);
    gtkw_group(f, "phase counters", GRP_END);
    gtkw_group(f, title, GRP_END);
}

/* The RTL's view: the routers of the key event, the window from..to, the markers. */
void tc_wave_view(const char *gtkw, const char *fst, const char *dir, const int *nodes, const char *const *roles,
                       int nn, const tc_params *p, uint64_t from, uint64_t to, uint64_t marker, uint64_t marker_a)
{
    FILE *f = fopen(gtkw, "w");
    if (!f) {
        fprintf(stderr, "%s: %s\n", gtkw, strerror(errno));
        return;
    }
    char abs[4096]; /* GTKWave looks for the filters from where it runs */
    if (!realpath(dir, abs))
        snprintf(abs, sizeof abs, "%s", dir);
    write_filters(abs);
    gtkw_head(f, fst, from, to, marker, marker_a);
    for (int i = 0; i < nn; i++)
        gtkw_router(f, abs, nodes[i], roles[i], 2 * p->ndims, p->red_slices, p->slots, p->inj_slots, p->red_rids);
    fclose(f);
}

/* The parts of an observation record (tc_router.v's obs): a unit's, an output's, the
 * Reducer's, the phase counters'. */
typedef struct {
    const char *name;
    int lsb, width;
} obs_field;
static const obs_field obs_fields[] = {
#define TC_HDR(n, l, w)
#define TC_ROW(n, l, w)
#define TC_CONST(n, v)
#define TC_OBS(n, l, w) {#n, l, w},
#include "../cmodel/format.def"
#undef TC_OBS
};
#define OBS_PARTS(np, ns) (TC_NUNITS(np, ns) + TC_NOUTS(np, ns) + (ns) + 1)
/* Part i of the record: its name, its first bit, the prefix of its fields (U_, O_, R_, P_). */
static const char *obs_part(int np, int ns, int i, char *name, size_t len, unsigned *lsb)
{
    int nu = TC_NUNITS(np, ns), no = TC_NOUTS(np, ns);
    if (i < nu) {
        snprintf(name, len, "unit%d", i);
        *lsb = (unsigned)i * TC_OBS_UNIT_W;
        return "U_";
    }
    if (i < nu + no) {
        snprintf(name, len, "out%d", i - nu);
        *lsb = (unsigned)nu * TC_OBS_UNIT_W + (unsigned)(i - nu) * TC_OBS_OUT_W;
        return "O_";
    }
    if (i < nu + no + ns) {
        if (ns > 1)
            snprintf(name, len, "reducer%d", i - nu - no);
        else
            snprintf(name, len, "reducer");
        *lsb = TC_OBS_RED_LSB(np, ns, i - nu - no);
        return "R_";
    }
    snprintf(name, len, "phase");
    *lsb = TC_OBS_PH_LSB(np, ns);
    return "P_";
}

/* The mismatch view: a VCD of the decoded observation records of one node on both
 * sides (scopes rtl and cmodel, the same names) and their exclusive or (scope differ:
 * a 1 is a bit that differs), cycles from..at of the history hist[side][cycle % nh]
 * (the node's records), and its GTKWave save file with the parts that differ somewhere
 * in the window, the differing bits first, the marker at the mismatch cycle `at`. */
void tc_wave_mismatch_view(const char *vcd, const char *gtkw, const uint32_t *const hist[2], int nh, int np,
                                int ns, int node, uint64_t from, uint64_t at)
{
    size_t ow = (size_t)TC_OBS_WORDS(np, ns), nf = sizeof obs_fields / sizeof obs_fields[0];
    static const char *const side_name[3] = {"rtl", "cmodel", "differ"},
                             *const side_title[3] = {"RTL", "C model", "bits that differ (RTL xor C model)"};
    char part[32];
    unsigned lsb;
    int differ[OBS_PARTS(TC_MAX_PORTS, TC_MAX_SLICES)] = {0};
    FILE *f = fopen(vcd, "w");
    if (!f) {
        fprintf(stderr, "%s: %s\n", vcd, strerror(errno));
        return;
    }
    for (int i = 0; i < OBS_PARTS(np, ns); i++) {
        const char *pfx = obs_part(np, ns, i, part, sizeof part, &lsb);
        for (uint64_t t = from; t <= at; t++)
            for (size_t k = 0; k < nf; k++)
                if (!strncmp(obs_fields[k].name, pfx, 2))
                    differ[i] |= tc_bv_get(hist[0] + (t % (uint64_t)nh) * ow, lsb + (unsigned)obs_fields[k].lsb,
                                           (unsigned)obs_fields[k].width) !=
                                 tc_bv_get(hist[1] + (t % (uint64_t)nh) * ow, lsb + (unsigned)obs_fields[k].lsb,
                                           (unsigned)obs_fields[k].width);
    }
    fprintf(f, "$comment node %d's observation records, RTL and C model, cycles %" PRIu64 "..%" PRIu64
            " $end\n$timescale 1ps $end\n", node, from, at);
    int id = 0;
    for (int s = 0; s < 3; s++) {
        fprintf(f, "$scope module %s $end\n", side_name[s]);
        for (int i = 0; i < OBS_PARTS(np, ns); i++) {
            const char *pfx = obs_part(np, ns, i, part, sizeof part, &lsb);
            fprintf(f, "$scope module %s $end\n", part);
            for (size_t k = 0; k < nf; k++)
                if (!strncmp(obs_fields[k].name, pfx, 2))
                    fprintf(f, "$var wire %d %c%c %s $end\n", obs_fields[k].width, 33 + id / 94, 33 + id % 94,
                            obs_fields[k].name + 2), id++;
            fputs("$upscope $end\n", f);
        }
        fputs("$upscope $end\n", f);
    }
    fputs("$enddefinitions $end\n", f);
    for (uint64_t t = from; t <= at + 1; t++) {
        fprintf(f, "#%" PRIu64 "\n", wave_ps(t));
        id = 0;
        for (int s = 0; s < 3; s++) /* after the mismatch: x, not recorded */
            for (int i = 0; i < OBS_PARTS(np, ns); i++) {
                const char *pfx = obs_part(np, ns, i, part, sizeof part, &lsb);
                for (size_t k = 0; k < nf; k++)
                    if (!strncmp(obs_fields[k].name, pfx, 2)) {
                        uint64_t v[2] = {0, 0};
                        for (int h = 0; h < 2 && t <= at; h++)
                            v[h] = tc_bv_get(hist[h] + (t % (uint64_t)nh) * ow, lsb + (unsigned)obs_fields[k].lsb,
                                             (unsigned)obs_fields[k].width);
                        uint64_t val = s < 2 ? v[s] : v[0] ^ v[1];
                        if (obs_fields[k].width == 1) {
                            fprintf(f, "%c%c%c\n", t > at ? 'x' : '0' + (int)val, 33 + id / 94, 33 + id % 94);
                        } else {
                            fputc('b', f);
                            for (int b = obs_fields[k].width - 1; b >= 0; b--)
                                fputc(t > at ? 'x' : '0' + (int)((val >> b) & 1), f);
                            fprintf(f, " %c%c\n", 33 + id / 94, 33 + id % 94);
                        }
                        id++;
                    }
            }
    }
    fprintf(f, "#%" PRIu64 "\n", wave_ps(2 * at + 2 - from)); /* the dump's end past the view's window */
    fclose(f);

    if (!(f = fopen(gtkw, "w"))) {
        fprintf(stderr, "%s: %s\n", gtkw, strerror(errno));
        return;
    }
    gtkw_head(f, vcd, from, at + 1, at, UINT64_MAX);
    static const int order[3] = {2, 0, 1}; /* the differing bits first */
    for (int j = 0; j < 3; j++) {
        int s = order[j];
        char title[80];
        snprintf(title, sizeof title, "%s: node %d", side_title[s], node);
        gtkw_group(f, title, GRP_OPEN);
        for (int i = 0; i < OBS_PARTS(np, ns); i++) {
            const char *pfx = obs_part(np, ns, i, part, sizeof part, &lsb);
            if (!differ[i])
                continue;
            char path[64];
            snprintf(path, sizeof path, "%s.%s", side_name[s], part);
            gtkw_comment(f, path);
            snprintf(label_pfx, sizeof label_pfx, "%s %s ", side_name[s], part);
            for (size_t k = 0; k < nf; k++)
                if (!strncmp(obs_fields[k].name, pfx, 2))
                    gtkw_sig(f, obs_fields[k].width == 1 || s == 2 ? "28" : "22", NULL, path, obs_fields[k].name + 2,
                             obs_fields[k].width);
        }
        gtkw_group(f, title, GRP_END);
    }
    fclose(f);
}

