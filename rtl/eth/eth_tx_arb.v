`default_nettype none
// eth_tx_arb: frame-level round-robin arbiter of N whole-Ethernet-frame streams onto one
// (the MAC's user side). A frame is never interleaved with another: once its first beat
// has been taken, the arbiter stays on that input until its tlast beat.
//
// Between frames the grant is combinational: the first requester (tvalid) found after the
// one served last wins in the same cycle, so an idle arbiter adds no cycle of latency
// (the zero-wait transmitter's first byte still leaves the cycle after its request), and
// frames follow back to back with no idle cycle.
//
// Parameters: N (inputs, >= 1), DATA_W, KEEP_W = DATA_W/8, CNT_W (counter width, 1..32:
//   counters wrap at 2^CNT_W; the cnt_* ports stay 32 bits, upper bits zero).
// Interfaces: s_axis_* flattened, input i in bits [i*DATA_W +: DATA_W] (tkeep
//   [i*KEEP_W +: KEEP_W], tvalid/tready/tlast/tuser bit i); m_axis_* the merged stream.
//   cnt_frames: frames passed.
// Latency: 0 cycles (combinational data path and grant).
module eth_tx_arb #(
    parameter N      = 2,
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8,
    parameter integer CNT_W = 32
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

    output reg  [31:0]           cnt_frames
);
    // counters wrap at 2^CNT_W (1..32); the cnt_* ports stay 32 bits, upper bits zero
    localparam [31:0] CNT_MASK = (CNT_W >= 32) ? 32'hffffffff : ((32'd1 << CNT_W) - 32'd1);
    localparam SW = (N > 1) ? $clog2(N) : 1;

    reg          locked;   // inside a frame from input `cur`
    reg [SW-1:0] cur;      // input holding the output while locked
    reg [SW-1:0] last;     // input served last (round-robin pointer)
    reg [SW-1:0] pick;     // input chosen between frames
    reg          any;
    reg [SW-1:0] sel;

    integer i;
    reg [SW:0] idx;
    always @* begin
        pick = last;
        any  = 1'b0;
        for (i = N; i >= 1; i = i - 1) begin
            idx = {1'b0, last} + i[SW:0];
            if (idx >= N[SW:0]) idx = idx - N[SW:0];
            if (s_axis_tvalid[idx[SW-1:0]]) begin
                pick = idx[SW-1:0];
                any  = 1'b1;
            end
        end
        sel = locked ? cur : pick;
    end

    assign m_axis_tdata  = s_axis_tdata[sel*DATA_W+:DATA_W];
    assign m_axis_tkeep  = s_axis_tkeep[sel*KEEP_W+:KEEP_W];
    assign m_axis_tvalid = (locked || any) && s_axis_tvalid[sel];
    assign m_axis_tlast  = s_axis_tlast[sel];
    assign m_axis_tuser  = s_axis_tuser[sel];

    always @* begin
        s_axis_tready      = {N{1'b0}};
        s_axis_tready[sel] = m_axis_tready && (locked || any);
    end

    wire fire = m_axis_tvalid && m_axis_tready;
    always @(posedge clk) begin
        if (fire) begin
            if (m_axis_tlast) begin
                locked     <= 1'b0;
                last       <= sel;
                cnt_frames <= (cnt_frames + 32'd1) & CNT_MASK;
            end else begin
                locked <= 1'b1;
                cur    <= sel;
            end
        end
        if (rst) begin
            locked     <= 1'b0;
            cur        <= {SW{1'b0}};
            last       <= {SW{1'b0}};
            cnt_frames <= 32'd0;
        end
    end
endmodule
`default_nettype wire
