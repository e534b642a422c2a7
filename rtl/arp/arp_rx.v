`default_nettype none
// arp_rx: ARP frame parser and validator (DATA_W 8 or 64).
//
// Takes whole Ethernet frames of EtherType 0x0806 (from the destination MAC onwards,
// no FCS, any padding) and keeps only what the ARP engine needs: the opcode, the sender
// hardware address (SHA), the sender protocol address (SPA) and two bits saying whether
// the SPA and the target protocol address (TPA) equal cfg_ip (each byte compared as it
// arrives; the TPA itself and the target hardware address are not stored).
//
// A frame is malformed, dropped and counted (malformed) when any of these holds:
//   EtherType != 0x0806, htype != 1, ptype != 0x0800, hlen != 6, plen != 4,
//   opcode not 1 (request) or 2 (reply), sender MAC is a group (multicast/broadcast)
//   address, the frame ends before byte 42 (truncated), or tuser is set on its last
//   beat (bad FCS or aborted frame). Bytes beyond 42 (Ethernet padding) are ignored.
//
// Two frame buffers: the capture register (capt_*_reg), written byte by byte while a
// frame arrives, and the event slot (ev_*), loaded from it the cycle after a well-formed
// frame's verdict. If the slot is still full then, the capture register keeps the frame
// (capt_hold_reg) and passes it on as soon as the slot frees; a frame whose field bytes
// arrive while the capture register is still holding an earlier one is dropped and
// counted as an overrun (malformed takes precedence). The input never stalls
// (s_axis_tready = 1), and no frame's bytes ever mix with another's.
//
// Interfaces:
//   s_axis_*  AXI4-Stream input (DATA_W bits, byte lane 0 first on the wire)
//   cfg_ip    our IPv4 address (for ev_spa_ours, ev_tpa_ours; each address byte is
//             compared with it as the byte is taken)
//   ev_*      parsed event: ev_valid stays high until ev_ready (a one-cycle strobe);
//             ev_reply .. ev_tpa_ours are meaningful only while ev_valid is high (while
//             the slot is free they follow the capture register, a frame in progress)
//   cnt_ev[1:0] event strobes, one cycle each, for counters kept in stat_counters:
//             bit 0 malformed frames dropped, bit 1 frames dropped because the slot was
//             busy (overrun)
// Latency: ev_valid is high 2 cycles after the cycle in which the frame's last beat is
// accepted (the verdict is registered first) when the slot is free.
// Parameters: DATA_W 8 or 64 (the widths arp is tested at), KEEP_W = DATA_W/8.

module arp_rx #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
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

    output wire              ev_valid,
    input  wire              ev_ready,
    output wire              ev_reply,     // 1 = opcode 2 (reply), 0 = opcode 1 (request)
    output wire [47:0]       ev_sha,
    output wire [31:0]       ev_spa,
    output wire              ev_spa_ours,  // SPA == cfg_ip (as it arrived)
    output wire              ev_tpa_ours,  // TPA == cfg_ip (as it arrived)

    output wire [1:0]        cnt_ev
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            arp_rx_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            arp_rx_KEEP_W_must_be_DATA_W_div_8 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam BEAT_W = 6;  // beat index, saturating; 42 bytes need at most 42 beats
    localparam [BEAT_W-1:0] BEAT_MAX = {BEAT_W{1'b1}};
    localparam NBYTES = 42;  // the bytes of an ARP frame that are read

    assign s_axis_tready = 1'b1;
    wire take = s_axis_tvalid;

    reg  [BEAT_W-1:0] beat_reg;  // index of the current beat within the frame
    wire first = (beat_reg == {BEAT_W{1'b0}});  // the frame's first beat

    // Byte positions: at[p] says byte p of the frame is on the beat taken now, byte[p]
    // is the lane it would be in.
    wire [NBYTES-1:0]   at;
    wire [8*NBYTES-1:0] byte_v;
    genvar p;
    generate
        for (p = 0; p < NBYTES; p = p + 1) begin : g_pos
            localparam integer      BEAT_I    = p / KEEP_W;
            localparam [BEAT_W-1:0] BEAT_OF_P = BEAT_I[BEAT_W-1:0];
            assign at[p] = take && (beat_reg == BEAT_OF_P) && s_axis_tkeep[p % KEEP_W];
            assign byte_v[8*p +: 8] = s_axis_tdata[8*(p % KEEP_W) +: 8];
        end
    endgenerate

    // a fixed header byte that is wrong on this beat
    wire bad_byte =
        (at[12] && byte_v[8*12 +: 8] != 8'h08) ||  // EtherType 0x0806
        (at[13] && byte_v[8*13 +: 8] != 8'h06) ||
        (at[14] && byte_v[8*14 +: 8] != 8'h00) ||  // htype 1
        (at[15] && byte_v[8*15 +: 8] != 8'h01) ||
        (at[16] && byte_v[8*16 +: 8] != 8'h08) ||  // ptype 0x0800
        (at[17] && byte_v[8*17 +: 8] != 8'h00) ||
        (at[18] && byte_v[8*18 +: 8] != 8'h06) ||  // hlen 6
        (at[19] && byte_v[8*19 +: 8] != 8'h04) ||  // plen 4
        (at[20] && byte_v[8*20 +: 8] != 8'h00) ||  // opcode 1 or 2
        (at[21] && byte_v[8*21 +: 8] != 8'h01 && byte_v[8*21 +: 8] != 8'h02) ||
        (at[22] && byte_v[8*22]);                  // group sender MAC
    // a byte the capture register keeps (opcode, SHA, SPA, TPA) is on this beat
    wire field_byte = (|at[31:21]) || (|at[41:38]);

    // Capture register (datapath, not reset): the fields of the frame arriving, or of
    // a finished frame waiting for the event slot (capt_hold_reg)
    reg         capt_reply_reg;
    reg  [47:0] capt_sha_reg;
    reg  [31:0] capt_spa_reg;
    reg  [3:0]  capt_spa_eq_reg;  // each SPA byte equals cfg_ip's
    reg  [3:0]  capt_tpa_eq_reg;  // each TPA byte equals cfg_ip's
    reg         capt_hold_reg;
    reg         ev_valid_reg;
    wire        slot_free = !ev_valid_reg || ev_ready;
    // ... and will still hold it next cycle (capt_hold_reg implies ev_valid_reg: it is
    // set only while the slot is full, which stays full while it is set)
    wire        capt_busy = capt_hold_reg && !ev_ready;
    integer i;
    always @(posedge clk) begin
        if (!capt_busy) begin
            if (at[21]) capt_reply_reg <= (byte_v[8*21 +: 8] == 8'h02);
            for (i = 0; i < 6; i = i + 1)
                if (at[22 + i]) capt_sha_reg[8*(5-i) +: 8] <= byte_v[8*(22+i) +: 8];
            for (i = 0; i < 4; i = i + 1) begin
                if (at[28 + i]) begin
                    capt_spa_reg[8*(3-i) +: 8] <= byte_v[8*(28+i) +: 8];
                    capt_spa_eq_reg[i] <= (byte_v[8*(28+i) +: 8] == cfg_ip[8*(3-i) +: 8]);
                end
                if (at[38 + i])
                    capt_tpa_eq_reg[i] <= (byte_v[8*(38+i) +: 8] == cfg_ip[8*(3-i) +: 8]);
            end
        end
    end

    // The frame's running flags (restarted by its first beat). The verdict is read the
    // cycle after the last beat (fin_reg), while the flags and the capture register
    // still hold the frame (the next frame's first field byte, byte 21, cannot arrive
    // that early).
    reg  bad_reg;      // a fixed byte was wrong, or tuser on the last beat
    reg  got_all_reg;  // byte 41 has been received
    reg  drop_reg;     // a field byte arrived while the capture register was held
    reg  fin_reg;      // the cycle after a last beat
    wire good = got_all_reg && !bad_reg;
    wire load = slot_free && ((fin_reg && good && !drop_reg) || capt_hold_reg);

    always @(posedge clk) begin
        if (rst) begin
            beat_reg      <= {BEAT_W{1'b0}};
            bad_reg       <= 1'b0;
            got_all_reg   <= 1'b0;
            drop_reg      <= 1'b0;
            fin_reg       <= 1'b0;
            capt_hold_reg <= 1'b0;
            ev_valid_reg  <= 1'b0;
        end else begin
            fin_reg <= take && s_axis_tlast;
            if (take) begin
                bad_reg     <= (!first && bad_reg) || bad_byte || (s_axis_tlast && s_axis_tuser);
                got_all_reg <= (!first && got_all_reg) || at[41];
                drop_reg    <= (!first && drop_reg) || (capt_busy && field_byte);
                if (s_axis_tlast) beat_reg <= {BEAT_W{1'b0}};
                else if (beat_reg != BEAT_MAX) beat_reg <= beat_reg + 1'b1;
            end
            if (ev_ready) ev_valid_reg <= 1'b0;
            if (load) begin
                ev_valid_reg <= 1'b1;
                capt_hold_reg <= 1'b0;
            end
            // a good frame not dropped, the slot taken: held until it is free
            if (fin_reg && good && !drop_reg && !slot_free) capt_hold_reg <= 1'b1;
        end
    end

    // Event slot. Its fields load whenever the slot is free (not only with load, which
    // sets ev_valid): they are read only while ev_valid is high, and the value they hold
    // when it rises is the one load gives them.
    reg         ev_reply_reg;
    reg  [47:0] ev_sha_reg;
    reg  [31:0] ev_spa_reg;
    reg         ev_spa_ours_reg;
    reg         ev_tpa_ours_reg;
    always @(posedge clk) begin
        if (slot_free) begin
            ev_reply_reg    <= capt_reply_reg;
            ev_sha_reg      <= capt_sha_reg;
            ev_spa_reg      <= capt_spa_reg;
            ev_spa_ours_reg <= &capt_spa_eq_reg;
            ev_tpa_ours_reg <= &capt_tpa_eq_reg;
        end
    end
    assign ev_valid    = ev_valid_reg;
    assign ev_reply    = ev_reply_reg;
    assign ev_sha      = ev_sha_reg;
    assign ev_spa      = ev_spa_reg;
    assign ev_spa_ours = ev_spa_ours_reg;
    assign ev_tpa_ours = ev_tpa_ours_reg;

    assign cnt_ev = {fin_reg && good && drop_reg, fin_reg && !good};

endmodule

`default_nettype wire
