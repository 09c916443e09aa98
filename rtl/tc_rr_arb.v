// Round-robin arbiter: grants the first requester at or after the pointer, then
// moves the pointer past the winner. Same rule as rr_pick() in cmodel/router.c.
// The first requester is found by a binary tree of log2 levels, so the arbiter stays
// shallow for the Reducer's 256 held results as for an output's units (a chain of
// priority gates was 344 FO4 deep at 256 requesters; docs/synth.md). The tree is
// written out node by node (a generate loop, not a loop in a function), so Verilator
// builds it once instead of running a 256-step loop every evaluation (docs/bench.md).
`default_nettype none

module tc_rr_arb #(
  parameter integer N = 9,
  parameter integer IdxW = 5
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire [N-1:0]    req_i,
  output reg             gnt_o,
  output reg  [IdxW-1:0] idx_o
);
  localparam integer W = 1 << IdxW; // requesters, padded to a power of two

  // verilator coverage_off
  // Height of node p of the tree in heap order (root 1, children of p at 2p and
  // 2p + 1, requester i at W + i): IdxW at the root, 0 at a requester.
  function automatic integer height(input integer p);
    integer q;
    begin
      height = IdxW;
      for (q = p; q > 1; q = q / 2)
        height = height - 1;
    end
  endfunction
  // verilator coverage_on

  reg  [IdxW-1:0] ptr_q;
  reg  [W-1:0]    req, upper;
  always @* begin
    req = {W{1'b0}};
    req[N-1:0] = req_i;
    upper = req & ({W{1'b1}} << ptr_q); // the requesters at or after the pointer
  end

  // Two trees, over upper and over req: node p holds {any bit set below it, index of
  // the lowest set bit relative to its leftmost requester} (split_var: each node is
  // its own variable for Verilator, so the tree is no combinational loop to it).
  wire [2*W-1:1]         any_up /*verilator split_var*/, any_all /*verilator split_var*/;
  wire [2*W*IdxW-1:IdxW] idx_up /*verilator split_var*/, idx_all /*verilator split_var*/;
  genvar p;
  generate
    for (p = 1; p < 2 * W; p = p + 1) begin : g_node
      if (p >= W) begin : g_leaf
        assign any_up[p]               = upper[p-W];
        assign any_all[p]              = req[p-W];
        assign idx_up[p*IdxW +: IdxW]  = {IdxW{1'b0}};
        assign idx_all[p*IdxW +: IdxW] = {IdxW{1'b0}};
      end else begin : g_merge
        localparam [IdxW-1:0] Right = 1 << (height(p) - 1); // offset of the right half
        assign any_up[p]  = any_up[2*p] | any_up[2*p+1];
        assign any_all[p] = any_all[2*p] | any_all[2*p+1];
        assign idx_up[p*IdxW +: IdxW]  = any_up[2*p] ? idx_up[2*p*IdxW +: IdxW]
                                                     : idx_up[(2*p+1)*IdxW +: IdxW] | Right;
        assign idx_all[p*IdxW +: IdxW] = any_all[2*p] ? idx_all[2*p*IdxW +: IdxW]
                                                      : idx_all[(2*p+1)*IdxW +: IdxW] | Right;
      end
    end
  endgenerate

  always @* begin
    gnt_o = any_all[1];
    idx_o = any_up[1] ? idx_up[IdxW +: IdxW] : any_all[1] ? idx_all[IdxW +: IdxW] : {IdxW{1'b0}};
  end

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni)
      ptr_q <= {IdxW{1'b0}};
    else if (gnt_o)
      ptr_q <= (idx_o == N[IdxW-1:0] - 1'b1) ? {IdxW{1'b0}} : idx_o + 1'b1;
endmodule
