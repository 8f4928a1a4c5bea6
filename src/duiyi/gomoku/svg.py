"""SVG drawings of a Renju position, with Black's forbidden points marked (Gomoku §1, §2.19).

The drawing follows the book's board (Gomoku §1.1, 图1): 15×15 lines, columns A–O below,
rows 1–15 on the left from the bottom, the centre h8 and the four stars d4, d12, l12, l4.
Forbidden points carry a red ✕ and a ``<title>`` naming the foul, so a browser shows it on hover.

>>> from duiyi.gomoku.board import Board
>>> svg = board_svg(Board.from_moves("h8 a1 i8 a3 h9 a5 i10"))
>>> svg.startswith("<svg") and 'class="forbidden"' in svg and "double-three" in svg
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape

from duiyi import Color
from duiyi.gomoku.board import Board
from duiyi.gomoku.fouls import Foul, forbidden_points
from duiyi.gomoku.point import COLUMN_LETTERS, SIZE, Point

__all__ = ["STARS", "board_svg"]

#: The centre and the four stars (Gomoku §1.1).
STARS = tuple(Point.parse(s) for s in ("h8", "d4", "d12", "l12", "l4"))


def board_svg(
    board: Board,
    *,
    forbidden: bool | Mapping[str, Foul] = True,
    numbers: Mapping[Point, int] | None = None,
    last_move: Point | None = None,
    marks: Iterable[Point] = (),
    cell: int = 32,
    coordinates: bool = True,
) -> str:
    """An SVG document of ``board``.

    ``forbidden``: True computes Black's forbidden points, a mapping gives them, False hides
    them. ``numbers`` writes move numbers on stones (a record diagram, Gomoku §7), ``last_move``
    rings the last stone, ``marks`` draws small triangles (e.g. fifth-move candidates).

    >>> b = Board.from_moves("h8 h9")
    >>> 'data-point="h9"' in board_svg(b, numbers={Point.parse("h8"): 1})
    True
    """
    fb: Mapping[str, Foul]
    if forbidden is True:
        fb = forbidden_points(board)
    elif forbidden is False:
        fb = {}
    else:
        fb = forbidden
    margin = cell * 5 // 4 if coordinates else cell // 2
    side = margin * 2 + cell * (SIZE - 1)

    def xy(p: Point) -> tuple[int, int]:
        return margin + p.col * cell, margin + (SIZE - 1 - p.row) * cell

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'width="{side}" height="{side}" font-family="sans-serif">',
        f'<rect width="{side}" height="{side}" fill="#e3b66b"/>',
        '<g stroke="#3b2a14" stroke-width="1">',
    ]
    lo, hi = margin, margin + cell * (SIZE - 1)
    for i in range(SIZE):
        c = margin + i * cell
        out.append(f'<line x1="{lo}" y1="{c}" x2="{hi}" y2="{c}"/>')
        out.append(f'<line x1="{c}" y1="{lo}" x2="{c}" y2="{hi}"/>')
    out.append("</g>")
    for p in STARS:
        x, y = xy(p)
        out.append(f'<circle cx="{x}" cy="{y}" r="{max(2, cell // 9)}" fill="#3b2a14"/>')
    if coordinates:
        fs = max(8, cell * 2 // 5)
        for i in range(SIZE):
            c = margin + i * cell
            out.append(
                f'<text x="{c}" y="{side - margin // 3}" font-size="{fs}" '
                f'text-anchor="middle">{COLUMN_LETTERS[i].upper()}</text>'
            )
            out.append(
                f'<text x="{margin // 2}" y="{margin + (SIZE - 1 - i) * cell + fs // 3}" '
                f'font-size="{fs}" text-anchor="middle">{i + 1}</text>'
            )
    r = cell * 46 // 100
    for p, colour in board:
        x, y = xy(p)
        fill, stroke = ("#111", "#000") if colour is Color.BLACK else ("#fafafa", "#333")
        out.append(
            f'<circle class="stone {colour.value}" data-point="{p}" cx="{x}" cy="{y}" r="{r}" '
            f'fill="{fill}" stroke="{stroke}"/>'
        )
        if numbers and p in numbers:
            ink = "#fff" if colour is Color.BLACK else "#000"
            out.append(
                f'<text x="{x}" y="{y + cell // 7}" font-size="{cell * 2 // 5}" fill="{ink}" '
                f'text-anchor="middle">{numbers[p]}</text>'
            )
        if last_move == p:
            out.append(
                f'<circle cx="{x}" cy="{y}" r="{r // 3}" fill="none" stroke="#d22" '
                'stroke-width="2"/>'
            )
    for p in marks:
        x, y = xy(p)
        h = cell // 4
        out.append(
            f'<polygon class="mark" points="{x},{y - h} {x - h},{y + h} {x + h},{y + h}" '
            'fill="none" stroke="#1565c0" stroke-width="2"/>'
        )
    for name, f in sorted(fb.items()):
        p = Point.parse(name)
        x, y = xy(p)
        h = cell // 4
        out.append(
            f'<g class="forbidden" data-point="{p}" data-foul="{f.value}" stroke="#d00" '
            f'stroke-width="3"><title>{escape(f"{p}: {f.value} ({f.zh})")}</title>'
            f'<line x1="{x - h}" y1="{y - h}" x2="{x + h}" y2="{y + h}"/>'
            f'<line x1="{x - h}" y1="{y + h}" x2="{x + h}" y2="{y - h}"/></g>'
        )
    out.append("</svg>")
    return "\n".join(out)
