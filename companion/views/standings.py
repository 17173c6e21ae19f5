"""The group's standings: its players rated (OpenSkill) in a season, over all games or one; as a page and as JSON."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request
from werkzeug.wrappers import Response

from ..forms.review import StandingsForm
from ..review import history, ratings, standings
from ..review.standings import ALL, Pool
from ..i18n.formats import number, percent
from ..inputs import names
from ..rules.words import _
from ..web.membership import current_group, in_group
from .group_pages import group_page, in_no_group

bp = Blueprint("standings", __name__)


def _chosen(group_id: int) -> tuple[StandingsForm, Pool]:
    """The form as sent and the pool it chooses (what it could not read left at its default: the current season,
    all games)."""
    seasons = [(season, standings.season_name(season)) for season in standings.seasons(group_id)]
    form = StandingsForm(request.args, seasons=[*seasons, (ALL, _("All time"))],
                         games=history.game_choices(group_id), season=standings.current_season())
    if request.args:
        form.validate()
    season = form.season.data if form.season.data and not form.season.errors else standings.current_season()
    game = form.game.data or None if not form.game.errors else None
    form.season.data, form.game.data = season, game or ""
    return form, Pool(group_id, season, game)


def _champions(form: StandingsForm, pool: Pool) -> list[tuple[str, str, ratings.Standing]]:
    """Each game's champion in the season: the best rating of those with ``ratings.CHAMPION_GAMES`` rated games."""
    found = []
    for value, name in form.game.choices[1:]:
        if (best := _champion(Pool(pool.group_id, pool.season, value))) is not None:
            found.append((value, name, best))
    return found


def _champion(pool: Pool) -> ratings.Standing | None:
    return next((row for row in standings.rated(pool).standings if row.games >= ratings.CHAMPION_GAMES),
                None)


def _game_name(form: StandingsForm, pool: Pool) -> str | None:
    return dict(form.game.choices).get(pool.game) if pool.game else None


@bp.app_template_filter("signed")
def signed(change: int) -> str:
    """A change of rating as a results page shows it: "+34", "−12" (a minus sign), "±0"."""
    if change == 0:
        return "±0"
    return ("+" if change > 0 else "\u2212") + number(abs(change))


def of_results(table) -> tuple[str, list[tuple[str, int, int]]] | None:
    """The season and each player's change of rating (and the rating it left them with) a session's results page
    shows: only once its result is final, and only for a phone in its group."""
    if not table.finished or not in_group(table.group_id):
        return None
    season = standings.season_of(table.created_at)
    rated = standings.rated(Pool(table.group_id, season, None))
    changes = rated.changes.get(table.id)
    if not changes:
        return None
    return standings.season_name(season), [(name, *changes[key]) for name in table.players
                                           if (key := names.key(name)) in changes]


@bp.app_template_global()
def share(value: float) -> str:
    """A share as this phone writes it, to the whole percent: "40%", "40 %"."""
    return percent(round(value, 2))


@bp.get("/standings")
def page() -> Response:
    """The group's players, the best rating first: the current season over all games unless chosen otherwise."""
    if (group := current_group()) is None:
        return group_page(in_no_group())
    form, pool = _chosen(group.id)
    rated = standings.rated(pool)
    season = _("All time") if pool.season == ALL else standings.season_name(pool.season)
    return group_page((render_template("review/standings.html", form=form, pool=pool, rows=rated.standings,
                                       season=season, game=_game_name(form, pool),
                                       champions=_champions(form, pool),
                                       provisional_games=ratings.PROVISIONAL, start_rating=ratings.START,
                                       champion_games=ratings.CHAMPION_GAMES),
                       422 if form.errors else 200))


@bp.get("/games/<path:game>")
def game_page(game: str) -> Response:
    """One game of the group's: its champion this season and all time, and its records; 404 for a game the group
    has not played (a phone in no group is shown how to join one)."""
    if (group := current_group()) is None:
        return group_page(in_no_group())
    choices = dict(history.game_choices(group.id))
    if game not in choices:
        abort(404)
    champions = {season: _champion(Pool(group.id, season, game))
                 for season in (standings.current_season(), ALL)}
    return group_page(render_template("review/game.html", game=game, name=choices[game],
                                      records=standings.game_records(group.id, game), champions=champions,
                                      season=standings.season_name(standings.current_season()),
                                      champion_games=ratings.CHAMPION_GAMES))


@bp.get("/standings.json")
def as_json() -> Response:
    """The same standings as JSON, for a group's own site or chat bot; ``mu`` and ``sigma`` are OpenSkill's own."""
    if (group := current_group()) is None:
        abort(404)
    form, pool = _chosen(group.id)
    if form.errors:
        return group_page((jsonify({"errors": form.errors}), 400))
    rated = standings.rated(pool)
    return group_page(jsonify({
        "season": pool.season,
        "game": _game_name(form, pool),
        "players": [{"name": row.name, "rating": row.rating, "mu": row.mu, "sigma": row.sigma, "games": row.games,
                     "wins": row.wins, "provisional": row.provisional} for row in rated.standings],
    }))
