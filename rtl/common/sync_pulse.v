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
// Parameters (checked): STAGES (synchronizer flops, 2 or 3, both tested).
module sync_pulse #(
    parameter STAGES = 2
) (
    input  wire src_clk,
    input  wire src_rst,
    input  wire src_pulse,
    input  wire dst_clk,
    input  wire dst_rst,
    output wire dst_pulse
);

    generate
        if (STAGES != 2 && STAGES != 3) begin : g_check_stages
            sync_pulse_STAGES_must_be_2_or_3 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    reg  src_toggle_reg;  // flips with every source strobe
    wire dst_toggle;  // src_toggle_reg, synchronized to dst_clk
    reg  dst_toggle_reg;  // dst_toggle of the cycle before
    reg  dst_pulse_reg;

    always @(posedge src_clk) begin
        if (src_rst) src_toggle_reg <= 1'b0;
        else if (src_pulse) src_toggle_reg <= !src_toggle_reg;
    end

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync (
        .clk(dst_clk),
        .in (src_toggle_reg),
        .out(dst_toggle)
    );

    always @(posedge dst_clk) begin
        if (dst_rst) begin
            dst_toggle_reg <= 1'b0;
            dst_pulse_reg  <= 1'b0;
        end else begin
            dst_toggle_reg <= dst_toggle;
            dst_pulse_reg  <= dst_toggle ^ dst_toggle_reg;
        end
    end

    assign dst_pulse = dst_pulse_reg;

endmodule
`default_nettype wire
