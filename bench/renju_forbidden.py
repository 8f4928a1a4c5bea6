"""Benchmark: whole-board Renju forbidden maps, duiyi against the ``renju`` package (0.1.0).

Positions are mid-game positions of plausible games generated with a seeded RNG: each side
prefers points that extend its own lines and block the other's, so the positions are full of
twos, threes and fours (and therefore of forbidden points). Both libraries compute the map of
every empty point of every position in the same run; the answers are compared point by point
and every disagreement is printed.

Run: ``.venv/bin/python bench/renju_forbidden.py [--positions 300] [--seed 2013]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from duiyi import Color
from duiyi.gomoku.board import Board
from duiyi.gomoku.fouls import Foul, forbidden_points, makes_five
from duiyi.gomoku.point import SIZE, Point

_RENJU_CODE = {1: Foul.DOUBLE_THREE, 2: Foul.DOUBLE_FOUR, 3: Foul.OVERLINE}
_DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _line_score(cells: dict[tuple[int, int], Color], x: int, y: int, color: Color) -> int:
    """How much a stone at (x, y) joins ``color``'s stones along the four lines."""
    score = 0
    for dx, dy in _DIRS:
        own = 0
        for sgn in (1, -1):
            for k in range(1, 5):
                c = cells.get((x + sgn * k * dx, y + sgn * k * dy))
                if c is color:
                    own += 1
                elif c is not None or not (
                    0 <= x + sgn * k * dx < SIZE and 0 <= y + sgn * k * dy < SIZE
                ):
                    break
        score += own * own
    return score


def generate_positions(n: int, seed: int) -> list[Board]:
    """``n`` mid-game positions (15-70 stones) of seeded, plausible Renju games.

    Each side scores the empty points near the stones by how much they join its own lines and
    cut the other's, and picks among the best with some noise; Black never plays a forbidden
    point. Two kinds of games alternate: *sharp* ones, where a side blocks the opponent's
    five-point and the game stops (the position is kept) just before somebody could complete a
    five, and *crowded* ones, where nobody completes or blocks a five, which fills the board
    with fours, broken lines and overline points.
    """
    from duiyi.gomoku.fouls import foul

    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < n:
        board = Board()
        cells: dict[tuple[int, int], Color] = {}
        length = rng.randint(15, 70)
        sharp = len(boards) % 2 == 0
        color = Color.BLACK
        board.place(Point(7, 7), color)
        cells[(7, 7)] = color
        color = color.opponent
        while len(cells) < length:
            cand: set[tuple[int, int]] = set()
            for x, y in cells:
                for dx in range(-2, 3):
                    for dy in range(-2, 3):
                        q = (x + dx, y + dy)
                        if 0 <= q[0] < SIZE and 0 <= q[1] < SIZE and q not in cells:
                            cand.add(q)
            exact = color is Color.BLACK
            wins = {q for q in cand if makes_five(board, Point(*q), color, exact=exact)}
            if wins and sharp:
                break  # the side to move could win: keep the position as it is
            ordered = sorted(cand - wins)
            threats = [
                q
                for q in ordered
                if sharp
                and makes_five(board, Point(*q), color.opponent, exact=color is Color.WHITE)
            ]
            scored = []
            for q in threats or ordered:
                own = _line_score(cells, q[0], q[1], color)
                other = _line_score(cells, q[0], q[1], color.opponent)
                scored.append((own * 2 + other + rng.random() * 6, q))
            scored.sort(reverse=True)
            start = min(int(rng.expovariate(0.5)), len(scored) - 1)
            choice = None
            for _, q in scored[start:] + scored[:start]:
                if color is Color.BLACK and foul(board, Point(*q)) is not None:
                    continue
                choice = q
                break
            if choice is None:
                break
            board.place(Point(*choice), color)
            cells[choice] = color
            color = color.opponent
        if len(cells) >= 15:
            boards.append(board)
    return boards


def _shape_counts(boards: list[Board]) -> dict[str, int]:
    """How many (position, empty point) pairs give Black a three, a four or five+ somewhere."""
    from duiyi.gomoku import fouls
    from duiyi.gomoku.board import WINDOW_MASK, WINDOWS

    out = {"a three": 0, "a four": 0, "five or more": 0}
    for b in boards:
        for idx in range(225):
            if b._cells[idx]:
                continue
            vs = [fouls._TABLE[(b._lines[lid] >> sh) & WINDOW_MASK] for lid, sh in WINDOWS[idx]]
            v = 0
            for x in vs:
                v |= x
            out["a three"] += bool(v & fouls._THREE)
            out["a four"] += bool(v & (3 << fouls._FOUR_SHIFT))
            out["five or more"] += bool(v & (fouls._FIVE | fouls._OVER))
    return out


def renju_map(board: Board) -> dict[str, Foul]:
    """The forbidden map according to ``renju.check_forbid.get_foul_type``."""
    from renju.check_forbid import get_foul_type

    grid = [[0] * SIZE for _ in range(SIZE)]
    for p, c in board:
        grid[p.col][p.row] = 1 if c is Color.BLACK else 2
    out: dict[str, Foul] = {}
    for col in range(SIZE):
        for row in range(SIZE):
            if grid[col][row] == 0:
                code = get_foul_type(grid, col, row)
                if code:
                    out[str(Point(col, row))] = _RENJU_CODE[code]
    return out


def _five_point_reason(board: Board, key: str) -> str | None:
    """Explain a disagreement where duiyi finds a double-three that the renju package does
    not: one of the threes becomes a straight four only on a point that also makes a five,
    which DECISIONS.md counts as allowed (a five is never forbidden) and Piskvork's judge, that
    the package ports, counts as forbidden."""
    from duiyi.gomoku.fouls import explain_foul

    ex = explain_foul(board, key)
    if ex is None or ex.foul is not Foul.DOUBLE_THREE:
        return None
    after = board.copy()
    after.place(key, Color.BLACK)
    for line in ex.lines:
        for q in line.key_points:
            if makes_five(after, q, Color.BLACK, exact=True):
                return (
                    f"the {line.kind} on the {line.direction} becomes a straight four on {q}, "
                    f"which also makes a five: allowed for duiyi (DECISIONS.md), forbidden "
                    f"for the renju package"
                )
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2013)
    ap.add_argument(
        "--renju-positions",
        type=int,
        default=None,
        help="time the renju package on the first N positions only (default: all)",
    )
    args = ap.parse_args(argv)

    boards = generate_positions(args.positions, args.seed)
    stones = sum(len(b) for b in boards)
    print(
        f"{len(boards)} positions, {stones / len(boards):.1f} stones on average (seed {args.seed})"
    )

    # duiyi: cold (empty pattern cache) then warm
    from duiyi.gomoku import fouls

    fouls._TABLE.clear()
    fouls._CANDIDATES.clear()
    t0 = time.perf_counter()
    ours = [forbidden_points(b) for b in boards]
    cold = time.perf_counter() - t0
    warm = float("inf")
    for _ in range(3):  # best of 3: the machine is shared
        t0 = time.perf_counter()
        for b in boards:
            forbidden_points(b)
        warm = min(warm, time.perf_counter() - t0)

    m = args.renju_positions or len(boards)
    t0 = time.perf_counter()
    theirs = [renju_map(b) for b in boards[:m]]
    ref = time.perf_counter() - t0

    kinds = Counter(f for mp in ours for f in mp.values())
    shapes = _shape_counts(boards)
    print(
        "empty points where a black stone makes, on some line: "
        + ", ".join(f"{k} {v}" for k, v in shapes.items())
    )
    print(
        f"forbidden points found by duiyi: {sum(kinds.values())} "
        + ", ".join(f"{k.value} {v}" for k, v in sorted(kinds.items(), key=lambda kv: kv[0].value))
    )
    per_cold = cold / len(boards) * 1000
    per_warm = warm / len(boards) * 1000
    per_ref = ref / m * 1000
    print(f"duiyi  cold cache: {per_cold:8.3f} ms/map")
    print(
        f"duiyi  warm cache: {per_warm:8.3f} ms/map   (best of 3; {len(fouls._TABLE)} windows cached)"
    )
    print(f"renju 0.1.0      : {per_ref:8.3f} ms/map")
    print(f"speed-up: {per_ref / per_cold:.1f}x cold, {per_ref / per_warm:.1f}x warm")

    disagreements = explained = 0
    for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            for key in sorted(set(a) | set(b)):
                if a.get(key) != b.get(key):
                    disagreements += 1
                    why = _five_point_reason(boards[i], key)
                    explained += why is not None
                    print(f"  position {i} point {key}: duiyi {a.get(key)}, renju {b.get(key)}")
                    print(f"    {why or 'UNEXPLAINED'}")
                    print("    " + repr(boards[i]))
    compared = sum(225 - len(b) for b in boards[:m])
    print(
        f"points compared: {compared}, disagreements: {disagreements} "
        f"({explained} explained by the five-point reading)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
