`default_nettype none
// raw_tx: raw-EtherType channel, transmit side. The application gives a destination MAC
// (header bus) and a payload; out comes the whole Ethernet frame (no FCS): destination
// MAC, source cfg_mac, EtherType cfg_raw_ethertype, payload. Zero-wait like udp_ip_tx: the
// first frame byte leaves the cycle after the header handshake, the payload passes
// through (realigned when 14 bytes is not a whole number of beats).
//
// Parameters: DATA_W (8 or 64), KEEP_W = DATA_W/8.
// Interfaces:
//   cfg_mac[47:0], cfg_raw_ethertype[15:0] (both taken at each header handshake)
//   s_hdr_valid, s_hdr_ready, s_hdr_dst_mac[47:0]
//   s_axis_*  payload up to its tlast (tuser on the last beat aborts the frame);
//             a zero-length payload (one beat, tkeep 0) gives a header-only frame
//   m_axis_*  frames for the arbiter / MAC (the MAC pads to 60 bytes)
//   cnt_ev[1:0] event strobes, one cycle each, for counters kept in stat_counters (read
//             them while rst is low): bit 0 frames sent good, bit 1 frames aborted
// Latency: 1 cycle from the header handshake to the first byte; payload combinational.
// Back to back, one idle cycle between frames (the next header is taken the cycle after
// a frame's last beat; the MAC's inter-frame gap hides it).
module raw_tx #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [47:0]       cfg_mac,
    input  wire [15:0]       cfg_raw_ethertype,

    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_dst_mac,

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

    output wire [1:0]        cnt_ev
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            raw_tx_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            raw_tx_KEEP_W_must_be_DATA_W_div_8 u_error ();  // unsupported parameter
        end
    endgenerate

    reg [47:0] dst_mac_reg, src_mac_reg;
    reg [15:0] ethertype_reg;
    wire       can, free;
    assign s_hdr_ready = can && free;
    wire hdr_fire = s_hdr_valid && s_hdr_ready;

    // loaded whenever no header is being sent (enable from registers only): the
    // handshake's cycle takes the request's values, frozen while its header goes out
    always @(posedge clk) begin
        if (free) begin
            dst_mac_reg <= s_hdr_dst_mac;
            src_mac_reg <= cfg_mac;
            ethertype_reg <= cfg_raw_ethertype;
        end
    end

    // the 14-byte header, byte 0 (the first on the wire) lowest
    wire [14*8-1:0] hdr = {
        ethertype_reg[7:0], ethertype_reg[15:8],
        src_mac_reg[7:0], src_mac_reg[15:8], src_mac_reg[23:16], src_mac_reg[31:24],
        src_mac_reg[39:32], src_mac_reg[47:40],
        dst_mac_reg[7:0], dst_mac_reg[15:8], dst_mac_reg[23:16], dst_mac_reg[31:24],
        dst_mac_reg[39:32], dst_mac_reg[47:40]
    };

    wire ev_sent, ev_abort;
    assign cnt_ev = {ev_abort, ev_sent};
    /* verilator lint_off UNUSEDSIGNAL */
    wire ev_long;  // no length check on this channel (CHECK_LEN = 0)
    /* verilator lint_on UNUSEDSIGNAL */
    tx_prepend #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .HDR_BYTES(14), .CHECK_LEN(0)
    ) eng (
        .clk(clk), .rst(rst),
        .start(hdr_fire), .start_drop(1'b0), .start_len(16'd0), .can_start(can),
        /* verilator lint_off PINCONNECTEMPTY */
        .hdr_free(free), .hdr_free_nx(),  // (its next value is not used here)
        /* verilator lint_on PINCONNECTEMPTY */
        .hdr(hdr),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .ev_sent(ev_sent), .ev_abort(ev_abort), .ev_long(ev_long)
    );

endmodule
`default_nettype wire
