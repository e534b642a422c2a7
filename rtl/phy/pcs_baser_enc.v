`default_nettype none
// pcs_baser_enc: 64b/66b encoder of 10GBASE-R (IEEE 802.3 clause 49.2.4), one XGMII word
// (two columns) into one 66-bit block.
//
// Purely combinational. Every block format of figure 49-7: data (sync 01), and the
// control blocks 0x1E (C0-C7), 0x2D (C0-C3 O4), 0x33 (C0-C3 S4), 0x66 (O0 S4), 0x55
// (O0 O4), 0x78 (S0), 0x4B (O0 C4-C7), 0x87/0x99/0xAA/0xB4/0xCC/0xD2/0xE1/0xFF (/T/ on
// lane 0..7). Control characters map to 7-bit codes (/I/ 0x07 -> 0x00, LPI 0x06 -> 0x06,
// /E/ 0xFE -> 0x1E, reserved 0x1C/0x3C/0x7C/0xBC/0xDC/0xF7 -> 0x2D/0x33/0x4B/0x55/0x66/
// 0x78), ordered-set characters to 4-bit O codes (0x9C -> 0x0, 0x5C -> 0xF). A word that
// fits no format (a control character where the format wants another, /S/ or /T/ on a
// lane that cannot hold it, data among control lanes) becomes an error block (0x1E,
// eight /E/ codes) and raises enc_err.
//
// Block bit order: block[0] is sent first. block[1:0] is the sync header (2'b10: data,
// the header "01" of the standard sent 0 first; 2'b01: control), block[65:2] the
// payload: for control blocks the type in payload[7:0], then the fields of figure 49-7
// from bit 8 up (the control code of lane k in payload[8+7k +: 7], the data byte of lane
// j in payload[8j +: 8] or, in /T/ blocks, payload[8+8j +: 8]).
//
// Ports: xgmii_txd[63:0], xgmii_txc[7:0] (lane 0 in [7:0] / bit 0); block[65:0];
// enc_err (1: the word was replaced by an error block).
// Parameters: none. Latency: 0 cycles (register block in the user).
module pcs_baser_enc (
    input  wire [63:0] xgmii_txd,
    input  wire [7:0]  xgmii_txc,
    output reg  [65:0] block,
    output reg         enc_err
);
    localparam [1:0] SYNC_DATA = 2'b10, SYNC_CTRL = 2'b01;
    localparam [7:0] CH_START = 8'hFB, CH_TERM = 8'hFD, CH_SEQ = 8'h9C, CH_SIG = 8'h5C;

    // the 7-bit code of a control character; valid: it has one (not /S/, /T/, O)
    function [7:0] ctl_code(input [7:0] ch);  // {valid, code}
        case (ch)
            8'h07: ctl_code = {1'b1, 7'h00};
            8'h06: ctl_code = {1'b1, 7'h06};
            8'hFE: ctl_code = {1'b1, 7'h1E};
            8'h1C: ctl_code = {1'b1, 7'h2D};
            8'h3C: ctl_code = {1'b1, 7'h33};
            8'h7C: ctl_code = {1'b1, 7'h4B};
            8'hBC: ctl_code = {1'b1, 7'h55};
            8'hDC: ctl_code = {1'b1, 7'h66};
            8'hF7: ctl_code = {1'b1, 7'h78};
            default: ctl_code = {1'b0, 7'h1E};
        endcase
    endfunction

    reg  [7:0]  ctl_ok;      // lane k is a control character with a 7-bit code
    reg  [55:0] codes;       // those codes, lane k in [7k +: 7]
    reg  [7:0]  code;
    reg  [63:0] p;           // payload
    reg  [3:0]  o0, o4;      // O codes of lanes 0 and 4
    reg         o0_ok, o4_ok;
    reg  [2:0]  t;           // /T/ lane of a terminate block
    reg         term_ok;
    integer     k;

    always @* begin
        for (k = 0; k < 8; k = k + 1) begin
            code = ctl_code(xgmii_txd[8 * k +: 8]);
            ctl_ok[k] = xgmii_txc[k] && code[7];
            codes[7 * k +: 7] = code[6:0];
        end
        o0_ok = xgmii_txd[7:0] == CH_SEQ || xgmii_txd[7:0] == CH_SIG;
        o4_ok = xgmii_txd[39:32] == CH_SEQ || xgmii_txd[39:32] == CH_SIG;
        o0 = (xgmii_txd[7:0] == CH_SEQ) ? 4'h0 : 4'hF;
        o4 = (xgmii_txd[39:32] == CH_SEQ) ? 4'h0 : 4'hF;

        // a terminate block: txc = 1 from lane t up, /T/ on lane t, codes above it
        t = 3'd0;
        for (k = 7; k >= 0; k = k - 1)
            if (xgmii_txc[k]) t = k[2:0];
        term_ok = (xgmii_txc == (8'hFF << t)) && xgmii_txd[8 * t +: 8] == CH_TERM &&
                  ((ctl_ok | ~(8'hFF << t) | (8'h01 << t)) == 8'hFF);

        enc_err = 1'b0;
        block = {64'd0, SYNC_CTRL};
        p = 64'd0;
        if (xgmii_txc == 8'h00) begin
            block = {xgmii_txd, SYNC_DATA};
        end else begin
            if (xgmii_txc == 8'h01 && xgmii_txd[7:0] == CH_START) begin
                p = {xgmii_txd[63:8], 8'h78};
            end else if (term_ok) begin
                // data lanes below t, pad bits zero, codes above t
                for (k = 0; k < 8; k = k + 1) begin
                    if (k < t) p[8 + 8 * k +: 8] = xgmii_txd[8 * k +: 8];
                    if (k > t) p[8 + 7 * k +: 7] = codes[7 * k +: 7];
                end
                case (t)
                    3'd0: p[7:0] = 8'h87;
                    3'd1: p[7:0] = 8'h99;
                    3'd2: p[7:0] = 8'hAA;
                    3'd3: p[7:0] = 8'hB4;
                    3'd4: p[7:0] = 8'hCC;
                    3'd5: p[7:0] = 8'hD2;
                    3'd6: p[7:0] = 8'hE1;
                    default: p[7:0] = 8'hFF;
                endcase
            end else if (ctl_ok == 8'hFF) begin
                p = {codes, 8'h1E};
            end else if (xgmii_txc == 8'h1F && ctl_ok[3:0] == 4'hF &&
                         xgmii_txd[39:32] == CH_START) begin
                p = {xgmii_txd[63:40], 4'h0, codes[27:0], 8'h33};
            end else if (xgmii_txc == 8'h1F && ctl_ok[3:0] == 4'hF && o4_ok) begin
                p = {xgmii_txd[63:40], o4, codes[27:0], 8'h2D};
            end else if (xgmii_txc == 8'h11 && o0_ok && xgmii_txd[39:32] == CH_START) begin
                p = {xgmii_txd[63:40], 4'h0, o0, xgmii_txd[31:8], 8'h66};
            end else if (xgmii_txc == 8'h11 && o0_ok && o4_ok) begin
                p = {xgmii_txd[63:40], o4, o0, xgmii_txd[31:8], 8'h55};
            end else if (xgmii_txc == 8'hF1 && o0_ok && ctl_ok[7:4] == 4'hF) begin
                p = {codes[55:28], o0, xgmii_txd[31:8], 8'h4B};
            end else begin
                enc_err = 1'b1;
                p = {{8{7'h1E}}, 8'h1E};
            end
            block = {p, SYNC_CTRL};
        end
    end
endmodule
`default_nettype wire
