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
// Parameters: DATA_W (8 or 64), NBUF (stored replies for resend, 1..14), RX_AW (input ring
//   word-address bits: 13 = 32 KiB holds uHAL's 16 in-flight packets of 1400 bytes
//   without back-pressure), RX_QAW (queued request packets, 2**RX_QAW >= 16 for uHAL),
//   MAX_BYTES (largest request and reply payload), BUS_TIMEOUT_MS, CONF_BASE (register
//   bus address where the configuration space, read by transaction type 6, starts).
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

    output reg               m_hdr_valid,
    input  wire              m_hdr_ready,
    output reg  [47:0]       m_hdr_dst_mac,
    output wire              m_hdr_dst_mac_valid,
    output reg  [31:0]       m_hdr_dst_ip,
    output reg  [15:0]       m_hdr_dst_port,
    output reg  [15:0]       m_hdr_src_port,
    output reg  [15:0]       m_hdr_len,
    output wire [15:0]       m_hdr_csum,
    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,

    output reg               reg_req,
    output reg               reg_we,
    output reg  [31:0]       reg_addr,
    output reg  [31:0]       reg_wdata,
    input  wire              reg_ack,
    input  wire              reg_err,
    input  wire [31:0]       reg_rdata,

    input  wire              cfg_allow_en,
    input  wire [127:0]      cfg_allow_ip,

    output wire [15:0]       cnt_ev
);

    localparam integer MAXW   = MAX_BYTES / 4;     // words per packet, both directions
    localparam integer SLOTW  = 9;                 // 512-word reply slots
    localparam integer NSLOT  = NBUF + 2;          // slots NBUF, NBUF+1: unstored replies
    localparam integer SAW    = (NSLOT > 8) ? 4 : (NSLOT > 4) ? 3 : (NSLOT > 2) ? 2 : 1;

    function [31:0] bswap(input [31:0] w);
        bswap = {w[7:0], w[15:8], w[23:16], w[31:24]};
    endfunction

    // ================================================================ input buffer
    wire [RX_AW-1:0] pkt_base;
    wire [9:0]       pkt_words;
    wire [47:0]      pkt_src_mac;
    wire [31:0]      pkt_src_ip;
    wire [15:0]      pkt_src_port, pkt_dst_port;
    wire             pkt_valid;
    reg              pkt_pop;
    wire [31:0]      rd_data;
    reg  [9:0]       idx;            // word index inside the request packet
    reg  [RX_AW-1:0] base;
    wire [9:0]       idx_nx;         // idx next cycle (the ring is read ahead)
    wire [RX_AW-1:0] base_nx;
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
        .m_pkt_valid(pkt_valid), .m_pkt_ready(pkt_pop),
        .m_pkt_base(pkt_base), .m_pkt_words(pkt_words),
        .m_pkt_src_mac(pkt_src_mac), .m_pkt_src_ip(pkt_src_ip),
        .m_pkt_src_port(pkt_src_port), .m_pkt_dst_port(pkt_dst_port),
        .rd_addr(base_nx + {{(RX_AW-10){1'b0}}, idx_nx}), .rd_data(rd_data),
        .ev_rx(ev_rx), .ev_bad(ev_bad), .ev_oversize(ev_oversize),
        .ev_malformed(ev_malformed)
    );

    // ================================================================ reply RAM
    // Slot s, word p: bank p[0] (even words in rbuf_e, odd in rbuf_o), entry {s, p >> 1}.
    // The 64-bit transmitter reads a whole entry (two words) per cycle.
    localparam integer RENT = SAW + SLOTW - 1;     // entry address bits
    reg [31:0]          rbuf_e [0:NSLOT*256-1];
    reg [31:0]          rbuf_o [0:NSLOT*256-1];
    reg                 rb_we;
    reg [SAW+SLOTW-1:0] rb_waddr;
    reg [31:0]          rb_wdata;
    wire [RENT-1:0]     rb_rent;                   // entry read address (transmitter)
    reg [31:0]          rb_qe, rb_qo;

    always @(posedge clk) begin
        if (rb_we && !rb_waddr[0]) rbuf_e[rb_waddr[SAW+SLOTW-1:1]] <= rb_wdata;
        if (rb_we &&  rb_waddr[0]) rbuf_o[rb_waddr[SAW+SLOTW-1:1]] <= rb_wdata;
        rb_qe <= rbuf_e[rb_rent];
        rb_qo <= rbuf_o[rb_rent];
    end

    // ================================================================ engine state
    localparam [4:0] S_IDLE = 5'd0,                S_PHDR = 5'd2,  S_THDR = 5'd3,
                     S_ADDR = 5'd4,  S_BUS = 5'd5, S_WAIT = 5'd6,  S_WDATA = 5'd7,
                     S_RMWA = 5'd8,  S_RMWB = 5'd9, S_HDR = 5'd10, S_END = 5'd11,
                     S_STAT = 5'd12, S_TXW = 5'd13, S_DROP = 5'd14, S_RMWW = 5'd15;
    reg [4:0]  state;
    reg        le;                   // packet is little-endian
    reg [15:0] pid;                  // packet ID
    reg        store;                // reply is kept for resend
    reg [SAW-1:0] slot;              // reply slot being written
    reg [SLOTW-1:0] rw;              // next reply word
    reg [SLOTW-1:0] hpos;            // reply position of the current transaction header
    reg [15:0] expected;             // next expected non-zero packet ID
    reg [SAW-1:0] ring;              // next ring slot for a stored reply
    reg [NBUF*16-1:0] slot_id;
    reg [NBUF-1:0]    slot_ok;
    reg [NBUF-1:0]    slot_le;      // stored reply is little-endian
    reg [NSLOT*SLOTW-1:0] slot_len;
    reg               scr;          // which scratch slot the next unstored reply uses
    wire [SAW-1:0]    scr_slot = NBUF[SAW-1:0] + {{(SAW-1){1'b0}}, scr};

    reg [11:0] tid;
    reg [7:0]  tn;                   // words announced
    reg [3:0]  tty;                  // type
    reg [7:0]  tdone;                // words done
    reg [3:0]  tinfo;
    reg [31:0] taddr;
    reg [31:0] tmask;                // RMW AND mask or addend
    reg [31:0] tor;                  // RMW OR mask
    reg [31:0] old;                  // RMW value read
    reg        rmw_wr;               // RMW: the write phase is on the bus
    reg [4:0]  k;                    // status word counter
    reg [7:0]  ticks;
    reg        bad_phdr;             // a packet header was malformed (count next cycle)
    // the engine's event strobes (registered: high the cycle after the event)
    reg        ev_control, ev_status, ev_resend, ev_id_dropped, ev_resend_miss;
    reg        ev_transactions, ev_bad_header, ev_bus_errors, ev_bus_timeouts;
    reg        ev_wp_rejected, ev_reply_overflow;
    // rx_malformed counts the receive buffer's malformed datagrams and the engine's bad
    // packet headers. Neither comes in two cycles in a row (a datagram takes a header
    // cycle and a beat; a packet a start, a header and a drop cycle), so a bad header in
    // the cycle of a malformed datagram waits one cycle (phdr_pend) and is never lost.
    reg        phdr_pend;
    assign cnt_ev = {m_axis_tvalid && m_axis_tready && m_axis_tlast, ev_reply_overflow,
                     ev_wp_rejected, ev_bus_timeouts, ev_bus_errors, ev_bad_header,
                     ev_transactions, ev_resend_miss, ev_id_dropped, ev_resend, ev_status,
                     ev_control, ev_malformed || bad_phdr || phdr_pend, ev_oversize, ev_bad,
                     ev_rx};
    integer    j;

    reg [127:0] hist;                // traffic history, newest event in [7:0]
    reg [127:0] rx_hist;             // last received control headers, newest in [31:0]
    reg [127:0] tx_hist;             // last sent control headers, newest in [31:0]

    wire [31:0] w = le ? bswap(rd_data) : rd_data;     // current request word (value)
    wire [31:0] wbe = rd_data;
    wire [31:0] wsw = bswap(rd_data);

    wire        is_rd   = (tty == 4'h0) || (tty == 4'h2) || (tty == 4'h6);
    wire        is_wr   = (tty == 4'h1) || (tty == 4'h3);
    wire        is_rmw  = (tty == 4'h4) || (tty == 4'h5);
    wire        incr    = (tty == 4'h0) || (tty == 4'h1) || (tty == 4'h6);
    wire [9:0]  remain  = pkt_words - idx - 10'd1;      // words after the current one

    // transaction header decode (valid in S_THDR)
    wire [3:0]  h_ty    = w[7:4];
    wire [7:0]  h_n     = w[15:8];
    wire        h_rd    = (h_ty == 4'h0) || (h_ty == 4'h2) || (h_ty == 4'h6);
    wire        h_wr    = (h_ty == 4'h1) || (h_ty == 4'h3);
    wire        h_rmw   = (h_ty == 4'h4) || (h_ty == 4'h5);
    wire        h_okfmt = (w[31:28] == 4'h2) && (w[3:0] == 4'hF) && (h_rd || h_wr || h_rmw) &&
                          (!h_rmw || h_n == 8'd1);
    wire [9:0]  h_need  = h_rd ? 10'd1 : h_wr ? {2'b00, h_n} + 10'd1 :
                          (h_ty == 4'h4) ? 10'd3 : 10'd2;
    wire [9:0]  h_rwords = 10'd1 + (h_rd ? {2'b00, h_n} : h_rmw ? 10'd1 : 10'd0);
    wire        h_fits  = ({1'b0, rw} + h_rwords) <= MAXW[9:0];

    reg allowed;
    integer i;
    always @* begin
        allowed = !cfg_allow_en;
        for (i = 0; i < 4; i = i + 1)
            if (cfg_allow_ip[i*32 +: 32] == pkt_src_ip) allowed = 1'b1;
    end

    // resend lookup
    reg            rs_hit;
    reg            rs_le;
    reg [SAW-1:0]  rs_slot;
    always @* begin
        rs_hit  = 1'b0;
        rs_le   = 1'b0;
        rs_slot = {SAW{1'b0}};
        for (i = 0; i < NBUF; i = i + 1)
            if (slot_ok[i] && slot_id[i*16 +: 16] == wbe[23:8]) begin
                rs_hit  = 1'b1;
                rs_slot = i[SAW-1:0];
                rs_le   = slot_le[i];
            end
    end

    // status reply words
    reg [31:0] stat_word;
    always @* begin
        case (k[3:0])
        4'd0:  stat_word = 32'h200000F1;
        4'd1:  stat_word = MAX_BYTES;
        4'd2:  stat_word = NBUF;
        4'd3:  stat_word = {8'h20, expected, 8'hF0};
        4'd4:  stat_word = hist[31:0];
        4'd5:  stat_word = hist[63:32];
        4'd6:  stat_word = hist[95:64];
        4'd7:  stat_word = hist[127:96];
        4'd8:  stat_word = rx_hist[31:0];
        4'd9:  stat_word = rx_hist[63:32];
        4'd10: stat_word = rx_hist[95:64];
        4'd11: stat_word = rx_hist[127:96];
        4'd12: stat_word = tx_hist[31:0];
        4'd13: stat_word = tx_hist[63:32];
        4'd14: stat_word = tx_hist[95:64];
        default: stat_word = tx_hist[127:96];
        endcase
    end

    // ================================================================ transmitter
    // The engine hands the transmitter a job (slot, length, word 0, destination) and may
    // go on with the next request while the reply is sent, in another slot: unstored
    // replies alternate between two scratch slots.
    reg         tx_start;            // a job is waiting for the transmitter
    reg [SAW-1:0] j_slot;
    reg [SLOTW-1:0] j_len;           // words
    reg [31:0]  j_first;             // word 0 of the reply, as stored (no RAM read needed)
    reg [47:0]  j_mac;
    reg [31:0]  j_ip;
    reg [15:0]  j_port, j_sport;
    reg [SAW-1:0] tx_slot;           // the job being sent
    reg [SLOTW-1:0] tx_len;
    reg [1:0]   tstate;
    localparam [1:0] T_IDLE = 2'd0, T_HDR = 2'd1, T_DATA = 2'd2, T_FILL = 2'd3;
    wire        tx_take = tx_start && (tstate == T_IDLE);

    assign m_hdr_dst_mac_valid = 1'b1;
    assign m_hdr_csum          = 16'h0000;
    assign m_axis_tuser        = 1'b0;

    generate
    if (DATA_W == 8) begin : g_tx8
        // Word 0 comes with the job; word n+1 is read from the reply RAM while word n
        // is sent (4 cycles per word, the read takes 2).
        reg [31:0]          tx_word;
        reg [1:0]           tx_byte;
        reg [SLOTW-1:0]     tx_widx;
        reg [SAW+SLOTW-1:0] rb_raddr;
        reg                 rb_odd;
        wire [31:0]         rb_q = rb_odd ? rb_qo : rb_qe;

        assign rb_rent       = rb_raddr[SAW+SLOTW-1:1];
        assign m_axis_tdata  = tx_word[31:24];
        assign m_axis_tkeep  = 1'b1;
        assign m_axis_tvalid = (tstate == T_DATA);
        assign m_axis_tlast  = (tx_byte == 2'd3) && (tx_widx == tx_len - 1'b1);

        always @(posedge clk) rb_odd <= rb_raddr[0];

        always @(posedge clk) begin
            if (rst) begin
                tstate         <= T_IDLE;
                m_hdr_valid    <= 1'b0;
            end else begin
                case (tstate)
                T_IDLE: if (tx_start) begin
                    tx_slot     <= j_slot;
                    tx_len      <= j_len;
                    tx_word     <= j_first;
                    tx_byte     <= 2'd0;
                    tx_widx     <= {SLOTW{1'b0}};
                    rb_raddr    <= {j_slot, {{(SLOTW-1){1'b0}}, 1'b1}};
                    m_hdr_len   <= {5'd0, j_len, 2'b00};
                    m_hdr_dst_mac  <= j_mac;
                    m_hdr_dst_ip   <= j_ip;
                    m_hdr_dst_port <= j_port;
                    m_hdr_src_port <= j_sport;
                    m_hdr_valid <= 1'b1;
                    tstate      <= T_HDR;
                end
                T_HDR: if (m_hdr_ready) begin
                    m_hdr_valid <= 1'b0;
                    tstate      <= T_DATA;
                end
                T_DATA: if (m_axis_tready) begin
                    tx_byte <= tx_byte + 2'd1;
                    tx_word <= {tx_word[23:0], 8'h00};
                    if (tx_byte == 2'd3) begin
                        if (m_axis_tlast) tstate <= T_IDLE;
                        tx_word  <= rb_q;
                        tx_widx  <= tx_widx + 1'b1;
                        rb_raddr <= {tx_slot, tx_widx + {{(SLOTW-2){1'b0}}, 2'd2}};
                    end
                end
                default: tstate <= T_IDLE;
                endcase
            end
        end
    end else begin : g_tx64
        // Two words per beat. Entries are read one per cycle (address presented
        // combinationally, data the next cycle) into a 2-entry FIFO; the header is
        // offered once the FIFO is full (or holds the whole reply), so the payload
        // then flows without a gap at one beat per cycle.
        reg [SLOTW-2:0] e_rd;            // next entry to read
        reg [SLOTW-2:0] e_out;           // entry on the output
        reg             inflight;
        reg [63:0]      f0, f1;
        reg [1:0]       fcnt;
        wire [SLOTW-2:0] n_ent = tx_len[SLOTW-1:1] + {{(SLOTW-2){1'b0}}, tx_len[0]};
        wire            pop   = (tstate == T_DATA) && m_axis_tready && (fcnt != 2'd0);
        wire            more  = (e_rd != n_ent);
        wire            issue = (tstate != T_IDLE) && more &&
                                ({1'b0, fcnt} + {2'b00, inflight} - {2'b00, pop} < 3'd2);
        wire            last  = (e_out == n_ent - 1'b1);

        assign rb_rent       = {tx_slot, e_rd};
        // f0 = {odd word, even word}; a word's first byte is its [31:24]; lane 0 first
        // (lanes past the end of an odd-length reply are zero, not stale RAM)
        wire            half  = last && tx_len[0];
        assign m_axis_tdata  = {half ? 32'd0 : {f0[39:32], f0[47:40], f0[55:48], f0[63:56]},
                                f0[7:0], f0[15:8], f0[23:16], f0[31:24]};
        assign m_axis_tkeep  = half ? 8'h0F : 8'hFF;
        assign m_axis_tvalid = (tstate == T_DATA) && (fcnt != 2'd0);
        assign m_axis_tlast  = last;

        always @(posedge clk) begin
            if (rst) begin
                tstate         <= T_IDLE;
                m_hdr_valid    <= 1'b0;
                fcnt           <= 2'd0;
                inflight       <= 1'b0;
            end else begin
                inflight <= issue;
                if (issue) e_rd <= e_rd + 1'b1;
                // FIFO: pop the head, push the entry read last cycle
                case ({inflight, pop})
                2'b10: begin
                    if (fcnt == 2'd0) f0 <= {rb_qo, rb_qe};
                    else f1 <= {rb_qo, rb_qe};
                    fcnt <= fcnt + 2'd1;
                end
                2'b01: begin
                    f0   <= f1;
                    fcnt <= fcnt - 2'd1;
                end
                2'b11: begin
                    if (fcnt == 2'd1) f0 <= {rb_qo, rb_qe};
                    else begin
                        f0 <= f1;
                        f1 <= {rb_qo, rb_qe};
                    end
                end
                default: ;
                endcase
                if (pop) e_out <= e_out + 1'b1;
                case (tstate)
                T_IDLE: if (tx_start) begin
                    tx_slot   <= j_slot;
                    tx_len    <= j_len;
                    e_rd      <= {(SLOTW-1){1'b0}};
                    e_out     <= {(SLOTW-1){1'b0}};
                    m_hdr_len <= {5'd0, j_len, 2'b00};
                    m_hdr_dst_mac  <= j_mac;
                    m_hdr_dst_ip   <= j_ip;
                    m_hdr_dst_port <= j_port;
                    m_hdr_src_port <= j_sport;
                    tstate    <= T_FILL;
                end
                T_FILL: if (fcnt == 2'd2 || (!more && !inflight && fcnt != 2'd0)) begin
                    m_hdr_valid <= 1'b1;
                    tstate      <= T_HDR;
                end
                T_HDR: if (m_hdr_ready) begin
                    m_hdr_valid <= 1'b0;
                    tstate      <= T_DATA;
                end
                T_DATA: if (pop && last) tstate <= T_IDLE;
                default: tstate <= T_IDLE;
                endcase
            end
        end

        wire unused_first = &{1'b0, j_first};
    end
    endgenerate

    // ================================================================ engine
    task put(input [SLOTW-1:0] pos, input [31:0] value);
        begin
            rb_we    <= 1'b1;
            rb_waddr <= {slot, pos};
            rb_wdata <= le ? bswap(value) : value;
        end
    endtask

    task send(input [SAW-1:0] s, input [SLOTW-1:0] n, input [31:0] first);
        begin
            tx_start <= 1'b1;
            j_slot   <= s;
            j_len    <= n;
            j_first  <= first;
            j_mac    <= pkt_src_mac;
            j_ip     <= pkt_src_ip;
            j_port   <= pkt_src_port;
            j_sport  <= pkt_dst_port;
            if (s == scr_slot) scr <= ~scr;
            state    <= S_TXW;
        end
    endtask

    // the end of a control packet: keep the reply if the ID asks for it, send it
    task finish;
        begin
            ev_control <= 1'b1;
            tx_hist <= {tx_hist[95:0], 8'h20, pid, 8'hF0};
            slot_len[slot*SLOTW +: SLOTW] <= rw;
            if (store) begin
                slot_id[slot*16 +: 16] <= pid;
                for (j = 0; j < NBUF; j = j + 1)
                    if (slot == j[SAW-1:0]) begin
                        slot_ok[j] <= 1'b1;
                        slot_le[j] <= le;
                    end
                ring     <= (ring == NBUF[SAW-1:0] - 1'b1) ? {SAW{1'b0}} : ring + 1'b1;
                expected <= (pid == 16'hFFFF) ? 16'd1 : pid + 16'd1;
            end
            send(slot, rw, le ? bswap({8'h20, pid, 8'hF0}) : {8'h20, pid, 8'hF0});
        end
    endtask

    // Request words are read ahead: the ring RAM is addressed with the index the engine
    // will have next cycle, so `w` always holds word `idx` and no state waits for a read.
    // A request may start while a reply is being sent, unless that reply's slot is one
    // the request could write (the next scratch slot, or the next ring slot when the
    // transmitter is resending the oldest stored reply).
    wire tx_conflict = (tstate != T_IDLE) && (tx_slot == ring || tx_slot == scr_slot);
    wire start = (state == S_IDLE) && pkt_valid && !pkt_pop && !tx_start && !tx_conflict;
    wire adv   = (state == S_PHDR) || (state == S_THDR) || (state == S_ADDR) ||
                 (state == S_RMWA) || (state == S_RMWB) || (state == S_WDATA) ||
                 (state == S_WAIT && reg_ack && is_wr && tdone + 8'd1 != tn);
    assign base_nx = start ? pkt_base : base;
    assign idx_nx  = start ? 10'd0 : adv ? idx + 10'd1 : idx;

    // packet header decode (valid in S_PHDR)
    wire        p_be   = (wbe[31:24] == 8'h20) && (wbe[7:4] == 4'hF) && (wbe[3:0] <= 4'h2);
    wire        p_le   = (wsw[31:24] == 8'h20) && (wsw[7:0] == 8'hF0);   // control only
    wire [15:0] p_id   = p_be ? wbe[23:8] : wsw[23:8];
    wire        p_ctrl = p_be ? (wbe[3:0] == 4'h0) : p_le;
    wire        p_rel  = (p_id != 16'd0);

    always @(posedge clk) begin
        rb_we    <= 1'b0;
        reg_req  <= 1'b0;
        pkt_pop  <= 1'b0;
        base     <= base_nx;
        idx      <= idx_nx;
        if (tick_1ms && ticks != 8'hFF) ticks <= ticks + 8'd1;
        bad_phdr <= 1'b0;
        ev_control <= 1'b0; ev_status <= 1'b0; ev_resend <= 1'b0; ev_id_dropped <= 1'b0;
        ev_resend_miss <= 1'b0; ev_transactions <= 1'b0; ev_bad_header <= 1'b0;
        ev_bus_errors <= 1'b0; ev_bus_timeouts <= 1'b0; ev_wp_rejected <= 1'b0;
        ev_reply_overflow <= 1'b0;
        if (rst) begin
            state    <= S_IDLE;
            tx_start <= 1'b0;
            scr      <= 1'b0;
            expected <= 16'd1;
            ring     <= {SAW{1'b0}};
            slot_ok  <= {NBUF{1'b0}};
            hist     <= 128'd0;
            rx_hist  <= 128'd0;
            tx_hist  <= 128'd0;
            phdr_pend <= 1'b0;
        end else begin
            phdr_pend <= (bad_phdr || phdr_pend) && ev_malformed;
            case (state)
            S_IDLE: begin
                if (start) state <= S_PHDR;
            end
            S_PHDR: begin
                le  <= !p_be;
                pid <= p_id;
                if (p_be && wbe[3:0] == 4'h1) begin                  // status
                    hist <= {hist[119:0], 8'h11};
                    slot <= scr_slot;
                    k    <= 5'd0;
                    state <= S_STAT;
                    ev_status <= 1'b1;
                end else if (p_be && wbe[3:0] == 4'h2) begin         // resend
                    if (rs_hit) begin
                        hist <= {hist[119:0], 8'h12};
                        ev_resend <= 1'b1;
                        send(rs_slot, slot_len[rs_slot*SLOTW +: SLOTW],
                             rs_le ? bswap({8'h20, p_id, 8'hF0}) : {8'h20, p_id, 8'hF0});
                    end else begin
                        ev_resend_miss <= 1'b1;
                        hist <= {hist[119:0], 8'h22};
                        state <= S_DROP;
                    end
                end else if (!p_ctrl) begin                          // not IPbus 2.0
                    bad_phdr <= 1'b1;
                    hist <= {hist[119:0], 8'h3F};
                    state <= S_DROP;
                end else if (p_rel && p_id != expected) begin        // not the next ID
                    ev_id_dropped <= 1'b1;
                    hist  <= {hist[119:0], 8'h20};
                    state <= S_DROP;
                end else begin                                       // execute
                    store <= p_rel;
                    slot  <= p_rel ? ring : scr_slot;
                    if (p_rel)
                        for (j = 0; j < NBUF; j = j + 1)
                            if (ring == j[SAW-1:0]) slot_ok[j] <= 1'b0;
                    hist    <= {hist[119:0], 8'h10};
                    rx_hist <= {rx_hist[95:0], 8'h20, p_id, 8'hF0};
                    rb_we    <= 1'b1;
                    rb_waddr <= {p_rel ? ring : scr_slot, {SLOTW{1'b0}}};
                    rb_wdata <= p_be ? {8'h20, p_id, 8'hF0} : bswap({8'h20, p_id, 8'hF0});
                    rw  <= {{(SLOTW-1){1'b0}}, 1'b1};
                    state <= (pkt_words > 10'd1) ? S_THDR : S_END;
                end
            end
            S_THDR: begin
                tid   <= w[27:16];
                tn    <= w[15:8];
                tty   <= w[7:4];
                tdone <= 8'd0;
                hpos  <= rw;
                if ((!h_fits && h_okfmt) || rw >= MAXW[SLOTW-1:0]) begin
                    ev_reply_overflow <= 1'b1;
                    state <= S_END;          // (finish next cycle: keeps this path short)
                end else begin
                    rw <= rw + 1'b1;
                    ev_transactions <= 1'b1;
                    if (!h_okfmt || remain < h_need) begin
                        tinfo <= 4'h1;
                        ev_bad_header <= 1'b1;
                        state <= S_HDR;
                    end else if ((h_wr || h_rmw) && !allowed) begin
                        tinfo <= 4'h5;
                        ev_wp_rejected <= 1'b1;
                        state <= S_HDR;
                    end else begin
                        tinfo <= 4'h0;
                        state <= S_ADDR;
                    end
                end
            end
            S_ADDR: begin
                taddr <= (tty == 4'h6) ? CONF_BASE + w : w;
                rmw_wr <= 1'b0;
                if (is_rd) state <= (tn == 8'd0) ? S_HDR : S_BUS;
                else if (is_wr) state <= (tn == 8'd0) ? S_HDR : S_WDATA;
                else state <= S_RMWA;
            end
            S_RMWA: begin
                tmask <= w;
                state <= (tty == 4'h4) ? S_RMWB : S_BUS;
            end
            S_RMWB: begin
                tor   <= w;
                state <= S_BUS;
            end
            S_WDATA: begin
                reg_wdata <= w;
                state <= S_BUS;
            end
            S_BUS: begin
                reg_req  <= 1'b1;
                reg_we   <= is_wr || rmw_wr;
                reg_addr <= taddr;
                ticks    <= 8'd0;
                state    <= S_WAIT;
            end
            S_RMWW: begin
                reg_wdata <= (tty == 4'h4) ? ((old & tmask) | tor) : (old + tmask);
                rmw_wr    <= 1'b1;
                state     <= S_BUS;
            end
            S_WAIT: begin
                if (reg_ack) begin
                    if (is_rmw) begin
                        if (!rmw_wr) begin
                            old <= reg_rdata;
                            put(rw, reg_rdata);
                            state <= S_RMWW;
                        end else begin
                            rw    <= rw + 1'b1;
                            tdone <= 8'd1;
                            state <= S_HDR;
                        end
                    end else begin
                        if (is_rd) begin
                            put(rw, reg_rdata);
                            rw <= rw + 1'b1;
                        end
                        tdone <= tdone + 8'd1;
                        if (incr) taddr <= taddr + 32'd1;
                        if (tdone + 8'd1 == tn) begin
                            state <= S_HDR;
                        end else begin
                            // next word at once (one request outstanding: this one is
                            // answered); a write's next data word is on `w` already
                            reg_req  <= 1'b1;
                            reg_addr <= incr ? taddr + 32'd1 : taddr;
                            ticks    <= 8'd0;
                            if (is_wr) reg_wdata <= w;
                        end
                    end
                end else if (reg_err || ticks > BUS_TIMEOUT_MS[7:0]) begin
                    if (reg_err) ev_bus_errors <= 1'b1;
                    else ev_bus_timeouts <= 1'b1;
                    tinfo <= {2'b01, !reg_err, is_wr || rmw_wr};
                    state <= S_HDR;
                end
            end
            S_HDR: begin
                put(hpos, {4'h2, tid, tdone, tty, tinfo});
                if (tinfo != 4'h0 || idx >= pkt_words) finish;
                else state <= S_THDR;
            end
            S_END: finish;
            S_STAT: begin
                rb_we    <= 1'b1;
                rb_waddr <= {scr_slot, {(SLOTW-4){1'b0}}, k[3:0]};
                rb_wdata <= stat_word;
                k <= k + 5'd1;
                if (k == 5'd15) send(scr_slot, 9'd16, 32'h200000F1);
            end
            S_TXW: begin
                // wait until the transmitter has taken the job, then free the request
                if (tx_take) begin
                    tx_start <= 1'b0;
                    pkt_pop  <= 1'b1;
                    state    <= S_IDLE;
                end
            end
            S_DROP: begin
                pkt_pop <= 1'b1;
                state   <= S_IDLE;
            end
            default: state <= S_IDLE;
            endcase
        end
    end

endmodule

`default_nettype wire
