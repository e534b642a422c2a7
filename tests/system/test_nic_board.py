"""The smart network interface on the virtual board (vboard_top, wirecore_node NIC = 1).

A rule written over IPbus (wirecore's reliable client) steers UDP datagrams to one port to
the CFAR accelerator; sample frames sent from a Linux UDP socket in the board's namespace
come back as result datagrams from nic_reply to the socket, each byte-exact against the
model (wirecore.cfar, written independently of the RTL) and its detections the scene's
target bins. Meanwhile ping, the UDP echo and IPbus answer as before. A short sample frame
and a second frame without its first are dropped and counted, not answered. The NIC
block's counters are checked exactly (rule hits, blocks, results, replies, the arbiter's
frames). Deleting the rule sends the port's datagrams back to the host (a closed port).
`wirecore nic rules` (list, add, delete, counters) runs against the same board.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from wirecore import cfar, ipbus, netns, nic
from wirecore import regmap as rm
from wirecore.commands.demo import ping, udp_echo
from wirecore.vboard import VirtualBoard

ROOT = Path(__file__).resolve().parents[2]
IPBUS_PORT = 50001
CFAR_PORT = 5555
RULE = 2  # not rule 0: the rule's index reaches the board
GUARD, TRAIN, FACTOR = 2, 16, 12.0
BLOCKS = 4


def client(b: VirtualBoard) -> ipbus.Client:
    with netns.entered(b.cfg.ns):
        return ipbus.Client(b.cfg.ip, IPBUS_PORT, timeout=0.5)


def wirecore(b: VirtualBoard, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    return subprocess.run(
        netns.exec_cmd(b.cfg.ns, [sys.executable, "-m", "wirecore.cli", *args]),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def expect_nothing(sock: socket.socket, wait: float = 1.0) -> None:
    sock.settimeout(wait)
    try:
        data, src = sock.recvfrom(2048)
    except TimeoutError:
        return
    raise AssertionError(f"unexpected datagram from {src}: {data[:16].hex()}")


def test_cfar_through_the_nic(make_board) -> None:
    b = make_board("nic")
    c = client(b)
    sock = netns.socket_in(b.cfg.ns)
    try:
        inf = nic.info(c)
        assert (inf.rules, inf.k, inf.accel_ports) == (rm.NIC_RULES, rm.NIC_K, 1)
        before = nic.counters(c)
        rule = nic.match_rule(inf.k, dst_port=CFAR_PORT, action="accel")
        nic.write_rule(c, RULE, rule, inf.k)
        assert nic.read_rule(c, RULE, inf.k) == rule
        assert nic.read_rule(c, 0, inf.k).enabled is False
        alpha = cfar.alpha_word(FACTOR, TRAIN)
        for name, v in (("GUARD", GUARD), ("TRAIN", TRAIN), ("ALPHA", alpha)):
            c.write(rm.find(f"NIC.CFAR_{name}"), [v])

        sock.bind(("0.0.0.0", 0))
        dest = (b.cfg.ip, CFAR_PORT)
        for blk in range(BLOCKS):
            scene = cfar.random_scene(200 + blk)
            samples = scene.samples()
            for payload in cfar.block_payloads(2 * blk, samples, tag=0xC0FFEE):
                sock.sendto(payload, dest)
            sock.settimeout(5.0)
            data, src = sock.recvfrom(2048)
            assert src == dest, src
            dets = cfar.detect(samples, GUARD, TRAIN, alpha)
            assert data == cfar.result_bytes(blk, dets, 64), f"block {blk}"
            assert [d.bin for d in dets] == sorted(scene.targets)
            # normal traffic between blocks: ping, the echo, IPbus
            assert ping(b.cfg.ns, b.cfg.ip, 2, interval=0.05).received == 2
            e = udp_echo(b.cfg.ns, b.cfg.ip, 7, 200, count=5)
            assert (e.received, e.bad, e.lost) == (5, 0, 0)
            assert c.read(rm.find("SYS.ID"))[0] == rm.DESIGN_ID

        # bad frames: a short sample frame, a second frame without its first
        sock.sendto(cfar.frame_payload(2 * BLOCKS, cfar.Scene(1).samples()[:512])[:100], dest)
        sock.sendto(cfar.frame_payload(2 * BLOCKS + 1, cfar.Scene(2).samples()[:512]), dest)
        expect_nothing(sock)

        got = nic.counters(c)
        diff = {k: (got[k] - before[k]) & 0xFFFFFFFF for k in got}
        frames = 2 * BLOCKS + 2
        assert diff[f"CLS_HIT{RULE}"] == frames, diff
        assert all(diff[f"CLS_HIT{r}"] == 0 for r in range(rm.NIC_RULES) if r != RULE), diff
        assert diff["CLS_DROP"] == 0 and diff["CLS_BAD"] == 0, diff
        want = {"CFAR_BLOCKS": BLOCKS, "CFAR_RESULTS": BLOCKS, "CFAR_LENGTH": 1}
        want |= {"CFAR_ORDER": 1, "CFAR_BAD": 0, "CFAR_LOST": 0, "CFAR_BUSY": 0}
        want |= {"REPLY_SENT": BLOCKS, "REPLY_BAD": 0, "REPLY_NO_REQ": 0}
        want |= {"REPLY_TOO_LONG": 0, "REPLY_REQ_LOST": 0, "ARB_ACCEL_FRAMES": BLOCKS}
        assert {k: diff[k] for k in want} == want
        assert diff["ARB_HOST_FRAMES"] > 0 and diff["CLS_DEFAULT"] > 0

        # the CLI reads the same rule and counters
        t = ["--target", f"ipbusudp-2.0://{b.cfg.ip}:{IPBUS_PORT}", "--timeout", "5000"]
        r = wirecore(b, "nic", "rules", "list", *t)
        assert r.returncode == 0, r.stdout + r.stderr
        assert f"dst_port={CFAR_PORT}" in r.stdout and "accel" in r.stdout, r.stdout
        r = wirecore(b, "nic", "rules", "counters", *t)
        assert r.returncode == 0 and "CFAR_BLOCKS" in r.stdout, r.stdout + r.stderr

        # without the rule the port's datagrams go to the stack (a closed port)
        r = wirecore(b, "nic", "rules", "delete", str(RULE), *t)
        assert r.returncode == 0, r.stdout + r.stderr
        closed = c.read(rm.find("STACK.UDP_CLOSED_PORT"))[0]
        hits = nic.counters(c)[f"CLS_HIT{RULE}"]
        sock.sendto(cfar.block_payloads(0, cfar.Scene(3).samples())[0], dest)
        expect_nothing(sock)
        assert nic.counters(c)[f"CLS_HIT{RULE}"] == hits
        assert c.read(rm.find("STACK.UDP_CLOSED_PORT"))[0] == closed + 1

        # the CLI adds a rule the board then applies
        r = wirecore(b, "nic", "rules", "add", "5", "--dst-port", str(CFAR_PORT), *t)
        assert r.returncode == 0, r.stdout + r.stderr
        assert nic.read_rule(c, 5, inf.k) == rule
        r = wirecore(b, "nic", "rules", "add", "9", "--dst-port", "1", *t)
        assert r.returncode != 0 and "0..7" in r.stderr, r.stdout + r.stderr
    finally:
        sock.close()
        c.close()
