"""legal_moves() by whole-board bit operations equals the one-point-at-a-time rules check.

For every position of seeded random games (small boards, so that captures, kos, suicide points
and repetitions are frequent), the set given by ``Game.legal_moves()`` must be exactly the empty
points that ``Game.is_legal`` accepts: occupied points (Go §2), suicide (Go §5, or the rule set's
allowed suicide), simple ko (Go §20.1) and positional/situational superko (Go §6).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from sgfmill import boards

from duiyi import BLACK, WHITE
from duiyi.go import Game, Phase, Rules
from duiyi.go.rules import KoRule

RULES = {
    "chinese": Rules.chinese(),
    "japanese": Rules.japanese(),
    "positional": replace(Rules.chinese(), ko_rule=KoRule.POSITIONAL),
    "nz": Rules.nz(),  # suicide allowed
    "ing": Rules.ing(),  # multi-stone suicide only
    "tromp-taylor": Rules.tromp_taylor(),
}


@pytest.mark.parametrize("name", list(RULES))
def test_legal_moves_equal_point_by_point_check(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    positions = refused = 0
    for _ in range(12):
        game = Game(rng.choice((5, 6, 7)), rules)
        for _ in range(rng.randint(40, 160)):
            if game.phase is not Phase.PLAYING:
                break
            fast = set(game.legal_moves())
            empty = game.board.empty_points()
            slow = {p for p in empty if game.is_legal(p)}
            assert fast == slow, (name, str(game))
            assert game.legal_moves().count() == len(slow)
            positions += 1
            refused += len(empty) - len(slow)
            # mostly legal moves, sometimes a pass; no eye filling rule, so suicides and kos
            # keep coming up
            r = rng.random()
            if r < 0.05 and len(game.actions) > 1:
                game.undo()  # undo restores the position and its repetition history
            elif slow and r > 0.08:
                game.play(rng.choice(sorted(slow, key=lambda p: (p.row, p.col))))
            else:
                game.pass_move()
    assert positions > 500 and refused > 30


def _naive_legal(
    size: int,
    grid: dict[tuple[int, int], str],
    colour: str,
    point: tuple[int, int],
    suicide_ok: bool,
) -> frozenset[tuple[tuple[int, int], str]] | None:
    """The position after ``colour`` plays ``point`` by sgfmill's captures (Go §4), or None
    when the point is occupied (Go §2) or the move is a suicide the rules forbid (Go §5)."""
    if point in grid:
        return None
    ref = boards.Board(size)
    for (r, c), v in grid.items():
        ref.board[r][c] = v
    ref.play(point[0], point[1], colour)
    if ref.board[point[0]][point[1]] is None and not suicide_ok:
        return None
    return frozenset(((r, c), ref.board[r][c]) for r in range(size) for c in range(size)
                     if ref.board[r][c] is not None)  # fmt: skip


@pytest.mark.parametrize("name", ["chinese", "japanese", "positional", "nz"])
def test_is_legal_equals_a_naive_reference(name: str) -> None:
    # is_legal decides most points by a fast path (an empty neighbour: never suicide, Go §5;
    # no opponent stone next to it: no capture, so no repetition unless the point was emptied
    # by a capture, Go §6). A slow independent reference decides every empty point of every
    # position: sgfmill's captures, suicide, and the whole history of positions for superko
    # (Go §6) or the position before the last move for simple ko (Go §20.1). Undo included.
    rules = RULES[name]
    rng = random.Random(f"naive-{name}")
    checked = refused = 0
    for _ in range(6):
        size = rng.choice((5, 6, 7))
        game = Game(size, rules)
        history: list[tuple[frozenset[tuple[tuple[int, int], str]], str, bool]] = []

        def position(game: Game) -> frozenset[tuple[tuple[int, int], str]]:
            b = game.board
            return frozenset(
                ((p.row, p.col), "b" if b.get(p) is BLACK else "w")
                for p in b.stones(BLACK) | b.stones(WHITE)
            )

        # (position, side to move, whether a stone move led to it)
        history.append((position(game), "b", False))
        for _ in range(rng.randint(60, 140)):
            if game.phase is not Phase.PLAYING:
                break
            now, colour, _ = history[-1]
            grid = dict(now)
            other = "w" if colour == "b" else "b"
            for p in game.board.geometry.points:
                after = _naive_legal(size, grid, colour, (p.row, p.col), rules.allow_suicide)
                expected = after is not None
                if expected and rules.ko_rule is KoRule.SIMPLE:
                    # simple ko: no immediate retake, i.e. no return to the position before
                    # the opponent's stone move
                    if history[-1][2] and len(history) >= 2 and history[-2][0] == after:
                        expected = False
                elif expected and rules.ko_rule is KoRule.SITUATIONAL:
                    expected = all((pos, side) != (after, other) for pos, side, _ in history)
                elif expected:
                    expected = all(pos != after for pos, _, _ in history)
                assert game.is_legal(p) == expected, (name, str(p), str(game))
                checked += 1
                refused += not expected
            r = rng.random()
            legal = sorted(game.legal_moves(), key=lambda q: (q.row, q.col))
            if r < 0.05 and len(game.actions) > 1:
                game.undo()
                history.pop()
            elif legal and r > 0.08:
                game.play(rng.choice(legal))
                history.append((position(game), other, True))
            else:
                game.pass_move()
                history.append((position(game), other, False))
    assert checked > 3000 and refused > 1000
