"""Listing every legal move each turn: duiyi's ``Game.legal_moves()`` vs OpenSpiel's Go (C++).

Each side plays random games on 19×19: every turn it lists *all* legal moves of the side to move
(duiyi: ``list(game.legal_moves())``, points checked for occupation, suicide Go §5 and situational
superko Go §6; OpenSpiel: ``state.legal_actions()``), then plays a random one of them (never a
pass unless nothing else is legal). Games stop after ``--turns`` turns. Both sides do the same
number of listings on boards that fill alike; the games themselves differ (different random
choices), so the figure compared is listings per second. OpenSpiel is optional
(``pip install open_spiel``); without it only duiyi's figure is printed.

Run: ``.venv/bin/python bench/go_legal_moves.py [--games 20] [--turns 300]``
"""

from __future__ import annotations

import argparse
import random
import time

from duiyi.go import Game, Phase


def duiyi_games(games: int, turns: int, size: int) -> tuple[int, int, float]:
    listings = total = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        g = Game(size)
        for _ in range(turns):
            if g.phase is not Phase.PLAYING:
                break
            moves = list(g.legal_moves())
            listings += 1
            total += len(moves)
            if moves:
                g.play(moves[rng.randrange(len(moves))])
            else:
                g.pass_move()
    return listings, total, time.perf_counter() - start


def openspiel_games(games: int, turns: int, size: int) -> tuple[int, int, float] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
    pass_action = size * size
    listings = total = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(turns):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            listings += 1
            stones = [a for a in actions if a != pass_action]
            total += len(stones)
            state.apply_action(stones[rng.randrange(len(stones))] if stones else pass_action)
    return listings, total, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs, interleaved")
    args = parser.parse_args()
    runs_d, runs_o = [], []
    for _ in range(args.repeat):
        runs_d.append(duiyi_games(args.games, args.turns, args.size))
        o = openspiel_games(args.games, args.turns, args.size)
        if o is not None:
            runs_o.append(o)
    d = min(runs_d, key=lambda r: r[2])
    print(f"duiyi:     {d[0]} listings ({d[1]} moves), best {d[2]:.3f} s: "
          f"{d[2] / d[0] * 1e6:.1f} µs per listing")  # fmt: skip
    if not runs_o:
        print("OpenSpiel: not installed (pip install open_spiel)")
        return
    o = min(runs_o, key=lambda r: r[2])
    print(f"OpenSpiel: {o[0]} listings ({o[1]} moves), best {o[2]:.3f} s: "
          f"{o[2] / o[0] * 1e6:.1f} µs per listing")  # fmt: skip
    same = "same listing totals" if (o[0], o[1]) == (d[0], d[1]) else "different games"
    print(f"duiyi time / OpenSpiel time = {d[2] / o[2]:.1f}× ({same}; target ≤ 10×)")


if __name__ == "__main__":
    main()
