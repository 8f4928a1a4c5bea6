"""Dead-stone proposal vs the dead stones agreed on KGS, duiyi beside GNU Go.

For every game of the KGS January 2017 archive that ended by counting, the dead stones of the
final TB/TW markers are compared with ``duiyi.go.life.propose_dead`` (all counted games) and with
GNU Go's ``final_status_list dead`` (the first ``--gnugo N`` counted games; GNU Go reads, so it is
much slower). Prints exact-match rates and time per position.

    .venv/bin/python bench/go_life.py [--gnugo 40] [--verbose]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

from duiyi.go import Point, sgf
from duiyi.go.life import propose_dead

GNUGO = "/usr/games/gnugo"

#: the 733 KGS games of the repository's test data (tests/data/go/README.md)
KGS_ARCHIVE = Path(__file__).resolve().parents[1] / "tests" / "data" / "go" / "kgs-2017-01.tar.gz"


def gnugo_dead(proc: subprocess.Popen[str], path: Path, size: int) -> frozenset[Point]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"loadsgf {path}\nfinal_status_list dead\n")
    proc.stdin.flush()
    answers: list[str] = []
    while len(answers) < 2:
        lines: list[str] = []
        while True:
            line = proc.stdout.readline()
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answers.append(" ".join(lines))
    text = answers[1].lstrip("=").strip()
    return frozenset(Point.parse(v, size) for v in text.split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnugo", type=int, default=40, help="games to give GNU Go (0: none)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(KGS_ARCHIVE) as tar:
            tar.extractall(tmp, filter="data")
        games = []
        for path in sorted(Path(tmp).rglob("*.sgf")):
            data = path.read_bytes()
            if b"TB[" not in data and b"TW[" not in data:
                continue
            sg = sgf.read_game(data)
            if sg.result is not None and sg.result.reason == "score":
                games.append((path, sg))
        ours_ok = 0
        ours_time = 0.0
        for path, sg in games:
            t0 = time.perf_counter()
            proposed = propose_dead(sg.game.board, sg.game.rules)
            ours_time += time.perf_counter() - t0
            ok = proposed == sg.dead_from_markers()
            ours_ok += ok
            if args.verbose and not ok:
                print(f"duiyi miss: {path.name}")
        n = len(games)
        print(f"counted games: {n}")
        print(
            f"duiyi.go.life : {ours_ok}/{n} exact ({ours_ok / n:.1%}), "
            f"{1000 * ours_time / n:.1f} ms/position"
        )
        limit = min(args.gnugo, n)
        if limit and shutil.which(GNUGO):
            proc = subprocess.Popen(
                [GNUGO, "--mode", "gtp"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            g_ok = d_ok = 0
            g_time = 0.0
            for path, sg in games[:limit]:
                t0 = time.perf_counter()
                theirs = gnugo_dead(proc, path, sg.game.size)
                g_time += time.perf_counter() - t0
                agreed = sg.dead_from_markers()
                g_ok += theirs == agreed
                d_ok += propose_dead(sg.game.board, sg.game.rules) == agreed
                if args.verbose and theirs != agreed:
                    print(f"GNU Go miss: {path.name}")
            proc.communicate("quit\n")
            print(
                f"same first {limit}: duiyi {d_ok}/{limit} ({d_ok / limit:.1%}), "
                f"GNU Go 3.8 {g_ok}/{limit} ({g_ok / limit:.1%}), "
                f"{1000 * g_time / limit:.0f} ms/position"
            )


if __name__ == "__main__":
    main()
