"""Replay throughput of the KGS archive: duiyi vs sgfmill, side by side.

For each of the 733 games of ``tests/data/go/kgs-2017-01.tar.gz`` (read in memory, never
extracted):

* duiyi: ``sgf.read_game`` = parse the SGF, build the Game, play the main line with every move
  checked (occupied, suicide, ko, situational superko; Go §2–§6).
* sgfmill: ``Sgf_game.from_bytes`` + ``get_setup_and_moves`` + ``Board.play`` per move (captures
  only; sgfmill's board does not check suicide or repetition).

Usage: ``python bench/go_replay.py [--repeat N]``; prints games/s and moves/s and the ratio.
"""

from __future__ import annotations

import argparse
import platform
import tarfile
import time
from pathlib import Path

from duiyi.go import sgf

#: the 733 KGS games of the repository's test data (tests/data/go/README.md)
KGS_ARCHIVE = Path(__file__).resolve().parents[1] / "tests" / "data" / "go" / "kgs-2017-01.tar.gz"


def load_games() -> list[bytes]:
    archive = KGS_ARCHIVE
    with tarfile.open(archive, "r:gz") as tar:
        data = []
        for member in tar:
            f = tar.extractfile(member) if member.isfile() else None
            if f is not None and member.name.endswith(".sgf"):
                data.append(f.read())
    return data


def run_duiyi(games: list[bytes]) -> tuple[float, int]:
    start = time.perf_counter()
    moves = 0
    for data in games:
        moves += len(sgf.read_game(data).game.moves)
    return time.perf_counter() - start, moves


def run_sgfmill(games: list[bytes]) -> tuple[float, int]:
    from sgfmill import sgf as msgf
    from sgfmill import sgf_moves

    start = time.perf_counter()
    moves = 0
    for data in games:
        game = msgf.Sgf_game.from_bytes(data)
        board, plays = sgf_moves.get_setup_and_moves(game)
        for colour, move in plays:
            moves += 1
            if move is not None:
                board.play(move[0], move[1], colour)
    return time.perf_counter() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    args = parser.parse_args()
    games = load_games()
    best: dict[str, tuple[float, int]] = {}
    for _ in range(args.repeat):
        for name, fn in (("duiyi", run_duiyi), ("sgfmill", run_sgfmill)):
            t, m = fn(games)
            if name not in best or t < best[name][0]:
                best[name] = (t, m)
    print(
        f"KGS replay, {len(games)} games, best of {args.repeat}, Python {platform.python_version()}"
    )
    for name, (t, m) in best.items():
        print(
            f"{name:8} {t:6.2f} s  {len(games) / t:8.1f} games/s  {m / t:9.0f} moves/s  ({m} moves)"
        )
    ratio = best["duiyi"][0] / best["sgfmill"][0]
    print(f"duiyi/sgfmill time ratio: {ratio:.2f}")


if __name__ == "__main__":
    main()
