`default_nettype none
// eth_mac_xgmii: 10 Gbit/s Ethernet MAC, 64-bit XGMII PHY side (156.25 MHz).
//
// eth_mac_xgmii_tx (tx_clk domain) + eth_mac_xgmii_rx (rx_clk domain) + eth_mac_stats
// (the event strobes shared with the 1 Gbit/s MAC) + the link fault response: the
// receiver's fault state is brought to tx_clk (sync_bit), and the transmitter sends Remote
// Fault on a local fault and idles on a remote fault (IEEE 802.3 clause 46.3.4). The user
// side carries whole frames from the destination MAC onwards, without FCS, in both
// directions, as 64-bit AXI4-Stream with tkeep: TX pads to 60 bytes and appends the FCS;
// RX strips the FCS and marks bad frames with m_axis_tuser on the last beat. See
// docs/xgmii.md.
//
// Ports:
//   tx_clk, tx_rst           XGMII transmit clock (156.25 MHz) and its sync reset
//   rx_clk, rx_rst           XGMII receive clock and its sync reset (may be tx_clk)
//   s_axis_t{data[63:0],keep[7:0],valid,ready,last,user}  frames to send (tx_clk)
//   m_axis_t{data[63:0],keep[7:0],valid,last,user}        frames received, no tready (rx_clk)
//   xgmii_txd[63:0], xgmii_txc[7:0]   to the PHY (registered, tx_clk)
//   xgmii_rxd[63:0], xgmii_rxc[7:0]   from the PHY (registered inside, rx_clk)
//   cfg_ifg[7:0]             average gap bytes (< 12 means 12; tx_clk)
//   cfg_max_len[15:0]        largest good frame, FCS included (1518, 9018 jumbo, 0 means
//                            1518; rx_clk)
//   rx_local_fault, rx_remote_fault   the link fault the receiver declares (rx_clk)
//   link_ok                  no fault declared (rx_clk)
//   cnt_ev[12:0], cnt_ev_len[31:0]  event strobes, one cycle each, for the counters kept
//                            in stat_counters: bits 0-9 those of the 1 Gbit/s MAC
//                            (eth_mac_stats: 0-3 tx_clk, 4-9 rx_clk), then 10
//                            tx_fault_drop (tx_clk), 11 rx_local_fault, 12 rx_remote_fault
//                            (rx_clk, once as each fault is declared); the frame
//                            lengths the bytes strobes add: [15:0] tx, [31:16] rx
// Parameters: none.
// Latency: that of eth_mac_xgmii_tx and eth_mac_xgmii_rx; a fault reaches the transmitter
// 2-3 tx_clk cycles after the receiver declares it.
module eth_mac_xgmii (
    input  wire        tx_clk,
    input  wire        tx_rst,
    input  wire        rx_clk,
    input  wire        rx_rst,

    input  wire [63:0] s_axis_tdata,
    input  wire [7:0]  s_axis_tkeep,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    output wire [63:0] m_axis_tdata,
    output wire [7:0]  m_axis_tkeep,
    output wire        m_axis_tvalid,
    output wire        m_axis_tlast,
    output wire        m_axis_tuser,

    output wire [63:0] xgmii_txd,
    output wire [7:0]  xgmii_txc,
    input  wire [63:0] xgmii_rxd,
    input  wire [7:0]  xgmii_rxc,

    input  wire [7:0]  cfg_ifg,
    input  wire [15:0] cfg_max_len,

    output wire        rx_local_fault,
    output wire        rx_remote_fault,
    output wire        link_ok,

    output wire [12:0] cnt_ev,
    output wire [31:0] cnt_ev_len
);
    wire        stat_tx_frame, stat_tx_underflow, stat_tx_abort, stat_tx_fault_drop;
    wire [15:0] stat_tx_bytes;
    wire        stat_rx_frame, stat_rx_bad_fcs, stat_rx_runt, stat_rx_oversize, stat_rx_er;
    wire        stat_rx_local_fault, stat_rx_remote_fault;
    wire [15:0] stat_rx_bytes;
    wire [1:0]  tx_fault;  // {remote, local} in tx_clk
    wire [9:0]  mac_ev;

    assign link_ok = !rx_local_fault && !rx_remote_fault;

    sync_bit #(.WIDTH(2), .STAGES(2)) u_fault_sync (
        .clk(tx_clk), .in({rx_remote_fault, rx_local_fault}), .out(tx_fault)
    );

    eth_mac_xgmii_tx u_tx (
        .clk(tx_clk), .rst(tx_rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .xgmii_txd(xgmii_txd), .xgmii_txc(xgmii_txc),
        .cfg_ifg(cfg_ifg), .fault_local(tx_fault[0]), .fault_remote(tx_fault[1]),
        .stat_tx_frame(stat_tx_frame), .stat_tx_bytes(stat_tx_bytes),
        .stat_tx_underflow(stat_tx_underflow), .stat_tx_abort(stat_tx_abort),
        .stat_tx_fault_drop(stat_tx_fault_drop)
    );

    eth_mac_xgmii_rx u_rx (
        .clk(rx_clk), .rst(rx_rst),
        .xgmii_rxd(xgmii_rxd), .xgmii_rxc(xgmii_rxc),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tlast(m_axis_tlast),
        .m_axis_tuser(m_axis_tuser),
        .cfg_max_len(cfg_max_len),
        .rx_local_fault(rx_local_fault), .rx_remote_fault(rx_remote_fault),
        .stat_rx_frame(stat_rx_frame), .stat_rx_bytes(stat_rx_bytes),
        .stat_rx_bad_fcs(stat_rx_bad_fcs), .stat_rx_runt(stat_rx_runt),
        .stat_rx_oversize(stat_rx_oversize), .stat_rx_er(stat_rx_er),
        .stat_rx_local_fault(stat_rx_local_fault), .stat_rx_remote_fault(stat_rx_remote_fault)
    );

    eth_mac_stats u_stats (
        .tx_clk(tx_clk), .tx_rst(tx_rst),
        .stat_tx_frame(stat_tx_frame), .stat_tx_bytes(stat_tx_bytes),
        .stat_tx_underflow(stat_tx_underflow), .stat_tx_abort(stat_tx_abort),
        .rx_clk(rx_clk), .rx_rst(rx_rst),
        .stat_rx_frame(stat_rx_frame), .stat_rx_bytes(stat_rx_bytes),
        .stat_rx_bad_fcs(stat_rx_bad_fcs), .stat_rx_runt(stat_rx_runt),
        .stat_rx_oversize(stat_rx_oversize), .stat_rx_er(stat_rx_er),
        .cnt_ev(mac_ev), .cnt_ev_len(cnt_ev_len)
    );

    assign cnt_ev = {stat_rx_remote_fault, stat_rx_local_fault, stat_tx_fault_drop, mac_ev};
endmodule
`default_nettype wire
