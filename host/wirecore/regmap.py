"""The wirecore register map: the single source for the control plane.

Everything reachable over the register bus is declared here, once. From this data
``python -m wirecore.regmap`` (or ``wirecore reg gen``) writes:

* ``docs/registers.md``: the human-readable map;
* ``host/wirecore/data/wirecore_address_table.xml``: the uHAL address table;
* ``rtl/ctrl/wirecore_regfile.v``: the Verilog register file that exposes every
  configuration register as a ``cfg_*`` output (with its reset value), every write
  strobe as a ``stb_*`` output, takes every status (``sts_*``) as an input, and keeps
  every counter in one ``stat_counters`` fed by the blocks' event vectors (``ev_*``
  inputs, see below);
* ``rtl/app/ipbus_ctrl.v``: the control-plane top (IPbus target, interconnect, register
  file, memory) with the same ``cfg_*``/``stb_*``/``sts_*``/``ev_*`` ports.

Counters: a block emits one strobe per kind of event (its ``cnt_ev`` output, one cycle
per event); a top wires those vectors to the ``ev_<source>`` inputs listed in
``EV_SOURCES`` (value counters also take ``VAL_SOURCES``: a number added with the
strobe, e.g. a frame's length). Each counter register names its source and bit
(``Cnt(..., ev=("mac", 4))``), so adding a counter is one strobe bit in the block and one
line here.

Addresses are 32-bit *word* addresses (IPbus and the register bus count words).

Address windows on the register bus (decoded by ``rtl/ctrl/reg_interconnect.v``
inside ``rtl/app/ipbus_ctrl.v``):

==================  ===================  ===============================
window              word addresses       slave
==================  ===================  ===============================
register file       0x00000 - 0x00FFF    ``wirecore_regfile`` (this map)
memory              0x10000 - 0x13FFF    ``reg_mem`` (64 KiB by default)
user                0x20000 - 0x2FFFF    ``m_user_reg_*`` ports of ``ipbus_ctrl``
==================  ===================  ===============================
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

# Access kinds.
CFG = "cfg"  # read/write configuration, drives output port cfg_<port>
CNT = "cnt"  # read-only 32-bit wrapping counter of an event strobe (stat_counters)
STS = "sts"  # read-only status input sts_<port>
CONST = "const"  # read-only constant (reset value)
STB = "stb"  # write-only: a write pulses output stb_<port> (one cycle, the written bits)
WP = "wp"  # the write-protect register itself (internal to the register file)
LOST = "lost"  # bit 0: stat_counters' lost flag (internal to the register file)

# The register map's version, major.minor.patch: the gateware built from this map reports
# it in SYS.VERSION (8 bits each); `wirecore --version` names it and `wirecore reg status`
# compares it with the board's. Raise it with any change of the map.
MAP_VERSION = (2, 3, 0)
DESIGN_ID = 0x77697265  # SYS.ID: ASCII 'wire'

REGFILE_AW = 12  # the register file decodes 12 address bits (window 0x000-0xFFF)
VAL_W = 16  # width of a value counter's value (stat_counters VW)


def version_word(version: tuple[int, int, int]) -> int:
    """SYS.VERSION's value for ``version`` (major.minor.patch, 8 bits each)."""
    major, minor, patch = version
    assert all(0 <= x <= 0xFF for x in version), version
    return (major << 16) | (minor << 8) | patch


def version_text(word: int) -> str:
    """``major.minor.patch`` of a SYS.VERSION value."""
    return f"{(word >> 16) & 0xFF}.{(word >> 8) & 0xFF}.{word & 0xFF}"


@dataclass(frozen=True)
class Source:
    """An event vector (``ev_<name>``, one strobe per bit) or a value vector of the
    control plane. ``inside`` says where it comes from when it is not an input of
    ``ipbus_ctrl``: "target" (its IPbus target) or "regfile" (the register file)."""

    name: str
    width: int
    desc: str
    inside: str = ""


# udp_stack's cnt_ev layout (its EV_* localparams; a test checks they agree) with the
# virtual board's three UDP ports (0 echo, 1 IPbus, 2 generator)
STACK_PORTS = 3
STACK_EV = {"ETH": 0, "IP": 4, "UDP_RX": 13, "ICMP": 20, "ARP": 26, "TX": 40, "UDP_TX": 43}
STACK_EV_W = STACK_EV["UDP_TX"] + 5 * STACK_PORTS


def udptx_ev(kind: int, port: int) -> int:
    """udp_stack cnt_ev bit of a UDP transmitter's strobe: kind 0 tx_frames, 1 tx_abort,
    2 tx_long, 3 arp_miss, 4 sf_overflow."""
    return STACK_EV["UDP_TX"] + kind * STACK_PORTS + port


EV_SOURCES: tuple[Source, ...] = (
    Source("mac", 10, "eth_mac_gmii cnt_ev (its clocks must be the control plane's clk)"),
    Source("rx_fifo", 1, "the receive frame FIFO: a frame dropped because it was full"),
    Source("stack", STACK_EV_W, f"udp_stack cnt_ev (NUM_PORTS = {STACK_PORTS})"),
    Source("echo", 1, "udp_echo cnt_ev (the echo on UDP port 0)"),
    Source("pktgen", 2, "pktgen cnt_ev"),
    Source("tcp", 30, "tcp_core cnt_ev (zero where no TCP engine is built)"),
    Source("nic_cls", 3 + 8, "nic_classifier cnt_ev (RULES = 8; zero on a board without NIC)"),
    Source("cfar", 7, "cfar_accel cnt_ev (zero on a board without NIC)"),
    Source("nic_reply", 5, "nic_reply cnt_ev (zero on a board without NIC)"),
    Source("nic_arb", 2, "nic_tx_arb cnt_ev (zero on a board without NIC)"),
    Source("ipb", 16, "ipbus_target cnt_ev", inside="target"),
    Source("regfile", 1, "bit 0: a write refused by write protection", inside="regfile"),
)
VAL_SOURCES: tuple[Source, ...] = (
    Source("mac_len", 32, "eth_mac_gmii cnt_ev_len (frame lengths: [15:0] tx, [31:16] rx)"),
    Source("pktgen_len", 16, "pktgen cnt_ev_len (payload bytes of a datagram sent)"),
)


@dataclass(frozen=True)
class Field:
    """A named bit field inside a register (documented and in the uHAL table as a mask)."""

    name: str
    lsb: int
    width: int
    desc: str


@dataclass(frozen=True)
class Reg:
    """One 32-bit register word.

    ``port`` names the Verilog port (without its cfg_/sts_/stb_ prefix); a wide port
    (e.g. the 48-bit MAC address) is split over several registers with ``lsb``. For a
    counter it is only a name (the reference model's key).
    ``protect`` registers refuse writes (bus error) while write protection is on.
    A counter (kind CNT) counts the strobe ``ev`` = (event source, bit); a value counter
    adds ``val`` = (value source, lsb), VAL_W bits, with each strobe; ``burst`` marks
    counters whose events may come faster than 3 per scan of the counters kept in RAM
    (wider pending counts: ``wirecore_regfile`` with CNT_RAM = 1).
    """

    name: str
    offset: int
    kind: str
    desc: str
    width: int = 32
    reset: int = 0
    port: str | None = None
    lsb: int = 0
    protect: bool = False
    fields: tuple[Field, ...] = ()
    ev: tuple[str, int] | None = None
    val: tuple[str, int] | None = None
    burst: bool = False

    @property
    def port_name(self) -> str:
        return self.port if self.port is not None else self.name.lower()


@dataclass(frozen=True)
class Block:
    name: str
    base: int
    desc: str
    regs: tuple[Reg, ...] = ()
    size: int = 0  # for a memory/user window: size in words (no registers)
    mode: str = ""  # "block" for a memory window


def Cnt(
    name: str,
    offset: int,
    desc: str,
    ev: tuple[str, int],
    prefix: str,
    val: tuple[str, int] | None = None,
    burst: bool = False,
) -> Reg:
    """A counter register: 32-bit, wrapping, counting the strobe ``ev``."""
    return Reg(
        name, offset, CNT, desc, port=f"{prefix}_{name.lower()}", ev=ev, val=val, burst=burst
    )


def _counters(
    names: list[tuple[str, str, tuple[str, int]]], prefix: str, start: int = 0
) -> tuple[Reg, ...]:
    return tuple(Cnt(n, start + i, d, e, prefix) for i, (n, d, e) in enumerate(names))


SYS = Block(
    "SYS",
    0x000,
    "Identification, scratch register and write protection.",
    (
        Reg("ID", 0x0, CONST, "Design identifier, ASCII 'wire'.", reset=DESIGN_ID),
        Reg(
            "VERSION",
            0x1,
            CONST,
            "Register-map version (major.minor.patch, 8 bits each).",
            reset=version_word(MAP_VERSION),
        ),
        Reg(
            "MAGIC", 0x2, CONST, "Constant 0xA5A55A5A: byte-order and link check.", reset=0xA5A55A5A
        ),
        Reg("SCRATCH", 0x3, CFG, "Free read/write register for tests.", port="sys_scratch"),
        Reg(
            "WRITE_PROTECT",
            0x4,
            WP,
            "Bit 0 = 1: writes to the registers marked 'protected' fail with a bus error. "
            "This register itself stays writable.",
            width=1,
            fields=(Field("ENABLE", 0, 1, "write protection on"),),
        ),
        Cnt(
            "WP_REFUSED",
            0x5,
            "Writes refused because of write protection.",
            ("regfile", 0),
            "sys",
            burst=True,
        ),
        Reg(
            "CNT_LOST",
            0x6,
            LOST,
            "Bit 0: a counter missed an event (only with the counters in RAM, "
            "wirecore_regfile CNT_RAM = 1, when a counter got more events in one scan than "
            "its pending count holds); cleared by reset.",
            width=1,
        ),
    ),
)

MAC = Block(
    "MAC",
    0x040,
    "Ethernet MAC (rtl/mac/eth_mac_gmii.v): statistics, 32-bit wrapping counters of its "
    "event strobes (ev_mac bit k is the MAC's cnt_ev bit k), and its configuration.",
    (
        Cnt("TX_FRAMES", 0x0, "frames transmitted", ("mac", 0), "mac"),
        Cnt(
            "TX_BYTES",
            0x1,
            "bytes transmitted (FCS included)",
            ("mac", 1),
            "mac",
            val=("mac_len", 0),
        ),  # fmt: skip
        Cnt("TX_UNDERFLOW", 0x2, "frames aborted by a transmit underflow", ("mac", 2), "mac"),
        Cnt("TX_ABORT", 0x3, "frames aborted by the user (tuser)", ("mac", 3), "mac"),
        Cnt("RX_FRAMES", 0x4, "frames received with a good FCS", ("mac", 4), "mac"),
        Cnt(
            "RX_BYTES",
            0x5,
            "bytes of good frames (FCS included)",
            ("mac", 5),
            "mac",
            val=("mac_len", 16),
        ),  # fmt: skip
        Cnt("RX_BAD_FCS", 0x6, "frames with a bad FCS", ("mac", 6), "mac", burst=True),
        Cnt("RX_RUNT", 0x7, "frames shorter than 64 bytes", ("mac", 7), "mac", burst=True),
        Cnt("RX_OVERSIZE", 0x8, "frames longer than MAX_LEN", ("mac", 8), "mac"),
        Cnt("RX_ER", 0x9, "frames with rx_er asserted", ("mac", 9), "mac", burst=True),
        Cnt(
            "RX_DROPPED_FULL",
            0xA,
            "frames dropped because the receive FIFO was full",
            ("rx_fifo", 0),
            "mac",
        ),  # fmt: skip
    )
    + (
        Reg(
            "IFG",
            0x20,
            CFG,
            "Transmit inter-frame gap in bytes (12 = standard).",
            width=8,
            reset=12,
            port="mac_ifg",
            protect=True,
        ),
        Reg(
            "MAX_LEN",
            0x21,
            CFG,
            "Longest frame received as good (bytes, without FCS).",
            width=16,
            reset=1518,
            port="mac_max_len",
            protect=True,
        ),
    ),
)

NET = Block(
    "NET",
    0x080,
    "Network configuration of the stack. All registers here are write-protectable.",
    (
        Reg(
            "MAC_HI",
            0x0,
            CFG,
            "Our MAC address, bits 47:32.",
            width=16,
            reset=0x0200,
            port="mac",
            lsb=32,
            protect=True,
        ),
        Reg(
            "MAC_LO",
            0x1,
            CFG,
            "Our MAC address, bits 31:0.",
            reset=0x00000002,
            port="mac",
            lsb=0,
            protect=True,
        ),
        Reg(
            "IP",
            0x2,
            CFG,
            "Our IPv4 address (192.0.2.2 = 0xC0000202).",
            reset=0xC0000202,
            port="ip",
            protect=True,
        ),
        Reg("NETMASK", 0x3, CFG, "Subnet mask.", reset=0xFFFFFF00, port="netmask", protect=True),
        Reg(
            "GATEWAY", 0x4, CFG, "Default gateway.", reset=0xC0000201, port="gateway", protect=True
        ),
        Reg(
            "RAW_ETHERTYPE",
            0x5,
            CFG,
            "EtherType of the raw-Ethernet channel.",
            width=16,
            reset=0x88B5,
            port="raw_ethertype",
            protect=True,
        ),
        Reg(
            "IPBUS_PORT",
            0x6,
            CFG,
            "UDP port of the IPbus target.",
            width=16,
            reset=50001,
            port="ipbus_port",
            protect=True,
        ),
        Reg(
            "ECHO_PORT",
            0x7,
            CFG,
            "UDP port of the echo application.",
            width=16,
            reset=7,
            port="echo_port",
            protect=True,
        ),
        Reg(
            "PKTGEN_PORT",
            0x8,
            CFG,
            "UDP source port of the packet generator.",
            width=16,
            reset=50002,
            port="pktgen_src_port",
            protect=True,
        ),
        Reg(
            "ENABLES",
            0x9,
            CFG,
            "Run-time enables of the stack's blocks (udp_stack cfg_arp_answer, "
            "cfg_icmp_answer, cfg_udp_csum_check, cfg_raw_en); what a cleared bit refuses is "
            "dropped and counted.",
            width=4,
            reset=0xF,
            port="enables",
            protect=True,
            fields=(
                Field(
                    "ARP",
                    0,
                    1,
                    "answer ARP requests for our address (0: not answered, counted in "
                    "ARP.REQ_REFUSED)",
                ),
                Field(
                    "ICMP",
                    1,
                    1,
                    "answer ICMP echo requests (0: every ICMP message dropped, counted in "
                    "STACK.ICMP_DROPPED)",
                ),
                Field(
                    "UDP_CSUM_CHECK",
                    2,
                    1,
                    "check received UDP checksums (0: every checksum taken as right; 1: a "
                    "bad one is counted in STACK.UDP_BAD_CSUM and flagged)",
                ),
                Field(
                    "RAW",
                    3,
                    1,
                    "receive raw-EtherType frames (0: dropped, counted in STACK.ETH_BAD_ETHERTYPE)",
                ),
            ),
        ),
        Reg(
            "TTL",
            0xA,
            CFG,
            "IPv4 time-to-live of transmitted packets.",
            width=8,
            reset=64,
            port="ttl",
            protect=True,
        ),
        Reg(
            "DF",
            0xB,
            CFG,
            "Bit 0: set IPv4 don't-fragment on transmitted packets.",
            width=1,
            reset=1,
            port="df",
            protect=True,
        ),
        Reg(
            "UNREACH_PER_MS",
            0xC,
            CFG,
            "ICMP port-unreachable messages sent at most per millisecond for UDP datagrams "
            "to closed ports (0 = none).",
            width=8,
            reset=10,
            port="unreach_per_ms",
            protect=True,
        ),
    ),
)

E = STACK_EV
_UDPTX_KINDS = (
    ("TX_FRAMES", "UDP datagrams sent"),
    ("TX_ABORT", "UDP datagrams aborted by the application"),
    ("TX_LONG", "UDP datagrams whose payload was longer than hdr_len (cut at hdr_len)"),
    ("ARP_MISS", "UDP datagrams dropped: next hop not resolved"),
    ("SF_OVERFLOW", "UDP datagrams longer than the checksum buffer (sent flagged bad)"),
)
STACK = Block(
    "STACK",
    0x0C0,
    "Drop and traffic counters of the UDP/IP stack (docs/stack.md), each counting a bit "
    "of udp_stack's cnt_ev (ev_stack; the block's strobe in parentheses: eth = eth_rx, "
    "ip = ip_rx, udp = udp_rx, icmp = icmp_echo and icmp_unreach, udptx<p> = the UDP "
    "transmitter of port p: 0 the echo, 1 IPbus, 2 the generator, whose ARP misses are "
    "PKTGEN.ARP_MISS), and the echo application's.",
    _counters(
        [
            ("ETH_FRAMES", "frames taken by eth_rx", ("stack", E["ETH"] + 0)),
            ("ETH_BAD_MAC", "frames not for our MAC nor broadcast", ("stack", E["ETH"] + 1)),
            (
                "ETH_BAD_ETHERTYPE",
                "frames with an EtherType nobody takes (NET.ENABLES.RAW)",
                ("stack", E["ETH"] + 2),
            ),  # fmt: skip
            ("ETH_RUNT", "frames too short for an Ethernet header", ("stack", E["ETH"] + 3)),
            ("IP_PACKETS", "IPv4 packets delivered", ("stack", E["IP"] + 0)),
            ("IP_RUNT", "IPv4 packets shorter than a header", ("stack", E["IP"] + 1)),
            ("IP_BAD_HDR", "IPv4 headers with a bad version or IHL", ("stack", E["IP"] + 2)),
            ("IP_BAD_CSUM", "IPv4 headers with a bad checksum", ("stack", E["IP"] + 3)),
            (
                "IP_BAD_LEN",
                "IPv4 total length inconsistent with the frame",
                ("stack", E["IP"] + 4),
            ),  # fmt: skip
            (
                "IP_NOT_FOR_US",
                "IPv4 packets not for our address nor broadcast",
                ("stack", E["IP"] + 5),
            ),  # fmt: skip
            ("IP_FRAGMENT", "IPv4 fragments (dropped)", ("stack", E["IP"] + 6)),
            ("IP_BAD_PROTO", "IPv4 packets with a protocol nobody takes", ("stack", E["IP"] + 7)),
            ("IP_TRUNCATED", "IPv4 packets cut short or flagged bad", ("stack", E["IP"] + 8)),
            ("ICMP_ECHO", "ICMP echo requests answered", ("stack", E["ICMP"] + 0)),
            ("UDP_DATAGRAMS", "UDP datagrams delivered to a port", ("stack", E["UDP_RX"] + 0)),
            (
                "UDP_BAD_LEN",
                "UDP length inconsistent with the IP length",
                ("stack", E["UDP_RX"] + 1),
            ),  # fmt: skip
            (
                "UDP_CLOSED_PORT",
                "UDP datagrams to a port nobody listens on",
                ("stack", E["UDP_RX"] + 2),
            ),  # fmt: skip
            (
                "UDP_BAD_CSUM",
                "UDP datagrams with a bad checksum (NET.ENABLES.UDP_CSUM_CHECK)",
                ("stack", E["UDP_RX"] + 3),
            ),  # fmt: skip
            (
                "UDP_ERR_IN",
                "UDP datagrams flagged bad by the layers below",
                ("stack", E["UDP_RX"] + 4),
            ),  # fmt: skip
            ("UDP_OVERSIZE", "UDP datagrams too long for the port", ("stack", E["UDP_RX"] + 5)),
        ]
        + [
            (f"UDPTX0_{n}", f"{d}, port 0", ("stack", udptx_ev(k, 0)))
            for k, (n, d) in enumerate(_UDPTX_KINDS[:4])
        ]
        + [
            (
                "ICMP_BAD_CSUM",
                "ICMP echo requests discarded: bad ICMP checksum",
                ("stack", E["ICMP"] + 3),
            ),  # fmt: skip
            (
                "ICMP_UNREACH_SENT",
                "ICMP port-unreachable messages sent",
                ("stack", E["ICMP"] + 4),
            ),  # fmt: skip
            (
                "ICMP_UNREACH_DROPPED",
                "closed-port datagrams not answered (broadcast, rate limit, or busy)",
                ("stack", E["ICMP"] + 5),
            ),  # fmt: skip
            (
                "UDP_BUSY_DROP",
                "UDP datagrams dropped: their application did not take them",
                ("stack", E["UDP_RX"] + 6),
            ),  # fmt: skip
            (
                "ICMP_ABORTED",
                "ICMP echo replies aborted: the request arrived flagged bad",
                ("stack", E["ICMP"] + 1),
            ),  # fmt: skip
            (
                "ICMP_DROPPED",
                "ICMP messages not answered: not an echo request, broadcast, "
                "too short, or answers off (NET.ENABLES.ICMP)",
                ("stack", E["ICMP"] + 2),
            ),
            ("TX_FRAMES", "frames sent by the stack (all sources)", ("stack", E["TX"] + 0)),
            ("RAW_TX_FRAMES", "raw-EtherType frames sent", ("stack", E["TX"] + 1)),
            (
                "RAW_TX_ABORT",
                "raw-EtherType frames aborted by the application",
                ("stack", E["TX"] + 2),
            ),  # fmt: skip
            (
                "ECHO_DATAGRAMS",
                "datagrams turned around by the echo application (port 0)",
                ("echo", 0),
            ),  # fmt: skip
            ("UDPTX0_SF_OVERFLOW", f"{_UDPTX_KINDS[4][1]}, port 0", ("stack", udptx_ev(4, 0))),
        ]
        + [
            (f"UDPTX{p}_{n}", f"{d}, port {p}", ("stack", udptx_ev(k, p)))
            for p in (1, 2)
            for k, (n, d) in enumerate(_UDPTX_KINDS)
            if (p, k) != (2, 3)  # port 2's ARP misses: PKTGEN.ARP_MISS
        ],
        "stack",
    ),
)

ARP_COUNTERS = [
    ("REQ_RX", "ARP requests for our address received (and answered)"),
    ("REPLY_TX", "ARP replies sent"),
    ("REQ_TX", "ARP requests sent"),
    ("GARP_TX", "gratuitous ARP announcements sent"),
    ("REPLY_RX", "ARP replies received"),
    ("MALFORMED", "malformed ARP frames dropped"),
    ("RX_OVERRUN", "ARP frames dropped while busy"),
    ("HIT", "lookups answered from the cache"),
    ("MISS", "lookups not in the cache"),
    ("TIMEOUT", "requests that got no reply"),
    ("EXPIRED", "cache entries expired"),
    ("EVICTED", "cache entries evicted"),
    ("CONFLICT", "another host claimed our address"),
    ("REQ_REFUSED", "ARP requests for our address not answered: answers off (NET.ENABLES.ARP)"),
]
# one per cache entry in a background pass: many in one scan of the counters kept in RAM
_ARP_BURST = {"TIMEOUT", "EXPIRED", "EVICTED"}
ARP = Block(
    "ARP",
    0x100,
    "ARP responder, requester and cache (rtl/arp/arp.v): counters of its event strobes "
    "(arp's cnt_ev bit k is udp_stack's cnt_ev bit EV_ARP + k).",
    tuple(
        Cnt(n, k, d, ("stack", E["ARP"] + k), "arp", burst=n in _ARP_BURST)
        for k, (n, d) in enumerate(ARP_COUNTERS)
    ),
)

IPBUS_COUNTERS = [
    ("RX_PACKETS", "datagrams received on the IPbus port"),
    ("RX_BAD", "datagrams dropped: flagged bad (tuser) or length not as announced"),
    ("RX_OVERSIZE", "datagrams dropped: longer than the MTU (1472 bytes of payload)"),
    ("RX_MALFORMED", "datagrams dropped: not a whole number of words, or bad packet header"),
    ("CONTROL", "control packets executed"),
    ("STATUS", "status requests answered"),
    ("RESEND", "resend requests answered"),
    ("ID_DROPPED", "control packets dropped: packet ID not the next expected"),
    ("RESEND_MISS", "resend requests for a reply no longer stored (dropped)"),
    ("TRANSACTIONS", "transactions executed (any info code)"),
    ("BAD_HEADER", "transactions answered 'bad header' (info code 1)"),
    ("BUS_ERRORS", "transactions answered with a bus error (info code 4 or 5)"),
    ("BUS_TIMEOUTS", "transactions answered with a bus timeout (info code 6 or 7)"),
    ("WP_REJECTED", "write transactions refused: source IP not in the allow-list"),
    ("REPLY_OVERFLOW", "packets cut short: the reply would exceed the MTU"),
    ("TX_PACKETS", "reply datagrams sent"),
]
# one per transaction: many in one scan of the counters kept in RAM
_IPBUS_BURST = {"TRANSACTIONS", "BAD_HEADER", "BUS_ERRORS", "BUS_TIMEOUTS", "WP_REJECTED"}

IPBUS = Block(
    "IPBUS",
    0x140,
    "IPbus target: counters of its event strobes (ev_ipb bit k, ipbus_target's cnt_ev bit "
    "k) and the source-IP allow-list for writes.",
    tuple(
        Cnt(n, k, d, ("ipb", k), "ipb", burst=n in _IPBUS_BURST)
        for k, (n, d) in enumerate(IPBUS_COUNTERS)
    )
    + (
        Reg(
            "ALLOW_EN",
            0x20,
            CFG,
            "Bit 0 = 1: write, non-incrementing write and read-modify-write transactions "
            "are executed only for source IPs in ALLOW_IP0-3; others are answered with a "
            "bus error (info code 5) and counted in WP_REJECTED. Enabling it with no "
            "entry matching your own address locks writes out until reset.",
            width=1,
            port="ipb_allow_en",
            protect=True,
        ),
    )
    + tuple(
        Reg(
            f"ALLOW_IP{i}",
            0x21 + i,
            CFG,
            f"Allow-list entry {i} (IPv4 address).",
            port="ipb_allow_ip",
            lsb=32 * i,
            protect=True,
        )
        for i in range(4)
    ),
)

PKTGEN_NDEST = 16
PKTGEN = Block(
    "PKTGEN",
    0x200,
    "Packet generator (rtl/app/pktgen): configuration, control and counters.",
    (
        Reg(
            "CTRL",
            0x00,
            STB,
            "Write 1 to bit 0 to start, to bit 1 to stop.",
            width=2,
            port="pktgen_ctrl",
            fields=(Field("START", 0, 1, "start"), Field("STOP", 1, 1, "stop")),
        ),
        Reg("STATUS", 0x01, STS, "Bit 0: running.", width=1, port="pktgen_running"),
        Reg(
            "LENGTH",
            0x02,
            CFG,
            "UDP payload bytes per packet.",
            width=16,
            reset=1024,
            port="pktgen_length",
            protect=True,
        ),
        Reg(
            "COUNT",
            0x03,
            CFG,
            "Packets to send (0 = until stopped).",
            reset=0,
            port="pktgen_count",
            protect=True,
        ),
        Reg(
            "GAP",
            0x04,
            CFG,
            "Inter-packet gap in clock cycles.",
            reset=0,
            port="pktgen_gap",
            protect=True,
        ),
        Reg(
            "NUM_DEST",
            0x05,
            CFG,
            "Destinations used in turn (1-16).",
            width=5,
            reset=1,
            port="pktgen_num_dest",
            protect=True,
        ),
        Reg(
            "PAYLOAD",
            0x06,
            CFG,
            "Payload mode.",
            width=9,
            reset=0,
            port="pktgen_payload",
            protect=True,
            fields=(
                Field("MODE", 0, 1, "0 = constant byte, 1 = LFSR"),
                Field("BYTE", 1, 8, "the constant byte"),
            ),
        ),
        Reg(
            "TS_EXT",
            0x07,
            CFG,
            "Bit 0: timestamp from the ts_in input, not the cycle counter.",
            width=1,
            port="pktgen_ts_ext",
            protect=True,
        ),
        Cnt(
            "SENT_PACKETS",
            0x08,
            "Packets sent (wrapping: a run's is the difference).",
            ("pktgen", 0),
            "pktgen",
        ),  # fmt: skip
        Cnt(
            "SENT_BYTES",
            0x09,
            "Payload bytes sent.",
            ("pktgen", 1),
            "pktgen",
            val=("pktgen_len", 0),
        ),  # fmt: skip
        Cnt(
            "ARP_MISS",
            0x0A,
            "Packets not sent: destination unresolved (udp_stack port 2).",
            ("stack", udptx_ev(3, 2)),
            "pktgen",
        ),  # fmt: skip
        Reg(
            "WARMUP_MS",
            0x0B,
            CFG,
            "Milliseconds between the ARP primers and the first packet (0 = no primers).",
            width=16,
            port="pktgen_warmup_ms",
            protect=True,
        ),
        Reg(
            "ROUND_LO",
            0x0C,
            STS,
            "Passes completed through the destination table, bits 31:0.",
            port="pktgen_round",
            lsb=0,
        ),
        Reg("ROUND_HI", 0x0D, STS, "Passes completed, bits 63:32.", port="pktgen_round", lsb=32),
    )
    + tuple(
        r
        for i in range(PKTGEN_NDEST)
        for r in (
            Reg(
                f"DEST_IP{i}",
                0x20 + 2 * i,
                CFG,
                f"Destination {i}: IPv4 address.",
                port="pktgen_dest_ip",
                lsb=32 * i,
                protect=True,
            ),
            Reg(
                f"DEST_PORT{i}",
                0x21 + 2 * i,
                CFG,
                f"Destination {i}: UDP port.",
                width=16,
                port="pktgen_dest_port",
                lsb=16 * i,
                protect=True,
            ),
        )
    ),
)

TCP_COUNTERS = [
    ("RX_SEGMENTS", "segments handed to the session logic (length and checksum good)"),
    ("RX_BAD_LEN", "segments dropped: shorter than 20 bytes or data offset out of range"),
    ("RX_BAD_CSUM", "segments dropped: TCP checksum wrong"),
    ("RX_ERR_IN", "segments dropped: cut short or flagged bad on the way in"),
    ("RX_BROADCAST", "segments dropped: sent to a broadcast address"),
    ("SEG_SESSION", "segments that found their session"),
    ("RST_NO_SESSION", "RSTs sent for segments without a session (closed ports included)"),
    ("SYN_FULL", "SYNs dropped: no free slot, or the half-open limit reached"),
    ("UNACCEPTABLE", "segments outside the receive window (answered with an ACK)"),
    ("OUT_OF_ORDER", "data segments ahead of the next expected byte (duplicate ACK sent)"),
    ("RST_RCVD", "RSTs received that reset a session"),
    ("CHALLENGE_ACK", "challenge ACKs sent (RFC 5961: an in-window RST or a SYN)"),
    ("RTO", "retransmission time-outs"),
    ("ABORTED", "sessions aborted after the last time-out"),
    ("ACK_UNSENT", "segments acknowledging data never sent (answered with an ACK)"),
    ("SEG_SENT", "segments sent for a session (the RSTs of RST_NO_SESSION apart)"),
    ("DATA_SEG_SENT", "segments sent with data"),
    ("REXMIT_SEG", "segments retransmitted"),
    ("ESTABLISHED", "sessions established"),
    ("CLOSED", "sessions closed (slot freed)"),
    ("CUT_TO_WINDOW", "data segments cut to the free space of the receive buffer"),
    ("DUP_ACK_RCVD", "duplicate ACKs received"),
    ("TX_FRAMES", "frames the TCP engine handed to the transmitter (all it sent)"),
    ("APP_TX_DROPPED", "bytes the application wrote for a session not open (dropped)"),
    ("PERSIST_PROBES", "zero-window probes sent (persist timer, RFC 9293 3.8.6.1)"),
    ("CWND_CUTS", "congestion-window reductions (fast retransmit, or a first time-out)"),
    ("DELAYED_ACKS", "ACKs sent by the delayed-ACK timer"),
    ("KEEPALIVES", "keep-alive probes sent"),
    ("OOO_KEPT", "out-of-order segments kept in the receive buffer"),
    ("OOO_DROPPED", "out-of-order segments dropped: the session's range table was full"),
]
TCP_CFG = [  # name, width, reset, description
    ("LISTEN_PORT", 16, 7, "Listening port (0: none): a SYN to it opens a session."),
    ("MSS", 16, 1460, "Our MSS option, and a limit on our segments beside the peer's MSS."),
    ("RTO_INIT", 16, 1000, "Retransmission time-out before the first RTT sample (ms)."),
    ("RTO_MIN", 16, 200, "Lower bound of the retransmission time-out (ms)."),
    ("RTO_MAX", 16, 8000, "Upper bound of the retransmission time-out (ms)."),
    ("MAX_RETRIES", 4, 10, "Time-outs in a row before a session is aborted with an RST."),
    ("TIME_WAIT", 16, 100, "TIME_WAIT duration (ms)."),
    (
        "CC_OFF",
        1,
        0,
        "1: no congestion control (a dedicated point-to-point link): the "
        "sender is limited by the peer's window alone. 0: RFC 5681 slow start and congestion "
        "avoidance, RFC 6582 NewReno recovery.",
    ),
    (
        "DACK_TIME",
        10,
        0,
        "Delayed-ACK time (ms, at most 500): 0 acknowledges every "
        "segment at once; else an ACK waits up to this long for data to ride on, and every "
        "second segment is acknowledged at once.",
    ),
    ("KA_IDLE", 16, 0, "Keep-alive: idle time before the first probe (s); 0 = off."),
    ("KA_INTVL", 16, 75, "Keep-alive: time between unanswered probes (s)."),
    ("KA_COUNT", 4, 9, "Keep-alive: unanswered probes before the session is aborted."),
]
TCP = Block(
    "TCP",
    0x280,
    "Hardware TCP engine (rtl/tcp/tcp_core.v): counters of its event strobes (ev_tcp bit "
    "k is tcp_core's cnt_ev bit k; zero on a board without TCP) and its configuration.",
    tuple(Cnt(n, k, d, ("tcp", k), "tcp") for k, (n, d) in enumerate(TCP_COUNTERS))
    + tuple(
        Reg(n, 0x20 + i, CFG, d, width=w, reset=r, port=f"tcp_{n.lower()}", protect=True)
        for i, (n, w, r, d) in enumerate(TCP_CFG)
    ),
)

# The smart network interface of wirecore_node with NIC = 1 (docs/nic.md "On the board"):
# its classifier's rules, counted per rule, and the accelerator's, reply builder's and
# transmit arbiter's configuration and counters
NIC_RULES = 8  # wirecore_node's classifier: RULES
NIC_K = 44  # bytes matched: Ethernet, IPv4 and UDP headers and the sample frame's tag
NIC_COUNTERS = (
    [
        ("CLS_DEFAULT", "frames given the default action (no rule matched)", ("nic_cls", 0)),
        ("CLS_DROP", "frames dropped by the classifier (no destination)", ("nic_cls", 1)),
        ("CLS_BAD", "bad frames through the classifier (tuser)", ("nic_cls", 2)),
    ]
    + [(f"CLS_HIT{r}", f"frames that hit rule {r}", ("nic_cls", 3 + r)) for r in range(NIC_RULES)]
    + [
        ("CFAR_BLOCKS", "CFAR blocks accepted (their second frame taken)", ("cfar", 0)),
        ("CFAR_RESULTS", "CFAR results sent", ("cfar", 1)),
        ("CFAR_BAD", "CFAR frames dropped: bad (tuser)", ("cfar", 2)),
        ("CFAR_LENGTH", "CFAR frames dropped: not SKIP + 1032 bytes long", ("cfar", 3)),
        ("CFAR_ORDER", "CFAR frames dropped: second frame without its first", ("cfar", 4)),
        ("CFAR_LOST", "CFAR first frames dropped: replaced before their second came", ("cfar", 5)),
        ("CFAR_BUSY", "CFAR frames dropped: both sample buffers held", ("cfar", 6)),
        ("REPLY_SENT", "result datagrams sent by nic_reply", ("nic_reply", 0)),
        ("REPLY_BAD", "results dropped: bad (tuser)", ("nic_reply", 1)),
        (
            "REPLY_NO_REQ",
            "results dropped: no request, or not a good UDP/IPv4 one",
            ("nic_reply", 2),
        ),
        (
            "REPLY_TOO_LONG",
            "results dropped: longer than the reply's payload limit",
            ("nic_reply", 3),
        ),
        ("REPLY_REQ_LOST", "requests lost: nic_reply's address queue was full", ("nic_reply", 4)),
        ("ARB_HOST_FRAMES", "frames of the stack through the transmit arbiter", ("nic_arb", 0)),
        ("ARB_ACCEL_FRAMES", "result frames through the transmit arbiter", ("nic_arb", 1)),
    ]
)
NIC_CFG = [  # name, width, reset, port, description
    ("CFAR_GUARD", 4, 2, "cfar_guard", "CFAR guard cells on each side of the cell under test."),
    ("CFAR_TRAIN", 7, 16, "cfar_train", "CFAR training cells on each side (0: threshold 0)."),
    (
        "CFAR_ALPHA",
        16,
        1536,
        "cfar_alpha",
        "CFAR threshold factor / (2 x CFAR_TRAIN), 12 fraction bits "
        "(wirecore.cfar.alpha_word(factor, train); 1536 = 12 with 16 training cells a side).",
    ),
    (
        "ARB_STRICT",
        1,
        0,
        "arb_strict",
        "Transmit arbiter: 1 strict priority (the stack first), 0 weighted round robin.",
    ),
    (
        "ARB_WEIGHT0",
        16,
        0,
        "arb_weight",
        "Transmit arbiter: the stack's frames per turn minus one.",
    ),
    ("ARB_WEIGHT1", 16, 0, "arb_weight", "Transmit arbiter: the result frames per turn minus one."),
]
NIC = Block(
    "NIC",
    0x300,
    "Smart network interface (wirecore_node NIC = 1, docs/nic.md): counters of the "
    "classifier (nic_classifier), the CFAR accelerator (cfar_accel), the reply builder "
    "(nic_reply) and the transmit arbiter (nic_tx_arb), and their configuration. The rules "
    "are in the window NIC_RULES. On a board without NIC the counters stay 0 and the "
    "configuration is unused.",
    tuple(Cnt(n, k, d, e, "nic") for k, (n, d, e) in enumerate(NIC_COUNTERS))
    + tuple(
        Reg(
            n,
            0x20 + i,
            CFG,
            d,
            width=w,
            reset=r,
            port=p,
            lsb=16 if n == "ARB_WEIGHT1" else 0,
        )
        for i, (n, w, r, p, d) in enumerate(NIC_CFG)
    ),
)

MEM_BASE = 0x10000
MEM_WORDS = 16384
USER_BASE = 0x20000
USER_WORDS = 0x10000

MEM = Block(
    "MEM",
    MEM_BASE,
    "64 KiB memory for block transfers (rtl/ctrl/reg_mem.v).",
    size=MEM_WORDS,
    mode="block",
)
NIC_RULES_WORDS = 0x100
NIC_RULES_BLOCK = Block(
    "NIC_RULES",
    USER_BASE,
    "The classifier's rule window (nic_classifier's register map, docs/nic.md) at the "
    "start of ipbus_ctrl's user window on a board built with NIC = 1; without NIC, "
    "accesses time out like the rest of the user window.",
    size=NIC_RULES_WORDS,
    mode="block",
)
USER = Block(
    "USER",
    USER_BASE + NIC_RULES_WORDS,
    "User window: the rest of the m_user_reg_* ports of ipbus_ctrl (with NIC = 1 its "
    "accesses answer a bus error).",
    size=USER_WORDS - NIC_RULES_WORDS,
    mode="block",
)

REG_BLOCKS: tuple[Block, ...] = (SYS, MAC, NET, STACK, ARP, IPBUS, PKTGEN, TCP, NIC)
BLOCKS: tuple[Block, ...] = (*REG_BLOCKS, MEM, NIC_RULES_BLOCK, USER)

PREFIX = {CFG: "cfg", STS: "sts", STB: "stb"}  # the kinds that have a port


def all_regs() -> list[tuple[Block, Reg]]:
    return [(b, r) for b in REG_BLOCKS for r in b.regs]


def address(block: Block, reg: Reg) -> int:
    return block.base + reg.offset


def find(path: str) -> int:
    """Word address of 'BLOCK.REG' (case-insensitive) or of a window ('MEM', 'USER')."""
    key = path.upper()
    for b in BLOCKS:
        if key == b.name:
            return b.base
        for r in b.regs:
            if key == f"{b.name}.{r.name}":
                return address(b, r)
    raise KeyError(f"no register named {path!r}")


def counters() -> list[tuple[Block, Reg]]:
    """The counter registers, in map order: counter i is stat_counters' counter i."""
    return [(b, r) for b, r in all_regs() if r.kind == CNT]


def source(name: str, values: bool = False) -> Source:
    for src in VAL_SOURCES if values else EV_SOURCES:
        if src.name == name:
            return src
    raise KeyError(f"no {'value' if values else 'event'} source {name!r}")


def validate() -> None:
    """Raise ValueError if the map overlaps, exceeds its window or has bad widths, or a
    counter names an event (value) that no source has."""
    seen: dict[int, str] = {}
    ports: dict[str, list[tuple[int, int]]] = {}
    for b, r in all_regs():
        a = address(b, r)
        if a in seen:
            raise ValueError(f"{b.name}.{r.name} overlaps {seen[a]} at 0x{a:x}")
        if a >= 1 << REGFILE_AW:
            raise ValueError(f"{b.name}.{r.name} outside the register-file window")
        if not 1 <= r.width <= 32 or r.reset >> r.width:
            raise ValueError(f"{b.name}.{r.name}: bad width or reset value")
        for f in r.fields:
            if f.lsb + f.width > r.width:
                raise ValueError(f"{b.name}.{r.name}.{f.name} outside the register")
        seen[a] = f"{b.name}.{r.name}"
        if (r.kind == CNT) != (r.ev is not None) or (r.val is not None and r.kind != CNT):
            raise ValueError(f"{b.name}.{r.name}: a counter has an event, nothing else has")
        if r.ev is not None:
            try:
                ok = 0 <= r.ev[1] < source(r.ev[0]).width
                if r.val is not None:
                    ok = ok and 0 <= r.val[1] <= source(r.val[0], True).width - VAL_W
            except KeyError:
                ok = False
            if not ok:
                raise ValueError(f"{b.name}.{r.name}: no such event {r.ev} or value {r.val}")
        if r.kind in PREFIX:
            ports.setdefault(f"{PREFIX[r.kind]}_{r.port_name}", []).append((r.lsb, r.width))
    for name, parts in ports.items():
        bits: set[int] = set()
        for lsb, w in parts:
            span = set(range(lsb, lsb + w))
            if bits & span:
                raise ValueError(f"port {name}: registers overlap")
            bits |= span


def port_widths() -> dict[str, int]:
    """Verilog port name -> width, in map order."""
    out: dict[str, int] = {}
    for _, r in all_regs():
        if r.kind in PREFIX:
            name = f"{PREFIX[r.kind]}_{r.port_name}"
            out[name] = max(out.get(name, 0), r.lsb + r.width)
    return out


def port_reset(name: str) -> int:
    value = 0
    for _, r in all_regs():
        if r.kind == CFG and f"cfg_{r.port_name}" == name:
            value |= r.reset << r.lsb
    return value


class MapModel:
    """Behaviour of the register bus of ``ipbus_ctrl`` as this map describes it (for the
    IPbus reference model and a simulated target): register file, memory, and a user
    window that never answers. Status reads as 0 unless set in ``inputs`` (``sts_<port>``),
    a counter as 0 unless set there (``cnt_<name>``, Reg.port_name); SYS.WP_REFUSED counts
    the writes refused here."""

    def __init__(self, mem_words: int = MEM_WORDS) -> None:
        self.regs = {address(b, r): r for b, r in all_regs()}
        self.val = {a: r.reset for a, r in self.regs.items()}
        self.inputs: dict[str, int] = {}
        self.mem: dict[int, int] = {}
        self.mem_words = mem_words

    def read(self, addr: int) -> tuple[str, int]:
        if MEM_BASE <= addr < MEM_BASE + self.mem_words:
            return "ok", self.mem.get(addr, 0)
        if USER_BASE <= addr < USER_BASE + USER_WORDS:
            return "timeout", 0
        r = self.regs.get(addr)
        if r is None:
            return "err", 0
        if r.kind in (CNT, STS):
            v = self.inputs.get(f"{r.kind}_{r.port_name}", 0)
            return "ok", (v >> r.lsb) & ((1 << r.width) - 1)
        if r.kind == STB:
            return "ok", 0
        return "ok", self.val[addr]

    def write(self, addr: int, value: int) -> str:
        if MEM_BASE <= addr < MEM_BASE + self.mem_words:
            self.mem[addr] = value & 0xFFFFFFFF
            return "ok"
        if USER_BASE <= addr < USER_BASE + USER_WORDS:
            return "timeout"
        r = self.regs.get(addr)
        if r is None or r.kind in (CNT, STS, CONST, LOST):
            return "err"
        if r.protect and self.val[find("SYS.WRITE_PROTECT")] & 1:
            k = "cnt_sys_wp_refused"
            self.inputs[k] = (self.inputs.get(k, 0) + 1) & 0xFFFFFFFF
            return "err"
        if r.kind != STB:
            self.val[addr] = value & ((1 << r.width) - 1)
        return "ok"

    def allow_list(self) -> list[int] | None:
        if not self.val[find("IPBUS.ALLOW_EN")] & 1:
            return None
        return [self.val[find(f"IPBUS.ALLOW_IP{i}")] for i in range(4)]


# ---------------------------------------------------------------------------------------
# generators


def _perm(r: Reg) -> str:
    return {CFG: "rw", WP: "rw", STB: "w"}.get(r.kind, "r")


def gen_xml() -> str:
    lines = [
        '<?xml version="1.0" encoding="ISO-8859-1"?>',
        "<!-- Generated by python -m wirecore.regmap from host/wirecore/regmap.py: "
        "do not edit. -->",
        '<node id="TOP">',
    ]
    for b in BLOCKS:
        if b.mode == "block":
            lines.append(
                f'  <node id="{b.name}" address="0x{b.base:08x}" mode="block" '
                f'size="0x{b.size:x}" permission="rw" description="{b.desc}"/>'
            )
            continue
        lines.append(f'  <node id="{b.name}" address="0x{b.base:08x}" description="{b.desc}">')
        for r in b.regs:
            # uHAL refuses a mask on a node with children: fields carry the masks then
            narrow = r.width < 32 and not r.fields
            mask = f' mask="0x{(1 << r.width) - 1:08x}"' if narrow else ""
            attrs = f'id="{r.name}" address="0x{r.offset:08x}"{mask} permission="{_perm(r)}"'
            if r.fields:
                lines.append(f"    <node {attrs}>")
                for f in r.fields:
                    fm = ((1 << f.width) - 1) << f.lsb
                    lines.append(
                        f'      <node id="{f.name}" mask="0x{fm:08x}" permission="{_perm(r)}"/>'
                    )
                lines.append("    </node>")
            else:
                lines.append(f"    <node {attrs}/>")
        lines.append("  </node>")
    lines.append("</node>")
    return "\n".join(lines) + "\n"


def _port_or_event(r: Reg) -> str:
    if r.kind in PREFIX:
        return f"`{PREFIX[r.kind]}_{r.port_name}[{r.lsb + r.width - 1}:{r.lsb}]`"
    if r.ev is not None:
        txt = f"`ev_{r.ev[0]}[{r.ev[1]}]`"
        if r.val is not None:
            txt += f" adds `ev_{r.val[0]}[{r.val[1] + VAL_W - 1}:{r.val[1]}]`"
        return txt
    return "-"


def gen_markdown() -> str:
    out = [
        "# wirecore register map",
        "",
        "Generated by `python -m wirecore.regmap` from `host/wirecore/regmap.py`: do not edit.",
        "Addresses are 32-bit word addresses (as IPbus and uHAL count them). Access: `rw` "
        "configuration, `r` counter/status/constant, `w` write strobe. Registers marked "
        "**P** refuse writes with a bus error while `SYS.WRITE_PROTECT` is set. Reading an "
        "unmapped address, or writing a read-only one, ends in a bus error.",
        "",
        "| window | words | what |",
        "|---|---|---|",
    ]
    for b in BLOCKS:
        if b.mode == "block":
            out.append(f"| 0x{b.base:05x} | {b.size} | {b.name}: {b.desc} |")
    out.append("| 0x00000 | 4096 | register file (below) |")
    out += [
        "",
        "## Counters",
        "",
        "Every counter is 32 bits wide and wraps. The blocks do not count: each emits one "
        "strobe per event (its `cnt_ev` output) and the register file keeps the "
        f"{len(counters())} counters in one `stat_counters` (parameter `CNT_RAM` of "
        "`wirecore_regfile` and `ipbus_ctrl`: 0 flip-flops, 1 one RAM), counting the "
        "event inputs below; a counter's event is in its table row (`ev_<source>[bit]`; a "
        "value counter adds a value input with each strobe). A counter read is answered 4 "
        "cycles after the request (through the read port of `stat_counters`).",
        "",
        "| input | bits | driven by |",
        "|---|---|---|",
    ]
    for src in EV_SOURCES + VAL_SOURCES:
        where = {"target": "inside ipbus_ctrl: ", "regfile": "inside the register file: "}
        out.append(f"| `ev_{src.name}` | {src.width} | {where.get(src.inside, '')}{src.desc} |")
    for b in REG_BLOCKS:
        out += ["", f"## {b.name} (base 0x{b.base:03x})", "", b.desc, ""]
        out.append("| address | name | access | bits | reset | port / event | description |")
        out.append("|---|---|---|---|---|---|---|")
        for r in b.regs:
            prot = " **P**" if r.protect else ""
            desc = r.desc
            if r.fields:
                desc += " Fields: " + "; ".join(
                    f"`{f.name}` [{f.lsb + f.width - 1}:{f.lsb}] {f.desc}" for f in r.fields
                )
            out.append(
                f"| 0x{address(b, r):03x} | {r.name} | {_perm(r)}{prot} | {r.width} | "
                f"0x{r.reset:x} | {_port_or_event(r)} | {desc} |"
            )
    return "\n".join(out) + "\n"


def _bits(mask: list[bool]) -> str:
    """A Verilog constant of len(mask) bits, bit i = mask[i]."""
    return f"{len(mask)}'h{sum(1 << i for i, m in enumerate(mask) if m):x}"


def ev_ports(inside: str) -> dict[str, int]:
    """Event and value inputs of a generated module: ev_<name> -> width (the sources from
    outside it; ``inside`` is the module's own: "regfile", or also "target")."""
    skip = {"regfile"} if inside == "regfile" else {"regfile", "target"}
    return {
        f"ev_{src.name}": src.width for src in EV_SOURCES + VAL_SOURCES if src.inside not in skip
    }


# Configuration ports whose reset value is a parameter of wirecore_regfile and ipbus_ctrl
# (RST_<PORT>, default the map's reset value): a board sets its own addresses.
RESET_PARAMS = ("cfg_mac", "cfg_ip", "cfg_netmask", "cfg_gateway", "cfg_echo_port")


def reset_param(name: str) -> str:
    """The parameter name of a configuration port's reset value (cfg_mac -> RST_MAC)."""
    return "RST_" + name[len("cfg_") :].upper()


def reset_param_decls(widths: dict[str, int]) -> list[str]:
    """Parameter declarations (no trailing commas) of the reset values in RESET_PARAMS."""
    decls = []
    for n in RESET_PARAMS:
        w = widths[n]
        value = f"{w}'h{port_reset(n):0{(w + 3) // 4}x}"
        decls.append(f"    parameter [{w - 1}:0] {reset_param(n)} = {value}")
    return decls


def gen_verilog() -> str:
    validate()
    widths = port_widths()
    cnts = counters()
    ncnt = len(cnts)
    caw = max(1, (ncnt - 1).bit_length())
    index = {address(b, r): i for i, (b, r) in enumerate(cnts)}
    L: list[str] = []
    L += [
        "// Generated by python -m wirecore.regmap from host/wirecore/regmap.py: do not edit.",
        "//",
        "// wirecore_regfile: the register file of the wirecore register map (docs/registers.md).",
        "//   Register-bus slave (docs/conventions.md): reg_req/reg_we/reg_addr/reg_wdata in,",
        "//   reg_ack/reg_err/reg_rdata out. reg_addr is the word offset inside the 4096-word",
        "//   register-file window. Configuration registers drive cfg_* outputs (reset values",
        "//   from the map), writes to strobe registers pulse stb_* outputs for one cycle,",
        "//   status (sts_*) are inputs. Reading an unmapped address, writing a read-only one,",
        "//   or writing a protected register while SYS.WRITE_PROTECT is set answers reg_err",
        "//   instead of reg_ack.",
        f"// Counters: the map's {ncnt} counters live in one stat_counters (32 bits, wrapping),",
        "//   counter i counting the strobe the map gives it on the ev_* inputs (one vector per",
        "//   source, one strobe per bit, one cycle per event; the value counters add a",
        f"//   {VAL_W}-bit value of ev_*_len with each strobe): see docs/registers.md.",
        "// Latency: reg_ack/reg_err and reg_rdata one cycle after reg_req; a counter read 4",
        "//   cycles after (a register, the counters' 2-cycle read port, a register; with",
        f"//   CNT_RAM = 1 up to {ncnt} more while the counters' RAM is cleared after reset).",
        "// Parameters (checked at elaboration; both tested): CNT_RAM (0: counters in",
        "//   flip-flops, exact at any rate; 1: in one RAM,",
        "//   exact while no counter gets more than 3 events in a scan of N + R cycles, R the",
        "//   counter reads in between, 63 for the counters marked burst, and no value counter",
        "//   more than 65535 in values; SYS.CNT_LOST tells otherwise). RST_MAC, RST_IP,",
        "//   RST_NETMASK, RST_GATEWAY, RST_ECHO_PORT: the reset values of NET.MAC_HI/MAC_LO,",
        "//   IP, NETMASK, GATEWAY, ECHO_PORT (default the map's; a board sets its own",
        "//   address). The map is fixed at generation time.",
        "`default_nettype none",
        "",
        "module wirecore_regfile #(",
        ",\n".join(["    parameter integer CNT_RAM = 0", *reset_param_decls(widths)]),
        ") (",
        "    input  wire        clk,",
        "    input  wire        rst,",
        "    input  wire        reg_req,",
        "    input  wire        reg_we,",
        f"    input  wire [{REGFILE_AW - 1}:0] reg_addr,",
        "    input  wire [31:0] reg_wdata,",
        "    output wire        reg_ack,",
        "    output wire        reg_err,",
        "    output wire [31:0] reg_rdata,",
        "    output wire        cfg_write_protect,",
    ]
    decl = []
    for name, w in widths.items():
        rng = f"[{w - 1}:0] " if w > 1 else ""
        if name.startswith(("cfg_", "stb_")):
            decl.append(f"    output wire {rng}{name}")
        else:
            decl.append(f"    input  wire {rng}{name}")
    for name, w in ev_ports("regfile").items():
        decl.append(f"    input  wire [{w - 1}:0] {name}")
    L.append(",\n".join(decl))
    L += [");", ""]

    def rd_expr(r: Reg) -> str:
        if r.kind == CONST:
            return f"32'h{r.reset:08x}"
        if r.kind == STB:
            return "32'h00000000"
        if r.kind == WP:
            return "{31'd0, cfg_write_protect}"
        if r.kind == LOST:
            return "{31'd0, cnt_lost}"
        name = f"{PREFIX[r.kind]}_{r.port_name}"
        full = widths[name]
        if full == 1:
            sl = name
        elif r.width == 1:
            sl = f"{name}[{r.lsb}]"
        elif r.lsb == 0 and r.width == full:
            sl = name
        else:
            sl = f"{name}[{r.lsb + r.width - 1}:{r.lsb}]"
        return sl if r.width == 32 else f"{{{32 - r.width}'d0, {sl}}}"

    def wr_target(r: Reg) -> str:
        name = f"{PREFIX[r.kind]}_{r.port_name}_reg"
        full = widths[name[: -len("_reg")]]
        if full == 1:
            return name
        if r.width == 1:
            return f"{name}[{r.lsb}]"
        if r.lsb == 0 and r.width == full:
            return name
        return f"{name}[{r.lsb + r.width - 1}:{r.lsb}]"

    def wdata(r: Reg) -> str:
        return "reg_wdata[0]" if r.width == 1 else f"reg_wdata[{r.width - 1}:0]"

    # the counters: event and value vectors in counter order, then stat_counters
    ev_terms = []
    val_terms = []
    for i, (b, r) in reversed(list(enumerate(cnts))):
        assert r.ev is not None
        ev_terms.append(f"ev_{r.ev[0]}[{r.ev[1]}]  // {i}: {b.name}.{r.name}")
        if r.val is not None:
            val_terms.append(f"ev_{r.val[0]}[{r.val[1] + VAL_W - 1}:{r.val[1]}]")
        else:
            val_terms.append(f"{VAL_W}'d0")
    vmask = _bits([r.val is not None for _, r in cnts])
    wmask = _bits([r.burst for _, r in cnts])
    L += [
        "    generate",
        "        if (CNT_RAM != 0 && CNT_RAM != 1) begin : g_check_cnt_ram",
        "            wirecore_regfile_CNT_RAM_must_be_0_or_1 u_error ();  // unsupported parameter",
        "        end",
        "    endgenerate",
        "",
        f"    localparam integer NCNT = {ncnt};  // counters (index: the map's order)",
        "",
        "    // the register file's own event: a write refused by write protection",
        "    reg         wp_refused_reg;",
        "    wire [0:0]  ev_regfile = wp_refused_reg;",
        "    // counter i counts ev_cnt[i] (adding ev_cnt_val[i*16+:16] for a value counter)",
        "    wire [NCNT-1:0] ev_cnt = {",
    ]
    for k, t in enumerate(ev_terms):
        code, comment = t.split("  // ")
        sep = "," if k < len(ev_terms) - 1 else ""
        L.append(f"        {code}{sep}  // {comment}")
    L += [
        "    };",
        f"    wire [NCNT*{VAL_W}-1:0] ev_cnt_val = {{",
    ]
    for k in range(0, len(val_terms), 4):
        chunk = ", ".join(val_terms[k : k + 4])
        sep = "," if k + 4 < len(val_terms) else ""
        L.append(f"        {chunk}{sep}")
    L += [
        "    };",
        "",
        "    // a counter read: asked by the register access (cnt_pend_reg), taken by the read",
        "    // port when it is not busy, answered when its data arrives",
        "    reg              cnt_pend_reg;",
        f"    reg  [{caw - 1}:0]       cnt_idx_reg;",
        "    wire             cnt_rd_en = cnt_pend_reg && !cnt_busy;",
        "    wire             cnt_rd_valid, cnt_busy, cnt_lost;",
        "    wire [31:0]      cnt_rd_data;",
        "    stat_counters #(",
        "        .N(NCNT), .W(32), .RAM(CNT_RAM), .PW(2), .VW(16), .PV(16), .PWW(6),",
        f"        .VMASK({vmask}),",
        f"        .WMASK({wmask})",
        "    ) counters (",
        "        .clk(clk), .rst(rst), .clear(1'b0), .ev(ev_cnt), .ev_val(ev_cnt_val),",
        "        .rd_en(cnt_rd_en), .rd_addr(cnt_idx_reg), .rd_valid(cnt_rd_valid),",
        "        .rd_data(cnt_rd_data), .busy(cnt_busy), .lost(cnt_lost)",
        "    );",
        "",
        "    // the answer, the write-protect flag, and every cfg_* / stb_* output: flip-flops",
        "    reg        reg_ack_reg, reg_err_reg;",
        "    reg [31:0] reg_rdata_reg;",
        "    reg        cfg_write_protect_reg;",
    ]
    outs = ["reg_ack", "reg_err", "reg_rdata", "cfg_write_protect"]
    for name, w in widths.items():
        if name.startswith(("cfg_", "stb_")):
            rng = f"[{w - 1}:0] " if w > 1 else ""
            L.append(f"    reg {rng}{name}_reg;")
            outs.append(name)
    L += [f"    assign {name} = {name}_reg;" for name in outs]
    L += [
        "",
        "    always @(posedge clk) begin",
        "        reg_ack_reg <= 1'b0;",
        "        reg_err_reg <= 1'b0;",
        "        wp_refused_reg <= 1'b0;",
    ]
    for name in widths:
        if name.startswith("stb_"):
            L.append(f"        {name}_reg <= {widths[name]}'d0;")
    L += [
        "        if (rst) begin",
        "            cfg_write_protect_reg <= 1'b0;",
        "            cnt_pend_reg <= 1'b0;",
    ]
    for name, w in widths.items():
        if name in RESET_PARAMS:
            L.append(f"            {name}_reg <= {reset_param(name)};")
        elif name.startswith("cfg_"):
            L.append(f"            {name}_reg <= {w}'h{port_reset(name):x};")
    L += [
        "        end else begin",
        "            if (cnt_rd_en) cnt_pend_reg <= 1'b0;",
        "            if (cnt_rd_valid) begin",
        "                reg_ack_reg <= 1'b1;",
        "                reg_rdata_reg <= cnt_rd_data;",
        "            end",
        "            if (reg_req) begin",
        "            reg_rdata_reg <= 32'h00000000;",
        "            case (reg_addr)",
    ]
    for b, r in all_regs():
        a = address(b, r)
        L.append(f"            {REGFILE_AW}'h{a:03x}: begin // {b.name}.{r.name}")
        if r.kind == CNT:
            L += [
                "                if (reg_we) reg_err_reg <= 1'b1;",
                "                else begin",
                "                    cnt_pend_reg <= 1'b1;",
                f"                    cnt_idx_reg <= {caw}'d{index[a]};",
                "                end",
            ]
            L.append("            end")
            continue
        L.append(f"                reg_rdata_reg <= {rd_expr(r)};")
        if r.kind in (CFG, WP, STB):
            tgt = "cfg_write_protect_reg" if r.kind == WP else wr_target(r)
            if r.protect:
                L += [
                    "                if (reg_we && cfg_write_protect_reg) begin",
                    "                    reg_err_reg <= 1'b1;",
                    "                    wp_refused_reg <= 1'b1;",
                    "                end else begin",
                    "                    reg_ack_reg <= 1'b1;",
                    f"                    if (reg_we) {tgt} <= {wdata(r)};",
                    "                end",
                ]
            else:
                L += [
                    "                reg_ack_reg <= 1'b1;",
                    f"                if (reg_we) {tgt} <= {wdata(r)};",
                ]
        else:
            L += [
                "                reg_ack_reg <= !reg_we;",
                "                reg_err_reg <= reg_we;",
            ]
        L.append("            end")
    L += [
        "            default: begin",
        "                reg_err_reg <= 1'b1;",
        "            end",
        "            endcase",
        "            end",
        "        end",
        "    end",
        "",
        "endmodule",
        "",
        "`default_nettype wire",
    ]
    return "\n".join(L) + "\n"


def gen_ctrl() -> str:
    """rtl/app/ipbus_ctrl.v: IPbus target + interconnect + register file + memory."""
    widths = port_widths()
    evs = ev_ports("target")
    L = [
        "// Generated by python -m wirecore.regmap from host/wirecore/regmap.py: do not edit.",
        "//",
        "// ipbus_ctrl: the wirecore control plane on one UDP application port: the IPbus 2.0",
        "//   target (ipbus_target), a register-bus interconnect (reg_interconnect) and its",
        "//   slaves: the register file (wirecore_regfile, words 0x00000-0x00FFF), the memory",
        "//   (reg_mem, 2**MEM_AW words at 0x10000) and the user window (m_user_reg_*, words",
        "//   0x20000-0x2FFFF, offset inside the window on m_user_reg_addr). See",
        "//   docs/ipbus.md for how to wire it into a top level and docs/registers.md for the map.",
        "// Interfaces: s_hdr_*/s_axis_* and m_hdr_*/m_axis_*: one UDP application port",
        "//   (docs/conventions.md); m_user_reg_*: register-bus master for user registers",
        "//   (tie m_user_reg_ack/err low if unused: accesses then end in a bus timeout);",
        "//   cfg_*/stb_* outputs, sts_* inputs: the register map; ev_* inputs: the event",
        "//   and value vectors its counters count (docs/registers.md, section Counters; the",
        "//   IPbus target's own strobes are internal), in clk. Configuration-space reads",
        "//   (type 6) read the register file from word 0 (SYS.ID, SYS.VERSION, SYS.MAGIC, ...).",
        "// Clocks: everything on clk (CTRL_ASYNC = 0; ctrl_clk, ctrl_rst unused), or the",
        "//   IPbus target on its own clock ctrl_clk / ctrl_rst (CTRL_ASYNC = 1: a slower",
        "//   control plane beside a line-rate clk) behind ipbus_cdc's crossings: the UDP",
        "//   port's streams, the register bus, the target's counter events, tick_1ms and the",
        "//   allow-list; the interconnect, register file and memory stay on clk.",
        "// Latency: as ipbus_target; register file and memory answer 1 cycle after a request,",
        "//   a counter 4 cycles after (wirecore_regfile); with CTRL_ASYNC = 1 ipbus_cdc's",
        "//   crossings on top.",
        "// Parameters: DATA_W (8 or 64), NBUF, RX_AW, RX_QAW, MAX_BYTES, BUS_TIMEOUT_MS as in",
        "//   ipbus_target (checked there); MEM_AW: memory word-address bits (1..16, checked;",
        "//   tested 14 = 64 KiB); CNT_RAM: the counters in flip-flops (0) or one RAM (1), see",
        "//   wirecore_regfile (checked; both tested); CTRL_ASYNC (0 or 1, ipbus_cdc's ASYNC;",
        "//   both tested); RST_MAC, RST_IP, RST_NETMASK, RST_GATEWAY, RST_ECHO_PORT: the NET",
        "//   registers' reset values (wirecore_regfile).",
        "`default_nettype none",
        "",
        "module ipbus_ctrl #(",
        "    parameter integer DATA_W         = 8,",
        "    parameter integer KEEP_W         = DATA_W / 8,",
        "    parameter integer NBUF           = 4,",
        "    parameter integer RX_AW          = 13,",
        "    parameter integer RX_QAW         = 4,",
        "    parameter integer MAX_BYTES      = 1472,",
        "    parameter integer BUS_TIMEOUT_MS = 2,",
        "    parameter integer MEM_AW         = 14,",
        "    parameter integer CNT_RAM        = 0,",
        ",\n".join(["    parameter integer CTRL_ASYNC     = 0", *reset_param_decls(widths)]),
        ") (",
        "    input  wire              clk,",
        "    input  wire              rst,",
        "    input  wire              tick_1ms,",
        "    input  wire              ctrl_clk,",
        "    input  wire              ctrl_rst,",
        "    input  wire              s_hdr_valid,",
        "    output wire              s_hdr_ready,",
        "    input  wire [47:0]       s_hdr_src_mac,",
        "    input  wire [31:0]       s_hdr_src_ip,",
        "    input  wire [15:0]       s_hdr_src_port,",
        "    input  wire [15:0]       s_hdr_dst_port,",
        "    input  wire [15:0]       s_hdr_len,",
        "    input  wire [DATA_W-1:0] s_axis_tdata,",
        "    input  wire [KEEP_W-1:0] s_axis_tkeep,",
        "    input  wire              s_axis_tvalid,",
        "    output wire              s_axis_tready,",
        "    input  wire              s_axis_tlast,",
        "    input  wire              s_axis_tuser,",
        "    output wire              m_hdr_valid,",
        "    input  wire              m_hdr_ready,",
        "    output wire [47:0]       m_hdr_dst_mac,",
        "    output wire              m_hdr_dst_mac_valid,",
        "    output wire [31:0]       m_hdr_dst_ip,",
        "    output wire [15:0]       m_hdr_dst_port,",
        "    output wire [15:0]       m_hdr_src_port,",
        "    output wire [15:0]       m_hdr_len,",
        "    output wire [15:0]       m_hdr_csum,",
        "    output wire [DATA_W-1:0] m_axis_tdata,",
        "    output wire [KEEP_W-1:0] m_axis_tkeep,",
        "    output wire              m_axis_tvalid,",
        "    input  wire              m_axis_tready,",
        "    output wire              m_axis_tlast,",
        "    output wire              m_axis_tuser,",
        "    output wire              m_user_reg_req,",
        "    output wire              m_user_reg_we,",
        "    output wire [31:0]       m_user_reg_addr,",
        "    output wire [31:0]       m_user_reg_wdata,",
        "    input  wire              m_user_reg_ack,",
        "    input  wire              m_user_reg_err,",
        "    input  wire [31:0]       m_user_reg_rdata,",
        "    output wire              cfg_write_protect,",
    ]
    decl = []
    for name, w in widths.items():
        rng = f"[{w - 1}:0] " if w > 1 else ""
        d = "output wire" if name.startswith(("cfg_", "stb_")) else "input  wire"
        decl.append(f"    {d} {rng}{name}")
    for name, w in evs.items():
        decl.append(f"    input  wire [{w - 1}:0] {name}")
    L.append(",\n".join(decl))
    L += [
        ");",
        "",
        "    generate",
        "        if (MEM_AW < 1 || MEM_AW > 16) begin : g_check_mem_aw",
        "            ipbus_ctrl_MEM_AW_must_be_1_to_16 u_error ();  // unsupported parameter",
        "        end",
        "        if (CNT_RAM != 0 && CNT_RAM != 1) begin : g_check_cnt_ram",
        "            ipbus_ctrl_CNT_RAM_must_be_0_or_1 u_error ();  // unsupported parameter",
        "        end",
        "        if (CTRL_ASYNC != 0 && CTRL_ASYNC != 1) begin : g_check_ctrl_async",
        "            ipbus_ctrl_CTRL_ASYNC_must_be_0_or_1 u_error ();  // unsupported parameter",
        "        end",
        "    endgenerate",
        "",
        "    localparam [31:0] MEM_MASK = (32'd1 << MEM_AW) - 32'd1;",
        "",
        "    wire        reg_req, reg_we, reg_ack, reg_err;",
        "    wire [31:0] reg_addr, reg_wdata, reg_rdata;",
        "    wire [2:0]  s_req, s_ack, s_err;",
        "    wire        s_we;",
        "    wire [95:0] s_addr, s_rdata;",
        "    wire [31:0] s_wdata;",
    ]
    L.append("    wire [15:0] ev_ipb;  // the IPbus target's event strobes")
    # the target's ports and the ipbus_cdc wires (t_*) they meet
    rx_ports = (
        "hdr_valid hdr_ready hdr_src_mac hdr_src_ip hdr_src_port hdr_dst_port hdr_len "
        "axis_tdata axis_tkeep axis_tvalid axis_tready axis_tlast axis_tuser"
    ).split()
    tx_ports = (
        "hdr_valid hdr_ready hdr_dst_mac hdr_dst_mac_valid hdr_dst_ip hdr_dst_port "
        "hdr_src_port hdr_len hdr_csum axis_tdata axis_tkeep axis_tvalid axis_tready "
        "axis_tlast axis_tuser"
    ).split()
    reg_ports = "req we addr wdata ack err rdata".split()
    wire_w = {
        "hdr_src_mac": "[47:0] ", "hdr_dst_mac": "[47:0] ", "hdr_src_ip": "[31:0] ",
        "hdr_dst_ip": "[31:0] ", "hdr_src_port": "[15:0] ", "hdr_dst_port": "[15:0] ",
        "hdr_len": "[15:0] ", "hdr_csum": "[15:0] ", "axis_tdata": "[DATA_W-1:0] ",
        "axis_tkeep": "[KEEP_W-1:0] ", "addr": "[31:0] ", "wdata": "[31:0] ",
        "rdata": "[31:0] ",
    }  # fmt: skip
    conns = [(f"s_{p}", f"t_rx_{p}") for p in rx_ports]
    conns += [(f"m_{p}", f"t_tx_{p}") for p in tx_ports]
    conns += [(f"reg_{p}", f"t_reg_{p}") for p in reg_ports]
    for port, w in conns:
        L.append(f"    wire {wire_w.get(port.split('_', 1)[1], '')}{w};")
    L += [
        "    wire        t_tick_1ms, t_allow_en;",
        "    wire [127:0] t_allow_ip;",
        "    wire [15:0] t_ev;",
        "",
        "    // the target on its clock: one instance or the other, each with its clock port",
        "    // tied straight to a clock (no clock through logic, not even in simulation)",
        "    generate",
    ]
    for cond, blk, clk, rst in (
        ("if (CTRL_ASYNC != 0)", "g_target_ctrl_clk", "ctrl_clk", "ctrl_rst"),
        ("else", "g_target_clk", "clk", "rst"),
    ):
        L += [
            f"        {cond} begin : {blk}",
            "            ipbus_target #(",
            "                .DATA_W(DATA_W), .NBUF(NBUF), .RX_AW(RX_AW), .RX_QAW(RX_QAW),",
            "                .MAX_BYTES(MAX_BYTES), .BUS_TIMEOUT_MS(BUS_TIMEOUT_MS),",
            "                .CONF_BASE(32'h0)",
            "            ) target (",
            f"                .clk({clk}), .rst({rst}), .tick_1ms(t_tick_1ms),",
        ]
        L += [f"                .{port}({w})," for port, w in conns]
        L += [
            "                .cfg_allow_en(t_allow_en), .cfg_allow_ip(t_allow_ip),",
            "                .cnt_ev(t_ev)",
            "            );",
            "        end",
        ]
    L += [
        "    endgenerate",
        "",
        "    ipbus_cdc #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .ASYNC(CTRL_ASYNC)) cdc (",
        "        .clk(clk), .rst(rst), .tick_1ms(tick_1ms), .ctrl_clk(ctrl_clk),",
        "        .ctrl_rst(ctrl_rst),",
    ]
    cdc = [f"        .{p}({p})" for p, _ in conns if not p.startswith("reg_")]
    cdc += [f"        .{p}({p})" for p, _ in conns if p.startswith("reg_")]
    cdc += [f"        .{w}({w})" for _, w in conns]
    cdc += [
        "        .ev(ev_ipb), .t_ev(t_ev), .t_tick_1ms(t_tick_1ms)",
        "        .cfg_allow_en(cfg_ipb_allow_en), .cfg_allow_ip(cfg_ipb_allow_ip)",
        "        .t_allow_en(t_allow_en), .t_allow_ip(t_allow_ip)",
    ]
    L.append(",\n".join(cdc))
    L += [
        "    );",
        "",
        "    reg_interconnect #(",
        "        .NSLV(3),",
        "        .BASE({32'h00020000, 32'h00010000, 32'h00000000}),",
        "        .MASK({32'h0000ffff, MEM_MASK, 32'h00000fff})",
        "    ) xbar (",
        "        .clk(clk), .rst(rst),",
        "        .s_reg_req(reg_req), .s_reg_we(reg_we), .s_reg_addr(reg_addr),",
        "        .s_reg_wdata(reg_wdata), .s_reg_ack(reg_ack), .s_reg_err(reg_err),",
        "        .s_reg_rdata(reg_rdata),",
        "        .m_reg_req(s_req), .m_reg_we(s_we), .m_reg_addr(s_addr),",
        "        .m_reg_wdata(s_wdata), .m_reg_ack(s_ack), .m_reg_err(s_err),",
        "        .m_reg_rdata(s_rdata)",
        "    );",
        "",
        "    wirecore_regfile #(",
        "        .CNT_RAM(CNT_RAM),",
        ",\n".join(f"        .{reset_param(n)}({reset_param(n)})" for n in RESET_PARAMS),
        "    ) regfile (",
        "        .clk(clk), .rst(rst),",
        "        .reg_req(s_req[0]), .reg_we(s_we), .reg_addr(s_addr[11:0]),",
        "        .reg_wdata(s_wdata), .reg_ack(s_ack[0]), .reg_err(s_err[0]),",
        "        .reg_rdata(s_rdata[31:0]),",
        "        .cfg_write_protect(cfg_write_protect),",
    ]
    L.append(",\n".join(f"        .{n}({n})" for n in [*widths, *ev_ports("regfile")]))
    L += [
        "    );",
        "",
        "    reg_mem #(.AW(MEM_AW)) memory (",
        "        .clk(clk), .rst(rst),",
        "        .reg_req(s_req[1]), .reg_we(s_we), .reg_addr(s_addr[63:32]),",
        "        .reg_wdata(s_wdata), .reg_ack(s_ack[1]), .reg_err(s_err[1]),",
        "        .reg_rdata(s_rdata[63:32])",
        "    );",
        "",
        "    assign m_user_reg_req   = s_req[2];",
        "    assign m_user_reg_we    = s_we;",
        "    assign m_user_reg_addr  = s_addr[95:64];",
        "    assign m_user_reg_wdata = s_wdata;",
        "    assign s_ack[2]         = m_user_reg_ack;",
        "    assign s_err[2]         = m_user_reg_err;",
        "    assign s_rdata[95:64]   = m_user_reg_rdata;",
        "",
        "    // Only the low 12 bits of the register-file offset are decoded.",
        "    wire unused_addr = &{1'b0, s_addr[31:12]};",
        "",
        "endmodule",
        "",
        "`default_nettype wire",
    ]
    return "\n".join(L) + "\n"


ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = {
    "docs/registers.md": gen_markdown,
    "host/wirecore/data/wirecore_address_table.xml": gen_xml,
    "rtl/ctrl/wirecore_regfile.v": gen_verilog,
    "rtl/app/ipbus_ctrl.v": gen_ctrl,
}


def address_table_path() -> Path:
    return Path(__file__).resolve().parent / "data" / "wirecore_address_table.xml"


def generate(root: Path = ROOT, check: bool = False) -> list[str]:
    """Write (or with check=True only compare) the generated files; return the stale ones."""
    validate()
    stale = []
    for rel, fn in OUTPUTS.items():
        path = root / rel
        text = fn()
        if not path.exists() or path.read_text() != text:
            stale.append(rel)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    return stale


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m wirecore.regmap",
        description="Generate docs/registers.md, the uHAL address table and the Verilog "
        "register file from the register map.",
    )
    p.add_argument("--check", action="store_true", help="only check the files are up to date")
    p.add_argument("--root", type=Path, default=ROOT, help="repository root (default: %(default)s)")
    args = p.parse_args(argv)
    stale = generate(args.root, check=args.check)
    for rel in stale:
        print(("stale: " if args.check else "wrote: ") + rel)
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
