"""Points, boards and rule sets (Gomoku §1, §3-4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duiyi import Color
from duiyi.errors import IllegalMove, InvalidInput, InvalidPoint, InvalidRules, NotationError
from duiyi.gomoku import CENTER, Board, Game, Point, RenjuRules
from duiyi.gomoku.point import transform
from duiyi.gomoku.rules import DabSymmetry, FoulPolicy, OpeningRule
from duiyi.moves import Move


def test_coordinates_of_the_book():
    # Gomoku §1.1: columns A-O left to right, rows 1-15 bottom to top, H8 the centre
    assert Point.parse("a1") == Point(0, 0)
    assert Point.parse("O15") == Point(14, 14)
    assert Point.parse("i9") == Point(8, 8)  # the letter i is a column here
    assert Point.parse("h8") == CENTER
    for bad in ("p1", "a0", "a16", "8h", "", "h"):
        with pytest.raises(InvalidPoint):
            Point.parse(bad)


@given(st.integers(0, 14), st.integers(0, 14))
def test_point_text_round_trip(col: int, row: int):
    p = Point(col, row)
    assert Point.parse(str(p)) == p
    assert eval(repr(p)) == p
    assert Point.from_index(p.index) == p


@given(st.integers(0, 14), st.integers(0, 14), st.integers(0, 7))
def test_symmetries_are_bijections_of_the_board(col: int, row: int, sym: int):
    p = Point(col, row)
    images = {transform(p, s) for s in range(8)}
    assert transform(p, sym) in images
    assert transform(CENTER, sym) == CENTER


def test_board_from_moves_alternates_and_passes():
    # Gomoku §4.1: Black first, alternately; a pass skips a turn
    b = Board.from_moves("h8 h9 pass j10")
    assert b["h8"] is Color.BLACK and b["h9"] is Color.WHITE and b["j10"] is Color.WHITE
    with pytest.raises(NotationError, match="occupied"):
        Board.from_moves("h8 h8")


def test_board_place_remove_and_equality():
    # Gomoku §4.2: a stone goes on an empty point
    b = Board()
    b.place("h8", Color.BLACK)
    with pytest.raises(IllegalMove):
        b.place("h8", Color.WHITE)
    c = b.copy()
    c.remove("h8")
    assert b != c and len(c) == 0 and c == Board()


def test_board_diagram_round_trip():
    b = Board.from_moves("h8 h9 j10 a1 o15")
    assert Board.from_diagram(b.diagram()) == b
    assert Board.from_diagram(str(b)).stones(Color.WHITE) == b.stones(Color.WHITE)


def test_run_length_and_full_board():
    b = Board.from_stones(black=["a1", "b2", "c3", "d4"])
    assert b.run_length("e5", Color.BLACK) == 5
    assert not b.is_full()


def test_rules_presets_and_json():
    # Gomoku §3-4 and DECISIONS.md
    for r in (RenjuRules.chinese_2013(), RenjuRules.free(), RenjuRules.free_renju()):
        assert RenjuRules.from_json(r.to_json()) == r
        assert r.to_json()["v"] == 1
    r = RenjuRules.chinese_2013().with_options(dab_symmetry="board", foul_policy="claim")
    assert r.dab_symmetry is DabSymmetry.BOARD and r.foul_policy is FoulPolicy.CLAIM
    assert RenjuRules.free().opening is OpeningRule.FREE and RenjuRules.free().black_overline_wins


def test_inconsistent_rules_are_refused():
    with pytest.raises(InvalidRules, match=r"§4\.1"):
        RenjuRules(fouls=False)  # a designated opening always plays with forbidden moves
    with pytest.raises(InvalidRules, match=r"§3\.3"):
        RenjuRules(opening=OpeningRule.FREE, swap=True, fifth_dab=False)
    with pytest.raises(InvalidRules):
        RenjuRules.from_json({"v": 1, "opening": "weird"})
    with pytest.raises(InvalidRules, match="unknown"):
        RenjuRules.from_json({"v": 1, "komi": 7})
    with pytest.raises(InvalidRules):
        RenjuRules(foul_policy="auto")  # type: ignore[arg-type]


def test_actions_are_checked_at_the_door():
    g = Game(RenjuRules.free())
    with pytest.raises(InvalidInput):
        g.apply("h8")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        g.apply(Move(Point.parse("h8"), "black"))  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        g.apply(Move("h8", Color.BLACK))  # type: ignore[arg-type]
    assert g.actions == []
