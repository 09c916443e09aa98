// Round-robin arbiter: grants the first requester at or after the pointer, then
// moves the pointer past the winner. Same rule as tc_rr_pick() in cmodel/rr_arb.h.
// The first requester is found by a binary tree of log2 levels, so the arbiter stays
// shallow for the Reducer's 256 held results as for an output's units (a chain of
// priority gates, one requester after another, is as deep as there are requesters).
// The tree is written out level by level (a generate loop, not a loop in a function),
// so Verilator builds it once instead of running a 256-step loop every evaluation
// (docs/bench.md). en_i gates the grant, not the requests: with en_i low nothing is
// granted and the pointer stays, as with no request, but a condition that is known
// late in the cycle (the Reducer's copy waits for the result buffer's room, the
// Reducer's input for the copy) joins at the end instead of passing through the
// search. idx_o names the winner only with gnt_o.
// Late marks requests that settle late in the cycle (the credit block's phase packet
// and barrier completion, after the Reducer's fence): they stay out of the search,
// whose winner then meets them in a last step that compares distances from the
// pointer, a function of the pointer alone, so a late request passes a few gates,
// not the tree. The grant is the same as if they had joined the search.
`default_nettype none

module tc_rr_arb #(
  parameter integer N = 9,
  parameter integer IdxW = 5,
  parameter [N-1:0] Late = {N{1'b0}}
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire [N-1:0]    req_i,
  input  wire            en_i,
  output reg             gnt_o,
  output reg  [IdxW-1:0] idx_o,
  output wire [IdxW-1:0] ptr_o,  // the requester favoured next (for proofs and waves)
  // the grant split for a user that wants the late requests last too: the search's
  // winner (among the requests not Late), and which late request wins, if one does
  // (then it, not the search's winner, is granted)
  output wire            srch_any_o,
  output wire [IdxW-1:0] srch_idx_o,
  output reg  [N-1:0]    late_win_o
);
  localparam integer W = 1 << IdxW; // requesters, padded to a power of two

  reg  [IdxW-1:0] ptr_q;
  reg  [W-1:0]    req, upper;
  always @* begin
    req = {W{1'b0}};
    req[N-1:0] = req_i & ~Late;
    upper = req & ({W{1'b1}} << ptr_q); // the requesters at or after the pointer
  end

  // Two trees, over upper and over req, level by level: node k of level l holds
  // {any bit set among its 2^l requesters, index of the lowest set one relative to
  // the first}, from nodes 2k and 2k + 1 of level l - 1. Each level is its own
  // variable, so the tree is no combinational loop to Verilator.
  genvar l, k;
  generate
    for (l = 0; l <= IdxW; l = l + 1) begin : g_lvl
      wire [(W >> l)-1:0]      any_up, any_all;
      wire [(W >> l)*IdxW-1:0] idx_up, idx_all;
      if (l == 0) begin : g_leaf
        assign any_up  = upper;
        assign any_all = req;
        assign idx_up  = {W*IdxW{1'b0}};
        assign idx_all = {W*IdxW{1'b0}};
      end else begin : g_merge
        for (k = 0; k < (W >> l); k = k + 1) begin : g_node
          localparam [IdxW-1:0] Right = 1 << (l - 1); // offset of the right half
          assign any_up[k]  = g_lvl[l-1].any_up[2*k] | g_lvl[l-1].any_up[2*k+1];
          assign any_all[k] = g_lvl[l-1].any_all[2*k] | g_lvl[l-1].any_all[2*k+1];
          assign idx_up[k*IdxW +: IdxW]  = g_lvl[l-1].any_up[2*k] ? g_lvl[l-1].idx_up[2*k*IdxW +: IdxW]
                                                                  : g_lvl[l-1].idx_up[(2*k+1)*IdxW +: IdxW] | Right;
          assign idx_all[k*IdxW +: IdxW] = g_lvl[l-1].any_all[2*k] ? g_lvl[l-1].idx_all[2*k*IdxW +: IdxW]
                                                                   : g_lvl[l-1].idx_all[(2*k+1)*IdxW +: IdxW] | Right;
        end
      end
    end
  endgenerate

  // the search's winner, e, and its rivals among the late requests: requester a
  // comes before b (both at most N - 1) if it is nearer the pointer going round
  wire            e_any = g_lvl[IdxW].any_all[0];
  wire [IdxW-1:0] e_idx = g_lvl[IdxW].any_up[0] ? g_lvl[IdxW].idx_up[IdxW-1:0] : g_lvl[IdxW].idx_all[IdxW-1:0];
  function automatic nearer(input [IdxW-1:0] a, input [IdxW-1:0] b, input [IdxW-1:0] p);
    nearer = (a >= p) != (b >= p) ? a >= p : a < b;
  endfunction
  integer a, b;
  always @* begin
    for (a = 0; a < N; a = a + 1) begin
      late_win_o[a] = Late[a] && req_i[a] && (!e_any || nearer(a[IdxW-1:0], e_idx, ptr_q));
      for (b = 0; b < N; b = b + 1)
        if (Late[b] && b != a && nearer(b[IdxW-1:0], a[IdxW-1:0], ptr_q))
          late_win_o[a] = late_win_o[a] && !req_i[b];
    end
    gnt_o = en_i && (e_any || (req_i & Late) != {N{1'b0}});
    idx_o = e_any ? e_idx : {IdxW{1'b0}};
    for (a = 0; a < N; a = a + 1)
      if (late_win_o[a])
        idx_o = a[IdxW-1:0];
  end
  assign srch_any_o = e_any;
  assign srch_idx_o = e_idx;

  assign ptr_o = ptr_q;

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni)
      ptr_q <= {IdxW{1'b0}};
    else if (gnt_o)
      ptr_q <= (idx_o == N[IdxW-1:0] - 1'b1) ? {IdxW{1'b0}} : idx_o + 1'b1;
`ifdef FORMAL_TC_RR_ARB // defined by sim/formal.sh when this module is the top
  // ---- formal proof (make formal): with late requests or without, the grant is the
  // plain round-robin rule over all requests (the C twin's tc_rr_pick): the first
  // requester at or after the pointer, else the first; the pointer stays in 0..N-1 ----
  reg f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;
  always @* assume(rst_ni == !f_init);
  reg            f_any, f_up;
  reg [IdxW-1:0] f_idx;
  integer f_k;
  always @* begin
    f_any = 1'b0;
    f_up  = 1'b0;
    f_idx = {IdxW{1'b0}};
    for (f_k = N - 1; f_k >= 0; f_k = f_k - 1)
      if (req_i[f_k] && (f_k >= ptr_q || !f_up)) begin
        f_up  = f_up || f_k >= ptr_q;
        f_any = 1'b1;
        f_idx = f_k[IdxW-1:0];
      end
  end
  always @* if (rst_ni) begin
    assert(ptr_q < N[IdxW-1:0]);
    assert(gnt_o == (en_i && f_any));
    assert(!gnt_o || idx_o == f_idx);
    assert(!gnt_o || late_win_o == (Late[f_idx] ? {{(N-1){1'b0}}, 1'b1} << f_idx : {N{1'b0}}));
    assert(!gnt_o || late_win_o != {N{1'b0}} || (srch_any_o && srch_idx_o == f_idx));
  end
`endif
endmodule
