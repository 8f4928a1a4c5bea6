"""The automatic dead-stone proposal (duiyi.go.life) on the classic shapes.

Go §8: at the end, stones that cannot be captured are alive and stones that can be captured are
dead; Go §21.4: the players must agree, the engine only proposes (DECISIONS.md "dead stones").
Diagrams are read with ``Board.from_diagram`` (top row first, X black, O white).
"""

from __future__ import annotations

import doctest
import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.errors import IllegalMove, InvalidInput
from duiyi.go import Board, Game, Point, Rules, life
from duiyi.go.life import Status, explain, propose_dead, status_map


def dead(diagram: str) -> list[str]:
    return sorted(map(str, propose_dead(Board.from_diagram(diagram))))


def names(points: Iterable[Point]) -> list[str]:
    return sorted(map(str, points))


# --------------------------------------------------------------------------- eyes


def test_two_eyes_live() -> None:
    # Go §8.1: a group with two real eyes cannot be captured, even deep in the enemy's area.
    assert (
        dead("""
        . X . X O . . . .
        X X X X O . . . .
        O O O O O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
        == []
    )


def test_one_eye_dies() -> None:
    # Go §8.2: one eye (here two points) is not enough; the enclosed group can be captured.
    assert dead("""
        . . X X O . . . .
        X X X X O . . . .
        O O O O O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""") == ["A8", "B8", "C8", "C9", "D8", "D9"]


def test_false_eye_does_not_count() -> None:
    # Go §8.2: C9 looks like a second eye, but white D8 sees it from the diagonal: white takes
    # D9-E9-E8 at C9 and the group is left with A9 only.
    board = Board.from_diagram("""
        . X . X X O . . .
        X X X O X O . . .
        X X X O O O . . .
        O O O O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == [
        "A7", "A8", "B7", "B8", "B9", "C7", "C8", "D9", "E8", "E9"
    ]  # fmt: skip
    reasons = {g.stones[0]: g.reason for g in explain(board)}
    assert reasons[Point.parse("E8", 9)].startswith("dead: in atari")


def test_benson_alive_group_is_never_proposed() -> None:
    # Go §8.1: two vital eyes make the corner group unconditionally alive (Benson).
    board = Board.from_diagram("""
        . X . X O . .
        X X X X O . .
        O O O O O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""")
    for g in explain(board):
        if g.color is BLACK:
            assert g.status is Status.ALIVE
            assert "Benson" in g.reason


# --------------------------------------------------------------------------- eye shapes


def _enclosed_shape(eye: list[tuple[int, int]], size: int = 13) -> Board:
    """Black walls the eye space in, white walls black in; white owns the rest of the board."""
    eye_set = set(eye)

    def ring(points: set[tuple[int, int]]) -> set[tuple[int, int]]:
        out = set()
        for c, r in points:
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    q = (c + dc, r + dr)
                    if 0 <= q[0] < size and 0 <= q[1] < size and q not in points:
                        out.add(q)
        return out

    black = ring(eye_set)
    white = ring(eye_set | black)
    return Board.from_stones(
        size,
        black=[Point(c, r) for c, r in black],
        white=[Point(c, r) for c, r in white],
    )


SHAPES = {
    # name: (eye points around the centre, alive?)
    "straight three": ([(5, 6), (6, 6), (7, 6)], False),
    "bent three": ([(5, 6), (6, 6), (6, 7)], False),
    "square four": ([(5, 6), (6, 6), (5, 7), (6, 7)], False),
    "pyramid four": ([(5, 6), (6, 6), (7, 6), (6, 7)], False),
    "bulky five": ([(5, 6), (6, 6), (5, 7), (6, 7), (7, 6)], False),
    "crossed five": ([(5, 6), (6, 6), (7, 6), (6, 7), (6, 5)], False),
    "rabbity six": ([(5, 6), (6, 6), (5, 7), (6, 7), (7, 6), (6, 5)], False),
    "straight four": ([(4, 6), (5, 6), (6, 6), (7, 6)], True),
    "bent four": ([(5, 6), (6, 6), (7, 6), (7, 7)], True),
    "rectangular six": ([(5, 6), (6, 6), (7, 6), (5, 7), (6, 7), (7, 7)], True),
    "two separate eyes": ([(5, 6), (7, 6)], True),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_eye_shapes(name: str) -> None:
    # Go §8: killable eye shapes (the opponent plays the vital point) are dead; shapes that
    # always make two eyes are alive. The outer white group always lives.
    eye, alive = SHAPES[name]
    board = _enclosed_shape(eye)
    proposal = propose_dead(board)
    assert not proposal & board.stones(WHITE)
    assert (proposal == frozenset()) is alive
    if not alive:
        assert proposal == board.stones(BLACK)


# --------------------------------------------------------------------------- dead stones


def test_small_dead_stones_inside_territory() -> None:
    # Go §8.2 and §9: invaders left inside the opponent's area are dead and taken off at counting.
    board = Board.from_diagram("""
        . . . . . . . . .
        . . O . . . . . .
        . . . . . . . . .
        X X X X X X X X X
        O O O O O O O O O
        . . . . . . . . .
        . . . . . X X . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == ["C8", "F3", "G3"]


def test_dead_stones_inside_an_eye_do_not_kill_the_owner() -> None:
    # Go §8: white's eye at the top holds a dead black stone; taking it leaves an eye, so the
    # white group lives and only the black stone is dead.
    board = Board.from_diagram("""
        . X . O . O X . .
        X X O O O O X . .
        O O O . O X X . .
        O . O O O X . . .
        O O O X X X . . .
        X X X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == ["A8", "B8", "B9"]


def test_stones_in_atari_inside_a_wall() -> None:
    # Go §8.2: the white chain A2-B4 has one liberty (A3) and black can take it; B6-B7 has no
    # room for eyes. Both are dead inside black's wall.
    board = Board.from_diagram("""
        . O X . . . .
        . O X . . . .
        X X X . . . .
        O O X . . . .
        . O X . . . .
        O O X . . . .
        X X X . . . .""")
    assert names(propose_dead(board)) == ["A2", "A4", "B2", "B3", "B4", "B6", "B7"]
    reasons = {str(g.stones[0]): g.reason for g in explain(board)}
    assert reasons["A2"].startswith("dead: in atari")


def test_enemy_stone_inside_a_dead_groups_eye_lives() -> None:
    # Go §8: black can take A9, but that only leaves it one eye (A9-B9), so black is dead; the
    # white stone inside black's eye is then inside white's own area and stays alive.
    board = Board.from_diagram("""
        O . X O . . . . .
        X X X O . . . . .
        O O O O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == ["A8", "B8", "C8", "C9"]


def test_empty_and_lonely_boards() -> None:
    # Go §8: with no enclosure nothing can be called dead.
    assert dead(". . . . .\n" * 5) == []
    assert dead(". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . O . .") == []


# --------------------------------------------------------------------------- seki


SEKI = """
    . O O O X O . . .
    X . X . X O . . .
    X X X X X O . . .
    O X O O O O . . .
    O O O . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""


def test_seki_without_eyes() -> None:
    # Go §8.1: white's three stones and black's corner group share A9, B8, D8; whoever fills one
    # of them is taken, so neither can be captured: both live (seki), nothing is dead.
    board = Board.from_diagram(SEKI)
    assert propose_dead(board) == frozenset()
    statuses = status_map(board)
    assert statuses[Point.parse("C9", 9)] is Status.SEKI
    assert statuses[Point.parse("B6", 9)] is Status.SEKI
    assert statuses[Point.parse("F9", 9)] is Status.ALIVE


def test_seki_with_one_eye_each() -> None:
    # Go §8.1: black B9-A8-B8 (eye A9) and white C8-F9 (eye E9) share only C9; whoever fills
    # it puts itself in atari, so both live in seki. The outer groups are simply alive.
    board = Board.from_diagram("""
        . X . O . O X . .
        X X O O O O X . .
        O O X X X X X . .
        . O X . . . . . .
        O O X . . . . . .
        . O X . . . . . .
        O O X . . . . . .
        . O X . . . . . .
        O O X . . . . . .""")
    assert propose_dead(board) == frozenset()
    seki = names(p for p, s in status_map(board).items() if s is Status.SEKI)
    assert seki == ["A8", "B8", "B9", "C8", "D8", "D9", "E8", "F8", "F9"]


def test_approachable_group_is_no_seki() -> None:
    # Go §8.2: with an extra outside liberty (E6 empty), black can fill the shared liberties
    # from outside in time; the inner white stones have no eyes and die.
    board = Board.from_diagram("""
        . O O O X . . . .
        X . X . X . . . .
        X X X X X . . . .
        . X . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == ["B9", "C9", "D9"]


# --------------------------------------------------------------------------- API


def test_points_are_the_boards_own_and_board_is_untouched() -> None:
    board = Board.from_diagram(SEKI.replace("O O O O . . .", "O O O O . X ."))
    before = board.copy()
    proposal = propose_dead(board)
    assert board == before
    stones = board.stones(BLACK) | board.stones(WHITE)
    assert proposal <= stones
    assert set(status_map(board)) == stones
    assert sum(len(g.stones) for g in explain(board)) == len(stones)


def test_game_propose_dead_uses_life() -> None:
    # DECISIONS.md: the game offers the proposal but does not apply it.
    g = Game(9, rules=Rules.chinese())
    for mv in ["E5", "A1", "E6", "A2", "E4", "B1"]:
        g.play(mv)
    assert g.propose_dead() == propose_dead(g.board)
    assert g.dead == frozenset()


def test_invalid_board_is_refused() -> None:
    class Broken:
        size = 5

        def stones(self, color: object) -> frozenset[Point]:
            return frozenset({Point(0, 0)})

    with pytest.raises(InvalidInput, match="both colours"):
        propose_dead(Broken())


def test_docstring_examples() -> None:
    result = doctest.testmod(life)
    assert result.failed == 0 and result.attempted > 0


# --------------------------------------------------------------------------- properties


@st.composite
def played_boards(draw: st.DrawFn) -> Board:
    size = draw(st.sampled_from([5, 7, 9]))
    seed = draw(st.integers(0, 2**32 - 1))
    moves = draw(st.integers(0, size * size))
    rng = random.Random(seed)
    board = Board(size)
    colour = BLACK
    for _ in range(moves):
        p = Point(rng.randrange(size), rng.randrange(size))
        if board.get(p) is None:
            try:
                board.play(p, colour)
            except IllegalMove:
                continue
            colour = colour.opponent
    return board


@settings(max_examples=60, deadline=None)
@given(played_boards())
def test_proposal_properties(board: Board) -> None:
    # Go §8: the proposal only names stones on the board, never an unconditionally alive chain,
    # and is a pure function of the position.
    proposal = propose_dead(board)
    assert proposal <= board.stones(BLACK) | board.stones(WHITE)
    assert propose_dead(board.copy()) == proposal
    statuses = status_map(board)
    assert {p for p, s in statuses.items() if s is Status.DEAD} == proposal
    analysis = life._Analysis(board.size, _colours(board))
    for cid in analysis.benson:
        assert not any(
            Point(i % board.size, i // board.size) in proposal for i in analysis.chains[cid]
        )
    for g in explain(board):
        # a chain is either dead or alive as a whole
        assert all(statuses[p] is g.status for p in g.stones)


def _colours(board: Board) -> list[int]:
    out = [0] * (board.size * board.size)
    for p in board.stones(BLACK):
        out[p.row * board.size + p.col] = 1
    for p in board.stones(WHITE):
        out[p.row * board.size + p.col] = 2
    return out


# --------------------------------------------------------------------------- reading


def reasons(board: Board) -> dict[str, str]:
    return {str(p): g.reason for g in explain(board) for p in g.stones}


def test_reading_capturing_race_inside_an_eye_space() -> None:
    # Go §8: inside black's unconditionally alive frame, black A8-C8 (libs A9, B9, C9) and white
    # D9-A7 (libs C9, E9) race; white is a liberty short whoever starts, so black takes it and
    # the inner black stones live. The local reading decides it, not the static order.
    board = Board.from_diagram("""
        . . . O . X . X .
        X X X O X X X X X
        O O O O X X . . .
        X X X X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == ["A7", "B7", "C7", "D7", "D8", "D9"]
    why = reasons(board)
    assert why["D9"].startswith("dead: read out")
    assert why["A8"].startswith("alive: read out")


def test_reading_false_eye_inside_a_frame() -> None:
    # Go §8.2: white has A9 and C9, but C9 is false (black D8 on the diagonal at the edge): black
    # takes D9 at C9 and wins the ko that follows by connecting, so white has one eye and dies.
    board = Board.from_diagram("""
        . O . O X . X X .
        O O O X X X X X X
        X X X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == ["A8", "B8", "B9", "C8", "D9"]
    assert reasons(board)["B9"].startswith("dead: read out")


def test_reading_two_eyes_inside_a_frame_live() -> None:
    # Go §8.1: white's two eyes (B9 and A8) inside black's frame cannot both be filled; the
    # reading must not kill a living group (A9 is a separate chain held by both eyes).
    board = Board.from_diagram("""
        O . O X . X . X .
        . O O X X X X X X
        O O X X . . . . .
        X X X . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert propose_dead(board) == frozenset()
    assert reasons(board)["A9"].startswith("alive: read out")


def test_reading_outside_liberty_decides_the_race() -> None:
    # Go §8: black's inner stones A8-B9 have one liberty (A9), white A7-C9 one (D9) next to
    # black's frame; black fills D9 first and takes white, and its inner stones live.
    board = Board.from_diagram("""
        . X O . X . X X .
        X X O X X X X X X
        O O O X . . . . .
        X X X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert names(propose_dead(board)) == ["A7", "B7", "C7", "C8", "C9"]
    assert reasons(board)["A8"].startswith("alive: read out")


def test_reading_seki_of_three_chains_inside_an_eye_space() -> None:
    # Go §8.1: inside black's unconditionally alive frame, black A8-B8-B9 (eye A9) and the two
    # white chains D9-E9-E8 and A7-D7-C8 (sharing the eye D8) all hold C9. Black at C9 is taken
    # at A9; white at C9 is taken at D8; D8 is suicide for black: nobody can be captured, a
    # seki of three chains, which the static rules (two single chains only) call dead.
    board = Board.from_diagram("""
        . X . O O X . X .
        X X O . O X X X X
        O O O O X X . . .
        X X X X X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert propose_dead(board) == frozenset()
    seki = names(p for p, s in status_map(board).items() if s is Status.SEKI)
    assert seki == ["A7", "A8", "B7", "B8", "B9", "C7", "C8", "D7", "D9", "E8", "E9"]
    assert reasons(board)["B9"].startswith("seki: read out")


def test_reading_seki_of_several_groups_by_a_race() -> None:
    # Go §8.1: white A9-C7 (no eye) holds D7, D8, D9, all shared with black's wall A6-E9, whose
    # fourth liberty F7 is shared with white's living groups. Black filling D7-D9 first puts
    # itself in atari and is taken; white filling them first is taken the same way; F7 only
    # shortens black. Nobody can capture: a seki of several groups, which the static rules
    # (white inside black's area, no eyes) call dead.
    board = Board.from_diagram("""
        O O O . X O . O .
        X X O . X O O O O
        X X O . X . . . .
        X X X X X O . . .
        O O O O O O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert propose_dead(board) == frozenset()
    statuses = status_map(board)
    for name in ("A9", "C7", "A8", "E9"):
        assert statuses[Point.parse(name, 9)] is Status.SEKI, name
    assert statuses[Point.parse("F8", 9)] is Status.ALIVE
    assert reasons(board)["A9"].startswith("seki: read out")


def test_reading_net_on_the_edge() -> None:
    # Go §8.2: white E1 (liberties E2, F1) is caught whatever it does: E2 is answered by D2
    # (F1 then leaves one liberty), F1 by E2 (a ladder along the edge into the corner) or G1.
    # It lies in open play, where the static rules propose nothing; the net reading kills it.
    board = Board.from_diagram("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . . X . . .
        . . . X O . . . .""")
    assert names(propose_dead(board)) == ["E1"]
    assert reasons(board)["E1"].startswith("dead: read out, captured in a ladder or net")


def test_reading_net_broken_by_a_friendly_stone() -> None:
    # Go §8.1: with a white stone at G1, white E1 connects out at F1 (three liberties): it
    # cannot be captured, so it is not proposed dead.
    assert (
        dead("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . . X . . .
        . . . X O . O . .""")
        == []
    )


def test_reading_net_escapes_by_capturing_the_attacker() -> None:
    # Go §8.1: with white G2, black's atari at G1 is itself in atari (H1 takes it), and black's
    # atari at E2 lets white connect at G1: white E1 escapes, nothing is dead.
    board = Board.from_diagram("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . . X O . .
        . . . X O . . . .""")
    assert propose_dead(board) == frozenset()
    assert all(s is Status.ALIVE for s in status_map(board).values())


def test_reading_net_leaves_a_tigers_mouth_connection_alive() -> None:
    # Go §8.1: white F8 has two liberties, E8 and F9. Black at E8 is in atari and white takes
    # it at E7; black at F9 is answered by E8, joining white's living group (eyes A9, C9). The
    # chain cannot be captured, so it is not proposed dead.
    board = Board.from_diagram("""
        . O . O O . X . .
        O O O O . O X . .
        X X X X . X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert propose_dead(board) == frozenset()
