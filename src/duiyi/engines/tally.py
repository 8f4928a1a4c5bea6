"""The running score of a Gomocup match between two brains (:class:`MatchTally`): each game's
record read as a tournament result and counted (Gomoku §18), with the Elo figures."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from duiyi import BLACK, WHITE, Color
from duiyi.engines.record import EngineGameRecord
from duiyi.engines.score import MatchScore
from duiyi.outcome import Result
from duiyi.tournament.results import GameResult

__all__ = ["MatchTally"]


@dataclass
class MatchTally:
    """The running score of engine A against engine B, on the tournament's results.

    Each game's :class:`~duiyi.outcome.Outcome` is read as a
    :class:`~duiyi.tournament.results.GameResult` (the same reading an event makes) and
    counted by a :class:`~duiyi.engines.score.MatchScore` (Gomoku §18: win 1, draw ½, loss 0;
    both lost: nothing), which also gives the Elo figures as cutechess-cli prints them.

    >>> from duiyi.outcome import Outcome, Termination
    >>> t = MatchTally("a", "b")
    >>> r = EngineGameRecord(1, "a", "b", None, ("h8",), Outcome.win(BLACK, Termination.FIVE, "x"), "")
    >>> t.add(r, a_is_black=True); (t.wins, t.draws, t.losses), t.score_a
    ((1, 0, 0), Fraction(1, 1))
    """

    a: str
    b: str
    score: MatchScore = field(init=False)
    reasons: Counter[str] = field(default_factory=Counter)
    records: list[EngineGameRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.score = MatchScore(self.a, self.b)

    def add(self, record: EngineGameRecord, *, a_is_black: bool) -> None:
        """Count one finished game."""
        self.records.append(record)
        result = GameResult.from_outcome(record.outcome)
        self.score.add(result, a_is_black=a_is_black)
        a_color = BLACK if a_is_black else WHITE
        term = record.outcome.termination.value
        if record.outcome.result is Result.WIN:
            who = self.a if record.outcome.winner is a_color else self.b
            self.reasons[f"{who} won by {term}"] += 1
        elif record.outcome.result is Result.DRAW:
            self.reasons[f"draw by {term}"] += 1
        else:
            self.reasons[f"{record.outcome.result.value} by {term}"] += 1

    @property
    def wins(self) -> int:
        """Engine A's wins."""
        return self.score.wins

    @property
    def draws(self) -> int:
        """Draws."""
        return self.score.draws

    @property
    def losses(self) -> int:
        """Engine A's losses."""
        return self.score.losses

    @property
    def both_lost(self) -> int:
        """Games both sides lost (or without a result)."""
        return self.score.other

    @property
    def by_colour(self) -> dict[tuple[Color, str], int]:
        """Engine A's results by its colour: ``(colour, "+" | "=" | "-" | "0")`` -> games."""
        return self.score.by_colour

    @property
    def games(self) -> int:
        """Games counted so far."""
        return len(self.records)

    @property
    def score_a(self) -> Fraction:
        """Engine A's points."""
        return self.score.points_a

    @property
    def score_b(self) -> Fraction:
        """Engine B's points."""
        return self.score.points_b

    def summary(self) -> str:
        """The score, engine A's results by colour, each way games ended, then the Elo line.

        >>> print(MatchTally("a", "b").summary())
        a vs b: 0 games, +0 =0 -0 (a 0 : 0 b)
        """

        def pts(x: Fraction) -> str:
            whole, half = divmod(x, 1)
            return f"{whole}½" if half and whole else ("½" if half else f"{whole}")

        head = (
            f"{self.a} vs {self.b}: {self.games} game{'' if self.games == 1 else 's'}, "
            f"+{self.wins} ={self.draws} "
            f"-{self.losses} ({self.a} {pts(self.score_a)} : {pts(self.score_b)} {self.b})"
        )
        if self.both_lost:
            head += f", both lost {self.both_lost}"
        lines = [head]
        if self.games:
            parts = []
            for color in (BLACK, WHITE):
                got = {k: self.by_colour.get((color, k), 0) for k in "+=-"}
                parts.append(f"with {color} +{got['+']} ={got['=']} -{got['-']}")
            lines.append(f"  {self.a} " + ", ".join(parts))
        for reason, n in sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {n:3d}  {reason}")
        if self.games:
            lines.append(f"  {self.score.elo_line()}")
        return "\n".join(lines)
