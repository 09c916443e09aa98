/* Prints, from cmodel/params.def, the RTL's parameter defaults (rtl/tc_params.vh, no
 * argument), the table of docs/params.md (argument "md") or shell assignments of each
 * default and range for the scripts (argument "sh": TC_LINK_LAT=40 TC_LINK_LAT_MIN=1
 * TC_LINK_LAT_MAX=100000 ...): the C model, the tools' keys, the RTL, the Makefile, the
 * scripts and the documentation share one set of defaults. */
#include <stdio.h>
#include <string.h>

#include "../cmodel/net.h"

static void upper(const char *s, char *out)
{
    while ((*out++ = (char)(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s)))
        s++;
}

static void vh(void)
{
    char u[64];
    puts("// Generated from cmodel/params.def by tools/gen_params.c: do not edit.");
    puts("// The network parameters' defaults, for the parameter lists of the RTL.");
    puts("`ifndef TC_PARAMS_VH");
    puts("`define TC_PARAMS_VH");
#define TC_PARAM(key, vname, def, min, max, help) upper(#key, u), printf("`define TC_DEFAULT_%s %d\n", u, def);
#include "../cmodel/params.def"
#undef TC_PARAM
    puts("`endif");
}

static void md(void)
{
    char u[64];
    puts("<!-- Generated from cmodel/params.def by tools/gen_params.c md: do not edit. -->");
    puts("# Network parameters\n");
    puts("Every network parameter has one line in `cmodel/params.def`: its key (tcsim, tcnet and");
    puts("tccheck take `--key N` or `key=N`), the Verilog parameter, the Makefile variable that");
    puts("a Verilated build takes (`make cosim-params SLOTS=4`), the default and the legal");
    puts("values, which every tool checks alike. Changing a default there changes it for the C");
    puts("model, the tools, the RTL (`rtl/tc_params.vh`), the Makefile and this table.\n");
    puts("| key | Verilog | make | default | values | meaning |\n|---|---|---|---|---|---|");
#define TC_PARAM(key, vname, def, min, max, help)                                                                      \
    upper(#key, u), printf("| %s | %s | %s | %d | %d..%d | %s |\n", #key, #vname, u, def, (int)(min), (int)(max), help);
#include "../cmodel/params.def"
#undef TC_PARAM
}

static void sh(void)
{
    char u[64];
#define TC_PARAM(key, vname, def, min, max, help)                                                                      \
    upper(#key, u), printf("TC_%s=%d TC_%s_MIN=%d TC_%s_MAX=%d\n", u, def, u, (int)(min), u, (int)(max));
#include "../cmodel/params.def"
#undef TC_PARAM
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "md"))
        md();
    else if (argc > 1 && !strcmp(argv[1], "sh"))
        sh();
    else
        vh();
    return 0;
}
