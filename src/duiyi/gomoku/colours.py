"""Who takes Black (Gomoku §5.3 猜先方法): the players' hand count, or the arbiter's coin.

Gomoku §5.3(1): both players hold stones in their hands; an odd total gives Black to the player
holding black stones, an even total swaps colours (:func:`hand_count`).

Gomoku §5.3(2): the arbiter tosses the 挑边器 (a two-faced coin) and one player calls it; whoever
wins the call (中猜者) has three choices: A take Black, B take White, C make the opponent
choose first, and then the opponent must choose (:func:`coin_toss`, :meth:`CoinToss.colours`).

Players are any values (names, numbers); randomness comes only from the ``random.Random``
passed in.

>>> import random
>>> toss = coin_toss("Li", "Wang", random.Random(0), call=Face.HEADS)  # tails came up
>>> toss.winner, toss.loser
('Wang', 'Li')
>>> toss.colours(CoinChoice.OPPONENT_FIRST, opponent_takes=Color.WHITE)  # (black, white)
('Wang', 'Li')
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Generic, TypeVar

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput

__all__ = ["CoinChoice", "CoinToss", "Face", "coin_toss", "hand_count"]

P = TypeVar("P")


class Face(enum.Enum):
    """The two faces of the arbiter's 挑边器."""

    HEADS = "heads"
    TAILS = "tails"


class CoinChoice(enum.Enum):
    """The three choices of the player who won the call (Gomoku §5.3(2) A, B, C)."""

    BLACK = "black"  # A 使用黑棋
    WHITE = "white"  # B 使用白棋
    OPPONENT_FIRST = "opponent_first"  # C 要求对方先行选择，则对方必须先选择


@dataclass(frozen=True)
class CoinToss(Generic[P]):
    """The arbiter's toss (Gomoku §5.3(2)): ``caller`` called ``call``, the coin showed
    ``face``; ``other`` is the other player.

    >>> t = CoinToss("a", "b", Face.TAILS, Face.TAILS)
    >>> t.winner, t.colours(CoinChoice.WHITE)
    ('a', ('b', 'a'))
    """

    caller: P
    other: P
    call: Face
    face: Face

    @property
    def winner(self) -> P:
        """The player who won the call (中猜者)."""
        return self.caller if self.call is self.face else self.other

    @property
    def loser(self) -> P:
        """The other player."""
        return self.other if self.call is self.face else self.caller

    def colours(self, choice: CoinChoice, opponent_takes: Color | None = None) -> tuple[P, P]:
        """``(black, white)`` after the winner's ``choice``. With C
        (:attr:`CoinChoice.OPPONENT_FIRST`) the opponent must choose first: ``opponent_takes``
        is the colour it chose, and the winner has the other; with A or B the opponent has no
        choice to make.

        >>> t = CoinToss(1, 2, Face.HEADS, Face.HEADS)
        >>> t.colours(CoinChoice.BLACK), t.colours(CoinChoice.OPPONENT_FIRST, BLACK)
        ((1, 2), (2, 1))
        """
        if not isinstance(choice, CoinChoice):
            raise InvalidInput(f"not a Gomoku §5.3(2) choice: {choice!r}", "Gomoku §5.3(2)")
        if choice is CoinChoice.OPPONENT_FIRST:
            if not isinstance(opponent_takes, Color):
                raise InvalidInput(
                    "the winner asked the opponent to choose first: the opponent must choose "
                    "Black or White (Gomoku §5.3(2)C)",
                    "Gomoku §5.3(2)",
                )
            winner_takes = opponent_takes.opponent
        else:
            if opponent_takes is not None:
                raise InvalidInput(
                    "the winner chose a colour (Gomoku §5.3(2)A/B): the opponent has no choice",
                    "Gomoku §5.3(2)",
                )
            winner_takes = BLACK if choice is CoinChoice.BLACK else WHITE
        if winner_takes is BLACK:
            return (self.winner, self.loser)
        return (self.loser, self.winner)


def coin_toss(caller: P, other: P, rng: random.Random, *, call: Face | None = None) -> CoinToss[P]:
    """The arbiter tosses the 挑边器 and ``caller`` calls a face (``call``, or drawn from
    ``rng``), Gomoku §5.3(2). Who won the call then chooses with :meth:`CoinToss.colours`.

    >>> t = coin_toss("a", "b", random.Random(1), call=Face.TAILS)
    >>> t.winner == ("a" if t.face is Face.TAILS else "b")
    True
    """
    if caller == other:
        raise InvalidInput("the coin is tossed between two different players", "Gomoku §5.3(2)")
    face = rng.choice((Face.HEADS, Face.TAILS))
    if call is None:
        call = rng.choice((Face.HEADS, Face.TAILS))
    elif not isinstance(call, Face):
        raise InvalidInput(f"a call is heads or tails, got {call!r}", "Gomoku §5.3(2)")
    return CoinToss(caller, other, call, face)


def hand_count(holds_black: P, holds_white: P, black_stones: int, white_stones: int) -> tuple[P, P]:
    """Gomoku §5.3(1): each player holds some stones of its colour in the hand; an odd total
    gives Black to the player holding the black stones, an even total swaps the colours.
    Returns ``(black, white)``.

    >>> hand_count("a", "b", 3, 4), hand_count("a", "b", 3, 5)
    (('a', 'b'), ('b', 'a'))
    """
    for n in (black_stones, white_stones):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidInput(f"a hand holds at least one stone, got {n!r}", "Gomoku §5.3(1)")
    if (black_stones + white_stones) % 2 == 1:
        return (holds_black, holds_white)
    return (holds_white, holds_black)
