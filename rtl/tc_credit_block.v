// Credit block (Mukosey, Semenov, Simonov, 2015, section 2.4) and error reports. It counts the results that enter
// the result buffer per tree (their ReduceIds are free again at the Reducer); every
// RedRids / 2 results of a tree it owes that tree's children a credit packet (each lets
// a child send RedRids / 2 more results up); it holds, per tree, how many results this
// node may still send to its parent (RedRids, -1 per result that enters the result
// buffer to go up, + RedRids / 2 per credit received), and sends the PE a report of
// the reduces completed per tree after every 128 of them or 4096 cycles, one at a time: a report due while the last
// is still unrouted in the report buffer waits (and merges), so a PE that takes a
// packet more slowly than one a report interval finds at most two reports ahead of
// anything else the report buffer holds for it. It also queues errors: the Reducer's first, then dropped packets, then
// route errors, one a cycle; more are counted as lost. Its packets, written one flit
// a cycle into the report buffer when that has room, taking turns round-robin: an
// ERROR (one flit: OP = the code, TREE/RID/TAG of the packet concerned, DST = unit |
// lost << 8), the phase counters' PHASE packet, their BARRIER completion for the PE,
// a REPORT (two data flits of 16-bit counters), a CREDIT for each tree.
// Its C twin: cmodel/credit_block.c.
`default_nettype none
`include "tc_format.vh"

module tc_credit_block #(
  parameter integer NU = 11,
  parameter integer RedRids = 16, // ReduceIds a tree (16, 32 or 64): the results in flight to the parent
  parameter integer RedSlices = 1,
  localparam integer NP = (NU - 2 - RedSlices) / 2,
  localparam integer K = RedSlices,
  localparam integer FW = `TC_FLIT_W
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire [15:0]      node_id_i,
  input  wire [`TC_TREES*`TC_ROW_W-1:0] table_i,
  // per Reducer slice k (at k * the field's width)
  input  wire [K*4-1:0]   red_err_i,     // mismatch or reuse
  input  wire [K*5-1:0]   red_unit_i,
  input  wire [K*FW-1:0]  red_hdr_i,
  input  wire [K-1:0]     red_last_i,    // a reduce of tree red_hdr_i.TREE completes
  input  wire [K-1:0]     made_i,        // a result enters the slice's result buffer ...
  input  wire [K*4-1:0]   made_tree_i,   // ... of this tree
  input  wire [NU-1:0]    drop_i,        // header found no free slot
  input  wire [NU*FW-1:0] wr_hdr_i,      // the header each unit is receiving
  input  wire [NU*4-1:0]  route_err_i,   // route decision errors
  input  wire [NU-1:0]    route_i,       // route decisions this cycle
  input  wire [NU*FW-1:0] head_i,        // each unit's head packet header
  output wire [`TC_TREES-1:0] up_ok_o,  // per tree: a result may go up to the parent
  input  wire             ph_send_i,     // tc_phase: a phase packet is due
  input  wire             ph_done_i,     // tc_phase: the barrier's completion is due
  input  wire [1:0]       ph_mode_i,
  input  wire [12:0]      ph_target_i,
  input  wire [31:0]      ph_tag_i,
  input  wire [15:0]      ph_total_i,
  output wire             gen_phase_o,
  output wire             gen_done_o,
  input  wire             ready_i,       // the report buffer has a free slot
  output wire             valid_o,
  output reg  [FW-1:0]    flit_o
);
  localparam integer Depth = `TC_ERRQ;
  localparam integer RecW = 4 + 4 + `TC_HDR_RID_W + 5 + 32; // code, tree, rid, unit, tag
  localparam integer Lg = $clog2(RedRids / 2);             // a credit is worth 2^Lg = RedRids / 2 results
  localparam [3:0] ErrCredit = `TC_ERR_CREDIT;
  localparam [3:0] TypeError = `TC_TYPE_ERROR;
  localparam [3:0] TypeCredit = `TC_TYPE_CREDIT;
  localparam [3:0] TypeReport = `TC_TYPE_REPORT;
  localparam [31:0] TagCredit = `TC_TAG_CREDIT;
  localparam [31:0] TagReport = `TC_TAG_REPORT;
  localparam [31:0] TagPhase = `TC_TAG_PHASE;
  localparam [3:0] TypePhase = `TC_TYPE_PHASE;
  localparam [3:0] TypeBarrier = `TC_TYPE_BARRIER;

  reg [RecW-1:0] q_q [0:Depth-1];
  reg [2:0]      n_q;
  reg [7:0]      lost_q;
  reg [15:0]     done_q     [0:`TC_TREES-1];
  reg [Lg-1:0]   since_q    [0:`TC_TREES-1];
  reg [1:0]      due_q      [0:`TC_TREES-1];
  reg [7:0]      up_cred_q  [0:`TC_TREES-1];
  reg [6:0]      total_q;
  reg [11:0]     cyc_q, seq_q;
  reg            report_due_q;
  reg            rep_q;          // a REPORT in the report buffer, not yet routed
  reg [1:0]      gen_idx_q;
  reg [2*FW-1:0] gen_data_q;

  // ---- the error of this cycle, and how many there were ----
  // The record is the Reducer's error if there is one, else the first unit's (lowest u)
  // drop, else the first unit's route error; the count adds them all. Both are trees,
  // not chains over the units: the first of each kind is one-hot (a unit whose lower
  // units have none), the record an AND-OR of the units' records, the count a
  // balanced adder tree (ones()).
  wire [NU-1:0] err_any;
  reg  [NU-1:0] drop_first, err_first;
  reg  [RecW-1:0] rec;
  integer u, s;
  always @* begin
    rec = {RecW{1'b0}};
    for (u = 0; u < NU; u = u + 1) begin
      drop_first[u] = drop_i[u] && (drop_i & ({NU{1'b1}} >> (NU - u))) == {NU{1'b0}};
      err_first[u]  = err_any[u] && (err_any & ({NU{1'b1}} >> (NU - u))) == {NU{1'b0}} && drop_i == {NU{1'b0}};
      rec = rec | ({RecW{drop_first[u]}} & {ErrCredit, wr_hdr_i[u*FW + `TC_HDR_TREE_LSB +: 4],
                     wr_hdr_i[u*FW + `TC_HDR_RID_LSB +: `TC_HDR_RID_W], u[4:0], wr_hdr_i[u*FW + `TC_HDR_TAG_LSB +: 32]})
                | ({RecW{err_first[u]}} & {route_err_i[u*4 +: 4], head_i[u*FW + `TC_HDR_TREE_LSB +: 4],
                     head_i[u*FW + `TC_HDR_RID_LSB +: `TC_HDR_RID_W], u[4:0], head_i[u*FW + `TC_HDR_TAG_LSB +: 32]});
    end
    for (s = K - 1; s >= 0; s = s - 1) // the Reducer slices' first, the lowest slice's first of all
      if (red_err_i[s*4 +: 4] != 4'd0)
        rec = {red_err_i[s*4 +: 4], red_hdr_i[s*FW + `TC_HDR_TREE_LSB +: 4], red_hdr_i[s*FW + `TC_HDR_RID_LSB +: `TC_HDR_RID_W],
               red_unit_i[s*5 +: 5], red_hdr_i[s*FW + `TC_HDR_TAG_LSB +: 32]};
  end
  reg [K-1:0] red_any;
  always @*
    for (s = 0; s < K; s = s + 1)
      red_any[s] = red_err_i[s*4 +: 4] != 4'd0;
  genvar ge;
  generate
    for (ge = 0; ge < NU; ge = ge + 1) begin : g_err
      assign err_any[ge] = route_err_i[ge*4 +: 4] != 4'd0;
    end
  endgenerate
  // the number of bits set in v (modulo 64), by a balanced tree of adders: level l adds
  // pairs of the sums of level l - 1 (in place: sum k reads sums 2k and 2k + 1)
  function automatic [5:0] ones(input [63:0] v);
    reg [64*6-1:0] sum;
    integer l, k;
    begin
      for (k = 0; k < 64; k = k + 1)
        sum[k*6 +: 6] = {5'd0, v[k]};
      for (l = 0; l < 6; l = l + 1)
        for (k = 0; k < (32 >> l); k = k + 1)
          sum[k*6 +: 6] = sum[2*k*6 +: 6] + sum[(2*k+1)*6 +: 6];
      ones = sum[5:0];
    end
  endfunction
  wire [63:0] ev_bits = {{(64 - 2 * NU - K){1'b0}}, red_any, err_any, drop_i};
  wire [5:0]  nev     = ones(ev_bits);

  // ---- what is written into the report buffer this cycle ----
  // Its duties take turns, round-robin (tc_rr_arb): the oldest error, the phase
  // packet, the barrier's completion, a due report, and the credit owed to each
  // tree's children, 20 requesters. A duty that stays due is served within 19 others'
  // packets written, i.e. within 21 cycles in which the report buffer has room (only
  // the report has data flits, and it is due once in that span); a fixed priority
  // let reports due every 4096 cycles starve the credits behind a slow PE.
  localparam integer NReq = 4 + `TC_TREES;
  localparam integer ReqError = 0, ReqPhase = 1, ReqDone = 2, ReqReport = 3, ReqCredit = 4;
  wire [NReq-1:0] req;
  genvar gr;
  generate
    for (gr = 0; gr < `TC_TREES; gr = gr + 1) begin : g_req
      assign req[ReqCredit + gr] = due_q[gr] != 2'd0;
    end
  endgenerate
  assign req[ReqError]  = n_q != 3'd0;
  assign req[ReqPhase]  = ph_send_i;
  assign req[ReqDone]   = ph_done_i;
  assign req[ReqReport] = report_due_q && !rep_q;
  wire       room = gen_idx_q == 2'd0 && ready_i;
  wire       gnt, srch_any;
  wire [4:0] gnt_idx, srch_idx, rr_ptr;
  wire [NReq-1:0] late_win;
  // the phase counters' requests settle late (after the Reducer's fence): they join
  // the arbiter's last step, not its search, and select the packet written last
  localparam [NReq-1:0] LateReq = (1 << ReqPhase) | (1 << ReqDone);
  tc_rr_arb #(.N(NReq), .IdxW(5), .Late(LateReq)) u_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (req),
    .en_i       (room),
    .gnt_o      (gnt),
    .idx_o      (gnt_idx),
    .ptr_o      (rr_ptr),
    .srch_any_o (srch_any),
    .srch_idx_o (srch_idx),
    .late_win_o (late_win)
  );
  wire       gen_phase  = room && late_win[ReqPhase];
  wire       gen_done   = room && late_win[ReqDone];
  wire       srch_gnt   = room && srch_any && !late_win[ReqPhase] && !late_win[ReqDone];
  wire       pop        = srch_gnt && srch_idx == ReqError[4:0];
  wire       gen_report = srch_gnt && srch_idx == ReqReport[4:0];
  wire       gen_credit = srch_gnt && srch_idx >= ReqCredit[4:0];
  wire [3:0] cred_tree  = srch_idx[3:0] - ReqCredit[3:0]; // srch_idx is 4..19 here
  wire       unused_rr = ^{rr_ptr, gnt_idx}; // read by the proof below
  assign gen_phase_o = gen_phase;
  assign gen_done_o  = gen_done;
  wire push       = ev_bits != 64'd0 && n_q < Depth[2:0];

  wire [RecW-1:0] head = q_q[0];
  assign valid_o = gen_idx_q != 2'd0 || gnt;
  // the packet of the search's winner (a report, a credit or an error), then the
  // phase counters' on top: their late grant selects last
  wire srch_rep  = srch_idx == ReqReport[4:0];
  wire srch_cred = srch_idx >= ReqCredit[4:0];
  always @* begin
    flit_o = {FW{1'b0}};
    if (srch_rep || srch_cred) begin
      flit_o[`TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W] = srch_rep ? TypeReport : TypeCredit;
      flit_o[`TC_HDR_TREE_LSB +: `TC_HDR_TREE_W] = srch_cred ? cred_tree : 4'd0;
      flit_o[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W]   = srch_rep ? 3'd2 : 3'd0;
      flit_o[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W]   = node_id_i;
      flit_o[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W]   = (srch_rep ? TagReport : TagCredit) |
                                                   {4'd0, node_id_i, seq_q};
    end else begin
      flit_o[`TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W] = TypeError;
      flit_o[`TC_HDR_OP_LSB +: `TC_HDR_OP_W]     = head[RecW-1 -: 4];
      flit_o[`TC_HDR_TREE_LSB +: `TC_HDR_TREE_W] = head[RecW-5 -: 4];
      flit_o[`TC_HDR_RID_LSB +: `TC_HDR_RID_W]   = head[RecW-9 -: `TC_HDR_RID_W];
      flit_o[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W]   = node_id_i;
      flit_o[`TC_HDR_DST_LSB +: `TC_HDR_DST_W]   = {lost_q, 3'd0, head[36:32]};
      flit_o[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W]   = head[31:0];
    end
    if (gen_idx_q != 2'd0)
      flit_o = gen_idx_q == 2'd1 ? gen_data_q[FW-1:0] : gen_data_q[2*FW-1:FW];
    else if (late_win[ReqPhase]) begin
      flit_o = {FW{1'b0}};
      flit_o[`TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W] = TypePhase;
      flit_o[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W]   = node_id_i;
      flit_o[`TC_HDR_DST_LSB +: `TC_HDR_DST_W]   = ph_total_i;
      flit_o[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W]   = TagPhase | {4'd0, node_id_i, ph_total_i[11:0]};
    end else if (late_win[ReqDone]) begin
      flit_o = {FW{1'b0}};
      flit_o[`TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W] = TypeBarrier;
      flit_o[`TC_HDR_OP_LSB +: `TC_HDR_OP_W]     = {2'd0, ph_mode_i};
      flit_o[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W]   = node_id_i;
      flit_o[`TC_HDR_DST_LSB +: `TC_HDR_DST_W]   = {3'd0, ph_target_i};
      flit_o[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W]   = ph_tag_i;
    end
  end

  // ---- counters ----
  wire [5:0]  n_last   = ones({{(64 - K){1'b0}}, red_last_i}); // a reduce completes in each of these slices
  wire [7:0]  total_n  = {1'b0, total_q} + {2'd0, n_last};
  wire [12:0] cyc_n    = {1'b0, cyc_q} + 13'd1;
  // errors counted as lost, both ways: pop (the late grant) only selects between them
  wire [8:0]  lost_keep = {1'b0, lost_q} + {3'd0, nev} - {8'd0, push};
  wire [8:0]  lost_new  = {3'd0, nev} - {8'd0, push}; // push implies nev >= 1
  wire [8:0]  lost_sum  = pop ? lost_new : lost_keep;

  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      n_q          <= 3'd0;
      lost_q       <= 8'd0;
      total_q      <= 7'd0;
      cyc_q        <= 12'd0;
      seq_q        <= 12'd0;
      report_due_q <= 1'b0;
      rep_q        <= 1'b0;
      gen_idx_q    <= 2'd0;
    end else begin
      n_q          <= n_q - {2'd0, pop} + {2'd0, push};
      lost_q       <= lost_sum[8] ? 8'hff : lost_sum[7:0];
      total_q      <= total_n[6:0];
      cyc_q        <= cyc_n[11:0];
      seq_q        <= seq_q + {11'd0, gen_report || gen_credit};
      report_due_q <= (report_due_q && !gen_report) || total_n[7] || cyc_n[12];
      rep_q        <= gen_report || (rep_q && !rep_routed);
      gen_idx_q    <= gen_report ? 2'd1 : (gen_idx_q == 2'd2 ? 2'd0 : gen_idx_q + {1'b0, gen_idx_q != 2'd0});
    end

  // the report buffer's RC routes its REPORT (to the PE): a new one may be written
  wire rep_routed = route_i[NU-1] && head_i[(NU-1)*FW + `TC_HDR_TYPE_LSB +: 4] == TypeReport;

  // the link units whose RC takes a CREDIT packet without error this cycle
  reg [2*NP-1:0] cred_rx;
  integer c;
  always @*
    for (c = 0; c < 2 * NP; c = c + 1)
      cred_rx[c] = route_i[c] && !err_any[c] && head_i[c*FW + `TC_HDR_TYPE_LSB +: 4] == TypeCredit;

  genvar gt, gk;
  generate
    for (gt = 0; gt < `TC_TREES; gt = gt + 1) begin : g_tree
      // the credit packets of this tree the link units take this cycle
      reg [2*NP-1:0] cred;
      integer k;
      always @*
        for (k = 0; k < 2 * NP; k = k + 1)
          cred[k] = cred_rx[k] && head_i[k*FW + `TC_HDR_TREE_LSB +: 4] == gt;
      wire [5:0] got = ones({{(64 - 2 * NP){1'b0}}, cred});
      // a tree has one slice: one reduce completes and one result is made at most
      reg        res_now, made_now;
      integer    sl;
      always @* begin
        res_now  = 1'b0;
        made_now = 1'b0;
        for (sl = 0; sl < K; sl = sl + 1) begin
          res_now  = res_now || (red_last_i[sl] && red_hdr_i[sl*FW + `TC_HDR_TREE_LSB +: 4] == gt);
          made_now = made_now || (made_i[sl] && made_tree_i[sl*4 +: 4] == gt);
        end
      end
      wire       sent     = made_now && !table_i[gt*`TC_ROW_W + `TC_ROW_ROOT_LSB]; // goes up
      wire [Lg:0] since   = {1'b0, since_q[gt]} + {{Lg{1'b0}}, made_now};
      wire [7:0]  got_cred = {2'd0, got} << Lg; // the results they pay for (modulo 256: the count stays within 0..RedRids)
      wire [1:0] due     = due_q[gt] - {1'b0, gen_credit && cred_tree == gt};
      wire       has_children = table_i[gt*`TC_ROW_W + `TC_ROW_DIRSUM_LSB +: `TC_ROW_DIRSUM_W] != 4'd0;
      always @(posedge clk_i or negedge rst_ni)
        if (!rst_ni) begin
          done_q[gt]    <= 16'd0;
          since_q[gt]   <= {Lg{1'b0}};
          due_q[gt]     <= 2'd0;
          up_cred_q[gt] <= RedRids[7:0];
        end else begin
          done_q[gt]    <= done_q[gt] + {15'd0, res_now};
          since_q[gt]   <= since[Lg-1:0];
          due_q[gt]     <= (since[Lg] && has_children && due != 2'd3) ? due + 2'd1 : due;
          up_cred_q[gt] <= up_cred_q[gt] + got_cred - {7'd0, sent};
        end
      always @(posedge clk_i)
        if (gen_report)
          gen_data_q[gt*16 +: 16] <= done_q[gt];
      assign up_ok_o[gt] = up_cred_q[gt] != 8'd0;
    end
    // the error queue: entry k takes the new error if it is the first free one
    for (gk = 0; gk < Depth; gk = gk + 1) begin : g_q
      wire [2:0] slot = pop ? n_q - 3'd1 : n_q;
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
`ifdef FORMAL_TC_CREDIT_BLOCK // defined by sim/formal.sh when this module is the top
  // ---- formal proof (make formal, sim/formal.sh): with the Reducer sending a result up
  // only when up_ok_o allows it, and the parent returning one credit packet per
  // RedRids / 2 results it got, no more than RedRids results of a tree are ever in flight
  // to the parent, and the counter of credits is exact. One tree, picked by the
  // solver, stands for all. Also: the error queue stays within its depth. ----
  reg f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;
  (* anyconst *) reg [3:0] f_tree;
  reg [2:0] f_cred;  // credit packets for f_tree this cycle
  reg [7:0] f_out;   // results of f_tree sent up and not yet paid for by a credit
  reg       f_made; // a result of f_tree enters its slice's result buffer
  integer f_k;
  always @* begin
    f_made = 1'b0;
    for (f_k = 0; f_k < K; f_k = f_k + 1)
      f_made = f_made || (made_i[f_k] && made_tree_i[f_k*4 +: 4] == f_tree);
  end
  wire      f_up = f_made && !table_i[f_tree*`TC_ROW_W + `TC_ROW_ROOT_LSB];
  always @* begin
    f_cred = 3'd0;
    for (f_k = 0; f_k < 2 * NP; f_k = f_k + 1)
      if (route_i[f_k] && route_err_i[f_k*4 +: 4] == 4'd0 && head_i[f_k*FW + `TC_HDR_TYPE_LSB +: 4] == TypeCredit &&
          head_i[f_k*FW + `TC_HDR_TREE_LSB +: 4] == f_tree)
        f_cred = f_cred + 3'd1;
    assume(rst_ni == !f_init);
    assume(!f_up || up_ok_o[f_tree]);
    assume(f_cred == 3'd0 || (f_cred == 3'd1 && f_out >= (8'd1 << Lg)));
  end
  always @(posedge clk_i)
    if (!rst_ni) f_out <= 8'd0;
    else f_out <= f_out + {7'd0, f_up} - (f_cred != 3'd0 ? 8'd1 << Lg : 8'd0);
  always @* if (rst_ni) begin
    assert(f_out <= RedRids[7:0]);
    assert(up_cred_q[f_tree] == RedRids[7:0] - f_out);
    assert(n_q <= Depth[2:0]);
  end
  // Bounded waiting: while a duty (f_req, picked by the solver) stays due, no other
  // duty (f_oth) is written twice, so it waits for at most NReq - 1 = 19 packets;
  // f_wait counts them. The helpers are the inductive form: each packet written for
  // another moves the pointer past that duty, towards f_req (f_dist: how far the
  // pointer is from f_req, going round).
  (* anyconst *) reg [4:0] f_req, f_oth;
  reg  [4:0] f_wait;
  reg  [1:0] f_twice;
  function automatic [4:0] f_to_req(input [4:0] x); // from x round to f_req
    f_to_req = f_req >= x ? f_req - x : f_req + NReq[4:0] - x;
  endfunction
  wire [4:0] f_dist = f_to_req(rr_ptr);
  wire       f_waits = req[f_req] && !(gnt && gnt_idx == f_req);
  always @* assume(f_req < NReq[4:0] && f_oth < NReq[4:0]);
  always @(posedge clk_i)
    if (!rst_ni || !f_waits) begin
      f_wait  <= 5'd0;
      f_twice <= 2'd0;
    end else if (gnt) begin
      f_wait  <= f_wait + 5'd1;
      f_twice <= f_twice + {1'b0, gnt_idx == f_oth && f_twice != 2'd3};
    end
  always @* if (rst_ni) begin
    assert(f_twice <= 2'd1);
    assert(f_wait <= NReq[4:0] - 5'd1);
    assert(rr_ptr < NReq[4:0]);
    assert(!req[f_req] || {1'b0, f_wait} + {1'b0, f_dist} <= NReq[5:0] - 6'd1); // helper
    assert(!req[f_req] || f_twice == 2'd0 || f_to_req(f_oth) > f_dist);      // helper
  end
`endif
endmodule
