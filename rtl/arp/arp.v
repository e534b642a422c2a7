`default_nettype none
// arp: ARP responder, requester and cache with timeouts (DATA_W 8 or 64).
//
// Receives whole Ethernet frames of EtherType 0x0806 (s_axis_*) and sends whole ARP
// frames (m_axis_*, 42 bytes, no FCS; the MAC pads to 60). Answers the stack's
// next-hop lookups (arp_req_* / arp_resp_*) from a set-associative cache held in RAM,
// which one sequential engine reads one entry per cycle.
//
// Receive (RFC 826 with the merge rule):
//   * well-formed frames only (see arp_rx: bad ones are dropped and counted);
//   * if the sender IP (SPA) is in the cache, its entry is refreshed with the sender
//     MAC (whatever the target: this also follows peers' gratuitous ARP);
//   * if the target IP (TPA) is ours, the sender is added if it was not cached, and a
//     request (broadcast or unicast) is answered with a reply sent to the sender;
//   * SPA 0.0.0.0 (address probes) and SPA == cfg_ip are never learnt; a probe for
//     our IP is answered (sent to the prober, TPA 0.0.0.0). A frame from another
//     station with SPA == cfg_ip is counted (conflict), not answered, and our
//     address is defended with one gratuitous ARP (RFC 5227 2.4 b).
// Lookup (arp_req_ip is a destination IP; the next hop is chosen here):
//   * 255.255.255.255 and the subnet broadcast (for masks of /30 or shorter) resolve
//     to ff:ff:ff:ff:ff:ff, IPv4 multicast 224.0.0.0/4 to 01:00:5e + the low 23 bits:
//     hit;
//   * same subnet as cfg_ip (under cfg_netmask): next hop is the IP itself, otherwise
//     cfg_gateway; a next hop of 0.0.0.0 or cfg_ip, or cfg_ip 0.0.0.0, is a miss and
//     sends nothing;
//   * a fresh cache entry answers hit with its MAC;
//   * anything else answers miss at once (the caller drops its frame) and, if the IP
//     is not already pending, allocates an INCOMPLETE entry with a broadcast request
//     due; it is retried RETRIES times every RETRY_MS ms, then the entry is freed and
//     counted (timeout);
//   * an entry lives EXPIRE_MS ms after it was last refreshed (counted: expired). A hit on
//     an entry older than REVALIDATE_MS sends one unicast request to the known MAC, so
//     a live peer's reply refreshes it before it expires and traffic never stops.
//
// How it works (docs/arp.md has the whole story):
//   Cache. ENTRIES entries in SETS = ENTRIES/WAYS sets of WAYS ways, in three memories
//     at address set * WAYS + way: status_mem {state, retries, stamp}, ip_mem and
//     mac_mem. The set of an IP is the low log2(SETS) bits of the XOR of its four bytes.
//     Entry states: free, INCOMPLETE (request due or sent, waiting for the reply), VALID,
//     PROBED (VALID with a re-validation request due or sent). stamp is the time
//     (now_reg, in ms) the entry was last refreshed or its last request sent.
//   Engine (state_reg). One operation at a time, chosen in STATE_IDLE: a waiting lookup,
//     else a received frame (the event slot), else a step of the background pass.
//     A lookup or a received frame scans the ways of its set (STATE_SCAN, one way per
//     cycle, key_reg the IP searched for) through a two-stage pipeline: the RAM read
//     (rd_*_reg), then the way's flags (way_*_reg: key match, age compares), then the
//     scan results (match_*_reg: the way holding the key; free_*_reg: the first free
//     way; oldest_*_reg: the least recently refreshed way). STATE_DECIDE then decides
//     (the dec_* signals): answer the lookup, learn the sender, allocate an INCOMPLETE
//     entry (replacing a free way first, else the oldest one) or mark a VALID one
//     PROBED. The decision's write is registered (wr_*_reg): it happens the cycle after
//     the decision, and the engine starts nothing in that cycle, so the next operation
//     reads what was written.
//   Background pass. Every tick_1ms, and again when a due request found the
//     transmitter busy, every entry is read once (STATE_PASS_READ, _CHECK, _DECIDE):
//     expired entries are freed, due requests (first request, retries, re-validation)
//     are sent when the transmitter is idle, and INCOMPLETE entries with no retry left
//     are freed (timeout). A lookup's allocation restarts the pass at its entry, so its
//     request goes out at once.
//   Repeated lookup. The last hit is remembered (lookup_ip_reg, the answer registers)
//     and a lookup of the same IP is answered again without the cache, until the cache
//     or the configuration changes or the entry becomes old enough to re-validate (see
//     last_hit_valid_reg): the millisecond tick alone does not forget it, so a steady
//     stream to one destination sees one latency.
//   Gratuitous ARP: one broadcast request with SPA = TPA = cfg_ip is sent after reset
//     and after any change of cfg_ip or cfg_mac, once they have been stable for
//     GARP_HOLD_MS ms (so a MAC written as two registers announces once); not sent
//     while cfg_ip is 0.0.0.0.
//   Transmit priority: reply, then gratuitous ARP, then request. A reply is sent from
//     the receive event slot (which stays full until the transmitter has taken it); a
//     request is started by the background pass only when the transmitter is idle.
//
// Interfaces:
//   s_axis_*   ARP frames in (tready always 1), tuser on the last beat = bad frame
//   m_axis_*   ARP frames out (whole Ethernet frames, no FCS)
//   arp_req_valid/ready, arp_req_ip[31:0]: lookup request (ready = no lookup in flight)
//   arp_resp_valid (one-cycle strobe), arp_resp_hit, arp_resp_mac[47:0]
//   cfg_mac, cfg_ip, cfg_netmask, cfg_gateway: configuration (values, not wire order;
//              cfg_ip, cfg_gateway and cfg_answer are registered as they enter: a change
//              of one of them reaches everything one cycle later than one of cfg_mac or
//              cfg_netmask; a change of cfg_mac or cfg_ip is detected, restarting the
//              gratuitous ARP's hold and forgetting the repeated lookup, two cycles
//              after it; a change of cfg_netmask or cfg_gateway forgets the repeated
//              lookup, two cycles after it)
//   cfg_answer: 1 answers requests for cfg_ip; 0 leaves them unanswered (counted,
//              req_refused), the cache learning from them as from any request
//   tick_1ms: one-cycle strobe every millisecond
//   cnt_ev[13:0]: event strobes, one cycle each, for counters kept in stat_counters:
//     bit 0 req_rx      requests for our IP received
//     bit 1 reply_tx    replies sent
//     bit 2 req_tx      requests sent (first, retries, re-validation)
//     bit 3 garp_tx     gratuitous ARP sent
//     bit 4 reply_rx    well-formed replies received
//     bit 5 malformed   malformed frames dropped (arp_rx)
//     bit 6 rx_overrun  frames dropped: receive slot busy (arp_rx)
//     bit 7 hit         lookups answered hit
//     bit 8 miss        lookups answered miss
//     bit 9 timeout     requests that got no reply after all retries
//     bit 10 expired    valid entries that expired
//     bit 11 evicted    entries replaced while in use
//     bit 12 conflict   frames from another station claiming cfg_ip
//     bit 13 req_refused  requests for our IP not answered: cfg_answer is 0
// Latency: arp_resp_valid REPEAT_LAT cycles (1 or 2) after the request handshake when
//   the IP is the one of the last hit and nothing has changed since (no entry learnt,
//   the entry younger than REVALIDATE_MS, no change of cfg_ip, cfg_mac, cfg_netmask or
//   cfg_gateway; with REPEAT_LAT 2 the compare is registered and arp_req_ready is low
//   for the one cycle in between);
//   otherwise WAYS + 4 cycles on an idle cache (the request registered, the set's first
//   read issued the next cycle, one way per cycle through the two-stage pipeline,
//   decision registered), at most 2 * WAYS + 7 if the cache had just started another
//   operation (a received frame: WAYS + 3 cycles, one more when it writes the cache; a
//   background step: 4, one more when it writes); more only right after reset while
//   the cache is cleared (ENTRIES cycles). A reply's first beat is on m_axis 3 cycles
//   after the request's last beat when the output is free; a request's, 5 cycles after
//   the miss answer (the entry's write, then a background step at it) when the cache
//   and output are idle.
// Parameters (the values in brackets are the ones the tests and syn/ tops use):
//   DATA_W        8 or 64; KEEP_W = DATA_W / 8
//   ENTRIES       4 or 16 cache entries
//   WAYS          2 or 4 ways per set, at most 4 sets (ENTRIES/WAYS 1, 2 or 4): the
//                 tested caches are 4 entries of 2 or 4 ways and 16 entries of 4 ways
//   RETRIES       >= 1 retransmissions after the first request [2, 3]
//   RETRY_MS      >= 1 [3, 4, 1000]
//   EXPIRE_MS     > REVALIDATE_MS [30, 40, 60000]
//   REVALIDATE_MS >= 1 [20, 30, 45000]
//   GARP_HOLD_MS  >= 1 [2]
//   REPEAT_LAT    1: a repeated lookup is compared in its handshake cycle and answered
//                 the next; 2: the compare is registered first, which keeps the 32-bit
//                 compare off the handshake's paths (the 8-bit stack) [1, 2]

module arp #(
    parameter DATA_W        = 8,
    parameter KEEP_W        = DATA_W / 8,
    parameter ENTRIES       = 16,
    parameter WAYS          = 4,
    parameter RETRIES       = 3,
    parameter RETRY_MS      = 1000,
    parameter EXPIRE_MS     = 60000,
    parameter REVALIDATE_MS = EXPIRE_MS - EXPIRE_MS / 4,
    parameter GARP_HOLD_MS  = 2,
    parameter integer REPEAT_LAT = 1
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,

    input  wire [47:0]       cfg_mac,
    input  wire [31:0]       cfg_ip,
    input  wire [31:0]       cfg_netmask,
    input  wire [31:0]       cfg_gateway,
    input  wire              cfg_answer,  // 1: answer requests for cfg_ip (NET.ENABLES.ARP)

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
    output wire              arp_resp_valid,
    output wire              arp_resp_hit,
    output wire [47:0]       arp_resp_mac,

    output wire [13:0]       cnt_ev  // event strobes (bits listed above)
);

    // ------------------------------------------------------------------ parameter checks
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            arp_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            arp_KEEP_W_must_be_DATA_W_div_8 u_error ();  // unsupported parameter
        end
        if (ENTRIES != 4 && ENTRIES != 16) begin : g_check_entries
            arp_ENTRIES_must_be_4_or_16 u_error ();  // unsupported parameter
        end
        if (WAYS != 2 && WAYS != 4) begin : g_check_ways
            arp_WAYS_must_be_2_or_4 u_error ();  // unsupported parameter
        end
        if (WAYS > ENTRIES || ENTRIES / WAYS > 4) begin : g_check_sets
            arp_WAYS_must_give_1_to_4_sets u_error ();  // unsupported parameter
        end
        if (RETRIES < 1) begin : g_check_retries
            arp_RETRIES_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (RETRY_MS < 1) begin : g_check_retry_ms
            arp_RETRY_MS_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (REVALIDATE_MS < 1) begin : g_check_revalidate_ms
            arp_REVALIDATE_MS_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (EXPIRE_MS <= REVALIDATE_MS) begin : g_check_expire_ms
            arp_EXPIRE_MS_must_exceed_REVALIDATE_MS u_error ();  // unsupported parameter
        end
        if (GARP_HOLD_MS < 1) begin : g_check_garp_hold_ms
            arp_GARP_HOLD_MS_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (REPEAT_LAT != 1 && REPEAT_LAT != 2) begin : g_check_repeat_lat
            arp_REPEAT_LAT_must_be_1_or_2 u_error ();  // unsupported parameter
        end
    endgenerate

    // ------------------------------------------------------------------ sizes
    localparam SETS   = ENTRIES / WAYS;
    localparam SET_W  = (SETS > 1) ? $clog2(SETS) : 1;
    localparam WAY_W  = $clog2(WAYS);
    localparam AW     = $clog2(ENTRIES);       // cache address: set * WAYS + way
    localparam MAXT   = (EXPIRE_MS > RETRY_MS) ? EXPIRE_MS : RETRY_MS;
    // time stamps (ms, wrapping): the ages read stay well below 2^(TS_W-1) (entries are
    // expired, retried or freed within about a millisecond of their last deadline)
    localparam TS_W   = $clog2(MAXT + 1) + 2;
    localparam RT_W   = $clog2(RETRIES + 2);   // retries field: 0 .. RETRIES + 1
    localparam STAT_W = 2 + RT_W + TS_W;       // status word {state, retries, stamp}
    localparam HOLD_W = $clog2(GARP_HOLD_MS + 1);
    localparam LEFT_W = $clog2(ENTRIES + 1);

    localparam [TS_W-1:0]   RETRY_T  = RETRY_MS[TS_W-1:0];
    localparam [TS_W-1:0]   EXPIRE_T = EXPIRE_MS[TS_W-1:0];
    localparam [TS_W-1:0]   REVAL_T  = REVALIDATE_MS[TS_W-1:0];
    localparam integer      RETRIES_PLUS_1 = RETRIES + 1;
    // retries field of an entry whose first request is due and not yet sent
    localparam [RT_W-1:0]   RT_UNSENT = RETRIES_PLUS_1[RT_W-1:0];
    localparam [HOLD_W-1:0] HOLD_N    = GARP_HOLD_MS[HOLD_W-1:0];
    localparam integer      LAST_WAY  = WAYS - 1;
    localparam integer      LAST_ENTRY = ENTRIES - 1;
    localparam integer      ENTRIES_I = ENTRIES;

    // entry states
    localparam [1:0] ENT_FREE = 2'd0, ENT_INCOMPLETE = 2'd1, ENT_VALID = 2'd2,
                     ENT_PROBED = 2'd3;

    // engine states and operations
    localparam [2:0] STATE_INIT        = 3'd0,  // clearing the cache after reset
                     STATE_IDLE        = 3'd1,  // choosing the next operation
                     STATE_SCAN        = 3'd2,  // reading the ways of a set
                     STATE_SCAN_END    = 3'd3,  // the last way in the pipeline
                     STATE_DECIDE      = 3'd4,  // a lookup's or a received frame's decision
                     STATE_PASS_READ   = 3'd5,  // background pass: the entry read
                     STATE_PASS_CHECK  = 3'd6,  // ... its flags
                     STATE_PASS_DECIDE = 3'd7;  // ... its decision
    localparam [1:0] OP_LOOKUP = 2'd0, OP_RX = 2'd1, OP_PASS = 2'd2;

    // Set index: low bits of the XOR of the four bytes.
    /* verilator lint_off UNUSEDSIGNAL */
    function [SET_W-1:0] set_of(input [31:0] ip);
        reg [7:0] f;
        begin
            f = ip[7:0] ^ ip[15:8] ^ ip[23:16] ^ ip[31:24];
            set_of = (SETS > 1) ? f[SET_W-1:0] : {SET_W{1'b0}};
        end
    endfunction

    function [AW-1:0] addr_of(input [SET_W-1:0] set, input [WAY_W-1:0] way);
        reg [31:0] a;
        begin
            a = {{(32-SET_W){1'b0}}, set} * WAYS + {{(32-WAY_W){1'b0}}, way};
            addr_of = a[AW-1:0];
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // ------------------------------------------------------------------ configuration
    // cfg_ip, cfg_gateway and cfg_answer are registered as they enter
    reg  [31:0] cfg_ip_reg;
    reg  [31:0] cfg_gateway_reg;
    reg         cfg_answer_reg;
    reg         cfg_ip_set_reg;  // cfg_ip_reg is not 0.0.0.0
    wire        cfg_ip_set_next = (cfg_ip_reg != 32'd0);
    // cfg_mac or cfg_ip changed: per-byte compares with the values of the cycle before,
    // registered (cfg_byte_changed_reg), then their OR (cfg_changed_reg): high two
    // cycles after a change at the ports. cfg_netmask or cfg_gateway changed (a lookup's
    // next hop may differ): the same, route_byte_changed_reg and route_changed_reg.
    reg  [47:0] cfg_mac_prev_reg;
    reg  [31:0] cfg_netmask_prev_reg;
    reg  [9:0]  cfg_byte_changed_reg;
    reg         cfg_changed_reg;
    reg  [7:0]  route_byte_changed_reg;
    reg         route_changed_reg;
    integer     i;
    always @(posedge clk) begin
        cfg_ip_reg <= cfg_ip;
        cfg_gateway_reg <= cfg_gateway;
        cfg_answer_reg <= cfg_answer;
        cfg_mac_prev_reg <= cfg_mac;
        cfg_netmask_prev_reg <= cfg_netmask;
        if (rst) begin
            cfg_ip_set_reg <= 1'b0;
            cfg_byte_changed_reg <= 10'd0;
            cfg_changed_reg <= 1'b0;
            route_byte_changed_reg <= 8'd0;
            route_changed_reg <= 1'b0;
        end else begin
            cfg_ip_set_reg <= cfg_ip_set_next;
            for (i = 0; i < 6; i = i + 1)
                cfg_byte_changed_reg[i] <= (cfg_mac[8*i +: 8] != cfg_mac_prev_reg[8*i +: 8]);
            for (i = 0; i < 4; i = i + 1)
                cfg_byte_changed_reg[6 + i] <= (cfg_ip[8*i +: 8] != cfg_ip_reg[8*i +: 8]);
            cfg_changed_reg <= |cfg_byte_changed_reg;
            for (i = 0; i < 4; i = i + 1) begin
                route_byte_changed_reg[i] <=
                    (cfg_netmask[8*i +: 8] != cfg_netmask_prev_reg[8*i +: 8]);
                route_byte_changed_reg[4 + i] <=
                    (cfg_gateway[8*i +: 8] != cfg_gateway_reg[8*i +: 8]);
            end
            route_changed_reg <= |route_byte_changed_reg;
        end
    end

    // ------------------------------------------------------------------ receive
    // The event slot of arp_rx: one well-formed frame, held until ev_ready. Its fields
    // are meaningful only while ev_valid is high; every use below is gated by it.
    wire        ev_valid;
    wire        ev_reply;     // a reply (else a request)
    wire [47:0] ev_sha;
    wire [31:0] ev_spa;
    wire        ev_spa_ours;  // SPA == cfg_ip
    wire        ev_tpa_ours;  // TPA == cfg_ip
    reg         ev_done_reg;  // the engine has processed the event
    reg         ev_sent_reg;  // its reply has been handed to the transmitter
    wire        ev_for_us  = ev_tpa_ours && cfg_ip_set_reg;
    wire        ev_conflict = ev_spa_ours && cfg_ip_set_reg;  // another station uses our IP
    // a request for us from another station (answered when cfg_answer is 1)
    wire        ev_request = !ev_reply && ev_for_us && !ev_conflict;
    wire        ev_answer  = ev_request && cfg_answer_reg;
    // the transmitter should send the event's reply now
    wire        reply_want = ev_valid && ev_answer && !ev_sent_reg;
    // the slot is released once processed and, if it is answered, its reply sent
    // (the logic uses its copy ev_ready_dup_reg; the unit test compares them)
    /* verilator lint_off UNUSEDSIGNAL */
    wire        ev_ready   = ev_valid && ev_done_reg && (ev_sent_reg || !ev_answer);
    /* verilator lint_on UNUSEDSIGNAL */
    // ev_ready_dup_reg: ev_ready as a register, loaded with its next value. It drives the
    // release (arp_rx's capture and slot enables): timing, the release's logic is
    // several LUTs deep. The unit test checks every cycle that it equals ev_ready.
    reg         ev_ready_dup_reg;
    reg         ev_done_next, ev_sent_next;
    always @* begin
        ev_done_next = ev_done_reg;
        ev_sent_next = ev_sent_reg;
        if (ev_ready_dup_reg) begin
            ev_done_next = 1'b0;
            ev_sent_next = 1'b0;
        end else begin
            if (state_reg == STATE_DECIDE && op_reg == OP_RX) ev_done_next = 1'b1;
            if (reply_want && tx_free) ev_sent_next = 1'b1;
        end
    end
    // (while ev_done_next the slot is not released, so it holds the same event next
    // cycle, and cfg_ip_set_reg and cfg_answer_reg take their next values)
    wire        ev_answer_next = !ev_reply && ev_tpa_ours && !ev_spa_ours && cfg_ip_set_next &&
                                 cfg_answer;
    always @(posedge clk) begin
        if (rst) ev_ready_dup_reg <= 1'b0;
        else ev_ready_dup_reg <= ev_done_next && (ev_sent_next || !ev_answer_next);
    end

    arp_rx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_rx (
        .clk(clk), .rst(rst), .cfg_ip(cfg_ip_reg),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .ev_valid(ev_valid), .ev_ready(ev_ready_dup_reg), .ev_reply(ev_reply),
        .ev_sha(ev_sha), .ev_spa(ev_spa), .ev_spa_ours(ev_spa_ours),
        .ev_tpa_ours(ev_tpa_ours),
        .cnt_ev(cnt_ev[6:5])
    );

    // ------------------------------------------------------------------ engine state
    reg  [2:0]       state_reg, state_next;
    reg  [1:0]       op_reg;          // the operation in progress
    reg  [WAY_W-1:0] way_reg;         // STATE_SCAN: way being read (its data next cycle)
    reg  [SET_W-1:0] set_reg;         // the set being scanned
    reg  [AW-1:0]    init_addr_reg;   // STATE_INIT: entry being cleared
    reg  [31:0]      key_reg;         // the IP the scan looks for
    reg              key_bad_reg;     // key_bad registered
    // the key is 0.0.0.0 or our address: for a lookup, no next hop (no gateway, our own
    // address); for a received frame, a sender that is not learnt (an address probe, or
    // another station using our address)
    wire             key_bad = (key_reg == 32'd0) || (key_reg == cfg_ip_reg);
    // the decision's write, registered (below)
    reg              wr_status_reg;   // write {state, retries} (and the stamp: wr_stamp)
    reg              wr_entry_reg;    // ... and the stamp, the IP (key_reg) and the MAC
    reg  [AW-1:0]    wr_addr_reg;
    reg  [1:0]       wr_state_reg;

    // ------------------------------------------------------------------ lookup input
    reg         lookup_pending_reg;  // a lookup was taken and waits for its answer
    reg  [31:0] lookup_ip_reg;       // its IP (the last lookup's)
    reg         lookup_local_reg;    // ... is on our subnet (decided as it is taken)
    reg         lookup_special_reg;  // ... is broadcast or multicast: answered without
                                     // the cache (registered the cycle after)
    reg         lookup_seen_reg;     // a lookup has been taken since reset
    reg         last_hit_valid_reg;  // lookup_ip_reg and the answer registers hold a hit
    reg         resp_valid_reg, resp_hit_reg;
    reg  [47:0] resp_mac_reg;
    assign arp_req_ready  = !lookup_pending_reg;
    assign arp_resp_valid = resp_valid_reg;
    assign arp_resp_hit   = resp_hit_reg;
    assign arp_resp_mac   = resp_mac_reg;

    wire        lookup_take = arp_req_valid && arp_req_ready;
    wire        lookup_mcast = (lookup_ip_reg[31:28] == 4'he);
    wire [31:0] host_mask   = ~cfg_netmask;

    // Repeated lookup: while last_hit_valid_reg, a lookup of lookup_ip_reg is answered
    // again from the answer registers. The remembered hit is forgotten on a miss, on
    // every entry learnt or allocated, at the tick_1ms from which its entry is at least
    // REVALIDATE_MS old (re-validation and expiry need the cache; hit_stamp_reg, below)
    // and on every change of cfg_ip, cfg_mac, cfg_netmask or cfg_gateway; it is not used
    // in the cycle an entry is learnt (wr_entry_reg: the write that forgets it). A younger
    // entry's answer cannot change with the time (no re-validation write, not expired),
    // so the other ticks keep it: a stream to one destination is answered in REPEAT_LAT
    // cycles whatever the clock of the milliseconds.
    // REPEAT_LAT 1: a repeat (repeat_hit) is answered the cycle after its handshake and
    // never sets lookup_pending_reg. REPEAT_LAT 2: every lookup sets lookup_pending_reg;
    // the compare and the remembered hit's validity at the handshake are registered
    // (repeat_same_reg, repeat_ok_reg; repeat_check_reg: a lookup was taken last cycle),
    // and a repeat is answered and lookup_pending_reg cleared the next cycle, in which
    // the engine starts nothing; otherwise the engine starts the lookup's scan in that
    // cycle, as with REPEAT_LAT 1.
    localparam  RL2 = (REPEAT_LAT == 2);
    wire        repeat_ok   = last_hit_valid_reg && !wr_entry_reg && !cfg_changed_reg &&
                              !route_changed_reg;
    wire        repeat_same = (arp_req_ip == lookup_ip_reg);
    reg         repeat_check_reg, repeat_ok_reg, repeat_same_reg;
    wire        repeat_hit  = RL2 ? (repeat_check_reg && repeat_ok_reg && repeat_same_reg) :
                                    (lookup_take && repeat_ok && repeat_same);
    // a lookup for the cache: every lookup taken but a REPEAT_LAT 1 repeat
    wire        lookup_new  = lookup_take && (RL2 || !repeat_hit);
    // the waiting lookup needs the cache (it is not a repeat being answered now)
    wire        lookup_run  = lookup_pending_reg && !(RL2 && repeat_hit);

    // Next hop: the IP itself on our subnet, else the gateway (whether it is on the
    // subnet is decided as the lookup is taken).
    wire [31:0]      next_hop     = lookup_local_reg ? lookup_ip_reg : cfg_gateway_reg;
    wire [SET_W-1:0] next_hop_set = set_of(next_hop);

    always @(posedge clk) begin
        if (lookup_take) begin
            lookup_ip_reg <= arp_req_ip;
            lookup_local_reg <= (((arp_req_ip ^ cfg_ip_reg) & cfg_netmask) == 32'd0);
            repeat_ok_reg <= repeat_ok;
            repeat_same_reg <= repeat_same;
        end
        // limited broadcast, multicast, or the subnet broadcast (masks of /30 or shorter:
        // mask bit 1 clear)
        lookup_special_reg <= (lookup_ip_reg == 32'hffffffff) || lookup_mcast ||
                              (lookup_local_reg && ((lookup_ip_reg & host_mask) == host_mask) &&
                               !cfg_netmask[1]);
        if (rst) begin
            repeat_check_reg <= 1'b0;
            lookup_seen_reg <= 1'b0;
        end else begin
            repeat_check_reg <= RL2 && lookup_take;
            if (lookup_take) lookup_seen_reg <= 1'b1;
        end
    end

    // ------------------------------------------------------------------ cache RAM
    // Three memories at the same addresses: the status word {state, retries, stamp},
    // whose {state, retries} and stamp parts are written separately (a write mask), the
    // IP and the MAC. Each has one write port and one registered read port; a cycle that
    // writes a memory does not read it (the engine never needs both), which lets Yosys
    // use block RAM as it is. The MAC memory is read one cycle later than the others
    // (registered address), so that its data is there with the way's key match.
    reg  [TS_W-1:0]  now_reg;         // milliseconds since reset (wrapping)
    wire [RT_W-1:0]  wr_retries;      // retries written (below)
    // the stamp is written with the IP and MAC, and with a background request's write
    // (an INCOMPLETE entry's request sent)
    wire             wr_stamp = wr_entry_reg ||
                                (op_reg == OP_PASS && wr_state_reg == ENT_INCOMPLETE);
    reg  [AW-1:0]    rd_addr;         // read address (combinational, below)
    (* ram_style = "block" *) reg [STAT_W-1:0] status_mem [0:ENTRIES-1];
    (* ram_style = "block" *) reg [31:0]       ip_mem [0:ENTRIES-1];
    (* ram_style = "block" *) reg [47:0]       mac_mem [0:ENTRIES+1];
    reg  [STAT_W-1:0] rd_status_reg;
    reg  [31:0]       rd_ip_reg;
    reg  [47:0]       rd_mac_reg;
    reg  [AW-1:0]     mac_addr_reg;   // rd_addr one cycle later
    always @(posedge clk) begin
        if (wr_status_reg) begin
            status_mem[wr_addr_reg][STAT_W-1:TS_W] <= {wr_state_reg, wr_retries};
            if (wr_stamp) status_mem[wr_addr_reg][TS_W-1:0] <= now_reg;
        end else begin
            rd_status_reg <= status_mem[rd_addr];
        end
    end
    always @(posedge clk) begin
        if (wr_entry_reg) ip_mem[wr_addr_reg] <= key_reg;
        else rd_ip_reg <= ip_mem[rd_addr];
    end
    // Two more words of the MAC memory, never written (initial contents), hold the
    // answers of a broadcast and of a multicast lookup: ff:ff:ff:ff:ff:ff and
    // 01:00:5e:00:00:00 (the low 23 bits, the IP's, are ORed in as the answer is loaded).
    // Such a lookup's scan reads one of them, in its first cycle, instead of its set's
    // first way (whose MAC it does not need), so that the answer always comes from the
    // MAC memory.
    localparam integer MAC_BCAST_I = ENTRIES;
    localparam integer MAC_MCAST_I = ENTRIES + 1;
    localparam [AW:0]  MAC_BCAST   = MAC_BCAST_I[AW:0];
    localparam [AW:0]  MAC_MCAST   = MAC_MCAST_I[AW:0];
    initial begin
        mac_mem[MAC_BCAST_I] = {48{1'b1}};
        mac_mem[MAC_MCAST_I] = 48'h01005e000000;
    end
    // the first cycle of a lookup's scan: its answer register is cleared
    wire        lookup_scan_start = (state_reg == STATE_SCAN) && (op_reg == OP_LOOKUP) &&
                                    (way_reg == {WAY_W{1'b0}});
    wire        mac_special = lookup_scan_start && lookup_special_reg;
    wire [AW:0] mac_rd_addr = !mac_special ? {1'b0, mac_addr_reg} :
                              lookup_mcast ? MAC_MCAST : MAC_BCAST;
    always @(posedge clk) begin
        mac_addr_reg <= rd_addr;
        if (wr_entry_reg) mac_mem[{1'b0, wr_addr_reg}] <= ev_sha;
        else rd_mac_reg <= mac_mem[mac_rd_addr];
    end

    wire [TS_W-1:0] rd_stamp   = rd_status_reg[0 +: TS_W];
    wire [RT_W-1:0] rd_retries = rd_status_reg[TS_W +: RT_W];
    wire [1:0]      rd_state   = rd_status_reg[STAT_W-2 +: 2];
    // retries written: a lookup's writes (a request due) RETRIES + 1, a background
    // request one less than the entry had (rd_status_reg still holds it: nothing is read
    // while writing), else 0
    assign wr_retries = (op_reg == OP_LOOKUP) ? RT_UNSENT :
                        (op_reg == OP_PASS && wr_state_reg == ENT_INCOMPLETE) ?
                            rd_retries - 1'b1 : {RT_W{1'b0}};

    // ------------------------------------------------------------------ first stage
    // The way read last cycle (every cycle, for the scan and the background pass): its
    // state, stamp, key match and retries, and its age against the thresholds,
    // registered. Stamps wrap: one stamp is before another when their difference is
    // negative (ages stay below 2^(TS_W-1)).
    function stamp_before(input [TS_W-1:0] stamp, input [TS_W-1:0] t);
        reg [TS_W-1:0] d;
        begin
            d = stamp - t;
            stamp_before = d[TS_W-1];
        end
    endfunction
    // An entry is at least T ms old when its stamp is before now_reg - T + 1. These times,
    // one per threshold, are kept in registers that count with now_reg, so that each
    // age flag is one compare from the RAM read and registered (the flags reach the
    // scan results' and the answer MAC register's enables). The unit test checks them
    // every cycle.
    reg  [TS_W-1:0]  expire_from_dup_reg;  // now_reg - EXPIRE_MS + 1
    reg  [TS_W-1:0]  reval_from_dup_reg;   // now_reg - REVALIDATE_MS + 1
    reg  [TS_W-1:0]  retry_from_dup_reg;   // now_reg - RETRY_MS + 1
    always @(posedge clk) begin
        if (rst) begin
            expire_from_dup_reg <= {TS_W{1'b0}} - EXPIRE_T + 1'b1;
            reval_from_dup_reg  <= {TS_W{1'b0}} - REVAL_T + 1'b1;
            retry_from_dup_reg  <= {TS_W{1'b0}} - RETRY_T + 1'b1;
        end else if (tick_1ms) begin  // they count with now_reg
            expire_from_dup_reg <= expire_from_dup_reg + 1'b1;
            reval_from_dup_reg  <= reval_from_dup_reg + 1'b1;
            retry_from_dup_reg  <= retry_from_dup_reg + 1'b1;
        end
    end
    reg  [1:0]       way_state_reg;
    reg  [TS_W-1:0]  way_stamp_reg;
    reg              way_expired_reg;    // at least EXPIRE_MS old
    reg              way_reval_due_reg;  // at least REVALIDATE_MS old
    reg              way_retry_due_reg;  // at least RETRY_MS old
    reg              way_ip_match_reg;   // its IP is key_reg
    reg              way_no_retry_reg;   // retries 0: no retry left
    reg              way_unsent_reg;     // retries RETRIES + 1: first request not sent yet
    reg  [WAY_W-1:0] way_index_reg;      // its way (scan)
    reg              way_in_scan_reg;    // it is a way of the scan
    reg              way_can_hit_reg;    // ... of a lookup's that can hit (configured, key not
                                         // bad, not broadcast or multicast), VALID or PROBED
    always @(posedge clk) begin
        way_state_reg     <= rd_state;
        way_stamp_reg     <= rd_stamp;
        way_expired_reg   <= stamp_before(rd_stamp, expire_from_dup_reg);
        way_reval_due_reg <= stamp_before(rd_stamp, reval_from_dup_reg);
        way_retry_due_reg <= stamp_before(rd_stamp, retry_from_dup_reg);
        way_ip_match_reg  <= (rd_ip_reg == key_reg);
        way_no_retry_reg  <= (rd_retries == {RT_W{1'b0}});
        way_unsent_reg    <= (rd_retries == RT_UNSENT);
        way_index_reg     <= way_reg;
        way_in_scan_reg   <= (state_reg == STATE_SCAN);
        way_can_hit_reg   <= (state_reg == STATE_SCAN) && (op_reg == OP_LOOKUP) && !key_bad &&
                             cfg_ip_set_reg && !lookup_special_reg &&
                             (rd_state == ENT_VALID || rd_state == ENT_PROBED);
    end
    wire way_free       = (way_state_reg == ENT_FREE);
    wire way_incomplete = (way_state_reg == ENT_INCOMPLETE);
    wire way_live       = (way_state_reg == ENT_VALID) || (way_state_reg == ENT_PROBED);
    wire way_match      = way_ip_match_reg && !way_free;
    wire way_first      = (way_index_reg == {WAY_W{1'b0}});

    // ------------------------------------------------------------------ scan results
    // Over the ways of the set: the way holding the key (an IP is in at most one way of
    // its set), the first free way and the least recently refreshed way (the first of
    // the oldest stamp).
    reg              match_any_reg;     // a way holds the key
    reg  [WAY_W-1:0] match_way_reg;
    reg              match_fresh_reg;   // ... and is VALID/PROBED, younger than EXPIRE_MS
    reg              match_inc_reg;     // ... and is INCOMPLETE
    reg              match_reval_reg;   // ... and is VALID, old enough to re-validate
    reg              free_any_reg;      // a way is free
    reg  [WAY_W-1:0] free_way_reg;
    reg  [WAY_W-1:0] oldest_way_reg;    // least recently refreshed way so far
    reg  [TS_W-1:0]  oldest_stamp_reg;
    reg  [TS_W-1:0]  hit_stamp_reg;     // stamp of the way holding a lookup's key (the
                                        // remembered hit's entry: its age)
    wire             way_older = stamp_before(way_stamp_reg, oldest_stamp_reg);
    // the remembered hit's entry is at least REVALIDATE_MS old from the next tick_1ms on
    // (its threshold then is reval_from_dup_reg + 1); a broadcast or multicast hit has no
    // entry and never ages
    wire             hit_reval_at_tick = !lookup_special_reg &&
                                         stamp_before(hit_stamp_reg, reval_from_dup_reg + 1'b1);
    always @(posedge clk) begin
        if (way_in_scan_reg) begin
            if (way_first || !match_any_reg) begin  // the first matching way counts
                if (way_match) match_way_reg <= way_index_reg;
                if (way_match && op_reg == OP_LOOKUP) hit_stamp_reg <= way_stamp_reg;
                match_fresh_reg <= way_match && way_live && !way_expired_reg;
                match_inc_reg   <= way_match && way_incomplete;
                match_reval_reg <= way_match && (way_state_reg == ENT_VALID) && way_reval_due_reg;
            end
            if (way_first) match_any_reg <= way_match;
            else if (way_match) match_any_reg <= 1'b1;
            if (way_free && (way_first || !free_any_reg)) free_way_reg <= way_index_reg;
            if (way_first) free_any_reg <= way_free;
            else if (way_free) free_any_reg <= 1'b1;
            if (way_first || way_older) begin
                oldest_way_reg <= way_index_reg;
                oldest_stamp_reg <= way_stamp_reg;
            end
        end
    end
    wire [WAY_W-1:0] victim_way = free_any_reg ? free_way_reg : oldest_way_reg;
    wire [WAY_W-1:0] target_way = match_any_reg ? match_way_reg : victim_way;

    // ------------------------------------------------------------------ background pass
    reg  [AW-1:0]     pass_addr_reg;   // the entry the pass reads next
    reg  [LEFT_W-1:0] pass_left_reg;   // entries still to visit in this pass
    reg               pass_again_reg;  // a request was due while the transmitter was busy
    // second stage of the pass (STATE_PASS_DECIDE): the entry's flags, registered.
    // Before the first lookup no entry can be INCOMPLETE or PROBED (only a lookup's
    // decision makes them), so these flags are gated with lookup_seen_reg: a design
    // that never issues lookups loses the whole request path in synthesis.
    reg               pass_expired_reg;   // VALID/PROBED, expired
    reg               pass_due_reg;       // INCOMPLETE, a request due
    reg               pass_no_retry_reg;  // ... and no retry left
    reg               pass_probe_reg;     // PROBED, its unicast request due
    always @(posedge clk) begin
        pass_expired_reg  <= way_live && way_expired_reg;
        pass_due_reg      <= lookup_seen_reg && way_incomplete && (way_retry_due_reg || way_unsent_reg);
        pass_no_retry_reg <= way_no_retry_reg;
        pass_probe_reg    <= lookup_seen_reg && (way_state_reg == ENT_PROBED) && way_unsent_reg;
    end
    // a request is to be sent (if the transmitter can take it)
    wire pass_send    = !pass_expired_reg &&
                        ((pass_due_reg && !pass_no_retry_reg) || pass_probe_reg);
    wire pass_pending = (pass_left_reg != {LEFT_W{1'b0}});

    // ------------------------------------------------------------------ transmit
    reg               garp_pending_reg;  // a gratuitous ARP is to be sent
    reg  [HOLD_W-1:0] garp_hold_reg;     // ms the configuration must still be stable
    wire              tx_busy;
    wire              tx_done;
    wire              tx_is_reply;       // the frame being sent is a reply
    wire              tx_is_garp;        // ... a gratuitous ARP
    wire tx_free  = !tx_busy || tx_done;
    wire garp_due = garp_pending_reg && (garp_hold_reg == {HOLD_W{1'b0}}) && cfg_ip_set_reg;
    // a request may start now (the transmitter idle, nothing before it)
    wire request_ok    = !tx_busy && !reply_want && !garp_due;
    wire request_start = (state_reg == STATE_PASS_DECIDE) && pass_send && request_ok;
    wire garp_start    = !reply_want && garp_due && tx_free;
    // a reply or a gratuitous ARP starts as the transmitter frees, a request only once
    // it is idle
    wire tx_start      = ((reply_want || garp_due) && tx_free) || request_start;
    reg  dec_unicast;  // the request is unicast to the entry's MAC (re-validation)
    // the frame's destination and target come from the event slot (a reply; and
    // always before the first lookup: no request can be due then), else from the
    // entry read by the pass
    wire tx_from_event = reply_want || !lookup_seen_reg;

    arp_tx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_tx (
        .clk(clk), .rst(rst),
        .cfg_mac(cfg_mac), .cfg_ip(cfg_ip_reg),
        .start(tx_start),
        .reply(reply_want),
        .bcast(!reply_want && !dec_unicast),
        .garp(!reply_want && garp_due),
        .dst_mac(tx_from_event ? ev_sha : rd_mac_reg),
        .tpa(tx_from_event ? ev_spa : rd_ip_reg),
        .busy(tx_busy), .done(tx_done), .is_reply(tx_is_reply), .is_garp(tx_is_garp),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
    );

    // ------------------------------------------------------------------ engine
    // The next operation (STATE_IDLE, no write pending): a waiting lookup first, else a
    // received frame, else a step of the background pass. A lookup accepted while a
    // frame or the pass waits lets that go first (it waits as lookup_pending_reg, and
    // its scan starts the cycle after), so lookups every cycle cannot starve the receive
    // path.
    wire rx_can      = ev_valid && !ev_done_reg;
    wire idle        = (state_reg == STATE_IDLE) && !wr_status_reg;
    wire start_lookup = idle && lookup_run;
    wire start_rx    = idle && !lookup_pending_reg && rx_can;
    wire start_pass  = idle && !lookup_pending_reg && !rx_can && pass_pending;

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_INIT:
                if (init_addr_reg == LAST_ENTRY[AW-1:0]) state_next = STATE_IDLE;
            STATE_IDLE:
                if (start_lookup || start_rx) state_next = STATE_SCAN;
                else if (start_pass) state_next = STATE_PASS_READ;
            STATE_SCAN:
                if (way_reg == LAST_WAY[WAY_W-1:0]) state_next = STATE_SCAN_END;
            STATE_SCAN_END:    state_next = STATE_DECIDE;
            STATE_DECIDE:      state_next = STATE_IDLE;
            STATE_PASS_READ:   state_next = STATE_PASS_CHECK;
            STATE_PASS_CHECK:  state_next = STATE_PASS_DECIDE;
            STATE_PASS_DECIDE: state_next = STATE_IDLE;
            default:           state_next = STATE_IDLE;
        endcase
    end

    // read address: the first way of the operation starting, the next way of the scan,
    // else the pass's entry (STATE_PASS_*: read again, so that rd_status_reg still holds
    // the entry when STATE_PASS_DECIDE writes it)
    always @* begin
        case (state_reg)
            STATE_IDLE: rd_addr = lookup_pending_reg ? addr_of(next_hop_set, {WAY_W{1'b0}}) :
                                  rx_can ? addr_of(set_of(ev_spa), {WAY_W{1'b0}}) :
                                  pass_addr_reg;
            STATE_SCAN: rd_addr = addr_of(set_reg, way_reg + 1'b1);
            default:    rd_addr = pass_addr_reg;
        endcase
    end

    // ------------------------------------------------------------------ decisions
    reg         dec_write;       // write the entry's {state, retries}
    reg         dec_write_entry; // ... and its stamp, IP (key_reg) and MAC (ev_sha)
    reg  [AW-1:0] dec_addr;
    reg  [1:0]  dec_state;       // the entry's new state
    reg         dec_resp;        // answer the lookup
    reg         dec_hit;         // ... hit
    reg         dec_expired;     // an entry expired (freed or re-allocated)
    reg         dec_timeout;     // an entry timed out (freed)
    always @* begin
        dec_write = 1'b0; dec_write_entry = 1'b0;
        dec_addr = addr_of(set_reg, target_way);
        dec_state = ENT_FREE;
        dec_resp = 1'b0; dec_hit = 1'b0; dec_unicast = 1'b0;
        dec_expired = 1'b0; dec_timeout = 1'b0;
        case (state_reg)
            STATE_INIT: begin  // clear the cache
                dec_write = 1'b1; dec_addr = init_addr_reg;
            end
            STATE_DECIDE: begin
                if (op_reg == OP_LOOKUP) begin
                    dec_resp = 1'b1;
                    if (lookup_special_reg) begin
                        dec_hit = 1'b1;
                    end else if (!cfg_ip_set_reg || key_bad_reg) begin
                        // no next hop, or no address of ours yet (a request with sender
                        // IP 0.0.0.0 would be taken for an address probe)
                        dec_hit = 1'b0;
                    end else if (match_fresh_reg) begin
                        dec_hit = 1'b1;
                        if (match_reval_reg) begin
                            // re-validate: PROBED with a unicast request to the known
                            // MAC due (retries = RETRIES + 1), sent by the background
                            // pass, which restarts at this entry
                            dec_write = 1'b1; dec_state = ENT_PROBED;
                        end
                    end else if (match_inc_reg) begin
                        dec_hit = 1'b0;  // already being resolved
                    end else begin
                        // not cached (or expired): new INCOMPLETE entry with its first
                        // request due (retries = RETRIES + 1), sent by the background
                        // pass, which restarts at this entry
                        dec_write = 1'b1; dec_write_entry = 1'b1; dec_state = ENT_INCOMPLETE;
                        if (match_any_reg) dec_expired = 1'b1;
                    end
                end else begin  // OP_RX: refresh a cached sender, learn one that asks us
                    if (!key_bad_reg && (match_any_reg || ev_for_us)) begin
                        dec_write = 1'b1; dec_write_entry = 1'b1; dec_state = ENT_VALID;
                    end
                end
            end
            STATE_PASS_DECIDE: begin  // background pass, one entry
                dec_addr = pass_addr_reg;
                if (pass_expired_reg) begin
                    dec_write = 1'b1; dec_expired = 1'b1;  // freed
                end else if (pass_due_reg) begin
                    if (pass_no_retry_reg) begin
                        dec_write = 1'b1; dec_timeout = 1'b1;  // freed
                    end else if (request_ok) begin
                        // broadcast request (the first, RETRIES + 1 -> RETRIES, or a retry)
                        dec_write = 1'b1; dec_state = ENT_INCOMPLETE;  // the stamp too
                    end  // else the output is busy: the pass runs again (pass_again_reg)
                end else if (pass_probe_reg) begin
                    dec_unicast = 1'b1;
                    if (request_ok) begin  // re-validation: unicast request, stamp kept
                        dec_write = 1'b1; dec_state = ENT_PROBED;
                    end  // else the output is busy: the pass runs again (pass_again_reg)
                end
            end
            default: ;
        endcase
    end

    // the background pass restarts at the entry a lookup's decision writes (a request
    // due), as it is written
    wire wr_kick = wr_status_reg && (op_reg == OP_LOOKUP);
    reg  wr_rx_reg;  // the cycle after a received frame's decision (the slot still holds it)
    wire ev_conflict_strobe = wr_rx_reg && ev_conflict;  // another station claims our IP

    always @(posedge clk) begin
        // (datapath: the key of the next operation, the write's address and state)
        if (state_reg == STATE_IDLE && !wr_status_reg)
            key_reg <= lookup_pending_reg ? next_hop : ev_spa;
        key_bad_reg <= key_bad;
        wr_addr_reg <= dec_addr;
        wr_state_reg <= dec_state;
        if (rst) begin
            state_reg <= STATE_INIT;
            op_reg <= OP_PASS;
            way_reg <= {WAY_W{1'b0}};
            set_reg <= {SET_W{1'b0}};
            init_addr_reg <= {AW{1'b0}};
            wr_status_reg <= 1'b0;
            wr_entry_reg <= 1'b0;
            wr_rx_reg <= 1'b0;
        end else begin
            state_reg <= state_next;
            if (start_lookup) begin
                op_reg <= OP_LOOKUP; set_reg <= next_hop_set;
            end else if (start_rx) begin
                op_reg <= OP_RX; set_reg <= set_of(ev_spa);
            end else if (start_pass) begin
                op_reg <= OP_PASS;
            end
            if (state_reg == STATE_SCAN) way_reg <= way_reg + 1'b1;
            else way_reg <= {WAY_W{1'b0}};
            if (state_reg == STATE_INIT) init_addr_reg <= init_addr_reg + 1'b1;
            wr_status_reg <= dec_write;
            wr_entry_reg <= dec_write_entry;
            wr_rx_reg <= (state_reg == STATE_DECIDE) && (op_reg == OP_RX);
        end
    end

    // time, the lookup, the background pass, the event slot, the gratuitous ARP
    always @(posedge clk) begin
        if (rst) begin
            now_reg <= {TS_W{1'b0}};
            lookup_pending_reg <= 1'b0;
            last_hit_valid_reg <= 1'b0;
            resp_valid_reg <= 1'b0;
            resp_hit_reg <= 1'b0;
            pass_addr_reg <= {AW{1'b0}};
            pass_left_reg <= {LEFT_W{1'b0}};
            pass_again_reg <= 1'b0;
            ev_done_reg <= 1'b0;
            ev_sent_reg <= 1'b0;
            garp_pending_reg <= 1'b1;
            garp_hold_reg <= HOLD_N;
        end else begin
            if (tick_1ms) now_reg <= now_reg + 1'b1;

            // lookup: pending from its handshake to its answer
            if ((state_reg == STATE_DECIDE && op_reg == OP_LOOKUP) || (RL2 && repeat_hit))
                lookup_pending_reg <= 1'b0;
            else if (lookup_new)
                lookup_pending_reg <= 1'b1;
            resp_valid_reg <= dec_resp || repeat_hit;  // (a repeat keeps hit and MAC)
            if (dec_resp) resp_hit_reg <= dec_hit;
            // The remembered hit: writes that cannot change a hit's answer do not forget
            // it (the background pass's, which expire entries a full lookup already sees
            // as expired, and a re-validation's, which keeps the MAC). A new lookup
            // forgets it the cycle after its handshake (lookup_pending_reg; no lookup is
            // taken then), which keeps the repeat compare off this register's enable.
            if (wr_entry_reg || state_reg == STATE_INIT || (tick_1ms && hit_reval_at_tick) ||
                cfg_changed_reg || route_changed_reg)
                last_hit_valid_reg <= 1'b0;
            else if (dec_resp)
                last_hit_valid_reg <= dec_hit;
            else if (lookup_pending_reg && !repeat_check_reg)
                last_hit_valid_reg <= 1'b0;

            // background pass: every entry once per millisecond, again when an entry was
            // due while the transmitter was busy, and from the entry a lookup allocated
            if (wr_kick || tick_1ms || (pass_again_reg && !tx_busy && !pass_pending))
                pass_left_reg <= ENTRIES_I[LEFT_W-1:0];
            else if (state_reg == STATE_PASS_DECIDE && pass_pending)
                pass_left_reg <= pass_left_reg - 1'b1;
            if (wr_kick) pass_addr_reg <= wr_addr_reg;
            else if (state_reg == STATE_PASS_DECIDE) pass_addr_reg <= pass_addr_reg + 1'b1;
            if (state_reg == STATE_PASS_DECIDE && pass_send && !request_ok)
                pass_again_reg <= 1'b1;
            else if (tick_1ms || (pass_again_reg && !tx_busy && !pass_pending))
                pass_again_reg <= 1'b0;

            // event slot: processed, reply handed over; both cleared on release
            ev_done_reg <= ev_done_next;
            ev_sent_reg <= ev_sent_next;

            // gratuitous ARP after reset, on address change (once stable) and to defend
            // our address against another station claiming it
            if (cfg_changed_reg || ev_conflict_strobe) garp_pending_reg <= 1'b1;
            else if (garp_start) garp_pending_reg <= 1'b0;
            if (cfg_changed_reg)
                garp_hold_reg <= HOLD_N;
            else if (tick_1ms && garp_hold_reg != {HOLD_W{1'b0}})
                garp_hold_reg <= garp_hold_reg - 1'b1;
        end
    end

    // answer MAC: cleared as a lookup's scan starts, then loaded from the MAC memory's
    // read while the set is scanned: the matching way's, if it is fresh and the lookup
    // can hit (configured, key not bad, not broadcast or multicast), or for a broadcast
    // or multicast lookup the reserved word read in place of the first way's (the
    // multicast IP's low 23 bits ORed in), so that it holds the answer's MAC, 0 for a
    // miss, by the decision
    reg  mac_special_reg;  // rd_mac_reg holds the broadcast or multicast word
    wire resp_mac_load = mac_special_reg || (way_can_hit_reg && way_ip_match_reg && !way_expired_reg);
    always @(posedge clk) begin
        mac_special_reg <= !rst && mac_special;
        if (lookup_scan_start) resp_mac_reg <= 48'd0;
        else if (resp_mac_load)
            resp_mac_reg <= rd_mac_reg | {25'd0, lookup_ip_reg[22:0] & {23{lookup_mcast}}};
    end

    // ------------------------------------------------------------------ event strobes
    // a received frame's: the cycle after its decision, from the event slot, which
    // still holds it; an eviction: the cycle of the write of a new entry that found
    // neither its key nor a free way, which the scan results still say
    reg  ev_expired_reg, ev_timeout_reg;
    always @(posedge clk) begin
        ev_expired_reg <= dec_expired;
        ev_timeout_reg <= dec_timeout;
    end
    assign cnt_ev[0]  = wr_rx_reg && ev_answer;                        // req_rx
    assign cnt_ev[1]  = tx_done && tx_is_reply;                        // reply_tx
    assign cnt_ev[2]  = tx_done && !tx_is_reply && !tx_is_garp;        // req_tx
    assign cnt_ev[3]  = tx_done && tx_is_garp;                         // garp_tx
    assign cnt_ev[4]  = wr_rx_reg && ev_reply;                         // reply_rx
    assign cnt_ev[7]  = resp_valid_reg && resp_hit_reg;                // hit
    assign cnt_ev[8]  = resp_valid_reg && !resp_hit_reg;               // miss
    assign cnt_ev[9]  = ev_timeout_reg;                                // timeout
    assign cnt_ev[10] = ev_expired_reg;                                // expired
    assign cnt_ev[11] = wr_entry_reg && !match_any_reg && !free_any_reg;  // evicted
    assign cnt_ev[12] = ev_conflict_strobe;                            // conflict
    assign cnt_ev[13] = wr_rx_reg && ev_request && !cfg_answer_reg;    // req_refused

endmodule

`default_nettype wire
