`default_nettype none
// eth_mac_xgmii_rx: Ethernet MAC receiver, 64-bit XGMII side (10 Gbit/s at 156.25 MHz).
//
// Finds frames on XGMII (IEEE 802.3 clause 46): /S/ on lane 0 or lane 4, followed by
// preamble data bytes and the SFD (0xD5) in the seventh byte after /S/ (the preamble
// bytes' values are not checked; a start whose SFD byte is wrong, or with a control
// character among them, is ignored and not counted). A frame started on lane 4 is
// re-aligned by half a word, so the user stream always has the destination MAC on lane 0.
// The frame ends at the first control character: /T/ ends it normally; any other (/E/,
// /I/, /S/, an ordered set) ends it as errored. The FCS is checked against the CRC-32
// residue and stripped; the frame goes out on a 64-bit AXI4-Stream without backpressure.
//
// Bad frames carry m_axis_tuser = 1 on their last beat, and each bad frame is counted
// once, in the first matching class: ended by a control character other than /T/
// (stat_rx_er), longer than cfg_max_len bytes FCS included (stat_rx_oversize: the user
// frame is cut with tlast+tuser in the word that passes the limit, at most cfg_max_len
// bytes out, the rest dropped), shorter than 64 bytes FCS included (stat_rx_runt), bad
// FCS (stat_rx_bad_fcs). A frame of 4 bytes or fewer puts nothing on the stream, only a
// count. Good frames give stat_rx_frame and stat_rx_bytes[15:0] (bytes, FCS included).
//
// Link faults (clause 46.3.4): a column (lanes 0-3 or 4-7) with the sequence control
// character 0x9C on its first lane and data 0x00 0x00 0x01 (Local Fault) or 0x00 0x00 0x02
// (Remote Fault) on the others is a fault sequence ordered set. Four of the same type,
// fewer than 128 columns apart, declare that fault (rx_local_fault or rx_remote_fault
// high, stat_rx_local_fault / stat_rx_remote_fault once as it is declared); 128 columns
// without one clear it. A sequence of the other type restarts the count (the declared
// fault stays until the new one is declared or the line is clear).
//
// Reset: if rst rises while a user frame is open (beats out, no tlast yet), one beat
// with tlast = tuser = 1 ends it, so a consumer that is not reset never merges frames.
//
// Ports: clk, rst (sync, active high); xgmii_rxd[63:0], xgmii_rxc[7:0] (registered at
// the input); m_axis_t{data[63:0],keep[7:0],valid,last,user} (no tready: a MAC cannot
// stall the wire; tkeep all ones but on the last beat); cfg_max_len[15:0] (largest good
// frame, FCS included: 1518, or up to 9018 for jumbo; 0 means 1518); rx_local_fault,
// rx_remote_fault (levels); stat_* one-cycle strobes (from registers; ignore them while
// rst is high).
// Parameters: none.
// Latency: the word with a frame's first byte on xgmii_rxd to that beat on m_axis: 3
// cycles for /S/ on lane 0, 4 for lane 4 (re-aligned); the word with /T/ to the tlast
// beat: 3 cycles (measured by the unit test; docs/xgmii.md).
module eth_mac_xgmii_rx (
    input  wire        clk,
    input  wire        rst,

    input  wire [63:0] xgmii_rxd,
    input  wire [7:0]  xgmii_rxc,

    output wire [63:0] m_axis_tdata,
    output wire [7:0]  m_axis_tkeep,
    output wire        m_axis_tvalid,
    output wire        m_axis_tlast,
    output wire        m_axis_tuser,

    input  wire [15:0] cfg_max_len,

    output wire        rx_local_fault,
    output wire        rx_remote_fault,

    output wire        stat_rx_frame,
    output wire [15:0] stat_rx_bytes,
    output wire        stat_rx_bad_fcs,
    output wire        stat_rx_runt,
    output wire        stat_rx_oversize,
    output wire        stat_rx_er,
    output wire        stat_rx_local_fault,
    output wire        stat_rx_remote_fault
);
    localparam [7:0]  CH_START = 8'hFB, CH_TERM = 8'hFD, CH_SEQ = 8'h9C, SFD = 8'hD5;
    localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;  // CRC state after a good frame and its FCS
    localparam [15:0] MIN_FRAME = 16'd64;          // shortest good frame, FCS included
    localparam [15:0] DEFAULT_MAX_LEN = 16'd1518;  // cfg_max_len = 0
    localparam [1:0]  FAULT_NONE = 2'd0, FAULT_LOCAL = 2'd1, FAULT_REMOTE = 2'd2;

    // input registers
    reg  [63:0] rxd_reg;
    reg  [7:0]  rxc_reg;
    reg  [31:0] hi_d_reg;         // upper half of the word before rxd_reg
    reg  [3:0]  hi_c_reg;
    reg         lane4_reg;        // the frame in rxd_reg started on lane 4: re-align

    reg         in_frame_reg;     // /S/ seen, taking words
    reg  [15:0] cnt_reg;          // bytes of this frame so far (FCS included)
    reg  [31:0] crc_reg;
    reg  [63:0] dly_reg;          // the last whole word of frame bytes (held back: it
    reg         dly_valid_reg;    // may end with FCS bytes)
    reg         out_open_reg;     // beats of a frame went out, its tlast not yet
    reg         end_reg;          // a frame ended last cycle: its last beat goes out now
                                  // (cnt_reg and crc_reg still describe it)
    reg         end_er_reg;       // ... ended by a control character other than /T/
    reg  [63:0] last_d_reg;       // ... its last beat
    reg  [7:0]  last_keep_reg;
    reg         last_valid_reg;
    reg         oversize_reg;
    reg  [63:0] m_axis_tdata_reg;
    reg  [7:0]  m_axis_tkeep_reg;
    reg         m_axis_tvalid_reg, m_axis_tlast_reg, m_axis_tuser_reg;

    // link fault state (clause 46.3.4.2)
    reg  [1:0]  fault_reg;        // declared fault
    reg  [1:0]  seq_type_reg;     // type of the last fault sequence seen
    reg  [2:0]  seq_cnt_reg;      // sequences of that type, each < 128 columns apart
    reg  [7:0]  col_cnt_reg;      // columns since the last sequence (saturates at 128)
    reg         stat_lf_reg, stat_rf_reg;

    assign m_axis_tdata = m_axis_tdata_reg;
    assign m_axis_tkeep = m_axis_tkeep_reg;
    assign m_axis_tvalid = m_axis_tvalid_reg;
    assign m_axis_tlast = m_axis_tlast_reg;
    assign m_axis_tuser = m_axis_tuser_reg;
    assign rx_local_fault = (fault_reg == FAULT_LOCAL);
    assign rx_remote_fault = (fault_reg == FAULT_REMOTE);
    assign stat_rx_local_fault = stat_lf_reg;
    assign stat_rx_remote_fault = stat_rf_reg;

    // ---- the word in lane-0 frame order ----
    wire [63:0] ad = lane4_reg ? {rxd_reg[31:0], hi_d_reg} : rxd_reg;
    wire [7:0]  ac = lane4_reg ? {rxc_reg[3:0], hi_c_reg} : rxc_reg;

    // the first control character's lane (8: none); the frame's bytes before it
    reg  [3:0]  ctl_lane;
    integer     i;
    always @* begin
        ctl_lane = 4'd8;
        for (i = 7; i >= 0; i = i - 1)
            if (ac[i]) ctl_lane = i[3:0];
    end
    wire        word_end = !ctl_lane[3];
    wire        term = word_end && (ad[8 * ctl_lane[2:0] +: 8] == CH_TERM);
    wire [7:0]  word_keep = ~(8'hFF << ctl_lane);
    wire        start = !in_frame_reg && ac == 8'h01 && ad[7:0] == CH_START && ad[63:56] == SFD;

    wire [31:0] crc_next;
    crc32 #(.DATA_W(64)) u_crc (.crc_in(crc_reg), .data(ad), .keep(word_keep), .crc_out(crc_next));

    wire [15:0] max_len = (cfg_max_len == 16'd0) ? DEFAULT_MAX_LEN : cfg_max_len;
    wire [15:0] cnt_next = cnt_reg + {12'd0, ctl_lane};
    wire        over = in_frame_reg && (cnt_next > max_len) && (term || !word_end);
    wire        frame_end = in_frame_reg && word_end && !over;  // normal or errored end
    wire        long_enough = (cnt_reg >= MIN_FRAME);
    wire        crc_ok = (crc_reg == CRC_RESIDUE);

    // Status strobes, decoded from registers: the end of a frame is classified in the
    // cycle its last beat is registered (cnt_reg, crc_reg still hold its values then).
    assign stat_rx_er = end_reg && end_er_reg;
    assign stat_rx_runt = end_reg && !end_er_reg && !long_enough;
    assign stat_rx_bad_fcs = end_reg && !end_er_reg && long_enough && !crc_ok;
    assign stat_rx_frame = end_reg && !end_er_reg && long_enough && crc_ok;
    assign stat_rx_oversize = oversize_reg;
    assign stat_rx_bytes = cnt_reg;

    // ---- link fault sequences, on the words as received (two columns per word) ----
    function [1:0] col_seq(input [31:0] d, input [3:0] c);  // FAULT_* of one column
        begin
            col_seq = FAULT_NONE;
            if (c == 4'b0001 && d[7:0] == CH_SEQ && d[23:8] == 16'd0) begin
                if (d[31:24] == 8'h01) col_seq = FAULT_LOCAL;
                else if (d[31:24] == 8'h02) col_seq = FAULT_REMOTE;
            end
        end
    endfunction

    reg [1:0] fault_next, seq_type_next, col_type;
    reg [2:0] seq_cnt_next;
    reg [7:0] col_cnt_next;
    integer   col;
    always @* begin
        fault_next = fault_reg;
        seq_type_next = seq_type_reg;
        seq_cnt_next = seq_cnt_reg;
        col_cnt_next = col_cnt_reg;
        for (col = 0; col < 2; col = col + 1) begin
            col_type = col_seq(rxd_reg[32 * col +: 32], rxc_reg[4 * col +: 4]);
            if (col_type != FAULT_NONE) begin
                if (seq_cnt_next != 3'd0 && col_type == seq_type_next) begin
                    if (seq_cnt_next != 3'd4) seq_cnt_next = seq_cnt_next + 3'd1;
                end else begin
                    seq_cnt_next = 3'd1;
                end
                seq_type_next = col_type;
                col_cnt_next = 8'd0;
                if (seq_cnt_next == 3'd4) fault_next = col_type;
            end else if (col_cnt_next != 8'd128) begin
                col_cnt_next = col_cnt_next + 8'd1;
                if (col_cnt_next == 8'd128) begin
                    seq_cnt_next = 3'd0;
                    fault_next = FAULT_NONE;
                end
            end
        end
    end

    always @(posedge clk) begin
        m_axis_tvalid_reg <= 1'b0;
        m_axis_tlast_reg <= 1'b0;
        m_axis_tuser_reg <= 1'b0;
        end_reg <= 1'b0;
        oversize_reg <= 1'b0;

        rxd_reg <= xgmii_rxd;
        rxc_reg <= xgmii_rxc;
        hi_d_reg <= rxd_reg[63:32];
        hi_c_reg <= rxc_reg[7:4];
        // /S/ on lane 0 of the incoming word: no re-alignment from it on; /S/ on lane 4
        // of rxd_reg: re-align from the next word
        if (xgmii_rxc[0] && xgmii_rxd[7:0] == CH_START) lane4_reg <= 1'b0;
        else if (rxc_reg[4] && rxd_reg[39:32] == CH_START) lane4_reg <= 1'b1;

        fault_reg <= fault_next;
        seq_type_reg <= seq_type_next;
        seq_cnt_reg <= seq_cnt_next;
        col_cnt_reg <= col_cnt_next;
        stat_lf_reg <= fault_next == FAULT_LOCAL && fault_reg != FAULT_LOCAL;
        stat_rf_reg <= fault_next == FAULT_REMOTE && fault_reg != FAULT_REMOTE;

        if (start) begin
            in_frame_reg <= 1'b1;
            cnt_reg <= 16'd0;
            crc_reg <= 32'hFFFFFFFF;
            dly_valid_reg <= 1'b0;
        end

        if (in_frame_reg) begin
            crc_reg <= crc_next;
            cnt_reg <= cnt_next;
        end

        if (over) begin
            // the word passes the limit: the user frame ends here, flagged; the rest of
            // the frame is ignored (no /S/ among data bytes)
            in_frame_reg <= 1'b0;
            oversize_reg <= 1'b1;
            m_axis_tdata_reg <= dly_reg;
            m_axis_tkeep_reg <= 8'hFF;
            m_axis_tvalid_reg <= dly_valid_reg;
            m_axis_tlast_reg <= 1'b1;
            m_axis_tuser_reg <= 1'b1;
            out_open_reg <= 1'b0;
        end else if (frame_end) begin
            // the last 4 bytes are the FCS: the last beat is the held word's first
            // 4 + ctl_lane bytes, or (ctl_lane > 4) the whole held word now and this
            // word's first ctl_lane - 4 bytes next
            in_frame_reg <= 1'b0;
            end_reg <= 1'b1;
            end_er_reg <= !term;
            if (ctl_lane > 4'd4) begin
                m_axis_tdata_reg <= dly_reg;
                m_axis_tkeep_reg <= 8'hFF;
                m_axis_tvalid_reg <= dly_valid_reg;
                last_d_reg <= ad;
                last_keep_reg <= ~(8'hFF << (ctl_lane - 4'd4));
                last_valid_reg <= 1'b1;
                if (dly_valid_reg) out_open_reg <= 1'b1;
            end else begin
                last_d_reg <= dly_reg;
                last_keep_reg <= ~(8'hFF << (ctl_lane + 4'd4));
                last_valid_reg <= dly_valid_reg;
            end
        end else if (in_frame_reg) begin
            dly_reg <= ad;
            dly_valid_reg <= 1'b1;
            m_axis_tdata_reg <= dly_reg;
            m_axis_tkeep_reg <= 8'hFF;
            m_axis_tvalid_reg <= dly_valid_reg;
            if (dly_valid_reg) out_open_reg <= 1'b1;
        end

        if (end_reg) begin
            m_axis_tdata_reg <= last_d_reg;
            m_axis_tkeep_reg <= last_keep_reg;
            m_axis_tvalid_reg <= last_valid_reg;
            m_axis_tlast_reg <= 1'b1;
            m_axis_tuser_reg <= end_er_reg || !long_enough || !crc_ok;
            out_open_reg <= 1'b0;
        end

        if (rst) begin
            in_frame_reg <= 1'b0;
            lane4_reg <= 1'b0;
            end_reg <= 1'b0;
            oversize_reg <= 1'b0;
            fault_reg <= FAULT_NONE;
            seq_cnt_reg <= 3'd0;
            col_cnt_reg <= 8'd0;
            stat_lf_reg <= 1'b0;
            stat_rf_reg <= 1'b0;
            rxc_reg <= 8'hFF;  // idle
            // a user frame cut by reset still ends: one last beat flagged bad
            m_axis_tvalid_reg <= out_open_reg;
            m_axis_tkeep_reg <= 8'h01;
            m_axis_tlast_reg <= 1'b1;
            m_axis_tuser_reg <= 1'b1;
            out_open_reg <= 1'b0;
        end
    end
endmodule
`default_nettype wire
