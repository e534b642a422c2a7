`default_nettype none
// tx_prepend: emits a frame made of a HDR_BYTES-byte header followed by a payload stream,
// with no buffering: the header's first beat leaves the cycle after `start`, the payload
// is realigned on the fly (the header need not be a whole number of beats) and passed
// through combinationally (tready/tvalid of the payload follow the output).
//
// Used by the zero-wait UDP/IP transmitter, ICMP echo, ICMP unreachable and the raw
// transmitter.
//
// Parameters (tested values)
//   DATA_W     8 or 64; KEEP_W = DATA_W/8
//   HDR_BYTES  header length in bytes, 14 to 70 (tested 14, 34, 38, 42 and 70)
//   CHECK_LEN  1: the payload must carry exactly `start_len` bytes (see below);
//              0: the payload ends at its tlast (start_len ignored)
//   LEN_LATE   0, or 1 with DATA_W 8 and CHECK_LEN 1: `start_len` is read from the cycle
//              after `start` to the frame's end, not at `start`: the user holds it there
//              (so it may come from a register loaded at `start`), and the payload's byte
//              count is compared with it (an up counter cleared at the start, instead of a
//              down counter loaded with it)
//
// Interfaces
//   start, start_drop, start_len   begin a frame (or, with start_drop, consume one payload
//                                  and emit nothing). Assert only when can_start = 1.
//   can_start                      1 when idle (a register: the cycle after a frame's last
//                                  beat is taken at the earliest)
//   hdr[HDR_BYTES*8-1:0]           header, byte 0 (first on the wire) in hdr[7:0]; read
//                                  while the header beats are emitted: the user holds it
//                                  from the cycle after `start` while hdr_free = 0
//   hdr_free                       1 when `hdr` is not needed in this cycle or later for the
//                                  current frame (a register, so a user may load its
//                                  header registers with it as enable)
//   hdr_free_nx                    the value hdr_free takes in the next cycle
//   s_axis_*                       payload (AXI4-Stream, tuser on the last beat = bad)
//   m_axis_*                       frame (AXI4-Stream, tuser on the last beat = aborted)
//   ev_sent, ev_abort, ev_long     one-cycle strobes: a frame ended good; a frame ended with
//                                  tuser (payload shorter than start_len, or tuser on its
//                                  last beat); the payload was longer than start_len
//
// Length rules (CHECK_LEN=1): a payload whose tlast comes before start_len bytes aborts the
// frame at that point (tuser=1 on the output's last beat); a longer payload is cut at
// start_len bytes (the frame ends there, good) and the rest of it is consumed and dropped.
//
// Latency: first header beat one cycle after `start`; payload beats combinational
// (0 cycles) except the last output beat, which comes one cycle after the last payload
// beat when the realignment leaves a remainder. Back to back, a frame's first beat comes
// two cycles after the previous frame's last (one idle cycle: can_start is registered).
module tx_prepend #(
    parameter DATA_W    = 8,
    parameter KEEP_W    = DATA_W / 8,
    parameter HDR_BYTES = 42,
    parameter CHECK_LEN = 1,
    parameter LEN_LATE  = 0
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire                   start,
    input  wire                   start_drop,
    input  wire [15:0]            start_len,
    output wire                   can_start,
    output wire                   hdr_free,
    output wire                   hdr_free_nx,
    input  wire [HDR_BYTES*8-1:0] hdr,

    input  wire [DATA_W-1:0]      s_axis_tdata,
    input  wire [KEEP_W-1:0]      s_axis_tkeep,
    input  wire                   s_axis_tvalid,
    output reg                    s_axis_tready,
    input  wire                   s_axis_tlast,
    input  wire                   s_axis_tuser,

    output reg  [DATA_W-1:0]      m_axis_tdata,
    output reg  [KEEP_W-1:0]      m_axis_tkeep,
    output reg                    m_axis_tvalid,
    input  wire                   m_axis_tready,
    output reg                    m_axis_tlast,
    output reg                    m_axis_tuser,

    output reg                    ev_sent,
    output reg                    ev_abort,
    output reg                    ev_long
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            tx_prepend_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            tx_prepend_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (HDR_BYTES < 14 || HDR_BYTES > 70) begin : g_check_hdr_bytes
            tx_prepend_HDR_BYTES_must_be_14_to_70 u_error ();
        end
        if (CHECK_LEN != 0 && CHECK_LEN != 1) begin : g_check_check_len
            tx_prepend_CHECK_LEN_must_be_0_or_1 u_error ();
        end
        if (LEN_LATE != 0 && !(LEN_LATE == 1 && DATA_W == 8 && CHECK_LEN == 1)) begin : g_check_len_late
            tx_prepend_LEN_LATE_must_be_0_or_1_at_8_bits_with_CHECK_LEN u_error ();
        end
    endgenerate

    localparam OFF = HDR_BYTES % KEEP_W;  // header bytes sharing a beat with the payload
    localparam HB  = HDR_BYTES / KEEP_W;  // whole header beats
    localparam SH  = (KEEP_W - OFF) * 8;  // bit offset of the carried bytes
    localparam HPW = (HB + 1) * DATA_W;
    localparam CW  = $clog2(2 * KEEP_W + 1);  // width of byte counts within a beat
    // sized copies of the integer parameters (all small, so the truncation is exact)
    /* verilator lint_off WIDTH */
    localparam [CW-1:0] KWC  = KEEP_W;
    localparam [CW-1:0] OFFC = OFF;
    localparam [15:0]   KW16 = KEEP_W;
    // the length compares are with the small constants KEEP_W, 2*KEEP_W, 3*KEEP_W
    localparam LB = $clog2(3 * KEEP_W + 2);  // bits that hold them
    localparam [LB-1:0] K1L = KEEP_W;
    localparam [LB-1:0] K2L = 2 * KEEP_W;
    localparam [LB-1:0] K3L = 3 * KEEP_W;
    localparam [7:0]    HBL  = HB - 1;
    /* verilator lint_on WIDTH */
    // the payload's length counted up (LEN_LATE) instead of down
    localparam COUNT_UP = (LEN_LATE != 0);
    // a zero-length payload is possible where the header fills whole beats: with a length
    // (CHECK_LEN) the last header beat then ends the frame; without one it waits for the
    // first payload beat, which ends the frame if it is empty
    localparam ZERO_LEN = (OFF == 0) && (CHECK_LEN != 0);
    localparam NO_LEN   = (OFF == 0) && (CHECK_LEN == 0);
    // at 8 bits with more than 8 header bytes, the last header byte is latched before it
    // goes out, so `hdr` is released one byte earlier when the frame may end on that byte
    localparam EARLY_FREE = (OFF == 0) && (KEEP_W == 1) && (HB > 8);

    localparam [2:0] STATE_IDLE  = 3'd0,  // waiting for a start
                     STATE_HDR   = 3'd1,  // header beats
                     STATE_PAY   = 3'd2,  // payload beats
                     STATE_FLUSH = 3'd3,  // the realigned payload's remainder beat
                     STATE_DROP  = 3'd4;  // the rest of the payload consumed, not sent
    reg  [2:0]        state_reg, state_next;

    reg  [15:0]       pay_left_reg;     // payload bytes still expected
    reg               pay_le1_reg;      // pay_left_reg <= KEEP_W: the expected payload ends
                                        // in this beat
    reg               pay_le2_reg;      // pay_left_reg <= 2*KEEP_W
    reg  [CW-1:0]     beat_bytes_reg;   // min(pay_left_reg, KEEP_W)
    reg               pay_empty_reg;    // the payload is empty (start_len == 0)
    reg  [15:0]       pay_count_reg;    // COUNT_UP: payload bytes taken + 2
    reg  [DATA_W-1:0] prev_data_reg;    // previous payload beat (or the header's tail)
    reg  [CW-1:0]     flush_bytes_reg;  // bytes of the remainder beat
    reg               flush_abort_reg;  // the remainder beat ends an aborted frame
    reg               flush_drop_reg;   // the rest of the payload is dropped after it
    reg               hdr_hold_reg, hdr_hold_next;  // `hdr` is needed (hdr_free = 0)

    // expected payload bytes in the beat (COUNT_UP: 1, as the length is checked a byte at a
    // time)
    wire [CW-1:0] beat_bytes = COUNT_UP ? {{(CW - 1) {1'b0}}, 1'b1} : beat_bytes_reg;

    /* verilator lint_off UNUSEDSIGNAL */
    wire [HPW-1:0]      hdr_pad  = {{(HPW - HDR_BYTES * 8) {1'b0}}, hdr};  // 8 bits: tail only
    /* verilator lint_on UNUSEDSIGNAL */
    wire [DATA_W-1:0]   hdr_data;           // the header beat on the output
    wire                last_hdr_beat;      // ... is the last one
    wire                pre_last_hdr_beat;  // ... is the last but one
    wire                len_load;           // start_len is read into the length registers
    wire [DATA_W-1:0]   hdr_tail = hdr_pad[HB*DATA_W+:DATA_W];
    // double-width windows: only the DATA_W bits at offset SH of each are used
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2*DATA_W-1:0] pay_window   = {s_axis_tdata, prev_data_reg};
    wire [2*DATA_W-1:0] flush_window = {{DATA_W{1'b0}}, prev_data_reg};
    wire [2*DATA_W-1:0] tail_shifted = {{DATA_W{1'b0}}, hdr_tail} << SH;
    /* verilator lint_on UNUSEDSIGNAL */

    reg  frame_end;  // the frame's last beat is taken this cycle
    reg  drop_rest;  // ... and the rest of its payload is to be dropped
    // a header beat is taken; one that does not end the frame
    wire hdr_take = (state_reg == STATE_HDR) && m_axis_tvalid && m_axis_tready;
    wire hdr_step = hdr_take && !frame_end;

    // Header beat selection. At 8 bits the header byte index is one-hot (hdr_sel_reg, one
    // flip-flop per header byte) and the byte after it is an AND-OR of the header bytes
    // (about two header bits per LUT4 and a shallow OR tree, smaller and faster than a
    // binary HDR_BYTES:1 multiplexer), registered as the byte before it is taken: the
    // output byte is `hdr`'s byte 0 in the first header cycle, then that register, so the
    // AND-OR tree is off the output path. The last header byte is thus latched before it
    // goes out, so that `hdr` may be released for the next frame while that byte is still
    // on the output (EARLY_FREE). Wider paths select whole beats by index.
    generate
        if (KEEP_W == 1) begin : g_onehot
            reg  [HB-1:0] hdr_sel_reg;        // one-hot: the header byte on the output
            reg  [7:0]    hdr_next_byte_reg;  // the byte after it (0 after the last one)
            reg  [7:0]    hdr_next_byte;
            integer f;
            always @* begin
                hdr_next_byte = 8'd0;
                for (f = 0; f < HB - 1; f = f + 1)
                    hdr_next_byte = hdr_next_byte | (hdr[(f + 1) * 8 +: 8] & {8{hdr_sel_reg[f]}});
            end
            // a header byte before the last is taken (the output is valid there, so only
            // its ready counts); the index stays on the last byte until the next frame
            wire hdr_advance = (state_reg == STATE_HDR) && m_axis_tready && !last_hdr_beat;
            always @(posedge clk) begin
                if (state_reg == STATE_IDLE) hdr_sel_reg <= {{(HB - 1) {1'b0}}, 1'b1};
                else if (hdr_advance) hdr_sel_reg <= {hdr_sel_reg[HB-2:0], 1'b0};
                if (state_reg == STATE_IDLE || (hdr_take && last_hdr_beat))
                    hdr_next_byte_reg <= 8'd0;
                else if (hdr_advance)
                    hdr_next_byte_reg <= hdr_next_byte;
            end
            assign hdr_data          = hdr_sel_reg[0] ? hdr[7:0] : hdr_next_byte_reg;
            assign last_hdr_beat     = hdr_sel_reg[HB-1];
            assign pre_last_hdr_beat = hdr_sel_reg[HB-2];
            // hdr_sel_reg[0]: idle (from its second cycle) or the first header byte on the
            // output; 0 in the payload, where the length registers count
            assign len_load          = COUNT_UP ? hdr_sel_reg[0] : (state_reg == STATE_IDLE);
        end else begin : g_index
            reg [7:0] hdr_beat_reg;  // index of the header beat on the output
            always @(posedge clk) begin
                if (state_reg == STATE_IDLE) hdr_beat_reg <= 8'd0;
                else if (hdr_step) hdr_beat_reg <= hdr_beat_reg + 8'd1;
            end
            assign hdr_data          = hdr_pad[hdr_beat_reg*DATA_W+:DATA_W];
            assign last_hdr_beat     = (hdr_beat_reg == HBL);
            assign pre_last_hdr_beat = (hdr_beat_reg + 8'd1 == HBL);
            assign len_load          = (state_reg == STATE_IDLE);
        end
    endgenerate

    // bytes present in the input beat
    reg [CW-1:0] in_bytes;
    integer i;
    always @* begin
        in_bytes = {CW{1'b0}};
        for (i = 0; i < KEEP_W; i = i + 1) in_bytes = in_bytes + {{(CW - 1) {1'b0}}, s_axis_tkeep[i]};
    end

    // v <= k for a small constant k: v's high bits are zero and its low LB bits are at most
    // k (a narrow compare: Yosys makes a 16-bit compare a carry chain)
    function at_most(input [15:0] v, input [LB-1:0] k);
        at_most = ~|v[15:LB] && (v[LB-1:0] <= k);
    endfunction

    function [KEEP_W-1:0] keep_of(input [CW-1:0] n);
        integer k;
        begin
            for (k = 0; k < KEEP_W; k = k + 1) keep_of[k] = (k < n);
        end
    endfunction

    // payload step (one input beat)
    wire       pay_short = (CHECK_LEN != 0) && s_axis_tlast && (!pay_le1_reg || in_bytes < beat_bytes);
    wire       pay_long  = (CHECK_LEN != 0) && pay_le1_reg && (!s_axis_tlast || in_bytes > beat_bytes);
    wire       pay_end   = ((CHECK_LEN != 0) && pay_le1_reg) || s_axis_tlast;
    wire [CW-1:0] pay_bytes = (CHECK_LEN == 0) ? (s_axis_tlast ? in_bytes : KWC)
                                              : (pay_short ? in_bytes : beat_bytes);
    wire [CW-1:0] pay_total = OFFC + pay_bytes;  // bytes of the output beat, carried included
    // a remainder beat is only possible when the header shares a beat with the payload
    wire       pay_flush = (OFF != 0) && pay_end && (pay_total > KWC);
    wire       pay_bad   = pay_short || (s_axis_tlast && s_axis_tuser);
    // the last header beat ends a zero-length frame (ZERO_LEN), or waits for the first
    // payload beat (NO_LEN), which ends the frame if it is empty
    wire       zero_len      = ZERO_LEN && pay_empty_reg && last_hdr_beat;
    wire       zero_len_long = !s_axis_tlast || (in_bytes != {CW{1'b0}});
    wire       no_len_last   = NO_LEN && last_hdr_beat;
    wire       no_len_end    = s_axis_tlast && (in_bytes == {CW{1'b0}});

    // low bits of pay_left_reg - KEEP_W (all that beat_bytes_reg needs when
    // pay_left_reg <= 2*KEEP_W)
    wire [CW-1:0] pay_left_m1 = pay_left_reg[CW-1:0] - KWC;

    always @* begin
        m_axis_tdata  = hdr_data;
        m_axis_tkeep  = {KEEP_W{1'b1}};
        m_axis_tvalid = 1'b0;
        m_axis_tlast  = 1'b0;
        m_axis_tuser  = 1'b0;
        s_axis_tready = 1'b0;
        frame_end     = 1'b0;
        drop_rest     = 1'b0;
        ev_sent       = 1'b0;
        ev_abort      = 1'b0;
        ev_long       = 1'b0;
        case (state_reg)
            STATE_HDR: begin
                if (zero_len) begin
                    m_axis_tvalid = s_axis_tvalid;
                    s_axis_tready = m_axis_tready;
                    m_axis_tlast  = 1'b1;
                    m_axis_tuser  = s_axis_tlast && s_axis_tuser;
                    if (s_axis_tvalid && m_axis_tready) begin
                        frame_end = 1'b1;
                        drop_rest = !s_axis_tlast;
                        ev_long   = zero_len_long;
                        ev_sent   = !m_axis_tuser;
                        ev_abort  = m_axis_tuser;
                    end
                end else if (no_len_last) begin
                    m_axis_tvalid = s_axis_tvalid;
                    if (no_len_end) begin
                        s_axis_tready = m_axis_tready;
                        m_axis_tlast  = 1'b1;
                        m_axis_tuser  = s_axis_tuser;
                        if (s_axis_tvalid && m_axis_tready) begin
                            frame_end = 1'b1;
                            ev_sent   = !s_axis_tuser;
                            ev_abort  = s_axis_tuser;
                        end
                    end
                end else begin
                    m_axis_tvalid = 1'b1;
                end
            end
            STATE_PAY: begin
                // at 8 bits hdr_data is 0 here (the one-hot select has shifted out and the
                // next-byte register is cleared): the payload byte is ORed onto it
                m_axis_tdata  = (KEEP_W == 1) ? (hdr_data | s_axis_tdata) : pay_window[SH+:DATA_W];
                m_axis_tvalid = s_axis_tvalid;
                s_axis_tready = m_axis_tready;
                if (pay_end && !pay_flush) begin
                    m_axis_tlast = 1'b1;
                    m_axis_tuser = pay_bad;
                    // an aborted frame's last beat keeps at least one byte
                    m_axis_tkeep = keep_of((pay_total == {CW{1'b0}} && pay_bad) ?
                                           {{(CW - 1) {1'b0}}, 1'b1} : pay_total);
                end
                if (s_axis_tvalid && m_axis_tready) begin
                    ev_long = pay_long;
                    if (pay_end && !pay_flush) begin
                        frame_end = 1'b1;
                        drop_rest = !s_axis_tlast;
                        ev_sent   = !pay_bad;
                        ev_abort  = pay_bad;
                    end
                end
            end
            STATE_FLUSH: begin
                m_axis_tdata  = flush_window[SH+:DATA_W];
                m_axis_tvalid = 1'b1;
                m_axis_tlast  = 1'b1;
                m_axis_tuser  = flush_abort_reg;
                m_axis_tkeep  = keep_of(flush_bytes_reg);
                if (m_axis_tready) begin
                    frame_end = 1'b1;
                    drop_rest = flush_drop_reg;
                    ev_sent   = !flush_abort_reg;
                    ev_abort  = flush_abort_reg;
                end
            end
            STATE_DROP: begin
                s_axis_tready = 1'b1;
            end
            default: ;
        endcase
    end

    // a payload beat is taken
    wire pay_take = (state_reg == STATE_PAY) && s_axis_tvalid && m_axis_tready;

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_HDR: begin
                if (frame_end) state_next = drop_rest ? STATE_DROP : STATE_IDLE;
                else if (hdr_step && last_hdr_beat) state_next = STATE_PAY;
            end
            STATE_PAY: begin
                if (pay_take && pay_end)
                    state_next = pay_flush ? STATE_FLUSH : (drop_rest ? STATE_DROP : STATE_IDLE);
            end
            STATE_FLUSH: if (m_axis_tready) state_next = flush_drop_reg ? STATE_DROP : STATE_IDLE;
            STATE_DROP:  if (s_axis_tvalid && s_axis_tlast) state_next = STATE_IDLE;
            default: ;
        endcase
        if (start) state_next = start_drop ? STATE_DROP : STATE_HDR;  // only when can_start
    end

    // a frame starts when the previous one has ended (one idle cycle between back-to-back
    // frames, hidden on the wire by the MAC's inter-frame gap), from a register only
    assign can_start = (state_reg == STATE_IDLE);

    // `hdr` is held from a start (not a drop) and released with the last header beat, or
    // (EARLY_FREE) with the last but one when the frame may end on the latched last byte.
    // Before the last header beat the output is always valid, and with EARLY_FREE a frame
    // whose last beat waits for the payload has released `hdr` already: so the release
    // needs no valid at 8 bits
    wire hdr_release = (state_reg == STATE_HDR) && m_axis_tready &&
                       ((pre_last_hdr_beat && EARLY_FREE && (CHECK_LEN == 0 || pay_empty_reg)) ||
                        (last_hdr_beat && (EARLY_FREE || m_axis_tvalid)));
    always @* begin
        hdr_hold_next = hdr_hold_reg && !hdr_release;
        if (start) hdr_hold_next = !start_drop;
        if (rst) hdr_hold_next = 1'b0;
    end
    assign hdr_free    = !hdr_hold_reg;
    assign hdr_free_nx = !hdr_hold_next;

    wire start_le1 = at_most(start_len, K1L);
    wire start_le2 = at_most(start_len, K2L);

    always @(posedge clk) begin
        state_reg    <= state_next;
        hdr_hold_reg <= hdr_hold_next;
        if (hdr_step && last_hdr_beat) prev_data_reg <= tail_shifted[DATA_W-1:0];
        if (pay_take) begin
            prev_data_reg <= s_axis_tdata;
            if (COUNT_UP) begin
                // the next byte is the last expected: bytes taken + 1 == start_len
                pay_count_reg <= pay_count_reg + 16'd1;
                pay_le1_reg   <= pay_le1_reg || (pay_count_reg == start_len);
            end else begin
                pay_left_reg   <= pay_left_reg - KW16;  // read only while !pay_le1_reg
                pay_le1_reg    <= pay_le1_reg || pay_le2_reg;
                pay_le2_reg    <= pay_le2_reg || at_most(pay_left_reg, K3L);
                beat_bytes_reg <= pay_le1_reg ? {CW{1'b0}} : pay_le2_reg ? pay_left_m1 : KWC;
            end
            if (pay_end && pay_flush) begin
                flush_bytes_reg <= pay_total - KWC;
                flush_abort_reg <= pay_bad;
                flush_drop_reg  <= !s_axis_tlast;
            end
        end
        if (len_load) begin
            pay_count_reg  <= 16'd2;
            pay_left_reg   <= start_len;
            pay_le1_reg    <= start_le1;
            pay_le2_reg    <= start_le2;
            beat_bytes_reg <= start_le1 ? start_len[CW-1:0] : KWC;
            pay_empty_reg  <= (start_len == 16'd0);
        end
        if (rst) state_reg <= STATE_IDLE;
    end
endmodule
`default_nettype wire
