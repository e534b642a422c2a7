`default_nettype none
// rgmii_iddr for Lattice iCE40: the DDR input register of rtl/mac/rgmii_iddr.v built
// from SB_IO in DDR input mode (D_IN_0 sampled at the rising, D_IN_1 at the falling
// edge), re-registered at the next rising edge so q1/q2 line up as in the generic
// model. The SB_IO is the pad itself: d must come straight from a top-level input.
//
// Ports: clk; d[WIDTH-1:0] (package pins); q1[WIDTH-1:0], q2[WIDTH-1:0].
// Parameters: WIDTH. Latency: as the generic model.
module rgmii_iddr #(
    parameter WIDTH = 1
) (
    input  wire             clk,
    // consumed by SB_IO's inout pad, which Verilator does not count as a read
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [WIDTH-1:0] d,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [WIDTH-1:0] q1,
    output reg  [WIDTH-1:0] q2
);
    wire [WIDTH-1:0] rise, fall;

    genvar i;
    generate
        for (i = 0; i < WIDTH; i = i + 1) begin : g_bit
            SB_IO #(
                .PIN_TYPE(6'b000000),  // DDR input registers
                .PULLUP(1'b0)
            ) u_io (
                // the pad is an inout of the cell; this pin is only ever an input
                /* verilator lint_off ASSIGNIN */
                .PACKAGE_PIN(d[i]),
                /* verilator lint_on ASSIGNIN */
                .INPUT_CLK(clk),
                .CLOCK_ENABLE(1'b1),
                .D_IN_0(rise[i]),
                .D_IN_1(fall[i]),
                // output side of the pad unused (input-only pin): tied off
                .LATCH_INPUT_VALUE(1'b0),
                .OUTPUT_CLK(1'b0),
                .OUTPUT_ENABLE(1'b0),
                .D_OUT_0(1'b0),
                .D_OUT_1(1'b0)
            );
        end
    endgenerate

    always @(posedge clk) begin
        q1 <= rise;
        q2 <= fall;
    end
endmodule
`default_nettype wire
