"""The Colorlight i5 board top (boards/colorlight_i5/colorlight_i5.v) through its own pins.

Icarus runs the whole board: the PLL, the power-on reset, the ECP5 DDR I/O and delays
(behavioural models in sim/ecp5/, the vendor adapters boards/ecp5/rgmii_*.v), the RGMII
MAC, the clock crossing of the PHY's receive clock and the full node. cocotbext-eth's
RgmiiSource drives the PHY's side at 1000 Mbit/s on its own 125 MHz receive clock (data
edge-aligned, as a PHY without an internal delay sends it: the board's DELAYG centres
it), and RgmiiSink takes what the board sends on eth_txc (TXC_90 = 1 here: the sink
samples at the clock's rising edge, which must not coincide with a data change).
scapy builds every request and parses every answer: an ARP request answered, an ICMP
echo, a UDP echo, IPbus reads and writes (the wirecore IPbus encoder) through the IPbus
target on its own 62.5 MHz clock (the PLL's CLKOS2, behind ipbus_cdc's crossings),
counters of both clock domains read back, and the address changed over IPbus (NET.IP)
taking effect on ARP.
"""

from __future__ import annotations

from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Timer, with_timeout
from cocotbext.eth import GmiiFrame, RgmiiSink, RgmiiSource
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw
from wirecore import ipbus as ipb
from wirecore import regmap as rm

ROOT = Path(__file__).resolve().parents[3]
BOARD_MAC = "02:00:00:00:00:05"
BOARD_IP = "192.0.2.5"
NEW_IP = "192.0.2.6"
PC_MAC = "02:00:00:00:00:10"
BCAST = "ff:ff:ff:ff:ff:ff"
PC_IP = "192.0.2.10"
PARAMS = {"POR_BITS": 6, "TICK_CYCLES": 1250, "TXC_90": 1}


class TB:
    def __init__(self, dut) -> None:  # noqa: ANN001
        self.dut = dut
        dut.rst_n.value = 1
        self.src = RgmiiSource(dut.eth_rxd, dut.eth_rx_ctl, dut.eth_rxc)
        self.sink: RgmiiSink | None = None
        self.arp_requests = 0  # the board's ARP requests for the PC, answered
        self.garps: list[str] = []  # the addresses the board announced (gratuitous ARP)

    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk25, 40, "ns").start())
        await Timer(3, "ns")
        cocotb.start_soon(Clock(d.eth_rxc, 8, "ns").start(start_high=False))
        # the power-on count (2^6 clk25 cycles), the PLL's lock and the reset crossings
        await Timer(4, "us")
        assert d.eth_rst_n.value == 1, "the PHY is still held in reset"
        await ClockCycles(d.eth_rxc, 100)
        # from here on the transmit pins carry the MAC's idle (no X before its reset)
        self.sink = RgmiiSink(d.eth_txd, d.eth_tx_ctl, d.eth_txc)

    async def exchange(self, pkt: Ether, timeout_us: int = 60) -> Ether:
        """Send ``pkt`` (padded, FCS added by the model) and return the next frame the
        board sends, parsed by scapy after its FCS is checked. On the way, an ARP request
        for the PC's address is answered, as the PC would, and the board's gratuitous ARP
        (announcing its address once it has been stable for a while) is noted."""
        assert self.sink is not None
        await self.src.send(GmiiFrame.from_payload(bytes(pkt)))
        for _ in range(6):
            frame = await with_timeout(self.sink.recv(), timeout_us, "us")
            assert frame.check_fcs(), "bad FCS from the board"
            assert not frame.error, "tx_er from the board"
            ans = Ether(frame.get_payload())
            if ans.haslayer(ARP) and ans[ARP].op == 1 and ans[ARP].psrc == ans[ARP].pdst:
                assert (ans.src, ans.dst, ans[ARP].hwsrc) == (BOARD_MAC, BCAST, BOARD_MAC)
                self.garps.append(ans[ARP].psrc)
                continue
            if not (ans.haslayer(ARP) and ans[ARP].op == 1 and ans[ARP].pdst == PC_IP):
                return ans
            self.arp_requests += 1
            reply = Ether(src=PC_MAC, dst=ans.src) / ARP(
                op=2, hwsrc=PC_MAC, psrc=PC_IP, hwdst=ans[ARP].hwsrc, pdst=ans[ARP].psrc
            )
            await self.src.send(GmiiFrame.from_payload(bytes(reply)))
        raise AssertionError("the board keeps asking for the PC's address")

    async def ipbus(self, pid: int, trans: list[ipb.Transaction]) -> list[ipb.Reply]:
        req = ipb.build_request(pid, trans)
        pkt = (
            Ether(src=PC_MAC, dst=BOARD_MAC)
            / IP(src=PC_IP, dst=BOARD_IP)
            / UDP(sport=40000, dport=50001)
            / Raw(req)
        )
        ans = await self.exchange(pkt)
        assert ans.haslayer(UDP) and ans[UDP].sport == 50001 and ans[UDP].dport == 40000
        rpid, ptype, _, replies = ipb.parse_reply(udp_payload(ans))
        assert (rpid, ptype) == (pid, ipb.PT_CONTROL)
        return replies


def udp_payload(pkt: Ether) -> bytes:
    """The UDP payload by the UDP length (without the frame's padding)."""
    return bytes(pkt[UDP])[8 : pkt[UDP].len]


def assert_checksums(pkt: Ether) -> None:
    """IPv4 and ICMP/UDP checksums as scapy recomputes them."""
    ip = pkt[IP]
    again = Ether(bytes(pkt))
    del again[IP].chksum
    if again.haslayer(UDP):
        del again[UDP].chksum
    if again.haslayer(ICMP):
        del again[ICMP].chksum
    again = Ether(bytes(again))
    assert again[IP].chksum == ip.chksum, "IPv4 header checksum"
    if pkt.haslayer(UDP):
        assert again[UDP].chksum == pkt[UDP].chksum, "UDP checksum"
    if pkt.haslayer(ICMP):
        assert again[ICMP].chksum == pkt[ICMP].chksum, "ICMP checksum"


async def arp_who_has(tb: TB, ip: str) -> Ether:
    return await tb.exchange(
        Ether(src=PC_MAC, dst="ff:ff:ff:ff:ff:ff")
        / ARP(op=1, hwsrc=PC_MAC, psrc=PC_IP, hwdst="00:00:00:00:00:00", pdst=ip)
    )


@cocotb.test()
async def board_answers(dut) -> None:  # noqa: ANN001
    tb = TB(dut)
    await tb.start()

    # ARP: the board's address from its parameters
    ans = await arp_who_has(tb, BOARD_IP)
    assert ans.haslayer(ARP), ans.summary()
    a = ans[ARP]
    assert (a.op, a.hwsrc, a.psrc, a.hwdst, a.pdst) == (2, BOARD_MAC, BOARD_IP, PC_MAC, PC_IP)
    assert (ans.src, ans.dst) == (BOARD_MAC, PC_MAC)

    # ICMP echo
    payload = bytes(range(56))
    ans = await tb.exchange(
        Ether(src=PC_MAC, dst=BOARD_MAC)
        / IP(src=PC_IP, dst=BOARD_IP)
        / ICMP(type=8, id=0x1234, seq=7)
        / Raw(payload)
    )
    assert ans.haslayer(ICMP), ans.summary()
    assert (ans[IP].src, ans[IP].dst) == (BOARD_IP, PC_IP)
    assert (ans[ICMP].type, ans[ICMP].id, ans[ICMP].seq) == (0, 0x1234, 7)
    assert bytes(ans[ICMP].payload) == payload
    assert_checksums(ans)

    # UDP echo on port 7
    payload = b"wirecore on the Colorlight i5 " * 3
    ans = await tb.exchange(
        Ether(src=PC_MAC, dst=BOARD_MAC)
        / IP(src=PC_IP, dst=BOARD_IP)
        / UDP(sport=33333, dport=7)
        / Raw(payload)
    )
    assert ans.haslayer(UDP), ans.summary()
    assert (ans[UDP].sport, ans[UDP].dport) == (7, 33333)
    assert udp_payload(ans) == payload
    assert_checksums(ans)

    # IPbus: the register file (NET.IP from the parameters, the scratch register) and the
    # memory, read back after the writes
    mem = rm.find("MEM")
    replies = await tb.ipbus(
        1,
        [
            ipb.Transaction(ipb.READ, rm.find("NET.IP"), tid=1),
            ipb.Transaction(ipb.WRITE, rm.find("SYS.SCRATCH"), data=[0xC0FFEE01], tid=2),
            ipb.Transaction(ipb.WRITE, mem + 5, words=2, data=[0x01234567, 0x89ABCDEF], tid=3),
        ],
    )
    assert [(r.tid, r.info) for r in replies] == [
        (1, ipb.SUCCESS),
        (2, ipb.SUCCESS),
        (3, ipb.SUCCESS),
    ]
    assert replies[0].data == [0xC0000205], [hex(w) for w in replies[0].data]
    replies = await tb.ipbus(
        2,
        [
            ipb.Transaction(ipb.READ, rm.find("SYS.SCRATCH"), tid=4),
            ipb.Transaction(ipb.READ, mem + 5, words=2, tid=5),
            ipb.Transaction(ipb.READ, rm.find("SYS.ID"), tid=6),
        ],
    )
    assert [r.data for r in replies] == [[0xC0FFEE01], [0x01234567, 0x89ABCDEF], [0x77697265]]

    # counters: the IPbus target's (its events crossed from its clock) and the stack's,
    # for what has happened so far: two replies sent, one ICMP echo answered
    replies = await tb.ipbus(
        3,
        [
            ipb.Transaction(ipb.READ, rm.find("IPBUS.TX_PACKETS"), tid=8),
            ipb.Transaction(ipb.READ, rm.find("STACK.ICMP_ECHO"), tid=9),
        ],
    )
    assert [r.data for r in replies] == [[2], [1]], [r.data for r in replies]

    # the address changed over IPbus: the board answers ARP for the new one only
    replies = await tb.ipbus(
        4, [ipb.Transaction(ipb.WRITE, rm.find("NET.IP"), data=[0xC0000206], tid=7)]
    )
    assert replies[0].info == ipb.SUCCESS
    ans = await arp_who_has(tb, NEW_IP)
    assert ans.haslayer(ARP) and (ans[ARP].op, ans[ARP].psrc) == (2, NEW_IP), ans.summary()
    await tb.src.send(
        GmiiFrame.from_payload(
            bytes(
                Ether(src=PC_MAC, dst="ff:ff:ff:ff:ff:ff")
                / ARP(op=1, hwsrc=PC_MAC, psrc=PC_IP, pdst=BOARD_IP)
            )
        )
    )
    await ClockCycles(dut.eth_rxc, 400)
    assert tb.sink is not None and tb.sink.empty(), (
        "the board still answers ARP for its old address"
    )


def test_colorlight_i5() -> None:
    import cocotb_run

    cocotb_run.run(
        "colorlight_i5",
        "test_colorlight_i5",
        parameters=PARAMS,
        test_dir=Path(__file__).parent,
        top_file=ROOT / "boards" / "colorlight_i5" / "colorlight_i5.v",
        extra_sources=[ROOT / "boards" / "ecp5" / f"rgmii_{m}.v" for m in ("iddr", "oddr")],
    )
