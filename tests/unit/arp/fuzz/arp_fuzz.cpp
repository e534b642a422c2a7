// Randomised long-run check of the ARP engine, compiled with Verilator.
//
// Drives, all at once and at random: ARP frames in (good requests for us and for
// others, replies, probes, frames with a damaged header, truncated, padded, flagged bad
// with tuser, with tvalid bubbles inside frames and random gaps), output backpressure,
// lookups for peers, off-subnet hosts, broadcast and multicast, and the millisecond tick.
// Checks on every cycle and at the end:
//   * every frame out is a 42-byte well-formed ARP frame from our MAC and IP; a reply
//     answers the oldest unanswered request for us that was not dropped (in order); a
//     request asks for a next hop that was looked up (or is a gratuitous ARP);
//   * every lookup is answered exactly once within 2 * WAYS + 7 cycles (the documented
//     bound: a set scan behind one other operation; after the reset clear), often
//     in REPEAT_LAT (a repeated destination), never sooner; a hit carries the right MAC
//     (each peer keeps one MAC; broadcast and multicast mapped);
//   * no hang: after the run, with the output free, everything drains;
//   * counts of the event strobes (cnt_ev): malformed equals the reference count exactly; replies sent = requests
//     for us taken = replies seen; requests + gratuitous + replies = frames seen;
//     hits + misses = lookups; frames taken + overruns within the reference bounds.
// Usage: arp_fuzz <cycles> <seed>; exits non-zero with a message on the first failure.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "Varp.h"
#include "verilated.h"

#ifndef DATA_W
#define DATA_W 8
#endif
#ifndef WAYS
#define WAYS 4
#endif
#ifndef REPEAT_LAT
#define REPEAT_LAT 1
#endif
// the event strobes of arp (cnt_ev bits), counted by the driver
enum { EV_REQ_RX, EV_REPLY_TX, EV_REQ_TX, EV_GARP_TX, EV_REPLY_RX, EV_MALFORMED, EV_RX_OVERRUN,
       EV_HIT, EV_MISS, EV_TIMEOUT, EV_EXPIRED, EV_EVICTED, EV_CONFLICT, EV_REQ_REFUSED, NEV };
static uint64_t ev_n[NEV];

static const uint64_t LK_MAX = 2 * WAYS + 7;  // documented worst-case lookup latency
static const int KEEP_W = DATA_W / 8;

static const uint64_t OUR_MAC = 0x020000000001ULL;
static const uint32_t OUR_IP = 0xC0A80A02;  // 192.168.10.2
static const uint32_t NETMASK = 0xFFFFFF00;
static const uint32_t GATEWAY = 0xC0A80A01;
static const uint64_t GW_MAC = 0x525400AABBCCULL;

static uint64_t cycle = 0;

[[noreturn]] static void fail(const char* msg, uint64_t a = 0, uint64_t b = 0) {
    std::fprintf(stderr, "FAIL at cycle %llu: %s (%llx %llx)\n", (unsigned long long)cycle, msg,
                 (unsigned long long)a, (unsigned long long)b);
    std::exit(1);
}

static void put(std::vector<uint8_t>& f, uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) f.push_back((v >> (8 * i)) & 0xFF);
}

static uint64_t get(const std::vector<uint8_t>& f, int at, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | f[at + i];
    return v;
}

static std::vector<uint8_t> arp_frame(int op, uint64_t eth_dst, uint64_t sha, uint32_t spa,
                                      uint64_t tha, uint32_t tpa) {
    std::vector<uint8_t> f;
    put(f, eth_dst, 6);
    put(f, sha, 6);
    put(f, 0x0806, 2);
    put(f, 1, 2);
    put(f, 0x0800, 2);
    put(f, 6, 1);
    put(f, 4, 1);
    put(f, op, 2);
    put(f, sha, 6);
    put(f, spa, 4);
    put(f, tha, 6);
    put(f, tpa, 4);
    return f;
}

struct InFrame {
    std::vector<uint8_t> bytes;
    bool tuser;
};

static uint64_t peer_mac(uint32_t ip) { return 0x525400000000ULL | (ip & 0xFFFFFF); }

int main(int argc, char** argv) {
    const uint64_t cycles = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
    const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    std::mt19937_64 rng(seed);
    auto chance = [&](int percent) { return (int)(rng() % 100) < percent; };

    Verilated::commandArgs(argc, argv);
    Varp* top = new Varp;

    // peers of the subnet: 192.168.10.3 .. 192.168.10.40
    std::vector<uint32_t> peers;
    for (uint32_t h = 3; h <= 40; ++h) peers.push_back(0xC0A80A00 | h);

    // reference state
    uint64_t ref_malformed = 0, ref_good_for_us = 0, ref_good_replies = 0, ref_good_other = 0;
    std::deque<InFrame> in_q;
    std::deque<std::pair<uint64_t, uint32_t>> owed;  // requests for us not yet answered
    std::map<uint32_t, int> looked;                         // next hops looked up
    uint64_t frames_out = 0, replies_out = 0, lookups = 0, answers = 0, fast = 0;

    // input driver state
    size_t in_pos = 0;
    bool in_active = false;
    int in_gap = 0;
    InFrame cur;
    // output collector
    std::vector<uint8_t> out;
    // lookup state
    bool lk_valid = false, lk_waiting = false;
    uint32_t lk_ip = 0;
    uint64_t lk_sent_at = 0;
    int tready_pct = 100;
    uint64_t next_tick = 100;

    top->clk = 0;
    top->rst = 1;
    top->cfg_mac = OUR_MAC;
    top->cfg_ip = OUR_IP;
    top->cfg_netmask = NETMASK;
    top->cfg_gateway = GATEWAY;
    top->cfg_answer = 1;
    top->tick_1ms = 0;
    top->s_axis_tvalid = 0;
    top->m_axis_tready = 1;
    top->arp_req_valid = 0;
    for (int i = 0; i < 10; ++i) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;

    auto make_frame = [&]() {
        InFrame fr;
        uint32_t spa = peers[rng() % peers.size()];
        if (chance(5)) spa = 0;  // probe
        uint64_t sha = peer_mac(spa);
        if (spa == 0) sha = 0x525400F00000ULL | (rng() & 0xFFFF);
        uint32_t tpa = chance(60) ? OUR_IP : peers[rng() % peers.size()];
        int op = chance(75) ? 1 : 2;
        uint64_t eth_dst = chance(50) ? 0xFFFFFFFFFFFFULL : OUR_MAC;
        fr.bytes = arp_frame(op, eth_dst, sha, spa, op == 2 ? OUR_MAC : 0, tpa);
        fr.tuser = false;
        int kind = rng() % 10;
        bool bad = false;
        if (kind == 1) {
            fr.bytes[12 + rng() % 10] ^= (uint8_t)(1u << (rng() % 8));
            bad = true;
        } else if (kind == 2) {
            fr.bytes.resize(1 + rng() % 41);
            bad = true;
        } else if (kind == 3) {
            fr.bytes.resize(fr.bytes.size() + 1 + rng() % 100, (uint8_t)rng());
        } else if (kind == 4) {
            fr.tuser = true;
            bad = true;
        } else if (kind == 5) {
            fr.bytes[22] |= 1;
            bad = true;
        }
        if (bad) {
            ref_malformed++;
        } else if (op == 1 && tpa == OUR_IP) {
            ref_good_for_us++;
        } else if (op == 2) {
            ref_good_replies++;
        } else {
            ref_good_other++;
        }
        return fr;
    };

    auto want_mac = [&](uint32_t ip, bool& special) -> uint64_t {
        special = true;
        if (ip == 0xFFFFFFFF || ip == 0xC0A80AFF) return 0xFFFFFFFFFFFFULL;
        if ((ip >> 28) == 0xE) return 0x01005E000000ULL | (ip & 0x7FFFFF);
        special = false;
        if ((ip & NETMASK) != (OUR_IP & NETMASK)) return GW_MAC;
        return peer_mac(ip);
    };

    const uint64_t drain_from = cycles;
    const uint64_t end = cycles + 20000;
    for (cycle = 0; cycle < end; ++cycle) {
        const bool draining = cycle >= drain_from;
        // ---------------- drive inputs (clock low)
        top->tick_1ms = (cycle == next_tick);
        if (cycle == next_tick) next_tick += 60 + rng() % 400;

        if (!in_active && !draining) {
            if (in_gap > 0) {
                in_gap--;
            } else if (chance(30)) {
                cur = make_frame();
                in_active = true;
                in_pos = 0;
            }
        }
        bool bubble = in_active && in_pos > 0 && chance(10);
        top->s_axis_tvalid = in_active && !bubble;
        if (in_active) {
            uint64_t data = 0;
            uint32_t keep = 0;
            for (int l = 0; l < KEEP_W && in_pos + l < cur.bytes.size(); ++l) {
                data |= (uint64_t)cur.bytes[in_pos + l] << (8 * l);
                keep |= 1u << l;
            }
            bool last = in_pos + KEEP_W >= cur.bytes.size();
            top->s_axis_tdata = data;
            top->s_axis_tkeep = keep;
            top->s_axis_tlast = last;
            top->s_axis_tuser = last && cur.tuser;
        }

        if (cycle % 5000 == 0) tready_pct = (int)(rng() % 4) == 0 ? 100 : 20 + rng() % 80;
        top->m_axis_tready = draining ? 1 : chance(tready_pct);

        if (!lk_valid && !lk_waiting && !draining && chance(8)) {
            int k = rng() % 10;
            if (chance(30)) {
                // same destination again (streaming): the one-cycle path
            } else if (k < 6) lk_ip = peers[rng() % peers.size()];
            else if (k == 6) lk_ip = 0x08080808 + (uint32_t)(rng() % 4);
            else if (k == 7) lk_ip = 0xFFFFFFFF;
            else if (k == 8) lk_ip = 0xC0A80AFF;
            else lk_ip = 0xE0000000 | (uint32_t)(rng() & 0xFFFFFFF);
            lk_valid = true;
        }
        top->arp_req_valid = lk_valid;
        top->arp_req_ip = lk_ip;

        top->clk = 0;
        top->eval();

        // ---------------- sample handshakes before the edge
        const bool in_fire = top->s_axis_tvalid && top->s_axis_tready;
        const bool out_fire = top->m_axis_tvalid && top->m_axis_tready;
        const bool lk_fire = lk_valid && top->arp_req_ready;
        const bool resp = top->arp_resp_valid;
        const bool resp_hit = top->arp_resp_hit;
        const uint64_t resp_mac = top->arp_resp_mac;
        uint64_t odata = top->m_axis_tdata;
        uint32_t okeep = top->m_axis_tkeep;
        bool olast = top->m_axis_tlast, ouser = top->m_axis_tuser;
        // the event strobes, counted as stat_counters counts them (before the edge)
        for (int b = 0; b < NEV; ++b) ev_n[b] += (top->cnt_ev >> b) & 1;

        top->clk = 1;
        top->eval();

        // ---------------- update the reference
        if (in_fire) {
            in_pos += KEEP_W;
            if (in_pos >= cur.bytes.size()) {
                // whole frame taken: a good request for us is owed a reply, in order
                const auto& f = cur.bytes;
                bool good = !cur.tuser && f.size() >= 42 && get(f, 12, 2) == 0x0806 &&
                            get(f, 14, 2) == 1 && get(f, 16, 2) == 0x0800 && f[18] == 6 &&
                            f[19] == 4 && f[20] == 0 && (f[21] == 1 || f[21] == 2) &&
                            !(f[22] & 1);
                if (good && f[21] == 1 && get(f, 38, 4) == OUR_IP)
                    owed.emplace_back(get(f, 22, 6), (uint32_t)get(f, 28, 4));
                in_active = false;
                in_gap = (int)(rng() % 4 == 0 ? rng() % 200 : rng() % 3);
            }
        }
        if (out_fire) {
            if (ouser) fail("tuser set on output");
            for (int l = 0; l < KEEP_W; ++l)
                if (okeep & (1u << l)) out.push_back((odata >> (8 * l)) & 0xFF);
            if (!olast && okeep != (1u << KEEP_W) - 1) fail("partial tkeep before tlast", okeep);
            if (olast) {
                if (out.size() != 42) fail("output frame length", out.size());
                if (get(out, 6, 6) != OUR_MAC || get(out, 22, 6) != OUR_MAC) fail("source MAC");
                if (get(out, 12, 2) != 0x0806 || get(out, 14, 2) != 1 ||
                    get(out, 16, 2) != 0x0800 || out[18] != 6 || out[19] != 4)
                    fail("ARP header");
                if (get(out, 28, 4) != OUR_IP) fail("sender IP", get(out, 28, 4));
                uint64_t op = get(out, 20, 2), dst = get(out, 0, 6), tha = get(out, 32, 6);
                uint32_t tpa = (uint32_t)get(out, 38, 4);
                if (op == 2) {
                    // the reply owed to the oldest request not dropped: skip dropped ones
                    bool found = false;
                    while (!owed.empty()) {
                        auto w = owed.front();
                        owed.pop_front();
                        if (w.first == dst && w.second == tpa) {
                            found = true;
                            break;
                        }
                    }
                    if (!found) fail("reply to nobody, or out of order", dst, tpa);
                    if (tha != dst) fail("reply THA", tha, dst);
                    replies_out++;
                } else if (op == 1) {
                    if (tha != 0) fail("request THA", tha);
                    if (tpa == OUR_IP) {
                        if (dst != 0xFFFFFFFFFFFFULL) fail("gratuitous ARP not broadcast");
                    } else {
                        if (!looked.count(tpa)) fail("request for an IP never looked up", tpa);
                        if (dst != 0xFFFFFFFFFFFFULL && dst != peer_mac(tpa) &&
                            !(tpa == GATEWAY && dst == GW_MAC))
                            fail("request to a wrong MAC", dst, tpa);
                    }
                } else {
                    fail("opcode", op);
                }
                frames_out++;
                out.clear();
            }
        }
        if (resp) {
            if (!lk_waiting) fail("answer without a lookup");
            lk_waiting = false;
            answers++;
            uint64_t lat = cycle - lk_sent_at;
            if (lat > (lk_sent_at < 100 ? 300u : LK_MAX)) fail("lookup latency", lat);
            if (lat < REPEAT_LAT) fail("lookup answered too early", lat);
            if (lat == REPEAT_LAT) fast++;
            bool special;
            uint64_t want = want_mac(lk_ip, special);
            if (special && !resp_hit) fail("broadcast/multicast lookup missed", lk_ip);
            if (resp_hit && resp_mac != want) fail("wrong MAC on a hit", resp_mac, want);
        }
        if (lk_fire) {
            lk_valid = false;
            lk_waiting = true;
            lk_sent_at = cycle;
            lookups++;
            bool special;
            want_mac(lk_ip, special);
            if (!special)
                looked[(lk_ip & NETMASK) == (OUR_IP & NETMASK) ? lk_ip : GATEWAY] = 1;
        }
        // the gateway answers its requests now and then
        if (!in_active && !draining && looked.count(GATEWAY) && chance(1) && chance(5)) {
            cur.bytes = arp_frame(2, OUR_MAC, GW_MAC, GATEWAY, OUR_MAC, OUR_IP);
            cur.tuser = false;
            ref_good_replies++;
            in_active = true;
            in_pos = 0;
        }
    }

    // ---------------- final accounting
    if (in_active || lk_valid || lk_waiting) fail("stimulus still in flight at the end");
    if (top->m_axis_tvalid) fail("output still busy after the drain");
    if (ev_n[EV_MALFORMED] != ref_malformed) fail("cnt_malformed", ev_n[EV_MALFORMED], ref_malformed);
    if (ev_n[EV_REPLY_TX] != replies_out) fail("cnt_reply_tx", ev_n[EV_REPLY_TX], replies_out);
    if (ev_n[EV_REQ_RX] != replies_out) fail("cnt_req_rx != replies", ev_n[EV_REQ_RX], replies_out);
    if ((uint64_t)ev_n[EV_REQ_TX] + ev_n[EV_GARP_TX] + ev_n[EV_REPLY_TX] != frames_out)
        fail("frames out", frames_out);
    if ((uint64_t)ev_n[EV_HIT] + ev_n[EV_MISS] != lookups || answers != lookups)
        fail("lookups", lookups, answers);
    uint64_t taken = (uint64_t)ev_n[EV_REQ_RX] + ev_n[EV_REPLY_RX] + ev_n[EV_RX_OVERRUN];
    uint64_t good_known = ref_good_for_us + ref_good_replies;
    if (taken < good_known || taken > good_known + ref_good_other)
        fail("frames taken + overruns out of bounds", taken, good_known);
    if (ev_n[EV_REPLY_RX] > ref_good_replies) fail("cnt_reply_rx", ev_n[EV_REPLY_RX]);

    std::printf(
        "cycles %llu frames_in %llu malformed %llu req_rx %llu reply_rx %llu overrun %llu replies %llu "
        "frames_out %llu lookups %llu fast %llu hit %llu miss %llu req_tx %llu timeout %llu expired %llu "
        "evicted %llu\n",
        (unsigned long long)cycles,
        (unsigned long long)(ref_malformed + ref_good_for_us + ref_good_replies + ref_good_other),
        (unsigned long long)ev_n[EV_MALFORMED], (unsigned long long)ev_n[EV_REQ_RX], (unsigned long long)ev_n[EV_REPLY_RX], (unsigned long long)ev_n[EV_RX_OVERRUN],
        (unsigned long long)replies_out, (unsigned long long)frames_out,
        (unsigned long long)lookups, (unsigned long long)fast, (unsigned long long)ev_n[EV_HIT], (unsigned long long)ev_n[EV_MISS], (unsigned long long)ev_n[EV_REQ_TX],
        (unsigned long long)ev_n[EV_TIMEOUT], (unsigned long long)ev_n[EV_EXPIRED], (unsigned long long)ev_n[EV_EVICTED]);
    top->final();
    delete top;
    return 0;
}
