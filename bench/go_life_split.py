"""The dead-stone proposal on two halves of the counted KGS games (issue 13, item 5).

The 149 games of ``kgs-2017-01.tar.gz`` that ended by counting carry the dead stones both players
agreed (TB/TW markers). They are split in two fixed halves by their sorted file names (even and
odd positions): work on the proposal may look at the first half ("tuning") only; the second
("held out") reports how it does on games it was not tuned on. A game counts as matched when the
proposal equals the agreed set exactly.

Run: ``.venv/bin/python bench/go_life_split.py [--misses]``
"""

from __future__ import annotations

import argparse
import tarfile
import tempfile
from pathlib import Path

from duiyi.cli.go import find_archive
from duiyi.go import sgf
from duiyi.go.life import propose_dead


def counted_games(folder: Path) -> list[Path]:
    with tarfile.open(find_archive(Path(__file__).resolve().parents[1])) as tar:
        tar.extractall(folder, filter="data")
    out = []
    for path in sorted(folder.rglob("*.sgf")):
        data = path.read_bytes()
        if b"TB[" not in data and b"TW[" not in data:
            continue
        sg = sgf.read_game(data)
        if sg.result is not None and sg.result.reason == "score":
            out.append(path)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list the games not matched")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        games = counted_games(Path(tmp))
        halves = {"tuning": games[0::2], "held out": games[1::2]}
        for name, paths in halves.items():
            matched = 0
            misses = []
            for path in paths:
                sg = sgf.read_game(path.read_bytes())
                agreed = sg.dead_from_markers()
                proposed = propose_dead(sg.game.board, sg.game.rules)
                if proposed == agreed:
                    matched += 1
                else:
                    misses.append(
                        f"  {path.name}: proposed only {sorted(map(str, proposed - agreed))}, "
                        f"agreed only {sorted(map(str, agreed - proposed))}"
                    )
            print(f"{name:9}: {matched}/{len(paths)} games exactly as agreed "
                  f"({matched / len(paths):.1%})")  # fmt: skip
            if args.misses:
                print("\n".join(misses))


if __name__ == "__main__":
    main()
