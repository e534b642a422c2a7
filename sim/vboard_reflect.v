`default_nettype none
// vboard_reflect: test fixture for the virtual-board harness (not part of the stack).
//
// What it does: stores each frame received on GMII (preamble, SFD, data and FCS, exactly
// as it arrived) and sends it back unchanged on GMII after a 12-cycle gap. It lets the
// C++ harness and its TAP bridge be tested without the stack: a frame written to the TAP
// comes back from the TAP byte for byte. Frames of EtherType 0x88B5 (IEEE local
// experimental) whose first payload byte is a command are sent back damaged instead:
//   0x01: the last FCS byte inverted (the harness must drop it as a bad FCS);
//   0x02: gmii_tx_er asserted in the middle of the frame (the harness must drop it as
//         aborted).
// A frame that arrives while one is being sent back, a frame with gmii_rx_er and a
// frame longer than MAX_BYTES on the wire are dropped and counted.
//
// Interfaces: the virtual-board top's ports (clk, rst, tick_1ms, GMII RX/TX, cfg_*);
// the cfg_* inputs and tick_1ms are accepted and ignored. Counters cnt_rx_frames,
// cnt_tx_frames, cnt_rx_dropped (busy or oversized), cnt_rx_errors (gmii_rx_er).
//
// Latency: the first preamble byte of the reflected frame leaves 13 cycles after the
// last byte of the received frame.
//
// Parameters: MAX_BYTES (buffer size in bytes including preamble/SFD/FCS, power of two).
module vboard_reflect #(
    parameter integer MAX_BYTES = 16384
) (
    input  wire        clk,
    input  wire        rst,
    /* verilator lint_off UNUSEDSIGNAL */
    // The fixture has no timers and no addresses: these exist only so that it has the
    // same ports as the real virtual-board top.
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
    output wire [31:0] cnt_rx_frames,
    output wire [31:0] cnt_tx_frames,
    output wire [31:0] cnt_rx_dropped,
    output wire [31:0] cnt_rx_errors
);
  localparam integer AW = $clog2(MAX_BYTES);
  localparam [AW:0] FULL = MAX_BYTES[AW:0];

  reg [7:0] frame_mem[0:MAX_BYTES-1];

  reg [ 7:0] gmii_txd_reg;
  reg        gmii_tx_en_reg, gmii_tx_er_reg;
  reg [31:0] cnt_rx_frames_reg, cnt_tx_frames_reg, cnt_rx_dropped_reg, cnt_rx_errors_reg;
  assign gmii_txd = gmii_txd_reg;
  assign gmii_tx_en = gmii_tx_en_reg;
  assign gmii_tx_er = gmii_tx_er_reg;
  assign cnt_rx_frames = cnt_rx_frames_reg;
  assign cnt_tx_frames = cnt_tx_frames_reg;
  assign cnt_rx_dropped = cnt_rx_dropped_reg;
  assign cnt_rx_errors = cnt_rx_errors_reg;

  // receive side
  reg          rx_dv_prev_reg;
  reg          rx_take_reg;  // this frame is being stored
  reg          rx_bad_reg;  // rx_er or overflow seen in this frame
  reg [AW:0]   wptr_reg;
  reg [7:0]    cmd_byte_reg;  // frame byte 22 (first payload byte after preamble + header)
  reg [15:0]   etype_reg;

  // transmit side
  reg          tx_busy_reg;
  reg [AW:0]   tx_len_reg;
  reg [AW:0]   rptr_reg;
  reg [4:0]    gap_reg;
  reg          tx_run_reg;  // bytes are being read out
  reg          tx_rd_valid_reg;
  reg          tx_rd_last_reg;
  reg [7:0]    tx_rd_data_reg;
  reg [1:0]    tx_mode_reg;

  wire rx_start = gmii_rx_dv && !rx_dv_prev_reg;
  wire rx_end = !gmii_rx_dv && rx_dv_prev_reg;

  always @(posedge clk) begin
    if (rx_start && !tx_busy_reg) frame_mem[0] <= gmii_rxd;
    else if (gmii_rx_dv && rx_take_reg && wptr_reg != FULL) frame_mem[wptr_reg[AW-1:0]] <= gmii_rxd;
  end

  always @(posedge clk) begin
    tx_rd_data_reg <= frame_mem[rptr_reg[AW-1:0]];
  end

  always @(posedge clk) begin
    if (rst) begin
      rx_dv_prev_reg <= 1'b0;
      rx_take_reg <= 1'b0;
      rx_bad_reg <= 1'b0;
      wptr_reg <= 0;
      etype_reg <= 16'd0;
      cmd_byte_reg <= 8'd0;
      tx_busy_reg <= 1'b0;
      tx_len_reg <= 0;
      tx_mode_reg <= 2'd0;
      gap_reg <= 5'd0;
      cnt_rx_frames_reg <= 32'd0;
      cnt_rx_dropped_reg <= 32'd0;
      cnt_rx_errors_reg <= 32'd0;
    end else begin
      rx_dv_prev_reg <= gmii_rx_dv;
      if (rx_start) begin
        rx_take_reg <= !tx_busy_reg;
        rx_bad_reg <= gmii_rx_er;
        wptr_reg <= 1;
      end else if (gmii_rx_dv) begin
        if (gmii_rx_er) rx_bad_reg <= 1'b1;
        if (wptr_reg == FULL) rx_bad_reg <= 1'b1;
        else wptr_reg <= wptr_reg + 1'b1;
        if (wptr_reg == 20) etype_reg[15:8] <= gmii_rxd;
        if (wptr_reg == 21) etype_reg[7:0] <= gmii_rxd;
        if (wptr_reg == 22) cmd_byte_reg <= gmii_rxd;
      end
      if (rx_end) begin
        rx_take_reg <= 1'b0;
        if (!rx_take_reg) cnt_rx_dropped_reg <= cnt_rx_dropped_reg + 1'b1;
        else if (rx_bad_reg && wptr_reg == FULL) cnt_rx_dropped_reg <= cnt_rx_dropped_reg + 1'b1;
        else if (rx_bad_reg) cnt_rx_errors_reg <= cnt_rx_errors_reg + 1'b1;
        else begin
          cnt_rx_frames_reg <= cnt_rx_frames_reg + 1'b1;
          tx_busy_reg <= 1'b1;
          tx_len_reg <= wptr_reg;
          gap_reg <= 5'd12;
          tx_mode_reg <= (etype_reg == 16'h88B5 && (cmd_byte_reg == 8'h01 || cmd_byte_reg == 8'h02))
                     ? cmd_byte_reg[1:0] : 2'd0;
        end
      end
      if (tx_busy_reg && gap_reg != 0) gap_reg <= gap_reg - 1'b1;
      if (tx_busy_reg && tx_rd_valid_reg && tx_rd_last_reg) tx_busy_reg <= 1'b0;
    end
  end

  // read-out: one byte per cycle once the gap_reg has passed
  always @(posedge clk) begin
    if (rst) begin
      tx_run_reg <= 1'b0;
      rptr_reg <= 0;
      tx_rd_valid_reg <= 1'b0;
      tx_rd_last_reg <= 1'b0;
      gmii_tx_en_reg <= 1'b0;
      gmii_tx_er_reg <= 1'b0;
      gmii_txd_reg <= 8'd0;
      cnt_tx_frames_reg <= 32'd0;
    end else begin
      tx_rd_valid_reg <= 1'b0;
      tx_rd_last_reg <= 1'b0;
      if (tx_busy_reg && gap_reg == 5'd1 && !tx_run_reg) begin
        tx_run_reg <= 1'b1;
        rptr_reg <= 0;
      end else if (tx_run_reg) begin
        tx_rd_valid_reg <= 1'b1;
        tx_rd_last_reg <= (rptr_reg + 1'b1 == tx_len_reg);
        if (rptr_reg + 1'b1 == tx_len_reg) tx_run_reg <= 1'b0;
        rptr_reg <= rptr_reg + 1'b1;
      end
      gmii_tx_en_reg <= tx_rd_valid_reg;
      gmii_tx_er_reg <= tx_rd_valid_reg && tx_mode_reg == 2'd2 && rptr_reg == 30;
      gmii_txd_reg <= (tx_rd_valid_reg && tx_rd_last_reg && tx_mode_reg == 2'd1) ? ~tx_rd_data_reg : tx_rd_data_reg;
      if (tx_rd_valid_reg && tx_rd_last_reg) cnt_tx_frames_reg <= cnt_tx_frames_reg + 1'b1;
    end
  end
endmodule
`default_nettype wire
