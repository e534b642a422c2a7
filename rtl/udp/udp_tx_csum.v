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
// Parameters: DATA_W, KEEP_W = DATA_W/8, BUF_BYTES (power of two, >= the largest
//   datagram, 2048 for a 1500-byte MTU; at line rate with 1472-byte datagrams the ring
//   holds the rest of N and the start of N+1).
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
    localparam DEPTH = BUF_BYTES / KEEP_W;
    localparam AW    = $clog2(DEPTH);
    /* verilator lint_off WIDTH */
    localparam [7:0]  KW8  = KEEP_W;
    localparam [15:0] KW16 = KEEP_W;
    /* verilator lint_on WIDTH */
    localparam        ODD  = KEEP_W % 2;  // lane parity alternates between beats

    // writer: takes a mode-1 request, stores its payload into the ring while summing it,
    // then offers the header (mode 2, computed checksum) once the reader holds it
    localparam [1:0] W_IDLE = 2'd0, W_STORE = 2'd1, W_SUM = 2'd2, W_HOLD = 2'd3;
    reg [1:0] ws;
    reg       handed;     // W_HOLD: the reader has this datagram's end (header may go)
    reg       pass_pend;  // a straight-through datagram's payload is still flowing

    // the writer's datagram: header, checksum, end in the ring
    reg [47:0] r_dmac;
    reg        r_dmac_v;
    reg [31:0] r_dip;
    reg [15:0] r_dport, r_sport, r_len;
    reg [15:0] r_csum;
    reg [KEEP_W-1:0] w_keep;
    reg              w_user;

    // ring. The writer and the reader never use the same slot in one cycle (the reader
    // reads only beats stored before, the writer writes only free slots): no_rw_check
    // tells Yosys so, which spares the read-during-write bypass it would add around the RAM.
    (* no_rw_check *)
    reg [DATA_W-1:0] mem [0:DEPTH-1];
    reg [AW:0]       wr_ptr, rd_ptr;  // beats modulo 2 * DEPTH (one wrap bit)
    reg              ovf;
    reg [15:0]       rem;
    reg              odd_beat;
    reg [31:0]       acc;

    // reader: streams one stored datagram from rd_ptr up to (not including) rd_end
    reg              rd_act;   // a stored datagram is being forwarded
    reg              rd_left;  // beats still to read from the ring
    reg [AW-1:0]     rd_end;
    reg [KEEP_W-1:0] rd_keep;
    reg              rd_user;

    // straight through only when nothing is stored or being forwarded (order is kept)
    wire straight = (s_hdr_csum_mode != 2'd1);
    wire idle_all = (ws == W_IDLE) && !rd_act;
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
        if (ws == W_HOLD) begin
            m_hdr_valid         = handed;
            m_hdr_dst_mac       = r_dmac;
            m_hdr_dst_mac_valid = r_dmac_v;
            m_hdr_dst_ip        = r_dip;
            m_hdr_dst_port      = r_dport;
            m_hdr_src_port      = r_sport;
            m_hdr_len           = r_len;
            m_hdr_csum          = r_csum;
            m_hdr_csum_mode     = 2'd2;
        end else if (ws == W_IDLE) begin
            if (straight) begin
                m_hdr_valid = s_hdr_valid && !rd_act;
                s_hdr_ready = m_hdr_ready && !rd_act;
            end else begin
                s_hdr_ready = !pass_pend;
            end
        end
    end
    wire s_hdr_fire = s_hdr_valid && s_hdr_ready;

    // payload sum of one beat: bytes within hdr_len, even offsets weigh 256
    wire       rem_le = (rem <= KW16);
    wire [7:0] rem8   = rem_le ? rem[7:0] : KW8;
    reg  [19:0] beat_sum;
    integer i;
    always @* begin
        beat_sum = 20'd0;
        for (i = 0; i < KEEP_W; i = i + 1) begin
            if (s_axis_tkeep[i] && (i < rem8)) begin
                if (((i % 2) == 1) ^ (ODD != 0 && odd_beat))
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
    wire [19:0] ph  = {4'd0, cfg_ip[31:16]} + {4'd0, cfg_ip[15:0]}
                    + {4'd0, s_hdr_dst_ip[31:16]} + {4'd0, s_hdr_dst_ip[15:0]}
                    + {4'd0, s_hdr_src_port} + {4'd0, s_hdr_dst_port}
                    + {3'd0, s_hdr_len, 1'b0} + 20'd33;
    wire [31:0] tot = acc;
    wire [16:0] f1   = {1'b0, tot[15:0]} + {1'b0, tot[31:16]};
    wire [15:0] f2   = f1[15:0] + {15'd0, f1[16]};
    wire [15:0] fin  = ~f2;

    // forward reader: the output register is the RAM's read register
    reg              ov;
    reg [DATA_W-1:0] o_data;
    reg              o_last;
    wire rd_en  = rd_act && rd_left && (!ov || m_axis_tready);
    wire [AW:0] rd_next = rd_ptr + 1'b1;
    wire        rd_lastb = (rd_next[AW-1:0] == rd_end);  // rd_ptr is the datagram's last
    wire rd_fin = rd_act && ov && o_last && m_axis_tready;  // its last beat is taken

    always @* begin
        if (rd_act) begin
            m_axis_tdata  = o_data;
            m_axis_tkeep  = o_last ? rd_keep : {KEEP_W{1'b1}};
            m_axis_tvalid = ov;
            m_axis_tlast  = o_last;
            m_axis_tuser  = o_last && rd_user;
        end else begin
            m_axis_tdata  = s_axis_tdata;
            m_axis_tkeep  = s_axis_tkeep;
            m_axis_tvalid = pass_pend && s_axis_tvalid;
            m_axis_tlast  = s_axis_tlast;
            m_axis_tuser  = s_axis_tuser;
        end
    end

    // a beat needs a free slot: the ring is full when the pointers differ by DEPTH.
    // Full while the reader is idle, the ring holds only the datagram being stored: it
    // is larger than the buffer, and its further beats are consumed and dropped. (From
    // the writer's W_STORE to its hand-over the reader only finishes older datagrams.)
    wire full     = (wr_ptr[AW-1:0] == rd_ptr[AW-1:0]) && (wr_ptr[AW] != rd_ptr[AW]);
    wire fits     = !(full && !rd_act);
    wire can_take = !full || !rd_act;
    always @* begin
        if (pass_pend) s_axis_tready = m_axis_tready;
        else           s_axis_tready = (ws == W_STORE) && can_take;
    end
    wire store_fire = (ws == W_STORE) && s_axis_tvalid && can_take;

    // the reader takes the writer's datagram once the previous one has left (in the
    // cycle its last beat is taken, so the next header is offered the cycle after)
    wire hand = ((ws == W_SUM) || (ws == W_HOLD && !handed)) && (!rd_act || rd_fin);

    always @(posedge clk) begin
        if (store_fire && fits) mem[wr_ptr[AW-1:0]] <= s_axis_tdata;
        if (rd_en) begin
            o_data <= mem[rd_ptr[AW-1:0]];
            o_last <= rd_lastb;
        end
    end

    assign cnt_ev = {(ws == W_SUM) && ovf, ws == W_SUM};

    always @(posedge clk) begin
        // straight-through bookkeeping
        if (pass_pend && s_axis_tvalid && m_axis_tready && s_axis_tlast)
            pass_pend <= 1'b0;
        if (idle_all && straight && s_hdr_fire) pass_pend <= 1'b1;

        // writer
        case (ws)
            W_IDLE: if (s_hdr_fire && !straight) begin
                ws       <= W_STORE;
                r_dmac   <= s_hdr_dst_mac;
                r_dmac_v <= s_hdr_dst_mac_valid;
                r_dip    <= s_hdr_dst_ip;
                r_dport  <= s_hdr_dst_port;
                r_sport  <= s_hdr_src_port;
                r_len    <= s_hdr_len;
                rem      <= s_hdr_len;
                acc      <= {12'd0, ph};
                odd_beat <= 1'b0;
                ovf      <= 1'b0;
            end
            W_STORE: if (store_fire) begin
                acc      <= acc + {12'd0, beat_sum};
                rem      <= rem_le ? 16'd0 : rem - KW16;
                odd_beat <= !odd_beat;
                if (fits) begin
                    wr_ptr <= wr_ptr + 1'b1;
                    w_keep <= s_axis_tkeep;
                end else begin
                    ovf <= 1'b1;
                end
                if (s_axis_tlast) begin
                    ws     <= W_SUM;
                    w_user <= s_axis_tuser || !fits || ovf;
                    if (!fits) w_keep <= {KEEP_W{1'b1}};
                end
            end
            W_SUM: begin
                r_csum <= (fin == 16'd0) ? 16'hffff : fin;
                ws     <= W_HOLD;
                handed <= hand;
            end
            W_HOLD: begin
                if (hand) handed <= 1'b1;
                if (m_hdr_valid && m_hdr_ready) ws <= W_IDLE;
            end
            default: ws <= W_IDLE;
        endcase

        // reader
        if (hand) begin
            rd_act  <= 1'b1;
            rd_left <= 1'b1;
            rd_end  <= wr_ptr[AW-1:0];  // stable from W_SUM until the header is taken
            rd_keep <= w_keep;
            rd_user <= w_user;
            ov      <= 1'b0;
        end else if (rd_act) begin
            if (rd_en) begin
                ov     <= 1'b1;
                rd_ptr <= rd_next;
                if (rd_lastb) rd_left <= 1'b0;
            end else if (m_axis_tready) begin
                ov <= 1'b0;
            end
            if (rd_fin) rd_act <= 1'b0;
        end

        if (rst) begin
            ws              <= W_IDLE;
            pass_pend       <= 1'b0;
            rd_act          <= 1'b0;
            wr_ptr          <= {(AW + 1) {1'b0}};
            rd_ptr          <= {(AW + 1) {1'b0}};
        end
    end
endmodule
`default_nettype wire
