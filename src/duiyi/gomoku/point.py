"""Points of the 15×15 Renju board, named as the 2013 rulebook names them (Gomoku §1).

Columns are the letters ``a``–``o`` from left to right (``i`` included, unlike Go's GTP letters),
rows are the numbers 1–15 from the bottom (Black's side) to the top; ``h8`` is the centre (天元).
A :class:`Point` is the small value ``Point(col, row)``, both 0-based from the bottom-left.

>>> p = Point.parse("h8")
>>> p, str(p), p.col, p.row, p.index
(Point.parse('h8'), 'h8', 7, 7, 112)
>>> Point.parse("I10") == Point(8, 9)
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from duiyi.errors import InvalidPoint

__all__ = [
    "CENTER",
    "COLUMN_LETTERS",
    "SIZE",
    "SYMMETRIES",
    "Point",
    "transform",
]

#: The board has 15 lines each way (Gomoku §1.1).
SIZE = 15
#: Column letters, index = column (Gomoku §1.1: A–O from left to right).
# the books' form of a point: one ASCII letter, one or two ASCII digits (str.isdigit also
# takes "²" and "٤", which int() reads or refuses)
_ASCII_POINT = re.compile(r"[a-z][0-9]{1,2}", re.ASCII)
COLUMN_LETTERS = "abcdefghijklmno"


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """One intersection of the Renju board (Gomoku §1.1).

    ``Point(col, row)`` is 0-based from the bottom-left corner ``a1``; ``str`` gives the book's
    name in lower case and ``repr`` gives code that rebuilds the value.

    >>> Point(0, 0), str(Point(14, 14))
    (Point.parse('a1'), 'o15')
    >>> Point.from_index(112)
    Point.parse('h8')
    """

    col: int
    row: int

    def __post_init__(self) -> None:
        if not (0 <= self.col < SIZE and 0 <= self.row < SIZE):
            raise InvalidPoint(
                f"point ({self.col}, {self.row}) is off the 15×15 board (Gomoku §1)", "Gomoku §1"
            )

    @classmethod
    def parse(cls, text: str | Point) -> Point:
        """Read a point such as ``"h8"``, ``"H8"`` or ``" o15 "`` (a Point is returned as is).

        >>> Point.parse("O15")
        Point.parse('o15')
        >>> Point.parse("p1")
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidPoint: not a point of the 15×15 board: 'p1' (columns a-o, rows 1-15; Gomoku §1)
        """
        if isinstance(text, Point):
            return text
        if not isinstance(text, str):
            raise InvalidPoint(f"not a point: {text!r} (expected text such as 'h8')", "Gomoku §1")
        t = text.strip().lower()
        if _ASCII_POINT.fullmatch(t) is None:
            # ASCII only: "h⁸", "h٨" (Arabic) or "ｈ8" (full width) are not the books' form
            raise InvalidPoint(
                f"not a point: {text!r} (expected an ASCII column letter a-o and a row number "
                "1-15 in ASCII digits, such as 'h8')",
                "Gomoku §1",
            )
        col = COLUMN_LETTERS.find(t[0])
        row = int(t[1:])
        if col < 0 or not 1 <= row <= SIZE:
            raise InvalidPoint(
                f"not a point of the 15×15 board: {text!r} (columns a-o, rows 1-15; Gomoku §1)",
                "Gomoku §1",
            )
        return cls(col, row - 1)

    @classmethod
    def from_index(cls, index: int) -> Point:
        """The point whose :attr:`index` is ``index`` (``row * 15 + col``).

        >>> Point.from_index(0)
        Point.parse('a1')
        """
        if not 0 <= index < SIZE * SIZE:
            raise InvalidPoint(f"point index {index} is off the 15×15 board", "Gomoku §1")
        return cls(index % SIZE, index // SIZE)

    @property
    def index(self) -> int:
        """``row * 15 + col``: 0 is ``a1``, 112 is ``h8``, 224 is ``o15``."""
        return self.row * SIZE + self.col

    def __str__(self) -> str:
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    def __repr__(self) -> str:
        return f"Point.parse({str(self)!r})"


#: The centre point h8 (天元).
CENTER = Point(7, 7)

_Transform = Callable[[int, int], tuple[int, int]]

#: The 8 symmetries of the square, as maps of offsets (dx, dy) from a centre; index 0 is the
#: identity, 1-3 are rotations by 90°, 180°, 270°, 4-7 are the four reflections.
SYMMETRIES: tuple[_Transform, ...] = (
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
)


def transform(point: Point, symmetry: int) -> Point:
    """Apply one of the 8 board symmetries (about h8) to ``point``.

    >>> transform(Point.parse("h9"), 1)  # rotate a quarter turn anticlockwise about h8
    Point.parse('g8')
    >>> {str(transform(Point.parse("a1"), s)) for s in range(8)} == {"a1", "a15", "o1", "o15"}
    True
    """
    dx, dy = SYMMETRIES[symmetry](point.col - CENTER.col, point.row - CENTER.row)
    return Point(CENTER.col + dx, CENTER.row + dy)
