// axil_to_reg: AXI4-Lite slave to register-bus master, for users who already have a
// processor (docs/ipbus.md). The register bus is docs/conventions.md "Register bus".
//
// Interfaces:
//   s_axil_*  : AXI4-Lite slave, 32-bit data, ADDR_W-bit byte addresses. A byte address
//               maps to word address addr >> 2 on the register bus. Writes must have all
//               four strobes set (the register bus has no byte enables): a partial write
//               is answered SLVERR and not performed. reg_ack -> OKAY, reg_err or no
//               answer within TIMEOUT_MS..TIMEOUT_MS+1 ticks of tick_1ms -> SLVERR (read
//               data 0 then).
//   reg_*     : register-bus master, one request outstanding. Reads and writes that
//               wait at the same time are served in turn.
// Latency: the register-bus request goes out 1 cycle after the address (and, for a
//   write, the data) handshake; the response is valid 1 cycle after reg_ack/reg_err.
// Parameters: ADDR_W (AXI byte-address bits, 3..34), TIMEOUT_MS.
`default_nettype none

module axil_to_reg #(
    parameter integer ADDR_W     = 20,
    parameter integer TIMEOUT_MS = 2
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              tick_1ms,

    input  wire [ADDR_W-1:0] s_axil_awaddr,
    input  wire [2:0]        s_axil_awprot,
    input  wire              s_axil_awvalid,
    output reg               s_axil_awready,
    input  wire [31:0]       s_axil_wdata,
    input  wire [3:0]        s_axil_wstrb,
    input  wire              s_axil_wvalid,
    output reg               s_axil_wready,
    output reg  [1:0]        s_axil_bresp,
    output reg               s_axil_bvalid,
    input  wire              s_axil_bready,
    input  wire [ADDR_W-1:0] s_axil_araddr,
    input  wire [2:0]        s_axil_arprot,
    input  wire              s_axil_arvalid,
    output reg               s_axil_arready,
    output reg  [31:0]       s_axil_rdata,
    output reg  [1:0]        s_axil_rresp,
    output reg               s_axil_rvalid,
    input  wire              s_axil_rready,

    output reg               reg_req,
    output reg               reg_we,
    output reg  [31:0]       reg_addr,
    output reg  [31:0]       reg_wdata,
    input  wire              reg_ack,
    input  wire              reg_err,
    input  wire [31:0]       reg_rdata
);

    localparam [1:0] IDLE = 2'd0, WAIT = 2'd1, RESP = 2'd2;
    localparam [1:0] OKAY = 2'b00, SLVERR = 2'b10;
    reg [1:0] state;
    reg       last_rd;       // the previous access was a read (serve a write next)
    reg [7:0] ticks;

    wire want_wr = s_axil_awvalid && s_axil_wvalid;
    wire want_rd = s_axil_arvalid;
    wire do_wr   = want_wr && (!want_rd || last_rd);

    // 32-bit word address from the byte address, whatever ADDR_W is
    wire [33:0] aw34 = {{(34-ADDR_W){1'b0}}, s_axil_awaddr};
    wire [33:0] ar34 = {{(34-ADDR_W){1'b0}}, s_axil_araddr};

    always @(posedge clk) begin
        reg_req        <= 1'b0;
        s_axil_awready <= 1'b0;
        s_axil_wready  <= 1'b0;
        s_axil_arready <= 1'b0;
        if (tick_1ms && ticks != 8'hFF) ticks <= ticks + 8'd1;
        if (rst) begin
            state         <= IDLE;
            s_axil_bvalid <= 1'b0;
            s_axil_rvalid <= 1'b0;
            last_rd       <= 1'b0;
        end else begin
            case (state)
            IDLE: begin
                if (do_wr) begin
                    s_axil_awready <= 1'b1;
                    s_axil_wready  <= 1'b1;
                    reg_we    <= 1'b1;
                    reg_addr  <= aw34[33:2];
                    reg_wdata <= s_axil_wdata;
                    last_rd   <= 1'b0;
                    ticks     <= 8'd0;
                    if (s_axil_wstrb == 4'hF) begin
                        reg_req <= 1'b1;
                        state   <= WAIT;
                    end else begin           // partial write: refused, not performed
                        s_axil_bresp  <= SLVERR;
                        s_axil_bvalid <= 1'b1;
                        state         <= RESP;
                    end
                end else if (want_rd) begin
                    s_axil_arready <= 1'b1;
                    reg_req  <= 1'b1;
                    reg_we   <= 1'b0;
                    reg_addr <= ar34[33:2];
                    last_rd  <= 1'b1;
                    ticks    <= 8'd0;
                    state    <= WAIT;
                end
            end
            WAIT: begin
                if (reg_ack || reg_err || ticks > TIMEOUT_MS[7:0]) begin
                    if (reg_we) begin
                        s_axil_bresp  <= reg_ack ? OKAY : SLVERR;
                        s_axil_bvalid <= 1'b1;
                    end else begin
                        s_axil_rresp  <= reg_ack ? OKAY : SLVERR;
                        s_axil_rdata  <= reg_ack ? reg_rdata : 32'd0;
                        s_axil_rvalid <= 1'b1;
                    end
                    state <= RESP;
                end
            end
            RESP: begin
                if (s_axil_bvalid && s_axil_bready) begin
                    s_axil_bvalid <= 1'b0;
                    state <= IDLE;
                end
                if (s_axil_rvalid && s_axil_rready) begin
                    s_axil_rvalid <= 1'b0;
                    state <= IDLE;
                end
            end
            default: state <= IDLE;
            endcase
        end
    end

    // protection bits carry no meaning here; the low two address bits select bytes
    wire unused = &{1'b0, s_axil_awprot, s_axil_arprot, aw34[1:0], ar34[1:0]};

endmodule

`default_nettype wire
