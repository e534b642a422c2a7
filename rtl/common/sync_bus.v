`default_nettype none
// sync_bus: carries a multi-bit value (a counter, a pointer, a configuration word) from
// one clock domain to another with a toggle request/acknowledge handshake, so every value
// that arrives is one the source really held: never a mixture of two.
//
// The source samples src_data into a holding register whenever no transfer is in
// flight and flips its request; the destination sees the flip through a synchronizer,
// copies the (stable) holding register into dst_data and flips its acknowledge, which
// crosses back. The value is then sampled again, so dst_data follows src_data
// continuously, a round trip behind; intermediate values may be skipped.
//
// Interfaces:
//   src_clk, src_rst       source clock and synchronous reset
//   src_data[WIDTH-1:0]    value to carry (sampled continuously)
//   dst_clk, dst_rst       destination clock and synchronous reset
//   dst_data[WIDTH-1:0]    latest value received (INIT after reset)
//   dst_update             one-cycle strobe: dst_data has just been loaded
// Reset: reset both sides together (their resets overlapping by STAGES+1 cycles of each
// clock); a reset of one side alone can make one transfer carry a torn value.
// Latency: 1 source cycle + STAGES+1 destination cycles from sampling to dst_data; one
// transfer every (STAGES+1) destination + (STAGES+1) source cycles or so.
// A quasi-static value (configuration) may be reset on either side alone: reloading the
// holding register with an unchanged value cannot tear it.
// Parameters (checked): WIDTH (bits, >= 1; tested 16 in tests/unit/common/test_sync_cdc.py,
//   8 and 16 in eth_mac_gmii_fifo, 6 to 8 as axis_async_fifo's frame-mode pointer),
//   STAGES (synchronizer flops, 2 or 3, both tested), INIT (dst_data at reset, any value).
module sync_bus #(
    parameter             WIDTH  = 32,
    parameter             STAGES = 2,
    parameter [WIDTH-1:0] INIT   = 0
) (
    input  wire             src_clk,
    input  wire             src_rst,
    input  wire [WIDTH-1:0] src_data,
    input  wire             dst_clk,
    input  wire             dst_rst,
    output wire [WIDTH-1:0] dst_data,
    output wire             dst_update
);

    generate
        if (WIDTH < 1) begin : g_check_width
            sync_bus_WIDTH_must_be_at_least_1 u_error ();  // unsupported parameter (no such module)
        end
        if (STAGES != 2 && STAGES != 3) begin : g_check_stages
            sync_bus_STAGES_must_be_2_or_3 u_error ();  // unsupported parameter
        end
    endgenerate

    // Source side: the holding register changes only while no transfer is in flight
    // (the request and the acknowledge seen back are equal).
    reg  [WIDTH-1:0] hold_reg;
    reg              req_reg;
    wire             ack_s;  // ack_reg, synchronized to src_clk
    wire             req_d;  // req_reg, synchronized to dst_clk

    always @(posedge src_clk) begin
        if (src_rst) begin
            req_reg <= 1'b0;
        end else if (req_reg == ack_s) begin
            hold_reg <= src_data;
            req_reg  <= !req_reg;
        end
    end

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync_req (
        .clk(dst_clk),
        .in (req_reg),
        .out(req_d)
    );

    // Destination side: a request seen that differs from the acknowledge loads the value.
    reg             ack_reg;
    reg [WIDTH-1:0] dst_data_reg;
    reg             dst_update_reg;

    always @(posedge dst_clk) begin
        dst_update_reg <= 1'b0;
        if (dst_rst) begin
            ack_reg        <= 1'b0;
            dst_data_reg   <= INIT;
            dst_update_reg <= 1'b0;
        end else if (req_d != ack_reg) begin
            dst_data_reg   <= hold_reg;
            ack_reg        <= req_d;
            dst_update_reg <= 1'b1;
        end
    end

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync_ack (
        .clk(src_clk),
        .in (ack_reg),
        .out(ack_s)
    );

    assign dst_data   = dst_data_reg;
    assign dst_update = dst_update_reg;

endmodule
`default_nettype wire
