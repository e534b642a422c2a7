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
    output reg  [ 7:0] gmii_txd,
    output reg         gmii_tx_en,
    output reg         gmii_tx_er,
    output reg  [31:0] cnt_rx_frames,
    output reg  [31:0] cnt_tx_frames,
    output reg  [31:0] cnt_rx_dropped,
    output reg  [31:0] cnt_rx_errors
);
  localparam integer AW = $clog2(MAX_BYTES);
  localparam [AW:0] FULL = MAX_BYTES[AW:0];

  reg [7:0] mem[0:MAX_BYTES-1];

  // receive side
  reg          rx_dv_q;
  reg          rx_take;  // this frame is being stored
  reg          rx_bad;  // rx_er or overflow seen in this frame
  reg [AW:0]   wptr;
  reg [7:0]    cmd_byte;  // frame byte 22 (first payload byte after preamble + header)
  reg [15:0]   etype;

  // transmit side
  reg          tx_busy;
  reg [AW:0]   tx_len;
  reg [AW:0]   rptr;
  reg [4:0]    gap;
  reg          tx_run;  // bytes are being read out
  reg          tx_rd_valid;
  reg          tx_rd_last;
  reg [7:0]    tx_rd_data;
  reg [1:0]    tx_mode;

  wire rx_start = gmii_rx_dv && !rx_dv_q;
  wire rx_end = !gmii_rx_dv && rx_dv_q;

  always @(posedge clk) begin
    if (rx_start && !tx_busy) mem[0] <= gmii_rxd;
    else if (gmii_rx_dv && rx_take && wptr != FULL) mem[wptr[AW-1:0]] <= gmii_rxd;
  end

  always @(posedge clk) begin
    tx_rd_data <= mem[rptr[AW-1:0]];
  end

  always @(posedge clk) begin
    if (rst) begin
      rx_dv_q <= 1'b0;
      rx_take <= 1'b0;
      rx_bad <= 1'b0;
      wptr <= 0;
      etype <= 16'd0;
      cmd_byte <= 8'd0;
      tx_busy <= 1'b0;
      tx_len <= 0;
      tx_mode <= 2'd0;
      gap <= 5'd0;
      cnt_rx_frames <= 32'd0;
      cnt_rx_dropped <= 32'd0;
      cnt_rx_errors <= 32'd0;
    end else begin
      rx_dv_q <= gmii_rx_dv;
      if (rx_start) begin
        rx_take <= !tx_busy;
        rx_bad <= gmii_rx_er;
        wptr <= 1;
      end else if (gmii_rx_dv) begin
        if (gmii_rx_er) rx_bad <= 1'b1;
        if (wptr == FULL) rx_bad <= 1'b1;
        else wptr <= wptr + 1'b1;
        if (wptr == 20) etype[15:8] <= gmii_rxd;
        if (wptr == 21) etype[7:0] <= gmii_rxd;
        if (wptr == 22) cmd_byte <= gmii_rxd;
      end
      if (rx_end) begin
        rx_take <= 1'b0;
        if (!rx_take) cnt_rx_dropped <= cnt_rx_dropped + 1'b1;
        else if (rx_bad && wptr == FULL) cnt_rx_dropped <= cnt_rx_dropped + 1'b1;
        else if (rx_bad) cnt_rx_errors <= cnt_rx_errors + 1'b1;
        else begin
          cnt_rx_frames <= cnt_rx_frames + 1'b1;
          tx_busy <= 1'b1;
          tx_len <= wptr;
          gap <= 5'd12;
          tx_mode <= (etype == 16'h88B5 && (cmd_byte == 8'h01 || cmd_byte == 8'h02))
                     ? cmd_byte[1:0] : 2'd0;
        end
      end
      if (tx_busy && gap != 0) gap <= gap - 1'b1;
      if (tx_busy && tx_rd_valid && tx_rd_last) tx_busy <= 1'b0;
    end
  end

  // read-out: one byte per cycle once the gap has passed
  always @(posedge clk) begin
    if (rst) begin
      tx_run <= 1'b0;
      rptr <= 0;
      tx_rd_valid <= 1'b0;
      tx_rd_last <= 1'b0;
      gmii_tx_en <= 1'b0;
      gmii_tx_er <= 1'b0;
      gmii_txd <= 8'd0;
      cnt_tx_frames <= 32'd0;
    end else begin
      tx_rd_valid <= 1'b0;
      tx_rd_last <= 1'b0;
      if (tx_busy && gap == 5'd1 && !tx_run) begin
        tx_run <= 1'b1;
        rptr <= 0;
      end else if (tx_run) begin
        tx_rd_valid <= 1'b1;
        tx_rd_last <= (rptr + 1'b1 == tx_len);
        if (rptr + 1'b1 == tx_len) tx_run <= 1'b0;
        rptr <= rptr + 1'b1;
      end
      gmii_tx_en <= tx_rd_valid;
      gmii_tx_er <= tx_rd_valid && tx_mode == 2'd2 && rptr == 30;
      gmii_txd <= (tx_rd_valid && tx_rd_last && tx_mode == 2'd1) ? ~tx_rd_data : tx_rd_data;
      if (tx_rd_valid && tx_rd_last) cnt_tx_frames <= cnt_tx_frames + 1'b1;
    end
  end
endmodule
`default_nettype wire
