"""Random legal playouts on 19×19 with full situational superko: duiyi vs sgfmill.

Both sides run the same playout loop with the same random seeds: pick a random empty point that is
not the mover's own one-point eye, play it if legal (occupied, suicide and situational superko
checked), else try another; pass when nothing is left; stop after two passes or 1000 moves.
sgfmill's ``Board.play`` checks neither suicide nor ko, so its side copies the board, plays,
refuses a self-capture and looks the new position (with the side to move) up in a set of earlier
positions. With the same seeds both sides play the same games, which the script checks.

Run: ``.venv/bin/python bench/go_playouts.py [--games N] [--size 19]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from sgfmill import boards

from duiyi.go import BLACK, WHITE, Game, Phase, Point

MAX_MOVES = 1000


def duiyi_playout(rng: random.Random, size: int) -> tuple[int, list[tuple[int, int, bool]]]:
    """One playout with duiyi; returns (moves, final black points as (row, col))."""
    g = Game(size)
    geo = g.board.geometry
    nbrs = geo.neighbours
    index = geo.point_bit
    moves = 0
    while g.phase is Phase.PLAYING and moves < MAX_MOVES:
        b = g.board
        own = b.black_bits if g.to_move.value == "black" else b.white_bits
        cands: list[Point] = list(geo.points_of(geo.on_board & ~(b.black_bits | b.white_bits)))
        played = False
        while cands:
            k = rng.randrange(len(cands))
            p = cands[k]
            cands[k] = cands[-1]
            cands.pop()
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
    b = g.board
    final = sorted(
        [(p.row, p.col, True) for p in b.stones(BLACK)]
        + [(p.row, p.col, False) for p in b.stones(WHITE)]
    )
    return moves, final


def sgfmill_playout(rng: random.Random, size: int) -> tuple[int, list[tuple[int, int, bool]]]:
    """The same playout on sgfmill's Board with suicide and situational superko added."""
    board = boards.Board(size)
    colour = "b"
    seen = {(tuple(tuple(r) for r in board.board), colour)}
    passes = 0
    moves = 0
    while passes < 2 and moves < MAX_MOVES:
        cands = [(r, c) for r in range(size) for c in range(size) if board.board[r][c] is None]
        played = False
        while cands:
            k = rng.randrange(len(cands))
            r, c = cands[k]
            cands[k] = cands[-1]
            cands.pop()
            nb = [
                board.board[rr][cc]
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < size and 0 <= cc < size
            ]
            if all(x == colour for x in nb):
                continue
            trial = board.copy()
            trial.play(r, c, colour)
            if trial.board[r][c] is None:  # self-capture: suicide (Go §5)
                continue
            other = "w" if colour == "b" else "b"
            key = (tuple(tuple(row) for row in trial.board), other)
            if key in seen:  # situational superko (Go §6)
                continue
            seen.add(key)
            board = trial
            played = True
            break
        colour = "w" if colour == "b" else "b"
        if played:
            passes = 0
        else:
            passes += 1
            seen.add((tuple(tuple(row) for row in board.board), colour))
        moves += 1
    final = sorted(
        (r, c, board.board[r][c] == "b")
        for r in range(size)
        for c in range(size)
        if board.board[r][c] is not None
    )
    return moves, final


def run(
    fn: Callable[[random.Random, int], tuple[int, list[tuple[int, int, bool]]]],
    games: int,
    size: int,
) -> tuple[float, int, list[tuple[int, list[tuple[int, int, bool]]]]]:
    results = []
    t0 = time.perf_counter()
    for seed in range(games):
        results.append(fn(random.Random(seed), size))
    dt = time.perf_counter() - t0
    return dt, sum(m for m, _ in results), results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--size", type=int, default=19)
    args = ap.parse_args(argv)
    dt_d, moves_d, res_d = run(duiyi_playout, args.games, args.size)
    dt_s, moves_s, res_s = run(sgfmill_playout, args.games, args.size)
    same = res_d == res_s
    print(
        f"{args.games} random playouts on {args.size}×{args.size}, situational superko, "
        f"{moves_d} actions"
    )
    print(
        f"duiyi  : {args.games / dt_d:8.2f} playouts/s  {moves_d / dt_d:9.0f} moves/s  ({dt_d:.2f} s)"
    )
    print(
        f"sgfmill: {args.games / dt_s:8.2f} playouts/s  {moves_s / dt_s:9.0f} moves/s  ({dt_s:.2f} s)"
    )
    print(f"ratio  : duiyi is {dt_s / dt_d:.1f}× faster; identical games: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
