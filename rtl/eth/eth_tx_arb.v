`default_nettype none
// eth_tx_arb: frame-level round-robin arbiter of N whole-Ethernet-frame streams onto one
// (the MAC's user side). A frame is never interleaved with another: once its first beat
// has been taken, the arbiter stays on that input until its tlast beat.
//
// The grant is a register (one-hot, or zero after reset): every s_axis_tready is the
// grant bit AND m_axis_tready, and the output mux is selected by the grant register, so
// no input's tvalid reaches any tready combinationally. The next grant is chosen from
// the requests (tvalid) of the other inputs, round robin from the input granted now:
//   - on the tlast beat of a frame: the first other requester after the current input
//     takes the grant for the next cycle, so frames of different inputs follow back to
//     back with no idle cycle; with no other requester the grant stays (is parked) on the
//     current input, so that input's next frame follows as soon as it is offered;
//   - between frames, while the granted input offers nothing: the first other requester
//     after it takes the grant for the next cycle.
// So a request from the input holding the (parked) grant is taken in the cycle it is
// made; a request from another input on an idle arbiter one cycle later. A request from
// the parked input wins a tie against another input's request made in the same cycle
// (the other input then goes next). After reset no input holds the grant and the
// lowest-numbered requester is served first.
//
// Parameters: N (inputs, >= 1), DATA_W, KEEP_W = DATA_W/8.
// Interfaces: s_axis_* flattened, input i in bits [i*DATA_W +: DATA_W] (tkeep
//   [i*KEEP_W +: KEEP_W], tvalid/tready/tlast/tuser bit i); m_axis_* the merged stream.
// cnt_ev[0:0]: event strobes, one cycle each, for counters kept in stat_counters (read
//   them while rst is low): bit 0 frames passed (at a frame's last beat).
// Latency (REG_OUT = 0): data path 0 cycles (the registered grant selects the input); an
//   idle arbiter adds 1 cycle to a request from an input that does not hold the grant, 0 otherwise.
//
// REG_OUT = 1: registered output and registered decisions, for a consumer that keeps
// every frame's beats coming and pauses between frames (a MAC: FCS and inter-frame gap).
// m_axis_* are flip-flops: an axis_pipe register slice (output and skid register) behind
// the grant's multiplexer. s_axis_tready[i] = grant[i] AND the slice's ready (its skid
// register empty, a flip-flop) AND NOT l_seen (the frame's tlast beat taken and not yet
// left, a flip-flop): one gate of three flip-flops, no path from m_axis_tready or
// m_axis_tvalid/tlast to any tready. The skid
// register only takes a beat earlier than the output register could: the beats reach
// m_axis_* in the same cycles as without it, whenever the input keeps up. The grant
// (one-hot, or zero: no frame committed) is decided only from registers: the round-robin
// pick is made every cycle into a register (nxt) from the requests of the inputs not
// granted, and it is loaded into the grant when the frame's tlast beat leaves the output
// register, or while no input holds the grant. So a frame is never interleaved (the
// grant moves only after its tlast beat has left). Output always ready: each tlast beat
// is followed by one cycle without a beat when another input is waiting, by three when
// the same input goes again with no other requester (its new request has to be picked
// first). Round robin: the first requester after the input served last, that input
// itself last (no parking: a tie goes to the other input). A request that was not there
// in the cycle before the decision waits for the next one. The pick relies on the
// AXI4-Stream rule that an input's tvalid stays high until its beat is taken (an
// axis_pipe slice in front keeps it). Latency: a request on an idle arbiter reaches
// m_axis_tvalid 3 cycles later (pick, grant, output register); data path 1 cycle (2
// for a beat that waited in the skid register while the output was stalled).
module eth_tx_arb #(
    parameter N      = 2,
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8,
    parameter integer REG_OUT = 0
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [N*DATA_W-1:0]   s_axis_tdata,
    input  wire [N*KEEP_W-1:0]   s_axis_tkeep,
    input  wire [N-1:0]          s_axis_tvalid,
    output reg  [N-1:0]          s_axis_tready,
    input  wire [N-1:0]          s_axis_tlast,
    input  wire [N-1:0]          s_axis_tuser,

    output wire [DATA_W-1:0]     m_axis_tdata,
    output wire [KEEP_W-1:0]     m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    output wire [0:0]            cnt_ev
);

    // one-hot grant: the data path is an AND-OR of the inputs selected by a register, and
    // the round-robin pick is "the lowest other requester above the granted input, else
    // the lowest other requester" (with no grant, after reset: the lowest requester)
    reg  [N-1:0] grant;   // registered grant, one-hot (zero only after reset; REG_OUT = 1:
                          // zero while no input holds it)
    reg          locked;  // inside a frame: its first beat taken, its tlast beat not yet
                          // (REG_OUT = 1: an input holds the grant, grant != 0)

    // (prefix ORs, not adders: no carry chain on the grant's next-value path). A function
    // called only under the enables that load the grant, so that a cycle-based simulator
    // computes it only when the grant may change (same logic in hardware)
    wire [N-1:0] req    = s_axis_tvalid & ~grant;  // requests of the other inputs
    function [N-1:0] pick_of(input [N-1:0] g, input [N-1:0] rq);
        reg [N-1:0] above;   // inputs strictly above the granted one
        reg [N-1:0] req_hi;
        reg         any_hi;
        reg         r_lo, r_hi;  // a request below / above bit k (running, in the loop)
        integer k;
        begin
            above = {N{1'b0}};
            for (k = 1; k < N; k = k + 1) above[k] = above[k-1] | g[k-1];
            req_hi = rq & above;
            any_hi = (req_hi != {N{1'b0}});
            // the lowest requester above the granted input, else the lowest requester
            r_lo = 1'b0;
            r_hi = 1'b0;
            for (k = 0; k < N; k = k + 1) begin
                pick_of[k] = any_hi ? (req_hi[k] && !r_hi) : (rq[k] && !r_lo);
                r_hi = r_hi | req_hi[k];
                r_lo = r_lo | rq[k];
            end
        end
    endfunction
    wire         any    = (req != {N{1'b0}});

    reg [DATA_W-1:0] o_data;
    reg [KEEP_W-1:0] o_keep;
    integer i;
    always @* begin
        o_data = {DATA_W{1'b0}};
        o_keep = {KEEP_W{1'b0}};
        for (i = 0; i < N; i = i + 1) begin
            o_data = o_data | (s_axis_tdata[i*DATA_W+:DATA_W] & {DATA_W{grant[i]}});
            o_keep = o_keep | (s_axis_tkeep[i*KEEP_W+:KEEP_W] & {KEEP_W{grant[i]}});
        end
    end
    // the granted input's beat (all zero with no grant)
    wire in_valid = |(s_axis_tvalid & grant);
    wire in_last  = |(s_axis_tlast & grant);
    wire in_user  = |(s_axis_tuser & grant);

    generate
        if (REG_OUT == 0) begin : g_comb
            always @* s_axis_tready = grant & {N{m_axis_tready}};

            assign m_axis_tdata  = o_data;
            assign m_axis_tkeep  = o_keep;
            assign m_axis_tvalid = in_valid;
            assign m_axis_tlast  = in_last;
            assign m_axis_tuser  = in_user;

            wire fire = m_axis_tvalid && m_axis_tready;
            assign cnt_ev = fire && m_axis_tlast;
            always @(posedge clk) begin
                if (fire) begin
                    if (m_axis_tlast) begin
                        locked     <= 1'b0;
                        if (any) grant <= pick_of(grant, req);  // next input's frame follows with no idle cycle
                    end else begin
                        locked <= 1'b1;
                    end
                end else if (!locked && !m_axis_tvalid && any) begin
                    grant <= pick_of(grant, req);  // the granted input offers nothing: hand over to a requester
                end
                if (rst) begin
                    grant      <= {N{1'b0}};
                    locked     <= 1'b0;
                end
            end
        end else begin : g_reg
            // Output register and skid register: an axis_pipe behind the grant's
            // multiplexer (its tready, !skid_valid, is a flip-flop; its outputs are
            // flip-flops). l_seen: the frame's tlast beat has been taken and has not left
            // the output yet; the granted input is held (and offers nothing to the slice)
            // meanwhile, so a frame's beats never follow another frame's before the grant
            // has been decided.
            wire             p_tready;
            reg              l_seen;
            // the round-robin pick, made every cycle from the requests of the inputs not
            // granted (nxt, zero with none: nxt_any low), and the input served last (ptr)
            reg [N-1:0]      nxt, ptr;
            reg              nxt_any;
            wire p_valid = in_valid && !l_seen;                          // offered to the slice
            wire take = p_valid && p_tready;                             // a beat taken
            wire fin  = m_axis_tvalid && m_axis_tlast && m_axis_tready;  // a tlast beat leaves
            wire dec  = fin || !locked;                                  // the grant is decided
            // (each tready one gate of three flip-flops: grant, !skid_valid, !l_seen)
            always @* s_axis_tready = grant & {N{p_tready && !l_seen}};
            assign cnt_ev = fin;

            axis_pipe #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_out (
                .clk(clk), .rst(rst),
                .s_axis_tdata(o_data), .s_axis_tkeep(o_keep), .s_axis_tvalid(p_valid),
                .s_axis_tready(p_tready), .s_axis_tlast(in_last), .s_axis_tuser(in_user),
                .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
                .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
            );

            // locked: an input holds the grant (its frame is committed), = (grant != 0)
            always @(posedge clk) begin
                l_seen  <= !fin && (l_seen || (take && in_last));
                nxt     <= pick_of(ptr, req);
                nxt_any <= any;
                if (dec) begin
                    grant  <= nxt;
                    locked <= nxt_any;
                    if (nxt_any) ptr <= nxt;
                end
                if (rst) begin
                    l_seen     <= 1'b0;
                    grant      <= {N{1'b0}};
                    locked     <= 1'b0;
                    ptr        <= {N{1'b0}};
                    nxt        <= {N{1'b0}};
                    nxt_any    <= 1'b0;
                end
            end
        end
    endgenerate
endmodule
`default_nettype wire
