# Vivado batch build of the Digilent Nexys Video top (boards/nexys_video/nexys_video.v) to
# a bitstream, non-project mode. From the repository's root:
#
#   vivado -mode batch -source boards/nexys_video/nexys_video.tcl
#
# Sources: every file under rtl/ except the generic DDR registers rtl/mac/rgmii_iddr.v and
# rgmii_oddr.v, which the Xilinx versions under boards/xilinx/ replace, and the board's
# own Verilog and XDC. Output in build/vivado/nexys_video/: nexys_video.bit, the timing
# and utilization reports and a post-route checkpoint. The build stops with an error when
# the routed design misses timing (WNS or WHS below 0).

set root [file normalize [file join [file dirname [info script]] .. ..]]
set out [file join $root build vivado nexys_video]
file mkdir $out

set part xc7a200tsbg484-1
set replaced {rgmii_iddr.v rgmii_oddr.v}
foreach f [lsort [glob -directory [file join $root rtl] -- */*.v]] {
    if {[file tail [file dirname $f]] eq "mac" && [lsearch -exact $replaced [file tail $f]] >= 0} {
        continue
    }
    read_verilog $f
}
foreach f [lsort [glob -directory [file join $root boards xilinx] -- *.v]] {
    read_verilog $f
}
read_verilog [file join $root boards nexys_video nexys_video.v]
read_xdc [file join $root boards nexys_video nexys_video.xdc]

synth_design -top nexys_video -part $part
opt_design
place_design
phys_opt_design
route_design

report_timing_summary -file [file join $out timing.rpt]
report_utilization -file [file join $out utilization.rpt]
report_clock_interaction -file [file join $out clock_interaction.rpt]
write_checkpoint -force [file join $out nexys_video_routed.dcp]

set wns [get_property SLACK [get_timing_paths -delay_type max]]
set whs [get_property SLACK [get_timing_paths -delay_type min]]
puts "nexys_video: WNS $wns ns, WHS $whs ns"
if {$wns < 0 || $whs < 0} {
    error "nexys_video: timing not met (WNS $wns ns, WHS $whs ns): see $out/timing.rpt"
}
write_bitstream -force [file join $out nexys_video.bit]
