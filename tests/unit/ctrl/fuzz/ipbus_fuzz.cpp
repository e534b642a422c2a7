// Verilator driver for ipbus_target (DATA_W 8 or 64, set with -DDATA_W=..., the same as
// the RTL parameter): feeds request datagrams from a file into its UDP
// application port back to back, serves its register bus with a memory model (bus
// errors at 0x8000-0x80FF, no answer at 0x9000-0x900F, random 1-3 cycle latency),
// stalls the reply path at random, and writes every reply and the final counters.
//
// usage: ipbus_fuzz <requests.txt> <replies.txt> <seed> [allow_ip0 ...]
//   requests: one per line "P <src_ip hex> <flags> <payload hex or ->"
//             flags: 1 = tuser on the last byte, 2 = header announces 4 more bytes
//   replies:  "R <dst_ip hex> <dst_port> <src_port> <payload hex>", then
//             "C <counter> <value>" lines, then "CYCLES <n>".
// Exit code 2 if the target stops taking input (a hang), 3 on a protocol violation.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vipbus_target.h"
#include "verilated.h"

#ifndef DATA_W
#define DATA_W 8
#endif
static const size_t KEEP_W = DATA_W / 8;
// the target's event strobes (cnt_ev, in the order of the IPBUS counters), counted by the driver
static uint64_t ev_n[16];

struct Req {
    uint32_t src_ip;
    int flags;
    std::vector<uint8_t> data;
};

static std::vector<uint8_t> unhex(const std::string &s) {
    std::vector<uint8_t> out;
    if (s == "-") return out;
    for (size_t i = 0; i + 1 < s.size(); i += 2) out.push_back((uint8_t)std::stoul(s.substr(i, 2), nullptr, 16));
    return out;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s requests replies seed [allow_ip ...]\n", argv[0]);
        return 1;
    }
    std::vector<Req> reqs;
    {
        std::ifstream f(argv[1]);
        std::string line;
        while (std::getline(f, line)) {
            std::istringstream ss(line);
            std::string tag, ip, hex;
            int flags;
            ss >> tag >> ip >> flags >> hex;
            if (tag != "P") continue;
            reqs.push_back({(uint32_t)std::stoul(ip, nullptr, 16), flags, unhex(hex)});
        }
    }
    std::mt19937 rng(std::atoi(argv[3]));
    VerilatedContext ctx;
    Vipbus_target top(&ctx);
    const bool allow_en = argc > 4;
    top.cfg_allow_en = allow_en;
    for (int i = 0; i < 4; i++) top.cfg_allow_ip[i] = (argc > 4 + i) ? (uint32_t)std::stoul(argv[4 + i], nullptr, 16) : 0;

    std::map<uint32_t, uint32_t> mem;
    struct Pending { uint64_t due; int st; uint32_t v; };
    std::deque<Pending> pend;
    FILE *out = std::fopen(argv[2], "w");

    // input driver state
    size_t ri = 0;       // request index
    size_t bi = 0;       // byte index in the request
    int in_state = 0;    // 0 header, 1 payload
    uint64_t cyc = 0, last_progress = 0;
    // reply capture
    bool have_hdr = false;
    uint32_t r_ip = 0, r_port = 0, r_sport = 0, r_len = 0;
    std::vector<uint8_t> r_data;

    top.clk = 0;
    top.rst = 1;
    for (int i = 0; i < 10; i++) { top.clk = 0; top.eval(); top.clk = 1; top.eval(); }
    top.rst = 0;
    uint64_t idle_after = 0;
    while (true) {
        cyc++;
        // ---- drive inputs for this cycle
        top.tick_1ms = (cyc % 100 == 0);
        top.reg_ack = 0;
        top.reg_err = 0;
        if (!pend.empty() && pend.front().due <= cyc) {
            Pending p = pend.front();
            pend.pop_front();
            if (p.st == 0) { top.reg_ack = 1; top.reg_rdata = p.v; }
            else top.reg_err = 1;
        }
        top.m_hdr_ready = (rng() % 4) != 0;
        top.m_axis_tready = (rng() % 5) != 0;
        top.s_hdr_valid = 0;
        top.s_axis_tvalid = 0;
        top.s_axis_tlast = 0;
        top.s_axis_tuser = 0;
        top.s_axis_tkeep = 1;
        if (ri < reqs.size()) {
            const Req &r = reqs[ri];
            if (in_state == 0) {
                top.s_hdr_valid = 1;
                top.s_hdr_src_mac = 0x020000000001ULL;
                top.s_hdr_src_ip = r.src_ip;
                top.s_hdr_src_port = 40000;
                top.s_hdr_dst_port = 50001;
                top.s_hdr_len = (uint16_t)(r.data.size() + ((r.flags & 2) ? 4 : 0));
            } else if (rng() % 8 != 0) {  // occasional gaps in the payload
                top.s_axis_tvalid = 1;
                if (r.data.empty()) {
                    top.s_axis_tkeep = 0;
                    top.s_axis_tlast = 1;
                } else {
                    // bytes bi .. bi+n-1 in lanes 0..n-1
                    size_t n = std::min(KEEP_W, r.data.size() - bi);
                    uint64_t d = 0;
                    for (size_t k = 0; k < n; k++) d |= (uint64_t)r.data[bi + k] << (8 * k);
                    top.s_axis_tdata = d;
                    top.s_axis_tkeep = (uint32_t)((1ULL << n) - 1);
                    top.s_axis_tlast = (bi + n == r.data.size());
                    top.s_axis_tuser = top.s_axis_tlast && (r.flags & 1);
                }
            }
        }
        top.clk = 0;
        top.eval();
        // ---- handshakes at this edge
        bool hdr_fire = top.s_hdr_valid && top.s_hdr_ready;
        bool in_fire = top.s_axis_tvalid && top.s_axis_tready;
        if (top.reg_req) {
            uint32_t a = top.reg_addr;
            int lat = 1 + (int)(rng() % 3);
            if (0x9000 <= a && a < 0x9010) {
                // never answered
            } else if (0x8000 <= a && a < 0x8100) {
                pend.push_back({cyc + lat, 1, 0});
            } else if (top.reg_we) {
                mem[a] = top.reg_wdata;
                pend.push_back({cyc + lat, 0, 0});
            } else {
                pend.push_back({cyc + lat, 0, mem.count(a) ? mem[a] : 0});
            }
        }
        if (top.m_hdr_valid && top.m_hdr_ready) {
            if (have_hdr) { std::fprintf(stderr, "second reply header before payload\n"); return 3; }
            have_hdr = true;
            r_ip = top.m_hdr_dst_ip; r_port = top.m_hdr_dst_port; r_sport = top.m_hdr_src_port;
            r_len = top.m_hdr_len;
            if (!top.m_hdr_dst_mac_valid || top.m_hdr_dst_mac != 0x020000000001ULL) {
                std::fprintf(stderr, "bad reply MAC\n"); return 3;
            }
        }
        if (top.m_axis_tvalid && top.m_axis_tready) {
            if (!have_hdr) { std::fprintf(stderr, "reply payload before header\n"); return 3; }
            uint32_t keep = top.m_axis_tkeep;
            size_t n = 0;
            while (n < KEEP_W && (keep >> n) & 1) n++;
            if (keep != (uint32_t)((1ULL << n) - 1) || n == 0 ||
                (n < KEEP_W && !top.m_axis_tlast) || (top.m_axis_tlast && top.m_axis_tuser)) {
                std::fprintf(stderr, "bad reply beat\n"); return 3;
            }
            uint64_t d = top.m_axis_tdata;
            for (size_t k = 0; k < n; k++) r_data.push_back((uint8_t)(d >> (8 * k)));
            if (top.m_axis_tlast) {
                if (r_data.size() != r_len) { std::fprintf(stderr, "reply length mismatch\n"); return 3; }
                std::fprintf(out, "R %08x %u %u ", r_ip, r_port, r_sport);
                for (uint8_t b : r_data) std::fprintf(out, "%02x", b);
                std::fprintf(out, "\n");
                r_data.clear();
                have_hdr = false;
                last_progress = cyc;
            }
        }
        // the target's event strobes, counted as stat_counters counts them (before the edge)
        for (int b = 0; b < 16; b++) ev_n[b] += (top.cnt_ev >> b) & 1;
        top.clk = 1;
        top.eval();
        // ---- advance the driver
        if (hdr_fire) { in_state = 1; bi = 0; last_progress = cyc; }
        if (in_fire) {
            last_progress = cyc;
            const Req &r = reqs[ri];
            size_t n = std::min(KEEP_W, r.data.size() - bi);
            if (r.data.empty() || bi + n >= r.data.size()) { ri++; in_state = 0; }
            else bi += n;
        }
        if (ri == reqs.size() && !have_hdr) {
            if (idle_after == 0) idle_after = cyc;
            if (cyc - last_progress > 5000 && cyc - idle_after > 5000) break;
        }
        if (cyc - last_progress > 200000) {
            std::fprintf(stderr, "no progress for 200000 cycles at request %zu of %zu\n", ri, reqs.size());
            return 2;
        }
    }
    static const char* ev_names[16] = {
        "rx_packets", "rx_bad", "rx_oversize", "rx_malformed", "control", "status",
        "resend", "id_dropped", "resend_miss", "transactions", "bad_header",
        "bus_errors", "bus_timeouts", "wp_rejected", "reply_overflow", "tx_packets"};
    for (int b = 0; b < 16; b++)
        std::fprintf(out, "C %s %llu\n", ev_names[b], (unsigned long long)ev_n[b]);
    std::fprintf(out, "CYCLES %llu\n", (unsigned long long)cyc);
    std::fclose(out);
    top.final();
    return 0;
}
