`default_nettype none
// arp_rx: ARP frame parser and validator (width-generic).
//
// Takes whole Ethernet frames of EtherType 0x0806 (from the destination MAC onwards,
// no FCS, any padding) and keeps only what the ARP engine needs: the opcode, the sender
// hardware address (SHA), the sender protocol address (SPA) and two bits saying whether
// the SPA and the target protocol address (TPA) equal cfg_ip (compared byte by byte as
// they arrive; the TPA itself and the target hardware address are not stored).
//
// A frame is malformed, dropped and counted (malformed) when any of these holds:
//   EtherType != 0x0806, htype != 1, ptype != 0x0800, hlen != 6, plen != 4,
//   opcode not 1 (request) or 2 (reply), sender MAC is a group (multicast/broadcast)
//   address, the frame ends before byte 42 (truncated), or tuser is set on its last
//   beat (bad FCS or aborted frame). Bytes beyond 42 (Ethernet padding) are ignored.
//
// Two frame buffers: the capture register, written by byte position while a frame
// arrives (at DATA_W 8 the sender MAC and IP shift in, bytes 22..31), and the event
// slot (ev_*), loaded from it the cycle after a well-formed frame's verdict. If the slot
// is still full then, the capture register keeps the frame (and passes it on as soon
// as the slot frees); a frame whose field bytes arrive while
// the capture register is still holding an earlier one is dropped and counted in
// as an overrun (malformed takes precedence). The input never stalls (s_axis_tready = 1),
// and no frame's bytes ever mix with another's.
//
// Interfaces:
//   s_axis_*  AXI4-Stream input (DATA_W bits, byte lane 0 first on the wire)
//   cfg_ip    our IPv4 address (for ev_spa_ours, ev_tpa_ours; at DATA_W 8 an SPA byte is
//             compared with it the cycle after the byte is taken, a TPA byte as it is taken)
//   ev_*      parsed event: ev_valid stays high until ev_ready (a one-cycle strobe);
//             ev_reply .. ev_ask_us are meaningful only while ev_valid is high (while the
//             slot is free they follow the capture register, a frame in progress)
//   ev_ask_nx the next cycle's ev_valid && ev_ask_us (for registers that need them a
//             cycle ahead)
//   cnt_ev[1:0] event strobes, one cycle each, for counters kept in stat_counters (read
//             them while rst is low): bit 0 malformed frames dropped, bit 1 frames
//             dropped because the slot was busy (overrun)
// Latency: ev_valid is high 2 cycles after the cycle in which the frame's last beat is
// accepted (the verdict is registered first) when the slot is free.
// Parameters: DATA_W (multiple of 8, at most 168), KEEP_W = DATA_W/8.

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

    output reg               ev_valid,
    input  wire              ev_ready,
    output reg               ev_reply,     // 1 = opcode 2 (reply), 0 = opcode 1 (request)
    output reg  [47:0]       ev_sha,
    output reg  [31:0]       ev_spa,
    output reg               ev_spa_ours,  // SPA == cfg_ip (as it arrived)
    output reg               ev_tpa_ours,  // TPA == cfg_ip (as it arrived)
    output reg               ev_ask_us,    // a request for cfg_ip from another station:
                                           // !ev_reply && ev_tpa_ours && !ev_spa_ours
    output wire              ev_ask_nx,    // the next value of ev_valid && ev_ask_us

    output wire [1:0]        cnt_ev
);

    localparam BEAT_W = 6;  // beat index, saturating; 42 bytes need at most 42 beats
    localparam [BEAT_W-1:0] BEAT_MAX = {BEAT_W{1'b1}};
    localparam [BEAT_W-1:0] BEAT_37  = 37;

    reg  [BEAT_W-1:0] beat;     // index of the current beat within the frame
    reg               bad;      // a checked byte so far was wrong
    reg               got_all;  // byte 41 has been received
    reg               drop;     // a field byte arrived while the capture register was held

    assign s_axis_tready = 1'b1;

    wire take = s_axis_tvalid;

    // Byte positions. at_f(p, ...): byte p of the frame is on this beat (beat b, keep
    // kp); bv_f(p, d): that byte's lane of the beat. Used only inside the clocked
    // blocks' enables (a beat taken, the capture register free), where they are decoded
    // once per taken beat: the hardware is that of one compare of the beat counter per
    // byte position.
    /* verilator lint_off UNUSEDSIGNAL */
    function at_f(input integer p, input [BEAT_W-1:0] b, input [KEEP_W-1:0] kp);
        reg [31:0] q;  // (beat indices fit in BEAT_W bits)
        begin
            q = p / KEEP_W;
            at_f = (b == q[BEAT_W-1:0]) && kp[p % KEEP_W];
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    function [7:0] bv_f(input integer p, input [DATA_W-1:0] d);
        bv_f = d[8*(p % KEEP_W) +: 8];
    endfunction

    // Constant-field checks on a beat.
    function bad_f(input [BEAT_W-1:0] b, input [KEEP_W-1:0] kp, input [DATA_W-1:0] d);
        begin
            bad_f = 1'b0;
            if (at_f(12, b, kp) && bv_f(12, d) != 8'h08) bad_f = 1'b1;  // EtherType 0x0806
            if (at_f(13, b, kp) && bv_f(13, d) != 8'h06) bad_f = 1'b1;
            if (at_f(14, b, kp) && bv_f(14, d) != 8'h00) bad_f = 1'b1;  // htype 1
            if (at_f(15, b, kp) && bv_f(15, d) != 8'h01) bad_f = 1'b1;
            if (at_f(16, b, kp) && bv_f(16, d) != 8'h08) bad_f = 1'b1;  // ptype 0x0800
            if (at_f(17, b, kp) && bv_f(17, d) != 8'h00) bad_f = 1'b1;
            if (at_f(18, b, kp) && bv_f(18, d) != 8'h06) bad_f = 1'b1;  // hlen 6
            if (at_f(19, b, kp) && bv_f(19, d) != 8'h04) bad_f = 1'b1;  // plen 4
            if (at_f(20, b, kp) && bv_f(20, d) != 8'h00) bad_f = 1'b1;  // opcode
            if (at_f(21, b, kp) && bv_f(21, d) != 8'h01 && bv_f(21, d) != 8'h02)
                bad_f = 1'b1;
            // group sender MAC
            if (at_f(22, b, kp) && (bv_f(22, d) & 8'h01) != 8'h00) bad_f = 1'b1;
        end
    endfunction

    // A field byte (opcode, SHA, SPA, TPA) is on a beat.
    function field_f(input [BEAT_W-1:0] b, input [KEEP_W-1:0] kp);
        integer p;
        begin
            field_f = 1'b0;
            for (p = 21; p < 42; p = p + 1)
                if ((p < 32 || p >= 38) && at_f(p, b, kp)) field_f = 1'b1;
        end
    endfunction

    // The running compare of four bytes at base .. base+3 with cfg_ip: the next value
    // of a flag that was ok (the first byte restarts it; beats without them keep it).
    function ip_ok_f(input integer base, input ok, input [BEAT_W-1:0] b,
                     input [KEEP_W-1:0] kp, input [DATA_W-1:0] d, input [31:0] ip);
        begin
            ip_ok_f = (at_f(base, b, kp) ? (bv_f(base, d) == ip[31:24]) : ok) &&
                      (!at_f(base + 1, b, kp) || bv_f(base + 1, d) == ip[23:16]) &&
                      (!at_f(base + 2, b, kp) || bv_f(base + 2, d) == ip[15:8]) &&
                      (!at_f(base + 3, b, kp) || bv_f(base + 3, d) == ip[7:0]);
        end
    endfunction

    // ... at one byte per beat, byte pos (one-hot) of the four
    function ip_ok1_f(input ok, input [1:0] pos, input [7:0] d, input [31:0] ip);
        ip_ok1_f = (pos == 2'd0) ? (d == ip[31:24]) :
                   ok && (d == ((pos == 2'd1) ? ip[23:16] : (pos == 2'd2) ? ip[15:8] : ip[7:0]));
    endfunction

    function ip_any_f(input integer base, input [BEAT_W-1:0] b, input [KEEP_W-1:0] kp);
        ip_any_f = at_f(base, b, kp) || at_f(base + 1, b, kp) ||
                   at_f(base + 2, b, kp) || at_f(base + 3, b, kp);
    endfunction

    // the frame's running flags after a beat (the first beat restarts them)
    function bad_f2(input fst, input bad_q, input [BEAT_W-1:0] b, input [KEEP_W-1:0] kp,
                    input [DATA_W-1:0] d);
        bad_f2 = (fst ? 1'b0 : bad_q) | bad_f(b, kp, d);
    endfunction

    function got_f(input fst, input got_q, input at41);
        got_f = (fst ? 1'b0 : got_q) | at41;
    endfunction

    // beat == 0, kept in a flip-flop (set by reset and a last beat, cleared by any other
    // taken beat: the beat counter never wraps to 0)
    reg  first;

    // At one byte per beat the TPA compare's enable and the field and end positions come
    // from flip-flops set the beat before (the beat counter's next value decoded, loaded
    // with it): w_tpa (beats 38..41), w_fld (a field byte: 21..31, 38..41) and w_end (41).
    // The address bytes' positions are the beat counter's low bits: beat[1:0] for the SPA
    // (28..31), {!beat[1], beat[0]} for the TPA (38..41). Unused at wider beats.
    reg         w_tpa;
    reg         w_fld;
    reg         w_end;
    // beat b + 1 is in lo .. hi (equality decodes: no carry chain)
    function nx_in_f(input [BEAT_W-1:0] b, input integer lo, input integer hi);
        integer q;
        begin
            nx_in_f = 1'b0;
            for (q = lo - 1; q < hi; q = q + 1)
                if (b == q[BEAT_W-1:0]) nx_in_f = 1'b1;
        end
    endfunction
    // a field byte and byte 41 on this beat (the positions' decode, or at one byte per
    // beat the window flip-flops')
    wire fld_now = (KEEP_W == 1) ? (w_fld && s_axis_tkeep[0]) : field_f(beat, s_axis_tkeep);
    wire end_now = (KEEP_W == 1) ? (w_end && s_axis_tkeep[0]) : at_f(41, beat, s_axis_tkeep);

    // Capture register (datapath, not reset). c_hold: it keeps a finished frame that
    // waits for the event slot; c_busy: ... and will still keep it next cycle.
    reg         c_reply;
    reg  [47:0] c_sha;
    reg  [31:0] c_spa;
    reg         c_spa_ok;
    reg         c_tpa_ok;
    reg         c_hold;
    wire        slot_free = !ev_valid || ev_ready;
    // (c_hold implies ev_valid: it is set only while the slot is full, and the slot
    // stays full when it frees while c_hold, since c_hold loads it then; so c_busy,
    // c_hold && !slot_free, is two flip-flops' gate)
    wire        c_busy    = c_hold && !ev_ready;
    integer i;
    // At one byte per beat the SHA and SPA (bytes 22..31) shift in a cycle after they are
    // taken, and the SPA is compared with cfg_ip then (sh_d: the byte taken; sh_go, sp_go:
    // it was a SHA or SPA byte, an SPA byte, taken while the capture register was free;
    // sp_pos: its position), so that the 80 flip-flops' enable is one flip-flop and the
    // compare starts from flip-flops. Both are complete two cycles after byte 31 is taken,
    // long before the verdict's cycle (after byte 41).
    // The TPA's expected byte (tp_exp: cfg_ip's byte at the TPA position of the next beat,
    // beat + 1, whose low bits give it: 38..41 are 1001 10, 11, 1010 00, 01) and whether
    // that is the first TPA byte (w_tp0: beat + 1 == 38), loaded with every taken beat, so
    // that the running compare starts from flip-flops: the beat counter's byte select is
    // off its path. (tp_exp is loaded from the beat of the cycle before, and so holds the
    // byte for the current beat until the next one is taken; the first load after reset
    // or a frame's end selects byte 0 for beat 1, which is outside the window.)
    reg  [7:0]  tp_exp;
    reg         w_tp0;
    // (cfg_ip's byte 3 - p, p the TPA position of beat + 1: {!(b1 ^ b0), !b0})
    wire [1:0]  tp_sel = {beat[1] ^ beat[0], beat[0]};
    always @(posedge clk) begin
        if (take) begin
            tp_exp <= cfg_ip[8*tp_sel +: 8];
            w_tp0  <= !s_axis_tlast && (beat == BEAT_37);
        end
    end
    reg  [7:0]  sh_d;
    reg         sh_go;
    reg         sp_go;
    reg  [1:0]  sp_pos;
    always @(posedge clk) begin
        if (take) sh_d <= s_axis_tdata[7:0];  // (only taken beats: idle, it holds)
        // (beats 22..31: 01011x and 011xxx; 28..31: 0111xx)
        sh_go  <= !rst && take && !c_busy && s_axis_tkeep[0] &&
                  ((beat[5:1] == 5'b01011) || (beat[5:3] == 3'b011));
        sp_go  <= !rst && take && !c_busy && s_axis_tkeep[0] && (beat[5:2] == 4'b0111);
        sp_pos <= beat[1:0];
    end
    always @(posedge clk) begin
        if (KEEP_W == 1) begin
            if (sh_go) {c_sha, c_spa} <= {c_sha[39:0], c_spa, sh_d};
            if (sp_go) c_spa_ok <= ip_ok1_f(c_spa_ok, sp_pos, sh_d, cfg_ip);
        end
        if (take && !c_busy) begin
            if (at_f(21, beat, s_axis_tkeep)) c_reply <= (bv_f(21, s_axis_tdata) == 8'h02);
            if (KEEP_W > 1) begin
                for (i = 0; i < 6; i = i + 1)
                    if (at_f(22 + i, beat, s_axis_tkeep))
                        c_sha[8*(5-i) +: 8] <= bv_f(22 + i, s_axis_tdata);
                for (i = 0; i < 4; i = i + 1)
                    if (at_f(28 + i, beat, s_axis_tkeep))
                        c_spa[8*(3-i) +: 8] <= bv_f(28 + i, s_axis_tdata);
            end
            // SPA and TPA == cfg_ip, byte by byte (each of the four bytes is seen
            // exactly once in a frame that reaches byte 41)
            if (KEEP_W == 1) begin
                // (the same running compare, positions from the window flip-flops; the
                // SPA's a cycle later: above)
                if (s_axis_tkeep[0] && w_tpa)
                    c_tpa_ok <= (s_axis_tdata[7:0] == tp_exp) && (w_tp0 || c_tpa_ok);
            end else begin
                if (ip_any_f(28, beat, s_axis_tkeep))
                    c_spa_ok <= ip_ok_f(28, c_spa_ok, beat, s_axis_tkeep, s_axis_tdata,
                                        cfg_ip);
                if (ip_any_f(38, beat, s_axis_tkeep))
                    c_tpa_ok <= ip_ok_f(38, c_tpa_ok, beat, s_axis_tkeep, s_axis_tdata,
                                        cfg_ip);
            end
        end
    end

    // The frame's verdict is registered with its last beat and acted on the cycle after
    // (the capture register still holds its fields then: the next frame's first field
    // byte, byte 21, cannot arrive that early for DATA_W <= 168).
    reg  fin;       // the cycle after a last beat
    reg  fin_good;  // ... of a well-formed frame
    reg  fin_drop;  // ... whose fields could not be captured
    wire load = slot_free && ((fin && fin_good && !fin_drop) || c_hold);
    // (the slot's flags load with it; a full slot that is not released keeps them)
    assign ev_ask_nx = load ? (!c_reply && c_tpa_ok && !c_spa_ok) :
                       (ev_valid && !ev_ready && ev_ask_us);

    // The slot's fields load whenever the slot is free (not only with load, which sets
    // ev_valid): they are read only while ev_valid is high, and the value they hold when
    // it rises is the one load gives them. Their enable is then two flip-flops' gate.
    always @(posedge clk) begin
        if (slot_free) begin
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
            first       <= 1'b1;
            w_tpa       <= 1'b0;
            w_fld       <= 1'b0;
            w_end       <= 1'b0;
            bad         <= 1'b0;
            got_all     <= 1'b0;
            drop        <= 1'b0;
            fin         <= 1'b0;
            fin_good    <= 1'b0;
            fin_drop    <= 1'b0;
            c_hold      <= 1'b0;
            ev_valid    <= 1'b0;
        end else begin
            if (ev_ready) ev_valid <= 1'b0;
            fin <= take && s_axis_tlast;
            if (take) begin
                // (fin_good and fin_drop are only read the cycle after a taken last beat:
                // loaded on every taken beat, not every cycle)
                fin_good <= !s_axis_tuser && got_f(first, got_all, end_now) &&
                            !bad_f2(first, bad, beat, s_axis_tkeep, s_axis_tdata);
                fin_drop <= (first ? 1'b0 : drop) |
                            (c_busy && fld_now);
                bad     <= bad_f2(first, bad, beat, s_axis_tkeep, s_axis_tdata);
                got_all <= got_f(first, got_all, end_now);
                drop    <= (first ? 1'b0 : drop) | (c_busy && fld_now);
                if (beat != BEAT_MAX) beat <= beat + 1'b1;
                if (s_axis_tlast) beat <= {BEAT_W{1'b0}};
                first <= s_axis_tlast;
                // the windows of the next beat (beat + 1; 0 after a last beat; the
                // saturated index is in none)
                w_tpa <= !s_axis_tlast && nx_in_f(beat, 38, 41);
                w_fld <= !s_axis_tlast && (nx_in_f(beat, 21, 31) || nx_in_f(beat, 38, 41));
                w_end <= !s_axis_tlast && nx_in_f(beat, 41, 41);
            end
            if (load) begin
                ev_valid <= 1'b1;
                c_hold <= 1'b0;
            end
            // a good frame not dropped, the slot taken: held until it is free
            if (fin && fin_good && !fin_drop && !slot_free) c_hold <= 1'b1;
        end
    end

    assign cnt_ev = {fin && fin_good && fin_drop, fin && !fin_good};

endmodule

`default_nettype wire
