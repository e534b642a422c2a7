`default_nettype none
// pcs_baser_dec: 64b/66b decoder of 10GBASE-R (IEEE 802.3 clause 49.2.11), one 66-bit
// block into one XGMII word (two columns).
//
// Purely combinational; the inverse of pcs_baser_enc (same bit order and block formats:
// see there). A block that is not valid becomes eight /E/ characters (0xFE, txc all
// ones) and raises dec_err: a sync header 00 or 11, a block type not in figure 49-7, a
// control code without a character (anything but 0x00, 0x06, 0x1E, 0x2D, 0x33, 0x4B, 0x55,
// 0x66, 0x78), an O code other than 0x0 and 0xF. Each block is decoded on its own (the
// receive state machine's checks of the order of blocks are left to the MAC, which ends
// a frame at any control character but /T/). Pad bits are not checked.
//
// Ports: block[65:0] (block[1:0] the sync header, block[0] received first);
// xgmii_rxd[63:0], xgmii_rxc[7:0]; dec_err.
// Parameters: none. Latency: 0 cycles (register the word in the user).
module pcs_baser_dec (
    input  wire [65:0] block,
    output reg  [63:0] xgmii_rxd,
    output reg  [7:0]  xgmii_rxc,
    output reg         dec_err
);
    localparam [1:0] SYNC_DATA = 2'b10, SYNC_CTRL = 2'b01;
    localparam [7:0] CH_START = 8'hFB, CH_TERM = 8'hFD, CH_SEQ = 8'h9C, CH_SIG = 8'h5C,
                     CH_ERROR = 8'hFE;

    function [8:0] ctl_char(input [6:0] code);  // {valid, character}
        case (code)
            7'h00: ctl_char = {1'b1, 8'h07};
            7'h06: ctl_char = {1'b1, 8'h06};
            7'h1E: ctl_char = {1'b1, 8'hFE};
            7'h2D: ctl_char = {1'b1, 8'h1C};
            7'h33: ctl_char = {1'b1, 8'h3C};
            7'h4B: ctl_char = {1'b1, 8'h7C};
            7'h55: ctl_char = {1'b1, 8'hBC};
            7'h66: ctl_char = {1'b1, 8'hDC};
            7'h78: ctl_char = {1'b1, 8'hF7};
            default: ctl_char = {1'b0, 8'hFE};
        endcase
    endfunction

    function [8:0] o_char(input [3:0] o);  // {valid, character}
        case (o)
            4'h0: o_char = {1'b1, CH_SEQ};
            4'hF: o_char = {1'b1, CH_SIG};
            default: o_char = {1'b0, CH_SEQ};
        endcase
    endfunction

    wire [63:0] p = block[65:2];
    reg  [63:0] chars;       // every lane decoded as a control code, lane k in [8k +: 8]
    reg  [7:0]  chars_ok;
    reg  [8:0]  ch, o0, o4;
    reg  [2:0]  t;           // /T/ lane of a terminate block
    reg         is_term;
    integer     k;

    always @* begin
        for (k = 0; k < 8; k = k + 1) begin
            ch = ctl_char(p[8 + 7 * k +: 7]);
            chars[8 * k +: 8] = ch[7:0];
            chars_ok[k] = ch[8];
        end
        o0 = o_char(p[35:32]);
        o4 = o_char(p[39:36]);
        is_term = 1'b1;
        case (p[7:0])
            8'h87: t = 3'd0;
            8'h99: t = 3'd1;
            8'hAA: t = 3'd2;
            8'hB4: t = 3'd3;
            8'hCC: t = 3'd4;
            8'hD2: t = 3'd5;
            8'hE1: t = 3'd6;
            8'hFF: t = 3'd7;
            default: begin
                t = 3'd0;
                is_term = 1'b0;
            end
        endcase

        dec_err = 1'b0;
        xgmii_rxd = p;
        xgmii_rxc = 8'h00;
        if (block[1:0] == SYNC_CTRL) begin
            xgmii_rxc = 8'hFF;
            xgmii_rxd = chars;
            if (is_term) begin
                // data below lane t, /T/ on it, control characters above
                xgmii_rxc = 8'hFF << t;
                for (k = 0; k < 8; k = k + 1) begin
                    if (k < t) xgmii_rxd[8 * k +: 8] = p[8 + 8 * k +: 8];
                    if (k[2:0] == t) xgmii_rxd[8 * k +: 8] = CH_TERM;
                end
                dec_err = (chars_ok | ~(8'hFF << t) | (8'h01 << t)) != 8'hFF;
            end else begin
                case (p[7:0])
                    8'h1E: dec_err = chars_ok != 8'hFF;
                    8'h2D: begin  // C0-C3 O4 D5-D7
                        xgmii_rxc = 8'h1F;
                        xgmii_rxd = {p[63:40], o4[7:0], chars[31:0]};
                        dec_err = chars_ok[3:0] != 4'hF || !o4[8];
                    end
                    8'h33: begin  // C0-C3 S4 D5-D7
                        xgmii_rxc = 8'h1F;
                        xgmii_rxd = {p[63:40], CH_START, chars[31:0]};
                        dec_err = chars_ok[3:0] != 4'hF;
                    end
                    8'h66: begin  // O0 D1-D3 S4 D5-D7
                        xgmii_rxc = 8'h11;
                        xgmii_rxd = {p[63:40], CH_START, p[31:8], o0[7:0]};
                        dec_err = !o0[8];
                    end
                    8'h55: begin  // O0 D1-D3 O4 D5-D7
                        xgmii_rxc = 8'h11;
                        xgmii_rxd = {p[63:40], o4[7:0], p[31:8], o0[7:0]};
                        dec_err = !o0[8] || !o4[8];
                    end
                    8'h78: begin  // S0 D1-D7
                        xgmii_rxc = 8'h01;
                        xgmii_rxd = {p[63:8], CH_START};
                    end
                    8'h4B: begin  // O0 D1-D3 C4-C7
                        xgmii_rxc = 8'hF1;
                        xgmii_rxd = {chars[63:32], p[31:8], o0[7:0]};
                        dec_err = chars_ok[7:4] != 4'hF || !o0[8];
                    end
                    default: dec_err = 1'b1;
                endcase
            end
        end else if (block[1:0] != SYNC_DATA) begin
            dec_err = 1'b1;
        end
        if (dec_err) begin
            xgmii_rxd = {8{CH_ERROR}};
            xgmii_rxc = 8'hFF;
        end
    end
endmodule
`default_nettype wire
