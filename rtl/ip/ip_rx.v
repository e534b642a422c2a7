`default_nettype none
// ip_rx: IPv4 receive: header validation, padding strip, protocol demultiplexer.
//
// Input: eth_rx's IPv4 output: the Ethernet header bus (only src_mac is used) and the
// bytes after the Ethernet header (padding included), tuser on the last beat = bad frame.
// Checks, in this order, each with its own event strobe; a packet failing one is dropped
// whole and never comes out:
//   runt        the frame ends before the IP header does (cnt_ev bit 1)
//   version/IHL version != 4 or IHL < 5 (bit 2)
//   checksum    header checksum over IHL*4 bytes (options included) (bit 3)
//   length      total length < IHL*4 (bit 4)
//   destination not cfg_ip, 255.255.255.255 or the subnet broadcast (bit 5)
//   fragment    MF set or fragment offset != 0 (bit 6)
//   protocol    not ICMP (1) or UDP (17) (bit 7)
// Accepted packets come out on the ICMP or UDP port: header bus (src_mac, src_ip, dst_ip,
// protocol, len = total length - 4*IHL, broadcast) and the IP payload only (options
// skipped, Ethernet padding removed), exactly len bytes, realigned to lane 0. If the frame
// is shorter than the total length (bit 8) or the MAC flagged it, the payload's
// last beat carries tuser = 1. The header handshake completes before the first payload
// beat is offered.
// The checksum is summed per beat as the header arrives (one's-complement with the
// carries deferred into the next beat's add: 17 bits at DATA_W 8, 20 at 64; the beat's
// words registered first), then folded and compared in two more pipelined stages, so no
// path holds more than one short adder. At DATA_W 8 each byte is added to the sum
// rotated by 8 bits (multiplied by 256 modulo 0xFFFF), so no lane select is needed, and
// the destination checks (cfg_ip, 255.255.255.255, the subnet broadcast) are flags built
// one byte at a time (cfg_ip and cfg_netmask are sampled with the destination bytes;
// each byte's compares are registered with it and folded into the flags the cycle after,
// the flags' readers taking the folded value, so the input handshake is no flag's enable).
// At DATA_W 8 the payload is marked as the bytes enter the FIFO: header bytes and bytes
// past the total length go in with tkeep = 0 (and the last beat with tuser = 1 if the
// frame ends before the total length), so the strip has no skip or length counter; a
// truncated accepted packet is counted once both its end and its decision are known.
//
// At DATA_W 8 the fields held for the input packet (src_mac from eth_rx, the IP header
// window) are the ones presented on the header bus: the next input header is taken only
// once the current packet's command is gone, so no second copy is kept (at one byte per
// cycle the next header arrives long after). At DATA_W 64 the header bus has its own
// registers, so the next packet's header may be parsed while this one waits.
// For Fmax, s_axis_tready is one flip-flop of the FIFO (stream_fifo_g's gate: not full
// AND taking, active and not ended), at DATA_W 8 s_hdr_ready is one gate of flip-flops
// (both made from their next values: same cycle behaviour), push and restart are one
// gate of flip-flops (need, below), and m_icmp_hdr_valid / m_udp_hdr_valid and
// m_icmp_axis_tvalid / m_udp_axis_tvalid are flip-flops of the strip (m_hdr_valid_oh,
// m_axis_tvalid_oh). At DATA_W 8 the FIFO takes the beats through its input register
// (stream_fifo_g IN_REG), so eth_rx's tvalid reaches no enable of its memory side; the
// beat's extra cycle there costs no latency (the strip starts a packet only with its
// command, when the packet's header bytes already wait in the FIFO before the payload).
// Accepted packets' protocol field is 1 on the ICMP port and 17 on the UDP port (the
// m_*_hdr_protocol outputs are those constants).
// Parameters: DATA_W (8 or 64), KEEP_W, FIFO_DEPTH (beats held while the header, up to
//   60 bytes, is checked), TCP (0, or 1: protocol 6 is accepted too and leaves on the
//   TCP port m_tcp_*, as the others; with 0 that port is idle; 0 and 1 tested).
// cnt_ev[8:0]: event strobes, one cycle each (registered), for counters kept in
//   stat_counters (read them while rst is low): bit 0 packets delivered, 1 runt,
//   2 bad_hdr, 3 bad_csum, 4 bad_len, 5 not_for_us, 6 fragment, 7 bad_proto,
//   8 truncated (the checks above).
// Latency (no backpressure): first payload byte out about 4*IHL/KEEP_W + 6 cycles after
//   the first header beat (at DATA_W 64; 2 cycles fewer at DATA_W 8, where the strip starts
//   a packet in the cycle after its command); one beat per cycle sustained.
module ip_rx #(
    parameter integer DATA_W     = 8,
    parameter integer KEEP_W     = DATA_W / 8,
    parameter integer FIFO_DEPTH = (DATA_W == 8) ? 64 : 16,
    parameter integer TCP        = 0
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [31:0]       cfg_ip,
    input  wire [31:0]       cfg_netmask,
    // from eth_rx
    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_src_mac,
    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,
    // ICMP
    output wire              m_icmp_hdr_valid,
    input  wire              m_icmp_hdr_ready,
    output wire [47:0]       m_icmp_hdr_src_mac,
    output wire [31:0]       m_icmp_hdr_src_ip,
    output wire [31:0]       m_icmp_hdr_dst_ip,
    output wire [7:0]        m_icmp_hdr_protocol,
    output wire [15:0]       m_icmp_hdr_len,
    output wire              m_icmp_hdr_broadcast,
    output wire [DATA_W-1:0] m_icmp_axis_tdata,
    output wire [KEEP_W-1:0] m_icmp_axis_tkeep,
    output wire              m_icmp_axis_tvalid,
    input  wire              m_icmp_axis_tready,
    output wire              m_icmp_axis_tlast,
    output wire              m_icmp_axis_tuser,
    // UDP
    output wire              m_udp_hdr_valid,
    input  wire              m_udp_hdr_ready,
    output wire [47:0]       m_udp_hdr_src_mac,
    output wire [31:0]       m_udp_hdr_src_ip,
    output wire [31:0]       m_udp_hdr_dst_ip,
    output wire [7:0]        m_udp_hdr_protocol,
    output wire [15:0]       m_udp_hdr_len,
    output wire              m_udp_hdr_broadcast,
    output wire [DATA_W-1:0] m_udp_axis_tdata,
    output wire [KEEP_W-1:0] m_udp_axis_tkeep,
    output wire              m_udp_axis_tvalid,
    input  wire              m_udp_axis_tready,
    output wire              m_udp_axis_tlast,
    output wire              m_udp_axis_tuser,
    // TCP (TCP = 1)
    output wire              m_tcp_hdr_valid,
    input  wire              m_tcp_hdr_ready,
    output wire [47:0]       m_tcp_hdr_src_mac,
    output wire [31:0]       m_tcp_hdr_src_ip,
    output wire [31:0]       m_tcp_hdr_dst_ip,
    output wire [15:0]       m_tcp_hdr_len,
    output wire              m_tcp_hdr_broadcast,
    output wire [DATA_W-1:0] m_tcp_axis_tdata,
    output wire [KEEP_W-1:0] m_tcp_axis_tkeep,
    output wire              m_tcp_axis_tvalid,
    input  wire              m_tcp_axis_tready,
    output wire              m_tcp_axis_tlast,
    output wire              m_tcp_axis_tuser,
    // event strobes
    output wire [8:0]        cnt_ev
);
    localparam integer NB = (20 + KEEP_W - 1) / KEEP_W;
    localparam integer HW = NB * KEEP_W;
    localparam integer BW = $clog2(NB + 1);
    localparam integer SAW = $clog2(KEEP_W + 1);
    localparam HOLD = (KEEP_W == 1);
    localparam integer RW = (TCP != 0) ? 2 : 1;  // route: 0 ICMP, 1 UDP, 2 TCP
    localparam integer R_UDP_I = 1, R_TCP_I = 2 % (2**RW);
    localparam [RW-1:0] R_UDP = R_UDP_I[RW-1:0], R_TCP = R_TCP_I[RW-1:0];

    generate
        if (TCP != 0 && TCP != 1) begin : g_check_tcp
            ip_rx_TCP_must_be_0_or_1 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate  // header bus read from the parser's own registers

    // ---------------- parser ----------------
    // the event strobes are registered (short paths, Fmax)
    reg inc_truncated, inc_packets, inc_runt, inc_bad_hdr, inc_bad_csum, inc_bad_len, inc_not_for_us, inc_fragment, inc_bad_proto;
    assign cnt_ev = {inc_truncated, inc_bad_proto, inc_fragment, inc_not_for_us, inc_bad_len,
                     inc_bad_csum, inc_bad_hdr, inc_runt, inc_packets};
    // header window: TOS, identification, DF, TTL and checksum bytes are not read as
    // fields (the checksum is verified through the running sum)
    /* verilator lint_off UNUSEDSIGNAL */
    reg  [HW*8-1:0] win;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [BW-1:0]   bcnt;
    reg  [6:0]      flen;  // bytes seen, saturating at 64 (bit 6: past any header byte);
                           // DATA_W 64 only (DATA_W 8 counts bytes in bpos)
    reg  [6:0]      lim;  // header bytes to sum (4*IHL, 20 if IHL < 5), from the first beat
    reg  [6:0]      lim_kw;  // lim - KEEP_W: the header ends in a beat starting at or past it
                             // (DATA_W 8: lim, the header's last byte's 1-based index)
    reg             active;  // Ethernet header of the current packet taken
    reg             ended;
    reg             hdr_have;  // whole IP header (IHL*4 bytes) summed
    reg             ck0, ck1, ck2;  // checksum pipeline stages valid
    reg             first;  // the next beat is the packet's first
    // checksum accumulator: 16 bits plus deferred (end-around) carries; the sum is
    // acc_lo + acc_c modulo 0xFFFF
    localparam integer BSW = (KEEP_W == 1) ? 16 : 19;  // per-beat sum width
    localparam integer CW = (KEEP_W == 1) ? 1 : 4;  // deferred carry bits
    reg  [BSW-1:0]  bsum_r;  // registered per-beat sum (a pipeline stage for Fmax)
    reg             bs_v, bs_first;
    reg             pushed;
    reg  [15:0]     acc_lo;
    reg  [CW-1:0]   acc_c;
    reg  [16:0]     s1;
    reg             s1_ok;  // DATA_W 8: acc_lo + acc_c == 0xFFFF without an adder
    reg             csum_ok;
    reg             dst_ones;  // DATA_W 8: the destination bytes seen so far are all ff
    reg             dst_ip;  // DATA_W 8: ... equal cfg_ip's
    reg             dst_bc;  // DATA_W 8: ... equal the subnet broadcast's (cfg_ip | ~cfg_netmask)
    // DATA_W 8: the last byte's compares, registered with it, and whether it was a
    // destination byte (d_v) / the first one (d_first); the flags with it folded in
    reg             d_v, d_first, d_ones, d_ip, d_bc;
    wire dst_ones_eff = d_v ? (d_ones && (dst_ones || d_first)) : dst_ones;
    wire dst_ip_eff = d_v ? (d_ip && (dst_ip || d_first)) : dst_ip;
    wire dst_bc_eff = d_v ? (d_bc && (dst_bc || d_first)) : dst_bc;
    reg  [47:0]     cur_src_mac;
    // DATA_W 8: the payload is marked in the stream as it enters the FIFO (see below)
    reg  [15:0]     tlen_r;  // total length, from the window once header bytes 2, 3 are in
    localparam integer TL_B = (KEEP_W == 1) ? 4 : 0;  // (DATA_W 8: beats taken by then)
    reg  [15:0]     bpos;  // DATA_W 8: 1-based index of the next byte in the packet (wraps)
    // DATA_W 8: bpos[6:0] is 17..20 (a destination byte is next) / is 17 (the first one),
    // kept beside bpos (loaded as it is: 0 when it is set to 1, the next index's value
    // when it steps), so that the destination checks' enable reads a flip-flop
    reg             dwin, dfirst;
    reg             in_tl;  // the next byte lies within the total length
    reg             trunc_q;  // the packet ended before its total length

    reg             cmd_valid;
    wire            cmd_ready;
    reg             cmd_drop;
    reg [RW-1:0]    cmd_route;  // 0 ICMP, 1 UDP, 2 TCP
    reg  [5:0]      cmd_skip;
    reg  [15:0]     cmd_len;
    // header bus registers (DATA_W 64 only, see HOLD)
    reg  [47:0]     cmd_src_mac;
    reg  [31:0]     cmd_src_ip, cmd_dst_ip;
    reg             cmd_bcast;
    wire            fifo_ready;
    // strip output
    wire [DATA_W-1:0] o_tdata;
    wire [KEEP_W-1:0] o_tkeep;
    wire              o_tvalid, o_tlast, o_tuser, o_ttrunc;
    wire [RW-1:0]     o_route;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2**RW-1:0]  o_hvh;  // per-route header valid flip-flops of the strip
    wire [2**RW-1:0]  o_vh;  // per-route tvalid flip-flops of the strip (o_tvalid && route)
    /* verilator lint_on UNUSEDSIGNAL */
    wire              o_tready;

    // need = !pushed && (ck2 || (ended && !hdr_have)): the packet's command is due (its
    // checksum verdict is out, or it ended before its header did), kept as a register
    // loaded with that expression's next value, so that push and restart (the enable and
    // synchronous clear of most of the parser's registers) are one gate from flip-flops
    reg  need;
    wire push = need && !cmd_valid;  // (not through cmd_ready: keeps the ready path short)
    wire restart = ended && (pushed || push);
    // with HOLD the next header waits until this packet's command is gone (its fields are
    // read from cur_src_mac and the window meanwhile): restart without push (a command
    // made in this cycle holds the header; push is never 1 while !active), registers only
    // (with HOLD, !active || (ended && pushed) is the register hdr_free, so that
    // s_hdr_ready and this module's header handshake are one gate from flip-flops)
    wire hdr_free;
    assign s_hdr_ready = HOLD ? (hdr_free && !cmd_valid) : (!active || restart);
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

    reg [SAW-1:0] nkeep;
    integer i;
    always @(*) begin
        nkeep = {SAW{1'b0}};
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i]) nkeep = i[SAW-1:0] + 1'b1;
    end

    // header length limit for this beat (IHL of the current beat on the first beat)
    // (the first beat holds no byte at or past 20, so the registered IHL is enough)
    wire [3:0] ihl_in = s_axis_tdata[3:0];
    wire [6:0] lim_in = (ihl_in < 4'd5) ? 7'd20 : {1'b0, ihl_in, 2'b00};
    wire       pos_small = !flen[6];
    // checksum contribution of this beat: 16-bit words of the header, high byte first
    // (at DATA_W 8 a beat's sum is one byte in either half of a word: bits 18:16 stay 0)
    /* verilator lint_off UNUSEDSIGNAL */
    reg [18:0] bsum;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [6:0]  lpos;
    always @(*) begin
        bsum = 19'd0;
        for (i = 0; i < KEEP_W; i = i + 1) begin
            lpos = {1'b0, flen[5:0]} + i[6:0];
            // (one byte per beat: the byte is a header byte until the header has ended)
            if (s_axis_tkeep[i] && ((KEEP_W == 1) ? !hdr_have :
                (pos_small && (lpos < 7'd20 || (!first && lpos < lim))))) begin
                if (lpos[0] == 1'b0) bsum = bsum + {3'd0, s_axis_tdata[8*i+:8], 8'd0};
                else bsum = bsum + {11'd0, s_axis_tdata[8*i+:8]};
            end
        end
    end
    wire [6:0] flen_next = flen + {{(7-SAW){1'b0}}, nkeep};
    // the header ends in this beat if its last byte (lim-1) is reached and present
    // (mid-packet beats are full, so that byte sits in lane (lim-1) mod KEEP_W)
    localparam [6:0] KW7 = KEEP_W[6:0];
    // (one byte per beat: bpos steps by one byte, so it meets lim exactly: an equality;
    // bpos is 1 on a first beat, when lim_kw is 20 from reset or >= 20 from the packet
    // before; a later match, bpos wrapped modulo 64, only sets hdr_have again;
    // before, and 0 again once saturated)
    wire        reach = (KEEP_W == 1) ? (bpos[5:0] == lim_kw[5:0]) :
                        (!first && pos_small && ({1'b0, flen[5:0]} >= lim_kw));
    wire        lastb;
    generate
        if (KEEP_W == 1) begin : g_lb1
            assign lastb = s_axis_tkeep[0];
        end else begin : g_lbn
            wire [SAW-2:0] ln = lim[SAW-2:0] - 1'b1;
            assign lastb = s_axis_tkeep[ln];
        end
    endgenerate
    wire        hdr_end = reach && lastb;

    // DATA_W 8: the stream enters the FIFO with tkeep = 0 on every byte that is not
    // payload (header, options, bytes past the total length), so the strip needs neither a
    // skip nor a length counter; the last beat's tuser is also set if the frame ended
    // before the total length (truncated). A byte is within the total length while its
    // 1-based index has not passed tlen_r (one 16-bit equality of two registers per byte;
    // tlen_r is cleared with the packet's start, so it matches no index before it is
    // complete: an accepted packet's total length is >= 20). It is loaded from the
    // window while the fifth byte is awaited (bcnt = 4), so it is 0 until the cycle
    // after the first cycle of that wait: a total length of 5 or less is then missed at
    // byte 5, which changes nothing at the ports (such a packet is dropped: its total
    // length is below its header's), and no other index is compared before the load.
    wire        tl_last = (bpos == tlen_r);  // the last byte within the total length
    wire        in_tl_nx = in_tl && !(s_axis_tkeep[0] && tl_last);  // after this beat
    wire        trunc_now = in_beat && s_axis_tlast && in_tl_nx;
    wire [KEEP_W-1:0] fin_tkeep = (KEEP_W == 1) ? (s_axis_tkeep & {KEEP_W{hdr_have && in_tl}}) :
                                  s_axis_tkeep;
    wire        fin_tuser = s_axis_tuser || ((KEEP_W == 1) && in_tl_nx);

    // header fields
    wire [3:0]  f_ver = win[7:4];
    wire [3:0]  f_ihl = win[3:0];
    wire [15:0] f_tlen = {win[23:16], win[31:24]};
    wire        f_mf = win[53];
    wire [12:0] f_off = {win[52:48], win[63:56]};
    wire [7:0]  f_proto = win[79:72];
    wire [31:0] f_src = {win[103:96], win[111:104], win[119:112], win[127:120]};
    wire [31:0] f_dst = {win[135:128], win[143:136], win[151:144], win[159:152]};
    wire [5:0]  f_hlen = {f_ihl, 2'b00};
    // (total length - 4*IHL) in units of 4 bytes, one subtractor for both the payload
    // length and the "total length < header length" check (its borrow, bit 14)
    wire [14:0] tl_d = {1'b0, f_tlen[15:2]} - {11'd0, f_ihl};
    // field checks, registered: the window is complete two cycles before the decision
    wire        r_runt = !hdr_have;
    wire        r_csum = !csum_ok;
    reg         r_hdr, r_len, r_dst, r_frag, r_proto, r_bcast;
    always @(posedge clk) begin
        r_hdr <= (f_ver != 4'd4) || (f_ihl < 4'd5);
        r_len <= tl_d[14];
        // (DATA_W 8: from the flags built one destination byte at a time)
        r_bcast <= (KEEP_W == 1) ? !dst_ip_eff : (f_dst != cfg_ip);
        r_dst <= (KEEP_W == 1) ? !(dst_ip_eff || dst_ones_eff || dst_bc_eff) :
                 !((f_dst == cfg_ip) || (&f_dst) || (f_dst == (cfg_ip | ~cfg_netmask)));
        r_frag <= f_mf || (f_off != 13'd0);
        r_proto <= !((f_proto == 8'd1) || (f_proto == 8'd17) || (TCP != 0 && f_proto == 8'd6));
    end
    // the byte of cfg_ip / cfg_netmask for the destination byte at bpos (17..20)
    reg  [7:0]  ip_byte, mask_byte;
    always @(*) begin
        case (bpos[1:0])
            2'd1: begin ip_byte = cfg_ip[31:24]; mask_byte = cfg_netmask[31:24]; end
            2'd2: begin ip_byte = cfg_ip[23:16]; mask_byte = cfg_netmask[23:16]; end
            2'd3: begin ip_byte = cfg_ip[15:8]; mask_byte = cfg_netmask[15:8]; end
            default: begin ip_byte = cfg_ip[7:0]; mask_byte = cfg_netmask[7:0]; end
        endcase
    end
    wire        drop = r_runt || r_hdr || r_csum || r_len || r_dst || r_frag || r_proto;

    always @(posedge clk) begin
        if (s_hdr_valid && s_hdr_ready) cur_src_mac <= s_hdr_src_mac;
        if (in_beat && bcnt != NB[BW-1:0]) begin
            win <= {s_axis_tdata, win[HW*8-1:DATA_W]};
        end
        if (in_beat && first) begin
            lim <= lim_in;
            lim_kw <= (KEEP_W == 1) ? lim_in : (lim_in - KW7);
        end
        if (rst) lim_kw <= (KEEP_W == 1) ? 7'd20 : 7'd19;  // (see reach)
        // (loaded from the window in every cycle in which its top holds header bytes 2
        // and 3, the four first beats taken: no handshake on its enable)
        if (rst || restart) tlen_r <= 16'd0;  // (see tl_last)
        else if ((KEEP_W == 1) && bcnt == TL_B[BW-1:0])
            tlen_r <= {win[HW*8-9 -: 8], win[HW*8-1 -: 8]};
        // checksum: accumulate, then fold once and compare
        if (KEEP_W == 1) begin
            // one byte per beat: the sum so far is multiplied by 256 (a rotation by 8
            // modulo 0xFFFF, since 2^16 = 1) before each byte is added in the low half,
            // so no byte lane select is needed: over the even-length header the even
            // bytes end up weighted 256 (the high halves of the words). The deferred carry
            // (worth 1 before the rotation) goes in at bit 8. The sum is cleared while
            // the packet's first byte is awaited (no header byte is pending then).
            bsum_r[7:0] <= s_axis_tdata[7:0];
            if (first)
                {acc_c, acc_lo} <= {(CW+16){1'b0}};
            else if (bs_v)
                {acc_c, acc_lo} <= {1'b0, acc_lo[7:0], acc_lo[15:8]} +
                                   {8'd0, acc_c[0], bsum_r[7:0]};
        end else begin
            bsum_r <= bsum[BSW-1:0];
            bs_first <= first;
            if (bs_v)
                {acc_c, acc_lo} <= {{CW{1'b0}}, bs_first ? 16'd0 : acc_lo} +
                                   {{(CW+16-BSW){1'b0}}, bsum_r} +
                                   {16'd0, bs_first ? {CW{1'b0}} : acc_c};
        end
        // s1 <= 0xFFFF + 15 is congruent to the sum modulo 0xFFFF: a good header sums to
        // 0xFFFF (0 only if every byte was 0)
        s1 <= {1'b0, acc_lo} + {{(17-CW){1'b0}}, acc_c};
        // (one carry bit: lo + c = 0xFFFF is lo = 0xFFFF, c = 0 or lo = 0xFFFE, c = 1)
        s1_ok <= (&acc_lo[15:1]) && (acc_lo[0] ^ acc_c[0]);
        csum_ok <= (KEEP_W == 1) ? s1_ok : (s1 == 17'h0FFFF);
        // destination checks (DATA_W 8), one byte at a time (bytes 16..19: bpos 17..20
        // modulo 128; the decision is made by byte 65): 255.255.255.255, cfg_ip and the
        // subnet broadcast, each byte compared with the byte of cfg_ip / cfg_netmask that
        // bpos selects (three 8-bit compares instead of two 32-bit ones)
        // The byte's three compares are registered with the beat (d_ones, d_ip, d_bc: no
        // enable) and folded into the flags in the next cycle (d_v: a destination byte
        // was taken), so the input handshake reaches one flip-flop (d_v) instead of the
        // flags' enables; the flags' value in every cycle is the folded one (dst_*_eff).
        d_v <= in_beat && s_axis_tkeep[0] && dwin;
        d_first <= dfirst;
        d_ones <= &s_axis_tdata[7:0];
        d_ip <= (s_axis_tdata[7:0] == ip_byte);
        d_bc <= (s_axis_tdata[7:0] == (ip_byte | ~mask_byte));
        dst_ones <= dst_ones_eff;
        dst_ip <= dst_ip_eff;
        dst_bc <= dst_bc_eff;
        if (push) begin
            cmd_len <= {tl_d[13:0], f_tlen[1:0]};
            cmd_bcast <= r_bcast;
            cmd_skip <= f_hlen;
            cmd_src_mac <= cur_src_mac;
            cmd_src_ip <= f_src;
            cmd_dst_ip <= f_dst;
            cmd_route <= (f_proto == 8'd17) ? R_UDP : (f_proto == 8'd6) ? R_TCP : {RW{1'b0}};
            cmd_drop <= drop;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            active <= 1'b0;
            bcnt <= 0;
            flen <= 7'd0;
            ended <= 1'b0;
            hdr_have <= 1'b0;
            ck0 <= 1'b0;
            ck1 <= 1'b0;
            ck2 <= 1'b0;
            first <= 1'b1;
            bs_v <= 1'b0;
            pushed <= 1'b0;
            need <= 1'b0;
            bpos <= 16'd1;
            dwin <= 1'b0;
            dfirst <= 1'b0;
            in_tl <= 1'b1;
            trunc_q <= 1'b0;
            cmd_valid <= 1'b0;
            inc_truncated <= 1'b0;
            inc_packets <= 1'b0;
            inc_runt <= 1'b0;
            inc_bad_hdr <= 1'b0;
            inc_bad_csum <= 1'b0;
            inc_bad_len <= 1'b0;
            inc_not_for_us <= 1'b0;
            inc_fragment <= 1'b0;
            inc_bad_proto <= 1'b0;
        end else begin
            inc_truncated <= 1'b0;
            inc_packets <= 1'b0;
            inc_runt <= 1'b0;
            inc_bad_hdr <= 1'b0;
            inc_bad_csum <= 1'b0;
            inc_bad_len <= 1'b0;
            inc_not_for_us <= 1'b0;
            inc_fragment <= 1'b0;
            inc_bad_proto <= 1'b0;
            // (DATA_W 8: only a beat holding a header byte is summed)
            bs_v <= in_beat && ((KEEP_W != 1) || (s_axis_tkeep[0] && !hdr_have));
            ck0 <= hdr_have && !ck0 && !ck1 && !ck2 && !pushed;
            ck1 <= ck0;
            ck2 <= ck2 ? !push : ck1;
            // (need's next value: 0 after a push or a restart, which needs pushed or push;
            // else from ck2's next value, ck2 || ck1 without a push, and ended's and
            // hdr_have's)
            need <= !push && !pushed &&
                    (ck2 || ck1 || ((ended || (in_beat && s_axis_tlast)) &&
                                    !(hdr_have || (in_beat && hdr_end))));
            if (restart) begin
                bcnt <= 0;
                flen <= 7'd0;
                ended <= 1'b0;
                hdr_have <= 1'b0;
                ck0 <= 1'b0;
                ck1 <= 1'b0;
                ck2 <= 1'b0;
                first <= 1'b1;
                pushed <= 1'b0;
                bpos <= 16'd1;
                dwin <= 1'b0;
                dfirst <= 1'b0;
                in_tl <= 1'b1;
                trunc_q <= 1'b0;
            end else begin
                if (push) pushed <= 1'b1;
                if (in_beat) begin
                    if (s_axis_tkeep[0]) begin
                        bpos <= bpos + 16'd1;
                        dwin <= (bpos[6:2] == 5'b00100);  // the next index is 17..20
                        dfirst <= (bpos[6:0] == 7'd16);
                    end
                    in_tl <= in_tl_nx;
                    if (s_axis_tlast) trunc_q <= in_tl_nx;
                    if (bcnt != NB[BW-1:0]) bcnt <= bcnt + 1'b1;
                    if (pos_small) flen <= flen_next;
                    first <= 1'b0;
                    if (hdr_end) hdr_have <= 1'b1;
                    if (s_axis_tlast) ended <= 1'b1;
                end
            end
            // truncation (frame shorter than the total length) of an accepted packet: at
            // DATA_W 8 once both the packet's end and its decision are known (the decision
            // made with or after the end, or the end after the decision), at DATA_W 64 as
            // the strip found it at the packet's end
            if ((KEEP_W == 1) ? ((push && !drop && (trunc_q || trunc_now)) ||
                                 (trunc_now && pushed && !cmd_drop)) :
                                (o_tvalid && o_tready && o_tlast && o_ttrunc))
                inc_truncated <= 1'b1;
            if (s_hdr_valid && s_hdr_ready) active <= 1'b1;
            else if (restart) active <= 1'b0;
            if (push) begin
                cmd_valid <= 1'b1;
                inc_packets <= 1'b1;
                if (r_runt) inc_runt <= 1'b1;
                else if (r_hdr) inc_bad_hdr <= 1'b1;
                else if (r_csum) inc_bad_csum <= 1'b1;
                else if (r_len) inc_bad_len <= 1'b1;
                else if (r_dst) inc_not_for_us <= 1'b1;
                else if (r_frag) inc_fragment <= 1'b1;
                else if (r_proto) inc_bad_proto <= 1'b1;
            end else if (cmd_ready) begin
                cmd_valid <= 1'b0;
            end
        end
    end

    // ---------------- buffer + strip ----------------
    wire [DATA_W-1:0] f_tdata;
    wire [KEEP_W-1:0] f_tkeep;
    wire              f_tvalid, f_tready, f_tlast, f_tuser;
    stream_fifo_g #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH), .GATED(1),
        .IN_REG((KEEP_W == 1) ? 1 : 0)
    ) u_fifo (
        .clk(clk), .rst(rst), .s_gate_nx(taking_nx),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(fin_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(fifo_ready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(fin_tuser),
        .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
        .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire              hv;  // (the outputs read m_hdr_valid_oh)
    /* verilator lint_on UNUSEDSIGNAL */
    wire              hr;
    wire              sts_ready_unused;
    // (DATA_W 8: the payload is marked with tkeep, see fin_tkeep: no skip, no length)
    stream_strip #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .SKIP_W(6), .ROUTE_W(RW), .USE_STS(0),
        .USE_LEN((KEEP_W == 1) ? 0 : 1), .USE_SKIP((KEEP_W == 1) ? 0 : 1)
    ) u_strip (
        .clk(clk), .rst(rst),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_skip(cmd_skip), .cmd_len(cmd_len),
        .cmd_drop(cmd_drop), .cmd_route(cmd_route),
        .sts_valid(1'b1), .sts_ready(sts_ready_unused), .sts_bad(1'b0),
        .s_axis_tdata(f_tdata), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(f_tvalid),
        .s_axis_tready(f_tready), .s_axis_tlast(f_tlast), .s_axis_tuser(f_tuser),
        .m_hdr_valid(hv), .m_hdr_valid_oh(o_hvh), .m_hdr_ready(hr),
        .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
        .m_axis_tready(o_tready), .m_axis_tlast(o_tlast), .m_axis_tuser(o_tuser),
        .m_axis_ttrunc(o_ttrunc), .m_axis_troute(o_route),
        .m_axis_tvalid_oh(o_vh)
    );

    assign hr = (cmd_route == R_UDP) ? m_udp_hdr_ready :
                (cmd_route == {RW{1'b0}}) ? m_icmp_hdr_ready : m_tcp_hdr_ready;
    // (flip-flops of the strip: hv && cmd_route == the route)
    assign m_icmp_hdr_valid = o_hvh[0];
    assign m_udp_hdr_valid = o_hvh[1];
    wire [47:0] o_src_mac = HOLD ? cur_src_mac : cmd_src_mac;
    wire [31:0] o_src_ip = HOLD ? f_src : cmd_src_ip;
    wire [31:0] o_dst_ip = HOLD ? f_dst : cmd_dst_ip;
    assign m_icmp_hdr_src_mac = o_src_mac;
    assign m_icmp_hdr_src_ip = o_src_ip;
    assign m_icmp_hdr_dst_ip = o_dst_ip;
    assign m_icmp_hdr_protocol = 8'd1;
    assign m_icmp_hdr_len = cmd_len;
    assign m_icmp_hdr_broadcast = cmd_bcast;
    assign m_udp_hdr_src_mac = o_src_mac;
    assign m_udp_hdr_src_ip = o_src_ip;
    assign m_udp_hdr_dst_ip = o_dst_ip;
    assign m_udp_hdr_protocol = 8'd17;
    assign m_udp_hdr_len = cmd_len;
    assign m_udp_hdr_broadcast = cmd_bcast;

    assign o_tready = (o_route == R_UDP) ? m_udp_axis_tready :
                      (o_route == {RW{1'b0}}) ? m_icmp_axis_tready : m_tcp_axis_tready;
    // (flip-flops of the strip: o_tvalid && o_route == the route)
    assign m_icmp_axis_tvalid = o_vh[0];
    assign m_udp_axis_tvalid = o_vh[1];
    assign m_icmp_axis_tdata = o_tdata;
    assign m_icmp_axis_tkeep = o_tkeep;
    assign m_icmp_axis_tlast = o_tlast;
    assign m_icmp_axis_tuser = o_tuser;
    assign m_udp_axis_tdata = o_tdata;
    assign m_udp_axis_tkeep = o_tkeep;
    assign m_udp_axis_tlast = o_tlast;
    assign m_udp_axis_tuser = o_tuser;
    assign m_tcp_hdr_valid = (TCP != 0) && o_hvh[R_TCP_I];
    assign m_tcp_hdr_src_mac = o_src_mac;
    assign m_tcp_hdr_src_ip = o_src_ip;
    assign m_tcp_hdr_dst_ip = o_dst_ip;
    assign m_tcp_hdr_len = cmd_len;
    assign m_tcp_hdr_broadcast = cmd_bcast;
    assign m_tcp_axis_tvalid = (TCP != 0) && o_vh[R_TCP_I];
    assign m_tcp_axis_tdata = o_tdata;
    assign m_tcp_axis_tkeep = o_tkeep;
    assign m_tcp_axis_tlast = o_tlast;
    assign m_tcp_axis_tuser = o_tuser;
endmodule
`default_nettype wire
