"""The texts of a game's public state kept from one position to the next, so that building the
state after a move costs the move, not the whole game (issue 26: the state is built for every
update a socket gets, and a Go game has 250 moves and as many stones).

- :class:`GrowingTexts`: the texts of a list that grows and shrinks at its end (the moves).
- :class:`StoneTexts`: the sorted texts of one colour's stones, from its bit set.

Both give exactly what building the texts afresh gives; a history rebuilt from scratch (a
takeback replayed, a game reloaded) is noticed and built afresh.

>>> texts = GrowingTexts(str)
>>> moves = [1, 2]
>>> texts(moves)
['1', '2']
>>> moves.append(3)
>>> texts(moves)
['1', '2', '3']
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

__all__ = ["GrowingTexts", "StoneTexts"]

T = TypeVar("T")
# above this many changed points, the texts are built afresh rather than edited
_EDITS = 8


class GrowingTexts(Generic[T]):
    """``[text(item) for item in items]`` for a list that changes at its end only: the items
    already seen keep their text. An item is known by identity (a game appends a new object
    for each move and truncates on undo), so the longest kept prefix ends at the last item
    still the same object.

    >>> texts = GrowingTexts(lambda m: m.upper())
    >>> moves = ["d4", "q16"]
    >>> texts(moves)
    ['D4', 'Q16']
    >>> texts(moves[:1] + ["c3"])  # the second move taken back, another played
    ['D4', 'C3']
    """

    def __init__(self, text: Callable[[T], Any]) -> None:
        self._text = text
        self._items: list[T] = []
        self._texts: list[Any] = []

    def __call__(self, items: Sequence[T]) -> list[Any]:
        kept = min(len(self._items), len(items))
        while kept and self._items[kept - 1] is not items[kept - 1]:
            kept -= 1
        del self._items[kept:]
        del self._texts[kept:]
        for item in items[kept:]:
            self._items.append(item)
            self._texts.append(self._text(item))
        return list(self._texts)


class StoneTexts:
    """The sorted texts of the points in a bit set (one colour's stones), edited by the points
    added and removed since the last call (a move adds one, a capture removes a few).

    ``points_of(bits)`` gives the points of a bit set (the board's geometry).

    >>> from duiyi.go import Board
    >>> board = Board.from_stones(9, black=["C3", "D4"])
    >>> stones = StoneTexts(board.geometry.points_of)
    >>> stones(board.black_bits)
    ['C3', 'D4']
    >>> board.set("A9", board.get("C3")); board.set("C3", None)
    >>> stones(board.black_bits)
    ['A9', 'D4']
    """

    def __init__(self, points_of: Callable[[int], Sequence[object]]) -> None:
        self._points_of = points_of
        self._bits = 0
        self._texts: list[str] = []

    def __call__(self, bits: int) -> list[str]:
        added, removed = bits & ~self._bits, self._bits & ~bits
        if (added | removed).bit_count() > _EDITS:
            self._texts = sorted(str(p) for p in self._points_of(bits))
        else:
            if removed:
                gone = {str(p) for p in self._points_of(removed)}
                self._texts = [t for t in self._texts if t not in gone]
            for p in self._points_of(added):
                bisect.insort(self._texts, str(p))
        self._bits = bits
        return list(self._texts)
