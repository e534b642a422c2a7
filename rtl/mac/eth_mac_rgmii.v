`default_nettype none
// eth_mac_rgmii: 10/100/1000 Mbit/s Ethernet MAC, RGMII PHY side.
//
// eth_mac_core (the GMII cores and event strobes) behind an RGMII adapter whose DDR I/O is the
// technology module pair rgmii_oddr / rgmii_iddr (generic model in rtl/mac/, vendor
// versions in boards/<vendor>/). Same user side, configuration and event strobes as
// eth_mac_gmii (docs/mac.md).
//
// Transmit (tx_clk = 125 MHz, tx_clk90 = the same clock 90 degrees later):
//   1000: one byte per cycle, low nibble on the rising edge of rgmii_txc, high nibble on
//         the falling edge; rgmii_tx_ctl = tx_en, then tx_en ^ tx_er.
//   100/10: one nibble every 5/50 cycles, the same on both edges; rgmii_txc is a
//         25/2.5 MHz clock made from the same counter (high in the first half of each
//         nibble); eth_mac_tx's clock enable fires once per byte (every 10/100 cycles).
//   rgmii_txc comes from a DDR register on tx_clk90, so it is centred 2 ns after the
//   data changes (for PHYs without an internal TX clock delay use a delayed clock).
// Receive (rgmii_rxc from the PHY, all speeds): rising-edge nibble + rx_ctl (rx_dv),
//   falling-edge nibble + rx_ctl (rx_dv ^ rx_er). 1000: bytes every cycle; 100/10: the
//   rising-edge nibble of each cycle goes through mii_nibble_rx (SFD alignment).
//
// Ports:
//   tx_clk, tx_clk90, tx_rst     transmit clocks and sync reset
//   rx_rst                       sync reset of the rgmii_rxc domain
//   rgmii_rxc, rgmii_rxd[3:0], rgmii_rx_ctl    from the PHY
//   rgmii_txc, rgmii_txd[3:0], rgmii_tx_ctl    to the PHY
//   cfg_speed[1:0]               2 = 1000, 1 = 100, 0 = 10 Mbit/s (3 = 1000); tx_clk
//                                domain, synchronised to rgmii_rxc; change it only
//                                with both resets held
//   s_axis_t{data[7:0],valid,ready,last,user}   frames to send (tx_clk)
//   m_axis_t{data[7:0],valid,last,user}         frames received, no tready (rgmii_rxc)
//   cfg_ifg[7:0] (tx_clk), cfg_max_len[15:0] (rgmii_rxc), cnt_ev, cnt_ev_len as in
//                                eth_mac_gmii (strobes in tx_clk / rgmii_rxc)
// Latency at 1000: that of eth_mac_gmii plus one cycle on transmit (the output DDR
// register) and two on receive (the input DDR register and its re-timing).
module eth_mac_rgmii (
    input  wire        tx_clk,
    input  wire        tx_clk90,
    input  wire        tx_rst,
    input  wire        rx_rst,

    input  wire        rgmii_rxc,
    input  wire [3:0]  rgmii_rxd,
    input  wire        rgmii_rx_ctl,
    output wire        rgmii_txc,
    output wire [3:0]  rgmii_txd,
    output wire        rgmii_tx_ctl,

    input  wire [1:0]  cfg_speed,

    input  wire [7:0]  s_axis_tdata,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    output wire [7:0]  m_axis_tdata,
    output wire        m_axis_tvalid,
    output wire        m_axis_tlast,
    output wire        m_axis_tuser,

    input  wire [7:0]  cfg_ifg,
    input  wire [15:0] cfg_max_len,

    output wire [9:0]  cnt_ev,      // event strobes (eth_mac_stats)
    output wire [31:0] cnt_ev_len   // frame lengths of the bytes strobes
);
    // ---------------------------------------------------------------- transmit
    wire        tx_1g = cfg_speed[1];
    wire        tx_10 = (cfg_speed == 2'b00);
    reg  [5:0]  nibble_pos_reg;  // position in the nibble time: 0..4 (100) or 0..49 (10)
    wire        nibble_start = (nibble_pos_reg == 6'd0);
    // rgmii_txc for the high and low half of the next cycle: a flip-flop, because its DDR
    // register runs on tx_clk90 and samples it a quarter cycle after tx_clk, too soon for
    // any logic in front of it
    reg  [1:0]  txc_bits_reg;

    always @(posedge tx_clk) begin
        if (tx_rst || tx_1g) begin
            nibble_pos_reg <= 6'd0;
            txc_bits_reg <= 2'b10;
        end else begin
            nibble_pos_reg <= (nibble_pos_reg == (tx_10 ? 6'd49 : 6'd4)) ? 6'd0 : nibble_pos_reg + 6'd1;
            // the data DDR samples the nibble at the edge after nibble_start: that cycle
            // is the nibble's first, so rgmii_txc is high from it for half the nibble time
            if (tx_10)
                txc_bits_reg <= (nibble_pos_reg >= 6'd1 && nibble_pos_reg <= 6'd25) ? 2'b11 : 2'b00;
            else
                txc_bits_reg <= (nibble_pos_reg == 6'd1 || nibble_pos_reg == 6'd2) ? 2'b11 :
                                (nibble_pos_reg == 6'd3) ? 2'b10 : 2'b00;
        end
    end

    wire        mac_tx_ce, nib_mac_ce;
    wire [7:0]  gmii_txd;
    wire        gmii_tx_en, gmii_tx_er;
    wire [3:0]  nib_txd;
    wire        nib_tx_en, nib_tx_er;

    assign mac_tx_ce = tx_1g ? 1'b1 : nib_mac_ce;

    mii_nibble_tx u_nib_tx (
        .clk(tx_clk), .rst(tx_rst || tx_1g), .nce(nibble_start), .mac_ce(nib_mac_ce),
        .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
        .mii_txd(nib_txd), .mii_tx_en(nib_tx_en), .mii_tx_er(nib_tx_er)
    );

    wire [4:0] ddr_d1 = tx_1g ? {gmii_tx_en, gmii_txd[3:0]} : {nib_tx_en, nib_txd};
    wire [4:0] ddr_d2 = tx_1g ? {gmii_tx_en ^ gmii_tx_er, gmii_txd[7:4]}
                              : {nib_tx_en ^ nib_tx_er, nib_txd};

    rgmii_oddr #(.WIDTH(5)) u_tx_ddr (
        .clk(tx_clk), .d1(ddr_d1), .d2(ddr_d2), .q({rgmii_tx_ctl, rgmii_txd})
    );

    rgmii_oddr #(.WIDTH(1)) u_txc_ddr (
        .clk(tx_clk90), .d1(txc_bits_reg[1]), .d2(txc_bits_reg[0]), .q(rgmii_txc)
    );

    // ----------------------------------------------------------------- receive
    wire [3:0] rxd_r, rxd_f;
    wire       ctl_r, ctl_f;

    rgmii_iddr #(.WIDTH(5)) u_rx_ddr (
        .clk(rgmii_rxc), .d({rgmii_rx_ctl, rgmii_rxd}),
        .q1({ctl_r, rxd_r}), .q2({ctl_f, rxd_f})
    );

    wire rx_1g;  // cfg_speed[1] in the rgmii_rxc domain (a static setting)
    sync_bit u_sync_1g (.clk(rgmii_rxc), .in(cfg_speed[1]), .out(rx_1g));

    wire       nib_rx_ce, nib_rx_dv, nib_rx_er;
    wire [7:0] nib_rxd;

    mii_nibble_rx u_nib_rx (
        .clk(rgmii_rxc), .rst(rx_rst), .nce(1'b1),
        .mii_rxd(rxd_r), .mii_rx_dv(ctl_r), .mii_rx_er(ctl_r ^ ctl_f),
        .mac_ce(nib_rx_ce), .gmii_rxd(nib_rxd), .gmii_rx_dv(nib_rx_dv),
        .gmii_rx_er(nib_rx_er)
    );

    // ------------------------------------------------------------------- cores
    eth_mac_core u_core (
        .tx_clk(tx_clk), .tx_rst(tx_rst), .tx_ce(mac_tx_ce),
        .rx_clk(rgmii_rxc), .rx_rst(rx_rst), .rx_ce(rx_1g ? 1'b1 : nib_rx_ce),
        .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast),
        .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
        .gmii_rxd(rx_1g ? {rxd_f, rxd_r} : nib_rxd),
        .gmii_rx_dv(rx_1g ? ctl_r : nib_rx_dv),
        .gmii_rx_er(rx_1g ? (ctl_r ^ ctl_f) : nib_rx_er),
        .cfg_ifg(cfg_ifg), .cfg_max_len(cfg_max_len),
        .cnt_ev(cnt_ev), .cnt_ev_len(cnt_ev_len)
    );
endmodule
`default_nettype wire
