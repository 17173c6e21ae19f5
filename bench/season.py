"""A group's years of evenings as one library file, for the review's figures (issue #54).

``library(sessions, players, years)`` writes what a group that has played here for ``years`` years would
export: evenings of five to eight games, most nights of the week, among ``players`` people (a core who come most
nights, the others now and then), each game one of a score sheet whose points are drawn at random (so anyone
can win it), a Jaipur match, three rounds of Frutti di Mare or a hand of Carambouille, each played as its
template in ``bench.games`` with the evening's players in the seats. Every session is finished, as a year's
history is, and the file is checked on import like any other (every entry replayed through the rules).
"""

from __future__ import annotations

import copy
import random
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from . import games

# How a group's games fall: a score sheet most nights, the three games of the app beside it.
GAME_SHARES = (("sheet", 5), ("jaipur", 2), ("frutti", 2), ("carambouille", 1))
SHEET_ROUNDS = 5
MINUTES_APART = 35
# The group's people ("Player 3" would be a forgotten person's seat, no one's).
PEOPLE = ("Ana", "Ben", "Chloé", "Dario", "Elif", "Fatou", "Gus", "Hana", "Ines", "Jonas", "Kemal", "Lena",
          "Marta", "Noor", "Olek", "Paula", "Quentin", "Rosa", "Sami", "Tove", "Ugo", "Vera", "Wim", "Xenia",
          "Yusuf", "Zoé", "Aurelio", "Bea", "Cosmin", "Dalia", "Emil", "Frida", "Giulia", "Hugo", "Iris", "Jules",
          "Klara", "Luca", "Mireille", "Nils")  # one game's start to the next one's, within an evening


def templates() -> dict[str, dict[str, Any]]:
    """One finished session of each game with entries drawn from the game (``bench.games``), as its file."""
    from companion import create_app
    from companion.extensions import db
    from companion.review import export
    from companion.table import log

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/templates.sqlite", "SECRET_KEY": "bench"})
        with app.app_context():
            db.create_all()
            tables = {"jaipur": games.new_table("jaipur", games.PLAYERS[:2], {"bonus": "draw", "first_player": 0}),
                      "frutti": games.new_table("frutti", games.PLAYERS[:3], {"first_player": 0}),
                      "carambouille": games.new_table("carambouille", games.PLAYERS[:4], {"first_trader": 0})}
            games.play_jaipur(tables["jaipur"])
            games.play_frutti(tables["frutti"])
            games.play_carambouille(tables["carambouille"], hands=1)
            found = {game: export.export(table, log.entries_of(table), withhold=False) for game, table in tables.items()}
            db.session.remove()
            db.engine.dispose()
    return found


def _sheet(rng: random.Random, players: int) -> dict[str, Any]:
    """A score sheet of SHEET_ROUNDS rounds, each seat's points drawn at random."""
    entries = [{"seq": number, "type": "round",
                "event": {"type": "round", "round": number,
                          "points": [str(rng.randrange(-20, 60)) for _ in range(players)]}}
               for number in range(1, SHEET_ROUNDS + 1)]
    return {"format": "table-companion-session", "version": 1, "game": "sheet",
            "options": {"first_player": 0, "name": "Rummy", "rounds": SHEET_ROUNDS}, "entries": entries}


def _session(template: dict[str, Any], players: list[str], start: datetime) -> dict[str, Any]:
    """The template played by ``players`` from ``start``, its entries a minute apart, finished after the last."""
    session = copy.deepcopy(template)
    session["players"] = players
    session["status"] = "finished"
    session["created_at"] = start.isoformat()
    for number, item in enumerate(session["entries"], start=1):
        item["time"] = (start + timedelta(minutes=number)).isoformat()
        item.pop("summary", None)
    session["finished_at"] = (start + timedelta(minutes=len(session["entries"]) + 1)).isoformat()
    return session


def new_sheet(players: list[str], start: datetime, seed: int) -> dict[str, Any]:
    """A finished score sheet of ``players`` begun at ``start``, its points drawn with ``seed``."""
    return _session(_sheet(random.Random(seed), len(players)), players, start)


def library(sessions: int = 5000, players: int = 40, years: int = 3, seed: int = 54) -> dict[str, Any]:
    """The group's library file (``companion.library.export``'s envelope), newest session first."""
    from companion.library import export

    rng = random.Random(seed)
    made = templates()
    people = [PEOPLE[number % len(PEOPLE)] + ("" if number < len(PEOPLE) else f" {number // len(PEOPLE) + 1}")
              for number in range(players)]
    core = people[:12]  # who comes most nights
    kinds = [game for game, share in GAME_SHARES for _ in range(share)]
    end = datetime.now(UTC).replace(hour=19, minute=0, second=0, microsecond=0) - timedelta(days=1)
    nights = min(years * 365, sessions // 5)
    # The nights spread over the years; each evening at 19:00, its games 35 minutes apart.
    days = sorted(rng.sample(range(years * 365), nights), reverse=True)
    played = []
    for day in days:
        start = end - timedelta(days=day)
        there = rng.sample(core, rng.randint(4, 7)) + rng.sample(people[12:], rng.randint(0, 3))
        for number in range(rng.randint(5, 8)):
            game = rng.choice(kinds)
            if game == "sheet":
                template, seats = _sheet(rng, min(len(there), rng.randint(3, 6))), None
            else:
                template = made[game]
                seats = len(template["players"])
            seated = rng.sample(there, seats or len(template["entries"][0]["event"]["points"]))
            played.append(_session(template, seated, start + timedelta(minutes=MINUTES_APART * number)))
            if len(played) == sessions:
                break
        if len(played) == sessions:
            break
    played.reverse()  # newest first, as the export writes them
    return {"format": export.FORMAT, "version": export.VERSION, "group": "The season's group",
            "exported_at": datetime.now(UTC).isoformat(), "sessions": played, "digest": export.digest(played)}


def write(path: Path, **kwargs: Any) -> int:
    """The library file at ``path``; how many sessions it holds."""
    from companion.library import export

    envelope = library(**kwargs)
    export.write(envelope, path)
    return len(envelope["sessions"])
