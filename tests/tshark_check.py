"""tshark as the independent checker of captures: runs its expert analysis over a pcap
with the IPv4 and UDP checksum checks on (ICMP's are always checked) and fails on a
malformed frame or a bad checksum (strict: on any expert warning)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def assert_tshark_clean(pcap: Path | str, *options: str, strict: bool = False) -> None:
    """tshark reads ``pcap`` with ``options`` added (decode-as rules, preferences) and
    reports no malformed frame and no bad checksum; ``strict``: no expert item of warning
    level or above at all."""
    r = subprocess.run(
        [
            "tshark",
            "-r",
            str(pcap),
            "-q",
            "-z",
            "expert,warn",
            "-o",
            "ip.check_checksum:TRUE",
            "-o",
            "udp.check_checksum:TRUE",
            *options,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    text = r.stdout.lower()
    assert "malformed" not in text, r.stdout[-2000:]
    assert "bad checksum" not in text and "incorrect" not in text, r.stdout[-2000:]
    if strict:
        assert "errors (" not in text and "warns (" not in text, r.stdout[-2000:]
