// stack_fuzz: Verilator driver of udp_stack for the receive-path fuzz test.
//
// Usage: Vudp_stack <frames.bin> <out.txt> <seed> [<datagrams to send per port>]
// frames.bin: records of [u16 length, little-endian][u8 flags: bit 0 = MAC error][bytes].
// The frames enter s_axis (MAC user side) with random idle cycles between beats; every
// output (UDP ports, raw channel, MAC transmit side) is consumed with random tready and
// hdr_ready. Meanwhile each UDP transmit port sends datagrams of its own (1..300 bytes,
// destination MAC given, random gaps in the payload) while the input frames last.
// out.txt gets one line per received item, then the counters:
//   U <port> <tuser> <src_mac> <src_ip> <src_port> <dst_port> <len> <payload hex>
//   R <tuser> <dst_mac> <src_mac> <payload hex>
//   S <port> <dst_mac> <dst_ip> <dst_port> <payload hex>   (a datagram asked to be sent)
//   X <tuser> <frame hex>                                   (a frame on the MAC side)
//   T <frames sent on the MAC transmit side>
//   C <counter name> <value>
// Exit status 2 (and a line "HANG ...") if the stack stops taking input or does not go
// idle after the last frame.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Vudp_stack.h"
#include "verilated.h"

#ifndef DATA_W
#define DATA_W 8
#endif
static const int KW = DATA_W / 8;
#ifndef NP
#define NP 2  // NUM_PORTS: port p listens on and sends from 5000 + 1000 * p
#endif
static const int NEV = 43 + 5 * NP;  // udp_stack's cnt_ev bits
static uint64_t ev_n[NEV];             // their events, counted by the driver

template <typename T>
static uint64_t bits(const T& v, int lsb, int w) {
    uint64_t x = (uint64_t)v >> lsb;
    return w >= 64 ? x : (x & ((1ULL << w) - 1));
}
template <std::size_t N>
static uint64_t bits(const VlWide<N>& v, int lsb, int w) {
    uint64_t r = 0;
    for (int i = 0; i < w; i++) {
        int b = lsb + i;
        if ((v[b / 32] >> (b % 32)) & 1U) r |= 1ULL << i;
    }
    return r;
}

// write w bits of x at bit lsb of a Verilator port (scalar or wide)
template <typename T>
static void put(T& v, int lsb, int w, uint64_t x) {
    uint64_t m = (w >= 64 ? ~0ULL : ((1ULL << w) - 1)) << lsb;
    v = (T)(((uint64_t)v & ~m) | ((x << lsb) & m));
}
template <std::size_t N>
static void put(VlWide<N>& v, int lsb, int w, uint64_t x) {
    for (int i = 0; i < w; i++) {
        int b = lsb + i;
        uint32_t m = 1U << (b % 32);
        if ((x >> i) & 1) v[b / 32] |= m;
        else v[b / 32] &= ~m;
    }
}

static uint64_t rng_state = 1;
static uint32_t rnd() {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

struct Frame {
    std::vector<uint8_t> data;
    bool bad;
};

struct TxPort {
    int st = 0;  // 0 idle, 1 header offered, 2 payload
    uint64_t mac = 0;
    uint32_t ip = 0;
    uint32_t dport = 0;
    std::vector<uint8_t> pay;
    size_t off = 0;
    bool beat = false;  // a payload beat is offered
    long sent = 0;
};

struct Rx {
    bool in = false;
    std::string hdr;
    std::vector<uint8_t> data;
    int hdrs = 0, pkts = 0;
    std::vector<std::string> pending;  // headers taken, payload not yet finished
};

static std::string hex(const std::vector<uint8_t>& d) {
    static const char* h = "0123456789abcdef";
    std::string s;
    s.reserve(d.size() * 2 + 1);
    for (uint8_t b : d) {
        s += h[b >> 4];
        s += h[b & 15];
    }
    if (s.empty()) s = "-";
    return s;
}

int main(int argc, char** argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s frames.bin out.txt seed\n", argv[0]);
        return 1;
    }
    rng_state = strtoull(argv[3], nullptr, 0) | 1;
    const long n_tx = argc > 4 ? strtol(argv[4], nullptr, 0) : 0;
    FILE* fi = fopen(argv[1], "rb");
    if (!fi) {
        perror(argv[1]);
        return 1;
    }
    std::vector<Frame> frames;
    for (;;) {
        uint8_t h[3];
        if (fread(h, 1, 3, fi) != 3) break;
        Frame f;
        f.data.resize(h[0] | (h[1] << 8));
        f.bad = h[2] & 1;
        if (fread(f.data.data(), 1, f.data.size(), fi) != f.data.size()) break;
        frames.push_back(f);
    }
    fclose(fi);
    FILE* fo = fopen(argv[2], "w");
    if (!fo) {
        perror(argv[2]);
        return 1;
    }

    Vudp_stack* t = new Vudp_stack;
    t->cfg_mac = 0x020000000001ULL;
    t->cfg_ip = 0xC0000201;       // 192.0.2.1
    t->cfg_netmask = 0xFFFFFF00;  // /24
    t->cfg_gateway = 0xC00002FE;
    t->cfg_ttl = 64;
    t->cfg_df = 0;
    t->cfg_raw_ethertype = 0x88B5;
    uint64_t ports = 0, modes = 0;
    for (int p = 0; p < NP; p++) {
        ports |= (uint64_t)(5000 + 1000 * p) << (16 * p);
        if (p) modes |= 1ULL << (2 * p);  // port 0 checksum 0, the others computed
    }
    t->cfg_udp_port = ports;
    t->cfg_udp_csum_mode = modes;
    t->cfg_unreach_per_ms = 255;  // no tick: 255 port-unreachable messages, then none
    t->cfg_arp_answer = 1;        // every run-time enable on (NET.ENABLES)
    t->cfg_icmp_answer = 1;
    t->cfg_udp_csum_check = 1;
    t->cfg_raw_en = 1;
    t->tick_1ms = 0;
    t->s_udp_tx_hdr_valid = 0;
    t->s_udp_tx_axis_tvalid = 0;
    t->s_raw_tx_hdr_valid = 0;
    t->s_raw_tx_axis_tvalid = 0;
    t->s_axis_tvalid = 0;
    t->rst = 1;
    t->clk = 0;
    for (int i = 0; i < 8; i++) {
        t->clk = !t->clk;
        t->eval();
    }
    t->rst = 0;

    Rx port[NP], raw;
    TxPort txp[NP];
    std::vector<uint8_t> tx;  // the transmitted frame being collected
    uint64_t tx_frames = 0, cycles = 0, stall = 0;
    size_t fi_idx = 0, off = 0;
    bool have_beat = false;
    int quiet = 0;

    while (true) {
        // drive inputs for this cycle (before the rising edge)
        if (!have_beat && fi_idx < frames.size() && (rnd() % 8) != 0) {
            const Frame& f = frames[fi_idx];
            uint64_t d = 0, k = 0;
            int n = 0;
            for (; n < KW && off + n < f.data.size(); n++) {
                d |= (uint64_t)f.data[off + n] << (8 * n);
                k |= 1ULL << n;
            }
            t->s_axis_tdata = d;
            t->s_axis_tkeep = k;
            t->s_axis_tlast = (off + n >= f.data.size());
            t->s_axis_tuser = f.bad && t->s_axis_tlast;
            t->s_axis_tvalid = 1;
            have_beat = true;
        }
        if (!have_beat) t->s_axis_tvalid = 0;
        // the UDP transmit ports: a new datagram now and then while the input lasts, its
        // header, then its payload with random gaps (flattened ports, one slice each)
        uint32_t hv = 0, tv = 0, tl = 0;
        for (int p = 0; p < NP; p++) {
            TxPort& q = txp[p];
            if (q.st == 0 && q.sent < n_tx && fi_idx < frames.size() && rnd() % 48 == 0) {
                q.mac = (((uint64_t)rnd() << 16) ^ rnd()) & 0xFEFFFFFFFFFFULL;
                q.ip = 0xC6336400U | (rnd() & 0xFF);  // 198.51.100.x
                q.dport = rnd() & 0xFFFF;
                q.pay.resize(1 + rnd() % 300);
                for (auto& b : q.pay) b = rnd() & 0xFF;
                q.off = 0;
                q.beat = false;
                q.st = 1;
                q.sent++;
                fprintf(fo, "S %d %012llx %08x %u %s\n", p, (unsigned long long)q.mac, q.ip,
                        q.dport, hex(q.pay).c_str());
            }
            if (q.st == 2 && !q.beat && rnd() % 4 != 0) q.beat = true;
            if (q.st == 1) hv |= 1U << p;
            if (q.st == 2 && q.beat) {
                tv |= 1U << p;
                if (q.off + KW >= q.pay.size()) tl |= 1U << p;
            }
        }
        t->s_udp_tx_hdr_valid = hv;
        t->s_udp_tx_hdr_dst_mac_valid = (1U << NP) - 1;
        t->s_udp_tx_hdr_csum = 0;
        t->s_udp_tx_axis_tvalid = tv;
        t->s_udp_tx_axis_tlast = tl;
        t->s_udp_tx_axis_tuser = 0;
        for (int p = 0; p < NP; p++) {
            const TxPort& q = txp[p];
            put(t->s_udp_tx_hdr_dst_mac, 48 * p, 48, q.mac);
            put(t->s_udp_tx_hdr_dst_ip, 32 * p, 32, q.ip);
            put(t->s_udp_tx_hdr_dst_port, 16 * p, 16, q.dport);
            put(t->s_udp_tx_hdr_src_port, 16 * p, 16, 5000 + 1000 * p);
            put(t->s_udp_tx_hdr_len, 16 * p, 16, q.pay.size());
            uint64_t d = 0, k = 0;
            if (q.st == 2 && q.beat) {
                for (int n = 0; n < KW && q.off + n < q.pay.size(); n++) {
                    d |= (uint64_t)q.pay[q.off + n] << (8 * n);
                    k |= 1ULL << n;
                }
            }
            put(t->s_udp_tx_axis_tdata, DATA_W * p, DATA_W, d);
            put(t->s_udp_tx_axis_tkeep, KW * p, KW, k);
        }
        uint32_t r = rnd();
        // each consumer is ready 3 cycles in 4 (independently)
        if (NP == 2) {
            t->m_udp_rx_axis_tready = (((r & 3) != 0) ? 1 : 0) | ((((r >> 2) & 3) != 0) ? 2 : 0);
            t->m_udp_rx_hdr_ready = (((r >> 4) & 3) != 0 ? 1 : 0) | (((r >> 6) & 3) != 0 ? 2 : 0);
        } else {
            uint32_t r2 = rnd(), a = 0, h = 0;
            for (int p = 0; p < NP; p++) {
                a |= (((r2 >> (4 * p)) & 3) != 0 ? 1U : 0U) << p;
                h |= (((r2 >> (4 * p + 2)) & 3) != 0 ? 1U : 0U) << p;
            }
            t->m_udp_rx_axis_tready = a;
            t->m_udp_rx_hdr_ready = h;
        }
        t->m_raw_rx_axis_tready = ((r >> 8) & 3) != 0;
        t->m_raw_rx_hdr_ready = ((r >> 10) & 3) != 0;
        t->m_axis_tready = ((r >> 12) & 3) != 0;
        t->clk = 0;
        t->eval();
        // sample handshakes at the edge
        bool in_hs = t->s_axis_tvalid && t->s_axis_tready;
        bool any_out = false;
        bool tx_hdr_hs[NP], tx_beat_hs[NP];
        for (int p = 0; p < NP; p++) {
            tx_hdr_hs[p] = bits(t->s_udp_tx_hdr_valid, p, 1) && bits(t->s_udp_tx_hdr_ready, p, 1);
            tx_beat_hs[p] =
                bits(t->s_udp_tx_axis_tvalid, p, 1) && bits(t->s_udp_tx_axis_tready, p, 1);
            any_out = any_out || tx_hdr_hs[p] || tx_beat_hs[p];
        }
        for (int p = 0; p < NP; p++) {
            if (bits(t->m_udp_rx_hdr_valid, p, 1) && bits(t->m_udp_rx_hdr_ready, p, 1)) {
                char b[160];
                snprintf(b, sizeof b, "%012llx %08llx %llu %llu %llu",
                         (unsigned long long)bits(t->m_udp_rx_hdr_src_mac, 48 * p, 48),
                         (unsigned long long)bits(t->m_udp_rx_hdr_src_ip, 32 * p, 32),
                         (unsigned long long)bits(t->m_udp_rx_hdr_src_port, 16 * p, 16),
                         (unsigned long long)bits(t->m_udp_rx_hdr_dst_port, 16 * p, 16),
                         (unsigned long long)bits(t->m_udp_rx_hdr_len, 16 * p, 16));
                port[p].pending.push_back(b);
                any_out = true;
            }
            if (bits(t->m_udp_rx_axis_tvalid, p, 1) && bits(t->m_udp_rx_axis_tready, p, 1)) {
                if (port[p].pending.empty()) {
                    fprintf(fo, "ERROR payload before header on port %d\n", p);
                    fclose(fo);
                    return 3;
                }
                uint64_t d = bits(t->m_udp_rx_axis_tdata, DATA_W * p, DATA_W);
                uint64_t k = bits(t->m_udp_rx_axis_tkeep, KW * p, KW);
                for (int i = 0; i < KW; i++)
                    if ((k >> i) & 1) port[p].data.push_back((d >> (8 * i)) & 0xFF);
                if (bits(t->m_udp_rx_axis_tlast, p, 1)) {
                    fprintf(fo, "U %d %d %s %s\n", p, (int)bits(t->m_udp_rx_axis_tuser, p, 1),
                            port[p].pending.front().c_str(), hex(port[p].data).c_str());
                    port[p].pending.erase(port[p].pending.begin());
                    port[p].data.clear();
                }
                any_out = true;
            }
        }
        if (t->m_raw_rx_hdr_valid && t->m_raw_rx_hdr_ready) {
            char b[64];
            snprintf(b, sizeof b, "%012llx %012llx", (unsigned long long)t->m_raw_rx_hdr_dst_mac,
                     (unsigned long long)t->m_raw_rx_hdr_src_mac);
            raw.pending.push_back(b);
            any_out = true;
        }
        if (t->m_raw_rx_axis_tvalid && t->m_raw_rx_axis_tready) {
            if (raw.pending.empty()) {
                fprintf(fo, "ERROR raw payload before header\n");
                fclose(fo);
                return 3;
            }
            uint64_t d = t->m_raw_rx_axis_tdata, k = t->m_raw_rx_axis_tkeep;
            for (int i = 0; i < KW; i++)
                if ((k >> i) & 1) raw.data.push_back((d >> (8 * i)) & 0xFF);
            if (t->m_raw_rx_axis_tlast) {
                fprintf(fo, "R %d %s %s\n", (int)t->m_raw_rx_axis_tuser,
                        raw.pending.front().c_str(), hex(raw.data).c_str());
                raw.pending.erase(raw.pending.begin());
                raw.data.clear();
            }
            any_out = true;
        }
        if (t->m_axis_tvalid && t->m_axis_tready) {
            uint64_t d = t->m_axis_tdata, k = t->m_axis_tkeep;
            for (int i = 0; i < KW; i++)
                if ((k >> i) & 1) tx.push_back((d >> (8 * i)) & 0xFF);
            if (t->m_axis_tlast) {
                fprintf(fo, "X %d %s\n", (int)t->m_axis_tuser, hex(tx).c_str());
                tx.clear();
                tx_frames++;
            }
            any_out = true;
        }
        // the stack's event strobes, counted as stat_counters counts them (before the edge)
        for (int k = 0; k < NEV; k++) ev_n[k] += bits(t->cnt_ev, k, 1);
        t->clk = 1;
        t->eval();
        cycles++;
        bool tx_busy = false;
        for (int p = 0; p < NP; p++) {
            TxPort& q = txp[p];
            if (tx_hdr_hs[p]) q.st = 2;
            if (tx_beat_hs[p]) {
                q.off += KW;
                q.beat = false;
                if (q.off >= q.pay.size()) q.st = 0;
            }
            tx_busy = tx_busy || q.st != 0;
        }
        if (in_hs) {
            off += KW;
            have_beat = false;
            if (off >= frames[fi_idx].data.size()) {
                fi_idx++;
                off = 0;
            }
            stall = 0;
        } else if (have_beat) {
            if (++stall > 200000) {
                fprintf(fo, "HANG input not taken at frame %zu\n", fi_idx);
                fclose(fo);
                return 2;
            }
        }
        if (fi_idx >= frames.size()) {
            quiet = any_out ? 0 : quiet + 1;
            if (quiet > 5000 && !tx_busy) break;
            if (quiet > 200000) {
                fprintf(fo, "HANG a UDP transmit port not served\n");
                fclose(fo);
                return 2;
            }
            if (cycles > 4000000000ULL) break;
        }
    }
    fprintf(fo, "T %llu\n", (unsigned long long)tx_frames);
    // udp_stack's cnt_ev bits (EV_ETH 0, EV_IP 4, EV_UDP_RX 13, EV_ICMP 20, EV_ARP 26, EV_TX 40)
    static const struct { const char* name; int bit; } ev_out[] = {
        {"eth_rx_frames", 0}, {"eth_bad_mac", 1}, {"eth_bad_ethertype", 2}, {"eth_runt", 3},
        {"ip_rx_packets", 4}, {"ip_runt", 5}, {"ip_bad_hdr", 6}, {"ip_bad_csum", 7},
        {"ip_bad_len", 8}, {"ip_not_for_us", 9}, {"ip_fragment", 10}, {"ip_bad_proto", 11},
        {"ip_truncated", 12}, {"udp_rx_datagrams", 13}, {"udp_bad_len", 14},
        {"udp_closed_port", 15}, {"udp_bad_csum", 16}, {"udp_err_in", 17},
        {"udp_oversize", 18}, {"icmp_replies", 20}, {"icmp_aborted", 21},
        {"icmp_dropped", 22}, {"icmp_bad_csum", 23}, {"tx_frames", 40},
        {"icmp_unreach_sent", 24}, {"icmp_unreach_dropped", 25}, {"arp_req_rx", 26},
        {"arp_malformed", 31}, {"arp_reply_tx", 27}, {"arp_rx_overrun", 32}};
    for (const auto& e : ev_out)
        fprintf(fo, "C %s %llu\n", e.name, (unsigned long long)ev_n[e.bit]);
    fprintf(fo, "CYCLES %llu\n", (unsigned long long)cycles);
    fclose(fo);
    delete t;
    return 0;
}
