`default_nettype none
// icmp_unreach: ICMP destination-unreachable / port-unreachable (type 3, code 3) for UDP
// datagrams sent to a closed port, rate-limited with tick_1ms.
//
// Input: udp_rx's closed-port strobe (one cycle, no handshake): the datagram's source MAC
// and IP, destination IP, ports, broadcast flag. Output: a whole 70-byte Ethernet frame
// (no FCS): Ethernet (to the sender's MAC, from cfg_mac), IPv4 (from the datagram's
// destination IP to its source, protocol 1, TTL cfg_ttl, total length 56, header checksum
// computed), ICMP type 3 code 3 (checksum computed, 4 unused bytes 0) quoting the
// offending datagram's IPv4 header and UDP header (RFC 792). The strobe does not carry the
// original header's identification, TTL, lengths or UDP checksum: the quote is rebuilt
// with identification 0, TTL 1, total length 28, UDP length 8 and UDP checksum 0, and a
// correct IPv4 header checksum. Receivers match the error to their socket by the quoted
// addresses, protocol and ports, which are exact.
//
// Not answered (counted: unreach_dropped): datagrams sent to a broadcast address
// (RFC 1122), strobes while a message is still going out, and strobes beyond
// cfg_unreach_per_ms messages in the current millisecond (tick_1ms period); with
// cfg_unreach_per_ms = 0 the module sends nothing.
//
// Parameters: DATA_W (8 or 64), KEEP_W = DATA_W/8.
// Interfaces:
//   tick_1ms (one-cycle strobe every millisecond), cfg_mac[47:0], cfg_ttl[7:0],
//   cfg_unreach_per_ms[7:0]
//   closed_valid, closed_src_mac[47:0], closed_src_ip[31:0], closed_dst_ip[31:0],
//   closed_src_port[15:0], closed_dst_port[15:0], closed_broadcast
//   m_axis_*: frames for the transmit arbiter
//   cnt_ev[1:0]: event strobes, one cycle each, for counters kept in stat_counters (read
//     them while rst is low): bit 0 unreach_sent (a message sent), bit 1 unreach_dropped
//     (a closed-port datagram not answered)
// Latency: the first frame byte leaves 3 cycles after the strobe.
module icmp_unreach #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,
    input  wire [47:0]       cfg_mac,
    input  wire [7:0]        cfg_ttl,
    input  wire [7:0]        cfg_unreach_per_ms,

    input  wire              closed_valid,
    input  wire [47:0]       closed_src_mac,
    input  wire [31:0]       closed_src_ip,
    input  wire [31:0]       closed_dst_ip,
    input  wire [15:0]       closed_src_port,
    input  wire [15:0]       closed_dst_port,
    input  wire              closed_broadcast,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output wire [1:0]        cnt_ev
);

    localparam [1:0] S_IDLE = 2'd0, S_SUM = 2'd1, S_GO = 2'd2, S_RUN = 2'd3;
    reg [1:0] st;

    reg [47:0] r_mac, t_mac;
    reg [31:0] r_peer, r_us;     // the datagram's source (our reply's destination), its dst
    reg [15:0] r_sport, r_dport;
    reg [7:0]  t_ttl;
    reg [7:0]  sent_ms;          // messages sent in this millisecond
    reg [15:0] ip_csum, icmp_csum, in_csum;

    wire eng_can;
    wire ev_sent;
    /* verilator lint_off UNUSEDSIGNAL */
    wire ev_abort, ev_long, s_ready;  // the engine's empty payload is always there and good
    /* verilator lint_on UNUSEDSIGNAL */

    wire allowed = (sent_ms < cfg_unreach_per_ms);
    wire take    = closed_valid && !closed_broadcast && (st == S_IDLE) && eng_can && allowed;

    function [15:0] fold(input [19:0] s);
        reg [16:0] a;
        begin
            a    = {1'b0, s[15:0]} + {13'd0, s[19:16]};
            fold = a[15:0] + {15'd0, a[16]};
        end
    endfunction

    // quoted IPv4 header: 45 00 001c 0000 0000 01 11 csum peer us
    wire [19:0] q_sum = 20'h04500 + 20'h0001c + 20'h00111
                      + {4'd0, r_peer[31:16]} + {4'd0, r_peer[15:0]}
                      + {4'd0, r_us[31:16]} + {4'd0, r_us[15:0]};
    wire [15:0] q_csum = ~fold(q_sum);
    // ICMP message: 0303 csum 0000 0000 | quoted IP header | sport dport 0008 0000
    wire [19:0] m_sum = 20'h00303 + 20'h04500 + 20'h0001c + 20'h00111 + {4'd0, in_csum}
                      + {4'd0, r_peer[31:16]} + {4'd0, r_peer[15:0]}
                      + {4'd0, r_us[31:16]} + {4'd0, r_us[15:0]}
                      + {4'd0, r_sport} + {4'd0, r_dport} + 20'h00008;
    // outer IPv4 header: 45 00 0038 0000 0000 ttl 01 csum us peer
    wire [19:0] o_sum = 20'h04500 + 20'h00038 + {4'd0, t_ttl, 8'h01}
                      + {4'd0, r_us[31:16]} + {4'd0, r_us[15:0]}
                      + {4'd0, r_peer[31:16]} + {4'd0, r_peer[15:0]};

    always @(posedge clk) begin
        if (take) begin
            r_mac   <= closed_src_mac;
            r_peer  <= closed_src_ip;
            r_us    <= closed_dst_ip;
            r_sport <= closed_src_port;
            r_dport <= closed_dst_port;
            t_mac   <= cfg_mac;
            t_ttl   <= cfg_ttl;
        end
        if (st == S_SUM) begin
            in_csum <= q_csum;
            ip_csum <= ~fold(o_sum);
        end
        if (st == S_GO) icmp_csum <= ~fold(m_sum);
    end

    assign cnt_ev = {closed_valid && !take, ev_sent};

    always @(posedge clk) begin
        case (st)
            S_IDLE: if (take) st <= S_SUM;
            S_SUM:  st <= S_GO;
            S_GO:   st <= S_RUN;
            S_RUN:  if (eng_can) st <= S_IDLE;
            default: st <= S_IDLE;
        endcase
        if (tick_1ms) sent_ms <= 8'd0;
        else if (take) sent_ms <= sent_ms + 8'd1;
        if (rst) begin
            st                  <= S_IDLE;
            sent_ms             <= 8'd0;
        end
    end

    // 70 bytes, byte 0 in [7:0]
    wire [70*8-1:0] hv = {
        8'h00, 8'h00, 8'h08, 8'h00,                                   // UDP length, csum
        r_dport[7:0], r_dport[15:8], r_sport[7:0], r_sport[15:8],
        r_us[7:0], r_us[15:8], r_us[23:16], r_us[31:24],
        r_peer[7:0], r_peer[15:8], r_peer[23:16], r_peer[31:24],
        in_csum[7:0], in_csum[15:8], 8'h11, 8'h01,                    // quoted: TTL 1, UDP
        8'h00, 8'h00, 8'h00, 8'h00, 8'h1c, 8'h00, 8'h00, 8'h45,
        8'h00, 8'h00, 8'h00, 8'h00,                                   // ICMP unused
        icmp_csum[7:0], icmp_csum[15:8], 8'h03, 8'h03,
        r_peer[7:0], r_peer[15:8], r_peer[23:16], r_peer[31:24],
        r_us[7:0], r_us[15:8], r_us[23:16], r_us[31:24],
        ip_csum[7:0], ip_csum[15:8], 8'h01, t_ttl,
        8'h00, 8'h00, 8'h00, 8'h00, 8'h38, 8'h00, 8'h00, 8'h45,
        8'h00, 8'h08,
        t_mac[7:0], t_mac[15:8], t_mac[23:16], t_mac[31:24], t_mac[39:32], t_mac[47:40],
        r_mac[7:0], r_mac[15:8], r_mac[23:16], r_mac[31:24], r_mac[39:32], r_mac[47:40]
    };

    /* verilator lint_off UNUSEDSIGNAL */
    wire eng_free;  // header registers are loaded before the engine starts, held to its end
    /* verilator lint_on UNUSEDSIGNAL */
    tx_prepend #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .HDR_BYTES(70), .CHECK_LEN(1)
    ) eng (
        .clk(clk), .rst(rst),
        .start(st == S_GO), .start_drop(1'b0), .start_len(16'd0), .can_start(eng_can),
        /* verilator lint_off PINCONNECTEMPTY */
        .hdr_free(eng_free), .hdr_free_nx(),  // (its next value is not used here)
        /* verilator lint_on PINCONNECTEMPTY */
        .hdr(hv),
        .s_axis_tdata({DATA_W{1'b0}}), .s_axis_tkeep({KEEP_W{1'b0}}), .s_axis_tvalid(1'b1),
        .s_axis_tready(s_ready), .s_axis_tlast(1'b1), .s_axis_tuser(1'b0),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .ev_sent(ev_sent), .ev_abort(ev_abort), .ev_long(ev_long)
    );
endmodule
`default_nettype wire
