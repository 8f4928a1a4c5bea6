"""Benchmark: the Gomocup manager's overhead, against a bare blocking pipe loop.

1. Round trip of ``TURN x,y`` to a brain that answers at once (a few lines of Python that print
   ``0,0``), measured three ways in the same run: the peer, a plain ``subprocess.Popen`` loop
   (write, flush, ``readline``: the least any manager can do); duiyi's asyncio
   :class:`~duiyi.engines.gomocup.GomocupEngine`; and its blocking facade
   :class:`~duiyi.engines.sync.SimpleGomocupEngine` (a hop to the loop thread per call).
2. Refereed games between the test brains (greedy vs lattice, free opening, fresh processes
   every game): games and moves per second, process start-up included.

Run: ``.venv/bin/python bench/gomocup_match.py [--turns 2000] [--games 10]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

from duiyi.engines.gomocup import GomocupEngine
from duiyi.engines.gomocup_match import run_match
from duiyi.engines.sync import SimpleGomocupEngine
from duiyi.gomoku.match import TimeControl
from duiyi.gomoku.rules import RenjuRules

ECHO = (
    "import sys\n"
    "for line in sys.stdin:\n"
    "    w = line.split()\n"
    "    if not w: continue\n"
    "    if w[0] == 'START': print('OK', flush=True)\n"
    "    elif w[0] in ('TURN', 'BEGIN'): print('0,0', flush=True)\n"
    "    elif w[0] == 'END': break\n"
)
BRAINS = Path(__file__).resolve().parent.parent / "tests" / "gomoku" / "engines"


def raw_pipe(turns: int) -> list[float]:
    proc = subprocess.Popen(
        [sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("START 15\r\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "OK"
    times = []
    for _ in range(turns):
        began = time.perf_counter()
        proc.stdin.write("TURN 7,7\r\n")
        proc.stdin.flush()
        proc.stdout.readline()
        times.append(time.perf_counter() - began)
    proc.stdin.write("END\r\n")
    proc.stdin.flush()
    proc.wait()
    return times


async def async_engine(turns: int) -> list[float]:
    engine = await GomocupEngine.popen([sys.executable, "-c", ECHO])
    await engine.start(15)
    times = []
    for _ in range(turns):
        began = time.perf_counter()
        await engine.turn("h8", timeout=10)
        times.append(time.perf_counter() - began)
    await engine.end()
    return times


def simple_engine(turns: int) -> list[float]:
    times = []
    with SimpleGomocupEngine.popen([sys.executable, "-c", ECHO]) as engine:
        engine.start(15)
        for _ in range(turns):
            began = time.perf_counter()
            engine.turn("h8", timeout=10)
            times.append(time.perf_counter() - began)
    return times


def row(name: str, times: list[float]) -> str:
    us = sorted(t * 1e6 for t in times)
    p99 = us[int(len(us) * 0.99) - 1]
    return (
        f"| {name} | {statistics.median(us):.0f} | {statistics.mean(us):.0f} | {p99:.0f} "
        f"| {len(us) / sum(times):.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()

    print(f"TURN round trip, {args.turns} turns each, Python {sys.version.split()[0]}")
    print("| manager | median µs | mean µs | p99 µs | turns/s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(row("raw Popen + readline (peer)", raw_pipe(args.turns)))
    print(row("duiyi GomocupEngine (asyncio)", asyncio.run(async_engine(args.turns))))
    print(row("duiyi SimpleGomocupEngine (thread)", simple_engine(args.turns)))

    began = time.perf_counter()
    tally = run_match(
        [sys.executable, str(BRAINS / "greedy.py")],
        [sys.executable, str(BRAINS / "lattice.py")],
        games=args.games,
        rules=RenjuRules.free(),
        time_control=TimeControl(turn_ms=5000),
    )
    took = time.perf_counter() - began
    moves = sum(len(r.moves) for r in tally.records)
    print()
    print(
        f"refereed games: {tally.games} games, {moves} moves in {took:.2f} s: "
        f"{tally.games / took:.1f} games/s, {moves / took:.0f} moves/s "
        f"(2 fresh processes per game); {tally.summary().splitlines()[0]}"
    )


if __name__ == "__main__":
    main()
