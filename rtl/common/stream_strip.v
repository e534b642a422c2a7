`default_nettype none
// stream_strip: per-packet header strip, length cut and realignment of an AXI4-Stream.
//
// For every input packet a command says how many leading bytes to drop (cmd_skip), how
// many bytes to keep after them (cmd_len; all ones = to the end of the packet), whether
// to drop the whole packet (cmd_drop) and a route tag (cmd_route) that travels with the
// output beats. The kept bytes come out realigned to lane 0; bytes after skip+len
// (Ethernet padding) are consumed and discarded. The output packet's last beat carries
//   tuser = input tuser | truncated (packet ended before skip+len) | sts_bad (USE_STS),
// and m_axis_ttrunc = truncated alone (for a truncation counter).
// A packet whose kept part is empty comes out as one beat with tkeep = 0, tlast = 1.
//
// Interfaces:
//   cmd_*   : valid/ready; the command must stay stable from cmd_valid until cmd_ready,
//             which is pulsed when the packet's header handshake completes (at once for
//             a dropped packet), so the producer's command register can hold the header
//             fields the consumer presents meanwhile, and the next command can be made
//             ready while this packet's payload flows.
//   sts_*   : (USE_STS=1) valid/ready, one per packet, popped with the command: a
//             late error (checksum) known only after the packet's end.
//   s_axis_*: input packets (one command per packet, in order).
//   m_hdr_valid/m_hdr_ready: header handshake for kept packets; it completes before the
//             first payload beat is offered (header fields are read from cmd_*).
//   m_axis_*: output payload, m_axis_troute = route of the packet the beat belongs to;
//             m_axis_tvalid_oh[r] = m_axis_tvalid && (m_axis_troute == r), kept in its
//             own flip-flops, so a consumer's per-route tvalid is a register, not a
//             decode of the route (the consumer's tready is still muxed by the route).
//             m_hdr_valid_oh[r] = m_hdr_valid && (cmd_route == r), in flip-flops too
//             (cmd_route is stable while m_hdr_valid is high: the command is taken only
//             by the header handshake), so a consumer's header valid is a register.
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, SKIP_W (width of
//   cmd_skip, 4 to 6; tested 4 and 6), ROUTE_W (1 or 2, both tested), USE_STS (0 or 1),
//   USE_LEN (0 or 1; 0: cmd_len is ignored and every packet is kept to its end, which
//   removes the length logic), USE_SKIP (0 or 1; 0, at DATA_W 8 only: cmd_skip is ignored
//   and nothing is skipped, which removes the skip counter, for a producer that marks the
//   bytes to drop in the stream itself with tkeep = 0). tests/unit/common/test_stream_strip.py
//   runs the settings eth_rx, ip_rx and udp_rx use.
// Latency: a payload byte leaves 1 input beat after the beat that completes its output
//   beat (one beat is held back so the last beat can carry tuser); per packet one cycle
//   of overhead (end flush; two when the last output beat spills into the flush).
//   KEEP_W > 1: a command starts 2 cycles after it became valid at the earliest (its
//   first-window values are precomputed); KEEP_W = 1 (byte counters instead of window
//   arithmetic): in the cycle after. Throughput: one beat per cycle. KEEP_W = 1: the
//   output register has a skid register behind it, so m_axis_tready reaches only the
//   output stage and the D input of the input side's `take_reg` flip-flop (s_axis_tready,
//   which is that flip-flop, and the counters' enables depend on registers only).
module stream_strip #(
    parameter integer DATA_W  = 8,
    parameter integer KEEP_W  = DATA_W / 8,
    parameter integer SKIP_W  = 6,
    parameter integer ROUTE_W = 2,
    parameter integer USE_STS = 0,
    parameter integer USE_LEN = 1,
    parameter integer USE_SKIP = 1
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               cmd_valid,
    output wire               cmd_ready,
    input  wire [SKIP_W-1:0]  cmd_skip,
    input  wire [15:0]        cmd_len,
    input  wire               cmd_drop,
    input  wire [ROUTE_W-1:0] cmd_route,
    input  wire               sts_valid,
    output wire               sts_ready,
    input  wire               sts_bad,
    input  wire [DATA_W-1:0]  s_axis_tdata,
    input  wire [KEEP_W-1:0]  s_axis_tkeep,
    input  wire               s_axis_tvalid,
    output wire               s_axis_tready,
    input  wire               s_axis_tlast,
    input  wire               s_axis_tuser,
    output wire               m_hdr_valid,
    output wire [(2**ROUTE_W)-1:0] m_hdr_valid_oh,
    input  wire               m_hdr_ready,
    output wire [DATA_W-1:0]  m_axis_tdata,
    output wire [KEEP_W-1:0]  m_axis_tkeep,
    output wire               m_axis_tvalid,
    input  wire               m_axis_tready,
    output wire               m_axis_tlast,
    output wire               m_axis_tuser,
    output wire               m_axis_ttrunc,
    output wire [ROUTE_W-1:0] m_axis_troute,
    output wire [(2**ROUTE_W)-1:0] m_axis_tvalid_oh
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            // unsupported parameter (no such module)
            stream_strip_DATA_W_must_be_8_or_64 u_error ();
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            stream_strip_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (SKIP_W < 4 || SKIP_W > 6) begin : g_check_skip_w
            stream_strip_SKIP_W_must_be_4_to_6 u_error ();  // unsupported parameter
        end
        if (ROUTE_W < 1 || ROUTE_W > 2) begin : g_check_route_w
            stream_strip_ROUTE_W_must_be_1_or_2 u_error ();  // unsupported parameter
        end
        if (USE_STS != 0 && USE_STS != 1) begin : g_check_use_sts
            stream_strip_USE_STS_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (USE_LEN != 0 && USE_LEN != 1) begin : g_check_use_len
            stream_strip_USE_LEN_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (USE_SKIP != 0 && USE_SKIP != 1) begin : g_check_use_skip
            stream_strip_USE_SKIP_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (USE_SKIP == 0 && DATA_W != 8) begin : g_check_use_skip_w
            stream_strip_USE_SKIP_must_be_1_at_DATA_W_64 u_error ();  // unsupported parameter
        end
    endgenerate
    localparam integer SAW = $clog2(KEEP_W + 1);
    localparam integer PW = 19;  // signed payload index width
    localparam [1:0] STATE_IDLE = 2'd0, STATE_RUN = 2'd1, STATE_FLUSH = 2'd2;
    // win_base_reg only matters while negative (lanes before the kept range): it saturates once
    // lane 0 reaches the kept range, so it needs the skip's width, not the length's
    localparam integer SB = $clog2(4 * KEEP_W) + 1;  // holds the lane offsets 0..4*KEEP_W
    localparam integer WW = ((SKIP_W > SB) ? SKIP_W : SB) + 2;
    // output registers (both widths load them)
    reg  m_hdr_valid_reg;
    reg  [(2**ROUTE_W)-1:0] m_hdr_valid_oh_reg;
    reg  [DATA_W-1:0] m_axis_tdata_reg;
    reg  [KEEP_W-1:0] m_axis_tkeep_reg;
    reg  m_axis_tvalid_reg;
    reg  m_axis_tlast_reg;
    reg  m_axis_tuser_reg;
    reg  m_axis_ttrunc_reg;
    reg  [ROUTE_W-1:0] m_axis_troute_reg;
    reg  [(2**ROUTE_W)-1:0] m_axis_tvalid_oh_reg;
    assign m_hdr_valid = m_hdr_valid_reg;
    assign m_hdr_valid_oh = m_hdr_valid_oh_reg;
    assign m_axis_tdata = m_axis_tdata_reg;
    assign m_axis_tkeep = m_axis_tkeep_reg;
    assign m_axis_tvalid = m_axis_tvalid_reg;
    assign m_axis_tlast = m_axis_tlast_reg;
    assign m_axis_tuser = m_axis_tuser_reg;
    assign m_axis_ttrunc = m_axis_ttrunc_reg;
    assign m_axis_troute = m_axis_troute_reg;
    assign m_axis_tvalid_oh = m_axis_tvalid_oh_reg;

    wire sts_ok = (USE_STS == 0) || sts_valid;

    generate
    if (KEEP_W == 1) begin : g_byte
        // One byte per beat: a skip counter and a length counter replace the window
        // arithmetic, and a command starts as soon as it is valid (nothing to precompute).
        reg  [1:0]         state_reg;
        reg  [SKIP_W-1:0]  skip_cnt_reg;  // bytes still to skip
        reg  [15:0]        len_cnt_reg;  // kept bytes still to come
        reg                unlim_reg;
        reg                held_valid_reg;
        reg  [7:0]         held_data_reg;
        reg                bad_reg;
        reg                trunc_reg;
        reg                hdr_done_reg;
        reg                drop_reg;
        reg  [ROUTE_W-1:0] route_reg;
        // skid register behind the output register: a new output beat is made only while
        // it is free (skid_free, a flip-flop), so the consumer's tready reaches only the
        // output stage, never take_reg, s_axis_tready or the counters' enables
        reg                skid_valid_reg;
        reg  [7:0]         skid_data_reg;
        reg                skid_keep_reg, skid_last_reg, skid_user_reg, skid_trunc_reg;
        reg  [ROUTE_W-1:0] skid_route_reg;
        wire               skid_free = !skid_valid_reg;

        // len_left_reg = (len_cnt_reg != 0) and skipping_reg = (skip_cnt_reg != 0), kept in
        // flip-flops so the wide ORs stay off the tready and enable paths (the unit test
        // checks both every cycle)
        reg  len_left_reg;
        wire byte_in = s_axis_tkeep[0];  // a beat with tkeep = 0 holds no byte
        reg  skipping_reg;  // (without USE_SKIP: skipping is constant 0)
        wire skipping = (USE_SKIP != 0) && skipping_reg;
        wire len_gt1 = (len_cnt_reg > 16'd1);
        wire no_len = (USE_LEN == 0) || unlim_reg;
        wire kept = byte_in && !skipping && (no_len || len_left_reg);
        // kept bytes remain after this beat (the packet ends before skip + len)
        wire more = !byte_in ? (skipping || len_left_reg) :
                    skipping ? ((skip_cnt_reg != {{(SKIP_W-1){1'b0}}, 1'b1}) || len_left_reg) :
                               len_gt1;
        wire truncated = !no_len && more;

        // take_reg = (state_reg == STATE_RUN) && skid_free && (hdr_done_reg || !held_valid_reg),
        // loaded from the next values of those four (take_next below), so beat, the
        // counters' enables and s_axis_tready are one gate from flip-flops (the unit test
        // checks the equality every cycle)
        reg  take_reg;
        wire beat = take_reg && s_axis_tvalid;
        wire finish = (state_reg == STATE_FLUSH) && sts_ok &&
                      (drop_reg || (skid_free && hdr_done_reg));
        wire start = cmd_valid && ((state_reg == STATE_IDLE) || finish);
        wire out_mid = beat && !drop_reg && kept && held_valid_reg;
        wire out_last = finish && !drop_reg;
        wire out_new = out_mid || out_last;  // a new output beat (only while skid_free)
        wire out_free = !m_axis_tvalid_reg || m_axis_tready;
        // a new beat's fields (read only when it is one, out_new: they are the output's
        // when m_axis_tvalid_reg is set from it); whether it is the last (out_last) or a
        // middle one (out_mid) is told by the state alone, which keeps the finish
        // condition off their inputs (the skid's and the output register's)
        wire       flushing  = (state_reg == STATE_FLUSH);  // = out_last whenever out_new
        wire       new_keep = flushing ? held_valid_reg : 1'b1;
        wire       new_user = flushing && (bad_reg || ((USE_STS != 0) && sts_bad));
        wire       new_trunc = flushing && trunc_reg;

        assign s_axis_tready = take_reg;
        assign cmd_ready = (start && cmd_drop) || (m_hdr_valid_reg && m_hdr_ready);
        assign sts_ready = finish && (USE_STS != 0);

        always @(posedge clk) begin
            if (beat) begin
                if (byte_in) begin
                    if (skipping) begin
                        skip_cnt_reg <= skip_cnt_reg - 1'b1;
                        skipping_reg <= (skip_cnt_reg != {{(SKIP_W-1){1'b0}}, 1'b1});
                    end else if (len_left_reg) begin
                        len_cnt_reg <= len_cnt_reg - 16'd1;
                        len_left_reg <= len_gt1;
                    end
                end
                if (kept) held_data_reg <= s_axis_tdata;
                if (s_axis_tlast) begin
                    bad_reg <= s_axis_tuser || truncated;
                    trunc_reg <= truncated;
                end
            end
            // the counters matter only while a packet runs: outside STATE_RUN they follow the
            // command (so their load does not wait for start, which depends on tready)
            if (state_reg != STATE_RUN) begin
                skip_cnt_reg <= cmd_skip;
                skipping_reg <= |cmd_skip;
                len_cnt_reg <= cmd_len;
                len_left_reg <= |cmd_len;
                unlim_reg <= &cmd_len;
            end
            if (start) begin
                drop_reg <= cmd_drop;
                route_reg <= cmd_route;
            end
            // the output register loads in every cycle it is free, from the skid register
            // if that holds a beat, else from the new beat (its data matter only when
            // out_new sets m_axis_tvalid_reg): its enable is out_free alone, not out_new
            if (out_free) begin
                m_axis_tdata_reg <= skid_valid_reg ? skid_data_reg : held_data_reg;
                m_axis_tkeep_reg <= skid_valid_reg ? skid_keep_reg : new_keep;
                m_axis_tlast_reg <= skid_valid_reg ? skid_last_reg : flushing;
                m_axis_tuser_reg <= skid_valid_reg ? skid_user_reg : new_user;
                m_axis_ttrunc_reg <= skid_valid_reg ? skid_trunc_reg : new_trunc;
                m_axis_troute_reg <= skid_valid_reg ? skid_route_reg : route_reg;
            end
            // the skid register loads in every cycle it is free (its data matters only
            // once skid_valid_reg is set, in a cycle it loaded)
            if (!skid_valid_reg) begin
                skid_data_reg <= held_data_reg;
                skid_keep_reg <= new_keep;
                skid_last_reg <= flushing;
                skid_user_reg <= new_user;
                skid_trunc_reg <= new_trunc;
                skid_route_reg <= route_reg;
            end
        end

        // next values of the state take_reg depends on
        reg  [1:0] state_next;
        reg        held_valid_next, hdr_done_next, skid_valid_next;
        always @(*) begin
            skid_valid_next = out_free ? 1'b0 : (skid_valid_reg || out_new);
            hdr_done_next = start ? cmd_drop : (hdr_done_reg || (m_hdr_valid_reg && m_hdr_ready));
            held_valid_next = held_valid_reg;
            state_next = state_reg;
            if (start) held_valid_next = 1'b0;
            case (state_reg)
                STATE_IDLE: if (start) state_next = STATE_RUN;
                STATE_RUN: begin
                    if (beat && !drop_reg && kept) held_valid_next = 1'b1;
                    if (beat && s_axis_tlast) state_next = STATE_FLUSH;
                end
                STATE_FLUSH: if (finish) state_next = start ? STATE_RUN : STATE_IDLE;
                default: state_next = STATE_IDLE;
            endcase
        end
        wire take_next = (state_next == STATE_RUN) && !skid_valid_next &&
                         (hdr_done_next || !held_valid_next);
        // per-route copies of m_axis_tvalid_reg (see the header)
        reg [(2**ROUTE_W)-1:0] tvalid_oh_next;
        wire [(2**ROUTE_W)-1:0] cmd_route_oh = {{((2**ROUTE_W)-1){1'b0}}, 1'b1} << cmd_route;
        integer r;
        always @(*) begin
            for (r = 0; r < 2 ** ROUTE_W; r = r + 1)
                tvalid_oh_next[r] = skid_valid_reg ? (skid_route_reg == r[ROUTE_W-1:0]) :
                                    (out_new && (route_reg == r[ROUTE_W-1:0]));
        end

        always @(posedge clk) begin
            if (rst) begin
                state_reg <= STATE_IDLE;
                take_reg <= 1'b0;
                held_valid_reg <= 1'b0;
                hdr_done_reg <= 1'b0;
                m_hdr_valid_reg <= 1'b0;
                m_hdr_valid_oh_reg <= {(2**ROUTE_W){1'b0}};
                m_axis_tvalid_reg <= 1'b0;
                m_axis_tvalid_oh_reg <= {(2**ROUTE_W){1'b0}};
                skid_valid_reg <= 1'b0;
            end else begin
                if (out_free) m_axis_tvalid_reg <= skid_valid_reg || out_new;
                if (out_free) m_axis_tvalid_oh_reg <= tvalid_oh_next;
                skid_valid_reg <= skid_valid_next;
                if (m_hdr_valid_reg && m_hdr_ready) begin
                    m_hdr_valid_reg <= 1'b0;
                    m_hdr_valid_oh_reg <= {(2**ROUTE_W){1'b0}};
                end
                if (start) begin
                    m_hdr_valid_reg <= !cmd_drop;
                    m_hdr_valid_oh_reg <= cmd_drop ? {(2**ROUTE_W){1'b0}} : cmd_route_oh;
                end
                hdr_done_reg <= hdr_done_next;
                held_valid_reg <= held_valid_next;
                state_reg <= state_next;
                take_reg <= take_next;
            end
        end
    end else begin : g_wide
        wire out_free = !m_axis_tvalid_reg || m_axis_tready;

        reg  [1:0]        state_reg;
        reg  [SAW-1:0]    shift_reg;  // window shift in bytes, 1..KEEP_W
        reg  signed [WW-1:0] win_base_reg;  // payload index of window lane 0 (saturates at >= 0)
        reg  signed [PW-1:0] remain_reg;  // cmd_len - (payload index of window lane 0)
        reg               first_reg;
        reg               unlim_reg;
        reg  [DATA_W-1:0] prev_reg;
        reg               held_valid_reg;
        reg  [DATA_W-1:0] held_data_reg;
        reg  [KEEP_W-1:0] held_keep_reg;
        reg  [DATA_W-1:0] flush_data_reg;
        reg  [KEEP_W-1:0] flush_keep_reg;
        reg               bad_reg;
        reg               trunc_reg;
        reg               hdr_done_reg;
        reg               drop_reg;
        reg [ROUTE_W-1:0] route_reg;

        // window {cur, prev_reg} >> shift_reg bytes, and the flush window {0, cur} >> the same
        wire [2*DATA_W-1:0] cat = {s_axis_tdata, prev_reg};
        // only the low half of each shifted window is used (the shift drops the rest)
        /* verilator lint_off UNUSEDSIGNAL */
        wire [2*DATA_W-1:0] cat_sh = cat >> {shift_reg, 3'b000};
        wire [2*DATA_W-1:0] catf_sh = {{DATA_W{1'b0}}, s_axis_tdata} >> {shift_reg, 3'b000};
        wire [2*KEEP_W-1:0] catk = {s_axis_tkeep, first_reg ? {KEEP_W{1'b0}} : {KEEP_W{1'b1}}};
        wire [2*KEEP_W-1:0] catk_sh = catk >> shift_reg;
        wire [2*KEEP_W-1:0] catfk_sh = {{KEEP_W{1'b0}}, s_axis_tkeep} >> shift_reg;
        /* verilator lint_on UNUSEDSIGNAL */
        wire [DATA_W-1:0] win_d = cat_sh[DATA_W-1:0];
        wire [DATA_W-1:0] flush_win_data = catf_sh[DATA_W-1:0];

        localparam signed [PW-1:0] KW_S = KEEP_W[PW-1:0];
        // Per-lane "inside the kept range" flags of the current window and flush window,
        // kept in registers (computed one beat ahead) so that no wide compare sits on the
        // path to the output register.
        reg  [KEEP_W-1:0] win_in_reg;
        reg  [KEEP_W-1:0] flush_in_reg;
        wire [KEEP_W-1:0] flush_in_next;  // flush-window flags after one more beat
        wire [KEEP_W-1:0] win_in_start, flush_in_start;  // flags for a new command
        wire signed [WW-1:0] win_base_start;
        wire signed [PW-1:0] remain_start;
        // A new command's first-window values are computed in two registered stages while
        // the command waits (it is normally made ready during the previous packet), so the
        // start of a packet loads registers only. cmd_age_reg counts the cycles the current
        // command has been valid (saturating at 2 = both stages hold its values).
        reg  [1:0]        cmd_age_reg;
        reg  signed [PW-1:0] p1_remain_reg, p2_remain_reg;
        reg  signed [WW-1:0] p1_win_base_reg, p2_win_base_reg;
        reg  [SAW-1:0]    p1_shift_reg, p2_shift_reg;
        reg  [KEEP_W-1:0] p2_win_in_reg, p2_flush_in_reg;
        genvar gi;
            // lane gi of the window C lanes on is inside the kept range when its payload
            // index (win_base_reg + C) is not negative and below the length (remain_reg > C; always
            // without a length, USE_LEN = 0)
            for (gi = 0; gi < KEEP_W; gi = gi + 1) begin : g_lane
                localparam integer C1 = KEEP_W + gi, C2 = 2 * KEEP_W + gi;
                localparam signed [WW-1:0] C0W = gi, C1W = C1[WW-1:0], C2W = C2[WW-1:0];
                localparam signed [PW-1:0] C0P = gi, C1P = C1[PW-1:0], C2P = C2[PW-1:0];
                assign flush_in_next[gi] = (win_base_reg >= -C2W) &&
                                           ((USE_LEN == 0) || (remain_reg > C2P));
                assign win_in_start[gi] = (p1_win_base_reg >= -C0W) &&
                                          ((USE_LEN == 0) || (p1_remain_reg > C0P));
                assign flush_in_start[gi] = (p1_win_base_reg >= -C1W) &&
                                            ((USE_LEN == 0) || (p1_remain_reg > C1P));
            end
        reg [SAW-1:0] in_bytes;
        integer i;
        always @(*) begin
            in_bytes = {SAW{1'b0}};
            for (i = 0; i < KEEP_W; i = i + 1)
                if (s_axis_tkeep[i]) in_bytes = i[SAW-1:0] + 1'b1;
        end
        wire [KEEP_W-1:0] cand_k = catk_sh[KEEP_W-1:0] & win_in_reg;
        wire [KEEP_W-1:0] fcand_k = catfk_sh[KEEP_W-1:0] & flush_in_reg;
        // truncated: kept bytes remain after this last beat,
        // remain_reg > in_bytes + KEEP_W - shift_reg
        wire signed [PW-1:0] trunc_rhs = $signed({{(PW-SAW){1'b0}}, in_bytes}) + KW_S -
                                         $signed({{(PW-SAW){1'b0}}, shift_reg});
        wire              truncated = (USE_LEN != 0) && !unlim_reg && (remain_reg > trunc_rhs);

        wire take = (state_reg == STATE_RUN) && out_free && (hdr_done_reg || !held_valid_reg);
        wire beat = take && s_axis_tvalid;
        wire flush_two = (|flush_keep_reg) && held_valid_reg && !drop_reg;
        wire finish = (state_reg == STATE_FLUSH) && sts_ok &&
                      (drop_reg || (out_free && hdr_done_reg && !flush_two));
        // output beats: a middle one, the first of two at the end (flush_two), the last
        wire out_mid = beat && !drop_reg && (|cand_k) && held_valid_reg;
        wire out_flush_first = (state_reg == STATE_FLUSH) && !drop_reg && out_free &&
                               hdr_done_reg && flush_two;
        wire out_last = finish && !drop_reg;

        assign s_axis_tready = take;
        // a new packet starts when the previous one is done (no idle cycle in between)
        wire start = cmd_valid && (cmd_age_reg == 2'd2) && ((state_reg == STATE_IDLE) || finish);
        // the command is released once its header has been taken (or at once if dropped),
        // so the producer can prepare the next one while this packet's payload flows
        assign cmd_ready = (start && cmd_drop) || (m_hdr_valid_reg && m_hdr_ready);
        assign sts_ready = finish && (USE_STS != 0);

        // first-window parameters of a new command (skip_e: the skip in effect)
        wire [SKIP_W-1:0] skip_e = (USE_SKIP != 0) ? cmd_skip : {SKIP_W{1'b0}};
        wire [SAW-1:0] shift_start;
            if (KEEP_W == 1) begin : g_sa1
                assign shift_start = 1'b1;
            end else begin : g_san
                wire [SAW-2:0] m = skip_e[SAW-2:0];
                assign shift_start = (m == 0) ? KEEP_W[SAW-1:0] : {1'b0, m};
            end
        localparam signed [WW-1:0] KW_W = KEEP_W[WW-1:0];
        assign win_base_start = $signed({{(WW-SAW){1'b0}}, shift_start}) - KW_W -
                        $signed({{(WW-SKIP_W){1'b0}}, skip_e});
        wire signed [PW-1:0] len_s = $signed({{(PW-16){1'b0}}, cmd_len});
        assign remain_start = len_s - {{(PW-WW){win_base_start[WW-1]}}, win_base_start};

        always @(posedge clk) begin
            p1_win_base_reg <= win_base_start;
            p1_remain_reg <= remain_start;
            p1_shift_reg <= shift_start;
            p2_win_base_reg <= p1_win_base_reg;
            p2_remain_reg <= p1_remain_reg;
            p2_shift_reg <= p1_shift_reg;
            p2_win_in_reg <= win_in_start;
            p2_flush_in_reg <= flush_in_start;
            if (beat) begin
                prev_reg <= s_axis_tdata;
                first_reg <= 1'b0;
                if (win_base_reg[WW-1]) win_base_reg <= win_base_reg + KW_W;
                remain_reg <= remain_reg - KW_S;
                win_in_reg <= flush_in_reg;
                flush_in_reg <= flush_in_next;
                if (!drop_reg && (|cand_k)) begin
                    held_data_reg <= win_d;
                    held_keep_reg <= cand_k;
                end
                if (s_axis_tlast) begin
                    flush_data_reg <= flush_win_data;
                    flush_keep_reg <= fcand_k;
                    bad_reg <= s_axis_tuser || truncated;
                    trunc_reg <= truncated;
                end
            end
            if (out_flush_first) begin
                held_data_reg <= flush_data_reg;
                held_keep_reg <= flush_keep_reg;
                flush_keep_reg <= {KEEP_W{1'b0}};
            end
            if (start) begin
                drop_reg <= cmd_drop;
                route_reg <= cmd_route;
                shift_reg <= p2_shift_reg;
                win_base_reg <= p2_win_base_reg;
                remain_reg <= p2_remain_reg;
                win_in_reg <= p2_win_in_reg;
                flush_in_reg <= p2_flush_in_reg;
                unlim_reg <= &cmd_len;
                first_reg <= 1'b1;
            end
            // output register
            if (out_mid) begin
                m_axis_tdata_reg <= held_data_reg;
                m_axis_tkeep_reg <= held_keep_reg;
                m_axis_tlast_reg <= 1'b0;
                m_axis_tuser_reg <= 1'b0;
                m_axis_ttrunc_reg <= 1'b0;
                m_axis_troute_reg <= route_reg;
            end else if (out_flush_first) begin
                m_axis_tdata_reg <= held_data_reg;
                m_axis_tkeep_reg <= held_keep_reg;
                m_axis_tlast_reg <= 1'b0;
                m_axis_tuser_reg <= 1'b0;
                m_axis_ttrunc_reg <= 1'b0;
                m_axis_troute_reg <= route_reg;
            end else if (out_last) begin
                m_axis_tdata_reg <= (|flush_keep_reg) ? flush_data_reg : held_data_reg;
                m_axis_tkeep_reg <= (|flush_keep_reg) ? flush_keep_reg :
                                    (held_valid_reg ? held_keep_reg : {KEEP_W{1'b0}});
                m_axis_tlast_reg <= 1'b1;
                m_axis_tuser_reg <= bad_reg || ((USE_STS != 0) && sts_bad);
                m_axis_ttrunc_reg <= trunc_reg;
                m_axis_troute_reg <= route_reg;
            end
        end

        // one-hot of route_reg (for m_axis_tvalid_oh_reg) and of cmd_route (m_hdr_valid_oh_reg)
        wire [(2**ROUTE_W)-1:0] route_oh = {{((2**ROUTE_W)-1){1'b0}}, 1'b1} << route_reg;
        wire [(2**ROUTE_W)-1:0] cmd_route_oh = {{((2**ROUTE_W)-1){1'b0}}, 1'b1} << cmd_route;

        always @(posedge clk) begin
            if (rst) begin
                state_reg <= STATE_IDLE;
                cmd_age_reg <= 2'd0;
                held_valid_reg <= 1'b0;
                hdr_done_reg <= 1'b0;
                m_hdr_valid_reg <= 1'b0;
                m_hdr_valid_oh_reg <= {(2**ROUTE_W){1'b0}};
                m_axis_tvalid_reg <= 1'b0;
                m_axis_tvalid_oh_reg <= {(2**ROUTE_W){1'b0}};
            end else begin
                if (!cmd_valid || cmd_ready) cmd_age_reg <= 2'd0;
                else if (cmd_age_reg != 2'd2) cmd_age_reg <= cmd_age_reg + 2'd1;
                if (out_mid || out_flush_first || out_last) begin
                    m_axis_tvalid_reg <= 1'b1;
                    m_axis_tvalid_oh_reg <= route_oh;
                end else if (m_axis_tready) begin
                    m_axis_tvalid_reg <= 1'b0;
                    m_axis_tvalid_oh_reg <= {(2**ROUTE_W){1'b0}};
                end
                if (m_hdr_valid_reg && m_hdr_ready) begin
                    m_hdr_valid_reg <= 1'b0;
                    m_hdr_valid_oh_reg <= {(2**ROUTE_W){1'b0}};
                    hdr_done_reg <= 1'b1;
                end
                if (start) begin
                    held_valid_reg <= 1'b0;
                    m_hdr_valid_reg <= !cmd_drop;
                    m_hdr_valid_oh_reg <= cmd_drop ? {(2**ROUTE_W){1'b0}} : cmd_route_oh;
                    hdr_done_reg <= cmd_drop;
                end
                case (state_reg)
                    STATE_IDLE: if (start) state_reg <= STATE_RUN;
                    STATE_RUN: begin
                        if (beat && !drop_reg && (|cand_k)) held_valid_reg <= 1'b1;
                        if (beat && s_axis_tlast) state_reg <= STATE_FLUSH;
                    end
                    STATE_FLUSH: if (finish) state_reg <= start ? STATE_RUN : STATE_IDLE;
                    default: state_reg <= STATE_IDLE;
                endcase
            end
        end
    end
    endgenerate
endmodule
`default_nettype wire
