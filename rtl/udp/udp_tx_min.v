`default_nettype none
// udp_tx_min: minimal standalone UDP/IPv4/Ethernet transmitter, 8 bits wide. A user with
// only a payload stream gets whole Ethernet frames (no FCS; the MAC pads and adds it) to one
// destination fixed by parameters. No buffer: the first header byte is on m_axis in the
// same cycle as the payload's first byte is offered (0 cycles), the 42 header bytes
// follow, then the payload passes through.
//
// Every header byte is a constant of the parameters except the IPv4 total length, the
// UDP length and the IPv4 header checksum, which come from s_len with two adders:
// checksum = ~(K + len) with end-around carry, K being the one's-complement sum of the
// constant header words plus 28 (computed at elaboration). Identification 0, DF set,
// UDP checksum 0 (none).
//
// Parameters: SRC_MAC, DST_MAC (48-bit values), SRC_IP, DST_IP (32-bit values, 192.0.2.1 =
//   32'hC0000201), SRC_PORT, DST_PORT, TTL (any values), LEN_W (width of s_len, 11 to 16,
//   tested 11 and 16; 11 = up to 2047 bytes).
// Interfaces:
//   s_len[LEN_W-1:0]  payload bytes of the datagram being sent: valid from the cycle its
//                     first byte is offered until its last byte is taken
//   s_axis_tdata[7:0], s_axis_tvalid, s_axis_tready, s_axis_tlast: the payload (>= 1 byte);
//                     once offered, bytes must follow without gaps (the MAC aborts a frame
//                     on underflow)
//   m_axis_tdata[7:0], m_axis_tvalid, m_axis_tready, m_axis_tlast, m_axis_tuser: frames;
//                     tuser = 1 on the last byte when the payload's length was not s_len
//                     (the MAC then sends a bad FCS)
// Latency: 0 cycles to the first header byte; payload combinational.
module udp_tx_min #(
    parameter [47:0] SRC_MAC  = 48'h020000000001,
    parameter [47:0] DST_MAC  = 48'h020000000002,
    parameter [31:0] SRC_IP   = 32'hC0000201,
    parameter [31:0] DST_IP   = 32'hC0000202,
    parameter [15:0] SRC_PORT = 16'd5000,
    parameter [15:0] DST_PORT = 16'd5001,
    parameter [7:0]  TTL      = 8'd64,
    parameter        LEN_W    = 11
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [LEN_W-1:0] s_len,
    input  wire [7:0]       s_axis_tdata,
    input  wire             s_axis_tvalid,
    output wire             s_axis_tready,
    input  wire             s_axis_tlast,
    output reg  [7:0]       m_axis_tdata,
    output wire             m_axis_tvalid,
    input  wire             m_axis_tready,
    output wire             m_axis_tlast,
    output wire             m_axis_tuser
);
    generate
        if (LEN_W < 11 || LEN_W > 16) begin : g_check_len_w
            udp_tx_min_LEN_W_must_be_11_to_16 u_error ();  // unsupported parameter (no such module)
        end
    endgenerate

    // constant part of the IPv4 header sum (+28 of the total length), folded
    localparam [31:0] KS = 32'h4500 + 32'h4000 + {16'd0, TTL, 8'd17}
                         + {16'd0, SRC_IP[31:16]} + {16'd0, SRC_IP[15:0]}
                         + {16'd0, DST_IP[31:16]} + {16'd0, DST_IP[15:0]} + 32'd28;
    localparam [31:0] K1 = {16'd0, KS[15:0]} + {16'd0, KS[31:16]};
    localparam [15:0] K  = K1[15:0] + {15'd0, K1[16]};

    reg             pay_reg;        // header sent, payload passing
    reg [5:0]       hdr_byte_reg;   // index of the header byte on the output
    reg [LEN_W-1:0] pay_count_reg;  // payload bytes taken before this one

    wire [15:0] len  = {{(16 - LEN_W) {1'b0}}, s_len};
    wire [15:0] tot  = len + 16'd28;
    wire [15:0] ulen = len + 16'd8;
    wire [16:0] cs1  = {1'b0, K} + {1'b0, len};
    wire [15:0] csum = ~(cs1[15:0] + {15'd0, cs1[16]});

    always @* begin
        case (hdr_byte_reg)
            6'd0:  m_axis_tdata = DST_MAC[47:40];
            6'd1:  m_axis_tdata = DST_MAC[39:32];
            6'd2:  m_axis_tdata = DST_MAC[31:24];
            6'd3:  m_axis_tdata = DST_MAC[23:16];
            6'd4:  m_axis_tdata = DST_MAC[15:8];
            6'd5:  m_axis_tdata = DST_MAC[7:0];
            6'd6:  m_axis_tdata = SRC_MAC[47:40];
            6'd7:  m_axis_tdata = SRC_MAC[39:32];
            6'd8:  m_axis_tdata = SRC_MAC[31:24];
            6'd9:  m_axis_tdata = SRC_MAC[23:16];
            6'd10: m_axis_tdata = SRC_MAC[15:8];
            6'd11: m_axis_tdata = SRC_MAC[7:0];
            6'd12: m_axis_tdata = 8'h08;
            6'd14: m_axis_tdata = 8'h45;
            6'd16: m_axis_tdata = tot[15:8];
            6'd17: m_axis_tdata = tot[7:0];
            6'd20: m_axis_tdata = 8'h40;
            6'd22: m_axis_tdata = TTL;
            6'd23: m_axis_tdata = 8'd17;
            6'd24: m_axis_tdata = csum[15:8];
            6'd25: m_axis_tdata = csum[7:0];
            6'd26: m_axis_tdata = SRC_IP[31:24];
            6'd27: m_axis_tdata = SRC_IP[23:16];
            6'd28: m_axis_tdata = SRC_IP[15:8];
            6'd29: m_axis_tdata = SRC_IP[7:0];
            6'd30: m_axis_tdata = DST_IP[31:24];
            6'd31: m_axis_tdata = DST_IP[23:16];
            6'd32: m_axis_tdata = DST_IP[15:8];
            6'd33: m_axis_tdata = DST_IP[7:0];
            6'd34: m_axis_tdata = SRC_PORT[15:8];
            6'd35: m_axis_tdata = SRC_PORT[7:0];
            6'd36: m_axis_tdata = DST_PORT[15:8];
            6'd37: m_axis_tdata = DST_PORT[7:0];
            6'd38: m_axis_tdata = ulen[15:8];
            6'd39: m_axis_tdata = ulen[7:0];
            default: m_axis_tdata = 8'h00;
        endcase
        if (pay_reg) m_axis_tdata = s_axis_tdata;
    end

    assign m_axis_tvalid = s_axis_tvalid;
    assign s_axis_tready = pay_reg && m_axis_tready;
    assign m_axis_tlast  = pay_reg && s_axis_tlast;
    assign m_axis_tuser  = (pay_count_reg != s_len - 1'b1);

    wire fire = s_axis_tvalid && m_axis_tready;
    always @(posedge clk) begin
        if (!pay_reg) pay_count_reg <= {LEN_W{1'b0}};
        else if (fire) pay_count_reg <= pay_count_reg + 1'b1;
        if (fire) begin
            if (!pay_reg) begin
                hdr_byte_reg <= hdr_byte_reg + 6'd1;
                if (hdr_byte_reg == 6'd41) pay_reg <= 1'b1;
            end else if (s_axis_tlast) begin
                hdr_byte_reg <= 6'd0;
                pay_reg      <= 1'b0;
            end
        end
        if (rst) begin
            pay_reg      <= 1'b0;
            hdr_byte_reg <= 6'd0;
        end
    end
endmodule
`default_nettype wire
