"""Dead-stone proposal accuracy on two fixed halves of the counted KGS games, beside GNU Go.

The 149 games of the KGS January 2017 archive that ended by counting are split by the parity of
the first byte of SHA-256(file name): half A (even) is the tuning half, half B (odd) the check
half. For each half the script prints how many final positions ``duiyi.go.life.propose_dead``
(the default, reading alone; and with random playouts settling the mutual fights, ``--budget``
playout moves) and GNU Go's
``final_status_list dead`` mark exactly as the players did (TB/TW markers), how many of them,
counted with that marking by ``Game.score()``, give the recorded result (RE, exactly), and the
time per position (for duiyi also the median, 90th percentile and slowest).

``--salt TEXT`` splits by SHA-256(TEXT + file name) instead: a fresh split of the same 149
games, for a check that was not looked at while tuning (the games are the same, so it only
moves the misses between the halves; it is no new data).

    .venv/bin/python bench/life_accuracy.py [--no-gnugo] [--verbose] [--salt TEXT] [--budget N]
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

from duiyi.go import sgf
from duiyi.go.life import propose_dead
from duiyi.go.ownership import DEFAULT_BUDGET
from go_life import GNUGO, gnugo_dead

#: the 733 KGS games of the repository's test data (tests/data/go/README.md)
KGS_ARCHIVE = Path(__file__).resolve().parents[1] / "tests" / "data" / "go" / "kgs-2017-01.tar.gz"


def half(name: str, salt: str = "") -> str:
    """'A' (tuning) or 'B' (check), fixed by the file name alone (and the salt, if any)."""
    return "A" if hashlib.sha256((salt + name).encode()).digest()[0] % 2 == 0 else "B"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-gnugo", action="store_true", help="skip GNU Go (about 3 s/game)")
    parser.add_argument("--verbose", action="store_true", help="name the games missed")
    parser.add_argument("--salt", default="", help="split by SHA-256(salt + name) instead")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="playout moves")
    args = parser.parse_args()
    use_gnugo = not args.no_gnugo and shutil.which(GNUGO) is not None
    engines = ["duiyi + playouts", "duiyi (default)", "GNU Go 3.8"]
    # per engine and half: [exact marking, exact result, positions]
    score = {e: {"A": [0, 0, 0], "B": [0, 0, 0]} for e in engines}
    spent = dict.fromkeys(engines, 0.0)
    ours_each: list[tuple[float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(KGS_ARCHIVE) as tar:
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
            board = sg.game.board
            proposals = {}
            t0 = time.perf_counter()
            proposals["duiyi + playouts"] = propose_dead(board, sg.game.rules, budget=args.budget)
            t1 = time.perf_counter()
            proposals["duiyi (default)"] = propose_dead(board, sg.game.rules)
            t2 = time.perf_counter()
            spent["duiyi + playouts"] += t1 - t0
            spent["duiyi (default)"] += t2 - t1
            ours_each.append((t1 - t0, path.name))
            if proc is not None:
                proposals["GNU Go 3.8"] = gnugo_dead(proc, path, sg.game.size)
                spent["GNU Go 3.8"] += time.perf_counter() - t2
            for engine, dead in proposals.items():
                sg.game.set_dead(dead)
                right = sgf.SgfResult.parse(sg.game.score().sgf_result) == sg.result
                cell = score[engine][h]
                cell[0] += dead == agreed
                cell[1] += right
                cell[2] += 1
                if args.verbose and (dead != agreed or not right):
                    print(
                        f"{engine} miss ({h}): {path.name} marking {dead == agreed} result {right}"
                    )
        if proc is not None:
            proc.communicate("quit\n")
    names = ("half A (tuning)", "half B (check)") if not args.salt else ("half A", "half B")
    print(f"{'engine':<16}{names[0] + ' marks / result':>36}{names[1] + ' marks / result':>36}"
          f"{'ms/position':>13}")  # fmt: skip
    for engine in engines:
        if not score[engine]["A"][2]:
            continue
        cells = [
            f"{c[0]}/{c[2]} ({c[0] / c[2]:.1%}) / {c[1]}/{c[2]} ({c[1] / c[2]:.1%})"
            for c in (score[engine]["A"], score[engine]["B"])
        ]
        n = score[engine]["A"][2] + score[engine]["B"][2]
        print(f"{engine:<16}{cells[0]:>36}{cells[1]:>36}{1000 * spent[engine] / n:>13.0f}")
    ours_each.sort()
    times = [t for t, _name in ours_each]
    print(
        f"duiyi + playouts per position: median {1000 * statistics.median(times):.0f} ms, "
        f"90th percentile {1000 * times[int(0.9 * len(times))]:.0f} ms, "
        f"slowest {1000 * times[-1]:.0f} ms ({ours_each[-1][1]})"
    )


if __name__ == "__main__":
    main()
