"""Which address the phones at the table open: the configured one, else this machine's address on the home network.

A host opening the app as ``localhost`` gets the same page as everyone, but a
QR code of ``localhost`` would send each phone to itself. So a page opened
through a loopback name shows the machine's LAN address instead (same scheme,
same port), as long as the server listens there; a server listening on
loopback alone (``HOST=127.0.0.1 make run``) shows loopback's address, the
only one where anything answers. A page opened by any other name (a phone that
came by the LAN address, a reverse proxy's name) shows its own URL root.
``PUBLIC_URL`` (``COMPANION_PUBLIC_URL``) overrides them all, and is what `make
run` prints. Where the server listens is told by gunicorn's worker once it
starts (``listening_on``); an app no server told (``flask run``, a test's
client) takes it to listen everywhere.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import psutil
from flask import Flask, current_app, request, url_for

# Interfaces whose addresses no phone on the Wi-Fi can reach: container and VM bridges, VPN tunnels,
# Apple's peer-to-peer links. Matched on the start of the name, case-insensitively.
VIRTUAL_PREFIXES = (
    "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "vethernet", "cni", "flannel", "cali", "podman",
    "lxc", "lxdbr", "incusbr", "tun", "tap", "utun", "wg", "tailscale", "zt", "ham", "awdl", "llw", "bridge",
)
# Home routers hand out 192.168.x.x most often, then 10.x.x.x; Docker's default bridge is 172.17.x.x.
PRIVATE_RANGES = [ipaddress.ip_network(n) for n in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")]
LAN_CACHE_SECONDS = 10.0


@dataclass(frozen=True)
class Interface:
    """One network interface as the operating system lists it: name, IPv4 addresses, state."""

    name: str
    addresses: tuple[str, ...]
    up: bool = True
    flags: frozenset[str] = frozenset()


def interfaces() -> list[Interface]:
    """This machine's network interfaces with their IPv4 addresses (asked of the OS, nothing sent)."""
    stats = psutil.net_if_stats()
    found = []
    for name, addresses in psutil.net_if_addrs().items():
        state = stats.get(name)
        found.append(Interface(
            name=name,
            addresses=tuple(a.address for a in addresses if a.family == socket.AF_INET),
            up=state.isup if state else True,
            flags=frozenset(state.flags.split(",")) if state and state.flags else frozenset(),
        ))
    return found


def _rank(address: str) -> int | None:
    """0-2 for the private ranges in order of likeliness, 3 for any other routable address, None to skip."""
    ip = ipaddress.ip_address(address)
    if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
        return None
    return next((rank for rank, network in enumerate(PRIVATE_RANGES) if ip in network), len(PRIVATE_RANGES))


def best_address(found: Iterable[Interface]) -> str | None:
    """The IPv4 address phones on the same network most likely reach this machine by, if any."""
    candidates = []
    for interface in found:
        if (not interface.up or "loopback" in interface.flags or "pointopoint" in interface.flags
                or interface.name.lower().startswith(VIRTUAL_PREFIXES)):
            continue
        for address in interface.addresses:
            if (rank := _rank(address)) is not None:
                candidates.append((rank, len(candidates), address))
    return min(candidates)[2] if candidates else None


_lan: tuple[float, str] | None = None


def lan_address() -> str:
    """This machine's address on the home network, else its host name; asked of the OS at most every 10 s."""
    global _lan
    now = time.monotonic()
    if _lan is None or now - _lan[0] > LAN_CACHE_SECONDS:
        _lan = (now, best_address(interfaces()) or socket.gethostname())
    return _lan[1]


def is_loopback(host: str) -> bool:
    """Whether a host name or address (IPv6 with or without brackets) means this machine only."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def url_root(scheme: str, host: str, port: int | None, path: str = "") -> str:
    """``scheme://host[:port]path/``, with an IPv6 address in brackets."""
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port is None else f"{host}:{port}"
    return f"{scheme}://{netloc}{path.rstrip('/')}/"


# A socket bound to one of these listens on every interface of the machine.
EVERY_INTERFACE = ("", "0.0.0.0", "::")
LISTENING = "companion.listening"


def network_host(bound: Iterable[str] | None) -> str | None:
    """The host phones on the network open for a server listening on ``bound`` (hosts; None: not told):
    the machine's LAN address when it listens on every interface, else the first address it listens on
    that is not loopback; None when it listens on loopback alone, where no phone reaches it."""
    if bound is None:
        return lan_address()
    bound = list(bound)
    if any(host in EVERY_INTERFACE for host in bound):
        return lan_address()
    return next((host for host in bound if not is_loopback(host)), None)


def listening_on(app: Flask, hosts: Iterable[str]) -> None:
    """Tell ``app`` the hosts its server's sockets are bound to (gunicorn's worker, once started)."""
    app.extensions[LISTENING] = tuple(hosts)


def served_root(scheme: str, bound_host: str, port: int, public_url: str | None = None) -> str:
    """The root a server bound to ``bound_host:port`` should tell the phones to open."""
    if public_url:
        return public_url.rstrip("/") + "/"
    return url_root(scheme, network_host((bound_host,)) or bound_host, port)


def phone_root() -> str:
    """The URL root the phones open, for the page of this request (see the module's docstring)."""
    if public := current_app.config.get("PUBLIC_URL"):
        return public.rstrip("/") + "/"
    try:
        asked = urlsplit("//" + request.host)
        host, port = asked.hostname, asked.port
    except ValueError:  # a Host header with a port that is not a number
        return request.url_root
    if host is None or not is_loopback(host):
        return request.url_root
    network = network_host(current_app.extensions.get(LISTENING))
    if network is None:  # listening on loopback alone: the machine's own address is the only one that answers
        return request.url_root
    return url_root(request.scheme, network, port, request.script_root)


def phone_url(endpoint: str, **values) -> str:
    """``url_for`` for an address a phone opens: the join link and its QR code."""
    path = url_for(endpoint, **values)[len(request.script_root):]
    return phone_root().rstrip("/") + path
