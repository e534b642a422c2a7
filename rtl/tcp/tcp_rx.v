`default_nettype none
// tcp_rx: TCP receive parser. Checks a segment, stages its payload, and hands one
// descriptor per good segment to tcp_ctl.
//
// Input: ip_rx's TCP port: header bus (src_mac, src_ip, dst_ip, len = IP payload bytes,
//   broadcast) and the IP payload (TCP header and data), exactly len bytes, tuser on the
//   last beat = bad (frame cut or flagged by the MAC).
// Checks, each with its own event strobe; a failing segment is dropped whole (nothing of
//   it is handed on, its staged bytes are given back):
//   bad_len   len < 20, data offset < 5, or data offset * 4 > len (bit 1)
//   bad_csum  TCP checksum over the pseudo-header (addresses, protocol 6, len) and the
//             segment does not fold to 0xFFFF (bit 2)
//   err_in    tuser on the last beat, or the payload ended before len bytes (bit 3)
//   broadcast the IP destination was a broadcast address (bit 4)
//   bit 0: good segments handed on.
// Options between byte 20 and the data offset: MSS (kind 2, length 4) and window scale
//   (kind 3, length 3) are captured; NOP skipped; EOL, or a length below 2, ends the
//   parse; any other option is skipped by its length. Never beyond the data offset.
// Staging: the payload (bytes after the data offset) is written into a ring of
//   2^STAGE_LOG2 bytes as it arrives; a header is taken only when the ring has room for
//   len bytes. A bad segment's bytes are given back at its end. A good segment's bytes
//   stay until tcp_ctl pulses seg_release (after it took the descriptor and copied what
//   it wanted through the read port stage_rd_*: data one cycle after stage_rd_en).
// Descriptor (m_seg_*, valid/ready, held until taken; the next segment is parsed
//   meanwhile and waits at its end): src_mac, src_ip, src_port, dst_port, seq, ack,
//   flags (bit 0 FIN, 1 SYN, 2 RST, 3 PSH, 4 ACK, 5 URG, 6 ECE, 7 CWR), wnd, mss
//   (0 = no MSS option), wscale_valid/wscale, pay_addr (ring address of the first
//   payload byte), pay_len.
// Parameters: DATA_W (8, tested; 64 is not built yet), KEEP_W = DATA_W/8, STAGE_LOG2
//   (11, tested: 2 KiB, the largest segment fits).
// Latency: the descriptor one cycle after the segment's last byte.
module tcp_rx #(
    parameter integer DATA_W     = 8,
    parameter integer KEEP_W     = DATA_W / 8,
    parameter integer STAGE_LOG2 = 11
) (
    input  wire                  clk,
    input  wire                  rst,
    // from ip_rx
    input  wire                  s_hdr_valid,
    output wire                  s_hdr_ready,
    input  wire [47:0]           s_hdr_src_mac,
    input  wire [31:0]           s_hdr_src_ip,
    input  wire [31:0]           s_hdr_dst_ip,
    input  wire [15:0]           s_hdr_len,
    input  wire                  s_hdr_broadcast,
    input  wire [DATA_W-1:0]     s_axis_tdata,
    input  wire [KEEP_W-1:0]     s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire                  s_axis_tuser,
    // segment descriptor to tcp_ctl
    output wire                  m_seg_valid,
    input  wire                  m_seg_ready,
    output wire [47:0]           m_seg_src_mac,
    output wire [31:0]           m_seg_src_ip,
    output wire [15:0]           m_seg_src_port,
    output wire [15:0]           m_seg_dst_port,
    output wire [31:0]           m_seg_seq,
    output wire [31:0]           m_seg_ack,
    output wire [7:0]            m_seg_flags,
    output wire [15:0]           m_seg_wnd,
    output wire [15:0]           m_seg_mss,
    output wire                  m_seg_wscale_valid,
    output wire [3:0]            m_seg_wscale,
    output wire [STAGE_LOG2-1:0] m_seg_pay_addr,
    output wire [15:0]           m_seg_pay_len,
    // staging ring read port and release
    input  wire                  stage_rd_en,
    input  wire [STAGE_LOG2-1:0] stage_rd_addr,
    output wire [7:0]            stage_rd_data,
    input  wire                  seg_release,
    output wire [4:0]            cnt_ev
);
    generate
        if (DATA_W != 8) begin : g_check_data_w
            tcp_rx_DATA_W_must_be_8 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            tcp_rx_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (STAGE_LOG2 != 11) begin : g_check_stage_log2
            tcp_rx_STAGE_LOG2_must_be_11 u_error ();
        end
    endgenerate

    localparam integer SW = STAGE_LOG2;
    localparam [1:0] STATE_IDLE = 2'd0, STATE_BODY = 2'd1, STATE_END = 2'd2, STATE_HOLD = 2'd3;
    localparam [1:0] OPT_KIND = 2'd0, OPT_LEN = 2'd1, OPT_BODY = 2'd2, OPT_DONE = 2'd3;

    reg [1:0]    state_reg, state_next;
    reg [47:0]   src_mac_reg;
    reg [31:0]   src_ip_reg;
    reg [15:0]   len_reg;
    reg          bcast_reg;
    reg [15:0]   idx_reg;
    reg [31:0]   sum_reg;
    reg [15:0]   sport_reg, dport_reg, wnd_reg, mss_reg;
    reg [31:0]   seq_reg, ack_reg;
    reg [3:0]    doff_reg;
    reg [7:0]    flags_reg;
    reg          ws_valid_reg;
    reg [3:0]    ws_reg;
    reg [1:0]    opt_state_reg;
    reg [7:0]    opt_kind_reg, opt_len_reg, opt_cnt_reg;
    reg          bad_len_reg, err_reg;
    reg [SW:0]   wr_ptr_reg;   // next payload byte's ring position (SW+1 bits: full/empty)
    reg [SW:0]   wr_base_reg;  // start of the segment being parsed
    reg [SW:0]   rd_base_reg;  // oldest byte not released
    reg [SW:0]   held_end_reg; // end of the segment tcp_ctl has taken
    reg          held_reg;
    // descriptor
    reg          seg_valid_reg;
    reg [47:0]   d_mac_reg;
    reg [31:0]   d_ip_reg, d_seq_reg, d_ack_reg;
    reg [15:0]   d_sport_reg, d_dport_reg, d_wnd_reg, d_mss_reg, d_len_reg;
    reg [7:0]    d_flags_reg;
    reg          d_ws_valid_reg;
    reg [3:0]    d_ws_reg;
    reg [SW:0]   d_addr_reg;   // ring position (SW+1 bits) of the first payload byte
    reg [4:0]    ev_reg;

    reg [7:0] stage_mem [0:(1<<SW)-1];
    reg [7:0] stage_q_reg;

    wire [SW:0] used  = wr_base_reg - rd_base_reg;
    wire [16:0] room  = (17'd1 << SW) - {{(16-SW){1'b0}}, used};
    assign s_hdr_ready   = (state_reg == STATE_IDLE) && ({1'b0, s_hdr_len} <= room);
    assign s_axis_tready = (state_reg == STATE_BODY);

    wire        beat     = s_axis_tvalid && (state_reg == STATE_BODY);
    wire [7:0]  b        = s_axis_tdata[7:0];
    wire [15:0] hlen     = {10'd0, doff_reg, 2'b00};
    wire        in_opts  = (idx_reg >= 16'd20) && (idx_reg < hlen);
    wire        in_pay   = (idx_reg >= 16'd20) && (idx_reg >= hlen) && !bad_len_reg;
    // the checksum: pseudo-header sum at the header's handshake, then each byte
    wire [31:0] pseudo   = {16'd0, s_hdr_src_ip[31:16]} + {16'd0, s_hdr_src_ip[15:0]} +
                           {16'd0, s_hdr_dst_ip[31:16]} + {16'd0, s_hdr_dst_ip[15:0]} +
                           32'd6 + {16'd0, s_hdr_len};
    wire [16:0] fold1    = {1'b0, sum_reg[31:16]} + {1'b0, sum_reg[15:0]};
    wire [15:0] fold2    = fold1[15:0] + {15'd0, fold1[16]};
    wire        csum_ok  = (fold2 == 16'hFFFF);
    wire        last_beat = beat && s_axis_tlast;
    wire        short_end = (idx_reg + 16'd1 != len_reg);

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_IDLE: if (s_hdr_valid && s_hdr_ready) state_next = STATE_BODY;
            STATE_BODY: if (last_beat) state_next = STATE_END;
            STATE_END:  state_next = STATE_HOLD;
            default:    if (!seg_valid_reg || m_seg_ready) state_next = STATE_IDLE;
        endcase
    end

    reg good;
    always @* good = !bad_len_reg && !err_reg && csum_ok && !bcast_reg;

    always @(posedge clk) begin
        state_reg <= state_next;
        ev_reg    <= 5'd0;
        if (stage_rd_en) stage_q_reg <= stage_mem[stage_rd_addr];
        // a release gives back the segment taken before; a descriptor taken in the same
        // cycle is held from then on (the take wins the flag)
        if (seg_release && held_reg) begin
            held_reg    <= 1'b0;
            rd_base_reg <= held_end_reg;
        end
        if (m_seg_valid && m_seg_ready) begin
            seg_valid_reg <= 1'b0;
            held_reg      <= 1'b1;
            held_end_reg  <= d_addr_reg + d_len_reg[SW:0];
        end
        case (state_reg)
            STATE_IDLE: if (s_hdr_valid && s_hdr_ready) begin
                src_mac_reg   <= s_hdr_src_mac;
                src_ip_reg    <= s_hdr_src_ip;
                len_reg       <= s_hdr_len;
                bcast_reg     <= s_hdr_broadcast;
                idx_reg       <= 16'd0;
                sum_reg       <= pseudo;
                mss_reg       <= 16'd0;
                ws_valid_reg  <= 1'b0;
                ws_reg        <= 4'd0;
                doff_reg      <= 4'd5;
                opt_state_reg <= OPT_KIND;
                bad_len_reg   <= (s_hdr_len < 16'd20);
                err_reg       <= 1'b0;
                wr_ptr_reg    <= wr_base_reg;
            end
            STATE_BODY: if (beat) begin
                idx_reg <= idx_reg + 16'd1;
                if (idx_reg < len_reg)
                    sum_reg <= sum_reg + (idx_reg[0] ? {24'd0, b} : {16'd0, b, 8'd0});
                case (idx_reg)
                    16'd0:  sport_reg[15:8] <= b;
                    16'd1:  sport_reg[7:0]  <= b;
                    16'd2:  dport_reg[15:8] <= b;
                    16'd3:  dport_reg[7:0]  <= b;
                    16'd4:  seq_reg[31:24]  <= b;
                    16'd5:  seq_reg[23:16]  <= b;
                    16'd6:  seq_reg[15:8]   <= b;
                    16'd7:  seq_reg[7:0]    <= b;
                    16'd8:  ack_reg[31:24]  <= b;
                    16'd9:  ack_reg[23:16]  <= b;
                    16'd10: ack_reg[15:8]   <= b;
                    16'd11: ack_reg[7:0]    <= b;
                    16'd12: begin
                        doff_reg <= b[7:4];
                        if (b[7:4] < 4'd5 || {10'd0, b[7:4], 2'b00} > len_reg) bad_len_reg <= 1'b1;
                    end
                    16'd13: flags_reg       <= b;
                    16'd14: wnd_reg[15:8]   <= b;
                    16'd15: wnd_reg[7:0]    <= b;
                    default: ;
                endcase
                if (in_opts) begin
                    case (opt_state_reg)
                        OPT_KIND:
                            if (b == 8'd0) opt_state_reg <= OPT_DONE;
                            else if (b != 8'd1) begin
                                opt_kind_reg  <= b;
                                opt_state_reg <= OPT_LEN;
                            end
                        OPT_LEN:
                            if (b < 8'd2) opt_state_reg <= OPT_DONE;
                            else begin
                                opt_len_reg   <= b;
                                opt_cnt_reg   <= b - 8'd2;
                                opt_state_reg <= (b == 8'd2) ? OPT_KIND : OPT_BODY;
                            end
                        OPT_BODY: begin
                            if (opt_kind_reg == 8'd2 && opt_len_reg == 8'd4) begin
                                if (opt_cnt_reg == 8'd2) mss_reg[15:8] <= b;
                                else mss_reg[7:0] <= b;
                            end
                            if (opt_kind_reg == 8'd3 && opt_len_reg == 8'd3) begin
                                ws_valid_reg <= 1'b1;
                                ws_reg       <= (b > 8'd14) ? 4'd14 : b[3:0];
                            end
                            opt_cnt_reg <= opt_cnt_reg - 8'd1;
                            if (opt_cnt_reg == 8'd1) opt_state_reg <= OPT_KIND;
                        end
                        default: ;
                    endcase
                end
                if (in_pay) begin
                    stage_mem[wr_ptr_reg[SW-1:0]] <= b;
                    wr_ptr_reg <= wr_ptr_reg + 1'b1;
                end
                if (s_axis_tlast && (s_axis_tuser || short_end)) err_reg <= 1'b1;
            end
            STATE_END: begin
                // a bad segment gives its staged bytes back (wr_base stays)
                if (bcast_reg)        ev_reg[4] <= 1'b1;
                else if (bad_len_reg) ev_reg[1] <= 1'b1;
                else if (err_reg)     ev_reg[3] <= 1'b1;
                else if (!csum_ok)    ev_reg[2] <= 1'b1;
            end
            default: if (!seg_valid_reg || m_seg_ready) begin
                if (good) begin
                    ev_reg[0]      <= 1'b1;
                    seg_valid_reg  <= 1'b1;
                    wr_base_reg    <= wr_ptr_reg;
                    d_mac_reg      <= src_mac_reg;
                    d_ip_reg       <= src_ip_reg;
                    d_sport_reg    <= sport_reg;
                    d_dport_reg    <= dport_reg;
                    d_seq_reg      <= seq_reg;
                    d_ack_reg      <= ack_reg;
                    d_flags_reg    <= flags_reg;
                    d_wnd_reg      <= wnd_reg;
                    d_mss_reg      <= mss_reg;
                    d_ws_valid_reg <= ws_valid_reg;
                    d_ws_reg       <= ws_reg;
                    d_addr_reg     <= wr_base_reg;
                    d_len_reg      <= len_reg - hlen;
                end
            end
        endcase
        if (rst) begin
            state_reg     <= STATE_IDLE;
            seg_valid_reg <= 1'b0;
            held_reg      <= 1'b0;
            wr_base_reg   <= {(SW+1){1'b0}};
            rd_base_reg   <= {(SW+1){1'b0}};
            ev_reg        <= 5'd0;
        end
    end

    assign m_seg_valid        = seg_valid_reg;
    assign m_seg_src_mac      = d_mac_reg;
    assign m_seg_src_ip       = d_ip_reg;
    assign m_seg_src_port     = d_sport_reg;
    assign m_seg_dst_port     = d_dport_reg;
    assign m_seg_seq          = d_seq_reg;
    assign m_seg_ack          = d_ack_reg;
    assign m_seg_flags        = d_flags_reg;
    assign m_seg_wnd          = d_wnd_reg;
    assign m_seg_mss          = d_mss_reg;
    assign m_seg_wscale_valid = d_ws_valid_reg;
    assign m_seg_wscale       = d_ws_reg;
    assign m_seg_pay_addr     = d_addr_reg[SW-1:0];
    assign m_seg_pay_len      = d_len_reg;
    assign stage_rd_data      = stage_q_reg;
    assign cnt_ev             = ev_reg;

    wire unused = &{1'b0, s_axis_tkeep, opt_len_reg[7:3]};
endmodule
`default_nettype wire
