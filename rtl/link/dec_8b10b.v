`default_nettype none
// dec_8b10b: 8b/10b decoder (IEEE 802.3 clause 36) for BYTES code-groups per cycle.
//
// Each cycle takes BYTES 10-bit code-groups (lane 0 first on the wire) and gives, one
// cycle later, their bytes and control flags with two error flags per lane
// (dec_8b10b_symbol): out_code_err, a code violation (a pattern that is no code-group of
// the 256 data and 12 control codes: K28.0-K28.7, K23.7, K27.7, K29.7, K30.7), and
// out_disp_err, a valid code-group of the wrong running disparity. The decoder tracks the
// running disparity from the received bits (sub-block rule, errors included), chained
// through the lanes of a word and from word to word; it starts at RD- after reset, so
// the first code-groups after a reset or a realignment may show a disparity error until
// the disparity is learnt (one unbalanced code-group teaches it).
//
// Ports: clk, rst (sync, active high); in_code[10*BYTES-1:0] (lane i = [10i+9:10i], bit
// 10i = a, first on the wire); out_data[8*BYTES-1:0], out_k, out_code_err,
// out_disp_err [BYTES-1:0]; out_rd (running disparity after the last lane of the word on
// out_*: 0 = RD-, 1 = RD+). No counters: the lane receiver counts what it decodes.
// Parameters: BYTES 1, 2 or 4 (all tested).
// Latency: 1 cycle (a word taken at edge k is decoded on out_* after edge k).
module dec_8b10b #(
    parameter BYTES = 1
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [10*BYTES-1:0]   in_code,
    output wire [8*BYTES-1:0]    out_data,
    output wire [BYTES-1:0]      out_k,
    output wire [BYTES-1:0]      out_code_err,
    output wire [BYTES-1:0]      out_disp_err,
    output wire                  out_rd
);
    generate
        if (BYTES != 1 && BYTES != 2 && BYTES != 4) begin : g_check_bytes
            dec_8b10b_BYTES_must_be_1_2_or_4 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    reg  [8*BYTES-1:0] data_reg;
    reg  [BYTES-1:0]   k_reg;
    reg  [BYTES-1:0]   code_err_reg;
    reg  [BYTES-1:0]   disp_err_reg;
    reg                rd_reg;

    assign out_data = data_reg;
    assign out_k = k_reg;
    assign out_code_err = code_err_reg;
    assign out_disp_err = disp_err_reg;
    assign out_rd = rd_reg;

    wire [BYTES:0]     rd;  // rd[i]: disparity before lane i
    wire [8*BYTES-1:0] data;
    wire [BYTES-1:0]   k, code_err, disp_err;
    assign rd[0] = rd_reg;

    genvar i;
    generate
        for (i = 0; i < BYTES; i = i + 1) begin : g_lane
            dec_8b10b_symbol u_sym (
                .code(in_code[10*i +: 10]),
                .rd_in(rd[i]),
                .data(data[8*i +: 8]),
                .k(k[i]),
                .code_err(code_err[i]),
                .disp_err(disp_err[i]),
                .rd_out(rd[i+1])
            );
        end
    endgenerate

    always @(posedge clk) begin
        data_reg <= data;
        k_reg <= k;
        code_err_reg <= code_err;
        disp_err_reg <= disp_err;
        rd_reg <= rd[BYTES];
        if (rst) begin
            rd_reg <= 1'b0;
        end
    end
endmodule
`default_nettype wire
