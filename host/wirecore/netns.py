"""Linux network namespaces for the virtual board: create, delete, run commands, sockets.

Everything here needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN). :func:`require_root` raises
:class:`NetnsError` with what to do otherwise.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import socket
import subprocess
from collections.abc import Iterator, Sequence

CLONE_NEWNET = 0x40000000
NETNS_DIR = "/run/netns"


class NetnsError(RuntimeError):
    """A namespace or interface operation failed (message says what and why)."""


def require_root(what: str = "the virtual board") -> None:
    """Raise NetnsError unless running as root (TAP devices and namespaces need it)."""
    if os.geteuid() != 0:
        raise NetnsError(
            f"{what} needs root: it creates a network namespace and a TAP interface, and "
            "/dev/net/tun is mode 0600 on this machine. Run it as root "
            "(e.g. `sudo .venv/bin/wirecore board up`)."
        )
    if not os.path.exists("/dev/net/tun"):
        raise NetnsError("/dev/net/tun is missing: load the tun module (`modprobe tun`).")


def run(cmd: Sequence[str], check: bool = True, timeout: float = 30.0) -> str:
    """Run a command, return its stdout; raise NetnsError with its stderr on failure."""
    try:
        r = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError as e:
        raise NetnsError(f"{cmd[0]}: not installed ({e})") from e
    except subprocess.TimeoutExpired as e:
        raise NetnsError(f"{' '.join(cmd)}: timed out after {timeout} s") from e
    if check and r.returncode != 0:
        raise NetnsError(f"{' '.join(cmd)} failed: {r.stderr.strip() or r.stdout.strip()}")
    return r.stdout


def exists(ns: str) -> bool:
    return os.path.exists(os.path.join(NETNS_DIR, ns))


def create(ns: str) -> None:
    """Create namespace ``ns`` with IPv6 disabled (before any interface) and lo up."""
    if exists(ns):
        raise NetnsError(f"network namespace {ns} exists already (`ip netns del {ns}`?)")
    run(["ip", "netns", "add", ns])
    try:
        # IPv6 off before any interface exists, or Linux sends MLD, DAD and RS on the link.
        run(["ip", "netns", "exec", ns, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1"])
        run(
            [
                "ip",
                "netns",
                "exec",
                ns,
                "sysctl",
                "-q",
                "-w",
                "net.ipv6.conf.default.disable_ipv6=1",
            ]
        )
        run(["ip", "-n", ns, "link", "set", "lo", "up"])
    except NetnsError:
        delete(ns)
        raise


def delete(ns: str) -> None:
    """Delete namespace ``ns`` (and the interfaces in it); no error if it is not there."""
    if exists(ns):
        run(["ip", "netns", "del", ns], check=False)


def add_tap(ns: str, tap: str, mtu: int | None = None) -> None:
    """A persistent TAP ``tap`` in ``ns`` (it outlives the program attached to it)."""
    run(["ip", "-n", ns, "tuntap", "add", "dev", tap, "mode", "tap"])
    if mtu:
        run(["ip", "-n", ns, "link", "set", tap, "mtu", str(mtu)])


def exec_cmd(ns: str, cmd: Sequence[str]) -> list[str]:
    """The argv that runs ``cmd`` inside namespace ``ns``."""
    return ["ip", "netns", "exec", ns, *cmd]


_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


@contextlib.contextmanager
def entered(ns: str) -> Iterator[None]:
    """Run the body with the calling thread inside namespace ``ns``, then come back.

    Sockets created inside stay in ``ns`` for their whole life.
    """
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    target = os.open(os.path.join(NETNS_DIR, ns), os.O_RDONLY)
    try:
        if _libc.setns(target, CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise NetnsError(f"setns into {ns}: {os.strerror(err)}")
        try:
            yield
        finally:
            if _libc.setns(own, CLONE_NEWNET) != 0:
                err = ctypes.get_errno()
                raise NetnsError(f"setns back from {ns}: {os.strerror(err)}")
    finally:
        os.close(own)
        os.close(target)


def socket_in(
    ns: str, family: int = socket.AF_INET, type: int = socket.SOCK_DGRAM, proto: int = 0
) -> socket.socket:
    """A socket that lives in namespace ``ns``."""
    with entered(ns):
        return socket.socket(family, type, proto)


def enter(ns: str) -> None:
    """Move the calling thread into namespace ``ns`` for good (threads it starts follow).

    Call it early, on the main thread, before any other thread exists, so that the whole
    program (sockets, uHAL, subprocesses) lives in the board's network.
    """
    target = os.open(os.path.join(NETNS_DIR, ns), os.O_RDONLY)
    try:
        if _libc.setns(target, CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise NetnsError(f"setns into {ns}: {os.strerror(err)}")
    finally:
        os.close(target)
