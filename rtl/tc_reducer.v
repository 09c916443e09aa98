// Reducer (seed 001, 2.3): for every (TreeId, ReduceId) a count of contributions and
// the partial result. A contribution streams in one flit a cycle from the Reducer's
// output register; its header is counted, each data flit is combined by the ALU with
// the stored partial result (the first contribution is stored as it is), and the
// last contribution's flits go straight to the result buffer, header first (with
// SRC = this node), so the result leaves as the last contribution arrives.
// Every contribution after the first must repeat its type, op, lane, length and DST
// (else ERR_MISMATCH: counted, not combined, the result marked POISON) and come from
// a source that has not contributed yet (else ERR_RID_REUSE: ignored).
// Same as the Reducer part of tc_router_cycle() in cmodel/router.c.
`default_nettype none
`include "tc_format.vh"

module tc_reducer #(
  parameter integer NumPorts = 4,
  parameter integer RedFlits = 2 // data flits held per (TreeId, ReduceId)
) (
  input  wire                           clk_i,
  input  wire                           rst_ni,
  input  wire [15:0]                    node_id_i,
  input  wire [`TC_TREES*`TC_ROW_W-1:0] table_i,
  input  wire                           in_valid_i,
  input  wire [`TC_FLIT_W-1:0]          in_flit_i,
  input  wire [4:0]                     src_i,        // unit that sent the contribution
  output wire                           res_valid_o,  // a flit of a result
  output reg  [`TC_FLIT_W-1:0]          res_flit_o,
  output wire                           release_o,    // a reserved result slot not needed
  output wire [3:0]                     err_o,        // ERR_MISMATCH or ERR_RID_REUSE
  output wire                           made_o,       // a result is made (its header, this cycle)
  output wire [`TC_OBS_RED_W-1:0]       obs_o
);
  localparam integer AW = $clog2(`TC_TREES * 16 * RedFlits);

  localparam integer AttrW = 4 + 4 + 2 + 3 + 16; // type, op, lane, len, dst

  reg [3:0]            cnt_q  [0:255];   // contributions counted, valid where busy_q
  reg [8:0]            seen_q [0:255];   // sources that contributed: link ports, bit 8 the PE
  reg [AttrW-1:0]      attr_q [0:255];   // the first contribution's header fields
  reg [255:0]          busy_q;           // a reduce in progress: no reset of the arrays needed
  reg [255:0]          poison_q;
  reg [2:0] idx_q, len_q;
  reg [3:0] tree_q, rid_q, op_q;
  reg [1:0] lane_q;
  reg       first_q, last_q, skip_q, keep_q;

  wire       hdr    = in_valid_i && idx_q == 3'd0;
  wire [3:0] h_tree = in_flit_i[`TC_HDR_TREE_LSB +: `TC_HDR_TREE_W];
  wire [3:0] h_rid  = in_flit_i[`TC_HDR_RID_LSB +: `TC_HDR_RID_W];
  wire [2:0] h_len  = in_flit_i[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W];
  wire       h_poison = in_flit_i[`TC_HDR_POISON_LSB];
  wire [AttrW-1:0] h_attr = {in_flit_i[`TC_HDR_TYPE_LSB +: 4], in_flit_i[`TC_HDR_OP_LSB +: 4],
                             in_flit_i[`TC_HDR_LANE_LSB +: 2], h_len, in_flit_i[`TC_HDR_DST_LSB +: 16]};
  wire [`TC_ROW_W-1:0] row = table_i[h_tree*`TC_ROW_W +: `TC_ROW_W];
  wire [4:0] expected = {4'd0, row[`TC_ROW_PE_LSB]} + {1'b0, row[`TC_ROW_DIRSUM_LSB +: `TC_ROW_DIRSUM_W]};
  wire [7:0] h_slot = {h_tree, h_rid};
  wire       h_busy = busy_q[h_slot];
  wire [3:0] h_cnt  = h_busy ? cnt_q[h_slot] : 4'd0;
  wire [AttrW-1:0] e_attr = attr_q[h_slot];
  wire [8:0] src_bit = ({27'd0, src_i} < 2 * NumPorts) ? 9'd1 << src_i[4:1] : 9'h100;

  wire       first    = hdr ? !h_busy : first_q;
  wire       skip     = hdr ? h_busy && (seen_q[h_slot] & src_bit) != 9'd0 : skip_q;
  wire       mismatch = hdr && h_busy && !skip && e_attr != h_attr;
  wire       last     = hdr ? !skip && {1'b0, h_cnt} + 5'd1 >= expected : last_q;
  wire       tail     = in_valid_i && (hdr ? h_len == 3'd0 : idx_q == len_q);
  // The partial results are in a two-port memory with a synchronous read, so the read
  // address is that of the next cycle's flit: data flit idx - 1 of the reduce then in
  // progress (0 while a header, which reads nothing, is due).
  wire [2:0]     idx_d  = !in_valid_i ? idx_q : tail ? 3'd0 : idx_q + 3'd1;
  wire [7:0]     slot_d = hdr ? h_slot : {tree_q, rid_q};
  wire [31:0]    waddr_full = {24'd0, tree_q, rid_q} * RedFlits + {29'd0, idx_q} - 32'd1;
  wire [31:0]    raddr_full = idx_d == 3'd0 ? 32'd0 : {24'd0, slot_d} * RedFlits + {29'd0, idx_d} - 32'd1;
  wire [AW-1:0]  waddr = waddr_full[AW-1:0];
  wire [AW-1:0]  raddr = raddr_full[AW-1:0];
  wire [2*(32-AW)-1:0] unused_addr = {waddr_full[31:AW], raddr_full[31:AW]};
  wire [`TC_FLIT_W-1:0] stored;
  tc_reducer_mem #(.Words(`TC_TREES * 16 * RedFlits), .Width(`TC_FLIT_W)) u_mem (
    .clk_i   (clk_i),
    .we_i    (in_valid_i && !hdr && !last && !skip),
    .waddr_i (waddr),
    .wdata_i (res_flit_o),
    .raddr_i (raddr),
    .rdata_o (stored)
  );

  wire [`TC_FLIT_W-1:0] combined;
  wire                  alu_invalid, alu_overflow;
  tc_alu u_alu (
    .a_i        (stored),
    .b_i        (in_flit_i),
    .op_i       (op_q),
    .lane_i     (lane_q),
    .y_o        (combined),
    .invalid_o  (alu_invalid),
    .overflow_o (alu_overflow)
  );
  wire unused_flags = alu_invalid | alu_overflow; // checked at injection (ERR_BAD_OP)

  always @* begin
    res_flit_o = in_flit_i;
    if (hdr) begin
      res_flit_o[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W] = node_id_i; // the result leaves from here
      if (!first) begin // with the first contribution's type, op, lane and DST
        res_flit_o[`TC_HDR_TYPE_LSB +: 4]  = e_attr[28:25];
        res_flit_o[`TC_HDR_OP_LSB +: 4]    = e_attr[24:21];
        res_flit_o[`TC_HDR_LANE_LSB +: 2]  = e_attr[20:19];
        res_flit_o[`TC_HDR_DST_LSB +: 16]  = e_attr[15:0];
        res_flit_o[`TC_HDR_POISON_LSB]     = poison_q[h_slot] || mismatch || h_poison;
      end
    end else if (!first)
      res_flit_o = keep_q ? stored : combined; // a contribution that disagreed keeps the stored value
  end
  assign res_valid_o = in_valid_i && last;
  assign release_o   = tail && !last;
  assign made_o      = hdr && last;
  assign err_o = !hdr ? 4'd0 : skip ? `TC_ERR_RID_REUSE : mismatch ? `TC_ERR_MISMATCH : 4'd0;

  always @(posedge clk_i) begin
    if (hdr && !skip) begin
      cnt_q[h_slot]  <= h_cnt + 4'd1;
      seen_q[h_slot] <= (first ? 9'd0 : seen_q[h_slot]) | src_bit;
      if (first)
        attr_q[h_slot] <= h_attr;
    end
  end

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      busy_q   <= 256'd0;
      poison_q <= 256'd0;
      idx_q    <= 3'd0;
      len_q    <= 3'd0;
      tree_q   <= 4'd0;
      rid_q    <= 4'd0;
      op_q     <= 4'd0;
      lane_q   <= 2'd0;
      first_q  <= 1'b0;
      last_q   <= 1'b0;
      skip_q   <= 1'b0;
      keep_q   <= 1'b0;
    end else begin
      if (hdr) begin
        if (!skip) begin
          busy_q[h_slot]   <= !last;
          poison_q[h_slot] <= (first ? 1'b0 : poison_q[h_slot]) | mismatch | h_poison;
        end
        len_q   <= h_len;
        tree_q  <= h_tree;
        rid_q   <= h_rid;
        op_q    <= in_flit_i[`TC_HDR_OP_LSB +: `TC_HDR_OP_W];
        lane_q  <= in_flit_i[`TC_HDR_LANE_LSB +: `TC_HDR_LANE_W];
        first_q <= first;
        last_q  <= last;
        skip_q  <= skip;
        keep_q  <= mismatch;
      end
      if (in_valid_i)
        idx_q <= tail ? 3'd0 : idx_q + 3'd1;
    end

  assign obs_o[`TC_OBS_R_HDR_LSB]   = hdr;
  assign obs_o[`TC_OBS_R_FIRST_LSB] = hdr && first;
  assign obs_o[`TC_OBS_R_LAST_LSB]  = hdr && last;
  assign obs_o[`TC_OBS_R_TAG_LSB +: `TC_OBS_R_TAG_W] =
      hdr ? in_flit_i[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W] : 32'd0;
`ifdef FORMAL_TC_REDUCER // defined by sim/formal.sh when this module is the top
  // ---- formal proof (make formal, sim/formal.sh): whatever flits arrive, a reduce in
  // progress has counted at least one and fewer contributions than its tree expects,
  // one per distinct source, so the count never exceeds the expected one. Checked
  // for one slot picked by the solver, which stands for every slot. ----
  reg f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;
  (* anyconst *) reg [`TC_TREES*`TC_ROW_W-1:0] f_table; // loaded while idle
  (* anyconst *) reg [15:0] f_node;
  always @* assume(rst_ni == !f_init && table_i == f_table && node_id_i == f_node);

  (* anyconst *) reg [7:0] f_slot;
  wire [`TC_ROW_W-1:0] f_row = table_i[f_slot[7:4]*`TC_ROW_W +: `TC_ROW_W];
  wire [4:0] f_expected = {4'd0, f_row[`TC_ROW_PE_LSB]} + {1'b0, f_row[`TC_ROW_DIRSUM_LSB +: `TC_ROW_DIRSUM_W]};
  reg  [3:0] f_seen;
  integer f_k;
  always @* begin
    f_seen = 4'd0;
    for (f_k = 0; f_k < 9; f_k = f_k + 1) f_seen = f_seen + {3'd0, seen_q[f_slot][f_k]};
  end
  always @* if (rst_ni && busy_q[f_slot]) begin
    assert(cnt_q[f_slot] != 4'd0);
    assert({1'b0, cnt_q[f_slot]} < f_expected);
    assert(f_seen == cnt_q[f_slot]);
  end
  always @* if (rst_ni) assert(idx_q == 3'd0 || idx_q <= len_q);
`endif
endmodule
