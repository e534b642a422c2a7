// Verilator driver for eth_mac_gmii (and eth_mac_mii, built with -DMAC_MII): every frame
// size, line-rate timing and fuzzing.
//
// The reference is independent of the RTL: frames, FCS (a table CRC-32) and expected
// outcomes are computed here, byte by byte.
//
//   sweep  : every frame length 14..1514 (payload 0..1500) and jumbo lengths, through
//            TX and RX at once, back to back at the minimum gap. TX: each wire frame is
//            7 x 0x55, 0xD5, the padded frame, its FCS, then exactly 12 idle cycles.
//            RX: every frame comes out whole, unflagged. Line-rate fraction per
//            direction = ideal cycles / measured cycles between first and last start.
//   fuzz N [SEED] : N random frames each way. RX: random preamble (0..7 bytes 0x55 before the
//            SFD), random gap (1..20 idle cycles) and one of good / bit flip / rx_er /
//            runt / oversize / no SFD. TX: random idle time, random tuser aborts and
//            underflows. Every output frame and every counter is checked exactly.
//
// Prints one line "RESULT {json}" and exits 0 when every check passed, 1 otherwise.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "verilated.h"

// Built for eth_mac_gmii by default, for eth_mac_mii with -DMAC_MII: the wire then
// carries nibbles (low first), two symbols per byte, and preambles are drawn in nibbles.
#ifdef MAC_MII
#include "Veth_mac_mii.h"
typedef Veth_mac_mii Top;
#define TXCLK mii_tx_clk
#define RXCLK mii_rx_clk
#define RXD mii_rxd
#define RXDV mii_rx_dv
#define RXER mii_rx_er
#define TXD mii_txd
#define TXEN mii_tx_en
#define TXER mii_tx_er
static const int NPB = 2;  // wire symbols per byte
#else
#include "Veth_mac_gmii.h"
typedef Veth_mac_gmii Top;
#define TXCLK tx_clk
#define RXCLK rx_clk
#define RXD gmii_rxd
#define RXDV gmii_rx_dv
#define RXER gmii_rx_er
#define TXD gmii_txd
#define TXEN gmii_tx_en
#define TXER gmii_tx_er
static const int NPB = 1;
#endif

typedef std::vector<uint8_t> Bytes;

// The MAC's event strobes (cnt_ev: 0 tx_frames, 1 tx_bytes, 2 tx_underflow, 3 tx_abort,
// 4 rx_frames, 5 rx_bytes, 6 rx_bad_fcs, 7 rx_runt, 8 rx_oversize, 9 rx_er) counted as
// stat_counters counts them: sampled before each rising edge, the bytes adding cnt_ev_len.
static uint64_t ev_n[10];
template <class T>
static void count_events(const T* t) {
    uint32_t ev = t->cnt_ev;
    for (int b = 0; ev && b < 10; b++)
        if (ev >> b & 1)
            ev_n[b] += (b == 1) ? (t->cnt_ev_len & 0xFFFFu) : (b == 5) ? (t->cnt_ev_len >> 16) : 1;
}

static uint32_t crc_table[256];
static void crc_init() {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : (c >> 1);
        crc_table[i] = c;
    }
}
static uint32_t crc32(const Bytes& d) {
    uint32_t c = 0xFFFFFFFFu;
    for (uint8_t b : d) c = crc_table[(c ^ b) & 0xFF] ^ (c >> 8);
    return ~c;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd() {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}
static uint32_t rnd_range(uint32_t lo, uint32_t hi) { return lo + rnd() % (hi - lo + 1); }

static Bytes make_frame(size_t len) {
    Bytes f(len);
    for (size_t i = 0; i < len; i++) f[i] = (uint8_t)rnd();
    if (len >= 14) {
        const uint8_t hdr[14] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x88, 0xB5};
        memcpy(f.data(), hdr, 14);
    }
    return f;
}
static Bytes padded(const Bytes& f) {
    Bytes p = f;
    if (p.size() < 60) p.resize(60, 0);
    return p;
}
static Bytes with_fcs(const Bytes& body) {
    Bytes w = body;
    uint32_t c = crc32(body);
    for (int i = 0; i < 4; i++) w.push_back((uint8_t)(c >> (8 * i)));
    return w;
}

static int failures = 0;
#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond)) {                                     \
            if (failures < 20) {                           \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);              \
                fprintf(stderr, "\n");                     \
            }                                              \
            failures++;                                    \
        }                                                  \
    } while (0)

// One cycle on the GMII receive side.
struct RxSym {
    uint8_t d, dv, er;
};

// What the RX user side must show for one injected frame.
struct RxExpect {
    bool emitted;  // anything at all on m_axis
    bool bad;      // tuser on the last beat
    bool exact;    // data must equal `data` (else only a prefix of it, oversize)
    Bytes data;
};

// A TX user frame and how it is fed.
struct TxItem {
    Bytes data;
    bool abort;       // tuser on the last beat
    int underflow_at; // -1: none; else tvalid low before byte index
    int idle_before;  // cycles with tvalid low before the frame
};

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    crc_init();
    std::string mode = argc > 1 ? argv[1] : "sweep";
    int nfuzz = argc > 2 ? atoi(argv[2]) : 2000;
    if (argc > 3) rng_state ^= 0xD1B54A32D192ED03ull * (uint64_t)(atoi(argv[3]) + 1);
    const bool fuzz = (mode == "fuzz");
    const int max_len = fuzz ? 1518 : 9018;

    Top* t = new Top;

    // ---------------------------------------------------------------- build stimulus
    std::vector<TxItem> tx_items;
    std::vector<RxSym> rx_wire;
    std::deque<RxExpect> rx_expect;
    uint64_t exp_rx_frames = 0, exp_rx_bytes = 0, exp_bad_fcs = 0, exp_runt = 0,
             exp_oversize = 0, exp_rx_er = 0;
    std::vector<size_t> rx_lens;  // sweep: wire length of each RX frame (for line rate)

    auto add_idle = [&](int n) {
        for (int i = 0; i < n; i++) rx_wire.push_back({0, 0, 0});
    };
    auto add_byte = [&](uint8_t b, uint8_t er) {
        if (NPB == 1) {
            rx_wire.push_back({b, 1, er});
        } else {
            rx_wire.push_back({(uint8_t)(b & 0xF), 1, er});
            rx_wire.push_back({(uint8_t)(b >> 4), 1, er});
        }
    };
    // pre: 0x55 bytes before the SFD (GMII), or 0x5 nibbles before the 5, D pair (MII)
    auto add_rx = [&](const Bytes& wire_body, int pre, int er_at) {
        if (NPB == 1) {
            for (int i = 0; i < pre; i++) add_byte(0x55, 0);
        } else {
            for (int i = 0; i < pre; i++) rx_wire.push_back({5, 1, 0});
        }
        add_byte(0xD5, 0);
        for (size_t i = 0; i < wire_body.size(); i++)
            add_byte(wire_body[i], (uint8_t)((int)i == er_at));
    };

    if (!fuzz) {
        std::vector<size_t> lens;
        for (size_t l = 14; l <= 1514; l++) lens.push_back(l);
        lens.push_back(9014);
        lens.push_back(4000);
        lens.push_back(9014);
        for (size_t l : lens) {
            Bytes f = make_frame(l);
            tx_items.push_back({f, false, -1, 0});
            Bytes body = padded(f);
            add_rx(with_fcs(body), 7 * NPB, -1);
            add_idle(12 * NPB);
            rx_expect.push_back({true, false, true, body});
            rx_lens.push_back(body.size() + 4);
            exp_rx_frames++;
            exp_rx_bytes += body.size() + 4;
        }
    } else {
        add_idle(3);
        for (int k = 0; k < nfuzz; k++) {
            int kind = rnd_range(0, 99);
            int pre = NPB == 1 ? rnd_range(0, 7) : rnd_range(0, 15);
            if (kind < 50) {  // good
                Bytes body = padded(make_frame(rnd_range(14, 1514)));
                add_rx(with_fcs(body), pre, -1);
                rx_expect.push_back({true, false, true, body});
                exp_rx_frames++;
                exp_rx_bytes += body.size() + 4;
            } else if (kind < 62) {  // one bit flipped anywhere in frame or FCS
                Bytes body = padded(make_frame(rnd_range(14, 1514)));
                Bytes w = with_fcs(body);
                size_t pos = rnd_range(0, w.size() - 1);
                w[pos] ^= (uint8_t)(1u << rnd_range(0, 7));
                add_rx(w, pre, -1);
                rx_expect.push_back({true, true, true, Bytes(w.begin(), w.end() - 4)});
                exp_bad_fcs++;
            } else if (kind < 72) {  // rx_er on one byte, FCS right
                Bytes body = padded(make_frame(rnd_range(14, 1514)));
                Bytes w = with_fcs(body);
                add_rx(w, pre, rnd_range(0, w.size() - 1));
                rx_expect.push_back({true, true, true, body});
                exp_rx_er++;
            } else if (kind < 82) {  // runt: 0..59 bytes + good FCS
                Bytes body = make_frame(rnd_range(0, 59));
                add_rx(with_fcs(body), pre, -1);
                // fewer than 5 bytes after the SFD: nothing comes out, only a count
                if (body.size() + 4 >= 5)
                    rx_expect.push_back({true, true, true, body});
                exp_runt++;
            } else if (kind < 90) {  // oversize: 1 to 200 bytes past the limit
                Bytes body = make_frame(max_len - 4 + rnd_range(1, 200));
                add_rx(with_fcs(body), pre, -1);
                rx_expect.push_back({true, true, false, body});
                exp_oversize++;
            } else if (NPB == 1) {  // no SFD: a garbage byte after the preamble: ignored
                Bytes w = with_fcs(padded(make_frame(rnd_range(14, 200))));
                for (int i = 0; i < pre; i++) rx_wire.push_back({0x55, 1, 0});
                rx_wire.push_back({(uint8_t)rnd_range(0, 0x54), 1, 0});
                for (uint8_t b : w) rx_wire.push_back({b, 1, 0});
            } else {  // MII: frame data could hold a 5, D nibble pair; a good frame instead
                Bytes body = padded(make_frame(rnd_range(14, 300)));
                add_rx(with_fcs(body), pre, -1);
                rx_expect.push_back({true, false, true, body});
                exp_rx_frames++;
                exp_rx_bytes += body.size() + 4;
            }
            add_idle(rnd_range(1, 20));
        }
        for (int k = 0; k < nfuzz; k++) {
            int kind = rnd_range(0, 99);
            TxItem it{make_frame(rnd_range(14, 1514)), false, -1, (int)rnd_range(0, 30)};
            if (rnd_range(0, 3) == 0) it.idle_before = 0;
            if (kind < 8) it.abort = true;
            else if (kind < 16) it.underflow_at = rnd_range(1, it.data.size() - 1);
            tx_items.push_back(it);
        }
    }

    t->cfg_ifg = 12;
    t->cfg_max_len = max_len;
    t->s_axis_tuser = 0;
    t->s_axis_tvalid = 0;
    t->tx_rst = 1;
    t->rx_rst = 1;
    t->RXD = 0;
    t->RXDV = 0;
    t->RXER = 0;
    for (int i = 0; i < 10; i++) {
        t->TXCLK = 0; t->RXCLK = 0; t->eval();
        t->TXCLK = 1; t->RXCLK = 1; t->eval();
    }
    t->tx_rst = 0;
    t->rx_rst = 0;

    // ---------------------------------------------------------------- run
    size_t txi = 0, txb = 0;
    int idle_left = tx_items.empty() ? 0 : tx_items[0].idle_before;
    int stall_left = 0;
    bool stalled_done = false;
    size_t rxpos = 0;
    uint64_t cyc = 0;

    // TX wire capture
    Bytes wire;
    bool wire_er = false, prev_en = false;
    uint64_t idle_run = 0;
    size_t tx_seen = 0;  // wire frames checked
    std::vector<uint64_t> tx_starts;
    uint64_t exp_tx_frames = 0, exp_tx_bytes = 0, exp_underflow = 0, exp_abort = 0;
    for (const TxItem& it : tx_items) {
        if (it.abort) exp_abort++;
        else if (it.underflow_at >= 0) exp_underflow++;
        else { exp_tx_frames++; exp_tx_bytes += padded(it.data).size() + 4; }
    }
    // RX user capture
    Bytes out;
    bool in_out = false;
    std::vector<uint64_t> rx_starts;
    size_t rx_checked = 0;

    const uint64_t limit = 50000000ull;
    while (cyc < limit) {
        if (txi >= tx_items.size() && tx_seen >= tx_items.size() && !prev_en &&
            rxpos > rx_wire.size() + 50)
            break;

        // drive inputs for this cycle
        t->TXCLK = 0; t->RXCLK = 0;
        t->eval();
        bool valid = false;
        if (txi < tx_items.size()) {
            TxItem& it = tx_items[txi];
            if (idle_left > 0) {
                idle_left--;
            } else if (!stalled_done && it.underflow_at >= 0 && (int)txb == it.underflow_at &&
                       stall_left == 0) {
                // at least NPB cycles, so the MAC sees it in an enabled cycle
                stall_left = (int)rnd_range(NPB, 5);
                stalled_done = true;
                stall_left--;
            } else if (stall_left > 0) {
                stall_left--;
            } else {
                valid = true;
                t->s_axis_tdata = it.data[txb];
                t->s_axis_tlast = (txb + 1 == it.data.size());
                t->s_axis_tuser = (txb + 1 == it.data.size()) && it.abort;
            }
        }
        t->s_axis_tvalid = valid;
        if (rxpos < rx_wire.size()) {
            t->RXD = rx_wire[rxpos].d;
            t->RXDV = rx_wire[rxpos].dv;
            t->RXER = rx_wire[rxpos].er;
        } else {
            t->RXD = 0; t->RXDV = 0; t->RXER = 0;
        }
        t->eval();
        bool fire = valid && t->s_axis_tready;
        count_events(t);
        t->TXCLK = 1; t->RXCLK = 1;
        t->eval();
        cyc++;
        rxpos++;
        if (fire) {
            txb++;
            if (txb == tx_items[txi].data.size()) {
                txi++;
                txb = 0;
                stalled_done = false;
                if (txi < tx_items.size()) idle_left = tx_items[txi].idle_before;
            }
        }

        // TX wire, as registered at this edge
        bool en = t->TXEN;
        if (en) {
            if (!prev_en) {
                tx_starts.push_back(cyc);
                if (!fuzz && tx_seen > 0)
                    CHECK(idle_run == 12u * NPB, "TX gap %llu before frame %zu", (unsigned long long)idle_run, tx_seen);
                if (fuzz && tx_seen > 0) CHECK(idle_run >= 12u * NPB, "TX gap %llu", (unsigned long long)idle_run);
                wire.clear();
                wire_er = false;
            }
            wire.push_back(t->TXD);
            wire_er |= t->TXER;
            idle_run = 0;
        } else {
            idle_run++;
        }
        if (prev_en && !en && NPB == 2) {
            // nibbles, low first, into bytes
            CHECK(wire.size() % 2 == 0, "odd nibble count %zu on the wire", wire.size());
            Bytes b(wire.size() / 2);
            for (size_t i = 0; i < b.size(); i++) b[i] = (uint8_t)(wire[2 * i] | (wire[2 * i + 1] << 4));
            wire = b;
        }
        if (prev_en && !en) {
            // a whole wire frame: find which user frame it was
            while (tx_seen < tx_items.size()) {
                const TxItem& it = tx_items[tx_seen];
                tx_seen++;
                Bytes body = padded(it.data);
                bool pre_ok = wire.size() >= 8;
                for (int i = 0; i < 7 && pre_ok; i++) pre_ok = wire[i] == 0x55;
                CHECK(pre_ok && wire[7] == 0xD5, "TX preamble, frame %zu", tx_seen - 1);
                if (it.abort) {
                    CHECK(wire_er, "abort without tx_er");
                    Bytes w(wire.begin() + 8, wire.end());
                    CHECK(w.size() == body.size() + 4, "aborted frame length");
                    CHECK(w != with_fcs(body), "aborted frame has a good FCS");
                } else if (it.underflow_at >= 0) {
                    CHECK(wire_er, "underflow without tx_er");
                    CHECK(wire.size() == 8 + (size_t)it.underflow_at + 1, "underflow cut length %zu", wire.size());
                } else {
                    Bytes w(wire.begin() + 8, wire.end());
                    CHECK(!wire_er, "tx_er on a good frame");
                    CHECK(w == with_fcs(body), "TX frame %zu (len %zu) differs on the wire", tx_seen - 1, it.data.size());
                }
                break;
            }
        }
        prev_en = en;

        // RX user side
        if (t->m_axis_tvalid) {
            if (!in_out) {
                rx_starts.push_back(cyc);
                out.clear();
                in_out = true;
            }
            out.push_back(t->m_axis_tdata);
            if (t->m_axis_tlast) {
                in_out = false;
                bool bad = t->m_axis_tuser;
                CHECK(!rx_expect.empty(), "unexpected RX frame");
                if (!rx_expect.empty()) {
                    RxExpect e = rx_expect.front();
                    rx_expect.pop_front();
                    CHECK(bad == e.bad, "RX frame %zu tuser %d expected %d", rx_checked, bad, e.bad);
                    if (e.exact) {
                        CHECK(out == e.data, "RX frame %zu data (len %zu vs %zu)", rx_checked, out.size(), e.data.size());
                    } else {
                        CHECK(out.size() <= (size_t)max_len - 3, "oversize output too long");
                        CHECK(std::equal(out.begin(), out.end(), e.data.begin()), "oversize prefix");
                    }
                }
                rx_checked++;
            }
        }
    }
    CHECK(cyc < limit, "did not finish");
    CHECK(rx_expect.empty(), "%zu RX frames missing", rx_expect.size());
    CHECK(tx_seen == tx_items.size(), "%zu of %zu TX frames on the wire", tx_seen, tx_items.size());

    // counters
    CHECK(ev_n[4] == exp_rx_frames, "cnt_rx_frames %llu vs %llu", (unsigned long long)ev_n[4], (unsigned long long)exp_rx_frames);
    CHECK(ev_n[5] == exp_rx_bytes, "cnt_rx_bytes %llu vs %llu", (unsigned long long)ev_n[5], (unsigned long long)exp_rx_bytes);
    CHECK(ev_n[6] == exp_bad_fcs, "cnt_rx_bad_fcs %llu vs %llu", (unsigned long long)ev_n[6], (unsigned long long)exp_bad_fcs);
    CHECK(ev_n[7] == exp_runt, "cnt_rx_runt %llu vs %llu", (unsigned long long)ev_n[7], (unsigned long long)exp_runt);
    CHECK(ev_n[8] == exp_oversize, "cnt_rx_oversize %llu vs %llu", (unsigned long long)ev_n[8], (unsigned long long)exp_oversize);
    CHECK(ev_n[9] == exp_rx_er, "cnt_rx_er %llu vs %llu", (unsigned long long)ev_n[9], (unsigned long long)exp_rx_er);
    CHECK(ev_n[0] == exp_tx_frames, "cnt_tx_frames %llu vs %llu", (unsigned long long)ev_n[0], (unsigned long long)exp_tx_frames);
    CHECK(ev_n[1] == exp_tx_bytes, "cnt_tx_bytes %llu vs %llu", (unsigned long long)ev_n[1], (unsigned long long)exp_tx_bytes);
    CHECK(ev_n[2] == exp_underflow, "cnt_tx_underflow %llu vs %llu", (unsigned long long)ev_n[2], (unsigned long long)exp_underflow);
    CHECK(ev_n[3] == exp_abort, "cnt_tx_abort %llu vs %llu", (unsigned long long)ev_n[3], (unsigned long long)exp_abort);

    // line rate (sweep): ideal cycles between the first and the last frame start
    double tx_frac = 0, rx_frac = 0;
    if (!fuzz && tx_starts.size() == tx_items.size() && rx_starts.size() == rx_lens.size()) {
        uint64_t ideal = 0;
        for (size_t i = 0; i + 1 < rx_lens.size(); i++) ideal += NPB * (8 + rx_lens[i] + 12);
        tx_frac = (double)ideal / (double)(tx_starts.back() - tx_starts.front());
        rx_frac = (double)ideal / (double)(rx_starts.back() - rx_starts.front());
        CHECK(tx_starts.back() - tx_starts.front() == ideal, "TX below line rate");
        CHECK(rx_starts.back() - rx_starts.front() == ideal, "RX below line rate");
    }
    printf("RESULT {\"mode\": \"%s\", \"cycles\": %llu, \"tx_frames\": %zu, \"rx_frames_out\": %zu, "
           "\"tx_fraction\": %.6f, \"rx_fraction\": %.6f, \"cnt_rx_frames\": %u, \"cnt_rx_bad_fcs\": %u, "
           "\"cnt_rx_runt\": %u, \"cnt_rx_oversize\": %u, \"cnt_rx_er\": %u, \"cnt_tx_frames\": %u, "
           "\"cnt_tx_underflow\": %u, \"cnt_tx_abort\": %u, \"failures\": %d}\n",
           mode.c_str(), (unsigned long long)cyc, tx_seen, rx_checked, tx_frac, rx_frac,
           unsigned(ev_n[4]), unsigned(ev_n[6]), unsigned(ev_n[7]), unsigned(ev_n[8]),
           unsigned(ev_n[9]), unsigned(ev_n[0]), unsigned(ev_n[2]), unsigned(ev_n[3]), failures);
    t->final();
    delete t;
    return failures ? 1 : 0;
}
