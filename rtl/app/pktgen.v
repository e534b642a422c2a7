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
//   8..15  timestamp, 64-bit big-endian: free-running cycle counter (cfg_ts_ext = 0)
//          or the `ts_in` input (cfg_ts_ext = 1), taken when the header is accepted.
//          The counter counts clock cycles from 0 in the first cycle after reset; with
//          CYC_EXT = 1 it is not kept here but taken from `cyc_in`, which must count
//          the same way (a simulation harness that counts the cycles itself gives it,
//          so that an idle generator holds no state that changes every cycle).
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
// Parameters: DATA_W (8, 16, 32 or 64; 8 for 1 Gbit/s, 64 for 10 Gbit/s),
// KEEP_W = DATA_W/8, DST_RAM (0 flat table ports, 1 internal RAM and write port),
// CYC_EXT (0 the free-running cycle counter inside, 1 from cyc_in; cyc_in is read only
// when a header is accepted).

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
    input  wire [63:0]       cyc_in,    // the cycle counter when CYC_EXT = 1, else unused
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

    localparam [2:0] S_IDLE = 3'd0, S_HDR = 3'd2, S_PAY = 3'd3, S_GAP = 3'd4, S_WARM = 3'd5;
    localparam integer HDR_BEATS = 16 / KEEP_W;
    localparam [31:0] KEEP_W32 = KEEP_W;
    localparam [16:0] KW = KEEP_W32[16:0];
    localparam [16:0] KW2 = {KEEP_W32[15:0], 1'b0};
    localparam [31:0] LFSR_MASK = 32'h80200003;
    localparam [31:0] SEED_XOR = 32'h9E3779B9;

    // LFSR: the KEEP_W fill bytes from state s (8 steps per byte; lfsr_data), and the
    // state after them (lfsr_next).
    function [DATA_W-1:0] lfsr_data;
        input [31:0] s;
        integer j, k;
        reg [31:0] t;
        begin
            t = s;
            lfsr_data = {DATA_W{1'b0}};
            for (j = 0; j < KEEP_W; j = j + 1) begin
                for (k = 0; k < 8; k = k + 1)
                    t = t[0] ? ((t >> 1) ^ LFSR_MASK) : (t >> 1);
                lfsr_data[8*j +: 8] = t[7:0];
            end
        end
    endfunction

    function [31:0] lfsr_next;
        input [31:0] s;
        integer j;
        begin
            lfsr_next = s;
            for (j = 0; j < 8 * KEEP_W; j = j + 1)
                lfsr_next = lfsr_next[0] ? ((lfsr_next >> 1) ^ LFSR_MASK) : (lfsr_next >> 1);
        end
    endfunction

    reg [2:0]  state;
    reg        priming;        // sending zero-length primers
    reg        stop_pend;
    reg [15:0] len_q;
    reg [31:0] count_m1;       // cfg_count - 1
    reg        run_forever;    // cfg_count was 0: until stop
    reg        lfsr_q;
    reg [7:0]  fill_q;
    reg [4:0]  ndst_q;
    reg [31:0] gap_cnt;
    reg        gap_last;       // gap_cnt == 1, kept as a register
    reg [15:0] warm_cnt;       // warm-up ticks still to wait
    // 64-bit counters in two 32-bit halves with a registered carry (no 64-bit carry
    // chain in one cycle): the free-running cycle counter (unless CYC_EXT) and the pass
    // counter.
    wire [63:0] cycles;
    generate
        if (CYC_EXT != 0) begin : g_cyc_ext
            assign cycles = cyc_in;
        end else begin : g_cyc
            reg [31:0] cyc_lo, cyc_hi;
            reg        cyc_carry;
            assign cycles = {cyc_hi, cyc_lo};
            always @(posedge clk) begin
                cyc_lo    <= cyc_lo + 32'd1;
                cyc_carry <= (cyc_lo == 32'hFFFFFFFE);
                if (cyc_carry)
                    cyc_hi <= cyc_hi + 32'd1;
                if (rst) begin
                    cyc_lo    <= 32'd0;
                    cyc_hi    <= 32'd0;
                    cyc_carry <= 1'b0;
                end
            end
        end
    endgenerate
    reg [31:0] round_lo, round_hi;
    reg        round_carry;
    assign status_round = {round_hi, round_lo};

    // Destination table, read every cycle into dst_q: entry rd_idx during a run, entry 0
    // while idle, so the first header can go out the cycle after start.
    reg [3:0]  rd_idx;
    reg [47:0] dst_q;
    wire [3:0] rd_addr = (state == S_IDLE) ? 4'd0 : rd_idx;
    generate
        if (DST_RAM != 0) begin : g_ram
            reg [47:0] dst_mem [0:15];
            always @(posedge clk) begin
                if (cfg_dst_we)
                    dst_mem[cfg_dst_addr] <= {cfg_dst_ip, cfg_dst_port};
                dst_q <= dst_mem[rd_addr];
            end
        end else begin : g_flat
            always @(posedge clk)
                dst_q <= {cfg_dst_ip_all[32*rd_addr +: 32], cfg_dst_port_all[16*rd_addr +: 16]};
        end
    endgenerate

    wire [4:0] ndst_eff  = (cfg_ndst == 5'd0 || cfg_ndst > 5'd16) ? 5'd1 : cfg_ndst;
    wire       last_dst  = ({1'b0, rd_idx} + 5'd1 >= ndst_q);
    wire [3:0] next_idx  = last_dst ? 4'd0 : rd_idx + 4'd1;

    // Payload datapath.
    reg [16:0]  rem;           // payload bytes still to send
    reg         rem_last;      // rem <= KEEP_W: this beat is the last
    reg         last_pkt;      // the datagram in progress is the run's last
    reg [63:0]  ts_q;          // timestamp of the datagram in progress
    reg [4:0]   hb;            // header beats sent (HDR_BEATS = header done)
    reg         pass_end;      // this datagram goes to the last destination of a pass
    reg [31:0]  lfsr;

    reg         in_hdr;        // hb < HDR_BEATS, kept as a register
    wire [63:0] ts_now = cfg_ts_ext ? ts_in : cycles;
    wire [31:0] seed_x = status_round[31:0] ^ SEED_XOR;
    wire [31:0] seed   = (seed_x == 32'd0) ? 32'd1 : seed_x;

    // Output beat: the header beat, the LFSR bytes or the fill, each computed only in
    // its own case (so that a simulator evaluates only the one in use each cycle).
    reg [DATA_W-1:0] tdata;
    reg [127:0]      hdr_cat;
    reg [KEEP_W-1:0] keep;
    integer i;
    always @* begin
        hdr_cat = 128'd0;
        tdata   = {KEEP_W{fill_q}};
        if (in_hdr) begin
            // header beat hb: bytes hb*KEEP_W .. of {seq, ts}, big-endian; seq is
            // status_round, which moves only when a pass ends, after the payload
            hdr_cat = {status_round, ts_q};
            tdata   = {DATA_W{1'b0}};
            for (i = 0; i < 16; i = i + 1)
                if ({27'd0, hb} == i / KEEP_W)
                    tdata[8*(i%KEEP_W) +: 8] = hdr_cat[127-8*i -: 8];
        end else if (lfsr_q) begin
            tdata = lfsr_data(lfsr);
        end
        for (i = 0; i < KEEP_W; i = i + 1)
            keep[i] = (rem > i[16:0]);
    end

    assign m_axis_tvalid = (state == S_PAY);
    assign m_axis_tdata  = tdata;
    assign m_axis_tkeep  = keep;
    assign m_axis_tlast  = rem_last;
    assign m_axis_tuser  = 1'b0;

    assign m_hdr_valid         = (state == S_HDR);
    assign m_hdr_dst_mac       = 48'd0;
    assign m_hdr_dst_mac_valid = 1'b0;
    assign m_hdr_dst_ip        = dst_q[47:16];
    assign m_hdr_dst_port      = dst_q[15:0];
    assign m_hdr_src_port      = cfg_src_port;
    assign m_hdr_len           = priming ? 16'd0 : len_q;
    assign m_hdr_csum          = 16'd0;

    assign busy = (state != S_IDLE);

    wire hdr_fire  = m_hdr_valid && m_hdr_ready;
    wire beat_fire = m_axis_tvalid && m_axis_tready;
    wire pkt_done  = beat_fire && m_axis_tlast;
    reg  [31:0] n_sent;  // datagrams sent since `start` (for cfg_count)
    wire ev_sent = (state == S_PAY) && pkt_done && !priming;
    assign cnt_ev = {ev_sent, ev_sent};
    assign cnt_ev_len = len_q;
    wire run_done  = stop_pend || stop || last_pkt;

    always @(posedge clk) begin
        if (start && state == S_IDLE) begin
            len_q   <= cfg_len;
            count_m1 <= cfg_count - 32'd1;
            run_forever  <= (cfg_count == 32'd0);
            lfsr_q  <= cfg_lfsr;
            fill_q  <= cfg_fill;
            ndst_q  <= ndst_eff;
        end
        // registered end-of-run and end-of-payload conditions (short paths): n_sent
        // moves only at a payload's end, 2 cycles apart at the least
        last_pkt <= !run_forever && (n_sent == count_m1);
        if (hdr_fire) begin
            rem       <= priming ? 17'd0 : {1'b0, len_q};
            rem_last  <= priming || ({1'b0, len_q} <= KW);
            ts_q      <= ts_now;
            hb        <= 5'd0;
            in_hdr    <= 1'b1;
            pass_end  <= last_dst;
            lfsr      <= seed;
        end else if (beat_fire) begin
            rem    <= (rem > KW) ? rem - KW : 17'd0;
            rem_last <= (rem <= KW2);
            if (in_hdr) begin
                hb     <= hb + 5'd1;
                in_hdr <= (hb != HDR_BEATS[4:0] - 5'd1);
            end
            else
                lfsr <= lfsr_next(lfsr);
        end
        if (rst) begin
            rem    <= 17'd0;
            rem_last <= 1'b1;
            hb <= HDR_BEATS[4:0];
            in_hdr <= 1'b0;
        end
    end

    // Gap counter without a clock enable: it holds cfg_gap until the gap starts, then
    // counts down; gap_last (gap_cnt == 1) is kept as a register.
    always @(posedge clk) begin
        if (state == S_GAP) begin
            gap_cnt  <= gap_cnt - 32'd1;
            gap_last <= (gap_cnt == 32'd2);
        end else begin
            gap_cnt  <= cfg_gap;
            gap_last <= (cfg_gap == 32'd1);
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            state        <= S_IDLE;
            priming      <= 1'b0;
            stop_pend    <= 1'b0;
            warm_cnt     <= 16'd0;
            rd_idx       <= 4'd0;
            n_sent       <= 32'd0;
            round_lo     <= 32'd0;
            round_hi     <= 32'd0;
            round_carry  <= 1'b0;
        end else begin
            // the high half of the pass counter follows one cycle after the low half
            // wraps; it is read (payload bytes 0..3) two cycles after at the earliest
            if (round_carry) begin
                round_hi    <= round_hi + 32'd1;
                round_carry <= 1'b0;
            end
            if (stop && state != S_IDLE)
                stop_pend <= 1'b1;
            case (state)
                S_IDLE: if (start) begin
                    state        <= S_HDR;
                    priming      <= (cfg_warmup_ms != 16'd0);
                    stop_pend    <= 1'b0;
                    rd_idx       <= 4'd0;
                    n_sent       <= 32'd0;
                    round_lo     <= 32'd0;
                    round_hi     <= 32'd0;
                    round_carry  <= 1'b0;
                end
                S_HDR: if (hdr_fire) begin
                    state  <= S_PAY;
                    rd_idx <= next_idx;
                end
                S_PAY: if (pkt_done) begin
                    if (priming) begin
                        if (rd_idx == 4'd0) begin  // every destination primed
                            state    <= (stop_pend || stop) ? S_IDLE : S_WARM;
                            warm_cnt <= cfg_warmup_ms;
                        end else begin
                            state <= (stop_pend || stop) ? S_IDLE : S_HDR;
                        end
                    end else begin
                        n_sent <= n_sent + 32'd1;
                        if (pass_end) begin
                            round_lo    <= round_lo + 32'd1;
                            round_carry <= (round_lo == 32'hFFFFFFFF);
                        end
                        if (run_done)
                            state <= S_IDLE;
                        else if (cfg_gap != 32'd0)
                            state <= S_GAP;
                        else
                            state <= S_HDR;
                    end
                end
                S_GAP: begin
                    if (stop_pend || stop)
                        state <= S_IDLE;
                    else if (gap_last)
                        state <= S_HDR;
                end
                S_WARM: begin
                    if (stop_pend || stop)
                        state <= S_IDLE;
                    else if (tick_1ms) begin
                        warm_cnt <= warm_cnt - 16'd1;
                        if (warm_cnt[15:1] == 15'd0) begin  // warm_cnt <= 1
                            state   <= S_HDR;
                            priming <= 1'b0;
                        end
                    end
                end
                default: state <= S_IDLE;
            endcase
        end
    end

endmodule
`default_nettype wire
