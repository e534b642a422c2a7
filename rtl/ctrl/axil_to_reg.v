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
// Parameters (checked at elaboration): ADDR_W (AXI byte-address bits, 3..34; tested: 16
//   and 20), TIMEOUT_MS (0..254; tested: 2).
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
    output wire              s_axil_awready,
    input  wire [31:0]       s_axil_wdata,
    input  wire [3:0]        s_axil_wstrb,
    input  wire              s_axil_wvalid,
    output wire              s_axil_wready,
    output wire [1:0]        s_axil_bresp,
    output wire              s_axil_bvalid,
    input  wire              s_axil_bready,
    input  wire [ADDR_W-1:0] s_axil_araddr,
    input  wire [2:0]        s_axil_arprot,
    input  wire              s_axil_arvalid,
    output wire              s_axil_arready,
    output wire [31:0]       s_axil_rdata,
    output wire [1:0]        s_axil_rresp,
    output wire              s_axil_rvalid,
    input  wire              s_axil_rready,

    output wire              reg_req,
    output wire              reg_we,
    output wire [31:0]       reg_addr,
    output wire [31:0]       reg_wdata,
    input  wire              reg_ack,
    input  wire              reg_err,
    input  wire [31:0]       reg_rdata
);

    generate
        if (ADDR_W < 3 || ADDR_W > 34) begin : g_check_addr_w
            axil_to_reg_ADDR_W_must_be_3_to_34 u_error ();  // unsupported parameter
        end
        if (TIMEOUT_MS < 0 || TIMEOUT_MS > 254) begin : g_check_timeout_ms
            axil_to_reg_TIMEOUT_MS_must_be_0_to_254 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam [1:0] STATE_IDLE = 2'd0,   // waiting for a read or a write
                     STATE_WAIT = 2'd1,   // the request is on the register bus
                     STATE_RESP = 2'd2;   // the AXI response is offered
    localparam [1:0] RESP_OKAY = 2'b00, RESP_SLVERR = 2'b10;

    reg [1:0]  state_reg, state_next;
    reg        last_read_reg, last_read_next;   // the last access served was a read
    reg [7:0]  ticks_reg, ticks_next;           // ticks of tick_1ms since the request
    reg        awready_reg, awready_next;
    reg        wready_reg, wready_next;
    reg        arready_reg, arready_next;
    reg [1:0]  bresp_reg, bresp_next;
    reg        bvalid_reg, bvalid_next;
    reg [31:0] rdata_reg, rdata_next;
    reg [1:0]  rresp_reg, rresp_next;
    reg        rvalid_reg, rvalid_next;
    reg        reg_req_reg, reg_req_next;
    reg        reg_we_reg, reg_we_next;
    reg [31:0] reg_addr_reg, reg_addr_next;
    reg [31:0] reg_wdata_reg, reg_wdata_next;

    assign s_axil_awready = awready_reg;
    assign s_axil_wready  = wready_reg;
    assign s_axil_bresp   = bresp_reg;
    assign s_axil_bvalid  = bvalid_reg;
    assign s_axil_arready = arready_reg;
    assign s_axil_rdata   = rdata_reg;
    assign s_axil_rresp   = rresp_reg;
    assign s_axil_rvalid  = rvalid_reg;
    assign reg_req        = reg_req_reg;
    assign reg_we         = reg_we_reg;
    assign reg_addr       = reg_addr_reg;
    assign reg_wdata      = reg_wdata_reg;

    wire want_write = s_axil_awvalid && s_axil_wvalid;
    wire want_read  = s_axil_arvalid;
    wire do_write   = want_write && (!want_read || last_read_reg);  // else serve the read

    // 32-bit word address from the byte address, whatever ADDR_W is
    wire [33:0] awaddr34 = {{(34-ADDR_W){1'b0}}, s_axil_awaddr};
    wire [33:0] araddr34 = {{(34-ADDR_W){1'b0}}, s_axil_araddr};

    always @* begin
        state_next     = state_reg;
        last_read_next = last_read_reg;
        ticks_next     = ticks_reg;
        awready_next   = 1'b0;
        wready_next    = 1'b0;
        arready_next   = 1'b0;
        bresp_next     = bresp_reg;
        bvalid_next    = bvalid_reg;
        rdata_next     = rdata_reg;
        rresp_next     = rresp_reg;
        rvalid_next    = rvalid_reg;
        reg_req_next   = 1'b0;
        reg_we_next    = reg_we_reg;
        reg_addr_next  = reg_addr_reg;
        reg_wdata_next = reg_wdata_reg;
        if (tick_1ms && ticks_reg != 8'hFF)
            ticks_next = ticks_reg + 8'd1;
        case (state_reg)
        STATE_IDLE: begin
            if (do_write) begin
                awready_next   = 1'b1;
                wready_next    = 1'b1;
                reg_we_next    = 1'b1;
                reg_addr_next  = awaddr34[33:2];
                reg_wdata_next = s_axil_wdata;
                last_read_next = 1'b0;
                ticks_next     = 8'd0;
                if (s_axil_wstrb == 4'hF) begin
                    reg_req_next = 1'b1;
                    state_next   = STATE_WAIT;
                end else begin                       // partial write: refused, not performed
                    bresp_next  = RESP_SLVERR;
                    bvalid_next = 1'b1;
                    state_next  = STATE_RESP;
                end
            end else if (want_read) begin
                arready_next   = 1'b1;
                reg_req_next   = 1'b1;
                reg_we_next    = 1'b0;
                reg_addr_next  = araddr34[33:2];
                last_read_next = 1'b1;
                ticks_next     = 8'd0;
                state_next     = STATE_WAIT;
            end
        end
        STATE_WAIT: begin
            if (reg_ack || reg_err || ticks_reg > TIMEOUT_MS[7:0]) begin
                if (reg_we_reg) begin
                    bresp_next  = reg_ack ? RESP_OKAY : RESP_SLVERR;
                    bvalid_next = 1'b1;
                end else begin
                    rresp_next  = reg_ack ? RESP_OKAY : RESP_SLVERR;
                    rdata_next  = reg_ack ? reg_rdata : 32'd0;
                    rvalid_next = 1'b1;
                end
                state_next = STATE_RESP;
            end
        end
        STATE_RESP: begin
            if (bvalid_reg && s_axil_bready) begin
                bvalid_next = 1'b0;
                state_next  = STATE_IDLE;
            end
            if (rvalid_reg && s_axil_rready) begin
                rvalid_next = 1'b0;
                state_next  = STATE_IDLE;
            end
        end
        default: state_next = STATE_IDLE;
        endcase
    end

    always @(posedge clk) begin
        state_reg     <= state_next;
        last_read_reg <= last_read_next;
        ticks_reg     <= ticks_next;
        awready_reg   <= awready_next;
        wready_reg    <= wready_next;
        arready_reg   <= arready_next;
        bresp_reg     <= bresp_next;
        bvalid_reg    <= bvalid_next;
        rdata_reg     <= rdata_next;
        rresp_reg     <= rresp_next;
        rvalid_reg    <= rvalid_next;
        reg_req_reg   <= reg_req_next;
        reg_we_reg    <= reg_we_next;
        reg_addr_reg  <= reg_addr_next;
        reg_wdata_reg <= reg_wdata_next;
        if (rst) begin
            state_reg     <= STATE_IDLE;
            last_read_reg <= 1'b0;
            awready_reg   <= 1'b0;
            wready_reg    <= 1'b0;
            arready_reg   <= 1'b0;
            bvalid_reg    <= 1'b0;
            rvalid_reg    <= 1'b0;
            reg_req_reg   <= 1'b0;
        end
    end

    // protection bits carry no meaning here; the low two address bits select bytes
    wire unused = &{1'b0, s_axil_awprot, s_axil_arprot, awaddr34[1:0], araddr34[1:0]};

endmodule

`default_nettype wire
