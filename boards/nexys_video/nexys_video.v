`default_nettype none
// nexys_video: the board top level for the Digilent Nexys Video: Xilinx Artix-7
// XC7A200T-1SBG484C, 100 MHz oscillator, Realtek RTL8211E-VL gigabit PHY on RGMII, eight
// LEDs, the CPU RESET button. It runs the RGMII board core rtl/top/wirecore_rgmii_node.v
// (the MAC, its clock-crossing FIFOs and the full wirecore node) at 1000 Mbit/s with the
// board's clocks, resets and pins (nexys_video.xdc). Built by Vivado
// (nexys_video.tcl; the open flow checks it with yosys synth_xilinx). See docs/boards.md.
//
// Clocks: clk100 (pin) -> MMCME2_BASE (CLKFBOUT_MULT_F 10, DIVCLK_DIVIDE 1: VCO 1000 MHz)
//   -> CLKOUT0 / 8 = clk (125 MHz: the MAC's transmitter, the node), CLKOUT1 / 8 at 90
//   degrees = clk90 (rgmii_txc centred on the data), CLKOUT2 / 16 = ctrl_clk (62.5 MHz:
//   the IPbus target, behind ipbus_cdc's crossings, CTRL_ASYNC = 1), each through a BUFG;
//   eth_rxc (from the PHY, 125 MHz at 1000 Mbit/s) crosses into clk in eth_mac_fifo.
// RGMII timing: receive data are sampled by IDDR (boards/xilinx/rgmii_iddr.v) on eth_rxc
//   as the PHY sends them, its RX clock delay centring them (as public designs for this
//   board sample them, without an added delay; a PHY without that delay needs an
//   IDELAYE2 of about 2 ns per data pin); the transmit clock comes from an ODDR on clk90
//   (TXC_90 = 1: centred, the RTL8211E on this board adds no TX clock delay) or on clk
//   (TXC_90 = 0).
// Reset (rtl/top/board_reset.v): a power-on counter on clk100 holds the PHY in reset
//   (eth_rst_n low) for 2^20 cycles (10.5 ms) and everything else until the MMCM has
//   locked and 2^21 cycles (21 ms) have passed; cpu_resetn (the CPU RESET button, low =
//   reset) restarts the sequence. The resets reach each clock domain through sync_reset.
// Addresses: MAC_ADDR, IP_ADDR, NETMASK, GATEWAY, ECHO_PORT are the register file's reset
//   values (NET_PORTS = 0): NET.MAC_HI/MAC_LO/IP/... change them over IPbus. Counters in
//   block RAM (CNT_RAM = 1).
// LEDs (high = lit): led[0] link and activity (lit while the PHY's receive clock runs,
//   dark for about 33 ms after each frame), led[1] running (out of reset), led[7:2] off.
// The link runs at 1000 Mbit/s only: the PHY autonegotiates on its strap defaults and is
//   not managed over MDIO.
//
// Interfaces: clk100, cpu_resetn, eth_rxc, eth_rxd[3:0], eth_rx_ctl, eth_txc,
//   eth_txd[3:0], eth_tx_ctl, eth_rst_n, led[7:0].
// Parameters (tested values in brackets: synthesized by yosys synth_xilinx): MAC_ADDR
//   [02:00:00:00:00:05], IP_ADDR [192.0.2.5], NETMASK, GATEWAY, ECHO_PORT [7], TXC_90 (0/1,
//   checked) [1], POR_BITS (power-on counter bits, 3..24; 22 = 21 ms at 100 MHz) [22],
//   TICK_CYCLES (clk cycles per millisecond strobe) [125000].
module nexys_video #(
    parameter [47:0]  MAC_ADDR    = 48'h020000000005,
    parameter [31:0]  IP_ADDR     = 32'hC0000205,
    parameter [31:0]  NETMASK     = 32'hFFFFFF00,
    parameter [31:0]  GATEWAY     = 32'hC0000201,
    parameter [15:0]  ECHO_PORT   = 16'd7,
    parameter integer TXC_90      = 1,
    parameter integer POR_BITS    = 22,
    parameter integer TICK_CYCLES = 125000
) (
    input  wire       clk100,
    input  wire       cpu_resetn,
    input  wire       eth_rxc,
    input  wire [3:0] eth_rxd,
    input  wire       eth_rx_ctl,
    output wire       eth_txc,
    output wire [3:0] eth_txd,
    output wire       eth_tx_ctl,
    output wire       eth_rst_n,
    output wire [7:0] led
);
    generate
        if (TXC_90 != 0 && TXC_90 != 1) begin : g_check_txc_90
            nexys_video_TXC_90_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    // ---------------------------------------------------------------- clocks
    wire clk_mmcm, clk90_mmcm, ctrl_mmcm, clkfb, mmcm_lock, clk, clk90, ctrl_clk;
    /* verilator lint_off PINCONNECTEMPTY */
    MMCME2_BASE #(
        .BANDWIDTH("OPTIMIZED"), .CLKIN1_PERIOD(10.0), .DIVCLK_DIVIDE(1),
        .CLKFBOUT_MULT_F(10.0), .CLKFBOUT_PHASE(0.0),
        .CLKOUT0_DIVIDE_F(8.0), .CLKOUT0_PHASE(0.0), .CLKOUT0_DUTY_CYCLE(0.5),
        .CLKOUT1_DIVIDE(8), .CLKOUT1_PHASE(90.0), .CLKOUT1_DUTY_CYCLE(0.5),
        .CLKOUT2_DIVIDE(16), .CLKOUT2_PHASE(0.0), .CLKOUT2_DUTY_CYCLE(0.5),
        .REF_JITTER1(0.010), .STARTUP_WAIT("FALSE")
    ) u_mmcm (
        .CLKIN1(clk100), .CLKFBIN(clkfb), .RST(1'b0), .PWRDWN(1'b0),
        .CLKFBOUT(clkfb), .CLKFBOUTB(),
        .CLKOUT0(clk_mmcm), .CLKOUT0B(), .CLKOUT1(clk90_mmcm), .CLKOUT1B(),
        .CLKOUT2(ctrl_mmcm), .CLKOUT2B(), .CLKOUT3(), .CLKOUT3B(), .CLKOUT4(), .CLKOUT5(),
        .CLKOUT6(), .LOCKED(mmcm_lock)
    );
    /* verilator lint_on PINCONNECTEMPTY */
    BUFG u_bufg_clk (.I(clk_mmcm), .O(clk));
    BUFG u_bufg_clk90 (.I(clk90_mmcm), .O(clk90));
    BUFG u_bufg_ctrl (.I(ctrl_mmcm), .O(ctrl_clk));

    // ---------------------------------------------------------------- resets
    wire sys_rst;
    board_reset #(.POR_BITS(POR_BITS)) u_por (
        .clk(clk100), .btn(!cpu_resetn), .pll_lock(mmcm_lock), .phy_rst_n(eth_rst_n),
        .sys_rst(sys_rst)
    );
    wire rst, rx_rst, ctrl_rst;
    sync_reset u_rst (.clk(clk), .in(sys_rst), .out(rst));
    sync_reset u_ctrl_rst (.clk(ctrl_clk), .in(sys_rst), .out(ctrl_rst));
    sync_reset u_rx_rst (.clk(eth_rxc), .in(sys_rst), .out(rx_rst));

    // ---------------------------------------------------------------- node
    wire link_led;
    wirecore_rgmii_node #(
        .MAC_ADDR(MAC_ADDR), .IP_ADDR(IP_ADDR), .NETMASK(NETMASK), .GATEWAY(GATEWAY),
        .ECHO_PORT(ECHO_PORT), .TICK_CYCLES(TICK_CYCLES), .CNT_RAM(1), .CTRL_ASYNC(1)
    ) u_core (
        .clk(clk), .clk90(TXC_90 != 0 ? clk90 : clk), .rst(rst), .rx_rst(rx_rst),
        .ctrl_clk(ctrl_clk), .ctrl_rst(ctrl_rst),
        .rgmii_rxc(eth_rxc), .rgmii_rxd(eth_rxd), .rgmii_rx_ctl(eth_rx_ctl),
        .rgmii_txc(eth_txc), .rgmii_txd(eth_txd), .rgmii_tx_ctl(eth_tx_ctl),
        .led(link_led)
    );

    reg run_reg;  // out of reset
    always @(posedge clk) run_reg <= !rst;
    assign led = {6'd0, run_reg, link_led};
endmodule
`default_nettype wire
