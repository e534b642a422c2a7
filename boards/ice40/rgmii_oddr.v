`default_nettype none
// rgmii_oddr for Lattice iCE40: the DDR output register of rtl/mac/rgmii_oddr.v built
// from SB_IO in DDR output mode. SB_IO registers D_OUT_0 at the rising and D_OUT_1 at
// the falling edge; d2 is first registered at the rising edge so that, as in the
// generic model, d1 and d2 are both sampled at the same rising edge. The SB_IO is the
// pad itself: q must go straight to a top-level output port.
//
// Ports: clk; d1[WIDTH-1:0], d2[WIDTH-1:0]; q[WIDTH-1:0] (package pins).
// Parameters: WIDTH. Latency: as the generic model.
module rgmii_oddr #(
    parameter WIDTH = 1
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d1,
    input  wire [WIDTH-1:0] d2,
    output wire [WIDTH-1:0] q
);
    reg [WIDTH-1:0] d2_r;
    always @(posedge clk) d2_r <= d2;

    genvar i;
    generate
        for (i = 0; i < WIDTH; i = i + 1) begin : g_bit
            SB_IO #(
                .PIN_TYPE(6'b010000),  // DDR output, no output enable
                .PULLUP(1'b0)
            ) u_io (
                .PACKAGE_PIN(q[i]),
                .OUTPUT_CLK(clk),
                .CLOCK_ENABLE(1'b1),
                .D_OUT_0(d1[i]),
                .D_OUT_1(d2_r[i]),
                .OUTPUT_ENABLE(1'b1),
                // input side of the pad unused (output-only pin)
                .LATCH_INPUT_VALUE(1'b0),
                .INPUT_CLK(1'b0),
                /* verilator lint_off PINCONNECTEMPTY */
                .D_IN_0(),
                .D_IN_1()
                /* verilator lint_on PINCONNECTEMPTY */
            );
        end
    endgenerate
endmodule
`default_nettype wire
