`default_nettype none
// eth_mac_mii: 10/100 Mbit/s Ethernet MAC, MII PHY side (4 bits at 2.5/25 MHz).
//
// eth_mac_core (the GMII cores and event strobes) with its clock enables driven by nibble
// adapters (mii_nibble_tx, mii_nibble_rx): one byte every two MII clock cycles. Same
// user side, configuration and event strobes as eth_mac_gmii (docs/mac.md).
//
// Ports:
//   mii_tx_clk, tx_rst       MII transmit clock (from the PHY) and its sync reset
//   mii_rx_clk, rx_rst       MII receive clock (from the PHY) and its sync reset
//   s_axis_t{data[7:0],valid,ready,last,user}   frames to send (mii_tx_clk; tready is
//                            high at most one cycle in two)
//   m_axis_t{data[7:0],valid,last,user}         frames received, no tready (mii_rx_clk)
//   mii_txd[3:0], mii_tx_en, mii_tx_er          to the PHY (registered)
//   mii_rxd[3:0], mii_rx_dv, mii_rx_er          from the PHY
//   cfg_ifg[7:0], cfg_max_len[15:0], cnt_ev, cnt_ev_len as in eth_mac_gmii (strobes in
//                            mii_tx_clk / mii_rx_clk)
// Latency: that of eth_mac_gmii counted in bytes (two MII cycles each), plus the
// nibble adapters' registers (one MII cycle each way) and up to one cycle of waiting
// for the transmit byte phase.
module eth_mac_mii (
    input  wire        mii_tx_clk,
    input  wire        tx_rst,
    input  wire        mii_rx_clk,
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

    output wire [3:0]  mii_txd,
    output wire        mii_tx_en,
    output wire        mii_tx_er,
    input  wire [3:0]  mii_rxd,
    input  wire        mii_rx_dv,
    input  wire        mii_rx_er,

    input  wire [7:0]  cfg_ifg,
    input  wire [15:0] cfg_max_len,

    output wire [9:0]  cnt_ev,      // event strobes (eth_mac_stats)
    output wire [31:0] cnt_ev_len   // frame lengths of the bytes strobes
);
    wire        tx_ce, rx_ce;
    wire [7:0]  gmii_txd, gmii_rxd;
    wire        gmii_tx_en, gmii_tx_er, gmii_rx_dv, gmii_rx_er;

    mii_nibble_tx u_tx_if (
        .clk(mii_tx_clk), .rst(tx_rst), .nce(1'b1), .mac_ce(tx_ce),
        .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
        .mii_txd(mii_txd), .mii_tx_en(mii_tx_en), .mii_tx_er(mii_tx_er)
    );

    mii_nibble_rx u_rx_if (
        .clk(mii_rx_clk), .rst(rx_rst), .nce(1'b1),
        .mii_rxd(mii_rxd), .mii_rx_dv(mii_rx_dv), .mii_rx_er(mii_rx_er),
        .mac_ce(rx_ce), .gmii_rxd(gmii_rxd), .gmii_rx_dv(gmii_rx_dv), .gmii_rx_er(gmii_rx_er)
    );

    eth_mac_core u_core (
        .tx_clk(mii_tx_clk), .tx_rst(tx_rst), .tx_ce(tx_ce),
        .rx_clk(mii_rx_clk), .rx_rst(rx_rst), .rx_ce(rx_ce),
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
