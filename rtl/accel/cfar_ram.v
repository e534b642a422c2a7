`default_nettype none
// cfar_ram: simple dual-port RAM of the CFAR accelerator (one write port, one read port,
// one clock), inferred by the synthesis tools (no vendor primitive).
//
// Interfaces: wr_en/wr_addr/wr_data write mem[wr_addr] at the clock edge; rd_data is
//   mem[rd_addr] registered at the clock edge (read every cycle; a read of the address
//   written in the same cycle returns the old contents).
// Parameters (checked): ADDR_W 1..12 (tested 7 for the FFT banks, 8 for the CFAR delay
//   memories, 6, 9 and 1 for the detection list), DATA_W 1..64 (tested 48, 24, 31, 57).
//   Contents are not reset.
// Latency: 1 cycle from rd_addr to rd_data.
module cfar_ram #(
    parameter integer ADDR_W = 9,
    parameter integer DATA_W = 48
) (
    input  wire              clk,
    input  wire              wr_en,
    input  wire [ADDR_W-1:0] wr_addr,
    input  wire [DATA_W-1:0] wr_data,
    input  wire [ADDR_W-1:0] rd_addr,
    output wire [DATA_W-1:0] rd_data
);

    generate
        if (ADDR_W < 1 || ADDR_W > 12) begin : g_check_addr_w
            cfar_ram_ADDR_W_must_be_1_to_12 u_error ();  // unsupported parameter (no such module)
        end
        if (DATA_W < 1 || DATA_W > 64) begin : g_check_data_w
            cfar_ram_DATA_W_must_be_1_to_64 u_error ();  // unsupported parameter
        end
    endgenerate

    reg [DATA_W-1:0] data_mem [0:(1<<ADDR_W)-1];
    reg [DATA_W-1:0] rd_data_reg;

    assign rd_data = rd_data_reg;

    always @(posedge clk) begin
        if (wr_en) data_mem[wr_addr] <= wr_data;
        rd_data_reg <= data_mem[rd_addr];
    end

endmodule
`default_nettype wire
