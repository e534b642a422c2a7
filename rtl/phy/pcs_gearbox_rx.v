`default_nettype none
// pcs_gearbox_rx: a 32-bit transceiver word each cycle to 66-bit blocks (the counterpart
// of pcs_gearbox_tx), with the bit slip block lock asks for.
//
// Appends each rx_data word (rx_data[0] first) to the bits held and sends a block
// (m_valid) whenever 66 are there: 16 blocks in 33 cycles. rx_slip drops the oldest bit
// held, so the block boundary moves one bit later.
//
// Ports: clk, rst (sync, active high); rx_data[31:0]; rx_slip (one-cycle strobe);
// m_block[65:0] ([0] received first), m_valid (registered).
// Parameters: none. Latency: the last bit of a block in rx_data at edge k is in m_block
// after edge k+1.
module pcs_gearbox_rx (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] rx_data,
    input  wire        rx_slip,
    output wire [65:0] m_block,
    output wire        m_valid
);
    reg  [96:0] buf_reg;   // bits held, the oldest in [0]
    reg  [6:0]  cnt_reg;   // how many (0..65)
    reg  [65:0] m_block_reg;
    reg         m_valid_reg;

    assign m_block = m_block_reg;
    assign m_valid = m_valid_reg;

    wire [96:0] merged = buf_reg | ({65'd0, rx_data} << cnt_reg);
    wire        slip = rx_slip && cnt_reg != 7'd0;
    wire [96:0] held = slip ? merged >> 1 : merged;
    wire [6:0]  held_cnt = cnt_reg + 7'd32 - {6'd0, slip};
    wire        full = (held_cnt >= 7'd66);

    always @(posedge clk) begin
        m_valid_reg <= full;
        if (full) m_block_reg <= held[65:0];
        buf_reg <= full ? held >> 66 : held;
        cnt_reg <= full ? held_cnt - 7'd66 : held_cnt;
        if (rst) begin
            buf_reg <= 97'd0;
            cnt_reg <= 7'd0;
            m_valid_reg <= 1'b0;
        end
    end
endmodule
`default_nettype wire
