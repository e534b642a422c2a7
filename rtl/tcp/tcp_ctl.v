`default_nettype none
// tcp_ctl: the TCP session table and every per-segment decision.
//
// Sessions: NUM_SESS slots, sid = slot number. Per slot in block RAM: the 4-tuple
//   (tup_mem: remote IP, remote port, local port) and the record (rec_mem: state, peer
//   MAC, snd_una, snd_nxt, snd_max, snd_wnd, rcv_nxt, rcv_adv, peer MSS, srtt*8,
//   rttvar*4, rto, timer, RTT sample, retries, close and FIN flags, duplicate-ACK count,
//   fast-recovery flag and recover); in flip-flops one bit
//   per slot each of used, open (the application may send), svc (the slot wants the
//   transmit decision) and close request. docs/tcp.md describes the layout.
// One job at a time, in this priority: a segment from tcp_rx; the timer sweep after a
//   tick_1ms (every used slot visited once); a slot whose svc bit is set (round robin).
//   A job loads the slot's record into a working register, decides, and writes it back.
// Segment job: lookup of (src_ip, src_port, dst_port) over the used slots (one per
//   cycle). No session: a SYN (without ACK or RST) to a port in cfg_listen_port opens a
//   slot (SYN_RCVD, SYN-ACK with the MSS option cfg_mss; the peer's MSS, 536 if absent,
//   limits our segments); a SYN finding every slot used, or MAX_HALF_OPEN sessions in
//   SYN_RCVD already (a SYN flood cannot take every slot), is dropped; any other segment
//   without RST is answered with an RST (RFC 9293 3.10.7.1). A session's segment, as
//   RFC 9293 3.10.7.4 in this order: sequence acceptability (else an ACK), RST (at
//   rcv_nxt: the session is reset; elsewhere in the window: a challenge ACK, RFC 5961),
//   SYN (challenge ACK), ACK (SYN_RCVD to ESTABLISHED; an ACK for data not sent, or more
//   than 65535 (the largest window) behind snd_una, is answered with an ACK and the
//   segment dropped (RFC 5961 section 5), or with an RST in SYN_RCVD; snd_una advances, the RTT sample and the
//   retransmission timer follow, snd_wnd is taken), data in order (copied from tcp_rx's
//   staging ring into the receive buffer up to the free space; out of order: an
//   immediate duplicate ACK), FIN in order (the peer's side closed: CLOSE_WAIT, CLOSING
//   or TIME_WAIT). Then the transmit decision runs on the updated record.
// Active open (s_conn_*, taken when no segment or tick waits): a free slot in SYN_SENT
//   sends a SYN with the MSS option (again after each time-out); a SYN-ACK acknowledging
//   it establishes the session (ACK sent), a SYN without ACK makes it SYN_RCVD
//   (simultaneous open), an RST acknowledging it resets it, any other ACK is answered
//   with an RST (RFC 9293 3.10.7.3). No free slot: an aborted event at once.
// A slot is free when unused and neither tcp_app_rx's turn nor tcp_app_tx's burst is on
//   it (rx_busy_*, tx_busy_*), so a new session never receives an old one's bytes.
// Transmit decision: in SYN_SENT the SYN; in SYN_RCVD a SYN-ACK; in the data states one segment of
//   min(unsent, usable window, peer MSS, cfg_mss) bytes from snd_nxt, with the FIN when
//   the application has closed and this segment reaches the end of its data, or a bare
//   ACK when one is owed; the window advertised is the receive buffer's free space. The
//   slot's svc bit is set again while more could be sent.
// Fast retransmit: the third duplicate ACK in a row resends one segment from snd_una at
//   once (snd_nxt stays) and starts a recovery up to recover = snd_max; a partial ACK in
//   the recovery resends the next segment at once, an ACK reaching recover ends it
//   (RFC 5681, RFC 6582); a time-out ends it too. No congestion window yet.
// Timers (each tick): the retransmission timer counts down; at 0 the RTO doubles (up to
//   cfg_rto_max), snd_nxt goes back to snd_una and the oldest data (or SYN-ACK, or FIN)
//   is sent again; after cfg_max_retries time-outs in a row the session is aborted with
//   an RST. RFC 6298: the first RTT sample R sets srtt = R, rttvar = R/2; later samples
//   rttvar = 3/4 rttvar + 1/4 |srtt - R|, srtt = 7/8 srtt + 1/8 R; rto = srtt +
//   max(1, 4 rttvar) within [cfg_rto_min, cfg_rto_max]; initial cfg_rto_init; Karn: no
//   sample from a retransmitted segment. In TIME_WAIT the timer holds cfg_time_wait, at
//   0 the slot is freed. Times are in ticks (milliseconds).
// ISN (RFC 6528): SipHash-2-4 (tcp_isn) under cfg_isn_key of the remote address, remote
//   port and local port, plus a clock advancing 250 per tick (4 us a step).
// Interfaces: s_seg_* (tcp_rx's descriptor), stage_rd_* and seg_release (tcp_rx's ring);
//   rxbuf_wr_*, commit_*, eof_*, rxinit/kill, rxr_rd_ptr, win_* (tcp_app_rx); txinit,
//   una_wr_*, txw_rd_ptr, open_vec, svc_set/close_set (tcp_app_tx); m_seg_* (tcp_tx);
//   ev_* to the application: one strobe per change, ev_flags bit 0 established, 1 peer
//   closed (FIN), 2 reset by the peer, 3 aborted (time-outs), 4 closed (slot freed), with
//   the slot and its remote address and ports. The read ports are addressed by the
//   current slot (rxr_rd_sid, txw_rd_sid, outputs) and read one cycle later.
// cnt_ev (one cycle each): 0 segments for a session, 1 RST sent for no session,
//   2 SYN dropped (no free slot or the half-open bound), 3 unacceptable segments (ACK
//   sent), 4 out-of-order data (duplicate ACK sent), 5 sessions reset by the peer,
//   6 challenge ACKs, 7 retransmission time-outs, 8 sessions aborted, 9 ACKs for unsent
//   data or too old (ACK sent, or RST in SYN_RCVD/SYN_SENT), 10 segments
//   sent, 11 segments with data sent, 12 retransmitted segments, 13 sessions
//   established, 14 sessions closed (slot freed), 15 data segments cut to the free space,
//   16 duplicate ACKs received.
// Parameters: NUM_SESS (2..256; 8, 2 tested), SID_W = clog2(NUM_SESS), BUF_LOG2 (6..15;
//   11, 9 tested), NUM_LISTEN (>= 1), STAGE_LOG2 (tcp_rx's ring), MAX_HALF_OPEN
//   (1..NUM_SESS, default NUM_SESS/2; 4 tested).
// Latency: segment in to its reply descriptor about NUM_SESS + 8 cycles plus the bytes
//   copied.
module tcp_ctl #(
    parameter integer NUM_SESS   = 8,
    parameter integer SID_W      = 3,
    parameter integer BUF_LOG2   = 11,
    parameter integer NUM_LISTEN = 2,
    parameter integer STAGE_LOG2 = 11,
    parameter integer MAX_HALF_OPEN = (NUM_SESS > 1) ? NUM_SESS / 2 : 1
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire                        tick_1ms,
    input  wire [NUM_LISTEN*16-1:0]    cfg_listen_port,
    input  wire [15:0]                 cfg_mss,
    input  wire [15:0]                 cfg_rto_init,
    input  wire [15:0]                 cfg_rto_min,
    input  wire [15:0]                 cfg_rto_max,
    input  wire [3:0]                  cfg_max_retries,
    input  wire [15:0]                 cfg_time_wait,
    input  wire [127:0]                cfg_isn_key,
    // segment descriptor from tcp_rx
    input  wire                        s_seg_valid,
    output wire                        s_seg_ready,
    input  wire [47:0]                 s_seg_src_mac,
    input  wire [31:0]                 s_seg_src_ip,
    input  wire [15:0]                 s_seg_src_port,
    input  wire [15:0]                 s_seg_dst_port,
    input  wire [31:0]                 s_seg_seq,
    input  wire [31:0]                 s_seg_ack,
    input  wire [7:0]                  s_seg_flags,
    input  wire [15:0]                 s_seg_wnd,
    input  wire [15:0]                 s_seg_mss,
    input  wire [STAGE_LOG2-1:0]       s_seg_pay_addr,
    input  wire [15:0]                 s_seg_pay_len,
    output wire                        stage_rd_en,
    output wire [STAGE_LOG2-1:0]       stage_rd_addr,
    input  wire [7:0]                  stage_rd_data,
    output wire                        seg_release,
    // tcp_app_rx
    output wire                        rxbuf_wr_en,
    output wire [SID_W+BUF_LOG2-1:0]   rxbuf_wr_addr,
    output wire [7:0]                  rxbuf_wr_data,
    output wire                        commit_valid,
    output wire [BUF_LOG2:0]           commit_ptr,
    output wire                        eof_set,
    output wire                        kill_valid,
    output wire                        init_valid,
    output wire [BUF_LOG2:0]           init_rx_ptr,
    output wire [BUF_LOG2:0]           init_tx_ptr,
    output wire [SID_W-1:0]            cur_sid,     // slot of commit/eof/kill/init/una_wr
    output wire [SID_W-1:0]            rd_sid,      // slot read on rxr_rd_ptr/txw_rd_ptr
    input  wire [BUF_LOG2:0]           rxr_rd_ptr,
    input  wire                        rx_busy_valid,  // tcp_app_rx's turn: its slot
    input  wire [SID_W-1:0]            rx_busy_sid,    //   is not reused meanwhile
    input  wire                        tx_busy_valid,  // tcp_app_tx's burst: the same
    input  wire [SID_W-1:0]            tx_busy_sid,
    input  wire                        win_set,
    input  wire [SID_W-1:0]            win_sid,
    // tcp_app_tx
    output wire                        una_wr_valid,
    output wire [BUF_LOG2:0]           una_wr_ptr,
    input  wire [BUF_LOG2:0]           txw_rd_ptr,
    output wire [NUM_SESS-1:0]         open_vec,
    input  wire                        svc_set,
    input  wire [SID_W-1:0]            svc_sid,
    input  wire                        close_set,
    input  wire [SID_W-1:0]            close_sid,
    // active open: connect from local port lport to ip:port (next hop's MAC given)
    input  wire                        s_conn_valid,
    output wire                        s_conn_ready,
    input  wire [31:0]                 s_conn_ip,
    input  wire [15:0]                 s_conn_port,
    input  wire [15:0]                 s_conn_lport,
    input  wire [47:0]                 s_conn_mac,
    // segment descriptor to tcp_tx
    output wire                        m_seg_valid,
    input  wire                        m_seg_ready,
    output wire [47:0]                 m_seg_dst_mac,
    output wire [31:0]                 m_seg_dst_ip,
    output wire [15:0]                 m_seg_src_port,
    output wire [15:0]                 m_seg_dst_port,
    output wire [31:0]                 m_seg_seq,
    output wire [31:0]                 m_seg_ack,
    output wire [7:0]                  m_seg_flags,
    output wire [15:0]                 m_seg_wnd,
    output wire                        m_seg_mss_opt,
    output wire [SID_W-1:0]            m_seg_pay_sid,
    output wire [BUF_LOG2-1:0]         m_seg_pay_off,
    output wire [15:0]                 m_seg_pay_len,
    // events to the application
    output wire                        ev_valid,
    output wire [4:0]                  ev_flags,
    output wire [SID_W-1:0]            ev_sid,
    output wire [31:0]                 ev_ip,
    output wire [15:0]                 ev_port,
    output wire [15:0]                 ev_lport,
    output wire [16:0]                 cnt_ev
);
    generate
        if (NUM_SESS < 2 || NUM_SESS > 256 || (1 << SID_W) < NUM_SESS ||
            (1 << (SID_W - 1)) >= NUM_SESS) begin : g_check_sess
            tcp_ctl_NUM_SESS_must_be_2_to_256_with_SID_W_clog2 u_error ();  // unsupported parameter (no such module)
        end
        if (BUF_LOG2 < 6 || BUF_LOG2 > 15) begin : g_check_buf
            tcp_ctl_BUF_LOG2_must_be_6_to_15 u_error ();  // unsupported parameter (no such module)
        end
        if (MAX_HALF_OPEN < 1 || MAX_HALF_OPEN > NUM_SESS) begin : g_check_half
            tcp_ctl_MAX_HALF_OPEN_must_be_1_to_NUM_SESS u_error ();  // unsupported parameter (no such module)
        end
        if (NUM_LISTEN < 1) begin : g_check_listen
            tcp_ctl_NUM_LISTEN_must_be_at_least_1 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    localparam integer B  = BUF_LOG2;
    localparam integer SW = STAGE_LOG2;
    localparam integer     LAST_I = NUM_SESS - 1;
    localparam [SID_W-1:0] LAST   = LAST_I[SID_W-1:0];  // the last slot

    // TCP states (RFC 9293); a free slot has no state (used bit 0)
    localparam [3:0] ST_SYN_RCVD = 4'd1, ST_ESTAB = 4'd2, ST_FIN_WAIT_1 = 4'd3,
                     ST_FIN_WAIT_2 = 4'd4, ST_CLOSE_WAIT = 4'd5, ST_CLOSING = 4'd6,
                     ST_LAST_ACK = 4'd7, ST_TIME_WAIT = 4'd8, ST_SYN_SENT = 4'd9;
    localparam [7:0] F_FIN = 8'h01, F_SYN = 8'h02, F_RST = 8'h04, F_PSH = 8'h08, F_ACK = 8'h10;

    // record layout (rec_mem word)
    localparam integer O_STATE = 0;    // 4
    localparam integer O_RMAC  = 4;    // 48
    localparam integer O_UNA   = 52;   // 32
    localparam integer O_NXT   = 84;   // 32
    localparam integer O_MAX   = 116;  // 32
    localparam integer O_SWND  = 148;  // 16
    localparam integer O_RNXT  = 164;  // 32
    localparam integer O_RADV  = 196;  // 32
    localparam integer O_PMSS  = 228;  // 16
    localparam integer O_SRTT  = 244;  // 20 (srtt * 8)
    localparam integer O_RVAR  = 264;  // 20 (rttvar * 4)
    localparam integer O_RTO   = 284;  // 16
    localparam integer O_TMR   = 300;  // 16 (0 = stopped)
    localparam integer O_RTTON = 316;  // 1
    localparam integer O_RTTSQ = 317;  // 32
    localparam integer O_RTTT  = 349;  // 16
    localparam integer O_RETR  = 365;  // 4
    localparam integer O_CLOSE = 369;  // 1: the application closed; FIN at fin_seq
    localparam integer O_FINSQ = 370;  // 32
    localparam integer O_FINRX = 402;  // 1: the peer's FIN taken
    localparam integer O_HAVE  = 403;  // 1: an RTT sample was taken
    localparam integer O_DUPS  = 404;  // 2: duplicate ACKs in a row (saturating at 3)
    localparam integer O_INREC = 406;  // 1: in fast recovery (RFC 6582) until recover
    localparam integer O_RECOV = 407;  // 32: snd_max when fast retransmit started
    localparam integer REC_W   = 439;

    localparam [3:0] S_IDLE = 4'd0, S_LOOKUP = 4'd1, S_LOAD = 4'd2, S_LOAD2 = 4'd3,
                     S_RX_EVAL = 4'd4, S_COPY = 4'd5, S_TX_EVAL = 4'd6, S_EMIT = 4'd7,
                     S_WB = 4'd8, S_TM_SCAN = 4'd9, S_TM_EVAL = 4'd10, S_SVC_EVAL = 4'd11,
                     S_CREATE = 4'd12, S_NOSESS = 4'd13;
    localparam [1:0] JOB_RX = 2'd0, JOB_TM = 2'd1, JOB_SVC = 2'd2, JOB_CONN = 2'd3;

    reg [REC_W-1:0] rec_mem [0:NUM_SESS-1];
    reg [63:0]      tup_mem [0:NUM_SESS-1];
    reg [REC_W-1:0] rec_q_reg;
    reg [63:0]      tup_q_reg;

    reg [3:0]          state_reg;
    reg [1:0]          job_reg;
    reg [SID_W-1:0]    sid_reg;
    reg [NUM_SESS-1:0] used_reg, open_reg, svc_reg, closereq_reg;
    reg                tick_pend_reg;
    reg [15:0]         now_reg;
    reg [31:0]         isn_clk_reg;
    reg [SID_W-1:0]    scan_reg;
    // lookup
    reg [SID_W-1:0]    lk_idx_reg, lk_cmp_reg, free_sid_reg;
    reg                lk_cmp_v_reg, free_found_reg, lk_done_reg;
    // the segment
    reg [47:0]         sg_mac_reg;
    reg [31:0]         sg_ip_reg, sg_seq_reg, sg_ack_reg;
    reg [15:0]         sg_sport_reg, sg_dport_reg, sg_wnd_reg, sg_mss_reg, sg_len_reg;
    reg [7:0]          sg_flags_reg;
    reg [SW-1:0]       sg_addr_reg;
    // the working record
    reg [REC_W-1:0]    cur_reg, cur_next;
    reg [63:0]         tup_reg;
    reg [B:0]          rxr_reg, txw_reg;
    reg                ack_now_reg, rst_reply_reg, free_reg, created_reg, eof_reg, more_reg;
    reg                nosess_reg;
    reg                was_half_reg;  // the slot was half-open (SYN_RCVD) when loaded
    reg [SID_W:0]      half_cnt_reg;  // sessions in SYN_RCVD
    reg                fr_reg;   // send one segment from snd_una now (fast retransmit)
    reg [4:0]          evf_reg;
    // copy into the receive buffer
    reg [15:0]         cp_len_reg, cp_cnt_reg;
    reg [SW-1:0]       cp_src_reg;
    reg [B:0]          cp_dst_reg;
    reg                cp_v_reg;
    reg [B:0]          commit_ptr_reg;
    reg                commit_reg;
    // transmit descriptor
    reg                tx_valid_reg;
    reg [47:0]         tx_mac_reg;
    reg [31:0]         tx_ip_reg, tx_seq_reg, tx_ack_reg;
    reg [15:0]         tx_sport_reg, tx_dport_reg, tx_wnd_reg, tx_len_reg;
    reg [7:0]          tx_flags_reg;
    reg                tx_mss_reg;
    reg [B-1:0]        tx_off_reg;
    // outputs
    reg                release_reg, una_wr_reg, eof_set_reg, kill_reg, init_reg;
    reg                ev_valid_reg;
    reg [4:0]          ev_flags_reg;
    reg [16:0]         ev_reg, ev_next;
    reg [SID_W-1:0]    out_sid_reg;   // slot of the strobes registered in the cycle before
    reg [B:0]          una_ptr_reg;
    reg [63:0]         ev_tup_reg;

    // ---- the working record's fields ----
    wire [3:0]  c_state = cur_reg[O_STATE +: 4];
    wire [47:0] c_rmac  = cur_reg[O_RMAC +: 48];
    wire [31:0] c_una   = cur_reg[O_UNA +: 32];
    wire [31:0] c_nxt   = cur_reg[O_NXT +: 32];
    wire [31:0] c_max   = cur_reg[O_MAX +: 32];
    wire [15:0] c_swnd  = cur_reg[O_SWND +: 16];
    wire [31:0] c_rnxt  = cur_reg[O_RNXT +: 32];
    wire [31:0] c_radv  = cur_reg[O_RADV +: 32];
    wire [15:0] c_pmss  = cur_reg[O_PMSS +: 16];
    wire [19:0] c_srtt  = cur_reg[O_SRTT +: 20];
    wire [19:0] c_rvar  = cur_reg[O_RVAR +: 20];
    wire [15:0] c_rto   = cur_reg[O_RTO +: 16];
    wire [15:0] c_tmr   = cur_reg[O_TMR +: 16];
    wire        c_rtton = cur_reg[O_RTTON];
    wire [31:0] c_rttsq = cur_reg[O_RTTSQ +: 32];
    wire [15:0] c_rttt  = cur_reg[O_RTTT +: 16];
    wire [3:0]  c_retr  = cur_reg[O_RETR +: 4];
    wire        c_close = cur_reg[O_CLOSE];
    wire [31:0] c_finsq = cur_reg[O_FINSQ +: 32];
    wire        c_finrx = cur_reg[O_FINRX];
    wire        c_have  = cur_reg[O_HAVE];
    wire [1:0]  c_dups  = cur_reg[O_DUPS +: 2];
    wire        c_inrec = cur_reg[O_INREC];
    wire [31:0] c_recov = cur_reg[O_RECOV +: 32];
    wire [31:0] t_rip   = tup_reg[63:32];
    wire [15:0] t_rport = tup_reg[31:16];
    wire [15:0] t_lport = tup_reg[15:0];

    // ---- shared arithmetic ----
    wire [B:0]  rx_end  = c_rnxt[B:0] - {{B{1'b0}}, c_finrx};  // data end (FIN excluded), low bits
    wire [B:0]  rx_used = rx_end - rxr_reg;
    wire [B+1:0] rwnd_b = (1 << B) - {1'b0, rx_used};
    wire [31:0] rwnd    = {{(30-B){1'b0}}, rwnd_b};
    wire [15:0] lim     = (c_pmss < cfg_mss) ? c_pmss : cfg_mss;

    function [15:0] clamp_rto;
        input [19:0] v;
        begin
            if (v < {4'd0, cfg_rto_min}) clamp_rto = cfg_rto_min;
            else if (v > {4'd0, cfg_rto_max}) clamp_rto = cfg_rto_max;
            else clamp_rto = v[15:0];
        end
    endfunction

    // serial-number compare (a - b < 0): only the difference's sign bit is looked at
    /* verilator lint_off UNUSEDSIGNAL */
    function is_neg;
        input [31:0] d;
        is_neg = d[31];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // listening port match
    reg listening;
    integer li;
    always @* begin
        listening = 1'b0;
        for (li = 0; li < NUM_LISTEN; li = li + 1)
            if (cfg_listen_port[li*16 +: 16] != 16'd0 && cfg_listen_port[li*16 +: 16] == sg_dport_reg)
                listening = 1'b1;
    end

    // RFC 6528: ISN = M + F(remote address and ports, local port, key), F = SipHash-2-4
    // (tcp_isn), started with each segment or connect job, M = isn_clk_reg (250 a tick:
    // one step per 4 us)
    reg         isn_start_reg;
    wire        isn_valid;
    wire [63:0] isn_hash;
    tcp_isn u_isn (
        .clk(clk), .rst(rst), .start(isn_start_reg), .key(cfg_isn_key),
        .msg({sg_dport_reg[7:0], sg_dport_reg[15:8], sg_sport_reg[7:0], sg_sport_reg[15:8],
              sg_ip_reg[7:0], sg_ip_reg[15:8], sg_ip_reg[23:16], sg_ip_reg[31:24]}),
        .valid(isn_valid), .hash(isn_hash)
    );
    wire [31:0] isn = isn_hash[31:0] + isn_clk_reg;

    // ---- segment evaluation (S_RX_EVAL) ----
    reg [31:0] v_una, v_nxt, v_rnxt, v_off, v_end_off, v_aoff, v_maxoff, v_skip, v_avail;
    reg [31:0] v_take;
    reg [19:0] v_srtt, v_rvar, v_err, v_r;
    reg [15:0] v_rto, v_tmr, v_swnd;
    reg [3:0]  v_state, v_retr;
    reg        v_rtton, v_have, v_finrx, v_fin_acked, v_accept, v_drop, v_inrec, v_fr;
    reg [1:0]  v_dups;
    reg [31:0] v_recov;
    reg        rx_ack_now, rx_rst_reply, rx_free, rx_eof, rx_init, sent_ack_ok;
    reg [15:0] v_pmss;
    reg [4:0]  rx_evf;
    reg [15:0] rx_cp_len, rx_cp_skip;
    reg [31:0] seglen;
    reg [16:0] rx_ev;
    always @* begin
        v_state  = c_state;
        v_una    = c_una;
        v_nxt    = c_nxt;
        v_rnxt   = c_rnxt;
        v_srtt   = c_srtt;
        v_rvar   = c_rvar;
        v_rto    = c_rto;
        v_tmr    = c_tmr;
        v_rtton  = c_rtton;
        v_have   = c_have;
        v_retr   = c_retr;
        v_swnd   = c_swnd;
        v_finrx  = c_finrx;
        v_fin_acked = 1'b0;
        v_pmss   = c_pmss;
        rx_init  = 1'b0;
        sent_ack_ok = sg_flags_reg[4] && (sg_ack_reg == c_una + 32'd1);
        v_dups   = c_dups;
        v_inrec  = c_inrec;
        v_recov  = c_recov;
        v_fr     = 1'b0;
        v_drop   = 1'b0;
        v_r      = 20'd0;
        v_err    = 20'd0;
        v_skip   = 32'd0;
        v_avail  = 32'd0;
        v_take   = 32'd0;
        rx_ack_now   = 1'b0;
        rx_rst_reply = 1'b0;
        rx_free      = 1'b0;
        rx_eof       = 1'b0;
        rx_evf       = 5'd0;
        rx_cp_len    = 16'd0;
        rx_cp_skip   = 16'd0;
        rx_ev        = 17'd0;
        rx_ev[0]     = 1'b1;
        seglen    = {16'd0, sg_len_reg} + {31'd0, sg_flags_reg[1]} + {31'd0, sg_flags_reg[0]};
        v_off     = sg_seq_reg - c_rnxt;
        v_end_off = sg_seq_reg + seglen - 32'd1 - c_rnxt;
        v_accept  = (sg_seq_reg == c_rnxt) ||
                    ((rwnd != 32'd0) && ((v_off < rwnd) || (seglen != 32'd0 && v_end_off < rwnd)));
        v_aoff    = sg_ack_reg - c_una;
        v_maxoff  = c_max - c_una;
        if (c_state == ST_SYN_SENT) begin
            // RFC 9293 3.10.7.3: our SYN is out, no sequence number of the peer's known
            if (sg_flags_reg[4] && !sent_ack_ok) begin
                rx_rst_reply = !sg_flags_reg[2];
                rx_ev[9]     = !sg_flags_reg[2];
            end else if (sg_flags_reg[2]) begin
                if (sent_ack_ok) begin  // refused
                    rx_free   = 1'b1;
                    rx_evf[2] = 1'b1;
                    rx_ev[5]  = 1'b1;
                    rx_ev[14] = 1'b1;
                end
            end else if (sg_flags_reg[1]) begin
                v_rnxt  = sg_seq_reg + 32'd1;
                v_swnd  = sg_wnd_reg;
                v_pmss  = (sg_mss_reg == 16'd0) ? 16'd536 : sg_mss_reg;
                rx_init = 1'b1;
                rx_ack_now = 1'b1;
                v_rtton = 1'b0;  // (no sample from the handshake of an active open)
                if (sent_ack_ok) begin
                    v_una     = sg_ack_reg;
                    v_state   = ST_ESTAB;
                    v_tmr     = 16'd0;
                    v_retr    = 4'd0;
                    rx_evf[0] = 1'b1;
                    rx_ev[13] = 1'b1;
                end else begin
                    v_state = ST_SYN_RCVD;  // simultaneous open: SYN-ACK of our SYN
                end
            end
        end else if (!v_accept) begin
            rx_ack_now = !sg_flags_reg[2];
            rx_ev[3]   = 1'b1;
        end else if (sg_flags_reg[2]) begin  // RST
            if (sg_seq_reg == c_rnxt) begin
                rx_free   = 1'b1;
                rx_evf[2] = 1'b1;
                rx_ev[5]  = 1'b1;
                rx_ev[14] = 1'b1;
            end else begin
                rx_ack_now = 1'b1;
                rx_ev[6]   = 1'b1;
            end
        end else if (sg_flags_reg[1]) begin  // SYN on a session: challenge ACK
            rx_ack_now = 1'b1;
            rx_ev[6]   = 1'b1;
        end else if (sg_flags_reg[4]) begin  // ACK
            if (c_state == ST_SYN_RCVD) begin
                if (v_aoff != 32'd0 && v_aoff <= v_maxoff) begin
                    v_state   = ST_ESTAB;
                    rx_evf[0] = 1'b1;
                    rx_ev[13] = 1'b1;
                end else begin
                    rx_rst_reply = 1'b1;
                    rx_ev[9]     = 1'b1;
                    v_drop       = 1'b1;
                end
            end
            if (!v_drop) begin
                if ((v_aoff > v_maxoff && !is_neg(v_aoff)) ||
                    (is_neg(v_aoff) && v_aoff < 32'hFFFF0000)) begin
                    // acknowledges data not sent, or older than the largest window
                    // behind snd_una: ACK and drop (RFC 9293, RFC 5961 section 5)
                    rx_ack_now = 1'b1;
                    rx_ev[9]   = 1'b1;
                    v_drop     = 1'b1;
                end else if (!is_neg(v_aoff)) begin
                    if (v_aoff != 32'd0) begin
                        v_una  = sg_ack_reg;
                        if (is_neg(v_nxt - sg_ack_reg)) v_nxt = sg_ack_reg;
                        v_retr = 4'd0;
                        if (c_rtton && !is_neg(sg_ack_reg - c_rttsq)) begin
                            // RFC 6298 sample
                            v_r     = {4'd0, now_reg - c_rttt};
                            v_rtton = 1'b0;
                            if (!c_have) begin
                                v_srtt = v_r << 3;
                                v_rvar = v_r << 1;
                            end else begin
                                v_err  = (v_r > {3'd0, c_srtt[19:3]}) ? v_r - {3'd0, c_srtt[19:3]} :
                                                                       {3'd0, c_srtt[19:3]} - v_r;
                                v_rvar = c_rvar - {2'd0, c_rvar[19:2]} + v_err;
                                v_srtt = c_srtt - {3'd0, c_srtt[19:3]} + v_r;
                            end
                            v_have = 1'b1;
                            v_rto  = clamp_rto({3'd0, v_srtt[19:3]} +
                                               ((v_rvar == 20'd0) ? 20'd1 : v_rvar));
                        end
                        v_tmr = (sg_ack_reg == c_max) ? 16'd0 : v_rto;
                        v_dups = 2'd0;
                        if (c_inrec) begin
                            // RFC 6582: a partial ACK resends the next segment at once,
                            // a full one (recover reached) ends the recovery
                            if (is_neg(sg_ack_reg - c_recov)) v_fr = 1'b1;
                            else v_inrec = 1'b0;
                        end
                    end else if (sg_len_reg == 16'd0 && !sg_flags_reg[0] && c_max != c_una &&
                                 sg_wnd_reg == c_swnd) begin
                        rx_ev[16] = 1'b1;  // duplicate ACK
                        if (c_dups != 2'd3) v_dups = c_dups + 2'd1;
                        if (c_dups == 2'd2 && !c_inrec) begin
                            // the third: fast retransmit (RFC 5681), no RTT sample from it
                            v_fr    = 1'b1;
                            v_inrec = 1'b1;
                            v_recov = c_max;
                            v_rtton = 1'b0;
                        end
                    end
                    v_swnd = sg_wnd_reg;
                    v_fin_acked = c_close && (c_max == c_finsq + 32'd1) &&
                                  (sg_ack_reg == c_finsq + 32'd1);
                    if (v_fin_acked) begin
                        case (v_state)
                            ST_FIN_WAIT_1: v_state = ST_FIN_WAIT_2;
                            ST_CLOSING: begin
                                v_state = ST_TIME_WAIT;
                                v_tmr   = cfg_time_wait;
                            end
                            ST_LAST_ACK: begin
                                rx_free    = 1'b1;
                                rx_evf[4]  = 1'b1;
                                rx_ev[14]  = 1'b1;
                            end
                            default: ;
                        endcase
                    end
                end
                // data
                if (!v_drop && !rx_free && sg_len_reg != 16'd0) begin
                    if ((v_state == ST_ESTAB || v_state == ST_FIN_WAIT_1 ||
                         v_state == ST_FIN_WAIT_2) && !c_finrx) begin
                        v_skip = c_rnxt - sg_seq_reg;
                        if ((v_off == 32'd0 || is_neg(v_off)) && v_skip < {16'd0, sg_len_reg}) begin
                            v_avail = {16'd0, sg_len_reg} - v_skip;
                            v_take  = (v_avail < rwnd) ? v_avail : rwnd;
                            rx_cp_len  = v_take[15:0];
                            rx_cp_skip = v_skip[15:0];
                            v_rnxt  = c_rnxt + v_take;
                            if (v_take != v_avail) rx_ev[15] = 1'b1;
                        end else if (!is_neg(v_off)) begin
                            rx_ev[4] = 1'b1;  // out of order
                        end
                    end
                    rx_ack_now = 1'b1;
                end
                // FIN
                if (!v_drop && !rx_free && sg_flags_reg[0]) begin
                    if ((v_state == ST_ESTAB || v_state == ST_FIN_WAIT_1 ||
                         v_state == ST_FIN_WAIT_2) && !c_finrx &&
                        (sg_seq_reg + {16'd0, sg_len_reg} == v_rnxt)) begin
                        v_rnxt    = v_rnxt + 32'd1;
                        v_finrx   = 1'b1;
                        rx_eof    = 1'b1;
                        rx_evf[1] = 1'b1;
                        case (v_state)
                            ST_ESTAB:      v_state = ST_CLOSE_WAIT;
                            ST_FIN_WAIT_1: if (v_fin_acked) begin
                                               v_state = ST_TIME_WAIT;
                                               v_tmr   = cfg_time_wait;
                                           end else v_state = ST_CLOSING;
                            default: begin
                                v_state = ST_TIME_WAIT;
                                v_tmr   = cfg_time_wait;
                            end
                        endcase
                    end
                    rx_ack_now = 1'b1;
                end
            end
        end
    end

    // ---- transmit decision (S_TX_EVAL) ----
    reg [31:0] t_queued, t_data_end, t_unsent, t_usable, t_len, t_nnxt, t_nmax, t_diff;
    reg        t_fin, t_send, t_data_state, t_rexmit, t_more;
    reg [7:0]  t_flags;
    reg [31:0] t_seq;
    reg        t_mss;
    reg [3:0]  t_state;
    reg [15:0] t_tmr;
    reg        t_rtton;
    reg [31:0] t_rttsq;
    reg [15:0] t_rttt;
    always @* begin
        t_state   = c_state;
        t_tmr     = c_tmr;
        t_rtton   = c_rtton;
        t_rttsq   = c_rttsq;
        t_rttt    = c_rttt;
        t_queued  = {{(31-B){1'b0}}, txw_reg - c_una[B:0]};
        t_data_end = c_close ? c_finsq : c_una + t_queued;
        t_diff    = t_data_end - c_nxt;
        t_unsent  = is_neg(t_diff) ? 32'd0 : t_diff;
        t_diff    = c_una + {16'd0, c_swnd} - c_nxt;
        t_usable  = is_neg(t_diff) ? 32'd0 : t_diff;
        t_len     = 32'd0;
        t_fin     = 1'b0;
        t_mss     = 1'b0;
        t_flags   = F_ACK;
        t_seq     = c_nxt;
        t_nnxt    = c_nxt;
        t_data_state = (c_state == ST_ESTAB) || (c_state == ST_CLOSE_WAIT) ||
                       (c_state == ST_FIN_WAIT_1) || (c_state == ST_CLOSING) ||
                       (c_state == ST_LAST_ACK);
        if (c_state == ST_SYN_SENT) begin
            t_send  = (c_nxt == c_una);
            t_flags = F_SYN;
            t_mss   = 1'b1;
            t_seq   = c_una;
            t_nnxt  = c_una + 32'd1;
        end else if (c_state == ST_SYN_RCVD) begin
            t_send  = ack_now_reg || (c_nxt == c_una);
            t_flags = F_SYN | F_ACK;
            t_mss   = 1'b1;
            t_seq   = c_una;
            t_nnxt  = c_una + 32'd1;
        end else if (t_data_state && fr_reg) begin
            // fast retransmit: one segment from snd_una; snd_nxt and snd_max stay
            t_diff = t_data_end - c_una;
            t_len  = is_neg(t_diff) ? 32'd0 : t_diff;
            if ({16'd0, lim} < t_len) t_len = {16'd0, lim};
            t_seq  = c_una;
            t_fin  = c_close && (c_una + t_len == c_finsq) && (c_max == c_finsq + 32'd1);
            t_send = (t_len != 32'd0) || t_fin;
            if (t_fin) t_flags = t_flags | F_FIN;
            if (t_len != 32'd0) t_flags = t_flags | F_PSH;
        end else if (t_data_state) begin
            t_len = t_unsent;
            if (t_usable < t_len) t_len = t_usable;
            if ({16'd0, lim} < t_len) t_len = {16'd0, lim};
            t_fin  = c_close && (c_nxt + t_len == c_finsq);
            t_send = (t_len != 32'd0) || t_fin || ack_now_reg;
            t_nnxt = c_nxt + t_len + {31'd0, t_fin};
            if (t_fin) t_flags = t_flags | F_FIN;
            if (t_len != 32'd0 && c_nxt + t_len == t_data_end) t_flags = t_flags | F_PSH;
            if (t_fin && c_state == ST_ESTAB) t_state = ST_FIN_WAIT_1;
            if (t_fin && c_state == ST_CLOSE_WAIT) t_state = ST_LAST_ACK;
        end else begin
            t_send = ack_now_reg;
        end
        t_nmax   = is_neg(c_max - t_nnxt) ? t_nnxt : c_max;
        t_rexmit = ((t_nnxt != c_nxt) && (c_nxt != c_max)) || (fr_reg && t_send);
        if (t_send && t_nnxt != c_nxt) begin
            if (c_tmr == 16'd0) t_tmr = c_rto;
            if (!c_rtton && !t_rexmit) begin
                t_rtton = 1'b1;
                t_rttsq = t_nnxt;
                t_rttt  = now_reg;
            end
        end
        t_more = fr_reg || ((t_len != 32'd0) && (t_unsent > t_len) && (t_usable > t_len));
    end

    // ---- timer evaluation (S_TM_EVAL) ----
    wire        tm_expire = (c_tmr == 16'd1);
    wire        tm_tw     = (c_state == ST_TIME_WAIT);
    wire        tm_abort  = tm_expire && !tm_tw && (c_retr >= cfg_max_retries);
    wire [16:0] rto2      = {c_rto, 1'b0};
    wire [15:0] tm_rto    = (rto2 > {1'b0, cfg_rto_max}) ? cfg_rto_max : rto2[15:0];

    // ---- window update (S_SVC_EVAL) ----
    wire [31:0] new_edge  = c_rnxt + rwnd;
    wire [31:0] edge_gain = new_edge - c_radv;
    wire [15:0] half_buf  = 16'd1 << (B - 1);
    wire [15:0] upd_thr   = (half_buf < lim) ? half_buf : lim;

    // a slot is free when unused and no delivery turn or send burst of its last session
    // is still running (their bytes belong to that session, not to the next)
    reg [NUM_SESS-1:0] slot_free;
    integer            si;
    always @* begin
        for (si = 0; si < NUM_SESS; si = si + 1)
            slot_free[si] = !used_reg[si] &&
                            !(rx_busy_valid && rx_busy_sid == si[SID_W-1:0]) &&
                            !(tx_busy_valid && tx_busy_sid == si[SID_W-1:0]);
    end

    // ---- lookup compare ----
    wire lk_hit = lk_cmp_v_reg && used_reg[lk_cmp_reg] &&
                  (tup_q_reg == {sg_ip_reg, sg_sport_reg, sg_dport_reg});

    wire lk_miss   = !lk_hit && lk_cmp_v_reg && (lk_cmp_reg == LAST);
    wire lk_free   = free_found_reg || slot_free[lk_cmp_reg];
    wire lk_syn    = sg_flags_reg[1] && !sg_flags_reg[4] && !sg_flags_reg[2] && listening;
    wire half_ok   = (half_cnt_reg < MAX_HALF_OPEN[SID_W:0]);  // SYN-flood bound
    wire now_half  = !free_reg && (c_state == ST_SYN_RCVD);

    // event strobes of this cycle's decision
    always @* begin
        ev_next = 17'd0;
        case (state_reg)
            S_LOOKUP:  ev_next[2] = lk_miss && lk_syn && !(lk_free && half_ok);
            S_NOSESS:  ev_next[1] = 1'b1;
            S_RX_EVAL: ev_next = rx_ev;
            S_TM_EVAL: begin
                ev_next[7]  = tm_expire && !tm_tw && !tm_abort;
                ev_next[8]  = tm_abort;
                ev_next[14] = tm_expire && (tm_tw || tm_abort);
            end
            S_TX_EVAL: begin
                ev_next[10] = rst_reply_reg || (t_send && !free_reg);
                ev_next[11] = !rst_reply_reg && t_send && !free_reg && (t_len != 32'd0);
                ev_next[12] = !rst_reply_reg && t_send && !free_reg && t_rexmit;
            end
            default: ;
        endcase
    end

    wire [SID_W-1:0] rd_addr = (state_reg == S_LOOKUP) ? lk_idx_reg : sid_reg;

    always @(posedge clk) begin
        rec_q_reg <= rec_mem[sid_reg];
        tup_q_reg <= tup_mem[rd_addr];
    end

    always @* begin
        cur_next = cur_reg;
        case (state_reg)
            S_LOAD2: cur_next = rec_q_reg;
            S_CREATE: begin
                cur_next = {REC_W{1'b0}};
                cur_next[O_STATE +: 4]  = (job_reg == JOB_CONN) ? ST_SYN_SENT : ST_SYN_RCVD;
                cur_next[O_RMAC +: 48]  = sg_mac_reg;
                cur_next[O_UNA +: 32]   = isn;
                cur_next[O_NXT +: 32]   = isn;
                cur_next[O_MAX +: 32]   = isn;
                cur_next[O_SWND +: 16]  = sg_wnd_reg;
                cur_next[O_RNXT +: 32]  = (job_reg == JOB_CONN) ? 32'd0 : sg_seq_reg + 32'd1;
                cur_next[O_RADV +: 32]  = (job_reg == JOB_CONN) ? 32'd0 : sg_seq_reg + 32'd1;
                cur_next[O_PMSS +: 16]  = (sg_mss_reg == 16'd0) ? 16'd536 : sg_mss_reg;
                cur_next[O_RTO +: 16]   = cfg_rto_init;
            end
            S_RX_EVAL: begin
                cur_next[O_STATE +: 4]  = v_state;
                cur_next[O_UNA +: 32]   = v_una;
                cur_next[O_NXT +: 32]   = v_nxt;
                cur_next[O_SWND +: 16]  = v_swnd;
                cur_next[O_RNXT +: 32]  = v_rnxt;
                cur_next[O_SRTT +: 20]  = v_srtt;
                cur_next[O_RVAR +: 20]  = v_rvar;
                cur_next[O_RTO +: 16]   = v_rto;
                cur_next[O_TMR +: 16]   = v_tmr;
                cur_next[O_RTTON]       = v_rtton;
                cur_next[O_RETR +: 4]   = v_retr;
                cur_next[O_FINRX]       = v_finrx;
                cur_next[O_HAVE]        = v_have;
                cur_next[O_DUPS +: 2]   = v_dups;
                cur_next[O_INREC]       = v_inrec;
                cur_next[O_RECOV +: 32] = v_recov;
                cur_next[O_PMSS +: 16]  = v_pmss;
                if (rx_init) cur_next[O_RADV +: 32] = v_rnxt;
            end
            S_TX_EVAL: if (!rst_reply_reg && !free_reg) begin
                cur_next[O_STATE +: 4]  = t_state;
                cur_next[O_NXT +: 32]   = t_nnxt;
                cur_next[O_MAX +: 32]   = t_nmax;
                cur_next[O_TMR +: 16]   = t_tmr;
                cur_next[O_RTTON]       = t_rtton;
                cur_next[O_RTTSQ +: 32] = t_rttsq;
                cur_next[O_RTTT +: 16]  = t_rttt;
                if (t_send) cur_next[O_RADV +: 32] = c_rnxt + rwnd;
            end
            S_TM_EVAL: begin
                if (c_tmr != 16'd0) cur_next[O_TMR +: 16] = c_tmr - 16'd1;
                if (tm_expire && !tm_tw && !tm_abort) begin
                    cur_next[O_RTO +: 16]  = tm_rto;
                    cur_next[O_TMR +: 16]  = 16'd0;  // restarted with the new RTO on the resend
                    cur_next[O_NXT +: 32]  = c_una;
                    cur_next[O_RTTON]      = 1'b0;
                    cur_next[O_RETR +: 4]  = c_retr + 4'd1;
                    cur_next[O_INREC]      = 1'b0;
                    cur_next[O_DUPS +: 2]  = 2'd0;
                end
            end
            S_SVC_EVAL: if (closereq_reg[sid_reg] && !c_close) begin
                cur_next[O_CLOSE]       = 1'b1;
                cur_next[O_FINSQ +: 32] = c_una + {{(31-B){1'b0}}, txw_reg - c_una[B:0]};
            end
            default: ;
        endcase
    end

    // the first free slot (active open)
    reg              any_free;
    reg [SID_W-1:0]  first_free;
    integer          fi;
    always @* begin
        any_free   = 1'b0;
        first_free = {SID_W{1'b0}};
        for (fi = NUM_SESS - 1; fi >= 0; fi = fi - 1)
            if (slot_free[fi]) begin
                any_free   = 1'b1;
                first_free = fi[SID_W-1:0];
            end
    end

    // pick a slot wanting service
    wire svc_pick = svc_reg[scan_reg] && used_reg[scan_reg];

    always @(posedge clk) begin
        release_reg  <= 1'b0;
        una_wr_reg   <= 1'b0;
        eof_set_reg  <= 1'b0;
        kill_reg     <= 1'b0;
        init_reg     <= 1'b0;
        ev_valid_reg <= 1'b0;
        commit_reg   <= 1'b0;
        isn_start_reg <= 1'b0;
        cur_reg      <= cur_next;
        out_sid_reg  <= sid_reg;
        if (tick_1ms) begin
            tick_pend_reg <= 1'b1;
            now_reg       <= now_reg + 16'd1;
            isn_clk_reg   <= isn_clk_reg + 32'd250;
        end
        case (state_reg)
            S_IDLE: begin
                ack_now_reg   <= 1'b0;
                rst_reply_reg <= 1'b0;
                free_reg      <= 1'b0;
                created_reg   <= 1'b0;
                eof_reg       <= 1'b0;
                more_reg      <= 1'b0;
                nosess_reg    <= 1'b0;
                fr_reg        <= 1'b0;
                evf_reg       <= 5'd0;
                cp_len_reg    <= 16'd0;
                if (s_seg_valid) begin
                    isn_start_reg  <= 1'b1;
                    job_reg        <= JOB_RX;
                    sg_mac_reg     <= s_seg_src_mac;
                    sg_ip_reg      <= s_seg_src_ip;
                    sg_sport_reg   <= s_seg_src_port;
                    sg_dport_reg   <= s_seg_dst_port;
                    sg_seq_reg     <= s_seg_seq;
                    sg_ack_reg     <= s_seg_ack;
                    sg_flags_reg   <= s_seg_flags;
                    sg_wnd_reg     <= s_seg_wnd;
                    sg_mss_reg     <= s_seg_mss;
                    sg_addr_reg    <= s_seg_pay_addr;
                    sg_len_reg     <= s_seg_pay_len;
                    lk_idx_reg     <= {SID_W{1'b0}};
                    lk_cmp_v_reg   <= 1'b0;
                    lk_done_reg    <= 1'b0;
                    free_found_reg <= 1'b0;
                    state_reg      <= S_LOOKUP;
                end else if (s_conn_valid && !tick_pend_reg) begin
                    isn_start_reg <= 1'b1;
                    job_reg      <= JOB_CONN;
                    sg_mac_reg   <= s_conn_mac;
                    sg_ip_reg    <= s_conn_ip;
                    sg_sport_reg <= s_conn_port;
                    sg_dport_reg <= s_conn_lport;
                    sg_wnd_reg   <= 16'd0;
                    sg_mss_reg   <= 16'd0;
                    if (any_free) begin
                        sid_reg   <= first_free;
                        state_reg <= S_CREATE;
                    end else begin
                        // no free slot: refused at once
                        ev_valid_reg <= 1'b1;
                        ev_flags_reg <= 5'b01000;
                        ev_tup_reg   <= {s_conn_ip, s_conn_port, s_conn_lport};
                    end
                end else if (tick_pend_reg) begin
                    tick_pend_reg <= tick_1ms;
                    job_reg       <= JOB_TM;
                    sid_reg       <= {SID_W{1'b0}};
                    state_reg     <= S_TM_SCAN;
                end else if (svc_pick) begin
                    job_reg            <= JOB_SVC;
                    sid_reg            <= scan_reg;
                    svc_reg[scan_reg]  <= 1'b0;
                    state_reg          <= S_LOAD;
                end else begin
                    scan_reg <= (scan_reg == LAST) ? {SID_W{1'b0}} : scan_reg + 1'b1;
                end
            end
            S_LOOKUP: begin
                lk_cmp_reg   <= lk_idx_reg;
                lk_cmp_v_reg <= !lk_done_reg;
                if (lk_idx_reg == LAST) lk_done_reg <= 1'b1;
                else lk_idx_reg <= lk_idx_reg + 1'b1;
                if (lk_cmp_v_reg && slot_free[lk_cmp_reg] && !free_found_reg) begin
                    free_found_reg <= 1'b1;
                    free_sid_reg   <= lk_cmp_reg;
                end
                if (lk_hit) begin
                    sid_reg   <= lk_cmp_reg;
                    state_reg <= S_LOAD;
                end else if (lk_miss) begin
                    // no session
                    if (sg_flags_reg[2]) begin
                        nosess_reg <= 1'b1;
                        state_reg  <= S_WB;           // an RST for nothing: dropped
                    end else if (lk_syn) begin
                        if (lk_free && half_ok) begin
                            sid_reg   <= free_found_reg ? free_sid_reg : lk_cmp_reg;
                            state_reg <= S_CREATE;
                        end else begin
                            nosess_reg <= 1'b1;       // no free slot, or the half-open bound: dropped
                            state_reg  <= S_WB;
                        end
                    end else begin
                        nosess_reg <= 1'b1;
                        state_reg  <= S_NOSESS;
                    end
                end
            end
            S_NOSESS: begin
                // RST for a segment without a session (RFC 9293 3.10.7.1)
                tx_valid_reg <= 1'b1;
                tx_mac_reg   <= sg_mac_reg;
                tx_ip_reg    <= sg_ip_reg;
                tx_sport_reg <= sg_dport_reg;
                tx_dport_reg <= sg_sport_reg;
                tx_seq_reg   <= sg_flags_reg[4] ? sg_ack_reg : 32'd0;
                tx_ack_reg   <= sg_flags_reg[4] ? 32'd0 : sg_seq_reg + seglen;
                tx_flags_reg <= sg_flags_reg[4] ? F_RST : (F_RST | F_ACK);
                tx_wnd_reg   <= 16'd0;
                tx_mss_reg   <= 1'b0;
                tx_len_reg   <= 16'd0;
                state_reg    <= S_EMIT;
            end
            S_CREATE: if (isn_valid) begin  // (waits for the ISN's hash)
                created_reg  <= 1'b1;
                was_half_reg <= 1'b0;
                init_reg    <= 1'b1;
                tup_reg     <= {sg_ip_reg, sg_sport_reg, sg_dport_reg};
                rxr_reg     <= cur_next[O_RNXT +: B+1];
                txw_reg     <= cur_next[O_UNA +: B+1] + 1'b1;
                state_reg   <= S_TX_EVAL;
            end
            S_LOAD: state_reg <= S_LOAD2;
            S_LOAD2: begin
                was_half_reg <= (rec_q_reg[O_STATE +: 4] == ST_SYN_RCVD);
                tup_reg <= tup_q_reg;
                rxr_reg <= rxr_rd_ptr;
                txw_reg <= txw_rd_ptr;
                case (job_reg)
                    JOB_RX:  state_reg <= S_RX_EVAL;
                    JOB_TM:  state_reg <= S_TM_EVAL;
                    default: state_reg <= S_SVC_EVAL;
                endcase
            end
            S_RX_EVAL: begin
                // established: the application may send from now on (its data may be
                // delivered before this job's write-back)
                if (rx_evf[0]) open_reg[sid_reg] <= 1'b1;
                if (rx_init) begin
                    // active open: the pointers start at the peer's first byte and our
                    // first byte after the SYN
                    init_reg <= 1'b1;
                    rxr_reg  <= v_rnxt[B:0];
                    txw_reg  <= c_una[B:0] + 1'b1;
                end
                ack_now_reg    <= rx_ack_now;
                rst_reply_reg  <= rx_rst_reply;
                free_reg       <= rx_free;
                eof_reg        <= rx_eof;
                evf_reg        <= rx_evf;
                cp_len_reg     <= rx_cp_len;
                fr_reg         <= v_fr && !rx_free;
                cp_cnt_reg     <= 16'd0;
                cp_v_reg       <= 1'b0;
                cp_src_reg     <= sg_addr_reg + rx_cp_skip[SW-1:0];
                cp_dst_reg     <= rx_end;
                commit_ptr_reg <= v_rnxt[B:0];
                state_reg      <= (rx_cp_len != 16'd0) ? S_COPY : S_TX_EVAL;
            end
            S_COPY: begin
                if (cp_cnt_reg != cp_len_reg) begin
                    cp_cnt_reg <= cp_cnt_reg + 16'd1;
                    cp_src_reg <= cp_src_reg + 1'b1;
                end
                cp_v_reg <= (cp_cnt_reg != cp_len_reg);
                if (cp_v_reg) cp_dst_reg <= cp_dst_reg + 1'b1;
                if (cp_cnt_reg == cp_len_reg && !cp_v_reg) begin
                    commit_reg <= 1'b1;
                    state_reg  <= S_TX_EVAL;
                end
            end
            S_SVC_EVAL: begin
                if (closereq_reg[sid_reg]) begin
                    closereq_reg[sid_reg] <= 1'b0;
                    open_reg[sid_reg]     <= 1'b0;
                end
                ack_now_reg <= !is_neg(edge_gain) && (edge_gain >= {16'd0, upd_thr});
                state_reg   <= S_TX_EVAL;
            end
            S_TM_SCAN: begin
                if (used_reg[sid_reg]) state_reg <= S_LOAD;
                else if (sid_reg == LAST) state_reg <= S_IDLE;
                else sid_reg <= sid_reg + 1'b1;
            end
            S_TM_EVAL: begin
                if (tm_expire && tm_tw) begin
                    free_reg     <= 1'b1;
                    evf_reg      <= 5'b10000;
                    state_reg    <= S_WB;
                end else if (tm_abort) begin
                    free_reg      <= 1'b1;
                    evf_reg       <= 5'b11000;
                    tx_valid_reg  <= 1'b1;
                    tx_mac_reg    <= c_rmac;
                    tx_ip_reg     <= t_rip;
                    tx_sport_reg  <= t_lport;
                    tx_dport_reg  <= t_rport;
                    tx_seq_reg    <= c_nxt;
                    tx_ack_reg    <= 32'd0;
                    tx_flags_reg  <= F_RST;
                    tx_wnd_reg    <= 16'd0;
                    tx_mss_reg    <= 1'b0;
                    tx_len_reg    <= 16'd0;
                    state_reg     <= S_EMIT;
                end else if (tm_expire) begin
                    state_reg  <= S_TX_EVAL;
                end else begin
                    state_reg <= S_WB;
                end
            end
            S_TX_EVAL: begin
                tx_mac_reg   <= c_rmac;
                tx_ip_reg    <= t_rip;
                tx_sport_reg <= t_lport;
                tx_dport_reg <= t_rport;
                tx_mss_reg   <= 1'b0;
                tx_len_reg   <= 16'd0;
                tx_off_reg   <= t_seq[B-1:0];
                if (rst_reply_reg) begin
                    tx_valid_reg <= 1'b1;
                    tx_seq_reg   <= sg_ack_reg;
                    tx_ack_reg   <= 32'd0;
                    tx_flags_reg <= F_RST;
                    tx_wnd_reg   <= 16'd0;
                    state_reg    <= S_EMIT;
                end else if (t_send && !free_reg) begin
                    tx_valid_reg <= 1'b1;
                    tx_seq_reg   <= t_seq;
                    tx_ack_reg   <= c_rnxt;
                    tx_flags_reg <= t_flags;
                    tx_wnd_reg   <= rwnd[15:0];
                    tx_mss_reg   <= t_mss;
                    tx_len_reg   <= t_len[15:0];
                    more_reg     <= t_more;
                    state_reg    <= S_EMIT;
                end else begin
                    state_reg <= S_WB;
                end
            end
            S_EMIT: if (m_seg_ready) begin
                tx_valid_reg <= 1'b0;
                state_reg    <= S_WB;
            end
            default: begin  // S_WB
                if (!nosess_reg) begin
                    half_cnt_reg <= half_cnt_reg + {{SID_W{1'b0}}, now_half} -
                                    {{SID_W{1'b0}}, was_half_reg};
                    una_wr_reg <= !created_reg;
                    eof_set_reg <= eof_reg;
                    if (created_reg) begin
                        used_reg[sid_reg] <= 1'b1;
                        open_reg[sid_reg] <= 1'b0;
                    end
                    if (evf_reg[0]) open_reg[sid_reg] <= 1'b1;
                    if (more_reg) svc_reg[sid_reg] <= 1'b1;
                    if (free_reg) begin
                        used_reg[sid_reg]     <= 1'b0;
                        open_reg[sid_reg]     <= 1'b0;
                        closereq_reg[sid_reg] <= 1'b0;
                        kill_reg              <= 1'b1;
                    end
                    ev_valid_reg <= (evf_reg != 5'd0);
                    ev_flags_reg <= evf_reg;
                    ev_tup_reg   <= tup_reg;
                    una_ptr_reg  <= c_una[B:0];
                end
                if (job_reg == JOB_RX) release_reg <= 1'b1;
                if (job_reg == JOB_TM && sid_reg != LAST) begin
                    sid_reg   <= sid_reg + 1'b1;
                    state_reg <= S_TM_SCAN;
                end else begin
                    state_reg <= S_IDLE;
                end
                free_reg    <= 1'b0;
                created_reg <= 1'b0;
                more_reg    <= 1'b0;
                evf_reg     <= 5'd0;
                eof_reg     <= 1'b0;
                ack_now_reg <= 1'b0;
                rst_reply_reg <= 1'b0;
            end
        endcase
        // set requests from the other blocks win over the clears above
        if (svc_set) svc_reg[svc_sid] <= 1'b1;
        if (win_set) svc_reg[win_sid] <= 1'b1;
        if (close_set) begin
            svc_reg[close_sid]      <= 1'b1;
            closereq_reg[close_sid] <= 1'b1;
        end
        ev_reg <= ev_next;
        if (rst) begin
            state_reg     <= S_IDLE;
            used_reg      <= {NUM_SESS{1'b0}};
            open_reg      <= {NUM_SESS{1'b0}};
            svc_reg       <= {NUM_SESS{1'b0}};
            closereq_reg  <= {NUM_SESS{1'b0}};
            tick_pend_reg <= 1'b0;
            half_cnt_reg  <= {(SID_W+1){1'b0}};
            now_reg       <= 16'd0;
            isn_clk_reg   <= 32'd0;
            isn_start_reg <= 1'b0;
            scan_reg      <= {SID_W{1'b0}};
            tx_valid_reg  <= 1'b0;
            release_reg   <= 1'b0;
            una_wr_reg    <= 1'b0;
            eof_set_reg   <= 1'b0;
            kill_reg      <= 1'b0;
            init_reg      <= 1'b0;
            ev_valid_reg  <= 1'b0;
            commit_reg    <= 1'b0;
            ev_reg        <= 17'd0;
        end
    end

    // record and tuple write-back
    always @(posedge clk) begin
        if (state_reg == S_WB && !nosess_reg) rec_mem[sid_reg] <= cur_reg;
        if (state_reg == S_CREATE && isn_valid)
            tup_mem[sid_reg] <= {sg_ip_reg, sg_sport_reg, sg_dport_reg};
    end

    assign s_seg_ready   = (state_reg == S_IDLE);
    assign s_conn_ready  = (state_reg == S_IDLE) && !s_seg_valid && !tick_pend_reg;
    assign stage_rd_en   = (state_reg == S_COPY) && (cp_cnt_reg != cp_len_reg);
    assign stage_rd_addr = cp_src_reg;
    assign seg_release   = release_reg;
    assign rxbuf_wr_en   = (state_reg == S_COPY) && cp_v_reg;
    assign rxbuf_wr_addr = {sid_reg, cp_dst_reg[B-1:0]};
    assign rxbuf_wr_data = stage_rd_data;
    assign commit_valid  = commit_reg;
    assign commit_ptr    = commit_ptr_reg;
    assign eof_set       = eof_set_reg;
    assign kill_valid    = kill_reg;
    assign init_valid    = init_reg;
    assign init_rx_ptr   = rxr_reg;
    assign init_tx_ptr   = txw_reg;
    assign cur_sid       = out_sid_reg;
    assign rd_sid        = sid_reg;
    assign una_wr_valid  = una_wr_reg;
    assign una_wr_ptr    = una_ptr_reg;
    assign open_vec      = open_reg;
    assign m_seg_valid   = tx_valid_reg;
    assign m_seg_dst_mac = tx_mac_reg;
    assign m_seg_dst_ip  = tx_ip_reg;
    assign m_seg_src_port = tx_sport_reg;
    assign m_seg_dst_port = tx_dport_reg;
    assign m_seg_seq     = tx_seq_reg;
    assign m_seg_ack     = tx_ack_reg;
    assign m_seg_flags   = tx_flags_reg;
    assign m_seg_wnd     = tx_wnd_reg;
    assign m_seg_mss_opt = tx_mss_reg;
    assign m_seg_pay_sid = sid_reg;
    assign m_seg_pay_off = tx_off_reg;
    assign m_seg_pay_len = tx_len_reg;
    assign ev_valid      = ev_valid_reg;
    assign ev_flags      = ev_flags_reg;
    assign ev_sid        = out_sid_reg;
    assign ev_ip         = ev_tup_reg[63:32];
    assign ev_port       = ev_tup_reg[31:16];
    assign ev_lport      = ev_tup_reg[15:0];
    assign cnt_ev        = ev_reg;

    wire unused = &{1'b0, sg_flags_reg[7:5], sg_flags_reg[3], rx_cp_skip[15:SW], isn_hash[63:32]};
endmodule
`default_nettype wire
