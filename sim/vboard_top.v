`default_nettype none
// vboard_top: the virtual board at 1 Gbit/s, the whole design on one clock with a GMII
// port.
//
// What it does: eth_mac_gmii (GMII MAC) + vboard_node (a receive frame FIFO, udp_stack
// with the UDP echo, the IPbus control plane and the packet generator, and the smart
// network interface (NIC = 1: classifier, CFAR accelerator, reply builder, transmit
// arbiter; docs/nic.md): the board's program, described in sim/vboard_node.v), everything on clk (125 MHz modelled). The
// C++ harness (sim/vboard.cpp) bridges the GMII port to a Linux TAP and drives tick_1ms
// from the wall clock, so Linux tools talk to the board. vboard_top_10g is the same
// program at 10 Gbit/s (XGMII).
//
//   gmii_rx* -> eth_mac_gmii RX -> vboard_node -> eth_mac_gmii TX -> gmii_tx*
//
// The register file's MAC.IFG sets the MAC's inter-frame gap; MAC.MAX_LEN is not used
// (the MAC takes the MAX_FRAME parameter, jumbo frames included).
//
// Interfaces:
//   clk, rst, tick_1ms                 clock, synchronous reset, millisecond strobe
//   sim_cycle[63:0]                    cycles since reset ended, counted by the harness:
//                                      the generator's free-running timestamp counter
//                                      (pktgen CYC_EXT = 1; read only when a datagram's
//                                      header is taken), kept outside the model so that
//                                      an idle board's state stops changing and the
//                                      harness can fast-forward over it
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er, gmii_txd[7:0], gmii_tx_en, gmii_tx_er
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses
//   cfg_udp_echo_port[15:0]            UDP port of the echo (0 = closed)
//   sim_counters[32*256-1:0]           (simulation only) the register file's counters,
//                                      32 bits each in the map's order (counter i in bits
//                                      [32*i+:32], wirecore.regmap.counters()), zeros above
//                                      the map's count: the harness prints them
// Latency: the MAC's receive latency, plus vboard_node's (the whole frame and 2 cycles,
//   plus the stack's turnaround), plus 1 cycle to the first preamble byte.
// Parameters: RX_FIFO_BYTES (power of two; 16384 holds a 9018-byte jumbo frame and more),
//   MAX_FRAME (largest frame the MAC accepts, FCS included), ECHO_CSUM_MODE (the
//   echo port's TX checksum mode: 0 none, 1 computed), RX_BUSY_WAIT (cycles an application
//   port may take to accept a datagram before it is dropped and counted: 125000 = 1 ms,
//   far longer than any of the board's applications needs).
module vboard_top #(
    parameter integer RX_FIFO_BYTES  = 16384,
    parameter integer MAX_FRAME      = 9018,
    parameter integer ECHO_CSUM_MODE = 1,
    parameter integer RX_BUSY_WAIT   = 125000
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
    input  wire [ 7:0] gmii_rxd,
    input  wire        gmii_rx_dv,
    input  wire        gmii_rx_er,
    output wire [ 7:0] gmii_txd,
    output wire        gmii_tx_en,
    output wire        gmii_tx_er,
    output wire [32*256-1:0] sim_counters
);
  localparam [15:0] MAX_FRAME_W = MAX_FRAME[15:0];

  wire [7:0]  mac_ifg;
  wire [9:0]  ev_mac;
  wire [31:0] ev_mac_len;
  wire [7:0]  mac_rx_tdata, mac_tx_tdata;
  wire [0:0]  mac_tx_tkeep;  // 8-bit stream: the MAC takes one byte per beat
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
      .cfg_ifg(mac_ifg), .cfg_max_len(MAX_FRAME_W),
      .cnt_ev(ev_mac), .cnt_ev_len(ev_mac_len)
  );

  vboard_node #(
      .DATA_W(8), .KEEP_W(1), .RX_FIFO_BYTES(RX_FIFO_BYTES), .ECHO_CSUM_MODE(ECHO_CSUM_MODE),
      .RX_BUSY_WAIT(RX_BUSY_WAIT), .NIC(1)
  ) u_node (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .sim_cycle(sim_cycle),
      .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask),
      .cfg_gateway(cfg_gateway), .cfg_udp_echo_port(cfg_udp_echo_port),
      .s_mac_axis_tdata(mac_rx_tdata), .s_mac_axis_tkeep(1'b1),
      .s_mac_axis_tvalid(mac_rx_tvalid), .s_mac_axis_tlast(mac_rx_tlast),
      .s_mac_axis_tuser(mac_rx_tuser),
      .m_mac_axis_tdata(mac_tx_tdata), .m_mac_axis_tkeep(mac_tx_tkeep),
      .m_mac_axis_tvalid(mac_tx_tvalid), .m_mac_axis_tready(mac_tx_tready),
      .m_mac_axis_tlast(mac_tx_tlast), .m_mac_axis_tuser(mac_tx_tuser),
      .ev_mac(ev_mac), .ev_mac_len(ev_mac_len), .cfg_mac_ifg(mac_ifg),
      .sim_counters(sim_counters)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, mac_tx_tkeep};  // the 8-bit MAC takes every beat whole
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
