// Error reports to the PE: every cycle's errors (the Reducer's first, then dropped
// packets, then route errors, lowest unit first) are queued one a cycle; more in a
// cycle, or with the queue full, are counted as lost. The oldest is written as a
// one-flit ERROR packet into the report buffer when it has room: OP = the error
// code, TREE/RID/TAG of the packet concerned, DST = unit | lost << 8.
// Same as the error part of tc_router_cycle() in cmodel/router.c.
`default_nettype none
`include "tc_format.vh"

module tc_reporter #(
  parameter integer NU = 11,
  localparam integer FW = `TC_FLIT_W
) (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire [15:0]    node_id_i,
  input  wire [3:0]     red_err_i,     // Reducer: mismatch or reuse
  input  wire [4:0]     red_unit_i,
  input  wire [FW-1:0]  red_hdr_i,
  input  wire [NU-1:0]  drop_i,        // header found no free slot
  input  wire [NU*FW-1:0] wr_hdr_i,    // the header each unit is receiving
  input  wire [NU*4-1:0] route_err_i,  // route decision errors
  input  wire [NU*FW-1:0] head_i,      // each unit's head packet header
  input  wire           ready_i,       // the report buffer has a free slot
  output wire           valid_o,
  output reg  [FW-1:0]  flit_o
);
  localparam integer Depth = `TC_ERRQ;
  localparam integer RecW = 4 + 4 + 4 + 5 + 32; // code, tree, rid, unit, tag
  localparam [3:0] ErrCredit = `TC_ERR_CREDIT;
  localparam [3:0] TypeError = `TC_TYPE_ERROR;

  reg [RecW-1:0] q_q [0:Depth-1];
  reg [2:0]      n_q;
  reg [7:0]      lost_q;

  // ---- the error of this cycle, and how many there were ----
  reg [RecW-1:0] rec;
  reg [4:0]      nev;
  integer u;
  always @* begin
    rec = {RecW{1'b0}};
    nev = 5'd0;
    if (red_err_i != 4'd0) begin
      rec = {red_err_i, red_hdr_i[`TC_HDR_TREE_LSB +: 4], red_hdr_i[`TC_HDR_RID_LSB +: 4], red_unit_i,
             red_hdr_i[`TC_HDR_TAG_LSB +: 32]};
      nev = 5'd1;
    end
    for (u = 0; u < NU; u = u + 1)
      if (drop_i[u]) begin
        if (nev == 5'd0)
          rec = {ErrCredit, wr_hdr_i[u*FW + `TC_HDR_TREE_LSB +: 4], wr_hdr_i[u*FW + `TC_HDR_RID_LSB +: 4],
                 u[4:0], wr_hdr_i[u*FW + `TC_HDR_TAG_LSB +: 32]};
        nev = nev + 5'd1;
      end
    for (u = 0; u < NU; u = u + 1)
      if (route_err_i[u*4 +: 4] != 4'd0) begin
        if (nev == 5'd0)
          rec = {route_err_i[u*4 +: 4], head_i[u*FW + `TC_HDR_TREE_LSB +: 4], head_i[u*FW + `TC_HDR_RID_LSB +: 4],
                 u[4:0], head_i[u*FW + `TC_HDR_TAG_LSB +: 32]};
        nev = nev + 5'd1;
      end
  end

  wire pop  = n_q != 3'd0 && ready_i;
  wire push = nev != 5'd0 && n_q < Depth[2:0];

  // ---- the report packet: one header flit ----
  wire [RecW-1:0] head = q_q[0];
  assign valid_o = pop;
  always @* begin
    flit_o = {FW{1'b0}};
    flit_o[`TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W] = TypeError;
    flit_o[`TC_HDR_OP_LSB +: `TC_HDR_OP_W]     = head[RecW-1 -: 4];
    flit_o[`TC_HDR_TREE_LSB +: `TC_HDR_TREE_W] = head[RecW-5 -: 4];
    flit_o[`TC_HDR_RID_LSB +: `TC_HDR_RID_W]   = head[RecW-9 -: 4];
    flit_o[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W]   = node_id_i;
    flit_o[`TC_HDR_DST_LSB +: `TC_HDR_DST_W]   = {lost_q, 3'd0, head[36:32]};
    flit_o[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W]   = head[31:0];
  end

  // ---- queue and lost count ----
  wire [8:0] lost_sum = {1'b0, pop ? 8'd0 : lost_q} + {4'd0, nev} - {8'd0, push};
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      n_q    <= 3'd0;
      lost_q <= 8'd0;
    end else begin
      n_q    <= n_q - {2'd0, pop} + {2'd0, push};
      lost_q <= lost_sum[8] ? 8'hff : lost_sum[7:0];
    end

  // entry k takes the new error if it is the first free one, else its successor on a pop
  wire [2:0] slot = pop ? n_q - 3'd1 : n_q;
  genvar gk;
  generate
    for (gk = 0; gk < Depth; gk = gk + 1) begin : g_q
      if (gk < Depth - 1) begin : g_mid
        always @(posedge clk_i)
          if (push && slot == gk)
            q_q[gk] <= rec;
          else if (pop)
            q_q[gk] <= q_q[gk + 1];
      end else begin : g_last
        always @(posedge clk_i)
          if (push && slot == gk)
            q_q[gk] <= rec;
      end
    end
  endgenerate
endmodule
