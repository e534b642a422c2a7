`default_nettype none
// stream_fifo: synchronous first-word-fall-through FIFO for AXI4-Stream beats.
//
// Stores {tuser, tlast, tkeep, tdata} per beat in a memory read in a clocked block (so
// Yosys infers RAM and Icarus sees writes), followed by two register stages: the memory's
// own read register, then an output register in logic, so the memory's clock-to-output
// never feeds the consumer's logic.
//
// Interfaces: s_axis_* (write side), m_axis_* (read side), both AXI4-Stream.
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, DEPTH (entries
//   in the memory, a power of two from 2 to 2048; tested 2 to 32 here, 64 in ip_rx, up
//   to 2048 in udp_rx's store-and-forward mode; two more beats sit in the read and
//   output registers), IN_REG (0 or 1, both tested; 1 needs DEPTH >= 4).
// Input register (IN_REG = 1): a beat taken is held one cycle in a register and written
//   to the memory from there, so the memory's write enable and address, the write pointer
//   and the empty flag are loaded from this FIFO's flip-flops only (the producer's tvalid
//   reaches the input register and the full flag). s_axis_tready is the same as without
//   it for DEPTH >= 4 (full counts the beat in the input register: at most DEPTH beats in
//   memory and input register together); a beat is presented a cycle later.
// Latency: a beat written in cycle t is presented on m_axis in cycle t+3 (IN_REG: t+4).
// Throughput: one beat per cycle in and out. s_axis_tready is a flip-flop output (!full).
module stream_fifo #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8,
    parameter integer DEPTH  = 16,
    parameter integer IN_REG = 0
) (
    input  wire              clk,
    input  wire              rst,
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
    output wire              m_axis_tuser
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            stream_fifo_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            stream_fifo_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (DEPTH < 2 || DEPTH > 2048 || (DEPTH & (DEPTH - 1)) != 0) begin : g_check_depth
            stream_fifo_DEPTH_must_be_a_power_of_two_2_to_2048 u_error ();  // unsupported parameter
        end
        if (IN_REG != 0 && IN_REG != 1) begin : g_check_in_reg
            stream_fifo_IN_REG_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (IN_REG == 1 && DEPTH < 4) begin : g_check_in_reg_depth
            stream_fifo_IN_REG_must_have_DEPTH_4_or_more u_error ();  // unsupported parameter
        end
    endgenerate
    localparam integer AW = (DEPTH <= 2) ? 1 : $clog2(DEPTH);
    localparam integer W = DATA_W + KEEP_W + 2;
    localparam [AW-1:0] PTR_ONE = 1;

    // no read/write collision check: a read needs !empty and a write !full, so the two
    // never address the same entry in one cycle
    (* no_rw_check *)
    reg  [W-1:0]  data_mem [0:(1<<AW)-1];
    // the pointers are memory addresses alone (no wrap bit): the full and empty flags are
    // registers of their own, so the pointers never have to tell full from empty
    reg  [AW-1:0] wr_ptr_reg;  // the memory's write address
    reg  [AW-1:0] rd_ptr_reg;  // the memory's read address
    reg           empty_reg;   // the memory holds no beat
    reg           full_reg;    // no room for another taken beat (s_axis_tready = !full_reg)
    // IN_REG: the beat in the input register, written to the memory in this cycle
    reg           in_valid_reg;
    reg  [W-1:0]  in_data_reg;
    // read stages: the memory's read register, then the output register
    reg  [W-1:0]  rd_data_reg;
    reg           rd_valid_reg;
    reg  [W-1:0]  out_data_reg;
    reg           out_valid_reg;

    wire [W-1:0]  s_word = {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
    wire          wr = s_axis_tvalid && !full_reg;  // a beat is taken
    // a beat enters the memory (IN_REG: the input register's)
    wire          mem_wr = (IN_REG != 0) ? in_valid_reg : wr;
    wire [W-1:0]  mem_wr_data = (IN_REG != 0) ? in_data_reg : s_word;
    // the address the next taken beat goes to (IN_REG: after the input register's beat)
    wire [AW-1:0] take_ptr = (IN_REG != 0 && in_valid_reg) ? wr_ptr_reg + PTR_ONE : wr_ptr_reg;
    wire          rd_to_out = rd_valid_reg && (!out_valid_reg || m_axis_tready);
    wire          rd = !empty_reg && (!rd_valid_reg || rd_to_out);

    always @(posedge clk) begin
        in_data_reg <= s_word;
        if (mem_wr) data_mem[wr_ptr_reg] <= mem_wr_data;
        if (rd) rd_data_reg <= data_mem[rd_ptr_reg];
        if (rd_to_out) out_data_reg <= rd_data_reg;
    end

    always @(posedge clk) begin
        if (rst) begin
            wr_ptr_reg    <= {AW{1'b0}};
            rd_ptr_reg    <= {AW{1'b0}};
            empty_reg     <= 1'b1;
            full_reg      <= 1'b0;
            in_valid_reg  <= 1'b0;
            rd_valid_reg  <= 1'b0;
            out_valid_reg <= 1'b0;
        end else begin
            in_valid_reg <= (IN_REG != 0) && wr;
            if (mem_wr) wr_ptr_reg <= wr_ptr_reg + 1'b1;
            if (rd) rd_ptr_reg <= rd_ptr_reg + 1'b1;
            // a write makes the memory non-empty; a read alone empties it when it takes
            // the last entry (the next read address meets the write address)
            if (mem_wr) empty_reg <= 1'b0;
            else if (rd) empty_reg <= (rd_ptr_reg + 1'b1 == wr_ptr_reg);
            // a read makes room; a beat taken without a read fills the FIFO when the
            // address after it meets the read address
            if (rd) full_reg <= 1'b0;
            else if (wr) full_reg <= (take_ptr + 1'b1 == rd_ptr_reg);
            if (rd) rd_valid_reg <= 1'b1;
            else if (rd_to_out) rd_valid_reg <= 1'b0;
            if (rd_to_out) out_valid_reg <= 1'b1;
            else if (m_axis_tready) out_valid_reg <= 1'b0;
        end
    end

    assign s_axis_tready = !full_reg;
    assign m_axis_tdata  = out_data_reg[DATA_W-1:0];
    assign m_axis_tkeep  = out_data_reg[DATA_W+KEEP_W-1:DATA_W];
    assign m_axis_tlast  = out_data_reg[DATA_W+KEEP_W];
    assign m_axis_tuser  = out_data_reg[DATA_W+KEEP_W+1];
    assign m_axis_tvalid = out_valid_reg;
endmodule
`default_nettype wire
