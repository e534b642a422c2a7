`default_nettype none
// eth_mac_gmii_fifo: the GMII MAC (eth_mac_gmii) with clock-domain-crossing FIFOs
// (eth_mac_fifo), so the whole user side, its configuration and its event strobes live in
// the stack clock clk.
// Frames, resets, event crossings and configuration behave as eth_mac_fifo describes.
//
// Interfaces:
//   clk, rst                 stack clock and its synchronous reset
//   gmii_tx_clk, gmii_tx_rst GMII transmit clock (125 MHz) and its synchronous reset
//   gmii_rx_clk, gmii_rx_rst GMII receive clock (from the PHY) and its synchronous reset
//   s_axis_t{data[7:0],valid,ready,last,user}    frames to send, no FCS (clk)
//   m_axis_t{data[7:0],valid,ready,last,user}    frames received, no FCS (clk)
//   gmii_txd[7:0], gmii_tx_en, gmii_tx_er        to the PHY (gmii_tx_clk)
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er        from the PHY (gmii_rx_clk)
//   cfg_ifg[7:0], cfg_max_len[15:0]              MAC configuration (clk; see docs/mac.md)
//   cnt_ev[11:0], cnt_ev_len[31:0]  event strobes in clk (eth_mac_fifo's: 0-9 the MAC's,
//                            10 rx_fifo_drop, 11 tx_fifo_drop; the bytes strobes' lengths)
// Latency: TX, a frame's last beat on s_axis to its first preamble byte on gmii_txd: about
//   7 gmii_tx_clk cycles plus 1 clk; RX, the MAC's (docs/mac.md) plus, from the frame's
//   end, about 6 clk cycles (the RX FIFO is a frame FIFO). A strobe of the PHY domains
//   reaches cnt_ev 1 cycle of its domain plus 3 of clk after it.
// Parameters: TX_DEPTH, RX_DEPTH (checked: FIFO bytes, 1024 or 2048; tested TX 2048, RX 1024
//   and 2048; TX_DEPTH is the largest frame that can be sent, 2048 holds a 1518-byte frame
//   and keeps each FIFO in one row of iCE40 block RAMs), RX_DROP_BAD_FRAME (0/1; 1 tested).
module eth_mac_gmii_fifo #(
    parameter TX_DEPTH          = 2048,
    parameter RX_DEPTH          = 2048,
    parameter RX_DROP_BAD_FRAME = 1
) (
    input wire clk,
    input wire rst,
    input wire gmii_tx_clk,
    input wire gmii_tx_rst,
    input wire gmii_rx_clk,
    input wire gmii_rx_rst,

    input  wire [7:0] s_axis_tdata,
    input  wire       s_axis_tvalid,
    output wire       s_axis_tready,
    input  wire       s_axis_tlast,
    input  wire       s_axis_tuser,

    output wire [7:0] m_axis_tdata,
    output wire       m_axis_tvalid,
    input  wire       m_axis_tready,
    output wire       m_axis_tlast,
    output wire       m_axis_tuser,

    output wire [7:0] gmii_txd,
    output wire       gmii_tx_en,
    output wire       gmii_tx_er,
    input  wire [7:0] gmii_rxd,
    input  wire       gmii_rx_dv,
    input  wire       gmii_rx_er,

    input wire [ 7:0] cfg_ifg,
    input wire [15:0] cfg_max_len,

    output wire [11:0] cnt_ev,
    output wire [31:0] cnt_ev_len
);

    generate
        if (TX_DEPTH != 1024 && TX_DEPTH != 2048) begin : g_check_tx_depth
            eth_mac_gmii_fifo_TX_DEPTH_must_be_1024_or_2048 u_error ();  // unsupported parameter (no such module)
        end
        if (RX_DEPTH != 1024 && RX_DEPTH != 2048) begin : g_check_rx_depth
            eth_mac_gmii_fifo_RX_DEPTH_must_be_1024_or_2048 u_error ();  // unsupported parameter
        end
    endgenerate

    // ------------------------------------------------------------------ MAC
    wire [7:0] mac_tx_tdata;
    wire mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;
    wire [7:0] mac_rx_tdata;
    wire mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
    wire [7:0] ifg_tx;
    wire [15:0] max_len_rx;
    wire [9:0] mac_ev;  // the MAC's strobes: 0-3 gmii_tx_clk, 4-9 gmii_rx_clk
    wire [31:0] mac_ev_len;

    eth_mac_gmii u_mac (
        .tx_clk          (gmii_tx_clk),
        .tx_rst          (gmii_tx_rst),
        .rx_clk          (gmii_rx_clk),
        .rx_rst          (gmii_rx_rst),
        .s_axis_tdata    (mac_tx_tdata),
        .s_axis_tvalid   (mac_tx_tvalid),
        .s_axis_tready   (mac_tx_tready),
        .s_axis_tlast    (mac_tx_tlast),
        .s_axis_tuser    (mac_tx_tuser),
        .m_axis_tdata    (mac_rx_tdata),
        .m_axis_tvalid   (mac_rx_tvalid),
        .m_axis_tlast    (mac_rx_tlast),
        .m_axis_tuser    (mac_rx_tuser),
        .gmii_txd        (gmii_txd),
        .gmii_tx_en      (gmii_tx_en),
        .gmii_tx_er      (gmii_tx_er),
        .gmii_rxd        (gmii_rxd),
        .gmii_rx_dv      (gmii_rx_dv),
        .gmii_rx_er      (gmii_rx_er),
        .cfg_ifg         (ifg_tx),
        .cfg_max_len     (max_len_rx),
        .cnt_ev          (mac_ev),
        .cnt_ev_len      (mac_ev_len)
    );

    // ------------------------------------------------------------------ FIFOs, crossings
    eth_mac_fifo #(
        .TX_DEPTH(TX_DEPTH), .RX_DEPTH(RX_DEPTH), .RX_DROP_BAD_FRAME(RX_DROP_BAD_FRAME)
    ) u_fifo (
        .clk(clk), .rst(rst),
        .tx_clk(gmii_tx_clk), .tx_rst(gmii_tx_rst), .rx_clk(gmii_rx_clk), .rx_rst(gmii_rx_rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast),
        .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast),
        .m_axis_tuser(m_axis_tuser),
        .mac_tx_tdata(mac_tx_tdata), .mac_tx_tvalid(mac_tx_tvalid),
        .mac_tx_tready(mac_tx_tready), .mac_tx_tlast(mac_tx_tlast),
        .mac_tx_tuser(mac_tx_tuser),
        .mac_rx_tdata(mac_rx_tdata), .mac_rx_tvalid(mac_rx_tvalid),
        .mac_rx_tlast(mac_rx_tlast), .mac_rx_tuser(mac_rx_tuser),
        .mac_cfg_ifg(ifg_tx), .mac_cfg_max_len(max_len_rx),
        .mac_ev(mac_ev), .mac_ev_len(mac_ev_len),
        .cfg_ifg(cfg_ifg), .cfg_max_len(cfg_max_len),
        .cnt_ev(cnt_ev), .cnt_ev_len(cnt_ev_len)
    );
endmodule
`default_nettype wire
