`default_nettype none
// eth_mac_tx: Ethernet MAC transmitter, 8-bit GMII side, with a clock enable.
//
// Takes whole frames on an AXI4-Stream (destination MAC first, no FCS) and puts them
// on GMII: 7 preamble bytes 0x55, SFD 0xD5, the frame, zero padding up to 60 bytes, the
// FCS (CRC-32, least significant byte first), then at least max(cfg_ifg, 12) idle bytes
// before the next preamble. With s_axis_tvalid kept high the frames go out back to back
// at exactly that gap.
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
// frames, values below 12 mean 12); status strobes (one cycle, decoded from registers
// only): stat_tx_frame with stat_tx_bytes[15:0] (frame bytes on the wire, padding and
// FCS included, preamble excluded) and stat_tx_abort (tuser) in the cycle the last FCS
// byte is registered, stat_tx_underflow in the enabled cycle after the error byte is.
// Reset: rst is registered as it enters (rst_reg) and acts one cycle later, so that the
// reset reaches the enables here from a flip-flop placed with this logic rather than
// over the design-wide reset net (Fmax); a frame on the wire when it acts is cut with
// one gmii_tx_er byte, and a full gap follows; hold rst for at least 2 cycles.
// Parameters: none.
// Latency: the first preamble byte is on gmii_txd in the enabled cycle after the first
// one with s_axis_tvalid = 1 (1 cycle at GMII); the first frame byte is taken when the
// SFD goes out and appears on gmii_txd one enabled cycle later.
module eth_mac_tx (
    input  wire        clk,
    input  wire        rst,
    input  wire        ce,

    input  wire [7:0]  s_axis_tdata,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    output wire [7:0]  gmii_txd,
    output wire        gmii_tx_en,
    output wire        gmii_tx_er,

    input  wire [7:0]  cfg_ifg,

    output wire        stat_tx_frame,
    output wire [15:0] stat_tx_bytes,
    output wire        stat_tx_underflow,
    output wire        stat_tx_abort
);
    localparam [15:0] MIN_LEN = 16'd60;   // frame bytes before the FCS, padding included
    localparam [7:0]  MIN_GAP = 8'd12;    // idle bytes between frames, at least

    localparam [2:0] STATE_IDLE     = 3'd0,  // line idle, waiting for s_axis_tvalid
                     STATE_PREAMBLE = 3'd1,  // preamble bytes, then the SFD
                     STATE_DATA     = 3'd2,  // a frame byte taken each cycle (the first
                                             // while the SFD is on the wire)
                     STATE_PAD      = 3'd3,  // zero padding
                     STATE_FCS      = 3'd4,  // the four FCS bytes
                     STATE_GAP      = 3'd5,  // idle bytes between frames
                     STATE_DRAIN    = 3'd6;  // after an underflow: the rest of the user
                                             // frame is taken and dropped

    reg  [2:0]  state_reg, state_next;
    reg         rst_reg;
    reg  [7:0]  cnt_reg;        // PREAMBLE: 0x55 bytes still to send before the SFD;
                                // GAP, DRAIN: idle bytes still to send, this one included
                                // (at least 1: DRAIN stops counting at 1)
    reg  [1:0]  fcs_cnt_reg;    // FCS byte going out (FCS)
    reg  [15:0] len_reg;        // frame bytes sent so far + 4 (the FCS to come)
    reg         abort_reg;      // the frame ends with a bad FCS (tuser of its last beat)
    reg  [31:0] crc_reg;
    reg  [7:0]  gmii_txd_reg;
    reg         gmii_tx_en_reg, gmii_tx_er_reg;

    assign gmii_txd = gmii_txd_reg;
    assign gmii_tx_en = gmii_tx_en_reg;
    assign gmii_tx_er = gmii_tx_er_reg;

    wire [7:0] gap_len = (cfg_ifg < MIN_GAP) ? MIN_GAP : cfg_ifg;
    // the byte going out now is at least the MIN_LEN-th of the frame: no padding after it
    wire       min_len_reached = (len_reg >= MIN_LEN + 16'd3);
    wire       last_beat = s_axis_tvalid && s_axis_tlast;

    // a frame is on the wire (preamble to FCS)
    wire in_frame = gmii_tx_en_reg && (state_reg == STATE_PREAMBLE || state_reg == STATE_DATA ||
                                       state_reg == STATE_PAD || state_reg == STATE_FCS);

    assign s_axis_tready = ce && (state_reg == STATE_DATA || state_reg == STATE_DRAIN);

    wire       gap_last = (cnt_reg == 8'd1);  // the gap's last idle byte goes out now

    // The CRC runs over the frame bytes and the padding (zeros). While the FCS goes out
    // it takes its own low byte, which makes its step a plain shift right by 8 (the byte
    // cancels itself before the polynomial sees it), so crc_reg[7:0] is always the next
    // FCS byte and the CRC register needs no second load path.
    wire [7:0]  crc_data = (state_reg == STATE_DATA) ? s_axis_tdata :
                           (state_reg == STATE_FCS) ? crc_reg[7:0] : 8'h00;
    wire [31:0] crc_next;
    crc32 #(.DATA_W(8)) u_crc (.crc_in(crc_reg), .data(crc_data), .keep(1'b1), .crc_out(crc_next));

    // status strobes, decoded from registers (never from the handshake inputs): frame and
    // abort in the cycle the last FCS byte is registered (len_reg is the frame's length
    // then), underflow in the enabled cycle after its error byte was registered (the
    // only one in which DRAIN and gmii_tx_er are both set)
    wire fcs_last = ce && state_reg == STATE_FCS && fcs_cnt_reg == 2'd3;
    assign stat_tx_frame = fcs_last && !abort_reg;
    assign stat_tx_abort = fcs_last && abort_reg;
    assign stat_tx_underflow = ce && state_reg == STATE_DRAIN && gmii_tx_er_reg;
    assign stat_tx_bytes = len_reg;

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_IDLE:
                if (s_axis_tvalid) state_next = STATE_PREAMBLE;
            STATE_PREAMBLE:
                if (cnt_reg == 8'd0) state_next = STATE_DATA;
            STATE_DATA:
                if (!s_axis_tvalid) state_next = STATE_DRAIN;  // underflow
                else if (s_axis_tlast) state_next = min_len_reached ? STATE_FCS : STATE_PAD;
            STATE_PAD:
                if (min_len_reached) state_next = STATE_FCS;
            STATE_FCS:
                if (fcs_cnt_reg == 2'd3) state_next = STATE_GAP;
            STATE_GAP:
                if (gap_last) state_next = STATE_IDLE;
            STATE_DRAIN:
                if (last_beat) state_next = gap_last ? STATE_IDLE : STATE_GAP;
            default:
                state_next = STATE_GAP;
        endcase
    end

    always @(posedge clk) rst_reg <= rst;

    always @(posedge clk) begin
        if (rst_reg) begin
            // a frame cut by reset ends with one error byte, then a full gap
            state_reg <= STATE_GAP;
            cnt_reg <= MIN_GAP;
            fcs_cnt_reg <= 2'd0;  // and it wraps back to 0 after each FCS
            abort_reg <= 1'b0;
            gmii_txd_reg <= 8'h00;
            gmii_tx_en_reg <= in_frame;
            gmii_tx_er_reg <= in_frame;
        end else if (ce) begin
            state_reg <= state_next;
            gmii_txd_reg <= 8'h00;
            gmii_tx_er_reg <= 1'b0;
            // The CRC, length, tuser and gap registers take their values whether or not
            // a byte came: after an underflow none of them is used before the next
            // preamble sets them again (the gap is counted from the error byte).
            case (state_reg)
                STATE_IDLE: begin
                    gmii_tx_en_reg <= s_axis_tvalid;
                    if (s_axis_tvalid) gmii_txd_reg <= 8'h55;  // the first preamble byte
                    cnt_reg <= 8'd6;
                end
                STATE_PREAMBLE: begin
                    gmii_txd_reg <= (cnt_reg == 8'd0) ? 8'hD5 : 8'h55;
                    cnt_reg <= cnt_reg - 8'd1;
                    crc_reg <= 32'hFFFFFFFF;
                    len_reg <= 16'd4;
                end
                STATE_DATA: begin
                    // an underflow sends one error byte, which ends the frame
                    gmii_txd_reg <= s_axis_tvalid ? s_axis_tdata : 8'h00;
                    gmii_tx_er_reg <= !s_axis_tvalid;
                    cnt_reg <= gap_len;  // the gap, counted from the frame's end
                    crc_reg <= crc_next;
                    len_reg <= len_reg + 16'd1;
                    abort_reg <= s_axis_tuser;  // that of the last beat stays
                end
                STATE_PAD: begin
                    crc_reg <= crc_next;
                    len_reg <= len_reg + 16'd1;
                end
                STATE_FCS: begin
                    // the FCS is the complemented CRC, low byte first; for tuser the CRC
                    // itself (never the right FCS) with gmii_tx_er
                    gmii_txd_reg <= abort_reg ? crc_reg[7:0] : ~crc_reg[7:0];
                    gmii_tx_er_reg <= abort_reg;
                    cnt_reg <= gap_len;
                    crc_reg <= crc_next;  // crc_reg >> 8
                    fcs_cnt_reg <= fcs_cnt_reg + 2'd1;
                end
                STATE_GAP: begin
                    gmii_tx_en_reg <= 1'b0;
                    cnt_reg <= cnt_reg - 8'd1;
                end
                STATE_DRAIN: begin
                    gmii_tx_en_reg <= 1'b0;
                    if (!gap_last) cnt_reg <= cnt_reg - 8'd1;
                end
                default: ;
            endcase
        end
    end
endmodule
`default_nettype wire
