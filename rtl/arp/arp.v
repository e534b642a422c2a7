`default_nettype none
// arp: ARP responder, requester and cache with timeouts (width-generic).
//
// Receives whole Ethernet frames of EtherType 0x0806 (s_axis_*) and sends whole ARP
// frames (m_axis_*, 42 bytes, no FCS; the MAC pads to 60). Answers the stack's
// next-hop lookups (arp_req_* / arp_resp_*) from a set-associative cache held in one
// RAM that a small sequential engine reads one entry per cycle.
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
//     is not already pending, allocates an INCOMPLETE entry and sends a broadcast
//     request; it is retried RETRIES times every RETRY_MS ms, then the entry is freed
//     and it is counted (timeout).
//   * an entry lives EXPIRE_MS ms after it was last refreshed (counted: expired). A hit on
//     an entry older than REVALIDATE_MS sends one unicast request to the known MAC, so
//     a live peer's reply refreshes it before it expires and traffic never stops.
// Cache: ENTRIES entries in SETS = ENTRIES/WAYS sets of WAYS ways, in RAM words
//   {state, retries, stamp}, {ip} and {mac} at address set * WAYS + way, read in
//   clocked blocks (Yosys maps them to block RAM). No per-entry state outside the RAM.
//   The MAC memory has two more words, never written (initial contents): the broadcast
//   MAC and 01:00:5e:00:00:00, read as a broadcast or multicast lookup's answer.
//   Set index = the low log2(SETS) bits of the XOR of the IP's four bytes. A lookup or
//   a received frame scans the ways of its set one per cycle, keeping the matching
//   way, the first free way and the least recently refreshed way (oldest stamp);
//   replacement takes a free way first, else the least recently refreshed one.
//   Entry states: free, INCOMPLETE (request due or sent, waiting), VALID, VALID-PROBED
//   (re-validation request due or sent). A background pass reads every entry once per
//   tick_1ms to expire entries and send due requests; it restarts at an entry just
//   given a request to send. A decision's write is registered: it happens the cycle
//   after the decision, and the engine starts nothing in that cycle, so the next
//   operation reads what was written.
// Gratuitous ARP: one broadcast request with SPA = TPA = cfg_ip is sent after reset
//   and after any change of cfg_ip or cfg_mac, once they have been stable for
//   GARP_HOLD_MS ms (so a MAC written as two registers announces once); not sent
//   while cfg_ip is 0.0.0.0.
// Transmit priority: reply, then gratuitous ARP, then request. A reply is sent from
//   the receive event slot (which stays full until the transmitter has taken it); a
//   request is started by the background pass only when the transmitter is idle,
//   otherwise the entry stays due and the pass runs again once it is.
//
// Interfaces:
//   s_axis_*   ARP frames in (tready always 1), tuser on the last beat = bad frame
//   m_axis_*   ARP frames out (whole Ethernet frames, no FCS)
//   arp_req_valid/ready, arp_req_ip[31:0]: lookup request (ready = no lookup in flight)
//   arp_resp_valid (one-cycle strobe), arp_resp_hit, arp_resp_mac[47:0]
//   cfg_mac, cfg_ip, cfg_netmask, cfg_gateway: configuration (values, not wire order;
//              cfg_ip and cfg_gateway are registered as they enter: a change of either
//              reaches everything one cycle later than one of cfg_mac or cfg_netmask; a
//              change of cfg_mac or cfg_ip is detected, restarting the gratuitous ARP's
//              hold and forgetting the repeated lookup, two cycles after it)
//   cfg_answer: 1 answers requests for cfg_ip; 0 leaves them unanswered (counted,
//              req_refused), the cache learning from them as from any request
//   tick_1ms: one-cycle strobe every millisecond
//   cnt_ev[13:0]: event strobes, one cycle each, for counters kept in stat_counters
//              (read them while rst is low):
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
//   the IP is the one of the last hit and nothing has changed since (same millisecond,
//   no entry learnt; with REPEAT_LAT 2 the compare is registered and arp_req_ready is
//   low for the one cycle in between);
//   otherwise WAYS + 4 cycles on an idle cache (the request registered, the set's first
//   read issued the next cycle, one way per cycle through a two-stage pipeline,
//   decision registered), at most 2 * WAYS + 7 if the cache had just started another
//   operation (a received frame: WAYS + 3 cycles, one more when it writes the cache; a
//   background step: 4, one more when it writes); more only right after reset while
//   the cache is cleared (ENTRIES cycles). A reply's first beat is on m_axis 3 cycles
//   after the request's last beat when the output is free; a request's, 5 cycles after
//   the miss answer (the entry's write, then a background step at it) when the cache
//   and output are idle.
// Parameters: DATA_W (multiple of 8, at most 168), KEEP_W, ENTRIES and WAYS (powers of
//   two, WAYS <= ENTRIES, ENTRIES/WAYS <= 256), RETRIES (retransmissions after the
//   first request), RETRY_MS, EXPIRE_MS, REVALIDATE_MS (< EXPIRE_MS), GARP_HOLD_MS
//   (>= 1), REPEAT_LAT (1: a repeated lookup is compared
//   in its handshake cycle and answered the next; 2: the compare is registered first,
//   which keeps the 32-bit compare off the handshake's paths, for the 8-bit stack).

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
    output reg               arp_resp_valid,
    output reg               arp_resp_hit,
    output reg  [47:0]       arp_resp_mac,

    output wire [13:0]       cnt_ev  // event strobes (bits listed above)
);

    // ------------------------------------------------------------------ sizes
    localparam SETS  = ENTRIES / WAYS;
    localparam SET_W = (SETS > 1) ? $clog2(SETS) : 1;
    localparam WAY_W = (WAYS > 1) ? $clog2(WAYS) : 1;
    localparam LW    = $clog2(WAYS);  // address = set << LW | way
    localparam AW    = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;
    localparam MAXT  = (EXPIRE_MS > RETRY_MS) ? EXPIRE_MS : RETRY_MS;
    // Time stamps: ages stay well below 2^TS_W (entries are expired, retried or freed
    // within about a millisecond of their last deadline).
    localparam TS_W  = $clog2(MAXT + 1) + 2;
    localparam RW    = $clog2(RETRIES + 2);
    localparam MW    = 2 + RW + TS_W;  // state word
    localparam HOLD_W = $clog2(GARP_HOLD_MS + 1);
    localparam SWL_W  = $clog2(ENTRIES + 1);

    localparam [TS_W-1:0] ONE_T     = 1;
    localparam [TS_W-1:0] RETRY_T   = RETRY_MS[TS_W-1:0];
    localparam [TS_W-1:0] EXPIRE_T  = EXPIRE_MS[TS_W-1:0];
    localparam [TS_W-1:0] REVAL_T   = REVALIDATE_MS[TS_W-1:0];
    localparam integer    RETRIES1  = RETRIES + 1;
    localparam [RW-1:0]   RETRY_N1  = RETRIES1[RW-1:0];  // first request not sent yet
    localparam [HOLD_W-1:0] HOLD_N  = GARP_HOLD_MS[HOLD_W-1:0];
    localparam integer    WAYS_M1   = WAYS - 1;
    localparam integer    ENTRIES_M1 = ENTRIES - 1;
    localparam integer    ENTRIES_I = ENTRIES;

    // entry layout: {state, retries, stamp} and {ip, mac}
    localparam ST_FREE = 2'd0, ST_INC = 2'd1, ST_VAL = 2'd2, ST_PRB = 2'd3;

    // engine states and operations
    localparam S_INIT = 3'd0, S_IDLE = 3'd1, S_SCAN = 3'd2, S_LAST = 3'd3, S_DEC = 3'd4,
               S_SWA = 3'd5, S_SWB = 3'd6, S_SWD = 3'd7;
    localparam OP_LK = 2'd0, OP_RX = 2'd1, OP_SW = 2'd2;

    reg  [2:0]       state;
    reg  [1:0]       op;
    reg  [WAY_W-1:0] k;        // way being read (SCAN: the data of way k is in rd)
    reg  [SET_W-1:0] cur_set;
    reg  [AW-1:0]    init_addr;

    // cfg_ip is registered as it enters (cfg_ip_q: the receiver, the transmitter, the
    // lookup's subnet and bad-key compares and the change detector all see it one cycle
    // late, together), and so is whether each of its bytes is non-zero (ip_nzb, the same
    // cycle: |ip_nzb is cfg_ip_q != 0), so that the next value of cfg_ip_set, read by
    // ev_rel and garp_ok, is one LUT4 from flip-flops
    reg  [31:0] cfg_ip_q;
    reg  [3:0]  ip_nzb;
    reg  cfg_ip_set;  // cfg_ip_q is not 0.0.0.0 (registered)
    wire cfg_ip_nz = |ip_nzb;  // cfg_ip_q != 0: the next value of cfg_ip_set
    always @(posedge clk) begin
        cfg_ip_q <= cfg_ip;
        ip_nzb <= {|cfg_ip[31:24], |cfg_ip[23:16], |cfg_ip[15:8], |cfg_ip[7:0]};
    end

    // ------------------------------------------------------------------ receive
    // (the event's fields ev_reply .. ev_ask_us are meaningful only while ev_valid is
    // high: every use below is gated by it, through reply_want, rx_can (the key and the
    // set of a received frame's operation), the receive decision (S_DEC, op OP_RX) and
    // wr_rx (the cycle after it, before the release), or is a don't-care: the MAC
    // written with a lookup's INCOMPLETE entry, and the transmitter's destination and
    // target for a gratuitous ARP)
    wire        ev_valid;
    wire        ev_reply;
    wire [47:0] ev_sha;
    wire [31:0] ev_spa;
    wire        ev_spa_ours;
    wire        ev_tpa_ours;
    wire        ev_ask_us;
    wire        ev_ask_rx, ev_ask_nx_rx;  // arp_rx's ev_ask_us, ev_ask_nx
    reg         ev_done;  // the engine has processed the event
    reg         ev_sent;  // its reply has been handed to the transmitter
    wire        ev_for_us  = ev_tpa_ours && cfg_ip_set;
    wire        ev_confl   = cfg_ip_set && ev_spa_ours;
    wire        ev_answer  = ev_ask_us && cfg_ip_set;  // = !ev_reply && ev_for_us && !ev_confl
    // reply_want = ev_valid && ev_answer && !ev_sent, kept in a register (reply_want_r)
    // loaded with its next value (from the receiver's ev_ask_nx, cfg_ip_nz and ev_sent's
    // next value), so that the transmitter's start, source select and destination set
    // start from a flip-flop
    wire        ev_ask_nx;
    reg         reply_want_r;
    wire        reply_want = reply_want_r;
    // ev_ready = ev_valid && ev_done && (ev_sent || !ev_answer), kept in a register
    // (ev_rel) loaded with its next value, so that the release is shallow
    reg         ev_rel;
    wire        ev_ready   = ev_rel;

    arp_rx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_rx (
        .clk(clk), .rst(rst), .cfg_ip(cfg_ip_q),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .ev_valid(ev_valid), .ev_ready(ev_ready), .ev_reply(ev_reply),
        .ev_sha(ev_sha), .ev_spa(ev_spa), .ev_spa_ours(ev_spa_ours),
        .ev_tpa_ours(ev_tpa_ours), .ev_ask_us(ev_ask_rx), .ev_ask_nx(ev_ask_nx_rx),
        .cnt_ev(cnt_ev[6:5])
    );
    // answers off (cfg_answer = 0): a request for us is taken as no request at all (not
    // answered, counted as req_refused instead of req_rx; the cache learns from it alike)
    assign ev_ask_us = ev_ask_rx && cfg_answer;
    assign ev_ask_nx = ev_ask_nx_rx && cfg_answer;

    // ------------------------------------------------------------------ lookup input
    reg         lk_pend;
    reg  [31:0] lk_ip;
    assign arp_req_ready = !lk_pend;

    // Last hit, answered again without the cache: while memo_valid, lk_ip is the IP of
    // the last answer and arp_resp_mac still holds its MAC. Forgotten on a miss, on
    // every entry learnt or allocated, every tick_1ms (ages move: expiry and
    // re-validation need the cache) and every change of cfg_ip or cfg_mac; not used in
    // the cycle an entry is learnt (wr_d: the registered write, which forgets it).
    // REPEAT_LAT 1: a repeat (memo_hit) is answered the cycle after its handshake and
    // never sets lk_pend. REPEAT_LAT 2: every lookup sets lk_pend; the compare and the
    // memory's validity at the handshake are registered (m_eq, m_ok, with lk_chk: a
    // lookup was taken last cycle), and a repeat (memo_now) is answered and lk_pend
    // cleared the next cycle, in which the engine starts nothing; otherwise the engine
    // starts the lookup's scan in that cycle, as with REPEAT_LAT 1.
    localparam  RL2 = (REPEAT_LAT == 2);
    reg         memo_valid;
    wire        lk_take  = arp_req_valid && arp_req_ready;
    wire        memo_ok  = memo_valid && !wr_d && !cfg_chg;
    wire        memo_eq  = (arp_req_ip == lk_ip);
    reg         lk_chk, m_ok, m_eq;
    wire        memo_hit = RL2 ? (lk_chk && m_ok && m_eq) : (lk_take && memo_ok && memo_eq);
    wire        lk_new   = lk_take && (RL2 || !memo_hit);
    // the lookup waiting in lk_pend is not a repeat being answered (always lk_pend with
    // REPEAT_LAT 1: lk_pend and memo_hit are never both 1 there)
    wire        lk_run   = lk_pend && !(RL2 && memo_hit);
    // (m_ok and m_eq are loaded only by a handshake: idle, ARP's registers hold still)
    always @(posedge clk) begin
        lk_chk <= RL2 && !rst && lk_take;
        if (lk_take) begin
            m_ok <= memo_ok;
            m_eq <= memo_eq;
        end
    end

    // A lookup has been taken since reset. Only a lookup's decision makes an entry
    // INCOMPLETE or VALID-PROBED, so before the first one no entry can have a request
    // due: the background pass's request flags and the transmitter's request source are
    // gated with it (exact). A design that never issues lookups (arp_req_valid tied or
    // proven 0) then loses the whole request path in synthesis, not only the lookup's.
    reg         lk_seen;

    // Next hop of the requested IP: whether it is on our subnet is worked out as the
    // request is taken, the rest from the registered request (its set as the scan
    // starts, the next cycle; broadcast, registered, long before the decision).
    wire [31:0] host_mask  = ~cfg_netmask;
    wire        q_local    = ((arp_req_ip ^ cfg_ip_q) & cfg_netmask) == 32'd0;

    reg              lk_local;
    reg              lk_bm;    // broadcast or multicast: answered without the cache
    wire             lk_mcast = (lk_ip[31:28] == 4'he);
    // the gateway and its set, registered (a change reaches lookups one cycle later),
    // and the requested IP's set, folded as it is taken: the set of the next hop is
    // then one multiplexer away from the RAM read address
    reg  [31:0]      gw_q;
    reg  [SET_W-1:0] gw_set;
    reg  [SET_W-1:0] lk_ip_set;
    wire [31:0]      lk_nh = lk_local ? lk_ip : gw_q;

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

    function [AW-1:0] addr_of(input [SET_W-1:0] s, input [WAY_W-1:0] w);
        reg [31:0] t;
        begin
            t = ({{(32-SET_W){1'b0}}, s} << LW) | {{(32-WAY_W){1'b0}}, w};
            addr_of = t[AW-1:0];
        end
    endfunction
    /* verilator lint_on UNUSED */

    wire [SET_W-1:0] lk_set = lk_local ? lk_ip_set : gw_set;
    always @(posedge clk) begin
        gw_q <= cfg_gateway;
        gw_set <= set_of(cfg_gateway);
        if (lk_take) lk_ip_set <= set_of(arp_req_ip);
    end

    // ------------------------------------------------------------------ cache RAM
    // Three memories at the same addresses: the entry's state word {state, retries,
    // stamp}, whose {state, retries} and stamp parts are written separately (a write
    // mask), its IP and its MAC. Each has one write port and one registered read port; a
    // cycle that writes a memory does not read it (the engine never needs both), which
    // lets Yosys use block RAM as it is. The MAC memory is read one cycle later than the
    // others (registered address), so that its data is there when the registered key
    // match is.
    // time stamps are stored inverted (~ milliseconds, wrapping): the threshold
    // compares below then add the RAM read as it is, with no inverter in front
    reg  [TS_W-1:0]  now_n;   // ~ milliseconds: counts down
    // the engine's decision (combinational) ...
    reg              we;      // write {state, retries}
    reg              we_d;    // ... the stamp (= now_n), the IP (= key) and the MAC (= ev_sha)
    reg  [AW-1:0]    wa;
    reg  [1:0]       x_st;
    // ... registered: the write happens the cycle after the decision (wr_m is set for
    // every write; the engine starts nothing in that cycle, so the next operation's
    // first read sees the entry written, and key and ev_sha still hold)
    reg              wr_m;
    reg              wr_d;
    reg  [AW-1:0]    wr_a;
    reg  [1:0]       wr_st;
    // the stamp is written with the IP and MAC, and for a background request
    // (INCOMPLETE): with wr_m (wr_d implies wr_m), so that the memory's write enable is
    // wr_m itself, its read enable !wr_m, and this only masks the stamp's bits
    wire             wr_ts = wr_d || (op == OP_SW && wr_st == ST_INC);
    wire [RW-1:0]    wr_rt;   // retries (below)
    reg  [AW-1:0]    ra;
    (* ram_style = "block" *) reg [MW-1:0] mem_m [0:ENTRIES-1];
    (* ram_style = "block" *) reg [31:0]   mem_ip [0:ENTRIES-1];
    (* ram_style = "block" *) reg [47:0]   mem_mac [0:ENTRIES+1];
    reg  [MW-1:0]    rd;
    reg  [31:0]      rd_ip;
    reg  [47:0]      rd_mac;
    reg  [AW-1:0]    ra_q;
    always @(posedge clk) begin
        if (wr_m) begin
            mem_m[wr_a][MW-1:TS_W] <= {wr_st, wr_rt};
            if (wr_ts) mem_m[wr_a][TS_W-1:0] <= now_n;
        end else begin
            rd <= mem_m[ra];
        end
    end
    always @(posedge clk) begin
        if (wr_d) mem_ip[wr_a] <= key;
        else rd_ip <= mem_ip[ra];
    end
    // Two more words of the MAC memory, never written (initial contents), hold the
    // answers of a broadcast and of a multicast lookup: ff:ff:ff:ff:ff:ff and
    // 01:00:5e:00:00:00 (the low 23 bits, the IP's, are ORed in as the answer is loaded).
    // Such a lookup's scan reads one of them, in its first cycle, instead of its set's
    // first way (whose MAC it does not need), so that the answer register loads the RAM
    // read alone: no multiplexer in front of it.
    localparam integer MAC_BC_I = ENTRIES;
    localparam integer MAC_MC_I = ENTRIES + 1;
    localparam [AW:0]  MAC_BC = MAC_BC_I[AW:0];
    localparam [AW:0]  MAC_MC = MAC_MC_I[AW:0];
    initial begin
        mem_mac[MAC_BC_I] = {48{1'b1}};
        mem_mac[MAC_MC_I] = 48'h01005e000000;
    end
    // (rm_init: a lookup's scan starts, its first cycle; below)
    reg              rm_init;
    wire             mac_bm = rm_init && lk_bm;
    wire [AW:0]      mac_ra = !mac_bm ? {1'b0, ra_q} : lk_mcast ? MAC_MC : MAC_BC;
    always @(posedge clk) begin
        ra_q <= ra;
        if (wr_d) mem_mac[{1'b0, wr_a}] <= ev_sha;
        else rd_mac <= mem_mac[mac_ra];
    end

    wire [TS_W-1:0] rd_ts  = rd[0 +: TS_W];
    wire [RW-1:0]   rd_rt  = rd[TS_W +: RW];
    wire [1:0]      rd_st  = rd[MW-2 +: 2];
    // retries written: a lookup's writes (a request due) RETRIES + 1, a background
    // request one less than the entry had (rd still holds it: nothing is read while
    // writing), else 0
    assign wr_rt = (op == OP_LK) ? RETRY_N1 :
                   (op == OP_SW && wr_st == ST_INC) ? rd_rt - 1'b1 : {RW{1'b0}};

    // ------------------------------------------------------------------ time

    // First pipeline stage behind the RAM (every cycle, for the scan and the background
    // pass): the entry's age, state and key match, registered.
    reg  [TS_W-1:0]  a_tsn;    // the complement of its stamp (as stored, inverted), so
                               // that the replacement compares have no inverter in front
                               // of their carry chains
    reg  [1:0]       a_st;
    // its IP is the key: the compare's four bytes registered apart, ANDed behind the
    // register with the state (not free), so that the RAM's slow read reaches two LUT
    // levels (four two-bit compares, their AND); the answer register's enable stays two
    // LUTs from flip-flops (a_lkok already says the way is live)
    reg  [3:0]       a_mh;
    wire             a_ipeq = &a_mh;
    reg              a_rt0;    // no retry left
    reg              a_rtn1;   // first request not sent yet
    reg  [WAY_W-1:0] a_k;      // its way (scan)
    reg              a_scan;   // the scan is in its second stage for way a_k
    reg              a_lkok;   // a lookup's scan whose key may hit (configured, not bad,
                               // not broadcast or multicast), reading a VALID or PROBED way
    reg              a_bad;    // the key is 0.0.0.0 or cfg_ip (see key_bad)
    // The age's threshold compares. age >= T is the sign of (now - T) - stamp =
    // (now - T + 1) + ~stamp (ages and thresholds stay below 2^(TS_W-1)). For EXPIRE_MS
    // that is one addition straight from the RAM read, with now - EXPIRE_MS + 1 kept in a
    // register (d_exp) and ~stamp as stored; its sum (age - EXPIRE_MS) is registered
    // whole (a_xe), its sign being the expiry flag, so the second stage's flags and the
    // scan results start from flip-flops. The other thresholds are compared in the
    // second stage, from the registered sum plus a constant: (age - EXPIRE_MS) +
    // (EXPIRE_MS - T), the same value, modulo 2^TS_W, that a register now - T + 1 per
    // threshold added to the stamp would give one cycle earlier.
    reg  [TS_W-1:0]  d_exp;    // now + 1 - EXPIRE_MS
    wire [TS_W-1:0]  x_exp     = d_exp + rd_ts;
    reg  [TS_W-1:0]  a_xe;     // x_exp registered: age - EXPIRE_MS (modulo 2^TS_W)
    wire [TS_W-1:0]  x_reval   = a_xe + (EXPIRE_T - REVAL_T);  // age - REVALIDATE_MS
    wire [TS_W-1:0]  x_retry   = a_xe + (EXPIRE_T - RETRY_T);  // age - RETRY_MS
    wire             old_exp   = !a_xe[TS_W-1];     // its age >= EXPIRE_MS
    wire             old_reval = !x_reval[TS_W-1];  // its age >= REVALIDATE_MS
    wire             old_retry = !x_retry[TS_W-1];  // its age >= RETRY_MS
    // second stage (background pass): the entry's flags, registered
    reg              b_exp;    // VALID/PROBED, expired
    reg              b_due;    // INCOMPLETE, a request due
    reg              b_rt0;    // ... and no retry left
    reg              b_prb;    // PROBED, its unicast request due
    reg              b_send;   // a request is to be sent (if the transmitter can take it)
    wire             a_live    = a_st[1];  // ST_VAL or ST_PRB
    wire             a_free    = (a_st == ST_FREE);
    wire             a_match   = a_ipeq && !a_free;  // not free, and its IP is the key
    wire             a_first   = (a_k == {WAY_W{1'b0}});

    // ------------------------------------------------------------------ scan
    // The key, loaded as an operation starts (a lookup's next hop or a received frame's
    // sender IP; not while the last decision writes, which stores it): the compare
    // behind the RAM has no multiplexer in front of it.
    reg  [31:0] key;

    reg              m_any;    // a way holds the key
    reg  [WAY_W-1:0] m_way;
    reg              m_fresh;  // ... and is VALID/PROBED, younger than EXPIRE_MS
    reg              m_inc;    // ... and is INCOMPLETE
    reg              m_reval;  // ... and is VALID, old enough to re-validate
    reg              f_any;    // a way is free
    reg  [WAY_W-1:0] f_way;
    reg  [WAY_W-1:0] o_way;    // least recently refreshed way so far
    reg  [TS_W-1:0]  o_tsn;    // ... the complement of its stamp
    // Way a_k was refreshed before way o_way (its stamp is older: the sign of o_ts - a_ts,
    // modular compare). Compared a cycle early, beside the expiry compare, as way k's
    // stamp is read (rd_ts) while the second stage holds way k - 1 and o_* the oldest of
    // ways 0 .. k - 2: against both (the sign of o_ts - rd_ts is the complement of that of
    // rd_ts + ~o_ts, so no carry-in), both registered with the scan's stage flag; the
    // next cycle o_* holds the oldest of ways 0 .. k - 1, which is way k - 1 exactly when
    // o_* was loaded in the cycle before (o_upd), so a_older is a 2:1 selection of
    // flip-flops and o_*'s enable one LUT4 from flip-flops (o_scan0: a_scan && a_first).
    wire [TS_W-1:0]  r_vo      = rd_ts + o_tsn;  // stamp rd - stamp o - 1 (stored form)
    wire [TS_W-1:0]  r_va      = rd_ts + a_tsn;  // ... against way k - 1
    reg              o_old_o;  // (scan) way a_k is older than the oldest of 0 .. a_k - 2
    reg              o_old_a;  // (scan) ... than way a_k - 1
    reg              o_scan0;  // a_scan && a_first
    reg              o_upd;    // o_* were loaded in the last cycle
    wire             a_older   = o_upd ? o_old_a : o_old_o;
    wire             o_ld      = o_scan0 || a_older;  // (o_old_* imply a_scan)
    always @(posedge clk) begin
        o_old_o <= (state == S_SCAN) && !r_vo[TS_W-1];
        o_old_a <= (state == S_SCAN) && !r_va[TS_W-1];
        o_scan0 <= (state == S_SCAN) && (k == {WAY_W{1'b0}});
        o_upd   <= o_ld;
        if (o_ld) begin
            o_way <= a_k;
            o_tsn <= a_tsn;
        end
    end

    wire [WAY_W-1:0] v_way = f_any ? f_way : o_way;  // victim
    wire [WAY_W-1:0] t_way = m_any ? m_way : v_way;  // target of a write

    // ------------------------------------------------------------------ transmit
    reg               garp_pend;
    reg  [HOLD_W-1:0] garp_hold;
    reg  [47:0]       prev_mac;
    integer           ci;
    // cfg_mac or cfg_ip changed: byte-wise compares with the values of the cycle before
    // (prev_mac, cfg_ip_q), registered (chg_b), then their OR, registered (cfg_chg): high
    // two cycles after a change at the ports, the cycle after cfg_ip_q changes
    reg  [9:0]        chg_b;
    reg               cfg_chg;
    wire              tx_is_reply;
    wire              tx_is_garp;
    // 0 reply, 1 gratuitous, 2 request (of the frame being sent: the transmitter's latch)
    wire [1:0]        tx_kind = tx_is_reply ? 2'd0 : tx_is_garp ? 2'd1 : 2'd2;

    wire tx_busy;
    wire tx_done;
    wire tx_free  = !tx_busy || tx_done;
    reg  garp_ok;  // garp_hold == 0 && cfg_ip_set (registered with their next values)
    wire garp_due = garp_pend && garp_ok;
    // a request may start now (the transmitter idle, not just finishing: shallower)
    wire req_ok   = !tx_busy && !reply_want && !garp_due;
    reg  x_uni;   // the request is unicast to the entry's MAC (re-validation)
    // a request starts from S_SWD when b_send && req_ok: written out so that the start
    // stays shallow
    wire tx_first = reply_want || garp_due;  // a reply or a gratuitous ARP is due
    wire tx_go    = tx_first ? tx_free : (state == S_SWD && b_send && !tx_busy);
    wire tx_garp  = !reply_want && garp_due;
    // the frame's destination and target come from the event slot (a reply; and always
    // before the first lookup: no request can be due then), else from the RAM read
    wire tx_src_ev = reply_want || !lk_seen;

    arp_tx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_tx (
        .clk(clk), .rst(rst),
        .cfg_mac(cfg_mac), .cfg_ip(cfg_ip_q),
        .start(tx_go),
        .reply(reply_want),
        .bcast(!reply_want && !x_uni),
        .garp(tx_garp),
        .dst_mac(tx_src_ev ? ev_sha : rd_mac),
        .tpa(tx_src_ev ? ev_spa : rd_ip),
        .busy(tx_busy), .done(tx_done), .is_reply(tx_is_reply), .is_garp(tx_is_garp),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
    );

    // ------------------------------------------------------------------ background pass
    reg  [AW-1:0]    sw_addr;
    reg  [SWL_W-1:0] sw_left;    // entries still to visit in this pass
    reg              sw_again;   // an entry was due while the transmitter was busy
    // a request was due in S_SWD while the transmitter was idle but a reply or a
    // gratuitous ARP went first (it starts then: the transmitter is busy the next cycle,
    // when this flag sets sw_again, unless tick_1ms restarts the pass anyway)
    reg              sw_late;
    wire rx_can = ev_valid && !ev_done;
    wire sw_can = (sw_left != {SWL_W{1'b0}});
    // A lookup waits as lk_pend (registered: its scan starts the cycle after the
    // handshake) and then goes before anything else; one accepted while a received
    // frame or the background pass waits lets that operation go first, so lookups every
    // cycle cannot starve the receive path.

    // ------------------------------------------------------------------ decisions
    reg         x_resp, x_hit;
    // the background pass restarts at the entry written by a lookup's decision (a
    // request due), as it is written (op stays as it is during the write)
    wire        wr_kick = wr_m && (op == OP_LK);
    reg         wr_rx;   // the cycle after a received frame's decision (ev_* still hold)
    reg         i_exp, i_tmo;
    // the key is 0.0.0.0 or our address: for a lookup, no next hop (no gateway, our own
    // address); for a received frame, a sender that is not learnt (an address probe,
    // or another station using our address)
    wire        key_bad  = (key == 32'd0) || (key == cfg_ip_q);
    always @(posedge clk) begin
        a_tsn   <= ~rd_ts;
        a_xe    <= x_exp;
        a_st    <= rd_st;
        a_mh    <= {rd_ip[31:24] == key[31:24], rd_ip[23:16] == key[23:16],
                    rd_ip[15:8] == key[15:8], rd_ip[7:0] == key[7:0]};
        a_rt0   <= (rd_rt == {RW{1'b0}});
        a_rtn1  <= (rd_rt == RETRY_N1);
        a_k     <= k;
        a_scan  <= (state == S_SCAN);
        a_bad   <= key_bad;
        a_lkok  <= (state == S_SCAN) && (op == OP_LK) && !key_bad && cfg_ip_set && !lk_bm &&
                   rd_st[1];
        b_exp   <= a_live && old_exp;
        b_due   <= lk_seen && (a_st == ST_INC) && (old_retry || a_rtn1);
        b_rt0   <= a_rt0;
        b_prb   <= lk_seen && (a_st == ST_PRB) && a_rtn1;
        b_send  <= lk_seen && !(a_live && old_exp) &&
                   (((a_st == ST_INC) && (old_retry || a_rtn1) && !a_rt0) ||
                    ((a_st == ST_PRB) && a_rtn1));
    end

    always @* begin
        we = 1'b0; we_d = 1'b0; wa = addr_of(cur_set, t_way);
        x_st = ST_FREE;
        x_resp = 1'b0; x_hit = 1'b0; x_uni = 1'b0;
        i_exp = 1'b0; i_tmo = 1'b0;
        case (state)
            S_INIT: begin
                we = 1'b1; wa = init_addr;
            end
            S_DEC: begin
                if (op == OP_LK) begin
                    x_resp = 1'b1;
                    if (lk_bm) begin
                        x_hit = 1'b1;
                    end else if (!cfg_ip_set || a_bad) begin
                        // no next hop, or no address of ours yet (a request with sender
                        // IP 0.0.0.0 would be taken for an address probe)
                        x_hit = 1'b0;
                    end else if (m_fresh) begin
                        x_hit = 1'b1;
                        if (m_reval) begin
                            // re-validate: VALID-PROBED with a unicast request to the
                            // known MAC due (retries = RETRIES + 1), sent by the
                            // background pass, which restarts at this entry
                            we = 1'b1; x_st = ST_PRB;
                        end
                    end else if (m_inc) begin
                        x_hit = 1'b0;  // already being resolved
                    end else begin
                        // not cached (or expired): new INCOMPLETE entry with its first
                        // request due (retries = RETRIES + 1), sent by the background
                        // pass, which restarts at this entry
                        we = 1'b1; we_d = 1'b1; x_st = ST_INC;
                        if (m_any) i_exp = 1'b1;
                    end
                end else begin  // OP_RX
                    if (!a_bad && (m_any || ev_for_us)) begin
                        we = 1'b1; we_d = 1'b1; x_st = ST_VAL;
                    end
                end
            end
            S_SWD: begin  // background pass, one entry
                wa = sw_addr;
                if (b_exp) begin
                    we = 1'b1; i_exp = 1'b1;  // freed
                end else if (b_due) begin
                    if (b_rt0) begin
                        we = 1'b1; i_tmo = 1'b1;  // freed
                    end else if (req_ok) begin
                        // broadcast request (the first, RETRIES + 1 -> RETRIES, or a retry)
                        we = 1'b1; x_st = ST_INC;  // the stamp too (wr_ts)
                    end  // else the output is busy: the pass runs again (sw_again)
                end else if (b_prb) begin
                    x_uni = 1'b1;
                    if (req_ok) begin  // re-validation: unicast request, stamp kept
                        we = 1'b1; x_st = ST_PRB;
                    end  // else the output is busy: the pass runs again (sw_again)
                end
            end
            default: ;
        endcase
    end

    // read address
    always @* begin
        case (state)
            S_IDLE:  ra = lk_pend ? addr_of(lk_set, {WAY_W{1'b0}}) :
                          rx_can  ? addr_of(set_of(ev_spa), {WAY_W{1'b0}}) : sw_addr;
            S_SCAN:  ra = addr_of(cur_set, k + 1'b1);
            S_SWA, S_SWB: ra = sw_addr;  // read again: rd still holds the entry in S_SWD
            default: ra = sw_addr;
        endcase
    end

    // the key of the operation starting (S_IDLE: a waiting lookup first, else a received
    // frame; nothing starts while a write is pending)
    always @(posedge clk) begin
        if (state == S_IDLE && !wr_m) key <= lk_pend ? lk_nh : ev_spa;
    end

    // the decision's write, registered (datapath but for the enables)
    always @(posedge clk) begin
        wr_a <= wa; wr_st <= x_st;
        if (rst) begin
            wr_m <= 1'b0; wr_d <= 1'b0; wr_rx <= 1'b0;
        end else begin
            wr_m <= we; wr_d <= we_d;
            wr_rx <= (state == S_DEC) && (op == OP_RX);
        end
    end

    // answer MAC loads: zeroed as a lookup's scan starts (rm_init), then loaded from the
    // MAC memory's read while the set is scanned: the matching way's (rm_scan; an IP is
    // in at most one way of its set; rd_mac is the MAC of way a_k), or for a broadcast
    // or multicast lookup the reserved word read in place of the first way's (rm_bm,
    // the multicast IP's low 23 bits ORed in), so that it holds the answer's MAC, 0 for
    // a miss, by the decision (only a fresh match of a lookup that can hit loads it)
    // (registered: rm_init is the first cycle of a lookup's scan, S_SCAN with k = 0,
    // rm_ld that or the cycle after it for a broadcast or multicast lookup, when rd_mac
    // holds the reserved word; a_lkok includes the way's liveness, so the IP compare
    // alone is ANDed in: the register's enable is two LUT4s from flip-flops)
    wire        rm_scan = a_lkok && a_ipeq && !old_exp;
    reg         rm_ld;
    always @(posedge clk) begin
        rm_init <= !rst && (state == S_IDLE) && !wr_m && lk_run;
        rm_ld <= !rst && (((state == S_IDLE) && !wr_m && lk_run) || mac_bm);
    end

    // counter strobes, registered
    // (a lookup's: its answer, arp_resp_valid with arp_resp_hit)
    wire        k_hit  = arp_resp_valid && arp_resp_hit;
    wire        k_miss = arp_resp_valid && !arp_resp_hit;
    // (a received frame's: the cycle after its decision, from the event slot, which
    // still holds it; an eviction: the cycle of the write of a new entry that found
    // neither its key nor a free way, which m_any and f_any still say)
    wire        k_evict = wr_d && !m_any && !f_any;
    wire        k_reqrx = wr_rx && ev_answer;
    wire        k_refused = wr_rx && ev_ask_rx && cfg_ip_set && !cfg_answer;
    wire        k_reprx = wr_rx && ev_reply;
    wire        k_confl = wr_rx && ev_confl;
    reg         k_exp, k_tmo;
    always @(posedge clk) begin
        k_exp <= i_exp; k_tmo <= i_tmo;
    end

    // per-way scan results (datapath, not reset)
    always @(posedge clk) begin
        if (a_scan) begin
            if (a_first || !m_any) begin  // the first matching way counts
                if (a_match) m_way <= a_k;
                m_fresh <= a_match && a_live && !old_exp;
                m_inc   <= a_match && (a_st == ST_INC);
                m_reval <= a_match && (a_st == ST_VAL) && old_reval;
            end
            if (a_first) m_any <= a_match;
            else if (a_match) m_any <= 1'b1;
            if (a_free && (a_first || !f_any)) f_way <= a_k;
            if (a_first) f_any <= a_free;
            else if (a_free) f_any <= 1'b1;
            // (o_way, o_tsn: above)
        end
    end

    // ------------------------------------------------------------------ sequential
    always @(posedge clk) begin
        if (rst) begin
            state <= S_INIT; op <= OP_SW; k <= {WAY_W{1'b0}};
            cur_set <= {SET_W{1'b0}}; init_addr <= {AW{1'b0}};
            sw_addr <= {AW{1'b0}}; sw_left <= {SWL_W{1'b0}}; sw_again <= 1'b0;
            sw_late <= 1'b0;
            now_n <= {TS_W{1'b1}};
            d_exp <= ONE_T - EXPIRE_T;
            lk_pend <= 1'b0; lk_seen <= 1'b0;
            memo_valid <= 1'b0;
            arp_resp_valid <= 1'b0; arp_resp_hit <= 1'b0;
            ev_done <= 1'b0; ev_sent <= 1'b0; ev_rel <= 1'b0; reply_want_r <= 1'b0;
            garp_pend <= 1'b1; garp_hold <= HOLD_N; garp_ok <= 1'b0;
            prev_mac <= cfg_mac; chg_b <= 10'd0; cfg_chg <= 1'b0;
            cfg_ip_set <= 1'b0;
        end else begin
            arp_resp_valid <= 1'b0;

            if (tick_1ms) begin
                now_n <= now_n - 1'b1;
                d_exp <= d_exp + 1'b1;
            end

            // lookup request (a repeated one loads the same values again)
            if (lk_new) lk_pend <= 1'b1;
            if (lk_take) lk_seen <= 1'b1;
            if (lk_take) begin
                lk_ip <= arp_req_ip;
                lk_local <= q_local;
            end
            lk_bm <= (lk_ip == 32'hffffffff) || lk_mcast ||
                     (lk_local && ((lk_ip & host_mask) == host_mask) && host_mask[1]);

            // background pass: every entry once per millisecond, and again when an
            // entry was due while the transmitter was busy
            if (tick_1ms || (sw_again && !tx_busy && !sw_can)) begin
                sw_left <= ENTRIES_I[SWL_W-1:0];
                sw_again <= 1'b0;
            end

            // engine
            case (state)
                S_INIT: begin
                    init_addr <= init_addr + 1'b1;
                    if (init_addr == ENTRIES_M1[AW-1:0]) state <= S_IDLE;
                end
                S_IDLE: begin
                    k <= {WAY_W{1'b0}};
                    if (wr_m) begin
                        // the last decision's write: nothing starts (a lookup taken
                        // now waits as lk_pend)
                    end else if (lk_pend) begin
                        // (a repeat answered now: nothing starts)
                        if (lk_run) begin
                            op <= OP_LK; cur_set <= lk_set; state <= S_SCAN;
                        end
                    end else if (rx_can) begin
                        op <= OP_RX; cur_set <= set_of(ev_spa); state <= S_SCAN;
                    end else if (sw_can) begin
                        op <= OP_SW; state <= S_SWA;
                    end
                end
                S_SCAN: begin
                    k <= k + 1'b1;
                    if (k == WAYS_M1[WAY_W-1:0]) state <= S_LAST;
                end
                S_LAST: state <= S_DEC;
                S_SWA: state <= S_SWB;
                S_SWB: state <= S_SWD;
                S_DEC: begin
                    state <= S_IDLE;
                    if (op == OP_LK) lk_pend <= 1'b0;
                    else ev_done <= 1'b1;
                end
                S_SWD: begin
                    state <= S_IDLE;
                    if (sw_left != {SWL_W{1'b0}} && !tick_1ms) sw_left <= sw_left - 1'b1;
                    sw_addr <= sw_addr + 1'b1;
                end
                default: state <= S_IDLE;
            endcase
            // (a request due while the output was busy: written out from the registered
            // flags; when it was busy with a reply or a gratuitous ARP starting then,
            // sw_again is set the next cycle, when the transmitter is busy, which
            // keeps the receive slot's flags off its enable)
            sw_late <= (state == S_SWD) && b_send && !tx_busy && tx_first;
            if ((state == S_SWD && b_send && tx_busy) || (sw_late && !tick_1ms))
                sw_again <= 1'b1;
            if (wr_kick) begin
                sw_addr <= wr_a;
                sw_left <= ENTRIES_I[SWL_W-1:0];
            end

            // lookup response
            if (x_resp) begin
                arp_resp_valid <= 1'b1;
                arp_resp_hit <= x_hit;
            end
            if (memo_hit) begin
                arp_resp_valid <= 1'b1;  // arp_resp_hit and arp_resp_mac are unchanged
                if (RL2) lk_pend <= 1'b0;
            end
            // (writes that cannot change a hit's answer do not count: the background
            // pass's, which expire entries a full lookup already sees as expired, and a
            // re-validation's, which keeps the MAC). A new lookup forgets it the cycle
            // after its handshake (lk_pend; no lookup is taken then), which keeps the
            // repeat compare off memo_valid's enable.
            if (wr_d || state == S_INIT || tick_1ms || cfg_chg) memo_valid <= 1'b0;
            else if (x_resp) memo_valid <= x_hit;
            else if (lk_pend && !lk_chk) memo_valid <= 1'b0;

            // answer MAC: 0 as a lookup's scan starts (the register's synchronous
            // reset); then the way's that hits, if one does, or the broadcast or
            // multicast MAC (the reserved word; lk_mcast implies lk_bm, so a hit ORs in
            // nothing), while the set is scanned (rm_init comes before any rm_scan or
            // rm_bm of the scan, and a memorised answer is forgotten by then: lk_pend)
            if (rm_init) arp_resp_mac <= 48'd0;
            else if (rm_ld || rm_scan)
                arp_resp_mac <= rd_mac | {25'd0, lk_ip[22:0] & {23{lk_mcast}}};

            // receive slot: reply handed over, event processed; both cleared on release
            // (a reply or a gratuitous ARP starts when the transmitter is free: tx_go is
            // tx_free then, which is shallower)
            if (reply_want && tx_free) ev_sent <= 1'b1;
            // (ev_done implies ev_valid; a new event is loaded only once released)
            ev_rel <= !ev_rel && (ev_done || (state == S_DEC && op == OP_RX)) &&
                      (ev_sent || (reply_want && tx_free) || !ev_ask_us || !cfg_ip_nz);
            if (ev_ready) begin
                ev_done <= 1'b0; ev_sent <= 1'b0;
            end
            // (the next ev_valid && ev_ask_us, cfg_ip_set and !ev_sent: ev_sent is 0 while
            // the slot is empty and after a release, else it sets with the reply's start)
            reply_want_r <= ev_ask_nx && cfg_ip_nz &&
                            (ev_ready || !(ev_sent || (reply_want && tx_free)));

            // transmitter
            if (tx_garp && tx_free) garp_pend <= 1'b0;

            // gratuitous ARP after reset and on address change, once stable
            prev_mac <= cfg_mac;
            cfg_ip_set <= cfg_ip_nz;
            garp_ok <= !cfg_chg && cfg_ip_nz &&
                       ((garp_hold == {HOLD_W{1'b0}}) ||
                        (tick_1ms && garp_hold == {{(HOLD_W-1){1'b0}}, 1'b1}));
            for (ci = 0; ci < 6; ci = ci + 1)
                chg_b[ci] <= (cfg_mac[8*ci +: 8] != prev_mac[8*ci +: 8]);
            for (ci = 0; ci < 4; ci = ci + 1)
                chg_b[6 + ci] <= (cfg_ip[8*ci +: 8] != cfg_ip_q[8*ci +: 8]);
            cfg_chg <= |chg_b;
            if (cfg_chg) begin
                garp_pend <= 1'b1; garp_hold <= HOLD_N;
            end else if (tick_1ms && garp_hold != {HOLD_W{1'b0}}) begin
                garp_hold <= garp_hold - 1'b1;
            end

            // another station claims our address: defend it with an announcement
            if (k_confl) garp_pend <= 1'b1;
        end
    end

    assign {cnt_ev[13:7], cnt_ev[4:0]} = {k_refused, k_confl, k_evict, k_exp, k_tmo, k_miss,
                                          k_hit, k_reprx,
                                          tx_done && tx_kind == 2'd1, tx_done && tx_kind[1],
                                          tx_done && tx_kind == 2'd0, k_reqrx};

endmodule

`default_nettype wire
