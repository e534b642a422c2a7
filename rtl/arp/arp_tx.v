`default_nettype none
// arp_tx: ARP frame builder (width-generic).
//
// On a start strobe it latches the frame's variable fields (the values present in the
// cycle of start) and emits one whole Ethernet frame of 42 bytes (no FCS, no padding:
// the MAC pads to 60):
//
//   bytes  0..5   Ethernet destination = dst_mac
//          6..11  Ethernet source      = cfg_mac
//         12..13  EtherType 0x0806
//         14..21  htype 1, ptype 0x0800, hlen 6, plen 4, opcode (1 request, 2 reply)
//         22..27  SHA = cfg_mac         28..31  SPA = cfg_ip
//         32..37  THA = dst_mac for a reply, 00:00:00:00:00:00 for a request
//         38..41  TPA = tpa
//
// A broadcast request sets bcast (destination ff:ff:ff:ff:ff:ff, dst_mac unused); a
// unicast request (cache re-validation) passes the known MAC; a gratuitous ARP sets
// garp (broadcast, TPA = cfg_ip, dst_mac and tpa unused). cfg_mac and cfg_ip are read
// live (they are quasi-static configuration; at 8 bits a byte of them is read one beat
// before it is presented).
//
// Interfaces:
//   start, reply, bcast, garp,  frame request, taken when start (only when !busy || done)
//   dst_mac, tpa
//   busy                        1 from the cycle after start until the last beat is taken
//   done                        one-cycle strobe when the last beat is taken; a start in
//                               the same cycle makes the next frame follow with no gap
//   is_reply, is_garp           the kind of the frame being sent (reply and garp as
//                               latched at start)
//   m_axis_*                    AXI4-Stream output, tuser always 0
// Latency: the first beat is valid the cycle after start; ceil(42/KEEP_W) beats;
// frames can follow back to back.
// At 8 bits the byte is made one beat ahead: the counter holds the next beat's index, a
// one-hot register the pair of beats it is in, each source (a pair of bytes) is gated by
// an enable flip-flop loaded as that register moves, the beat's low bit picks the pair's
// even or odd byte last (one gate from the output register), and the byte is
// loaded into an output register as the beat before it is taken, so the output is a
// flip-flop (the first beat, the destination's first byte, is taken from its latch
// through one gate); wider, a beat is a slice of the whole frame. A broadcast
// destination is loaded as all ones (the latch's synchronous set), not multiplexed per
// beat.
// Parameters: DATA_W (multiple of 8, at most 168: a frame has at least two beats),
// KEEP_W = DATA_W/8.

module arp_tx #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,

    input  wire [47:0]       cfg_mac,
    input  wire [31:0]       cfg_ip,

    input  wire              start,
    input  wire              reply,
    input  wire              bcast,
    input  wire              garp,
    input  wire [47:0]       dst_mac,
    input  wire [31:0]       tpa,
    output reg               busy,
    output wire              done,
    output wire              is_reply,  // the frame being sent (latched at start): a reply
    output wire              is_garp,   // ... a gratuitous ARP

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser
);

    localparam FRAME_BYTES = 42;
    localparam NB          = (FRAME_BYTES + KEEP_W - 1) / KEEP_W;  // beats per frame
    localparam LAST_BYTES  = FRAME_BYTES - (NB - 1) * KEEP_W;
    localparam BEAT_W      = 6;
    localparam [KEEP_W-1:0] LAST_KEEP = {KEEP_W{1'b1}} >> (KEEP_W - LAST_BYTES);

    // beat counter: at 8 bits the index of the beat after the one presented (1 when
    // idle), wider the index of the beat presented (0 when idle)
    localparam integer BC0 = (KEEP_W == 1) ? 1 : 0;
    localparam integer LAST_M1 = NB - 2 + BC0;
    localparam [BEAT_W-1:0] LAST_BEAT_M1 = LAST_M1[BEAT_W-1:0];
    localparam [BEAT_W-1:0] BEAT_0 = BC0[BEAT_W-1:0];
    reg  [BEAT_W-1:0] beat;
    reg               last;  // the last beat is presented (registered)
    wire              adv = busy && m_axis_tready;  // a beat is taken
    reg               r_reply;
    reg               r_garp;   // gratuitous ARP: TPA = cfg_ip
    reg  [47:0]       r_dst;    // destination (all ones for a broadcast: its flip-flops'
                                // synchronous set), also the THA of a reply
    reg  [31:0]       r_tpa;

    // The frame's bytes: at 8 bits one byte per beat (below), wider a slice of the frame.
    wire [DATA_W-1:0] beat_data;
    wire              next_last;  // the beat after the one taken is the last
    generate
        if (KEEP_W == 1) begin : g_byte
            // The next beat's byte (beat is the next beat's index: the byte made is
            // loaded into ob). A one-hot register h marks the pair of beats it is in
            // (h[j]: beats 2j and 2j + 1). Ten sources, each a pair of bytes (the even
            // beat's, the odd beat's), are gated by enable flip-flops (en: an OR of a
            // few h bits and the frame's kind, loaded as h moves): the destination's
            // bytes 0, 1 / 2, 3 / 4, 5 (beats 0..5, and 32..37 for a reply), our MAC's
            // 0, 1 (beats 6, 7 and 22, 23) and 2, 3 / 4, 5 (beats 8..11 and 24..27), our
            // IP's 0, 1 and 2, 3 (beats 28..31, and 38..41 for a gratuitous ARP) and the
            // target IP's 0, 1 and 2, 3 (beats 38..41 otherwise). The constant bytes'
            // bits (pairs 6..10, beats 12..21) are five more such flip-flops. The even
            // and the odd byte of the pair are each an OR of the gated sources, and
            // beat[0] picks one of them last, so it is one gate from ob.
            reg  [20:0] h;
            wire        o = beat[0];
            // the enables as functions of h and the frame's kind (r_reply and r_garp only
            // change while h is at pair 0, where they are not read): en[9:0] the sources,
            // en[14:10] the constant bytes' bits (08 06 | 00 01 | 08 00 | 06 04 |
            // 00 opcode: 1 request, 2 reply): the even byte's bit 3 (pairs 6, 8), the
            // even byte's bits 2, 1 (pair 9), the odd byte's bit 2 (pairs 6, 9), bit 1
            // (pair 6, pair 10 of a reply) and bit 0 (pair 7, pair 10 of a request)
            function [14:0] en_of(input [20:0] hh, input rp, input gp);
                begin
                    en_of[0] = hh[0] | (hh[16] & rp);   // D0, D1
                    en_of[1] = hh[1] | (hh[17] & rp);   // D2, D3
                    en_of[2] = hh[2] | (hh[18] & rp);   // D4, D5
                    en_of[3] = hh[3] | hh[11];          // M0, M1
                    en_of[4] = hh[4] | hh[12];          // M2, M3
                    en_of[5] = hh[5] | hh[13];          // M4, M5
                    en_of[6] = hh[14] | (hh[19] & gp);  // I0, I1
                    en_of[7] = hh[15] | (hh[20] & gp);  // I2, I3
                    en_of[8] = hh[19] & !gp;            // T0, T1
                    en_of[9] = hh[20] & !gp;            // T2, T3
                    en_of[10] = hh[6] | hh[8];
                    en_of[11] = hh[9];
                    en_of[12] = hh[6] | hh[9];
                    en_of[13] = hh[6] | (hh[10] & rp);
                    en_of[14] = hh[7] | (hh[10] & !rp);
                end
            endfunction
            // kept as flip-flops loaded with h (reset and done: pair 0)
            reg  [14:0] en;
            // the ten two-byte sources, pair i at [16i +: 16] (even byte in the high half):
            // the destination's bytes 0-1, 2-3, 4-5, our MAC's 0-1, 2-3, 4-5, our IP's
            // 0-1, 2-3 and the target IP's 0-1, 2-3, each gated by en[i], ORed together
            // with the constant bytes' bits
            wire [159:0] src = {r_tpa[15:0], r_tpa[31:16], cfg_ip[15:0], cfg_ip[31:16],
                                cfg_mac[15:0], cfg_mac[31:16], cfg_mac[47:32],
                                r_dst[15:0], r_dst[31:16], r_dst[47:32]};
            function [15:0] gated_or(input [159:0] s, input [9:0] e);
                integer i;
                begin
                    gated_or = 16'd0;
                    for (i = 0; i < 10; i = i + 1)
                        gated_or = gated_or | (s[16*i +: 16] & {16{e[i]}});
                end
            endfunction
            wire [15:0] pr = gated_or(src, en[9:0]) |
                             {4'h0, en[10], en[11], en[11], 1'b0, 5'h0, en[12], en[13], en[14]};
            wire [7:0]  be = pr[15:8];  // the pair's even byte
            wire [7:0]  bo = pr[7:0];   // the pair's odd byte
            wire [7:0]  b = o ? bo : be;
            // h and en are a ring: the beat that takes h from pair 20 (beat 40) takes it
            // to pair 0, so at the frame's end they are back at their idle values with no
            // reset by done (the consumer's ready stays off their reset; it reaches only
            // the enable, adv && o)
            always @(posedge clk) begin
                if (rst) en <= en_of(21'd1, 1'b0, 1'b0);
                else if (adv && o) en <= en_of({h[19:0], h[20]}, r_reply, r_garp);
            end
            // h follows beat: pair 0 (beat 1) when idle, the next pair after an odd beat
            always @(posedge clk) begin
                if (rst) h <= 21'd1;
                else if (adv && o) h <= {h[19:0], h[20]};
            end
            assign next_last = h[20] && o;  // beat 41 (the pair of beats 40 and 41)
            // the presented byte: a register loaded with the next beat's byte as a beat is
            // taken (its value while idle is never presented: the first beat comes from
            // the destination latch); the enable is the consumer's ready alone
            reg [7:0] ob;
            reg       first;  // the first beat is presented (or idle)
            always @(posedge clk) begin
                if (m_axis_tready) ob <= b;
                if (rst) first <= 1'b1;
                else if (adv) first <= last;
            end
            assign beat_data = first ? r_dst[47:40] : ob;
        end else begin : g_wide
            // the frame, byte p at bits [8p +: 8]
            reg [NB*DATA_W-1:0] frame;
            integer i;
            always @* begin
                frame = {NB*DATA_W{1'b0}};
                for (i = 0; i < 6; i = i + 1) begin
                    frame[8*i +: 8]      = r_dst[8*(5-i) +: 8];
                    frame[8*(6+i) +: 8]  = cfg_mac[8*(5-i) +: 8];
                    frame[8*(22+i) +: 8] = cfg_mac[8*(5-i) +: 8];
                    frame[8*(32+i) +: 8] = r_reply ? r_dst[8*(5-i) +: 8] : 8'h00;
                end
                frame[8*12 +: 8] = 8'h08;
                frame[8*13 +: 8] = 8'h06;
                frame[8*14 +: 8] = 8'h00;
                frame[8*15 +: 8] = 8'h01;
                frame[8*16 +: 8] = 8'h08;
                frame[8*17 +: 8] = 8'h00;
                frame[8*18 +: 8] = 8'h06;
                frame[8*19 +: 8] = 8'h04;
                frame[8*20 +: 8] = 8'h00;
                frame[8*21 +: 8] = r_reply ? 8'h02 : 8'h01;
                for (i = 0; i < 4; i = i + 1) begin
                    frame[8*(28+i) +: 8] = cfg_ip[8*(3-i) +: 8];
                    frame[8*(38+i) +: 8] = r_garp ? cfg_ip[8*(3-i) +: 8] : r_tpa[8*(3-i) +: 8];
                end
            end
            assign beat_data = frame[beat*DATA_W +: DATA_W];
            assign next_last = (beat == LAST_BEAT_M1);
        end
    endgenerate


    assign m_axis_tdata  = beat_data;
    assign m_axis_tkeep  = last ? LAST_KEEP : {KEEP_W{1'b1}};
    assign m_axis_tvalid = busy;
    assign m_axis_tlast  = last;
    assign m_axis_tuser  = 1'b0;
    assign is_reply      = r_reply;
    assign is_garp       = r_garp;
    assign done          = adv && last;

    wire take = start;  // the caller starts only when !busy || done

    // The wide fields are loaded in every cycle a frame could start (start then only
    // decides whether the frame goes out), which keeps start off their enable.
    // At 8 bits the fields are not read while the last beat is presented (its byte is in
    // the output register), so they load from then on (!busy || last), with no consumer
    // ready in the enable; wider, the last beat is a slice of them, so they load from the
    // cycle it is taken (!busy || done).
    wire f_load = (KEEP_W == 1) ? (!busy || last) : (!busy || done);
    always @(posedge clk) begin
        if (f_load) begin
            r_dst   <= (bcast || garp) ? {48{1'b1}} : dst_mac;
            r_tpa   <= tpa;
        end
        if (take) begin
            r_reply <= reply;
            r_garp  <= garp;
        end
    end

    // At 8 bits a frame has an even number of beats (42) and the beat after the last has
    // next_last 0 (h is back at pair 0), so beat[0] (the only bit read) and last return to
    // their first values by themselves: only rst resets them, and the consumer's ready
    // reaches them through the enable (adv) alone. Wider, done resets them.
    wire beat_rst = (KEEP_W == 1) ? rst : (rst || done);

    // beat and last are at their first values (beat BEAT_0, last 0) whenever the
    // transmitter is idle (set with the last beat), so a start only sets busy: it stays
    // off the beat counter (a frame has at least 2 beats, DATA_W <= 168, so last stays 0
    // on the first)
    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
        end else begin
            busy <= take || (busy && !(m_axis_tready && last));
        end
        if (beat_rst) begin
            beat <= BEAT_0;
            last <= 1'b0;
        end else if (adv) begin
            beat <= beat + 1'b1;
            last <= next_last;
        end
    end

endmodule

`default_nettype wire
