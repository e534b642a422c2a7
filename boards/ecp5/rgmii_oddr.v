`default_nettype none
// rgmii_oddr for Lattice ECP5: the DDR output register of rtl/mac/rgmii_oddr.v built from
// ODDRX1F primitives (D0 and D1 sampled at the rising edge of clk, D0 driven while clk is
// high, D1 while it is low). The ODDRX1F sits in the pad's I/O cell: q must go straight
// to a top-level output.
//
// Ports: clk; d1[WIDTH-1:0] (high phase), d2[WIDTH-1:0] (low phase); q[WIDTH-1:0] (pins).
// Parameters: WIDTH. Latency: ODDRX1F's (d1 on the pin about one clk cycle after the edge
//   that samples it, d2 half a cycle later).
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
            ODDRX1F u_oddr (
                .SCLK(clk),
                .RST(1'b0),
                .D0(d1[i]),
                .D1(d2[i]),
                .Q(q[i])
            );
        end
    endgenerate
endmodule
`default_nettype wire
