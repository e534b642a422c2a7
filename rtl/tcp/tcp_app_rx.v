`default_nettype none
// tcp_app_rx: the per-session receive buffers and the delivery of received data to the
// application.
//
// Receive buffer: byte with sequence number s of session sid at address
//   {sid, s[BUF_LOG2-1:0]}, written by tcp_ctl (buf_wr_*). tcp_ctl then moves the
//   session's commit pointer (commit_valid/commit_sid/commit_ptr: the low BUF_LOG2+1 bits
//   of rcv_nxt, FIN excluded), which marks the session as having data.
// Delivery (m_rx_axis_*, tid = session): round robin over the sessions with data, each
//   turn at most 2^CHUNK_LOG2 bytes of one session, tlast on the turn's last byte. Once
//   a session's data is all delivered and tcp_ctl has marked its end (eof_set: the peer's
//   FIN), one beat with tkeep = 0, tlast = 1 and m_rx_eof = 1 ends the session's stream.
//   A turn whose session is freed or opened anew meanwhile (kill_valid, init_valid) ends
//   as it would (the bytes already read out of the old connection's buffer) but writes
//   nothing back. After each turn the read pointer is written back and win_set/win_sid is pulsed (room
//   freed: tcp_ctl may advertise a larger window). rxr_rd_ptr = read pointer of session
//   rxr_rd_sid, one cycle after (tcp_ctl's window).
// From tcp_ctl: init_valid/init_sid/init_ptr (new session: read and commit pointers
//   init_ptr, no data, no end), kill_valid/kill_sid (session gone: nothing more to deliver).
// The flags avail and eof have one setter (tcp_ctl) and one clearer (this block) each;
//   a set in the cycle of a clear wins, so no commit is missed.
// Parameters: DATA_W (8, tested), KEEP_W = DATA_W/8, NUM_SESS (2 to 256; 2, 8, 64 and 256
//   tested), SID_W = clog2(NUM_SESS), BUF_LOG2 (bytes per session, log2: 9 to 11; 9 and 11
//   tested), CHUNK_LOG2 (a delivery turn's bytes at most, log2: 4 to 8; 4 and 8 tested).
// Latency: first byte 3 cycles after the commit on an idle block with the scan at the
//   session (up to NUM_SESS more to reach it), then one byte per cycle.
module tcp_app_rx #(
    parameter integer DATA_W     = 8,
    parameter integer KEEP_W     = DATA_W / 8,
    parameter integer NUM_SESS   = 8,
    parameter integer SID_W      = 3,
    parameter integer BUF_LOG2   = 11,
    parameter integer CHUNK_LOG2 = 8
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      buf_wr_en,
    input  wire [SID_W+BUF_LOG2-1:0] buf_wr_addr,
    input  wire [7:0]                buf_wr_data,
    input  wire                      commit_valid,
    input  wire [SID_W-1:0]          commit_sid,
    input  wire [BUF_LOG2:0]         commit_ptr,
    input  wire                      eof_set,
    input  wire [SID_W-1:0]          eof_sid,
    input  wire                      init_valid,
    input  wire [SID_W-1:0]          init_sid,
    input  wire [BUF_LOG2:0]         init_ptr,
    input  wire                      kill_valid,
    input  wire [SID_W-1:0]          kill_sid,
    input  wire [SID_W-1:0]          rxr_rd_sid,
    output wire [BUF_LOG2:0]         rxr_rd_ptr,
    output wire                      win_set,
    output wire [SID_W-1:0]          win_sid,
    output wire [DATA_W-1:0]         m_rx_axis_tdata,
    output wire [KEEP_W-1:0]         m_rx_axis_tkeep,
    output wire                      m_rx_axis_tvalid,
    input  wire                      m_rx_axis_tready,
    output wire                      m_rx_axis_tlast,
    output wire [SID_W-1:0]          m_rx_axis_tid,
    output wire                      m_rx_eof,
    output wire                      busy_valid,   // a turn of session busy_sid is running
    output wire [SID_W-1:0]          busy_sid
);
    generate
        if (DATA_W != 8) begin : g_check_data_w
            tcp_app_rx_DATA_W_must_be_8 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            tcp_app_rx_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (NUM_SESS < 2 || NUM_SESS > 256) begin : g_check_num_sess
            tcp_app_rx_NUM_SESS_must_be_2_to_256 u_error ();
        end
        if (SID_W != $clog2(NUM_SESS)) begin : g_check_sid_w
            tcp_app_rx_SID_W_must_be_clog2_NUM_SESS u_error ();
        end
        if (BUF_LOG2 < 9 || BUF_LOG2 > 11) begin : g_check_buf_log2
            tcp_app_rx_BUF_LOG2_must_be_9_to_11 u_error ();
        end
        if (CHUNK_LOG2 < 4 || CHUNK_LOG2 > 8) begin : g_check_chunk_log2
            tcp_app_rx_CHUNK_LOG2_must_be_4_to_8 u_error ();
        end
    endgenerate

    localparam integer B = BUF_LOG2;
    localparam integer     CHUNK  = 1 << CHUNK_LOG2;
    localparam integer     LAST_I = NUM_SESS - 1;
    localparam [SID_W-1:0] LAST   = LAST_I[SID_W-1:0];  // the last slot
    localparam [2:0] STATE_SCAN = 3'd0, STATE_SEL = 3'd1, STATE_LOAD = 3'd2,
                     STATE_DATA = 3'd3, STATE_EOF = 3'd4, STATE_DONE = 3'd5;

    reg [7:0] buf_mem [0:(1<<(SID_W+B))-1];
    reg [B:0] rxw_mem [0:NUM_SESS-1];
    reg [B:0] rxr_mem [0:NUM_SESS-1];
    reg [7:0] buf_q_reg;
    reg [B:0] rxr_q_reg, rd_q_reg, wr_q_reg;

    reg [2:0]          state_reg;
    reg [NUM_SESS-1:0] avail_reg, eof_reg;
    reg [SID_W-1:0]    scan_reg, sid_reg;
    reg [B:0]          ptr_reg;
    reg [B:0]          left_reg;   // bytes of the turn still to send, the current one included
    reg                win_reg;    // win_set: the turn's read pointer is written back
    reg                rest_reg;   // the turn was cut at the chunk: the session keeps its turn flag
    reg                stale_reg;  // the turn's session was freed or reopened meanwhile

    wire [NUM_SESS-1:0] want   = avail_reg | eof_reg;
    wire [B:0]          have   = wr_q_reg - rd_q_reg;
    wire [B:0]          chunk  = CHUNK[B:0];  // a turn's bytes at most
    wire                take   = m_rx_axis_tvalid && m_rx_axis_tready;
    wire                data   = (state_reg == STATE_DATA);
    wire                rd_first = (state_reg == STATE_LOAD) && (have != 0);
    wire                rd_next  = data && take && (left_reg != 1);
    wire                rd_en    = rd_first || rd_next;
    wire [B-1:0]        rd_ptr   = rd_first ? rd_q_reg[B-1:0] : ptr_reg[B-1:0];

    always @(posedge clk) begin
        if (buf_wr_en) buf_mem[buf_wr_addr] <= buf_wr_data;
        if (rd_en) buf_q_reg <= buf_mem[{sid_reg, rd_ptr}];
        rxr_q_reg <= rxr_mem[rxr_rd_sid];
        rd_q_reg  <= rxr_mem[sid_reg];
        wr_q_reg  <= rxw_mem[sid_reg];
        if (init_valid) rxw_mem[init_sid] <= init_ptr;
        else if (commit_valid) rxw_mem[commit_sid] <= commit_ptr;
        if (init_valid) rxr_mem[init_sid] <= init_ptr;
        else if (state_reg == STATE_DONE && !stale_reg) rxr_mem[sid_reg] <= ptr_reg;
    end

    always @(posedge clk) begin
        win_reg <= 1'b0;
        case (state_reg)
            STATE_SCAN: begin
                sid_reg   <= scan_reg;
                stale_reg <= 1'b0;
                // (the scan stands still while no session wants a turn)
                if (want[scan_reg]) state_reg <= STATE_SEL;
                else if (want != {NUM_SESS{1'b0}})
                    scan_reg <= (scan_reg == LAST) ? {SID_W{1'b0}} : scan_reg + 1'b1;
            end
            STATE_SEL: begin
                // the pointers are read this cycle; a commit from now on sets avail again
                avail_reg[sid_reg] <= 1'b0;
                state_reg <= STATE_LOAD;
            end
            STATE_LOAD: begin
                ptr_reg  <= rd_q_reg + 1'b1;
                left_reg <= (have > chunk) ? chunk : have;
                rest_reg <= (have > chunk);
                if (have != 0) state_reg <= STATE_DATA;
                else if (eof_reg[sid_reg]) state_reg <= STATE_EOF;
                else state_reg <= STATE_SCAN;
                if (have == 0) scan_reg <= (scan_reg == LAST) ? {SID_W{1'b0}} : scan_reg + 1'b1;
            end
            STATE_DATA: if (take) begin
                left_reg <= left_reg - 1'b1;
                if (left_reg != 1) ptr_reg <= ptr_reg + 1'b1;
                else state_reg <= STATE_DONE;
            end
            STATE_EOF: if (take) begin
                eof_reg[sid_reg] <= 1'b0;
                state_reg <= STATE_SCAN;
            end
            default: if (!init_valid) begin  // STATE_DONE: the read pointer is written back
                win_reg   <= !stale_reg;
                if (rest_reg && !stale_reg) avail_reg[sid_reg] <= 1'b1;
                state_reg <= STATE_SCAN;
                scan_reg  <= (scan_reg == LAST) ? {SID_W{1'b0}} : scan_reg + 1'b1;
            end
        endcase
        if (state_reg != STATE_SCAN &&
            ((kill_valid && kill_sid == sid_reg) || (init_valid && init_sid == sid_reg)))
            stale_reg <= 1'b1;
        if (commit_valid) avail_reg[commit_sid] <= 1'b1;
        if (eof_set) eof_reg[eof_sid] <= 1'b1;
        if (kill_valid) begin
            avail_reg[kill_sid] <= 1'b0;
            eof_reg[kill_sid]   <= 1'b0;
        end
        if (init_valid) begin
            avail_reg[init_sid] <= 1'b0;
            eof_reg[init_sid]   <= 1'b0;
        end
        if (rst) begin
            state_reg <= STATE_SCAN;
            scan_reg  <= {SID_W{1'b0}};
            avail_reg <= {NUM_SESS{1'b0}};
            eof_reg   <= {NUM_SESS{1'b0}};
            win_reg   <= 1'b0;
        end
    end

    assign m_rx_axis_tdata  = buf_q_reg;
    assign m_rx_axis_tkeep  = data;
    assign m_rx_axis_tvalid = data || (state_reg == STATE_EOF);
    assign m_rx_axis_tlast  = (data && left_reg == 1) || (state_reg == STATE_EOF);
    assign m_rx_axis_tid    = sid_reg;
    assign m_rx_eof         = (state_reg == STATE_EOF);
    assign rxr_rd_ptr       = rxr_q_reg;
    assign win_set          = win_reg;
    assign win_sid          = sid_reg;
    assign busy_valid       = (state_reg != STATE_SCAN);
    assign busy_sid         = sid_reg;
endmodule
`default_nettype wire
