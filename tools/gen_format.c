/* Prints, from cmodel/format.def, the RTL's `defines (rtl/tc_format.vh, no argument)
 * or the field tables of docs/packet-format.md (argument "md"): RTL, C model and
 * documentation share one packet format and one routing-table row. */
#include <stdio.h>
#include <string.h>

static void vh(void)
{
    puts("// Generated from cmodel/format.def by tools/gen_format.c: do not edit.");
    puts("`ifndef TC_FORMAT_VH");
    puts("`define TC_FORMAT_VH");
#define TC_HDR(n, l, w) printf("`define TC_HDR_%s_LSB %d\n`define TC_HDR_%s_W %d\n", #n, l, #n, w);
#define TC_ROW(n, l, w) printf("`define TC_ROW_%s_LSB %d\n`define TC_ROW_%s_W %d\n", #n, l, #n, w);
#define TC_OBS(n, l, w) printf("`define TC_OBS_%s_LSB %d\n`define TC_OBS_%s_W %d\n", #n, l, #n, w);
#define TC_CONST(n, v) printf("`define TC_%s %d\n", #n, v);
#include "../cmodel/format.def"
#undef TC_HDR
#undef TC_ROW
#undef TC_OBS
#undef TC_CONST
    puts("`endif");
}

static void md(void)
{
    puts("<!-- Generated from cmodel/format.def by tools/gen_format.c md: do not edit. -->");
    puts("### Header flit (128 bits)\n\n| field | bits | width |\n|---|---|---|");
#define TC_HDR(n, l, w) printf("| %s | %d..%d | %d |\n", #n, (l) + (w) - 1, l, w);
#define TC_ROW(n, l, w)
#define TC_OBS(n, l, w)
#define TC_CONST(n, v)
#include "../cmodel/format.def"
#undef TC_HDR
#undef TC_ROW
    puts("\n### Routing-table row (one per TreeId)\n\n| field | bits | width |\n|---|---|---|");
#define TC_HDR(n, l, w)
#define TC_ROW(n, l, w) printf("| %s | %d..%d | %d |\n", #n, (l) + (w) - 1, l, w);
#include "../cmodel/format.def"
#undef TC_ROW
#undef TC_OBS
    puts("\n### Observation records (the internal wire `obs` of tc_router)\n\n| field | bits | width |\n|---|---|---|");
#define TC_ROW(n, l, w)
#define TC_OBS(n, l, w) printf("| %s | %d..%d | %d |\n", #n, (l) + (w) - 1, l, w);
#include "../cmodel/format.def"
#undef TC_OBS
#undef TC_CONST
    puts("\n### Constants\n\n| name | value |\n|---|---|");
#define TC_OBS(n, l, w)
#define TC_CONST(n, v) printf("| %s | %d |\n", #n, v);
#include "../cmodel/format.def"
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "md"))
        md();
    else
        vh();
    return 0;
}
