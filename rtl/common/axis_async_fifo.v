`default_nettype none
// axis_async_fifo: AXI4-Stream FIFO between two unrelated clocks, in block/distributed
// RAM, with Gray-coded pointers, two-flop synchronizers and an optional frame mode.
//
// Plain mode (FRAME_FIFO = 0): beats pass through in order; the input is back-pressured
// while the FIFO is full. The write pointer crosses to the read side Gray-coded.
//
// Frame mode (FRAME_FIFO = 1): a frame becomes visible to the output only once its tlast
// beat has been written, so the output never waits mid-frame for input (a MAC TX behind
// it never underflows). The committed write pointer jumps a whole frame at a time, so it
// crosses with a request/acknowledge handshake (sync_bus) rather than Gray code.
//   - DROP_BAD_FRAME = 1: a frame with tuser = 1 on its tlast beat is discarded whole
//     (s_status_drop_bad); frames that come out carry tuser = 0.
//   - DROP_WHEN_FULL = 1: the input is never back-pressured; a frame that meets a full
//     FIFO is discarded whole (s_status_overflow when it runs out of room,
//     s_status_drop_full at its tlast beat). With DROP_WHEN_FULL = 0 the input is
//     back-pressured instead, except for a frame longer than DEPTH beats, which can never
//     fit and is discarded the same way (so the FIFO cannot hang on it).
//   A frame that ran out of room counts as dropped-full even if its last beat is bad.
//   The bytes of a discarded frame never reach the output.
//
// Reset: s_rst and m_rst are each synchronous to their own clock and may be asserted
// independently, for any length (at power-up hold each for a few cycles of the slower
// clock). A reset on either side resets both sides through a request/acknowledge
// handshake; the side that was reset comes out of it last, so the other side never sees
// stale pointers. Frames stay whole across a reset:
//   - input side, reset coming from the output side while a frame is half written: the
//     rest of that frame is discarded up to its tlast (no strobe: nothing was bad);
//   - output side, reset coming from the input side while a frame is half read: the beat
//     on the output is completed, the rest of the frame is lost, and the frame is closed
//     with one extra beat: tkeep = lane 0 only, tlast = 1, tuser = 1, so downstream drops
//     it as bad (its byte repeats one of the same frame: nothing leaks between frames).
//   s_axis_tready and m_axis_tvalid stay low while a side is in reset (except that the
//   output completes a beat it was already presenting, and may present the closing beat).
//
// Interfaces:
//   s_clk, s_rst               input clock and synchronous reset
//   s_axis_t{data,keep,valid,ready,last,user}   input stream (s_clk)
//   m_clk, m_rst               output clock and synchronous reset
//   m_axis_t{data,keep,valid,ready,last,user}   output stream (m_clk)
//   s_status_overflow          strobe (s_clk): a beat found no room, its frame is dropped
//   s_status_drop_bad          strobe (s_clk): one frame dropped for tuser on its last beat
//   s_status_drop_full         strobe (s_clk): one frame dropped for lack of room
//   s_status_good_frame        strobe (s_clk): one frame (plain mode: one tlast beat) stored
//   (strobes are registered: one s_clk cycle after the beat that causes them)
// Throughput: one beat per cycle in and out, back to back; the pointer crossing takes
//   a few cycles, so keep DEPTH above the largest frame plus ~8 beats for full rate.
// Latency: plain mode, 1 s_clk + 4 m_clk cycles from a beat in to the beat out; frame
//   mode, 1 s_clk + about 5 m_clk cycles (plus the handshake if one is in flight) from
//   a frame's tlast beat in to its first beat out.
// Capacity: DEPTH beats in RAM plus one in the output register. The full and empty flags
//   are flip-flops loaded a cycle ahead (against the other side's pointer as last seen,
//   which only moves on), so neither ready path has a pointer compare in it.
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, DEPTH (beats, a
//   power of two from 32 to 2048; tested 32 to 128, synthesized 512 and 2048),
//   FRAME_FIFO, DROP_BAD_FRAME, DROP_WHEN_FULL (0 or 1; the DROP_* options act in frame
//   mode only).
module axis_async_fifo #(
    parameter DATA_W         = 8,
    parameter KEEP_W         = (DATA_W + 7) / 8,
    parameter DEPTH          = 2048,
    parameter FRAME_FIFO     = 0,
    parameter DROP_BAD_FRAME = 0,
    parameter DROP_WHEN_FULL = 0
) (
    input wire s_clk,
    input wire s_rst,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    input wire m_clk,
    input wire m_rst,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output wire s_status_overflow,
    output wire s_status_drop_bad,
    output wire s_status_drop_full,
    output wire s_status_good_frame
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            axis_async_fifo_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            axis_async_fifo_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (DEPTH < 32 || DEPTH > 2048 || (DEPTH & (DEPTH - 1)) != 0) begin : g_check_depth
            axis_async_fifo_DEPTH_must_be_a_power_of_two_32_to_2048 u_error ();  // unsupported parameter
        end
        if (FRAME_FIFO != 0 && FRAME_FIFO != 1) begin : g_check_frame_fifo
            axis_async_fifo_FRAME_FIFO_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (DROP_BAD_FRAME != 0 && DROP_BAD_FRAME != 1) begin : g_check_drop_bad_frame
            axis_async_fifo_DROP_BAD_FRAME_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (DROP_WHEN_FULL != 0 && DROP_WHEN_FULL != 1) begin : g_check_drop_when_full
            axis_async_fifo_DROP_WHEN_FULL_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam AW = $clog2(DEPTH);
    localparam W = DATA_W + KEEP_W + 2;  // {tuser, tlast, tkeep, tdata}
    localparam [AW:0] TOP2 = {2'b11, {(AW - 1) {1'b0}}};  // Gray: pointers DEPTH apart
    localparam [AW:0] DEPTH_P = {1'b1, {AW{1'b0}}};  // DEPTH (2**AW), pointer-wide
    localparam [KEEP_W-1:0] KEEP_LANE0 = 1;
    localparam FRAME = (FRAME_FIFO != 0);
    localparam DROP_BAD = FRAME && (DROP_BAD_FRAME != 0);
    localparam DROP_FULL = FRAME && (DROP_WHEN_FULL != 0);

    function [AW:0] bin2gray;
        input [AW:0] b;
        bin2gray = b ^ (b >> 1);
    endfunction

    (* no_rw_check *) reg [W-1:0] data_mem[0:DEPTH-1];

    // ------------------------------------------------------------------ reset handshake
    // Each side raises a request on its own reset and holds it until the other side has
    // seen it; each side stays in reset while it sees the other's request, and the side
    // that asked stays in reset until the acknowledge has fallen again.
    reg  s_rst_req_reg;  // input side's reset request
    wire m_sees_s_req;  // s_rst_req_reg seen in m_clk (also the acknowledge sent back)
    wire s_rst_ack;  // m_sees_s_req seen in s_clk
    reg  m_rst_req_reg;  // output side's reset request
    wire s_sees_m_req;  // m_rst_req_reg seen in s_clk (also the acknowledge sent back)
    wire m_rst_ack;  // s_sees_m_req seen in m_clk

    always @(posedge s_clk) s_rst_req_reg <= s_rst || (s_rst_req_reg && !s_rst_ack);
    always @(posedge m_clk) m_rst_req_reg <= m_rst || (m_rst_req_reg && !m_rst_ack);

    sync_bit u_sync_sreq (
        .clk(m_clk),
        .in (s_rst_req_reg),
        .out(m_sees_s_req)
    );
    sync_bit u_sync_sack (
        .clk(s_clk),
        .in (m_sees_s_req),
        .out(s_rst_ack)
    );
    sync_bit u_sync_mreq (
        .clk(s_clk),
        .in (m_rst_req_reg),
        .out(s_sees_m_req)
    );
    sync_bit u_sync_mack (
        .clk(m_clk),
        .in (s_sees_m_req),
        .out(m_rst_ack)
    );

    // each side's internal reset: its own, or a handshake in progress
    wire s_irst = s_rst || s_rst_req_reg || s_rst_ack || s_sees_m_req;
    wire m_irst = m_rst || m_rst_req_reg || m_rst_ack || m_sees_s_req;

    // ------------------------------------------------------------------ write side (s_clk)
    reg  [AW:0] wr_ptr_reg;  // committed: everything below is visible to the reader
    // the write position (frame mode: ahead of wr_ptr_reg while a frame is written), and
    // its Gray code as a flip-flop: in plain mode that code crosses to m_clk, so it must
    // come from a flip-flop (no glitches of the binary-to-Gray logic may be sampled)
    reg  [AW:0] wr_ptr_cur_reg, wr_ptr_cur_next;
    /* verilator lint_off UNUSEDSIGNAL */  // (frame mode: wr_ptr_reg crosses instead)
    reg  [AW:0] wr_ptr_cur_gray_reg;  // bin2gray(wr_ptr_cur_reg), checked by the unit test
    /* verilator lint_on UNUSEDSIGNAL */
    wire [AW:0] rd_ptr_gray_s;  // reader's pointer, Gray, synchronized to s_clk
    reg         s_irst_reg;  // s_irst, registered (keeps the reset logic out of tready)
    reg         full_reg;  // write position DEPTH beats ahead of the reader (as last seen)
    reg         full_wr_reg;  // frame mode: the open frame alone fills the FIFO
    reg         s_in_frame_reg;  // the input stream is between a frame's first and last beat
    reg         drop_frame_reg;  // discarding the rest of the current input frame
    reg         drop_full_reg;  // ... because it ran out of room (strobe at its end)
    reg         s_status_overflow_reg;
    reg         s_status_drop_bad_reg;
    reg         s_status_drop_full_reg;
    reg         s_status_good_frame_reg;

    // Gray value a write pointer has when it is DEPTH beats ahead of the reader's
    wire [AW:0] full_at = rd_ptr_gray_s ^ TOP2;

    assign s_axis_tready = !s_irst_reg &&
                           (drop_frame_reg || !full_reg || DROP_FULL || (FRAME && full_wr_reg));

    wire take = s_axis_tvalid && s_axis_tready;
    wire store = take && !drop_frame_reg && !full_reg;
    wire over = take && !drop_frame_reg && full_reg;  // frame mode only
    wire commit = store && (!FRAME || (s_axis_tlast && !(DROP_BAD && s_axis_tuser)));
    wire discard_bad = store && FRAME && s_axis_tlast && DROP_BAD && s_axis_tuser;
    wire to_inc = store && !discard_bad;  // write position moves on by one (commits too)
    wire to_rev = over || discard_bad;  // write position falls back to wr_ptr_reg
    // the open frame (written, not committed) after this cycle's store
    wire [AW:0] open_after = wr_ptr_cur_reg + 1'b1 - wr_ptr_reg;

    always @* begin
        wr_ptr_cur_next = wr_ptr_cur_reg;
        if (to_rev) wr_ptr_cur_next = wr_ptr_reg;
        else if (to_inc) wr_ptr_cur_next = wr_ptr_cur_reg + 1'b1;
    end

    always @(posedge s_clk) begin
        if (store) data_mem[wr_ptr_cur_reg[AW-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
    end

    always @(posedge s_clk) begin
        s_irst_reg <= s_irst;
        s_status_overflow_reg   <= over;
        s_status_drop_bad_reg   <= discard_bad;
        s_status_drop_full_reg  <= (over && s_axis_tlast) ||
                                   (take && drop_frame_reg && s_axis_tlast && drop_full_reg);
        s_status_good_frame_reg <= commit && s_axis_tlast;
        if (s_irst_reg) begin
            wr_ptr_reg          <= {(AW + 1) {1'b0}};
            wr_ptr_cur_reg      <= {(AW + 1) {1'b0}};
            wr_ptr_cur_gray_reg <= {(AW + 1) {1'b0}};
            full_reg            <= 1'b0;
            full_wr_reg         <= 1'b0;
        end else begin
            // a commit is a store that also moves the write position on
            if (commit) wr_ptr_reg <= wr_ptr_cur_reg + 1'b1;
            wr_ptr_cur_reg      <= wr_ptr_cur_next;
            wr_ptr_cur_gray_reg <= bin2gray(wr_ptr_cur_next);
            // Full, one cycle ahead: the position the writer is about to take against
            // the reader's pointer as seen now (it only moves on, so at worst this is
            // full one cycle longer than needed).
            full_reg <= (bin2gray(wr_ptr_cur_next) == full_at);
            if (to_rev || commit) full_wr_reg <= 1'b0;
            else if (to_inc) full_wr_reg <= FRAME && (open_after == DEPTH_P);
        end
        if (s_rst) begin
            s_in_frame_reg <= 1'b0;
            drop_frame_reg <= 1'b0;
            drop_full_reg  <= 1'b0;
        end else if (s_irst) begin
            // Reset from the output side: the upstream is not reset, so a frame it is
            // half way through must be discarded up to its end.
            if (s_in_frame_reg) drop_frame_reg <= 1'b1;
        end else begin
            if (take) s_in_frame_reg <= !s_axis_tlast;
            if (take && drop_frame_reg && s_axis_tlast) begin
                drop_frame_reg <= 1'b0;
                drop_full_reg  <= 1'b0;
            end
            if (over && !s_axis_tlast) begin
                drop_frame_reg <= 1'b1;
                drop_full_reg  <= 1'b1;
            end
        end
        if (s_rst) begin
            s_status_overflow_reg   <= 1'b0;
            s_status_drop_bad_reg   <= 1'b0;
            s_status_drop_full_reg  <= 1'b0;
            s_status_good_frame_reg <= 1'b0;
        end
    end

    assign s_status_overflow   = s_status_overflow_reg;
    assign s_status_drop_bad   = s_status_drop_bad_reg;
    assign s_status_drop_full  = s_status_drop_full_reg;
    assign s_status_good_frame = s_status_good_frame_reg;

    // ------------------------------------------------------------------ pointer crossings
    // the reader's pointer and its Gray code as a flip-flop (it crosses to s_clk)
    reg  [AW:0] rd_ptr_reg, rd_ptr_next;
    reg  [AW:0] rd_ptr_gray_reg;  // bin2gray(rd_ptr_reg), checked by the unit test
    wire [AW:0] wr_ptr_gray_m;  // plain mode: writer's pointer, Gray, in m_clk
    wire [AW:0] wr_ptr_bin_m;  // frame mode: writer's committed pointer, binary, in m_clk

    sync_bit #(
        .WIDTH(AW + 1)
    ) u_sync_rd_ptr (
        .clk(s_clk),
        .in (rd_ptr_gray_reg),
        .out(rd_ptr_gray_s)
    );

    generate
        if (FRAME) begin : g_frame_ptr
            wire dst_update_unused;
            sync_bus #(
                .WIDTH(AW + 1)
            ) u_sync_wr_ptr (
                .src_clk   (s_clk),
                .src_rst   (s_irst_reg),
                .src_data  (wr_ptr_reg),
                .dst_clk   (m_clk),
                .dst_rst   (m_irst),
                .dst_data  (wr_ptr_bin_m),
                .dst_update(dst_update_unused)
            );
            assign wr_ptr_gray_m = {(AW + 1) {1'b0}};
        end else begin : g_plain_ptr
            sync_bit #(
                .WIDTH(AW + 1)
            ) u_sync_wr_ptr (
                .clk(m_clk),
                .in (wr_ptr_cur_gray_reg),
                .out(wr_ptr_gray_m)
            );
            assign wr_ptr_bin_m = {(AW + 1) {1'b0}};
        end
    endgenerate

    // ------------------------------------------------------------------ read side (m_clk)
    reg         empty_reg;  // nothing committed at rd_ptr_reg (as last seen; errs towards empty)
    reg         out_valid_reg;  // output register holds a beat
    reg         out_term_reg;  // ... and it is the closing beat after a reset (its data
                               // is the RAM register's last beat, of the same frame)
    reg         term_pending_reg;  // a closing beat is owed to downstream
    reg         frame_open_reg;  // downstream has taken part of a frame, not its tlast
    reg [W-1:0] out_data_reg;

    wire        out_free = !out_valid_reg || m_axis_tready;
    wire        rd = !empty_reg && !term_pending_reg && out_free;
    wire        term_load = term_pending_reg && out_free;
    // A frame is left open if the beat on the output (or, with none, the last one taken)
    // is not a tlast beat.
    wire        need_term = out_valid_reg ? !m_axis_tlast : frame_open_reg;

    always @* begin
        rd_ptr_next = rd_ptr_reg;
        if (rd) rd_ptr_next = rd_ptr_reg + 1'b1;
    end

    always @(posedge m_clk) begin
        if (rd) out_data_reg <= data_mem[rd_ptr_reg[AW-1:0]];
    end

    always @(posedge m_clk) begin
        if (m_irst) begin
            rd_ptr_reg      <= {(AW + 1) {1'b0}};
            rd_ptr_gray_reg <= {(AW + 1) {1'b0}};
            empty_reg       <= 1'b1;
        end else begin
            rd_ptr_reg      <= rd_ptr_next;
            rd_ptr_gray_reg <= bin2gray(rd_ptr_next);
            // Empty, one cycle ahead: the reader's next pointer against the writer's as
            // seen now (it only moves on, so at worst this is empty one cycle longer
            // than needed).
            empty_reg <= FRAME ? (rd_ptr_next == wr_ptr_bin_m) : (bin2gray(rd_ptr_next) == wr_ptr_gray_m);
        end
        if (m_rst) begin
            out_valid_reg    <= 1'b0;
            out_term_reg     <= 1'b0;
            term_pending_reg <= 1'b0;
            frame_open_reg   <= 1'b0;
        end else begin
            if (m_axis_tvalid && m_axis_tready) frame_open_reg <= !m_axis_tlast;
            if (rd) begin
                out_valid_reg <= 1'b1;
                out_term_reg  <= 1'b0;
            end else if (term_load) begin
                out_valid_reg <= 1'b1;
                out_term_reg  <= 1'b1;
            end else if (m_axis_tready) begin
                out_valid_reg <= 1'b0;
            end
            if (term_load) term_pending_reg <= 1'b0;
            else if (m_sees_s_req && need_term) term_pending_reg <= 1'b1;
        end
    end

    assign m_axis_tvalid = out_valid_reg;
    assign m_axis_tdata  = out_data_reg[DATA_W-1:0];
    assign m_axis_tkeep  = out_term_reg ? KEEP_LANE0 : out_data_reg[DATA_W+KEEP_W-1:DATA_W];
    assign m_axis_tlast  = out_term_reg || out_data_reg[W-2];
    assign m_axis_tuser  = out_term_reg || (DROP_BAD ? 1'b0 : out_data_reg[W-1]);

endmodule
`default_nettype wire
