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
// At 8 bits two byte multiplexers indexed by the low beat bits (destination and our
// MAC; our IP and the target IP) and the beat's decoded source and constant make the
// byte, one beat ahead: the counter holds the next beat's index and the byte is loaded
// into an output register as the beat before it is taken, so the output is a flip-flop
// (the first beat, the destination's first byte, is taken from its latch through one
// gate); wider, a beat is a slice of the whole frame. A broadcast destination is loaded
// as all ones (the latch's synchronous set), not multiplexed per beat.
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
    reg  [BEAT_W-1:0] beat;
    reg               last;  // the last beat is presented (registered)
    wire              adv = busy && m_axis_tready;  // a beat is taken
    reg               r_reply;
    reg               r_garp;   // gratuitous ARP: TPA = cfg_ip
    reg  [47:0]       r_dst;    // destination (all ones for a broadcast: its flip-flops'
                                // synchronous set), also the THA of a reply
    reg  [31:0]       r_tpa;

    // The frame's bytes. At 8 bits one byte per beat, from two byte multiplexers whose
    // index is a function of the low beat bits alone (the destination at 0..5 and 32..37
    // and our MAC at 6..11 and 22..27 in one; our IP at 28..31 and the target's at
    // 38..41 in the other), or a constant.
    wire [DATA_W-1:0] beat_data;
    generate
        if (KEEP_W == 1) begin : g_byte
            // dm: the destination's byte (beat[3:0] 0..5: beats 0..5 and 32..37) or our
            // MAC's (6..11: beats 6..11 and 22..27); ib: an IP byte of cfg_ip (28..31)
            // or of the target (38..41), indexed by {beat[1] ^ beat[5], beat[0]}
            reg [7:0] dm, ib, b;
            reg s_dm, s_ib;
            reg [7:0] kb;
            // (beat here is the next beat's index: the byte made is loaded into ob)
            wire [1:0] ix = {beat[1] ^ beat[5], beat[0]};
            wire [31:0] ipsrc = (beat[5] && !r_garp) ? r_tpa : cfg_ip;
            always @* begin
                case (beat[3:0])
                    4'd0: dm = r_dst[47:40];
                    4'd1: dm = r_dst[39:32];
                    4'd2: dm = r_dst[31:24];
                    4'd3: dm = r_dst[23:16];
                    4'd4: dm = r_dst[15:8];
                    4'd5: dm = r_dst[7:0];
                    4'd6: dm = cfg_mac[47:40];
                    4'd7: dm = cfg_mac[39:32];
                    4'd8: dm = cfg_mac[31:24];
                    4'd9: dm = cfg_mac[23:16];
                    4'd10: dm = cfg_mac[15:8];
                    default: dm = cfg_mac[7:0];
                endcase
                case (ix)
                    2'd0: ib = ipsrc[31:24];
                    2'd1: ib = ipsrc[23:16];
                    2'd2: ib = ipsrc[15:8];
                    default: ib = ipsrc[7:0];
                endcase
                b = ({8{s_dm}} & dm) | ({8{s_ib}} & ib) | kb;
            end
            // which source the beat takes, and the constant bytes (decoded from beat)
            always @* begin
                s_dm = 1'b0; s_ib = 1'b0; kb = 8'h00;
                case (beat)
                    6'd0, 6'd1, 6'd2, 6'd3, 6'd4, 6'd5,
                    6'd6, 6'd7, 6'd8, 6'd9, 6'd10, 6'd11,
                    6'd22, 6'd23, 6'd24, 6'd25, 6'd26, 6'd27: s_dm = 1'b1;
                    6'd12: kb = 8'h08;
                    6'd13: kb = 8'h06;
                    6'd15: kb = 8'h01;
                    6'd16: kb = 8'h08;
                    6'd18: kb = 8'h06;
                    6'd19: kb = 8'h04;
                    6'd21: kb = r_reply ? 8'h02 : 8'h01;
                    6'd28, 6'd29, 6'd30, 6'd31,
                    6'd38, 6'd39, 6'd40, 6'd41: s_ib = 1'b1;
                    6'd32, 6'd33, 6'd34, 6'd35, 6'd36, 6'd37: s_dm = r_reply;
                    default: ;
                endcase
            end
            // the presented byte: a register loaded with the next beat's byte as a beat is
            // taken (its value while idle is never presented: the first beat comes from
            // the destination latch); the enable is the consumer's ready alone
            reg [7:0] ob;
            reg       first;  // the first beat is presented (or idle)
            always @(posedge clk) begin
                if (m_axis_tready) ob <= b;
                if (rst || done) first <= 1'b1;
                else if (adv) first <= 1'b0;
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
        end
    endgenerate

    localparam integer LAST_M1 = NB - 2 + BC0;
    localparam [BEAT_W-1:0] LAST_BEAT_M1 = LAST_M1[BEAT_W-1:0];
    localparam [BEAT_W-1:0] BEAT_0 = BC0[BEAT_W-1:0];

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
    always @(posedge clk) begin
        if (!busy || done) begin
            r_dst   <= (bcast || garp) ? {48{1'b1}} : dst_mac;
            r_tpa   <= tpa;
        end
        if (take) begin
            r_reply <= reply;
            r_garp  <= garp;
        end
    end

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
        if (rst || done) begin
            beat <= BEAT_0;
            last <= 1'b0;
        end else if (adv) begin
            beat <= beat + 1'b1;
            last <= (beat == LAST_BEAT_M1);
        end
    end

endmodule

`default_nettype wire
