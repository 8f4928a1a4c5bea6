"""Gomoku/Renju under the Chinese competition rules (2013): board, fouls, openings, game.

The core is importable at once; file formats (:mod:`duiyi.gomoku.notation`) and drawings
(:mod:`duiyi.gomoku.svg`) are submodules; brains over the Gomocup protocol are the adapter
:mod:`duiyi.engines.gomocup`.

>>> from duiyi.gomoku import Board, foul, forbidden_points
>>> b = Board.from_moves("h8 a1 i8 a3 h9 a5 i10")
>>> forbidden_points(b)
{'g8': <Foul.DOUBLE_THREE: 'double-three'>}
>>> foul(b, "g8").zh
'三三禁手'
"""

from __future__ import annotations

from duiyi.gomoku.board import Board, parse_move_list
from duiyi.gomoku.colours import CoinChoice, CoinToss, Face, coin_toss, hand_count
from duiyi.gomoku.fouls import (
    Foul,
    FoulExplanation,
    LinePattern,
    explain_foul,
    forbidden_points,
    foul,
    makes_five,
)
from duiyi.gomoku.game import (
    GOMOKU_ACTIONS,
    AcceptDraw,
    Action,
    ChooseFifth,
    ClaimFoul,
    DeclineDraw,
    Game,
    NumberedMove,
    OfferDraw,
    Open,
    Pass,
    Phase,
    ProposeFifth,
    Resign,
    Swap,
    equivalent_fifths,
)
from duiyi.gomoku.openings import OPENINGS, Opening, Recognised, opening_by_name, recognise
from duiyi.gomoku.point import CENTER, SIZE, Point
from duiyi.gomoku.rules import DabSymmetry, FoulPolicy, OpeningRule, RenjuRules

__all__ = [
    "CENTER",
    "GOMOKU_ACTIONS",
    "OPENINGS",
    "SIZE",
    "AcceptDraw",
    "Action",
    "Board",
    "ChooseFifth",
    "ClaimFoul",
    "CoinChoice",
    "CoinToss",
    "DabSymmetry",
    "DeclineDraw",
    "Face",
    "Foul",
    "FoulExplanation",
    "FoulPolicy",
    "Game",
    "LinePattern",
    "NumberedMove",
    "OfferDraw",
    "Open",
    "Opening",
    "OpeningRule",
    "Pass",
    "Phase",
    "Point",
    "ProposeFifth",
    "Recognised",
    "RenjuRules",
    "Resign",
    "Swap",
    "coin_toss",
    "equivalent_fifths",
    "explain_foul",
    "forbidden_points",
    "foul",
    "hand_count",
    "makes_five",
    "opening_by_name",
    "parse_move_list",
    "recognise",
]
