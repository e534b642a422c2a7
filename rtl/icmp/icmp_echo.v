`default_nettype none
// icmp_echo: answers ICMP echo requests. Takes ip_rx's ICMP output (header bus + the ICMP
// message) and produces the whole Ethernet echo-reply frame (no FCS) by cut-through: the
// reply starts while the request is still arriving.
//
// Reply: Ethernet dst = request's source MAC, src = cfg_mac, type 0x0800; IPv4 version 4,
// IHL 5, TOS 0, total length = len+20, identification from a counter, no flags, TTL
// cfg_ttl, protocol 1, source = the request's destination IP, destination = request's source IP, header checksum
// computed; ICMP type 0, code, identifier, sequence and data copied, checksum updated
// incrementally for the type change (RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), m = 0x0800,
// m' = 0x0000).
//
// ICMP checksum verification (RFC 1122 3.2.2: a message with a bad checksum is silently
// discarded): the one's-complement sum of the whole message is accumulated as it enters
// the FIFO (per beat, in three registered stages that end as the message's last beat
// reaches the FIFO's output, so nothing waits for it) and must be 0xFFFF. A message whose
// checksum is bad, while its frame was good (no tuser), is discarded: one answered once
// entirely buffered (under 26 bytes, see below) is dropped before any reply byte leaves;
// one answered by cut-through has its reply, already under way, end with tuser=1 (the MAC
// aborts it with a bad FCS, nothing good-looking leaves). Both are counted as bad_csum.
//
// How it is cut through: at 64 bits the first message beat holds type, code and
// checksum; it is inspected without being taken, the 34-byte Ethernet+IPv4 header is
// emitted, and the beat is changed on its way through. At 8 bits the first 4 message
// bytes are taken into registers, then emitted as the last 4 header bytes (38).
//
// Not answered (consumed, counted as dropped): every message while cfg_answer is 0 (taken
// at the message's header), ICMP types other than 8, requests to a
// broadcast address, messages shorter than 8 bytes, requests that end (tlast) within their
// first 4 bytes (cut short: nothing after the type, code and checksum). A request whose
// last beat carries tuser (bad FCS, truncated) gets a reply that ends with tuser (the MAC
// aborts it on the wire), counted as aborted (whatever its checksum). Every request's
// message is counted exactly once: as dropped (not an answerable echo request), else
// aborted (frame bad), else bad_csum (checksum bad), else replies.
//
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8.
// Interfaces:
//   cfg_mac[47:0], cfg_ttl[7:0] (the reply's source IP is the request's destination),
//   cfg_answer (1: answer echo requests; 0: consume and count every message as dropped)
//   s_hdr_valid, s_hdr_ready, s_hdr_src_mac[47:0], s_hdr_src_ip[31:0], s_hdr_dst_ip[31:0],
//   s_hdr_protocol[7:0], s_hdr_len[15:0] (ICMP message bytes), s_hdr_broadcast: ip_rx's
//   ICMP header bus; s_axis_*: the ICMP message (exactly len bytes, tuser on the last beat
//   = bad); m_axis_*: reply frames.
//   cnt_ev[3:0]: event strobes, one cycle each, one cycle after the event (registered),
//     for counters kept in stat_counters (read them while rst is low): bit 0 replies,
//     bit 1 aborted, bit 2 dropped, bit 3 bad_csum (the verdicts above).
//   The message must follow its header (docs/conventions.md: the header is transferred
//   before or with the first beat); a producer that offers the next message early is
//   held (s_axis_tready = 0) while a whole message waits in the FIFO (see below).
// The message enters through a 32-byte stream_fifo; a message under 26 bytes (its request
// frame carried Ethernet padding, whose passing delays the message's last byte) is only
// answered once it is entirely in the FIFO, so that the reply never waits mid-frame.
// Latency (measured, bench/tx_latency.py): first reply byte 4 cycles after the header
// handshake at 64 bits and 8 at 8 bits when the message follows at line rate; message
// bytes then pass through. The checksum verdict relies on stream_fifo's latency of 3
// cycles (a beat written in cycle t is presented at t+3): see the checksum section below.
module icmp_echo #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,

    input  wire [47:0]       cfg_mac,
    input  wire [7:0]        cfg_ttl,
    input  wire              cfg_answer,  // 1: answer echo requests; 0: drop them

    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_src_mac,
    input  wire [31:0]       s_hdr_src_ip,
    input  wire [31:0]       s_hdr_dst_ip,
    input  wire [7:0]        s_hdr_protocol,
    input  wire [15:0]       s_hdr_len,
    input  wire              s_hdr_broadcast,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output wire [3:0]        cnt_ev
);    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            icmp_echo_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            icmp_echo_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
    endgenerate

    // 8 bits: the message's first 4 bytes (type, code, checksum) are taken into registers
    // and emitted as the reply header's last 4 bytes; 64 bits: they are in the first beat,
    // inspected without being taken and changed on their way through
    localparam CAPTURE   = (KEEP_W == 1);
    localparam HDR_BYTES = CAPTURE ? 38 : 34;  // bytes emitted before the passed part

    // The message goes through a small FIFO. A short message (one whose request frame
    // carried Ethernet padding: under 26 bytes) is answered only once it is entirely in
    // the FIFO: the receive side releases such a message's last byte only after the
    // padding has passed, and a reply already under way would have to wait for it in the
    // middle of its frame (an underflow the MAC turns into an aborted frame).
    localparam FIFO_DEPTH = 32 / KEEP_W;
    wire [DATA_W-1:0] f_tdata;
    wire [KEEP_W-1:0] f_tkeep;
    wire              f_tvalid, f_tlast, f_tuser;
    wire              f_tready;
    wire              fifo_in_ready;
    reg               fifo_closed_reg;  // a message's last beat is in the FIFO (see below)
    assign s_axis_tready = fifo_in_ready && !fifo_closed_reg;
    stream_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH)) q (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid && !fifo_closed_reg), .s_axis_tready(fifo_in_ready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
        .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser)
    );
    wire in_fire  = s_axis_tvalid && s_axis_tready;
    wire msg_done = f_tvalid && f_tready && f_tlast;  // a message's last beat leaves

    // ICMP checksum of each message, summed as it enters the FIFO. Stage 1 (cycle t, the
    // beat's handshake): the beat's 16-bit words summed (bytes without tkeep are zero; the
    // message starts at byte lane 0, so a word's high byte is at an even offset; at 8 bits a
    // byte toggles between high and low). Stage 2 (t+1): the accumulator, kept with its
    // end-around carries deferred (the sum plus its carries cannot overflow SUM_W bits).
    // Stage 3 (t+2): the test: the one's-complement sum folds to 0xFFFF exactly when its low
    // 16 bits plus its deferred carries make 0xFFFF. The verdict is written at the end of
    // cycle t+2 into a one-entry register, valid at t+3; the FIFO presents the last beat at
    // t+3 at the earliest (stream_fifo's latency), so the verdict is always there in time.
    //
    // One entry is enough because the header bus convention (docs/conventions.md: a
    // message's header is transferred before or with its first beat) and this module's
    // header handshake (taken only once the previous reply has left the engine) leave at
    // most one whole message in the FIFO: the next message's beats enter only after its
    // header, which is taken after the previous message's last beat has left the FIFO.
    // A producer that breaks the convention (offers the next message before its header
    // was taken) is held: the FIFO's input is closed (s_axis_tready = 0) while a message's
    // last beat is in the FIFO, so a verdict is never overwritten before it was used
    // (never corrupt) and the held message enters once the one before it has left (never
    // a hang: the FIFO empties whatever the next header does).
    localparam SUM_W = (KEEP_W == 1) ? 17 : 19;  // accumulator bits (16 + deferred carries)
    reg  [17:0]      beat_sum_reg;  // stage 1: the beat's word sum
    reg              beat_valid_reg, beat_last_reg, beat_user_reg;
    reg  [SUM_W-1:0] csum_acc_reg;  // stage 2: the message's sum so far
    reg  [SUM_W-1:0] csum_msg_reg;  // ... of the whole message
    reg              csum_msg_valid_reg, csum_msg_user_reg;
    reg              low_byte_reg;  // 8 bits: the next byte is a word's low byte
    reg              csum_bad_reg;  // verdict: checksum bad, frame good
    reg              verdict_reg;   // the verdict is written, not yet used
    wire [16:0] csum_fold = {1'b0, csum_msg_reg[15:0]} +
                            {{(33 - SUM_W) {1'b0}}, csum_msg_reg[SUM_W-1:16]};
    wire        csum_good = (csum_fold == 17'h0ffff);
    wire [17:0] beat_sum;
    generate
        if (KEEP_W == 1) begin : g_beat8
            assign beat_sum = low_byte_reg ? {10'd0, s_axis_tdata[7:0]} : {2'd0, s_axis_tdata[7:0], 8'd0};
        end else begin : g_beatw
            reg [17:0] sum;
            integer i;
            always @* begin
                sum = 18'd0;
                for (i = 0; i < KEEP_W / 2; i = i + 1)
                    sum = sum + {2'd0,
                                 s_axis_tkeep[2*i]   ? s_axis_tdata[16*i +: 8]     : 8'd0,
                                 s_axis_tkeep[2*i+1] ? s_axis_tdata[16*i + 8 +: 8] : 8'd0};
            end
            assign beat_sum = sum;
        end
    endgenerate
    /* verilator lint_off WIDTH */
    wire [SUM_W-1:0] csum_sum = csum_acc_reg[15:0] + csum_acc_reg[SUM_W-1:16] + beat_sum_reg;
    /* verilator lint_on WIDTH */
    always @(posedge clk) begin
        beat_valid_reg <= in_fire;
        beat_last_reg  <= in_fire && s_axis_tlast;
        beat_user_reg  <= s_axis_tuser;
        if (in_fire) begin
            beat_sum_reg <= beat_sum;
            low_byte_reg <= !low_byte_reg && !s_axis_tlast;
        end
        csum_msg_valid_reg <= beat_valid_reg && beat_last_reg;
        if (beat_valid_reg) begin
            if (beat_last_reg) begin
                csum_msg_reg      <= csum_sum;
                csum_msg_user_reg <= beat_user_reg;
                csum_acc_reg      <= {SUM_W{1'b0}};
            end else begin
                csum_acc_reg <= csum_sum;
            end
        end
        if (csum_msg_valid_reg) csum_bad_reg <= !csum_good && !csum_msg_user_reg;
        if (msg_done) verdict_reg <= 1'b0;
        if (csum_msg_valid_reg) verdict_reg <= 1'b1;
        // closed by a message's last beat entering, open again when it leaves
        if (fifo_closed_reg) begin
            if (msg_done) fifo_closed_reg <= 1'b0;
        end else if (in_fire && s_axis_tlast) begin
            fifo_closed_reg <= 1'b1;
        end
        if (rst) begin
            beat_valid_reg     <= 1'b0;
            beat_last_reg      <= 1'b0;
            csum_msg_valid_reg <= 1'b0;
            low_byte_reg       <= 1'b0;
            csum_acc_reg       <= {SUM_W{1'b0}};
            csum_bad_reg       <= 1'b0;
            verdict_reg        <= 1'b0;
            fifo_closed_reg    <= 1'b0;
        end
    end

    localparam [2:0] STATE_IDLE     = 3'd0,  // waiting for a header
                     STATE_PEEK     = 3'd1,  // 64 bits: the first beat decides the start
                     STATE_CAPTURE  = 3'd2,  // 8 bits: taking the first 4 bytes
                     STATE_CAPTURED = 3'd3,  // 8 bits: ... taken, the start is decided
                     STATE_RUN      = 3'd4;  // the engine sends the reply (or drops)
    reg  [2:0] state_reg, state_next;

    // per request
    reg  [47:0] dst_mac_reg, src_mac_reg;  // the reply's addresses
    reg  [31:0] dst_ip_reg, src_ip_reg;
    reg  [7:0]  ttl_reg;
    reg  [15:0] len_reg;     // the bytes passed through (less the captured 4 at 8 bits)
    reg  [15:0] ip_len_reg;  // the reply's IPv4 total length
    reg  [15:0] ip_id_reg;   // IPv4 identification
    reg         hdr_ok_reg;  // header acceptable (answering, ICMP, not broadcast, length >= 8)
    reg         short_reg;   // the message is under 26 bytes
    /* verilator lint_off UNUSEDSIGNAL */
    reg         first_beat_reg;  // the next message beat is the first one (64 bits)
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [1:0]  cap_count_reg;   // 8 bits: bytes captured
    wire [15:0] ip_csum;         // the reply's IPv4 header checksum (below)

    wire eng_can;
    wire eng_s_tready;
    wire cap_fire = (state_reg == STATE_CAPTURE) && f_tvalid;  // a message byte is captured
    assign s_hdr_ready = (state_reg == STATE_IDLE) && eng_can;
    wire hdr_fire = s_hdr_valid && s_hdr_ready;

    // IPv4 header checksum (ip_csum). The words summed: total length, identification,
    // 0x4500 + (TTL << 8 | protocol 1), source and destination IP, all registered at the
    // header's handshake and held until the reply has left.
    generate
        if (KEEP_W == 1) begin : g_serial
            // 8 bits: one adder, a word a cycle (first needed in reply byte 24, more than
            // 30 cycles after the header). The one-hot step (step_reg) selects the operand
            // (operand_reg, 0 outside the steps) in cycles 1-8 after the handshake (the
            // words are added in cycles 2-9); the sum is cleared in cycle 1 and its carry
            // out of bit 15 added back the next cycle (sum_carry_reg), so the sum plus its
            // carry stays congruent to the total modulo 0xffff and two cycles of zero
            // operands after the last word absorb the carries: final from cycle 12. It
            // equals the folded sum: the words include the nonzero 0x4501, and the sum
            // and its carry are never both 0 once a nonzero word has been added, so the
            // result lies in 1..0xffff, as a fold's does. A handshake restarts the steps
            // (the header before may have been taken only a few cycles earlier, when its
            // message ended within its first 4 bytes).
            reg  [7:0]  step_reg;     // one-hot: step_reg[k] in cycle k+1 (all 0 after)
            reg  [15:0] operand_reg;
            reg  [15:0] sum_reg;
            reg         sum_carry_reg;
            wire [15:0] operand = (ip_len_reg        & {16{step_reg[0]}}) |
                                  (ip_id_reg         & {16{step_reg[1]}}) |
                                  (16'h4501          & {16{step_reg[2]}}) |
                                  ({ttl_reg, 8'h00}  & {16{step_reg[3]}}) |
                                  (src_ip_reg[31:16] & {16{step_reg[4]}}) |
                                  (src_ip_reg[15:0]  & {16{step_reg[5]}}) |
                                  (dst_ip_reg[31:16] & {16{step_reg[6]}}) |
                                  (dst_ip_reg[15:0]  & {16{step_reg[7]}});
            always @(posedge clk) begin
                if (step_reg[0]) begin
                    sum_reg       <= 16'd0;
                    sum_carry_reg <= 1'b0;
                end else begin
                    {sum_carry_reg, sum_reg} <= {1'b0, sum_reg} + {1'b0, operand_reg} +
                                                {16'd0, sum_carry_reg};
                end
                step_reg    <= hdr_fire ? 8'd1 : {step_reg[6:0], 1'b0};
                operand_reg <= operand;
                if (rst) step_reg <= 8'd0;
            end
            // (the operands stay 0 after the last step, so the sum holds until the next
            // handshake)
            assign ip_csum = ~sum_reg;
        end else begin : g_parallel
            // 64 bits: in four registered steps (ready 4 cycles after the header, first
            // needed in the 4th reply beat, which is 5 cycles after it at least)
            reg  [16:0] sum_a_reg, sum_c_reg;
            reg  [17:0] sum_b_reg;
            reg  [15:0] sum_d_reg;
            reg  [18:0] sum_reg;
            reg  [16:0] fold1_reg;
            reg  [15:0] ip_csum_reg;
            wire [15:0] fold2 = fold1_reg[15:0] + {15'd0, fold1_reg[16]};
            always @(posedge clk) begin
                sum_a_reg   <= {1'b0, ip_len_reg} + {1'b0, ip_id_reg};
                // 0x4500 + (TTL << 8 | protocol 1) = (TTL + 0x45) << 8 | 1: one 8-bit adder
                sum_b_reg   <= {({1'b0, ttl_reg} + 9'h045), 8'd1} + {2'b0, src_ip_reg[31:16]};
                sum_c_reg   <= {1'b0, src_ip_reg[15:0]} + {1'b0, dst_ip_reg[31:16]};
                sum_d_reg   <= dst_ip_reg[15:0];
                sum_reg     <= {2'b0, sum_a_reg} + {1'b0, sum_b_reg} + {2'b0, sum_c_reg} +
                               {3'b0, sum_d_reg};
                fold1_reg   <= {1'b0, sum_reg[15:0]} + {14'd0, sum_reg[18:16]};
                ip_csum_reg <= ~fold2;
            end
            assign ip_csum = ip_csum_reg;
        end
    endgenerate

    // type, code and checksum: captured (8 bits) or in the first beat (64 bits)
    wire [31:0] head;
    generate
        if (CAPTURE) begin : g_capture
            reg [31:0] captured_reg;  // message bytes 0..3, byte 0 in [7:0]
            always @(posedge clk) if (cap_fire) captured_reg <= {f_tdata, captured_reg[31:8]};
            assign head = captured_reg;
        end else begin : g_peek
            assign head = f_tdata[31:0];
        end
    endgenerate
    wire        is_echo = (head[7:0] == 8'd8);
    // 64 bits: the message goes on past the peeked first beat or past its 4th byte in it (a
    // request that ends within its first 4 bytes is not answered, as the capture at 8 bits
    // finds: the capture takes those bytes, with any tlast among them)
    wire        past4 = CAPTURE || !f_tlast || f_tkeep[(KEEP_W > 4) ? 4 : 0];
    // ICMP checksum update for type 8 -> 0: HC' = ~(~HC + ~0x0800), end-around carry. At
    // 8 bits the sum is registered before its fold (the capture ends more than 30 cycles
    // before the changed bytes are sent), so each stage has one 16-bit carry chain
    wire [16:0] upd_sum = {1'b0, ~{head[23:16], head[31:24]}} + 17'h0f7ff;
    reg  [16:0] upd_sum_reg;
    always @(posedge clk) upd_sum_reg <= upd_sum;
    wire [16:0] upd_sum_used = CAPTURE ? upd_sum_reg : upd_sum;
    wire [15:0] upd_fold     = upd_sum_used[15:0] + {15'd0, upd_sum_used[16]};
    wire [15:0] reply_csum   = ~upd_fold;
    // the reply's first 4 message bytes: type 0, the code, the updated checksum
    wire [31:0] reply_head   = {reply_csum[7:0], reply_csum[15:8], head[15:8], 8'd0};
    // at 8 bits they go out as header bytes 34..37, read through the header byte select:
    // registered here (the capture ends more than 30 cycles before they are sent), which
    // keeps the checksum update's adders off the output path
    reg  [31:0] reply_head_reg;
    always @(posedge clk) reply_head_reg <= reply_head;

    always @(posedge clk) begin
        if (hdr_fire) begin
            dst_mac_reg <= s_hdr_src_mac;
            dst_ip_reg  <= s_hdr_src_ip;
            len_reg     <= CAPTURE ? (s_hdr_len - 16'd4) : s_hdr_len;
            ip_len_reg  <= s_hdr_len + 16'd20;
            short_reg   <= (s_hdr_len < 16'd26);
            hdr_ok_reg  <= cfg_answer && !s_hdr_broadcast && (s_hdr_len >= 16'd8) &&
                           (s_hdr_protocol == 8'd1);
            src_mac_reg <= cfg_mac;
            src_ip_reg  <= s_hdr_dst_ip;
            ttl_reg     <= cfg_ttl;
        end
    end

    // the engine: started once the first beat is seen (64 bits) or the first 4 bytes are
    // captured (8 bits); a message that is not an answerable echo request is dropped, and
    // a short one is answered only once its checksum verdict is written (and dropped if it
    // is bad)
    wire answerable = hdr_ok_reg && is_echo && past4;
    reg  eng_start, eng_drop, eng_bad;  // eng_bad: dropped for its checksum
    always @* begin
        eng_start = 1'b0;
        eng_drop  = 1'b0;
        eng_bad   = 1'b0;
        if ((state_reg == STATE_PEEK && f_tvalid) || state_reg == STATE_CAPTURED) begin
            eng_bad   = answerable && short_reg && csum_bad_reg;
            eng_drop  = !answerable || eng_bad;
            eng_start = !answerable || !short_reg || verdict_reg;
        end
    end

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_IDLE:     if (hdr_fire) state_next = CAPTURE ? STATE_CAPTURE : STATE_PEEK;
            STATE_PEEK:     if (eng_start) state_next = STATE_RUN;
            STATE_CAPTURE: begin
                if (cap_fire) begin
                    if (f_tlast) state_next = STATE_IDLE;  // ended too early: nothing to answer
                    else if (cap_count_reg == 2'd3) state_next = STATE_CAPTURED;
                end
            end
            STATE_CAPTURED: if (eng_start) state_next = STATE_RUN;
            STATE_RUN:      if (eng_can) state_next = STATE_IDLE;
            default:        state_next = STATE_IDLE;
        endcase
    end

    wire eng_s_tvalid = (state_reg == STATE_RUN) && f_tvalid;
    always @(posedge clk) begin
        state_reg <= state_next;
        if (hdr_fire) begin
            cap_count_reg  <= 2'd0;
            first_beat_reg <= 1'b1;
        end
        if (cap_fire) cap_count_reg <= cap_count_reg + 2'd1;
        if (eng_s_tvalid && eng_s_tready) first_beat_reg <= 1'b0;
        if (rst) state_reg <= STATE_IDLE;
    end

    // a cut-through reply whose request had a bad checksum (and a good frame) ends aborted;
    // csum_abort_reg / csum_abort tell the engine's abort event which counter it belongs to
    reg  eng_dropping_reg;  // the engine is consuming a dropped message (no event will follow)
    reg  csum_abort_reg;
    wire eng_s_tuser = f_tuser || (f_tlast && csum_bad_reg);
    wire csum_last   = eng_s_tvalid && eng_s_tready && f_tlast && csum_bad_reg && !eng_dropping_reg;
    wire csum_abort  = csum_abort_reg || csum_last;
    wire ev_sent, ev_abort;
    reg  ev_sent_reg, ev_abort_reg, ev_drop_reg, ev_bad_csum_reg;
    assign cnt_ev = {ev_bad_csum_reg, ev_drop_reg, ev_abort_reg, ev_sent_reg};
    always @(posedge clk) begin
        if (hdr_fire) ip_id_reg <= ip_id_reg + 16'd1;
        // the events are registered (one cycle late): keeps the handshakes off the
        // counters' paths
        ev_drop_reg     <= (eng_start && eng_drop && !eng_bad) || (cap_fire && f_tlast);
        ev_sent_reg     <= ev_sent;
        ev_abort_reg    <= ev_abort && !csum_abort;
        ev_bad_csum_reg <= (ev_abort && csum_abort) || (eng_start && eng_bad);
        if (eng_start) eng_dropping_reg <= eng_drop;
        if (csum_last) csum_abort_reg <= 1'b1;
        if (ev_sent || ev_abort) csum_abort_reg <= 1'b0;
        if (rst) begin
            ip_id_reg        <= 16'hffff;  // the first reply carries 0
            csum_abort_reg   <= 1'b0;
            eng_dropping_reg <= 1'b0;
            ev_sent_reg      <= 1'b0;
            ev_abort_reg     <= 1'b0;
            ev_drop_reg      <= 1'b0;
            ev_bad_csum_reg  <= 1'b0;
        end
    end

    // the reply header (38 bytes, of which HDR_BYTES are used), byte 0 in [7:0]
    /* verilator lint_off UNUSEDSIGNAL */
    wire [38*8-1:0] hdr = {
        reply_head_reg,
        dst_ip_reg[7:0], dst_ip_reg[15:8], dst_ip_reg[23:16], dst_ip_reg[31:24],
        src_ip_reg[7:0], src_ip_reg[15:8], src_ip_reg[23:16], src_ip_reg[31:24],
        ip_csum[7:0], ip_csum[15:8], 8'd1, ttl_reg,
        8'h00, 8'h00, ip_id_reg[7:0], ip_id_reg[15:8],
        ip_len_reg[7:0], ip_len_reg[15:8], 8'h00, 8'h45, 8'h00, 8'h08,
        src_mac_reg[7:0], src_mac_reg[15:8], src_mac_reg[23:16], src_mac_reg[31:24],
        src_mac_reg[39:32], src_mac_reg[47:40],
        dst_mac_reg[7:0], dst_mac_reg[15:8], dst_mac_reg[23:16], dst_mac_reg[31:24],
        dst_mac_reg[39:32], dst_mac_reg[47:40]
    };
    /* verilator lint_on UNUSEDSIGNAL */

    // the message into the engine: at 64 bits the first beat changed on its way
    wire [DATA_W-1:0] eng_s_tdata;
    generate
        if (CAPTURE) begin : g_pass
            assign eng_s_tdata = f_tdata;
        end else begin : g_change
            assign eng_s_tdata = first_beat_reg ? {f_tdata[DATA_W-1:32], reply_head} : f_tdata;
        end
    endgenerate

    // the FIFO is read by the capture (8 bits) and by the engine, which takes payload only
    // while it runs a frame (it is idle in the other states)
    assign f_tready = (state_reg == STATE_CAPTURE) || eng_s_tready;

    /* verilator lint_off UNUSEDSIGNAL */
    wire ev_long;   // cannot happen: ip_rx gives exactly len bytes
    wire eng_free;  // header registers are loaded before the engine starts, held to its end
    /* verilator lint_on UNUSEDSIGNAL */
    tx_prepend #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .HDR_BYTES(HDR_BYTES), .CHECK_LEN(1)
    ) eng (
        .clk(clk), .rst(rst),
        .start(eng_start), .start_drop(eng_drop), .start_len(len_reg), .can_start(eng_can),
        /* verilator lint_off PINCONNECTEMPTY */
        .hdr_free(eng_free), .hdr_free_nx(),  // (its next value is not used here)
        /* verilator lint_on PINCONNECTEMPTY */
        .hdr(hdr[HDR_BYTES*8-1:0]),
        .s_axis_tdata(eng_s_tdata), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(eng_s_tvalid),
        .s_axis_tready(eng_s_tready), .s_axis_tlast(f_tlast), .s_axis_tuser(eng_s_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .ev_sent(ev_sent), .ev_abort(ev_abort), .ev_long(ev_long)
    );
endmodule
`default_nettype wire
