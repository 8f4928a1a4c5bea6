"""Benchmark: duiyi's referee overhead per move in a Go engine game, against a bare GTP loop.

The same game is played twice, side by side, by two GNU Go processes with a fixed seed (so
both runs play identical moves, checked by the script):

* **bare loop** (the peer: the least any controller can do): ``subprocess.Popen``, blocking
  write/``readline``; ``boardsize``/``clear_board``/``komi``, then ``genmove`` to one engine and
  ``play`` to the other until two passes or a resignation, then ``final_status_list dead`` to
  both and ``quit``. No rules checked, no clock.
* **duiyi**: :func:`duiyi.engines.match.play_game`: the same GTP traffic through the asyncio
  engine layer, plus every move checked by ``duiyi.go.Game`` (superko), the clock pressed and
  the count. The game is untimed: with a clock duiyi also sends ``time_left`` before each
  ``genmove`` (one more GTP round trip: protocol cost, not the referee's), and GNU Go given
  time plays other moves, so the two runs would no longer be the same game.

Overhead per move = (duiyi − bare) / moves, in wall time (process start-up inside both) and in
the controller's own CPU time (``getrusage`` of this process: what the referee itself costs,
which a loaded machine's scheduling noise does not blur).

Run: ``.venv/bin/python bench/go_match_referee.py [--games 3] [--size 9] [--level 0]
[--engine gnugo|random]``
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import time

from duiyi.clock import NoTime
from duiyi.engines.match import MatchSettings, play_game

GNUGO = "/usr/games/gnugo"


def gnugo(level: int, seed: int) -> list[str]:
    return [GNUGO, "--mode", "gtp", "--level", str(level), "--seed", str(seed), "--chinese-rules"]


def random_player(seed: int) -> list[str]:
    """duiyi's own GTP front end: random legal moves in about a millisecond (a fast engine, so
    that the controller's own cost per move shows)."""
    return [sys.executable, "-m", "duiyi", "gtp", "--seed", str(seed)]


class Bare:
    """A blocking GTP pipe."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, line: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            text = self.proc.stdout.readline()
            if not text.strip():
                if lines:
                    break
                continue
            lines.append(text.strip())
        return " ".join(lines)[1:].strip()

    def close(self) -> None:
        self.ask("quit")
        self.proc.wait()


def bare_game(black: list[str], white: list[str], size: int) -> list[str]:
    engines = {"b": Bare(black), "w": Bare(white)}
    for e in engines.values():
        e.ask(f"boardsize {size}")
        e.ask("clear_board")
        e.ask("komi 7.5")
    moves: list[str] = []
    color, other = "b", "w"
    passes = 0
    while passes < 2 and len(moves) < 3 * size * size:
        move = engines[color].ask(f"genmove {color}").upper()
        if move == "RESIGN":
            break
        moves.append(move)
        passes = passes + 1 if move == "PASS" else 0
        engines[other].ask(f"play {color} {move}")
        color, other = other, color
    for e in engines.values():
        e.ask("final_status_list dead")
        e.close()
    return moves


def duiyi_game(black: list[str], white: list[str], size: int) -> list[str]:
    settings = MatchSettings(size=size, time=NoTime())
    record = asyncio.run(play_game(black, white, settings, names=("b", "w")))
    game = record.final  # the record keeps the final Go game (EngineGameRecord.final)
    assert game is not None
    return ["PASS" if p is None else str(p) for _c, p in game.moves]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--level", type=int, default=0)
    parser.add_argument("--engine", choices=("gnugo", "random"), default="gnugo")
    args = parser.parse_args()
    rows: dict[str, list[float]] = {"bare": [], "duiyi": []}
    cpu: dict[str, float] = {"bare": 0.0, "duiyi": 0.0}
    total_moves = 0
    for seed in range(1, args.games + 1):
        if args.engine == "gnugo":
            black, white = gnugo(args.level, seed), gnugo(args.level, seed + 100)
        else:
            black, white = random_player(seed), random_player(seed + 100)
        runs = {}
        for name in rows:  # interleaved, so that the machine's load hits all alike
            began = time.perf_counter()
            usage = resource.getrusage(resource.RUSAGE_SELF)
            cpu_began = usage.ru_utime + usage.ru_stime
            if name == "bare":
                moves = bare_game(black, white, args.size)
            else:
                moves = duiyi_game(black, white, args.size)
            rows[name].append(time.perf_counter() - began)
            usage = resource.getrusage(resource.RUSAGE_SELF)
            cpu[name] += usage.ru_utime + usage.ru_stime - cpu_began
            runs[name] = moves
        assert runs["bare"] == runs["duiyi"], "the games differ"
        total_moves += len(runs["bare"])
    per_move = {k: sum(v) / total_moves * 1000 for k, v in rows.items()}
    who = f"GNU Go level {args.level}" if args.engine == "gnugo" else "duiyi gtp (random)"
    print(f"{args.games} games, {total_moves} moves, {who}, {args.size}x{args.size}")
    print(f"{'run':<8} {'total s':>8} {'ms/move':>8} {'vs bare':>8} {'CPU ms/move':>12}")
    for name, times in rows.items():
        ratio = per_move[name] / per_move["bare"]
        own = cpu[name] / total_moves * 1000
        print(f"{name:<8} {sum(times):8.2f} {per_move[name]:8.2f} {ratio:8.3f} {own:12.3f}")
    wall = per_move["duiyi"] - per_move["bare"]
    extra_cpu = (cpu["duiyi"] - cpu["bare"]) / total_moves * 1000
    print(
        f"overhead per move: wall {wall:+.2f} ms ({wall / per_move['bare'] * 100:+.1f} %), "
        f"controller CPU {extra_cpu:+.3f} ms ({extra_cpu / per_move['bare'] * 100:+.1f} % of a "
        f"bare move); median game bare {statistics.median(rows['bare']):.2f} s"
    )


if __name__ == "__main__":
    main()
