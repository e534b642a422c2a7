`default_nettype none
// ipbus_board: a complete IPbus board on one clock with a GMII port: eth_mac_gmii + a
// receive frame FIFO + udp_stack (ARP, IPv4, ICMP echo, UDP) with two UDP ports: port 0
// the UDP echo (udp_echo, at cfg_udp_echo_port) and port 1 the control plane
// (ipbus_ctrl: IPbus 2.0 target, register file, 64 KiB memory, at NET.IPBUS_PORT =
// 50001 after reset). The MAC, stack and ARP counters are wired into the register map,
// so uHAL reads them. It runs as a virtual board (sim/vboard.cpp bridges the GMII port
// to a Linux TAP: `wirecore board up --top ipbus_board`) and is the reference for wiring
// ipbus_ctrl into a board top (docs/ipbus.md).
//
// Interfaces (those of sim/vboard_top.v, so the same harness drives it):
//   clk, rst, tick_1ms                 clock, synchronous reset, millisecond strobe
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er, gmii_txd[7:0], gmii_tx_en, gmii_tx_er
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses (the
//                                      register file's NET block is not used for them)
//   cfg_udp_echo_port[15:0]            UDP port of the echo (0 = closed)
//   cnt_*                              the MAC's counters, the RX FIFO's drops, the
//                                      echo's and the stack's datagram counters
// Latency: the MAC's receive latency, plus the whole frame (frame FIFO), plus the
//   stack's and the IPbus target's turnaround (docs/ipbus.md), plus the UDP checksum's
//   store and forward (checksum mode 1 on both ports).
// Parameters: RX_FIFO_BYTES (power of two), MAX_FRAME (largest frame the MAC accepts).
module ipbus_board #(
    parameter integer RX_FIFO_BYTES = 16384,
    parameter integer MAX_FRAME     = 1518
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        tick_1ms,
    input  wire [47:0] cfg_mac,
    input  wire [31:0] cfg_ip,
    input  wire [31:0] cfg_netmask,
    input  wire [31:0] cfg_gateway,
    input  wire [15:0] cfg_udp_echo_port,
    input  wire [ 7:0] gmii_rxd,
    input  wire        gmii_rx_dv,
    input  wire        gmii_rx_er,
    output wire [ 7:0] gmii_txd,
    output wire        gmii_tx_en,
    output wire        gmii_tx_er,
    output wire [31:0] cnt_mac_tx_frames,
    output wire [31:0] cnt_mac_tx_bytes,
    output wire [31:0] cnt_mac_tx_underflow,
    output wire [31:0] cnt_mac_tx_abort,
    output wire [31:0] cnt_mac_rx_frames,
    output wire [31:0] cnt_mac_rx_bytes,
    output wire [31:0] cnt_mac_rx_bad_fcs,
    output wire [31:0] cnt_mac_rx_runt,
    output wire [31:0] cnt_mac_rx_oversize,
    output wire [31:0] cnt_mac_rx_er,
    output reg  [31:0] cnt_rx_fifo_drop_full,
    output wire [31:0] cnt_udp_rx_datagrams,
    output wire [31:0] cnt_udp_tx_frames,
    output wire [31:0] cnt_echoed
);
  localparam [15:0] MAX_FRAME_W = MAX_FRAME[15:0];

  // ---------------- MAC ----------------
  wire [7:0] mac_rx_tdata, mac_tx_tdata;
  wire mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
  wire mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;

  eth_mac_gmii u_mac (
      .tx_clk(clk), .tx_rst(rst), .rx_clk(clk), .rx_rst(rst),
      .s_axis_tdata(mac_tx_tdata), .s_axis_tvalid(mac_tx_tvalid),
      .s_axis_tready(mac_tx_tready), .s_axis_tlast(mac_tx_tlast),
      .s_axis_tuser(mac_tx_tuser),
      .m_axis_tdata(mac_rx_tdata), .m_axis_tvalid(mac_rx_tvalid),
      .m_axis_tlast(mac_rx_tlast), .m_axis_tuser(mac_rx_tuser),
      .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
      .gmii_rxd(gmii_rxd), .gmii_rx_dv(gmii_rx_dv), .gmii_rx_er(gmii_rx_er),
      .cfg_ifg(8'd12), .cfg_max_len(MAX_FRAME_W),
      .cnt_tx_frames(cnt_mac_tx_frames), .cnt_tx_bytes(cnt_mac_tx_bytes),
      .cnt_tx_underflow(cnt_mac_tx_underflow), .cnt_tx_abort(cnt_mac_tx_abort),
      .cnt_rx_frames(cnt_mac_rx_frames), .cnt_rx_bytes(cnt_mac_rx_bytes),
      .cnt_rx_bad_fcs(cnt_mac_rx_bad_fcs), .cnt_rx_runt(cnt_mac_rx_runt),
      .cnt_rx_oversize(cnt_mac_rx_oversize), .cnt_rx_er(cnt_mac_rx_er)
  );

  // ---------------- RX frame FIFO (the MAC cannot wait; the stack may) ----------------
  wire [7:0] st_rx_tdata;
  wire [0:0] st_rx_tkeep;
  wire st_rx_tvalid, st_rx_tready, st_rx_tlast, st_rx_tuser;
  wire fifo_overflow, fifo_drop_bad, fifo_drop_full, fifo_good;

  /* verilator lint_off PINCONNECTEMPTY */
  axis_fifo #(
      .DATA_W(8), .KEEP_W(1), .DEPTH(RX_FIFO_BYTES), .FRAME_FIFO(1), .DROP_BAD_FRAME(1),
      .DROP_WHEN_FULL(1)
  ) u_rx_fifo (
      .clk(clk), .rst(rst),
      .s_axis_tdata(mac_rx_tdata), .s_axis_tkeep(1'b1), .s_axis_tvalid(mac_rx_tvalid),
      .s_axis_tready(), .s_axis_tlast(mac_rx_tlast), .s_axis_tuser(mac_rx_tuser),
      .m_axis_tdata(st_rx_tdata), .m_axis_tkeep(st_rx_tkeep), .m_axis_tvalid(st_rx_tvalid),
      .m_axis_tready(st_rx_tready), .m_axis_tlast(st_rx_tlast), .m_axis_tuser(st_rx_tuser),
      .status_overflow(fifo_overflow), .status_drop_bad(fifo_drop_bad),
      .status_drop_full(fifo_drop_full), .status_good_frame(fifo_good)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  always @(posedge clk) begin
    if (rst) cnt_rx_fifo_drop_full <= 32'd0;
    else if (fifo_drop_full) cnt_rx_fifo_drop_full <= cnt_rx_fifo_drop_full + 1'b1;
  end

  // ---------------- stack: port 0 echo, port 1 IPbus ----------------
  wire [0:0]  tx_tkeep;
  wire [15:0] ipbus_port;
  wire [1:0]  urx_hdr_valid, urx_hdr_ready;
  wire [95:0] urx_hdr_src_mac;
  wire [63:0] urx_hdr_src_ip;
  wire [31:0] urx_hdr_src_port, urx_hdr_dst_port, urx_hdr_len;
  wire [15:0] urx_tdata;
  wire [1:0]  urx_tkeep, urx_tvalid, urx_tready, urx_tlast, urx_tuser;
  wire [1:0]  utx_hdr_valid, utx_hdr_ready, utx_hdr_dst_mac_valid;
  wire [95:0] utx_hdr_dst_mac;
  wire [63:0] utx_hdr_dst_ip;
  wire [31:0] utx_hdr_dst_port, utx_hdr_src_port, utx_hdr_len, utx_hdr_csum;
  wire [15:0] utx_tdata;
  wire [1:0]  utx_tkeep, utx_tvalid, utx_tready, utx_tlast, utx_tuser;
  wire        raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser;
  wire [47:0] raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac;
  wire [7:0]  raw_rx_tdata;
  wire [0:0]  raw_rx_tkeep;
  wire        raw_tx_hdr_ready, raw_tx_tready;
  wire [31:0] cnt_raw_tx_frames, cnt_raw_tx_abort, cnt_tx_frames;
  // udp_tx counters come per port: the map shows their sums
  wire [63:0] ptx_frames, ptx_abort, ptx_long, ptx_arp_miss, ptx_sf_overflow;
  wire [31:0] cnt_udp_tx_abort, cnt_udp_tx_long, cnt_udp_tx_arp_miss;
  assign cnt_udp_tx_frames   = ptx_frames[31:0] + ptx_frames[63:32];
  assign cnt_udp_tx_abort    = ptx_abort[31:0] + ptx_abort[63:32];
  assign cnt_udp_tx_long     = ptx_long[31:0] + ptx_long[63:32];
  assign cnt_udp_tx_arp_miss = ptx_arp_miss[31:0] + ptx_arp_miss[63:32];
  wire [31:0] cnt_icmp_aborted, cnt_icmp_dropped;
  wire [31:0] cnt_eth_rx_frames, cnt_eth_bad_mac, cnt_eth_bad_ethertype, cnt_eth_runt;
  wire [31:0] cnt_ip_rx_packets, cnt_ip_runt, cnt_ip_bad_hdr, cnt_ip_bad_csum;
  wire [31:0] cnt_ip_bad_len, cnt_ip_not_for_us, cnt_ip_fragment, cnt_ip_bad_proto;
  wire [31:0] cnt_ip_truncated, cnt_udp_bad_len, cnt_udp_closed_port, cnt_udp_bad_csum;
  wire [31:0] cnt_udp_err_in, cnt_udp_oversize, cnt_icmp_replies;
  wire [31:0] cnt_arp_req_rx, cnt_arp_reply_tx, cnt_arp_req_tx, cnt_arp_garp_tx;
  wire [31:0] cnt_arp_reply_rx, cnt_arp_malformed, cnt_arp_rx_overrun, cnt_arp_hit;
  wire [31:0] cnt_arp_miss, cnt_arp_timeout, cnt_arp_expired, cnt_arp_evicted;
  wire [31:0] cnt_arp_conflict;

  udp_stack #(
      .DATA_W(8), .KEEP_W(1), .NUM_PORTS(2), .RX_STORE_FWD(0), .TX_BUF_BYTES(2048)
  ) u_stack (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
      .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask),
      .cfg_gateway(cfg_gateway), .cfg_ttl(8'd64), .cfg_df(1'b1),
      .cfg_raw_ethertype(16'hFFFF),
      .cfg_udp_port({ipbus_port, cfg_udp_echo_port}), .cfg_udp_csum_mode(4'b0101),
      .s_axis_tdata(st_rx_tdata), .s_axis_tkeep(st_rx_tkeep), .s_axis_tvalid(st_rx_tvalid),
      .s_axis_tready(st_rx_tready), .s_axis_tlast(st_rx_tlast), .s_axis_tuser(st_rx_tuser),
      .m_axis_tdata(mac_tx_tdata), .m_axis_tkeep(tx_tkeep), .m_axis_tvalid(mac_tx_tvalid),
      .m_axis_tready(mac_tx_tready), .m_axis_tlast(mac_tx_tlast), .m_axis_tuser(mac_tx_tuser),
      .m_udp_rx_hdr_valid(urx_hdr_valid), .m_udp_rx_hdr_ready(urx_hdr_ready),
      .m_udp_rx_hdr_src_mac(urx_hdr_src_mac), .m_udp_rx_hdr_src_ip(urx_hdr_src_ip),
      .m_udp_rx_hdr_src_port(urx_hdr_src_port), .m_udp_rx_hdr_dst_port(urx_hdr_dst_port),
      .m_udp_rx_hdr_len(urx_hdr_len),
      .m_udp_rx_axis_tdata(urx_tdata), .m_udp_rx_axis_tkeep(urx_tkeep),
      .m_udp_rx_axis_tvalid(urx_tvalid), .m_udp_rx_axis_tready(urx_tready),
      .m_udp_rx_axis_tlast(urx_tlast), .m_udp_rx_axis_tuser(urx_tuser),
      .s_udp_tx_hdr_valid(utx_hdr_valid), .s_udp_tx_hdr_ready(utx_hdr_ready),
      .s_udp_tx_hdr_dst_mac(utx_hdr_dst_mac), .s_udp_tx_hdr_dst_mac_valid(utx_hdr_dst_mac_valid),
      .s_udp_tx_hdr_dst_ip(utx_hdr_dst_ip), .s_udp_tx_hdr_dst_port(utx_hdr_dst_port),
      .s_udp_tx_hdr_src_port(utx_hdr_src_port), .s_udp_tx_hdr_len(utx_hdr_len),
      .s_udp_tx_hdr_csum(utx_hdr_csum),
      .s_udp_tx_axis_tdata(utx_tdata), .s_udp_tx_axis_tkeep(utx_tkeep),
      .s_udp_tx_axis_tvalid(utx_tvalid), .s_udp_tx_axis_tready(utx_tready),
      .s_udp_tx_axis_tlast(utx_tlast), .s_udp_tx_axis_tuser(utx_tuser),
      .m_raw_rx_hdr_valid(raw_rx_hdr_valid), .m_raw_rx_hdr_ready(1'b1),
      .m_raw_rx_hdr_dst_mac(raw_rx_hdr_dst_mac), .m_raw_rx_hdr_src_mac(raw_rx_hdr_src_mac),
      .m_raw_rx_axis_tdata(raw_rx_tdata), .m_raw_rx_axis_tkeep(raw_rx_tkeep),
      .m_raw_rx_axis_tvalid(raw_rx_tvalid), .m_raw_rx_axis_tready(1'b1),
      .m_raw_rx_axis_tlast(raw_rx_tlast), .m_raw_rx_axis_tuser(raw_rx_tuser),
      .s_raw_tx_hdr_valid(1'b0), .s_raw_tx_hdr_ready(raw_tx_hdr_ready),
      .s_raw_tx_hdr_dst_mac(48'd0),
      .s_raw_tx_axis_tdata(8'd0), .s_raw_tx_axis_tkeep(1'b0), .s_raw_tx_axis_tvalid(1'b0),
      .s_raw_tx_axis_tready(raw_tx_tready), .s_raw_tx_axis_tlast(1'b0),
      .s_raw_tx_axis_tuser(1'b0),
      .cnt_eth_rx_frames(cnt_eth_rx_frames), .cnt_eth_bad_mac(cnt_eth_bad_mac),
      .cnt_eth_bad_ethertype(cnt_eth_bad_ethertype), .cnt_eth_runt(cnt_eth_runt),
      .cnt_ip_rx_packets(cnt_ip_rx_packets), .cnt_ip_runt(cnt_ip_runt),
      .cnt_ip_bad_hdr(cnt_ip_bad_hdr), .cnt_ip_bad_csum(cnt_ip_bad_csum),
      .cnt_ip_bad_len(cnt_ip_bad_len), .cnt_ip_not_for_us(cnt_ip_not_for_us),
      .cnt_ip_fragment(cnt_ip_fragment), .cnt_ip_bad_proto(cnt_ip_bad_proto),
      .cnt_ip_truncated(cnt_ip_truncated),
      .cnt_udp_rx_datagrams(cnt_udp_rx_datagrams), .cnt_udp_bad_len(cnt_udp_bad_len),
      .cnt_udp_closed_port(cnt_udp_closed_port), .cnt_udp_bad_csum(cnt_udp_bad_csum),
      .cnt_udp_err_in(cnt_udp_err_in), .cnt_udp_oversize(cnt_udp_oversize),
      .cnt_icmp_replies(cnt_icmp_replies), .cnt_icmp_aborted(cnt_icmp_aborted),
      .cnt_icmp_dropped(cnt_icmp_dropped),
      .cnt_arp_req_rx(cnt_arp_req_rx), .cnt_arp_reply_tx(cnt_arp_reply_tx),
      .cnt_arp_req_tx(cnt_arp_req_tx), .cnt_arp_garp_tx(cnt_arp_garp_tx),
      .cnt_arp_reply_rx(cnt_arp_reply_rx), .cnt_arp_malformed(cnt_arp_malformed),
      .cnt_arp_rx_overrun(cnt_arp_rx_overrun), .cnt_arp_hit(cnt_arp_hit),
      .cnt_arp_miss(cnt_arp_miss), .cnt_arp_timeout(cnt_arp_timeout),
      .cnt_arp_expired(cnt_arp_expired), .cnt_arp_evicted(cnt_arp_evicted),
      .cnt_arp_conflict(cnt_arp_conflict),
      .cnt_tx_frames(cnt_tx_frames), .cnt_raw_tx_frames(cnt_raw_tx_frames),
      .cnt_raw_tx_abort(cnt_raw_tx_abort),
      .cnt_udp_tx_frames(ptx_frames), .cnt_udp_tx_abort(ptx_abort),
      .cnt_udp_tx_long(ptx_long), .cnt_udp_tx_arp_miss(ptx_arp_miss),
      .cnt_udp_tx_sf_overflow(ptx_sf_overflow)
  );

  // ---------------- port 0: UDP echo ----------------
  udp_echo #(.DATA_W(8), .KEEP_W(1)) u_echo (
      .clk(clk), .rst(rst),
      .s_hdr_valid(urx_hdr_valid[0]), .s_hdr_ready(urx_hdr_ready[0]),
      .s_hdr_src_mac(urx_hdr_src_mac[47:0]), .s_hdr_src_ip(urx_hdr_src_ip[31:0]),
      .s_hdr_src_port(urx_hdr_src_port[15:0]), .s_hdr_dst_port(urx_hdr_dst_port[15:0]),
      .s_hdr_len(urx_hdr_len[15:0]),
      .s_axis_tdata(urx_tdata[7:0]), .s_axis_tkeep(urx_tkeep[0]),
      .s_axis_tvalid(urx_tvalid[0]), .s_axis_tready(urx_tready[0]),
      .s_axis_tlast(urx_tlast[0]), .s_axis_tuser(urx_tuser[0]),
      .m_hdr_valid(utx_hdr_valid[0]), .m_hdr_ready(utx_hdr_ready[0]),
      .m_hdr_dst_mac(utx_hdr_dst_mac[47:0]), .m_hdr_dst_mac_valid(utx_hdr_dst_mac_valid[0]),
      .m_hdr_dst_ip(utx_hdr_dst_ip[31:0]), .m_hdr_dst_port(utx_hdr_dst_port[15:0]),
      .m_hdr_src_port(utx_hdr_src_port[15:0]), .m_hdr_len(utx_hdr_len[15:0]),
      .m_hdr_csum(utx_hdr_csum[15:0]),
      .m_axis_tdata(utx_tdata[7:0]), .m_axis_tkeep(utx_tkeep[0]),
      .m_axis_tvalid(utx_tvalid[0]), .m_axis_tready(utx_tready[0]),
      .m_axis_tlast(utx_tlast[0]), .m_axis_tuser(utx_tuser[0]),
      .cnt_echoed(cnt_echoed)
  );

  // ---------------- port 1: IPbus control plane ----------------
  /* verilator lint_off PINCONNECTEMPTY */
  ipbus_ctrl #(.DATA_W(8)) u_ctrl (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
      .s_hdr_valid(urx_hdr_valid[1]), .s_hdr_ready(urx_hdr_ready[1]),
      .s_hdr_src_mac(urx_hdr_src_mac[95:48]), .s_hdr_src_ip(urx_hdr_src_ip[63:32]),
      .s_hdr_src_port(urx_hdr_src_port[31:16]), .s_hdr_dst_port(urx_hdr_dst_port[31:16]),
      .s_hdr_len(urx_hdr_len[31:16]),
      .s_axis_tdata(urx_tdata[15:8]), .s_axis_tkeep(urx_tkeep[1]),
      .s_axis_tvalid(urx_tvalid[1]), .s_axis_tready(urx_tready[1]),
      .s_axis_tlast(urx_tlast[1]), .s_axis_tuser(urx_tuser[1]),
      .m_hdr_valid(utx_hdr_valid[1]), .m_hdr_ready(utx_hdr_ready[1]),
      .m_hdr_dst_mac(utx_hdr_dst_mac[95:48]), .m_hdr_dst_mac_valid(utx_hdr_dst_mac_valid[1]),
      .m_hdr_dst_ip(utx_hdr_dst_ip[63:32]), .m_hdr_dst_port(utx_hdr_dst_port[31:16]),
      .m_hdr_src_port(utx_hdr_src_port[31:16]), .m_hdr_len(utx_hdr_len[31:16]),
      .m_hdr_csum(utx_hdr_csum[31:16]),
      .m_axis_tdata(utx_tdata[15:8]), .m_axis_tkeep(utx_tkeep[1]),
      .m_axis_tvalid(utx_tvalid[1]), .m_axis_tready(utx_tready[1]),
      .m_axis_tlast(utx_tlast[1]), .m_axis_tuser(utx_tuser[1]),
      .m_user_reg_req(), .m_user_reg_we(), .m_user_reg_addr(), .m_user_reg_wdata(),
      .m_user_reg_ack(1'b0), .m_user_reg_err(1'b0), .m_user_reg_rdata(32'd0),
      .cfg_write_protect(),
      .cfg_sys_scratch(),
      .cnt_mac_tx_frames(cnt_mac_tx_frames),
      .cnt_mac_tx_bytes(cnt_mac_tx_bytes),
      .cnt_mac_tx_underflow(cnt_mac_tx_underflow),
      .cnt_mac_tx_abort(cnt_mac_tx_abort),
      .cnt_mac_rx_frames(cnt_mac_rx_frames),
      .cnt_mac_rx_bytes(cnt_mac_rx_bytes),
      .cnt_mac_rx_bad_fcs(cnt_mac_rx_bad_fcs),
      .cnt_mac_rx_runt(cnt_mac_rx_runt),
      .cnt_mac_rx_oversize(cnt_mac_rx_oversize),
      .cnt_mac_rx_er(cnt_mac_rx_er),
      .cnt_mac_rx_dropped_full(cnt_rx_fifo_drop_full),
      .cfg_mac_ifg(),
      .cfg_mac_max_len(),
      .cfg_mac(),
      .cfg_ip(),
      .cfg_netmask(),
      .cfg_gateway(),
      .cfg_raw_ethertype(),
      .cfg_ipbus_port(ipbus_port),
      .cfg_echo_port(),
      .cfg_pktgen_src_port(),
      .cfg_enables(),
      .cfg_ttl(),
      .cfg_df(),
      .cnt_stack_eth_frames(cnt_eth_rx_frames),
      .cnt_stack_eth_bad_mac(cnt_eth_bad_mac),
      .cnt_stack_eth_bad_ethertype(cnt_eth_bad_ethertype),
      .cnt_stack_eth_runt(cnt_eth_runt),
      .cnt_stack_ip_packets(cnt_ip_rx_packets),
      .cnt_stack_ip_runt(cnt_ip_runt),
      .cnt_stack_ip_bad_hdr(cnt_ip_bad_hdr),
      .cnt_stack_ip_bad_csum(cnt_ip_bad_csum),
      .cnt_stack_ip_bad_len(cnt_ip_bad_len),
      .cnt_stack_ip_not_for_us(cnt_ip_not_for_us),
      .cnt_stack_ip_fragment(cnt_ip_fragment),
      .cnt_stack_ip_bad_proto(cnt_ip_bad_proto),
      .cnt_stack_ip_truncated(cnt_ip_truncated),
      .cnt_stack_icmp_echo(cnt_icmp_replies),
      .cnt_stack_udp_datagrams(cnt_udp_rx_datagrams),
      .cnt_stack_udp_bad_len(cnt_udp_bad_len),
      .cnt_stack_udp_closed_port(cnt_udp_closed_port),
      .cnt_stack_udp_bad_csum(cnt_udp_bad_csum),
      .cnt_stack_udp_err_in(cnt_udp_err_in),
      .cnt_stack_udp_oversize(cnt_udp_oversize),
      .cnt_stack_udptx_tx_frames(cnt_udp_tx_frames),
      .cnt_stack_udptx_tx_abort(cnt_udp_tx_abort),
      .cnt_stack_udptx_tx_long(cnt_udp_tx_long),
      .cnt_stack_udptx_arp_miss(cnt_udp_tx_arp_miss),
      .cnt_arp_req_rx(cnt_arp_req_rx),
      .cnt_arp_reply_tx(cnt_arp_reply_tx),
      .cnt_arp_req_tx(cnt_arp_req_tx),
      .cnt_arp_garp_tx(cnt_arp_garp_tx),
      .cnt_arp_reply_rx(cnt_arp_reply_rx),
      .cnt_arp_malformed(cnt_arp_malformed),
      .cnt_arp_rx_overrun(cnt_arp_rx_overrun),
      .cnt_arp_hit(cnt_arp_hit),
      .cnt_arp_miss(cnt_arp_miss),
      .cnt_arp_timeout(cnt_arp_timeout),
      .cnt_arp_expired(cnt_arp_expired),
      .cnt_arp_evicted(cnt_arp_evicted),
      .cnt_arp_conflict(cnt_arp_conflict),
      .cfg_ipb_allow_en(),
      .cfg_ipb_allow_ip(),
      .stb_pktgen_ctrl(),
      .sts_pktgen_running(1'd0),
      .cfg_pktgen_length(),
      .cfg_pktgen_count(),
      .cfg_pktgen_gap(),
      .cfg_pktgen_num_dest(),
      .cfg_pktgen_payload(),
      .cfg_pktgen_ts_ext(),
      .cnt_pktgen_sent_packets(32'd0),
      .cnt_pktgen_sent_bytes(32'd0),
      .cnt_pktgen_arp_miss(32'd0),
      .cfg_pktgen_warmup_ms(),
      .sts_pktgen_round(64'd0),
      .cfg_pktgen_dest_ip(),
      .cfg_pktgen_dest_port()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // Signals that exist only because the blocks offer them: the raw channel (unused, its
  // EtherType is reserved), the FIFO's other status strobes, tkeep of an 8-bit stream,
  // counters the register map has no place for.
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser,
                  raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac, raw_rx_tdata, raw_rx_tkeep,
                  raw_tx_hdr_ready, raw_tx_tready, cnt_raw_tx_frames, cnt_raw_tx_abort,
                  fifo_overflow, fifo_drop_bad, fifo_good, tx_tkeep, cnt_tx_frames,
                  ptx_sf_overflow, cnt_icmp_aborted, cnt_icmp_dropped};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
