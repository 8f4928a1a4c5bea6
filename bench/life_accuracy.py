"""Dead-stone proposal accuracy on two fixed halves of the counted KGS games, beside GNU Go.

The 149 games of the KGS January 2017 archive that ended by counting are split by the parity of
the first byte of SHA-256(file name): half A (even) is the tuning half, half B (odd) the check
half. For each half the script prints how many final positions ``duiyi.go.life.propose_dead``
and GNU Go's ``final_status_list dead`` mark exactly as the players did (TB/TW markers), and the
time per position (for duiyi also the median, 90th percentile and slowest).

``--salt TEXT`` splits by SHA-256(TEXT + file name) instead: a fresh split of the same 149
games, for a check that was not looked at while tuning (the games are the same, so it only
moves the misses between the halves; it is no new data).

    .venv/bin/python bench/life_accuracy.py [--no-gnugo] [--verbose] [--salt TEXT]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

from duiyi.cli.go import find_archive
from duiyi.go import sgf
from duiyi.go.life import propose_dead
from go_life import GNUGO, gnugo_dead


def half(name: str, salt: str = "") -> str:
    """'A' (tuning) or 'B' (check), fixed by the file name alone (and the salt, if any)."""
    return "A" if hashlib.sha256((salt + name).encode()).digest()[0] % 2 == 0 else "B"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-gnugo", action="store_true", help="skip GNU Go (about 3 s/game)")
    parser.add_argument("--verbose", action="store_true", help="name the games missed")
    parser.add_argument("--salt", default="", help="split by SHA-256(salt + name) instead")
    args = parser.parse_args()
    use_gnugo = not args.no_gnugo and shutil.which(GNUGO) is not None
    ours: dict[str, list[int]] = {"A": [0, 0], "B": [0, 0]}
    theirs: dict[str, list[int]] = {"A": [0, 0], "B": [0, 0]}
    ours_time = their_time = 0.0
    ours_each: list[tuple[float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(find_archive()) as tar:
            tar.extractall(tmp, filter="data")
        proc = None
        if use_gnugo:
            proc = subprocess.Popen(
                [GNUGO, "--mode", "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
        for path in sorted(Path(tmp).rglob("*.sgf")):
            data = path.read_bytes()
            if b"TB[" not in data and b"TW[" not in data:
                continue
            sg = sgf.read_game(data)
            if sg.result is None or sg.result.reason != "score":
                continue
            h = half(path.name, args.salt)
            agreed = sg.dead_from_markers()
            t0 = time.perf_counter()
            proposed = propose_dead(sg.game.board, sg.game.rules)
            spent = time.perf_counter() - t0
            ours_time += spent
            ours_each.append((spent, path.name))
            ours[h][1] += 1
            ours[h][0] += proposed == agreed
            if args.verbose and proposed != agreed:
                print(f"duiyi miss ({h}): {path.name}")
            if proc is not None:
                t0 = time.perf_counter()
                gnu = gnugo_dead(proc, path, sg.game.size)
                their_time += time.perf_counter() - t0
                theirs[h][1] += 1
                theirs[h][0] += gnu == agreed
                if args.verbose and gnu != agreed:
                    print(f"GNU Go miss ({h}): {path.name}")
        if proc is not None:
            proc.communicate("quit\n")
    n = ours["A"][1] + ours["B"][1]
    names = ("half A (tuning)", "half B (check)") if not args.salt else ("half A", "half B")
    print(f"{'engine':<16}{names[0]:>20}{names[1]:>20}{'ms/position':>14}")
    rows = [("duiyi.go.life", ours, ours_time)]
    if use_gnugo:
        rows.append(("GNU Go 3.8", theirs, their_time))
    for name, score, spent in rows:
        cells = [f"{score[h][0]}/{score[h][1]} ({score[h][0] / score[h][1]:.1%})" for h in "AB"]
        print(f"{name:<16}{cells[0]:>20}{cells[1]:>20}{1000 * spent / n:>14.0f}")
    ours_each.sort()
    times = [t for t, _name in ours_each]
    print(
        f"duiyi per position: median {1000 * statistics.median(times):.0f} ms, "
        f"90th percentile {1000 * times[int(0.9 * len(times))]:.0f} ms, "
        f"slowest {1000 * times[-1]:.0f} ms ({ours_each[-1][1]})"
    )


if __name__ == "__main__":
    main()
