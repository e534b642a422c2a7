`default_nettype none
// enc_8b10b: 8b/10b encoder (IEEE 802.3 clause 36) for BYTES bytes per cycle.
//
// Each cycle takes BYTES bytes (lane 0 first on the wire) and their control flags, and
// gives BYTES 10-bit code-groups one cycle later. The running disparity chains through
// the lanes of a word (lane i is encoded in the disparity lane i-1 left) and from word to
// word; it starts at RD- after reset. Control codes: K28.0-K28.7, K23.7, K27.7, K29.7,
// K30.7. A control flag on any other byte is an error: that lane sends K30.7 (the
// standard's error propagation code /V/, which a receiver takes as an error, never as
// data) and the cycle's cnt_ev[0] strobe counts it.
//
// Ports: clk, rst (sync, active high); in_data[8*BYTES-1:0] (lane i = [8i+7:8i]),
// in_k[BYTES-1:0]; out_code[10*BYTES-1:0] (lane i = [10i+9:10i], bit 10i = a, first on
// the wire), out_rd (running disparity after the last lane of out_code: 0 = RD-, 1 = RD+);
// cnt_ev[0]: one cycle per word with a control flag on a byte that is no control code
// (high while its word is on out_code).
// Parameters: BYTES 1, 2 or 4 (all tested).
// Latency: 1 cycle (a word taken at edge k is on out_code after edge k).
module enc_8b10b #(
    parameter BYTES = 1
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [8*BYTES-1:0]    in_data,
    input  wire [BYTES-1:0]      in_k,
    output wire [10*BYTES-1:0]   out_code,
    output wire                  out_rd,
    output wire [0:0]            cnt_ev
);
    generate
        if (BYTES != 1 && BYTES != 2 && BYTES != 4) begin : g_check_bytes
            enc_8b10b_BYTES_must_be_1_2_or_4 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    localparam [7:0] K30_7 = 8'hFE;

    reg  [10*BYTES-1:0] code_reg;
    reg                 rd_reg;
    reg                 bad_k_reg;

    assign out_code = code_reg;
    assign out_rd = rd_reg;
    assign cnt_ev = bad_k_reg;

    wire [BYTES:0]      rd;         // rd[i]: disparity before lane i
    wire [10*BYTES-1:0] code;
    wire [BYTES-1:0]    bad_k;
    assign rd[0] = rd_reg;

    genvar i;
    generate
        for (i = 0; i < BYTES; i = i + 1) begin : g_lane
            wire [7:0] b = in_data[8*i +: 8];
            wire k_valid = (b[4:0] == 5'd28)
                        || (b[7:5] == 3'd7 && (b[4:0] == 5'd23 || b[4:0] == 5'd27
                                               || b[4:0] == 5'd29 || b[4:0] == 5'd30));
            assign bad_k[i] = in_k[i] && !k_valid;
            enc_8b10b_symbol u_sym (
                .data(bad_k[i] ? K30_7 : b),
                .k(in_k[i]),
                .rd_in(rd[i]),
                .code(code[10*i +: 10]),
                .rd_out(rd[i+1])
            );
        end
    endgenerate

    always @(posedge clk) begin
        code_reg <= code;
        rd_reg <= rd[BYTES];
        bad_k_reg <= |bad_k;
        if (rst) begin
            rd_reg <= 1'b0;
            bad_k_reg <= 1'b0;
        end
    end
endmodule
`default_nettype wire
