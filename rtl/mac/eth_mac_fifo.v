`default_nettype none
// eth_mac_fifo: clock-domain-crossing FIFOs and event crossings for a MAC with separate
// transmit and receive clocks (eth_mac_gmii, eth_mac_rgmii), so the MAC's whole user side,
// its configuration and its event strobes live in the stack clock clk. eth_mac_gmii_fifo
// is eth_mac_gmii behind it; a board with an RGMII PHY puts eth_mac_rgmii behind it.
//
//   s_axis (clk) -> TX frame FIFO (axis_async_fifo) -> axis_pipe -> mac_tx_* (tx_clk)
//   mac_rx_* (rx_clk) -> RX frame FIFO (axis_async_fifo) -> m_axis (clk)
//
// TX: the FIFO is a frame FIFO, so a frame reaches the MAC only once it is whole and the
// MAC never underflows, whatever clk is. A frame with s_axis_tuser on its last beat is
// dropped in the FIFO (nothing goes on the wire), as is a frame longer than TX_DEPTH
// bytes; both are counted (cnt_ev bit 11). The input is back-pressured while the FIFO is
// full.
// RX: the MAC cannot wait, so the FIFO drops a frame that does not fit (whole: nothing
// of it comes out), counted (cnt_ev bit 10). With RX_DROP_BAD_FRAME = 1 frames the
// MAC marks bad (FCS, runt, oversize, rx_er) are dropped in the FIFO too, so m_axis only
// ever carries good frames (they stay counted by the MAC's strobes); with 0 they come
// out with m_axis_tuser = 1 on the last beat. Frames come out back to back, never
// paused inside a frame.
// A reset of any one domain keeps frames whole on the others (see axis_async_fifo): an
// RX frame cut by a reset is dropped or, if already going out, ends with tuser = 1.
//
// Interfaces:
//   clk, rst                 stack clock and its synchronous reset
//   tx_clk, tx_rst           the MAC's transmit clock and its synchronous reset
//   rx_clk, rx_rst           the MAC's receive clock and its synchronous reset
//   s_axis_t{data[7:0],valid,ready,last,user}    frames to send, no FCS (clk)
//   m_axis_t{data[7:0],valid,ready,last,user}    frames received, no FCS (clk)
//   mac_tx_t{data[7:0],valid,ready,last,user}    to the MAC's transmitter (tx_clk)
//   mac_rx_t{data[7:0],valid,last,user}          from the MAC's receiver, no tready (rx_clk)
//   mac_cfg_ifg[7:0] (tx_clk), mac_cfg_max_len[15:0] (rx_clk)   to the MAC
//   mac_ev[9:0], mac_ev_len[31:0]   the MAC's event strobes (eth_mac_gmii's: 0-3 in
//                            tx_clk, 4-9 in rx_clk) and frame lengths
//   cfg_ifg[7:0], cfg_max_len[15:0]              MAC configuration (clk; see docs/mac.md)
//   cnt_ev[11:0], cnt_ev_len[31:0]  event strobes in clk, one cycle each, for counters
//                            kept in stat_counters: bits 0-9 the MAC's (0 tx_frames,
//                            1 tx_bytes, 2 tx_underflow, 3 tx_abort, 4 rx_frames,
//                            5 rx_bytes, 6 rx_bad_fcs, 7 rx_runt, 8 rx_oversize, 9 rx_er),
//                            carried into clk, 10 rx_fifo_drop (RX frames dropped for
//                            lack of room in the RX FIFO), 11 tx_fifo_drop (TX frames
//                            dropped by the TX FIFO: tuser, or oversize); the frame
//                            lengths of bits 1 and 5: [15:0] and [31:16] (FCS included),
//                            valid with them.
// The MAC's strobes and the RX FIFO's drops cross into clk one by one (sync_pulse, the
// length held in the PHY domain from the frame's end until the next frame's): each kind
// of event must come at most once per 4 cycles of clk. On a link that keeps the 12-byte
// gap a frame and its gap take at least 20 cycles (84 for a frame that carries a length),
// so every event is carried for any clk at or above a quarter of the MAC's clocks; an
// event is lost only if the link breaks that spacing, or in a reset of either domain.
// Configuration reaches the MAC a few cycles after it changes; a reset of the MAC's
// domain restarts it from 12 (IFG) and 1518 (max length) until the value arrives.
// Hold each reset at least 4 cycles of the slowest clock.
// Latency: TX, a frame's last beat on s_axis to its first beat on mac_tx_*: about 6
//   tx_clk cycles plus 1 clk; RX, from the frame's last beat on mac_rx_*, about 6 clk
//   cycles (the RX FIFO is a frame FIFO). A strobe of the MAC's domains reaches cnt_ev 1
//   cycle of its domain plus 3 of clk after it.
// Parameters: TX_DEPTH, RX_DEPTH (checked: FIFO bytes, 1024 or 2048; tested TX 2048, RX 1024
//   and 2048; TX_DEPTH is the largest frame that can be sent, 2048 holds a 1518-byte frame
//   and keeps each FIFO in one row of iCE40 block RAMs), RX_DROP_BAD_FRAME (0/1; 1 tested).
module eth_mac_fifo #(
    parameter TX_DEPTH          = 2048,
    parameter RX_DEPTH          = 2048,
    parameter RX_DROP_BAD_FRAME = 1
) (
    input wire clk,
    input wire rst,
    input wire tx_clk,
    input wire tx_rst,
    input wire rx_clk,
    input wire rx_rst,

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

    output wire [7:0] mac_tx_tdata,
    output wire       mac_tx_tvalid,
    input  wire       mac_tx_tready,
    output wire       mac_tx_tlast,
    output wire       mac_tx_tuser,
    input  wire [7:0] mac_rx_tdata,
    input  wire       mac_rx_tvalid,
    input  wire       mac_rx_tlast,
    input  wire       mac_rx_tuser,
    output wire [ 7:0] mac_cfg_ifg,
    output wire [15:0] mac_cfg_max_len,
    // bits 1 and 5 (the bytes strobes) repeat bits 0 and 4
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [ 9:0] mac_ev,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [31:0] mac_ev_len,

    input wire [ 7:0] cfg_ifg,
    input wire [15:0] cfg_max_len,

    output wire [11:0] cnt_ev,
    output wire [31:0] cnt_ev_len
);

    generate
        if (TX_DEPTH != 1024 && TX_DEPTH != 2048) begin : g_check_tx_depth
            eth_mac_fifo_TX_DEPTH_must_be_1024_or_2048 u_error ();  // unsupported parameter (no such module)
        end
        if (RX_DEPTH != 1024 && RX_DEPTH != 2048) begin : g_check_rx_depth
            eth_mac_fifo_RX_DEPTH_must_be_1024_or_2048 u_error ();  // unsupported parameter
        end
    endgenerate

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
        .m_clk              (tx_clk),
        .m_rst              (tx_rst),
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
        .clk          (tx_clk),
        .rst          (tx_rst),
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

    // ------------------------------------------------------------------ RX FIFO
    // The MAC has no tready: a beat offered while the FIFO is not ready (only while it
    // is in reset) is lost, so the rest of that frame is not passed on, except its last
    // beat, marked bad, which closes the frame for the FIFO either way.
    reg  rx_lost_reg;
    wire rx_ready;
    wire rx_in_valid = mac_rx_tvalid && (!rx_lost_reg || mac_rx_tlast);
    wire rx_in_user = mac_rx_tuser || rx_lost_reg;

    always @(posedge rx_clk) begin
        if (rx_rst) rx_lost_reg <= 1'b0;
        else if (mac_rx_tvalid && mac_rx_tlast) rx_lost_reg <= 1'b0;
        else if (mac_rx_tvalid && !rx_ready) rx_lost_reg <= 1'b1;
    end

    wire rx_keep_unused;
    wire rx_overflow_unused, rx_drop_bad_unused, rx_good_unused;
    wire rx_drop_full;

    axis_async_fifo #(
        .DATA_W        (8),
        .DEPTH         (RX_DEPTH),
        .FRAME_FIFO    (1),
        .DROP_BAD_FRAME(RX_DROP_BAD_FRAME),
        .DROP_WHEN_FULL(1)
    ) u_rx_fifo (
        .s_clk              (rx_clk),
        .s_rst              (rx_rst),
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

    // ------------------------------------------------------------------ crossings
    // Each handshake crossing is reset on both sides whenever either domain is reset.
    wire rst_tx, rst_rx, tx_rst_clk, rx_rst_clk;
    sync_reset u_rst_tx (
        .clk(tx_clk),
        .in (rst),
        .out(rst_tx)
    );
    sync_reset u_rst_rx (
        .clk(rx_clk),
        .in (rst),
        .out(rst_rx)
    );
    sync_reset u_tx_rst_clk (
        .clk(clk),
        .in (tx_rst),
        .out(tx_rst_clk)
    );
    sync_reset u_rx_rst_clk (
        .clk(clk),
        .in (rx_rst),
        .out(rx_rst_clk)
    );
    // registered: they reach the event crossings
    reg  tx_side_rst_reg;  // in tx_clk
    reg  rx_side_rst_reg;  // in rx_clk
    reg  clk_tx_rst_reg;  // in clk
    reg  clk_rx_rst_reg;  // in clk
    always @(posedge tx_clk) tx_side_rst_reg <= tx_rst | rst_tx;
    always @(posedge rx_clk) rx_side_rst_reg <= rx_rst | rst_rx;
    always @(posedge clk) begin
        clk_tx_rst_reg <= rst | tx_rst_clk;
        clk_rx_rst_reg <= rst | rx_rst_clk;
    end

    wire upd_unused_0, upd_unused_1;

    // Configuration is quasi-static: the MAC side keeps its value through a stack reset
    // and starts from the defaults after its own.
    sync_bus #(
        .WIDTH(8),
        .INIT (8'd12)
    ) u_cfg_tx (
        .src_clk   (clk),
        .src_rst   (clk_tx_rst_reg),
        .src_data  (cfg_ifg),
        .dst_clk   (tx_clk),
        .dst_rst   (tx_rst),
        .dst_data  (mac_cfg_ifg),
        .dst_update(upd_unused_0)
    );

    sync_bus #(
        .WIDTH(16),
        .INIT (16'd1518)
    ) u_cfg_rx (
        .src_clk   (clk),
        .src_rst   (clk_rx_rst_reg),
        .src_data  (cfg_max_len),
        .dst_clk   (rx_clk),
        .dst_rst   (rx_rst),
        .dst_data  (mac_cfg_max_len),
        .dst_update(upd_unused_1)
    );

    // The events: each kind through its own sync_pulse; the bytes strobes' lengths held in
    // their PHY domain from the frame's end (a frame's length is read in clk a few cycles
    // after it was loaded, and the next frame's comes at least 84 wire cycles later).
    wire [2:0] tx_x = {mac_ev[3:2], mac_ev[0]};  // tx_clk: frames, underflow, abort
    wire [5:0] rx_x = {rx_drop_full, mac_ev[9:6], mac_ev[4]};  // rx_clk
    wire [2:0] tx_x_clk;
    wire [5:0] rx_x_clk;
    genvar gx;
    generate
        for (gx = 0; gx < 3; gx = gx + 1) begin : g_tx_x
            sync_pulse u_sync (
                .src_clk  (tx_clk),
                .src_rst  (tx_side_rst_reg),
                .src_pulse(tx_x[gx]),
                .dst_clk  (clk),
                .dst_rst  (clk_tx_rst_reg),
                .dst_pulse(tx_x_clk[gx])
            );
        end
        for (gx = 0; gx < 6; gx = gx + 1) begin : g_rx_x
            sync_pulse u_sync (
                .src_clk  (rx_clk),
                .src_rst  (rx_side_rst_reg),
                .src_pulse(rx_x[gx]),
                .dst_clk  (clk),
                .dst_rst  (clk_rx_rst_reg),
                .dst_pulse(rx_x_clk[gx])
            );
        end
    endgenerate

    reg [15:0] tx_len_reg;  // tx_clk: the last frame's length
    reg [15:0] rx_len_reg;  // rx_clk
    always @(posedge tx_clk) if (mac_ev[0]) tx_len_reg <= mac_ev_len[15:0];
    always @(posedge rx_clk) if (mac_ev[4]) rx_len_reg <= mac_ev_len[31:16];

    assign cnt_ev = {tx_drop_bad || tx_drop_full, rx_x_clk[5:1], rx_x_clk[0], rx_x_clk[0],
                     tx_x_clk[2:1], tx_x_clk[0], tx_x_clk[0]};
    assign cnt_ev_len = {rx_len_reg, tx_len_reg};

endmodule
`default_nettype wire
