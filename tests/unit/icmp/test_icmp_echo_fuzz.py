"""Volume test of icmp_echo in Verilator, 8 and 64 bits.

Thousands of ICMP messages (echo requests of 0..1472 data bytes with good and bad
checksums, other types, broadcasts, other protocols, messages shorter than 8 bytes,
tuser on the last beat) go through the RTL compiled by Verilator
(tests/unit/icmp/fuzz/icmp_echo_fuzz.cpp: random idle cycles on the header and message
inputs, random output stalls). An independent Python model builds every expected reply
byte for byte (IPv4 checksum from an RFC 1071 sum; ICMP checksum by RFC 1624 eqn. 3, and
the reply must verify) and the expected counters. A request with a bad ICMP checksum (and
no tuser) is discarded (RFC 1122): no frame at all when its message is under 26 bytes
(answered only once buffered whole), an aborted frame (tuser) otherwise; counted in
cnt_bad_csum. tuser takes precedence: such a request's reply is aborted, in cnt_aborted.
"""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

from syn import verilator_build

HERE = Path(__file__).resolve().parent
OUR_MAC = 0x020000000001


def build(dw: int) -> Path:
    driver = HERE / "fuzz" / "icmp_echo_fuzz.cpp"
    return verilator_build.build("icmp_echo", [driver], params={"DATA_W": dw}, defines={"DW": dw})


def ones_sum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def icmp_msg(rng: random.Random, itype: int, ndata: int, good_csum: bool) -> bytes:
    body = bytes([itype, 0, 0, 0]) + rng.getrandbits(32).to_bytes(4, "big")
    body += bytes(rng.getrandbits(8) for _ in range(ndata))
    c = (~ones_sum(body)) & 0xFFFF if good_csum else rng.getrandbits(16)
    return body[:2] + c.to_bytes(2, "big") + body[4:]


def gen(rng: random.Random, n: int) -> list[tuple[int, int, int, int, int, int, bytes]]:
    out = []
    for _ in range(n):
        k = rng.random()
        ndata = rng.choice([0, 1, 2, 3, 7, 8, 56, rng.randrange(0, 1473)])
        if k < 0.75:
            msg = icmp_msg(rng, 8, ndata, True)
        elif k < 0.82:
            msg = icmp_msg(rng, 8, ndata, False)
        elif k < 0.9:
            msg = icmp_msg(rng, rng.choice([0, 3, 11, 13, 9]), ndata, True)
        else:
            msg = bytes([8]) + bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 8)))
        bcast = int(rng.random() < 0.04)
        proto = 1 if rng.random() < 0.97 else 17
        tuser = int(rng.random() < 0.05)
        out.append(
            (
                bcast,
                proto,
                tuser,
                rng.getrandbits(48),
                rng.getrandbits(32),
                rng.getrandbits(32),
                msg,
            )
        )
    return out


def upd(hc: int) -> int:
    """RFC 1624 eqn. 3 for the type change 8 -> 0: HC' = ~(~HC + ~m + m')."""
    s = ((~hc) & 0xFFFF) + 0xF7FF
    s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def model(reqs: list[tuple[int, int, int, int, int, int, bytes]]) -> tuple[list, dict[str, int]]:
    cnt = {"cnt_replies": 0, "cnt_aborted": 0, "cnt_dropped": 0, "cnt_bad_csum": 0}
    frames = []
    for ident, (bcast, proto, tuser, mac, sip, dip, msg) in enumerate(reqs):
        if len(msg) < 8 or bcast or proto != 1 or msg[0] != 8:
            cnt["cnt_dropped"] += 1
            continue
        hc = int.from_bytes(msg[2:4], "big")
        rep = bytes([0, msg[1]]) + upd(hc).to_bytes(2, "big") + msg[4:]
        good = ones_sum(msg) == 0xFFFF
        if good:
            assert ones_sum(rep) == 0xFFFF
        elif not tuser:
            cnt["cnt_bad_csum"] += 1
            if len(msg) < 26:
                continue
        iph = struct.pack(
            "!BBHHHBBHII", 0x45, 0, len(msg) + 20, ident & 0xFFFF, 0, 64, 1, 0, dip, sip
        )
        iph = iph[:10] + struct.pack("!H", (~ones_sum(iph)) & 0xFFFF) + iph[12:]
        frame = mac.to_bytes(6, "big") + OUR_MAC.to_bytes(6, "big") + b"\x08\x00" + iph + rep
        if tuser:
            cnt["cnt_aborted"] += 1
        elif good:
            cnt["cnt_replies"] += 1
        frames.append((int(tuser or not good), frame))
    return frames, cnt


@pytest.mark.parametrize("dw", [8, 64])
def test_icmp_echo_fuzz(dw: int, tmp_path: Path) -> None:
    exe = build(dw)
    rng = random.Random(31 + dw)
    reqs = gen(rng, 1500 if dw == 8 else 4000)
    rq, fr = tmp_path / "req.txt", tmp_path / "frames.txt"
    rq.write_text(
        "".join(
            f"R {b} {p} {t} {m:012x} {s:08x} {d:08x} {msg.hex() or '-'}\n"
            for b, p, t, m, s, d, msg in reqs
        )
    )
    r = verilator_build.run(exe, rq, fr, 5, 0.1, 0.3, check=False)
    lines = fr.read_text().splitlines()
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr} {lines[-1:] if lines else ''}"
    got = [(int(ln.split()[1]), bytes.fromhex(ln.split()[2])) for ln in lines if ln[0] == "F"]
    counters = {ln.split()[1]: int(ln.split()[2]) for ln in lines if ln.startswith("C ")}
    exp, cnt = model(reqs)
    for i, ((gu, gb), (eu, eb)) in enumerate(zip(got, exp, strict=False)):
        assert gu == eu, f"reply {i}: tuser {gu}, expected {eu}"
        if eu == 0:
            assert gb == eb, f"reply {i} differs:\n rtl   {gb[:80].hex()}\n model {eb[:80].hex()}"
        else:
            assert gb[:34] == eb[:34], f"aborted reply {i}: header differs"
    assert len(got) == len(exp)
    assert counters == cnt
