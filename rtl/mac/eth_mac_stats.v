`default_nettype none
// eth_mac_stats: the MAC's event strobes (cnt_ev) for the counters kept in stat_counters.
//
// Gathers the one-cycle status strobes of eth_mac_tx (in the tx_clk domain) and
// eth_mac_rx (in the rx_clk domain) into cnt_ev, each bit in its own domain.
//
// Ports: tx_clk, tx_rst, stat_tx_* in; rx_clk, rx_rst, stat_rx_* in;
// cnt_ev[9:0]: one strobe per event, one cycle high per event:
//   bit 0 tx_frames     a frame sent (tx_clk)
//   bit 1 tx_bytes      the same strobe; adds cnt_ev_len[15:0] (tx_clk)
//   bit 2 tx_underflow  a frame aborted by an underflow (tx_clk)
//   bit 3 tx_abort      a frame aborted by the user's tuser (tx_clk)
//   bit 4 rx_frames     a good frame received (rx_clk)
//   bit 5 rx_bytes      the same strobe; adds cnt_ev_len[31:16] (rx_clk)
//   bit 6 rx_bad_fcs    a frame with a bad FCS (rx_clk)
//   bit 7 rx_runt       a frame shorter than 64 bytes (rx_clk)
//   bit 8 rx_oversize   a frame longer than cfg_max_len (rx_clk)
//   bit 9 rx_er         a frame with gmii_rx_er (rx_clk)
// cnt_ev_len[31:0]: the frame's length, FCS included: [15:0] with bit 1 (tx), [31:16]
//   with bit 5 (rx), valid with them.
// Latency: the strobes of bits 6-9 are registered (1 cycle after eth_mac_rx's, keeping
// their decode out of the counters' logic), the others are eth_mac_tx's and eth_mac_rx's.
// Read the strobes while the domain's reset is low (bits 6-9 are 0 during it).
module eth_mac_stats (
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire        tx_clk,  // (the transmit strobes need no register)
    input  wire        tx_rst,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire        stat_tx_frame,
    input  wire [15:0] stat_tx_bytes,
    input  wire        stat_tx_underflow,
    input  wire        stat_tx_abort,

    input  wire        rx_clk,
    input  wire        rx_rst,
    input  wire        stat_rx_frame,
    input  wire [15:0] stat_rx_bytes,
    input  wire        stat_rx_bad_fcs,
    input  wire        stat_rx_runt,
    input  wire        stat_rx_oversize,
    input  wire        stat_rx_er,

    output wire [9:0]  cnt_ev,
    output wire [31:0] cnt_ev_len
);
    // The receive error strobes are decoded from several registers of eth_mac_rx (up to
    // seven inputs): one register stage keeps that decode apart from the counters' logic.
    reg bad_fcs_reg, runt_reg, oversize_reg, er_reg;
    always @(posedge rx_clk) begin
        bad_fcs_reg <= stat_rx_bad_fcs && !rx_rst;
        runt_reg <= stat_rx_runt && !rx_rst;
        oversize_reg <= stat_rx_oversize && !rx_rst;
        er_reg <= stat_rx_er && !rx_rst;
    end

    assign cnt_ev = {er_reg, oversize_reg, runt_reg, bad_fcs_reg, stat_rx_frame, stat_rx_frame,
                     stat_tx_abort, stat_tx_underflow, stat_tx_frame, stat_tx_frame};
    assign cnt_ev_len = {stat_rx_bytes, stat_tx_bytes};
endmodule
`default_nettype wire
