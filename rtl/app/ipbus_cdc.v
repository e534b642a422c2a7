`default_nettype none
// ipbus_cdc: puts the IPbus target of ipbus_ctrl on its own clock (ctrl_clk) while the
// register file, the memory and the UDP stack stay on clk (ASYNC = 1), or passes
// everything straight through on clk (ASYNC = 0). Every crossing carries each item
// exactly once:
//   UDP port, receive (stack -> target): the header through sync_handshake, the payload
//     through an axis_async_fifo (plain mode) that holds a whole datagram, so a slower
//     target never holds up the stack's receive path;
//   UDP port, transmit (target -> stack): the same the other way;
//   register bus (target -> interconnect): the request (we, addr, wdata) and the answer
//     (ack or err, rdata) each through sync_handshake; one request outstanding, as the
//     bus has it (an answer that comes after the target has given up on its request is
//     dropped if a newer request is already in flight);
//   the target's counter events (ctrl_clk -> clk) through sync_events, bursts included;
//   tick_1ms (clk -> ctrl_clk) through sync_pulse; the allow-list (cfg_allow_*, clk ->
//   ctrl_clk, quasi-static) through sync_bus.
//
// Interfaces (s_/m_ the stack's side, t_ the target's; docs/conventions.md):
//   clk, rst, tick_1ms                         the stack's clock, reset, ms strobe
//   ctrl_clk, ctrl_rst                         the target's clock and reset (ASYNC = 1;
//                                              reset together with rst)
//   s_hdr_*, s_axis_*  (clk)      -> t_rx_hdr_*, t_rx_axis_* (ctrl_clk)   requests
//   t_tx_hdr_*, t_tx_axis_* (ctrl_clk) -> m_hdr_*, m_axis_* (clk)         replies
//   t_reg_* (ctrl_clk, from the target) -> reg_* (clk, to the interconnect)
//   t_ev[15:0] (ctrl_clk) -> ev[15:0] (clk); t_tick_1ms (ctrl_clk)
//   cfg_allow_en, cfg_allow_ip[127:0] (clk) -> t_allow_en, t_allow_ip (ctrl_clk)
// Latency (ASYNC = 1): a few cycles of each clock per crossing: the header about
//   STAGES+2 cycles, the payload the FIFO's 1 + 4 cycles, a register access two
//   handshakes (about 8 cycles of each clock) on top of the slave's; ASYNC = 0: none.
// Parameters (checked; tested values in brackets): DATA_W (8 or 64) [8], KEEP_W =
//   DATA_W/8, ASYNC (0 or 1) [0, 1], FIFO_BYTES (payload FIFOs, a power of two, at least
//   the largest datagram: 2048 holds MAX_BYTES 1472) [2048].
module ipbus_cdc #(
    parameter integer DATA_W     = 8,
    parameter integer KEEP_W     = DATA_W / 8,
    parameter integer ASYNC      = 1,
    parameter         FIFO_BYTES = 2048
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,
    input  wire              ctrl_clk,
    input  wire              ctrl_rst,
    // stack side (clk)
    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_src_mac,
    input  wire [31:0]       s_hdr_src_ip,
    input  wire [15:0]       s_hdr_src_port,
    input  wire [15:0]       s_hdr_dst_port,
    input  wire [15:0]       s_hdr_len,
    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,
    output wire              m_hdr_valid,
    input  wire              m_hdr_ready,
    output wire [47:0]       m_hdr_dst_mac,
    output wire              m_hdr_dst_mac_valid,
    output wire [31:0]       m_hdr_dst_ip,
    output wire [15:0]       m_hdr_dst_port,
    output wire [15:0]       m_hdr_src_port,
    output wire [15:0]       m_hdr_len,
    output wire [15:0]       m_hdr_csum,
    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,
    output wire              reg_req,
    output wire              reg_we,
    output wire [31:0]       reg_addr,
    output wire [31:0]       reg_wdata,
    input  wire              reg_ack,
    input  wire              reg_err,
    input  wire [31:0]       reg_rdata,
    output wire [15:0]       ev,
    input  wire              cfg_allow_en,
    input  wire [127:0]      cfg_allow_ip,
    // target side (ctrl_clk)
    output wire              t_tick_1ms,
    output wire              t_rx_hdr_valid,
    input  wire              t_rx_hdr_ready,
    output wire [47:0]       t_rx_hdr_src_mac,
    output wire [31:0]       t_rx_hdr_src_ip,
    output wire [15:0]       t_rx_hdr_src_port,
    output wire [15:0]       t_rx_hdr_dst_port,
    output wire [15:0]       t_rx_hdr_len,
    output wire [DATA_W-1:0] t_rx_axis_tdata,
    output wire [KEEP_W-1:0] t_rx_axis_tkeep,
    output wire              t_rx_axis_tvalid,
    input  wire              t_rx_axis_tready,
    output wire              t_rx_axis_tlast,
    output wire              t_rx_axis_tuser,
    input  wire              t_tx_hdr_valid,
    output wire              t_tx_hdr_ready,
    input  wire [47:0]       t_tx_hdr_dst_mac,
    input  wire              t_tx_hdr_dst_mac_valid,
    input  wire [31:0]       t_tx_hdr_dst_ip,
    input  wire [15:0]       t_tx_hdr_dst_port,
    input  wire [15:0]       t_tx_hdr_src_port,
    input  wire [15:0]       t_tx_hdr_len,
    input  wire [15:0]       t_tx_hdr_csum,
    input  wire [DATA_W-1:0] t_tx_axis_tdata,
    input  wire [KEEP_W-1:0] t_tx_axis_tkeep,
    input  wire              t_tx_axis_tvalid,
    output wire              t_tx_axis_tready,
    input  wire              t_tx_axis_tlast,
    input  wire              t_tx_axis_tuser,
    input  wire              t_reg_req,
    input  wire              t_reg_we,
    input  wire [31:0]       t_reg_addr,
    input  wire [31:0]       t_reg_wdata,
    output wire              t_reg_ack,
    output wire              t_reg_err,
    output wire [31:0]       t_reg_rdata,
    input  wire [15:0]       t_ev,
    output wire              t_allow_en,
    output wire [127:0]      t_allow_ip
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            ipbus_cdc_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter
        end
        if (ASYNC != 0 && ASYNC != 1) begin : g_check_async
            ipbus_cdc_ASYNC_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam integer RXH_W = 48 + 32 + 16 + 16 + 16;
    localparam integer TXH_W = 48 + 1 + 32 + 16 + 16 + 16 + 16;
    wire [RXH_W-1:0] rx_hdr_s = {s_hdr_src_mac, s_hdr_src_ip, s_hdr_src_port,
                                 s_hdr_dst_port, s_hdr_len};
    wire [RXH_W-1:0] rx_hdr_t;
    wire [TXH_W-1:0] tx_hdr_t = {t_tx_hdr_dst_mac, t_tx_hdr_dst_mac_valid, t_tx_hdr_dst_ip,
                                 t_tx_hdr_dst_port, t_tx_hdr_src_port, t_tx_hdr_len,
                                 t_tx_hdr_csum};
    wire [TXH_W-1:0] tx_hdr_m;
    assign {t_rx_hdr_src_mac, t_rx_hdr_src_ip, t_rx_hdr_src_port, t_rx_hdr_dst_port,
            t_rx_hdr_len} = rx_hdr_t;
    assign {m_hdr_dst_mac, m_hdr_dst_mac_valid, m_hdr_dst_ip, m_hdr_dst_port, m_hdr_src_port,
            m_hdr_len, m_hdr_csum} = tx_hdr_m;

    generate
        if (ASYNC == 0) begin : g_sync
            assign t_tick_1ms = tick_1ms;
            assign t_rx_hdr_valid = s_hdr_valid;
            assign s_hdr_ready = t_rx_hdr_ready;
            assign rx_hdr_t = rx_hdr_s;
            assign t_rx_axis_tdata = s_axis_tdata;
            assign t_rx_axis_tkeep = s_axis_tkeep;
            assign t_rx_axis_tvalid = s_axis_tvalid;
            assign s_axis_tready = t_rx_axis_tready;
            assign t_rx_axis_tlast = s_axis_tlast;
            assign t_rx_axis_tuser = s_axis_tuser;
            assign m_hdr_valid = t_tx_hdr_valid;
            assign t_tx_hdr_ready = m_hdr_ready;
            assign tx_hdr_m = tx_hdr_t;
            assign m_axis_tdata = t_tx_axis_tdata;
            assign m_axis_tkeep = t_tx_axis_tkeep;
            assign m_axis_tvalid = t_tx_axis_tvalid;
            assign t_tx_axis_tready = m_axis_tready;
            assign m_axis_tlast = t_tx_axis_tlast;
            assign m_axis_tuser = t_tx_axis_tuser;
            assign reg_req = t_reg_req;
            assign reg_we = t_reg_we;
            assign reg_addr = t_reg_addr;
            assign reg_wdata = t_reg_wdata;
            assign t_reg_ack = reg_ack;
            assign t_reg_err = reg_err;
            assign t_reg_rdata = reg_rdata;
            assign ev = t_ev;
            assign t_allow_en = cfg_allow_en;
            assign t_allow_ip = cfg_allow_ip;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_ctrl = &{1'b0, ctrl_clk, ctrl_rst, clk, rst};
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_async
            localparam DEPTH = FIFO_BYTES / KEEP_W;

            sync_pulse u_tick (
                .src_clk(clk), .src_rst(rst), .src_pulse(tick_1ms),
                .dst_clk(ctrl_clk), .dst_rst(ctrl_rst), .dst_pulse(t_tick_1ms)
            );

            // UDP port, receive: header and payload
            sync_handshake #(.WIDTH(RXH_W)) u_rx_hdr (
                .src_clk(clk), .src_rst(rst), .src_data(rx_hdr_s), .src_valid(s_hdr_valid),
                .src_ready(s_hdr_ready),
                .dst_clk(ctrl_clk), .dst_rst(ctrl_rst), .dst_data(rx_hdr_t),
                .dst_valid(t_rx_hdr_valid), .dst_ready(t_rx_hdr_ready)
            );
            /* verilator lint_off PINCONNECTEMPTY */
            axis_async_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(DEPTH)) u_rx_fifo (
                .s_clk(clk), .s_rst(rst),
                .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
                .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
                .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
                .m_clk(ctrl_clk), .m_rst(ctrl_rst),
                .m_axis_tdata(t_rx_axis_tdata), .m_axis_tkeep(t_rx_axis_tkeep),
                .m_axis_tvalid(t_rx_axis_tvalid), .m_axis_tready(t_rx_axis_tready),
                .m_axis_tlast(t_rx_axis_tlast), .m_axis_tuser(t_rx_axis_tuser),
                .s_status_overflow(), .s_status_drop_bad(), .s_status_drop_full(),
                .s_status_good_frame()
            );

            // UDP port, transmit: header and payload
            sync_handshake #(.WIDTH(TXH_W)) u_tx_hdr (
                .src_clk(ctrl_clk), .src_rst(ctrl_rst), .src_data(tx_hdr_t),
                .src_valid(t_tx_hdr_valid), .src_ready(t_tx_hdr_ready),
                .dst_clk(clk), .dst_rst(rst), .dst_data(tx_hdr_m), .dst_valid(m_hdr_valid),
                .dst_ready(m_hdr_ready)
            );
            axis_async_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(DEPTH)) u_tx_fifo (
                .s_clk(ctrl_clk), .s_rst(ctrl_rst),
                .s_axis_tdata(t_tx_axis_tdata), .s_axis_tkeep(t_tx_axis_tkeep),
                .s_axis_tvalid(t_tx_axis_tvalid), .s_axis_tready(t_tx_axis_tready),
                .s_axis_tlast(t_tx_axis_tlast), .s_axis_tuser(t_tx_axis_tuser),
                .m_clk(clk), .m_rst(rst),
                .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
                .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
                .s_status_overflow(), .s_status_drop_bad(), .s_status_drop_full(),
                .s_status_good_frame()
            );
            /* verilator lint_on PINCONNECTEMPTY */

            // register bus: the request one way, the answer the other; both sides take
            // their strobe at once (ready = 1)
            wire        req_valid, ans_valid, ans_err;
            wire [64:0] req_data;
            /* verilator lint_off PINCONNECTEMPTY */
            sync_handshake #(.WIDTH(65)) u_req (
                .src_clk(ctrl_clk), .src_rst(ctrl_rst),
                .src_data({t_reg_we, t_reg_addr, t_reg_wdata}), .src_valid(t_reg_req),
                .src_ready(),
                .dst_clk(clk), .dst_rst(rst), .dst_data(req_data), .dst_valid(req_valid),
                .dst_ready(1'b1)
            );
            sync_handshake #(.WIDTH(33)) u_ans (
                .src_clk(clk), .src_rst(rst), .src_data({reg_err, reg_rdata}),
                .src_valid(reg_ack || reg_err), .src_ready(),
                .dst_clk(ctrl_clk), .dst_rst(ctrl_rst), .dst_data({ans_err, t_reg_rdata}),
                .dst_valid(ans_valid), .dst_ready(1'b1)
            );
            /* verilator lint_on PINCONNECTEMPTY */
            assign reg_req = req_valid;
            assign {reg_we, reg_addr, reg_wdata} = req_data;
            assign t_reg_ack = ans_valid && !ans_err;
            assign t_reg_err = ans_valid && ans_err;

            sync_events #(.WIDTH(16)) u_ev (
                .src_clk(ctrl_clk), .src_rst(ctrl_rst), .src_ev(t_ev),
                .dst_clk(clk), .dst_rst(rst), .dst_ev(ev)
            );

            /* verilator lint_off PINCONNECTEMPTY */
            sync_bus #(.WIDTH(129)) u_allow (
                .src_clk(clk), .src_rst(rst), .src_data({cfg_allow_en, cfg_allow_ip}),
                .dst_clk(ctrl_clk), .dst_rst(ctrl_rst), .dst_data({t_allow_en, t_allow_ip}),
                .dst_update()
            );
            /* verilator lint_on PINCONNECTEMPTY */
        end
    endgenerate
endmodule
`default_nettype wire
