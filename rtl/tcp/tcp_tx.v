`default_nettype none
// tcp_tx: TCP segment transmitter. Builds one whole Ethernet frame (no FCS) per segment
// descriptor: Ethernet header, IPv4 header (its checksum computed), TCP header (with the
// MSS and window-scale options when asked) and the payload read from the send buffer, with the TCP checksum
// over the pseudo-header, header and payload.
//
// Descriptor (s_seg_*, valid/ready; ready while idle): dst_mac, dst_ip, src_port,
//   dst_port, seq, ack, flags (bit 0 FIN, 1 SYN, 2 RST, 3 PSH, 4 ACK), wnd, mss_opt
//   (1: append the option MSS = mss), ws_opt (1: append NOP and the option window
//   scale = ws, RFC 7323; after the MSS option when both), pay_sid and pay_off (the payload's first byte is at
//   send-buffer address {pay_sid, pay_off}; the offset wraps inside the session's
//   2^BUF_LOG2 bytes), pay_len.
// Send buffer read port: buf_rd_en, buf_rd_addr; buf_rd_data one cycle after buf_rd_en,
//   held while buf_rd_en is low (tcp_app_tx's memory).
// Output m_axis_*: the frame, byte lane 0 first, gap-free once started when m_axis_tready
//   allows (the payload byte after each one taken is read as it is taken).
// The payload is read twice: once to sum it (pay_len cycles), then to send it.
// IPv4: version 4, IHL 5, TOS 0, an identification counter, DF = cfg_df, TTL = cfg_ttl,
//   protocol 6, source cfg_ip; Ethernet source cfg_mac, EtherType 0x0800.
// Parameters: DATA_W (8, tested), KEEP_W = DATA_W/8, SID_W (session number bits, 1 to 8;
//   1, 3, 6 and 8 tested), BUF_LOG2 (send buffer bytes per session, log2: 9 to 11; 9 and
//   11 tested).
// cnt_ev[0]: frames sent (at the last beat).
// Latency: first frame byte pay_len + 3 cycles after the descriptor is taken.
module tcp_tx #(
    parameter integer DATA_W   = 8,
    parameter integer KEEP_W   = DATA_W / 8,
    parameter integer SID_W    = 3,
    parameter integer BUF_LOG2 = 11
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire [47:0]               cfg_mac,
    input  wire [31:0]               cfg_ip,
    input  wire [7:0]                cfg_ttl,
    input  wire                      cfg_df,
    input  wire                      s_seg_valid,
    output wire                      s_seg_ready,
    input  wire [47:0]               s_seg_dst_mac,
    input  wire [31:0]               s_seg_dst_ip,
    input  wire [15:0]               s_seg_src_port,
    input  wire [15:0]               s_seg_dst_port,
    input  wire [31:0]               s_seg_seq,
    input  wire [31:0]               s_seg_ack,
    input  wire [7:0]                s_seg_flags,
    input  wire [15:0]               s_seg_wnd,
    input  wire                      s_seg_mss_opt,
    input  wire [15:0]               s_seg_mss,
    input  wire                      s_seg_ws_opt,
    input  wire [3:0]                s_seg_ws,
    input  wire [SID_W-1:0]          s_seg_pay_sid,
    input  wire [BUF_LOG2-1:0]       s_seg_pay_off,
    input  wire [15:0]               s_seg_pay_len,
    output wire                      buf_rd_en,
    output wire [SID_W+BUF_LOG2-1:0] buf_rd_addr,
    input  wire [7:0]                buf_rd_data,
    output wire [DATA_W-1:0]         m_axis_tdata,
    output wire [KEEP_W-1:0]         m_axis_tkeep,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready,
    output wire                      m_axis_tlast,
    output wire                      m_axis_tuser,
    output wire [0:0]                cnt_ev
);
    generate
        if (DATA_W != 8) begin : g_check_data_w
            tcp_tx_DATA_W_must_be_8 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            tcp_tx_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (SID_W < 1 || SID_W > 8) begin : g_check_sid_w
            tcp_tx_SID_W_must_be_1_to_8 u_error ();
        end
        if (BUF_LOG2 < 9 || BUF_LOG2 > 11) begin : g_check_buf_log2
            tcp_tx_BUF_LOG2_must_be_9_to_11 u_error ();
        end
    endgenerate

    localparam [1:0] STATE_IDLE = 2'd0, STATE_SUM = 2'd1, STATE_CSUM = 2'd2, STATE_SEND = 2'd3;
    localparam integer HMAX = 62;  // header bytes with the MSS and window-scale options

    reg [1:0]          state_reg, state_next;
    reg [47:0]         mac_reg;
    reg [31:0]         ip_reg, seq_reg, ack_reg;
    reg [15:0]         sport_reg, dport_reg, wnd_reg, mss_reg, len_reg, id_reg;
    reg [7:0]          flags_reg;
    reg                opt_reg, ws_opt_reg;
    reg [3:0]          ws_reg;
    reg [SID_W-1:0]    sid_reg;
    reg [BUF_LOG2-1:0] ptr_reg;
    reg [BUF_LOG2-1:0] off0_reg;   // the payload's first offset, for the second read
    reg [15:0]         cnt_reg;    // SUM: bytes read; SEND: frame byte index
    reg                sum_v_reg;  // SUM: buf_rd_data holds a byte to add
    reg                sum_odd_reg;
    reg [31:0]         sum_reg;
    reg [15:0]         tcp_csum_reg, ip_csum_reg;
    reg                ev_reg;

    // options: MSS (4 bytes), NOP + window scale (4 bytes), packed from the first
    wire [1:0]  opt_n    = {1'b0, opt_reg} + {1'b0, ws_opt_reg};  // option words
    wire [31:0] ws_word  = {8'h01, 8'h03, 8'h03, 4'd0, ws_reg};
    wire [31:0] mss_word = {16'h0204, mss_reg};
    wire [63:0] opts     = opt_reg ? {mss_word, ws_opt_reg ? ws_word : 32'd0} :
                                     {ws_opt_reg ? ws_word : 32'd0, 32'd0};
    wire [15:0] hlen     = 16'd54 + {12'd0, opt_n, 2'b00};
    wire [15:0] tcp_len  = 16'd20 + {12'd0, opt_n, 2'b00} + len_reg;
    wire [15:0] ip_total = tcp_len + 16'd20;
    wire [7:0]  tcp_hw   = {4'd5 + {2'b00, opt_n}, 4'h0};  // data offset 5 to 7 words

    function [15:0] fold;
        input [31:0] s;
        reg   [16:0] t;
        begin
            t    = {1'b0, s[31:16]} + {1'b0, s[15:0]};
            fold = t[15:0] + {15'd0, t[16]};
        end
    endfunction

    // header words summed with the pseudo-header (the payload's sum is added in SUM)
    wire [31:0] hdr_sum = {16'd0, cfg_ip[31:16]} + {16'd0, cfg_ip[15:0]} +
                          {16'd0, ip_reg[31:16]} + {16'd0, ip_reg[15:0]} + 32'd6 +
                          {16'd0, tcp_len} + {16'd0, sport_reg} + {16'd0, dport_reg} +
                          {16'd0, seq_reg[31:16]} + {16'd0, seq_reg[15:0]} +
                          {16'd0, ack_reg[31:16]} + {16'd0, ack_reg[15:0]} +
                          {16'd0, tcp_hw, flags_reg} + {16'd0, wnd_reg} +
                          {16'd0, opts[63:48]} + {16'd0, opts[47:32]} +
                          {16'd0, opts[31:16]} + {16'd0, opts[15:0]};
    wire [31:0] ip_sum  = 32'h4500 + {16'd0, ip_total} + {16'd0, id_reg} +
                          (cfg_df ? 32'h4000 : 32'd0) + {16'd0, cfg_ttl, 8'd6} +
                          {16'd0, cfg_ip[31:16]} + {16'd0, cfg_ip[15:0]} +
                          {16'd0, ip_reg[31:16]} + {16'd0, ip_reg[15:0]};

    wire [HMAX*8-1:0] hdr = {
        mac_reg, cfg_mac, 16'h0800,
        8'h45, 8'h00, ip_total, id_reg, (cfg_df ? 16'h4000 : 16'h0000), cfg_ttl, 8'd6,
        ip_csum_reg, cfg_ip, ip_reg,
        sport_reg, dport_reg, seq_reg, ack_reg, tcp_hw, flags_reg, wnd_reg, tcp_csum_reg,
        16'h0000, opts
    };
    wire [5:0] hidx     = 6'd61 - cnt_reg[5:0];
    wire [7:0] hdr_byte = hdr[hidx*8 +: 8];

    wire        take     = m_axis_tvalid && m_axis_tready;
    wire        in_hdr   = (cnt_reg < hlen);
    wire [15:0] end_idx  = hlen + len_reg - 16'd1;
    // SEND: read the next payload byte when the byte before it is taken
    wire        send_rd  = (state_reg == STATE_SEND) && take && (cnt_reg + 16'd1 >= hlen) &&
                           (cnt_reg < end_idx);
    wire        sum_rd   = (state_reg == STATE_SUM) && (cnt_reg < len_reg);

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_IDLE: if (s_seg_valid) state_next = STATE_SUM;
            STATE_SUM:  if (cnt_reg == len_reg && !sum_v_reg) state_next = STATE_CSUM;
            STATE_CSUM: state_next = STATE_SEND;
            default:    if (take && cnt_reg == end_idx) state_next = STATE_IDLE;
        endcase
    end

    always @(posedge clk) begin
        state_reg <= state_next;
        ev_reg    <= 1'b0;
        case (state_reg)
            STATE_IDLE: if (s_seg_valid) begin
                mac_reg     <= s_seg_dst_mac;
                ip_reg      <= s_seg_dst_ip;
                sport_reg   <= s_seg_src_port;
                dport_reg   <= s_seg_dst_port;
                seq_reg     <= s_seg_seq;
                ack_reg     <= s_seg_ack;
                flags_reg   <= s_seg_flags;
                wnd_reg     <= s_seg_wnd;
                opt_reg     <= s_seg_mss_opt;
                mss_reg     <= s_seg_mss_opt ? s_seg_mss : 16'd0;
                ws_opt_reg  <= s_seg_ws_opt;
                ws_reg      <= s_seg_ws;
                sid_reg     <= s_seg_pay_sid;
                ptr_reg     <= s_seg_pay_off;
                off0_reg    <= s_seg_pay_off;
                len_reg     <= s_seg_pay_len;
                cnt_reg     <= 16'd0;
                sum_v_reg   <= 1'b0;
                sum_odd_reg <= 1'b0;
                sum_reg     <= 32'd0;
            end
            STATE_SUM: begin
                if (sum_rd) begin
                    ptr_reg <= ptr_reg + 1'b1;
                    cnt_reg <= cnt_reg + 16'd1;
                end
                sum_v_reg <= sum_rd;
                if (sum_v_reg) begin
                    sum_reg     <= sum_reg + (sum_odd_reg ? {24'd0, buf_rd_data} :
                                                            {16'd0, buf_rd_data, 8'd0});
                    sum_odd_reg <= !sum_odd_reg;
                end
            end
            STATE_CSUM: begin
                tcp_csum_reg <= ~fold(hdr_sum + {16'd0, fold(sum_reg)});
                ip_csum_reg  <= ~fold(ip_sum);
                ptr_reg      <= off0_reg;
                cnt_reg      <= 16'd0;
            end
            default: if (take) begin
                cnt_reg <= cnt_reg + 16'd1;
                if (send_rd) ptr_reg <= ptr_reg + 1'b1;
                if (cnt_reg == end_idx) begin
                    ev_reg <= 1'b1;
                    id_reg <= id_reg + 16'd1;
                end
            end
        endcase
        if (rst) begin
            state_reg <= STATE_IDLE;
            id_reg    <= 16'd0;
            ev_reg    <= 1'b0;
        end
    end

    assign s_seg_ready   = (state_reg == STATE_IDLE);
    assign buf_rd_en     = sum_rd || send_rd;
    assign buf_rd_addr   = {sid_reg, ptr_reg};
    assign m_axis_tvalid = (state_reg == STATE_SEND);
    assign m_axis_tdata  = in_hdr ? hdr_byte : buf_rd_data;
    assign m_axis_tkeep  = 1'b1;
    assign m_axis_tlast  = (state_reg == STATE_SEND) && (cnt_reg == end_idx);
    assign m_axis_tuser  = 1'b0;
    assign cnt_ev        = ev_reg;
endmodule
`default_nettype wire
