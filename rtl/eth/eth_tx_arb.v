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
// Parameters: N (inputs, >= 2; tested 2, 3 and 5, and 4 to 6 in udp_stack), DATA_W (8 or
//   64), KEEP_W = DATA_W/8, REG_OUT (0 or 1, below).
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
// register empty, a flip-flop) AND NOT last_taken_reg (the frame's tlast beat taken and
// not yet left, a flip-flop): one gate of three flip-flops, no path from m_axis_tready or
// m_axis_tvalid/tlast to any tready. The skid register only takes a beat earlier than the output register could: the beats reach
// m_axis_* in the same cycles as without it, whenever the input keeps up. The grant
// (one-hot, or zero: no frame committed) is decided only from registers: the round-robin
// pick is made every cycle into a register (pick_reg) from the requests of the inputs not
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
    output wire [N-1:0]          s_axis_tready,
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

    generate
        if (N < 2) begin : g_check_n
            eth_tx_arb_N_must_be_at_least_2 u_error ();  // unsupported parameter (no such module)
        end
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            eth_tx_arb_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            eth_tx_arb_KEEP_W_must_be_DATA_W_div_8 u_error ();  // unsupported parameter
        end
        if (REG_OUT != 0 && REG_OUT != 1) begin : g_check_reg_out
            eth_tx_arb_REG_OUT_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    reg  [N-1:0] grant_reg;   // one-hot grant (zero only after reset; REG_OUT = 1: zero
                              // while no input holds it)
    reg          locked_reg;  // inside a frame: its first beat taken, its tlast beat not
                              // yet (REG_OUT = 1: an input holds the grant, grant != 0)

    // Round-robin pick: the lowest requester above input g (one-hot; zero: none, after
    // reset), else the lowest requester. Prefix ORs, not adders: no carry chain.
    function [N-1:0] pick_of(input [N-1:0] g, input [N-1:0] rq);
        reg [N-1:0] above;   // inputs strictly above g
        reg [N-1:0] req_hi;
        reg         any_hi;
        reg         r_lo, r_hi;  // a request below / above bit k (running, in the loop)
        integer k;
        begin
            above = {N{1'b0}};
            for (k = 1; k < N; k = k + 1) above[k] = above[k-1] | g[k-1];
            req_hi = rq & above;
            any_hi = (req_hi != {N{1'b0}});
            r_lo = 1'b0;
            r_hi = 1'b0;
            for (k = 0; k < N; k = k + 1) begin
                pick_of[k] = any_hi ? (req_hi[k] && !r_hi) : (rq[k] && !r_lo);
                r_hi = r_hi | req_hi[k];
                r_lo = r_lo | rq[k];
            end
        end
    endfunction
    wire [N-1:0] req = s_axis_tvalid & ~grant_reg;  // requests of the other inputs
    wire         any = (req != {N{1'b0}});

    // the granted input's beat (all zero with no grant): an AND-OR of the inputs
    reg [DATA_W-1:0] in_data;
    reg [KEEP_W-1:0] in_keep;
    integer i;
    always @* begin
        in_data = {DATA_W{1'b0}};
        in_keep = {KEEP_W{1'b0}};
        for (i = 0; i < N; i = i + 1) begin
            in_data = in_data | (s_axis_tdata[i*DATA_W+:DATA_W] & {DATA_W{grant_reg[i]}});
            in_keep = in_keep | (s_axis_tkeep[i*KEEP_W+:KEEP_W] & {KEEP_W{grant_reg[i]}});
        end
    end
    wire in_valid = |(s_axis_tvalid & grant_reg);
    wire in_last  = |(s_axis_tlast & grant_reg);
    wire in_user  = |(s_axis_tuser & grant_reg);

    generate
        if (REG_OUT == 0) begin : g_comb
            // the next grant: the first other requester after the granted input
            wire [N-1:0] pick = pick_of(grant_reg, req);
            assign s_axis_tready = grant_reg & {N{m_axis_tready}};

            assign m_axis_tdata  = in_data;
            assign m_axis_tkeep  = in_keep;
            assign m_axis_tvalid = in_valid;
            assign m_axis_tlast  = in_last;
            assign m_axis_tuser  = in_user;

            wire fire = m_axis_tvalid && m_axis_tready;
            assign cnt_ev = fire && m_axis_tlast;
            always @(posedge clk) begin
                if (rst) begin
                    grant_reg  <= {N{1'b0}};
                    locked_reg <= 1'b0;
                end else if (fire) begin
                    if (m_axis_tlast) begin
                        locked_reg <= 1'b0;
                        // the next input's frame follows with no idle cycle
                        if (any) grant_reg <= pick;
                    end else begin
                        locked_reg <= 1'b1;
                    end
                end else if (!locked_reg && !m_axis_tvalid && any) begin
                    grant_reg <= pick;  // the granted input offers nothing: hand over
                end
            end
        end else begin : g_reg
            // Output register and skid register: an axis_pipe behind the grant's
            // multiplexer (its tready, !skid_valid, is a flip-flop; its outputs are
            // flip-flops). last_taken_reg: the frame's tlast beat has been taken and has
            // not left the output yet; the granted input is held (and offers nothing to
            // the slice) meanwhile, so a frame's beats never follow another frame's
            // before the grant has been decided.
            wire             pipe_ready;
            reg              last_taken_reg;
            // the round-robin pick, made every cycle from the requests of the inputs not
            // granted (pick_any_reg: there was one), and the input served last
            reg [N-1:0]      pick_reg, served_reg;
            reg              pick_any_reg;
            wire pipe_valid = in_valid && !last_taken_reg;                // offered to the slice
            wire take = pipe_valid && pipe_ready;                         // a beat taken
            wire fin  = m_axis_tvalid && m_axis_tlast && m_axis_tready;   // a tlast beat leaves
            wire decide = fin || !locked_reg;                             // the grant is decided
            // (each tready one gate of three flip-flops: grant, !skid_valid, !last_taken)
            assign s_axis_tready = grant_reg & {N{pipe_ready && !last_taken_reg}};
            assign cnt_ev = fin;

            axis_pipe #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_out (
                .clk(clk), .rst(rst),
                .s_axis_tdata(in_data), .s_axis_tkeep(in_keep), .s_axis_tvalid(pipe_valid),
                .s_axis_tready(pipe_ready), .s_axis_tlast(in_last), .s_axis_tuser(in_user),
                .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
                .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
            );

            always @(posedge clk) begin
                if (rst) begin
                    last_taken_reg <= 1'b0;
                    grant_reg      <= {N{1'b0}};
                    locked_reg     <= 1'b0;
                    served_reg     <= {N{1'b0}};
                    pick_reg       <= {N{1'b0}};
                    pick_any_reg   <= 1'b0;
                end else begin
                    last_taken_reg <= !fin && (last_taken_reg || (take && in_last));
                    pick_reg       <= pick_of(served_reg, req);
                    pick_any_reg   <= any;
                    if (decide) begin
                        grant_reg  <= pick_reg;
                        locked_reg <= pick_any_reg;
                        if (pick_any_reg) served_reg <= pick_reg;
                    end
                end
            end
        end
    endgenerate
endmodule
`default_nettype wire
