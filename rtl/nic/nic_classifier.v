`default_nettype none
// nic_classifier: match-action classifier on the receive path, between the MAC (frames
// without FCS, tuser = bad on the last beat) and the stack. Each frame is matched against
// RULES rules, each a value and a mask over the frame's first K bytes, and steered to the
// host (the stack), to one of ACCEL_PORTS accelerator ports, to both, or to nowhere.
//
// Rules: rule r matches a frame when it is enabled and every byte i < K with a non-zero
//   mask byte satisfies (frame[i] ^ value[i]) & mask[i] == 0. A frame shorter than K bytes
//   is decided at its last byte: a rule matches it only if every byte the rule masks lies
//   inside the frame (a mask byte over a missing byte never matches). The lowest matching
//   rule index wins; no match takes the default action.
// Action word (a rule's control word, and the default action; bit 0 unused in the latter):
//   [0] enable, [2:1] action (0 host, 1 accelerator, 2 drop; 3 refused), [3] copy to
//   host, [7:4] accelerator port (refused when >= ACCEL_PORTS and the action is 1).
//   Destinations: host -> host; accelerator n -> port n, plus the host with copy;
//   drop -> nowhere, or the host with copy.
// Register port (docs/conventions.md "Register bus", slave side, reg_addr = word offset in
//   the window, low 8 bits decoded): answered 1 cycle after reg_req.
//   0x00 + w  shadow value word w (w < ceil(K/4)); frame byte 4w in bits [31:24] (the
//             frame's bytes read as big-endian words, as a header dump shows them)
//   0x10 + w  shadow mask word w, same layout
//   0x20      default action (read/write)
//   0x21      info (read only): [7:0] RULES, [15:8] K, [19:16] ACCEL_PORTS, [27:24] KEEP_W
//   0x40 + r  rule r control word: a write commits the shadow value and mask and the
//             written action word into rule r in one cycle (refused actions: reg_err, no
//             change); a read gives rule r's action word
//   0x80 + r  write (any data): load rule r's value and mask into the shadow (read back)
//   Anything else, and reads of 0x80 + r, answer reg_err.
//   A frame is compared with the rule set in force in one cycle (its compare cycle): it
//   sees either the old or the new version of a rule, never part of one. After reset
//   every rule is disabled and the default action is "host" (values, masks not reset).
// Streams (AXI4-Stream, docs/conventions.md): s_axis_* frames in; m_host_axis_* to the
//   stack; m_acc_axis_* ACCEL_PORTS outputs flattened (port n in bits [n*DATA_W +: DATA_W],
//   [n*KEEP_W +: KEEP_W], bit n). A frame sent to two outputs advances when both take the
//   beat (backpressure from either stalls it, and the input when the buffer fills;
//   nothing is dropped for backpressure; with HOST_CUT the host has its own buffer). A bad frame (tuser) is
//   steered like any other and leaves with tuser on its last beat; a dropped bad frame
//   is counted as both.
// cnt_ev (strobes, one cycle per event, in the cycle of the decision / of the last beat):
//   [0] default action taken, [1] frame dropped (no destination), [2] bad frame (tuser
//   on its last beat at the input), [3 + r] rule r hit (one-hot), r = 0..RULES-1.
// Latency (every output ready): a frame is decided from its deciding beat (the beat
//   holding byte K-1, or its last beat if the frame is shorter); index D in the frame
//   (D = ceil(K/KEEP_W) - 1 for a frame of at least K bytes). The decision reaches the
//   output stage 5 cycles after the deciding beat, so with the classifier idle a frame
//   arriving without gaps leaves beat by beat D + 6 cycles after it came (8 bits, K = 64:
//   69 cycles; 64 bits, K = 64: 13). Frames back to back keep that offset, never more:
//   one beat per cycle in and out, the input never stalls (checked by the unit test).
// HOST_CUT = 1 (cut-through to the host): every frame also goes straight to the host
//   output, through a stream_fifo of its own, 4 cycles after it came; only its last beat
//   waits for the decision (leaving no earlier than the deciding beat + 6), and it leaves
//   with tuser set when the frame is not for the host, so the stack drops it as bad.
//   Host frames then cost max(4, D + 7 - N) cycles (N beats in the frame) instead of
//   D + 6; frames for the accelerators and dropped frames reach the host as bad frames.
//   HOST_CUT = 0: the host is served like an accelerator port (nothing for others).
// Buffer: a stream_fifo of FIFO_DEPTH beats (the smallest power of two >= ceil(K/KEEP_W)
//   + 4) holds a frame's first beats until its decision; decisions queue in a second
//   stream_fifo of twice that depth (never full: each queued decision has a beat stored).
// Parameters (checked): DATA_W 8 or 64 (both tested), KEEP_W = DATA_W/8, RULES 1..64
//   (tested 16, 6, 3, 1), K 1..64 (tested 64, 20, 1), ACCEL_PORTS 1..4 (tested 2, 3,
//   1), HOST_CUT 0 or 1 (both tested).
module nic_classifier #(
    parameter integer DATA_W      = 8,
    parameter integer KEEP_W      = DATA_W / 8,
    parameter integer RULES       = 16,
    parameter integer K           = 64,
    parameter integer ACCEL_PORTS = 2,
    parameter integer HOST_CUT    = 0
) (
    input  wire                          clk,
    input  wire                          rst,

    input  wire [DATA_W-1:0]             s_axis_tdata,
    input  wire [KEEP_W-1:0]             s_axis_tkeep,
    input  wire                          s_axis_tvalid,
    output wire                          s_axis_tready,
    input  wire                          s_axis_tlast,
    input  wire                          s_axis_tuser,

    output wire [DATA_W-1:0]             m_host_axis_tdata,
    output wire [KEEP_W-1:0]             m_host_axis_tkeep,
    output wire                          m_host_axis_tvalid,
    input  wire                          m_host_axis_tready,
    output wire                          m_host_axis_tlast,
    output wire                          m_host_axis_tuser,

    output wire [ACCEL_PORTS*DATA_W-1:0] m_acc_axis_tdata,
    output wire [ACCEL_PORTS*KEEP_W-1:0] m_acc_axis_tkeep,
    output wire [ACCEL_PORTS-1:0]        m_acc_axis_tvalid,
    input  wire [ACCEL_PORTS-1:0]        m_acc_axis_tready,
    output wire [ACCEL_PORTS-1:0]        m_acc_axis_tlast,
    output wire [ACCEL_PORTS-1:0]        m_acc_axis_tuser,

    input  wire                          reg_req,
    input  wire                          reg_we,
    input  wire [31:0]                   reg_addr,
    input  wire [31:0]                   reg_wdata,
    output wire                          reg_ack,
    output wire                          reg_err,
    output wire [31:0]                   reg_rdata,

    output wire [3+RULES-1:0]            cnt_ev
);

    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            nic_classifier_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            nic_classifier_KEEP_W_must_be_DATA_W_over_8 u_error ();  // unsupported parameter
        end
        if (RULES < 1 || RULES > 64) begin : g_check_rules
            nic_classifier_RULES_must_be_1_to_64 u_error ();  // unsupported parameter
        end
        if (K < 1 || K > 64) begin : g_check_k
            nic_classifier_K_must_be_1_to_64 u_error ();  // unsupported parameter
        end
        if (ACCEL_PORTS < 1 || ACCEL_PORTS > 4) begin : g_check_accel_ports
            nic_classifier_ACCEL_PORTS_must_be_1_to_4 u_error ();  // unsupported parameter
        end
        if (HOST_CUT != 0 && HOST_CUT != 1) begin : g_check_host_cut
            nic_classifier_HOST_CUT_must_be_0_or_1 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam integer NBEATS = (K + KEEP_W - 1) / KEEP_W;  // beats holding the K bytes
    localparam integer KWORDS = (K + 3) / 4;                 // 32-bit words of a K-byte field
    localparam integer NOUT   = ACCEL_PORTS + 1;             // destination bit 0 = host

    function integer pow2_at_least;
        input integer n;
        integer p;
        begin
            p = 2;
            while (p < n) p = p * 2;
            pow2_at_least = p;
        end
    endfunction

    localparam integer FIFO_DEPTH = pow2_at_least(NBEATS + 4);

    // ---------------- rule table and register port ----------------
    localparam [1:0] ACT_HOST = 2'd0, ACT_ACCEL = 2'd1;  // 2: drop
    localparam [4:0] KWORDS_B = KWORDS[4:0];
    localparam [6:0] RULES_B  = RULES[6:0];
    localparam [3:0] PORTS_B  = ACCEL_PORTS[3:0];
    localparam [7:0] NBEATS_B = NBEATS[7:0];
    localparam [7:0] KEEP_B   = KEEP_W[7:0];
    localparam [7:0] K_B      = K[7:0];

    reg [K*8-1:0]     shadow_val_reg, shadow_mask_reg;
    reg [RULES*K*8-1:0] rule_val_reg, rule_mask_reg;
    reg [RULES*8-1:0] rule_act_reg;
    reg [7:0]         default_act_reg;
    reg               reg_ack_reg, reg_err_reg;
    reg [31:0]        reg_rdata_reg;

    assign reg_ack   = reg_ack_reg;
    assign reg_err   = reg_err_reg;
    assign reg_rdata = reg_rdata_reg;

    wire [7:0] addr      = reg_addr[7:0];
    wire       addr_high = reg_addr[31:8] != 24'd0;
    wire [5:0] rule_idx  = addr[5:0];
    wire       in_val    = !addr_high && addr[7:4] == 4'h0 && {1'b0, addr[3:0]} < KWORDS_B;
    wire       in_mask   = !addr_high && addr[7:4] == 4'h1 && {1'b0, addr[3:0]} < KWORDS_B;
    wire       in_dflt   = !addr_high && addr == 8'h20;
    wire       in_info   = !addr_high && addr == 8'h21;
    wire       in_ctrl   = !addr_high && addr[7:6] == 2'b01 && {1'b0, rule_idx} < RULES_B;
    wire       in_load   = !addr_high && addr[7:6] == 2'b10 && {1'b0, rule_idx} < RULES_B;
    // an action word is refused when its action is 3, or it names a port that is not there
    wire       act_bad   = reg_wdata[2:1] == 2'd3 ||
                           (reg_wdata[2:1] == ACT_ACCEL && reg_wdata[7:4] >= PORTS_B);

    wire       commit    = reg_req && reg_we && in_ctrl && !act_bad;
    wire       load      = reg_req && reg_we && in_load;

    // a 32-bit word of a K-byte field (byte 4w in bits [31:24]); bytes >= K read as 0
    function [31:0] field_word;
        input [K*8-1:0] field;
        input [3:0]     w;
        integer b;
        begin
            field_word = 32'd0;
            for (b = 0; b < 4; b = b + 1)
                if (w * 4 + b < K) field_word[31 - 8*b -: 8] = field[(w*4 + b)*8 +: 8];
        end
    endfunction

    integer bi;
    always @(posedge clk) begin
        reg_ack_reg   <= 1'b0;
        reg_err_reg   <= 1'b0;
        reg_rdata_reg <= 32'd0;
        if (reg_req) begin
            if (reg_we) begin
                if ((in_ctrl && !act_bad) || in_val || in_mask || in_dflt && !act_bad || in_load)
                    reg_ack_reg <= 1'b1;
                else
                    reg_err_reg <= 1'b1;
            end else begin
                if (in_val || in_mask || in_dflt || in_info || in_ctrl) reg_ack_reg <= 1'b1;
                else reg_err_reg <= 1'b1;
                if (in_val) reg_rdata_reg <= field_word(shadow_val_reg, addr[3:0]);
                if (in_mask) reg_rdata_reg <= field_word(shadow_mask_reg, addr[3:0]);
                if (in_dflt) reg_rdata_reg <= {24'd0, default_act_reg};
                if (in_info) reg_rdata_reg <= {4'd0, KEEP_W[3:0], 4'd0, ACCEL_PORTS[3:0],
                                               K[7:0], RULES[7:0]};
                if (in_ctrl) reg_rdata_reg <= {24'd0, rule_act_reg[rule_idx*8 +: 8]};
            end
        end
        if (reg_req && reg_we) begin
            for (bi = 0; bi < K; bi = bi + 1) begin
                if (in_val && addr[3:0] == bi[5:2])
                    shadow_val_reg[bi*8 +: 8] <= reg_wdata[31 - 8*(bi % 4) -: 8];
                if (in_mask && addr[3:0] == bi[5:2])
                    shadow_mask_reg[bi*8 +: 8] <= reg_wdata[31 - 8*(bi % 4) -: 8];
            end
        end
        if (load) begin
            shadow_val_reg  <= rule_val_reg[rule_idx*K*8 +: K*8];
            shadow_mask_reg <= rule_mask_reg[rule_idx*K*8 +: K*8];
        end
        if (reg_req && reg_we && in_dflt && !act_bad) default_act_reg <= {reg_wdata[7:1], 1'b0};
        if (rst) begin
            reg_ack_reg     <= 1'b0;
            reg_err_reg     <= 1'b0;
            default_act_reg <= 8'd0;  // default: to the host
        end
    end

    genvar gr, gb;
    generate
        for (gr = 0; gr < RULES; gr = gr + 1) begin : g_rule
            always @(posedge clk) begin
                if (commit && rule_idx == gr) begin
                    rule_val_reg[gr*K*8 +: K*8]  <= shadow_val_reg;
                    rule_mask_reg[gr*K*8 +: K*8] <= shadow_mask_reg;
                    rule_act_reg[gr*8 +: 8]      <= reg_wdata[7:0];
                end
                if (rst) rule_act_reg[gr*8] <= 1'b0;  // every rule disabled
            end
        end
    endgenerate

    // ---------------- header capture ----------------
    wire in_fire = s_axis_tvalid && s_axis_tready;

    reg [K*8-1:0] hdr_reg;        // the frame's first K bytes (beyond its length: stale)
    reg [7:0]     beat_cnt_reg;   // beats of the frame so far, saturating at NBEATS
    reg           decided_reg;    // this frame's decision has been triggered
    reg           trig_reg;       // compare hdr_reg with the rules this cycle
    reg [7:0]     len_reg;        // bytes present in hdr_reg for the compare (<= K)

    wire deciding = in_fire && !decided_reg && (s_axis_tlast || beat_cnt_reg == NBEATS_B - 8'd1);

    integer kc;
    reg [7:0] keep_count;
    always @* begin
        keep_count = 8'd0;
        for (kc = 0; kc < KEEP_W; kc = kc + 1)
            if (s_axis_tkeep[kc]) keep_count = keep_count + 1'b1;
    end

    // the frame's length in bytes at its deciding beat, capped at K
    wire [7:0] len_at_beat = beat_cnt_reg * KEEP_B + (s_axis_tlast ? keep_count : KEEP_B);
    wire [7:0] len_capped  = len_at_beat > K_B ? K_B : len_at_beat;

    always @(posedge clk) begin
        trig_reg <= deciding;
        if (deciding) len_reg <= len_capped;
        if (in_fire) begin
            if (s_axis_tlast) begin
                beat_cnt_reg <= 8'd0;
                decided_reg  <= 1'b0;
            end else begin
                if (beat_cnt_reg < NBEATS_B) beat_cnt_reg <= beat_cnt_reg + 1'b1;
                if (deciding) decided_reg <= 1'b1;
            end
        end
        if (rst) begin
            trig_reg     <= 1'b0;
            beat_cnt_reg <= 8'd0;
            decided_reg  <= 1'b0;
        end
    end

    generate
        for (gb = 0; gb < K; gb = gb + 1) begin : g_hdr
            localparam integer BEAT_I = gb / KEEP_W;
            localparam [7:0] BEAT = BEAT_I[7:0];  // the beat that carries byte gb
            always @(posedge clk)
                if (in_fire && beat_cnt_reg == BEAT)
                    hdr_reg[gb*8 +: 8] <= s_axis_tdata[(gb % KEEP_W)*8 +: 8];
        end
    endgenerate

    // ---------------- compare and priority (cycle after the deciding beat) ----------------
    wire [RULES-1:0] match;
    generate
        for (gr = 0; gr < RULES; gr = gr + 1) begin : g_match
            wire [K-1:0] byte_ok;
            for (gb = 0; gb < K; gb = gb + 1) begin : g_byte
                wire [7:0] m = rule_mask_reg[(gr*K + gb)*8 +: 8];
                assign byte_ok[gb] = (((hdr_reg[gb*8 +: 8] ^ rule_val_reg[(gr*K + gb)*8 +: 8])
                                       & m) == 8'd0) && (m == 8'd0 || gb < len_reg);
            end
            assign match[gr] = rule_act_reg[gr*8] && (&byte_ok);
        end
    endgenerate

    // priority in the compare cycle too, so that the rule's match and its action are
    // taken from the same version of the rule table
    reg  [RULES-1:0] hit;       // one-hot: the lowest matching rule
    reg  [7:1]       act;       // the action word taken (bit 0, enable, is not needed)
    integer pr;
    always @* begin
        hit = {RULES{1'b0}};
        act = default_act_reg[7:1];
        for (pr = RULES - 1; pr >= 0; pr = pr - 1)
            if (match[pr]) begin
                hit     = {RULES{1'b0}};
                hit[pr] = 1'b1;
                act     = rule_act_reg[pr*8 + 1 +: 7];
            end
    end

    reg [RULES-1:0] hit_reg;
    reg [7:1]       act_reg;
    reg             match_valid_reg;
    always @(posedge clk) begin
        hit_reg         <= hit;
        act_reg         <= act;
        match_valid_reg <= trig_reg;
        if (rst) match_valid_reg <= 1'b0;
    end

    // ---------------- action (two cycles after the deciding beat) ----------------
    reg [NOUT-1:0] dest;  // bit 0 host, bit 1 + n accelerator port n
    always @* begin
        dest    = {NOUT{1'b0}};
        dest[0] = act_reg[3] || act_reg[2:1] == ACT_HOST;
        if (act_reg[2:1] == ACT_ACCEL) dest[1 + act_reg[7:4]] = 1'b1;
    end

    wire dec_taken = match_valid_reg;
    wire in_bad    = in_fire && s_axis_tlast && s_axis_tuser;
    reg  bad_reg;
    always @(posedge clk) begin
        bad_reg <= in_bad;
        if (rst) bad_reg <= 1'b0;
    end

    assign cnt_ev = {hit_reg & {RULES{dec_taken}}, bad_reg, dec_taken && dest == {NOUT{1'b0}},
                     dec_taken && hit_reg == {RULES{1'b0}}};

    // ---------------- buffers ----------------
    // the input is taken when every buffer has room (both ready flags are flip-flops)
    wire data_s_ready, cut_s_ready;
    assign s_axis_tready = data_s_ready && cut_s_ready;

    wire [DATA_W-1:0] d_tdata;
    wire [KEEP_W-1:0] d_tkeep;
    wire              d_tvalid, d_tlast, d_tuser;
    wire              d_tready;

    stream_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH)) u_data_fifo (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid && cut_s_ready), .s_axis_tready(data_s_ready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(d_tdata), .m_axis_tkeep(d_tkeep), .m_axis_tvalid(d_tvalid),
        .m_axis_tready(d_tready), .m_axis_tlast(d_tlast), .m_axis_tuser(d_tuser)
    );

    wire [7:0] q_tdata;
    wire       q_tvalid, q_tready;
    wire       q_s_tready, q_tlast_unused, q_tuser_unused;
    wire [0:0] q_tkeep_unused;
    wire [7:0] dest_word = {{(8 - NOUT){1'b0}}, dest};
    // the decision FIFO cannot fill (see the header); its unused lanes and flags
    wire unused_dec = &{1'b0, q_s_tready, q_tdata[7:NOUT], q_tkeep_unused, q_tlast_unused,
                        q_tuser_unused};

    stream_fifo #(.DATA_W(8), .KEEP_W(1), .DEPTH(2 * FIFO_DEPTH)) u_dec_fifo (
        .clk(clk), .rst(rst),
        .s_axis_tdata(dest_word), .s_axis_tkeep(1'b1), .s_axis_tvalid(dec_taken),
        .s_axis_tready(q_s_tready), .s_axis_tlast(1'b1), .s_axis_tuser(1'b0),
        .m_axis_tdata(q_tdata), .m_axis_tkeep(q_tkeep_unused), .m_axis_tvalid(q_tvalid),
        .m_axis_tready(q_tready), .m_axis_tlast(q_tlast_unused), .m_axis_tuser(q_tuser_unused)
    );

    // ---------------- steering ----------------
    // HOST_CUT: the host output is fed by the cut-through path below, not from here
    localparam [NOUT-1:0] MAIN_DESTS = (HOST_CUT != 0) ? {{(NOUT - 1){1'b1}}, 1'b0} : {NOUT{1'b1}};
    wire [NOUT-1:0] out_ready;   // each output's register slice can take a beat
    wire [NOUT-1:0] q_dest = q_tdata[NOUT-1:0] & MAIN_DESTS;
    wire            all_ready = &(out_ready | ~q_dest);
    wire            out_fire  = d_tvalid && q_tvalid && all_ready;

    assign d_tready = q_tvalid && all_ready;
    assign q_tready = out_fire && d_tlast;

    wire [NOUT*DATA_W-1:0] o_tdata;
    wire [NOUT*KEEP_W-1:0] o_tkeep;
    wire [NOUT-1:0]        o_tvalid, o_tlast, o_tuser;
    wire [NOUT-1:0]        o_tready = {m_acc_axis_tready, m_host_axis_tready};

    // what enters each output's register slice
    wire [NOUT*DATA_W-1:0] p_tdata;
    wire [NOUT*KEEP_W-1:0] p_tkeep;
    wire [NOUT-1:0]        p_tvalid, p_tlast, p_tuser;

    genvar go;
    generate
        for (go = 1; go < NOUT; go = go + 1) begin : g_main
            assign p_tdata[go*DATA_W +: DATA_W] = d_tdata;
            assign p_tkeep[go*KEEP_W +: KEEP_W] = d_tkeep;
            assign p_tvalid[go] = out_fire && q_dest[go];
            assign p_tlast[go]  = d_tlast;
            assign p_tuser[go]  = d_tuser;
        end
        if (HOST_CUT == 0) begin : g_host_main
            assign p_tdata[DATA_W-1:0] = d_tdata;
            assign p_tkeep[KEEP_W-1:0] = d_tkeep;
            assign p_tvalid[0]  = out_fire && q_dest[0];
            assign p_tlast[0]   = d_tlast;
            assign p_tuser[0]   = d_tuser;
            assign cut_s_ready  = 1'b1;
        end else begin : g_host_cut
            // every frame goes to the host as it comes; only its last beat waits for the
            // decision, and leaves with tuser set when the frame is not for the host
            wire [DATA_W-1:0] c_tdata;
            wire [KEEP_W-1:0] c_tkeep;
            wire              c_tvalid, c_tlast, c_tuser, c_tready;
            stream_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH)) u_cut_fifo (
                .clk(clk), .rst(rst),
                .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
                .s_axis_tvalid(s_axis_tvalid && data_s_ready), .s_axis_tready(cut_s_ready),
                .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
                .m_axis_tdata(c_tdata), .m_axis_tkeep(c_tkeep), .m_axis_tvalid(c_tvalid),
                .m_axis_tready(c_tready), .m_axis_tlast(c_tlast), .m_axis_tuser(c_tuser)
            );
            wire [7:0] h_tdata;
            wire       h_tvalid, h_s_tready, h_tlast_unused, h_tuser_unused;
            wire [0:0] h_tkeep_unused;
            wire unused_h = &{1'b0, h_s_tready, h_tdata[7:1], h_tkeep_unused, h_tlast_unused,
                              h_tuser_unused};
            wire       c_go = !c_tlast || h_tvalid;  // the last beat waits for its decision
            stream_fifo #(.DATA_W(8), .KEEP_W(1), .DEPTH(2 * FIFO_DEPTH)) u_host_dec_fifo (
                .clk(clk), .rst(rst),
                .s_axis_tdata({7'd0, dest[0]}), .s_axis_tkeep(1'b1), .s_axis_tvalid(dec_taken),
                .s_axis_tready(h_s_tready), .s_axis_tlast(1'b1), .s_axis_tuser(1'b0),
                .m_axis_tdata(h_tdata), .m_axis_tkeep(h_tkeep_unused), .m_axis_tvalid(h_tvalid),
                .m_axis_tready(c_tvalid && c_tlast && h_tvalid && out_ready[0]),
                .m_axis_tlast(h_tlast_unused), .m_axis_tuser(h_tuser_unused)
            );
            assign c_tready            = out_ready[0] && c_go;
            assign p_tdata[DATA_W-1:0] = c_tdata;
            assign p_tkeep[KEEP_W-1:0] = c_tkeep;
            assign p_tvalid[0]         = c_tvalid && c_go;
            assign p_tlast[0]          = c_tlast;
            assign p_tuser[0]          = c_tuser || (c_tlast && !h_tdata[0]);
        end
        for (go = 0; go < NOUT; go = go + 1) begin : g_out
            axis_pipe #(.DATA_W(DATA_W), .KEEP_W(KEEP_W)) u_pipe (
                .clk(clk), .rst(rst),
                .s_axis_tdata(p_tdata[go*DATA_W +: DATA_W]), .s_axis_tkeep(p_tkeep[go*KEEP_W +: KEEP_W]),
                .s_axis_tvalid(p_tvalid[go]), .s_axis_tready(out_ready[go]),
                .s_axis_tlast(p_tlast[go]), .s_axis_tuser(p_tuser[go]),
                .m_axis_tdata(o_tdata[go*DATA_W +: DATA_W]), .m_axis_tkeep(o_tkeep[go*KEEP_W +: KEEP_W]),
                .m_axis_tvalid(o_tvalid[go]), .m_axis_tready(o_tready[go]),
                .m_axis_tlast(o_tlast[go]), .m_axis_tuser(o_tuser[go])
            );
        end
    endgenerate

    assign m_host_axis_tdata  = o_tdata[DATA_W-1:0];
    assign m_host_axis_tkeep  = o_tkeep[KEEP_W-1:0];
    assign m_host_axis_tvalid = o_tvalid[0];
    assign m_host_axis_tlast  = o_tlast[0];
    assign m_host_axis_tuser  = o_tuser[0];
    assign m_acc_axis_tdata   = o_tdata[NOUT*DATA_W-1:DATA_W];
    assign m_acc_axis_tkeep   = o_tkeep[NOUT*KEEP_W-1:KEEP_W];
    assign m_acc_axis_tvalid  = o_tvalid[NOUT-1:1];
    assign m_acc_axis_tlast   = o_tlast[NOUT-1:1];
    assign m_acc_axis_tuser   = o_tuser[NOUT-1:1];

endmodule

`default_nettype wire
