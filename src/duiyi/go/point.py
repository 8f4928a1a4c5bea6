"""Points of the Go board, named the way the rulebook diagrams and GTP name them.

A :class:`Point` is a small value ``Point(col, row)``: both 0-based, columns left to right, rows
bottom to top, so ``"A1"`` is the bottom-left corner. Column letters skip ``I`` (GTP); the 25
letters ``A``–``Z`` without ``I`` cover the largest board duiyi accepts (25×25).

>>> p = Point.parse("D4")
>>> p, str(p), p.col, p.row
(Point.parse('D4'), 'D4', 3, 3)
>>> Point.parse("t19") == Point(18, 18)
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from duiyi.errors import InvalidPoint

__all__ = ["COLUMN_LETTERS", "MAX_SIZE", "MIN_SIZE", "Point", "check_size"]

#: Column letters in GTP order (no ``I``); index = column.
# the books' form of a point: one ASCII letter, one or two ASCII digits (str.isdigit also
# takes "²" and "٤", which int() reads or refuses)
_ASCII_POINT = re.compile(r"[A-Z][0-9]{1,2}", re.ASCII)
COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
#: Board sizes duiyi accepts (DECISIONS.md: any size 5–25, 19 by default).
MIN_SIZE = 5
MAX_SIZE = 25


def check_size(size: object) -> int:
    """Validate a board size (DECISIONS.md: 5–25) and return it.

    >>> check_size(13)
    13
    """
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidPoint(
            f"board size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {size!r}",
            "Go §1",
        )
    return size


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """One intersection of the board (Go §1: 点).

    ``Point(col, row)`` is 0-based from the bottom-left; ``str`` gives GTP text and ``repr``
    gives code that rebuilds the value.

    >>> Point(0, 0)
    Point.parse('A1')
    >>> str(Point(8, 9))
    'J10'
    """

    col: int
    row: int

    def __post_init__(self) -> None:
        if not (0 <= self.col < MAX_SIZE and 0 <= self.row < MAX_SIZE):
            raise InvalidPoint(f"point ({self.col}, {self.row}) is off every board (max 25×25)")

    @classmethod
    def parse(cls, text: str, size: int = 19) -> Point:
        """Read GTP text such as ``"D4"`` or ``"q16"``, checked against a board ``size``.

        >>> Point.parse("K10")
        Point.parse('K10')
        >>> Point.parse("I5")
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidPoint: not a point: 'I5' (GTP column letters skip I)
        """
        check_size(size)
        if not isinstance(text, str):
            raise InvalidPoint(f"not a point: {text!r} (expected text such as 'D4')")
        t = text.strip().upper()
        if _ASCII_POINT.fullmatch(t) is None:
            # ASCII only: "D²", "D٤" (Arabic) or "Ｄ4" (full width) are not the books' form
            raise InvalidPoint(
                f"not a point: {text!r} (expected an ASCII column letter A-Z without I and a "
                "row number in ASCII digits, such as 'D4')"
            )
        letter, number = t[0], int(t[1:])
        if letter == "I":
            raise InvalidPoint(f"not a point: {text!r} (GTP column letters skip I)")
        col = COLUMN_LETTERS.find(letter)
        if col < 0 or col >= size or not 1 <= number <= size:
            raise InvalidPoint(f"not a point of the {size}×{size} board: {text!r}", "Go §1")
        return cls(col, number - 1)

    def on_board(self, size: int) -> bool:
        """True when the point lies on a ``size``×``size`` board.

        >>> Point(9, 9).on_board(9), Point(8, 8).on_board(9)
        (False, True)
        """
        return self.col < size and self.row < size

    def __str__(self) -> str:
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    def __repr__(self) -> str:
        if self.col < 19 and self.row < 19:
            return f"Point.parse({str(self)!r})"
        return f"Point.parse({str(self)!r}, size=25)"
