`default_nettype none
// link_layer: transfers over a bonded link (link_tx / link_rx, 4 lanes, 32-bit words), each
// announced, accepted, checked by CRC-32 and acknowledged; an errored transfer is refused
// and sent again (bounded retries), so every transfer is delivered once and intact.
//
// Control words carry one control code on all four lanes: READY K28.0, START K28.2, END
// K28.4, ACK0 K28.6, ACK1 K27.7, NAK K29.7. A received word counts as a control word only
// with the same code on every lane and no lane error; data words have no control flag and
// no lane error; any other word is a bad word.
// Sender: transfers arrive on s_axis (1..MAX_WORDS words, tkeep contiguous from lane 0,
// all ones but on the tlast beat) into two buffers, one filling while the other is sent;
// longer ones are dropped (cnt_ev[6]). For a full buffer it sends READY and waits for
// START (READY again after TIMEOUT cycles without it), then the header word (bit 0: the
// transfer's sequence bit; bits 7..1: the sender's epoch; bits 31..16: its length in
// bytes), the payload words (the last padded with zero bytes), the CRC word (~CRC-32 of
// header and payload, as rtl/common/crc32.v computes it over the words' bytes, lane 0
// first) and END. It waits for the ACK of its sequence bit: then the transfer is done
// (cnt_ev[0]), the sequence bit flips and the buffer is free again. A NAK, TIMEOUT cycles
// without the ACK, or the link going down sends it again from READY (cnt_ev[1]); after
// MAX_RETRIES resends it is given up (cnt_ev[2]), the epoch steps on, and the buffer is
// freed.
// Receiver: two buffers, one receiving while the other is delivered. On READY with a
// buffer free it answers START and takes the header, the payload into that buffer, the
// CRC word and END; a transfer with a bad word, a word that does not belong where it came,
// a length beyond MAX_WORDS words or a wrong CRC is refused with NAK (cnt_ev[4]). A good
// one is acknowledged with ACK of its sequence bit and, when it is new (its sequence bit
// is the one expected, or its epoch differs from the last taken transfer's), kept for
// delivery on m_axis (cnt_ev[3] when its last beat is taken), the receiver noting its
// epoch and expecting the other sequence bit; otherwise it is a resend of the transfer
// taken last (its ACK was lost): acknowledged again, not kept (cnt_ev[5]). A transfer
// that stops (no word for TIMEOUT cycles, or the link going down) is abandoned without an
// answer (cnt_ev[7]); the sender's timeout resends it. A READY that arrives with both
// buffers full is answered when one is free. Replies go out before the sender's words;
// the transmitter sends idle filler when neither has a word.
// Exactly once: every acknowledged transfer is delivered exactly once; a transfer given up
// (the link failed MAX_RETRIES + 1 times in a row, counted) is delivered at most once, and
// the new epoch keeps the next transfer from being taken for a resend of it.
// Timers count clock cycles, not tick_1ms: they bound a round trip of the link itself.
//
// Ports: clk, rst (sync, active high); s_axis_tdata[31:0], s_axis_tkeep[3:0],
// s_axis_tvalid, s_axis_tready, s_axis_tlast; m_axis_* (the same, out); tx_data[31:0],
// tx_k[3:0], tx_valid, tx_ready (to link_tx's s_*); rx_data[31:0], rx_k[3:0], rx_err[3:0],
// rx_valid, link_up (from link_rx's m_*, link_up); cnt_ev[7:0] strobes: [0] a transfer
// acknowledged, [1] a transfer sent again, [2] a transfer given up, [3] a transfer
// delivered, [4] a transfer refused (NAK), [5] a resent transfer acknowledged again, not
// delivered, [6] an input transfer longer than MAX_WORDS dropped, [7] a transfer abandoned
// half received.
// Parameters (tested values): LANES 4 (only); MAX_WORDS 16..4096, a power of two (64 and
// 256 tested); MAX_RETRIES 1..255 (8, 3 and 32 tested); TIMEOUT 64..65535 cycles (256 and
// 1024 tested).
// Latency: a transfer's first word leaves a round trip (READY, START) after its last word
// arrived on s_axis; the receiver delivers it once END and its CRC are checked.
module link_layer #(
    parameter LANES = 4,
    parameter MAX_WORDS = 256,
    parameter MAX_RETRIES = 8,
    parameter TIMEOUT = 1024
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] s_axis_tdata,
    input  wire [3:0]  s_axis_tkeep,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    output wire [31:0] m_axis_tdata,
    output wire [3:0]  m_axis_tkeep,
    output wire        m_axis_tvalid,
    input  wire        m_axis_tready,
    output wire        m_axis_tlast,
    output wire [31:0] tx_data,
    output wire [3:0]  tx_k,
    output wire        tx_valid,
    input  wire        tx_ready,
    input  wire [31:0] rx_data,
    input  wire [3:0]  rx_k,
    input  wire [3:0]  rx_err,
    input  wire        rx_valid,
    input  wire        link_up,
    output wire [7:0]  cnt_ev
);
    generate
        if (LANES != 4) begin : g_check_lanes
            link_layer_LANES_must_be_4 u_error ();  // unsupported parameter (no such module)
        end
        if (MAX_WORDS != 16 && MAX_WORDS != 32 && MAX_WORDS != 64 && MAX_WORDS != 128
            && MAX_WORDS != 256 && MAX_WORDS != 512 && MAX_WORDS != 1024
            && MAX_WORDS != 2048 && MAX_WORDS != 4096) begin : g_check_max_words
            link_layer_MAX_WORDS_must_be_a_power_of_two_16_to_4096 u_error ();  // unsupported parameter
        end
        if (MAX_RETRIES < 1 || MAX_RETRIES > 255) begin : g_check_max_retries
            link_layer_MAX_RETRIES_must_be_1_to_255 u_error ();  // unsupported parameter
        end
        if (TIMEOUT < 64 || TIMEOUT > 65535) begin : g_check_timeout
            link_layer_TIMEOUT_must_be_64_to_65535 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam AW = $clog2(MAX_WORDS);
    localparam [7:0] K28_0 = 8'h1C;  // READY
    localparam [7:0] K28_2 = 8'h5C;  // START
    localparam [7:0] K28_4 = 8'h9C;  // END
    localparam [7:0] K28_6 = 8'hDC;  // ACK0
    localparam [7:0] K27_7 = 8'hFB;  // ACK1
    localparam [7:0] K29_7 = 8'hFD;  // NAK
    localparam [31:0] CRC_INIT = 32'hFFFFFFFF;
    localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;
    localparam [15:0] TIME_LAST = TIMEOUT - 1;
    localparam [7:0] RETRY_LAST = MAX_RETRIES;
    localparam [AW:0] WORDS_MAX = MAX_WORDS;

    // ------------------------------------------------------------- received word kinds
    wire       rx_same = (rx_data[31:24] == rx_data[7:0]) && (rx_data[23:16] == rx_data[7:0])
                      && (rx_data[15:8] == rx_data[7:0]);
    wire       rx_ctl = rx_valid && &rx_k && !(|rx_err) && rx_same;
    wire       rx_ready = rx_ctl && rx_data[7:0] == K28_0;
    wire       rx_start = rx_ctl && rx_data[7:0] == K28_2;
    wire       rx_end = rx_ctl && rx_data[7:0] == K28_4;
    wire       rx_ack0 = rx_ctl && rx_data[7:0] == K28_6;
    wire       rx_ack1 = rx_ctl && rx_data[7:0] == K27_7;
    wire       rx_nak = rx_ctl && rx_data[7:0] == K29_7;
    wire       rx_dat = rx_valid && !(|rx_k) && !(|rx_err);
    wire       rx_reply = rx_start || rx_ack0 || rx_ack1 || rx_nak;  // to the sender
    wire       rx_word = rx_valid && !rx_reply;                     // to the receiver

    // ---------------------------------------------------------------------- sender
    localparam [2:0] STATE_IDLE = 3'd0, STATE_READY = 3'd1, STATE_WAIT_START = 3'd2,
                     STATE_SEND = 3'd3, STATE_WAIT_ACK = 3'd4;
    localparam [1:0] PART_HDR = 2'd0, PART_DATA = 2'd1, PART_CRC = 2'd2, PART_END = 2'd3;

    // two buffers: words of buffer b at b * MAX_WORDS
    reg  [31:0]  tx_mem[0:2*MAX_WORDS-1];
    reg  [1:0]   tx_full_reg, tx_full_next;      // buffer holds a transfer to send
    reg  [AW:0]  tx_words0_reg, tx_words1_reg;  // each buffer's words
    reg  [15:0]  tx_len0_reg, tx_len1_reg;      // and length in bytes
    reg          fill_buf_reg;                   // buffer s_axis fills
    reg  [AW:0]  fill_cnt_reg, fill_cnt_next;    // words in it so far
    reg          discard_reg, discard_next;      // dropping the rest of a too long one
    reg          send_buf_reg;                   // buffer being sent
    reg  [2:0]   state_reg, state_next;
    reg  [1:0]   part_reg, part_next;
    reg  [AW:0]  send_idx_reg, send_idx_next;    // payload word being sent
    reg  [31:0]  send_q_reg;                     // tx_mem at send_buf_reg, send_idx_reg
    reg  [31:0]  send_crc_reg, send_crc_next;
    reg          seq_reg, seq_next;
    reg  [6:0]   epoch_reg, epoch_next;
    reg  [7:0]   retries_reg, retries_next;
    reg  [15:0]  send_timer_reg, send_timer_next;
    reg          acked_ev_reg, resend_ev_reg, gaveup_ev_reg, too_long_ev_reg;
    reg          acked, resend, gaveup, too_long, filled, released;
    reg          send_valid;
    reg  [31:0]  send_data;
    reg  [3:0]   send_k;

    wire         reply_pending;
    wire         send_take = send_valid && !reply_pending && tx_ready;
    wire         in_beat = s_axis_tvalid && s_axis_tready;
    wire [31:0]  keep_mask = {{8{s_axis_tkeep[3]}}, {8{s_axis_tkeep[2]}},
                              {8{s_axis_tkeep[1]}}, {8{s_axis_tkeep[0]}}};
    wire [2:0]   keep_bytes = {2'd0, s_axis_tkeep[0]} + {2'd0, s_axis_tkeep[1]}
                            + {2'd0, s_axis_tkeep[2]} + {2'd0, s_axis_tkeep[3]};
    wire         ack_mine = seq_reg ? rx_ack1 : rx_ack0;
    wire [AW:0]  send_words = send_buf_reg ? tx_words1_reg : tx_words0_reg;
    wire [15:0]  send_len = send_buf_reg ? tx_len1_reg : tx_len0_reg;
    wire [AW:0]  fill_words = fill_cnt_reg + 1'b1;
    wire [15:0]  fill_len = {{(13 - AW) {1'b0}}, fill_cnt_reg, 2'b00} + {13'd0, keep_bytes};

    wire [31:0]  send_crc_upd;
    crc32 #(.DATA_W(64)) u_send_crc (
        .crc_in(send_crc_reg), .data({32'd0, send_data}), .keep(8'h0F), .crc_out(send_crc_upd)
    );

    always @* begin
        send_valid = 1'b0;
        send_data = 32'd0;
        send_k = 4'd0;
        case (state_reg)
            STATE_READY: begin
                send_valid = link_up;
                send_data = {4{K28_0}};
                send_k = 4'hF;
            end
            STATE_SEND: begin
                send_valid = 1'b1;
                case (part_reg)
                    PART_HDR: send_data = {send_len, 8'd0, epoch_reg, seq_reg};
                    PART_DATA: send_data = send_q_reg;
                    PART_CRC: send_data = ~send_crc_reg;
                    default: begin
                        send_data = {4{K28_4}};
                        send_k = 4'hF;
                    end
                endcase
            end
            default: ;
        endcase
    end

    // filling: s_axis into the buffer fill_buf_reg
    always @* begin
        fill_cnt_next = fill_cnt_reg;
        discard_next = discard_reg;
        too_long = 1'b0;
        filled = 1'b0;
        if (in_beat) begin
            if (discard_reg || fill_cnt_reg == WORDS_MAX) begin
                too_long = s_axis_tlast;
                discard_next = !s_axis_tlast;
                fill_cnt_next = {(AW + 1) {1'b0}};
            end else if (s_axis_tlast) begin
                filled = 1'b1;
                fill_cnt_next = {(AW + 1) {1'b0}};
            end else begin
                fill_cnt_next = fill_cnt_reg + 1'b1;
            end
        end
    end

    // sending the buffer send_buf_reg
    always @* begin
        state_next = state_reg;
        part_next = part_reg;
        send_idx_next = send_idx_reg;
        send_crc_next = send_crc_reg;
        seq_next = seq_reg;
        epoch_next = epoch_reg;
        retries_next = retries_reg;
        send_timer_next = send_timer_reg;
        acked = 1'b0;
        resend = 1'b0;
        gaveup = 1'b0;
        released = 1'b0;
        case (state_reg)
            STATE_IDLE: begin
                retries_next = 8'd0;
                if (tx_full_reg[send_buf_reg]) state_next = STATE_READY;
            end
            STATE_READY: begin
                send_timer_next = 16'd0;
                if (send_take) state_next = STATE_WAIT_START;
            end
            STATE_WAIT_START: begin
                send_timer_next = send_timer_reg + 16'd1;
                if (rx_start) begin
                    state_next = STATE_SEND;
                    part_next = PART_HDR;
                    send_idx_next = {(AW + 1) {1'b0}};
                    send_crc_next = CRC_INIT;
                end else if (!link_up || send_timer_reg == TIME_LAST) begin
                    state_next = STATE_READY;
                end
            end
            STATE_SEND: begin
                send_timer_next = 16'd0;
                if (!link_up) begin
                    resend = 1'b1;
                end else if (send_take) begin
                    case (part_reg)
                        PART_HDR: begin
                            send_crc_next = send_crc_upd;
                            part_next = PART_DATA;
                        end
                        PART_DATA: begin
                            send_crc_next = send_crc_upd;
                            send_idx_next = send_idx_reg + 1'b1;
                            if (send_idx_next == send_words) part_next = PART_CRC;
                        end
                        PART_CRC: part_next = PART_END;
                        default: state_next = STATE_WAIT_ACK;
                    endcase
                end
            end
            STATE_WAIT_ACK: begin
                send_timer_next = send_timer_reg + 16'd1;
                if (ack_mine) begin
                    acked = 1'b1;
                    released = 1'b1;
                    seq_next = !seq_reg;
                end else if (rx_nak || !link_up || send_timer_reg == TIME_LAST) begin
                    resend = 1'b1;
                end
            end
            default: state_next = STATE_IDLE;
        endcase
        if (resend) begin
            if (retries_reg == RETRY_LAST) begin
                resend = 1'b0;
                gaveup = 1'b1;
                released = 1'b1;
                epoch_next = epoch_reg + 7'd1;
            end else begin
                retries_next = retries_reg + 8'd1;
                state_next = STATE_READY;
            end
        end
        if (released) state_next = STATE_IDLE;
    end

    always @* begin
        tx_full_next = tx_full_reg;
        if (filled) tx_full_next[fill_buf_reg] = 1'b1;
        if (released) tx_full_next[send_buf_reg] = 1'b0;
    end

    always @(posedge clk) begin
        if (in_beat && !discard_reg && fill_cnt_reg != WORDS_MAX) begin
            tx_mem[{fill_buf_reg, fill_cnt_reg[AW-1:0]}] <= s_axis_tdata & keep_mask;
        end
        if (filled && !fill_buf_reg) begin
            tx_words0_reg <= fill_words;
            tx_len0_reg <= fill_len;
        end
        if (filled && fill_buf_reg) begin
            tx_words1_reg <= fill_words;
            tx_len1_reg <= fill_len;
        end
        send_q_reg <= tx_mem[{send_buf_reg, send_idx_next[AW-1:0]}];
        tx_full_reg <= tx_full_next;
        fill_buf_reg <= fill_buf_reg ^ filled;
        fill_cnt_reg <= fill_cnt_next;
        discard_reg <= discard_next;
        send_buf_reg <= send_buf_reg ^ released;
        state_reg <= state_next;
        part_reg <= part_next;
        send_idx_reg <= send_idx_next;
        send_crc_reg <= send_crc_next;
        seq_reg <= seq_next;
        epoch_reg <= epoch_next;
        retries_reg <= retries_next;
        send_timer_reg <= send_timer_next;
        acked_ev_reg <= acked;
        resend_ev_reg <= resend;
        gaveup_ev_reg <= gaveup;
        too_long_ev_reg <= too_long;
        if (rst) begin
            tx_full_reg <= 2'b00;
            fill_buf_reg <= 1'b0;
            fill_cnt_reg <= {(AW + 1) {1'b0}};
            discard_reg <= 1'b0;
            send_buf_reg <= 1'b0;
            state_reg <= STATE_IDLE;
            part_reg <= PART_HDR;
            send_idx_reg <= {(AW + 1) {1'b0}};
            seq_reg <= 1'b0;
            epoch_reg <= 7'd0;
            retries_reg <= 8'd0;
            send_timer_reg <= 16'd0;
            acked_ev_reg <= 1'b0;
            resend_ev_reg <= 1'b0;
            gaveup_ev_reg <= 1'b0;
            too_long_ev_reg <= 1'b0;
        end
    end

    assign s_axis_tready = discard_reg || !tx_full_reg[fill_buf_reg];

    // -------------------------------------------------------------------- receiver
    localparam [2:0] RSTATE_IDLE = 3'd0, RSTATE_HDR = 3'd1, RSTATE_DATA = 3'd2,
                     RSTATE_CRC = 3'd3, RSTATE_END = 3'd4;

    // two buffers: words of buffer b at b * MAX_WORDS
    reg  [31:0]  rx_mem[0:2*MAX_WORDS-1];
    reg  [1:0]   rx_full_reg, rx_full_next;      // buffer holds a transfer to deliver
    reg  [14:0]  rx_words0_reg, rx_words1_reg;  // each buffer's words
    reg  [15:0]  rx_len0_reg, rx_len1_reg;      // and length in bytes
    reg          recv_buf_reg;                   // buffer being received into
    reg          out_buf_reg;                    // buffer being delivered
    reg  [2:0]   rstate_reg, rstate_next;
    reg  [14:0]  hdr_words_reg, hdr_words_next;  // payload words announced
    reg  [15:0]  hdr_len_reg, hdr_len_next;
    reg  [14:0]  rx_idx_reg, rx_idx_next;        // payload word being received
    reg  [14:0]  out_idx_reg, out_idx_next;      // word being delivered
    reg  [31:0]  out_q_reg;                      // rx_mem at out_buf_reg, out_idx_reg
    reg  [31:0]  rx_crc_reg, rx_crc_next;
    reg          rx_seq_reg, rx_seq_next;        // the transfer's sequence bit
    reg  [6:0]   rx_epoch_reg, rx_epoch_next;    // and its sender's epoch
    reg          expect_reg, expect_next;        // the sequence bit expected next
    reg  [6:0]   last_epoch_reg, last_epoch_next; // the epoch of the transfer taken last
    reg          rx_bad_reg, rx_bad_next;
    reg  [15:0]  rx_timer_reg, rx_timer_next;
    reg          ready_seen_reg, ready_seen_next; // a READY while both buffers are full
    reg          reply_reg, reply_next;
    reg  [7:0]   reply_code_reg, reply_code_next;
    reg          delivered_ev_reg, refused_ev_reg, dup_ev_reg, abandon_ev_reg;
    reg          refused, dup, abandon, kept;
    reg          rx_write;

    wire [31:0]  rx_crc_upd;
    crc32 #(.DATA_W(64)) u_rx_crc (
        .crc_in(rx_crc_reg), .data({32'd0, rx_data}), .keep(8'h0F), .crc_out(rx_crc_upd)
    );
    // payload words of a header's length: one for 0 bytes, else the bytes rounded up
    wire [14:0]  hdr_words = (rx_data[31:16] == 16'd0) ? 15'd1
                           : {1'b0, rx_data[31:18]} + {14'd0, |rx_data[17:16]};
    wire         recv_free = !rx_full_reg[recv_buf_reg];
    wire         deliver_take = m_axis_tvalid && m_axis_tready;
    wire [14:0]  out_words = out_buf_reg ? rx_words1_reg : rx_words0_reg;
    wire [15:0]  out_len = out_buf_reg ? rx_len1_reg : rx_len0_reg;
    wire         deliver_last = (out_idx_reg == out_words - 15'd1);
    wire         delivered = deliver_take && deliver_last;

    assign reply_pending = reply_reg;

    always @* begin
        rstate_next = rstate_reg;
        hdr_words_next = hdr_words_reg;
        hdr_len_next = hdr_len_reg;
        rx_idx_next = rx_idx_reg;
        rx_crc_next = rx_crc_reg;
        rx_seq_next = rx_seq_reg;
        rx_epoch_next = rx_epoch_reg;
        expect_next = expect_reg;
        last_epoch_next = last_epoch_reg;
        rx_bad_next = rx_bad_reg;
        rx_timer_next = rx_timer_reg + 16'd1;
        ready_seen_next = ready_seen_reg;
        reply_next = reply_reg && !tx_ready;
        reply_code_next = reply_code_reg;
        refused = 1'b0;
        dup = 1'b0;
        abandon = 1'b0;
        kept = 1'b0;
        rx_write = 1'b0;
        if (rx_word) rx_timer_next = 16'd0;
        case (rstate_reg)
            RSTATE_IDLE: begin
                if (rx_ready && !recv_free) ready_seen_next = 1'b1;
                if ((rx_ready || ready_seen_reg) && recv_free) begin
                    ready_seen_next = 1'b0;
                    reply_next = 1'b1;
                    reply_code_next = K28_2;
                    rx_timer_next = 16'd0;
                    rx_crc_next = CRC_INIT;
                    rstate_next = RSTATE_HDR;
                end
            end
            RSTATE_HDR: begin
                if (rx_ready) begin
                    reply_next = 1'b1;  // the sender missed our START
                    reply_code_next = K28_2;
                end else if (rx_dat) begin
                    rx_seq_next = rx_data[0];
                    rx_epoch_next = rx_data[7:1];
                    hdr_len_next = rx_data[31:16];
                    hdr_words_next = hdr_words;
                    rx_bad_next = (hdr_words > {{(14 - AW) {1'b0}}, WORDS_MAX});
                    rx_crc_next = rx_crc_upd;
                    rx_idx_next = 15'd0;
                    rstate_next = RSTATE_DATA;
                end else if (rx_word) begin
                    rstate_next = RSTATE_IDLE;  // no header: the sender's timeout resends
                end
                if (!link_up || rx_timer_reg == TIME_LAST) rstate_next = RSTATE_IDLE;
            end
            RSTATE_DATA: begin
                if (rx_word) begin
                    if (rx_end) begin
                        refused = 1'b1;
                        rstate_next = RSTATE_IDLE;
                    end else begin
                        rx_bad_next = rx_bad_reg || !rx_dat;
                        rx_write = !rx_bad_next;
                        rx_crc_next = rx_crc_upd;
                        rx_idx_next = rx_idx_reg + 15'd1;
                        if (rx_idx_next == hdr_words_reg) rstate_next = RSTATE_CRC;
                    end
                end
            end
            RSTATE_CRC: begin
                if (rx_word) begin
                    rx_bad_next = rx_bad_reg || !rx_dat || rx_crc_upd != CRC_RESIDUE;
                    rstate_next = RSTATE_END;
                    if (rx_end) begin
                        refused = 1'b1;
                        rstate_next = RSTATE_IDLE;
                    end
                end
            end
            default: begin  // RSTATE_END
                if (rx_word) begin
                    rstate_next = RSTATE_IDLE;
                    if (!rx_end || rx_bad_reg) begin
                        refused = 1'b1;
                    end else begin
                        reply_next = 1'b1;
                        reply_code_next = rx_seq_reg ? K27_7 : K28_6;
                        if (rx_seq_reg == expect_reg || rx_epoch_reg != last_epoch_reg) begin
                            expect_next = !rx_seq_reg;
                            last_epoch_next = rx_epoch_reg;
                            kept = 1'b1;
                        end else begin
                            dup = 1'b1;
                        end
                    end
                end
            end
        endcase
        if (refused) begin
            reply_next = 1'b1;
            reply_code_next = K29_7;
        end
        if ((rstate_reg == RSTATE_DATA || rstate_reg == RSTATE_CRC || rstate_reg == RSTATE_END)
            && !refused && rstate_next == rstate_reg && (!link_up || rx_timer_reg == TIME_LAST)) begin
            abandon = 1'b1;
            rstate_next = RSTATE_IDLE;
        end
    end

    always @* begin
        out_idx_next = out_idx_reg;
        if (deliver_take) out_idx_next = deliver_last ? 15'd0 : out_idx_reg + 15'd1;
        rx_full_next = rx_full_reg;
        if (kept) rx_full_next[recv_buf_reg] = 1'b1;
        if (delivered) rx_full_next[out_buf_reg] = 1'b0;
    end

    always @(posedge clk) begin
        if (rx_write) rx_mem[{recv_buf_reg, rx_idx_reg[AW-1:0]}] <= rx_data;
        if (kept && !recv_buf_reg) begin
            rx_words0_reg <= hdr_words_reg;
            rx_len0_reg <= hdr_len_reg;
        end
        if (kept && recv_buf_reg) begin
            rx_words1_reg <= hdr_words_reg;
            rx_len1_reg <= hdr_len_reg;
        end
        out_q_reg <= rx_mem[{out_buf_reg ^ delivered, out_idx_next[AW-1:0]}];
        rx_full_reg <= rx_full_next;
        recv_buf_reg <= recv_buf_reg ^ kept;
        out_buf_reg <= out_buf_reg ^ delivered;
        out_idx_reg <= out_idx_next;
        rstate_reg <= rstate_next;
        hdr_words_reg <= hdr_words_next;
        hdr_len_reg <= hdr_len_next;
        rx_idx_reg <= rx_idx_next;
        rx_crc_reg <= rx_crc_next;
        rx_seq_reg <= rx_seq_next;
        rx_epoch_reg <= rx_epoch_next;
        expect_reg <= expect_next;
        last_epoch_reg <= last_epoch_next;
        rx_bad_reg <= rx_bad_next;
        rx_timer_reg <= rx_timer_next;
        ready_seen_reg <= ready_seen_next;
        reply_reg <= reply_next;
        reply_code_reg <= reply_code_next;
        delivered_ev_reg <= delivered;
        refused_ev_reg <= refused;
        dup_ev_reg <= dup;
        abandon_ev_reg <= abandon;
        if (rst) begin
            rx_full_reg <= 2'b00;
            recv_buf_reg <= 1'b0;
            out_buf_reg <= 1'b0;
            out_idx_reg <= 15'd0;
            rstate_reg <= RSTATE_IDLE;
            rx_idx_reg <= 15'd0;
            expect_reg <= 1'b0;
            last_epoch_reg <= 7'd0;
            rx_bad_reg <= 1'b0;
            rx_timer_reg <= 16'd0;
            ready_seen_reg <= 1'b0;
            reply_reg <= 1'b0;
            reply_code_reg <= 8'd0;
            delivered_ev_reg <= 1'b0;
            refused_ev_reg <= 1'b0;
            dup_ev_reg <= 1'b0;
            abandon_ev_reg <= 1'b0;
        end
    end

    wire [1:0] last_bytes = out_len[1:0];
    assign m_axis_tdata = out_q_reg;
    assign m_axis_tvalid = rx_full_reg[out_buf_reg];
    assign m_axis_tlast = deliver_last;
    assign m_axis_tkeep = (!deliver_last || last_bytes == 2'd0) ? (out_len == 16'd0 ? 4'h0 : 4'hF)
                        : (last_bytes == 2'd1) ? 4'h1 : (last_bytes == 2'd2) ? 4'h3 : 4'h7;

    // ----------------------------------------------------------- to the transmitter
    assign tx_valid = reply_reg || send_valid;
    assign tx_data = reply_reg ? {4{reply_code_reg}} : send_data;
    assign tx_k = reply_reg ? 4'hF : send_k;

    assign cnt_ev = {abandon_ev_reg, too_long_ev_reg, dup_ev_reg, refused_ev_reg,
                     delivered_ev_reg, gaveup_ev_reg, resend_ev_reg, acked_ev_reg};
endmodule
`default_nettype wire
