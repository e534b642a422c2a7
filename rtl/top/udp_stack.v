`default_nettype none
// udp_stack: the integrated UDP/IP stack without the MAC (width-generic).
//
// Receive:  MAC frames -> eth_rx -> { arp | ip_rx -> { icmp_echo | udp_rx -> ports } | raw }
// Transmit: { arp, icmp_echo, raw_tx, udp_tx per port } -> eth_tx_arb -> MAC frames
// One ARP lookup port is shared by the UDP transmitters (round-robin, one lookup in flight).
//
// Interfaces (see docs/stack.md for the full table and the header/payload handshake):
//   s_axis_*          frames from the MAC user side (no FCS; tuser on last beat = bad)
//   m_axis_*          frames to the MAC user side (no FCS; the MAC pads and adds the FCS)
//   cfg_mac, cfg_ip, cfg_netmask, cfg_gateway, cfg_ttl, cfg_df, cfg_raw_ethertype
//   cfg_udp_port[NUM_PORTS*16]      port number of each application port (0 = closed)
//   cfg_udp_csum_mode[NUM_PORTS*2]  TX checksum mode per port (0 zero, 1 computed, 2 given)
//   tick_1ms                        millisecond strobe (ARP timers)
//   cfg_arp_answer, cfg_icmp_answer, cfg_udp_csum_check, cfg_raw_en  run-time enables, one
//       per block (the register map's NET.ENABLES): 0 leaves ARP requests for us
//       unanswered (arp req_refused), drops every ICMP message (icmp_echo dropped), takes
//       every UDP checksum as right (udp_rx), drops raw-EtherType frames (eth_rx
//       bad_ethertype)
//   m_udp_rx_hdr_* / m_udp_rx_axis_*  UDP receive, NUM_PORTS ports flattened
//       (hdr fields src_mac, src_ip, src_port, dst_port, len; docs/conventions.md)
//   s_udp_tx_hdr_* / s_udp_tx_axis_*  UDP transmit, NUM_PORTS ports flattened
//       (hdr fields dst_mac, dst_mac_valid, dst_ip, dst_port, src_port, len, csum)
//   m_raw_rx_hdr_* (dst_mac, src_mac) / m_raw_rx_axis_*: raw-EtherType frames received
//       (payload = the bytes after the 14-byte header, Ethernet padding included)
//   s_raw_tx_hdr_* (dst_mac) / s_raw_tx_axis_*: raw-EtherType frames to send
//   cnt_ev[43+5*NUM_PORTS-1:0]  the blocks' event strobes (drop reasons included),
//       concatenated, one cycle per event, for counters kept in stat_counters (read them
//       while rst is low); each group is a block's cnt_ev, its first bit given by the
//       EV_* localparams below (bit lists in each block's header and docs/stack.md):
//         EV_ETH     eth_rx (4)     EV_IP      ip_rx (9)       EV_UDP_RX  udp_rx (7)
//         EV_ICMP    icmp_echo (4), then icmp_unreach (2)       EV_ARP     arp (14)
//         EV_TX      eth_tx_arb (1), then raw_tx (2)
//         EV_UDP_TX  the UDP transmitters' tx_frames, tx_abort, tx_long, arp_miss and
//                    sf_overflow strobes, NUM_PORTS bits each (port 0 first)
//       A block left out (ICMP_ECHO = 0, ICMP_UNREACH = 0) gives zeros, except that
//       without the echo every ICMP message is counted as dropped (EV_ICMP + 2).
// Parameters (checked at elaboration here; ARP_ENTRIES and TX_BUF_BYTES by arp and
//   udp_tx; RX_BUSY_WAIT and TX_PIPE take any value):
//   DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8,
//   NUM_PORTS (1..8; tested 1, 2 and 3),
//   RX_STORE_FWD (udp_rx: 0 cut-through with tuser on bad datagrams, 1 store and
//   forward, bad datagrams dropped; 0 tested here, 1 in udp_rx's tests),
//   TX_BUF_BYTES (per-port buffer for checksum mode 1; 0 = none: mode 1 then sends
//   checksum 0), ARP_ENTRIES,
//   ICMP_ECHO (1: build the ICMP echo responder; 0: leave it out: every ICMP message is
//   consumed and counted as dropped; both tested),
//   ICMP_UNREACH (1: build the rate-limited ICMP port-unreachable sender, enabled at run
//   time by cfg_unreach_per_ms != 0; 0: leave it out; both tested),
//   RX_BUSY_WAIT (udp_rx: cycles an application port may take to accept a datagram's
//   header before the datagram is dropped whole and counted (busy_drop), so one
//   stalled application cannot stall ARP, ICMP and the other ports; -1 (any negative
//   value) = wait forever; tested -1, 4 and 125000),
//   TX_PIPE (bit mask over the arbiter's NUM_PORTS + 3 + ICMP_UNREACH + TCP inputs: 0 ARP,
//   1 ICMP echo, 2 raw, 3.. the UDP ports, the port-unreachable sender, the TCP engine; a set bit
//   puts a register slice, axis_pipe, on that source's output in front of eth_tx_arb, so
//   the arbiter's grant logic and data multiplexer see flip-flops for it and its tready
//   is a flip-flop: one cycle more on its frames, two beats of storage; 0: none; bits
//   above the inputs are ignored; tested 0, 31 and 255; not checked: every value is a mask),
//   TX_ARB_REG (eth_tx_arb REG_OUT, 0 or 1, both tested: 0 the arbiter's output is its
//   data multiplexer; 1 an output register, with the grant decided from registers only:
//   m_axis_* are flip-flops and no path from the sources' slices or the MAC crosses the
//   arbiter in more than a gate or two, for a consumer that pauses between frames (a
//   MAC); a frame reaches m_axis 3 cycles after its source offers it on an idle arbiter,
//   and frames leave with a gap of 1 cycle or more, hidden behind the MAC's FCS and gap),
//   TCP (0 or 1, both tested: 1 passes TCP segments (protocol 6) out of ip_rx on m_tcp_*
//   and takes a TCP engine's frames on s_tcp_tx_axis_* as the arbiter's last input, after
//   the port-unreachable sender; 0 leaves both idle).
// Latency: see docs/stack.md (measured by bench/stack_rx.py).
module udp_stack #(
    parameter integer DATA_W       = 8,
    parameter integer KEEP_W       = DATA_W / 8,
    parameter integer NUM_PORTS    = 2,
    parameter integer RX_STORE_FWD = 0,
    parameter integer TX_BUF_BYTES = 2048,
    parameter integer ARP_ENTRIES  = 16,
    parameter integer ICMP_ECHO    = 1,
    parameter integer ICMP_UNREACH = 0,
    parameter integer RX_BUSY_WAIT = -1,
    parameter integer TX_PIPE      = 0,
    parameter integer TX_ARB_REG   = 0,
    parameter integer TCP          = 0
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire                        tick_1ms,
    // configuration
    input  wire [47:0]                 cfg_mac,
    input  wire [31:0]                 cfg_ip,
    input  wire [31:0]                 cfg_netmask,
    input  wire [31:0]                 cfg_gateway,
    input  wire [7:0]                  cfg_ttl,
    input  wire                        cfg_df,
    input  wire [15:0]                 cfg_raw_ethertype,
    input  wire [NUM_PORTS*16-1:0]     cfg_udp_port,
    input  wire [NUM_PORTS*2-1:0]      cfg_udp_csum_mode,
    input  wire [7:0]                  cfg_unreach_per_ms,  // port-unreachable limit, 0 = off
    // run-time enables (NET.ENABLES): each refused frame is dropped and counted
    input  wire                        cfg_arp_answer,      // answer ARP requests for us
    input  wire                        cfg_icmp_answer,     // answer ICMP echo requests
    input  wire                        cfg_udp_csum_check,  // check UDP checksums
    input  wire                        cfg_raw_en,          // receive raw-EtherType frames
    // MAC user side
    input  wire [DATA_W-1:0]           s_axis_tdata,
    input  wire [KEEP_W-1:0]           s_axis_tkeep,
    input  wire                        s_axis_tvalid,
    output wire                        s_axis_tready,
    input  wire                        s_axis_tlast,
    input  wire                        s_axis_tuser,
    output wire [DATA_W-1:0]           m_axis_tdata,
    output wire [KEEP_W-1:0]           m_axis_tkeep,
    output wire                        m_axis_tvalid,
    input  wire                        m_axis_tready,
    output wire                        m_axis_tlast,
    output wire                        m_axis_tuser,
    // UDP receive ports
    output wire [NUM_PORTS-1:0]        m_udp_rx_hdr_valid,
    input  wire [NUM_PORTS-1:0]        m_udp_rx_hdr_ready,
    output wire [NUM_PORTS*48-1:0]     m_udp_rx_hdr_src_mac,
    output wire [NUM_PORTS*32-1:0]     m_udp_rx_hdr_src_ip,
    output wire [NUM_PORTS*16-1:0]     m_udp_rx_hdr_src_port,
    output wire [NUM_PORTS*16-1:0]     m_udp_rx_hdr_dst_port,
    output wire [NUM_PORTS*16-1:0]     m_udp_rx_hdr_len,
    output wire [NUM_PORTS*DATA_W-1:0] m_udp_rx_axis_tdata,
    output wire [NUM_PORTS*KEEP_W-1:0] m_udp_rx_axis_tkeep,
    output wire [NUM_PORTS-1:0]        m_udp_rx_axis_tvalid,
    input  wire [NUM_PORTS-1:0]        m_udp_rx_axis_tready,
    output wire [NUM_PORTS-1:0]        m_udp_rx_axis_tlast,
    output wire [NUM_PORTS-1:0]        m_udp_rx_axis_tuser,
    // UDP transmit ports
    input  wire [NUM_PORTS-1:0]        s_udp_tx_hdr_valid,
    output wire [NUM_PORTS-1:0]        s_udp_tx_hdr_ready,
    input  wire [NUM_PORTS*48-1:0]     s_udp_tx_hdr_dst_mac,
    input  wire [NUM_PORTS-1:0]        s_udp_tx_hdr_dst_mac_valid,
    input  wire [NUM_PORTS*32-1:0]     s_udp_tx_hdr_dst_ip,
    input  wire [NUM_PORTS*16-1:0]     s_udp_tx_hdr_dst_port,
    input  wire [NUM_PORTS*16-1:0]     s_udp_tx_hdr_src_port,
    input  wire [NUM_PORTS*16-1:0]     s_udp_tx_hdr_len,
    input  wire [NUM_PORTS*16-1:0]     s_udp_tx_hdr_csum,
    input  wire [NUM_PORTS*DATA_W-1:0] s_udp_tx_axis_tdata,
    input  wire [NUM_PORTS*KEEP_W-1:0] s_udp_tx_axis_tkeep,
    input  wire [NUM_PORTS-1:0]        s_udp_tx_axis_tvalid,
    output wire [NUM_PORTS-1:0]        s_udp_tx_axis_tready,
    input  wire [NUM_PORTS-1:0]        s_udp_tx_axis_tlast,
    input  wire [NUM_PORTS-1:0]        s_udp_tx_axis_tuser,
    // raw EtherType channel
    output wire                        m_raw_rx_hdr_valid,
    input  wire                        m_raw_rx_hdr_ready,
    output wire [47:0]                 m_raw_rx_hdr_dst_mac,
    output wire [47:0]                 m_raw_rx_hdr_src_mac,
    output wire [DATA_W-1:0]           m_raw_rx_axis_tdata,
    output wire [KEEP_W-1:0]           m_raw_rx_axis_tkeep,
    output wire                        m_raw_rx_axis_tvalid,
    input  wire                        m_raw_rx_axis_tready,
    output wire                        m_raw_rx_axis_tlast,
    output wire                        m_raw_rx_axis_tuser,
    input  wire                        s_raw_tx_hdr_valid,
    output wire                        s_raw_tx_hdr_ready,
    input  wire [47:0]                 s_raw_tx_hdr_dst_mac,
    input  wire [DATA_W-1:0]           s_raw_tx_axis_tdata,
    input  wire [KEEP_W-1:0]           s_raw_tx_axis_tkeep,
    input  wire                        s_raw_tx_axis_tvalid,
    output wire                        s_raw_tx_axis_tready,
    input  wire                        s_raw_tx_axis_tlast,
    input  wire                        s_raw_tx_axis_tuser,
    // TCP (TCP = 1): ip_rx's TCP port out, a TCP engine's frames in (docs/tcp.md)
    output wire                        m_tcp_hdr_valid,
    input  wire                        m_tcp_hdr_ready,
    output wire [47:0]                 m_tcp_hdr_src_mac,
    output wire [31:0]                 m_tcp_hdr_src_ip,
    output wire [31:0]                 m_tcp_hdr_dst_ip,
    output wire [15:0]                 m_tcp_hdr_len,
    output wire                        m_tcp_hdr_broadcast,
    output wire [DATA_W-1:0]           m_tcp_axis_tdata,
    output wire [KEEP_W-1:0]           m_tcp_axis_tkeep,
    output wire                        m_tcp_axis_tvalid,
    input  wire                        m_tcp_axis_tready,
    output wire                        m_tcp_axis_tlast,
    output wire                        m_tcp_axis_tuser,
    input  wire [DATA_W-1:0]           s_tcp_tx_axis_tdata,
    input  wire [KEEP_W-1:0]           s_tcp_tx_axis_tkeep,
    input  wire                        s_tcp_tx_axis_tvalid,
    output wire                        s_tcp_tx_axis_tready,
    input  wire                        s_tcp_tx_axis_tlast,
    input  wire                        s_tcp_tx_axis_tuser,
    // the blocks' event strobes (see EV_* below)
    output wire [43+5*NUM_PORTS-1:0]   cnt_ev
);
    // cnt_ev indices: the first bit of each group
    localparam integer EV_ETH    = 0;   // eth_rx_frames bad_mac bad_ethertype runt
    localparam integer EV_IP     = 4;   // ip_rx_packets runt bad_hdr bad_csum bad_len
                                        // not_for_us fragment bad_proto truncated
    localparam integer EV_UDP_RX = 13;  // udp_rx_datagrams bad_len closed_port bad_csum
                                        // err_in oversize busy_drop
    localparam integer EV_ICMP   = 20;  // icmp_replies aborted dropped bad_csum
                                        // unreach_sent unreach_dropped
    localparam integer EV_ARP    = 26;  // arp_req_rx reply_tx req_tx garp_tx reply_rx
                                        // malformed rx_overrun hit miss timeout expired
                                        // evicted conflict req_refused
    localparam integer EV_TX     = 40;  // tx_frames raw_tx_frames raw_tx_abort
    localparam integer EV_UDP_TX = 43;  // udp_tx_frames[NUM_PORTS] abort[..] long[..]
                                        // arp_miss[..] sf_overflow[..]

    // arbiter inputs: ARP, ICMP, raw, the UDP ports, then the port-unreachable sender if built
    localparam integer UN  = (ICMP_UNREACH != 0) ? 1 : 0;
    localparam integer TN  = (TCP != 0) ? 1 : 0;
    localparam integer NTX = NUM_PORTS + 3 + UN + TN;

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            udp_stack_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W * 8 != DATA_W) begin : g_check_keep_w
            udp_stack_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (NUM_PORTS < 1 || NUM_PORTS > 8) begin : g_check_num_ports
            udp_stack_NUM_PORTS_must_be_1_to_8 u_error ();  // unsupported parameter
        end
        if (RX_STORE_FWD != 0 && RX_STORE_FWD != 1) begin : g_check_rx_store_fwd
            udp_stack_RX_STORE_FWD_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (ICMP_ECHO != 0 && ICMP_ECHO != 1) begin : g_check_icmp_echo
            udp_stack_ICMP_ECHO_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (ICMP_UNREACH != 0 && ICMP_UNREACH != 1) begin : g_check_icmp_unreach
            udp_stack_ICMP_UNREACH_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (TX_ARB_REG != 0 && TX_ARB_REG != 1) begin : g_check_tx_arb_reg
            udp_stack_TX_ARB_REG_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (TCP != 0 && TCP != 1) begin : g_check_tcp
            udp_stack_TCP_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate
    localparam integer UI  = NUM_PORTS + 3;  // the port-unreachable sender's input (UN = 1)
    localparam integer TI  = UI + UN;        // the TCP engine's frames (TN = 1)
    localparam integer PW = (NUM_PORTS > 1) ? $clog2(NUM_PORTS) : 1;

    // ---------------- Ethernet receive ----------------
    wire [DATA_W-1:0] arp_rx_tdata, ip_tdata;
    wire [KEEP_W-1:0] arp_rx_tkeep, ip_tkeep;
    wire              arp_rx_tvalid, arp_rx_tready, arp_rx_tlast, arp_rx_tuser;
    wire              ip_tvalid, ip_tready, ip_tlast, ip_tuser;
    wire              ip_hdr_valid, ip_hdr_ready;
    wire [47:0]       ip_hdr_src_mac;
    // the IPv4 header bus's destination MAC and EtherType are not needed past eth_rx;
    // the raw channel's EtherType is cfg_raw_ethertype by definition
    /* verilator lint_off UNUSEDSIGNAL */
    wire [47:0]       ip_hdr_dst_mac;
    wire [15:0]       ip_hdr_ethertype, raw_hdr_ethertype;
    /* verilator lint_on UNUSEDSIGNAL */

    eth_rx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_eth_rx (
        .clk(clk), .rst(rst), .cfg_mac(cfg_mac), .cfg_raw_ethertype(cfg_raw_ethertype),
        .cfg_raw_en(cfg_raw_en),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_arp_axis_tdata(arp_rx_tdata), .m_arp_axis_tkeep(arp_rx_tkeep),
        .m_arp_axis_tvalid(arp_rx_tvalid), .m_arp_axis_tready(arp_rx_tready),
        .m_arp_axis_tlast(arp_rx_tlast), .m_arp_axis_tuser(arp_rx_tuser),
        .m_ip_hdr_valid(ip_hdr_valid), .m_ip_hdr_ready(ip_hdr_ready),
        .m_ip_hdr_dst_mac(ip_hdr_dst_mac), .m_ip_hdr_src_mac(ip_hdr_src_mac),
        .m_ip_hdr_ethertype(ip_hdr_ethertype),
        .m_ip_axis_tdata(ip_tdata), .m_ip_axis_tkeep(ip_tkeep), .m_ip_axis_tvalid(ip_tvalid),
        .m_ip_axis_tready(ip_tready), .m_ip_axis_tlast(ip_tlast), .m_ip_axis_tuser(ip_tuser),
        .m_raw_hdr_valid(m_raw_rx_hdr_valid), .m_raw_hdr_ready(m_raw_rx_hdr_ready),
        .m_raw_hdr_dst_mac(m_raw_rx_hdr_dst_mac), .m_raw_hdr_src_mac(m_raw_rx_hdr_src_mac),
        .m_raw_hdr_ethertype(raw_hdr_ethertype),
        .m_raw_axis_tdata(m_raw_rx_axis_tdata), .m_raw_axis_tkeep(m_raw_rx_axis_tkeep),
        .m_raw_axis_tvalid(m_raw_rx_axis_tvalid), .m_raw_axis_tready(m_raw_rx_axis_tready),
        .m_raw_axis_tlast(m_raw_rx_axis_tlast), .m_raw_axis_tuser(m_raw_rx_axis_tuser),
        .cnt_ev(cnt_ev[EV_ETH+:4])
    );

    // ---------------- IPv4 receive ----------------
    wire              icmp_hdr_valid, icmp_hdr_ready, icmp_hdr_bcast;
    wire [47:0]       icmp_hdr_src_mac;
    wire [31:0]       icmp_hdr_src_ip, icmp_hdr_dst_ip;
    wire [7:0]        icmp_hdr_proto;
    wire [15:0]       icmp_hdr_len;
    wire [DATA_W-1:0] icmp_tdata;
    wire [KEEP_W-1:0] icmp_tkeep;
    wire              icmp_tvalid, icmp_tready, icmp_tlast, icmp_tuser;
    wire              udp_hdr_valid, udp_hdr_ready, udp_hdr_bcast;
    wire [47:0]       udp_hdr_src_mac;
    wire [31:0]       udp_hdr_src_ip, udp_hdr_dst_ip;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [7:0]        udp_hdr_proto;  // always 17 on this port
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0]       udp_hdr_len;
    wire [DATA_W-1:0] udp_tdata;
    wire [KEEP_W-1:0] udp_tkeep;
    wire              udp_tvalid, udp_tready, udp_tlast, udp_tuser;

    ip_rx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .TCP(TCP)) u_ip_rx (
        .clk(clk), .rst(rst), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask),
        .s_hdr_valid(ip_hdr_valid), .s_hdr_ready(ip_hdr_ready), .s_hdr_src_mac(ip_hdr_src_mac),
        .s_axis_tdata(ip_tdata), .s_axis_tkeep(ip_tkeep), .s_axis_tvalid(ip_tvalid),
        .s_axis_tready(ip_tready), .s_axis_tlast(ip_tlast), .s_axis_tuser(ip_tuser),
        .m_icmp_hdr_valid(icmp_hdr_valid), .m_icmp_hdr_ready(icmp_hdr_ready),
        .m_icmp_hdr_src_mac(icmp_hdr_src_mac), .m_icmp_hdr_src_ip(icmp_hdr_src_ip),
        .m_icmp_hdr_dst_ip(icmp_hdr_dst_ip), .m_icmp_hdr_protocol(icmp_hdr_proto),
        .m_icmp_hdr_len(icmp_hdr_len), .m_icmp_hdr_broadcast(icmp_hdr_bcast),
        .m_icmp_axis_tdata(icmp_tdata), .m_icmp_axis_tkeep(icmp_tkeep),
        .m_icmp_axis_tvalid(icmp_tvalid), .m_icmp_axis_tready(icmp_tready),
        .m_icmp_axis_tlast(icmp_tlast), .m_icmp_axis_tuser(icmp_tuser),
        .m_udp_hdr_valid(udp_hdr_valid), .m_udp_hdr_ready(udp_hdr_ready),
        .m_udp_hdr_src_mac(udp_hdr_src_mac), .m_udp_hdr_src_ip(udp_hdr_src_ip),
        .m_udp_hdr_dst_ip(udp_hdr_dst_ip), .m_udp_hdr_protocol(udp_hdr_proto),
        .m_udp_hdr_len(udp_hdr_len), .m_udp_hdr_broadcast(udp_hdr_bcast),
        .m_udp_axis_tdata(udp_tdata), .m_udp_axis_tkeep(udp_tkeep),
        .m_udp_axis_tvalid(udp_tvalid), .m_udp_axis_tready(udp_tready),
        .m_udp_axis_tlast(udp_tlast), .m_udp_axis_tuser(udp_tuser),
        .m_tcp_hdr_valid(m_tcp_hdr_valid), .m_tcp_hdr_ready(m_tcp_hdr_ready),
        .m_tcp_hdr_src_mac(m_tcp_hdr_src_mac), .m_tcp_hdr_src_ip(m_tcp_hdr_src_ip),
        .m_tcp_hdr_dst_ip(m_tcp_hdr_dst_ip), .m_tcp_hdr_len(m_tcp_hdr_len),
        .m_tcp_hdr_broadcast(m_tcp_hdr_broadcast),
        .m_tcp_axis_tdata(m_tcp_axis_tdata), .m_tcp_axis_tkeep(m_tcp_axis_tkeep),
        .m_tcp_axis_tvalid(m_tcp_axis_tvalid), .m_tcp_axis_tready(m_tcp_axis_tready),
        .m_tcp_axis_tlast(m_tcp_axis_tlast), .m_tcp_axis_tuser(m_tcp_axis_tuser),
        .cnt_ev(cnt_ev[EV_IP+:9])
    );

    // ---------------- UDP receive ----------------
    wire              closed_valid, closed_bcast;  // offered for a port-unreachable reply
    wire [47:0]       closed_src_mac;
    wire [31:0]       closed_src_ip, closed_dst_ip;
    wire [15:0]       closed_src_port, closed_dst_port;
    udp_rx #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .NUM_PORTS(NUM_PORTS), .STORE_FWD(RX_STORE_FWD),
        .BUSY_WAIT(RX_BUSY_WAIT)
    ) u_udp_rx (
        .clk(clk), .rst(rst), .cfg_udp_port(cfg_udp_port),
        .cfg_csum_check(cfg_udp_csum_check),
        .s_hdr_valid(udp_hdr_valid), .s_hdr_ready(udp_hdr_ready),
        .s_hdr_src_mac(udp_hdr_src_mac), .s_hdr_src_ip(udp_hdr_src_ip),
        .s_hdr_dst_ip(udp_hdr_dst_ip), .s_hdr_len(udp_hdr_len),
        .s_hdr_broadcast(udp_hdr_bcast),
        .s_axis_tdata(udp_tdata), .s_axis_tkeep(udp_tkeep), .s_axis_tvalid(udp_tvalid),
        .s_axis_tready(udp_tready), .s_axis_tlast(udp_tlast), .s_axis_tuser(udp_tuser),
        .m_hdr_valid(m_udp_rx_hdr_valid), .m_hdr_ready(m_udp_rx_hdr_ready),
        .m_hdr_src_mac(m_udp_rx_hdr_src_mac), .m_hdr_src_ip(m_udp_rx_hdr_src_ip),
        .m_hdr_src_port(m_udp_rx_hdr_src_port), .m_hdr_dst_port(m_udp_rx_hdr_dst_port),
        .m_hdr_len(m_udp_rx_hdr_len),
        .m_axis_tdata(m_udp_rx_axis_tdata), .m_axis_tkeep(m_udp_rx_axis_tkeep),
        .m_axis_tvalid(m_udp_rx_axis_tvalid), .m_axis_tready(m_udp_rx_axis_tready),
        .m_axis_tlast(m_udp_rx_axis_tlast), .m_axis_tuser(m_udp_rx_axis_tuser),
        .closed_valid(closed_valid), .closed_src_mac(closed_src_mac),
        .closed_src_ip(closed_src_ip), .closed_dst_ip(closed_dst_ip),
        .closed_src_port(closed_src_port), .closed_dst_port(closed_dst_port),
        .closed_broadcast(closed_bcast),
        .cnt_ev(cnt_ev[EV_UDP_RX+:7])
    );

    // ---------------- transmit sources ----------------
    wire [NTX*DATA_W-1:0] tx_tdata;
    wire [NTX*KEEP_W-1:0] tx_tkeep;
    wire [NTX-1:0]        tx_tvalid, tx_tready, tx_tlast, tx_tuser;

    // ARP lookup shared by the UDP transmitters
    wire                 arp_req_valid, arp_req_ready, arp_resp_valid, arp_resp_hit;
    wire [31:0]          arp_req_ip;
    wire [47:0]          arp_resp_mac;
    wire [NUM_PORTS-1:0] p_arp_req_valid;
    wire [NUM_PORTS*32-1:0] p_arp_req_ip;

    // (at 8 bits a repeated lookup is answered in 2 cycles, its compare registered: the
    // transmitter registers its request anyway, and the 24-cycle frame gap hides both)
    arp #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .ENTRIES(ARP_ENTRIES),
          .REPEAT_LAT((KEEP_W == 1) ? 2 : 1)) u_arp (
        .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
        .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask), .cfg_gateway(cfg_gateway),
        .cfg_answer(cfg_arp_answer),
        .s_axis_tdata(arp_rx_tdata), .s_axis_tkeep(arp_rx_tkeep), .s_axis_tvalid(arp_rx_tvalid),
        .s_axis_tready(arp_rx_tready), .s_axis_tlast(arp_rx_tlast), .s_axis_tuser(arp_rx_tuser),
        .m_axis_tdata(tx_tdata[0*DATA_W+:DATA_W]), .m_axis_tkeep(tx_tkeep[0*KEEP_W+:KEEP_W]),
        .m_axis_tvalid(tx_tvalid[0]), .m_axis_tready(tx_tready[0]),
        .m_axis_tlast(tx_tlast[0]), .m_axis_tuser(tx_tuser[0]),
        .arp_req_valid(arp_req_valid), .arp_req_ready(arp_req_ready), .arp_req_ip(arp_req_ip),
        .arp_resp_valid(arp_resp_valid), .arp_resp_hit(arp_resp_hit),
        .arp_resp_mac(arp_resp_mac),
        .cnt_ev(cnt_ev[EV_ARP+:14])
    );

    // round-robin grant of the lookup port: the first requester after the port served
    // last, else the lowest; that port also gets the answer of the lookup in flight
    reg  [PW-1:0] arp_owner_reg;   // the port of the last lookup taken
    reg  [PW-1:0] arp_grant;
    reg           arp_any;
    reg           arp_after_owner; // a requester above arp_owner_reg was found
    integer k;
    always @(*) begin
        arp_grant       = {PW{1'b0}};
        arp_any         = 1'b0;
        arp_after_owner = 1'b0;
        for (k = NUM_PORTS - 1; k >= 0; k = k - 1)
            if (p_arp_req_valid[k]) begin
                arp_any = 1'b1;
                if (k > arp_owner_reg) begin
                    arp_grant       = k[PW-1:0];
                    arp_after_owner = 1'b1;
                end else if (!arp_after_owner) begin
                    arp_grant = k[PW-1:0];
                end
            end
    end
    assign arp_req_valid = arp_any;
    assign arp_req_ip = p_arp_req_ip[32*arp_grant+:32];
    always @(posedge clk) begin
        if (rst)
            arp_owner_reg <= {PW{1'b0}};
        else if (arp_req_valid && arp_req_ready)
            arp_owner_reg <= arp_grant;
    end

    generate
        if (ICMP_ECHO != 0) begin : g_echo
            icmp_echo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_icmp (
                .clk(clk), .rst(rst), .cfg_mac(cfg_mac), .cfg_ttl(cfg_ttl),
                .cfg_answer(cfg_icmp_answer),
                .s_hdr_valid(icmp_hdr_valid), .s_hdr_ready(icmp_hdr_ready),
                .s_hdr_src_mac(icmp_hdr_src_mac), .s_hdr_src_ip(icmp_hdr_src_ip),
                .s_hdr_dst_ip(icmp_hdr_dst_ip), .s_hdr_protocol(icmp_hdr_proto),
                .s_hdr_len(icmp_hdr_len), .s_hdr_broadcast(icmp_hdr_bcast),
                .s_axis_tdata(icmp_tdata), .s_axis_tkeep(icmp_tkeep), .s_axis_tvalid(icmp_tvalid),
                .s_axis_tready(icmp_tready), .s_axis_tlast(icmp_tlast), .s_axis_tuser(icmp_tuser),
                .m_axis_tdata(tx_tdata[1*DATA_W+:DATA_W]), .m_axis_tkeep(tx_tkeep[1*KEEP_W+:KEEP_W]),
                .m_axis_tvalid(tx_tvalid[1]), .m_axis_tready(tx_tready[1]),
                .m_axis_tlast(tx_tlast[1]), .m_axis_tuser(tx_tuser[1]),
                .cnt_ev(cnt_ev[EV_ICMP+:4])
            );
        end else begin : g_no_echo
            // no responder: every ICMP message is taken whole and counted as dropped
            assign icmp_hdr_ready = 1'b1;
            assign icmp_tready = 1'b1;
            assign tx_tdata[1*DATA_W+:DATA_W] = {DATA_W{1'b0}};
            assign tx_tkeep[1*KEEP_W+:KEEP_W] = {KEEP_W{1'b0}};
            assign tx_tvalid[1] = 1'b0;
            assign tx_tlast[1] = 1'b0;
            assign tx_tuser[1] = 1'b0;
            assign cnt_ev[EV_ICMP+:4] = {1'b0, icmp_hdr_valid, 2'b00};  // dropped
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_icmp = &{1'b0, cfg_icmp_answer, icmp_hdr_src_mac, icmp_hdr_src_ip, icmp_hdr_dst_ip,
                                 icmp_hdr_proto, icmp_hdr_len, icmp_hdr_bcast, icmp_tdata,
                                 icmp_tkeep, icmp_tvalid, icmp_tlast, icmp_tuser,
                                 tx_tready[1]};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    raw_tx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_raw_tx (
        .clk(clk), .rst(rst), .cfg_mac(cfg_mac), .cfg_raw_ethertype(cfg_raw_ethertype),
        .s_hdr_valid(s_raw_tx_hdr_valid), .s_hdr_ready(s_raw_tx_hdr_ready),
        .s_hdr_dst_mac(s_raw_tx_hdr_dst_mac),
        .s_axis_tdata(s_raw_tx_axis_tdata), .s_axis_tkeep(s_raw_tx_axis_tkeep),
        .s_axis_tvalid(s_raw_tx_axis_tvalid), .s_axis_tready(s_raw_tx_axis_tready),
        .s_axis_tlast(s_raw_tx_axis_tlast), .s_axis_tuser(s_raw_tx_axis_tuser),
        .m_axis_tdata(tx_tdata[2*DATA_W+:DATA_W]), .m_axis_tkeep(tx_tkeep[2*KEEP_W+:KEEP_W]),
        .m_axis_tvalid(tx_tvalid[2]), .m_axis_tready(tx_tready[2]),
        .m_axis_tlast(tx_tlast[2]), .m_axis_tuser(tx_tuser[2]),
        .cnt_ev(cnt_ev[EV_TX+1+:2])
    );

    genvar g;
    generate
        if (ICMP_UNREACH != 0) begin : g_unreach
            icmp_unreach #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_unreach (
                .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
                .cfg_mac(cfg_mac), .cfg_ttl(cfg_ttl), .cfg_unreach_per_ms(cfg_unreach_per_ms),
                .closed_valid(closed_valid), .closed_src_mac(closed_src_mac),
                .closed_src_ip(closed_src_ip), .closed_dst_ip(closed_dst_ip),
                .closed_src_port(closed_src_port), .closed_dst_port(closed_dst_port),
                .closed_broadcast(closed_bcast),
                .m_axis_tdata(tx_tdata[UI*DATA_W+:DATA_W]),
                .m_axis_tkeep(tx_tkeep[UI*KEEP_W+:KEEP_W]),
                .m_axis_tvalid(tx_tvalid[UI]), .m_axis_tready(tx_tready[UI]),
                .m_axis_tlast(tx_tlast[UI]), .m_axis_tuser(tx_tuser[UI]),
                .cnt_ev(cnt_ev[EV_ICMP+4+:2])
            );
        end else begin : g_no_unreach
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_closed = &{1'b0, closed_valid, closed_bcast, closed_src_mac,
                                   closed_src_ip, closed_dst_ip, closed_src_port,
                                   closed_dst_port, cfg_unreach_per_ms};
            /* verilator lint_on UNUSEDSIGNAL */
            assign cnt_ev[EV_ICMP+4+:2] = 2'b00;
        end
        for (g = 0; g < NUM_PORTS; g = g + 1) begin : g_tx
            /* verilator lint_off UNUSEDSIGNAL */
            wire [5:0]  tx_ev;      // tx_ev[4] (datagrams buffered, sf_frames) is not exported
            /* verilator lint_on UNUSEDSIGNAL */
            udp_tx #(
                .DATA_W(DATA_W), .KEEP_W(KEEP_W), .BUF_BYTES(TX_BUF_BYTES)
            ) u_udp_tx (
                .clk(clk), .rst(rst),
                .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_ttl(cfg_ttl), .cfg_df(cfg_df),
                .s_hdr_valid(s_udp_tx_hdr_valid[g]), .s_hdr_ready(s_udp_tx_hdr_ready[g]),
                .s_hdr_dst_mac(s_udp_tx_hdr_dst_mac[48*g+:48]),
                .s_hdr_dst_mac_valid(s_udp_tx_hdr_dst_mac_valid[g]),
                .s_hdr_dst_ip(s_udp_tx_hdr_dst_ip[32*g+:32]),
                .s_hdr_dst_port(s_udp_tx_hdr_dst_port[16*g+:16]),
                .s_hdr_src_port(s_udp_tx_hdr_src_port[16*g+:16]),
                .s_hdr_len(s_udp_tx_hdr_len[16*g+:16]),
                .s_hdr_csum(s_udp_tx_hdr_csum[16*g+:16]),
                .s_hdr_csum_mode(cfg_udp_csum_mode[2*g+:2]),
                .s_axis_tdata(s_udp_tx_axis_tdata[DATA_W*g+:DATA_W]),
                .s_axis_tkeep(s_udp_tx_axis_tkeep[KEEP_W*g+:KEEP_W]),
                .s_axis_tvalid(s_udp_tx_axis_tvalid[g]), .s_axis_tready(s_udp_tx_axis_tready[g]),
                .s_axis_tlast(s_udp_tx_axis_tlast[g]), .s_axis_tuser(s_udp_tx_axis_tuser[g]),
                .m_axis_tdata(tx_tdata[(3+g)*DATA_W+:DATA_W]),
                .m_axis_tkeep(tx_tkeep[(3+g)*KEEP_W+:KEEP_W]),
                .m_axis_tvalid(tx_tvalid[3+g]), .m_axis_tready(tx_tready[3+g]),
                .m_axis_tlast(tx_tlast[3+g]), .m_axis_tuser(tx_tuser[3+g]),
                .arp_req_valid(p_arp_req_valid[g]),
                .arp_req_ready(arp_req_ready && arp_grant == g),
                .arp_req_ip(p_arp_req_ip[32*g+:32]),
                .arp_resp_valid(arp_resp_valid && arp_owner_reg == g),
                .arp_resp_hit(arp_resp_hit), .arp_resp_mac(arp_resp_mac),
                .cnt_ev(tx_ev)
            );
            assign cnt_ev[EV_UDP_TX+0*NUM_PORTS+g] = tx_ev[0];  // frames
            assign cnt_ev[EV_UDP_TX+1*NUM_PORTS+g] = tx_ev[1];  // abort
            assign cnt_ev[EV_UDP_TX+2*NUM_PORTS+g] = tx_ev[2];  // long
            assign cnt_ev[EV_UDP_TX+3*NUM_PORTS+g] = tx_ev[3];  // arp_miss
            assign cnt_ev[EV_UDP_TX+4*NUM_PORTS+g] = tx_ev[5];  // sf_overflow
        end
    endgenerate

    // the TCP engine's frames (TCP = 1)
    generate
        if (TCP != 0) begin : g_tcp
            assign tx_tdata[TI*DATA_W+:DATA_W] = s_tcp_tx_axis_tdata;
            assign tx_tkeep[TI*KEEP_W+:KEEP_W] = s_tcp_tx_axis_tkeep;
            assign tx_tvalid[TI] = s_tcp_tx_axis_tvalid;
            assign s_tcp_tx_axis_tready = tx_tready[TI];
            assign tx_tlast[TI] = s_tcp_tx_axis_tlast;
            assign tx_tuser[TI] = s_tcp_tx_axis_tuser;
        end else begin : g_no_tcp
            assign s_tcp_tx_axis_tready = 1'b0;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_tcp = &{1'b0, s_tcp_tx_axis_tdata, s_tcp_tx_axis_tkeep,
                                s_tcp_tx_axis_tvalid, s_tcp_tx_axis_tlast, s_tcp_tx_axis_tuser};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    // the arbiter's inputs: the sources' outputs, through a register slice each (TX_PIPE)
    wire [NTX*DATA_W-1:0] ab_tdata;
    wire [NTX*KEEP_W-1:0] ab_tkeep;
    wire [NTX-1:0]        ab_tvalid, ab_tready, ab_tlast, ab_tuser;
    generate
        for (g = 0; g < NTX; g = g + 1) begin : g_txp
            if (((TX_PIPE >> g) & 1) != 0) begin : g_pipe
                axis_pipe #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_pipe (
                    .clk(clk), .rst(rst),
                    .s_axis_tdata(tx_tdata[g*DATA_W+:DATA_W]),
                    .s_axis_tkeep(tx_tkeep[g*KEEP_W+:KEEP_W]),
                    .s_axis_tvalid(tx_tvalid[g]), .s_axis_tready(tx_tready[g]),
                    .s_axis_tlast(tx_tlast[g]), .s_axis_tuser(tx_tuser[g]),
                    .m_axis_tdata(ab_tdata[g*DATA_W+:DATA_W]),
                    .m_axis_tkeep(ab_tkeep[g*KEEP_W+:KEEP_W]),
                    .m_axis_tvalid(ab_tvalid[g]), .m_axis_tready(ab_tready[g]),
                    .m_axis_tlast(ab_tlast[g]), .m_axis_tuser(ab_tuser[g])
                );
            end else begin : g_direct
                assign ab_tdata[g*DATA_W+:DATA_W] = tx_tdata[g*DATA_W+:DATA_W];
                assign ab_tkeep[g*KEEP_W+:KEEP_W] = tx_tkeep[g*KEEP_W+:KEEP_W];
                assign ab_tvalid[g] = tx_tvalid[g];
                assign tx_tready[g] = ab_tready[g];
                assign ab_tlast[g] = tx_tlast[g];
                assign ab_tuser[g] = tx_tuser[g];
            end
        end
    endgenerate

    eth_tx_arb #(
        .N(NTX), .DATA_W(DATA_W), .KEEP_W(KEEP_W), .REG_OUT(TX_ARB_REG)
    ) u_tx_arb (
        .clk(clk), .rst(rst),
        .s_axis_tdata(ab_tdata), .s_axis_tkeep(ab_tkeep), .s_axis_tvalid(ab_tvalid),
        .s_axis_tready(ab_tready), .s_axis_tlast(ab_tlast), .s_axis_tuser(ab_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .cnt_ev(cnt_ev[EV_TX+:1])
    );
endmodule
`default_nettype wire
