`default_nettype none
// stream_fifo: synchronous first-word-fall-through FIFO for AXI4-Stream beats: stream_fifo_g
// without its input gate (rtl/common/stream_fifo_g.v has the description).
//
// Interfaces: s_axis_* (write side), m_axis_* (read side), both AXI4-Stream.
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, DEPTH (entries
//   in the memory, a power of two from 2 to 2048; tested 2 to 32; two more beats sit in
//   the read and output registers).
// Latency: a beat written in cycle t is presented on m_axis in cycle t+3.
// Throughput: one beat per cycle in and out. s_axis_tready is a flip-flop output; the
//   read side's enable is one gate from flip-flops (the empty flag and rd_ptr + 1 are
//   registers) and m_axis_tready.
module stream_fifo #(
    parameter integer DATA_W = 8,
    parameter integer KEEP_W = DATA_W / 8,
    parameter integer DEPTH  = 16
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
    endgenerate
    stream_fifo_g #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(DEPTH), .GATED(0)) u_fifo (
        .clk(clk), .rst(rst), .s_gate_nx(1'b1),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
    );
endmodule
`default_nettype wire
