`default_nettype none
// icmp_echo: answers ICMP echo requests. Takes ip_rx's ICMP output (header bus + the ICMP
// message) and produces the whole Ethernet echo-reply frame (no FCS) by cut-through: the
// reply starts while the request is still arriving.
//
// Reply: Ethernet dst = request's source MAC, src = cfg_mac, type 0x0800; IPv4 version 4,
// IHL 5, TOS 0, total length = len+20, identification from a counter, no flags, TTL
// cfg_ttl, protocol 1, source = the request's destination IP, destination = request's source IP, header checksum
// computed; ICMP type 0, code, identifier, sequence and data copied, checksum updated
// incrementally for the type change (RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), m = 0x0800,
// m' = 0x0000).
//
// ICMP checksum verification (RFC 1122 3.2.2: a message with a bad checksum is silently
// discarded): the one's-complement sum of the whole message is accumulated as it enters
// the FIFO (per beat, in three registered stages that end as the message's last beat
// reaches the FIFO's output, so nothing waits for it) and must be 0xFFFF. A message whose
// checksum is bad, while its frame was good (no tuser), is discarded: one answered once
// entirely buffered (under 26 bytes, see below) is dropped before any reply byte leaves;
// one answered by cut-through has its reply, already under way, end with tuser=1 (the MAC
// aborts it with a bad FCS, nothing good-looking leaves). Both are counted as bad_csum.
//
// How it is cut through: at KEEP_W >= 4 the first message beat holds type, code and
// checksum; it is inspected without being taken, the 34-byte Ethernet+IPv4 header is
// emitted, and the beat is changed on its way through. At KEEP_W < 4 (8 bits) the first
// 4 message bytes are taken into registers, then emitted as the last 4 header bytes (38).
//
// Not answered (consumed, counted as dropped): every message while cfg_answer is 0 (taken
// at the message's header), ICMP types other than 8, requests to a
// broadcast address, messages shorter than 8 bytes, requests that end (tlast) within their
// first 4 bytes (cut short: nothing after the type, code and checksum). A request whose
// last beat carries tuser (bad FCS, truncated) gets a reply that ends with tuser (the MAC
// aborts it on the wire), counted as aborted (whatever its checksum). Every request's
// message is counted exactly once: as dropped (not an answerable echo request), else
// aborted (frame bad), else bad_csum (checksum bad), else replies.
//
// Parameters: DATA_W (8 or 64; KEEP_W 1, 2 or >= 4), KEEP_W = DATA_W/8.
// Interfaces:
//   cfg_mac[47:0], cfg_ttl[7:0] (the reply's source IP is the request's destination),
//   cfg_answer (1: answer echo requests; 0: consume and count every message as dropped)
//   s_hdr_valid, s_hdr_ready, s_hdr_src_mac[47:0], s_hdr_src_ip[31:0], s_hdr_dst_ip[31:0],
//   s_hdr_protocol[7:0], s_hdr_len[15:0] (ICMP message bytes), s_hdr_broadcast: ip_rx's
//   ICMP header bus; s_axis_*: the ICMP message (exactly len bytes, tuser on the last beat
//   = bad); m_axis_*: reply frames.
//   cnt_ev[3:0]: event strobes, one cycle each, one cycle after the event (registered),
//     for counters kept in stat_counters (read them while rst is low): bit 0 replies,
//     bit 1 aborted, bit 2 dropped, bit 3 bad_csum (the verdicts above).
//   The message must follow its header (docs/conventions.md: the header is transferred
//   before or with the first beat); a producer that offers the next message early is
//   held (s_axis_tready = 0) while a whole message waits in the FIFO (see below).
// The message enters through a 32-byte stream_fifo; a message under 26 bytes (its request
// frame carried Ethernet padding, whose passing delays the message's last byte) is only
// answered once it is entirely in the FIFO, so that the reply never waits mid-frame.
// Latency (measured, bench/tx_latency.py): first reply byte 4 cycles after the header
// handshake at 64 bits and 8 at 8 bits when the message follows at line rate; message
// bytes then pass through. The checksum verdict relies on stream_fifo's latency of 3
// cycles (a beat written in cycle t is presented at t+3): see the checksum section below.
module icmp_echo #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,

    input  wire [47:0]       cfg_mac,
    input  wire [7:0]        cfg_ttl,
    input  wire              cfg_answer,  // 1: answer echo requests; 0: drop them

    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_src_mac,
    input  wire [31:0]       s_hdr_src_ip,
    input  wire [31:0]       s_hdr_dst_ip,
    input  wire [7:0]        s_hdr_protocol,
    input  wire [15:0]       s_hdr_len,
    input  wire              s_hdr_broadcast,

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

    output wire [3:0]        cnt_ev
);
    localparam CAP  = (KEEP_W < 4) ? 1 : 0;        // first 4 bytes taken into registers
    localparam HDRB = CAP ? 38 : 34;               // bytes emitted before the passed part
    localparam NCAP = CAP ? (4 / KEEP_W) : 1;      // beats captured

    // The message goes through a small FIFO. A short message (one whose request frame
    // carried Ethernet padding: under 26 bytes) is answered only once it is entirely in
    // the FIFO: the receive side releases such a message's last byte only after the
    // padding has passed, and a reply already under way would have to wait for it in the
    // middle of its frame (an underflow the MAC turns into an aborted frame).
    localparam FDEPTH = (32 / KEEP_W < 4) ? 4 : 32 / KEEP_W;
    wire [DATA_W-1:0] f_tdata;
    wire [KEEP_W-1:0] f_tkeep;
    wire              f_tvalid, f_tlast, f_tuser;
    reg               f_tready;
    wire              q_tready;
    reg               c_in;  // a message's last beat is in the FIFO (input closed, see below)
    assign s_axis_tready = q_tready && !c_in;
    stream_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FDEPTH)) q (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid && !c_in), .s_axis_tready(q_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
        .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser)
    );
    wire       out_end = f_tvalid && f_tready && f_tlast;  // a message's last beat leaves

    // ICMP checksum of each message, summed as it enters the FIFO. Stage 1 (cycle t, the
    // beat's handshake): the beat's 16-bit words summed (bytes without tkeep are zero; the
    // message starts at byte lane 0, so a word's high byte is at an even offset; at 8 bits a
    // byte toggles between high and low). Stage 2 (t+1): the accumulator, kept with its
    // end-around carries deferred (acc[15:0] + acc[CKW-1:16] + the beat's sum cannot
    // overflow CKW bits, so no carry is ever lost). Stage 3 (t+2): the test: the one's-
    // complement sum folds to 0xFFFF exactly when hi + lo = 0xFFFF (hi = the few deferred
    // carry bits, so hi + lo < 0x1FFFE), i.e. lo = ~hi, tested without an adder. The verdict
    // is written at the end of cycle t+2 into a one-entry register, valid at t+3; the FIFO
    // presents the last beat at t+3 at the earliest, so the verdict is always there in time.
    //
    // One entry is enough because the header bus convention (docs/conventions.md: a
    // message's header is transferred before or with its first beat) and this module's
    // header handshake (taken only once the previous reply has left the engine) leave at
    // most one whole message in the FIFO: the next message's beats enter only after its
    // header, which is taken after the previous message's last beat has left the FIFO.
    // A producer that breaks the convention (offers the next message before its header
    // was taken) is held: the FIFO's input is closed (s_axis_tready = 0) while a message's
    // last beat is in the FIFO, so a verdict is never overwritten before it was used
    // (never corrupt) and the held message enters once the one before it has left (never
    // a hang: the FIFO empties whatever the next header does).
    localparam CKW = (KEEP_W == 1) ? 17 : 19;     // accumulator bits (16 + deferred carries)
    wire       in_fire = s_axis_tvalid && s_axis_tready;
    reg [17:0] ck_w;                               // stage 1: this beat's word sum
    reg        ck_v, ck_l, ck_u;
    reg [CKW-1:0] ck_acc, ck_fin;                  // stage 2
    reg        ck_fv, ck_fu;
    reg        ck_odd;                             // 8 bits: next byte is a low byte
    reg        q_head;                             // verdict: checksum bad, frame good
    reg        q_have;                             // the verdict is written, not yet used
    // fold(hi + lo) = 0xFFFF  <=>  hi + lo = 0xFFFF (hi < 8)  <=>  lo = ~hi
    wire        ck_good = (ck_fin[15:0] == ~{{(32 - CKW) {1'b0}}, ck_fin[CKW-1:16]});
    wire        ck_new  = !ck_good && !ck_fu;      // verdict being written
    wire [17:0] beat_sum;
    generate
        if (KEEP_W == 1) begin : g_ck8
            assign beat_sum = ck_odd ? {10'd0, s_axis_tdata[7:0]} : {2'd0, s_axis_tdata[7:0], 8'd0};
        end else begin : g_ckw
            reg [17:0] bs;
            integer i;
            always @* begin
                bs = 18'd0;
                for (i = 0; i < KEEP_W / 2; i = i + 1)
                    bs = bs + {2'd0,
                               s_axis_tkeep[2*i]   ? s_axis_tdata[16*i +: 8]     : 8'd0,
                               s_axis_tkeep[2*i+1] ? s_axis_tdata[16*i + 8 +: 8] : 8'd0};
            end
            assign beat_sum = bs;
        end
    endgenerate
    wire q_pop = out_end;
    // at 8 bits the deferred carry is one bit: it enters the adder as its carry-in (the
    // low bit of a one-bit-wider add), so the sum is one carry chain, not two in a row
    wire [CKW-1:0] ck_sum;
    generate
        if (CKW == 17) begin : g_ci
            /* verilator lint_off UNUSEDSIGNAL */
            wire [17:0] ck_sx = {1'b0, ck_acc[15:0], 1'b1} + {ck_w[16:0], ck_acc[16]};
            wire        ck_w17 = ck_w[17];  // (0 at 8 bits: a byte in either half)
            /* verilator lint_on UNUSEDSIGNAL */
            assign ck_sum = ck_sx[17:1];
        end else begin : g_c3
            /* verilator lint_off WIDTH */
            assign ck_sum = {{(CKW - 16) {1'b0}}, ck_acc[15:0]} + ck_acc[CKW-1:16] + ck_w;
            /* verilator lint_on WIDTH */
        end
    endgenerate
    always @(posedge clk) begin
        ck_v <= in_fire;
        ck_l <= in_fire && s_axis_tlast;
        ck_u <= s_axis_tuser;
        if (in_fire) begin
            ck_w   <= beat_sum;
            ck_odd <= !ck_odd && !s_axis_tlast;
        end
        ck_fv <= ck_v && ck_l;
        if (ck_v) begin
            if (ck_l) begin
                ck_fin <= ck_sum;
                ck_fu  <= ck_u;
                ck_acc <= {CKW{1'b0}};
            end else begin
                ck_acc <= ck_sum;
            end
        end
        if (ck_fv) q_head <= ck_new;
        if (q_pop) q_have <= 1'b0;
        if (ck_fv) q_have <= 1'b1;
        // closed by a message's last beat entering, open again when it leaves; written as
        // the next value (while closed no beat enters, so the close needs no c_in): the
        // input handshake reaches c_in through one gate, not through in_fire
        c_in <= c_in ? !q_pop : (s_axis_tvalid && q_tready && s_axis_tlast);
        if (rst) begin
            ck_v   <= 1'b0;
            ck_l   <= 1'b0;
            ck_fv  <= 1'b0;
            ck_odd <= 1'b0;
            ck_acc <= {CKW{1'b0}};
            q_head <= 1'b0;
            q_have <= 1'b0;
            c_in   <= 1'b0;
        end
    end

    reg  r_short;  // the request's message is under 26 bytes
    // a short message goes once it is whole in the FIFO and its checksum verdict written
    wire ready_go = !r_short || q_have;

    localparam [1:0] S_IDLE = 2'd0, S_PEEK = 2'd1, S_CAP = 2'd2, S_RUN = 2'd3;
    reg [1:0] st;
    // decodes of the state kept as registers (each the next value of its logic), so that
    // the FIFO's read handshake and the engine's start are one gate from flip-flops:
    reg       s_capm;   // st == S_CAP && cc != NCAP: a first byte still to capture
    reg       s_capd;   // st == S_CAP && cc == NCAP: the first bytes captured
    reg       s_run;    // st == S_RUN
    // made with the first captured beat (the type byte; 8 bits): the request is answerable
    // (header acceptable and an echo request), and the reply may start once the capture
    // is done (not answerable, or not short: no wait for the checksum verdict)
    reg       c_echo, c_go;

    // per request
    reg [47:0] r_mac, t_mac;
    reg [31:0] r_ip, t_ip;
    reg [7:0]  t_ttl;
    reg [15:0] r_len, r_id;
    reg        r_ok;          // header acceptable (not broadcast, length >= 8)
    wire [15:0] ip_csum;  // the reply's IPv4 header checksum (below)
    /* verilator lint_off UNUSEDSIGNAL */
    reg        first;         // next message beat is the first one (used when KEEP_W >= 4)
    /* verilator lint_on UNUSEDSIGNAL */
    reg [31:0] cap;           // captured message bytes 0..3, byte 0 in [7:0]
    reg [2:0]  cc;            // beats captured

    // engine
    wire       eng_can;
    reg        eng_start, eng_drop, eng_bad;  // eng_bad: dropped for its checksum
    wire [15:0] eng_len = r_len;  // the bytes passed through (less the captured 4 at 8 bits)

    assign s_hdr_ready = (st == S_IDLE) && eng_can;
    wire hdr_fire = s_hdr_valid && s_hdr_ready;

    // IPv4 header checksum (ip_csum). The words summed: total length,
    // identification, 0x4500 + (TTL << 8 | protocol 1), source and destination IP, all
    // registered at the header's handshake and held until the reply has left.
    reg  [15:0] tot;
    generate
        if (KEEP_W == 1) begin : g_ser
            // 8 bits: one adder, a word a cycle (first needed in reply byte 24, more than
            // 30 cycles after the header). The one-hot step register (cq) selects the
            // operand (cop, registered, 0 outside the steps) in cycles 1-8 after the
            // handshake (the words in cycles 2-9); the sum (cacc) is cleared in cycle 1
            // and its carry out of bit 15 added back the next cycle (ccy), so acc + cy
            // stays congruent to the sum modulo 0xffff and two cycles of zero operands
            // after the last word absorb the carries: final from cycle 12. It equals the
            // folded sum: the words
            // include the nonzero 0x4501, and acc and cy are never both 0 once a nonzero
            // word has been added, so the result lies in 1..0xffff, as a fold's does.
            reg  [7:0]  cq;
            reg  [15:0] cop, cacc;
            reg         ccy;
            always @(posedge clk) begin
                // (a handshake restarts the steps: the header before may have been taken
                // only a few cycles earlier, when its message ended within its first 4
                // bytes, which is not answered. The sum is cleared in the first step's
                // cycle, cq[0], a flip-flop, which also drops the operand of that cycle,
                // made from the steps before the restart: so the handshake reaches neither
                // the sum's 17 clears nor the operand)
                if (cq[0]) begin
                    cacc <= 16'd0;
                    ccy  <= 1'b0;
                end else begin
                    {ccy, cacc} <= {1'b0, cacc} + {1'b0, cop} + {16'd0, ccy};
                end
                cq  <= hdr_fire ? 8'd1 : {cq[6:0], 1'b0};
                cop <= (tot & {16{cq[0]}}) | (r_id & {16{cq[1]}}) |
                       (16'h4501 & {16{cq[2]}}) | ({t_ttl, 8'h00} & {16{cq[3]}}) |
                       (t_ip[31:16] & {16{cq[4]}}) | (t_ip[15:0] & {16{cq[5]}}) |
                       (r_ip[31:16] & {16{cq[6]}}) | (r_ip[15:0] & {16{cq[7]}});
                if (rst) cq <= 8'd0;
            end
            // (the operands stay 0 after the last step, so the sum holds until the next
            // handshake: no register of its own; the inversion folds into the header
            // byte select)
            assign ip_csum = ~cacc;
        end else begin : g_par
            // wider: in four registered steps at 64 bits (ready 4 cycles after the header,
            // first needed in the 4th reply beat, which is 5 cycles after it at least); at
            // 16 bits in five, one 2-input adder per stage
            reg  [16:0] sa, sc;
            reg  [17:0] sb;
            reg  [15:0] sd;
            reg  [18:0] ssum;
            reg  [16:0] sf1;  // first fold, registered (one carry chain per stage)
            wire [15:0] sf2 = sf1[15:0] + {15'd0, sf1[16]};
            reg  [15:0] ip_csum_r;
            always @(posedge clk) begin
                sa   <= {1'b0, tot} + {1'b0, r_id};
                // 0x4500 + (TTL << 8 | protocol 1) = (TTL + 0x45) << 8 | 1: one 8-bit adder
                sb   <= {({1'b0, t_ttl} + 9'h045), 8'd1} + {2'b0, t_ip[31:16]};
                sc   <= {1'b0, t_ip[15:0]} + {1'b0, r_ip[31:16]};
                sd   <= r_ip[15:0];
                sf1  <= {1'b0, ssum[15:0]} + {14'd0, ssum[18:16]};
                ip_csum_r <= ~sf2;
            end
            assign ip_csum = ip_csum_r;
            if (CAP != 0) begin : g_sum2
                reg [18:0] sab;
                reg [17:0] scd;
                always @(posedge clk) begin
                    sab  <= {1'b0, sb} + {2'b0, sa};
                    scd  <= {1'b0, sc} + {2'b0, sd};
                    ssum <= sab + {1'b0, scd};
                end
            end else begin : g_sum1
                always @(posedge clk) ssum <= {2'b0, sa} + {1'b0, sb} + {2'b0, sc} + {3'b0, sd};
            end
        end
    endgenerate

    // type/code/checksum seen: in the first beat (KEEP_W >= 4) or captured (8 bits)
    wire [31:0] head4;
    wire [31:0] cap_next;
    generate
        if (CAP != 0) begin : g_cap
            assign head4    = cap;
            assign cap_next = {f_tdata, cap[31:DATA_W]};
        end else begin : g_peek
            assign head4    = f_tdata[31:0];
            assign cap_next = cap;
        end
    endgenerate
    wire        is_echo = (head4[7:0] == 8'd8);
    // KEEP_W >= 4: the message goes on past the peeked first beat or past its 4th byte in
    // it (a request that ends within its first 4 bytes is not answered, as the capture at
    // 8 and 16 bits finds: the capture takes those bytes, with any tlast among them)
    wire        peek4 = (CAP != 0) || !f_tlast || ((KEEP_W > 4) && f_tkeep[(KEEP_W > 4) ? 4 : 0]);
    // ICMP checksum update for type 8 -> 0: HC' = ~(~HC + ~0x0800), end-around carry. At
    // 8 bits the sum is registered before its fold (the capture ends more than 30 cycles
    // before the changed bytes are sent), so each stage has one 16-bit carry chain
    wire [16:0] hs_n    = {1'b0, ~{head4[23:16], head4[31:24]}} + 17'h0f7ff;
    reg  [16:0] hs_r;
    always @(posedge clk) hs_r <= hs_n;
    wire [16:0] hs      = CAP ? hs_r : hs_n;
    wire [15:0] hs_f    = hs[15:0] + {15'd0, hs[16]};
    wire [15:0] hc_new  = ~hs_f;
    wire [31:0] head4_n = {hc_new[7:0], hc_new[15:8], head4[15:8], 8'd0};
    // at 8 bits the changed bytes go out as header bytes 34..37, read through the header
    // byte select: registered here (the capture ends more than 30 cycles before they are
    // sent), which keeps the checksum update's adders off the output path
    reg  [31:0] head4_r;
    always @(posedge clk) head4_r <= head4_n;
    wire [31:0] head4_h = CAP ? head4_r : head4_n;

    always @(posedge clk) begin
        if (hdr_fire) begin
            r_mac <= s_hdr_src_mac;
            r_ip  <= s_hdr_src_ip;
            r_len <= CAP ? (s_hdr_len - 16'd4) : s_hdr_len;
            tot   <= s_hdr_len + 16'd20;
            // < 26 and >= 8 written as bit tests (no 16-bit carry chains)
            r_short <= ~|s_hdr_len[15:5] && (s_hdr_len[4:0] < 5'd26);
            r_ok  <= cfg_answer && !s_hdr_broadcast && (|s_hdr_len[15:3]) &&
                     (s_hdr_protocol == 8'd1);
            t_mac <= cfg_mac;
            t_ip  <= s_hdr_dst_ip;
            t_ttl <= cfg_ttl;
        end
    end

    // control
    always @* begin
        eng_start     = 1'b0;
        eng_drop      = 1'b0;
        eng_bad       = 1'b0;
        if (CAP == 0) begin
            if (st == S_PEEK && f_tvalid) begin
                eng_bad   = r_ok && is_echo && peek4 && r_short && q_head;
                eng_drop  = !(r_ok && is_echo && peek4) || eng_bad;
                eng_start = !(r_ok && is_echo && peek4) || ready_go;
            end
        end else if (s_capd) begin
            // (c_go || q_have) = !(r_ok && is_echo) || ready_go, from registers
            eng_bad   = c_echo && r_short && q_head;
            eng_drop  = !c_echo || eng_bad;
            eng_start = c_go || q_have;
        end
    end

    wire cap_fire = s_capm && f_tvalid;

    always @(posedge clk) begin
        case (st)
            S_IDLE: if (hdr_fire) begin
                st     <= CAP ? S_CAP : S_PEEK;
                s_capm <= (CAP != 0);
                cc     <= 3'd0;
                first  <= 1'b1;
            end
            S_PEEK: if (eng_start) begin
                st    <= S_RUN;
                s_run <= 1'b1;
            end
            S_CAP: begin
                if (cap_fire) begin
                    cap <= cap_next;
                    cc  <= cc + 3'd1;
                    if (f_tlast) begin
                        st     <= S_IDLE;  // ended too early: nothing to answer
                        s_capm <= 1'b0;
                    end else if (cc == NCAP[2:0] - 3'd1) begin
                        s_capm <= 1'b0;
                        s_capd <= 1'b1;
                    end
                end
                if (eng_start) begin
                    st     <= S_RUN;
                    s_capd <= 1'b0;
                    s_run  <= 1'b1;
                end
            end
            S_RUN: begin
                if (eng_s_tvalid && eng_s_tready) first <= 1'b0;
                if (eng_can) begin
                    st    <= S_IDLE;
                    s_run <= 1'b0;
                end
            end
            default: st <= S_IDLE;
        endcase
        // made from the type byte while it is awaited (an enable from flip-flops only, not
        // the FIFO's tvalid): the last load is the one that takes the byte (cc leaves 0
        // only then), and they are read only once the capture is done (s_capd)
        if (s_capm && cc == 3'd0) begin
            c_echo <= r_ok && (f_tdata[7:0] == 8'd8);
            c_go   <= !(r_ok && (f_tdata[7:0] == 8'd8)) || !r_short;
        end
        if (rst) begin
            st     <= S_IDLE;
            s_capm <= 1'b0;
            s_capd <= 1'b0;
            s_run  <= 1'b0;
        end
    end

    reg ev_sent_r, ev_ab_r, ev_abc_r, ev_drop_r, ev_bad_r;
    assign cnt_ev = {ev_abc_r || ev_bad_r, ev_drop_r, ev_ab_r, ev_sent_r};
    always @(posedge clk) begin
        if (hdr_fire) r_id <= r_id + 16'd1;
        // (the two drop events are exclusive: a start needs all 4 bytes captured)
        ev_drop_r <= (eng_start && eng_drop && !eng_bad) || (cap_fire && f_tlast);
        ev_bad_r  <= eng_start && eng_bad;
        // the events are registered (one cycle late): keeps the handshakes off the
        // counters' paths
        ev_sent_r <= ev_sent;
        ev_ab_r   <= ev_abort && !ab_csum_now;
        ev_abc_r  <= ev_abort && ab_csum_now;
        if (eng_start) r_drop <= eng_drop;
        if (csum_last) ab_csum <= 1'b1;
        if (ev_sent || ev_abort) ab_csum <= 1'b0;
        if (rst) begin
            r_id        <= 16'hffff;  // the first reply carries 0
            ab_csum     <= 1'b0;
            r_drop      <= 1'b0;
            ev_sent_r   <= 1'b0;
            ev_ab_r     <= 1'b0;
            ev_abc_r    <= 1'b0;
            ev_drop_r   <= 1'b0;
            ev_bad_r    <= 1'b0;
        end
    end

    // the reply header (38 bytes, of which HDRB are used), byte 0 in [7:0]
    /* verilator lint_off UNUSEDSIGNAL */
    wire [38*8-1:0] hv = {
        head4_h,
        r_ip[7:0], r_ip[15:8], r_ip[23:16], r_ip[31:24],
        t_ip[7:0], t_ip[15:8], t_ip[23:16], t_ip[31:24],
        ip_csum[7:0], ip_csum[15:8], 8'd1, t_ttl,
        8'h00, 8'h00, r_id[7:0], r_id[15:8],
        tot[7:0], tot[15:8], 8'h00, 8'h45, 8'h00, 8'h08,
        t_mac[7:0], t_mac[15:8], t_mac[23:16], t_mac[31:24], t_mac[39:32], t_mac[47:40],
        r_mac[7:0], r_mac[15:8], r_mac[23:16], r_mac[31:24], r_mac[39:32], r_mac[47:40]
    };
    /* verilator lint_on UNUSEDSIGNAL */

    // message into the engine: the first beat changed on its way (KEEP_W >= 4)
    wire [DATA_W-1:0] mod_beat;
    generate
        if (CAP == 0) begin : g_mod
            if (DATA_W > 32) begin : g_wide
                assign mod_beat = first ? {f_tdata[DATA_W-1:32], head4_n} : f_tdata;
            end else begin : g_32
                assign mod_beat = first ? head4_n : f_tdata;
            end
        end else begin : g_pass
            assign mod_beat = f_tdata;
        end
    endgenerate

    wire eng_s_tvalid = s_run && f_tvalid;
    wire eng_s_tready;
    // a cut-through reply whose request had a bad checksum (and a good frame) ends aborted;
    // ab_csum / ab_csum_now tell the engine's abort event which counter it belongs to
    wire eng_s_tuser  = f_tuser || (f_tlast && q_head);
    wire csum_last    = eng_s_tvalid && eng_s_tready && f_tlast && q_head && !r_drop;
    reg  ab_csum;
    reg  r_drop;  // the engine is consuming a dropped message (no event will follow)
    wire ab_csum_now  = ab_csum || csum_last;
    // the engine takes payload only while it runs a frame (st == S_RUN: it is idle in
    // the other states, having been started from S_PEEK / S_CAP and left idle before
    // S_IDLE), so its tready needs no state gate
    always @* f_tready = s_capm || eng_s_tready;

    wire ev_sent, ev_abort;
    /* verilator lint_off UNUSEDSIGNAL */
    wire ev_long;  // cannot happen: ip_rx gives exactly len bytes
    /* verilator lint_on UNUSEDSIGNAL */
    /* verilator lint_off UNUSEDSIGNAL */
    wire eng_free;  // header registers are loaded before the engine starts, held to its end
    /* verilator lint_on UNUSEDSIGNAL */
    tx_prepend #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .HDR_BYTES(HDRB), .CHECK_LEN(1)
    ) eng (
        .clk(clk), .rst(rst),
        .start(eng_start), .start_drop(eng_drop), .start_len(eng_len), .can_start(eng_can),
        /* verilator lint_off PINCONNECTEMPTY */
        .hdr_free(eng_free), .hdr_free_nx(),  // (its next value is not used here)
        /* verilator lint_on PINCONNECTEMPTY */
        .hdr(hv[HDRB*8-1:0]),
        .s_axis_tdata(mod_beat), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(eng_s_tvalid),
        .s_axis_tready(eng_s_tready), .s_axis_tlast(f_tlast), .s_axis_tuser(eng_s_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .ev_sent(ev_sent), .ev_abort(ev_abort), .ev_long(ev_long)
    );
endmodule
`default_nettype wire
