"""Volume test of udp_tx (all checksum modes, ARP, bad lengths) in Verilator, 8 and 64 bits.

Thousands of random datagrams (payload 0..1472 bytes and a few beyond the 2 KiB mode-1
buffer, modes 0/1/2, destination MAC given or looked up with ARP hits and misses,
payloads shorter or longer than hdr_len, tuser on the last beat) go through the RTL
compiled by Verilator (tests/unit/udp/fuzz/udp_tx_fuzz.cpp: random idle cycles on the
header and payload inputs, random output stalls, random ARP delays). An independent
Python model builds the expected frames byte for byte (IPv4 and UDP checksums from
RFC 1071 sums) and the expected counters; both must match exactly. Also built without
the mode-1 buffer (BUF_BYTES = 0, 8 bits): mode 1 then goes straight through with UDP
checksum 0 and the store-and-forward counters stay 0.
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass
from pathlib import Path

import pytest

from syn import verilator_build

HERE = Path(__file__).resolve().parent
SRC_MAC = 0x020000000001
SRC_IP = 0xC0000201
BUF = 2048


def build(dw: int, buf: int = BUF) -> Path:
    driver = HERE / "fuzz" / "udp_tx_fuzz.cpp"
    params = {"DATA_W": dw, "BUF_BYTES": buf}
    return verilator_build.build("udp_tx", [driver], params=params, defines={"DW": dw})


def ones_sum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


@dataclass
class Dg:
    mode: int
    mv: int
    mac: int
    ip: int
    sport: int
    dport: int
    length: int
    csum: int
    tuser: int
    hit: int
    amac: int
    pay: bytes

    def line(self) -> str:
        return (
            f"D {self.mode} {self.mv} {self.mac:012x} {self.ip:08x} {self.sport} {self.dport}"
            f" {self.length} {self.csum} {self.tuser} {self.hit} {self.amac:012x}"
            f" {self.pay.hex() or '-'}\n"
        )


def gen(rng: random.Random, n: int, max_size: int | None = None) -> list[Dg]:
    """``n`` random requests; with ``max_size``, payloads of 0..max_size bytes only (many
    datagrams in few cycles)."""
    out = []
    for _ in range(n):
        r = rng.random()
        size = rng.choice([0, 1, 2, 7, 8, 9, 42, rng.randrange(0, 1473)]) if r < 0.97 else 2100
        if max_size is not None:
            size = rng.randrange(0, max_size + 1)
        length = size
        k = rng.random()
        if k < 0.08:
            length = size + rng.choice([1, 2, 5, 9, 100])  # short payload
        elif k < 0.16 and size > 0:
            length = max(0, size - rng.choice([1, 2, 5, 8, 9, 64]))  # long payload
        mv = int(rng.random() < 0.8)
        out.append(
            Dg(
                mode=rng.choice([0, 1, 2]),
                mv=mv,
                mac=rng.getrandbits(48),
                ip=rng.getrandbits(32),
                sport=rng.getrandbits(16),
                dport=rng.getrandbits(16),
                length=length & 0xFFFF,
                csum=rng.getrandbits(16),
                tuser=int(rng.random() < 0.06),
                hit=int(rng.random() < 0.7),
                amac=rng.getrandbits(48),
                pay=bytes(rng.getrandbits(8) for _ in range(size)),
            )
        )
    return out


def beats(n: int, kw: int) -> int:
    return max(1, -(-n // kw))


def model(
    dgs: list[Dg], kw: int, buf: int = BUF
) -> tuple[list[tuple[int, bytes | None, bytes]], dict[str, int]]:
    """Expected frames (tuser, full bytes when good / None, header prefix) and counters.
    Without a buffer (buf = 0) mode 1 is sent with checksum 0 and nothing is stored."""
    cnt = dict.fromkeys(
        [
            "cnt_tx_frames",
            "cnt_tx_abort",
            "cnt_tx_long",
            "cnt_arp_miss",
            "cnt_sf_frames",
            "cnt_sf_overflow",
        ],
        0,
    )
    frames: list[tuple[int, bytes | None, bytes]] = []
    for ident, d in enumerate(dgs):
        pay, tuser = d.pay, d.tuser
        if d.mode == 1 and buf:
            cnt["cnt_sf_frames"] += 1
            if len(pay) > buf:
                cnt["cnt_sf_overflow"] += 1
                pay, tuser = pay[:buf], 1
        if not d.mv and not d.hit:
            cnt["cnt_arp_miss"] += 1
            continue
        n, ln = len(pay), d.length
        if n < ln:
            bad, long_ = True, False
        elif n == ln:
            bad, long_ = bool(tuser), False
        else:
            long_ = True
            # the beat that completes hdr_len is the payload's last: its tuser counts
            bad = bool(tuser) and beats(ln, kw) == beats(n, kw)
        cnt["cnt_tx_long"] += long_
        body = pay[:ln]
        dmac = d.mac if d.mv else d.amac
        ulen = ln + 8
        if d.mode == 0 or (d.mode == 1 and not buf):
            uc = 0
        elif d.mode == 2:
            uc = d.csum
        else:
            ph = struct.pack("!IIBBH", SRC_IP, d.ip, 0, 17, ulen)
            uh = struct.pack("!HHHH", d.sport, d.dport, ulen, 0)
            uc = (~ones_sum(ph + uh + body)) & 0xFFFF or 0xFFFF
        iph = struct.pack(
            "!BBHHHBBHII", 0x45, 0, ln + 28, ident & 0xFFFF, 0x4000, 64, 17, 0, SRC_IP, d.ip
        )
        ipc = (~ones_sum(iph)) & 0xFFFF
        iph = iph[:10] + struct.pack("!H", ipc) + iph[12:]
        eth = dmac.to_bytes(6, "big") + SRC_MAC.to_bytes(6, "big") + b"\x08\x00"
        udp = struct.pack("!HHHH", d.sport, d.dport, ulen, uc)
        hdr = eth + iph + udp
        if bad:
            cnt["cnt_tx_abort"] += 1
            frames.append((1, None, hdr[:40]))
        else:
            cnt["cnt_tx_frames"] += 1
            frames.append((0, hdr + body, hdr[:40]))
    return frames, cnt


@pytest.mark.parametrize(
    ("dw", "buf", "n", "max_size"),
    [
        (8, BUF, 1500, None),
        (64, BUF, 4000, None),
        (8, 0, 800, None),
        (8, BUF, 66000, 24),
        (64, BUF, 66000, 24),
    ],
    ids=["8", "64", "8-nobuf", "8-id-wrap", "64-id-wrap"],
)
def test_udp_tx_fuzz(dw: int, buf: int, n: int, max_size: int | None, tmp_path: Path) -> None:
    """``*-id-wrap``: more than 65,536 datagrams, so the identification wraps to 0."""
    exe = build(dw, buf)
    rng = random.Random(77 + dw + buf + (1 if max_size else 0))
    dgs = gen(rng, n, max_size)
    rq, fr = tmp_path / "req.txt", tmp_path / "frames.txt"
    rq.write_text("".join(d.line() for d in dgs))
    r = verilator_build.run(exe, rq, fr, 9, 0.1, 0.3, check=False)
    lines = fr.read_text().splitlines()
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr} {lines[-1:] if lines else ''}"
    got = [(int(ln.split()[1]), bytes.fromhex(ln.split()[2])) for ln in lines if ln[0] == "F"]
    counters = {ln.split()[1]: int(ln.split()[2]) for ln in lines if ln.startswith("C ")}
    exp, cnt = model(dgs, dw // 8, buf)
    for i, ((gu, gb), (eu, eb, prefix)) in enumerate(zip(got, exp, strict=False)):
        assert gu == eu, f"frame {i}: tuser {gu}, expected {eu}"
        if eb is not None:
            assert gb == eb, f"frame {i} differs:\n rtl   {gb[:80].hex()}\n model {eb[:80].hex()}"
        else:
            assert gb[:40] == prefix[: len(gb[:40])], f"aborted frame {i}: header differs"
    assert len(got) == len(exp)
    assert counters == cnt
