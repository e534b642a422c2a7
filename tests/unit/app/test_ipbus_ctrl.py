"""ipbus_ctrl (IPbus target + interconnect + generated register file + memory) against the
register map (wirecore.regmap) and the IPbus reference model.

The register-bus side of the model is built from the map's data (addresses, access,
reset values, widths, protection, each counter's event and value), independently of the
generated Verilog: every reply is compared byte for byte, the cfg_*/stb_* outputs are
checked against what was written, and the counters against random event strobes (and
values) driven on the ev_* inputs and counted by the test. With the counters in
flip-flops (CNT_RAM = 0) at any rate, in RAM (CNT_RAM = 1) within its rate bound.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ctrl"))

from ipbus_tb import CLIENT_IP, IPbusTB  # noqa: E402
from wirecore import ipbus as ipb  # noqa: E402
from wirecore import regmap as rm  # noqa: E402
from wirecore.ipbus import (  # noqa: E402
    NI_READ,
    READ,
    RMW_BITS,
    WRITE,
    Bus,
    TargetModel,
    Transaction,
    build_request,
)

MEM_AW = 14


class MapBus(Bus):
    """The register bus of ipbus_ctrl as the map describes it."""

    def __init__(self, inputs: dict[str, int]) -> None:
        self.regs = {rm.address(b, r): r for b, r in rm.all_regs()}
        self.val = {a: r.reset for a, r in self.regs.items()}
        self.inputs = inputs
        self.mem: dict[int, int] = {}
        self.strobes: list[tuple[int, int]] = []
        self.ipb: dict[str, int] = {}  # the model's own counters (IPBUS block)
        self.wp_refused = 0
        self.counts: dict[int, int] = {}  # address -> count of the events driven

    def allow_list(self) -> list[int] | None:
        if not self.val[rm.find("IPBUS.ALLOW_EN")] & 1:
            return None
        return [self.val[rm.find(f"IPBUS.ALLOW_IP{i}")] for i in range(4)]

    def read(self, addr: int) -> tuple[str, int]:
        if rm.MEM_BASE <= addr < rm.MEM_BASE + (1 << MEM_AW):
            return "ok", self.mem.get(addr, 0)
        if rm.USER_BASE <= addr < rm.USER_BASE + rm.USER_WORDS:
            return "timeout", 0
        r = self.regs.get(addr)
        if r is None:
            return "err", 0
        if r.kind == rm.CNT:
            assert r.ev is not None
            if r.ev[0] == "ipb":
                return "ok", self.ipb[r.name.lower()]
            if r.ev[0] == "regfile":
                return "ok", self.wp_refused
            return "ok", self.counts.get(addr, 0) & 0xFFFFFFFF
        if r.kind == rm.STS:
            name = f"sts_{r.port_name}"
            return "ok", (self.inputs[name] >> r.lsb) & ((1 << r.width) - 1)
        if r.kind in (rm.STB, rm.LOST):
            return "ok", 0  # (no counter of the test ever misses an event)
        return "ok", self.val[addr]

    def write(self, addr: int, value: int) -> str:
        if rm.MEM_BASE <= addr < rm.MEM_BASE + (1 << MEM_AW):
            self.mem[addr] = value
            return "ok"
        if rm.USER_BASE <= addr < rm.USER_BASE + rm.USER_WORDS:
            return "timeout"
        r = self.regs.get(addr)
        if r is None or r.kind in (rm.CNT, rm.STS, rm.CONST, rm.LOST):
            return "err"
        if r.protect and self.val[rm.find("SYS.WRITE_PROTECT")] & 1:
            self.wp_refused += 1
            return "err"
        v = value & ((1 << r.width) - 1)
        if r.kind == rm.STB:
            self.strobes.append((addr, v))
        else:
            self.val[addr] = v
        return "ok"


def ipbus_counter_addrs() -> set[int]:
    return {rm.address(rm.IPBUS, r) for r in rm.IPBUS.regs if r.kind == rm.CNT}


class Ctrl:
    def __init__(self, dut: object, seed: int = 1) -> None:
        self.dut = dut
        rng = random.Random(seed)
        self.inputs: dict[str, int] = {}
        for name, w in rm.port_widths().items():
            if name.startswith("sts_"):
                self.inputs[name] = rng.getrandbits(w)
                getattr(dut, name).value = self.inputs[name]
        self.ev_ports = {n: w for n, w in rm.ev_ports("target").items()}
        for name in self.ev_ports:
            getattr(dut, name).value = 0
        dut.m_user_reg_ack.value = 0
        dut.m_user_reg_err.value = 0
        dut.m_user_reg_rdata.value = 0
        self.bus = MapBus(self.inputs)
        self.model = TargetModel(self.bus, nbuf=4, conf_base=0)
        self.bus.ipb = self.model.cnt
        self.model.allow = self.bus.allow_list
        self.tb = IPbusTB(dut, None, tick_period=50)
        self.expected: list[bytes] = []
        self.strobes: list[int] = []

    async def start(self) -> None:
        await self.tb.start()
        cocotb.start_soon(self._strobe_monitor())

    async def _strobe_monitor(self) -> None:
        while True:
            await RisingEdge(self.dut.clk)
            v = int(self.dut.stb_pktgen_ctrl.value)
            if v:
                self.strobes.append(v)

    async def send(self, ts: list[Transaction], little_endian: bool = False) -> ipb.Reply:
        pkt = build_request(0, ts, little_endian)
        ref = self.model.handle(pkt, CLIENT_IP)
        assert ref is not None
        n = len(self.tb.replies)
        await self.tb.send(pkt)
        got = await self.tb.wait_replies(n + 1)
        assert got[n].payload == ref, f"\n rtl   {got[n].payload.hex()}\n model {ref.hex()}"
        return ipb.parse_reply(got[n].payload)[3]

    def port(self, name: str) -> int:
        return int(getattr(self.dut, name).value)

    async def drive_events(self, cycles: int, rng: random.Random, p: float, spacing: int) -> None:
        """``cycles`` cycles of random strobes on every ev_* input (each bit with
        probability ``p``, at most once per ``spacing`` cycles) and random values, counted
        into the model from the map's declarations; then the inputs go quiet."""
        d = self.dut
        cnts = [
            (rm.address(b, r), r) for b, r in rm.counters() if r.ev[0] not in ("ipb", "regfile")
        ]
        last: dict[tuple[str, int], int] = {}
        vmax = (1 << rm.VAL_W) - 1 if spacing <= 1 else 20000  # RAM: the value bound too
        for cyc in range(cycles):
            await FallingEdge(d.clk)
            vals = {}
            for name, w in self.ev_ports.items():
                if name.endswith("_len"):
                    v = 0
                    for lsb in range(0, w, rm.VAL_W):
                        v |= rng.randint(0, vmax) << lsb
                else:
                    v = 0
                    for bit in range(w):
                        if rng.random() < p and cyc - last.get((name, bit), -spacing) >= spacing:
                            v |= 1 << bit
                            last[(name, bit)] = cyc
                vals[name] = v
                getattr(d, name).value = v
            for a, r in cnts:
                if vals[f"ev_{r.ev[0]}"] >> r.ev[1] & 1:
                    if r.val is None:
                        inc = 1
                    else:
                        inc = vals[f"ev_{r.val[0]}"] >> r.val[1] & ((1 << rm.VAL_W) - 1)
                    self.bus.counts[a] = self.bus.counts.get(a, 0) + inc
        await FallingEdge(d.clk)
        for name in self.ev_ports:
            getattr(d, name).value = 0
        await ClockCycles(d.clk, 4)


def ram_mode(dut) -> bool:
    return int(dut.CNT_RAM.value) == 1


def reg_addrs(skip_ipbus_counters: bool = True) -> list[int]:
    skip = ipbus_counter_addrs() if skip_ipbus_counters else set()
    return [rm.address(b, r) for b, r in rm.all_regs() if rm.address(b, r) not in skip]


@cocotb.test()
async def map_reset_values_and_inputs(dut):
    """Every register reads as the map says after reset (constants, reset values, inputs)."""
    c = Ctrl(dut)
    await c.start()
    addrs = reg_addrs()
    for i in range(0, len(addrs), 60):
        await c.send([Transaction(READ, a, 1) for a in addrs[i : i + 60]])
    r = await c.send([Transaction(ipb.CONF_READ, 0, 3)])
    assert r[0].data == [0x77697265, 0x00020300, 0xA5A55A5A]


@cocotb.test()
async def cfg_registers_drive_ports(dut):
    """Random writes to every configuration register reach the cfg_* ports and read back."""
    c = Ctrl(dut, seed=2)
    await c.start()
    rng = random.Random(2)
    cfg = [(b, r) for b, r in rm.all_regs() if r.kind == rm.CFG]
    en = rm.find("IPBUS.ALLOW_EN")
    ts = [
        Transaction(WRITE, a, 1, data=[0 if a == en else rng.getrandbits(32)])
        for a in (rm.address(b, r) for b, r in cfg)
    ]
    for i in range(0, len(ts), 40):
        await c.send(ts[i : i + 40])
    await c.send([Transaction(READ, rm.address(b, r), 1) for b, r in cfg])
    for b, r in cfg:
        got = (c.port(f"cfg_{r.port_name}") >> r.lsb) & ((1 << r.width) - 1)
        assert got == c.bus.val[rm.address(b, r)], f"{b.name}.{r.name}"
    # masked field write as uHAL does it (RMW bits) and a strobe
    a = rm.find("NET.ENABLES")
    await c.send([Transaction(RMW_BITS, a, 1, masks=(0xFFFFFFFD, 0x0))])
    assert c.port("cfg_enables") == c.bus.val[a]
    await c.send([Transaction(WRITE, rm.find("PKTGEN.CTRL"), 1, data=[1])])
    await c.send([Transaction(WRITE, rm.find("PKTGEN.CTRL"), 1, data=[2])])
    await ClockCycles(dut.clk, 5)
    assert c.strobes == [1, 2]


@cocotb.test()
async def errors_and_write_protect(dut):
    """Unmapped read -> info 4, read-only write -> info 5, write protection, user timeout."""
    c = Ctrl(dut, seed=3)
    await c.start()
    r = await c.send([Transaction(READ, 0x3F0, 1)])
    assert r[0].info == ipb.BUS_ERR_READ
    r = await c.send([Transaction(READ, 0x5000, 2)])
    assert r[0].info == ipb.BUS_ERR_READ
    r = await c.send([Transaction(WRITE, rm.find("SYS.ID"), 1, data=[0])])
    assert r[0].info == ipb.BUS_ERR_WRITE
    r = await c.send([Transaction(WRITE, rm.find("MAC.RX_BAD_FCS"), 1, data=[0])])
    assert r[0].info == ipb.BUS_ERR_WRITE
    ip, wp, scratch = rm.find("NET.IP"), rm.find("SYS.WRITE_PROTECT"), rm.find("SYS.SCRATCH")
    await c.send([Transaction(WRITE, wp, 1, data=[1])])
    r = await c.send(
        [Transaction(WRITE, scratch, 1, data=[0x1234]), Transaction(WRITE, ip, 1, data=[7])]
    )
    assert [x.info for x in r] == [0, ipb.BUS_ERR_WRITE]
    assert c.port("cfg_ip") == 0xC0000202
    await c.send([Transaction(WRITE, wp, 1, data=[0]), Transaction(WRITE, ip, 1, data=[7])])
    assert c.port("cfg_ip") == 7
    r = await c.send([Transaction(READ, rm.find("SYS.WP_REFUSED"), 1)])
    assert r[0].data == [1]
    r = await c.send([Transaction(READ, rm.USER_BASE + 5, 1)])
    assert r[0].info == ipb.BUS_TIMEOUT_READ


@cocotb.test()
async def memory_blocks(dut):
    """Block write/read of the memory: 255-word transactions, several per packet, NI read."""
    c = Ctrl(dut, seed=4)
    await c.start()
    rng = random.Random(4)
    data = [rng.getrandbits(32) for _ in range(600)]
    base = rm.MEM_BASE + (1 << MEM_AW) - 600
    await c.send([Transaction(WRITE, base, 255, data=data[:255])])
    await c.send([Transaction(WRITE, base + 255, 255, data=data[255:510])])
    await c.send([Transaction(WRITE, base + 510, 90, data=data[510:])], little_endian=True)
    got: list[int] = []
    for off in (0, 255, 510):
        n = min(255, 600 - off)
        got += (await c.send([Transaction(READ, base + off, n)]))[0].data
    assert got == data
    r = await c.send([Transaction(NI_READ, base + 3, 4)])
    assert r[0].data == [data[3]] * 4


@cocotb.test()
async def counters_count_events(dut):
    """Random event strobes and values on every ev_* input: every counter of the map reads
    the count of its own event (the map's source and bit; bytes: the values added), and
    SYS.CNT_LOST stays 0. Flip-flops: strobes at any rate, all at once too; RAM: at most
    one event per counter every ram_gap cycles (3 per scan of the map's counters and a
    few reads, the pending counts' documented limit)."""
    c = Ctrl(dut, seed=6)
    await c.start()
    rng = random.Random(6)
    addrs = [rm.address(b, r) for b, r in rm.counters() if r.ev[0] not in ("ipb", "regfile")]
    ram_gap = (len(rm.counters()) + 10) // 3 + 1
    if ram_mode(dut):
        await c.drive_events(1500, rng, 0.05, ram_gap)
    else:
        await c.drive_events(300, rng, 0.5, 1)
        await c.drive_events(20, rng, 1.0, 1)  # every strobe at once, every cycle
        await c.drive_events(300, rng, 0.02, 1)
    assert sum(c.bus.counts.values()) > 1000
    for i in range(0, len(addrs), 40):
        await c.send([Transaction(READ, a, 1) for a in addrs[i : i + 40]])
    r = await c.send([Transaction(READ, rm.find("SYS.CNT_LOST"), 1)])
    assert r[0].data == [0]
    # a second round on top of the first: the counts go on from there
    await c.drive_events(200, rng, 0.05, ram_gap if ram_mode(dut) else 1)
    for i in range(0, len(addrs), 40):
        await c.send([Transaction(READ, a, 1) for a in addrs[i : i + 40]])


@cocotb.test()
async def ipbus_counters_and_allow_list(dut):
    """IPbus counters in the map count this target's traffic; the allow-list registers work."""
    c = Ctrl(dut, seed=5)
    await c.start()
    rx = rm.find("IPBUS.RX_PACKETS")
    for i in range(3):
        r = await c.send([Transaction(READ, rx, 1)])
        assert r[0].data == [i + 1]  # counted on arrival, before execution
    tx = rm.find("IPBUS.TX_PACKETS")
    r = await c.send([Transaction(READ, tx, 1)])
    assert r[0].data == [3]
    en, ip0, ip1 = rm.find("IPBUS.ALLOW_EN"), rm.find("IPBUS.ALLOW_IP0"), rm.find("IPBUS.ALLOW_IP1")
    await c.send(
        [
            Transaction(WRITE, ip0, 1, data=[0x0A000001]),
            Transaction(WRITE, ip1, 1, data=[0x0A000002]),
            Transaction(WRITE, en, 1, data=[1]),
        ]
    )
    r = await c.send([Transaction(WRITE, rm.find("SYS.SCRATCH"), 1, data=[5])])
    assert r[0].info == ipb.BUS_ERR_WRITE
    wpr = rm.find("IPBUS.WP_REJECTED")
    r = await c.send([Transaction(READ, wpr, 1)])
    assert r[0].data == [1]


@pytest.mark.parametrize("cnt_ram", [0, 1])
def test_ipbus_ctrl(cnt_ram: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "ipbus_ctrl", "test_ipbus_ctrl", parameters={"MEM_AW": MEM_AW, "CNT_RAM": cnt_ram}
    )
