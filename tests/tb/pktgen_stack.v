`default_nettype none
// pktgen_stack: the packet generator on a port of the UDP/IP stack, for benchmarks and
// end-to-end tests of the generator with ARP, IPv4 and UDP framing.
//
// pktgen (flat destination table) drives UDP transmit port 0 of udp_stack (one port,
// number cfg_src_port, checksum mode CSUM_MODE); the stack's MAC user side is the module's
// s_axis_* (frames in: ARP replies) and m_axis_* (frames out, no FCS). The stack's
// receive ports and raw channel are terminated (always ready, nothing sent).
//
// Interfaces: clk, rst, tick_1ms; generator control and configuration (as pktgen);
// stack configuration cfg_mac, cfg_ip, cfg_netmask, cfg_gateway; MAC user side;
// event strobes for counters: gen_cnt_ev[1:0] and gen_cnt_ev_len[15:0] (pktgen's cnt_ev,
// cnt_ev_len) and stk_cnt_ev[47:0] (udp_stack's cnt_ev with one port).
//
// Latency: pktgen's, then udp_stack's (docs/transmitter.md).
//
// Parameters: DATA_W (8 or 64), KEEP_W = DATA_W/8, CSUM_MODE (the port's UDP checksum
// mode: 0 none, cut-through; 1 computed, stored and forwarded by udp_tx_csum, as the
// virtual board's generator port).

module pktgen_stack #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8,
    parameter integer CSUM_MODE = 0
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

    output wire [1:0]        gen_cnt_ev,
    output wire [15:0]       gen_cnt_ev_len,
    output wire [47:0]       stk_cnt_ev
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
    /* verilator lint_on UNUSED */

    pktgen #(.DATA_W(DATA_W), .DST_RAM(0)) u_gen (
        .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .ts_in(64'd0), .cyc_in(64'd0),
        .start(start), .stop(stop), .busy(busy),
        .cfg_len(cfg_len), .cfg_count(cfg_count), .cfg_gap(cfg_gap), .cfg_ndst(cfg_ndst),
        .cfg_lfsr(cfg_lfsr), .cfg_fill(cfg_fill), .cfg_ts_ext(1'b0),
        .cfg_src_port(cfg_src_port), .cfg_warmup_ms(cfg_warmup_ms),
        .cfg_dst_we(1'b0), .cfg_dst_addr(4'd0), .cfg_dst_ip(32'd0), .cfg_dst_port(16'd0),
        .cfg_dst_ip_all(cfg_dst_ip_all), .cfg_dst_port_all(cfg_dst_port_all),
        .cnt_ev(gen_cnt_ev), .cnt_ev_len(gen_cnt_ev_len), .status_round(g_round),
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
        .cfg_udp_csum_mode(CSUM_MODE[1:0]),
        .cfg_unreach_per_ms(8'd0),
        .cfg_arp_answer(1'b1), .cfg_icmp_answer(1'b1), .cfg_udp_csum_check(1'b1),
        .cfg_raw_en(1'b1),
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
        /* verilator lint_off PINCONNECTEMPTY */
        // TCP = 0: the TCP port and the TCP frame input are not used
        .m_tcp_hdr_valid(), .m_tcp_hdr_ready(1'b1), .m_tcp_hdr_src_mac(), .m_tcp_hdr_src_ip(),
        .m_tcp_hdr_dst_ip(), .m_tcp_hdr_len(), .m_tcp_hdr_broadcast(), .m_tcp_axis_tdata(),
        .m_tcp_axis_tkeep(), .m_tcp_axis_tvalid(), .m_tcp_axis_tready(1'b1),
        .m_tcp_axis_tlast(), .m_tcp_axis_tuser(),
        .s_tcp_tx_axis_tdata({DATA_W{1'b0}}), .s_tcp_tx_axis_tkeep({KEEP_W{1'b0}}), .s_tcp_tx_axis_tvalid(1'b0),
        .s_tcp_tx_axis_tready(), .s_tcp_tx_axis_tlast(1'b0), .s_tcp_tx_axis_tuser(1'b0),
        /* verilator lint_on PINCONNECTEMPTY */
        .cnt_ev(stk_cnt_ev)
    );

endmodule
`default_nettype wire
