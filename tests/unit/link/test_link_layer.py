"""link_layer: two nodes (tests/tb/link_pair.v: link_layer over a 4-lane link_tx / link_rx
each) joined by a model of the lanes in between: each direction's 40-bit code words carried
with a per-lane delay (whole symbols of skew plus a bit offset) and random bit errors at a
given rate, the two nodes on clocks 100 ppm apart. Both nodes send random transfers
(1 byte to the whole buffer) at once; each side's received transfers must be exactly the
other side's sent ones, in order, each once and intact. Without errors nothing is resent;
at a bit error rate of 1e-4 transfers are refused and sent again, none given up, and the
acknowledged count equals the delivered count on the other side."""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, Timer
from cocotb_run import run
from ref_8b10b import code_to_bits, encode
from unit.cnt_ev_mon import EvMon

PERIOD_FS = 10_000_000
LAYER_EV = ["acked", "resend", "gaveup", "delivered", "refused", "dup", "too_long", "abandon"]


def _balanced() -> list[int]:
    """Data code-groups that are the same in both disparities with both sub-blocks balanced:
    one such code-group put in place of another leaves the running disparity as it was, so
    8b/10b sees no error (only the CRC can)."""
    out = []
    for b in range(256):
        code, _ = encode(b, False, -1)
        bits = code_to_bits(code)
        if code == encode(b, False, 1)[0] and bits[:6].count("1") == 3 and bits[6:].count("1") == 2:
            out.append(code)
    return out


BALANCED = _balanced()
# an ACK word's code-group (K28.6 = ACK0, K27.7 = ACK1, either disparity) -> a framing
# code-group of the same disparity effect (K28.5 idle, K23.7 skip): the receiver drops the
# word as filler, so the ACK is lost without disturbing anything else
ACK_KILL: dict[int, int] = {}
for _ack, _fill in ((0xDC, 0xBC), (0xFB, 0xF7)):
    for _rd in (-1, 1):
        _a, _a_rd = encode(_ack, True, _rd)
        _f, _f_rd = encode(_fill, True, _rd)
        assert _a_rd == _f_rd
        ACK_KILL[_a] = _f


class Wire:
    """One direction's four lanes: symbols substituted at rate subst per lane symbol (a
    balanced data code-group for another, undetectable by 8b/10b), the first kill_acks ACK
    words lost (turned into filler), skew[i] whole symbols and offset[i] bits of delay
    per lane, then bit errors at rate ber (positions drawn as geometric gaps)."""

    def __init__(
        self,
        rng: random.Random,
        ber: float,
        skews: list[int],
        offsets: list[int],
        subst: float = 0.0,
        kill_acks: int = 0,
    ):
        self.rng = rng
        self.ber = ber
        self.subst = subst
        self.kill_acks = kill_acks
        self.delay = [10 * s + o for s, o in zip(skews, offsets, strict=True)]
        self.buf = [0, 0, 0, 0]
        self.flips = 0
        self.substs = 0
        self.killed = 0
        self.next_err = self.gap()

    def gap(self) -> int:
        if self.ber <= 0:
            return 1 << 62
        return int(self.rng.expovariate(self.ber))

    def carry(self, word: int) -> int:
        codes = [word >> 10 * i & 0x3FF for i in range(4)]
        if self.killed < self.kill_acks and all(c in ACK_KILL for c in codes):
            codes = [ACK_KILL[c] for c in codes]
            word = sum(c << 10 * i for i, c in enumerate(codes))
            self.killed += 1
        for i, c in enumerate(codes):
            if self.subst and c in BALANCED and self.rng.random() < self.subst:
                new = self.rng.choice([b for b in BALANCED if b != c])
                word ^= (c ^ new) << 10 * i
                self.substs += 1
        out = 0
        for i in range(4):
            self.buf[i] |= (word >> 10 * i & 0x3FF) << self.delay[i]
            out |= (self.buf[i] & 0x3FF) << 10 * i
            self.buf[i] >>= 10
        while self.next_err < 40:
            out ^= 1 << self.next_err
            self.flips += 1
            self.next_err += 1 + self.gap()
        self.next_err -= 40
        return out


async def carry(clk, src, dst, wire: Wire) -> None:
    while True:
        await FallingEdge(clk)
        dst.value = wire.carry(int(src.value))


async def send(clk, prefix: str, dut, transfers: list[bytes]) -> None:
    tdata = getattr(dut, f"{prefix}_s_tdata")
    tkeep = getattr(dut, f"{prefix}_s_tkeep")
    tvalid = getattr(dut, f"{prefix}_s_tvalid")
    tlast = getattr(dut, f"{prefix}_s_tlast")
    tready = getattr(dut, f"{prefix}_s_tready")
    for t in transfers:
        beats = [t[i : i + 4] for i in range(0, len(t), 4)] or [b""]
        for n, beat in enumerate(beats):
            await FallingEdge(clk)
            tdata.value = int.from_bytes(beat.ljust(4, b"\0"), "little")
            tkeep.value = (1 << len(beat)) - 1
            tlast.value = n == len(beats) - 1
            tvalid.value = 1
            while not int(tready.value):
                await FallingEdge(clk)
    await FallingEdge(clk)
    tvalid.value = 0


async def receive(clk, prefix: str, dut, got: list[bytes], rng: random.Random) -> None:
    tdata = getattr(dut, f"{prefix}_m_tdata")
    tkeep = getattr(dut, f"{prefix}_m_tkeep")
    tvalid = getattr(dut, f"{prefix}_m_tvalid")
    tlast = getattr(dut, f"{prefix}_m_tlast")
    tready = getattr(dut, f"{prefix}_m_tready")
    cur = b""
    while True:
        await FallingEdge(clk)
        ready = rng.random() < 0.8
        tready.value = ready
        if ready and int(tvalid.value):
            keep = int(tkeep.value)
            nbytes = bin(keep).count("1")
            assert keep == (1 << nbytes) - 1, f"tkeep {keep:#x} not contiguous"
            cur += int(tdata.value).to_bytes(4, "little")[:nbytes]
            if int(tlast.value):
                got.append(cur)
                cur = b""


@cocotb.test(timeout_time=400, timeout_unit="ms")
async def transfers(dut) -> None:
    ber = float(os.environ.get("LINK_BER", "0"))
    subst = float(os.environ.get("LINK_SUBST", "0"))
    kill_acks = int(os.environ.get("LINK_KILL_ACKS", "0"))
    retries = int(dut.MAX_RETRIES.value)
    count = int(os.environ.get("LINK_TRANSFERS", "12"))
    max_bytes = 4 * int(dut.MAX_WORDS.value)
    rng = random.Random(int(os.environ.get("LINK_SEED", "1")))
    cocotb.start_soon(Clock(dut.clk_a, PERIOD_FS, "fs").start())
    cocotb.start_soon(Clock(dut.clk_b, 2 * round(PERIOD_FS * (1 + 100e-6) / 2), "fs").start())
    mons = {
        "a": EvMon(dut, LAYER_EV, clk="clk_a", rst="rst_a", signal="a_cnt_ev"),
        "b": EvMon(dut, LAYER_EV, clk="clk_b", rst="rst_b", signal="b_cnt_ev"),
    }
    for p in ("a", "b"):
        getattr(dut, f"{p}_s_tvalid").value = 0
        getattr(dut, f"{p}_m_tready").value = 0
        getattr(dut, f"{p}_rx_raw").value = 0
    dut.rst_a.value = 1
    dut.rst_b.value = 1
    await Timer(5 * PERIOD_FS, "fs")
    await FallingEdge(dut.clk_a)
    dut.rst_a.value = 0
    await FallingEdge(dut.clk_b)
    dut.rst_b.value = 0
    wires = {}
    for src, dst, clk in (("a", "b", dut.clk_a), ("b", "a", dut.clk_b)):
        skews = [rng.randint(0, 4) for _ in range(4)]
        # ACKs for a's transfers travel b -> a
        kill = kill_acks if src == "b" else 0
        w = Wire(rng, ber, skews, [rng.randrange(10) for _ in range(4)], subst, kill)
        wires[src] = w
        src_sig = getattr(dut, f"{src}_tx_code")
        cocotb.start_soon(carry(clk, src_sig, getattr(dut, f"{dst}_rx_raw"), w))
    sizes = [1, 2, 3, 4, 5, max_bytes - 1, max_bytes]
    sent = {p: [] for p in "ab"}
    for p in "ab":
        for n in range(count):
            size = sizes[n] if n < len(sizes) else rng.randint(1, max_bytes)
            sent[p].append(rng.randbytes(size))
    got: dict[str, list[bytes]] = {"a": [], "b": []}
    for p, q, clk in (("a", "b", dut.clk_a), ("b", "a", dut.clk_b)):
        cocotb.start_soon(send(clk, p, dut, sent[p]))
        cocotb.start_soon(receive(getattr(dut, f"clk_{q}"), q, dut, got[q], rng))
    # until both sides have everything, or nothing arrived for 20,000 cycles
    idle = 0
    while (len(got["a"]) < count or len(got["b"]) < count) and idle < 40:
        before = len(got["a"]) + len(got["b"])
        await Timer(500 * PERIOD_FS, "fs")
        idle = 0 if len(got["a"]) + len(got["b"]) > before else idle + 1
    await Timer(500 * PERIOD_FS, "fs")  # late duplicates would show here
    c = {p: m.counts() for p, m in mons.items()}
    flips = {p: (w.flips, w.substs, w.killed) for p, w in wires.items()}
    cocotb.log.warning(f"ber {ber} subst {subst}: (flips, substitutions, killed) {flips}: {c}")
    for p, q in (("a", "b"), ("b", "a")):
        assert len(got[q]) == count, f"{q} got {len(got[q])} of {count} transfers from {p}"
        for n, (g, s) in enumerate(zip(got[q], sent[p], strict=True)):
            assert g == s, f"transfer {n} {p}->{q}: {len(g)} bytes, sent {len(s)}"
    # a's first transfer given up when its ACKs are killed: delivered once all the same
    gaveup = {"a": int(kill_acks > retries), "b": 0}
    for p, q in (("a", "b"), ("b", "a")):
        assert c[p]["acked"] == count - gaveup[p] and c[q]["delivered"] == count, c
        assert c[p]["gaveup"] == gaveup[p] and c[p]["too_long"] == 0, c
        assert c[q]["delivered"] + c[q]["dup"] >= c[p]["acked"], c
        clean = ber == 0 and subst == 0 and not (kill_acks and p == "a")
        if clean:
            assert c[p]["resend"] == 0 and c[q]["refused"] + c[q]["dup"] + c[q]["abandon"] == 0, c
    if kill_acks:
        assert wires["b"].killed == kill_acks, flips
        assert c["b"]["dup"] == min(kill_acks, retries), c
        assert c["a"]["resend"] == min(kill_acks, retries), c
    if ber > 0 or subst > 0:
        assert c["a"]["resend"] + c["b"]["resend"] > 0, f"nothing resent: {c}"
    if subst > 0:
        assert wires["a"].substs + wires["b"].substs > 0, flips
        assert c["a"]["refused"] + c["b"]["refused"] > 0, f"nothing refused: {c}"


@pytest.mark.parametrize(
    "env,params",
    [
        ({"LINK_TRANSFERS": "10"}, {}),
        ({"LINK_TRANSFERS": "16", "LINK_BER": "1e-4", "LINK_SUBST": "3e-3"}, {}),
        ({"LINK_TRANSFERS": "8", "LINK_KILL_ACKS": "2"}, {}),
        ({"LINK_TRANSFERS": "6", "LINK_KILL_ACKS": "4"}, {"MAX_RETRIES": 3}),
        pytest.param(
            {"LINK_TRANSFERS": "120", "LINK_BER": "1e-4", "LINK_SUBST": "1e-3", "LINK_SEED": "2"},
            # a 1 KiB transfer meets a bit error or substitution more often than not at
            # these rates: 32 resends make giving one up (which may lose it) unlikely
            {"MAX_WORDS": 256, "TIMEOUT": 1024, "MAX_RETRIES": 32},
            marks=pytest.mark.long,
        ),
    ],
    ids=["clean", "ber1e-4-subst", "lost-acks", "giveup", "ber1e-4-long"],
)
def test_link_layer(env: dict[str, str], params: dict[str, int]) -> None:
    run(
        "link_pair",
        "test_link_layer",
        parameters={"CC_INTERVAL": 256, "MAX_WORDS": 64, "TIMEOUT": 256, **params},
        extra_env=env,
        timescale=("1ns", "1fs"),
    )
