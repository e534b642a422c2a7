`default_nettype none
// pktgen: UDP packet generator for data acquisition and line-rate tests.
//
// A transmitter on one UDP application port (docs/conventions.md, "UDP application
// port"). After `start` it sends cfg_count datagrams (0 = until `stop`) of cfg_len
// payload bytes, to up to 16 destinations (IP, port) used in turn, with cfg_gap idle
// clock cycles between the last payload beat of one datagram and the header of the
// next. With cfg_gap = 0 the next header is offered the cycle after the previous
// payload's last beat and the payload never pauses (tvalid stays high), so the
// generator runs at whatever rate the stack accepts: full line rate back to back.
//
// Payload format (byte 0 first on the wire; docs/daq.md):
//   0..7   sequence number, 64-bit big-endian: the datagram's index among those sent
//          to the same destination since `start` (0, 1, 2, ... per destination), so
//          each receiver sees a contiguous sequence.
//   8..15  timestamp, 64-bit big-endian: the time base (cfg_ts_ext = 0) or the
//          `ts_in` input (cfg_ts_ext = 1, chosen per run), taken when the header is
//          accepted. The time base is, by CYC_EXT: 0, a 64-bit counter inside that
//          counts clock cycles from 0 in the first cycle after reset; 1, the input
//          `cyc_in`, a time base kept outside the generator (a design's shared cycle
//          counter, or the time of a timing-distribution system: any 64-bit value,
//          stamped as it is), which saves the generator its own counter.
//   16..   fill: constant byte cfg_fill (cfg_lfsr = 0), or LFSR bytes (cfg_lfsr = 1):
//          a 32-bit Galois LFSR (right shift, toggle mask 0x80200003) seeded with
//          seq[31:0] ^ 0x9E3779B9 (1 if that is 0); for every fill byte the LFSR
//          steps 8 times and the byte is its low 8 bits.
//   A payload shorter than 16 bytes carries the first cfg_len bytes of that header.
//
// ARP: headers go out with hdr_dst_mac_valid = 0 (the stack resolves the IP). If
// cfg_warmup_ms != 0, a run first sends one zero-length datagram to every destination
// (so the stack issues its ARP requests) and then waits cfg_warmup_ms ticks of
// tick_1ms before the first counted datagram; those primers are not counted and
// carry no sequence number (receivers ignore datagrams shorter than 16 bytes).
//
// Interfaces:
//   control   start, stop (one-cycle strobes), busy.
//             `start` (ignored while busy) latches cfg_len, cfg_count, cfg_lfsr,
//             cfg_fill, cfg_ndst and clears the sequence numbers.
//             `stop`: no new header is offered after it; a header already offered
//             and its payload complete (a datagram is never cut short).
//             cfg_gap and cfg_src_port are read live.
//   time      cyc_in[63:0] (the time base with CYC_EXT = 1; read when a header is
//             accepted), ts_in[63:0] (cfg_ts_ext = 1; read likewise).
//   table     cfg_ndst (1..16, 0 means 1) entries are used, from one of two sources
//             chosen by DST_RAM:
//             DST_RAM = 0: flat configuration ports cfg_dst_ip_all[32*i +: 32] and
//               cfg_dst_port_all[16*i +: 16] for entry i (as a register file drives
//               them); the write port is unused.
//             DST_RAM = 1: an internal 16 x 48-bit RAM written through cfg_dst_we,
//               cfg_dst_addr[3:0], cfg_dst_ip[31:0], cfg_dst_port[15:0]; the flat
//               ports are unused.
//   events    cnt_ev[1:0], cnt_ev_len[15:0]: event strobes, one cycle each, for counters
//             kept in stat_counters (read them while rst is low): bit 0 sent_packets, a
//             datagram whose last payload beat was accepted (primers not counted);
//             bit 1 sent_bytes, the same strobe, adding cnt_ev_len (its payload bytes).
//   status    status_round: passes completed through the destination table since
//             `start` (the sequence number of the datagrams of the pass in progress).
//   transmit  m_hdr_* and m_axis_* (UDP application port, transmit direction).
//             m_hdr_csum is 0: use the port's checksum mode 0 (none) or 1 (computed).
//
// Latency: the first header is offered the cycle after `start`; each payload beat is
// valid from the cycle after the header is accepted. A table entry written while idle
// is used from the next cycle on.
//
// Parameters (checked at elaboration; every combination of DATA_W and DST_RAM tested):
// DATA_W (8 for 1 Gbit/s or 64 for 10 Gbit/s), KEEP_W = DATA_W/8, DST_RAM (0 flat table
// ports, 1 internal RAM and write port), CYC_EXT (0 the cycle counter inside, 1 the time
// base from cyc_in; both tested, 1 at DATA_W 8 and 64 with DST_RAM 0).

module pktgen #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8,
    parameter integer DST_RAM = 0,
    parameter integer CYC_EXT = 0
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,
    input  wire [63:0]       ts_in,
    /* verilator lint_off UNUSED */
    input  wire [63:0]       cyc_in,    // the time base when CYC_EXT = 1, else unused
    /* verilator lint_on UNUSED */

    input  wire              start,
    input  wire              stop,
    output wire              busy,

    input  wire [15:0]       cfg_len,
    input  wire [31:0]       cfg_count,
    input  wire [31:0]       cfg_gap,
    input  wire [4:0]        cfg_ndst,
    input  wire              cfg_lfsr,
    input  wire [7:0]        cfg_fill,
    input  wire              cfg_ts_ext,
    input  wire [15:0]       cfg_src_port,
    input  wire [15:0]       cfg_warmup_ms,

    /* verilator lint_off UNUSED */
    // Only one of the two table sources is used, chosen by DST_RAM.
    input  wire              cfg_dst_we,
    input  wire [3:0]        cfg_dst_addr,
    input  wire [31:0]       cfg_dst_ip,
    input  wire [15:0]       cfg_dst_port,
    input  wire [511:0]      cfg_dst_ip_all,
    input  wire [255:0]      cfg_dst_port_all,
    /* verilator lint_on UNUSED */

    output wire [1:0]        cnt_ev,
    output wire [15:0]       cnt_ev_len,
    output wire [63:0]       status_round,

    output wire              m_hdr_valid,
    input  wire              m_hdr_ready,
    output wire [47:0]       m_hdr_dst_mac,
    output wire              m_hdr_dst_mac_valid,
    output wire [31:0]       m_hdr_dst_ip,
    output wire [15:0]       m_hdr_dst_port,
    output wire [15:0]       m_hdr_src_port,
    output wire [15:0]       m_hdr_len,
    output wire [15:0]       m_hdr_csum,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            pktgen_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W * 8 != DATA_W) begin : g_check_keep_w
            pktgen_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (DST_RAM != 0 && DST_RAM != 1) begin : g_check_dst_ram
            pktgen_DST_RAM_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (CYC_EXT != 0 && CYC_EXT != 1) begin : g_check_cyc_ext
            pktgen_CYC_EXT_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam [2:0] STATE_IDLE = 3'd0,   // waiting for start
                     STATE_HDR  = 3'd2,   // a header is offered
                     STATE_PAY  = 3'd3,   // the payload is sent
                     STATE_GAP  = 3'd4,   // cfg_gap idle cycles
                     STATE_WARM = 3'd5;   // the primers are out: waiting cfg_warmup_ms
    localparam integer HDR_BEATS  = 16 / KEEP_W;   // beats of the 16-byte payload header
    localparam [16:0]  BEAT_BYTES = KEEP_W[16:0];
    localparam [31:0]  LFSR_MASK  = 32'h80200003;
    localparam [31:0]  SEED_XOR   = 32'h9E3779B9;

    // The LFSR after each of a beat's KEEP_W fill bytes (8 steps per byte, the byte is
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

    reg [2:0] state_reg, state_next;

    // ---------------------------------------------------------------- cycle count
    // 64 bits in two 32-bit halves, so that no 64-bit carry chain sits in one cycle.
    wire [63:0] cycles;
    generate
        if (CYC_EXT != 0) begin : g_cyc_ext
            assign cycles = cyc_in;
        end else begin : g_cyc
            reg [31:0] cycle_lo_reg, cycle_hi_reg;
            assign cycles = {cycle_hi_reg, cycle_lo_reg};
            always @(posedge clk) begin
                cycle_lo_reg <= cycle_lo_reg + 32'd1;
                if (cycle_lo_reg == 32'hFFFFFFFF)  // the low half wraps
                    cycle_hi_reg <= cycle_hi_reg + 32'd1;
                if (rst) begin
                    cycle_lo_reg <= 32'd0;
                    cycle_hi_reg <= 32'd0;
                end
            end
        end
    endgenerate

    // ---------------------------------------------------------------- run settings
    reg [15:0] len_reg;          // payload bytes
    reg [31:0] last_index_reg;   // index of the run's last datagram: cfg_count - 1
    reg        run_forever_reg;  // cfg_count was 0: until stop
    reg        lfsr_mode_reg;    // LFSR fill (else the constant byte fill_reg)
    reg [7:0]  fill_reg;
    reg [4:0]  ndst_reg;         // destinations used, 1..16

    wire [4:0] ndst = (cfg_ndst == 5'd0 || cfg_ndst > 5'd16) ? 5'd1 : cfg_ndst;

    always @(posedge clk) begin
        if (start && state_reg == STATE_IDLE) begin
            len_reg         <= cfg_len;
            last_index_reg  <= cfg_count - 32'd1;
            run_forever_reg <= (cfg_count == 32'd0);
            lfsr_mode_reg   <= cfg_lfsr;
            fill_reg        <= cfg_fill;
            ndst_reg        <= ndst;
        end
    end

    // ---------------------------------------------------------------- destinations
    // Read every cycle into dst_reg: entry dst_idx_reg during a run, entry 0 while idle,
    // so the first header can go out the cycle after start.
    reg [3:0]  dst_idx_reg, dst_idx_next;   // the entry of the next header
    reg [47:0] dst_reg;                     // {IP, port} of that entry
    wire [3:0] dst_addr = (state_reg == STATE_IDLE) ? 4'd0 : dst_idx_reg;
    generate
        if (DST_RAM != 0) begin : g_ram
            reg [47:0] dst_mem [0:15];
            always @(posedge clk) begin
                if (cfg_dst_we)
                    dst_mem[cfg_dst_addr] <= {cfg_dst_ip, cfg_dst_port};
                dst_reg <= dst_mem[dst_addr];
            end
        end else begin : g_flat
            always @(posedge clk)
                dst_reg <= {cfg_dst_ip_all[32*dst_addr +: 32], cfg_dst_port_all[16*dst_addr +: 16]};
        end
    endgenerate

    wire       last_dst     = ({1'b0, dst_idx_reg} + 5'd1 >= ndst_reg);
    wire [3:0] dst_idx_succ = last_dst ? 4'd0 : dst_idx_reg + 4'd1;

    // ---------------------------------------------------------------- payload
    reg [16:0] rem_reg;          // payload bytes still to send
    // last_beat_dup_reg: last_beat (rem_reg <= BEAT_BYTES) as a register, loaded where
    // rem_reg is. Timing: tlast ends the datagram, which reaches the state, the pass
    // counter's enable and the sent count, so it starts from a flip-flop, not a compare.
    // The unit test checks it every cycle.
    reg        last_beat_dup_reg;
    reg [4:0]  hdr_beat_reg;     // header beats sent (HDR_BEATS: the header is done)
    reg [63:0] ts_reg;           // timestamp of the datagram in progress
    reg        pass_end_reg;     // the datagram goes to the last destination of a pass
    reg [31:0] lfsr_reg;         // the fill generator, for the next beat
    reg        priming_reg, priming_next;   // sending the zero-length primers

    // 64-bit pass counter in two 32-bit halves: the high half steps the cycle after the
    // low half wraps; it is read (payload bytes 0..3) two cycles after at the earliest
    reg [31:0] round_lo_reg, round_lo_next;
    reg [31:0] round_hi_reg, round_hi_next;
    reg        round_carry_reg, round_carry_next;
    assign status_round = {round_hi_reg, round_lo_reg};

    wire        in_header = (hdr_beat_reg < HDR_BEATS[4:0]);
    /* verilator lint_off UNUSEDSIGNAL */
    wire        last_beat = (rem_reg <= BEAT_BYTES);  // (the unit test compares the copy)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [63:0] ts_now    = cfg_ts_ext ? ts_in : cycles;
    wire [31:0] seed_x    = round_lo_reg ^ SEED_XOR;
    wire [31:0] seed      = (seed_x == 32'd0) ? 32'd1 : seed_x;
    wire [DATA_W+31:0] lfsr_out = lfsr_beat(lfsr_reg);

    // The output beat: header beat hdr_beat_reg (bytes hdr_beat_reg*KEEP_W.. of
    // {sequence, timestamp}, big-endian; the sequence is status_round, which moves only
    // when a pass ends, after the payload), else the LFSR bytes or the constant fill.
    wire [127:0]     header = {status_round, ts_reg};
    reg [DATA_W-1:0] tdata;
    reg [KEEP_W-1:0] tkeep;
    integer i;
    always @* begin
        if (in_header) begin
            tdata = {DATA_W{1'b0}};
            for (i = 0; i < 16; i = i + 1)
                if ({27'd0, hdr_beat_reg} == i / KEEP_W)
                    tdata[8*(i%KEEP_W) +: 8] = header[127-8*i -: 8];
        end else if (lfsr_mode_reg) begin
            tdata = lfsr_out[DATA_W-1:0];
        end else begin
            tdata = {KEEP_W{fill_reg}};
        end
        for (i = 0; i < KEEP_W; i = i + 1)
            tkeep[i] = (rem_reg > i[16:0]);
    end

    assign m_axis_tvalid = (state_reg == STATE_PAY);
    assign m_axis_tdata  = tdata;
    assign m_axis_tkeep  = tkeep;
    assign m_axis_tlast  = last_beat_dup_reg;
    assign m_axis_tuser  = 1'b0;

    assign m_hdr_valid         = (state_reg == STATE_HDR);
    assign m_hdr_dst_mac       = 48'd0;
    assign m_hdr_dst_mac_valid = 1'b0;
    assign m_hdr_dst_ip        = dst_reg[47:16];
    assign m_hdr_dst_port      = dst_reg[15:0];
    assign m_hdr_src_port      = cfg_src_port;
    assign m_hdr_len           = priming_reg ? 16'd0 : len_reg;
    assign m_hdr_csum          = 16'd0;

    assign busy = (state_reg != STATE_IDLE);

    wire hdr_fire  = m_hdr_valid && m_hdr_ready;
    wire beat_fire = m_axis_tvalid && m_axis_tready;
    wire pkt_done  = beat_fire && m_axis_tlast;

    always @(posedge clk) begin
        if (hdr_fire) begin
            rem_reg           <= priming_reg ? 17'd0 : {1'b0, len_reg};
            last_beat_dup_reg <= priming_reg || ({1'b0, len_reg} <= BEAT_BYTES);
            ts_reg       <= ts_now;
            hdr_beat_reg <= 5'd0;
            pass_end_reg <= last_dst;
            lfsr_reg     <= seed;
        end else if (beat_fire) begin
            rem_reg           <= (rem_reg > BEAT_BYTES) ? rem_reg - BEAT_BYTES : 17'd0;
            last_beat_dup_reg <= (rem_reg <= 2 * BEAT_BYTES);  // rem_reg - BEAT_BYTES <= BEAT_BYTES
            if (in_header)
                hdr_beat_reg <= hdr_beat_reg + 5'd1;
            else
                lfsr_reg <= lfsr_out[DATA_W+31:DATA_W];
        end
        if (rst) begin
            rem_reg           <= 17'd0;
            last_beat_dup_reg <= 1'b1;
            hdr_beat_reg      <= HDR_BEATS[4:0];
        end
    end

    // ---------------------------------------------------------------- run control
    reg [31:0] sent_reg, sent_next;              // datagrams sent since `start`
    reg        last_pkt_reg;                     // the datagram in progress is the run's last
    reg        stop_pending_reg, stop_pending_next;   // `stop` came during the run
    reg [31:0] gap_left_reg;                     // idle cycles left (cfg_gap until the gap)
    reg [15:0] warm_left_reg, warm_left_next;    // warm-up ticks to wait after the next one

    wire sent_ev  = (state_reg == STATE_PAY) && pkt_done && !priming_reg;
    assign cnt_ev     = {sent_ev, sent_ev};
    assign cnt_ev_len = len_reg;
    wire stopping = stop_pending_reg || stop;
    wire run_done = stopping || last_pkt_reg;

    always @(posedge clk) begin
        // the end-of-run compare, registered: sent_reg moves only at a payload's end, 2
        // cycles apart at the least
        last_pkt_reg <= !run_forever_reg && (sent_reg == last_index_reg);
        // the gap: cfg_gap until it starts, then counting down to 1
        if (state_reg == STATE_GAP)
            gap_left_reg <= gap_left_reg - 32'd1;
        else
            gap_left_reg <= cfg_gap;
    end

    always @* begin
        state_next        = state_reg;
        priming_next      = priming_reg;
        stop_pending_next = stop_pending_reg;
        warm_left_next    = warm_left_reg;
        dst_idx_next      = dst_idx_reg;
        sent_next         = sent_reg;
        round_lo_next     = round_lo_reg;
        round_hi_next     = round_hi_reg;
        round_carry_next  = round_carry_reg;
        if (round_carry_reg) begin
            round_hi_next    = round_hi_reg + 32'd1;
            round_carry_next = 1'b0;
        end
        if (stop && state_reg != STATE_IDLE)
            stop_pending_next = 1'b1;
        case (state_reg)
            STATE_IDLE: if (start) begin
                state_next        = STATE_HDR;
                priming_next      = (cfg_warmup_ms != 16'd0);
                stop_pending_next = 1'b0;
                dst_idx_next      = 4'd0;
                sent_next         = 32'd0;
                round_lo_next     = 32'd0;
                round_hi_next     = 32'd0;
                round_carry_next  = 1'b0;
            end
            STATE_HDR: if (hdr_fire) begin
                state_next   = STATE_PAY;
                dst_idx_next = dst_idx_succ;
            end
            STATE_PAY: if (pkt_done) begin
                if (priming_reg) begin
                    if (dst_idx_reg == 4'd0) begin  // every destination primed
                        state_next     = stopping ? STATE_IDLE : STATE_WARM;
                        // cfg_warmup_ms ticks, at least one
                        warm_left_next = (cfg_warmup_ms == 16'd0) ? 16'd0 : cfg_warmup_ms - 16'd1;
                    end else begin
                        state_next = stopping ? STATE_IDLE : STATE_HDR;
                    end
                end else begin
                    sent_next = sent_reg + 32'd1;
                    if (pass_end_reg)
                        {round_carry_next, round_lo_next} = {1'b0, round_lo_reg} + 33'd1;
                    if (run_done)
                        state_next = STATE_IDLE;
                    else if (cfg_gap != 32'd0)
                        state_next = STATE_GAP;
                    else
                        state_next = STATE_HDR;
                end
            end
            STATE_GAP: begin
                if (stopping)
                    state_next = STATE_IDLE;
                else if (gap_left_reg == 32'd1)
                    state_next = STATE_HDR;
            end
            STATE_WARM: begin
                if (stopping)
                    state_next = STATE_IDLE;
                else if (tick_1ms) begin
                    if (warm_left_reg == 16'd0) begin
                        state_next   = STATE_HDR;
                        priming_next = 1'b0;
                    end else begin
                        warm_left_next = warm_left_reg - 16'd1;
                    end
                end
            end
            default: state_next = STATE_IDLE;
        endcase
    end

    always @(posedge clk) begin
        state_reg        <= state_next;
        priming_reg      <= priming_next;
        stop_pending_reg <= stop_pending_next;
        warm_left_reg    <= warm_left_next;
        dst_idx_reg      <= dst_idx_next;
        sent_reg         <= sent_next;
        round_lo_reg     <= round_lo_next;
        round_hi_reg     <= round_hi_next;
        round_carry_reg  <= round_carry_next;
        if (rst) begin
            state_reg        <= STATE_IDLE;
            priming_reg      <= 1'b0;
            stop_pending_reg <= 1'b0;
            warm_left_reg    <= 16'd0;
            dst_idx_reg      <= 4'd0;
            sent_reg         <= 32'd0;
            round_lo_reg     <= 32'd0;
            round_hi_reg     <= 32'd0;
            round_carry_reg  <= 1'b0;
        end
    end

endmodule
`default_nettype wire
