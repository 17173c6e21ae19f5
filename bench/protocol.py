"""The live poll as a phone makes it (static/app.js), and the check that the bench's phones made it so.

The page's live region is ``<div id="live" … data-seen="N" … hx-get="/t/<token>/live" …>``: htmx polls
the region's ``hx-get`` and static/app.js adds ``seen=<data-seen>`` to every poll (htmx:configRequest).
A 200 answer is a new region, morphed in with its own ``data-seen`` (unless it is older than the one
shown); a 204 changes nothing. A bench whose phones do not send the version they show measures a
server that renders every poll, which no phone asks of it: it must stop, not print a figure.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

LIVE_REGION = re.compile(rb'<div id="live"[^>]*>')
SEEN = re.compile(rb'\sdata-seen="(\d+)"')
LIVE_URL = re.compile(rb'\shx-get="([^"]+)"')


class ProtocolError(RuntimeError):
    """The bench's phones did not speak the app's protocol: its figures would not be the product's."""


def live_region(page: bytes) -> tuple[str, int]:
    """The live region's poll URL (``hx-get``) and the version it shows (``data-seen``), as static/app.js reads them."""
    region = LIVE_REGION.search(page)
    if region is None:
        raise ProtocolError(f"no live region (<div id=\"live\" …>) in the answer: {page[:200]!r}")
    seen, url = SEEN.search(region[0]), LIVE_URL.search(region[0])
    if seen is None or url is None:
        raise ProtocolError(f"the live region carries no data-seen or no hx-get, so a phone cannot poll "
                            f"as static/app.js does: {region[0][:300]!r}")
    return html.unescape(url[1].decode()), int(seen[1])


@dataclass
class Phone:
    """One phone's live poll: the region's URL, asked with the version the phone shows."""

    live_url: str
    seen: int

    @classmethod
    def from_page(cls, page: bytes) -> Phone:
        """The phone that has just loaded ``page`` (a table page, or a live region)."""
        return cls(*live_region(page))

    def poll_path(self) -> str:
        """What the next poll asks: htmx's GET of hx-get, with app.js's ``seen`` parameter."""
        return f"{self.live_url}{'&' if '?' in self.live_url else '?'}seen={self.seen}"

    def answered(self, status: int, body: bytes) -> None:
        """Take a poll's answer as the page does: a 200 region shows its version, unless older than the one shown."""
        if status == 200:
            url, seen = live_region(body)
            if seen >= self.seen:
                self.live_url, self.seen = url, seen


def check_night(statuses: dict, phones: int, phones_per_table: int) -> None:
    """Refuse a table night whose phones polled without the version they show.

    Each entry changes the region of the phones at its table once, so a phone that follows the page
    answers 200 at most once per entry at its table (and once more for its first poll); every other
    poll is a 204. A night of mostly 200s is a bench that renders every poll: ProtocolError.
    """
    changed, unchanged = statuses.get(200, 0), statuses.get(204, 0)
    entries = sum(count for status, count in statuses.items() if status == "POST 303")
    most = entries * phones_per_table + phones
    if changed > most:
        raise ProtocolError(
            f"the bench's phones did not poll with the version the page carries: {changed:,} of "
            f"{changed + unchanged:,} polls answered 200 (a changed region), though {entries:,} entries at "
            f"{phones_per_table} phones a table change at most {most:,} regions, and only {unchanged:,} "
            f"answered 204. A phone polls the region's hx-get with seen=<its data-seen> (static/app.js); "
            f"this night's figures are not the product's.")
    if changed + unchanged == 0:
        raise ProtocolError("the table night made no poll at all")



def poll_kind(timed_out: bool, told: int, seen: int) -> str:
    """Why a city phone sends its live poll: its safety net only when it waited its whole period and
    its stream told it of nothing it does not show; else its region (``static/app.js``: a stream's
    version the page does not show asks at once).

    A phone woken by its stream whose region was pushed while the poll waited its turn (a generator's
    loop behind, on a machine shared with the server) still asked for its region: counted as a safety
    poll, a city of such phones looked like phones polling in step.
    """
    return "safety poll" if timed_out and told <= seen else "region"


def check_city(safety_by_second: dict, phones: int, safety_seconds: float) -> None:
    """Refuse a city night whose phones polled in step, as no pages do.

    A page holding its stream asks for its region only when the stream says of a version it does not
    show, and otherwise polls once every ``safety_seconds`` after its own last request (static/app.js):
    pages opened at their own moments poll at their own phases, ``phones / safety_seconds`` a second
    on average. Three times that in one second is a bench whose phones keep one clock (or ask at the
    stream's first message, which says the version the page already shows): ProtocolError.

    Each poll is counted by the second it was due, not sent: the generator shares the server's cores,
    and a stall of its event loop sends together the polls that fell due during it (on PostgreSQL, 510
    in one second after a stall of about five), which says nothing of the phones' clocks. Only the
    night's first ``safety_seconds`` are read (each phone's first safety poll): later, a server that
    fell behind answers many phones at once, and their next polls, each ``safety_seconds`` after its
    own last request, come in step as real pages' would.
    """
    first = {second: count for second, count in safety_by_second.items() if second < safety_seconds}
    if not first:
        return
    second, most = max(first.items(), key=lambda item: item[1])
    allowed = 3 * phones / safety_seconds
    if most > allowed:
        raise ProtocolError(
            f"{most:,} of the city's {phones:,} phones polled in second {second} of the night, though pages "
            f"that each poll every {safety_seconds:.0f} s at their own phase send about "
            f"{phones / safety_seconds:,.0f} a second: the bench's phones kept one clock, or asked at a stream "
            f"message of a version they show (static/app.js asks for neither); this night's figures are not "
            f"the product's.")
