"""McMahon standings rank on the McMahon score (initial score from rank + wins), then SOS, SOSOS.

The books know no McMahon system (DECISIONS: Tournaments lists it among the international
options); the Go book's Swiss ranking (Go §27.1(2)) applies to plain Swiss events only.
"""

from __future__ import annotations

import random
from fractions import Fraction

from duiyi.tournament.event import (
    add_players,
    chain,
    enter_result,
    event_standings,
    mcmahon_initial,
    new_event,
    pair_next_round,
    player_rows,
    simulate,
    table,
)
from duiyi.tournament.formats.wallchart import standings_json, standings_text
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult
from duiyi.tournament.tiebreaks import buchholz, mcmahon_score, parse_tiebreak, sos, sosos


def mcmahon(ranks: list[str], game: str = "go", rounds: int = 3) -> Event:
    opts = {"bar": "2d", "floor": "10k"}
    return add_players(
        new_event("mm", game, "mcmahon", rounds, opts),
        [Player(0, f"P{i}", r) for i, r in enumerate(ranks, start=1)],
    )


def test_initial_scores_follow_bar_and_floor() -> None:
    # McMahon option: at or above the bar all start equal, at or below the floor at 0
    e = mcmahon(["4d", "2d", "1d", "1k", "10k", "15k", ""])
    assert mcmahon_initial(e) == {1: 11, 2: 11, 3: 10, 4: 9, 5: 0, 6: 0, 7: 0}


def test_default_chain_is_mms_sos_sosos() -> None:
    # Go §27.1(1)B (fewer warnings) closes the Go chain; Gomoku §18.4(1)D (wins) the Gomoku one
    assert [t.name for t in chain(mcmahon(["1d", "1k"]))] == ["mms", "sos", "sosos", "warnings"]
    assert [t.name for t in chain(mcmahon(["1d", "1k"], "gomoku"))][:3] == ["mms", "sos", "sosos"]
    assert chain(mcmahon(["1d", "1k"], "gomoku"))[-1].name == "wins"


def test_a_strong_player_who_lost_stays_above_a_weak_player_who_won() -> None:
    # McMahon: the ranking is the McMahon score, not the points; a 2d who lost once
    # (11 + 0) is above a 10k who won once (0 + 1), although the 10k has more Go points (§27.1)
    e = mcmahon(["3d", "2d", "10k", "12k"], rounds=1)
    e, paired = pair_next_round(e)
    pairs = {frozenset((b, w)): board for board, b, w, _ in paired.pairings}
    assert frozenset((1, 2)) in pairs and frozenset((3, 4)) in pairs
    e = enter_result(e, 1, pairs[frozenset((1, 2))], GameResult.BLACK_WINS)
    e = enter_result(e, 1, pairs[frozenset((3, 4))], GameResult.BLACK_WINS)
    rows = event_standings(e)
    order = [r.number for r in rows]
    winner_low = 3 if e.round(1).game(pairs[frozenset((3, 4))]).black == 3 else 4
    loser_top = 2 if e.round(1).game(pairs[frozenset((1, 2))]).black == 1 else 1
    assert order.index(loser_top) < order.index(winner_low)
    t = table(e)
    assert t.points(winner_low) > t.points(loser_top)  # ordinary points say the opposite
    assert mcmahon_score(t, loser_top) == 11 and mcmahon_score(t, winner_low) == 1
    assert rows[0].values[0] == 12  # the winner of the top board: 11 + 1 win


def test_sos_is_buchholz_of_mcmahon_scores() -> None:
    # SOS sums opponents' McMahon scores; SOSOS sums opponents' SOS; counted in wins
    e = simulate(mcmahon(["4d", "3d", "2d", "1d", "1k", "5k", "9k", "10k", "15k"]), 3,
                 random.Random(5))  # fmt: skip
    t = table(e)
    for p in range(1, 10):
        opps = [x.opponent for x in t.records(p) if x.opponent is not None]
        assert sos(t, p) == sum((mcmahon_score(t, o) for o in opps), Fraction(0))
        assert sosos(t, p) == sum((sos(t, o) for o in opps), Fraction(0))
        # with no initial scores SOS would be the Buchholz in wins
        assert (
            sos(t, p) - sum((t.initial[o] for o in opps), Fraction(0))
            == buchholz(t, p) / t.scoring.win
        )


def test_standings_are_sorted_by_mms_then_sos_and_keep_round_cells() -> None:
    # McMahon: MMS first, SOS breaks ties, then SOSOS; each row keeps its round-by-round cells
    e = simulate(mcmahon(["5d", "3d", "2d", "1d", "1k", "3k", "6k", "9k", "10k", "20k"]), 3,
                 random.Random(11))  # fmt: skip
    rows = event_standings(e)
    keys = [r.values[:3] for r in rows]
    assert keys == sorted(keys, reverse=True)
    doc = standings_json(e)
    assert [t["name"] for t in doc["tiebreaks"]] == ["mms", "sos", "sosos", "warnings"]
    for line in doc["standings"]:
        assert sorted(line["rounds"]) == ["1", "2", "3"]
        assert (
            Fraction(line["tiebreaks"]["mms"])
            == mcmahon_initial(e)[line["number"]] + Fraction(line["points"]) / 2
        )  # Go points are 2 a win (Go §27.1)
    assert player_rows(e, rows)[0]["number"] == rows[0].number
    assert "mms" in standings_text(e).splitlines()[2]


def test_mms_sos_are_named_tiebreaks() -> None:
    # any event may ask for them (`--tiebreaks mms,sos,sosos`)
    assert [parse_tiebreak(n).name for n in ("mms", "SOS", "sosos")] == ["mms", "sos", "sosos"]


def test_plain_swiss_still_ranks_on_points() -> None:
    # Go §27.1(2)A: a Swiss event keeps the book's total score; no initial scores
    e = add_players(new_event("s", "go", "swiss", 2), [Player(0, n, "3d") for n in "ABCD"])
    assert [t.name for t in chain(e)] == ["total-score", "warnings"]
    assert table(e).initial == {}
