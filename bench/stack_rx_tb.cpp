// stack_rx_tb: Verilator driver of udp_stack for bench/stack_rx.py (receive goodput and
// latency). For each UDP payload size given on the command line it sends a batch of
// frames (valid UDP/IPv4 with checksums, to application port 0) on s_axis, each offered
// at its line-rate slot (the bytes of a frame plus FCS, preamble and inter-frame gap at
// one byte per byte-time, DATA_W/8 bytes per cycle), with every consumer always ready,
// and prints one line per size:
//   <payload> <frames> <ideal_cycles> <measured_cycles> <lat_first> <lat_last> <in_stall>
// ideal_cycles: line-rate time of frames 1..N-1; measured_cycles: between the ends of
// the first and the last datagram on the application port; lat_first: cycles from the
// first frame byte in to the first payload byte out (first frame, idle stack);
// lat_last: from the frame's last byte in to the datagram's last byte out; in_stall:
// cycles the stack held off a beat the MAC side offered.
// Usage: Vudp_stack <frames per size> <size> [<size> ...]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "Vudp_stack.h"
#include "verilated.h"

#ifndef DATA_W
#define DATA_W 8
#endif
static const int KW = DATA_W / 8;

static uint32_t csum_add(uint32_t s, const std::vector<uint8_t>& b, size_t from, size_t n) {
    for (size_t i = 0; i < n; i += 2) {
        uint32_t w = b[from + i] << 8;
        if (i + 1 < n) w |= b[from + i + 1];
        s += w;
    }
    return s;
}
static uint16_t fold(uint32_t s) {
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)~s;
}

static std::vector<uint8_t> make_frame(int payload, int seq) {
    std::vector<uint8_t> f = {0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x99, 0x08, 0x00};
    int ip_len = 20 + 8 + payload;
    uint8_t ip[20] = {0x45, 0, (uint8_t)(ip_len >> 8), (uint8_t)ip_len, (uint8_t)(seq >> 8),
                      (uint8_t)seq, 0, 0, 64, 17, 0, 0, 192, 0, 2, 77, 192, 0, 2, 1};
    f.insert(f.end(), ip, ip + 20);
    uint16_t hc = fold(csum_add(0, f, 14, 20));
    f[24] = hc >> 8;
    f[25] = hc & 0xFF;
    int ulen = 8 + payload;
    uint8_t udp[8] = {0x30, 0x39, 5000 >> 8, 5000 & 0xFF, (uint8_t)(ulen >> 8), (uint8_t)ulen,
                      0, 0};
    f.insert(f.end(), udp, udp + 8);
    for (int i = 0; i < payload; i++) f.push_back((uint8_t)(i * 7 + seq));
    uint32_t s = 0xC000 + 0x024D + 0xC000 + 0x0201 + 17 + ulen;
    uint16_t uc = fold(csum_add(s, f, 34, ulen));
    if (uc == 0) uc = 0xFFFF;
    f[40] = uc >> 8;
    f[41] = uc & 0xFF;
    while (f.size() < 60) f.push_back(0);
    return f;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s frames size...\n", argv[0]);
        return 1;
    }
    int nfr = atoi(argv[1]);
    Vudp_stack* t = new Vudp_stack;
    t->cfg_mac = 0x020000000001ULL;
    t->cfg_ip = 0xC0000201;
    t->cfg_netmask = 0xFFFFFF00;
    t->cfg_gateway = 0xC00002FE;
    t->cfg_ttl = 64;
    t->cfg_df = 0;
    t->cfg_raw_ethertype = 0x88B5;
    t->cfg_udp_port = 5000;
    t->cfg_udp_csum_mode = 0;
    t->tick_1ms = 0;
    t->m_udp_rx_axis_tready = 1;
    t->m_udp_rx_hdr_ready = 1;
    t->m_raw_rx_axis_tready = 1;
    t->m_raw_rx_hdr_ready = 1;
    t->m_axis_tready = 1;
    t->s_udp_tx_hdr_valid = 0;
    t->s_udp_tx_axis_tvalid = 0;
    t->s_raw_tx_hdr_valid = 0;
    t->s_raw_tx_axis_tvalid = 0;
    t->s_axis_tvalid = 0;
    t->rst = 1;
    for (int i = 0; i < 10; i++) {
        t->clk = !t->clk;
        t->eval();
    }
    t->rst = 0;
    uint64_t cyc = 0;
    for (int a = 2; a < argc; a++) {
        int payload = atoi(argv[a]);
        std::vector<std::vector<uint8_t>> frames;
        for (int k = 0; k < nfr; k++) frames.push_back(make_frame(payload, k));
        int wire = (int)frames[0].size() + 4 + 8 + 12;  // + FCS, preamble/SFD, IFG
        uint64_t t0 = cyc + 4;
        size_t fi = 0, off = 0;
        uint64_t stall = 0, first_in = 0, last_in0 = 0, first_out = 0, last_out0 = 0;
        std::vector<uint64_t> ends;
        bool seen_first = false;
        int done = 0, idle = 0;
        while (done < nfr) {
            // frame fi may start at its line-rate slot
            uint64_t slot = t0 + ((uint64_t)fi * wire + KW - 1) / KW;
            bool offer = fi < frames.size() && (off > 0 || cyc >= slot);
            if (offer) {
                const std::vector<uint8_t>& f = frames[fi];
                uint64_t d = 0, k = 0;
                int n = 0;
                for (; n < KW && off + n < f.size(); n++) {
                    d |= (uint64_t)f[off + n] << (8 * n);
                    k |= 1ULL << n;
                }
                t->s_axis_tdata = d;
                t->s_axis_tkeep = k;
                t->s_axis_tlast = off + n >= f.size();
                t->s_axis_tuser = 0;
            }
            t->s_axis_tvalid = offer;
            t->clk = 0;
            t->eval();
            bool in_hs = offer && t->s_axis_tready;
            if (offer && !t->s_axis_tready) stall++;
            if ((t->m_udp_rx_axis_tvalid & 1) && (t->m_udp_rx_axis_tready & 1)) {
                if (!seen_first) {
                    first_out = cyc;
                    seen_first = true;
                }
                if (t->m_udp_rx_axis_tlast & 1) {
                    if (t->m_udp_rx_axis_tuser & 1) fprintf(stderr, "bad datagram\n");
                    ends.push_back(cyc);
                    if (done == 0) last_out0 = cyc;
                    done++;
                }
                idle = 0;
            } else if (++idle > 100000) {
                fprintf(stderr, "no output for 100000 cycles at payload %d\n", payload);
                return 2;
            }
            t->clk = 1;
            t->eval();
            if (in_hs) {
                if (fi == 0 && off == 0) first_in = cyc;
                off += KW;
                if (off >= frames[fi].size()) {
                    if (fi == 0) last_in0 = cyc;
                    fi++;
                    off = 0;
                }
            }
            cyc++;
        }
        // ideal: frames 1..N-1 at line rate (byte-times / bytes per cycle)
        double ideal = (double)(nfr - 1) * wire / KW;
        printf("%d %d %.2f %llu %llu %llu %llu\n", payload, nfr, ideal,
               (unsigned long long)(ends.back() - ends.front()),
               (unsigned long long)(first_out - first_in),
               (unsigned long long)(last_out0 - last_in0), (unsigned long long)stall);
        for (int i = 0; i < 200; i++) {
            t->clk = 0;
            t->eval();
            t->clk = 1;
            t->eval();
            cyc++;
        }
    }
    delete t;
    return 0;
}
