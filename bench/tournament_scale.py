"""Benchmark: a 10,000-player event at the director's desk, next to plain Python.

Two measurements (issue 10):

1. **A round at the desk**: a McMahon event (ranks 20k–7d, bar 3d, floor 15k) of N players;
   each round, every result is entered one board at a time through
   ``duiyi.tournament.entries.record_result`` from the director (the path of ``duiyi event
   result`` and of the server's result route, with its audit entry), then the next round is
   paired with ``pair_next_round``. Printed per round: entering, pairing, their sum (CPU), and
   the sum in wall time.
2. **Standings**: ``event_standings`` of the finished event with the full default chain
   (McMahon: MMS, SOS, SOSOS, warnings; Go Swiss: total score, warnings), next to a
   plain-Python computation of the same standings written here, independent of duiyi: dicts
   of integers (half points) filled from the event's games, opponents' sums, one sort. Both
   orders are checked equal. The ratio (duiyi / plain) is printed for 1k, 5k and 10k players,
   with the time per player to show how it grows, and the time of the whole standings
   document the desk and ``duiyi event standings --format json`` show (crosstable included;
   no peer).

Times are CPU time of this process (``time.process_time``): the machine is shared, and wall
time under a load of 8-10 on two cores measures the neighbours more than the code.

Usage: .venv/bin/python bench/tournament_scale.py [--sizes 1000,5000,10000] [--rounds 5]
       [--desk 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from duiyi.tournament.entries import record_result
from duiyi.tournament.event import add_players, event_standings, new_event, pair_next_round
from duiyi.tournament.formats.wallchart import standings_json
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, ResultSheet, Source

RANKS = [f"{k}k" for k in range(20, 0, -1)] + [f"{d}d" for d in range(1, 8)]


def field(n: int, seed: int) -> list[Player]:
    rng = random.Random(seed)
    return [Player(0, f"P{i}", rng.choice(RANKS), rng.randint(1000, 2700)) for i in range(1, n + 1)]


def play_round(event: Event, rng: random.Random) -> Event:
    """Enter a result on every board of the last round, one call per board."""
    rnd = event.history[-1]
    for g in rnd.games:
        if g.result is not None:
            continue
        roll = rng.random()
        if roll < 0.02:
            result, bw, ww = GameResult.BLACK_WINS, 0, 1
        elif roll < 0.5:
            result, bw, ww = GameResult.BLACK_WINS, 0, 0
        else:
            result, bw, ww = GameResult.WHITE_WINS, 0, 0
        sheet = ResultSheet(result, bw, ww)
        event = record_result(
            event, rnd.number, g.board, sheet, source=Source.DIRECTOR, by="bench", at=0.0
        ).event
    return event


def build(system: str, n: int, rounds: int, seed: int, desk: bool = False) -> Event:
    opts = {"bar": "3d", "floor": "15k"} if system == "mcmahon" else {}
    event = add_players(new_event("bench", "go", system, rounds, opts), field(n, seed))
    rng = random.Random(seed)
    event, _ = pair_next_round(event, rng)
    if desk:
        print(f"\n{system}, {n} players: entering a round's results, then pairing the next")
        print("round  boards  enter results  pair next  total (CPU)  total (wall)")
    for number in range(1, rounds + 1):
        w0 = time.perf_counter()
        t0 = time.process_time()
        event = play_round(event, rng)
        t1 = time.process_time()
        if number < rounds:
            event, _ = pair_next_round(event, rng)
        t2 = time.process_time()
        w2 = time.perf_counter()
        if desk:
            boards = len(event.history[number - 1].games)
            pair = f"{t2 - t1:>8.3f}s" if number < rounds else "       –"
            print(
                f"{number:>5} {boards:>7} {t1 - t0:>13.3f}s {pair} {t2 - t0:>11.3f}s"
                f" {w2 - w0:>12.3f}s",
                flush=True,
            )
    return event


# --- the plain-Python standings -------------------------------------------------------------


def _initial(rank: str, bar: int, floor: int) -> int:
    """McMahon initial score: rank value clamped to [floor, bar], counted from the floor."""
    n, kind = int(rank[:-1]), rank[-1]
    value = n if kind == "d" else 1 - n  # 1k = 0, 1d = 1
    return min(max(value, floor), bar) - floor


def plain_standings(event_json: dict[str, Any]) -> list[int]:
    """The standings order from the event file's JSON, in plain Python (half points)."""
    system = event_json["system"]
    players = [p["number"] for p in event_json["players"]]
    rounds = [r for r in event_json["history"] if all("result" in g for g in r["games"])]
    pts = dict.fromkeys(players, 0)  # Go points: win 2, draw 1
    warn = dict.fromkeys(players, 0)
    opps: dict[int, list[int]] = {p: [] for p in players}
    for r in rounds:
        for g in r["games"]:
            b, w, res = g["black"], g["white"], g["result"]
            if res == "1-0":
                pts[b] += 2
            elif res == "0-1":
                pts[w] += 2
            else:
                pts[b] += 1
                pts[w] += 1
            opps[b].append(w)
            opps[w].append(b)
            ws = g.get("warnings")
            if ws:
                warn[b] += ws["black"]
                warn[w] += ws["white"]
        for p in r["byes"]:
            pts[p] += 2
    if system == "mcmahon":
        # MMS in half points: 2 × initial + points (a win is 2 half points)
        bar = int(event_json["options"]["bar"][:-1])
        floor = 1 - int(event_json["options"]["floor"][:-1])
        mms = {
            p["number"]: 2 * _initial(p["rank"], bar, floor) + pts[p["number"]]
            for p in event_json["players"]
        }
        sos = {p: sum(mms[o] for o in opps[p]) for p in players}
        sosos = {p: sum(sos[o] for o in opps[p]) for p in players}
        keys = {p: (-mms[p], -sos[p], -sosos[p], warn[p], p) for p in players}
    else:
        # total score × rounds: points·R + buchholz − R², with Go's ½ × highest = R
        n = len(rounds)
        keys = {
            p: (-(pts[p] * n + sum(pts[o] for o in opps[p]) - n * n), warn[p], p) for p in players
        }
    return sorted(players, key=keys.__getitem__)


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,5000,10000")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--desk", type=int, default=10000, help="players for the desk part (0: skip)")
    ap.add_argument("--systems", default="mcmahon,swiss")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    systems = args.systems.split(",")
    built: dict[tuple[str, int], Event] = {}
    if args.desk:
        built[("mcmahon", args.desk)] = build("mcmahon", args.desk, args.rounds, args.seed, True)
    print(f"\nstandings after {args.rounds} rounds, best of {args.repeat}")
    print("system    players  duiyi      plain    ratio  duiyi µs/player  standings JSON")
    for system in systems:
        for n in (int(s) for s in args.sizes.split(",")):
            event = built.get((system, n)) or build(system, n, args.rounds, args.seed)
            data = event.to_json()
            t_duiyi, rows = timed(lambda e=event: event_standings(e), args.repeat)
            t_plain, order = timed(lambda d=data: plain_standings(d), args.repeat)
            assert [r.number for r in rows] == order, "duiyi and plain Python disagree"
            assert all(isinstance(v, Fraction) for v in rows[0].values)
            t_doc, _ = timed(lambda e=event: standings_json(e), 1)
            print(
                f"{system:<9} {n:>7} {t_duiyi:>7.3f}s {t_plain:>7.3f}s {t_duiyi / t_plain:>6.2f}×"
                f" {1e6 * t_duiyi / n:>10.1f} {t_doc:>14.3f}s",
                flush=True,
            )


if __name__ == "__main__":
    main()
