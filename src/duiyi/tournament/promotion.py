"""Professional dan promotion: Go appendix 附表四 (points per game) and 附表五 (thresholds).

附表四 (Black gives 3¾ stones komi) scores every game of a promotion event by the dan difference
between the two players: the higher-dan player (上手) scores less for each result, the lower-dan
player (下手) more. The table covers differences up to three dan.

附表五 says how many games a player must have, at which average, to be promoted from each dan:
e.g. a 初段 (1 dan) with an average of 75 over 8 games or more, 70 over 12 or more, or 67.5 over
16 or more. "以上" includes the number itself (8局以上: at least 8 games).

>>> game_points(3, 1, "win"), game_points(1, 3, "win"), game_points(2, 2, "draw")
(80, 100, 60)
>>> v = promotion([(1, "win")] * 8, dan=1)
>>> v.average, v.qualified, v.to_dan
(Fraction(90, 1), True, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from duiyi.errors import TournamentError
from duiyi.tournament.results import SideResult

__all__ = [
    "POINTS_TABLE",
    "THRESHOLDS",
    "PromotionVerdict",
    "game_points",
    "promotion",
]

ARTICLE_POINTS = "Go 附表四"
ARTICLE_THRESHOLDS = "Go 附表五"

# 附表四: dan difference (own − opponent) → points for (win, draw, loss).
POINTS_TABLE: Mapping[int, tuple[int, int, int]] = {
    0: (90, 60, 30),  # 同段位
    1: (85, 55, 25),  # 差一段 上手
    -1: (95, 65, 35),  # 差一段 下手
    2: (80, 50, 20),  # 差二段 上手
    -2: (100, 70, 40),  # 差二段 下手
    3: (75, 45, 15),  # 差三段 上手
    -3: (105, 75, 45),  # 差三段 下手
}

# 附表五: current dan → ((average, games at least), ...) for the three columns 75, 70, 67.5.
THRESHOLDS: Mapping[int, tuple[tuple[Fraction, int], ...]] = {
    dan: (
        (Fraction(75), 8 + 2 * (dan - 1)),
        (Fraction(70), 12 + 2 * (dan - 1)),
        (Fraction(135, 2), 16 + 2 * (dan - 1)),
    )
    for dan in range(1, 8)
}

_SIDES = {
    "win": SideResult.WIN,
    "w": SideResult.WIN,
    "胜": SideResult.WIN,
    "draw": SideResult.DRAW,
    "d": SideResult.DRAW,
    "和": SideResult.DRAW,
    "loss": SideResult.LOSS,
    "l": SideResult.LOSS,
    "负": SideResult.LOSS,
}


def _side(result: SideResult | str) -> SideResult:
    if isinstance(result, SideResult):
        return result
    key = result.strip().lower()
    if key not in _SIDES:
        raise TournamentError(
            f"not a game result: {result!r} (expected win, draw or loss)", code="promotion-result"
        )
    return _SIDES[key]


def _check_dan(dan: int, what: str) -> None:
    if not 1 <= dan <= 9:
        raise TournamentError(
            f"{what} must be a professional dan 1–9, got {dan}",
            ARTICLE_POINTS,
            code="promotion-dan",
            values={"dan": str(dan)},
        )


def game_points(own_dan: int, opponent_dan: int, result: SideResult | str) -> int:
    """Points one game scores for a player of ``own_dan`` against ``opponent_dan`` (附表四).

    >>> game_points(5, 4, "loss"), game_points(4, 5, "loss")
    (25, 35)
    >>> game_points(6, 2, "win")
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: 附表四 scores games between players at most three dan apart, got 6 dan against 2 dan (Go 附表四)
    """
    _check_dan(own_dan, "a player's rank")
    _check_dan(opponent_dan, "an opponent's rank")
    diff = own_dan - opponent_dan
    if diff not in POINTS_TABLE:
        raise TournamentError(
            "附表四 scores games between players at most three dan apart, got "
            f"{own_dan} dan against {opponent_dan} dan",
            ARTICLE_POINTS,
            code="promotion-dan-gap",
            values={"own": str(own_dan), "opponent": str(opponent_dan)},
        )
    win, draw, loss = POINTS_TABLE[diff]
    side = _side(result)
    return {SideResult.WIN: win, SideResult.DRAW: draw, SideResult.LOSS: loss}[side]


@dataclass(frozen=True)
class PromotionVerdict:
    """A player's promotion record: games, total and average points, and whether some column
    of 附表五 is met (``tier`` = (average needed, games needed) of the first column met)."""

    dan: int
    games: int
    total: int
    average: Fraction
    qualified: bool
    tier: tuple[Fraction, int] | None

    @property
    def to_dan(self) -> int | None:
        """The dan the player is promoted to, when qualified."""
        return self.dan + 1 if self.qualified else None

    def needs(self) -> list[str]:
        """What each column of 附表五 still asks for, in words.

        >>> promotion([(2, "win")] * 3, dan=2).needs()[0]
        'average ≥ 75 over ≥ 10 games: 7 more games'
        """
        out = []
        for avg, games in THRESHOLDS[self.dan]:
            parts = []
            if self.games < games:
                parts.append(f"{games - self.games} more games")
            if self.average < avg:
                parts.append(f"average {float(self.average):g} < {float(avg):g}")
            state = ", ".join(parts) if parts else "met"
            out.append(f"average ≥ {float(avg):g} over ≥ {games} games: {state}")
        return out


def promotion(games: Sequence[tuple[int, SideResult | str]], *, dan: int) -> PromotionVerdict:
    """Score a player's promotion games (附表四) and test them against 附表五.

    ``games`` are ``(opponent's dan, result)`` pairs; ``dan`` is the player's current dan (1–7:
    附表五 lists promotion from 初段 to 七段).

    >>> v = promotion([(3, "win")] * 6 + [(3, "loss")] * 6, dan=3)
    >>> v.total, v.average, v.qualified
    (720, Fraction(60, 1), False)
    >>> v = promotion([(1, "win")] * 9 + [(2, "loss")] * 3, dan=1)
    >>> v.average, v.qualified, v.tier
    (Fraction(305, 4), True, (Fraction(75, 1), 8))
    """
    if dan not in THRESHOLDS:
        raise TournamentError(
            f"附表五 lists promotion from 1 dan to 7 dan, got {dan} dan",
            ARTICLE_THRESHOLDS,
            code="promotion-table5",
            values={"dan": str(dan)},
        )
    total = sum(game_points(dan, opp, result) for opp, result in games)
    count = len(games)
    average = Fraction(total, count) if count else Fraction(0)
    tier = next(
        ((avg, need) for avg, need in THRESHOLDS[dan] if count >= need and average >= avg), None
    )
    return PromotionVerdict(dan, count, total, average, tier is not None, tier)
