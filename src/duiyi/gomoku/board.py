"""The Renju board: 225 points, stones as plain ints, and one packed integer per line.

Besides a flat list of cells (0 empty, 1 black, 2 white), the board keeps, for each of the 72
lines of the board (15 rows, 15 columns, 21 + 21 diagonals of length 5 or more, plus the short
diagonals), an integer with 2 bits per point: ``0`` empty, ``1`` black, ``2`` white or off the
board. Each line is padded with 5 "wall" points at both ends, so the 11-point window centred on
any point is one shift and one mask away; :mod:`duiyi.gomoku.fouls` looks those windows up in a
cached pattern table. That is what makes a whole-board forbidden map fast in pure Python.

>>> b = Board.from_moves("h8 h9 j10")
>>> b[Point.parse("h8")], b["h9"], b["a1"]
(Color.BLACK, Color.WHITE, None)
>>> print(Board.from_stones(black=["a1"], white=["o15"]).diagram().splitlines()[0])
15 . . . . . . . . . . . . . . O
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from duiyi import Color
from duiyi.errors import IllegalMove, InvalidInput, InvalidPoint, NotationError
from duiyi.gomoku.point import COLUMN_LETTERS, SIZE, Point, transform

__all__ = ["DIRECTIONS", "Board", "parse_move_list"]

NPOINTS = SIZE * SIZE
EMPTY, BLACK_CELL, WHITE_CELL = 0, 1, 2
#: Line directions as (dx, dy): row, column, diagonal (a1-o15) and anti-diagonal (a15-o1).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
#: Names of the directions (阳线 rows and columns, 阴线 diagonals, Gomoku §2.2-2.3).
DIRECTION_NAMES = ("row", "column", "diagonal", "anti-diagonal")
PAD = 5
WINDOW_MASK = (1 << 22) - 1


def _build_lines() -> tuple[
    list[list[int]], list[int], tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]
]:
    lines: list[list[int]] = []
    where: list[list[tuple[int, int]]] = [[] for _ in range(NPOINTS)]
    for dx, dy in DIRECTIONS:
        for start in range(NPOINTS):
            x, y = start % SIZE, start // SIZE
            px, py = x - dx, y - dy
            if 0 <= px < SIZE and 0 <= py < SIZE:
                continue  # not the first point of its line
            pts: list[int] = []
            while 0 <= x < SIZE and 0 <= y < SIZE:
                pts.append(y * SIZE + x)
                x, y = x + dx, y + dy
            lid = len(lines)
            lines.append(pts)
            for pos, idx in enumerate(pts):
                where[idx].append((lid, pos))
    empty_codes = []
    for pts in lines:
        code = 0
        for i in list(range(PAD)) + list(range(len(pts) + PAD, len(pts) + 2 * PAD)):
            code |= WHITE_CELL << (2 * i)
        empty_codes.append(code)
    # per point: (line id, shift of the window) for each direction
    windows = tuple(tuple((lid, 2 * pos) for lid, pos in where[idx]) for idx in range(NPOINTS))
    return lines, empty_codes, windows, tuple(d[1] * SIZE + d[0] for d in DIRECTIONS)


LINES, EMPTY_CODES, WINDOWS, STEPS = _build_lines()

_TOKEN = re.compile(r"[\s,;]+")


def parse_move_list(text: str | Iterable[str | Point | None]) -> list[Point | None]:
    """Read a move list such as ``"h8 h9 j10"`` (commas or semicolons also separate moves);
    ``pass`` (or ``None``) stands for a pass.

    >>> parse_move_list("h8, H9 pass j10")
    [Point.parse('h8'), Point.parse('h9'), None, Point.parse('j10')]
    """
    tokens: Iterable[str | Point | None]
    tokens = [t for t in _TOKEN.split(text.strip()) if t] if isinstance(text, str) else text
    moves: list[Point | None] = []
    for n, tok in enumerate(tokens, 1):
        if tok is None or (isinstance(tok, str) and tok.strip().lower() in ("pass", "-")):
            moves.append(None)
            continue
        try:
            moves.append(Point.parse(tok))
        except InvalidPoint as exc:
            raise NotationError(f"move {n}: {exc.message}", "Gomoku §1") from exc
    return moves


class Board:
    """Stones on the 15×15 board (Gomoku §1). Mutable; :meth:`copy` is cheap.

    >>> b = Board.from_stones(black=["h8", "j10"], white=["h9"])
    >>> len(b), b.count(Color.BLACK)
    (3, 2)
    >>> b.place("h10", Color.BLACK); b["h10"]
    Color.BLACK
    """

    __slots__ = ("_cells", "_count", "_lines")

    def __init__(self) -> None:
        self._cells: list[int] = [EMPTY] * NPOINTS
        self._lines: list[int] = list(EMPTY_CODES)
        self._count = 0

    # -- building -------------------------------------------------------------------------
    @classmethod
    def from_moves(cls, moves: str | Iterable[str | Point | None]) -> Board:
        """Play moves alternately, Black first (Gomoku §4.1); ``pass`` skips a turn.

        >>> Board.from_moves("h8 pass h9")["h9"]
        Color.BLACK
        """
        board = cls()
        color = Color.BLACK
        for n, p in enumerate(parse_move_list(moves), 1):
            if p is not None:
                if board._cells[p.index]:
                    raise NotationError(f"move {n}: {p} is already occupied", "Gomoku §4.2")
                board.place(p, color)
            color = color.opponent
        return board

    @classmethod
    def from_stones(
        cls, black: Iterable[str | Point] = (), white: Iterable[str | Point] = ()
    ) -> Board:
        """A position given by its stones.

        >>> Board.from_stones(black=["h8"], white=["h9", "h7"]).count(Color.WHITE)
        2
        """
        board = cls()
        for color, pts in ((Color.BLACK, black), (Color.WHITE, white)):
            for p in pts:
                board.place(p, color)
        return board

    @classmethod
    def from_diagram(cls, text: str) -> Board:
        """Read a diagram: rows from the top, ``X``/``x``/``B``/``●`` black, ``O``/``o``/``W``/``○``
        white, ``.``/``+``/``-`` empty. Row numbers and column letters around it are ignored,
        and a diagram smaller than 15×15 is placed at the bottom-left corner.

        >>> b = Board.from_diagram('''
        ... . X .
        ... X O .
        ... ''')
        >>> b["b2"], b["a1"], b["b1"]
        (Color.BLACK, Color.BLACK, Color.WHITE)
        """
        rows: list[list[int]] = []
        for raw in text.splitlines():
            cells: list[int] = []
            tokens = [t for t in raw.split() if not t.isdigit()]
            if any(c in "acdefghijklmn" for t in tokens for c in t):
                continue  # the line of column letters
            for ch in tokens:
                for c in ch:
                    if c in "XxB●":
                        cells.append(BLACK_CELL)
                    elif c in "OoW○":
                        cells.append(WHITE_CELL)
                    elif c in ".+-·":
                        cells.append(EMPTY)
                    else:
                        raise NotationError(f"unknown diagram character {c!r}")
            if cells:
                rows.append(cells)
        if len(rows) > SIZE or any(len(r) > SIZE for r in rows):
            raise NotationError("a diagram has at most 15 rows of 15 points (Gomoku §1)")
        board = cls()
        for r, row_cells in enumerate(reversed(rows)):
            for col, v in enumerate(row_cells):
                if v:
                    board.place(Point(col, r), Color.BLACK if v == BLACK_CELL else Color.WHITE)
        return board

    def copy(self) -> Board:
        """An independent copy."""
        other = Board.__new__(Board)
        other._cells = self._cells.copy()
        other._lines = self._lines.copy()
        other._count = self._count
        return other

    # -- stones ---------------------------------------------------------------------------
    def place(self, point: str | Point, color: Color) -> None:
        """Put a stone on an empty point (Gomoku §4.2: stones are never moved or taken).

        >>> b = Board(); b.place("h8", Color.BLACK); b.place("h8", Color.WHITE)
        Traceback (most recent call last):
        ...
        duiyi.errors.IllegalMove: illegal move h8: the point is occupied (Gomoku §4.2)
        """
        p = Point.parse(point)
        idx = p.index
        if self._cells[idx]:
            raise IllegalMove(
                "the point is occupied", "Gomoku §4.2", move=str(p), code="move-occupied"
            )
        if not isinstance(color, Color):
            raise InvalidInput(f"not a colour: {color!r}")
        v = BLACK_CELL if color is Color.BLACK else WHITE_CELL
        self._set(idx, v)

    def remove(self, point: str | Point) -> None:
        """Take a stone off (used to undo; a game never removes stones).

        >>> b = Board.from_moves("h8"); b.remove("h8"); len(b)
        0
        """
        idx = Point.parse(point).index
        if not self._cells[idx]:
            raise InvalidInput(f"{Point.from_index(idx)} is empty")
        self._clear(idx)

    def _set(self, idx: int, v: int) -> None:
        self._cells[idx] = v
        self._count += 1
        lines = self._lines
        for lid, shift in WINDOWS[idx]:
            lines[lid] |= v << (shift + 2 * PAD)

    def _clear(self, idx: int) -> None:
        self._cells[idx] = EMPTY
        self._count -= 1
        lines = self._lines
        for lid, shift in WINDOWS[idx]:
            lines[lid] &= ~(3 << (shift + 2 * PAD))

    def __getitem__(self, point: str | Point) -> Color | None:
        v = self._cells[Point.parse(point).index]
        return None if v == EMPTY else Color.BLACK if v == BLACK_CELL else Color.WHITE

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[tuple[Point, Color]]:
        """Every stone as (point, colour), from a1 row by row."""
        for idx, v in enumerate(self._cells):
            if v:
                yield Point.from_index(idx), Color.BLACK if v == BLACK_CELL else Color.WHITE

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # mutable

    def count(self, color: Color) -> int:
        """How many stones of ``color`` are on the board."""
        v = BLACK_CELL if color is Color.BLACK else WHITE_CELL
        return self._cells.count(v)

    def stones(self, color: Color) -> list[Point]:
        """The points holding ``color``, from a1 row by row.

        >>> Board.from_moves("h8 h9 j10").stones(Color.BLACK)
        [Point.parse('h8'), Point.parse('j10')]
        """
        v = BLACK_CELL if color is Color.BLACK else WHITE_CELL
        return [Point.from_index(i) for i, c in enumerate(self._cells) if c == v]

    def empty_points(self) -> list[Point]:
        """Every empty point, from a1 row by row."""
        return [Point.from_index(i) for i, c in enumerate(self._cells) if c == EMPTY]

    def is_empty(self, point: str | Point) -> bool:
        """True when nothing stands on ``point``."""
        return self._cells[Point.parse(point).index] == EMPTY

    def is_full(self) -> bool:
        """True when all 225 points hold a stone (Gomoku §10.2(3))."""
        return self._count == NPOINTS

    def run_length(self, point: str | Point, color: Color) -> int:
        """The longest unbroken line of ``color`` through ``point`` if ``color`` stood there
        (5 = five, 6+ = overline; Gomoku §2.7-2.8).

        >>> Board.from_moves("h8 a1 h9 a2 h10 a3 h11").run_length("h12", Color.BLACK)
        5
        """
        idx = Point.parse(point).index
        v = BLACK_CELL if color is Color.BLACK else WHITE_CELL
        cells = self._cells
        x0, y0 = idx % SIZE, idx // SIZE
        best = 0
        for dx, dy in DIRECTIONS:
            n = 1
            for sgn in (1, -1):
                x, y = x0 + sgn * dx, y0 + sgn * dy
                while 0 <= x < SIZE and 0 <= y < SIZE and cells[y * SIZE + x] == v:
                    n += 1
                    x, y = x + sgn * dx, y + sgn * dy
            best = max(best, n)
        return best

    def transformed(self, symmetry: int) -> Board:
        """The board under one of the 8 symmetries about h8 (see :data:`point.SYMMETRIES`).

        >>> Board.from_moves("a1").transformed(2)["o15"]
        Color.BLACK
        """
        out = Board()
        for p, c in self:
            out.place(transform(p, symmetry), c)
        return out

    # -- text -----------------------------------------------------------------------------
    def diagram(self, marks: dict[Point, str] | None = None) -> str:
        """An ASCII diagram, row 15 at the top: ``X`` black, ``O`` white, ``.`` empty;
        ``marks`` puts a character on chosen empty points.

        >>> print(Board.from_moves("h8").diagram().splitlines()[7])
         8 . . . . . . . X . . . . . . .
        """
        marks = marks or {}
        out = []
        for row in range(SIZE - 1, -1, -1):
            chars = []
            for col in range(SIZE):
                p = Point(col, row)
                v = self._cells[p.index]
                chars.append("X" if v == BLACK_CELL else "O" if v == WHITE_CELL else "")
                if not chars[-1]:
                    chars[-1] = marks.get(p, ".")
            out.append(f"{row + 1:>2} " + " ".join(chars))
        out.append("   " + " ".join(COLUMN_LETTERS))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.diagram()

    def __repr__(self) -> str:
        blacks = [str(p) for p in self.stones(Color.BLACK)]
        whites = [str(p) for p in self.stones(Color.WHITE)]
        return f"Board.from_stones(black={blacks!r}, white={whites!r})"
