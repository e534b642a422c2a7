`default_nettype none
// rgmii_oddr: double-data-rate output register, generic behavioural model.
//
// d1 and d2 are sampled at the rising edge of clk; q then shows d1 while clk is high
// and d2 while it is low (the "same edge" DDR output of FPGA I/O cells). This file is
// the simulation and technology-independent model; boards/<vendor>/rgmii_oddr.v holds
// the same module built from the vendor's I/O primitive, to be used instead of it in a
// vendor build.
//
// Ports: clk; d1[WIDTH-1:0] (high phase), d2[WIDTH-1:0] (low phase); q[WIDTH-1:0].
// Parameters: WIDTH.
// Latency: d1 appears on q at the clock edge that samples it; d2 half a cycle later.
module rgmii_oddr #(
    parameter WIDTH = 1
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d1,
    input  wire [WIDTH-1:0] d2,
    output wire [WIDTH-1:0] q
);
    // q follows a phase flag made of registers (rise_phase_reg toggles at rising,
    // fall_phase_reg at falling edges) rather than the level of clk, so q changes in the
    // same update as the data registers and the model has no zero-width glitches.
    reg [WIDTH-1:0] d1_reg, d2_reg;    // d1, d2 sampled at the rising edge
    reg [WIDTH-1:0] d2_fall_reg;       // d2_reg moved to the falling edge
    reg             rise_phase_reg, fall_phase_reg;

    initial begin  // toggling flags need a known start value in simulation
        rise_phase_reg = 1'b0;
        fall_phase_reg = 1'b0;
    end

    always @(posedge clk) begin
        d1_reg <= d1;
        d2_reg <= d2;
        rise_phase_reg <= !rise_phase_reg;
    end

    always @(negedge clk) begin
        d2_fall_reg <= d2_reg;
        fall_phase_reg <= !fall_phase_reg;
    end

    // the flags differ from the rising edge to the falling edge: the high phase
    assign q = (rise_phase_reg != fall_phase_reg) ? d1_reg : d2_fall_reg;
endmodule
`default_nettype wire
