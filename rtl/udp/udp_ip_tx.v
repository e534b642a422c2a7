`default_nettype none
// udp_ip_tx: zero-wait UDP/IPv4/Ethernet transmitter. Turns a UDP application-port
// request (header bus + payload stream) into a whole Ethernet frame (no FCS) for the MAC.
// The first frame byte leaves the cycle after s_hdr_valid & s_hdr_ready (when the
// destination MAC is given); nothing is buffered.
//
// How: every static header field (source MAC and IP, TTL, DF, protocol, version/IHL) is
// held in a table of registers loaded from the cfg_* inputs whenever no frame is in flight,
// together with the one's-complement sum of the static IPv4 header words. At request time
// the variable words (total length = len+28, identification, destination IP) are added to
// that sum (RFC 1624 style incremental update) in three registered steps (six below 4
// bytes a beat, where the static sum too is formed after the request): the IP header
// checksum is ready 3 (6) cycles after the request and first needed at frame byte 24 (the 4th beat at 64 bits, the 25th byte at 8 bits), so it is
// always in time. The event strobes follow their frame's end by one cycle (registered). The two length
// fields are registered at the request (hdr_len + 28, hdr_len + 8).
//
// Parameters: DATA_W (8 or 64; any multiple of 8 with KEEP_W <= 42), KEEP_W = DATA_W/8.
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
);
    // ARP lookup state, one flag per state (idle: neither): each is set only from the one
    // before it, so when every request carries its MAC (s_hdr_dst_mac_valid tied to 1)
    // synthesis finds both constant and removes the whole lookup path
    reg w_req;                      // a lookup request not yet taken by ARP
    reg w_wait;                     // waiting for the ARP response
    wire w_idle = !w_req && !w_wait;

    // static table (loaded while no frame is in flight and at each request)
    reg  [47:0] t_mac;
    reg  [31:0] t_ip;
    reg  [7:0]  t_ttl;
    reg         t_df;

    // per-request fields
    reg  [47:0] r_dmac;
    reg  [31:0] r_dip;
    reg  [15:0] r_sport, r_dport, r_len, r_ucsum, r_id;
    reg  [15:0] tot_len, udp_len;

    wire        eng_can, eng_free, eng_free_nx;
    wire        hdr_fire = s_hdr_valid && s_hdr_ready;
    reg         idle_q;  // w_idle && eng_free, as a flip-flop (below)
    assign s_hdr_ready = idle_q && eng_can;
    // the request's fields and the table are loaded in every cycle in which no header is
    // being sent (an enable from registers only): in the cycle of the handshake they take
    // the request's values, and they stay frozen while its header goes out
    wire        idle_load = w_idle && eng_free;
    // the same as a flip-flop of its own, idle_q, loaded with its next value: it makes
    // s_hdr_ready (one gate of two flip-flops) and loads the registers whose other load
    // comes late in the cycle (at 8 bits the serial checksum's clear: its ~45 loads; not
    // the ~300 others, nor ARP's MAC at 8 bits, so that no high-fanout net of this module
    // outranks the receive side's for nextpnr's globals)
    wire        w_req_nx, w_wait_nx;
    always @(posedge clk) idle_q <= !w_req_nx && !w_wait_nx && eng_free_nx;
    // hdr_len is held to the frame's end (the engine compares the payload's length with it
    // at 8 bits): loaded only while the engine is idle
    always @(posedge clk) if (w_idle && eng_can) r_len <= s_hdr_len;

    // IPv4 header checksum. At 8 bits the header leaves one byte a cycle, so the checksum
    // (bytes 24..25) is first sampled 24 cycles after the request at the earliest: the
    // one's-complement sum is formed serially, one 16-bit word a cycle, by one adder with
    // a deferred end-around carry (g_ser). Wider paths need it within 3 cycles and keep the
    // precomputed static sum and the RFC 1624 update below (g_par).
    wire [15:0] ip_csum;
    generate
        if (KEEP_W == 1) begin : g_ser
            // One adder, a deferred end-around carry. From the cycle after the request its
            // operand (op, registered) takes one word a cycle, selected one-hot (q) from
            // frozen registers, and the adder serves in turn:
            //   cycles 1-3  identification: 1 + the previous one (modulo 2^16), loaded
            //               into r_id in cycle 3 (the counter has no adder of its own);
            //   cycles 3-7  lengths: from 0 (cleared in cycle 3), hdr_len, then the
            //               constants 8 and 20 (modulo 2^16): hdr_len + 8 (UDP length) is
            //               loaded in cycle 6, hdr_len + 28 (IPv4 total length) in cycle 7;
            //   cycles 7-15 the IPv4 header checksum: total length, the constant words
            //               0x4500 + DF * 0x4000 + 0x0011 (version/IHL, flags, protocol),
            //               TTL << 8, identification, source IP, destination IP. The carry
            //               out of bit 15 is added back in the next cycle (cy): acc + cy
            //               stays congruent to the sum modulo 0xffff, and two cycles of
            //               zero operands after the last word absorb the carries. Final
            //               from cycle 16 (needed from cycle 24), never 0 (the sum of a
            //               nonzero word never folds to 0, as with a fold).
            // The accumulator's flip-flops are all cleared together (while idle and in
            // cycle 3) and have no enable, so they pack with the carry chain (one column,
            // no routing between its cells).
            // Every request runs cycles 1-3 at least (an ARP lookup takes 3 cycles or
            // more), so each datagram, dropped ones included, steps the identification.
            reg  [11:0] q;
            reg  [15:0] op, acc;
            reg         cy;
            // the operand word selected by q (0 when q is 0): a function called only while
            // a header is sent (not idle_load), so that a cycle-based simulator forms the
            // AND-OR only then (same logic)
            /* verilator lint_off UNUSEDSIGNAL */
            function [15:0] op_of(input [11:0] o);  // o[1] selects no word
            /* verilator lint_on UNUSEDSIGNAL */
                reg [15:0] w_8, w_20, w_c;
                begin
                    w_8   = 16'h0008 & {16{o[3]}};
                    w_20  = 16'h0014 & {16{o[4]}};
                    w_c   = {o[5] & t_df, o[5] & !t_df, 3'd0, o[5], 1'b0, o[5], 3'd0, o[5],
                             3'd0, o[5]};  // 0x4511 + DF * 0x4000
                    op_of = (r_id & {16{o[0] | o[7]}}) | (r_len & {16{o[2]}}) | w_8 | w_20 |
                            w_c | ({t_ttl, 8'h00} & {16{o[6]}}) | (t_ip[31:16] & {16{o[8]}}) |
                            (t_ip[15:0] & {16{o[9]}}) | (r_dip[31:16] & {16{o[10]}}) |
                            (r_dip[15:0] & {16{o[11]}});
                end
            endfunction
            // (written as if/else on the clears, which override the rest: the same logic,
            // and a cycle-based simulator forms the operand and the sum only while a
            // header is sent)
            always @(posedge clk) begin
                if (q[5]) udp_len <= acc;  // hdr_len + 8
                if (q[6]) tot_len <= acc;  // hdr_len + 28
                // while no header is sent (the request's cycle included): the sum starts
                // at 0 with the operand 1 (cycles 1-2 form 1 + identification)
                if (idle_q) begin
                    q  <= 12'd1;
                    op <= 16'd1;
                end else begin
                    q  <= {q[10:0], 1'b0};
                    op <= op_of(q);
                end
                if (idle_q || q[2]) begin
                    acc <= 16'd0;
                    cy  <= 1'b0;
                end else begin
                    {cy, acc} <= {1'b0, acc} + {1'b0, op} + {16'd0, cy};
                    if (q[1] || q[4] || q[5]) cy <= 1'b0;  // the counter and lengths wrap
                end
            end
            // identification: one value per datagram, the first 0
            always @(posedge clk) begin
                if (q[2]) r_id <= acc;
                if (rst) r_id <= 16'hffff;
            end
            assign ip_csum = ~acc;
        end else begin : g_par
            // static sum: 0x4500 + flags/fragment + TTL/protocol + source IP. The constant
            // and DF words share the TTL byte's adder: 0x4500 + DF * 0x4000 + (TTL << 8 | 17)
            // = ((TTL + 0x45 + DF * 0x40) << 8) | 0x11; the two source-IP words are added
            // in parallel with it. Kept unfolded (18 bits): the request-time steps below
            // fold it with the rest. Below 4 bytes a beat it is computed from the table
            // registers (frozen from the request on) in two registered steps, off the
            // configuration inputs' paths (ready 2 cycles after the request, the checksum
            // 6); wider, it is loaded with the table.
            reg [17:0] t_sum;  // one's-complement sum of the static words (unfolded)
            if (KEEP_W < 4) begin : g_sum_tab
                reg [8:0]  th_r;
                reg [16:0] ti_r;
                always @(posedge clk) begin
                    th_r  <= {1'b0, t_ttl} + (t_df ? 9'h085 : 9'h045);
                    ti_r  <= {1'b0, t_ip[31:16]} + {1'b0, t_ip[15:0]};
                    t_sum <= {1'b0, th_r, 8'h11} + {1'b0, ti_r};
                end
            end else begin : g_sum_cfg
                wire [8:0]  st_hi  = {1'b0, cfg_ttl} + (cfg_df ? 9'h085 : 9'h045);
                wire [16:0] st_ip  = {1'b0, cfg_ip[31:16]} + {1'b0, cfg_ip[15:0]};
                wire [17:0] st_sum = {1'b0, st_hi, 8'h11} + {1'b0, st_ip};
                always @(posedge clk) if (idle_load) t_sum <= st_sum;
            end
            // variable part: total length, identification, destination IP, added to the
            // static sum in three registered steps (ready 3 cycles after the request, first
            // needed in the 4th cycle at 64 bits); below 4 bytes a beat the first fold is
            // registered too (one carry chain per stage)
            reg  [18:0] v_a;
            reg  [16:0] v_b;
            reg  [15:0] v_c;
            reg  [19:0] v_s;
            reg  [16:0] v_f1r;
            reg  [15:0] csum_r;
            wire [16:0] v_f1c = {1'b0, v_s[15:0]} + {13'd0, v_s[19:16]};
            wire [16:0] v_f1  = (KEEP_W < 4) ? v_f1r : v_f1c;
            wire [15:0] v_f2  = v_f1[15:0] + {15'd0, v_f1[16]};
            // identification: one value per datagram, the first 0
            always @(posedge clk) begin
                if (hdr_fire) r_id <= r_id + 16'd1;
                if (rst) r_id <= 16'hffff;
            end
            always @(posedge clk) begin
                if (idle_load) begin
                    tot_len <= s_hdr_len + 16'd28;
                    udp_len <= s_hdr_len + 16'd8;
                end
                v_a    <= {1'b0, t_sum} + {3'b0, tot_len};
                v_b    <= {1'b0, r_id} + {1'b0, r_dip[31:16]};
                v_c    <= r_dip[15:0];
                v_s    <= {1'b0, v_a} + {3'b0, v_b} + {4'b0, v_c};
                v_f1r  <= v_f1c;
                csum_r <= ~v_f2;
            end
            assign ip_csum = csum_r;
        end
    endgenerate

    always @(posedge clk) begin
        if (idle_load) begin
            t_mac <= cfg_mac;
            t_ip  <= cfg_ip;
            t_ttl <= cfg_ttl;
            t_df  <= cfg_df;
        end
    end

    wire [15:0] ucs = (s_hdr_csum_mode == 2'd0) ? 16'd0 : s_hdr_csum;
    always @(posedge clk) begin
        if (idle_load) begin
            r_dip   <= s_hdr_dst_ip;
            r_sport <= s_hdr_src_port;
            r_dport <= s_hdr_dst_port;
            r_ucsum <= ucs;
        end
    end

    // destination MAC: from the request, or from the ARP lookup. At 8 bits the two are
    // kept in two registers, the unused one cleared, and ORed (the OR rides in the header
    // byte select, cheaper than a 2:1 multiplexer in front of one register). ARP's MAC is
    // loaded in every cycle of the wait, so the last load is the answer's (the enable is
    // one LUT of flip-flops, not the answer's handshake); after a miss the datagram is
    // dropped and the register is never read
    wire [47:0] dmac;
    generate
        if (KEEP_W == 1) begin : g_dmac_or
            reg [47:0] a_dmac;
            always @(posedge clk) begin
                if (idle_load) r_dmac <= s_hdr_dst_mac_valid ? s_hdr_dst_mac : 48'd0;
                if (idle_load) a_dmac <= 48'd0;
                else if (w_wait) a_dmac <= arp_resp_mac;
            end
            assign dmac = r_dmac | a_dmac;
        end else begin : g_dmac_mux
            always @(posedge clk) begin
                if (idle_q) r_dmac <= s_hdr_dst_mac;
                else if (w_wait) r_dmac <= arp_resp_mac;
            end
            assign dmac = r_dmac;
        end
    endgenerate

    // ARP lookup
    reg eng_start, eng_drop;
    reg [15:0] eng_len;
    // Wider than 8 bits the request goes to ARP in the cycle of the header handshake
    // (from the request's own IP; held in w_req and r_dip if ARP is busy), so that with
    // ARP's one-cycle answer for a repeated destination the first byte leaves 2 cycles
    // after the handshake and back-to-back frames keep 2 idle cycles between them, which
    // the MAC's FCS, gap and preamble (3 cycles at 64 bits) hide. At 8 bits the gap is 24
    // cycles long: the request is registered first (3 cycles after the handshake in all),
    // which saves the 32-bit multiplexer.
    wire req_now = hdr_fire && !s_hdr_dst_mac_valid;
    generate
        if (KEEP_W > 1) begin : g_req_early
            assign arp_req_valid = w_req || req_now;
            assign arp_req_ip    = w_req ? r_dip : s_hdr_dst_ip;
        end else begin : g_req_reg
            assign arp_req_valid = w_req;
            assign arp_req_ip    = r_dip;
        end
    endgenerate
    always @* begin
        eng_start = 1'b0;
        eng_drop  = 1'b0;
        eng_len   = s_hdr_len;
        if (hdr_fire && s_hdr_dst_mac_valid) eng_start = 1'b1;
        // at 8 bits the engine reads the length in its first header cycle (LEN_LATE),
        // when r_len holds it; wider, at the start, from the request or (after an ARP
        // lookup) from r_len, selected by a register only
        if (w_wait || KEEP_W == 1) eng_len = r_len;
        if (w_wait && arp_resp_valid) begin
            eng_start = 1'b1;
            eng_drop  = !arp_resp_hit;
        end
    end

    always @(posedge clk) begin
        if (req_now && !(KEEP_W > 1 && arp_req_ready)) w_req <= 1'b1;
        if (arp_req_valid && arp_req_ready) begin
            w_req  <= 1'b0;
            w_wait <= 1'b1;
        end
        if (w_wait && arp_resp_valid) w_wait <= 1'b0;
        if (rst) begin
            w_wait <= 1'b0;
            w_req  <= 1'b0;
        end
    end
    // the same registers' next values, for idle_q's (written apart from the registers
    // above: in that form, with s_hdr_dst_mac_valid tied to 1, synthesis still finds both
    // constant and removes the lookup path; as their D inputs it does not)
    assign w_req_nx  = !rst && !(arp_req_valid && arp_req_ready) &&
                       (w_req || (req_now && !(KEEP_W > 1 && arp_req_ready)));
    assign w_wait_nx = !rst && !(w_wait && arp_resp_valid) &&
                       (w_wait || (arp_req_valid && arp_req_ready));

    // the header: at 8 bits byte 0 in the top bits (tx_prepend's HDR_MSB: the big-endian
    // fields concatenated as they are), wider byte 0 in bits [7:0]
    wire [42*8-1:0] hdr_be = {
        dmac, t_mac, 16'h0800, 8'h45, 8'h00, tot_len, r_id, 1'b0, t_df, 6'd0, 8'h00,
        t_ttl, 8'd17, ip_csum, t_ip, r_dip, r_sport, r_dport, udp_len, r_ucsum
    };
    wire [42*8-1:0] hdr;
    generate
        if (KEEP_W == 1) begin : g_hdr_be
            assign hdr = hdr_be;
        end else begin : g_hdr_le
            genvar hb;
            for (hb = 0; hb < 42; hb = hb + 1) begin : g_b
                assign hdr[hb*8 +: 8] = hdr_be[(41 - hb)*8 +: 8];
            end
        end
    endgenerate

    wire ev_sent, ev_abort, ev_long;
    reg  ev_sent_r, ev_abort_r, ev_long_r;
    tx_prepend #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .HDR_BYTES(42), .CHECK_LEN(1),
        .LEN_LATE(KEEP_W == 1), .HDR_MSB(KEEP_W == 1)
    ) eng (
        .clk(clk), .rst(rst),
        .start(eng_start), .start_drop(eng_drop), .start_len(eng_len), .can_start(eng_can),
        .hdr_free(eng_free), .hdr_free_nx(eng_free_nx),
        .hdr(hdr),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .ev_sent(ev_sent), .ev_abort(ev_abort), .ev_long(ev_long)
    );

    assign cnt_ev = {w_wait && arp_resp_valid && !arp_resp_hit, ev_long_r, ev_abort_r,
                     ev_sent_r};

    always @(posedge clk) begin
        // the engine's events are registered before they count (one cycle late): keeps
        // the stream handshakes off the counters' enable paths
        ev_sent_r  <= ev_sent;
        ev_abort_r <= ev_abort;
        ev_long_r  <= ev_long;
        if (rst) begin
            ev_sent_r     <= 1'b0;
            ev_abort_r    <= 1'b0;
            ev_long_r     <= 1'b0;
        end
    end
endmodule
`default_nettype wire
