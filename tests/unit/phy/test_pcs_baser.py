"""pcs_baser: the 10GBASE-R PCS against the independent model of tests/unit/phy/baser_model.py
(clause 49 block formats as field lists, the x^58 + x^39 + 1 scrambler).

TX: words of every block format (and words that fit none) go in; the blocks that come
out, descrambled by the model, are the model's encoding, and the error count is exact.
RX: the model's scrambled blocks come in over a bit-level channel that obeys rx_slip:
block lock from 64 good headers, every format decoded, invalid blocks as /E/; a one-bit
slip of the line loses the lock and the PCS slips back into it; header errors: 15 in a
row keep the lock, 31 lose it; spaced header errors raise hi_ber (Local Fault words out)
and a clean window clears it, with exact counts."""

from __future__ import annotations

import random

import cocotb
from baser_model import (
    ERROR_BLOCK,
    SYNC_CTRL,
    Channel,
    Scrambler,
    decode,
    encode,
    every_format,
    random_word,
    value_word,
    word_value,
)
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotb_run import run
from unit.cnt_ev_mon import EvMon

PCS_EV = ["tx_enc_err", "rx_dec_err", "rx_ber", "rx_lock_loss", "rx_hi_ber"]
IDLE_WORD = [(0x07, True)] * 8
LF_WORD = [(0x9C, True), (0, False), (0, False), (1, False)] * 2


class RxDriver:
    """Feeds the PCS receiver from a queue of (block, label) through a Channel, one block
    per cycle (idle blocks when the queue is empty), honouring rx_slip; records what
    comes out: (label of the block fed 3 cycles before, word, block_lock, hi_ber)."""

    def __init__(self, dut, offset: int = 0) -> None:
        self.dut = dut
        self.chan = Channel(offset)
        self.scr = Scrambler(0x2AAAAAAAAAAAAAA)
        self.queue: list[tuple[int, object]] = []
        self.fed: list[object] = []
        self.out: list[tuple[object, list, int, int]] = []
        self.idle = encode(IDLE_WORD)[0]
        cocotb.start_soon(self._run())

    def send(self, block: int, label: object = None, bad_sync: int | None = None) -> None:
        """Queue a block (unscrambled): the model scrambles it; bad_sync replaces its header."""
        b = self.scr.scramble(block)
        if bad_sync is not None:
            b = (b & ~3) | bad_sync
        self.queue.append((b, label))

    async def _run(self) -> None:
        d = self.dut
        while True:
            while self.chan.n < 66:
                b, label = self.queue.pop(0) if self.queue else (self.scr.scramble(self.idle), None)
                self.chan.push(b)
                self.fed.append(label)
            d.rx_block.value = self.chan.pull()
            await RisingEdge(d.rx_clk)
            if int(d.rx_slip.value):
                self.chan.drop_bit()
            fed_label = self.fed[-4] if len(self.fed) >= 4 else None
            word = value_word(int(d.xgmii_rxd.value), int(d.xgmii_rxc.value))
            self.out.append((fed_label, word, int(d.block_lock.value), int(d.hi_ber.value)))

    async def drain(self) -> None:
        while self.queue:
            await RisingEdge(self.dut.rx_clk)
        await ClockCycles(self.dut.rx_clk, 6)


async def setup(dut) -> EvMon:
    for clk in (dut.tx_clk, dut.rx_clk):
        cocotb.start_soon(Clock(clk, 6.4, "ns").start())
    dut.tx_rst.value = 1
    dut.rx_rst.value = 1
    dut.xgmii_txd.value, dut.xgmii_txc.value = word_value(IDLE_WORD)
    dut.rx_block.value = 0
    ev = EvMon(dut, PCS_EV, clk="rx_clk", rst="rx_rst")
    await ClockCycles(dut.tx_clk, 4)
    dut.tx_rst.value = 0
    dut.rx_rst.value = 0
    return ev


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def tx_every_block_format(dut) -> None:
    ev = await setup(dut)
    rng = random.Random(11)
    words = every_format(rng, n=6)
    rng.shuffle(words)
    got: list[int] = []

    async def capture() -> None:
        for _ in range(len(words) + 4):
            await RisingEdge(dut.tx_clk)
            got.append(int(dut.tx_block.value))

    cap = cocotb.start_soon(capture())
    for w in words:
        dut.xgmii_txd.value, dut.xgmii_txc.value = word_value(w)
        await RisingEdge(dut.tx_clk)
    dut.xgmii_txd.value, dut.xgmii_txc.value = word_value(IDLE_WORD)
    await cap
    blocks = got[2 : 2 + len(words)]  # 2 cycles of latency
    desc = Scrambler(0)
    plain = [desc.descramble(b) for b in blocks]
    want = [encode(w)[0] for w in words]
    # the descrambler is right from the 58th bit: compare from the second block on
    for i in range(1, len(words)):
        assert plain[i] == want[i], f"word {i} {words[i]}: {plain[i]:#x} != {want[i]:#x}"
    assert ev.count("tx_enc_err") == sum(encode(w)[1] for w in words) > 0


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def rx_lock_decode_slip_ber(dut) -> None:
    ev = await setup(dut)
    rx = RxDriver(dut, offset=23)  # the line starts 23 bits off the block boundary
    rng = random.Random(12)
    for _ in range(600):
        rx.send(rx.idle)
    await rx.drain()
    lock_at = [i for i, o in enumerate(rx.out) if o[2]]
    assert lock_at, "no block lock"
    assert all(o[2] for o in rx.out[lock_at[0] :]), "lock lost on a clean line"
    assert ev.count("rx_lock_loss") == 0
    assert all(o[1] == LF_WORD for o in rx.out[: lock_at[0]]), "no Local Fault unlocked"

    # every block format, and invalid blocks, decoded
    words = every_format(rng, n=6)
    rng.shuffle(words)
    for i, w in enumerate(words):
        rx.send(encode(w)[0], ("w", i))
    invalid = [ERROR_BLOCK ^ (0x55 << 2), (0x00 << 2) | SYNC_CTRL, (0x1E | 0x7F << 8) << 2 | 1]
    invalid += [(0x2D | 0x5 << 36) << 2 | SYNC_CTRL]  # an O code that is not 0 or F
    for i, b in enumerate(invalid):
        rx.send(b, ("bad", i))
    rx.send(encode(IDLE_WORD)[0], ("sync00", 0), bad_sync=0b00)
    rx.send(encode(IDLE_WORD)[0], ("sync11", 0), bad_sync=0b11)
    await rx.drain()
    seen = {o[0]: o[1] for o in rx.out if o[0] is not None}
    for i, w in enumerate(words):
        want, _ = decode(encode(w)[0])
        assert seen[("w", i)] == want, f"word {i}: {seen[('w', i)]} != {want}"
    for label in [("bad", i) for i in range(len(invalid))] + [("sync00", 0), ("sync11", 0)]:
        assert seen[label] == [(0xFE, True)] * 8, label
    assert ev.count("rx_dec_err") == len(invalid) + 2
    assert ev.count("rx_ber") == 2
    assert ev.count("rx_lock_loss") == 0

    # a bit dropped on the line: lock lost, slips, lock regained, data right again
    rx.chan.drop_bit()
    for _ in range(600):
        rx.send(rx.idle)
    for i in range(20):
        rx.send(encode(random_word(rng, "D" * 8))[0], ("after", i))
    await rx.drain()
    assert ev.count("rx_lock_loss") == 1
    assert rx.out[-1][2] == 1, "lock not regained"
    after = {o[0]: o[1] for o in rx.out if isinstance(o[0], tuple) and o[0][0] == "after"}
    assert len(after) == 20 and all(not any(c for _, c in w) for w in after.values())

    # header errors: 15 in a row keep the lock, 31 lose it
    for _ in range(15):
        rx.send(rx.idle, bad_sync=0b11)
    for _ in range(100):
        rx.send(rx.idle)
    await rx.drain()
    assert ev.count("rx_lock_loss") == 1
    for _ in range(31):
        rx.send(rx.idle, bad_sync=0b00)
    for _ in range(1200):  # the loss slips a bit: 65 more slips find the boundary again
        rx.send(rx.idle)
    await rx.drain()
    assert ev.count("rx_lock_loss") == 2 and rx.out[-1][2] == 1

    # BER: 31 header errors 70 blocks apart (never 16 in a window of 64): hi_ber, Local
    # Fault words while it lasts, cleared by a window of 19531 blocks without errors
    ber0, hi0 = ev.count("rx_ber"), ev.count("rx_hi_ber")
    start = len(rx.out)
    for _ in range(31):
        rx.send(rx.idle, bad_sync=0b00)
        for _ in range(69):
            rx.send(rx.idle)
    await rx.drain()
    assert ev.count("rx_ber") - ber0 == 31
    assert ev.count("rx_hi_ber") == hi0 + 1 and ev.count("rx_lock_loss") == 2
    high = [i for i in range(start, len(rx.out)) if rx.out[i][3]]
    assert high and all(rx.out[i][1] == LF_WORD for i in high[3:])
    for _ in range(2 * 19531 + 200):
        rx.queue.append((rx.scr.scramble(rx.idle), None))
    await rx.drain()
    assert rx.out[-1][3] == 0 and rx.out[-1][2] == 1, "hi_ber not cleared"
    cleared = max(i for i in range(len(rx.out)) if rx.out[i][3])
    assert cleared - high[0] <= 2 * 19531 + 10
    assert ev.count("rx_hi_ber") == hi0 + 1


def test_pcs_baser() -> None:
    run("pcs_baser", "test_pcs_baser")
