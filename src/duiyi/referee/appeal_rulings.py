"""Appeals recorded against a ruling and their decisions (Go §27, Gomoku §8.11, §13)."""

from __future__ import annotations

from fractions import Fraction

from duiyi import Color
from duiyi.errors import InvalidInput, RefereeError
from duiyi.referee.appeals import (
    AppealRecord,
    AppealResult,
    Appellant,
    Question,
    appeal_in_time,
    arbitrate,
    deposit_refund,
    final_authority,
    may_appeal,
)
from duiyi.referee.base import _check_color
from duiyi.referee.kinds import RulingKind
from duiyi.referee.ruling import Ruling
from duiyi.referee.toss import Toss


class AppealRulings(Toss):
    """Appeals recorded against a ruling and their decisions (Go §27, Gomoku §8.11, §13)."""

    # ------------------------------------------------------------------ appeals (Gomoku §13)

    def appeal(
        self,
        color: Color,
        against: int,
        *,
        question: Question | str = Question.FACT,
        appellant: Appellant | str = Appellant.PLAYER,
        round_end: float | None = None,
        limit: float | None = None,
        organiser_delay: float = 0.0,
        by_chief_arbiter: bool = False,
        team_event: bool = False,
        leader_supports: bool = False,
        player_age: int | None = None,
        deposit: int | str | Fraction = 0,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """``color`` appeals against the ruling ``against`` (its index in :attr:`rulings`),
        Gomoku §13.1. Refused when the appellant may not appeal (§13.1: in a team event the
        leader, or a player the leader supports), or, with ``limit`` seconds after
        ``round_end``, when it comes too late (§8.11 "应在当轮比赛结束后规定的时间内提出"; the
        organiser's delays excluded); while the round's end is not known (None) no appeal is
        late and no deadline is recorded. The
        record keeps the deadline and who has the last word (a fact: the arbiter; a rule's
        interpretation: the chief arbiter; a question the rules do not cover, decided by the
        chief arbiter: the competition committee). Changes nothing on the board.

        >>> from duiyi import BLACK
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.violation(BLACK)
        >>> a = ref.appeal(BLACK, 0, round_end=100.0, limit=1800.0, at=400.0).appeal
        >>> a.against, a.deadline, a.authority
        (0, 1900.0, 'arbiter')
        """
        _check_color(color)
        article = self.article("appeal")
        if isinstance(against, bool) or not isinstance(against, int):
            raise InvalidInput(
                f"an appeal names the ruling it is against (its number): {against!r}"
            )
        if not 0 <= against < len(self._rulings):
            raise RefereeError(f"there is no ruling number {against} to appeal against", article)
        target = self._rulings[against]
        if target.kind in (RulingKind.APPEAL, RulingKind.APPEAL_DECIDED):
            raise RefereeError("an appeal is against a ruling, not against an appeal", article)
        try:
            q, who = Question(question), Appellant(appellant)
            money = Fraction(str(deposit))
        except (ValueError, ZeroDivisionError) as exc:
            raise InvalidInput(f"not an appeal: {exc}", article) from exc
        if money < 0:
            raise InvalidInput(f"a deposit is not negative, got {deposit!r}", article)
        if not may_appeal(
            who, team_event=team_event, player_age=player_age, leader_supports=leader_supports
        ):
            raise RefereeError(
                "in a team event only the team leader (or a player the leader supports) appeals; "
                "in an individual event the player (a parent for a child under 9)",
                article,
            )
        deadline: float | None = None
        if limit is not None and round_end is not None:
            start = round_end
            if at is None:
                raise InvalidInput("a deadline needs the appeal's time", "Gomoku §8.11")
            if not appeal_in_time(start, at, limit, organiser_delay=organiser_delay):
                raise RefereeError(
                    f"the appeal came {at - start - organiser_delay:g} s after the round ended, "
                    f"past the {limit:g} s allowed (Gomoku §8.11)",
                    "Gomoku §8.11",
                )
            deadline = start + limit + organiser_delay
        record = AppealRecord(
            against,
            q,
            who,
            deadline,
            final_authority(q, by_chief_arbiter=by_chief_arbiter),
            money,
        )
        text = note or f"{color} appeals against ruling {against} ({target.article})"
        return self.record(Ruling(RulingKind.APPEAL, color, article, at, None, text, appeal=record))

    def open_appeals(self) -> list[int]:
        """The indices of the appeals not decided yet.

        >>> from duiyi import WHITE
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU); _ = ref.violation(WHITE); _ = ref.appeal(WHITE, 0)
        >>> ref.open_appeals()
        [1]
        """
        decided = {
            r.appeal.against
            for r in self._rulings
            if r.kind is RulingKind.APPEAL_DECIDED and r.appeal is not None
        }
        return [
            i
            for i, r in enumerate(self._rulings)
            if r.kind is RulingKind.APPEAL and i not in decided
        ]

    def appeal_decided(
        self,
        appeal: int,
        result: AppealResult | str,
        *,
        votes: tuple[bool, ...] | list[bool] = (),
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """The answer to the appeal number ``appeal`` (Gomoku §13): ``result`` upheld,
        reasonable (failed, with some reason) or rejected, and the deposit refund (full, half,
        none, §13.1-13.2). When the competition committee has the last word its members'
        ``votes`` are required: an odd number, at least three, the majority decides and must
        agree with ``result`` (§13.2). What an upheld appeal changes is a further ruling.

        >>> from duiyi import WHITE
        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU); _ = ref.violation(WHITE)
        >>> _ = ref.appeal(WHITE, 0, question="uncovered", by_chief_arbiter=True, deposit=200)
        >>> d = ref.appeal_decided(1, "reasonable", votes=[False, False, True]).appeal
        >>> d.result.value, d.refund
        ('reasonable', Fraction(100, 1))
        """
        article = self.article("appeal_decided")
        if appeal not in self.open_appeals():
            raise RefereeError(f"ruling {appeal} is not an open appeal", article)
        lodged = self._rulings[appeal].appeal
        assert lodged is not None
        try:
            res = AppealResult(result)
        except ValueError as exc:
            raise InvalidInput(f"not an appeal result: {result!r}", article) from exc
        ballot = tuple(votes)
        if lodged.authority == "competition committee":
            granted = arbitrate(ballot)
            if granted is not (res is AppealResult.UPHELD):
                raise RefereeError(
                    f"the committee's majority {'granted' if granted else 'refused'} the appeal, "
                    f"not {res.value!r} (Gomoku §13.2)",
                    "Gomoku §13.2",
                )
        elif ballot:
            raise RefereeError(
                f"the {lodged.authority} decides this appeal alone: no committee vote (§13.1)",
                "Gomoku §13.1",
            )
        record = AppealRecord(
            appeal,
            lodged.question,
            lodged.appellant,
            lodged.deadline,
            lodged.authority,
            lodged.deposit,
            res,
            ballot,
            deposit_refund(lodged.deposit, res),
        )
        color = self._rulings[appeal].color
        text = note or f"appeal {appeal}: {res.value} ({lodged.authority})"
        return self.record(
            Ruling(RulingKind.APPEAL_DECIDED, color, article, at, None, text, appeal=record)
        )
