// Generated from cmodel/params.def by tools/gen_params.c: do not edit.
// The network parameters' defaults, for the parameter lists of the RTL.
`ifndef TC_PARAMS_VH
`define TC_PARAMS_VH
`define TC_DEFAULT_LINK_LAT 40
`define TC_DEFAULT_INJ_LAT 150
`define TC_DEFAULT_EJ_LAT 150
`define TC_DEFAULT_SLOTS 16
`define TC_DEFAULT_INJ_SLOTS 40
`define TC_DEFAULT_PE_CREDITS 48
`define TC_DEFAULT_RED_FLITS 2
`define TC_DEFAULT_RED_RIDS 16
`define TC_DEFAULT_RED_SLICES 1
`endif
