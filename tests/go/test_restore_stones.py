"""Go §18.1 in referee mode: wrongly removed stones go back on the board mid-game."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.codec import action_from_json, action_to_json
from duiyi.errors import IllegalAction, InvalidInput
from duiyi.go import Game
from duiyi.go.actions import GO_ACTIONS, RestoreStones
from duiyi.go.point import Point


def _pts(*names: str) -> tuple[Point, ...]:
    return tuple(Point.parse(n) for n in names)


def _captured_corner() -> Game:
    # White captures Black's A1-A2 (White holds two prisoners); then Black plays on
    g = Game(9)
    for move in ("A1", "B1", "A2", "B2", "E5", "A3"):
        g.play(move)
    assert g.board.get("A1") is None and g.board.get("A2") is None and g.captures[WHITE] == 2
    return g


def test_stones_go_back_mid_game_and_the_turn_stays() -> None:
    # Go §18.1 "应将有关之子放回原处": one of Black's removed stones, A2, goes back (with A1
    # empty it has a liberty); it is still Black's turn, and the position edit is an action
    # of the log.
    g = _captured_corner()
    g.play("E4")
    g.play("D4")
    to_move, moves = g.to_move, len(g.moves)
    g.apply(RestoreStones(BLACK, _pts("A2")))
    assert g.board.get("A2") is BLACK
    assert g.to_move is to_move and len(g.moves) == moves  # not a move
    assert g.actions[-1] == RestoreStones(BLACK, _pts("A2"), "Go §18.1")
    # replayable from its log, JSON included
    again = Game.from_json(g.to_json())
    assert again.board == g.board and again.situation_hash == g.situation_hash
    assert action_from_json(action_to_json(g.actions[-1], GO_ACTIONS), GO_ACTIONS) == g.actions[-1]


def test_the_remover_gives_the_prisoners_back() -> None:
    # Go §18.1: the stone is back on the board, so it is no longer White's prisoner
    g = _captured_corner()
    g.apply(RestoreStones(BLACK, _pts("A1")))
    assert g.captures[WHITE] == 1


def test_only_empty_points_and_stones_with_liberties() -> None:
    # Go §18.1 speaks of stones that still had liberties (有气之子): a stone put back without a
    # liberty, or on an occupied point, is refused and the game is unchanged
    g = _captured_corner()
    before = g.to_json()
    with pytest.raises(InvalidInput, match="liberty"):
        g.apply(RestoreStones(BLACK, _pts("A1", "A2")))  # both: surrounded by B1, B2 and A3
    with pytest.raises(IllegalAction, match=r"Go §18\.1"):
        g.apply(RestoreStones(BLACK, _pts("B1")))
    assert g.to_json() == before


def test_stones_go_back_only_where_stones_of_that_colour_were_removed() -> None:
    # Go §18.1 puts back "有关之子", the stones removed: on a point where no stone of that
    # colour was taken off, the ruling would create a stone never played (issue 32: K10 on a
    # board without a capture); refused, naming the point, and the game is unchanged
    g = _captured_corner()
    before = g.to_json()
    with pytest.raises(IllegalAction, match=r"no black stone was removed from G7.*Go §18\.1"):
        g.apply(RestoreStones(BLACK, _pts("G7")))
    with pytest.raises(IllegalAction, match="no white stone was removed from A1"):
        g.apply(RestoreStones(WHITE, _pts("A1")))  # a black stone was, not a white one
    assert g.to_json() == before
    fresh = Game(19)
    for move in ("D4", "Q16"):
        fresh.play(move)
    with pytest.raises(IllegalAction, match="K10"):
        fresh.apply(RestoreStones(WHITE, _pts("K10")))
    assert fresh.board.get("K10") is None
    assert g.removed(BLACK) == frozenset(_pts("A1", "A2")) and fresh.removed(WHITE) == frozenset()


def test_undo_and_repetition_see_the_restored_position() -> None:
    # the edit joins the repetition history (Go §6, situational superko) and undoes exactly
    g = _captured_corner()
    h = g.situation_hash
    g.apply(RestoreStones(BLACK, _pts("A2")))
    assert g.situation_hash != h
    g.undo()
    assert g.situation_hash == h and g.board.get("A2") is None


def test_sgf_export_writes_the_restored_stones() -> None:
    # Go §18.1 in the record: the restored stones are a set-up node (AB/AW) between the moves,
    # with a comment citing the article; the moves around it keep their order
    from duiyi.go.sgf import game_to_sgf, read_game

    g = _captured_corner()
    g.play("E4")
    g.play("D4")
    g.apply(RestoreStones(BLACK, _pts("A2")))
    g.play("G5")
    text = game_to_sgf(g)
    nodes = text.replace("\n", "").split(";")
    i = next(k for k, n in enumerate(nodes) if n.startswith("AB"))
    assert nodes[i].startswith("AB[ah]") and "Go §18.1" in nodes[i]  # A2
    assert nodes[i - 1].startswith("W[df]")  # after White's D4 ...
    assert nodes[i + 1].startswith("B[ge]")  # ... before Black's G5
    back = read_game(text)  # readers that ignore mid-game set-up still read the moves
    assert len(back.game.moves) == len(g.moves)
