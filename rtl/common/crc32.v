`default_nettype none
// crc32: next state of the Ethernet CRC-32 over 0..KEEP_W bytes.
//
// Purely combinational. The state convention is the Ethernet/zlib one: the register
// starts at 32'hFFFFFFFF, bytes are processed lane 0 first, least significant bit
// first (reflected polynomial 32'hEDB88320); the FCS sent on the wire is ~state, least
// significant byte first; and a frame received with its FCS leaves the state at the
// residue 32'hDEBB20E3 when it is good.
//
// Ports:
//   crc_in  [31:0]       current state
//   data    [DATA_W-1:0] bytes, lane 0 (data[7:0]) first
//   keep    [KEEP_W-1:0] valid lanes, contiguous from lane 0 (all zero = no byte)
//   crc_out [31:0]       state after the valid bytes
// Parameters (checked): DATA_W (8 or 64, both tested), KEEP_W = DATA_W/8.
// Latency: 0 cycles (combinational; register crc_out in the user).
module crc32 #(
    parameter DATA_W = 8,
    parameter KEEP_W = DATA_W / 8
) (
    input  wire [31:0]       crc_in,
    input  wire [DATA_W-1:0] data,
    input  wire [KEEP_W-1:0] keep,
    output reg  [31:0]       crc_out
);
    localparam [31:0] POLY = 32'hEDB88320;  // reflected CRC-32 polynomial

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            crc32_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            crc32_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
    endgenerate

    // The bit-serial CRC register (a shift right, the polynomial XORed in when the bit
    // shifted out differs from the data bit), unrolled over the bits of every lane;
    // crc_out is the state after the last valid lane. Synthesis flattens the loop into
    // one XOR network per output bit.
    integer i, b;
    reg [31:0] c;
    always @* begin
        c = crc_in;
        crc_out = crc_in;
        for (i = 0; i < KEEP_W; i = i + 1) begin
            for (b = 0; b < 8; b = b + 1)
                c = {1'b0, c[31:1]} ^ (POLY & {32{c[0] ^ data[8 * i + b]}});
            if (keep[i]) crc_out = c;
        end
    end
endmodule
`default_nettype wire
