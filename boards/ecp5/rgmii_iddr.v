`default_nettype none
// rgmii_iddr for Lattice ECP5: the DDR input register of rtl/mac/rgmii_iddr.v built from
// a DELAYG input delay and an IDDRX1F per bit (Q0 sampled at the rising, Q1 at the
// following falling edge of clk, both handed over at the next rising edge), re-registered
// at the next rising edge so q1/q2 line up as in the generic model. The DELAYG and the
// IDDRX1F sit in the pad's I/O cell: d must come straight from a top-level input.
//
// The delay centres the PHY's data on the receive clock: RGMII sends clock and data
// edge-aligned, so the receiver (or the PHY, if it adds its own RX clock delay) delays
// the data against the clock; DEL_TAPS DELAYG taps of about 25 ps each (80 = 2 ns, the
// RGMII receive skew, for a PHY without an internal RX delay; 0 for one with it).
//
// Ports: clk; d[WIDTH-1:0] (package pins); q1[WIDTH-1:0], q2[WIDTH-1:0].
// Parameters: WIDTH; DEL_TAPS (0..127, checked; 80 used on the Colorlight i5).
// Latency: IDDRX1F's (its outputs change at the rising edge after the falling-edge
//   sample) plus the re-timing register.
module rgmii_iddr #(
    parameter WIDTH = 1,
    parameter integer DEL_TAPS = 80
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d,
    output reg  [WIDTH-1:0] q1,
    output reg  [WIDTH-1:0] q2
);
    generate
        if (DEL_TAPS < 0 || DEL_TAPS > 127) begin : g_check_del_taps
            rgmii_iddr_DEL_TAPS_must_be_0_to_127 u_error ();  // unsupported parameter
        end
    endgenerate

    wire [WIDTH-1:0] delayed, rise, fall;

    genvar i;
    generate
        for (i = 0; i < WIDTH; i = i + 1) begin : g_bit
            DELAYG #(
                .DEL_MODE("USER_DEFINED"),
                .DEL_VALUE(DEL_TAPS)
            ) u_delay (
                .A(d[i]),
                .Z(delayed[i])
            );
            IDDRX1F u_iddr (
                .D(delayed[i]),
                .SCLK(clk),
                .RST(1'b0),
                .Q0(rise[i]),
                .Q1(fall[i])
            );
        end
    endgenerate

    always @(posedge clk) begin
        q1 <= rise;
        q2 <= fall;
    end
endmodule
`default_nettype wire
