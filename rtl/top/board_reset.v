`default_nettype none
// board_reset: a board's power-on reset sequence, on its reference clock (the oscillator
// before the PLL): the PHY is held in reset for 2^(POR_BITS-2) cycles after power-up or
// the button, the logic until the PLL has locked and 2^(POR_BITS-1) cycles have passed
// (the PHY out of its own reset by then). The FPGA's configuration values start the
// count at power-up; the board top carries sys_rst into each clock domain (sync_reset).
//
// Interfaces:
//   clk         reference clock (the board's oscillator, running from power-up)
//   btn         reset button, active high, asynchronous (synchronised here)
//   pll_lock    the PLL's (or MMCM's) lock, asynchronous (sampled here)
//   phy_rst_n   the PHY's reset pin, low = reset (registered)
//   sys_rst     the logic's reset, high = reset (registered, clk domain)
// Latency: phy_rst_n rises 2^(POR_BITS-2) cycles and sys_rst falls 2^(POR_BITS-1)
//   cycles after the button is released (sys_rst: and the PLL has locked).
// Parameters (checked; tested values in brackets): POR_BITS (3..24; 19 at 25 MHz = 21 ms
//   logic, 10.5 ms PHY; the simulation uses fewer) [19, 20, 6].
module board_reset #(
    parameter integer POR_BITS = 19
) (
    input  wire clk,
    input  wire btn,
    input  wire pll_lock,
    output wire phy_rst_n,
    output wire sys_rst
);
    generate
        if (POR_BITS < 3 || POR_BITS > 24) begin : g_check_por_bits
            board_reset_POR_BITS_must_be_3_to_24 u_error ();  // unsupported parameter
        end
    endgenerate

    reg [POR_BITS-1:0] por_reg;  // power-on count
    reg                phy_rst_n_reg, sys_rst_reg;
    initial begin  // the FPGA's configuration values: the count starts at power-up
        por_reg = {POR_BITS{1'b0}};
        phy_rst_n_reg = 1'b0;
        sys_rst_reg = 1'b1;
    end
    wire btn_sync, lock_sync;
    sync_bit #(.WIDTH(2)) u_sync (.clk(clk), .in({btn, pll_lock}), .out({btn_sync, lock_sync}));
    always @(posedge clk) begin
        if (btn_sync) begin
            por_reg <= {POR_BITS{1'b0}};
        end else if (!por_reg[POR_BITS-1]) begin
            por_reg <= por_reg + 1'b1;
        end
        phy_rst_n_reg <= !btn_sync && (por_reg[POR_BITS-1] || por_reg[POR_BITS-2]);
        sys_rst_reg <= btn_sync || !por_reg[POR_BITS-1] || !lock_sync;
    end
    assign phy_rst_n = phy_rst_n_reg;
    assign sys_rst = sys_rst_reg;
endmodule
`default_nettype wire
