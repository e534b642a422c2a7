`default_nettype none
// Lint-only stand-in for the iCE40 SB_IO primitive: its ports and parameters as the
// iCE40 technology library declares them, no behaviour. Lets Verilator -Wall check the
// files under boards/ice40/; never simulated or synthesized (Yosys has the real cell).
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module SB_IO #(
    parameter [5:0] PIN_TYPE = 6'b000000,
    parameter [0:0] PULLUP = 1'b0,
    parameter [0:0] NEG_TRIGGER = 1'b0,
    parameter IO_STANDARD = "SB_LVCMOS"
) (
    inout  wire PACKAGE_PIN,
    input  wire LATCH_INPUT_VALUE,
    input  wire CLOCK_ENABLE,
    input  wire INPUT_CLK,
    input  wire OUTPUT_CLK,
    input  wire OUTPUT_ENABLE,
    input  wire D_OUT_0,
    input  wire D_OUT_1,
    output wire D_IN_0,
    output wire D_IN_1
);
    // the pad is read (input pins) and driven when enabled (output pins), as on the chip
    assign D_IN_0 = PACKAGE_PIN;
    assign D_IN_1 = PACKAGE_PIN;
    assign PACKAGE_PIN = OUTPUT_ENABLE ? D_OUT_0 : 1'bz;
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
`default_nettype wire
