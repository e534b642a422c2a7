`default_nettype none
// stat_counters: N wrapping W-bit event counters kept in one inferred RAM (iCE40 block
// RAM, Xilinx LUT RAM or block RAM) instead of N flip-flop counters.
//
// Each counter has a small pending count in flip-flops that its events increment; a
// scanner visits the counters round robin, one a cycle, and folds the pending count into
// the RAM word (read-modify-write, two pipeline stages, the one possible read-after-write
// collision forwarded). The pending count is taken and restarted in the same cycle, so no
// event is ever counted twice or missed by the fold.
//
// Event inputs:
//   ev[N-1:0]          one strobe per counter: any number of counters may count in a
//                      cycle, each at most one event per cycle
//   ev_val[N*VW-1:0]   value counters only (VMASK bit set): counter i adds
//                      ev_val[i*VW+:VW] when ev[i] is high (bytes of a frame, say). The
//                      other slices are not read.
// Read port (the user's): rd_en with rd_addr (0..N-1) asks for a counter; rd_valid and
//   rd_data follow exactly 2 cycles later (rd_en in cycle t, rd_valid in cycle t+2).
//   rd_data counts every event of the cycles before cycle t (pending counts included:
//   the read folds the counter like a scan does), wrapped at 2^W. A read is taken in any
//   cycle busy is low, one per cycle; it delays the round-robin scan by that cycle. A
//   read asked while busy is high is ignored (no rd_valid).
// busy: high from rst (and from clear) until the clearing pass has written every RAM
//   word: N cycles after rst falls. Events of those cycles are counted all the same.
// clear: one-cycle strobe: every counter restarts at 0 (events of the clear cycle are
//   counted from 0), lost falls, and a clearing pass runs (busy for N cycles).
// lost: sticky; set when an event could not be counted because a pending count would
//   have overflowed. It falls only at rst or clear.
//
// Exactness: a strobe counter's pending count holds 2^PW - 1 events (2^PWW - 1 for the
//   counters of WMASK), a value counter's 2^PV - 1 (the sum of its values). The scanner takes each pending count at least once
//   every N + R cycles, R being the reads taken in between. So no event is lost (and lost
//   stays low) while, for every counter, the events (values) in any N + R consecutive
//   cycles stay at or below 2^PW - 1 (2^PV - 1). A pending count that would overflow
//   saturates and sets lost.
// Parameters: N (counters, >= 2), W (counter width, 1..32), PW (pending bits of a strobe
//   counter, >= 1), VW (width of a value input, >= 1), PV (pending bits of a value counter,
//   >= VW), VMASK (N bits: 1 = value counter), PWW and WMASK (N bits): the strobe
//   counters of WMASK have PWW pending bits instead of PW (counters whose events come in
//   bursts).
// Latency: a read 2 cycles (see above); an event reaches the RAM within N + R + 2 cycles.
// Area: N*PW (+ PV per value counter) flip-flops of pending counts, a W-bit adder, the
//   N-to-1 pending multiplexer and the forwarding register; N x W bits of RAM.
module stat_counters #(
    parameter integer N  = 8,
    parameter integer W  = 32,
    parameter integer PW = 2,
    parameter integer VW = 16,
    parameter integer PV = 16,
    parameter [N-1:0] VMASK = {N{1'b0}},
    parameter integer PWW = 3,
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
    output reg                          rd_valid,
    output reg  [W-1:0]                 rd_data,
    output reg                          busy,
    output reg                          lost
);
    localparam integer AW = (N > 1) ? $clog2(N) : 1;
    // the widest pending count
    localparam integer PS = (WMASK != {N{1'b0}} && PWW > PW) ? PWW : PW;
    localparam integer PM = (VMASK != {N{1'b0}} && PV > PS) ? PV : PS;

    // ---------------- stage 0: pick the counter, take its pending count ----------------
    reg  [AW-1:0] ptr;                 // next counter of the scan (the clearing pass too)
    wire          rd_go = rd_en && !busy;
    wire [AW-1:0] a = rd_go ? rd_addr : ptr;
    wire          ptr_last = (ptr == N[AW-1:0] - 1'b1);

    wire [N-1:0]    ovf;               // an event would overflow its pending count
    wire [N*PM-1:0] pend_sel;          // pending count of counter i if a == i, else 0

    genvar i;
    generate
        for (i = 0; i < N; i = i + 1) begin : g_pend
            localparam integer PI = VMASK[i] ? PV : (WMASK[i] ? PWW : PW);
            localparam [AW-1:0] IA = i;
            reg  [PI-1:0] pend;
            wire          take = (a == IA);
            wire [PI-1:0] base = (take || clear) ? {PI{1'b0}} : pend;
            wire [PI-1:0] nxt;
            wire          cy;              // the sum does not fit: overflow
            if (VMASK[i]) begin : g_val
                wire [PI:0] s;
                if (PI > VW) begin : g_ext
                    assign s = {1'b0, base} + {{(PI-VW+1){1'b0}}, ev_val[i*VW+:VW]};
                end else begin : g_eq
                    assign s = {1'b0, base} + {1'b0, ev_val[i*VW+:VW]};
                end
                assign nxt = s[PI-1:0];
                assign cy = s[PI];
            end else begin : g_one
                // base + 1 as gates (a ripple of ANDs), not an adder: a few bits map to
                // one LUT each instead of a carry chain
                reg [PI-1:0] n;
                reg          c;
                integer j;
                always @(*) begin
                    c = 1'b1;
                    for (j = 0; j < PI; j = j + 1) begin
                        n[j] = base[j] ^ c;
                        c = c & base[j];
                    end
                end
                assign nxt = n;
                assign cy = c;
            end
            assign ovf[i] = ev[i] && cy;
            always @(posedge clk) begin
                if (rst) pend <= {PI{1'b0}};
                else if (ev[i]) pend <= cy ? {PI{1'b1}} : nxt;
                else if (take || clear) pend <= {PI{1'b0}};
            end
            // the pending multiplexer as an AND-OR over the scan decoder (shared with take)
            if (PI < PM) begin : g_ext
                assign pend_sel[i*PM+:PM] = {{(PM-PI){1'b0}}, pend & {PI{take}}};
            end else begin : g_full
                assign pend_sel[i*PM+:PM] = pend & {PI{take}};
            end
        end
    endgenerate

    reg [PM-1:0] pend_a;               // the pending count of counter a
    integer k;
    always @(*) begin
        pend_a = {PM{1'b0}};
        for (k = 0; k < N; k = k + 1) pend_a = pend_a | pend_sel[k*PM+:PM];
    end

    always @(posedge clk) begin
        if (rst || clear) begin
            ptr <= {AW{1'b0}};
            busy <= 1'b1;
            lost <= 1'b0;
        end else begin
            if (!rd_go) begin
                ptr <= ptr_last ? {AW{1'b0}} : ptr + 1'b1;
                if (ptr_last) busy <= 1'b0;
            end
            if (|ovf) lost <= 1'b1;
        end
    end

    // ---------------- RAM ----------------
    reg  [W-1:0]  mem [0:N-1];
    reg  [W-1:0]  ram_q;               // mem[a] read at the end of stage 0
    reg  [AW-1:0] a1;                  // stage 1: counter, pending count, flags
    reg  [PM-1:0] p1;
    reg           v1, z1, rd1, fwd1;
    reg  [W-1:0]  fwd_q;               // the word written in the cycle stage 0 read it
    wire [W-1:0]  old = z1 ? {W{1'b0}} : (fwd1 ? fwd_q : ram_q);
    wire [W-1:0]  sum;
    generate
        if (PM >= W) begin : g_wide
            assign sum = old + p1[W-1:0];
        end else begin : g_narrow
            assign sum = old + {{(W-PM){1'b0}}, p1};
        end
    endgenerate

    always @(posedge clk) begin
        ram_q <= mem[a];
        if (v1) mem[a1] <= sum;
    end

    always @(posedge clk) begin
        a1 <= a;
        p1 <= pend_a;
        z1 <= busy && !rd_go;
        rd1 <= rd_go;
        fwd1 <= v1 && (a1 == a);
        fwd_q <= sum;
        rd_data <= sum;
        rd_valid <= rd1 && v1;
        v1 <= 1'b1;
        if (rst) begin
            v1 <= 1'b0;
            rd1 <= 1'b0;
            rd_valid <= 1'b0;
        end
    end
endmodule
`default_nettype wire
