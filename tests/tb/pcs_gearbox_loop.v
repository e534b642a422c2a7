`default_nettype none
// pcs_gearbox_loop: pcs_gearbox_tx's 32-bit words straight into pcs_gearbox_rx, for the
// gearboxes' unit test (the test feeds blocks, watches the 32-bit line, slips the
// receiver and checks the blocks that come back).
//
// Interfaces: clk, rst; s_block[65:0], s_ready (pcs_gearbox_tx); line[31:0] (the words
// between the two); rx_slip, m_block[65:0], m_valid (pcs_gearbox_rx).
// Parameters: none. Latency: that of the two gearboxes.
module pcs_gearbox_loop (
    input  wire        clk,
    input  wire        rst,
    input  wire [65:0] s_block,
    output wire        s_ready,
    output wire [31:0] line,
    input  wire        rx_slip,
    output wire [65:0] m_block,
    output wire        m_valid
);
    pcs_gearbox_tx u_tx (.clk(clk), .rst(rst), .s_block(s_block), .s_ready(s_ready), .tx_data(line));
    pcs_gearbox_rx u_rx (
        .clk(clk), .rst(rst), .rx_data(line), .rx_slip(rx_slip), .m_block(m_block), .m_valid(m_valid)
    );
endmodule
`default_nettype wire
