"""Go positions as bitboards: captures (Go §3, §4), suicide (Go §5) and Zobrist hashing.

A :class:`Board` holds one Python ``int`` per colour. Bit ``row * (size + 1) + col`` stands for
``Point(col, row)``; the extra column of always-empty padding bits lets a whole set of stones grow
by one step with four shifts and a mask, so group and liberty searches run as a handful of big-int
operations in C. Neighbour masks, points and Zobrist keys are computed once per board size
(:func:`geometry`).

>>> b = Board.from_stones(5, black=["B2", "C1"], white=["B1"])
>>> print(b)
   A B C D E
 5 . . . . .  5
 4 . . . . .  4
 3 . . . . .  3
 2 . X . . .  2
 1 . O X . .  1
   A B C D E
>>> b.play("A1", BLACK)  # Go §4.1: White's B1 has no liberty left and is removed
frozenset({Point.parse('B1')})
>>> b.get("B1") is None
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from functools import cache
from itertools import compress
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.errors import IllegalMove, InvalidPoint
from duiyi.go.point import COLUMN_LETTERS, Point, check_size

__all__ = ["Board", "Geometry", "PointSet", "geometry"]

_BIT_TABLE = bytes.maketrans(b"01", b"\x00\x01")


class Geometry:
    """Everything about a board size that never changes, computed once (see :func:`geometry`).

    >>> g = geometry(9)
    >>> g.size, g.width, len(g.points), bin(g.neighbours[g.index(Point(0, 0))]).count("1")
    (9, 10, 81, 2)
    """

    __slots__ = (
        "bit_point",
        "black_keys",
        "neighbours",
        "on_board",
        "point_bit",
        "points",
        "side_key",
        "size",
        "white_keys",
        "width",
    )

    def __init__(self, size: int) -> None:
        check_size(size)
        self.size = size
        self.width = w = size + 1
        nbits = size * w
        self.points: tuple[Point, ...] = tuple(
            Point(c, r) for r in range(size) for c in range(size)
        )
        self.point_bit: dict[Point, int] = {p: p.row * w + p.col for p in self.points}
        self.bit_point: list[Point | None] = [None] * nbits
        for p, i in self.point_bit.items():
            self.bit_point[i] = p
        on = 0
        for i in self.point_bit.values():
            on |= 1 << i
        self.on_board = on
        nb = [0] * nbits
        for i in self.point_bit.values():
            m = 1 << i
            nb[i] = ((m << 1) | (m >> 1) | (m << w) | (m >> w)) & on
        self.neighbours: list[int] = nb
        rng = random.Random(f"duiyi-go-zobrist-{size}")  # fixed seed: keys equal in every run
        self.black_keys: list[int] = [rng.getrandbits(64) for _ in range(nbits)]
        self.white_keys: list[int] = [rng.getrandbits(64) for _ in range(nbits)]
        self.side_key: int = rng.getrandbits(64)

    def index(self, point: Point) -> int:
        """The bit index of ``point`` (raises InvalidPoint when it is off this board).

        >>> geometry(9).index(Point.parse("B1", 9))
        1
        """
        try:
            return self.point_bit[point]
        except KeyError:
            raise InvalidPoint(
                f"{point} is not a point of the {self.size}×{self.size} board", "Go §1"
            ) from None

    def expand(self, bits: int) -> int:
        """The set ``bits`` plus every point next to it (one flood step).

        >>> g = geometry(5)
        >>> g.expand(1 << g.index(Point(0, 0))) == (1 << 0) | (1 << 1) | (1 << 6)
        True
        """
        w = self.width
        return (bits | (bits << 1) | (bits >> 1) | (bits << w) | (bits >> w)) & self.on_board

    def points_of(self, bits: int) -> list[Point]:
        """The points whose bits are set in ``bits``, bottom row first.

        >>> geometry(5).points_of(0b11)
        [Point.parse('A1'), Point.parse('B1')]
        """
        # bit i is byte i of the reversed binary text, mapped to 0/1 and used as a selector
        flags = bin(bits)[:1:-1].encode().translate(_BIT_TABLE)
        return list(compress(self.bit_point, flags))  # type: ignore[arg-type]

    def bits_of(self, points: Iterable[Point]) -> int:
        """The bit set of ``points`` (each validated against this size).

        >>> geometry(5).bits_of([Point(0, 0), Point(0, 1)]) == 1 | 1 << 6
        True
        """
        bits = 0
        for p in points:
            bits |= 1 << self.index(p)
        return bits


@cache
def geometry(size: int) -> Geometry:
    """The cached :class:`Geometry` of a board size (5–25).

    >>> geometry(19) is geometry(19)
    True
    """
    return Geometry(size)


class PointSet(AbstractSet[Point]):
    """An immutable set of points of one board size, held as its bits (what the board's reads
    answer: :meth:`Board.stones`, :meth:`Board.empty_points`, :meth:`Board.neighbours`, ...).

    It is a set like ``frozenset`` (``in``, ``len``, iteration, comparisons and ``&``, ``|``,
    ``-``, ``^``, equal to and hashed like the ``frozenset`` of the same points), but building
    it copies one ``int``: no point is made or hashed until asked for. Iteration goes bottom row
    first, left to right; two sets of the same board size combine and compare by their bits.

    >>> s = PointSet.of(9, ["C3", "D4"])
    >>> s
    PointSet.of(9, ['C3', 'D4'])
    >>> Point.parse("C3") in s, "C3" in s, len(s), list(s)
    (True, False, 2, [Point.parse('C3'), Point.parse('D4')])
    >>> s == frozenset({Point.parse("D4"), Point.parse("C3")}), hash(s) == hash(frozenset(s))
    (True, True)
    >>> s & PointSet.of(9, ["D4", "E5"]), s <= PointSet.of(9, ["C3", "D4", "E5"])
    (PointSet.of(9, ['D4']), True)
    """

    __slots__ = ("_bits", "_geo")

    def __init__(self, geo: Geometry, bits: int) -> None:
        self._geo = geo
        self._bits = bits

    @classmethod
    def of(cls, size: int, points: Iterable[Point | str]) -> PointSet:
        """The set of ``points`` (GTP text or :class:`Point`) of a ``size`` board."""
        geo = geometry(size)
        return cls(
            geo, geo.bits_of(p if isinstance(p, Point) else Point.parse(p, size) for p in points)
        )

    @property
    def bits(self) -> int:
        """The points as a bitboard (the layout of :class:`Geometry`)."""
        return self._bits

    def __contains__(self, point: object) -> bool:
        i = self._geo.point_bit.get(point) if isinstance(point, Point) else None
        return i is not None and self._bits >> i & 1 == 1

    def __iter__(self) -> Iterator[Point]:
        return iter(self._geo.points_of(self._bits))

    def __len__(self) -> int:
        return self._bits.bit_count()

    def __bool__(self) -> bool:
        return self._bits != 0

    def _bits_of(self, other: object) -> int | None:
        """``other``'s bits when it is a set of the same board size, else None."""
        if isinstance(other, PointSet) and other._geo is self._geo:
            return other._bits
        return None

    def __eq__(self, other: object) -> bool:
        bits = self._bits_of(other)
        return super().__eq__(other) if bits is None else bits == self._bits

    def __hash__(self) -> int:
        return hash(frozenset(self))

    def __le__(self, other: AbstractSet[Any]) -> bool:
        bits = self._bits_of(other)
        return super().__le__(other) if bits is None else self._bits & ~bits == 0

    def __ge__(self, other: AbstractSet[Any]) -> bool:
        bits = self._bits_of(other)
        return super().__ge__(other) if bits is None else bits & ~self._bits == 0

    def __lt__(self, other: AbstractSet[Any]) -> bool:
        return self <= other and self != other

    def __gt__(self, other: AbstractSet[Any]) -> bool:
        return self >= other and self != other

    def isdisjoint(self, other: Iterable[Any]) -> bool:
        bits = self._bits_of(other)
        return super().isdisjoint(other) if bits is None else self._bits & bits == 0

    def __and__(self, other: AbstractSet[Any]) -> AbstractSet[Any]:
        bits = self._bits_of(other)
        return super().__and__(other) if bits is None else PointSet(self._geo, self._bits & bits)

    def __or__(self, other: AbstractSet[Any]) -> AbstractSet[Any]:
        bits = self._bits_of(other)
        return super().__or__(other) if bits is None else PointSet(self._geo, self._bits | bits)

    def __sub__(self, other: AbstractSet[Any]) -> AbstractSet[Any]:
        bits = self._bits_of(other)
        return super().__sub__(other) if bits is None else PointSet(self._geo, self._bits & ~bits)

    def __xor__(self, other: AbstractSet[Any]) -> AbstractSet[Any]:
        bits = self._bits_of(other)
        return super().__xor__(other) if bits is None else PointSet(self._geo, self._bits ^ bits)

    __rand__ = __and__
    __ror__ = __or__
    __rxor__ = __xor__

    # frozenset's named methods, which take any iterable
    def issubset(self, other: Iterable[Any]) -> bool:
        return self <= _as_set(other)

    def issuperset(self, other: Iterable[Any]) -> bool:
        return self >= _as_set(other)

    def union(self, *others: Iterable[Any]) -> AbstractSet[Any]:
        out: AbstractSet[Any] = self
        for other in others:
            out = out | _as_set(other)
        return out

    def intersection(self, *others: Iterable[Any]) -> AbstractSet[Any]:
        out: AbstractSet[Any] = self
        for other in others:
            out = out & _as_set(other)
        return out

    def difference(self, *others: Iterable[Any]) -> AbstractSet[Any]:
        out: AbstractSet[Any] = self
        for other in others:
            out = out - _as_set(other)
        return out

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> frozenset[Any]:
        # an operation with a set of another kind gives a frozenset, as frozenset's own do
        return frozenset(it)

    def __repr__(self) -> str:
        return f"PointSet.of({self._geo.size}, {[str(p) for p in self]!r})"


def _as_set(items: Iterable[Any]) -> AbstractSet[Any]:
    return items if isinstance(items, AbstractSet) else frozenset(items)


def _keys_of(bits: int, keys: list[int]) -> int:
    """The Zobrist keys of the stones in ``bits`` XORed together (``keys`` of one colour)."""
    h = 0
    while bits:
        low = bits & -bits
        h ^= keys[low.bit_length() - 1]
        bits ^= low
    return h


class Board:
    """A Go position: which points hold black or white stones (no side to move, no history).

    Boards compare equal when size and stones agree. ``hash`` is the Zobrist key of the stones.

    >>> b = Board(9)
    >>> b.play("E5", BLACK)
    frozenset()
    >>> b.get("E5"), len(b.empty_points())
    (Color.BLACK, 80)
    >>> b.copy() == b
    True
    """

    __slots__ = ("_black", "_geo", "_hash", "_white")

    def __init__(self, size: int = 19) -> None:
        self._geo = geometry(size)
        self._black = 0
        self._white = 0
        self._hash = 0

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_stones(
        cls,
        size: int = 19,
        black: Iterable[Point | str] = (),
        white: Iterable[Point | str] = (),
    ) -> Board:
        """A board with the given stones (no captures are made; points must be distinct).

        >>> Board.from_stones(9, black=["C3"], white=[Point(6, 6)]).stones(WHITE)
        PointSet.of(9, ['G7'])
        """
        b = cls(size)
        g = b._geo
        for p in black:
            b._put(b._index(p), BLACK)
        for p in white:
            i = b._index(p)
            if b._black >> i & 1:
                raise InvalidPoint(f"{g.bit_point[i]} cannot hold both colours")
            b._put(i, WHITE)
        return b

    @classmethod
    def from_bits(cls, size: int, black: int, white: int) -> Board:
        """A board from raw bitboards (the layout of :class:`Geometry`); for engines and tests.

        >>> b = Board.from_stones(9, black=["E5"])
        >>> Board.from_bits(9, b.black_bits, 0) == b
        True
        """
        b = cls(size)
        g = b._geo
        if black & white or (black | white) & ~g.on_board:
            raise InvalidPoint("bitboards overlap or use padding bits")
        b._black, b._white = black, white
        b._hash = _keys_of(black, g.black_keys) ^ _keys_of(white, g.white_keys)
        return b

    @classmethod
    def from_diagram(cls, text: str) -> Board:
        """A board from an ASCII diagram: rows top to bottom, ``X``/``#`` black,
        ``O`` white, ``.``/``+`` empty; spaces and coordinate labels are ignored.

        >>> Board.from_diagram('''
        ... . . . . .
        ... . X O . .
        ... . . . . .
        ... . . . . .
        ... . . . . .''').get("C4")
        Color.WHITE
        """
        rows: list[str] = []
        for line in text.strip("\n").splitlines():
            tokens = line.split()
            if tokens and tokens == list(COLUMN_LETTERS[: len(tokens)]):
                continue  # a column-label line
            cells = "".join(ch for ch in line if ch in ".+XO#")
            if cells:
                rows.append(cells)
        size = len(rows)
        check_size(size)
        if any(len(r) != size for r in rows):
            raise InvalidPoint(
                f"diagram is not square: {size} rows of lengths {[len(r) for r in rows]}"
            )
        black: list[Point] = []
        white: list[Point] = []
        for k, r in enumerate(rows):
            row = size - 1 - k
            for col, ch in enumerate(r):
                if ch in "X#":
                    black.append(Point(col, row))
                elif ch == "O":
                    white.append(Point(col, row))
        return cls.from_stones(size, black, white)

    def copy(self) -> Board:
        """An independent copy (three ints; cheap).

        >>> b = Board(9); c = b.copy(); c.play("E5", BLACK)
        frozenset()
        >>> b.get("E5") is None
        True
        """
        b = Board.__new__(Board)
        b._geo, b._black, b._white, b._hash = self._geo, self._black, self._white, self._hash
        return b

    # ------------------------------------------------------------------ queries
    @property
    def size(self) -> int:
        """Lines per side (5–25)."""
        return self._geo.size

    @property
    def geometry(self) -> Geometry:
        """The cached per-size tables."""
        return self._geo

    @property
    def black_bits(self) -> int:
        """Black stones as a bitboard."""
        return self._black

    @property
    def white_bits(self) -> int:
        """White stones as a bitboard."""
        return self._white

    @property
    def zobrist(self) -> int:
        """64-bit Zobrist key of the stones (equal positions have equal keys)."""
        return self._hash

    @property
    def hash(self) -> int:
        """Alias of :attr:`zobrist`."""
        return self._hash

    def _index(self, point: Point | str) -> int:
        if isinstance(point, str):
            point = Point.parse(point, self._geo.size)
        return self._geo.index(point)

    def get(self, point: Point | str) -> Color | None:
        """The colour on ``point``, or None when it is empty.

        >>> Board.from_stones(9, white=["C3"]).get("C3")
        Color.WHITE
        """
        i = self._index(point)
        if self._black >> i & 1:
            return BLACK
        if self._white >> i & 1:
            return WHITE
        return None

    def stones(self, color: Color) -> PointSet:
        """All points holding stones of ``color`` (a :class:`PointSet`: one int copied).

        >>> sorted(map(str, Board.from_stones(9, black=["C3", "D4"]).stones(BLACK)))
        ['C3', 'D4']
        """
        return PointSet(self._geo, self._black if color is BLACK else self._white)

    def empty_points(self) -> PointSet:
        """All empty points (a :class:`PointSet`, bottom row first: ``list()`` it to shuffle).

        >>> len(Board.from_stones(5, black=["C3"]).empty_points())
        24
        """
        return PointSet(self._geo, self._geo.on_board & ~(self._black | self._white))

    def count(self, color: Color) -> int:
        """Number of stones of ``color`` on the board.

        >>> Board.from_stones(9, black=["C3", "D4"]).count(BLACK)
        2
        """
        return (self._black if color is BLACK else self._white).bit_count()

    def neighbours(self, point: Point | str) -> PointSet:
        """The 2–4 points next to ``point`` along the lines (Go §3: 直线紧邻).

        >>> Board(9).neighbours("A1")
        PointSet.of(9, ['B1', 'A2'])
        """
        return PointSet(self._geo, self._geo.neighbours[self._index(point)])

    def group_bits(self, index: int) -> int:
        """The chain through bit ``index`` as a bitboard (0 when the point is empty).

        >>> b = Board.from_stones(5, black=["A1", "B1"])
        >>> b.group_bits(0) == 0b11
        True
        """
        m = 1 << index
        own = self._black if self._black & m else self._white if self._white & m else 0
        if not own:
            return 0
        return self._flood(m, own)

    def _flood(self, seed: int, own: int) -> int:
        g = self._geo
        w, on = g.width, g.on_board
        grp = seed
        while True:
            nxt = (grp | (grp << 1) | (grp >> 1) | (grp << w) | (grp >> w)) & own & on
            if nxt == grp:
                return grp
            grp = nxt

    def group(self, point: Point | str) -> PointSet:
        """The stones connected to ``point`` (Go §3: 相互连接成一个不可分割的整体); empty if none.

        >>> sorted(map(str, Board.from_stones(9, black=["C3", "C4", "E5"]).group("C3")))
        ['C3', 'C4']
        """
        return PointSet(self._geo, self.group_bits(self._index(point)))

    def liberties(self, point: Point | str) -> PointSet:
        """The liberties (气, Go §3) of the chain through ``point``.

        >>> sorted(map(str, Board.from_stones(9, black=["A1"], white=["A2"]).liberties("A1")))
        ['B1']
        """
        grp = self.group_bits(self._index(point))
        empty = self._geo.on_board & ~(self._black | self._white)
        return PointSet(self._geo, self._geo.expand(grp) & empty if grp else 0)

    def chains(self, color: Color) -> Iterator[PointSet]:
        """Every chain of ``color``, each as a set of points.

        >>> len(list(Board.from_stones(9, black=["C3", "C4", "E5"]).chains(BLACK)))
        2
        """
        rest = self._black if color is BLACK else self._white
        while rest:
            low = rest & -rest
            grp = self._flood(low, rest)
            rest &= ~grp
            yield PointSet(self._geo, grp)

    # ------------------------------------------------------------------ changes
    def _put(self, i: int, color: Color) -> None:
        m = 1 << i
        if (self._black | self._white) & m:
            raise InvalidPoint(f"{self._geo.bit_point[i]} already holds a stone")
        if color is BLACK:
            self._black |= m
            self._hash ^= self._geo.black_keys[i]
        else:
            self._white |= m
            self._hash ^= self._geo.white_keys[i]

    def _remove_bits(self, bits: int) -> None:
        g = self._geo
        self._hash ^= _keys_of(bits & self._black, g.black_keys)
        self._hash ^= _keys_of(bits & self._white, g.white_keys)
        self._black &= ~bits
        self._white &= ~bits

    def set(self, point: Point | str, color: Color | None) -> None:
        """Put a stone of ``color`` on ``point`` or empty it, without captures (SGF AB/AW/AE).

        >>> b = Board(9); b.set("E5", WHITE); b.set("E5", None); b.get("E5") is None
        True
        """
        i = self._index(point)
        self._remove_bits(1 << i)
        if color is not None:
            self._put(i, color)

    def try_play(
        self, index: int, black: bool, allow_suicide: bool = False
    ) -> tuple[int, int, int, int, int] | None:
        """Compute the position after a stone on bit ``index`` without changing the board.

        Returns ``(black_bits, white_bits, zobrist, captured_bits, self_captured_bits)`` or None
        when the move is suicide and suicide is not allowed (Go §5). The caller checks that the
        point is empty. Captures follow Go §4: the opponent's chains without liberties go first,
        and only then is the mover's own chain checked.

        >>> b = Board.from_stones(5, black=["B1"], white=["A1"])
        >>> black, white, key, captured, own = b.try_play(5 + 1, True)  # A2 captures A1
        >>> captured == 1 and white == 0
        True
        """
        g = self._geo
        m = 1 << index
        w, on = g.width, g.on_board
        if black:
            own, opp = self._black | m, self._white
            h = self._hash ^ g.black_keys[index]
            okeys = g.white_keys
        else:
            own, opp = self._white | m, self._black
            h = self._hash ^ g.white_keys[index]
            okeys = g.black_keys
        empty = on & ~(own | opp)
        captured = 0
        nbrs = g.neighbours
        adj = nbrs[index] & opp
        while adj:
            low = adj & -adj
            adj ^= low
            if nbrs[low.bit_length() - 1] & empty:
                continue  # this stone has a liberty of its own: its chain stays
            # flood the opponent chain, stopping as soon as it shows a liberty
            grp = low
            while True:
                fr = (grp | (grp << 1) | (grp >> 1) | (grp << w) | (grp >> w)) & on
                if fr & empty:
                    grp = 0
                    break
                nxt = fr & opp
                if nxt == grp:
                    break
                grp = nxt
            if grp:
                captured |= grp
                adj &= ~grp
        if captured:
            opp &= ~captured
            h ^= _keys_of(captured, okeys)
            # a capture always leaves the new stone a liberty
            return (own, opp, h, captured, 0) if black else (opp, own, h, captured, 0)
        if g.neighbours[index] & empty:
            return (own, opp, h, 0, 0) if black else (opp, own, h, 0, 0)
        grp = m
        while True:
            fr = (grp | (grp << 1) | (grp >> 1) | (grp << w) | (grp >> w)) & on
            if fr & empty:
                return (own, opp, h, 0, 0) if black else (opp, own, h, 0, 0)
            nxt = fr & own
            if nxt == grp:
                break
            grp = nxt
        if not allow_suicide:
            return None
        own &= ~grp
        h ^= _keys_of(grp, g.black_keys if black else g.white_keys)
        return (own, opp, h, 0, grp) if black else (opp, own, h, 0, grp)

    def play(
        self, point: Point | str, color: Color, allow_suicide: bool = False
    ) -> frozenset[Point]:
        """Place a stone and make the captures of Go §4; returns the captured points.

        Raises :class:`~duiyi.errors.IllegalMove` on an occupied point or on suicide (Go §5).
        Repetition is the game's business (:class:`~duiyi.go.Game`), not the board's.

        >>> b = Board.from_diagram('''
        ... . X . . .
        ... X . . . .
        ... . . . . .
        ... . . . . .
        ... . . . . .''')
        >>> b.play("A5", WHITE)
        Traceback (most recent call last):
        ...
        duiyi.errors.IllegalMove: illegal move A5: suicide (Go §5)
        """
        i = self._index(point)
        name = str(self._geo.bit_point[i])
        if (self._black | self._white) >> i & 1:
            raise IllegalMove("point is occupied", "Go §2", move=name)
        res = self.try_play(i, color is BLACK, allow_suicide)
        if res is None:
            raise IllegalMove("suicide", "Go §5", move=name)
        self._black, self._white, self._hash, captured, _ = res
        return frozenset(self._geo.points_of(captured))

    # ------------------------------------------------------------------ dunder
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._geo.size == other._geo.size
            and self._black == other._black
            and self._white == other._white
        )

    __hash__ = None  # type: ignore[assignment]  # boards are mutable

    def __str__(self) -> str:
        n = self._geo.size
        letters = " ".join(COLUMN_LETTERS[:n])
        lines = [f"   {letters}"]
        for row in range(n - 1, -1, -1):
            cells = []
            for col in range(n):
                i = row * (n + 1) + col
                cells.append("X" if self._black >> i & 1 else "O" if self._white >> i & 1 else ".")
            lines.append(f"{row + 1:>2} {' '.join(cells)}  {row + 1}")
        lines.append(f"   {letters}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        b = ",".join(sorted(map(str, self.stones(BLACK))))
        w = ",".join(sorted(map(str, self.stones(WHITE))))
        return f"<Board {self.size}×{self.size} black=[{b}] white=[{w}]>"
