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
// Parameters: WIDTH (bits), STAGES (synchronizer flops, >= 2), INIT (dst_data at reset).
module sync_bus #(
    parameter             WIDTH  = 32,
    parameter             STAGES = 2,
    parameter [WIDTH-1:0] INIT   = {WIDTH{1'b0}}
) (
    input  wire             src_clk,
    input  wire             src_rst,
    input  wire [WIDTH-1:0] src_data,
    input  wire             dst_clk,
    input  wire             dst_rst,
    output reg  [WIDTH-1:0] dst_data,
    output reg              dst_update
);

    // Source side: the holding register changes only while no transfer is in flight.
    reg  [WIDTH-1:0] hold;
    reg              req;
    wire             ack_s;
    wire             req_d;  // req, synchronized to dst_clk

    always @(posedge src_clk) begin
        if (src_rst) begin
            req <= 1'b0;
        end else if (req == ack_s) begin
            hold <= src_data;
            req  <= ~req;
        end
    end

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync_req (
        .clk(dst_clk),
        .in (req),
        .out(req_d)
    );

    // Destination side.
    reg ack;

    always @(posedge dst_clk) begin
        dst_update <= 1'b0;
        if (dst_rst) begin
            ack        <= 1'b0;
            dst_data   <= INIT;
            dst_update <= 1'b0;
        end else if (req_d != ack) begin
            dst_data   <= hold;
            ack        <= req_d;
            dst_update <= 1'b1;
        end
    end

    sync_bit #(
        .WIDTH (1),
        .STAGES(STAGES)
    ) u_sync_ack (
        .clk(src_clk),
        .in (ack),
        .out(ack_s)
    );

endmodule
`default_nettype wire
