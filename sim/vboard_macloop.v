`default_nettype none
// vboard_macloop: test fixture for the virtual-board harness (not part of the stack).
//
// What it does: the real GMII MAC (eth_mac_gmii) with its receive stream looped back to
// its transmit stream through a frame FIFO (axis_fifo, frame mode, bad frames dropped,
// frames that do not fit dropped). Every good frame received goes back out unchanged,
// through the MAC's own FCS check, padding, FCS generation and inter-frame gap, so the
// harness and the MAC are tested together over the TAP without the stack. Frames of
// EtherType 0x88B5 whose first payload byte is 0x02 are sent back with tuser on their
// last beat: the MAC aborts them (inverted FCS and gmii_tx_er) and the harness must drop
// them.
//
// Interfaces: the virtual-board top's ports (clk, rst, tick_1ms, GMII RX/TX, cfg_*);
// cfg_* and tick_1ms are accepted and ignored. Counters, kept here for the harness to
// print: the MAC's (cnt_mac_*, counted from its event strobes) and the FIFO's frames
// dropped as bad or for lack of room (cnt_fifo_drop_bad, cnt_fifo_drop_full).
//
// Latency: the last FCS byte in to the first preamble byte out is the MAC's receive
// latency (3 cycles) + the FIFO's (2) + 1, about 6 cycles.
//
// Parameters: FIFO_DEPTH (bytes, a power of two; holds a whole frame, 16384 for jumbo).
module vboard_macloop #(
    parameter integer FIFO_DEPTH = 16384
) (
    input  wire        clk,
    input  wire        rst,
    /* verilator lint_off UNUSEDSIGNAL */
    // No timers and no addresses here: these exist only so that the fixture has the same
    // ports as the real virtual-board top.
    input  wire        tick_1ms,
    input  wire [47:0] cfg_mac,
    input  wire [31:0] cfg_ip,
    input  wire [31:0] cfg_netmask,
    input  wire [31:0] cfg_gateway,
    input  wire [15:0] cfg_udp_echo_port,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [ 7:0] gmii_rxd,
    input  wire        gmii_rx_dv,
    input  wire        gmii_rx_er,
    output wire [ 7:0] gmii_txd,
    output wire        gmii_tx_en,
    output wire        gmii_tx_er,
    output wire [31:0] cnt_mac_tx_frames,
    output wire [31:0] cnt_mac_tx_bytes,
    output wire [31:0] cnt_mac_tx_underflow,
    output wire [31:0] cnt_mac_tx_abort,
    output wire [31:0] cnt_mac_rx_frames,
    output wire [31:0] cnt_mac_rx_bytes,
    output wire [31:0] cnt_mac_rx_bad_fcs,
    output wire [31:0] cnt_mac_rx_runt,
    output wire [31:0] cnt_mac_rx_oversize,
    output wire [31:0] cnt_mac_rx_er,
    output wire [31:0] cnt_fifo_drop_bad,
    output wire [31:0] cnt_fifo_drop_full
);
  // the counters (harness output ports), one flip-flop each
  reg [31:0] cnt_mac_tx_frames_reg;
  reg [31:0] cnt_mac_tx_bytes_reg;
  reg [31:0] cnt_mac_tx_underflow_reg;
  reg [31:0] cnt_mac_tx_abort_reg;
  reg [31:0] cnt_mac_rx_frames_reg;
  reg [31:0] cnt_mac_rx_bytes_reg;
  reg [31:0] cnt_mac_rx_bad_fcs_reg;
  reg [31:0] cnt_mac_rx_runt_reg;
  reg [31:0] cnt_mac_rx_oversize_reg;
  reg [31:0] cnt_mac_rx_er_reg;
  reg [31:0] cnt_fifo_drop_bad_reg;
  reg [31:0] cnt_fifo_drop_full_reg;
  assign cnt_mac_tx_frames = cnt_mac_tx_frames_reg;
  assign cnt_mac_tx_bytes = cnt_mac_tx_bytes_reg;
  assign cnt_mac_tx_underflow = cnt_mac_tx_underflow_reg;
  assign cnt_mac_tx_abort = cnt_mac_tx_abort_reg;
  assign cnt_mac_rx_frames = cnt_mac_rx_frames_reg;
  assign cnt_mac_rx_bytes = cnt_mac_rx_bytes_reg;
  assign cnt_mac_rx_bad_fcs = cnt_mac_rx_bad_fcs_reg;
  assign cnt_mac_rx_runt = cnt_mac_rx_runt_reg;
  assign cnt_mac_rx_oversize = cnt_mac_rx_oversize_reg;
  assign cnt_mac_rx_er = cnt_mac_rx_er_reg;
  assign cnt_fifo_drop_bad = cnt_fifo_drop_bad_reg;
  assign cnt_fifo_drop_full = cnt_fifo_drop_full_reg;

  wire [7:0] rx_tdata;
  wire       rx_tvalid, rx_tlast, rx_tuser;
  wire [7:0] tx_tdata;
  wire       tx_tvalid, tx_tready, tx_tlast, tx_tuser;
  wire       st_overflow, st_drop_bad, st_drop_full, st_good;
  wire [9:0]  mac_ev;      // the MAC's event strobes (one clock here)
  wire [31:0] mac_ev_len;

  eth_mac_gmii u_mac (
      .tx_clk(clk), .tx_rst(rst), .rx_clk(clk), .rx_rst(rst),
      .s_axis_tdata(tx_tdata), .s_axis_tvalid(tx_tvalid), .s_axis_tready(tx_tready),
      .s_axis_tlast(tx_tlast), .s_axis_tuser(tx_tuser),
      .m_axis_tdata(rx_tdata), .m_axis_tvalid(rx_tvalid), .m_axis_tlast(rx_tlast),
      .m_axis_tuser(rx_tuser),
      .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
      .gmii_rxd(gmii_rxd), .gmii_rx_dv(gmii_rx_dv), .gmii_rx_er(gmii_rx_er),
      .cfg_ifg(8'd12), .cfg_max_len(16'd9018),
      .cnt_ev(mac_ev), .cnt_ev_len(mac_ev_len)
  );

  // the MAC's counters, from its event strobes (bit k of cnt_ev is cnt_mac_*'s k-th)
  always @(posedge clk) begin
    if (rst) begin
      cnt_mac_tx_frames_reg    <= 32'd0;
      cnt_mac_tx_bytes_reg     <= 32'd0;
      cnt_mac_tx_underflow_reg <= 32'd0;
      cnt_mac_tx_abort_reg     <= 32'd0;
      cnt_mac_rx_frames_reg    <= 32'd0;
      cnt_mac_rx_bytes_reg     <= 32'd0;
      cnt_mac_rx_bad_fcs_reg   <= 32'd0;
      cnt_mac_rx_runt_reg      <= 32'd0;
      cnt_mac_rx_oversize_reg  <= 32'd0;
      cnt_mac_rx_er_reg        <= 32'd0;
    end else begin
      cnt_mac_tx_frames_reg    <= cnt_mac_tx_frames_reg + {31'd0, mac_ev[0]};
      cnt_mac_tx_bytes_reg     <= cnt_mac_tx_bytes_reg + (mac_ev[1] ? {16'd0, mac_ev_len[15:0]} : 32'd0);
      cnt_mac_tx_underflow_reg <= cnt_mac_tx_underflow_reg + {31'd0, mac_ev[2]};
      cnt_mac_tx_abort_reg     <= cnt_mac_tx_abort_reg + {31'd0, mac_ev[3]};
      cnt_mac_rx_frames_reg    <= cnt_mac_rx_frames_reg + {31'd0, mac_ev[4]};
      cnt_mac_rx_bytes_reg     <= cnt_mac_rx_bytes_reg + (mac_ev[5] ? {16'd0, mac_ev_len[31:16]} : 32'd0);
      cnt_mac_rx_bad_fcs_reg   <= cnt_mac_rx_bad_fcs_reg + {31'd0, mac_ev[6]};
      cnt_mac_rx_runt_reg      <= cnt_mac_rx_runt_reg + {31'd0, mac_ev[7]};
      cnt_mac_rx_oversize_reg  <= cnt_mac_rx_oversize_reg + {31'd0, mac_ev[8]};
      cnt_mac_rx_er_reg        <= cnt_mac_rx_er_reg + {31'd0, mac_ev[9]};
    end
  end

  // Mark frames of EtherType 0x88B5 with command byte 0x02 for abort: byte_idx_reg is the
  // byte index of the frame on the receive stream (0 = first destination MAC byte).
  reg  [13:0] byte_idx_reg;
  reg  [15:0] etype_reg;
  reg         abort_reg;
  wire        mark = abort_reg ||
                     (byte_idx_reg == 14'd14 && etype_reg == 16'h88B5 && rx_tdata == 8'h02);
  always @(posedge clk) begin
    if (rst) begin
      byte_idx_reg <= 14'd0;
      etype_reg <= 16'd0;
      abort_reg <= 1'b0;
    end else if (rx_tvalid) begin
      if (rx_tlast) begin
        byte_idx_reg <= 14'd0;
        abort_reg <= 1'b0;
      end else begin
        if (byte_idx_reg != 14'h3FFF) byte_idx_reg <= byte_idx_reg + 1'b1;
        if (mark) abort_reg <= 1'b1;
      end
      if (byte_idx_reg == 14'd12) etype_reg[15:8] <= rx_tdata;
      if (byte_idx_reg == 14'd13) etype_reg[7:0] <= rx_tdata;
    end
  end

  // The FIFO drops frames the MAC marked bad (tuser) itself, so the abort mark rides on
  // a separate stream bit: it is carried in tkeep (unused on an 8-bit stream otherwise).
  wire tx_tkeep;
  /* verilator lint_off PINCONNECTEMPTY */
  axis_fifo #(
      .DATA_W(8), .KEEP_W(1), .DEPTH(FIFO_DEPTH), .FRAME_FIFO(1), .DROP_BAD_FRAME(1),
      .DROP_WHEN_FULL(1)
  ) u_fifo (
      .clk(clk), .rst(rst),
      .s_axis_tdata(rx_tdata), .s_axis_tkeep(~(mark && rx_tlast)), .s_axis_tvalid(rx_tvalid),
      .s_axis_tready(), .s_axis_tlast(rx_tlast), .s_axis_tuser(rx_tuser),
      .m_axis_tdata(tx_tdata), .m_axis_tkeep(tx_tkeep), .m_axis_tvalid(tx_tvalid),
      .m_axis_tready(tx_tready), .m_axis_tlast(tx_tlast), .m_axis_tuser(),
      .status_overflow(st_overflow), .status_drop_bad(st_drop_bad),
      .status_drop_full(st_drop_full), .status_good_frame(st_good)
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign tx_tuser = tx_tlast && !tx_tkeep;

  always @(posedge clk) begin
    if (rst) begin
      cnt_fifo_drop_bad_reg <= 32'd0;
      cnt_fifo_drop_full_reg <= 32'd0;
    end else begin
      if (st_drop_bad) cnt_fifo_drop_bad_reg <= cnt_fifo_drop_bad_reg + 1'b1;
      if (st_drop_full) cnt_fifo_drop_full_reg <= cnt_fifo_drop_full_reg + 1'b1;
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = st_overflow | st_good;
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
