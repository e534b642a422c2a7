`default_nettype none
// axis_pipe: AXI4-Stream register slice (skid buffer): registers every output, including
// s_axis_tready, to cut timing paths between two blocks, at full throughput.
//
// Interfaces:
//   clk, rst                                     clock, synchronous reset
//   s_axis_t{data,keep,valid,ready,last,user}    input stream
//   m_axis_t{data,keep,valid,ready,last,user}    output stream (all from flip-flops)
// Throughput: one beat per cycle, back to back, under any backpressure pattern.
// Latency: 1 cycle. Storage: two beats (output register and skid register).
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8.
module axis_pipe #(
    parameter DATA_W = 8,
    parameter KEEP_W = (DATA_W + 7) / 8
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
    output wire              m_axis_tuser
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            axis_pipe_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            axis_pipe_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam W = DATA_W + KEEP_W + 2;

    reg  [W-1:0] out_q;  // output register
    reg          out_valid;
    reg  [W-1:0] skid_q;  // beat taken while the output was stalled
    reg          skid_valid;

    wire [W-1:0] in_q = {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};

    // Ready while the skid register is free: registered, not combinational from m_axis.
    assign s_axis_tready = !skid_valid;

    // the skid register loads in every cycle it is free (its data matters only once
    // skid_valid is set, in a cycle it loaded): its enable is a flip-flop, not s_axis_tvalid
    always @(posedge clk) begin
        if (!out_valid || m_axis_tready) out_q <= skid_valid ? skid_q : in_q;
        if (!skid_valid) skid_q <= in_q;
    end

    // out_valid written as its next value (a beat is held, or one arrives from the skid
    // register or the input), not under an enable: one LUT from its inputs, with no
    // clock-enable net to route from the consumer's tready. skid_valid: cleared when the
    // output is free or taken, else set by a beat arriving: a synchronous reset (one gate
    // of the consumer's tready) over a next value, no clock enable behind that gate; and
    // with a constant-0 s_axis_tvalid it stays a constant 0 that synthesis removes
    always @(posedge clk) begin
        if (rst) begin
            out_valid  <= 1'b0;
            skid_valid <= 1'b0;
        end else begin
            out_valid <= (out_valid && !m_axis_tready) || skid_valid || s_axis_tvalid;
            if (!out_valid || m_axis_tready) skid_valid <= 1'b0;
            else skid_valid <= skid_valid || s_axis_tvalid;
        end
    end

    assign m_axis_tvalid = out_valid;
    assign m_axis_tdata  = out_q[DATA_W-1:0];
    assign m_axis_tkeep  = out_q[DATA_W+KEEP_W-1:DATA_W];
    assign m_axis_tlast  = out_q[W-2];
    assign m_axis_tuser  = out_q[W-1];

endmodule
`default_nettype wire
