`default_nettype none
// arp_rx: ARP frame parser and validator (width-generic).
//
// Takes whole Ethernet frames of EtherType 0x0806 (from the destination MAC onwards,
// no FCS, any padding) and extracts the fields the ARP engine needs: opcode, sender
// hardware address (SHA), sender protocol address (SPA) and target protocol address
// (TPA). The target hardware address is not needed and not stored.
//
// A frame is malformed, dropped and counted in cnt_malformed when any of these holds:
//   EtherType != 0x0806, htype != 1, ptype != 0x0800, hlen != 6, plen != 4,
//   opcode not 1 (request) or 2 (reply), sender MAC is a group (multicast/broadcast)
//   address, the frame ends before byte 42 (truncated), or tuser is set on its last
//   beat (bad FCS or aborted frame). Bytes beyond 42 (Ethernet padding) are ignored.
//
// The fields are collected in a capture register while the frame arrives and copied
// to the event slot (ev_valid/ev_ready) with the frame's last beat, where they stay
// until the ARP engine has consumed them. The input never stalls (s_axis_tready is
// always 1): a well-formed frame that ends while the slot is still full is dropped
// and counted in cnt_overrun, so no frame's bytes ever mix with another's.
//
// Interfaces:
//   s_axis_*  AXI4-Stream input (DATA_W bits, byte lane 0 first on the wire)
//   ev_*      parsed event: ev_valid stays high until ev_ready (a one-cycle strobe)
//   cnt_*     32-bit wrapping counters
// Latency: ev_valid is high 2 cycles after the cycle in which the frame's last beat is
// accepted (the verdict is registered first).
// Parameters: DATA_W (multiple of 8, at most 168), KEEP_W = DATA_W/8.

module arp_rx #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,

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
    output reg  [31:0]       ev_tpa,

    output reg  [31:0]       cnt_malformed,
    output reg  [31:0]       cnt_overrun
);

    localparam BEAT_W = 6;  // beat index, saturating; 42 bytes need at most 42 beats
    localparam [BEAT_W-1:0] BEAT_MAX = {BEAT_W{1'b1}};

    reg  [BEAT_W-1:0] beat;     // index of the current beat within the frame
    reg               bad;      // a checked byte so far was wrong
    reg               got_all;  // byte 41 has been received

    assign s_axis_tready = 1'b1;

    wire take = s_axis_tvalid;

    // hit[p]: byte p of the frame is on this beat; bv[8p +: 8] is that byte.
    wire [41:12]   hit;
    wire [42*8-1:0] bv;

    genvar gp;
    generate
        for (gp = 0; gp < 42; gp = gp + 1) begin : g_byte
            localparam integer LANE = gp % KEEP_W;
            localparam integer BEAT = gp / KEEP_W;
            assign bv[8*gp +: 8] = s_axis_tdata[8*LANE +: 8];
            if (gp >= 12) begin : g_hit
                assign hit[gp] = take && (beat == BEAT[BEAT_W-1:0]) && s_axis_tkeep[LANE];
            end
        end
    endgenerate

    // Constant-field checks on this beat.
    reg bad_now;
    always @* begin
        bad_now = 1'b0;
        if (hit[12] && bv[8*12 +: 8] != 8'h08) bad_now = 1'b1;  // EtherType 0x0806
        if (hit[13] && bv[8*13 +: 8] != 8'h06) bad_now = 1'b1;
        if (hit[14] && bv[8*14 +: 8] != 8'h00) bad_now = 1'b1;  // htype 1 (Ethernet)
        if (hit[15] && bv[8*15 +: 8] != 8'h01) bad_now = 1'b1;
        if (hit[16] && bv[8*16 +: 8] != 8'h08) bad_now = 1'b1;  // ptype 0x0800 (IPv4)
        if (hit[17] && bv[8*17 +: 8] != 8'h00) bad_now = 1'b1;
        if (hit[18] && bv[8*18 +: 8] != 8'h06) bad_now = 1'b1;  // hlen 6
        if (hit[19] && bv[8*19 +: 8] != 8'h04) bad_now = 1'b1;  // plen 4
        if (hit[20] && bv[8*20 +: 8] != 8'h00) bad_now = 1'b1;  // opcode high byte
        if (hit[21] && bv[8*21 +: 8] != 8'h01 && bv[8*21 +: 8] != 8'h02) bad_now = 1'b1;
        if (hit[22] && bv[8*22]) bad_now = 1'b1;  // group sender MAC
    end

    wire first    = (beat == {BEAT_W{1'b0}});
    wire bad_next = (first ? 1'b0 : bad) | bad_now;
    wire got_next = (first ? 1'b0 : got_all) | hit[41];

    // The target hardware address (bytes 32..37) is not used.
    /* verilator lint_off UNUSED */
    wire [5:0] unused_tha = hit[37:32];
    wire [18*8-1:0] unused_bytes = {bv[8*32 +: 8*6], bv[0 +: 8*12]};
    /* verilator lint_on UNUSED */

    // Field capture (datapath, not reset): c_* hold the bytes received so far, c_*_n
    // include this beat's.
    reg         c_reply, c_reply_n;
    reg  [47:0] c_sha, c_sha_n;
    reg  [31:0] c_spa, c_spa_n;
    reg  [31:0] c_tpa, c_tpa_n;
    integer i;
    always @* begin
        c_reply_n = hit[21] ? (bv[8*21 +: 8] == 8'h02) : c_reply;
        c_sha_n = c_sha;
        c_spa_n = c_spa;
        c_tpa_n = c_tpa;
        for (i = 0; i < 6; i = i + 1)
            if (hit[22+i]) c_sha_n[8*(5-i) +: 8] = bv[8*(22+i) +: 8];
        for (i = 0; i < 4; i = i + 1)
            if (hit[28+i]) c_spa_n[8*(3-i) +: 8] = bv[8*(28+i) +: 8];
        for (i = 0; i < 4; i = i + 1)
            if (hit[38+i]) c_tpa_n[8*(3-i) +: 8] = bv[8*(38+i) +: 8];
    end

    // The frame's verdict is registered with its last beat and acted on the cycle after
    // (c_* still hold its fields then: the next frame's first field byte, byte 21,
    // cannot arrive that early for DATA_W <= 168).
    reg  fin;       // the cycle after a last beat
    reg  fin_good;  // ... of a well-formed frame
    wire slot_free = !ev_valid || ev_ready;

    always @(posedge clk) begin
        c_reply <= c_reply_n;
        c_sha <= c_sha_n;
        c_spa <= c_spa_n;
        c_tpa <= c_tpa_n;
        if (fin && fin_good && slot_free) begin
            ev_reply <= c_reply;
            ev_sha <= c_sha;
            ev_spa <= c_spa;
            ev_tpa <= c_tpa;
        end
    end

    // Control.
    always @(posedge clk) begin
        if (rst) begin
            beat          <= {BEAT_W{1'b0}};
            bad           <= 1'b0;
            got_all       <= 1'b0;
            fin           <= 1'b0;
            fin_good      <= 1'b0;
            ev_valid      <= 1'b0;
            cnt_malformed <= 32'd0;
            cnt_overrun   <= 32'd0;
        end else begin
            if (ev_ready) ev_valid <= 1'b0;
            fin <= take && s_axis_tlast;
            fin_good <= !s_axis_tuser && !bad_next && got_next;
            if (take) begin
                bad     <= bad_next;
                got_all <= got_next;
                if (beat != BEAT_MAX) beat <= beat + 1'b1;
                if (s_axis_tlast) beat <= {BEAT_W{1'b0}};
            end
            if (fin) begin
                if (!fin_good) cnt_malformed <= cnt_malformed + 32'd1;
                else if (!slot_free) cnt_overrun <= cnt_overrun + 32'd1;
                else ev_valid <= 1'b1;
            end
        end
    end

endmodule

`default_nettype wire
