// Reducer (Mukosey, Semenov, Simonov, 2015, section 2.3): for every (TreeId, ReduceId) a count of contributions and
// the partial result. A contribution streams in one flit a cycle from the Reducer's
// output register; its header is counted, each data flit is combined by the ALU with
// the stored partial result (the first contribution is stored as it is). The last
// contribution's flits go straight to the result buffer, header first (with SRC =
// this node), if the result buffer has a free slot and the result may leave (the
// root, or a credit of the parent); otherwise the result is held in memory, header
// first, and copied into the result buffer later, while no contribution comes in
// (the router holds the Reducer's input meanwhile). So the Reducer takes every
// contribution and never waits for the result buffer: a contribution cannot hold a
// VCUp slot while results wait for the VCUp slots of the parent (docs/deadlock.md).
// Every contribution after the first must repeat its type, op, lane, length and DST
// (else ERR_MISMATCH: counted, not combined, the result marked POISON) and come from
// a source that has not contributed yet (else ERR_RID_REUSE: ignored).
// The results of a tree enter the result buffer in ReduceId order (nxt_q, per tree:
// the ReduceId next): a result that completes out of turn is held, and only the
// held result of a tree's nxt may be copied. The credit block counts the results
// that enter the result buffer and credits the children for every 8, so a credit
// then means that the results of every earlier sequence have left this Reducer, and
// a child's result never finds its entry still in use by the reduce RedRids before it.
// For that the PEs use a tree's ReduceIds in turn, and this is where it is checked:
// a contribution of the PE out of turn (pe_nxt_q) is ignored with ERR_RID_ORDER.
// A Reducer of RedSlices slices is that many of these (Slice = 0 .. Slices-1), each
// with its own input and result buffer, each taking the trees t with t mod Slices =
// Slice: its entries are (t / Slices, ReduceId).
// At a tree's root an FSUM result (binned elements, docs/fpsum.md) is always held and
// leaves by a converting copy: its elements go through tc_fpsum_out, and the result
// buffer takes the header, with LEN the flits of values, and the values packed into
// lanes of the header's width (two binary64 or four binary32 a flit), so that the
// tree carries values down and the PEs receive them. A PE's FSUM contribution may
// come as IEEE values (VALS): the slice converts them into elements at its input
// (x_*, tc_fpsum_in), one every other cycle, holding its input until they are in.
// Its C twin: cmodel/reducer.c.
`default_nettype none
`include "tc_format.vh"

module tc_reducer #(
  parameter integer NumPorts = 4,
  parameter integer RedFlits = 2, // data flits held per (TreeId, ReduceId)
  parameter integer RedRids = 16, // ReduceIds a tree: 16, 32 or 64
  parameter integer Slices = 1,   // 1, 2 or 4
  parameter integer Slice = 0,
  localparam integer NT = `TC_TREES / Slices, // the slice's trees
  localparam integer TW = $clog2(NT),         // ... a local tree's width
  localparam integer RW = $clog2(RedRids),    // a ReduceId's width
  localparam integer SW = TW + RW             // an entry's: {local tree, ReduceId}
) (
  input  wire                           clk_i,
  input  wire                           rst_ni,
  input  wire [15:0]                    node_id_i,
  input  wire [`TC_TREES*`TC_ROW_W-1:0] table_i,
  input  wire                           in_valid_i,
  input  wire [`TC_FLIT_W-1:0]          in_flit_i,
  input  wire [4:0]                     src_i,        // unit that sent the contribution
  input  wire                           in_busy_i,    // the input's output register streams a packet
  input  wire                           res_room_i,   // the result buffer has a free slot
  input  wire [`TC_TREES-1:0]           up_ok_i,      // per tree: a credit of the parent is left
  input  wire                           src_fenced_i, // the contribution is fenced (tc_phase)
  input  wire                           snap_i,       // tc_phase takes a new fence: held results join it
  output wire                           res_valid_o,  // a flit of a result
  output wire [`TC_FLIT_W-1:0]          res_flit_o,
  output wire                           block_o,      // a held result is being copied: hold the input
  output wire [3:0]                     err_o,        // ERR_MISMATCH, ERR_RID_REUSE or ERR_RID_ORDER
  output wire                           complete_o,   // a reduce completes (its last contribution's header)
  output wire                           made_o,       // a result enters the result buffer ...
  output wire [3:0]                     made_tree_o,  // ... of this tree
  output wire                           res_fenced_o, // ... and it is fenced
  output wire                           copy_o,       // ... its copy begins (header next cycle)
  output wire                           fenced_o,     // a fenced result is held, or made this cycle
  output wire [`TC_OBS_RED_W-1:0]       obs_o
);
  localparam integer EW = RedFlits + 1; // memory words per (TreeId, ReduceId): a held result's header, data
  localparam integer AW = $clog2(NT * RedRids * EW);
  localparam integer NE = NT * RedRids;  // entries

  localparam integer AttrW = 4 + 4 + 2 + 3 + 16; // type, op, lane, len, dst

  reg [3:0]            cnt_q  [0:NE-1];  // contributions counted, valid where busy_q
  reg [8:0]            seen_q [0:NE-1];  // sources that contributed: link ports, bit 8 the PE
  reg [AttrW-1:0]      attr_q [0:NE-1];  // the first contribution's header fields
  reg [NE-1:0]         busy_q;           // a reduce in progress: no reset of the arrays needed
  reg [NE-1:0]         poison_q;
  reg [NE-1:0]         ready_q;          // complete, the result held here
  reg [NE-1:0]         fenced_q;         // ... and a barrier's phase packet waits for it
  reg [NT*RW-1:0]      nxt_q;            // per local tree, RW bits: the ReduceId whose result leaves next
  reg [NT*RW-1:0]      pe_nxt_q;         // per local tree, RW bits: the ReduceId the PE contributes to next
  reg [2:0] idx_q, len_q;
  reg [3:0] tree_q, op_q;
  reg [RW-1:0] rid_q;
  reg [1:0] lane_q;
  reg       first_q, last_q, skip_q, keep_q, fast_q;
  reg       cp_on_q;                     // copying a held result into the result buffer
  reg [3:0] cp_idx_q;                    // the copy's cycle: its word read this cycle
  reg [2:0] cp_len_q;                    // the held result's LEN
  reg [SW-1:0] cp_slot_q;
  reg       cp_root_q;                   // the copy's tree has its root here
  reg       cp_conv_q, cp_l32_q;         // the copy converts FSUM elements to values; binary32

  // ---- the conversion in: an FSUM contribution of IEEE values (VALS, docs/fpsum.md) ----
  // Its header goes on at once; its value flits are kept as they come (xv_q), and
  // value j is converted at cycle 2j + 1 after the header into an element (xe_q), whose
  // two flits the Reducer takes at 2j + 2 and 2j + 3: the data flits follow the header
  // as for a contribution of elements, one cycle later (tc_fpsum_in has a register
  // of its own, not the ALU's cycle). The input is held until the last one is in, so
  // the next header comes at LEN + 2 at the earliest.
  reg        x_on_q, x_l32_q;
  reg        x_val_q;                   // x_on_q, its cycles 2 .. LEN + 1: the Reducer takes a flit
  reg        x_hold_q;                  // x_on_q, its cycles 1 .. LEN: the input is held
  reg [3:0]  x_cyc_q;                   // the cycle after the header: 1 .. LEN + 1
  reg [2:0]  x_len_q;
  reg [`TC_FLIT_W-1:0] xv0_q, xv1_q;    // value flits 0 and 1 (at most 3 values)
  reg [`TC_FPS_W-1:0]  xe_q;
  wire       x_start = in_valid_i && idx_q == 3'd0 && in_flit_i[`TC_HDR_VALS_LSB] &&
                       in_flit_i[`TC_HDR_OP_LSB +: `TC_HDR_OP_W] == `TC_OP_FSUM &&
                       in_flit_i[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W] != 3'd0;
  // x_on_q only after a header: a header (hdr below) comes from the input alone, and
  // the front end's register flags keep it off the paths from the input's valid
  wire       in_valid = (in_valid_i && !x_on_q) || x_val_q;
  wire [`TC_FLIT_W-1:0] in_flit = !x_on_q ? in_flit_i : x_cyc_q[0] ? xe_q[`TC_FPS_W-1:`TC_FLIT_W]
                                                                  : xe_q[`TC_FLIT_W-1:0];
  wire       x_conv  = x_on_q && x_cyc_q[0] && x_cyc_q < {1'b0, x_len_q};
  wire [1:0] x_j     = x_cyc_q[2:1]; // the value converted: (x_cyc - 1) / 2
  wire [`TC_FLIT_W-1:0] x_word = x_cyc_q == 4'd1 ? in_flit_i : (!x_l32_q && x_j[1]) ? xv1_q : xv0_q;
  wire [63:0] x_bits = x_l32_q ? {32'd0, x_word[{x_j, 5'd0} +: 32]} : x_word[{x_j[0], 6'd0} +: 64];
  wire [`TC_FPS_W-1:0] x_elem;
`ifdef TC_REDUCER_ANY_PICK
  // the proofs are of the control: the converted elements are any bits
  (* anyseq *) reg [`TC_FPS_W-1:0] f_x_elem;
  assign x_elem = f_x_elem;
  wire [63:0] unused_x_bits = x_bits;
`else
  wire [`TC_HDR_LANE_W-1:0] x_lane = x_l32_q ? `TC_LANE_32 : `TC_LANE_64;
  tc_fpsum_in u_xin (
    .lane_i (x_lane),
    .bits_i (x_bits),
    .e_o    (x_elem)
  );
`endif
  always @(posedge clk_i) begin
    if (x_start) begin
      x_len_q <= in_flit_i[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W];
      x_l32_q <= in_flit_i[`TC_HDR_LANE_LSB +: `TC_HDR_LANE_W] == `TC_LANE_32;
    end
    if (x_on_q && in_valid_i && x_cyc_q == 4'd1) xv0_q <= in_flit_i;
    if (x_on_q && in_valid_i && x_cyc_q == 4'd2) xv1_q <= in_flit_i;
    if (x_conv) xe_q <= x_elem;
  end
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      x_on_q   <= 1'b0;
      x_val_q  <= 1'b0;
      x_hold_q <= 1'b0;
      x_cyc_q  <= 4'd0;
    end else if (x_start) begin
      x_on_q   <= 1'b1;
      x_val_q  <= 1'b0;
      x_hold_q <= 1'b1;
      x_cyc_q  <= 4'd1;
    end else if (x_on_q) begin
      x_on_q   <= x_cyc_q != {1'b0, x_len_q} + 4'd1;
      x_val_q  <= x_cyc_q != {1'b0, x_len_q} + 4'd1;
      x_hold_q <= x_cyc_q < {1'b0, x_len_q};
      x_cyc_q  <= x_cyc_q + 4'd1;
    end

  wire       hdr    = in_valid_i && idx_q == 3'd0; // idx_q is 0 only with x_on_q low
  wire [3:0] h_tree = in_flit_i[`TC_HDR_TREE_LSB +: `TC_HDR_TREE_W];
  // the ReduceId's low RW bits: a PE's beyond RedRids is refused at injection (tc_vc_unit)
  wire [RW-1:0] h_rid = in_flit_i[`TC_HDR_RID_LSB +: RW];
  wire [2:0] h_len  = in_flit_i[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W];
  wire       h_poison = in_flit_i[`TC_HDR_POISON_LSB];
  wire [AttrW-1:0] h_attr = {in_flit_i[`TC_HDR_TYPE_LSB +: 4], in_flit_i[`TC_HDR_OP_LSB +: 4],
                             in_flit_i[`TC_HDR_LANE_LSB +: 2], h_len, in_flit_i[`TC_HDR_DST_LSB +: 16]};
  wire [`TC_ROW_W-1:0] row = table_i[h_tree*`TC_ROW_W +: `TC_ROW_W];
  wire [4:0] expected = {4'd0, row[`TC_ROW_PE_LSB]} + {1'b0, row[`TC_ROW_DIRSUM_LSB +: `TC_ROW_DIRSUM_W]};
  // a slice's tree t is its local tree t / Slices (the top TW bits of t)
  wire [31:0]   h_lt32 = {28'd0, h_tree} >> $clog2(Slices);
  wire [31:0]   q_lt32 = {28'd0, tree_q} >> $clog2(Slices);
  wire [TW-1:0] h_lt   = h_lt32[TW-1:0];
  wire [SW-1:0] h_slot = {h_lt, h_rid};
  wire [SW-1:0] q_slot = {q_lt32[TW-1:0], rid_q}; // the entry of the contribution streaming
  wire [2*(32-TW)-1:0] unused_lt = {h_lt32[31:TW], q_lt32[31:TW]};
  wire       h_busy = busy_q[h_slot];
  wire [3:0] h_cnt  = h_busy ? cnt_q[h_slot] : 4'd0;
  wire [AttrW-1:0] e_attr = attr_q[h_slot];
  wire [8:0] src_bit = ({27'd0, src_i} < 2 * NumPorts) ? 9'd1 << src_i[4:1] : 9'h100;
  wire [RW-1:0] h_nxt    = nxt_q[h_lt*RW +: RW];
  wire [RW-1:0] h_pe_nxt = pe_nxt_q[h_lt*RW +: RW];

  // the PE's contribution out of turn: no contribution (the PE sends it again)
  wire       order    = hdr && src_bit[8] && h_rid != h_pe_nxt;
  wire       first    = hdr ? !h_busy : first_q;
  wire       skip     = hdr ? order || ready_q[h_slot] || (h_busy && (seen_q[h_slot] & src_bit) != 9'd0) : skip_q;
  wire       mismatch = hdr && h_busy && !skip && e_attr != h_attr;
  wire       last     = hdr ? !skip && {1'b0, h_cnt} + 5'd1 >= expected : last_q;
  // an FSUM result at the root is converted (if it has data): held, then copied
  // through tc_fpsum_out
  wire [3:0] r_op     = first ? in_flit_i[`TC_HDR_OP_LSB +: 4] : e_attr[24:21];
  wire       conv     = row[`TC_ROW_ROOT_LSB] && r_op == `TC_OP_FSUM && h_len != 3'd0;
  // straight to the result buffer only in its tree's turn
  wire       fast     = hdr ? last && res_room_i && (row[`TC_ROW_ROOT_LSB] || up_ok_i[h_tree]) && h_rid == h_nxt && !conv
                            : fast_q;
  wire       hold     = hdr && last && !fast;
  wire       tail     = in_valid && (hdr ? h_len == 3'd0 : idx_q == len_q);

  // ---- the copy of a held result: while the input is idle and its register streams
  // nothing; round-robin over the trees whose next result is held and may leave ----
  // A result (local tree l, ReduceId) is at s = RedRids l + ReduceId; only s = RedRids l
  // + nxt of a tree may leave, so the arbiter has NT requests, not RedRids NT.
  wire [NT-1:0] cp_elig;
  genvar t;
  generate
    for (t = 0; t < NT; t = t + 1) begin : g_elig
      assign cp_elig[t] = ready_q[RedRids*t + {{(32-RW){1'b0}}, nxt_q[RW*t +: RW]}]
                          && (table_i[(t*Slices+Slice)*`TC_ROW_W + `TC_ROW_ROOT_LSB] || up_ok_i[t*Slices+Slice]);
    end
  endgenerate
  wire       cp_can = !cp_on_q && !x_on_q && !in_valid_i && !in_busy_i && res_room_i;
  wire          cp_start;
  wire [TW-1:0] cp_tree;  // a local tree
  wire [SW-1:0] cp_pick = {cp_tree, nxt_q[cp_tree*RW +: RW]};
  wire [31:0]   cp_g32  = {{(32-TW){1'b0}}, cp_tree} * Slices + Slice; // its tree
  wire [27:0]   unused_cp_g = cp_g32[31:4];
`ifdef FORMAL_TC_REDUCER
  `define TC_REDUCER_ANY_PICK
`elsif FORMAL_TC_ROUTER
  `define TC_REDUCER_ANY_PICK
`endif
`ifdef TC_REDUCER_ANY_PICK
  // The proofs (this block's, the router's) hold whichever eligible tree is picked:
  // the solver picks any (which covers every arbiter).
  (* anyseq *) reg [TW-1:0] f_pick;
  (* anyseq *) reg       f_go;
  assign cp_start = f_go && cp_can && cp_elig[f_pick];
  assign cp_tree  = f_pick;
`else
  wire [TW-1:0] unused_ptr, unused_srch_idx;
  wire          unused_srch_any;
  wire [NT-1:0] unused_late;
  tc_rr_arb #(.N(NT), .IdxW(TW)) u_cp_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (cp_elig),
    .en_i       (cp_can),
    .gnt_o      (cp_start),
    .idx_o      (cp_tree),
    .ptr_o      (unused_ptr),
    .srch_any_o (unused_srch_any),
    .srch_idx_o (unused_srch_idx),
    .late_win_o (unused_late)
  );
`endif
  wire [`TC_FLIT_W-1:0] stored;
  wire       cp_hdr  = cp_on_q && cp_idx_q == 4'd0; // the held header is read
  wire [2:0] cp_len  = cp_hdr ? stored[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W] : cp_len_q;
  wire       cv_hdr  = cp_root_q && stored[`TC_HDR_OP_LSB +: `TC_HDR_OP_W] == `TC_OP_FSUM &&
                       stored[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W] != 3'd0;
  wire       cp_conv = cp_hdr ? cv_hdr : cp_conv_q;
  // a plain copy ends with the last word; a converting one with the last value, which
  // leaves tc_fpsum_out CvLat cycles after the element's flit 1 is read (its input
  // register and two stages; TC_CV_LAT in the C twin)
  localparam [3:0] CvLat = 4'd3;
  wire       cp_last = cp_on_q && cp_idx_q == {1'b0, cp_len} + (cp_conv ? CvLat : 4'd0);

  // ---- the converting copy: element j's flit 0 is read at cycle 2j + 1 of the copy
  // (cv_f0_q keeps it), its flit 1 at 2j + 2, when both enter tc_fpsum_out; its value
  // leaves at 2j + 2 + CvLat into lane j mod (2 or 4) of the flit j / (2 or 4), which goes out
  // when full or with the last value. ----
  wire        h_l32   = stored[`TC_HDR_LANE_LSB +: `TC_HDR_LANE_W] == `TC_LANE_32;
  wire [1:0]  h_nel   = stored[`TC_HDR_LEN_LSB + 1 +: 2];  // the elements: LEN / 2
  wire [2:0]  cv_len  = h_l32 ? {2'd0, h_nel != 2'd0} : ({1'b0, h_nel} + 3'd1) >> 1; // flits of values
  reg [`TC_FLIT_W-1:0] cv_f0_q, cv_pack_q;
  wire [63:0] cv_bits;
  wire [3:0]  cv_j4   = (cp_idx_q - 4'd2 - CvLat) >> 1; // the value leaving now
  wire [1:0]  cv_j    = cv_j4[1:0];
  wire        cv_out  = cp_on_q && cp_conv_q && cp_idx_q >= 4'd2 + CvLat && cp_idx_q[0] == CvLat[0];
  wire        cv_emit = cv_out && ((cp_l32_q ? cv_j == 2'd3 : cv_j[0]) || cv_j == cp_len_q[2:1] - 2'd1);
  wire [`TC_FLIT_W-1:0] cv_flit = cv_pack_q | (cp_l32_q ? {96'd0, cv_bits[31:0]} << {cv_j, 5'd0}
                                                        : {64'd0, cv_bits} << {cv_j[0], 6'd0});
  wire [1:0]  unused_cv = cv_j4[3:2];
  always @(posedge clk_i) begin
    if (cp_on_q && cp_idx_q[0])
      cv_f0_q <= stored;
    if (cv_out)
      cv_pack_q <= cv_emit ? {`TC_FLIT_W{1'b0}} : cv_flit;
  end
`ifdef TC_REDUCER_ANY_PICK
  // the proofs are of the control: the converted values are any bits
  (* anyseq *) reg [63:0] f_cv_bits;
  assign cv_bits = f_cv_bits;
`else
  wire [`TC_HDR_LANE_W-1:0] cv_lane = cp_l32_q ? `TC_LANE_32 : `TC_LANE_64;
  tc_fpsum_out u_cv (
    .clk_i  (clk_i),
    .lane_i (cv_lane),
    .e_i    ({stored, cv_f0_q}),
    .bits_o (cv_bits)
  );
`endif

  // The partial results are in a two-port memory with a synchronous read, so the read
  // address is that of the next cycle's flit: data flit idx of the reduce then in
  // progress (none while a header is due), or the next word of a copy.
  wire [2:0]     idx_d  = !in_valid ? idx_q : tail ? 3'd0 : idx_q + 3'd1;
  wire [SW-1:0]  slot_d = hdr ? h_slot : q_slot;
  wire [31:0]    waddr_full = {{(32-SW){1'b0}}, slot_d} * EW + {29'd0, hdr ? 3'd0 : idx_q};
  wire [31:0]    raddr_full = cp_start ? {{(32-SW){1'b0}}, cp_pick} * EW
                            : cp_on_q  ? {{(32-SW){1'b0}}, cp_slot_q} * EW + {28'd0, cp_idx_q} + 32'd1
                            : idx_d == 3'd0 ? 32'd0 : {{(32-SW){1'b0}}, slot_d} * EW + {29'd0, idx_d};
  wire [AW-1:0]  waddr = waddr_full[AW-1:0];
  wire [AW-1:0]  raddr = raddr_full[AW-1:0];
  wire [2*(32-AW)-1:0] unused_addr = {waddr_full[31:AW], raddr_full[31:AW]};
  reg  [`TC_FLIT_W-1:0] red_flit; // the flit made from the input: the result's, or the partial one
  tc_sram #(.Words(NE * EW), .Width(`TC_FLIT_W)) u_mem (
    .clk_i   (clk_i),
    .we_i    (hold || (in_valid && !hdr && !(last && fast) && !skip)),
    .waddr_i (waddr),
    .wdata_i (red_flit),
    .raddr_i (raddr),
    .rdata_o (stored)
  );

  // An FSUM element is two data flits, 1-2, 3-4, ...: its flit 1 (an even idx_q) is
  // combined with the stored and the incoming flit 0, kept from the cycle before.
  reg  [`TC_FLIT_W-1:0] a0_q, b0_q;
  wire                  elem_hi = idx_q[0] == 1'b0;
  always @(posedge clk_i)
    if (in_valid && !hdr && !elem_hi && !first) begin
      a0_q <= stored;
      b0_q <= in_flit;
    end

  wire [`TC_FLIT_W-1:0] combined;
  wire                  alu_invalid, alu_overflow;
  tc_alu u_alu (
    .a_i        (stored),
    .b_i        (in_flit),
    .op_i       (op_q),
    .lane_i     (lane_q),
    .hi_i       (elem_hi),
    .a0_i       (a0_q),
    .b0_i       (b0_q),
    .y_o        (combined),
    .invalid_o  (alu_invalid),
    .overflow_o (alu_overflow)
  );
  wire unused_flags = alu_invalid | alu_overflow; // checked at injection (ERR_BAD_OP)

  always @* begin
    red_flit = in_flit;
    if (hdr) begin
      red_flit[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W] = node_id_i; // the result leaves from here
      red_flit[`TC_HDR_VALS_LSB] = 1'b0;                        // ... as elements
      if (!first) begin // with the first contribution's type, op, lane and DST
        red_flit[`TC_HDR_TYPE_LSB +: 4]  = e_attr[28:25];
        red_flit[`TC_HDR_OP_LSB +: 4]    = e_attr[24:21];
        red_flit[`TC_HDR_LANE_LSB +: 2]  = e_attr[20:19];
        red_flit[`TC_HDR_DST_LSB +: 16]  = e_attr[15:0];
        red_flit[`TC_HDR_POISON_LSB]     = poison_q[h_slot] || mismatch || h_poison;
      end
    end else if (!first)
      red_flit = keep_q ? stored : combined; // a contribution that disagreed keeps the stored value
  end
  reg [`TC_FLIT_W-1:0] cv_head; // the held header, LEN counting flits of values
  always @* begin
    cv_head = stored;
    cv_head[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W] = cv_len;
  end
  assign res_valid_o  = (in_valid && last && fast) || (cp_on_q && (!cp_conv || cp_hdr || cv_emit));
  assign res_flit_o   = !cp_on_q ? red_flit : cp_hdr ? (cv_hdr ? cv_head : stored) : cp_conv_q ? cv_flit : stored;
  assign block_o      = cp_start || cp_on_q || x_hold_q; // a copy; the conversion in
  assign complete_o   = hdr && last;
  assign made_o       = (hdr && last && fast) || cp_start;
  assign made_tree_o  = cp_start ? cp_g32[3:0] : h_tree;
  assign res_fenced_o = (hdr && last && fast && src_fenced_i) || (cp_start && fenced_q[cp_pick]);
  assign copy_o       = cp_start;
  assign err_o = !hdr ? 4'd0 : order ? `TC_ERR_RID_ORDER : skip ? `TC_ERR_RID_REUSE : mismatch ? `TC_ERR_MISMATCH : 4'd0;

  // held results: one more when a last contribution is held, one less when its copy begins
  reg [NE-1:0] ready_d, fenced_d;
  always @* begin
    ready_d  = ready_q;
    fenced_d = fenced_q;
    if (hold) begin
      ready_d[h_slot]  = 1'b1;
      fenced_d[h_slot] = src_fenced_i;
    end
    if (cp_start) begin
      ready_d[cp_pick]  = 1'b0;
      fenced_d[cp_pick] = 1'b0;
    end
  end
  assign fenced_o = fenced_q != {NE{1'b0}} || (hdr && last && src_fenced_i);

  // the turns: a tree's nxt moves on as its result enters the result buffer (made_o);
  // its pe_nxt as the PE's contribution is counted
  reg  [NT*RW-1:0] nxt_d, pe_nxt_d;
  wire [TW-1:0]   made_lt = cp_start ? cp_tree : h_lt;
  always @* begin
    nxt_d    = nxt_q;
    pe_nxt_d = pe_nxt_q;
    if (made_o)
      nxt_d[made_lt*RW +: RW] = nxt_q[made_lt*RW +: RW] + 1'b1;
    if (hdr && src_bit[8] && !skip)
      pe_nxt_d[h_lt*RW +: RW] = h_pe_nxt + 1'b1;
  end

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
      busy_q   <= {NE{1'b0}};
      poison_q <= {NE{1'b0}};
      ready_q  <= {NE{1'b0}};
      fenced_q <= {NE{1'b0}};
      nxt_q    <= {NT*RW{1'b0}};
      pe_nxt_q <= {NT*RW{1'b0}};
      fast_q   <= 1'b0;
      cp_on_q  <= 1'b0;
      cp_idx_q <= 4'd0;
      cp_len_q <= 3'd0;
      cp_slot_q <= {SW{1'b0}};
      cp_root_q <= 1'b0;
      cp_conv_q <= 1'b0;
      cp_l32_q  <= 1'b0;
      idx_q    <= 3'd0;
      len_q    <= 3'd0;
      tree_q   <= 4'd0;
      rid_q    <= {RW{1'b0}};
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
        op_q    <= in_flit[`TC_HDR_OP_LSB +: `TC_HDR_OP_W];
        lane_q  <= in_flit[`TC_HDR_LANE_LSB +: `TC_HDR_LANE_W];
        first_q <= first;
        last_q  <= last;
        skip_q  <= skip;
        fast_q  <= fast;
        keep_q  <= mismatch;
      end
      if (in_valid)
        idx_q <= tail ? 3'd0 : idx_q + 3'd1;
      ready_q  <= ready_d;
      fenced_q <= snap_i ? ready_d : fenced_d; // a new fence takes every result held
      nxt_q    <= nxt_d;
      pe_nxt_q <= pe_nxt_d;
      if (cp_start) begin
        cp_on_q   <= 1'b1;
        cp_idx_q  <= 4'd0;
        cp_slot_q <= cp_pick;
        cp_root_q <= table_i[cp_g32[3:0]*`TC_ROW_W + `TC_ROW_ROOT_LSB];
      end else if (cp_on_q) begin
        cp_on_q  <= !cp_last;
        cp_idx_q <= cp_idx_q + 4'd1;
        cp_len_q <= cp_len;
        if (cp_hdr) begin
          cp_conv_q <= cv_hdr;
          cp_l32_q  <= h_l32;
        end
      end
    end

  assign obs_o[`TC_OBS_R_HDR_LSB]   = hdr;
  assign obs_o[`TC_OBS_R_FIRST_LSB] = hdr && first;
  assign obs_o[`TC_OBS_R_LAST_LSB]  = hdr && last;
  assign obs_o[`TC_OBS_R_HELD_LSB]  = hold;
  assign obs_o[`TC_OBS_R_COPY_LSB]  = cp_hdr;
  assign obs_o[`TC_OBS_R_TAG_LSB +: `TC_OBS_R_TAG_W] =
      hdr ? in_flit[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W] : cp_hdr ? stored[`TC_HDR_TAG_LSB +: 32] : 32'd0;
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

  (* anyconst *) reg [SW-1:0] f_slot;
  wire [31:0] f_tree = {{(32-TW){1'b0}}, f_slot[SW-1:RW]} * Slices + Slice;
  wire [`TC_ROW_W-1:0] f_row = table_i[f_tree[3:0]*`TC_ROW_W +: `TC_ROW_W];
  // the router gives a slice only its own trees' contributions
  always @* if (hdr) assume({28'd0, h_tree} % Slices == Slice);
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
  // a held result is complete: no reduce in progress in its entry; only a held
  // result is fenced
  always @* if (rst_ni) begin
    assert(!(ready_q[f_slot] && busy_q[f_slot]));
    assert(!fenced_q[f_slot] || ready_q[f_slot]);
  end
  always @* if (rst_ni) assert(idx_q == 3'd0 || idx_q <= len_q);
  // the conversion in runs only inside a contribution, after its header: its flits
  // are the contribution's data flits 1 .. LEN, in their cycles
  always @* if (rst_ni) begin
    if (x_on_q) begin
      assert(x_cyc_q >= 4'd1 && x_cyc_q <= {1'b0, x_len_q} + 4'd1 && x_len_q != 3'd0 && len_q == x_len_q);
      assert({1'b0, idx_q} == (x_cyc_q == 4'd1 ? 4'd1 : x_cyc_q - 4'd1));
      assert(x_val_q == (x_cyc_q >= 4'd2) && x_hold_q == (x_cyc_q <= {1'b0, x_len_q}));
    end else
      assert(!x_val_q && !x_hold_q);
  end
  // results leave in turn: one enters the result buffer only as its tree's nxt,
  // whether it goes straight there or is copied
  wire [RW-1:0] f_made_rid = cp_start ? cp_pick[RW-1:0] : h_rid;
  always @* if (rst_ni && made_o) assert(f_made_rid == nxt_q[made_lt*RW +: RW]);
`endif
endmodule
