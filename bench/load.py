"""A small HTTP/1.1 load generator on asyncio: keep-alive connections, latencies in milliseconds.

Two kinds of load: closed loop (N connections, each sending its next request
as soon as the answer came: throughput) and open loop (phones polling on a
clock and entries at a fixed rate: latency at a given load). Several client
processes share the work so the generator is not the bottleneck's single
core. Only ever aimed at 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import re
import statistics
import time
import urllib.parse
from dataclasses import dataclass, field

from .protocol import Phone

PROCESSES = 2
REFUSAL = re.compile(rb'class="error[^"]*"[^>]*>([^<]+)<')


@dataclass
class Result:
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict = field(default_factory=dict)
    seconds: float = 0.0
    late_ms: list[float] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    # The night's latencies by answer ("204", "200", "POST 303"…): where a tail comes from.
    by_status: dict = field(default_factory=dict)

    def merge(self, other: "Result") -> "Result":
        self.latencies_ms += other.latencies_ms
        self.late_ms += other.late_ms
        self.refusals += other.refusals
        self.errors += other.errors
        for status, latencies in other.by_status.items():
            self.by_status.setdefault(status, []).extend(latencies)
        for status, count in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + count
        self.seconds = max(self.seconds, other.seconds)
        return self

    @property
    def throughput(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float, status: str | None = None) -> float:
        """The p-th percentile of the latencies, of the answers with ``status`` only if given."""
        latencies = self.latencies_ms if status is None else self.by_status.get(status, [])
        if not latencies:
            return float("nan")
        ordered = sorted(latencies)
        return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

    def note(self, status: str, latency_ms: float) -> None:
        """One answer of the night: its latency, counted in all and by its status."""
        self.latencies_ms.append(latency_ms)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.by_status.setdefault(str(status), []).append(latency_ms)


class Connection:
    """One keep-alive connection: GET and POST, answers read whole."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader = self.writer = None
        # A request under way (one at a time on a connection: its answer is read whole before the next).
        self.busy = False

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, headers: dict | None = None,
                      body: bytes = b"") -> tuple[int, dict, bytes]:
        """Send and read the answer; a kept-alive connection the server closed meanwhile is reopened once, as browsers do."""
        reused = self.writer is not None
        try:
            return await self._request(method, path, headers, body)
        except (OSError, asyncio.IncompleteReadError):
            if not reused:
                raise
            return await self._request(method, path, headers, body)

    async def _request(self, method: str, path: str, headers: dict | None, body: bytes) -> tuple[int, dict, bytes]:
        if self.writer is None:
            await self.open()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except BaseException:
            self.close()
            raise
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        answer = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                answer.setdefault(name.strip().lower(), value.strip())
        if answer.get("transfer-encoding") == "chunked":
            data = bytearray()
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                data += await self.reader.readexactly(size + 2)
                if size == 0:
                    break
            payload = bytes(data)
        else:
            payload = await self.reader.readexactly(int(answer.get("content-length", 0)))
        if answer.get("connection", "").lower() == "close":
            self.close()
        return status, answer, payload

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def _split(url: str) -> tuple[str, int]:
    parts = urllib.parse.urlsplit(url)
    assert parts.hostname == "127.0.0.1", "load is only ever sent to 127.0.0.1"
    return parts.hostname, parts.port


# --- closed loop: throughput ---------------------------------------------------

async def _closed(base: str, paths: list[str], connections: int, seconds: float, headers: dict,
                  ok: set[int]) -> Result:
    host, port = _split(base)
    result = Result()
    deadline = time.perf_counter() + seconds

    async def client(number: int) -> None:
        connection = Connection(host, port)
        index = number
        while time.perf_counter() < deadline:
            path = paths[index % len(paths)]
            index += 1
            started = time.perf_counter()
            try:
                status, _, _ = await connection.request("GET", path, headers)
            except (OSError, asyncio.IncompleteReadError):
                result.errors += 1
                connection.close()
                continue
            result.latencies_ms.append((time.perf_counter() - started) * 1000)
            result.statuses[status] = result.statuses.get(status, 0) + 1
            if status not in ok:
                result.errors += 1
        connection.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(connections)))
    result.seconds = time.perf_counter() - started
    return result


def _closed_process(args) -> Result:
    return asyncio.run(_closed(*args))


def closed_loop(base: str, paths: list[str], connections: int = 8, seconds: float = 4.0,
                headers: dict | None = None, ok: set[int] = frozenset({200})) -> Result:
    """N keep-alive connections, each firing its next GET as soon as it has the answer."""
    per_process = max(1, connections // PROCESSES)
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        parts = pool.map(_closed_process, [(base, paths, per_process, seconds, headers or {}, set(ok))] * PROCESSES)
    total = Result()
    for part in parts:
        total.merge(part)
    return total


# --- open loop: a table night ----------------------------------------------------

@dataclass
class Night:
    """What one client process plays: its phones' poll paths and its share of the entries."""

    base: str
    phones: list[tuple[Phone, str]]  # each phone's live poll (read from its page) and session cookie
    poll_every: float
    writers: list[dict]  # each: {"path", "cookie", "form": dict, "flip": (name, a, b)}
    entries_per_second: float
    seconds: float


async def _night(plan: Night) -> Result:
    host, port = _split(plan.base)
    result = Result()
    start = time.perf_counter() + 0.5
    end = start + plan.seconds

    async def poll(phone: Phone, cookie: str) -> None:
        connection = Connection(host, port)
        headers = {"HX-Request": "true", "Cookie": cookie}
        # Phones do not poll in step: each starts at its own moment within the first second.
        due = start + random.random() * plan.poll_every
        while due < end:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            sent = time.perf_counter()
            result.late_ms.append((sent - due) * 1000)
            try:
                status, _, body = await connection.request("GET", phone.poll_path(), headers)
            except (OSError, asyncio.IncompleteReadError):
                result.errors += 1
                connection.close()
            else:
                # As static/app.js: the next poll asks with the data-seen of the region now shown.
                phone.answered(status, body)
                # Latency from when the poll was due: a client that falls behind counts against the server.
                result.note(status, (time.perf_counter() - due) * 1000)
                if status not in (200, 204):
                    result.errors += 1
            due += plan.poll_every

    async def writer() -> None:
        if not plan.writers or not plan.entries_per_second:
            return
        connections = [Connection(host, port) for _ in plan.writers]
        interval = 1 / plan.entries_per_second
        due = start + random.random() * interval
        number = 0
        while due < end:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            table = number % len(plan.writers)
            spec = plan.writers[table]
            name, a, b = spec["flip"]
            form = dict(spec["form"], key=random.randbytes(16).hex())
            form[name] = a if (number // len(plan.writers)) % 2 == 0 else b
            body = urllib.parse.urlencode(form).encode()
            try:
                status, _, answer = await connections[table].request("POST", spec["path"], {
                    "Cookie": spec["cookie"], "Content-Type": "application/x-www-form-urlencoded"}, body)
            except (OSError, asyncio.IncompleteReadError):
                result.errors += 1
                connections[table].close()
            else:
                result.note(f"POST {status}", (time.perf_counter() - due) * 1000)
                if status != 303:
                    result.errors += 1
                    if len(result.refusals) < 5:
                        result.refusals += [m.decode(errors="replace") for m in REFUSAL.findall(answer)][:2]
            number += 1
            due += interval

    await asyncio.gather(*(poll(phone, cookie) for phone, cookie in plan.phones), writer())
    result.seconds = plan.seconds
    return result


def _night_process(plan: Night) -> Result:
    return asyncio.run(_night(plan))


def table_night(base: str, phones: list[tuple[Phone, str]], writers: list[dict], poll_every: float = 1.0,
                entries_per_second: float = 10.0, seconds: float = 60.0) -> Result:
    """Every phone polls on its own clock; entries arrive at a steady rate, spread over the tables."""
    plans = [Night(base, phones[n::PROCESSES], poll_every, writers[n::PROCESSES],
                   entries_per_second / PROCESSES, seconds) for n in range(PROCESSES)]
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        parts = pool.map(_night_process, plans)
    total = Result()
    for part in parts:
        total.merge(part)
    return total


def median(values: list[float]) -> float:
    return statistics.median(values)
