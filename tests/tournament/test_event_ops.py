"""The director's operations: pairing through the pairing package, results, byes, warnings."""

from __future__ import annotations

import random

import pytest

from duiyi.errors import PairingError, TournamentError
from duiyi.tournament.event import (
    add_players,
    enter_result,
    event_standings,
    new_event,
    pair_next_round,
    simulate,
    table,
    total_rounds,
)
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult


def field(game: str, system: str, n: int, rounds: int = 1) -> Event:
    players = [Player(0, f"P{i}", rating=2400 - 50 * i) for i in range(1, n + 1)]
    return add_players(new_event("t", game, system, rounds), players)


def test_round_robin_follows_the_berger_table() -> None:
    # Go appendix 三: round 1 of six is 1–6, 2–5, 3–4, the first-listed plays Black
    e, paired = pair_next_round(field("go", "round-robin", 6))
    assert [(b, w) for _, b, w, _ in paired.pairings] == [(1, 6), (2, 5), (3, 4)]
    assert total_rounds(e) == 5


def test_round_robin_bye_scores_nothing_but_swiss_bye_scores_a_win() -> None:
    # appendix 三.2: the bye is the added last number, no game and no points;
    # DECISIONS (Swiss): a bye is scored as a win
    rr = simulate(field("go", "round-robin", 5), 5, random.Random(1))
    assert all(len(table(rr).records(p)) == 4 for p in range(1, 6))
    sw, paired = pair_next_round(field("go", "swiss", 5, rounds=3))
    (bye,) = paired.byes
    assert table(sw).points(bye) == 2  # a win in Go points, before any game is finished


def test_swiss_round_one_pairs_by_number() -> None:
    # Go appendix 五.2(1): 1–2, 3–4, … smaller number Black
    _, paired = pair_next_round(field("gomoku", "swiss", 6, rounds=3))
    assert [(b, w) for _, b, w, _ in paired.pairings] == [(1, 2), (3, 4), (5, 6)]


def test_two_warnings_lose_the_game() -> None:
    # Go §24.2: a second warning in one game loses it
    e, _ = pair_next_round(field("go", "swiss", 4, rounds=3))
    with pytest.raises(TournamentError, match=r"Go §24\.2"):
        enter_result(e, 1, 1, GameResult.BLACK_WINS, black_warnings=2)
    e = enter_result(e, 1, 1, GameResult.WHITE_WINS, black_warnings=2)
    e = enter_result(e, 1, 2, GameResult.DRAW, white_warnings=1)
    assert e.round(1).game(1).black_warnings == 2
    t = table(e)
    assert [enc.warnings for enc in t.records(1)] == [2]


def test_late_entries_only_in_swiss() -> None:
    e, _ = pair_next_round(field("go", "round-robin", 4))
    with pytest.raises(TournamentError, match="cannot join"):
        add_players(e, [Player(0, "Late")])
    s, _ = pair_next_round(field("go", "swiss", 4, rounds=3))
    assert add_players(s, [Player(0, "Late")]).player(5).name == "Late"
    with pytest.raises(TournamentError, match="already entered"):
        add_players(s, [Player(0, "p1")])


def test_pairing_refusals() -> None:
    with pytest.raises(PairingError, match="at least two players"):
        pair_next_round(field("go", "swiss", 1, rounds=2))
    e = simulate(field("go", "swiss", 4, rounds=1), 1, random.Random(0))
    with pytest.raises(PairingError, match="all 1 rounds"):
        pair_next_round(e)


def test_knockout_needs_winners_and_ranks_by_elimination() -> None:
    # Gomoku §18.2: the later eliminated ranks first; no draws in an elimination game
    e, _ = pair_next_round(field("gomoku", "knockout", 4))
    assert total_rounds(e) == 2
    with pytest.raises(TournamentError, match="needs a winner"):
        enter_result(e, 1, 1, GameResult.DRAW)
    e = simulate(field("gomoku", "knockout", 4), 2, random.Random(2))
    rows = event_standings(e)
    assert [r.place for r in rows] == [1, 2, 3, 3]


def test_event_standings_use_drawn_lots() -> None:
    # Go §27.1(1)C: lots decide when everything else is equal
    e, _ = pair_next_round(field("go", "round-robin", 2))
    e = enter_result(e, 1, 1, GameResult.DRAW)
    assert [r.place for r in event_standings(e)] == [1, 1]
    rows = event_standings(e, {1: 2, 2: 1})
    assert [(r.place, r.number) for r in rows] == [(1, 2), (2, 1)]
