`default_nettype none
// cfar_butterfly: one radix-2 decimation-in-time butterfly of the CFAR accelerator's FFT,
// pipelined: X0 = rnd((A * 2^14 + W * B) / 2^15), X1 = rnd((A * 2^14 - W * B) / 2^15),
// rnd = to nearest, halves up (docs/cfar.md "Fixed point"). The caller guarantees the
// results fit 24 bits (every stage halves: the modulus never grows).
//
// Interfaces: a, b = {re, im} 24-bit signed components; w_re, w_im the twiddle (16-bit
//   signed, scaled by 2^14); x0, x1 = {re, im} registered.
// Parameters: none.
// Latency: 2 cycles (products, then the rounded sums), one butterfly per cycle.
module cfar_butterfly (
    input  wire        clk,
    input  wire [47:0] a,
    input  wire [47:0] b,
    input  wire [15:0] w_re,
    input  wire [15:0] w_im,
    output wire [47:0] x0,
    output wire [47:0] x1
);

    wire signed [23:0] b_re  = b[47:24];
    wire signed [23:0] b_im  = b[23:0];
    wire signed [15:0] tw_re = w_re;
    wire signed [15:0] tw_im = w_im;

    reg signed [23:0] a_re_reg, a_im_reg;
    reg signed [39:0] rr_reg, ii_reg, ri_reg, ir_reg;  // br wr, bi wi, br wi, bi wr
    reg [23:0] x0_re_reg, x0_im_reg, x1_re_reg, x1_im_reg;

    assign x0 = {x0_re_reg, x0_im_reg};
    assign x1 = {x1_re_reg, x1_im_reg};

    // W * B = (br wr - bi wi) + i (br wi + bi wr); X = (A * 2^14 +- W * B + 2^14) >> 15
    wire signed [41:0] prod_re = {{2{rr_reg[39]}}, rr_reg} - {{2{ii_reg[39]}}, ii_reg};
    wire signed [41:0] prod_im = {{2{ri_reg[39]}}, ri_reg} + {{2{ir_reg[39]}}, ir_reg};
    wire signed [41:0] a_re_s  = {{4{a_re_reg[23]}}, a_re_reg, 14'd0} + 42'sd16384;
    wire signed [41:0] a_im_s  = {{4{a_im_reg[23]}}, a_im_reg, 14'd0} + 42'sd16384;
    wire signed [41:0] sum0_re = a_re_s + prod_re;
    wire signed [41:0] sum0_im = a_im_s + prod_im;
    wire signed [41:0] sum1_re = a_re_s - prod_re;
    wire signed [41:0] sum1_im = a_im_s - prod_im;
    // bits 38:15 hold the rounded result (below: the discarded fraction; above: sign
    // copies, the result never reaching 2^23)
    wire unused_round = &{1'b0, sum0_re[41:39], sum0_re[14:0], sum0_im[41:39], sum0_im[14:0],
                          sum1_re[41:39], sum1_re[14:0], sum1_im[41:39], sum1_im[14:0]};

    always @(posedge clk) begin
        a_re_reg  <= a[47:24];
        a_im_reg  <= a[23:0];
        rr_reg    <= b_re * tw_re;
        ii_reg    <= b_im * tw_im;
        ri_reg    <= b_re * tw_im;
        ir_reg    <= b_im * tw_re;
        x0_re_reg <= sum0_re[38:15];
        x0_im_reg <= sum0_im[38:15];
        x1_re_reg <= sum1_re[38:15];
        x1_im_reg <= sum1_im[38:15];
    end

endmodule
`default_nettype wire
