`default_nettype none
// colorlight_i5: the board top level for the Colorlight i5 (v7.0) module: Lattice
// LFE5U-25F-6BG381C (CABGA381, speed grade 6), 25 MHz oscillator, Broadcom B50612D
// gigabit PHY on RGMII (the module's PHY "eth 0": pins in colorlight_i5.lpf), one LED.
// It runs the full wirecore node (rtl/top/wirecore_node.v: ARP, IPv4, ICMP echo, UDP echo,
// the IPbus control plane with its 64 KiB memory, the packet generator, TCP echo) at
// 1000 Mbit/s. Pin facts and the build: docs/boards.md.
//
//   clk25 -> EHXPLLL -> clk (125 MHz: the MAC's transmitter, the node, tx_clk of RGMII)
//   rgmii_rx* -> eth_mac_rgmii RX (eth_rxc) -> eth_mac_fifo (RX FIFO, eth_rxc -> clk)
//     -> wirecore_node (clk) -> eth_mac_fifo (TX FIFO, clk -> clk) -> eth_mac_rgmii TX
//     -> rgmii_tx*
//
// Clocks: clk25 (pin), clk = PLL CLKOP 125 MHz (CLKI_DIV 1, CLKFB_DIV 5, CLKOP_DIV 5,
//   VCO 625 MHz: yowasp-ecppll -i 25 -o 125 --clkout1 125 --phase1 90), clk90 = PLL CLKOS
//   125 MHz 90 degrees later (CLKOS_DIV 5, CPHASE 3, FPHASE 2), eth_rxc (from the PHY,
//   125 MHz at 1000 Mbit/s). The PHY's receive clock crosses into clk in eth_mac_fifo.
// RGMII timing: the receive data and control go through a DELAYG
//   (boards/ecp5/rgmii_iddr.v DEL_TAPS, 80 taps = 2 ns) before their IDDRX1F; the transmit clock
//   eth_txc comes from an ODDRX1F on clk (TXC_90 = 0: edge-aligned with the data, for a
//   PHY that adds its own TX clock delay, as the module's B50612D does) or on clk90
//   (TXC_90 = 1: centred, for a PHY without it).
// Reset: a power-on counter on clk25 holds the PHY in reset (eth_rst_n low) for 2^18
//   cycles (10.5 ms) and everything else until the PLL has locked and 2^19 cycles
//   (21 ms) have passed, to let the PHY come out of its own reset; rst_n (a button, low
//   = reset, pulled up) restarts the sequence. The resets reach each clock domain
//   through sync_reset.
// Addresses: MAC_ADDR, IP_ADDR, NETMASK, GATEWAY, ECHO_PORT are the register file's
//   reset values (wirecore_node NET_PORTS = 0): NET.MAC_HI/MAC_LO/IP/... change them
//   over IPbus.
// LED (led_n, low = lit): lit while the PHY's receive clock runs (eth_rxc toggled within
//   the last 2^17 clk cycles, about 1 ms), dark for about 33 ms after any frame sent or
//   received (activity), dark without a receive clock.
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
        if (POR_BITS < 3 || POR_BITS > 24) begin : g_check_por_bits
            colorlight_i5_POR_BITS_must_be_3_to_24 u_error ();  // unsupported parameter
        end
    endgenerate

    // ---------------------------------------------------------------- clocks
    wire clk, clk90, pll_lock;
    /* verilator lint_off PINCONNECTEMPTY */
    (* FREQUENCY_PIN_CLKI = "25" *)
    (* FREQUENCY_PIN_CLKOP = "125" *)
    (* FREQUENCY_PIN_CLKOS = "125" *)
    (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
    (* MFG_GMCREF_SEL = "2" *)
    EHXPLLL #(
        .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
        .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
        .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
        .CLKI_DIV(1), .CLKFB_DIV(5), .FEEDBK_PATH("CLKOP"),
        .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(5), .CLKOP_CPHASE(2), .CLKOP_FPHASE(0),
        .CLKOS_ENABLE("ENABLED"), .CLKOS_DIV(5), .CLKOS_CPHASE(3), .CLKOS_FPHASE(2)
    ) u_pll (
        .RST(1'b0), .STDBY(1'b0), .CLKI(clk25), .CLKOP(clk), .CLKOS(clk90), .CLKOS2(),
        .CLKOS3(), .CLKFB(clk), .CLKINTFB(), .PHASESEL0(1'b0), .PHASESEL1(1'b0),
        .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0),
        .ENCLKOP(1'b0), .ENCLKOS(1'b0), .ENCLKOS2(1'b0), .ENCLKOS3(1'b0),
        .LOCK(pll_lock), .INTLOCK(), .REFCLK()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ---------------------------------------------------------------- resets
    reg [POR_BITS-1:0] por_reg;  // power-on count
    reg                phy_rst_n_reg, sys_rst_reg;
    initial begin  // the FPGA's configuration values: the count starts at power-up
        por_reg = {POR_BITS{1'b0}};
        phy_rst_n_reg = 1'b0;
        sys_rst_reg = 1'b1;
    end
    wire               rst_btn;  // rst_n, synchronised to clk25
    sync_bit u_sync_btn (.clk(clk25), .in(!rst_n), .out(rst_btn));
    always @(posedge clk25) begin
        if (rst_btn) begin
            por_reg <= {POR_BITS{1'b0}};
        end else if (!por_reg[POR_BITS-1]) begin
            por_reg <= por_reg + 1'b1;
        end
        phy_rst_n_reg <= !rst_btn && (por_reg[POR_BITS-1] || por_reg[POR_BITS-2]);
        sys_rst_reg <= rst_btn || !por_reg[POR_BITS-1] || !pll_lock;
    end
    assign eth_rst_n = phy_rst_n_reg;

    wire rst, rx_rst;
    sync_reset u_rst (.clk(clk), .in(sys_rst_reg), .out(rst));
    sync_reset u_rx_rst (.clk(eth_rxc), .in(sys_rst_reg), .out(rx_rst));

    // ---------------------------------------------------------------- MAC
    wire [7:0] mac_tx_tdata, mac_rx_tdata;
    wire       mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;
    wire       mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
    wire [7:0] mac_ifg;
    wire [15:0] mac_max_len;
    wire [9:0] mac_ev;
    wire [31:0] mac_ev_len;

    eth_mac_rgmii u_mac (
        .tx_clk(clk), .tx_clk90(TXC_90 != 0 ? clk90 : clk), .tx_rst(rst), .rx_rst(rx_rst),
        .rgmii_rxc(eth_rxc), .rgmii_rxd(eth_rxd), .rgmii_rx_ctl(eth_rx_ctl),
        .rgmii_txc(eth_txc), .rgmii_txd(eth_txd), .rgmii_tx_ctl(eth_tx_ctl),
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
        .clk(clk), .rst(rst), .tx_clk(clk), .tx_rst(rst), .rx_clk(eth_rxc), .rx_rst(rx_rst),
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
        .RX_BUSY_WAIT(125000), .CNT_RAM(0), .NET_PORTS(0),
        .MAC_ADDR(MAC_ADDR), .IP_ADDR(IP_ADDR), .NETMASK(NETMASK), .GATEWAY(GATEWAY),
        .ECHO_PORT(ECHO_PORT)
    ) u_node (
        .clk(clk), .rst(rst), .tick_1ms(tick_reg), .ts_cycle(cycle_reg),
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
    // the receive clock's presence: a toggle in eth_rxc seen changing in clk
    reg        rxc_toggle_reg;
    initial rxc_toggle_reg = 1'b0;  // a toggle needs a known start (configuration value)
    always @(posedge eth_rxc) rxc_toggle_reg <= !rxc_toggle_reg;
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
    assign led_n = !led_reg;

    // eth_mac_fifo's own FIFO drops (bits 10, 11) are not in the node's map: its RX FIFO
    // drains at the line rate (m_axis_tready = 1, the node's RX FIFO behind it), and
    // what the node sends never ends in tuser (the stack counts its own aborts)
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = &{1'b0, ev_mac[11:10], st_tx_tkeep};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
