`default_nettype none
// wirecore_rgmii_node: the full wirecore node behind an RGMII MAC at 1000 Mbit/s, the
// common core of the RGMII board tops (boards/<board>/): eth_mac_rgmii (DDR I/O through
// the technology modules rgmii_iddr / rgmii_oddr, the vendor's versions under
// boards/<vendor>/ in a board build), eth_mac_fifo (the PHY's receive clock crossed into
// clk), wirecore_node with NET_PORTS = 0 (ARP, IPv4, ICMP echo, UDP echo, the IPbus
// control plane with its 64 KiB memory, the packet generator, TCP echo), the generator's
// cycle timestamp, the millisecond strobe and the link/activity LED. The board top
// brings the clocks and resets (its PLL or MMCM, its power-on sequence).
//
//   rgmii_rx* -> eth_mac_rgmii RX (rgmii_rxc) -> eth_mac_fifo (RX FIFO, rgmii_rxc -> clk)
//     -> wirecore_node (clk) -> eth_mac_fifo (TX FIFO, clk -> clk) -> eth_mac_rgmii TX
//     -> rgmii_tx*
//
// Interfaces:
//   clk, rst                 125 MHz (transmitter, node), synchronous reset
//   clk90                    rgmii_txc's clock: clk 90 degrees later (centred on the
//                            data, for a PHY without its own TX clock delay) or clk
//                            itself (edge-aligned, for a PHY that delays it)
//   rx_rst                   reset synchronous to rgmii_rxc
//   ctrl_clk, ctrl_rst       the IPbus target's clock and reset (CTRL_ASYNC = 1; reset
//                            together with rst; tie to 0 with CTRL_ASYNC = 0)
//   rgmii_rxc, rgmii_rxd[3:0], rgmii_rx_ctl, rgmii_txc, rgmii_txd[3:0], rgmii_tx_ctl
//                            the PHY's pins (through the board's I/O buffers)
//   led                      1 = lit: the PHY's receive clock runs (rgmii_rxc toggled
//                            within the last 2^17 clk cycles, about 1 ms), dark for
//                            about 33 ms after any frame sent or received (activity)
// Addresses: MAC_ADDR, IP_ADDR, NETMASK, GATEWAY, ECHO_PORT are the register file's reset
//   values (NET_PORTS = 0): NET.MAC_HI/MAC_LO/IP/... change them over IPbus.
// The link runs at 1000 Mbit/s only (cfg_speed 2).
// Latency: eth_mac_rgmii's and eth_mac_fifo's plus wirecore_node's.
// Parameters (tested values in brackets): MAC_ADDR [02:00:00:00:00:05], IP_ADDR
//   [192.0.2.5], NETMASK, GATEWAY, ECHO_PORT [7], TICK_CYCLES (clk cycles per millisecond
//   strobe, 1..131072: 125000; the simulation uses fewer) [125000, 1250], CNT_RAM
//   (wirecore_node's: counters in one block RAM 1, flip-flops 0) [1], CTRL_ASYNC
//   (wirecore_node's: the IPbus target on ctrl_clk behind clock-domain crossings 1, on clk
//   0) [1].
module wirecore_rgmii_node #(
    parameter [47:0]  MAC_ADDR    = 48'h020000000005,
    parameter [31:0]  IP_ADDR     = 32'hC0000205,
    parameter [31:0]  NETMASK     = 32'hFFFFFF00,
    parameter [31:0]  GATEWAY     = 32'hC0000201,
    parameter [15:0]  ECHO_PORT   = 16'd7,
    parameter integer TICK_CYCLES = 125000,
    parameter integer CNT_RAM     = 1,
    parameter integer CTRL_ASYNC  = 1
) (
    input  wire       clk,
    input  wire       clk90,
    input  wire       rst,
    input  wire       ctrl_clk,
    input  wire       ctrl_rst,
    input  wire       rx_rst,
    input  wire       rgmii_rxc,
    input  wire [3:0] rgmii_rxd,
    input  wire       rgmii_rx_ctl,
    output wire       rgmii_txc,
    output wire [3:0] rgmii_txd,
    output wire       rgmii_tx_ctl,
    output wire       led
);
    generate
        if (TICK_CYCLES < 1 || TICK_CYCLES > 131072) begin : g_check_tick_cycles
            wirecore_rgmii_node_TICK_CYCLES_must_be_1_to_131072 u_error ();  // unsupported
        end
    endgenerate

    // ---------------------------------------------------------------- MAC
    wire [7:0] mac_tx_tdata, mac_rx_tdata;
    wire       mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;
    wire       mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
    wire [7:0] mac_ifg;
    wire [15:0] mac_max_len;
    wire [9:0] mac_ev;
    wire [31:0] mac_ev_len;

    eth_mac_rgmii u_mac (
        .tx_clk(clk), .tx_clk90(clk90), .tx_rst(rst), .rx_rst(rx_rst),
        .rgmii_rxc(rgmii_rxc), .rgmii_rxd(rgmii_rxd), .rgmii_rx_ctl(rgmii_rx_ctl),
        .rgmii_txc(rgmii_txc), .rgmii_txd(rgmii_txd), .rgmii_tx_ctl(rgmii_tx_ctl),
        .cfg_speed(2'd2),
        .s_axis_tdata(mac_tx_tdata), .s_axis_tvalid(mac_tx_tvalid),
        .s_axis_tready(mac_tx_tready), .s_axis_tlast(mac_tx_tlast),
        .s_axis_tuser(mac_tx_tuser),
        .m_axis_tdata(mac_rx_tdata), .m_axis_tvalid(mac_rx_tvalid),
        .m_axis_tlast(mac_rx_tlast), .m_axis_tuser(mac_rx_tuser),
        .cfg_ifg(mac_ifg), .cfg_max_len(mac_max_len),
        .cnt_ev(mac_ev), .cnt_ev_len(mac_ev_len)
    );

    wire [7:0] st_rx_tdata, st_tx_tdata;
    wire       st_rx_tvalid, st_rx_tlast, st_rx_tuser;
    wire       st_tx_tvalid, st_tx_tready, st_tx_tlast, st_tx_tuser;
    wire [7:0] cfg_ifg;
    wire [11:0] ev_mac;
    wire [31:0] ev_mac_len;

    eth_mac_fifo #(.TX_DEPTH(2048), .RX_DEPTH(2048), .RX_DROP_BAD_FRAME(1)) u_mac_fifo (
        .clk(clk), .rst(rst), .tx_clk(clk), .tx_rst(rst), .rx_clk(rgmii_rxc), .rx_rst(rx_rst),
        .s_axis_tdata(st_tx_tdata), .s_axis_tvalid(st_tx_tvalid),
        .s_axis_tready(st_tx_tready), .s_axis_tlast(st_tx_tlast),
        .s_axis_tuser(st_tx_tuser),
        .m_axis_tdata(st_rx_tdata), .m_axis_tvalid(st_rx_tvalid), .m_axis_tready(1'b1),
        .m_axis_tlast(st_rx_tlast), .m_axis_tuser(st_rx_tuser),
        .mac_tx_tdata(mac_tx_tdata), .mac_tx_tvalid(mac_tx_tvalid),
        .mac_tx_tready(mac_tx_tready), .mac_tx_tlast(mac_tx_tlast),
        .mac_tx_tuser(mac_tx_tuser),
        .mac_rx_tdata(mac_rx_tdata), .mac_rx_tvalid(mac_rx_tvalid),
        .mac_rx_tlast(mac_rx_tlast), .mac_rx_tuser(mac_rx_tuser),
        .mac_cfg_ifg(mac_ifg), .mac_cfg_max_len(mac_max_len),
        .mac_ev(mac_ev), .mac_ev_len(mac_ev_len),
        .cfg_ifg(cfg_ifg), .cfg_max_len(16'd1518),
        .cnt_ev(ev_mac), .cnt_ev_len(ev_mac_len)
    );

    // ---------------------------------------------------------------- node
    reg [63:0] cycle_reg;  // the generator's timestamp: clk cycles since reset
    reg [16:0] tick_cnt_reg;
    reg        tick_reg;
    always @(posedge clk) begin
        tick_reg <= 1'b0;
        if (rst) begin
            cycle_reg <= 64'd0;
            tick_cnt_reg <= 17'd0;
        end else begin
            cycle_reg <= cycle_reg + 64'd1;
            if ({15'd0, tick_cnt_reg} == TICK_CYCLES - 1) begin
                tick_cnt_reg <= 17'd0;
                tick_reg <= 1'b1;
            end else begin
                tick_cnt_reg <= tick_cnt_reg + 17'd1;
            end
        end
    end

    /* verilator lint_off PINCONNECTEMPTY */
    wire [0:0] st_tx_tkeep;
    wirecore_node #(
        .DATA_W(8), .KEEP_W(1), .RX_FIFO_BYTES(4096), .ECHO_CSUM_MODE(1),
        .RX_BUSY_WAIT(125000), .CNT_RAM(CNT_RAM), .NET_PORTS(0), .CTRL_ASYNC(CTRL_ASYNC),
        .MAC_ADDR(MAC_ADDR), .IP_ADDR(IP_ADDR), .NETMASK(NETMASK), .GATEWAY(GATEWAY),
        .ECHO_PORT(ECHO_PORT)
    ) u_node (
        .clk(clk), .rst(rst), .tick_1ms(tick_reg), .ctrl_clk(ctrl_clk), .ctrl_rst(ctrl_rst),
        .ts_cycle(cycle_reg),
        .cfg_mac(48'd0), .cfg_ip(32'd0), .cfg_netmask(32'd0), .cfg_gateway(32'd0),
        .cfg_echo_port(16'd0),
        .s_mac_axis_tdata(st_rx_tdata), .s_mac_axis_tkeep(1'b1),
        .s_mac_axis_tvalid(st_rx_tvalid), .s_mac_axis_tlast(st_rx_tlast),
        .s_mac_axis_tuser(st_rx_tuser),
        .m_mac_axis_tdata(st_tx_tdata), .m_mac_axis_tkeep(st_tx_tkeep),
        .m_mac_axis_tvalid(st_tx_tvalid), .m_mac_axis_tready(st_tx_tready),
        .m_mac_axis_tlast(st_tx_tlast), .m_mac_axis_tuser(st_tx_tuser),
        .ev_mac(ev_mac[9:0]), .ev_mac_len(ev_mac_len), .cfg_mac_ifg(cfg_ifg)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ---------------------------------------------------------------- LED
    // the receive clock's presence: a toggle in rgmii_rxc seen changing in clk
    reg        rxc_toggle_reg;
    initial rxc_toggle_reg = 1'b0;  // a toggle needs a known start (configuration value)
    always @(posedge rgmii_rxc) rxc_toggle_reg <= !rxc_toggle_reg;
    wire       rxc_toggle;
    sync_bit u_sync_rxc (.clk(clk), .in(rxc_toggle_reg), .out(rxc_toggle));
    reg        rxc_last_reg;
    reg [16:0] rxc_idle_reg;  // clk cycles since the toggle last changed (saturating)
    reg [21:0] act_reg;       // activity: counts down from a frame sent or received
    reg        led_reg;
    always @(posedge clk) begin
        rxc_last_reg <= rxc_toggle;
        if (rxc_toggle != rxc_last_reg) rxc_idle_reg <= 17'd0;
        else if (!(&rxc_idle_reg)) rxc_idle_reg <= rxc_idle_reg + 17'd1;
        if (rst) act_reg <= 22'd0;
        else if (ev_mac[0] || ev_mac[4]) act_reg <= {22{1'b1}};
        else if (act_reg != 22'd0) act_reg <= act_reg - 22'd1;
        led_reg <= !(&rxc_idle_reg) && (act_reg == 22'd0);
    end
    assign led = led_reg;

    // eth_mac_fifo's own FIFO drops (bits 10, 11) are not in the node's map: its RX FIFO
    // drains at the line rate (m_axis_tready = 1, the node's RX FIFO behind it), and
    // what the node sends never ends in tuser (the stack counts its own aborts)
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = &{1'b0, ev_mac[11:10], st_tx_tkeep};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
