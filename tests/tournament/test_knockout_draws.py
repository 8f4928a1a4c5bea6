"""A drawn game in an elimination round (jigo, a full Gomoku board): replay, then lot.

Go appendix 一 and Gomoku §17.1: the loser is out and the winner goes through, so every board
needs a winner. The books leave the play-off to the organisers (Go §27.3 加赛; Gomoku
§18.3(1)C 加赛快棋或抽签); duiyi's rule is in docs/decisions.md.
"""

from __future__ import annotations

import random

import pytest

from duiyi.errors import InvalidInput, TournamentError
from duiyi.tournament import event as ops
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, Source


def _knockout(players: int, game: str = "go", **options: object) -> Event:
    e = ops.new_event("Cup", game, "knockout", 0, dict(options))
    e = ops.add_players(e, [Player(0, f"P{n}") for n in range(1, players + 1)])
    e, _ = ops.pair_next_round(e)
    return e


def test_a_drawn_game_is_replayed_with_colours_reversed() -> None:
    # Go §27.3: the play-off (加赛) is set beforehand; the replay reverses colours, as the later
    # games of a match alternate (Gomoku §5.1(2))
    e = _knockout(4)
    before = e.round(1).game(1)
    e = ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(0))
    after = e.round(1).game(1)
    assert (after.black, after.white) == (before.white, before.black)
    assert after.result is None and after.replays == 1 and not e.round(1).complete
    (entry,) = after.trail
    assert entry.value is not None and entry.value.result is GameResult.DRAW
    assert entry.source is Source.ARBITER and "Go §27.3" in entry.note
    # the other board is untouched, and the file keeps the replay count
    assert e.round(1).game(2) == _knockout(4).round(1).game(2)
    assert Event.from_json(e.to_json()) == e


def test_after_the_last_replay_the_lot_decides_and_the_winner_goes_through() -> None:
    # Gomoku §18.3(1)C: 抽签 when the play-off does not separate them
    e = _knockout(4, draw_replays=1)
    e = ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(5))
    e = ops.settle_draw(e, 1, 1, GameResult.NO_RESULT, random.Random(5))  # 无胜负 alike
    g = e.round(1).game(1)
    assert g.replays == 1 and g.source is Source.ARBITER
    assert g.result in (GameResult.BLACK_WINS, GameResult.WHITE_WINS)
    assert "by lot" in g.trail[-1].note
    assert g.result.winner is not None
    winner = g.black if g.result.winner.value == "black" else g.white
    e = ops.enter_result(e, 1, 2, GameResult.BLACK_WINS)
    e, _ = ops.pair_next_round(e)
    assert winner in e.round(2).game(1).players  # Go appendix 一: the winner plays round 2


def test_the_lot_comes_from_the_random_source_only() -> None:
    e = _knockout(2, draw_replays=0)
    picks = {
        ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(s)).round(1).game(1).result
        for s in range(20)
    }
    assert picks == {GameResult.BLACK_WINS, GameResult.WHITE_WINS}
    one = ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(4))
    assert one == ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(4))


def test_refuse_leaves_the_board_to_the_director() -> None:
    # Gomoku §17.1: an elimination game needs a winner; with knockout_draw=refuse duiyi does
    # not decide it
    e = _knockout(2, knockout_draw="refuse")
    with pytest.raises(TournamentError, match="needs a winner"):
        ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(0))
    with pytest.raises(InvalidInput, match=r"options\.knockout_draw"):  # refused when made
        _knockout(2, knockout_draw="coin")


def test_outside_elimination_a_draw_is_just_entered() -> None:
    # Go §27.1: a draw scores 1 in a round robin; nothing to settle
    e = ops.new_event("Club", "go", "round-robin", 0)
    e = ops.add_players(e, [Player(0, "A"), Player(0, "B")])
    e, _ = ops.pair_next_round(e)
    e = ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(0))
    assert e.round(1).game(1).result is GameResult.DRAW and e.round(1).game(1).replays == 0
    with pytest.raises(TournamentError, match="not a drawn game"):
        ops.settle_draw(e, 1, 1, GameResult.BLACK_WINS, random.Random(0))
