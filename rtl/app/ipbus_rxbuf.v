// ipbus_rxbuf: input buffer of the IPbus target. Stores whole request datagrams from a
// UDP application port as 32-bit words in a ring RAM and queues them for the engine,
// so a client may send a burst of requests (uHAL keeps 16 in flight) back to back.
//
// Interfaces:
//   s_hdr_* / s_axis_* : UDP application port, receive side (docs/conventions.md).
//                        The header is taken only when the ring has room for a packet of
//                        MAX_BYTES and the queue has a free entry: otherwise the UDP
//                        layer is back-pressured (s_hdr_ready low).
//   m_pkt_*            : queue of good packets (valid/ready; ready pops the head and frees
//                        its words): ring base address, length in words, sender's MAC,
//                        IP, port, and our port it was sent to.
//   rd_addr / rd_data  : read port of the ring (rd_data is mem[rd_addr] one cycle later).
//                        Word = the four payload bytes in wire order, first byte in [31:24].
//   ev_*               : one-cycle event strobes for the counters: ev_rx (datagram
//                        received), ev_bad (tuser set, or byte count not as announced),
//                        ev_oversize (longer than MAX_BYTES, discarded unstored),
//                        ev_malformed (length not a multiple of 4, or under 4 bytes).
//   A dropped datagram is never queued; nothing of it reaches the engine.
// Latency: m_pkt_valid rises 2 cycles after a good datagram's last byte when the queue
//   was empty (bypass register), else 2 cycles after the previous head is popped.
// Parameters (checked at elaboration): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8,
//   AW (ring word-address bits, 2**AW words: 10..14 and at least two packets of
//   MAX_BYTES; tested 12 and 13, synthesized 10), QAW (queue entries 2**QAW, 1..8;
//   tested 4), MAX_BYTES (largest accepted payload, a multiple of 4 up to 4092; tested
//   1472 = Ethernet MTU - IP - UDP headers).
`default_nettype none

module ipbus_rxbuf #(
    parameter integer DATA_W    = 8,
    parameter integer KEEP_W    = DATA_W / 8,
    parameter integer AW        = 12,
    parameter integer QAW       = 4,
    parameter integer MAX_BYTES = 1472
) (
    input  wire              clk,
    input  wire              rst,

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

    output wire              m_pkt_valid,
    input  wire              m_pkt_ready,
    output wire [AW-1:0]     m_pkt_base,
    output wire [9:0]        m_pkt_words,
    output wire [47:0]       m_pkt_src_mac,
    output wire [31:0]       m_pkt_src_ip,
    output wire [15:0]       m_pkt_src_port,
    output wire [15:0]       m_pkt_dst_port,

    input  wire [AW-1:0]     rd_addr,
    output wire [31:0]       rd_data,

    output wire              ev_rx,
    output wire              ev_bad,
    output wire              ev_oversize,
    output wire              ev_malformed
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            ipbus_rxbuf_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W * 8 != DATA_W) begin : g_check_keep_w
            ipbus_rxbuf_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (MAX_BYTES % 4 != 0 || MAX_BYTES < 4 || MAX_BYTES > 4092) begin : g_check_max_bytes
            ipbus_rxbuf_MAX_BYTES_must_be_a_multiple_of_4_up_to_4092 u_error ();  // unsupported
        end
        if (AW < 10 || AW > 14 || (1 << AW) < 2 * (MAX_BYTES / 4)) begin : g_check_aw
            ipbus_rxbuf_AW_must_be_10_to_14_and_hold_two_packets u_error ();  // unsupported
        end
        if (QAW < 1 || QAW > 8) begin : g_check_qaw
            ipbus_rxbuf_QAW_must_be_1_to_8 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam integer MAX_WORDS = MAX_BYTES / 4;
    localparam integer QW = AW + 10 + 48 + 32 + 16 + 16;   // queue entry bits

    // ---------------------------------------------------------------- ring RAM
    // Two banks of 32-bit words: even word addresses in ring_even_mem, odd in
    // ring_odd_mem, at entry address >> 1, so a 64-bit beat writes one entry of both
    // banks in one cycle.
    localparam integer EW = AW - 1;                  // entry address bits
    reg [31:0]   ring_even_mem [0:(1<<EW)-1];
    reg [31:0]   ring_odd_mem  [0:(1<<EW)-1];
    reg          ring_we_even_reg, ring_we_odd_reg;
    reg [EW-1:0] ring_waddr_reg;                     // entry written
    reg [31:0]   ring_wdata_even_reg, ring_wdata_odd_reg;
    reg [31:0]   ring_q_even_reg, ring_q_odd_reg;    // entry rd_addr >> 1, both banks
    reg          rd_odd_reg;                         // rd_addr was odd

    always @(posedge clk) begin
        if (ring_we_even_reg) ring_even_mem[ring_waddr_reg] <= ring_wdata_even_reg;
        if (ring_we_odd_reg)  ring_odd_mem[ring_waddr_reg]  <= ring_wdata_odd_reg;
        ring_q_even_reg <= ring_even_mem[rd_addr[AW-1:1]];
        ring_q_odd_reg  <= ring_odd_mem[rd_addr[AW-1:1]];
        rd_odd_reg      <= rd_addr[0];
    end

    assign rd_data = rd_odd_reg ? ring_q_odd_reg : ring_q_even_reg;

    // ---------------------------------------------------------------- queue RAM
    reg [QW-1:0]  queue_mem [0:(1<<QAW)-1];
    reg [QAW:0]   queue_wr_reg, queue_rd_reg;        // entry indices, one wrap bit above
    reg [QW-1:0]  queue_q_reg;                       // queue_mem[queue_rd_reg]
    reg           head_valid_reg;                    // the head is on m_pkt_*
    reg           head_loading_reg;                  // the head shows next cycle

    always @(posedge clk) begin
        queue_q_reg <= queue_mem[queue_rd_reg[QAW-1:0]];
    end

    wire queue_full  = (queue_wr_reg[QAW] != queue_rd_reg[QAW]) &&
                       (queue_wr_reg[QAW-1:0] == queue_rd_reg[QAW-1:0]);
    wire queue_empty = (queue_wr_reg == queue_rd_reg);

    // A packet committed into an empty queue is shown at once from a bypass register
    // (1 cycle after its last byte instead of 3 through the registered RAM read).
    reg [QW-1:0]  bypass_reg;
    reg           use_bypass_reg;
    wire [QW-1:0] head = use_bypass_reg ? bypass_reg : queue_q_reg;

    assign m_pkt_valid = head_valid_reg;
    assign {m_pkt_base, m_pkt_words, m_pkt_src_mac, m_pkt_src_ip, m_pkt_src_port,
            m_pkt_dst_port} = head;

    // ---------------------------------------------------------------- ring pointers
    reg [AW:0]  wr_ptr_reg;    // start of the packet being received
    reg [AW:0]  rd_ptr_reg;    // start of the oldest queued packet
    wire [AW:0] used = wr_ptr_reg - rd_ptr_reg;
    wire        room = ({1'b0, used} + MAX_WORDS[AW+1:0] + 1'b1) <= (1 << AW);

    // ---------------------------------------------------------------- receive
    localparam [1:0] STATE_IDLE    = 2'd0,   // waiting for a header
                     STATE_STORE   = 2'd1,   // payload into the ring
                     STATE_DISCARD = 2'd2;   // payload of an oversize datagram, dropped
    reg [1:0]  state_reg, state_next;
    reg        hdr_ready_reg;      // one cycle: the header latched last cycle is taken
    reg [15:0] len_reg;            // hdr_len
    reg [15:0] bytes_reg;          // bytes received so far (saturating)
    reg [23:0] word_bytes_reg;     // first three bytes of the word being assembled
    reg [47:0] src_mac_reg;
    reg [31:0] src_ip_reg;
    reg [15:0] src_port_reg, dst_port_reg;
    reg        ev_rx_reg, ev_bad_reg, ev_oversize_reg, ev_malformed_reg;

    assign s_hdr_ready   = hdr_ready_reg;
    assign s_axis_tready = (state_reg == STATE_STORE) || (state_reg == STATE_DISCARD);
    assign ev_rx         = ev_rx_reg;
    assign ev_bad        = ev_bad_reg;
    assign ev_oversize   = ev_oversize_reg;
    assign ev_malformed  = ev_malformed_reg;

    wire        hdr_take = (state_reg == STATE_IDLE) && s_hdr_valid && !hdr_ready_reg &&
                           room && !queue_full;
    wire        beat     = s_axis_tvalid && s_axis_tready;
    wire        pkt_end  = beat && s_axis_tlast;
    wire [63:0] tdata64;                                // tdata widened to 64 bits
    generate
        if (DATA_W == 64) begin : g_w64
            assign tdata64 = s_axis_tdata;
        end else begin : g_w8
            assign tdata64 = {{(64-DATA_W){1'b0}}, s_axis_tdata};
        end
    endgenerate
    // bytes in this beat: tkeep is contiguous from lane 0
    reg [4:0] beat_bytes;
    integer   i;
    always @* begin
        beat_bytes = 5'd0;
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i]) beat_bytes = i[4:0] + 5'd1;
    end
    wire [16:0] bytes_sum  = {1'b0, bytes_reg} + {12'd0, beat ? beat_bytes : 5'd0};
    wire [15:0] bytes_next = bytes_sum[16] ? 16'hffff : bytes_sum[15:0];
    wire        len_bad    = (len_reg[1:0] != 2'b00) || (len_reg < 16'd4);
    wire        store_word = (state_reg == STATE_STORE) && (bytes_reg < MAX_BYTES[15:0]);
    wire        commit     = (state_reg == STATE_STORE) && pkt_end && !s_axis_tuser &&
                             (bytes_next == len_reg) && !len_bad;
    // the queue entry of the packet being received
    wire [QW-1:0] queue_entry = {wr_ptr_reg[AW-1:0], len_reg[11:2], src_mac_reg, src_ip_reg,
                                 src_port_reg, dst_port_reg};
    // ring space a packet takes: its words rounded up to an even number (entries)
    wire [AW:0] span     = {{(AW-10){1'b0}}, len_reg[11:2]} + {{AW{1'b0}}, len_reg[2]};
    wire [AW:0] pop_span = {{(AW-10){1'b0}}, m_pkt_words} + {{AW{1'b0}}, m_pkt_words[0]};

    always @* begin
        state_next = state_reg;
        case (state_reg)
            STATE_IDLE:
                if (hdr_take)
                    state_next = (s_hdr_len > MAX_BYTES[15:0]) ? STATE_DISCARD : STATE_STORE;
            STATE_STORE, STATE_DISCARD:
                if (pkt_end)
                    state_next = STATE_IDLE;
            default: state_next = STATE_IDLE;
        endcase
    end

    always @(posedge clk) begin
        state_reg <= state_next;
        if (rst)
            state_reg <= STATE_IDLE;
    end

    // header and payload datapath (the header is latched as it is taken)
    always @(posedge clk) begin
        if (hdr_take) begin
            len_reg      <= s_hdr_len;
            src_mac_reg  <= s_hdr_src_mac;
            src_ip_reg   <= s_hdr_src_ip;
            src_port_reg <= s_hdr_src_port;
            dst_port_reg <= s_hdr_dst_port;
            bytes_reg    <= 16'd0;
        end
        if (beat) begin
            bytes_reg <= bytes_next;
            if (DATA_W == 8) begin
                // assemble words; even words to the even bank, odd to the odd one
                if (s_axis_tkeep[0]) begin
                    word_bytes_reg <= {word_bytes_reg[15:0], s_axis_tdata[7:0]};
                    if (store_word && bytes_reg[1:0] == 2'b11) begin
                        ring_waddr_reg      <= wr_ptr_reg[AW-1:1] + bytes_reg[AW+1:3];
                        ring_wdata_even_reg <= {word_bytes_reg, s_axis_tdata[7:0]};
                        ring_wdata_odd_reg  <= {word_bytes_reg, s_axis_tdata[7:0]};
                    end
                end
            end else if (store_word) begin
                // one 8-byte beat = one entry of both banks (byte lane 0 first)
                ring_waddr_reg      <= wr_ptr_reg[AW-1:1] + bytes_reg[AW+1:3];
                ring_wdata_even_reg <= {tdata64[7:0], tdata64[15:8], tdata64[23:16],
                                        tdata64[31:24]};
                ring_wdata_odd_reg  <= {tdata64[39:32], tdata64[47:40], tdata64[55:48],
                                        tdata64[63:56]};
            end
        end
        if (commit)
            queue_mem[queue_wr_reg[QAW-1:0]] <= queue_entry;
    end

    // the write enables: the word completed on this beat (8 bits: its fourth byte), or
    // the 8-byte beat (64 bits)
    wire word_done = (DATA_W == 8) ? (s_axis_tkeep[0] && bytes_reg[1:0] == 2'b11) : 1'b1;

    always @(posedge clk) begin
        hdr_ready_reg    <= hdr_take;
        ring_we_even_reg <= beat && store_word && word_done &&
                            (DATA_W != 8 || !bytes_reg[2]);
        ring_we_odd_reg  <= beat && store_word && word_done &&
                            (DATA_W != 8 || bytes_reg[2]);
        ev_rx_reg        <= pkt_end;
        ev_oversize_reg  <= pkt_end && (state_reg == STATE_DISCARD);
        ev_bad_reg       <= pkt_end && (state_reg == STATE_STORE) &&
                            (s_axis_tuser || bytes_next != len_reg);
        ev_malformed_reg <= pkt_end && (state_reg == STATE_STORE) &&
                            !(s_axis_tuser || bytes_next != len_reg) && len_bad;
        if (commit) begin
            queue_wr_reg <= queue_wr_reg + 1'b1;
            wr_ptr_reg   <= wr_ptr_reg + span;
        end
        if (rst) begin
            hdr_ready_reg    <= 1'b0;
            ring_we_even_reg <= 1'b0;
            ring_we_odd_reg  <= 1'b0;
            ev_rx_reg        <= 1'b0;
            ev_oversize_reg  <= 1'b0;
            ev_bad_reg       <= 1'b0;
            ev_malformed_reg <= 1'b0;
            queue_wr_reg     <= {(QAW+1){1'b0}};
            wr_ptr_reg       <= {(AW+1){1'b0}};
        end
    end

    // ---------------------------------------------------------------- queue output
    always @(posedge clk) begin
        head_loading_reg <= 1'b0;
        if (head_valid_reg && m_pkt_ready) begin
            head_valid_reg <= 1'b0;
            use_bypass_reg <= 1'b0;
            queue_rd_reg   <= queue_rd_reg + 1'b1;
            rd_ptr_reg     <= rd_ptr_reg + pop_span;
        end else if (!head_valid_reg && !head_loading_reg && !queue_empty) begin
            head_loading_reg <= 1'b1;   // queue_q_reg shows queue_mem[queue_rd_reg] next cycle
        end else if (!head_valid_reg && !head_loading_reg && commit) begin
            // the queue was empty: show the new head from a register, one cycle on
            // (when the packet's last word, written a cycle after its last byte, is in
            // the ring)
            bypass_reg       <= queue_entry;
            use_bypass_reg   <= 1'b1;
            head_loading_reg <= 1'b1;
        end
        if (head_loading_reg)
            head_valid_reg <= 1'b1;
        if (rst) begin
            queue_rd_reg     <= {(QAW+1){1'b0}};
            head_valid_reg   <= 1'b0;
            head_loading_reg <= 1'b0;
            use_bypass_reg   <= 1'b0;
            rd_ptr_reg       <= {(AW+1){1'b0}};
        end
    end

    wire unused_lanes = &{1'b0, s_axis_tdata, s_axis_tkeep};  // lanes above 0 at DATA_W 8

endmodule

`default_nettype wire
