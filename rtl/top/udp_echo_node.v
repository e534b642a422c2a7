`default_nettype none
// udp_echo_node: a complete 8-bit network node on one GMII port: MAC, receive frame
// FIFO, ARP, IPv4, ICMP echo and a UDP echo application on one port. It is the smallest
// useful wirecore design and the one the area and Fmax benchmarks measure against other
// open stacks (MAC + ARP + IP + ICMP + UDP echo, 8 bits, one clock).
//
//   gmii_rx* -> eth_mac_gmii RX -> axis_fifo (frame mode: bad frames and frames that do
//   not fit dropped whole) -> udp_stack (1 port) -> udp_echo -> udp_stack (a register
//   slice per transmit source, then the arbiter) -> eth_mac_gmii TX -> gmii_tx*
//
// The stack is built with a register slice (axis_pipe) on every transmit source's
// output in front of its arbiter (udp_stack TX_PIPE): the arbiter's grant logic and data
// multiplexer, and so the MAC transmitter's byte mux and CRC, see flip-flops, and each
// source's tready is a flip-flop. Without them, the paths from a source's logic (its
// tlast, tvalid, byte mux) through the arbiter into the grant or the MAC, and from the
// arbiter's grant into a source's tready logic, limit the whole node's clock. (They
// replace the single slice that sat between the stack and the MAC: same latency.)
//
// The frame FIFO is needed because the MAC's receive stream cannot wait while the stack
// may (a reply waits for the transmitter); it maps to block RAM.
//
// Interfaces:
//   clk, rst, tick_1ms         clock (GMII TX and RX share it), synchronous reset,
//                              millisecond strobe (ARP timers, ICMP rate limit)
//   cfg_mac[47:0], cfg_ip[31:0], cfg_netmask[31:0], cfg_gateway[31:0]   addresses
//   cfg_echo_port[15:0]        UDP port of the echo (0 = closed)
//   cfg_unreach_per_ms[7:0]    ICMP port-unreachable limit (only with ICMP_UNREACH = 1)
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er, gmii_txd[7:0], gmii_tx_en, gmii_tx_er
//   cnt_rd_en, cnt_rd_addr[5:0]  read counter cnt_rd_addr (COUNTERS = 1 or 2), by index:
//     0-9   MAC: tx_frames tx_bytes tx_underflow tx_abort rx_frames rx_bytes rx_bad_fcs
//           rx_runt rx_oversize rx_er
//     10    RX FIFO: frames dropped because the FIFO was full
//     11-14 eth_rx: frames bad_mac bad_ethertype runt
//     15-23 ip_rx: packets runt bad_hdr bad_csum bad_len not_for_us fragment bad_proto
//           truncated
//     24-29 udp_rx: datagrams bad_len closed_port bad_csum err_in oversize
//     30-35 ICMP: replies aborted dropped bad_csum unreach_sent unreach_dropped
//     36-48 ARP: req_rx reply_tx req_tx garp_tx reply_rx malformed rx_overrun hit miss
//           timeout expired evicted conflict
//     49-56 transmit: tx_frames raw_tx_frames raw_tx_abort udp_tx_frames udp_tx_abort
//           udp_tx_long udp_tx_arp_miss udp_tx_sf_overflow
//     57    echo: datagrams echoed
//     58    udp_rx: datagrams dropped because the echo did not take them in time (only
//           with RX_BUSY_WAIT >= 0)
//     59    ARP: requests for us not answered (never: answers are always on here)
//   cnt_rd_valid, cnt_rd_data[31:0]  follow exactly 2 cycles after cnt_rd_en with the
//                              count (CNT_W bits, upper bits zero) of every event before
//                              the cnt_rd_en cycle. A read is taken in any cycle cnt_busy
//                              is low (ignored while it is high), one per cycle. With
//                              COUNTERS = 0 reads are ignored and cnt_rd_valid stays 0.
//   cnt_busy                   (COUNTERS = 2) the counter RAM is being cleared: 60 cycles
//                              after rst falls. Events are counted meanwhile all the same.
//   cnt_lost                   (COUNTERS = 2) sticky: an event was lost (a counter got
//                              more events in one scan than its pending count holds).
//   The counters live in one stat_counters fed by the blocks' event strobes (cnt_ev),
//   wrapping at 2^CNT_W. COUNTERS = 1 keeps them in flip-flops (exact at any rate).
//   COUNTERS = 2 keeps them in one RAM (iCE40 block RAM, Xilinx LUT RAM): each counter
//   has a CNT_PW-bit pending count folded into the RAM once every 60 + R cycles (R: reads
//   taken meanwhile); the bytes counters have 16 bits, and 3 bits (at least ARP_ENTRIES)
//   the counters whose events may come faster than one per 60 cycles: the MAC's bad FCS,
//   runt and rx_er (wire frames as short as 25 cycles) and the ARP cache's timeout,
//   expired and evicted (one per entry in a background pass). Every other counter steps
//   at most once per frame of at least 60 bytes, one byte a cycle. So the counts are
//   exact while at most 30 reads are taken in any 90 cycles; cnt_lost tells otherwise.
//   COUNTERS = 0 builds no counter (the strobes are left unconnected).
// Parameters (checked at elaboration, here or in the block they are passed to; tested
//   values in brackets): ARP_ENTRIES (arp's) [4], RX_FIFO_BYTES (power of two, >= MAX_FRAME)
//   [2048], MAX_FRAME (largest frame the MAC accepts, FCS included) [1518],
//   ECHO_CSUM_MODE (0 none, 1 computed: needs TX_BUF_BYTES >= the largest datagram)
//   [0, 1], TX_BUF_BYTES (0: no store-and-forward buffer) [0, 2048], ICMP_ECHO (1: answer
//   ping; 0: ICMP consumed and counted in icmp_dropped) [0, 1], ICMP_UNREACH (1: port
//   unreachable for closed ports) [0, 1], ECHO_ARP (0: the echo replies to the request's
//   source MAC; 1: its replies go through an ARP lookup of the sender's IP, as a
//   transmitting application's would) [0, 1], CNT_W (counter width, 2..32) [3, 8, 32],
//   COUNTERS (0 none, 1 counters in flip-flops, 2 counters in RAM) [0, 1, 2], CNT_PW
//   (pending bits per counter with COUNTERS = 2, stat_counters' PW) [2], RX_BUSY_WAIT
//   (udp_stack's) [-1].
// Latency: the MAC's receive latency, the whole frame (frame FIFO) plus 2 cycles, the
//   stack's turnaround (docs/stack.md), 2 cycles to the first preamble byte (the source's
//   register slice and the MAC).
module udp_echo_node #(
    parameter integer ARP_ENTRIES    = 4,
    parameter integer RX_FIFO_BYTES  = 2048,
    parameter integer MAX_FRAME      = 1518,
    parameter integer ECHO_CSUM_MODE = 0,
    parameter integer TX_BUF_BYTES   = 0,
    parameter integer ICMP_ECHO      = 1,
    parameter integer ICMP_UNREACH   = 0,
    parameter integer ECHO_ARP       = 0,
    parameter integer CNT_W          = 32,
    parameter integer COUNTERS       = 1,
    parameter integer CNT_PW         = 2,
    parameter integer RX_BUSY_WAIT   = -1
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             tick_1ms,
    input  wire [47:0]      cfg_mac,
    input  wire [31:0]      cfg_ip,
    input  wire [31:0]      cfg_netmask,
    input  wire [31:0]      cfg_gateway,
    input  wire [15:0]      cfg_echo_port,
    input  wire [7:0]       cfg_unreach_per_ms,
    input  wire [7:0]       gmii_rxd,
    input  wire             gmii_rx_dv,
    input  wire             gmii_rx_er,
    output wire [7:0]       gmii_txd,
    output wire             gmii_tx_en,
    output wire             gmii_tx_er,
    input  wire             cnt_rd_en,
    input  wire [5:0]       cnt_rd_addr,
    output wire             cnt_rd_valid,
    output wire [31:0]      cnt_rd_data,
    output wire             cnt_busy,
    output wire             cnt_lost
);
    localparam integer NCNT = 60;  // counters (the index list above)
    localparam [15:0] MAX_FRAME_W = MAX_FRAME[15:0];
    localparam [1:0]  ECHO_MODE   = ECHO_CSUM_MODE[1:0];

    generate
        if (COUNTERS < 0 || COUNTERS > 2) begin : g_check_counters
            udp_echo_node_COUNTERS_must_be_0_1_or_2 u_error ();  // unsupported parameter
        end
        if (CNT_W < 2 || CNT_W > 32) begin : g_check_cnt_w
            udp_echo_node_CNT_W_must_be_2_to_32 u_error ();  // unsupported parameter
        end
        if (ECHO_CSUM_MODE != 0 && ECHO_CSUM_MODE != 1) begin : g_check_echo_csum_mode
            udp_echo_node_ECHO_CSUM_MODE_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (ECHO_ARP != 0 && ECHO_ARP != 1) begin : g_check_echo_arp
            udp_echo_node_ECHO_ARP_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if ((RX_FIFO_BYTES & (RX_FIFO_BYTES - 1)) != 0 || RX_FIFO_BYTES < MAX_FRAME)
        begin : g_check_rx_fifo_bytes
            udp_echo_node_RX_FIFO_BYTES_must_be_a_power_of_2_holding_MAX_FRAME u_error ();
        end
    endgenerate

    wire [NCNT-1:0]    ev;   // every counter's event strobe, in index order
    wire [31:0]        ev_len;  // the MAC's frame lengths: tx [15:0], rx [31:16]
    generate
        if (COUNTERS != 0) begin : g_cnt
            wire [CNT_W-1:0] rd_data;
            // counters 1 and 5 (tx_bytes, rx_bytes) add their frame's length
            wire [NCNT*16-1:0] ev_val = {{(NCNT-6){16'd0}}, ev_len[31:16], 48'd0,
                                          ev_len[15:0], 16'd0};
            // wider pending counts (WMASK) for the counters whose events come faster than
            // one per 60 cycles: 45-47 (ARP timeout, expired, evicted: bursts of up to
            // ARP_ENTRIES) and the MAC's 6, 7, 9 (bad FCS, runt, rx_er: frames on the wire
            // as short as 25 cycles, preamble and gap included)
            localparam integer PWA = $clog2(ARP_ENTRIES + 1);
            localparam integer PWX = (PWA > 3) ? PWA : 3;
            stat_counters #(
                .N(NCNT), .W(CNT_W), .RAM(COUNTERS - 1), .PW(CNT_PW), .VW(16), .PV(16),
                .VMASK({{(NCNT-6){1'b0}}, 6'b100010}),
                .PWW((PWX > CNT_PW) ? PWX : CNT_PW),
                .WMASK({{(NCNT-48){1'b0}}, 3'b111, 35'd0, 10'b1011000000})
            ) u_cnt (
                .clk(clk), .rst(rst), .clear(1'b0), .ev(ev), .ev_val(ev_val),
                .rd_en(cnt_rd_en), .rd_addr(cnt_rd_addr), .rd_valid(cnt_rd_valid),
                .rd_data(rd_data), .busy(cnt_busy), .lost(cnt_lost)
            );
            if (CNT_W < 32) begin : g_pad
                assign cnt_rd_data = {{(32-CNT_W){1'b0}}, rd_data};
            end else begin : g_full
                assign cnt_rd_data = rd_data;
            end
        end else begin : g_no_cnt
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_cnt = &{1'b0, ev, ev_len, cnt_rd_en, cnt_rd_addr};
            /* verilator lint_on UNUSEDSIGNAL */
            assign cnt_rd_valid = 1'b0;
            assign cnt_rd_data = 32'd0;
            assign cnt_busy = 1'b0;
            assign cnt_lost = 1'b0;
        end
    endgenerate

    // ---------------- MAC ----------------
    wire [7:0] mac_rx_tdata, mac_tx_tdata, st_tx_tdata;
    wire       mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
    wire       mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;
    wire       st_tx_tvalid, st_tx_tready, st_tx_tlast, st_tx_tuser;

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
        .cnt_ev(ev[9:0]), .cnt_ev_len(ev_len)
    );

    // ---------------- RX frame FIFO ----------------
    wire [7:0] st_rx_tdata;
    wire [0:0] st_rx_tkeep;
    wire       st_rx_tvalid, st_rx_tready, st_rx_tlast, st_rx_tuser;
    wire       fifo_drop_full;
    /* verilator lint_off UNUSEDSIGNAL */
    wire       fifo_overflow, fifo_drop_bad, fifo_good;  // the MAC counts bad frames
    /* verilator lint_on UNUSEDSIGNAL */

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

    assign ev[10] = fifo_drop_full;

    // ---------------- stack with the echo on port 0 ----------------
    wire        urx_hdr_valid, urx_hdr_ready;
    wire [47:0] urx_hdr_src_mac;
    wire [31:0] urx_hdr_src_ip;
    wire [15:0] urx_hdr_src_port, urx_hdr_dst_port, urx_hdr_len;
    wire [7:0]  urx_tdata;
    wire        urx_tkeep, urx_tvalid, urx_tready, urx_tlast, urx_tuser;
    wire        utx_hdr_valid, utx_hdr_ready, utx_hdr_dst_mac_valid;
    wire [47:0] utx_hdr_dst_mac;
    wire [31:0] utx_hdr_dst_ip;
    wire [15:0] utx_hdr_dst_port, utx_hdr_src_port, utx_hdr_len, utx_hdr_csum;
    wire [7:0]  utx_tdata;
    wire        utx_tkeep, utx_tvalid, utx_tready, utx_tlast, utx_tuser;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [0:0]  tx_tkeep;  // one byte per beat: the MAC takes it as set
    wire [0:0]  mac_tx_tkeep;
    wire        raw_rx_hdr_valid, raw_rx_tvalid, raw_rx_tlast, raw_rx_tuser;
    wire [47:0] raw_rx_hdr_dst_mac, raw_rx_hdr_src_mac;
    wire [7:0]  raw_rx_tdata;
    wire [0:0]  raw_rx_tkeep;
    wire        raw_tx_hdr_ready, raw_tx_tready;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [47:0] stack_ev;

    udp_stack #(
        .DATA_W(8), .KEEP_W(1), .NUM_PORTS(1), .RX_STORE_FWD(0),
        .TX_BUF_BYTES(TX_BUF_BYTES), .ARP_ENTRIES(ARP_ENTRIES), .ICMP_ECHO(ICMP_ECHO),
        .ICMP_UNREACH(ICMP_UNREACH),
        .RX_BUSY_WAIT(RX_BUSY_WAIT), .TX_PIPE(31),
        .TX_ARB_REG(1)
    ) u_stack (
        .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
        .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_netmask(cfg_netmask),
        .cfg_gateway(cfg_gateway), .cfg_ttl(8'd64), .cfg_df(1'b1),
        .cfg_raw_ethertype(16'hFFFF),  // reserved: the raw channel is unused
        .cfg_udp_port(cfg_echo_port), .cfg_udp_csum_mode(ECHO_MODE),
        .cfg_unreach_per_ms(cfg_unreach_per_ms),
        .cfg_arp_answer(1'b1), .cfg_icmp_answer(1'b1), .cfg_udp_csum_check(1'b1),
        .cfg_raw_en(1'b1),  // (its EtherType is reserved: nothing reaches it)
        .s_axis_tdata(st_rx_tdata), .s_axis_tkeep(st_rx_tkeep), .s_axis_tvalid(st_rx_tvalid),
        .s_axis_tready(st_rx_tready), .s_axis_tlast(st_rx_tlast), .s_axis_tuser(st_rx_tuser),
        .m_axis_tdata(st_tx_tdata), .m_axis_tkeep(tx_tkeep), .m_axis_tvalid(st_tx_tvalid),
        .m_axis_tready(st_tx_tready), .m_axis_tlast(st_tx_tlast), .m_axis_tuser(st_tx_tuser),
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
        /* verilator lint_off PINCONNECTEMPTY */
        // TCP = 0: the TCP port and the TCP frame input are not used
        .m_tcp_hdr_valid(), .m_tcp_hdr_ready(1'b1), .m_tcp_hdr_src_mac(), .m_tcp_hdr_src_ip(),
        .m_tcp_hdr_dst_ip(), .m_tcp_hdr_len(), .m_tcp_hdr_broadcast(), .m_tcp_axis_tdata(),
        .m_tcp_axis_tkeep(), .m_tcp_axis_tvalid(), .m_tcp_axis_tready(1'b1),
        .m_tcp_axis_tlast(), .m_tcp_axis_tuser(),
        .s_tcp_tx_axis_tdata(8'd0), .s_tcp_tx_axis_tkeep(1'b0), .s_tcp_tx_axis_tvalid(1'b0),
        .s_tcp_tx_axis_tready(), .s_tcp_tx_axis_tlast(1'b0), .s_tcp_tx_axis_tuser(1'b0),
        /* verilator lint_on PINCONNECTEMPTY */
        .cnt_ev(stack_ev)
    );
    // udp_stack's cnt_ev (48 bits with one port) in index order: its busy_drop strobe
    // (index 19) is counter 58, ARP's req_refused (index 39) counter 59
    assign ev[29:11] = stack_ev[18:0];
    assign ev[48:30] = stack_ev[38:20];
    assign ev[56:49] = stack_ev[47:40];
    assign ev[58] = stack_ev[19];
    assign ev[59] = stack_ev[39];

    assign mac_tx_tdata = st_tx_tdata;
    assign mac_tx_tkeep = tx_tkeep;
    assign mac_tx_tvalid = st_tx_tvalid;
    assign st_tx_tready = mac_tx_tready;
    assign mac_tx_tlast = st_tx_tlast;
    assign mac_tx_tuser = st_tx_tuser;

    udp_echo #(.DATA_W(8), .KEEP_W(1), .ARP_LOOKUP(ECHO_ARP)) u_echo (
        .clk(clk), .rst(rst),
        .s_hdr_valid(urx_hdr_valid), .s_hdr_ready(urx_hdr_ready),
        .s_hdr_src_mac(urx_hdr_src_mac), .s_hdr_src_ip(urx_hdr_src_ip),
        .s_hdr_src_port(urx_hdr_src_port), .s_hdr_dst_port(urx_hdr_dst_port),
        .s_hdr_len(urx_hdr_len),
        .s_axis_tdata(urx_tdata), .s_axis_tkeep(urx_tkeep),
        .s_axis_tvalid(urx_tvalid), .s_axis_tready(urx_tready),
        .s_axis_tlast(urx_tlast), .s_axis_tuser(urx_tuser),
        .m_hdr_valid(utx_hdr_valid), .m_hdr_ready(utx_hdr_ready),
        .m_hdr_dst_mac(utx_hdr_dst_mac), .m_hdr_dst_mac_valid(utx_hdr_dst_mac_valid),
        .m_hdr_dst_ip(utx_hdr_dst_ip), .m_hdr_dst_port(utx_hdr_dst_port),
        .m_hdr_src_port(utx_hdr_src_port), .m_hdr_len(utx_hdr_len),
        .m_hdr_csum(utx_hdr_csum),
        .m_axis_tdata(utx_tdata), .m_axis_tkeep(utx_tkeep),
        .m_axis_tvalid(utx_tvalid), .m_axis_tready(utx_tready),
        .m_axis_tlast(utx_tlast), .m_axis_tuser(utx_tuser),
        .cnt_ev(ev[57])
    );
endmodule
`default_nettype wire
