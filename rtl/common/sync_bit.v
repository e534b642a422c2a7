`default_nettype none
// sync_bit: multi-flop synchronizer for independent single-bit levels (or a Gray-coded
// vector, where at most one bit changes at a time).
//
// Interfaces:
//   clk              destination clock
//   in[WIDTH-1:0]    asynchronous levels from another clock domain
//   out[WIDTH-1:0]   the same levels, synchronized to clk
// Each bit is synchronized on its own: a vector whose bits change together may be seen
// torn for one cycle unless it is Gray-coded.
// Latency: STAGES cycles of clk (plus up to one for the sampling edge).
// Parameters (checked): WIDTH (bits, >= 1; tested 1 in the handshakes of sync_bus,
//   sync_pulse, sync_reset and axis_async_fifo, and 6 to 8 for axis_async_fifo's
//   pointers), STAGES (flops in the chain, 2 or 3, both tested through
//   tests/unit/common/test_sync_cdc.py).
// The flops carry no reset: they settle to the input after STAGES cycles.
module sync_bit #(
    parameter WIDTH  = 1,
    parameter STAGES = 2
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] in,
    output wire [WIDTH-1:0] out
);

    generate
        if (WIDTH < 1) begin : g_check_width
            sync_bit_WIDTH_must_be_at_least_1 u_error ();  // unsupported parameter (no such module)
        end
        if (STAGES != 2 && STAGES != 3) begin : g_check_stages
            sync_bit_STAGES_must_be_2_or_3 u_error ();  // unsupported parameter
        end
    endgenerate

    // stage k is chain_reg[WIDTH*(k+1)-1 -: WIDTH]; stage 0 samples the input
    (* ASYNC_REG = "TRUE" *) reg [WIDTH*STAGES-1:0] chain_reg;

    always @(posedge clk) chain_reg <= {chain_reg[WIDTH*(STAGES-1)-1:0], in};

    assign out = chain_reg[WIDTH*STAGES-1 -: WIDTH];

endmodule
`default_nettype wire
