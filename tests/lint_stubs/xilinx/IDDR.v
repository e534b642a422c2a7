`default_nettype none
// Lint-only stand-in for the Xilinx 7-series IDDR primitive: ports and parameters as
// the unisim library declares them, no behaviour. Lets Verilator -Wall check the files
// under boards/xilinx/; never simulated or synthesized.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module IDDR #(
    parameter DDR_CLK_EDGE = "OPPOSITE_EDGE",
    parameter [0:0] INIT_Q1 = 1'b0,
    parameter [0:0] INIT_Q2 = 1'b0,
    parameter SRTYPE = "SYNC"
) (
    output wire Q1,
    output wire Q2,
    input  wire C,
    input  wire CE,
    input  wire D,
    input  wire R,
    input  wire S
);
    assign Q1 = 1'b0;
    assign Q2 = 1'b0;
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
`default_nettype wire
