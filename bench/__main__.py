"""`python -m bench`: the figures of docs/performance.md, measured against gunicorn on 127.0.0.1.

SQLite always; PostgreSQL too when BENCH_POSTGRES_URL names a server (a
scratch database is created on it and dropped after). gunicorn runs with the
settings of `make run` (companion.server.gunicorn_conf, 4 workers). Every figure is
the median of RUNS runs, and compared with the bare route measured in the
same run. Options: --quick (short runs, for trying the bench itself),
--night-seconds N, --night-entries N, --phones-hands N, --only sqlite|postgresql, --no-lighthouse, --json FILE.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import sqlalchemy as sa

from . import games, season
from .city import SAFETY_SECONDS, city_night
from .load import Result, closed_loop, median, table_night
from .phones import table_of_phones
from .protocol import Phone, ProtocolError, check_city, check_night

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 4  # as `make run`
BROWSER_HEADERS = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/html"}
HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip, deflate, br"}
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-quic"]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- databases and the server ----------------------------------------------------

def scratch_database(kind: str, folder: Path) -> tuple[str, callable]:
    if kind == "sqlite":
        return f"sqlite:///{folder / 'bench.sqlite'}", (lambda: None)
    server = sa.make_url(os.environ["BENCH_POSTGRES_URL"])
    name = f"companion_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return server.set(database=name).render_as_string(hide_password=False), drop


def environment(database_url: str, extra: dict | None = None) -> dict:
    # No backups beside the measured server: `make run` takes them, and they are not what is measured.
    return os.environ | {"DATABASE_URL": database_url, "SECRET_KEY": "bench", "FLASK_APP": "wsgi",
                         "PYTHONPATH": str(ROOT), "COMPANION_BACKUPS_KEPT": "0"} | (extra or {})


def migrate(database_url: str) -> None:
    subprocess.run([sys.executable, "-m", "flask", "db", "upgrade"], cwd=ROOT, env=environment(database_url),
                   check=True, capture_output=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(database_url: str, folder: Path, extra: dict | None = None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    with (folder / "gunicorn.log").open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "python:companion.server.gunicorn_conf",
             "--bind", f"127.0.0.1:{port}", "--workers", str(WORKERS), "bench.wsgi:app"],
            cwd=ROOT, env=environment(database_url, extra), stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/bench/bare", timeout=2):
                return process, base
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("gunicorn did not start; see " + str(folder / "gunicorn.log"))


def stop_gunicorn(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGQUIT)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


# --- the tables measured -----------------------------------------------------------

# The city night's games, round the tables: a quarter of them score sheets.
CITY_GAMES = ("carambouille", "carambouille", "carambouille", "sheet")
CITY_OPTIONS = {"carambouille": {"first_trader": 0}, "sheet": {"first_player": 0, "name": "Rummy"}}
SHEET_ROUNDS = 40  # the long sheet: a Rummy evening of seven players


def build_tables(database_url: str, night_tables: int, city_tables: int = 0) -> dict:
    """The long game, 10- and 1,000-entry tables, and the night's tables, through companion.table.recording.record."""
    from companion import create_app
    from companion.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
    with app.app_context():
        long = games.new_table("carambouille", games.PLAYERS, {"first_trader": 0})
        games.play_carambouille(long, hands=20)
        small = games.new_table("carambouille", games.PLAYERS, {"first_trader": 0})
        games.record(small, {"type": "market_opened"})
        games.record(small, {"type": "market_closed", "seconds": 90})
        games.pad_with_memo_changes(small, 10)
        big = games.new_table("carambouille", games.PLAYERS, {"first_trader": 0})
        games.play_carambouille(big, hands=20)
        games.pad_with_memo_changes(big, 1000)
        # A table of each other game, as long as an evening makes them (the sheet's every round is on its page).
        jaipur = games.new_table("jaipur", games.PLAYERS[:2], {"bonus": "draw", "first_player": 0})
        games.play_jaipur(jaipur)
        frutti = games.new_table("frutti", games.PLAYERS[:3], {"first_player": 0})
        games.play_frutti(frutti)
        sheet = games.new_table("sheet", games.PLAYERS, {"first_player": 0, "name": "Rummy"})
        games.play_sheet(sheet, SHEET_ROUNDS)
        night = []
        for _ in range(night_tables):
            table = games.new_table("carambouille", games.PLAYERS[:6], {"first_trader": 0})
            games.play_carambouille(table, hands=1)
            night.append((table.token, table.last_seq))
        # The city night's tables: six players each, nothing recorded yet (their phones' seats come next); every
        # fourth plays on a score sheet, the rest Carambouille.
        city = [(games.new_table(game, games.PLAYERS[:6], CITY_OPTIONS[game]).token, game)
                for game in (CITY_GAMES[number % len(CITY_GAMES)] for number in range(city_tables))]
        tables = {"long": (long.token, long.last_seq), "small": (small.token, small.last_seq),
                  "big": (big.token, big.last_seq), "night": night, "city": city,
                  "games": {table.game: (table.token, table.last_seq) for table in (jaipur, frutti, sheet)}}
        db.session.remove()
        db.engine.dispose()
    return tables


# --- measurements ------------------------------------------------------------------

def throughputs(base: str, paths: dict, runs: int, seconds: float, connections: int) -> dict:
    """Each path's figures, its runs taken in turn with the others' (bare, page, bare, page…): a machine
    whose speed drifts during the bench moves a ratio's two sides together."""
    results: dict = {name: [] for name in paths}
    for _ in range(runs):
        for name, (path, headers, ok) in paths.items():
            log(f"  {name}")
            results[name].append(closed_loop(base, [path], connections, seconds, headers, ok))
    return {name: figures(found) for name, found in results.items()}


def figures(results: list) -> dict:
    return {
        "rps": median([r.throughput for r in results]),
        "p50_ms": median([r.percentile(50) for r in results]),
        "p99_ms": median([r.percentile(99) for r in results]),
        "errors": sum(r.errors for r in results),
        "statuses": results[-1].statuses,
    }


def seated_phones(base: str, night: list[tuple[str, int]], seats: int = 6) -> list[tuple[Phone, str]]:
    """Each night table's phones, one per seat, as a player sets them up: (its live poll, session cookie).

    Once every seat of a table has its phone, each phone loads the table page (as a browser follows the
    303 and then the poll brings the seats taken after it) and polls what that page carries: the night
    starts at tables whose phones show them as they are, as at a table already playing. (Loaded right
    after its own seat, each phone's first poll of the night renders the seats taken since: 600 renders
    in its first second, a stall of the warm-up and no figure of the night.)
    """
    phones = []
    for token, _seq in night:
        cookies = []
        for seat in range(seats):
            with urllib.request.urlopen(f"{base}/t/{token}") as response:
                cookie = response.headers["Set-Cookie"].split(";", 1)[0]
                csrf = re.search(r'name="csrf_token" value="([^"]+)"', response.read().decode()).group(1)
            body = urllib.parse.urlencode({"csrf_token": csrf, "seat": str(seat)}).encode()
            request = urllib.request.Request(f"{base}/t/{token}/seat", data=body, headers={"Cookie": cookie})
            opener = urllib.request.build_opener(_NoRedirect)
            try:
                opener.open(request)
            except urllib.error.HTTPError as answer:  # the 303 back to the table, with the seat in the cookie
                if answer.code != 303:
                    raise RuntimeError(f"choosing seat {seat} at a night table answered {answer.code}") from None
                cookie = answer.headers["Set-Cookie"].split(";", 1)[0]
            else:
                raise RuntimeError("choosing a seat did not answer 303")
            cookies.append(cookie)
        for cookie in cookies:
            with urllib.request.urlopen(urllib.request.Request(f"{base}/t/{token}",
                                                               headers={"Cookie": cookie})) as response:
                phones.append((Phone.from_page(response.read()), cookie))
    return phones


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _form_of(base: str, page_path: str, action: str) -> tuple[str, dict]:
    """The session cookie a phone gets with ``page_path``, and the fields of the form posting to ``action`` on it."""
    with urllib.request.urlopen(urllib.request.Request(f"{base}{page_path}")) as response:
        cookie = response.headers["Set-Cookie"].split(";", 1)[0]
        page = response.read().decode()
    form = page[page.rindex("<form", 0, page.index(f'action="{action}"')):]
    form = form[:form.index("</form>")]
    fields = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and name.group(1) not in ("reset",):
            fields[name.group(1)] = value.group(1) if value else ""
    # Each post gets a key of its own (one tap, one entry); the version the form was drawn at is left out.
    fields.pop("key", None)
    fields.pop("seen", None)
    return cookie, fields


def memo_writers(base: str, tokens: list[str]) -> list[dict]:
    """For each night table, a phone ready to change its house memo: cookie, CSRF token, the form's fields."""
    writers = []
    for token in tokens:
        path = f"/t/{token}/memo/edit"
        cookie, fields = _form_of(base, path, path)
        writers.append({"path": path, "cookie": cookie, "form": fields, "flip": ("m40_5", "500", "520")})
    return writers


def round_writers(base: str, tokens: list[str]) -> list[dict]:
    """For each score sheet, a phone ready to record its rounds: each post the table's next round, its points
    typed as players type them (``count``: the field that numbers the posts of one table)."""
    writers = []
    for token in tokens:
        path = f"/t/{token}/sheet/round"
        cookie, fields = _form_of(base, f"/t/{token}", path)
        points = sorted(name for name in fields if name.startswith("points-"))
        fields.update({name: games.SHEET_POINTS[seat % len(games.SHEET_POINTS)] for seat, name in enumerate(points)})
        writers.append({"path": path, "cookie": cookie, "form": fields, "count": "round"})
    return writers


WRITERS = {"carambouille": memo_writers, "sheet": round_writers}


def city_writers(base: str, tables: list[tuple[str, str]]) -> list[dict]:
    """A writer for each of the city's tables, as its game records: the house memo, or the sheet's next round."""
    return [WRITERS[game](base, [token])[0] for token, game in tables]


class ServerCPU:
    """The server's CPU time (master and workers), sampled every SAMPLE seconds on the wall clock: what it spent
    between two moments of a night read off after it (the night runs in other processes)."""

    SAMPLE = 0.25

    def __init__(self, process: subprocess.Popen) -> None:
        import psutil

        self.server = [psutil.Process(process.pid), *psutil.Process(process.pid).children()]
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> float:
        return sum(sum(p.cpu_times()[:2]) for p in self.server)

    def _run(self) -> None:
        while not self._stop.wait(self.SAMPLE):
            self.samples.append((time.time(), self.now()))

    def __enter__(self) -> "ServerCPU":
        self.samples.append((time.time(), self.now()))
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append((time.time(), self.now()))

    def at(self, moment: float) -> float:
        """The CPU seconds spent by ``moment`` (between two samples, as if spent evenly)."""
        before = max((sample for sample in self.samples if sample[0] <= moment), default=self.samples[0])
        after = min((sample for sample in self.samples if sample[0] >= moment), default=self.samples[-1])
        if after[0] == before[0]:
            return before[1]
        return before[1] + (after[1] - before[1]) * (moment - before[0]) / (after[0] - before[0])

    def peak_mb(self) -> float:
        """The memory the server held at its most (each process's high-water mark, summed)."""
        return sum(int(line.split()[1]) for p in self.server
                   for line in Path(f"/proc/{p.pid}/status").read_text().splitlines()
                   if line.startswith("VmHWM")) / 1024


def in_the_log(database_url: str, keys: list[str]) -> tuple[int, int]:
    """(entries, distinct keys) in the log among the form keys ``keys``: an acknowledged entry lost is a key
    missing, one doubled an entry more than its keys."""
    engine = sa.create_engine(database_url)
    rows = found = 0
    try:
        with engine.connect() as connection:
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                counted = connection.execute(sa.text(
                    "SELECT COUNT(*), COUNT(DISTINCT key) FROM entries WHERE key IN :keys").bindparams(
                    sa.bindparam("keys", expanding=True)), {"keys": chunk}).one()
                rows, found = rows + counted[0], found + counted[1]
    finally:
        engine.dispose()
    return rows, found


# A night that fell behind must be itself again this soon after its load fell back (its entries shown within
# the city night's p99 target again).
RECOVERY_SECONDS = 10.0
CAUGHT_UP_MS = 2000.0  # an overload night's phones: their table's latest version within this, p99
CITY_P99_MS = 300.0


def busy(figures: dict) -> str:
    """What a server behind told the pages: how many sends it answered 503, and how long the entries waited."""
    if not figures.get("refusals"):
        return "no send answered 503"
    return (f"{figures['refusals']:,} sends answered 503 by a server behind and sent again after its Retry-After "
            f"({figures['refused_entries']:,} entries refused or behind their table's one before, taken p50 {figures['busy_wait_p50_ms'] / 1000:.1f} s, "
            f"max {figures['busy_wait_max_ms'] / 1000:.1f} s after they were due)")


def recovered_after(night, fall: float, end: float) -> float | None:
    """Seconds after ``fall`` from which every second's entries were shown at p99 ≤ CITY_P99_MS, to ``end``."""
    seconds = int(end - fall)
    slow = [second for second in range(seconds)
            if (delays := night.between(fall + second, fall + second + 1))
            and Result(latencies_ms=delays).percentile(99) > CITY_P99_MS]
    if slow and slow[-1] == seconds - 1:
        return None
    return float(slow[-1] + 1) if slow else 0.0


def city(base: str, process: subprocess.Popen, database_url: str, city_tables: list[tuple[str, str]],
         entries_per_second: float, seconds: float, overloads: list[float], overload_seconds: float,
         recovery_seconds: float) -> dict:
    """The city night (bench/city.py) and its overload nights, with the server's CPU and memory over each."""
    tokens = [token for token, _ in city_tables]
    cpu = ServerCPU(process)
    opened = cpu.now()
    with ThreadPoolExecutor(8) as pool:
        tables = list(pool.map(lambda token: seated_phones(base, [(token, 0)]), tokens))
        writers = list(pool.map(lambda table: city_writers(base, [table])[0], city_tables))
    nights = [("city", [(entries_per_second, seconds)])] + [
        (f"{factor:g}×", [(entries_per_second * factor, overload_seconds), (entries_per_second, recovery_seconds)])
        for factor in overloads]
    figures = {}
    with cpu:
        for name, phases in nights:
            called = time.time()
            night = city_night(base, tables, writers, phases)
            # A night whose phones did not follow the page is no figure of the product: stop here.
            check_city(night.safety_by_second, phones=sum(len(t) for t in tables), safety_seconds=SAFETY_SECONDS)
            figures[name] = night_figures(night, phases, cpu, database_url)
            # Before the night proper: the phones opening their streams (each asks the app who it is) and settling.
            figures[name]["opening_cpu_s"] = cpu.at(night.began) - cpu.at(called)
    figures["city"].update({
        "tables": len(tokens), "sheets": sum(game == "sheet" for _, game in city_tables),
        "phones": sum(len(t) for t in tables), "seating_cpu_s": cpu.samples[0][1] - opened})
    return {"city": figures.pop("city"), "overload": figures}


def night_figures(night, phases: list[tuple[float, float]], cpu: ServerCPU, database_url: str) -> dict:
    """A city night's figures: delays, the server's CPU over the night proper (the phones' streams opened
    before it), what its log holds of the entries acknowledged, and how soon a fallen load was met again."""
    wall = night.ended - night.began
    spent = cpu.at(night.ended) - cpu.at(night.began)
    rows, found = in_the_log(database_url, night.acked)
    statuses = {kind: count for kind, count in night.requests.items() if kind.startswith("POST")}
    figures = {"phases": phases, "entries": night.entries, "acked": len(night.acked), "lost": len(night.acked) - found,
               "doubled": rows - found, "post_statuses": statuses, "streams": night.streams_open,
               "expected": night.expected, "delivered": len(night.delivered_ms),
               "p50_ms": night.percentile(50), "p99_ms": night.percentile(99),
               "heard_p50_ms": night.percentile(50, heard=True), "heard_p99_ms": night.percentile(99, heard=True),
               "max_ms": max(night.delivered_ms, default=float("nan")), "errors": night.errors,
               "error_kinds": night.error_kinds, "requests": night.requests,
               "server_cpu_percent": 100 * spent / wall, "cpu_ms_per_entry": 1000 * spent / max(1, night.entries),
               "client_cpu_percent": 100 * night.client_cpu_s / wall, "server_peak_mb": cpu.peak_mb(),
               "wall_s": wall, "refusals": night.refusals,
               "answered_p50_ms": Result(latencies_ms=night.answered_ms).percentile(50),
               "answered_p99_ms": Result(latencies_ms=night.answered_ms).percentile(99), "refused_entries": len(night.busy_waits_ms),
               "busy_wait_p50_ms": Result(latencies_ms=night.busy_waits_ms).percentile(50),
               "busy_wait_max_ms": max(night.busy_waits_ms, default=0.0)}
    if len(phases) > 1:
        fall = phases[0][1]
        high = night.between(0, fall)
        figures.update({"high_p50_ms": Result(latencies_ms=high).percentile(50),
                        "high_p99_ms": Result(latencies_ms=high).percentile(99),
                        "recovered_after_s": recovered_after(night, fall, fall + phases[1][1])})
    return figures


def page_weight(base: str, token: str) -> dict:
    """Bytes over the wire (compressed, headers included) for a first and a repeat visit, in Chromium.

    The service worker's own requests (its script, then the files it keeps for offline use) are not
    the page's: they are counted apart, as the precache, with what its caches then hold.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        worker = {"bytes": 0, "requests": 0}

        def by_worker(request):
            if request.service_worker is not None:
                sizes = request.sizes()
                worker["bytes"] += sizes["responseBodySize"] + sizes["responseHeadersSize"]
                worker["requests"] += 1

        context.on("requestfinished", by_worker)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        visits: list[dict] = []
        urls: dict[str, str] = {}

        def sent(event):
            urls[event["requestId"]] = event["request"]["url"]

        def finished(event):
            if urllib.parse.urlsplit(urls.get(event["requestId"], "")).path == "/sw.js":
                worker["bytes"] += event["encodedDataLength"]
                worker["requests"] += 1
                return
            visits[-1]["bytes"] += event["encodedDataLength"]
            visits[-1]["requests"] += 1

        def cached(event):
            visits[-1]["cached"] += 1

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.requestServedFromCache", cached)
        kept = None
        for _ in range(2):
            visits.append({"bytes": 0, "requests": 0, "cached": 0})
            page.goto(f"{base}/t/{token}", wait_until="networkidle")
            # Stop the live poll's own traffic from counting as page weight.
            page.evaluate("document.querySelector('#live')?.removeAttribute('hx-trigger')")
            page.wait_for_timeout(300)
            if kept is None:
                # The worker installed from the first visit: what it keeps for offline use.
                page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
                page.wait_for_timeout(500)
                kept = page.evaluate("""async () => {
                  let files = 0, bytes = 0;
                  for (const name of await caches.keys()) {
                    const cache = await caches.open(name);
                    for (const request of await cache.keys()) {
                      files++; bytes += (await (await cache.match(request, {ignoreVary: true})).arrayBuffer()).byteLength;
                    }
                  }
                  return {files, bytes};
                }""")
            page.goto("about:blank")
        browser.close()
    return {"first_kb": visits[0]["bytes"] / 1024, "repeat_kb": visits[1]["bytes"] / 1024,
            "first_requests": visits[0]["requests"], "repeat_cached": visits[1]["cached"],
            "precache_kb": worker["bytes"] / 1024, "precache_requests": worker["requests"],
            "kept_files": kept["files"], "kept_kb": kept["bytes"] / 1024}


def lighthouse(base: str, token: str, folder: Path) -> dict | None:
    npx = shutil.which("npx")
    if not npx:
        log("npx not found: no Lighthouse scores")
        return None
    report = folder / "lighthouse.json"
    command = [npx, "--yes", "lighthouse@12.2.3", f"{base}/t/{token}", "--form-factor=mobile", "--quiet",
               "--only-categories=performance,accessibility,best-practices", "--output=json",
               f"--output-path={report}", "--chrome-flags=--headless=new " + " ".join(CHROMIUM_ARGS)]
    done = subprocess.run(command, env=os.environ | {"CHROME_PATH": CHROMIUM}, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0 or not report.exists():
        log("lighthouse failed:\n" + done.stderr[-2000:])
        return None
    data = json.loads(report.read_text())
    scores = {key: round(category["score"] * 100) for key, category in data["categories"].items()}
    audits = data["audits"]
    scores["fcp_ms"] = audits["first-contentful-paint"]["numericValue"]
    scores["lcp_ms"] = audits["largest-contentful-paint"]["numericValue"]
    scores["failed_audits"] = sorted(key for key, audit in audits.items()
                                     if audit.get("score") is not None and audit["score"] < 0.9
                                     and audit.get("scoreDisplayMode") in ("binary", "numeric"))
    return scores


def bench_database(kind: str, args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix=f"bench-{kind}-"))
    database_url, drop = scratch_database(kind, folder)
    process = None
    try:
        log(f"[{kind}] migrating and building the tables")
        migrate(database_url)
        tables = build_tables(database_url, args.night_tables, args.city_tables if args.city_seconds else 0)
        process, base = start_gunicorn(database_url, folder)
        long_token, long_seq = tables["long"]
        small_token, _ = tables["small"]
        big_token, _ = tables["big"]
        # The unchanged poll asks what the page carries, as a phone does.
        with urllib.request.urlopen(f"{base}/t/{long_token}") as response:
            long_phone = Phone.from_page(response.read())
        paths = {
            "bare": ("/bench/bare", BROWSER_HEADERS, {200}),
            "poll": (long_phone.poll_path(), HTMX, {204}),
            "page_long": (f"/t/{long_token}", BROWSER_HEADERS, {200}),
            "page_10": (f"/t/{small_token}", BROWSER_HEADERS, {200}),
            "page_1000": (f"/t/{big_token}", BROWSER_HEADERS, {200}),
            "live_10": (f"/t/{small_token}/live?seen=0", HTMX, {200}),
            "live_1000": (f"/t/{big_token}/live?seen=0", HTMX, {200}),
            # The long game replayed at its middle step: the step a phone steps to (htmx), and the whole page.
            "replay_long": (f"/t/{long_token}/replay?at={long_seq // 2}", HTMX, {200}),
            "replay_page_long": (f"/t/{long_token}/replay?at={long_seq // 2}", BROWSER_HEADERS, {200}),
            **{f"page_{game}": (f"/t/{token}", BROWSER_HEADERS, {200}) for game, (token, _) in tables["games"].items()},
        }
        # Warm every worker's state cache and code paths.
        closed_loop(base, [p for p, _, _ in paths.values()], 8, 2.0, BROWSER_HEADERS, {200, 204})
        log(f"[{kind}] throughput, {args.runs} rounds of every path")
        measured = throughputs(base, paths, args.runs, args.seconds, args.connections)
        results = {"tables": {"long_entries": long_seq, "big_entries": tables["big"][1],
                              "small_entries": tables["small"][1],
                              **{f"{game}_entries": seq for game, (_, seq) in tables["games"].items()}},
                   "throughput": measured}
        if args.phones_hands:
            log(f"[{kind}] four phones at a table, {args.phones_hands} hands")
            results["phones"] = table_of_phones(base, CHROMIUM, CHROMIUM_ARGS, args.phones_hands)
            log(f"[{kind}] four phones on two app servers on one database, {args.phones_hands} hands")
            second_folder = folder / "second"
            second_folder.mkdir()
            second, second_base = start_gunicorn(database_url, second_folder)
            try:
                results["two_servers"] = table_of_phones(base, CHROMIUM, CHROMIUM_ARGS, args.phones_hands,
                                                         other=second_base)
            finally:
                stop_gunicorn(second)
        if args.night_seconds:
            log(f"[{kind}] table night: {args.night_tables} tables × 6 phones for {args.night_seconds} s, "
                f"{args.night_entries} entries/s")
            # Six phones a table, each set to its player: every seat renders its own region after an entry.
            phones = seated_phones(base, tables["night"])
            writers = memo_writers(base, [token for token, _ in tables["night"]])
            night = table_night(base, phones, writers, poll_every=1.0, entries_per_second=args.night_entries,
                                seconds=args.night_seconds)
            # A night whose phones did not poll as the page asks is no figure of the product: stop here.
            check_night(night.statuses, phones=len(phones), phones_per_table=6)
            posts = sum(count for status, count in night.statuses.items() if str(status).startswith("POST"))
            results["night"] = {"requests": len(night.latencies_ms), "rps": len(night.latencies_ms) / night.seconds,
                                "entries": posts, "p50_ms": night.percentile(50), "p99_ms": night.percentile(99),
                                "max_ms": max(night.latencies_ms), "errors": night.errors,
                                "p99_by_status_ms": {status: night.percentile(99, status) for status in night.by_status},
                                "statuses": {str(k): v for k, v in night.statuses.items()}}
        if args.city_seconds:
            log(f"[{kind}] city night: {args.city_tables} tables (a quarter score sheets) × 6 phones holding their streams, "
                f"{args.city_entries} entries/s for {args.city_seconds} s (seating the phones first)")
            results.update(city(base, process, database_url, tables["city"], args.city_entries, args.city_seconds,
                                args.overloads, args.overload_seconds, args.recovery_seconds))
        if kind == "sqlite":
            log(f"[{kind}] page weight")
            results["weight"] = page_weight(base, long_token)
            if args.lighthouse:
                log(f"[{kind}] lighthouse")
                results["lighthouse"] = lighthouse(base, long_token, folder)
        # The first phone of a seat after an entry finds no rendering of its seat kept, but the parts every
        # seat shares and the version's reads, rendered and read by the table's first phone ("rendered");
        # the first phone of the table finds nothing kept at all ("cold").
        rendered = {"bare": paths["bare"], "page_long": paths["page_long"],
                    "live_long": (f"/t/{long_token}/live?seen=0", HTMX, {200}), "replay_long": paths["replay_long"],
                    **{f"page_{game}": paths[f"page_{game}"] for game in tables["games"]}}
        # A replay's step is rendered anew in both (no step kept): each step a phone steps to is new to it.
        for figure, settings in (("rendered", {"COMPANION_REGION_CACHE_SIZE": "0", "COMPANION_REPLAY_STEPS_KEPT": "0"}),
                                 ("cold", {"COMPANION_REGION_CACHE_SIZE": "0", "COMPANION_SHARED_PART_CACHE_SIZE": "0",
                                           "COMPANION_VERSION_READS_TABLES": "0", "COMPANION_REPLAY_STEPS_KEPT": "0"})):
            stop_gunicorn(process)
            process, base = start_gunicorn(database_url, folder, settings)
            closed_loop(base, [p for p, _, _ in rendered.values()], 8, 2.0, BROWSER_HEADERS, {200})
            log(f"[{kind}] {figure}")
            results[figure] = throughputs(base, rendered, args.runs, args.seconds, args.connections)
        return results
    finally:
        if process is not None:
            stop_gunicorn(process)
        drop()
        shutil.rmtree(folder, ignore_errors=True)


# --- a group's season: the review of years of evenings --------------------------------

# Each review page's first answer after a new result, at most (issue #54), and the import of the years at most.
AFTER_RESULT_MS = 200
IMPORT_SECONDS = 60
AFTER_RESULTS = 3  # new results, each followed by one request of each page


def _one_result(folder: Path, number: int, players: list[str]) -> Path:
    """A library file of one new finished session (a score sheet won by chance), played just now."""
    from companion.library import export

    session = season.new_sheet(players, datetime.now(timezone.utc), seed=number)
    path = folder / f"result-{number}.json"
    export.write({"format": export.FORMAT, "version": export.VERSION, "group": "", "sessions": [session],
                  "exported_at": session["created_at"], "digest": export.digest([session])}, path)
    return path


def _import(database_url: str, path: Path) -> float:
    """``flask import-library`` of the file, as an operator runs it; its wall-clock seconds."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "flask", "import-library", str(path)], cwd=ROOT,
                   env=environment(database_url), check=True, capture_output=True)
    return time.perf_counter() - start


def _first_answer_ms(base: str, path: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(base + urllib.parse.quote(path), headers=BROWSER_HEADERS),
                                timeout=60) as response:
        response.read()
    return (time.perf_counter() - start) * 1000


def season_figures(kind: str, args) -> dict:
    """A group of ``args.season_sessions`` sessions over three years, 40 players: its library file imported (timed),
    then its standings, a head-to-head and a player's page against the bare route, kept, and each one's first
    answer after a new result (one request, on whichever worker takes it: each worker keeps its own)."""
    folder = Path(tempfile.mkdtemp(prefix=f"bench-season-{kind}-"))
    database_url, drop = scratch_database(kind, folder)
    process = None
    try:
        migrate(database_url)
        library = folder / "library.json"
        count = season.write(library, sessions=args.season_sessions)
        log(f"[{kind}] season: importing {count:,} sessions ({library.stat().st_size / 1e6:.1f} MB)")
        imported = _import(database_url, library)
        process, base = start_gunicorn(database_url, folder)
        first, second = season.PEOPLE[:2]
        paths = {"bare": ("/bench/bare", BROWSER_HEADERS, {200}),
                 "standings": ("/standings", BROWSER_HEADERS, {200}),
                 "versus": (urllib.parse.quote(f"/players/{first}/vs/{second}"), BROWSER_HEADERS, {200}),
                 "player": (urllib.parse.quote(f"/players/{first}"), BROWSER_HEADERS, {200})}
        # Every worker reads the years once (a cold start), then keeps them: warm until every page answers quickly.
        warm_start = time.perf_counter()
        for _ in range(24):
            if closed_loop(base, [p for p, _, _ in paths.values()], 8, 5.0, BROWSER_HEADERS, {200}).percentile(99) < 100:
                break
        warm = time.perf_counter() - warm_start
        log(f"[{kind}] season: throughput, {args.runs} rounds of every page")
        measured = throughputs(base, paths, args.runs, args.seconds, args.connections)
        after: dict[str, list[float]] = {name: [] for name in paths if name != "bare"}
        results = 0
        for _ in range(AFTER_RESULTS):
            for name in after:
                results += 1
                _import(database_url, _one_result(folder, results, [first, second, season.PEOPLE[2]]))
                after[name].append(_first_answer_ms(base, urllib.parse.unquote(paths[name][0])))
        return {"season": {"sessions": count, "players": len(season.PEOPLE), "import_s": imported,
                           "file_mb": library.stat().st_size / 1e6, "warm_s": warm,
                           "throughput": measured, "after_result_ms": after}}
    finally:
        if process is not None:
            stop_gunicorn(process)
        drop()
        shutil.rmtree(folder, ignore_errors=True)


def season_report(figures: dict) -> list[str]:
    f = figures["season"]
    t = f["throughput"]
    bare = t["bare"]["rps"]
    lines = [f"A group's season: {f['sessions']:,} sessions over three years, {f['players']} players "
             f"({f['file_mb']:.1f} MB): `flask import-library` {f['import_s']:.1f} s (target ≤ {IMPORT_SECONDS} s: "
             f"{verdict(f['import_s'] <= IMPORT_SECONDS)}).", "",
             "| page | kept: req/s | vs bare (≤ 4× cost) | first answer after a new result (≤ 200 ms) |",
             "|---|---:|---:|---|"]
    for name, label in (("standings", "standings"), ("versus", "head-to-head"), ("player", "a player's page")):
        cost = bare / t[name]["rps"]
        after = f["after_result_ms"][name]
        lines.append(f"| {label} | {t[name]['rps']:.0f} | {cost:.2f}×: {verdict(cost <= 4)} | "
                     f"{', '.join(f'{ms:.0f}' for ms in after)} ms: {verdict(max(after) <= AFTER_RESULT_MS)} |")
    return lines + ["", f"Bare route {bare:.0f} req/s in that server; the {WORKERS} workers' first reading of the "
                        f"years (each its own, after a start) took {f['warm_s']:.0f} s of requests."]


# --- the report ----------------------------------------------------------------------

def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    memory = subprocess.run(["free", "-h"], capture_output=True, text=True).stdout.split("\n")[1].split()[1]
    return {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "nproc": os.cpu_count(),
            "memory": memory, "cpu": cpu, "python": platform.python_version(),
            "load_before": os.getloadavg()[0]}


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def from_the_tap(figure: dict) -> str:
    """A four phones' figure (bench/phones.py): its delays from the tap and the verdict on p95 ≤ 300 ms."""
    return (f"({figure['updates']} updates) p50 {figure['p50_ms']:.0f} ms, p95 {figure['p95_ms']:.0f} ms, "
            f"max {figure['max_ms']:.0f} ms from the tap (target p95 ≤ 300 ms: {verdict(figure['p95_ms'] <= 300)})")


def report(all_results: dict, info: dict) -> str:
    lines = [f"Measured {info['date']} on {info['nproc']} cores ({info['cpu']}), {info['memory']} RAM, "
             f"Python {info['python']}; load average before the run: {info['load_before']:.2f}.", ""]
    for kind, results in all_results.items():
        if "throughput" not in results:
            lines += [f"### {kind}", "", *season_report(results), ""]
            continue
        t = results["throughput"]
        bare = t["bare"]["rps"]
        lines += [f"### {kind}", "",
                  "| figure | req/s | p50 ms | p99 ms | vs bare | target | |",
                  "|---|---:|---:|---:|---:|---|---|"]

        def row(name, label, target_text, ok):
            f = t[name]
            lines.append(f"| {label} | {f['rps']:.0f} | {f['p50_ms']:.2f} | {f['p99_ms']:.2f} | "
                         f"{f['rps'] / bare:.2f}× throughput, {bare / f['rps']:.2f}× cost | {target_text} | "
                         f"{verdict(ok)} |")

        lines.append(f"| bare Flask route | {bare:.0f} | {t['bare']['p50_ms']:.2f} | {t['bare']['p99_ms']:.2f} "
                     f"| 1 | baseline | |")
        row("poll", "live poll, nothing changed (204)", "≥ 0.8× bare throughput", t["poll"]["rps"] >= 0.8 * bare)
        row("page_long", f"table page, Carambouille 7 players 20 hands ({results['tables']['long_entries']} entries)",
            "≤ 4× bare cost", bare / t["page_long"]["rps"] <= 4)
        row("replay_long", f"a step of its replay, the middle of {results['tables']['long_entries']} (htmx)",
            "≤ 6× bare cost", bare / t["replay_long"]["rps"] <= 6)
        row("replay_page_long", "the same step as a whole page", "≤ 6× bare cost",
            bare / t["replay_page_long"]["rps"] <= 6)
        row("page_10", f"table page at {results['tables']['small_entries']} entries", "", True)
        row("page_1000", f"table page at {results['tables']['big_entries']} entries", "", True)
        row("live_10", "live region (changed) at 10 entries", "", True)
        row("live_1000", "live region (changed) at 1,000 entries", "", True)
        page_ratio = t["page_10"]["rps"] / t["page_1000"]["rps"]
        live_ratio = t["live_10"]["rps"] / t["live_1000"]["rps"]
        lines += ["", f"Cost at 1,000 entries vs 10: table page {page_ratio:.2f}×, live region {live_ratio:.2f}× "
                      f"(target ≤ 1.5×: {verdict(max(page_ratio, live_ratio) <= 1.5)}).", ""]
        for figure, words in (("rendered", "Rendered for its seat every time (no seat's rendering kept, the parts "
                                            "every seat shares and the version's reads kept: each seat's first phone "
                                            "after an entry but the table's first; target ≤ 8×)"),
                              ("cold", "Rendered with nothing kept at all (the table's first phone after an entry; "
                                       "target ≤ 6×)")):
            if rendered := results.get(figure):
                r_bare = rendered["bare"]["rps"]
                ratio = r_bare / rendered["page_long"]["rps"]
                met = f" ({verdict(ratio <= (8 if figure == 'rendered' else 6))})"
                lines += [f"{words}, bare route {r_bare:.0f} req/s in that server: table page of the long game "
                          f"{rendered['page_long']['rps']:.0f} req/s ({ratio:.1f}× the bare cost{met}, "
                          f"p50 {rendered['page_long']['p50_ms']:.1f} ms), its live region "
                          f"{rendered['live_long']['rps']:.0f} req/s ({r_bare / rendered['live_long']['rps']:.1f}×, "
                          f"p50 {rendered['live_long']['p50_ms']:.1f} ms), a step of its replay "
                          f"{rendered['replay_long']['rps']:.0f} req/s ({r_bare / rendered['replay_long']['rps']:.1f}×, "
                          f"p50 {rendered['replay_long']['p50_ms']:.1f} ms).", ""]
        lines += ["Each game's table page, as long as an evening makes it (cost against the bare route's, kept / "
                  "rendered for its seat / nothing kept; no target of its own: the long Carambouille game is the "
                  "heaviest page):", ""]
        for game, label in GAME_PAGES.items():
            if f"page_{game}" in t:
                ratios = [f"{results[figure]['bare']['rps'] / results[figure][f'page_{game}']['rps']:.2f}×"
                          for figure in ("throughput", "rendered", "cold") if f"page_{game}" in results.get(figure, {})]
                lines.append(f"- {label} ({results['tables'][f'{game}_entries']} entries): {' / '.join(ratios)}")
        lines.append("")
        errors = sum(f["errors"] for f in t.values()) + sum(
            f["errors"] for figure in ("rendered", "cold") for f in results.get(figure, {}).values())
        lines.append(f"Errors in the throughput runs: {errors}.")
        if night := results.get("night"):
            lines += ["", f"Table night: {night['requests']} requests in the run ({night['rps']:.0f}/s), "
                          f"{night['entries']} entries; latency from when each request was due: "
                          f"p50 {night['p50_ms']:.1f} ms, p99 {night['p99_ms']:.1f} ms, max {night['max_ms']:.0f} ms; "
                          f"errors {night['errors']} (target p99 < 100 ms, no errors: "
                          f"{verdict(night['p99_ms'] < 100 and night['errors'] == 0)}). Statuses: {night['statuses']}; "
                          "p99 by answer: " + ", ".join(f"{status} {ms:.1f} ms" for status, ms in
                                                         sorted(night.get("p99_by_status_ms", {}).items())) + "."]
        if city_figures := results.get("city"):
            c = city_figures
            met = c["p50_ms"] <= 50 and c["p99_ms"] <= CITY_P99_MS and c["errors"] == 0 and c["lost"] == 0 == c["doubled"]
            lines += ["", f"City night: {c['tables']:,} tables ({c['sheets']:,} of them score sheets) × 6 phones ({c['streams']:,} streams held of "
                          f"{c['phones']:,} phones), {c['entries']:,} entries in {c['wall_s']:.0f} s; each entry shown on "
                          f"each phone of its table ({c['delivered']:,} of {c['expected']:,}) p50 {c['p50_ms']:.1f} ms, "
                          f"p99 {c['p99_ms']:.1f} ms, max {c['max_ms']:.0f} ms after its POST was sent (its version heard on "
                          f"the stream p50 {c['heard_p50_ms']:.1f} ms, p99 {c['heard_p99_ms']:.1f} ms); errors "
                          f"{c['errors']} {c['error_kinds'] or ''}; {c['acked']:,} entries acknowledged, {c['lost']} lost, "
                          f"{c['doubled']} doubled; {busy(c)} (target p50 ≤ 50 ms, p99 ≤ {CITY_P99_MS:.0f} ms, none missing: "
                          f"{verdict(met)}). Server over the night: {c['cpu_ms_per_entry']:.1f} ms of CPU per entry "
                          f"(polls and streams included; {c['server_cpu_percent']:.0f} % of {os.cpu_count() * 100} %), "
                          f"peak memory {c['server_peak_mb']:.0f} MB (master and {WORKERS} workers); before it, "
                          f"{c['opening_cpu_s']:.1f} s of CPU as the phones opened their streams; the load generator "
                          f"{c['client_cpu_percent']:.0f} % CPU. Requests: "
                          + ", ".join(f"{kind} {count:,}" for kind, count in sorted(c["requests"].items())) + "."]
        for name, o in results.get("overload", {}).items():
            (high, seconds), (base_rate, after) = o["phases"]
            recovered = o["recovered_after_s"]
            met = (o["lost"] == 0 == o["doubled"] and o["errors"] == 0 and o["p99_ms"] <= CAUGHT_UP_MS
                   and o["server_peak_mb"] <= 1024 and recovered is not None and recovered <= RECOVERY_SECONDS)
            lines += ["", f"Overload night {name}: {high:g} entries/s for {seconds:g} s, then {base_rate:g}/s for {after:g} s; "
                          f"{o['entries']:,} entries posted, {o['acked']:,} acknowledged ({o['post_statuses']}), "
                          f"{o['lost']} lost, {o['doubled']} doubled; {busy(o)}; each phone showed its table's newest version "
                          f"({o['delivered']:,} of {o['expected']:,}) p50 {o['p50_ms']:.0f} ms, p99 {o['p99_ms']:.0f} ms, "
                          f"max {o['max_ms']:.0f} ms after the POST (under the overload p50 {o['high_p50_ms']:.0f} ms, "
                          f"p99 {o['high_p99_ms']:.0f} ms); back to p99 ≤ {CITY_P99_MS:.0f} ms "
                          + (f"{recovered:.0f} s after the load fell" if recovered is not None else "**never**")
                          + f"; errors {o['errors']} {o['error_kinds'] or ''}; server {o['cpu_ms_per_entry']:.1f} ms CPU "
                          f"per entry ({o['server_cpu_percent']:.0f} %), peak memory {o['server_peak_mb']:.0f} MB "
                          f"(target: nothing lost, doubled or unanswered, p99 ≤ {CAUGHT_UP_MS / 1000:g} s, ≤ 1 GB, "
                          f"itself again within {RECOVERY_SECONDS:g} s: {verdict(met)})."]
        if phones := results.get("phones"):
            lines += ["", f"Four phones at a Carambouille table in one headless Chromium, {phones['hands']} hands, "
                          f"each move tapped on its player's phone: each entry shown on the other three "
                          f"{from_the_tap(phones)}."]
        if two := results.get("two_servers"):
            lines += ["", f"The same four phones on two app servers on one database (Ana's and Chloé's on one, "
                          f"Ben's and Dan's on the other: two of each entry's three deliveries cross), "
                          f"{two['hands']} hands {from_the_tap(two)}."]
        if weight := results.get("weight"):
            lines += ["", f"Page weight of the long game's table page: first visit {weight['first_kb']:.1f} KB "
                          f"over the wire in {weight['first_requests']} requests (target ≤ 60 KB: "
                          f"{verdict(weight['first_kb'] <= 60)}); repeat visit {weight['repeat_kb']:.1f} KB, "
                          f"{weight['repeat_cached']} files from the cache (target ≤ 10 KB: "
                          f"{verdict(weight['repeat_kb'] <= 10)}). The service worker's precache, apart: "
                          f"{weight['precache_kb']:.1f} KB over the wire in {weight['precache_requests']} "
                          f"requests (the files already loaded by the page come from the browser's cache), "
                          f"{weight['kept_files']} files kept, {weight['kept_kb']:.0f} KB as stored."]
        if results.get("lighthouse"):
            lh = results["lighthouse"]
            lines += ["", f"Lighthouse 12.2.3, mobile, table page: performance {lh['performance']} (≥ 95: "
                          f"{verdict(lh['performance'] >= 95)}), accessibility {lh['accessibility']} (100: "
                          f"{verdict(lh['accessibility'] == 100)}), best practices {lh['best-practices']} (≥ 95: "
                          f"{verdict(lh['best-practices'] >= 95)}); FCP {lh['fcp_ms']:.0f} ms, LCP {lh['lcp_ms']:.0f} ms; "
                          f"audits below 0.9: {', '.join(lh['failed_audits']) or 'none'}."]
        if "season" in results:
            lines += ["", *season_report(results)]
        lines.append("")
    return "\n".join(lines)


# The other games' pages measured beside the long Carambouille game (bench/games.py).
GAME_PAGES = {"jaipur": "Jaipur, a three-round match", "frutti": "Frutti di Mare, three rounds at three players",
              "sheet": f"a score sheet, Rummy at seven players, {SHEET_ROUNDS} rounds"}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--night-tables", type=int, default=100)
    parser.add_argument("--night-seconds", type=float, default=60.0)
    parser.add_argument("--night-entries", type=float, default=10.0, help="entries per second at the night's tables")
    parser.add_argument("--city-tables", type=int, default=1000)
    parser.add_argument("--city-seconds", type=float, default=60.0, help="0: no city night")
    parser.add_argument("--city-entries", type=float, default=50.0, help="entries per second at the city's tables")
    parser.add_argument("--overloads", type=lambda text: [float(x) for x in text.split(",") if x], default=[2.0, 4.0],
                        help="city nights at these multiples of --city-entries after the city night (\"\": none)")
    parser.add_argument("--overload-seconds", type=float, default=30.0)
    parser.add_argument("--recovery-seconds", type=float, default=20.0,
                        help="after each overload, the city's own rate for this long")
    parser.add_argument("--phones-hands", type=int, default=4, help="hands at the four phones' table (0: none)")
    parser.add_argument("--season-sessions", type=int, default=5000, help="a group's sessions for the review's figures "
                        "(0: none)")
    parser.add_argument("--season-only", action="store_true", help="only the review's figures")
    parser.add_argument("--only", choices=["sqlite", "postgresql"])
    parser.add_argument("--no-lighthouse", dest="lighthouse", action="store_false")
    parser.add_argument("--quick", action="store_true", help="short runs: check the bench itself")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.quick:
        # One entry a second over 10 tables: few enough that the protocol check can tell a phone that
        # follows the page (mostly 204) from one that does not (all 200).
        args.runs, args.seconds, args.night_tables, args.night_seconds, args.night_entries = 1, 1.0, 10, 10.0, 1.0
        args.city_tables, args.city_seconds, args.city_entries = 50, 10.0, 5.0
        args.overload_seconds, args.recovery_seconds = 5.0, 5.0
        args.season_sessions = min(args.season_sessions, 300)
    kinds = ["sqlite"] + (["postgresql"] if os.environ.get("BENCH_POSTGRES_URL") else [])
    if args.only:
        kinds = [args.only]
    info = machine()
    try:
        results = {kind: {} if args.season_only else bench_database(kind, args) for kind in kinds}
        if args.season_sessions:
            for kind in kinds:
                results[kind].update(season_figures(kind, args))
    except ProtocolError as error:
        sys.exit(f"python -m bench: no figures: {error}")
    if args.json:
        args.json.write_text(json.dumps({"machine": info, "results": results}, indent=2, default=str))
    print(report(results, info))


if __name__ == "__main__":
    main()
