"""Go §18.1 in referee mode: wrongly removed stones go back on the board mid-game."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import IllegalAction, InvalidInput
from duiyi.go import Game
from duiyi.go.actions import RestoreStones, action_from_json
from duiyi.go.point import Point


def _pts(*names: str) -> tuple[Point, ...]:
    return tuple(Point.parse(n) for n in names)


def _captured_corner() -> Game:
    # White captures Black's A1 (White holds one prisoner); then Black plays on
    g = Game(9)
    for move in ("A1", "B1", "E5", "A2", "F5", "D5"):
        g.play(move)
    assert g.board.get("A1") is None and g.captures[WHITE] == 1
    return g


def test_stones_go_back_mid_game_and_the_turn_stays() -> None:
    # Go §18.1 "应将有关之子放回原处": Black's E4/E3, removed though they had liberties, go back;
    # it is still Black's turn, and the position edit is an action of the log.
    g = _captured_corner()
    g.play("E4")
    g.play("D4")
    to_move, moves = g.to_move, len(g.moves)
    g.apply(RestoreStones(BLACK, _pts("E3", "F4")))
    assert g.board.get("E3") is BLACK and g.board.get("F4") is BLACK
    assert g.to_move is to_move and len(g.moves) == moves  # not a move
    assert g.actions[-1] == RestoreStones(BLACK, _pts("E3", "F4"), "Go §18.1")
    # replayable from its log, JSON included
    again = Game.from_json(g.to_json())
    assert again.board == g.board and again.situation_hash == g.situation_hash
    assert action_from_json(g.actions[-1].to_json()) == g.actions[-1]


def test_the_remover_gives_the_prisoners_back() -> None:
    # Go §18.1: the stones are back on the board, so they are no longer White's prisoners
    g = _captured_corner()
    g.apply(RestoreStones(BLACK, _pts("G7")))
    assert g.captures[WHITE] == 0


def test_only_empty_points_and_stones_with_liberties() -> None:
    # Go §18.1 speaks of stones that still had liberties (有气之子): a stone put back without a
    # liberty, or on an occupied point, is refused and the game is unchanged
    g = _captured_corner()
    before = g.to_json()
    with pytest.raises(InvalidInput, match="liberty"):
        g.apply(RestoreStones(BLACK, _pts("A1")))  # surrounded by B1 and A2
    with pytest.raises(IllegalAction, match=r"Go §18\.1"):
        g.apply(RestoreStones(BLACK, _pts("B1")))
    assert g.to_json() == before


def test_undo_and_repetition_see_the_restored_position() -> None:
    # the edit joins the repetition history (Go §6, situational superko) and undoes exactly
    g = _captured_corner()
    h = g.situation_hash
    g.apply(RestoreStones(WHITE, _pts("J9")))
    assert g.situation_hash != h
    g.undo()
    assert g.situation_hash == h and g.board.get("J9") is None


def test_sgf_export_writes_the_restored_stones() -> None:
    # Go §18.1 in the record: the restored stones are a set-up node (AB/AW) between the moves,
    # with a comment citing the article; the moves around it keep their order
    from duiyi.go.sgf import game_to_sgf, read_game

    g = _captured_corner()
    g.play("E4")
    g.play("D4")
    g.apply(RestoreStones(BLACK, _pts("E3", "F4")))
    g.play("G5")
    text = game_to_sgf(g)
    nodes = text.replace("\n", "").split(";")
    i = next(k for k, n in enumerate(nodes) if n.startswith("AB"))
    assert nodes[i].startswith("AB[eg][ff]") and "Go §18.1" in nodes[i]  # E3, F4
    assert nodes[i - 1].startswith("W[df]")  # after White's D4 ...
    assert nodes[i + 1].startswith("B[ge]")  # ... before Black's G5
    back = read_game(text)  # readers that ignore mid-game set-up still read the moves
    assert len(back.game.moves) == len(g.moves)
