"""Standings count only played rounds (issue 10, failure 2).

Go §27.1(2)A: total score = points + (opponents' points / (½ × highest attainable) − rounds),
where "rounds" are the rounds played. A round that is paired but has no results yet is not
played: counting it gave −1 totals (every player after pairing round 1; the losers of round 1
after pairing round 2) and reordered the standings.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from duiyi.tournament import event as ops
from duiyi.tournament.formats.wallchart import standings_json, standings_text
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult


def _swiss(variant: str = "") -> Event:
    options = {"variant": variant} if variant else {}
    e = ops.new_event("Open", "go", "swiss", 3, options)
    return ops.add_players(e, [Player(0, f"P{i}") for i in range(1, 9)])


def _totals(e: Event) -> dict[str, str]:
    return {r["name"]: r["tiebreaks"]["total-score"] for r in standings_json(e)["standings"]}


def _play_round(e: Event, result: GameResult = GameResult.BLACK_WINS) -> Event:
    rnd = e.history[-1]
    for g in rnd.games:
        e = ops.enter_result(e, rnd.number, g.board, result)
    return e


def test_paired_round_without_results_scores_nothing() -> None:
    # Go §27.1(2)A: as soon as round 1 is paired the desk showed −1 for everyone
    e, _ = ops.pair_next_round(_swiss(), random.Random(1))
    assert set(_totals(e).values()) == {"0"}
    assert all(Fraction(r["points"]) == 0 for r in standings_json(e)["standings"])


def test_pairing_the_next_round_does_not_change_the_standings() -> None:
    # Go §27.1(2)A: after round 1 every total is 1 (2 points + (0/1 − 1) for a winner,
    # 0 + (2/1 − 1) for a loser); pairing round 2 without results must leave them so
    e, _ = ops.pair_next_round(_swiss(), random.Random(1))
    e = _play_round(e)
    before = standings_json(e)
    assert set(_totals(e).values()) == {"1"}
    e, _ = ops.pair_next_round(e, random.Random(1))
    after = standings_json(e)
    assert [r["number"] for r in after["standings"]] == [r["number"] for r in before["standings"]]
    for a, b in zip(after["standings"], before["standings"], strict=True):
        assert (a["points"], a["tiebreaks"], a["place"]) == (
            b["points"],
            b["tiebreaks"],
            b["place"],
        )
    assert set(_totals(e).values()) == {"1"}
    assert "-1" not in standings_text(e)


def test_partly_entered_round_is_not_counted_until_complete() -> None:
    # rounds whose results are all in are the played rounds; a half-entered round waits
    e, _ = ops.pair_next_round(_swiss(), random.Random(1))
    e = _play_round(e)
    e, _ = ops.pair_next_round(e, random.Random(1))
    e = ops.enter_result(e, 2, 1, GameResult.WHITE_WINS)
    assert set(_totals(e).values()) == {"1"}
    doc = standings_json(e)
    assert doc["played_rounds"] == 1 and doc["rounds"] == 2
    e = _play_round(e, GameResult.WHITE_WINS)
    assert ops.table(e).rounds == 2
    assert standings_json(e)["played_rounds"] == 2
    assert len(set(_totals(e).values())) > 1  # round 2 now separates the field


def test_a_bye_in_a_played_round_counts() -> None:
    # DECISIONS (Swiss): the bye scores as a win; its round is played once the boards are in
    e = ops.add_players(ops.new_event("Odd", "go", "swiss", 3), [Player(0, n) for n in "ABCDE"])
    e, rnd = ops.pair_next_round(e, random.Random(1))
    (bye,) = rnd.byes
    rows = {r["number"]: r for r in standings_json(e)["standings"]}
    assert rows[bye]["points"] == "0"  # round 1 not played yet
    e = _play_round(e)
    rows = {r["number"]: r for r in standings_json(e)["standings"]}
    assert rows[bye]["points"] == "2"


@pytest.mark.parametrize(
    ("variant", "names"),
    [("", ["total-score", "warnings"]), ("A", ["total-score", "warnings"]),
     ("B", ["points", "buchholz", "warnings"])],
)  # fmt: skip
def test_both_go_swiss_ranking_methods_stay_selectable(variant: str, names: list[str]) -> None:
    # Go §27.1(2): method A ranks by total score, method B by points then opponents' points
    e, _ = ops.pair_next_round(_swiss(variant), random.Random(1))
    e = _play_round(e)
    e, _ = ops.pair_next_round(e, random.Random(1))
    doc = standings_json(e)
    assert [t["name"] for t in doc["tiebreaks"]] == names
    for row in doc["standings"]:
        assert all(not v.startswith("-") for k, v in row["tiebreaks"].items() if k != "warnings")
    if variant == "B":
        # B: winners of round 1 (2 points) above losers (0), opponents' points 0 / 2
        pts = [Fraction(r["points"]) for r in doc["standings"]]
        assert pts == sorted(pts, reverse=True) and pts[0] == 2 and pts[-1] == 0
