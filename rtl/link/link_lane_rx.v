`default_nettype none
// link_lane_rx: one 8b/10b lane's receiver: comma detection, word alignment at any bit
// offset, lock, loss-of-alignment detection and recovery, decoding.
//
// The lane arrives as a raw W = 10*BYTES-bit parallel stream (a transceiver's or
// deserializer's word, rx_raw[0] first on the wire) at no particular bit offset. Each
// cycle the last two words (2W bits) are searched at every offset 0..W-1 for a comma
// code-group (COMMA_MODE 0: K28.5 in either disparity, all ten bits; COMMA_MODE 1: the
// seven-bit comma 0011111 / 1100000 in bits a..f, so K28.1, K28.5 and K28.7), and a
// barrel shifter takes the W-bit word at the alignment offset, so a comma lands in lane 0
// (with BYTES 2 the transmitter sends its commas in lane 0 of its words). dec_8b10b
// decodes the aligned words.
//
// Lock: unlocked, a comma starts an alignment at its offset (the lowest, if several);
// LOCK_COMMAS commas at that offset, with no comma at another offset in between (one
// there starts again from it), lock it. Locked, the offset is held and commas elsewhere
// are ignored; the words are checked in windows of ERR_WINDOW cycles (the first starts
// when lock is gained): the ERR_LIMIT-th word with a code violation or a disparity error
// within one window loses the lock (a slip of the bit stream or a burst of bit errors),
// and the receiver hunts again from the next comma: recovery takes the loss, then
// LOCK_COMMAS commas.
//
// Ports: clk, rst (sync, active high); rx_raw[10*BYTES-1:0]; m_data[8*BYTES-1:0],
// m_k, m_code_err, m_disp_err [BYTES-1:0] (lane i = byte i, first on the wire first,
// as dec_8b10b gives them), m_valid (the word on m_* was aligned while locked; one word
// every cycle while locked, none while unlocked); lock (level); align_off[4:0] (the
// alignment offset in bits, 0..W-1: the bit of rx_raw where a code-group starts);
// cnt_ev[4:0] strobes, one cycle each: [0] lock gained, [1] lock lost, [2] a word on
// m_* (m_valid) with a code violation in any lane, [3] a word on m_* (m_valid) with a
// disparity error in any lane, [4] an alignment started (a comma while unlocked not at
// the offset being confirmed: the first after reset or a loss, or one at a new offset).
// Parameters (tested values): BYTES 1 or 2 (10- or 20-bit stream); COMMA_MODE 0 or 1;
// LOCK_COMMAS 1..255 (4 and 2 tested); ERR_LIMIT 1..255 (4 and 2 tested); ERR_WINDOW
// ERR_LIMIT..65535 (64 and 16 tested).
// Latency: 3 cycles (a code-group whose first bit is in rx_raw at edge k is on m_* after
// edge k+3); lock rises 1 cycle after the edge that takes the word completing its last
// comma.
module link_lane_rx #(
    parameter BYTES = 1,
    parameter COMMA_MODE = 0,
    parameter LOCK_COMMAS = 4,
    parameter ERR_LIMIT = 4,
    parameter ERR_WINDOW = 64
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [10*BYTES-1:0]   rx_raw,
    output wire [8*BYTES-1:0]    m_data,
    output wire [BYTES-1:0]      m_k,
    output wire [BYTES-1:0]      m_code_err,
    output wire [BYTES-1:0]      m_disp_err,
    output wire                  m_valid,
    output wire                  lock,
    output wire [4:0]            align_off,
    output wire [4:0]            cnt_ev
);
    generate
        if (BYTES != 1 && BYTES != 2) begin : g_check_bytes
            link_lane_rx_BYTES_must_be_1_or_2 u_error ();  // unsupported parameter (no such module)
        end
        if (COMMA_MODE != 0 && COMMA_MODE != 1) begin : g_check_comma_mode
            link_lane_rx_COMMA_MODE_must_be_0_or_1 u_error ();  // unsupported parameter
        end
        if (LOCK_COMMAS < 1 || LOCK_COMMAS > 255) begin : g_check_lock_commas
            link_lane_rx_LOCK_COMMAS_must_be_1_to_255 u_error ();  // unsupported parameter
        end
        if (ERR_LIMIT < 1 || ERR_LIMIT > 255) begin : g_check_err_limit
            link_lane_rx_ERR_LIMIT_must_be_1_to_255 u_error ();  // unsupported parameter
        end
        if (ERR_WINDOW < ERR_LIMIT || ERR_WINDOW > 65535) begin : g_check_err_window
            link_lane_rx_ERR_WINDOW_must_be_ERR_LIMIT_to_65535 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam W = 10 * BYTES;
    localparam [9:0] K28_5_NEG = 10'b0101111100;  // abcdeifghj = 0011111010, a in bit 0
    localparam [6:0] COMMA_NEG = 7'b1111100;      // abcdeif = 0011111, a in bit 0
    localparam [7:0] LOCK_N = LOCK_COMMAS;
    localparam [7:0] ERR_N = ERR_LIMIT;
    localparam [15:0] WIN_LAST = ERR_WINDOW - 1;

    reg  [W-1:0]      raw_reg;          // the newest word
    reg  [W-1:0]      prev_reg;         // the word before it (earlier on the wire)
    reg  [W-1:0]      aligned_reg;
    reg               aligned_valid_reg;
    reg               m_valid_reg;
    reg               lock_reg, lock_next;
    reg  [4:0]        off_reg, off_next;
    reg  [7:0]        comma_cnt_reg, comma_cnt_next;  // commas at off_reg while unlocked
    reg  [7:0]        err_cnt_reg, err_cnt_next;      // error words in this window
    reg  [15:0]       win_cnt_reg, win_cnt_next;      // cycles into this window
    reg               lock_ev_reg, loss_ev_reg, start_ev_reg;

    // the last two words, zero-extended to 64 bits so that the 5-bit offset indexes it
    wire [63:0] window = {{(64 - 2 * W){1'b0}}, raw_reg, prev_reg};

    // comma search at every offset (hit[o]: a comma starts at bit o; none beyond W-1)
    reg  [31:0]  hit;
    reg  [4:0]   first_hit;
    integer      o;
    always @* begin
        first_hit = 5'd0;
        hit = 32'd0;
        for (o = W - 1; o >= 0; o = o - 1) begin
            if (COMMA_MODE == 0) begin
                hit[o] = (window[o +: 10] == K28_5_NEG || window[o +: 10] == ~K28_5_NEG);
            end else begin
                hit[o] = (window[o +: 7] == COMMA_NEG || window[o +: 7] == ~COMMA_NEG);
            end
            if (hit[o]) first_hit = o[4:0];
        end
    end

    wire [8*BYTES-1:0] dec_data;
    wire [BYTES-1:0]   dec_k, dec_code_err, dec_disp_err;
    /* verilator lint_off PINCONNECTEMPTY */
    // the tracked disparity stays inside the decoder
    dec_8b10b #(.BYTES(BYTES)) u_dec (
        .clk(clk), .rst(rst), .in_code(aligned_reg),
        .out_data(dec_data), .out_k(dec_k), .out_code_err(dec_code_err),
        .out_disp_err(dec_disp_err), .out_rd()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    wire word_code_err = m_valid_reg && |dec_code_err;
    wire word_disp_err = m_valid_reg && |dec_disp_err;
    wire err_word = word_code_err || word_disp_err;
    wire confirm = (comma_cnt_reg != 8'd0) && hit[off_reg];
    wire start = !lock_reg && !confirm && |hit;
    wire [7:0] errs = err_cnt_reg + {7'd0, err_word};

    always @* begin
        lock_next = lock_reg;
        off_next = off_reg;
        comma_cnt_next = comma_cnt_reg;
        err_cnt_next = err_cnt_reg;
        win_cnt_next = win_cnt_reg;
        if (!lock_reg) begin
            if (confirm) begin
                comma_cnt_next = comma_cnt_reg + 8'd1;
            end else if (start) begin
                off_next = first_hit;
                comma_cnt_next = 8'd1;
            end
            if (comma_cnt_next == LOCK_N) begin
                lock_next = 1'b1;
                comma_cnt_next = 8'd0;
                err_cnt_next = 8'd0;
                win_cnt_next = 16'd0;
            end
        end else if (err_word && errs == ERR_N) begin
            lock_next = 1'b0;
        end else if (win_cnt_reg == WIN_LAST) begin
            err_cnt_next = 8'd0;
            win_cnt_next = 16'd0;
        end else begin
            err_cnt_next = errs;
            win_cnt_next = win_cnt_reg + 16'd1;
        end
    end

    always @(posedge clk) begin
        raw_reg <= rx_raw;
        prev_reg <= raw_reg;
        aligned_reg <= window[{1'b0, off_reg} +: W];
        aligned_valid_reg <= lock_reg;
        m_valid_reg <= aligned_valid_reg;
        lock_reg <= lock_next;
        off_reg <= off_next;
        comma_cnt_reg <= comma_cnt_next;
        err_cnt_reg <= err_cnt_next;
        win_cnt_reg <= win_cnt_next;
        lock_ev_reg <= lock_next && !lock_reg;
        loss_ev_reg <= lock_reg && !lock_next;
        start_ev_reg <= start;
        if (rst) begin
            aligned_valid_reg <= 1'b0;
            m_valid_reg <= 1'b0;
            lock_reg <= 1'b0;
            off_reg <= 5'd0;
            comma_cnt_reg <= 8'd0;
            err_cnt_reg <= 8'd0;
            win_cnt_reg <= 16'd0;
            lock_ev_reg <= 1'b0;
            loss_ev_reg <= 1'b0;
            start_ev_reg <= 1'b0;
        end
    end

    assign m_data = dec_data;
    assign m_k = dec_k;
    assign m_code_err = dec_code_err;
    assign m_disp_err = dec_disp_err;
    assign m_valid = m_valid_reg;
    assign lock = lock_reg;
    assign align_off = off_reg;
    assign cnt_ev = {start_ev_reg, word_disp_err, word_code_err, loss_ev_reg, lock_ev_reg};
endmodule
`default_nettype wire
