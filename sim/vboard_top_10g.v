`default_nettype none
// vboard_top_10g: the virtual board at 10 Gbit/s, the whole design on one clock with an
// XGMII port.
//
// What it does: eth_mac_xgmii (XGMII MAC, 64 bits) + vboard_node at DATA_W 64 (a
// receive frame FIFO, udp_stack with the UDP echo, the IPbus control plane and the
// packet generator: the same program as vboard_top's, described in sim/vboard_node.v),
// everything on clk (156.25 MHz modelled, 6.4 ns a cycle). The C++ harness
// (sim/vboard.cpp, built with VBOARD_XGMII) bridges the XGMII port to a Linux TAP.
//
//   xgmii_rxd/rxc -> eth_mac_xgmii RX -> vboard_node -> eth_mac_xgmii TX -> xgmii_txd/txc
//
// The register file's MAC.IFG sets the MAC's average gap (the deficit idle count keeps
// it exactly); MAC.MAX_LEN is not used (the MAC takes MAX_FRAME, jumbo frames included).
// The XGMII MAC's fault events (cnt_ev bits 10-12) and link status are not in the
// register map: the harness never sends fault ordered sets.
//
// Interfaces:
//   clk, rst, tick_1ms                 clock, synchronous reset, millisecond strobe
//   sim_cycle[63:0]                    cycles since reset ended (as vboard_top's)
//   xgmii_rxd[63:0], xgmii_rxc[7:0], xgmii_txd[63:0], xgmii_txc[7:0]   the XGMII port
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses
//   cfg_udp_echo_port[15:0]            UDP port of the echo (0 = closed)
//   sim_counters[32*256-1:0]           (simulation only) the register file's counters,
//                                      as vboard_top's
// Latency: the MAC's receive latency (docs/xgmii.md), plus vboard_node's (the whole frame
//   and 2 cycles, plus the stack's turnaround), plus 1 cycle to the /S/ word.
// Parameters: RX_FIFO_BYTES (power of two, 128..131072; 16384 holds a 9018-byte jumbo
//   frame and more), MAX_FRAME (largest frame the MAC accepts, FCS included),
//   ECHO_CSUM_MODE (the echo port's TX checksum mode: 0 none, 1 computed), RX_BUSY_WAIT
//   (cycles an application port may take to accept a datagram before it is dropped and
//   counted: 156250 = 1 ms).
module vboard_top_10g #(
    parameter integer RX_FIFO_BYTES  = 16384,
    parameter integer MAX_FRAME      = 9018,
    parameter integer ECHO_CSUM_MODE = 1,
    parameter integer RX_BUSY_WAIT   = 156250
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        tick_1ms,
    input  wire [63:0] sim_cycle,
    input  wire [47:0] cfg_mac,
    input  wire [31:0] cfg_ip,
    input  wire [31:0] cfg_netmask,
    input  wire [31:0] cfg_gateway,
    input  wire [15:0] cfg_udp_echo_port,
    input  wire [63:0] xgmii_rxd,
    input  wire [ 7:0] xgmii_rxc,
    output wire [63:0] xgmii_txd,
    output wire [ 7:0] xgmii_txc,
    output wire [32*256-1:0] sim_counters
);
  localparam [15:0] MAX_FRAME_W = MAX_FRAME[15:0];

  wire [7:0]  mac_ifg;
  wire [12:0] ev_mac;
  wire [31:0] ev_mac_len;
  wire [63:0] mac_rx_tdata, mac_tx_tdata;
  wire [7:0]  mac_rx_tkeep, mac_tx_tkeep;
  wire mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
  wire mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;
  wire rx_local_fault, rx_remote_fault, link_ok;

  eth_mac_xgmii u_mac (
      .tx_clk(clk), .tx_rst(rst), .rx_clk(clk), .rx_rst(rst),
      .s_axis_tdata(mac_tx_tdata), .s_axis_tkeep(mac_tx_tkeep),
      .s_axis_tvalid(mac_tx_tvalid), .s_axis_tready(mac_tx_tready),
      .s_axis_tlast(mac_tx_tlast), .s_axis_tuser(mac_tx_tuser),
      .m_axis_tdata(mac_rx_tdata), .m_axis_tkeep(mac_rx_tkeep),
      .m_axis_tvalid(mac_rx_tvalid), .m_axis_tlast(mac_rx_tlast),
      .m_axis_tuser(mac_rx_tuser),
      .xgmii_txd(xgmii_txd), .xgmii_txc(xgmii_txc),
      .xgmii_rxd(xgmii_rxd), .xgmii_rxc(xgmii_rxc),
      .cfg_ifg(mac_ifg), .cfg_max_len(MAX_FRAME_W),
      .rx_local_fault(rx_local_fault), .rx_remote_fault(rx_remote_fault), .link_ok(link_ok),
      .cnt_ev(ev_mac), .cnt_ev_len(ev_mac_len)
  );

  vboard_node #(
      .DATA_W(64), .KEEP_W(8), .RX_FIFO_BYTES(RX_FIFO_BYTES),
      .ECHO_CSUM_MODE(ECHO_CSUM_MODE), .RX_BUSY_WAIT(RX_BUSY_WAIT)
  ) u_node (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .sim_cycle(sim_cycle),
      .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask),
      .cfg_gateway(cfg_gateway), .cfg_udp_echo_port(cfg_udp_echo_port),
      .s_mac_axis_tdata(mac_rx_tdata), .s_mac_axis_tkeep(mac_rx_tkeep),
      .s_mac_axis_tvalid(mac_rx_tvalid), .s_mac_axis_tlast(mac_rx_tlast),
      .s_mac_axis_tuser(mac_rx_tuser),
      .m_mac_axis_tdata(mac_tx_tdata), .m_mac_axis_tkeep(mac_tx_tkeep),
      .m_mac_axis_tvalid(mac_tx_tvalid), .m_mac_axis_tready(mac_tx_tready),
      .m_mac_axis_tlast(mac_tx_tlast), .m_mac_axis_tuser(mac_tx_tuser),
      .ev_mac(ev_mac[9:0]), .ev_mac_len(ev_mac_len), .cfg_mac_ifg(mac_ifg),
      .sim_counters(sim_counters)
  );

  // the fault events and link status: not in the register map (no faults on this link)
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, ev_mac[12:10], rx_local_fault, rx_remote_fault, link_ok};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
