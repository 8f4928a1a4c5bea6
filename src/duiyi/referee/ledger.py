"""The arbiter's ledger of one game (Go §17-24, Gomoku §4.2, §5.2, §6, §8-13): :class:`Referee`.

A typed request (:mod:`duiyi.referee.requests`) is matched here to its procedure; the
procedures live by subject, each module building on the one before: the state and counts
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
        f = facts or Facts()
        if not isinstance(request, requests.REQUESTS):
            raise InvalidInput(f"not a ruling request: {request!r}")
        self.article(request.kind)  # a ruling this game's rulebook lacks is refused here
        before = len(self._rulings)
        at = f.at

        def now(move_number: int | None) -> int | None:
            # the act just made: an accepted irregularity blocks its correction (Gomoku §6.1)
            return f.moves_played if move_number is None else move_number

        def decided(given: bool | None) -> bool:
            # Gomoku §2.20(3): after a confirmed result the board result stands
            return f.decided if given is None else given

        match request:
            case requests.Warning():
                self.warning(
                    request.color,
                    request.article,
                    note=request.note,
                    at=at,
                    move_number=request.move_number,
                )
            case requests.Violation():
                self.violation(
                    request.color,
                    request.article,
                    note=request.note,
                    at=at,
                    move_number=request.move_number,
                )
            case requests.TimePenalty():
                self.time_penalty(
                    request.color,
                    deduct=request.deduct,
                    award=request.award,
                    article=request.article,
                    note=request.note,
                    at=at,
                    move_number=request.move_number,
                )
            case requests.ClockAdjustment():
                self.clock_adjustment(
                    request.color,
                    request.seconds,
                    article=request.article,
                    note=request.note,
                    at=at,
                )
            case requests.VoidMove():
                self.void_move(
                    request.color,
                    request.article,
                    pass_turn=request.pass_turn,
                    warning=request.warning,
                    note=request.note,
                    at=at,
                    move_number=now(request.move_number),
                )
            case requests.OvertimePass():
                self.overtime_pass(
                    request.color, at=at, move_number=request.move_number, note=request.note
                )
            case requests.ColourCorrection():
                if f.moves_played is None:
                    raise InvalidInput("a colour correction needs the moves played (the session's)")
                self.colour_correction(
                    moves_played=f.moves_played,
                    minutes_played=f.minutes_played,
                    at=at,
                    note=request.note,
                )
            case requests.MovedStones():
                self.moved_stones(
                    request.decision,
                    offender=request.offender,
                    deliberate=request.deliberate,
                    at=at,
                    note=request.note,
                )
            case requests.Scattered():
                self.scattered(
                    request.decision,
                    by=request.by,
                    deliberate=request.deliberate,
                    at=at,
                    note=request.note,
                )
            case requests.Forfeit():
                self.forfeit(
                    request.color,
                    request.article,
                    note=request.note,
                    at=at,
                    override=request.override,
                )
            case requests.DoubleForfeit():
                self.double_forfeit(
                    request.article, note=request.note, at=at, override=request.override
                )
            case requests.NoShow():
                self.no_show(request.colors, at=at, note=request.note, article=request.article)
            case requests.Withdrawal():
                self.withdrawal(request.color, at=at, note=request.note)
            case requests.Disqualification():
                self.disqualification(
                    request.color,
                    approved=request.approved,
                    decided=decided(request.decided),
                    article=request.article,
                    note=request.note,
                    at=at,
                )
            case requests.DisciplinaryLoss():
                self.disciplinary_loss(
                    request.color,
                    decided=decided(request.decided),
                    article=request.article,
                    note=request.note,
                    at=at,
                )
            case requests.BothFlags():
                self.both_flags(at=at, note=request.note, override=request.override)
            case requests.LeaveSeat():
                self.leave_seat(
                    request.color, at=at, move_number=now(request.move_number), note=request.note
                )
            case requests.DroppedStone():
                self.dropped_stone(
                    request.color,
                    consent=request.consent,
                    chief_arbiter=request.chief_arbiter,
                    penalty=request.penalty,
                    deduct=request.deduct,
                    award=request.award,
                    at=at,
                    move_number=now(request.move_number),
                    note=request.note,
                )
            case requests.IrregularAccepted():
                self.irregular_accepted(
                    request.color,
                    request.article,
                    at=at,
                    move_number=now(request.move_number),
                    note=request.note,
                )
            case requests.StoneReplaced():
                self.stone_replaced(
                    request.color,
                    request.point,
                    lifted=request.lifted,
                    violation=request.violation,
                    at=at,
                    move_number=now(request.move_number),
                    note=request.note,
                )
            case requests.StonesRestored():
                self.stones_restored(
                    request.color,
                    request.points,
                    warning=request.warning,
                    at=at,
                    move_number=request.move_number,
                    note=request.note,
                )
            case requests.CoinToss():
                self.coin_toss(
                    request.caller, request.face, call=request.called, at=at, note=request.note
                )
            case requests.ColoursChosen():
                self.colours_chosen(
                    request.choice, opponent_takes=request.opponent_takes, at=at, note=request.note
                )
            case requests.Appeal():
                self.appeal(
                    request.color,
                    request.against,
                    question=request.question,
                    appellant=request.appellant,
                    round_end=f.round_end,
                    limit=request.limit,
                    organiser_delay=request.organiser_delay,
                    by_chief_arbiter=request.by_chief_arbiter,
                    team_event=request.team_event,
                    leader_supports=request.leader_supports,
                    player_age=request.player_age,
                    deposit=request.deposit,
                    at=at,
                    note=request.note,
                )
            case requests.AppealDecided():
                self.appeal_decided(
                    request.appeal, request.result, votes=request.votes, at=at, note=request.note
                )
            case _:
                raise InvalidInput(f"not a ruling request: {request!r}")
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
