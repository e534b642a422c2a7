`default_nettype none
// udp_echo: UDP echo application. Sits on one UDP application port (docs/conventions.md):
// each received datagram goes straight back to its sender: the receive header becomes the
// transmit header (destination = the request's source MAC, IP and port, so no ARP lookup,
// or with ARP_LOOKUP = 1 the source IP and port, the MAC resolved through the stack's ARP
// cache like any other transmission; source port = the port it was sent to; same length;
// m_hdr_csum = 0, so the reply has no checksum on a port in mode 0 or 2 and a computed one
// in mode 1), and the payload passes through a register slice. Nothing is stored: the
// reply starts while the request is still arriving (cut-through); a request whose last
// beat carries tuser gives a reply ending with tuser (aborted on the wire).
//
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, ARP_LOOKUP (0: reply to
//   the request's source MAC; 1: m_hdr_dst_mac_valid = 0, the transmitter looks the
//   destination up; both tested).
// Interfaces (s_ = from the stack's receive port, m_ = to its transmit port):
//   s_hdr_valid, s_hdr_ready, s_hdr_src_mac[47:0], s_hdr_src_ip[31:0],
//   s_hdr_src_port[15:0], s_hdr_dst_port[15:0], s_hdr_len[15:0]; s_axis_*
//   m_hdr_valid, m_hdr_ready, m_hdr_dst_mac[47:0], m_hdr_dst_mac_valid, m_hdr_dst_ip[31:0],
//   m_hdr_dst_port[15:0], m_hdr_src_port[15:0], m_hdr_len[15:0], m_hdr_csum[15:0]; m_axis_*
//   cnt_ev[0:0]: event strobe for a counter kept in stat_counters (read it while rst is
//     low): bit 0 echoed, a datagram turned around (its header handshake)
// Latency: header 0 cycles (combinational); payload 1 cycle (a register slice, full
//   throughput: it keeps the stack's transmit ready out of its receive path, which
//   matters for Fmax).
module udp_echo #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8,
    parameter integer ARP_LOOKUP = 0
) (
    input  wire              clk,
    input  wire              rst,

    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_src_mac,
    input  wire [31:0]       s_hdr_src_ip,
    input  wire [15:0]       s_hdr_src_port,
    input  wire [15:0]       s_hdr_dst_port,
    input  wire [15:0]       s_hdr_len,
    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output wire              m_hdr_valid,
    input  wire              m_hdr_ready,
    output wire [47:0]       m_hdr_dst_mac,
    output wire              m_hdr_dst_mac_valid,
    output wire [31:0]       m_hdr_dst_ip,
    output wire [15:0]       m_hdr_dst_port,
    output wire [15:0]       m_hdr_src_port,
    output wire [15:0]       m_hdr_len,
    output wire [15:0]       m_hdr_csum,
    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output wire [0:0]        cnt_ev
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            udp_echo_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            udp_echo_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (ARP_LOOKUP != 0 && ARP_LOOKUP != 1) begin : g_check_arp_lookup
            udp_echo_ARP_LOOKUP_must_be_0_or_1 u_error ();
        end
    endgenerate

    assign m_hdr_valid         = s_hdr_valid;
    assign s_hdr_ready         = m_hdr_ready;
    assign m_hdr_dst_mac       = s_hdr_src_mac;
    assign m_hdr_dst_mac_valid = (ARP_LOOKUP == 0);
    assign m_hdr_dst_ip        = s_hdr_src_ip;
    assign m_hdr_dst_port      = s_hdr_src_port;
    assign m_hdr_src_port      = s_hdr_dst_port;
    assign m_hdr_len           = s_hdr_len;
    assign m_hdr_csum          = 16'd0;

    // a register slice: the stack's transmit ready does not reach back into its receive
    // path combinationally (the echo would otherwise join them in one path)
    axis_pipe #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_pipe (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
    );

    assign cnt_ev = s_hdr_valid && m_hdr_ready;
endmodule
`default_nettype wire
