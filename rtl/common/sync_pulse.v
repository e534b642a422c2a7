`default_nettype none
// sync_pulse: carries one-cycle strobes from one clock domain to another.
//
// Each src_pulse flips a toggle flop in the source domain; the toggle crosses through a
// STAGES-flop synchronizer and every change seen in the destination domain becomes one
// one-cycle dst_pulse.
//
// Interfaces:
//   src_clk, src_rst   source clock and synchronous reset
//   src_pulse          one-cycle strobe in the source domain
//   dst_clk, dst_rst   destination clock and synchronous reset
//   dst_pulse          one-cycle strobe in the destination domain, one per src_pulse
// Pulses must be at least STAGES+2 destination cycles apart (and the two domains reset
// together), or some are lost; carry bursts of events with a counter and sync_bus.
// Latency: 1 source cycle + STAGES+1 destination cycles.
// Parameters: STAGES (synchronizer flops, >= 2).
module sync_pulse #(
    parameter STAGES = 2
) (
    input  wire src_clk,
    input  wire src_rst,
    input  wire src_pulse,
    input  wire dst_clk,
    input  wire dst_rst,
    output reg  dst_pulse
);

    reg  src_toggle;
    wire dst_toggle;
    reg  dst_toggle_d;

    always @(posedge src_clk) begin
        if (src_rst) src_toggle <= 1'b0;
        else if (src_pulse) src_toggle <= ~src_toggle;
    end

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync (
        .clk(dst_clk),
        .in (src_toggle),
        .out(dst_toggle)
    );

    always @(posedge dst_clk) begin
        if (dst_rst) begin
            dst_toggle_d <= 1'b0;
            dst_pulse    <= 1'b0;
        end else begin
            dst_toggle_d <= dst_toggle;
            dst_pulse    <= dst_toggle ^ dst_toggle_d;
        end
    end

endmodule
`default_nettype wire
