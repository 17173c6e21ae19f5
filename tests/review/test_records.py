"""A game's records: highest and lowest score, biggest win, longest and current win streak, biggest comeback; and
the game's page that shows them with its champions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from companion.review.records import records
from companion.review.stats import Outcome
from groups.tables import group_named, member_of, played
from review.test_evenings import text_of
from review.test_review_sessions import JAIPUR, record_all

T0 = datetime(2026, 11, 6, 20, 0, tzinfo=UTC)


def played_out(number: int, players, trail, *, ranks=None, lowest_wins=False, finished=True) -> Outcome:
    """A session whose chart went through ``trail`` (totals after each round); ranked by its last totals."""
    totals = trail[-1]
    if ranks is None:
        ranks = tuple(1 + sum(1 for t in totals if (t < total if lowest_wins else t > total)) for total in totals)
    winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    return Outcome(number, "frutti", "Frutti di Mare", T0 + timedelta(days=number), finished, tuple(players), winners,
                   (), f"watch{number}", ranks=tuple(ranks), totals=tuple(totals), trail=tuple(map(tuple, trail)),
                   lowest_wins=lowest_wins, chart_name="Money")


SESSIONS = [
    played_out(1, ["Ana", "Ben"], [(10, 40), (90, 60)]),  # Ana 30 behind after round 1, won by 30
    played_out(2, ["Ana", "Ben", "Cy"], [(50, 20, 10), (120, 20, 30)]),  # Ana by 90
    played_out(3, ["Ana", "Ben"], [(0, 300), (10, 310), (400, 320)]),  # Ana 300 behind after round 1, by 80
    played_out(4, ["Ben", "Cy"], [(5, 0)]),  # Ana did not play: her streak goes on
    played_out(5, ["Ana", "Ben"], [(20, 50)]),  # Ben wins: Ana's streak of 3 ends
    played_out(6, ["Ana", "Player 2"], [(30, 500)]),  # a forgotten seat holds no record (its 500, its win)
    played_out(7, ["Ben", "Cy"], [(70, 10)]),
    played_out(8, ["Ana", "Ben"], [(60, 60)]),  # a shared win: no margin
    played_out(9, ["Ana", "Ben"], [(999, 0)], finished=False),  # not finished: nothing
]


def test_a_games_records_over_its_finished_sessions():
    found = records(SESSIONS)
    assert found.sessions == 8
    assert (found.highest.value, found.highest.who, found.highest.outcome.table_id) == (400, ("Ana",), 3)
    assert (found.lowest.value, found.lowest.who) == (0, ("Cy",))
    assert (found.biggest_win.value, found.biggest_win.who, found.biggest_win.outcome.table_id) == (90, ("Ana",), 2)
    assert (found.comeback.value, found.comeback.period, found.comeback.who) == (300, 1, ("Ana",))
    # Ana won 1, 2, 3 (session 4 was not hers) and lost 5; Ben won 4, 5, 7 and shared 8 (6 was not his): four in a
    # row, still going. The forgotten seat's win at 6 is no one's.
    assert (found.longest_streak.length, found.longest_streak.who, found.longest_streak.outcome.table_id) == (
        4, "Ben", 8)
    assert (found.current_streak.length, found.current_streak.who) == (4, "Ben")
    assert records(SESSIONS[:4]).longest_streak.who == "Ana"


def test_a_lowest_wins_sheet_turns_the_scores_over():
    hearts = [played_out(1, ["Ana", "Ben", "Cy"], [(30, 0, 10), (40, 90, 70)], lowest_wins=True)]
    found = records(hearts)
    # Ana won with the fewest points, 30 fewer than Cy; after round 1 she stood 30 behind Ben's 0.
    assert (found.biggest_win.value, found.biggest_win.who) == (30, ("Ana",))
    assert (found.comeback.value, found.comeback.period) == (30, 1)
    assert found.current_streak is None  # one win is no streak yet


def test_a_match_won_with_fewer_points_is_no_big_win_and_nothing_is_a_record_before_a_finish():
    seals = played_out(1, ["Ana", "Ben"], [(40, 90)], ranks=(1, 2))  # won on seals, 50 points behind
    assert records([seals]).biggest_win is None
    empty = records([played_out(1, ["Ana", "Ben"], [(1, 2)], finished=False)])
    assert empty.sessions == 0 and empty.highest is None and empty.longest_streak is None


def test_the_games_page_shows_its_champion_and_records(app, client):
    for _ in range(5):
        record_all(app, *JAIPUR)  # Ben wins every match
    answer = client.get("/games/jaipur")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "private, no-cache"
    text = text_of(answer)
    assert "<h1>Jaipur</h1>" in text and "5 finished sessions" in text
    assert "Longest win streak</dt> <dd>5 wins in a row · Ben" in text
    assert "Current win streak</dt> <dd>5 wins in a row · Ben</dd>" in text
    assert "Champion" in text and "<dd>Ben <small" in text
    assert client.get("/games/chess").status_code == 404
    assert 'href="/games/jaipur"' in client.get("/standings").get_data(as_text=True)


def test_a_games_page_is_the_groups_alone(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    played(app, otters, ["Zelda", "Yannick", "Xavier"])
    otter, badger = app.test_client(), app.test_client()
    member_of(otter, otters)
    member_of(badger, badgers)
    assert "Zelda" in otter.get("/games/frutti").get_data(as_text=True)
    # The badgers' page of the same game says nothing of the otters'.
    text = badger.get("/games/frutti").get_data(as_text=True)
    assert "Zelda" not in text and "Xavier" not in text
    assert "This phone is in no group yet" in app.test_client().get("/games/frutti").get_data(as_text=True)


def test_how_often_the_start_player_won_beside_an_even_chance(app, client):
    from dataclasses import replace

    sessions = [replace(SESSIONS[0], starter=0), replace(SESSIONS[1], starter=1), replace(SESSIONS[2], starter=0),
                replace(SESSIONS[7], starter=1), SESSIONS[3]]
    found = records(sessions)
    # Ana started 1 and 3 and won both; Ben started 2 (lost) and 8 (shared first); 4 knew no starter.
    assert (found.started, found.starter_won) == (4, 3)
    assert found.even_chance == 1 / 2 + 1 / 3 + 1 / 2 + 1 / 2
    for _ in range(2):
        record_all(app, *JAIPUR)  # Ana starts (first_player 0), Ben wins
    text = text_of(client.get("/games/jaipur"))
    assert "The start player won 0 of 2 games (0%); an even chance would be 50%." in text


def test_the_start_players_share_is_nothing_without_a_known_start_player():
    found = records([SESSIONS[3]])
    assert found.started == 0 and found.starter_share == 0.0 and found.even_share == 0.0
