`default_nettype none
// link_rx: the receive side of a link of LANES bonded 8b/10b lanes (link_tx at the far end):
// per-lane alignment and decoding, deskew and bonding, clock compensation into the local
// clock.
//
// The lanes' raw 10-bit words arrive on rx_clk, the clock recovered from the far end (one
// for all lanes, as a transceiver's bonded channels give it). Each lane's link_lane_rx
// (BYTES 1, K28.5 commas) finds the symbol boundary at any bit offset and decodes;
// link_deskew lines the lanes up on the alignment marker K28.3 (skew up to SKEW_MAX
// symbols) and runs the link's state (up, down on a lane's loss of lock or a misaligned
// marker, and back up by itself); link_elastic_buf takes the bonded words into clk and
// drops or repeats whole skip words (K23.7 on every lane) so the far end's clock may run
// up to the documented offset away from clk (docs/link.md: SKIPS / (2 * CC_INTERVAL) of
// the far end's link_tx). Since the lanes are deskewed before the buffer, a skip word is
// dropped or repeated on all lanes at once and the lanes stay in step. The framing words
// (every lane K28.5, K28.3 or K23.7: idle, ordered sets) are not given to the user.
//
// Ports: rx_clk, rx_rst; rx_raw[10*LANES-1:0] (lane i in bits 10i+9..10i, bit 10i first on
// the wire); rx_cnt_ev[5*LANES+5:0] strobes in rx_clk: [5i+4:5i] lane i's link_lane_rx
// strobes (lock gained, lock lost, code violation word, disparity error word, alignment
// started), [5*LANES+3:5*LANES] link_deskew's (link up, down by a lane's loss, down by a
// misaligned marker, alignment refused for skew), [5*LANES+4] a skip word dropped,
// [5*LANES+5] a word lost to elastic buffer overflow.
// clk, rst (rst and rx_rst are asserted together); m_data[8*LANES-1:0], m_k, m_err
// [LANES-1:0] (lane i = byte i; m_err: the lane's symbol had a code violation or a
// disparity error), m_valid (a user word); link_up (level, in clk); cnt_ev[1:0] strobes in
// clk: [0] a skip word repeated, [1] an elastic buffer underflow.
// Parameters (tested values): LANES 1..8 (1, 4, 8 tested); SKEW_MAX 0..14 (8 and 3);
// EB_DEPTH 16 or 32 (16 tested here, both in link_elastic_buf's test); LOCK_COMMAS,
// ERR_LIMIT, ERR_WINDOW as link_lane_rx (defaults 4, 4, 64 tested here).
// Latency: rx_raw to m_*: 3 cycles of rx_clk (lane), 2 plus the lane's deskew delay
// (deskew), then the elastic buffer's fill of about EB_DEPTH/2 words and its synchronizer
// (2 to 3 cycles of clk); bench/link.py measures the whole.
module link_rx #(
    parameter LANES = 4,
    parameter SKEW_MAX = 8,
    parameter EB_DEPTH = 16,
    parameter LOCK_COMMAS = 4,
    parameter ERR_LIMIT = 4,
    parameter ERR_WINDOW = 64
) (
    input  wire                  rx_clk,
    input  wire                  rx_rst,
    input  wire [10*LANES-1:0]   rx_raw,
    output wire [5*LANES+5:0]    rx_cnt_ev,
    input  wire                  clk,
    input  wire                  rst,
    output wire [8*LANES-1:0]    m_data,
    output wire [LANES-1:0]      m_k,
    output wire [LANES-1:0]      m_err,
    output wire                  m_valid,
    output wire                  link_up,
    output wire [1:0]            cnt_ev
);
    generate
        if (LANES < 1 || LANES > 8) begin : g_check_lanes
            link_rx_LANES_must_be_1_to_8 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    localparam [7:0] K28_5 = 8'hBC;
    localparam [7:0] K28_3 = 8'h7C;
    localparam [7:0] K23_7 = 8'hF7;

    wire [8*LANES-1:0] lane_data;
    wire [LANES-1:0]   lane_k, lane_err, lane_valid;

    genvar g;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : g_lane
            wire code_err, disp_err;
            /* verilator lint_off PINCONNECTEMPTY */
            // lock is m_valid one cycle early; the offset is for debugging only
            link_lane_rx #(
                .BYTES(1), .COMMA_MODE(0), .LOCK_COMMAS(LOCK_COMMAS),
                .ERR_LIMIT(ERR_LIMIT), .ERR_WINDOW(ERR_WINDOW)
            ) u_lane (
                .clk(rx_clk), .rst(rx_rst), .rx_raw(rx_raw[10*g +: 10]),
                .m_data(lane_data[8*g +: 8]), .m_k(lane_k[g +: 1]),
                .m_code_err(code_err), .m_disp_err(disp_err), .m_valid(lane_valid[g]),
                .lock(), .align_off(), .cnt_ev(rx_cnt_ev[5*g +: 5])
            );
            /* verilator lint_on PINCONNECTEMPTY */
            assign lane_err[g] = code_err || disp_err;
        end
    endgenerate

    wire [8*LANES-1:0] bond_data;
    wire [LANES-1:0]   bond_k, bond_err;
    wire               bond_valid, bond_up;

    link_deskew #(.LANES(LANES), .SKEW_MAX(SKEW_MAX)) u_deskew (
        .clk(rx_clk), .rst(rx_rst),
        .s_data(lane_data), .s_k(lane_k), .s_err(lane_err), .s_valid(lane_valid),
        .m_data(bond_data), .m_k(bond_k), .m_err(bond_err), .m_valid(bond_valid),
        .up(bond_up), .cnt_ev(rx_cnt_ev[5*LANES +: 4])
    );

    // a skip word: K23.7 on every lane, no error
    wire [LANES-1:0] bond_skip_lane;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : g_skip
            assign bond_skip_lane[g] = bond_k[g] && !bond_err[g] && bond_data[8*g +: 8] == K23_7;
        end
    endgenerate

    wire [10*LANES-1:0] eb_data;
    wire                eb_valid;
    /* verilator lint_off PINCONNECTEMPTY */
    // the skip flag is in the word itself (framing below)
    link_elastic_buf #(.WIDTH(10 * LANES), .DEPTH(EB_DEPTH)) u_eb (
        .wr_clk(rx_clk), .wr_rst(rx_rst),
        .s_data({bond_err, bond_k, bond_data}), .s_skip(&bond_skip_lane),
        .s_valid(bond_valid), .s_up(bond_up), .wr_cnt_ev(rx_cnt_ev[5*LANES+4 +: 2]),
        .clk(clk), .rst(rst),
        .m_data(eb_data), .m_skip(), .m_valid(eb_valid), .m_up(link_up), .cnt_ev(cnt_ev)
    );
    /* verilator lint_on PINCONNECTEMPTY */


    assign m_data = eb_data[8*LANES-1:0];
    assign m_k = eb_data[9*LANES-1:8*LANES];
    assign m_err = eb_data[10*LANES-1:9*LANES];

    // framing: every lane K28.5, K28.3 or K23.7 with no error
    wire [LANES-1:0] framing_lane;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : g_framing
            wire [7:0] b = m_data[8*g +: 8];
            assign framing_lane[g] = m_k[g] && !m_err[g] && (b == K28_5 || b == K28_3 || b == K23_7);
        end
    endgenerate

    assign m_valid = eb_valid && !(&framing_lane);
endmodule
`default_nettype wire
