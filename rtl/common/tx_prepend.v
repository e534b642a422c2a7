`default_nettype none
// tx_prepend: emits a frame made of a HDR_BYTES-byte header followed by a payload stream,
// with no buffering: the header's first beat leaves the cycle after `start`, the payload
// is realigned on the fly (the header need not be a whole number of beats) and passed
// through combinationally (tready/tvalid of the payload follow the output).
//
// Used by the zero-wait UDP/IP transmitter, ICMP echo and the raw transmitter.
//
// Parameters
//   DATA_W     datapath width (8, 16, 32, 64, ...); KEEP_W = DATA_W/8
//   HDR_BYTES  header length in bytes (>= KEEP_W; >= 2 at 8 bits)
//   CHECK_LEN  1: the payload must carry exactly `start_len` bytes (see below);
//              0: the payload ends at its tlast (start_len ignored)
//   LEN_LATE   (8 bits, more than 2 header bytes, CHECK_LEN = 1) 1: `start_len` is read
//              from the cycle after `start` to the frame's end, not at `start`: the user
//              holds it there (so it may come from a register loaded at `start`), and the
//              payload's byte count is compared with it (an up counter cleared at the start,
//              instead of a down counter loaded with it); 0: read at `start`
//   HDR_MSB    (8 bits only) 1: `hdr` holds byte 0 in its top bits (hdr[HDR_BYTES*8-1 -: 8]),
//              so a header of big-endian fields is their plain concatenation (no byte
//              reversal for a cycle-based simulator to redo every cycle; the same wires in
//              hardware); 0: byte 0 in hdr[7:0]
//
// Interfaces
//   start, start_drop, start_len   begin a frame (or, with start_drop, consume one payload
//                                  and emit nothing). Assert only when can_start = 1.
//   can_start                      1 when idle (a register: the cycle after a frame's last
//                                  beat is taken at the earliest)
//   hdr[HDR_BYTES*8-1:0]           header, byte 0 (first on the wire) in hdr[7:0] (in the
//                                  top byte with HDR_MSB = 1); read
//                                  while the header beats are emitted: the user holds it
//                                  from the cycle after `start` while hdr_free = 0
//   hdr_free                       1 when `hdr` is not needed in this cycle or later for the
//                                  current frame (a function of registers only, so a user
//                                  may load its header registers with it as enable)
//   hdr_free_nx                    the value hdr_free takes in the next cycle (so that a
//                                  user may keep its own load enable as a flip-flop)
//   s_axis_*                       payload (AXI4-Stream, tuser on the last beat = bad)
//   m_axis_*                       frame (AXI4-Stream, tuser on the last beat = aborted)
//   ev_sent, ev_abort, ev_long     one-cycle strobes: a frame ended good; a frame ended with
//                                  tuser (payload shorter than start_len, or tuser on its
//                                  last beat); the payload was longer than start_len
//
// Length rules (CHECK_LEN=1): a payload whose tlast comes before start_len bytes aborts the
// frame at that point (tuser=1 on the output's last beat); a longer payload is cut at
// start_len bytes (the frame ends there, good) and the rest of it is consumed and dropped.
//
// Latency: first header beat one cycle after `start`; payload beats combinational
// (0 cycles) except the last output beat, which comes one cycle after the last payload
// beat when the realignment leaves a remainder. Back to back, a frame's first beat comes
// two cycles after the previous frame's last (one idle cycle: can_start is registered).
module tx_prepend #(
    parameter DATA_W    = 8,
    parameter KEEP_W    = DATA_W / 8,
    parameter HDR_BYTES = 42,
    parameter CHECK_LEN = 1,
    parameter LEN_LATE  = 0,
    parameter HDR_MSB   = 0
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire                   start,
    input  wire                   start_drop,
    input  wire [15:0]            start_len,
    output wire                   can_start,
    output wire                   hdr_free,
    output wire                   hdr_free_nx,
    input  wire [HDR_BYTES*8-1:0] hdr,

    input  wire [DATA_W-1:0]      s_axis_tdata,
    input  wire [KEEP_W-1:0]      s_axis_tkeep,
    input  wire                   s_axis_tvalid,
    output reg                    s_axis_tready,
    input  wire                   s_axis_tlast,
    input  wire                   s_axis_tuser,

    output reg  [DATA_W-1:0]      m_axis_tdata,
    output reg  [KEEP_W-1:0]      m_axis_tkeep,
    output reg                    m_axis_tvalid,
    input  wire                   m_axis_tready,
    output reg                    m_axis_tlast,
    output reg                    m_axis_tuser,

    output reg                    ev_sent,
    output reg                    ev_abort,
    output reg                    ev_long
);
    localparam OFF = HDR_BYTES % KEEP_W;  // header bytes sharing a beat with the payload
    localparam HB  = HDR_BYTES / KEEP_W;  // whole header beats
    localparam SH  = (KEEP_W - OFF) * 8;  // bit offset of the carried bytes
    localparam HPW = (HB + 1) * DATA_W;
    localparam CW  = $clog2(2 * KEEP_W + 1);  // width of byte counts within a beat
    // sized copies of the integer parameters (all small, so the truncation is exact)
    /* verilator lint_off WIDTH */
    localparam [CW-1:0] KWC  = KEEP_W;
    localparam [CW-1:0] OFFC = OFF;
    localparam [15:0]   KW16 = KEEP_W;
    // length compares against the small constants KEEP_W, 2*KEEP_W, 3*KEEP_W: a zero
    // test of the high bits and an LB-bit compare (no 16-bit carry chain)
    localparam LB = $clog2(3 * KEEP_W + 2);  // 3*KEEP_W < 2^LB - 1: no constant compare
    localparam [LB-1:0] K1L = KEEP_W;
    localparam [LB-1:0] K2L = 2 * KEEP_W;
    localparam [LB-1:0] K3L = 3 * KEEP_W;
    localparam [7:0]    HBL  = HB - 1;
    /* verilator lint_on WIDTH */

    localparam [2:0] S_IDLE = 3'd0, S_HDR = 3'd1, S_PAY = 3'd2, S_FLUSH = 3'd3, S_DROP = 3'd4;

    reg  [2:0]        st;
    reg  [7:0]        bc;        // header beat index (wide paths; one-hot `oh` at 8 bits)
    wire              pre_last;  // the header beat on the output is the last but one
    reg  [15:0]       rem;       // payload bytes still expected
    reg               rem_le;    // rem <= KEEP_W (registered, off the handshake paths)
    reg               rem_le2;   // rem <= 2*KEEP_W (registered: keeps the subtractor and
                                 // the compare off each other's paths)
    reg  [CW-1:0]     rem8;      // min(rem, KEEP_W)
    reg               rem_zero;  // the payload is empty (set at start)
    // LEN_LATE at 8 bits: payload bytes taken + 2, compared with the held start_len (in the
    // payload phase rem >= 1 there, so min(rem, 1) is 1)
    localparam        UPC = (LEN_LATE != 0) && (KEEP_W == 1) && (CHECK_LEN != 0);
    reg  [15:0]       c2;
    wire [CW-1:0]     r8 = UPC ? {{(CW - 1) {1'b0}}, 1'b1} : rem8;
    reg  [DATA_W-1:0] carry;     // previous payload beat (or the header's tail)
    reg  [CW-1:0]     resid;     // bytes of the flush beat
    reg               abort_r;   // flush beat ends an aborted frame
    reg               drop_r;    // consume the rest of the payload after the frame

    /* verilator lint_off UNUSEDSIGNAL */
    wire [HPW-1:0]      hpad   = {{(HPW - HDR_BYTES * 8) {1'b0}}, hdr};  // 8 bits: tail only
    /* verilator lint_on UNUSEDSIGNAL */
    wire [DATA_W-1:0]   hbeat;
    wire                len_ld;  // start_len is read into the length registers
    wire [DATA_W-1:0]   htail  = hpad[HB*DATA_W+:DATA_W];
    // double-width windows: only the DATA_W bits at offset SH of each are used
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2*DATA_W-1:0] cat    = {s_axis_tdata, carry};
    wire [2*DATA_W-1:0] catf   = {{DATA_W{1'b0}}, carry};
    wire [2*DATA_W-1:0] tailsh = {{DATA_W{1'b0}}, htail} << SH;
    /* verilator lint_on UNUSEDSIGNAL */

    // Header beat selection. At 8 bits the header byte index is one-hot (`oh`, one
    // flip-flop per header byte, shifted as bytes are taken) and the next byte is an
    // AND-OR of the header bytes (about two header bits per LUT4 and a shallow OR tree,
    // smaller and faster than a binary HDR_BYTES:1 multiplexer), registered as the byte
    // before it is taken (`hpre`): the output byte is `hdr`'s byte 0 in the first header
    // cycle, then that register, so the AND-OR tree is off the output path (Fmax of the
    // paths through the transmit arbiter). The last header byte is thus latched before
    // it goes out, so that `hdr` may be released for the next frame while that byte is
    // still on the output (a zero-length payload ends the frame on it; see `hold` below).
    // Wider paths select whole beats by index.
    generate
        if (KEEP_W == 1) begin : g_oh
            reg  [HB-1:0] oh;
            reg  [7:0]    hpre;   // the header byte at `oh` (bytes 1..HB-1; 0 after them)
            // the header byte after the one at `o` (AND-OR over the one-hot index). A
            // function called under the enable, so that a cycle-based simulator computes
            // it only when a header byte is taken (same logic in hardware)
            function [7:0] hsel(input [HDR_BYTES*8-1:0] h, input [HB-1:0] o);
                integer f;
                begin
                    hsel = 8'd0;
                    for (f = 0; f < HB - 1; f = f + 1)
                        hsel = hsel | (h[((HDR_MSB != 0) ? (HB - 2 - f) : (f + 1)) * 8 +: 8] &
                                       {8{o[f]}});
                end
            endfunction
            // a header byte is taken. Before the last one the output is always valid (the
            // zero-length cases only wait on the last), so the shift of all but the last
            // bit is enabled without the payload handshake (a short enable path)
            wire          adv  = (st == S_HDR) && m_axis_tvalid && m_axis_tready;
            wire          adv0 = (st == S_HDR) && m_axis_tready && !last_hb;
            wire [HB-1:0] oh_sh = {oh[HB-2:0], 1'b0};
            // the last header byte taken (as adv at last_hb): with CHECK_LEN the output is
            // valid there unless the frame ends on that byte (zl: then S_IDLE clears), so
            // the clear needs no tvalid
            wire          hclr = last_hb && ((CHECK_LEN == 0) ? adv :
                                             ((st == S_HDR) && m_axis_tready && !zl));
            always @(posedge clk) begin
                if (adv0) oh[HB-2:0] <= oh_sh[HB-2:0];
                if (adv) oh[HB-1] <= oh_sh[HB-1];
                if (st == S_IDLE) oh <= {{(HB - 1) {1'b0}}, 1'b1};  // ready for a start
                // cleared after the last header byte (payload next) and while idle: a
                // synchronous reset, exclusive with adv0 (which needs !last_hb), so that
                // the byte's D input is the AND-OR alone, with no handshake term in it
                if (hclr || st == S_IDLE) hpre <= 8'd0;
                else if (adv0) hpre <= hsel(hdr, oh);
            end
            assign hbeat    = oh[0] ? hdr[((HDR_MSB != 0) ? (HB - 1) : 0) * 8 +: 8] : hpre;
            assign pre_last = oh[HB-2];
            // oh[0]: idle (from its second cycle) or the first header byte on the output;
            // 0 in the payload, where the length registers count
            assign len_ld   = (LEN_LATE != 0) ? oh[0] : (st == S_IDLE);
        end else begin : g_flat
            assign hbeat    = hpad[bc*DATA_W+:DATA_W];
            assign pre_last = (bc + 8'd1 == HBL);
            assign len_ld   = (st == S_IDLE);
        end
    endgenerate

    // bytes present in the input beat
    reg [CW-1:0] in_bytes;
    integer i;
    always @* begin
        in_bytes = {CW{1'b0}};
        for (i = 0; i < KEEP_W; i = i + 1) in_bytes = in_bytes + {{(CW - 1) {1'b0}}, s_axis_tkeep[i]};
    end

    function [KEEP_W-1:0] keep_of(input [CW-1:0] n);
        integer k;
        begin
            for (k = 0; k < KEEP_W; k = k + 1) keep_of[k] = (k < n);
        end
    endfunction

    // payload step (one input beat)
    wire       p_short = (CHECK_LEN != 0) && s_axis_tlast && (!rem_le || in_bytes < r8);
    wire       p_long  = (CHECK_LEN != 0) && rem_le && (!s_axis_tlast || in_bytes > r8);
    wire       p_end   = ((CHECK_LEN != 0) && rem_le) || s_axis_tlast;
    wire [CW-1:0] p_nb = (CHECK_LEN == 0) ? (s_axis_tlast ? in_bytes : KWC)
                                         : (p_short ? in_bytes : r8);
    wire [CW-1:0] p_tot = OFFC + p_nb;
    // a remainder beat is only possible when the header shares a beat with the payload
    wire       p_flush = (OFF != 0) && p_end && (p_tot > KWC);
    wire       p_bad   = p_short || (s_axis_tlast && s_axis_tuser);
    // zero-length payload when the header fills whole beats: the last header beat ends it
    reg        last_hb;  // bc == HB-1, kept as a register
    reg        zl_r;     // rem_zero && last_hb, kept as a register (short handshake paths)
    reg        pz;       // = (st == S_PAY) || (st == S_HDR && zl), kept as a register
    reg        dr;       // = (st == S_DROP), kept as a register
    localparam ZLC     = (OFF == 0) && (CHECK_LEN != 0);
    wire       zl      = ZLC && zl_r;
    wire       z_long  = !s_axis_tlast || (in_bytes != {CW{1'b0}});
    // no length given (CHECK_LEN=0) and the header fills whole beats: the last header
    // beat waits for the first payload beat, and ends the frame if that beat is empty
    wire       zr      = (OFF == 0) && (CHECK_LEN == 0) && last_hb;
    wire       zr_end  = s_axis_tlast && (in_bytes == {CW{1'b0}});

    // low bits of rem - KEEP_W (all that rem8 needs when rem <= 2*KEEP_W): a CW-bit adder
    wire [CW-1:0] rem_m = rem[CW-1:0] - KWC;

    // a header beat is taken that does not end the frame (S_HDR && !fin && the output's
    // handshake): from the state, zl / zr and the output's tready only (the payload's
    // valid only where the last header beat waits for the payload, zr)
    wire hadv = (st == S_HDR) && m_axis_tready &&
                (zr ? (s_axis_tvalid && !zr_end) : !zl);

    reg fin;  // the frame's last beat is taken this cycle
    reg to_drop;
    always @* begin
        m_axis_tdata  = hbeat;
        m_axis_tkeep  = {KEEP_W{1'b1}};
        m_axis_tvalid = 1'b0;
        m_axis_tlast  = 1'b0;
        m_axis_tuser  = 1'b0;
        s_axis_tready = 1'b0;
        fin           = 1'b0;
        to_drop       = 1'b0;
        ev_sent       = 1'b0;
        ev_abort      = 1'b0;
        ev_long       = 1'b0;
        case (st)
            S_HDR: begin
                if (zl) begin
                    m_axis_tvalid = s_axis_tvalid;
                    s_axis_tready = m_axis_tready;
                    m_axis_tlast  = 1'b1;
                    m_axis_tuser  = s_axis_tlast && s_axis_tuser;
                    if (s_axis_tvalid && m_axis_tready) begin
                        fin      = 1'b1;
                        to_drop  = !s_axis_tlast;
                        ev_long  = z_long;
                        ev_sent  = !m_axis_tuser;
                        ev_abort = m_axis_tuser;
                    end
                end else if (zr) begin
                    m_axis_tvalid = s_axis_tvalid;
                    if (zr_end) begin
                        s_axis_tready = m_axis_tready;
                        m_axis_tlast  = 1'b1;
                        m_axis_tuser  = s_axis_tuser;
                        if (s_axis_tvalid && m_axis_tready) begin
                            fin      = 1'b1;
                            ev_sent  = !s_axis_tuser;
                            ev_abort = s_axis_tuser;
                        end
                    end
                end else begin
                    m_axis_tvalid = 1'b1;
                end
            end
            S_PAY: begin
                // at 8 bits the one-hot header select is all zero here (its bit has
                // shifted out with the last header byte): an OR instead of a multiplexer
                m_axis_tdata  = (KEEP_W == 1) ? (hbeat | s_axis_tdata) : cat[SH+:DATA_W];
                m_axis_tvalid = s_axis_tvalid;
                s_axis_tready = m_axis_tready;
                if (p_end && !p_flush) begin
                    m_axis_tlast = 1'b1;
                    m_axis_tuser = p_bad;
                    // an aborted frame's last beat keeps at least one byte
                    m_axis_tkeep = keep_of((p_tot == {CW{1'b0}} && p_bad) ? {{(CW - 1) {1'b0}}, 1'b1}
                                                                           : p_tot);
                end
                if (s_axis_tvalid && m_axis_tready) begin
                    ev_long = p_long;
                    if (p_end && !p_flush) begin
                        fin      = 1'b1;
                        to_drop  = !s_axis_tlast;
                        ev_sent  = !p_bad;
                        ev_abort = p_bad;
                    end
                end
            end
            S_FLUSH: begin
                m_axis_tdata  = catf[SH+:DATA_W];
                m_axis_tvalid = 1'b1;
                m_axis_tlast  = 1'b1;
                m_axis_tuser  = abort_r;
                m_axis_tkeep  = keep_of(resid);
                if (m_axis_tready) begin
                    fin      = 1'b1;
                    to_drop  = drop_r;
                    ev_sent  = !abort_r;
                    ev_abort = abort_r;
                end
            end
            S_DROP: begin
                s_axis_tready = 1'b1;
            end
            default: ;
        endcase
        // with a length the same tready from two registers (one LUT level)
        if (CHECK_LEN != 0) s_axis_tready = (pz && m_axis_tready) || dr;
    end

    // a register only: a frame starts when the previous one has ended (one idle cycle
    // between back-to-back frames, hidden on the wire by the MAC's inter-frame gap), and
    // no handshake input reaches the start logic of the user
    assign can_start = (st == S_IDLE);
    // `hdr` is needed while header beats go out, except that at 8 bits the last header
    // byte of a frame that may end on it (zero-length payload) comes from `hlast`; kept as a
    // register (hold) so that users can take it as a load enable
    localparam ALLOWZ = (OFF == 0) && (KEEP_W == 1) && (HB > 8);
    reg hold;
    wire hold_nx;
    assign hdr_free    = !hold;
    assign hdr_free_nx = !hold_nx;
    wire sl_hi0 = ~|start_len[15:LB];
    wire sl_le1 = sl_hi0 && (start_len[LB-1:0] <= K1L);
    wire sl_le2 = sl_hi0 && (start_len[LB-1:0] <= K2L);

    always @(posedge clk) begin
        case (st)
            S_HDR: begin
                if (fin) st <= to_drop ? S_DROP : S_IDLE;
                if (hadv) begin  // (exclusive with fin)
                    bc      <= bc + 8'd1;
                    last_hb <= pre_last;
                    zl_r    <= pre_last && rem_zero;
                    if (last_hb) begin
                        st    <= S_PAY;
                        carry <= tailsh[DATA_W-1:0];
                    end
                end
            end
            S_PAY: begin
                if (s_axis_tvalid && m_axis_tready) begin
                    carry <= s_axis_tdata;
                    if (UPC) begin
                        // the next byte is the last expected: bytes taken + 1 == start_len
                        c2     <= c2 + 16'd1;
                        rem_le <= rem_le || (c2 == start_len);
                    end else begin
                        rem     <= rem - KW16;  // only read while !rem_le (may wrap after)
                        rem_le  <= rem_le || rem_le2;
                        rem_le2 <= rem_le2 || (~|rem[15:LB] && rem[LB-1:0] <= K3L);
                        rem8    <= rem_le ? {CW{1'b0}} : rem_le2 ? rem_m : KWC;
                    end
                    if (p_end) begin
                        if (p_flush) begin
                            st      <= S_FLUSH;
                            resid   <= p_tot - KWC;
                            abort_r <= p_bad;
                            drop_r  <= !s_axis_tlast;
                        end else begin
                            st <= to_drop ? S_DROP : S_IDLE;
                        end
                    end
                end
            end
            S_FLUSH: begin
                if (m_axis_tready) st <= drop_r ? S_DROP : S_IDLE;
            end
            S_DROP: begin
                if (s_axis_tvalid && s_axis_tlast) st <= S_IDLE;
            end
            default: ;
        endcase
        hold <= hold_nx;
        // the frame's bookkeeping is loaded in every idle cycle (an enable from registers
        // only, not from `start`): the last load is the one at the start
        if (st == S_IDLE) begin
            bc       <= 8'd0;
            last_hb  <= (HBL == 8'd0);
            zl_r     <= (HBL == 8'd0) && (start_len == 16'd0);
        end
        if (len_ld) begin
            c2       <= 16'd2;
            rem      <= start_len;
            rem_le   <= sl_le1;
            rem_le2  <= sl_le2;
            rem8     <= sl_le1 ? start_len[CW-1:0] : KWC;
            rem_zero <= (start_len == 16'd0);
        end
        if (start) st <= start_drop ? S_DROP : S_HDR;  // users start only when can_start
        if (rst) st <= S_IDLE;
    end
    // `hdr` is held from a start (not a drop) and released with the last header beat, or
    // (ALLOWZ) with the last but one when the frame may end on the latched last byte.
    // Before the last header beat the output is always valid, and with ALLOWZ a frame whose
    // last beat waits for the payload has released `hdr` already: so the release needs no
    // valid at 8 bits. Written as the next value, which users may register (hdr_free_nx)
    wire hold_rel = (st == S_HDR) && m_axis_tready &&
                    ((pre_last && ALLOWZ && (CHECK_LEN == 0 || rem_zero)) ||
                     (last_hb && (ALLOWZ || m_axis_tvalid)));
    assign hold_nx = !rst && (start ? !start_drop : (hold && !hold_rel));

    // pz and dr: the next values of their state decodes, written without the state, so
    // that neither enable sees the state or the header-side logic. pz (S_PAY, or S_HDR on
    // a zero-length frame's last header beat) clears when a payload beat that ends the
    // frame is taken (p_end: in that S_HDR case the length is 0, so rem_le is 1) and is
    // set by the header step onto the payload; dr (S_DROP) clears on the dropped payload's
    // last beat and is set by a frame's end that leaves payload behind (fin && to_drop)
    always @(posedge clk) begin
        if (pz) begin
            if (s_axis_tvalid && m_axis_tready && p_end) pz <= 1'b0;
        end else if (hadv && (last_hb || (ZLC && pre_last && rem_zero))) begin
            pz <= 1'b1;
        end
        if (dr) begin
            if (s_axis_tvalid && s_axis_tlast) dr <= 1'b0;
        end else if (fin && to_drop) begin
            dr <= 1'b1;
        end
        if (start) begin
            pz <= !start_drop && ZLC && (HBL == 8'd0) && (start_len == 16'd0);
            dr <= start_drop;
        end
        if (rst) begin
            pz <= 1'b0;
            dr <= 1'b0;
        end
    end
endmodule
`default_nettype wire
