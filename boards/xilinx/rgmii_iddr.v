`default_nettype none
// rgmii_iddr for Xilinx 7-series: the DDR input register of rtl/mac/rgmii_iddr.v built
// from IDDR primitives (SAME_EDGE_PIPELINED: the rising-edge sample q1 and the
// following falling-edge sample q2 presented together at the next rising edge). Use
// this file instead of the generic model in a Vivado build (add IDELAYs outside if the
// PHY does not delay rgmii_rxc itself).
//
// Ports: clk; d[WIDTH-1:0] (from the input buffers); q1[WIDTH-1:0], q2[WIDTH-1:0].
// Parameters: WIDTH. Latency: as the generic model.
module rgmii_iddr #(
    parameter WIDTH = 1
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d,
    output wire [WIDTH-1:0] q1,
    output wire [WIDTH-1:0] q2
);
    genvar i;
    generate
        for (i = 0; i < WIDTH; i = i + 1) begin : g_bit
            IDDR #(
                .DDR_CLK_EDGE("SAME_EDGE_PIPELINED"),
                .INIT_Q1(1'b0),
                .INIT_Q2(1'b0),
                .SRTYPE("SYNC")
            ) u_iddr (
                .Q1(q1[i]), .Q2(q2[i]), .C(clk), .CE(1'b1), .D(d[i]), .R(1'b0), .S(1'b0)
            );
        end
    endgenerate
endmodule
`default_nettype wire
