"""The 26 designated openings (指定开局, Gomoku §3.2), recognised in any of the 8 orientations.

Each opening is black 1 on h8, white 2 touching it (13 "direct" openings with white 2 beside it
on a row or column, 13 "indirect" ones with white 2 diagonally next to it) and black 3 in the
central 5×5. The data (names in Chinese and Japanese, one orientation of the three stones) is
package data, ``openings.json``, copied from the project's shared data.

>>> o = opening_by_name("疏星")
>>> o.id, o.japanese, [str(p) for p in o.moves]
('D3', 'Sosei', ['h8', 'h9', 'j10'])
>>> found = recognise("h8", "h7", "f6")          # Sosei turned upside down
>>> found.opening.chinese, found.symmetry in range(8)
('疏星', True)
>>> len(OPENINGS), sum(o.kind == "direct" for o in OPENINGS)
(26, 13)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from duiyi.errors import InvalidInput
from duiyi.gomoku.point import CENTER, Point, transform

__all__ = ["OPENINGS", "SOURCE", "Opening", "Recognised", "opening_by_name", "recognise"]


@dataclass(frozen=True)
class Opening:
    """One designated opening; ``moves`` are black 1, white 2 and black 3 in the reference
    orientation (white 2 on h9 for direct openings, on i9 for indirect ones).

    >>> OPENINGS[0]
    Opening(id='D1', chinese='寒星', japanese='Kansei', kind='direct', moves=(Point.parse('h8'), Point.parse('h9'), Point.parse('h10')))
    """

    id: str
    chinese: str
    japanese: str
    kind: str  # "direct" (直指) or "indirect" (斜指)
    moves: tuple[Point, Point, Point]

    @property
    def name(self) -> str:
        """Chinese name with 局, as the book lists them (e.g. ``寒星局``)."""
        return f"{self.chinese}局"

    def oriented(self, symmetry: int) -> tuple[Point, Point, Point]:
        """The three stones under one of the 8 symmetries about h8.

        >>> [str(p) for p in opening_by_name("D1").oriented(2)]
        ['h8', 'h7', 'h6']
        """
        a, b, c = (transform(p, symmetry) for p in self.moves)
        return a, b, c

    def to_json(self) -> dict[str, str | list[str]]:
        """The opening as one entry of ``openings.json``.

        >>> opening_by_name("D3").to_json()
        {'id': 'D3', 'chinese': '疏星', 'japanese': 'Sosei', 'kind': 'direct', 'moves': ['h8', 'h9', 'j10']}
        """
        return {
            "id": self.id,
            "chinese": self.chinese,
            "japanese": self.japanese,
            "kind": self.kind,
            "moves": [str(p) for p in self.moves],
        }


@dataclass(frozen=True)
class Recognised:
    """An opening found on the board and the symmetry that maps its reference orientation
    onto the stones played."""

    opening: Opening
    symmetry: int


def _load() -> tuple[str, tuple[Opening, ...]]:
    text = resources.files("duiyi.gomoku").joinpath("openings.json").read_text(encoding="utf-8")
    data = json.loads(text)
    out = []
    for item in data["openings"]:
        m = tuple(Point.parse(s) for s in item["moves"])
        out.append(
            Opening(item["id"], item["chinese"], item["japanese"], item["kind"], (m[0], m[1], m[2]))
        )
    return str(data["source"]), tuple(out)


SOURCE, OPENINGS = _load()

_BY_STONES: dict[tuple[Point, Point], Recognised] = {}
for _o in OPENINGS:
    for _s in range(8):
        _BY_STONES.setdefault(
            (transform(_o.moves[1], _s), transform(_o.moves[2], _s)), Recognised(_o, _s)
        )


def recognise(black1: str | Point, white2: str | Point, black3: str | Point) -> Recognised | None:
    """The designated opening these three stones form, or None (Gomoku §3.2).

    >>> recognise("h8", "i9", "j10").opening.japanese
    'Chosei'
    >>> recognise("h8", "h10", "h9") is None        # white 2 does not touch black 1
    True
    """
    b1, w2, b3 = Point.parse(black1), Point.parse(white2), Point.parse(black3)
    if b1 != CENTER:
        return None
    return _BY_STONES.get((w2, b3))


def opening_by_name(name: str) -> Opening:
    """Find an opening by id (``D3``, ``i1``), Chinese name (``疏星`` or ``疏星局``) or
    Japanese name (``sosei``).

    >>> opening_by_name("kagetsu").chinese
    '花月'
    """
    key = name.strip().lower().removesuffix("局")
    for o in OPENINGS:
        if key in (o.id.lower(), o.chinese, o.japanese.lower()):
            return o
    raise InvalidInput(f"no designated opening is called {name!r} (Gomoku §3.2 lists 26)")
