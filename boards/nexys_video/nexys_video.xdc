# Digilent Nexys Video (XC7A200T-1SBG484C): pins and timing of boards/nexys_video/nexys_video.v.
# Pin facts from the board's public documentation (Digilent's Nexys Video master XDC and
# reference manual), checked against the Nexys Video example constraints of the
# verilog-ethernet project (example/NexysVideo/fpga/fpga.xdc): 100 MHz oscillator R4,
# CPU RESET G4, LEDs T14..Y13 (bank at 2.5 V), RTL8211E RGMII on a 2.5 V bank, its reset
# U7 (3.3 V).

set_property CFGBVS VCCO [current_design]
set_property CONFIG_VOLTAGE 3.3 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS true [current_design]

# 100 MHz oscillator
set_property -dict {PACKAGE_PIN R4 IOSTANDARD LVCMOS33} [get_ports clk100]
create_clock -period 10.000 -name clk100 [get_ports clk100]

# CPU RESET button (low = pressed)
set_property -dict {PACKAGE_PIN G4 IOSTANDARD LVCMOS15} [get_ports cpu_resetn]
set_false_path -from [get_ports cpu_resetn]

# LEDs
set_property -dict {PACKAGE_PIN T14 IOSTANDARD LVCMOS25} [get_ports {led[0]}]
set_property -dict {PACKAGE_PIN T15 IOSTANDARD LVCMOS25} [get_ports {led[1]}]
set_property -dict {PACKAGE_PIN T16 IOSTANDARD LVCMOS25} [get_ports {led[2]}]
set_property -dict {PACKAGE_PIN U16 IOSTANDARD LVCMOS25} [get_ports {led[3]}]
set_property -dict {PACKAGE_PIN V15 IOSTANDARD LVCMOS25} [get_ports {led[4]}]
set_property -dict {PACKAGE_PIN W16 IOSTANDARD LVCMOS25} [get_ports {led[5]}]
set_property -dict {PACKAGE_PIN W15 IOSTANDARD LVCMOS25} [get_ports {led[6]}]
set_property -dict {PACKAGE_PIN Y13 IOSTANDARD LVCMOS25} [get_ports {led[7]}]
set_false_path -to [get_ports {led[*]}]

# RGMII to the RTL8211E
set_property -dict {PACKAGE_PIN V13 IOSTANDARD LVCMOS25} [get_ports eth_rxc]
set_property -dict {PACKAGE_PIN W10 IOSTANDARD LVCMOS25} [get_ports eth_rx_ctl]
set_property -dict {PACKAGE_PIN AB16 IOSTANDARD LVCMOS25} [get_ports {eth_rxd[0]}]
set_property -dict {PACKAGE_PIN AA15 IOSTANDARD LVCMOS25} [get_ports {eth_rxd[1]}]
set_property -dict {PACKAGE_PIN AB15 IOSTANDARD LVCMOS25} [get_ports {eth_rxd[2]}]
set_property -dict {PACKAGE_PIN AB11 IOSTANDARD LVCMOS25} [get_ports {eth_rxd[3]}]
set_property -dict {PACKAGE_PIN AA14 IOSTANDARD LVCMOS25 SLEW FAST DRIVE 16} [get_ports eth_txc]
set_property -dict {PACKAGE_PIN V10 IOSTANDARD LVCMOS25 SLEW FAST DRIVE 16} [get_ports eth_tx_ctl]
set_property -dict {PACKAGE_PIN Y12 IOSTANDARD LVCMOS25 SLEW FAST DRIVE 16} [get_ports {eth_txd[0]}]
set_property -dict {PACKAGE_PIN W12 IOSTANDARD LVCMOS25 SLEW FAST DRIVE 16} [get_ports {eth_txd[1]}]
set_property -dict {PACKAGE_PIN W11 IOSTANDARD LVCMOS25 SLEW FAST DRIVE 16} [get_ports {eth_txd[2]}]
set_property -dict {PACKAGE_PIN Y11 IOSTANDARD LVCMOS25 SLEW FAST DRIVE 16} [get_ports {eth_txd[3]}]
set_property -dict {PACKAGE_PIN U7 IOSTANDARD LVCMOS33} [get_ports eth_rst_n]
set_false_path -to [get_ports eth_rst_n]

# Receive: the PHY's clock, 125 MHz at 1000 Mbit/s, the data centred on both of its
# edges by the PHY's RX clock delay (RGMII v2.0 with internal delay: valid at least 1.2 ns
# before and after each edge of eth_rxc at the pins); Vivado's centre-aligned DDR input
# template: max = period / 2 - valid before, min = valid after
create_clock -period 8.000 -name eth_rxc [get_ports eth_rxc]
set_input_delay -clock eth_rxc -max 2.8 [get_ports {eth_rxd[*] eth_rx_ctl}]
set_input_delay -clock eth_rxc -min 1.2 [get_ports {eth_rxd[*] eth_rx_ctl}]
set_input_delay -clock eth_rxc -clock_fall -max 2.8 -add_delay [get_ports {eth_rxd[*] eth_rx_ctl}]
set_input_delay -clock eth_rxc -clock_fall -min 1.2 -add_delay [get_ports {eth_rxd[*] eth_rx_ctl}]

# Transmit: eth_txc is forwarded from clk90's ODDR, centred on the data (which change on
# both edges of clk); the PHY samples on both edges of it (RGMII v2.0 receiver: setup
# 1.0 ns, hold 1.0 ns). Vivado's centre-aligned DDR output template: each edge of clk
# launches the data the same edge of eth_txc captures
set tx_clk [get_clocks -of_objects [get_pins u_mmcm/CLKOUT0]]
create_generated_clock -name eth_txc -source [get_pins u_mmcm/CLKOUT1] -multiply_by 1 \
    [get_ports eth_txc]
set_output_delay -clock eth_txc -max 1.0 [get_ports {eth_txd[*] eth_tx_ctl}]
set_output_delay -clock eth_txc -min -1.0 [get_ports {eth_txd[*] eth_tx_ctl}]
set_output_delay -clock eth_txc -clock_fall -max 1.0 -add_delay [get_ports {eth_txd[*] eth_tx_ctl}]
set_output_delay -clock eth_txc -clock_fall -min -1.0 -add_delay [get_ports {eth_txd[*] eth_tx_ctl}]
set_false_path -setup -rise_from $tx_clk -fall_to [get_clocks eth_txc]
set_false_path -setup -fall_from $tx_clk -rise_to [get_clocks eth_txc]
set_false_path -hold -rise_from $tx_clk -rise_to [get_clocks eth_txc]
set_false_path -hold -fall_from $tx_clk -fall_to [get_clocks eth_txc]

# The PHY's receive clock and the MMCM's clocks are unrelated: they meet only in
# synchronizers and the MAC's asynchronous FIFOs (eth_mac_fifo); the power-on reset
# (clk100) reaches clk through sync_reset
set_clock_groups -asynchronous -group [get_clocks eth_rxc] \
    -group [get_clocks -include_generated_clocks clk100]
set_false_path -from [get_clocks clk100] -to $tx_clk

# The IPbus target's clock (CLKOUT2, 62.5 MHz) meets clk only in ipbus_cdc's crossings
# (synchronizers, handshakes whose data are stable when sampled, Gray-coded FIFO pointers)
set ctrl_clk [get_clocks -of_objects [get_pins u_mmcm/CLKOUT2]]
set_max_delay -datapath_only -from $tx_clk -to $ctrl_clk 8.000
set_max_delay -datapath_only -from $ctrl_clk -to $tx_clk 8.000
