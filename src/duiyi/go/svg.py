"""SVG pictures of Go positions, for notebooks, the CLI (``duiyi go svg``) and the web UI.

:func:`board` returns the SVG text; :class:`SvgBoard` wraps it with ``_repr_svg_`` so that
Jupyter shows it. Coordinates are GTP letters (A–T without I) along the top and bottom and row
numbers (1 at the bottom) along the sides, as in the rulebook's diagrams.

>>> from duiyi.go import Board
>>> text = board(Board.from_stones(9, black=["E5"], white=["C3"]))
>>> text.startswith("<svg") and text.count("<circle") >= 2
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape as _xml_escape

from duiyi import BLACK, WHITE, Color
from duiyi.go import Board, Game, Point
from duiyi.go.point import COLUMN_LETTERS

__all__ = ["SvgBoard", "board", "star_points"]

_WOOD = "#dcb35c"
_LINE = "#000"


def star_points(size: int) -> list[Point]:
    """The star points (hoshi) drawn on a board of ``size``.

    >>> [str(p) for p in star_points(9)]
    ['C3', 'G3', 'E5', 'C7', 'G7']
    >>> len(star_points(19)), star_points(6)
    (9, [])
    """
    if size < 7:
        return []
    edge = 2 if size < 12 else 3
    far = size - 1 - edge
    mid = size // 2
    points = [(edge, edge), (far, edge), (edge, far), (far, far)]
    if size % 2 == 1:
        points.append((mid, mid))
        if size >= 15:
            points += [(mid, edge), (mid, far), (edge, mid), (far, mid)]
    return sorted((Point(c, r) for c, r in points), key=lambda p: (p.row, p.col))


def _as_points(items: Iterable[Point | str] | None, size: int) -> list[Point]:
    if not items:
        return []
    return [p if isinstance(p, Point) else Point.parse(p, size=size) for p in items]


def board(
    position: Game | Board,
    *,
    size: int = 400,
    coordinates: bool = True,
    last_move: Point | str | None = None,
    dead: Iterable[Point | str] | None = None,
    territory: Mapping[Point, Color] | None = None,
    marks: Iterable[Point | str] | None = None,
    title: str | None = None,
) -> str:
    """Draw a position as SVG text.

    ``position`` is a :class:`~duiyi.go.Game` (its board; the last move is marked unless
    ``last_move`` says otherwise) or a :class:`~duiyi.go.Board`. ``dead`` stones are drawn
    faded with a cross, ``territory`` maps empty (or dead) points to the colour that owns them
    (a small square), ``marks`` draws triangles. ``size`` is the width in pixels.

    >>> from duiyi.go import Board
    >>> svg = board(Board.from_stones(9, black=["E5"]), last_move="E5", dead=["E5"])
    >>> 'class="last"' in svg and 'class="dead"' in svg
    True
    """
    if isinstance(position, Game):
        grid = position.board
        if last_move is None:
            for _color, mv in reversed(position.moves):
                last_move = mv
                break
    else:
        grid = position
    n = grid.size
    last = _as_points([last_move], n)[0] if last_move is not None else None
    dead_set = set(_as_points(dead, n))
    mark_list = _as_points(marks, n)

    cell = 100.0
    margin = cell * (1.3 if coordinates else 0.6)
    full = margin * 2 + cell * (n - 1)
    r = cell * 0.48

    def xy(p: Point) -> tuple[float, float]:
        return margin + p.col * cell, margin + (n - 1 - p.row) * cell

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" '
        f'height="{size}" viewBox="0 0 {full:g} {full:g}">'
    ]
    if title:
        out.append(f"<title>{_xml_escape(title)}</title>")
    out.append(
        f'<rect class="board" x="0" y="0" width="{full:g}" height="{full:g}" fill="{_WOOD}"/>'
    )
    lo, hi = margin, margin + cell * (n - 1)
    lines = []
    for i in range(n):
        v = margin + i * cell
        lines.append(f"M{lo:g} {v:g}H{hi:g}M{v:g} {lo:g}V{hi:g}")
    out.append(f'<path class="grid" d="{"".join(lines)}" stroke="{_LINE}" stroke-width="4"/>')
    out.append(
        f'<rect x="{lo:g}" y="{lo:g}" width="{hi - lo:g}" height="{hi - lo:g}" '
        f'fill="none" stroke="{_LINE}" stroke-width="7"/>'
    )
    for p in star_points(n):
        x, y = xy(p)
        out.append(
            f'<circle class="star" cx="{x:g}" cy="{y:g}" r="{cell * 0.1:g}" fill="{_LINE}"/>'
        )
    if coordinates:
        font = f'font-family="sans-serif" font-size="{cell * 0.45:g}" text-anchor="middle"'
        out.append(f'<g class="coordinates" {font} fill="#000">')
        for i in range(n):
            x = margin + i * cell
            letter = COLUMN_LETTERS[i]
            out.append(f'<text x="{x:g}" y="{margin * 0.55:g}">{letter}</text>')
            out.append(f'<text x="{x:g}" y="{full - margin * 0.3:g}">{letter}</text>')
            y = margin + (n - 1 - i) * cell + cell * 0.16
            out.append(f'<text x="{margin * 0.45:g}" y="{y:g}">{i + 1}</text>')
            out.append(f'<text x="{full - margin * 0.45:g}" y="{y:g}">{i + 1}</text>')
        out.append("</g>")
    stones = [(p, BLACK) for p in grid.stones(BLACK)] + [(p, WHITE) for p in grid.stones(WHITE)]
    stones.sort(key=lambda t: (t[0].row, t[0].col))
    for p, color in stones:
        x, y = xy(p)
        fill, stroke = ("#111", "#000") if color is BLACK else ("#f8f8f8", "#000")
        opacity = ' opacity="0.45"' if p in dead_set else ""
        cls = "black" if color is BLACK else "white"
        out.append(
            f'<circle class="stone {cls}" cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="3"{opacity}/>'
        )
    if territory:
        for p, owner in sorted(territory.items(), key=lambda t: (t[0].row, t[0].col)):
            x, y = xy(p)
            s = cell * 0.32
            fill = "#000" if owner is BLACK else "#fff"
            out.append(
                f'<rect class="territory" x="{x - s / 2:g}" y="{y - s / 2:g}" width="{s:g}" '
                f'height="{s:g}" fill="{fill}" stroke="#000" stroke-width="2"/>'
            )
    for p in sorted(dead_set, key=lambda q: (q.row, q.col)):
        x, y = xy(p)
        d = cell * 0.25
        out.append(
            f'<path class="dead" d="M{x - d:g} {y - d:g}L{x + d:g} {y + d:g}M{x + d:g} {y - d:g}'
            f'L{x - d:g} {y + d:g}" stroke="#d02020" stroke-width="9"/>'
        )
    for p in mark_list:
        x, y = xy(p)
        d = cell * 0.28
        ink = _contrast(grid.get(p))
        out.append(
            f'<path class="mark" d="M{x:g} {y - d:g}L{x + d * 0.87:g} {y + d / 2:g}'
            f'L{x - d * 0.87:g} {y + d / 2:g}Z" fill="none" stroke="{ink}" stroke-width="6"/>'
        )
    if last is not None:
        x, y = xy(last)
        ink = _contrast(grid.get(last))
        out.append(
            f'<circle class="last" cx="{x:g}" cy="{y:g}" r="{cell * 0.2:g}" fill="none" '
            f'stroke="{ink}" stroke-width="7"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _contrast(color: Color | None) -> str:
    if color is BLACK:
        return "#fff"
    if color is WHITE:
        return "#000"
    return "#c00"


class SvgBoard:
    """A position that Jupyter displays as SVG (``_repr_svg_``); ``str()`` is the SVG text.

    >>> from duiyi.go import Board
    >>> pic = SvgBoard(Board.from_stones(9, black=["E5"]))
    >>> pic._repr_svg_().startswith("<svg")
    True
    """

    def __init__(self, position: Game | Board, **options: object) -> None:
        self.position = position
        self.options = options

    def _repr_svg_(self) -> str:
        return board(self.position, **self.options)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return self._repr_svg_()
