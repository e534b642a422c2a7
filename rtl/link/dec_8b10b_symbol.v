`default_nettype none
// dec_8b10b_symbol: one 8b/10b code-group decoded and checked (IEEE 802.3 clause 36),
// combinational.
//
// The 6-bit sub-block abcdei names x (EDCBA) and the 4-bit sub-block fghj names y (HGF)
// through the inverse tables (both disparity forms of each sub-block); the code-group is
// a control code when its 6-bit sub-block is K.28 (001111 / 110000, whose 4-bit
// sub-block is then read in the K column's form) or when it carries the A7 form
// (0111 / 1000) after x = 23, 27, 29 or 30. That candidate byte is encoded again
// (enc_8b10b_symbol) in both running disparities: the code-group is valid when the
// encoding in rd_in gives it back, a disparity error when only the encoding in the other
// disparity does (a valid code-group of the wrong disparity; data and k are then still
// the byte it stands for), and a code violation otherwise (a 10-bit pattern that is no
// code-group of the 256 data and 12 control codes, in either disparity). Exactly one of
// valid, disp_err and code_err holds.
//
// The running disparity after the code-group follows from the received bits, whatever
// their verdict, by the standard's sub-block rule: a sub-block with more ones than zeros
// (or 000111, or 0011) leaves RD+, one with more zeros (or 111000, or 1100) leaves RD-,
// any other leaves the disparity it found.
//
// Ports: code[9:0] (code[0] = a, first on the wire), rd_in (0 = RD-, 1 = RD+);
// data[7:0] (HGF EDCBA; meaningless with code_err), k, code_err, disp_err, rd_out.
// Parameters: none. Latency: 0 (combinational).
module dec_8b10b_symbol (
    input  wire [9:0] code,
    input  wire       rd_in,
    output wire [7:0] data,
    output wire       k,
    output wire       code_err,
    output wire       disp_err,
    output wire       rd_out
);
    // sub-blocks as the standard writes them: abcdei (a in bit 5), fghj (f in bit 3)
    wire [5:0] sub6 = {code[0], code[1], code[2], code[3], code[4], code[5]};
    wire [3:0] sub4 = {code[6], code[7], code[8], code[9]};

    // 6b/5b: both forms of every 5b/6b entry
    reg [4:0] x;
    always @* begin
        case (sub6)
            6'b100111, 6'b011000: x = 5'd0;
            6'b011101, 6'b100010: x = 5'd1;
            6'b101101, 6'b010010: x = 5'd2;
            6'b110001:            x = 5'd3;
            6'b110101, 6'b001010: x = 5'd4;
            6'b101001:            x = 5'd5;
            6'b011001:            x = 5'd6;
            6'b111000, 6'b000111: x = 5'd7;
            6'b111001, 6'b000110: x = 5'd8;
            6'b100101:            x = 5'd9;
            6'b010101:            x = 5'd10;
            6'b110100:            x = 5'd11;
            6'b001101:            x = 5'd12;
            6'b101100:            x = 5'd13;
            6'b011100:            x = 5'd14;
            6'b010111, 6'b101000: x = 5'd15;
            6'b011011, 6'b100100: x = 5'd16;
            6'b100011:            x = 5'd17;
            6'b010011:            x = 5'd18;
            6'b110010:            x = 5'd19;
            6'b001011:            x = 5'd20;
            6'b101010:            x = 5'd21;
            6'b011010:            x = 5'd22;
            6'b111010, 6'b000101: x = 5'd23;
            6'b110011, 6'b001100: x = 5'd24;
            6'b100110:            x = 5'd25;
            6'b010110:            x = 5'd26;
            6'b110110, 6'b001001: x = 5'd27;
            6'b001110:            x = 5'd28;
            6'b001111, 6'b110000: x = 5'd28;  // K.28
            6'b101110, 6'b010001: x = 5'd29;
            6'b011110, 6'b100001: x = 5'd30;
            6'b101011, 6'b010100: x = 5'd31;
            default:              x = 5'd0;   // no 6-bit sub-block: the check below fails
        endcase
    end

    wire k28 = (sub6 == 6'b001111 || sub6 == 6'b110000);
    // K.28.y after 110000 carries the K column's RD- form, the complement of the form
    // that reads like the data table
    wire [3:0] sub4_data = (sub6 == 6'b110000) ? ~sub4 : sub4;

    // 4b/3b: both forms of every 3b/4b entry (P7 and A7 both give 7)
    reg [2:0] y;
    always @* begin
        case (sub4_data)
            4'b1011, 4'b0100:                   y = 3'd0;
            4'b1001:                            y = 3'd1;
            4'b0101:                            y = 3'd2;
            4'b1100, 4'b0011:                   y = 3'd3;
            4'b1101, 4'b0010:                   y = 3'd4;
            4'b1010:                            y = 3'd5;
            4'b0110:                            y = 3'd6;
            4'b1110, 4'b0001, 4'b0111, 4'b1000: y = 3'd7;
            default:                            y = 3'd0;  // no 4-bit sub-block
        endcase
    end

    wire a7 = (sub4 == 4'b0111 || sub4 == 4'b1000);
    wire k_x7 = a7 && (x == 5'd23 || x == 5'd27 || x == 5'd29 || x == 5'd30);
    assign data = {y, x};
    assign k = k28 || k_x7;

    wire [9:0] code_same, code_other;
    /* verilator lint_off PINCONNECTEMPTY */
    // the re-encodings' disparities are not needed: rd_out follows the received bits
    enc_8b10b_symbol u_enc_same (
        .data(data), .k(k), .rd_in(rd_in), .code(code_same), .rd_out()
    );
    enc_8b10b_symbol u_enc_other (
        .data(data), .k(k), .rd_in(!rd_in), .code(code_other), .rd_out()
    );
    /* verilator lint_on PINCONNECTEMPTY */
    wire valid = (code_same == code);
    assign disp_err = !valid && code_other == code;
    assign code_err = !valid && code_other != code;

    // running disparity by the sub-block rule
    wire [2:0] ones6 = {2'd0, sub6[0]} + {2'd0, sub6[1]} + {2'd0, sub6[2]}
                     + {2'd0, sub6[3]} + {2'd0, sub6[4]} + {2'd0, sub6[5]};
    wire [2:0] ones4 = {2'd0, sub4[0]} + {2'd0, sub4[1]} + {2'd0, sub4[2]} + {2'd0, sub4[3]};
    wire rd6 = (ones6 > 3'd3 || sub6 == 6'b000111) ? 1'b1
             : (ones6 < 3'd3 || sub6 == 6'b111000) ? 1'b0 : rd_in;
    assign rd_out = (ones4 > 3'd2 || sub4 == 4'b0011) ? 1'b1
                  : (ones4 < 3'd2 || sub4 == 4'b1100) ? 1'b0 : rd6;
endmodule
`default_nettype wire
