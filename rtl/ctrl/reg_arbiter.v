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

    output wire        m_reg_req,
    output wire        m_reg_we,
    output wire [31:0] m_reg_addr,
    output wire [31:0] m_reg_wdata,
    input  wire        m_reg_ack,
    input  wire        m_reg_err,
    input  wire [31:0] m_reg_rdata
);

    // each master's latched request
    reg        pending0_reg, pending1_reg;   // a request from master 0 / 1 is waiting
    reg        we0_reg, we1_reg;
    reg [31:0] addr0_reg, addr1_reg;
    reg [31:0] wdata0_reg, wdata1_reg;
    // the bus
    reg        busy_reg;                     // a request is on the bus
    reg        owner_reg;                    // the master whose request it is
    reg        last_reg;                     // the master served last
    reg        m_reg_req_reg, m_reg_we_reg;
    reg [31:0] m_reg_addr_reg, m_reg_wdata_reg;

    wire done   = busy_reg && (m_reg_ack || m_reg_err);
    wire grant0 = !busy_reg && pending0_reg && (!pending1_reg || last_reg == 1'b1);
    wire grant1 = !busy_reg && pending1_reg && (!pending0_reg || last_reg == 1'b0);

    assign m_reg_req    = m_reg_req_reg;
    assign m_reg_we     = m_reg_we_reg;
    assign m_reg_addr   = m_reg_addr_reg;
    assign m_reg_wdata  = m_reg_wdata_reg;
    assign s0_reg_ack   = done && owner_reg == 1'b0 && m_reg_ack;
    assign s0_reg_err   = done && owner_reg == 1'b0 && m_reg_err;
    assign s0_reg_rdata = m_reg_rdata;
    assign s1_reg_ack   = done && owner_reg == 1'b1 && m_reg_ack;
    assign s1_reg_err   = done && owner_reg == 1'b1 && m_reg_err;
    assign s1_reg_rdata = m_reg_rdata;

    always @(posedge clk) begin
        m_reg_req_reg <= 1'b0;
        if (s0_reg_req) begin
            we0_reg    <= s0_reg_we;
            addr0_reg  <= s0_reg_addr;
            wdata0_reg <= s0_reg_wdata;
        end
        if (s1_reg_req) begin
            we1_reg    <= s1_reg_we;
            addr1_reg  <= s1_reg_addr;
            wdata1_reg <= s1_reg_wdata;
        end
        if (rst) begin
            pending0_reg <= 1'b0;
            pending1_reg <= 1'b0;
            busy_reg     <= 1'b0;
            owner_reg    <= 1'b0;
            last_reg     <= 1'b1;
        end else begin
            if (s0_reg_req) pending0_reg <= 1'b1;
            if (s1_reg_req) pending1_reg <= 1'b1;
            if (done) busy_reg <= 1'b0;
            if (grant0) begin
                m_reg_req_reg   <= 1'b1;
                m_reg_we_reg    <= we0_reg;
                m_reg_addr_reg  <= addr0_reg;
                m_reg_wdata_reg <= wdata0_reg;
                pending0_reg    <= 1'b0;
                busy_reg        <= 1'b1;
                owner_reg       <= 1'b0;
                last_reg        <= 1'b0;
            end else if (grant1) begin
                m_reg_req_reg   <= 1'b1;
                m_reg_we_reg    <= we1_reg;
                m_reg_addr_reg  <= addr1_reg;
                m_reg_wdata_reg <= wdata1_reg;
                pending1_reg    <= 1'b0;
                busy_reg        <= 1'b1;
                owner_reg       <= 1'b1;
                last_reg        <= 1'b1;
            end
        end
    end

endmodule

`default_nettype wire
