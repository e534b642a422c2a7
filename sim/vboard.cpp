// vboard: the wirecore virtual board.
//
// Runs the Verilator model of a virtual-board top (class Vtop) on one 125 MHz clock and
// bridges its GMII port to a Linux TAP interface:
//   TAP -> RTL: each frame read from the TAP (no FCS, possibly shorter than 60 bytes) is
//     padded to 60 bytes, given an FCS, preceded by 7 preamble bytes and the SFD, and
//     driven on gmii_rxd/gmii_rx_dv one byte per cycle, with at least 12 idle cycles
//     between frames.
//   RTL -> TAP: each frame the RTL sends on gmii_txd/gmii_tx_en has its preamble and
//     SFD checked and its FCS checked and stripped before it is written to the TAP.
//     Frames with a bad FCS, a gmii_tx_er (aborted), a bad preamble or shorter than
//     64 bytes are dropped and counted.
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
// see "Fast-forward" below; --no-skip evaluates every cycle). --inject FILE sends the frames of a pcap to the
// board as if they came from the TAP (benchmarks under load without a TAP, the training
// run of the profile-guided build, host/wirecore/vboard.py, and the tests), at once or
// (--inject-timed) each at the simulated time of its pcap timestamp.
//
// Statistics (cycles simulated, cycles/s, frames each way, drops, and the top's counters)
// are printed at exit (SIGINT/SIGTERM), every --stats-interval seconds, and
// on SIGUSR1; with --stats-file they are also written there as JSON.
//
// The counters of the top are listed by vboard_counters.h, generated at build time
// (wirecore.vboard.counters_of: the register map's counters on vboard_top's sim_counters,
// or a test top's cnt_* ports): #define VBOARD_COUNTERS(X) X("name", value) ...
// vboard_model.h, generated after verilating, defines VBOARD_ROOT_ONLY: 1 when the
// model is the root class alone (every module inlined into it, so the root object holds
// the whole state), else 0 and the fast-forward is off.

#include <arpa/inet.h>
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
#include "vboard_model.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

namespace {

constexpr size_t kMaxFrame = 16384;  // jumbo-aware buffer size (bytes on the wire)
constexpr int kIfg = 12;             // idle cycles between frames towards the RTL
constexpr int kChunk = 256;          // cycles between checks of the clock and the TAP
constexpr size_t kQueueMax = 256;    // frames read ahead from the TAP
constexpr int kTickSpacing = 16;     // fewest cycles between two tick_1ms pulses
constexpr uint64_t kNsPerCycle = 8;  // 125 MHz

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

void on_stop(int) { g_stop = 1; }
void on_dump(int) { g_dump = 1; }

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
    bool pcap_cycles = false;      // pcap timestamps: the frame's first cycle on the wire x 8 ns
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
            "  --pcap FILE           write every frame on the wire, both ways, to FILE (pcap)\n"
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
            "  --inject FILE         send the frames of a pcap (Ethernet, no FCS) to the board,\n"
            "                        queued as if read from the TAP (with or without one)\n"
            "  --inject-repeat N     send the pcap's frames N times over (default 1)\n"
            "  --inject-timed        send each injected frame at its pcap timestamp, read as\n"
            "                        simulated time (cycle = timestamp / 8 ns; not before);\n"
            "                        round r of --inject-repeat r x the last frame's time later\n"
            "  --tick-every-cycles N pulse tick_1ms every N simulated cycles instead of once\n"
            "                        per wall-clock millisecond (deterministic runs; never\n"
            "                        sleeps)\n"
            "  --pcap-cycles         pcap timestamps in simulated time: the cycle of the\n"
            "                        frame's first byte on the wire x 8 ns (nanosecond pcap)\n"
            "  --no-skip             evaluate every cycle (no fast-forward over quiescent\n"
            "                        cycles)\n"
            "  -h, --help            this help\n"
            "SIGINT/SIGTERM stop the board and print statistics; SIGUSR1 prints them now.\n");
}

Options parse_args(int argc, char** argv) {
    Options o;
    enum {
        O_TAP = 1000, O_MAC, O_IP, O_MASK, O_GW, O_ECHO, O_PCAP, O_TRACE, O_SINT, O_SFILE,
        O_IDLE, O_TICK, O_SPIN, O_RUN, O_ITICK, O_RUNC, O_INJ,
        O_INJR, O_INJT, O_NOSKIP, O_TICKC, O_PCAPC
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
        {"pcap-cycles", no_argument, nullptr, O_PCAPC},
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
            case O_PCAPC: o.pcap_cycles = true; break;
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

class Pcap {
  public:
    // sim_time: nanosecond timestamps given by the caller (simulated time), else the
    // wall clock in microseconds.
    void open(const std::string& path, bool sim_time) {
        f_ = fopen(path.c_str(), "wb");
        if (!f_) die("--pcap %s: %s", path.c_str(), strerror(errno));
        sim_time_ = sim_time;
        const uint32_t hdr[6] = {sim_time ? 0xa1b23c4du : 0xa1b2c3d4u, 0x00040002u, 0, 0, 65535,
                                 1};  // DLT_EN10MB
        // version is two 16-bit fields (2, 4): write them in host order explicitly.
        fwrite(&hdr[0], 4, 1, f_);
        const uint16_t ver[2] = {2, 4};
        fwrite(ver, 2, 2, f_);
        fwrite(&hdr[2], 4, 4, f_);
    }
    void write(const uint8_t* p, size_t n, uint64_t sim_ns) {
        if (!f_) return;
        uint32_t sec, frac;
        if (sim_time_) {
            sec = uint32_t(sim_ns / 1000000000ull);
            frac = uint32_t(sim_ns % 1000000000ull);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            sec = uint32_t(ts.tv_sec);
            frac = uint32_t(ts.tv_nsec / 1000);
        }
        const uint32_t rec[4] = {sec, frac, uint32_t(n), uint32_t(n)};
        fwrite(rec, 4, 4, f_);
        fwrite(p, 1, n, f_);
    }
    void flush() {
        if (f_) fflush(f_);
    }
    void close() {
        if (f_) fclose(f_);
        f_ = nullptr;
    }

  private:
    FILE* f_ = nullptr;
    bool sim_time_ = false;
};

struct Stats {
    uint64_t to_board_frames = 0, to_board_bytes = 0;
    uint64_t from_board_frames = 0, from_board_bytes = 0;
    uint64_t from_board_bad_fcs = 0, from_board_aborted = 0, from_board_bad_preamble = 0;
    uint64_t from_board_runt = 0, from_board_oversize = 0;
    uint64_t tap_oversize = 0, tap_write_errors = 0, tap_queue_full = 0;
    uint64_t ticks = 0;
    uint64_t from_board_min_gap = UINT64_MAX;  // fewest idle cycles seen between two frames
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
    void cycle();
    void after_idle_eval();
    void skip_idle(uint64_t k);
    void start_rx_frame();
    void end_tx_frame();
    void print_stats(FILE* f, bool final);
    void write_stats_file();

    const Options& o_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtop> top_;
#if VM_TRACE
    std::unique_ptr<VerilatedVcdC> vcd_;
#endif
    int tap_ = -1;
    Pcap pcap_;
    Stats st_;
    uint64_t cycles_ = 0;
    uint64_t t_start_ = 0, busy_ns_ = 0;

    // TAP -> RTL
    std::deque<std::vector<uint8_t>> queue_;
    std::vector<uint8_t> rx_wire_;
    size_t rx_pos_ = 0;
    int rx_gap_ = 0;
    bool tick_now_ = false;
    uint64_t ticks_owed_ = 0;  // wall-clock milliseconds not yet given to the RTL
    std::vector<std::vector<uint8_t>> inject_;  // --inject frames
    std::vector<uint64_t> inject_due_;          // --inject-timed: the cycle of each frame
    size_t inject_pos_ = 0;
    uint64_t inject_round_ = 0;
    uint64_t next_due_ = UINT64_MAX;  // --inject-timed: the next frame's cycle
    uint64_t ticks_accrued_ = 0;      // --tick-every-cycles: ticks owed so far

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
    uint64_t tx_idle_ = 0;   // idle cycles since the last frame ended
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

void Board::read_tap() {
    if (tap_ < 0) return;
    uint8_t buf[kMaxFrame];
    while (queue_.size() < kQueueMax) {
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
        queue_.emplace_back(buf, buf + n);
    }
    st_.tap_queue_full++;
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
        // the timestamp as simulated time: the first cycle at or after it (in file order)
        uint64_t ns = uint64_t(u32(rec[0])) * 1000000000ull +
                      uint64_t(u32(rec[1])) * (nano ? 1ull : 1000ull);
        uint64_t due = (ns + kNsPerCycle - 1) / kNsPerCycle;
        if (!inject_due_.empty() && due < inject_due_.back()) due = inject_due_.back();
        inject_due_.push_back(due);
    }
    fclose(f);
    if (inject_.empty()) die("--inject %s: no frames", o_.inject.c_str());
    if (o_.inject_timed) next_due_ = inject_due_[0];
}

// --inject-timed: queue the frames whose cycle has come (called before each cycle).
// Round r (--inject-repeat) is sent r x (the last frame's cycle) later.
void Board::release_timed() {
    while (next_due_ <= cycles_ && queue_.size() < kQueueMax) {
        queue_.push_back(inject_[inject_pos_]);
        const uint64_t span = inject_due_.back() > 0 ? inject_due_.back() : 1;
        if (++inject_pos_ == inject_.size()) {
            inject_pos_ = 0;
            inject_round_++;
        }
        next_due_ = inject_left() ? inject_due_[inject_pos_] + inject_round_ * span : UINT64_MAX;
    }
}

void Board::feed_inject() {
    if (o_.inject_timed) return;
    while (inject_left() && queue_.size() < kQueueMax) {
        queue_.push_back(inject_[inject_pos_]);
        if (++inject_pos_ == inject_.size()) {
            inject_pos_ = 0;
            inject_round_++;
        }
    }
}

void Board::start_rx_frame() {
    std::vector<uint8_t> f = std::move(queue_.front());
    queue_.pop_front();
    size_t n = f.size();
    if (n < 60) f.resize(60, 0);  // pad (the padding is on the wire and in the FCS)
    pcap_.write(f.data(), f.size(), (cycles_ + 1) * kNsPerCycle);  // on the wire next cycle
    st_.to_board_frames++;
    st_.to_board_bytes += n;
    uint32_t fcs = crc32(f.data(), f.size());
    rx_wire_.clear();
    rx_wire_.insert(rx_wire_.end(), 7, 0x55);
    rx_wire_.push_back(0xD5);
    rx_wire_.insert(rx_wire_.end(), f.begin(), f.end());
    for (int i = 0; i < 4; i++) rx_wire_.push_back(uint8_t(fcs >> (8 * i)));
    rx_pos_ = 0;
}

void Board::end_tx_frame() {
    const std::vector<uint8_t>& w = tx_buf_;
    size_t i = 0;
    while (i < w.size() && w[i] == 0x55) i++;
    if (tx_err_) {
        st_.from_board_aborted++;
        return;
    }
    if (tx_overflow_) {
        st_.from_board_oversize++;
        return;
    }
    if (i == 0 || i > 7 || i >= w.size() || w[i] != 0xD5) {
        st_.from_board_bad_preamble++;
        return;
    }
    const uint8_t* f = w.data() + i + 1;
    size_t n = w.size() - i - 1;
    if (n < 64) {
        st_.from_board_runt++;
        return;
    }
    uint32_t fcs = uint32_t(f[n - 4]) | uint32_t(f[n - 3]) << 8 | uint32_t(f[n - 2]) << 16 |
                   uint32_t(f[n - 1]) << 24;
    if (crc32(f, n - 4) != fcs) {
        st_.from_board_bad_fcs++;
        return;
    }
    st_.from_board_frames++;
    st_.from_board_bytes += n - 4;
    pcap_.write(f, n - 4, tx_start_ * kNsPerCycle);
    if (tap_ >= 0) {
        ssize_t r = ::write(tap_, f, n - 4);
        if (r != ssize_t(n - 4)) st_.tap_write_errors++;
    }
}

inline void Board::cycle() {
    Vtop* t = top_.get();
    // inputs for this cycle
    if (rx_pos_ < rx_wire_.size()) {
        t->gmii_rxd = rx_wire_[rx_pos_++];
        t->gmii_rx_dv = 1;
        if (rx_pos_ == rx_wire_.size()) {
            rx_gap_ = kIfg;
            rx_wire_.clear();
            rx_pos_ = 0;
        }
    } else {
        t->gmii_rx_dv = 0;
        t->gmii_rxd = 0;
        if (rx_gap_ > 0) {
            rx_gap_--;
        } else if (!queue_.empty()) {
            start_rx_frame();
        }
    }
    t->tick_1ms = tick_now_ ? 1 : 0;
    tick_now_ = false;
    // idle inputs: those of a fixed point (cfg_* never change after reset)
    const bool idle_in = skip_on_ && !t->gmii_rx_dv && !t->gmii_rxd && !t->gmii_rx_er &&
                         !t->tick_1ms && !t->rst;
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
    // outputs of this cycle
    if (t->gmii_tx_en) {
        if (!tx_in_frame_) {
            if (tx_seen_ && tx_idle_ < st_.from_board_min_gap) st_.from_board_min_gap = tx_idle_;
            tx_in_frame_ = true;
            tx_start_ = cycles_ - 1;
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
    } else if (idle_run_ >= next_check_ && !top_->gmii_tx_en) {
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
    tx_idle_ += k;
    rx_gap_ = uint64_t(rx_gap_) > k ? rx_gap_ - int(k) : 0;
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

void Board::run() {
    crc_init();
    open_tap();
    load_inject();
    if (!o_.pcap.empty()) pcap_.open(o_.pcap, o_.pcap_cycles);
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
    t->gmii_rx_dv = 0;
    t->gmii_rx_er = 0;
    t->gmii_rxd = 0;
    t->tick_1ms = 0;
    t->rst = 1;
    for (int i = 0; i < 16; i++) cycle();
    t->rst = 0;
    reset_end_ = cycles_;

    t_start_ = now_ns();
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
            if (cycles_ >= next_due_) release_timed();
            if (fixed_ && !tick_now_ && queue_.empty() && rx_wire_.empty() && !tx_in_frame_ &&
                !t->gmii_tx_en) {
                // a fixed point and nothing to send: count the cycles up to the next input
                // event (a tick's slot, a timed frame, the end of the chunk)
                uint64_t k = ticks_owed_ > 0 ? kTickSpacing - i % kTickSpacing : kChunk - i;
                if (next_due_ - cycles_ < k) k = next_due_ - cycles_;
                skip_idle(k);
                i += int(k);
                continue;
            }
            cycle();
            i++;
        }
        if (ticked && quiet_left < o_.tick_cycles) quiet_left = o_.tick_cycles;
        if (queue_.size() < kQueueMax / 2) feed_inject();
        bool active = tx_in_frame_ || rx_pos_ < rx_wire_.size() || !rx_wire_.empty() ||
                      rx_gap_ > 0 || !queue_.empty() || inject_left();
        if (queue_.empty()) {
            size_t before = queue_.size();
            read_tap();
            if (queue_.size() != before) active = true;
        }
        uint64_t now = now_ns();
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
        while (!g_stop && !g_dump) {
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
        if (!queue_.empty()) quiet_left = o_.idle_cycles;
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
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stderr, nullptr, _IOLBF, 0);
    Board b(o);
    b.run();
    return 0;
}
