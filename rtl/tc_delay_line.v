// Fixed latency: out at cycle t is in at cycle t - Latency. A ring of Latency
// entries, so a 150-cycle PCIe channel costs one write and one read per cycle.
`default_nettype none

module tc_delay_line #(
  parameter integer Width = 130,
  parameter integer Latency = 40
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire [Width-1:0] in_i,
  output wire [Width-1:0] out_o
);
  localparam integer PtrW = (Latency > 1) ? $clog2(Latency) : 1;

  reg [Width-1:0] mem_q [0:Latency-1];
  reg [PtrW-1:0]  ptr_q;
  reg             primed_q; // every entry written since reset: no reset of the RAM needed

  assign out_o = primed_q ? mem_q[ptr_q] : {Width{1'b0}};

  always @(posedge clk_i)
    mem_q[ptr_q] <= in_i;

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      ptr_q    <= {PtrW{1'b0}};
      primed_q <= 1'b0;
    end else if (ptr_q == Latency[PtrW-1:0] - 1'b1) begin
      ptr_q    <= {PtrW{1'b0}};
      primed_q <= 1'b1;
    end else begin
      ptr_q <= ptr_q + 1'b1;
    end
endmodule
