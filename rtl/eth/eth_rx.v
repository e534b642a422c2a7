`default_nettype none
// eth_rx: Ethernet header parse and EtherType demultiplexer (receive side).
//
// Input: whole frames from the MAC user side (destination MAC onwards, no FCS; tuser on
// the last beat = bad frame). Frames whose destination is neither cfg_mac nor
// ff:ff:ff:ff:ff:ff, frames shorter than the 14-byte header, and frames whose EtherType
// is none of ARP (0x0806), IPv4 (0x0800) or cfg_raw_ethertype (while cfg_raw_en is 1) are
// dropped and counted.
//   - ARP frames go out whole and unchanged on m_arp_axis_*.
//   - IPv4 frames: header on m_ip_hdr_* (dst_mac, src_mac, ethertype) and the bytes after
//     the 14-byte header (padding included) on m_ip_axis_*, realigned to lane 0.
//     m_ip_hdr_ethertype is the constant 0x0800.
//   - Raw frames (EtherType cfg_raw_ethertype): same, on m_raw_hdr_* / m_raw_axis_*;
//     m_raw_hdr_ethertype is cfg_raw_ethertype (the frame's EtherType by definition).
// A frame the MAC marked bad keeps tuser = 1 on its last beat (never delivered as good).
// The header handshake of a frame completes before its first payload beat is offered.
// The frame's first 14 bytes fill a header window (win_reg) while the frame also enters
// a FIFO; once the window is full (or the frame has ended) one command (cmd_*_reg) tells
// the strip behind the FIFO to drop the frame or where to send it and how many header
// bytes to remove. At DATA_W 8 the header bus is read from the window itself, so a
// frame's first beat is taken only once the previous frame's command has gone (no stall
// at line rate: s_axis_tready is a register and the FIFO's ready); at DATA_W 64 the
// header bus has its own registers. At DATA_W 8 the broadcast check is a flag built one
// byte at a time, and the header byte count (a beat with tkeep = 0 holds no byte) is also
// the runt check's length. The IPv4 and raw header valids are flip-flops of the strip
// (m_hdr_valid_oh).
//
// Parameters: DATA_W (8 or 64), KEEP_W = DATA_W/8, FIFO_DEPTH (beats buffered while the
//   header is parsed: 32 at DATA_W 8, 8 at DATA_W 64, the tested values).
// Latency (no backpressure): first payload byte out about 14/KEEP_W + 5 cycles after the
//   frame's first beat (at DATA_W 64; 2 cycles fewer at DATA_W 8, where the strip starts a
//   packet in the cycle after its command); one beat per cycle sustained.
// cnt_ev[3:0]: event strobes, one cycle each (registered, 1 cycle after the frame's
//   verdict), for counters kept in stat_counters (read them while rst is low):
//   bit 0 frames      every frame in
//   bit 1 bad_mac     frames not for us (dropped)
//   bit 2 bad_ethertype  frames with an EtherType nobody takes (dropped)
//   bit 3 runt        frames shorter than the header (dropped)
module eth_rx #(
    parameter integer DATA_W     = 8,
    parameter integer KEEP_W     = DATA_W / 8,
    parameter integer FIFO_DEPTH = (DATA_W == 8) ? 32 : 8
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [47:0]       cfg_mac,
    input  wire [15:0]       cfg_raw_ethertype,
    input  wire              cfg_raw_en,  // 0: raw frames dropped as unknown EtherType
    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_axis_tuser,
    // ARP: whole frames
    output wire [DATA_W-1:0] m_arp_axis_tdata,
    output wire [KEEP_W-1:0] m_arp_axis_tkeep,
    output wire              m_arp_axis_tvalid,
    input  wire              m_arp_axis_tready,
    output wire              m_arp_axis_tlast,
    output wire              m_arp_axis_tuser,
    // IPv4: header + payload
    output wire              m_ip_hdr_valid,
    input  wire              m_ip_hdr_ready,
    output wire [47:0]       m_ip_hdr_dst_mac,
    output wire [47:0]       m_ip_hdr_src_mac,
    output wire [15:0]       m_ip_hdr_ethertype,
    output wire [DATA_W-1:0] m_ip_axis_tdata,
    output wire [KEEP_W-1:0] m_ip_axis_tkeep,
    output wire              m_ip_axis_tvalid,
    input  wire              m_ip_axis_tready,
    output wire              m_ip_axis_tlast,
    output wire              m_ip_axis_tuser,
    // raw EtherType channel: header + payload
    output wire              m_raw_hdr_valid,
    input  wire              m_raw_hdr_ready,
    output wire [47:0]       m_raw_hdr_dst_mac,
    output wire [47:0]       m_raw_hdr_src_mac,
    output wire [15:0]       m_raw_hdr_ethertype,
    output wire [DATA_W-1:0] m_raw_axis_tdata,
    output wire [KEEP_W-1:0] m_raw_axis_tkeep,
    output wire              m_raw_axis_tvalid,
    input  wire              m_raw_axis_tready,
    output wire              m_raw_axis_tlast,
    output wire              m_raw_axis_tuser,
    // event strobes
    output wire [3:0]        cnt_ev
);
    generate
        if (DATA_W != 8 && DATA_W != 64) begin : g_check_data_w
            eth_rx_DATA_W_must_be_8_or_64 u_error ();  // unsupported parameter (no such module)
        end
        if (KEEP_W != DATA_W / 8) begin : g_check_keep_w
            eth_rx_KEEP_W_must_be_DATA_W_div_8 u_error ();  // unsupported parameter
        end
        if (FIFO_DEPTH != ((DATA_W == 8) ? 32 : 8)) begin : g_check_fifo_depth
            eth_rx_FIFO_DEPTH_must_be_32_at_8_bits_or_8_at_64 u_error ();  // unsupported parameter
        end
    endgenerate

    localparam integer NB = (14 + KEEP_W - 1) / KEEP_W;  // beats holding the header
    localparam integer HW = NB * KEEP_W;  // header window bytes
    localparam integer BW = $clog2(NB + 1);
    localparam [1:0] R_ARP = 2'd0, R_IP = 2'd1, R_RAW = 2'd2;

    // ---------------- parser ----------------
    // the event strobes are registered (short paths, Fmax)
    reg ev_frames_reg, ev_runt_reg, ev_bad_mac_reg, ev_bad_ethertype_reg;
    assign cnt_ev = {ev_runt_reg, ev_bad_ethertype_reg, ev_bad_mac_reg, ev_frames_reg};
    reg  [HW*8-1:0] win_reg;   // header window: the frame's first HW bytes, byte 0 lowest
    reg  [BW-1:0]   bcnt_reg;  // header beats seen (saturates at NB); bytes at DATA_W 8
    reg  [4:0]      flen_reg;  // frame bytes seen, saturating at 16 (runt check, DATA_W 64 only)
    // DATA_W 8: the destination bytes seen so far are all ff, built a byte at a time
    // (smaller than a 48-bit AND of the window)
    reg             dst_ones_reg;
    reg             ended_reg;   // tlast consumed
    reg             pushed_reg;  // decision made for this frame
    reg             cmd_valid_reg;
    wire            cmd_ready;
    reg             cmd_drop_reg;
    reg  [1:0]      cmd_route_reg;
    reg  [3:0]      cmd_skip_reg;
    reg  [47:0]     cmd_dst_mac_reg, cmd_src_mac_reg;  // header bus registers (DATA_W 64 only)
    // HOLD (one byte per beat): the header bus is read from the window itself, which a
    // new frame may enter only once the previous command is gone (at one byte per cycle
    // that is long before the next frame arrives: no stall at line rate)
    localparam HOLD = (KEEP_W == 1);
    wire            fifo_ready;
    wire            bfull = (bcnt_reg == NB[BW-1:0]);  // the header window is complete
    // HOLD: the input side's readiness apart from the FIFO's, a register (see below)
    reg             in_ready_reg;

    wire need = !pushed_reg && (ended_reg || bfull);
    wire push = need && !cmd_valid_reg;  // (not through cmd_ready: keeps the ready path short)
    wire restart = ended_reg && (pushed_reg || push);
    wire [BW-1:0] bcnt_e = restart ? {BW{1'b0}} : bcnt_reg;
    wire [4:0] flen_e = restart ? 5'd0 : flen_reg;
    // (with HOLD: restart only once the command is gone, and a frame's first beat waits
    // for it too, see in_ready_reg)
    assign s_axis_tready = fifo_ready && (HOLD ? in_ready_reg : (!ended_reg || restart));
    wire in_beat = s_axis_tvalid && s_axis_tready;
    // a beat that moves the window and bcnt_reg: every beat, or at DATA_W 8 a beat
    // holding its byte (a beat with tkeep = 0 holds none), so bcnt_reg counts bytes there
    // and doubles as the runt check's length
    wire hdr_beat = in_beat && ((KEEP_W != 1) || s_axis_tkeep[0]);
    // the window moves on a header beat while it is not complete (bcnt_e != NB): a beat
    // taken after the frame's end is the next frame's first (restart; with HOLD a beat
    // is taken after the end only together with restart)
    wire win_beat = hdr_beat && (HOLD ? (ended_reg || !bfull) : (bcnt_e != NB[BW-1:0]));
    // bcnt_e in a cycle a beat is taken (with HOLD: 0 after the frame's end, see above)
    wire [BW-1:0] bcnt_b = HOLD ? (ended_reg ? {BW{1'b0}} : bcnt_reg) : bcnt_e;

    reg [4:0] nkeep;
    integer i;
    always @(*) begin
        nkeep = 5'd0;
        for (i = 0; i < KEEP_W; i = i + 1)
            if (s_axis_tkeep[i]) nkeep = i[4:0] + 1'b1;
    end

    // header fields (byte 0 of the window is the first byte on the wire)
    function [47:0] be48(input [47:0] le);
        be48 = {le[7:0], le[15:8], le[23:16], le[31:24], le[39:32], le[47:40]};
    endfunction
    wire [47:0] f_dst = be48(win_reg[47:0]);
    wire [47:0] f_src = be48(win_reg[95:48]);
    wire [15:0] f_type = {win_reg[103:96], win_reg[111:104]};
    wire        is_runt = ended_reg && ((KEEP_W == 1) ? !bfull : (flen_reg < 5'd14));
    wire        dst_bcast = (KEEP_W == 1) ? dst_ones_reg : (&f_dst);
    wire        mac_ok = (f_dst == cfg_mac) || dst_bcast;
    wire        t_arp = (f_type == 16'h0806);
    wire        t_ip = (f_type == 16'h0800);
    wire        t_raw = (f_type == cfg_raw_ethertype) && cfg_raw_en;  // the raw channel on

    always @(posedge clk) begin
        if (win_beat) win_reg <= {s_axis_tdata, win_reg[HW*8-1:DATA_W]};
        if (hdr_beat && ({{(8-BW){1'b0}}, bcnt_b} < 8'd6))  // a destination byte
            dst_ones_reg <= (&s_axis_tdata[7:0]) && (dst_ones_reg || bcnt_b == {BW{1'b0}});
        if (push) begin
            cmd_dst_mac_reg <= f_dst;
            cmd_src_mac_reg <= f_src;
            cmd_drop_reg <= is_runt || !mac_ok || !(t_arp || t_ip || t_raw);
            cmd_route_reg <= t_arp ? R_ARP : (t_ip ? R_IP : R_RAW);
            cmd_skip_reg <= t_arp ? 4'd0 : 4'd14;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            bcnt_reg <= 0;
            in_ready_reg <= 1'b1;
            flen_reg <= 5'd0;
            ended_reg <= 1'b0;
            pushed_reg <= 1'b0;
            cmd_valid_reg <= 1'b0;
            ev_frames_reg <= 1'b0;
            ev_runt_reg <= 1'b0;
            ev_bad_mac_reg <= 1'b0;
            ev_bad_ethertype_reg <= 1'b0;
        end else begin
            ev_frames_reg <= 1'b0;
            ev_runt_reg <= 1'b0;
            ev_bad_mac_reg <= 1'b0;
            ev_bad_ethertype_reg <= 1'b0;
            if (restart) begin
                bcnt_reg <= 0;
                flen_reg <= 5'd0;
                ended_reg <= 1'b0;
                pushed_reg <= 1'b0;
            end else if (push) begin
                pushed_reg <= 1'b1;
            end
            if (win_beat) bcnt_reg <= bcnt_b + 1'b1;
            // in_ready_reg (HOLD): a frame's first beat waits for the previous frame's
            // command to be gone, and nothing is taken after a frame's end until it has
            // gone. Registered: it is the next cycle's "ended_reg ? (pushed_reg &&
            // !cmd_valid_reg) : !(cmd_valid_reg && bcnt_reg == 0)" worked out from this
            // cycle's registers, without cmd_ready, push or a late pushed_reg, so it may
            // be low one cycle longer than that, never high when that is low: after a
            // frame's end it rises once the command is gone, one cycle before the next
            // frame's first beat is taken.
            if (in_beat && s_axis_tlast)
                in_ready_reg <= pushed_reg && !cmd_valid_reg && !restart;  // ended next
            else if (ended_reg && !restart)
                in_ready_reg <= pushed_reg && !cmd_valid_reg;
            else if (restart)
                in_ready_reg <= !(cmd_valid_reg || push);  // bcnt_reg is 0 (or 1 after a beat) next
            else
                in_ready_reg <= !(cmd_valid_reg && bcnt_reg == {BW{1'b0}});
            if (in_beat) begin
                if (!flen_e[4]) flen_reg <= flen_e + nkeep;
                if (s_axis_tlast) ended_reg <= 1'b1;
            end
            if (push) begin
                cmd_valid_reg <= 1'b1;
                ev_frames_reg <= 1'b1;
                if (is_runt) ev_runt_reg <= 1'b1;
                else if (!mac_ok) ev_bad_mac_reg <= 1'b1;
                else if (!(t_arp || t_ip || t_raw)) ev_bad_ethertype_reg <= 1'b1;
            end else if (cmd_ready) begin
                cmd_valid_reg <= 1'b0;
            end
        end
    end

    // ---------------- buffer + strip ----------------
    wire [DATA_W-1:0] f_tdata;
    wire [KEEP_W-1:0] f_tkeep;
    wire              f_tvalid, f_tready, f_tlast, f_tuser;
    stream_fifo #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .DEPTH(FIFO_DEPTH)) u_fifo (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid && s_axis_tready), .s_axis_tready(fifo_ready),
        .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
        .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire              hv;  // (the outputs read m_hdr_valid_oh)
    /* verilator lint_on UNUSEDSIGNAL */
    wire              hr;
    wire [DATA_W-1:0] o_tdata;
    wire [KEEP_W-1:0] o_tkeep;
    wire              o_tlast, o_tuser;
    wire [1:0]        o_route;
    wire              o_tready;
    wire              sts_ready_unused;
    /* verilator lint_off UNUSEDSIGNAL */
    wire              o_ttrunc_unused;  // no length: never truncated
    wire [3:0]        o_vh;  // per-route tvalid flip-flops (route 3 is not used)
    wire [3:0]        o_hvh;  // per-route header valid flip-flops (routes 0, 3 not used)
    wire              o_tvalid;  // replaced by o_vh
    /* verilator lint_on UNUSEDSIGNAL */
    stream_strip #(
        .DATA_W(DATA_W), .KEEP_W(KEEP_W), .SKIP_W(4), .ROUTE_W(2), .USE_STS(0), .USE_LEN(0)
    ) u_strip (
        .clk(clk), .rst(rst),
        .cmd_valid(cmd_valid_reg), .cmd_ready(cmd_ready), .cmd_skip(cmd_skip_reg), .cmd_len(16'hFFFF),
        .cmd_drop(cmd_drop_reg), .cmd_route(cmd_route_reg),
        .sts_valid(1'b1), .sts_ready(sts_ready_unused), .sts_bad(1'b0),
        .s_axis_tdata(f_tdata), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(f_tvalid),
        .s_axis_tready(f_tready), .s_axis_tlast(f_tlast), .s_axis_tuser(f_tuser),
        .m_hdr_valid(hv), .m_hdr_valid_oh(o_hvh), .m_hdr_ready(hr),
        .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
        .m_axis_tready(o_tready), .m_axis_tlast(o_tlast), .m_axis_tuser(o_tuser),
        .m_axis_ttrunc(o_ttrunc_unused), .m_axis_troute(o_route),
        .m_axis_tvalid_oh(o_vh)
    );

    assign hr = (cmd_route_reg == R_ARP) ? 1'b1 : (cmd_route_reg == R_IP) ? m_ip_hdr_ready : m_raw_hdr_ready;
    // each header valid is a flip-flop of the strip (hv && cmd_route_reg == its route)
    assign m_ip_hdr_valid = o_hvh[R_IP];
    assign m_raw_hdr_valid = o_hvh[R_RAW];
    wire [47:0] o_dst_mac = HOLD ? f_dst : cmd_dst_mac_reg;
    wire [47:0] o_src_mac = HOLD ? f_src : cmd_src_mac_reg;
    assign m_ip_hdr_dst_mac = o_dst_mac;
    assign m_ip_hdr_src_mac = o_src_mac;
    assign m_ip_hdr_ethertype = 16'h0800;
    assign m_raw_hdr_dst_mac = o_dst_mac;
    assign m_raw_hdr_src_mac = o_src_mac;
    assign m_raw_hdr_ethertype = cfg_raw_ethertype;

    assign o_tready = (o_route == R_ARP) ? m_arp_axis_tready :
                      (o_route == R_IP) ? m_ip_axis_tready : m_raw_axis_tready;
    // each output's tvalid is a flip-flop of the strip (o_tvalid && o_route == its route)
    assign m_arp_axis_tvalid = o_vh[R_ARP];
    assign m_ip_axis_tvalid = o_vh[R_IP];
    assign m_raw_axis_tvalid = o_vh[R_RAW];
    assign m_arp_axis_tdata = o_tdata;
    assign m_arp_axis_tkeep = o_tkeep;
    assign m_arp_axis_tlast = o_tlast;
    assign m_arp_axis_tuser = o_tuser;
    assign m_ip_axis_tdata = o_tdata;
    assign m_ip_axis_tkeep = o_tkeep;
    assign m_ip_axis_tlast = o_tlast;
    assign m_ip_axis_tuser = o_tuser;
    assign m_raw_axis_tdata = o_tdata;
    assign m_raw_axis_tkeep = o_tkeep;
    assign m_raw_axis_tlast = o_tlast;
    assign m_raw_axis_tuser = o_tuser;
endmodule
`default_nettype wire
