"""nic_classifier: frames built by scapy (Ethernet/IPv4/UDP, ARP, ICMP, odd lengths, frames
shorter than K, bad frames) go through the classifier under random rule sets, with random
gaps at the input and random backpressure on every output; an independent model of the
rule table (ref_classifier) decides where each frame must go, and every output must carry
exactly those frames, byte for byte, in order, with their bad flag. Rules rewritten through
the register port while traffic flows: every frame's destinations are the model's under one
whole version of the rule table in force while it passed (never a mix). The cnt_ev strobes
are counted exactly; the latency and line rate are checked against the module's header."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import Event, FallingEdge
from cocotb_run import run
from ref_classifier import ACT_ACCEL, ACT_DROP, ACT_HOST, HOST, Action, Rule, decide
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import ARP, Ether
from unit.cnt_ev_mon import EvMon

MAC_A, MAC_B = "02:00:00:00:00:01", "02:00:00:00:00:02"


@dataclass
class Frame:
    data: bytes
    bad: bool = False
    start: int = -1  # cycle its first beat was taken
    end: int = -1  # cycle its last beat was taken


@dataclass
class RegOp:
    we: bool
    addr: int
    wdata: int
    done: Event = field(default_factory=Event)
    ack: bool = False
    err: bool = False
    rdata: int = 0
    cycle: int = -1  # cycle the request was presented


class Tb:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.data_w = int(os.environ["NIC_DATA_W"])
        self.keep_w = self.data_w // 8
        self.rules_n = int(os.environ["NIC_RULES"])
        self.k = int(os.environ["NIC_K"])
        self.ports = int(os.environ["NIC_PORTS"])
        self.cut = os.environ["NIC_CUT"] == "1"  # HOST_CUT: every frame reaches the host
        self.outputs: list[str | int] = [HOST, *range(self.ports)]
        cocotb.start_soon(Clock(dut.clk, 8, "ns").start())
        self.mon = EvMon(dut, ["default", "drop", "bad", *[f"hit{r}" for r in range(self.rules_n)]])
        self.cycle = 0
        self.queue: list[Frame] = []  # frames waiting to be sent
        self.sent: list[Frame] = []  # frames whose last beat was taken
        self.beats: list[tuple[int, int, bool]] = []  # the current frame's beats
        self.cur: Frame | None = None
        self.got: dict[str | int, list[Frame]] = {o: [] for o in self.outputs}
        self.partial: dict[str | int, bytearray] = {o: bytearray() for o in self.outputs}
        self.p_valid = 1.0
        self.p_ready: dict[str | int, float] = {o: 1.0 for o in self.outputs}
        self.rng = random.Random(1)
        self.reg_ops: list[RegOp] = []
        self.reg_cur: RegOp | None = None
        self.stalls = 0  # cycles the input offered a beat that was not taken
        self.commits: list[tuple[int, list[Rule | None], Action]] = []
        self.table: list[Rule | None] = [None] * self.rules_n
        self.default = Action(ACT_HOST)
        self.expect = {"default": 0, "drop": 0, "bad": 0}  # counts of the frames checked
        self.loose: set[str] = set()  # counters only exact as a sum (see check)
        self.expect.update({f"hit{r}": 0 for r in range(self.rules_n)})

    async def reset(self) -> None:
        d = self.dut
        d.rst.value = 1
        d.s_axis_tvalid.value = 0
        d.s_axis_tdata.value = 0
        d.s_axis_tkeep.value = 0
        d.s_axis_tlast.value = 0
        d.s_axis_tuser.value = 0
        d.m_host_axis_tready.value = 0
        d.m_acc_axis_tready.value = 0
        d.reg_req.value = 0
        d.reg_we.value = 0
        d.reg_addr.value = 0
        d.reg_wdata.value = 0
        for _ in range(5):
            await FallingEdge(d.clk)
        d.rst.value = 0
        cocotb.start_soon(self._loop())
        await FallingEdge(d.clk)
        self.commits = [(0, list(self.table), self.default)]

    # ---- the cycle loop: every handshake signal of the DUT is a flip-flop output, so at
    # the falling edge its value is the one the next rising edge sees ----
    async def _loop(self) -> None:
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            self.cycle += 1
            self._source()
            self._sinks()
            self._regs()

    def _beats_of(self, f: Frame) -> list[tuple[int, int, bool]]:
        out = []
        for i in range(0, len(f.data), self.keep_w):
            chunk = f.data[i : i + self.keep_w]
            last = i + self.keep_w >= len(f.data)
            out.append((int.from_bytes(chunk, "little"), (1 << len(chunk)) - 1, last))
        return out

    def _source(self) -> None:
        d = self.dut
        if not self.beats and self.queue:
            self.cur = self.queue.pop(0)
            self.beats = self._beats_of(self.cur)
        if not self.beats or self.rng.random() >= self.p_valid:
            d.s_axis_tvalid.value = 0
            return
        data, keep, last = self.beats[0]
        d.s_axis_tvalid.value = 1
        d.s_axis_tdata.value = data
        d.s_axis_tkeep.value = keep
        d.s_axis_tlast.value = int(last)
        d.s_axis_tuser.value = int(last and self.cur.bad)
        if not int(d.s_axis_tready.value):
            self.stalls += 1
            return
        self.beats.pop(0)
        if self.cur.start < 0:
            self.cur.start = self.cycle
        if last:
            self.cur.end = self.cycle
            self.sent.append(self.cur)

    def _sinks(self) -> None:
        d = self.dut
        ready_acc = 0
        valid_acc = int(d.m_acc_axis_tvalid.value)
        for o in self.outputs:
            ready = self.rng.random() < self.p_ready[o]
            if o == HOST:
                d.m_host_axis_tready.value = int(ready)
                valid = int(d.m_host_axis_tvalid.value)
            else:
                ready_acc |= int(ready) << o
                valid = valid_acc >> o & 1
            if not (valid and ready):
                continue
            if o == HOST:
                data, keep = int(d.m_host_axis_tdata.value), int(d.m_host_axis_tkeep.value)
                last, user = int(d.m_host_axis_tlast.value), int(d.m_host_axis_tuser.value)
            else:
                data, keep, last, user = self._acc_beat(o)
            n = bin(keep).count("1")
            assert keep == (1 << n) - 1, f"{o}: tkeep {keep:#x} not contiguous"
            assert last or n == self.keep_w, f"{o}: partial beat before tlast"
            self.partial[o] += data.to_bytes(self.keep_w, "little")[:n]
            assert last or not user, f"{o}: tuser before tlast"
            if last:
                self.got[o].append(Frame(bytes(self.partial[o]), bool(user), end=self.cycle))
                self.partial[o] = bytearray()
        d.m_acc_axis_tready.value = ready_acc

    def _acc_beat(self, o: int) -> tuple[int, int, int, int]:
        """Accelerator port o's lanes of the flattened outputs (other ports may be X)."""
        d = self.dut

        def lanes(sig, w: int) -> int:
            bits = str(sig.value)  # MSB first
            return int(bits[len(bits) - (o + 1) * w : len(bits) - o * w], 2)

        return (
            lanes(d.m_acc_axis_tdata, self.data_w),
            lanes(d.m_acc_axis_tkeep, self.keep_w),
            lanes(d.m_acc_axis_tlast, 1),
            lanes(d.m_acc_axis_tuser, 1),
        )

    def _regs(self) -> None:
        d = self.dut
        op = self.reg_cur
        if op is not None and op.cycle >= 0:
            d.reg_req.value = 0
            ack, err = int(d.reg_ack.value), int(d.reg_err.value)
            if ack or err:
                op.ack, op.err, op.rdata = bool(ack), bool(err), int(d.reg_rdata.value)
                self.reg_cur = None
                op.done.set()
            return
        if op is None and self.reg_ops:
            op = self.reg_cur = self.reg_ops.pop(0)
            op.cycle = self.cycle
            d.reg_req.value = 1
            d.reg_we.value = int(op.we)
            d.reg_addr.value = op.addr
            d.reg_wdata.value = op.wdata

    # ---- register port ----
    async def reg(self, we: bool, addr: int, wdata: int = 0) -> RegOp:
        op = RegOp(we, addr, wdata)
        self.reg_ops.append(op)
        await op.done.wait()
        return op

    def words(self, field_bytes: bytes) -> list[int]:
        padded = field_bytes + bytes(-len(field_bytes) % 4)
        return [int.from_bytes(padded[i : i + 4], "big") for i in range(0, len(padded), 4)]

    async def write_rule(self, idx: int, rule: Rule) -> None:
        for w, v in enumerate(self.words(rule.value)):
            assert (await self.reg(True, 0x00 + w, v)).ack
        for w, v in enumerate(self.words(rule.mask)):
            assert (await self.reg(True, 0x10 + w, v)).ack
        op = await self.reg(True, 0x40 + idx, rule.action.word(rule.enable))
        assert op.ack, f"rule {idx}: commit refused"
        self.table[idx] = rule
        self.commits.append((op.cycle, list(self.table), self.default))

    async def write_default(self, action: Action) -> None:
        op = await self.reg(True, 0x20, action.word(False))
        assert op.ack
        self.default = action
        self.commits.append((op.cycle, list(self.table), self.default))

    async def drain(self, limit: int = 200000) -> None:
        for _ in range(limit):
            if not self.queue and not self.beats and not self.reg_ops and self.reg_cur is None:
                break
            await FallingEdge(self.dut.clk)
        quiet = 0  # cycles in a row with no output offering a beat
        for _ in range(limit):
            await FallingEdge(self.dut.clk)
            busy = int(self.dut.m_host_axis_tvalid.value) or int(self.dut.m_acc_axis_tvalid.value)
            quiet = 0 if busy else quiet + 1
            if quiet >= 50:
                break
        assert not self.queue and not self.beats, "input did not drain"

    # ---- checks ----
    def check(self, versions: Callable[[Frame], list[tuple[list[Rule | None], Action]]]) -> None:
        """Every output carries exactly the frames the model sends it, in order, under one
        table version per frame (among ``versions(frame)``); counters exact."""
        pos = {o: 0 for o in self.outputs}
        expect = self.expect
        for f in self.sent:
            actual = set()
            for o in self.outputs:
                g = self.got[o]
                if pos[o] < len(g) and g[pos[o]].data == f.data and g[pos[o]].bad == f.bad:
                    actual.add(o)
            known = set(self.outputs)  # outputs whose taking of the frame is known
            if self.cut:
                g = self.got[HOST]
                assert pos[HOST] < len(g) and g[pos[HOST]].data == f.data, "cut: frame not at host"
                actual.discard(HOST)
                if not g[pos[HOST]].bad:
                    actual.add(HOST)  # good at the host: it was for the host
                elif f.bad:
                    known.discard(HOST)  # bad anyway: the host flag tells nothing
            options = [decide(t, dflt, f.data) for t, dflt in versions(f)]
            chosen = [dec for dec in options if set(dec.dests) & known == actual & known]
            assert chosen, (
                f"frame {f.data[:16].hex()}.. ({len(f.data)} B, bad={f.bad}) went to "
                f"{actual}, model says {[set(x.dests) for x in options]}"
            )
            dec = chosen[0]
            if len({x.rule for x in chosen}) > 1:  # versions agree on where, not on which rule
                self.loose.update("default" if x.rule is None else f"hit{x.rule}" for x in chosen)
            for o in actual | ({HOST} if self.cut else set()):
                pos[o] += 1
            expect["bad"] += f.bad
            expect["drop"] += not dec.dests
            if dec.rule is None:
                expect["default"] += 1
            else:
                expect[f"hit{dec.rule}"] += 1
        for o in self.outputs:
            assert pos[o] == len(self.got[o]), f"{o}: {len(self.got[o]) - pos[o]} extra frames"
        got = self.mon.counts()
        for name in expect:
            if name in self.loose:  # frames whose rule the versions leave open
                continue
            assert got[name] == expect[name], f"counters {got} != {expect}"
        loose_got = sum(got[n] for n in self.loose)
        loose_exp = sum(expect[n] for n in self.loose)
        assert loose_got == loose_exp, f"counters {got} != {expect} (open: {self.loose})"
        self.sent = []  # checked: the next check starts from here
        self.got = {o: [] for o in self.outputs}

    def fixed_version(self, f: Frame) -> list[tuple[list[Rule | None], Action]]:
        return [(self.commits[-1][1], self.commits[-1][2])]

    def versions_during(self, f: Frame) -> list[tuple[list[Rule | None], Action]]:
        """The table versions in force at some cycle while the frame passed (from a cycle
        before its first beat to two after its last: the compare comes one cycle after the
        deciding beat)."""
        out = []
        for i, (c, table, dflt) in enumerate(self.commits):
            nxt = self.commits[i + 1][0] if i + 1 < len(self.commits) else 1 << 60
            if c <= f.end + 2 and nxt >= f.start - 1:
                out.append((table, dflt))
        return out


# ---------------- traffic and rules ----------------


def templates(rng: random.Random) -> list[bytes]:
    """Frames of several kinds (scapy builds them), from which rules and traffic are drawn."""
    out = []
    for port in (1000, 1001, 50001, 7):
        out.append(
            bytes(
                Ether(src=MAC_A, dst=MAC_B)
                / IP(src="192.0.2.1", dst="192.0.2.2")
                / UDP(sport=5000, dport=port)
                / bytes(rng.getrandbits(8) for _ in range(rng.randrange(18, 60)))
            )
        )
    out.append(bytes(Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff") / ARP(pdst="192.0.2.2")))
    out.append(bytes(Ether(src=MAC_B, dst=MAC_A) / IP(src="192.0.2.2", dst="192.0.2.9") / ICMP()))
    out.append(bytes(Ether(src=MAC_A, dst=MAC_B, type=0x88B5) / bytes(range(40))))
    return out


def random_frame(rng: random.Random, tmpl: list[bytes], k: int) -> Frame:
    base = bytearray(rng.choice(tmpl))
    roll = rng.random()
    if roll < 0.2:
        data = bytes(base[: rng.randrange(1, k + 2)])  # around and below K bytes
    elif roll < 0.3:
        data = bytes(base) + bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 9)))
    else:
        data = bytes(base)
    if rng.random() < 0.3 and data:  # disturb a byte inside the first K
        i = rng.randrange(min(k, len(data)))
        data = data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    return Frame(data, bad=rng.random() < 0.15)


def random_action(rng: random.Random, ports: int) -> Action:
    kind = rng.choice([ACT_HOST, ACT_ACCEL, ACT_ACCEL, ACT_DROP])
    return Action(kind, rng.randrange(ports) if kind == ACT_ACCEL else 0, rng.random() < 0.3)


def random_rule(rng: random.Random, tmpl: list[bytes], k: int, ports: int) -> Rule:
    """A rule cut from a template frame: a few byte fields (Ethernet type, IP protocol,
    UDP port, ...) or random bit masks, so rules overlap and frames hit them."""
    src = rng.choice(tmpl)
    value = bytearray(src[:k].ljust(k, b"\0"))
    mask = bytearray(k)
    fields = [(12, 2), (23, 1), (36, 2), (0, 6), (6, 6), (30, 4), (k - 1, 1)]
    for _ in range(rng.randrange(1, 4)):
        if rng.random() < 0.6:
            start, n = rng.choice(fields)
            for i in range(start, min(start + n, k)):
                mask[i] = 0xFF
        else:
            i = rng.randrange(k)
            mask[i] |= rng.getrandbits(8)
    if rng.random() < 0.1:
        value = bytearray(rng.getrandbits(8) for _ in range(k))  # rarely hit
    if rng.random() < 0.05:
        mask = bytearray(k)  # matches everything
    return Rule(bytes(value), bytes(mask), random_action(rng, ports), enable=rng.random() < 0.9)


# ---------------- cocotb tests ----------------


@cocotb.test()
async def test_random_rules_and_traffic(dut) -> None:
    """Random rule sets, random traffic, random gaps and backpressure on every output."""
    tb = Tb(dut)
    await tb.reset()
    rng = random.Random(int(os.environ.get("NIC_SEED", "7")))
    tmpl = templates(rng)
    for rnd in range(3):
        for r in range(tb.rules_n):
            await tb.write_rule(r, random_rule(rng, tmpl, tb.k, tb.ports))
        await tb.write_default(random_action(rng, tb.ports))
        tb.p_valid = rng.choice([1.0, 0.7])
        tb.p_ready = {o: rng.choice([1.0, 0.8, 0.4]) for o in tb.outputs}
        tb.queue += [random_frame(rng, tmpl, tb.k) for _ in range(int(os.environ["NIC_FRAMES"]))]
        await tb.drain()
        tb.check(tb.fixed_version)
        dut._log.info("round %d: %d frames, counters %s", rnd, len(tb.sent), tb.mon.counts())


@cocotb.test()
async def test_rewrite_while_traffic_flows(dut) -> None:
    """Rules rewritten (value, mask and action at once) while frames pass: each frame's
    destinations are the model's under one whole table version in force while it passed."""
    tb = Tb(dut)
    await tb.reset()
    rng = random.Random(11)
    tmpl = templates(rng)
    # frames unique by a counter in their last 4 bytes, at least K + 4 bytes long
    for n in range(int(os.environ["NIC_FRAMES"])):
        base = rng.choice(tmpl)
        body = base + bytes(max(0, tb.k - len(base)))
        tb.queue.append(Frame(body + n.to_bytes(4, "big"), bad=rng.random() < 0.1))
    tb.p_ready = {o: 0.8 for o in tb.outputs}
    # two versions of each rewritten rule that differ in value, mask and action
    pairs = [
        (
            random_rule(rng, tmpl, tb.k, tb.ports),
            random_rule(rng, tmpl, tb.k, tb.ports),
        )
        for _ in range(min(3, tb.rules_n))
    ]
    for r, (a, _) in enumerate(pairs):
        await tb.write_rule(r, a)
    i = 0
    while tb.queue or tb.beats:
        r = i % len(pairs)
        await tb.write_rule(r, pairs[r][(i // len(pairs) + 1) % 2])
        i += 1
    await tb.drain()
    assert i > 5, "too few rewrites during the traffic"
    tb.check(tb.versions_during)


@cocotb.test()
async def test_latency_and_line_rate(dut) -> None:
    """Every output ready: a frame alone leaves D + 6 cycles after it came (D its
    deciding beat's index; HOST_CUT: the host's copy 4 cycles, its last beat no earlier
    than the decision); frames back to back never stall the input."""
    tb = Tb(dut)
    await tb.reset()
    rng = random.Random(3)
    tmpl = templates(rng)
    await tb.write_rule(0, Rule(bytes(tb.k), bytes(tb.k), Action(ACT_ACCEL, tb.ports - 1, True)))
    hdr_beats = -(-tb.k // tb.keep_w)
    long_len = tb.k + 3 * tb.keep_w
    kinds = [
        [Frame(bytes(rng.getrandbits(8) for _ in range(long_len))) for _ in range(20)],
        [Frame(rng.choice(tmpl)[: max(1, tb.k - 1)]) for _ in range(20)],
        [Frame(bytes(60)) for _ in range(20)],
    ]
    for frames in kinds:
        # alone (the classifier idle): every beat leaves D + 6 cycles after it came,
        # D = the deciding beat's index in the frame
        for f in frames[:3]:
            tb.queue.append(f)
            await tb.drain()
            nbeats = -(-len(f.data) // tb.keep_w)
            deciding = min(hdr_beats, nbeats) - 1
            acc = tb.got[tb.ports - 1][-1]
            assert acc.data == f.data
            assert acc.end - f.end == deciding + 6, f"{len(f.data)} B: {acc.end - f.end} cycles"
            g = tb.got[HOST][-1]
            assert g.data == f.data
            if tb.cut:  # the host's beats leave 4 cycles after they came, the last one
                # no earlier than the decision
                want = max(4, deciding + 7 - nbeats)
                assert g.end - f.end == want, f"host {len(f.data)} B: {g.end - f.end} cycles"
            else:
                assert g.end == acc.end, "copy not in step"
        tb.check(tb.fixed_version)
        # back to back: the input never stalls, no beat waits more than the first did
        tb.queue += frames
        await tb.drain()
        sent = list(tb.sent)
        got = list(tb.got[HOST])
        tb.check(tb.fixed_version)
        assert tb.stalls == 0, f"the input stalled {tb.stalls} cycles at line rate"
        for f, g in zip(sent, got, strict=True):
            assert g.end - f.end <= hdr_beats + 5, f"{len(f.data)} B: {g.end - f.end} cycles"


@cocotb.test()
async def test_register_port(dut) -> None:
    """Info word, refused action words and addresses, default action, rule read-back."""
    tb = Tb(dut)
    await tb.reset()
    info = (await tb.reg(False, 0x21)).rdata
    assert info == tb.rules_n | tb.k << 8 | tb.ports << 16 | tb.keep_w << 24, hex(info)
    rng = random.Random(5)
    value = bytes(rng.getrandbits(8) for _ in range(tb.k))
    mask = bytes(rng.getrandbits(8) for _ in range(tb.k))
    rule = Rule(value, mask, Action(ACT_ACCEL, tb.ports - 1, True))
    last = tb.rules_n - 1
    await tb.write_rule(last, rule)
    assert (await tb.reg(False, 0x40 + last)).rdata == rule.action.word()
    for bad in (Action(3).word(), Action(ACT_ACCEL, tb.ports).word()):
        op = await tb.reg(True, 0x40 + last, bad)
        assert op.err and not op.ack, f"action {bad:#x} taken"
        op = await tb.reg(True, 0x20, bad)
        assert op.err and not op.ack, f"default {bad:#x} taken"
    assert (await tb.reg(False, 0x40 + last)).rdata == rule.action.word(), "refused word applied"
    bad_addrs = [0x40 + tb.rules_n, 0x80 + tb.rules_n, 0x22, 0x100]
    if tb.k <= 60:
        bad_addrs.append(0x10 + -(-tb.k // 4))  # past the last mask word
    for addr in bad_addrs:
        op = await tb.reg(addr < 0x80, addr, 0) if addr != 0x100 else await tb.reg(False, addr)
        assert op.err and not op.ack, f"address {addr:#x} answered"
    assert (await tb.reg(False, 0x80 + last)).err, "a read of a load word answered"
    await tb.write_default(Action(ACT_DROP, 0, True))
    assert (await tb.reg(False, 0x20)).rdata == Action(ACT_DROP, 0, True).word(False)
    # read the rule back through the shadow (overwrite the shadow first)
    for w in range(-(-tb.k // 4)):
        await tb.reg(True, w, 0)
        await tb.reg(True, 0x10 + w, 0)
    assert (await tb.reg(True, 0x80 + last, 0)).ack
    got_v = [(await tb.reg(False, w)).rdata for w in range(-(-tb.k // 4))]
    got_m = [(await tb.reg(False, 0x10 + w)).rdata for w in range(-(-tb.k // 4))]
    assert got_v == tb.words(value) and got_m == tb.words(mask)


PARAMS = [
    pytest.param(8, 16, 64, 2, 0, 60, id="w8-r16-k64"),
    pytest.param(64, 6, 20, 3, 0, 150, id="w64-r6-k20"),
    pytest.param(8, 1, 1, 1, 0, 40, id="w8-r1-k1"),
    pytest.param(64, 3, 64, 1, 0, 80, id="w64-r3-k64"),
    pytest.param(8, 16, 64, 2, 1, 60, id="w8-r16-k64-cut"),
    pytest.param(64, 6, 20, 3, 1, 150, id="w64-r6-k20-cut"),
]


@pytest.mark.parametrize(("data_w", "rules", "k", "ports", "cut", "frames"), PARAMS)
def test_nic_classifier(data_w: int, rules: int, k: int, ports: int, cut: int, frames: int) -> None:
    run(
        "nic_classifier",
        "test_nic_classifier",
        parameters={
            "DATA_W": data_w,
            "RULES": rules,
            "K": k,
            "ACCEL_PORTS": ports,
            "HOST_CUT": cut,
        },
        extra_env={
            "NIC_CUT": str(cut),
            "NIC_DATA_W": str(data_w),
            "NIC_RULES": str(rules),
            "NIC_K": str(k),
            "NIC_PORTS": str(ports),
            "NIC_FRAMES": str(frames),
        },
    )
