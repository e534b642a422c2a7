// reg_mem: a memory on the register bus, for IPbus block transfers.
//
// Interfaces: register-bus slave (docs/conventions.md): reg_req/reg_we/reg_addr/reg_wdata
//   in, reg_ack/reg_err/reg_rdata out. reg_addr is the word offset in the window; only
//   its low AW bits are used (the interconnect window is 2**AW words). Every request
//   is acknowledged (reg_err is never raised). Contents are not reset.
// Latency: reg_ack and reg_rdata one cycle after reg_req (registered read: infers
//   block RAM).
// Parameters (checked at elaboration): AW, word-address bits, 1..31 (tested: 14 =
//   16384 words = 64 KiB).
`default_nettype none

module reg_mem #(
    parameter integer AW = 14
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        reg_req,
    input  wire        reg_we,
    input  wire [31:0] reg_addr,
    input  wire [31:0] reg_wdata,
    output wire        reg_ack,
    output wire        reg_err,
    output wire [31:0] reg_rdata
);

    generate
        if (AW < 1 || AW > 31) begin : g_check_aw
            reg_mem_AW_must_be_1_to_31 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    reg [31:0] word_mem [0:(1<<AW)-1];
    reg [31:0] reg_rdata_reg;
    reg        reg_ack_reg;

    assign reg_ack   = reg_ack_reg;
    assign reg_err   = 1'b0;
    assign reg_rdata = reg_rdata_reg;

    always @(posedge clk) begin
        if (reg_req && reg_we) word_mem[reg_addr[AW-1:0]] <= reg_wdata;
        if (reg_req) reg_rdata_reg <= word_mem[reg_addr[AW-1:0]];
    end

    always @(posedge clk) begin
        if (rst) reg_ack_reg <= 1'b0;
        else     reg_ack_reg <= reg_req;
    end

    // Address bits above the window are decoded by the interconnect.
    wire unused_addr = &{1'b0, reg_addr[31:AW]};

endmodule

`default_nettype wire
