`default_nettype none
// pcs_baser_rx: 10GBASE-R PCS receive path (IEEE 802.3 clause 49): one 66-bit block in
// per cycle, XGMII words out.
//
// Block lock (figure 49-12) on the sync headers: 64 valid headers (01 or 10) in a row
// lock; unlocked, an invalid header slips the block boundary by one bit (rx_slip, to the
// gearbox or transceiver) and the count starts again after SLIP_WAIT blocks (the time the
// slip takes to show); locked, 16 invalid headers within a window of 64 lose the lock and
// slip. BER monitor (figure 49-13), while locked: 16 invalid headers within 125 us (19531
// blocks, a fixed count of blocks: the block rate is the line's) raise hi_ber; it falls
// at the end of a 125 us window with fewer than 16. Descrambler x^58 + x^39 + 1 (self-
// synchronous: right from the 58th bit on, whatever its state). pcs_baser_dec decodes
// each block; an invalid block becomes eight /E/ (stat_rx_dec_err). Without block lock,
// or with hi_ber, the XGMII words are Local Fault ordered sets (0x9C 0x00 0x00 0x01 in
// each column), so the MAC declares a local fault.
//
// Ports: clk, rst (sync, active high); rx_block[65:0] (rx_block[0] received first, [1:0]
// the sync header); rx_slip (one-cycle strobe: take the next blocks one bit later);
// xgmii_rxd[63:0], xgmii_rxc[7:0] (registered); block_lock, hi_ber (levels);
// one-cycle strobes: stat_rx_dec_err (an invalid block decoded while locked and not
// hi_ber), stat_rx_ber (an invalid sync header while locked: the BER counter),
// stat_rx_lock_loss (block lock lost), stat_rx_hi_ber (hi_ber raised).
// Parameters: none (SLIP_WAIT = 4 blocks, BER window 19531 blocks: local constants).
// Latency: 3 cycles (the block in rx_block at edge k is a word on xgmii_rxd after edge
// k+3); a slip is asked 1 cycle after the block with the invalid header is in rx_block.
module pcs_baser_rx (
    input  wire        clk,
    input  wire        rst,
    input  wire [65:0] rx_block,
    output wire        rx_slip,
    output wire [63:0] xgmii_rxd,
    output wire [7:0]  xgmii_rxc,
    output wire        block_lock,
    output wire        hi_ber,
    output wire        stat_rx_dec_err,
    output wire        stat_rx_ber,
    output wire        stat_rx_lock_loss,
    output wire        stat_rx_hi_ber
);
    localparam [2:0]  SLIP_WAIT = 3'd4;
    localparam [14:0] BER_WINDOW = 15'd19531;  // 125 us at 156.25 M blocks/s
    localparam [63:0] WORD_LF = {2{8'h01, 8'h00, 8'h00, 8'h9C}};  // Local Fault

    reg  [65:0] in_reg;
    reg  [65:0] desc_reg;          // descrambled block
    reg  [57:0] desc_state_reg;    // the last 58 received (scrambled) bits, newest in [0]
    reg         lock_reg;
    reg  [6:0]  sh_cnt_reg;        // headers tested in this window of 64
    reg  [4:0]  sh_invld_cnt_reg;  // invalid ones among them
    reg  [2:0]  slip_wait_reg;     // blocks still to skip after a slip
    reg         slip_reg;
    reg         lock_loss_reg;
    reg  [14:0] ber_timer_reg;     // blocks in this 125 us window
    reg  [4:0]  ber_cnt_reg;       // invalid headers in it (saturates at 16)
    reg         hi_ber_reg;
    reg         ber_reg, hi_ber_ev_reg, dec_err_reg;
    reg         lock_d_reg;        // lock and hi_ber as the block in desc_reg saw them
    reg  [63:0] xgmii_rxd_reg;
    reg  [7:0]  xgmii_rxc_reg;

    assign rx_slip = slip_reg;
    assign xgmii_rxd = xgmii_rxd_reg;
    assign xgmii_rxc = xgmii_rxc_reg;
    assign block_lock = lock_reg;
    assign hi_ber = hi_ber_reg;
    assign stat_rx_dec_err = dec_err_reg;
    assign stat_rx_ber = ber_reg;
    assign stat_rx_lock_loss = lock_loss_reg;
    assign stat_rx_hi_ber = hi_ber_ev_reg;

    wire sh_valid = in_reg[0] ^ in_reg[1];

    // block lock (figure 49-12), one header per cycle
    wire [6:0] sh_cnt_next = sh_cnt_reg + 7'd1;
    wire [4:0] sh_invld_next = sh_invld_cnt_reg + 5'd1;
    wire       testing = (slip_wait_reg == 3'd0);
    wire       slip = testing && !sh_valid && (!lock_reg || sh_invld_next == 5'd16);

    // BER monitor (figure 49-13)
    wire       ber_window_end = (ber_timer_reg == BER_WINDOW - 15'd1);
    wire [4:0] ber_cnt_next = ber_cnt_reg + {4'd0, !sh_valid && ber_cnt_reg != 5'd16};

    // descrambler, unrolled over the 64 payload bits
    reg  [63:0] descrambled;
    reg  [57:0] ds;
    integer     i;
    always @* begin
        ds = desc_state_reg;
        for (i = 0; i < 64; i = i + 1) begin
            descrambled[i] = in_reg[2 + i] ^ ds[38] ^ ds[57];
            ds = {ds[56:0], in_reg[2 + i]};
        end
    end

    wire [63:0] dec_d;
    wire [7:0]  dec_c;
    wire        dec_err;
    pcs_baser_dec u_dec (.block(desc_reg), .xgmii_rxd(dec_d), .xgmii_rxc(dec_c), .dec_err(dec_err));

    always @(posedge clk) begin
        in_reg <= rx_block;
        desc_reg <= {descrambled, in_reg[1:0]};
        desc_state_reg <= ds;

        slip_reg <= 1'b0;
        lock_loss_reg <= 1'b0;
        if (!testing) begin
            slip_wait_reg <= slip_wait_reg - 3'd1;
        end else if (slip) begin
            lock_reg <= 1'b0;
            lock_loss_reg <= lock_reg;
            slip_reg <= 1'b1;
            slip_wait_reg <= SLIP_WAIT;
            sh_cnt_reg <= 7'd0;
            sh_invld_cnt_reg <= 5'd0;
        end else if (sh_cnt_next == 7'd64) begin
            if (sh_valid && sh_invld_cnt_reg == 5'd0) lock_reg <= 1'b1;
            sh_cnt_reg <= 7'd0;
            sh_invld_cnt_reg <= 5'd0;
        end else begin
            sh_cnt_reg <= sh_cnt_next;
            if (!sh_valid) sh_invld_cnt_reg <= sh_invld_next;
        end

        ber_reg <= lock_reg && !sh_valid;
        hi_ber_ev_reg <= 1'b0;
        if (!lock_reg) begin
            ber_timer_reg <= 15'd0;
            ber_cnt_reg <= 5'd0;
            hi_ber_reg <= 1'b0;
        end else begin
            ber_timer_reg <= ber_window_end ? 15'd0 : ber_timer_reg + 15'd1;
            ber_cnt_reg <= ber_window_end ? 5'd0 : ber_cnt_next;
            if (ber_cnt_next == 5'd16) begin
                hi_ber_reg <= 1'b1;
                hi_ber_ev_reg <= !hi_ber_reg;
            end else if (ber_window_end) begin
                hi_ber_reg <= 1'b0;
            end
        end

        lock_d_reg <= lock_reg && !hi_ber_reg;
        dec_err_reg <= lock_d_reg && dec_err;
        if (lock_d_reg) begin
            xgmii_rxd_reg <= dec_d;
            xgmii_rxc_reg <= dec_c;
        end else begin
            xgmii_rxd_reg <= WORD_LF;
            xgmii_rxc_reg <= 8'h11;
        end

        if (rst) begin
            lock_reg <= 1'b0;
            sh_cnt_reg <= 7'd0;
            sh_invld_cnt_reg <= 5'd0;
            slip_wait_reg <= 3'd0;
            slip_reg <= 1'b0;
            lock_loss_reg <= 1'b0;
            ber_reg <= 1'b0;
            hi_ber_reg <= 1'b0;
            hi_ber_ev_reg <= 1'b0;
            lock_d_reg <= 1'b0;
            dec_err_reg <= 1'b0;
        end
    end
endmodule
`default_nettype wire
