// Round-robin arbiter: grants the first requester at or after the pointer, then
// moves the pointer past the winner. Same rule as rr_pick() in cmodel/router.c.
// The first requester is found by a binary tree of log2 levels, so the arbiter stays
// shallow for the Reducer's 256 held results as for an output's units (a chain of
// priority gates, one requester after another, is as deep as there are requesters).
// en_i gates the grant, not the requests: with en_i low nothing is granted and the
// pointer stays, as with no request, but a condition that is known late in the cycle
// (the Reducer's copy waits for the result buffer's room, the Reducer's input for
// the copy) joins at the end instead of passing through the search. idx_o names the
// winner only with gnt_o.
`default_nettype none

module tc_rr_arb #(
  parameter integer N = 9,
  parameter integer IdxW = 5
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire [N-1:0]    req_i,
  input  wire            en_i,
  output reg             gnt_o,
  output reg  [IdxW-1:0] idx_o
);
  localparam integer W = 1 << IdxW; // requesters, padded to a power of two

  // {any bit set, index of the lowest set bit} of v: level l merges pairs of the
  // nodes of level l - 1 (in place: node k reads nodes 2k and 2k + 1)
  function [IdxW:0] lowest(input [W-1:0] v);
    reg [W-1:0]      any;
    reg [W*IdxW-1:0] idx;
    integer l, k;
    begin
      any = v;
      idx = {W*IdxW{1'b0}};
      for (l = 0; l < IdxW; l = l + 1)
        for (k = 0; k < (W >> (l + 1)); k = k + 1) begin
          idx[k*IdxW +: IdxW] = any[2*k] ? idx[2*k*IdxW +: IdxW]
                                          : idx[(2*k+1)*IdxW +: IdxW] | ({{(IdxW-1){1'b0}}, 1'b1} << l);
          any[k] = any[2*k] | any[2*k+1];
        end
      lowest = {any[0], idx[IdxW-1:0]};
    end
  endfunction

  reg  [IdxW-1:0] ptr_q;
  reg  [W-1:0]    req, upper;
  reg  [IdxW:0]   first_up, first_all;
  integer i;
  always @* begin
    req = {W{1'b0}};
    req[N-1:0] = req_i;
    for (i = 0; i < W; i = i + 1)
      upper[i] = req[i] && i >= ptr_q;
    first_up  = lowest(upper);
    first_all = lowest(req);
    gnt_o = en_i && first_all[IdxW];
    idx_o = first_up[IdxW] ? first_up[IdxW-1:0] : first_all[IdxW] ? first_all[IdxW-1:0] : {IdxW{1'b0}};
  end

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni)
      ptr_q <= {IdxW{1'b0}};
    else if (gnt_o)
      ptr_q <= (idx_o == N[IdxW-1:0] - 1'b1) ? {IdxW{1'b0}} : idx_o + 1'b1;
endmodule
