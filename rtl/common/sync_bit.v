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
// Parameters: WIDTH (bits), STAGES (flops in the chain, >= 2).
// The flops carry no reset: they settle to the input after STAGES cycles.
module sync_bit #(
    parameter WIDTH  = 1,
    parameter STAGES = 2
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] in,
    output wire [WIDTH-1:0] out
);

    // chain[WIDTH*(k+1)-1 -: WIDTH] is flop stage k; stage 0 samples the input.
    (* ASYNC_REG = "TRUE" *) reg [WIDTH*STAGES-1:0] chain;

    always @(posedge clk) chain <= {chain[WIDTH*(STAGES-1)-1:0], in};

    assign out = chain[WIDTH*STAGES-1 -: WIDTH];

endmodule
`default_nettype wire
