"""Standings: the book's tiebreak chains and a total order settled by lot.

A chain is a tuple of :class:`~duiyi.tournament.tiebreaks.Tiebreak`. Competitors are split by
the first criterion, each tie group by the next one (so the direct encounter looks only inside
its group), and whatever is still tied goes to lots (Go §27.1(1)C, Gomoku §18.3(1)C): drawn lot
numbers, or an injected ``random.Random``. Without lots the tie stays a shared place.

>>> from duiyi.tournament.results import GameResult, Scoring, Table
>>> t = Table.from_games([(1, 1, 2, GameResult.DRAW)], Scoring.go(), rounds=1)
>>> [(r.place, r.number) for r in standings(t, (POINTS,))]
[(1, 1), (1, 2)]
>>> [(r.place, r.number, r.by_lot) for r in standings(t, (POINTS,), lots={1: 2, 2: 1})]
[(1, 2, True), (2, 1, True)]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from duiyi.errors import TournamentError
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.tournament.results import Table
from duiyi.tournament.tiebreaks import (
    POINTS,
    WINS,
    Tiebreak,
    boards,
    elimination,
    parse_tiebreak,
)

__all__ = [
    "FAMILIES",
    "POINTS",
    "Standing",
    "default_chain",
    "standings",
]

Lots = Mapping[int, int] | random.Random | None

#: The families of systems the books rank and withdraw by (Go §27-28, Gomoku §18): a system
#: says which is its own (:attr:`duiyi.tournament.systems.System.family`).
FAMILIES = ("round-robin", "swiss", "knockout", "match")


@dataclass(frozen=True)
class Standing:
    """One line of the standings.

    ``position`` is the line's place in the total order (1, 2, 3, ...); ``place`` is the
    shared place when competitors stay tied (no lots), else equal to ``position``. ``values``
    holds each chain criterion's value, in chain order; ``by_lot`` says the order against a
    neighbour was decided by lot.
    """

    position: int
    place: int
    number: int
    values: tuple[Fraction, ...]
    by_lot: bool = False


def default_chain(
    game: GameType | str,
    family: str,
    *,
    team: bool = False,
    board_count: int = 0,
    variant: str = "",
    mcmahon: bool = False,
    lives: int = 1,
) -> tuple[Tiebreak, ...]:
    """The book's default chain for a game, a system's family (``round-robin``, ``swiss``,
    ``knockout`` or ``match``: :attr:`duiyi.tournament.systems.System.family`, the one place a
    system's family is told) and individual or team events. ``mcmahon``: a Swiss event on
    McMahon scores; ``lives``: the losses that eliminate (2 in a double elimination).

    - Go round robin (Go §27.1(1)): points, SB, fewer warnings.
    - Go Swiss (Go §27.1(2)): A total score, fewer warnings (default); ``variant="B"``: points,
      opponents' score, fewer warnings.
    - Gomoku round robin (Gomoku §18.3(1)): points, SB, wins.
    - Gomoku Swiss (Gomoku §18.4(1)): points, average opponent rating, Buchholz, median Buchholz,
      wins.
    - Go teams (Go §27.2): match points, game points, board by board; Swiss by total score (A) or
      match points (B), then the round-robin order.
    - Gomoku teams: round robin (§18.3(2)) match points, game points, team SB, boards; Swiss
      (§18.4(2)) match points, Buchholz, median Buchholz, game points, boards.
    - Knockout (Gomoku §18.2): later elimination first; double elimination after two losses.
    - McMahon (international option, not in the books): McMahon score, SOS, SOSOS, then fewer
      warnings for Go (Go §27.1(1)B) or wins for Gomoku (Gomoku §18.4(1)D).

    >>> [t.name for t in default_chain("go", "round-robin")]
    ['points', 'sb', 'warnings']
    >>> [t.name for t in default_chain("gomoku", "swiss")]
    ['points', 'aro', 'buchholz', 'median-buchholz', 'wins']
    >>> [t.name for t in default_chain("go", "swiss", team=True, board_count=2)]
    ['total-score', 'game-points', 'board:1', 'board:2']
    >>> [t.name for t in default_chain("go", "swiss", mcmahon=True)]
    ['mms', 'sos', 'sosos', 'warnings']
    """
    if family not in FAMILIES:
        raise TournamentError(
            f"unknown family {family!r} (known: {', '.join(FAMILIES)})",
            code="unknown-family",
            values={"family": str(family)},
        )
    kind = family
    if kind == "knockout":
        return (elimination(lives), WINS)
    names = get_game(game).tiebreak_names(kind, mcmahon=mcmahon, team=team, variant=variant)
    chain: list[Tiebreak] = []
    for name in names:
        chain.extend(boards(board_count) if name == "boards" else (parse_tiebreak(name),))
    return tuple(chain)


def _split(
    table: Table,
    group: list[int],
    chain: Sequence[Tiebreak],
    level: int,
    values: dict[int, list[Fraction]],
) -> list[list[int]]:
    """Order ``group`` by ``chain[level:]``; returns the remaining tie groups in order."""
    if len(group) == 1 and level < len(chain):
        # a lone competitor still gets its values shown
        for tb in chain[level:]:
            values[group[0]].append(tb.values(table, group)[group[0]])
        return [group]
    if level >= len(chain):
        return [group]
    found = chain[level].values(table, group)
    for c in group:
        values[c].append(found[c])
    distinct = sorted({found[c] for c in group}, reverse=True)
    out: list[list[int]] = []
    for v in distinct:
        sub = sorted(c for c in group if found[c] == v)
        out.extend(_split(table, sub, chain, level + 1, values))
    return out


def _rank_field(
    table: Table, chain: Sequence[Tiebreak]
) -> tuple[list[list[int]], dict[int, tuple[Fraction, ...]]]:
    """The tie groups in order and every competitor's values, when no criterion depends on
    the tie group: each criterion is computed once over the whole field (exact integers, see
    :class:`~duiyi.tournament.tiebreaks.Vector`) and the field is sorted once by them; the
    same order as splitting group by group (:func:`_split`), in linear time plus the sort."""
    vectors = [tb.vector(table) for tb in chain]
    found = [v.values for v in vectors]
    competitors = sorted(table.competitors)
    if len(found) == 1:
        only = found[0]
        keys: dict[int, Any] = {c: only[c] for c in competitors}
    else:
        keys = {c: tuple([f[c] for f in found]) for c in competitors}
    ordered = sorted(competitors, key=keys.__getitem__, reverse=True)  # stable: numbers ascend
    groups: list[list[int]] = []
    last: Any = object()
    for c in ordered:
        k = keys[c]
        if groups and k == last:
            groups[-1].append(c)
        else:
            groups.append([c])
            last = k
    exact = [v.fractions(competitors) for v in vectors]
    if len(exact) == 1:
        one = exact[0]
        return groups, {c: (one[c],) for c in competitors}
    return groups, {c: tuple([e[c] for e in exact]) for c in competitors}


def standings(
    table: Table,
    chain: Sequence[Tiebreak],
    lots: Lots = None,
    lot_article: str = "Go §27.1(1)C",
) -> list[Standing]:
    """Rank every competitor of ``table`` by ``chain``, ties settled by ``lots``.

    ``lots`` is either drawn lot numbers (smaller draws rank first; every tied competitor needs
    one) or a ``random.Random`` that draws them for the tied competitors only. With ``None`` a
    tie stays a shared place (Go §27.2(1) "允许并列") and lines are in competitor-number order.
    A tied competitor without a lot is refused citing ``lot_article``, the event's own book's
    article of the lot (Go §27.1(1)C; Gomoku §18.3(1)C).

    >>> from duiyi.tournament.results import GameResult, Scoring, Table
    >>> t = Table.from_games([(1, 1, 2, GameResult.DRAW)], Scoring.go(), rounds=1)
    >>> [r.number for r in standings(t, (POINTS,), random.Random(3))]
    [2, 1]
    """
    if any(tb.by_group for tb in chain):
        values: dict[int, list[Fraction]] = {c: [] for c in table.competitors}
        groups = _split(table, sorted(table.competitors), chain, 0, values)
        shown = {c: tuple(v) for c, v in values.items()}
    else:
        groups, shown = _rank_field(table, chain)
    rows: list[Standing] = []
    position = 1
    for group in groups:
        ordered = _draw(group, lots, lot_article)
        by_lot = lots is not None and len(group) > 1
        for i, c in enumerate(ordered):
            place = position + i if lots is not None else position
            rows.append(Standing(position + i, place, c, shown[c], by_lot))
        position += len(group)
    return rows


def _draw(group: list[int], lots: Lots, article: str) -> list[int]:
    if len(group) == 1 or lots is None:
        return group
    if isinstance(lots, random.Random):
        drawn = list(group)
        lots.shuffle(drawn)
        return drawn
    missing = [c for c in group if c not in lots]
    if missing:
        raise TournamentError(
            f"no lot drawn for {', '.join(map(str, missing))} ({article})",
            article,
            code="lot-missing",
            values={"who": ", ".join(map(str, missing))},
        )
    if len({lots[c] for c in group}) != len(group):
        raise TournamentError(
            f"two tied competitors drew the same lot ({article})", article, code="lot-same"
        )
    return sorted(group, key=lambda c: lots[c])
