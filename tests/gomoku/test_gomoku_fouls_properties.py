"""Property tests of the foul finder: symmetry, the slow reference, the renju package."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duiyi import Color
from duiyi.gomoku import Board, Foul, Point, forbidden_points
from duiyi.gomoku.point import transform

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT / "bench"))
from _renju_ref import ref_map  # noqa: E402

from renju_forbidden import generate_positions, renju_map  # noqa: E402


@st.composite
def positions(draw: st.DrawFn, near_edge: bool = False) -> Board:
    """Dense positions: up to 45 stones in a 9×9 area (or a corner area), mostly Black."""
    lo = 0 if near_edge else 3
    pts = draw(
        st.lists(
            st.tuples(st.integers(lo, lo + 8), st.integers(lo, lo + 8)),
            min_size=4,
            max_size=45,
            unique=True,
        )
    )
    colours = draw(st.lists(st.booleans(), min_size=len(pts), max_size=len(pts)))
    board = Board()
    for (x, y), is_white in zip(pts, colours, strict=True):
        # two black stones for each white one on average: threes and fours everywhere
        colour = Color.WHITE if is_white and (x + y) % 2 else Color.BLACK
        board.place(Point(x, y), colour)
    return board


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 7))
def test_fouls_are_invariant_under_the_8_symmetries(board: Board, sym: int) -> None:
    # Gomoku §2.19: a foul is a shape on the lines; turning or mirroring the board keeps it
    expected = {str(transform(Point.parse(k), sym)): v for k, v in forbidden_points(board).items()}
    assert forbidden_points(board.transformed(sym)) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(near_edge=True), st.integers(0, 7))
def test_fouls_near_the_edge_are_invariant_under_symmetries(board: Board, sym: int) -> None:
    # Gomoku §2.19 at the edges and corners
    expected = {str(transform(Point.parse(k), sym)): v for k, v in forbidden_points(board).items()}
    assert forbidden_points(board.transformed(sym)) == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(), positions(near_edge=True)))
def test_fast_finder_agrees_with_the_literal_reference(board: Board) -> None:
    # Gomoku §2.19 as DECISIONS.md reads it, written out literally in _renju_ref.py
    assert forbidden_points(board) == ref_map(board)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_renju_package_differs_only_on_five_points(board: Board) -> None:
    # The renju package equals the reference once a four-point that makes five is read as
    # forbidden; duiyi equals the reference read as DECISIONS.md says.
    theirs = renju_map(board)
    assert theirs == ref_map(board, five_forbidden=True)


def test_agreement_with_renju_package_on_generated_games() -> None:
    # Mid-game positions of the benchmark's generator: point by point, every difference must
    # be the five-point reading (a straight-four point that makes five is allowed for duiyi)
    boards = generate_positions(40, seed=99)
    compared = 0
    for board in boards:
        ours, theirs = forbidden_points(board), renju_map(board)
        compared += 225 - len(board)
        if ours != theirs:
            assert theirs == ref_map(board, five_forbidden=True)
            assert ours == ref_map(board)
    assert compared > 5000
    kinds = {f for b in boards for f in forbidden_points(b).values()}
    assert kinds == {Foul.DOUBLE_THREE, Foul.DOUBLE_FOUR, Foul.OVERLINE}
