`default_nettype none
// eth_mac_rx: Ethernet MAC receiver, 8-bit GMII side, with a clock enable.
//
// Finds the SFD (0xD5) after any number of preamble bytes 0x55, none included; a frame
// whose first bytes are anything else is ignored up to the end of gmii_rx_dv. The frame
// (destination MAC onwards) goes out on an AXI4-Stream without backpressure and with
// the FCS stripped. The FCS is checked against the CRC-32 residue, the comparison
// registered one cycle behind the CRC register so the path stays short.
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
// 0 means the default 1518; registered, then compared with the count as each byte is
// counted, so a change takes effect one cycle after it reaches the port: change it
// between frames);
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

    output wire [7:0]  m_axis_tdata,
    output wire        m_axis_tvalid,
    output wire        m_axis_tlast,
    output wire        m_axis_tuser,

    input  wire [15:0] cfg_max_len,

    output wire        stat_rx_frame,
    output wire [15:0] stat_rx_bytes,
    output wire        stat_rx_bad_fcs,
    output wire        stat_rx_runt,
    output wire        stat_rx_oversize,
    output wire        stat_rx_er
);
    localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;  // CRC state after a good frame and its FCS
    localparam [15:0] MIN_FRAME = 16'd64;          // shortest good frame, FCS included
    localparam [15:0] DEFAULT_MAX_LEN = 16'd1518;  // cfg_max_len = 0

    // input registers
    reg  [7:0]  rxd_reg;
    reg         rx_dv_reg, rx_er_reg;
    reg         sample_reg;       // rxd_reg, rx_dv_reg, rx_er_reg were sampled last cycle
                                  // (ce): process them now
    // sfd_dup_reg, preamble_dup_reg: rxd_reg == 0xD5 / 0x55, decoded as the byte is
    // sampled, so the frame start (an enable of some 60 flip-flops) comes from a flip-flop,
    // not a compare (Fmax). The unit test checks them every cycle.
    reg         sfd_dup_reg, preamble_dup_reg;

    reg         in_frame_reg;     // SFD seen, taking bytes
    reg         drop_reg;         // ignore bytes until rx_dv falls
    reg  [15:0] cnt_reg;          // bytes of this frame so far (FCS included)
    // Flags set with the count (each byte compares the count before it with the limit
    // less one), so the frame's control reads flip-flops instead of 16-bit compares (the
    // unit test checks them, and delay_valid_reg[3] == (cnt_reg >= 4), every cycle):
    reg         at_max_len_reg;   // cnt_reg >= max_len: one more byte is oversize
    reg         long_enough_reg;  // cnt_reg >= MIN_FRAME: not a runt
    reg  [15:0] max_len_m1_reg;   // max_len - 1, loaded every cycle (max_len: cfg_max_len,
                                  // or DEFAULT_MAX_LEN for 0)
    reg  [31:0] delay_reg;        // the last four bytes (the FCS if the frame ends now),
                                  // the newest in [7:0]
    reg  [3:0]  delay_valid_reg;  // [i]: byte i of delay_reg (bits 8i+7:8i) is of this frame
    reg  [7:0]  hold_reg;         // the byte before them: it goes out with the next one,
    reg         hold_valid_reg;   // or as the last beat when the frame ends
    reg         er_seen_reg;      // gmii_rx_er during this frame
    reg  [31:0] crc_reg;
    reg         crc_ok_reg;       // crc_reg was the residue last cycle
    reg         out_open_reg;     // beats of a frame went out, its tlast not yet
    reg         end_reg;          // frame ended last cycle: emit its last beat now (cnt_reg,
                                  // er_seen_reg and hold_valid_reg still describe it: only an
                                  // SFD clears them, at the end of this cycle at the earliest)
    reg  [7:0]  m_axis_tdata_reg;
    reg         m_axis_tvalid_reg, m_axis_tlast_reg, m_axis_tuser_reg;

    assign m_axis_tdata = m_axis_tdata_reg;
    assign m_axis_tvalid = m_axis_tvalid_reg;
    assign m_axis_tlast = m_axis_tlast_reg;
    assign m_axis_tuser = m_axis_tuser_reg;

    wire [31:0] crc_next;
    crc32 #(.DATA_W(8)) u_crc (
        .crc_in(crc_reg), .data(rxd_reg), .keep(1'b1), .crc_out(crc_next)
    );

    wire        byte_in = sample_reg && rx_dv_reg && in_frame_reg;
    wire [15:0] max_len_m1 = (cfg_max_len == 16'd0) ? DEFAULT_MAX_LEN - 16'd1
                                                    : cfg_max_len - 16'd1;
    wire        delay_full = delay_valid_reg[3];  // delay_reg holds bytes of this frame only

    // Status strobes, decoded from registers: the end of a frame is classified in the
    // cycle its last beat is registered, when cnt_reg still holds its length (a new
    // frame's SFD clears it at the end of that cycle at the earliest).
    wire over_now = byte_in && at_max_len_reg;
    assign stat_rx_oversize = over_now && !(er_seen_reg || rx_er_reg);
    assign stat_rx_er = (over_now && (er_seen_reg || rx_er_reg)) || (end_reg && er_seen_reg);
    assign stat_rx_runt = end_reg && !er_seen_reg && !long_enough_reg;
    assign stat_rx_bad_fcs = end_reg && !er_seen_reg && long_enough_reg && !crc_ok_reg;
    assign stat_rx_frame = end_reg && !er_seen_reg && long_enough_reg && crc_ok_reg;
    assign stat_rx_bytes = cnt_reg;

    always @(posedge clk) begin
        m_axis_tvalid_reg <= 1'b0;
        m_axis_tlast_reg <= 1'b0;
        m_axis_tuser_reg <= 1'b0;
        end_reg <= 1'b0;
        crc_ok_reg <= (crc_reg == CRC_RESIDUE);
        max_len_m1_reg <= max_len_m1;

        sample_reg <= ce;
        if (ce) begin
            rxd_reg <= gmii_rxd;
            sfd_dup_reg <= (gmii_rxd == 8'hD5);
            preamble_dup_reg <= (gmii_rxd == 8'h55);
            rx_dv_reg <= gmii_rx_dv;
            rx_er_reg <= gmii_rx_er;
        end

        if (sample_reg && !rx_dv_reg) begin
            drop_reg <= 1'b0;
            if (in_frame_reg) begin
                in_frame_reg <= 1'b0;
                end_reg <= 1'b1;
            end
        end else if (sample_reg && rx_dv_reg && !in_frame_reg && !drop_reg) begin
            if (sfd_dup_reg) begin
                in_frame_reg <= 1'b1;
                cnt_reg <= 16'd0;
                at_max_len_reg <= 1'b0;  // (max_len is at least 1)
                long_enough_reg <= 1'b0;
                delay_valid_reg <= 4'd0;
                crc_reg <= 32'hFFFFFFFF;
                er_seen_reg <= 1'b0;
                hold_valid_reg <= 1'b0;
            end else if (!preamble_dup_reg) begin
                drop_reg <= 1'b1;
            end
        end

        if (byte_in) begin
            delay_reg <= {delay_reg[23:0], rxd_reg};
            delay_valid_reg <= {delay_valid_reg[2:0], 1'b1};
            crc_reg <= crc_next;
            cnt_reg <= cnt_reg + 16'd1;
            // with this byte the count reaches max_len / MIN_FRAME
            at_max_len_reg <= (cnt_reg >= max_len_m1_reg);
            long_enough_reg <= (cnt_reg >= MIN_FRAME - 16'd1);
            er_seen_reg <= er_seen_reg || rx_er_reg;
            if (at_max_len_reg) begin
                // one byte more than allowed: cut the frame here, drop the rest
                in_frame_reg <= 1'b0;
                drop_reg <= 1'b1;
                hold_valid_reg <= 1'b0;
                m_axis_tdata_reg <= hold_reg;
                m_axis_tvalid_reg <= hold_valid_reg;
                m_axis_tlast_reg <= 1'b1;
                m_axis_tuser_reg <= 1'b1;
                out_open_reg <= 1'b0;
            end else begin
                if (delay_full) begin
                    hold_reg <= delay_reg[31:24];
                    hold_valid_reg <= 1'b1;
                end
                m_axis_tdata_reg <= hold_reg;
                m_axis_tvalid_reg <= hold_valid_reg;
                if (hold_valid_reg) out_open_reg <= 1'b1;
            end
        end

        if (end_reg) begin
            m_axis_tdata_reg <= hold_reg;
            m_axis_tvalid_reg <= hold_valid_reg;
            m_axis_tlast_reg <= 1'b1;
            m_axis_tuser_reg <= er_seen_reg || !long_enough_reg || !crc_ok_reg;
            out_open_reg <= 1'b0;
        end

        if (rst) begin
            in_frame_reg <= 1'b0;
            drop_reg <= 1'b0;
            rx_dv_reg <= 1'b0;
            sample_reg <= 1'b0;
            rx_er_reg <= 1'b0;
            hold_valid_reg <= 1'b0;
            end_reg <= 1'b0;
            // a user frame cut by reset still ends: one last beat flagged bad
            m_axis_tvalid_reg <= out_open_reg;
            m_axis_tlast_reg <= 1'b1;
            m_axis_tuser_reg <= 1'b1;
            out_open_reg <= 1'b0;
        end
    end
endmodule
`default_nettype wire
