"""The group's standings: its players rated (OpenSkill) in a season, over all games or one; as a page and as JSON."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, jsonify, make_response, redirect, render_template, request, url_for
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from ..extensions import db
from ..forms.review import SeasonForm, StandingsForm
from ..groups import log as group_log
from ..i18n import formats
from ..models import Season as OwnSeason
from ..review import ratings, seasons, standings
from .kept_pages import kept_page
from ..review.history import TITLED
from ..review.standings import Pool
from ..i18n.formats import number, percent
from ..inputs import names
from ..rules import GAMES
from ..rules.words import _
from ..web.membership import current_group, in_group, is_keeper, me
from .group_pages import current, group_name, group_page, in_no_group, keepers_only

bp = Blueprint("standings", __name__)


def _chosen(group_id: int, wanted: str | None = None) -> tuple[StandingsForm, Pool]:
    """The form as sent and the pool it chooses (what it could not read left at its default: the current season, or
    the ``wanted`` one, over all games)."""
    started, played = seasons.own(group_id), standings.played_quarters(group_id)
    today = seasons.current(started)
    form = StandingsForm(request.args, seasons=[(season.key, season.label) for season in seasons.choices(played, started)],
                         games=standings.game_choices(group_id), season=wanted or today.key)
    if request.args:
        form.validate()
    season = (seasons.by_key(form.season.data, played, started) if not form.season.errors else None) or today
    game = form.game.data or None if not form.game.errors else None
    form.season.data, form.game.data = season.key, game or ""
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


def _card(group, pool: Pool, rows: list, season: str, game: str | None) -> dict:
    """What the picture of the standings says (``static/card.js`` draws it), in the reader's language."""
    return {
        "game": _("Standings"),
        "when": " · ".join(part for part in (group_name(group), season, game or _("All games")) if part),
        "heading": _("Rating"),
        "standings": [{"rank": place, "name": row.name, "score": number(row.rating),
                       "unit": _("provisional") if row.provisional else "", "winner": place == 1}
                      for place, row in enumerate(rows, start=1)],
        "winner": _("leads"),
        "app": _("Table companion"),
        # A file name any phone keeps: the season's key and the game's name in plain letters ("standings-2026-Q4-skat").
        "file": "-".join(filter(None, ("standings", pool.season.key,
                                       re.sub(r"[^a-z0-9]+", "-", names.key(game or "")).strip("-")))) + ".png",
    }


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
    season = seasons.of_day(seasons.day_of(table.created_at), seasons.own(table.group_id))
    rated = standings.rated(Pool(table.group_id, season, None))
    changes = rated.changes.get(table.id)
    if not changes:
        return None
    return season.label, [(name, *changes[key]) for name in table.players
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
    return _page(group)


def _page(group, season_form: SeasonForm | None = None, status: int = 200,
          change_form: SeasonForm | None = None, wanted: str | None = None) -> Response:
    if season_form is None and change_form is None:
        return group_page(kept_page(group, lambda: _chosen_page(group)))
    form, pool = _chosen(group.id, wanted)
    return group_page((_rendered(group, form, pool, season_form, change_form), 422 if form.errors else status))


def _chosen_page(group) -> str | Response:
    """The standings the address chooses; a choice that cannot be read is a page of its own (422, not kept)."""
    form, pool = _chosen(group.id)
    if form.errors:
        return make_response(_rendered(group, form, pool), 422)
    return _rendered(group, form, pool)


def _newest(group_id: int, pool: Pool) -> OwnSeason | None:
    """The group's newest season of its own, when it is the one shown: the one season a keeper may change."""
    started = seasons.own(group_id)
    return started[-1] if started and pool.season.key == f"s{started[-1].id}" else None


def _rendered(group, form: StandingsForm, pool: Pool, season_form: SeasonForm | None = None,
              change_form: SeasonForm | None = None) -> str:
    rated = standings.rated(pool)
    season = pool.season.label
    newest = _newest(group.id, pool)
    if change_form is None and newest is not None:
        change_form = SeasonForm(formdata=None, prefix="change", name=newest.name, starts_on=newest.starts_on)
    return render_template("review/standings.html", form=form, pool=pool, rows=rated.standings, season=season,
                           game=_game_name(form, pool), champions=_champions(form, pool),
                           card=_card(group, pool, rated.standings, season, _game_name(form, pool)),
                           provisional_games=ratings.PROVISIONAL, start_rating=ratings.START,
                           champion_games=ratings.CHAMPION_GAMES, keeper=is_keeper(group),
                           season_form=season_form or SeasonForm(formdata=None), newest=newest,
                           change_form=change_form)


@bp.post("/standings/seasons")
def start_season() -> Response:
    """Start a season of the group's own (a keeper): from its first day, its standings rate the sessions of its days
    until the next one's; the quarters before it stay as they were."""
    group = current()
    keepers_only(group)
    form = SeasonForm()
    if form.validate_on_submit():
        season = OwnSeason(group_id=group.id, name=form.name.data, starts_on=form.starts_on.data)
        db.session.add(season)
        if (saved := _saved(group, season, form, "season_started")) is not None:
            return saved
    return _page(group, form, 422)


def _saved(group, season: OwnSeason, form: SeasonForm, kind: str) -> Response | None:
    """Commit the season as the form has it, noted in the group's log: the way to its standings; None, with the
    refusal next to its day, if the group has a season of that day already (two phones at once, or an earlier)."""
    name, day = form.name.data, form.starts_on.data
    group_log.note(group.id, kind, me(group), name=name, day=day.isoformat())
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        form.starts_on.errors = [_("A season of the group already starts that day.")]
        return None
    flash(_("The season %(name)s starts on %(day)s.", name=name, day=formats.date(day)))
    return redirect(url_for("standings.page", season=f"s{season.id}"), 303)


@bp.post("/standings/seasons/<int:season_id>")
def change_season(season_id: int) -> Response:
    """Change the group's newest season (a keeper): its name, and its first day, which stays after the first day
    of the season before it (the seasons before stay as they were)."""
    group = current()
    keepers_only(group)
    started = seasons.own(group.id)
    if not started or started[-1].id != season_id:
        abort(404)  # not the group's newest season: another group's, one before it, or none
    season, form = started[-1], SeasonForm(prefix="change")
    if form.validate_on_submit():
        if len(started) > 1 and form.starts_on.data <= started[-2].starts_on:
            form.starts_on.errors = [_("Pick a day after %(day)s, the first day of the season before it.",
                                       day=formats.date(started[-2].starts_on))]
        else:
            season.name, season.starts_on = form.name.data, form.starts_on.data
            if (saved := _saved(group, season, form, "season_changed")) is not None:
                return saved
    return _page(group, status=422, change_form=form, wanted=f"s{season_id}")


@bp.get("/games/<path:game>")
def game_page(game: str) -> Response:
    """One game of the group's: its champion this season and all time, and its records; 404 for a game the group
    has not played (a phone in no group is shown how to join one)."""
    if (group := current_group()) is None:
        return group_page(in_no_group())
    choices = dict(standings.game_choices(group.id))
    if game not in choices:
        abort(404)
    return group_page(kept_page(group, lambda: _game_rendered(group, game, choices[game])))


def _game_rendered(group, game: str, name: str) -> str:
    today = seasons.current(seasons.own(group.id))
    champions = {season.label: _champion(Pool(group.id, season, game)) for season in (today, seasons.ALL_TIME)}
    return render_template("review/game.html", game=game, name=name, records=standings.game_records(group.id, game),
                           champions=champions, champion_games=ratings.CHAMPION_GAMES)


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
        "season": pool.season.key,
        "game": _game_name(form, pool),
        "players": [{"name": row.name, "rating": row.rating, "mu": row.mu, "sigma": row.sigma, "games": row.games,
                     "wins": row.wins, "provisional": row.provisional} for row in rated.standings],
    }))


@bp.get("/new/<slug>/chances")
def chances(slug: str) -> Response:
    """The quiet line of a new table's form: each player's chance of winning as OpenSkill predicts it from the
    group's ratings at the game (all time), for the players with history there. Players in teams get none."""
    game = GAMES.get(slug)
    if game is None or (group := current_group()) is None:
        abort(404)
    typed = [request.args.get(f"players-{seat}", "") for seat in range(game.MAX_PLAYERS)]
    seated = [name for name in (names.clean(name[:names.NAME_LENGTH]) for name in typed) if name]
    titled = getattr(game, "title", None) is not None
    title = names.clean(request.args.get("name", "")[:names.NAME_LENGTH])
    teams = any(request.args.get(f"teams-{seat}") for seat in range(game.MAX_PLAYERS))
    shares = []
    if not teams and (title or not titled):
        pool = Pool(group.id, seasons.ALL_TIME, f"{slug}{TITLED}{title}" if titled else slug)
        shares = ratings.chances(standings.rated(pool).standings, seated)
    return group_page(render_template("review/_chances_line.html", shares=shares))
