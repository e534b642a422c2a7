`default_nettype none
// udp_rx: UDP receive: length and checksum verification, port demultiplexer.
//
// Input: ip_rx's UDP output (header bus: src_mac, src_ip, dst_ip, len = IP payload bytes,
// broadcast; payload = the UDP header and data, tuser on the last beat = bad frame).
// The checksum is verified over pseudo-header + UDP header + data (a zero checksum field
// means "none"; with cfg_csum_check = 0 no checksum is checked), accumulated per beat as the datagram passes (DATA_W 8: the pseudo-header
// too, in the free half of the first 8 beats' words; DATA_W 64: added at the end).
// Drop reasons, each counted (cnt_ev, below):
//   bad_len         UDP length < 8, or larger than the IP payload, or the IP payload is
//                   shorter than the 8-byte UDP header
//   closed_port     destination port matches no cfg_udp_port entry (a one-cycle strobe
//                   on closed_* offers the datagram's addresses, e.g. for an ICMP
//                   port-unreachable reply)
//   bad_csum        checksum mismatch (STORE_FWD=1: dropped; 0: tuser=1 on last beat)
//   err_in          the datagram arrived flagged bad (MAC error, IP truncation), or its
//                   input ended before its UDP length without being flagged
//                   (STORE_FWD=1: dropped; 0: tuser=1 on last beat)
//   oversize        STORE_FWD=1 only: the datagram does not fit the buffer
//   busy_drop       BUSY_WAIT >= 0 only: the datagram's port did not take its header
//                   in time (below)
// Datagrams to port k come out on slice k of the flattened m_hdr_* / m_axis_* ports
// (docs/conventions.md, "UDP application port"): hdr_len = UDP length - 8 payload bytes,
// exactly that many on the stream (bytes beyond the UDP length are discarded).
//   STORE_FWD = 0: cut-through; a datagram that turns out bad at its end has tuser = 1 on
//                  its last beat, so it is never taken as good.
//   STORE_FWD = 1: store and forward; bad datagrams never reach the application at all.
// A port whose cfg_udp_port entry is 0 is closed. The header handshake completes before
// the first payload beat is offered.
//
// Busy ports (BUSY_WAIT): one application that does not take its datagrams must not stall
// the receive path (and with it ARP, ICMP and every other port).
//   BUSY_WAIT < 0  (default -1): wait forever: a port that never raises m_hdr_ready holds
//                  the whole input (backpressure to ip_rx and upstream).
//   BUSY_WAIT >= 0: a datagram's header is offered on m_hdr_valid[k] for at most
//                  BUSY_WAIT + 1 cycles; if m_hdr_ready[k] is not high in any of them the
//                  datagram is dropped whole: m_hdr_valid[k] falls without a handshake
//                  (the one exception to "valid holds until ready"), its payload is
//                  consumed at full rate and nothing of it comes out, and busy_drop
//                  counts it (whatever its late checksum verdict in cut-through mode, which
//                  is counted as usual as well). The drop happens once the output holds no
//                  beat of the previous datagram (a port that stalls its payload delays it).
//   Once a port has taken a datagram's header, payload backpressure (m_axis_tready) is
//   honoured as usual: the application must then take the whole payload; if it cannot
//   do so at line rate it must buffer (a port that stalls mid-payload stalls the input).
//
// At DATA_W 8 the header fields held for the input datagram (from ip_rx, and the UDP
// header window) are the ones presented on m_hdr_* and closed_*: the next input header is
// taken only once the current datagram's header has left, so no second copy is kept.
// At DATA_W 64 m_hdr_* have their own registers (the next datagram's header may be
// parsed while this one waits); closed_* are read from them too.
// Payload cut: at DATA_W 64 the strip skips the 8 header bytes and keeps hdr_len bytes; at
// DATA_W 8 the parser marks every byte the application does not get (UDP header, bytes
// beyond the UDP length) as an empty beat (tkeep = 0) on its way into the FIFO, and the
// strip keeps what is left (no skip or length counters).
// The header checks that decide a drop (length, port match) are registered as the header
// window fills, so the command's push reads flip-flops only. For Fmax the handshake and
// cut signals are registers made from their next values (same cycle behaviour):
// s_axis_tready is one flip-flop (the FIFO's readiness AND active and not ended, kept
// by stream_fifo_g's gate), the header window's enable reads flip-flops only (bopen),
// the end pipeline's busy flag is one flip-flop, the "UDP length reached" compare (the
// FIFO's tkeep) a flip-flop set with the beat before, and m_hdr_valid[k] a flip-flop of
// the strip. At DATA_W 8 s_hdr_ready is one flip-flop too (hdr_ok), the header gate of
// the cycle before: the one exception to same-cycle behaviour, a header may be taken a
// cycle later than the gate allows (see hdr_ok).
// Parameters: DATA_W (8 or 64), KEEP_W, NUM_PORTS, STORE_FWD, FIFO_DEPTH (beats; with
//   STORE_FWD the largest datagram taken is FIFO_DEPTH*KEEP_W bytes of IP payload),
//   BUSY_WAIT (cycles a port may take to accept a header before its datagram is dropped;
//   < 0 = wait forever, see above).
// cnt_ev[6:0]: event strobes, one cycle each (registered), for counters kept in
//   stat_counters (read them while rst is low): bit 0 datagrams delivered to a port,
//   1 bad_len, 2 closed_port, 3 bad_csum, 4 err_in, 5 oversize, 6 busy_drop.
// Latency (no backpressure, DATA_W 64): cut-through about 8/KEEP_W + 5 cycles from the
//   first UDP header beat to the first payload beat out, last beat about 4 cycles after
//   the input's last beat; store and forward: first payload beat about 6 cycles after the
//   last input beat. At DATA_W 8 the strip starts a packet in the cycle after its command:
//   about 2 cycles fewer. Throughput one beat per cycle.
module udp_rx #(
    parameter integer DATA_W     = 8,
    parameter integer KEEP_W     = DATA_W / 8,
    parameter integer NUM_PORTS  = 2,
    parameter integer STORE_FWD  = 0,
    parameter integer FIFO_DEPTH = (STORE_FWD != 0) ? (2048 / KEEP_W) : ((DATA_W == 8) ? 16 : 8),
    parameter integer BUSY_WAIT  = -1
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire [NUM_PORTS*16-1:0]   cfg_udp_port,
    input  wire                      cfg_csum_check,  // 0: take every checksum as right
    // from ip_rx
    input  wire                      s_hdr_valid,
    output wire                      s_hdr_ready,
    input  wire [47:0]               s_hdr_src_mac,
    input  wire [31:0]               s_hdr_src_ip,
    input  wire [31:0]               s_hdr_dst_ip,
    input  wire [15:0]               s_hdr_len,
    input  wire                      s_hdr_broadcast,
    input  wire [DATA_W-1:0]         s_axis_tdata,
    input  wire [KEEP_W-1:0]         s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,
    input  wire                      s_axis_tuser,
    // application ports (flattened, slice k = port k)
    output wire [NUM_PORTS-1:0]        m_hdr_valid,
    input  wire [NUM_PORTS-1:0]        m_hdr_ready,
    output wire [NUM_PORTS*48-1:0]     m_hdr_src_mac,
    output wire [NUM_PORTS*32-1:0]     m_hdr_src_ip,
    output wire [NUM_PORTS*16-1:0]     m_hdr_src_port,
    output wire [NUM_PORTS*16-1:0]     m_hdr_dst_port,
    output wire [NUM_PORTS*16-1:0]     m_hdr_len,
    output wire [NUM_PORTS*DATA_W-1:0] m_axis_tdata,
    output wire [NUM_PORTS*KEEP_W-1:0] m_axis_tkeep,
    output wire [NUM_PORTS-1:0]        m_axis_tvalid,
    input  wire [NUM_PORTS-1:0]        m_axis_tready,
    output wire [NUM_PORTS-1:0]        m_axis_tlast,
    output wire [NUM_PORTS-1:0]        m_axis_tuser,
    // closed-port strobe
    output reg                       closed_valid,
    output wire [47:0]               closed_src_mac,
    output wire [31:0]               closed_src_ip,
    output wire [31:0]               closed_dst_ip,
    output wire [15:0]               closed_src_port,
    output wire [15:0]               closed_dst_port,
    output wire                      closed_broadcast,
    // event strobes
    output wire [6:0]                cnt_ev
);
    localparam integer NB = (8 + KEEP_W - 1) / KEEP_W;
    localparam integer HW = NB * KEEP_W;
    localparam integer BW = $clog2(NB + 1);
    localparam integer SAW = $clog2(KEEP_W + 1);
    localparam HOLD = (KEEP_W == 1);  // header bus read from the parser's own registers
    localparam integer RW = (NUM_PORTS > 1) ? $clog2(NUM_PORTS) : 1;
    localparam integer CAPI = FIFO_DEPTH * KEEP_W;
    localparam [16:0] CAP = CAPI[16:0];

    // ---------------- parser ----------------
    // counter increments are registered first (short enable paths, Fmax)
    reg inc_datagrams, inc_bad_len, inc_closed_port, inc_oversize, inc_err_in, inc_bad_csum;
    wire ev_busy;  // busy_drop's strobe (0 with BUSY_WAIT < 0)
    assign cnt_ev = {ev_busy, inc_oversize, inc_err_in, inc_bad_csum, inc_closed_port,
                     inc_bad_len, inc_datagrams};
    reg  [HW*8-1:0] win;
    reg  [BW-1:0]   bcnt;
    reg  [15:0]     flen;
    reg             active, ended, pushed;
    // checksum accumulator (DATA_W 64): 16 bits plus deferred (end-around) carries; the
    // sum is acc_lo + acc_c modulo 0xFFFF (DATA_W 8: two rotating byte lanes, ck_*)
    localparam integer BSW = (KEEP_W == 1) ? 16 : 19;  // per-beat sum width
    localparam integer CW = (KEEP_W == 1) ? 1 : 4;  // deferred carry bits
    reg  [15:0]     acc_lo;
    reg  [CW-1:0]   acc_c;
    reg  [47:0]     cur_src_mac;
    reg  [31:0]     cur_src_ip, cur_dst_ip;
    reg  [15:0]     cur_ip_len;
    reg             cur_bcast;
    reg             last_bad;  // tuser of the last beat
    // end-of-datagram checksum pipeline
    reg             ep, e0, e1, e2, e3;
    reg             ez0, eb0, ea0;
    reg  [16:0]     ps_a, ps_b;  // DATA_W 64: source and destination IP word sums
    reg  [17:0]     psum_r;  // their sum (protocol 17 is left out: see e_ok)
    reg  [18:0]     pl0;  // psum + UDP length (captured at ep)
    reg             tail;  // DATA_W 8: the bytes from here on are beyond the UDP length
    reg             ek1, ek2;  // DATA_W 8: the checksum verdict through e1, e2
    reg  [BSW-1:0]  bsum_r;  // registered per-beat sum (a pipeline stage for Fmax)
    reg             bs_v, bs_first, first;
    // DATA_W 8: the beat's data byte and pseudo-header byte, registered (a pipeline stage
    // for Fmax), ck_v: the data byte counts (within the UDP length); the two byte lanes of
    // the sum (ck_x: the lane the next data byte goes to) and their pending carries
    reg  [7:0]      ck_d, ck_p, ck_x, ck_y;
    reg             ck_v, ck_cx, ck_cy;
    reg  [20:0]     es1;
    reg  [16:0]     es2;
    reg             e_ok, e_zero, e_bad, e_acc;
    reg             ez1, eb1, ea1, ez2, eb2, ea2;
    // late status FIFO (cut-through)
    reg  [3:0]      sts_q;
    reg  [2:0]      sts_n;
    reg             sts_nz;  // sts_n != 0, a register (the strip's sts_valid)
    // cut-through: datagram ends in flight, sts_n + ep + e0 + e1 + e2 + e3, kept as a
    // register (never above 4) so that `room` is one flip-flop (s_hdr_ready's path)
    reg  [2:0]      infl;
    wire            sts_ready;

    reg             cmd_valid;
    // !cmd_valid, a second flip-flop (inverted, so synthesis keeps it apart): s_hdr_ready
    // reads it, cmd_valid drives push and the strip (splits the fanout, Fmax)
    reg             cmd_idle;
    wire            cmd_ready;
    reg             cmd_drop;
    reg  [RW-1:0]   cmd_route;
    reg  [15:0]     cmd_len;
    // header bus registers (DATA_W 64 only, see HOLD)
    reg  [47:0]     cmd_src_mac;
    reg  [31:0]     cmd_src_ip, cmd_dst_ip;
    reg  [15:0]     cmd_src_port, cmd_dst_port;
    reg             cmd_bcast;
    wire            fifo_ready;

    wire [15:0] f_sport = {win[7:0], win[15:8]};
    wire [15:0] f_dport = {win[23:16], win[31:24]};
    wire [15:0] f_len = {win[39:32], win[47:40]};
    wire [15:0] f_csum = {win[55:48], win[63:56]};
    // at least the 8 header bytes are in (|flen[15:3]), a register: flen only grows
    // until restart, and the beat that takes it to 8 or more sets its bit 3
    reg         hdr_complete;

    // The header checks are made on the window's next value and registered with it
    // (q_*), so that push reads flip-flops only: the window (and so q_*) holds this
    // datagram's header from its last header beat on, push comes at least a cycle later.
    wire [HW*8-1:0] win_nx;
    wire            win_en;
    wire [15:0] nx_dport = {win_nx[23:16], win_nx[31:24]};
    wire [15:0] nx_len = {win_nx[39:32], win_nx[47:40]};
    // port match (lowest index wins)
    reg  [RW-1:0] m_idx, q_idx;
    reg           m_hit, q_hit, q_lbad;
    integer i;
    always @(*) begin
        m_idx = {RW{1'b0}};
        m_hit = 1'b0;
        for (i = NUM_PORTS - 1; i >= 0; i = i - 1)
            if (cfg_udp_port[16*i+:16] == nx_dport && cfg_udp_port[16*i+:16] != 16'd0) begin
                m_idx = i[RW-1:0];
                m_hit = 1'b1;
            end
    end
    always @(posedge clk)
        if (win_en) begin
            win <= win_nx;
            q_idx <= m_idx;
            q_hit <= m_hit;
            // UDP length < 8 or beyond the IP payload (cur_ip_len is taken before any beat)
            q_lbad <= (nx_len[15:3] == 13'd0) || (nx_len > cur_ip_len);
        end
    wire r_len = !hdr_complete || q_lbad;
    wire r_closed = !q_hit;
    wire r_big = (STORE_FWD != 0) && ({1'b0, cur_ip_len} > CAP);
    wire hdr_drop = r_len || r_closed || r_big;

    // ep || e0 || e1 || e2 || e3, a register (ebusy, made from their next values below),
    // so that push and restart are two gates fewer from flip-flops
    reg  ebusy;
    wire need_hdr = !pushed && (hdr_complete || ended) && !ebusy;
    wire need = (STORE_FWD == 0) ? need_hdr : ((need_hdr && hdr_drop) || (e3 && e_acc));
    wire push = need && !cmd_valid;  // (not through cmd_ready: keeps the ready path short)
    wire late_drop = e_bad || (!e_ok && !e_zero);
    // the end pipeline of the previous datagram must be idle before a new one starts
    // (store and forward), and the late-status queue must have room (cut-through)
    wire room = (STORE_FWD != 0) ? !ebusy : !infl[2];
    wire restart = ended && (pushed || push);
    // the next header waits until this datagram's command is gone: the fields held here
    // (cur_*, the window) are what m_hdr_* and closed_* present meanwhile
    // (with HOLD this is restart without push: a command made in this cycle holds the
    // header; push is never 1 while !active)
    // DATA_W 8: s_hdr_ready is one flip-flop (hdr_ok): the header gate of the cycle before,
    // (!active || (ended && pushed)) && cmd_idle && room, all flip-flops, cleared by a
    // header handshake. While no header is taken that gate can only rise (nothing is in
    // progress, or the packet has ended and its command is made: no command is pushed, no
    // last beat comes, and it stays so until a header is taken), so hdr_ok implies it: a
    // header is taken at most one cycle later than with the gate itself, never when it is 0
    // (rx_hdr_gate's hdr_free, the same gate's first term as a register, is not used here)
    /* verilator lint_off UNUSEDSIGNAL */
    wire hdr_free;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  hdr_ok;
    assign s_hdr_ready = HOLD ? hdr_ok : ((!active || restart) && room);
    always @(posedge clk)
        if (rst) hdr_ok <= 1'b0;
        else if (s_hdr_valid && hdr_ok) hdr_ok <= 1'b0;
        else hdr_ok <= HOLD && (!active || (ended && pushed)) && cmd_idle && room;
    // active && !ended, a register (taking): set by a header handshake (which always
    // leaves the module active and not ended), cleared by the packet's last beat
    // s_axis_tready is one flip-flop of the FIFO (GATED): fifo ready AND taking, made from
    // their next values (taking's: taking_nx)
    wire taking;
    assign s_axis_tready = fifo_ready;
    wire in_beat = s_axis_tvalid && s_axis_tready;
    wire taking_nx = (s_hdr_valid && s_hdr_ready) || (taking && !(in_beat && s_axis_tlast));
    // both registers: rtl/common/rx_hdr_gate.v
    rx_hdr_gate u_hdr_gate (
        .clk(clk), .rst(rst),
        .hdr_fire(s_hdr_valid && s_hdr_ready), .last_beat(in_beat && s_axis_tlast),
        .active(active), .ended(ended), .pushed(pushed), .push(push),
        .taking(taking), .hdr_free(hdr_free)
    );

    // the window still fills (the datagram's first NB beats), a register: the window's
    // enable reads flip-flops only
    reg bopen;
    assign win_en = in_beat && bopen;
    // bcnt counts the datagram's beats (its value matters only while bopen: the window's
    // beat index), so its enable is the beat alone, not the window's; bopen is made from
    // its next value without an enable (it falls with the window's last beat), so no
    // handshake gate sits in front of a gate on either. Both are cleared for the next
    // datagram by bclr. DATA_W 8 (HOLD): bclr is the flip-flop clr_q (reset or restart in
    // the cycle before), not restart's gate and the reset: after a restart the next
    // datagram's first beat comes two cycles later at the earliest (its header is taken
    // with hdr_ok, set in the cycle after the restart, and s_axis_tready follows the
    // handshake by a cycle), and nothing reads them in between. DATA_W 64: the next
    // header may be taken with the restart, so they are cleared with it.
    reg  clr_q;
    wire bclr = HOLD ? clr_q : (rst || restart);
    wire bopen_nx = bclr || (bopen && !(in_beat && (bcnt == NB[BW-1:0] - 1'b1)));
    always @(posedge clk) begin
        clr_q <= rst || restart;
        bopen <= bopen_nx;
        if (bclr) bcnt <= 0;
        else if (in_beat) bcnt <= bcnt + 1'b1;
    end
    generate
        if (NB == 1) begin : g_win1
            assign win_nx = s_axis_tdata;
        end else begin : g_winn
            assign win_nx = {s_axis_tdata, win[HW*8-1:DATA_W]};
        end
    endgenerate

    reg [SAW-1:0] nkeep;
    always @(*) begin
        nkeep = {SAW{1'b0}};
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i]) nkeep = i[SAW-1:0] + 1'b1;
    end
    wire [15:0] flen_nx = flen + {{(16-SAW){1'b0}}, nkeep};
    /* verilator lint_off UNUSEDSIGNAL */
    reg [18:0] bsum;  // (DATA_W 8: bits 18:16 stay 0)
    /* verilator lint_on UNUSEDSIGNAL */
    reg [15:0] lpos;
    reg [7:0]  xb;  // DATA_W 8: a pseudo-header byte in the free half of the word
    /* verilator lint_off UNUSEDSIGNAL */
    wire [4:0] bc = {{(5-BW){1'b0}}, bcnt};  // (DATA_W 8: the beat's position while bopen)
    /* verilator lint_on UNUSEDSIGNAL */
    // DATA_W 8: this byte and the rest are beyond the UDP length (the window is full here).
    // flen == f_len is a register (len_eq) made with the beat that steps flen, so that
    // the FIFO's tkeep and the checksum's byte select read flip-flops only: it only counts
    // once hdr_complete, i.e. after a beat that leaves flen >= 8. Such a beat holds a byte
    // (a beat without one leaves flen, and so len_eq, as they were) and either completes
    // the header window (its last beat, bopen: all 8 header beats held a byte, so flen
    // becomes 8 and f_len is the window's next UDP length) or comes after it (!bopen: f_len is
    // fixed and the window no longer moves; flen becomes flen + 1). The beat's tkeep is
    // only in the enable, not in the compare.
    // flen + 1 == f_len is tested as flen == f_len - 1, a register (len_m1) loaded with the
    // window (so no carry chain is in front of len_eq)
    reg        len_eq;
    reg [15:0] len_m1;
    always @(posedge clk) begin
        if (win_en) len_m1 <= nx_len - 16'd1;
        if (in_beat && s_axis_tkeep[0])
            len_eq <= !bopen ? (flen == len_m1) : (nx_len == 16'd8);
    end
    wire       excl = tail || (hdr_complete && ((KEEP_W == 1) ? len_eq : (flen == f_len)));
    wire       d_in = s_axis_tkeep[0] && !excl;
    wire       d_pay = hdr_complete && !excl;  // a payload byte (DATA_W 8)
    // (read at ep) the input reached the UDP length
    wire       reached = (KEEP_W == 1) ? excl : (flen >= f_len);
    always @(*) begin
        bsum = 19'd0;
        lpos = flen;
        xb = 8'd0;
        if (KEEP_W == 1) begin
            // one byte per beat, in the high half of the word at even positions: the other
            // half takes a pseudo-header byte of the same half (position 0: destination IP
            // byte 1, 1: byte 0, 2: byte 3, 3: byte 2, 4: source IP byte 3, 5: UDP length
            // high byte, 6: low byte, both from the window's newest byte, 7: source IP byte
            // 2); the source IP's high word starts the sum, so the whole sum is in once the
            // last beat is (the byte lanes: ck_* below)
            if (bopen) begin
                if (bc[2]) xb = (bc[0] ^ bc[1]) ? win[HW*8-1-:8] : cur_src_ip[8*bc[0]+:8];
                else xb = cur_dst_ip[8*{~bc[1], bc[0]}+:8];
            end
        end else begin
            for (i = 0; i < KEEP_W; i = i + 1) begin
                lpos = flen + i[15:0];
                if (s_axis_tkeep[i] && (lpos < 16'd8 || lpos < f_len)) begin
                    if (lpos[0] == 1'b0) bsum = bsum + {3'd0, s_axis_tdata[8*i+:8], 8'd0};
                    else bsum = bsum + {11'd0, s_axis_tdata[8*i+:8]};
                end
            end
        end
    end
    // the checksum sum without the pseudo-header's protocol word (17): the datagram is
    // good when the rest sums to 0xFFFF - 17 = 0xFFEE (one's complement); DATA_W 64: the
    // datagram's words are summed here, the pseudo-header is added at the end (es1)
    wire [CW+15:0] acc_sum = {{CW{1'b0}}, bs_first ? 16'd0 : acc_lo} +
                             {{(CW+16-BSW){1'b0}}, bsum_r} +
                             {16'd0, bs_first ? {CW{1'b0}} : acc_c};
    // DATA_W 8: the sum in two byte lanes that swap with every data byte, so that the
    // data byte always enters lane ck_x and the pseudo-header byte lane ck_y (no lane
    // multiplexer): each lane is an 8-bit adder whose carry out belongs to the other lane
    // (the next higher one, or end-around), which is the lane the other adder works on
    // in the next step, so each lane's carry waits in one flip-flop (ck_cx, ck_cy). The
    // first step starts from the source IP's high word (its low word enters in the free
    // halves of positions 4 and 7). Only bytes within the UDP length step the lanes.
    wire [7:0] ck_sx = bs_first ? cur_src_ip[31:24] : ck_x;
    wire [7:0] ck_sy = bs_first ? cur_src_ip[23:16] : ck_y;
    wire [8:0] ck_ax = {1'b0, ck_sx} + {1'b0, ck_d} + {8'd0, ck_cx && !bs_first};
    wire [8:0] ck_ay = {1'b0, ck_sy} + {1'b0, ck_p} + {8'd0, ck_cy && !bs_first};
    // after the UDP length's bytes (read at e0) ck_x is the high lane if that length is
    // even; the sum (each lane plus its pending carry, at most 0x10100) is congruent to
    // -17 modulo 0xFFFF only if it is 0xFFEE: high lane + carry == 0xFF, low == 0xEE
    wire ck_hi = f_len[0] ? (ck_y == (ck_cy ? 8'hFE : 8'hFF)) : (ck_x == (ck_cx ? 8'hFE : 8'hFF));
    wire ck_lo = f_len[0] ? (ck_x == (ck_cx ? 8'hED : 8'hEE)) : (ck_y == (ck_cy ? 8'hED : 8'hEE));
    wire acc_good = ck_hi && ck_lo;

    always @(posedge clk) begin
        if (s_hdr_valid && s_hdr_ready) begin
            cur_src_mac <= s_hdr_src_mac;
            cur_src_ip <= s_hdr_src_ip;
            cur_dst_ip <= s_hdr_dst_ip;
            cur_ip_len <= s_hdr_len;
            cur_bcast <= s_hdr_broadcast;
            ps_a <= {1'b0, s_hdr_src_ip[31:16]} + {1'b0, s_hdr_src_ip[15:0]};
            ps_b <= {1'b0, s_hdr_dst_ip[31:16]} + {1'b0, s_hdr_dst_ip[15:0]};
        end
        // read at ep (at least two cycles after the header was taken; the next header
        // cannot be taken before this datagram's last beat)
        psum_r <= {1'b0, ps_a} + {1'b0, ps_b};
        // checksum: the beat's words are registered, then accumulated (the pseudo-header
        // sum and the UDP length enter at the end)
        bsum_r <= bsum[BSW-1:0];
        bs_first <= first;
        if (bs_v) {acc_c, acc_lo} <= acc_sum;
        ck_d <= s_axis_tdata[7:0];
        ck_p <= xb;
        ck_v <= in_beat && d_in;
        if (ck_v) begin
            // the lanes swap: the pseudo-header lane takes the next data byte
            ck_x <= ck_ay[7:0];
            ck_y <= ck_ax[7:0];
            ck_cx <= ck_ax[8];
            ck_cy <= ck_ay[8];
        end
        if (in_beat && s_axis_tlast) last_bad <= s_axis_tuser;
        // end pipeline data: header verdict and fields at ep (before the next datagram's
        // header can replace them), the sum at e0 (once the last beat is in)
        if (ep) begin
            ez0 <= (f_csum == 16'd0);
            // (an input that ends before the UDP length counts as arrived bad too)
            eb0 <= last_bad || !reached;
            ea0 <= !hdr_drop;
            pl0 <= {1'b0, psum_r} + {3'd0, f_len};
        end
        // DATA_W 8: the sum is complete at e0 (the last beat's word entered at ep), and the
        // next datagram's first word enters two cycles later at the earliest
        if (e0) begin
            es1 <= {{(5-CW){1'b0}}, acc_c, acc_lo} + {2'd0, pl0};
            ek1 <= acc_good;
            ez1 <= ez0;
            eb1 <= eb0;
            ea1 <= ea0;
        end
        if (e1) begin
            es2 <= {1'b0, es1[15:0]} + {12'd0, es1[20:16]};
            ek2 <= ek1;
            ez2 <= ez1;
            eb2 <= eb1;
            ea2 <= ea1;
        end
        if (e2) begin
            // es2 <= 0xFFFF + 31 and congruent to the sum modulo 0xFFFF: 0xFFEE is the
            // only value in that range of the class of -17
            e_ok <= (KEEP_W == 1) ? ek2 : (es2 == 17'h0FFEE);
            e_zero <= ez2 || !cfg_csum_check;  // check off: as if the field were zero
            e_bad <= eb2;
            e_acc <= ea2;
        end
        if (push) begin
            cmd_src_mac <= cur_src_mac;
            cmd_src_ip <= cur_src_ip;
            cmd_dst_ip <= cur_dst_ip;
            cmd_src_port <= f_sport;
            cmd_dst_port <= f_dport;
            cmd_bcast <= cur_bcast;
            cmd_len <= {f_len[15:3] - 13'd1, f_len[2:0]};
            cmd_route <= q_idx;
            cmd_drop <= (STORE_FWD != 0 && e3) ? late_drop : hdr_drop;
        end
        closed_valid <= push && !(STORE_FWD != 0 && e3) && !r_len && r_closed;
    end

    wire e3_done = (STORE_FWD != 0) ? (!e_acc || push) : 1'b1;
    wire sts_push = (STORE_FWD == 0) && e3;
    // the queue never holds more than 4 entries (see `room`). A pushed status goes to
    // entry sts_n - sts_ready: each entry's two candidates (the queue shifts or holds) are
    // made from registers, and the late sts_ready only selects between them
    // (whole 4-bit vectors with one-hot write selects: the same per-entry logic, fewer
    // operations in a cycle-based simulator than a loop over the entries)
    wire [3:0] sts_q_sh = {1'b0, sts_q[3:1]};
    wire [4:0] sts_oh = {5{sts_push}} & {sts_n == 3'd4, sts_n == 3'd3, sts_n == 3'd2,
                                         sts_n == 3'd1, sts_n == 3'd0};
    wire [3:0] sts_w0 = sts_oh[3:0];  // entry sts_n gets the push (the queue holds)
    wire [3:0] sts_w1 = sts_oh[4:1];  // entry sts_n - 1 (the queue shifts)
    wire [3:0] sts_q_n = sts_ready ? ((sts_q_sh & ~sts_w1) | (sts_w1 & {4{late_drop}}))
                                   : ((sts_q & ~sts_w0) | (sts_w0 & {4{late_drop}}));

    always @(posedge clk) begin
        if (rst) begin
            active <= 1'b0;
            ended <= 1'b0;
            pushed <= 1'b0;
            tail <= 1'b0;
            flen <= 16'd0;
            hdr_complete <= 1'b0;
            ep <= 1'b0;
            ebusy <= 1'b0;
            e0 <= 1'b0;
            bs_v <= 1'b0;
            first <= 1'b1;
            e1 <= 1'b0;
            e2 <= 1'b0;
            e3 <= 1'b0;
            sts_n <= 3'd0;
            sts_nz <= 1'b0;
            infl <= 3'd0;
            cmd_valid <= 1'b0;
            cmd_idle <= 1'b1;
            inc_datagrams <= 1'b0;
            inc_bad_len <= 1'b0;
            inc_closed_port <= 1'b0;
            inc_oversize <= 1'b0;
            inc_err_in <= 1'b0;
            inc_bad_csum <= 1'b0;
        end else begin
            inc_datagrams <= 1'b0;
            inc_bad_len <= 1'b0;
            inc_closed_port <= 1'b0;
            inc_oversize <= 1'b0;
            inc_err_in <= 1'b0;
            inc_bad_csum <= 1'b0;
            if (restart) begin
                tail <= 1'b0;
                ended <= 1'b0;
                pushed <= 1'b0;
                flen <= 16'd0;
                hdr_complete <= 1'b0;
            end else begin
                if (push) pushed <= 1'b1;
                if (in_beat) begin
                    flen <= flen_nx;
                    // (flen < 8 steps by at most 8: it lands in 8..15 when it reaches 8)
                    if (flen_nx[3]) hdr_complete <= 1'b1;
                    if (excl) tail <= 1'b1;
                    if (s_axis_tlast) ended <= 1'b1;
                end
            end
            if (s_hdr_valid && s_hdr_ready) active <= 1'b1;
            else if (restart) active <= 1'b0;
            bs_v <= in_beat;
            if (s_hdr_valid && s_hdr_ready) first <= 1'b1;
            else if (in_beat) first <= 1'b0;
            ep <= in_beat && s_axis_tlast;
            ebusy <= (in_beat && s_axis_tlast) || ep || e0 || e1 || e2 || (e3 && !e3_done);
            e0 <= ep;
            if (e0) inc_datagrams <= 1'b1;
            e1 <= e0;
            e2 <= e1;
            if (e2) e3 <= 1'b1;
            else if (e3 && e3_done) e3 <= 1'b0;
            // late status queue
            if (sts_push && !sts_ready) sts_n <= sts_n + 1'b1;
            else if (!sts_push && sts_ready) sts_n <= sts_n - 1'b1;
            sts_nz <= sts_push || (sts_ready ? (sts_n != 3'd1) : sts_nz);
            sts_q <= sts_q_n;
            // an end enters at ep and leaves the status queue with sts_ready (cut-through:
            // e3 moves into the queue the cycle after e2, see e3_done)
            if ((in_beat && s_axis_tlast) && !sts_ready) infl <= infl + 3'd1;
            else if (!(in_beat && s_axis_tlast) && sts_ready) infl <= infl - 3'd1;
            if (push) begin
                cmd_valid <= 1'b1;
                cmd_idle <= 1'b0;
                if (!(STORE_FWD != 0 && e3)) begin
                    if (r_len) inc_bad_len <= 1'b1;
                    else if (r_closed) inc_closed_port <= 1'b1;
                    else if (r_big) inc_oversize <= 1'b1;
                end
            end else if (cmd_ready) begin
                cmd_valid <= 1'b0;
                cmd_idle <= 1'b1;
            end
            if (e3 && e3_done && e_acc) begin
                if (e_bad) inc_err_in <= 1'b1;
                else if (!e_ok && !e_zero) inc_bad_csum <= 1'b1;
            end
        end
    end

    // ---------------- buffer + strip ----------------
    wire [DATA_W-1:0] f_tdata;
    wire [KEEP_W-1:0] f_tkeep;
    wire              f_tvalid, f_tready, f_tlast, f_tuser;
    // DATA_W 8: the bytes the application does not get (the UDP header, bytes beyond the
    // UDP length) enter the buffer as empty beats (tkeep = 0), so the strip neither skips
    // nor counts a length (USE_LEN = 0); DATA_W 64: the strip skips 8 bytes, keeps cmd_len
    localparam [3:0] SKIP = (KEEP_W == 1) ? 4'd0 : 4'd8;
    wire [KEEP_W-1:0] in_keep = (KEEP_W == 1) ? (s_axis_tkeep & {KEEP_W{d_pay}}) : s_axis_tkeep;
    stream_fifo_g #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH), .GATED(1)) u_fifo (
        .clk(clk), .rst(rst), .s_gate_nx(taking_nx),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(in_keep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(fifo_ready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
        .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire              hv;  // (used with BUSY_WAIT >= 0 only: the ports read m_hdr_valid_oh)
    /* verilator lint_on UNUSEDSIGNAL */
    wire              hr;
    wire [DATA_W-1:0] o_tdata;
    wire [KEEP_W-1:0] o_tkeep;
    wire              o_tvalid, o_tlast, o_tuser;
    wire [RW-1:0]     o_route;
    /* verilator lint_off UNUSEDSIGNAL */
    wire              o_ttrunc_unused;  // truncation is flagged in tuser (counted upstream)
    // per-route tvalid flip-flops of the strip (not used here)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [(2**RW)-1:0] o_vh;
    /* verilator lint_on UNUSEDSIGNAL */
    // per-route header valid flip-flops of the strip (routes >= NUM_PORTS never used)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [(2**RW)-1:0] o_hvh;
    /* verilator lint_on UNUSEDSIGNAL */
    /* verilator lint_on UNUSEDSIGNAL */
    wire              o_tready;
    stream_strip #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .SKIP_W(4), .ROUTE_W(RW),
        .USE_STS((STORE_FWD != 0) ? 0 : 1), .USE_LEN((KEEP_W == 1) ? 0 : 1),
        .USE_SKIP((KEEP_W == 1) ? 0 : 1)
    ) u_strip (
        .clk(clk), .rst(rst),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_skip(SKIP), .cmd_len(cmd_len),
        .cmd_drop(cmd_drop), .cmd_route(cmd_route),
        .sts_valid(sts_nz), .sts_ready(sts_ready), .sts_bad(sts_q[0]),
        .s_axis_tdata(f_tdata), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(f_tvalid),
        .s_axis_tready(f_tready), .s_axis_tlast(f_tlast), .s_axis_tuser(f_tuser),
        .m_hdr_valid(hv), .m_hdr_valid_oh(o_hvh), .m_hdr_ready(hr),
        .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
        .m_axis_tready(o_tready), .m_axis_tlast(o_tlast), .m_axis_tuser(o_tuser),
        .m_axis_ttrunc(o_ttrunc_unused), .m_axis_troute(o_route),
        .m_axis_tvalid_oh(o_vh)
    );

    // busy-port drop: bw_force takes the header in the port's place, bw_disc then
    // swallows that datagram's payload
    wire bw_force, bw_disc;
    assign hr = m_hdr_ready[cmd_route] || bw_force;
    // header bus and closed-port strobe fields: held while the command waits (closed_valid
    // is high in the cycle after it was made), from the parser's registers at DATA_W 8
    assign closed_src_mac = HOLD ? cur_src_mac : cmd_src_mac;
    assign closed_src_ip = HOLD ? cur_src_ip : cmd_src_ip;
    assign closed_dst_ip = HOLD ? cur_dst_ip : cmd_dst_ip;
    assign closed_src_port = HOLD ? f_sport : cmd_src_port;
    assign closed_dst_port = HOLD ? f_dport : cmd_dst_port;
    assign closed_broadcast = HOLD ? cur_bcast : cmd_bcast;
    assign o_tready = m_axis_tready[o_route] || bw_disc;
    generate
        if (BUSY_WAIT < 0) begin : g_wait
            assign bw_force = 1'b0;
            assign bw_disc = 1'b0;
            assign ev_busy = 1'b0;
        end else begin : g_busy
            localparam integer TW = (BUSY_WAIT > 0) ? $clog2(BUSY_WAIT + 1) : 1;
            localparam [31:0] BWV = BUSY_WAIT;
            reg [TW-1:0] bw_t;  // cycles the header has waited
            reg          disc_r, inc_busy;
            wire bw_exp = (BUSY_WAIT == 0) ? 1'b1 : (bw_t == BWV[TW-1:0]);
            // the output register holds no beat of the previous datagram, so every beat
            // after this handshake belongs to the dropped datagram
            assign bw_force = hv && !m_hdr_ready[cmd_route] && bw_exp && !o_tvalid;
            assign bw_disc = disc_r;
            assign ev_busy = inc_busy;
            always @(posedge clk) begin
                if (rst) begin
                    bw_t <= {TW{1'b0}};
                    disc_r <= 1'b0;
                    inc_busy <= 1'b0;
                end else begin
                    if (!hv || m_hdr_ready[cmd_route]) bw_t <= {TW{1'b0}};
                    else if (!bw_exp) bw_t <= bw_t + 1'b1;
                    if (bw_force) disc_r <= 1'b1;
                    else if (o_tvalid && o_tlast) disc_r <= 1'b0;
                    inc_busy <= bw_force;
                end
            end
        end
    endgenerate
    genvar g;
    generate
        for (g = 0; g < NUM_PORTS; g = g + 1) begin : g_port
            assign m_hdr_valid[g] = o_hvh[g];  // hv && cmd_route == g, a flip-flop
            assign m_hdr_src_mac[48*g+:48] = closed_src_mac;
            assign m_hdr_src_ip[32*g+:32] = closed_src_ip;
            assign m_hdr_src_port[16*g+:16] = closed_src_port;
            assign m_hdr_dst_port[16*g+:16] = closed_dst_port;
            assign m_hdr_len[16*g+:16] = cmd_len;
            assign m_axis_tvalid[g] = o_tvalid && (o_route == g) && !bw_disc;
            assign m_axis_tdata[DATA_W*g+:DATA_W] = o_tdata;
            assign m_axis_tkeep[KEEP_W*g+:KEEP_W] = o_tkeep;
            assign m_axis_tlast[g] = o_tlast;
            assign m_axis_tuser[g] = o_tuser;
        end
    endgenerate
endmodule
`default_nettype wire
