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
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8.
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

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            icmp_unreach_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            icmp_unreach_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
    endgenerate

    localparam [1:0] STATE_IDLE = 2'd0,  // waiting for a closed-port strobe
                     STATE_SUM  = 2'd1,  // the quoted and outer IPv4 header checksums
                     STATE_GO   = 2'd2,  // the ICMP checksum; the engine starts
                     STATE_RUN  = 2'd3;  // the engine sends the message
    reg  [1:0]  state_reg, state_next;

    reg  [47:0] dst_mac_reg, src_mac_reg;  // the message's addresses
    reg  [31:0] peer_ip_reg;     // the datagram's source: the message's destination
    reg  [31:0] our_ip_reg;      // the datagram's destination: the message's source
    reg  [15:0] peer_port_reg, our_port_reg;  // the datagram's source and destination ports
    reg  [7:0]  ttl_reg;
    reg  [7:0]  sent_ms_reg;     // messages sent in this millisecond
    reg  [15:0] ip_csum_reg, icmp_csum_reg, quote_csum_reg;

    wire eng_can;
    wire ev_sent;
    /* verilator lint_off UNUSEDSIGNAL */
    wire ev_abort, ev_long, s_ready;  // the engine's empty payload is always there and good
    /* verilator lint_on UNUSEDSIGNAL */

    wire allowed = (sent_ms_reg < cfg_unreach_per_ms);
    wire take    = closed_valid && !closed_broadcast && (state_reg == STATE_IDLE) && eng_can &&
                   allowed;

    function [15:0] fold(input [19:0] s);
        reg [16:0] a;
        begin
            a    = {1'b0, s[15:0]} + {13'd0, s[19:16]};
            fold = a[15:0] + {15'd0, a[16]};
        end
    endfunction

    // quoted IPv4 header: 45 00 001c 0000 0000 01 11 csum peer us
    wire [19:0] quote_sum = 20'h04500 + 20'h0001c + 20'h00111
                          + {4'd0, peer_ip_reg[31:16]} + {4'd0, peer_ip_reg[15:0]}
                          + {4'd0, our_ip_reg[31:16]} + {4'd0, our_ip_reg[15:0]};
    // ICMP message: 0303 csum 0000 0000 | quoted IP header | sport dport 0008 0000
    wire [19:0] icmp_sum = 20'h00303 + 20'h04500 + 20'h0001c + 20'h00111 + {4'd0, quote_csum_reg}
                         + {4'd0, peer_ip_reg[31:16]} + {4'd0, peer_ip_reg[15:0]}
                         + {4'd0, our_ip_reg[31:16]} + {4'd0, our_ip_reg[15:0]}
                         + {4'd0, peer_port_reg} + {4'd0, our_port_reg} + 20'h00008;
    // outer IPv4 header: 45 00 0038 0000 0000 ttl 01 csum us peer
    wire [19:0] ip_sum = 20'h04500 + 20'h00038 + {4'd0, ttl_reg, 8'h01}
                       + {4'd0, our_ip_reg[31:16]} + {4'd0, our_ip_reg[15:0]}
                       + {4'd0, peer_ip_reg[31:16]} + {4'd0, peer_ip_reg[15:0]};

    always @(posedge clk) begin
        if (take) begin
            dst_mac_reg   <= closed_src_mac;
            peer_ip_reg   <= closed_src_ip;
            our_ip_reg    <= closed_dst_ip;
            peer_port_reg <= closed_src_port;
            our_port_reg  <= closed_dst_port;
            src_mac_reg   <= cfg_mac;
            ttl_reg       <= cfg_ttl;
        end
        if (state_reg == STATE_SUM) begin
            quote_csum_reg <= ~fold(quote_sum);
            ip_csum_reg    <= ~fold(ip_sum);
        end
        if (state_reg == STATE_GO) icmp_csum_reg <= ~fold(icmp_sum);
    end

    assign cnt_ev = {closed_valid && !take, ev_sent};

    always @* begin
        case (state_reg)
            STATE_IDLE: state_next = take ? STATE_SUM : STATE_IDLE;
            STATE_SUM:  state_next = STATE_GO;
            STATE_GO:   state_next = STATE_RUN;
            default:    state_next = eng_can ? STATE_IDLE : STATE_RUN;  // STATE_RUN
        endcase
    end
    always @(posedge clk) begin
        state_reg <= state_next;
        if (tick_1ms) sent_ms_reg <= 8'd0;
        else if (take) sent_ms_reg <= sent_ms_reg + 8'd1;
        if (rst) begin
            state_reg   <= STATE_IDLE;
            sent_ms_reg <= 8'd0;
        end
    end

    // 70 bytes, byte 0 in [7:0]
    wire [70*8-1:0] hdr = {
        8'h00, 8'h00, 8'h08, 8'h00,                                   // UDP length, csum
        our_port_reg[7:0], our_port_reg[15:8], peer_port_reg[7:0], peer_port_reg[15:8],
        our_ip_reg[7:0], our_ip_reg[15:8], our_ip_reg[23:16], our_ip_reg[31:24],
        peer_ip_reg[7:0], peer_ip_reg[15:8], peer_ip_reg[23:16], peer_ip_reg[31:24],
        quote_csum_reg[7:0], quote_csum_reg[15:8], 8'h11, 8'h01,      // quoted: TTL 1, UDP
        8'h00, 8'h00, 8'h00, 8'h00, 8'h1c, 8'h00, 8'h00, 8'h45,
        8'h00, 8'h00, 8'h00, 8'h00,                                   // ICMP unused
        icmp_csum_reg[7:0], icmp_csum_reg[15:8], 8'h03, 8'h03,
        peer_ip_reg[7:0], peer_ip_reg[15:8], peer_ip_reg[23:16], peer_ip_reg[31:24],
        our_ip_reg[7:0], our_ip_reg[15:8], our_ip_reg[23:16], our_ip_reg[31:24],
        ip_csum_reg[7:0], ip_csum_reg[15:8], 8'h01, ttl_reg,
        8'h00, 8'h00, 8'h00, 8'h00, 8'h38, 8'h00, 8'h00, 8'h45,
        8'h00, 8'h08,
        src_mac_reg[7:0], src_mac_reg[15:8], src_mac_reg[23:16], src_mac_reg[31:24],
        src_mac_reg[39:32], src_mac_reg[47:40],
        dst_mac_reg[7:0], dst_mac_reg[15:8], dst_mac_reg[23:16], dst_mac_reg[31:24],
        dst_mac_reg[39:32], dst_mac_reg[47:40]
    };

    /* verilator lint_off UNUSEDSIGNAL */
    wire eng_free;  // header registers are loaded before the engine starts, held to its end
    /* verilator lint_on UNUSEDSIGNAL */
    tx_prepend #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .HDR_BYTES(70), .CHECK_LEN(1)
    ) eng (
        .clk(clk), .rst(rst),
        .start(state_reg == STATE_GO), .start_drop(1'b0), .start_len(16'd0), .can_start(eng_can),
        /* verilator lint_off PINCONNECTEMPTY */
        .hdr_free(eng_free), .hdr_free_nx(),  // (its next value is not used here)
        /* verilator lint_on PINCONNECTEMPTY */
        .hdr(hdr),
        .s_axis_tdata({DATA_W{1'b0}}), .s_axis_tkeep({KEEP_W{1'b0}}), .s_axis_tvalid(1'b1),
        .s_axis_tready(s_ready), .s_axis_tlast(1'b1), .s_axis_tuser(1'b0),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .ev_sent(ev_sent), .ev_abort(ev_abort), .ev_long(ev_long)
    );
endmodule
`default_nettype wire
