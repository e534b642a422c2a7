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
// Parameters: DATA_W (8 or 64), KEEP_W, SKIP_W (width of cmd_skip), ROUTE_W, USE_STS,
//   USE_LEN (0: cmd_len is ignored and every packet is kept to its end, which removes
//   the length logic), USE_SKIP (0: cmd_skip is ignored and nothing is skipped, which
//   removes the skip counter: for a producer that marks the bytes to drop in the stream
//   itself, with tkeep = 0).
// Latency: a payload byte leaves 1 input beat after the beat that completes its output
//   beat (one beat is held back so the last beat can carry tuser); per packet one cycle
//   of overhead (end flush; two when the last output beat spills into the flush).
//   KEEP_W > 1: a command starts 2 cycles after it became valid at the earliest (its
//   first-window values are precomputed); KEEP_W = 1 (byte counters instead of window
//   arithmetic): in the cycle after. Throughput: one beat per cycle. KEEP_W = 1: the
//   output register has a skid register behind it, so m_axis_tready reaches only the
//   output stage and the D input of the input side's `take` flip-flop (s_axis_tready,
//   which is that flip-flop, and the counters' enables depend on registers only).
module stream_strip #(
    parameter integer DATA_W  = 8,
    parameter integer KEEP_W  = DATA_W / 8,
    parameter integer SKIP_W  = 8,
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
    output reg                m_hdr_valid,
    output reg  [(2**ROUTE_W)-1:0] m_hdr_valid_oh,
    input  wire               m_hdr_ready,
    output reg  [DATA_W-1:0]  m_axis_tdata,
    output reg  [KEEP_W-1:0]  m_axis_tkeep,
    output reg                m_axis_tvalid,
    input  wire               m_axis_tready,
    output reg                m_axis_tlast,
    output reg                m_axis_tuser,
    output reg                m_axis_ttrunc,
    output reg  [ROUTE_W-1:0] m_axis_troute,
    output reg  [(2**ROUTE_W)-1:0] m_axis_tvalid_oh
);
    localparam integer SAW = $clog2(KEEP_W + 1);
    localparam integer PW = 19;  // signed payload index width
    localparam [1:0] S_IDLE = 2'd0, S_RUN = 2'd1, S_FLUSH = 2'd2;
    // wb only matters while negative (lanes before the kept range): it saturates once
    // lane 0 reaches the kept range, so it needs the skip's width, not the length's
    localparam integer SB = $clog2(4 * KEEP_W) + 1;  // holds the lane offsets 0..4*KEEP_W
    localparam integer WW = ((SKIP_W > SB) ? SKIP_W : SB) + 2;
    wire sts_ok = (USE_STS == 0) || sts_valid;

    generate
    if (KEEP_W == 1) begin : g_byte
        // One byte per beat: a skip counter and a length counter replace the window
        // arithmetic, and a command starts as soon as it is valid (nothing to precompute).
        reg  [1:0]         st;
        reg  [SKIP_W-1:0]  skip_c;  // bytes still to skip
        reg  [15:0]        len_c;  // kept bytes still to come
        reg                unlim;
        reg                held_v;
        reg  [7:0]         held_d;
        reg                bad_in;
        reg                trunc_in;
        reg                hdr_done;
        reg                drop_r;
        reg  [ROUTE_W-1:0] route_r;
        // skid register behind the output register: a new output beat is made only
        // while it is free (`obf`, a flip-flop), so the consumer's tready reaches only the
        // output stage, never `take`, s_axis_tready or the counters' enables
        reg                sk_v;
        reg  [7:0]         sk_d;
        reg                sk_k, sk_l, sk_u, sk_t;
        reg  [ROUTE_W-1:0] sk_r;
        wire               obf = !sk_v;

        // len_c != 0, kept in a register: the 16-bit OR stays off the tready paths
        reg  len_left;
        wire byte_in = s_axis_tkeep[0];  // a beat with tkeep = 0 holds no byte
        // skip_c != 0, kept in a register too (the OR stays off the tready/enable paths);
        // constant 0 without USE_SKIP
        reg  skipping_r;
        wire skipping = (USE_SKIP != 0) && skipping_r;
        wire len_gt1 = (len_c > 16'd1);
        wire no_len = (USE_LEN == 0) || unlim;
        wire kept = byte_in && !skipping && (no_len || len_left);
        // kept bytes remain after this beat (the packet ends before skip + len)
        wire more = !byte_in ? (skipping || len_left) :
                    skipping ? ((skip_c != {{(SKIP_W-1){1'b0}}, 1'b1}) || len_left) :
                               len_gt1;
        wire truncated = !no_len && more;

        // take = (st == S_RUN) && obf && (hdr_done || !held_v), kept in a register
        // computed from the next values of those four (take_n below), so beat, the
        // counters' enables and s_axis_tready are one gate from flip-flops
        reg  take;
        wire beat = take && s_axis_tvalid;
        wire finish = (st == S_FLUSH) && sts_ok && (drop_r || (obf && hdr_done));
        wire start = cmd_valid && ((st == S_IDLE) || finish);
        wire out_mid = beat && !drop_r && kept && held_v;
        wire out_last = finish && !drop_r;
        wire out_new = out_mid || out_last;  // a new output beat (only while obf)
        wire out_free = !m_axis_tvalid || m_axis_tready;
        // a new beat's fields (read only when it is one, out_new: they are the output's
        // when m_axis_tvalid is set from it); whether it is the last (out_last) or a
        // middle one (out_mid) is told by the state alone, which keeps the finish
        // condition off their inputs (the skid's and the output register's)
        wire       fl  = (st == S_FLUSH);  // = out_last whenever out_new
        wire       n_k = fl ? held_v : 1'b1;
        wire       n_u = fl && (bad_in || ((USE_STS != 0) && sts_bad));
        wire       n_t = fl && trunc_in;

        assign s_axis_tready = take;
        assign cmd_ready = (start && cmd_drop) || (m_hdr_valid && m_hdr_ready);
        assign sts_ready = finish && (USE_STS != 0);

        always @(posedge clk) begin
            if (beat) begin
                if (byte_in) begin
                    if (skipping) begin
                        skip_c <= skip_c - 1'b1;
                        skipping_r <= (skip_c != {{(SKIP_W-1){1'b0}}, 1'b1});
                    end else if (len_left) begin
                        len_c <= len_c - 16'd1;
                        len_left <= len_gt1;
                    end
                end
                if (kept) held_d <= s_axis_tdata;
                if (s_axis_tlast) begin
                    bad_in <= s_axis_tuser || truncated;
                    trunc_in <= truncated;
                end
            end
            // the counters matter only while a packet runs: outside S_RUN they follow the
            // command (so their load does not wait for start, which depends on tready)
            if (st != S_RUN) begin
                skip_c <= cmd_skip;
                skipping_r <= |cmd_skip;
                len_c <= cmd_len;
                len_left <= |cmd_len;
                unlim <= &cmd_len;
            end
            if (start) begin
                drop_r <= cmd_drop;
                route_r <= cmd_route;
            end
            // the output register loads in every cycle it is free, from the skid register
            // if that holds a beat, else from the new beat (its data matter only when
            // out_new sets m_axis_tvalid): its enable is out_free alone, not out_new
            if (out_free) begin
                m_axis_tdata <= sk_v ? sk_d : held_d;
                m_axis_tkeep <= sk_v ? sk_k : n_k;
                m_axis_tlast <= sk_v ? sk_l : fl;
                m_axis_tuser <= sk_v ? sk_u : n_u;
                m_axis_ttrunc <= sk_v ? sk_t : n_t;
                m_axis_troute <= sk_v ? sk_r : route_r;
            end
            // the skid register loads in every cycle it is free (its data matters only
            // once sk_v is set, in a cycle it loaded)
            if (!sk_v) begin
                sk_d <= held_d;
                sk_k <= n_k;
                sk_l <= fl;
                sk_u <= n_u;
                sk_t <= n_t;
                sk_r <= route_r;
            end
        end

        // next values of the state take depends on
        reg  [1:0] st_n;
        reg        held_v_n, hdr_done_n, sk_v_n;
        always @(*) begin
            sk_v_n = out_free ? 1'b0 : (sk_v || out_new);
            hdr_done_n = start ? cmd_drop : (hdr_done || (m_hdr_valid && m_hdr_ready));
            held_v_n = held_v;
            st_n = st;
            if (start) held_v_n = 1'b0;
            case (st)
                S_IDLE: if (start) st_n = S_RUN;
                S_RUN: begin
                    if (beat && !drop_r && kept) held_v_n = 1'b1;
                    if (beat && s_axis_tlast) st_n = S_FLUSH;
                end
                S_FLUSH: if (finish) st_n = start ? S_RUN : S_IDLE;
                default: st_n = S_IDLE;
            endcase
        end
        wire take_n = (st_n == S_RUN) && !sk_v_n && (hdr_done_n || !held_v_n);
        // per-route copies of m_axis_tvalid (see the header)
        reg [(2**ROUTE_W)-1:0] oh_n;
        wire [(2**ROUTE_W)-1:0] cmd_route_oh = {{((2**ROUTE_W)-1){1'b0}}, 1'b1} << cmd_route;
        integer r;
        always @(*) begin
            for (r = 0; r < 2 ** ROUTE_W; r = r + 1)
                oh_n[r] = sk_v ? (sk_r == r[ROUTE_W-1:0]) : (out_new && (route_r == r[ROUTE_W-1:0]));
        end

        always @(posedge clk) begin
            if (rst) begin
                st <= S_IDLE;
                take <= 1'b0;
                held_v <= 1'b0;
                hdr_done <= 1'b0;
                m_hdr_valid <= 1'b0;
                m_hdr_valid_oh <= {(2**ROUTE_W){1'b0}};
                m_axis_tvalid <= 1'b0;
                m_axis_tvalid_oh <= {(2**ROUTE_W){1'b0}};
                sk_v <= 1'b0;
            end else begin
                if (out_free) m_axis_tvalid <= sk_v || out_new;
                if (out_free) m_axis_tvalid_oh <= oh_n;
                sk_v <= sk_v_n;
                if (m_hdr_valid && m_hdr_ready) begin
                    m_hdr_valid <= 1'b0;
                    m_hdr_valid_oh <= {(2**ROUTE_W){1'b0}};
                end
                if (start) begin
                    m_hdr_valid <= !cmd_drop;
                    m_hdr_valid_oh <= cmd_drop ? {(2**ROUTE_W){1'b0}} : cmd_route_oh;
                end
                hdr_done <= hdr_done_n;
                held_v <= held_v_n;
                st <= st_n;
                take <= take_n;
            end
        end
    end else begin : g_wide
        wire ob_free = !m_axis_tvalid || m_axis_tready;

        reg  [1:0]        st;
        reg  [SAW-1:0]    sa;  // window shift in bytes, 1..KEEP_W
        reg  signed [WW-1:0] wb;  // payload index of window lane 0 (saturates at >= 0)
        reg  signed [PW-1:0] rem;  // cmd_len - (payload index of window lane 0)
        reg               first;
        reg               unlim;
        reg  [DATA_W-1:0] prev;
        reg               held_v;
        reg  [DATA_W-1:0] held_d;
        reg  [KEEP_W-1:0] held_k;
        reg  [DATA_W-1:0] fl_d;
        reg  [KEEP_W-1:0] fl_k;
        reg               bad_in;
        reg               trunc_in;
        reg               hdr_done;
        reg               drop_r;
        reg [ROUTE_W-1:0] route_r;

        // window {cur, prev} >> sa bytes, and the flush window {0, cur} >> sa bytes
        wire [2*DATA_W-1:0] cat = {s_axis_tdata, prev};
        // only the low half of each shifted window is used (the shift drops the rest)
        /* verilator lint_off UNUSEDSIGNAL */
        wire [2*DATA_W-1:0] cat_sh = cat >> {sa, 3'b000};
        wire [2*DATA_W-1:0] catf_sh = {{DATA_W{1'b0}}, s_axis_tdata} >> {sa, 3'b000};
        wire [2*KEEP_W-1:0] catk = {s_axis_tkeep, first ? {KEEP_W{1'b0}} : {KEEP_W{1'b1}}};
        wire [2*KEEP_W-1:0] catk_sh = catk >> sa;
        wire [2*KEEP_W-1:0] catfk_sh = {{KEEP_W{1'b0}}, s_axis_tkeep} >> sa;
        /* verilator lint_on UNUSEDSIGNAL */
        wire [DATA_W-1:0] win_d = cat_sh[DATA_W-1:0];
        wire [DATA_W-1:0] flw_d = catf_sh[DATA_W-1:0];

        localparam signed [PW-1:0] KW_S = KEEP_W[PW-1:0];
        // Per-lane "inside the kept range" flags of the current window and flush window,
        // kept in registers (computed one beat ahead) so that no wide compare sits on the
        // path to the output register.
        reg  [KEEP_W-1:0] win_in;
        reg  [KEEP_W-1:0] flw_in;
        wire [KEEP_W-1:0] flw_nb;  // flush-window flags after one more beat
        wire [KEEP_W-1:0] win_st, flw_st;  // flags for a new command
        wire signed [WW-1:0] wb_new;
        wire signed [PW-1:0] rem_new;
        // A new command's first-window values are computed in two registered stages while
        // the command waits (it is normally made ready during the previous packet), so the
        // start of a packet loads registers only. cmd_age counts the cycles the current
        // command has been valid (saturating at 2 = both stages hold its values).
        reg  [1:0]        cmd_age;
        reg  signed [PW-1:0] p1_rem, p2_rem;
        reg  signed [WW-1:0] p1_wb, p2_wb;
        reg  [SAW-1:0]    p1_sa, p2_sa;
        reg  [KEEP_W-1:0] p2_win, p2_flw;
        genvar gi;
            // lane gi of the window C lanes on is inside the kept range when its payload
            // index (wb + C) is not negative and below the length (rem > C; always
            // without a length, USE_LEN = 0)
            for (gi = 0; gi < KEEP_W; gi = gi + 1) begin : g_lane
                localparam signed [WW-1:0] C0W = gi, C1W = KEEP_W + gi, C2W = 2 * KEEP_W + gi;
                localparam signed [PW-1:0] C0P = gi, C1P = KEEP_W + gi, C2P = 2 * KEEP_W + gi;
                assign flw_nb[gi] = (wb >= -C2W) && ((USE_LEN == 0) || (rem > C2P));
                assign win_st[gi] = (p1_wb >= -C0W) && ((USE_LEN == 0) || (p1_rem > C0P));
                assign flw_st[gi] = (p1_wb >= -C1W) && ((USE_LEN == 0) || (p1_rem > C1P));
            end
        reg [SAW-1:0] nkeep;
        integer i;
        always @(*) begin
            nkeep = {SAW{1'b0}};
            for (i = 0; i < KEEP_W; i = i + 1)
                if (s_axis_tkeep[i]) nkeep = i[SAW-1:0] + 1'b1;
        end
        wire [KEEP_W-1:0] cand_k = catk_sh[KEEP_W-1:0] & win_in;
        wire [KEEP_W-1:0] fcand_k = catfk_sh[KEEP_W-1:0] & flw_in;
        // truncated: kept bytes remain after this last beat, rem > nkeep + KEEP_W - sa
        wire signed [PW-1:0] trunc_rhs = $signed({{(PW-SAW){1'b0}}, nkeep}) + KW_S -
                                         $signed({{(PW-SAW){1'b0}}, sa});
        wire              truncated = (USE_LEN != 0) && !unlim && (rem > trunc_rhs);

        wire take = (st == S_RUN) && ob_free && (hdr_done || !held_v);
        wire beat = take && s_axis_tvalid;
        wire fl_two = (|fl_k) && held_v && !drop_r;
        wire finish = (st == S_FLUSH) && sts_ok && (drop_r || (ob_free && hdr_done && !fl_two));

        assign s_axis_tready = take;
        // a new packet starts when the previous one is done (no idle cycle in between)
        wire start = cmd_valid && (cmd_age == 2'd2) && ((st == S_IDLE) || finish);
        // the command is released once its header has been taken (or at once if dropped),
        // so the producer can prepare the next one while this packet's payload flows
        assign cmd_ready = (start && cmd_drop) || (m_hdr_valid && m_hdr_ready);
        assign sts_ready = finish && (USE_STS != 0);

        // first-window parameters of a new command (skip_e: the skip in effect)
        wire [SKIP_W-1:0] skip_e = (USE_SKIP != 0) ? cmd_skip : {SKIP_W{1'b0}};
        wire [SAW-1:0] sa_new;
            if (KEEP_W == 1) begin : g_sa1
                assign sa_new = 1'b1;
            end else begin : g_san
                wire [SAW-2:0] m = skip_e[SAW-2:0];
                assign sa_new = (m == 0) ? KEEP_W[SAW-1:0] : {1'b0, m};
            end
        localparam signed [WW-1:0] KW_W = KEEP_W[WW-1:0];
        assign wb_new = $signed({{(WW-SAW){1'b0}}, sa_new}) - KW_W -
                        $signed({{(WW-SKIP_W){1'b0}}, skip_e});
        wire signed [PW-1:0] len_s = $signed({{(PW-16){1'b0}}, cmd_len});
        assign rem_new = len_s - {{(PW-WW){wb_new[WW-1]}}, wb_new};

        always @(posedge clk) begin
            p1_wb <= wb_new;
            p1_rem <= rem_new;
            p1_sa <= sa_new;
            p2_wb <= p1_wb;
            p2_rem <= p1_rem;
            p2_sa <= p1_sa;
            p2_win <= win_st;
            p2_flw <= flw_st;
            if (beat) begin
                prev <= s_axis_tdata;
                first <= 1'b0;
                if (wb[WW-1]) wb <= wb + KW_W;
                rem <= rem - KW_S;
                win_in <= flw_in;
                flw_in <= flw_nb;
                if (!drop_r && (|cand_k)) begin
                    held_d <= win_d;
                    held_k <= cand_k;
                end
                if (s_axis_tlast) begin
                    fl_d <= flw_d;
                    fl_k <= fcand_k;
                    bad_in <= s_axis_tuser || truncated;
                    trunc_in <= truncated;
                end
            end
            if (st == S_FLUSH && !drop_r && ob_free && hdr_done && fl_two) begin
                held_d <= fl_d;
                held_k <= fl_k;
                fl_k <= {KEEP_W{1'b0}};
            end
            if (start) begin
                drop_r <= cmd_drop;
                route_r <= cmd_route;
                sa <= p2_sa;
                wb <= p2_wb;
                rem <= p2_rem;
                win_in <= p2_win;
                flw_in <= p2_flw;
                unlim <= &cmd_len;
                first <= 1'b1;
            end
            // output register
            if (beat && !drop_r && (|cand_k) && held_v) begin
                m_axis_tdata <= held_d;
                m_axis_tkeep <= held_k;
                m_axis_tlast <= 1'b0;
                m_axis_tuser <= 1'b0;
                m_axis_ttrunc <= 1'b0;
                m_axis_troute <= route_r;
            end else if (st == S_FLUSH && !drop_r && ob_free && hdr_done && fl_two) begin
                m_axis_tdata <= held_d;
                m_axis_tkeep <= held_k;
                m_axis_tlast <= 1'b0;
                m_axis_tuser <= 1'b0;
                m_axis_ttrunc <= 1'b0;
                m_axis_troute <= route_r;
            end else if (finish && !drop_r) begin
                m_axis_tdata <= (|fl_k) ? fl_d : held_d;
                m_axis_tkeep <= (|fl_k) ? fl_k : (held_v ? held_k : {KEEP_W{1'b0}});
                m_axis_tlast <= 1'b1;
                m_axis_tuser <= bad_in || ((USE_STS != 0) && sts_bad);
                m_axis_ttrunc <= trunc_in;
                m_axis_troute <= route_r;
            end
        end

        // one-hot of route_r (for m_axis_tvalid_oh) and of cmd_route (m_hdr_valid_oh)
        wire [(2**ROUTE_W)-1:0] route_oh = {{((2**ROUTE_W)-1){1'b0}}, 1'b1} << route_r;
        wire [(2**ROUTE_W)-1:0] cmd_route_oh = {{((2**ROUTE_W)-1){1'b0}}, 1'b1} << cmd_route;

        always @(posedge clk) begin
            if (rst) begin
                st <= S_IDLE;
                cmd_age <= 2'd0;
                held_v <= 1'b0;
                hdr_done <= 1'b0;
                m_hdr_valid <= 1'b0;
                m_hdr_valid_oh <= {(2**ROUTE_W){1'b0}};
                m_axis_tvalid <= 1'b0;
                m_axis_tvalid_oh <= {(2**ROUTE_W){1'b0}};
            end else begin
                if (!cmd_valid || cmd_ready) cmd_age <= 2'd0;
                else if (cmd_age != 2'd2) cmd_age <= cmd_age + 2'd1;
                if ((beat && !drop_r && (|cand_k) && held_v) ||
                    (st == S_FLUSH && !drop_r && ob_free && hdr_done && fl_two) ||
                    (finish && !drop_r)) begin
                    m_axis_tvalid <= 1'b1;
                    m_axis_tvalid_oh <= route_oh;
                end else if (m_axis_tready) begin
                    m_axis_tvalid <= 1'b0;
                    m_axis_tvalid_oh <= {(2**ROUTE_W){1'b0}};
                end
                if (m_hdr_valid && m_hdr_ready) begin
                    m_hdr_valid <= 1'b0;
                    m_hdr_valid_oh <= {(2**ROUTE_W){1'b0}};
                    hdr_done <= 1'b1;
                end
                if (start) begin
                    held_v <= 1'b0;
                    m_hdr_valid <= !cmd_drop;
                    m_hdr_valid_oh <= cmd_drop ? {(2**ROUTE_W){1'b0}} : cmd_route_oh;
                    hdr_done <= cmd_drop;
                end
                case (st)
                    S_IDLE: if (start) st <= S_RUN;
                    S_RUN: begin
                        if (beat && !drop_r && (|cand_k)) held_v <= 1'b1;
                        if (beat && s_axis_tlast) st <= S_FLUSH;
                    end
                    S_FLUSH: if (finish) st <= start ? S_RUN : S_IDLE;
                    default: st <= S_IDLE;
                endcase
            end
        end
    end
    endgenerate
endmodule
`default_nettype wire
