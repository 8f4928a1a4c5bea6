"""Black's forbidden moves (禁手, Gomoku §2.19) and five first (Gomoku §10.1).

The reading is the one of docs/decisions.md (the Renju International Federation's):

* **overline** (长连): the stone makes six or more in a row;
* **double-four** (四四): the stone makes two or more fours, live or not, two fours on one line
  included (``X.XXX.X`` with the new stone in the middle);
* **double-three** (三三): the stone makes two or more *live* threes, each containing it. A three
  is live only if one more black stone makes a straight four (two points to make five) and that
  stone is itself not forbidden, which is decided recursively; a stone that makes a five is
  never forbidden;
* **five first**: a stone that makes exactly five is never forbidden, whatever else it makes.

How it is fast: every point sees, along each of its four lines, an 11-point window (5 points
each side, 2 bits a point, walls beyond the edge count as white). A window's meaning for a black
stone at its centre is computed once and cached in :data:`_TABLE`: five / overline / number of
fours / "three" with the offsets of the points that make it a straight four. A whole-board map
is then 4 dictionary look-ups per empty point; only real double-three candidates recurse.

>>> from duiyi.gomoku.board import Board
>>> b = Board.from_moves("h8 a1 i9 a2 j8 a3 i7")    # black h8 i9 j8 i7 around the empty i8
>>> foul(b, "i8")                                    # a three on the row and one on the column
<Foul.DOUBLE_THREE: 'double-three'>
>>> foul(b.transformed(5), "i8") == foul(b, "i8")    # any of the 8 symmetries: same answer
True
>>> forbidden_points(Board.from_moves("h8 a1 i8 a3 h9 a5 i10"))
{'g8': <Foul.DOUBLE_THREE: 'double-three'>}
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from duiyi import Color
from duiyi.errors import IllegalMove
from duiyi.gomoku.board import (
    BLACK_CELL,
    DIRECTION_NAMES,
    PAD,
    STEPS,
    WINDOW_MASK,
    WINDOWS,
    Board,
)
from duiyi.gomoku.point import Point

__all__ = [
    "Foul",
    "FoulExplanation",
    "LinePattern",
    "explain_foul",
    "forbidden_points",
    "foul",
    "makes_five",
]


class Foul(enum.Enum):
    """The three kinds of forbidden move (Gomoku §2.19).

    >>> Foul("double-four").zh, Foul.OVERLINE.article
    ('四四禁手', 'Gomoku §2.19')
    """

    DOUBLE_THREE = "double-three"
    DOUBLE_FOUR = "double-four"
    OVERLINE = "overline"

    @property
    def zh(self) -> str:
        """The book's name."""
        return {"double-three": "三三禁手", "double-four": "四四禁手", "overline": "长连禁手"}[
            self.value
        ]

    @property
    def article(self) -> str:
        """Where the book defines it."""
        return "Gomoku §2.19"

    def __str__(self) -> str:
        return self.value


# Bits of a window's value in the table.
_FIVE = 1
_OVER = 2
_FOUR_SHIFT = 2  # bits 2-3: number of fours through the centre (0-2)
_THREE = 16  # a straight four can be made in this line (with no four there yet)
_CODES: tuple[Foul | None, ...] = (None, Foul.DOUBLE_THREE, Foul.DOUBLE_FOUR, Foul.OVERLINE)
_PLACE_SHIFT = 2 * PAD


def _completions(c: list[int]) -> list[int]:
    """Window indices whose black stone makes exactly five through the centre (index 5)."""
    out = []
    for e in range(1, 10):
        if c[e]:
            continue
        c[e] = BLACK_CELL
        lo = hi = e
        while lo > 0 and c[lo - 1] == BLACK_CELL:
            lo -= 1
        while hi < 10 and c[hi + 1] == BLACK_CELL:
            hi += 1
        # a run touching the window's edge has 6+ stones once it also holds the centre
        if hi - lo == 4 and lo <= 5 <= hi and lo > 0 and hi < 10:
            out.append(e)
        c[e] = 0
    return out


def _analyse(key: int) -> tuple[int, tuple[int, ...]]:
    """What a black stone at the centre of the 11-point window ``key`` makes along that line."""
    c = [(key >> (2 * i)) & 3 for i in range(11)]
    c[5] = BLACK_CELL
    lo = hi = 5
    while lo > 0 and c[lo - 1] == BLACK_CELL:
        lo -= 1
    while hi < 10 and c[hi + 1] == BLACK_CELL:
        hi += 1
    run = hi - lo + 1
    if run >= 6:
        return _OVER, ()
    if run == 5:
        return _FIVE, ()
    comp = _completions(c)
    if comp:
        fours = 1 if len(comp) == 2 and comp[1] - comp[0] == 5 else len(comp)
        return fours << _FOUR_SHIFT, ()
    qs = []
    for q in range(1, 10):
        if c[q]:
            continue
        c[q] = BLACK_CELL
        comp = _completions(c)
        if len(comp) == 2 and comp[1] - comp[0] == 5:
            qs.append(q - 5)
        c[q] = 0
    return (_THREE if qs else 0), tuple(qs)


class _Table(dict[int, int]):
    """Window code → bits; filled on first use (at most a few thousand entries in practice)."""

    def __missing__(self, key: int) -> int:
        value, qs = _analyse(key)
        self[key] = value
        if qs:
            _CANDIDATES[key] = qs
        return value


_TABLE = _Table()
_CANDIDATES: dict[int, tuple[int, ...]] = {}


def _classify(lines: list[int], idx: int) -> int:
    """0, or 1/2/3 for double-three/double-four/overline of a black stone at empty ``idx``."""
    table = _TABLE
    (l0, s0), (l1, s1), (l2, s2), (l3, s3) = WINDOWS[idx]
    v0 = table[(lines[l0] >> s0) & WINDOW_MASK]
    v1 = table[(lines[l1] >> s1) & WINDOW_MASK]
    v2 = table[(lines[l2] >> s2) & WINDOW_MASK]
    v3 = table[(lines[l3] >> s3) & WINDOW_MASK]
    v = v0 | v1 | v2 | v3
    if v == 0 or v & _FIVE:
        return 0
    return _decide(lines, idx, v, (v0, v1, v2, v3))


def _decide(lines: list[int], idx: int, v: int, vs: tuple[int, int, int, int]) -> int:
    if v & _OVER:
        return 3
    if sum((x >> _FOUR_SHIFT) & 3 for x in vs) >= 2:
        return 2
    three_dirs = [d for d in range(4) if vs[d] & _THREE]
    if len(three_dirs) < 2:
        return 0
    # Recursion: a three is live only if one of its straight-four points is not forbidden.
    wins = WINDOWS[idx]
    for lid, sh in wins:
        lines[lid] |= BLACK_CELL << (sh + _PLACE_SHIFT)
    live = 0
    try:
        for d in three_dirs:
            lid, sh = wins[d]
            for off in _CANDIDATES[(lines[lid] >> sh) & WINDOW_MASK & ~(3 << 10)]:
                if _classify(lines, idx + off * STEPS[d]) == 0:
                    live += 1
                    break
            if live >= 2:
                break
    finally:
        for lid, sh in wins:
            lines[lid] &= ~(3 << (sh + _PLACE_SHIFT))
    return 1 if live >= 2 else 0


def _index(board: Board, point: str | Point) -> int:
    p = Point.parse(point)
    if board._cells[p.index]:
        raise IllegalMove("the point is occupied", "Gomoku §4.2", move=str(p), code="move-occupied")
    return p.index


def foul(board: Board, point: str | Point) -> Foul | None:
    """The foul a black stone on the empty ``point`` would be, or None (Gomoku §2.19, §10.1).

    >>> b = Board.from_stones(black=["f8", "g8", "i8", "j8", "k8"], white=[])
    >>> foul(b, "h8")                       # six in a row
    <Foul.OVERLINE: 'overline'>
    >>> foul(Board.from_stones(black=["d8", "e8", "f8", "g8", "h9", "h10", "h11"]), "h8")
    >>> # five on the row with a four on the column: five first, no foul
    """
    idx = _index(board, point)
    return _CODES[_classify(board._lines, idx)]


def forbidden_points(board: Board) -> dict[str, Foul]:
    """Every empty point where Black may not play, by point name (Gomoku §2.19).

    >>> forbidden_points(Board.from_moves("h8"))
    {}
    """
    lines = board._lines
    cells = board._cells
    table = _TABLE
    mask = WINDOW_MASK
    out: dict[str, Foul] = {}
    for idx in range(len(cells)):
        if cells[idx]:
            continue
        (l0, s0), (l1, s1), (l2, s2), (l3, s3) = WINDOWS[idx]
        v0 = table[(lines[l0] >> s0) & mask]
        v1 = table[(lines[l1] >> s1) & mask]
        v2 = table[(lines[l2] >> s2) & mask]
        v3 = table[(lines[l3] >> s3) & mask]
        v = v0 | v1 | v2 | v3
        if v == 0 or v & _FIVE:
            continue
        code = _decide(lines, idx, v, (v0, v1, v2, v3))
        if code:
            out[str(Point.from_index(idx))] = _CODES[code]  # type: ignore[assignment]
    return out


def makes_five(board: Board, point: str | Point, color: Color, *, exact: bool) -> bool:
    """True when a ``color`` stone on ``point`` makes five in a row (Gomoku §2.7, §10.1);
    with ``exact`` an overline (six or more) does not count.

    >>> b = Board.from_stones(white=["a1", "a2", "a3", "a4", "a6"])
    >>> makes_five(b, "a5", Color.WHITE, exact=False), makes_five(b, "a5", Color.WHITE, exact=True)
    (True, False)
    """
    p = Point.parse(point)
    if not exact:
        return board.run_length(p, color) >= 5
    return _exact_five(board, p, color)


def _exact_five(board: Board, p: Point, color: Color) -> bool:
    v = 1 if color is Color.BLACK else 2
    cells = board._cells
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sgn in (1, -1):
            x, y = p.col + sgn * dx, p.row + sgn * dy
            while 0 <= x < 15 and 0 <= y < 15 and cells[y * 15 + x] == v:
                n += 1
                x, y = x + sgn * dx, y + sgn * dy
        if n == 5:
            return True
    return False


@dataclass(frozen=True)
class LinePattern:
    """One pattern along one line through the examined point.

    ``kind`` is ``"five"``, ``"overline"``, ``"four"``, ``"straight four"``, ``"live three"``
    or ``"dead three"`` (a three whose straight-four points are all forbidden); ``stones`` are
    the black stones of the pattern (the examined point included) and ``key_points`` the points
    that make it a five (for fours) or a straight four (for threes).
    """

    direction: str
    kind: str
    stones: tuple[Point, ...]
    key_points: tuple[Point, ...] = ()

    def __str__(self) -> str:
        stones = "-".join(str(p) for p in self.stones)
        text = f"{self.kind} {stones} on the {self.direction}"
        if self.key_points:
            what = "five at" if "four" in self.kind or "over" in self.kind else "straight four at"
            text += f" ({what} {', '.join(str(p) for p in self.key_points)})"
        return text


@dataclass(frozen=True)
class FoulExplanation:
    """Why a point is forbidden: the foul and the lines that make it.

    >>> b = Board.from_moves("h8 a1 i8 a3 h9 a5 i10")
    >>> print(explain_foul(b, "g8"))  # doctest: +NORMALIZE_WHITESPACE
    g8 is a double-three (三三禁手, Gomoku §2.19): live three g8-h8-i8 on the row
    (straight four at f8, j8); live three g8-h9-i10 on the diagonal (straight four at f7, j11)
    """

    point: Point
    foul: Foul
    lines: tuple[LinePattern, ...]

    def __str__(self) -> str:
        body = "; ".join(str(line) for line in self.lines)
        a = "an" if self.foul is Foul.OVERLINE else "a"
        return (
            f"{self.point} is {a} {self.foul.value} ({self.foul.zh}, {self.foul.article}): {body}"
        )


def explain_foul(board: Board, point: str | Point) -> FoulExplanation | None:
    """Which lines make ``point`` forbidden for Black, or None when it is not.

    >>> b = Board.from_stones(black=["f8", "g8", "i8", "j8", "k8"])
    >>> print(explain_foul(b, "h8"))
    h8 is an overline (长连禁手, Gomoku §2.19): overline f8-g8-h8-i8-j8-k8 on the row
    """
    idx = _index(board, point)
    code = _classify(board._lines, idx)
    if not code:
        return None
    found = _CODES[code]
    assert found is not None
    lines = board._lines
    patterns: list[LinePattern] = []
    for d, (lid, sh) in enumerate(WINDOWS[idx]):
        key = (lines[lid] >> sh) & WINDOW_MASK
        value = _TABLE[key]
        c = [(key >> (2 * i)) & 3 for i in range(11)]
        c[5] = BLACK_CELL

        def at(i: int, d: int = d) -> Point:
            return Point.from_index(idx + (i - 5) * STEPS[d])

        name = DIRECTION_NAMES[d]
        if value & _OVER and found is Foul.OVERLINE:
            lo = hi = 5
            while lo > 0 and c[lo - 1] == BLACK_CELL:
                lo -= 1
            while hi < 10 and c[hi + 1] == BLACK_CELL:
                hi += 1
            patterns.append(LinePattern(name, "overline", tuple(at(i) for i in range(lo, hi + 1))))
        elif (value >> _FOUR_SHIFT) & 3 and found is Foul.DOUBLE_FOUR:
            comp = _completions(c)
            if len(comp) == 2 and comp[1] - comp[0] == 5:
                stones = tuple(at(i) for i in range(comp[0] + 1, comp[1]))
                patterns.append(
                    LinePattern(name, "straight four", stones, (at(comp[0]), at(comp[1])))
                )
            else:
                for e in comp:
                    lo = e if e <= 5 else 5
                    while lo > 0 and (c[lo - 1] == BLACK_CELL or lo - 1 == e):
                        lo -= 1
                    window = [i for i in range(lo, lo + 6) if i != e and c[i] == BLACK_CELL]
                    window = [i for i in window if abs(i - e) < 5]
                    patterns.append(
                        LinePattern(name, "four", tuple(at(i) for i in window), (at(e),))
                    )
        elif value & _THREE and found is Foul.DOUBLE_THREE:
            board._set(idx, BLACK_CELL)
            try:
                live = tuple(
                    at(q + 5) for q in _CANDIDATES[key] if _classify(lines, idx + q * STEPS[d]) == 0
                )
            finally:
                board._clear(idx)
            stones = tuple(at(i) for i in range(1, 10) if c[i] == BLACK_CELL and _near(c, i))
            kind = "live three" if live else "dead three"
            keys = live or tuple(at(q + 5) for q in _CANDIDATES[key])
            patterns.append(LinePattern(name, kind, stones, keys))
    return FoulExplanation(Point.from_index(idx), found, tuple(patterns))


def _near(c: list[int], i: int) -> bool:
    """True when window index ``i`` is joined to the centre by black stones and single gaps."""
    lo, hi = (i, 5) if i < 5 else (5, i)
    gaps = sum(1 for j in range(lo, hi + 1) if c[j] == 0)
    return all(c[j] != 2 for j in range(lo, hi + 1)) and gaps <= 1 and hi - lo <= 3
