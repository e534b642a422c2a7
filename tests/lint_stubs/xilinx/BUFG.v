`default_nettype none
// Lint-only stand-in for the Xilinx 7-series BUFG primitive (global clock buffer): ports
// as the unisim library declares them. Lets Verilator -Wall check the board tops under
// boards/ that use it; never simulated or synthesized.
module BUFG (
    input  wire I,
    output wire O
);
    assign O = I;
endmodule
`default_nettype wire
