`default_nettype none
// colorlight_i5: the board top level for the Colorlight i5 (v7.0) module: Lattice
// LFE5U-25F-6BG381C (CABGA381, speed grade 6), 25 MHz oscillator, Broadcom B50612D
// gigabit PHY on RGMII (the module's PHY "eth 0": pins in colorlight_i5.lpf), one LED.
// It runs the RGMII board core rtl/top/wirecore_rgmii_node.v (the MAC, its clock-crossing
// FIFOs and the full wirecore node: ARP, IPv4, ICMP echo, UDP echo, the IPbus control
// plane with its 64 KiB memory, the packet generator, TCP echo) at 1000 Mbit/s, with the
// board's clocks, resets and pins. Pin facts and the build: docs/boards.md.
//
//   clk25 -> EHXPLLL -> clk (125 MHz: the MAC's transmitter, the node, tx_clk of RGMII)
//
// Clocks: clk25 (pin), clk = PLL CLKOP 125 MHz (CLKI_DIV 1, CLKFB_DIV 5, CLKOP_DIV 5,
//   VCO 625 MHz: yowasp-ecppll -i 25 -o 125 --clkout1 125 --phase1 90 --clkout2 62.5),
//   clk90 = PLL CLKOS
//   125 MHz 90 degrees later (CLKOS_DIV 5, CPHASE 3, FPHASE 2), ctrl_clk = PLL CLKOS2
//   62.5 MHz (CLKOS2_DIV 10, CPHASE 2: --clkout2 62.5) for the IPbus target, eth_rxc (from
//   the PHY, 125 MHz at 1000 Mbit/s). The PHY's receive clock crosses into clk in
//   eth_mac_fifo; the IPbus target runs on ctrl_clk behind ipbus_cdc's crossings
//   (CTRL_ASYNC = 1), the data path, the register file and the memory on clk.
// RGMII timing: the receive data and control go through a DELAYG
//   (boards/ecp5/rgmii_iddr.v DEL_TAPS, 80 taps = 2 ns) before their IDDRX1F; the transmit clock
//   eth_txc comes from an ODDRX1F on clk (TXC_90 = 0: edge-aligned with the data, for a
//   PHY that adds its own TX clock delay, as the module's B50612D does) or on clk90
//   (TXC_90 = 1: centred, for a PHY without it).
// Reset (rtl/top/board_reset.v): a power-on counter on clk25 holds the PHY in reset (eth_rst_n low) for 2^18
//   cycles (10.5 ms) and everything else until the PLL has locked and 2^19 cycles
//   (21 ms) have passed, to let the PHY come out of its own reset; rst_n (a button, low
//   = reset, pulled up) restarts the sequence. The resets reach each clock domain
//   through sync_reset.
// Addresses: MAC_ADDR, IP_ADDR, NETMASK, GATEWAY, ECHO_PORT are the register file's
//   reset values (wirecore_node NET_PORTS = 0): NET.MAC_HI/MAC_LO/IP/... change them
//   over IPbus. Counters in block RAM (CNT_RAM = 1).
// LED (led_n, low = lit): lit while the PHY's receive clock runs, dark for about 33 ms
//   after any frame sent or received (activity), dark without a receive clock.
// The link runs at 1000 Mbit/s only (eth_mac_rgmii cfg_speed 2): the PHY is left to
//   autonegotiate on its strap defaults and is not managed over MDIO.
//
// Interfaces: clk25, rst_n, eth_rxc, eth_rxd[3:0], eth_rx_ctl, eth_txc, eth_txd[3:0],
//   eth_tx_ctl, eth_rst_n, led_n.
// Parameters (tested values in brackets): MAC_ADDR [02:00:00:00:00:05], IP_ADDR
//   [192.0.2.5], NETMASK, GATEWAY, ECHO_PORT [7], TXC_90
//   (0/1, checked) [0], POR_BITS (power-on counter bits; 19 = 21 ms; the simulation
//   uses fewer) [19, 6], TICK_CYCLES (clk cycles per millisecond strobe: 125000; the
//   simulation uses fewer) [125000, 1250].
module colorlight_i5 #(
    parameter [47:0]  MAC_ADDR      = 48'h020000000005,
    parameter [31:0]  IP_ADDR       = 32'hC0000205,
    parameter [31:0]  NETMASK       = 32'hFFFFFF00,
    parameter [31:0]  GATEWAY       = 32'hC0000201,
    parameter [15:0]  ECHO_PORT     = 16'd7,
    parameter integer TXC_90        = 0,
    parameter integer POR_BITS      = 19,
    parameter integer TICK_CYCLES   = 125000
) (
    input  wire       clk25,
    input  wire       rst_n,
    input  wire       eth_rxc,
    input  wire [3:0] eth_rxd,
    input  wire       eth_rx_ctl,
    output wire       eth_txc,
    output wire [3:0] eth_txd,
    output wire       eth_tx_ctl,
    output wire       eth_rst_n,
    output wire       led_n
);
    generate
        if (TXC_90 != 0 && TXC_90 != 1) begin : g_check_txc_90
            colorlight_i5_TXC_90_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    // ---------------------------------------------------------------- clocks
    wire clk, clk90, ctrl_clk, pll_lock;
    /* verilator lint_off PINCONNECTEMPTY */
    (* FREQUENCY_PIN_CLKI = "25" *)
    (* FREQUENCY_PIN_CLKOP = "125" *)
    (* FREQUENCY_PIN_CLKOS = "125" *)
    (* FREQUENCY_PIN_CLKOS2 = "62.5" *)
    (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
    (* MFG_GMCREF_SEL = "2" *)
    EHXPLLL #(
        .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
        .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
        .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
        .CLKI_DIV(1), .CLKFB_DIV(5), .FEEDBK_PATH("CLKOP"),
        .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(5), .CLKOP_CPHASE(2), .CLKOP_FPHASE(0),
        .CLKOS_ENABLE("ENABLED"), .CLKOS_DIV(5), .CLKOS_CPHASE(3), .CLKOS_FPHASE(2),
        .CLKOS2_ENABLE("ENABLED"), .CLKOS2_DIV(10), .CLKOS2_CPHASE(2), .CLKOS2_FPHASE(0)
    ) u_pll (
        .RST(1'b0), .STDBY(1'b0), .CLKI(clk25), .CLKOP(clk), .CLKOS(clk90), .CLKOS2(ctrl_clk),
        .CLKOS3(), .CLKFB(clk), .CLKINTFB(), .PHASESEL0(1'b0), .PHASESEL1(1'b0),
        .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0),
        .ENCLKOP(1'b0), .ENCLKOS(1'b0), .ENCLKOS2(1'b0), .ENCLKOS3(1'b0),
        .LOCK(pll_lock), .INTLOCK(), .REFCLK()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ---------------------------------------------------------------- resets
    wire sys_rst;
    board_reset #(.POR_BITS(POR_BITS)) u_por (
        .clk(clk25), .btn(!rst_n), .pll_lock(pll_lock), .phy_rst_n(eth_rst_n),
        .sys_rst(sys_rst)
    );
    wire rst, rx_rst, ctrl_rst;
    sync_reset u_rst (.clk(clk), .in(sys_rst), .out(rst));
    sync_reset u_ctrl_rst (.clk(ctrl_clk), .in(sys_rst), .out(ctrl_rst));
    sync_reset u_rx_rst (.clk(eth_rxc), .in(sys_rst), .out(rx_rst));

    // ---------------------------------------------------------------- node
    wire led;
    wirecore_rgmii_node #(
        .MAC_ADDR(MAC_ADDR), .IP_ADDR(IP_ADDR), .NETMASK(NETMASK), .GATEWAY(GATEWAY),
        .ECHO_PORT(ECHO_PORT), .TICK_CYCLES(TICK_CYCLES), .CNT_RAM(1), .CTRL_ASYNC(1)
    ) u_core (
        .clk(clk), .clk90(TXC_90 != 0 ? clk90 : clk), .rst(rst), .rx_rst(rx_rst),
        .ctrl_clk(ctrl_clk), .ctrl_rst(ctrl_rst),
        .rgmii_rxc(eth_rxc), .rgmii_rxd(eth_rxd), .rgmii_rx_ctl(eth_rx_ctl),
        .rgmii_txc(eth_txc), .rgmii_txd(eth_txd), .rgmii_tx_ctl(eth_tx_ctl), .led(led)
    );
    assign led_n = !led;
endmodule
`default_nettype wire
