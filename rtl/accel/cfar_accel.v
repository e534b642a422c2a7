`default_nettype none
// cfar_accel: streaming CA-CFAR detector (docs/cfar.md). Takes sample frames on an 8-bit
// AXI4-Stream (a nic_classifier accelerator port: whole frames, the MAC's tuser = bad on
// the last beat), assembles two consecutive frames into a block of 1024 real samples,
// computes a fixed-point radix-2 FFT, the magnitudes |re| + |im|, a cell-averaging CFAR
// over bins 0..511, and sends one result per block on an 8-bit AXI4-Stream.
//
// Sample frame: SKIP header bytes (not interpreted; 42 = Ethernet + IPv4 + UDP), then the
//   identifier: a tag (4 bytes, not interpreted) and the frame sequence number (u32
//   big-endian), then 512 signed 16-bit samples, big-endian: exactly SKIP + 1032 bytes.
//   Frame 2b holds samples 0..511 of block b, frame 2b+1 samples 512..1023.
// Frame rules (each frame counted once, cnt_ev): a bad frame (tuser) is dropped; a frame
//   not SKIP + 1032 bytes long is dropped; a frame that finds both sample buffers held
//   by the engine is dropped (busy); an even sequence number starts a block (its samples
//   overwrite a first frame still waiting for its second, which is dropped as lost, from
//   the moment its identifier is complete, even if the new frame is then dropped); an odd
//   sequence number s completes the block of the waiting first frame s - 1, or is dropped
//   (order). The input is always ready (s_axis_tready = 1): nothing stalls the classifier.
// Result (big-endian): block id (u32, the first frame's sequence number / 2), detections
//   found (u16), detections listed (u16, at most MAX_DET), then per listed detection in
//   bin order: bin (u16), magnitude (u32), threshold (u32). 8 + 10 x listed bytes.
// Fixed point: the samples enter the FFT as x * 2^7 in 24-bit signed components; each
//   butterfly computes X0 = rnd((A * 2^14 + W * B) / 2^15), X1 = rnd((A * 2^14 - W * B) /
//   2^15) (rnd: to nearest, halves up), W the 16-bit twiddle scaled by 2^14
//   (cfar_twiddle_rom), so every stage halves and the output is DFT(x) * 2^7 / 1024 (no
//   component reaches 2^23: the modulus never grows). Magnitude |re| + |im| (< 2^24).
//   Training sum S (32 bits) of cfg_train cells on each side of the cell, beyond cfg_guard
//   guard cells, bin indices modulo 1024; threshold (cfg_alpha * S) >> 12; a detection
//   when the magnitude is greater than the threshold.
// Configuration (taken at the start of each block): cfg_guard (0..15 guard cells per
//   side), cfg_train (0..127 training cells per side; 0 gives threshold 0), cfg_alpha
//   (threshold factor / (2 * cfg_train), 12 fraction bits).
// Engine: FFT of 10 stages of 512 butterflies, four per cycle (cfar_butterfly), in
//   place in one of two sample buffers, each eight RAM banks of 128 words (the bank a
//   function of the address such that the four butterflies' eight operands are in eight
//   banks), 3 cycles between stages; CFAR over the stream of magnitudes from bin -(G+T)
//   to bin 511 + G + T, one per cycle: the training sums and the cell come from three
//   delay memories (R(n) = the T magnitudes up to n, kept as a running sum; the window
//   of the cell n - (G+T) is R(n) + R(n - 2G - T - 1)). The result leaves while the next
//   block's FFT runs (its CFAR waits for the result to be out: the detection list is
//   one). While the engine works on one buffer, the next block loads into the other.
// cnt_ev (strobes): [0] block accepted (its second frame's last beat), [1] result sent
//   (its last beat), [2] frame dropped bad (tuser), [3] frame dropped for its length,
//   [4] frame dropped out of order, [5] first frame dropped lost (replaced before its
//   second came), [6] frame dropped busy.
// Latency (cycles, G = cfg_guard, T = cfg_train, the engine idle): FFT 10 x 131, CFAR
//   512 + 2(G+T) + 9; the result's first byte leaves 1,834 + 2(G+T) cycles after the
//   block's last input byte, one byte per cycle after it (output ready). The engine takes
//   a block every 1,834 + 2(G+T) cycles, under the 2,196 of two 1074-byte frames at
//   1 Gbit/s (bench/cfar.py measures both).
// Parameters (checked): SKIP 0..255 header bytes before the identifier (tested 42, 0, 255);
//   MAX_DET 1..512 detections listed per result (tested 64, 512, 1).
module cfar_accel #(
    parameter integer SKIP    = 42,
    parameter integer MAX_DET = 64
) (
    input  wire        clk,
    input  wire        rst,

    input  wire [7:0]  s_axis_tdata,
    input  wire        s_axis_tkeep,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    output wire [7:0]  m_axis_tdata,
    output wire        m_axis_tkeep,
    output wire        m_axis_tvalid,
    input  wire        m_axis_tready,
    output wire        m_axis_tlast,
    output wire        m_axis_tuser,

    input  wire [3:0]  cfg_guard,
    input  wire [6:0]  cfg_train,
    input  wire [15:0] cfg_alpha,

    output wire [6:0]  cnt_ev
);

    generate
        if (SKIP < 0 || SKIP > 255) begin : g_check_skip
            cfar_accel_SKIP_must_be_0_to_255 u_error ();  // unsupported parameter (no such module)
        end
        if (MAX_DET < 1 || MAX_DET > 512) begin : g_check_max_det
            cfar_accel_MAX_DET_must_be_1_to_512 u_error ();  // unsupported parameter
        end
    endgenerate

    function integer clog2;
        input integer n;
        integer v;
        begin
            clog2 = 0;
            v = 1;
            while (v < n) begin
                v = v * 2;
                clog2 = clog2 + 1;
            end
        end
    endfunction

    localparam integer FRAME_LEN = SKIP + 1032;           // bytes of a sample frame
    localparam [10:0]  FRAME_LEN_B = FRAME_LEN[10:0];
    localparam [10:0]  SEQ_END_B   = FRAME_LEN_B - 11'd1025;  // index of the last id byte
    localparam [10:0]  SAMPLES_B   = SEQ_END_B + 11'd1;       // index of the first sample byte
    localparam integer DET_AW = clog2(MAX_DET) < 1 ? 1 : clog2(MAX_DET);
    localparam [9:0]   MAX_DET_B = MAX_DET[9:0];

    function [9:0] bitrev10;
        input [9:0] v;
        integer i;
        begin
            for (i = 0; i < 10; i = i + 1) bitrev10[i] = v[9 - i];
        end
    endfunction

    // ================= input: frame parser and sample buffers =================
    localparam [2:0] ROLE_NONE = 3'd0,   // identifier not complete yet
                     ROLE_FIRST = 3'd1,  // samples 0..511 of a block
                     ROLE_SECOND = 3'd2, // samples 512..1023
                     ROLE_ORDER = 3'd3,  // odd sequence number without its first frame
                     ROLE_BUSY = 3'd4;   // both buffers held by the engine

    reg [10:0] in_cnt_reg;        // bytes of the current frame so far (saturates)
    reg [23:0] seq_reg;           // sequence number bytes so far
    reg [2:0]  role_reg, role_next;
    reg [7:0]  sample_hi_reg;     // a sample's first (high) byte
    reg        in_set_reg, in_set_next;      // buffer the input writes
    reg [1:0]  set_full_reg, set_full_next;  // buffer holds a block for the engine
    reg        pending_reg, pending_next;    // a first frame is stored in in_set
    reg [31:0] pending_seq_reg, pending_seq_next;
    reg [61:0] set_bid_reg, set_bid_next;    // block id of each buffer's block
    reg [6:0]  cnt_ev_reg, cnt_ev_next;

    assign s_axis_tready = 1'b1;
    assign cnt_ev = cnt_ev_reg;

    wire        in_byte   = s_axis_tvalid && s_axis_tkeep;
    wire        in_end    = s_axis_tvalid && s_axis_tlast;
    wire [10:0] in_len    = in_cnt_reg + {10'd0, in_byte};  // bytes including this beat
    wire [31:0] seq_now   = {seq_reg, s_axis_tdata};
    wire        at_seq    = in_byte && in_cnt_reg == SEQ_END_B;
    wire        in_sample = in_cnt_reg >= SAMPLES_B && in_cnt_reg < FRAME_LEN_B;
    wire [9:0]  sample_byte = in_cnt_reg[9:0] - SAMPLES_B[9:0];  // byte of the samples
    wire        sample_lo = in_sample && sample_byte[0];          // a sample's low byte
    wire [9:0]  sample_idx  = {role_reg == ROLE_SECOND, sample_byte[9:1]};
    wire        load_we   = in_byte && sample_lo &&
                            (role_reg == ROLE_FIRST || role_reg == ROLE_SECOND);
    wire [9:0]  load_pos  = bitrev10(sample_idx);  // decimation in time: bit-reversed input
    wire [15:0] sample    = {sample_hi_reg, s_axis_tdata};
    wire [47:0] load_data = {sample[15], sample, 7'd0, 24'd0};  // re = x * 2^7, im = 0

    // engine side signals used by the buffer control
    wire       eng_release;   // the engine is done with its buffer
    reg        eng_set_reg;   // buffer the engine works on

    reg [2:0] role;  // this beat's role (decided at the last identifier byte)

    always @* begin
        role             = role_reg;
        in_set_next      = in_set_reg;
        set_full_next    = set_full_reg;
        pending_next     = pending_reg;
        pending_seq_next = pending_seq_reg;
        set_bid_next     = set_bid_reg;
        cnt_ev_next      = 7'd0;
        if (eng_release) set_full_next[eng_set_reg] = 1'b0;
        if (at_seq) begin
            if (set_full_reg[in_set_reg]) begin
                role = ROLE_BUSY;
            end else if (!seq_now[0]) begin
                role             = ROLE_FIRST;
                pending_seq_next = seq_now;
                if (pending_reg) cnt_ev_next[5] = 1'b1;  // lost: its samples are overwritten
                pending_next     = 1'b0;
            end else if (pending_reg && seq_now == pending_seq_reg + 32'd1) begin
                role = ROLE_SECOND;
            end else begin
                role = ROLE_ORDER;
            end
        end
        role_next = in_end ? ROLE_NONE : role;
        cnt_ev_next[1] = m_axis_tvalid && m_axis_tready && m_axis_tlast;
        if (in_end) begin
            if (s_axis_tuser) begin
                cnt_ev_next[2] = 1'b1;
            end else if (in_len != FRAME_LEN_B) begin
                cnt_ev_next[3] = 1'b1;
            end else if (role == ROLE_BUSY) begin
                cnt_ev_next[6] = 1'b1;
            end else if (role == ROLE_ORDER) begin
                cnt_ev_next[4] = 1'b1;
            end else if (role == ROLE_FIRST) begin
                pending_next = 1'b1;
            end else if (role == ROLE_SECOND) begin
                cnt_ev_next[0] = 1'b1;
                pending_next   = 1'b0;
                set_full_next[in_set_reg] = 1'b1;
                set_bid_next[in_set_reg*31 +: 31] = pending_seq_reg[31:1];
                in_set_next    = !in_set_reg;
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            in_cnt_reg   <= 11'd0;
            role_reg     <= ROLE_NONE;
            in_set_reg   <= 1'b0;
            set_full_reg <= 2'b00;
            pending_reg  <= 1'b0;
            cnt_ev_reg   <= 7'd0;
        end else begin
            if (in_end)
                in_cnt_reg <= 11'd0;
            else if (in_byte && in_cnt_reg <= FRAME_LEN_B)
                in_cnt_reg <= in_cnt_reg + 11'd1;
            role_reg     <= role_next;
            in_set_reg   <= in_set_next;
            set_full_reg <= set_full_next;
            pending_reg  <= pending_next;
            cnt_ev_reg   <= cnt_ev_next;
        end
        if (in_byte) begin
            seq_reg       <= seq_now[23:0];
            sample_hi_reg <= s_axis_tdata;
        end
        pending_seq_reg <= pending_seq_next;
        set_bid_reg     <= set_bid_next;
    end

    // ================= engine =================
    localparam [2:0] STATE_IDLE = 3'd0,
                     STATE_FFT  = 3'd1,
                     STATE_CFAR = 3'd2,
                     STATE_DRAIN = 3'd3, // last magnitudes through the pipeline
                     STATE_WAIT = 3'd4;  // FFT done, the last result still leaving

    reg [2:0]  state_reg, state_next;
    reg [3:0]  stage_reg, stage_next;     // FFT stage 0..9
    reg [9:0]  step_reg, step_next;       // butterfly group of the stage (128..130: gap), or
                                          // CFAR magnitude stream element, or drain count
    reg [3:0]  guard_reg;
    reg [6:0]  train_reg;
    reg [15:0] alpha_reg;
    reg [30:0] bid_reg;
    reg        eng_set_next;
    reg        emit_active_reg;  // a result is leaving (the emitter below)


    always @* begin
        state_next   = state_reg;
        stage_next   = stage_reg;
        step_next    = step_reg;
        eng_set_next = eng_set_reg;
        case (state_reg)
            STATE_IDLE: begin
                if (set_full_reg[eng_set_reg]) begin
                    state_next = STATE_FFT;
                    stage_next = 4'd0;
                    step_next  = 10'd0;
                end
            end
            STATE_FFT: begin
                step_next = step_reg + 10'd1;
                if (step_reg == 10'd130) begin
                    step_next  = 10'd0;
                    stage_next = stage_reg + 4'd1;
                    if (stage_reg == 4'd9)
                        state_next = emit_active_reg ? STATE_WAIT : STATE_CFAR;
                end
            end
            STATE_WAIT: begin
                if (!emit_active_reg) state_next = STATE_CFAR;
            end
            STATE_CFAR: begin
                step_next = step_reg + 10'd1;
                if (step_reg == stream_last) begin
                    state_next = STATE_DRAIN;
                    step_next  = 10'd0;
                end
            end
            STATE_DRAIN: begin
                step_next = step_reg + 10'd1;
                if (step_reg == 10'd8) begin
                    state_next   = STATE_IDLE;  // the result leaves meanwhile
                    eng_set_next = !eng_set_reg;
                end
            end
            default: state_next = STATE_IDLE;
        endcase
    end

    assign eng_release = state_reg == STATE_DRAIN && step_reg == 10'd8;

    always @(posedge clk) begin
        if (rst) begin
            state_reg   <= STATE_IDLE;
            eng_set_reg <= 1'b0;
        end else begin
            state_reg   <= state_next;
            eng_set_reg <= eng_set_next;
        end
        stage_reg <= stage_next;
        step_reg  <= step_next;
        if (state_reg == STATE_IDLE) begin
            guard_reg <= cfg_guard;
            train_reg <= cfg_train;
            alpha_reg <= cfg_alpha;
            bid_reg   <= set_bid_reg[eng_set_reg*31 +: 31];
        end
    end

    // ---------------- FFT: four butterflies per cycle (decimation in time, in place) -----
    // Buffer address x is in bank {^(x & 10'h0cc), ^(x & 10'h2aa), ^x}, at index x[9:3]:
    // changing address bit t changes the bank by one of four vectors (by t mod 4), any
    // three of which are independent. Stage s, group c (0..127): butterflies
    // i(u,v) = c with zeros inserted at bits r and r + 1, plus u * 2^r + v * 2^(r+1)
    // (r = min(s, 7)); a(u,v) = i(u,v) with a 0 inserted at bit s, b(u,v) = a(u,v) + 2^s.
    // The eight addresses differ in bit s and two more bits of three different t mod 4,
    // so they are in eight banks. Twiddle k = (i mod 2^s) * 2^(9-s): the same for the
    // four when s <= 7; for s = 8, u adds 256 (W^(k+256) = -i W^k); for s = 9, u adds 128
    // (a second ROM read) and v adds 256.
    function [2:0] bank_of;
        input [9:0] x;
        bank_of = {^(x & 10'h0cc), ^(x & 10'h2aa), ^x};
    endfunction

    // bank `bank`'s 48 bits of a buffer's eight
    function [47:0] bank_word;
        input [383:0] banks;
        input [2:0]   bank;
        begin
            case (bank)
                3'd0:    bank_word = banks[47:0];
                3'd1:    bank_word = banks[95:48];
                3'd2:    bank_word = banks[143:96];
                3'd3:    bank_word = banks[191:144];
                3'd4:    bank_word = banks[239:192];
                3'd5:    bank_word = banks[287:240];
                3'd6:    bank_word = banks[335:288];
                default: bank_word = banks[383:336];
            endcase
        end
    endfunction

    // of eight operands (o = 2m for a(m), 2m + 1 for b(m)), the one in bank `bank`
    function [47:0] in_bank;
        input [23:0]  banks;   // operand o's bank in [3o +: 3]
        input [383:0] values;  // operand o's value in [48o +: 48]
        input [2:0]   bank;
        integer o;
        begin
            in_bank = 48'd0;
            for (o = 0; o < 8; o = o + 1)
                if (banks[3*o +: 3] == bank) in_bank = values[48*o +: 48];
        end
    endfunction

    // (w_im, -w_re): W^(k+256) = -i W^k
    function [31:0] quarter_turn;
        input [31:0] w;
        quarter_turn = {w[15:0], 16'd0 - w[31:16]};
    endfunction

    wire [6:0]  group    = step_reg[6:0];
    wire [3:0]  group_bit = stage_reg < 4'd8 ? stage_reg : 4'd7;  // r
    wire [6:0]  group_low = ~(7'h7f << group_bit);
    wire [8:0]  bfly00   = {group & ~group_low, 2'b00} | {2'b00, group & group_low};
    wire [8:0]  low_mask = ~(9'h1ff << stage_reg);
    wire [8:0]  twid_k   = (bfly00 & low_mask) << (4'd9 - stage_reg);
    wire        fft_issue = state_reg == STATE_FFT && step_reg < 10'd128;
    wire [23:0] fft_bank;   // operand o's bank in [3o +: 3], o = 2m (a) or 2m + 1 (b),
                            // m = u + 2v
    wire [55:0] fft_idx;    // operand o's index in [7o +: 7]

    genvar gm;
    generate
        for (gm = 0; gm < 4; gm = gm + 1) begin : g_bfly_addr
            localparam [1:0] M = gm;
            wire [8:0] bfly = bfly00 | ({8'd0, M[0]} << group_bit) |
                              ({8'd0, M[1]} << (group_bit + 4'd1));
            wire [9:0] addr_a = {bfly & ~low_mask, 1'b0} | {1'b0, bfly & low_mask};
            wire [9:0] addr_b = addr_a | (10'd1 << stage_reg);
            assign fft_bank[6*gm +: 6]   = {bank_of(addr_b), bank_of(addr_a)};
            assign fft_idx[14*gm +: 14]  = {addr_b[9:3], addr_a[9:3]};
        end
    endgenerate

    // ---------------- CFAR magnitude stream ----------------
    // element n = 0 .. 511 + 2(G+T) is the magnitude of bin n - (G+T) (modulo 1024): the
    // cells from the left training window of bin 0 to the right one of bin 511
    wire [7:0] gt        = {4'd0, guard_reg} + {1'b0, train_reg};    // G + T
    wire [8:0] gt2       = {gt, 1'b0};                                // 2(G+T)
    wire [9:0] stream_last = {1'b0, gt2} + 10'd511;
    wire [9:0] cfar_addr = step_reg - {2'd0, gt};
    wire       cfar_issue = state_reg == STATE_CFAR;

    // ---------------- sample buffers: 2 buffers x 8 banks of 128 x {re, im} ----------
    // butterfly pipeline: p1 = operands read, p2 = products, p3 = results written
    reg        p1_valid_reg, p2_valid_reg, p3_valid_reg;
    reg [23:0] p1_bank_reg, p2_bank_reg, p3_bank_reg;   // operand o's bank
    reg [55:0] p1_idx_reg, p2_idx_reg, p3_idx_reg;      // operand o's index
    reg        p1_s8_reg, p1_s9_reg;                    // stage 8, stage 9

    wire [767:0] rd_buf;      // buffer b, bank j: [384b + 48j +: 48]
    wire [383:0] rd_eng = eng_set_reg ? rd_buf[767:384] : rd_buf[383:0];
    wire [31:0]  twiddle_k, twiddle_k128;  // {re, im} of W^k, W^(k+128)
    wire [383:0] fft_result;  // X0 of butterfly m in [96m +: 48], X1 in [96m + 48 +: 48]

    cfar_twiddle_rom u_twiddle (
        .clk(clk), .addr(twid_k),
        .twiddle_re(twiddle_k[31:16]), .twiddle_im(twiddle_k[15:0])
    );
    cfar_twiddle_rom u_twiddle_128 (
        .clk(clk), .addr(twid_k + 9'd128),
        .twiddle_re(twiddle_k128[31:16]), .twiddle_im(twiddle_k128[15:0])
    );

    generate
        for (gm = 0; gm < 4; gm = gm + 1) begin : g_bfly
            localparam [1:0] M = gm;
            // twiddle of butterfly m = u + 2v (see above)
            wire [31:0] base = p1_s9_reg && M[0] ? twiddle_k128 : twiddle_k;
            wire        turn = (p1_s8_reg && M[0]) || (p1_s9_reg && M[1]);
            wire [31:0] w    = turn ? quarter_turn(base) : base;
            cfar_butterfly u_bfly (
                .clk(clk),
                .a(bank_word(rd_eng, p1_bank_reg[6*gm +: 3])),
                .b(bank_word(rd_eng, p1_bank_reg[6*gm + 3 +: 3])),
                .w_re(w[31:16]), .w_im(w[15:0]),
                .x0(fft_result[96*gm +: 48]), .x1(fft_result[96*gm + 48 +: 48])
            );
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            p1_valid_reg <= 1'b0;
            p2_valid_reg <= 1'b0;
            p3_valid_reg <= 1'b0;
        end else begin
            p1_valid_reg <= fft_issue;
            p2_valid_reg <= p1_valid_reg;
            p3_valid_reg <= p2_valid_reg;
        end
        p1_bank_reg <= fft_bank;
        p1_idx_reg  <= fft_idx;
        p1_s8_reg   <= stage_reg == 4'd8;
        p1_s9_reg   <= stage_reg == 4'd9;
        p2_bank_reg <= p1_bank_reg;
        p2_idx_reg  <= p1_idx_reg;
        p3_bank_reg <= p2_bank_reg;
        p3_idx_reg  <= p2_idx_reg;
    end

    wire [2:0] load_bank = bank_of(load_pos);
    // the operands' indexes as 48-bit values, for in_bank
    wire [383:0] fft_idx_wide, p3_idx_wide;

    genvar gb, gs, go;
    generate
        for (go = 0; go < 8; go = go + 1) begin : g_operand
            assign fft_idx_wide[48*go +: 48] = {41'd0, fft_idx[7*go +: 7]};
            assign p3_idx_wide[48*go +: 48]  = {41'd0, p3_idx_reg[7*go +: 7]};
        end
        for (gb = 0; gb < 8; gb = gb + 1) begin : g_bank
            localparam [2:0] BANK = gb;
            // the FFT's read (issue) and write (p3) for this bank, or the CFAR's read
            wire [47:0] rd_pick = in_bank(fft_bank, fft_idx_wide, BANK);
            wire [47:0] wr_idx  = in_bank(p3_bank_reg, p3_idx_wide, BANK);
            wire [47:0] wr_data = in_bank(p3_bank_reg, fft_result, BANK);
            wire [6:0]  rd_addr = state_reg == STATE_FFT ? rd_pick[6:0] : cfar_addr[9:3];
            wire unused_pick = &{1'b0, rd_pick[47:7], wr_idx[47:7]};
            for (gs = 0; gs < 2; gs = gs + 1) begin : g_buf
                localparam SET = gs;
                // the engine writes its buffer during the FFT only; the input the other
                wire eng_here = state_reg == STATE_FFT && eng_set_reg == SET[0];
                cfar_ram #(.ADDR_W(7), .DATA_W(48)) u_ram (
                    .clk(clk),
                    .wr_en(eng_here ? p3_valid_reg
                                    : load_we && in_set_reg == SET[0] && load_bank == BANK),
                    .wr_addr(eng_here ? wr_idx[6:0] : load_pos[9:3]),
                    .wr_data(eng_here ? wr_data : load_data),
                    .rd_addr(rd_addr), .rd_data(rd_buf[384*gs + 48*gb +: 48])
                );
            end
        end
    endgenerate

    // ---------------- CFAR pipeline ----------------
    // c1: bin read. c2: magnitude m(n), into two delay memories. c3: m(n - T) and
    // m(n - G - T) (the cell) back from them; the right training sum R(n) = m(n - T + 1) +
    // .. + m(n) updated. c4: R(n) into a third delay memory. c5: R(n - L) back, L =
    // 2G + T + 1, the left training sum of the same cell: S = R(n) + R(n - L). c6: the
    // threshold product. Cell n - (G + T) is bin n - 2(G + T), detected from n = 2(G + T).
    reg        c1_valid_reg, c2_valid_reg, c3_valid_reg, c4_valid_reg, c5_valid_reg;
    reg        c6_valid_reg;
    reg [2:0]  c1_bank_reg;
    reg [9:0]  c1_n_reg, c2_n_reg, c3_n_reg, c4_n_reg, c5_n_reg;  // stream element n
    reg [23:0] c2_mag_reg, c3_mag_reg;
    reg [30:0] right_sum_reg;     // R(n), n = c4_n_reg
    reg [30:0] c5_right_reg;
    reg [23:0] c4_cell_reg, c5_cell_reg, c6_cell_reg;
    reg [47:0] c6_prod_reg;
    reg [8:0]  c6_bin_reg;
    reg [9:0]  found_reg;     // detections found in the block
    reg        det_we_reg;
    reg [56:0] det_wdata_reg;
    reg [DET_AW-1:0] det_waddr_reg;

    wire [47:0] bin_data = bank_word(rd_eng, c1_bank_reg);
    wire [23:0] bin_re   = bin_data[47:24];
    wire [23:0] bin_im   = bin_data[23:0];
    wire [23:0] abs_re   = bin_re[23] ? 24'd0 - bin_re : bin_re;
    wire [23:0] abs_im   = bin_im[23] ? 24'd0 - bin_im : bin_im;

    wire [7:0]  left_lag = {3'd0, guard_reg, 1'b0} + {1'b0, train_reg} + 8'd1;  // L
    wire [23:0] mag_t_ago, mag_gt_ago;  // m(n - T), m(n - G - T) at c3
    wire [30:0] right_l_ago;            // R(n - L) at c5
    wire        no_train = train_reg == 7'd0;
    wire [23:0] leaving  = c3_n_reg >= {3'd0, train_reg} ? mag_t_ago : 24'd0;
    wire [31:0] train_sum = no_train ? 32'd0 : {1'b0, c5_right_reg} + {1'b0, right_l_ago};
    wire [47:0] thr_full = c6_prod_reg >> 12;
    wire        detected = c6_valid_reg && {24'd0, c6_cell_reg} > thr_full;
    wire [8:0]  c5_bin   = c5_n_reg[8:0] - gt2;

    cfar_ram #(.ADDR_W(8), .DATA_W(24)) u_delay_t (
        .clk(clk),
        .wr_en(c2_valid_reg), .wr_addr(c2_n_reg[7:0]), .wr_data(c2_mag_reg),
        .rd_addr(c2_n_reg[7:0] - {1'b0, train_reg}), .rd_data(mag_t_ago)
    );
    cfar_ram #(.ADDR_W(8), .DATA_W(24)) u_delay_gt (
        .clk(clk),
        .wr_en(c2_valid_reg), .wr_addr(c2_n_reg[7:0]), .wr_data(c2_mag_reg),
        .rd_addr(c2_n_reg[7:0] - gt), .rd_data(mag_gt_ago)
    );
    cfar_ram #(.ADDR_W(8), .DATA_W(31)) u_delay_l (
        .clk(clk),
        .wr_en(c4_valid_reg), .wr_addr(c4_n_reg[7:0]), .wr_data(right_sum_reg),
        .rd_addr(c4_n_reg[7:0] - left_lag), .rd_data(right_l_ago)
    );

    always @(posedge clk) begin
        if (rst) begin
            c1_valid_reg <= 1'b0;
            c2_valid_reg <= 1'b0;
            c3_valid_reg <= 1'b0;
            c4_valid_reg <= 1'b0;
            c5_valid_reg <= 1'b0;
            c6_valid_reg <= 1'b0;
            det_we_reg   <= 1'b0;
        end else begin
            c1_valid_reg <= cfar_issue;
            c2_valid_reg <= c1_valid_reg;
            c3_valid_reg <= c2_valid_reg;
            c4_valid_reg <= c3_valid_reg;
            c5_valid_reg <= c4_valid_reg;
            c6_valid_reg <= c5_valid_reg && c5_n_reg >= {1'b0, gt2};
            det_we_reg   <= detected && found_reg < MAX_DET_B;
        end
        c1_bank_reg <= bank_of(cfar_addr);
        c1_n_reg   <= step_reg;
        c2_n_reg   <= c1_n_reg;
        c2_mag_reg <= abs_re + abs_im;
        c3_n_reg   <= c2_n_reg;
        c3_mag_reg <= c2_mag_reg;
        if (state_reg == STATE_FFT)
            right_sum_reg <= 31'd0;
        else if (c3_valid_reg && !no_train)
            right_sum_reg <= right_sum_reg + {7'd0, c3_mag_reg} - {7'd0, leaving};
        c4_n_reg     <= c3_n_reg;
        c4_cell_reg  <= gt == 8'd0 ? c3_mag_reg : mag_gt_ago;
        c5_n_reg     <= c4_n_reg;
        c5_right_reg <= right_sum_reg;
        c5_cell_reg  <= c4_cell_reg;
        c6_prod_reg  <= {16'd0, train_sum} * {32'd0, alpha_reg};
        c6_cell_reg  <= c5_cell_reg;
        c6_bin_reg   <= c5_bin;
        if (state_reg == STATE_FFT)
            found_reg <= 10'd0;
        else if (detected)
            found_reg <= found_reg + 10'd1;
        det_waddr_reg <= found_reg[DET_AW-1:0];
        det_wdata_reg <= {c6_bin_reg, c6_cell_reg, thr_full[23:0]};
    end

    // ---------------- detection list and result ----------------
    reg  [DET_AW-1:0] emit_idx_reg, emit_idx_next;  // entries loaded so far
    reg  [79:0] emit_sh_reg, emit_sh_next;           // bytes to send, first in [79:72]
    reg  [3:0]  emit_left_reg, emit_left_next;       // bytes left in emit_sh
    reg  [9:0]  emit_ent_reg, emit_ent_next;         // entries loaded (0..listed)
    reg  [9:0]  emit_listed_reg, emit_listed_next;   // entries listed in the result
    reg         emit_active_next;
    reg         emit_done;                           // the result's last byte goes out
    reg  [7:0]  out_data_reg, out_data_next;
    reg         out_valid_reg, out_valid_next;
    reg         out_last_reg, out_last_next;
    wire [56:0] det_rdata;

    cfar_ram #(.ADDR_W(DET_AW), .DATA_W(57)) u_det (
        .clk(clk),
        .wr_en(det_we_reg), .wr_addr(det_waddr_reg), .wr_data(det_wdata_reg),
        .rd_addr(emit_idx_reg), .rd_data(det_rdata)
    );

    wire [9:0] listed = found_reg < MAX_DET_B ? found_reg : MAX_DET_B;
    wire [79:0] det_bytes = {7'd0, det_rdata[56:48], 8'd0, det_rdata[47:24],
                             8'd0, det_rdata[23:0]};
    wire out_free = !out_valid_reg || m_axis_tready;

    assign m_axis_tdata  = out_data_reg;
    assign m_axis_tkeep  = 1'b1;
    assign m_axis_tvalid = out_valid_reg;
    assign m_axis_tlast  = out_last_reg;
    assign m_axis_tuser  = 1'b0;

    always @* begin
        emit_idx_next  = emit_idx_reg;
        emit_sh_next   = emit_sh_reg;
        emit_left_next = emit_left_reg;
        emit_ent_next  = emit_ent_reg;
        emit_listed_next = emit_listed_reg;
        emit_active_next = emit_active_reg;
        out_data_next  = out_data_reg;
        out_valid_next = out_valid_reg && !m_axis_tready;
        out_last_next  = out_last_reg;
        emit_done      = 1'b0;
        if (state_reg == STATE_DRAIN) begin
            emit_sh_next   = {1'b0, bid_reg, 6'd0, found_reg, 6'd0, listed, 16'd0};
            emit_left_next = 4'd8;
            emit_idx_next  = {DET_AW{1'b0}};
            emit_ent_next  = 10'd0;
            emit_listed_next = listed;
            emit_active_next = eng_release;
        end else if (emit_active_reg && out_free) begin
            out_data_next  = emit_sh_reg[79:72];
            out_valid_next = 1'b1;
            out_last_next  = emit_left_reg == 4'd1 && emit_ent_reg == emit_listed_reg;
            emit_done      = out_last_next;
            emit_active_next = !emit_done;
            if (emit_left_reg == 4'd1 && emit_ent_reg != emit_listed_reg) begin
                emit_sh_next   = det_bytes;
                emit_left_next = 4'd10;
                emit_idx_next  = emit_idx_reg + 1'b1;
                emit_ent_next  = emit_ent_reg + 10'd1;
            end else begin
                emit_sh_next   = {emit_sh_reg[71:0], 8'd0};
                emit_left_next = emit_left_reg - 4'd1;
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            out_valid_reg   <= 1'b0;
            emit_active_reg <= 1'b0;
        end else begin
            out_valid_reg   <= out_valid_next;
            emit_active_reg <= emit_active_next;
        end
        emit_listed_reg <= emit_listed_next;
        emit_idx_reg  <= emit_idx_next;
        emit_sh_reg   <= emit_sh_next;
        emit_left_reg <= emit_left_next;
        emit_ent_reg  <= emit_ent_next;
        out_data_reg  <= out_data_next;
        out_last_reg  <= out_last_next;
    end

endmodule
`default_nettype wire
