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
// frames, values below 12 mean 12); status strobes (one cycle, decoded from registers
// only): stat_tx_frame with stat_tx_bytes[15:0] (frame bytes on the wire, padding and
// FCS included, preamble excluded) and stat_tx_abort (tuser) in the cycle the last FCS
// byte is registered, stat_tx_underflow in the enabled cycle after the error byte is.
// Reset: rst is registered as it enters (rst_q) and acts one cycle later, so that the
// reset reaches the enables here from a flip-flop placed with this logic rather than
// over the design-wide reset net (Fmax); a frame on the wire when it acts is cut with
// one gmii_tx_er byte, and a full gap follows; hold rst for at least 2 cycles.
// Parameters: MIN_LEN (frame length before FCS after padding, 60; 0 disables padding).
// Latency: the first preamble byte is on gmii_txd in the enabled cycle after the first
// one with s_axis_tvalid = 1 (1 cycle at GMII); the first frame byte is taken when the
// SFD goes out and appears on gmii_txd one enabled cycle later.
// Timing: the state is one-hot and no register but the state flags and gmii_txd/tx_er
// depends on s_axis_tvalid, so a registered source (a FIFO) meets 125 MHz on iCE40 HX.
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
    // One flip-flop per state (one-hot), so every decision is a function of a few flags
    // and the handshake, never of a state decode: the path from s_axis_tvalid (a FIFO's
    // register in eth_mac_gmii_fifo) into the CRC and state registers stays short.
    reg         s_idle;     // line idle, waiting for tvalid
    reg         s_pre;      // preamble bytes and the SFD go out
    reg         s_take;     // a frame byte is taken each cycle (the first while the SFD
                            // is on the wire)
    reg         s_pad;      // zero padding
    reg         s_fcs;      // the four FCS bytes
    reg         s_ifg;      // the gap (cnt counts it down)
    reg         s_drain;    // after an underflow: the rest of the user frame is dropped
    reg  [7:0]  cnt;        // preamble: 12 down to the SFD at 6 (s_pre); idle bytes still
                            // to send (s_ifg, s_drain)
    reg  [1:0]  fcs_n;      // FCS byte going out (s_fcs)
    reg  [15:0] len;        // frame bytes emitted so far + 4 (the FCS to come)
    reg         min_done;   // len - 4 + 1 >= MIN_LEN: no more padding needed
    reg         bad;        // frame ends with a bad FCS (tuser)
    reg  [31:0] crc;
    wire [31:0] crc_next;
    // max(cfg_ifg, 12): cfg_ifg < 12 written as an equality on its bits (0..11: the high
    // nibble 0 and not both of bits 3, 2), so no carry chain and its inverters
    wire [7:0]  ifg_len = (cfg_ifg[7:4] == 4'd0 && cfg_ifg[3:2] != 2'b11) ? 8'd12 : cfg_ifg;

    reg         rst_q;
    always @(posedge clk) rst_q <= rst;

    // s_axis_tready: rdy, a flip-flop equal to s_take || s_drain (made from their next
    // values), so that the ready is one flip-flop (and ce) for the source's handshake
    reg         rdy;
    assign s_axis_tready = ce && rdy;

    // CRC input: the frame byte, 0 while padding, and while the FCS goes out its own low
    // byte, which makes the CRC step a plain shift right by 8 (the byte cancels itself
    // before the polynomial sees it): so crc[7:0] is always the next FCS byte.
    wire [7:0] data_in = (s_axis_tdata & {8{s_take}}) | (crc[7:0] & {8{s_fcs}});

    crc32 #(.DATA_W(8)) u_crc (
        .crc_in(crc), .data(data_in), .keep(1'b1), .crc_out(crc_next)
    );

    wire in_frame = gmii_tx_en && (s_pre || s_take || s_pad || s_fcs);

    // status strobes, decoded from state (never from the handshake inputs): frame and
    // abort in the cycle the last FCS byte is registered (len is the frame's length
    // then), underflow in the enabled cycle after its error byte was registered (the
    // only one in which s_drain and gmii_tx_er are both high)
    wire fcs_last = ce && s_fcs && fcs_n == 2'd3;
    assign stat_tx_frame = fcs_last && !bad;
    assign stat_tx_abort = fcs_last && bad;
    assign stat_tx_underflow = ce && s_drain && gmii_tx_er;
    assign stat_tx_bytes = len;

    // padding: a sticky flag set by an equality, so no comparator sits in the path. len
    // climbs by one from 4 within a frame, so its first visit to MIN_LAST is the first
    // time its low bits equal MIN_LAST's (the flag is sticky): 6 bits do for MIN_LEN 60.
    wire pad_more = !min_done;
    localparam [15:0] MIN_LAST = (MIN_LEN >= 2) ? MIN_LEN[15:0] + 16'd2 : 16'd0;
    wire min_hit = (MIN_LAST < 16'd64) ? (len[5:0] == MIN_LAST[5:0]) : (len == MIN_LAST);

    // cnt: loaded while idle (12: the preamble, counted down to the SFD at 6) and with each
    // frame and FCS byte (the gap), counted down in the preamble and the gap, and while
    // draining down to 0. One load for every case, whose value is 12 whenever
    // cfg_ifg <= 12: then (a constant cfg_ifg) a synchronous set/reset of the flip-flops,
    // not a multiplexer in front of the decrement
    wire cnt_ld  = s_idle || s_take || s_fcs;
    // cnt <= 1, as an equality (cnt[7:1] == 0) rather than a compare (which Yosys maps to a
    // carry chain with an inverter per bit on iCE40)
    wire cnt_le1 = (cnt[7:1] == 7'd0);
    wire cnt_dec = s_pre || s_ifg || (s_drain && cnt != 8'd0);
    always @(posedge clk) begin
        if (rst_q || (ce && cnt_ld)) cnt <= (rst_q || s_idle) ? 8'd12 : ifg_len;
        else if (ce && cnt_dec) cnt <= cnt - 8'd1;
    end

    // rdy's next value: s_take or s_drain next. Both are entered only at the SFD (s_take)
    // or from each other, and both are left only with the frame's tlast beat.
    always @(posedge clk) begin
        if (rst_q) rdy <= 1'b0;
        else if (ce) rdy <= (s_pre && cnt[2:0] == 3'd6) || (rdy && !(s_axis_tvalid && s_axis_tlast));
    end

    always @(posedge clk) begin
        if (rst_q) begin
            // a frame cut by reset ends with one error byte, then a full gap
            gmii_tx_en <= in_frame;
            gmii_tx_er <= in_frame;
            gmii_txd <= 8'h00;
            {s_idle, s_pre, s_take, s_pad, s_fcs, s_drain} <= 6'd0;
            s_ifg <= 1'b1;
            fcs_n <= 2'd0;  // and it wraps back to 0 after each FCS
            bad <= 1'b0;
        end else if (ce) begin
            gmii_tx_er <= 1'b0;
            gmii_txd <= 8'h00;
            if (s_idle) begin
                gmii_tx_en <= s_axis_tvalid;
                gmii_txd <= {1'b0, s_axis_tvalid, 1'b0, s_axis_tvalid,
                             1'b0, s_axis_tvalid, 1'b0, s_axis_tvalid};  // 0x55
                if (s_axis_tvalid) begin
                    s_idle <= 1'b0;
                    s_pre <= 1'b1;
                end
            end
            if (s_pre) begin
                // cnt counts down from 12 to the SFD at 6 (the only value of 12..6 whose
                // low bits are 3'b110)
                gmii_txd <= (cnt[2:0] == 3'd6) ? 8'hD5 : 8'h55;
                crc <= 32'hFFFFFFFF;
                len <= 16'd4;
                min_done <= (MIN_LEN < 2);
                if (cnt[2:0] == 3'd6) begin
                    s_pre <= 1'b0;
                    s_take <= 1'b1;
                end
            end
            // The CRC, length, padding flag, tuser and gap registers take their values
            // whether or not a byte came: after an underflow none of them is used before
            // the next preamble sets them again (the gap is counted from the error byte).
            if (s_take || s_pad) begin
                crc <= crc_next;
                len <= len + 16'd1;
                if (min_hit) min_done <= 1'b1;
            end
            if (s_take) begin
                bad <= s_axis_tuser;  // that of the last beat stays
                gmii_txd <= s_axis_tdata & {8{s_axis_tvalid}};
                // underflow: one error byte ends the frame; the rest is dropped
                gmii_tx_er <= !s_axis_tvalid;
                s_take <= s_axis_tvalid && !s_axis_tlast;
                s_pad <= s_axis_tvalid && s_axis_tlast && pad_more;
                s_fcs <= s_axis_tvalid && s_axis_tlast && !pad_more;
                s_drain <= !s_axis_tvalid;
            end
            if (s_pad && !pad_more) begin
                s_pad <= 1'b0;
                s_fcs <= 1'b1;
            end
            if (s_fcs) begin
                // the FCS: ~crc[7:0] when good, crc[7:0] (never the right FCS) for tuser
                gmii_txd <= crc[7:0] ^ {8{!bad}};
                gmii_tx_er <= bad;
                crc <= crc_next;
                fcs_n <= fcs_n + 2'd1;
                if (fcs_n == 2'd3) begin
                    s_fcs <= 1'b0;
                    s_ifg <= 1'b1;
                end
            end
            if (s_ifg) begin
                gmii_tx_en <= 1'b0;
                if (cnt_le1) begin
                    s_ifg <= 1'b0;
                    s_idle <= 1'b1;
                end
            end
            if (s_drain) begin
                gmii_tx_en <= 1'b0;
                if (s_axis_tvalid && s_axis_tlast) begin
                    s_drain <= 1'b0;
                    s_idle <= cnt_le1;
                    s_ifg <= !cnt_le1;
                end
            end
        end
    end
endmodule
`default_nettype wire
