"""Withdrawals: Go §28 and Gomoku §18.5, through the director's operations."""

from __future__ import annotations

import random

import pytest

from duiyi.errors import TournamentError
from duiyi.tournament.event import (
    add_players,
    enter_result,
    new_event,
    pair_next_round,
    table,
    total_rounds,
    withdraw,
    withdrawal_effects,
)
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult
from duiyi.tournament.withdrawal import Effect, rule


def play_rounds(event: Event, rounds: int, result: GameResult = GameResult.BLACK_WINS) -> Event:
    """Pair and finish ``rounds`` rounds, every game won by Black."""
    for _ in range(rounds):
        event, _paired = pair_next_round(event, random.Random(0))
        rnd = event.history[-1]
        for g in rnd.games:
            if g.result is None:
                event = enter_result(event, rnd.number, g.board, result)
    return event


def field(game: str, system: str, n: int, rounds: int = 1) -> Event:
    return add_players(new_event("t", game, system, rounds), [Player(0, f"P{i}") for i in range(n)])


def test_rule_table() -> None:
    # Go §28.2: round robin, < half void, ≥ half keep + forfeit the rest
    assert rule(game="go", family="round-robin", rounds=7, games_played=3) is Effect.VOID
    assert (
        rule(game="go", family="round-robin", rounds=7, games_played=4) is Effect.KEEP_FORFEIT_REST
    )
    # exactly half (达到一半) keeps the results
    assert (
        rule(game="go", family="round-robin", rounds=6, games_played=3) is Effect.KEEP_FORFEIT_REST
    )
    # Go §28.3: Swiss keeps the results and stops pairing, even after one game
    assert rule(game="go", family="swiss", rounds=9, games_played=1) is Effect.KEEP_UNPAIRED
    # Go §28.4: matches and team events: results stand, the rest is forfeited
    assert rule(game="go", family="match", rounds=3, games_played=0) is Effect.KEEP_FORFEIT_REST
    # Go §28.1 / Gomoku §18.5: before the start, a new draw
    assert rule(game="go", family="swiss", rounds=5, games_played=0, started=False) is Effect.REDRAW
    # Gomoku §18.5: the half rule applies to Swiss too
    assert rule(game="gomoku", family="swiss", rounds=7, games_played=3) is Effect.VOID
    assert rule(game="gomoku", family="swiss", rounds=7, games_played=4) is Effect.KEEP_UNPAIRED
    assert (
        rule(game="gomoku", family="round-robin", rounds=5, games_played=3)
        is Effect.KEEP_FORFEIT_REST
    )


def test_go_round_robin_withdrawal_before_half_voids_every_result() -> None:
    # Go §28.2: 6 players, 5 rounds; player 1 leaves after 2 games (< 2½): all void
    e = play_rounds(field("go", "round-robin", 6), 2)
    assert total_rounds(e) == 5
    before = table(e)
    assert before.points(1) > 0  # 1 had Black in both rounds and won
    e = withdraw(e, 1)
    assert withdrawal_effects(e) == {1: Effect.VOID}
    t = table(e)
    assert 1 not in t.competitors
    opponents_of_1 = [g.white if g.black == 1 else g.black for _, g in e.games() if 1 in g.players]
    for opp in opponents_of_1:
        assert all(enc.opponent != 1 for enc in t.records(opp))
    # the rest of the schedule is still paired: games against 1 are forfeits that count for nobody
    e = play_rounds(e, 3)
    t = table(e)
    assert 1 not in t.competitors
    assert all(len(t.records(p)) == 4 for p in range(2, 7))  # 5 rounds minus the game against 1


def test_go_round_robin_withdrawal_after_half_keeps_results_and_forfeits_the_rest() -> None:
    # Go §28.2: after 3 of 5 rounds the results stand; the remaining games are forfeits
    e = play_rounds(field("go", "round-robin", 6), 3)
    e = withdraw(e, 2)
    assert withdrawal_effects(e) == {2: Effect.KEEP_FORFEIT_REST}
    e, _ = pair_next_round(e, random.Random(0))
    g = e.history[-1].game_of(2)
    assert g is not None
    expected = GameResult.FORFEIT_BLACK if g.black == 2 else GameResult.FORFEIT_WHITE
    assert g.result is expected
    with pytest.raises(TournamentError, match="withdrew"):
        enter_result(e, e.current_round, g.board, GameResult.DRAW)
    t = table(e, upto_round=4)  # round 4's record (the standings take it once it is played)
    assert len(t.records(2)) == 4 and 2 in t.competitors


def test_go_swiss_withdrawal_keeps_results_and_stops_pairing() -> None:
    # Go §28.3: 6 players; 4 leaves after round 1; results stand, never paired again
    e = play_rounds(field("go", "swiss", 6, rounds=4), 1)
    points_before = table(e).points(4)
    e = withdraw(e, 4)
    e = play_rounds(e, 2)
    assert all(4 not in g.players for rnd in e.history[1:] for g in rnd.games)
    assert all(4 not in rnd.byes for rnd in e.history[1:])
    assert table(e).points(4) == points_before
    assert withdrawal_effects(e) == {4: Effect.KEEP_UNPAIRED}


def test_gomoku_swiss_withdrawal_before_half_voids_results() -> None:
    # Gomoku §18.5: Swiss of 7 rounds, 2 games played: the games are void for both sides
    e = play_rounds(field("gomoku", "swiss", 6, rounds=7), 2)
    e = withdraw(e, 1)
    assert withdrawal_effects(e) == {1: Effect.VOID}
    t = table(e)
    assert 1 not in t.competitors
    assert all(enc.opponent != 1 for p in t.competitors for enc in t.records(p))


def test_gomoku_round_robin_after_half_later_rounds_are_opponent_wins() -> None:
    # Gomoku §18.5: ≥ half played: later rounds count as the opponent's win
    e = play_rounds(field("gomoku", "round-robin", 4), 2)  # 3 rounds, 2 played
    e = withdraw(e, 3)
    e, _ = pair_next_round(e, random.Random(0))
    g = e.history[-1].game_of(3)
    assert g is not None and g.result is not None
    opponent = g.white if g.black == 3 else g.black
    assert g.result.winner is not None
    assert (g.black if g.result.winner.value == "black" else g.white) == opponent


def test_withdrawal_before_the_start_redraws() -> None:
    # Go §28.1: before round 1 the player is removed and the numbers drawn again
    e = field("go", "swiss", 5, rounds=3)
    e2 = withdraw(e, 2, random.Random(4))
    assert len(e2.players) == 4
    assert [p.number for p in e2.players] == [1, 2, 3, 4]
    assert "P1" not in {p.name for p in e2.players}
    assert e2.withdrawals == ()


def test_pending_game_of_a_withdrawing_player_becomes_a_forfeit() -> None:
    e, _ = pair_next_round(field("go", "swiss", 4, rounds=3), random.Random(0))
    e = withdraw(e, 1)
    g = e.history[-1].game_of(1)
    assert g is not None and g.result is GameResult.FORFEIT_BLACK
    with pytest.raises(TournamentError, match="already withdrawn"):
        withdraw(e, 1)
