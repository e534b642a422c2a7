// ipbus_target: IPbus 2.0 target on a UDP application port, master of the register bus.
//
// Executes IPbus 2.0 control packets (read, write, non-incrementing read/write,
// read-modify-write bits and sum, configuration-space read; any number of transactions
// per packet; big- or little-endian, detected from the packet header and answered in
// the same order), answers status requests and resend requests, and implements the
// reliability layer (packet ID 0: always executed, nothing stored; non-zero: only the
// next expected ID is executed, 1 after reset, 0xFFFF wraps to 1, others dropped; the
// last NBUF replies are kept in RAM for resending). See docs/ipbus.md.
//
// Interfaces:
//   s_hdr_* / s_axis_*  : UDP application port, receive side (requests).
//   m_hdr_* / m_axis_*  : UDP application port, transmit side (replies, sent back to the
//                         requester's IP/port with m_hdr_dst_mac_valid = 1, so no ARP).
//   reg_*               : register-bus master (docs/conventions.md), one request at a time;
//                         a request unanswered after BUS_TIMEOUT_MS..BUS_TIMEOUT_MS+1 ticks
//                         of tick_1ms is answered with a bus timeout (info code 6/7).
//   cfg_allow_en, cfg_allow_ip[4*32] : when cfg_allow_en, write-type transactions (write,
//                         non-incrementing write, RMW) from a source IP not in the list
//                         are refused with info code 5 (bus error on write), never executed.
//   cnt_ev[15:0]        : event strobes, one cycle each, for counters kept in
//                         stat_counters (read them while rst is low; names as in the IPBUS
//                         register block): bit 0 rx_packets, 1 rx_bad, 2 rx_oversize,
//                         3 rx_malformed, 4 control, 5 status, 6 resend, 7 id_dropped,
//                         8 resend_miss, 9 transactions, 10 bad_header, 11 bus_errors,
//                         12 bus_timeouts, 13 wp_rejected, 14 reply_overflow, 15 tx_packets
// Malformed input: datagrams flagged bad, longer than MAX_BYTES, not a whole number of
//   words, or with a bad packet header are dropped and counted; a transaction with a bad
//   header, or announcing more words than the packet holds, is answered with info code 1
//   and ends the packet; a transaction whose reply would not fit in MAX_BYTES ends the
//   packet (counted: reply_overflow) without being executed.
// Datapath: DATA_W 8 (1 Gbit/s) or 64 (10 Gbit/s): the input ring takes one beat per
//   cycle at either width; replies leave at one beat per cycle without gaps once started.
// Latency: store and forward: the reply header of a single read is offered 11 cycles
//   after the request's last byte (first payload byte 12) with a one-cycle register
//   slave; block transfers take 2 cycles per word on the register bus
//   (bench/ipbus.py measures them).
// Parameters (checked at elaboration): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8,
//   NBUF (stored replies for resend, 1..14; tested 4, synthesized 1), RX_AW (input ring
//   word-address bits, 10..14 and at least two packets of MAX_BYTES: 13 = 32 KiB holds
//   uHAL's 16 in-flight packets of 1400 bytes without back-pressure; tested 12 and 13,
//   synthesized 10), RX_QAW (queued request packets 2**RX_QAW, 1..8, >= 4 for uHAL;
//   tested 4), MAX_BYTES (largest request and reply payload, a multiple of 4 from 64 to
//   2044; tested 1472), BUS_TIMEOUT_MS (1..254; tested 2), CONF_BASE (register bus
//   address where the configuration space, read by transaction type 6, starts; tested
//   0x1000 and 0).
`default_nettype none

module ipbus_target #(
    parameter integer DATA_W         = 8,
    parameter integer KEEP_W         = DATA_W / 8,
    parameter integer NBUF           = 4,
    parameter integer RX_AW          = 13,
    parameter integer RX_QAW         = 4,
    parameter integer MAX_BYTES      = 1472,
    parameter integer BUS_TIMEOUT_MS = 2,
    parameter [31:0]  CONF_BASE      = 32'h00000000
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,

    input  wire              s_hdr_valid,
    output wire              s_hdr_ready,
    input  wire [47:0]       s_hdr_src_mac,
    input  wire [31:0]       s_hdr_src_ip,
    input  wire [15:0]       s_hdr_src_port,
    input  wire [15:0]       s_hdr_dst_port,
    input  wire [15:0]       s_hdr_len,
    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,

    output wire              m_hdr_valid,
    input  wire              m_hdr_ready,
    output wire [47:0]       m_hdr_dst_mac,
    output wire              m_hdr_dst_mac_valid,
    output wire [31:0]       m_hdr_dst_ip,
    output wire [15:0]       m_hdr_dst_port,
    output wire [15:0]       m_hdr_src_port,
    output wire [15:0]       m_hdr_len,
    output wire [15:0]       m_hdr_csum,
    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output wire              reg_req,
    output wire              reg_we,
    output wire [31:0]       reg_addr,
    output wire [31:0]       reg_wdata,
    input  wire              reg_ack,
    input  wire              reg_err,
    input  wire [31:0]       reg_rdata,

    input  wire              cfg_allow_en,
    input  wire [127:0]      cfg_allow_ip,

    output wire [15:0]       cnt_ev
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            ipbus_target_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W * 8 != DATA_W) begin : g_check_keep_w
            ipbus_target_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (NBUF < 1 || NBUF > 14) begin : g_check_nbuf
            ipbus_target_NBUF_must_be_1_to_14 u_error ();  // unsupported parameter
        end
        if (MAX_BYTES % 4 != 0 || MAX_BYTES < 64 || MAX_BYTES > 2044) begin : g_check_max_bytes
            ipbus_target_MAX_BYTES_must_be_a_multiple_of_4_from_64_to_2044 u_error ();
        end
        if (RX_AW < 10 || RX_AW > 14 || (1 << RX_AW) < 2 * (MAX_BYTES / 4)) begin : g_check_rx_aw
            ipbus_target_RX_AW_must_be_10_to_14_and_hold_two_packets u_error ();
        end
        if (RX_QAW < 1 || RX_QAW > 8) begin : g_check_rx_qaw
            ipbus_target_RX_QAW_must_be_1_to_8 u_error ();  // unsupported parameter
        end
        if (BUS_TIMEOUT_MS < 1 || BUS_TIMEOUT_MS > 254) begin : g_check_bus_timeout_ms
            ipbus_target_BUS_TIMEOUT_MS_must_be_1_to_254 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam integer MAX_WORDS = MAX_BYTES / 4;  // words per packet, both directions
    localparam integer SLOT_AW   = 9;              // 512-word reply slots
    localparam integer NSLOTS    = NBUF + 2;       // slots NBUF, NBUF+1: unstored replies
    localparam integer SLOT_W    = (NSLOTS > 8) ? 4 : (NSLOTS > 4) ? 3 : (NSLOTS > 2) ? 2 : 1;

    function [31:0] bswap(input [31:0] w);
        bswap = {w[7:0], w[15:8], w[23:16], w[31:24]};
    endfunction

    // ================================================================ input buffer
    wire [RX_AW-1:0] pkt_base;       // the head packet: its first word in the ring,
    wire [9:0]       pkt_words;      // its length in words,
    wire [47:0]      pkt_src_mac;    // and where it came from
    wire [31:0]      pkt_src_ip;
    wire [15:0]      pkt_src_port, pkt_dst_port;
    wire             pkt_valid;
    reg              pkt_pop_reg, pkt_pop_next;
    wire [31:0]      rd_data;
    // Request words are read ahead: the ring RAM is addressed with the word index the
    // engine will have next cycle (idx_next), so `word` always holds word idx_reg.
    reg  [9:0]       idx_reg, idx_next;     // word index inside the request packet
    reg  [RX_AW-1:0] base_reg, base_next;   // the packet's first word in the ring
    wire             ev_rx, ev_bad, ev_oversize, ev_malformed;

    ipbus_rxbuf #(.DATA_W(DATA_W), .AW(RX_AW), .QAW(RX_QAW), .MAX_BYTES(MAX_BYTES)) rxbuf (
        .clk(clk), .rst(rst),
        .s_hdr_valid(s_hdr_valid), .s_hdr_ready(s_hdr_ready),
        .s_hdr_src_mac(s_hdr_src_mac), .s_hdr_src_ip(s_hdr_src_ip),
        .s_hdr_src_port(s_hdr_src_port), .s_hdr_dst_port(s_hdr_dst_port),
        .s_hdr_len(s_hdr_len),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_pkt_valid(pkt_valid), .m_pkt_ready(pkt_pop_reg),
        .m_pkt_base(pkt_base), .m_pkt_words(pkt_words),
        .m_pkt_src_mac(pkt_src_mac), .m_pkt_src_ip(pkt_src_ip),
        .m_pkt_src_port(pkt_src_port), .m_pkt_dst_port(pkt_dst_port),
        .rd_addr(base_next + {{(RX_AW-10){1'b0}}, idx_next}), .rd_data(rd_data),
        .ev_rx(ev_rx), .ev_bad(ev_bad), .ev_oversize(ev_oversize),
        .ev_malformed(ev_malformed)
    );

    // ================================================================ reply RAM
    // Slot s, word p: bank p[0] (even words in reply_even_mem, odd in reply_odd_mem),
    // entry {s, p >> 1}. The 64-bit transmitter reads a whole entry (two words) per cycle.
    localparam integer ENTRY_AW = SLOT_W + SLOT_AW - 1;   // entry address bits
    reg [31:0]               reply_even_mem [0:NSLOTS*256-1];
    reg [31:0]               reply_odd_mem  [0:NSLOTS*256-1];
    reg                      reply_we_reg, reply_we_next;
    reg [SLOT_W+SLOT_AW-1:0] reply_waddr_reg, reply_waddr_next;   // {slot, word}
    reg [31:0]               reply_wdata_reg, reply_wdata_next;
    wire [ENTRY_AW-1:0]      reply_raddr;                         // entry read (transmitter)
    reg [31:0]               reply_q_even_reg, reply_q_odd_reg;

    always @(posedge clk) begin
        if (reply_we_reg && !reply_waddr_reg[0])
            reply_even_mem[reply_waddr_reg[SLOT_W+SLOT_AW-1:1]] <= reply_wdata_reg;
        if (reply_we_reg &&  reply_waddr_reg[0])
            reply_odd_mem[reply_waddr_reg[SLOT_W+SLOT_AW-1:1]]  <= reply_wdata_reg;
        reply_q_even_reg <= reply_even_mem[reply_raddr];
        reply_q_odd_reg  <= reply_odd_mem[reply_raddr];
    end

    // ================================================================ engine state
    localparam [4:0] STATE_IDLE  = 5'd0,    // waiting for a request packet
                     STATE_PHDR  = 5'd2,    // the packet header is on `word`
                     STATE_THDR  = 5'd3,    // a transaction header is on `word`
                     STATE_ADDR  = 5'd4,    // the transaction's base address
                     STATE_BUS   = 5'd5,    // a register-bus request goes out
                     STATE_WAIT  = 5'd6,    // waiting for its answer
                     STATE_WDATA = 5'd7,    // a write's first data word
                     STATE_RMWA  = 5'd8,    // read-modify-write: AND mask or addend
                     STATE_RMWB  = 5'd9,    // read-modify-write bits: OR mask
                     STATE_HDR   = 5'd10,   // the reply's transaction header is written
                     STATE_END   = 5'd11,   // the packet ends: its reply is sent
                     STATE_STAT  = 5'd12,   // a status reply is written
                     STATE_TXW   = 5'd13,   // waiting for the transmitter to take the job
                     STATE_DROP  = 5'd14,   // the packet is dropped
                     STATE_RMWW  = 5'd15;   // read-modify-write: the new value
    reg [4:0]              state_reg, state_next;
    reg                    le_reg, le_next;                 // packet is little-endian
    reg [15:0]             pkt_id_reg, pkt_id_next;         // packet ID
    reg                    store_reg, store_next;           // reply is kept for resend
    reg [SLOT_W-1:0]       slot_reg, slot_next;             // reply slot being written
    reg [SLOT_AW-1:0]      reply_pos_reg, reply_pos_next;   // next reply word
    reg [SLOT_AW-1:0]      thdr_pos_reg, thdr_pos_next;     // reply word of the transaction header
    reg [15:0]             expected_reg, expected_next;     // next expected non-zero packet ID
    reg [SLOT_W-1:0]       ring_reg, ring_next;             // next ring slot for a stored reply
    reg [NBUF*16-1:0]      slot_id_reg, slot_id_next;       // stored replies: packet ID,
    reg [NBUF-1:0]         slot_valid_reg, slot_valid_next; // held,
    reg [NBUF-1:0]         slot_le_reg, slot_le_next;       // little-endian,
    reg [NSLOTS*SLOT_AW-1:0] slot_len_reg, slot_len_next;   // and length in words (all slots)
    reg                    scratch_reg, scratch_next;       // the scratch slot the next unstored reply uses
    wire [SLOT_W-1:0]      scratch_slot = NBUF[SLOT_W-1:0] + {{(SLOT_W-1){1'b0}}, scratch_reg};

    // the transaction in progress
    reg [11:0] trans_id_reg, trans_id_next;
    reg [7:0]  trans_words_reg, trans_words_next;   // words announced
    reg [3:0]  trans_type_reg, trans_type_next;
    reg [7:0]  trans_done_reg, trans_done_next;     // words done
    reg [3:0]  trans_info_reg, trans_info_next;     // info code of its reply
    reg [31:0] trans_addr_reg, trans_addr_next;
    reg [31:0] rmw_mask_reg, rmw_mask_next;         // read-modify-write: AND mask or addend
    reg [31:0] rmw_or_reg, rmw_or_next;             // read-modify-write: OR mask
    reg [31:0] rmw_old_reg, rmw_old_next;           // read-modify-write: the value read
    reg        rmw_write_reg, rmw_write_next;       // read-modify-write: the write is on the bus
    reg [4:0]  stat_idx_reg, stat_idx_next;         // status reply word
    reg [7:0]  ticks_reg, ticks_next;               // tick_1ms since the bus request (saturating)

    // the register bus
    reg        reg_req_reg, reg_req_next;
    reg        reg_we_reg, reg_we_next;
    reg [31:0] reg_addr_reg, reg_addr_next;
    reg [31:0] reg_wdata_reg, reg_wdata_next;
    assign reg_req   = reg_req_reg;
    assign reg_we    = reg_we_reg;
    assign reg_addr  = reg_addr_reg;
    assign reg_wdata = reg_wdata_reg;

    reg [127:0] hist_reg, hist_next;         // traffic history, newest event in [7:0]
    reg [127:0] rx_hist_reg, rx_hist_next;   // last received control headers, newest in [31:0]
    reg [127:0] tx_hist_reg, tx_hist_next;   // last sent control headers, newest in [31:0]

    // The engine's event strobes (high the cycle after the event). rx_malformed counts
    // the receive buffer's malformed datagrams and the engine's bad packet headers.
    // Neither comes in two cycles in a row (a datagram takes a header cycle and a beat;
    // a packet a start, a header and a drop cycle), so a bad header in the cycle of a
    // malformed datagram waits one cycle (bad_phdr_pending_reg) and is never lost.
    reg ev_control_reg, ev_control_next;
    reg ev_status_reg, ev_status_next;
    reg ev_resend_reg, ev_resend_next;
    reg ev_id_dropped_reg, ev_id_dropped_next;
    reg ev_resend_miss_reg, ev_resend_miss_next;
    reg ev_transactions_reg, ev_transactions_next;
    reg ev_bad_header_reg, ev_bad_header_next;
    reg ev_bus_errors_reg, ev_bus_errors_next;
    reg ev_bus_timeouts_reg, ev_bus_timeouts_next;
    reg ev_wp_rejected_reg, ev_wp_rejected_next;
    reg ev_reply_overflow_reg, ev_reply_overflow_next;
    reg bad_phdr_reg, bad_phdr_next;                 // a malformed packet header
    reg bad_phdr_pending_reg, bad_phdr_pending_next;
    assign cnt_ev = {m_axis_tvalid && m_axis_tready && m_axis_tlast, ev_reply_overflow_reg,
                     ev_wp_rejected_reg, ev_bus_timeouts_reg, ev_bus_errors_reg,
                     ev_bad_header_reg, ev_transactions_reg, ev_resend_miss_reg,
                     ev_id_dropped_reg, ev_resend_reg, ev_status_reg, ev_control_reg,
                     ev_malformed || bad_phdr_reg || bad_phdr_pending_reg, ev_oversize,
                     ev_bad, ev_rx};

    wire [31:0] word         = le_reg ? bswap(rd_data) : rd_data;   // request word idx_reg (value)
    wire [31:0] word_swapped = bswap(rd_data);

    wire        trans_read   = (trans_type_reg == 4'h0) || (trans_type_reg == 4'h2) ||
                               (trans_type_reg == 4'h6);
    wire        trans_write  = (trans_type_reg == 4'h1) || (trans_type_reg == 4'h3);
    wire        trans_rmw    = (trans_type_reg == 4'h4) || (trans_type_reg == 4'h5);
    wire        trans_incr   = (trans_type_reg == 4'h0) || (trans_type_reg == 4'h1) ||
                               (trans_type_reg == 4'h6);
    wire [9:0]  words_after  = pkt_words - idx_reg - 10'd1;   // request words after this one

    // transaction header decode (valid in STATE_THDR)
    wire [3:0]  thdr_type    = word[7:4];
    wire [7:0]  thdr_words   = word[15:8];
    wire        thdr_read    = (thdr_type == 4'h0) || (thdr_type == 4'h2) || (thdr_type == 4'h6);
    wire        thdr_write   = (thdr_type == 4'h1) || (thdr_type == 4'h3);
    wire        thdr_rmw     = (thdr_type == 4'h4) || (thdr_type == 4'h5);
    wire        thdr_ok      = (word[31:28] == 4'h2) && (word[3:0] == 4'hF) &&
                               (thdr_read || thdr_write || thdr_rmw) &&
                               (!thdr_rmw || thdr_words == 8'd1);
    // request words the transaction takes after its header, reply words it gives
    wire [9:0]  thdr_need    = thdr_read ? 10'd1 : thdr_write ? {2'b00, thdr_words} + 10'd1 :
                               (thdr_type == 4'h4) ? 10'd3 : 10'd2;
    wire [9:0]  thdr_reply   = 10'd1 + (thdr_read ? {2'b00, thdr_words} :
                                        thdr_rmw ? 10'd1 : 10'd0);
    wire        thdr_fits    = ({1'b0, reply_pos_reg} + thdr_reply) <= MAX_WORDS[9:0];

    // the sender may write (allow-list)
    reg write_allowed;
    integer i;
    always @* begin
        write_allowed = !cfg_allow_en;
        for (i = 0; i < 4; i = i + 1)
            if (cfg_allow_ip[i*32 +: 32] == pkt_src_ip) write_allowed = 1'b1;
    end

    // resend lookup: the stored reply with the packet ID of a resend request
    reg              resend_hit;
    reg              resend_le;
    reg [SLOT_W-1:0] resend_slot;
    always @* begin
        resend_hit  = 1'b0;
        resend_le   = 1'b0;
        resend_slot = {SLOT_W{1'b0}};
        for (i = 0; i < NBUF; i = i + 1)
            if (slot_valid_reg[i] && slot_id_reg[i*16 +: 16] == rd_data[23:8]) begin
                resend_hit  = 1'b1;
                resend_slot = i[SLOT_W-1:0];
                resend_le   = slot_le_reg[i];
            end
    end

    // status reply words
    reg [31:0] stat_word;
    always @* begin
        case (stat_idx_reg[3:0])
        4'd0:  stat_word = 32'h200000F1;
        4'd1:  stat_word = MAX_BYTES;
        4'd2:  stat_word = NBUF;
        4'd3:  stat_word = {8'h20, expected_reg, 8'hF0};
        4'd4:  stat_word = hist_reg[31:0];
        4'd5:  stat_word = hist_reg[63:32];
        4'd6:  stat_word = hist_reg[95:64];
        4'd7:  stat_word = hist_reg[127:96];
        4'd8:  stat_word = rx_hist_reg[31:0];
        4'd9:  stat_word = rx_hist_reg[63:32];
        4'd10: stat_word = rx_hist_reg[95:64];
        4'd11: stat_word = rx_hist_reg[127:96];
        4'd12: stat_word = tx_hist_reg[31:0];
        4'd13: stat_word = tx_hist_reg[63:32];
        4'd14: stat_word = tx_hist_reg[95:64];
        default: stat_word = tx_hist_reg[127:96];
        endcase
    end

    // ================================================================ transmitter
    // The engine hands the transmitter a job (slot, length, word 0, destination) and may
    // go on with the next request while the reply is sent, in another slot: unstored
    // replies alternate between two scratch slots.
    reg                 job_valid_reg, job_valid_next;   // a job is waiting for the transmitter
    reg [SLOT_W-1:0]    job_slot_reg, job_slot_next;
    reg [SLOT_AW-1:0]   job_len_reg, job_len_next;       // words
    reg [31:0]          job_first_reg, job_first_next;   // word 0 of the reply, as stored
    reg [47:0]          job_mac_reg, job_mac_next;
    reg [31:0]          job_ip_reg, job_ip_next;
    reg [15:0]          job_port_reg, job_port_next;
    reg [15:0]          job_src_port_reg, job_src_port_next;
    reg [SLOT_W-1:0]    tx_slot_reg;                     // the job being sent
    reg [SLOT_AW-1:0]   tx_len_reg;
    localparam [1:0] TX_IDLE = 2'd0,   // no job
                     TX_HDR  = 2'd1,   // the reply header is offered
                     TX_DATA = 2'd2,   // the payload is sent
                     TX_FILL = 2'd3;   // (64 bits) the output FIFO fills before the header
    reg [1:0]           tx_state_reg, tx_state_next;
    wire                job_take = job_valid_reg && (tx_state_reg == TX_IDLE);

    reg [47:0] m_hdr_dst_mac_reg;
    reg [31:0] m_hdr_dst_ip_reg;
    reg [15:0] m_hdr_dst_port_reg, m_hdr_src_port_reg, m_hdr_len_reg;

    assign m_hdr_valid         = (tx_state_reg == TX_HDR);
    assign m_hdr_dst_mac       = m_hdr_dst_mac_reg;
    assign m_hdr_dst_mac_valid = 1'b1;
    assign m_hdr_dst_ip        = m_hdr_dst_ip_reg;
    assign m_hdr_dst_port      = m_hdr_dst_port_reg;
    assign m_hdr_src_port      = m_hdr_src_port_reg;
    assign m_hdr_len           = m_hdr_len_reg;
    assign m_hdr_csum          = 16'h0000;
    assign m_axis_tuser        = 1'b0;

    always @(posedge clk) begin
        if (job_take) begin
            tx_slot_reg        <= job_slot_reg;
            tx_len_reg         <= job_len_reg;
            m_hdr_len_reg      <= {5'd0, job_len_reg, 2'b00};
            m_hdr_dst_mac_reg  <= job_mac_reg;
            m_hdr_dst_ip_reg   <= job_ip_reg;
            m_hdr_dst_port_reg <= job_port_reg;
            m_hdr_src_port_reg <= job_src_port_reg;
        end
    end

    always @(posedge clk) begin
        tx_state_reg <= tx_state_next;
        if (rst)
            tx_state_reg <= TX_IDLE;
    end

    generate
    if (DATA_W == 8) begin : g_tx8
        // Word 0 comes with the job; word n+1 is read from the reply RAM while word n
        // is sent (4 cycles per word, the read takes 2).
        reg [31:0]               tx_word_reg;        // the word being sent, first byte in [31:24]
        reg [1:0]                tx_byte_reg;        // its byte on the output
        reg [SLOT_AW-1:0]        tx_word_idx_reg;    // its index in the reply
        reg [SLOT_W+SLOT_AW-1:0] tx_raddr_reg;       // {slot, word} read for the next word
        reg                      tx_raddr_odd_reg;
        wire [31:0]              reply_q = tx_raddr_odd_reg ? reply_q_odd_reg : reply_q_even_reg;

        assign reply_raddr   = tx_raddr_reg[SLOT_W+SLOT_AW-1:1];
        assign m_axis_tdata  = tx_word_reg[31:24];
        assign m_axis_tkeep  = 1'b1;
        assign m_axis_tvalid = (tx_state_reg == TX_DATA);
        assign m_axis_tlast  = (tx_byte_reg == 2'd3) && (tx_word_idx_reg == tx_len_reg - 1'b1);

        always @* begin
            tx_state_next = tx_state_reg;
            case (tx_state_reg)
            TX_IDLE: if (job_valid_reg) tx_state_next = TX_HDR;
            TX_HDR:  if (m_hdr_ready) tx_state_next = TX_DATA;
            TX_DATA: if (m_axis_tready && m_axis_tlast) tx_state_next = TX_IDLE;
            default: tx_state_next = TX_IDLE;
            endcase
        end

        always @(posedge clk) begin
            tx_raddr_odd_reg <= tx_raddr_reg[0];
            if (job_take) begin
                tx_word_reg     <= job_first_reg;
                tx_byte_reg     <= 2'd0;
                tx_word_idx_reg <= {SLOT_AW{1'b0}};
                tx_raddr_reg    <= {job_slot_reg, {{(SLOT_AW-1){1'b0}}, 1'b1}};
            end else if (m_axis_tvalid && m_axis_tready) begin
                tx_byte_reg <= tx_byte_reg + 2'd1;
                if (tx_byte_reg == 2'd3) begin
                    tx_word_reg     <= reply_q;
                    tx_word_idx_reg <= tx_word_idx_reg + 1'b1;
                    tx_raddr_reg    <= {tx_slot_reg,
                                        tx_word_idx_reg + {{(SLOT_AW-2){1'b0}}, 2'd2}};
                end else begin
                    tx_word_reg <= {tx_word_reg[23:0], 8'h00};
                end
            end
        end
    end else begin : g_tx64
        // Two words per beat. Entries are read one per cycle (address presented
        // combinationally, data the next cycle) into a 2-entry FIFO; the header is
        // offered once the FIFO is full (or holds the whole reply), so the payload
        // then flows without a gap at one beat per cycle.
        reg [SLOT_AW-2:0] rd_entry_reg;       // next entry to read
        reg [SLOT_AW-2:0] out_entry_reg;      // entry on the output
        reg               read_pending_reg;   // an entry read last cycle arrives now
        reg [63:0]        fifo0_reg, fifo1_reg;   // {odd word, even word}; fifo0_reg is the head
        reg [1:0]         fifo_count_reg;
        wire [SLOT_AW-2:0] entries = tx_len_reg[SLOT_AW-1:1] +
                                     {{(SLOT_AW-2){1'b0}}, tx_len_reg[0]};
        wire              pop          = (tx_state_reg == TX_DATA) && m_axis_tready &&
                                         (fifo_count_reg != 2'd0);
        wire              more_entries = (rd_entry_reg != entries);
        wire              read_issue   = (tx_state_reg != TX_IDLE) && more_entries &&
                                         ({1'b0, fifo_count_reg} + {2'b00, read_pending_reg} -
                                          {2'b00, pop} < 3'd2);
        wire              last_entry   = (out_entry_reg == entries - 1'b1);

        assign reply_raddr   = {tx_slot_reg, rd_entry_reg};
        // a word's first byte is its [31:24]; lane 0 first (lanes past the end of an
        // odd-length reply are zero, not stale RAM)
        wire              half = last_entry && tx_len_reg[0];
        assign m_axis_tdata  = {half ? 32'd0 : bswap(fifo0_reg[63:32]), bswap(fifo0_reg[31:0])};
        assign m_axis_tkeep  = half ? 8'h0F : 8'hFF;
        assign m_axis_tvalid = (tx_state_reg == TX_DATA) && (fifo_count_reg != 2'd0);
        assign m_axis_tlast  = last_entry;

        always @* begin
            tx_state_next = tx_state_reg;
            case (tx_state_reg)
            TX_IDLE: if (job_valid_reg) tx_state_next = TX_FILL;
            TX_FILL: if (fifo_count_reg == 2'd2 ||
                         (!more_entries && !read_pending_reg && fifo_count_reg != 2'd0))
                         tx_state_next = TX_HDR;
            TX_HDR:  if (m_hdr_ready) tx_state_next = TX_DATA;
            TX_DATA: if (pop && last_entry) tx_state_next = TX_IDLE;
            default: tx_state_next = TX_IDLE;
            endcase
        end

        always @(posedge clk) begin
            read_pending_reg <= read_issue;
            if (job_take)
                rd_entry_reg <= {(SLOT_AW-1){1'b0}};
            else if (read_issue)
                rd_entry_reg <= rd_entry_reg + 1'b1;
            if (job_take)
                out_entry_reg <= {(SLOT_AW-1){1'b0}};
            else if (pop)
                out_entry_reg <= out_entry_reg + 1'b1;
            // FIFO: pop the head, push the entry read last cycle
            case ({read_pending_reg, pop})
            2'b10: begin
                if (fifo_count_reg == 2'd0) fifo0_reg <= {reply_q_odd_reg, reply_q_even_reg};
                else fifo1_reg <= {reply_q_odd_reg, reply_q_even_reg};
                fifo_count_reg <= fifo_count_reg + 2'd1;
            end
            2'b01: begin
                fifo0_reg      <= fifo1_reg;
                fifo_count_reg <= fifo_count_reg - 2'd1;
            end
            2'b11: begin
                if (fifo_count_reg == 2'd1) fifo0_reg <= {reply_q_odd_reg, reply_q_even_reg};
                else begin
                    fifo0_reg <= fifo1_reg;
                    fifo1_reg <= {reply_q_odd_reg, reply_q_even_reg};
                end
            end
            default: ;
            endcase
            if (rst) begin
                fifo_count_reg   <= 2'd0;
                read_pending_reg <= 1'b0;
            end
        end

        wire unused_first = &{1'b0, job_first_reg};
    end
    endgenerate

    // ================================================================ engine
    // The next request may start while a reply is being sent, unless that reply's slot
    // is one the request could write (the next scratch slot, or the next ring slot when
    // the transmitter is resending the oldest stored reply).
    wire tx_conflict = (tx_state_reg != TX_IDLE) &&
                       (tx_slot_reg == ring_reg || tx_slot_reg == scratch_slot);
    wire pkt_start   = (state_reg == STATE_IDLE) && pkt_valid && !pkt_pop_reg &&
                       !job_valid_reg && !tx_conflict;
    wire idx_advance = (state_reg == STATE_PHDR) || (state_reg == STATE_THDR) ||
                       (state_reg == STATE_ADDR) || (state_reg == STATE_RMWA) ||
                       (state_reg == STATE_RMWB) || (state_reg == STATE_WDATA) ||
                       (state_reg == STATE_WAIT && reg_ack && trans_write &&
                        trans_done_reg + 8'd1 != trans_words_reg);

    always @* begin
        base_next = base_reg;
        idx_next  = idx_reg;
        if (pkt_start) begin
            base_next = pkt_base;
            idx_next  = 10'd0;
        end else if (idx_advance) begin
            idx_next  = idx_reg + 10'd1;
        end
    end

    // packet header decode (valid in STATE_PHDR)
    wire        phdr_be       = (rd_data[31:24] == 8'h20) && (rd_data[7:4] == 4'hF) &&
                                (rd_data[3:0] <= 4'h2);
    wire        phdr_le       = (word_swapped[31:24] == 8'h20) &&
                                (word_swapped[7:0] == 8'hF0);   // control only
    wire [15:0] phdr_id       = phdr_be ? rd_data[23:8] : word_swapped[23:8];
    wire        phdr_control  = phdr_be ? (rd_data[3:0] == 4'h0) : phdr_le;
    wire        phdr_reliable = (phdr_id != 16'd0);
    wire [31:0] phdr_reply    = {8'h20, phdr_id, 8'hF0};   // the reply's packet header (value)

    // actions of the engine's states, done after its case statement
    reg                 put;         // write put_value at reply word put_pos
    reg [SLOT_AW-1:0]   put_pos;
    reg [31:0]          put_value;
    reg                 finish;      // the control packet ends: keep its reply, send it
    reg                 send;        // hand the transmitter a job, wait until it is taken
    reg [SLOT_W-1:0]    send_slot;
    reg [SLOT_AW-1:0]   send_len;
    reg [31:0]          send_first;  // word 0, as stored
    integer j;

    always @* begin
        state_next            = state_reg;
        le_next               = le_reg;
        pkt_id_next           = pkt_id_reg;
        store_next            = store_reg;
        slot_next             = slot_reg;
        reply_pos_next        = reply_pos_reg;
        thdr_pos_next         = thdr_pos_reg;
        expected_next         = expected_reg;
        ring_next             = ring_reg;
        slot_id_next          = slot_id_reg;
        slot_valid_next       = slot_valid_reg;
        slot_le_next          = slot_le_reg;
        slot_len_next         = slot_len_reg;
        scratch_next          = scratch_reg;
        trans_id_next         = trans_id_reg;
        trans_words_next      = trans_words_reg;
        trans_type_next       = trans_type_reg;
        trans_done_next       = trans_done_reg;
        trans_info_next       = trans_info_reg;
        trans_addr_next       = trans_addr_reg;
        rmw_mask_next         = rmw_mask_reg;
        rmw_or_next           = rmw_or_reg;
        rmw_old_next          = rmw_old_reg;
        rmw_write_next        = rmw_write_reg;
        stat_idx_next         = stat_idx_reg;
        ticks_next            = ticks_reg;
        reg_req_next          = 1'b0;
        reg_we_next           = reg_we_reg;
        reg_addr_next         = reg_addr_reg;
        reg_wdata_next        = reg_wdata_reg;
        reply_we_next         = 1'b0;
        reply_waddr_next      = reply_waddr_reg;
        reply_wdata_next      = reply_wdata_reg;
        pkt_pop_next          = 1'b0;
        hist_next             = hist_reg;
        rx_hist_next          = rx_hist_reg;
        tx_hist_next          = tx_hist_reg;
        job_valid_next        = job_valid_reg;
        job_slot_next         = job_slot_reg;
        job_len_next          = job_len_reg;
        job_first_next        = job_first_reg;
        job_mac_next          = job_mac_reg;
        job_ip_next           = job_ip_reg;
        job_port_next         = job_port_reg;
        job_src_port_next     = job_src_port_reg;
        ev_control_next       = 1'b0;
        ev_status_next        = 1'b0;
        ev_resend_next        = 1'b0;
        ev_id_dropped_next    = 1'b0;
        ev_resend_miss_next   = 1'b0;
        ev_transactions_next  = 1'b0;
        ev_bad_header_next    = 1'b0;
        ev_bus_errors_next    = 1'b0;
        ev_bus_timeouts_next  = 1'b0;
        ev_wp_rejected_next   = 1'b0;
        ev_reply_overflow_next = 1'b0;
        bad_phdr_next         = 1'b0;
        bad_phdr_pending_next = (bad_phdr_reg || bad_phdr_pending_reg) && ev_malformed;
        put        = 1'b0;
        put_pos    = reply_pos_reg;
        put_value  = reg_rdata;
        finish     = 1'b0;
        send       = 1'b0;
        send_slot  = slot_reg;
        send_len   = reply_pos_reg;
        send_first = 32'd0;

        if (tick_1ms && ticks_reg != 8'hFF)
            ticks_next = ticks_reg + 8'd1;

        case (state_reg)
        STATE_IDLE: begin
            if (pkt_start) state_next = STATE_PHDR;
        end
        STATE_PHDR: begin
            le_next     = !phdr_be;
            pkt_id_next = phdr_id;
            if (phdr_be && rd_data[3:0] == 4'h1) begin                 // status
                hist_next      = {hist_reg[119:0], 8'h11};
                slot_next      = scratch_slot;
                stat_idx_next  = 5'd0;
                state_next     = STATE_STAT;
                ev_status_next = 1'b1;
            end else if (phdr_be && rd_data[3:0] == 4'h2) begin        // resend
                if (resend_hit) begin
                    hist_next      = {hist_reg[119:0], 8'h12};
                    ev_resend_next = 1'b1;
                    send       = 1'b1;
                    send_slot  = resend_slot;
                    send_len   = slot_len_reg[resend_slot*SLOT_AW +: SLOT_AW];
                    send_first = resend_le ? bswap(phdr_reply) : phdr_reply;
                end else begin
                    ev_resend_miss_next = 1'b1;
                    hist_next  = {hist_reg[119:0], 8'h22};
                    state_next = STATE_DROP;
                end
            end else if (!phdr_control) begin                          // not IPbus 2.0
                bad_phdr_next = 1'b1;
                hist_next     = {hist_reg[119:0], 8'h3F};
                state_next    = STATE_DROP;
            end else if (phdr_reliable && phdr_id != expected_reg) begin   // not the next ID
                ev_id_dropped_next = 1'b1;
                hist_next  = {hist_reg[119:0], 8'h20};
                state_next = STATE_DROP;
            end else begin                                             // execute
                store_next = phdr_reliable;
                slot_next  = phdr_reliable ? ring_reg : scratch_slot;
                if (phdr_reliable)
                    for (j = 0; j < NBUF; j = j + 1)
                        if (ring_reg == j[SLOT_W-1:0]) slot_valid_next[j] = 1'b0;
                hist_next    = {hist_reg[119:0], 8'h10};
                rx_hist_next = {rx_hist_reg[95:0], phdr_reply};
                reply_we_next    = 1'b1;
                reply_waddr_next = {phdr_reliable ? ring_reg : scratch_slot, {SLOT_AW{1'b0}}};
                reply_wdata_next = phdr_be ? phdr_reply : bswap(phdr_reply);
                reply_pos_next   = {{(SLOT_AW-1){1'b0}}, 1'b1};
                state_next = (pkt_words > 10'd1) ? STATE_THDR : STATE_END;
            end
        end
        STATE_THDR: begin
            trans_id_next    = word[27:16];
            trans_words_next = thdr_words;
            trans_type_next  = thdr_type;
            trans_done_next  = 8'd0;
            thdr_pos_next    = reply_pos_reg;
            if ((!thdr_fits && thdr_ok) || reply_pos_reg >= MAX_WORDS[SLOT_AW-1:0]) begin
                ev_reply_overflow_next = 1'b1;
                state_next = STATE_END;
            end else begin
                reply_pos_next = reply_pos_reg + 1'b1;
                ev_transactions_next = 1'b1;
                if (!thdr_ok || words_after < thdr_need) begin
                    trans_info_next    = 4'h1;
                    ev_bad_header_next = 1'b1;
                    state_next = STATE_HDR;
                end else if ((thdr_write || thdr_rmw) && !write_allowed) begin
                    trans_info_next     = 4'h5;
                    ev_wp_rejected_next = 1'b1;
                    state_next = STATE_HDR;
                end else begin
                    trans_info_next = 4'h0;
                    state_next = STATE_ADDR;
                end
            end
        end
        STATE_ADDR: begin
            trans_addr_next = (trans_type_reg == 4'h6) ? CONF_BASE + word : word;
            rmw_write_next  = 1'b0;
            if (trans_read)
                state_next = (trans_words_reg == 8'd0) ? STATE_HDR : STATE_BUS;
            else if (trans_write)
                state_next = (trans_words_reg == 8'd0) ? STATE_HDR : STATE_WDATA;
            else
                state_next = STATE_RMWA;
        end
        STATE_RMWA: begin
            rmw_mask_next = word;
            state_next = (trans_type_reg == 4'h4) ? STATE_RMWB : STATE_BUS;
        end
        STATE_RMWB: begin
            rmw_or_next = word;
            state_next  = STATE_BUS;
        end
        STATE_WDATA: begin
            reg_wdata_next = word;
            state_next     = STATE_BUS;
        end
        STATE_BUS: begin
            reg_req_next  = 1'b1;
            reg_we_next   = trans_write || rmw_write_reg;
            reg_addr_next = trans_addr_reg;
            ticks_next    = 8'd0;
            state_next    = STATE_WAIT;
        end
        STATE_RMWW: begin
            reg_wdata_next = (trans_type_reg == 4'h4) ? ((rmw_old_reg & rmw_mask_reg) | rmw_or_reg)
                                                      : (rmw_old_reg + rmw_mask_reg);
            rmw_write_next = 1'b1;
            state_next     = STATE_BUS;
        end
        STATE_WAIT: begin
            if (reg_ack) begin
                if (trans_rmw) begin
                    if (!rmw_write_reg) begin
                        rmw_old_next = reg_rdata;
                        put          = 1'b1;
                        state_next   = STATE_RMWW;
                    end else begin
                        reply_pos_next  = reply_pos_reg + 1'b1;
                        trans_done_next = 8'd1;
                        state_next      = STATE_HDR;
                    end
                end else begin
                    if (trans_read) begin
                        put            = 1'b1;
                        reply_pos_next = reply_pos_reg + 1'b1;
                    end
                    trans_done_next = trans_done_reg + 8'd1;
                    if (trans_incr) trans_addr_next = trans_addr_reg + 32'd1;
                    if (trans_done_reg + 8'd1 == trans_words_reg) begin
                        state_next = STATE_HDR;
                    end else begin
                        // next word at once (one request outstanding: this one is
                        // answered); a write's next data word is on `word` already
                        reg_req_next  = 1'b1;
                        reg_addr_next = trans_incr ? trans_addr_reg + 32'd1 : trans_addr_reg;
                        ticks_next    = 8'd0;
                        if (trans_write) reg_wdata_next = word;
                    end
                end
            end else if (reg_err || ticks_reg > BUS_TIMEOUT_MS[7:0]) begin
                if (reg_err) ev_bus_errors_next = 1'b1;
                else ev_bus_timeouts_next = 1'b1;
                trans_info_next = {2'b01, !reg_err, trans_write || rmw_write_reg};
                state_next = STATE_HDR;
            end
        end
        STATE_HDR: begin
            put       = 1'b1;
            put_pos   = thdr_pos_reg;
            put_value = {4'h2, trans_id_reg, trans_done_reg, trans_type_reg, trans_info_reg};
            if (trans_info_reg != 4'h0 || idx_reg >= pkt_words) finish = 1'b1;
            else state_next = STATE_THDR;
        end
        STATE_END: finish = 1'b1;
        STATE_STAT: begin
            reply_we_next    = 1'b1;
            reply_waddr_next = {scratch_slot, {(SLOT_AW-4){1'b0}}, stat_idx_reg[3:0]};
            reply_wdata_next = stat_word;
            stat_idx_next    = stat_idx_reg + 5'd1;
            if (stat_idx_reg == 5'd15) begin
                send       = 1'b1;
                send_slot  = scratch_slot;
                send_len   = 9'd16;
                send_first = 32'h200000F1;
            end
        end
        STATE_TXW: begin
            // wait until the transmitter has taken the job, then free the request
            if (job_take) begin
                job_valid_next = 1'b0;
                pkt_pop_next   = 1'b1;
                state_next     = STATE_IDLE;
            end
        end
        STATE_DROP: begin
            pkt_pop_next = 1'b1;
            state_next   = STATE_IDLE;
        end
        default: state_next = STATE_IDLE;
        endcase

        if (finish) begin
            ev_control_next = 1'b1;
            tx_hist_next = {tx_hist_reg[95:0], 8'h20, pkt_id_reg, 8'hF0};
            slot_len_next[slot_reg*SLOT_AW +: SLOT_AW] = reply_pos_reg;
            if (store_reg) begin
                slot_id_next[slot_reg*16 +: 16] = pkt_id_reg;
                for (j = 0; j < NBUF; j = j + 1)
                    if (slot_reg == j[SLOT_W-1:0]) begin
                        slot_valid_next[j] = 1'b1;
                        slot_le_next[j]    = le_reg;
                    end
                ring_next = (ring_reg == NBUF[SLOT_W-1:0] - 1'b1) ? {SLOT_W{1'b0}}
                                                                  : ring_reg + 1'b1;
                expected_next = (pkt_id_reg == 16'hFFFF) ? 16'd1 : pkt_id_reg + 16'd1;
            end
            send       = 1'b1;
            send_slot  = slot_reg;
            send_len   = reply_pos_reg;
            send_first = le_reg ? bswap({8'h20, pkt_id_reg, 8'hF0}) : {8'h20, pkt_id_reg, 8'hF0};
        end
        if (send) begin
            job_valid_next    = 1'b1;
            job_slot_next     = send_slot;
            job_len_next      = send_len;
            job_first_next    = send_first;
            job_mac_next      = pkt_src_mac;
            job_ip_next       = pkt_src_ip;
            job_port_next     = pkt_src_port;
            job_src_port_next = pkt_dst_port;
            if (send_slot == scratch_slot) scratch_next = !scratch_reg;
            state_next        = STATE_TXW;
        end
        if (put) begin
            reply_we_next    = 1'b1;
            reply_waddr_next = {slot_reg, put_pos};
            reply_wdata_next = le_reg ? bswap(put_value) : put_value;
        end
    end

    always @(posedge clk) begin
        base_reg              <= base_next;
        idx_reg               <= idx_next;
        state_reg             <= state_next;
        le_reg                <= le_next;
        pkt_id_reg            <= pkt_id_next;
        store_reg             <= store_next;
        slot_reg              <= slot_next;
        reply_pos_reg         <= reply_pos_next;
        thdr_pos_reg          <= thdr_pos_next;
        expected_reg          <= expected_next;
        ring_reg              <= ring_next;
        slot_id_reg           <= slot_id_next;
        slot_valid_reg        <= slot_valid_next;
        slot_le_reg           <= slot_le_next;
        slot_len_reg          <= slot_len_next;
        scratch_reg           <= scratch_next;
        trans_id_reg          <= trans_id_next;
        trans_words_reg       <= trans_words_next;
        trans_type_reg        <= trans_type_next;
        trans_done_reg        <= trans_done_next;
        trans_info_reg        <= trans_info_next;
        trans_addr_reg        <= trans_addr_next;
        rmw_mask_reg          <= rmw_mask_next;
        rmw_or_reg            <= rmw_or_next;
        rmw_old_reg           <= rmw_old_next;
        rmw_write_reg         <= rmw_write_next;
        stat_idx_reg          <= stat_idx_next;
        ticks_reg             <= ticks_next;
        reg_req_reg           <= reg_req_next;
        reg_we_reg            <= reg_we_next;
        reg_addr_reg          <= reg_addr_next;
        reg_wdata_reg         <= reg_wdata_next;
        reply_we_reg          <= reply_we_next;
        reply_waddr_reg       <= reply_waddr_next;
        reply_wdata_reg       <= reply_wdata_next;
        pkt_pop_reg           <= pkt_pop_next;
        hist_reg              <= hist_next;
        rx_hist_reg           <= rx_hist_next;
        tx_hist_reg           <= tx_hist_next;
        job_valid_reg         <= job_valid_next;
        job_slot_reg          <= job_slot_next;
        job_len_reg           <= job_len_next;
        job_first_reg         <= job_first_next;
        job_mac_reg           <= job_mac_next;
        job_ip_reg            <= job_ip_next;
        job_port_reg          <= job_port_next;
        job_src_port_reg      <= job_src_port_next;
        ev_control_reg        <= ev_control_next;
        ev_status_reg         <= ev_status_next;
        ev_resend_reg         <= ev_resend_next;
        ev_id_dropped_reg     <= ev_id_dropped_next;
        ev_resend_miss_reg    <= ev_resend_miss_next;
        ev_transactions_reg   <= ev_transactions_next;
        ev_bad_header_reg     <= ev_bad_header_next;
        ev_bus_errors_reg     <= ev_bus_errors_next;
        ev_bus_timeouts_reg   <= ev_bus_timeouts_next;
        ev_wp_rejected_reg    <= ev_wp_rejected_next;
        ev_reply_overflow_reg <= ev_reply_overflow_next;
        bad_phdr_reg          <= bad_phdr_next;
        bad_phdr_pending_reg  <= bad_phdr_pending_next;
        if (rst) begin
            state_reg             <= STATE_IDLE;
            job_valid_reg         <= 1'b0;
            scratch_reg           <= 1'b0;
            expected_reg          <= 16'd1;
            ring_reg              <= {SLOT_W{1'b0}};
            slot_valid_reg        <= {NBUF{1'b0}};
            hist_reg              <= 128'd0;
            rx_hist_reg           <= 128'd0;
            tx_hist_reg           <= 128'd0;
            reg_req_reg           <= 1'b0;
            reply_we_reg          <= 1'b0;
            pkt_pop_reg           <= 1'b0;
            ev_control_reg        <= 1'b0;
            ev_status_reg         <= 1'b0;
            ev_resend_reg         <= 1'b0;
            ev_id_dropped_reg     <= 1'b0;
            ev_resend_miss_reg    <= 1'b0;
            ev_transactions_reg   <= 1'b0;
            ev_bad_header_reg     <= 1'b0;
            ev_bus_errors_reg     <= 1'b0;
            ev_bus_timeouts_reg   <= 1'b0;
            ev_wp_rejected_reg    <= 1'b0;
            ev_reply_overflow_reg <= 1'b0;
            bad_phdr_reg          <= 1'b0;
            bad_phdr_pending_reg  <= 1'b0;
        end
    end

endmodule

`default_nettype wire
