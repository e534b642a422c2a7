`default_nettype none
// vboard_node: the virtual board's program behind its MAC, the same at every width:
// rtl/top/wirecore_node.v (a receive frame FIFO + udp_stack with ARP, IPv4, ICMP echo,
// UDP, TCP at 8 bits; the UDP echo, the IPbus control plane with the memory and the
// packet generator) with what only the simulation needs. The boards vboard_top (GMII, 8
// bits) and vboard_top_10g (XGMII, 64 bits) are this module behind their MAC; see those
// headers and docs/virtual-board.md.
//
// What it adds to wirecore_node:
//   - the addresses from the harness's command line: wirecore_node with NET_PORTS = 1,
//     so cfg_mac, cfg_ip, cfg_netmask, cfg_gateway and cfg_udp_echo_port drive the stack
//     and the echo (the register file's NET.MAC_HI/MAC_LO/IP/NETMASK/GATEWAY/ECHO_PORT
//     keep their reset values and are not used);
//   - the generator's timestamp from the harness's cycle count (sim_cycle), kept outside
//     the model so that an idle board's state stops changing and the harness can
//     fast-forward over it;
//   - sim_counters: the register file's counters, read hierarchically from the node's
//     register file (wirecore_node's u_ctrl.regfile.counters). They are in flip-flops
//     (CNT_RAM = 0), not the RAM: the harness fast-forwards over cycles where the model's
//     whole state does not change, and a RAM's scanner, moving every cycle, would stop
//     that; flip-flop counters change only with an event.
//
// Interfaces:
//   clk, rst, tick_1ms                 clock, synchronous reset, millisecond strobe
//   sim_cycle[63:0]                    cycles since reset ended, counted by the harness:
//                                      the generator's free-running timestamp counter
//                                      (pktgen CYC_EXT = 1; read only when a datagram's
//                                      header is taken)
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses
//   cfg_udp_echo_port[15:0]            UDP port of the echo (0 = closed)
//   s_mac_axis_t{data,keep,valid,last,user}   the MAC's receive stream (no tready)
//   m_mac_axis_t{data,keep,valid,ready,last,user}   to the MAC's transmitter
//   ev_mac[9:0], ev_mac_len[31:0]      the MAC's event strobes and lengths (counted)
//   cfg_mac_ifg[7:0]                   MAC.IFG, to the MAC
//   sim_counters[32*256-1:0]           the register file's counters, 32 bits each in the
//                                      map's order (counter i in bits [32*i+:32],
//                                      wirecore.regmap.counters()), zeros above the map's
//                                      count: the harness prints them
// Latency: wirecore_node's.
// Parameters: DATA_W (8 or 64: vboard_top and vboard_top_10g), KEEP_W = DATA_W/8,
//   RX_FIFO_BYTES, ECHO_CSUM_MODE, RX_BUSY_WAIT, NIC (1: the smart network interface,
//   8 bits only; vboard_top): wirecore_node's (checked there).
module vboard_node #(
    parameter integer DATA_W         = 8,
    parameter integer KEEP_W         = DATA_W / 8,
    parameter integer RX_FIFO_BYTES  = 16384,
    parameter integer ECHO_CSUM_MODE = 1,
    parameter integer RX_BUSY_WAIT   = 125000,
    parameter integer NIC            = 0
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
    input  wire [DATA_W-1:0] s_mac_axis_tdata,
    input  wire [KEEP_W-1:0] s_mac_axis_tkeep,
    input  wire              s_mac_axis_tvalid,
    input  wire              s_mac_axis_tlast,
    input  wire              s_mac_axis_tuser,
    output wire [DATA_W-1:0] m_mac_axis_tdata,
    output wire [KEEP_W-1:0] m_mac_axis_tkeep,
    output wire              m_mac_axis_tvalid,
    input  wire              m_mac_axis_tready,
    output wire              m_mac_axis_tlast,
    output wire              m_mac_axis_tuser,
    input  wire [ 9:0] ev_mac,
    input  wire [31:0] ev_mac_len,
    output wire [ 7:0] cfg_mac_ifg,
    output wire [32*256-1:0] sim_counters
);

  wirecore_node #(
      .DATA_W(DATA_W), .KEEP_W(KEEP_W), .RX_FIFO_BYTES(RX_FIFO_BYTES),
      .ECHO_CSUM_MODE(ECHO_CSUM_MODE), .RX_BUSY_WAIT(RX_BUSY_WAIT), .CNT_RAM(0),
      .NET_PORTS(1), .NIC(NIC)
  ) u_node (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .ctrl_clk(1'b0), .ctrl_rst(1'b0),
      .ts_cycle(sim_cycle),
      .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask),
      .cfg_gateway(cfg_gateway), .cfg_echo_port(cfg_udp_echo_port),
      .s_mac_axis_tdata(s_mac_axis_tdata), .s_mac_axis_tkeep(s_mac_axis_tkeep),
      .s_mac_axis_tvalid(s_mac_axis_tvalid), .s_mac_axis_tlast(s_mac_axis_tlast),
      .s_mac_axis_tuser(s_mac_axis_tuser),
      .m_mac_axis_tdata(m_mac_axis_tdata), .m_mac_axis_tkeep(m_mac_axis_tkeep),
      .m_mac_axis_tvalid(m_mac_axis_tvalid), .m_mac_axis_tready(m_mac_axis_tready),
      .m_mac_axis_tlast(m_mac_axis_tlast), .m_mac_axis_tuser(m_mac_axis_tuser),
      .ev_mac(ev_mac), .ev_mac_len(ev_mac_len), .cfg_mac_ifg(cfg_mac_ifg)
  );

  // the counters, for the harness (at most 256: wirecore.vboard checks the map's count);
  // zero-extended from the map's count
  /* verilator lint_off WIDTH */
  assign sim_counters = u_node.u_ctrl.regfile.counters.g_ff.count_reg;
  /* verilator lint_on WIDTH */
endmodule
`default_nettype wire
