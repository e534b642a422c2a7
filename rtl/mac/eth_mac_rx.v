`default_nettype none
// eth_mac_rx: Ethernet MAC receiver, 8-bit GMII side, with a clock enable.
//
// Finds the SFD (0xD5) after any number of preamble bytes 0x55, none included; a frame
// whose first bytes are anything else is ignored up to the end of gmii_rx_dv. The frame
// (destination MAC onwards) goes out on an AXI4-Stream without backpressure and with
// the FCS stripped. The FCS is checked against the CRC-32 residue, the comparison
// pipelined one cycle behind the CRC register so the path stays short.
//
// Bad frames carry m_axis_tuser = 1 on their last beat, and each bad frame is counted
// once, in the first matching class: gmii_rx_er during the frame (stat_rx_er), longer
// than cfg_max_len bytes FCS included (stat_rx_oversize: the user frame is cut with
// tlast+tuser when the limit is passed, the rest dropped), shorter than 64 bytes FCS
// included (stat_rx_runt), bad FCS (stat_rx_bad_fcs). A frame of fewer than 5 bytes
// after the SFD puts nothing on the stream, only a count. Good frames give
// stat_rx_frame and stat_rx_bytes[15:0] (frame bytes, FCS included).
//
// Reset: if rst rises while a user frame is open (beats out, no tlast yet), one beat
// with tlast = tuser = 1 ends it, so a consumer that is not reset never merges frames.
// Clock enable: gmii_* are sampled only in cycles with ce = 1 (tie to 1 for GMII), and
// each sample is processed in the cycle after; each output beat is valid for one cycle.
//
// Ports: clk, rst (sync, active high), ce; gmii_rxd[7:0], gmii_rx_dv, gmii_rx_er;
// m_axis_t{data[7:0],valid,last,user} (no tready: a MAC cannot stall the wire);
// cfg_max_len[15:0] (largest good frame, FCS included: 1518, or up to 9018 for jumbo;
// 0 means the default 1518);
// stat_* one-cycle strobes (combinational from state; ignore them while rst is high).
// Latency (ce = 1): byte i of the frame leaves on m_axis 7 cycles after it is on
// gmii_rxd (it waits for byte i+5: the FCS is only known to be FCS at the end); the
// last beat leaves 4 cycles after the last FCS byte is on gmii_rxd.
module eth_mac_rx (
    input  wire        clk,
    input  wire        rst,
    input  wire        ce,

    input  wire [7:0]  gmii_rxd,
    input  wire        gmii_rx_dv,
    input  wire        gmii_rx_er,

    output reg  [7:0]  m_axis_tdata,
    output reg         m_axis_tvalid,
    output reg         m_axis_tlast,
    output reg         m_axis_tuser,

    input  wire [15:0] cfg_max_len,

    output wire        stat_rx_frame,
    output wire [15:0] stat_rx_bytes,
    output wire        stat_rx_bad_fcs,
    output wire        stat_rx_runt,
    output wire        stat_rx_oversize,
    output wire        stat_rx_er
);
    localparam [31:0] RESIDUE = 32'hDEBB20E3;

    // input registers
    reg  [7:0]  d0;
    reg         dv0, er0;
    reg         v0;           // d0/dv0/er0 were sampled last cycle (ce): process them
    reg         sfd0, pre0;   // d0 is 0xD5 / 0x55 (decoded at the input, off the path)

    reg         in_frame;     // SFD seen, taking bytes
    reg         drop;         // ignore bytes until rx_dv falls
    reg  [15:0] cnt;          // bytes of this frame so far (FCS included)
    reg  [7:0]  sr0, sr1, sr2, sr3;
    reg  [7:0]  hold;
    reg         hold_v;
    reg         er_f;
    reg         got4;         // sr0..sr3 are all bytes of this frame
    reg         ge64;         // cnt >= 64 (not a runt)
    reg         at_max;       // cnt == cfg_max_len: one more byte is oversize
    reg  [31:0] crc;
    reg         crc_ok;
    wire [31:0] crc_next;

    reg         out_open;     // beats of a frame went out, its tlast not yet
    reg         end_p;        // frame ended last cycle: emit its last beat now (er_f,
                              // ge64, hold_v still describe it: only an SFD clears them,
                              // at the end of this cycle at the earliest)

    crc32 #(.DATA_W(8)) u_crc (.crc_in(crc), .data(d0), .keep(1'b1), .crc_out(crc_next));

    wire byte_in = v0 && dv0 && in_frame;
    // This byte brings cnt to the limit (cfg_max_len, 0 meaning 1518), arming at_max:
    // one more byte is oversize. cnt + 1 == limit is tested without an adder: the carry
    // each bit of the sum needs (cnt ^ limit) must be the carry the bit below makes
    // (cnt & ~limit; the +1 into bit 0), bit by bit, in parallel.
    reg         max_dflt;     // cfg_max_len == 0: the limit is 1518 (registered: static)
    wire [15:0] limit = cfg_max_len | (16'd1518 & {16{max_dflt}});
    wire [15:0] carry_need = cnt ^ limit;
    wire [15:0] carry_make = {cnt[14:0] & ~limit[14:0], 1'b1};
    wire at_limit = (carry_need == carry_make);
    wire over = at_max;

    // Status strobes, decoded from state (no registers of their own): the end of a frame
    // is classified in the cycle its last beat is registered, when cnt still holds its
    // length (a new frame's SFD clears cnt at the end of that cycle at the earliest).
    wire over_now = byte_in && over;
    assign stat_rx_oversize = over_now && !(er_f | er0);
    assign stat_rx_er = (over_now && (er_f | er0)) || (end_p && er_f);
    assign stat_rx_runt = end_p && !er_f && !ge64;
    assign stat_rx_bad_fcs = end_p && !er_f && ge64 && !crc_ok;
    assign stat_rx_frame = end_p && !er_f && ge64 && crc_ok;
    assign stat_rx_bytes = cnt;

    always @(posedge clk) begin
        m_axis_tvalid <= 1'b0;
        m_axis_tlast <= 1'b0;
        m_axis_tuser <= 1'b0;
        end_p <= 1'b0;
        crc_ok <= (crc == RESIDUE);
        max_dflt <= (cfg_max_len == 16'd0);

        v0 <= ce;
        if (ce) begin
            d0 <= gmii_rxd;
            sfd0 <= (gmii_rxd == 8'hD5);
            pre0 <= (gmii_rxd == 8'h55);
            dv0 <= gmii_rx_dv;
            er0 <= gmii_rx_er;
        end

        if (v0 && !dv0) begin
            drop <= 1'b0;
            if (in_frame) begin
                in_frame <= 1'b0;
                end_p <= 1'b1;
            end
        end else if (v0 && dv0 && !in_frame && !drop) begin
            if (sfd0) begin
                in_frame <= 1'b1;
                cnt <= 16'd0;
                got4 <= 1'b0;
                ge64 <= 1'b0;
                at_max <= 1'b0;
                crc <= 32'hFFFFFFFF;
                er_f <= 1'b0;
                hold_v <= 1'b0;
            end else if (!pre0) begin
                drop <= 1'b1;
            end
        end

        if (byte_in) begin
            sr0 <= d0;
            sr1 <= sr0;
            sr2 <= sr1;
            sr3 <= sr2;
            crc <= crc_next;
            cnt <= cnt + 16'd1;
            // sticky flags set by equalities on cnt's low bits: cnt climbs by one from 0
            // after the SFD, so its first visit to 3 (63) is the first time its low 2 (6)
            // bits are all ones; later visits find the flag set already
            if (cnt[1:0] == 2'd3) got4 <= 1'b1;
            if (cnt[5:0] == 6'd63) ge64 <= 1'b1;
            if (at_limit) at_max <= 1'b1;
            er_f <= er_f | er0;
            if (over) begin
                // one byte more than allowed: cut the frame here, drop the rest
                in_frame <= 1'b0;
                drop <= 1'b1;
                hold_v <= 1'b0;
                m_axis_tdata <= hold;
                m_axis_tvalid <= hold_v;
                m_axis_tlast <= 1'b1;
                m_axis_tuser <= 1'b1;
                out_open <= 1'b0;
            end else begin
                if (got4) begin
                    hold <= sr3;
                    hold_v <= 1'b1;
                end
                m_axis_tdata <= hold;
                m_axis_tvalid <= hold_v;
                if (hold_v) out_open <= 1'b1;
            end
        end

        if (end_p) begin
            m_axis_tdata <= hold;
            m_axis_tvalid <= hold_v;
            m_axis_tlast <= 1'b1;
            m_axis_tuser <= er_f | !ge64 | !crc_ok;
            out_open <= 1'b0;
        end

        if (rst) begin
            in_frame <= 1'b0;
            drop <= 1'b0;
            dv0 <= 1'b0;
            v0 <= 1'b0;
            er0 <= 1'b0;
            hold_v <= 1'b0;
            end_p <= 1'b0;
            // a user frame cut by reset still ends: one last beat flagged bad
            m_axis_tvalid <= out_open;
            m_axis_tlast <= 1'b1;
            m_axis_tuser <= 1'b1;
            out_open <= 1'b0;
        end
    end
endmodule
`default_nettype wire
