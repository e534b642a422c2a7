`default_nettype none
// mii_nibble_tx: splits the MAC transmitter's byte stream into MII nibbles.
//
// Drives eth_mac_tx's clock enable (mac_ce: one cycle in two enabled nibble cycles) and
// sends each byte it produces low nibble first. Used by eth_mac_mii (nce = 1, every MII
// tx_clk cycle) and by eth_mac_rgmii at 10/100 Mbit/s (nce = one cycle per nibble time).
//
// Ports: clk, rst; nce (nibble clock enable); mac_ce (to eth_mac_tx.ce); gmii_txd[7:0],
// gmii_tx_en, gmii_tx_er (from eth_mac_tx); mii_txd[3:0], mii_tx_en, mii_tx_er
// (registered, change only in nce cycles).
// Latency: a byte on gmii_txd leaves as two nibbles in the next two nce cycles.
module mii_nibble_tx (
    input  wire       clk,
    input  wire       rst,
    input  wire       nce,
    output wire       mac_ce,
    input  wire [7:0] gmii_txd,
    input  wire       gmii_tx_en,
    input  wire       gmii_tx_er,
    output wire [3:0] mii_txd,
    output wire       mii_tx_en,
    output wire       mii_tx_er
);
    reg       phase_reg;  // 0: low nibble goes out next, 1: high nibble
    reg [3:0] mii_txd_reg;
    reg       mii_tx_en_reg, mii_tx_er_reg;

    assign mii_txd = mii_txd_reg;
    assign mii_tx_en = mii_tx_en_reg;
    assign mii_tx_er = mii_tx_er_reg;

    // the MAC moves to its next byte in the cycle its current high nibble goes out
    assign mac_ce = nce && phase_reg;

    always @(posedge clk) begin
        if (rst) begin
            phase_reg <= 1'b1;
            mii_txd_reg <= 4'd0;
            mii_tx_en_reg <= 1'b0;
            mii_tx_er_reg <= 1'b0;
        end else if (nce) begin
            phase_reg <= !phase_reg;
            mii_txd_reg <= phase_reg ? gmii_txd[7:4] : gmii_txd[3:0];
            mii_tx_en_reg <= gmii_tx_en;
            mii_tx_er_reg <= gmii_tx_er;
        end
    end
endmodule
`default_nettype wire
