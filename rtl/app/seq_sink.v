`default_nettype none
// seq_sink: consumes the datagrams of one UDP application port and checks them.
//
// For every datagram in the pktgen payload format (docs/daq.md: 64-bit big-endian
// sequence number at byte 0, 64-bit timestamp at byte 8, fill from byte 16) it counts
// packets and bytes and checks the sequence numbers, which a generator numbers 0, 1,
// 2, ... per destination:
//   - in order: seq == expected                  -> expected = seq + 1
//   - gap:      seq >  expected                  -> a gap, seq - expected lost,
//                                                   expected = seq + 1
//   - late:     seq <  expected (duplicate or out of order) -> out of order
// and, if asked, the fill bytes (cfg_check = 1: the pktgen LFSR seeded from the
// sequence number; 2: the constant byte cfg_fill; 0: no check).
//
// A datagram is good when its last beat has tuser = 0, it carried exactly hdr_len
// bytes, it is at least 16 bytes long and its fill matched. Only good datagrams are
// counted as packets / bytes and take part in the sequence check; the others are
// counted by the reason they failed (first that applies): bad (tuser), len_err (byte
// count differs from hdr_len), short (< 16 bytes), payload_err (fill mismatch; a
// corrupted sequence number shows up here too, because the LFSR is seeded from it).
//
// Interfaces:
//   receive   s_hdr_* and s_axis_* (UDP application port, receive direction). The
//             header is taken first (s_hdr_ready while idle), then the payload
//             (s_axis_tready high until tlast). Always ready: never back-pressures
//             for longer than the one cycle between a tlast and the next header. Every
//             beat but the last is whole (all tkeep bits set), as the stack delivers.
//   control   clear (strobe): restart the sequence check (no event in its cycle).
//             cfg_sync_first: 1 = the first good datagram after clear/reset sets the
//             expected sequence; 0 = the first expected sequence number is 0.
//   events    cnt_ev[8:0]: event strobes, one cycle per datagram checked, for counters
//             kept in stat_counters (read them while rst is low):
//               bit 0 packets      a good datagram
//               bit 1 bytes        the same strobe; adds cnt_ev_len[16:0], its bytes
//               bit 2 lost         a gap; adds cnt_ev_lost[31:0], the sequence numbers
//                                  skipped (seq - expected, modulo 2^32)
//               bit 3 gaps         the same strobe (a gap)
//               bit 4 ooo          a late (duplicate or out of order) datagram
//               bit 5 bad          a datagram flagged bad (tuser)
//               bit 6 len_err      byte count differs from hdr_len
//               bit 7 short        shorter than 16 bytes
//               bit 8 payload_err  fill mismatch
//   status    status_expected (64): next expected sequence number;
//             status_last_ts (64): timestamp of the last good datagram.
//
// Latency: the strobes and status 2 cycles after the last payload beat is accepted.
//
// Parameters (checked at elaboration): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8.

module seq_sink #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,

    input  wire              clear,
    input  wire              cfg_sync_first,
    input  wire [1:0]        cfg_check,
    input  wire [7:0]        cfg_fill,

    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    /* verilator lint_off UNUSED */
    // Part of the standard receive port; the check does not depend on the sender.
    input  wire [47:0]       s_hdr_src_mac,
    input  wire [31:0]       s_hdr_src_ip,
    input  wire [15:0]       s_hdr_src_port,
    input  wire [15:0]       s_hdr_dst_port,
    /* verilator lint_on UNUSED */
    input  wire [15:0]       s_hdr_len,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output wire [8:0]        cnt_ev,
    output wire [16:0]       cnt_ev_len,
    output wire [31:0]       cnt_ev_lost,
    output wire [63:0]       status_expected,
    output wire [63:0]       status_last_ts
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            seq_sink_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W * 8 != DATA_W) begin : g_check_keep_w
            seq_sink_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam [31:0] LFSR_MASK = 32'h80200003;
    localparam [31:0] SEED_XOR  = 32'h9E3779B9;
    localparam [16:0] HDR_BYTES = 17'd16;                  // sequence number and timestamp
    localparam [16:0] BEAT_BYTES = KEEP_W[16:0];

    // The LFSR after each of the beat's KEEP_W fill bytes (8 steps per byte, the byte is
    // its low 8 bits): {state after the beat, the beat's bytes, lane 0 first}.
    function [DATA_W+31:0] lfsr_beat;
        input [31:0] s;
        integer j, k;
        reg [31:0] t;
        reg [DATA_W-1:0] d;
        begin
            t = s;
            d = {DATA_W{1'b0}};
            for (j = 0; j < KEEP_W; j = j + 1) begin
                for (k = 0; k < 8; k = k + 1)
                    t = t[0] ? ((t >> 1) ^ LFSR_MASK) : (t >> 1);
                d[8*j +: 8] = t[7:0];
            end
            lfsr_beat = {t, d};
        end
    endfunction

    // ---------------------------------------------------------------- payload
    reg         in_payload_reg;    // header taken, payload in progress
    reg [15:0]  len_reg;           // hdr_len of the datagram
    reg [16:0]  bytes_reg;         // payload bytes received so far
    reg [127:0] header_reg;        // first 16 payload bytes, big-endian
    reg [31:0]  lfsr_reg;          // the fill generator, for the next beat
    reg         fill_err_reg;      // a fill byte differed so far

    assign s_hdr_ready   = !in_payload_reg;
    assign s_axis_tready = in_payload_reg;

    wire hdr_fire  = s_hdr_valid && !in_payload_reg;
    wire beat      = s_axis_tvalid && in_payload_reg;

    // Bytes on this beat, the header register after it, and the fill check.
    reg [16:0]       beat_bytes;
    reg [127:0]      header_next;
    reg [DATA_W-1:0] fill_want;
    reg              fill_mismatch;
    integer i;

    wire        in_header       = (bytes_reg < HDR_BYTES);
    wire        header_end_beat = (bytes_reg == HDR_BYTES - BEAT_BYTES);  // completes the header
    wire [16:0] bytes_next      = bytes_reg + beat_bytes;
    // the LFSR is seeded on the beat that completes the header (from the incoming
    // bytes), so the fill check reads only registers
    wire [31:0] seed_x          = header_next[95:64] ^ SEED_XOR;
    wire [31:0] seed            = (seed_x == 32'd0) ? 32'd1 : seed_x;
    wire [DATA_W+31:0] lfsr_out = lfsr_beat(lfsr_reg);

    always @* begin
        beat_bytes = 17'd0;
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i])
                beat_bytes = beat_bytes + 17'd1;
        // header beats are whole (a partial one ends a short datagram, whose header
        // is not used), so the beat's bytes shift in as a block, lane 0 first
        header_next = header_reg << DATA_W;
        for (i = 0; i < KEEP_W; i = i + 1)
            header_next[DATA_W-1-8*i -: 8] = s_axis_tdata[8*i +: 8];
        fill_want = (cfg_check == 2'd2) ? {KEEP_W{cfg_fill}} : lfsr_out[DATA_W-1:0];
        fill_mismatch = 1'b0;
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i] && s_axis_tdata[8*i +: 8] != fill_want[8*i +: 8])
                fill_mismatch = 1'b1;
        if (in_header || cfg_check == 2'd0 || cfg_check == 2'd3)
            fill_mismatch = 1'b0;
    end

    always @(posedge clk) begin
        if (hdr_fire) begin
            len_reg      <= s_hdr_len;
            bytes_reg    <= 17'd0;
            fill_err_reg <= 1'b0;
        end
        if (beat) begin
            bytes_reg <= bytes_next;
            if (in_header) begin
                header_reg <= header_next;
                if (header_end_beat)
                    lfsr_reg <= seed;
            end else begin
                lfsr_reg <= lfsr_out[DATA_W+31:DATA_W];
            end
            if (fill_mismatch)
                fill_err_reg <= 1'b1;
        end
    end

    always @(posedge clk) begin
        if (rst)
            in_payload_reg <= 1'b0;
        else if (hdr_fire)
            in_payload_reg <= 1'b1;
        else if (beat && s_axis_tlast)
            in_payload_reg <= 1'b0;
    end

    // ---------------------------------------------------------------- verdict
    // The datagram that just ended (the cycle after its last beat). Its header
    // (header_reg) and byte count (bytes_reg) stay in place during this cycle: the next
    // header is taken in it at the earliest.
    reg         end_valid_reg;
    reg         end_bad_reg;       // flagged bad (tuser)
    reg         end_len_err_reg;   // byte count differs from hdr_len
    reg         end_short_reg;     // shorter than 16 bytes
    reg         end_fill_err_reg;  // a fill byte differed
    wire [63:0] end_seq   = header_reg[127:64];
    wire [63:0] end_ts    = header_reg[63:0];
    wire        end_good  = !end_bad_reg && !end_len_err_reg && !end_short_reg &&
                            !end_fill_err_reg;

    always @(posedge clk) begin
        end_valid_reg <= beat && s_axis_tlast;
        if (beat && s_axis_tlast) begin
            end_bad_reg      <= s_axis_tuser;
            end_len_err_reg  <= (bytes_next != {1'b0, len_reg});
            end_short_reg    <= (bytes_next < HDR_BYTES);
            end_fill_err_reg <= fill_err_reg || fill_mismatch;
        end
    end

    // Then two registered stages, so that no 64-bit carry chain sits in one cycle.
    // Stage "check" (the cycle after): the sequence number against the expected one, as
    // two 32-bit halves, and the low half of seq + 1. Stage "status" (the cycle after
    // that): the events and the status registers. The check stage of the next datagram
    // comes after the status stage of this one at the earliest (header, beat).
    reg         chk_valid_reg;
    reg         chk_good_reg, chk_bad_reg, chk_len_err_reg, chk_short_reg, chk_fill_err_reg;
    reg         chk_sync_reg;      // the first good datagram with cfg_sync_first: in order
    reg         chk_hi_gt_reg, chk_hi_eq_reg, chk_lo_gt_reg, chk_lo_eq_reg;  // seq vs expected
    reg [31:0]  chk_lost_reg;      // seq - expected, low 32 bits
    reg [31:0]  chk_seq_hi_reg;    // seq[63:32]
    reg [32:0]  chk_seq_lo_inc_reg;  // seq[31:0] + 1, with its carry
    reg [63:0]  chk_ts_reg;
    reg [16:0]  chk_bytes_reg;
    reg         first_reg;         // no good datagram since clear/reset
    reg [63:0]  status_expected_reg;
    reg [63:0]  status_last_ts_reg;

    always @(posedge clk) begin
        chk_valid_reg      <= end_valid_reg && !rst && !clear;
        chk_good_reg       <= end_good;
        chk_bad_reg        <= end_bad_reg;
        chk_len_err_reg    <= end_len_err_reg;
        chk_short_reg      <= end_short_reg;
        chk_fill_err_reg   <= end_fill_err_reg;
        chk_sync_reg       <= first_reg && cfg_sync_first;
        chk_hi_gt_reg      <= (end_seq[63:32] >  status_expected_reg[63:32]);
        chk_hi_eq_reg      <= (end_seq[63:32] == status_expected_reg[63:32]);
        chk_lo_gt_reg      <= (end_seq[31:0]  >  status_expected_reg[31:0]);
        chk_lo_eq_reg      <= (end_seq[31:0]  == status_expected_reg[31:0]);
        chk_lost_reg       <= end_seq[31:0] - status_expected_reg[31:0];
        chk_seq_hi_reg     <= end_seq[63:32];
        chk_seq_lo_inc_reg <= {1'b0, end_seq[31:0]} + 33'd1;
        chk_ts_reg         <= end_ts;
        chk_bytes_reg      <= bytes_reg;
    end

    // seq + 1: the high half takes the low half's carry here
    wire [63:0] seq_inc  = {chk_seq_hi_reg + {31'd0, chk_seq_lo_inc_reg[32]},
                            chk_seq_lo_inc_reg[31:0]};
    wire seq_in_order = chk_sync_reg || (chk_hi_eq_reg && chk_lo_eq_reg);
    wire seq_ahead    = !chk_sync_reg && (chk_hi_gt_reg || (chk_hi_eq_reg && chk_lo_gt_reg));

    always @(posedge clk) begin
        if (rst || clear) begin
            first_reg           <= 1'b1;
            status_expected_reg <= 64'd0;
            status_last_ts_reg  <= 64'd0;
        end else if (chk_valid_reg && chk_good_reg) begin
            first_reg          <= 1'b0;
            status_last_ts_reg <= chk_ts_reg;
            if (seq_in_order || seq_ahead) status_expected_reg <= seq_inc;
        end
    end

    assign status_expected = status_expected_reg;
    assign status_last_ts  = status_last_ts_reg;

    // the verdict's events (none in a clear cycle)
    wire take = chk_valid_reg && !clear;
    wire good = take && chk_good_reg;
    wire gap  = good && !seq_in_order && seq_ahead;
    wire late = good && !seq_in_order && !seq_ahead;
    assign cnt_ev = {take && !chk_bad_reg && !chk_len_err_reg && !chk_short_reg &&
                         chk_fill_err_reg,                                   // payload_err
                     take && !chk_bad_reg && !chk_len_err_reg && chk_short_reg,  // short
                     take && !chk_bad_reg && chk_len_err_reg,                // len_err
                     take && chk_bad_reg,                                    // bad
                     late, gap, gap, good, good};
    assign cnt_ev_len  = chk_bytes_reg;
    assign cnt_ev_lost = chk_lost_reg;

endmodule
`default_nettype wire
