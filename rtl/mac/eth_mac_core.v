`default_nettype none
// eth_mac_core: the MAC's byte-wide heart, shared by every PHY wrapper: eth_mac_tx
// (tx_clk domain) + eth_mac_rx (rx_clk domain) + eth_mac_stats gathering their strobes.
//
// The wrappers (eth_mac_gmii, eth_mac_mii, eth_mac_rgmii) add only their PHY adapters,
// which drive the clock enables and carry the GMII-like byte signals; see docs/mac.md.
//
// Ports:
//   tx_clk, tx_rst, tx_ce    transmit clock, sync reset, clock enable (one byte per
//                            enabled cycle; 1 for GMII)
//   rx_clk, rx_rst, rx_ce    receive clock, sync reset, clock enable (gmii_rx* sampled
//                            only in enabled cycles)
//   s_axis_t{data[7:0],valid,ready,last,user}   frames to send (tx_clk)
//   m_axis_t{data[7:0],valid,last,user}         frames received, no tready (rx_clk)
//   gmii_txd[7:0], gmii_tx_en, gmii_tx_er       bytes to the adapter (registered)
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er       bytes from the adapter
//   cfg_ifg[7:0] (tx_clk), cfg_max_len[15:0] (rx_clk)   as in eth_mac_gmii
//   cnt_ev[9:0], cnt_ev_len[31:0]: the event strobes (bits 0-3 tx_clk, 4-9 rx_clk)
//                            and the bytes strobes' frame lengths (bit list: eth_mac_stats)
// Latency: that of eth_mac_tx and eth_mac_rx (and eth_mac_stats for the strobes).
module eth_mac_core (
    input  wire        tx_clk,
    input  wire        tx_rst,
    input  wire        tx_ce,
    input  wire        rx_clk,
    input  wire        rx_rst,
    input  wire        rx_ce,

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
    wire        stat_tx_frame, stat_tx_underflow, stat_tx_abort;
    wire [15:0] stat_tx_bytes;
    wire        stat_rx_frame, stat_rx_bad_fcs, stat_rx_runt, stat_rx_oversize, stat_rx_er;
    wire [15:0] stat_rx_bytes;

    eth_mac_tx u_tx (
        .clk(tx_clk), .rst(tx_rst), .ce(tx_ce),
        .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast),
        .s_axis_tuser(s_axis_tuser),
        .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
        .cfg_ifg(cfg_ifg),
        .stat_tx_frame(stat_tx_frame), .stat_tx_bytes(stat_tx_bytes),
        .stat_tx_underflow(stat_tx_underflow), .stat_tx_abort(stat_tx_abort)
    );

    eth_mac_rx u_rx (
        .clk(rx_clk), .rst(rx_rst), .ce(rx_ce),
        .gmii_rxd(gmii_rxd), .gmii_rx_dv(gmii_rx_dv), .gmii_rx_er(gmii_rx_er),
        .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .cfg_max_len(cfg_max_len),
        .stat_rx_frame(stat_rx_frame), .stat_rx_bytes(stat_rx_bytes),
        .stat_rx_bad_fcs(stat_rx_bad_fcs), .stat_rx_runt(stat_rx_runt),
        .stat_rx_oversize(stat_rx_oversize), .stat_rx_er(stat_rx_er)
    );

    eth_mac_stats u_stats (
        .tx_clk(tx_clk), .tx_rst(tx_rst),
        .stat_tx_frame(stat_tx_frame), .stat_tx_bytes(stat_tx_bytes),
        .stat_tx_underflow(stat_tx_underflow), .stat_tx_abort(stat_tx_abort),
        .rx_clk(rx_clk), .rx_rst(rx_rst),
        .stat_rx_frame(stat_rx_frame), .stat_rx_bytes(stat_rx_bytes),
        .stat_rx_bad_fcs(stat_rx_bad_fcs), .stat_rx_runt(stat_rx_runt),
        .stat_rx_oversize(stat_rx_oversize), .stat_rx_er(stat_rx_er),
        .cnt_ev(cnt_ev), .cnt_ev_len(cnt_ev_len)
    );
endmodule
`default_nettype wire
