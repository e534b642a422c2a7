// vboard_link.h: the virtual board's link between the PC and the board's GMII port
// (included by vboard.cpp): the wire record (a pcap in wire time) and the deterministic
// impairments of each direction. docs/virtual-board.md describes both.
//
// Impairments. A direction's settings come from one --impair SPEC:
//   DIR:ITEM[,ITEM...]   DIR = rx (towards the board), tx (from the board) or both;
//   ITEM = loss=P | dup=P | reorder=P[:depth=N][:hold=C] | corrupt=P | fcs=P |
//          delay=C[:jitter=C] | rate=R
//   (P a probability 0..1, N frames, C clock cycles, R Mbit/s 0.01..1000)
// Each frame that enters a direction is decided on by eight 64-bit numbers that depend
// only on the seed, the direction and the frame's number i in that direction (0, 1, ...
// in the order the frames enter): x_k = splitmix64_at(K_d, 8 i + k), k = 0..7, with the
// direction's key K_d = splitmix64_at(seed, d) (d = 0 rx, 1 tx), where
// splitmix64_at(s, n) is the (n+1)-th output of SplitMix64 started from state s. With
// u(x) = (x >> 11) / 2^53 (uniform in [0, 1)), in this order:
//   u(x0) < loss      the frame is lost (nothing else applies);
//   u(x3) < corrupt   the byte at 14 + x6 mod (n - 14) (n: the frame's length without
//                     FCS, padded to 60) is XORed with 1 + x7 mod 255, the FCS computed
//                     over the corrupted frame;
//   u(x4) < fcs       the frame goes on the wire with its FCS inverted (the board's MAC
//                     drops it; from the board, the PC's side would: it is not written
//                     to the TAP);
//   u(x1) < dup       the frame goes on twice, back to back;
//   delay, jitter     the frame goes on no earlier than delay + (x5 mod (jitter + 1))
//                     cycles after it entered (frames keep their order: one waits for
//                     the one before it);
//   u(x2) < reorder   the frame (with its copy) is held back until `depth` (default 1)
//                     later frames of its direction have gone on, or until `hold` (default
//                     12500) cycles after it entered, whichever is first, then goes on
//                     (frames held back together go on in the order they came).
// "Goes on": towards the board, into the link queue; from the board, into the queue
// towards the TAP. rate=R (Mbit/s): each queue sends no faster than R, a frame taking
// occupancy() cycles (towards the board the idle cycles after a frame grow to match;
// towards the TAP a frame is written when its turn on the slower wire has passed).

#pragma once

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vboard {

// --------------------------------------------------------------------------- random

// The (n+1)-th output of SplitMix64 (Steele, Lea, Flood 2014) from state s: random access.
inline uint64_t splitmix64_at(uint64_t s, uint64_t n) {
    uint64_t z = s + (n + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

inline double unit(uint64_t x) { return double(x >> 11) * (1.0 / 9007199254740992.0); }

// --------------------------------------------------------------------------- settings

struct Impair {
    double loss = 0, dup = 0, reorder = 0, corrupt = 0, fcs = 0;
    uint64_t depth = 1, hold = 12500, delay = 0, jitter = 0;
    double rate = 0;  // Mbit/s (0: the line rate)
};

// Byte times (of a line of `line` Mbit/s) a frame of n bytes (without FCS, padded)
// occupies a link of `rate` Mbit/s (0: the line's), the 12-byte gap after it included:
// (8 + n + 4 + 12) x line / rate, rounded up.
inline uint64_t occupancy_bytes(size_t n, double rate, double line) {
    const double bytes = double(8 + n + 4 + 12);
    if (rate <= 0 || rate >= line) return uint64_t(bytes);
    const double c = bytes * line / rate;
    const uint64_t w = uint64_t(c);
    return double(w) < c ? w + 1 : w;
}

// Cycles of a GMII link (one byte a cycle, 1000 Mbit/s) that such a frame occupies.
inline uint64_t occupancy(size_t n, double rate) { return occupancy_bytes(n, rate, 1000.0); }

// Parse one --impair SPEC into imp[0] (rx) and/or imp[1] (tx); on an error, a message.
inline std::string parse_impair(const std::string& spec, Impair imp[2]) {
    const size_t colon = spec.find(':');
    if (colon == std::string::npos) return "expected DIR:ITEM[,ITEM...] (DIR rx, tx or both)";
    const std::string dir = spec.substr(0, colon);
    bool to[2] = {dir == "rx" || dir == "both", dir == "tx" || dir == "both"};
    if (!to[0] && !to[1]) return "direction '" + dir + "': rx, tx or both";
    Impair set[2] = {imp[0], imp[1]};
    std::string rest = spec.substr(colon + 1);
    if (rest.empty()) return "no impairment after '" + dir + ":'";
    size_t start = 0;
    while (start <= rest.size()) {
        size_t end = rest.find(',', start);
        if (end == std::string::npos) end = rest.size();
        const std::string item = rest.substr(start, end - start);
        start = end + 1;
        // item: KEY=VAL[:SUB=VAL...]
        std::vector<std::pair<std::string, double>> kv;
        size_t p = 0;
        while (p <= item.size()) {
            size_t q = item.find(':', p);
            if (q == std::string::npos) q = item.size();
            const std::string part = item.substr(p, q - p);
            p = q + 1;
            const size_t eq = part.find('=');
            if (eq == std::string::npos || eq == 0) return "'" + part + "': expected KEY=VALUE";
            const std::string num = part.substr(eq + 1);
            char* e = nullptr;
            errno = 0;
            const double v = strtod(num.c_str(), &e);
            if (num.empty() || *e || errno || !(v >= 0))
                return "'" + part + "': not a non-negative number";
            kv.emplace_back(part.substr(0, eq), v);
        }
        const std::string& key = kv[0].first;
        const double v = kv[0].second;
        const bool prob = key == "loss" || key == "dup" || key == "reorder" ||
                          key == "corrupt" || key == "fcs";
        if (prob && v > 1) return "'" + key + "': a probability, 0..1";
        auto whole = [](double x) { return x == double(uint64_t(x)) && x < 1e15; };
        if (!prob && key != "delay" && key != "rate") return "unknown impairment '" + key + "'";
        if (key == "rate" && !(v >= 0.01 && v <= 1000)) return "rate: Mbit/s, 0.01..1000";
        if (key == "delay" && !whole(v)) return "delay: a whole number of cycles";
        for (size_t k = 1; k < kv.size(); k++) {
            const std::string& sub = kv[k].first;
            const double sv = kv[k].second;
            const bool ok = (key == "reorder" && (sub == "depth" || sub == "hold")) ||
                            (key == "delay" && sub == "jitter");
            if (!ok) return "'" + key + "' has no option '" + sub + "'";
            if (!whole(sv)) return sub + ": a whole number";
            if (sub == "depth" && sv < 1) return "depth: at least 1";
            if (sub == "hold" && sv < 1) return "hold: at least 1 cycle";
        }
        for (int d = 0; d < 2; d++) {
            if (!to[d]) continue;
            Impair& m = set[d];
            if (key == "loss") m.loss = v;
            if (key == "dup") m.dup = v;
            if (key == "corrupt") m.corrupt = v;
            if (key == "fcs") m.fcs = v;
            if (key == "reorder") m.reorder = v;
            if (key == "delay") m.delay = uint64_t(v);
            if (key == "rate") m.rate = v;
            for (size_t k = 1; k < kv.size(); k++) {
                const uint64_t sv = uint64_t(kv[k].second);
                if (kv[k].first == "depth") m.depth = sv;
                if (kv[k].first == "hold") m.hold = sv;
                if (kv[k].first == "jitter") m.jitter = sv;
            }
        }
    }
    imp[0] = set[0];
    imp[1] = set[1];
    return "";
}

// Parse whole settings: SPECs and `seed=N`, separated by white space (the text of
// --impair-file). Both directions start from no impairment; on an error, a message.
inline std::string parse_settings(const std::string& text, Impair imp[2], uint64_t* seed) {
    Impair set[2];
    uint64_t sd = *seed;
    size_t p = 0;
    while (p < text.size()) {
        while (p < text.size() && isspace((unsigned char)text[p])) p++;
        size_t q = p;
        while (q < text.size() && !isspace((unsigned char)text[q])) q++;
        if (q == p) break;
        const std::string tok = text.substr(p, q - p);
        p = q;
        if (tok.compare(0, 5, "seed=") == 0) {
            char* e = nullptr;
            errno = 0;
            const unsigned long long v = strtoull(tok.c_str() + 5, &e, 0);
            if (tok.size() == 5 || tok[5] == '-' || *e || errno) return "'" + tok + "': seed=N";
            sd = uint64_t(v);
            continue;
        }
        const std::string err = parse_impair(tok, set);
        if (!err.empty()) return tok + ": " + err;
    }
    imp[0] = set[0];
    imp[1] = set[1];
    *seed = sd;
    return "";
}

// --------------------------------------------------------------------------- impairer

// A frame on its way through the link: its bytes (without FCS), the first cycle it may
// go on the wire, and whether its FCS is to be inverted.
struct LinkFrame {
    std::vector<uint8_t> data;
    uint64_t due = 0;
    bool bad_fcs = false;
};

struct LinkCounts {
    uint64_t frames = 0;     // frames that entered the direction
    uint64_t delivered = 0;  // frames that reached the other side (set by the caller)
    uint64_t lost = 0, duplicated = 0, reordered = 0, corrupted = 0, fcs_corrupted = 0;
    uint64_t delayed = 0;  // frames given a delay of at least one cycle
    uint64_t queue_drops = 0;  // frames that found the direction's queue full
};

// One direction's impairments (see the top of this file). Frames that go on are handed
// to `push` (twice for a duplicated one).
class Impairer {
  public:
    using Push = std::function<void(LinkFrame&&)>;

    // New settings and seed (at start, or while running: the frame numbers, the counts
    // and the frames held back carry on).
    void setup(const Impair& p, uint64_t seed, int dir) {
        p_ = p;
        key_ = splitmix64_at(seed, uint64_t(dir));
    }
    const Impair& settings() const { return p_; }

    // A frame enters at cycle `now`.
    void enter(std::vector<uint8_t>&& f, uint64_t now, const Push& push) {
        const uint64_t i = seq_++;
        n.frames++;
        auto x = [&](uint64_t k) { return splitmix64_at(key_, 8 * i + k); };
        if (p_.loss > 0 && unit(x(0)) < p_.loss) {
            n.lost++;
            return;
        }
        LinkFrame w{std::move(f), now, false};
        if (p_.corrupt > 0 && unit(x(3)) < p_.corrupt && w.data.size() > 14) {
            w.data[14 + x(6) % (w.data.size() - 14)] ^= uint8_t(1 + x(7) % 255);
            n.corrupted++;
        }
        if (p_.fcs > 0 && unit(x(4)) < p_.fcs) {
            w.bad_fcs = true;
            n.fcs_corrupted++;
        }
        int copies = 1;
        if (p_.dup > 0 && unit(x(1)) < p_.dup) {
            copies = 2;
            n.duplicated++;
        }
        w.due = now + p_.delay + (p_.jitter ? x(5) % (p_.jitter + 1) : 0);
        if (w.due != now) n.delayed++;
        if (p_.reorder > 0 && unit(x(2)) < p_.reorder) {
            n.reordered++;
            held_.push_back({std::move(w), copies, p_.depth, now + p_.hold});
            return;
        }
        go_on(std::move(w), copies, push);
        // a frame went on: each frame held back waits for one less
        for (size_t k = 0; k < held_.size();) {
            if (--held_[k].left == 0) {
                go_on(std::move(held_[k].f), held_[k].copies, push);
                held_.erase(held_.begin() + long(k));
            } else {
                k++;
            }
        }
    }

    // Frames held back whose time is up at cycle `now` go on.
    void expire(uint64_t now, const Push& push) {
        for (size_t k = 0; k < held_.size();) {
            if (held_[k].deadline <= now) {
                go_on(std::move(held_[k].f), held_[k].copies, push);
                held_.erase(held_.begin() + long(k));
            } else {
                k++;
            }
        }
    }

    bool holding() const { return !held_.empty(); }
    size_t held() const { return held_.size(); }
    uint64_t next_deadline() const {
        uint64_t t = UINT64_MAX;
        for (const Held& h : held_) t = h.deadline < t ? h.deadline : t;
        return t;
    }

    LinkCounts n;

  private:
    struct Held {
        LinkFrame f;
        int copies;
        uint64_t left;      // frames still to go on before it
        uint64_t deadline;  // the cycle it goes on at the latest
    };
    static void go_on(LinkFrame&& w, int copies, const Push& push) {
        if (copies == 2) push(LinkFrame(w));
        push(std::move(w));
    }

    Impair p_;
    uint64_t key_ = 0;
    uint64_t seq_ = 0;
    std::vector<Held> held_;
};

// --------------------------------------------------------------------------- wire record

// The wire record: every frame on the board's GMII port, both directions, as a classic
// pcap with nanosecond timestamps (magic 0xa1b23c4d, link type 1, frames without
// preamble, SFD and FCS), in the order of their first bytes on the wire. A frame's stamp
// is given when its first byte is on the wire: simulated time (its cycle x 8 ns), or with
// `wall` the wall clock (CLOCK_REALTIME) at that moment of the simulation. A frame from
// the board is known whole only at its end, so it takes its place when it starts
// (begin_from_board) and is filled in (end_from_board) or withdrawn (cancel_from_board,
// a frame the harness drops); records behind it wait. Records are kept in a buffer of
// the program's own and written only whole (write()), at flush() (the harness calls it
// at least every 100 ms of wall time) or when the buffer holds 1 MiB, so a reader of
// the file while the board runs finds only whole records, perhaps followed by a part of
// one being written. `limit`: no more records once the file would exceed it (0: none);
// the records left out are counted.
class WireRecord {
  public:
    void open(const std::string& path, bool wall, uint64_t limit, std::string* err) {
        fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) {
            *err = path + ": " + strerror(errno);
            return;
        }
        wall_ = wall;
        limit_ = limit;
        const uint32_t magic = 0xa1b23c4du, zero = 0, snap = 65535, link = 1;
        const uint16_t ver[2] = {2, 4};
        put(&magic, 4);
        put(ver, 4);
        put(&zero, 4);  // thiszone
        put(&zero, 4);  // sigfigs
        put(&snap, 4);
        put(&link, 4);
        size_ = buf_.size();
    }
    bool is_open() const { return fd_ >= 0; }

    void to_board(uint64_t sim_ns, const uint8_t* p, size_t n) {
        if (fd_ < 0) return;
        const uint64_t ns = stamp(sim_ns);
        if (pending_.empty())
            record(ns, p, n);
        else
            pending_.push_back({ns, std::vector<uint8_t>(p, p + n), true});
    }
    void begin_from_board(uint64_t sim_ns) {
        if (fd_ >= 0) pending_.push_back({stamp(sim_ns), {}, false});
    }
    void end_from_board(const uint8_t* p, size_t n) {
        if (fd_ < 0 || pending_.empty()) return;
        pending_.front().data.assign(p, p + n);
        pending_.front().ready = true;
        drain();
    }
    void cancel_from_board() {
        if (fd_ < 0 || pending_.empty()) return;
        pending_.pop_front();
        drain();
    }

    uint64_t records = 0, left_out = 0;

    void flush() {
        if (fd_ < 0 || buf_.empty()) return;
        size_t off = 0;
        while (off < buf_.size()) {
            ssize_t w = ::write(fd_, buf_.data() + off, buf_.size() - off);
            if (w < 0) {
                if (errno == EINTR) continue;
                break;  // (disk full: the record stops here)
            }
            off += size_t(w);
        }
        buf_.clear();
    }
    void close() {
        if (fd_ < 0) return;
        while (!pending_.empty()) cancel_from_board();  // a frame cut off at exit
        flush();
        ::close(fd_);
        fd_ = -1;
    }

  private:
    struct Rec {
        uint64_t ns;
        std::vector<uint8_t> data;
        bool ready;
    };
    uint64_t stamp(uint64_t sim_ns) const {
        if (!wall_) return sim_ns;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
    }
    void put(const void* p, size_t n) {
        const uint8_t* b = static_cast<const uint8_t*>(p);
        buf_.insert(buf_.end(), b, b + n);
    }
    void record(uint64_t ns, const uint8_t* p, size_t n) {
        if (limit_ && size_ + 16 + n > limit_) {
            left_out++;
            return;
        }
        const uint32_t rec[4] = {uint32_t(ns / 1000000000ull), uint32_t(ns % 1000000000ull),
                                 uint32_t(n), uint32_t(n)};
        put(rec, 16);
        put(p, n);
        size_ += 16 + n;
        records++;
        if (buf_.size() >= (1u << 20)) flush();
    }
    void drain() {
        while (!pending_.empty() && pending_.front().ready) {
            const Rec& r = pending_.front();
            record(r.ns, r.data.data(), r.data.size());
            pending_.pop_front();
        }
    }

    int fd_ = -1;
    bool wall_ = false;
    uint64_t limit_ = 0, size_ = 0;
    std::vector<uint8_t> buf_;
    std::deque<Rec> pending_;  // a frame from the board in progress, and the records after it
};

}  // namespace vboard
