"""Game: play, pass, resign, legality, undo, repetition (Go §2–§7, §20)."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import GameOver, IllegalAction, IllegalMove
from duiyi.go import Game, Phase, Point, Rules
from duiyi.outcome import Termination


def test_alternate_moves_black_first() -> None:
    # Go §2.3: Black first, then alternate
    g = Game(9)
    assert g.to_move is BLACK
    g.play("E5")
    assert g.to_move is WHITE
    assert g.moves == [(BLACK, Point.parse("E5"))]


def test_occupied_point_is_illegal_and_game_unchanged() -> None:
    # Go §2.3: a stone goes on an empty point
    g = Game(9)
    g.play("E5")
    h = g.situation_hash
    with pytest.raises(IllegalMove) as exc:
        g.play("E5")
    assert exc.value.article == "Go §2"
    assert g.situation_hash == h and len(g.actions) == 2


def test_two_passes_open_counting() -> None:
    # Go §7.3: two consecutive passes end play
    g = Game(9)
    g.pass_move()
    assert g.phase is Phase.PLAYING
    g.pass_move()
    assert g.phase is Phase.COUNTING
    with pytest.raises(IllegalAction):
        g.play("E5")


def test_resign() -> None:
    # Go §7.2: resignation ends the game
    g = Game(9)
    g.resign(BLACK)
    o = g.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.RESIGNATION
    assert g.sgf_result == "W+R"
    with pytest.raises(GameOver):
        g.play("E5")


def test_undo_restores_hash() -> None:
    g = Game(9, Rules.chinese())
    g.play("E5")
    before = (g.board, g.situation_hash, g.to_move)
    g.play("D5")
    g.undo()
    assert (g.board, g.situation_hash, g.to_move) == before
