// A two-port SRAM: one write and one read port, the read synchronous (address in one
// cycle, data in the next). The Reducer's partial results and every input unit's
// packet buffer. This behavioural body is for simulation; synthesis (sim/synth.sh)
// keeps the module as a black box timed by a macro model. A read of the address
// written in the same cycle returns the old data; no user does one that it uses.
`default_nettype none

module tc_sram #(
  parameter integer Words = 512,
  parameter integer Width = 128,
  parameter integer AW    = $clog2(Words)
) (
  input  wire             clk_i,
  input  wire             we_i,
  input  wire [AW-1:0]    waddr_i,
  input  wire [Width-1:0] wdata_i,
  input  wire [AW-1:0]    raddr_i,
  output reg  [Width-1:0] rdata_o
);
  reg [Width-1:0] mem_q [0:Words-1];

  always @(posedge clk_i) begin
    if (we_i)
      mem_q[waddr_i] <= wdata_i;
    rdata_o <= mem_q[raddr_i];
  end
endmodule
