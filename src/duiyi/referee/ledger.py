"""The arbiter's ledger of one game (Go §17-24, Gomoku §4.2, §5.2, §6, §8-13): :class:`Referee`.

A typed request (:mod:`duiyi.referee.requests`) carries its procedure: the method named as its
kind, called with the request's arguments (:meth:`~duiyi.referee.requests.Request.arguments`:
its fields and the session's facts it takes). The procedures live by subject, each module building on the one before: the state and counts
(``base``), warnings, violations and corrections of play (``penalties``), lost games
(``losses``), stones put right (``corrections``), the coin toss and colours (``toss``) and
appeals (``appeal_rulings``). A ruling and its JSON are :mod:`duiyi.referee.ruling`; a game's
rulebook is :mod:`duiyi.referee.book`. The referee validates a ruling against the game's
rulebook before it records it, and adds the consequences the books attach (the second
warning loses).
"""

from __future__ import annotations

from typing import Any

import duiyi.referee.requests as requests
from duiyi.errors import InvalidInput
from duiyi.referee.appeal_rulings import AppealRulings
from duiyi.referee.book import RuledGame
from duiyi.referee.requests import Facts, RulingRequest
from duiyi.referee.ruling import (
    Ruling,
    ruling_from_json,
    stored_game,
)

__all__ = ["Referee"]


class Referee(AppealRulings):
    """The ruling ledger of one game of ``game`` (``"go"`` or ``"gomoku"``).

    ``limit`` is how many warnings (Go §24.2) or violations (Gomoku §12.3(4)) lose the game.

    >>> from duiyi import WHITE
    >>> from duiyi.games import GOMOKU
    >>> ref = Referee(GOMOKU)
    >>> _ = ref.violation(WHITE, "Gomoku §10.3(3)", note="offered a draw on the opponent's time")
    >>> ref.violations(WHITE)
    1
    """

    # ------------------------------------------------------------------ the arbiter's requests

    def rule(self, request: RulingRequest, facts: Facts | None = None) -> tuple[Ruling, ...]:
        """Make the ruling ``request`` asks for (:mod:`duiyi.referee.requests`, one request per
        kind) with the session's ``facts`` (the time, the moves played, whether the game is
        decided); returns the rulings recorded (a warning that loses the game, a sanction that
        follows a correction, come with it). A ruling this game's rulebook lacks is refused.

        >>> from duiyi import BLACK
        >>> from duiyi.games import GO, GOMOKU
        >>> from duiyi.referee.requests import Facts, VoidMove
        >>> [r.kind.value for r in Referee(GO).rule(VoidMove(BLACK, "Go §18.3"), Facts(at=5.0))]
        ['void_move', 'warning']
        >>> Referee(GOMOKU).rule(requests.Warning(BLACK))
        Traceback (most recent call last):
        ...
        duiyi.errors.RefereeError: Gomoku has no warnings: record a violation (Gomoku §12)
        """
        if not isinstance(request, requests.REQUESTS):
            raise InvalidInput(f"not a ruling request: {request!r}")
        self.article(request.kind)  # a ruling this game's rulebook lacks is refused here
        procedure = getattr(self, request.kind.value)  # the method named as the ruling
        before = len(self._rulings)
        procedure(**request.arguments(facts or Facts()))
        return tuple(self._rulings[before:])

    # ------------------------------------------------------------------ (de)serialisation

    def to_json(self) -> dict[str, Any]:
        """The ledger as JSON (stable, ``"v": 1``)."""
        return {
            "v": 1,
            "game": self.game.name,
            "limit": self.limit,
            "rulings": [r.to_json() for r in self._rulings],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], game: RuledGame) -> Referee:
        """Rebuild a ledger of ``game`` from :meth:`to_json` (the caller maps the stored name,
        ``data["game"]``, to its game: :func:`stored_game` reads it; ledgers written before
        the name was stored are Go's).

        >>> from duiyi import WHITE
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.violation(WHITE, "Gomoku §12.4")
        >>> Referee.from_json(ref.to_json(), GOMOKU).violations(WHITE)
        1
        >>> Referee.from_json(ref.to_json(), ref.game).rulings == ref.rulings
        True
        """
        if data.get("v") != 1:
            raise InvalidInput(f"unsupported referee version {data.get('v')!r}")
        stored = stored_game(data)
        if stored != game.name:
            raise InvalidInput(f"a {stored} referee's ledger read as {game.name}'s")
        ref = cls(game, limit=int(data.get("limit", 2)))
        for r in data.get("rulings", []):
            ref.record(ruling_from_json(r), override=True)
        return ref

    def config_json(self) -> dict[str, Any]:
        """The ledger's settings without its rulings (a fresh referee for a session log)."""
        return {"v": 1, "game": self.game.name, "limit": self.limit, "rulings": []}

    def __repr__(self) -> str:
        return f"<Referee {self.game.name}: {len(self._rulings)} rulings>"
