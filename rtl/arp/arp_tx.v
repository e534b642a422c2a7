`default_nettype none
// arp_tx: ARP frame builder (DATA_W 8 or 64).
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
// At 8 bits the output byte is a register, loaded with the next beat's byte as a beat
// is taken (the first beat, the destination's first byte, comes from the latched
// destination). The next byte is chosen by a one-hot register marking the pair of beats
// it is in (pair_reg[j]: beats 2j and 2j + 1): each source of two bytes is selected by
// the pairs it fills, and the beat's low bit picks the pair's even or odd byte. Wider, a
// beat is a slice of the whole frame.
// Parameters: DATA_W 8 or 64 (the widths arp is tested at), KEEP_W = DATA_W/8.

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
    output wire              busy,
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

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            arp_tx_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            arp_tx_KEEP_W_must_be_DATA_W_div_8 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam FRAME_BYTES = 42;
    localparam NB          = (FRAME_BYTES + KEEP_W - 1) / KEEP_W;  // beats per frame
    localparam LAST_BYTES  = FRAME_BYTES - (NB - 1) * KEEP_W;
    localparam BEAT_W      = 6;
    localparam [KEEP_W-1:0] LAST_KEEP = {KEEP_W{1'b1}} >> (KEEP_W - LAST_BYTES);
    localparam integer      LAST_BEAT_I = NB - 1;
    localparam [BEAT_W-1:0] LAST_BEAT = LAST_BEAT_I[BEAT_W-1:0];

    reg  [BEAT_W-1:0] beat_reg;   // index of the beat presented (0 when idle)
    reg               busy_reg;
    // the last beat is presented (the logic uses its copy last_dup_reg; the unit test
    // compares them)
    /* verilator lint_off UNUSEDSIGNAL */
    wire              last = (beat_reg == LAST_BEAT);
    /* verilator lint_on UNUSEDSIGNAL */
    // last_dup_reg: last as a register, loaded with its next value. Timing: done and the
    // last beat's flags start from a flip-flop (done decides arp's next frame start).
    reg               last_dup_reg;
    wire              adv  = busy_reg && m_axis_tready;  // a beat is taken
    reg               reply_reg;
    reg               garp_reg;   // gratuitous ARP: TPA = cfg_ip
    reg  [47:0]       dst_reg;    // destination (all ones for a broadcast), also the THA
    reg  [31:0]       tpa_reg;

    // The frame's bytes: at 8 bits one byte per beat, wider a slice of the frame.
    wire [DATA_W-1:0] beat_data;
    generate
        if (KEEP_W == 1) begin : g_byte
            reg  [20:0] pair_reg;  // one-hot: the pair of beats the next beat is in
            reg  [7:0]  byte_reg;  // the byte presented (beats 1 .. 41)
            // the sources of two bytes (the even beat's in the high half), each selected
            // by the pairs of beats it fills
            wire sel_dst01 = pair_reg[0] | (pair_reg[16] & reply_reg);  // beats 0, 1, 32, 33
            wire sel_dst23 = pair_reg[1] | (pair_reg[17] & reply_reg);  // 2, 3, 34, 35
            wire sel_dst45 = pair_reg[2] | (pair_reg[18] & reply_reg);  // 4, 5, 36, 37
            wire sel_mac01 = pair_reg[3] | pair_reg[11];                // 6, 7, 22, 23
            wire sel_mac23 = pair_reg[4] | pair_reg[12];                // 8, 9, 24, 25
            wire sel_mac45 = pair_reg[5] | pair_reg[13];                // 10, 11, 26, 27
            wire sel_ip01  = pair_reg[14] | (pair_reg[19] & garp_reg);  // 28, 29, 38, 39
            wire sel_ip23  = pair_reg[15] | (pair_reg[20] & garp_reg);  // 30, 31, 40, 41
            wire sel_tpa01 = pair_reg[19] & !garp_reg;                  // 38, 39
            wire sel_tpa23 = pair_reg[20] & !garp_reg;                  // 40, 41
            wire [15:0] pair_bytes =
                (dst_reg[47:32]  & {16{sel_dst01}}) |
                (dst_reg[31:16]  & {16{sel_dst23}}) |
                (dst_reg[15:0]   & {16{sel_dst45}}) |
                (cfg_mac[47:32]  & {16{sel_mac01}}) |
                (cfg_mac[31:16]  & {16{sel_mac23}}) |
                (cfg_mac[15:0]   & {16{sel_mac45}}) |
                (cfg_ip[31:16]   & {16{sel_ip01}}) |
                (cfg_ip[15:0]    & {16{sel_ip23}}) |
                (tpa_reg[31:16]  & {16{sel_tpa01}}) |
                (tpa_reg[15:0]   & {16{sel_tpa23}}) |
                (16'h0806 & {16{pair_reg[6]}}) |   // EtherType
                (16'h0001 & {16{pair_reg[7]}}) |   // htype
                (16'h0800 & {16{pair_reg[8]}}) |   // ptype
                (16'h0604 & {16{pair_reg[9]}}) |   // hlen, plen
                ({8'h00, reply_reg ? 8'h02 : 8'h01} & {16{pair_reg[10]}});  // opcode
            // the next beat (beat_reg + 1) is odd when beat_reg is even
            wire [7:0] next_byte = beat_reg[0] ? pair_bytes[15:8] : pair_bytes[7:0];
            always @(posedge clk) begin
                if (adv) byte_reg <= next_byte;
                // pair_reg moves to the next pair after an odd next beat, as a ring: after
                // beat 40 is taken it is at pair 0, ready for the next frame
                if (rst) pair_reg <= 21'd1;
                else if (adv && !beat_reg[0]) pair_reg <= {pair_reg[19:0], pair_reg[20]};
            end
            assign beat_data = (beat_reg == {BEAT_W{1'b0}}) ? dst_reg[47:40] : byte_reg;
        end else begin : g_wide
            // the frame, byte p at bits [8p +: 8]
            reg [NB*DATA_W-1:0] frame;
            integer i;
            always @* begin
                frame = {NB*DATA_W{1'b0}};
                for (i = 0; i < 6; i = i + 1) begin
                    frame[8*i +: 8]      = dst_reg[8*(5-i) +: 8];
                    frame[8*(6+i) +: 8]  = cfg_mac[8*(5-i) +: 8];
                    frame[8*(22+i) +: 8] = cfg_mac[8*(5-i) +: 8];
                    frame[8*(32+i) +: 8] = reply_reg ? dst_reg[8*(5-i) +: 8] : 8'h00;
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
                frame[8*21 +: 8] = reply_reg ? 8'h02 : 8'h01;
                for (i = 0; i < 4; i = i + 1) begin
                    frame[8*(28+i) +: 8] = cfg_ip[8*(3-i) +: 8];
                    frame[8*(38+i) +: 8] = garp_reg ? cfg_ip[8*(3-i) +: 8] : tpa_reg[8*(3-i) +: 8];
                end
            end
            assign beat_data = frame[beat_reg*DATA_W +: DATA_W];
        end
    endgenerate

    assign m_axis_tdata  = beat_data;
    assign m_axis_tkeep  = last_dup_reg ? LAST_KEEP : {KEEP_W{1'b1}};
    assign m_axis_tvalid = busy_reg;
    assign m_axis_tlast  = last_dup_reg;
    assign m_axis_tuser  = 1'b0;
    assign busy          = busy_reg;
    assign is_reply      = reply_reg;
    assign is_garp       = garp_reg;
    assign done          = adv && last_dup_reg;

    // The frame's fields are loaded in every cycle a frame can start (start then only
    // decides whether the frame goes out), which keeps start off their enable.
    always @(posedge clk) begin
        if (!busy_reg || done) begin
            dst_reg   <= (bcast || garp) ? {48{1'b1}} : dst_mac;
            tpa_reg   <= tpa;
            reply_reg <= reply;
            garp_reg  <= garp;
        end
    end

    // the caller starts only when !busy || done
    always @(posedge clk) begin
        if (rst) begin
            busy_reg <= 1'b0;
            beat_reg <= {BEAT_W{1'b0}};
            last_dup_reg <= 1'b0;
        end else begin
            busy_reg <= start || (busy_reg && !done);
            if (adv) begin
                beat_reg <= last_dup_reg ? {BEAT_W{1'b0}} : beat_reg + 1'b1;
                last_dup_reg <= (beat_reg == LAST_BEAT - 1'b1);
            end
        end
    end

endmodule

`default_nettype wire
