"""Handicap stone placement and nigiri (猜先, Go §10).

Fixed handicap stones follow the GTP convention (the same points GNU Go places): star points on
the 4th line from 12×12 up, the 3rd line on 7×7 to 11×11; up to 9 stones on odd boards from 9×9
and up to 4 on even boards and 7×7; none below 7×7 (use free placement there).

>>> [str(p) for p in fixed_handicap_points(19, 4)]
['D4', 'Q16', 'D16', 'Q4']
>>> [str(p) for p in fixed_handicap_points(9, 5)]
['C3', 'G7', 'C7', 'G3', 'E5']
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput
from duiyi.go.point import Point, check_size

__all__ = [
    "NigiriResult",
    "Parity",
    "choose_holder",
    "fixed_handicap_points",
    "max_fixed_handicap",
    "nigiri",
]


def max_fixed_handicap(size: int) -> int:
    """The largest fixed handicap for a board size (0 below 7×7).

    >>> max_fixed_handicap(19), max_fixed_handicap(10), max_fixed_handicap(7), max_fixed_handicap(6)
    (9, 4, 4, 0)
    """
    check_size(size)
    if size < 7:
        return 0
    if size % 2 == 1 and size >= 9:
        return 9
    return 4


def fixed_handicap_points(size: int, handicap: int) -> tuple[Point, ...]:
    """The star points for ``handicap`` fixed stones (2–9) on a ``size`` board, in GTP order.

    >>> [str(p) for p in fixed_handicap_points(13, 3)]
    ['D4', 'K10', 'D10']
    """
    limit = max_fixed_handicap(size)
    if not 2 <= handicap <= limit:
        raise InvalidInput(
            f"a fixed handicap on {size}×{size} must be 2–{limit} stones, got {handicap}"
            if limit
            else f"no fixed handicap on {size}×{size}: place the stones freely"
        )
    edge = 3 if size >= 12 else 2
    lo, hi, mid = edge, size - 1 - edge, size // 2
    corners = [Point(lo, lo), Point(hi, hi), Point(lo, hi), Point(hi, lo)]
    sides = [Point(lo, mid), Point(hi, mid)]
    tops = [Point(mid, lo), Point(mid, hi)]
    centre = Point(mid, mid)
    if handicap <= 4:
        pts = corners[:handicap]
    elif handicap == 5:
        pts = [*corners, centre]
    elif handicap == 6:
        pts = [*corners, *sides]
    elif handicap == 7:
        pts = [*corners, *sides, centre]
    elif handicap == 8:
        pts = [*corners, *sides, *tops]
    else:
        pts = [*corners, *sides, *tops, centre]
    return tuple(pts)


class Parity(enum.Enum):
    """The guesser's call in nigiri (Go §10): one black stone = odd, two = even.

    >>> Parity.EVEN.stones_shown
    2
    """

    ODD = 1
    EVEN = 2

    @property
    def stones_shown(self) -> int:
        """How many black stones the guesser shows for this call."""
        return self.value


@dataclass(frozen=True)
class NigiriResult:
    """What happened in a nigiri (Go §10).

    ``held`` white stones were in the holder's hand; the guesser called ``guess`` by showing one
    (odd) or two (even) black stones. The guesser takes Black when the call is right.

    >>> r = NigiriResult(held=7, guess=Parity.ODD)
    >>> r.guessed_right, r.guesser_color, r.holder_color
    (True, Color.BLACK, Color.WHITE)
    """

    held: int
    guess: Parity

    @property
    def parity(self) -> Parity:
        """The parity of the stones actually held."""
        return Parity.ODD if self.held % 2 == 1 else Parity.EVEN

    @property
    def guessed_right(self) -> bool:
        """True when the guesser's call matches the stones held."""
        return self.parity is self.guess

    @property
    def guesser_color(self) -> Color:
        """Black if the call was right (奇数则己方执黑…), else White."""
        return BLACK if self.guessed_right else WHITE

    @property
    def holder_color(self) -> Color:
        """The other colour."""
        return self.guesser_color.opponent


def nigiri(rng: random.Random, guess: Parity | None = None, max_held: int = 30) -> NigiriResult:
    """Run a nigiri (Go §10) with an injected random source.

    The holder (the higher-ranked player, or the elder at equal rank: :func:`choose_holder`)
    grabs 1–``max_held`` white stones; the guesser shows one black stone to call "odd" or two
    to call "even" (``guess``; drawn from ``rng`` when None). The held stones are then shown:
    a right call gives the guesser Black.

    >>> r = nigiri(random.Random(3), guess=Parity.EVEN)
    >>> r.guess, r.guesser_color is (BLACK if r.held % 2 == 0 else WHITE)
    (<Parity.EVEN: 2>, True)
    """
    if max_held < 1:
        raise InvalidInput("the holder must grab at least one stone")
    held = rng.randint(1, max_held)
    if guess is None:
        guess = rng.choice([Parity.ODD, Parity.EVEN])
    return NigiriResult(held=held, guess=guess)


def choose_holder(rank_a: int, rank_b: int, a_is_older: bool) -> str:
    """Who holds the white stones in nigiri (Go §10): the higher rank, else the elder.

    Ranks are numbers where larger is stronger (e.g. dan grades). Returns ``"a"`` or ``"b"``.

    >>> choose_holder(5, 3, a_is_older=False), choose_holder(2, 2, a_is_older=False)
    ('a', 'b')
    """
    if rank_a != rank_b:
        return "a" if rank_a > rank_b else "b"
    return "a" if a_is_older else "b"
