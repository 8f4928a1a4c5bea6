"""Double elimination (双败淘汰制, Go §26.1 and appendix 二).

A player is out after two losses. The winners bracket is drawn exactly like a single
elimination (seeds and byes as appendix 一; 16 players: two sections of eight, line 1 and line 8
of each section seeded, line 2 the bye when two are needed, 附表二). Every winners-bracket loser
drops into a fixed line of the losers bracket (框中的代码为败者在败者组的定位号), recorded on
each match as ``loser_to``:

- ``L1``: the round-1 losers meet in pairs, in bracket order;
- ``L2j`` (j ≥ 1): the survivors of ``L(2j-1)`` meet the losers of winners round ``j+1``, who
  drop in reversed order for even ``j+1`` and with halves swapped for odd ``j+1``, so players who
  met in the winners bracket do not meet again at once;
- ``L(2j+1)``: the survivors meet among themselves;
- the grand final (``GF``) sets the winners-bracket champion against the losers-bracket
  champion; if the latter wins, a deciding ``GF2`` is played (only then has the champion of the
  winners bracket lost twice).

The appendix says the system suits at most 32 players (二.3); larger fields are refused unless
``max_players`` is raised.

>>> b = double_elimination(4)
>>> [(m.id, str(m.top), str(m.bottom), m.loser_to) for m in b.matches if m.part == "winners"]
[('W1.1', '1', '2', 'L1.1 top'), ('W1.2', '3', '4', 'L1.1 bottom'), ('W2.1', 'W(W1.1)', 'W(W1.2)', 'L2.1 bottom')]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from duiyi.errors import InvalidInput

from .knockout import Bracket, Match, Slot, bracket_lines

__all__ = ["double_elimination", "drop_order"]

_ARTICLE = "Go appendix 二"


def drop_order(winners_round: int, count: int) -> list[int]:
    """Which losers-bracket match (1-based) the loser of winners match 1 … ``count`` of
    ``winners_round`` (≥ 2) drops into.

    >>> drop_order(2, 4), drop_order(3, 4), drop_order(3, 2)
    ([4, 3, 2, 1], [3, 4, 1, 2], [2, 1])
    """
    if count == 1:
        return [1]
    if winners_round % 2 == 0:
        return list(range(count, 0, -1))
    half = count // 2
    return [(m - 1 + half) % count + 1 for m in range(1, count + 1)]


def double_elimination(
    players: int,
    seeds: Sequence[int] = (),
    *,
    class1: int | None = None,
    sections: int | None = None,
    placement: str = "serpentine",
    rng: random.Random | None = None,
    max_players: int = 32,
) -> Bracket:
    """The double-elimination bracket for ``players`` (numbered 1 … players).

    >>> b = double_elimination(16, [1, 2, 3, 4])
    >>> b.sections, len([m for m in b.matches if m.part == "winners"])
    (2, 15)
    >>> [m.id for m in b.matches if m.part == "final"]
    ['GF', 'GF2']
    """
    if players > max_players:
        raise InvalidInput(
            f"double elimination suits at most {max_players} players, got {players}", _ARTICLE
        )
    if players < 3:
        raise InvalidInput(f"double elimination needs at least 3 players, got {players}", _ARTICLE)
    lines, count = bracket_lines(
        players,
        seeds,
        class1=class1,
        sections=sections,
        placement=placement,
        rng=rng,
        article=_ARTICLE,
    )
    size = len(lines)
    rounds = size.bit_length() - 1
    winners: list[list[Match]] = []
    current = [Slot.of(p) for p in lines]
    for r in range(1, rounds + 1):
        row = [
            Match(f"W{r}.{m}", f"W{r}", r, current[2 * m - 2], current[2 * m - 1], "winners")
            for m in range(1, len(current) // 2 + 1)
        ]
        winners.append(row)
        current = [Slot.winner(m.id) for m in row]

    losers: list[list[Match]] = []
    # L1: round-1 losers in pairs
    first = winners[0]
    row = [
        Match(
            f"L1.{m}",
            "L1",
            1,
            Slot.loser(first[2 * m - 2].id),
            Slot.loser(first[2 * m - 1].id),
            "losers",
        )
        for m in range(1, len(first) // 2 + 1)
    ]
    drops: dict[str, str] = {}
    for m in range(1, len(first) // 2 + 1):
        drops[first[2 * m - 2].id] = f"L1.{m} top"
        drops[first[2 * m - 1].id] = f"L1.{m} bottom"
    if not row:  # a 2-line bracket cannot happen (players ≥ 3)
        raise InvalidInput("double elimination needs at least 3 players", _ARTICLE)
    losers.append(row)
    made: list[list[list[Match]]] = [[row]]  # losers rounds made after each winners round
    number = 1
    for j in range(1, rounds):
        made.append([])
        # L(2j): survivors v losers dropping from winners round j+1
        number += 1
        source = winners[j]
        targets = drop_order(j + 1, len(source))
        survivors = losers[-1]
        by_target = {t: source[i] for i, t in enumerate(targets)}
        row = []
        for m in range(1, len(survivors) + 1):
            dropped = by_target[m]
            drops[dropped.id] = f"L{number}.{m} bottom"
            row.append(
                Match(
                    f"L{number}.{m}",
                    f"L{number}",
                    number,
                    Slot.winner(survivors[m - 1].id),
                    Slot.loser(dropped.id),
                    "losers",
                )
            )
        losers.append(row)
        made[j].append(row)
        if len(row) > 1:
            number += 1
            previous = row
            row = [
                Match(
                    f"L{number}.{m}",
                    f"L{number}",
                    number,
                    Slot.winner(previous[2 * m - 2].id),
                    Slot.winner(previous[2 * m - 1].id),
                    "losers",
                )
                for m in range(1, len(previous) // 2 + 1)
            ]
            losers.append(row)
            made[j].append(row)
    champion_w = winners[-1][0].id
    champion_l = losers[-1][0].id
    final = Match("GF", "GF", 1, Slot.winner(champion_w), Slot.winner(champion_l), "final")
    reset = Match(
        "GF2",
        "GF2",
        2,
        Slot.winner(champion_w),
        Slot.winner(champion_l),
        "final",
        reset_of="GF",
        note="only if the losers-bracket champion wins GF",
    )
    # Interleave for playing order: W1, L1, W2, L2, L3, W3, ...
    ordered: list[Match] = []
    for j in range(rounds):
        ordered.extend(replace(m, loser_to=drops[m.id]) for m in winners[j])
        for losers_row in made[j]:
            ordered.extend(losers_row)
    ordered.extend([final, reset])
    return Bracket(size, count, lines, tuple(ordered), "double elimination")
