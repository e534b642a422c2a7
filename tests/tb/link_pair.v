`default_nettype none
// link_pair: test bench top of two link nodes, A and B, each a link_layer over a 4-lane
// link_tx / link_rx, with the lanes left open: the test carries A's tx_code to B's rx_raw
// and back (adding skew, bit errors, slips). A runs on clk_a, B on clk_b; each receiver's
// rx_clk is the far end's clock. Counters: each node's cnt_ev vectors side by side.
// Parameters: CC_INTERVAL (link_tx), MAX_WORDS, MAX_RETRIES, TIMEOUT (link_layer).
module link_pair #(
    parameter CC_INTERVAL = 2048,
    parameter MAX_WORDS = 256,
    parameter MAX_RETRIES = 8,
    parameter TIMEOUT = 1024
) (
    input  wire        clk_a,
    input  wire        rst_a,
    input  wire        clk_b,
    input  wire        rst_b,
    output wire [39:0] a_tx_code,
    input  wire [39:0] a_rx_raw,
    output wire [39:0] b_tx_code,
    input  wire [39:0] b_rx_raw,
    // A's user side
    input  wire [31:0] a_s_tdata,
    input  wire [3:0]  a_s_tkeep,
    input  wire        a_s_tvalid,
    output wire        a_s_tready,
    input  wire        a_s_tlast,
    output wire [31:0] a_m_tdata,
    output wire [3:0]  a_m_tkeep,
    output wire        a_m_tvalid,
    input  wire        a_m_tready,
    output wire        a_m_tlast,
    // B's user side
    input  wire [31:0] b_s_tdata,
    input  wire [3:0]  b_s_tkeep,
    input  wire        b_s_tvalid,
    output wire        b_s_tready,
    input  wire        b_s_tlast,
    output wire [31:0] b_m_tdata,
    output wire [3:0]  b_m_tkeep,
    output wire        b_m_tvalid,
    input  wire        b_m_tready,
    output wire        b_m_tlast,
    output wire        a_link_up,
    output wire        b_link_up,
    output wire [7:0]  a_cnt_ev,
    output wire [7:0]  b_cnt_ev,
    output wire [25:0] a_rx_cnt_ev,
    output wire [25:0] b_rx_cnt_ev,
    output wire [1:0]  a_eb_cnt_ev,
    output wire [1:0]  b_eb_cnt_ev
);
    link_pair_node #(
        .CC_INTERVAL(CC_INTERVAL), .MAX_WORDS(MAX_WORDS), .MAX_RETRIES(MAX_RETRIES),
        .TIMEOUT(TIMEOUT)
    ) u_a (
        .clk(clk_a), .rst(rst_a), .rx_clk(clk_b), .rx_rst(rst_a),
        .tx_code(a_tx_code), .rx_raw(a_rx_raw),
        .s_tdata(a_s_tdata), .s_tkeep(a_s_tkeep), .s_tvalid(a_s_tvalid),
        .s_tready(a_s_tready), .s_tlast(a_s_tlast),
        .m_tdata(a_m_tdata), .m_tkeep(a_m_tkeep), .m_tvalid(a_m_tvalid),
        .m_tready(a_m_tready), .m_tlast(a_m_tlast),
        .link_up(a_link_up), .cnt_ev(a_cnt_ev), .rx_cnt_ev(a_rx_cnt_ev), .eb_cnt_ev(a_eb_cnt_ev)
    );
    link_pair_node #(
        .CC_INTERVAL(CC_INTERVAL), .MAX_WORDS(MAX_WORDS), .MAX_RETRIES(MAX_RETRIES),
        .TIMEOUT(TIMEOUT)
    ) u_b (
        .clk(clk_b), .rst(rst_b), .rx_clk(clk_a), .rx_rst(rst_b),
        .tx_code(b_tx_code), .rx_raw(b_rx_raw),
        .s_tdata(b_s_tdata), .s_tkeep(b_s_tkeep), .s_tvalid(b_s_tvalid),
        .s_tready(b_s_tready), .s_tlast(b_s_tlast),
        .m_tdata(b_m_tdata), .m_tkeep(b_m_tkeep), .m_tvalid(b_m_tvalid),
        .m_tready(b_m_tready), .m_tlast(b_m_tlast),
        .link_up(b_link_up), .cnt_ev(b_cnt_ev), .rx_cnt_ev(b_rx_cnt_ev), .eb_cnt_ev(b_eb_cnt_ev)
    );
endmodule
`default_nettype wire
