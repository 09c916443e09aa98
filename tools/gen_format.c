/* Prints rtl/tc_format.vh from cmodel/format.def, so RTL and C model share one format. */
#include <stdio.h>

int main(void)
{
    puts("// Generated from cmodel/format.def by tools/gen_format.c: do not edit.");
    puts("`ifndef TC_FORMAT_VH");
    puts("`define TC_FORMAT_VH");
#define TC_HDR(n, l, w) printf("`define TC_HDR_%s_LSB %d\n`define TC_HDR_%s_W %d\n", #n, l, #n, w);
#define TC_ROW(n, l, w) printf("`define TC_ROW_%s_LSB %d\n`define TC_ROW_%s_W %d\n", #n, l, #n, w);
#define TC_OBS(n, l, w) printf("`define TC_OBS_%s_LSB %d\n`define TC_OBS_%s_W %d\n", #n, l, #n, w);
#define TC_CONST(n, v) printf("`define TC_%s %d\n", #n, v);
#include "../cmodel/format.def"
    puts("`endif");
    return 0;
}
