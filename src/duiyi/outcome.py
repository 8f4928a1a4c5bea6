"""How a game ended, as data shared by Go and Gomoku (never a string to parse).

>>> from duiyi import BLACK
>>> o = Outcome.win(BLACK, Termination.RESIGNATION, "Go §7")
>>> o.winner, o.result, o.is_decisive
(Color.BLACK, <Result.WIN: 'win'>, True)
>>> Outcome.from_json(o.to_json()) == o
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from duiyi import Color
from duiyi.errors import InvalidInput

__all__ = ["Outcome", "Result", "Termination"]


class Result(enum.Enum):
    """The kind of result a game can have."""

    WIN = "win"
    DRAW = "draw"
    NO_RESULT = "no_result"  # 无胜负, e.g. a full-board repetition under Japanese rules
    BOTH_LOSE = "both_lose"  # 双方判负 (Go §17.5; both too late, Gomoku §8.5)


class Termination(enum.Enum):
    """Why the game ended."""

    COUNT = "count"  # counted after the counting phase (Go §9, §21)
    RESIGNATION = "resignation"  # 中盘认输
    TIME = "time"  # time forfeit (Go §22, Gomoku §8)
    FORFEIT = "forfeit"  # no-show, lateness, disqualification
    WARNINGS = "warnings"  # second warning loses (Go §24.2), second violation (Gomoku §12)
    ADJUDICATION = "adjudication"  # arbiter's decision
    REPETITION = "repetition"  # full-board repetition with simple ko (Go §20)
    FIVE = "five"  # five in a row (Gomoku §10.1(1))
    FOUL = "foul"  # Black's forbidden move (Gomoku §10.1(2))
    PASSES = "passes"  # both passed in one round (Gomoku §10.2(2))
    FULL_BOARD = "full_board"  # no five on a full board (Gomoku §10.2(3))
    AGREEMENT = "agreement"  # agreed draw (Gomoku §10.2(1), offers §10.3)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won (if anyone), why, and the article that decides it.

    ``score`` carries a game-specific score object (for Go a ``duiyi.go.Score``) or ``None``.
    """

    result: Result
    termination: Termination
    article: str
    winner: Color | None = None
    score: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if (self.result is Result.WIN) != (self.winner is not None):
            raise InvalidInput("an outcome has a winner exactly when its result is a win")

    @classmethod
    def win(
        cls, winner: Color, termination: Termination, article: str, score: Any = None
    ) -> Outcome:
        """A decisive result.

        >>> from duiyi import WHITE
        >>> Outcome.win(WHITE, Termination.TIME, "Go §22").loser
        Color.BLACK
        """
        return cls(Result.WIN, termination, article, winner, score)

    @classmethod
    def draw(cls, termination: Termination, article: str, score: Any = None) -> Outcome:
        """A drawn game (和棋)."""
        return cls(Result.DRAW, termination, article, None, score)

    @property
    def is_decisive(self) -> bool:
        """True when one side won."""
        return self.result is Result.WIN

    @property
    def loser(self) -> Color | None:
        """The losing colour of a decisive game, else None."""
        return self.winner.opponent if self.winner is not None else None

    def describe(self) -> str:
        """The result in a few words, with how it ended and the article.

        >>> Outcome.win(Color.WHITE, Termination.RESIGNATION, "Go §7").describe()
        'white wins (resignation, Go §7)'
        """
        who = f"{self.winner} wins" if self.winner else self.result.value
        return f"{who} ({self.termination.value}, {self.article})"

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (the score is included when it has ``to_json``)."""
        data: dict[str, Any] = {
            "v": 1,
            "result": self.result.value,
            "termination": self.termination.value,
            "article": self.article,
            "winner": self.winner.value if self.winner else None,
        }
        if self.score is not None and hasattr(self.score, "to_json"):
            data["score"] = self.score.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """Rebuild an outcome written by :meth:`to_json` (the score stays as plain JSON)."""
        try:
            winner = Color(data["winner"]) if data.get("winner") else None
            return cls(
                Result(data["result"]),
                Termination(data["termination"]),
                str(data["article"]),
                winner,
                data.get("score"),
            )
        except (KeyError, ValueError) as exc:
            raise InvalidInput(f"not an outcome: {exc}") from exc
