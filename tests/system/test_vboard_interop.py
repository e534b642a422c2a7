"""The virtual board (MAC + UDP/IP stack + UDP echo) against real Linux tools, at both
speeds: every test that makes a board runs on the 1 Gbit/s board (vboard_top, GMII, the
8-bit stack) and on the 10 Gbit/s one (vboard_top_10g, XGMII, the 64-bit stack).

Each test brings up its own board in its own namespace (see conftest.make_board) and
checks what Linux sees: arping, ping (a full size sweep through a raw ICMP socket, a
sample with the ping tool, a flood of 10,000), ARP after the neighbour cache is flushed,
UDP echo through sockets (every size 0..1472 and 10,000 datagrams with several in
flight, byte-exact), traffic for other addresses and ports ignored and counted, and a
capture of everything that passes tshark without a malformed frame or a bad checksum.
"""

from __future__ import annotations

import os
import random
import re
import socket
import subprocess
import sys
import time

import pytest
from board_speeds import at_speed
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.utils import rdpcap
from tshark_check import assert_tshark_clean
from wirecore import netns
from wirecore.commands.demo import payload, ping, udp_echo
from wirecore.vboard import VirtualBoard

ECHO_PORT = 7


@pytest.fixture
def make_board(make_board, speed_top):
    """conftest's make_board, its boards at the speed of the test's parameter."""
    return at_speed(make_board, speed_top)


def ns_run(b: VirtualBoard, cmd: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        netns.exec_cmd(b.cfg.ns, cmd), capture_output=True, text=True, timeout=timeout
    )


def counters(b: VirtualBoard) -> dict[str, int]:
    return b.stats()["counters"]


def test_arping_broadcast_and_unicast(make_board) -> None:
    b = make_board("arp")
    c = b.cfg
    # broadcast requests only (-b would change the source address; -t sets the target MAC)
    r = ns_run(b, ["arping", "-c", "3", "-w", "5", "-i", c.tap, "-t", "ff:ff:ff:ff:ff:ff", c.ip])
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count(f"from {c.mac}") == 3, r.stdout
    # unicast requests, to the board's MAC (what Linux sends to re-validate its cache)
    r = ns_run(b, ["arping", "-c", "3", "-w", "5", "-i", c.tap, "-t", c.mac, c.ip])
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count(f"from {c.mac}") == 3, r.stdout
    # a request for another address is not answered
    r = ns_run(b, ["arping", "-c", "2", "-w", "3", "-i", c.tap, "192.0.2.77"])
    assert "from" not in r.stdout, r.stdout


def test_arp_after_neigh_flush(make_board) -> None:
    b = make_board("nf")
    c = b.cfg
    for _ in range(3):
        assert ping(c.ns, c.ip, 3, interval=0.05).received == 3
        ns_run(b, ["ip", "neigh", "flush", "dev", c.tap])
        out = ns_run(b, ["ip", "neigh", "show", "dev", c.tap]).stdout
        assert c.ip not in out or "FAILED" in out or "INCOMPLETE" in out
    assert ping(c.ns, c.ip, 3, interval=0.05).received == 3
    out = ns_run(b, ["ip", "neigh", "show", "dev", c.tap]).stdout
    assert c.mac in out, out


def _icmp_socket(b: VirtualBoard) -> socket.socket:
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    s.settimeout(1.0)
    return s


# Payloads below 18 bytes make frames that need Ethernet padding: the reply must still be
# whole (no transmit underflow, no aborted frame), so they are swept on their own.
SWEEPS = [
    pytest.param(range(18, 1473), id="18-1472"),
    pytest.param(range(0, 18), id="0-17-padded"),
]


@pytest.mark.parametrize("sizes", SWEEPS)
def test_ping_every_size_byte_exact(make_board, sizes: range) -> None:
    """Every ICMP payload size 0..1472 (full sweep through a raw socket), replies byte-exact."""
    b = make_board("pg")
    s = _icmp_socket(b)
    rng = random.Random(5)
    ident = 0x4242
    for size in sizes:
        data = bytes(rng.getrandbits(8) for _ in range(size))
        req = bytes(ICMP(type=8, id=ident, seq=size) / data)
        s.sendto(req, (b.cfg.ip, 0))
        t_end = time.monotonic() + 2
        while True:
            assert time.monotonic() < t_end, f"no echo reply for {size} bytes"
            try:
                pkt, addr = s.recvfrom(65536)
            except TimeoutError:
                continue
            ip = IP(pkt)
            if addr[0] != b.cfg.ip or ICMP not in ip or ip[ICMP].type != 0:
                continue
            if ip[ICMP].id == ident and ip[ICMP].seq == size:
                break
        assert bytes(ip[ICMP].payload) == data, f"reply to {size} bytes differs"
        chk = ip[ICMP].chksum
        del ip[ICMP].chksum
        assert IP(bytes(ip))[ICMP].chksum == chk, f"bad ICMP checksum at {size} bytes"
    s.close()
    st = b.stats()
    assert st["from_board_aborted"] == 0 and st["counters"]["MAC.TX_UNDERFLOW"] == 0


@pytest.mark.parametrize(
    "sizes",
    [
        pytest.param((18, 56, 100, 1000, 1472), id="unpadded"),
        pytest.param((0, 1, 8, 17), id="padded"),
    ],
)
def test_ping_tool_sizes(make_board, sizes: tuple[int, ...]) -> None:
    """A sample of sizes with the ping tool itself."""
    b = make_board("ps")
    c = b.cfg
    for size in sizes:
        p = ping(c.ns, c.ip, 2, size=size, interval=0.01)
        assert p.received == 2, f"ping -s {size}: {p}"
    st = b.stats()
    assert st["from_board_aborted"] == 0 and st["counters"]["MAC.TX_UNDERFLOW"] == 0


def test_ping_flood(make_board) -> None:
    b = make_board("fl")
    c = b.cfg
    p = ping(c.ns, c.ip, 10000, flood=True)
    assert p.sent == 10000 and p.received == 10000, p


def test_udp_echo_every_size(make_board) -> None:
    b = make_board("us")
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(1.0)
    s.connect((b.cfg.ip, ECHO_PORT))
    for size in range(0, 1473):
        data = payload(size, size)
        s.send(data)
        got, addr = s.recvfrom(65536)
        assert addr == (b.cfg.ip, ECHO_PORT)
        assert got == data, f"echo of {size} bytes differs"
    s.close()


def test_udp_echo_volume_in_flight(make_board) -> None:
    b = make_board("uv")
    total = 0
    for size, count, window in ((64, 6000, 8), (1472, 2000, 8), (512, 2000, 16)):
        e = udp_echo(b.cfg.ns, b.cfg.ip, ECHO_PORT, size, count=count, window=window)
        assert (e.sent, e.received, e.bad, e.lost) == (count, count, 0, 0), e
        total += e.received
    assert total >= 10000
    st = b.stats()
    assert st["from_board_bad_fcs"] == 0 and st["from_board_aborted"] == 0


def test_other_traffic_ignored_and_counted(make_board) -> None:
    """Frames for another MAC, datagrams for another IP or port: no reply, each counted."""
    b = make_board("ig")
    c = b.cfg
    s = netns.socket_in(c.ns, socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
    s.bind((c.tap, 0))
    s.settimeout(0.2)
    mine = bytes.fromhex(
        netns.run(["ip", "-n", c.ns, "-o", "link", "show", c.tap])
        .split("link/ether ")[1]
        .split()[0]
        .replace(":", "")
    )
    host_mac = ":".join(f"{x:02x}" for x in mine)

    def udp(dst_mac: str, dst_ip: str, dport: int) -> bytes:
        return bytes(
            Ether(src=host_mac, dst=dst_mac)
            / IP(src=c.host_ip, dst=dst_ip)
            / UDP(sport=40000, dport=dport)
            / b"hello"
        )

    # warm up: the board knows us, and one good echo works
    e = udp_echo(c.ns, c.ip, ECHO_PORT, 32, count=5, window=1)
    assert e.received == 5
    before = counters(b)
    n = 4
    for _ in range(n):
        s.send(udp("02:00:00:00:00:99", c.ip, ECHO_PORT))  # another MAC
        s.send(udp(c.mac, "192.0.2.99", ECHO_PORT))  # another IP
        s.send(udp(c.mac, c.ip, 9999))  # another port
        s.send(bytes(Ether(src=host_mac, dst=c.mac, type=0x88B6) / (b"x" * 50)))  # EtherType
        time.sleep(0.01)
    # nothing came back but the ICMP port unreachable for the closed port
    t_end = time.monotonic() + 0.5
    while time.monotonic() < t_end:
        try:
            data, addr = s.recvfrom(65536)
        except TimeoutError:
            continue
        if addr[2] == 4:  # our own
            continue
        pkt = Ether(data)
        assert not (UDP in pkt and pkt[UDP].dport == 40000), f"answered: {pkt.summary()}"
    after = counters(b)
    delta = {k: after[k] - before[k] for k in after}
    assert delta["STACK.ETH_BAD_MAC"] == n, delta
    assert delta["STACK.ETH_BAD_ETHERTYPE"] == n, delta
    assert delta["STACK.IP_NOT_FOR_US"] == n, delta
    assert delta["STACK.UDP_CLOSED_PORT"] == n, delta
    assert delta["STACK.ICMP_UNREACH_SENT"] == n, delta  # 10 ms apart: under the rate limit
    assert delta["MAC.RX_BAD_FCS"] == 0, delta
    # and it still echoes
    assert udp_echo(c.ns, c.ip, ECHO_PORT, 32, count=5, window=1).received == 5


def test_closed_port_unreachable(make_board) -> None:
    """Linux turns the board's ICMP port unreachable into ECONNREFUSED on the socket."""
    b = make_board("pu")
    c = b.cfg
    s = netns.socket_in(c.ns, socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2.0)
    s.connect((c.ip, 9))  # discard: closed on the board
    before = counters(b)
    refused = 0
    for _ in range(5):
        s.send(b"anyone there?")
        try:
            s.recv(100)
        except ConnectionRefusedError:
            refused += 1
        time.sleep(0.01)
    s.close()
    assert refused == 5
    after = counters(b)
    assert after["STACK.ICMP_UNREACH_SENT"] - before["STACK.ICMP_UNREACH_SENT"] == 5
    assert after["STACK.ICMP_UNREACH_DROPPED"] == before["STACK.ICMP_UNREACH_DROPPED"]
    # the rate limit: a burst of 100 datagrams to a closed port is answered at most
    # NET.UNREACH_PER_MS (10) times per millisecond, the rest counted as not answered
    r = netns.socket_in(c.ns, socket.AF_INET, socket.SOCK_DGRAM)
    for _ in range(100):
        r.sendto(b"x" * 1000, (c.ip, 9))
    r.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        now = counters(b)
        done = now["STACK.UDP_CLOSED_PORT"] - after["STACK.UDP_CLOSED_PORT"]
        if done == 100:
            break
        time.sleep(0.05)
    now = counters(b)
    sent = now["STACK.ICMP_UNREACH_SENT"] - after["STACK.ICMP_UNREACH_SENT"]
    dropped = now["STACK.ICMP_UNREACH_DROPPED"] - after["STACK.ICMP_UNREACH_DROPPED"]
    assert now["STACK.UDP_CLOSED_PORT"] - after["STACK.UDP_CLOSED_PORT"] == 100
    assert sent + dropped == 100 and sent >= 1


def test_capture_passes_tshark(make_board) -> None:
    b = make_board("cap")
    c = b.cfg
    ns_run(b, ["arping", "-c", "2", "-w", "3", "-i", c.tap, c.ip])
    for size in (18, 56, 1472):
        ping(c.ns, c.ip, 3, size=size, interval=0.01)
    for size in (0, 1, 18, 100, 1472):
        e = udp_echo(c.ns, c.ip, ECHO_PORT, size, count=20, window=4)
        assert e.received == 20
    pcap = c.pcap
    b.down()
    pkts = rdpcap(pcap)
    assert len(pkts) >= 2 * (2 + 9 + 100)
    kinds = {
        "arp": sum(ARP in p for p in pkts),
        "icmp": sum(ICMP in p for p in pkts),
        "udp": sum(UDP in p for p in pkts),
    }
    assert kinds["arp"] >= 4 and kinds["icmp"] >= 18 and kinds["udp"] >= 200, kinds
    assert_tshark_clean(pcap)


def test_two_boards_behind_a_bridge(make_board) -> None:
    b1 = make_board("m1", bridge="wcbr0", tap="wctap1")
    b2 = make_board(
        "m2", ns=b1.cfg.ns, bridge="wcbr0", tap="wctap2", ip="192.0.2.3", mac="02:00:00:00:00:03"
    )
    for b in (b1, b2):
        p = ping(b.cfg.ns, b.cfg.ip, 5, interval=0.02)
        assert p.received == 5
        e = udp_echo(b.cfg.ns, b.cfg.ip, ECHO_PORT, 200, count=200, window=4)
        assert e.received == 200 and e.bad == 0
    # each board answered only for itself
    assert b1.stats()["from_board_frames"] >= 205
    assert b2.stats()["from_board_frames"] >= 205


def test_idle_board_sleeps(make_board) -> None:
    """The full board, idle, uses a small part of a CPU and still counts every millisecond."""
    b = make_board("id")
    pid = b.pid()
    assert pid is not None

    def cpu() -> float:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

    time.sleep(0.5)
    st0, c0, t0 = b.stats(), cpu(), time.monotonic()
    time.sleep(3.0)
    st1, c1, t1 = b.stats(), cpu(), time.monotonic()
    assert (c1 - c0) / (t1 - t0) < 0.2, f"idle board used {(c1 - c0) / (t1 - t0):.0%} of a CPU"
    ms = (st1["wall_s"] - st0["wall_s"]) * 1000
    ticks = st1["ticks"] - st0["ticks"]
    assert 0.98 * ms - 12 <= ticks <= 1.02 * ms + 12, f"{ticks} ticks in {ms:.0f} ms"
    # and it still answers at once after the sleep
    assert ping(b.cfg.ns, b.cfg.ip, 3, interval=0.05).received == 3


def _wirecore(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    exe = os.path.join(os.path.dirname(sys.executable), "wirecore")
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env, timeout=timeout)


@pytest.mark.tap
def test_cli_several_boards_on_a_bridge(tmp_path) -> None:
    from conftest import unique_name

    name = unique_name("g")
    env = dict(os.environ, WIRECORE_RUN_DIR=str(tmp_path / "run"))
    try:
        r = _wirecore(env, "board", "up", "--name", name, "--boards", "2", "--ip", "192.0.2.10")
        assert r.returncode == 0, r.stdout + r.stderr
        assert f"board {name}-1 is up: 192.0.2.10" in r.stdout
        assert f"board {name}-2 is up: 192.0.2.11" in r.stdout
        for ip in ("192.0.2.10", "192.0.2.11"):
            assert ping(f"wc-{name}", ip, 3, interval=0.05).received == 3
            e = udp_echo(f"wc-{name}", ip, ECHO_PORT, 100, count=50, window=4)
            assert (e.received, e.bad) == (50, 0)
        r = _wirecore(env, "board", "status", "--name", name)
        assert r.stdout.count("running") == 2, r.stdout
    finally:
        r = _wirecore(env, "board", "down", "--name", name)
    assert r.returncode == 0, r.stderr
    assert not netns.exists(f"wc-{name}")


@pytest.mark.tap
def test_demo_end_to_end(tmp_path) -> None:
    """`wirecore demo`: up, measure, table, capture, down (also what `make demo` runs)."""
    from conftest import unique_name

    name = unique_name("dm")
    env = dict(os.environ, WIRECORE_RUN_DIR=str(tmp_path / "run"), COLUMNS="200")
    r = _wirecore(
        env, "demo", "--name", name, "--seconds", "0.5", "--flood", "200", "--out", str(tmp_path)
    )
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "5/5 replies" in out and "20/20 replies" in out and "200/200 replies" in out, out
    assert out.count("0 bad, 0 lost") == 2, out
    assert "ID 0x77697265 ('wire')" in out and "SCRATCH write/read matches" in out, out
    # the board's own turnaround, read from its wire record in simulated time
    assert re.search(r"wire turnaround, ping .*? [\d,]+ cycles = [\d,]+ ns", out), out
    assert re.search(r"wire turnaround, UDP echo, 1472-byte .*? [\d,]+ cycles", out), out
    assert not netns.exists(f"wc-{name}")
    pcap = tmp_path / "vboard-demo.pcap"
    assert str(pcap) in out.replace("\n", "")
    assert len(rdpcap(str(pcap))) > 400
