`default_nettype none
// arp_rx: ARP frame parser and validator (width-generic).
//
// Takes whole Ethernet frames of EtherType 0x0806 (from the destination MAC onwards,
// no FCS, any padding) and keeps only what the ARP engine needs: the opcode, the sender
// hardware address (SHA), the sender protocol address (SPA) and two bits saying whether
// the SPA and the target protocol address (TPA) equal cfg_ip (compared byte by byte as
// they arrive; the TPA itself and the target hardware address are not stored).
//
// A frame is malformed, dropped and counted in cnt_malformed when any of these holds:
//   EtherType != 0x0806, htype != 1, ptype != 0x0800, hlen != 6, plen != 4,
//   opcode not 1 (request) or 2 (reply), sender MAC is a group (multicast/broadcast)
//   address, the frame ends before byte 42 (truncated), or tuser is set on its last
//   beat (bad FCS or aborted frame). Bytes beyond 42 (Ethernet padding) are ignored.
//
// Two frame buffers: the capture register, written by byte position while a frame
// arrives (at DATA_W 8 the sender MAC and IP shift in, bytes 22..31), and the event slot (ev_*), loaded from it the cycle after a well-formed
// frame's verdict. If the slot is still full then, the capture register keeps the frame
// (and passes it on as soon as the slot frees); a frame whose field bytes arrive while
// the capture register is still holding an earlier one is dropped and counted in
// cnt_overrun (malformed takes precedence). The input never stalls (s_axis_tready = 1),
// and no frame's bytes ever mix with another's.
//
// Interfaces:
//   s_axis_*  AXI4-Stream input (DATA_W bits, byte lane 0 first on the wire)
//   cfg_ip    our IPv4 address (for ev_spa_ours, ev_tpa_ours)
//   ev_*      parsed event: ev_valid stays high until ev_ready (a one-cycle strobe)
//   cnt_*     wrapping counters, CNT_W bits wide (upper port bits zero)
//   cnt_ev[1:0] the counters' event strobes (bit 0 cnt_malformed, bit 1 cnt_overrun),
//             each high in the cycle before its counter steps (read them while rst is
//             low), for counters kept elsewhere (stat_counters); CNT_W may then be 1
// Latency: ev_valid is high 2 cycles after the cycle in which the frame's last beat is
// accepted (the verdict is registered first) when the slot is free.
// Parameters: DATA_W (multiple of 8, at most 168), KEEP_W = DATA_W/8, CNT_W (1..32).

module arp_rx #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8,
    parameter integer CNT_W = 32
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [31:0]       cfg_ip,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output reg               ev_valid,
    input  wire              ev_ready,
    output reg               ev_reply,     // 1 = opcode 2 (reply), 0 = opcode 1 (request)
    output reg  [47:0]       ev_sha,
    output reg  [31:0]       ev_spa,
    output reg               ev_spa_ours,  // SPA == cfg_ip (as it arrived)
    output reg               ev_tpa_ours,  // TPA == cfg_ip (as it arrived)
    output reg               ev_ask_us,    // a request for cfg_ip from another station:
                                           // !ev_reply && ev_tpa_ours && !ev_spa_ours

    output reg  [31:0]       cnt_malformed,
    output reg  [31:0]       cnt_overrun,
    output wire [1:0]        cnt_ev
);

    // counters wrap at 2^CNT_W: the masked upper bits are constant zero
    localparam [31:0] CNT_MASK = (CNT_W >= 32) ? 32'hffffffff : ((32'd1 << CNT_W) - 32'd1);

    localparam BEAT_W = 6;  // beat index, saturating; 42 bytes need at most 42 beats
    localparam [BEAT_W-1:0] BEAT_MAX = {BEAT_W{1'b1}};

    reg  [BEAT_W-1:0] beat;     // index of the current beat within the frame
    reg               bad;      // a checked byte so far was wrong
    reg               got_all;  // byte 41 has been received
    reg               drop;     // a field byte arrived while the capture register was held

    assign s_axis_tready = 1'b1;

    wire take = s_axis_tvalid;

    // hit[p]: byte p of the frame is on this beat; bv[8p +: 8] is that byte. at[p]: the
    // same without take, for what is only kept when a beat is taken (bad, got_all,
    // drop) or acted on after a taken last beat (fin_*): shallower.
    wire [41:12]   hit;
    wire [41:12]   at;
    wire [42*8-1:0] bv;

    genvar gp;
    generate
        for (gp = 0; gp < 42; gp = gp + 1) begin : g_byte
            localparam integer LANE = gp % KEEP_W;
            localparam integer BEAT = gp / KEEP_W;
            assign bv[8*gp +: 8] = s_axis_tdata[8*LANE +: 8];
            if (gp >= 12) begin : g_hit
                assign at[gp]  = (beat == BEAT[BEAT_W-1:0]) && s_axis_tkeep[LANE];
                assign hit[gp] = take && at[gp];
            end
        end
    endgenerate

    // Constant-field checks on this beat.
    reg bad_now;
    always @* begin
        bad_now = 1'b0;
        if (at[12] && bv[8*12 +: 8] != 8'h08) bad_now = 1'b1;  // EtherType 0x0806
        if (at[13] && bv[8*13 +: 8] != 8'h06) bad_now = 1'b1;
        if (at[14] && bv[8*14 +: 8] != 8'h00) bad_now = 1'b1;  // htype 1 (Ethernet)
        if (at[15] && bv[8*15 +: 8] != 8'h01) bad_now = 1'b1;
        if (at[16] && bv[8*16 +: 8] != 8'h08) bad_now = 1'b1;  // ptype 0x0800 (IPv4)
        if (at[17] && bv[8*17 +: 8] != 8'h00) bad_now = 1'b1;
        if (at[18] && bv[8*18 +: 8] != 8'h06) bad_now = 1'b1;  // hlen 6
        if (at[19] && bv[8*19 +: 8] != 8'h04) bad_now = 1'b1;  // plen 4
        if (at[20] && bv[8*20 +: 8] != 8'h00) bad_now = 1'b1;  // opcode high byte
        if (at[21] && bv[8*21 +: 8] != 8'h01 && bv[8*21 +: 8] != 8'h02) bad_now = 1'b1;
        if (at[22] && bv[8*22]) bad_now = 1'b1;  // group sender MAC
    end

    wire first    = (beat == {BEAT_W{1'b0}});
    wire bad_next = (first ? 1'b0 : bad) | bad_now;
    wire got_next = (first ? 1'b0 : got_all) | at[41];

    // The target hardware address (bytes 32..37) is not used.
    /* verilator lint_off UNUSED */
    wire [5:0] unused_tha = hit[37:32];
    wire [5:0] unused_at = at[37:32];
    wire [18*8-1:0] unused_bytes = {bv[8*32 +: 8*6], bv[0 +: 8*12]};
    /* verilator lint_on UNUSED */

    // Capture register (datapath, not reset). c_hold: it keeps a finished frame that
    // waits for the event slot; c_busy: ... and will still keep it next cycle.
    reg         c_reply;
    reg  [47:0] c_sha;
    reg  [31:0] c_spa;
    reg         c_spa_ok;
    reg         c_tpa_ok;
    reg         c_hold;
    wire        slot_free = !ev_valid || ev_ready;
    wire        c_busy    = c_hold && !slot_free;
    wire        field_now = |at[31:21] || |at[41:38];
    integer i;
    always @(posedge clk) begin
        if (!c_busy) begin
            if (hit[21]) c_reply <= (bv[8*21 +: 8] == 8'h02);
            if (KEEP_W == 1) begin
                // one byte per beat: SHA and SPA (bytes 22..31) shift in, one enable
                // (beats 22..31: 01011x and 011xxx, decoded without a compare chain)
                if (take && s_axis_tkeep[0] &&
                    ((beat[5:1] == 5'b01011) || (beat[5:3] == 3'b011)))
                    {c_sha, c_spa} <= {c_sha[39:0], c_spa, s_axis_tdata[7:0]};
            end else begin
                for (i = 0; i < 6; i = i + 1)
                    if (hit[22+i]) c_sha[8*(5-i) +: 8] <= bv[8*(22+i) +: 8];
                for (i = 0; i < 4; i = i + 1)
                    if (hit[28+i]) c_spa[8*(3-i) +: 8] <= bv[8*(28+i) +: 8];
            end
            // SPA and TPA == cfg_ip, byte by byte (each of the four bytes is seen
            // exactly once in a frame that reaches byte 41)
            if (hit[28])
                c_spa_ok <= (bv[8*28 +: 8] == cfg_ip[31:24]) &&
                            (!hit[29] || bv[8*29 +: 8] == cfg_ip[23:16]) &&
                            (!hit[30] || bv[8*30 +: 8] == cfg_ip[15:8]) &&
                            (!hit[31] || bv[8*31 +: 8] == cfg_ip[7:0]);
            else if (hit[29] || hit[30] || hit[31])
                c_spa_ok <= c_spa_ok &&
                            (!hit[29] || bv[8*29 +: 8] == cfg_ip[23:16]) &&
                            (!hit[30] || bv[8*30 +: 8] == cfg_ip[15:8]) &&
                            (!hit[31] || bv[8*31 +: 8] == cfg_ip[7:0]);
            if (hit[38])
                c_tpa_ok <= (bv[8*38 +: 8] == cfg_ip[31:24]) &&
                            (!hit[39] || bv[8*39 +: 8] == cfg_ip[23:16]) &&
                            (!hit[40] || bv[8*40 +: 8] == cfg_ip[15:8]) &&
                            (!hit[41] || bv[8*41 +: 8] == cfg_ip[7:0]);
            else if (hit[39] || hit[40] || hit[41])
                c_tpa_ok <= c_tpa_ok &&
                            (!hit[39] || bv[8*39 +: 8] == cfg_ip[23:16]) &&
                            (!hit[40] || bv[8*40 +: 8] == cfg_ip[15:8]) &&
                            (!hit[41] || bv[8*41 +: 8] == cfg_ip[7:0]);
        end
    end

    // The frame's verdict is registered with its last beat and acted on the cycle after
    // (the capture register still holds its fields then: the next frame's first field
    // byte, byte 21, cannot arrive that early for DATA_W <= 168).
    reg  fin;       // the cycle after a last beat
    reg  fin_good;  // ... of a well-formed frame
    reg  fin_drop;  // ... whose fields could not be captured
    wire load = slot_free && ((fin && fin_good && !fin_drop) || c_hold);

    always @(posedge clk) begin
        if (load) begin
            ev_reply    <= c_reply;
            ev_sha      <= c_sha;
            ev_spa      <= c_spa;
            ev_spa_ours <= c_spa_ok;
            ev_tpa_ours <= c_tpa_ok;
            ev_ask_us   <= !c_reply && c_tpa_ok && !c_spa_ok;
        end
    end

    // Control.
    always @(posedge clk) begin
        if (rst) begin
            beat        <= {BEAT_W{1'b0}};
            bad         <= 1'b0;
            got_all     <= 1'b0;
            drop        <= 1'b0;
            fin         <= 1'b0;
            fin_good    <= 1'b0;
            fin_drop    <= 1'b0;
            c_hold      <= 1'b0;
            ev_valid    <= 1'b0;
            cnt_malformed <= 32'd0;
            cnt_overrun   <= 32'd0;
        end else begin
            if (ev_ready) ev_valid <= 1'b0;
            fin <= take && s_axis_tlast;
            fin_good <= !s_axis_tuser && !bad_next && got_next;
            fin_drop <= (first ? 1'b0 : drop) | (c_busy && field_now);
            if (take) begin
                bad     <= bad_next;
                got_all <= got_next;
                drop    <= (first ? 1'b0 : drop) | (c_busy && field_now);
                if (beat != BEAT_MAX) beat <= beat + 1'b1;
                if (s_axis_tlast) beat <= {BEAT_W{1'b0}};
            end
            if (load) begin
                ev_valid <= 1'b1;
                c_hold <= 1'b0;
            end
            if (fin) begin  // (cnt_ev gives these two conditions)
                if (!fin_good) cnt_malformed <= (cnt_malformed + 32'd1) & CNT_MASK;
                else if (fin_drop) cnt_overrun <= (cnt_overrun + 32'd1) & CNT_MASK;
                else if (!slot_free) c_hold <= 1'b1;
            end
        end
    end

    assign cnt_ev = {fin && fin_good && fin_drop, fin && !fin_good};

endmodule

`default_nettype wire
