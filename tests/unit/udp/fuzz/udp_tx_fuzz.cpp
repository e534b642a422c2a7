// Verilator driver for udp_tx (udp_tx_csum + udp_ip_tx): feeds datagram requests from a
// file (header bus and payload stream, independent, with random idle cycles on both),
// answers ARP lookups after random delays with the hit/miss and MAC the file gives,
// stalls the frame output at random, and writes every frame produced and the counters.
//
// usage: udp_tx_fuzz <requests.txt> <frames.txt> <seed> <p_idle_in> <p_stall_out>
//   requests: one per line
//     "D <mode> <mac_valid> <dst_mac hex> <dst_ip hex> <sport> <dport> <len> <csum>
//        <tuser> <arp_hit> <arp_mac hex> <payload hex or ->"
//   frames:   "F <tuser> <bytes hex>" per frame, then "C <counter> <value>" lines,
//             then "CYCLES <n>".
// Exit code 2 if the transmitter stops making progress (a hang), 3 on a protocol error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vudp_tx.h"
#include "verilated.h"

#ifndef DW
#define DW 8
#endif
static const int KW = DW / 8;
// the event strobes of udp_tx (cnt_ev: tx_frames, tx_abort, tx_long, arp_miss, sf_frames,
// sf_overflow), counted by the driver
static uint64_t ev_n[6];

struct Dg {
    int mode, mv;
    uint64_t mac;
    uint32_t ip;
    int sport, dport, len, csum, tuser, hit;
    uint64_t amac;
    std::vector<uint8_t> pay;
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
        std::cerr << "usage: udp_tx_fuzz <requests> <frames> <seed> <p_idle_in> <p_stall_out>\n";
        return 1;
    }
    std::vector<Dg> dgs;
    {
        std::ifstream in(argv[1]);
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream ss(line);
            std::string tag, mac, ip, amac, hex;
            Dg d;
            ss >> tag >> d.mode >> d.mv >> mac >> ip >> d.sport >> d.dport >> d.len >> d.csum >>
                d.tuser >> d.hit >> amac >> hex;
            if (tag != "D") continue;
            d.mac = std::stoull(mac, nullptr, 16);
            d.ip = (uint32_t)std::stoul(ip, nullptr, 16);
            d.amac = std::stoull(amac, nullptr, 16);
            d.pay = unhex(hex);
            dgs.push_back(d);
        }
    }
    std::mt19937_64 rng(std::stoull(argv[3]));
    std::uniform_real_distribution<double> U(0.0, 1.0);
    const double p_idle = std::stod(argv[4]), p_stall = std::stod(argv[5]);
    FILE *out = fopen(argv[2], "w");

    Verilated::commandArgs(argc, argv);
    Vudp_tx *t = new Vudp_tx;
    t->cfg_mac = 0x020000000001ULL;
    t->cfg_ip = 0xC0000201u;
    t->cfg_ttl = 64;
    t->cfg_df = 1;
    t->rst = 1;
    for (int i = 0; i < 4; i++) {
        t->clk = 0;
        t->eval();
        t->clk = 1;
        t->eval();
    }
    t->rst = 0;

    size_t hi = 0, pi = 0, poff = 0;   // next header, payload datagram, byte offset
    std::deque<size_t> arp_order;      // datagrams that will ask ARP, in order
    for (size_t i = 0; i < dgs.size(); i++)
        if (!dgs[i].mv) arp_order.push_back(i);
    int arp_state = 0, arp_wait = 0;   // 0 idle, 1 request taken, waiting to answer
    size_t arp_for = 0;
    std::vector<uint8_t> frame;
    uint64_t cyc = 0, last_progress = 0;
    bool h_on = false, p_on = false;

    while (true) {
        // ---- inputs for this cycle (never depending on this cycle's ready)
        if (!h_on && hi < dgs.size() && U(rng) >= p_idle) h_on = true;
        t->s_hdr_valid = h_on;
        if (hi < dgs.size()) {
            const Dg &d = dgs[hi];
            t->s_hdr_dst_mac = d.mac;
            t->s_hdr_dst_mac_valid = d.mv;
            t->s_hdr_dst_ip = d.ip;
            t->s_hdr_dst_port = d.dport;
            t->s_hdr_src_port = d.sport;
            t->s_hdr_len = d.len;
            t->s_hdr_csum = d.csum;
            t->s_hdr_csum_mode = d.mode;
        }
        if (!p_on && pi < dgs.size() && U(rng) >= p_idle) p_on = true;
        t->s_axis_tvalid = p_on;
        if (pi < dgs.size()) {
            const Dg &d = dgs[pi];
            uint64_t data = 0;
            int keep = 0, n = 0;
            for (int k = 0; k < KW && poff + k < d.pay.size(); k++, n++) {
                data |= (uint64_t)d.pay[poff + k] << (8 * k);
                keep |= 1 << k;
            }
            bool last = poff + KW >= d.pay.size();
            t->s_axis_tdata = data;
            t->s_axis_tkeep = keep;
            t->s_axis_tlast = last;
            t->s_axis_tuser = last && d.tuser;
        }
        t->m_axis_tready = U(rng) >= p_stall;
        t->arp_req_ready = (arp_state == 0) && U(rng) < 0.5;
        t->arp_resp_valid = 0;
        if (arp_state == 1 && arp_wait == 0) {
            t->arp_resp_valid = 1;
            t->arp_resp_hit = dgs[arp_for].hit;
            t->arp_resp_mac = dgs[arp_for].amac;
        }
        t->clk = 0;
        t->eval();

        // ---- handshakes sampled at the rising edge
        bool h_fire = t->s_hdr_valid && t->s_hdr_ready;
        bool p_fire = t->s_axis_tvalid && t->s_axis_tready;
        bool o_fire = t->m_axis_tvalid && t->m_axis_tready;
        bool a_fire = t->arp_req_valid && t->arp_req_ready;
        uint64_t o_data = t->m_axis_tdata;
        int o_keep = t->m_axis_tkeep, o_last = t->m_axis_tlast, o_user = t->m_axis_tuser;
        uint32_t a_ip = t->arp_req_ip;
        bool a_resp = t->arp_resp_valid;
        // the event strobes (cnt_ev), counted as stat_counters counts them (before the edge)
        for (int b = 0; b < 6; b++) ev_n[b] += (t->cnt_ev >> b) & 1;

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
            if (poff >= dgs[pi].pay.size()) {
                pi++;
                poff = 0;
            }
            p_on = false;
            last_progress = cyc;
        }
        if (a_fire) {
            if (arp_order.empty()) {
                std::cerr << "unexpected ARP request\n";
                return 3;
            }
            arp_for = arp_order.front();
            arp_order.pop_front();
            if (a_ip != dgs[arp_for].ip) {
                std::cerr << "ARP asked for the wrong address\n";
                return 3;
            }
            arp_state = 1;
            arp_wait = (int)(rng() % 6);
        } else if (arp_state == 1) {
            if (a_resp) arp_state = 0;
            else if (arp_wait > 0) arp_wait--;
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
        if (hi >= dgs.size() && pi >= dgs.size() && cyc - last_progress > 300) break;
        if (cyc - last_progress > 20000) {
            fprintf(out, "HANG %zu %zu\n", hi, pi);
            fclose(out);
            return 2;
        }
    }
    fprintf(out, "C cnt_tx_frames %llu\n", (unsigned long long)ev_n[0]);
    fprintf(out, "C cnt_tx_abort %llu\n", (unsigned long long)ev_n[1]);
    fprintf(out, "C cnt_tx_long %llu\n", (unsigned long long)ev_n[2]);
    fprintf(out, "C cnt_arp_miss %llu\n", (unsigned long long)ev_n[3]);
    fprintf(out, "C cnt_sf_frames %llu\n", (unsigned long long)ev_n[4]);
    fprintf(out, "C cnt_sf_overflow %llu\n", (unsigned long long)ev_n[5]);
    fprintf(out, "CYCLES %llu\n", (unsigned long long)cyc);
    fclose(out);
    t->final();
    delete t;
    return 0;
}
