`default_nettype none
// arp: ARP responder, requester and cache with timeouts (width-generic).
//
// Receives whole Ethernet frames of EtherType 0x0806 (s_axis_*) and sends whole ARP
// frames (m_axis_*, 42 bytes, no FCS; the MAC pads to 60). Answers the stack's
// next-hop lookups (arp_req_* / arp_resp_*) from a set-associative cache held in RAM.
//
// Receive (RFC 826 with the merge rule):
//   * well-formed frames only (see arp_rx: bad ones are dropped and counted);
//   * if the sender IP (SPA) is in the cache, its entry is refreshed with the sender
//     MAC (whatever the target: this also follows peers' gratuitous ARP);
//   * if the target IP (TPA) is ours, the sender is added if it was not cached, and a
//     request (broadcast or unicast) is answered with a reply sent to the sender;
//   * SPA 0.0.0.0 (address probes) and SPA == cfg_ip are never learnt; a probe for
//     our IP is answered (sent to the prober, TPA 0.0.0.0). A frame from another
//     station with SPA == cfg_ip is counted in cnt_conflict, not answered, and our
//     address is defended with one gratuitous ARP (RFC 5227 2.4 b).
// Lookup (arp_req_ip is a destination IP; the next hop is chosen here):
//   * 255.255.255.255 and the subnet broadcast (for masks of /30 or shorter) resolve
//     to ff:ff:ff:ff:ff:ff, IPv4 multicast 224.0.0.0/4 to 01:00:5e + the low 23 bits:
//     hit, no cache access;
//   * same subnet as cfg_ip (under cfg_netmask): next hop is the IP itself, otherwise
//     cfg_gateway; a next hop of 0.0.0.0 or cfg_ip, or cfg_ip 0.0.0.0, is a miss and
//     sends nothing;
//   * a fresh cache entry answers hit with its MAC;
//   * anything else answers miss at once (the caller drops its frame) and, if the IP
//     is not already pending, allocates an INCOMPLETE entry and sends a broadcast
//     request; it is retried RETRIES times every RETRY_MS ms, then the entry is freed
//     and cnt_timeout counts it.
//   * an entry lives EXPIRE_MS ms after it was last refreshed (cnt_expired). A hit on
//     an entry older than REVALIDATE_MS sends one unicast request to the known MAC, so
//     a live peer's reply refreshes it before it expires and traffic never stops.
// Cache: ENTRIES entries in SETS = ENTRIES/WAYS sets of WAYS ways, one RAM per way
//   (SETS deep, read in a clocked block). Set index = the low log2(SETS) bits of the
//   XOR of the IP's four bytes. Replacement within a full set: least recently
//   refreshed (the way whose last refresh or request is oldest); a free way first.
//   Entry states: free, INCOMPLETE (request sent, waiting), VALID, VALID-PROBED
//   (re-validation request sent). A background pass visits every entry once per
//   tick_1ms to expire and retry entries.
// Gratuitous ARP: one broadcast request with SPA = TPA = cfg_ip is sent after reset
//   and after any change of cfg_ip or cfg_mac, once they have been stable for
//   GARP_HOLD_MS ms (so a MAC written as two registers announces once); not sent
//   while cfg_ip is 0.0.0.0.
// Transmit priority: reply, then gratuitous ARP, then request. One frame of each kind
//   can wait; a request that arrives while a reply is still waiting is held in the
//   receive slot (further frames meanwhile are dropped and counted in cnt_rx_overrun).
//
// Interfaces:
//   s_axis_*   ARP frames in (tready always 1), tuser on the last beat = bad frame
//   m_axis_*   ARP frames out (whole Ethernet frames, no FCS)
//   arp_req_valid/ready, arp_req_ip[31:0]: lookup request (ready = no lookup in flight)
//   arp_resp_valid (one-cycle strobe), arp_resp_hit, arp_resp_mac[47:0]
//   cfg_mac, cfg_ip, cfg_netmask, cfg_gateway: configuration (values, not wire order)
//   tick_1ms: one-cycle strobe every millisecond
//   cnt_*: 32-bit wrapping counters
// Latency: arp_resp_valid 1 cycle after the request handshake when the IP is the one of
//   the last hit and nothing has changed since (same millisecond, no cache write);
//   otherwise 4 cycles (up to 7 if the cache had just started a receive or background
//   operation; more only right after reset while the cache is cleared, SETS cycles).
//   A cache operation takes 3 or 4 cycles: read (IDLE), per-way compare (EXEC1),
//   decision (EXEC2), and the write (WRITE) if it changes an entry. A reply's first
//   beat is on m_axis 6 cycles after the request's last beat when the output is free;
//   a request's, 1 cycle after the miss answer.
// Parameters: DATA_W (multiple of 8, at most 168), KEEP_W, ENTRIES and WAYS (powers of two, WAYS <=
//   ENTRIES, ENTRIES/WAYS <= 256), RETRIES (retransmissions after the first request),
//   RETRY_MS, EXPIRE_MS, REVALIDATE_MS (< EXPIRE_MS), GARP_HOLD_MS (>= 1).

module arp #(
    parameter DATA_W        = 8,
    parameter KEEP_W        = DATA_W / 8,
    parameter ENTRIES       = 16,
    parameter WAYS          = 4,
    parameter RETRIES       = 3,
    parameter RETRY_MS      = 1000,
    parameter EXPIRE_MS     = 60000,
    parameter REVALIDATE_MS = EXPIRE_MS - EXPIRE_MS / 4,
    parameter GARP_HOLD_MS  = 2
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,

    input  wire [47:0]       cfg_mac,
    input  wire [31:0]       cfg_ip,
    input  wire [31:0]       cfg_netmask,
    input  wire [31:0]       cfg_gateway,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    input  wire              arp_req_valid,
    output wire              arp_req_ready,
    input  wire [31:0]       arp_req_ip,
    output reg               arp_resp_valid,
    output reg               arp_resp_hit,
    output reg  [47:0]       arp_resp_mac,

    output reg  [31:0]       cnt_req_rx,      // requests for our IP received
    output reg  [31:0]       cnt_reply_tx,    // replies sent
    output reg  [31:0]       cnt_req_tx,      // requests sent (first, retries, re-validation)
    output reg  [31:0]       cnt_garp_tx,     // gratuitous ARP sent
    output reg  [31:0]       cnt_reply_rx,    // well-formed replies received
    output wire [31:0]       cnt_malformed,   // malformed frames dropped
    output wire [31:0]       cnt_rx_overrun,  // frames dropped: receive slot busy
    output reg  [31:0]       cnt_hit,         // lookups answered hit
    output reg  [31:0]       cnt_miss,        // lookups answered miss
    output reg  [31:0]       cnt_timeout,     // requests that got no reply after all retries
    output reg  [31:0]       cnt_expired,     // valid entries that expired
    output reg  [31:0]       cnt_evicted,     // entries replaced while in use
    output reg  [31:0]       cnt_conflict     // frames from another station claiming cfg_ip
);

    // ------------------------------------------------------------------ sizes
    localparam SETS  = ENTRIES / WAYS;
    localparam SET_W = (SETS > 1) ? $clog2(SETS) : 1;
    localparam WAY_W = (WAYS > 1) ? $clog2(WAYS) : 1;
    localparam MAXT  = (EXPIRE_MS > RETRY_MS) ? EXPIRE_MS : RETRY_MS;
    // Time stamps: ages stay below 2^(TS_W-1) (entries are expired, retried or freed
    // within about a millisecond of their last deadline), which lets "age >= T" be read
    // off the sign of (now - T) - stamp, one subtraction with a registered operand.
    localparam TS_W  = $clog2(MAXT + 1) + 2;
    localparam RW    = $clog2(RETRIES + 2);
    localparam EW    = 2 + RW + TS_W + 32 + 48;
    localparam HOLD_W = $clog2(GARP_HOLD_MS + 1);
    localparam SWL_W  = $clog2(ENTRIES + 1);

    localparam [TS_W-1:0] RETRY_T   = RETRY_MS[TS_W-1:0];
    localparam [TS_W-1:0] EXPIRE_T  = EXPIRE_MS[TS_W-1:0];
    localparam [TS_W-1:0] REVAL_T   = REVALIDATE_MS[TS_W-1:0];
    localparam integer    RETRIES1  = RETRIES + 1;
    localparam [RW-1:0]   RETRY_N   = RETRIES[RW-1:0];
    localparam [RW-1:0]   RETRY_N1  = RETRIES1[RW-1:0];
    localparam [HOLD_W-1:0] HOLD_N  = GARP_HOLD_MS[HOLD_W-1:0];
    localparam integer    SETS_M1   = SETS - 1;
    localparam integer    WAYS_M1   = WAYS - 1;
    localparam integer    ENTRIES_I = ENTRIES;

    // entry layout: {state, retries, stamp, ip, mac}
    localparam ST_FREE = 2'd0, ST_INC = 2'd1, ST_VAL = 2'd2, ST_PRB = 2'd3;
    localparam [47:0] BCAST = 48'hffffffffffff;

    // cache FSM state (below) and its operations
    localparam S_INIT = 3'd0, S_IDLE = 3'd1, S_EXEC1 = 3'd2, S_EXEC2 = 3'd3, S_WRITE = 3'd4;
    localparam OP_LK = 2'd0, OP_RX = 2'd1, OP_SW = 2'd2;

    reg  [2:0]       state;
    reg  [1:0]       op;

    // ------------------------------------------------------------------ receive
    wire        ev_valid;
    wire        ev_ready = (state == S_EXEC2) && (op == OP_RX);
    wire        ev_reply;
    wire [47:0] ev_sha;
    wire [31:0] ev_spa;
    wire [31:0] ev_tpa;

    arp_rx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_rx (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .ev_valid(ev_valid), .ev_ready(ev_ready), .ev_reply(ev_reply),
        .ev_sha(ev_sha), .ev_spa(ev_spa), .ev_tpa(ev_tpa),
        .cnt_malformed(cnt_malformed), .cnt_overrun(cnt_rx_overrun)
    );

    // ------------------------------------------------------------------ transmit
    reg         reply_pend;   // reply waiting for the transmitter
    reg  [47:0] reply_dst;
    reg  [31:0] reply_tpa;
    reg         req_pend;     // request waiting for the transmitter
    reg  [47:0] req_dst;
    reg  [31:0] req_tpa;
    reg         garp_pend;
    reg  [HOLD_W-1:0] garp_hold;
    reg  [47:0] prev_mac;
    reg  [31:0] prev_ip;
    reg         cfg_chg;  // cfg_mac or cfg_ip changed (registered, 2 cycles after)

    wire        tx_busy;
    wire        tx_done;
    wire        garp_due = garp_pend && (garp_hold == {HOLD_W{1'b0}}) && (cfg_ip != 32'd0);
    wire        tx_go    = (!tx_busy || tx_done) && (reply_pend || garp_due || req_pend);
    wire        tx_sel_reply = reply_pend;
    wire        tx_sel_garp  = !reply_pend && garp_due;
    reg  [1:0]  tx_kind;      // 0 reply, 1 gratuitous, 2 request (of the frame being sent)

    arp_tx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_tx (
        .clk(clk), .rst(rst),
        .cfg_mac(cfg_mac), .cfg_ip(cfg_ip),
        .start(tx_go),
        .reply(tx_sel_reply),
        .dst_mac(tx_sel_reply ? reply_dst : tx_sel_garp ? BCAST : req_dst),
        .tpa(tx_sel_reply ? reply_tpa : tx_sel_garp ? cfg_ip : req_tpa),
        .busy(tx_busy), .done(tx_done),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
    );

    // ------------------------------------------------------------------ time
    reg [TS_W-1:0] now;  // milliseconds, wrapping
    reg [TS_W-1:0] now_exp;    // now - EXPIRE_MS
    reg [TS_W-1:0] now_reval;  // now - REVALIDATE_MS
    reg [TS_W-1:0] now_retry;  // now - RETRY_MS
    always @(posedge clk) begin
        now_exp   <= now - EXPIRE_T;
        now_reval <= now - REVAL_T;
        now_retry <= now - RETRY_T;
    end

    // ------------------------------------------------------------------ lookup input
    reg         lk_pend;
    reg  [31:0] lk_ip;
    assign arp_req_ready = !lk_pend;

    // Last hit, answered again in one cycle without the cache: while memo_valid, lk_ip
    // is the IP of the last answer and arp_resp_mac still holds its MAC. Forgotten on a
    // miss, on every cache write, every tick_1ms (ages move: expiry and re-validation
    // need the cache) and every change of cfg_ip or cfg_mac.
    reg         memo_valid;
    wire        lk_take  = arp_req_valid && arp_req_ready;
    wire        memo_hit = lk_take && memo_valid && (arp_req_ip == lk_ip);

    // Next hop of the requested IP, worked out as the request is taken.
    wire [31:0] host_mask  = ~cfg_netmask;
    wire        q_local    = ((arp_req_ip ^ cfg_ip) & cfg_netmask) == 32'd0;
    wire        q_bcast    = (arp_req_ip == 32'hffffffff) ||
                             (q_local && ((arp_req_ip & host_mask) == host_mask) &&
                              host_mask[1]);
    wire [31:0] q_nh       = q_local ? arp_req_ip : cfg_gateway;
    // no next hop: no gateway, our own address, or no address of ours yet (a request
    // with sender IP 0.0.0.0 would be taken for an address probe)
    // (gw_bad: the gateway is 0.0.0.0 or our own address, registered from cfg_*)
    reg         gw_bad;
    wire        q_noroute  = (cfg_ip == 32'd0) ||
                             (q_local ? (arp_req_ip == 32'd0 || arp_req_ip == cfg_ip) : gw_bad);

    reg  [31:0]      lk_nh;
    reg              lk_bcast;
    reg              lk_noroute;
    reg  [SET_W-1:0] lk_set;
    reg              lk_mcast;
    wire [47:0]      lk_mcast_mac = {24'h01005e, 1'b0, lk_ip[22:0]};

    // Set index: low bits of the XOR of the four bytes (the high bits of the fold are
    // unused when SETS < 256).
    /* verilator lint_off UNUSED */
    function [SET_W-1:0] set_of(input [31:0] ip);
        reg [7:0] f;
        begin
            f = ip[7:0] ^ ip[15:8] ^ ip[23:16] ^ ip[31:24];
            set_of = (SETS > 1) ? f[SET_W-1:0] : {SET_W{1'b0}};
        end
    endfunction
    /* verilator lint_on UNUSED */

    // ------------------------------------------------------------------ cache RAM
    reg  [SET_W-1:0] cur_set;
    reg  [SET_W-1:0] init_set;
    reg  [SET_W-1:0] sw_set;
    reg  [WAY_W-1:0] sw_way;
    reg  [SWL_W-1:0] sw_left;    // entries still to visit in this background pass
    reg              sw_again;   // an entry is due but the request slot was busy

    // A request waits while a reply is still queued (it may need the reply slot).
    wire rx_can     = ev_valid && !(!ev_reply && reply_pend);
    wire sw_can     = (sw_left != {SWL_W{1'b0}});
    wire [1:0] op_sel = lk_pend ? OP_LK : rx_can ? OP_RX : OP_SW;
    wire       op_any = lk_pend || rx_can || sw_can;
    wire [SET_W-1:0] rd_set = lk_pend ? lk_set : rx_can ? set_of(ev_spa) : sw_set;
    wire             rd_en  = (state == S_IDLE);  // read data held through EXEC1/EXEC2

    reg              wr_en;
    reg  [WAY_W-1:0] wr_way;
    reg  [EW-1:0]    wr_data;
    wire             init_wr = (state == S_INIT);
    wire [SET_W-1:0] wr_set  = init_wr ? init_set : cur_set;
    // the write decided in EXEC2 is registered and done in WRITE
    reg              mem_we;
    reg  [WAY_W-1:0] mem_way;
    reg  [EW-1:0]    mem_data;
    always @(posedge clk) begin
        if (state == S_EXEC2) begin
            mem_way  <= wr_way;
            mem_data <= wr_data;
        end
        mem_we <= (state == S_EXEC2) && wr_en;
    end

    wire [WAYS*EW-1:0] rd_all;

    genvar gw;
    generate
        for (gw = 0; gw < WAYS; gw = gw + 1) begin : g_way
            localparam [WAY_W-1:0] WAY_ID = gw[WAY_W-1:0];
            reg [EW-1:0] mem [0:SETS-1];
            reg [EW-1:0] rd;
            always @(posedge clk) begin
                if (init_wr || (mem_we && mem_way == WAY_ID))
                    mem[wr_set] <= init_wr ? {EW{1'b0}} : mem_data;
                if (rd_en) rd <= mem[rd_set];
            end
            assign rd_all[gw*EW +: EW] = rd;
        end
    endgenerate

    // ------------------------------------------------------------------ per-way view
    reg  [2*WAYS-1:0]    w_st;
    reg  [RW*WAYS-1:0]   w_rt;
    reg  [TS_W*WAYS-1:0] w_ts;
    reg  [TS_W*WAYS-1:0] w_age;
    reg  [32*WAYS-1:0]   w_ip;
    reg  [48*WAYS-1:0]   w_mac;
    reg  [WAYS-1:0]      w_live;  // VALID or VALID-PROBED
    reg  [WAYS-1:0]      w_old_exp;    // age >= EXPIRE_MS
    reg  [WAYS-1:0]      w_old_reval;  // age >= REVALIDATE_MS
    reg  [WAYS-1:0]      w_old_retry;  // age >= RETRY_MS
    reg  [TS_W-1:0]      d_exp, d_reval, d_retry;
    reg  [EW-1:0]        e;
    integer v;
    always @* begin
        for (v = 0; v < WAYS; v = v + 1) begin
            e = rd_all[v*EW +: EW];
            w_mac[48*v +: 48]     = e[47:0];
            w_ip[32*v +: 32]      = e[79:48];
            w_ts[TS_W*v +: TS_W]  = e[80 +: TS_W];
            w_rt[RW*v +: RW]      = e[80+TS_W +: RW];
            w_st[2*v +: 2]        = e[EW-2 +: 2];
            w_age[TS_W*v +: TS_W] = now - e[80 +: TS_W];
            w_live[v]             = e[EW-1];  // ST_VAL and ST_PRB are 2'b1x
            d_exp                 = now_exp - e[80 +: TS_W];
            d_reval               = now_reval - e[80 +: TS_W];
            d_retry               = now_retry - e[80 +: TS_W];
            w_old_exp[v]          = !d_exp[TS_W-1];
            w_old_reval[v]        = !d_reval[TS_W-1];
            w_old_retry[v]        = !d_retry[TS_W-1];
        end
    end

    integer w;

    // EXEC1: per-way flags, registered
    wire [31:0]      key = (op == OP_LK) ? lk_nh : ev_spa;
    reg  [WAYS-1:0]  c_match, c_free, c_fresh, c_exp, c_reval, c_due, c_inc;
    reg              c_m_any, c_f_any;
    reg  [WAY_W-1:0] c_m_way, c_f_way;
    always @* begin
        c_m_any = 1'b0; c_m_way = {WAY_W{1'b0}};
        c_f_any = 1'b0; c_f_way = {WAY_W{1'b0}};
        for (w = 0; w < WAYS; w = w + 1) begin
            c_match[w] = (w_st[2*w +: 2] != ST_FREE) && (w_ip[32*w +: 32] == key);
            c_free[w]  = (w_st[2*w +: 2] == ST_FREE);
            c_inc[w]   = (w_st[2*w +: 2] == ST_INC);
            c_fresh[w] = w_live[w] && !w_old_exp[w];
            c_exp[w]   = w_live[w] && w_old_exp[w];
            c_reval[w] = (w_st[2*w +: 2] == ST_VAL) && w_old_reval[w];
            c_due[w]   = c_inc[w] && w_old_retry[w];
            if (!c_m_any && c_match[w]) begin
                c_m_any = 1'b1; c_m_way = w[WAY_W-1:0];
            end
            if (!c_f_any && c_free[w]) begin
                c_f_any = 1'b1; c_f_way = w[WAY_W-1:0];
            end
        end
    end

    // EXEC1 -> EXEC2: summary of the set, registered
    reg              m_any;    // a way holds the key
    reg  [WAY_W-1:0] m_way;
    reg              m_fresh;  // ... and is VALID/PROBED, younger than EXPIRE_MS
    reg              m_inc;    // ... and is INCOMPLETE
    reg              m_reval;  // ... and is VALID, old enough to re-validate
    reg              f_any;    // a way is free
    reg  [WAY_W-1:0] f_way;
    reg              s_exp;    // the background pass's entry has expired
    reg              s_due;    // the background pass's entry is due a request
    reg              s_last;   // ... and has no retry left
    reg              req_free; // the request slot is free
    reg  [TS_W*WAYS-1:0] age_r;
    always @(posedge clk) begin
        if (state == S_EXEC1) begin
            m_any    <= c_m_any;
            m_way    <= c_m_way;
            m_fresh  <= |(c_match & c_fresh);
            m_inc    <= |(c_match & c_inc);
            m_reval  <= |(c_match & c_reval);
            f_any    <= c_f_any;
            f_way    <= c_f_way;
            s_exp    <= c_exp[sw_way];
            s_due    <= c_due[sw_way];
            s_last   <= (w_rt[RW*sw_way +: RW] == {RW{1'b0}});
            req_free <= !req_pend;
            age_r    <= w_age;
        end
    end

    // EXEC2: least recently refreshed way
    reg  [WAY_W-1:0] o_way;
    reg  [TS_W-1:0]  o_age;
    always @* begin
        o_way = {WAY_W{1'b0}}; o_age = age_r[0 +: TS_W];
        for (w = 1; w < WAYS; w = w + 1) begin
            if (age_r[TS_W*w +: TS_W] > o_age) begin
                o_age = age_r[TS_W*w +: TS_W]; o_way = w[WAY_W-1:0];
            end
        end
    end

    wire [WAY_W-1:0] v_way = f_any ? f_way : o_way;          // victim
    wire [WAY_W-1:0] t_way = m_any ? m_way : v_way;          // target of a write
    wire [47:0]      m_mac = w_mac[48*m_way +: 48];
    wire [TS_W-1:0]  m_ts  = w_ts[TS_W*m_way +: TS_W];
    wire [RW-1:0]    m_rt  = w_rt[RW*m_way +: RW];
    wire             v_used  = !f_any;
    wire [31:0]      s_ip  = w_ip[32*sw_way +: 32];
    wire [47:0]      s_mac = w_mac[48*sw_way +: 48];
    wire [RW-1:0]    s_rt  = w_rt[RW*sw_way +: RW];

    // receive-event flags, registered in EXEC1
    reg rx_learn;   // sender IP may be learnt (not 0.0.0.0, not ours)
    reg rx_for_us;  // target IP is ours
    reg rx_confl;   // sender IP is ours: another station claims our address
    always @(posedge clk) begin
        if (state == S_EXEC1) begin
            rx_learn  <= (ev_spa != 32'd0) && (ev_spa != cfg_ip);
            rx_for_us <= (cfg_ip != 32'd0) && (ev_tpa == cfg_ip);
            rx_confl  <= (cfg_ip != 32'd0) && (ev_spa == cfg_ip);
        end
    end

    // ------------------------------------------------------------------ EXEC decisions
    // Only the written entry's state depends on the decision; its other fields, the
    // request's and the answer's data are chosen by the operation alone, so the wide
    // data paths stay shallow.
    reg         x_resp, x_hit;
    reg         x_req;
    reg         x_reply;
    reg         x_again;
    reg  [1:0]  x_st;
    reg         i_hit, i_miss, i_exp, i_tmo, i_evict, i_reqrx, i_reprx, i_confl;

    always @* begin
        wr_en = 1'b0; wr_way = t_way; x_st = ST_FREE;
        x_resp = 1'b0; x_hit = 1'b0;
        x_req = 1'b0; x_reply = 1'b0; x_again = 1'b0;
        i_hit = 1'b0; i_miss = 1'b0; i_exp = 1'b0; i_tmo = 1'b0; i_evict = 1'b0;
        i_reqrx = 1'b0; i_reprx = 1'b0; i_confl = 1'b0;
        if (state == S_EXEC2) begin
            case (op)
                OP_LK: begin
                    x_resp = 1'b1;
                    if (lk_bcast || lk_mcast) begin
                        x_hit = 1'b1;
                    end else if (lk_noroute) begin
                        x_hit = 1'b0;
                    end else if (m_fresh) begin
                        x_hit = 1'b1;
                        if (m_reval && req_free) begin
                            // re-validate: one unicast request to the known MAC
                            x_req = 1'b1;
                            wr_en = 1'b1; wr_way = m_way; x_st = ST_PRB;
                        end
                    end else if (m_inc) begin
                        x_hit = 1'b0;  // already being resolved
                    end else begin
                        // not cached (or expired): new INCOMPLETE entry and a request
                        wr_en = 1'b1; wr_way = t_way; x_st = ST_INC;
                        if (m_any) i_exp = 1'b1;
                        else if (v_used) i_evict = 1'b1;
                        if (req_free) x_req = 1'b1;
                        else x_again = 1'b1;  // due at once: the background pass sends it
                    end
                    i_hit = x_hit; i_miss = !x_hit;
                end
                OP_RX: begin
                    if (rx_learn && (m_any || rx_for_us)) begin
                        wr_en = 1'b1; wr_way = t_way; x_st = ST_VAL;
                        if (!m_any && v_used) i_evict = 1'b1;
                    end
                    i_confl = rx_confl;
                    if (!ev_reply && rx_for_us && !i_confl) begin
                        x_reply = 1'b1; i_reqrx = 1'b1;
                    end
                    if (ev_reply) i_reprx = 1'b1;
                end
                default: begin  // OP_SW: background pass, one entry
                    wr_way = sw_way;
                    if (s_exp) begin
                        wr_en = 1'b1; i_exp = 1'b1;  // freed
                    end else if (s_due) begin
                        if (s_last) begin
                            wr_en = 1'b1; i_tmo = 1'b1;  // freed
                        end else if (req_free) begin
                            x_req = 1'b1;
                            wr_en = 1'b1; x_st = ST_INC;
                        end else begin
                            x_again = 1'b1;
                        end
                    end
                end
            endcase
        end
    end

    // written entry fields other than the state
    reg  [RW-1:0]   d_rt;
    reg  [TS_W-1:0] d_ts;
    reg  [31:0]     d_ip;
    reg  [47:0]     d_mac;
    always @* begin
        case (op)
            OP_LK: begin  // re-validation keeps the entry; a new one is INCOMPLETE
                d_ip  = lk_nh;
                d_mac = m_mac;
                d_rt  = m_fresh ? m_rt : req_free ? RETRY_N : RETRY_N1;
                d_ts  = m_fresh ? m_ts : req_free ? now : now_retry;
            end
            OP_RX: begin
                d_ip  = ev_spa;
                d_mac = ev_sha;
                d_rt  = {RW{1'b0}};
                d_ts  = now;
            end
            default: begin  // retry of an INCOMPLETE entry
                d_ip  = s_ip;
                d_mac = s_mac;
                d_rt  = s_rt - 1'b1;
                d_ts  = now;
            end
        endcase
        wr_data = {x_st, d_rt, d_ts, d_ip, d_mac};
    end

    // request and answer data
    wire [31:0] x_req_ip  = (op == OP_LK) ? lk_nh : s_ip;
    wire [47:0] x_req_dst = (op == OP_LK && m_fresh) ? m_mac : BCAST;
    wire [47:0] x_mac     = !x_hit ? 48'd0 : lk_bcast ? BCAST : lk_mcast ? lk_mcast_mac : m_mac;

    // counter strobes, registered
    reg         k_hit, k_miss, k_exp, k_tmo, k_evict, k_reqrx, k_reprx, k_confl;
    always @(posedge clk) begin
        k_hit <= i_hit; k_miss <= i_miss; k_exp <= i_exp; k_tmo <= i_tmo;
        k_evict <= i_evict; k_reqrx <= i_reqrx; k_reprx <= i_reprx; k_confl <= i_confl;
    end

    // ------------------------------------------------------------------ sequential
    always @(posedge clk) begin
        if (rst) begin
            state <= S_INIT; op <= OP_SW;
            cur_set <= {SET_W{1'b0}}; init_set <= {SET_W{1'b0}};
            sw_set <= {SET_W{1'b0}}; sw_way <= {WAY_W{1'b0}};
            sw_left <= {SWL_W{1'b0}}; sw_again <= 1'b0;
            now <= {TS_W{1'b0}};
            lk_pend <= 1'b0;
            memo_valid <= 1'b0;
            arp_resp_valid <= 1'b0; arp_resp_hit <= 1'b0;
            reply_pend <= 1'b0; req_pend <= 1'b0;
            garp_pend <= 1'b1; garp_hold <= HOLD_N;
            prev_mac <= cfg_mac; prev_ip <= cfg_ip; cfg_chg <= 1'b0;
            gw_bad <= 1'b1;
            tx_kind <= 2'd0;
            cnt_req_rx <= 32'd0; cnt_reply_tx <= 32'd0; cnt_req_tx <= 32'd0;
            cnt_garp_tx <= 32'd0; cnt_reply_rx <= 32'd0; cnt_hit <= 32'd0;
            cnt_miss <= 32'd0; cnt_timeout <= 32'd0; cnt_expired <= 32'd0;
            cnt_evicted <= 32'd0; cnt_conflict <= 32'd0;
        end else begin
            arp_resp_valid <= 1'b0;

            if (tick_1ms) now <= now + 1'b1;

            // lookup request
            if (lk_take && !memo_hit) begin
                lk_pend <= 1'b1;
                lk_ip <= arp_req_ip;
                lk_nh <= q_nh;
                lk_bcast <= q_bcast;
                lk_mcast <= arp_req_ip[31:28] == 4'he;
                lk_noroute <= q_noroute;
                lk_set <= q_local ? set_of(arp_req_ip) : set_of(cfg_gateway);
            end

            // background pass: every entry once per millisecond, and again when an
            // entry was due while the request slot was busy
            if (tick_1ms || (sw_again && !req_pend && sw_left == {SWL_W{1'b0}})) begin
                sw_left <= ENTRIES_I[SWL_W-1:0];
                sw_again <= 1'b0;
            end

            // cache FSM
            case (state)
                S_INIT: begin
                    init_set <= init_set + 1'b1;
                    if (init_set == SETS_M1[SET_W-1:0]) state <= S_IDLE;
                end
                S_IDLE: begin
                    if (op_any) begin
                        state <= S_EXEC1;
                        op <= op_sel;
                        cur_set <= rd_set;
                    end
                end
                S_EXEC1: state <= S_EXEC2;
                S_WRITE: state <= S_IDLE;
                default: begin  // S_EXEC2
                    state <= wr_en ? S_WRITE : S_IDLE;
                    case (op)
                        OP_LK: lk_pend <= 1'b0;
                        OP_SW: begin
                            if (sw_left != {SWL_W{1'b0}} && !tick_1ms) sw_left <= sw_left - 1'b1;
                            if (sw_way == WAYS_M1[WAY_W-1:0]) begin
                                sw_way <= {WAY_W{1'b0}};
                                sw_set <= (sw_set == SETS_M1[SET_W-1:0]) ?
                                          {SET_W{1'b0}} : sw_set + 1'b1;
                            end else begin
                                sw_way <= sw_way + 1'b1;
                            end
                        end
                        default: ;  // OP_RX: the receive slot is released by ev_ready
                    endcase
                end
            endcase
            if (x_again) sw_again <= 1'b1;

            // lookup response
            if (x_resp) begin
                arp_resp_valid <= 1'b1;
                arp_resp_hit <= x_hit;
                arp_resp_mac <= x_mac;
            end
            if (memo_hit) begin
                arp_resp_valid <= 1'b1;  // arp_resp_hit and arp_resp_mac are unchanged
            end
            if (x_resp) memo_valid <= x_hit;
            // (mem_we: the cache write registered in EXEC2, done in WRITE)
            if ((lk_take && !memo_hit) || mem_we || init_wr || tick_1ms || cfg_chg)
                memo_valid <= 1'b0;

            // transmit slots
            if (tx_go) begin
                if (tx_sel_reply) begin
                    reply_pend <= 1'b0; tx_kind <= 2'd0;
                end else if (tx_sel_garp) begin
                    garp_pend <= 1'b0; tx_kind <= 2'd1;
                end else begin
                    req_pend <= 1'b0; tx_kind <= 2'd2;
                end
            end
            // slot data is loaded whenever the slot is free; the decision only sets *_pend
            if (state == S_EXEC2 && !reply_pend) begin
                reply_dst <= ev_sha; reply_tpa <= ev_spa;
            end
            if (x_reply) reply_pend <= 1'b1;
            if (state == S_EXEC2 && !req_pend) begin
                req_dst <= x_req_dst; req_tpa <= x_req_ip;
            end
            if (x_req) req_pend <= 1'b1;
            if (tx_done) begin
                case (tx_kind)
                    2'd0: cnt_reply_tx <= cnt_reply_tx + 32'd1;
                    2'd1: cnt_garp_tx <= cnt_garp_tx + 32'd1;
                    default: cnt_req_tx <= cnt_req_tx + 32'd1;
                endcase
            end

            // gratuitous ARP after reset and on address change, once stable
            prev_mac <= cfg_mac;
            prev_ip <= cfg_ip;
            cfg_chg <= (cfg_mac != prev_mac) || (cfg_ip != prev_ip);
            gw_bad <= (cfg_gateway == 32'd0) || (cfg_gateway == cfg_ip);
            if (cfg_chg) begin
                garp_pend <= 1'b1; garp_hold <= HOLD_N;
            end else if (tick_1ms && garp_hold != {HOLD_W{1'b0}}) begin
                garp_hold <= garp_hold - 1'b1;
            end

            // another station claims our address: defend it with an announcement
            if (i_confl) garp_pend <= 1'b1;

            // counters
            if (k_hit || memo_hit) cnt_hit <= cnt_hit + 32'd1;
            if (k_miss) cnt_miss <= cnt_miss + 32'd1;
            if (k_exp) cnt_expired <= cnt_expired + 32'd1;
            if (k_tmo) cnt_timeout <= cnt_timeout + 32'd1;
            if (k_evict) cnt_evicted <= cnt_evicted + 32'd1;
            if (k_reqrx) cnt_req_rx <= cnt_req_rx + 32'd1;
            if (k_reprx) cnt_reply_rx <= cnt_reply_rx + 32'd1;
            if (k_confl) cnt_conflict <= cnt_conflict + 32'd1;
        end
    end

endmodule

`default_nettype wire
