// stack_rx_tb: Verilator driver of udp_stack for bench/stack_rx.py (receive goodput and
// latency) and bench/stack_duplex.py (both directions at once). For each UDP payload size
// given on the command line it sends a batch of frames (valid UDP/IPv4 with checksums, to
// application port 0) on s_axis, each offered at its line-rate slot (the bytes of a frame
// plus FCS, preamble and inter-frame gap at one byte per byte-time, DATA_W/8 bytes per
// cycle), with the receive consumers always ready, checks every datagram delivered (payload
// byte for byte, tuser clear), and prints one line per size:
//   <payload> <frames> <ideal_cycles> <measured_cycles> <lat_first> <lat_last> <in_stall>
// ideal_cycles: line-rate time of frames 1..N-1; measured_cycles: between the ends of
// the first and the last datagram on the application port; lat_first: cycles from the
// first frame byte in to the first payload byte out (first frame, idle stack);
// lat_last: from the frame's last byte in to the datagram's last byte out; in_stall:
// cycles the stack held off a beat the MAC side offered.
// With -d (duplex) the application port also transmits, at the same time, as many
// datagrams of the same size back to back to the peer (checksum mode 1: computed by the
// stack), resolved through the ARP cache (primed by the peer's ARP request at start), into
// a cycle-exact MAC model on m_axis (a beat's bytes leave DATA_W/8 per byte-time, then
// padding to 60 bytes, FCS 4, inter-frame gap 12 and the next preamble 8; the MAC takes a
// beat only when the line can send it), and the line gets 6 more fields:
//   <tx_line_bytes> <tx_busy_bytes> <tx_max_idle> <tx_underflows> <tx_bad> <rx_bad>
// tx_line_bytes: the frames' wire time at line rate; tx_busy_bytes: byte times from the
// first frame's start to the last one's end; tx_max_idle: longest idle beyond the gap;
// tx_underflows: cycles the MAC wanted a beat mid-frame and had none; tx_bad: frames with a
// wrong destination MAC, header, checksum or payload; rx_bad: datagrams delivered wrong.
// With -t (transmit only) the same without the received frames (the receive fields are 0).
// Without -d or -t a wrong datagram makes the driver fail (exit 3).
// Usage: Vudp_stack [-d|-t] <frames per size> <size> [<size> ...]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Vudp_stack.h"
#include "line_model.h"
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

static const uint64_t OUR_MAC = 0x020000000001ULL, PEER_MAC = 0x020000000099ULL;
static const uint32_t OUR_IP = 0xC0000201u, PEER_IP = 0xC000024Du;
static const int OUR_PORT = 5000, PEER_PORT = 12345;

static uint8_t rx_byte(int seq, int i) { return (uint8_t)(i * 7 + seq); }
static uint8_t tx_byte(int seq, int i) { return (uint8_t)(i * 13 + seq * 5 + 3); }

// The peer's ARP request for our address (primes the cache: the stack learns the peer).
static std::vector<uint8_t> arp_request() {
    std::vector<uint8_t> f = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0, 0, 0, 0, 0x99,
                              0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1, 0x02, 0, 0, 0, 0, 0x99,
                              192, 0, 2, 77, 0, 0, 0, 0, 0, 0, 192, 0, 2, 1};
    while (f.size() < 60) f.push_back(0);
    return f;
}

// A transmitted frame as the stack must send it: to the peer's MAC, IPv4 header checksum
// right, UDP from our port to the peer's, checksum computed, payload tx_byte(seq, .).
static bool tx_frame_ok(const std::vector<uint8_t>& f, int payload, int seq) {
    if (f.size() != (size_t)(42 + payload)) return false;
    for (int i = 0; i < 6; i++) {
        if (f[i] != (uint8_t)(PEER_MAC >> (8 * (5 - i)))) return false;
        if (f[6 + i] != (uint8_t)(OUR_MAC >> (8 * (5 - i)))) return false;
    }
    if (f[12] != 0x08 || f[13] != 0x00 || f[14] != 0x45 || f[23] != 17) return false;
    if ((((int)f[16] << 8) | f[17]) != 28 + payload) return false;
    if (fold(csum_add(0, f, 14, 20)) != 0) return false;
    for (int i = 0; i < 4; i++) {
        if (f[26 + i] != (uint8_t)(OUR_IP >> (8 * (3 - i)))) return false;
        if (f[30 + i] != (uint8_t)(PEER_IP >> (8 * (3 - i)))) return false;
    }
    int ulen = 8 + payload;
    if ((((int)f[34] << 8) | f[35]) != OUR_PORT || (((int)f[36] << 8) | f[37]) != PEER_PORT)
        return false;
    if ((((int)f[38] << 8) | f[39]) != ulen) return false;
    uint32_t ph = (OUR_IP >> 16) + (OUR_IP & 0xFFFF) + (PEER_IP >> 16) + (PEER_IP & 0xFFFF) + 17;
    if (f[40] == 0 && f[41] == 0) return false;  // mode 1: a checksum, never "none"
    if (fold(csum_add(ph + ulen, f, 34, ulen)) != 0) return false;
    for (int i = 0; i < payload; i++)
        if (f[42 + i] != tx_byte(seq, i)) return false;
    return true;
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
    for (int i = 0; i < payload; i++) f.push_back(rx_byte(seq, i));
    uint32_t s = 0xC000 + 0x024D + 0xC000 + 0x0201 + 17 + ulen;
    uint16_t uc = fold(csum_add(s, f, 34, ulen));
    if (uc == 0) uc = 0xFFFF;
    f[40] = uc >> 8;
    f[41] = uc & 0xFF;
    while (f.size() < 60) f.push_back(0);
    return f;
}

// Drive s_axis with the beat of frame f at byte offset off (tvalid apart).
static void put_beat(Vudp_stack* t, const std::vector<uint8_t>& f, size_t off) {
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

int main(int argc, char** argv) {
    int argi = 1;
    const bool tx_only = argc > 1 && strcmp(argv[1], "-t") == 0;
    const bool duplex = tx_only || (argc > 1 && strcmp(argv[1], "-d") == 0);
    if (duplex) argi++;
    if (argc < argi + 2) {
        fprintf(stderr, "usage: %s [-d|-t] frames size...\n", argv[0]);
        return 1;
    }
    int nfr = atoi(argv[argi]);
    Vudp_stack* t = new Vudp_stack;
    t->cfg_mac = OUR_MAC;
    t->cfg_ip = OUR_IP;
    t->cfg_netmask = 0xFFFFFF00;
    t->cfg_gateway = 0xC00002FE;
    t->cfg_ttl = 64;
    t->cfg_df = 0;
    t->cfg_raw_ethertype = 0x88B5;
    t->cfg_udp_port = OUR_PORT;
    t->cfg_udp_csum_mode = duplex ? 1 : 0;
    t->cfg_arp_answer = 1;  // the run-time enables on
    t->cfg_icmp_answer = 1;
    t->cfg_udp_csum_check = 1;
    t->cfg_raw_en = 1;
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
    auto run_idle = [&](int n) {
        for (int i = 0; i < n; i++) {
            t->clk = 0;
            t->eval();
            t->clk = 1;
            t->eval();
            cyc++;
        }
    };
    if (duplex) {
        // the peer's ARP request, then everything the stack sends (gratuitous ARP, the
        // reply) taken until the reply has gone: the peer is then in the cache
        std::vector<uint8_t> req = arp_request();
        size_t off = 0;
        int replies = 0;  // ARP's reply_tx strobe (udp_stack cnt_ev bit EV_ARP + 1 = 27)
        for (int i = 0; i < 5000 && replies == 0; i++) {
            bool offer = off < req.size();
            if (offer) put_beat(t, req, off);
            t->s_axis_tvalid = offer;
            t->clk = 0;
            t->eval();
            replies += (t->cnt_ev >> 27) & 1;
            bool hs = offer && t->s_axis_tready;
            t->clk = 1;
            t->eval();
            if (hs) off += KW;
            cyc++;
        }
        t->s_axis_tvalid = 0;
        run_idle(200);
        if (replies == 0 || t->m_axis_tvalid) {
            fprintf(stderr, "the stack did not answer the peer's ARP request\n");
            return 2;
        }
    }
    for (int a = argi + 1; a < argc; a++) {
        int payload = atoi(argv[a]);
        std::vector<std::vector<uint8_t>> frames;
        for (int k = 0; k < nfr; k++) frames.push_back(make_frame(payload, k));
        int wire = (int)frames[0].size() + 4 + 8 + 12;  // + FCS, preamble/SFD, IFG
        uint64_t t0 = cyc + 4;
        size_t fi = 0, off = 0;
        uint64_t stall = 0, first_in = 0, last_in0 = 0, first_out = 0, last_out0 = 0;
        std::vector<uint64_t> ends;
        bool seen_first = false;
        int done = 0, idle = 0, rx_bad = 0, rx_off = 0;
        bool rx_wrong = false;
        // transmit side (duplex): application and MAC line model
        const int beats = payload ? (payload + KW - 1) / KW : 1;
        int hdr_sent = 0, pay_sent = 0, beat = 0, got = 0, tx_bad = 0;
        LineModel line(KW);
        const int tx_total = duplex ? nfr : 0;
        const int rx_total = tx_only ? 0 : nfr;
        if (tx_only) fi = frames.size();
        while (done < rx_total || got < tx_total) {
            // frame fi may start at its line-rate slot
            uint64_t slot = t0 + ((uint64_t)fi * wire + KW - 1) / KW;
            bool offer = fi < frames.size() && (off > 0 || cyc >= slot);
            if (offer) put_beat(t, frames[fi], off);
            t->s_axis_tvalid = offer;
            bool pv = false, mready = true;
            if (duplex) {
                // application: header n, then payload n once header n was taken
                t->s_udp_tx_hdr_valid = hdr_sent < nfr;
                t->s_udp_tx_hdr_dst_mac = 0;
                t->s_udp_tx_hdr_dst_mac_valid = 0;
                t->s_udp_tx_hdr_dst_ip = PEER_IP;
                t->s_udp_tx_hdr_dst_port = PEER_PORT;
                t->s_udp_tx_hdr_src_port = OUR_PORT;
                t->s_udp_tx_hdr_len = payload;
                t->s_udp_tx_hdr_csum = 0;
                pv = pay_sent < hdr_sent;
                uint64_t d = 0;
                int nb = payload ? ((beat + 1) * KW <= payload ? KW : payload - beat * KW) : 0;
                for (int i = 0; i < nb; i++)
                    d |= (uint64_t)tx_byte(pay_sent, beat * KW + i) << (8 * i);
                t->s_udp_tx_axis_tvalid = pv;
                t->s_udp_tx_axis_tdata = d;
                t->s_udp_tx_axis_tkeep = (uint8_t)((1u << nb) - 1);
                t->s_udp_tx_axis_tlast = beat == beats - 1;
                t->s_udp_tx_axis_tuser = 0;
                // MAC: takes a beat whose bytes leave during the next cycle
                mready = line.ready(cyc);
                t->m_axis_tready = mready;
            }
            t->clk = 0;
            t->eval();
            bool in_hs = offer && t->s_axis_tready;
            if (offer && !t->s_axis_tready) stall++;
            if ((t->m_udp_rx_axis_tvalid & 1) && (t->m_udp_rx_axis_tready & 1)) {
                if (!seen_first) {
                    first_out = cyc;
                    seen_first = true;
                }
                uint64_t d = t->m_udp_rx_axis_tdata;
                for (int n = 0; n < KW; n++) {
                    if (!((t->m_udp_rx_axis_tkeep >> n) & 1)) continue;
                    if (rx_off >= payload || (uint8_t)(d >> (8 * n)) != rx_byte(done, rx_off))
                        rx_wrong = true;
                    rx_off++;
                }
                if (t->m_udp_rx_axis_tlast & 1) {
                    if ((t->m_udp_rx_axis_tuser & 1) || rx_off != payload || rx_wrong) rx_bad++;
                    rx_off = 0;
                    rx_wrong = false;
                    ends.push_back(cyc);
                    if (done == 0) last_out0 = cyc;
                    done++;
                }
                idle = 0;
            } else if (++idle > 100000 && !tx_only) {
                fprintf(stderr, "no output for 100000 cycles at payload %d\n", payload);
                return 2;
            }
            bool hfire = duplex && t->s_udp_tx_hdr_valid && t->s_udp_tx_hdr_ready;
            bool pfire = pv && t->s_udp_tx_axis_tready;
            bool mv = t->m_axis_tvalid;
            uint64_t md = t->m_axis_tdata;
            int mk = t->m_axis_tkeep, ml = t->m_axis_tlast;
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
            if (hfire) hdr_sent++;
            if (pfire && ++beat == beats) {
                beat = 0;
                pay_sent++;
            }
            if (duplex && mready && line.step(cyc, mv, md, (unsigned)mk, ml)) {
                tx_bad += !tx_frame_ok(line.frame, payload, got);
                got++;
            }
            cyc++;
            if (cyc > t0 + (uint64_t)nfr * (payload + 200) * 16 + 100000) {
                fprintf(stderr, "stalled at payload %d: %d of %d received, %d of %d sent\n",
                        payload, done, nfr, got, tx_total);
                return 2;
            }
        }
        // ideal: frames 1..N-1 at line rate (byte-times / bytes per cycle)
        double ideal = (double)(nfr - 1) * wire / KW;
        printf("%d %d %.2f %llu %llu %llu %llu", payload, nfr, ideal,
               (unsigned long long)(ends.empty() ? 0 : ends.back() - ends.front()),
               (unsigned long long)(first_out - first_in),
               (unsigned long long)(last_out0 - last_in0), (unsigned long long)stall);
        if (duplex) {
            uint64_t fb = 42 + payload + 4;
            uint64_t wire_bytes = (uint64_t)nfr * (8 + (fb < 64 ? 64 : fb) + 12);
            printf(" %llu %llu %llu %d %d %d", (unsigned long long)wire_bytes,
                   (unsigned long long)(line.last_end - line.first_start),
                   (unsigned long long)line.max_idle, line.underflows, tx_bad, rx_bad);
        } else if (rx_bad) {
            fprintf(stderr, "%d datagrams delivered wrong at payload %d\n", rx_bad, payload);
            return 3;
        }
        printf("\n");
        fflush(stdout);
        t->s_udp_tx_hdr_valid = 0;
        t->s_udp_tx_axis_tvalid = 0;
        t->m_axis_tready = 1;
        run_idle(200);
    }
    delete t;
    return 0;
}
