`default_nettype none
// link_pair_node: one node of the link_pair test bench: link_layer over a 4-lane link_tx
// and link_rx (rx_rst is the node's reset taken on rx_clk: the bench holds both resets
// long enough for either clock).
module link_pair_node #(
    parameter CC_INTERVAL = 2048,
    parameter MAX_WORDS = 256,
    parameter MAX_RETRIES = 8,
    parameter TIMEOUT = 1024
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        rx_clk,
    input  wire        rx_rst,
    output wire [39:0] tx_code,
    input  wire [39:0] rx_raw,
    input  wire [31:0] s_tdata,
    input  wire [3:0]  s_tkeep,
    input  wire        s_tvalid,
    output wire        s_tready,
    input  wire        s_tlast,
    output wire [31:0] m_tdata,
    output wire [3:0]  m_tkeep,
    output wire        m_tvalid,
    input  wire        m_tready,
    output wire        m_tlast,
    output wire        link_up,
    output wire [7:0]  cnt_ev,
    output wire [25:0] rx_cnt_ev,
    output wire [1:0]  eb_cnt_ev
);
    wire [31:0] tx_data, rx_data;
    wire [3:0]  tx_k, rx_k, rx_err;
    wire        tx_valid, tx_ready, rx_valid;

    link_layer #(.MAX_WORDS(MAX_WORDS), .MAX_RETRIES(MAX_RETRIES), .TIMEOUT(TIMEOUT)) u_layer (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_tdata), .s_axis_tkeep(s_tkeep), .s_axis_tvalid(s_tvalid),
        .s_axis_tready(s_tready), .s_axis_tlast(s_tlast),
        .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tvalid(m_tvalid),
        .m_axis_tready(m_tready), .m_axis_tlast(m_tlast),
        .tx_data(tx_data), .tx_k(tx_k), .tx_valid(tx_valid), .tx_ready(tx_ready),
        .rx_data(rx_data), .rx_k(rx_k), .rx_err(rx_err), .rx_valid(rx_valid),
        .link_up(link_up), .cnt_ev(cnt_ev)
    );
    /* verilator lint_off PINCONNECTEMPTY */
    // the transmitter's strobes are checked by its own test
    link_tx #(.LANES(4), .CC_INTERVAL(CC_INTERVAL)) u_tx (
        .clk(clk), .rst(rst), .s_data(tx_data), .s_k(tx_k), .s_valid(tx_valid),
        .s_ready(tx_ready), .tx_code(tx_code), .cnt_ev()
    );
    /* verilator lint_on PINCONNECTEMPTY */
    link_rx #(.LANES(4)) u_rx (
        .rx_clk(rx_clk), .rx_rst(rx_rst), .rx_raw(rx_raw), .rx_cnt_ev(rx_cnt_ev),
        .clk(clk), .rst(rst), .m_data(rx_data), .m_k(rx_k), .m_err(rx_err),
        .m_valid(rx_valid), .link_up(link_up), .cnt_ev(eb_cnt_ev)
    );
endmodule
`default_nettype wire
