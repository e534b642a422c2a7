`default_nettype none
// pcs_gearbox_tx: 66-bit blocks to a 32-bit transceiver word each cycle (the gearbox of
// 10GBASE-R transceivers with a 32-bit interface at 322.265625 MHz).
//
// Holds the bits not yet sent (up to 97); each cycle the 32 oldest go out on tx_data
// (tx_data[0] first), and a block is taken (s_ready high) in the cycles that would
// otherwise leave fewer than 32 bits: 16 blocks in every 33 cycles, in a fixed pattern
// from reset. The source must offer a block in each cycle with s_ready high (the PCS
// runs on this clock with s_ready as its clock enable); the bits of a missing block go
// out as zeros.
//
// Ports: clk, rst (sync, active high); s_block[65:0] ([0] first), s_ready;
// tx_data[31:0] (registered).
// Parameters: none. Latency: bit 0 of a block taken at edge k is in tx_data after edge
// k+1 at the earliest.
module pcs_gearbox_tx (
    input  wire        clk,
    input  wire        rst,
    input  wire [65:0] s_block,
    output wire        s_ready,
    output wire [31:0] tx_data
);
    reg  [96:0] buf_reg;   // bits held, the oldest in [0]
    reg  [6:0]  cnt_reg;   // how many (0..97)
    reg  [31:0] tx_data_reg;

    assign tx_data = tx_data_reg;
    assign s_ready = (cnt_reg < 7'd32);

    wire [96:0] merged = buf_reg | (s_ready ? ({31'd0, s_block} << cnt_reg) : 97'd0);

    always @(posedge clk) begin
        tx_data_reg <= merged[31:0];
        buf_reg <= merged >> 32;
        cnt_reg <= cnt_reg + (s_ready ? 7'd34 : -7'd32);  // +66 - 32, or -32
        if (rst) begin
            buf_reg <= 97'd0;
            cnt_reg <= 7'd0;
        end
    end
endmodule
`default_nettype wire
