`default_nettype none
// enc_8b10b_symbol: one 8b/10b code-group (IEEE 802.3 clause 36, Widmer-Franaszek),
// combinational.
//
// The byte HGF EDCBA (data[7:0], A = data[0]) is D.x.y or K.x.y with x = EDCBA and
// y = HGF. EDCBA becomes the 6-bit sub-block abcdei (5b/6b table), HGF the 4-bit
// sub-block fghj (3b/4b table); each table below is the standard's RD- column, and the
// RD+ form is its complement for the sub-blocks that have two forms (unbalanced ones and
// the balanced 111000 / 1100). The running disparity before the 4-bit sub-block is the
// one left by the 6-bit sub-block. D.x.7 takes the alternate A7 form (0111 / 1000) where
// the primary P7 would make a run of five equal bits with the 6-bit sub-block: RD- with
// x = 17, 18, 20 and RD+ with x = 11, 13, 14. Control codes: K28.y (y = 0..7, 6-bit
// 001111 / 110000 and the K column of the 3b/4b table) and K23.7, K27.7, K29.7, K30.7
// (the data 6-bit sub-block and A7).
//
// Ports: data[7:0], k (1 = control code; must be one of the 12 above: enc_8b10b
// substitutes K30.7 for any other), rd_in (running disparity before: 0 = RD-, 1 = RD+);
// code[9:0] (code[0] = a, the first bit on the wire, ..., code[9] = j), rd_out
// (running disparity after the code-group).
// Parameters: none. Latency: 0 (combinational).
module enc_8b10b_symbol (
    input  wire [7:0] data,
    input  wire       k,
    input  wire       rd_in,
    output wire [9:0] code,
    output wire       rd_out
);
    wire [4:0] x = data[4:0];
    wire [2:0] y = data[7:5];

    // 5b/6b, RD- column, written abcdei (a in bit 5)
    reg [5:0] sub6_neg;
    always @* begin
        case (x)
            5'd0:  sub6_neg = 6'b100111;
            5'd1:  sub6_neg = 6'b011101;
            5'd2:  sub6_neg = 6'b101101;
            5'd3:  sub6_neg = 6'b110001;
            5'd4:  sub6_neg = 6'b110101;
            5'd5:  sub6_neg = 6'b101001;
            5'd6:  sub6_neg = 6'b011001;
            5'd7:  sub6_neg = 6'b111000;
            5'd8:  sub6_neg = 6'b111001;
            5'd9:  sub6_neg = 6'b100101;
            5'd10: sub6_neg = 6'b010101;
            5'd11: sub6_neg = 6'b110100;
            5'd12: sub6_neg = 6'b001101;
            5'd13: sub6_neg = 6'b101100;
            5'd14: sub6_neg = 6'b011100;
            5'd15: sub6_neg = 6'b010111;
            5'd16: sub6_neg = 6'b011011;
            5'd17: sub6_neg = 6'b100011;
            5'd18: sub6_neg = 6'b010011;
            5'd19: sub6_neg = 6'b110010;
            5'd20: sub6_neg = 6'b001011;
            5'd21: sub6_neg = 6'b101010;
            5'd22: sub6_neg = 6'b011010;
            5'd23: sub6_neg = 6'b111010;
            5'd24: sub6_neg = 6'b110011;
            5'd25: sub6_neg = 6'b100110;
            5'd26: sub6_neg = 6'b010110;
            5'd27: sub6_neg = 6'b110110;
            5'd28: sub6_neg = k ? 6'b001111 : 6'b001110;  // K.28 / D.28
            5'd29: sub6_neg = 6'b101110;
            5'd30: sub6_neg = 6'b011110;
            default: sub6_neg = 6'b101011;  // 31
        endcase
    end

    wire [2:0] ones6 = {2'd0, sub6_neg[0]} + {2'd0, sub6_neg[1]} + {2'd0, sub6_neg[2]}
                     + {2'd0, sub6_neg[3]} + {2'd0, sub6_neg[4]} + {2'd0, sub6_neg[5]};
    wire unbal6 = (ones6 != 3'd3);
    // two forms: the unbalanced sub-blocks and 111000
    wire dual6 = unbal6 || sub6_neg == 6'b111000;
    wire rd6 = unbal6 ? !rd_in : rd_in;  // running disparity after the 6-bit sub-block

    // 3b/4b, RD- column, written fghj (f in bit 3)
    wire alt7 = k || (!rd6 && (x == 5'd17 || x == 5'd18 || x == 5'd20))
                  || (rd6 && (x == 5'd11 || x == 5'd13 || x == 5'd14));
    reg [3:0] sub4_neg;
    always @* begin
        case (y)
            3'd0: sub4_neg = 4'b1011;
            3'd1: sub4_neg = k ? 4'b0110 : 4'b1001;
            3'd2: sub4_neg = k ? 4'b1010 : 4'b0101;
            3'd3: sub4_neg = 4'b1100;
            3'd4: sub4_neg = 4'b1101;
            3'd5: sub4_neg = k ? 4'b0101 : 4'b1010;
            3'd6: sub4_neg = k ? 4'b1001 : 4'b0110;
            default: sub4_neg = alt7 ? 4'b0111 : 4'b1110;  // A7 / P7
        endcase
    end

    wire [2:0] ones4 = {2'd0, sub4_neg[0]} + {2'd0, sub4_neg[1]} + {2'd0, sub4_neg[2]}
                     + {2'd0, sub4_neg[3]};
    wire unbal4 = (ones4 != 3'd2);
    // two forms: the unbalanced sub-blocks, 1100 and every K 3b/4b sub-block
    wire dual4 = unbal4 || sub4_neg == 4'b1100 || k;

    wire [5:0] sub6 = (dual6 && rd_in) ? ~sub6_neg : sub6_neg;
    wire [3:0] sub4 = (dual4 && rd6) ? ~sub4_neg : sub4_neg;
    assign rd_out = unbal4 ? !rd6 : rd6;

    // a first on the wire: code[0] = a ... code[5] = i, code[6] = f ... code[9] = j
    assign code = {sub4[0], sub4[1], sub4[2], sub4[3],
                   sub6[0], sub6[1], sub6[2], sub6[3], sub6[4], sub6[5]};
endmodule
`default_nettype wire
