"""Swiss with progressive elimination (积分编排淘汰制, Go §26.4 and appendix 六).

From a configured round on (the book's example: 70+ players, after round 5), the 2–4 players
lowest in the standings leave after each round, so that about half the field plays the last
round; the field must stay even (§26.4: 始终要保持参赛人数为偶数的原则). Who leaves:

1. the lowest score;
2. on equal score, the lower opponents' score (对手分);
3. still equal: lots, drawn with the injected ``random.Random``.

>>> entries = [EliminationEntry(n, s, o) for n, s, o in
...            [(1, 6, 20), (2, 2, 18), (3, 2, 22), (4, 0, 15), (5, 4, 19), (6, 2, 18)]]
>>> eliminate(entries, 2, random.Random(1)).dropped
(4, 2)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from duiyi.errors import InvalidInput

from .common import check_players

__all__ = ["Elimination", "EliminationEntry", "eliminate", "elimination_plan"]

_ARTICLE = "Go appendix 六"
Score = Fraction | int


@dataclass(frozen=True)
class EliminationEntry:
    """A player still in: pairing ``number``, ``score`` and ``opponents_score`` (对手分)."""

    number: int
    score: Score
    opponents_score: Score = 0


@dataclass(frozen=True)
class Elimination:
    """Who leaves (lowest first) and why, one reason per player."""

    dropped: tuple[int, ...]
    reasons: tuple[str, ...]


def eliminate(
    entries: Sequence[EliminationEntry],
    count: int,
    rng: random.Random,
    *,
    keep_even: bool = True,
    allowed: tuple[int, int] = (2, 4),
) -> Elimination:
    """Drop ``count`` players (within ``allowed``, default 2–4), adjusted by one when needed
    so that an even number stays (unless ``keep_even`` is off).

    >>> e = eliminate([EliminationEntry(n, 0) for n in range(1, 8)], 2, random.Random(4))
    >>> len(e.dropped)  # 7 players: dropping 3 leaves 4
    3
    """
    check_players([e.number for e in entries], _ARTICLE)
    low, high = allowed
    if not low <= count <= high:
        raise InvalidInput(f"appendix 六 eliminates {low}–{high} per round, not {count}", _ARTICLE)
    if keep_even and (len(entries) - count) % 2:
        count = count + 1 if count + 1 <= high else count - 1
    if count >= len(entries):
        raise InvalidInput(
            f"cannot eliminate {count} of {len(entries)} players and keep a field", _ARTICLE
        )
    ordered = sorted(entries, key=lambda e: (e.score, e.opponents_score))
    cut = ordered[count - 1]
    key = (cut.score, cut.opponents_score)
    below = [e for e in ordered if (e.score, e.opponents_score) < key]
    tied = [e for e in ordered if (e.score, e.opponents_score) == key]
    reasons: list[str] = []
    for e in below:
        same_score = any(o.score == e.score and o not in below for o in ordered)
        why = "lower opponents' score" if same_score else "lowest score"
        reasons.append(f"{e.number}: score {e.score}, opponents' score {e.opponents_score} ({why})")
    dropped = [e.number for e in below]
    need = count - len(below)
    if need:
        pool = sorted(e.number for e in tied)
        if need < len(pool):
            drawn = rng.sample(pool, need)
            for n in drawn:
                reasons.append(
                    f"{n}: score {cut.score}, opponents' score {cut.opponents_score}, "
                    f"drawn by lot among {pool}"
                )
        else:
            drawn = pool
            for n in drawn:
                reasons.append(
                    f"{n}: score {cut.score}, opponents' score {cut.opponents_score} (lowest score)"
                )
        dropped.extend(drawn)
    return Elimination(tuple(dropped), tuple(reasons))


def elimination_plan(
    players: int, rounds: int, start_after: int = 5, allowed: tuple[int, int] = (2, 4)
) -> tuple[int, ...]:
    """How many leave after each round 1 … rounds-1: nothing before ``start_after``, then even
    counts within ``allowed`` spread so that the last round keeps about half the field.

    >>> elimination_plan(80, 9)
    (0, 0, 0, 0, 4, 4, 4, 4)
    >>> sum(elimination_plan(70, 12)) <= 35
    True
    """
    if rounds < 1 or start_after < 1:
        raise InvalidInput("rounds and start_after must be at least 1", _ARTICLE)
    low, high = allowed
    field = players - players % 2
    budget = field - (field // 2 + (field // 2) % 2)  # keep an even half (or a little more)
    plan = [0] * max(0, rounds - 1)
    steps = [r for r in range(start_after, rounds)]
    for i, r in enumerate(steps):
        left = len(steps) - i
        share = budget / left
        k = high if share >= high else (low if share >= low else 0)
        k -= k % 2
        if k > budget:
            k = budget - budget % 2
        plan[r - 1] = k
        budget -= k
    return tuple(plan)
