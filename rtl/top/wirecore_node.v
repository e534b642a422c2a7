`default_nettype none
// wirecore_node: the full wirecore node behind a MAC, the same at every width: a receive
// frame FIFO + udp_stack (ARP, IPv4, ICMP echo, UDP; TCP at DATA_W 8) with three UDP
// application ports, on one clock. The virtual board (sim/vboard_node.v, sim/vboard_top.v,
// sim/vboard_top_10g.v) and the hardware boards (boards/) are this module behind their
// MAC; see docs/virtual-board.md and docs/boards.md.
//
//   s_mac_axis_* (the MAC's receive stream) -> axis_fifo (frame mode: bad frames
//   dropped, frames that do not fit dropped) -> udp_stack -> { port 0 udp_echo, port 1
//   ipbus_ctrl, TCP echo on port 7 } -> udp_stack (also port 2 pktgen, transmit only) ->
//   m_mac_axis_* (to the MAC's transmitter)
//
// UDP ports of the stack:
//   0  udp_echo at the echo's port (checksum mode ECHO_CSUM_MODE)
//   1  ipbus_ctrl (IPbus 2.0 target, register file, 64 KiB memory; docs/ipbus.md) at
//      NET.IPBUS_PORT (50001 after reset), checksum mode 1
//   2  pktgen (docs/daq.md), transmit only: its receive side is closed (port number 0,
//      so datagrams to NET.PKTGEN_PORT count as closed-port drops); source port
//      NET.PKTGEN_PORT (50002 after reset), checksum mode 1
// TCP (DATA_W 8 only: docs/tcp.md): tcp_core with 8 sessions, listening on
//   TCP.LISTEN_PORT, every session's received stream echoed back (closed after the
//   peer's FIN).
//
// Addresses (NET_PORTS): with NET_PORTS = 1 the cfg_mac, cfg_ip, cfg_netmask,
// cfg_gateway and cfg_echo_port inputs drive the stack and the echo's port (registered
// here; set them before reset and hold them), and the register file's
// NET.MAC_HI/MAC_LO/IP/NETMASK/GATEWAY/ECHO_PORT are not used. With NET_PORTS = 0 those
// registers drive them, from their reset values MAC_ADDR, IP_ADDR, NETMASK, GATEWAY,
// ECHO_PORT on, so the addresses are set by parameters and changed over IPbus; the cfg_*
// inputs are then not used (tie them to 0).
// The register file also drives: MAC.IFG (cfg_mac_ifg, to the MAC), NET.TTL and NET.DF
// (the stack), NET.IPBUS_PORT (port 1), NET.PKTGEN_PORT (the generator's source port),
// NET.UNREACH_PER_MS (ICMP port unreachable for closed UDP ports, 10 per ms after
// reset), NET.ENABLES (the stack's run-time enables: ARP and ICMP echo answers, the UDP
// checksum check, the raw channel's receive side), every PKTGEN register (CTRL bit 0
// start / bit 1 stop, LENGTH, COUNT, GAP, NUM_DEST, PAYLOAD.MODE/BYTE, TS_EXT,
// WARMUP_MS, DEST_IPi/DEST_PORTi as the generator's flat table), and
// TCP.LISTEN_PORT/MSS/RTO_*/MAX_RETRIES/TIME_WAIT/CC_OFF/DACK_TIME/KA_*. Not used: MAC.MAX_LEN (the MAC takes
// its top's MAX_FRAME), NET.RAW_ETHERTYPE (the raw-EtherType channel is unused: its
// EtherType is 0xFFFF, reserved, so nothing reaches it), the user register window
// (accesses time out) and the generator's ts_in (0).
// Counters: every counter of the map lives in ipbus_ctrl's register file (one
// stat_counters, in flip-flops with CNT_RAM = 0, one RAM with CNT_RAM = 1), fed by the
// blocks' event strobes: the MAC's (ev_mac, ev_mac_len: bits 0-9 of either MAC), the RX
// FIFO's full drops (ev_rx_fifo), udp_stack's (ev_stack), the echo's (ev_echo), the
// generator's (ev_pktgen, ev_pktgen_len) and the TCP engine's (ev_tcp; zero at DATA_W
// 64). Status in the map: PKTGEN.STATUS (busy), ROUND_LO/HI.
//
// The MAC's receive stream cannot wait, and the stack may (an ICMP or UDP reply waits
// for the transmitter), so a frame FIFO sits between them: frames reach the stack whole
// and only if good (the MAC counts bad ones), and a frame that finds the FIFO full is
// dropped whole and counted (MAC.RX_DROPPED_FULL).
//
// Interfaces:
//   clk, rst, tick_1ms                 clock, synchronous reset, millisecond strobe
//   ctrl_clk, ctrl_rst                 the IPbus target's clock and reset with
//                                      CTRL_ASYNC = 1 (reset together with rst; unused,
//                                      tie to 0, with CTRL_ASYNC = 0)
//   ts_cycle[63:0]                     the generator's cycle timestamp (pktgen CYC_EXT =
//                                      1: a free-running cycle counter kept by the top;
//                                      read only when a datagram's header is taken)
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses
//   cfg_echo_port[15:0]                UDP port of the echo (0 = closed); these five are
//                                      used only with NET_PORTS = 1
//   s_mac_axis_t{data,keep,valid,last,user}   the MAC's receive stream (no tready)
//   m_mac_axis_t{data,keep,valid,ready,last,user}   to the MAC's transmitter
//   ev_mac[9:0], ev_mac_len[31:0]      the MAC's event strobes and lengths (counted)
//   cfg_mac_ifg[7:0]                   MAC.IFG, to the MAC
// Latency: the whole frame (the RX FIFO is a frame FIFO) and 2 cycles, plus the stack's
//   turnaround (docs/stack.md) and, for IPbus, the target's (docs/ipbus.md).
// Parameters (tested values in brackets): DATA_W (8 or 64) [8, 64], KEEP_W = DATA_W/8,
//   RX_FIFO_BYTES (power of two; 16384 holds a 9018-byte jumbo frame and more) [4096,
//   16384], ECHO_CSUM_MODE (the echo port's TX checksum mode: 0 none, 1 computed) [1],
//   RX_BUSY_WAIT (cycles an application port may take to accept a datagram before it is
//   dropped and counted: 1 ms at the board's clock, far longer than any of its
//   applications needs) [125000, 156250], CNT_RAM (ipbus_ctrl's: counters in flip-flops
//   0, one RAM 1) [0, 1], NET_PORTS (0 or 1, above) [0, 1], CTRL_ASYNC (ipbus_ctrl's:
//   the IPbus target on clk 0, on ctrl_clk behind clock-domain crossings 1; the register
//   file, the memory and everything else stay on clk) [0, 1], MAC_ADDR, IP_ADDR, NETMASK,
//   GATEWAY, ECHO_PORT (the NET registers' reset values, used with NET_PORTS = 0),
//   NIC (0 or 1, DATA_W 8 only) [0, 1]: the smart network interface (below).
//   DATA_W, KEEP_W, NET_PORTS and NIC are checked here, the others by the blocks that
//   take them.
// NIC = 1 (docs/nic.md "On the board"): nic_classifier (8 rules over the first 44 bytes,
//   one accelerator port) sits between the RX frame FIFO and the stack; its accelerator
//   port feeds cfar_accel (SKIP 42, 64 detections listed), whose results nic_reply wraps
//   in UDP datagrams to the requests' senders; nic_tx_arb merges them (input 1) with the
//   stack's frames (input 0) towards the MAC. The rules are ipbus_ctrl's user window
//   (NIC_RULES in the map: the classifier's register map at word offsets 0x00-0xFF,
//   above that a bus error); CFAR and arbiter configuration and every block's counters
//   are the map's NIC block. No rule set: the default action (to the host) sends every
//   frame to the stack, 49 cycles later than without the NIC (the classifier's D + 6).
module wirecore_node #(
    parameter integer DATA_W         = 8,
    parameter integer KEEP_W         = DATA_W / 8,
    parameter integer RX_FIFO_BYTES  = 16384,
    parameter integer ECHO_CSUM_MODE = 1,
    parameter integer RX_BUSY_WAIT   = 125000,
    parameter integer CNT_RAM        = 0,
    parameter integer NET_PORTS      = 1,
    parameter integer CTRL_ASYNC     = 0,
    parameter integer NIC            = 0,
    parameter [47:0]  MAC_ADDR       = 48'h020000000002,
    parameter [31:0]  IP_ADDR        = 32'hC0000202,
    parameter [31:0]  NETMASK        = 32'hFFFFFF00,
    parameter [31:0]  GATEWAY        = 32'hC0000201,
    parameter [15:0]  ECHO_PORT      = 16'd7
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        tick_1ms,
    input  wire        ctrl_clk,
    input  wire        ctrl_rst,
    input  wire [63:0] ts_cycle,
    input  wire [47:0] cfg_mac,
    input  wire [31:0] cfg_ip,
    input  wire [31:0] cfg_netmask,
    input  wire [31:0] cfg_gateway,
    input  wire [15:0] cfg_echo_port,
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
    output wire [ 7:0] cfg_mac_ifg
);
  localparam [1:0] ECHO_MODE = ECHO_CSUM_MODE[1:0];

  generate
    if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
      wirecore_node_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
    end
    if (KEEP_W * 8 != DATA_W) begin : g_check_keep_w
      wirecore_node_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
    end
  endgenerate

  generate
    if (NET_PORTS != 0 && NET_PORTS != 1) begin : g_check_net_ports
      wirecore_node_NET_PORTS_must_be_0_or_1 u_error ();  // unsupported parameter
    end
    if (NIC != 0 && NIC != 1) begin : g_check_nic
      wirecore_node_NIC_must_be_0_or_1 u_error ();  // unsupported parameter
    end
    if (NIC != 0 && DATA_W != 8) begin : g_check_nic_data_w
      wirecore_node_NIC_must_be_0_at_DATA_W_64 u_error ();  // unsupported parameter
    end
  endgenerate

  // The addresses and the echo's port the stack and the echo use (see "Addresses")
  wire [47:0] net_mac;
  wire [31:0] net_ip, net_netmask, net_gateway;
  wire [15:0] net_echo_port;
  // the register file's NET registers
  wire [47:0] reg_mac;
  wire [31:0] reg_ip, reg_netmask, reg_gateway;
  wire [15:0] reg_echo_port;
  generate
    if (NET_PORTS != 0) begin : g_net_ports
      // Registered: the top sets the cfg_* inputs once, before reset, and these
      // registers hold them from the first cycle of reset on. Read straight from a
      // simulation model's inputs, the logic that uses them (ARP's transmit bytes, and
      // from there the transmit arbiter's data and the MAC's transmit CRC) would be
      // evaluated by Verilator with the inputs as well as with the clock, twice a cycle.
      reg [47:0] cfg_mac_reg;
      reg [31:0] cfg_ip_reg, cfg_netmask_reg, cfg_gateway_reg;
      reg [15:0] cfg_echo_port_reg;
      always @(posedge clk) begin
        cfg_mac_reg       <= cfg_mac;
        cfg_ip_reg        <= cfg_ip;
        cfg_netmask_reg   <= cfg_netmask;
        cfg_gateway_reg   <= cfg_gateway;
        cfg_echo_port_reg <= cfg_echo_port;
      end
      assign net_mac = cfg_mac_reg;
      assign net_ip = cfg_ip_reg;
      assign net_netmask = cfg_netmask_reg;
      assign net_gateway = cfg_gateway_reg;
      assign net_echo_port = cfg_echo_port_reg;
      /* verilator lint_off UNUSEDSIGNAL */
      wire unused_reg_net = &{1'b0, reg_mac, reg_ip, reg_netmask, reg_gateway,
                              reg_echo_port};
      /* verilator lint_on UNUSEDSIGNAL */
    end else begin : g_net_regs
      assign net_mac = reg_mac;
      assign net_ip = reg_ip;
      assign net_netmask = reg_netmask;
      assign net_gateway = reg_gateway;
      assign net_echo_port = reg_echo_port;
      /* verilator lint_off UNUSEDSIGNAL */
      wire unused_cfg_net = &{1'b0, cfg_mac, cfg_ip, cfg_netmask, cfg_gateway,
                              cfg_echo_port};
      /* verilator lint_on UNUSEDSIGNAL */
    end
  endgenerate

  // register-file outputs used ahead of the control plane's instance
  wire [7:0]  reg_ttl;
  wire        reg_df;
  wire [7:0]  reg_unreach_per_ms;
  wire [15:0] reg_ipbus_port, reg_pktgen_src_port;
  wire [3:0]  reg_enables;  // NET.ENABLES
  // TCP.* configuration (used by the TCP engine on the 8-bit board)
  wire [15:0] reg_tcp_listen_port, reg_tcp_mss, reg_tcp_rto_init, reg_tcp_rto_min;
  wire [15:0] reg_tcp_rto_max, reg_tcp_time_wait;
  wire [3:0]  reg_tcp_max_retries, reg_tcp_ka_count;
  wire        reg_tcp_cc_off;
  wire [9:0]  reg_tcp_dack_time;
  wire [15:0] reg_tcp_ka_idle, reg_tcp_ka_intvl;

  // the blocks' event strobes, counted in the register file (see "Counters" above)
  wire        ev_rx_fifo;
  wire [57:0] ev_stack;  // udp_stack cnt_ev with NP = 3 ports
  wire        ev_echo;
  wire [1:0]  ev_pktgen;
  wire [15:0] ev_pktgen_len;
  wire [29:0] ev_tcp;    // tcp_core cnt_ev (zero without TCP)
  wire [10:0] ev_nic_cls;    // nic_classifier cnt_ev (NIC = 1; else zero)
  wire [6:0]  ev_cfar;       // cfar_accel cnt_ev
  wire [4:0]  ev_nic_reply;  // nic_reply cnt_ev
  wire [1:0]  ev_nic_arb;    // nic_tx_arb cnt_ev

  // NIC configuration (the register map's NIC block) and the classifier's rule window
  // (the user window of ipbus_ctrl)
  wire [3:0]  reg_cfar_guard;
  wire [6:0]  reg_cfar_train;
  wire [15:0] reg_cfar_alpha;
  wire        reg_arb_strict;
  wire [31:0] reg_arb_weight;
  wire        user_reg_req, user_reg_we, user_reg_ack, user_reg_err;
  wire [31:0] user_reg_addr, user_reg_wdata, user_reg_rdata;

  // the stack's receive input and transmit output (through the NIC with NIC = 1)
  wire [DATA_W-1:0] stk_rx_tdata, stk_tx_tdata;
  wire [KEEP_W-1:0] stk_rx_tkeep, stk_tx_tkeep;
  wire stk_rx_tvalid, stk_rx_tready, stk_rx_tlast, stk_rx_tuser;
  wire stk_tx_tvalid, stk_tx_tready, stk_tx_tlast, stk_tx_tuser;

  // ---------------- RX frame FIFO ----------------
  wire [DATA_W-1:0] st_rx_tdata;
  wire [KEEP_W-1:0] st_rx_tkeep;
  wire st_rx_tvalid, st_rx_tready, st_rx_tlast, st_rx_tuser;
  wire fifo_overflow, fifo_drop_bad, fifo_drop_full, fifo_good;

  /* verilator lint_off PINCONNECTEMPTY */
  axis_fifo #(
      .DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(RX_FIFO_BYTES / KEEP_W), .FRAME_FIFO(1),
      .DROP_BAD_FRAME(1),
      .DROP_WHEN_FULL(1)
  ) u_rx_fifo (
      .clk(clk), .rst(rst),
      .s_axis_tdata(s_mac_axis_tdata), .s_axis_tkeep(s_mac_axis_tkeep),
      .s_axis_tvalid(s_mac_axis_tvalid), .s_axis_tready(), .s_axis_tlast(s_mac_axis_tlast),
      .s_axis_tuser(s_mac_axis_tuser),
      .m_axis_tdata(st_rx_tdata), .m_axis_tkeep(st_rx_tkeep), .m_axis_tvalid(st_rx_tvalid),
      .m_axis_tready(st_rx_tready), .m_axis_tlast(st_rx_tlast), .m_axis_tuser(st_rx_tuser),
      .status_overflow(fifo_overflow), .status_drop_bad(fifo_drop_bad),
      .status_drop_full(fifo_drop_full), .status_good_frame(fifo_good)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  assign ev_rx_fifo = fifo_drop_full;


  // ---------------- smart network interface (NIC = 1, docs/nic.md "On the board") ----------------
  //   RX FIFO -> nic_classifier -host-> stack
  //                    +-accel 0-> cfar_accel -> nic_reply (watches cfar's input beats,
  //                                  req_accept = cfar's "block accepted" strobe)
  //   stack TX -> nic_tx_arb input 0, nic_reply -> input 1 -> MAC
  generate
    if (NIC != 0) begin : g_nic
      localparam integer RULES = 8;   // wirecore.regmap.NIC_RULES (its counters)
      localparam integer K     = 44;  // wirecore.regmap.NIC_K: headers + the frame's tag
      wire [7:0] acc_tdata;
      wire       acc_tkeep, acc_tvalid, acc_tready, acc_tlast, acc_tuser;
      wire [7:0] res_tdata, rep_tdata;
      wire       res_tkeep, res_tvalid, res_tready, res_tlast, res_tuser;
      wire       rep_tkeep, rep_tvalid, rep_tready, rep_tlast, rep_tuser;

      nic_classifier #(
          .DATA_W(8), .KEEP_W(1), .RULES(RULES), .K(K), .ACCEL_PORTS(1), .HOST_CUT(0)
      ) u_cls (
          .clk(clk), .rst(rst),
          .s_axis_tdata(st_rx_tdata), .s_axis_tkeep(st_rx_tkeep), .s_axis_tvalid(st_rx_tvalid),
          .s_axis_tready(st_rx_tready), .s_axis_tlast(st_rx_tlast), .s_axis_tuser(st_rx_tuser),
          .m_host_axis_tdata(stk_rx_tdata), .m_host_axis_tkeep(stk_rx_tkeep),
          .m_host_axis_tvalid(stk_rx_tvalid), .m_host_axis_tready(stk_rx_tready),
          .m_host_axis_tlast(stk_rx_tlast), .m_host_axis_tuser(stk_rx_tuser),
          .m_acc_axis_tdata(acc_tdata), .m_acc_axis_tkeep(acc_tkeep),
          .m_acc_axis_tvalid(acc_tvalid), .m_acc_axis_tready(acc_tready),
          .m_acc_axis_tlast(acc_tlast), .m_acc_axis_tuser(acc_tuser),
          .reg_req(user_reg_req), .reg_we(user_reg_we), .reg_addr(user_reg_addr),
          .reg_wdata(user_reg_wdata), .reg_ack(user_reg_ack), .reg_err(user_reg_err),
          .reg_rdata(user_reg_rdata),
          .cnt_ev(ev_nic_cls)
      );

      cfar_accel #(.SKIP(42), .MAX_DET(64)) u_cfar (
          .clk(clk), .rst(rst),
          .s_axis_tdata(acc_tdata), .s_axis_tkeep(acc_tkeep), .s_axis_tvalid(acc_tvalid),
          .s_axis_tready(acc_tready), .s_axis_tlast(acc_tlast), .s_axis_tuser(acc_tuser),
          .m_axis_tdata(res_tdata), .m_axis_tkeep(res_tkeep), .m_axis_tvalid(res_tvalid),
          .m_axis_tready(res_tready), .m_axis_tlast(res_tlast), .m_axis_tuser(res_tuser),
          .cfg_guard(reg_cfar_guard), .cfg_train(reg_cfar_train), .cfg_alpha(reg_cfar_alpha),
          .cnt_ev(ev_cfar)
      );

      // the accelerator takes every beat (tready = 1), so its input's valid beats are the
      // beats it takes
      nic_reply #(.DATA_W(8), .PAY_DEPTH(2048), .MAX_PAYLOAD(1472)) u_reply (
          .clk(clk), .rst(rst),
          .s_req_tdata(acc_tdata), .s_req_tvalid(acc_tvalid & acc_tready),
          .s_req_tlast(acc_tlast), .s_req_tuser(acc_tuser),
          .req_accept(ev_cfar[0]),
          .s_res_axis_tdata(res_tdata), .s_res_axis_tkeep(res_tkeep),
          .s_res_axis_tvalid(res_tvalid), .s_res_axis_tready(res_tready),
          .s_res_axis_tlast(res_tlast), .s_res_axis_tuser(res_tuser),
          .m_axis_tdata(rep_tdata), .m_axis_tkeep(rep_tkeep), .m_axis_tvalid(rep_tvalid),
          .m_axis_tready(rep_tready), .m_axis_tlast(rep_tlast), .m_axis_tuser(rep_tuser),
          .cfg_mac(net_mac), .cfg_ip(net_ip), .cfg_ttl(reg_ttl), .cfg_df(reg_df),
          .cnt_ev(ev_nic_reply)
      );

      wire [1:0] arb_tready;
      nic_tx_arb #(.N(2), .DATA_W(8), .KEEP_W(1)) u_arb (
          .clk(clk), .rst(rst),
          .s_axis_tdata({rep_tdata, stk_tx_tdata}), .s_axis_tkeep({rep_tkeep, stk_tx_tkeep}),
          .s_axis_tvalid({rep_tvalid, stk_tx_tvalid}), .s_axis_tready(arb_tready),
          .s_axis_tlast({rep_tlast, stk_tx_tlast}), .s_axis_tuser({rep_tuser, stk_tx_tuser}),
          .m_axis_tdata(m_mac_axis_tdata), .m_axis_tkeep(m_mac_axis_tkeep),
          .m_axis_tvalid(m_mac_axis_tvalid), .m_axis_tready(m_mac_axis_tready),
          .m_axis_tlast(m_mac_axis_tlast), .m_axis_tuser(m_mac_axis_tuser),
          .cfg_strict(reg_arb_strict), .cfg_weight(reg_arb_weight),
          .cnt_ev(ev_nic_arb)
      );
      assign stk_tx_tready = arb_tready[0];
      assign rep_tready    = arb_tready[1];
    end else begin : g_no_nic
      assign stk_rx_tdata  = st_rx_tdata;
      assign stk_rx_tkeep  = st_rx_tkeep;
      assign stk_rx_tvalid = st_rx_tvalid;
      assign st_rx_tready  = stk_rx_tready;
      assign stk_rx_tlast  = st_rx_tlast;
      assign stk_rx_tuser  = st_rx_tuser;
      assign m_mac_axis_tdata  = stk_tx_tdata;
      assign m_mac_axis_tkeep  = stk_tx_tkeep;
      assign m_mac_axis_tvalid = stk_tx_tvalid;
      assign stk_tx_tready     = m_mac_axis_tready;
      assign m_mac_axis_tlast  = stk_tx_tlast;
      assign m_mac_axis_tuser  = stk_tx_tuser;
      // the user window does not answer (accesses time out); the NIC's counters stay 0
      assign user_reg_ack   = 1'b0;
      assign user_reg_err   = 1'b0;
      assign user_reg_rdata = 32'd0;
      assign ev_nic_cls     = 11'd0;
      assign ev_cfar        = 7'd0;
      assign ev_nic_reply   = 5'd0;
      assign ev_nic_arb     = 2'd0;
      /* verilator lint_off UNUSEDSIGNAL */
      wire nic_unused = ^{user_reg_req, user_reg_we, user_reg_addr, user_reg_wdata,
                          reg_cfar_guard, reg_cfar_train, reg_cfar_alpha, reg_arb_strict,
                          reg_arb_weight};
      /* verilator lint_on UNUSEDSIGNAL */
    end
  endgenerate

  // ---------------- stack: port 0 echo, port 1 IPbus, port 2 generator ----------------
  localparam integer NP = 3;
  wire [NP-1:0]    urx_hdr_valid, urx_hdr_ready;
  wire [NP*48-1:0] urx_hdr_src_mac;
  wire [NP*32-1:0] urx_hdr_src_ip;
  wire [NP*16-1:0] urx_hdr_src_port, urx_hdr_dst_port, urx_hdr_len;
  wire [NP*DATA_W-1:0] urx_tdata;
  wire [NP*KEEP_W-1:0] urx_tkeep;
  wire [NP-1:0]    urx_tvalid, urx_tready, urx_tlast, urx_tuser;
  wire [NP-1:0]    utx_hdr_valid, utx_hdr_ready, utx_hdr_dst_mac_valid;
  wire [NP*48-1:0] utx_hdr_dst_mac;
  wire [NP*32-1:0] utx_hdr_dst_ip;
  wire [NP*16-1:0] utx_hdr_dst_port, utx_hdr_src_port, utx_hdr_len, utx_hdr_csum;
  wire [NP*DATA_W-1:0] utx_tdata;
  wire [NP*KEEP_W-1:0] utx_tkeep;
  wire [NP-1:0]    utx_tvalid, utx_tready, utx_tlast, utx_tuser;
  // the raw-EtherType channel is unused
  wire        raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser;
  wire [47:0] raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac;
  wire [DATA_W-1:0] raw_rx_tdata;
  wire [KEEP_W-1:0] raw_rx_tkeep;
  wire        raw_tx_hdr_ready, raw_tx_tready;

  // TCP's port of the stack: the TCP engine is built at DATA_W 8 (docs/tcp.md "Not yet"),
  // so the 64-bit board runs the stack with TCP = 0
  localparam integer TCP_ON = (DATA_W == 8) ? 1 : 0;
  wire              tcp_hdr_valid, tcp_hdr_ready, tcp_hdr_bcast;
  wire [47:0]       tcp_hdr_src_mac;
  wire [31:0]       tcp_hdr_src_ip, tcp_hdr_dst_ip;
  wire [15:0]       tcp_hdr_len;
  wire [DATA_W-1:0] tcp_rx_tdata, tcp_tx_tdata;
  wire [KEEP_W-1:0] tcp_rx_tkeep, tcp_tx_tkeep;
  wire              tcp_rx_tvalid, tcp_rx_tready, tcp_rx_tlast, tcp_rx_tuser;
  wire              tcp_tx_tvalid, tcp_tx_tready, tcp_tx_tlast, tcp_tx_tuser;

  udp_stack #(
      .DATA_W(DATA_W), .KEEP_W(KEEP_W), .NUM_PORTS(NP), .RX_STORE_FWD(0), .TX_BUF_BYTES(2048),
      .ICMP_UNREACH(1), .RX_BUSY_WAIT(RX_BUSY_WAIT), .TCP(TCP_ON)
  ) u_stack (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
      .cfg_mac(net_mac), .cfg_ip(net_ip), .cfg_netmask(net_netmask),
      .cfg_gateway(net_gateway), .cfg_ttl(reg_ttl), .cfg_df(reg_df),
      .cfg_raw_ethertype(16'hFFFF),
      .cfg_udp_port({16'd0, reg_ipbus_port, net_echo_port}),
      .cfg_udp_csum_mode({2'd1, 2'd1, ECHO_MODE}),
      .cfg_unreach_per_ms(reg_unreach_per_ms),
      .cfg_arp_answer(reg_enables[0]), .cfg_icmp_answer(reg_enables[1]),
      .cfg_udp_csum_check(reg_enables[2]), .cfg_raw_en(reg_enables[3]),
      .s_axis_tdata(stk_rx_tdata), .s_axis_tkeep(stk_rx_tkeep), .s_axis_tvalid(stk_rx_tvalid),
      .s_axis_tready(stk_rx_tready), .s_axis_tlast(stk_rx_tlast), .s_axis_tuser(stk_rx_tuser),
      .m_axis_tdata(stk_tx_tdata), .m_axis_tkeep(stk_tx_tkeep),
      .m_axis_tvalid(stk_tx_tvalid), .m_axis_tready(stk_tx_tready),
      .m_axis_tlast(stk_tx_tlast), .m_axis_tuser(stk_tx_tuser),
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
      .s_raw_tx_axis_tdata({DATA_W{1'b0}}),
      .s_raw_tx_axis_tkeep({KEEP_W{1'b0}}), .s_raw_tx_axis_tvalid(1'b0),
      .s_raw_tx_axis_tready(raw_tx_tready), .s_raw_tx_axis_tlast(1'b0),
      .s_raw_tx_axis_tuser(1'b0),
      .m_tcp_hdr_valid(tcp_hdr_valid), .m_tcp_hdr_ready(tcp_hdr_ready),
      .m_tcp_hdr_src_mac(tcp_hdr_src_mac), .m_tcp_hdr_src_ip(tcp_hdr_src_ip),
      .m_tcp_hdr_dst_ip(tcp_hdr_dst_ip), .m_tcp_hdr_len(tcp_hdr_len),
      .m_tcp_hdr_broadcast(tcp_hdr_bcast),
      .m_tcp_axis_tdata(tcp_rx_tdata), .m_tcp_axis_tkeep(tcp_rx_tkeep),
      .m_tcp_axis_tvalid(tcp_rx_tvalid), .m_tcp_axis_tready(tcp_rx_tready),
      .m_tcp_axis_tlast(tcp_rx_tlast), .m_tcp_axis_tuser(tcp_rx_tuser),
      .s_tcp_tx_axis_tdata(tcp_tx_tdata), .s_tcp_tx_axis_tkeep(tcp_tx_tkeep),
      .s_tcp_tx_axis_tvalid(tcp_tx_tvalid), .s_tcp_tx_axis_tready(tcp_tx_tready),
      .s_tcp_tx_axis_tlast(tcp_tx_tlast), .s_tcp_tx_axis_tuser(tcp_tx_tuser),
      .cnt_ev(ev_stack)
  );

  // ---------------- TCP: echo on port 7 (docs/tcp.md), 8-bit board only ----------------
  // The received stream of each session goes straight back into
  // its send stream; the end of the peer's stream (its FIN) closes our side after the
  // echoed bytes.
  generate
    if (TCP_ON != 0) begin : g_tcp
      wire [7:0] tcp_app_tdata;
      wire       tcp_app_tkeep, tcp_app_tvalid, tcp_app_tready, tcp_app_tlast, tcp_app_eof;
      wire [2:0] tcp_app_tid;
      /* verilator lint_off UNUSEDSIGNAL */
      wire        tcp_ev_valid;
      wire [4:0]  tcp_ev_flags;
      wire [2:0]  tcp_ev_sid;
      wire [31:0] tcp_ev_ip;
      wire [15:0] tcp_ev_port, tcp_ev_lport;
      wire        tcp_conn_ready;
      /* verilator lint_on UNUSEDSIGNAL */
      tcp_core #(.DATA_W(8), .KEEP_W(1), .NUM_SESS(8), .BUF_LOG2(11), .NUM_LISTEN(1)) u_tcp (
          .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
          .cfg_mac(net_mac), .cfg_ip(net_ip), .cfg_ttl(reg_ttl), .cfg_df(reg_df),
          .cfg_listen_port(reg_tcp_listen_port), .cfg_mss(reg_tcp_mss),
          .cfg_rto_init(reg_tcp_rto_init), .cfg_rto_min(reg_tcp_rto_min),
          .cfg_rto_max(reg_tcp_rto_max), .cfg_max_retries(reg_tcp_max_retries),
          .cfg_time_wait(reg_tcp_time_wait), .cfg_cc_off(reg_tcp_cc_off),
          .cfg_dack_time(reg_tcp_dack_time), .cfg_ka_idle(reg_tcp_ka_idle),
          .cfg_ka_intvl(reg_tcp_ka_intvl), .cfg_ka_count(reg_tcp_ka_count),
          .cfg_isn_key({net_mac, net_ip, net_mac} ^
                       128'h9E3779B97F4A7C15F39CC0605CEDC834),
          .s_hdr_valid(tcp_hdr_valid), .s_hdr_ready(tcp_hdr_ready),
          .s_hdr_src_mac(tcp_hdr_src_mac), .s_hdr_src_ip(tcp_hdr_src_ip),
          .s_hdr_dst_ip(tcp_hdr_dst_ip), .s_hdr_len(tcp_hdr_len),
          .s_hdr_broadcast(tcp_hdr_bcast),
          .s_axis_tdata(tcp_rx_tdata), .s_axis_tkeep(tcp_rx_tkeep),
          .s_axis_tvalid(tcp_rx_tvalid), .s_axis_tready(tcp_rx_tready),
          .s_axis_tlast(tcp_rx_tlast), .s_axis_tuser(tcp_rx_tuser),
          .m_axis_tdata(tcp_tx_tdata), .m_axis_tkeep(tcp_tx_tkeep),
          .m_axis_tvalid(tcp_tx_tvalid), .m_axis_tready(tcp_tx_tready),
          .m_axis_tlast(tcp_tx_tlast), .m_axis_tuser(tcp_tx_tuser),
          .m_rx_axis_tdata(tcp_app_tdata), .m_rx_axis_tkeep(tcp_app_tkeep),
          .m_rx_axis_tvalid(tcp_app_tvalid), .m_rx_axis_tready(tcp_app_tready),
          .m_rx_axis_tlast(tcp_app_tlast), .m_rx_axis_tid(tcp_app_tid),
          .m_rx_eof(tcp_app_eof),
          .s_tx_axis_tdata(tcp_app_tdata), .s_tx_axis_tkeep(tcp_app_tkeep),
          .s_tx_axis_tvalid(tcp_app_tvalid), .s_tx_axis_tready(tcp_app_tready),
          .s_tx_axis_tlast(tcp_app_tlast), .s_tx_axis_tid(tcp_app_tid),
          .s_tx_close(tcp_app_eof),
          .s_conn_valid(1'b0), .s_conn_ready(tcp_conn_ready), .s_conn_ip(32'd0),
          .s_conn_port(16'd0), .s_conn_lport(16'd0), .s_conn_mac(48'd0),
          .ev_valid(tcp_ev_valid), .ev_flags(tcp_ev_flags), .ev_sid(tcp_ev_sid),
          .ev_ip(tcp_ev_ip), .ev_port(tcp_ev_port), .ev_lport(tcp_ev_lport), .cnt_ev(ev_tcp)
      );
    end else begin : g_no_tcp
      // the stack passes no TCP segment out (TCP = 0); nothing is sent
      /* verilator lint_off UNUSEDSIGNAL */
      wire tcp_unused = ^{tcp_hdr_valid, tcp_hdr_bcast, tcp_hdr_src_mac, tcp_hdr_src_ip,
                          tcp_hdr_dst_ip, tcp_hdr_len, tcp_rx_tdata, tcp_rx_tkeep,
                          tcp_rx_tvalid, tcp_rx_tlast, tcp_rx_tuser, tcp_tx_tready};
      /* verilator lint_on UNUSEDSIGNAL */
      assign tcp_hdr_ready = 1'b1;
      assign tcp_rx_tready = 1'b1;
      assign tcp_tx_tdata = {DATA_W{1'b0}};
      assign tcp_tx_tkeep = {KEEP_W{1'b0}};
      assign tcp_tx_tvalid = 1'b0;
      assign tcp_tx_tlast = 1'b0;
      assign tcp_tx_tuser = 1'b0;
      assign ev_tcp = 30'd0;
      /* verilator lint_off UNUSEDSIGNAL */
      wire tcp_cfg_unused = ^{reg_tcp_listen_port, reg_tcp_mss, reg_tcp_rto_init,
                              reg_tcp_rto_min, reg_tcp_rto_max, reg_tcp_max_retries,
                              reg_tcp_time_wait, reg_tcp_cc_off, reg_tcp_dack_time,
                              reg_tcp_ka_idle, reg_tcp_ka_intvl, reg_tcp_ka_count};
      /* verilator lint_on UNUSEDSIGNAL */
    end
  endgenerate

  // ---------------- port 0: UDP echo ----------------
  udp_echo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_echo (
      .clk(clk), .rst(rst),
      .s_hdr_valid(urx_hdr_valid[0]), .s_hdr_ready(urx_hdr_ready[0]),
      .s_hdr_src_mac(urx_hdr_src_mac[47:0]), .s_hdr_src_ip(urx_hdr_src_ip[31:0]),
      .s_hdr_src_port(urx_hdr_src_port[15:0]), .s_hdr_dst_port(urx_hdr_dst_port[15:0]),
      .s_hdr_len(urx_hdr_len[15:0]),
      .s_axis_tdata(urx_tdata[0*DATA_W +: DATA_W]), .s_axis_tkeep(urx_tkeep[0*KEEP_W +: KEEP_W]),
      .s_axis_tvalid(urx_tvalid[0]), .s_axis_tready(urx_tready[0]),
      .s_axis_tlast(urx_tlast[0]), .s_axis_tuser(urx_tuser[0]),
      .m_hdr_valid(utx_hdr_valid[0]), .m_hdr_ready(utx_hdr_ready[0]),
      .m_hdr_dst_mac(utx_hdr_dst_mac[47:0]), .m_hdr_dst_mac_valid(utx_hdr_dst_mac_valid[0]),
      .m_hdr_dst_ip(utx_hdr_dst_ip[31:0]), .m_hdr_dst_port(utx_hdr_dst_port[15:0]),
      .m_hdr_src_port(utx_hdr_src_port[15:0]), .m_hdr_len(utx_hdr_len[15:0]),
      .m_hdr_csum(utx_hdr_csum[15:0]),
      .m_axis_tdata(utx_tdata[0*DATA_W +: DATA_W]), .m_axis_tkeep(utx_tkeep[0*KEEP_W +: KEEP_W]),
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
  ipbus_ctrl #(
      .DATA_W(DATA_W), .KEEP_W(KEEP_W), .CNT_RAM(CNT_RAM), .CTRL_ASYNC(CTRL_ASYNC),
      .RST_MAC(MAC_ADDR),
      .RST_IP(IP_ADDR), .RST_NETMASK(NETMASK), .RST_GATEWAY(GATEWAY),
      .RST_ECHO_PORT(ECHO_PORT)
  ) u_ctrl (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .ctrl_clk(ctrl_clk), .ctrl_rst(ctrl_rst),
      .s_hdr_valid(urx_hdr_valid[1]), .s_hdr_ready(urx_hdr_ready[1]),
      .s_hdr_src_mac(urx_hdr_src_mac[95:48]), .s_hdr_src_ip(urx_hdr_src_ip[63:32]),
      .s_hdr_src_port(urx_hdr_src_port[31:16]), .s_hdr_dst_port(urx_hdr_dst_port[31:16]),
      .s_hdr_len(urx_hdr_len[31:16]),
      .s_axis_tdata(urx_tdata[1*DATA_W +: DATA_W]), .s_axis_tkeep(urx_tkeep[1*KEEP_W +: KEEP_W]),
      .s_axis_tvalid(urx_tvalid[1]), .s_axis_tready(urx_tready[1]),
      .s_axis_tlast(urx_tlast[1]), .s_axis_tuser(urx_tuser[1]),
      .m_hdr_valid(utx_hdr_valid[1]), .m_hdr_ready(utx_hdr_ready[1]),
      .m_hdr_dst_mac(utx_hdr_dst_mac[95:48]), .m_hdr_dst_mac_valid(utx_hdr_dst_mac_valid[1]),
      .m_hdr_dst_ip(utx_hdr_dst_ip[63:32]), .m_hdr_dst_port(utx_hdr_dst_port[31:16]),
      .m_hdr_src_port(utx_hdr_src_port[31:16]), .m_hdr_len(utx_hdr_len[31:16]),
      .m_hdr_csum(utx_hdr_csum[31:16]),
      .m_axis_tdata(utx_tdata[1*DATA_W +: DATA_W]), .m_axis_tkeep(utx_tkeep[1*KEEP_W +: KEEP_W]),
      .m_axis_tvalid(utx_tvalid[1]), .m_axis_tready(utx_tready[1]),
      .m_axis_tlast(utx_tlast[1]), .m_axis_tuser(utx_tuser[1]),
      // user window: the classifier's rules with NIC = 1 (else accesses time out)
      .m_user_reg_req(user_reg_req), .m_user_reg_we(user_reg_we),
      .m_user_reg_addr(user_reg_addr), .m_user_reg_wdata(user_reg_wdata),
      .m_user_reg_ack(user_reg_ack), .m_user_reg_err(user_reg_err),
      .m_user_reg_rdata(user_reg_rdata),
      .cfg_write_protect(),  // used inside ipbus_ctrl; nothing else to protect here
      .cfg_sys_scratch(),
      // MAC
      .cfg_mac_ifg(cfg_mac_ifg),
      .cfg_mac_max_len(),  // the MAC takes its top's MAX_FRAME
      // NET: the addresses and the echo port (used with NET_PORTS = 0)
      .cfg_mac(reg_mac),
      .cfg_ip(reg_ip),
      .cfg_netmask(reg_netmask),
      .cfg_gateway(reg_gateway),
      .cfg_raw_ethertype(),  // raw channel unused
      .cfg_ipbus_port(reg_ipbus_port),
      .cfg_echo_port(reg_echo_port),
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
      // TCP
      .cfg_tcp_listen_port(reg_tcp_listen_port),
      .cfg_tcp_mss(reg_tcp_mss),
      .cfg_tcp_rto_init(reg_tcp_rto_init),
      .cfg_tcp_rto_min(reg_tcp_rto_min),
      .cfg_tcp_rto_max(reg_tcp_rto_max),
      .cfg_tcp_max_retries(reg_tcp_max_retries),
      .cfg_tcp_time_wait(reg_tcp_time_wait),
      .cfg_tcp_cc_off(reg_tcp_cc_off),
      .cfg_tcp_dack_time(reg_tcp_dack_time),
      .cfg_tcp_ka_idle(reg_tcp_ka_idle),
      .cfg_tcp_ka_intvl(reg_tcp_ka_intvl),
      .cfg_tcp_ka_count(reg_tcp_ka_count),
      // NIC
      .cfg_cfar_guard(reg_cfar_guard),
      .cfg_cfar_train(reg_cfar_train),
      .cfg_cfar_alpha(reg_cfar_alpha),
      .cfg_arb_strict(reg_arb_strict),
      .cfg_arb_weight(reg_arb_weight),
      // the counters' events
      .ev_mac(ev_mac), .ev_rx_fifo(ev_rx_fifo), .ev_stack(ev_stack), .ev_echo(ev_echo),
      .ev_pktgen(ev_pktgen), .ev_tcp(ev_tcp), .ev_mac_len(ev_mac_len),
      .ev_nic_cls(ev_nic_cls), .ev_cfar(ev_cfar), .ev_nic_reply(ev_nic_reply),
      .ev_nic_arb(ev_nic_arb),
      .ev_pktgen_len(ev_pktgen_len)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---------------- port 2: packet generator (transmit only) ----------------
  pktgen #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DST_RAM(0), .CYC_EXT(1)) u_pktgen (
      .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .ts_in(64'd0), .cyc_in(ts_cycle),
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
      .m_axis_tdata(utx_tdata[2*DATA_W +: DATA_W]), .m_axis_tkeep(utx_tkeep[2*KEEP_W +: KEEP_W]),
      .m_axis_tvalid(utx_tvalid[2]), .m_axis_tready(utx_tready[2]),
      .m_axis_tlast(utx_tlast[2]), .m_axis_tuser(utx_tuser[2])
  );
  // the generator's receive side is closed (port number 0): accept anything regardless
  assign urx_hdr_ready[2] = 1'b1;
  assign urx_tready[2]    = 1'b1;


  // Signals that exist only because the blocks offer them: the raw channel (unused, its
  // EtherType is reserved), the FIFO's other status strobes,
  // the closed receive side of port 2.
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser,
                  raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac, raw_rx_tdata, raw_rx_tkeep,
                  raw_tx_hdr_ready, raw_tx_tready,
                  fifo_overflow, fifo_drop_bad, fifo_good,
                  urx_hdr_valid[2], urx_hdr_src_mac[143:96], urx_hdr_src_ip[95:64],
                  urx_hdr_src_port[47:32], urx_hdr_dst_port[47:32], urx_hdr_len[47:32],
                  urx_tdata[2*DATA_W +: DATA_W], urx_tkeep[2*KEEP_W +: KEEP_W], urx_tvalid[2], urx_tlast[2],
                  urx_tuser[2]};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
