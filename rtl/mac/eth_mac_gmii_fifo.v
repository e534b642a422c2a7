`default_nettype none
// eth_mac_gmii_fifo: the GMII MAC (eth_mac_gmii) with clock-domain-crossing FIFOs, so
// the whole user side, its configuration and its counters live in the stack clock clk.
//
//   s_axis (clk) -> TX frame FIFO (axis_async_fifo) -> axis_pipe -> eth_mac_gmii TX
//                                                                    (gmii_tx_clk)
//   eth_mac_gmii RX (gmii_rx_clk) -> RX frame FIFO (axis_async_fifo) -> m_axis (clk)
//
// TX: the FIFO is a frame FIFO, so a frame reaches the MAC only once it is whole and the
// MAC never underflows, whatever clk is. A frame with s_axis_tuser on its last beat is
// dropped in the FIFO (nothing goes on the wire), as is a frame longer than TX_DEPTH
// bytes; both count in cnt_tx_fifo_drop. The input is back-pressured while the FIFO is
// full.
// RX: the MAC cannot wait, so the FIFO drops a frame that does not fit (whole: nothing
// of it comes out), counted in cnt_rx_fifo_drop. With RX_DROP_BAD_FRAME = 1 frames the
// MAC marks bad (FCS, runt, oversize, rx_er) are dropped in the FIFO too, so m_axis only
// ever carries good frames (they stay counted by the MAC's counters); with 0 they come
// out with m_axis_tuser = 1 on the last beat. Frames come out back to back, never
// paused inside a frame.
// A reset of any one domain keeps frames whole on the others (see axis_async_fifo): an
// RX frame cut by a reset is dropped or, if already going out, ends with tuser = 1.
//
// Interfaces:
//   clk, rst                 stack clock and its synchronous reset
//   gmii_tx_clk, gmii_tx_rst GMII transmit clock (125 MHz) and its synchronous reset
//   gmii_rx_clk, gmii_rx_rst GMII receive clock (from the PHY) and its synchronous reset
//   s_axis_t{data[7:0],valid,ready,last,user}    frames to send, no FCS (clk)
//   m_axis_t{data[7:0],valid,ready,last,user}    frames received, no FCS (clk)
//   gmii_txd[7:0], gmii_tx_en, gmii_tx_er        to the PHY (gmii_tx_clk)
//   gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er        from the PHY (gmii_rx_clk)
//   cfg_ifg[7:0], cfg_max_len[15:0]              MAC configuration (clk; see docs/mac.md)
//   cnt_tx_frames, cnt_tx_bytes, cnt_tx_underflow, cnt_tx_abort, cnt_rx_frames,
//   cnt_rx_bytes, cnt_rx_bad_fcs, cnt_rx_runt, cnt_rx_oversize, cnt_rx_er
//                            the MAC's counters (docs/mac.md), carried into clk
//   cnt_rx_fifo_drop         RX frames dropped for lack of room in the RX FIFO
//   cnt_tx_fifo_drop         TX frames dropped by the TX FIFO (tuser, or oversize)
// All cnt_* are 32-bit outputs in clk, CNT_W-bit counters wrapping at 2^CNT_W (the
// bits above CNT_W are zero); each is reset by the reset of the
// domain it counts in (cnt_tx_fifo_drop: rst; cnt_rx_fifo_drop and the RX counters:
// gmii_rx_rst; the TX counters: gmii_tx_rst) and follows its source a few cycles
// behind. Configuration reaches the MAC a few cycles after it changes; a reset of the
// MAC's domain restarts it from 12 (IFG) and 1518 (max length) until the value arrives.
// Hold each reset at least 4 cycles of the slowest clock.
// Latency: TX, a frame's last beat on s_axis to its first preamble byte on gmii_txd: about
//   7 gmii_tx_clk cycles plus 1 clk; RX, the MAC's (docs/mac.md) plus, from the frame's
//   end, about 6 clk cycles (the RX FIFO is a frame FIFO).
// Parameters: TX_DEPTH, RX_DEPTH (FIFO bytes, powers of two; TX_DEPTH is the largest
//   frame that can be sent; 2048 holds a 1518-byte frame and keeps each FIFO in one
//   row of iCE40 block RAMs, deeper ones cascade and run slower), RX_DROP_BAD_FRAME (0/1),
//   CNT_W (counter width, 1..32; default 32: narrower counters also narrow the
//   counter crossings).
module eth_mac_gmii_fifo #(
    parameter TX_DEPTH          = 2048,
    parameter RX_DEPTH          = 2048,
    parameter RX_DROP_BAD_FRAME = 1,
    parameter integer CNT_W     = 32
) (
    input wire clk,
    input wire rst,
    input wire gmii_tx_clk,
    input wire gmii_tx_rst,
    input wire gmii_rx_clk,
    input wire gmii_rx_rst,

    input  wire [7:0] s_axis_tdata,
    input  wire       s_axis_tvalid,
    output wire       s_axis_tready,
    input  wire       s_axis_tlast,
    input  wire       s_axis_tuser,

    output wire [7:0] m_axis_tdata,
    output wire       m_axis_tvalid,
    input  wire       m_axis_tready,
    output wire       m_axis_tlast,
    output wire       m_axis_tuser,

    output wire [7:0] gmii_txd,
    output wire       gmii_tx_en,
    output wire       gmii_tx_er,
    input  wire [7:0] gmii_rxd,
    input  wire       gmii_rx_dv,
    input  wire       gmii_rx_er,

    input wire [ 7:0] cfg_ifg,
    input wire [15:0] cfg_max_len,

    output wire [31:0] cnt_tx_frames,
    output wire [31:0] cnt_tx_bytes,
    output wire [31:0] cnt_tx_underflow,
    output wire [31:0] cnt_tx_abort,
    output wire [31:0] cnt_rx_frames,
    output wire [31:0] cnt_rx_bytes,
    output wire [31:0] cnt_rx_bad_fcs,
    output wire [31:0] cnt_rx_runt,
    output wire [31:0] cnt_rx_oversize,
    output wire [31:0] cnt_rx_er,
    output wire [31:0] cnt_rx_fifo_drop,
    output reg  [31:0] cnt_tx_fifo_drop
);

    // ------------------------------------------------------------------ MAC
    wire [7:0] mac_tx_tdata;
    wire mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;
    wire [7:0] mac_rx_tdata;
    wire mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
    wire [7:0] ifg_tx;
    wire [15:0] max_len_rx;
    wire [31:0] tx_frames, tx_bytes, tx_underflow, tx_abort;
    wire [31:0] rx_frames, rx_bytes, rx_bad_fcs, rx_runt, rx_oversize, rx_er;

    /* verilator lint_off PINCONNECTEMPTY */
    eth_mac_gmii #(
        .CNT_W(CNT_W)
    ) u_mac (
        .tx_clk          (gmii_tx_clk),
        .tx_rst          (gmii_tx_rst),
        .rx_clk          (gmii_rx_clk),
        .rx_rst          (gmii_rx_rst),
        .s_axis_tdata    (mac_tx_tdata),
        .s_axis_tvalid   (mac_tx_tvalid),
        .s_axis_tready   (mac_tx_tready),
        .s_axis_tlast    (mac_tx_tlast),
        .s_axis_tuser    (mac_tx_tuser),
        .m_axis_tdata    (mac_rx_tdata),
        .m_axis_tvalid   (mac_rx_tvalid),
        .m_axis_tlast    (mac_rx_tlast),
        .m_axis_tuser    (mac_rx_tuser),
        .gmii_txd        (gmii_txd),
        .gmii_tx_en      (gmii_tx_en),
        .gmii_tx_er      (gmii_tx_er),
        .gmii_rxd        (gmii_rxd),
        .gmii_rx_dv      (gmii_rx_dv),
        .gmii_rx_er      (gmii_rx_er),
        .cfg_ifg         (ifg_tx),
        .cfg_max_len     (max_len_rx),
        .cnt_tx_frames   (tx_frames),
        .cnt_tx_bytes    (tx_bytes),
        .cnt_tx_underflow(tx_underflow),
        .cnt_tx_abort    (tx_abort),
        .cnt_rx_frames   (rx_frames),
        .cnt_rx_bytes    (rx_bytes),
        .cnt_rx_bad_fcs  (rx_bad_fcs),
        .cnt_rx_runt     (rx_runt),
        .cnt_rx_oversize (rx_oversize),
        .cnt_rx_er       (rx_er),
        .cnt_ev          (),  // the counters are brought to clk here (no strobes exported)
        .cnt_ev_len      ()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ------------------------------------------------------------------ TX FIFO
    wire [7:0] fifo_tx_tdata;
    wire fifo_tx_tkeep, fifo_tx_tvalid, fifo_tx_tready, fifo_tx_tlast, fifo_tx_tuser;
    wire tx_keep_unused;
    wire tx_overflow_unused, tx_good_unused;
    wire tx_drop_bad, tx_drop_full;

    axis_async_fifo #(
        .DATA_W        (8),
        .DEPTH         (TX_DEPTH),
        .FRAME_FIFO    (1),
        .DROP_BAD_FRAME(1),
        .DROP_WHEN_FULL(0)
    ) u_tx_fifo (
        .s_clk              (clk),
        .s_rst              (rst),
        .s_axis_tdata       (s_axis_tdata),
        .s_axis_tkeep       (1'b1),
        .s_axis_tvalid      (s_axis_tvalid),
        .s_axis_tready      (s_axis_tready),
        .s_axis_tlast       (s_axis_tlast),
        .s_axis_tuser       (s_axis_tuser),
        .m_clk              (gmii_tx_clk),
        .m_rst              (gmii_tx_rst),
        .m_axis_tdata       (fifo_tx_tdata),
        .m_axis_tkeep       (fifo_tx_tkeep),
        .m_axis_tvalid      (fifo_tx_tvalid),
        .m_axis_tready      (fifo_tx_tready),
        .m_axis_tlast       (fifo_tx_tlast),
        .m_axis_tuser       (fifo_tx_tuser),
        .s_status_overflow  (tx_overflow_unused),
        .s_status_drop_bad  (tx_drop_bad),
        .s_status_drop_full (tx_drop_full),
        .s_status_good_frame(tx_good_unused)
    );

    // A register slice between the FIFO's RAM and the MAC's FCS logic.
    axis_pipe #(
        .DATA_W(8)
    ) u_tx_pipe (
        .clk          (gmii_tx_clk),
        .rst          (gmii_tx_rst),
        .s_axis_tdata (fifo_tx_tdata),
        .s_axis_tkeep (fifo_tx_tkeep),
        .s_axis_tvalid(fifo_tx_tvalid),
        .s_axis_tready(fifo_tx_tready),
        .s_axis_tlast (fifo_tx_tlast),
        .s_axis_tuser (fifo_tx_tuser),
        .m_axis_tdata (mac_tx_tdata),
        .m_axis_tkeep (tx_keep_unused),
        .m_axis_tvalid(mac_tx_tvalid),
        .m_axis_tready(mac_tx_tready),
        .m_axis_tlast (mac_tx_tlast),
        .m_axis_tuser (mac_tx_tuser)
    );

    // the FIFO drop counters wrap at 2^CNT_W like the MAC's (bits above CNT_W stay 0)
    localparam [31:0] CNT_MASK = (CNT_W >= 32) ? 32'hFFFFFFFF : ((32'd1 << CNT_W) - 32'd1);

    always @(posedge clk) begin
        if (rst) cnt_tx_fifo_drop <= 32'd0;
        else if (tx_drop_bad || tx_drop_full)
            cnt_tx_fifo_drop <= (cnt_tx_fifo_drop + 32'd1) & CNT_MASK;
    end

    // ------------------------------------------------------------------ RX FIFO
    // The MAC has no tready: a beat offered while the FIFO is not ready (only while it
    // is in reset) is lost, so the rest of that frame is not passed on, except its last
    // beat, marked bad, which closes the frame for the FIFO either way.
    reg  rx_lost;
    wire rx_ready;
    wire rx_in_valid = mac_rx_tvalid && (!rx_lost || mac_rx_tlast);
    wire rx_in_user = mac_rx_tuser || rx_lost;

    always @(posedge gmii_rx_clk) begin
        if (gmii_rx_rst) rx_lost <= 1'b0;
        else if (mac_rx_tvalid && mac_rx_tlast) rx_lost <= 1'b0;
        else if (mac_rx_tvalid && !rx_ready) rx_lost <= 1'b1;
    end

    wire rx_keep_unused;
    wire rx_overflow_unused, rx_drop_bad_unused, rx_good_unused;
    wire rx_drop_full;
    reg [31:0] rx_fifo_drop;

    axis_async_fifo #(
        .DATA_W        (8),
        .DEPTH         (RX_DEPTH),
        .FRAME_FIFO    (1),
        .DROP_BAD_FRAME(RX_DROP_BAD_FRAME),
        .DROP_WHEN_FULL(1)
    ) u_rx_fifo (
        .s_clk              (gmii_rx_clk),
        .s_rst              (gmii_rx_rst),
        .s_axis_tdata       (mac_rx_tdata),
        .s_axis_tkeep       (1'b1),
        .s_axis_tvalid      (rx_in_valid),
        .s_axis_tready      (rx_ready),
        .s_axis_tlast       (mac_rx_tlast),
        .s_axis_tuser       (rx_in_user),
        .m_clk              (clk),
        .m_rst              (rst),
        .m_axis_tdata       (m_axis_tdata),
        .m_axis_tkeep       (rx_keep_unused),
        .m_axis_tvalid      (m_axis_tvalid),
        .m_axis_tready      (m_axis_tready),
        .m_axis_tlast       (m_axis_tlast),
        .m_axis_tuser       (m_axis_tuser),
        .s_status_overflow  (rx_overflow_unused),
        .s_status_drop_bad  (rx_drop_bad_unused),
        .s_status_drop_full (rx_drop_full),
        .s_status_good_frame(rx_good_unused)
    );

    always @(posedge gmii_rx_clk) begin
        if (gmii_rx_rst) rx_fifo_drop <= 32'd0;
        else if (rx_drop_full) rx_fifo_drop <= (rx_fifo_drop + 32'd1) & CNT_MASK;
    end

    // ------------------------------------------------------------------ crossings
    // Each handshake crossing is reset on both sides whenever either domain is reset.
    wire rst_tx, rst_rx, tx_rst_clk, rx_rst_clk;
    sync_reset u_rst_tx (
        .clk(gmii_tx_clk),
        .in (rst),
        .out(rst_tx)
    );
    sync_reset u_rst_rx (
        .clk(gmii_rx_clk),
        .in (rst),
        .out(rst_rx)
    );
    sync_reset u_tx_rst_clk (
        .clk(clk),
        .in (gmii_tx_rst),
        .out(tx_rst_clk)
    );
    sync_reset u_rx_rst_clk (
        .clk(clk),
        .in (gmii_rx_rst),
        .out(rx_rst_clk)
    );
    // registered: they reach the wide registers of the counter crossings
    reg  tx_side_rst;  // in gmii_tx_clk
    reg  rx_side_rst;  // in gmii_rx_clk
    reg  clk_tx_rst;  // in clk
    reg  clk_rx_rst;  // in clk
    always @(posedge gmii_tx_clk) tx_side_rst <= gmii_tx_rst | rst_tx;
    always @(posedge gmii_rx_clk) rx_side_rst <= gmii_rx_rst | rst_rx;
    always @(posedge clk) begin
        clk_tx_rst <= rst | tx_rst_clk;
        clk_rx_rst <= rst | rx_rst_clk;
    end

    wire upd_unused_0, upd_unused_1, upd_unused_2, upd_unused_3;

    // Configuration is quasi-static: the MAC side keeps its value through a stack reset
    // and starts from the defaults after its own.
    sync_bus #(
        .WIDTH(8),
        .INIT (8'd12)
    ) u_cfg_tx (
        .src_clk   (clk),
        .src_rst   (clk_tx_rst),
        .src_data  (cfg_ifg),
        .dst_clk   (gmii_tx_clk),
        .dst_rst   (gmii_tx_rst),
        .dst_data  (ifg_tx),
        .dst_update(upd_unused_0)
    );

    sync_bus #(
        .WIDTH(16),
        .INIT (16'd1518)
    ) u_cfg_rx (
        .src_clk   (clk),
        .src_rst   (clk_rx_rst),
        .src_data  (cfg_max_len),
        .dst_clk   (gmii_rx_clk),
        .dst_rst   (gmii_rx_rst),
        .dst_data  (max_len_rx),
        .dst_update(upd_unused_1)
    );

    sync_bus #(
        .WIDTH(4 * 32)
    ) u_cnt_tx (
        .src_clk   (gmii_tx_clk),
        .src_rst   (tx_side_rst),
        .src_data  ({tx_frames, tx_bytes, tx_underflow, tx_abort}),
        .dst_clk   (clk),
        .dst_rst   (clk_tx_rst),
        .dst_data  ({cnt_tx_frames, cnt_tx_bytes, cnt_tx_underflow, cnt_tx_abort}),
        .dst_update(upd_unused_2)
    );

    sync_bus #(
        .WIDTH(7 * 32)
    ) u_cnt_rx (
        .src_clk(gmii_rx_clk),
        .src_rst(rx_side_rst),
        .src_data({rx_frames, rx_bytes, rx_bad_fcs, rx_runt, rx_oversize, rx_er, rx_fifo_drop}),
        .dst_clk(clk),
        .dst_rst(clk_rx_rst),
        .dst_data({
            cnt_rx_frames,
            cnt_rx_bytes,
            cnt_rx_bad_fcs,
            cnt_rx_runt,
            cnt_rx_oversize,
            cnt_rx_er,
            cnt_rx_fifo_drop
        }),
        .dst_update(upd_unused_3)
    );

endmodule
`default_nettype wire
