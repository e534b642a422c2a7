`default_nettype none
// udp_tx: the UDP/IPv4 transmitter of an application port with all three checksum modes:
// udp_tx_csum (mode 1, store and forward; modes 0 and 2 straight through) followed by the
// zero-wait udp_ip_tx. Ports are those of udp_ip_tx (see its header); cnt_ev adds
// udp_tx_csum's strobes.
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8; BUF_BYTES: 2048 (udp_tx_csum's
//   mode-1 buffer), or 0 for no buffer at all: every datagram then passes straight
//   through, mode 1 is sent with UDP checksum 0 (legal in IPv4, RFC 768) and the sf
//   strobes stay 0.
// cnt_ev[5:0]: event strobes, one cycle each, for counters kept in stat_counters (read
//   them while rst is low): bits 0-3 udp_ip_tx's (tx_frames, tx_abort, tx_long,
//   arp_miss), bits 4-5 udp_tx_csum's (sf_frames, sf_overflow).
// s_hdr_csum_mode: 0 = checksum 0, 1 = computed here, 2 = s_hdr_csum as given.
// Latency: modes 0 and 2: first frame byte 1 cycle after the header handshake; mode 1:
// 3 cycles after the payload's last beat was taken (see udp_tx_csum), and back to back
// at line rate (the next datagram is stored while the current one leaves).
module udp_tx #(
    parameter DATA_W    = 8,
    parameter KEEP_W    = DATA_W / 8,
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
    input  wire [47:0]       s_hdr_dst_mac,
    input  wire              s_hdr_dst_mac_valid,
    input  wire [31:0]       s_hdr_dst_ip,
    input  wire [15:0]       s_hdr_dst_port,
    input  wire [15:0]       s_hdr_src_port,
    input  wire [15:0]       s_hdr_len,
    input  wire [15:0]       s_hdr_csum,
    input  wire [1:0]        s_hdr_csum_mode,

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

    output wire              arp_req_valid,
    input  wire              arp_req_ready,
    output wire [31:0]       arp_req_ip,
    input  wire              arp_resp_valid,
    input  wire              arp_resp_hit,
    input  wire [47:0]       arp_resp_mac,

    output wire [5:0]        cnt_ev
);

    generate
        if (BUF_BYTES != 0 && BUF_BYTES != 2048) begin : g_check_buf_bytes
            udp_tx_BUF_BYTES_must_be_0_or_2048 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    // udp_tx_csum's output, udp_ip_tx's input
    wire              ip_hdr_valid, ip_hdr_ready, ip_hdr_dst_mac_valid;
    wire [47:0]       ip_hdr_dst_mac;
    wire [31:0]       ip_hdr_dst_ip;
    wire [15:0]       ip_hdr_dst_port, ip_hdr_src_port, ip_hdr_len, ip_hdr_csum;
    wire [1:0]        ip_hdr_csum_mode;
    wire [DATA_W-1:0] ip_axis_tdata;
    wire [KEEP_W-1:0] ip_axis_tkeep;
    wire              ip_axis_tvalid, ip_axis_tready, ip_axis_tlast, ip_axis_tuser;

    wire [1:0] sf_ev;  // udp_tx_csum's event strobes
    wire [3:0] tx_ev;  // udp_ip_tx's
    generate
        if (BUF_BYTES == 0) begin : g_nobuf
            // no store-and-forward buffer: every datagram passes straight through; mode 1
            // ("computed") is sent with UDP checksum 0 (legal in IPv4: RFC 768, no checksum)
            assign ip_hdr_valid         = s_hdr_valid;
            assign s_hdr_ready          = ip_hdr_ready;
            assign ip_hdr_dst_mac       = s_hdr_dst_mac;
            assign ip_hdr_dst_mac_valid = s_hdr_dst_mac_valid;
            assign ip_hdr_dst_ip        = s_hdr_dst_ip;
            assign ip_hdr_dst_port      = s_hdr_dst_port;
            assign ip_hdr_src_port      = s_hdr_src_port;
            assign ip_hdr_len           = s_hdr_len;
            assign ip_hdr_csum          = s_hdr_csum;
            assign ip_hdr_csum_mode     = (s_hdr_csum_mode == 2'd1) ? 2'd0 : s_hdr_csum_mode;
            assign ip_axis_tdata        = s_axis_tdata;
            assign ip_axis_tkeep        = s_axis_tkeep;
            assign ip_axis_tvalid       = s_axis_tvalid;
            assign s_axis_tready        = ip_axis_tready;
            assign ip_axis_tlast        = s_axis_tlast;
            assign ip_axis_tuser        = s_axis_tuser;
            assign sf_ev                = 2'b00;
        end else begin : g_sf
            udp_tx_csum #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .BUF_BYTES(BUF_BYTES)) sf (
                .clk(clk), .rst(rst), .cfg_ip(cfg_ip),
                .s_hdr_valid(s_hdr_valid), .s_hdr_ready(s_hdr_ready),
                .s_hdr_dst_mac(s_hdr_dst_mac), .s_hdr_dst_mac_valid(s_hdr_dst_mac_valid),
                .s_hdr_dst_ip(s_hdr_dst_ip), .s_hdr_dst_port(s_hdr_dst_port),
                .s_hdr_src_port(s_hdr_src_port), .s_hdr_len(s_hdr_len),
                .s_hdr_csum(s_hdr_csum), .s_hdr_csum_mode(s_hdr_csum_mode),
                .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
                .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
                .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
                .m_hdr_valid(ip_hdr_valid), .m_hdr_ready(ip_hdr_ready),
                .m_hdr_dst_mac(ip_hdr_dst_mac), .m_hdr_dst_mac_valid(ip_hdr_dst_mac_valid),
                .m_hdr_dst_ip(ip_hdr_dst_ip), .m_hdr_dst_port(ip_hdr_dst_port),
                .m_hdr_src_port(ip_hdr_src_port), .m_hdr_len(ip_hdr_len),
                .m_hdr_csum(ip_hdr_csum), .m_hdr_csum_mode(ip_hdr_csum_mode),
                .m_axis_tdata(ip_axis_tdata), .m_axis_tkeep(ip_axis_tkeep),
                .m_axis_tvalid(ip_axis_tvalid), .m_axis_tready(ip_axis_tready),
                .m_axis_tlast(ip_axis_tlast), .m_axis_tuser(ip_axis_tuser),
                .cnt_ev(sf_ev)
            );
        end
    endgenerate

    udp_ip_tx #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) tx (
        .clk(clk), .rst(rst),
        .cfg_mac(cfg_mac), .cfg_ip(cfg_ip), .cfg_ttl(cfg_ttl), .cfg_df(cfg_df),
        .s_hdr_valid(ip_hdr_valid), .s_hdr_ready(ip_hdr_ready),
        .s_hdr_dst_mac(ip_hdr_dst_mac), .s_hdr_dst_mac_valid(ip_hdr_dst_mac_valid),
        .s_hdr_dst_ip(ip_hdr_dst_ip), .s_hdr_dst_port(ip_hdr_dst_port),
        .s_hdr_src_port(ip_hdr_src_port), .s_hdr_len(ip_hdr_len), .s_hdr_csum(ip_hdr_csum),
        .s_hdr_csum_mode(ip_hdr_csum_mode),
        .s_axis_tdata(ip_axis_tdata), .s_axis_tkeep(ip_axis_tkeep),
        .s_axis_tvalid(ip_axis_tvalid), .s_axis_tready(ip_axis_tready),
        .s_axis_tlast(ip_axis_tlast), .s_axis_tuser(ip_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .arp_req_valid(arp_req_valid), .arp_req_ready(arp_req_ready), .arp_req_ip(arp_req_ip),
        .arp_resp_valid(arp_resp_valid), .arp_resp_hit(arp_resp_hit), .arp_resp_mac(arp_resp_mac),
        .cnt_ev(tx_ev)
    );
    assign cnt_ev = {sf_ev, tx_ev};
endmodule
`default_nettype wire
