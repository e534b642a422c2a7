"""Test frames on a virtual board's TAP: a raw socket in the board's namespace, frames
that carry a sequence number, and receiving them (the harness's tests)."""

from __future__ import annotations

import random
import socket
import struct
import time

from wirecore import netns
from wirecore.vboard import VirtualBoard

ETH_P_ALL = 0x0003
SO_RCVBUFFORCE = 33  # <asm-generic/socket.h> (root: beyond net.core.rmem_max)
PACKET_OUTGOING = 4
ETYPE = 0x88B6  # test frames (reflected unchanged)
ETYPE_CMD = 0x88B5  # the fixture damages these on request
BOARD_MAC = bytes.fromhex("020000000002")


def raw_socket(board: VirtualBoard) -> socket.socket:
    s = netns.socket_in(board.cfg.ns, socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 16 << 20)  # bursts (our own frames too)
    s.bind((board.cfg.tap, 0))
    s.settimeout(0.5)
    return s


def tap_mac(board: VirtualBoard) -> bytes:
    out = netns.run(["ip", "-n", board.cfg.ns, "-o", "link", "show", board.cfg.tap])
    mac = out.split("link/ether ")[1].split()[0]
    return bytes.fromhex(mac.replace(":", ""))


def frame(src: bytes, length: int, seq: int, etype: int = ETYPE, rng: random.Random | None = None):
    """A frame of ``length`` bytes (header included, no FCS) carrying ``seq``."""
    rng = rng or random.Random(seq)
    head = BOARD_MAC + src + struct.pack("!H", etype)
    body = struct.pack("!I", seq) + bytes(rng.getrandbits(8) for _ in range(max(0, length - 18)))
    return (head + body)[:length]


def recv_frame(s: socket.socket, etype: int, timeout: float = 2.0) -> bytes | None:
    """The next incoming frame of ``etype`` (frames we sent ourselves are skipped)."""
    t_end = time.monotonic() + timeout
    while time.monotonic() < t_end:
        try:
            data, addr = s.recvfrom(65536)
        except TimeoutError:
            continue
        if addr[2] == PACKET_OUTGOING:
            continue
        if len(data) >= 14 and struct.unpack("!H", data[12:14])[0] == etype:
            return data
    return None
