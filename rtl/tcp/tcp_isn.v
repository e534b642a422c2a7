`default_nettype none
// tcp_isn: the keyed hash of RFC 6528's initial sequence numbers: SipHash-2-4 (Aumasson
// and Bernstein) of one 8-byte message under a 128-bit key, one SipRound per cycle.
//
// Interface: start (one-cycle strobe) with key[127:0] (k0 = key[63:0], k1 = key[127:64],
//   as SipHash's little-endian key bytes 0..7 and 8..15) and msg[63:0] (the message's
//   bytes 0..7 little-endian: byte 0 = msg[7:0]); hash[63:0] is SipHash-2-4(key, msg)
//   and valid is high from its completion until the next start (low in the start cycle
//   itself, so a user that waits for valid never takes the previous message's hash).
// tcp_ctl hashes the 4-tuple's remote address and ports and adds a clock (RFC 6528:
//   ISN = M + F(addresses, ports, secret key)).
// Latency: valid 9 cycles after start (2 + 2 compression rounds, 4 finalisation rounds,
//   one cycle to load).
module tcp_isn (
    input  wire         clk,
    input  wire         rst,
    input  wire         start,
    input  wire [127:0] key,
    input  wire [63:0]  msg,
    output wire         valid,
    output wire [63:0]  hash
);
    localparam [2:0] STATE_IDLE = 3'd0, STATE_C1 = 3'd1, STATE_C2 = 3'd2, STATE_FIN = 3'd3,
                     STATE_DONE = 3'd4;

    reg [2:0]  state_reg;
    reg [1:0]  rnd_reg;
    reg [63:0] v0_reg, v1_reg, v2_reg, v3_reg, m_reg;

    function [63:0] rotl;
        input [63:0] x;
        input integer n;
        rotl = (x << n) | (x >> (64 - n));
    endfunction

    // one SipRound
    reg [63:0] a0, a1, a2, a3;
    always @* begin
        a0 = v0_reg + v1_reg;
        a1 = rotl(v1_reg, 13) ^ a0;
        a0 = rotl(a0, 32);
        a2 = v2_reg + v3_reg;
        a3 = rotl(v3_reg, 16) ^ a2;
        a0 = a0 + a3;
        a3 = rotl(a3, 21) ^ a0;
        a2 = a2 + a1;
        a1 = rotl(a1, 17) ^ a2;
        a2 = rotl(a2, 32);
    end

    wire [63:0] last_blk = 64'h0800_0000_0000_0000;  // 8 bytes, no tail

    always @(posedge clk) begin
        case (state_reg)
            STATE_IDLE, STATE_DONE: ;
            default: begin
                v0_reg  <= a0;
                v1_reg  <= a1;
                v2_reg  <= a2;
                v3_reg  <= a3;
                rnd_reg <= rnd_reg + 2'd1;
            end
        endcase
        case (state_reg)
            STATE_C1: if (rnd_reg == 2'd1) begin
                // message word done: v0 ^= m, then the final block b (length 8)
                v0_reg    <= a0 ^ m_reg;
                v3_reg    <= a3 ^ last_blk;
                rnd_reg   <= 2'd0;
                state_reg <= STATE_C2;
            end
            STATE_C2: if (rnd_reg == 2'd1) begin
                v0_reg    <= a0 ^ last_blk;
                v2_reg    <= a2 ^ 64'hFF;
                rnd_reg   <= 2'd0;
                state_reg <= STATE_FIN;
            end
            STATE_FIN: if (rnd_reg == 2'd3) state_reg <= STATE_DONE;
            default: ;
        endcase
        if (start) begin
            v0_reg    <= key[63:0] ^ 64'h736f6d6570736575;
            v1_reg    <= key[127:64] ^ 64'h646f72616e646f6d;
            v2_reg    <= key[63:0] ^ 64'h6c7967656e657261;
            v3_reg    <= key[127:64] ^ 64'h7465646279746573 ^ msg;
            m_reg     <= msg;
            rnd_reg   <= 2'd0;
            state_reg <= STATE_C1;
        end
        if (rst) state_reg <= STATE_IDLE;
    end

    assign valid = (state_reg == STATE_DONE) && !start;
    assign hash  = v0_reg ^ v1_reg ^ v2_reg ^ v3_reg;
endmodule
`default_nettype wire
