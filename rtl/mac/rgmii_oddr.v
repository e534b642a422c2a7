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
    // q follows a phase flag made of registers (sp toggles at rising, sn at falling
    // edges) rather than the level of clk, so q changes in the same update as the data
    // registers and the model has no zero-width glitches.
    reg [WIDTH-1:0] r1, r2, r2n;
    reg sp, sn;

    initial begin  // toggling flags need a known start value in simulation
        sp = 1'b0;
        sn = 1'b0;
    end

    always @(posedge clk) begin
        r1 <= d1;
        r2 <= d2;
        sp <= !sp;
    end

    always @(negedge clk) begin
        r2n <= r2;
        sn <= !sn;
    end

    assign q = (sp ^ sn) ? r1 : r2n;
endmodule
`default_nettype wire
