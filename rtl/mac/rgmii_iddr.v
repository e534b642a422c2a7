`default_nettype none
// rgmii_iddr: double-data-rate input register, generic behavioural model.
//
// Samples d at the rising and at the falling edge of clk and presents both together
// after the next rising edge: q1 = the rising-edge sample, q2 = the falling-edge sample
// that followed it (the "same edge pipelined" DDR input of FPGA I/O cells). This file is
// the simulation and technology-independent model; boards/<vendor>/rgmii_iddr.v holds
// the same module built from the vendor's I/O primitive.
//
// Ports: clk; d[WIDTH-1:0]; q1[WIDTH-1:0], q2[WIDTH-1:0].
// Parameters: WIDTH.
// Latency: q1 and q2 change at the rising edge one cycle after q1's sample.
module rgmii_iddr #(
    parameter WIDTH = 1
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d,
    output wire [WIDTH-1:0] q1,
    output wire [WIDTH-1:0] q2
);
    reg [WIDTH-1:0] rise_reg, fall_reg;  // d sampled at the rising / falling edge
    reg [WIDTH-1:0] q1_reg, q2_reg;

    assign q1 = q1_reg;
    assign q2 = q2_reg;

    always @(posedge clk) rise_reg <= d;
    always @(negedge clk) fall_reg <= d;

    always @(posedge clk) begin
        q1_reg <= rise_reg;
        q2_reg <= fall_reg;
    end
endmodule
`default_nettype wire
