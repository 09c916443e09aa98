// The router's ports, declared once: tc_router.v and the simulation-only monitor
// around it (tb/tc_router_mon.sv, which connects them with .*) have the same ones.
// NP (2 x NumDims, the link ports) and FW (the flit's width) are the including
// module's localparams.
`ifndef TC_ROUTER_PORTS_VH
`define TC_ROUTER_PORTS_VH
`define TC_ROUTER_PORTS \
  input  wire              clk_i, \
  input  wire              rst_ni, \
  input  wire [15:0]       node_id_i, \
  input  wire [15:0]       diam_i,       /* the torus's diameter: K of a barrier that names none (configuration) */ \
  /* configuration port: one routing-table row per cycle */ \
  input  wire              cfg_we_i, \
  input  wire [3:0]        cfg_tree_i, \
  input  wire [`TC_ROW_W-1:0] cfg_row_i, \
  /* links, direction d = 0 X+, 1 X-, 2 Y+, ... */ \
  input  wire [NP-1:0]     link_valid_i, \
  input  wire [NP-1:0]     link_vc_i, \
  input  wire [NP*FW-1:0]  link_flit_i, \
  output wire [2*NP-1:0]   link_cred_o,  /* bit 2d+vc: a slot of input d, VC vc, freed */ \
  output wire [NP-1:0]     link_valid_o, \
  output wire [NP-1:0]     link_vc_o, \
  output wire [NP*FW-1:0]  link_flit_o, \
  input  wire [2*NP-1:0]   link_cred_i, \
  /* PE: injection into the PEGroup FIFO, ejection to the PE */ \
  input  wire              inj_valid_i, \
  input  wire [FW-1:0]     inj_flit_i, \
  output wire              inj_cred_o, \
  output wire              ej_valid_o, \
  output wire [FW-1:0]     ej_flit_o, \
  input  wire              ej_cred_i
`endif
