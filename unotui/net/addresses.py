"""The addresses other people should type to join this host, found without any traffic;
and what to tell a person when a socket cannot connect or listen.

The usual trick (connect a UDP socket towards a public address and read the local end)
asks the routing table about the outside world; a host on an offline LAN has no such
route, and a game must not touch the network before anyone asked it to.  Instead we read
the addresses of the local interfaces: IPv4 through the ``SIOCGIFADDR`` ioctl on each
interface name, IPv6 from ``/proc/net/if_inet6`` (Linux); elsewhere we fall back to the
addresses the system resolver knows for this host's own name from local files.
Loopback and link-local addresses come last (they only work on this machine or link).
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import socket
import struct
import sys
from pathlib import Path

__all__ = ["DEFAULT_PORT", "join_hints", "listen_error", "local_addresses", "split_address", "unreachable"]

#: the port a LAN host listens on unless told otherwise
DEFAULT_PORT = 7777

_SIOCGIFADDR = 0x8915


def _ipv4_by_ioctl() -> list[str]:
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            packed = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, packed)
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _ipv6_from_proc() -> list[str]:
    path = Path("/proc/net/if_inet6")
    found: list[str] = []
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            raw = line.split()[0] if line.split() else ""
            if len(raw) == 32:
                found.append(str(ipaddress.IPv6Address(bytes.fromhex(raw))))
    return found


def _by_name() -> list[str]:
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, flags=socket.AI_ADDRCONFIG)
        return [str(info[4][0]) for info in infos]
    return []


def _rank(address: str) -> tuple[int, int, str]:
    ip = ipaddress.ip_address(address.split("%")[0])
    local = ip.is_loopback or ip.is_link_local
    return (1 if local else 0, ip.version, address)


def local_addresses() -> list[str]:
    """This machine's addresses, the ones others can reach first (no network traffic)."""
    found = _ipv4_by_ioctl() + _ipv6_from_proc()
    if not found:
        found = _by_name()
    unique = {a for a in found if a}
    return sorted(unique, key=_rank)


def join_hints(bind: str, port: int) -> list[str]:
    """What to tell others to type, for a host bound to ``bind`` on ``port``."""
    if bind in ("", "0.0.0.0", "::"):
        addresses = local_addresses() or ["127.0.0.1"]
        if bind == "0.0.0.0":
            addresses = [a for a in addresses if ":" not in a]
    else:
        addresses = [bind]
    hints = []
    for address in addresses:
        if address.startswith("fe80:"):
            continue  # link-local IPv6 needs an interface scope nobody wants to type
        host = f"[{address}]" if ":" in address else address
        hints.append(f"unotui join {host}" + ("" if port == DEFAULT_PORT else f":{port}"))
    return hints


def split_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[v6]`` or ``[v6]:PORT`` -> (host, port).

    Raises:
        ValueError: with a sentence saying what is wrong.
    """
    text = text.strip()
    if not text:
        raise ValueError("give the host's address, e.g. 192.168.1.20 or 192.168.1.20:7777")
    host, port_text = text, ""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError(f"{text!r}: an IPv6 address in brackets needs its closing ]")
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"{text!r}: expected :PORT after the ]")
            port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    elif ":" in text and not _is_ipv6(text):
        raise ValueError(f"{text!r}: one :PORT at most (an IPv6 address goes in brackets: [fd00::2]:7777)")
    if not host:
        raise ValueError(f"{text!r}: give the host's name or address before the :PORT")
    if not host.isprintable() or any(ch.isspace() for ch in host):
        raise ValueError(f"{host!r}: an address has no spaces, e.g. 192.168.1.20 or myhost.lan")
    if not port_text:
        return host, default_port
    if not port_text.isascii() or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{port_text!r} is not a port number (1-65535)")
    return host, int(port_text)


def _is_ipv6(text: str) -> bool:
    try:
        return ipaddress.ip_address(text.split("%")[0]).version == 6
    except ValueError:
        return False


def listen_error(exc: OSError, options: str = "--port") -> str:
    """Why a port could not be listened on, and what to change (``options``: the flags
    that choose the ports)."""
    if exc.errno == errno.EADDRINUSE:
        return f"the port is in use (another unotui host, or another program); choose another with {options}"
    if exc.errno == errno.EACCES:
        return f"not allowed (ports below 1024 need privileges); choose another with {options}"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address; check --bind"
    return exc.strerror or str(exc)


def unreachable(exc: BaseException) -> str:
    """Why a connection failed, in words a player can act on (the error's name last, for
    whoever helps them)."""
    if isinstance(exc, ConnectionRefusedError):
        why = "nothing is listening there; is the game hosted (unotui host), and on that port?"
    elif isinstance(exc, socket.gaierror):
        why = "that host name is not known here; check the address"
    elif isinstance(exc, TimeoutError):
        why = "no answer; check the address, and that a firewall lets the port through"
    else:
        why = (exc.strerror or str(exc) or "the network failed") if isinstance(exc, OSError) else str(exc)
    return f"{why} ({type(exc).__name__})"
