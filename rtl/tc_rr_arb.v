// Round-robin arbiter: grants the first requester at or after the pointer, then
// moves the pointer past the winner. Same rule as rr_pick() in cmodel/router.c.
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
  reg [IdxW-1:0] ptr_q;
  integer i;

  always @* begin
    gnt_o = 1'b0;
    idx_o = {IdxW{1'b0}};
    for (i = 0; i < N; i = i + 1)
      if (!gnt_o && req_i[i] && i >= ptr_q) begin
        gnt_o = 1'b1;
        idx_o = i[IdxW-1:0];
      end
    for (i = 0; i < N; i = i + 1)
      if (!gnt_o && req_i[i]) begin
        gnt_o = 1'b1;
        idx_o = i[IdxW-1:0];
      end
  end

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni)
      ptr_q <= {IdxW{1'b0}};
    else if (gnt_o)
      ptr_q <= (idx_o == N[IdxW-1:0] - 1'b1) ? {IdxW{1'b0}} : idx_o + 1'b1;
endmodule
