`default_nettype none
// udp_echo_tx: a UDP echo responder from a receive application port to Ethernet frames:
// udp_echo followed by the transmitter udp_tx (checksum mode CSUM_MODE: 0 = none,
// 1 = computed by store and forward). With mode 0 the reply is cut through: its first
// byte leaves 1 cycle after the request's header, long before the request has ended.
//
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, CSUM_MODE (0 or 1, both
//   tested), BUF_BYTES (udp_tx's mode-1 buffer: 2048, or 0 = none: mode 1 then sends
//   checksum 0).
// Interfaces: cfg_mac, cfg_ip, cfg_ttl, cfg_df (as udp_ip_tx); s_hdr_* and s_axis_*: the
//   receive application port (hdr_src_mac, hdr_src_ip, hdr_src_port, hdr_dst_port,
//   hdr_len); m_axis_*: reply frames.
// cnt_ev[2:0]: event strobes, one cycle each, for counters kept in stat_counters (read
//   them while rst is low): bit 0 echoed (udp_echo), bit 1 tx_frames, bit 2 tx_abort
//   (udp_tx's bits 0 and 1).
// Latency: CSUM_MODE 0: first frame byte 1 cycle after the request header is taken.
module udp_echo_tx #(
    parameter DATA_W    = 8,
    parameter KEEP_W    = DATA_W / 8,
    parameter CSUM_MODE = 0,
    parameter BUF_BYTES = 2048
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [47:0]       cfg_mac,
    input  wire [31:0]       cfg_ip,
    input  wire [7:0]        cfg_ttl,
    input  wire              cfg_df,

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

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output wire [2:0]        cnt_ev
);
    generate
        if (CSUM_MODE != 0 && CSUM_MODE != 1) begin : g_check_csum_mode
            udp_echo_tx_CSUM_MODE_must_be_0_or_1 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    // the echo's transmit request, to udp_tx
    wire              tx_hdr_valid, tx_hdr_ready, tx_hdr_dst_mac_valid;
    wire [47:0]       tx_hdr_dst_mac;
    wire [31:0]       tx_hdr_dst_ip;
    wire [15:0]       tx_hdr_dst_port, tx_hdr_src_port, tx_hdr_len, tx_hdr_csum;
    wire [DATA_W-1:0] tx_axis_tdata;
    wire [KEEP_W-1:0] tx_axis_tkeep;
    wire              tx_axis_tvalid, tx_axis_tready, tx_axis_tlast, tx_axis_tuser;

    udp_echo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) echo (
        .clk(clk), .rst(rst),
        .s_hdr_valid(s_hdr_valid), .s_hdr_ready(s_hdr_ready), .s_hdr_src_mac(s_hdr_src_mac),
        .s_hdr_src_ip(s_hdr_src_ip), .s_hdr_src_port(s_hdr_src_port),
        .s_hdr_dst_port(s_hdr_dst_port), .s_hdr_len(s_hdr_len),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_hdr_valid(tx_hdr_valid), .m_hdr_ready(tx_hdr_ready),
        .m_hdr_dst_mac(tx_hdr_dst_mac), .m_hdr_dst_mac_valid(tx_hdr_dst_mac_valid),
        .m_hdr_dst_ip(tx_hdr_dst_ip), .m_hdr_dst_port(tx_hdr_dst_port),
        .m_hdr_src_port(tx_hdr_src_port), .m_hdr_len(tx_hdr_len), .m_hdr_csum(tx_hdr_csum),
        .m_axis_tdata(tx_axis_tdata), .m_axis_tkeep(tx_axis_tkeep),
        .m_axis_tvalid(tx_axis_tvalid), .m_axis_tready(tx_axis_tready),
        .m_axis_tlast(tx_axis_tlast), .m_axis_tuser(tx_axis_tuser),
        .cnt_ev(cnt_ev[0])
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire        arp_req_valid;  // never asked: the reply's MAC is the request's
    wire [31:0] arp_req_ip;
    wire [5:0]  tx_ev;
    /* verilator lint_on UNUSEDSIGNAL */
    localparam [1:0] MODE = CSUM_MODE[1:0];

    udp_tx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .BUF_BYTES(BUF_BYTES)) tx (
        .clk(clk), .rst(rst),
        .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_ttl(cfg_ttl), .cfg_df(cfg_df),
        .s_hdr_valid(tx_hdr_valid), .s_hdr_ready(tx_hdr_ready),
        .s_hdr_dst_mac(tx_hdr_dst_mac), .s_hdr_dst_mac_valid(tx_hdr_dst_mac_valid),
        .s_hdr_dst_ip(tx_hdr_dst_ip), .s_hdr_dst_port(tx_hdr_dst_port),
        .s_hdr_src_port(tx_hdr_src_port), .s_hdr_len(tx_hdr_len), .s_hdr_csum(tx_hdr_csum),
        .s_hdr_csum_mode(MODE),
        .s_axis_tdata(tx_axis_tdata), .s_axis_tkeep(tx_axis_tkeep),
        .s_axis_tvalid(tx_axis_tvalid), .s_axis_tready(tx_axis_tready),
        .s_axis_tlast(tx_axis_tlast), .s_axis_tuser(tx_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .arp_req_valid(arp_req_valid), .arp_req_ready(1'b0), .arp_req_ip(arp_req_ip),
        .arp_resp_valid(1'b0), .arp_resp_hit(1'b0), .arp_resp_mac(48'd0),
        .cnt_ev(tx_ev)
    );
    assign cnt_ev[2:1] = tx_ev[1:0];
endmodule
`default_nettype wire
