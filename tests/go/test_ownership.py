"""Ownership by random playouts (duiyi.go.ownership), the estimate the dead-stone proposal uses
beside the reading (Go §8: stones that can be captured are dead, those that cannot are alive).

Diagrams are read with ``Board.from_diagram`` (top row first, X black, O white).
"""

from __future__ import annotations

import random

import pytest

from duiyi.errors import InvalidInput
from duiyi.go import Board, Point, life
from duiyi.go.ownership import DEFAULT_BUDGET, ownership

WALLED = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X X X
O O O O O O O O O
. . . . . . . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . ."""


def at(board: Board, own: list[float], name: str) -> float:
    return own[board.geometry.index(Point.parse(name, board.size))]


def test_stones_without_eyes_in_the_corner_are_owned_by_the_opponent() -> None:
    # Go §8: Black's corner stones (B7, A6, B6) have one liberty space left and White's wall
    # around them; most random endings take them.
    board = Board.from_diagram("""
    . X O . . . .
    X X O . . . .
    O O O . . O .
    . . . . . . .
    . . X . . . .
    . . . . . . .
    . . . . . . .""")
    own = ownership(board, random.Random(1), playouts=40)
    assert all(at(board, own, p) < -0.5 for p in ("B7", "A6", "B6", "A7"))


def test_a_two_eyed_group_is_never_captured() -> None:
    # Go §8.1: two real eyes (A9 and C9) cannot both be filled; random play keeps every
    # stone of the group Black's in every playout.
    board = Board.from_diagram("""
    . X . X O . . . .
    X X X X O . . . .
    O O O O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .""")
    own = ownership(board, random.Random(3), playouts=30)
    assert all(at(board, own, p) == 1.0 for p in ("B9", "D9", "A8", "B8", "C8", "D8"))


def test_same_seed_same_estimate_and_the_budget_bounds_the_work() -> None:
    board = Board.from_diagram(WALLED)
    a = ownership(board, random.Random(5), playouts=8)
    b = ownership(board, random.Random(5), playouts=8)
    assert a == b  # pure and deterministic: the caller's seed decides everything
    # a budget of one move stops after the first playout: every value is then -1, 0 or 1
    one = ownership(board, random.Random(5), playouts=50, budget=1)
    assert set(one) <= {-1.0, 0.0, 1.0}


def test_bad_arguments_are_refused() -> None:
    board = Board(9)
    with pytest.raises(InvalidInput):
        ownership(board, random, playouts=4)  # type: ignore[arg-type]  # the module is no Random
    with pytest.raises(InvalidInput):
        ownership(board, random.Random(1), playouts=0)


MUTUAL = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X . . .
O O O O O X . . .
. . . . O X . . .
X X X . O X . . .
. . X . O X . . .
. . X . O X . . ."""


def _fake_ownership(white_chain: float, black_corner: float) -> object:
    def fake(board: Board, rng: random.Random, budget: int = 0) -> list[float]:
        own = [0.0] * (board.size * board.geometry.width)
        for name in ("E1", "E2", "E3", "E4", "A5", "B5", "C5", "D5", "E5"):
            own[board.geometry.index(Point.parse(name, 9))] = -white_chain  # + = Black's
        for name in ("C1", "C2", "A3", "B3", "C3"):
            own[board.geometry.index(Point.parse(name, 9))] = black_corner
        return own

    return fake


def test_playouts_settle_a_mutual_fight_the_static_weighing_guessed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Go §8: White's E1–E5 chain and Black's corner each spoil the other's eyes; the static
    # rules weigh space and influence and call White's chain dead. When the playouts say
    # White keeps its chain and Black's corner is taken, that verdict is turned round.
    board = Board.from_diagram(MUTUAL)
    [white] = [g for g in life.explain(board) if g.stones[0] == Point.parse("E1", 9)]
    assert white.reason.startswith("dead: weaker than the surrounding group")
    static = life.propose_dead(board, budget=0)
    assert Point.parse("E1", 9) in static and Point.parse("C1", 9) not in static
    monkeypatch.setattr(life, "ownership", _fake_ownership(white_chain=0.9, black_corner=-0.9))
    settled = life.propose_dead(board, budget=DEFAULT_BUDGET)
    assert Point.parse("E1", 9) not in settled and Point.parse("C1", 9) in settled
    # unsure playouts (|mean| not above 0.6) leave the static verdict alone
    monkeypatch.setattr(life, "ownership", _fake_ownership(white_chain=0.5, black_corner=-0.5))
    assert life.propose_dead(board, budget=DEFAULT_BUDGET) == static


def test_no_playouts_without_a_mutual_fight(monkeypatch: pytest.MonkeyPatch) -> None:
    # the counting phase stays as fast as the reading when there is nothing to weigh
    def refuse(*_args: object, **_kw: object) -> list[float]:
        raise AssertionError("no playouts expected")

    monkeypatch.setattr(life, "ownership", refuse)
    board = Board.from_diagram("""
    . X O . . . .
    X X O . . . .
    O O O . . O .
    . . . . . . .
    . . X . . . .
    . . . . . . .
    . . . . . . .""")
    proposal = life.propose_dead(board, budget=DEFAULT_BUDGET)
    assert sorted(map(str, proposal)) == ["A6", "B6", "B7", "C3"]


def test_the_proposal_is_the_same_every_time() -> None:
    # seeded by the position: the same board always gets the same proposal (pure core)
    board = Board.from_diagram(MUTUAL)
    budget = DEFAULT_BUDGET
    assert life.propose_dead(board, budget=budget) == life.propose_dead(board.copy(), budget=budget)
    assert life.propose_dead(board, rng=random.Random(3), budget=budget) == life.propose_dead(
        board, rng=random.Random(3), budget=budget
    )
