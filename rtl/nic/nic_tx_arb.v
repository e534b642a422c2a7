`default_nettype none
// nic_tx_arb: the smart network interface's transmit arbiter. Merges N whole-frame
// AXI4-Stream sources (the stack's frames, accelerator result frames) onto the MAC's
// transmit stream, frame by frame, with a configurable share or a strict priority.
// A frame is never interleaved with another: once an input holds the grant it keeps it
// until its tlast beat.
//
// Policy (cfg_strict, read between frames):
//   0  weighted round robin by frames: input i may send up to cfg_weight[i] + 1 frames
//      in a row (its turn) while it has frames; then the next input in circular order
//      that requests takes the grant. An input with no frame waiting ends its turn at
//      once. So with both inputs busy, inputs 0 and 1 share the link in the ratio
//      (w0 + 1) : (w1 + 1) frames, from 1:1 to 1:65536.
//   1  strict priority: between frames the lowest-numbered requesting input takes the
//      grant (the weights are not used).
// An idle arbiter picks in the cycle a request arrives: round robin from the input
// granted last (after reset, from input 0).
//
// Timing: every decision is a register. Between frames the arbiter spends one cycle
// choosing (grant_reg, active_reg); s_axis_tready[i] is active_reg AND grant_reg == i
// AND the output slice's ready (a flip-flop), so no tvalid reaches any tready in its own
// cycle. The output is an axis_pipe register slice. A frame of L beats occupies the
// arbiter L + 1 cycles; a MAC's inter-frame gap (12 bytes, at least 2 cycles at 64 bits)
// hides the choosing cycle.
//
// Interfaces:
//   clk, rst                       clock, synchronous reset
//   s_axis_*                       N inputs, flattened: input i in tdata[i*DATA_W +:
//                                  DATA_W], tkeep[i*KEEP_W +: KEEP_W], bit i of tvalid,
//                                  tready, tlast, tuser
//   m_axis_*                       merged stream (from flip-flops)
//   cfg_strict                     1: strict priority, 0: weighted round robin
//   cfg_weight[16*N-1:0]           input i's frames per turn minus one in bits [16*i +: 16]
//   cnt_ev[N-1:0]                  event strobes: bit i a frame of input i passed (its
//                                  tlast beat taken), one cycle after that beat
// Latency: a request on an idle arbiter reaches m_axis_tvalid 2 cycles later (choose,
//   take the beat into the slice); data path 1 cycle.
// Parameters (checked): N inputs 2..8 (tested 2 and 3), DATA_W 8 or 64 (both tested),
//   KEEP_W = DATA_W/8.
module nic_tx_arb #(
    parameter integer N      = 2,
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8
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
    input  wire                  cfg_strict,
    input  wire [16*N-1:0]       cfg_weight,
    output wire [N-1:0]          cnt_ev
);
    localparam integer SEL_W = (N <= 2) ? 1 : (N <= 4) ? 2 : 3;  // bits of an input number

    generate
        if (N < 2 || N > 8) begin : g_check_n
            nic_tx_arb_N_must_be_2_to_8 u_error ();  // unsupported parameter (no such module)
        end
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            nic_tx_arb_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            nic_tx_arb_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
    endgenerate

    reg             active_reg, active_next;  // the granted input's frame is passing
    reg [SEL_W-1:0] grant_reg, grant_next;    // the input holding the grant
    reg [16:0]      sent_reg, sent_next;      // frames the granted input sent in its turn
    reg [N-1:0]     cnt_ev_reg;

    wire pipe_ready;
    wire [N-1:0] granted;  // one-hot: bit i set when input i holds the grant
    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_granted
            localparam [SEL_W-1:0] INPUT = g;
            assign granted[g] = grant_reg == INPUT;
        end
    endgenerate
    wire granted_valid = s_axis_tvalid[grant_reg];
    wire granted_last  = s_axis_tlast[grant_reg];
    wire take          = active_reg && pipe_ready && granted_valid;

    // The input that would take the grant now: the first requester in circular order
    // after the granted input (the granted input itself last), or in strict mode the
    // lowest-numbered requester. `any_request` says whether there is one.
    reg [SEL_W-1:0] next_rr;
    reg [SEL_W-1:0] lowest;
    reg             any_request;
    integer k, idx;
    always @* begin
        next_rr     = grant_reg;
        lowest      = {SEL_W{1'b0}};
        any_request = 1'b0;
        for (k = N; k >= 1; k = k - 1) begin  // k = N last: the granted input itself
            idx = {{(32 - SEL_W){1'b0}}, grant_reg} + k;
            if (idx >= N) idx = idx - N;
            if (s_axis_tvalid[idx]) begin
                next_rr     = idx[SEL_W-1:0];
                any_request = 1'b1;
            end
        end
        for (k = N - 1; k >= 0; k = k - 1) begin
            if (s_axis_tvalid[k]) lowest = k[SEL_W-1:0];
        end
    end

    wire [16:0] turn_frames = {1'b0, cfg_weight[16*grant_reg +: 16]} + 17'd1;
    wire        turn_left   = sent_reg < turn_frames;

    always @* begin
        active_next = active_reg;
        grant_next  = grant_reg;
        sent_next   = sent_reg;
        if (active_reg) begin
            if (take && granted_last) begin
                active_next = 1'b0;
                sent_next   = sent_reg + 17'd1;
            end
        end else if (any_request) begin
            active_next = 1'b1;
            if (cfg_strict) begin
                grant_next = lowest;
                sent_next  = 17'd0;
            end else if (granted_valid && turn_left) begin
                grant_next = grant_reg;  // the turn goes on
            end else begin
                grant_next = next_rr;  // the next requester's turn (a new turn if it is the same input)
                sent_next  = 17'd0;
            end
        end
    end

    always @(posedge clk) begin
        cnt_ev_reg <= {N{take && granted_last}} & granted;
        if (rst) begin
            active_reg <= 1'b0;
            grant_reg  <= {SEL_W{1'b0}};
            sent_reg   <= 17'd0;
            cnt_ev_reg <= {N{1'b0}};
        end else begin
            active_reg <= active_next;
            grant_reg  <= grant_next;
            sent_reg   <= sent_next;
        end
    end

    assign s_axis_tready = {N{active_reg && pipe_ready}} & granted;

    axis_pipe #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_out (
        .clk          (clk),
        .rst          (rst),
        .s_axis_tdata (s_axis_tdata[grant_reg*DATA_W +: DATA_W]),
        .s_axis_tkeep (s_axis_tkeep[grant_reg*KEEP_W +: KEEP_W]),
        .s_axis_tvalid(active_reg && granted_valid),
        .s_axis_tready(pipe_ready),
        .s_axis_tlast (granted_last),
        .s_axis_tuser (s_axis_tuser[grant_reg]),
        .m_axis_tdata (m_axis_tdata),
        .m_axis_tkeep (m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready),
        .m_axis_tlast (m_axis_tlast),
        .m_axis_tuser (m_axis_tuser)
    );

    assign cnt_ev = cnt_ev_reg;
endmodule
`default_nettype wire
