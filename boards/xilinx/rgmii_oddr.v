`default_nettype none
// rgmii_oddr for Xilinx 7-series: the DDR output register of rtl/mac/rgmii_oddr.v built
// from ODDR primitives (SAME_EDGE: d1 and d2 sampled at the rising edge, d1 driven
// while clk is high, d2 while it is low). Use this file instead of the generic model in
// a Vivado build.
//
// Ports: clk; d1[WIDTH-1:0], d2[WIDTH-1:0]; q[WIDTH-1:0] (to the output buffers).
// Parameters: WIDTH. Latency: as the generic model.
module rgmii_oddr #(
    parameter WIDTH = 1
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d1,
    input  wire [WIDTH-1:0] d2,
    output wire [WIDTH-1:0] q
);
    genvar i;
    generate
        for (i = 0; i < WIDTH; i = i + 1) begin : g_bit
            ODDR #(
                .DDR_CLK_EDGE("SAME_EDGE"),
                .INIT(1'b0),
                .SRTYPE("SYNC")
            ) u_oddr (
                .Q(q[i]), .C(clk), .CE(1'b1), .D1(d1[i]), .D2(d2[i]), .R(1'b0), .S(1'b0)
            );
        end
    endgenerate
endmodule
`default_nettype wire
