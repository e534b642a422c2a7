`default_nettype none
// nic_reply: turns an accelerator's result payloads into UDP/IPv4 Ethernet frames
// addressed to the sender of the request that produced them, so an accelerator beside
// the network interface answers without knowing any address.
//
// Requests: the helper watches the frames the accelerator takes (s_req_*: the beats of
// the accelerator's input as they are taken; no backpressure) and keeps the addresses of
// the last frame that ended: its source MAC, source IPv4 address and UDP source and
// destination ports, valid when the frame was good (not tuser), at least 42 bytes long,
// EtherType 0x0800, IPv4 with a 20-byte header (first byte 0x45), not a fragment, and
// protocol 17 (UDP). The accelerator strobes req_accept once for every request that will
// produce a result (the CFAR accelerator: its "block accepted" event), in the cycle of
// the request's last beat or up to 40 cycles after it (before the next frame ends); the
// addresses are then queued (4 deep; a request that finds the queue full is counted and
// its result will go to the next queued sender or be dropped for want of one).
//
// Results: one payload per request, in request order, on s_res_* (tuser = bad on the
// last beat). A payload is stored whole (axis_fifo in frame mode, PAY_DEPTH bytes) while
// its length and its 16-bit one's complement sum are counted; the input waits from a
// payload's last beat until its reply has left. Then the reply leaves on m_axis_*: a
// 42-byte header and the payload.
//   Ethernet: destination = the request's source MAC, source = cfg_mac, type 0x0800.
//   IPv4: 0x45, TOS 0, total length 28 + payload, identification (counts replies), flags
//     DF = cfg_df, fragment 0, TTL cfg_ttl, protocol 17, header checksum, source =
//     cfg_ip, destination = the request's source address.
//   UDP: source port = the request's destination port, destination port = the request's
//     source port, length 8 + payload, checksum over the pseudo-header, header and
//     payload (0xFFFF when it computes to 0).
// A result is dropped and counted when it is bad (tuser), when no request address is
// queued for it or the request's frame was not a good UDP/IPv4 frame, or when it is
// longer than MAX_PAYLOAD bytes (or than the FIFO); every dropped result still takes its
// request's queue entry. An empty result (one beat, tkeep 0) makes an 8-byte UDP datagram.
//
// Interfaces:
//   clk, rst                       clock, synchronous reset
//   s_req_tdata/tvalid/tlast/tuser the accelerator's input beats as it takes them (8 bits)
//   req_accept                     strobe: the request that just ended will get a result
//   s_res_axis_t{data,keep,valid,ready,last,user}   result payloads (8 bits)
//   m_axis_t{data,keep,valid,ready,last,user}       reply frames (from flip-flops)
//   cfg_mac[47:0], cfg_ip[31:0], cfg_ttl[7:0], cfg_df   the replies' source and IPv4 fields
//   cnt_ev[4:0]   event strobes: [0] reply sent (its last beat), [1] result dropped bad,
//                 [2] result dropped: no good request address, [3] result dropped: too
//                 long, [4] request lost (address queue full)
// Latency: the reply's first byte leaves 5 cycles after the payload's last byte is taken
//   (the FIFO's 3, the checksum fold, the header's first byte), one byte per cycle after it.
// Parameters (checked): DATA_W 8 (tested), PAY_DEPTH bytes of payload storage, a power of
//   two 512..16384 (tested 2048 and 512), MAX_PAYLOAD 1..min(PAY_DEPTH, 8972) (tested
//   1472 and 100).
module nic_reply #(
    parameter integer DATA_W      = 8,
    parameter integer PAY_DEPTH   = 2048,
    parameter integer MAX_PAYLOAD = 1472
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [7:0]  s_req_tdata,
    input  wire        s_req_tvalid,
    input  wire        s_req_tlast,
    input  wire        s_req_tuser,
    input  wire        req_accept,
    input  wire [7:0]  s_res_axis_tdata,
    input  wire        s_res_axis_tkeep,
    input  wire        s_res_axis_tvalid,
    output wire        s_res_axis_tready,
    input  wire        s_res_axis_tlast,
    input  wire        s_res_axis_tuser,
    output wire [7:0]  m_axis_tdata,
    output wire        m_axis_tkeep,
    output wire        m_axis_tvalid,
    input  wire        m_axis_tready,
    output wire        m_axis_tlast,
    output wire        m_axis_tuser,
    input  wire [47:0] cfg_mac,
    input  wire [31:0] cfg_ip,
    input  wire [7:0]  cfg_ttl,
    input  wire        cfg_df,
    output wire [4:0]  cnt_ev
);
    generate
        if (DATA_W != 8) begin : g_check_data_w
            nic_reply_DATA_W_must_be_8 u_error ();  // unsupported parameter (no such module)
        end
        if (PAY_DEPTH < 512 || PAY_DEPTH > 16384 || (PAY_DEPTH & (PAY_DEPTH - 1)) != 0) begin : g_check_depth
            nic_reply_PAY_DEPTH_must_be_a_power_of_two_512_to_16384 u_error ();
        end
        if (MAX_PAYLOAD < 1 || MAX_PAYLOAD > PAY_DEPTH || MAX_PAYLOAD > 8972) begin : g_check_max
            nic_reply_MAX_PAYLOAD_must_be_1_to_PAY_DEPTH_and_8972 u_error ();
        end
    endgenerate

    localparam integer HDR_BYTES = 42;
    localparam [13:0]  MAX_LEN   = MAX_PAYLOAD[13:0];  // bytes
    localparam integer QUEUE     = 4;
    localparam integer ADDR_BITS = 48 + 32 + 16 + 16;  // source MAC, IP, UDP ports

    // ---------------- request addresses ----------------
    // The frame being taken: its byte count (saturating past the header) and the fields
    // as they pass; at its last beat the fields and their validity become "the last
    // request" (last_addr_reg, last_ok_reg).
    reg [5:0]           req_pos_reg;      // bytes of the current request frame, up to 43
    reg [47:0]          req_src_mac_reg;
    reg [15:0]          req_type_reg;
    reg [7:0]           req_vihl_reg;
    reg [13:0]          req_frag_reg;     // MF flag and fragment offset
    reg [7:0]           req_proto_reg;
    reg [31:0]          req_src_ip_reg;
    reg [15:0]          req_src_port_reg;
    reg [15:0]          req_dst_port_reg;
    reg [ADDR_BITS-1:0] last_addr_reg;
    reg                 last_ok_reg;

    wire [ADDR_BITS-1:0] req_addr = {req_src_mac_reg, req_src_ip_reg, req_src_port_reg,
                                     req_dst_port_reg};
    // a request frame ending now, and whether it was a good UDP/IPv4 frame
    wire req_end = s_req_tvalid && s_req_tlast;
    wire req_ok  = !s_req_tuser && req_pos_reg >= 6'd41 && req_type_reg == 16'h0800
                   && req_vihl_reg == 8'h45 && req_frag_reg == 14'd0
                   && req_proto_reg == 8'd17;

    always @(posedge clk) begin
        if (s_req_tvalid) begin
            case (req_pos_reg)
                6'd6:  req_src_mac_reg[47:40] <= s_req_tdata;
                6'd7:  req_src_mac_reg[39:32] <= s_req_tdata;
                6'd8:  req_src_mac_reg[31:24] <= s_req_tdata;
                6'd9:  req_src_mac_reg[23:16] <= s_req_tdata;
                6'd10: req_src_mac_reg[15:8]  <= s_req_tdata;
                6'd11: req_src_mac_reg[7:0]   <= s_req_tdata;
                6'd12: req_type_reg[15:8]     <= s_req_tdata;
                6'd13: req_type_reg[7:0]      <= s_req_tdata;
                6'd14: req_vihl_reg           <= s_req_tdata;
                6'd20: req_frag_reg[13:8]     <= s_req_tdata[5:0];
                6'd21: req_frag_reg[7:0]      <= s_req_tdata;
                6'd23: req_proto_reg          <= s_req_tdata;
                6'd26: req_src_ip_reg[31:24]  <= s_req_tdata;
                6'd27: req_src_ip_reg[23:16]  <= s_req_tdata;
                6'd28: req_src_ip_reg[15:8]   <= s_req_tdata;
                6'd29: req_src_ip_reg[7:0]    <= s_req_tdata;
                6'd34: req_src_port_reg[15:8] <= s_req_tdata;
                6'd35: req_src_port_reg[7:0]  <= s_req_tdata;
                6'd36: req_dst_port_reg[15:8] <= s_req_tdata;
                6'd37: req_dst_port_reg[7:0]  <= s_req_tdata;
                default: ;
            endcase
        end
        if (req_end) last_addr_reg <= req_addr;
        if (rst) begin
            req_pos_reg <= 6'd0;
            last_ok_reg <= 1'b0;
        end else if (s_req_tvalid) begin
            if (s_req_tlast) begin
                req_pos_reg <= 6'd0;
                last_ok_reg <= req_ok;
            end else if (req_pos_reg < 6'd43) begin  // counts up to 43: past the header
                req_pos_reg <= req_pos_reg + 6'd1;
            end
        end
    end

    // The queue of request addresses (flip-flops, QUEUE deep). A req_accept in the cycle
    // of a request's last beat takes that request's fields directly.
    reg [ADDR_BITS-1:0] queue_addr_mem [0:QUEUE-1];
    reg [QUEUE-1:0]     queue_ok_reg;
    reg [1:0]           queue_wr_reg, queue_rd_reg;
    reg [2:0]           queue_count_reg;

    wire                 push_ok   = req_end ? req_ok : last_ok_reg;
    wire [ADDR_BITS-1:0] push_addr = req_end ? req_addr : last_addr_reg;
    wire                 queue_full = queue_count_reg == 3'd4;
    wire                 push = req_accept && !queue_full;
    wire                 pop;  // a result leaves or is dropped: its entry goes

    always @(posedge clk) begin
        if (push) queue_addr_mem[queue_wr_reg] <= push_addr;
        if (rst) begin
            queue_ok_reg    <= {QUEUE{1'b0}};
            queue_wr_reg    <= 2'd0;
            queue_rd_reg    <= 2'd0;
            queue_count_reg <= 3'd0;
        end else begin
            if (push) begin
                queue_ok_reg[queue_wr_reg] <= push_ok;
                queue_wr_reg               <= queue_wr_reg + 2'd1;
            end
            if (pop && queue_count_reg != 3'd0) queue_rd_reg <= queue_rd_reg + 2'd1;
            queue_count_reg <= queue_count_reg + {2'd0, push}
                               - {2'd0, pop && queue_count_reg != 3'd0};
        end
    end

    wire                 have_addr  = queue_count_reg != 3'd0 && queue_ok_reg[queue_rd_reg];
    wire [ADDR_BITS-1:0] reply_addr = queue_addr_mem[queue_rd_reg];

    // ---------------- result payloads ----------------
    localparam [2:0] STATE_COLLECT = 3'd0,  // taking a payload into the FIFO
                     STATE_WAIT    = 3'd1,  // its last beat taken: stored or dropped?
                     STATE_SUM     = 3'd2,  // fold the checksums
                     STATE_HEADER  = 3'd3,  // the 42 header bytes
                     STATE_PAYLOAD = 3'd4,  // the payload from the FIFO
                     STATE_DRAIN   = 3'd5;  // a stored payload that will not be sent
    reg [2:0]  state_reg, state_next;
    reg [13:0] pay_len_reg;       // payload bytes taken (saturates at 16383)
    reg [31:0] pay_sum_reg;       // 16-bit big-endian words of the payload, summed
    reg [5:0]  hdr_pos_reg;       // header byte leaving
    reg [HDR_BYTES*8-1:0] hdr_reg;  // the header, first byte in the top bits
    reg [15:0] ip_id_reg;
    reg [4:0]  cnt_ev_reg;

    wire fifo_in_ready;
    wire fifo_in_valid = s_res_axis_tvalid && state_reg == STATE_COLLECT;
    wire res_take      = fifo_in_valid && fifo_in_ready;
    wire res_byte      = res_take && s_res_axis_tkeep;
    assign s_res_axis_tready = fifo_in_ready && state_reg == STATE_COLLECT;

    wire [7:0] fifo_tdata;
    wire       fifo_tvalid, fifo_tlast;
    wire       drop_bad, drop_full;
    /* verilator lint_off UNUSEDSIGNAL */
    wire       fifo_tkeep, fifo_tuser_unused, fifo_overflow_unused, fifo_good_unused;  // not needed:
    // payload beats all carry a byte but an empty payload's one, drained; bad ones are dropped
    /* verilator lint_on UNUSEDSIGNAL */
    wire       out_ready;

    wire fifo_out_ready = (state_reg == STATE_PAYLOAD && out_ready) || state_reg == STATE_DRAIN;
    wire fifo_out_take  = fifo_tvalid && fifo_out_ready;

    axis_fifo #(
        .DATA_W(8), .KEEP_W(1), .DEPTH(PAY_DEPTH),
        .FRAME_FIFO(1), .DROP_BAD_FRAME(1), .DROP_WHEN_FULL(0)
    ) u_payload (
        .clk              (clk),
        .rst              (rst),
        .s_axis_tdata     (s_res_axis_tdata),
        .s_axis_tkeep     (s_res_axis_tkeep),
        .s_axis_tvalid    (fifo_in_valid),
        .s_axis_tready    (fifo_in_ready),
        .s_axis_tlast     (s_res_axis_tlast),
        .s_axis_tuser     (s_res_axis_tuser),
        .m_axis_tdata     (fifo_tdata),
        .m_axis_tkeep     (fifo_tkeep),
        .m_axis_tvalid    (fifo_tvalid),
        .m_axis_tready    (fifo_out_ready),
        .m_axis_tlast     (fifo_tlast),
        .m_axis_tuser     (fifo_tuser_unused),
        .status_overflow  (fifo_overflow_unused),
        .status_drop_bad  (drop_bad),
        .status_drop_full (drop_full),
        .status_good_frame(fifo_good_unused)
    );

    // Checksums of the reply, from the payload's length and sum and the queued address.
    wire [15:0] udp_len   = {2'd0, pay_len_reg} + 16'd8;
    wire [15:0] ip_len    = {2'd0, pay_len_reg} + 16'd28;
    wire [47:0] dst_mac   = reply_addr[111:64];
    wire [31:0] dst_ip    = reply_addr[63:32];
    wire [15:0] dst_port  = reply_addr[31:16];  // the request's source port
    wire [15:0] src_port  = reply_addr[15:0];   // the request's destination port
    wire [31:0] ip_sum    = 32'h4500 + w32(ip_len) + w32(ip_id_reg) + w32({1'b0, cfg_df, 14'd0})
                            + w32({cfg_ttl, 8'd17}) + w32(cfg_ip[31:16]) + w32(cfg_ip[15:0])
                            + w32(dst_ip[31:16]) + w32(dst_ip[15:0]);
    wire [31:0] udp_sum   = pay_sum_reg + w32(cfg_ip[31:16]) + w32(cfg_ip[15:0])
                            + w32(dst_ip[31:16]) + w32(dst_ip[15:0]) + 32'd17 + w32(udp_len)
                            + w32(src_port) + w32(dst_port) + w32(udp_len);
    wire [15:0] ip_csum   = ~fold(ip_sum);
    wire [15:0] udp_fold  = ~fold(udp_sum);
    wire [15:0] udp_csum  = udp_fold == 16'h0000 ? 16'hFFFF : udp_fold;

    function [31:0] w32;  // a 16-bit word widened for a sum
        input [15:0] word;
        w32 = {16'd0, word};
    endfunction

    function [15:0] fold;  // one's complement sum of a 32-bit partial sum's halves
        input [31:0] sum;
        reg   [16:0] once;
        begin
            once = {1'b0, sum[31:16]} + {1'b0, sum[15:0]};
            fold = once[15:0] + {15'd0, once[16]};
        end
    endfunction

    wire too_long    = pay_len_reg > MAX_LEN;
    wire empty       = pay_len_reg == 14'd0;
    wire header_last = hdr_pos_reg == 6'd41;  // the header's 42nd byte

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_COLLECT: if (res_take && s_res_axis_tlast) state_next = STATE_WAIT;
            STATE_WAIT: begin
                if (drop_bad || drop_full) state_next = STATE_COLLECT;
                else if (fifo_tvalid) state_next = (have_addr && !too_long) ? STATE_SUM
                                                                           : STATE_DRAIN;
            end
            STATE_SUM:     state_next = STATE_HEADER;
            // an empty payload's one beat (tkeep 0) is drained: the header ends the frame
            STATE_HEADER:  if (out_ready && header_last) state_next = empty ? STATE_DRAIN : STATE_PAYLOAD;
            STATE_PAYLOAD: if (fifo_out_take && fifo_tlast) state_next = STATE_COLLECT;
            STATE_DRAIN:   if (fifo_out_take && fifo_tlast) state_next = STATE_COLLECT;
            default:       state_next = STATE_COLLECT;
        endcase
    end

    assign pop = (state_reg == STATE_WAIT && (drop_bad || drop_full))
                 || ((state_reg == STATE_PAYLOAD || state_reg == STATE_DRAIN)
                     && fifo_out_take && fifo_tlast);

    always @(posedge clk) begin
        if (res_byte) begin
            pay_len_reg <= (pay_len_reg == 14'h3FFF) ? pay_len_reg : pay_len_reg + 14'd1;
            pay_sum_reg <= pay_sum_reg + (pay_len_reg[0] ? {24'd0, s_res_axis_tdata}
                                                         : {16'd0, s_res_axis_tdata, 8'd0});
        end
        if (state_reg == STATE_SUM) begin
            hdr_reg <= {dst_mac, cfg_mac, 16'h0800,
                        8'h45, 8'h00, ip_len, ip_id_reg, 1'b0, cfg_df, 14'd0, cfg_ttl, 8'd17,
                        ip_csum, cfg_ip, dst_ip,
                        src_port, dst_port, udp_len, udp_csum};
        end else if (state_reg == STATE_HEADER && out_ready) begin
            hdr_reg <= {hdr_reg[HDR_BYTES*8-9:0], 8'h00};
        end
        cnt_ev_reg[0] <= out_take_last;
        cnt_ev_reg[1] <= state_reg == STATE_WAIT && drop_bad;
        cnt_ev_reg[2] <= state_reg == STATE_WAIT && !drop_bad && !drop_full && fifo_tvalid
                         && !have_addr;
        cnt_ev_reg[3] <= state_reg == STATE_WAIT && ((drop_full && !drop_bad)
                         || (!drop_bad && fifo_tvalid && have_addr && too_long));
        cnt_ev_reg[4] <= req_accept && queue_full;
        if (rst) begin
            state_reg   <= STATE_COLLECT;
            pay_len_reg <= 14'd0;
            pay_sum_reg <= 32'd0;
            hdr_pos_reg <= 6'd0;
            ip_id_reg   <= 16'd0;
            cnt_ev_reg  <= 5'd0;
        end else begin
            state_reg <= state_next;
            if (state_next == STATE_COLLECT && state_reg != STATE_COLLECT) begin
                pay_len_reg <= 14'd0;  // the next payload starts counting from zero
                pay_sum_reg <= 32'd0;
            end
            if (state_reg == STATE_SUM) hdr_pos_reg <= 6'd0;
            else if (state_reg == STATE_HEADER && out_ready) hdr_pos_reg <= hdr_pos_reg + 6'd1;
            if (out_take_last) ip_id_reg <= ip_id_reg + 16'd1;
        end
    end

    // The output: header bytes, then the payload's, through a register slice.
    wire       out_valid = state_reg == STATE_HEADER || (state_reg == STATE_PAYLOAD && fifo_tvalid);
    wire [7:0] out_data  = state_reg == STATE_HEADER ? hdr_reg[HDR_BYTES*8-1 -: 8] : fifo_tdata;
    wire       out_last  = (state_reg == STATE_PAYLOAD && fifo_tlast)
                           || (state_reg == STATE_HEADER && header_last && empty);
    wire       out_take_last = out_valid && out_ready && out_last;

    axis_pipe #(.DATA_W(8), .KEEP_W(1)) u_out (
        .clk          (clk),
        .rst          (rst),
        .s_axis_tdata (out_data),
        .s_axis_tkeep (1'b1),
        .s_axis_tvalid(out_valid),
        .s_axis_tready(out_ready),
        .s_axis_tlast (out_last),
        .s_axis_tuser (1'b0),
        .m_axis_tdata (m_axis_tdata),
        .m_axis_tkeep (m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready),
        .m_axis_tlast (m_axis_tlast),
        .m_axis_tuser (m_axis_tuser)
    );

    assign cnt_ev = cnt_ev_reg;
endmodule
`default_nettype wire
