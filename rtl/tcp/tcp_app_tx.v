`default_nettype none
// tcp_app_tx: the application's send stream into the per-session send buffers.
//
// s_tx_axis_*: bytes for session s_tx_axis_tid; a burst (up to tlast) holds one session.
//   Byte b of a session goes to address {sid, p[BUF_LOG2-1:0]} of the send buffer, p being
//   its write pointer (the low BUF_LOG2+1 bits of the byte's sequence number). A byte is
//   taken only while the session's buffer has room (p - una < 2^BUF_LOG2, una the low
//   bits of snd_una written by tcp_ctl), else the stream waits. s_tx_close on a beat
//   (tkeep may be 0) asks, after that beat's byte, to close the session's sending side.
//   Beats for a session that is not open (open_vec bit low) are taken and dropped
//   (cnt_ev bit 0 per beat), and so is the rest of a burst whose session was freed or
//   opened anew (kill_valid or init_valid for it) while the burst ran: its bytes belong
//   to the old connection.
// To tcp_ctl: svc_set (one-cycle strobe, svc_sid) when a burst ends (tlast) or when the
//   buffer of the session runs full, so the data is sent; close_set/close_sid for
//   s_tx_close; txw_rd_ptr = write pointer of session txw_rd_sid one cycle after.
// From tcp_ctl: init_valid/init_sid/init_ptr (a new session: write pointer and una both
//   init_ptr), una_wr_valid/una_wr_sid/una_wr_ptr (acknowledged data frees room).
// Send buffer read port (tcp_tx): buf_rd_en, buf_rd_addr, buf_rd_data one cycle later,
//   held while buf_rd_en is low.
// Parameters: DATA_W (8, tested), KEEP_W = DATA_W/8, NUM_SESS (2 to 256; 2, 8, 64 and 256
//   tested), SID_W = clog2(NUM_SESS), BUF_LOG2 (bytes per session, log2: 9 to 11; 9 and 11
//   tested).
// Latency: a burst's first byte is taken 2 cycles after it is offered, then one per cycle.
module tcp_app_tx #(
    parameter integer DATA_W   = 8,
    parameter integer KEEP_W   = DATA_W / 8,
    parameter integer NUM_SESS = 8,
    parameter integer SID_W    = 3,
    parameter integer BUF_LOG2 = 11
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire [DATA_W-1:0]         s_tx_axis_tdata,
    input  wire [KEEP_W-1:0]         s_tx_axis_tkeep,
    input  wire                      s_tx_axis_tvalid,
    output wire                      s_tx_axis_tready,
    input  wire                      s_tx_axis_tlast,
    input  wire [SID_W-1:0]          s_tx_axis_tid,
    input  wire                      s_tx_close,
    input  wire [NUM_SESS-1:0]       open_vec,
    output wire                      svc_set,
    output wire [SID_W-1:0]          svc_sid,
    output wire                      close_set,
    output wire [SID_W-1:0]          close_sid,
    input  wire [SID_W-1:0]          txw_rd_sid,
    output wire [BUF_LOG2:0]         txw_rd_ptr,
    input  wire                      init_valid,
    input  wire [SID_W-1:0]          init_sid,
    input  wire [BUF_LOG2:0]         init_ptr,
    input  wire                      kill_valid,
    input  wire [SID_W-1:0]          kill_sid,
    input  wire                      una_wr_valid,
    input  wire [SID_W-1:0]          una_wr_sid,
    input  wire [BUF_LOG2:0]         una_wr_ptr,
    input  wire                      buf_rd_en,
    input  wire [SID_W+BUF_LOG2-1:0] buf_rd_addr,
    output wire [7:0]                buf_rd_data,
    output wire                      busy_valid,   // a burst of session busy_sid is running
    output wire [SID_W-1:0]          busy_sid,
    output wire [0:0]                cnt_ev
);
    generate
        if (DATA_W != 8) begin : g_check_data_w
            tcp_app_tx_DATA_W_must_be_8 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            tcp_app_tx_KEEP_W_must_be_DATA_W_div_8 u_error ();
        end
        if (NUM_SESS < 2 || NUM_SESS > 256) begin : g_check_num_sess
            tcp_app_tx_NUM_SESS_must_be_2_to_256 u_error ();
        end
        if (SID_W != $clog2(NUM_SESS)) begin : g_check_sid_w
            tcp_app_tx_SID_W_must_be_clog2_NUM_SESS u_error ();
        end
        if (BUF_LOG2 < 9 || BUF_LOG2 > 11) begin : g_check_buf_log2
            tcp_app_tx_BUF_LOG2_must_be_9_to_11 u_error ();
        end
    endgenerate

    localparam integer B = BUF_LOG2;
    localparam [1:0] STATE_IDLE = 2'd0, STATE_LOAD = 2'd1, STATE_RUN = 2'd2;

    reg [7:0] buf_mem [0:(1<<(SID_W+B))-1];
    reg [B:0] txw_mem [0:NUM_SESS-1];
    reg [B:0] una_mem [0:NUM_SESS-1];
    reg [7:0] buf_q_reg;
    reg [B:0] txw_q_reg;   // for tcp_ctl
    reg [B:0] wp_q_reg;    // write pointer of the burst's session, read at its start
    reg [B:0] una_q_reg;   // una of the burst's session, read every cycle

    reg [1:0]       state_reg;
    reg [SID_W-1:0] sid_reg;
    reg [B:0]       wp_reg;
    reg             full_seen_reg;
    reg             svc_reg, close_reg, ev_reg;
    reg             stale_reg;   // the burst's session was freed or reopened: drop the rest

    wire        run    = (state_reg == STATE_RUN);
    wire        open   = open_vec[sid_reg] && !stale_reg;
    wire        gone   = (kill_valid && kill_sid == sid_reg) || (init_valid && init_sid == sid_reg);
    wire        gone_in = (kill_valid && kill_sid == s_tx_axis_tid) ||
                          (init_valid && init_sid == s_tx_axis_tid);
    wire [B:0]  queued = wp_reg - una_q_reg;   // bytes in the buffer (modulo 2^(B+1))
    wire        room   = !queued[B];
    wire        has_b  = s_tx_axis_tkeep[0];
    // a byte needs room; a beat without a byte, or for a closed session, is always taken
    wire        ready  = run && !init_valid && (!open || !has_b || room);
    wire        take   = ready && s_tx_axis_tvalid;
    wire        wr     = take && open && has_b;

    always @(posedge clk) begin
        if (buf_rd_en) buf_q_reg <= buf_mem[buf_rd_addr];
        txw_q_reg <= txw_mem[txw_rd_sid];
        wp_q_reg  <= txw_mem[s_tx_axis_tid];
        una_q_reg <= una_mem[run ? sid_reg : s_tx_axis_tid];
        if (wr) buf_mem[{sid_reg, wp_reg[B-1:0]}] <= s_tx_axis_tdata[7:0];
        if (init_valid) begin
            txw_mem[init_sid] <= init_ptr;
        end else if (wr) begin
            txw_mem[sid_reg] <= wp_reg + 1'b1;
        end
        if (init_valid) una_mem[init_sid] <= init_ptr;
        else if (una_wr_valid) una_mem[una_wr_sid] <= una_wr_ptr;
    end

    always @(posedge clk) begin
        svc_reg   <= 1'b0;
        close_reg <= 1'b0;
        ev_reg    <= 1'b0;
        case (state_reg)
            STATE_IDLE: if (s_tx_axis_tvalid) begin
                sid_reg   <= s_tx_axis_tid;
                stale_reg <= gone_in;
                state_reg <= STATE_LOAD;
            end
            STATE_LOAD: begin
                wp_reg        <= wp_q_reg;
                full_seen_reg <= 1'b0;
                state_reg     <= STATE_RUN;
                if (gone) stale_reg <= 1'b1;
            end
            default: begin
                if (gone) stale_reg <= 1'b1;
                if (wr) wp_reg <= wp_reg + 1'b1;
                if (take && !open) ev_reg <= 1'b1;
                if (take && open && s_tx_close) close_reg <= 1'b1;
                // a full buffer asks once for its data to be sent
                if (open && has_b && s_tx_axis_tvalid && !room && !full_seen_reg) begin
                    svc_reg       <= 1'b1;
                    full_seen_reg <= 1'b1;
                end
                if (room) full_seen_reg <= 1'b0;
                if (take && s_tx_axis_tlast) begin
                    svc_reg   <= open;
                    state_reg <= STATE_IDLE;
                end
            end
        endcase
        if (rst) begin
            state_reg <= STATE_IDLE;
            svc_reg   <= 1'b0;
            close_reg <= 1'b0;
            ev_reg    <= 1'b0;
        end
    end

    assign s_tx_axis_tready = ready;
    assign svc_set          = svc_reg;
    assign svc_sid          = sid_reg;
    assign close_set        = close_reg;
    assign close_sid        = sid_reg;
    assign txw_rd_ptr       = txw_q_reg;
    assign buf_rd_data      = buf_q_reg;
    assign cnt_ev           = ev_reg;
    assign busy_valid       = (state_reg != STATE_IDLE);
    assign busy_sid         = sid_reg;
endmodule
`default_nettype wire
