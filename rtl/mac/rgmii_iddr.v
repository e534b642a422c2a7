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
    output reg  [WIDTH-1:0] q1,
    output reg  [WIDTH-1:0] q2
);
    reg [WIDTH-1:0] rr, rf;

    always @(posedge clk) rr <= d;
    always @(negedge clk) rf <= d;

    always @(posedge clk) begin
        q1 <= rr;
        q2 <= rf;
    end
endmodule
`default_nettype wire
