"""The one shape of a game read from SGF, for every game (:class:`SgfGame`).

A game's reader (Go's :func:`duiyi.go.sgf.read_game`, Gomoku's
:func:`duiyi.gomoku.notation.parse_sgf`) returns a subclass that adds what the game makes of
the main line (Go: the replayed :class:`~duiyi.go.Game` and ``RE``; Gomoku: the moves, comments
and setup stones). What they share is here: the parsed collection, the main-line nodes read
(root first), the warnings, the players and the file written back with every property kept.

>>> from duiyi.sgf.tree import parse
>>> c = parse("(;GM[4]PB[甲];B[hh](;W[hg])(;W[ii]))")
>>> g = SgfGame(c.games[0], c.games[0].main_line(), [], c)
>>> g.player(BLACK), g.last_node.get("W"), g.to_sgf().count("(;")
('甲', 'hg', 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from duiyi import BLACK, Color
from duiyi.sgf.tree import SgfCollection, SgfNode, SgfWarning, serialise

__all__ = ["SgfGame"]


@dataclass
class SgfGame:
    """A game read from SGF: the root, the main-line nodes read (root first), the warnings
    (grammar and game-level) and the whole collection."""

    root: SgfNode
    nodes: list[SgfNode]
    warnings: list[SgfWarning]
    collection: SgfCollection

    @property
    def last_node(self) -> SgfNode:
        """The last main-line node read (where Go servers put the final TB/TW markers)."""
        return self.nodes[-1]

    def player(self, color: Color) -> str | None:
        """The PB/PW name."""
        return self.root.simpletext("PB" if color is BLACK else "PW")

    def to_sgf(self) -> str:
        """The whole file written back: every property and variation kept (see
        :func:`duiyi.sgf.serialise`)."""
        return serialise(self.collection)
