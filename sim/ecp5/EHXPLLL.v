`default_nettype none
// EHXPLLL: behavioural model of the Lattice ECP5 PLL (simulation only, written from the
// primitive's documented behaviour, not vendor code). It measures the period of CLKI
// over two rising edges, then runs its outputs from the next rising edge on: CLKOP at
// CLKI * CLKFB_DIV / CLKI_DIV (feedback from CLKOP, FEEDBK_PATH "CLKOP"), the VCO at
// CLKOP * CLKOP_DIV, and CLKOS/CLKOS2/CLKOS3 at the VCO / their divider, each shifted
// against CLKOP by ((CPHASE - CLKOP_CPHASE) + (FPHASE - CLKOP_FPHASE) / 8) VCO periods.
// LOCK rises with the outputs' first edge. CLKFB, the phase-step, standby and enable
// inputs are not modelled; RST = 1 stops the outputs and drops LOCK (they start again
// after CLKI is measured anew).
// Times are in the simulation's default unit (1 ns in the project's cocotb runs).
// Under Verilator (cycle-based: the lint) the model has its outputs held low.
// Parameters: as the primitive (the dividers, phases and enables are modelled).
// (under Verilator no parameter is used)
/* verilator lint_off UNUSEDPARAM */
module EHXPLLL #(
    parameter integer CLKI_DIV = 1,
    parameter integer CLKFB_DIV = 1,
    parameter integer CLKOP_DIV = 8,
    parameter integer CLKOS_DIV = 8,
    parameter integer CLKOS2_DIV = 8,
    parameter integer CLKOS3_DIV = 8,
    parameter CLKOP_ENABLE = "ENABLED",
    parameter CLKOS_ENABLE = "DISABLED",
    parameter CLKOS2_ENABLE = "DISABLED",
    parameter CLKOS3_ENABLE = "DISABLED",
    parameter integer CLKOP_CPHASE = 0,
    parameter integer CLKOS_CPHASE = 0,
    parameter integer CLKOS2_CPHASE = 0,
    parameter integer CLKOS3_CPHASE = 0,
    parameter integer CLKOP_FPHASE = 0,
    parameter integer CLKOS_FPHASE = 0,
    parameter integer CLKOS2_FPHASE = 0,
    parameter integer CLKOS3_FPHASE = 0,
    parameter FEEDBK_PATH = "CLKOP",
    parameter CLKOP_TRIM_POL = "RISING",
    parameter integer CLKOP_TRIM_DELAY = 0,
    parameter CLKOS_TRIM_POL = "RISING",
    parameter integer CLKOS_TRIM_DELAY = 0,
    parameter OUTDIVIDER_MUXA = "DIVA",
    parameter OUTDIVIDER_MUXB = "DIVB",
    parameter OUTDIVIDER_MUXC = "DIVC",
    parameter OUTDIVIDER_MUXD = "DIVD",
    parameter integer PLL_LOCK_MODE = 0,
    parameter integer PLL_LOCK_DELAY = 200,
    parameter STDBY_ENABLE = "DISABLED",
    parameter REFIN_RESET = "DISABLED",
    parameter SYNC_ENABLE = "DISABLED",
    parameter INT_LOCK_STICKY = "ENABLED",
    parameter DPHASE_SOURCE = "DISABLED",
    parameter PLLRST_ENA = "DISABLED",
    parameter INTFB_WAKE = "DISABLED"
) (
    input  wire CLKI,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire CLKFB,
    input  wire PHASESEL1,
    input  wire PHASESEL0,
    input  wire PHASEDIR,
    input  wire PHASESTEP,
    input  wire PHASELOADREG,
    input  wire STDBY,
    input  wire PLLWAKESYNC,
    input  wire ENCLKOP,
    input  wire ENCLKOS,
    input  wire ENCLKOS2,
    input  wire ENCLKOS3,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire RST,
    output reg  CLKOP,
    output reg  CLKOS,
    output reg  CLKOS2,
    output reg  CLKOS3,
    output reg  LOCK,
    output wire INTLOCK,
    output wire REFCLK,
    output wire CLKINTFB
);
    /* verilator lint_on UNUSEDPARAM */
`ifdef VERILATOR
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = &{1'b0, CLKI, RST};
    initial begin
        CLKOP = 1'b0;
        CLKOS = 1'b0;
        CLKOS2 = 1'b0;
        CLKOS3 = 1'b0;
        LOCK = 1'b0;
    end
    assign INTLOCK = 1'b0;
    assign REFCLK = 1'b0;
    assign CLKINTFB = 1'b0;
    /* verilator lint_on UNUSEDSIGNAL */
`else
    assign INTLOCK = LOCK;
    assign REFCLK = CLKI;
    assign CLKINTFB = CLKOP;

    realtime t_last, t_in;  // the last rising edge of CLKI, its period
    reg      measured;      // t_in is known
    realtime t_vco;         // the VCO's period
    initial begin
        CLKOP = 1'b0;
        CLKOS = 1'b0;
        CLKOS2 = 1'b0;
        CLKOS3 = 1'b0;
        LOCK = 1'b0;
        t_last = 0.0;
        t_in = 0.0;
        t_vco = 0.0;
        measured = 1'b0;
    end

    always @(posedge CLKI or posedge RST) begin
        if (RST) begin
            LOCK <= 1'b0;
            measured <= 1'b0;
            t_last <= 0.0;
        end else begin
            t_last <= $realtime;
            if (t_last > 0.0) begin
                t_in <= $realtime - t_last;
                measured <= 1'b1;
            end
            if (measured && !LOCK) begin
                t_vco <= t_in * CLKI_DIV / (CLKFB_DIV * CLKOP_DIV);
                LOCK <= 1'b1;
            end
        end
    end

    // each output: period DIV VCO periods, shifted by PH VCO periods, while LOCK
    localparam real PH_OS = (CLKOS_CPHASE - CLKOP_CPHASE) + (CLKOS_FPHASE - CLKOP_FPHASE) / 8.0;
    localparam real PH_OS2 = (CLKOS2_CPHASE - CLKOP_CPHASE) +
                             (CLKOS2_FPHASE - CLKOP_FPHASE) / 8.0;
    localparam real PH_OS3 = (CLKOS3_CPHASE - CLKOP_CPHASE) +
                             (CLKOS3_FPHASE - CLKOP_FPHASE) / 8.0;
    always @(posedge LOCK) begin
        while (LOCK && CLKOP_ENABLE == "ENABLED") begin
            CLKOP = 1'b1;
            #(CLKOP_DIV * t_vco / 2.0);
            CLKOP = 1'b0;
            #(CLKOP_DIV * t_vco / 2.0);
        end
    end
    always @(posedge LOCK) begin
        #(PH_OS * t_vco);
        while (LOCK && CLKOS_ENABLE == "ENABLED") begin
            CLKOS = 1'b1;
            #(CLKOS_DIV * t_vco / 2.0);
            CLKOS = 1'b0;
            #(CLKOS_DIV * t_vco / 2.0);
        end
    end
    always @(posedge LOCK) begin
        #(PH_OS2 * t_vco);
        while (LOCK && CLKOS2_ENABLE == "ENABLED") begin
            CLKOS2 = 1'b1;
            #(CLKOS2_DIV * t_vco / 2.0);
            CLKOS2 = 1'b0;
            #(CLKOS2_DIV * t_vco / 2.0);
        end
    end
    always @(posedge LOCK) begin
        #(PH_OS3 * t_vco);
        while (LOCK && CLKOS3_ENABLE == "ENABLED") begin
            CLKOS3 = 1'b1;
            #(CLKOS3_DIV * t_vco / 2.0);
            CLKOS3 = 1'b0;
            #(CLKOS3_DIV * t_vco / 2.0);
        end
    end
`endif
endmodule
`default_nettype wire
