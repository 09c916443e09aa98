// Phase counters of the multiphase barrier (Makagon, Syromyatnikov, 2012). The PE's
// request (type BARRIER, routed by the Broadcaster to no output) starts phase 0. In
// each phase the node sends one phase packet to every neighbour (written into the
// report buffer by tc_credit_block, which copies it to every link) and waits for one
// from every link input; after `target` phases (K, or 2K for a full barrier) the PE
// gets the completion. A neighbour is at most one phase ahead (lemma 1), so a 2-bit
// counter per link input holds the phase packets counted and not yet used; a third
// is an error. The fence keeps the barrier's promise: a phase packet (or the
// completion) is made only when every packet that was in the router when it became
// due has left, so it cannot overtake any of them. Its C twin: cmodel/phase.c.
`default_nettype none
`include "tc_format.vh"

module tc_phase #(
  parameter integer NumPorts = 4,
  parameter integer RedSlices = 1,          // the Reducer's slices, each with a result buffer
  parameter integer CW = 4,                 // width of a unit's packet count
  localparam integer NU = 2 * NumPorts + 2 + RedSlices,
  localparam integer NF = NU - 1,           // fenced units: links, Broadcaster, result buffers
  localparam integer FW = `TC_FLIT_W
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire [15:0]       diam_i,       // K of a BAR_DIAM request: the torus's diameter (0 counts as 1)
  input  wire [NU-1:0]     route_i,      // a unit routes its head packet this cycle
  input  wire [NU*FW-1:0]  head_i,       // each unit's head header
  input  wire [NU-1:0]     free_i,       // a unit frees its head packet's slot
  input  wire [NF*CW-1:0]  npkt_i,       // packets in each fenced unit after this cycle
  // per Reducer slice k, bit k (red_src_i: 5 bits at 5k)
  input  wire [RedSlices*5-1:0] red_src_i, // the unit whose contribution slice k takes
  output wire [RedSlices-1:0] src_fenced_o, // ... is fenced
  input  wire [RedSlices-1:0] res_fenced_i, // a fenced result enters slice k's result buffer ...
  input  wire [RedSlices-1:0] res_copy_i,   // ... from its memory (written from the next cycle)
  input  wire              red_fenced_i, // a slice holds a fenced result, or makes one now
  output wire              snap_o,       // a new fence is taken this cycle
  input  wire              gen_phase_i,  // the phase packet is written this cycle
  input  wire              gen_done_i,   // the completion is written this cycle
  output wire [NU*4-1:0]   err_o,        // route errors of barrier requests and phase packets
  output wire              send_o,       // a phase packet may be written
  output wire              done_o,       // the completion may be written
  output wire [1:0]        mode_o,
  output wire [12:0]       target_o,
  output wire [31:0]       tag_o,
  output wire [15:0]       total_o,
  output wire [`TC_OBS_PH_W-1:0] obs_o
);
  localparam integer UB = 2 * NumPorts;     // the Broadcaster
  localparam integer UR = 2 * NumPorts + 1; // the result buffer of slice 0 (of slice k: UR + k)
  localparam [15:0] KMax = `TC_BAR_KMAX;
  localparam [3:0] TypeBarrier = `TC_TYPE_BARRIER;
  localparam [3:0] TypePhase = `TC_TYPE_PHASE;

  reg          active_q, send_q, done_q;
  reg [1:0]    mode_q;
  reg [12:0]   target_q, ph_q;
  reg [15:0]   total_q;
  reg [31:0]   tag_q;
  reg [2*NumPorts-1:0] cnt_q; // 2 bits per link input
  reg [NF*CW-1:0] fence_q;

  // ---- the PE's request, at the head of the Broadcaster ----
  wire          is_rq   = head_i[UB*FW + `TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W] == TypeBarrier;
  wire [3:0]    rq_mode = head_i[UB*FW + `TC_HDR_OP_LSB +: `TC_HDR_OP_W];
  wire [31:0]   rq_tag  = head_i[UB*FW + `TC_HDR_TAG_LSB +: `TC_HDR_TAG_W];
  wire [15:0]   rq_k    = rq_mode[1] ? (diam_i == 16'd0 ? 16'd1 : diam_i) : head_i[UB*FW + `TC_HDR_DST_LSB +: `TC_HDR_DST_W];
  wire [3:0]    rq_err  = (rq_mode > 4'd3 || rq_k == 16'd0 || rq_k > KMax) ? `TC_ERR_BAD_BARRIER
                        : active_q ? `TC_ERR_BARRIER_BUSY : `TC_ERR_NONE;
  wire          enter   = route_i[UB] && is_rq && rq_err == `TC_ERR_NONE;

  // ---- phase packets at the head of each VCDown ----
  reg [NumPorts-1:0] arr;
  reg [NU*4-1:0]     err;
  reg                all_cnt;
  integer p;
  always @* begin
    err = {NU*4{1'b0}};
    arr = {NumPorts{1'b0}};
    all_cnt = 1'b1;
    if (is_rq)
      err[UB*4 +: 4] = rq_err;
    for (p = 0; p < NumPorts; p = p + 1) begin
      if (head_i[(2*p+1)*FW + `TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W] == TypePhase) begin
        if (cnt_q[2*p+1]) // already 2: the neighbour would be 2 phases ahead
          err[(2*p+1)*4 +: 4] = `TC_ERR_PHASE_AHEAD;
        else
          arr[p] = route_i[2*p+1];
      end
      all_cnt = all_cnt && cnt_q[2*p +: 2] != 2'd0;
    end
  end
  assign err_o = err;

  wire adv = active_q && !send_q && !done_q && all_cnt;

  // ---- fence: packets that must leave before the next phase packet or completion ----
  reg [NF*CW-1:0] fence_n;
  reg            clear;
  integer u, k;
  // The fence is clear when every count is zero and the Reducer holds no fenced
  // result and makes none (red_fenced_i): a fenced result entering the result buffer
  // this cycle comes from one of those, so the counts need not wait for its place in
  // the FIFO, which only the next fence register takes (a long path otherwise: the
  // Reducer's ALU, the result buffer's packet count, the report buffer's write).
  always @* begin
    clear = 1'b1;
    for (u = 0; u < NF; u = u + 1) begin
      fence_n[u*CW +: CW] = fence_q[u*CW +: CW] - {{(CW-1){1'b0}}, free_i[u] && fence_q[u*CW +: CW] != {CW{1'b0}}};
      clear = clear && fence_n[u*CW +: CW] == {CW{1'b0}};
    end
    clear = clear && !red_fenced_i;
    // a fenced result is fenced in its result buffer too, behind the packets there
    for (k = 0; k < RedSlices; k = k + 1)
      if (res_fenced_i[k] && fence_n[(UR+k)*CW +: CW] < npkt_i[(UR+k)*CW +: CW] + {{(CW-1){1'b0}}, res_copy_i[k]})
        fence_n[(UR+k)*CW +: CW] = npkt_i[(UR+k)*CW +: CW] + {{(CW-1){1'b0}}, res_copy_i[k]};
  end
  genvar g;
  generate
    for (g = 0; g < RedSlices; g = g + 1) begin : g_src
      wire [4:0] src = red_src_i[g*5 +: 5];
      assign src_fenced_o[g] = {27'd0, src} < NF && fence_q[src*CW +: CW] != {CW{1'b0}};
    end
  endgenerate
  assign snap_o = enter || adv;
  assign send_o = send_q && clear;
  assign done_o = done_q && clear;

  // ---- next state ----
  wire [12:0] ph_inc = ph_q + 13'd1;
  integer q;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      active_q <= 1'b0;
      send_q   <= 1'b0;
      done_q   <= 1'b0;
      mode_q   <= 2'd0;
      target_q <= 13'd0;
      ph_q     <= 13'd0;
      total_q  <= 16'd0;
      tag_q    <= 32'd0;
      cnt_q    <= {2*NumPorts{1'b0}};
      fence_q  <= {NF*CW{1'b0}};
    end else begin
      if (enter) begin
        active_q <= 1'b1;
        send_q   <= 1'b1;
        mode_q   <= rq_mode[1:0];
        target_q <= rq_mode[0] ? {rq_k[11:0], 1'b0} : {1'b0, rq_k[11:0]};
        ph_q     <= 13'd0;
        tag_q    <= rq_tag;
      end else if (adv) begin
        ph_q    <= ph_inc;
        total_q <= total_q + 16'd1;
        if (ph_inc == target_q)
          done_q <= 1'b1;
        else
          send_q <= 1'b1;
      end
      if (gen_phase_i)
        send_q <= 1'b0;
      if (gen_done_i) begin
        done_q   <= 1'b0;
        active_q <= 1'b0;
      end
      for (q = 0; q < NumPorts; q = q + 1)
        cnt_q[2*q +: 2] <= cnt_q[2*q +: 2] - {1'b0, adv} + {1'b0, arr[q]};
      fence_q <= (enter || adv) ? npkt_i : fence_n;
    end

  assign mode_o   = mode_q;
  assign target_o = target_q;
  assign tag_o    = tag_q;
  assign total_o  = total_q;
  assign obs_o    = {total_q, gen_done_i, gen_phase_i, adv, enter};

`ifdef TC_ASSERT
  // Lemma 1 seen from one router: no link input ever holds 3 phase packets.
  always @(posedge clk_i)
    for (q = 0; q < NumPorts; q = q + 1)
      if (cnt_q[2*q +: 2] == 2'd3)
        $error("tc_phase: link input %0d counted 3 phase packets ahead", q);
`endif
`ifdef FORMAL_TC_PHASE // defined by sim/formal.sh when this module is the top
  // ---- formal proof (make formal, sim/formal.sh): with the credit block writing a
  // phase packet or the completion only when asked to, every link input's counter
  // stays within 0..2 whatever arrives (a third phase packet is refused), and the
  // phase number stays within 0..target of a barrier in progress. ----
  reg f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;
  always @* begin
    assume(rst_ni == !f_init);
    assume(!gen_phase_i || send_o);
    assume(!gen_done_i || done_o);
  end
  always @* if (rst_ni) begin
    for (q = 0; q < NumPorts; q = q + 1)
      assert(cnt_q[2*q +: 2] != 2'd3);
    assert(!(send_q && done_q));
    assert(active_q || (!send_q && !done_q));
    if (active_q) begin
      assert(target_q != 13'd0 && target_q <= {KMax[11:0], 1'b0});
      assert(done_q ? ph_q == target_q : ph_q < target_q);
    end
  end
`endif
endmodule
