`default_nettype none
// sync_handshake: carries words with a valid/ready handshake from one clock domain to
// another, one at a time, each exactly once (headers, register-bus requests and answers).
//
// The source takes a word (src_valid && src_ready) into a holding register and flips its
// request; the destination sees the flip through a synchronizer, presents the (stable)
// holding register as dst_data with dst_valid until dst_ready, then flips its
// acknowledge, which crosses back and frees the source for the next word.
//
// Interfaces:
//   src_clk, src_rst                   source clock and synchronous reset
//   src_data[WIDTH-1:0], src_valid, src_ready   input handshake (src_clk); src_ready is
//                                      high while no word is in flight (a one-cycle
//                                      src_valid is taken if src_ready was high)
//   dst_clk, dst_rst                   destination clock and synchronous reset
//   dst_data[WIDTH-1:0], dst_valid, dst_ready   output handshake (dst_clk)
// Reset: reset both sides together (their resets overlapping by STAGES+1 cycles of each
// clock); a reset of one side alone can lose a word in flight or deliver it twice.
// Latency: 1 source cycle + STAGES+1 destination cycles from a word taken to dst_valid;
// the next word is taken STAGES+1 source cycles after dst_ready.
// Parameters (checked): WIDTH (bits, >= 1; tested 16, and 33, 65, 128, 145 in ipbus_cdc
//   through the board test), STAGES (synchronizer flops, 2 or 3; tested 2).
module sync_handshake #(
    parameter WIDTH  = 32,
    parameter STAGES = 2
) (
    input  wire             src_clk,
    input  wire             src_rst,
    input  wire [WIDTH-1:0] src_data,
    input  wire             src_valid,
    output wire             src_ready,
    input  wire             dst_clk,
    input  wire             dst_rst,
    output wire [WIDTH-1:0] dst_data,
    output wire             dst_valid,
    input  wire             dst_ready
);

    generate
        if (WIDTH < 1) begin : g_check_width
            sync_handshake_WIDTH_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        if (STAGES != 2 && STAGES != 3) begin : g_check_stages
            sync_handshake_STAGES_must_be_2_or_3 u_error ();  // unsupported parameter
        end
    endgenerate

    // Source side: free while the acknowledge seen back equals the request.
    reg  [WIDTH-1:0] hold_reg;
    reg              req_reg;
    wire             ack_s;  // ack_reg, synchronized to src_clk
    wire             req_d;  // req_reg, synchronized to dst_clk

    always @(posedge src_clk) begin
        if (src_rst) begin
            req_reg <= 1'b0;
        end else if (src_valid && req_reg == ack_s) begin
            hold_reg <= src_data;
            req_reg  <= !req_reg;
        end
    end
    assign src_ready = (req_reg == ack_s);

    sync_bit #(.WIDTH(1), .STAGES(STAGES)) u_sync_req (.clk(dst_clk), .in(req_reg), .out(req_d));

    // Destination side: a request that differs from the acknowledge is a word to present;
    // its acknowledge flips when the word is taken.
    reg             ack_reg;
    reg             valid_reg;
    reg [WIDTH-1:0] data_reg;

    always @(posedge dst_clk) begin
        if (dst_rst) begin
            ack_reg   <= 1'b0;
            valid_reg <= 1'b0;
        end else if (valid_reg) begin
            if (dst_ready) begin
                valid_reg <= 1'b0;
                ack_reg   <= !ack_reg;
            end
        end else if (req_d != ack_reg) begin
            valid_reg <= 1'b1;
            data_reg  <= hold_reg;
        end
    end

    sync_bit #(.WIDTH(1), .STAGES(STAGES)) u_sync_ack (.clk(src_clk), .in(ack_reg), .out(ack_s));

    assign dst_data  = data_reg;
    assign dst_valid = valid_reg;

endmodule
`default_nettype wire
