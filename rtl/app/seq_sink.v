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
//             for longer than the one cycle between a tlast and the next header.
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
// Parameters: DATA_W (8, 16, 32 or 64), KEEP_W = DATA_W/8.

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
    output reg  [63:0]       status_expected,
    output reg  [63:0]       status_last_ts
);

    localparam [31:0] LFSR_MASK = 32'h80200003;
    localparam [31:0] SEED_XOR = 32'h9E3779B9;
    localparam [31:0] KEEP_W32 = KEEP_W;
    localparam [16:0] HDR_LAST = 17'd16 - KEEP_W32[16:0];

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

    reg         in_pay;        // header taken, payload in progress
    reg [16:0]  left;          // hdr_len minus the bytes received so far
    reg [16:0]  got;           // payload bytes received so far
    reg [127:0] hdr_sr;        // first 16 payload bytes, big-endian
    reg [31:0]  lfsr;
    reg         fill_err;
    reg         first;         // no good datagram since clear/reset

    // One-cycle-delayed verdict of the datagram that just ended.
    // The datagram's header (hdr_sr) and byte count (got) stay in place during the
    // verdict cycle: the next header is taken in that cycle at the earliest.
    reg         v_valid, v_bad, v_len, v_short, v_fill;
    wire [63:0] v_seq   = hdr_sr[127:64];
    wire [63:0] v_ts    = hdr_sr[63:0];
    wire [16:0] v_bytes = got;

    assign s_hdr_ready   = !in_pay;
    assign s_axis_tready = in_pay;

    wire beat = s_axis_tvalid && in_pay;

    // Bytes on this beat, and the header register after it.
    reg [16:0]  nbytes;
    reg [127:0] hdr_next;
    reg [DATA_W-1:0] want;
    reg         mism;
    integer i;

    wire        in_hdr     = (got[16:4] == 13'd0);  // got < 16
    // the LFSR is seeded on the beat that completes the header (from the incoming
    // bytes), so the fill check reads only registers
    wire [31:0] seed_x     = hdr_next[95:64] ^ SEED_XOR;
    wire [31:0] seed       = (seed_x == 32'd0) ? 32'd1 : seed_x;
    wire [DATA_W+31:0] lb  = lfsr_beat(lfsr);

    always @* begin
        nbytes = 17'd0;
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i])
                nbytes = nbytes + 17'd1;
        // header beats are whole (a partial one ends a short datagram, whose header
        // is not used), so the beat's bytes shift in as a block, lane 0 first
        hdr_next = hdr_sr << DATA_W;
        for (i = 0; i < KEEP_W; i = i + 1)
            hdr_next[DATA_W-1-8*i -: 8] = s_axis_tdata[8*i +: 8];
        want = (cfg_check == 2'd2) ? {KEEP_W{cfg_fill}} : lb[DATA_W-1:0];
        mism = 1'b0;
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i] && s_axis_tdata[8*i +: 8] != want[8*i +: 8])
                mism = 1'b1;
        if (in_hdr || cfg_check == 2'd0 || cfg_check == 2'd3)
            mism = 1'b0;
    end

    wire [16:0] got_next = got + nbytes;

    always @(posedge clk) begin
        v_valid <= 1'b0;
        if (s_hdr_valid && s_hdr_ready) begin
            left     <= {1'b0, s_hdr_len};
            got      <= 17'd0;
            fill_err <= 1'b0;
        end
        if (beat) begin
            got  <= got_next;
            left <= left - nbytes;
            if (in_hdr) begin
                hdr_sr <= hdr_next;
                if (got == HDR_LAST)  // the beat that completes the header
                    lfsr <= seed;
            end else begin
                lfsr <= lb[DATA_W+31:DATA_W];
            end
            if (mism)
                fill_err <= 1'b1;
            if (s_axis_tlast) begin
                v_valid <= 1'b1;
                v_bad   <= s_axis_tuser;
                // (got + nbytes != hdr_len) and (got + nbytes < 16), without the adder:
                // header beats are whole, so only a full beat at HDR_LAST reaches 16
                v_len   <= (left != nbytes);
                v_short <= in_hdr && !(got == HDR_LAST && &s_axis_tkeep);
                v_fill  <= fill_err || mism;
            end
        end
    end

    // Header beats are whole for KEEP_W dividing 16, so hdr_sr holds the complete
    // header after the beat that reaches byte 16.

    // Verdict in two registered stages, so no 64-bit carry chain sits in one cycle.
    // Stage A (the cycle after the last beat): the sequence number against the expected
    // one, as two 32-bit halves, and seq + 1. Stage B (the cycle after): counters.
    // Stage A of the next datagram comes after stage B at the earliest (header, beat).
    // compared against status_expected; the first datagram with cfg_sync_first is in
    // order by definition (a_sync), so no multiplexer sits before the subtraction
    wire [32:0] lo_diff    = {1'b0, v_seq[31:0]} - {1'b0, status_expected[31:0]};
    wire        lo_carry   = &v_seq[31:0];
    wire        good       = !v_bad && !v_len && !v_short && !v_fill;

    reg         a_valid, a_good, a_bad, a_len, a_short, a_fill;
    reg         a_lo_borrow, a_lo_eq, a_hi_gt, a_hi_eq, a_sync;
    reg [31:0]  a_diff_lo;
    reg [31:0]  a_seq_lo_p1, a_seq_hi;
    reg         a_lo_ones;
    reg [63:0]  a_ts;
    reg [16:0]  a_bytes;

    always @(posedge clk) begin
        a_valid     <= v_valid && !rst && !clear;
        a_good      <= good;
        a_bad       <= v_bad;
        a_len       <= v_len;
        a_short     <= v_short;
        a_fill      <= v_fill;
        a_lo_borrow <= lo_diff[32];
        a_sync      <= first && cfg_sync_first;
        a_lo_eq     <= (v_seq[31:0] == status_expected[31:0]);
        a_hi_gt     <= (v_seq[63:32] > status_expected[63:32]);
        a_hi_eq     <= (v_seq[63:32] == status_expected[63:32]);
        a_diff_lo   <= lo_diff[31:0];
        a_seq_lo_p1 <= v_seq[31:0] + 32'd1;
        a_seq_hi    <= v_seq[63:32];
        a_lo_ones   <= lo_carry;
        a_ts        <= v_ts;
        a_bytes     <= v_bytes;
    end

    // seq + 1: low half in stage A, the high half's carry added in stage B
    wire [63:0] a_seq_p1 = {a_seq_hi + {31'd0, a_lo_ones}, a_seq_lo_p1};
    wire a_eq = a_sync || (a_hi_eq && a_lo_eq);
    wire a_gt = !a_sync && (a_hi_gt || (a_hi_eq && !a_lo_borrow && !a_lo_eq));

    always @(posedge clk) begin
        if (rst)
            in_pay <= 1'b0;
        else if (s_hdr_valid && s_hdr_ready)
            in_pay <= 1'b1;
        else if (beat && s_axis_tlast)
            in_pay <= 1'b0;
        if (rst || clear) begin
            first           <= 1'b1;
            status_expected <= 64'd0;
            status_last_ts  <= 64'd0;
        end else if (a_valid && a_good) begin
            first          <= 1'b0;
            status_last_ts <= a_ts;
            if (a_eq || a_gt) status_expected <= a_seq_p1;
        end
    end

    // the verdict's events (none in a clear cycle)
    wire a_take = a_valid && !clear;
    wire a_gap  = a_take && a_good && !a_eq && a_gt;
    assign cnt_ev = {a_take && !a_bad && !a_len && !a_short && a_fill,
                     a_take && !a_bad && !a_len && a_short, a_take && !a_bad && a_len,
                     a_take && a_bad, a_take && a_good && !a_eq && !a_gt, a_gap, a_gap,
                     a_take && a_good, a_take && a_good};
    assign cnt_ev_len = a_bytes;
    assign cnt_ev_lost = a_diff_lo;

    /* verilator lint_off UNUSED */
    wire unused_ok = &{1'b0, KEEP_W32[0]};
    /* verilator lint_on UNUSED */

endmodule
`default_nettype wire
