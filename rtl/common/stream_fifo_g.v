`default_nettype none
// stream_fifo_g: synchronous first-word-fall-through FIFO for AXI4-Stream beats, with an
// optional input gate (stream_fifo is this FIFO without the gate).
//
// Stores {tdata, tkeep, tlast, tuser} per beat in a memory read in a clocked block
// (so Yosys infers RAM and Icarus sees writes), followed by two register stages.
//
// Interfaces: s_axis_* (write side), m_axis_* (read side), both AXI4-Stream.
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, DEPTH (entries
//   in the memory, a power of two from 2 to 2048; tested 2 to 16 here, 64 in ip_rx, up
//   to 2048 in udp_rx's store-and-forward mode; two more beats sit in the read and
//   output registers), GATED (0 or 1, below), IN_REG (0 or 1, below; 1 needs DEPTH >= 4).
// Gate (GATED = 1): the producer's own readiness, given as its next value (s_gate_nx:
//   the value the producer's ready flag takes at the next clock edge), is ANDed with
//   the FIFO's: s_axis_tready = !full && gate, kept in one flip-flop made from the next
//   values of both, so the producer's beat handshake is one gate (tvalid AND a flip-flop).
//   GATED = 0: s_axis_tready = !full, s_gate_nx is ignored.
// Input register (IN_REG = 1): a beat taken is held one cycle in a register (in_v, in_d)
//   and written to the memory from there, so the memory's write enable and address, the
//   write pointer and the empty flag are loaded from flip-flops of this FIFO only: the
//   producer's handshake (s_axis_tvalid, from another block) reaches only in_v's D input,
//   the accepted-beat pointer (a_ptr, for the full flag) and full / the gate flip-flop.
//   s_axis_tready is unchanged for DEPTH >= 4 (full counts the beat in the input register:
//   at most DEPTH beats in memory and input register together; at DEPTH 2 a beat is read
//   from the memory a cycle later, so the memory may be full a cycle longer); a beat is
//   presented a cycle later.
// Latency: a beat written in cycle t is presented on m_axis in cycle t+3 (IN_REG: t+4).
// Throughput: one beat per cycle in and out. s_axis_tready is a flip-flop output; the
//   read side's enable is one gate from flip-flops (the empty flag and rd_ptr + 1 are
//   registers) and m_axis_tready.
module stream_fifo_g #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8,
    parameter integer DEPTH  = 16,
    parameter integer GATED  = 0,
    parameter integer IN_REG = 0
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              s_gate_nx,
    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,
    output reg  [DATA_W-1:0] m_axis_tdata,
    output reg  [KEEP_W-1:0] m_axis_tkeep,
    output reg               m_axis_tvalid,
    input  wire              m_axis_tready,
    output reg               m_axis_tlast,
    output reg               m_axis_tuser
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            stream_fifo_g_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            stream_fifo_g_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (DEPTH < 2 || DEPTH > 2048 || (DEPTH & (DEPTH - 1)) != 0) begin : g_check_depth
            stream_fifo_g_DEPTH_must_be_a_power_of_two_2_to_2048 u_error ();  // unsupported parameter
        end
        if (GATED != 0 && GATED != 1) begin : g_check_gated
            stream_fifo_g_GATED_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (IN_REG != 0 && IN_REG != 1) begin : g_check_in_reg
            stream_fifo_g_IN_REG_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (IN_REG == 1 && DEPTH < 4) begin : g_check_in_reg_depth
            stream_fifo_g_IN_REG_must_have_DEPTH_4_or_more u_error ();  // unsupported parameter
        end
    endgenerate
    localparam integer AW = (DEPTH <= 2) ? 1 : $clog2(DEPTH);
    localparam integer W = DATA_W + KEEP_W + 2;

    // no read/write collision check: a read needs !empty and a write !full, so the two
    // never address the same entry in one cycle (saves the bypass logic synthesis adds)
    (* no_rw_check *)
    reg  [W-1:0] mem [0:(1<<AW)-1];
    // the pointers are memory addresses alone (no wrap bit): full and empty are registers,
    // so the pointers never have to tell a full memory from an empty one
    reg  [AW-1:0] wr_ptr;  // the memory's write address
    // IN_REG: the beat in the input register, written to the memory at wr_ptr in this
    // cycle (0 without IN_REG)
    reg          in_v;
    reg  [W-1:0] in_d;
    // the next address a taken beat goes to: wr_ptr + in_v (IN_REG), else wr_ptr itself;
    // full and almost count taken beats (IN_REG: including the one in the input register)
    reg  [AW-1:0] a_reg;
    wire [AW-1:0] a_ptr = (IN_REG != 0) ? a_reg : wr_ptr;
    reg  [AW-1:0] rd_ptr;
    reg  [AW-1:0] rd_p1;  // rd_ptr + 1, a register (the next read address, ready in advance)
    // empty (wr_ptr == rd_ptr) kept as a register made from the next pointers: the read
    // enable is then one gate from flip-flops, with no pointer compare in front of it
    reg          empty;
    reg          full;  // registered (s_axis_tready comes straight from a flip-flop)
    reg          rdy;  // GATED: !full && gate, a flip-flop made from their next values
    wire         wr = s_axis_tvalid && ((GATED != 0) ? rdy : !full);
    // a beat enters the memory in this cycle (IN_REG: the input register's)
    wire         mw = (IN_REG != 0) ? in_v : wr;
    wire [W-1:0] mw_d = (IN_REG != 0) ? in_d :
                        {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
    // two read stages: the memory's own read register (a), then an output register in
    // logic (b), so the memory's slow clock-to-output never feeds the consumer's logic
    reg  [W-1:0] rd_word;
    reg          a_valid;
    wire         a_to_b = a_valid && (!m_axis_tvalid || m_axis_tready);
    wire         rd = !empty && (!a_valid || a_to_b);
    // the increments are computed from the registers alone; wr/rd only enable the load
    // (GATED: a_ptr + 1 is a register too, as rd_p1: `almost` is then a compare of
    // flip-flops, one gate fewer in front of the gate flip-flop)
    reg  [AW-1:0] wr_p1r;
    wire [AW-1:0] wr_p1 = (GATED != 0) ? wr_p1r : a_ptr + 1'b1;
    // after a read without a write, the FIFO is empty when the next read pointer meets the
    // write pointer (after a read at most 2^AW - 1 entries remain, so the addresses meet
    // only then)
    wire         rd_last = (rd_p1 == wr_ptr);
    // (read while not full) a write without a read fills the FIFO when the next write
    // address (of taken beats) meets the read address: with at most 2^AW - 1 entries
    // held, only when 2^AW - 1 are
    wire         almost = (wr_p1 == rd_ptr);
    assign s_axis_tready = (GATED != 0) ? rdy : !full;
    wire         full_nx = full ? !rd : (wr && !rd && almost);

    always @(posedge clk) begin
        // (IN_REG: the input register loads in every cycle; in_v says whether it holds a
        // beat)
        in_d <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        if (mw) mem[wr_ptr] <= mw_d;
        if (rd) rd_word <= mem[rd_ptr];
        if (a_to_b) begin
            m_axis_tdata <= rd_word[DATA_W-1:0];
            m_axis_tkeep <= rd_word[DATA_W+KEEP_W-1:DATA_W];
            m_axis_tlast <= rd_word[DATA_W+KEEP_W];
            m_axis_tuser <= rd_word[DATA_W+KEEP_W+1];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            wr_ptr <= 0;
            a_reg <= 0;
            in_v <= 1'b0;
            wr_p1r <= 1;
            rd_ptr <= 0;
            rd_p1 <= 1;
            empty <= 1'b1;
            full <= 1'b0;
            rdy <= 1'b0;
            a_valid <= 1'b0;
            m_axis_tvalid <= 1'b0;
        end else begin
            if (wr) begin
                a_reg <= wr_p1;
                wr_p1r <= wr_p1 + 1'b1;
            end
            in_v <= (IN_REG != 0) && wr;
            // (IN_REG: a_ptr = wr_ptr + 1 while the input register holds a beat)
            if (mw) wr_ptr <= (IN_REG != 0) ? a_ptr : wr_p1;
            if (rd) begin
                rd_ptr <= rd_p1;
                rd_p1  <= rd_p1 + 1'b1;
            end
            // a write makes it non-empty (a read and a write together leave it non-empty:
            // a read needs a non-empty FIFO); a read alone empties it on its last entry
            // (IN_REG: the memory's write, from the input register)
            if (mw) empty <= 1'b0;
            else if (rd) empty <= rd_last;
            full <= full_nx;
            // (an if, not an AND: a gate that is X in simulation leaves the FIFO closed,
            // as the producer's own flag stays cleared by an if on the same term)
            if (s_gate_nx && !full_nx) rdy <= 1'b1;
            else rdy <= 1'b0;
            if (rd) a_valid <= 1'b1;
            else if (a_to_b) a_valid <= 1'b0;
            if (a_to_b) m_axis_tvalid <= 1'b1;
            else if (m_axis_tready) m_axis_tvalid <= 1'b0;
        end
    end
endmodule
`default_nettype wire
