`default_nettype none
// ODDRX1F: behavioural model of the Lattice ECP5 DDR output register (simulation only,
// written from the primitive's documented behaviour, not vendor code): D0 and D1 are
// sampled at the rising edge of SCLK; Q shows D0 while SCLK is high and D1 while it is
// low.
// Ports: SCLK, RST (synchronous here: samples 0), D0, D1, Q.
// Parameters: GSR (accepted, not modelled). Latency: D0 on Q at the edge that samples it.
module ODDRX1F #(
    /* verilator lint_off UNUSEDPARAM */
    parameter GSR = "ENABLED"
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire SCLK,
    input  wire RST,
    input  wire D0,
    input  wire D1,
    output wire Q
);
    // as rtl/mac/rgmii_oddr.v: Q follows phase flags made of registers, not SCLK's level,
    // so it changes in the same update as the data registers (no zero-width glitches)
    reg d0_reg, d1_reg, d1_fall_reg, rise_phase_reg, fall_phase_reg;
    initial begin
        d0_reg = 1'b0;
        d1_reg = 1'b0;
        d1_fall_reg = 1'b0;
        rise_phase_reg = 1'b0;
        fall_phase_reg = 1'b0;
    end
    always @(posedge SCLK) begin
        d0_reg <= RST ? 1'b0 : D0;
        d1_reg <= RST ? 1'b0 : D1;
        rise_phase_reg <= !rise_phase_reg;
    end
    always @(negedge SCLK) begin
        d1_fall_reg <= d1_reg;
        fall_phase_reg <= !fall_phase_reg;
    end
    assign Q = (rise_phase_reg != fall_phase_reg) ? d0_reg : d1_fall_reg;
endmodule
`default_nettype wire
