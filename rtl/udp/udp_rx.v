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
// window fills, so the command's push reads flip-flops only. s_axis_tready is the
// FIFO's ready AND taking (active and not ended, flip-flops), the header window's enable
// reads flip-flops only (win_open_reg), the "UDP length reached" compare (the FIFO's
// tkeep) is a flip-flop set with the beat before (len_end_reg), and m_hdr_valid[k] is a
// flip-flop of the strip. At DATA_W 8 s_hdr_ready is one flip-flop too (hdr_ready_reg),
// the header gate of the cycle before: the one exception to same-cycle behaviour, a header
// may be taken a cycle later than the gate allows (see hdr_ready_reg).
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, NUM_PORTS (1 to 4, all
//   tested), STORE_FWD (0 or 1, both tested), FIFO_DEPTH (beats, a power of 2 from 8;
//   tested 8, 16, 32 and 256; with STORE_FWD the largest datagram taken is
//   FIFO_DEPTH*KEEP_W bytes of IP payload), BUSY_WAIT (cycles a port may take to accept a
//   header before its datagram is dropped, >= 0, tested 0, 3 and 4; or < 0, tested -1:
//   wait forever, see above).
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
    output wire                      closed_valid,
    output wire [47:0]               closed_src_mac,
    output wire [31:0]               closed_src_ip,
    output wire [31:0]               closed_dst_ip,
    output wire [15:0]               closed_src_port,
    output wire [15:0]               closed_dst_port,
    output wire                      closed_broadcast,
    // event strobes
    output wire [6:0]                cnt_ev
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            udp_rx_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            udp_rx_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (NUM_PORTS < 1 || NUM_PORTS > 4) begin : g_check_num_ports
            udp_rx_NUM_PORTS_must_be_1_to_4 u_error ();
        end
        if (STORE_FWD != 0 && STORE_FWD != 1) begin : g_check_store_fwd
            udp_rx_STORE_FWD_must_be_0_or_1 u_error ();
        end
        if (FIFO_DEPTH < 8 || (FIFO_DEPTH & (FIFO_DEPTH - 1)) != 0) begin : g_check_fifo_depth
            udp_rx_FIFO_DEPTH_must_be_a_power_of_2_from_8 u_error ();
        end
    endgenerate

    localparam integer NB = (8 + KEEP_W - 1) / KEEP_W;  // beats holding the UDP header
    localparam integer HW = NB * KEEP_W;                // bytes of the header window
    localparam integer BW = $clog2(NB + 1);
    localparam integer SAW = $clog2(KEEP_W + 1);
    localparam HOLD = (KEEP_W == 1);  // header bus read from the parser's own registers
    localparam integer RW = (NUM_PORTS > 1) ? $clog2(NUM_PORTS) : 1;
    localparam integer CAPI = FIFO_DEPTH * KEEP_W;
    localparam [16:0] CAP = CAPI[16:0];

    // ---------------- parser ----------------
    // the event strobes are registered (short enable paths, Fmax)
    reg ev_datagrams_reg, ev_bad_len_reg, ev_closed_port_reg, ev_oversize_reg, ev_err_in_reg,
        ev_bad_csum_reg;
    wire ev_busy_drop;  // (0 with BUSY_WAIT < 0)
    assign cnt_ev = {ev_busy_drop, ev_oversize_reg, ev_err_in_reg, ev_bad_csum_reg,
                     ev_closed_port_reg, ev_bad_len_reg, ev_datagrams_reg};
    reg  [HW*8-1:0] win_reg;         // the UDP header window (byte 0 in [7:0])
    reg  [BW-1:0]   beat_count_reg;  // the datagram's beats (the window's beat index)
    reg  [15:0]     byte_count_reg;  // the datagram's bytes so far
    reg             active_reg;      // a datagram's header from ip_rx is taken
    reg             ended_reg;       // ... and its last beat
    reg             pushed_reg;      // ... and its command is made
    // checksum accumulator (DATA_W 64): 16 bits plus deferred (end-around) carries; the
    // sum is csum_acc_reg + csum_carry_reg modulo 0xFFFF (DATA_W 8: two rotating byte
    // lanes, lane_*)
    localparam integer BSW = (KEEP_W == 1) ? 16 : 19;  // per-beat sum width
    localparam integer CW = (KEEP_W == 1) ? 1 : 4;  // deferred carry bits
    reg  [15:0]     csum_acc_reg;
    reg  [CW-1:0]   csum_carry_reg;
    // the input datagram's header from ip_rx
    reg  [47:0]     in_src_mac_reg;
    reg  [31:0]     in_src_ip_reg, in_dst_ip_reg;
    reg  [15:0]     in_ip_len_reg;  // IP payload bytes
    reg             in_bcast_reg;
    reg             last_user_reg;  // tuser of the last beat
    // The end pipeline: a datagram's end (its last beat taken) goes through five stages,
    // one cycle each, which add the pseudo-header and fold the checksum (64 bits) and
    // carry the datagram's flags along, to its verdict:
    //   end_take_reg     the last beat was taken; the header fields are read
    //   end_sum_reg      the sum is complete (the last beat's word is in)
    //   end_fold_reg     the sum with the pseudo-header folded once
    //   end_check_reg    folded again: the verdict is made
    //   verdict_reg      the verdict (verdict_*_reg) is ready; held (store and forward)
    //                    until the datagram's command is made
    reg             end_take_reg, end_sum_reg, end_fold_reg, end_check_reg, verdict_reg;
    // the flags through the stages: the checksum field is 0, the datagram arrived bad, its
    // header was accepted (and, DATA_W 8, its checksum is good)
    reg             end_sum_csum_zero_reg, end_sum_in_bad_reg, end_sum_accepted_reg;
    reg             end_fold_csum_zero_reg, end_fold_in_bad_reg, end_fold_accepted_reg;
    reg             end_check_csum_zero_reg, end_check_in_bad_reg, end_check_accepted_reg;
    reg             end_fold_good_reg, end_check_good_reg;
    reg             verdict_csum_ok_reg, verdict_csum_zero_reg, verdict_in_bad_reg,
                    verdict_accepted_reg;
    reg  [16:0]     src_ip_sum_reg, dst_ip_sum_reg;  // DATA_W 64: the IP words' sums
    reg  [17:0]     pseudo_sum_reg;  // their sum (protocol 17 is left out: see verdict)
    reg  [18:0]     pseudo_len_sum_reg;  // pseudo_sum_reg + UDP length (taken at end_take)
    reg  [20:0]     end_sum1_reg;  // the whole sum, unfolded
    reg  [16:0]     end_sum2_reg;  // ... folded once
    reg             beyond_len_reg;  // DATA_W 8: the bytes from here on are beyond the UDP length
    reg  [BSW-1:0]  beat_sum_reg;  // registered per-beat sum (a pipeline stage for Fmax)
    reg             beat_sum_valid_reg, beat_sum_first_reg, first_beat_reg;
    // DATA_W 8: the beat's data byte and pseudo-header byte, registered (a pipeline stage
    // for Fmax); byte_valid_reg: the data byte counts (within the UDP length); the two
    // byte lanes of the sum (lane_x_reg: the lane the next data byte goes to) and their
    // pending carries
    reg  [7:0]      data_byte_reg, pseudo_byte_reg, lane_x_reg, lane_y_reg;
    reg             byte_valid_reg, lane_x_carry_reg, lane_y_carry_reg;
    // cut-through: the late-status queue, the checksum verdicts (bad: 1) of ended
    // datagrams in order, for the strip's tuser on their last beats (entry 0 first)
    reg  [3:0]      sts_bad_reg, sts_bad_next;
    reg  [2:0]      sts_count_reg, sts_count_next;
    // cut-through: datagram ends whose status has not left the queue (in the end pipeline
    // or in the queue); at most 4, so the queue never overflows (see `room`)
    reg  [2:0]      ends_pending_reg;
    wire            sts_ready;

    reg             cmd_valid_reg;
    wire            cmd_ready;
    reg             cmd_drop_reg;
    reg  [RW-1:0]   cmd_route_reg;
    reg  [15:0]     cmd_len_reg;
    // header bus registers (DATA_W 64 only, see HOLD)
    reg  [47:0]     cmd_src_mac_reg;
    reg  [31:0]     cmd_src_ip_reg, cmd_dst_ip_reg;
    reg  [15:0]     cmd_src_port_reg, cmd_dst_port_reg;
    reg             cmd_bcast_reg;
    reg             closed_valid_reg;
    wire            fifo_ready;

    // the header window's fields
    wire [15:0] hdr_src_port = {win_reg[7:0], win_reg[15:8]};
    wire [15:0] hdr_dst_port = {win_reg[23:16], win_reg[31:24]};
    wire [15:0] hdr_udp_len  = {win_reg[39:32], win_reg[47:40]};
    wire [15:0] hdr_csum     = {win_reg[55:48], win_reg[63:56]};
    // at least the 8 header bytes are in (byte_count_reg >= 8), a register: the byte count
    // only grows until restart, and the beat that takes it to 8 or more sets its bit 3
    reg         hdr_complete_reg;

    // The header checks are made on the window's next value and registered with it, so
    // that push reads flip-flops only: the window (and so the checks) holds this
    // datagram's header from its last header beat on, push comes at least a cycle later.
    wire [HW*8-1:0] win_shifted;
    wire            win_load;
    wire [15:0] win_shifted_dst_port = {win_shifted[23:16], win_shifted[31:24]};
    wire [15:0] win_shifted_udp_len  = {win_shifted[39:32], win_shifted[47:40]};
    // port match (lowest index wins)
    reg  [RW-1:0] port_idx, port_idx_reg;
    reg           port_hit, port_hit_reg;
    reg           len_bad_reg;
    integer i;
    always @(*) begin
        port_idx = {RW{1'b0}};
        port_hit = 1'b0;
        for (i = NUM_PORTS - 1; i >= 0; i = i - 1)
            if (cfg_udp_port[16*i+:16] == win_shifted_dst_port && cfg_udp_port[16*i+:16] != 16'd0) begin
                port_idx = i[RW-1:0];
                port_hit = 1'b1;
            end
    end
    always @(posedge clk)
        if (win_load) begin
            win_reg      <= win_shifted;
            port_idx_reg <= port_idx;
            port_hit_reg <= port_hit;
            // UDP length < 8 or beyond the IP payload (in_ip_len_reg is taken before any beat)
            len_bad_reg  <= (win_shifted_udp_len < 16'd8) || (win_shifted_udp_len > in_ip_len_reg);
        end
    wire drop_len    = !hdr_complete_reg || len_bad_reg;
    wire drop_closed = !port_hit_reg;
    wire drop_big    = (STORE_FWD != 0) && ({1'b0, in_ip_len_reg} > CAP);
    wire hdr_drop    = drop_len || drop_closed || drop_big;

    // the end pipeline holds a datagram's end
    wire end_busy = end_take_reg || end_sum_reg || end_fold_reg || end_check_reg || verdict_reg;
    // the datagram's command is due: its header is complete (or it ended first) and the
    // end pipeline holds no earlier datagram (store and forward: a dropped header, or its
    // verdict)
    wire need_hdr = !pushed_reg && (hdr_complete_reg || ended_reg) && !end_busy;
    wire need = (STORE_FWD == 0) ? need_hdr :
                ((need_hdr && hdr_drop) || (verdict_reg && verdict_accepted_reg));
    wire push = need && !cmd_valid_reg;  // (not through cmd_ready: keeps the ready path short)
    wire late_drop = verdict_in_bad_reg || (!verdict_csum_ok_reg && !verdict_csum_zero_reg);
    // the end pipeline of the previous datagram must be idle before a new one starts
    // (store and forward), and the late-status queue must have room (cut-through)
    wire room = (STORE_FWD != 0) ? !end_busy : (ends_pending_reg < 3'd4);
    wire restart = ended_reg && (pushed_reg || push);
    // the next header waits until this datagram's command is gone: the fields held here
    // (in_*, the window) are what m_hdr_* and closed_* present meanwhile
    // (with HOLD this is restart without push: a command made in this cycle holds the
    // header; push is never 1 while !active_reg)
    // DATA_W 8: s_hdr_ready is one flip-flop (hdr_ready_reg): the header gate of the cycle
    // before, (!active || (ended && pushed)) && !cmd_valid && room, all flip-flops,
    // cleared by a header handshake. While no header is taken that gate can only rise
    // (nothing is in progress, or the packet has ended and its command is made: no command
    // is pushed, no last beat comes, and it stays so until a header is taken), so
    // hdr_ready_reg implies it: a header is taken at most one cycle later than with the
    // gate itself, never when it is 0
    reg  hdr_ready_reg;
    assign s_hdr_ready = HOLD ? hdr_ready_reg : ((!active_reg || restart) && room);
    wire hdr_fire = s_hdr_valid && s_hdr_ready;
    always @(posedge clk)
        if (rst) hdr_ready_reg <= 1'b0;
        else if (s_hdr_valid && hdr_ready_reg) hdr_ready_reg <= 1'b0;
        else hdr_ready_reg <= HOLD && (!active_reg || (ended_reg && pushed_reg)) &&
                              !cmd_valid_reg && room;
    // the datagram's bytes are taken from its header handshake to its last beat
    wire taking = active_reg && !ended_reg;
    assign s_axis_tready = fifo_ready && taking;
    wire in_beat   = s_axis_tvalid && s_axis_tready;
    wire last_beat = in_beat && s_axis_tlast;

    // The window fills with the datagram's first NB beats (win_open_reg). The beat count
    // matters only while the window is open (the window's beat index), so its enable is
    // the beat alone; win_open_reg falls with the window's last beat. Both are cleared for
    // the next datagram by `win_clear`. DATA_W 8 (HOLD): that is restart_reg (reset or
    // restart in the cycle before): after a restart the next datagram's first beat comes
    // two cycles later at the earliest (its header is taken with hdr_ready_reg, set in the
    // cycle after the restart, and s_axis_tready follows the handshake by a cycle), and
    // nothing reads them in between. DATA_W 64: the next header may be taken with the
    // restart, so they are cleared with it.
    reg  restart_reg;
    reg  win_open_reg, win_open_next;
    wire win_clear = HOLD ? restart_reg : (rst || restart);
    always @* begin
        win_open_next = win_open_reg;
        if (in_beat && beat_count_reg == NB[BW-1:0] - 1'b1) win_open_next = 1'b0;
        if (win_clear) win_open_next = 1'b1;
    end
    assign win_load = in_beat && win_open_reg;
    always @(posedge clk) begin
        restart_reg  <= rst || restart;
        win_open_reg <= win_open_next;
        if (win_clear) beat_count_reg <= {BW{1'b0}};
        else if (in_beat) beat_count_reg <= beat_count_reg + 1'b1;
    end
    generate
        if (NB == 1) begin : g_win1
            assign win_shifted = s_axis_tdata;
        end else begin : g_winn
            assign win_shifted = {s_axis_tdata, win_reg[HW*8-1:DATA_W]};
        end
    endgenerate

    reg [SAW-1:0] in_bytes;  // bytes in the input beat
    always @(*) begin
        in_bytes = {SAW{1'b0}};
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i]) in_bytes = i[SAW-1:0] + 1'b1;
    end
    wire [15:0] byte_count_after = byte_count_reg + {{(16-SAW){1'b0}}, in_bytes};
    /* verilator lint_off UNUSEDSIGNAL */
    reg [18:0] beat_sum;  // (DATA_W 8: bits 18:16 stay 0)
    /* verilator lint_on UNUSEDSIGNAL */
    reg [15:0] lane_pos;
    reg [7:0]  pseudo_byte;  // DATA_W 8: a pseudo-header byte in the free half of the word
    /* verilator lint_off UNUSEDSIGNAL */
    wire [4:0] beat_idx = {{(5-BW){1'b0}}, beat_count_reg};  // (DATA_W 8: the byte's position)
    /* verilator lint_on UNUSEDSIGNAL */
    // DATA_W 8: this byte and the rest are beyond the UDP length (the window is full here).
    // The compare byte_count == UDP length is a register (len_end_reg) made with the beat
    // that steps the byte count, so that the FIFO's tkeep and the checksum's byte select
    // read flip-flops only: it only counts once hdr_complete_reg, i.e. after a beat that
    // leaves the count >= 8. Such a beat holds a byte (a beat without one leaves the count,
    // and so len_end_reg, as they were) and either completes the header window (its last
    // beat, win_open_reg: all 8 header beats held a byte, so the count becomes 8 and the
    // UDP length is the window's next one) or comes after it (the UDP length is fixed and
    // the count becomes count + 1, compared as count == UDP length - 1, a register loaded
    // with the window, so no carry chain is in front of len_end_reg). The beat's tkeep is
    // only in the enable, not in the compare.
    reg        len_end_reg;
    reg [15:0] udp_len_m1_reg;
    always @(posedge clk) begin
        if (win_load) udp_len_m1_reg <= win_shifted_udp_len - 16'd1;
        if (in_beat && s_axis_tkeep[0])
            len_end_reg <= win_open_reg ? (win_shifted_udp_len == 16'd8) :
                                          (byte_count_reg == udp_len_m1_reg);
    end
    wire beyond_len = beyond_len_reg ||
                      (hdr_complete_reg && ((KEEP_W == 1) ? len_end_reg : (byte_count_reg == hdr_udp_len)));
    wire data_in    = s_axis_tkeep[0] && !beyond_len;  // a byte within the UDP length (DATA_W 8)
    wire pay_byte   = hdr_complete_reg && !beyond_len;  // a payload byte (DATA_W 8)
    // (read at end_take_reg) the input reached the UDP length
    wire reached = (KEEP_W == 1) ? beyond_len : (byte_count_reg >= hdr_udp_len);
    always @(*) begin
        beat_sum = 19'd0;
        lane_pos = byte_count_reg;
        pseudo_byte = 8'd0;
        if (KEEP_W == 1) begin
            // one byte per beat, in the high half of the word at even positions: the other
            // half takes a pseudo-header byte of the same half (position 0: destination IP
            // byte 1, 1: byte 0, 2: byte 3, 3: byte 2, 4: source IP byte 3, 5: UDP length
            // high byte, 6: low byte, both from the window's newest byte, 7: source IP byte
            // 2); the source IP's high word starts the sum, so the whole sum is in once the
            // last beat is (the byte lanes: lane_* below)
            if (win_open_reg) begin
                if (beat_idx[2])
                    pseudo_byte = (beat_idx[0] ^ beat_idx[1]) ? win_reg[HW*8-1-:8] :
                                                                in_src_ip_reg[8*beat_idx[0]+:8];
                else
                    pseudo_byte = in_dst_ip_reg[8*{~beat_idx[1], beat_idx[0]}+:8];
            end
        end else begin
            for (i = 0; i < KEEP_W; i = i + 1) begin
                lane_pos = byte_count_reg + i[15:0];
                if (s_axis_tkeep[i] && (lane_pos < 16'd8 || lane_pos < hdr_udp_len)) begin
                    if (lane_pos[0] == 1'b0) beat_sum = beat_sum + {3'd0, s_axis_tdata[8*i+:8], 8'd0};
                    else beat_sum = beat_sum + {11'd0, s_axis_tdata[8*i+:8]};
                end
            end
        end
    end
    // the checksum sum without the pseudo-header's protocol word (17): the datagram is
    // good when the rest sums to 0xFFFF - 17 = 0xFFEE (one's complement); DATA_W 64: the
    // datagram's words are summed here, the pseudo-header is added at the end (end_sum1_reg)
    wire [CW+15:0] csum_sum = {{CW{1'b0}}, beat_sum_first_reg ? 16'd0 : csum_acc_reg} +
                              {{(CW+16-BSW){1'b0}}, beat_sum_reg} +
                              {16'd0, beat_sum_first_reg ? {CW{1'b0}} : csum_carry_reg};
    // DATA_W 8: the sum in two byte lanes that swap with every data byte, so that the
    // data byte always enters lane x and the pseudo-header byte lane y (no lane
    // multiplexer): each lane is an 8-bit adder whose carry out belongs to the other lane
    // (the next higher one, or end-around), which is the lane the other adder works on
    // in the next step, so each lane's carry waits in one flip-flop. The first step starts
    // from the source IP's high word (its low word enters in the free halves of positions
    // 4 and 7). Only bytes within the UDP length step the lanes.
    wire [7:0] lane_x = beat_sum_first_reg ? in_src_ip_reg[31:24] : lane_x_reg;
    wire [7:0] lane_y = beat_sum_first_reg ? in_src_ip_reg[23:16] : lane_y_reg;
    wire [8:0] lane_x_sum = {1'b0, lane_x} + {1'b0, data_byte_reg} +
                            {8'd0, lane_x_carry_reg && !beat_sum_first_reg};
    wire [8:0] lane_y_sum = {1'b0, lane_y} + {1'b0, pseudo_byte_reg} +
                            {8'd0, lane_y_carry_reg && !beat_sum_first_reg};
    // after the UDP length's bytes (read at end_sum_reg) lane x is the high lane if that
    // length is even; the sum is good when it is congruent to -17 modulo 0xFFFF: each
    // lane plus its pending carry (at most 0x10100 in all) must make 0xFFEE, the only
    // value of that class in range
    wire [8:0] lane_x_total = {1'b0, lane_x_reg} + {8'd0, lane_x_carry_reg};
    wire [8:0] lane_y_total = {1'b0, lane_y_reg} + {8'd0, lane_y_carry_reg};
    wire [8:0] lane_hi = hdr_udp_len[0] ? lane_y_total : lane_x_total;
    wire [8:0] lane_lo = hdr_udp_len[0] ? lane_x_total : lane_y_total;
    wire lanes_good = (lane_hi == 9'h0FF) && (lane_lo == 9'h0EE);

    always @(posedge clk) begin
        if (hdr_fire) begin
            in_src_mac_reg <= s_hdr_src_mac;
            in_src_ip_reg  <= s_hdr_src_ip;
            in_dst_ip_reg  <= s_hdr_dst_ip;
            in_ip_len_reg  <= s_hdr_len;
            in_bcast_reg   <= s_hdr_broadcast;
            src_ip_sum_reg <= {1'b0, s_hdr_src_ip[31:16]} + {1'b0, s_hdr_src_ip[15:0]};
            dst_ip_sum_reg <= {1'b0, s_hdr_dst_ip[31:16]} + {1'b0, s_hdr_dst_ip[15:0]};
        end
        // read at end_take_reg (at least two cycles after the header was taken; the next
        // header cannot be taken before this datagram's last beat)
        pseudo_sum_reg <= {1'b0, src_ip_sum_reg} + {1'b0, dst_ip_sum_reg};
        // checksum: the beat's words are registered, then accumulated (the pseudo-header
        // sum and the UDP length enter at the end)
        beat_sum_reg       <= beat_sum[BSW-1:0];
        beat_sum_first_reg <= first_beat_reg;
        if (beat_sum_valid_reg) {csum_carry_reg, csum_acc_reg} <= csum_sum;
        data_byte_reg   <= s_axis_tdata[7:0];
        pseudo_byte_reg <= pseudo_byte;
        byte_valid_reg  <= in_beat && data_in;
        if (byte_valid_reg) begin
            // the lanes swap: the pseudo-header lane takes the next data byte
            lane_x_reg       <= lane_y_sum[7:0];
            lane_y_reg       <= lane_x_sum[7:0];
            lane_x_carry_reg <= lane_x_sum[8];
            lane_y_carry_reg <= lane_y_sum[8];
        end
        if (last_beat) last_user_reg <= s_axis_tuser;
        // end pipeline data: header verdict and fields at end_take_reg (before the next
        // datagram's header can replace them), the sum at end_sum_reg (once the last beat
        // is in)
        if (end_take_reg) begin
            end_sum_csum_zero_reg <= (hdr_csum == 16'd0);
            // (an input that ends before the UDP length counts as arrived bad too)
            end_sum_in_bad_reg    <= last_user_reg || !reached;
            end_sum_accepted_reg  <= !hdr_drop;
            pseudo_len_sum_reg    <= {1'b0, pseudo_sum_reg} + {3'd0, hdr_udp_len};
        end
        // DATA_W 8: the sum is complete at end_sum_reg (the last beat's word entered at
        // end_take_reg), and the next datagram's first word enters two cycles later at the
        // earliest
        if (end_sum_reg) begin
            end_sum1_reg           <= {{(5-CW){1'b0}}, csum_carry_reg, csum_acc_reg} +
                                      {2'd0, pseudo_len_sum_reg};
            end_fold_good_reg      <= lanes_good;
            end_fold_csum_zero_reg <= end_sum_csum_zero_reg;
            end_fold_in_bad_reg    <= end_sum_in_bad_reg;
            end_fold_accepted_reg  <= end_sum_accepted_reg;
        end
        if (end_fold_reg) begin
            end_sum2_reg            <= {1'b0, end_sum1_reg[15:0]} + {12'd0, end_sum1_reg[20:16]};
            end_check_good_reg      <= end_fold_good_reg;
            end_check_csum_zero_reg <= end_fold_csum_zero_reg;
            end_check_in_bad_reg    <= end_fold_in_bad_reg;
            end_check_accepted_reg  <= end_fold_accepted_reg;
        end
        if (end_check_reg) begin
            // end_sum2_reg <= 0xFFFF + 31 and congruent to the sum modulo 0xFFFF: 0xFFEE is
            // the only value in that range of the class of -17
            verdict_csum_ok_reg   <= (KEEP_W == 1) ? end_check_good_reg : (end_sum2_reg == 17'h0FFEE);
            // check off: as if the field were zero
            verdict_csum_zero_reg <= end_check_csum_zero_reg || !cfg_csum_check;
            verdict_in_bad_reg    <= end_check_in_bad_reg;
            verdict_accepted_reg  <= end_check_accepted_reg;
        end
        if (push) begin
            cmd_src_mac_reg  <= in_src_mac_reg;
            cmd_src_ip_reg   <= in_src_ip_reg;
            cmd_dst_ip_reg   <= in_dst_ip_reg;
            cmd_src_port_reg <= hdr_src_port;
            cmd_dst_port_reg <= hdr_dst_port;
            cmd_bcast_reg    <= in_bcast_reg;
            cmd_len_reg      <= hdr_udp_len - 16'd8;
            cmd_route_reg    <= port_idx_reg;
            cmd_drop_reg     <= (STORE_FWD != 0 && verdict_reg) ? late_drop : hdr_drop;
        end
        closed_valid_reg <= push && !(STORE_FWD != 0 && verdict_reg) && !drop_len && drop_closed;
    end
    assign closed_valid = closed_valid_reg;

    // the verdict stage is done: at once (cut-through: it goes into the status queue), or
    // (store and forward) when the datagram's command is made, or not needed
    wire verdict_done = (STORE_FWD != 0) ? (!verdict_accepted_reg || push) : 1'b1;
    wire sts_push = (STORE_FWD == 0) && verdict_reg;
    integer k;
    always @* begin
        sts_bad_next   = sts_bad_reg;
        sts_count_next = sts_count_reg;
        if (sts_ready) begin  // the strip takes entry 0
            sts_bad_next   = {1'b0, sts_bad_reg[3:1]};
            sts_count_next = sts_count_reg - 3'd1;
        end
        if (sts_push) begin  // a verdict enters behind the others
            for (k = 0; k < 4; k = k + 1)
                if (sts_count_next == k[2:0]) sts_bad_next[k] = late_drop;
            sts_count_next = sts_count_next + 3'd1;
        end
    end

    always @(posedge clk) begin
        sts_bad_reg <= sts_bad_next;
        // event strobes: one cycle each, 0 unless set below
        ev_datagrams_reg   <= 1'b0;
        ev_bad_len_reg     <= 1'b0;
        ev_closed_port_reg <= 1'b0;
        ev_oversize_reg    <= 1'b0;
        ev_err_in_reg      <= 1'b0;
        ev_bad_csum_reg    <= 1'b0;
        if (rst) begin
            active_reg         <= 1'b0;
            ended_reg          <= 1'b0;
            pushed_reg         <= 1'b0;
            beyond_len_reg     <= 1'b0;
            byte_count_reg     <= 16'd0;
            hdr_complete_reg   <= 1'b0;
            end_take_reg       <= 1'b0;
            end_sum_reg        <= 1'b0;
            end_fold_reg       <= 1'b0;
            end_check_reg      <= 1'b0;
            verdict_reg        <= 1'b0;
            beat_sum_valid_reg <= 1'b0;
            first_beat_reg     <= 1'b1;
            sts_count_reg      <= 3'd0;
            ends_pending_reg   <= 3'd0;
            cmd_valid_reg      <= 1'b0;
        end else begin
            if (restart) begin
                beyond_len_reg   <= 1'b0;
                ended_reg        <= 1'b0;
                pushed_reg       <= 1'b0;
                byte_count_reg   <= 16'd0;
                hdr_complete_reg <= 1'b0;
            end else begin
                if (push) pushed_reg <= 1'b1;
                if (in_beat) begin
                    byte_count_reg <= byte_count_after;
                    // (a count below 8 steps by at most 8: it lands in 8..15 when it
                    // reaches 8)
                    if (byte_count_after[3]) hdr_complete_reg <= 1'b1;
                    if (beyond_len) beyond_len_reg <= 1'b1;
                    if (s_axis_tlast) ended_reg <= 1'b1;
                end
            end
            if (hdr_fire) active_reg <= 1'b1;
            else if (restart) active_reg <= 1'b0;
            beat_sum_valid_reg <= in_beat;
            if (hdr_fire) first_beat_reg <= 1'b1;
            else if (in_beat) first_beat_reg <= 1'b0;
            end_take_reg <= last_beat;
            end_sum_reg  <= end_take_reg;
            if (end_sum_reg) ev_datagrams_reg <= 1'b1;
            end_fold_reg  <= end_sum_reg;
            end_check_reg <= end_fold_reg;
            if (end_check_reg) verdict_reg <= 1'b1;
            else if (verdict_reg && verdict_done) verdict_reg <= 1'b0;
            sts_count_reg <= sts_count_next;
            // an end enters at end_take_reg and leaves the status queue with sts_ready
            // (cut-through: the verdict moves into the queue the cycle after end_check_reg)
            if (last_beat && !sts_ready) ends_pending_reg <= ends_pending_reg + 3'd1;
            else if (!last_beat && sts_ready) ends_pending_reg <= ends_pending_reg - 3'd1;
            if (push) begin
                cmd_valid_reg <= 1'b1;
                if (!(STORE_FWD != 0 && verdict_reg)) begin
                    if (drop_len) ev_bad_len_reg <= 1'b1;
                    else if (drop_closed) ev_closed_port_reg <= 1'b1;
                    else if (drop_big) ev_oversize_reg <= 1'b1;
                end
            end else if (cmd_ready) begin
                cmd_valid_reg <= 1'b0;
            end
            if (verdict_reg && verdict_done && verdict_accepted_reg) begin
                if (verdict_in_bad_reg) ev_err_in_reg <= 1'b1;
                else if (!verdict_csum_ok_reg && !verdict_csum_zero_reg) ev_bad_csum_reg <= 1'b1;
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
    wire [KEEP_W-1:0] in_keep = (KEEP_W == 1) ? (s_axis_tkeep & {KEEP_W{pay_byte}}) : s_axis_tkeep;
    stream_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH)) u_fifo (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(in_keep),
        .s_axis_tvalid(s_axis_tvalid && taking), .s_axis_tready(fifo_ready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
        .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire              hdr_valid;  // (used with BUSY_WAIT >= 0 only: the ports read o_hdr_valid)
    wire              o_ttrunc;   // truncation is flagged in tuser (counted upstream)
    // per-route tvalid flip-flops of the strip (not used here)
    wire [(2**RW)-1:0] o_tvalid_route;
    // per-route header valid flip-flops of the strip (routes >= NUM_PORTS never used)
    wire [(2**RW)-1:0] o_hdr_valid;
    /* verilator lint_on UNUSEDSIGNAL */
    wire              hdr_ready;
    wire [DATA_W-1:0] o_tdata;
    wire [KEEP_W-1:0] o_tkeep;
    wire              o_tvalid, o_tlast, o_tuser;
    wire [RW-1:0]     o_route;
    wire              o_tready;
    stream_strip #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .SKIP_W(4), .ROUTE_W(RW),
        .USE_STS((STORE_FWD != 0) ? 0 : 1), .USE_LEN((KEEP_W == 1) ? 0 : 1),
        .USE_SKIP((KEEP_W == 1) ? 0 : 1)
    ) u_strip (
        .clk(clk), .rst(rst),
        .cmd_valid(cmd_valid_reg), .cmd_ready(cmd_ready), .cmd_skip(SKIP), .cmd_len(cmd_len_reg),
        .cmd_drop(cmd_drop_reg), .cmd_route(cmd_route_reg),
        .sts_valid(sts_count_reg != 3'd0), .sts_ready(sts_ready), .sts_bad(sts_bad_reg[0]),
        .s_axis_tdata(f_tdata), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(f_tvalid),
        .s_axis_tready(f_tready), .s_axis_tlast(f_tlast), .s_axis_tuser(f_tuser),
        .m_hdr_valid(hdr_valid), .m_hdr_valid_oh(o_hdr_valid), .m_hdr_ready(hdr_ready),
        .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
        .m_axis_tready(o_tready), .m_axis_tlast(o_tlast), .m_axis_tuser(o_tuser),
        .m_axis_ttrunc(o_ttrunc), .m_axis_troute(o_route),
        .m_axis_tvalid_oh(o_tvalid_route)
    );

    // busy-port drop: busy_take takes the header in the port's place, busy_discard then
    // swallows that datagram's payload
    wire busy_take, busy_discard;
    assign hdr_ready = m_hdr_ready[cmd_route_reg] || busy_take;
    // header bus and closed-port strobe fields: held while the command waits (closed_valid
    // is high in the cycle after it was made), from the parser's registers at DATA_W 8
    assign closed_src_mac   = HOLD ? in_src_mac_reg : cmd_src_mac_reg;
    assign closed_src_ip    = HOLD ? in_src_ip_reg  : cmd_src_ip_reg;
    assign closed_dst_ip    = HOLD ? in_dst_ip_reg  : cmd_dst_ip_reg;
    assign closed_src_port  = HOLD ? hdr_src_port   : cmd_src_port_reg;
    assign closed_dst_port  = HOLD ? hdr_dst_port   : cmd_dst_port_reg;
    assign closed_broadcast = HOLD ? in_bcast_reg   : cmd_bcast_reg;
    assign o_tready = m_axis_tready[o_route] || busy_discard;
    generate
        if (BUSY_WAIT < 0) begin : g_wait
            assign busy_take    = 1'b0;
            assign busy_discard = 1'b0;
            assign ev_busy_drop = 1'b0;
        end else begin : g_busy
            localparam integer TW = (BUSY_WAIT > 0) ? $clog2(BUSY_WAIT + 1) : 1;
            localparam [31:0] BWV = BUSY_WAIT;
            reg [TW-1:0] wait_reg;  // cycles the header has waited
            reg          discard_reg, ev_busy_drop_reg;
            wire expired = (BUSY_WAIT == 0) ? 1'b1 : (wait_reg == BWV[TW-1:0]);
            // the output register holds no beat of the previous datagram, so every beat
            // after this handshake belongs to the dropped datagram
            assign busy_take    = hdr_valid && !m_hdr_ready[cmd_route_reg] && expired && !o_tvalid;
            assign busy_discard = discard_reg;
            assign ev_busy_drop = ev_busy_drop_reg;
            always @(posedge clk) begin
                if (rst) begin
                    wait_reg         <= {TW{1'b0}};
                    discard_reg      <= 1'b0;
                    ev_busy_drop_reg <= 1'b0;
                end else begin
                    if (!hdr_valid || m_hdr_ready[cmd_route_reg]) wait_reg <= {TW{1'b0}};
                    else if (!expired) wait_reg <= wait_reg + 1'b1;
                    if (busy_take) discard_reg <= 1'b1;
                    else if (o_tvalid && o_tlast) discard_reg <= 1'b0;
                    ev_busy_drop_reg <= busy_take;
                end
            end
        end
    endgenerate
    genvar g;
    generate
        for (g = 0; g < NUM_PORTS; g = g + 1) begin : g_port
            assign m_hdr_valid[g] = o_hdr_valid[g];  // hdr_valid && cmd_route == g, a flip-flop
            assign m_hdr_src_mac[48*g+:48] = closed_src_mac;
            assign m_hdr_src_ip[32*g+:32] = closed_src_ip;
            assign m_hdr_src_port[16*g+:16] = closed_src_port;
            assign m_hdr_dst_port[16*g+:16] = closed_dst_port;
            assign m_hdr_len[16*g+:16] = cmd_len_reg;
            assign m_axis_tvalid[g] = o_tvalid && (o_route == g) && !busy_discard;
            assign m_axis_tdata[DATA_W*g+:DATA_W] = o_tdata;
            assign m_axis_tkeep[KEEP_W*g+:KEEP_W] = o_tkeep;
            assign m_axis_tlast[g] = o_tlast;
            assign m_axis_tuser[g] = o_tuser;
        end
    endgenerate
endmodule
`default_nettype wire
