"""The score progression chart: the geometry of an inline SVG line chart, one line per player.

Pure arithmetic, no markup: the template ``review/_chart.html`` draws what
this returns. Lines differ by colour (CSS classes, light and dark), by dash
pattern and by marker shape, so they stay apart in black and white and for
colour-blind players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import number
from ..rules.words import _
from . import sentences

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 12, 34
PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
DASHES = ("none", "8 5", "2 4", "10 4 2 4", "5 5", "1 3", "12 6")
SHAPES = ("circle", "square", "triangle", "diamond", "circle", "square", "triangle")
MAX_X_LABELS = 12


@dataclass(frozen=True)
class Series:
    """One player's line."""

    seat: int
    name: str
    values: tuple[int, ...]
    points: str  # "x,y x,y …" for the polyline
    markers: tuple[str, ...]  # one path per data point
    dash: str  # stroke-dasharray, "none" for a solid line
    style: int  # 0–6: the CSS class suffix (colour)
    legend_marker: str  # the marker drawn on the legend's sample line

    @property
    def final(self) -> int:
        return self.values[-1]


@dataclass(frozen=True)
class Tick:
    value: int
    position: float  # y for the value axis, x for the period axis
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    x_title: str
    y_title: str
    title: str = ""


def nice_top(highest: int) -> tuple[int, int]:
    """A round top for the value axis and its tick step (at most 5 steps)."""
    if highest <= 0:
        return 1, 1
    magnitude = 1
    while magnitude * 10 <= highest:
        magnitude *= 10
    for factor in (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10):
        step = max(1, int(magnitude * factor))
        if -(-highest // step) <= 5:
            return step * -(-highest // step), step
    return magnitude * 10, magnitude * 2  # not reached: 10 × magnitude always fits


def _marker(shape: str, x: float, y: float) -> str:
    r = 3.5
    if shape == "square":
        return f"M{x - r:.1f},{y - r:.1f}h{2 * r:.1f}v{2 * r:.1f}h{-2 * r:.1f}z"
    if shape == "triangle":
        return f"M{x:.1f},{y - r - 0.5:.1f}L{x + r + 0.5:.1f},{y + r:.1f}L{x - r - 0.5:.1f},{y + r:.1f}z"
    if shape == "diamond":
        return f"M{x:.1f},{y - r - 1:.1f}L{x + r + 1:.1f},{y:.1f}L{x:.1f},{y + r + 1:.1f}L{x - r - 1:.1f},{y:.1f}z"
    return f"M{x - r:.1f},{y:.1f}a{r},{r} 0 1,0 {2 * r:.1f},0a{r},{r} 0 1,0 {-2 * r:.1f},0"


def x_positions(count: int) -> list[float]:
    """Where each data point sits across the plot."""
    if count == 1:
        return [LEFT + PLOT_W / 2]
    return [LEFT + PLOT_W * i / (count - 1) for i in range(count)]


def y_position(value: int, top: int) -> float:
    """Where a value sits up the plot (0 at the bottom)."""
    return round(TOP + PLOT_H * (1 - value / top), 1)


def build(players: Sequence[str], progression: Sequence[tuple[str, Sequence[int]]],
          period: str, quantity: str) -> Chart:
    """The chart of running totals: ``progression`` is (label, totals per seat) from the start.

    ``period`` and ``quantity`` are the review's English words ("Hand", "Points"): the axes are worded here.
    """
    highest = max((v for _label, totals in progression for v in totals), default=0)
    top, step = nice_top(highest)
    xs = x_positions(len(progression))
    series = []
    for seat, name in enumerate(players):
        values = tuple(totals[seat] for _label, totals in progression)
        coords = [(round(x, 1), y_position(v, top)) for x, v in zip(xs, values)]
        series.append(Series(
            seat=seat,
            name=name,
            values=values,
            points=" ".join(f"{x:g},{y:g}" for x, y in coords),
            markers=tuple(_marker(SHAPES[seat % len(SHAPES)], x, y) for x, y in coords),
            dash=DASHES[seat % len(DASHES)],
            style=seat % len(DASHES),
            legend_marker=_marker(SHAPES[seat % len(SHAPES)], 22, 6),
        ))
    y_ticks = tuple(Tick(v, y_position(v, top), number(v)) for v in range(0, top + 1, step))
    every = max(1, -(-len(progression) // MAX_X_LABELS))
    x_ticks = tuple(
        Tick(i, round(x, 1), str(i))
        for i, x in enumerate(xs) if i % every == 0 or i == len(xs) - 1
    )
    return Chart(WIDTH, HEIGHT, LEFT, LEFT + PLOT_W, TOP, TOP + PLOT_H, tuple(series), y_ticks, x_ticks,
                 sentences.period(period), sentences.quantity(quantity), sentences.after_each(period, quantity))


def description(players: Sequence[str], progression: Sequence[tuple[str, Sequence[int]]],
                quantity: str, period: str) -> str:
    """The chart in words, for screen readers: who ends where (``quantity``, ``period``: the review's English words)."""
    periods = len(progression) - 1
    if periods < 1:
        # Translators: %(what)s is what the chart adds up: "Points" or "Money".
        return _("%(what)s: nothing has been scored yet.", what=sentences.quantity(quantity))
    final = progression[-1][1]
    order = sorted(range(len(players)), key=lambda seat: (-final[seat], seat))
    # Translators: one player's total at the end, in a list: "Ana 120".
    ends = ", ".join(_("%(name)s %(total)s", name=players[seat], total=number(final[seat])) for seat in order)
    # Translators: the chart described for screen readers: "Points after each hand (5 hands). At the end: Ana 120, Ben 90."
    return _("%(title)s (%(count)s). At the end: %(ends)s.", title=sentences.after_each(period, quantity),
             count=sentences.count(period, periods), ends=ends)
