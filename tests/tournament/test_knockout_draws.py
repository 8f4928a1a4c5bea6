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
    assert g.result is GameResult.NO_RESULT and g.lot is not None  # the game stays 无胜负
    assert "by lot" in g.trail[-1].note
    winner = g.through
    assert winner in g.players
    e = ops.enter_result(e, 1, 2, GameResult.BLACK_WINS)
    e, _ = ops.pair_next_round(e)
    assert winner in e.round(2).game(1).players  # Go appendix 一: the winner plays round 2


def test_the_lot_comes_from_the_random_source_only() -> None:
    e = _knockout(2, draw_replays=0)
    picks = {
        ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(s)).round(1).game(1).through
        for s in range(20)
    }
    assert picks == {1, 2}
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


def test_a_lot_is_stored_as_a_lot_not_as_a_won_game() -> None:
    # Go §27.3 and Gomoku §18.3(1)C: the play-off is 加赛 "或抽签": the lot decides who goes
    # through, the game itself was drawn. The board keeps the draw and the lot (its seed in
    # full, as a string), the winner goes on in the bracket (Go appendix 一), and no column of
    # the standings counts the lot as a won game (Gomoku §18.4(1) wins; §18.2: the lot's loser
    # is out in that round).
    e = _knockout(4, "gomoku", draw_replays=0)
    seed = "13890712734261917436"
    e = ops.settle_draw(e, 1, 1, GameResult.DRAW, random.Random(seed), seed=seed)
    g = e.round(1).game(1)
    assert g.result is GameResult.DRAW
    assert g.lot is not None and g.lot.seed == seed
    winner, loser = g.through, (set(g.players) - {g.through}).pop()
    assert g.to_json()["result"] == "draw"
    assert g.to_json()["lot"] == {"winner": g.lot.winner.value, "seed": seed}
    assert Event.from_json(e.to_json()) == e
    e = ops.enter_result(e, 1, 2, GameResult.BLACK_WINS)
    e, _ = ops.pair_next_round(e)
    assert winner in e.round(2).game(1).players and loser not in e.round(2).game(1).players
    e = ops.enter_result(e, 2, 1, GameResult.BLACK_WINS)
    rows = {s.number: s for s in ops.event_standings(e)}
    # wins: the lot's winner won no game in round 1
    final = e.round(2).game(1)
    wins = dict(zip(["elimination", "wins"], rows[winner].values, strict=False))
    assert wins["wins"] == (1 if final.black == winner else 0)
    # the lot's loser is out in round 1, behind the final's loser (out in round 2)
    out_in = dict(zip(["elimination", "wins"], rows[loser].values, strict=False))
    assert out_in["elimination"] == 1
    assert rows[loser].place > rows[final.white if final.black == winner else final.black].place


def test_a_file_with_a_lot_entered_as_a_won_game_reads_unchanged() -> None:
    # files written before the lot was kept as a lot: the board's "0-1" stays a won game
    old = {"board": 1, "black": 1, "white": 2, "result": "0-1", "replays": 2}
    from duiyi.tournament.model import Game

    g = Game.from_json(old)
    assert g.result is GameResult.WHITE_WINS and g.lot is None and g.through == 2
    assert g.to_json() == old


@pytest.mark.parametrize(("game", "cited"), [("go", "Go §26.1"), ("gomoku", "Gomoku §18.2")])
def test_an_elimination_draw_entered_as_a_result_cites_the_events_own_book(
    game: str, cited: str
) -> None:
    # a knockout game needs a winner: Go §26.1 (淘汰制) on a Go event, Gomoku §18.2 on a
    # Gomoku one, never the other game's book; coded for the desk's page (issue 32)
    e = _knockout(2, game, knockout_draw="refuse")
    with pytest.raises(TournamentError) as err:
        ops.enter_result(e, 1, 1, GameResult.DRAW)
    assert err.value.article == cited
    assert err.value.code == "knockout-needs-winner"
    assert err.value.values == {"round": "1", "board": "1"}
