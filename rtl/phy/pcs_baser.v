`default_nettype none
// pcs_baser: 10GBASE-R PCS (IEEE 802.3 clause 49), XGMII on one side, 66-bit blocks on
// the other, one block per cycle each way (156.25 MHz; for a transceiver with a 32-bit
// interface put pcs_gearbox_tx / pcs_gearbox_rx between).
//
// pcs_baser_tx (encoder + scrambler) and pcs_baser_rx (block lock, BER monitor,
// descrambler, decoder); see those for the behaviour.
//
// Ports:
//   tx_clk, tx_rst, xgmii_txd[63:0], xgmii_txc[7:0]   from the MAC (tx_clk)
//   tx_block[65:0]                     to the transceiver (tx_clk; [0] sent first)
//   rx_clk, rx_rst, rx_block[65:0]     from the transceiver (rx_clk)
//   rx_slip                            one-cycle strobe to the transceiver/gearbox: slip
//                                      one bit (rx_clk)
//   xgmii_rxd[63:0], xgmii_rxc[7:0]    to the MAC (rx_clk)
//   block_lock, hi_ber                 status levels (rx_clk)
//   cnt_ev[4:0]                        event strobes for stat_counters: 0 tx_enc_err
//                                      (tx_clk: a word that fits no block), 1 rx_dec_err
//                                      (an errored block), 2 rx_ber (an invalid sync
//                                      header while locked: the BER count), 3
//                                      rx_lock_loss, 4 rx_hi_ber (hi_ber raised) (rx_clk)
// Parameters: none.
// Latency: TX 2 cycles (XGMII word to block), RX 3 cycles (block to XGMII word).
module pcs_baser (
    input  wire        tx_clk,
    input  wire        tx_rst,
    input  wire [63:0] xgmii_txd,
    input  wire [7:0]  xgmii_txc,
    output wire [65:0] tx_block,

    input  wire        rx_clk,
    input  wire        rx_rst,
    input  wire [65:0] rx_block,
    output wire        rx_slip,
    output wire [63:0] xgmii_rxd,
    output wire [7:0]  xgmii_rxc,
    output wire        block_lock,
    output wire        hi_ber,

    output wire [4:0]  cnt_ev
);
    wire tx_enc_err, rx_dec_err, rx_ber, rx_lock_loss, rx_hi_ber;

    pcs_baser_tx u_tx (
        .clk(tx_clk), .rst(tx_rst), .xgmii_txd(xgmii_txd), .xgmii_txc(xgmii_txc),
        .tx_block(tx_block), .stat_tx_enc_err(tx_enc_err)
    );

    pcs_baser_rx u_rx (
        .clk(rx_clk), .rst(rx_rst), .rx_block(rx_block), .rx_slip(rx_slip),
        .xgmii_rxd(xgmii_rxd), .xgmii_rxc(xgmii_rxc),
        .block_lock(block_lock), .hi_ber(hi_ber),
        .stat_rx_dec_err(rx_dec_err), .stat_rx_ber(rx_ber),
        .stat_rx_lock_loss(rx_lock_loss), .stat_rx_hi_ber(rx_hi_ber)
    );

    assign cnt_ev = {rx_hi_ber, rx_lock_loss, rx_ber, rx_dec_err, tx_enc_err};
endmodule
`default_nettype wire
