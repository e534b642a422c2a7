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
//   retransmission timer follow, snd_wnd is taken, scaled by the peer's window shift
//   when both SYNs carried window scale, RFC 7323), data in order (copied from tcp_rx's
//   staging ring into the receive buffer up to the free space; rcv_nxt then moves over
//   the out-of-order ranges it reaches), data out of order inside the window (copied to
//   its place in the receive buffer and remembered as one of OOO_RANGES ranges per
//   session in the record, merged with those it overlaps or touches; dropped when that
//   would need one range more than OOO_RANGES; an immediate duplicate ACK either way), FIN in order (the peer's side closed: CLOSE_WAIT, CLOSING
//   or TIME_WAIT). Then the transmit decision runs on the updated record.
// Active open (s_conn_*, taken when no segment or tick waits): a free slot in SYN_SENT
//   sends a SYN with the MSS option (again after each time-out); a SYN-ACK acknowledging
//   it establishes the session (ACK sent), a SYN without ACK makes it SYN_RCVD
//   (simultaneous open), an RST acknowledging it resets it, any other ACK is answered
//   with an RST (RFC 9293 3.10.7.3). No free slot: an aborted event at once.
// A slot is free when unused and neither tcp_app_rx's turn nor tcp_app_tx's burst is on
//   it (rx_busy_*, tx_busy_*), so a new session never receives an old one's bytes.
// Transmit decision: in SYN_SENT the SYN; in SYN_RCVD a SYN-ACK; in the data states one segment of
//   min(unsent, usable window, peer MSS, cfg_mss) bytes from snd_nxt (sender silly-window
//   avoidance, RFC 1122 4.2.3.4: only a full segment, all the data queued, at least half
//   the largest window the peer offered, or after the persist timer's expiry), with the FIN when
//   the application has closed and this segment reaches the end of its data, or a bare
//   ACK when one is owed; the window advertised is the receive buffer's free space. The
//   slot's svc bit is set again while more could be sent.
// Fast retransmit: the third duplicate ACK in a row resends one segment from snd_una at
//   once (snd_nxt stays) and starts a recovery up to recover = snd_max; a partial ACK in
//   the recovery resends the next segment at once, an ACK reaching recover ends it
//   (RFC 5681, RFC 6582); a time-out ends it too.
// Congestion control (unless cfg_cc_off): the sender stays within min(cwnd, peer window);
//   initial window 2-4 SMSS (RFC 5681 3.1), slow start, congestion avoidance by byte
//   counting, ssthresh = max(FlightSize/2, 2 SMSS) and cwnd = ssthresh + 3 SMSS on the
//   third duplicate ACK, inflation per further duplicate, NewReno deflation on a partial
//   ACK and cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS) at its end (RFC 6582),
//   cwnd = 1 SMSS after a time-out (ssthresh cut on the first one).
// Persist: data waiting, a zero window and nothing outstanding start the persist timer
//   (from the RTO, doubled per probe up to cfg_rto_max); each expiry sends a probe (an
//   empty ACK at snd_una - 1); any ACK restarts the unanswered count (cfg_max_retries
//   unanswered: abort), a window opened ends it.
// Delayed ACK (cfg_dack_time ticks, 0 = ACK at once, at most 500): a whole in-order
//   segment waits for a segment to ride on up to the delay, the second one is
//   acknowledged at once. Keep-alive (cfg_ka_idle seconds, 0 = off; cfg_ka_intvl,
//   cfg_ka_count): an idle session is probed (empty ACK at snd_una - 1), aborted after
//   cfg_ka_count unanswered probes; seconds are counted from tick_1ms (1000 a second).
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
//   16 duplicate ACKs received, 17 persist probes sent, 18 cwnd reductions (third
//   duplicate ACK, first time-out), 19 ACKs sent by the delayed-ACK timer, 20 keep-alive
//   probes sent, 21 out-of-order segments kept, 22 out-of-order segments dropped (range
//   table full).
// Parameters: NUM_SESS (2 to 256; 2, 8, 64 and 256 tested), SID_W = clog2(NUM_SESS),
//   BUF_LOG2 (bytes per session and direction, log2: 9 to 11; 9 and 11 tested),
//   NUM_LISTEN (listening ports: 1 or 2, both tested), STAGE_LOG2 (tcp_rx's ring: 11,
//   tested), MAX_HALF_OPEN (1 to NUM_SESS, default NUM_SESS/2; the default tested at each
//   NUM_SESS above), OOO_RANGES (out-of-order ranges per session, 1 to 4; 1, 2, 4 tested).
// Latency: segment in to its reply descriptor about NUM_SESS + 8 cycles plus the bytes
//   copied.
module tcp_ctl #(
    parameter integer NUM_SESS   = 8,
    parameter integer SID_W      = 3,
    parameter integer BUF_LOG2   = 11,
    parameter integer NUM_LISTEN = 2,
    parameter integer STAGE_LOG2 = 11,
    parameter integer MAX_HALF_OPEN = (NUM_SESS > 1) ? NUM_SESS / 2 : 1,
    parameter integer OOO_RANGES = 2
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
    input  wire                        cfg_cc_off,      // 1: no congestion control
    input  wire [9:0]                  cfg_dack_time,   // delayed-ACK time (ticks), 0 = none
    input  wire [15:0]                 cfg_ka_idle,     // keep-alive idle time (s), 0 = off
    input  wire [15:0]                 cfg_ka_intvl,    // keep-alive probe interval (s)
    input  wire [3:0]                  cfg_ka_count,    // keep-alive probes before the abort
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
    input  wire                        s_seg_wscale_valid,  // the SYN's window-scale option
    input  wire [3:0]                  s_seg_wscale,
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
    output wire                        m_seg_ws_opt,
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
    output wire [22:0]                 cnt_ev
);
    generate
        if (NUM_SESS < 2 || NUM_SESS > 256) begin : g_check_num_sess
            tcp_ctl_NUM_SESS_must_be_2_to_256 u_error ();  // unsupported parameter (no such module)
        end
        if (SID_W != $clog2(NUM_SESS)) begin : g_check_sid_w
            tcp_ctl_SID_W_must_be_clog2_NUM_SESS u_error ();
        end
        if (BUF_LOG2 < 9 || BUF_LOG2 > 11) begin : g_check_buf_log2
            tcp_ctl_BUF_LOG2_must_be_9_to_11 u_error ();
        end
        if (MAX_HALF_OPEN < 1 || MAX_HALF_OPEN > NUM_SESS) begin : g_check_max_half_open
            tcp_ctl_MAX_HALF_OPEN_must_be_1_to_NUM_SESS u_error ();
        end
        if (NUM_LISTEN < 1 || NUM_LISTEN > 2) begin : g_check_num_listen
            tcp_ctl_NUM_LISTEN_must_be_1_or_2 u_error ();
        end
        if (STAGE_LOG2 != 11) begin : g_check_stage_log2
            tcp_ctl_STAGE_LOG2_must_be_11 u_error ();
        end
        if (OOO_RANGES < 1 || OOO_RANGES > 4) begin : g_check_ooo_ranges
            tcp_ctl_OOO_RANGES_must_be_1_to_4 u_error ();
        end
    endgenerate

    localparam integer B  = BUF_LOG2;
    localparam integer SW = STAGE_LOG2;
    localparam integer     LAST_I = NUM_SESS - 1;
    localparam [SID_W-1:0] LAST   = LAST_I[SID_W-1:0];  // the last slot

    // TCP states (RFC 9293) kept in the record; a free slot has no state (used bit 0)
    localparam [3:0] TCP_SYN_RCVD = 4'd1, TCP_ESTAB = 4'd2, TCP_FIN_WAIT_1 = 4'd3,
                     TCP_FIN_WAIT_2 = 4'd4, TCP_CLOSE_WAIT = 4'd5, TCP_CLOSING = 4'd6,
                     TCP_LAST_ACK = 4'd7, TCP_TIME_WAIT = 4'd8, TCP_SYN_SENT = 4'd9;
    localparam [7:0] F_FIN = 8'h01, F_SYN = 8'h02, F_RST = 8'h04, F_PSH = 8'h08, F_ACK = 8'h10;
    // ev_flags bits, and their masks
    localparam integer EVF_ESTABLISHED = 0, EVF_PEER_CLOSED = 1, EVF_RESET = 2, EVF_ABORTED = 3,
                       EVF_CLOSED = 4;
    localparam [4:0] EV_ABORTED = 5'd1 << EVF_ABORTED, EV_CLOSED = 5'd1 << EVF_CLOSED;
    // cnt_ev bits (the header's list)
    localparam integer CNT_SEGS = 0, CNT_RST_NO_SESSION = 1, CNT_SYN_DROP = 2,
                       CNT_UNACCEPTABLE = 3, CNT_OUT_OF_ORDER = 4, CNT_PEER_RESET = 5,
                       CNT_CHALLENGE_ACK = 6, CNT_RTO = 7, CNT_ABORTED = 8, CNT_BAD_ACK = 9,
                       CNT_SENT = 10, CNT_SENT_DATA = 11, CNT_RETRANSMIT = 12,
                       CNT_ESTABLISHED = 13, CNT_CLOSED = 14, CNT_CUT = 15, CNT_DUP_ACK = 16,
                       CNT_PROBE = 17, CNT_CWND_CUT = 18, CNT_DACK = 19, CNT_KEEPALIVE = 20,
                       CNT_OOO_KEPT = 21, CNT_OOO_FULL = 22;
    localparam integer NCNT = 23;

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
    localparam integer O_CWND  = 439;  // 16: congestion window (bytes, RFC 5681)
    localparam integer O_SSTH  = 455;  // 16: slow-start threshold
    localparam integer O_BACK  = 471;  // 16: bytes acknowledged in congestion avoidance
    localparam integer O_PERS  = 487;  // 1: the timer is the persist timer (zero window)
    localparam integer O_PINT  = 488;  // 16: persist interval (backed off per probe)
    localparam integer O_DACK  = 504;  // 10: delayed-ACK countdown (0: no ACK owed)
    localparam integer O_KAT   = 514;  // 16: keep-alive countdown (s; 0: not started)
    localparam integer O_KAN   = 530;  // 4: keep-alive probes unanswered
    // out-of-order ranges kept in the receive buffer: OOO_RANGES of (start, end), each the
    // low B+1 bits of a sequence number (end exclusive, start = end: unused), sorted by
    // their distance from rcv_nxt, disjoint and not adjacent
    localparam integer NR      = OOO_RANGES;
    localparam integer RGB     = BUF_LOG2 + 1;
    localparam integer RG_W    = 2 * RGB;
    localparam integer O_WS    = 534;  // 4: the peer's window shift (RFC 7323)
    localparam integer O_WSOK  = 538;  // 1: the peer's SYN carried window scale
    localparam integer O_SWHI  = 539;  // 14: snd_wnd's high bits (a scaled window)
    localparam integer O_MAXW  = 553;  // 16: the largest window the peer offered (saturated)
    localparam integer O_OOO   = 569;  // NR * RG_W
    localparam integer REC_W   = O_OOO + NR * RG_W;

    // the job's state machine
    localparam [3:0] STATE_IDLE = 4'd0, STATE_LOOKUP = 4'd1, STATE_LOAD = 4'd2, STATE_LOAD2 = 4'd3,
                     STATE_RX_EVAL = 4'd4, STATE_COPY = 4'd5, STATE_TX_EVAL = 4'd6, STATE_EMIT = 4'd7,
                     STATE_WB = 4'd8, STATE_TM_SCAN = 4'd9, STATE_TM_EVAL = 4'd10, STATE_SVC_EVAL = 4'd11,
                     STATE_CREATE = 4'd12, STATE_NOSESS = 4'd13;
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
    reg                sg_wsv_reg;
    reg [3:0]          sg_ws_reg;
    wire               seg_fin = sg_flags_reg[0], seg_syn = sg_flags_reg[1],
                       seg_rst = sg_flags_reg[2], seg_ack_flag = sg_flags_reg[4];
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
    reg                pforce_reg;  // the persist timer expired: probe (or send what fits)
    reg                kap_reg;     // keep-alive probe due
    reg                sec_pend_reg, sec_now_reg;  // a second passed (keep-alive sweep)
    reg [9:0]          ms_cnt_reg;
    reg [4:0]          evf_reg;
    // copy into the receive buffer
    reg [15:0]         cp_len_reg, cp_cnt_reg;
    reg [SW-1:0]       cp_src_reg;
    reg [B:0]          cp_dst_reg;
    reg                cp_v_reg;
    reg [B:0]          commit_ptr_reg;
    reg                commit_reg, cp_commit_reg;
    // transmit descriptor
    reg                tx_valid_reg;
    reg [47:0]         tx_mac_reg;
    reg [31:0]         tx_ip_reg, tx_seq_reg, tx_ack_reg;
    reg [15:0]         tx_sport_reg, tx_dport_reg, tx_wnd_reg, tx_len_reg;
    reg [7:0]          tx_flags_reg;
    reg                tx_mss_reg, tx_ws_reg;
    reg [B-1:0]        tx_off_reg;
    // outputs
    reg                release_reg, una_wr_reg, eof_set_reg, kill_reg, init_reg;
    reg                ev_valid_reg;
    reg [4:0]          ev_flags_reg;
    reg [NCNT-1:0]     ev_reg, ev_next;
    reg [SID_W-1:0]    out_sid_reg;   // slot of the strobes registered in the cycle before
    reg [B:0]          una_ptr_reg;
    reg [63:0]         ev_tup_reg;

    // ---- the working record's fields ----
    wire [3:0]  c_state = cur_reg[O_STATE +: 4];
    wire [47:0] c_rmac  = cur_reg[O_RMAC +: 48];
    wire [31:0] c_una   = cur_reg[O_UNA +: 32];
    wire [31:0] c_nxt   = cur_reg[O_NXT +: 32];
    wire [31:0] c_max   = cur_reg[O_MAX +: 32];
    wire [29:0] c_swnd  = {cur_reg[O_SWHI +: 14], cur_reg[O_SWND +: 16]};
    wire [3:0]  c_ws    = cur_reg[O_WS +: 4];
    wire        c_wsok  = cur_reg[O_WSOK];
    wire [15:0] c_maxw  = cur_reg[O_MAXW +: 16];
    // the window of a segment that is not a SYN, scaled by the peer's shift (RFC 7323 2.3)
    wire [29:0] sg_wnd_sc = {14'd0, sg_wnd_reg} << (c_wsok ? c_ws : 4'd0);
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
    wire [15:0] c_cwnd  = cur_reg[O_CWND +: 16];
    wire [15:0] c_ssth  = cur_reg[O_SSTH +: 16];
    wire [15:0] c_back  = cur_reg[O_BACK +: 16];
    wire        c_pers  = cur_reg[O_PERS];
    wire [15:0] c_pint  = cur_reg[O_PINT +: 16];
    wire [9:0]  c_dack  = cur_reg[O_DACK +: 10];
    wire [15:0] c_kat   = cur_reg[O_KAT +: 16];
    wire [3:0]  c_kan   = cur_reg[O_KAN +: 4];
    wire [NR*RG_W-1:0] c_rg = cur_reg[O_OOO +: NR*RG_W];
    // the delayed-ACK time, at most 500 ms (RFC 1122 4.2.3.2)
    wire [9:0]  dack_time = (cfg_dack_time > 10'd500) ? 10'd500 : cfg_dack_time;
    wire [31:0] tup_rip   = tup_reg[63:32];
    wire [15:0] tup_rport = tup_reg[31:16];
    wire [15:0] tup_lport = tup_reg[15:0];

    // ---- shared arithmetic ----
    wire [B:0]  rx_end  = c_rnxt[B:0] - {{B{1'b0}}, c_finrx};  // data end (FIN excluded), low bits
    wire [B:0]  rx_used = rx_end - rxr_reg;
    wire [B+1:0] rwnd_b = (1 << B) - {1'b0, rx_used};
    wire [31:0] rwnd    = {{(30-B){1'b0}}, rwnd_b};
    wire [15:0] lim     = (c_pmss < cfg_mss) ? c_pmss : cfg_mss;  // SMSS

    // ---- congestion control arithmetic (RFC 5681, RFC 6582), in bytes, 16 bits ----
    // a + b, saturating at 16 bits
    function [15:0] sat16;
        input [17:0] v;
        sat16 = (v > 18'hFFFF) ? 16'hFFFF : v[15:0];
    endfunction
    // RFC 5681 section 3.1: IW = 2, 3 or 4 SMSS by the SMSS (above 2190, 1095, else)
    function [15:0] init_wnd;
        input [15:0] smss;
        if (smss > 16'd2190) init_wnd = sat16({1'b0, smss, 1'b0});
        else if (smss > 16'd1095) init_wnd = sat16({2'b0, smss} + {1'b0, smss, 1'b0});
        else init_wnd = {smss[13:0], 2'b00};
    endfunction
    wire [31:0] flight   = c_max - c_una;              // FlightSize
    wire [17:0] smss2    = {1'b0, lim, 1'b0};
    // ssthresh after a loss: max(FlightSize / 2, 2 SMSS) (RFC 5681 equation 4)
    wire [15:0] ssth_cut = (flight[31:1] >= {13'd0, smss2}) ?
                               ((flight[31:17] != 15'd0) ? 16'hFFFF : flight[16:1]) : sat16(smss2);

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

    // ---- out-of-order ranges (RFC 9293 3.10.7.4: data beyond rcv_nxt inside the window
    // kept in the receive buffer at its place) ----
    // In order: the data taken moves rcv_nxt to og_j (distance from rcv_nxt) and then
    // over every range it reaches (the ranges are sorted: a prefix of og_nd of them).
    // Out of order ([og_s, og_e), the segment cut to the window): the ranges it overlaps
    // or touches merge with it, those wholly before (og_nb) and after (og_na) stay; when
    // og_nb + og_na + 1 exceeds NR the table is full and the segment is dropped.
    wire [31:0] og_off  = sg_seq_reg - c_rnxt;
    wire [31:0] og_skip = c_rnxt - sg_seq_reg;
    wire [31:0] og_avail = {16'd0, sg_len_reg} - og_skip;
    wire [31:0] og_take = (og_avail < rwnd) ? og_avail : rwnd;   // (in order)
    wire [31:0] og_end  = og_off + {16'd0, sg_len_reg};
    wire [B:0]  og_s    = og_off[B:0];                              // (out of order)
    wire [B:0]  og_e    = (og_end > rwnd) ? rwnd[B:0] : og_end[B:0];
    reg  [B:0]  og_j, og_rs, og_re, og_ms, og_me;
    reg  [NR*RG_W-1:0] og_rg_in, og_rg_ooo;
    reg         og_full;
    integer     oi, og_nd, og_nb, og_nm, og_na;
    always @* begin
        og_j  = og_take[B:0];
        og_nd = 0;
        og_nb = 0;
        og_nm = 0;
        og_na = 0;
        og_ms = og_s;
        og_me = og_e;
        for (oi = 0; oi < NR; oi = oi + 1) begin
            og_rs = c_rg[oi*RG_W +: RGB] - c_rnxt[B:0];
            og_re = c_rg[oi*RG_W+RGB +: RGB] - c_rnxt[B:0];
            if (og_rs != og_re) begin
                if (og_nd == oi && og_rs <= og_j) begin
                    if (og_re > og_j) og_j = og_re;
                    og_nd = oi + 1;
                end
                if (og_re < og_s) og_nb = og_nb + 1;
                else if (og_rs > og_e) og_na = og_na + 1;
                else begin
                    og_nm = og_nm + 1;
                    if (og_rs < og_ms) og_ms = og_rs;
                    if (og_re > og_me) og_me = og_re;
                end
            end
        end
        og_full = (og_nb + og_na + 1 > NR);
        og_rg_in  = {(NR*RG_W){1'b0}};
        og_rg_ooo = {(NR*RG_W){1'b0}};
        for (oi = 0; oi < NR; oi = oi + 1) begin
            if (oi + og_nd < NR) og_rg_in[oi*RG_W +: RG_W] = c_rg[(oi+og_nd)*RG_W +: RG_W];
            if (oi < og_nb) og_rg_ooo[oi*RG_W +: RG_W] = c_rg[oi*RG_W +: RG_W];
            else if (oi == og_nb)
                og_rg_ooo[oi*RG_W +: RG_W] = {og_me + c_rnxt[B:0], og_ms + c_rnxt[B:0]};
            else if (oi <= og_nb + og_na)
                og_rg_ooo[oi*RG_W +: RG_W] = c_rg[(oi-1+og_nm)*RG_W +: RG_W];
        end
    end
    wire og_any = (c_rg != {(NR*RG_W){1'b0}});   // a hole is open

    // ---- segment evaluation (STATE_RX_EVAL) ----
    reg [31:0] rx_una, rx_nxt, rx_rnxt, rx_seq_off, rx_end_off, rx_ack_off, rx_max_off, rx_skip, rx_avail;
    reg [31:0] rx_take;
    reg [19:0] rx_srtt, rx_rvar, rx_rtt_err, rx_rtt;
    reg [15:0] rx_rto, rx_tmr;
    reg [29:0] rx_swnd;
    reg [3:0]  rx_ws;
    reg        rx_wsok;
    reg [3:0]  rx_state, rx_retr;
    reg        rx_rtton, rx_have, rx_finrx, rx_fin_acked, rx_accept, rx_drop, rx_inrec, rx_fast_rexmit;
    reg [1:0]  rx_dups;
    reg [31:0] rx_recov;
    reg        rx_ack_now, rx_rst_reply, rx_free, rx_eof, rx_init, sent_ack_ok;
    reg [15:0] rx_pmss;
    reg [4:0]  rx_evf;
    reg [15:0] rx_cp_len, rx_cp_skip;
    reg [31:0] seglen;
    reg [NCNT-1:0] rx_ev;
    reg [15:0] rx_cwnd, rx_ssth, rx_back, rx_acked;
    reg [17:0] rx_sum;
    reg [31:0] rx_fl;
    reg        rx_pers, rx_defer;
    reg [NR*RG_W-1:0] rx_rg;
    reg [B:0]  rx_cp_dst;
    always @* begin
        rx_state  = c_state;
        rx_rg     = c_rg;
        rx_cp_dst = rx_end;
        rx_una    = c_una;
        rx_nxt    = c_nxt;
        rx_rnxt   = c_rnxt;
        rx_srtt   = c_srtt;
        rx_rvar   = c_rvar;
        rx_rto    = c_rto;
        rx_tmr    = c_tmr;
        rx_rtton  = c_rtton;
        rx_have   = c_have;
        rx_retr   = c_retr;
        rx_swnd   = c_swnd;
        rx_ws     = c_ws;
        rx_wsok   = c_wsok;
        rx_finrx  = c_finrx;
        rx_fin_acked = 1'b0;
        rx_pmss   = c_pmss;
        rx_init  = 1'b0;
        sent_ack_ok = seg_ack_flag && (sg_ack_reg == c_una + 32'd1);
        rx_dups   = c_dups;
        rx_inrec  = c_inrec;
        rx_recov  = c_recov;
        rx_fast_rexmit     = 1'b0;
        rx_drop   = 1'b0;
        rx_rtt      = 20'd0;
        rx_rtt_err    = 20'd0;
        rx_skip   = 32'd0;
        rx_avail  = 32'd0;
        rx_take   = 32'd0;
        rx_ack_now   = 1'b0;
        rx_rst_reply = 1'b0;
        rx_free      = 1'b0;
        rx_eof       = 1'b0;
        rx_evf       = 5'd0;
        rx_cp_len    = 16'd0;
        rx_cp_skip   = 16'd0;
        rx_ev        = {NCNT{1'b0}};
        rx_cwnd      = c_cwnd;
        rx_ssth      = c_ssth;
        rx_back      = c_back;
        rx_pers      = c_pers;
        rx_defer     = 1'b0;
        rx_acked     = 16'd0;
        rx_sum       = 18'd0;
        rx_fl        = 32'd0;
        rx_ev[CNT_SEGS]     = 1'b1;
        seglen    = {16'd0, sg_len_reg} + {31'd0, seg_syn} + {31'd0, seg_fin};
        rx_seq_off     = sg_seq_reg - c_rnxt;
        rx_end_off = sg_seq_reg + seglen - 32'd1 - c_rnxt;
        rx_accept  = (sg_seq_reg == c_rnxt) ||
                    ((rwnd != 32'd0) && ((rx_seq_off < rwnd) || (seglen != 32'd0 && rx_end_off < rwnd)));
        rx_ack_off    = sg_ack_reg - c_una;
        rx_max_off  = c_max - c_una;
        if (c_state == TCP_SYN_SENT) begin
            // RFC 9293 3.10.7.3: our SYN is out, no sequence number of the peer's known
            if (seg_ack_flag && !sent_ack_ok) begin
                rx_rst_reply = !seg_rst;
                rx_ev[CNT_BAD_ACK]     = !seg_rst;
            end else if (seg_rst) begin
                if (sent_ack_ok) begin  // refused
                    rx_free   = 1'b1;
                    rx_evf[EVF_RESET] = 1'b1;
                    rx_ev[CNT_PEER_RESET]  = 1'b1;
                    rx_ev[CNT_CLOSED] = 1'b1;
                end
            end else if (seg_syn) begin
                rx_rnxt  = sg_seq_reg + 32'd1;
                rx_swnd  = {14'd0, sg_wnd_reg};   // (a SYN's window is never scaled)
                rx_ws    = sg_ws_reg;             // scaling when both SYNs carry it
                rx_wsok  = sg_wsv_reg;
                rx_pmss  = (sg_mss_reg == 16'd0) ? 16'd536 : sg_mss_reg;
                rx_cwnd  = init_wnd((rx_pmss < cfg_mss) ? rx_pmss : cfg_mss);
                rx_init = 1'b1;
                rx_ack_now = 1'b1;
                rx_rtton = 1'b0;  // (no sample from the handshake of an active open)
                if (sent_ack_ok) begin
                    rx_una     = sg_ack_reg;
                    rx_state   = TCP_ESTAB;
                    rx_tmr     = 16'd0;
                    rx_retr    = 4'd0;
                    rx_evf[EVF_ESTABLISHED] = 1'b1;
                    rx_ev[CNT_ESTABLISHED] = 1'b1;
                end else begin
                    rx_state = TCP_SYN_RCVD;  // simultaneous open: SYN-ACK of our SYN
                end
            end
        end else if (!rx_accept) begin
            rx_ack_now = !seg_rst;
            rx_ev[CNT_UNACCEPTABLE]   = 1'b1;
        end else if (seg_rst) begin  // RST
            if (sg_seq_reg == c_rnxt) begin
                rx_free   = 1'b1;
                rx_evf[EVF_RESET] = 1'b1;
                rx_ev[CNT_PEER_RESET]  = 1'b1;
                rx_ev[CNT_CLOSED] = 1'b1;
            end else begin
                rx_ack_now = 1'b1;
                rx_ev[CNT_CHALLENGE_ACK]   = 1'b1;
            end
        end else if (seg_syn) begin  // SYN on a session: challenge ACK
            rx_ack_now = 1'b1;
            rx_ev[CNT_CHALLENGE_ACK]   = 1'b1;
        end else if (seg_ack_flag) begin  // ACK
            if (c_state == TCP_SYN_RCVD) begin
                if (rx_ack_off != 32'd0 && rx_ack_off <= rx_max_off) begin
                    rx_state   = TCP_ESTAB;
                    rx_evf[EVF_ESTABLISHED] = 1'b1;
                    rx_ev[CNT_ESTABLISHED] = 1'b1;
                end else begin
                    rx_rst_reply = 1'b1;
                    rx_ev[CNT_BAD_ACK]     = 1'b1;
                    rx_drop       = 1'b1;
                end
            end
            if (!rx_drop) begin
                if ((rx_ack_off > rx_max_off && !is_neg(rx_ack_off)) ||
                    (is_neg(rx_ack_off) && rx_ack_off < 32'hFFFF0000)) begin
                    // acknowledges data not sent, or older than the largest window
                    // behind snd_una: ACK and drop (RFC 9293, RFC 5961 section 5)
                    rx_ack_now = 1'b1;
                    rx_ev[CNT_BAD_ACK]   = 1'b1;
                    rx_drop     = 1'b1;
                end else if (!is_neg(rx_ack_off)) begin
                    if (rx_ack_off != 32'd0) begin
                        rx_una  = sg_ack_reg;
                        if (is_neg(rx_nxt - sg_ack_reg)) rx_nxt = sg_ack_reg;
                        rx_retr = 4'd0;
                        if (c_rtton && !is_neg(sg_ack_reg - c_rttsq)) begin
                            // RFC 6298 sample
                            rx_rtt     = {4'd0, now_reg - c_rttt};
                            rx_rtton = 1'b0;
                            if (!c_have) begin
                                rx_srtt = rx_rtt << 3;
                                rx_rvar = rx_rtt << 1;
                            end else begin
                                rx_rtt_err  = (rx_rtt > {3'd0, c_srtt[19:3]}) ? rx_rtt - {3'd0, c_srtt[19:3]} :
                                                                       {3'd0, c_srtt[19:3]} - rx_rtt;
                                rx_rvar = c_rvar - {2'd0, c_rvar[19:2]} + rx_rtt_err;
                                rx_srtt = c_srtt - {3'd0, c_srtt[19:3]} + rx_rtt;
                            end
                            rx_have = 1'b1;
                            rx_rto  = clamp_rto({3'd0, rx_srtt[19:3]} +
                                               ((rx_rvar == 20'd0) ? 20'd1 : rx_rvar));
                        end
                        rx_tmr = (sg_ack_reg == c_max) ? 16'd0 : rx_rto;
                        rx_dups = 2'd0;
                        rx_acked = (rx_ack_off[31:16] != 16'd0) ? 16'hFFFF : rx_ack_off[15:0];
                        if (c_inrec) begin
                            // RFC 6582: a partial ACK resends the next segment at once
                            // and deflates cwnd by the bytes acknowledged (one SMSS added
                            // back if at least one SMSS); a full one (recover reached)
                            // ends the recovery with cwnd = min(ssthresh,
                            // max(FlightSize, SMSS) + SMSS) (its option 1)
                            if (is_neg(sg_ack_reg - c_recov)) begin
                                rx_fast_rexmit = 1'b1;
                                rx_sum  = ((c_cwnd > rx_acked) ? {2'd0, c_cwnd - rx_acked} : 18'd0) +
                                          ((rx_acked >= lim) ? {2'd0, lim} : 18'd0);
                                rx_cwnd = (rx_sum < {2'd0, lim}) ? lim : sat16(rx_sum);
                            end else begin
                                rx_inrec = 1'b0;
                                rx_fl    = c_max - sg_ack_reg;
                                rx_sum   = {2'd0, (rx_fl[31:16] != 16'd0) ? 16'hFFFF : rx_fl[15:0]};
                                if (rx_sum < {2'd0, lim}) rx_sum = {2'd0, lim};
                                rx_sum   = rx_sum + {2'd0, lim};
                                rx_cwnd  = (rx_sum < {2'd0, c_ssth}) ? rx_sum[15:0] : c_ssth;
                                rx_back  = 16'd0;
                            end
                        end else if (c_state != TCP_SYN_RCVD) begin
                            if (c_cwnd < c_ssth) begin
                                // slow start: cwnd += min(bytes acknowledged, SMSS)
                                rx_cwnd = sat16({2'd0, c_cwnd} +
                                                {2'd0, (rx_acked < lim) ? rx_acked : lim});
                            end else begin
                                // congestion avoidance: one SMSS per cwnd of bytes
                                // acknowledged (RFC 5681 section 3.1, byte counting)
                                rx_sum = {2'd0, c_back} + {2'd0, rx_acked};
                                if (rx_sum >= {2'd0, c_cwnd}) begin
                                    rx_sum  = rx_sum - {2'd0, c_cwnd};
                                    rx_cwnd = sat16({2'd0, c_cwnd} + {2'd0, lim});
                                end
                                rx_back = sat16(rx_sum);
                            end
                        end
                    end else if (sg_len_reg == 16'd0 && !seg_fin && c_max != c_una &&
                                 sg_wnd_sc == c_swnd) begin
                        rx_ev[CNT_DUP_ACK] = 1'b1;  // duplicate ACK
                        if (c_dups != 2'd3) rx_dups = c_dups + 2'd1;
                        if (c_dups == 2'd2 && !c_inrec) begin
                            // the third: fast retransmit (RFC 5681), no RTT sample from it;
                            // ssthresh = max(FlightSize/2, 2 SMSS), cwnd = ssthresh + 3 SMSS
                            rx_fast_rexmit    = 1'b1;
                            rx_inrec = 1'b1;
                            rx_recov = c_max;
                            rx_rtton = 1'b0;
                            rx_ssth  = ssth_cut;
                            rx_cwnd  = sat16({2'd0, ssth_cut} + {1'b0, lim, 1'b0} + {2'd0, lim});
                            rx_back  = 16'd0;
                            rx_ev[CNT_CWND_CUT] = 1'b1;
                        end else if (c_inrec) begin
                            // each further duplicate in the recovery: cwnd += SMSS
                            rx_cwnd  = sat16({2'd0, c_cwnd} + {2'd0, lim});
                        end
                    end
                    rx_swnd = sg_wnd_sc;
                    if (c_pers) begin
                        // a probe answered: the count of unanswered probes restarts; a
                        // window opened ends the persist state (its timer stops)
                        rx_retr = 4'd0;
                        if (sg_wnd_reg != 16'd0) begin
                            rx_pers = 1'b0;
                            rx_tmr  = 16'd0;
                        end
                    end
                    rx_fin_acked = c_close && (c_max == c_finsq + 32'd1) &&
                                  (sg_ack_reg == c_finsq + 32'd1);
                    if (rx_fin_acked) begin
                        case (rx_state)
                            TCP_FIN_WAIT_1: rx_state = TCP_FIN_WAIT_2;
                            TCP_CLOSING: begin
                                rx_state = TCP_TIME_WAIT;
                                rx_tmr   = cfg_time_wait;
                            end
                            TCP_LAST_ACK: begin
                                rx_free    = 1'b1;
                                rx_evf[EVF_CLOSED]  = 1'b1;
                                rx_ev[CNT_CLOSED]  = 1'b1;
                            end
                            default: ;
                        endcase
                    end
                end
                // data
                if (!rx_drop && !rx_free && sg_len_reg != 16'd0) begin
                    if ((rx_state == TCP_ESTAB || rx_state == TCP_FIN_WAIT_1 ||
                         rx_state == TCP_FIN_WAIT_2) && !c_finrx) begin
                        rx_skip = c_rnxt - sg_seq_reg;
                        if ((rx_seq_off == 32'd0 || is_neg(rx_seq_off)) && rx_skip < {16'd0, sg_len_reg}) begin
                            rx_avail = {16'd0, sg_len_reg} - rx_skip;
                            rx_take  = (rx_avail < rwnd) ? rx_avail : rwnd;
                            rx_cp_len  = rx_take[15:0];
                            rx_cp_skip = rx_skip[15:0];
                            // rcv_nxt moves over the data and the kept ranges it reaches
                            rx_rnxt  = c_rnxt + {{(31-B){1'b0}}, og_j};
                            rx_rg    = og_rg_in;
                            if (rx_take != rx_avail) rx_ev[CNT_CUT] = 1'b1;
                            // delayed ACK (RFC 1122 4.2.3.2, RFC 5681 4.2): a whole
                            // in-order segment with no ACK owed yet and no hole open
                            // waits for data to ride on, up to dack_time; the second
                            // one, and one filling a hole, are acknowledged at once
                            rx_defer = (dack_time != 10'd0) && (c_dack == 10'd0) &&
                                       (rx_take == rx_avail) && !seg_fin && !og_any;
                        end else if (!is_neg(rx_seq_off)) begin
                            // out of order: kept at its place in the receive buffer and
                            // remembered as a range, unless the range table is full
                            // (dropped); a duplicate ACK at once either way
                            rx_ev[CNT_OUT_OF_ORDER] = 1'b1;
                            if (og_full) begin
                                rx_ev[CNT_OOO_FULL] = 1'b1;
                            end else begin
                                rx_ev[CNT_OOO_KEPT] = 1'b1;
                                rx_rg     = og_rg_ooo;
                                rx_cp_len = {{(15-B){1'b0}}, og_e - og_s};
                                rx_cp_dst = sg_seq_reg[B:0];
                            end
                        end
                    end
                    rx_ack_now = !rx_defer;
                end
                // FIN
                if (!rx_drop && !rx_free && seg_fin) begin
                    if ((rx_state == TCP_ESTAB || rx_state == TCP_FIN_WAIT_1 ||
                         rx_state == TCP_FIN_WAIT_2) && !c_finrx &&
                        (sg_seq_reg + {16'd0, sg_len_reg} == rx_rnxt)) begin
                        rx_rnxt    = rx_rnxt + 32'd1;
                        rx_finrx   = 1'b1;
                        rx_eof    = 1'b1;
                        rx_evf[EVF_PEER_CLOSED] = 1'b1;
                        case (rx_state)
                            TCP_ESTAB:      rx_state = TCP_CLOSE_WAIT;
                            TCP_FIN_WAIT_1: if (rx_fin_acked) begin
                                               rx_state = TCP_TIME_WAIT;
                                               rx_tmr   = cfg_time_wait;
                                           end else rx_state = TCP_CLOSING;
                            default: begin
                                rx_state = TCP_TIME_WAIT;
                                rx_tmr   = cfg_time_wait;
                            end
                        endcase
                    end
                    rx_ack_now = 1'b1;
                end
            end
        end
    end

    // ---- transmit decision (STATE_TX_EVAL) ----
    reg [31:0] t_queued, t_data_end, t_unsent, t_usable, t_len, t_nnxt, t_nmax, t_diff;
    reg        t_fin, t_send, t_data_state, t_rexmit, t_more;
    reg [7:0]  t_flags;
    reg [31:0] t_seq;
    reg        t_mss, t_ws;
    reg [3:0]  t_state;
    reg [15:0] t_tmr;
    reg        t_rtton;
    reg [31:0] t_rttsq;
    reg [15:0] t_rttt;
    reg [29:0] t_ewnd;
    reg [15:0] t_pint;
    reg [3:0]  t_retr;
    reg        t_pers, t_dsend, t_hold, t_probe;
    always @* begin
        t_state   = c_state;
        t_tmr     = c_tmr;
        t_rtton   = c_rtton;
        t_rttsq   = c_rttsq;
        t_rttt    = c_rttt;
        t_pers    = c_pers;
        t_pint    = c_pint;
        t_retr    = c_retr;
        t_probe   = 1'b0;
        // the sender's window: min(cwnd, the peer's window), the peer's alone without
        // congestion control
        t_ewnd    = (!cfg_cc_off && {14'd0, c_cwnd} < c_swnd) ? {14'd0, c_cwnd} : c_swnd;
        t_queued  = {{(31-B){1'b0}}, txw_reg - c_una[B:0]};
        t_data_end = c_close ? c_finsq : c_una + t_queued;
        t_diff    = t_data_end - c_nxt;
        t_unsent  = is_neg(t_diff) ? 32'd0 : t_diff;
        t_diff    = c_una + {2'd0, t_ewnd} - c_nxt;
        t_usable  = is_neg(t_diff) ? 32'd0 : t_diff;
        t_len     = 32'd0;
        t_fin     = 1'b0;
        t_mss     = 1'b0;
        t_ws      = 1'b0;
        t_flags   = F_ACK;
        t_seq     = c_nxt;
        t_nnxt    = c_nxt;
        t_data_state = (c_state == TCP_ESTAB) || (c_state == TCP_CLOSE_WAIT) ||
                       (c_state == TCP_FIN_WAIT_1) || (c_state == TCP_CLOSING) ||
                       (c_state == TCP_LAST_ACK);
        if (c_state == TCP_SYN_SENT) begin
            t_send  = (c_nxt == c_una);
            t_flags = F_SYN;
            t_mss   = 1'b1;
            t_ws    = 1'b1;   // window scale offered in our SYN (RFC 7323)
            t_seq   = c_una;
            t_nnxt  = c_una + 32'd1;
        end else if (c_state == TCP_SYN_RCVD) begin
            t_send  = ack_now_reg || (c_nxt == c_una);
            t_flags = F_SYN | F_ACK;
            t_mss   = 1'b1;
            t_ws    = c_wsok; // in the SYN-ACK only when the peer's SYN had it
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
            // sender silly-window avoidance (RFC 1122 4.2.3.4, RFC 9293 3.8.6.2.1): a
            // segment goes out when it is full-sized, when it carries all the data queued
            // (each burst of the application is pushed), when it is at least half the
            // largest window the peer has offered, or when the persist timer (the
            // override) has expired; otherwise the data waits for a larger window
            if (!(t_len == {16'd0, lim} || t_unsent <= t_usable ||
                  t_len >= {17'd0, c_maxw[15:1]} || pforce_reg))
                t_len = 32'd0;
            t_fin  = c_close && (c_nxt + t_len == c_finsq);
            t_send = (t_len != 32'd0) || t_fin || ack_now_reg;
            if (t_len == 32'd0 && !t_fin && ((t_unsent != 32'd0 && pforce_reg) || kap_reg)) begin
                // persist timer expired, the window still closed: a zero-window probe,
                // an empty segment one below snd_una that the peer answers with an ACK
                // carrying its window (RFC 9293 3.8.6.1, RFC 1122 4.2.2.17)
                t_probe = 1'b1;
                t_send  = 1'b1;
                t_seq   = c_una - 32'd1;
            end
            t_nnxt = c_nxt + t_len + {31'd0, t_fin};
            if (t_fin) t_flags = t_flags | F_FIN;
            if (t_len != 32'd0 && c_nxt + t_len == t_data_end) t_flags = t_flags | F_PSH;
            if (t_fin && c_state == TCP_ESTAB) t_state = TCP_FIN_WAIT_1;
            if (t_fin && c_state == TCP_CLOSE_WAIT) t_state = TCP_LAST_ACK;
        end else begin
            t_send = ack_now_reg;
        end
        t_nmax   = is_neg(c_max - t_nnxt) ? t_nnxt : c_max;
        t_rexmit = ((t_nnxt != c_nxt) && (c_nxt != c_max)) || (fr_reg && t_send);
        // data waiting that this decision does not send (the window is closed)
        t_dsend  = t_send && (t_nnxt != c_nxt);
        t_hold   = t_data_state && !fr_reg && (t_unsent != 32'd0) && !t_dsend;
        if (t_dsend && c_pers) begin
            // data leaves: the persist state ends, the retransmission timer takes over
            t_pers = 1'b0;
            t_tmr  = c_rto;
        end else if (t_probe) begin
            t_tmr  = c_pint;   // (backed off by the expiry)
        end else if (t_hold && c_tmr == 16'd0) begin
            // persist: the timer runs while the window is closed and nothing is
            // outstanding, from the RTO, doubled per probe up to cfg_rto_max
            t_pers = 1'b1;
            t_pint = c_rto;
            t_tmr  = c_rto;
            t_retr = 4'd0;
        end
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

    // ---- timer evaluation (STATE_TM_EVAL) ----
    wire        tm_expire = (c_tmr == 16'd1);
    wire        tm_tw     = (c_state == TCP_TIME_WAIT);
    wire        tm_abort  = tm_expire && !tm_tw && (c_retr >= cfg_max_retries);
    wire [16:0] rto2      = {c_rto, 1'b0};
    wire [15:0] tm_rto    = (rto2 > {1'b0, cfg_rto_max}) ? cfg_rto_max : rto2[15:0];
    wire        dack_exp  = (c_dack == 10'd1);
    // keep-alive (RFC 1122 4.2.3.6): counted in seconds while the session is synchronized
    // and nothing is outstanding; any segment from the peer restarts it
    wire        ka_on     = sec_now_reg && (cfg_ka_idle != 16'd0) && (c_tmr == 16'd0) &&
                            (c_state == TCP_ESTAB || c_state == TCP_CLOSE_WAIT);
    wire        ka_exp    = ka_on && (c_kat == 16'd1);
    wire        ka_abort  = ka_exp && (c_kan >= cfg_ka_count);
    wire        tm_free   = (tm_expire && (tm_tw || tm_abort)) || ka_abort;
    wire [16:0] pint2     = {c_pint, 1'b0};
    wire [15:0] tm_pint   = (pint2 > {1'b0, cfg_rto_max}) ? cfg_rto_max : pint2[15:0];

    // ---- window update (STATE_SVC_EVAL) ----
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
    wire lk_syn    = seg_syn && !seg_ack_flag && !seg_rst && listening;
    wire half_ok   = (half_cnt_reg < MAX_HALF_OPEN[SID_W:0]);  // SYN-flood bound
    wire now_half  = !free_reg && (c_state == TCP_SYN_RCVD);

    // event strobes of this cycle's decision
    always @* begin
        ev_next = {NCNT{1'b0}};
        case (state_reg)
            STATE_LOOKUP:  ev_next[CNT_SYN_DROP] = lk_miss && lk_syn && !(lk_free && half_ok);
            STATE_NOSESS:  ev_next[CNT_RST_NO_SESSION] = 1'b1;
            STATE_RX_EVAL: ev_next = rx_ev;
            STATE_TM_EVAL: begin
                ev_next[CNT_RTO]  = tm_expire && !tm_tw && !tm_abort && !c_pers;
                ev_next[CNT_CWND_CUT] = tm_expire && !tm_tw && !tm_abort && !c_pers &&
                                        (c_retr == 4'd0);
                ev_next[CNT_ABORTED]  = tm_abort || ka_abort;
                ev_next[CNT_CLOSED] = (tm_expire && (tm_tw || tm_abort)) || ka_abort;
                ev_next[CNT_DACK] = dack_exp && !tm_free;
            end
            STATE_TX_EVAL: begin
                ev_next[CNT_SENT] = rst_reply_reg || (t_send && !free_reg);
                ev_next[CNT_SENT_DATA] = !rst_reply_reg && t_send && !free_reg && (t_len != 32'd0);
                ev_next[CNT_RETRANSMIT] = !rst_reply_reg && t_send && !free_reg && t_rexmit;
                ev_next[CNT_PROBE] = !rst_reply_reg && !free_reg && t_probe && !kap_reg;
                ev_next[CNT_KEEPALIVE] = !rst_reply_reg && !free_reg && t_probe && kap_reg;
            end
            default: ;
        endcase
    end

    wire [SID_W-1:0] rd_addr = (state_reg == STATE_LOOKUP) ? lk_idx_reg : sid_reg;

    always @(posedge clk) begin
        rec_q_reg <= rec_mem[sid_reg];
        tup_q_reg <= tup_mem[rd_addr];
    end

    always @* begin
        cur_next = cur_reg;
        case (state_reg)
            STATE_LOAD2: cur_next = rec_q_reg;
            STATE_CREATE: begin
                cur_next = {REC_W{1'b0}};
                cur_next[O_STATE +: 4]  = (job_reg == JOB_CONN) ? TCP_SYN_SENT : TCP_SYN_RCVD;
                cur_next[O_RMAC +: 48]  = sg_mac_reg;
                cur_next[O_UNA +: 32]   = isn;
                cur_next[O_NXT +: 32]   = isn;
                cur_next[O_MAX +: 32]   = isn;
                cur_next[O_SWND +: 16]  = sg_wnd_reg;
                cur_next[O_MAXW +: 16]  = sg_wnd_reg;
                cur_next[O_WS +: 4]     = sg_ws_reg;
                cur_next[O_WSOK]        = sg_wsv_reg;
                cur_next[O_RNXT +: 32]  = (job_reg == JOB_CONN) ? 32'd0 : sg_seq_reg + 32'd1;
                cur_next[O_RADV +: 32]  = (job_reg == JOB_CONN) ? 32'd0 : sg_seq_reg + 32'd1;
                cur_next[O_PMSS +: 16]  = (sg_mss_reg == 16'd0) ? 16'd536 : sg_mss_reg;
                cur_next[O_RTO +: 16]   = cfg_rto_init;
                // RFC 5681: the initial window from the SMSS, ssthresh as high as it goes
                cur_next[O_CWND +: 16]  = init_wnd(((sg_mss_reg == 16'd0) ? 16'd536 : sg_mss_reg) < cfg_mss ?
                                                   ((sg_mss_reg == 16'd0) ? 16'd536 : sg_mss_reg) : cfg_mss);
                cur_next[O_SSTH +: 16]  = 16'hFFFF;
            end
            STATE_RX_EVAL: begin
                cur_next[O_STATE +: 4]  = rx_state;
                cur_next[O_UNA +: 32]   = rx_una;
                cur_next[O_NXT +: 32]   = rx_nxt;
                cur_next[O_SWND +: 16]  = rx_swnd[15:0];
                cur_next[O_SWHI +: 14]  = rx_swnd[29:16];
                cur_next[O_WS +: 4]     = rx_ws;
                cur_next[O_WSOK]        = rx_wsok;
                if ({14'd0, c_maxw} < rx_swnd)
                    cur_next[O_MAXW +: 16] = (rx_swnd[29:16] != 14'd0) ? 16'hFFFF : rx_swnd[15:0];
                cur_next[O_RNXT +: 32]  = rx_rnxt;
                cur_next[O_SRTT +: 20]  = rx_srtt;
                cur_next[O_RVAR +: 20]  = rx_rvar;
                cur_next[O_RTO +: 16]   = rx_rto;
                cur_next[O_TMR +: 16]   = rx_tmr;
                cur_next[O_RTTON]       = rx_rtton;
                cur_next[O_RETR +: 4]   = rx_retr;
                cur_next[O_FINRX]       = rx_finrx;
                cur_next[O_HAVE]        = rx_have;
                cur_next[O_DUPS +: 2]   = rx_dups;
                cur_next[O_INREC]       = rx_inrec;
                cur_next[O_RECOV +: 32] = rx_recov;
                cur_next[O_PMSS +: 16]  = rx_pmss;
                cur_next[O_CWND +: 16]  = rx_cwnd;
                cur_next[O_SSTH +: 16]  = rx_ssth;
                cur_next[O_BACK +: 16]  = rx_back;
                cur_next[O_PERS]        = rx_pers;
                cur_next[O_OOO +: NR*RG_W] = rx_rg;
                if (rx_defer) cur_next[O_DACK +: 10] = dack_time;
                cur_next[O_KAT +: 16]   = cfg_ka_idle;   // any segment: the peer is there
                cur_next[O_KAN +: 4]    = 4'd0;
                if (rx_init) cur_next[O_RADV +: 32] = rx_rnxt;
            end
            STATE_TX_EVAL: if (!rst_reply_reg && !free_reg) begin
                cur_next[O_STATE +: 4]  = t_state;
                cur_next[O_NXT +: 32]   = t_nnxt;
                cur_next[O_MAX +: 32]   = t_nmax;
                cur_next[O_TMR +: 16]   = t_tmr;
                cur_next[O_RTTON]       = t_rtton;
                cur_next[O_RTTSQ +: 32] = t_rttsq;
                cur_next[O_RTTT +: 16]  = t_rttt;
                cur_next[O_PERS]        = t_pers;
                cur_next[O_PINT +: 16]  = t_pint;
                cur_next[O_RETR +: 4]   = t_retr;
                if (t_send) cur_next[O_DACK +: 10] = 10'd0;  // the ACK rides on it
                if (t_send) cur_next[O_RADV +: 32] = c_rnxt + rwnd;
            end
            STATE_TM_EVAL: begin
                if (c_tmr != 16'd0) cur_next[O_TMR +: 16] = c_tmr - 16'd1;
                if (c_dack != 10'd0) cur_next[O_DACK +: 10] = c_dack - 10'd1;
                if (ka_on) begin
                    if (c_kat == 16'd0) cur_next[O_KAT +: 16] = cfg_ka_idle;
                    else if (!ka_exp) cur_next[O_KAT +: 16] = c_kat - 16'd1;
                    else begin
                        // a probe (empty, at snd_una - 1), the next after the interval
                        cur_next[O_KAT +: 16] = (cfg_ka_intvl == 16'd0) ? 16'd1 : cfg_ka_intvl;
                        cur_next[O_KAN +: 4]  = c_kan + 4'd1;
                    end
                end
                if (tm_expire && !tm_tw && !tm_abort && c_pers) begin
                    // persist: the probe goes out in the transmit decision, the next one
                    // after twice the interval
                    cur_next[O_PINT +: 16] = tm_pint;
                    cur_next[O_TMR +: 16]  = 16'd0;
                    cur_next[O_RETR +: 4]  = c_retr + 4'd1;
                end else if (tm_expire && !tm_tw && !tm_abort) begin
                    cur_next[O_RTO +: 16]  = tm_rto;
                    cur_next[O_TMR +: 16]  = 16'd0;  // restarted with the new RTO on the resend
                    cur_next[O_NXT +: 32]  = c_una;
                    cur_next[O_RTTON]      = 1'b0;
                    cur_next[O_RETR +: 4]  = c_retr + 4'd1;
                    cur_next[O_INREC]      = 1'b0;
                    cur_next[O_DUPS +: 2]  = 2'd0;
                    // RFC 5681 section 3.1: cwnd = 1 SMSS (the loss window); ssthresh =
                    // max(FlightSize/2, 2 SMSS) on the first time-out of the segment only
                    cur_next[O_CWND +: 16] = lim;
                    cur_next[O_BACK +: 16] = 16'd0;
                    if (c_retr == 4'd0) cur_next[O_SSTH +: 16] = ssth_cut;
                end
            end
            STATE_SVC_EVAL: if (closereq_reg[sid_reg] && !c_close) begin
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
            ms_cnt_reg    <= (ms_cnt_reg == 10'd999) ? 10'd0 : ms_cnt_reg + 10'd1;
            if (ms_cnt_reg == 10'd999) sec_pend_reg <= 1'b1;
            now_reg       <= now_reg + 16'd1;
            isn_clk_reg   <= isn_clk_reg + 32'd250;
        end
        case (state_reg)
            STATE_IDLE: begin
                ack_now_reg   <= 1'b0;
                rst_reply_reg <= 1'b0;
                free_reg      <= 1'b0;
                created_reg   <= 1'b0;
                eof_reg       <= 1'b0;
                more_reg      <= 1'b0;
                nosess_reg    <= 1'b0;
                fr_reg        <= 1'b0;
                pforce_reg    <= 1'b0;
                kap_reg       <= 1'b0;
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
                    sg_wsv_reg     <= s_seg_wscale_valid;
                    sg_ws_reg      <= s_seg_wscale;
                    sg_addr_reg    <= s_seg_pay_addr;
                    sg_len_reg     <= s_seg_pay_len;
                    lk_idx_reg     <= {SID_W{1'b0}};
                    lk_cmp_v_reg   <= 1'b0;
                    lk_done_reg    <= 1'b0;
                    free_found_reg <= 1'b0;
                    state_reg      <= STATE_LOOKUP;
                end else if (s_conn_valid && !tick_pend_reg) begin
                    isn_start_reg <= 1'b1;
                    job_reg      <= JOB_CONN;
                    sg_mac_reg   <= s_conn_mac;
                    sg_ip_reg    <= s_conn_ip;
                    sg_sport_reg <= s_conn_port;
                    sg_dport_reg <= s_conn_lport;
                    sg_wnd_reg   <= 16'd0;
                    sg_mss_reg   <= 16'd0;
                    sg_wsv_reg   <= 1'b0;
                    sg_ws_reg    <= 4'd0;
                    if (any_free) begin
                        sid_reg   <= first_free;
                        state_reg <= STATE_CREATE;
                    end else begin
                        // no free slot: refused at once
                        ev_valid_reg <= 1'b1;
                        ev_flags_reg <= EV_ABORTED;
                        ev_tup_reg   <= {s_conn_ip, s_conn_port, s_conn_lport};
                    end
                end else if (tick_pend_reg) begin
                    tick_pend_reg <= tick_1ms;
                    sec_now_reg   <= sec_pend_reg;
                    sec_pend_reg  <= 1'b0;
                    job_reg       <= JOB_TM;
                    sid_reg       <= {SID_W{1'b0}};
                    state_reg     <= STATE_TM_SCAN;
                end else if (svc_pick) begin
                    job_reg            <= JOB_SVC;
                    sid_reg            <= scan_reg;
                    svc_reg[scan_reg]  <= 1'b0;
                    state_reg          <= STATE_LOAD;
                end else if ((svc_reg & used_reg) != {NUM_SESS{1'b0}}) begin
                    // (the scan stands still while no session wants service)
                    scan_reg <= (scan_reg == LAST) ? {SID_W{1'b0}} : scan_reg + 1'b1;
                end
            end
            STATE_LOOKUP: begin
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
                    state_reg <= STATE_LOAD;
                end else if (lk_miss) begin
                    // no session
                    if (seg_rst) begin
                        nosess_reg <= 1'b1;
                        state_reg  <= STATE_WB;           // an RST for nothing: dropped
                    end else if (lk_syn) begin
                        if (lk_free && half_ok) begin
                            sid_reg   <= free_found_reg ? free_sid_reg : lk_cmp_reg;
                            state_reg <= STATE_CREATE;
                        end else begin
                            nosess_reg <= 1'b1;       // no free slot, or the half-open bound: dropped
                            state_reg  <= STATE_WB;
                        end
                    end else begin
                        nosess_reg <= 1'b1;
                        state_reg  <= STATE_NOSESS;
                    end
                end
            end
            STATE_NOSESS: begin
                // RST for a segment without a session (RFC 9293 3.10.7.1)
                tx_valid_reg <= 1'b1;
                tx_mac_reg   <= sg_mac_reg;
                tx_ip_reg    <= sg_ip_reg;
                tx_sport_reg <= sg_dport_reg;
                tx_dport_reg <= sg_sport_reg;
                tx_seq_reg   <= seg_ack_flag ? sg_ack_reg : 32'd0;
                tx_ack_reg   <= seg_ack_flag ? 32'd0 : sg_seq_reg + seglen;
                tx_flags_reg <= seg_ack_flag ? F_RST : (F_RST | F_ACK);
                tx_wnd_reg   <= 16'd0;
                tx_mss_reg   <= 1'b0;
                tx_ws_reg    <= 1'b0;
                tx_len_reg   <= 16'd0;
                state_reg    <= STATE_EMIT;
            end
            STATE_CREATE: if (isn_valid) begin  // (waits for the ISN's hash)
                created_reg  <= 1'b1;
                was_half_reg <= 1'b0;
                init_reg    <= 1'b1;
                tup_reg     <= {sg_ip_reg, sg_sport_reg, sg_dport_reg};
                rxr_reg     <= cur_next[O_RNXT +: B+1];
                txw_reg     <= cur_next[O_UNA +: B+1] + 1'b1;
                state_reg   <= STATE_TX_EVAL;
            end
            STATE_LOAD: state_reg <= STATE_LOAD2;
            STATE_LOAD2: begin
                was_half_reg <= (rec_q_reg[O_STATE +: 4] == TCP_SYN_RCVD);
                tup_reg <= tup_q_reg;
                rxr_reg <= rxr_rd_ptr;
                txw_reg <= txw_rd_ptr;
                case (job_reg)
                    JOB_RX:  state_reg <= STATE_RX_EVAL;
                    JOB_TM:  state_reg <= STATE_TM_EVAL;
                    default: state_reg <= STATE_SVC_EVAL;
                endcase
            end
            STATE_RX_EVAL: begin
                // established: the application may send from now on (its data may be
                // delivered before this job's write-back)
                if (rx_evf[EVF_ESTABLISHED]) open_reg[sid_reg] <= 1'b1;
                if (rx_init) begin
                    // active open: the pointers start at the peer's first byte and our
                    // first byte after the SYN
                    init_reg <= 1'b1;
                    rxr_reg  <= rx_rnxt[B:0];
                    txw_reg  <= c_una[B:0] + 1'b1;
                end
                ack_now_reg    <= rx_ack_now;
                rst_reply_reg  <= rx_rst_reply;
                free_reg       <= rx_free;
                eof_reg        <= rx_eof;
                evf_reg        <= rx_evf;
                cp_len_reg     <= rx_cp_len;
                fr_reg         <= rx_fast_rexmit && !rx_free;
                cp_cnt_reg     <= 16'd0;
                cp_v_reg       <= 1'b0;
                cp_src_reg     <= sg_addr_reg + rx_cp_skip[SW-1:0];
                cp_dst_reg     <= rx_cp_dst;
                cp_commit_reg  <= (rx_rnxt[B:0] != c_rnxt[B:0]);
                commit_ptr_reg <= rx_rnxt[B:0];
                state_reg      <= (rx_cp_len != 16'd0) ? STATE_COPY : STATE_TX_EVAL;
            end
            STATE_COPY: begin
                if (cp_cnt_reg != cp_len_reg) begin
                    cp_cnt_reg <= cp_cnt_reg + 16'd1;
                    cp_src_reg <= cp_src_reg + 1'b1;
                end
                cp_v_reg <= (cp_cnt_reg != cp_len_reg);
                if (cp_v_reg) cp_dst_reg <= cp_dst_reg + 1'b1;
                if (cp_cnt_reg == cp_len_reg && !cp_v_reg) begin
                    commit_reg <= cp_commit_reg;
                    state_reg  <= STATE_TX_EVAL;
                end
            end
            STATE_SVC_EVAL: begin
                if (closereq_reg[sid_reg]) begin
                    closereq_reg[sid_reg] <= 1'b0;
                    open_reg[sid_reg]     <= 1'b0;
                end
                ack_now_reg <= !is_neg(edge_gain) && (edge_gain >= {16'd0, upd_thr});
                state_reg   <= STATE_TX_EVAL;
            end
            STATE_TM_SCAN: begin
                if (used_reg[sid_reg]) state_reg <= STATE_LOAD;
                else if (sid_reg == LAST) state_reg <= STATE_IDLE;
                else sid_reg <= sid_reg + 1'b1;
            end
            STATE_TM_EVAL: begin
                if (tm_expire && tm_tw) begin
                    free_reg     <= 1'b1;
                    evf_reg      <= EV_CLOSED;
                    state_reg    <= STATE_WB;
                end else if (tm_abort || ka_abort) begin
                    free_reg      <= 1'b1;
                    evf_reg       <= EV_ABORTED | EV_CLOSED;
                    tx_valid_reg  <= 1'b1;
                    tx_mac_reg    <= c_rmac;
                    tx_ip_reg     <= tup_rip;
                    tx_sport_reg  <= tup_lport;
                    tx_dport_reg  <= tup_rport;
                    tx_seq_reg    <= c_nxt;
                    tx_ack_reg    <= 32'd0;
                    tx_flags_reg  <= F_RST;
                    tx_wnd_reg    <= 16'd0;
                    tx_mss_reg    <= 1'b0;
                    tx_ws_reg     <= 1'b0;
                    tx_len_reg    <= 16'd0;
                    state_reg     <= STATE_EMIT;
                end else if (tm_expire || dack_exp || ka_exp) begin
                    pforce_reg  <= tm_expire && c_pers;
                    ack_now_reg <= dack_exp;
                    kap_reg     <= ka_exp;
                    state_reg   <= STATE_TX_EVAL;
                end else begin
                    state_reg <= STATE_WB;
                end
            end
            STATE_TX_EVAL: begin
                tx_mac_reg   <= c_rmac;
                tx_ip_reg    <= tup_rip;
                tx_sport_reg <= tup_lport;
                tx_dport_reg <= tup_rport;
                tx_mss_reg   <= 1'b0;
                tx_ws_reg    <= 1'b0;
                tx_len_reg   <= 16'd0;
                tx_off_reg   <= t_seq[B-1:0];
                if (rst_reply_reg) begin
                    tx_valid_reg <= 1'b1;
                    tx_seq_reg   <= sg_ack_reg;
                    tx_ack_reg   <= 32'd0;
                    tx_flags_reg <= F_RST;
                    tx_wnd_reg   <= 16'd0;
                    state_reg    <= STATE_EMIT;
                end else if (t_send && !free_reg) begin
                    tx_valid_reg <= 1'b1;
                    tx_seq_reg   <= t_seq;
                    tx_ack_reg   <= c_rnxt;
                    tx_flags_reg <= t_flags;
                    tx_wnd_reg   <= rwnd[15:0];
                    tx_mss_reg   <= t_mss;
                    tx_ws_reg    <= t_ws;
                    tx_len_reg   <= t_len[15:0];
                    more_reg     <= t_more;
                    state_reg    <= STATE_EMIT;
                end else begin
                    state_reg <= STATE_WB;
                end
            end
            STATE_EMIT: if (m_seg_ready) begin
                tx_valid_reg <= 1'b0;
                state_reg    <= STATE_WB;
            end
            default: begin  // STATE_WB
                if (!nosess_reg) begin
                    half_cnt_reg <= half_cnt_reg + {{SID_W{1'b0}}, now_half} -
                                    {{SID_W{1'b0}}, was_half_reg};
                    una_wr_reg <= !created_reg;
                    eof_set_reg <= eof_reg;
                    if (created_reg) begin
                        used_reg[sid_reg] <= 1'b1;
                        open_reg[sid_reg] <= 1'b0;
                    end
                    if (evf_reg[EVF_ESTABLISHED]) open_reg[sid_reg] <= 1'b1;
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
                    state_reg <= STATE_TM_SCAN;
                end else begin
                    state_reg <= STATE_IDLE;
                end
                free_reg    <= 1'b0;
                created_reg <= 1'b0;
                more_reg    <= 1'b0;
                evf_reg     <= 5'd0;
                eof_reg     <= 1'b0;
                ack_now_reg <= 1'b0;
                rst_reply_reg <= 1'b0;
                pforce_reg  <= 1'b0;
                kap_reg     <= 1'b0;
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
            state_reg     <= STATE_IDLE;
            used_reg      <= {NUM_SESS{1'b0}};
            open_reg      <= {NUM_SESS{1'b0}};
            svc_reg       <= {NUM_SESS{1'b0}};
            closereq_reg  <= {NUM_SESS{1'b0}};
            tick_pend_reg <= 1'b0;
            sec_pend_reg  <= 1'b0;
            sec_now_reg   <= 1'b0;
            ms_cnt_reg    <= 10'd0;
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
            ev_reg        <= {NCNT{1'b0}};
        end
    end

    // record and tuple write-back
    always @(posedge clk) begin
        if (state_reg == STATE_WB && !nosess_reg) rec_mem[sid_reg] <= cur_reg;
        if (state_reg == STATE_CREATE && isn_valid)
            tup_mem[sid_reg] <= {sg_ip_reg, sg_sport_reg, sg_dport_reg};
    end

    assign s_seg_ready   = (state_reg == STATE_IDLE);
    assign s_conn_ready  = (state_reg == STATE_IDLE) && !s_seg_valid && !tick_pend_reg;
    assign stage_rd_en   = (state_reg == STATE_COPY) && (cp_cnt_reg != cp_len_reg);
    assign stage_rd_addr = cp_src_reg;
    assign seg_release   = release_reg;
    assign rxbuf_wr_en   = (state_reg == STATE_COPY) && cp_v_reg;
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
    assign m_seg_ws_opt  = tx_ws_reg;
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

    wire unused = &{1'b0, flight[0], sg_flags_reg[7:5], sg_flags_reg[3], rx_cp_skip[15:SW], isn_hash[63:32],
                        og_off[31:B+1], og_take[31:B+1]};
endmodule
`default_nettype wire
