`default_nettype none
// vboard_top: the virtual board, the whole design on one clock with a GMII port.
//
// What it does: eth_mac_gmii (GMII MAC) + a receive frame FIFO + udp_stack (ARP, IPv4,
// ICMP echo, UDP) + udp_echo on one UDP port, everything on clk (125 MHz modelled). The
// C++ harness (sim/vboard.cpp) bridges the GMII port to a Linux TAP and drives tick_1ms
// from the wall clock, so Linux tools talk to the board.
//
//   gmii_rx* -> eth_mac_gmii RX -> axis_fifo (frame mode: bad frames dropped, frames that
//   do not fit dropped) -> udp_stack -> port 0 -> udp_echo -> udp_stack -> eth_mac_gmii
//   TX -> gmii_tx*
//
// The MAC's receive stream cannot wait, and the stack may (an ICMP or UDP echo reply
// waits for the transmitter), so a frame FIFO sits between them: frames reach the stack
// whole and only if good (the MAC counts bad ones), and a frame that finds the FIFO full
// is dropped whole and counted (cnt_rx_fifo_drop_full). The raw-EtherType channel is not
// used (its EtherType is set to 0xFFFF, reserved, so nothing reaches it).
//
// Interfaces:
//   clk, rst, tick_1ms                 clock, synchronous reset, millisecond strobe
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er, gmii_txd[7:0], gmii_tx_en, gmii_tx_er
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses
//   cfg_udp_echo_port[15:0]            UDP port of the echo (0 = closed)
//   cnt_*                              32-bit counters: the MAC's (cnt_mac_*), the RX
//                                      FIFO's drops, every counter of udp_stack under its
//                                      own name, and cnt_echoed (datagrams echoed)
// Latency: the MAC's receive latency, plus the whole frame (the RX FIFO is a frame
//   FIFO) and 2 cycles, plus the stack's turnaround (docs/stack.md), plus 1 cycle to the
//   first preamble byte.
// Parameters: RX_FIFO_BYTES (power of two; 16384 holds a 9018-byte jumbo frame and
//   more), MAX_FRAME (largest frame the MAC accepts, FCS included), ECHO_CSUM_MODE (the
//   echo port's TX checksum mode: 0 none, 1 computed).
module vboard_top #(
    parameter integer RX_FIFO_BYTES  = 16384,
    parameter integer MAX_FRAME      = 9018,
    parameter integer ECHO_CSUM_MODE = 1
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
    // MAC
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
    // RX FIFO
    output reg  [31:0] cnt_rx_fifo_drop_full,
    // stack
    output wire [31:0] cnt_eth_rx_frames,
    output wire [31:0] cnt_eth_bad_mac,
    output wire [31:0] cnt_eth_bad_ethertype,
    output wire [31:0] cnt_eth_runt,
    output wire [31:0] cnt_ip_rx_packets,
    output wire [31:0] cnt_ip_runt,
    output wire [31:0] cnt_ip_bad_hdr,
    output wire [31:0] cnt_ip_bad_csum,
    output wire [31:0] cnt_ip_bad_len,
    output wire [31:0] cnt_ip_not_for_us,
    output wire [31:0] cnt_ip_fragment,
    output wire [31:0] cnt_ip_bad_proto,
    output wire [31:0] cnt_ip_truncated,
    output wire [31:0] cnt_udp_rx_datagrams,
    output wire [31:0] cnt_udp_bad_len,
    output wire [31:0] cnt_udp_closed_port,
    output wire [31:0] cnt_udp_bad_csum,
    output wire [31:0] cnt_udp_err_in,
    output wire [31:0] cnt_udp_oversize,
    output wire [31:0] cnt_icmp_replies,
    output wire [31:0] cnt_icmp_aborted,
    output wire [31:0] cnt_icmp_dropped,
    output wire [31:0] cnt_arp_req_rx,
    output wire [31:0] cnt_arp_reply_tx,
    output wire [31:0] cnt_arp_req_tx,
    output wire [31:0] cnt_arp_garp_tx,
    output wire [31:0] cnt_arp_reply_rx,
    output wire [31:0] cnt_arp_malformed,
    output wire [31:0] cnt_arp_rx_overrun,
    output wire [31:0] cnt_arp_hit,
    output wire [31:0] cnt_arp_miss,
    output wire [31:0] cnt_arp_timeout,
    output wire [31:0] cnt_arp_expired,
    output wire [31:0] cnt_arp_evicted,
    output wire [31:0] cnt_arp_conflict,
    output wire [31:0] cnt_tx_frames,
    output wire [31:0] cnt_udp_tx_frames,
    output wire [31:0] cnt_udp_tx_abort,
    output wire [31:0] cnt_udp_tx_long,
    output wire [31:0] cnt_udp_tx_arp_miss,
    output wire [31:0] cnt_udp_tx_sf_overflow,
    // echo
    output wire [31:0] cnt_echoed
);
  localparam [15:0] MAX_FRAME_W = MAX_FRAME[15:0];
  localparam [1:0] ECHO_MODE = ECHO_CSUM_MODE[1:0];

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

  // ---------------- RX frame FIFO ----------------
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

  // ---------------- stack ----------------
  wire [0:0] tx_tkeep;  // 8-bit stream: the MAC takes one byte per beat
  wire        urx_hdr_valid, urx_hdr_ready;
  wire [47:0] urx_hdr_src_mac;
  wire [31:0] urx_hdr_src_ip;
  wire [15:0] urx_hdr_src_port, urx_hdr_dst_port, urx_hdr_len;
  wire [7:0]  urx_tdata;
  wire [0:0]  urx_tkeep;
  wire        urx_tvalid, urx_tready, urx_tlast, urx_tuser;
  wire        utx_hdr_valid, utx_hdr_ready, utx_hdr_dst_mac_valid;
  wire [47:0] utx_hdr_dst_mac;
  wire [31:0] utx_hdr_dst_ip;
  wire [15:0] utx_hdr_dst_port, utx_hdr_src_port, utx_hdr_len, utx_hdr_csum;
  wire [7:0]  utx_tdata;
  wire [0:0]  utx_tkeep;
  wire        utx_tvalid, utx_tready, utx_tlast, utx_tuser;
  // the raw-EtherType channel is unused
  wire        raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser;
  wire [47:0] raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac;
  wire [7:0]  raw_rx_tdata;
  wire [0:0]  raw_rx_tkeep;
  wire        raw_tx_hdr_ready, raw_tx_tready;
  wire [31:0] cnt_raw_tx_frames, cnt_raw_tx_abort;

  udp_stack #(
      .DATA_W(8), .KEEP_W(1), .NUM_PORTS(1), .RX_STORE_FWD(0), .TX_BUF_BYTES(2048)
  ) u_stack (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
      .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask),
      .cfg_gateway(cfg_gateway), .cfg_ttl(8'd64), .cfg_df(1'b1),
      .cfg_raw_ethertype(16'hFFFF),
      .cfg_udp_port(cfg_udp_echo_port), .cfg_udp_csum_mode(ECHO_MODE),
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
      .cnt_udp_tx_frames(cnt_udp_tx_frames), .cnt_udp_tx_abort(cnt_udp_tx_abort),
      .cnt_udp_tx_long(cnt_udp_tx_long), .cnt_udp_tx_arp_miss(cnt_udp_tx_arp_miss),
      .cnt_udp_tx_sf_overflow(cnt_udp_tx_sf_overflow)
  );

  // ---------------- UDP echo on port 0 ----------------
  udp_echo #(.DATA_W(8), .KEEP_W(1)) u_echo (
      .clk(clk), .rst(rst),
      .s_hdr_valid(urx_hdr_valid), .s_hdr_ready(urx_hdr_ready),
      .s_hdr_src_mac(urx_hdr_src_mac), .s_hdr_src_ip(urx_hdr_src_ip),
      .s_hdr_src_port(urx_hdr_src_port), .s_hdr_dst_port(urx_hdr_dst_port),
      .s_hdr_len(urx_hdr_len),
      .s_axis_tdata(urx_tdata), .s_axis_tkeep(urx_tkeep), .s_axis_tvalid(urx_tvalid),
      .s_axis_tready(urx_tready), .s_axis_tlast(urx_tlast), .s_axis_tuser(urx_tuser),
      .m_hdr_valid(utx_hdr_valid), .m_hdr_ready(utx_hdr_ready),
      .m_hdr_dst_mac(utx_hdr_dst_mac), .m_hdr_dst_mac_valid(utx_hdr_dst_mac_valid),
      .m_hdr_dst_ip(utx_hdr_dst_ip), .m_hdr_dst_port(utx_hdr_dst_port),
      .m_hdr_src_port(utx_hdr_src_port), .m_hdr_len(utx_hdr_len), .m_hdr_csum(utx_hdr_csum),
      .m_axis_tdata(utx_tdata), .m_axis_tkeep(utx_tkeep), .m_axis_tvalid(utx_tvalid),
      .m_axis_tready(utx_tready), .m_axis_tlast(utx_tlast), .m_axis_tuser(utx_tuser),
      .cnt_echoed(cnt_echoed)
  );

  // Signals that exist only because the blocks offer them: the raw channel (unused, its
  // EtherType is reserved), the FIFO's other status strobes, tkeep of an 8-bit stream.
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser,
                  raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac, raw_rx_tdata, raw_rx_tkeep,
                  raw_tx_hdr_ready, raw_tx_tready, cnt_raw_tx_frames, cnt_raw_tx_abort,
                  fifo_overflow, fifo_drop_bad, fifo_good, tx_tkeep};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
