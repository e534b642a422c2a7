`default_nettype none
// rx_hdr_gate: the two handshake flip-flops of a receive layer (ip_rx, udp_rx) that
// takes one header, then that packet's payload, and makes one command per packet.
//
//   taking   = active && !ended, as a register: set by a header handshake (which always
//              leaves the layer active and not ended), cleared by the packet's last
//              input beat. The layer's s_axis_tready is its FIFO's ready AND taking.
//   hdr_free = !active || (ended && pushed), as a register: cleared by a header
//              handshake; else it is 1 next if the layer is not active, or if the packet
//              has ended (or ends now) and its command is made (or made now).
// Both are the next values of the logic they stand for, so the layer's s_hdr_ready and
// s_axis_tready are one gate from flip-flops.
//
// Interfaces: hdr_fire (s_hdr_valid && s_hdr_ready), last_beat (an input beat with
//   tlast taken), active, ended, pushed, push (the layer's state: a packet in progress,
//   its input ended, its command made, its command made in this cycle).
// Latency: both outputs follow their inputs by one cycle (registers).
module rx_hdr_gate (
    input  wire clk,
    input  wire rst,
    input  wire hdr_fire,
    input  wire last_beat,
    input  wire active,
    input  wire ended,
    input  wire pushed,
    input  wire push,
    output reg  taking,
    output reg  hdr_free
);
    always @(posedge clk)
        if (rst) taking <= 1'b0;
        else if (hdr_fire) taking <= 1'b1;
        else if (last_beat) taking <= 1'b0;
    always @(posedge clk)
        if (rst) hdr_free <= 1'b1;
        else if (hdr_fire) hdr_free <= 1'b0;
        else hdr_free <= !active || ((ended || last_beat) && (pushed || push));
endmodule
`default_nettype wire
