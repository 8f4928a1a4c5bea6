"""The arbiter's ledger: every ruling of a game, with its article and its effects.

A :class:`Referee` records :class:`Ruling` values (warnings, violations, time penalties, void
moves, corrections, adjudications, forfeits, no-shows, withdrawals) and says what they do:
stones off the count (Go §24.1), a lost game at the second warning or violation (Go §24.2,
Gomoku §12.3(4)), clock adjustments, a pass, a restart, or a final :class:`~duiyi.outcome.Outcome`.
The arbiter asks for a ruling with a typed request, one per kind (:mod:`duiyi.referee.requests`,
``Referee.rule(request)``). It is pure bookkeeping: :class:`duiyi.session.Session` applies the effects to the game and
the clock; tournaments read the counts (warnings are a Go tiebreak).

>>> from duiyi.games import GO
>>> from duiyi import BLACK, WHITE
>>> ref = Referee(GO)
>>> r = ref.warning(BLACK, "Go §17.4", note="pressed the clock before placing the stone")
>>> ref.warnings(BLACK), ref.stone_penalty(BLACK), ref.outcome() is None
(1, 1, True)
>>> ref.warning(BLACK, "Go §23.7").outcome.winner
Color.WHITE
"""

from duiyi.referee.book import Book, RuledGame
from duiyi.referee.kinds import Decision, RulingKind
from duiyi.referee.ledger import Referee
from duiyi.referee.requests import Facts, RulingRequest
from duiyi.referee.ruling import (
    Ruling,
    outcome_json,
    overtime_pass_ruling,
    ruling_from_json,
    stored_game,
)

__all__ = [
    "Book",
    "Decision",
    "Facts",
    "Referee",
    "RuledGame",
    "Ruling",
    "RulingKind",
    "RulingRequest",
    "outcome_json",
    "overtime_pass_ruling",
    "ruling_from_json",
    "stored_game",
]
