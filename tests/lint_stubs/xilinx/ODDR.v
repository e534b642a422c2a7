`default_nettype none
// Lint-only stand-in for the Xilinx 7-series ODDR primitive: ports and parameters as
// the unisim library declares them, no behaviour. Lets Verilator -Wall check the files
// under boards/xilinx/; never simulated or synthesized.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module ODDR #(
    parameter DDR_CLK_EDGE = "OPPOSITE_EDGE",
    parameter [0:0] INIT = 1'b0,
    parameter SRTYPE = "SYNC"
) (
    output wire Q,
    input  wire C,
    input  wire CE,
    input  wire D1,
    input  wire D2,
    input  wire R,
    input  wire S
);
    assign Q = 1'b0;
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
`default_nettype wire
