"""Stones put right: a dropped stone (Gomoku §4.2), stones wrongly removed (Go §18.1), an
irregular stone accepted or replaced (Gomoku §6.1)."""

from __future__ import annotations

from duiyi import Color
from duiyi.errors import InvalidInput, RefereeError
from duiyi.referee.base import _check_color
from duiyi.referee.kinds import RulingKind
from duiyi.referee.losses import Losses
from duiyi.referee.ruling import Ruling


class Corrections(Losses):
    """Stones put right: a dropped stone (Gomoku §4.2), stones wrongly removed (Go §18.1), an
    irregular stone accepted or replaced (Gomoku §6.1)."""

    def dropped_stone(
        self,
        color: Color,
        *,
        consent: bool = True,
        chief_arbiter: bool = False,
        penalty: str | None = None,
        deduct: float = 0.0,
        award: float = 0.0,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """A stone of ``color`` fell on the board by accident and was entered as its move: it
        is taken back and ``color`` chooses its point again (``Ruling.take_back``).

        Go §17.3: with the opponent's consent (``consent=True``) or, failing agreement, by the
        chief arbiter's decision (``chief_arbiter=True``); no warning (it is not a take-back,
        悔棋, :meth:`void_move` with "Go §17.3").

        Gomoku §6.1(7) "判收回掉落子，另选落点" on the opponent's demand (else
        :meth:`irregular_accepted`), with §4.2's "适当处罚": ``penalty`` ``"violation"`` (the
        default, Gomoku §12.4), ``"time"`` (罚时 of ``deduct`` / ``award`` seconds, §12.3(3)) or
        ``"none"``. The penalty is recorded after the take-back.

        >>> from duiyi import BLACK, WHITE
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO, GOMOKU
        >>> r = Referee(GO).dropped_stone(BLACK)
        >>> r.take_back, r.passes, r.outcome
        (True, None, None)
        >>> ref = Referee(GOMOKU)
        >>> ref.dropped_stone(WHITE).article, ref.violations(WHITE)
        ('Gomoku §6.1(7)', 1)
        """
        _check_color(color)
        article = self.article("dropped_stone")
        if self.book.penalised_drop:
            return self._dropped_stone_gomoku(
                color, article, penalty or "violation", deduct, award, at, move_number, note
            )
        if penalty not in (None, "none"):
            raise RefereeError(
                f"Go §17.3 gives no penalty for a dropped stone picked up, got {penalty!r}",
                article,
                code="dropped-no-penalty",
            )
        if not consent and not chief_arbiter:
            raise RefereeError(
                "without the opponent's consent the stone stays unless the chief arbiter "
                f"decides otherwise ({article}): pass chief_arbiter=True",
                article,
                code="dropped-needs-consent",
            )
        text = note or (
            "dropped stone picked up with the opponent's consent"
            if consent
            else "dropped stone picked up by the chief arbiter's decision"
        )
        return self.record(
            Ruling(RulingKind.DROPPED_STONE, color, article, at, move_number, text, take_back=True)
        )

    def _dropped_stone_gomoku(
        self,
        color: Color,
        article: str,
        penalty: str,
        deduct: float,
        award: float,
        at: float | None,
        move_number: int | None,
        note: str,
    ) -> Ruling:
        """Gomoku §6.1(7) and §4.2: the stone back, the penalty as decided."""
        if penalty not in ("violation", "time", "none"):
            raise InvalidInput(
                f"the penalty for a dropped stone is 'violation', 'time' or 'none' (Gomoku §4.2), "
                f"got {penalty!r}",
                code="field-one-of",
                values={"field": "penalty", "expected": "'violation', 'time' or 'none'"},
            )
        if penalty == "time" and deduct <= 0 and award <= 0:
            raise InvalidInput(
                "a time penalty (罚时, Gomoku §12.3(3)) needs deduct or award seconds",
                code="time-penalty-nothing",
            )
        self._not_accepted(color, move_number, article)
        text = note or "dropped stone taken back; the player chooses its point again"
        ruling = self.record(
            Ruling(RulingKind.DROPPED_STONE, color, article, at, move_number, text, take_back=True)
        )
        if penalty == "violation":
            self.violation(
                color, "Gomoku §4.2", note="dropped stone", at=at, move_number=move_number
            )
        elif penalty == "time":
            self.time_penalty(
                color,
                deduct=deduct,
                award=award,
                note="dropped stone",
                at=at,
                move_number=move_number,
            )
        return ruling

    def stones_restored(
        self,
        color: Color,
        points: list[str] | tuple[str, ...],
        *,
        warning: bool = True,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Go §18.1 "误提对方有气之子，被判警告一次，并应将有关之子放回原处": ``color`` removed
        stones of the opponent that still had liberties; they go back on ``points`` (the
        session edits the position, :class:`duiyi.go.actions.RestoreStones`) and ``color``
        gets a warning (Go §24).

        >>> from duiyi import WHITE
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO
        >>> ref = Referee(GO)
        >>> r = ref.stones_restored(WHITE, ["D4", "D5"])
        >>> r.restore, ref.warnings(WHITE)
        (('D4', 'D5'), 1)
        """
        _check_color(color)
        article = self.article("stones_restored")
        if isinstance(points, str) or not points or not all(isinstance(p, str) for p in points):
            raise InvalidInput(
                f"restore_stones names the points of the stones: {points!r}",
                code="field-missing",
                values={"field": "points"},
            )
        text = note or f"{color.opponent}'s stones wrongly removed by {color} put back"
        r = self.record(
            Ruling(
                RulingKind.STONES_RESTORED,
                color,
                article,
                at,
                move_number,
                text,
                restore=tuple(p.strip().upper() for p in points),
            )
        )
        if warning:
            self.warning(color, article, note="removed stones with liberties", at=at)
        return r

    def irregular_accepted(
        self,
        color: Color,
        article: str | None = None,
        *,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §6.1: the opponent of ``color`` accepts ``color``'s irregular act (e.g.
        §6.1(5) a pushed stone stays where it stopped) instead of having it corrected. Nothing
        on the board changes, there is no violation, and a correction of the same act
        (``move_number``) is refused afterwards. Playing on without telling the arbiter
        accepts it as well (Gomoku §6.2): the session then refuses the correction.

        >>> from duiyi import BLACK
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> ref.irregular_accepted(BLACK, "Gomoku §6.1(5)", move_number=7).kind.value
        'irregular_accepted'
        >>> ref.stone_replaced(BLACK, "h9", move_number=7)
        Traceback (most recent call last):
        ...
        duiyi.errors.RefereeError: white accepted this irregularity of black (Gomoku §6.1(5)): it can no longer be corrected
        """
        _check_color(color)
        base = self.article("irregular_accepted")
        art = article or base
        if not art.startswith(base):
            raise RefereeError(
                f"the irregular acts the opponent may accept are {base}'s",
                base,
                code="irregular-other-article",
                values={"article": base},
            )
        if self._accepted(color, move_number) is not None:
            raise RefereeError(f"already accepted ({art})", art, code="irregular-accepted-already")
        text = note or f"{color.opponent} accepts the irregularity instead of a correction"
        return self.record(
            Ruling(RulingKind.IRREGULAR_ACCEPTED, color, art, at, move_number, text, counts=False)
        )

    def stone_replaced(
        self,
        color: Color,
        point: str,
        *,
        lifted: bool = False,
        violation: bool = True,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §6.1(5) (推盘, a stone pushed along the board) or, with ``lifted``, §6.1(6)
        (拔子, a stone put down, lifted and put elsewhere): on the opponent's demand ``color``'s
        last stone goes back to ``point``, the first (empty) point it touched. The session
        moves the stone; the turn is unchanged. The opponent pointed it out, so ``color`` gets
        a violation (Gomoku §6.1 "纠正…并接受处罚", §12.4; ``violation=False``: the correction
        alone). Refused once the opponent accepted the act (Gomoku §6.1) or played on
        (Gomoku §6.2, in the session).

        >>> from duiyi import WHITE
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> Referee(GOMOKU).stone_replaced(WHITE, "j9", lifted=True).replace_at
        'j9'
        """
        _check_color(color)
        article = self.article("stone_replaced") + ("(6)" if lifted else "(5)")
        if not isinstance(point, str) or not point.strip():
            raise InvalidInput(
                f"replace_stone names the point the stone goes back to: {point!r}",
                code="field-missing",
                values={"field": "point"},
            )
        self._not_accepted(color, move_number, article)
        text = note or (
            "re-lifted stone put back on the first point" if lifted else "pushed stone put back"
        )
        ruling = self.record(
            Ruling(
                RulingKind.STONE_REPLACED,
                color,
                article,
                at,
                move_number,
                text,
                replace_at=point.strip().lower(),
            )
        )
        if violation:
            self.violation(color, "Gomoku §12.4", note=text, at=at, move_number=move_number)
        return ruling
