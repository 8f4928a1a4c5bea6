"""Warnings, violations, time penalties, clock adjustments, void moves, the pass on overtime and
colour corrections (Go §17-24, Gomoku §6, §12)."""

from __future__ import annotations

from dataclasses import replace

from duiyi import Color
from duiyi.errors import InvalidInput, RefereeError
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee.base import LedgerBase, _check_color
from duiyi.referee.kinds import Decision, RulingKind
from duiyi.referee.ruling import Ruling, overtime_pass_ruling


class Penalties(LedgerBase):
    """Warnings, violations, time penalties, clock adjustments, void moves, the pass on overtime and
    colour corrections (Go §17-24, Gomoku §6, §12)."""

    def warning(
        self,
        color: Color,
        article: str | None = None,
        *,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """A warning (警告, Go §17.2-4, §18.1-2, §22.6, §23): one stone off ``color``'s count
        (Go §24.1); the second in a game loses it (Go §24.2). Gomoku has violations instead."""
        return self._counted(RulingKind.WARNING, color, article, note, at, move_number)

    def violation(
        self,
        color: Color,
        article: str | None = None,
        *,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """A violation (违例, Gomoku §2.20(2), §12): the second in a game loses it
        (Gomoku §12.3(4), §10.1(3)H)."""
        return self._counted(RulingKind.VIOLATION, color, article, note, at, move_number)

    def time_penalty(
        self,
        color: Color,
        *,
        deduct: float = 0.0,
        award: float = 0.0,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """罚时 (Gomoku §2.20(1), §12.3(3)A): ``deduct`` seconds from ``color`` and/or ``award``
        seconds to the opponent (usually at most 5 minutes each).

        >>> from duiyi import BLACK
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> Referee(GOMOKU).time_penalty(BLACK, deduct=120, award=300).clock
        ((Color.BLACK, -120.0), (Color.WHITE, 300.0))
        """
        _check_color(color)
        for name, v in (("deduct", deduct), ("award", award)):
            if not v >= 0:
                raise InvalidInput(
                    f"{name} must be >= 0 seconds, got {v!r}",
                    code="field-at-least",
                    values={"field": name, "ge": "0"},
                )
        if deduct == 0 and award == 0:
            raise InvalidInput(
                "a time penalty deducts or awards some time", code="time-penalty-nothing"
            )
        article = article or self.article("time_penalty")
        clock: list[tuple[Color, float]] = []
        if deduct:
            clock.append((color, -float(deduct)))
        if award:
            clock.append((color.opponent, float(award)))
        return self.record(
            Ruling(
                RulingKind.TIME_PENALTY, color, article, at, move_number, note, clock=tuple(clock)
            )
        )

    def clock_adjustment(
        self,
        color: Color,
        seconds: float,
        *,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
    ) -> Ruling:
        """A clock correction that is not a penalty: a faulty or replaced clock (Go §22.8-9,
        Gomoku §8.7, §8.10); ``seconds`` may be negative, never 0 (a correction changes the clock)."""
        _check_color(color)
        article = article or self.article("clock_adjustment")
        if not seconds:
            raise RefereeError(
                f"a clock correction of 0 seconds changes nothing ({article})",
                article,
                code="clock-adjustment-zero",
            )
        return self.record(
            Ruling(
                RulingKind.CLOCK_ADJUSTMENT,
                color,
                article,
                at,
                None,
                note,
                clock=((color, float(seconds)),),
            )
        )

    def void_move(
        self,
        color: Color,
        article: str,
        *,
        pass_turn: bool | None = None,
        warning: bool | None = None,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """Referee mode (DECISIONS.md): a move the arbiter voids.

        Defaults follow the article: Go §19 (a forbidden point) is void and a pass; Go §18.3
        (retaking a ko without a threat) is void, a pass and a warning; Go §17.2 (two moves in a
        row) voids the second with a warning, the turn is not lost; Go §17.3 (a take-back) puts
        the stone back with a warning; Gomoku §6.1 corrections (e.g. §6.1(4), a second stone in
        a row) undo the irregular act without a pass and, the opponent having pointed it out,
        carry a violation (Gomoku §6.1 "纠正…并接受处罚", §12.4; docs/decisions.md).
        ``warning`` is the game's counted sanction: a warning in Go, a violation in Gomoku
        (``warning=False``: the correction alone, e.g. the arbiter's own finding). Other
        articles: void and a pass.

        >>> from duiyi import BLACK
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO
        >>> r = Referee(GO).void_move(BLACK, "Go §18.3")
        >>> r.passes, r.kind.value
        (Color.BLACK, 'void_move')
        """
        _check_color(color)
        key = article.split("(")[0].strip()
        if key.startswith("Gomoku §6.1"):
            key = "Gomoku §6.1"
        defaults = {
            "Go §19": (True, False),
            "Go §18.3": (True, True),
            "Go §17.2": (False, True),
            "Go §17.3": (False, True),  # a take-back: the stone goes back, a warning
            "Gomoku §6.1": (False, True),  # the second stone comes off, a violation (§12.4)
        }.get(key, (True, False))
        if key == "Gomoku §6.1":
            self._not_accepted(color, move_number, article)
        p = defaults[0] if pass_turn is None else pass_turn
        w = defaults[1] if warning is None else warning
        void = self.record(
            Ruling(
                RulingKind.VOID_MOVE,
                color,
                article,
                at,
                move_number,
                note,
                passes=color if p else None,
            )
        )
        if w:
            self._sanction(color, article, "void move", at, move_number)
        return void

    def _sanction(
        self, color: Color, article: str, note: str, at: float | None, move_number: int | None
    ) -> Ruling:
        """The game's counted sanction: a warning (Go §24) or a violation (Gomoku §12.4)."""
        if self.book.counted is RulingKind.WARNING:
            return self.warning(color, article, note=note, at=at, move_number=move_number)
        return self.violation(color, article, note=note, at=at, move_number=move_number)

    def overtime_pass(
        self,
        color: Color,
        *,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Go §22.5: over the last minute, on ``color``'s request, the overrun counts as one
        pass (虚着, 改判弃权一次) and play goes on under the same byo-yomi. No warning: the
        article gives none, so no stone comes off the count and it never counts towards
        Go §24.2 (DECISIONS.md).

        >>> from duiyi import BLACK
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO
        >>> ref = Referee(GO)
        >>> r = ref.overtime_pass(BLACK)
        >>> r.passes, ref.warnings(BLACK), ref.stone_penalty(BLACK)
        (Color.BLACK, 0, 0)
        """
        _check_color(color)
        ruling = overtime_pass_ruling(color, self.article("overtime_pass"), at, move_number)
        return self.record(replace(ruling, note=note) if note else ruling)

    def colour_correction(
        self,
        *,
        moves_played: int,
        minutes_played: float = 0.0,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """The players hold the wrong colours. Go §17.1: corrected up to move 10 (inclusive);
        Gomoku §5.2: corrected until white 4 is placed or 15 minutes have passed; a correction
        restarts the game with the colours exchanged and the clocks reset. Later, play goes on,
        the result stands and pairings keep the draw's colours (``corrected=False``).

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO, GOMOKU
        >>> Referee(GO).colour_correction(moves_played=10).restart
        True
        >>> Referee(GOMOKU).colour_correction(moves_played=4).restart
        False
        """
        if moves_played < 0:
            raise InvalidInput(
                "moves_played must be >= 0",
                code="field-at-least",
                values={"field": "moves_played", "ge": "0"},
            )
        article = self.article("colour_correction")
        ok = self.book.colour_fix(moves_played, minutes_played)
        text = note or (
            "colours corrected: the game restarts"
            if ok
            else "too late to correct: play on, result and pairings stand"
        )
        return self.record(
            Ruling(
                RulingKind.COLOUR_CORRECTION,
                None,
                article,
                at,
                moves_played,
                text,
                restart=ok,
                swap=ok,
                corrected=ok,
            )
        )

    def _decide(
        self,
        kind: RulingKind,
        decision: Decision,
        article: str,
        offender: Color | None,
        deliberate: bool,
        at: float | None,
        note: str,
    ) -> Ruling:
        outcome: Outcome | None = None
        if decision is Decision.DRAW:
            outcome = Outcome.draw(Termination.ADJUDICATION, article)
        elif decision is Decision.BOTH_LOSE:
            outcome = Outcome(Result.BOTH_LOSE, Termination.ADJUDICATION, article)
        elif decision is Decision.OFFENDER_LOSES:
            if offender is None:
                raise RefereeError(
                    "name the player who loses (offender=...)", article, code="needs-offender"
                )
            outcome = Outcome.win(offender.opponent, Termination.ADJUDICATION, article)
        return self.record(
            Ruling(
                kind,
                offender,
                article,
                at,
                None,
                note,
                decision=decision,
                deliberate=deliberate,
                outcome=outcome,
                restart=decision is Decision.REPLAY,
            )
        )
