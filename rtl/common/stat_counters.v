`default_nettype none
// stat_counters: N wrapping W-bit event counters behind one read port, kept in
// flip-flops (RAM = 0) or in one inferred RAM (RAM = 1: iCE40 block RAM, Xilinx LUT RAM
// or block RAM). The blocks emit event strobes (their cnt_ev outputs); a top
// concatenates them into ev and reads the counts here (docs/conventions.md, "Counters").
//
// Event inputs:
//   ev[N-1:0]          one strobe per counter: any number of counters may count in a
//                      cycle, each at most one event per cycle
//   ev_val[N*VW-1:0]   value counters only (VMASK bit set): counter i adds
//                      ev_val[i*VW+:VW] when ev[i] is high (bytes of a frame, say). The
//                      other slices are not read.
// Read port: rd_en with rd_addr (0..N-1) asks for a counter; rd_valid and rd_data follow
//   exactly 2 cycles later (rd_en in cycle t, rd_valid in cycle t+2). rd_data counts every
//   event of the cycles before cycle t, wrapped at 2^W. A read is taken in any cycle busy
//   is low, one per cycle; a read asked while busy is high is ignored (no rd_valid).
// clear: one-cycle strobe: every counter restarts at 0 (events of the clear cycle are
//   counted from 0) and lost falls. rst does the same, without counting its cycles' events.
//
// RAM = 0 (flip-flops): each counter adds its event (or value) in the cycle after it;
//   every count is exact whatever the event rate; busy and lost stay 0.
// RAM = 1 (one RAM): each counter has a small pending count in flip-flops that its events
//   increment; a scanner visits the counters round robin, one a cycle, and folds the
//   pending count into the RAM word (read-modify-write, two pipeline stages, the one
//   possible read-after-write collision forwarded). The pending count is taken and
//   restarted in the same cycle, so no event is counted twice or missed by the fold; a
//   read folds the counter as a scan does and delays the scan by that cycle.
//   busy: high from rst (and from clear) until the clearing pass has written every RAM
//   word: N cycles after rst falls. Events of those cycles are counted all the same.
//   lost: sticky; set when an event could not be counted because a pending count would
//   have overflowed. It falls only at rst or clear.
//   Exactness: a strobe counter's pending count holds 2^PW - 1 events (2^PWW - 1 for the
//   counters of WMASK), a value counter's 2^PV - 1 (the sum of its values). The scanner
//   takes each pending count at least once every N + R cycles, R being the reads taken in
//   between. So no event is lost (and lost stays low) while, for every counter, the events
//   (values) in any N + R consecutive cycles stay at or below 2^PW - 1 (2^PV - 1). A
//   pending count that would overflow saturates and sets lost.
// Parameters (checked at elaboration; tested: N 5..120, W 2..32, both RAM values):
//   N (counters, >= 2), W (counter width, 2..32), RAM (0 flip-flops, 1 RAM),
//   VW (width of a value input, >= 1), VMASK (N bits: 1 = value counter);
//   RAM = 1 only: PW (pending bits of a strobe counter, >= 1), PV (pending bits of a value
//   counter, >= VW), PWW and WMASK (N bits): the strobe counters of WMASK have PWW (>= 1)
//   pending bits instead of PW (counters whose events come in bursts).
// Latency: a read 2 cycles (see above). RAM = 1: an event reaches the RAM within
//   N + R + 2 cycles (reads see it at once).
// Area: RAM = 0: N*W flip-flops, N W-bit incrementers (adders for value counters) and the
//   N-to-1 W-bit read multiplexer. RAM = 1: N*PW (+ PV per value counter) flip-flops of
//   pending counts, one W-bit adder, the N-to-1 pending multiplexer and the forwarding
//   register; N x W bits of RAM.
module stat_counters #(
    parameter integer N     = 8,
    parameter integer W     = 32,
    parameter integer RAM   = 0,
    parameter integer PW    = 2,
    parameter integer VW    = 16,
    parameter integer PV    = 16,
    parameter [N-1:0] VMASK = {N{1'b0}},
    parameter integer PWW   = 3,
    parameter [N-1:0] WMASK = {N{1'b0}}
) (
    input  wire                         clk,
    input  wire                         rst,
    input  wire                         clear,
    input  wire [N-1:0]                 ev,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [N*VW-1:0]              ev_val,  // only the value counters' slices
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                         rd_en,
    input  wire [((N > 1) ? $clog2(N) : 1)-1:0] rd_addr,
    output wire                         rd_valid,
    output wire [W-1:0]                 rd_data,
    output wire                         busy,
    output wire                         lost
);
    localparam integer AW = (N > 1) ? $clog2(N) : 1;

    generate
        if (N < 2) begin : g_check_n
            stat_counters_N_must_be_at_least_2 u_error ();  // unsupported parameter
        end
        if (W < 2 || W > 32) begin : g_check_w
            stat_counters_W_must_be_2_to_32 u_error ();  // unsupported parameter
        end
        if (RAM != 0 && RAM != 1) begin : g_check_ram
            stat_counters_RAM_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (VW < 1) begin : g_check_vw
            stat_counters_VW_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (RAM == 1 && (PW < 1 || PWW < 1)) begin : g_check_pw
            stat_counters_PW_and_PWW_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (RAM == 1 && PV < VW) begin : g_check_pv
            stat_counters_PV_must_be_at_least_VW u_error ();  // unsupported parameter
        end
    endgenerate

    genvar i;
    generate
        if (RAM == 0) begin : g_ff
            // ---------------- flip-flops: one counter per event ----------------
            reg [N*W-1:0] count_reg;  // counter i is count_reg[i*W+:W]
            for (i = 0; i < N; i = i + 1) begin : g_count
                wire [W-1:0] step;  // what an event adds: its value, or 1
                localparam [W-1:0] ONE = 1;
                if (!VMASK[i]) begin : g_one
                    assign step = ONE;
                end else if (VW >= W) begin : g_val_wide
                    assign step = ev_val[i*VW+:W];
                end else begin : g_val
                    assign step = {{(W-VW){1'b0}}, ev_val[i*VW+:VW]};
                end
                wire [W-1:0] add = ev[i] ? step : {W{1'b0}};
                always @(posedge clk) begin
                    if (rst) count_reg[i*W+:W] <= {W{1'b0}};
                    else if (clear) count_reg[i*W+:W] <= add;
                    else count_reg[i*W+:W] <= count_reg[i*W+:W] + add;
                end
            end

            // the read: the count at the start of the rd_en cycle, then one register
            reg [W-1:0] rd_count_reg, rd_data_reg;
            reg         rd_count_valid_reg, rd_valid_reg;
            always @(posedge clk) begin
                rd_count_reg <= count_reg[rd_addr*W+:W];
                rd_data_reg <= rd_count_reg;
                rd_count_valid_reg <= rd_en && !rst;
                rd_valid_reg <= rd_count_valid_reg && !rst;
            end
            assign rd_valid = rd_valid_reg;
            assign rd_data = rd_data_reg;
            assign busy = 1'b0;
            assign lost = 1'b0;
        end else begin : g_ram
            // ---------------- RAM: pending counts folded into one RAM ----------------
            // the widest pending count
            localparam integer PS = (WMASK != {N{1'b0}} && PWW > PW) ? PWW : PW;
            localparam integer PM = (VMASK != {N{1'b0}} && PV > PS) ? PV : PS;

            // stage 0: pick the counter (a read's, else the scan's), take its pending count
            reg  [AW-1:0] scan_reg;       // next counter of the scan (the clearing pass too)
            reg           busy_reg, lost_reg;
            wire          rd_go = rd_en && !busy_reg;
            wire [AW-1:0] sel = rd_go ? rd_addr : scan_reg;
            wire          scan_last = (scan_reg == N[AW-1:0] - 1'b1);

            wire [N-1:0]    ovf;          // an event would overflow its pending count
            wire [N*PM-1:0] pend_sel;     // pending count of counter i if sel == i, else 0

            for (i = 0; i < N; i = i + 1) begin : g_pend
                localparam integer PI = VMASK[i] ? PV : (WMASK[i] ? PWW : PW);
                localparam [AW-1:0] IA = i;
                reg  [PI-1:0] pend_reg;
                wire          take = (sel == IA);
                wire [PI-1:0] base = (take || clear) ? {PI{1'b0}} : pend_reg;
                wire [PI-1:0] sum;
                wire          carry;          // the sum does not fit: overflow
                if (VMASK[i]) begin : g_val
                    wire [PI:0] s;
                    if (PI > VW) begin : g_ext
                        assign s = {1'b0, base} + {{(PI-VW+1){1'b0}}, ev_val[i*VW+:VW]};
                    end else begin : g_eq
                        assign s = {1'b0, base} + {1'b0, ev_val[i*VW+:VW]};
                    end
                    assign sum = s[PI-1:0];
                    assign carry = s[PI];
                end else begin : g_one
                    assign {carry, sum} = {1'b0, base} + 1'b1;
                end
                assign ovf[i] = ev[i] && carry;
                always @(posedge clk) begin
                    if (rst) pend_reg <= {PI{1'b0}};
                    else if (ev[i]) pend_reg <= carry ? {PI{1'b1}} : sum;
                    else if (take || clear) pend_reg <= {PI{1'b0}};
                end
                // the pending multiplexer as an AND-OR over the select decoder
                if (PI < PM) begin : g_ext
                    assign pend_sel[i*PM+:PM] = {{(PM-PI){1'b0}}, pend_reg & {PI{take}}};
                end else begin : g_full
                    assign pend_sel[i*PM+:PM] = pend_reg & {PI{take}};
                end
            end

            reg [PM-1:0] pend;            // the pending count of counter sel
            integer k;
            always @(*) begin
                pend = {PM{1'b0}};
                for (k = 0; k < N; k = k + 1) pend = pend | pend_sel[k*PM+:PM];
            end

            always @(posedge clk) begin
                if (rst || clear) begin
                    scan_reg <= {AW{1'b0}};
                    busy_reg <= 1'b1;
                    lost_reg <= 1'b0;
                end else begin
                    if (!rd_go) begin
                        scan_reg <= scan_last ? {AW{1'b0}} : scan_reg + 1'b1;
                        if (scan_last) busy_reg <= 1'b0;
                    end
                    if (|ovf) lost_reg <= 1'b1;
                end
            end

            // stage 1: the RAM word read, the pending count added, the word written back
            reg  [W-1:0]  count_mem [0:N-1];
            reg  [W-1:0]  ram_q_reg;      // count_mem[sel], read at the end of stage 0
            reg  [AW-1:0] sel1_reg;       // stage 1: counter, pending count, flags
            reg  [PM-1:0] pend1_reg;
            reg           valid1_reg, zero1_reg, rd1_reg, fwd1_reg;
            reg  [W-1:0]  fwd_reg;        // the word written in the cycle stage 0 read it
            reg  [W-1:0]  rd_data_reg;
            reg           rd_valid_reg;
            wire [W-1:0]  old = zero1_reg ? {W{1'b0}} : (fwd1_reg ? fwd_reg : ram_q_reg);
            wire [W-1:0]  total;
            if (PM >= W) begin : g_wide
                assign total = old + pend1_reg[W-1:0];
            end else begin : g_narrow
                assign total = old + {{(W-PM){1'b0}}, pend1_reg};
            end

            always @(posedge clk) begin
                ram_q_reg <= count_mem[sel];
                if (valid1_reg) count_mem[sel1_reg] <= total;
            end

            always @(posedge clk) begin
                sel1_reg <= sel;
                pend1_reg <= pend;
                zero1_reg <= busy_reg && !rd_go;
                rd1_reg <= rd_go;
                fwd1_reg <= valid1_reg && (sel1_reg == sel);
                fwd_reg <= total;
                rd_data_reg <= total;
                rd_valid_reg <= rd1_reg && valid1_reg;
                valid1_reg <= 1'b1;
                if (rst) begin
                    valid1_reg <= 1'b0;
                    rd1_reg <= 1'b0;
                    rd_valid_reg <= 1'b0;
                end
            end
            assign rd_valid = rd_valid_reg;
            assign rd_data = rd_data_reg;
            assign busy = busy_reg;
            assign lost = lost_reg;
        end
    endgenerate
endmodule
`default_nettype wire
