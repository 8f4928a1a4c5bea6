"""Clock and session overhead: presses per second, and a live Go game through a Session
(clock + referee + log) against the bare Go game, then rebuilding it from its JSON log.

    .venv/bin/python bench/session_clock.py [--games 5] [--moves 200]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from duiyi import BLACK, WHITE
from duiyi.clock import ChineseByoyomi, Clock, Fischer, MovesPerPeriod
from duiyi.games import GO
from duiyi.go import Game
from duiyi.referee import Referee
from duiyi.session import Session


def random_game(seed: int, moves: int) -> list[str]:
    """A legal move list (points or 'pass') from random play on 19×19."""
    rng = random.Random(seed)
    g = Game(19)
    out: list[str] = []
    points = [f"{c}{r}" for c in "ABCDEFGHJKLMNOPQRST" for r in range(1, 20)]
    while len(out) < moves:
        rng.shuffle(points)
        for p in points:
            if g.is_legal(p):
                g.play(p)
                out.append(p)
                break
        else:
            break
    return out


def bench_presses(n: int) -> float:
    best = 0.0
    for system in (
        ChineseByoyomi(base=3600, reserved_minutes=5),
        Fischer(600, 5),
        MovesPerPeriod(base=3600, moves=25, period=600),
    ):
        c = Clock(system, now=0.0)
        t0 = time.perf_counter()
        now = 0.0
        for i in range(n):
            now += 3.0
            c.press(BLACK if i % 2 == 0 else WHITE, now)
            c.remaining(BLACK, now)
        rate = n / (time.perf_counter() - t0)
        print(f"  {system.name:18s} {rate:10,.0f} presses/s (press + remaining)")
        best = max(best, rate)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--moves", type=int, default=200)
    args = ap.parse_args()
    print("clock presses:")
    bench_presses(20_000)
    games = [random_game(seed, args.moves) for seed in range(args.games)]
    total = sum(len(g) for g in games)

    t0 = time.perf_counter()
    for moves in games:
        g = Game(19)
        for p in moves:
            g.play(p)
    bare = time.perf_counter() - t0

    logs = []
    t0 = time.perf_counter()
    for moves in games:
        s = Session(
            Game(19), Clock(ChineseByoyomi(base=3600, reserved_minutes=5), now=0.0), Referee(GO)
        )
        now = 0.0
        for i, p in enumerate(moves):
            now += 5.0
            s.move(BLACK if i % 2 == 0 else WHITE, p, now)
            s.tick(now)
        logs.append(json.dumps(s.to_json()))
    live = time.perf_counter() - t0

    t0 = time.perf_counter()
    for text in logs:
        Session.from_log(json.loads(text))
    replay = time.perf_counter() - t0

    print(f"{args.games} games, {total} moves on 19×19 (Chinese byo-yomi clock, tick each move)")
    print(f"  bare Go game      {total / bare:10,.0f} moves/s")
    print(f"  live session      {total / live:10,.0f} moves/s ({live / bare:.2f}× the bare game)")
    print(
        f"  from_log replay   {total / replay:10,.0f} moves/s ({replay / bare:.2f}× the bare game)"
    )


if __name__ == "__main__":
    main()
