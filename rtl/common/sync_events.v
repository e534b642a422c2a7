`default_nettype none
// sync_events: carries WIDTH event strobes (counter events) from one clock domain to a
// destination at least as fast as the events come, every event arriving, bursts included
// (an event on every source cycle, on every bit at once).
//
// Each bit counts its events in a CW-bit counter in the source domain, registered as Gray
// code: at most one bit of it changes per source cycle, so the synchronizer always
// delivers a count the source really held. The destination keeps the count it has passed
// on for each bit and sends one strobe per destination cycle while it is behind.
//
// Interfaces:
//   src_clk, src_rst          source clock and synchronous reset
//   src_ev[WIDTH-1:0]         event strobes (src_clk), any number of bits per cycle
//   dst_clk, dst_rst          destination clock and synchronous reset
//   dst_ev[WIDTH-1:0]         event strobes (dst_clk), one per source event and bit
// Rate: no event is lost while fewer than 2^CW events of a bit are pending. With a
//   destination clock at least as fast as the source clock at most STAGES+3 are (the
//   events of the crossing's latency; the destination then drains one per cycle, as fast
//   as they can come), so CW 3 carries any burst.
// Reset: reset both sides together (their resets overlapping by STAGES+1 cycles of each
// clock), or events in flight are lost or repeated.
// Latency: 1 source cycle + STAGES+1 destination cycles for a single event.
// Parameters (checked): WIDTH (event bits, >= 1; tested 16), CW (counter bits, 2..8;
//   tested 3), STAGES (synchronizer flops, 2 or 3; tested 2).
module sync_events #(
    parameter integer WIDTH  = 16,
    parameter integer CW     = 3,
    parameter integer STAGES = 2
) (
    input  wire             src_clk,
    input  wire             src_rst,
    input  wire [WIDTH-1:0] src_ev,
    input  wire             dst_clk,
    input  wire             dst_rst,
    output wire [WIDTH-1:0] dst_ev
);

    generate
        if (WIDTH < 1) begin : g_check_width
            sync_events_WIDTH_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (CW < 2 || CW > 8) begin : g_check_cw
            sync_events_CW_must_be_2_to_8 u_error ();  // unsupported parameter
        end
    endgenerate

    wire [WIDTH*CW-1:0] gray_d;    // the source's Gray counts, synchronized to dst_clk
    reg  [WIDTH*CW-1:0] cnt_reg;   // source: events counted (binary)
    reg  [WIDTH*CW-1:0] cnt_next;
    reg  [WIDTH*CW-1:0] gray_reg;  // cnt_reg in Gray code
    reg  [WIDTH*CW-1:0] seen;      // destination: gray_d in binary
    reg  [WIDTH*CW-1:0] done_reg;  // destination: events passed on (binary)
    reg  [WIDTH-1:0]    behind;    // destination: a bit with events still to pass on
    reg  [WIDTH-1:0]    ev_reg;
    integer i, b;

    always @* begin
        for (i = 0; i < WIDTH; i = i + 1) begin
            cnt_next[i*CW +: CW] = cnt_reg[i*CW +: CW] + {{(CW - 1){1'b0}}, src_ev[i]};
            // Gray to binary: each bit the XOR of the Gray bits at and above it
            seen[i*CW + CW - 1] = gray_d[i*CW + CW - 1];
            for (b = CW - 2; b >= 0; b = b - 1) begin
                seen[i*CW + b] = seen[i*CW + b + 1] ^ gray_d[i*CW + b];
            end
            behind[i] = (seen[i*CW +: CW] != done_reg[i*CW +: CW]);
        end
    end

    always @(posedge src_clk) begin
        if (src_rst) begin
            cnt_reg  <= {(WIDTH * CW){1'b0}};
            gray_reg <= {(WIDTH * CW){1'b0}};
        end else begin
            cnt_reg  <= cnt_next;
            gray_reg <= cnt_next ^ ((cnt_next >> 1) & {WIDTH{1'b0, {(CW - 1){1'b1}}}});
        end
    end

    sync_bit #(.WIDTH(WIDTH * CW), .STAGES(STAGES)) u_sync (
        .clk(dst_clk), .in(gray_reg), .out(gray_d)
    );

    always @(posedge dst_clk) begin
        if (dst_rst) begin
            done_reg <= {(WIDTH * CW){1'b0}};
            ev_reg   <= {WIDTH{1'b0}};
        end else begin
            ev_reg <= behind;
            for (i = 0; i < WIDTH; i = i + 1) begin
                if (behind[i]) done_reg[i*CW +: CW] <= done_reg[i*CW +: CW] + 1'b1;
            end
        end
    end

    assign dst_ev = ev_reg;

endmodule
`default_nettype wire
