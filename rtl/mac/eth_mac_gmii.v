`default_nettype none
// eth_mac_gmii: 1 Gbit/s Ethernet MAC, GMII PHY side (8 bits at 125 MHz).
//
// eth_mac_core with both clock enables tied to 1: eth_mac_tx (tx_clk domain) +
// eth_mac_rx (rx_clk domain) + eth_mac_stats (event strobes). The user side carries whole frames from
// the destination MAC onwards, without FCS, in both directions: TX pads to 60 bytes and
// appends the FCS; RX strips the FCS and marks bad frames with m_axis_tuser on the last
// beat. See docs/mac.md.
//
// Ports:
//   tx_clk, tx_rst           GMII transmit clock (125 MHz) and its sync reset
//   rx_clk, rx_rst           GMII receive clock (from the PHY) and its sync reset
//   s_axis_t{data[7:0],valid,ready,last,user}   frames to send (tx_clk)
//   m_axis_t{data[7:0],valid,last,user}         frames received, no tready (rx_clk)
//   gmii_txd[7:0], gmii_tx_en, gmii_tx_er       to the PHY (registered, tx_clk)
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er       from the PHY (registered inside, rx_clk)
//   cfg_ifg[7:0]             idle bytes between frames (< 12 means 12; tx_clk)
//   cfg_max_len[15:0]        largest good frame, FCS included (1518, 9018 jumbo, 0 means
//                            1518; rx_clk)
//   cnt_ev[9:0], cnt_ev_len[31:0]  the event strobes, one cycle each, for the counters
//                            kept in stat_counters (bits 0-3 tx_clk, 4-9 rx_clk): 0
//                            tx_frames, 1 tx_bytes, 2 tx_underflow, 3 tx_abort,
//                            4 rx_frames, 5 rx_bytes, 6 rx_bad_fcs, 7 rx_runt,
//                            8 rx_oversize, 9 rx_er; the frame lengths the bytes strobes
//                            add: [15:0] tx, [31:16] rx (eth_mac_stats)
// Latency: s_axis_tvalid to first preamble byte on gmii_txd: 1 cycle; first frame byte
// on gmii_rxd to m_axis: 7 cycles; last FCS byte on gmii_rxd to the tlast beat: 4.
module eth_mac_gmii (
    input  wire        tx_clk,
    input  wire        tx_rst,
    input  wire        rx_clk,
    input  wire        rx_rst,

    input  wire [7:0]  s_axis_tdata,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    output wire [7:0]  m_axis_tdata,
    output wire        m_axis_tvalid,
    output wire        m_axis_tlast,
    output wire        m_axis_tuser,

    output wire [7:0]  gmii_txd,
    output wire        gmii_tx_en,
    output wire        gmii_tx_er,
    input  wire [7:0]  gmii_rxd,
    input  wire        gmii_rx_dv,
    input  wire        gmii_rx_er,

    input  wire [7:0]  cfg_ifg,
    input  wire [15:0] cfg_max_len,

    output wire [9:0]  cnt_ev,      // event strobes (eth_mac_stats)
    output wire [31:0] cnt_ev_len   // frame lengths of the bytes strobes
);
    eth_mac_core u_core (
        .tx_clk(tx_clk), .tx_rst(tx_rst), .tx_ce(1'b1),
        .rx_clk(rx_clk), .rx_rst(rx_rst), .rx_ce(1'b1),
        .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast),
        .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
        .gmii_rxd(gmii_rxd), .gmii_rx_dv(gmii_rx_dv), .gmii_rx_er(gmii_rx_er),
        .cfg_ifg(cfg_ifg), .cfg_max_len(cfg_max_len),
        .cnt_ev(cnt_ev), .cnt_ev_len(cnt_ev_len)
    );
endmodule
`default_nettype wire
