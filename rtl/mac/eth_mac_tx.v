`default_nettype none
// eth_mac_tx: Ethernet MAC transmitter, 8-bit GMII side, with a clock enable.
//
// Takes whole frames on an AXI4-Stream (destination MAC first, no FCS) and puts them
// on GMII: 7 preamble bytes 0x55, SFD 0xD5, the frame, zero padding up to MIN_LEN
// bytes, the FCS (CRC-32, least significant byte first), then at least
// max(cfg_ifg, 12) idle bytes before the next preamble. With s_axis_tvalid kept high
// the frames go out back to back at exactly that gap.
//
// Errors: an underflow (s_axis_tvalid low before tlast, once the frame has started)
// puts one byte with gmii_tx_er = 1 on the wire and ends the frame there; the rest of
// the user frame is then taken and dropped up to its tlast. tuser = 1 on the last beat
// sends the frame with an inverted (bad) FCS and gmii_tx_er = 1 on the FCS bytes. A
// short frame with a good FCS never leaves.
//
// Clock enable: the whole core advances only in cycles with ce = 1 (one byte per
// enabled cycle); s_axis_tready is only high in such cycles. Tie ce to 1 for GMII;
// MII/RGMII-10/100 adapters pulse it once per byte time.
//
// Ports: clk, rst (sync, active high), ce; s_axis_t{data[7:0],valid,ready,last,user};
// gmii_txd[7:0], gmii_tx_en, gmii_tx_er (registered); cfg_ifg[7:0] (idle bytes between
// frames, values below 12 mean 12); status strobes (one cycle, decoded from state as
// the frame ends): stat_tx_frame with stat_tx_bytes[15:0] (frame bytes on the wire, padding and FCS
// included, preamble excluded), stat_tx_underflow, stat_tx_abort (tuser).
// Reset: a frame on the wire when rst rises is cut with one gmii_tx_er byte, and a full
// gap follows; hold rst for at least 2 cycles.
// Parameters: MIN_LEN (frame length before FCS after padding, 60; 0 disables padding).
// Latency: the first preamble byte is on gmii_txd in the enabled cycle after the first
// one with s_axis_tvalid = 1 (1 cycle at GMII); the first frame byte is taken when the
// SFD goes out and appears on gmii_txd one enabled cycle later.
module eth_mac_tx #(
    parameter MIN_LEN = 60
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        ce,

    input  wire [7:0]  s_axis_tdata,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    output reg  [7:0]  gmii_txd,
    output reg         gmii_tx_en,
    output reg         gmii_tx_er,

    input  wire [7:0]  cfg_ifg,

    output wire        stat_tx_frame,
    output wire [15:0] stat_tx_bytes,
    output wire        stat_tx_underflow,
    output wire        stat_tx_abort
);
    localparam [2:0] S_IDLE  = 3'd0;
    localparam [2:0] S_PRE   = 3'd1;
    localparam [2:0] S_DATA  = 3'd2;
    localparam [2:0] S_PAD   = 3'd3;
    localparam [2:0] S_FCS   = 3'd4;
    localparam [2:0] S_IFG   = 3'd5;
    localparam [2:0] S_DRAIN = 3'd6;

    reg  [2:0]  state;
    // one counter serves every phase: preamble bytes sent (S_PRE), FCS byte to send
    // next (S_FCS, low 2 bits), idle bytes still to send (S_IFG, S_DRAIN)
    reg  [7:0]  cnt;
    reg  [15:0] len;        // frame bytes emitted so far + 4 (the FCS to come)
    reg         min_done;   // len - 4 + 1 >= MIN_LEN: no more padding needed
    reg         bad;        // frame ends with a bad FCS (tuser)
    reg  [31:0] crc;
    wire [31:0] crc_next;
    wire [7:0]  crc_byte;
    wire [7:0]  ifg_len = (cfg_ifg < 8'd12) ? 8'd12 : cfg_ifg;

    // Take a data byte: in S_DATA, or while the SFD is on the wire.
    wire take = (state == S_DATA) || (state == S_PRE && cnt[2:0] == 3'd7);
    assign s_axis_tready = ce && (take || state == S_DRAIN);

    wire [7:0] data_in = (state == S_PAD) ? 8'h00 : s_axis_tdata;

    crc32 #(.DATA_W(8)) u_crc (
        .crc_in(crc), .data(data_in), .keep(1'b1), .crc_out(crc_next)
    );

    // FCS byte: ~crc when good, crc (the inverse of the right FCS) when aborting.
    assign crc_byte = (bad ? crc[8*cnt[1:0] +: 8] : ~crc[8*cnt[1:0] +: 8]);

    wire in_frame = gmii_tx_en && (state == S_PRE || state == S_DATA || state == S_PAD ||
                                   state == S_FCS);

    // status strobes, decoded from state: in the cycle the last FCS byte (or the
    // underflow error byte) is registered; len is the frame's length then
    wire fcs_last = ce && state == S_FCS && cnt[1:0] == 2'd3;
    assign stat_tx_frame = fcs_last && !bad;
    assign stat_tx_abort = fcs_last && bad;
    assign stat_tx_underflow = ce && take && !s_axis_tvalid;
    assign stat_tx_bytes = len;

    // padding: a sticky flag set by an equality, so no comparator sits in the path
    wire pad_more = !min_done;
    localparam [15:0] MIN_LAST = (MIN_LEN >= 2) ? MIN_LEN[15:0] + 16'd2 : 16'd0;
    wire min_hit = (len == MIN_LAST);

    always @(posedge clk) begin
        if (rst) begin
            // a frame cut by reset ends with one error byte, then a full gap
            gmii_tx_en <= in_frame;
            gmii_tx_er <= in_frame;
            gmii_txd <= 8'h00;
            state <= S_IFG;
            cnt <= 8'd12;
            bad <= 1'b0;
        end else if (ce) begin
            gmii_tx_er <= 1'b0;
            case (state)
                S_IDLE: begin
                    gmii_tx_en <= 1'b0;
                    gmii_txd <= 8'h00;
                    if (s_axis_tvalid) begin
                        gmii_tx_en <= 1'b1;
                        gmii_txd <= 8'h55;
                        cnt <= 8'd0;
                        state <= S_PRE;
                    end
                end
                S_PRE, S_DATA: begin
                    if (!take) begin
                        gmii_txd <= (cnt[2:0] == 3'd6) ? 8'hD5 : 8'h55;
                        cnt <= cnt + 8'd1;
                        crc <= 32'hFFFFFFFF;
                        len <= 16'd4;
                        min_done <= (MIN_LEN < 2);
                        bad <= 1'b0;
                    end else if (s_axis_tvalid) begin
                        gmii_txd <= s_axis_tdata;
                        crc <= crc_next;
                        len <= len + 16'd1;
                        if (min_hit) min_done <= 1'b1;
                        state <= S_DATA;
                        cnt <= 8'd0;
                        if (s_axis_tlast) begin
                            bad <= s_axis_tuser;
                            state <= pad_more ? S_PAD : S_FCS;
                        end
                    end else begin
                        // underflow: one error byte ends the frame; drop the rest
                        gmii_txd <= 8'h00;
                        gmii_tx_er <= 1'b1;
                        cnt <= ifg_len;
                        state <= S_DRAIN;
                    end
                end
                S_PAD: begin
                    gmii_txd <= 8'h00;
                    crc <= crc_next;
                    len <= len + 16'd1;
                    if (min_hit) min_done <= 1'b1;
                    if (!pad_more) state <= S_FCS;
                end
                S_FCS: begin
                    gmii_txd <= crc_byte;
                    gmii_tx_er <= bad;
                    cnt <= cnt + 8'd1;
                    if (cnt[1:0] == 2'd3) begin
                        cnt <= ifg_len;
                        state <= S_IFG;
                    end
                end
                S_IFG: begin
                    gmii_tx_en <= 1'b0;
                    gmii_txd <= 8'h00;
                    cnt <= cnt - 8'd1;
                    if (cnt <= 8'd1) state <= S_IDLE;
                end
                default: begin  // S_DRAIN
                    gmii_tx_en <= 1'b0;
                    gmii_txd <= 8'h00;
                    if (cnt != 8'd0) cnt <= cnt - 8'd1;
                    if (s_axis_tvalid && s_axis_tlast)
                        state <= (cnt <= 8'd1) ? S_IDLE : S_IFG;
                end
            endcase
        end
    end
endmodule
`default_nettype wire
