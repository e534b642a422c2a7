`default_nettype none
// link_deskew: bonds LANES lane receivers into one link: deskew by the alignment marker,
// link up and down.
//
// Each lane gives one decoded symbol per cycle (s_*, from link_lane_rx, all lanes on one
// clock); s_valid[i] is lane i's lock. The transmitter sends the alignment marker /A/
// (K28.3) on all lanes in the same cycle (link_tx's ordered set); lanes arrive up to
// SKEW_MAX symbols apart. Each lane's symbols go through a delay line (a 16-word memory per
// lane, written every cycle) read at a per-lane delay.
// States: DOWN until every lane is locked; then HUNT: the first /A/ on any lane starts an
// alignment, and each lane's /A/ (a K28.3 with no error) is timed from it; when every lane
// has shown its /A/ within SKEW_MAX cycles of the first, lane i's delay becomes the cycles
// from its /A/ to the last lane's, and the link is UP. An alignment still missing a lane's
// /A/ SKEW_MAX + 1 cycles after its first is refused (cnt_ev[3]; /A/s in that cycle are
// ignored) and the next /A/ starts another. UP: one bonded word every cycle on m_*
// (m_valid), starting with the word after the alignment marker. The link goes DOWN when a
// lane loses its lock (cnt_ev[1]: bit errors beyond the lane's limit, a slip, a lost
// signal) or when a marker reaches the output on some lanes while another lane shows
// neither a marker nor a code error (cnt_ev[2]: the lanes moved against each other; that
// word is not given). Words are given only while
// UP; the link comes back by itself: DOWN, HUNT, UP again once the lanes lock.
//
// Ports: clk, rst (sync, active high); s_data[8*LANES-1:0], s_k, s_err, s_valid
// [LANES-1:0] (lane i = byte i; s_err: code violation or disparity error);
// m_data[8*LANES-1:0], m_k, m_err [LANES-1:0], m_valid; up (level: the link is UP);
// cnt_ev[3:0] strobes: [0] link up, [1] link down: a lane lost its lock, [2] link down:
// markers not on all lanes at once, [3] an alignment refused: skew beyond SKEW_MAX.
// Parameters (tested values): LANES 1..8 (1, 4, 8 tested); SKEW_MAX 0..14 (8 and 3
// tested: every skew 0..SKEW_MAX and SKEW_MAX + 1).
// Latency: 2 cycles plus the lane's delay (a symbol taken at edge k is on m_* after edge
// k+1+delay); the latest lane has delay 0.
module link_deskew #(
    parameter LANES = 4,
    parameter SKEW_MAX = 8
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [8*LANES-1:0]   s_data,
    input  wire [LANES-1:0]     s_k,
    input  wire [LANES-1:0]     s_err,
    input  wire [LANES-1:0]     s_valid,
    output wire [8*LANES-1:0]   m_data,
    output wire [LANES-1:0]     m_k,
    output wire [LANES-1:0]     m_err,
    output wire                 m_valid,
    output wire                 up,
    output wire [3:0]           cnt_ev
);
    generate
        if (LANES < 1 || LANES > 8) begin : g_check_lanes
            link_deskew_LANES_must_be_1_to_8 u_error ();  // unsupported parameter (no such module)
        end
        if (SKEW_MAX < 0 || SKEW_MAX > 14) begin : g_check_skew_max
            link_deskew_SKEW_MAX_must_be_0_to_14 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam [7:0] K28_3 = 8'h7C;
    localparam [3:0] AGE_LAST = SKEW_MAX;
    localparam [1:0] STATE_DOWN = 2'd0, STATE_HUNT = 2'd1, STATE_UP = 2'd2;

    reg  [1:0]         state_reg, state_next;
    reg  [LANES-1:0]   seen_reg, seen_next;     // lane showed its /A/ in this alignment
    reg  [4*LANES-1:0] age_reg, age_next;       // cycles since that /A/
    reg  [4*LANES-1:0] delay_reg, delay_next;   // per-lane delay while UP
    reg  [3:0]         wr_ptr_reg;
    reg                valid_reg;
    reg                up_ev_reg, loss_ev_reg, skew_ev_reg;
    reg                refuse;

    wire               all_lock = &s_valid;
    wire [LANES-1:0]   is_marker;               // /A/ on the input
    wire [LANES-1:0]   out_marker;              // /A/ on the delayed output
    wire [LANES-1:0]   out_err;                 // a code error on the delayed output
    // a marker on some lanes, and a lane with neither a marker nor an error (a lane whose
    // marker was hit by a bit error is no evidence of misalignment)
    wire               misalign = valid_reg && |out_marker && !(&(out_marker | out_err));

    genvar g;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : g_lane
            reg  [9:0] dly_mem[0:15];
            reg  [9:0] out_reg;  // {err, k, data}, delayed
            wire [3:0] rd_addr = wr_ptr_reg - 4'd1 - delay_reg[4*g +: 4];
            assign is_marker[g] = s_valid[g] && s_k[g] && !s_err[g] && s_data[8*g +: 8] == K28_3;
            assign out_marker[g] = out_reg[8] && !out_reg[9] && out_reg[7:0] == K28_3;
            assign out_err[g] = out_reg[9];
            always @(posedge clk) begin
                dly_mem[wr_ptr_reg] <= {s_err[g], s_k[g], s_data[8*g +: 8]};
                out_reg <= dly_mem[rd_addr];
            end
            assign m_data[8*g +: 8] = out_reg[7:0];
            assign m_k[g] = out_reg[8];
            assign m_err[g] = out_reg[9];
        end
    endgenerate

    integer i;
    always @* begin
        state_next = state_reg;
        seen_next = seen_reg;
        age_next = age_reg;
        delay_next = delay_reg;
        refuse = 1'b0;
        case (state_reg)
            STATE_DOWN: begin
                seen_next = {LANES{1'b0}};
                if (all_lock) state_next = STATE_HUNT;
            end
            STATE_HUNT: begin
                for (i = 0; i < LANES; i = i + 1) begin
                    if (seen_reg[i]) begin
                        age_next[4*i +: 4] = age_reg[4*i +: 4] + 4'd1;
                        if (age_reg[4*i +: 4] == AGE_LAST) refuse = 1'b1;
                    end else if (is_marker[i]) begin
                        seen_next[i] = 1'b1;
                        age_next[4*i +: 4] = 4'd0;
                    end
                end
                if (!all_lock) begin
                    state_next = STATE_DOWN;
                end else if (refuse) begin
                    seen_next = {LANES{1'b0}};
                end else if (&seen_next) begin
                    delay_next = age_next;
                    state_next = STATE_UP;
                end
            end
            default: begin  // STATE_UP
                if (!all_lock || misalign) begin
                    state_next = STATE_DOWN;
                end
            end
        endcase
    end

    always @(posedge clk) begin
        state_reg <= state_next;
        seen_reg <= seen_next;
        age_reg <= age_next;
        delay_reg <= delay_next;
        wr_ptr_reg <= wr_ptr_reg + 4'd1;
        // the delayed words are right from the cycle after the delays were set
        valid_reg <= (state_reg == STATE_UP) && (state_next == STATE_UP);
        up_ev_reg <= (state_reg == STATE_HUNT) && (state_next == STATE_UP);
        loss_ev_reg <= (state_reg == STATE_UP) && !all_lock;
        skew_ev_reg <= (state_reg == STATE_HUNT) && all_lock && refuse;
        if (rst) begin
            state_reg <= STATE_DOWN;
            seen_reg <= {LANES{1'b0}};
            age_reg <= {(4 * LANES) {1'b0}};
            delay_reg <= {(4 * LANES) {1'b0}};
            wr_ptr_reg <= 4'd0;
            valid_reg <= 1'b0;
            up_ev_reg <= 1'b0;
            loss_ev_reg <= 1'b0;
            skew_ev_reg <= 1'b0;
        end
    end

    // a misaligned word is not given; its strobe is in the same cycle
    assign m_valid = valid_reg && !misalign;
    assign up = (state_reg == STATE_UP);
    assign cnt_ev = {skew_ev_reg, misalign && all_lock && state_reg == STATE_UP,
                     loss_ev_reg, up_ev_reg};
endmodule
`default_nettype wire
