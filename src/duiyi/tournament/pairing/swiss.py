"""Swiss pairing, 积分编排制 (Go §26.3 and appendix 五; Gomoku §17.3).

The appendix, step by step, as :func:`pair_swiss` applies it:

1. Round 1 pairs the drawn numbers 1–2, 3–4, … and the smaller number plays Black (五.2(1)).
   This is the general rule below applied to a field where everyone has 0 points.
2. Never a rematch (五.2(2)).
3. Same score first, then the nearest score (五.2(3)).
4. Score groups from the top; inside a group players stand by number, ascending in odd rounds
   and descending in even rounds; neighbours are paired, taking colour balance into account,
   "until the whole round pairs" (五.2(4)).
5. Colours: the player who has had fewer Blacks takes Black; on equal histories the smaller
   number is Black in odd rounds and the larger number in even rounds (五.3).
6. An odd field: the lowest-ranked player who has not had a bye gets it (DECISIONS.md).

How "until the whole round pairs" is made fast and safe: the players are taken top-down, and
each takes the nearest allowed partner whose removal still leaves the rest pairable. Whether the
rest is pairable is free to decide while many players remain (if each has met at most *k* of the
*m* left and *m* ≥ 2k+2, every one of them can still meet half of the others, so Dirac's theorem
gives a perfect pairing); for the last few players an exact matching (Edmonds' blossom
algorithm) decides. The greedy therefore never paints itself into a corner, never needs to undo,
and finds a rematch-free round whenever one exists, in about O(n·(k + window)) steps.

>>> field = [SwissPlayer(n) for n in range(1, 6)]
>>> r = pair_swiss(field, 1)
>>> [(p.black, p.white) for p in r.pairings], r.byes
([(1, 2), (3, 4)], (5,))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from duiyi.errors import InvalidInput, PairingError

from ._matching import has_perfect_matching, maximum_matching
from .common import Pairing, Round, check_players

__all__ = [
    "SuggestedRounds",
    "SwissPlayer",
    "colours_for",
    "knockout_rounds",
    "pair_swiss",
    "record_round",
    "suggested_rounds",
]

_ARTICLE = "Go appendix 五"
Score = Fraction | int


@dataclass(frozen=True)
class SwissPlayer:
    """What the pairer needs to know about one player before a round.

    - ``number``: the drawn number (抽签编号);
    - ``score``: points so far (any unit: Go 2/1/0, Gomoku 1/½/0, McMahon score, ...);
    - ``opponents``: numbers already met (unknown numbers, e.g. withdrawn players, are ignored);
    - ``colours``: the colours played so far, oldest first, as a string of ``B``/``W``;
    - ``byes``: how many byes the player has had;
    - ``rank``: optional place in the standings (1 = best), used only to choose the bye.

    >>> SwissPlayer(3, 2, frozenset({1}), "W").balance
    -1
    """

    number: int
    score: Score = 0
    opponents: frozenset[int] = frozenset()
    colours: str = ""
    byes: int = 0
    rank: int | None = None

    def __post_init__(self) -> None:
        if any(c not in "BW" for c in self.colours):
            raise InvalidInput(
                f"player {self.number}: colours must be a string of B and W, got {self.colours!r}",
                _ARTICLE,
            )
        if self.number in self.opponents:
            raise InvalidInput(f"player {self.number} is listed as its own opponent", _ARTICLE)

    @property
    def balance(self) -> int:
        """Blacks minus Whites so far."""
        return self.colours.count("B") - self.colours.count("W")


@dataclass(frozen=True)
class SuggestedRounds:
    """Appendix 五.1: about twice the knockout rounds, give or take 1 or 2.

    >>> suggested_rounds(32)
    SuggestedRounds(base=10, low=8, high=12)
    """

    base: int
    low: int
    high: int


def knockout_rounds(players: int) -> int:
    """Rounds of a single elimination (appendix 一.1: 4 players take 2 rounds, each more
    round doubles the field).

    >>> knockout_rounds(4), knockout_rounds(5), knockout_rounds(32), knockout_rounds(2)
    (2, 3, 5, 1)
    """
    if players < 2:
        raise InvalidInput(f"an elimination needs at least 2 players, got {players}", _ARTICLE)
    return max(1, math.ceil(math.log2(players)))


def suggested_rounds(players: int) -> SuggestedRounds:
    """Rounds for a Swiss of ``players`` (appendix 五.1), capped at ``players - 1`` rounds.

    >>> suggested_rounds(6)
    SuggestedRounds(base=5, low=4, high=5)
    """
    cap = players - 1 if players % 2 == 0 else players
    base = 2 * knockout_rounds(players)
    return SuggestedRounds(min(base, cap), min(max(1, base - 2), cap), min(base + 2, cap))


def colours_for(a: SwissPlayer, b: SwissPlayer, round_number: int) -> tuple[int, int, str]:
    """``(black, white, why)`` for a pairing of ``a`` and ``b`` (appendix 五.3).

    The player with fewer Blacks than Whites so far takes Black; on equal balance the player who
    had White more recently (comparing the latest round in which they differ) takes Black; on
    identical histories the smaller number is Black in odd rounds, the larger in even rounds.

    >>> colours_for(SwissPlayer(4), SwissPlayer(9), 2)[:2]
    (9, 4)
    >>> colours_for(SwissPlayer(4, colours="B"), SwissPlayer(9, colours="W"), 2)[:2]
    (9, 4)
    >>> colours_for(SwissPlayer(4, colours="W"), SwissPlayer(9), 2)[2]  # 9 had a bye
    '4 is due Black: Blacks minus Whites -1 (B0 W1) against +0 (B0 W0)'
    >>> colours_for(SwissPlayer(4, colours="BW"), SwissPlayer(9), 3)[2]  # 9 had two byes
    'equal balance (B1 W1 against B0 W0), odd round: smaller number Black'
    """
    if a.balance != b.balance:
        black, white = (a, b) if a.balance < b.balance else (b, a)
        return (
            black.number,
            white.number,
            f"{black.number} is due Black: Blacks minus Whites {black.balance:+d} "
            f"({_hist(black)}) against {white.balance:+d} ({_hist(white)})",
        )
    for ca, cb in zip(reversed(a.colours), reversed(b.colours), strict=False):
        if ca != cb:
            black, white = (a, b) if ca == "W" else (b, a)
            return (
                black.number,
                white.number,
                f"equal balance, {black.number} had White more recently",
            )
    small, large = (a, b) if a.number < b.number else (b, a)
    # histories that differ only before the shorter one began (B1 W1 against B0 W0) are an
    # equal balance, not equal histories
    same = (
        "equal histories"
        if a.colours == b.colours
        else (f"equal balance ({_hist(small)} against {_hist(large)})")
    )
    if round_number % 2:
        return small.number, large.number, f"{same}, odd round: smaller number Black"
    return large.number, small.number, f"{same}, even round: larger number Black"


def _hist(p: SwissPlayer) -> str:
    return f"B{p.colours.count('B')} W{p.colours.count('W')}"


def _clash(a: SwissPlayer, b: SwissPlayer) -> bool:
    """Both are due the same colour (both have more Blacks, or both more Whites)."""
    return (a.balance > 0 and b.balance > 0) or (a.balance < 0 and b.balance < 0)


class _Oracle:
    """Can the given players still be paired without rematches?"""

    def __init__(self, players: dict[int, SwissPlayer]) -> None:
        self.opp = {n: p.opponents & players.keys() for n, p in players.items()}
        self.k = max((len(o) for o in self.opp.values()), default=0)

    def pairable(self, group: Iterable[int], size: int) -> bool:
        if size % 2:
            return False
        if size >= 2 * self.k + 2:  # Dirac: every vertex keeps degree ≥ size/2
            return True
        members = list(group)
        index = {n: i for i, n in enumerate(members)}
        adj = [[index[m] for m in members if m != n and m not in self.opp[n]] for n in members]
        return has_perfect_matching(len(members), adj)

    def max_games(self, members: list[int]) -> int:
        """Maximum number of rematch-free games among ``members``."""
        index = {n: i for i, n in enumerate(members)}
        adj = [[index[m] for m in members if m != n and m not in self.opp[n]] for n in members]
        return sum(1 for m in maximum_matching(len(members), adj) if m != -1) // 2


def _fmt(score: Score) -> str:
    return str(score)


def pair_swiss(
    players: Sequence[SwissPlayer],
    round_number: int,
    *,
    colour_window: int = 8,
    explain: bool = True,
    article: str = _ARTICLE,
) -> Round:
    """Pair one Swiss round (appendix 五); raises :class:`PairingError` if no rematch-free
    round exists.

    ``colour_window`` bounds how far past the nearest allowed partner a player looks, inside
    the same score, for one whose colour need does not clash (结合平衡先后手的条件邻近编对).
    Every pairing carries a ``reason`` when ``explain``.

    >>> after1 = [SwissPlayer(1, 2, frozenset({2}), "B"), SwissPlayer(2, 0, frozenset({1}), "W"),
    ...           SwissPlayer(3, 2, frozenset({4}), "B"), SwissPlayer(4, 0, frozenset({3}), "W")]
    >>> r = pair_swiss(after1, 2)
    >>> [(p.black, p.white) for p in r.pairings]
    [(3, 1), (4, 2)]
    """
    if round_number < 1:
        raise InvalidInput(f"round numbers start at 1, got {round_number}", article)
    if colour_window < 0:
        raise InvalidInput("colour_window must be ≥ 0", article)
    check_players([p.number for p in players], article)
    by_number = {p.number: p for p in players}
    oracle = _Oracle(by_number)
    odd_round = round_number % 2 == 1
    notes: list[str] = []

    everyone = set(by_number)
    byes: tuple[int, ...] = ()
    if len(players) % 2:
        bye = _choose_bye(players, oracle, everyone)
        byes = (bye.number,)
        everyone.discard(bye.number)
        if explain:
            why = "has not had a bye" if bye.byes == 0 else "is left (no one without a bye fits)"
            notes.append(
                f"{bye.number} has the bye: lowest ranked (score {_fmt(bye.score)}) who {why} "
                "and whose bye leaves the rest pairable"
            )
    elif not oracle.pairable(everyone, len(everyone)):
        raise PairingError(
            f"round {round_number} cannot be paired without a rematch",
            article,
            code="pairing-rematch",
            values={"round": str(round_number)},
        )

    order = sorted(
        (by_number[n] for n in everyone),
        key=lambda p: (-p.score, p.number if odd_round else -p.number),
    )
    pairer = _Pairer(order, oracle, colour_window)
    games: list[Pairing] = []
    direction = "ascending (odd round)" if odd_round else "descending (even round)"
    for i in range(len(order)):
        if pairer.paired[i]:
            continue
        p = order[i]
        pairer.take(i)
        chosen, skipped = pairer.partner(i)
        if chosen is None:  # cannot happen: the oracle kept the rest pairable
            raise PairingError(
                f"no partner left for {p.number}",
                article,
                code="pairing-no-partner",
                values={"number": str(p.number)},
            )
        q = order[chosen]
        pairer.take(chosen)
        black, white, colour_why = colours_for(p, q, round_number)
        reason = ""
        if explain:
            if q.score == p.score:
                reason = (
                    f"score group {_fmt(p.score)}: {p.number} meets {q.number}, the nearest "
                    f"fitting player in the {direction} order"
                )
            else:
                reason = (
                    f"{p.number} (score {_fmt(p.score)}) floats down to score {_fmt(q.score)}: "
                    f"no fitting partner left in its score group; {q.number} is the nearest"
                )
            if skipped:
                shown = skipped[:4] + ([f"{len(skipped) - 4} more"] if len(skipped) > 4 else [])
                reason += "; skipped " + ", ".join(shown)
            reason += f"; colour: {colour_why}"
        games.append(Pairing(len(games) + 1, black, white, reason))
    return Round(round_number, tuple(games), byes, tuple(notes))


class _Pairer:
    """The top-down greedy: players in order, each taking the best partner still allowed."""

    def __init__(self, order: list[SwissPlayer], oracle: _Oracle, window: int) -> None:
        self.order = order
        self.oracle = oracle
        self.window = window
        n = len(order)
        self.paired = [False] * n
        self.skip = list(range(n + 1))  # union-find: next index ≥ i not yet paired
        self.remaining = {p.number for p in order}
        self.group_end: dict[Score, int] = {}
        self.left: dict[Score, int] = {}  # unpaired players per score group
        for i, p in enumerate(order):
            self.group_end[p.score] = i + 1
            self.left[p.score] = self.left.get(p.score, 0) + 1

    def next_free(self, i: int) -> int:
        skip = self.skip
        root = i
        while skip[root] != root:
            root = skip[root]
        while skip[i] != root:
            skip[i], i = root, skip[i]
        return root

    def take(self, i: int) -> None:
        self.paired[i] = True
        self.skip[i] = i + 1
        self.remaining.discard(self.order[i].number)
        self.left[self.order[i].score] -= 1

    def _big(self, m: int) -> bool:
        """Dirac: m players who each met at most k of the others pair up (all but one)."""
        return m - m % 2 >= 2 * self.oracle.k + 2

    def _mm(self, members: list[int]) -> int:
        """How many games the given players can make among themselves."""
        if self._big(len(members)):
            return len(members) // 2
        return self.oracle.max_games(members)

    def _members(self, start: int, end: int) -> list[int]:
        out: list[int] = []
        j = self.next_free(start)
        while j < end:
            out.append(self.order[j].number)
            j = self.next_free(j + 1)
        return out

    def partner(self, i: int) -> tuple[int | None, list[str]]:
        """Index of the partner for ``order[i]`` (already taken) and the players passed over."""
        p = self.order[i]
        opp = self.oracle.opp[p.number]
        skipped: list[str] = []
        fallback: int | None = None
        start = i + 1
        own_group = True
        while True:
            start = self.next_free(start)
            if start >= len(self.order):
                break
            score = self.order[start].score
            end = self.group_end[score]
            size = self.left[score]
            # Which partners keep this score group as paired-up as it can be?
            keep: set[int] | None = None  # None: every partner is as good as any other
            if own_group:
                if not (self._big(size + 1) and self._big(size - 1)):
                    members = self._members(start, end)
                    best = self.oracle.max_games([*members, p.number]) - 1
                    keep = {q for q in members if self._mm([m for m in members if m != q]) == best}
            elif not (self._big(size) and self._big(size - 1)):
                members = self._members(start, end)
                best = self._mm(members)
                keep = {q for q in members if self._mm([m for m in members if m != q]) == best}
                if not keep:
                    keep = None
            first: int | None = None
            looked = 0
            j = start
            while j < end:
                q = self.order[j]
                if q.number in opp:
                    skipped.append(f"{q.number} (met before)")
                elif not _rest_pairable(self.oracle, self.remaining, q.number):
                    skipped.append(f"{q.number} (would leave the rest unpairable)")
                else:
                    if fallback is None:
                        fallback = j
                    if keep is not None and q.number not in keep:
                        skipped.append(f"{q.number} (would leave more floaters in its group)")
                    elif first is None:
                        first = j
                        if not _clash(p, q):
                            return j, skipped
                        skipped.append(f"{q.number} (colour clash)")
                    else:
                        looked += 1
                        if looked > self.window:
                            break
                        if not _clash(p, q):
                            return j, [s for s in skipped if not s.startswith(f"{q.number} ")]
                        skipped.append(f"{q.number} (colour clash)")
                j = self.next_free(j + 1)
            if first is not None:
                chosen = self.order[first].number
                return first, [s for s in skipped if not s.startswith(f"{chosen} ")]
            own_group = False
            start = end
        return fallback, skipped


def _rest_pairable(oracle: _Oracle, remaining: set[int], partner: int) -> bool:
    size = len(remaining) - 1
    if size >= 2 * oracle.k + 2:
        return True
    return oracle.pairable((n for n in remaining if n != partner), size)


def _choose_bye(players: Sequence[SwissPlayer], oracle: _Oracle, everyone: set[int]) -> SwissPlayer:
    worst = 10**9

    def key(p: SwissPlayer) -> tuple[int, Score, int, int]:
        rank = -(p.rank if p.rank is not None else worst)
        return (min(p.byes, 1), p.score, rank, -p.number)

    for candidate in sorted(players, key=key):
        rest = [n for n in everyone if n != candidate.number]
        if oracle.pairable(rest, len(rest)):
            return candidate
    raise PairingError(
        "no bye leaves the other players pairable without a rematch",
        _ARTICLE,
        code="pairing-no-bye",
    )


def record_round(
    players: Sequence[SwissPlayer],
    played: Round,
    points: Mapping[int, Score],
    bye_points: Score = 2,
) -> list[SwissPlayer]:
    """The players after ``played``: opponents, colours and byes added, ``points[n]`` added to
    each paired player's score and ``bye_points`` to each bye (a bye scores as a win,
    DECISIONS.md; Go 2, Gomoku 1). Players absent from the round are returned unchanged.

    >>> field = [SwissPlayer(1), SwissPlayer(2), SwissPlayer(3)]
    >>> r = pair_swiss(field, 1)
    >>> after = record_round(field, r, {1: 2, 2: 0})
    >>> [(p.number, p.score, p.colours, p.byes) for p in after]
    [(1, 2, 'B', 0), (2, 0, 'W', 0), (3, 2, '', 1)]
    """
    colour: dict[int, str] = {}
    opponent: dict[int, int] = {}
    for g in played.pairings:
        colour[g.black], colour[g.white] = "B", "W"
        opponent[g.black], opponent[g.white] = g.white, g.black
    byes = set(played.byes)
    out: list[SwissPlayer] = []
    for p in players:
        if p.number in opponent:
            out.append(
                replace(
                    p,
                    score=p.score + points.get(p.number, 0),
                    opponents=p.opponents | {opponent[p.number]},
                    colours=p.colours + colour[p.number],
                )
            )
        elif p.number in byes:
            out.append(replace(p, score=p.score + bye_points, byes=p.byes + 1))
        else:
            out.append(p)
    return out
