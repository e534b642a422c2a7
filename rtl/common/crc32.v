`default_nettype none
// crc32: next state of the Ethernet CRC-32 over 0..KEEP_W bytes, any datapath width.
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
// Parameters: DATA_W (multiple of 8), KEEP_W = DATA_W/8.
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
    // The eight bit steps of a byte are linear: state after a byte =
    //   (state >> 8) ^ T(state[7:0] ^ byte), T(x) = XOR of T(2^k) over the set bits k of x,
    // T(x) being the state after 8 steps from x with zero data (the usual table). Written
    // so, with the eight constants T(2^k) computed at elaboration, a cycle-based simulator
    // evaluates eight masked XORs per byte instead of eight dependent bit steps; the
    // logic is the same function.
    function [8*32-1:0] tab_pow2(input [31:0] poly);
        integer k, s;
        reg [31:0] t;
        begin
            tab_pow2 = {(8 * 32) {1'b0}};
            for (k = 0; k < 8; k = k + 1) begin
                t = 32'd1 << k;
                for (s = 0; s < 8; s = s + 1)
                    t = t[0] ? ({1'b0, t[31:1]} ^ poly) : {1'b0, t[31:1]};
                tab_pow2[32 * k +: 32] = t;
            end
        end
    endfunction
    localparam [8*32-1:0] TAB = tab_pow2(32'hEDB88320);

    generate
        if (KEEP_W == 1) begin : g_byte
            // T(state[7:0] ^ byte) alone in its own block: a function of 8 bits, which a
            // cycle-based simulator may turn into a 256-entry table
            wire [7:0] b = crc_in[7:0] ^ data[7:0];
            reg  [31:0] t;
            integer k;
            always @* begin
                t = 32'd0;
                for (k = 0; k < 8; k = k + 1) t = t ^ (TAB[32 * k +: 32] & {32{b[k]}});
            end
            always @* crc_out = keep[0] ? ({8'd0, crc_in[31:8]} ^ t) : crc_in;
        end else begin : g_wide
            integer i, k;
            reg [31:0] c;
            reg [7:0]  b;
            always @* begin
                c = crc_in;
                crc_out = crc_in;
                for (i = 0; i < KEEP_W; i = i + 1) begin
                    b = c[7:0] ^ data[8 * i +: 8];
                    c = {8'd0, c[31:8]};
                    for (k = 0; k < 8; k = k + 1) c = c ^ (TAB[32 * k +: 32] & {32{b[k]}});
                    if (keep[i]) crc_out = c;
                end
            end
        end
    endgenerate
endmodule
`default_nettype wire
