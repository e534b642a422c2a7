`default_nettype none
// eth_mac_stats: the MAC's wrapping statistics counters.
//
// Counts the one-cycle status strobes of eth_mac_tx (in the tx_clk domain) and
// eth_mac_rx (in the rx_clk domain); each counter lives and is read in its own domain.
//
// Ports: tx_clk, tx_rst, stat_tx_* in; rx_clk, rx_rst, stat_rx_* in;
// cnt_tx_frames, cnt_tx_bytes, cnt_tx_underflow, cnt_tx_abort (tx_clk domain);
// cnt_rx_frames, cnt_rx_bytes, cnt_rx_bad_fcs, cnt_rx_runt, cnt_rx_oversize,
// cnt_rx_er (rx_clk domain). Bytes counters add the frame's length (FCS included).
// Parameters: CNT_W (1..32): each counter is CNT_W bits wide and wraps at 2^CNT_W; the
// ports stay 32 bits with the bits above CNT_W zero (synthesis removes them).
// cnt_ev[9:0], cnt_ev_len[31:0]: the counters' event strobes, one bit per cnt_* port in
//   port order (bit 0 cnt_tx_frames .. bit 9 cnt_rx_er; bits 0-3 in tx_clk, 4-9 in rx_clk),
//   each high in the cycle before its counter steps (read them while the domain's reset
//   is low), for counters kept elsewhere (stat_counters); CNT_W may then be 1. The bytes
//   counters' strobes (bits 1 and 5) add a value: the frame's length, cnt_ev_len[15:0]
//   (tx) and cnt_ev_len[31:16] (rx), valid with them.
// Latency: a counter shows a strobe 1 cycle after it; the receive error counters
// (bad_fcs, runt, oversize, er) 2 cycles after (their strobes are registered first).
module eth_mac_stats #(
    parameter integer CNT_W = 32
) (
    input  wire        tx_clk,
    input  wire        tx_rst,
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

    output reg  [31:0] cnt_tx_frames,
    output reg  [31:0] cnt_tx_bytes,
    output reg  [31:0] cnt_tx_underflow,
    output reg  [31:0] cnt_tx_abort,
    output reg  [31:0] cnt_rx_frames,
    output reg  [31:0] cnt_rx_bytes,
    output reg  [31:0] cnt_rx_bad_fcs,
    output reg  [31:0] cnt_rx_runt,
    output reg  [31:0] cnt_rx_oversize,
    output reg  [31:0] cnt_rx_er,
    output wire [9:0]  cnt_ev,
    output wire [31:0] cnt_ev_len
);
    // the counter bits: those above CNT_W load 0 and are never anything else
    localparam [31:0] MASK = (CNT_W >= 32) ? 32'hFFFFFFFF : ((32'd1 << CNT_W) - 32'd1);

    // c + a, wrapped at 2^CNT_W
    function [31:0] add;
        input [31:0] c;
        input [15:0] a;
        add = (c + {16'd0, a}) & MASK;
    endfunction

    always @(posedge tx_clk) begin
        if (tx_rst) begin
            cnt_tx_frames <= 32'd0;
            cnt_tx_bytes <= 32'd0;
            cnt_tx_underflow <= 32'd0;
            cnt_tx_abort <= 32'd0;
        end else begin
            if (stat_tx_frame) begin
                cnt_tx_frames <= add(cnt_tx_frames, 16'd1);
                cnt_tx_bytes <= add(cnt_tx_bytes, stat_tx_bytes);
            end
            if (stat_tx_underflow) cnt_tx_underflow <= add(cnt_tx_underflow, 16'd1);
            if (stat_tx_abort) cnt_tx_abort <= add(cnt_tx_abort, 16'd1);
        end
    end

    // The receive error strobes are decoded from several registers of eth_mac_rx (up to
    // seven inputs): one register stage here keeps that decode apart from the counters'
    // enables and carry chains. Their counters show them 2 cycles after the strobe.
    reg  bad_fcs_q, runt_q, oversize_q, er_q;

    assign cnt_ev = {er_q, oversize_q, runt_q, bad_fcs_q, stat_rx_frame, stat_rx_frame,
                     stat_tx_abort, stat_tx_underflow, stat_tx_frame, stat_tx_frame};
    assign cnt_ev_len = {stat_rx_bytes, stat_tx_bytes};

    always @(posedge rx_clk) begin
        bad_fcs_q <= stat_rx_bad_fcs && !rx_rst;
        runt_q <= stat_rx_runt && !rx_rst;
        oversize_q <= stat_rx_oversize && !rx_rst;
        er_q <= stat_rx_er && !rx_rst;
    end

    always @(posedge rx_clk) begin
        if (rx_rst) begin
            cnt_rx_frames <= 32'd0;
            cnt_rx_bytes <= 32'd0;
            cnt_rx_bad_fcs <= 32'd0;
            cnt_rx_runt <= 32'd0;
            cnt_rx_oversize <= 32'd0;
            cnt_rx_er <= 32'd0;
        end else begin
            if (stat_rx_frame) begin
                cnt_rx_frames <= add(cnt_rx_frames, 16'd1);
                cnt_rx_bytes <= add(cnt_rx_bytes, stat_rx_bytes);
            end
            if (bad_fcs_q) cnt_rx_bad_fcs <= add(cnt_rx_bad_fcs, 16'd1);
            if (runt_q) cnt_rx_runt <= add(cnt_rx_runt, 16'd1);
            if (oversize_q) cnt_rx_oversize <= add(cnt_rx_oversize, 16'd1);
            if (er_q) cnt_rx_er <= add(cnt_rx_er, 16'd1);
        end
    end
endmodule
`default_nettype wire
