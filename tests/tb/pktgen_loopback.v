`default_nettype none
// pktgen_loopback: pktgen feeding seq_sink directly, for self-tests and benchmarks.
//
// The generator's UDP transmit port is connected to the sink's receive port as a
// stack would deliver it (hdr_len, payload, tuser), through two throttles that stand for
// the network between them: a header is transferred only while wire_hdr_ready is high
// (and the sink is ready), a payload beat only while wire_tready is high. A benchmark
// or a board self-test drives them with a model of the line (or ties them high) and
// compares the generator's counts with the sink's: equal counts and no loss, no
// payload error, is a clean run.
//
// Interfaces: the generator's control and configuration (cfg_*), the event strobes of
// both for counters (gen_cnt_ev[1:0], gen_cnt_ev_len: pktgen's; sink_cnt_ev[8:0],
// sink_cnt_ev_len, sink_cnt_ev_lost: seq_sink's), the throttles, and monitors of the
// generator's handshakes (mon_*) so a testbench can count cycles.
//
// Latency: as pktgen (header the cycle after start) plus seq_sink (strobes 2 cycles
// after the last beat).
//
// Parameters: DATA_W (8 or 64), KEEP_W = DATA_W/8.

module pktgen_loopback #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        tick_1ms,

    input  wire        start,
    input  wire        stop,
    output wire        busy,
    input  wire [15:0] cfg_len,
    input  wire [31:0] cfg_count,
    input  wire [31:0] cfg_gap,
    input  wire        cfg_lfsr,
    input  wire [7:0]  cfg_fill,
    input  wire        clear,

    input  wire        wire_hdr_ready,
    input  wire        wire_tready,

    output wire        mon_hdr_valid,
    output wire        mon_hdr_fire,
    output wire        mon_beat_fire,
    output wire        mon_tlast,
    output wire        mon_tvalid,
    output wire [15:0] mon_hdr_len,

    output wire [1:0]  gen_cnt_ev,
    output wire [15:0] gen_cnt_ev_len,
    output wire [8:0]  sink_cnt_ev,
    output wire [16:0] sink_cnt_ev_len,
    output wire [31:0] sink_cnt_ev_lost
);

    wire              g_hdr_valid, s_hdr_ready;
    wire [15:0]       g_hdr_len;
    wire [DATA_W-1:0] g_tdata;
    wire [KEEP_W-1:0] g_tkeep;
    wire              g_tvalid, g_tlast, g_tuser;
    wire              s_tready;

    wire hdr_ready = wire_hdr_ready && s_hdr_ready;
    wire tready    = wire_tready && s_tready;

    /* verilator lint_off UNUSED */
    // Destination fields and status outputs that a loopback does not need.
    wire [47:0] g_dst_mac;
    wire        g_dst_mac_valid;
    wire [31:0] g_dst_ip;
    wire [15:0] g_dst_port, g_src_port, g_csum;
    wire [63:0] g_round, s_expected, s_last_ts;
    /* verilator lint_on UNUSED */

    pktgen #(.DATA_W(DATA_W), .DST_RAM(0)) u_gen (
        .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .ts_in(64'd0), .cyc_in(64'd0),
        .start(start), .stop(stop), .busy(busy),
        .cfg_len(cfg_len), .cfg_count(cfg_count), .cfg_gap(cfg_gap), .cfg_ndst(5'd1),
        .cfg_lfsr(cfg_lfsr), .cfg_fill(cfg_fill), .cfg_ts_ext(1'b0),
        .cfg_src_port(16'd50002), .cfg_warmup_ms(16'd0),
        .cfg_dst_we(1'b0), .cfg_dst_addr(4'd0), .cfg_dst_ip(32'd0), .cfg_dst_port(16'd0),
        .cfg_dst_ip_all({16{32'hC0000201}}), .cfg_dst_port_all({16{16'd50003}}),
        .cnt_ev(gen_cnt_ev), .cnt_ev_len(gen_cnt_ev_len), .status_round(g_round),
        .m_hdr_valid(g_hdr_valid), .m_hdr_ready(hdr_ready),
        .m_hdr_dst_mac(g_dst_mac), .m_hdr_dst_mac_valid(g_dst_mac_valid),
        .m_hdr_dst_ip(g_dst_ip), .m_hdr_dst_port(g_dst_port), .m_hdr_src_port(g_src_port),
        .m_hdr_len(g_hdr_len), .m_hdr_csum(g_csum),
        .m_axis_tdata(g_tdata), .m_axis_tkeep(g_tkeep), .m_axis_tvalid(g_tvalid),
        .m_axis_tready(tready), .m_axis_tlast(g_tlast), .m_axis_tuser(g_tuser)
    );

    seq_sink #(.DATA_W(DATA_W)) u_sink (
        .clk(clk), .rst(rst), .clear(clear),
        .cfg_sync_first(1'b0), .cfg_check(cfg_lfsr ? 2'd1 : 2'd2), .cfg_fill(cfg_fill),
        .s_hdr_valid(g_hdr_valid && wire_hdr_ready), .s_hdr_ready(s_hdr_ready),
        .s_hdr_src_mac(48'h020000000002), .s_hdr_src_ip(32'hC0000202),
        .s_hdr_src_port(16'd50002), .s_hdr_dst_port(16'd50003), .s_hdr_len(g_hdr_len),
        .s_axis_tdata(g_tdata), .s_axis_tkeep(g_tkeep),
        .s_axis_tvalid(g_tvalid && wire_tready), .s_axis_tready(s_tready),
        .s_axis_tlast(g_tlast), .s_axis_tuser(g_tuser),
        .cnt_ev(sink_cnt_ev), .cnt_ev_len(sink_cnt_ev_len), .cnt_ev_lost(sink_cnt_ev_lost),
        .status_expected(s_expected), .status_last_ts(s_last_ts)
    );

    assign mon_hdr_valid = g_hdr_valid;
    assign mon_hdr_fire  = g_hdr_valid && hdr_ready;
    assign mon_beat_fire = g_tvalid && tready;
    assign mon_tlast     = g_tlast;
    assign mon_tvalid    = g_tvalid;
    assign mon_hdr_len   = g_hdr_len;

endmodule
`default_nettype wire
