`default_nettype none
// axis_fifo: single-clock AXI4-Stream FIFO in block/distributed RAM, with an optional
// frame mode.
//
// Plain mode (FRAME_FIFO = 0): beats pass through in order; the input is back-pressured
// (s_axis_tready low) while the FIFO holds DEPTH beats.
//
// Frame mode (FRAME_FIFO = 1): a frame becomes visible to the output only once its tlast
// beat has been written, so the output never waits mid-frame for input. Then:
//   - DROP_BAD_FRAME = 1: a frame with tuser = 1 on its tlast beat is discarded whole
//     (status_drop_bad); frames that come out carry tuser = 0.
//   - DROP_WHEN_FULL = 1: the input is never back-pressured; a frame that meets a full
//     FIFO is discarded whole (status_overflow when it runs out of room, status_drop_full
//     at its tlast beat). With DROP_WHEN_FULL = 0 the input is back-pressured instead,
//     except for a frame longer than DEPTH beats, which can never fit and is discarded
//     the same way (so a FIFO full of one unfinished frame cannot hang).
//   A frame that ran out of room counts as dropped-full even if its last beat is bad.
//   The bytes of a discarded frame never reach the output.
//
// Interfaces:
//   clk, rst                  clock, synchronous active-high reset
//   s_axis_t{data,keep,valid,ready,last,user}   input stream
//   m_axis_t{data,keep,valid,ready,last,user}   output stream (tdata/tkeep/tlast/tuser
//                             straight from the RAM's output register)
//   status_overflow           strobe: a beat found no room, its frame is being dropped
//   status_drop_bad           strobe: one frame dropped for tuser on its last beat
//   status_drop_full          strobe: one frame dropped for lack of room (or oversize)
//   status_good_frame         strobe: one frame (plain mode: one tlast beat) stored
//   (strobes are registered: they come one cycle after the beat that causes them)
// Throughput: one beat per cycle in and out, back to back, with any backpressure.
// Latency: 3 cycles from a beat (plain mode) or a frame's tlast beat (frame mode) at the
//   input to the first beat it releases at the output.
// Capacity: DEPTH beats in RAM plus one in the output register. The full and empty flags
//   are flip-flops loaded a cycle ahead (a FIFO may look full or empty a cycle longer
//   than it is), so neither ready path has a pointer compare in it; being flags, they
//   also tell a full RAM from an empty one, so the pointers are RAM addresses alone (no
//   wrap bit).
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, DEPTH (beats, a
//   power of two from 16 to 16384; tested 16 to 128, synthesized 512 and 2048, 16384 in
//   the virtual board's loopback), FRAME_FIFO, DROP_BAD_FRAME, DROP_WHEN_FULL (0 or 1; the DROP_*
//   options act in frame mode only).
module axis_fifo #(
    parameter DATA_W         = 8,
    parameter KEEP_W         = (DATA_W + 7) / 8,
    parameter DEPTH          = 2048,
    parameter FRAME_FIFO     = 0,
    parameter DROP_BAD_FRAME = 0,
    parameter DROP_WHEN_FULL = 0
) (
    input wire clk,
    input wire rst,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output wire status_overflow,
    output wire status_drop_bad,
    output wire status_drop_full,
    output wire status_good_frame
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            axis_fifo_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            axis_fifo_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (DEPTH < 16 || DEPTH > 16384 || (DEPTH & (DEPTH - 1)) != 0) begin : g_check_depth
            axis_fifo_DEPTH_must_be_a_power_of_two_16_to_16384 u_error ();  // unsupported parameter
        end
        if (FRAME_FIFO != 0 && FRAME_FIFO != 1) begin : g_check_frame_fifo
            axis_fifo_FRAME_FIFO_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (DROP_BAD_FRAME != 0 && DROP_BAD_FRAME != 1) begin : g_check_drop_bad_frame
            axis_fifo_DROP_BAD_FRAME_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (DROP_WHEN_FULL != 0 && DROP_WHEN_FULL != 1) begin : g_check_drop_when_full
            axis_fifo_DROP_WHEN_FULL_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam AW = $clog2(DEPTH);
    localparam W = DATA_W + KEEP_W + 2;  // {tuser, tlast, tkeep, tdata}
    localparam FRAME = (FRAME_FIFO != 0);
    localparam DROP_BAD = FRAME && (DROP_BAD_FRAME != 0);
    localparam DROP_FULL = FRAME && (DROP_WHEN_FULL != 0);

    (* no_rw_check *) reg [W-1:0] data_mem[0:DEPTH-1];

    // Pointers are RAM addresses (no wrap bit): equal addresses mean 0 or DEPTH beats
    // apart, and the flags below say which.
    reg  [AW-1:0] wr_ptr_reg;  // committed: everything below is visible to the reader
    reg  [AW-1:0] wr_ptr_cur_reg;  // next address to write (frame mode: ahead of wr_ptr_reg)
    reg  [AW-1:0] rd_ptr_reg;
    // rd_ptr_inc_dup_reg, rd_ptr_m1_dup_reg: rd_ptr_reg + 1 and rd_ptr_reg - 1, stepping
    // with it, so that the flag compares wr_ptr_cur_reg + 1 == rd_ptr_reg (full) and
    // rd_ptr_reg + 1 == wr_ptr_reg (empty) have no incrementer before them (Fmax). The unit
    // test checks both every cycle.
    reg  [AW-1:0] rd_ptr_inc_dup_reg;
    reg  [AW-1:0] rd_ptr_m1_dup_reg;
    reg           full_reg;  // wr_ptr_cur_reg is DEPTH beats ahead of rd_ptr_reg
    reg           full_wr_reg;  // frame mode: the open frame alone fills the FIFO
    reg           empty_reg;  // nothing committed at rd_ptr_reg
    reg           commit_prev_reg;  // a commit last cycle (wr_ptr_reg moved on)
    reg           rd_prev_reg;  // a read last cycle (rd_ptr_reg moved on)
    reg           drop_frame_reg;  // discarding the rest of the current input frame
    reg           out_valid_reg;
    reg  [W-1:0]  out_data_reg;  // the RAM's output register is the output register
    reg           status_overflow_reg;
    reg           status_drop_bad_reg;
    reg           status_drop_full_reg;
    reg           status_good_frame_reg;

    // full_reg and empty_reg are loaded one cycle ahead, each against the other side's
    // pointer of this cycle: that pointer only moves on, so at worst the FIFO looks full
    // (or empty) one cycle longer than it is, and no pointer compare sits in a ready path.
    // With C = wr_ptr - rd_ptr (committed beats, 0..DEPTH) and W = wr_ptr_cur - rd_ptr
    // (0..DEPTH), both of this cycle:
    //   empty(next) = (C == rd), full(next) = (W(next) == DEPTH) against this rd_ptr.
    // C == 0 exactly when empty && !commit_prev: empty was loaded from C - rd of last
    // cycle, before last cycle's commit (if any) reached wr_ptr.
    wire          committed_zero = empty_reg && !commit_prev_reg;

    assign s_axis_tready = drop_frame_reg || !full_reg || DROP_FULL || (FRAME && full_wr_reg);

    wire take = s_axis_tvalid && s_axis_tready;
    wire store = take && !drop_frame_reg && !full_reg;
    wire over = take && !drop_frame_reg && full_reg;  // frame mode only
    wire commit = store && (!FRAME || (s_axis_tlast && !(DROP_BAD && s_axis_tuser)));
    wire discard_bad = store && FRAME && s_axis_tlast && DROP_BAD && s_axis_tuser;
    wire to_inc = store && !discard_bad;  // wr_ptr_cur_reg moves on by one (commits too)
    wire to_rev = over || discard_bad;  // wr_ptr_cur_reg falls back to wr_ptr_reg
    wire rd = !empty_reg && (!out_valid_reg || m_axis_tready);

    always @(posedge clk) begin
        if (store) data_mem[wr_ptr_cur_reg] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        if (rd) out_data_reg <= data_mem[rd_ptr_reg];
    end

    always @(posedge clk) begin
        status_overflow_reg   <= over;
        status_drop_bad_reg   <= discard_bad;
        status_drop_full_reg  <= (over && s_axis_tlast) || (take && drop_frame_reg && s_axis_tlast);
        status_good_frame_reg <= commit && s_axis_tlast;
        if (rst) begin
            wr_ptr_reg      <= {AW{1'b0}};
            wr_ptr_cur_reg  <= {AW{1'b0}};
            full_reg        <= 1'b0;
            full_wr_reg     <= 1'b0;
            commit_prev_reg <= 1'b0;
            drop_frame_reg  <= 1'b0;
            status_overflow_reg   <= 1'b0;
            status_drop_bad_reg   <= 1'b0;
            status_drop_full_reg  <= 1'b0;
            status_good_frame_reg <= 1'b0;
        end else begin
            commit_prev_reg <= commit;
            if (take && drop_frame_reg && s_axis_tlast) drop_frame_reg <= 1'b0;
            if (over) drop_frame_reg <= !s_axis_tlast;
            // a commit is a store that also moves wr_ptr_cur_reg on (never to_rev), so
            // wr_ptr_reg's new value is wr_ptr_cur_reg's new value
            if (commit) wr_ptr_reg <= wr_ptr_cur_reg + 1'b1;
            if (to_rev) wr_ptr_cur_reg <= wr_ptr_reg;
            else if (to_inc) wr_ptr_cur_reg <= wr_ptr_cur_reg + 1'b1;
            // to_rev: W(next) = C, and equal addresses mean C = 0 or DEPTH.
            // to_inc: a store needs !full, so W < DEPTH and W + 1 is 1..DEPTH: equal
            // addresses mean DEPTH. Otherwise W(next) = W, which is DEPTH - 1 or DEPTH
            // while full_reg is set (rd_ptr moves at most one a cycle) and below DEPTH
            // while it is clear; it stays DEPTH (wr_ptr_cur == rd_ptr) while rd_ptr has
            // not moved since the cycle before: each of the three loads of full_reg sets
            // it only with wr_ptr_cur's new value equal to this cycle's rd_ptr, and the
            // third keeps wr_ptr_cur, so while full_reg is set wr_ptr_cur equals last
            // cycle's rd_ptr, and equals this cycle's exactly when no read moved it
            // (rd_prev_reg low; DEPTH >= 2)
            if (to_rev) full_reg <= (wr_ptr_reg == rd_ptr_reg) && !committed_zero;
            else if (to_inc) full_reg <= (wr_ptr_cur_reg == rd_ptr_m1_dup_reg);  // +1 == rd_ptr
            else full_reg <= full_reg && !rd_prev_reg;
            // (the open frame, wr_ptr_cur - wr_ptr, is at most W < DEPTH on a store)
            if (to_rev || commit) full_wr_reg <= 1'b0;
            else if (to_inc) full_wr_reg <= FRAME && (wr_ptr_cur_reg + 1'b1 == wr_ptr_reg);
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            rd_ptr_reg         <= {AW{1'b0}};
            rd_ptr_inc_dup_reg <= {{(AW-1){1'b0}}, 1'b1};
            rd_ptr_m1_dup_reg  <= {AW{1'b1}};
            empty_reg          <= 1'b1;
            out_valid_reg      <= 1'b0;
            rd_prev_reg        <= 1'b0;
        end else begin
            rd_prev_reg <= rd;
            if (rd) begin
                rd_ptr_reg <= rd_ptr_reg + 1'b1;
                rd_ptr_inc_dup_reg <= rd_ptr_inc_dup_reg + 1'b1;
                rd_ptr_m1_dup_reg <= rd_ptr_reg;
            end
            // a read: C is 1..DEPTH, so equal addresses mean C = 1 (empty after the read)
            empty_reg <= rd ? (rd_ptr_inc_dup_reg == wr_ptr_reg) : committed_zero;  // rd_ptr + 1
            if (rd) out_valid_reg <= 1'b1;
            else if (m_axis_tready) out_valid_reg <= 1'b0;
        end
    end

    assign m_axis_tvalid = out_valid_reg;
    assign m_axis_tdata  = out_data_reg[DATA_W-1:0];
    assign m_axis_tkeep  = out_data_reg[DATA_W+KEEP_W-1:DATA_W];
    assign m_axis_tlast  = out_data_reg[W-2];
    assign m_axis_tuser  = DROP_BAD ? 1'b0 : out_data_reg[W-1];
    assign status_overflow   = status_overflow_reg;
    assign status_drop_bad   = status_drop_bad_reg;
    assign status_drop_full  = status_drop_full_reg;
    assign status_good_frame = status_good_frame_reg;

endmodule
`default_nettype wire
