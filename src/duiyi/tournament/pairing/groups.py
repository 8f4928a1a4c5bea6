"""Group round robins with serpentine seeding (分组循环制, Go appendix 四).

The number of seeds follows the places that qualify from each group (根据各组出线名额确定种子
选手人数: groups × qualifiers); the seeds, strongest first, are dealt over the groups in a
serpentine (蛇形): group 1, 2, …, g, then g, …, 1, and so on. The other players are dealt by lot
into the places left (with an injected ``random.Random``) or, without one, continue the
serpentine. Group sizes differ by at most one. Each group then plays a round robin
(appendix 三).

>>> serpentine_groups(list(range(1, 13)), 3, qualifiers=2)
((1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10))
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from duiyi.errors import InvalidInput

from .common import Round, check_players
from .round_robin import round_robin

__all__ = ["group_round_robins", "serpentine_groups"]

_ARTICLE = "Go appendix 四"


def _serpentine(count: int, groups: int) -> list[int]:
    """Group index for the 1st, 2nd, … dealt player."""
    out: list[int] = []
    row = 0
    while len(out) < count:
        order = range(groups) if row % 2 == 0 else range(groups - 1, -1, -1)
        out.extend(order)
        row += 1
    return out[:count]


def serpentine_groups(
    players: Sequence[int],
    groups: int,
    *,
    qualifiers: int = 1,
    seeds: int | None = None,
    rng: random.Random | None = None,
) -> tuple[tuple[int, ...], ...]:
    """Deal ``players`` (strongest first) into ``groups`` groups.

    ``seeds`` defaults to ``groups × qualifiers``.

    >>> g = serpentine_groups(list(range(1, 11)), 2, seeds=4, rng=random.Random(2))
    >>> [grp[:2] for grp in g], sorted(len(grp) for grp in g)
    ([(1, 4), (2, 3)], [5, 5])
    """
    check_players(list(players), _ARTICLE)
    if groups < 1 or groups > len(players):
        raise InvalidInput(f"cannot make {groups} groups of {len(players)} players", _ARTICLE)
    seeded = groups * qualifiers if seeds is None else seeds
    if not 0 <= seeded <= len(players):
        raise InvalidInput(f"{seeded} seeds for {len(players)} players", _ARTICLE)
    deal = _serpentine(len(players), groups)
    out: list[list[int]] = [[] for _ in range(groups)]
    for player, g in zip(players[:seeded], deal, strict=False):
        out[g].append(player)
    rest = list(players[seeded:])
    places = deal[seeded:]
    if rng is not None:
        rng.shuffle(rest)
        places = sorted(places)  # which groups still take how many players
        rng.shuffle(places)
    for player, g in zip(rest, places, strict=True):
        out[g].append(player)
    return tuple(tuple(g) for g in out)


def group_round_robins(
    groups: Sequence[Sequence[int]], cycles: int = 1
) -> tuple[tuple[Round, ...], ...]:
    """A round robin per group, its members taking drawn numbers in the order listed.

    >>> rr = group_round_robins([(10, 20, 30, 40), (50, 60, 70)])
    >>> rr[0][0].pairings[0].players, rr[1][0].byes
    ((10, 40), (50,))
    """
    return tuple(round_robin(len(g), cycles, ids=list(g)) for g in groups)
