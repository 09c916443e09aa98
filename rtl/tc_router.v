// Router of the collective subnet (Mukosey, Semenov, Simonov, 2015, figures 3-5): per link input a VCUp and
// a VCDown buffer, the PEGroup FIFO with the Broadcaster for PE injection, the
// Reducer with its result buffer, the 16-row collective routing table, and per
// output (links, PE ejection, Reducer) a round-robin switch allocator with credit
// counters and an output register.
// Unit u = 2*port + vc for link inputs, u = 2*NumPorts the Broadcaster,
// u = 2*NumPorts + 1 + k the result buffer of Reducer slice k (k < RedSlices),
// u = 2*NumPorts + 1 + RedSlices the packets of the credit block and the phase
// counters (credits, phase packets, reports, errors, barrier completions); output
// o < NumPorts is a link, o = NumPorts the PE ejection port, o = NumPorts + 1 + k the
// input of Reducer slice k. Slice k reduces the trees t with t mod RedSlices = k.
`default_nettype none
`include "tc_format.vh"
`include "tc_router_ports.vh"
`include "tc_params.vh"

module tc_router #(
  parameter integer NumDims = 2,
  parameter integer Slots = `TC_DEFAULT_SLOTS,          // packet slots per VC buffer of a link input, result and report buffer
  parameter integer InjSlots = `TC_DEFAULT_INJ_SLOTS,   // packet slots in the PEGroup FIFO
  parameter integer PeCredits = `TC_DEFAULT_PE_CREDITS, // packets the PE's ejection buffer holds
  parameter integer RedFlits = `TC_DEFAULT_RED_FLITS,   // data flits of a reduce the Reducer holds
  parameter integer RedRids = `TC_DEFAULT_RED_RIDS,     // ReduceIds a tree (16, 32 or 64): reduces of a tree in flight
  parameter integer RedSlices = `TC_DEFAULT_RED_SLICES, // the Reducer's slices: 1, 2 or 4
  localparam integer NP = 2 * NumDims,
  localparam integer K = RedSlices,
  localparam integer NU = 2 * NP + 2 + K,
  localparam integer NO = NP + 1 + K,
  localparam integer UPe = 2 * NP,      // unit: the PEGroup FIFO and its Broadcaster (units below: links)
  localparam integer URes = 2 * NP + 1, // unit: the result buffer of slice 0 (of slice k: URes + k)
  localparam integer URep = NU - 1,     // unit: the report buffer (credit block, phase counters)
  localparam integer OPe = NP,          // output: the PE's ejection (outputs below: links)
  localparam integer ORed = NP + 1,     // output: the input of slice 0 (of slice k: ORed + k)
  localparam integer FW = `TC_FLIT_W,
  localparam integer OBSW = NU * `TC_OBS_UNIT_W + NO * `TC_OBS_OUT_W + K * `TC_OBS_RED_W + `TC_OBS_PH_W
) (
  `TC_ROUTER_PORTS
);
`include "tc_wire_len.vh"

`ifdef FORMAL_TC_ROUTER
  reg f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;
  always @* assume(rst_ni == !f_init);
`endif

  // The observation record (docs/microarchitecture.md, "Observation"): the blocks
  // drive it and no logic reads it, so synthesis removes it; in the Verilated
  // simulations a monitor around the router reads it (tb/tc_router_mon.sv). No port
  // of the router carries it.
  wire [OBSW-1:0] obs;

  // ---- collective routing table ----
  // Four registers, written alike, hold the same table, so that no flip-flop drives
  // every block: every unit's route computation reads a tree's row early in long
  // paths (the head header's route decision into the credit block's counts), and so
  // does the Reducer (a contribution's header to the result buffer's write, its packet
  // count and tc_phase's fence). table_q serves the PEGroup FIFO, the result and the
  // report buffer and the credit block; up_table_q the links' VCUp buffers,
  // down_table_q their VCDown buffers, red_table_q the Reducer.
  reg [`TC_TREES*`TC_ROW_W-1:0] table_q, up_table_q, down_table_q, red_table_q;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      table_q      <= {`TC_TREES*`TC_ROW_W{1'b0}};
      up_table_q   <= {`TC_TREES*`TC_ROW_W{1'b0}};
      down_table_q <= {`TC_TREES*`TC_ROW_W{1'b0}};
      red_table_q  <= {`TC_TREES*`TC_ROW_W{1'b0}};
    end else if (cfg_we_i) begin
      table_q[cfg_tree_i*`TC_ROW_W +: `TC_ROW_W]      <= cfg_row_i;
      up_table_q[cfg_tree_i*`TC_ROW_W +: `TC_ROW_W]   <= cfg_row_i;
      down_table_q[cfg_tree_i*`TC_ROW_W +: `TC_ROW_W] <= cfg_row_i;
      red_table_q[cfg_tree_i*`TC_ROW_W +: `TC_ROW_W]  <= cfg_row_i;
    end
`ifdef FORMAL_TC_ROUTER
  always @* if (rst_ni) assert(up_table_q == table_q && down_table_q == table_q && red_table_q == table_q);
`endif

  // ---- units ----
  wire [NU*NO-1:0] req;       // unit u requests output o: bit u*NO+o
  wire [NU*NO-1:0] grant;
  wire [NU-1:0]    unit_vc, free, stream;
  wire [NU*FW-1:0] unit_hdr, unit_dout; // each unit's head header and read port

  // ---- Reducer slices: each fed by its output register, writes its result buffer ----
  wire [K-1:0]     red_valid, res_valid, red_block;
  wire [K*FW-1:0]  red_flit, res_flit;
  wire [K*5-1:0]   red_src;
  wire [K*4-1:0]   red_err, red_made_tree;
  wire [K-1:0]     red_complete, red_made, red_res_fenced, red_copy, red_fenced, src_fenced;
  wire             ph_snap;
  wire [`TC_TREES-1:0] up_ok;
  wire [NO-1:0]    out_busy;
  genvar sl;
  generate
    for (sl = 0; sl < K; sl = sl + 1) begin : g_slice
      tc_reducer #(.NumPorts(NP), .RedFlits(RedFlits), .RedRids(RedRids), .Slices(K), .Slice(sl)) u_reducer (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .node_id_i   (node_id_i),
        .table_i     (red_table_q),
        .in_valid_i  (red_valid[sl]),
        .in_flit_i   (red_flit[sl*FW +: FW]),
        .src_i       (red_src[sl*5 +: 5]),
        .in_busy_i   (out_busy[ORed+sl]),
        .res_room_i  (unit_can_write[URes+sl]),
        .up_ok_i     (up_ok),
        .src_fenced_i(src_fenced[sl]),
        .snap_i      (ph_snap),
        .res_valid_o (res_valid[sl]),
        .res_flit_o  (res_flit[sl*FW +: FW]),
        .block_o     (red_block[sl]),
        .err_o       (red_err[sl*4 +: 4]),
        .complete_o  (red_complete[sl]),
        .made_o      (red_made[sl]),
        .made_tree_o (red_made_tree[sl*4 +: 4]),
        .res_fenced_o(red_res_fenced[sl]),
        .copy_o      (red_copy[sl]),
        .fenced_o    (red_fenced[sl]),
        .obs_o       (obs[NU*`TC_OBS_UNIT_W + NO*`TC_OBS_OUT_W + sl*`TC_OBS_RED_W +: `TC_OBS_RED_W])
      );
    end
  endgenerate

  // ---- credit block and error reports ----
  wire [NU*4-1:0]  unit_err;
  wire [NU-1:0]    unit_drop, unit_can_write, unit_route;
  wire [NU*FW-1:0] unit_wr_flit, unit_head;
  wire             rep_valid;
  wire [FW-1:0]    rep_flit;
  localparam integer CW = $clog2((Slots > InjSlots ? Slots : InjSlots) + 2); // a unit's packet count
  wire [NU*CW-1:0] unit_npkt;
  wire [NU*4-1:0]  ph_err;
  wire             ph_send, ph_done, gen_phase, gen_done;
  wire [CW-1:0]    unused_npkt = unit_npkt[NU*CW-1 -: CW]; // the report buffer is not fenced
  // Neither the result buffer nor the report buffer can drop a packet: the Reducer
  // and the credit block write them only when they have room. Leaving their drop signals out of the error reports keeps the
  // Reducer's and the credit block's writes off the credit block's error inputs: a
  // combinational path through the buffers, in timing only.
  wire [K:0]       unused_buffer_drop = unit_drop[NU-1:URes];
  wire [1:0]       ph_mode;
  wire [12:0]      ph_target;
  wire [31:0]      ph_tag;
  wire [15:0]      ph_total;

  // ---- phase counters of the multiphase barrier ----
  tc_phase #(.NumPorts(NP), .RedSlices(K), .CW(CW)) u_phase (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .diam_i      (diam_i),
    .route_i     (unit_route),
    .head_i      (unit_head),
    .free_i      (free),
    .npkt_i      (unit_npkt[(NU-1)*CW-1:0]),
    .red_src_i   (red_src),
    .src_fenced_o(src_fenced),
    .res_fenced_i(red_res_fenced),
    .res_copy_i  (red_copy),
    .red_fenced_i(|red_fenced),
    .snap_o      (ph_snap),
    .gen_phase_i (gen_phase),
    .gen_done_i  (gen_done),
    .err_o       (ph_err),
    .send_o      (ph_send),
    .done_o      (ph_done),
    .mode_o      (ph_mode),
    .target_o    (ph_target),
    .tag_o       (ph_tag),
    .total_o     (ph_total),
    .obs_o       (obs[OBSW-1 -: `TC_OBS_PH_W])
  );
  tc_credit_block #(.NU(NU), .RedRids(RedRids), .RedSlices(K)) u_credit_block (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .node_id_i   (node_id_i),
    .table_i     (table_q),
    .red_err_i   (red_err),
    .red_unit_i  (red_src),
    .red_hdr_i   (red_flit),
    .red_last_i  (red_complete),
    .made_i      (red_made),
    .made_tree_i (red_made_tree),
    .drop_i      ({{(K+1){1'b0}}, unit_drop[UPe:0]}),
    .wr_hdr_i    (unit_wr_flit),
    .route_err_i (unit_err),
    .route_i     (unit_route),
    .head_i      (unit_head),
    .up_ok_o     (up_ok),
    .ph_send_i   (ph_send),
    .ph_done_i   (ph_done),
    .ph_mode_i   (ph_mode),
    .ph_target_i (ph_target),
    .ph_tag_i    (ph_tag),
    .ph_total_i  (ph_total),
    .gen_phase_o (gen_phase),
    .gen_done_o  (gen_done),
    .ready_i     (unit_can_write[NU-1]),
    .valid_o     (rep_valid),
    .flit_o      (rep_flit)
  );

  genvar u, o;
  generate
    for (u = 0; u < NU; u = u + 1) begin : g_unit
      localparam integer Port = (u < 2 * NP) ? u / 2 : 0;
      localparam integer RK = (u >= URes && u < URep) ? u - URes : 0; // a result buffer's slice
      wire wr_valid = (u == URep) ? rep_valid
                    : (u >= URes) ? res_valid[RK]
                    : (u == UPe)     ? inj_valid_i
                                        : link_valid_i[Port] && link_vc_i[Port] == u[0];
      wire [FW-1:0] wr_flit = (u == URep) ? rep_flit
                            : (u >= URes) ? res_flit[RK*FW +: FW]
                            : (u == UPe)     ? inj_flit_i : link_flit_i[Port*FW +: FW];
      assign unit_wr_flit[u*FW +: FW] = wr_flit;
      tc_vc_unit #(.NumPorts(NP), .Slots(u == UPe ? InjSlots : Slots), .RedFlits(RedFlits), .RedRids(RedRids), .RedSlices(K), .CW(CW),
                   .Vals(u == UPe))
      u_unit (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .node_id_i   (node_id_i),
        .port_i      (Port[2:0]),
        .is_down_i   (u < 2 * NP && u[0] == 1'b1),
        .is_bcast_i  (u == UPe),
        .is_result_i (u >= URes && u < URep),
        .is_report_i (u == URep),
        .table_i     (u >= UPe ? table_q : u % 2 == 1 ? down_table_q : up_table_q),
        .ph_err_i    (ph_err[u*4 +: 4]),
        .wr_valid_i  (wr_valid),
        .wr_flit_i   (wr_flit),
        .grant_i     (grant[u*NO +: NO]),
        .req_o       (req[u*NO +: NO]),
        .out_vc_o    (unit_vc[u]),
        .hdr_o       (unit_hdr[u*FW +: FW]),
        .dout_o      (unit_dout[u*FW +: FW]),
        .stream_o    (stream[u]),
        .rc_hdr_o    (unit_head[u*FW +: FW]),
        .free_o      (free[u]),
        .route_o     (unit_route[u]),
        .err_o       (unit_err[u*4 +: 4]),
        .drop_o      (unit_drop[u]),
        .can_write_o (unit_can_write[u]),
        .npkt_o      (unit_npkt[u*CW +: CW]),
        .obs_o       (obs[u*`TC_OBS_UNIT_W +: `TC_OBS_UNIT_W])
      );
    end
  endgenerate

  // ---- outputs: switch allocation, credits, output register ----
  wire [NO-1:0]    out_valid;
  wire [NO-1:0]    out_vc;
  wire [NO*FW-1:0] out_flit;
  // credits in, bit 2o+vc: from the links and the PE (the Reducer takes every
  // contribution: its input needs none)
  wire [2*NO-1:0]  cred_in = {{(2*K+1){1'b0}}, ej_cred_i, link_cred_i};

  generate
    for (o = 0; o < NO; o = o + 1) begin : g_out
      reg        busy_q, busy_d, valid_q, valid_d, vc_q, vc_d;
      reg [4:0]  owner_q, owner_d;
      reg [2:0]  cnt_q, cnt_d, len_q, len_d;
      reg [7:0]  cred0_q, cred0_d, cred1_q, cred1_d; // per VC; the PE port uses cred0
      reg [FW-1:0] flit_q, flit_d;
      reg [NU-1:0] elig;
      wire       gnt;
      wire [4:0] gidx;
      integer k;

      // Bubble flow control: a copy that enters a ring (new dimension, new VC, or from
      // the PEGroup FIFO, the result or the report buffer) needs two free slots, one
      // that continues along its ring needs one, so every ring keeps a free slot and
      // cannot deadlock (docs/deadlock.md). The PE is not a ring; a Reducer slice
      // takes every contribution, but not while it copies a held result.
      reg [7:0] avail;
      reg       cont;
      always @* begin
        for (k = 0; k < NU; k = k + 1) begin
          avail = (o >= OPe || !unit_vc[k]) ? cred0_q : cred1_q;
          cont = o >= OPe || (k < 2 * NP && o == ((k / 2) ^ 1) && unit_vc[k] == k[0]);
          elig[k] = !busy_q && req[k*NO + o] && !stream[k] && // one pass at a time through a read port
                    (o >= ORed || avail >= (cont ? 8'd1 : 8'd2));
        end
      end

      // a Reducer slice's input grants nothing while a held result is copied
      // (red_block, late in the cycle: it gates the grant, not the requests)
      localparam integer OK = (o >= ORed) ? o - ORed : 0; // a Reducer input's slice
      wire slice_blocked = red_block[OK];
      wire [4:0]    unused_ptr, unused_srch_idx;
      wire          unused_srch_any;
      wire [NU-1:0] unused_late;
      tc_rr_arb #(.N(NU), .IdxW(5)) u_arb (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .req_i      (elig),
        .en_i       (o < ORed || !slice_blocked),
        .gnt_o      (gnt),
        .idx_o      (gidx),
        .ptr_o      (unused_ptr),
        .srch_any_o (unused_srch_any),
        .srch_idx_o (unused_srch_idx),
        .late_win_o (unused_late)
      );

      for (u = 0; u < NU; u = u + 1) begin : g_gnt
        assign grant[u*NO + o] = gnt && gidx == u;
      end

      wire [31:0] vc_pad  = {{(32-NU){1'b0}}, unit_vc};
      wire        take_vc = vc_pad[gidx];

      // The flit loaded this cycle: the owner's read port while busy, else the
      // header of the unit granted. A one-hot AND-OR over the units.
      reg [FW-1:0] flit_sel;
      integer j;
      always @* begin
        flit_sel = {FW{1'b0}};
        for (j = 0; j < NU; j = j + 1)
          if ((busy_q ? owner_q : gidx) == j[4:0])
            flit_sel = flit_sel | (busy_q ? unit_dout[j*FW +: FW] : unit_hdr[j*FW +: FW]);
      end

      always @* begin
        busy_d  = busy_q;
        owner_d = owner_q;
        cnt_d   = cnt_q;
        len_d   = len_q;
        vc_d    = vc_q;
        valid_d = 1'b0;
        flit_d  = {FW{1'b0}};
        if (o >= ORed) begin // a Reducer slice: no credits
          cred0_d = cred0_q;
          cred1_d = cred1_q;
        end else begin
          cred0_d = cred0_q + {7'd0, cred_in[2*o]}   - {7'd0, gnt && (o == OPe || !take_vc)};
          cred1_d = cred1_q + {7'd0, cred_in[2*o+1]} - {7'd0, gnt && o < OPe && take_vc};
        end
        if (busy_q) begin
          valid_d = 1'b1;
          flit_d  = flit_sel;
          if (cnt_q == len_q)
            busy_d = 1'b0;
          cnt_d = cnt_q + 3'd1;
        end else if (gnt) begin
          valid_d = 1'b1;
          flit_d  = flit_sel;
          vc_d    = take_vc;
          owner_d = gidx;
          len_d   = tc_wire_len(flit_sel);
          busy_d  = len_d != 3'd0;
          cnt_d   = 3'd1;
        end else begin
          vc_d = 1'b0;
        end
      end

      always @(posedge clk_i or negedge rst_ni)
        if (!rst_ni) begin
          busy_q    <= 1'b0;
          vc_q      <= 1'b0;
          valid_q   <= 1'b0;
          cred0_q   <= (o == OPe) ? PeCredits[7:0] : Slots[7:0];
          cred1_q   <= (o >= OPe) ? 8'd0 : Slots[7:0];
        end else begin
          busy_q    <= busy_d;
          vc_q      <= vc_d;
          valid_q   <= valid_d;
          cred0_q   <= cred0_d;
          cred1_q   <= cred1_d;
        end
      // datapath, no reset: read only with busy_q or valid_q
      always @(posedge clk_i) begin
        owner_q <= owner_d;
        cnt_q   <= cnt_d;
        len_q   <= len_d;
        flit_q  <= flit_d;
      end

`ifdef FORMAL_TC_ROUTER
      // Formal proof (sim/formal.sh): a link's or the PE's credit counter plus the
      // packets sent on that channel and not yet credited back is the buffer's depth,
      // so it stays within 0..depth, given a neighbour (or PE) that returns a credit
      // only for a packet it got.
      if (o <= OPe) begin : g_formal
        reg [7:0] f_out0, f_out1;
        always @(posedge clk_i)
          if (!rst_ni) begin
            f_out0 <= 8'd0;
            f_out1 <= 8'd0;
          end else begin
            f_out0 <= f_out0 + {7'd0, gnt && (o == OPe || !take_vc)} - {7'd0, cred_in[2*o]};
            f_out1 <= f_out1 + {7'd0, gnt && o < OPe && take_vc} - {7'd0, cred_in[2*o+1]};
          end
        always @* begin
          assume(!cred_in[2*o] || f_out0 != 8'd0);
          assume(!cred_in[2*o+1] || f_out1 != 8'd0);
          if (rst_ni) begin
            assert(cred0_q <= ((o == OPe) ? PeCredits[7:0] : Slots[7:0]) && f_out0 <= 8'd128);
            assert(cred1_q <= ((o == OPe) ? 8'd0 : Slots[7:0]) && f_out1 <= 8'd128);
            assert(cred0_q + f_out0 == ((o == OPe) ? PeCredits[7:0] : Slots[7:0]));
            assert(cred1_q + f_out1 == ((o == OPe) ? 8'd0 : Slots[7:0]));
          end
        end
      end
`endif
`ifdef TC_ASSERT
      // Credit counters stay within the buffer they count: more credits than slots
      // means a neighbour or the PE returned credits it never had.
      always @(posedge clk_i)
        if ((cred0_q > ((o == OPe) ? PeCredits[7:0] : Slots[7:0]) ||
                       cred1_q > ((o >= OPe) ? 8'd0 : Slots[7:0])))
          $error("tc_router: output %0d credit counters %0d/%0d out of range", o, cred0_q, cred1_q);
`endif

      assign out_busy[o] = busy_q;
      if (o >= ORed) begin : g_red // a Reducer slice's input: the unit a contribution comes from
        assign red_src[(o-ORed)*5 +: 5] = owner_q;
      end
      assign out_valid[o] = valid_q;
      assign out_vc[o] = vc_q;
      assign out_flit[o*FW +: FW] = flit_q;
      assign obs[NU*`TC_OBS_UNIT_W + o*`TC_OBS_OUT_W +: `TC_OBS_OUT_W] =
          {gnt ? gidx : 5'd0, gnt};
    end
  endgenerate

  // ---- registered credit returns and port outputs ----
  reg [2*NP-1:0] link_cred_q;
  reg            inj_cred_q;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      link_cred_q <= {2*NP{1'b0}};
      inj_cred_q  <= 1'b0;
    end else begin
      link_cred_q <= free[2*NP-1:0];
      inj_cred_q  <= free[UPe];
    end

  assign link_cred_o  = link_cred_q;
  assign inj_cred_o   = inj_cred_q;
  assign link_valid_o = out_valid[NP-1:0];
  assign link_vc_o    = out_vc[NP-1:0];
  assign link_flit_o  = out_flit[NP*FW-1:0];
  assign ej_valid_o   = out_valid[OPe];
  assign ej_flit_o    = out_flit[OPe*FW +: FW];
  assign red_valid    = out_valid[NO-1:ORed];
  assign red_flit     = out_flit[NO*FW-1:ORed*FW];
  wire [K:0] unused_vc = out_vc[NO-1:OPe]; // the PE and the Reducer slices have one channel each

  // OBS_O_SRC must hold any unit index; the slices share out the 16 trees.
  initial if (NU > 31) $error("tc_router: %0d units do not fit the 5-bit observation field", NU);
  initial if (K != 1 && K != 2 && K != 4) $error("tc_router: RedSlices %0d is not 1, 2 or 4", K);
endmodule
