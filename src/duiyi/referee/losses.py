"""Moved and scattered stones, forfeits, no-shows, withdrawals, disqualification, disciplinary
losses, both flags and leaving the seat (Go §19-23, §28; Gomoku §4.2, §8, §18)."""

from __future__ import annotations

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput, RefereeError
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee.base import _check_color
from duiyi.referee.kinds import Decision, RulingKind
from duiyi.referee.penalties import Penalties
from duiyi.referee.ruling import Ruling


class Losses(Penalties):
    """Moved and scattered stones, forfeits, no-shows, withdrawals, disqualification, disciplinary
    losses, both flags and leaving the seat (Go §19-23, §28; Gomoku §4.2, §8, §18)."""

    def moved_stones(
        self,
        decision: Decision,
        *,
        offender: Color | None = None,
        deliberate: bool = False,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """Stones found moved (Go §17.5, Gomoku §4.2): restore, valid, draw, replay, or (Go
        only) both lose. Deliberate moving loses the game for the mover.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO
        >>> Referee(GO).moved_stones(Decision.BOTH_LOSE).outcome.result.value
        'both_lose'
        >>> Referee(GO).moved_stones(Decision.VALID, offender=WHITE, deliberate=True).outcome.winner
        Color.BLACK
        """
        article = self.article("moved_stones")
        if deliberate:
            if offender is None:
                raise RefereeError(
                    "deliberate moving needs the offender", article, code="needs-offender"
                )
            decision = Decision.OFFENDER_LOSES
        elif decision not in self.book.moved:
            allowed = ", ".join(sorted(d.value for d in self.book.moved))
            raise RefereeError(
                f"{article} allows {allowed} for moved stones, not {decision.value}",
                article,
                code="moved-decision",
                values={"allowed": allowed, "decision": decision.value},
            )
        return self._decide(
            RulingKind.MOVED_STONES, decision, article, offender, deliberate, at, note
        )

    def scattered(
        self,
        decision: Decision,
        *,
        by: Color | None = None,
        deliberate: bool = False,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """The position was scattered (Go §17.6, Gomoku §4.2).

        Not by the players: resume if rebuilt, else draw, replay or (Go) both lose. By a player
        (``by``): resume if rebuilt (Gomoku: with a violation for the scatterer), else that
        player loses; deliberately: that player loses (Gomoku).
        """
        article = self.article("scattered")
        if by is not None:
            _check_color(by)
            if deliberate or decision is Decision.OFFENDER_LOSES:
                return self._decide(
                    RulingKind.SCATTERED, Decision.OFFENDER_LOSES, article, by, deliberate, at, note
                )
            if decision is not Decision.RESUME:
                raise RefereeError(
                    f"{article}: a player's accidental scatter is rebuilt (resume) or loses "
                    "(offender_loses)",
                    article,
                    code="scatter-accidental",
                )
            r = self._decide(RulingKind.SCATTERED, decision, article, by, False, at, note)
            if self.book.penalised_scatter:
                self.violation(by, article, note="scattered the position", at=at)
            return r
        if decision not in self.book.scattered:
            allowed = ", ".join(sorted(d.value for d in self.book.scattered))
            raise RefereeError(
                f"{article} allows {allowed} for a scattered position, not {decision.value}",
                article,
                code="scattered-decision",
                values={"allowed": allowed, "decision": decision.value},
            )
        return self._decide(RulingKind.SCATTERED, decision, article, None, False, at, note)

    def forfeit(
        self,
        color: Color,
        article: str,
        *,
        note: str = "",
        at: float | None = None,
        override: bool = False,
    ) -> Ruling:
        """``color`` loses by the arbiter's decision (判负): cheating (Go §23.1), a phone
        (Go §23.7), refusing the rules (Gomoku §10.1(3)G), a deliberate scatter..."""
        _check_color(color)
        return self._loses(RulingKind.FORFEIT, color, article, at, note, override=override)

    def _loses(
        self,
        kind: RulingKind,
        color: Color,
        article: str,
        at: float | None,
        note: str,
        *,
        colors: tuple[Color, ...] = (),
        override: bool = False,
    ) -> Ruling:
        """Record a ruling by which ``color`` loses the game by forfeit under ``article``."""
        outcome = Outcome.win(color.opponent, Termination.FORFEIT, article)
        return self.record(
            Ruling(kind, color, article, at, None, note, colors=colors, outcome=outcome),
            override=override,
        )

    def double_forfeit(
        self, article: str, *, note: str = "", at: float | None = None, override: bool = False
    ) -> Ruling:
        """Both players lose (判双方负, Go §23.1, Gomoku §12.3(2)C)."""
        return self.record(
            Ruling(
                RulingKind.DOUBLE_FORFEIT,
                None,
                article,
                at,
                None,
                note,
                colors=(BLACK, WHITE),
                outcome=Outcome(Result.BOTH_LOSE, Termination.FORFEIT, article),
            ),
            override=override,
        )

    def no_show(
        self,
        colors: frozenset[Color] | set[Color] | tuple[Color, ...],
        *,
        at: float | None = None,
        note: str = "",
        article: str | None = None,
    ) -> Ruling:
        """Absent past the lateness limit: the game is lost (Go §22.1-2, Gomoku §8.5); both
        absent, both lose (Go §22.3, Gomoku §8.5). ``article`` is the lateness rule that
        applied to a single no-show (the session gives its clock's: Go §22.2 for the 15-minute
        limit at a venue by the lodging); by default Go §22.1 / Gomoku §8.5.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO
        >>> Referee(GO).no_show({BLACK}).outcome.winner
        Color.WHITE
        >>> Referee(GO).no_show({WHITE}, article="Go §22.2").outcome.article
        'Go §22.2'
        """
        who = tuple(c for c in (BLACK, WHITE) if c in set(colors))
        if not who:
            raise InvalidInput("a no-show names at least one player", code="no-show-nobody")
        article = article or self.article("no_show")
        if len(who) == 2:
            article = self.article("no_show_both")
            outcome = Outcome(Result.BOTH_LOSE, Termination.FORFEIT, article)
            return self.record(
                Ruling(
                    RulingKind.NO_SHOW, None, article, at, None, note, colors=who, outcome=outcome
                )
            )
        return self._loses(RulingKind.NO_SHOW, who[0], article, at, note, colors=who)

    def withdrawal(self, color: Color, *, at: float | None = None, note: str = "") -> Ruling:
        """``color`` leaves the event mid-game (Go §15.2, §28; Gomoku §10.1(3)D, §18.5): this
        game is lost; what happens to other games is the tournament's business."""
        _check_color(color)
        article = self.article("withdrawal")
        return self._loses(RulingKind.WITHDRAWAL, color, article, at, note)

    def disqualification(
        self,
        color: Color,
        *,
        approved: bool = False,
        decided: bool = False,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
    ) -> Ruling:
        """取消比赛资格 (Gomoku §2.20(4), §12.3(2)D): after serious misconduct and a refused
        penalty, and only once the competition committee approved the chief arbiter's written
        request (``approved=True``). The player is out of the event (:meth:`disqualified`);
        a game still in play is lost (``decided=False``); a game already decided keeps its
        result (``decided=True``), what becomes of earlier results is the tournament's rule.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> r = Referee(GOMOKU).disqualification(WHITE, approved=True)
        >>> r.kind.value, r.outcome.winner, r.colors
        ('disqualification', Color.BLACK, (Color.WHITE,))
        """
        _check_color(color)
        art = article or self.article("disqualification")
        if not approved:
            raise RefereeError(
                "a disqualification needs the competition committee's approval of the chief "
                "arbiter's written request (Gomoku §2.20(4)): pass approved=True",
                "Gomoku §2.20(4)",
                code="disqualification-unapproved",
            )
        if color in self.disqualified():
            raise RefereeError(
                f"{color} is already disqualified",
                art,
                code="already-disqualified",
                values={"player": color.value},
            )
        outcome = None if decided else Outcome.win(color.opponent, Termination.FORFEIT, art)
        text = note or "disqualified from the event"
        return self.record(
            Ruling(
                RulingKind.DISQUALIFICATION,
                color,
                art,
                at,
                None,
                text,
                colors=(color,),
                outcome=outcome,
            )
        )

    def disciplinary_loss(
        self,
        color: Color,
        *,
        decided: bool = False,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
    ) -> Ruling:
        """判负 as a disciplinary penalty (Gomoku §2.20(3)). In play (``decided=False``) it is
        a forfeit: ``color`` loses the game. Once the result is confirmed (``decided=True``)
        the opponent's result from the board must not change, so the ruling carries no
        outcome: it marks ``color`` as losing this game (:meth:`penalty_losses`) and the game's
        own outcome stays (e.g. a draw: the offender scores 0, the opponent keeps ½).

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> r = Referee(GOMOKU).disciplinary_loss(BLACK, decided=True)
        >>> r.outcome is None, r.colors
        (True, (Color.BLACK,))
        >>> Referee(GOMOKU).disciplinary_loss(BLACK).outcome.winner
        Color.WHITE
        """
        _check_color(color)
        article = article or self.article("disciplinary_loss")
        if decided:
            if color in self.penalty_losses():
                raise RefereeError(
                    f"{color} already lost this game by a penalty",
                    article,
                    code="already-penalty-loss",
                    values={"player": color.value},
                )
            return self.record(
                Ruling(
                    RulingKind.DISCIPLINARY_LOSS,
                    color,
                    article,
                    at,
                    None,
                    note or "penalty loss after the result: the opponent keeps its result",
                    colors=(color,),
                )
            )
        return self._loses(RulingKind.DISCIPLINARY_LOSS, color, article, at, note)

    def both_flags(
        self, *, at: float | None = None, note: str = "", override: bool = False
    ) -> Ruling:
        """Both flags found down and nobody can tell which fell first: a draw (Gomoku
        §10.2(4)). An over-the-board ruling; a server clock always knows the order.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> Referee(GOMOKU).both_flags().outcome.result.value
        'draw'
        """
        article = self.article("both_flags")
        return self.record(
            Ruling(
                RulingKind.BOTH_FLAGS,
                None,
                article,
                at,
                None,
                note or "both flags down, order unknown",
                colors=(BLACK, WHITE),
                outcome=Outcome.draw(Termination.TIME, article),
            ),
            override=override,
        )

    def leave_seat(
        self,
        color: Color,
        *,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Go §22.7: in byo-yomi, ``color`` may leave the seat during the opponent's thinking
        time only with the arbiter's permission, once per game. The permission is recorded;
        the clocks are not touched (a player who leaves anyway is simply counted as usual);
        a second request in the game is refused.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO
        >>> ref = Referee(GO)
        >>> ref.leave_seat(BLACK).kind.value
        'leave_seat'
        >>> ref.seat_leaves(BLACK)
        1
        """
        _check_color(color)
        article = self.article("leave_seat")
        if self.seat_leaves(color):
            raise RefereeError(
                f"{color} already left the seat once in this game; {article} allows it once "
                "per game",
                article,
                code="seat-left-once",
                values={"player": color.value},
            )
        return self.record(
            Ruling(
                RulingKind.LEAVE_SEAT,
                color,
                article,
                at,
                move_number,
                note or "left the seat with the arbiter's permission",
            )
        )
