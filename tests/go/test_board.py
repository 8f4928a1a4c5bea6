"""Board: points, liberties, captures and suicide as rulebook diagrams (Go §1–§5)."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE, Color
from duiyi.errors import IllegalMove, InvalidPoint
from duiyi.go import Board, Point
from duiyi.go.board import geometry


def after(diagram: str, move: str, color: Color) -> Board:
    b = Board.from_diagram(diagram)
    b.play(move, color)
    return b


# ---------------------------------------------------------------- points (Go §1)


@pytest.mark.parametrize(
    ("text", "size", "col", "row"),
    [("A1", 19, 0, 0), ("D4", 19, 3, 3), ("T19", 19, 18, 18), ("J9", 9, 8, 8), ("Z25", 25, 24, 24)],
)
def test_point_parse(text: str, size: int, col: int, row: int) -> None:
    # Go §1: 19×19 points; GTP letters skip I
    p = Point.parse(text, size)
    assert (p.col, p.row) == (col, row)
    assert str(p) == text
    assert eval(repr(p), {"Point": Point}) == p


@pytest.mark.parametrize(
    ("text", "size"),
    [("I5", 19), ("U1", 19), ("A20", 19), ("A0", 19), ("", 19), ("K10", 9), ("55", 19)],
)
def test_point_parse_rejects(text: str, size: int) -> None:
    with pytest.raises(InvalidPoint):
        Point.parse(text, size)


@pytest.mark.parametrize("size", [4, 26, 0])
def test_board_sizes_outside_5_25_rejected(size: int) -> None:
    # DECISIONS.md: any size 5–25
    with pytest.raises(InvalidPoint):
        Board(size)


def test_all_sizes_have_consistent_geometry() -> None:
    for n in range(5, 26):
        g = geometry(n)
        assert len(g.points) == n * n
        assert g.on_board.bit_count() == n * n
        # corners have 2 neighbours, edges 3, centre 4 (Go §3: 直线紧邻)
        assert g.neighbours[g.index(Point(0, 0))].bit_count() == 2
        assert g.neighbours[g.index(Point(n - 1, 1))].bit_count() == 3
        assert g.neighbours[g.index(Point(2, 2))].bit_count() == 4


# ---------------------------------------------------------------- liberties (Go §3)


def test_liberties_and_groups() -> None:
    # Go §3: stones next to each other along lines form one group; its liberties are shared
    b = Board.from_diagram(
        """
        . . . . .
        . X X . .
        . X O . .
        . . . . .
        . . . . ."""
    )
    assert b.group("B4") == {Point.parse("B4", 5), Point.parse("C4", 5), Point.parse("B3", 5)}
    assert {str(p) for p in b.liberties("C4")} == {"B5", "C5", "D4", "A4", "A3", "B2"}
    assert {str(p) for p in b.liberties("C3")} == {"D3", "C2"}
    assert b.group("E5") == frozenset() and b.liberties("E5") == frozenset()
    assert {str(p) for p in b.neighbours("A1")} == {"A2", "B1"}


def test_diagram_round_trip() -> None:
    b = Board.from_diagram(
        """
           A B C D E
         5 . . . . .  5
         4 . X X . .  4
         3 . X O . .  3
         2 . . . O .  2
         1 . . . . .  1
           A B C D E"""
    )
    assert Board.from_diagram(str(b)) == b
    assert str(b).splitlines()[2] == " 4 . X X . .  4"
    assert b.count(BLACK) == 3 and b.count(WHITE) == 2


# ---------------------------------------------------------------- captures (Go §4)


def test_capture_single_stone() -> None:
    # Go §4.1: after the move the opponent's stone has no liberty and is removed
    b = after(
        """
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .""",
        "C2",
        BLACK,
    )
    assert b == Board.from_diagram(
        """
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . ."""
    )


def test_capture_group_and_stone_on_the_edge() -> None:
    # Go §4.1: a whole group without liberties is removed at once, with any other such group
    b = after(
        """
        . . . . .
        . . . . .
        X X X . .
        O O O X .
        X X . O X""",
        "C1",
        BLACK,
    )
    assert b == Board.from_diagram(
        """
        . . . . .
        . . . . .
        X X X . .
        . . . X .
        X X X . X"""
    )


def test_capture_two_groups_at_once() -> None:
    # Go §4.1: every opponent group left without liberty goes
    b = after(
        """
        . . . . .
        . . . . .
        X . X . .
        O . O X .
        X O X . .""",
        "B2",
        BLACK,
    )
    assert b.get("A2") is None and b.get("C2") is None and b.get("B1") is None
    assert b.count(WHITE) == 0


def test_capture_before_own_liberties_are_checked() -> None:
    # Go §4.2: both sides without liberties after the move: the opponent's stones are removed
    diagram = """
        . . . . .
        . . . . .
        . . . . .
        O X . . .
        . O X . ."""
    b = after(diagram, "A1", BLACK)
    assert b.get("B1") is None
    assert b.get("A1") is BLACK
    assert b.liberties("A1") == {Point.parse("B1", 5)}


# ---------------------------------------------------------------- suicide (Go §5)


def test_single_stone_suicide_forbidden() -> None:
    # Go §5: a point where the stone would have no liberty and captures nothing (图2 A)
    b = Board.from_diagram(
        """
        . . . . .
        . . O . .
        . O . O .
        . . O . .
        . . . . ."""
    )
    with pytest.raises(IllegalMove) as exc:
        b.play("C3", BLACK)
    assert exc.value.article == "Go §5"
    assert b.get("C3") is None


def test_multi_stone_suicide_forbidden() -> None:
    # Go §5: filling the last liberty of one's own group is suicide too
    diagram = """
        . . . . .
        . . . . .
        O O O . .
        X X O . .
        . X O . ."""
    b = Board.from_diagram(diagram)
    with pytest.raises(IllegalMove):
        b.play("A1", BLACK)
    assert b == Board.from_diagram(diagram)


def test_multi_stone_suicide_when_allowed_removes_own_group() -> None:
    # allow_suicide (other rule sets only): the mover's group leaves the board
    b = Board.from_diagram(
        """
        . . . . .
        . . . . .
        O O O . .
        X X O . .
        . X O . ."""
    )
    b.play("A1", BLACK, allow_suicide=True)
    assert b.count(BLACK) == 0


def test_occupied_point() -> None:
    b = Board(9)
    b.play("E5", BLACK)
    with pytest.raises(IllegalMove):
        b.play("E5", WHITE)


# ---------------------------------------------------------------- hashing


def test_zobrist_depends_only_on_stones() -> None:
    a = Board(9)
    a.play("C3", BLACK)
    a.play("G7", WHITE)
    b = Board.from_stones(9, black=["C3"], white=["G7"])
    assert a == b and a.zobrist == b.zobrist
    c = Board.from_stones(9, black=["G7"], white=["C3"])
    assert c.zobrist != a.zobrist
    assert Board(9).zobrist == 0


def test_capture_restores_hash_of_earlier_position() -> None:
    # removing captured stones updates the key exactly
    b = Board.from_diagram(
        """
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . ."""
    )
    b.play("C2", BLACK)
    expected = Board.from_stones(5, black=["C4", "B3", "D3", "C2"])
    assert b.zobrist == expected.zobrist


def test_from_bits_and_copy_independent() -> None:
    b = Board.from_stones(7, black=["D4"], white=["C4"])
    c = Board.from_bits(7, b.black_bits, b.white_bits)
    assert c == b and c.zobrist == b.zobrist
    d = b.copy()
    d.play("E4", WHITE)
    assert b.get("E4") is None


def test_setting_a_stone_on_both_colours_rejected() -> None:
    with pytest.raises(InvalidPoint):
        Board.from_stones(9, black=["C3"], white=["C3"])


# ---------------------------------------------------------------- the board's reads as sets


def _naive(b: Board) -> dict[str, frozenset[Point]]:
    """The reads computed point by point through ``get`` (the reference)."""
    pts = geometry(b.size).points
    return {
        "empty": frozenset(p for p in pts if b.get(p) is None),
        "black": frozenset(p for p in pts if b.get(p) is BLACK),
        "white": frozenset(p for p in pts if b.get(p) is WHITE),
    }


def test_the_reads_are_sets_equal_to_a_point_by_point_reading() -> None:
    # Go §3: the chain of C3-C4 and its liberties; the empty points are the rest of the 9×9
    b = Board.from_stones(9, black=["C3", "C4", "E5"], white=["D4", "A1"])
    ref = _naive(b)
    empty, black, white = b.empty_points(), b.stones(BLACK), b.stones(WHITE)
    assert (empty, black, white) == (ref["empty"], ref["black"], ref["white"])
    assert ref["empty"] == empty and hash(empty) == hash(ref["empty"])
    assert len(empty) == 81 - 5 and bool(white) and not b.stones(BLACK) & white
    assert list(empty) == sorted(empty, key=lambda p: (p.row, p.col))  # bottom row first
    assert b.group("C3") == {Point.parse("C3"), Point.parse("C4")}
    assert b.liberties("C3") == {Point.parse(t) for t in ("C2", "B3", "D3", "B4", "C5")}
    assert b.liberties("C3") <= empty and b.neighbours("D4") >= {Point.parse("C4")}
    assert b.liberties("B2") == frozenset() and not b.liberties("B2")
    # with a set of another kind the result is a frozenset, as frozenset's own operations
    assert black | {Point.parse("J9")} == ref["black"] | {Point.parse("J9")}
    assert black.union([Point.parse("J9")]) == ref["black"].union([Point.parse("J9")])
    assert black.issubset(ref["black"]) and black.isdisjoint(white)
    assert Point.parse("E5") in black and "E5" not in black and Point(20, 20) not in black


def test_a_read_is_a_snapshot_the_board_does_not_change_afterwards() -> None:
    b = Board(9)
    empty = b.empty_points()
    b.play("E5", BLACK)
    assert Point.parse("E5") in empty and len(empty) == 81
    assert Point.parse("E5") not in b.empty_points()
