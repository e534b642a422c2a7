// udp_tx_goodput_tb: Verilator driver of udp_tx for bench/udp_tx_goodput.py (transmit
// goodput of one application port, per checksum mode and payload size).
//
// The application is always ready: the next header is offered as soon as the previous
// one is taken, and each datagram's payload (one beat per cycle, no idle cycle) follows
// its header's handshake. A cycle-exact MAC model takes the frames: a beat's bytes leave
// DATA_W/8 per byte-time slot, a frame is followed by padding to 60 bytes, FCS 4,
// inter-frame gap 12 and the next preamble 8; the MAC takes a beat only when the line
// can send its bytes in the next cycle, and a beat missing mid-frame counts as an
// underflow (a real MAC would abort the frame). The UDP checksum of every frame is
// checked (mode 1: must be right; mode 0: 0) and its payload compared byte for byte.
// Prints one line per size:
//   <payload> <frames> <line_bytes> <busy_bytes> <max_idle> <underflows> <bad>
// line_bytes: the frames' wire time (preamble, frame, padding, FCS, gap) at line rate;
// busy_bytes: byte times from the first frame's start to the last one's end (goodput
// fraction = line_bytes / busy_bytes); max_idle: the longest idle time between two
// frames beyond the gap, in byte times; bad: frames with a wrong checksum or payload.
// Usage: Vudp_tx <mode> <frames per size> <size> [<size> ...]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "Vudp_tx.h"
#include "line_model.h"
#include "verilated.h"

#ifndef DATA_W
#define DATA_W 8
#endif
static const int KW = DATA_W / 8;
static const uint32_t SRC_IP = 0xC0000201u, DST_IP = 0xC0000264u;
static const int SPORT = 5000, DPORT = 6000;

static uint8_t pay_byte(int seq, int i) { return (uint8_t)(i * 13 + seq * 7 + 1); }

static uint16_t udp_csum(const std::vector<uint8_t>& f) {
    // pseudo-header + UDP header (checksum field 0) + payload of frame f
    uint32_t s = (SRC_IP >> 16) + (SRC_IP & 0xFFFF) + (DST_IP >> 16) + (DST_IP & 0xFFFF) + 17;
    size_t ulen = ((size_t)f[38] << 8) | f[39];
    s += (uint32_t)ulen;
    for (size_t i = 0; i < ulen; i += 2) {
        if (i == 6) continue;
        uint32_t w = (uint32_t)f[34 + i] << 8;
        if (i + 1 < ulen) w |= f[34 + i + 1];
        s += w;
    }
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    uint16_t c = (uint16_t)~s;
    return c ? c : 0xFFFF;
}

int main(int argc, char** argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: Vudp_tx <mode> <frames> <size> [<size> ...]\n");
        return 1;
    }
    const int mode = atoi(argv[1]);
    const int nframes = atoi(argv[2]);
    Verilated::commandArgs(argc, argv);
    Vudp_tx* t = new Vudp_tx;
    t->cfg_mac = 0x020000000001ULL;
    t->cfg_ip = SRC_IP;
    t->cfg_ttl = 64;
    t->cfg_df = 1;
    t->arp_req_ready = 1;
    t->arp_resp_valid = 0;
    t->arp_resp_hit = 0;
    t->arp_resp_mac = 0;
    uint64_t cyc = 0;
    auto tick = [&]() {
        t->clk = 1;
        t->eval();
        t->clk = 0;
        t->eval();
        cyc++;
    };
    for (int a = 3; a < argc; a++) {
        const int len = atoi(argv[a]);
        const int beats = len ? (len + KW - 1) / KW : 1;
        t->rst = 1;
        t->s_hdr_valid = 0;
        t->s_axis_tvalid = 0;
        t->m_axis_tready = 0;
        t->clk = 0;
        t->eval();
        for (int i = 0; i < 4; i++) tick();
        t->rst = 0;
        tick();
        uint64_t c = 0;
        int hdr_sent = 0, pay_sent = 0, beat = 0, got = 0, bad = 0;
        LineModel line(KW);
        while (got < nframes) {
            // application: header n, then payload n once header n was taken
            t->s_hdr_valid = hdr_sent < nframes;
            t->s_hdr_dst_mac = 0x0A1B2C3D4E5FULL;
            t->s_hdr_dst_mac_valid = 1;
            t->s_hdr_dst_ip = DST_IP;
            t->s_hdr_dst_port = DPORT;
            t->s_hdr_src_port = SPORT;
            t->s_hdr_len = len;
            t->s_hdr_csum = 0x1234;
            t->s_hdr_csum_mode = mode;
            bool pv = pay_sent < hdr_sent;
            uint64_t d = 0;
            int nb = len ? ((beat + 1) * KW <= len ? KW : len - beat * KW) : 0;
            for (int i = 0; i < nb; i++) d |= (uint64_t)pay_byte(pay_sent, beat * KW + i) << (8 * i);
            t->s_axis_tvalid = pv;
            t->s_axis_tdata = d;
            t->s_axis_tkeep = (uint8_t)((1u << nb) - 1);
            t->s_axis_tlast = beat == beats - 1;
            t->s_axis_tuser = 0;
            // MAC: takes a beat whose bytes leave during the next cycle
            bool ready = line.ready(c);
            t->m_axis_tready = ready;
            t->eval();
            bool hfire = t->s_hdr_valid && t->s_hdr_ready;
            bool pfire = pv && t->s_axis_tready;
            bool mv = t->m_axis_tvalid;
            uint64_t md = t->m_axis_tdata;
            int mk = t->m_axis_tkeep, ml = t->m_axis_tlast;
            tick();
            if (hfire) hdr_sent++;
            if (pfire) {
                if (++beat == beats) {
                    beat = 0;
                    pay_sent++;
                }
            }
            if (ready && line.step(c, mv, md, (unsigned)mk, ml)) {
                const std::vector<uint8_t>& frame = line.frame;
                bool ok = frame.size() == (size_t)(42 + len);
                if (ok) {
                    uint16_t uc = ((uint16_t)frame[40] << 8) | frame[41];
                    ok = uc == (mode == 1 ? udp_csum(frame) : mode == 2 ? 0x1234 : 0);
                    for (int i = 0; ok && i < len; i++) ok = frame[42 + i] == pay_byte(got, i);
                }
                bad += !ok;
                got++;
            }
            c++;
            if (c > (uint64_t)nframes * (len + 200) * 8 + 100000) {
                fprintf(stderr, "stalled at size %d: %d of %d frames\n", len, got, nframes);
                return 2;
            }
        }
        uint64_t fb = 42 + len + 4;
        uint64_t wire_bytes = (uint64_t)nframes * (8 + (fb < 64 ? 64 : fb) + 12);
        printf("%d %d %llu %llu %llu %d %d\n", len, nframes, (unsigned long long)wire_bytes,
               (unsigned long long)(line.last_end - line.first_start),
               (unsigned long long)line.max_idle, line.underflows, bad);
        fflush(stdout);
    }
    delete t;
    return 0;
}
