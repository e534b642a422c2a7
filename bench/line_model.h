// line_model.h: cycle-exact model of a MAC's transmit line for the benchmark drivers
// (bench/udp_tx_goodput_tb.cpp, bench/stack_rx_tb.cpp). A beat's bytes leave kw per
// byte-time slot (kw = DATA_W/8 bytes a cycle); a frame is followed by padding to 60
// bytes, FCS 4, inter-frame gap 12 and the next frame's preamble 8. The MAC takes a beat
// only when the line can send its bytes in the next cycle (ready()); a beat missing
// mid-frame is an underflow (a real MAC would abort the frame).
#pragma once
#include <cstdint>
#include <vector>

struct LineModel {
    int kw;
    uint64_t wire_next = 0;    // byte time at which the line is free
    uint64_t first_start = 0;  // byte time the first frame started
    uint64_t last_end = 0;     // byte time the last frame (and its gap, preamble) ended
    uint64_t max_idle = 0;     // longest idle time between frames beyond the gap
    int underflows = 0;
    bool in_frame = false, started = false;
    std::vector<uint8_t> frame;  // the frame being received, then the last one complete

    explicit LineModel(int bytes_per_cycle) : kw(bytes_per_cycle) {}

    // tready for cycle c
    bool ready(uint64_t c) const { return (c + 2) * (uint64_t)kw > wire_next; }

    // The MAC side at cycle c, in which tready was ready(c): a beat if valid, its bytes
    // (keep), last. Returns true when the beat completed a frame (in `frame`).
    bool step(uint64_t c, bool valid, uint64_t data, unsigned keep, bool last) {
        if (!valid) {
            if (in_frame) underflows++;
            return false;
        }
        int n = __builtin_popcount(keep);
        uint64_t at = (c + 1) * (uint64_t)kw;
        if (!in_frame) {
            in_frame = true;
            uint64_t start = wire_next > at ? wire_next : at;
            if (started && start - wire_next > max_idle) max_idle = start - wire_next;
            if (!started) first_start = start;
            started = true;
            wire_next = start;
            frame.clear();
        }
        for (int i = 0; i < n; i++) frame.push_back((uint8_t)(data >> (8 * i)));
        wire_next = (wire_next > at ? wire_next : at) + n;
        if (!last) return false;
        in_frame = false;
        size_t fl = frame.size();
        wire_next += (fl < 60 ? 60 - fl : 0) + 4 + 12 + 8;
        last_end = wire_next;
        return true;
    }
};
