`default_nettype none
// sync_reset: brings a reset (or any level) from another clock domain into clk, and
// stretches it.
//
// out rises STAGES cycles after in rises (plus up to one for the sampling edge) and
// stays high until STAGES + HOLD cycles after in falls. Used to reset the destination
// side of a crossing whenever the source side is reset.
//
// Interfaces:
//   clk    destination clock
//   in     level from another domain (high at least STAGES+1 cycles of clk to be seen)
//   out    synchronous to clk
// Latency: STAGES cycles (assert); STAGES + HOLD cycles (release).
// Parameters: STAGES (synchronizer flops, >= 2), HOLD (extra cycles of stretch, >= 1).
module sync_reset #(
    parameter STAGES = 2,
    parameter HOLD   = 4
) (
    input  wire clk,
    input  wire in,
    output wire out
);

    wire            in_s;
    reg  [HOLD-1:0] hold;

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync (
        .clk(clk),
        .in (in),
        .out(in_s)
    );

    always @(posedge clk) hold <= in_s ? {HOLD{1'b1}} : (hold >> 1);

    assign out = in_s | hold[0];

endmodule
`default_nettype wire
