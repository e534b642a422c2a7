`default_nettype none
// xgmii_pcs_loop: eth_mac_xgmii over pcs_baser, for the loopback unit test: the PCS's
// transmit blocks leave on tx_block and its receive blocks come from rx_block, so the
// test's line model (bit slips, header errors) joins them; one clock for all.
//
// Interfaces: clk, rst; the MAC's user streams (s_axis_*, m_axis_*); tx_block[65:0],
// rx_block[65:0], rx_slip (the PCS's line side); link_ok, rx_local_fault,
// rx_remote_fault (MAC), block_lock, hi_ber (PCS); mac_cnt_ev[12:0], mac_cnt_ev_len,
// pcs_cnt_ev[4:0] (the event strobes of both).
// Parameters: none. Latency: MAC + PCS each way (docs/xgmii.md).
module xgmii_pcs_loop (
    input  wire        clk,
    input  wire        rst,
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
    output wire [65:0] tx_block,
    input  wire [65:0] rx_block,
    output wire        rx_slip,
    output wire        link_ok,
    output wire        rx_local_fault,
    output wire        rx_remote_fault,
    output wire        block_lock,
    output wire        hi_ber,
    output wire [12:0] mac_cnt_ev,
    output wire [31:0] mac_cnt_ev_len,
    output wire [4:0]  pcs_cnt_ev
);
    wire [63:0] txd, rxd;
    wire [7:0]  txc, rxc;

    eth_mac_xgmii u_mac (
        .tx_clk(clk), .tx_rst(rst), .rx_clk(clk), .rx_rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .xgmii_txd(txd), .xgmii_txc(txc), .xgmii_rxd(rxd), .xgmii_rxc(rxc),
        .cfg_ifg(8'd12), .cfg_max_len(16'd1518),
        .rx_local_fault(rx_local_fault), .rx_remote_fault(rx_remote_fault), .link_ok(link_ok),
        .cnt_ev(mac_cnt_ev), .cnt_ev_len(mac_cnt_ev_len)
    );

    pcs_baser u_pcs (
        .tx_clk(clk), .tx_rst(rst), .xgmii_txd(txd), .xgmii_txc(txc), .tx_block(tx_block),
        .rx_clk(clk), .rx_rst(rst), .rx_block(rx_block), .rx_slip(rx_slip),
        .xgmii_rxd(rxd), .xgmii_rxc(rxc), .block_lock(block_lock), .hi_ber(hi_ber),
        .cnt_ev(pcs_cnt_ev)
    );
endmodule
`default_nettype wire
