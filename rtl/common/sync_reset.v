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
// Parameters (checked): STAGES (synchronizer flops, 2 or 3, both tested), HOLD (extra
//   cycles of stretch, >= 1; tested 4, the default that eth_mac_gmii_fifo uses, and 1).
module sync_reset #(
    parameter STAGES = 2,
    parameter HOLD   = 4
) (
    input  wire clk,
    input  wire in,
    output wire out
);

    generate
        if (STAGES != 2 && STAGES != 3) begin : g_check_stages
            sync_reset_STAGES_must_be_2_or_3 u_error ();  // unsupported parameter (no such module)
        end
        if (HOLD < 1) begin : g_check_hold
            sync_reset_HOLD_must_be_at_least_1 u_error ();  // unsupported parameter
        end
    endgenerate

    wire            in_s;  // in, synchronized to clk
    reg  [HOLD-1:0] hold_reg;  // ones shifted out after in_s falls: the stretch

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync (
        .clk(clk),
        .in (in),
        .out(in_s)
    );

    always @(posedge clk) hold_reg <= in_s ? {HOLD{1'b1}} : (hold_reg >> 1);

    assign out = in_s || hold_reg[0];

endmodule
`default_nettype wire
