"""Which address the phones are told to open: the LAN address of a real interface, the request's own, or the configured one."""

from __future__ import annotations

import pytest

from companion.web import hosting
from companion.server.announce import announcement
from companion.web.hosting import Interface, best_address, is_loopback, served_root

LOOPBACK = Interface("lo", ("127.0.0.1",), flags=frozenset({"up", "loopback", "running"}))
DOCKER = Interface("docker0", ("172.17.0.1",))
WIFI = Interface("wlan0", ("192.168.1.20",))


@pytest.mark.parametrize("machine, expected", [
    # A laptop on the home Wi-Fi with Docker running: the Wi-Fi address, not Docker's bridge.
    ([LOOPBACK, DOCKER, WIFI], "192.168.1.20"),
    # macOS: Wi-Fi on en0, Apple's peer-to-peer link, a VPN tunnel.
    ([Interface("lo0", ("127.0.0.1",), flags=frozenset({"loopback"})), Interface("en0", ("10.0.0.12",)),
      Interface("awdl0", ()), Interface("utun3", ("100.96.0.7",))], "10.0.0.12"),
    # A private range beats any other address, whatever the order.
    ([Interface("eth0", ("203.0.113.5",)), Interface("eth1", ("10.1.2.3",))], "10.1.2.3"),
    # 192.168 beats 10 beats 172.16-31 (Docker-like ranges come last among the private ones).
    ([Interface("eth0", ("172.20.0.4",)), Interface("eth1", ("10.1.2.3",)), Interface("eth2", ("192.168.0.9",))],
     "192.168.0.9"),
    # No private address at all (a carrier-grade NAT, a lab network): any routable one still beats none.
    ([LOOPBACK, Interface("eth0", ("100.64.3.2",))], "100.64.3.2"),
    # A link-local address (no DHCP answered) is nobody's way in.
    ([LOOPBACK, Interface("en0", ("169.254.10.20",))], None),
    # An interface that is down, a point-to-point tunnel, a VM bridge: skipped.
    ([Interface("wlan0", ("192.168.1.20",), up=False), Interface("ppp0", ("10.8.0.2",), flags=frozenset({"pointopoint"})),
      Interface("virbr0", ("192.168.122.1",)), Interface("br-5f2a", ("172.18.0.1",))], None),
    # Only the machine itself.
    ([LOOPBACK], None),
    ([], None),
])
def test_the_lan_address_is_a_real_interfaces_private_address(machine, expected):
    assert best_address(machine) == expected


def test_without_a_lan_address_the_host_name_is_used(monkeypatch):
    monkeypatch.setattr(hosting, "interfaces", lambda: [LOOPBACK])
    monkeypatch.setattr(hosting.socket, "gethostname", lambda: "laptop.local")
    monkeypatch.setattr(hosting, "_lan", None)
    assert hosting.lan_address() == "laptop.local"


def test_the_machines_own_interfaces_are_read(monkeypatch):
    # Whatever this machine has, the answer is one of its own addresses or its name, never loopback.
    monkeypatch.setattr(hosting, "_lan", None)
    address = hosting.lan_address()
    assert address and not is_loopback(address)
    assert address in {a for i in hosting.interfaces() for a in i.addresses} | {hosting.socket.gethostname()}


@pytest.mark.parametrize("host, loopback", [
    ("localhost", True), ("LOCALHOST", True), ("app.localhost", True), ("127.0.0.1", True), ("127.1.2.3", True),
    ("::1", True), ("[::1]", True), ("0.0.0.0", True),
    ("192.168.1.20", False), ("scores.example.org", False), ("laptop.local", False), ("fd00::2", False),
])
def test_loopback_names(host, loopback):
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("bound, public, expected", [
    ("0.0.0.0", None, "http://192.168.1.20:8000/"),
    ("::", None, "http://192.168.1.20:8000/"),
    ("127.0.0.1", None, "http://127.0.0.1:8000/"),
    ("::1", None, "http://[::1]:8000/"),
    ("10.0.0.12", None, "http://10.0.0.12:8000/"),
    ("0.0.0.0", "https://scores.example.org", "https://scores.example.org/"),
    ("0.0.0.0", "https://example.org/scores/", "https://example.org/scores/"),
])
def test_what_a_server_tells_the_phones(monkeypatch, bound, public, expected):
    monkeypatch.setattr(hosting, "lan_address", lambda: "192.168.1.20")
    assert served_root("http", bound, 8000, public) == expected


def test_a_server_on_loopback_says_the_phones_cannot_reach_it():
    said = announcement("http://127.0.0.1:8000/", local_only=True, with_qr=True)
    assert "this machine only" in said and "phones cannot reach it" in said and "\x1b[" not in said


def test_the_qr_code_is_drawn_for_a_terminal_only():
    in_a_log = announcement("http://192.168.1.20:8000/", local_only=False, with_qr=False)
    assert "Phones at the table open: http://192.168.1.20:8000/" in in_a_log and "█" not in in_a_log
    on_a_terminal = announcement("http://192.168.1.20:8000/", local_only=False, with_qr=True)
    assert on_a_terminal.count("█") > 100


@pytest.mark.parametrize("bound, expected", [
    (None, "192.168.1.20"),                       # not told (flask run, a test's client): as if everywhere
    (("0.0.0.0",), "192.168.1.20"),
    (("::",), "192.168.1.20"),
    (("127.0.0.1", "0.0.0.0"), "192.168.1.20"),
    (("127.0.0.1",), None),                       # HOST=127.0.0.1: no phone reaches it
    (("::1", "127.0.0.1"), None),
    (("127.0.0.1", "10.0.0.12"), "10.0.0.12"),    # the one network address it listens on
    ((), None),                                   # a Unix socket alone, behind a proxy
])
def test_the_network_host_is_where_the_server_listens(monkeypatch, bound, expected):
    monkeypatch.setattr(hosting, "lan_address", lambda: "192.168.1.20")
    assert hosting.network_host(bound) == expected
