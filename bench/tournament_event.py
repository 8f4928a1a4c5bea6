"""Benchmark: a whole Swiss event simulated through the director's operations.

Pairs every round with the appendix 五 pairer, enters rating-weighted results and ranks the field
by the Go Swiss chain (total score, warnings), for 64, 256 and 512 players.

Run: ``.venv/bin/python bench/tournament_event.py``
"""

from __future__ import annotations

import random
import time

from duiyi.tournament.event import add_players, event_standings, new_event, simulate
from duiyi.tournament.formats.eventfile import load_event, save_event
from duiyi.tournament.model import Player


def main() -> None:
    import tempfile
    from pathlib import Path

    print("players rounds  simulate  standings  save+load")
    for n, rounds in ((64, 7), (256, 9), (512, 9)):
        rng = random.Random(n)
        players = [Player(0, f"P{i}", rating=rng.randint(1000, 2700)) for i in range(n)]
        event = add_players(new_event("bench", "go", "swiss", rounds), players)
        t0 = time.perf_counter()
        event = simulate(event, rounds, random.Random(1))
        t1 = time.perf_counter()
        event_standings(event)
        t2 = time.perf_counter()
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "e.json"
            save_event(event, path)
            load_event(path)
        t3 = time.perf_counter()
        print(f"{n:>7} {rounds:>6} {t1 - t0:>8.2f}s {t2 - t1:>9.3f}s {t3 - t2:>9.3f}s")


if __name__ == "__main__":
    main()
