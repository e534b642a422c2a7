"""A software stand-in for wirecore boards: test a PC's DAQ path without an FPGA.

Each stand-in board answers on one IPv4 address, as a board would:

* an IPbus 2.0 target (the control plane's reference model, :mod:`wirecore.ipbus`) whose
  PKTGEN registers (``docs/registers.md``) drive a software packet generator that
  sends the FPGA generator's payload format (:mod:`wirecore.daq.fmt`) from the
  generator's source port to the configured destinations in turn;
* a UDP echo on the echo port.

It is meant for loopback (``127.0.0.1``; several boards on ``127.0.0.2``,
``127.0.0.3``, ... which Linux routes to loopback too) and for checking a PC's network
card against another PC. A software generator is far slower than the FPGA with an LFSR
payload (tens of thousands of datagrams/s); with a constant payload and one destination
it uses ``sendmmsg`` and is limited by the kernel.

Run it with ``python -m wirecore.daq.peer --help``; it prints one line
``READY {json}`` with the boards' addresses and ports once it serves.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from wirecore import ipbus, regmap
from wirecore.daq.analysis import wire_bytes
from wirecore.daq.fmt import build_payload_fast
from wirecore.daq.rx import Receiver, SeqSender

CLOCK_HZ = 125_000_000  # the generator's nominal clock (8-bit datapath at 1 Gbit/s)


@dataclass
class BoardAddr:
    """Where a board (real or stand-in) answers."""

    ip: str
    ipbus_port: int = 50001
    echo_port: int = 7
    pktgen_port: int = 50002


def _a(name: str) -> int:
    return regmap.find(name)


class SoftGenerator:
    """The packet generator behind the PKTGEN registers."""

    def __init__(self, ip: str, src_port: int, drop_every: int = 0) -> None:
        self.drop_every = drop_every  # > 0: lose every N-th datagram, as a bad link would
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 * 1024 * 1024)
        self.sock.bind((ip, src_port))
        self.port = self.sock.getsockname()[1]
        self.sent_packets = 0  # this run's (the generator's own count)
        self.sent_bytes = 0
        self.base_packets = 0  # earlier runs': the board's counters are not cleared by start
        self.base_bytes = 0
        self.ndest = 1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.t0 = time.perf_counter_ns()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(
        self,
        length: int,
        count: int,
        gap: int,
        dests: list[tuple[str, int]],
        mode: int,
        warmup_ms: int = 0,
    ) -> None:
        if self.running:
            return  # like the FPGA: start is ignored while running
        self.base_packets += self.sent_packets
        self.base_bytes += self.sent_bytes
        self.sent_packets = self.sent_bytes = 0
        self.ndest = len(dests)
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, args=(length, count, gap, dests, mode, warmup_ms), daemon=True
        )
        self._thread.start()

    @property
    def rounds(self) -> int:
        """Passes completed through the destination table (the ROUND registers)."""
        return self.sent_packets // max(self.ndest, 1)

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self.stop()
        if self._thread is not None:
            self._thread.join()
        self.sock.close()

    def _cycles(self) -> int:
        return (time.perf_counter_ns() - self.t0) * CLOCK_HZ // 1_000_000_000

    def _run(
        self,
        length: int,
        count: int,
        gap: int,
        dests: list[tuple[str, int]],
        mode: int,
        warmup_ms: int,
    ) -> None:
        lfsr = bool(mode & 1)
        fill = (mode >> 1) & 0xFF
        period = (gap + wire_bytes(length)) / CLOCK_HZ if gap else 0.0
        with contextlib.suppress(OSError):  # the socket closed under us: stop
            if warmup_ms:
                # like the FPGA: a zero-length primer to each destination, then the wait
                for d in dests:
                    with contextlib.suppress(BlockingIOError, ConnectionRefusedError):
                        self.sock.sendto(b"", d)
                if self._stop.wait(warmup_ms / 1000):
                    return
            if len(dests) == 1 and not lfsr and not gap and not self.drop_every:
                self._run_fast(length, count, dests[0], fill)
                return
            seq = [0] * len(dests)
            k = 0
            nxt = time.perf_counter()
            while not self._stop.is_set() and (count == 0 or self.sent_packets < count):
                d = k % len(dests)
                p = build_payload_fast(seq[d], self._cycles(), length, lfsr, fill)
                lose = self.drop_every > 0 and (k + 1) % self.drop_every == 0
                try:
                    if not lose:
                        self.sock.sendto(p, dests[d])
                except (BlockingIOError, ConnectionRefusedError):
                    pass  # like a wire: nobody listening is not the sender's problem
                seq[d] += 1
                k += 1
                self.sent_packets += 1
                self.sent_bytes += length
                if period:
                    nxt += period
                    while time.perf_counter() < nxt:
                        pass

    def _run_fast(self, length: int, count: int, dest: tuple[str, int], fill: int) -> None:
        self.sock.connect(dest)  # sendmmsg without addresses; sendto still overrides it
        sender = SeqSender(self.sock, length, fill)
        seq = 0
        while not self._stop.is_set() and (count == 0 or seq < count):
            n = 64 if count == 0 else min(64, count - seq)
            got = sender.send(seq, n, self._cycles())
            if got == 0:
                time.sleep(0.0001)
            seq += got
            self.sent_packets = seq
            self.sent_bytes = seq * length


class PktgenBus(ipbus.Bus):
    """Register bus of a stand-in board: the PKTGEN block is live, the rest is memory."""

    def __init__(self, gen: SoftGenerator, board: BoardAddr) -> None:
        self.gen = gen
        self.mem: dict[int, int] = {}
        self.width: dict[int, int] = {}
        for b, r in regmap.all_regs():
            self.mem[regmap.address(b, r)] = r.reset
            self.width[regmap.address(b, r)] = r.width
        self.mem[_a("NET.IPBUS_PORT")] = board.ipbus_port
        self.mem[_a("NET.ECHO_PORT")] = board.echo_port
        self.mem[_a("NET.PKTGEN_PORT")] = gen.port
        ip = struct_ip(board.ip)
        with contextlib.suppress(KeyError):
            self.mem[_a("NET.IP")] = ip
        self.lock = threading.Lock()

    def read(self, addr: int) -> tuple[str, int]:
        if addr == _a("PKTGEN.STATUS"):
            return "ok", int(self.gen.running)
        if addr == _a("PKTGEN.SENT_PACKETS"):
            return "ok", (self.gen.base_packets + self.gen.sent_packets) & 0xFFFFFFFF
        if addr == _a("PKTGEN.SENT_BYTES"):
            return "ok", (self.gen.base_bytes + self.gen.sent_bytes) & 0xFFFFFFFF
        if addr == _a("PKTGEN.ROUND_LO"):
            return "ok", self.gen.rounds & 0xFFFFFFFF
        if addr == _a("PKTGEN.ROUND_HI"):
            return "ok", (self.gen.rounds >> 32) & 0xFFFFFFFF
        if addr == _a("PKTGEN.CTRL"):
            return "err", 0
        if addr not in self.mem:
            return "err", 0
        return "ok", self.mem[addr]

    def write(self, addr: int, value: int) -> str:
        if addr == _a("PKTGEN.CTRL"):
            if value & 2:
                self.gen.stop()
            elif value & 1:
                self._start()
            return "ok"
        if addr not in self.mem or addr in _READ_ONLY():
            return "err"
        self.mem[addr] = value & ((1 << self.width[addr]) - 1)
        return "ok"

    def _start(self) -> None:
        m = self.mem
        n = m[_a("PKTGEN.NUM_DEST")] & 0x1F
        n = 1 if n == 0 or n > 16 else n
        dests = [
            (ip_str(m[_a(f"PKTGEN.DEST_IP{i}")]), m[_a(f"PKTGEN.DEST_PORT{i}")] & 0xFFFF)
            for i in range(n)
        ]
        self.gen.start(
            m[_a("PKTGEN.LENGTH")] & 0xFFFF,
            m[_a("PKTGEN.COUNT")],
            m[_a("PKTGEN.GAP")],
            dests,
            m[_a("PKTGEN.PAYLOAD")] & 0x1FF,
            m[_a("PKTGEN.WARMUP_MS")] & 0xFFFF,
        )


_RO: set[int] | None = None


def _READ_ONLY() -> set[int]:  # noqa: N802
    global _RO
    if _RO is None:
        _RO = {
            regmap.address(b, r)
            for b, r in regmap.all_regs()
            if r.kind in (regmap.CNT, regmap.STS, regmap.CONST)
        }
    return _RO


def struct_ip(ip: str) -> int:
    return int.from_bytes(socket.inet_aton(ip), "big")


def ip_str(v: int) -> str:
    return socket.inet_ntoa((v & 0xFFFFFFFF).to_bytes(4, "big"))


class Echo:
    """UDP echo: every datagram goes back to its sender unchanged (recvmmsg/sendmmsg)."""

    def __init__(self, ip: str, port: int) -> None:
        self.rx = Receiver((ip, port), rcvbuf=8 << 20)
        self.port = self.rx.port
        self.echoed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.echoed += self.rx.echo_batch(0.1)
            except OSError:
                if self._stop.is_set():
                    return

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.rx.close()


class SoftBoard:
    """One stand-in board: IPbus target with live PKTGEN registers, echo, generator."""

    def __init__(
        self,
        ip: str = "127.0.0.1",
        ipbus_port: int = 0,
        echo_port: int = 0,
        pktgen_port: int = 0,
        drop_every: int = 0,
    ) -> None:
        self.gen = SoftGenerator(ip, pktgen_port, drop_every)
        self.echo = Echo(ip, echo_port)
        addr = BoardAddr(ip, ipbus_port, self.echo.port, self.gen.port)
        self.bus = PktgenBus(self.gen, addr)
        self.server = ipbus.ModelServer(ipbus.TargetModel(self.bus), ip, ipbus_port)
        self.server.__enter__()
        addr.ipbus_port = self.server.address[1]
        self.bus.mem[_a("NET.IPBUS_PORT")] = addr.ipbus_port
        self.addr = addr

    def close(self) -> None:
        self.server.__exit__(None, None, None)
        self.echo.close()
        self.gen.close()

    def __enter__(self) -> SoftBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def loopback_ips(n: int, first: str = "127.0.0.1") -> list[str]:
    base = struct_ip(first)
    return [ip_str(base + i) for i in range(n)]


@contextlib.contextmanager
def standin(
    boards: int = 1,
    first_ip: str = "127.0.0.1",
    echo_port: int = 0,
    timeout: float = 20.0,
    drop_every: int = 0,
) -> Iterator[list[BoardAddr]]:
    """Run stand-in boards, one child process each (so that they answer in parallel and
    not under the caller's GIL); yield their addresses; stop them on exit."""
    env = dict(os.environ)
    host = str(Path(__file__).resolve().parent.parent.parent)
    env["PYTHONPATH"] = host + os.pathsep + env.get("PYTHONPATH", "")
    procs: list[subprocess.Popen] = []
    try:
        for ip in loopback_ips(boards, first_ip):
            cmd = [sys.executable, "-m", "wirecore.daq.peer", "--ip", ip]
            cmd += ["--echo-port", str(echo_port), "--drop-every", str(drop_every)]
            procs.append(
                subprocess.Popen(
                    cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
                )
            )
        out: list[BoardAddr] = []
        for p in procs:
            line = _ready_line(p, time.monotonic() + timeout)
            out += [BoardAddr(**b) for b in json.loads(line[6:])]
        yield out
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _ready_line(p: subprocess.Popen, deadline: float) -> str:
    assert p.stdout is not None
    line = ""
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if line.startswith("READY ") or not line:
            break
    if not line.startswith("READY "):
        p.kill()
        err = p.stderr.read() if p.stderr else ""
        raise RuntimeError(f"the stand-in did not start: {err.strip() or line.strip()}")
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m wirecore.daq.peer",
        description="Software stand-in for wirecore boards: IPbus-controlled packet "
        "generator (the FPGA payload format) and UDP echo, on loopback or any address.",
    )
    ap.add_argument("--ip", default="127.0.0.1", help="address of the first board")
    ap.add_argument("--boards", type=int, default=1, help="number of boards (consecutive IPs)")
    ap.add_argument("--ipbus-port", type=int, default=0, help="IPbus port (0: any free one)")
    ap.add_argument("--echo-port", type=int, default=0, help="echo port (0: any free one)")
    ap.add_argument("--pktgen-port", type=int, default=0, help="generator source port")
    ap.add_argument(
        "--drop-every",
        type=int,
        default=0,
        metavar="N",
        help="lose every N-th generated datagram (counted as sent), to test loss accounting",
    )
    args = ap.parse_args(argv)
    if not 1 <= args.boards <= 64:
        ap.error("--boards must be 1..64")
    if args.drop_every < 0:
        ap.error("--drop-every must be >= 0")
    for name in ("ipbus_port", "echo_port", "pktgen_port"):
        if not 0 <= getattr(args, name) <= 65535:
            ap.error(f"--{name.replace('_', '-')} must be 0..65535")
    try:
        socket.inet_aton(args.ip)
    except OSError:
        ap.error(f"--ip {args.ip!r} is not an IPv4 address")
    boards: list[SoftBoard] = []
    try:
        for ip in loopback_ips(args.boards, args.ip):
            boards.append(
                SoftBoard(ip, args.ipbus_port, args.echo_port, args.pktgen_port, args.drop_every)
            )
    except OSError as e:
        print(f"peer: cannot open the boards' sockets: {e}", file=sys.stderr)
        for b in boards:
            b.close()
        return 1
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print("READY " + json.dumps([asdict(b.addr) for b in boards]), flush=True)
    while not stop.wait(0.2):
        pass
    for b in boards:
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
