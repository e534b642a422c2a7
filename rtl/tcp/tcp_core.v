`default_nettype none
// tcp_core: the TCP engine: tcp_rx (parse, check, stage), tcp_ctl (sessions, decisions,
// timers), tcp_app_rx / tcp_app_tx (per-session buffers and the application streams) and
// tcp_tx (segments out). docs/tcp.md describes the blocks, the session table and buffers.
//
// Receive input: ip_rx's TCP port (s_hdr_*: src_mac, src_ip, dst_ip, len = IP payload
//   bytes, broadcast; s_axis_*: the IP payload, tuser on the last beat = bad).
// Transmit output m_axis_*: whole Ethernet frames without FCS (into eth_tx_arb).
// Application: m_rx_axis_* (tid = session; m_rx_eof with a tkeep = 0 tlast beat: the
//   peer's FIN after its last byte), s_tx_axis_* (tid = session; s_tx_close on a beat:
//   close after it), s_conn_* (active open: connect from local port s_conn_lport to
//   s_conn_ip:s_conn_port through the next hop s_conn_mac; the session's slot comes
//   with its established event, matched by the ports; no free slot: an aborted event at
//   once), ev_* (tcp_ctl's events: ev_flags bit 0 established, 1 peer closed,
//   2 reset, 3 aborted, 4 closed, with the session and its remote address and ports).
// Configuration: cfg_mac, cfg_ip, cfg_ttl, cfg_df (frames); cfg_listen_port (NUM_LISTEN
//   ports, 0 = none); cfg_mss (our MSS option and segment limit); cfg_rto_init,
//   cfg_rto_min, cfg_rto_max, cfg_max_retries, cfg_time_wait (in tick_1ms ticks);
//   cfg_cc_off (1: no congestion control), cfg_dack_time (delayed-ACK ticks, 0 = at
//   once), cfg_ka_idle/cfg_ka_intvl (keep-alive, seconds; idle 0 = off), cfg_ka_count;
//   cfg_isn_key (128-bit secret of the initial sequence numbers' hash: set it from a random
//   source at start-up).
// cnt_ev (30 bits): [4:0] tcp_rx (segments, bad_len, bad_csum, err_in, broadcast),
//   [21:5] tcp_ctl (its bits 16:0, tcp_ctl's header), [22] tcp_tx frames sent, [23]
//   tcp_app_tx beats dropped (session not open), [29:24] tcp_ctl's bits 22:17 (persist
//   probes, cwnd reductions, delayed ACKs, keep-alive probes, out-of-order segments
//   kept, out-of-order segments dropped with the range table full).
// Parameters: DATA_W (8, tested; 64 is not built yet), KEEP_W = DATA_W/8, NUM_SESS (2 to
//   256; 2, 8, 64 and 256 tested), SID_W = clog2(NUM_SESS), BUF_LOG2 (bytes per session
//   and direction, log2: 9 to 11; 9 and 11 tested), NUM_LISTEN (listening ports, 1 or 2,
//   both tested), CHUNK_LOG2 (a delivery turn's bytes at most, log2: 4 to 8; 4 and 8
//   tested), MAX_HALF_OPEN (sessions in SYN_RCVD at most, 1 to NUM_SESS; the default
//   NUM_SESS/2 tested at each NUM_SESS above), OOO_RANGES (out-of-order ranges kept per
//   session, 1 to 4; 1, 2 and 4 tested). The blocks check the values.
// Options: MSS sent and honoured; window scale (RFC 7323) offered in our SYN with shift 0
//   (max(0, BUF_LOG2 - 16)), in the SYN-ACK when the peer's SYN had it, the peer's shift
//   applied to its windows when both SYNs carried it.
module tcp_core #(
    parameter integer DATA_W     = 8,
    parameter integer KEEP_W     = DATA_W / 8,
    parameter integer NUM_SESS   = 8,
    parameter integer SID_W      = (NUM_SESS > 1) ? $clog2(NUM_SESS) : 1,
    parameter integer BUF_LOG2   = 11,
    parameter integer NUM_LISTEN = 2,
    parameter integer CHUNK_LOG2 = 8,
    parameter integer MAX_HALF_OPEN = (NUM_SESS > 1) ? NUM_SESS / 2 : 1,
    parameter integer OOO_RANGES = 2
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     tick_1ms,
    input  wire [47:0]              cfg_mac,
    input  wire [31:0]              cfg_ip,
    input  wire [7:0]               cfg_ttl,
    input  wire                     cfg_df,
    input  wire [NUM_LISTEN*16-1:0] cfg_listen_port,
    input  wire [15:0]              cfg_mss,
    input  wire [15:0]              cfg_rto_init,
    input  wire [15:0]              cfg_rto_min,
    input  wire [15:0]              cfg_rto_max,
    input  wire [3:0]               cfg_max_retries,
    input  wire [15:0]              cfg_time_wait,
    input  wire                     cfg_cc_off,
    input  wire [9:0]               cfg_dack_time,
    input  wire [15:0]              cfg_ka_idle,
    input  wire [15:0]              cfg_ka_intvl,
    input  wire [3:0]               cfg_ka_count,
    input  wire [127:0]             cfg_isn_key,
    // from ip_rx
    input  wire                     s_hdr_valid,
    output wire                     s_hdr_ready,
    input  wire [47:0]              s_hdr_src_mac,
    input  wire [31:0]              s_hdr_src_ip,
    input  wire [31:0]              s_hdr_dst_ip,
    input  wire [15:0]              s_hdr_len,
    input  wire                     s_hdr_broadcast,
    input  wire [DATA_W-1:0]        s_axis_tdata,
    input  wire [KEEP_W-1:0]        s_axis_tkeep,
    input  wire                     s_axis_tvalid,
    output wire                     s_axis_tready,
    input  wire                     s_axis_tlast,
    input  wire                     s_axis_tuser,
    // frames out
    output wire [DATA_W-1:0]        m_axis_tdata,
    output wire [KEEP_W-1:0]        m_axis_tkeep,
    output wire                     m_axis_tvalid,
    input  wire                     m_axis_tready,
    output wire                     m_axis_tlast,
    output wire                     m_axis_tuser,
    // application
    output wire [DATA_W-1:0]        m_rx_axis_tdata,
    output wire [KEEP_W-1:0]        m_rx_axis_tkeep,
    output wire                     m_rx_axis_tvalid,
    input  wire                     m_rx_axis_tready,
    output wire                     m_rx_axis_tlast,
    output wire [SID_W-1:0]         m_rx_axis_tid,
    output wire                     m_rx_eof,
    input  wire [DATA_W-1:0]        s_tx_axis_tdata,
    input  wire [KEEP_W-1:0]        s_tx_axis_tkeep,
    input  wire                     s_tx_axis_tvalid,
    output wire                     s_tx_axis_tready,
    input  wire                     s_tx_axis_tlast,
    input  wire [SID_W-1:0]         s_tx_axis_tid,
    input  wire                     s_tx_close,
    input  wire                     s_conn_valid,
    output wire                     s_conn_ready,
    input  wire [31:0]              s_conn_ip,
    input  wire [15:0]              s_conn_port,
    input  wire [15:0]              s_conn_lport,
    input  wire [47:0]              s_conn_mac,
    output wire                     ev_valid,
    output wire [4:0]               ev_flags,
    output wire [SID_W-1:0]         ev_sid,
    output wire [31:0]              ev_ip,
    output wire [15:0]              ev_port,
    output wire [15:0]              ev_lport,
    output wire [29:0]              cnt_ev
);
    localparam integer SW    = 11;  // staging ring: 2 KiB, the largest segment

    generate
        if (DATA_W != 8) begin : g_check_data_w
            tcp_core_DATA_W_must_be_8 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            tcp_core_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (SID_W != $clog2(NUM_SESS)) begin : g_check_sid_w
            tcp_core_SID_W_must_be_clog2_NUM_SESS u_error ();
        end
        if (OOO_RANGES < 1 || OOO_RANGES > 4) begin : g_check_ooo_ranges
            tcp_core_OOO_RANGES_must_be_1_to_4 u_error ();
        end
    endgenerate

    // tcp_rx -> tcp_ctl
    wire          seg_valid, seg_ready, seg_ws_valid;
    wire [47:0]   seg_mac;
    wire [31:0]   seg_ip, seg_seq, seg_ack;
    wire [15:0]   seg_sport, seg_dport, seg_wnd, seg_mss, seg_len;
    wire [7:0]    seg_flags;
    wire [3:0]    seg_ws;
    wire [SW-1:0] seg_addr;
    wire          stage_rd_en, seg_release;
    wire [SW-1:0] stage_rd_addr;
    wire [7:0]    stage_rd_data;

    tcp_rx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .STAGE_LOG2(SW)) u_rx (
        .clk(clk), .rst(rst),
        .s_hdr_valid(s_hdr_valid), .s_hdr_ready(s_hdr_ready), .s_hdr_src_mac(s_hdr_src_mac),
        .s_hdr_src_ip(s_hdr_src_ip), .s_hdr_dst_ip(s_hdr_dst_ip), .s_hdr_len(s_hdr_len),
        .s_hdr_broadcast(s_hdr_broadcast),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_seg_valid(seg_valid), .m_seg_ready(seg_ready), .m_seg_src_mac(seg_mac),
        .m_seg_src_ip(seg_ip), .m_seg_src_port(seg_sport), .m_seg_dst_port(seg_dport),
        .m_seg_seq(seg_seq), .m_seg_ack(seg_ack), .m_seg_flags(seg_flags), .m_seg_wnd(seg_wnd),
        .m_seg_mss(seg_mss), .m_seg_wscale_valid(seg_ws_valid), .m_seg_wscale(seg_ws),
        .m_seg_pay_addr(seg_addr), .m_seg_pay_len(seg_len),
        .stage_rd_en(stage_rd_en), .stage_rd_addr(stage_rd_addr), .stage_rd_data(stage_rd_data),
        .seg_release(seg_release), .cnt_ev(cnt_ev[4:0])
    );

    // tcp_ctl <-> the application blocks and tcp_tx
    wire                      rxbuf_wr_en, commit_valid, eof_set, kill_valid, init_valid;
    wire [SID_W+BUF_LOG2-1:0] rxbuf_wr_addr;
    wire [7:0]                rxbuf_wr_data;
    wire [BUF_LOG2:0]         commit_ptr, init_rx_ptr, init_tx_ptr, rxr_rd_ptr, txw_rd_ptr;
    wire [BUF_LOG2:0]         una_wr_ptr;
    wire [SID_W-1:0]          cur_sid, rd_sid, win_sid, svc_sid, close_sid;
    wire                      win_set, una_wr_valid, svc_set, close_set;
    wire                      rx_busy_valid, tx_busy_valid;
    wire [SID_W-1:0]          rx_busy_sid, tx_busy_sid;
    wire [NUM_SESS-1:0]       open_vec;
    wire                      tx_valid, tx_ready, tx_mss_opt, tx_ws_opt;
    // our window shift (RFC 7323): the receive window fits 16 bits up to 64 KiB buffers;
    // the option is still sent so that the peer may scale its own window
    localparam integer WS_SHIFT = (BUF_LOG2 > 16) ? BUF_LOG2 - 16 : 0;
    localparam [3:0]   WS_OURS  = WS_SHIFT[3:0];
    wire [47:0]               tx_mac;
    wire [31:0]               tx_ip, tx_seq, tx_ack;
    wire [15:0]               tx_sport, tx_dport, tx_wnd, tx_len;
    wire [7:0]                tx_flags;
    wire [SID_W-1:0]          tx_sid;
    wire [BUF_LOG2-1:0]       tx_off;
    wire                      txbuf_rd_en;
    wire [SID_W+BUF_LOG2-1:0] txbuf_rd_addr;
    wire [7:0]                txbuf_rd_data;

    tcp_ctl #(
        .NUM_SESS(NUM_SESS), .SID_W(SID_W), .BUF_LOG2(BUF_LOG2), .NUM_LISTEN(NUM_LISTEN),
        .STAGE_LOG2(SW), .MAX_HALF_OPEN(MAX_HALF_OPEN),
        .OOO_RANGES(OOO_RANGES)
    ) u_ctl (
        .clk(clk), .rst(rst), .tick_1ms(tick_1ms),
        .cfg_listen_port(cfg_listen_port), .cfg_mss(cfg_mss), .cfg_rto_init(cfg_rto_init),
        .cfg_rto_min(cfg_rto_min), .cfg_rto_max(cfg_rto_max), .cfg_max_retries(cfg_max_retries),
        .cfg_time_wait(cfg_time_wait), .cfg_cc_off(cfg_cc_off),
        .cfg_dack_time(cfg_dack_time), .cfg_ka_idle(cfg_ka_idle), .cfg_ka_intvl(cfg_ka_intvl),
        .cfg_ka_count(cfg_ka_count), .cfg_isn_key(cfg_isn_key),
        .s_seg_valid(seg_valid), .s_seg_ready(seg_ready), .s_seg_src_mac(seg_mac),
        .s_seg_src_ip(seg_ip), .s_seg_src_port(seg_sport), .s_seg_dst_port(seg_dport),
        .s_seg_seq(seg_seq), .s_seg_ack(seg_ack), .s_seg_flags(seg_flags), .s_seg_wnd(seg_wnd),
        .s_seg_mss(seg_mss), .s_seg_wscale_valid(seg_ws_valid), .s_seg_wscale(seg_ws),
        .s_seg_pay_addr(seg_addr), .s_seg_pay_len(seg_len),
        .stage_rd_en(stage_rd_en), .stage_rd_addr(stage_rd_addr), .stage_rd_data(stage_rd_data),
        .seg_release(seg_release),
        .rxbuf_wr_en(rxbuf_wr_en), .rxbuf_wr_addr(rxbuf_wr_addr), .rxbuf_wr_data(rxbuf_wr_data),
        .commit_valid(commit_valid), .commit_ptr(commit_ptr), .eof_set(eof_set),
        .kill_valid(kill_valid), .init_valid(init_valid), .init_rx_ptr(init_rx_ptr),
        .init_tx_ptr(init_tx_ptr), .cur_sid(cur_sid), .rd_sid(rd_sid), .rxr_rd_ptr(rxr_rd_ptr),
        .rx_busy_valid(rx_busy_valid), .rx_busy_sid(rx_busy_sid),
        .tx_busy_valid(tx_busy_valid), .tx_busy_sid(tx_busy_sid),
        .win_set(win_set), .win_sid(win_sid),
        .una_wr_valid(una_wr_valid), .una_wr_ptr(una_wr_ptr), .txw_rd_ptr(txw_rd_ptr),
        .open_vec(open_vec), .svc_set(svc_set), .svc_sid(svc_sid), .close_set(close_set),
        .close_sid(close_sid),
        .s_conn_valid(s_conn_valid), .s_conn_ready(s_conn_ready), .s_conn_ip(s_conn_ip),
        .s_conn_port(s_conn_port), .s_conn_lport(s_conn_lport), .s_conn_mac(s_conn_mac),
        .m_seg_valid(tx_valid), .m_seg_ready(tx_ready), .m_seg_dst_mac(tx_mac),
        .m_seg_dst_ip(tx_ip), .m_seg_src_port(tx_sport), .m_seg_dst_port(tx_dport),
        .m_seg_seq(tx_seq), .m_seg_ack(tx_ack), .m_seg_flags(tx_flags), .m_seg_wnd(tx_wnd),
        .m_seg_mss_opt(tx_mss_opt), .m_seg_ws_opt(tx_ws_opt), .m_seg_pay_sid(tx_sid), .m_seg_pay_off(tx_off),
        .m_seg_pay_len(tx_len),
        .ev_valid(ev_valid), .ev_flags(ev_flags), .ev_sid(ev_sid), .ev_ip(ev_ip),
        .ev_port(ev_port), .ev_lport(ev_lport), .cnt_ev({cnt_ev[29:24], cnt_ev[21:5]})
    );

    tcp_app_rx #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .NUM_SESS(NUM_SESS), .SID_W(SID_W),
        .BUF_LOG2(BUF_LOG2), .CHUNK_LOG2(CHUNK_LOG2)
    ) u_app_rx (
        .clk(clk), .rst(rst),
        .buf_wr_en(rxbuf_wr_en), .buf_wr_addr(rxbuf_wr_addr), .buf_wr_data(rxbuf_wr_data),
        .commit_valid(commit_valid), .commit_sid(cur_sid), .commit_ptr(commit_ptr),
        .eof_set(eof_set), .eof_sid(cur_sid),
        .init_valid(init_valid), .init_sid(cur_sid), .init_ptr(init_rx_ptr),
        .kill_valid(kill_valid), .kill_sid(cur_sid),
        .rxr_rd_sid(rd_sid), .rxr_rd_ptr(rxr_rd_ptr), .win_set(win_set), .win_sid(win_sid),
        .m_rx_axis_tdata(m_rx_axis_tdata), .m_rx_axis_tkeep(m_rx_axis_tkeep),
        .m_rx_axis_tvalid(m_rx_axis_tvalid), .m_rx_axis_tready(m_rx_axis_tready),
        .m_rx_axis_tlast(m_rx_axis_tlast), .m_rx_axis_tid(m_rx_axis_tid), .m_rx_eof(m_rx_eof),
        .busy_valid(rx_busy_valid), .busy_sid(rx_busy_sid)
    );

    tcp_app_tx #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .NUM_SESS(NUM_SESS), .SID_W(SID_W), .BUF_LOG2(BUF_LOG2)
    ) u_app_tx (
        .clk(clk), .rst(rst),
        .s_tx_axis_tdata(s_tx_axis_tdata), .s_tx_axis_tkeep(s_tx_axis_tkeep),
        .s_tx_axis_tvalid(s_tx_axis_tvalid), .s_tx_axis_tready(s_tx_axis_tready),
        .s_tx_axis_tlast(s_tx_axis_tlast), .s_tx_axis_tid(s_tx_axis_tid), .s_tx_close(s_tx_close),
        .open_vec(open_vec), .svc_set(svc_set), .svc_sid(svc_sid), .close_set(close_set),
        .close_sid(close_sid), .txw_rd_sid(rd_sid), .txw_rd_ptr(txw_rd_ptr),
        .init_valid(init_valid), .init_sid(cur_sid), .init_ptr(init_tx_ptr),
        .kill_valid(kill_valid), .kill_sid(cur_sid),
        .una_wr_valid(una_wr_valid), .una_wr_sid(cur_sid), .una_wr_ptr(una_wr_ptr),
        .buf_rd_en(txbuf_rd_en), .buf_rd_addr(txbuf_rd_addr), .buf_rd_data(txbuf_rd_data),
        .busy_valid(tx_busy_valid), .busy_sid(tx_busy_sid), .cnt_ev(cnt_ev[23])
    );

    tcp_tx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .SID_W(SID_W), .BUF_LOG2(BUF_LOG2)) u_tx (
        .clk(clk), .rst(rst), .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_ttl(cfg_ttl),
        .cfg_df(cfg_df),
        .s_seg_valid(tx_valid), .s_seg_ready(tx_ready), .s_seg_dst_mac(tx_mac),
        .s_seg_dst_ip(tx_ip), .s_seg_src_port(tx_sport), .s_seg_dst_port(tx_dport),
        .s_seg_seq(tx_seq), .s_seg_ack(tx_ack), .s_seg_flags(tx_flags), .s_seg_wnd(tx_wnd),
        .s_seg_mss_opt(tx_mss_opt), .s_seg_mss(cfg_mss),
        .s_seg_ws_opt(tx_ws_opt), .s_seg_ws(WS_OURS), .s_seg_pay_sid(tx_sid),
        .s_seg_pay_off(tx_off), .s_seg_pay_len(tx_len),
        .buf_rd_en(txbuf_rd_en), .buf_rd_addr(txbuf_rd_addr), .buf_rd_data(txbuf_rd_data),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .cnt_ev(cnt_ev[22])
    );

endmodule
`default_nettype wire
