"""Multi-game matches, 多局决胜制 (Go §26.5; Gomoku §5.1(2), §17.6).

Each refusal cites the event's own book (:attr:`GameType.match_article`: Go §26.5, Gomoku
§17.6). A final may be played as best of 3 (3局2胜) up to best of 7 (7局4胜). The first game's colours
come from guessing (Go §10 nigiri; Gomoku §5.1(1), §5.3(1) hand count) or are given; later games alternate (Gomoku §5.1(2):
以后各局则互换先后手). A win scores 1, a draw ½; the match is decided as soon as one side
cannot be caught, and games after that are not played. A match tied after all games needs a
play-off under the event's own rules (Go §27.3); :func:`match_status` reports it as tied.

>>> games = match_schedule(1, 2, 3, first_black=2)
>>> [(g.game, g.black, g.white) for g in games]
[(1, 2, 1), (2, 1, 2), (3, 2, 1)]
>>> match_status(1, 2, 3, [1, 1]).winner
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from duiyi.errors import InvalidInput
from duiyi.games import GameType
from duiyi.games import get as get_game

from .common import guess_colours

__all__ = ["MatchGame", "MatchStatus", "match_schedule", "match_status", "wins_needed"]


@dataclass(frozen=True)
class MatchGame:
    """Game ``game`` (1-based) of a match: who has Black and White."""

    game: int
    black: int
    white: int


@dataclass(frozen=True)
class MatchStatus:
    """Points so far, whether the match is decided, and its winner (``None``: open or tied)."""

    points: tuple[Fraction, Fraction]
    played: int
    decided: bool
    winner: int | None
    tied: bool


def _article(game: GameType | str) -> str:
    """The article of a match in ``game``'s book."""
    return get_game(game).match_article


def wins_needed(games: int, game: GameType | str = "go") -> int:
    """Wins that decide a best-of-``games`` match (3 → 2, 5 → 3, 7 → 4); a refusal cites
    ``game``'s book.

    >>> wins_needed(7)
    4
    >>> wins_needed(4, "gomoku")
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: a match is best of 3, 5 or 7 games (3局2胜 to 7局4胜), got 4 (Gomoku §17.6)
    """
    if games not in (3, 5, 7):
        raise InvalidInput(
            f"a match is best of 3, 5 or 7 games (3局2胜 to 7局4胜), got {games}",
            _article(game),
        )
    return games // 2 + 1


def match_schedule(
    a: int,
    b: int,
    games: int,
    *,
    first_black: int | None = None,
    rng: random.Random | None = None,
    game: GameType | str = "go",
) -> tuple[MatchGame, ...]:
    """Colours for every game of an ``a`` v ``b`` match: the first by ``first_black`` or
    guessed by ``game``'s method (:func:`guess_colours`: Go §10 nigiri, ``a`` taken as the
    higher-ranked who grabs the stones; Gomoku §5.3(1) hand count), then alternating (Gomoku
    §5.1(2)).

    >>> [g.black for g in match_schedule(5, 9, 5, rng=random.Random(0))][:2] in ([5, 9], [9, 5])
    True
    """
    wins_needed(games, game)
    if a == b:
        raise InvalidInput("a match needs two different players", _article(game))
    if first_black is None:
        if rng is None:
            raise InvalidInput(
                "give first_black or a random.Random to guess colours",
                get_game(game).guess_article,
            )
        first_black = guess_colours(game, a, b, rng)[0][0]
    if first_black not in (a, b):
        raise InvalidInput(f"first_black must be {a} or {b}", _article(game))
    other = b if first_black == a else a
    return tuple(
        MatchGame(k, first_black, other) if k % 2 else MatchGame(k, other, first_black)
        for k in range(1, games + 1)
    )


def match_status(
    a: int, b: int, games: int, winners: Sequence[int | None], game: GameType | str = "go"
) -> MatchStatus:
    """The state of the match after the results so far (``None`` = a draw); a refusal cites
    ``game``'s book.

    >>> s = match_status(1, 2, 5, [1, None, 2, 2])
    >>> s.points, s.decided
    ((Fraction(3, 2), Fraction(5, 2)), False)
    """
    article = _article(game)
    wins_needed(games, game)
    if len(winners) > games:
        raise InvalidInput(f"{len(winners)} results for a best of {games}", article)
    pa = pb = Fraction(0)
    half = Fraction(games, 2)
    for k, w in enumerate(winners, start=1):
        if pa > half or pb > half:
            raise InvalidInput(f"game {k} was played after the match was decided", article)
        if w is None:
            pa += Fraction(1, 2)
            pb += Fraction(1, 2)
        elif w == a:
            pa += 1
        elif w == b:
            pb += 1
        else:
            raise InvalidInput(f"game {k}: winner {w} is not in the match", article)
    winner = a if pa > half else b if pb > half else None
    played = len(winners)
    tied = winner is None and played == games
    return MatchStatus((pa, pb), played, winner is not None or tied, winner, tied)
