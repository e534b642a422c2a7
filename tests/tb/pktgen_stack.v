`default_nettype none
// pktgen_stack: the packet generator on a port of the UDP/IP stack, for benchmarks and
// end-to-end tests of the generator with ARP, IPv4 and UDP framing.
//
// pktgen (flat destination table) drives UDP transmit port 0 of udp_stack (one port,
// number cfg_src_port, checksum mode 0); the stack's MAC user side is the module's
// s_axis_* (frames in: ARP replies) and m_axis_* (frames out, no FCS). The stack's
// receive ports and raw channel are terminated (always ready, nothing sent).
//
// Interfaces: clk, rst, tick_1ms; generator control and configuration (as pktgen);
// stack configuration cfg_mac, cfg_ip, cfg_netmask, cfg_gateway; MAC user side;
// counters gen_cnt_* (generator) and stk_cnt_* (stack: frames sent, datagrams sent and
// aborted on the port, dropped for want of ARP, ARP requests sent and replies taken).
//
// Latency: pktgen's, then udp_stack's (docs/transmitter.md).
//
// Parameters: DATA_W (8 or 64), KEEP_W = DATA_W/8.

module pktgen_stack #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,

    input  wire              start,
    input  wire              stop,
    output wire              busy,
    input  wire [15:0]       cfg_len,
    input  wire [31:0]       cfg_count,
    input  wire [31:0]       cfg_gap,
    input  wire [4:0]        cfg_ndst,
    input  wire              cfg_lfsr,
    input  wire [7:0]        cfg_fill,
    input  wire [15:0]       cfg_src_port,
    input  wire [15:0]       cfg_warmup_ms,
    input  wire [511:0]      cfg_dst_ip_all,
    input  wire [255:0]      cfg_dst_port_all,

    input  wire [47:0]       cfg_mac,
    input  wire [31:0]       cfg_ip,
    input  wire [31:0]       cfg_netmask,
    input  wire [31:0]       cfg_gateway,

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

    output wire [31:0]       gen_cnt_packets,
    output wire [31:0]       gen_cnt_bytes,
    output wire [31:0] stk_cnt_tx_frames,
    output wire [31:0] stk_cnt_udp_tx_frames,
    output wire [31:0] stk_cnt_udp_tx_arp_miss,
    output wire [31:0] stk_cnt_udp_tx_abort,
    output wire [31:0] stk_cnt_arp_req_tx,
    output wire [31:0] stk_cnt_arp_reply_rx,
    output wire [31:0] stk_cnt_udp_tx_long
);

    wire              g_hdr_valid, g_hdr_ready, g_hdr_dst_mac_valid;
    wire [47:0]       g_hdr_dst_mac;
    wire [31:0]       g_hdr_dst_ip;
    wire [15:0]       g_hdr_dst_port, g_hdr_src_port, g_hdr_len, g_hdr_csum;
    wire [DATA_W-1:0] g_tdata;
    wire [KEEP_W-1:0] g_tkeep;
    wire              g_tvalid, g_tready, g_tlast, g_tuser;

    /* verilator lint_off UNUSED */
    // Stack outputs a transmit-only benchmark does not look at.
    wire [63:0] g_round;
    wire u_m_udp_rx_hdr_valid;
    wire [48-1:0] u_m_udp_rx_hdr_src_mac;
    wire [32-1:0] u_m_udp_rx_hdr_src_ip;
    wire [16-1:0] u_m_udp_rx_hdr_src_port;
    wire [16-1:0] u_m_udp_rx_hdr_dst_port;
    wire [16-1:0] u_m_udp_rx_hdr_len;
    wire [DATA_W-1:0] u_m_udp_rx_axis_tdata;
    wire [KEEP_W-1:0] u_m_udp_rx_axis_tkeep;
    wire u_m_udp_rx_axis_tvalid;
    wire u_m_udp_rx_axis_tlast;
    wire u_m_udp_rx_axis_tuser;
    wire u_m_raw_rx_hdr_valid;
    wire [47:0] u_m_raw_rx_hdr_dst_mac;
    wire [47:0] u_m_raw_rx_hdr_src_mac;
    wire [DATA_W-1:0] u_m_raw_rx_axis_tdata;
    wire [KEEP_W-1:0] u_m_raw_rx_axis_tkeep;
    wire u_m_raw_rx_axis_tvalid;
    wire u_m_raw_rx_axis_tlast;
    wire u_m_raw_rx_axis_tuser;
    wire u_s_raw_tx_hdr_ready;
    wire u_s_raw_tx_axis_tready;
    wire [31:0] u_cnt_eth_rx_frames;
    wire [31:0] u_cnt_eth_bad_mac;
    wire [31:0] u_cnt_eth_bad_ethertype;
    wire [31:0] u_cnt_eth_runt;
    wire [31:0] u_cnt_ip_rx_packets;
    wire [31:0] u_cnt_ip_runt;
    wire [31:0] u_cnt_ip_bad_hdr;
    wire [31:0] u_cnt_ip_bad_csum;
    wire [31:0] u_cnt_ip_bad_len;
    wire [31:0] u_cnt_ip_not_for_us;
    wire [31:0] u_cnt_ip_fragment;
    wire [31:0] u_cnt_ip_bad_proto;
    wire [31:0] u_cnt_ip_truncated;
    wire [31:0] u_cnt_udp_rx_datagrams;
    wire [31:0] u_cnt_udp_bad_len;
    wire [31:0] u_cnt_udp_closed_port;
    wire [31:0] u_cnt_udp_bad_csum;
    wire [31:0] u_cnt_udp_err_in;
    wire [31:0] u_cnt_udp_oversize;
    wire [31:0] u_cnt_udp_busy_drop;
    wire [31:0] u_cnt_icmp_replies;
    wire [31:0] u_cnt_icmp_aborted;
    wire [31:0] u_cnt_icmp_dropped;
    wire [31:0] u_cnt_icmp_bad_csum;
    wire [31:0] u_cnt_icmp_unreach_sent;
    wire [31:0] u_cnt_icmp_unreach_dropped;
    wire [31:0] u_cnt_arp_req_rx;
    wire [31:0] u_cnt_arp_reply_tx;
    wire [31:0] u_cnt_arp_garp_tx;
    wire [31:0] u_cnt_arp_malformed;
    wire [31:0] u_cnt_arp_rx_overrun;
    wire [31:0] u_cnt_arp_hit;
    wire [31:0] u_cnt_arp_miss;
    wire [31:0] u_cnt_arp_timeout;
    wire [31:0] u_cnt_arp_expired;
    wire [31:0] u_cnt_arp_evicted;
    wire [31:0] u_cnt_arp_conflict;
    wire [31:0] u_cnt_raw_tx_frames;
    wire [31:0] u_cnt_raw_tx_abort;
    wire [32-1:0] u_cnt_udp_tx_sf_overflow;
    /* verilator lint_on UNUSED */

    pktgen #(.DATA_W(DATA_W), .DST_RAM(0)) u_gen (
        .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .ts_in(64'd0), .cyc_in(64'd0),
        .start(start), .stop(stop), .busy(busy),
        .cfg_len(cfg_len), .cfg_count(cfg_count), .cfg_gap(cfg_gap), .cfg_ndst(cfg_ndst),
        .cfg_lfsr(cfg_lfsr), .cfg_fill(cfg_fill), .cfg_ts_ext(1'b0),
        .cfg_src_port(cfg_src_port), .cfg_warmup_ms(cfg_warmup_ms),
        .cfg_dst_we(1'b0), .cfg_dst_addr(4'd0), .cfg_dst_ip(32'd0), .cfg_dst_port(16'd0),
        .cfg_dst_ip_all(cfg_dst_ip_all), .cfg_dst_port_all(cfg_dst_port_all),
        .cnt_packets(gen_cnt_packets), .cnt_bytes(gen_cnt_bytes), .status_round(g_round),
        .m_hdr_valid(g_hdr_valid), .m_hdr_ready(g_hdr_ready),
        .m_hdr_dst_mac(g_hdr_dst_mac), .m_hdr_dst_mac_valid(g_hdr_dst_mac_valid),
        .m_hdr_dst_ip(g_hdr_dst_ip), .m_hdr_dst_port(g_hdr_dst_port),
        .m_hdr_src_port(g_hdr_src_port), .m_hdr_len(g_hdr_len), .m_hdr_csum(g_hdr_csum),
        .m_axis_tdata(g_tdata), .m_axis_tkeep(g_tkeep), .m_axis_tvalid(g_tvalid),
        .m_axis_tready(g_tready), .m_axis_tlast(g_tlast), .m_axis_tuser(g_tuser)
    );

    udp_stack #(.DATA_W(DATA_W), .NUM_PORTS(1), .ICMP_UNREACH(0)) u_stack (
        .clk(clk),
        .rst(rst),
        .tick_1ms(tick_1ms),
        .cfg_mac(cfg_mac),
        .cfg_ip(cfg_ip),
        .cfg_netmask(cfg_netmask),
        .cfg_gateway(cfg_gateway),
        .cfg_ttl(8'd64),
        .cfg_df(1'b1),
        .cfg_raw_ethertype(16'h88B5),
        .cfg_udp_port(cfg_src_port),
        .cfg_udp_csum_mode(2'd0),
        .cfg_unreach_per_ms(8'd0),
        .s_axis_tdata(s_axis_tdata),
        .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast),
        .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast),
        .m_axis_tuser(m_axis_tuser),
        .m_udp_rx_hdr_valid(u_m_udp_rx_hdr_valid),
        .m_udp_rx_hdr_ready(1'b1),
        .m_udp_rx_hdr_src_mac(u_m_udp_rx_hdr_src_mac),
        .m_udp_rx_hdr_src_ip(u_m_udp_rx_hdr_src_ip),
        .m_udp_rx_hdr_src_port(u_m_udp_rx_hdr_src_port),
        .m_udp_rx_hdr_dst_port(u_m_udp_rx_hdr_dst_port),
        .m_udp_rx_hdr_len(u_m_udp_rx_hdr_len),
        .m_udp_rx_axis_tdata(u_m_udp_rx_axis_tdata),
        .m_udp_rx_axis_tkeep(u_m_udp_rx_axis_tkeep),
        .m_udp_rx_axis_tvalid(u_m_udp_rx_axis_tvalid),
        .m_udp_rx_axis_tready(1'b1),
        .m_udp_rx_axis_tlast(u_m_udp_rx_axis_tlast),
        .m_udp_rx_axis_tuser(u_m_udp_rx_axis_tuser),
        .s_udp_tx_hdr_valid(g_hdr_valid),
        .s_udp_tx_hdr_ready(g_hdr_ready),
        .s_udp_tx_hdr_dst_mac(g_hdr_dst_mac),
        .s_udp_tx_hdr_dst_mac_valid(g_hdr_dst_mac_valid),
        .s_udp_tx_hdr_dst_ip(g_hdr_dst_ip),
        .s_udp_tx_hdr_dst_port(g_hdr_dst_port),
        .s_udp_tx_hdr_src_port(g_hdr_src_port),
        .s_udp_tx_hdr_len(g_hdr_len),
        .s_udp_tx_hdr_csum(g_hdr_csum),
        .s_udp_tx_axis_tdata(g_tdata),
        .s_udp_tx_axis_tkeep(g_tkeep),
        .s_udp_tx_axis_tvalid(g_tvalid),
        .s_udp_tx_axis_tready(g_tready),
        .s_udp_tx_axis_tlast(g_tlast),
        .s_udp_tx_axis_tuser(g_tuser),
        .m_raw_rx_hdr_valid(u_m_raw_rx_hdr_valid),
        .m_raw_rx_hdr_ready(1'b1),
        .m_raw_rx_hdr_dst_mac(u_m_raw_rx_hdr_dst_mac),
        .m_raw_rx_hdr_src_mac(u_m_raw_rx_hdr_src_mac),
        .m_raw_rx_axis_tdata(u_m_raw_rx_axis_tdata),
        .m_raw_rx_axis_tkeep(u_m_raw_rx_axis_tkeep),
        .m_raw_rx_axis_tvalid(u_m_raw_rx_axis_tvalid),
        .m_raw_rx_axis_tready(1'b1),
        .m_raw_rx_axis_tlast(u_m_raw_rx_axis_tlast),
        .m_raw_rx_axis_tuser(u_m_raw_rx_axis_tuser),
        .s_raw_tx_hdr_valid(1'b0),
        .s_raw_tx_hdr_ready(u_s_raw_tx_hdr_ready),
        .s_raw_tx_hdr_dst_mac(48'd0),
        .s_raw_tx_axis_tdata({DATA_W{1'b0}}),
        .s_raw_tx_axis_tkeep({KEEP_W{1'b0}}),
        .s_raw_tx_axis_tvalid(1'b0),
        .s_raw_tx_axis_tready(u_s_raw_tx_axis_tready),
        .s_raw_tx_axis_tlast(1'b0),
        .s_raw_tx_axis_tuser(1'b0),
        .cnt_eth_rx_frames(u_cnt_eth_rx_frames),
        .cnt_eth_bad_mac(u_cnt_eth_bad_mac),
        .cnt_eth_bad_ethertype(u_cnt_eth_bad_ethertype),
        .cnt_eth_runt(u_cnt_eth_runt),
        .cnt_ip_rx_packets(u_cnt_ip_rx_packets),
        .cnt_ip_runt(u_cnt_ip_runt),
        .cnt_ip_bad_hdr(u_cnt_ip_bad_hdr),
        .cnt_ip_bad_csum(u_cnt_ip_bad_csum),
        .cnt_ip_bad_len(u_cnt_ip_bad_len),
        .cnt_ip_not_for_us(u_cnt_ip_not_for_us),
        .cnt_ip_fragment(u_cnt_ip_fragment),
        .cnt_ip_bad_proto(u_cnt_ip_bad_proto),
        .cnt_ip_truncated(u_cnt_ip_truncated),
        .cnt_udp_rx_datagrams(u_cnt_udp_rx_datagrams),
        .cnt_udp_bad_len(u_cnt_udp_bad_len),
        .cnt_udp_closed_port(u_cnt_udp_closed_port),
        .cnt_udp_bad_csum(u_cnt_udp_bad_csum),
        .cnt_udp_err_in(u_cnt_udp_err_in),
        .cnt_udp_oversize(u_cnt_udp_oversize),
        .cnt_udp_busy_drop(u_cnt_udp_busy_drop),
        .cnt_icmp_replies(u_cnt_icmp_replies),
        .cnt_icmp_aborted(u_cnt_icmp_aborted),
        .cnt_icmp_dropped(u_cnt_icmp_dropped),
        .cnt_icmp_bad_csum(u_cnt_icmp_bad_csum),
        .cnt_icmp_unreach_sent(u_cnt_icmp_unreach_sent),
        .cnt_icmp_unreach_dropped(u_cnt_icmp_unreach_dropped),
        .cnt_arp_req_rx(u_cnt_arp_req_rx),
        .cnt_arp_reply_tx(u_cnt_arp_reply_tx),
        .cnt_arp_req_tx(stk_cnt_arp_req_tx),
        .cnt_arp_garp_tx(u_cnt_arp_garp_tx),
        .cnt_arp_reply_rx(stk_cnt_arp_reply_rx),
        .cnt_arp_malformed(u_cnt_arp_malformed),
        .cnt_arp_rx_overrun(u_cnt_arp_rx_overrun),
        .cnt_arp_hit(u_cnt_arp_hit),
        .cnt_arp_miss(u_cnt_arp_miss),
        .cnt_arp_timeout(u_cnt_arp_timeout),
        .cnt_arp_expired(u_cnt_arp_expired),
        .cnt_arp_evicted(u_cnt_arp_evicted),
        .cnt_arp_conflict(u_cnt_arp_conflict),
        .cnt_tx_frames(stk_cnt_tx_frames),
        .cnt_raw_tx_frames(u_cnt_raw_tx_frames),
        .cnt_raw_tx_abort(u_cnt_raw_tx_abort),
        .cnt_udp_tx_frames(stk_cnt_udp_tx_frames),
        .cnt_udp_tx_abort(stk_cnt_udp_tx_abort),
        .cnt_udp_tx_long(stk_cnt_udp_tx_long),
        .cnt_udp_tx_arp_miss(stk_cnt_udp_tx_arp_miss),
        .cnt_udp_tx_sf_overflow(u_cnt_udp_tx_sf_overflow),
        /* verilator lint_off PINCONNECTEMPTY */
        .cnt_ev()  // the counters are kept in flip-flops here
        /* verilator lint_on PINCONNECTEMPTY */
    );

endmodule
`default_nettype wire
