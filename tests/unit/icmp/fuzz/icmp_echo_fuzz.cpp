// Verilator driver for icmp_echo: feeds ICMP messages with their ip_rx header (header bus
// and message stream, independent, with random idle cycles on both), stalls the reply
// output at random, and writes every frame produced and the counters.
//
// usage: icmp_echo_fuzz <requests.txt> <frames.txt> <seed> <p_idle_in> <p_stall_out>
//   requests: "R <broadcast> <protocol> <tuser> <src_mac hex> <src_ip hex> <dst_ip hex>
//              <message hex or ->" (the header's len is the message length)
//   frames:   "F <tuser> <bytes hex>" per frame, then "C <counter> <value>" lines,
//             then "CYCLES <n>".
// Exit code 2 if the module stops making progress (a hang).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vicmp_echo.h"
#include "verilated.h"

#ifndef DW
#define DW 8
#endif
static const int KW = DW / 8;
// the event strobes of icmp_echo (cnt_ev: replies, aborted, dropped, bad_csum), counted
static uint64_t ev_n[4];

struct Rq {
    int bcast, proto, tuser;
    uint64_t mac;
    uint32_t sip, dip;
    std::vector<uint8_t> msg;
};

static std::vector<uint8_t> unhex(const std::string &s) {
    std::vector<uint8_t> out;
    if (s == "-") return out;
    for (size_t i = 0; i + 1 < s.size(); i += 2)
        out.push_back((uint8_t)std::stoul(s.substr(i, 2), nullptr, 16));
    return out;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        std::cerr << "usage: icmp_echo_fuzz <requests> <frames> <seed> <p_idle> <p_stall>\n";
        return 1;
    }
    std::vector<Rq> rqs;
    {
        std::ifstream in(argv[1]);
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream ss(line);
            std::string tag, mac, sip, dip, hex;
            Rq r;
            ss >> tag >> r.bcast >> r.proto >> r.tuser >> mac >> sip >> dip >> hex;
            if (tag != "R") continue;
            r.mac = std::stoull(mac, nullptr, 16);
            r.sip = (uint32_t)std::stoul(sip, nullptr, 16);
            r.dip = (uint32_t)std::stoul(dip, nullptr, 16);
            r.msg = unhex(hex);
            rqs.push_back(r);
        }
    }
    std::mt19937_64 rng(std::stoull(argv[3]));
    std::uniform_real_distribution<double> U(0.0, 1.0);
    const double p_idle = std::stod(argv[4]), p_stall = std::stod(argv[5]);
    FILE *out = fopen(argv[2], "w");

    Verilated::commandArgs(argc, argv);
    Vicmp_echo *t = new Vicmp_echo;
    t->cfg_mac = 0x020000000001ULL;
    t->cfg_ttl = 64;
    t->cfg_answer = 1;
    t->rst = 1;
    for (int i = 0; i < 4; i++) {
        t->clk = 0;
        t->eval();
        t->clk = 1;
        t->eval();
    }
    t->rst = 0;

    size_t hi = 0, pi = 0, poff = 0;
    std::vector<uint8_t> frame;
    uint64_t cyc = 0, last_progress = 0;
    bool h_on = false, p_on = false;
    while (true) {
        if (!h_on && hi < rqs.size() && U(rng) >= p_idle) h_on = true;
        t->s_hdr_valid = h_on;
        if (hi < rqs.size()) {
            const Rq &r = rqs[hi];
            t->s_hdr_src_mac = r.mac;
            t->s_hdr_src_ip = r.sip;
            t->s_hdr_dst_ip = r.dip;
            t->s_hdr_protocol = r.proto;
            t->s_hdr_len = (uint16_t)r.msg.size();
            t->s_hdr_broadcast = r.bcast;
        }
        // a message is offered only once its header was taken (docs/conventions.md)
        if (!p_on && pi < rqs.size() && pi < hi && U(rng) >= p_idle) p_on = true;
        t->s_axis_tvalid = p_on;
        if (pi < rqs.size()) {
            const Rq &r = rqs[pi];
            uint64_t data = 0;
            int keep = 0;
            for (int k = 0; k < KW && poff + k < r.msg.size(); k++) {
                data |= (uint64_t)r.msg[poff + k] << (8 * k);
                keep |= 1 << k;
            }
            bool last = poff + KW >= r.msg.size();
            t->s_axis_tdata = data;
            t->s_axis_tkeep = keep;
            t->s_axis_tlast = last;
            t->s_axis_tuser = last && r.tuser;
        }
        t->m_axis_tready = U(rng) >= p_stall;
        t->clk = 0;
        t->eval();

        bool h_fire = t->s_hdr_valid && t->s_hdr_ready;
        bool p_fire = t->s_axis_tvalid && t->s_axis_tready;
        bool o_fire = t->m_axis_tvalid && t->m_axis_tready;
        uint64_t o_data = t->m_axis_tdata;
        int o_keep = t->m_axis_tkeep, o_last = t->m_axis_tlast, o_user = t->m_axis_tuser;
        // the event strobes, counted as stat_counters counts them (before the edge)
        for (int b = 0; b < 4; b++) ev_n[b] += (t->cnt_ev >> b) & 1;

        t->clk = 1;
        t->eval();
        cyc++;

        if (h_fire) {
            hi++;
            h_on = false;
            last_progress = cyc;
        }
        if (p_fire) {
            poff += KW;
            if (poff >= rqs[pi].msg.size()) {
                pi++;
                poff = 0;
            }
            p_on = false;
            last_progress = cyc;
        }
        if (o_fire) {
            for (int k = 0; k < KW; k++)
                if (o_keep >> k & 1) frame.push_back((uint8_t)(o_data >> (8 * k)));
            if (o_last) {
                fprintf(out, "F %d ", o_user);
                for (uint8_t b : frame) fprintf(out, "%02x", b);
                fprintf(out, "\n");
                frame.clear();
            }
            last_progress = cyc;
        }
        if (hi >= rqs.size() && pi >= rqs.size() && cyc - last_progress > 300) break;
        if (cyc - last_progress > 20000) {
            fprintf(out, "HANG %zu %zu\n", hi, pi);
            fclose(out);
            return 2;
        }
    }
    fprintf(out, "C cnt_replies %llu\n", (unsigned long long)ev_n[0]);
    fprintf(out, "C cnt_aborted %llu\n", (unsigned long long)ev_n[1]);
    fprintf(out, "C cnt_dropped %llu\n", (unsigned long long)ev_n[2]);
    fprintf(out, "C cnt_bad_csum %llu\n", (unsigned long long)ev_n[3]);
    fprintf(out, "CYCLES %llu\n", (unsigned long long)cyc);
    fclose(out);
    t->final();
    delete t;
    return 0;
}
