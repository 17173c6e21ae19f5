"""The city night: 1,000 tables × 6 phones holding their streams, entries at a steady rate, each phone following.

Each phone does what a table page does (static/app.js): it holds its table's stream
(``/t/<token>/stream``), and when the stream says a version above the one it shows, it asks for its
own region (``live?seen=N``, with its seat's cookie) and shows that; every 15 s it polls anyway (the
safety net). A writer posts entries at the given rate, round the tables, so that each table has one entry
in flight at a time: a house-memo change at a Carambouille table, the next round at a score sheet, each sent by
htmx as its page sends it (a 503 from a server behind sent again after its Retry-After and up to half a second more, as the page does). The
figure is, for every entry and every phone of its table, the time from the entry's POST being sent (the send
that was taken) to that phone having its new region: a phone that never gets
an entry counts as an error. Two client processes, each with its own tables, phones and writer (so the
entry's moment and its phones' moments are read on one clock). Only ever aimed at 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import multiprocessing
import random
import resource
import time
import urllib.parse
from dataclasses import dataclass, field

from .load import PROCESSES, Connection, Result, _split
from .protocol import Phone, poll_kind

# As a phone's browser asks (gzip rather than br only so that the client can read it cheaply).
HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}
SAFETY_SECONDS = 60.0  # COMPANION_LIVE_SAFETY_SECONDS
GRACE_SECONDS = 3.0  # after the last entry, for its phones to get it
OPENING_SECONDS = 120.0  # at most, for every phone to hold its stream before the night
SETTLE_SECONDS = 2.0  # then, before the first entry


@dataclass
class CityPhone:
    phone: Phone
    cookie: str
    table: int  # index of its table in the plan


@dataclass
class City:
    base: str
    phones: list[CityPhone]
    writers: list[dict]  # one per table of the plan, as bench.__main__.city_writers gives them
    # The night's rates, one after the other: (entries a second, for so many seconds). An overload night is its
    # high rate, then the usual one, so that it shows how soon the server is itself again.
    phases: list[tuple[float, float]]


@dataclass
class CityResult:
    delivered_ms: list[float] = field(default_factory=list)
    # For each of delivered_ms, when its entry's POST was sent (seconds into the night): a phase's own figures.
    delivered_at: list[float] = field(default_factory=list)
    # From the POST sent to the phone's stream saying the new version (before it asks for its region).
    heard_ms: list[float] = field(default_factory=list)
    expected: int = 0
    errors: int = 0
    error_kinds: dict = field(default_factory=dict)
    requests: dict = field(default_factory=dict)
    # Safety polls due in each second of the night: a page polls at its own phase, never all at once.
    safety_by_second: dict = field(default_factory=dict)
    entries: int = 0
    streams_open: int = 0
    client_cpu_s: float = 0.0  # the load generator's own CPU (it shares the machine with the server)
    # The night's bounds on the wall clock (time.time(): the server's CPU is read against them), from its first
    # entry's moment to its last entry's phones given their grace.
    began: float = 0.0
    ended: float = 0.0
    # The form keys of the entries the server acknowledged (recorded): each must be in the log once.
    acked: list[str] = field(default_factory=list)
    # Each table's entries acknowledged this night, by its form's path: where its next night's writer goes on from.
    acked_by_path: dict = field(default_factory=dict)
    # The entries' sends a server behind answered 503 (each sent again after its Retry-After), and for each entry
    # that was refused or waited for its table's entry before it, how long after it was due it was taken.
    refusals: int = 0
    # How long each entry's send that was taken waited for its own answer (the acting phone's region).
    answered_ms: list[float] = field(default_factory=list)
    busy_waits_ms: list[float] = field(default_factory=list)
    # Each phone as the night left it (its live poll and the version it shows), in its plan's order.
    phones_after: list[tuple[str, int]] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    def merge(self, other: "CityResult") -> "CityResult":
        self.delivered_ms += other.delivered_ms
        self.delivered_at += other.delivered_at
        self.began = min(self.began or other.began, other.began)
        self.ended = max(self.ended, other.ended)
        self.acked += other.acked
        self.refusals += other.refusals
        self.answered_ms += other.answered_ms
        self.busy_waits_ms += other.busy_waits_ms
        self.acked_by_path.update(other.acked_by_path)
        self.heard_ms += other.heard_ms
        self.expected += other.expected
        self.errors += other.errors
        self.entries += other.entries
        self.streams_open += other.streams_open
        self.client_cpu_s += other.client_cpu_s
        for key, value in other.error_kinds.items():
            self.error_kinds[key] = self.error_kinds.get(key, 0) + value
        for key, value in other.safety_by_second.items():
            self.safety_by_second[key] = self.safety_by_second.get(key, 0) + value
        for key, value in other.requests.items():
            self.requests[key] = self.requests.get(key, 0) + value
        return self

    def percentile(self, p: float, heard: bool = False) -> float:
        return Result(latencies_ms=self.heard_ms if heard else self.delivered_ms).percentile(p)

    def between(self, start: float, end: float) -> list[float]:
        """The delays of the entries whose POST was sent from ``start`` to ``end`` seconds into the night."""
        return [ms for at, ms in zip(self.delivered_at, self.delivered_ms) if start <= at < end]


async def _city(plan: City) -> CityResult:
    host, port = _split(plan.base)
    result = CityResult()
    sent: list[list[float]] = [[] for _ in plan.writers]  # each table's entries: when their POST was sent
    turns: list[asyncio.Lock] = []  # each table's: one entry sent at a time
    started = asyncio.Event()
    opening, all_open = [0], asyncio.Event()
    night_began = [0.0]
    stop = asyncio.Event()

    def count(kind: str) -> None:
        result.requests[kind] = result.requests.get(kind, 0) + 1

    async def phone_task(city_phone: CityPhone) -> None:
        phone, table = city_phone.phone, city_phone.table
        # The version the table is at when the night begins: each version past it is one of its entries. (Read
        # from the stream's first message: the phone may come from a night before, its table moved on since.)
        first_seen = [phone.seen]
        headers = {**HTMX, "Cookie": city_phone.cookie}
        wanted = asyncio.Event()
        heard = [phone.seen]
        try:
            reader, writer = await asyncio.open_connection(host, port)
            stream_path = phone.live_url.split("?")[0].rsplit("/", 1)[0] + "/stream"
            writer.write(f"GET {stream_path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
                         f"Cookie: {city_phone.cookie}\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                result.error("stream refused")
                return
        except (OSError, asyncio.IncompleteReadError):
            result.error("stream not opened")
            return
        finally:
            opening[0] -= 1
            if opening[0] == 0:
                all_open.set()
        result.streams_open += 1

        delivered = [0]

        def deliver() -> None:
            now = time.perf_counter()
            # Each version past the one shown when the night began is one of this table's entries.
            while delivered[0] < phone.seen - first_seen[0] and delivered[0] < len(sent[table]):
                result.delivered_ms.append((now - sent[table][delivered[0]]) * 1000)
                result.delivered_at.append(sent[table][delivered[0]] - night_began[0])
                delivered[0] += 1

        async def listen() -> None:
            buffer = b""
            while not stop.is_set():
                try:
                    chunk = await reader.read(4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    if not stop.is_set():
                        result.error("stream closed by the server")
                    return
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    if b"event: version" in block:
                        heard[0] = int(block.rsplit(b"data: ", 1)[1])
                        if not started.is_set():
                            first_seen[0] = max(first_seen[0], heard[0])
                        entry = heard[0] - first_seen[0] - 1
                        if 0 <= entry < len(sent[table]):
                            result.heard_ms.append((time.perf_counter() - sent[table][entry]) * 1000)
                        # As static/app.js: a version the page already shows (the stream's first message)
                        # asks for nothing.
                        if heard[0] > phone.seen:
                            wanted.set()
                    elif b"event: beat" in block:
                        # As static/app.js: a beat saying a version the phone does not show (a missed one) asks.
                        told = int(block.rsplit(b"data: ", 1)[1] or 0)
                        if told > phone.seen:
                            heard[0] = max(heard[0], told)
                            wanted.set()
                    elif b"event: region" in block:
                        # The phone's own region, pushed (companion/live/pushes.py): shown as it comes.
                        region = b"\n".join(line[6:] for line in block.split(b"\n") if line.startswith(b"data: "))
                        count("region pushed")
                        before = phone.seen
                        phone.answered(200, region)
                        heard[0] = max(heard[0], phone.seen)
                        for entry in range(before - first_seen[0], phone.seen - first_seen[0]):
                            if 0 <= entry < len(sent[table]):
                                result.heard_ms.append((time.perf_counter() - sent[table][entry]) * 1000)
                        deliver()

        async def follow() -> None:
            live = Connection(host, port)
            # A page's safety poll comes SAFETY_SECONDS after its own last request (static/app.js), so the
            # phones of a city, whose pages were opened at their own moments, poll each at its own phase:
            # never all 6,000 in the same instant, as they would if the night started every clock at once.
            safety = random.uniform(0, SAFETY_SECONDS)
            while not stop.is_set():
                timed_out = False
                due = time.perf_counter() + safety
                try:
                    await asyncio.wait_for(wanted.wait(), timeout=safety)
                except asyncio.TimeoutError:
                    timed_out = True  # the page's safety poll
                safety = SAFETY_SECONDS
                wanted.clear()
                if stop.is_set():
                    break
                kind = poll_kind(timed_out, heard[0], phone.seen)
                if kind == "safety poll":  # counted by the second it was due (bench.protocol.check_city)
                    second = int(due - night_began[0])
                    result.safety_by_second[second] = result.safety_by_second.get(second, 0) + 1
                try:
                    status, answer, body = await live.request("GET", phone.poll_path(), headers)
                    if answer.get("content-encoding") == "gzip":
                        body = gzip.decompress(body)
                except (OSError, asyncio.IncompleteReadError):
                    result.error("live request failed")
                    live.close()
                    continue
                count(f"{kind} {status}")
                if status == 503:
                    # A server behind: asked again after the Retry-After it said, as static/app.js does.
                    await asyncio.sleep(float(answer.get("retry-after") or 2) + random.uniform(0, 0.5))
                    wanted.set()
                    continue
                if status not in (200, 204):
                    result.error(f"live answered {status}")
                    continue
                phone.answered(status, body)
                deliver()
                if heard[0] > phone.seen:
                    wanted.set()
            live.close()

        await started.wait()
        await asyncio.gather(listen(), follow())
        writer.close()

    async def post(table: int, number: int, connection: Connection) -> None:
        spec = plan.writers[table]
        form = dict(spec["form"], key=random.randbytes(16).hex())
        # This table's posts before this one (its nights before this one's included).
        posted = spec.get("acked", 0) + number // len(plan.writers)
        if "flip" in spec:  # a house memo: one value set and set back, turn about
            name, a, b = spec["flip"]
            form[name] = a if posted % 2 == 0 else b
        else:  # a score sheet's rounds, one after the other
            form[spec["count"]] = str(posted + 1)
        body = urllib.parse.urlencode(form).encode()
        tapped, refused = time.perf_counter(), False
        # One entry of a table at a time, as its page sends them: an entry due while the one before is still
        # unanswered (a server behind, or telling the page to send it again) waits its turn, as a player would.
        async with turns[table]:
            while True:
                at = time.perf_counter()
                sent[table].append(at)
                try:
                    # As the page's form sends it: by htmx (static/connection.js), its answer the phone's region,
                    # or where the form leads (HX-Redirect).
                    status, answer, payload = await connection.request("POST", spec["path"], {
                        **HTMX, "Cookie": spec["cookie"], "Content-Type": "application/x-www-form-urlencoded"}, body)
                except (OSError, asyncio.IncompleteReadError):
                    status, answer, payload = 0, {}, b""
                    connection.close()
                count(f"POST {status}")
                if status != 503:
                    result.answered_ms.append((time.perf_counter() - at) * 1000)
                    break
                # A server behind said when to come back: the page says so and sends the same form again then
                # (its key counts it once). Its phones' figure runs from the send that was taken.
                sent[table].remove(at)
                result.refusals += 1
                refused = True
                await asyncio.sleep(float(answer.get("retry-after") or 2) + random.uniform(0, 0.5))
        if answer.get("content-encoding") == "gzip":
            payload = gzip.decompress(payload)
        # Recorded: sent on to the table's memo, or the table's region without a refusal in it.
        if status == 200 and ("hx-redirect" in answer or b'role="alert"' not in payload):
            result.acked.append(form["key"])
            result.acked_by_path[spec["path"]] = result.acked_by_path.get(spec["path"], 0) + 1
            if refused or at - tapped > 0.05:
                result.busy_waits_ms.append((at - tapped) * 1000)
        else:
            sent[table].remove(at)
            result.error(f"entry answered {status}" + (" refused" if status == 200 else ""))

    async def write() -> None:
        """Entries on the clock (open loop): each posted when due, whether the ones before were answered or not."""
        await started.wait()
        # One connection a table: a table has one entry in flight at a time (each comes round every
        # len(tables) / rate seconds), as its player's phone would.
        connections = [Connection(host, port) for _ in plan.writers]
        turns.extend(asyncio.Lock() for _ in plan.writers)
        due = time.perf_counter()
        number, posts = 0, []
        for rate, seconds in plan.phases:
            interval, end = 1 / rate, due + seconds
            while due < end:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                table = number % len(plan.writers)
                posts.append(asyncio.ensure_future(post(table, number, connections[table])))
                number += 1
                due += interval
            due = end
        await asyncio.gather(*posts)
        await asyncio.sleep(GRACE_SECONDS)
        result.ended = time.time()
        stop.set()
        for connection in connections:
            connection.close()

    opening[0] = len(plan.phones)
    tasks = [asyncio.ensure_future(phone_task(city_phone)) for city_phone in plan.phones]
    # The phones open their streams before the night, as a city's evening fills up: the night begins once
    # every phone holds its stream and the server has settled (its figure is the night's, not the evening's).
    try:
        await asyncio.wait_for(all_open.wait(), timeout=OPENING_SECONDS)
    except asyncio.TimeoutError:
        pass  # the phones still opening count as errors of their own
    await asyncio.sleep(SETTLE_SECONDS)
    night_began[0] = time.perf_counter()
    result.began = time.time()
    started.set()
    await write()
    # A phone still reading at the end has its last answer on the way: let it land.
    await asyncio.wait(tasks, timeout=5)
    result.phones_after = [(city_phone.phone.live_url, city_phone.phone.seen) for city_phone in plan.phones]
    result.entries = sum(len(times) for times in sent)
    result.expected = sum(len(sent[city_phone.table]) for city_phone in plan.phones)
    missing = result.expected - len(result.delivered_ms)
    for _ in range(missing):
        result.error("entry never shown")
    return result


def _city_process(plan: City) -> CityResult:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.process_time()
    # The generator's own pauses are no figure of the server: what it built for the night is frozen out
    # of Python's full collections, and the young ones come less often (6,000 phones' objects).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    # Not asyncio.run: a phone still waiting on its socket at the end would hold up the loop's close
    # (its cancellation waits on the socket); the pool ends this process when the night is over.
    result = asyncio.new_event_loop().run_until_complete(_city(plan))
    result.client_cpu_s = time.process_time() - started
    return result


def city_night(base: str, tables: list[list[tuple[Phone, str]]], writers: list[dict],
               phases: list[tuple[float, float]]) -> CityResult:
    """The night: each client process takes every PROCESSES-th table, its phones and its writer.

    ``phases``: (entries a second, seconds), one after the other. Each writer's ``acked`` is moved on by the
    entries this night's acknowledged, so that a night after it goes on from there (a memo set back, a sheet's
    next round)."""
    plans = []
    for n in range(PROCESSES):
        mine = list(range(n, len(tables), PROCESSES))
        phones = [CityPhone(phone, cookie, index) for index, table in enumerate(mine) for phone, cookie in tables[table]]
        plans.append(City(base, phones, [writers[table] for table in mine],
                          [(rate / PROCESSES, seconds) for rate, seconds in phases]))
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        parts = pool.map(_city_process, plans)
    total = CityResult()
    for plan, part in zip(plans, parts):
        total.merge(part)
        for city_phone, (live_url, seen) in zip(plan.phones, part.phones_after):
            city_phone.phone.live_url, city_phone.phone.seen = live_url, seen
    for writer in writers:
        writer["acked"] = writer.get("acked", 0) + total.acked_by_path.get(writer["path"], 0)
    return total
