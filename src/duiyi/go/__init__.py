"""Go (围棋) under the Chinese competition rules (2002) and the other common rule sets.

The core is pure and importable at once; SGF and SVG are explicit submodules
(``duiyi.go.sgf``, ``duiyi.go.svg``) that import the core, never the other way. GTP lives at the
edge: duiyi as a GTP engine (``duiyi gtp``) is ``duiyi.gtp.frontend``, the clock's GTP time
commands ``duiyi.gtp.clock``, and engines over GTP are the adapter ``duiyi.engines.gtp``.

>>> from duiyi.go import Game, Rules, Point, BLACK
>>> g = Game(19, rules=Rules.chinese())
>>> g.play("Q16"); g.play("D4")
>>> g.board.get(Point.parse("Q16")) is BLACK
True
"""

from __future__ import annotations

from duiyi import BLACK, WHITE, Color
from duiyi.go.actions import GO_ACTIONS, Action
from duiyi.go.board import Board, PointSet
from duiyi.go.game import Game, LegalMoves, Phase
from duiyi.go.handicap import NigiriResult, Parity, fixed_handicap_points, nigiri
from duiyi.go.point import Point
from duiyi.go.rules import HandicapConvention, KoRule, RepetitionOutcome, Rules, Scoring
from duiyi.go.scoring import Score, score_position

__all__ = [
    "BLACK",
    "GO_ACTIONS",
    "WHITE",
    "Action",
    "Board",
    "Color",
    "Game",
    "HandicapConvention",
    "KoRule",
    "LegalMoves",
    "NigiriResult",
    "Parity",
    "Phase",
    "Point",
    "PointSet",
    "RepetitionOutcome",
    "Rules",
    "Score",
    "Scoring",
    "fixed_handicap_points",
    "nigiri",
    "score_position",
]
