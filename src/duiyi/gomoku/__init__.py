"""Gomoku/Renju under the Chinese competition rules (2013): board, fouls, openings, game.

The core is importable at once; file formats (:mod:`duiyi.gomoku.notation`), drawings
(:mod:`duiyi.gomoku.svg`) and the engine manager (:mod:`duiyi.gomoku.engine`) are submodules.

>>> from duiyi.gomoku import Board, foul, forbidden_points
>>> b = Board.from_moves("h8 a1 i8 a3 h9 a5 i10")
>>> forbidden_points(b)
{'g8': <Foul.DOUBLE_THREE: 'double-three'>}
>>> foul(b, "g8").zh
'三三禁手'
"""

from __future__ import annotations

from duiyi.gomoku.board import Board, parse_move_list
from duiyi.gomoku.fouls import (
    Foul,
    FoulExplanation,
    LinePattern,
    explain_foul,
    forbidden_points,
    foul,
    makes_five,
)
from duiyi.gomoku.point import CENTER, SIZE, Point

__all__ = [
    "CENTER",
    "SIZE",
    "Board",
    "Foul",
    "FoulExplanation",
    "LinePattern",
    "Point",
    "explain_foul",
    "forbidden_points",
    "foul",
    "makes_five",
    "parse_move_list",
]
