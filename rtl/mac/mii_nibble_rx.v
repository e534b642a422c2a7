`default_nettype none
// mii_nibble_rx: assembles MII nibbles into bytes for the MAC receiver.
//
// Finds the SFD as the nibble pair 5, D (so any number of preamble nibbles, odd or even,
// is fine) and from there pairs nibbles low-first into bytes. Each byte, starting with
// the SFD 0xD5, goes out with a one-cycle mac_ce pulse for eth_mac_rx; when rx_dv falls
// after a synchronised frame, one more pulse with dv = 0 ends it. Nothing goes out for a
// frame without SFD. An odd trailing nibble is dropped. er of a byte is the OR of its two
// nibbles' er.
//
// Ports: clk, rst; nce (nibble clock enable, 1 for MII); mii_rxd[3:0], mii_rx_dv,
// mii_rx_er; mac_ce, gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er (registered, to eth_mac_rx).
// Latency: a byte goes out 1 cycle after the nce cycle that takes its high nibble.
module mii_nibble_rx (
    input  wire       clk,
    input  wire       rst,
    input  wire       nce,
    input  wire [3:0] mii_rxd,
    input  wire       mii_rx_dv,
    input  wire       mii_rx_er,
    output wire       mac_ce,
    output wire [7:0] gmii_rxd,
    output wire       gmii_rx_dv,
    output wire       gmii_rx_er
);
    reg [3:0] prev_reg;         // the nibble before this one
    reg       prev_valid_reg;   // prev_reg holds a nibble of this frame
    reg       prev_er_reg;
    reg       sync_reg;         // SFD found: pairing nibbles
    reg       phase_reg;        // 1: the next nibble completes a byte
    reg       mac_ce_reg;
    reg [7:0] gmii_rxd_reg;
    reg       gmii_rx_dv_reg, gmii_rx_er_reg;

    assign mac_ce = mac_ce_reg;
    assign gmii_rxd = gmii_rxd_reg;
    assign gmii_rx_dv = gmii_rx_dv_reg;
    assign gmii_rx_er = gmii_rx_er_reg;

    always @(posedge clk) begin
        mac_ce_reg <= 1'b0;
        if (rst) begin
            prev_valid_reg <= 1'b0;
            sync_reg <= 1'b0;
            phase_reg <= 1'b0;
            gmii_rx_dv_reg <= 1'b0;
            gmii_rx_er_reg <= 1'b0;
        end else if (nce) begin
            prev_reg <= mii_rxd;
            prev_er_reg <= mii_rx_er;
            if (!mii_rx_dv) begin
                prev_valid_reg <= 1'b0;
                phase_reg <= 1'b0;
                if (sync_reg) begin
                    sync_reg <= 1'b0;
                    mac_ce_reg <= 1'b1;
                    gmii_rx_dv_reg <= 1'b0;
                    gmii_rx_er_reg <= 1'b0;
                end
            end else if (!sync_reg) begin
                prev_valid_reg <= 1'b1;
                if (prev_valid_reg && prev_reg == 4'h5 && mii_rxd == 4'hD) begin
                    sync_reg <= 1'b1;
                    phase_reg <= 1'b0;
                    mac_ce_reg <= 1'b1;
                    gmii_rxd_reg <= 8'hD5;
                    gmii_rx_dv_reg <= 1'b1;
                    gmii_rx_er_reg <= 1'b0;
                end
            end else begin
                phase_reg <= !phase_reg;
                if (phase_reg) begin
                    mac_ce_reg <= 1'b1;
                    gmii_rxd_reg <= {mii_rxd, prev_reg};
                    gmii_rx_dv_reg <= 1'b1;
                    gmii_rx_er_reg <= prev_er_reg || mii_rx_er;
                end
            end
        end
    end
endmodule
`default_nettype wire
