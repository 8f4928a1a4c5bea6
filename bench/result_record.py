"""Benchmark: the result record's cost at the desk (issue 10).

A round of a 10,000-player Go Swiss (5,000 boards) entered one board at a time, side by side:

- ``record_result`` (``duiyi.tournament.entries``): what the CLI and the server now call: the
  board keeps its source and an audit entry (who, when, the value before), conflicts and the
  confirmation after pairing are checked;
- ``enter_result`` (``duiyi.tournament.event``): the bare validated write underneath, without
  a record.

Both produce the same results (checked). Prints seconds per round and the ratio.

Usage: .venv/bin/python bench/result_record.py [--players 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time

from duiyi.tournament.entries import record_result
from duiyi.tournament.event import add_players, enter_result, new_event, pair_next_round
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, ResultSheet, Source


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    players = [Player(0, f"P{i}", rating=1000 + i) for i in range(args.players)]
    event = add_players(new_event("bench", "go", "swiss", 5), players)
    event, _ = pair_next_round(event, random.Random(1))
    rng = random.Random(2)
    sheet = [
        (g.board, rng.choice((GameResult.BLACK_WINS, GameResult.WHITE_WINS, GameResult.DRAW)))
        for g in event.round(1).games
    ]

    def bare() -> Event:
        e = event
        for board, result in sheet:
            e = enter_result(e, 1, board, result)
        return e

    def recorded() -> Event:
        e = event
        for board, result in sheet:
            entered = record_result(
                e, 1, board, ResultSheet(result), source=Source.DIRECTOR, by="desk", at=0.0
            )
            e = entered.event
        return e

    best: dict[str, float] = {}
    out: dict[str, Event] = {}
    for _ in range(args.repeat):
        for name, run in (("enter_result", bare), ("record_result", recorded)):
            started = time.perf_counter()
            out[name] = run()
            best[name] = min(best.get(name, float("inf")), time.perf_counter() - started)
    a, b = out["enter_result"].round(1).games, out["record_result"].round(1).games
    assert [g.result for g in a] == [g.result for g in b]
    assert all(len(g.trail) == 1 for g in b)
    print(f"{args.players} players, {len(sheet)} boards, best of {args.repeat}")
    print(f"  enter_result  (bare write)       {best['enter_result']:.3f} s")
    print(f"  record_result (record + audit)   {best['record_result']:.3f} s")
    print(f"  ratio record/bare                {best['record_result'] / best['enter_result']:.2f}")


if __name__ == "__main__":
    main()
