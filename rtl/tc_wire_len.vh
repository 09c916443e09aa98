// The data flits a packet carries on a wire: LEN, but for an FSUM contribution of IEEE
// values (VALS), whose LEN counts its binned elements' flits, two an element, and whose
// values fill 2 (binary64) or 4 (binary32) lanes a flit. Included in the modules that
// frame packets; the twin of tc_wire_len() in cmodel/format.h.
function automatic [2:0] tc_wire_len(input [`TC_FLIT_W-1:0] h);
  reg [2:0] len, nel;
  begin
    len = h[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W];
    nel = {1'b0, len[2:1]};
    if (!h[`TC_HDR_VALS_LSB] || h[`TC_HDR_OP_LSB +: `TC_HDR_OP_W] != `TC_OP_FSUM)
      tc_wire_len = len;
    else if (h[`TC_HDR_LANE_LSB +: `TC_HDR_LANE_W] == `TC_LANE_32)
      tc_wire_len = {2'd0, nel != 3'd0};
    else
      tc_wire_len = (nel + 3'd1) >> 1;
  end
endfunction
