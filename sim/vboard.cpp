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
// Each simulated cycle is one evaluation of the model at a rising clock edge (see
// kOneEval below; two evaluations, one per edge, where that does not apply), with the
// GMII inputs of that cycle; no cycle is skipped. --inject FILE sends the frames of a
// pcap to the board as if they came from the TAP (benchmarks under load without a TAP,
// and the training run of the profile-guided build, host/wirecore/vboard.py).
//
// Statistics (cycles simulated, cycles/s, frames each way, drops, and every cnt_* output
// of the top) are printed at exit (SIGINT/SIGTERM), every --stats-interval seconds, and
// on SIGUSR1; with --stats-file they are also written there as JSON.
//
// The counters of the top are listed by vboard_counters.h, generated at build time from
// the top's cnt_* ports: #define VBOARD_COUNTERS(X) X(cnt_a) X(cnt_b) ...

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
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

namespace {

constexpr size_t kMaxFrame = 16384;  // jumbo-aware buffer size (bytes on the wire)
constexpr int kIfg = 12;             // idle cycles between frames towards the RTL
constexpr int kChunk = 256;          // cycles between checks of the clock and the TAP
constexpr size_t kQueueMax = 256;    // frames read ahead from the TAP
constexpr int kTickSpacing = 16;     // fewest cycles between two tick_1ms pulses

// One evaluation per clock cycle. The model keeps the clock's previous sample and runs
// the clocked logic when it sees 0 -> 1; the falling edge has nothing to run when clk's
// rising edge is the model's only trigger (Verilator 5.006 names the sample
// __Vtrigrprev__TOP__clk, and __VactTriggered then holds one trigger). Then the clock
// stays at 1 and the sample is set to 0 before each eval: every eval is one rising
// edge of the whole design, with the inputs of that cycle, and the falling-edge eval
// (which would only recompute the logic fed by the inputs) is saved. For any other
// model (another Verilator, a negedge process, a traced build) both edges are
// evaluated as usual.
template <typename R, typename = void>
struct OneEvalModel : std::false_type {};
template <typename R>
struct OneEvalModel<R, std::void_t<decltype(std::declval<R&>().__Vtrigrprev__TOP__clk),
                                    decltype(std::declval<R&>().__VactTriggered)>>
    : std::is_same<decltype(std::declval<R&>().__VactTriggered), VlTriggerVec<1>> {};
#if VM_TRACE
constexpr bool kOneEval = false;
#else
constexpr bool kOneEval = OneEvalModel<Vtop___024root>::value;
#endif

template <typename R>
inline void rising_edge_next(R* root) {
    if constexpr (OneEvalModel<R>::value) root->__Vtrigrprev__TOP__clk = 0;
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
            "  -h, --help            this help\n"
            "SIGINT/SIGTERM stop the board and print statistics; SIGUSR1 prints them now.\n");
}

Options parse_args(int argc, char** argv) {
    Options o;
    enum {
        O_TAP = 1000, O_MAC, O_IP, O_MASK, O_GW, O_ECHO, O_PCAP, O_TRACE, O_SINT, O_SFILE,
        O_IDLE, O_TICK, O_SPIN, O_RUN, O_ITICK, O_RUNC, O_INJ,
        O_INJR
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
    return o;
}

class Pcap {
  public:
    void open(const std::string& path) {
        f_ = fopen(path.c_str(), "wb");
        if (!f_) die("--pcap %s: %s", path.c_str(), strerror(errno));
        const uint32_t hdr[6] = {0xa1b2c3d4u, 0x00040002u, 0, 0, 65535, 1};  // DLT_EN10MB
        // version is two 16-bit fields (2, 4): write them in host order explicitly.
        fwrite(&hdr[0], 4, 1, f_);
        const uint16_t ver[2] = {2, 4};
        fwrite(ver, 2, 2, f_);
        fwrite(&hdr[2], 4, 4, f_);
    }
    void write(const uint8_t* p, size_t n) {
        if (!f_) return;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        const uint32_t rec[4] = {uint32_t(ts.tv_sec), uint32_t(ts.tv_nsec / 1000), uint32_t(n),
                                 uint32_t(n)};
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
    void cycle();
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
    size_t inject_pos_ = 0;
    uint64_t inject_round_ = 0;

    // RTL -> TAP
    std::vector<uint8_t> tx_buf_;
    bool tx_in_frame_ = false;
    bool tx_err_ = false;
    bool tx_overflow_ = false;
    bool tx_seen_ = false;   // a frame has ended before (so a gap can be measured)
    uint64_t tx_idle_ = 0;   // idle cycles since the last frame ended
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
    }
    fclose(f);
    if (inject_.empty()) die("--inject %s: no frames", o_.inject.c_str());
}

void Board::feed_inject() {
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
    pcap_.write(f.data(), f.size());
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
    pcap_.write(f, n - 4);
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
    if constexpr (kOneEval) {
        rising_edge_next(t->rootp);
        t->clk = 1;
        t->eval();
    } else {
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
    }
    cycles_++;
    // outputs of this cycle
    if (t->gmii_tx_en) {
        if (!tx_in_frame_) {
            if (tx_seen_ && tx_idle_ < st_.from_board_min_gap) st_.from_board_min_gap = tx_idle_;
            tx_in_frame_ = true;
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
            "vboard: to board %" PRIu64 " frames %" PRIu64 " bytes; from board %" PRIu64
            " frames %" PRIu64 " bytes; dropped from board: bad FCS %" PRIu64 " aborted %" PRIu64
            " bad preamble %" PRIu64 " runt %" PRIu64 " oversize %" PRIu64 "; TAP write errors %"
            PRIu64 " oversize %" PRIu64 "; ticks %" PRIu64 "\n",
            st_.to_board_frames, st_.to_board_bytes, st_.from_board_frames, st_.from_board_bytes,
            st_.from_board_bad_fcs, st_.from_board_aborted, st_.from_board_bad_preamble,
            st_.from_board_runt, st_.from_board_oversize, st_.tap_write_errors, st_.tap_oversize,
            st_.ticks);
    fprintf(f, "vboard: counters");
#define VBOARD_PRINT(name) fprintf(f, " %s=%u", #name, unsigned(top_->name));
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
    fprintf(f, "\"evals_per_cycle\": %d, ", kOneEval ? 1 : 2);
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
#define VBOARD_CJSON(name)                                             \
    fprintf(f, "%s\"%s\": %u", sep, #name, unsigned(top_->name)); \
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
    if (!o_.pcap.empty()) pcap_.open(o_.pcap);
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
    Vtop* t = top_.get();
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

    t_start_ = now_ns();
    const uint64_t ms = 1000000ull;
    uint64_t next_tick = t_start_ + ms;
    uint64_t next_stats =
        o_.stats_interval > 0 ? t_start_ + uint64_t(o_.stats_interval * 1e9) : UINT64_MAX;
    uint64_t deadline = o_.run_seconds > 0 ? t_start_ + uint64_t(o_.run_seconds * 1e9) : UINT64_MAX;
    uint64_t quiet_left = o_.idle_cycles;
    uint64_t busy_since = t_start_;
    fprintf(stderr,
            "vboard: running on TAP %s, MAC %012" PRIx64 ", UDP echo port %u, %d eval%s per "
            "cycle\n",
            o_.tap.c_str(), o_.mac, o_.echo_port, kOneEval ? 1 : 2, kOneEval ? "" : "s");
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
        for (int i = 0; i < kChunk; i++) {
            if (ticks_owed_ > 0 && (i % kTickSpacing) == 0) {
                ticks_owed_--;
                tick_now_ = true;
                st_.ticks++;
                ticked = true;
            }
            cycle();
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
        accrue(now);
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
        if (o_.spin || ticks_owed_ > 0) continue;
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
