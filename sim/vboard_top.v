`default_nettype none
// vboard_top: the virtual board, the whole design on one clock with a GMII port.
//
// What it does: eth_mac_gmii (GMII MAC) + a receive frame FIFO + udp_stack (ARP, IPv4,
// ICMP echo, UDP) with three UDP application ports, everything on clk (125 MHz
// modelled). The C++ harness (sim/vboard.cpp) bridges the GMII port to a Linux TAP and
// drives tick_1ms from the wall clock, so Linux tools talk to the board.
//
//   gmii_rx* -> eth_mac_gmii RX -> axis_fifo (frame mode: bad frames dropped, frames that
//   do not fit dropped) -> udp_stack -> { port 0 udp_echo, port 1 ipbus_ctrl } ->
//   udp_stack (also port 2 pktgen, transmit only) -> eth_mac_gmii TX -> gmii_tx*
//
// UDP ports of the stack:
//   0  udp_echo at cfg_udp_echo_port (checksum mode ECHO_CSUM_MODE)
//   1  ipbus_ctrl (IPbus 2.0 target, register file, 64 KiB memory; docs/ipbus.md) at
//      NET.IPBUS_PORT (50001 after reset), checksum mode 1
//   2  pktgen (docs/daq.md), transmit only: its receive side is closed (port number 0,
//      so datagrams to NET.PKTGEN_PORT count as closed-port drops); source port
//      NET.PKTGEN_PORT (50002 after reset), checksum mode 1
//
// Configuration: the top-level ports win for what the harness sets from its command
// line: cfg_mac, cfg_ip, cfg_netmask, cfg_gateway drive the stack and cfg_udp_echo_port
// the echo's port; the register file's NET.MAC_HI/MAC_LO/IP/NETMASK/GATEWAY/ECHO_PORT
// keep their reset values and are not used. The register file drives: MAC.IFG (the
// MAC's inter-frame gap), NET.TTL and NET.DF (the stack), NET.IPBUS_PORT (port 1),
// NET.PKTGEN_PORT (the generator's source port), NET.UNREACH_PER_MS (ICMP port
// unreachable for closed UDP ports, 10 per ms after reset), NET.ENABLES (the stack's
// run-time enables: ARP and ICMP echo answers, the UDP checksum check, the raw channel's
// receive side) and every PKTGEN register (CTRL bit 0
// start / bit 1 stop, LENGTH, COUNT, GAP, NUM_DEST, PAYLOAD.MODE/BYTE, TS_EXT,
// WARMUP_MS, DEST_IPi/DEST_PORTi as the generator's flat table). Not used on this
// board: MAC.MAX_LEN (the MAC takes the MAX_FRAME parameter, jumbo frames included),
// NET.RAW_ETHERTYPE (the raw-EtherType channel is unused: its EtherType is 0xFFFF,
// reserved, so nothing reaches it), the user register window (accesses time out) and
// the generator's ts_in (0).
// Counters: every counter of the map lives in ipbus_ctrl's register file (one
// stat_counters in flip-flops, CNT_RAM = 0), fed by the blocks' event strobes: the MAC's
// (ev_mac, ev_mac_len), the RX FIFO's full drops (ev_rx_fifo), udp_stack's (ev_stack),
// the echo's (ev_echo) and the generator's (ev_pktgen, ev_pktgen_len). Flip-flops, not
// the RAM: the harness fast-forwards over cycles where the model's whole state does not
// change, and a RAM's scanner, moving every cycle, would stop that; flip-flop counters
// change only with an event. Status in the map: PKTGEN.STATUS (busy), ROUND_LO/HI.
//
// The MAC's receive stream cannot wait, and the stack may (an ICMP or UDP reply waits
// for the transmitter), so a frame FIFO sits between them: frames reach the stack whole
// and only if good (the MAC counts bad ones), and a frame that finds the FIFO full is
// dropped whole and counted (MAC.RX_DROPPED_FULL).
//
// Interfaces:
//   clk, rst, tick_1ms                 clock, synchronous reset, millisecond strobe
//   sim_cycle[63:0]                    cycles since reset ended, counted by the harness:
//                                      the generator's free-running timestamp counter
//                                      (pktgen CYC_EXT = 1; read only when a datagram's
//                                      header is taken), kept outside the model so that
//                                      an idle board's state stops changing and the
//                                      harness can fast-forward over it
//   sim_gclk[NG-1:0], sim_gate_en[NG-1:0]  activity gating (simulation only): the gated
//                                      clocks of the blocks that are idle most of the
//                                      time, driven by the harness, and whether each
//                                      domain can change state at the next edge (see
//                                      "activity gating" below)
//   sim_gate_in[NG-1:0], sim_gate_clk  (constants) the gated clocks the harness also
//                                      raises whenever the GMII receive inputs are not
//                                      idle, and that clk may be held low too when every
//                                      enable is 0
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er, gmii_txd[7:0], gmii_tx_en, gmii_tx_er
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses
//   cfg_udp_echo_port[15:0]            UDP port of the echo (0 = closed)
//   sim_counters[32*128-1:0]           (simulation only) the register file's counters,
//                                      32 bits each in the map's order (counter i in bits
//                                      [32*i+:32], wirecore.regmap.counters()), zeros above
//                                      the map's count: the harness prints them
// Latency: the MAC's receive latency, plus the whole frame (the RX FIFO is a frame
//   FIFO) and 2 cycles, plus the stack's turnaround (docs/stack.md) and, for IPbus, the
//   target's (docs/ipbus.md), plus 1 cycle to the first preamble byte.
// Parameters: NG (the number of gated clocks: 7, fixed by the design below),
//   RX_FIFO_BYTES (power of two; 16384 holds a 9018-byte jumbo frame and more),
//   MAX_FRAME (largest frame the MAC accepts, FCS included), ECHO_CSUM_MODE (the
//   echo port's TX checksum mode: 0 none, 1 computed), RX_BUSY_WAIT (cycles an application
//   port may take to accept a datagram before it is dropped and counted: 125000 = 1 ms,
//   far longer than any of the board's applications needs).
module vboard_top #(
    parameter integer NG             = 7,  // gated domains (fixed: see "Activity gating")
    parameter integer RX_FIFO_BYTES  = 16384,
    parameter integer MAX_FRAME      = 9018,
    parameter integer ECHO_CSUM_MODE = 1,
    parameter integer RX_BUSY_WAIT   = 125000
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        tick_1ms,
    input  wire [63:0] sim_cycle,
    // simulation-only activity gating (see "Activity gating" below)
    input  wire [NG-1:0] sim_gclk,
    output wire [NG-1:0] sim_gate_en,
    output wire [NG-1:0] sim_gate_in,
    output wire          sim_gate_clk,
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
    output wire [32*128-1:0] sim_counters
);
  localparam [15:0] MAX_FRAME_W = MAX_FRAME[15:0];
  // the gated clocks (see "Activity gating" below)
  wire gclk_ipb = sim_gclk[3];  // ipbus_ctrl and port 1's transmitter
  wire gclk_pg  = sim_gclk[4];  // pktgen and port 2's transmitter
  wire gclk_arp = sim_gclk[0], gclk_icmp = sim_gclk[1];
  wire gclk_tx0 = sim_gclk[2];  // port 0's transmitter, the arbiter, the MAC's transmitter
  wire gclk_cfg = sim_gclk[5];  // the addresses' registers and raw_tx
  wire gclk_rx  = sim_gclk[6];  // the receive path: the MAC's receiver to udp_rx, udp_echo
  // the stack's gated clocks (udp_stack SIM_GATE = 1)
  assign u_stack.g_gate.arp     = gclk_arp;
  assign u_stack.g_gate.icmp    = gclk_icmp;
  assign u_stack.g_gate.unreach = gclk_icmp;
  assign u_stack.g_gate.raw     = gclk_cfg;
  assign u_stack.g_gate.rx      = gclk_rx;
  assign u_stack.g_gate.arb     = gclk_tx0;
  assign u_stack.g_tx[0].g_gate.tx = gclk_tx0;
  assign u_stack.g_tx[1].g_gate.tx = gclk_ipb;
  assign u_stack.g_tx[2].g_gate.tx = gclk_pg;
  localparam [1:0] ECHO_MODE = ECHO_CSUM_MODE[1:0];

  // The addresses and the echo's port, registered on their own gated clock (domain 5),
  // which rises only in reset and with tick_1ms (its enable is 0). The harness sets the
  // cfg_* inputs once, before reset, and never changes them, so these registers hold
  // them from the first cycle of reset on, as the ungated design's (loaded every cycle)
  // do. Read as the model's inputs, the logic that uses them (ARP's transmit bytes, and
  // from there the transmit arbiter's data and the MAC's transmit CRC) was also in the
  // model's input region, evaluated a second time every cycle; as registers of a
  // domain that rarely rises it is evaluated only with the logic that reads it.
  reg [47:0] cfg_mac_q;
  reg [31:0] cfg_ip_q, cfg_netmask_q, cfg_gateway_q;
  reg [15:0] cfg_echo_port_q;
  always @(posedge gclk_cfg) begin
    cfg_mac_q       <= cfg_mac;
    cfg_ip_q        <= cfg_ip;
    cfg_netmask_q   <= cfg_netmask;
    cfg_gateway_q   <= cfg_gateway;
    cfg_echo_port_q <= cfg_udp_echo_port;
  end

  // register-file outputs used ahead of the control plane's instance
  wire [7:0]  reg_mac_ifg;
  wire [7:0]  reg_ttl;
  wire        reg_df;
  wire [7:0]  reg_unreach_per_ms;
  wire [15:0] reg_ipbus_port, reg_pktgen_src_port;
  wire [3:0]  reg_enables;  // NET.ENABLES

  // the blocks' event strobes, counted in the register file (see "Counters" above)
  wire [9:0]  ev_mac;
  wire [31:0] ev_mac_len;
  wire        ev_rx_fifo;
  wire [57:0] ev_stack;  // udp_stack cnt_ev with NP = 3 ports
  wire        ev_echo;
  wire [1:0]  ev_pktgen;
  wire [15:0] ev_pktgen_len;

  // ---------------- MAC ----------------
  wire [7:0] mac_rx_tdata, mac_tx_tdata;
  wire mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
  wire mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;

  eth_mac_gmii u_mac (
      .tx_clk(gclk_tx0), .tx_rst(rst), .rx_clk(gclk_rx), .rx_rst(rst),
      .s_axis_tdata(mac_tx_tdata), .s_axis_tvalid(mac_tx_tvalid),
      .s_axis_tready(mac_tx_tready), .s_axis_tlast(mac_tx_tlast),
      .s_axis_tuser(mac_tx_tuser),
      .m_axis_tdata(mac_rx_tdata), .m_axis_tvalid(mac_rx_tvalid),
      .m_axis_tlast(mac_rx_tlast), .m_axis_tuser(mac_rx_tuser),
      .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
      .gmii_rxd(gmii_rxd), .gmii_rx_dv(gmii_rx_dv), .gmii_rx_er(gmii_rx_er),
      .cfg_ifg(reg_mac_ifg), .cfg_max_len(MAX_FRAME_W),
      .cnt_ev(ev_mac), .cnt_ev_len(ev_mac_len)
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
      .clk(gclk_rx), .rst(rst),
      .s_axis_tdata(mac_rx_tdata), .s_axis_tkeep(1'b1), .s_axis_tvalid(mac_rx_tvalid),
      .s_axis_tready(), .s_axis_tlast(mac_rx_tlast), .s_axis_tuser(mac_rx_tuser),
      .m_axis_tdata(st_rx_tdata), .m_axis_tkeep(st_rx_tkeep), .m_axis_tvalid(st_rx_tvalid),
      .m_axis_tready(st_rx_tready), .m_axis_tlast(st_rx_tlast), .m_axis_tuser(st_rx_tuser),
      .status_overflow(fifo_overflow), .status_drop_bad(fifo_drop_bad),
      .status_drop_full(fifo_drop_full), .status_good_frame(fifo_good)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  assign ev_rx_fifo = fifo_drop_full;


  // ---------------- stack: port 0 echo, port 1 IPbus, port 2 generator ----------------
  localparam integer NP = 3;
  wire [0:0]       tx_tkeep;  // 8-bit stream: the MAC takes one byte per beat
  wire [NP-1:0]    urx_hdr_valid, urx_hdr_ready;
  wire [NP*48-1:0] urx_hdr_src_mac;
  wire [NP*32-1:0] urx_hdr_src_ip;
  wire [NP*16-1:0] urx_hdr_src_port, urx_hdr_dst_port, urx_hdr_len;
  wire [NP*8-1:0]  urx_tdata;
  wire [NP-1:0]    urx_tkeep, urx_tvalid, urx_tready, urx_tlast, urx_tuser;
  wire [NP-1:0]    utx_hdr_valid, utx_hdr_ready, utx_hdr_dst_mac_valid;
  wire [NP*48-1:0] utx_hdr_dst_mac;
  wire [NP*32-1:0] utx_hdr_dst_ip;
  wire [NP*16-1:0] utx_hdr_dst_port, utx_hdr_src_port, utx_hdr_len, utx_hdr_csum;
  wire [NP*8-1:0]  utx_tdata;
  wire [NP-1:0]    utx_tkeep, utx_tvalid, utx_tready, utx_tlast, utx_tuser;
  // the raw-EtherType channel is unused
  wire        raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser;
  wire [47:0] raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac;
  wire [7:0]  raw_rx_tdata;
  wire [0:0]  raw_rx_tkeep;
  wire        raw_tx_hdr_ready, raw_tx_tready;

  udp_stack #(
      .DATA_W(8), .KEEP_W(1), .NUM_PORTS(NP), .RX_STORE_FWD(0), .TX_BUF_BYTES(2048),
      .ICMP_UNREACH(1), .RX_BUSY_WAIT(RX_BUSY_WAIT), .SIM_GATE(1)
  ) u_stack (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
      .cfg_mac(cfg_mac_q), .cfg_ip(cfg_ip_q), .cfg_netmask(cfg_netmask_q),
      .cfg_gateway(cfg_gateway_q), .cfg_ttl(reg_ttl), .cfg_df(reg_df),
      .cfg_raw_ethertype(16'hFFFF),
      .cfg_udp_port({16'd0, reg_ipbus_port, cfg_echo_port_q}),
      .cfg_udp_csum_mode({2'd1, 2'd1, ECHO_MODE}),
      .cfg_unreach_per_ms(reg_unreach_per_ms),
      .cfg_arp_answer(reg_enables[0]), .cfg_icmp_answer(reg_enables[1]),
      .cfg_udp_csum_check(reg_enables[2]), .cfg_raw_en(reg_enables[3]),
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
      .cnt_ev(ev_stack)
  );

  // ---------------- port 0: UDP echo ----------------
  udp_echo #(.DATA_W(8), .KEEP_W(1)) u_echo (
      .clk(gclk_rx), .rst(rst),
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
      .cnt_ev(ev_echo)
  );

  // ---------------- port 1: IPbus control plane ----------------
  wire [1:0]   pg_ctrl;
  wire         pg_busy;
  wire [15:0]  pg_len, pg_warmup_ms;
  wire [31:0]  pg_count, pg_gap;
  wire [4:0]   pg_ndst;
  wire [8:0]   pg_payload;
  wire         pg_ts_ext;
  wire [63:0]  pg_round;
  wire [511:0] pg_dst_ip;
  wire [255:0] pg_dst_port;

  /* verilator lint_off PINCONNECTEMPTY */
  ipbus_ctrl #(.DATA_W(8), .CNT_RAM(0)) u_ctrl (
      .clk(gclk_ipb), .rst(rst), .tick_1ms(tick_1ms),
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
      // user window unused (accesses time out)
      .m_user_reg_req(), .m_user_reg_we(), .m_user_reg_addr(), .m_user_reg_wdata(),
      .m_user_reg_ack(1'b0), .m_user_reg_err(1'b0), .m_user_reg_rdata(32'd0),
      .cfg_write_protect(),  // used inside ipbus_ctrl; nothing else to protect here
      .cfg_sys_scratch(),
      // MAC
      .cfg_mac_ifg(reg_mac_ifg),
      .cfg_mac_max_len(),  // the MAC takes MAX_FRAME
      // NET: the top-level ports win for the addresses and the echo port
      .cfg_mac(),
      .cfg_ip(),
      .cfg_netmask(),
      .cfg_gateway(),
      .cfg_raw_ethertype(),  // raw channel unused
      .cfg_ipbus_port(reg_ipbus_port),
      .cfg_echo_port(),
      .cfg_pktgen_src_port(reg_pktgen_src_port),
      .cfg_enables(reg_enables),
      .cfg_ttl(reg_ttl),
      .cfg_df(reg_df),
      .cfg_unreach_per_ms(reg_unreach_per_ms),
      // IPBUS (allow-list used inside ipbus_ctrl)
      .cfg_ipb_allow_en(),
      .cfg_ipb_allow_ip(),
      // PKTGEN
      .stb_pktgen_ctrl(pg_ctrl),
      .sts_pktgen_running(pg_busy),
      .cfg_pktgen_length(pg_len),
      .cfg_pktgen_count(pg_count),
      .cfg_pktgen_gap(pg_gap),
      .cfg_pktgen_num_dest(pg_ndst),
      .cfg_pktgen_payload(pg_payload),
      .cfg_pktgen_ts_ext(pg_ts_ext),
      .cfg_pktgen_warmup_ms(pg_warmup_ms),
      .sts_pktgen_round(pg_round),
      .cfg_pktgen_dest_ip(pg_dst_ip),
      .cfg_pktgen_dest_port(pg_dst_port),
      // the counters' events
      .ev_mac(ev_mac), .ev_rx_fifo(ev_rx_fifo), .ev_stack(ev_stack), .ev_echo(ev_echo),
      .ev_pktgen(ev_pktgen), .ev_mac_len(ev_mac_len), .ev_pktgen_len(ev_pktgen_len)
  );
  // the counters, for the harness (at most 128: wirecore.vboard checks the map's count);
  // zero-extended from the map's count
  /* verilator lint_off WIDTH */
  assign sim_counters = u_ctrl.regfile.counters.g_ff.count_reg;
  /* verilator lint_on WIDTH */
  /* verilator lint_on PINCONNECTEMPTY */

  // ---------------- port 2: packet generator (transmit only) ----------------
  pktgen #(.DATA_W(8), .KEEP_W(1), .DST_RAM(0), .CYC_EXT(1)) u_pktgen (
      .clk(gclk_pg), .rst(rst), .tick_1ms(tick_1ms), .ts_in(64'd0), .cyc_in(sim_cycle),
      .start(pg_ctrl[0]), .stop(pg_ctrl[1]), .busy(pg_busy),
      .cfg_len(pg_len), .cfg_count(pg_count), .cfg_gap(pg_gap), .cfg_ndst(pg_ndst),
      .cfg_lfsr(pg_payload[0]), .cfg_fill(pg_payload[8:1]), .cfg_ts_ext(pg_ts_ext),
      .cfg_src_port(reg_pktgen_src_port), .cfg_warmup_ms(pg_warmup_ms),
      .cfg_dst_we(1'b0), .cfg_dst_addr(4'd0), .cfg_dst_ip(32'd0), .cfg_dst_port(16'd0),
      .cfg_dst_ip_all(pg_dst_ip), .cfg_dst_port_all(pg_dst_port),
      .cnt_ev(ev_pktgen), .cnt_ev_len(ev_pktgen_len),
      .status_round(pg_round),
      .m_hdr_valid(utx_hdr_valid[2]), .m_hdr_ready(utx_hdr_ready[2]),
      .m_hdr_dst_mac(utx_hdr_dst_mac[143:96]), .m_hdr_dst_mac_valid(utx_hdr_dst_mac_valid[2]),
      .m_hdr_dst_ip(utx_hdr_dst_ip[95:64]), .m_hdr_dst_port(utx_hdr_dst_port[47:32]),
      .m_hdr_src_port(utx_hdr_src_port[47:32]), .m_hdr_len(utx_hdr_len[47:32]),
      .m_hdr_csum(utx_hdr_csum[47:32]),
      .m_axis_tdata(utx_tdata[23:16]), .m_axis_tkeep(utx_tkeep[2]),
      .m_axis_tvalid(utx_tvalid[2]), .m_axis_tready(utx_tready[2]),
      .m_axis_tlast(utx_tlast[2]), .m_axis_tuser(utx_tuser[2])
  );
  // the generator's receive side is closed (port number 0): accept anything regardless
  assign urx_hdr_ready[2] = 1'b1;
  assign urx_tready[2]    = 1'b1;


  // ---------------- activity gating (simulation only) ----------------
  // The blocks that are idle most of the time run on gated clocks, sim_gclk[i], which
  // the harness raises together with clk only in cycles where sim_gate_en[i] (or
  // tick_1ms, or rst) is 1: Verilator evaluates a block's clocked logic, and the
  // combinational logic that depends only on it, only at its clock's edges, so an idle
  // block costs nothing. The domains (blocks that act together share one, so that the
  // model has few triggers):
  //   [0] ARP   [1] icmp_echo and icmp_unreach
  //   [2] port 0's UDP transmitter, the transmit arbiter and the MAC's transmitter
  //   [3] ipbus_ctrl and port 1's transmitter    [4] pktgen and port 2's transmitter
  //   [5] the addresses' registers (cfg_*_q) and raw_tx (unused here: it only settles
  //       after reset and takes the ticks' edges)
  //   [6] the receive path: the MAC's receiver, the RX frame FIFO, eth_rx, ip_rx, udp_rx
  //       and udp_echo (raised also in every cycle whose GMII receive inputs are not
  //       idle: sim_gate_in)
  // and clk itself, which only the gating's own logic below is left on, held low by the
  // harness when every enable is 0 (sim_gate_clk).
  // sim_gate_en[i] is read after a cycle's evaluation, for the next edge, so it is a
  // function of registers only. It is exact: when it is 0, no register or memory of the
  // domain would change at that edge: each block is in its idle state (named below), no
  // valid or strobe from outside the domain reaches it, no input that it loads while
  // idle changed since the previous cycle, and it has been so for GATE_SETTLE cycles (the
  // registers it keeps loading while idle from its own, now constant, registers have
  // settled: pipelines, read registers, strobes cleared the cycle after). The harness's
  // --no-gate raises every clock with clk (the same design without gating), and its
  // --gate-verify runs both and compares their whole state after every cycle
  // (tests/system/test_vboard_gate.py).
  localparam integer GATE_SETTLE = 8;
  localparam [GATE_SETTLE-1:0] SETTLE = {GATE_SETTLE{1'b1}};
  localparam [GATE_SETTLE-1:0] NONE = {GATE_SETTLE{1'b0}};

  // ARP (and the stack's round-robin grant of its lookup port, arp_last/arp_owner, which
  // load only when a lookup request is taken): the engine idle (no lookup waiting, no
  // received event, no background pass to run or to run again, no decision's write),
  // the transmitter idle, no gratuitous ARP due, no lookup answer out, no change of the
  // addresses being detected (cfg_chg, chg_b), the receiver between frames with nothing
  // held, no beat from eth_rx, no lookup request
  wire act_arp = (u_stack.u_arp.state != 3'd1) || u_stack.u_arp.lk_pend ||
                 u_stack.u_arp.ev_valid || (u_stack.u_arp.sw_left != 0) ||
                 u_stack.u_arp.sw_again || u_stack.u_arp.wr_m || u_stack.u_arp.wr_d ||
                 u_stack.u_arp.tx_busy || u_stack.u_arp.garp_pend ||
                 u_stack.u_arp.arp_resp_valid || u_stack.u_arp.cfg_chg ||
                 (u_stack.u_arp.chg_b != 10'd0) ||
                 u_stack.u_arp.u_rx.fin || u_stack.u_arp.u_rx.c_hold ||
                 (u_stack.u_arp.u_rx.beat != 6'd0) ||
                 u_stack.arp_rx_tvalid || u_stack.arp_req_valid;

  // icmp_echo: S_IDLE, its engine idle, its FIFO and checksum pipeline empty, no header
  // or beat offered, s_axis_tuser (loaded every cycle, ck_u) unchanged. icmp_unreach:
  // S_IDLE, its engine idle, no closed-port datagram offered
  reg  icmp_tuser_q;
  always @(posedge clk) icmp_tuser_q <= u_stack.icmp_tuser;
  wire act_icmp = (u_stack.g_echo.u_icmp.st != 2'd0) ||
                  (u_stack.g_echo.u_icmp.eng.st != 3'd0) ||
                  u_stack.g_echo.u_icmp.f_tvalid || u_stack.g_echo.u_icmp.c_in ||
                  u_stack.g_echo.u_icmp.ck_v || u_stack.g_echo.u_icmp.ck_fv ||
                  u_stack.icmp_hdr_valid || u_stack.icmp_tvalid ||
                  (u_stack.icmp_tuser != icmp_tuser_q) ||
                  (u_stack.g_unreach.u_unreach.st != 2'd0) ||
                  (u_stack.g_unreach.u_unreach.eng.st != 3'd0) ||
                  u_stack.closed_valid;

  // a UDP transmitter: the store-and-forward writer and reader idle, no ARP lookup, the
  // engine idle, no header offered. While idle it loads the header fields and cfg_ttl,
  // cfg_df (the register file's, domain 3): port 0's come from udp_echo (domain 6) and
  // are compared with the previous cycle's; ports 1 and 2 share their application's
  // domain, whose registers they are (and port 2's source port, the register file's:
  // domain 4 runs whenever domain 3 does)
  reg  [8:0] ttl_df_q;
  always @(posedge clk) ttl_df_q <= {reg_ttl, reg_df};
  wire [NP-1:0] act_tx;
  genvar gp;
  generate
    for (gp = 0; gp < NP; gp = gp + 1) begin : g_gtx
      assign act_tx[gp] = (u_stack.g_tx[gp].u_udp_tx.g_sf.sf.ws != 2'd0) ||
                          u_stack.g_tx[gp].u_udp_tx.g_sf.sf.rd_act ||
                          u_stack.g_tx[gp].u_udp_tx.g_sf.sf.pass_pend ||
                          u_stack.g_tx[gp].u_udp_tx.tx.arp_req_valid ||
                          u_stack.g_tx[gp].u_udp_tx.tx.w_wait ||
                          (u_stack.g_tx[gp].u_udp_tx.tx.eng.st != 3'd0) ||
                          utx_hdr_valid[gp];
    end
  endgenerate
  wire [144:0] f0 = {utx_hdr_dst_mac[47:0], utx_hdr_dst_mac_valid[0], utx_hdr_dst_ip[31:0],
                     utx_hdr_dst_port[15:0], utx_hdr_src_port[15:0], utx_hdr_len[15:0],
                     utx_hdr_csum[15:0]};
  reg  [144:0] f0_q;
  always @(posedge clk) f0_q <= f0;
  wire act_tx0 = act_tx[0] || (f0 != f0_q) || ({reg_ttl, reg_df} != ttl_df_q);

  // ipbus_ctrl: the target's engine and transmitter idle, no job or packet pop pending,
  // no register access, the receive buffer idle and its queue empty, no header or beat
  // offered (the register file reads its inputs only on an access)
  wire act_ipb = (u_ctrl.target.state != 5'd0) || (u_ctrl.target.tstate != 2'd0) ||
                 u_ctrl.target.tx_start || u_ctrl.target.pkt_pop || u_ctrl.target.reg_req ||
                 (u_ctrl.target.rxbuf.rstate != 2'd0) ||
                 (u_ctrl.target.rxbuf.q_wr != u_ctrl.target.rxbuf.q_rd) ||
                 u_ctrl.target.rxbuf.q_loaded || u_ctrl.target.rxbuf.q_loading ||
                 urx_hdr_valid[1] || urx_tvalid[1] || act_tx[1] ||
                 // (an event to count: the register file's counters are on this clock)
                 (|ev_mac) || ev_rx_fifo || (|ev_stack) || ev_echo || (|ev_pktgen);

  // pktgen: S_IDLE, no start or stop strobe (it loads its destination table and gap
  // from the register file while idle: with domain 3's enable)
  wire act_pg = (u_pktgen.state != 3'd0) || (pg_ctrl != 2'd0) || act_tx[2];

  // the addresses' registers load the constant cfg_* inputs; raw_tx (the unused
  // raw-EtherType channel: its inputs are constants): its engine idle, no header or beat
  // offered (while idle it loads its header registers from constants)
  wire act_cfg = (u_stack.u_raw_tx.eng.st != 3'd0) || u_stack.s_raw_tx_hdr_valid ||
                 u_stack.s_raw_tx_axis_tvalid;

  // The receive path (domain 6): the MAC's receiver, the RX frame FIFO, eth_rx, ip_rx and
  // udp_rx (each with its FIFO and stream_strip) and udp_echo. Idle: the MAC's receiver
  // between frames (not in a frame, not dropping one, no end pending, no beat out) with
  // its input registers holding an idle wire (the wire itself is an input of the model,
  // not a register: the harness raises this clock in every cycle whose GMII receive
  // inputs are not idle, sim_gate_in below); the frame FIFO empty, no beat out, not
  // dropping; each parser between packets (no header taken, no end seen, no command
  // made or waiting, nothing in its checksum and verdict pipelines, no datagram in
  // flight towards udp_rx's strip, no closed-port strobe, no busy-port wait or discard),
  // its FIFO empty and its strip idle with no header or beat offered; udp_echo's pipe
  // empty. What they load while idle comes from their own registers (settled within
  // GATE_SETTLE cycles) and the addresses' registers (domain 5); the readies from the
  // other domains matter only while a header or beat is offered, and cfg_udp_port
  // (port 1's is the register file's) is read only as a datagram's header arrives.

  // a parser's FIFO (f: the stream_fifo_g inside eth_rx's stream_fifo u_fifo, or ip_rx's
  // and udp_rx's own stream_fifo_g u_fifo) and strip (stream_strip u_strip, 8 bits) not
  // idle: something stored, offered or in the strip's state machine or skid register
`define VBOARD_FIFO_STRIP_ACT(b, f) \
    (!f.empty || f.a_valid || f.m_axis_tvalid || \
     (b.u_strip.g_byte.st != 2'd0) || b.u_strip.g_byte.sk_v || b.u_strip.m_hdr_valid || \
     b.u_strip.m_axis_tvalid)
  wire act_mac_rx = u_mac.u_core.u_rx.in_frame || u_mac.u_core.u_rx.drop ||
                    u_mac.u_core.u_rx.end_p || u_mac.u_core.u_rx.out_open ||
                    u_mac.u_core.u_rx.dv0 || u_mac.u_core.u_rx.er0 ||
                    (u_mac.u_core.u_rx.d0 != 8'd0) || mac_rx_tvalid;
  wire act_rx_fifo = !u_rx_fifo.empty || u_rx_fifo.out_valid || u_rx_fifo.drop_frame;
  wire act_eth_rx = u_stack.u_eth_rx.cmd_valid || u_stack.u_eth_rx.pushed ||
                    u_stack.u_eth_rx.ended || (u_stack.u_eth_rx.bcnt != 0) ||
                    `VBOARD_FIFO_STRIP_ACT(u_stack.u_eth_rx, u_stack.u_eth_rx.u_fifo.u_fifo);
  wire act_ip_rx = u_stack.u_ip_rx.active || u_stack.u_ip_rx.ended ||
                   u_stack.u_ip_rx.pushed || u_stack.u_ip_rx.cmd_valid ||
                   u_stack.u_ip_rx.hdr_have || u_stack.u_ip_rx.ck0 || u_stack.u_ip_rx.ck1 ||
                   u_stack.u_ip_rx.ck2 || u_stack.u_ip_rx.bs_v || (u_stack.u_ip_rx.bcnt != 0) ||
                   `VBOARD_FIFO_STRIP_ACT(u_stack.u_ip_rx, u_stack.u_ip_rx.u_fifo);
  wire act_udp_rx = u_stack.u_udp_rx.active || u_stack.u_udp_rx.ended ||
                    u_stack.u_udp_rx.pushed || u_stack.u_udp_rx.cmd_valid ||
                    u_stack.u_udp_rx.hdr_complete || u_stack.u_udp_rx.tail ||
                    u_stack.u_udp_rx.bs_v || u_stack.u_udp_rx.ep || u_stack.u_udp_rx.e0 ||
                    u_stack.u_udp_rx.e1 || u_stack.u_udp_rx.e2 || u_stack.u_udp_rx.e3 ||
                    u_stack.u_udp_rx.ebusy || u_stack.u_udp_rx.sts_nz ||
                    (u_stack.u_udp_rx.sts_n != 3'd0) || (u_stack.u_udp_rx.infl != 3'd0) ||
                    u_stack.u_udp_rx.closed_valid || (u_stack.u_udp_rx.bcnt != 0) ||
                    u_stack.u_udp_rx.g_busy.disc_r || u_stack.u_udp_rx.g_busy.inc_busy ||
                    (u_stack.u_udp_rx.g_busy.bw_t != 0) ||
                    `VBOARD_FIFO_STRIP_ACT(u_stack.u_udp_rx, u_stack.u_udp_rx.u_fifo);
  wire act_echo = u_echo.g_pipe.u_pipe.out_valid || u_echo.g_pipe.u_pipe.skid_valid;
  wire act_rx = act_mac_rx || act_rx_fifo || act_eth_rx || act_ip_rx || act_udp_rx || act_echo;
`undef VBOARD_FIFO_STRIP_ACT

  // The transmit side (in domain 2): eth_tx_arb and the MAC's transmitter. Idle: the
  // arbiter not inside a frame and no source offering a beat (its grant moves only to a
  // requester), the MAC's transmitter in its idle state (past the inter-frame gap); the
  // MAC reads cfg_ifg (the register file's) only inside a frame.
  wire act_arb = u_stack.u_tx_arb.locked || (u_stack.ab_tvalid != 0) ||
                 !u_mac.u_core.u_tx.s_idle;

  // the last GATE_SETTLE cycles' act_*
  wire act_out = act_tx0 || act_arb;  // domain 2
  reg  [GATE_SETTLE-1:0] h_arp, h_icmp, h_tx0, h_ipb, h_pg, h_cfg, h_rx;
  always @(posedge clk) begin
    h_arp  <= rst ? SETTLE : {h_arp[GATE_SETTLE-2:0], act_arp};
    h_icmp <= rst ? SETTLE : {h_icmp[GATE_SETTLE-2:0], act_icmp};
    h_tx0  <= rst ? SETTLE : {h_tx0[GATE_SETTLE-2:0], act_out};
    h_ipb  <= rst ? SETTLE : {h_ipb[GATE_SETTLE-2:0], act_ipb};
    h_pg   <= rst ? SETTLE : {h_pg[GATE_SETTLE-2:0], act_pg};
    h_cfg  <= rst ? SETTLE : {h_cfg[GATE_SETTLE-2:0], act_cfg};
    h_rx   <= rst ? SETTLE : {h_rx[GATE_SETTLE-2:0], act_rx};
  end
  wire en_ipb = act_ipb || (h_ipb != NONE);
  assign sim_gate_en = {act_rx || (h_rx != NONE),
                        act_cfg || (h_cfg != NONE), act_pg || (h_pg != NONE) || en_ipb, en_ipb,
                        act_out || (h_tx0 != NONE), act_icmp || (h_icmp != NONE),
                        act_arp || (h_arp != NONE)};
  // the clocks the harness raises in every cycle whose GMII receive inputs (gmii_rxd,
  // gmii_rx_dv, gmii_rx_er) are not all 0: the receive path's, whose MAC samples them
  assign sim_gate_in = 7'b100_0000;
  // Every block is on a gated clock: what is left on clk is the gating's own logic (the
  // histories h_*, the copies icmp_tuser_q, ttl_df_q, f0_q), and in a cycle where every
  // enable is 0 each of its registers loads the value it holds (every act_* is 0, so
  // each copy equals its source and each history shifts a 0 into zeros). The harness
  // then holds clk low as well: nothing is clocked in such a cycle.
  assign sim_gate_clk = 1'b1;

  // Signals that exist only because the blocks offer them: the raw channel (unused, its
  // EtherType is reserved), the FIFO's other status strobes, tkeep of an 8-bit stream,
  // the closed receive side of port 2.
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser,
                  raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac, raw_rx_tdata, raw_rx_tkeep,
                  raw_tx_hdr_ready, raw_tx_tready,
                  fifo_overflow, fifo_drop_bad, fifo_good, tx_tkeep,
                  urx_hdr_valid[2], urx_hdr_src_mac[143:96], urx_hdr_src_ip[95:64],
                  urx_hdr_src_port[47:32], urx_hdr_dst_port[47:32], urx_hdr_len[47:32],
                  urx_tdata[23:16], urx_tkeep[2], urx_tvalid[2], urx_tlast[2],
                  urx_tuser[2]};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
