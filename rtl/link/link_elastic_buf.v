`default_nettype none
// link_elastic_buf: clock-compensation (elastic) buffer between a link's recovered clock
// (wr_clk, the far end's transmit clock) and the local clock (clk), which may run a little
// apart. It keeps its fill near the middle by dropping or repeating skip words, so no other
// word is ever lost, repeated or altered while the two clocks stay within the link's
// documented offset (docs/link.md).
//
// Write side (wr_clk): a word (s_data, s_skip marking a skip word that may be dropped or
// repeated) is taken every cycle s_valid is high. With the fill seen from the write side
// (its pointer against the read pointer, Gray-coded and synchronized) at HI or more, a
// skip word is dropped (wr_cnt_ev[0]); a word arriving with the buffer full is lost and
// counted as an overflow (wr_cnt_ev[1]); any other word is written.
// Read side (clk): after reset, and after each time it ran empty, the reader waits until
// the fill it sees reaches START, then gives one word every cycle (m_valid). When the
// word just given was a skip word and the fill it sees is below LO, it gives that word
// again (a repeat, cnt_ev[0]). Running empty while the write side is up is an underflow
// (cnt_ev[1]); m_valid is then low until the fill is back at START. s_up (the write
// side's link state) crosses to clk as m_up; running empty after m_up fell (the link went
// down and the buffer drained) is no underflow.
// Thresholds: START = DEPTH/2 - 3, HI = DEPTH/2 + DEPTH/4 + 1, LO = DEPTH/2 - DEPTH/4 - 1
// (5, 13, 3 at DEPTH 16; 13, 25, 7 at DEPTH 32). Each side's view of the fill is off by
// the pointer synchronizers (the writer sees 2 to 3 words more than the buffer holds, the
// reader 2 to 3 fewer), so starting at START puts the true fill near DEPTH/2 with both
// views inside (LO, HI): clocks in step make no correction, and one side never undoes the
// other's. Between two skip runs the fill may drift DEPTH/4 - 1 words either way before
// overflow or underflow, and one run corrects up to its length.
// Reset: wr_rst and rst are asserted together (one reset of the receiver).
//
// Ports: wr_clk, wr_rst, s_data[WIDTH-1:0], s_skip, s_valid, s_up, wr_cnt_ev[1:0]
// ([0] a skip word dropped, [1] a word lost to overflow); clk, rst, m_data[WIDTH-1:0],
// m_skip, m_valid, m_up, cnt_ev[1:0] ([0] a skip word repeated, [1] an underflow).
// Parameters (tested values): WIDTH >= 1 (16 in the unit test; 10, 40 and 80 in link_rx at
// 1, 4 and 8 lanes); DEPTH 16 or 32 (both tested).
// Latency: a word written at wr_clk edge k reaches the read side's fill after 2 to 3 clk
// edges, and leaves on m_* about DEPTH/2 words later (the fill the buffer keeps).
module link_elastic_buf #(
    parameter WIDTH = 8,
    parameter DEPTH = 16
) (
    input  wire             wr_clk,
    input  wire             wr_rst,
    input  wire [WIDTH-1:0] s_data,
    input  wire             s_skip,
    input  wire             s_valid,
    input  wire             s_up,
    output wire [1:0]       wr_cnt_ev,
    input  wire             clk,
    input  wire             rst,
    output wire [WIDTH-1:0] m_data,
    output wire             m_skip,
    output wire             m_valid,
    output wire             m_up,
    output wire [1:0]       cnt_ev
);
    generate
        if (WIDTH < 1) begin : g_check_width
            link_elastic_buf_WIDTH_must_be_at_least_1 u_error ();  // unsupported parameter (no such module)
        end
        if (DEPTH != 16 && DEPTH != 32) begin : g_check_depth
            link_elastic_buf_DEPTH_must_be_16_or_32 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam AW = (DEPTH == 32) ? 5 : 4;
    localparam [AW:0] FULL = DEPTH;
    localparam [AW:0] START = DEPTH / 2 - 3;
    localparam [AW:0] HI = DEPTH / 2 + DEPTH / 4 + 1;
    localparam [AW:0] LO = DEPTH / 2 - DEPTH / 4 - 1;

    function [AW:0] bin2gray;
        input [AW:0] b;
        bin2gray = b ^ (b >> 1);
    endfunction

    function [AW:0] gray2bin;
        input [AW:0] g;
        integer i;
        begin
            gray2bin[AW] = g[AW];
            for (i = AW - 1; i >= 0; i = i - 1) gray2bin[i] = gray2bin[i+1] ^ g[i];
        end
    endfunction

    // {skip, data} per word
    reg  [WIDTH:0] data_mem[0:DEPTH-1];

    // ---------------------------------------------------------------- write side (wr_clk)
    reg  [AW:0] wr_ptr_reg;
    reg  [AW:0] wr_ptr_gray_reg;
    reg         drop_ev_reg, overflow_ev_reg;
    wire [AW:0] rd_ptr_gray_w;  // the reader's pointer, Gray, in wr_clk

    wire [AW:0] fill_w = wr_ptr_reg - gray2bin(rd_ptr_gray_w);
    wire        drop = s_valid && s_skip && fill_w >= HI;
    wire        overflow = s_valid && !drop && fill_w == FULL;
    wire        write = s_valid && !drop && fill_w != FULL;
    wire [AW:0] wr_ptr_next = wr_ptr_reg + {{AW{1'b0}}, write};

    always @(posedge wr_clk) begin
        if (write) data_mem[wr_ptr_reg[AW-1:0]] <= {s_skip, s_data};
        wr_ptr_reg <= wr_ptr_next;
        wr_ptr_gray_reg <= bin2gray(wr_ptr_next);
        drop_ev_reg <= drop;
        overflow_ev_reg <= overflow;
        if (wr_rst) begin
            wr_ptr_reg <= {(AW + 1) {1'b0}};
            wr_ptr_gray_reg <= {(AW + 1) {1'b0}};
            drop_ev_reg <= 1'b0;
            overflow_ev_reg <= 1'b0;
        end
    end

    assign wr_cnt_ev = {overflow_ev_reg, drop_ev_reg};

    // ------------------------------------------------------------------ read side (clk)
    reg  [AW:0]    rd_ptr_reg, rd_ptr_next;
    reg  [AW:0]    rd_ptr_gray_reg;
    reg            run_reg, run_next;
    reg            valid_reg;
    reg  [WIDTH:0] out_reg;
    reg            repeat_ev_reg, underflow_ev_reg;
    reg            read, repeat_word, underflow;
    wire [AW:0]    wr_ptr_gray_r;  // the writer's pointer, Gray, in clk
    wire           up_r;

    sync_bit #(.WIDTH(AW + 1)) u_sync_wr_ptr (
        .clk(clk), .in(wr_ptr_gray_reg), .out(wr_ptr_gray_r)
    );
    sync_bit #(.WIDTH(AW + 1)) u_sync_rd_ptr (
        .clk(wr_clk), .in(rd_ptr_gray_reg), .out(rd_ptr_gray_w)
    );
    sync_bit #(.WIDTH(1)) u_sync_up (
        .clk(clk), .in(s_up), .out(up_r)
    );

    wire [AW:0] fill_r = gray2bin(wr_ptr_gray_r) - rd_ptr_reg;

    always @* begin
        rd_ptr_next = rd_ptr_reg;
        run_next = run_reg;
        read = 1'b0;
        repeat_word = 1'b0;
        underflow = 1'b0;
        if (!run_reg) begin
            run_next = (fill_r >= START);
        end else if (valid_reg && out_reg[WIDTH] && fill_r < LO) begin
            repeat_word = 1'b1;
        end else if (fill_r == {(AW + 1) {1'b0}}) begin
            run_next = 1'b0;
            underflow = up_r;
        end else begin
            read = 1'b1;
            rd_ptr_next = rd_ptr_reg + 1'b1;
        end
    end

    always @(posedge clk) begin
        if (read) out_reg <= data_mem[rd_ptr_reg[AW-1:0]];
        rd_ptr_reg <= rd_ptr_next;
        rd_ptr_gray_reg <= bin2gray(rd_ptr_next);
        run_reg <= run_next;
        valid_reg <= read || repeat_word;
        repeat_ev_reg <= repeat_word;
        underflow_ev_reg <= underflow;
        if (rst) begin
            rd_ptr_reg <= {(AW + 1) {1'b0}};
            rd_ptr_gray_reg <= {(AW + 1) {1'b0}};
            run_reg <= 1'b0;
            valid_reg <= 1'b0;
            repeat_ev_reg <= 1'b0;
            underflow_ev_reg <= 1'b0;
        end
    end

    assign m_data = out_reg[WIDTH-1:0];
    assign m_skip = out_reg[WIDTH];
    assign m_valid = valid_reg;
    assign m_up = up_r;
    assign cnt_ev = {underflow_ev_reg, repeat_ev_reg};
endmodule
`default_nettype wire
