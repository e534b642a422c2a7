// vboard: the wirecore virtual board.
//
// Runs the Verilator model of a virtual-board top (class Vtop) on one 125 MHz clock and
// bridges its GMII port to a Linux TAP interface (a top with an XGMII port instead,
// VBOARD_XGMII in vboard_model.h: one 156.25 MHz clock, 8 bytes a cycle; see "XGMII"
// below):
//   TAP -> RTL: frames are read from the TAP as they come (every 256-cycle chunk, and
//     when woken from sleep) into the link queue, bounded in frames and bytes
//     (--link-queue-frames/-bytes; a frame that finds it full is dropped and counted).
//     Each frame (no FCS, possibly shorter than 60 bytes) is padded to 60 bytes, given
//     an FCS, preceded by 7 preamble bytes and the SFD, and driven on
//     gmii_rxd/gmii_rx_dv one byte per cycle, back to back with 12 idle cycles between
//     frames while the queue holds any.
//   RTL -> TAP: each frame the RTL sends on gmii_txd/gmii_tx_en has its preamble and
//     SFD checked and its FCS checked and stripped before it is written to the TAP.
//     Frames with a bad FCS, a gmii_tx_er (aborted), a bad preamble or shorter than
//     64 bytes are dropped and counted.
// --impair adds deterministic impairments per direction (loss, duplication, reordering,
// corruption, bad FCS, delay: vboard_link.h), --impair-seed their seed: towards the board
// on frames as they enter the link queue, from the board on frames before they are
// written to the TAP.
// The wire record (--pcap): every frame on the GMII port, both ways, stamped with the
// simulated time of its first preamble byte (its cycle, counted from 0 in the first
// cycle after reset, x 8 ns), or with --pcap-clock wall the wall clock (vboard_link.h).
// A byte's cycle is the one whose rising edge samples it at its receiver, the same rule
// both ways: towards the board the cycle the harness drives gmii_rxd (the FPGA samples it
// at that cycle's edge), from the board the cycle after the edge that drives gmii_txd
// (the PHY samples it at the next edge). A scope sees each byte on the wires during the
// cycle of its stamp, so a turnaround (a request's last byte to the reply's first) is
// the difference of the two stamps' cycles as the design makes it.
// While nothing is in flight the program sleeps in poll() on the TAP (at most 1 ms at a
// time), so an idle board costs little CPU. tick_1ms is pulsed once per wall-clock
// millisecond, so the RTL's timers agree with Linux's: while busy as the milliseconds
// pass (at least 16 cycles apart), while idle in batches every --idle-tick-ms (10 ms),
// each batch followed by --tick-cycles cycles so that a timer that fires can act.
//
// Each simulated cycle is a clock period of the model (clk low, evaluated; clk high,
// evaluated) with the GMII inputs of that cycle, except quiescent cycles: when the
// model's whole state (the root object's memory) is the same after a cycle with idle
// inputs as before it, it is a fixed point, and every further cycle with the same
// inputs is counted without evaluating the model (exact: the model is deterministic;
// see "Fast-forward" below; --no-skip evaluates every cycle). --inject FILE sends the
// frames of a pcap to the board as if they came from the TAP (benchmarks under load
// without a TAP, the training run of the profile-guided build, host/wirecore/vboard.py,
// and the tests), as fast as the link takes them or (--inject-timed) each at the
// simulated time of its pcap timestamp.
//
// Statistics (cycles simulated, cycles/s, frames each way, drops, the link's counters,
// the TAP interface's own counters, and the top's counters) are printed at exit
// (SIGINT/SIGTERM), every --stats-interval seconds, and on SIGUSR1; with --stats-file
// they are also written there as JSON.
//
// The counters of the top are listed by vboard_counters.h, generated at build time
// (wirecore.vboard.counters_of: the register map's counters on vboard_top's sim_counters,
// or a test top's cnt_* ports): #define VBOARD_COUNTERS(X) X("name", value) ...
// vboard_model.h, generated after verilating, defines VBOARD_ROOT_ONLY: 1 when the
// model is the root class alone (every module inlined into it, so the root object holds
// the whole state), else 0 and the fast-forward is off; and VBOARD_XGMII: 1 when the top
// has an XGMII port (xgmii_rxd/rxc, xgmii_txd/txc) in place of GMII.
//
// XGMII (vboard_top_10g): 64 bits and 8 control bits a cycle at 156.25 MHz (6.4 ns), lane
// 0 first. Towards the RTL a frame is /S/ (in place of the first preamble byte), 6
// preamble bytes, the SFD, the frame padded to 60 bytes, its FCS and /T/, then idles
// (/I/); it starts on lane 0 or lane 4, and the gap from /T/ (included) to the next /S/
// is 12 bytes on average, kept by a deficit idle count as the MAC's transmitter keeps
// it (IEEE 802.3 clause 46.3.1.4): a gap is shortened by up to 3 bytes to start on the
// lane boundary before, as long as the bytes shortened, less those lengthened since, stay
// within 3; a gap that ends with no frame waiting clears the deficit. From the RTL a
// frame runs from /S/ (lane 0 or 4) to /T/; /E/ inside it or another control character
// ending it counts it as aborted; preamble, SFD and FCS are checked as for GMII. Wire
// times are counted in bytes (0.8 ns each): a frame's stamp is the time of its /S/ byte,
// rounded down to the nanosecond, and the gaps in the statistics are in bytes.

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Vtop.h"
#include "Vtop___024root.h"
#include "verilated.h"
#include "vboard_counters.h"
#include "vboard_link.h"
#include "vboard_model.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

namespace {

constexpr size_t kMaxFrame = 16384;  // jumbo-aware buffer size (bytes on the wire)
constexpr int kIfg = 12;             // gap bytes between frames towards the RTL
constexpr int kChunk = 256;          // cycles between checks of the clock and the TAP
constexpr size_t kFeedAhead = 64;    // --inject (untimed): frames kept in the link queue
constexpr size_t kTapBurst = 4096;   // most frames read from the TAP at one time
constexpr uint64_t kFlushNs = 100000000ull;  // the wire record is written this often
constexpr int kTickSpacing = 16;     // fewest cycles between two tick_1ms pulses
#if VBOARD_XGMII
constexpr size_t kLanes = 8;            // bytes a cycle (XGMII: 156.25 MHz, 6.4 ns)
constexpr uint64_t kPsPerByte = 800;    // 10 Gbit/s
constexpr double kLineMbps = 10000.0;
constexpr uint64_t kCycNum = 5, kCycDen = 32;  // cycles per ns: 5/32 (1/6.4)
constexpr uint64_t kIdleWord = 0x0707070707070707ull;  // eight /I/
constexpr uint8_t kXgS = 0xFB, kXgT = 0xFD, kXgE = 0xFE, kXgI = 0x07;  // /S/ /T/ /E/ /I/
#else
constexpr size_t kLanes = 1;            // bytes a cycle (GMII: 125 MHz, 8 ns)
constexpr uint64_t kPsPerByte = 8000;   // 1 Gbit/s
constexpr double kLineMbps = 1000.0;
constexpr uint64_t kCycNum = 1, kCycDen = 8;  // cycles per ns: 1/8
#endif

// Fast-forward. A cycle's next state is a function of the model's state and the inputs
// of that cycle, and the model's whole state is the memory of its root object (every
// signal, memory, shadow copy and the scheduler's trigger flags are members of it; the
// rest is constant pointers and names). If a cycle with idle inputs (gmii_rx_dv, rxd,
// rx_er, tick_1ms and rst 0; the cfg_* inputs are set once before reset) leaves that
// memory byte for byte as it was after the previous cycle, the state is a fixed point:
// every further cycle with the same inputs leaves it unchanged too, and produces the
// same outputs. Such cycles are then only counted (the harness's own per-cycle work,
// the wire and the gap counters, still runs) until an input changes (a frame to send
// to the board, a tick). The check is a copy of the root object after one idle cycle
// and a comparison after the next; the whole object (vboard_top: 150 KB, mostly
// memories) costs a few tens of cycles' evaluation, so its first kQuickBytes (there:
// nearly every register; the memories follow) are compared first, and only when they
// are equal is the whole object copied and compared over the next cycle. A check
// starts after kCheckFirst evaluated idle cycles, and after each failed one the wait
// doubles up to kCheckMax (it is back to kCheckFirst when a fixed point is left).
constexpr uint64_t kCheckFirst = 24;
constexpr uint64_t kCheckMax = 256;
constexpr size_t kQuickBytes = 4096;

// A top may have a 64-bit input sim_cycle: the harness drives it with the number of
// cycles since reset ended (0 in the first cycle after reset, as a free-running counter
// reset with the design counts), so that the design needs no free-running counter of
// its own (vboard_top: the generator's timestamp). It changes every cycle, so the
// fast-forward's comparison leaves its 8 bytes out; that is exact only if the design
// reads it into its state solely in a cycle where its state changes anyway (vboard_top:
// pktgen reads it only when a datagram's header is taken, and leaves S_HDR then), so a
// fixed point never depends on its value.
template <typename R, typename = void>
struct HasSimCycle : std::false_type {};
template <typename R>
struct HasSimCycle<R, std::void_t<decltype(std::declval<R&>().sim_cycle)>> : std::true_type {};
constexpr bool kSimCycle = HasSimCycle<Vtop___024root>::value;

template <typename R>
inline void set_sim_cycle(R* root, uint64_t c) {
    if constexpr (HasSimCycle<R>::value) root->sim_cycle = c;
}

template <typename R>
inline size_t sim_cycle_offset(const R* root) {
    if constexpr (HasSimCycle<R>::value)
        return size_t(reinterpret_cast<const uint8_t*>(&root->sim_cycle) -
                      reinterpret_cast<const uint8_t*>(root));
    else
        return sizeof(R);
}

volatile sig_atomic_t g_stop = 0;
volatile sig_atomic_t g_dump = 0;
volatile sig_atomic_t g_reimpair = 0;

void on_stop(int) { g_stop = 1; }
void on_dump(int) { g_dump = 1; }
void on_reimpair(int) { g_reimpair = 1; }

// s with the characters JSON strings cannot hold as they are replaced by '?'.
std::string json_safe(std::string s) {
    for (char& c : s)
        if (c == '"' || c == '\\' || (unsigned char)c < 0x20) c = '?';
    return s;
}

uint32_t crc_table[256];

void crc_init() {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
        crc_table[i] = c;
    }
}

uint32_t crc32(const uint8_t* p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

double cpu_seconds() {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

uint64_t now_ns() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

[[noreturn]] void die(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "vboard: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

struct Options {
    std::string tap = "tap0";
    uint64_t mac = 0x020000000002ull;
    uint32_t ip = 0xC0000202u;       // 192.0.2.2
    uint32_t netmask = 0xFFFFFF00u;  // 255.255.255.0
    uint32_t gateway = 0xC0000201u;  // 192.0.2.1
    uint32_t echo_port = 7;
    std::string pcap;
    std::string trace;
    std::string stats_file;
    double stats_interval = 0;
    uint64_t idle_cycles = 10000;  // cycles simulated after the last activity before sleeping
    uint64_t tick_cycles = 256;    // cycles simulated after a tick while idle
    uint64_t idle_tick_ms = 10;    // while idle, owed ticks are delivered in batches this often
    bool spin = false;             // never sleep (benchmarks)
    double run_seconds = 0;        // stop after this many wall-clock seconds (0: never)
    uint64_t run_cycles = 0;       // stop after this many cycles (0: never)
    std::string inject;            // pcap whose frames are sent to the board as from the TAP
    uint64_t inject_repeat = 1;    // times the pcap is sent
    bool inject_timed = false;     // each injected frame at its pcap timestamp (simulated time)
    bool skip = true;              // fast-forward over quiescent cycles
    uint64_t tick_every = 0;       // tick_1ms every N simulated cycles instead of each wall ms
    bool pcap_wall = false;        // pcap timestamps: the wall clock (default: wire time)
    uint64_t pcap_limit = 0;       // the pcap grows to at most this many bytes (0: no limit)
    uint64_t queue_frames = 16384;      // link queue towards the board: frames
    uint64_t queue_bytes = 16ull << 20;  // and bytes (frames without FCS, padded to 60)
    vboard::Impair impair[2];           // rx (towards the board), tx (from the board)
    uint64_t impair_seed = 1;
    std::string impair_file;            // read again on SIGUSR2: new impairments
};

uint32_t parse_ip(const char* s, const char* what) {
    struct in_addr a;
    if (inet_pton(AF_INET, s, &a) != 1) die("%s: not an IPv4 address: %s", what, s);
    return ntohl(a.s_addr);
}

uint64_t parse_mac(const char* s) {
    unsigned b[6];
    char extra;
    if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &extra) != 6)
        die("--mac: not a MAC address (aa:bb:cc:dd:ee:ff): %s", s);
    uint64_t m = 0;
    for (unsigned v : b) {
        if (v > 255) die("--mac: not a MAC address: %s", s);
        m = (m << 8) | v;
    }
    return m;
}

double parse_num(const char* s, const char* what) {
    char* end = nullptr;
    double v = strtod(s, &end);
    if (!end || *end || v < 0) die("%s: not a non-negative number: %s", what, s);
    return v;
}

uint64_t parse_count(const char* s, const char* what, uint64_t least) {
    char* end = nullptr;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!*s || *s == '-' || !end || *end || errno || v < least)
        die("%s: a whole number >= %" PRIu64 ": %s", what, least, s);
    return uint64_t(v);
}

void usage(FILE* f) {
    fprintf(f,
            "usage: vboard [options]\n"
            "The wirecore virtual board: the RTL simulated with Verilator, its GMII port on a "
            "Linux TAP.\n\n"
            "  --tap NAME            TAP interface to attach (default tap0; 'none': no TAP)\n"
            "  --mac MAC             board MAC address (default 02:00:00:00:00:02)\n"
            "  --ip IP               board IPv4 address (default 192.0.2.2)\n"
            "  --netmask MASK        netmask (default 255.255.255.0)\n"
            "  --gateway IP          gateway (default 192.0.2.1)\n"
            "  --udp-echo-port N     UDP echo port (default 7)\n"
            "  --pcap FILE           write every frame on the wire, both ways, to FILE (pcap,\n"
            "                        nanosecond stamps: wire time, see --pcap-clock)\n"
            "  --pcap-clock sim|wall the pcap's stamps: sim (default) the simulated time of the\n"
            "                        frame's first preamble byte on the wire (its cycle,\n"
            "                        0 = the first cycle after reset, x 8 ns); wall the wall\n"
            "                        clock when the simulation put that byte on the wire\n"
            "  --pcap-limit BYTES    stop recording once the pcap would exceed BYTES (0: never)\n"
            "  --trace FILE          write a VCD trace (only in a build with tracing)\n"
            "  --stats-interval S    print statistics every S seconds (default: only at exit)\n"
            "  --stats-file FILE     also write statistics as JSON to FILE\n"
            "  --idle-cycles N       cycles simulated after the last activity before sleeping "
            "(default 10000)\n"
            "  --tick-cycles N       cycles simulated after ticks delivered while idle "
            "(default 256)\n"
            "  --idle-tick-ms N      while idle, deliver the owed ticks every N ms "
            "(default 10; 1: every millisecond)\n"
            "  --spin                never sleep (benchmarks)\n"
            "  --run-seconds S       stop after S seconds of wall-clock time\n"
            "  --run-cycles N        stop after N cycles (within one chunk of 256)\n"
            "  --link-queue-frames N the link queue towards the board holds at most N frames\n"
            "                        (default 16384)\n"
            "  --link-queue-bytes N  ... and N bytes (frames without FCS; default 16 MiB);\n"
            "                        frames that find it full are dropped and counted\n"
            "  --impair SPEC         impair a direction (repeatable): DIR:ITEM[,ITEM...],\n"
            "                        DIR rx (towards the board), tx (from it) or both; ITEM\n"
            "                        loss=P, dup=P, reorder=P[:depth=N][:hold=CYCLES],\n"
            "                        corrupt=P (a payload byte, FCS recomputed), fcs=P (FCS\n"
            "                        inverted), delay=CYCLES[:jitter=CYCLES], rate=MBIT/S\n"
            "                        (0.01..1000); P in 0..1\n"
            "                        e.g. --impair rx:loss=0.05,reorder=0.02:depth=4\n"
            "  --impair-seed N       the impairments' seed (default 1): the same seed and the\n"
            "                        same frames give the same result\n"
            "  --impair-file FILE    on SIGUSR2, take the impairments from FILE (SPECs and\n"
            "                        seed=N separated by white space; both directions start\n"
            "                        from none; an empty file: no impairment); the statistics\n"
            "                        file is written once they apply\n"
            "  --inject FILE         send the frames of a pcap (Ethernet, no FCS) to the board,\n"
            "                        as fast as the link takes them (with or without a TAP)\n"
            "  --inject-repeat N     send the pcap's frames N times over (default 1)\n"
            "  --inject-timed        each injected frame enters the link at its pcap timestamp\n"
            "                        read as wire time (cycle = timestamp / 8 ns, 0 = the first\n"
            "                        cycle after reset; not before), as if the PC sent it then;\n"
            "                        round r of --inject-repeat r x the last frame's time later\n"
            "  --tick-every-cycles N pulse tick_1ms every N simulated cycles instead of once\n"
            "                        per wall-clock millisecond (deterministic runs; never\n"
            "                        sleeps)\n"
            "  --no-skip             evaluate every cycle (no fast-forward over quiescent\n"
            "                        cycles)\n"
            "  -h, --help            this help\n"
            "SIGINT/SIGTERM stop the board and print statistics; SIGUSR1 prints them now;\n"
            "SIGUSR2 reads --impair-file.\n");
}

Options parse_args(int argc, char** argv) {
    Options o;
    enum {
        O_TAP = 1000, O_MAC, O_IP, O_MASK, O_GW, O_ECHO, O_PCAP, O_TRACE, O_SINT, O_SFILE,
        O_IDLE, O_TICK, O_SPIN, O_RUN, O_ITICK, O_RUNC, O_INJ,
        O_INJR, O_INJT, O_NOSKIP, O_TICKC, O_PCAPCLK, O_PCAPLIM, O_QFR, O_QBY, O_IMP, O_SEED, O_IMPF
    };
    static const struct option longopts[] = {
        {"tap", required_argument, nullptr, O_TAP},
        {"mac", required_argument, nullptr, O_MAC},
        {"ip", required_argument, nullptr, O_IP},
        {"netmask", required_argument, nullptr, O_MASK},
        {"gateway", required_argument, nullptr, O_GW},
        {"udp-echo-port", required_argument, nullptr, O_ECHO},
        {"pcap", required_argument, nullptr, O_PCAP},
        {"trace", required_argument, nullptr, O_TRACE},
        {"stats-interval", required_argument, nullptr, O_SINT},
        {"stats-file", required_argument, nullptr, O_SFILE},
        {"idle-cycles", required_argument, nullptr, O_IDLE},
        {"tick-cycles", required_argument, nullptr, O_TICK},
        {"idle-tick-ms", required_argument, nullptr, O_ITICK},
        {"spin", no_argument, nullptr, O_SPIN},
        {"run-seconds", required_argument, nullptr, O_RUN},
        {"run-cycles", required_argument, nullptr, O_RUNC},
        {"inject", required_argument, nullptr, O_INJ},
        {"inject-repeat", required_argument, nullptr, O_INJR},
        {"inject-timed", no_argument, nullptr, O_INJT},
        {"no-skip", no_argument, nullptr, O_NOSKIP},
        {"tick-every-cycles", required_argument, nullptr, O_TICKC},
        {"pcap-clock", required_argument, nullptr, O_PCAPCLK},
        {"pcap-limit", required_argument, nullptr, O_PCAPLIM},
        {"link-queue-frames", required_argument, nullptr, O_QFR},
        {"link-queue-bytes", required_argument, nullptr, O_QBY},
        {"impair", required_argument, nullptr, O_IMP},
        {"impair-seed", required_argument, nullptr, O_SEED},
        {"impair-file", required_argument, nullptr, O_IMPF},
        {"help", no_argument, nullptr, 'h'},
        {nullptr, 0, nullptr, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, nullptr)) != -1) {
        switch (c) {
            case O_TAP: o.tap = optarg; break;
            case O_MAC: o.mac = parse_mac(optarg); break;
            case O_IP: o.ip = parse_ip(optarg, "--ip"); break;
            case O_MASK: o.netmask = parse_ip(optarg, "--netmask"); break;
            case O_GW: o.gateway = parse_ip(optarg, "--gateway"); break;
            case O_ECHO: {
                double v = parse_num(optarg, "--udp-echo-port");
                if (v < 1 || v > 65535 || v != uint32_t(v)) die("--udp-echo-port: 1..65535");
                o.echo_port = uint32_t(v);
                break;
            }
            case O_PCAP: o.pcap = optarg; break;
            case O_TRACE: o.trace = optarg; break;
            case O_SINT: o.stats_interval = parse_num(optarg, "--stats-interval"); break;
            case O_SFILE: o.stats_file = optarg; break;
            case O_IDLE: o.idle_cycles = uint64_t(parse_num(optarg, "--idle-cycles")); break;
            case O_TICK: o.tick_cycles = uint64_t(parse_num(optarg, "--tick-cycles")); break;
            case O_ITICK: {
                double v = parse_num(optarg, "--idle-tick-ms");
                if (v < 1 || v > 1000) die("--idle-tick-ms: 1..1000");
                o.idle_tick_ms = uint64_t(v);
                break;
            }
            case O_SPIN: o.spin = true; break;
            case O_RUN: o.run_seconds = parse_num(optarg, "--run-seconds"); break;
            case O_RUNC: o.run_cycles = uint64_t(parse_num(optarg, "--run-cycles")); break;
            case O_INJ: o.inject = optarg; break;
            case O_INJR: o.inject_repeat = uint64_t(parse_num(optarg, "--inject-repeat")); break;
            case O_INJT: o.inject_timed = true; break;
            case O_NOSKIP: o.skip = false; break;
            case O_TICKC: {
                double v = parse_num(optarg, "--tick-every-cycles");
                if (v < kTickSpacing || v != uint64_t(v))
                    die("--tick-every-cycles: a whole number >= %d", kTickSpacing);
                o.tick_every = uint64_t(v);
                break;
            }
            case O_PCAPCLK:
                if (strcmp(optarg, "sim") != 0 && strcmp(optarg, "wall") != 0)
                    die("--pcap-clock: sim or wall");
                o.pcap_wall = strcmp(optarg, "wall") == 0;
                break;
            case O_PCAPLIM: o.pcap_limit = parse_count(optarg, "--pcap-limit", 0); break;
            case O_QFR: o.queue_frames = parse_count(optarg, "--link-queue-frames", 1); break;
            case O_QBY: o.queue_bytes = parse_count(optarg, "--link-queue-bytes", 60); break;
            case O_IMP: {
                std::string err = vboard::parse_impair(optarg, o.impair);
                if (!err.empty()) die("--impair %s: %s", optarg, err.c_str());
                break;
            }
            case O_SEED: o.impair_seed = parse_count(optarg, "--impair-seed", 0); break;
            case O_IMPF: o.impair_file = optarg; break;
            case 'h': usage(stdout); exit(0);
            default: usage(stderr); exit(2);
        }
    }
    if (optind != argc) {
        usage(stderr);
        die("unexpected argument: %s", argv[optind]);
    }
#if !VM_TRACE
    if (!o.trace.empty()) die("--trace: this build has no tracing (build it with trace=True)");
#endif
    if (o.inject_timed && o.inject.empty()) die("--inject-timed needs --inject");
    return o;
}

struct Stats {
    uint64_t to_board_frames = 0, to_board_bytes = 0;
    uint64_t from_board_frames = 0, from_board_bytes = 0;
    uint64_t from_board_bad_fcs = 0, from_board_aborted = 0, from_board_bad_preamble = 0;
    uint64_t from_board_runt = 0, from_board_oversize = 0;
    uint64_t tap_oversize = 0, tap_write_errors = 0;
    uint64_t ticks = 0;
    uint64_t from_board_min_gap = UINT64_MAX;  // fewest idle cycles seen between two frames
};

// The link queue towards the board (see the top of the file).
struct LinkQueue {
    std::deque<vboard::LinkFrame> q;
    uint64_t bytes = 0;
    uint64_t queued = 0, drops = 0, drop_bytes = 0;  // frames taken in; dropped (full)
    uint64_t peak_frames = 0, peak_bytes = 0;
};

class Board {
  public:
    Board(const Options& o) : o_(o) {}

    void run();

  private:
    void open_tap();
    void read_tap();
    void load_inject();
    void feed_inject();
    bool inject_left() const { return inject_round_ < o_.inject_repeat && !inject_.empty(); }
    void release_timed();
    void link_events();
    void update_next_event();
    void from_pc(std::vector<uint8_t>&& f);
    void enqueue(vboard::LinkFrame&& f);
    void to_pc(vboard::LinkFrame&& f);
    bool link_pending() const;
    // wire time: cycles counted from the first cycle after reset, x 8 ns (GMII), or bytes
    // (cycles x 8 + lane) x 0.8 ns rounded down (XGMII)
    uint64_t sim_ns(uint64_t cycle, size_t lane = 0) const {
        return cycle >= reset_end_ ? ((cycle - reset_end_) * kLanes + lane) * kPsPerByte / 1000
                                   : 0;
    }
    void cycle();
    void drive_rx();   // the PHY's inputs for this cycle (the wire towards the RTL)
    void sample_tx();  // the PHY's outputs of this cycle (the wire from the RTL)
    bool rx_idle_in() const;  // the wire towards the RTL is idle this cycle
    bool tx_line_busy() const;  // the RTL drives something but idle on its wire
    // cycles that may pass before a frame can start towards the RTL (the gap left)
    uint64_t rx_gap_cycles() const;
    void rx_idle_bytes(uint64_t n);  // n idle bytes on the wire towards the RTL
#if VBOARD_XGMII
    bool rx_may_start();  // the deficit idle count lets a frame start at this lane
#endif
    void after_idle_eval();
    void skip_idle(uint64_t k);
    void start_rx_frame(size_t lane = 0);
    void end_tx_frame();
    void print_stats(FILE* f, bool final);
    void write_stats_file();
    void write_link_json(FILE* f);
    void reimpair();
    void write_pc_json(FILE* f);
    bool tap_stat(const char* name, uint64_t* v) const;

    const Options& o_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtop> top_;
#if VM_TRACE
    std::unique_ptr<VerilatedVcdC> vcd_;
#endif
    int tap_ = -1;
    vboard::WireRecord pcap_;
    Stats st_;
    uint64_t cycles_ = 0;
    uint64_t t_start_ = 0, busy_ns_ = 0;

    // TAP -> RTL
    LinkQueue link_;
    vboard::Impairer imp_[2];            // rx (towards the board), tx (from the board)
    vboard::Impairer::Push to_queue_, to_tap_;
    uint64_t seed_ = 0;               // the impairments' seed now
    uint64_t impair_reads_ = 0;       // --impair-file read (SIGUSR2)
    uint64_t impair_changes_ = 0;     // settings taken from it
    std::string impair_error_;        // why the last --impair-file was refused ("" if not)
    std::deque<vboard::LinkFrame> tx_out_;  // frames from the board due for the TAP
    uint64_t tx_free_ = 0;   // rate: the first cycle the slower wire towards the TAP is free
    uint64_t rx_extra_ = 0;  // rate: idle bytes added after the frame on the wire now
    std::vector<uint8_t> rx_wire_;
    size_t rx_pos_ = 0;
    int rx_gap_ = 0;         // idle bytes still due before the next frame (GMII: cycles)
    uint64_t rx_over_ = 0;   // XGMII: idle bytes beyond the gap since it ended
    uint64_t rx_deficit_ = 0;  // XGMII: the deficit idle count (0..3)
    bool tick_now_ = false;
    uint64_t ticks_owed_ = 0;  // wall-clock milliseconds not yet given to the RTL
    std::vector<std::vector<uint8_t>> inject_;  // --inject frames
    std::vector<uint64_t> inject_due_;          // --inject-timed: each frame's cycle after reset
    size_t inject_pos_ = 0;
    uint64_t inject_round_ = 0;
    uint64_t next_due_ = UINT64_MAX;    // --inject-timed: the next frame's cycle
    uint64_t next_event_ = UINT64_MAX;  // the next cycle at which link_events() has work
    uint64_t ticks_accrued_ = 0;        // --tick-every-cycles: ticks owed so far

    // fast-forward (see kCheckFirst)
    bool skip_on_ = false;
    bool fixed_ = false;       // the model's state is a fixed point under idle inputs
    int snap_stage_ = 0;  // snap_ holds the state after the previous (idle) cycle: 1 its
                          // first quick_ bytes, 2 all of it; 0 nothing
    uint64_t idle_run_ = 0;    // evaluated cycles with idle inputs
    uint64_t check_wait_ = kCheckFirst;
    uint64_t next_check_ = kCheckFirst;
    std::vector<uint8_t> snap_;
    uint64_t evaluated_ = 0, skipped_ = 0, checks_ = 0, fixed_points_ = 0;
    size_t excl_off_ = 0, excl_len_ = 0;  // bytes left out of the comparison (sim_cycle)
    size_t quick_ = 0;                   // bytes of the quick comparison
    uint64_t reset_end_ = UINT64_MAX;    // the first cycle after reset
    bool same_state(const uint8_t* a, const uint8_t* b, size_t n) const;
    void check_failed();

    // RTL -> TAP
    std::vector<uint8_t> tx_buf_;
    bool tx_in_frame_ = false;
    bool tx_err_ = false;
    bool tx_overflow_ = false;
    bool tx_seen_ = false;   // a frame has ended before (so a gap can be measured)
    uint64_t tx_idle_ = 0;   // idle bytes since the last frame ended (GMII: cycles)
    uint64_t tx_start_ = 0;  // the cycle of the current frame's first byte
};

void Board::open_tap() {
    if (o_.tap == "none") return;
    tap_ = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (tap_ < 0) {
        die("cannot open /dev/net/tun: %s%s", strerror(errno),
            errno == EACCES || errno == EPERM
                ? " (it needs root: run as root, or use 'wirecore board up' as root)"
                : "");
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    if (o_.tap.size() >= IFNAMSIZ) die("--tap: name too long: %s", o_.tap.c_str());
    strncpy(ifr.ifr_name, o_.tap.c_str(), IFNAMSIZ - 1);
    if (ioctl(tap_, TUNSETIFF, &ifr) < 0)
        die("cannot attach to TAP %s: %s", o_.tap.c_str(), strerror(errno));
}

// Take every frame the TAP holds (at most kTapBurst at a time) into the link.
void Board::read_tap() {
    if (tap_ < 0) return;
    uint8_t buf[kMaxFrame];
    for (size_t k = 0; k < kTapBurst; k++) {
        ssize_t n = ::read(tap_, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            return;  // EAGAIN: nothing more now
        }
        if (n == 0) return;
        if (size_t(n) + 12 > kMaxFrame) {
            st_.tap_oversize++;
            continue;
        }
        from_pc(std::vector<uint8_t>(buf, buf + n));
    }
}

// A frame from the PC (the TAP or --inject) enters the link at this cycle: padded to
// 60 bytes as it will be on the wire, impaired, then queued.
void Board::from_pc(std::vector<uint8_t>&& f) {
    if (f.size() < 60) f.resize(60, 0);  // the padding is on the wire and in the FCS
    imp_[0].enter(std::move(f), cycles_, to_queue_);
    update_next_event();
}

void Board::enqueue(vboard::LinkFrame&& f) {
    LinkQueue& l = link_;
    if (l.q.size() >= o_.queue_frames || l.bytes + f.data.size() > o_.queue_bytes) {
        l.drops++;
        imp_[0].n.queue_drops++;
        l.drop_bytes += f.data.size();
        return;
    }
    l.bytes += f.data.size();
    l.q.push_back(std::move(f));
    l.queued++;
    if (l.q.size() > l.peak_frames) l.peak_frames = l.q.size();
    if (l.bytes > l.peak_bytes) l.peak_bytes = l.bytes;
}

// A frame from the board, after its impairments: written to the TAP when due.
// With a rate, it waits for its turn on the slower wire; the queue towards the TAP holds
// at most --link-queue-frames frames (a frame that finds it full is dropped and counted).
void Board::to_pc(vboard::LinkFrame&& f) {
    const double rate = imp_[1].settings().rate;
    if (rate > 0) {
        if (tx_out_.size() >= o_.queue_frames) {
            imp_[1].n.queue_drops++;
            return;
        }
        if (f.due < tx_free_) f.due = tx_free_;
        const uint64_t bytes = vboard::occupancy_bytes(f.data.size(), rate, kLineMbps);
        tx_free_ = f.due + (bytes + kLanes - 1) / kLanes;
    }
    tx_out_.push_back(std::move(f));
}

bool Board::link_pending() const {
    return !tx_out_.empty() || imp_[0].holding() || imp_[1].holding();
}

void Board::update_next_event() {
    uint64_t t = next_due_;
    for (const vboard::Impairer& i : imp_) {
        const uint64_t d = i.next_deadline();
        if (d < t) t = d;
    }
    if (!tx_out_.empty() && tx_out_.front().due < t) t = tx_out_.front().due;
    next_event_ = t;
}

// What is due at this cycle: timed frames from the PC, frames held back whose time is
// up, frames from the board for the TAP.
void Board::link_events() {
    if (cycles_ >= next_due_) release_timed();
    for (vboard::Impairer& i : imp_)
        if (i.next_deadline() <= cycles_) i.expire(cycles_, &i == &imp_[0] ? to_queue_ : to_tap_);
    while (!tx_out_.empty() && tx_out_.front().due <= cycles_) {
        vboard::LinkFrame f = std::move(tx_out_.front());
        tx_out_.pop_front();
        if (f.bad_fcs) continue;  // the PC's side drops it (counted as fcs_corrupted)
        imp_[1].n.delivered++;
        if (tap_ >= 0) {
            ssize_t r = ::write(tap_, f.data.data(), f.data.size());
            if (r != ssize_t(f.data.size())) st_.tap_write_errors++;
        }
    }
    update_next_event();
}

void Board::load_inject() {
    if (o_.inject.empty()) return;
    FILE* f = fopen(o_.inject.c_str(), "rb");
    if (!f) die("--inject %s: %s", o_.inject.c_str(), strerror(errno));
    uint32_t hdr[6];
    if (fread(hdr, 4, 6, f) != 6) die("--inject %s: not a pcap file", o_.inject.c_str());
    bool swap;
    if (hdr[0] == 0xa1b2c3d4u || hdr[0] == 0xa1b23c4du)
        swap = false;
    else if (hdr[0] == 0xd4c3b2a1u || hdr[0] == 0x4d3cb2a1u)
        swap = true;
    else
        die("--inject %s: not a pcap file", o_.inject.c_str());
    const bool nano = hdr[0] == 0xa1b23c4du || hdr[0] == 0x4d3cb2a1u;
    auto u32 = [swap](uint32_t v) { return swap ? __builtin_bswap32(v) : v; };
    if (u32(hdr[5]) != 1) die("--inject %s: not Ethernet (link type %u)", o_.inject.c_str(),
                              u32(hdr[5]));
    uint32_t rec[4];
    while (fread(rec, 4, 4, f) == 4) {
        uint32_t n = u32(rec[2]);
        if (n + 12 > kMaxFrame || n < 14) die("--inject %s: frame of %u bytes", o_.inject.c_str(), n);
        std::vector<uint8_t> fr(n);
        if (fread(fr.data(), 1, n, f) != n) die("--inject %s: truncated", o_.inject.c_str());
        inject_.push_back(std::move(fr));
        // the timestamp as wire time: the first cycle at or after it (in file order)
        uint64_t ns = uint64_t(u32(rec[0])) * 1000000000ull +
                      uint64_t(u32(rec[1])) * (nano ? 1ull : 1000ull);
        uint64_t due = (ns * kCycNum + kCycDen - 1) / kCycDen;
        if (!inject_due_.empty() && due < inject_due_.back()) due = inject_due_.back();
        inject_due_.push_back(due);
    }
    fclose(f);
    if (inject_.empty()) die("--inject %s: no frames", o_.inject.c_str());
}

// --inject-timed: the frames whose cycle has come enter the link (called before a
// cycle). Round r (--inject-repeat) is sent r x (the last frame's cycle) later.
void Board::release_timed() {
    while (next_due_ <= cycles_) {
        from_pc(std::vector<uint8_t>(inject_[inject_pos_]));
        const uint64_t span = inject_due_.back() > 0 ? inject_due_.back() : 1;
        if (++inject_pos_ == inject_.size()) {
            inject_pos_ = 0;
            inject_round_++;
        }
        next_due_ = inject_left()
                        ? reset_end_ + inject_due_[inject_pos_] + inject_round_ * span
                        : UINT64_MAX;
    }
}

// --inject (untimed): keep the link queue supplied (it does not overflow from this but
// for a duplicate in a queue of one frame).
void Board::feed_inject() {
    if (o_.inject_timed) return;
    // (room for a frame and its copy, or an empty queue)
    const uint64_t cap = std::min<uint64_t>(kFeedAhead, o_.queue_frames);
    while (inject_left() && (link_.q.empty() || (link_.q.size() + 2 <= cap &&
                                                 link_.bytes + 2 * kMaxFrame <= o_.queue_bytes))) {
        from_pc(std::vector<uint8_t>(inject_[inject_pos_]));
        if (++inject_pos_ == inject_.size()) {
            inject_pos_ = 0;
            inject_round_++;
        }
    }
}

// The frame at the head of the link queue goes on the wire: its first preamble byte (/S/)
// is driven in this cycle, on this lane.
void Board::start_rx_frame(size_t lane) {
    vboard::LinkFrame f = std::move(link_.q.front());
    link_.q.pop_front();
    link_.bytes -= f.data.size();
    const std::vector<uint8_t>& d = f.data;
    pcap_.to_board(sim_ns(cycles_, lane), d.data(), d.size());
    st_.to_board_frames++;
    st_.to_board_bytes += d.size();
    imp_[0].n.delivered++;
    const double rate = imp_[0].settings().rate;
    rx_extra_ = rate > 0 ? vboard::occupancy_bytes(d.size(), rate, kLineMbps) -
                               (8 + d.size() + 4 + 12)
                         : 0;
    uint32_t fcs = crc32(d.data(), d.size());
    if (f.bad_fcs) fcs = ~fcs;
    rx_wire_.clear();
    rx_wire_.insert(rx_wire_.end(), 7, 0x55);
    rx_wire_.push_back(0xD5);
    rx_wire_.insert(rx_wire_.end(), d.begin(), d.end());
    for (int i = 0; i < 4; i++) rx_wire_.push_back(uint8_t(fcs >> (8 * i)));
    rx_pos_ = 0;
}

void Board::end_tx_frame() {
    const std::vector<uint8_t>& w = tx_buf_;
    size_t i = 0;
    while (i < w.size() && w[i] == 0x55) i++;
    const uint8_t* f = w.data() + (i < w.size() ? i + 1 : w.size());
    const size_t n = i < w.size() ? w.size() - i - 1 : 0;
    uint64_t* bad = nullptr;
    if (tx_err_)
        bad = &st_.from_board_aborted;
    else if (tx_overflow_)
        bad = &st_.from_board_oversize;
    else if (i == 0 || i > 7 || i >= w.size() || w[i] != 0xD5)
        bad = &st_.from_board_bad_preamble;
    else if (n < 64)
        bad = &st_.from_board_runt;
    else if (crc32(f, n - 4) != (uint32_t(f[n - 4]) | uint32_t(f[n - 3]) << 8 |
                                 uint32_t(f[n - 2]) << 16 | uint32_t(f[n - 1]) << 24))
        bad = &st_.from_board_bad_fcs;
    if (bad) {
        (*bad)++;
        pcap_.cancel_from_board();
        return;
    }
    st_.from_board_frames++;
    st_.from_board_bytes += n - 4;
    pcap_.end_from_board(f, n - 4);
    imp_[1].enter(std::vector<uint8_t>(f, f + n - 4), cycles_, to_tap_);
    update_next_event();
}

inline void Board::cycle() {
    Vtop* t = top_.get();
    drive_rx();
    t->tick_1ms = tick_now_ ? 1 : 0;
    tick_now_ = false;
    // idle inputs: those of a fixed point (cfg_* never change after reset)
    const bool idle_in = skip_on_ && rx_idle_in() && !t->tick_1ms && !t->rst;
    if (fixed_ && idle_in) {
        skipped_++;  // the state (and so the outputs) stays as it is: nothing to evaluate
    } else if (!idle_in && skip_on_) {
        if (fixed_) {  // it was quiet: check early once the inputs are idle again
            check_wait_ = kCheckFirst;
            next_check_ = idle_run_ + kCheckFirst;
        }
        fixed_ = false;
        snap_stage_ = 0;
    }
    if (!fixed_) {
        if constexpr (kSimCycle)
            set_sim_cycle(t->rootp, cycles_ >= reset_end_ ? cycles_ - reset_end_ : 0);
        t->clk = 0;
        t->eval();
#if VM_TRACE
        if (vcd_) vcd_->dump(cycles_ * 8);
#endif
        t->clk = 1;
        t->eval();
#if VM_TRACE
        if (vcd_) vcd_->dump(cycles_ * 8 + 4);
#endif
        evaluated_++;
        if (idle_in) after_idle_eval();
    }
    cycles_++;
    sample_tx();
}

#if !VBOARD_XGMII
void Board::drive_rx() {
    Vtop* t = top_.get();
    // inputs for this cycle: the next frame starts as soon as kIfg idle cycles have
    // followed the last one
    if (rx_wire_.empty() && rx_gap_ == 0 && !link_.q.empty() && link_.q.front().due <= cycles_)
        start_rx_frame();
    if (!rx_wire_.empty()) {
        t->gmii_rxd = rx_wire_[rx_pos_++];
        t->gmii_rx_dv = 1;
        if (rx_pos_ == rx_wire_.size()) {
            rx_gap_ = kIfg + int(rx_extra_);
            rx_wire_.clear();
            rx_pos_ = 0;
        }
    } else {
        t->gmii_rx_dv = 0;
        t->gmii_rxd = 0;
        if (rx_gap_ > 0) rx_gap_--;
    }
}

void Board::sample_tx() {
    const Vtop* t = top_.get();
    // outputs of this cycle's edge: on the wire in the next cycle (cycles_ now), whose
    // edge samples them at the PHY
    if (t->gmii_tx_en) {
        if (!tx_in_frame_) {
            if (tx_seen_ && tx_idle_ < st_.from_board_min_gap) st_.from_board_min_gap = tx_idle_;
            tx_in_frame_ = true;
            tx_start_ = cycles_;
            pcap_.begin_from_board(sim_ns(tx_start_));
            tx_err_ = false;
            tx_overflow_ = false;
            tx_buf_.clear();
        }
        if (t->gmii_tx_er) tx_err_ = true;
        if (tx_buf_.size() < kMaxFrame)
            tx_buf_.push_back(t->gmii_txd);
        else
            tx_overflow_ = true;
    } else if (tx_in_frame_) {
        tx_in_frame_ = false;
        tx_seen_ = true;
        tx_idle_ = 1;
        end_tx_frame();
    } else {
        tx_idle_++;
    }
}

bool Board::rx_idle_in() const {
    const Vtop* t = top_.get();
    return !t->gmii_rx_dv && !t->gmii_rxd && !t->gmii_rx_er;
}

bool Board::tx_line_busy() const { return top_->gmii_tx_en; }

uint64_t Board::rx_gap_cycles() const { return uint64_t(rx_gap_); }

void Board::rx_idle_bytes(uint64_t n) { rx_gap_ = uint64_t(rx_gap_) > n ? rx_gap_ - int(n) : 0; }

#else
// XGMII towards the RTL, lane by lane: a frame waiting starts on lane 0 or 4 when the gap
// (with the deficit idle count) allows; /S/, the bytes after the first preamble byte, /T/,
// then idles.
void Board::drive_rx() {
    uint64_t d = 0;
    uint8_t c = 0;
    for (size_t lane = 0; lane < kLanes; lane++) {
        if (rx_wire_.empty() && (lane == 0 || lane == 4) && !link_.q.empty() &&
            link_.q.front().due <= cycles_ && rx_may_start())
            start_rx_frame(lane);
        uint8_t ch = kXgI;
        bool ctl = true;
        if (!rx_wire_.empty()) {
            if (rx_pos_ == 0) {
                ch = kXgS;
            } else if (rx_pos_ < rx_wire_.size()) {
                ch = rx_wire_[rx_pos_];
                ctl = false;
            } else {
                ch = kXgT;  // the gap's first byte
                rx_wire_.clear();
                rx_pos_ = 0;
                rx_gap_ = kIfg - 1 + int(rx_extra_);
                rx_over_ = 0;
                d |= uint64_t(ch) << (8 * lane);
                c |= uint8_t(1u << lane);
                continue;
            }
            rx_pos_++;
        } else {
            rx_idle_bytes(1);
        }
        d |= uint64_t(ch) << (8 * lane);
        if (ctl) c |= uint8_t(1u << lane);
    }
    top_->xgmii_rxd = d;
    top_->xgmii_rxc = c;
}

// The deficit idle count (clause 46.3.1.4) at a lane where a frame could start: with the
// gap served, start (the bytes it ran over repay the deficit); with at most 3 bytes of it
// left and the deficit allowing, start early and owe them.
bool Board::rx_may_start() {
    if (rx_gap_ == 0) {
        rx_deficit_ = rx_over_ >= rx_deficit_ ? 0 : rx_deficit_ - rx_over_;
        return true;
    }
    if (rx_deficit_ + uint64_t(rx_gap_) <= 3) {
        rx_deficit_ += uint64_t(rx_gap_);
        rx_gap_ = 0;
        return true;
    }
    return false;
}

void Board::rx_idle_bytes(uint64_t n) {
    const uint64_t g = uint64_t(rx_gap_) < n ? uint64_t(rx_gap_) : n;
    rx_gap_ -= int(g);
    rx_over_ += n - g;
}

// XGMII from the RTL, lane by lane: /S/ on any lane starts a frame (its place in the
// wire record), data bytes follow, /T/ ends it, /E/ marks it aborted, any other control
// character ends it aborted.
void Board::sample_tx() {
    const uint64_t d = top_->xgmii_txd;
    const uint8_t c = top_->xgmii_txc;
    for (size_t lane = 0; lane < kLanes; lane++) {
        const uint8_t ch = uint8_t(d >> (8 * lane));
        const bool ctl = (c >> lane) & 1;
        if (!tx_in_frame_) {
            if (ctl && ch == kXgS) {
                if (tx_seen_ && tx_idle_ < st_.from_board_min_gap) st_.from_board_min_gap = tx_idle_;
                tx_in_frame_ = true;
                tx_start_ = cycles_;  // sampled by the PHY at the next edge (as at 1G)
                pcap_.begin_from_board(sim_ns(tx_start_, lane));
                tx_err_ = false;
                tx_overflow_ = false;
                tx_buf_.clear();
                tx_buf_.push_back(0x55);  // /S/ stands for the first preamble byte
            } else {
                tx_idle_++;
            }
        } else if (!ctl) {
            if (tx_buf_.size() < kMaxFrame)
                tx_buf_.push_back(ch);
            else
                tx_overflow_ = true;
        } else if (ch == kXgE) {
            tx_err_ = true;
        } else {
            if (ch != kXgT) tx_err_ = true;
            tx_in_frame_ = false;
            tx_seen_ = true;
            tx_idle_ = 1;  // /T/ is the gap's first byte
            end_tx_frame();
        }
    }
}

bool Board::rx_idle_in() const { return top_->xgmii_rxd == kIdleWord && top_->xgmii_rxc == 0xFF; }

bool Board::tx_line_busy() const {
    return top_->xgmii_txd != kIdleWord || top_->xgmii_txc != 0xFF;
}

// a frame can start at lane 4 of cycle j when the gap left less 4 is within the deficit's
// 3 bytes: none before j = (gap - 7) / 8 rounded up; this many cycles are surely idle
uint64_t Board::rx_gap_cycles() const { return rx_gap_ > 7 ? uint64_t(rx_gap_ - 7) / kLanes : 0; }
#endif

// After an evaluated cycle with idle inputs: every so often, keep a copy of the state
// and compare the state after the next cycle with it; equal is a fixed point.
void Board::after_idle_eval() {
    idle_run_++;
    const uint8_t* root = reinterpret_cast<const uint8_t*>(top_->rootp);
    if (snap_stage_ == 1) {  // the quick comparison; if equal, the whole state next
        checks_++;
        if (!same_state(root, snap_.data(), quick_)) return check_failed();
        memcpy(snap_.data(), root, snap_.size());
        snap_stage_ = 2;
    } else if (snap_stage_ == 2) {
        if (!same_state(root, snap_.data(), snap_.size())) return check_failed();
        snap_stage_ = 0;
        fixed_ = true;
        fixed_points_++;
    } else if (idle_run_ >= next_check_ && !tx_line_busy()) {
        // (while the board transmits its state changes every cycle: no use checking)
        memcpy(snap_.data(), root, quick_);
        snap_stage_ = 1;
    }
}

void Board::check_failed() {
    snap_stage_ = 0;
    check_wait_ = check_wait_ * 2 > kCheckMax ? kCheckMax : check_wait_ * 2;
    next_check_ = idle_run_ + check_wait_;
}

// The first n bytes of the model's state equal, but for the sim_cycle input (see
// HasSimCycle).
bool Board::same_state(const uint8_t* a, const uint8_t* b, size_t n) const {
    const size_t x = excl_off_ < n ? excl_off_ : n;
    const size_t e = excl_off_ + excl_len_ < n ? excl_off_ + excl_len_ : n;
    return memcmp(a, b, x) == 0 && memcmp(a + e, b + e, n - e) == 0;
}

// k cycles at a fixed point with idle inputs, no frame on the wire either way and none
// queued: what cycle() would do k times, without evaluating.
void Board::skip_idle(uint64_t k) {
    cycles_ += k;
    skipped_ += k;
    tx_idle_ += k * kLanes;
    rx_idle_bytes(k * kLanes);
}

void Board::print_stats(FILE* f, bool final) {
    double wall = double(now_ns() - t_start_) / 1e9;
    double busy = double(busy_ns_) / 1e9;
    double cpu = cpu_seconds();
    fprintf(f,
            "vboard: %s cycles %" PRIu64 " wall %.3f s busy %.3f s (%.1f%%) cycles/s while busy "
            "%.0f; CPU %.3f s, cycles per CPU second %.0f\n",
            final ? "final" : "stats", cycles_, wall, busy, wall > 0 ? 100.0 * busy / wall : 0.0,
            busy > 0 ? double(cycles_) / busy : 0.0, cpu, cpu > 0 ? double(cycles_) / cpu : 0.0);
    fprintf(f,
            "vboard: fast-forward %s: cycles evaluated %" PRIu64 " (%.0f per CPU second), "
            "skipped %" PRIu64 " (%.1f%%); %" PRIu64 " checks, %" PRIu64 " fixed points\n",
            skip_on_ ? "on" : "off", evaluated_, cpu > 0 ? double(evaluated_) / cpu : 0.0,
            skipped_, cycles_ > 0 ? 100.0 * double(skipped_) / double(cycles_) : 0.0, checks_,
            fixed_points_);
    fprintf(f,
            "vboard: to board %" PRIu64 " frames %" PRIu64 " bytes; from board %" PRIu64
            " frames %" PRIu64 " bytes; dropped from board: bad FCS %" PRIu64 " aborted %" PRIu64
            " bad preamble %" PRIu64 " runt %" PRIu64 " oversize %" PRIu64 "; TAP write errors %"
            PRIu64 " oversize %" PRIu64 "; ticks %" PRIu64 "\n",
            st_.to_board_frames, st_.to_board_bytes, st_.from_board_frames, st_.from_board_bytes,
            st_.from_board_bad_fcs, st_.from_board_aborted, st_.from_board_bad_preamble,
            st_.from_board_runt, st_.from_board_oversize, st_.tap_write_errors, st_.tap_oversize,
            st_.ticks);
    const LinkQueue& l = link_;
    fprintf(f,
            "vboard: link queue: %" PRIu64 " frames queued, %" PRIu64 " dropped (full), peak %"
            PRIu64 " frames %" PRIu64 " bytes, now %zu frames",
            l.queued, l.drops, l.peak_frames, l.peak_bytes, l.q.size());
    for (int d = 0; d < 2; d++) {
        const vboard::LinkCounts& n = imp_[d].n;
        fprintf(f,
                "; %s: %" PRIu64 " in, %" PRIu64 " delivered, lost %" PRIu64 " duplicated %"
                PRIu64 " reordered %" PRIu64 " corrupted %" PRIu64 " bad FCS %" PRIu64
                " delayed %" PRIu64,
                d ? "from board" : "to board", n.frames, n.delivered, n.lost, n.duplicated,
                n.reordered, n.corrupted, n.fcs_corrupted, n.delayed);
    }
    fprintf(f, "\n");
    if (tap_ >= 0) {
        fprintf(f, "vboard: PC side (%s):", o_.tap.c_str());
        for (const char* k : {"tx_packets", "tx_dropped", "rx_packets", "rx_dropped"}) {
            uint64_t v;
            if (tap_stat(k, &v)) fprintf(f, " %s %" PRIu64, k, v);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "vboard: counters");
#define VBOARD_PRINT(name, value) fprintf(f, " %s=%u", name, unsigned(value));
    VBOARD_COUNTERS(VBOARD_PRINT)
#undef VBOARD_PRINT
    fprintf(f, "\n");
    fflush(f);
}

void Board::write_stats_file() {
    if (o_.stats_file.empty()) return;
    std::string tmp = o_.stats_file + ".tmp";
    FILE* f = fopen(tmp.c_str(), "w");
    if (!f) return;
    double wall = double(now_ns() - t_start_) / 1e9;
    double busy = double(busy_ns_) / 1e9;
    fprintf(f, "{\"cycles\": %" PRIu64 ", \"wall_s\": %.6f, \"busy_s\": %.6f, ", cycles_, wall,
            busy);
    fprintf(f, "\"cycles_per_s_busy\": %.1f, ", busy > 0 ? double(cycles_) / busy : 0.0);
    double cpu = cpu_seconds();
    fprintf(f, "\"cpu_s\": %.6f, \"cycles_per_cpu_s\": %.1f, ", cpu,
            cpu > 0 ? double(cycles_) / cpu : 0.0);
    fprintf(f,
            "\"skip\": %s, \"cycles_evaluated\": %" PRIu64 ", \"cycles_skipped\": %" PRIu64
            ", \"evaluated_per_cpu_s\": %.1f, \"skip_checks\": %" PRIu64
            ", \"fixed_points\": %" PRIu64 ", \"state_bytes\": %zu, ",
            skip_on_ ? "true" : "false", evaluated_, skipped_,
            cpu > 0 ? double(evaluated_) / cpu : 0.0, checks_, fixed_points_,
            sizeof(Vtop___024root));
#define VBOARD_JSON(field) fprintf(f, "\"" #field "\": %" PRIu64 ", ", st_.field);
    VBOARD_JSON(to_board_frames)
    VBOARD_JSON(to_board_bytes)
    VBOARD_JSON(from_board_frames)
    VBOARD_JSON(from_board_bytes)
    VBOARD_JSON(from_board_bad_fcs)
    VBOARD_JSON(from_board_aborted)
    VBOARD_JSON(from_board_bad_preamble)
    VBOARD_JSON(from_board_runt)
    VBOARD_JSON(from_board_oversize)
    VBOARD_JSON(tap_write_errors)
    VBOARD_JSON(tap_oversize)
    VBOARD_JSON(ticks)
#undef VBOARD_JSON
    fprintf(f, "\"from_board_min_gap\": %" PRId64 ", ",
            st_.from_board_min_gap == UINT64_MAX ? int64_t(-1) : int64_t(st_.from_board_min_gap));
    fprintf(f, "\"pcap_records\": %" PRIu64 ", \"pcap_left_out\": %" PRIu64 ", ",
            pcap_.records, pcap_.left_out);
    write_link_json(f);
    write_pc_json(f);
    fprintf(f, "\"counters\": {");
    const char* sep = "";
#define VBOARD_CJSON(name, value)                                 \
    fprintf(f, "%s\"%s\": %u", sep, name, unsigned(value)); \
    sep = ", ";
    VBOARD_COUNTERS(VBOARD_CJSON)
#undef VBOARD_CJSON
    fprintf(f, "}}\n");
    fclose(f);
    if (rename(tmp.c_str(), o_.stats_file.c_str()) != 0) unlink(tmp.c_str());
}

// "link": the link queue towards the board and each direction's impairments.
void Board::write_link_json(FILE* f) {
    const LinkQueue& l = link_;
    fprintf(f,
            "\"link\": {\"seed\": %" PRIu64 ", \"queue_max_frames\": %" PRIu64
            ", \"queue_max_bytes\": %" PRIu64 ", \"queued\": %" PRIu64
            ", \"queue_drops\": %" PRIu64 ", \"queue_drop_bytes\": %" PRIu64
            ", \"queue_peak_frames\": %" PRIu64 ", \"queue_peak_bytes\": %" PRIu64
            ", \"queue_frames\": %zu, \"queue_bytes\": %" PRIu64
            ", \"impair_reads\": %" PRIu64 ", \"impair_changes\": %" PRIu64
            ", \"impair_error\": \"%s\", ",
            seed_, o_.queue_frames, o_.queue_bytes, l.queued, l.drops, l.drop_bytes,
            l.peak_frames, l.peak_bytes, l.q.size(), l.bytes, impair_reads_, impair_changes_,
            json_safe(impair_error_).c_str());
    for (int d = 0; d < 2; d++) {
        const vboard::LinkCounts& n = imp_[d].n;
        const vboard::Impair& p = imp_[d].settings();
        fprintf(f,
                "\"%s\": {\"frames\": %" PRIu64 ", \"delivered\": %" PRIu64
                ", \"lost\": %" PRIu64 ", \"duplicated\": %" PRIu64 ", \"reordered\": %" PRIu64
                ", \"corrupted\": %" PRIu64 ", \"fcs_corrupted\": %" PRIu64
                ", \"delayed\": %" PRIu64 ", \"queue_drops\": %" PRIu64
                ", \"held\": %zu, \"settings\": {\"loss\": %.17g, "
                "\"dup\": %.17g, \"reorder\": %.17g, \"depth\": %" PRIu64 ", \"hold\": %" PRIu64
                ", \"corrupt\": %.17g, \"fcs\": %.17g, \"delay\": %" PRIu64
                ", \"jitter\": %" PRIu64 ", \"rate\": %.17g}}%s",
                d ? "tx" : "rx", n.frames, n.delivered, n.lost, n.duplicated, n.reordered,
                n.corrupted, n.fcs_corrupted, n.delayed, n.queue_drops, imp_[d].held(), p.loss,
                p.dup, p.reorder, p.depth, p.hold, p.corrupt, p.fcs, p.delay, p.jitter, p.rate,
                d ? "}, " : ", ");
    }
}

// --impair-file, on SIGUSR2: new settings for both directions (refused whole, with the
// reason in the statistics, if any part is wrong).
void Board::reimpair() {
    std::string text, err;
    impair_reads_++;
    if (o_.impair_file.empty()) {
        err = "no --impair-file";
    } else if (FILE* f = fopen(o_.impair_file.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
        fclose(f);
        vboard::Impair set[2];
        uint64_t seed = seed_;
        err = vboard::parse_settings(text, set, &seed);
        if (err.empty()) {
            seed_ = seed;
            for (int d = 0; d < 2; d++) imp_[d].setup(set[d], seed_, d);
            impair_changes_++;
            update_next_event();
        }
    } else {
        err = o_.impair_file + ": " + strerror(errno);
    }
    impair_error_ = err;
    if (!err.empty()) fprintf(stderr, "vboard: --impair-file: %s\n", err.c_str());
}

// One counter of the TAP interface (the PC side), from sysfs.
bool Board::tap_stat(const char* name, uint64_t* v) const {
    const std::string path = "/sys/class/net/" + o_.tap + "/statistics/" + name;
    FILE* f = fopen(path.c_str(), "r");
    if (!f) return false;
    unsigned long long x = 0;
    const bool ok = fscanf(f, "%llu", &x) == 1;
    fclose(f);
    *v = uint64_t(x);
    return ok;
}

// "pc": the TAP interface's own counters (/sys/class/net/<tap>/statistics, as Linux
// sees it: tx = frames Linux sent towards the board, tx_dropped = those it dropped
// because the TAP's queue was full), its tx_queue_len; null without a TAP.
void Board::write_pc_json(FILE* f) {
    if (tap_ < 0) {
        fprintf(f, "\"pc\": null, ");
        return;
    }
    fprintf(f, "\"pc\": {\"interface\": \"%s\"", o_.tap.c_str());
    const std::string dir = "/sys/class/net/" + o_.tap;
    FILE* q = fopen((dir + "/tx_queue_len").c_str(), "r");
    unsigned long long len = 0;
    if (q) {
        if (fscanf(q, "%llu", &len) == 1) fprintf(f, ", \"tx_queue_len\": %llu", len);
        fclose(q);
    }
    std::vector<std::string> names;
    if (DIR* d = opendir((dir + "/statistics").c_str())) {
        while (struct dirent* e = readdir(d))
            if (e->d_name[0] != '.') names.emplace_back(e->d_name);
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
        uint64_t v;
        if (tap_stat(n.c_str(), &v)) fprintf(f, ", \"%s\": %" PRIu64, n.c_str(), v);
    }
    fprintf(f, "}, ");
}

void Board::run() {
    crc_init();
    open_tap();
    load_inject();
    if (!o_.pcap.empty()) {
        std::string err;
        pcap_.open(o_.pcap, o_.pcap_wall, o_.pcap_limit, &err);
        if (!err.empty()) die("--pcap %s", err.c_str());
    }
    seed_ = o_.impair_seed;
    imp_[0].setup(o_.impair[0], seed_, 0);
    imp_[1].setup(o_.impair[1], seed_, 1);
    to_queue_ = [this](vboard::LinkFrame&& f) { enqueue(std::move(f)); };
    to_tap_ = [this](vboard::LinkFrame&& f) { to_pc(std::move(f)); };
    ctx_ = std::make_unique<VerilatedContext>();
    top_ = std::make_unique<Vtop>(ctx_.get());
#if VM_TRACE
    if (!o_.trace.empty()) {
        ctx_->traceEverOn(true);
        vcd_ = std::make_unique<VerilatedVcdC>();
        top_->trace(vcd_.get(), 99);
        vcd_->open(o_.trace.c_str());
    }
#endif
#if VM_TRACE
    skip_on_ = false;  // every cycle goes to the trace (and the trace's state is elsewhere)
#else
    skip_on_ = o_.skip && VBOARD_ROOT_ONLY;  // the whole state must be in the root object
#endif
    if (skip_on_) snap_.resize(sizeof(Vtop___024root));
    excl_off_ = sim_cycle_offset(top_->rootp);
    excl_len_ = kSimCycle ? 8 : 0;
    quick_ = snap_.size() < kQuickBytes ? snap_.size() : kQuickBytes;
    Vtop* t = top_.get();
    // the cfg_* inputs are set here once and never change (the fast-forward relies on it)
    t->cfg_mac = o_.mac;
    t->cfg_ip = o_.ip;
    t->cfg_netmask = o_.netmask;
    t->cfg_gateway = o_.gateway;
    t->cfg_udp_echo_port = o_.echo_port;
#if VBOARD_XGMII
    t->xgmii_rxd = kIdleWord;
    t->xgmii_rxc = 0xFF;
#else
    t->gmii_rx_dv = 0;
    t->gmii_rx_er = 0;
    t->gmii_rxd = 0;
#endif
    t->tick_1ms = 0;
    t->rst = 1;
    for (int i = 0; i < 16; i++) cycle();
    t->rst = 0;
    reset_end_ = cycles_;
    if (o_.inject_timed) next_due_ = reset_end_ + inject_due_[0];
    update_next_event();

    t_start_ = now_ns();
    uint64_t last_flush = t_start_;
    const uint64_t ms = 1000000ull;
    uint64_t next_tick = t_start_ + ms;
    uint64_t next_stats =
        o_.stats_interval > 0 ? t_start_ + uint64_t(o_.stats_interval * 1e9) : UINT64_MAX;
    uint64_t deadline = o_.run_seconds > 0 ? t_start_ + uint64_t(o_.run_seconds * 1e9) : UINT64_MAX;
    uint64_t quiet_left = o_.idle_cycles;
    uint64_t busy_since = t_start_;
    fprintf(stderr,
            "vboard: running on TAP %s, MAC %012" PRIx64 ", UDP echo port %u, fast-forward %s\n",
            o_.tap.c_str(), o_.mac, o_.echo_port, skip_on_ ? "on" : "off");
    auto accrue = [&](uint64_t now) {
        if (now >= next_tick) {
            uint64_t n = (now - next_tick) / ms + 1;
            ticks_owed_ += n;
            next_tick += n * ms;
            if (ticks_owed_ > 10000) ticks_owed_ = 10000;
        }
    };

    while (!g_stop) {
        // one chunk of cycles; owed ticks go in every kTickSpacing cycles
        bool ticked = false;
        for (int i = 0; i < kChunk;) {
            if (ticks_owed_ > 0 && (i % kTickSpacing) == 0) {
                ticks_owed_--;
                tick_now_ = true;
                st_.ticks++;
                ticked = true;
            }
            if (cycles_ >= next_event_) link_events();
            // the head of the link queue goes on at its due cycle, after the gap
            uint64_t head_due = link_.q.empty() ? UINT64_MAX : link_.q.front().due;
            if (head_due < cycles_ + rx_gap_cycles()) head_due = cycles_ + rx_gap_cycles();
            if (fixed_ && !tick_now_ && head_due > cycles_ && rx_wire_.empty() &&
                !tx_in_frame_ && !tx_line_busy()) {
                // a fixed point and nothing to send: count the cycles up to the next input
                // event (a tick's slot, a frame due, a link event, the end of the chunk)
                uint64_t k = ticks_owed_ > 0 ? kTickSpacing - i % kTickSpacing : kChunk - i;
                if (next_event_ - cycles_ < k) k = next_event_ - cycles_;
                if (head_due - cycles_ < k) k = head_due - cycles_;
                skip_idle(k);
                i += int(k);
                continue;
            }
            cycle();
            i++;
        }
        if (ticked && quiet_left < o_.tick_cycles) quiet_left = o_.tick_cycles;
        feed_inject();
        const uint64_t before = imp_[0].n.frames;
        read_tap();  // every chunk: the PC's frames wait in the link queue, not in the TAP's
        bool active = tx_in_frame_ || !rx_wire_.empty() || rx_gap_ > 0 || !link_.q.empty() ||
                      inject_left() || link_pending() || imp_[0].n.frames != before;
        uint64_t now = now_ns();
        if (now - last_flush >= kFlushNs) {
            pcap_.flush();
            last_flush = now;
        }
        if (o_.tick_every) {
            const uint64_t due = cycles_ / o_.tick_every;  // ticks in simulated time
            ticks_owed_ += due - ticks_accrued_;
            ticks_accrued_ = due;
        } else {
            accrue(now);
        }
        if (now >= next_stats) {
            busy_ns_ += now - busy_since;
            busy_since = now;
            print_stats(stderr, false);
            write_stats_file();
            next_stats += uint64_t(o_.stats_interval * 1e9);
        }
        if (g_reimpair) {
            g_reimpair = 0;
            reimpair();
            g_dump = 1;  // the statistics show the new settings
        }
        if (g_dump) {
            g_dump = 0;
            busy_ns_ += now - busy_since;
            busy_since = now;
            print_stats(stderr, false);
            write_stats_file();
        }
        if (now >= deadline) break;
        if (o_.run_cycles && cycles_ >= o_.run_cycles) break;
        if (active) {
            quiet_left = o_.idle_cycles;
            continue;
        }
        if (quiet_left > kChunk) {
            quiet_left -= kChunk;
            continue;
        }
        quiet_left = 0;
        if (o_.spin || o_.tick_every || ticks_owed_ > 0) continue;
        // Idle: sleep in poll() on the TAP, at most 1 ms at a time, until a frame arrives.
        // The milliseconds that pass are owed as ticks and given to the RTL in a batch
        // every --idle-tick-ms (or at once when a frame or a signal wakes the board).
        busy_ns_ += now - busy_since;
        pcap_.flush();
        last_flush = now;
        while (!g_stop && !g_dump && !g_reimpair) {
            uint64_t wait_ns = next_tick > now ? next_tick - now : 0;
            int timeout_ms = wait_ns > 0 ? 1 : 0;
            if (tap_ >= 0) {
                struct pollfd pfd = {tap_, POLLIN, 0};
                if (poll(&pfd, 1, timeout_ms) > 0) break;
            } else {
                struct timespec ts = {0, long(wait_ns)};
                nanosleep(&ts, nullptr);
            }
            now = now_ns();
            accrue(now);
            if (ticks_owed_ >= o_.idle_tick_ms || now >= next_stats || now >= deadline) break;
        }
        busy_since = now_ns();
        read_tap();
        if (!link_.q.empty() || link_pending()) quiet_left = o_.idle_cycles;
    }
    busy_ns_ += now_ns() - busy_since;
    print_stats(stderr, true);
    write_stats_file();
    pcap_.close();
#if VM_TRACE
    if (vcd_) vcd_->close();
#endif
    top_->final();
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse_args(argc, argv);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sa.sa_handler = on_dump;
    sigaction(SIGUSR1, &sa, nullptr);
    sa.sa_handler = on_reimpair;
    sigaction(SIGUSR2, &sa, nullptr);
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stderr, nullptr, _IOLBF, 0);
    Board b(o);
    b.run();
    return 0;
}
