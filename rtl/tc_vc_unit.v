// An input unit of the collective subnet: the packet buffer of one virtual channel
// (VCUp or VCDown of a link input) or the PEGroup FIFO in front of the Broadcaster,
// with the routing of its head packet. Stages (docs/microarchitecture.md):
//   BW  flits written as they arrive; the tail marks the slot full
//   RC  next cycle: routing-table row and header read, output list registered; or,
//       in the cycle the head is freed, the next packet's if it is whole
//   SA  outputs grant copies (in tc_router); those granted in one cycle form a pass
//   FR  the slot is freed as the last flit of the last pass is read
// Store-and-forward: a slot holds a whole packet (header + up to 7 data flits). The
// buffer is a two-port SRAM (tc_sram: one write port, one synchronous read port).
// The headers of the head packet and the next one sit in registers, captured as they
// are written or read ahead in the cycle the head is freed: the outputs load the
// header from there and every later flit from the read port, one pass at a time.
// Its C twin: cmodel/vc_unit.c.
`default_nettype none
`include "tc_format.vh"
`include "tc_params.vh"

module tc_vc_unit #(
  parameter integer NumPorts = 4,
  parameter integer Slots = `TC_DEFAULT_SLOTS,
  parameter integer RedFlits = `TC_DEFAULT_RED_FLITS,
  parameter integer RedRids = `TC_DEFAULT_RED_RIDS,     // ReduceIds a tree at the Reducer
  parameter integer RedSlices = `TC_DEFAULT_RED_SLICES, // Reducer slices: tree t to slice t mod RedSlices
  parameter integer CW = 4,          // width of the packet count npkt_o
  parameter bit     Vals = 1'b0,     // it takes a PE's packets of values (VALS): the Broadcaster
  localparam integer NO = NumPorts + 1 + RedSlices // links, PE, the Reducer's slices
) (
  input  wire                          clk_i,
  input  wire                          rst_ni,
  input  wire [15:0]                   node_id_i,
  input  wire [2:0]                    port_i,     // link input this unit sits on
  input  wire                          is_down_i,  // VCDown (else VCUp)
  input  wire                          is_bcast_i, // Broadcaster (PE injection)
  input  wire                          is_result_i,// the Reducer's result buffer
  input  wire                          is_report_i,// reports for the PE
  input  wire [`TC_TREES*`TC_ROW_W-1:0] table_i,
  input  wire [3:0]                    ph_err_i,   // tc_phase's verdict on a barrier request or phase packet
  input  wire                          wr_valid_i,
  input  wire [`TC_FLIT_W-1:0]          wr_flit_i,
  input  wire [NO-1:0]                 grant_i,    // outputs that took a copy this cycle
  output wire [NO-1:0]                 req_o,
  output wire                          out_vc_o,
  output wire [`TC_FLIT_W-1:0]          hdr_o,      // the head packet's header: what a granted output loads
  output wire [`TC_FLIT_W-1:0]          dout_o,     // the read port's data: what a pass's outputs load
  output wire                          stream_o,   // a pass has flits still to read
  output wire [`TC_FLIT_W-1:0]          rc_hdr_o,   // the header RC reads (phase counters, credit block)
  output wire                          free_o,
  output wire                          route_o,    // RC this cycle
  output wire [3:0]                    err_o,      // route error of this cycle's RC
  output wire                          drop_o,     // a header found no free slot
  output wire                          can_write_o,// a slot is free for the next packet
  output wire [CW-1:0]                 npkt_o,     // packets held after this cycle (tc_phase's fence)
  output wire [`TC_OBS_UNIT_W-1:0]     obs_o
);
`include "tc_wire_len.vh"
  // A packet's data flits here: only the Broadcaster takes packets of values, whose
  // length on the wire depends on more header fields than LEN (elsewhere they would be
  // on the paths from a result's header, whose fields come late from the Reducer's entry).
  function automatic [2:0] unit_len(input [`TC_FLIT_W-1:0] h);
    unit_len = Vals ? tc_wire_len(h) : h[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W];
  endfunction
  localparam integer SF = `TC_SLOT_FLITS; // 8: a flit's address is slot * 8 + index
  localparam integer SW = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer AW = SW + 3;                  // {slot, index}
  localparam integer FW = `TC_FLIT_W;

  reg [Slots-1:0] full_q, full_d;
  reg [SW-1:0]    wr_slot_q, wr_slot_d, rd_slot_q, rd_slot_d;
  reg [2:0]       wr_idx_q, wr_idx_d, wr_len_q, wr_len_d, rd_idx_q, rd_idx_d;
  reg [31:0]      wr_tag_q, wr_tag_d;
  reg             routed_q, routed_d, out_vc_q, out_vc_d;
  reg [NO-1:0]    pend_q, pend_d;
  reg             drop_q, drop_d;  // dropping the packet being received
  reg             room_q, room_d;  // always !full_q[wr_slot_q] (below)
  reg             hf_q, hf_d;      // always full_q[rd_slot_q]
  reg             nf_q, nf_d;      // always full_q[next_slot(rd_slot_q)]
  reg [CW-1:0]    nfull_q, nfull_d;// always the number of full slots
  reg [1:0]       hv_q, hv_d;      // bit i: hdr i holds the header of slot rd_slot + i
  reg             pf_q, pf_d;      // a header read ahead, into hdr1 next cycle
  reg [FW-1:0]    hdr0_q, hdr0_d, hdr1_q, hdr1_d;

  function automatic [SW-1:0] next_slot(input [SW-1:0] x);
    next_slot = (x == Slots[SW-1:0] - 1'b1) ? {SW{1'b0}} : x + 1'b1;
  endfunction

  // ---- BW: buffer write ----
  wire       first   = wr_idx_q == 3'd0;
  wire [2:0] in_len  = unit_len(wr_flit_i); // the flits that follow on the wire
  wire [2:0] cur_len = first ? in_len : wr_len_q;
  wire       tail    = wr_valid_i && wr_idx_q == cur_len;
  // A header that finds no free slot broke the sender's credits (a PE that ignores
  // them): the whole packet is dropped and reported, nothing else is disturbed.
  wire       overflow = wr_valid_i && first && !room_q;
  wire       dropping = first ? overflow : drop_q;
  wire       ev_full  = tail && !dropping;

  // ---- the read port: a pass's next flit, or a header read ahead as the head is freed ----
  wire [2:0]    h_len0  = unit_len(hdr0_q);
  wire          stream  = rd_idx_q != 3'd0 && rd_idx_q < h_len0;
  wire          granted = |grant_i;
  wire [SW-1:0] rd_next = next_slot(rd_slot_q);
  // read ahead as the head is freed: the header of the packet after the next (whose
  // own is in hdr1 or lands there now, as it has begun if this one has)
  wire [SW-1:0] pf_slot = next_slot(rd_next);
  wire          pf_begun = pf_slot != rd_slot_q &&
                           (full_q[pf_slot] || (pf_slot == wr_slot_q && wr_idx_q != 3'd0 && !drop_q));
  wire          rd_ahead = free_o && pf_begun;
  // The address does not wait for the grants: out of a pass it is flit 1 of the head,
  // for a pass that may start now, except as the head is freed, when none can.
  reg  [SW-1:0] rd_slot;
  reg  [2:0]    rd_idx;
  always @* begin
    rd_slot = rd_slot_q;
    rd_idx  = stream ? rd_idx_q + 3'd1 : 3'd1;
    if (!stream && free_o) begin
      rd_slot = pf_slot;
      rd_idx  = 3'd0;
    end
  end
  wire [AW-1:0] waddr = {wr_slot_q, wr_idx_q};
  wire [AW-1:0] raddr = {rd_slot, rd_idx};
  wire          we    = wr_valid_i && !dropping;
`ifndef FORMAL_TC_VC_UNIT
  tc_sram #(.Words(Slots * SF), .Width(FW)) u_mem (
    .clk_i   (clk_i),
    .we_i    (we),
    .waddr_i (waddr),
    .wdata_i (wr_flit_i),
    .raddr_i (raddr),
    .rdata_o (dout_o)
  );
`else
  // tc_sram's body, inline so that the proof below can name its words
  reg [FW-1:0] mem_q [0:Slots*SF-1];
  reg [FW-1:0] dout_q;
  always @(posedge clk_i) begin
    if (we)
      mem_q[waddr] <= wr_flit_i;
    dout_q <= mem_q[raddr];
  end
  assign dout_o = dout_q;
`endif
  assign hdr_o = hdr0_q;
  assign stream_o = stream;

  // ---- RC: route decision of the head packet, or of the next one as the head is freed
  // (tc_vc_unit_route() in cmodel/vc_unit.c) ----
  wire ahead = free_o && nf_q && hv_q[1];
  wire [`TC_FLIT_W-1:0] head = ahead ? hdr1_q : hdr0_q;
  assign rc_hdr_o = head;
  wire [3:0]  h_type = head[`TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W];
  wire [3:0]  h_tree = head[`TC_HDR_TREE_LSB +: `TC_HDR_TREE_W];
  wire [2:0]  h_len  = head[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W];
  wire [3:0]  h_op   = head[`TC_HDR_OP_LSB +: `TC_HDR_OP_W];
  wire [1:0]  h_lane = head[`TC_HDR_LANE_LSB +: `TC_HDR_LANE_W];
  wire [15:0] h_src  = head[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W];
  wire [15:0] h_dst  = head[`TC_HDR_DST_LSB +: `TC_HDR_DST_W];
  wire [31:0] h_tag  = head[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W];
  wire [`TC_ROW_W-1:0] row = table_i[h_tree*`TC_ROW_W +: `TC_ROW_W];
  wire        r_valid  = row[`TC_ROW_VALID_LSB];
  wire        r_root   = row[`TC_ROW_ROOT_LSB];
  wire [2:0]  r_toroot = row[`TC_ROW_TOROOT_LSB +: `TC_ROW_TOROOT_W];
  wire        r_pe     = row[`TC_ROW_PE_LSB];
  wire [7:0]  r_dirs8  = row[`TC_ROW_DIRS_LSB +: `TC_ROW_DIRS_W];
  wire [NumPorts-1:0] r_dirs = r_dirs8[NumPorts-1:0];
  wire [NumPorts-1:0] r_up   = {{(NumPorts-1){1'b0}}, 1'b1} << r_toroot;

  wire t_bc   = h_type == `TC_TYPE_BCAST;
  wire t_red  = h_type == `TC_TYPE_REDUCE || h_type == `TC_TYPE_ALLREDUCE;
  wire t_cr   = h_type == `TC_TYPE_CREDIT;
  wire t_ph   = h_type == `TC_TYPE_PHASE;
  wire t_bar  = h_type == `TC_TYPE_BARRIER;
  wire link   = !is_bcast_i && !is_result_i && !is_report_i;
  wire down   = link && is_down_i;
  // the PE takes a broadcast it did not send, an allreduce result, a reduce result for it
  wire pe_copy = t_bc ? r_pe && h_src != node_id_i
                      : (h_type == `TC_TYPE_ALLREDUCE ? r_pe : h_dst == node_id_i);
  wire bad_op  = h_op >= `TC_OPS || h_lane > `TC_LANE_64 || {29'd0, h_len} > RedFlits
              || {26'd0, head[`TC_HDR_RID_LSB +: `TC_HDR_RID_W]} >= RedRids // a ReduceId the Reducer has not
              || (h_op == `TC_OP_FSUM && h_len[0])  // FSUM: whole elements, two flits each
              || (head[`TC_HDR_VALS_LSB] && h_op != `TC_OP_FSUM); // values: of an FSUM only

  // the output of the Reducer slice of the head's tree (RedSlices a power of 2)
  wire [31:0]   h_slice = {28'd0, h_tree} % RedSlices;
  wire [NO-1:0] red_out = {{(NO-1){1'b0}}, 1'b1} << (NumPorts + 1 + h_slice);
  reg [NO-1:0] r_mask;
  reg          r_vc;
  reg [3:0]    r_err;
  always @* begin
    r_mask = {NO{1'b0}};
    r_vc = `TC_VC_DOWN;
    r_err = `TC_ERR_NONE;
    if (is_report_i) // credits to the children, phase packets to every link, the rest to the PE
      r_mask = t_cr ? {{(NO-NumPorts){1'b0}}, r_dirs} : t_ph ? {{(NO-NumPorts){1'b0}}, {NumPorts{1'b1}}}
             : {{(NO-NumPorts-1){1'b0}}, 1'b1, {NumPorts{1'b0}}};
    else if ((t_bar && is_bcast_i) || (t_ph && down))
      r_err = ph_err_i; // taken by the phase counters (tc_phase)
    else if (t_bar || t_ph)
      r_err = `TC_ERR_BAD_TYPE;
    else if (!r_valid)
      r_err = `TC_ERR_NO_TREE;
    else if (!t_bc && !t_red && !(t_cr && down))
      r_err = `TC_ERR_BAD_TYPE;
    else if (is_bcast_i && !r_pe)
      r_err = `TC_ERR_NOT_MEMBER;
    else if (is_bcast_i && h_src != node_id_i)
      r_err = `TC_ERR_BAD_SRC;
    else if (is_bcast_i && ((t_red && bad_op) || (head[`TC_HDR_VALS_LSB] && !t_red)))
      r_err = `TC_ERR_BAD_OP; // values (VALS) go only into the Reducer
    else if (down && (r_root || r_toroot != port_i))
      r_err = `TC_ERR_BAD_DIR;
    else if (link && !is_down_i && !r_dirs8[port_i])
      r_err = `TC_ERR_BAD_DIR;
    else if (t_cr)
      r_mask = {NO{1'b0}}; // taken by this node's credit block
    else if (t_red && (is_bcast_i || (link && !is_down_i))) begin
      r_mask = red_out; // a contribution: into its tree's Reducer slice
      r_vc = `TC_VC_UP;
    end else if (r_root || down)
      r_mask = {{(NO-NumPorts-1){1'b0}}, pe_copy, r_dirs};
    else begin
      r_mask = {{(NO-NumPorts){1'b0}}, r_up};
      r_vc = `TC_VC_UP;
    end
  end

  assign free_o = routed_q && pend_q == {NO{1'b0}} && !stream;
  wire do_route = free_o ? ahead : !routed_q && hf_q && hv_q[0];
  assign req_o = routed_q ? pend_q : {NO{1'b0}};
  assign route_o = do_route;
  assign err_o = do_route ? r_err : 4'd0;
  assign drop_o = overflow;
  assign can_write_o = room_q;
  // The packets after this cycle: the full slots (nfull_q, less the head freed) and the
  // packet being written if it is kept (a write this cycle: its header is not dropped;
  // none: one is under way), which is known late, for the result buffer, and only
  // picks one of two counts.
  wire [CW-1:0] held = nfull_q - {{(CW-1){1'b0}}, free_o};
  wire          wr_on = wr_valid_i ? !dropping : wr_idx_q != 3'd0 && !drop_q;
  assign npkt_o = wr_on ? held + {{(CW-1){1'b0}}, 1'b1} : held;
  assign out_vc_o = out_vc_q;

  // The write slot is free: room_q, a register that always holds !full_q[wr_slot_q],
  // as it takes the value full_d and wr_slot_d will give. So the writers that wait for
  // room (the Reducer, the credit block) and a header's drop check read a flip-flop,
  // not a slot looked up. A packet written whole moves on to the next slot; a slot
  // other than the one written is full after this cycle if it is now and is not the
  // head that is freed. (The proof below asserts the equality.)
  // The same for the head slot and the one after it (hf_q, nf_q: the route decision
  // and the header read ahead wait on them) and the number of full slots (nfull_q):
  // this cycle frees the head, if free_o, and fills the write slot, if ev_full.
  wire [SW-1:0] wr_next = next_slot(wr_slot_q);
  always @* begin
    room_d  = ev_full ? wr_next != wr_slot_q && (!full_q[wr_next] || (free_o && rd_slot_q == wr_next))
                      : room_q || (free_o && rd_slot_q == wr_slot_q);
    hf_d    = free_o ? (nf_q && rd_next != rd_slot_q) || (ev_full && rd_next == wr_slot_q)
                     : hf_q || (ev_full && rd_slot_q == wr_slot_q);
    nf_d    = free_o ? (full_q[pf_slot] && pf_slot != rd_slot_q) || (ev_full && pf_slot == wr_slot_q)
                     : nf_q || (ev_full && rd_next == wr_slot_q);
    // the write is known late (the report buffer's writer is the credit block): it
    // only picks one of two counts made from the registers
    nfull_d = ev_full ? (free_o ? nfull_q : nfull_q + {{(CW-1){1'b0}}, 1'b1}) : held;
  end

  // ---- next state (the order of tc_vc_unit_commit) ----
  // the slot a header written now sits at, counted from the head after this cycle's free
  wire [SW-1:0] wr_from_head = (wr_slot_q >= rd_slot_d) ? wr_slot_q - rd_slot_d
                                                        : wr_slot_q + (Slots[SW-1:0] - rd_slot_d);
  always @* begin
    full_d    = full_q;
    wr_slot_d = wr_slot_q;
    wr_idx_d  = wr_idx_q;
    wr_len_d  = wr_len_q;
    wr_tag_d  = wr_tag_q;
    rd_slot_d = rd_slot_q;
    routed_d  = routed_q;
    out_vc_d  = out_vc_q;
    pend_d    = pend_q & ~grant_i;
    drop_d    = drop_q;
    rd_idx_d  = granted ? {2'b00, h_len0 != 3'd0} : stream ? rd_idx_q + 3'd1 : 3'd0;
    hdr0_d    = hdr0_q;
    hdr1_d    = hdr1_q;
    hv_d      = hv_q;
    pf_d      = 1'b0;
    if (pf_q) begin // the header read ahead last cycle
      hdr1_d = dout_o;
      hv_d[1] = 1'b1;
    end
    if (free_o) begin
      routed_d = 1'b0;
      full_d[rd_slot_q] = 1'b0;
      rd_slot_d = rd_next;
      hdr0_d = hdr1_d;
      hv_d = {1'b0, hv_d[1]};
      pf_d = rd_ahead;
    end
    if (do_route) begin
      routed_d = 1'b1;
      pend_d   = r_mask;
      out_vc_d = r_vc;
    end
    if (wr_valid_i) begin
      if (first) begin
        wr_len_d = in_len;
        wr_tag_d = wr_flit_i[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W];
        // a header one of the registers waits for is captured as it is written
        if (!dropping && wr_from_head == {SW{1'b0}} && !hv_d[0]) begin
          hdr0_d = wr_flit_i;
          hv_d[0] = 1'b1;
        end else if (!dropping && wr_from_head == {{(SW-1){1'b0}}, 1'b1} && !hv_d[1] && !pf_d) begin
          hdr1_d = wr_flit_i;
          hv_d[1] = 1'b1;
        end
      end
      if (tail) begin
        if (!dropping) begin
          full_d[wr_slot_q] = 1'b1;
          wr_slot_d = next_slot(wr_slot_q);
        end
        wr_idx_d = 3'd0;
        drop_d = 1'b0;
      end else begin
        wr_idx_d = wr_idx_q + 3'd1;
        drop_d = dropping;
      end
    end
  end

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      full_q    <= {Slots{1'b0}};
      wr_slot_q <= {SW{1'b0}};
      wr_idx_q  <= 3'd0;
      rd_slot_q <= {SW{1'b0}};
      rd_idx_q  <= 3'd0;
      routed_q  <= 1'b0;
      pend_q    <= {NO{1'b0}};
      drop_q    <= 1'b0;
      room_q    <= 1'b1;
      hf_q      <= 1'b0;
      nf_q      <= 1'b0;
      nfull_q   <= {CW{1'b0}};
      hv_q      <= 2'b00;
      pf_q      <= 1'b0;
    end else begin
      full_q    <= full_d;
      wr_slot_q <= wr_slot_d;
      wr_idx_q  <= wr_idx_d;
      rd_slot_q <= rd_slot_d;
      rd_idx_q  <= rd_idx_d;
      routed_q  <= routed_d;
      pend_q    <= pend_d;
      drop_q    <= drop_d;
      room_q    <= room_d;
      hf_q      <= hf_d;
      nf_q      <= nf_d;
      nfull_q   <= nfull_d;
      hv_q      <= hv_d;
      pf_q      <= pf_d;
    end
  // datapath: no reset (the valid bits above say what holds something)
  always @(posedge clk_i) begin
    wr_len_q <= wr_len_d;
    wr_tag_q <= wr_tag_d;
    out_vc_q <= out_vc_d;
    hdr0_q   <= hdr0_d;
    hdr1_q   <= hdr1_d;
  end

  // ---- observation record (fields gated so that unused bits are zero) ----
  wire [31:0] in_tag = wr_flit_i[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W];
  wire ev_arrive = wr_valid_i && first && !overflow;
  assign obs_o[`TC_OBS_U_ARRIVE_LSB] = ev_arrive;
  assign obs_o[`TC_OBS_U_FULL_LSB]   = ev_full;
  assign obs_o[`TC_OBS_U_DROP_LSB]   = overflow;
  assign obs_o[`TC_OBS_U_ROUTE_LSB]  = do_route;
  assign obs_o[`TC_OBS_U_FREE_LSB]   = free_o;
  assign obs_o[`TC_OBS_U_ERR_LSB +: `TC_OBS_U_ERR_W] = do_route ? r_err : 4'd0;
  // the tag of the packet routed, else of the one freed
  assign obs_o[`TC_OBS_U_HEADTAG_LSB +: `TC_OBS_U_HEADTAG_W] =
      do_route ? h_tag : free_o ? hdr0_q[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W] : 32'd0;
  assign obs_o[`TC_OBS_U_WRTAG_LSB +: `TC_OBS_U_WRTAG_W] =
      (ev_arrive || overflow) ? in_tag : (ev_full ? wr_tag_q : 32'd0);

`ifdef TC_ASSERT
  // Routers keep to credits: only a PE can overrun its PEGroup FIFO.
  always @(posedge clk_i)
    if (overflow && !is_bcast_i)
      $error("tc_vc_unit: link input %0d overran its VC buffer", port_i);
  // The outputs keep to one pass at a time: the read port streams a single one.
  always @(posedge clk_i)
    if (stream && granted)
      $error("tc_vc_unit: a copy granted while a pass streams");
`endif
`ifdef FORMAL_TC_VC_UNIT // defined by sim/formal.sh when this module is the top
  // ---- formal proof (make formal, sim/formal.sh) of a link VC buffer: fed by a sender
  // that keeps to its credits, it never overflows or underflows, every whole head
  // packet's header is in hdr (so it is routed), and every packet leaves in the order
  // it came, unchanged: a granted output loads its header from hdr_o, a pass its
  // flits from dout_o. ----
  reg f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;
  always @* begin
    assume(rst_ni == !f_init);
    assume(!is_bcast_i && !is_result_i && !is_report_i);
    assume((grant_i & ~req_o) == {NO{1'b0}}); // outputs grant only what is requested,
    assume(!stream_o || grant_i == {NO{1'b0}}); // and not while a pass has flits to read
  end
  (* anyconst *) reg [2:0]  f_port;
  (* anyconst *) reg        f_down;
  (* anyconst *) reg [15:0] f_node;
  always @* assume(port_i == f_port && is_down_i == f_down && node_id_i == f_node);

  // packets the sender has started and not yet had a credit back for: its credits
  reg [3:0] f_out;
  always @(posedge clk_i)
    if (!rst_ni) f_out <= 4'd0;
    else f_out <= f_out + {3'd0, wr_valid_i && first} - {3'd0, free_o};
  always @* if (wr_valid_i && first) assume(f_out < Slots);

  reg [3:0] f_full;
  integer f_k;
  function automatic [3:0] f_slot_n(input [SW-1:0] x); f_slot_n = {{(4-SW){1'b0}}, x}; endfunction
  function automatic [3:0] f_wrap(input [3:0] x); f_wrap = x >= Slots ? x - Slots[3:0] : x; endfunction
  always @* begin
    f_full = 4'd0;
    for (f_k = 0; f_k < Slots; f_k = f_k + 1) f_full = f_full + {3'd0, full_q[f_k]};
  end
  // a slot has begun: whole, or being written
  function automatic f_begun(input [SW-1:0] x);
    f_begun = full_q[x] || (x == wr_slot_q && wr_idx_q != 3'd0);
  endfunction

  // one packet, picked at an arbitrary header, is followed through the buffer
  (* anyseq *) reg f_pick;
  reg                  f_trk, f_wr;  // followed; still being written
  reg [3:0]            f_ahead;      // packets to leave before it
  reg [SW-1:0]         f_slot;
  reg [2:0]            f_got, f_len; // last flit recorded; its length
  reg [`TC_FLIT_W-1:0] f_data [0:SF-1];
  wire f_start = wr_valid_i && first && f_pick && !f_trk;
  always @(posedge clk_i)
    if (!rst_ni) begin
      f_trk <= 1'b0;
      f_wr  <= 1'b0;
    end else begin
      if (f_start) begin
        f_trk   <= 1'b1;
        f_ahead <= f_full - {3'd0, free_o}; // the head may leave as it comes
        f_slot  <= wr_slot_q;
        f_len   <= in_len;
      end else if (f_trk && free_o) begin
        if (f_ahead == 4'd0) f_trk <= 1'b0;
        else f_ahead <= f_ahead - 4'd1;
      end
      if (f_start || (f_wr && wr_valid_i)) begin
        f_data[wr_idx_q] <= wr_flit_i;
        f_got <= wr_idx_q;
        f_wr  <= !tail;
      end
    end

  always @* if (rst_ni) begin
    assert(!overflow);                             // never drops a packet
    assert(room_q == !full_q[wr_slot_q]);          // the registers that stand for the slots' state
    assert(hf_q == full_q[rd_slot_q] && nf_q == full_q[rd_next] && nfull_q == f_full);
    assert(!free_o || full_q[rd_slot_q]);          // never frees an empty slot
    assert(!routed_q || (full_q[rd_slot_q] && hv_q[0]));
    assert(f_full + {3'd0, wr_idx_q != 3'd0} == f_out);
    assert(npkt_o <= Slots);
    assert(wr_idx_q == 3'd0 || wr_idx_q <= wr_len_q);
    assert(!drop_q);
    assert(f_slot_n(rd_slot_q) < Slots && f_slot_n(wr_slot_q) < Slots);
    assert(f_slot_n(wr_slot_q) == f_wrap(f_slot_n(rd_slot_q) + f_full));
    for (f_k = 0; f_k < Slots; f_k = f_k + 1) // the full slots run from the read slot on
      assert(full_q[f_k] == (f_wrap(f_k[3:0] + Slots[3:0] - f_slot_n(rd_slot_q)) < f_full));
    // the header registers hold, or are about to, the headers of the head and the next
    assert(!(hv_q[1] && pf_q));
    assert(f_begun(rd_slot_q) == hv_q[0]);
    assert(f_begun(rd_next) && rd_next != rd_slot_q ? hv_q[1] || pf_q : !hv_q[1] && !pf_q);
    if (hv_q[0]) assert(hdr0_q == mem_q[{rd_slot_q, 3'd0}]);
    if (hv_q[1]) assert(hdr1_q == mem_q[{rd_next, 3'd0}]);
    if (pf_q) assert(dout_q == mem_q[{rd_next, 3'd0}]);
    // a pass: the flit its outputs load is the one the read port gives
    if (rd_idx_q != 3'd0) assert(routed_q && rd_idx_q <= h_len0 && dout_q == mem_q[{rd_slot_q, rd_idx_q}]);
    assert(f_trk || !f_wr);
    if (f_trk) begin
      assert(f_wr ? f_ahead <= f_full : f_ahead < f_full);
      assert(f_slot_n(f_slot) == f_wrap(f_slot_n(rd_slot_q) + f_ahead));
      assert(f_wr ? !full_q[f_slot] && wr_slot_q == f_slot && wr_idx_q == f_got + 3'd1 && wr_len_q == f_len &&
                    f_got < f_len
                  : full_q[f_slot] && f_got == f_len);
      assert(unit_len(f_data[0]) == f_len);
      // what was written of it is still there; at the head, it is what leaves
      for (f_k = 0; f_k < SF; f_k = f_k + 1)
        if (f_k <= f_got)
          assert(mem_q[{f_slot, f_k[2:0]}] == f_data[f_k]);
      if (f_ahead == 4'd0 && hv_q[0])
        assert(hdr_o == f_data[0] && h_len0 == f_len);
      if (f_ahead == 4'd0 && rd_idx_q != 3'd0)
        assert(dout_o == f_data[rd_idx_q]);
    end
  end
`endif
endmodule
