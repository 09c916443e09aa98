/* The network parameters' keys (cmodel/params.def), the one key table tcsim, tcnet
 * and tccheck share: included inside a tc_key array's initializer, so no include
 * guard. Needs config.h and net.h. */
#define TC_PARAM(key, vname, def, min, max, help) {#key, #def, help, min, max, NULL},
#include "params.def"
#undef TC_PARAM
