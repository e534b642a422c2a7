`default_nettype none
// link_tx: the transmit side of a link of LANES bonded 8b/10b lanes, one symbol per lane
// per cycle: user words, idle filler, and the ordered set that keeps the receiver aligned,
// bonded and clock-compensated.
//
// Every CC_INTERVAL cycles (the first right after reset) the transmitter sends, on all
// lanes in the same cycles, the ordered set /K/ /A/ /S/ x SKIPS: a comma K28.5 (lane
// alignment, link_lane_rx), the alignment marker K28.3 (lane deskew, link_deskew), and
// SKIPS skip symbols K23.7 that the receiver's elastic buffer (link_elastic_buf) may drop
// or repeat. s_ready is low during those SKIPS + 2 cycles. In every other cycle a user
// word (s_valid) is sent as given, or, with none, the idle filler /K/ (K28.5 on all
// lanes). The receiver drops words whose lanes all carry K28.5, K28.3 or K23.7, so a user
// word must not be made of those codes only. Each lane has its own 8b/10b encoder
// (enc_8b10b, BYTES 1) and running disparity.
//
// Ports: clk, rst (sync, active high); s_data[8*LANES-1:0], s_k[LANES-1:0] (lane i = byte
// i, a control code where s_k[i]), s_valid, s_ready (a word is taken when both are high);
// tx_code[10*LANES-1:0] (lane i's code-group in bits 10i+9..10i, bit 10i first on the
// wire); cnt_ev[1:0] strobes: [0] an ordered set started (with its K28.5 on tx_code),
// [1] a user word with a control flag on a byte that is no control code (that lane sends
// K30.7).
// Parameters (tested values): LANES 1..8 (1, 4, 8 tested); CC_INTERVAL SKIPS+3..65535
// cycles (2048, 256 and 64 tested); SKIPS 1..15 (4 and 2 tested).
// Latency: 1 cycle (a word taken at edge k is on tx_code after edge k).
module link_tx #(
    parameter LANES = 4,
    parameter CC_INTERVAL = 2048,
    parameter SKIPS = 4
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [8*LANES-1:0]    s_data,
    input  wire [LANES-1:0]      s_k,
    input  wire                  s_valid,
    output wire                  s_ready,
    output wire [10*LANES-1:0]   tx_code,
    output wire [1:0]            cnt_ev
);
    generate
        if (LANES < 1 || LANES > 8) begin : g_check_lanes
            link_tx_LANES_must_be_1_to_8 u_error ();  // unsupported parameter (no such module)
        end
        if (SKIPS < 1 || SKIPS > 15) begin : g_check_skips
            link_tx_SKIPS_must_be_1_to_15 u_error ();  // unsupported parameter
        end
        if (CC_INTERVAL < SKIPS + 3 || CC_INTERVAL > 65535) begin : g_check_cc_interval
            link_tx_CC_INTERVAL_must_be_SKIPS_plus_3_to_65535 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam [7:0] K28_5 = 8'hBC;
    localparam [7:0] K28_3 = 8'h7C;
    localparam [7:0] K23_7 = 8'hF7;
    localparam [15:0] CC_LAST = CC_INTERVAL - 1;
    localparam [15:0] SET_LEN = SKIPS + 2;

    reg  [15:0] cc_cnt_reg;  // cycles into the compensation interval; the set at 0..SET_LEN-1
    reg         set_ev_reg;

    reg  [7:0]  fill;        // the ordered set's or idle symbol, on every lane
    reg         use_user;
    always @* begin
        use_user = 1'b0;
        fill = K28_5;
        if (cc_cnt_reg == 16'd1) begin
            fill = K28_3;
        end else if (cc_cnt_reg >= 16'd2 && cc_cnt_reg < SET_LEN) begin
            fill = K23_7;
        end else if (cc_cnt_reg >= SET_LEN && s_valid) begin
            use_user = 1'b1;
        end
    end

    wire [8*LANES-1:0] data = use_user ? s_data : {LANES{fill}};
    wire [LANES-1:0]   k = use_user ? s_k : {LANES{1'b1}};
    wire [LANES-1:0]   bad_k;

    genvar g;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : g_lane
            /* verilator lint_off PINCONNECTEMPTY */
            // each lane's disparity stays inside its encoder
            enc_8b10b #(.BYTES(1)) u_enc (
                .clk(clk), .rst(rst), .in_data(data[8*g +: 8]), .in_k(k[g]),
                .out_code(tx_code[10*g +: 10]), .out_rd(), .cnt_ev(bad_k[g +: 1])
            );
            /* verilator lint_on PINCONNECTEMPTY */
        end
    endgenerate

    always @(posedge clk) begin
        cc_cnt_reg <= (cc_cnt_reg == CC_LAST) ? 16'd0 : cc_cnt_reg + 16'd1;
        set_ev_reg <= (cc_cnt_reg == 16'd0);
        if (rst) begin
            cc_cnt_reg <= 16'd0;
            set_ev_reg <= 1'b0;
        end
    end

    assign s_ready = (cc_cnt_reg >= SET_LEN);
    assign cnt_ev = {|bad_k, set_ev_reg};
endmodule
`default_nettype wire
