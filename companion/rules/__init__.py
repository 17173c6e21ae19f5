"""The rules engines: pure game logic, standard library only.

Every game is a package, ``companion/rules/<game>/``, whose ``__init__.py`` is
its public face and exposes the same protocol (its session review is
``<game>/review.py``).
NOTE TO WHOEVER WRITES A GAME MODULE: all of this is required.

- Standard library only: never import flask, sqlalchemy, ``companion.models``
  or anything outside ``companion.rules``.
- ``NAME`` (shown to players), ``MIN_PLAYERS``, ``MAX_PLAYERS``; ``STARTER_OPTION``
  (the option naming who starts) and ``STARTER_LABEL`` (how the new-table form asks).
- ``new_game(players, options=None, rng=None) -> state``: the state before the
  first entry; ``options`` are the table's settings, validated here
  (``RuleError``). Deterministic: the app rebuilds state by replaying stored
  events, so nothing random may happen in ``new_game`` or ``apply``.
- ``complete(state, event, rng=None) -> event``: a copy of the event with
  what chance decides filled in (a drawn bonus token, a shuffled dish order),
  so the stored event replays identically; ``rng`` defaults to
  ``secrets.SystemRandom()``. Games without chance return a plain copy. The
  app calls ``complete`` then ``apply`` when recording, only ``apply`` when
  replaying.
- ``apply(state, event) -> state``: pure, never mutates its input. States are
  IMMUTABLE (frozen dataclasses holding tuples/frozensets, never lists or
  dicts) because the app caches and shares them between requests. Any
  malformed event (unknown type, missing key, wrong type, bool for int, out
  of range, unknown seat) raises :class:`RuleError`, never KeyError etc.
- ``scores(state) -> list[int]``: what the game ranks by, per seat, in seating
  order: points (Carambouille), money (Frutti di Mare), seals of excellence
  (Jaipur; its round points are ``jaipur.round_points``).
- ``finished(state) -> bool``: whether the game has reached its end.
- ``describe(state, event) -> str``: one sentence in words for the history,
  given the state *before* the event ("Ben sold 3 cheese for 180, Illusion
  by Ben -> 300, Bargain by Ana -> 150"). It never tells what is secret.
- Optional, for a game with secrets: ``withheld(before, event, now) ->
  tuple[str, ...]``: the keys of a recorded event whose values are still
  secret from the table (``before``: the state the event was applied to;
  ``now``: the table's newest state). An export leaves them out.

Optional declarations: module-level attributes the house asks a game for
(``declared(game, name)``) instead of keeping lists of games; a game that says
nothing gets the default in brackets (``DECLARATIONS``).

- ``SHARED_BOARD`` (False): the board reads the same for every seat but the
  reader's own seat marks (``for_seat``), so it is rendered once per table
  version for all of them. Not for a board that shows one seat what only that
  seat may see (Jaipur's bonus tokens to their seller).
- ``ONE_PASS`` (False): the whole live region is rendered once for every seat
  of a version, each seat's bits between seat markers (``companion.live.parts``).
- ``SETTINGS`` (``()``): the new-table form's fields that become the table's
  options under the same names (Jaipur's ``("bonus",)``).
- ``MARKET_BELL`` (False): the bell opens and closes the game's market (its
  ``market_opened`` / ``market_closed`` events) instead of a table timer.
- ``MATCH`` (False): a session is a match of rounds, one play for BG Stats
  with its rounds told in the comments.
- ``BGG_ID`` (None): the game's id on BoardGameGeek, checked there; a table's
  own ``bgg_id`` option comes first.
- ``VIEWS`` (None: ``companion.views.<slug>``): the module of the game's views,
  which supplies ``bp``, ``table_forms(table, state, seat)`` and ``KEPT_FORMS``.
- ``MOVE_KEYS`` (``{}``): per event type, the keys that make one move entered
  on two phones the same move (``companion.table.recording.same_move``).
- ``title(options) -> str`` (``NAME``): the name a table of the game is shown
  by (a score sheet: the game it scores), read through ``title_of`` and the
  house's ``companion.table.log.game_title``. A game that has it names what
  its tables play: the history's filter, the players page and BG Stats
  (``sourceGameId``) know each name as a game of its own.
- ``sides(state) -> tuple[tuple[int, ...], ...]`` (each seat alone): who counts
  together, each team's seats; the score row shows a side once, its players
  named together beside the side's score (``companion.table.view``), as its
  review's ``sides`` do in the standings: a team's total is no one player's.

Players appear in events by seat index (0-based int, seating order).
Events are plain JSON-able dicts with a ``"type"`` key (see ``docs/events.md``,
one section per game).
"""

from __future__ import annotations

import importlib
from types import MappingProxyType, ModuleType


class RuleError(ValueError):
    """An event the rules do not allow; ``str(error)`` is for the players.

    ``field`` names the event key (and so the form field) the sentence is
    about, so a page can show it next to that field. ``public`` is the
    sentence anyone at the table may read when the refusal is about an entry
    already recorded (an undo that would make a later entry impossible): it
    leaves out what that entry keeps secret, such as the card a player gave.
    """

    def __init__(self, message: str, field: str | None = None, public: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.public = public or message


class _Registry(dict):
    """Slug -> game module, imported on first use so a broken game never hides the others."""

    def __init__(self, modules: dict[str, str]) -> None:
        super().__init__()
        self._modules = modules

    def __missing__(self, slug: str) -> ModuleType:
        if slug not in self._modules:
            raise KeyError(slug)
        module = importlib.import_module(self._modules[slug])
        self[slug] = module
        return module

    def __contains__(self, slug: object) -> bool:
        return slug in self._modules

    def __iter__(self):
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def keys(self):
        return self._modules.keys()

    def items(self):
        return [(slug, self[slug]) for slug in self._modules]

    def values(self):
        return [self[slug] for slug in self._modules]

    def register(self, slug: str, module_name: str) -> None:
        """Add a game (tests register a tiny one)."""
        self._modules[slug] = module_name
        self.pop(slug, None)

    def unregister(self, slug: str) -> None:
        """Remove a game added by :meth:`register`."""
        self._modules.pop(slug, None)
        self.pop(slug, None)


GAMES = _Registry(
    {
        "carambouille": "companion.rules.carambouille",
        "jaipur": "companion.rules.jaipur",
        "frutti": "companion.rules.frutti",
        "sheet": "companion.rules.sheet",
    }
)


# Each optional declaration and what a game that does not declare it gets (the docstring above says what they mean).
DECLARATIONS = {
    "SHARED_BOARD": False,
    "ONE_PASS": False,
    "SETTINGS": (),
    "MARKET_BELL": False,
    "MATCH": False,
    "BGG_ID": None,
    "VIEWS": None,
    "MOVE_KEYS": MappingProxyType({}),
}


def declared(game: ModuleType, name: str):
    """What ``game`` declares as ``name`` (one of ``DECLARATIONS``), or that declaration's default.

    A name that is not a declaration is a KeyError, so a misspelt ask fails instead of reading the default.
    """
    return getattr(game, name, DECLARATIONS[name])


def title_of(game: ModuleType, options: dict | None) -> str:
    """The name a table of ``game`` with ``options`` is shown by: the game's ``title(options)`` if it has one, else
    its ``NAME`` (the house asks through ``companion.table.log.game_title``)."""
    title = getattr(game, "title", None)
    return game.NAME if title is None else title(options or {})


def replay(game: ModuleType, players: list[str], options: dict | None, events, rng=None):
    """Fold ``events`` through ``game.apply`` from a new game; the derived state."""
    state = game.new_game(players, options, rng)
    for event in events:
        state = game.apply(state, event)
    return state
