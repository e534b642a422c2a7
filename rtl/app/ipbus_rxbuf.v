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
// Parameters: DATA_W (8 or 64), AW (ring word-address bits;
//   2**AW words; must be at least 2x MAX_BYTES/4), QAW (queue entries 2**QAW),
//   MAX_BYTES (largest accepted payload; 1472 = Ethernet MTU - IP - UDP headers).
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
    output reg               s_hdr_ready,
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
    output reg  [31:0]       rd_data,   // (combinational select of registered reads)

    output reg               ev_rx,
    output reg               ev_bad,
    output reg               ev_oversize,
    output reg               ev_malformed
);

    localparam integer MAX_WORDS = MAX_BYTES / 4;
    localparam integer QW = AW + 10 + 48 + 32 + 16 + 16;

    // ---------------------------------------------------------------- ring RAM
    // Two banks of 32-bit words: even word addresses in mem_e, odd in mem_o, at entry
    // address >> 1, so a 64-bit beat writes one entry of both banks in one cycle.
    localparam integer EW = AW - 1;                  // entry address bits
    reg [31:0]   mem_e [0:(1<<EW)-1];
    reg [31:0]   mem_o [0:(1<<EW)-1];
    reg          we_e, we_o;
    reg [EW-1:0] w_ent;
    reg [31:0]   wd_e, wd_o;
    reg [31:0]   q_e, q_o;
    reg          rd_odd;

    always @(posedge clk) begin
        if (we_e) mem_e[w_ent] <= wd_e;
        if (we_o) mem_o[w_ent] <= wd_o;
        q_e    <= mem_e[rd_addr[AW-1:1]];
        q_o    <= mem_o[rd_addr[AW-1:1]];
        rd_odd <= rd_addr[0];
    end

    always @* rd_data = rd_odd ? q_o : q_e;

    // ---------------------------------------------------------------- queue RAM
    reg [QW-1:0]  qmem [0:(1<<QAW)-1];
    reg [QAW:0]   q_wr, q_rd;
    reg [QW-1:0]  q_out;
    reg           q_loaded;
    reg           q_loading;

    always @(posedge clk) begin
        q_out <= qmem[q_rd[QAW-1:0]];
    end

    wire q_full  = (q_wr[QAW] != q_rd[QAW]) && (q_wr[QAW-1:0] == q_rd[QAW-1:0]);
    wire q_empty = (q_wr == q_rd);

    // A packet committed into an empty queue is shown at once from a bypass register
    // (1 cycle after its last byte instead of 3 through the registered RAM read).
    reg [QW-1:0]  byp;
    reg           use_byp;
    wire [QW-1:0] q_head = use_byp ? byp : q_out;

    assign m_pkt_valid = q_loaded;
    assign {m_pkt_base, m_pkt_words, m_pkt_src_mac, m_pkt_src_ip, m_pkt_src_port,
            m_pkt_dst_port} = q_head;

    // ---------------------------------------------------------------- ring pointers
    reg [AW:0] wr_ptr;     // start of the packet being received
    reg [AW:0] rd_ptr;     // start of the oldest queued packet
    wire [AW:0] used = wr_ptr - rd_ptr;
    wire room = ({1'b0, used} + MAX_WORDS[AW+1:0] + 1'b1) <= (1 << AW);

    // ---------------------------------------------------------------- receive
    localparam [1:0] R_IDLE = 2'd0, R_STORE = 2'd1, R_DISCARD = 2'd2;
    reg [1:0]  rstate;
    reg [15:0] len;
    reg [15:0] nbytes;     // bytes received so far (saturating)
    reg [23:0] shift;      // first three bytes of the word being assembled
    reg [47:0] src_mac;
    reg [31:0] src_ip;
    reg [15:0] src_port, dst_port;

    assign s_axis_tready = (rstate == R_STORE) || (rstate == R_DISCARD);

    wire       beat      = s_axis_tvalid && s_axis_tready;
    wire [63:0] td64;                                // tdata widened to 64 bits
    generate
        if (DATA_W >= 64) begin : g_w64
            assign td64 = s_axis_tdata[63:0];
        end else begin : g_wn
            assign td64 = {{(64-DATA_W){1'b0}}, s_axis_tdata};
        end
    endgenerate
    // bytes in this beat: tkeep is contiguous from lane 0
    reg  [4:0] nkeep;
    integer    kk;
    always @* begin
        nkeep = 5'd0;
        for (kk = 0; kk < KEEP_W; kk = kk + 1)
            if (s_axis_tkeep[kk]) nkeep = kk[4:0] + 5'd1;
    end
    wire [4:0]  nin      = beat ? nkeep : 5'd0;
    wire [16:0] nsum     = {1'b0, nbytes} + {12'd0, nin};
    wire [15:0] nbytes_n = nsum[16] ? 16'hffff : nsum[15:0];
    wire       len_bad   = (len[1:0] != 2'b00) || (len < 16'd4);
    wire       commit    = (rstate == R_STORE) && beat && s_axis_tlast && !s_axis_tuser &&
                           (nbytes_n == len) && !len_bad;
    // the queue entry of the packet being received, built where it is stored (a function
    // called under the commit condition, so that a simulator evaluates the wide
    // concatenation only then, not every cycle)
    function [QW-1:0] q_entry(input [AW-1:0] base);
        begin
            q_entry = {base, len[11:2], src_mac, src_ip, src_port, dst_port};
        end
    endfunction
    // ring space a packet takes: its words rounded up to an even number (entries)
    wire [AW:0]   span    = {{(AW-10){1'b0}}, len[11:2]} + {{AW{1'b0}}, len[2]};
    wire [AW:0]   pop_span = {{(AW-10){1'b0}}, m_pkt_words} + {{AW{1'b0}}, m_pkt_words[0]};

    always @(posedge clk) begin
        we_e         <= 1'b0;
        we_o         <= 1'b0;
        ev_rx        <= 1'b0;
        ev_bad       <= 1'b0;
        ev_oversize  <= 1'b0;
        ev_malformed <= 1'b0;
        s_hdr_ready  <= 1'b0;
        if (rst) begin
            rstate <= R_IDLE;
            wr_ptr <= {(AW+1){1'b0}};
            q_wr   <= {(QAW+1){1'b0}};
        end else begin
            case (rstate)
            R_IDLE: begin
                if (s_hdr_valid && !s_hdr_ready && room && !q_full) begin
                    s_hdr_ready <= 1'b1;
                    len      <= s_hdr_len;
                    src_mac  <= s_hdr_src_mac;
                    src_ip   <= s_hdr_src_ip;
                    src_port <= s_hdr_src_port;
                    dst_port <= s_hdr_dst_port;
                    nbytes   <= 16'd0;
                    rstate   <= (s_hdr_len > MAX_BYTES[15:0]) ? R_DISCARD : R_STORE;
                end
            end
            R_STORE, R_DISCARD: begin
                if (beat) begin
                    nbytes <= nbytes_n;
                    if (DATA_W == 8) begin
                        // assemble words; even words to bank e, odd to bank o
                        if (s_axis_tkeep[0]) begin
                            shift <= {shift[15:0], s_axis_tdata[7:0]};
                            if (rstate == R_STORE && nbytes[1:0] == 2'b11 &&
                                nbytes < MAX_BYTES[15:0]) begin
                                we_e  <= ~nbytes[2];
                                we_o  <= nbytes[2];
                                w_ent <= wr_ptr[AW-1:1] + nbytes[AW+1:3];
                                wd_e  <= {shift, s_axis_tdata[7:0]};
                                wd_o  <= {shift, s_axis_tdata[7:0]};
                            end
                        end
                    end else if (rstate == R_STORE && nbytes < MAX_BYTES[15:0]) begin
                        // one 8-byte beat = one entry of both banks (byte lane 0 first)
                        we_e  <= 1'b1;
                        we_o  <= 1'b1;
                        w_ent <= wr_ptr[AW-1:1] + nbytes[AW+1:3];
                        wd_e  <= {td64[7:0], td64[15:8], td64[23:16], td64[31:24]};
                        wd_o  <= {td64[39:32], td64[47:40], td64[55:48], td64[63:56]};
                    end
                end
                if (beat && s_axis_tlast) begin
                    rstate <= R_IDLE;
                    ev_rx  <= 1'b1;
                    if (rstate == R_DISCARD) begin
                        ev_oversize <= 1'b1;
                    end else if (s_axis_tuser || nbytes_n != len) begin
                        ev_bad <= 1'b1;
                    end else if (len_bad) begin
                        ev_malformed <= 1'b1;
                    end else begin
                        qmem[q_wr[QAW-1:0]] <= q_entry(wr_ptr[AW-1:0]);
                        q_wr    <= q_wr + 1'b1;
                        wr_ptr  <= wr_ptr + span;
                    end
                end
            end
            default: rstate <= R_IDLE;
            endcase
        end
    end

    // ---------------------------------------------------------------- queue output
    always @(posedge clk) begin
        if (rst) begin
            q_rd      <= {(QAW+1){1'b0}};
            q_loaded  <= 1'b0;
            q_loading <= 1'b0;
            use_byp   <= 1'b0;
            rd_ptr    <= {(AW+1){1'b0}};
        end else begin
            q_loading <= 1'b0;
            if (q_loaded && m_pkt_ready) begin
                q_loaded <= 1'b0;
                use_byp  <= 1'b0;
                q_rd     <= q_rd + 1'b1;
                rd_ptr   <= rd_ptr + pop_span;
            end else if (!q_loaded && !q_loading && !q_empty) begin
                q_loading <= 1'b1;   // q_out shows qmem[q_rd] next cycle
            end else if (!q_loaded && !q_loading && commit) begin
                // the queue was empty: show the new head from a register, one cycle on
                // (when the packet's last word, written a cycle after its last byte,
                // is in the ring)
                byp       <= q_entry(wr_ptr[AW-1:0]);
                use_byp   <= 1'b1;
                q_loading <= 1'b1;
            end
            if (q_loading) q_loaded <= 1'b1;
        end
    end

    wire unused_lanes = &{1'b0, s_axis_tdata, s_axis_tkeep};  // lanes above 0 at DATA_W 8

endmodule

`default_nettype wire
