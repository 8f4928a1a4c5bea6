"""The running score of an engine match, with the Elo figures cutechess-cli prints (pure).

A game's result is a :class:`~duiyi.tournament.results.GameResult` (the tournament's own
reading of an :class:`~duiyi.outcome.Outcome`); :class:`MatchScore` counts them from engine A's
side. The Elo difference comes from A's score fraction ``s`` (``-400 log10(1/s - 1)``); its 95%
interval from the spread of the per-game scores (normal approximation, the same method as
cutechess-cli: the interval of ``s`` is mapped through the Elo formula and halved); the
likelihood of superiority (LOS) counts decisive games only, ``½ + ½ erf((W - L) / √(2(W + L)))``.

>>> s = MatchScore("a", "b")
>>> for r in ["1-0"] * 10 + ["0-1"] * 6 + ["draw"] * 4:
...     s.add(GameResult.parse(r), a_is_black=True)
>>> print(s.score_line())
Score of a vs b: 10 - 6 - 4  [0.600] 20
>>> print(s.elo_line())
Elo difference: 70.4 +/- 147.6, LOS: 84.1 %, DrawRatio: 20.0 %
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.tournament.results import GameResult

__all__ = ["Elo", "MatchScore", "elo_difference"]

_Z95 = 1.959963984540054


def elo_difference(score: float) -> float:
    """Elo difference for a score fraction in (0, 1); ±inf at the ends.

    >>> elo_difference(0.5), round(elo_difference(0.75), 1)
    (0.0, 190.8)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 0.0 - 400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Elo:
    """Elo difference of A over B, half-width of its 95% interval, LOS (0..1), draw ratio."""

    difference: float
    margin: float
    los: float
    draw_ratio: float

    def to_json(self) -> dict[str, Any]:
        """JSON numbers (infinite values as ``null``)."""

        def num(x: float) -> float | None:
            return None if math.isinf(x) or math.isnan(x) else round(x, 2)

        return {
            "elo": num(self.difference),
            "elo_error": num(self.margin),
            "los": num(self.los * 100),
            "draw_ratio": num(self.draw_ratio * 100),
        }


@dataclass
class MatchScore:
    """Engine A's results against engine B (win 1, draw ½, loss 0)."""

    a: str
    b: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    other: int = 0  # both lost, no result: counted as nothing for either side
    by_colour: dict[tuple[Color, str], int] = field(default_factory=dict)

    def add(self, result: GameResult, *, a_is_black: bool) -> None:
        """Count one game's result."""
        a_color = BLACK if a_is_black else WHITE
        winner = result.winner
        if winner is a_color:
            self.wins += 1
            key = "+"
        elif winner is a_color.opponent:
            self.losses += 1
            key = "-"
        elif result is GameResult.DRAW:
            self.draws += 1
            key = "="
        else:
            self.other += 1
            key = "0"
        self.by_colour[a_color, key] = self.by_colour.get((a_color, key), 0) + 1

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.losses + self.draws + self.other

    @property
    def points_a(self) -> Fraction:
        """Engine A's points."""
        return self.wins + Fraction(self.draws, 2)

    @property
    def points_b(self) -> Fraction:
        """Engine B's points."""
        return self.losses + Fraction(self.draws, 2)

    def elo(self) -> Elo:
        """The Elo figures of the games so far (see the module's docstring)."""
        n = self.wins + self.losses + self.draws
        if n == 0:
            return Elo(0.0, math.inf, 0.5, 0.0)
        s = (self.wins + self.draws / 2) / n
        var = (
            self.wins * (1 - s) ** 2 + self.losses * (0 - s) ** 2 + self.draws * (0.5 - s) ** 2
        ) / n
        stdev = math.sqrt(var / n)
        lo, hi = s - _Z95 * stdev, s + _Z95 * stdev
        margin = (elo_difference(hi) - elo_difference(lo)) / 2
        decisive = self.wins + self.losses
        los = (
            0.5 + 0.5 * math.erf((self.wins - self.losses) / math.sqrt(2 * decisive))
            if decisive
            else 0.5
        )
        return Elo(elo_difference(s), margin, los, self.draws / n)

    def score_line(self) -> str:
        """``Score of A vs B: W - L - D  [s] N`` as cutechess-cli prints it.

        >>> MatchScore("x", "y", wins=2, losses=1).score_line()
        'Score of x vs y: 2 - 1 - 0  [0.667] 3'
        """
        n = self.wins + self.losses + self.draws
        frac = (self.wins + self.draws / 2) / n if n else 0.0
        return (
            f"Score of {self.a} vs {self.b}: {self.wins} - {self.losses} - {self.draws}  "
            f"[{frac:.3f}] {self.games}"
        )

    def elo_line(self) -> str:
        """``Elo difference: D +/- M, LOS: L %, DrawRatio: R %``."""
        e = self.elo()
        return (
            f"Elo difference: {e.difference:.1f} +/- {e.margin:.1f}, LOS: {e.los * 100:.1f} %, "
            f"DrawRatio: {e.draw_ratio * 100:.1f} %"
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (A's point of view)."""
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "other": self.other,
            "points_a": float(self.points_a),
            "points_b": float(self.points_b),
            **self.elo().to_json(),
        }
