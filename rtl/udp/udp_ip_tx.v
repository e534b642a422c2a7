`default_nettype none
// udp_ip_tx: zero-wait UDP/IPv4/Ethernet transmitter. Turns a UDP application-port
// request (header bus + payload stream) into a whole Ethernet frame (no FCS) for the MAC.
// The first frame byte leaves the cycle after s_hdr_valid & s_hdr_ready (when the
// destination MAC is given); nothing is buffered.
//
// How: every static header field (source MAC and IP, TTL, DF) is held in a table of
// registers loaded from the cfg_* inputs in every cycle no header is being sent; the
// request's fields are registered at the handshake. The IPv4 header checksum is formed
// after the request: at 64 bits from a static sum kept with the table, updated with the
// total length, identification and destination IP (RFC 1624) in three registered steps,
// ready 3 cycles after the request and first needed in the 4th beat; at 8 bits by one
// adder, a word a cycle, final 16 cycles after the request and first needed at byte 24.
// The event strobes follow their frame's end by one cycle (registered).
//
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8.
//
// Interfaces
//   cfg_mac[47:0], cfg_ip[31:0], cfg_ttl[7:0], cfg_df   source addresses, TTL, DF flag;
//       a change applies from the next frame (never in the middle of one).
//   s_hdr_* (UDP application port, transmit side; docs/conventions.md):
//       s_hdr_valid, s_hdr_ready, s_hdr_dst_mac[47:0], s_hdr_dst_mac_valid,
//       s_hdr_dst_ip[31:0], s_hdr_dst_port[15:0], s_hdr_src_port[15:0], s_hdr_len[15:0],
//       s_hdr_csum[15:0], s_hdr_csum_mode[1:0] (0 = checksum field 0, 1 or 2 = s_hdr_csum;
//       mode 1 "computed" is produced by udp_tx_csum in front of this module, see udp_tx)
//   s_axis_* payload, exactly s_hdr_len bytes; tuser on its last beat aborts the frame.
//       Once the frame has started the payload must follow without gaps when the MAC
//       aborts frames on underflow (or go through udp_tx_csum, which buffers it).
//   m_axis_* Ethernet frames (tuser on the last beat = aborted, the MAC sends a bad FCS)
//   arp_req_valid, arp_req_ready, arp_req_ip[31:0], arp_resp_valid, arp_resp_hit,
//   arp_resp_mac[47:0]: ARP lookup (docs/stack-internals.md), used when
//       s_hdr_dst_mac_valid = 0; a miss drops the datagram (its payload is consumed).
//   cnt_ev[3:0] event strobes, one cycle each, for counters kept in stat_counters (read
//       them while rst is low):
//     bit 0 tx_frames  frames sent good
//     bit 1 tx_abort   frames aborted (payload shorter than hdr_len, or tuser on its last beat)
//     bit 2 tx_long    payloads longer than hdr_len (frame cut at hdr_len, excess dropped)
//     bit 3 arp_miss   datagrams dropped because ARP had no entry
//
// Latency: first byte 1 cycle after the header handshake when the MAC is given; with an
// ARP lookup, 1 cycle after ARP's answer, the request reaching ARP in the handshake's
// cycle wider than 8 bits and 1 cycle later at 8 bits (so 2 and 3 cycles in all with
// ARP's one-cycle answer for a repeated destination, 4 at 8 bits in udp_stack, whose
// ARP answers a repeat in two); payload combinational. Back to back, one idle cycle
// between frames:
// s_hdr_ready is a function of registers only, so the next header is taken the cycle
// after the previous frame's last beat (the MAC cannot take data during its inter-frame
// gap and preamble, so the wire loses nothing).
module udp_ip_tx #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,

    input  wire [47:0]       cfg_mac,
    input  wire [31:0]       cfg_ip,
    input  wire [7:0]        cfg_ttl,
    input  wire              cfg_df,

    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_dst_mac,
    input  wire              s_hdr_dst_mac_valid,
    input  wire [31:0]       s_hdr_dst_ip,
    input  wire [15:0]       s_hdr_dst_port,
    input  wire [15:0]       s_hdr_src_port,
    input  wire [15:0]       s_hdr_len,
    input  wire [15:0]       s_hdr_csum,
    input  wire [1:0]        s_hdr_csum_mode,

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

    output wire              arp_req_valid,
    input  wire              arp_req_ready,
    output wire [31:0]       arp_req_ip,
    input  wire              arp_resp_valid,
    input  wire              arp_resp_hit,
    input  wire [47:0]       arp_resp_mac,

    output wire [3:0]        cnt_ev
);    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            udp_ip_tx_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            udp_ip_tx_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
    endgenerate

    // ARP lookup, one flag per step (neither: no lookup). Each is set only from the step
    // before it, so when every request carries its MAC (s_hdr_dst_mac_valid tied to 1)
    // synthesis finds both constant and removes the whole lookup path
    reg  arp_pend_reg, arp_pend_next;  // a lookup request not yet taken by ARP
    reg  arp_wait_reg, arp_wait_next;  // waiting for ARP's answer
    wire arp_idle = !arp_pend_reg && !arp_wait_reg;

    // static table: loaded from cfg_* while no header is being sent, frozen while one is
    reg  [47:0] src_mac_reg;
    reg  [31:0] src_ip_reg;
    reg  [7:0]  ttl_reg;
    reg         df_reg;

    // the request's fields
    reg  [47:0] dst_mac_reg;
    reg  [31:0] dst_ip_reg;
    reg  [15:0] src_port_reg, dst_port_reg, len_reg, udp_csum_reg;
    reg  [15:0] ip_id_reg;            // IPv4 identification
    reg  [15:0] ip_len_reg, udp_len_reg;  // hdr_len + 28, hdr_len + 8

    wire        eng_can, eng_free;
    // the request's fields and the table are loaded in every cycle in which no header is
    // being sent (an enable from registers only): in the cycle of the handshake they take
    // the request's values, and they stay frozen while its header goes out
    wire        hdr_load = arp_idle && eng_free;
    assign s_hdr_ready = hdr_load && eng_can;
    wire        hdr_fire = s_hdr_valid && s_hdr_ready;
    // hdr_len is held to the frame's end (the engine compares the payload's length with it
    // at 8 bits): loaded only while the engine is idle
    always @(posedge clk) if (arp_idle && eng_can) len_reg <= s_hdr_len;

    // IPv4 header checksum. At 8 bits the header leaves one byte a cycle, so the checksum
    // (bytes 24..25) is first sampled 24 cycles after the request at the earliest: the
    // one's-complement sum is formed serially, one 16-bit word a cycle, by one adder with
    // a deferred end-around carry (g_serial). At 64 bits it is needed within 3 cycles: a
    // precomputed static sum and an update in registered steps (g_parallel).
    wire [15:0] ip_csum;
    generate
        if (KEEP_W == 1) begin : g_serial
            // One adder, a deferred end-around carry. From the cycle after the request its
            // operand (operand_reg) takes one word a cycle, selected by the one-hot step
            // (step_reg) from frozen registers, and the adder serves in turn:
            //   steps 1-3  identification: 1 + the previous one (modulo 2^16), loaded
            //              into ip_id_reg in step 3 (the counter has no adder of its own);
            //   steps 3-7  lengths: from 0 (cleared in step 3), hdr_len, then the
            //              constants 8 and 20 (modulo 2^16): hdr_len + 8 (UDP length) is
            //              loaded in step 6, hdr_len + 28 (IPv4 total length) in step 7;
            //   steps 7-15 the IPv4 header checksum: total length, the constant words
            //              0x4500 + DF * 0x4000 + 0x0011 (version/IHL, flags, protocol),
            //              TTL << 8, identification, source IP, destination IP. The carry
            //              out of bit 15 is added back in the next cycle (sum_carry_reg):
            //              the sum plus its carry stays congruent to the total modulo
            //              0xffff, and two cycles of zero operands after the last word
            //              absorb the carries. Final from step 16 (needed from step 24),
            //              never 0 (the sum of a nonzero word never folds to 0, as with a
            //              fold).
            // Every request runs steps 1-3 at least (an ARP lookup takes 3 cycles or
            // more), so each datagram, dropped ones included, steps the identification.
            reg  [11:0] step_reg;     // one-hot: step_reg[k] in step k+1 (all 0 after)
            reg  [15:0] operand_reg;  // the adder's operand
            reg  [15:0] sum_reg;
            reg         sum_carry_reg;
            reg  [15:0] operand;      // the word of the step (an AND-OR over the one-hot
                                      // step; 0 in step 2, which adds no word)
            always @* begin
                operand = (ip_id_reg    & {16{step_reg[0] | step_reg[7]}}) |
                          (len_reg      & {16{step_reg[2]}}) |
                          (16'd8        & {16{step_reg[3]}}) |
                          (16'd20       & {16{step_reg[4]}}) |
                          ((df_reg ? 16'h8511 : 16'h4511) & {16{step_reg[5]}}) |
                          ({ttl_reg, 8'h00} & {16{step_reg[6]}}) |
                          (src_ip_reg[31:16] & {16{step_reg[8]}}) |
                          (src_ip_reg[15:0]  & {16{step_reg[9]}}) |
                          (dst_ip_reg[31:16] & {16{step_reg[10]}}) |
                          (dst_ip_reg[15:0]  & {16{step_reg[11]}});
            end
            always @(posedge clk) begin
                if (step_reg[5]) udp_len_reg <= sum_reg;  // hdr_len + 8
                if (step_reg[6]) ip_len_reg  <= sum_reg;  // hdr_len + 28
                // while no header is sent (the request's cycle included): the sum starts
                // at 0 with the operand 1 (steps 1-2 form 1 + identification)
                if (hdr_load) begin
                    step_reg    <= 12'd1;
                    operand_reg <= 16'd1;
                end else begin
                    step_reg    <= {step_reg[10:0], 1'b0};
                    operand_reg <= operand;
                end
                if (hdr_load || step_reg[2]) begin
                    sum_reg       <= 16'd0;
                    sum_carry_reg <= 1'b0;
                end else begin
                    {sum_carry_reg, sum_reg} <= {1'b0, sum_reg} + {1'b0, operand_reg} +
                                                {16'd0, sum_carry_reg};
                    // the identification and the lengths wrap modulo 2^16
                    if (step_reg[1] || step_reg[4] || step_reg[5]) sum_carry_reg <= 1'b0;
                end
                // identification: one value per datagram, the first 0
                if (step_reg[2]) ip_id_reg <= sum_reg;
                if (rst) ip_id_reg <= 16'hffff;
            end
            assign ip_csum = ~sum_reg;
        end else begin : g_parallel
            // static sum: 0x4500 + flags/fragment + TTL/protocol + source IP, loaded with
            // the table. The constant and DF words share the TTL byte's adder: 0x4500 +
            // DF * 0x4000 + (TTL << 8 | 17) = ((TTL + 0x45 + DF * 0x40) << 8) | 0x11; the
            // two source-IP words are added in parallel with it. Kept unfolded (18 bits):
            // the request-time steps below fold it with the rest.
            reg  [17:0] static_sum_reg;
            wire [8:0]  static_hi  = {1'b0, cfg_ttl} + (cfg_df ? 9'h085 : 9'h045);
            wire [16:0] static_ip  = {1'b0, cfg_ip[31:16]} + {1'b0, cfg_ip[15:0]};
            wire [17:0] static_sum = {1'b0, static_hi, 8'h11} + {1'b0, static_ip};
            // variable part: total length, identification, destination IP, added to the
            // static sum in three registered steps (ready 3 cycles after the request, first
            // needed in the 4th cycle)
            reg  [18:0] sum_a_reg;  // static sum + total length
            reg  [16:0] sum_b_reg;  // identification + destination IP high word
            reg  [15:0] sum_c_reg;  // destination IP low word
            reg  [19:0] sum_reg;
            reg  [15:0] ip_csum_reg;
            wire [16:0] fold1 = {1'b0, sum_reg[15:0]} + {13'd0, sum_reg[19:16]};
            wire [15:0] fold2 = fold1[15:0] + {15'd0, fold1[16]};
            always @(posedge clk) begin
                if (hdr_load) begin
                    static_sum_reg <= static_sum;
                    ip_len_reg     <= s_hdr_len + 16'd28;
                    udp_len_reg    <= s_hdr_len + 16'd8;
                end
                sum_a_reg   <= {1'b0, static_sum_reg} + {3'b0, ip_len_reg};
                sum_b_reg   <= {1'b0, ip_id_reg} + {1'b0, dst_ip_reg[31:16]};
                sum_c_reg   <= dst_ip_reg[15:0];
                sum_reg     <= {1'b0, sum_a_reg} + {3'b0, sum_b_reg} + {4'b0, sum_c_reg};
                ip_csum_reg <= ~fold2;
                // identification: one value per datagram, the first 0
                if (hdr_fire) ip_id_reg <= ip_id_reg + 16'd1;
                if (rst) ip_id_reg <= 16'hffff;
            end
            assign ip_csum = ip_csum_reg;
        end
    endgenerate

    always @(posedge clk) begin
        if (hdr_load) begin
            src_mac_reg  <= cfg_mac;
            src_ip_reg   <= cfg_ip;
            ttl_reg      <= cfg_ttl;
            df_reg       <= cfg_df;
            dst_ip_reg   <= s_hdr_dst_ip;
            src_port_reg <= s_hdr_src_port;
            dst_port_reg <= s_hdr_dst_port;
            udp_csum_reg <= (s_hdr_csum_mode == 2'd0) ? 16'd0 : s_hdr_csum;
        end
    end

    // destination MAC: from the request, or from ARP's answer
    always @(posedge clk) begin
        if (hdr_load) dst_mac_reg <= s_hdr_dst_mac;
        else if (arp_wait_reg && arp_resp_valid) dst_mac_reg <= arp_resp_mac;
    end

    // ARP lookup. At 64 bits the request goes to ARP in the cycle of the header handshake
    // (from the request's own IP; held in arp_pend_reg and dst_ip_reg if ARP is busy), so
    // that with ARP's one-cycle answer for a repeated destination the first byte leaves 2
    // cycles after the handshake and back-to-back frames keep 2 idle cycles between them,
    // which the MAC's FCS, gap and preamble (3 cycles at 64 bits) hide. At 8 bits the gap
    // is 24 cycles long: the request is registered first (3 cycles after the handshake in
    // all), which saves the 32-bit multiplexer.
    wire arp_req_now = hdr_fire && !s_hdr_dst_mac_valid;
    generate
        if (KEEP_W > 1) begin : g_req_early
            assign arp_req_valid = arp_pend_reg || arp_req_now;
            assign arp_req_ip    = arp_pend_reg ? dst_ip_reg : s_hdr_dst_ip;
        end else begin : g_req_reg
            assign arp_req_valid = arp_pend_reg;
            assign arp_req_ip    = dst_ip_reg;
        end
    endgenerate
    wire arp_req_fire = arp_req_valid && arp_req_ready;
    wire arp_answer   = arp_wait_reg && arp_resp_valid;

    always @* begin
        arp_pend_next = arp_pend_reg;
        arp_wait_next = arp_wait_reg;
        if (arp_req_now && !(KEEP_W > 1 && arp_req_ready)) arp_pend_next = 1'b1;
        if (arp_req_fire) begin
            arp_pend_next = 1'b0;
            arp_wait_next = 1'b1;
        end
        if (arp_answer) arp_wait_next = 1'b0;
        if (rst) begin
            arp_pend_next = 1'b0;
            arp_wait_next = 1'b0;
        end
    end
    always @(posedge clk) begin
        arp_pend_reg <= arp_pend_next;
        arp_wait_reg <= arp_wait_next;
    end

    // engine start: with the MAC given, at the handshake; else at ARP's answer (a miss
    // drops the datagram: its payload is consumed). At 8 bits the engine reads the length
    // in its first header cycle (LEN_LATE), from len_reg; at 64 bits at the start, from the
    // request or (after an ARP lookup) from len_reg
    wire        eng_start = (hdr_fire && s_hdr_dst_mac_valid) || arp_answer;
    wire        eng_drop  = arp_answer && !arp_resp_hit;
    wire [15:0] eng_len   = (arp_wait_reg || KEEP_W == 1) ? len_reg : s_hdr_len;

    // the header, byte 0 (first on the wire) in bits [7:0]
    wire [42*8-1:0] hdr_fields = {
        dst_mac_reg, src_mac_reg, 16'h0800, 8'h45, 8'h00, ip_len_reg, ip_id_reg,
        1'b0, df_reg, 6'd0, 8'h00, ttl_reg, 8'd17, ip_csum, src_ip_reg, dst_ip_reg,
        src_port_reg, dst_port_reg, udp_len_reg, udp_csum_reg
    };  // first byte in the top bits
    wire [42*8-1:0] hdr;
    genvar b;
    generate
        for (b = 0; b < 42; b = b + 1) begin : g_hdr_byte
            assign hdr[b*8 +: 8] = hdr_fields[(41 - b)*8 +: 8];
        end
    endgenerate

    wire ev_sent, ev_abort, ev_long;
    tx_prepend #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .HDR_BYTES(42), .CHECK_LEN(1),
        .LEN_LATE(KEEP_W == 1)
    ) eng (
        .clk(clk), .rst(rst),
        .start(eng_start), .start_drop(eng_drop), .start_len(eng_len), .can_start(eng_can),
        /* verilator lint_off PINCONNECTEMPTY */
        .hdr_free(eng_free), .hdr_free_nx(),  // (its next value is not used here)
        /* verilator lint_on PINCONNECTEMPTY */
        .hdr(hdr),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .ev_sent(ev_sent), .ev_abort(ev_abort), .ev_long(ev_long)
    );

    // the engine's events are registered (one cycle late): keeps the stream handshakes off
    // the counters' enable paths
    reg ev_sent_reg, ev_abort_reg, ev_long_reg;
    always @(posedge clk) begin
        ev_sent_reg  <= ev_sent;
        ev_abort_reg <= ev_abort;
        ev_long_reg  <= ev_long;
        if (rst) begin
            ev_sent_reg  <= 1'b0;
            ev_abort_reg <= 1'b0;
            ev_long_reg  <= 1'b0;
        end
    end
    assign cnt_ev = {arp_answer && !arp_resp_hit, ev_long_reg, ev_abort_reg, ev_sent_reg};
endmodule
`default_nettype wire
