"""Random legal playouts on 19×19 through the public API: duiyi vs sgfmill, simple ko and superko.

Both sides run the same playout loop with the same random seeds: go through the empty points in a
random order (a lazy Fisher–Yates shuffle: each next point drawn at random from the ones left),
skip the mover's own one-point eye, play the first legal point (``Game.is_legal`` then
``Game.play`` for duiyi); pass when none is left; stop after two passes or ``--max-moves``.
Under simple ko duiyi also ends a game whose position comes round a third time (Go §20.3);
sgfmill has no such notion, so its side stops after as many moves as duiyi's game had.

Two rule settings, each run on both libraries:

* **simple ko**: duiyi ``Rules.japanese()`` (occupied, suicide Go §5, simple ko Go §20.1).
  sgfmill's ``Board.play`` allows self-capture and returns the simple-ko point, so its side adds
  only what is missing: the ko point is refused; a point with an empty neighbour is played at
  once (it cannot be suicide); any other point is tried on a copy and refused when the stone is
  gone afterwards (suicide).
* **situational superko**: duiyi ``Rules.chinese()`` (Go §6). sgfmill gets a Zobrist key kept by
  the bench: a point with an empty neighbour and no opponent stone next to it captures nothing,
  so its new key is one XOR and a set look-up; other points are tried on a copy, and the key of
  the stones they capture is read off the old board.

The sgfmill side is given every shortcut the rules allow, so the comparison is like for like.
With the same seeds both sides play the same games, which the script checks.

Then the same through the board's public reads only (issue 34), the way a user writes a
playout: each move ``list(board.empty_points())``, ``random.shuffle``, the eye check with
``board.neighbours(p) <= board.stones(colour)``, ``is_legal``, ``play``; sgfmill lists its empty
points off its grid and shuffles them the same way (both lists run bottom row first, so the
same shuffle gives both the same order and the same games).

Last, the cost of one legal move on a board that still has room (the common case: a point with
an empty neighbour): the first 150 points of random orders of the 361, each played when legal
(duiyi ``is_legal`` + ``play``; sgfmill the occupied and ko checks, ``play`` at once when the
point has an empty neighbour, else on a copy with the suicide check).

Times are CPU time of this process (``time.process_time``), best of ``--repeat`` interleaved
runs, so that other jobs on a shared machine do not tilt the ratios.

Run: ``.venv/bin/python bench/go_playouts.py [--games 40] [--size 19] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from sgfmill import boards

from duiyi.go import BLACK, WHITE, Game, Phase, Point, Rules

T = TypeVar("T")
Final = list[tuple[int, int, bool]]
Playout = Callable[[random.Random, int, int], tuple[int, Final]]


def _drawn(rng: random.Random, cands: list[T]) -> Iterator[T]:
    """The points of ``cands`` in a random order (lazy Fisher–Yates)."""
    while cands:
        k = rng.randrange(len(cands))
        p = cands[k]
        cands[k] = cands[-1]
        cands.pop()
        yield p


def _round(order: list[T], at: list[int]) -> Iterator[T]:
    """One round of the cyclic ``order``, from where the last move stopped (``at[0]``)."""
    n = len(order)
    for _ in range(n):
        k = at[0]
        at[0] = k + 1 if k + 1 < n else 0
        yield order[k]


def _shuffled(rng: random.Random, cands: list[T]) -> list[T]:
    """``cands`` shuffled in place by ``random.shuffle`` (the public-API playout's order)."""
    rng.shuffle(cands)
    return cands


def duiyi_playout(rules: Rules, order: str = "drawn") -> Playout:
    """The playout on duiyi's public API under ``rules``; ``order``: the candidate points
    drawn lazily at random (``drawn``), in one cyclic random order (``cyclic``), or the empty
    points listed and shuffled each move (``shuffled``)."""
    if order == "shuffled":
        return lambda rng, size, max_moves: _duiyi_public(rules, rng, size, max_moves)
    cyclic = order == "cyclic"

    def playout(rng: random.Random, size: int, max_moves: int) -> tuple[int, Final]:
        g = Game(size, rules)
        geo = g.board.geometry
        nbrs = geo.neighbours
        index = geo.point_bit
        order = list(geo.points)
        if cyclic:
            rng.shuffle(order)
        at = [0]
        moves = 0
        while g.phase is Phase.PLAYING and moves < max_moves:
            b = g.board
            own = b.black_bits if g.to_move is BLACK else b.white_bits
            played = False
            for p in (
                _round(order, at)
                if cyclic
                else _drawn(rng, geo.points_of(geo.on_board & ~(b.black_bits | b.white_bits)))
            ):
                nb = nbrs[index[p]]
                if nb & own == nb:  # own one-point eye
                    continue
                if g.is_legal(p):
                    g.play(p)
                    played = True
                    break
            if not played:
                g.pass_move()
            moves += 1
        return moves, _final_duiyi(g)

    return playout


def _duiyi_public(rules: Rules, rng: random.Random, size: int, max_moves: int) -> tuple[int, Final]:
    """The playout through the board's public reads: the empty points listed and shuffled,
    the eye check by sets of points, ``is_legal`` and ``play``."""
    g = Game(size, rules)
    moves = 0
    while g.phase is Phase.PLAYING and moves < max_moves:
        b = g.board
        own = b.stones(g.to_move)
        for p in _shuffled(rng, list(b.empty_points())):
            if b.neighbours(p) <= own:  # own one-point eye
                continue
            if g.is_legal(p):
                g.play(p)
                break
        else:
            g.pass_move()
        moves += 1
    return moves, _final_duiyi(g)


def _final_duiyi(g: Game) -> Final:
    b = g.board
    return sorted(
        [(p.row, p.col, True) for p in b.stones(BLACK)]
        + [(p.row, p.col, False) for p in b.stones(WHITE)]
    )


def _neighbours(size: int) -> list[list[list[tuple[int, int]]]]:
    return [
        [
            [
                (rr, cc)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < size and 0 <= cc < size
            ]
            for c in range(size)
        ]
        for r in range(size)
    ]


def sgfmill_simple_ko(order: str = "drawn") -> Playout:
    """sgfmill's Board with simple ko (its own ``play`` result) and a suicide check added."""
    return lambda rng, size, max_moves: _sgfmill_simple_ko(rng, size, max_moves, order)


def sgfmill_superko(order: str = "drawn") -> Playout:
    """sgfmill's Board with a suicide check and situational superko (a Zobrist key)."""
    return lambda rng, size, max_moves: _sgfmill_superko(rng, size, max_moves, order)


def _candidates(
    order: str,
    rng: random.Random,
    grid: list[list[str | None]],
    points: list[tuple[int, int]],
    cycle: list[tuple[int, int]],
    at: list[int],
) -> Iterable[tuple[int, int]]:
    """sgfmill's candidate points for one move, in the playout's ``order``."""
    if order == "cyclic":
        return _round(cycle, at)
    empty = [(r, c) for r, c in points if grid[r][c] is None]
    return _shuffled(rng, empty) if order == "shuffled" else _drawn(rng, empty)


def _sgfmill_simple_ko(
    rng: random.Random, size: int, max_moves: int, order: str
) -> tuple[int, Final]:
    board = boards.Board(size)
    nbrs = _neighbours(size)
    points = [(r, c) for r in range(size) for c in range(size)]
    cycle = list(points)
    if order == "cyclic":
        rng.shuffle(cycle)
    at = [0]
    colour = "b"
    ko = None
    passed: set[tuple[tuple[tuple[str | None, ...], ...], str]] = set()
    passes = moves = 0
    while passes < 2 and moves < max_moves:
        grid = board.board
        played = False
        for pt in _candidates(order, rng, grid, points, cycle, at):
            r, c = pt
            nb = nbrs[r][c]
            if all(grid[rr][cc] == colour for rr, cc in nb):  # own one-point eye
                continue
            if grid[r][c] is not None:  # occupied (Go §2)
                continue
            if pt == ko:  # simple ko (Go §20.1)
                continue
            if any(grid[rr][cc] is None for rr, cc in nb):  # cannot be suicide
                ko = board.play(r, c, colour)
            else:
                trial = board.copy()
                trial_ko = trial.play(r, c, colour)
                if trial.board[r][c] is None:  # self-capture: suicide (Go §5)
                    continue
                board, ko = trial, trial_ko
            played = True
            break
        colour = "w" if colour == "b" else "b"
        if played:
            passes = 0
        else:  # duiyi's simple-ko pass rules (docs/decisions.md, "simple ko cycles")
            # the same player's pass led here before: play ends; a pass while barred from
            # retaking a ko does not count
            situation = (tuple(tuple(row) for row in grid), colour)
            passes = 2 if situation in passed else 0 if ko is not None else passes + 1
            passed.add(situation)
            ko = None
        moves += 1
    return moves, _final(board)


def _sgfmill_superko(
    rng: random.Random, size: int, max_moves: int, order: str
) -> tuple[int, Final]:
    board = boards.Board(size)
    nbrs = _neighbours(size)
    points = [(r, c) for r in range(size) for c in range(size)]
    cycle = list(points)
    if order == "cyclic":
        rng.shuffle(cycle)
    at = [0]
    zr = random.Random("zobrist")
    keys = {
        (colour, pt): zr.getrandbits(64) for colour in ("b", "w") for pt in points
    }  # fmt: skip
    side = zr.getrandbits(64)  # White to move
    colour = "b"
    h = 0
    seen = {h}
    passes = moves = 0
    while passes < 2 and moves < max_moves:
        grid = board.board
        other = "w" if colour == "b" else "b"
        played = False
        for pt in _candidates(order, rng, grid, points, cycle, at):
            r, c = pt
            nb = nbrs[r][c]
            if all(grid[rr][cc] == colour for rr, cc in nb):  # own one-point eye
                continue
            if grid[r][c] is not None:  # occupied (Go §2)
                continue
            key = h ^ keys[colour, pt] ^ side
            if any(grid[rr][cc] is None for rr, cc in nb) and not any(
                grid[rr][cc] == other for rr, cc in nb
            ):  # no capture, not suicide
                if key in seen:  # situational superko (Go §6)
                    continue
                board.play(r, c, colour)
            else:
                trial = board.copy()
                trial.play(r, c, colour)
                tgrid = trial.board
                if tgrid[r][c] is None:  # self-capture: suicide (Go §5)
                    continue
                gone: set[tuple[int, int]] = set()
                for q0 in nb:  # the captured stones' keys, read off the old board
                    if grid[q0[0]][q0[1]] == other and tgrid[q0[0]][q0[1]] is None:
                        todo = [q0]
                        while todo:
                            q = todo.pop()
                            if q not in gone and grid[q[0]][q[1]] == other:
                                gone.add(q)
                                key ^= keys[other, q]
                                todo.extend(nbrs[q[0]][q[1]])
                if key in seen:  # situational superko (Go §6)
                    continue
                board = trial
            seen.add(key)
            h = key
            played = True
            break
        colour = other
        if played:
            passes = 0
        else:
            passes += 1
            h ^= side
            seen.add(h)
        moves += 1
    return moves, _final(board)


def _final(board: boards.Board) -> Final:
    size = board.side
    return sorted(
        (r, c, board.board[r][c] == "b")
        for r in range(size)
        for c in range(size)
        if board.board[r][c] is not None
    )


def run(
    fn: Playout, games: int, size: int, caps: list[int]
) -> tuple[float, int, list[tuple[int, Final]]]:
    results = []
    t0 = time.process_time()
    for seed in range(games):
        results.append(fn(random.Random(seed), size, caps[seed]))
    dt = time.process_time() - t0
    return dt, sum(m for m, _ in results), results


def opening_calls(rules: Rules, orders: list[list[tuple[int, int]]]) -> tuple[float, int]:
    """duiyi: each point of each order in turn, ``is_legal`` then ``play``; (seconds, moves)."""
    points = [[Point(c, r) for r, c in order] for order in orders]
    moves = 0
    t0 = time.process_time()
    for order in points:
        g = Game(19, rules)
        for p in order:
            if g.is_legal(p):
                g.play(p)
                moves += 1
    return time.process_time() - t0, moves


def opening_calls_sgfmill(orders: list[list[tuple[int, int]]]) -> tuple[float, int]:
    """sgfmill: the same points; occupied and ko refused, a point with an empty neighbour
    played at once (the common case), the others tried on a copy (suicide refused)."""
    nbrs = _neighbours(19)
    moves = 0
    t0 = time.process_time()
    for order in orders:
        board = boards.Board(19)
        colour, ko = "b", None
        for pt in order:
            r, c = pt
            grid = board.board
            if grid[r][c] is not None or pt == ko:
                continue
            if any(grid[rr][cc] is None for rr, cc in nbrs[r][c]):
                ko = board.play(r, c, colour)
            else:
                trial = board.copy()
                trial_ko = trial.play(r, c, colour)
                if trial.board[r][c] is None:
                    continue
                board, ko = trial, trial_ko
            colour = "w" if colour == "b" else "b"
            moves += 1
    return time.process_time() - t0, moves


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--max-moves", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs, interleaved")
    ap.add_argument("--only", default="", help="run the settings whose name holds this text")
    args = ap.parse_args(argv)
    ok = True
    j, c = Rules.japanese(), Rules.chinese()
    settings: list[tuple[str, Playout, Playout]] = [
        ("simple ko (Rules.japanese)", duiyi_playout(j), sgfmill_simple_ko()),
        ("situational superko (Rules.chinese)", duiyi_playout(c), sgfmill_superko()),
        ("simple ko, library calls only", duiyi_playout(j, "cyclic"), sgfmill_simple_ko("cyclic")),
        ("superko, library calls only", duiyi_playout(c, "cyclic"), sgfmill_superko("cyclic")),
        (
            "simple ko, public reads (empty_points, shuffle)",
            duiyi_playout(j, "shuffled"),
            sgfmill_simple_ko("shuffled"),
        ),
        (
            "superko, public reads (empty_points, shuffle)",
            duiyi_playout(c, "shuffled"),
            sgfmill_superko("shuffled"),
        ),
    ]
    if args.only:
        settings = [st for st in settings if args.only in st[0]]
    print(f"{args.games} random playouts on {args.size}×{args.size}, best of {args.repeat}")
    for name, duiyi_fn, sgfmill_fn in settings:
        best_d = best_s = float("inf")
        for _ in range(args.repeat):
            caps = [args.max_moves] * args.games
            dt_d, moves_d, res_d = run(duiyi_fn, args.games, args.size, caps)
            # sgfmill knows no end by repetition (Go §20.3, simple ko): it stops where duiyi did
            caps = [m for m, _ in res_d]
            dt_s, moves_s, res_s = run(sgfmill_fn, args.games, args.size, caps)
            best_d, best_s = min(best_d, dt_d), min(best_s, dt_s)
            same = res_d == res_s
            ok = ok and same
        print(f"{name}: {moves_d} actions, identical games: {same}")
        print(f"  duiyi  : {args.games / best_d:8.2f} playouts/s {moves_d / best_d:9.0f} moves/s")
        print(f"  sgfmill: {args.games / best_s:8.2f} playouts/s {moves_s / best_s:9.0f} moves/s")
        print(f"  ratio  : duiyi speed / sgfmill speed = {best_s / best_d:.2f}×")
    if args.only and args.only not in "opening moves":
        return 0 if ok else 1
    # the cost of one legal move where most points still have an empty neighbour: the first
    # 150 points of a random order of the 361, each played when legal
    rng = random.Random(0)
    orders = []
    for _ in range(args.games * 5):
        order = [(r, c) for r in range(19) for c in range(19)]
        rng.shuffle(order)
        orders.append(order[:150])
    best: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, fn in (
            ("duiyi simple ko", lambda: opening_calls(Rules.japanese(), orders)),
            ("duiyi superko", lambda: opening_calls(Rules.chinese(), orders)),
            ("sgfmill", lambda: opening_calls_sgfmill(orders)),
        ):
            dt, moves = fn()
            best[name] = min(best.get(name, dt), dt)
            counts[name] = moves
    print(f"opening moves ({len(orders)} orders of 150 points, is_legal + play):")
    for name in best:
        print(f"  {name:<16}: {best[name] / counts[name] * 1e6:6.2f} µs per move")
    for name in ("duiyi simple ko", "duiyi superko"):
        ratio = (best["sgfmill"] / counts["sgfmill"]) / (best[name] / counts[name])
        print(f"  ratio  : {name} speed / sgfmill speed = {ratio:.2f}×")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
