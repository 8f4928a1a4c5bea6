"""McMahon pairing, the international Go option beside the Chinese 积分编排 (appendix 五).

Each player starts with an initial McMahon score from their rank: ranks at or above the *bar*
all start equal (the top group), ranks at or below the *floor* all start at 0, and every rank
between starts one point above the rank below it. The McMahon score is the initial score plus
the points won so far (1 a win, ½ a draw, a bye as a win); pairing is then exactly the Swiss
procedure of :func:`duiyi.tournament.pairing.swiss.pair_swiss` on McMahon scores (no rematch,
same score first, neighbours by number, colour balance). Give players their pairing numbers in
rank order if the groups should read strongest first.

Ranks are integers on the EGF scale: 1d = 0, 2d = 1, …, 1k = -1, 30k = -29; professional
ranks Np are placed above 7d (1p = 7). :func:`parse_rank` reads "5k", "3d", "1p".

>>> parse_rank("1d"), parse_rank("1k"), parse_rank("30k"), parse_rank("2p")
(0, -1, -30, 8)
>>> initial_score(parse_rank("5d"), bar="3d", floor="10k")
12
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from duiyi.errors import InvalidInput

from .common import Round
from .swiss import SwissPlayer, pair_swiss

__all__ = ["McMahonPlayer", "initial_score", "mcmahon_score", "pair_mcmahon", "parse_rank"]

_ARTICLE = "McMahon (international Go pairing)"
_RANK = re.compile(r"^\s*(\d{1,2})\s*([kdp])\s*$", re.IGNORECASE)
Score = Fraction | int


def parse_rank(text: str | int) -> int:
    """An integer rank from "5k", "3d", "1p" (ints pass through).

    >>> parse_rank("7D"), parse_rank(-3)
    (6, -3)
    """
    if isinstance(text, int):
        return text
    m = _RANK.match(text)
    if not m:
        raise InvalidInput(
            f"cannot read rank {text!r} (use e.g. 5k, 3d, 1p)",
            _ARTICLE,
            code="rank-unreadable",
            values={"rank": str(text)},
        )
    n, kind = int(m.group(1)), m.group(2).lower()
    if n < 1 or (kind == "k" and n > 30) or (kind == "d" and n > 9) or (kind == "p" and n > 9):
        raise InvalidInput(
            f"rank {text!r} out of range", _ARTICLE, code="rank-range", values={"rank": text}
        )
    if kind == "k":
        return -n
    if kind == "d":
        return n - 1
    return 6 + n


def initial_score(rank: int | str, *, bar: int | str, floor: int | str) -> int:
    """Initial McMahon score: ``clamp(rank, floor, bar) − floor``.

    >>> initial_score("20k", bar="1d", floor="15k"), initial_score("2k", bar="1d", floor="15k")
    (0, 13)
    """
    r, b, f = parse_rank(rank), parse_rank(bar), parse_rank(floor)
    if f > b:
        raise InvalidInput(
            f"the floor ({floor}) is above the bar ({bar})",
            _ARTICLE,
            code="mcmahon-floor-above-bar",
            values={"floor": str(floor), "bar": str(bar)},
        )
    return min(max(r, f), b) - f


@dataclass(frozen=True)
class McMahonPlayer:
    """A player of a McMahon event: pairing ``number``, ``rank`` (int or "5k"), ``points`` won
    so far (wins, ½ for draws, byes as wins) and the same history as a Swiss player.

    >>> McMahonPlayer(1, "3k").rank_value
    -3
    """

    number: int
    rank: int | str
    points: Score = 0
    opponents: frozenset[int] = frozenset()
    colours: str = ""
    byes: int = 0

    @property
    def rank_value(self) -> int:
        """The rank on the integer scale."""
        return parse_rank(self.rank)


def mcmahon_score(player: McMahonPlayer, *, bar: int | str, floor: int | str) -> Score:
    """Initial score plus points.

    >>> mcmahon_score(McMahonPlayer(1, "1d", 2), bar="1d", floor="10k")
    12
    """
    return initial_score(player.rank_value, bar=bar, floor=floor) + player.points


def pair_mcmahon(
    players: Sequence[McMahonPlayer],
    round_number: int,
    *,
    bar: int | str,
    floor: int | str,
    colour_window: int = 8,
    explain: bool = True,
) -> Round:
    """Pair one McMahon round: the Swiss procedure on McMahon scores.

    >>> field = [McMahonPlayer(1, "2d"), McMahonPlayer(2, "1d"), McMahonPlayer(3, "1k"),
    ...          McMahonPlayer(4, "2k")]
    >>> r = pair_mcmahon(field, 1, bar="1d", floor="5k")
    >>> [(p.black, p.white) for p in r.pairings]
    [(1, 2), (3, 4)]
    """
    b, f = parse_rank(bar), parse_rank(floor)
    initial_score(f, bar=b, floor=f)  # refuses a floor above the bar
    by_rank: dict[int | str, int] = {}  # ranks repeat: read each once
    swiss = []
    for p in players:
        start = by_rank.get(p.rank)
        if start is None:
            start = by_rank[p.rank] = initial_score(p.rank, bar=b, floor=f)
        swiss.append(SwissPlayer(p.number, start + p.points, p.opponents, p.colours, p.byes))
    return pair_swiss(
        swiss, round_number, colour_window=colour_window, explain=explain, article=_ARTICLE
    )
