// reg_arbiter: lets two register-bus masters (e.g. the IPbus target and axil_to_reg)
// share one register bus (docs/conventions.md "Register bus").
//
// Interfaces:
//   s0_reg_*, s1_reg_* : slave sides, one per master. A request strobe is latched, so a
//                        master may request while the other is being served.
//   m_reg_*            : master side, towards reg_interconnect. One request outstanding.
//   The answer (ack or err, with rdata) goes back to the master that asked. When both
//   wait, they are served in turn (the one not served last goes first).
// Latency: a request reaches m_reg_req 1 cycle after its strobe when the bus is free;
//   answers are passed back in the same cycle.
// Parameters: none.
`default_nettype none

module reg_arbiter (
    input  wire        clk,
    input  wire        rst,

    input  wire        s0_reg_req,
    input  wire        s0_reg_we,
    input  wire [31:0] s0_reg_addr,
    input  wire [31:0] s0_reg_wdata,
    output wire        s0_reg_ack,
    output wire        s0_reg_err,
    output wire [31:0] s0_reg_rdata,

    input  wire        s1_reg_req,
    input  wire        s1_reg_we,
    input  wire [31:0] s1_reg_addr,
    input  wire [31:0] s1_reg_wdata,
    output wire        s1_reg_ack,
    output wire        s1_reg_err,
    output wire [31:0] s1_reg_rdata,

    output reg         m_reg_req,
    output reg         m_reg_we,
    output reg  [31:0] m_reg_addr,
    output reg  [31:0] m_reg_wdata,
    input  wire        m_reg_ack,
    input  wire        m_reg_err,
    input  wire [31:0] m_reg_rdata
);

    reg        p0, p1;          // a request from master 0 / 1 is waiting
    reg        we0, we1;
    reg [31:0] a0, a1, d0, d1;
    reg        busy;            // a request is on the bus
    reg        owner;           // whose it is
    reg        last;            // who was served last

    wire done = busy && (m_reg_ack || m_reg_err);
    wire go0  = p0 && (!p1 || last);
    wire go1  = p1 && (!p0 || !last);

    assign s0_reg_ack   = done && !owner && m_reg_ack;
    assign s0_reg_err   = done && !owner && m_reg_err;
    assign s0_reg_rdata = m_reg_rdata;
    assign s1_reg_ack   = done && owner && m_reg_ack;
    assign s1_reg_err   = done && owner && m_reg_err;
    assign s1_reg_rdata = m_reg_rdata;

    always @(posedge clk) begin
        m_reg_req <= 1'b0;
        if (s0_reg_req) begin
            we0 <= s0_reg_we;
            a0  <= s0_reg_addr;
            d0  <= s0_reg_wdata;
        end
        if (s1_reg_req) begin
            we1 <= s1_reg_we;
            a1  <= s1_reg_addr;
            d1  <= s1_reg_wdata;
        end
        if (rst) begin
            p0    <= 1'b0;
            p1    <= 1'b0;
            busy  <= 1'b0;
            owner <= 1'b0;
            last  <= 1'b1;
        end else begin
            if (s0_reg_req) p0 <= 1'b1;
            if (s1_reg_req) p1 <= 1'b1;
            if (done) busy <= 1'b0;
            if (!busy && go0) begin
                m_reg_req   <= 1'b1;
                m_reg_we    <= we0;
                m_reg_addr  <= a0;
                m_reg_wdata <= d0;
                p0    <= 1'b0;
                busy  <= 1'b1;
                owner <= 1'b0;
                last  <= 1'b0;
            end else if (!busy && go1) begin
                m_reg_req   <= 1'b1;
                m_reg_we    <= we1;
                m_reg_addr  <= a1;
                m_reg_wdata <= d1;
                p1    <= 1'b0;
                busy  <= 1'b1;
                owner <= 1'b1;
                last  <= 1'b1;
            end
        end
    end

endmodule

`default_nettype wire
