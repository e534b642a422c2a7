// reg_interconnect: decodes register-bus address windows to NSLV slaves.
//
// Interfaces (docs/conventions.md "Register bus"):
//   s_reg_*  : slave side, from one master (IPbus target or AXI4-Lite adapter).
//   m_reg_*  : NSLV master sides, flattened (slave i in bits [i*W +: W]). Slave i gets
//              requests for addresses with (addr & ~MASK_i) == BASE_i; it sees the offset
//              inside its window (addr & MASK_i) on m_reg_addr[i*32 +: 32].
//   A request that hits no window is answered with s_reg_err one cycle later.
//   Only the selected slave's ack/err/rdata are passed back, so a stray strobe from
//   another slave is never taken as an answer.
// Latency: 0 cycles added on the request path and on the answer path (combinational
//   pass-through); an unmapped request is answered 1 cycle after it.
// Parameters (checked at elaboration): NSLV (number of slaves, >= 1; tested: 3, in
//   ipbus_ctrl), BASE and MASK (NSLV*32 bits each, slave 0 in the low bits): each BASE
//   has no bit set inside its MASK, and no two windows overlap.
`default_nettype none

module reg_interconnect #(
    parameter integer NSLV = 2,
    parameter [NSLV*32-1:0] BASE = {32'h00010000, 32'h00000000},
    parameter [NSLV*32-1:0] MASK = {32'h00003fff, 32'h00000fff}
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 s_reg_req,
    input  wire                 s_reg_we,
    input  wire [31:0]          s_reg_addr,
    input  wire [31:0]          s_reg_wdata,
    output reg                  s_reg_ack,
    output reg                  s_reg_err,
    output reg  [31:0]          s_reg_rdata,
    output reg  [NSLV-1:0]      m_reg_req,
    output wire                 m_reg_we,
    output reg  [NSLV*32-1:0]   m_reg_addr,
    output wire [31:0]          m_reg_wdata,
    input  wire [NSLV-1:0]      m_reg_ack,
    input  wire [NSLV-1:0]      m_reg_err,
    input  wire [NSLV*32-1:0]   m_reg_rdata
);

    genvar gi, gj;
    generate
        if (NSLV < 1) begin : g_check_nslv
            reg_interconnect_NSLV_must_be_at_least_1 u_error ();  // unsupported parameter
        end
        for (gi = 0; gi < NSLV; gi = gi + 1) begin : g_check_window
            if ((BASE[gi*32 +: 32] & MASK[gi*32 +: 32]) != 32'd0) begin : g_check_base
                reg_interconnect_BASE_must_be_aligned_to_MASK u_error ();  // (no such module)
            end
            // windows i and j overlap when their bases agree on every bit both decode
            for (gj = gi + 1; gj < NSLV; gj = gj + 1) begin : g_pair
                if (((BASE[gi*32 +: 32] ^ BASE[gj*32 +: 32]) &
                     ~MASK[gi*32 +: 32] & ~MASK[gj*32 +: 32]) == 32'd0) begin : g_check_overlap
                    reg_interconnect_BASE_must_not_overlap u_error ();  // (no such module)
                end
            end
        end
    endgenerate

    reg [NSLV-1:0] hit;           // the request's address is in window i
    reg [NSLV-1:0] sel_reg;       // the slave owning the outstanding request
    reg            miss_reg;      // an unmapped request, answered with an error now
    integer i;

    assign m_reg_we    = s_reg_we;
    assign m_reg_wdata = s_reg_wdata;

    always @* begin
        for (i = 0; i < NSLV; i = i + 1) begin
            hit[i] = ((s_reg_addr & ~MASK[i*32 +: 32]) == BASE[i*32 +: 32]);
            m_reg_req[i] = s_reg_req & hit[i];
            m_reg_addr[i*32 +: 32] = s_reg_addr & MASK[i*32 +: 32];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            sel_reg  <= {NSLV{1'b0}};
            miss_reg <= 1'b0;
        end else begin
            miss_reg <= s_reg_req & ~(|hit);
            if (s_reg_req) sel_reg <= hit;
        end
    end

    always @* begin
        s_reg_ack   = 1'b0;
        s_reg_err   = miss_reg;
        s_reg_rdata = 32'h00000000;
        for (i = 0; i < NSLV; i = i + 1) begin
            if (sel_reg[i]) begin
                s_reg_ack   = s_reg_ack | m_reg_ack[i];
                s_reg_err   = s_reg_err | m_reg_err[i];
                s_reg_rdata = s_reg_rdata | m_reg_rdata[i*32 +: 32];
            end
        end
    end

endmodule

`default_nettype wire
