`default_nettype none
// pcs_baser_tx: 10GBASE-R PCS transmit path (IEEE 802.3 clause 49): XGMII words in, one
// scrambled 66-bit block out per cycle (156.25 MHz for 10.3125 Gbaud).
//
// pcs_baser_enc encodes each word (a word that fits no block format goes out as an error
// block, stat_tx_enc_err); the payload is scrambled by the self-synchronous scrambler
// x^58 + x^39 + 1 (each payload bit, block[2] first, XORed with the scrambled bits 39 and
// 58 before it); the sync header is sent as it is.
//
// Ports: clk, rst (sync, active high; sets the scrambler state to all ones);
// xgmii_txd[63:0], xgmii_txc[7:0]; tx_block[65:0] (registered; tx_block[0] is sent
// first, [1:0] the sync header); stat_tx_enc_err (one-cycle strobe, registered, with the
// error block's first register stage).
// Parameters: none.
// Latency: 2 cycles (the word on xgmii_txd at edge k is in tx_block after edge k+2).
module pcs_baser_tx (
    input  wire        clk,
    input  wire        rst,
    input  wire [63:0] xgmii_txd,
    input  wire [7:0]  xgmii_txc,
    output wire [65:0] tx_block,
    output wire        stat_tx_enc_err
);
    reg  [65:0] enc_reg;       // the encoded block, not yet scrambled
    reg         enc_err_reg;
    reg  [57:0] scr_reg;       // the last 58 scrambled bits, the newest in [0]
    reg  [65:0] tx_block_reg;

    assign tx_block = tx_block_reg;
    assign stat_tx_enc_err = enc_err_reg;

    wire [65:0] enc_block;
    wire        enc_err;
    pcs_baser_enc u_enc (
        .xgmii_txd(xgmii_txd), .xgmii_txc(xgmii_txc), .block(enc_block), .enc_err(enc_err)
    );

    // the scrambler, unrolled over the 64 payload bits
    reg  [63:0] scrambled;
    reg  [57:0] scr;
    integer     i;
    always @* begin
        scr = scr_reg;
        for (i = 0; i < 64; i = i + 1) begin
            scrambled[i] = enc_reg[2 + i] ^ scr[38] ^ scr[57];
            scr = {scr[56:0], scrambled[i]};
        end
    end

    always @(posedge clk) begin
        enc_reg <= enc_block;
        enc_err_reg <= enc_err && !rst;
        tx_block_reg <= {scrambled, enc_reg[1:0]};
        scr_reg <= rst ? {58{1'b1}} : scr;
    end
endmodule
`default_nettype wire
