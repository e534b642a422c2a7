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
// s_axis_tready is the FIFO's ready AND taking (active and not ended); s_hdr_ready is
// made from flip-flops; push and restart are one gate of flip-flops (need_dup_reg, below),
// and m_icmp_hdr_valid / m_udp_hdr_valid and
// m_icmp_axis_tvalid / m_udp_axis_tvalid are flip-flops of the strip (m_hdr_valid_oh,
// m_axis_tvalid_oh). At DATA_W 8 the FIFO takes the beats through its input register
// (stream_fifo IN_REG), so eth_rx's tvalid reaches no enable of its memory side; the
// beat's extra cycle there costs no latency (the strip starts a packet only with its
// command, when the packet's header bytes already wait in the FIFO before the payload).
// Accepted packets' protocol field is 1 on the ICMP port and 17 on the UDP port (the
// m_*_hdr_protocol outputs are those constants).
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, FIFO_DEPTH (beats held
//   while the header, up to 60 bytes, is checked: a power of 2 of at least 64 bytes;
//   tested 64 at DATA_W 8, 8 and 16 at DATA_W 64; default 64 at DATA_W 8, 16 at 64).
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
    parameter integer FIFO_DEPTH = (DATA_W == 8) ? 64 : 16
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
    // event strobes
    output wire [8:0]        cnt_ev
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            ip_rx_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            ip_rx_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (FIFO_DEPTH * KEEP_W < 64 || (FIFO_DEPTH & (FIFO_DEPTH - 1)) != 0) begin : g_check_fifo_depth
            ip_rx_FIFO_DEPTH_must_be_a_power_of_2_of_64_bytes_or_more u_error ();
        end
    endgenerate

    localparam integer NB = (20 + KEEP_W - 1) / KEEP_W;  // beats of the 20-byte header window
    localparam integer HW = NB * KEEP_W;
    localparam integer BW = $clog2(NB + 1);
    localparam integer SAW = $clog2(KEEP_W + 1);
    localparam HOLD = (KEEP_W == 1);  // header bus read from the parser's own registers

    // ---------------- parser ----------------
    // the event strobes are registered (short paths, Fmax)
    reg ev_truncated_reg, ev_packets_reg, ev_runt_reg, ev_bad_hdr_reg, ev_bad_csum_reg,
        ev_bad_len_reg, ev_not_for_us_reg, ev_fragment_reg, ev_bad_proto_reg;
    assign cnt_ev = {ev_truncated_reg, ev_bad_proto_reg, ev_fragment_reg, ev_not_for_us_reg,
                     ev_bad_len_reg, ev_bad_csum_reg, ev_bad_hdr_reg, ev_runt_reg,
                     ev_packets_reg};
    // header window: TOS, identification, DF, TTL and checksum bytes are not read as
    // fields (the checksum is verified through the running sum)
    /* verilator lint_off UNUSEDSIGNAL */
    reg  [HW*8-1:0] win_reg;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [BW-1:0]   beat_count_reg, beat_count_next;  // the window's beats
    // DATA_W 64: bytes seen, saturating at 64 (bit 6: past any header byte) (DATA_W 8
    // counts bytes in byte_pos_reg)
    reg  [6:0]      byte_count_reg, byte_count_next;
    reg  [6:0]      hdr_bytes_reg;    // header bytes to sum (4*IHL, 20 if IHL < 5), from the first beat
    // DATA_W 64: hdr_bytes_reg - KEEP_W: the header ends in a beat starting at or past it
    // (DATA_W 8: hdr_bytes_reg, the header's last byte's 1-based index)
    reg  [6:0]      hdr_end_pos_reg;
    reg             active_reg, active_next;      // Ethernet header of the current packet taken
    reg             ended_reg, ended_next;        // ... and its last beat
    reg             pushed_reg, pushed_next;      // ... and its command is made
    reg             hdr_have_reg, hdr_have_next;  // whole IP header (IHL*4 bytes) summed
    // checksum verdict pipeline: the sum folded (csum_step1_reg), compared
    // (csum_step2_reg), the verdict csum_ok_reg valid (csum_done_reg)
    reg             csum_step1_reg, csum_step1_next, csum_step2_reg, csum_done_reg, csum_done_next;
    reg             first_beat_reg, first_beat_next;  // the next beat is the packet's first
    // checksum accumulator: 16 bits plus deferred (end-around) carries; the sum is
    // csum_acc_reg + csum_carry_reg modulo 0xFFFF
    localparam integer BSW = (KEEP_W == 1) ? 8 : 19;  // per-beat sum width (8 bits: one byte)
    localparam integer CW = (KEEP_W == 1) ? 1 : 4;  // deferred carry bits
    reg  [BSW-1:0]  beat_sum_reg;  // registered per-beat sum (a pipeline stage for Fmax)
    reg             beat_sum_valid_reg;
    reg  [15:0]     csum_acc_reg;
    reg  [CW-1:0]   csum_carry_reg;
    reg  [16:0]     csum_sum_reg;  // DATA_W 64: csum_acc_reg + csum_carry_reg
    reg             csum_sum_ok_reg;  // DATA_W 8: csum_acc_reg + csum_carry_reg == 0xFFFF
    reg             csum_ok_reg;
    // DATA_W 8: the destination checks, flags over the destination bytes seen so far: all
    // 0xff, equal to cfg_ip's, equal to the subnet broadcast's (cfg_ip | ~cfg_netmask)
    reg             dst_ones_reg, dst_ours_reg, dst_subnet_bc_reg;
    // DATA_W 8: the last byte's compares, registered with it, and whether it was a
    // destination byte / the first one
    reg             dst_byte_valid_reg, dst_byte_first_reg, dst_byte_ones_reg, dst_byte_ours_reg,
                    dst_byte_bc_reg;
    // the flags with the last byte folded in (their value in every cycle)
    wire dst_ones      = dst_byte_valid_reg ? (dst_byte_ones_reg && (dst_ones_reg || dst_byte_first_reg)) : dst_ones_reg;
    wire dst_ours      = dst_byte_valid_reg ? (dst_byte_ours_reg && (dst_ours_reg || dst_byte_first_reg)) : dst_ours_reg;
    wire dst_subnet_bc = dst_byte_valid_reg ? (dst_byte_bc_reg && (dst_subnet_bc_reg || dst_byte_first_reg)) : dst_subnet_bc_reg;
    reg  [47:0]     in_src_mac_reg;
    // DATA_W 8: the payload is marked in the stream as it enters the FIFO (see below)
    reg  [15:0]     ip_len_reg;  // total length, from the window once header bytes 2, 3 are in
    localparam integer TL_B = (KEEP_W == 1) ? 4 : 0;  // (DATA_W 8: beats taken by then)
    // DATA_W 8: 1-based index of the next byte in the packet (wraps)
    reg  [15:0]     byte_pos_reg, byte_pos_next;
    reg             in_len_reg, in_len_next;  // the next byte lies within the total length
    reg             truncated_reg, truncated_next;  // the packet ended before its total length

    reg             cmd_valid_reg;
    wire            cmd_ready;
    reg             cmd_drop_reg;
    reg             cmd_route_reg;  // 0 ICMP, 1 UDP
    reg  [5:0]      cmd_skip_reg;
    reg  [15:0]     cmd_len_reg;
    // header bus registers (DATA_W 64 only, see HOLD)
    reg  [47:0]     cmd_src_mac_reg;
    reg  [31:0]     cmd_src_ip_reg, cmd_dst_ip_reg;
    reg             cmd_bcast_reg;
    wire            fifo_ready;
    // strip output
    wire [DATA_W-1:0] o_tdata;
    wire [KEEP_W-1:0] o_tkeep;
    wire              o_tvalid, o_tlast, o_tuser, o_ttrunc;
    wire              o_route;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [1:0]        o_hdr_valid;  // per-route header valid flip-flops of the strip
    /* verilator lint_on UNUSEDSIGNAL */
    wire [1:0]        o_tvalid_route;  // per-route tvalid flip-flops of the strip
    wire              o_tready;

    // The packet's command is due: its checksum verdict is out, or it ended before its
    // header did. Kept as a register of its own too (need_dup_reg, loaded with need's next
    // value), so that push and restart (the enable and synchronous clear of most of the
    // parser's registers) are one gate from flip-flops; the unit test checks that the two
    // are equal in every cycle
    /* verilator lint_off UNUSEDSIGNAL */
    wire need = !pushed_reg && (csum_done_reg || (ended_reg && !hdr_have_reg));
    /* verilator lint_on UNUSEDSIGNAL */
    reg  need_dup_reg;
    wire push = need_dup_reg && !cmd_valid_reg;  // (not through cmd_ready: keeps the ready path short)
    wire restart = ended_reg && (pushed_reg || push);
    // with HOLD the next header waits until this packet's command is gone (its fields are
    // read from in_src_mac_reg and the window meanwhile): restart without push (a command
    // made in this cycle holds the header; push is never 1 while !active_reg)
    wire hdr_free = !active_reg || (ended_reg && pushed_reg);
    assign s_hdr_ready = HOLD ? (hdr_free && !cmd_valid_reg) : (!active_reg || restart);
    wire hdr_fire = s_hdr_valid && s_hdr_ready;
    // the packet's bytes are taken from its header handshake to its last beat
    wire taking = active_reg && !ended_reg;
    assign s_axis_tready = fifo_ready && taking;
    wire in_beat   = s_axis_tvalid && s_axis_tready;
    wire last_beat = in_beat && s_axis_tlast;

    reg [SAW-1:0] in_bytes;  // bytes in the input beat
    integer i;
    always @(*) begin
        in_bytes = {SAW{1'b0}};
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i]) in_bytes = i[SAW-1:0] + 1'b1;
    end

    // header length limit for this beat (IHL of the current beat on the first beat)
    // (the first beat holds no byte at or past 20, so the registered IHL is enough)
    wire [3:0] ihl_in = s_axis_tdata[3:0];
    wire [6:0] hdr_bytes_in = (ihl_in < 4'd5) ? 7'd20 : {1'b0, ihl_in, 2'b00};
    wire       pos_small = !byte_count_reg[6];
    // checksum contribution of this beat: 16-bit words of the header, high byte first
    // (at DATA_W 8 a beat's sum is one byte in either half of a word: bits 18:16 stay 0)
    /* verilator lint_off UNUSEDSIGNAL */
    reg [18:0] beat_sum;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [6:0]  lane_pos;
    always @(*) begin
        beat_sum = 19'd0;
        for (i = 0; i < KEEP_W; i = i + 1) begin
            lane_pos = {1'b0, byte_count_reg[5:0]} + i[6:0];
            // (one byte per beat: the byte is a header byte until the header has ended)
            if (s_axis_tkeep[i] && ((KEEP_W == 1) ? !hdr_have_reg :
                (pos_small && (lane_pos < 7'd20 || (!first_beat_reg && lane_pos < hdr_bytes_reg))))) begin
                if (lane_pos[0] == 1'b0) beat_sum = beat_sum + {3'd0, s_axis_tdata[8*i+:8], 8'd0};
                else beat_sum = beat_sum + {11'd0, s_axis_tdata[8*i+:8]};
            end
        end
    end
    // the header ends in this beat if its last byte (hdr_bytes_reg - 1) is reached and
    // present (mid-packet beats are full, so that byte sits in lane
    // (hdr_bytes_reg - 1) mod KEEP_W)
    localparam [6:0] KW7 = KEEP_W[6:0];
    // (one byte per beat: byte_pos_reg steps by one byte, so it meets hdr_end_pos_reg
    // exactly: an equality; byte_pos_reg is 1 on a first beat, when hdr_end_pos_reg is 20
    // from reset or >= 20 from the packet before; a later match, byte_pos_reg wrapped
    // modulo 64, only sets hdr_have_reg again)
    wire        hdr_reach = (KEEP_W == 1) ? (byte_pos_reg[5:0] == hdr_end_pos_reg[5:0]) :
                            (!first_beat_reg && pos_small && ({1'b0, byte_count_reg[5:0]} >= hdr_end_pos_reg));
    wire        hdr_last_byte_in;
    generate
        if (KEEP_W == 1) begin : g_lb1
            assign hdr_last_byte_in = s_axis_tkeep[0];
        end else begin : g_lbn
            wire [SAW-2:0] lane = hdr_bytes_reg[SAW-2:0] - 1'b1;
            assign hdr_last_byte_in = s_axis_tkeep[lane];
        end
    endgenerate
    wire        hdr_end = hdr_reach && hdr_last_byte_in;

    // DATA_W 8: the stream enters the FIFO with tkeep = 0 on every byte that is not
    // payload (header, options, bytes past the total length), so the strip needs neither a
    // skip nor a length counter; the last beat's tuser is also set if the frame ended
    // before the total length (truncated). A byte is within the total length while its
    // 1-based index has not passed ip_len_reg (one 16-bit equality of two registers per
    // byte; ip_len_reg is cleared with the packet's start, so it matches no index before
    // it is complete: an accepted packet's total length is >= 20). It is loaded from the
    // window while the fifth byte is awaited (beat_count_reg = 4), so it is 0 until the
    // cycle after the first cycle of that wait: a total length of 5 or less is then missed
    // at byte 5, which changes nothing at the ports (such a packet is dropped: its total
    // length is below its header's), and no other index is compared before the load.
    wire        len_last_byte = (byte_pos_reg == ip_len_reg);  // the last byte within the total length
    wire        in_len_after  = in_len_reg && !(s_axis_tkeep[0] && len_last_byte);  // after this beat
    wire        trunc_now = last_beat && in_len_after;
    wire [KEEP_W-1:0] fifo_tkeep = (KEEP_W == 1) ? (s_axis_tkeep & {KEEP_W{hdr_have_reg && in_len_reg}}) :
                                   s_axis_tkeep;
    wire        fifo_tuser = s_axis_tuser || ((KEEP_W == 1) && in_len_after);

    // header fields
    wire [3:0]  f_ver = win_reg[7:4];
    wire [3:0]  f_ihl = win_reg[3:0];
    wire [15:0] f_tlen = {win_reg[23:16], win_reg[31:24]};
    wire        f_mf = win_reg[53];
    wire [12:0] f_off = {win_reg[52:48], win_reg[63:56]};
    wire [7:0]  f_proto = win_reg[79:72];
    wire [31:0] f_src = {win_reg[103:96], win_reg[111:104], win_reg[119:112], win_reg[127:120]};
    wire [31:0] f_dst = {win_reg[135:128], win_reg[143:136], win_reg[151:144], win_reg[159:152]};
    wire [5:0]  f_hlen = {f_ihl, 2'b00};
    // (total length - 4*IHL) in units of 4 bytes, one subtractor for both the payload
    // length and the "total length < header length" check (its borrow, bit 14)
    wire [14:0] len_words = {1'b0, f_tlen[15:2]} - {11'd0, f_ihl};
    // field checks, registered: the window is complete two cycles before the decision
    wire        drop_runt = !hdr_have_reg;
    wire        drop_csum = !csum_ok_reg;
    reg         drop_hdr_reg, drop_len_reg, drop_dst_reg, drop_frag_reg, drop_proto_reg, bcast_reg;
    always @(posedge clk) begin
        drop_hdr_reg   <= (f_ver != 4'd4) || (f_ihl < 4'd5);
        drop_len_reg   <= len_words[14];
        // (DATA_W 8: from the flags built one destination byte at a time)
        bcast_reg      <= (KEEP_W == 1) ? !dst_ours : (f_dst != cfg_ip);
        drop_dst_reg   <= (KEEP_W == 1) ? !(dst_ours || dst_ones || dst_subnet_bc) :
                          !((f_dst == cfg_ip) || (&f_dst) || (f_dst == (cfg_ip | ~cfg_netmask)));
        drop_frag_reg  <= f_mf || (f_off != 13'd0);
        drop_proto_reg <= !((f_proto == 8'd1) || (f_proto == 8'd17));
    end
    // the byte of cfg_ip / cfg_netmask for the destination byte at byte_pos_reg (17..20)
    reg  [7:0]  cfg_ip_byte, cfg_mask_byte;
    always @(*) begin
        case (byte_pos_reg[1:0])
            2'd1: begin cfg_ip_byte = cfg_ip[31:24]; cfg_mask_byte = cfg_netmask[31:24]; end
            2'd2: begin cfg_ip_byte = cfg_ip[23:16]; cfg_mask_byte = cfg_netmask[23:16]; end
            2'd3: begin cfg_ip_byte = cfg_ip[15:8];  cfg_mask_byte = cfg_netmask[15:8];  end
            default: begin cfg_ip_byte = cfg_ip[7:0]; cfg_mask_byte = cfg_netmask[7:0]; end
        endcase
    end
    // DATA_W 8: a destination byte (bytes 16..19: indexes 17..20 modulo 128; the decision
    // is made by byte 65) is next; the first one
    wire dst_byte       = (byte_pos_reg[6:0] >= 7'd17) && (byte_pos_reg[6:0] <= 7'd20);
    wire dst_byte_first = (byte_pos_reg[6:0] == 7'd17);
    wire drop = drop_runt || drop_hdr_reg || drop_csum || drop_len_reg || drop_dst_reg ||
                drop_frag_reg || drop_proto_reg;

    always @(posedge clk) begin
        if (hdr_fire) in_src_mac_reg <= s_hdr_src_mac;
        if (in_beat && beat_count_reg != NB[BW-1:0]) win_reg <= {s_axis_tdata, win_reg[HW*8-1:DATA_W]};
        if (in_beat && first_beat_reg) begin
            hdr_bytes_reg   <= hdr_bytes_in;
            hdr_end_pos_reg <= (KEEP_W == 1) ? hdr_bytes_in : (hdr_bytes_in - KW7);
        end
        if (rst) hdr_end_pos_reg <= (KEEP_W == 1) ? 7'd20 : 7'd19;  // (see hdr_reach)
        // (loaded from the window in every cycle in which its top holds header bytes 2
        // and 3, the four first beats taken: no handshake on its enable)
        if (rst || restart) ip_len_reg <= 16'd0;  // (see len_last_byte)
        else if ((KEEP_W == 1) && beat_count_reg == TL_B[BW-1:0])
            ip_len_reg <= {win_reg[HW*8-9 -: 8], win_reg[HW*8-1 -: 8]};
        // csum_sum_reg <= 0xFFFF + 15 is congruent to the sum modulo 0xFFFF: a good header
        // sums to 0xFFFF (0 only if every byte was 0)
        csum_sum_reg    <= {1'b0, csum_acc_reg} + {{(17-CW){1'b0}}, csum_carry_reg};
        // (DATA_W 8: one carry bit, so the sum is 0xFFFF when the low 16 bits are 0xFFFF
        // less the carry)
        csum_sum_ok_reg <= (csum_acc_reg == (csum_carry_reg[0] ? 16'hFFFE : 16'hFFFF));
        csum_ok_reg     <= (KEEP_W == 1) ? csum_sum_ok_reg : (csum_sum_reg == 17'h0FFFF);
        // destination checks (DATA_W 8), one byte at a time: 255.255.255.255, cfg_ip and
        // the subnet broadcast, each byte compared with the byte of cfg_ip / cfg_netmask
        // that byte_pos_reg selects (three 8-bit compares instead of two 32-bit ones).
        // The byte's three compares are registered with the beat (no enable) and folded
        // into the flags in the next cycle (dst_byte_valid_reg: a destination byte was
        // taken), so the input handshake reaches one flip-flop instead of the flags'
        // enables; the flags' value in every cycle is the folded one (dst_ones etc.).
        dst_byte_valid_reg <= in_beat && s_axis_tkeep[0] && dst_byte;
        dst_byte_first_reg <= dst_byte_first;
        dst_byte_ones_reg  <= &s_axis_tdata[7:0];
        dst_byte_ours_reg  <= (s_axis_tdata[7:0] == cfg_ip_byte);
        dst_byte_bc_reg    <= (s_axis_tdata[7:0] == (cfg_ip_byte | ~cfg_mask_byte));
        dst_ones_reg       <= dst_ones;
        dst_ours_reg       <= dst_ours;
        dst_subnet_bc_reg  <= dst_subnet_bc;
        if (push) begin
            cmd_len_reg     <= {len_words[13:0], f_tlen[1:0]};
            cmd_bcast_reg   <= bcast_reg;
            cmd_skip_reg    <= f_hlen;
            cmd_src_mac_reg <= in_src_mac_reg;
            cmd_src_ip_reg  <= f_src;
            cmd_dst_ip_reg  <= f_dst;
            cmd_route_reg   <= (f_proto == 8'd17);
            cmd_drop_reg    <= drop;
        end
    end

    // checksum: accumulate, then fold once and compare
    generate
        if (KEEP_W == 1) begin : g_sum8
            // one byte per beat: the sum so far is multiplied by 256 (a rotation by 8
            // modulo 0xFFFF, since 2^16 = 1) before each byte is added in the low half,
            // so no byte lane select is needed: over the even-length header the even
            // bytes end up weighted 256 (the high halves of the words). The deferred carry
            // (worth 1 before the rotation) goes in at bit 8. The sum is cleared while
            // the packet's first byte is awaited (no header byte is pending then).
            always @(posedge clk) begin
                beat_sum_reg <= s_axis_tdata[7:0];
                if (first_beat_reg)
                    {csum_carry_reg, csum_acc_reg} <= 17'd0;
                else if (beat_sum_valid_reg)
                    {csum_carry_reg, csum_acc_reg} <= {1'b0, csum_acc_reg[7:0], csum_acc_reg[15:8]} +
                                                      {8'd0, csum_carry_reg[0], beat_sum_reg};
            end
        end else begin : g_sumw
            reg beat_sum_first_reg;  // the beat summed was the packet's first
            always @(posedge clk) begin
                beat_sum_reg       <= beat_sum[BSW-1:0];
                beat_sum_first_reg <= first_beat_reg;
                if (beat_sum_valid_reg)
                    {csum_carry_reg, csum_acc_reg} <= {{CW{1'b0}}, beat_sum_first_reg ? 16'd0 : csum_acc_reg} +
                                                      {{(CW+16-BSW){1'b0}}, beat_sum_reg} +
                                                      {16'd0, beat_sum_first_reg ? {CW{1'b0}} : csum_carry_reg};
            end
        end
    endgenerate

    // the parser's control: next values
    always @* begin
        active_next     = active_reg;
        ended_next      = ended_reg;
        pushed_next     = pushed_reg;
        hdr_have_next   = hdr_have_reg;
        first_beat_next = first_beat_reg;
        beat_count_next = beat_count_reg;
        byte_count_next = byte_count_reg;
        byte_pos_next   = byte_pos_reg;
        in_len_next     = in_len_reg;
        truncated_next  = truncated_reg;
        csum_step1_next = hdr_have_reg && !csum_step1_reg && !csum_step2_reg && !csum_done_reg &&
                          !pushed_reg;
        csum_done_next  = csum_done_reg ? !push : csum_step2_reg;
        if (hdr_fire) active_next = 1'b1;
        else if (restart) active_next = 1'b0;
        if (restart) begin
            ended_next      = 1'b0;
            pushed_next     = 1'b0;
            hdr_have_next   = 1'b0;
            first_beat_next = 1'b1;
            beat_count_next = {BW{1'b0}};
            byte_count_next = 7'd0;
            byte_pos_next   = 16'd1;
            in_len_next     = 1'b1;
            truncated_next  = 1'b0;
            csum_step1_next = 1'b0;
            csum_done_next  = 1'b0;
        end else begin
            if (push) pushed_next = 1'b1;
            if (in_beat) begin
                if (s_axis_tkeep[0]) byte_pos_next = byte_pos_reg + 16'd1;
                in_len_next = in_len_after;
                if (s_axis_tlast) truncated_next = in_len_after;
                if (beat_count_reg != NB[BW-1:0]) beat_count_next = beat_count_reg + 1'b1;
                if (pos_small) byte_count_next = byte_count_reg + {{(7-SAW){1'b0}}, in_bytes};
                first_beat_next = 1'b0;
                if (hdr_end) hdr_have_next = 1'b1;
                if (s_axis_tlast) ended_next = 1'b1;
            end
        end
    end

    always @(posedge clk) begin
        active_reg      <= active_next;
        ended_reg       <= ended_next;
        pushed_reg      <= pushed_next;
        hdr_have_reg    <= hdr_have_next;
        first_beat_reg  <= first_beat_next;
        beat_count_reg  <= beat_count_next;
        byte_count_reg  <= byte_count_next;
        byte_pos_reg    <= byte_pos_next;
        in_len_reg      <= in_len_next;
        truncated_reg   <= truncated_next;
        csum_step1_reg  <= csum_step1_next;
        csum_step2_reg  <= csum_step1_reg && !restart;
        csum_done_reg   <= csum_done_next;
        need_dup_reg    <= !pushed_next && (csum_done_next || (ended_next && !hdr_have_next));
        // event strobes: one cycle each, 0 unless set below
        ev_truncated_reg  <= 1'b0;
        ev_packets_reg    <= 1'b0;
        ev_runt_reg       <= 1'b0;
        ev_bad_hdr_reg    <= 1'b0;
        ev_bad_csum_reg   <= 1'b0;
        ev_bad_len_reg    <= 1'b0;
        ev_not_for_us_reg <= 1'b0;
        ev_fragment_reg   <= 1'b0;
        ev_bad_proto_reg  <= 1'b0;
        if (rst) begin
            active_reg         <= 1'b0;
            ended_reg          <= 1'b0;
            pushed_reg         <= 1'b0;
            hdr_have_reg       <= 1'b0;
            first_beat_reg     <= 1'b1;
            beat_count_reg     <= {BW{1'b0}};
            byte_count_reg     <= 7'd0;
            byte_pos_reg       <= 16'd1;
            in_len_reg         <= 1'b1;
            truncated_reg      <= 1'b0;
            csum_step1_reg     <= 1'b0;
            csum_step2_reg     <= 1'b0;
            csum_done_reg      <= 1'b0;
            need_dup_reg       <= 1'b0;
            beat_sum_valid_reg <= 1'b0;
            cmd_valid_reg      <= 1'b0;
        end else begin
            // (DATA_W 8: only a beat holding a header byte is summed)
            beat_sum_valid_reg <= in_beat && ((KEEP_W != 1) || (s_axis_tkeep[0] && !hdr_have_reg));
            // truncation (frame shorter than the total length) of an accepted packet: at
            // DATA_W 8 once both the packet's end and its decision are known (the decision
            // made with or after the end, or the end after the decision), at DATA_W 64 as
            // the strip found it at the packet's end
            if ((KEEP_W == 1) ? ((push && !drop && (truncated_reg || trunc_now)) ||
                                 (trunc_now && pushed_reg && !cmd_drop_reg)) :
                                (o_tvalid && o_tready && o_tlast && o_ttrunc))
                ev_truncated_reg <= 1'b1;
            if (push) begin
                cmd_valid_reg  <= 1'b1;
                ev_packets_reg <= 1'b1;
                if (drop_runt) ev_runt_reg <= 1'b1;
                else if (drop_hdr_reg) ev_bad_hdr_reg <= 1'b1;
                else if (drop_csum) ev_bad_csum_reg <= 1'b1;
                else if (drop_len_reg) ev_bad_len_reg <= 1'b1;
                else if (drop_dst_reg) ev_not_for_us_reg <= 1'b1;
                else if (drop_frag_reg) ev_fragment_reg <= 1'b1;
                else if (drop_proto_reg) ev_bad_proto_reg <= 1'b1;
            end else if (cmd_ready) begin
                cmd_valid_reg <= 1'b0;
            end
        end
    end

    // ---------------- buffer + strip ----------------
    wire [DATA_W-1:0] f_tdata;
    wire [KEEP_W-1:0] f_tkeep;
    wire              f_tvalid, f_tready, f_tlast, f_tuser;
    stream_fifo #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH), .IN_REG((KEEP_W == 1) ? 1 : 0)
    ) u_fifo (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(fifo_tkeep),
        .s_axis_tvalid(s_axis_tvalid && taking), .s_axis_tready(fifo_ready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(fifo_tuser),
        .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
        .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire              hdr_valid;  // (the outputs read o_hdr_valid)
    wire              sts_ready_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    wire              hdr_ready;
    // (DATA_W 8: the payload is marked with tkeep, see fifo_tkeep: no skip, no length)
    stream_strip #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .SKIP_W(6), .ROUTE_W(1), .USE_STS(0),
        .USE_LEN((KEEP_W == 1) ? 0 : 1), .USE_SKIP((KEEP_W == 1) ? 0 : 1)
    ) u_strip (
        .clk(clk), .rst(rst),
        .cmd_valid(cmd_valid_reg), .cmd_ready(cmd_ready), .cmd_skip(cmd_skip_reg),
        .cmd_len(cmd_len_reg), .cmd_drop(cmd_drop_reg), .cmd_route(cmd_route_reg),
        .sts_valid(1'b1), .sts_ready(sts_ready_unused), .sts_bad(1'b0),
        .s_axis_tdata(f_tdata), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(f_tvalid),
        .s_axis_tready(f_tready), .s_axis_tlast(f_tlast), .s_axis_tuser(f_tuser),
        .m_hdr_valid(hdr_valid), .m_hdr_valid_oh(o_hdr_valid), .m_hdr_ready(hdr_ready),
        .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
        .m_axis_tready(o_tready), .m_axis_tlast(o_tlast), .m_axis_tuser(o_tuser),
        .m_axis_ttrunc(o_ttrunc), .m_axis_troute(o_route),
        .m_axis_tvalid_oh(o_tvalid_route)
    );

    assign hdr_ready = cmd_route_reg ? m_udp_hdr_ready : m_icmp_hdr_ready;
    // (flip-flops of the strip: hdr_valid && cmd_route == the route)
    assign m_icmp_hdr_valid = o_hdr_valid[0];
    assign m_udp_hdr_valid  = o_hdr_valid[1];
    wire [47:0] o_src_mac = HOLD ? in_src_mac_reg : cmd_src_mac_reg;
    wire [31:0] o_src_ip  = HOLD ? f_src : cmd_src_ip_reg;
    wire [31:0] o_dst_ip  = HOLD ? f_dst : cmd_dst_ip_reg;
    assign m_icmp_hdr_src_mac   = o_src_mac;
    assign m_icmp_hdr_src_ip    = o_src_ip;
    assign m_icmp_hdr_dst_ip    = o_dst_ip;
    assign m_icmp_hdr_protocol  = 8'd1;
    assign m_icmp_hdr_len       = cmd_len_reg;
    assign m_icmp_hdr_broadcast = cmd_bcast_reg;
    assign m_udp_hdr_src_mac    = o_src_mac;
    assign m_udp_hdr_src_ip     = o_src_ip;
    assign m_udp_hdr_dst_ip     = o_dst_ip;
    assign m_udp_hdr_protocol   = 8'd17;
    assign m_udp_hdr_len        = cmd_len_reg;
    assign m_udp_hdr_broadcast  = cmd_bcast_reg;

    assign o_tready = o_route ? m_udp_axis_tready : m_icmp_axis_tready;
    // (flip-flops of the strip: o_tvalid && o_route == the route)
    assign m_icmp_axis_tvalid = o_tvalid_route[0];
    assign m_udp_axis_tvalid  = o_tvalid_route[1];
    assign m_icmp_axis_tdata  = o_tdata;
    assign m_icmp_axis_tkeep  = o_tkeep;
    assign m_icmp_axis_tlast  = o_tlast;
    assign m_icmp_axis_tuser  = o_tuser;
    assign m_udp_axis_tdata   = o_tdata;
    assign m_udp_axis_tkeep   = o_tkeep;
    assign m_udp_axis_tlast   = o_tlast;
    assign m_udp_axis_tuser   = o_tuser;
endmodule
`default_nettype wire
