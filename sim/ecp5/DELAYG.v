`default_nettype none
// DELAYG: behavioural model of the Lattice ECP5 fixed input/output delay (simulation
// only, written from the primitive's documented behaviour, not vendor code): Z is A
// delayed by DEL_VALUE taps of 25 ps (transport delay: every edge is kept).
// The delay is in ns of the simulation's default time unit (1 ns, 1 ps precision in the
// project's cocotb runs). Under Verilator (cycle-based: the lint) Z = A.
// Ports: A, Z. Parameters: DEL_MODE (only "USER_DEFINED" is modelled), DEL_VALUE (taps).
module DELAYG #(
    /* verilator lint_off UNUSEDPARAM */
    parameter DEL_MODE = "USER_DEFINED",
    /* verilator lint_on UNUSEDPARAM */
    parameter integer DEL_VALUE = 0
) (
    input  wire A,
    output wire Z
);
`ifdef VERILATOR
    assign Z = A;
    wire unused_del = &{1'b0, DEL_VALUE[0]};
`else
    localparam real DELAY_NS = DEL_VALUE * 0.025;
    reg z_reg;
    initial z_reg = 1'b0;
    always @(A) z_reg <= #(DELAY_NS) A;
    assign Z = z_reg;
`endif
endmodule
`default_nettype wire
