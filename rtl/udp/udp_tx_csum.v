`default_nettype none
// udp_tx_csum: UDP checksum mode 1 ("computed") in front of udp_ip_tx. A datagram whose
// s_hdr_csum_mode is 1 is stored (payload into a BUF_BYTES ring buffer) while its checksum
// is summed (pseudo-header + UDP header + the first hdr_len payload bytes, one's
// complement, 0 sent as 0xFFFF); it is then forwarded with m_hdr_csum = the checksum and
// m_hdr_csum_mode = 2. The ring holds two datagrams at once: while the reader forwards
// datagram N from the ring, the writer takes the request of N+1 and stores its payload
// behind N (a beat waits only for a free slot), so back-to-back mode-1 datagrams leave at
// line rate: N+1's header is offered the cycle after N's last beat was taken. The
// per-datagram state is one header (the writer's, until udp_ip_tx takes it) and the
// reader's end of its datagram in the ring (end address, last beat's tkeep and tuser).
// Datagrams with modes 0 and 2 pass straight through with no added cycle (header and
// payload combinational), so the zero-wait property holds for them. Order is kept: a
// mode-1 datagram waits for the payload of the straight one before it, and a straight
// header waits while a stored datagram is pending or still being forwarded.
//
// Parameters: DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8, BUF_BYTES (2048, for a
//   1500-byte MTU; at line rate with 1472-byte datagrams the ring holds the rest of N and
//   the start of N+1).
//   A buffer of 0 bytes is built by udp_tx without this module (see udp_tx).
// Interfaces: cfg_ip (source address of the pseudo-header, taken at the request);
//   s_hdr_* / m_hdr_* the UDP application transmit header (dst_mac, dst_mac_valid,
//   dst_ip, dst_port, src_port, len, csum, csum_mode); s_axis_* / m_axis_* payload.
//   A payload longer than the buffer is consumed whole; what fits (the first BUF_BYTES)
//   is forwarded and its last beat flagged bad (tuser).
// cnt_ev[1:0]: event strobes, one cycle each, for counters kept in stat_counters (read
//   them while rst is low): bit 0 sf_frames (datagrams checksummed), bit 1 sf_overflow
//   (payloads larger than the buffer).
// Latency: modes 0/2: 0 cycles. Mode 1: store and forward: the header is forwarded
//   2 cycles after the payload's last beat was taken (or, when the previous stored
//   datagram is still leaving, the cycle after its last beat), so the first frame byte
//   leaves 3 cycles after it (udp_ip_tx adds one); the payload then follows from the
//   buffer without gaps.
module udp_tx_csum #(
    parameter DATA_W    = 8,
    parameter KEEP_W    = DATA_W / 8,
    parameter BUF_BYTES = 2048
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [31:0]       cfg_ip,

    input  wire              s_hdr_valid,
    output reg               s_hdr_ready,
    input  wire [47:0]       s_hdr_dst_mac,
    input  wire              s_hdr_dst_mac_valid,
    input  wire [31:0]       s_hdr_dst_ip,
    input  wire [15:0]       s_hdr_dst_port,
    input  wire [15:0]       s_hdr_src_port,
    input  wire [15:0]       s_hdr_len,
    input  wire [15:0]       s_hdr_csum,
    input  wire [1:0]        s_hdr_csum_mode,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output reg               s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output reg               m_hdr_valid,
    input  wire              m_hdr_ready,
    output reg  [47:0]       m_hdr_dst_mac,
    output reg               m_hdr_dst_mac_valid,
    output reg  [31:0]       m_hdr_dst_ip,
    output reg  [15:0]       m_hdr_dst_port,
    output reg  [15:0]       m_hdr_src_port,
    output reg  [15:0]       m_hdr_len,
    output reg  [15:0]       m_hdr_csum,
    output reg  [1:0]        m_hdr_csum_mode,

    output reg  [DATA_W-1:0] m_axis_tdata,
    output reg  [KEEP_W-1:0] m_axis_tkeep,
    output reg               m_axis_tvalid,
    input  wire              m_axis_tready,
    output reg               m_axis_tlast,
    output reg               m_axis_tuser,

    output wire [1:0]        cnt_ev
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            udp_tx_csum_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            udp_tx_csum_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (BUF_BYTES != 2048) begin : g_check_buf_bytes
            udp_tx_csum_BUF_BYTES_must_be_2048 u_error ();
        end
    endgenerate

    localparam DEPTH = BUF_BYTES / KEEP_W;
    localparam AW    = $clog2(DEPTH);
    /* verilator lint_off WIDTH */
    localparam [7:0]  KW8  = KEEP_W;
    localparam [15:0] KW16 = KEEP_W;
    /* verilator lint_on WIDTH */
    localparam        ODD  = KEEP_W % 2;  // lane parity alternates between beats

    // writer: takes a mode-1 request, stores its payload into the ring while summing it,
    // then offers the header (mode 2, computed checksum) once the reader holds it
    localparam [1:0] STATE_IDLE  = 2'd0,  // no datagram being stored
                     STATE_STORE = 2'd1,  // the payload goes into the ring
                     STATE_SUM   = 2'd2,  // the checksum is folded
                     STATE_HOLD  = 2'd3;  // the header waits for the reader, then is offered
    reg  [1:0] state_reg, state_next;
    reg        handed_reg;     // STATE_HOLD: the reader has this datagram's end (header may go)
    reg        pass_pend_reg;  // a straight-through datagram's payload is still flowing

    // the writer's datagram: header, checksum, end in the ring
    reg [47:0] dst_mac_reg;
    reg        dst_mac_valid_reg;
    reg [31:0] dst_ip_reg;
    reg [15:0] dst_port_reg, src_port_reg, len_reg;
    reg [15:0] csum_reg;
    reg [KEEP_W-1:0] last_keep_reg;
    reg              last_user_reg;

    // ring. The writer and the reader never use the same slot in one cycle (the reader
    // reads only beats stored before, the writer writes only free slots): no_rw_check
    // tells Yosys so, which spares the read-during-write bypass it would add around the RAM.
    (* no_rw_check *)
    reg [DATA_W-1:0] ring_mem [0:DEPTH-1];
    reg [AW:0]       wr_ptr_reg, rd_ptr_reg;  // beats modulo 2 * DEPTH (one wrap bit)
    reg              overflow_reg;  // the datagram did not fit
    reg [15:0]       len_left_reg;  // payload bytes of hdr_len still to sum
    reg              odd_beat_reg;
    reg [31:0]       sum_reg;

    // reader: streams one stored datagram from rd_ptr_reg up to (not including) rd_end_reg
    reg              rd_active_reg;  // a stored datagram is being forwarded
    reg              rd_more_reg;    // beats still to read from the ring
    reg [AW-1:0]     rd_end_reg;
    reg [KEEP_W-1:0] rd_keep_reg;
    reg              rd_user_reg;

    // straight through only when nothing is stored or being forwarded (order is kept)
    wire straight = (s_hdr_csum_mode != 2'd1);
    wire idle_all = (state_reg == STATE_IDLE) && !rd_active_reg;
    always @* begin
        s_hdr_ready         = 1'b0;
        m_hdr_valid         = 1'b0;
        m_hdr_dst_mac       = s_hdr_dst_mac;
        m_hdr_dst_mac_valid = s_hdr_dst_mac_valid;
        m_hdr_dst_ip        = s_hdr_dst_ip;
        m_hdr_dst_port      = s_hdr_dst_port;
        m_hdr_src_port      = s_hdr_src_port;
        m_hdr_len           = s_hdr_len;
        m_hdr_csum          = s_hdr_csum;
        m_hdr_csum_mode     = s_hdr_csum_mode;
        if (state_reg == STATE_HOLD) begin
            m_hdr_valid         = handed_reg;
            m_hdr_dst_mac       = dst_mac_reg;
            m_hdr_dst_mac_valid = dst_mac_valid_reg;
            m_hdr_dst_ip        = dst_ip_reg;
            m_hdr_dst_port      = dst_port_reg;
            m_hdr_src_port      = src_port_reg;
            m_hdr_len           = len_reg;
            m_hdr_csum          = csum_reg;
            m_hdr_csum_mode     = 2'd2;
        end else if (state_reg == STATE_IDLE) begin
            if (straight) begin
                m_hdr_valid = s_hdr_valid && !rd_active_reg;
                s_hdr_ready = m_hdr_ready && !rd_active_reg;
            end else begin
                s_hdr_ready = !pass_pend_reg;
            end
        end
    end
    wire s_hdr_fire = s_hdr_valid && s_hdr_ready;

    // payload sum of one beat: bytes within hdr_len, even offsets weigh 256
    wire       len_left_le = (len_left_reg <= KW16);
    wire [7:0] beat_bytes  = len_left_le ? len_left_reg[7:0] : KW8;
    reg  [19:0] beat_sum;
    integer i;
    always @* begin
        beat_sum = 20'd0;
        for (i = 0; i < KEEP_W; i = i + 1) begin
            if (s_axis_tkeep[i] && (i < beat_bytes)) begin
                if (((i % 2) == 1) ^ (ODD != 0 && odd_beat_reg))
                    beat_sum = beat_sum + {12'd0, s_axis_tdata[i*8+:8]};
                else
                    beat_sum = beat_sum + {4'd0, s_axis_tdata[i*8+:8], 8'd0};
            end
        end
    end

    // pseudo-header (source and destination IP, protocol 17, UDP length) and UDP header
    // (ports, length; checksum field 0) words, summed at the request: the payload sum
    // starts from this value, so only a fold is left at the end. The UDP length is
    // counted twice (pseudo-header and header): 2 * (len + 8) = 2 * len + 16.
    wire [19:0] hdr_sum = {4'd0, cfg_ip[31:16]} + {4'd0, cfg_ip[15:0]}
                        + {4'd0, s_hdr_dst_ip[31:16]} + {4'd0, s_hdr_dst_ip[15:0]}
                        + {4'd0, s_hdr_src_port} + {4'd0, s_hdr_dst_port}
                        + {3'd0, s_hdr_len, 1'b0} + 20'd33;
    wire [16:0] fold1 = {1'b0, sum_reg[15:0]} + {1'b0, sum_reg[31:16]};
    wire [15:0] fold2 = fold1[15:0] + {15'd0, fold1[16]};
    wire [15:0] csum  = ~fold2;

    // forward reader: the output register is the RAM's read register
    reg              out_valid_reg;
    reg [DATA_W-1:0] out_data_reg;
    reg              out_last_reg;
    wire rd_en  = rd_active_reg && rd_more_reg && (!out_valid_reg || m_axis_tready);
    wire [AW:0] rd_ptr_inc  = rd_ptr_reg + 1'b1;
    wire        rd_last     = (rd_ptr_inc[AW-1:0] == rd_end_reg);  // rd_ptr_reg is the datagram's last
    wire rd_done = rd_active_reg && out_valid_reg && out_last_reg && m_axis_tready;  // its last beat is taken

    always @* begin
        if (rd_active_reg) begin
            m_axis_tdata  = out_data_reg;
            m_axis_tkeep  = out_last_reg ? rd_keep_reg : {KEEP_W{1'b1}};
            m_axis_tvalid = out_valid_reg;
            m_axis_tlast  = out_last_reg;
            m_axis_tuser  = out_last_reg && rd_user_reg;
        end else begin
            m_axis_tdata  = s_axis_tdata;
            m_axis_tkeep  = s_axis_tkeep;
            m_axis_tvalid = pass_pend_reg && s_axis_tvalid;
            m_axis_tlast  = s_axis_tlast;
            m_axis_tuser  = s_axis_tuser;
        end
    end

    // a beat needs a free slot: the ring is full when the pointers differ by DEPTH.
    // Full while the reader is idle, the ring holds only the datagram being stored: it
    // is larger than the buffer, and its further beats are consumed and dropped. (From
    // the writer's STATE_STORE to its hand-over the reader only finishes older datagrams.)
    wire full     = (wr_ptr_reg[AW-1:0] == rd_ptr_reg[AW-1:0]) && (wr_ptr_reg[AW] != rd_ptr_reg[AW]);
    wire fits     = !(full && !rd_active_reg);
    wire can_take = !full || !rd_active_reg;
    always @* begin
        if (pass_pend_reg) s_axis_tready = m_axis_tready;
        else               s_axis_tready = (state_reg == STATE_STORE) && can_take;
    end
    wire store_fire = (state_reg == STATE_STORE) && s_axis_tvalid && can_take;

    // the reader takes the writer's datagram once the previous one has left (in the
    // cycle its last beat is taken, so the next header is offered the cycle after)
    wire hand = ((state_reg == STATE_SUM) || (state_reg == STATE_HOLD && !handed_reg)) &&
                (!rd_active_reg || rd_done);

    always @(posedge clk) begin
        if (store_fire && fits) ring_mem[wr_ptr_reg[AW-1:0]] <= s_axis_tdata;
        if (rd_en) begin
            out_data_reg <= ring_mem[rd_ptr_reg[AW-1:0]];
            out_last_reg <= rd_last;
        end
    end

    assign cnt_ev = {(state_reg == STATE_SUM) && overflow_reg, state_reg == STATE_SUM};

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_IDLE:  if (s_hdr_fire && !straight) state_next = STATE_STORE;
            STATE_STORE: if (store_fire && s_axis_tlast) state_next = STATE_SUM;
            STATE_SUM:   state_next = STATE_HOLD;
            default:     if (m_hdr_valid && m_hdr_ready) state_next = STATE_IDLE;  // STATE_HOLD
        endcase
    end

    always @(posedge clk) begin
        state_reg <= state_next;
        // straight-through bookkeeping
        if (pass_pend_reg && s_axis_tvalid && m_axis_tready && s_axis_tlast)
            pass_pend_reg <= 1'b0;
        if (idle_all && straight && s_hdr_fire) pass_pend_reg <= 1'b1;

        // writer
        if (state_reg == STATE_IDLE && s_hdr_fire && !straight) begin
            dst_mac_reg       <= s_hdr_dst_mac;
            dst_mac_valid_reg <= s_hdr_dst_mac_valid;
            dst_ip_reg        <= s_hdr_dst_ip;
            dst_port_reg      <= s_hdr_dst_port;
            src_port_reg      <= s_hdr_src_port;
            len_reg           <= s_hdr_len;
            len_left_reg      <= s_hdr_len;
            sum_reg           <= {12'd0, hdr_sum};
            odd_beat_reg      <= 1'b0;
            overflow_reg      <= 1'b0;
        end
        if (store_fire) begin
            sum_reg      <= sum_reg + {12'd0, beat_sum};
            len_left_reg <= len_left_le ? 16'd0 : len_left_reg - KW16;
            odd_beat_reg <= !odd_beat_reg;
            if (fits) begin
                wr_ptr_reg    <= wr_ptr_reg + 1'b1;
                last_keep_reg <= s_axis_tkeep;
            end else begin
                overflow_reg <= 1'b1;
            end
            if (s_axis_tlast) begin
                last_user_reg <= s_axis_tuser || !fits || overflow_reg;
                if (!fits) last_keep_reg <= {KEEP_W{1'b1}};
            end
        end
        if (state_reg == STATE_SUM) begin
            csum_reg   <= (csum == 16'd0) ? 16'hffff : csum;  // 0 is sent as 0xFFFF
            handed_reg <= hand;
        end
        if (state_reg == STATE_HOLD && hand) handed_reg <= 1'b1;

        // reader
        if (hand) begin
            rd_active_reg <= 1'b1;
            rd_more_reg   <= 1'b1;
            rd_end_reg    <= wr_ptr_reg[AW-1:0];  // stable from STATE_SUM until the header is taken
            rd_keep_reg   <= last_keep_reg;
            rd_user_reg   <= last_user_reg;
            out_valid_reg <= 1'b0;
        end else if (rd_active_reg) begin
            if (rd_en) begin
                out_valid_reg <= 1'b1;
                rd_ptr_reg    <= rd_ptr_inc;
                if (rd_last) rd_more_reg <= 1'b0;
            end else if (m_axis_tready) begin
                out_valid_reg <= 1'b0;
            end
            if (rd_done) rd_active_reg <= 1'b0;
        end

        if (rst) begin
            state_reg     <= STATE_IDLE;
            pass_pend_reg <= 1'b0;
            rd_active_reg <= 1'b0;
            wr_ptr_reg    <= {(AW + 1) {1'b0}};
            rd_ptr_reg    <= {(AW + 1) {1'b0}};
        end
    end
endmodule
`default_nettype wire
