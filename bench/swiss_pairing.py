"""Benchmark: pair round 6 of simulated Swiss events (Go appendix 五).

Rounds 1-5 are paired by duiyi with seeded random results (the stronger player wins more
often); round 6 is then paired by duiyi (with and without explanations) and by a baseline: a
networkx maximum-weight matching over every allowed (no rematch) pair, weights favouring equal
scores. The baseline is O(n³); sizes where it would take more than ~60 s (extrapolated from the
sizes it finished) are skipped and said so.

Usage: .venv/bin/python bench/swiss_pairing.py [--sizes 200,1000,5000,10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

import networkx as nx

from duiyi.tournament.pairing.swiss import SwissPlayer, pair_swiss, record_round

BASELINE_LIMIT_S = 60.0


def simulate(n: int, rounds: int, seed: int) -> tuple[list[SwissPlayer], float]:
    rng = random.Random(seed)
    strength = {k: rng.gauss(0.0, 1.0) for k in range(1, n + 1)}
    field = [SwissPlayer(k) for k in range(1, n + 1)]
    spent = 0.0
    for number in range(1, rounds + 1):
        t0 = time.perf_counter()
        r = pair_swiss(field, number, explain=False)
        spent += time.perf_counter() - t0
        points: dict[int, int] = {}
        for g in r.pairings:
            p_black = 1.0 / (1.0 + 10 ** ((strength[g.white] - strength[g.black]) / 1.5))
            black_wins = rng.random() < p_black
            points[g.black], points[g.white] = (2, 0) if black_wins else (0, 2)
        field = record_round(field, r, points)
    return field, spent


def baseline(field: list[SwissPlayer]) -> tuple[list[tuple[int, int]], float]:
    """networkx max-weight matching; weight = big − (score difference)², max cardinality."""
    t0 = time.perf_counter()
    g = nx.Graph()
    top = max(int(p.score) for p in field) + 1
    big = 4 * top * top
    for i, a in enumerate(field):
        for b in field[i + 1 :]:
            if b.number not in a.opponents:
                d = int(a.score) - int(b.score)
                g.add_edge(a.number, b.number, weight=big - d * d)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    return [tuple(sorted(m)) for m in matching], time.perf_counter() - t0  # type: ignore[misc]


def quality(field: list[SwissPlayer], pairs: list[tuple[int, int]]) -> tuple[int, int]:
    """(pairs with unequal scores, sum of |score difference| in points)."""
    score = {p.number: int(p.score) for p in field}
    diffs = [abs(score[a] - score[b]) for a, b in pairs]
    return sum(1 for d in diffs if d), sum(diffs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,1000,5000,10000")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"{'players':>8} {'rounds1-5':>10} {'round6':>9} {'round6+explain':>15} "
        f"{'networkx':>10} {'ratio':>8}  quality duiyi / networkx (floats, Σ|Δscore|)"
    )
    fitted: tuple[int, float] | None = None  # (n, seconds) of the largest baseline that ran
    for n in sizes:
        field, sim = simulate(n, 5, args.seed)
        if len(field) % 2:
            field = field[:-1]
        t0 = time.perf_counter()
        r = pair_swiss(field, 6, explain=False)
        ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        pair_swiss(field, 6, explain=True)
        ours_explain = time.perf_counter() - t0
        mine = [(g.black, g.white) for g in r.pairings]
        q_ours = quality(field, mine)
        estimate = fitted[1] * (n / fitted[0]) ** 3 if fitted else 0.0
        if estimate > BASELINE_LIMIT_S:
            base_txt = f"skipped (≈{estimate:,.0f} s est.)"
            ratio_txt, q_txt = "-", f"{q_ours} / -"
        else:
            pairs, base = baseline(field)
            fitted = (n, base)
            assert len(pairs) == len(field) // 2
            base_txt = f"{base:.3f}s"
            ratio_txt = f"{base / ours:,.0f}x"
            q_txt = f"{q_ours} / {quality(field, pairs)}"
        print(
            f"{n:>8} {sim:>9.3f}s {ours:>8.3f}s {ours_explain:>14.3f}s "
            f"{base_txt:>10} {ratio_txt:>8}  {q_txt}"
        )


if __name__ == "__main__":
    main()
