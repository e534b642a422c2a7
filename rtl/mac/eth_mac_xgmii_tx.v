`default_nettype none
// eth_mac_xgmii_tx: Ethernet MAC transmitter, 64-bit XGMII side (10 Gbit/s at 156.25 MHz).
//
// Takes whole frames on a 64-bit AXI4-Stream (destination MAC first, no FCS; tkeep
// contiguous from lane 0, all ones but on the last beat) and puts them on XGMII (IEEE
// 802.3 clause 46, one 64-bit word = two 4-lane columns per cycle, lane 0 first): /S/ and
// six preamble bytes and the SFD, the frame, zero padding up to 60 bytes, the FCS (CRC-32,
// least significant byte first), /T/, idles. Frames start on lane 0 or lane 4. The
// inter-frame gap (from /T/ included to /S/ excluded) is max(cfg_ifg, 12) bytes on
// average: the deficit idle count (clause 46.3.1.4) shortens a gap by up to 3 bytes so
// that the next /S/ lands on lane 0 or 4, and lengthens a later one to repay, keeping the
// deficit in 0..3; so over any run of back-to-back frames the gaps add up to
// n * max(cfg_ifg, 12) minus 0..3 bytes, and each single gap is 9..15 bytes (for 12).
// When no frame waits at the end of a gap the deficit is cleared (the extra idles repay it).
//
// Errors: an underflow (s_axis_tvalid low before tlast, once the frame has started)
// puts one column pair of /E/ on the wire in place of the missing beat, then /T/; the
// rest of the user frame is taken and dropped up to its tlast. tuser = 1 on the last beat
// replaces the FCS bytes with /E/ (so no receiver can take the frame as good). A short
// frame with a good FCS never leaves.
// Faults (clause 46.3.4): while fault_local is high no frame starts and the idle words
// carry Remote Fault sequence ordered sets (0x9C 0x00 0x00 0x02 in each column); while
// fault_remote is high no frame starts and the line stays idle. A frame already started
// when a fault begins is finished. Frames offered during a fault are taken and dropped
// whole (stat_tx_fault_drop).
//
// Ports: clk, rst (sync, active high); s_axis_t{data[63:0],keep[7:0],valid,ready,last,
// user}; xgmii_txd[63:0], xgmii_txc[7:0] (registered; txc bit k = lane k is a control
// character); cfg_ifg[7:0] (average gap bytes, values below 12 mean 12); fault_local,
// fault_remote (levels, this clock; from eth_mac_xgmii_rx); status strobes, one cycle,
// registered: stat_tx_frame with stat_tx_bytes[15:0] (frame bytes on the wire, padding
// and FCS included, preamble excluded) and stat_tx_abort (tuser) in the cycle after the
// word with the FCS's first byte leaves the core's register; stat_tx_underflow in the
// cycle after the /E/ word; stat_tx_fault_drop the cycle after the dropped frame's tlast.
// Reset: synchronous; a frame on the wire when rst rises is cut with an /E/ word, then
// idles.
// Parameters: none.
// Latency: the /S/ word is on xgmii_txd in the cycle after the first one with
// s_axis_tvalid = 1 and s_axis_tready = 1 (1 cycle); the first frame byte one cycle later
// (the first beat is taken with the /S/ word, the next each cycle after).
module eth_mac_xgmii_tx (
    input  wire        clk,
    input  wire        rst,

    input  wire [63:0] s_axis_tdata,
    input  wire [7:0]  s_axis_tkeep,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    output wire [63:0] xgmii_txd,
    output wire [7:0]  xgmii_txc,

    input  wire [7:0]  cfg_ifg,
    input  wire        fault_local,
    input  wire        fault_remote,

    output wire        stat_tx_frame,
    output wire [15:0] stat_tx_bytes,
    output wire        stat_tx_underflow,
    output wire        stat_tx_abort,
    output wire        stat_tx_fault_drop
);
    localparam [7:0] CH_IDLE = 8'h07, CH_START = 8'hFB, CH_TERM = 8'hFD, CH_ERROR = 8'hFE,
                     CH_SEQ = 8'h9C;
    localparam [63:0] WORD_IDLE = {8{CH_IDLE}};
    localparam [63:0] WORD_ERROR = {8{CH_ERROR}};
    localparam [63:0] WORD_PREAMBLE = {8'hD5, {6{8'h55}}, CH_START};
    localparam [31:0] COL_RF = {8'h02, 8'h00, 8'h00, CH_SEQ};  // Remote Fault sequence
    localparam [7:0]  MIN_GAP = 8'd12;

    localparam [1:0] STATE_IDLE = 2'd0,  // between frames: gap words, then wait for a frame
                     STATE_DATA = 2'd1,  // the stage's beat goes out (the last with its FCS)
                     STATE_TAIL = 2'd2;  // the word after the last: rest of the FCS, /T/

    reg  [1:0]  state_reg, state_next;

    // stage: the beat going out next, padded (data zero beyond the user's tkeep)
    reg  [63:0] stage_data_reg;
    reg  [7:0]  stage_keep_reg;
    reg         stage_last_reg;   // the frame's last (padded) beat
    reg         stage_err_reg;    // an underflow: the beat never came
    reg         abort_reg;        // tuser of the user's last beat
    reg         pad_reg;          // the user's tlast is taken, padding beats follow
    reg  [3:0]  beat_cnt_reg;     // beats loaded into the stage so far (saturates at 8)
    reg  [15:0] len_reg;          // bytes loaded so far, padding included
    reg  [31:0] crc_reg;          // CRC over the bytes loaded so far
    reg         drain_reg;        // dropping the rest of a user frame
    reg         drain_fault_reg;  // ... because of a fault (counted at its tlast)

    reg  [5:0]  gap_cnt_reg;      // idle words still to send before the next /S/ word
    reg  [1:0]  dic_reg;          // deficit idle count: gap bytes owed (0..3)
    reg         offset_reg;       // this frame started on lane 4
    reg         next_offset_reg;  // the next frame starts on lane 4
    reg  [31:0] hold_d_reg;       // upper half of the last word made, for lane-4 frames
    reg  [3:0]  hold_c_reg;
    reg  [63:0] tail_d_reg;       // the word after the last data word
    reg  [7:0]  tail_c_reg;
    reg  [63:0] xgmii_txd_reg;
    reg  [7:0]  xgmii_txc_reg;
    reg         stat_frame_reg, stat_abort_reg, stat_underflow_reg, stat_fault_drop_reg;
    reg  [15:0] stat_bytes_reg;

    assign xgmii_txd = xgmii_txd_reg;
    assign xgmii_txc = xgmii_txc_reg;
    assign stat_tx_frame = stat_frame_reg;
    assign stat_tx_bytes = stat_bytes_reg;
    assign stat_tx_abort = stat_abort_reg;
    assign stat_tx_underflow = stat_underflow_reg;
    assign stat_tx_fault_drop = stat_fault_drop_reg;

    wire fault = fault_local || fault_remote;

    // ---- the input side: which beat enters the stage this cycle ----
    // IDLE after the gap: a frame's first beat (or, in a fault, a beat to drop)
    wire idle_ready = (state_reg == STATE_IDLE) && (gap_cnt_reg == 6'd0) && !drain_reg;
    // DATA: the stage's beat leaves; the next one enters unless it was the last
    wire stage_adv = (state_reg == STATE_DATA) && !stage_last_reg && !stage_err_reg;
    wire user_take = stage_adv && !pad_reg;
    assign s_axis_tready = idle_ready || user_take || drain_reg;

    wire start = idle_ready && s_axis_tvalid && !fault;  // the /S/ word goes out now
    wire drop_take = (idle_ready && fault) || drain_reg;  // a beat taken to be dropped
    wire underflow = user_take && !s_axis_tvalid;

    // the beat entering the stage (user or padding): data, keep after padding, last
    wire [3:0]  in_idx = start ? 4'd0 : beat_cnt_reg;  // its index in the frame
    wire        in_padding = !start && pad_reg;        // a padding beat
    reg  [63:0] in_data;
    reg  [7:0]  in_keep;
    reg         in_last, in_pad;
    integer     i;
    always @* begin
        in_data = 64'd0;
        for (i = 0; i < 8; i = i + 1)
            if (s_axis_tkeep[i] && !in_padding) in_data[8 * i +: 8] = s_axis_tdata[8 * i +: 8];
        // a frame's bytes reach 60 in its eighth beat (index 7, lanes 0-3)
        if (in_padding || s_axis_tlast) begin
            if (in_idx < 4'd7) begin
                in_keep = 8'hFF;
                in_last = 1'b0;
                in_pad = 1'b1;
            end else begin
                in_keep = (in_idx == 4'd7 ? 8'h0F : 8'h00) | (in_padding ? 8'h00 : s_axis_tkeep);
                in_last = 1'b1;
                in_pad = 1'b0;
            end
        end else begin
            in_keep = 8'hFF;
            in_last = 1'b0;
            in_pad = 1'b0;
        end
    end

    function [3:0] keep_bytes(input [7:0] keep);  // bytes of a contiguous tkeep
        integer k;
        begin
            keep_bytes = 4'd0;
            for (k = 0; k < 8; k = k + 1)
                if (keep[k]) keep_bytes = k[3:0] + 4'd1;
        end
    endfunction

    wire [31:0] crc_next;
    crc32 #(.DATA_W(64)) u_crc (
        .crc_in(start ? 32'hFFFFFFFF : crc_reg), .data(in_data), .keep(in_keep),
        .crc_out(crc_next)
    );

    // ---- the output side: the word this cycle, in the frame's own lane order ----
    // the last data word and the one after it as 16 lanes: data, FCS (or /E/ for an
    // abort), /T/, idles
    wire [3:0]   last_n = keep_bytes(stage_keep_reg);  // 0..8
    wire [127:0] fcs_lanes = {96'd0, ~crc_reg} << {last_n, 3'b000};
    wire [127:0] stage_lanes = {64'd0, stage_data_reg};
    wire [4:0]   fcs_end = {1'b0, last_n} + 5'd4;  // the lane of /T/
    reg  [127:0] last_d;
    reg  [15:0]  last_c;
    reg  [4:0]   lane;
    always @* begin
        for (lane = 5'd0; lane < 5'd16; lane = lane + 5'd1) begin
            if (lane < {1'b0, last_n}) begin
                last_d[8 * lane +: 8] = stage_lanes[8 * lane +: 8];
                last_c[lane[3:0]] = 1'b0;
            end else if (lane < fcs_end) begin
                last_d[8 * lane +: 8] = abort_reg ? CH_ERROR : fcs_lanes[8 * lane +: 8];
                last_c[lane[3:0]] = abort_reg;
            end else if (lane == fcs_end) begin
                last_d[8 * lane +: 8] = CH_TERM;
                last_c[lane[3:0]] = 1'b1;
            end else begin
                last_d[8 * lane +: 8] = CH_IDLE;
                last_c[lane[3:0]] = 1'b1;
            end
        end
    end

    wire frame_end = (state_reg == STATE_DATA) && (stage_last_reg || stage_err_reg);
    // where /T/ falls: lane term_lane of this word, or of the next one (spill)
    wire [3:0] term_pos = stage_err_reg ? 4'd8 : fcs_end[3:0];
    wire       spill = term_pos[3];
    wire [2:0] term_lane = term_pos[2:0];

    // the gap after this frame, with the deficit idle count: the next /S/ must land on
    // lane 0 or 4 (gap + /T/'s position + this frame's offset a multiple of 4)
    wire [7:0] gap_len = (cfg_ifg < MIN_GAP) ? MIN_GAP : cfg_ifg;
    wire [1:0] gap_rem = gap_len[1:0] + term_lane[1:0];  // bytes past the last boundary
    wire       gap_short = ({1'b0, dic_reg} + {1'b0, gap_rem}) <= 3'd3;
    wire [8:0] gap = gap_short ? {1'b0, gap_len} - {7'd0, gap_rem}
                               : {1'b0, gap_len} + 9'd4 - {7'd0, gap_rem};
    // the deficit grows by gap_rem when the gap is shortened, else shrinks by 4 - gap_rem:
    // the same sum modulo 4
    wire [1:0] dic_after = dic_reg + gap_rem;
    // (its bits 1:0 are 0 by the choice of gap)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [8:0] gap_end = gap + {6'd0, term_lane} + {6'd0, offset_reg, 2'b00};
    /* verilator lint_on UNUSEDSIGNAL */
    // gap_end = 8 * (words from the /T/ word to the /S/ word) + (4 if the /S/ is on lane 4)

    reg  [63:0] gen_d;
    reg  [7:0]  gen_c;
    always @* begin
        if (fault_local) begin
            gen_d = {COL_RF, COL_RF};
            gen_c = 8'h11;
        end else begin
            gen_d = WORD_IDLE;
            gen_c = 8'hFF;
        end
        case (state_reg)
            STATE_IDLE:
                if (start) begin
                    gen_d = WORD_PREAMBLE;
                    gen_c = 8'h01;
                end
            STATE_DATA:
                if (stage_err_reg) begin
                    gen_d = WORD_ERROR;
                    gen_c = 8'hFF;
                end else if (stage_last_reg) begin
                    gen_d = last_d[63:0];
                    gen_c = last_c[7:0];
                end else begin
                    gen_d = stage_data_reg;
                    gen_c = 8'h00;
                end
            STATE_TAIL: begin
                gen_d = tail_d_reg;
                gen_c = tail_c_reg;
            end
            default: ;
        endcase
    end

    // lane-4 frames go out half a word late: the word's lower half after the last
    // word's upper half
    wire lane4 = start ? next_offset_reg : offset_reg;

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_IDLE:
                if (start) state_next = STATE_DATA;
            STATE_DATA:
                if (frame_end) state_next = spill ? STATE_TAIL : STATE_IDLE;
            STATE_TAIL:
                state_next = STATE_IDLE;
            default:
                state_next = STATE_IDLE;
        endcase
    end

    always @(posedge clk) begin
        stat_frame_reg <= 1'b0;
        stat_abort_reg <= 1'b0;
        stat_underflow_reg <= 1'b0;
        stat_fault_drop_reg <= 1'b0;

        if (rst) begin
            state_reg <= STATE_IDLE;
            pad_reg <= 1'b0;
            drain_reg <= 1'b0;
            drain_fault_reg <= 1'b0;
            gap_cnt_reg <= 6'd1;
            dic_reg <= 2'd0;
            offset_reg <= 1'b0;
            next_offset_reg <= 1'b0;
            hold_d_reg <= WORD_IDLE[31:0];
            hold_c_reg <= 4'hF;
            // a frame cut by reset ends with an /E/ word
            xgmii_txd_reg <= (state_reg == STATE_IDLE) ? WORD_IDLE : WORD_ERROR;
            xgmii_txc_reg <= 8'hFF;
        end else begin
            state_reg <= state_next;
            if (lane4) begin
                xgmii_txd_reg <= {gen_d[31:0], hold_d_reg};
                xgmii_txc_reg <= {gen_c[3:0], hold_c_reg};
            end else begin
                xgmii_txd_reg <= gen_d;
                xgmii_txc_reg <= gen_c;
            end
            hold_d_reg <= gen_d[63:32];
            hold_c_reg <= gen_c[7:4];

            // the stage
            if (start || stage_adv) begin
                stage_data_reg <= in_data;
                stage_keep_reg <= in_keep;
                stage_last_reg <= in_last;
                stage_err_reg <= underflow;
                pad_reg <= in_pad && !underflow;
                crc_reg <= crc_next;
                beat_cnt_reg <= in_idx + {3'd0, in_idx != 4'd8};
                len_reg <= (start ? 16'd0 : len_reg) + {12'd0, keep_bytes(in_keep)};
                if (start || (user_take && s_axis_tlast)) abort_reg <= s_axis_tlast && s_axis_tuser;
                if (start) offset_reg <= next_offset_reg;
            end
            if (underflow) begin
                drain_reg <= 1'b1;
                drain_fault_reg <= 1'b0;
            end

            // beats dropped: the rest of an underflowed frame, or frames during a fault
            if (drop_take && s_axis_tvalid) begin
                if (s_axis_tlast) begin
                    drain_reg <= 1'b0;
                    stat_fault_drop_reg <= drain_reg ? drain_fault_reg : 1'b1;
                end else begin
                    drain_reg <= 1'b1;
                    if (!drain_reg) drain_fault_reg <= 1'b1;
                end
            end

            if (frame_end) begin
                tail_d_reg <= stage_err_reg ? {{7{CH_IDLE}}, CH_TERM} : last_d[127:64];
                tail_c_reg <= stage_err_reg ? 8'hFF : last_c[15:8];
                gap_cnt_reg <= gap_end[8:3] - 6'd1;
                next_offset_reg <= gap_end[2];
                dic_reg <= dic_after;
                stat_frame_reg <= stage_last_reg && !abort_reg;
                stat_abort_reg <= stage_last_reg && abort_reg;
                stat_underflow_reg <= stage_err_reg;
                stat_bytes_reg <= len_reg + 16'd4;
            end else if (state_reg == STATE_IDLE) begin
                if (gap_cnt_reg != 6'd0) gap_cnt_reg <= gap_cnt_reg - 6'd1;
                else if (!start) dic_reg <= 2'd0;  // idles beyond the gap repay the deficit
            end
        end
    end
endmodule
`default_nettype wire
