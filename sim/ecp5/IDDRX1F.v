`default_nettype none
// IDDRX1F: behavioural model of the Lattice ECP5 DDR input register (simulation only,
// written from the primitive's documented behaviour, not vendor code): D is sampled at
// the rising edge of SCLK (to Q0) and at the falling edge that follows (to Q1); both
// are handed over together at the next rising edge.
// Ports: D, SCLK, RST (synchronous to SCLK here; clears Q0/Q1), Q0, Q1.
// Parameters: GSR (accepted, not modelled). Latency: Q0 one SCLK cycle after its sample.
module IDDRX1F #(
    /* verilator lint_off UNUSEDPARAM */
    parameter GSR = "ENABLED"
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire D,
    input  wire SCLK,
    input  wire RST,
    output reg  Q0,
    output reg  Q1
);
    reg rise_reg, fall_reg;
    initial begin
        Q0 = 1'b0;
        Q1 = 1'b0;
    end
    always @(posedge SCLK) rise_reg <= D;
    always @(negedge SCLK) fall_reg <= D;
    always @(posedge SCLK) begin
        Q0 <= RST ? 1'b0 : rise_reg;
        Q1 <= RST ? 1'b0 : fall_reg;
    end
endmodule
`default_nettype wire
