"""Appeals and arbitration (Gomoku §8.11 申诉时限, §13 申诉与仲裁): the checkable parts.

Who may appeal, whether it came in time, who has the last word, what happens to the deposit and
how the arbitration committee decides. Times are plain seconds from the caller (no wall clock);
the hearing itself is the people's business.

>>> appeal_in_time(round_end=0.0, lodged=1800.0, limit=3600.0)
True
>>> deposit_refund(200, AppealResult.REASONABLE)
Fraction(100, 1)
>>> arbitrate([True, True, False])
True
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from duiyi.errors import InvalidInput, RefereeError

__all__ = [
    "AppealRecord",
    "AppealResult",
    "Appellant",
    "Question",
    "appeal_in_time",
    "arbitrate",
    "deposit_refund",
    "final_authority",
    "may_appeal",
]


class Appellant(enum.Enum):
    """Who lodges an appeal (Gomoku §13.1)."""

    PLAYER = "player"  # 参赛棋手 (a child under 9 through a parent)
    PARENT = "parent"  # 家长 of a player under 9
    TEAM_LEADER = "team_leader"  # 领队 or 教练
    OTHER = "other"


class Question(enum.Enum):
    """What an appeal is about (Gomoku §13.1)."""

    FACT = "fact"  # an arbiter's decision on the facts of the game
    INTERPRETATION = "interpretation"  # the rules, regulations, supplementary rules
    UNCOVERED = "uncovered"  # a question the rules and regulations do not cover


class AppealResult(enum.Enum):
    """How an appeal ended (Gomoku §13.1-13.2, for the deposit)."""

    UPHELD = "upheld"  # 申诉成功
    REASONABLE = "reasonable"  # 未成功，但有一定的合理性
    REJECTED = "rejected"


def appeal_in_time(
    round_end: float, lodged: float, limit: float, *, organiser_delay: float = 0.0
) -> bool:
    """Gomoku §8.11: an appeal must come within ``limit`` seconds after the round ended; time
    lost through the organiser's or the host's fault (``organiser_delay``) does not count.

    >>> appeal_in_time(0.0, 4000.0, 3600.0), appeal_in_time(0.0, 4000.0, 3600.0, organiser_delay=600)
    (False, True)
    """
    for name, v in (("limit", limit), ("organiser_delay", organiser_delay)):
        if not v >= 0:
            raise InvalidInput(f"{name} must be >= 0 seconds, got {v!r}", "Gomoku §8.11")
    if lodged < round_end:
        raise InvalidInput("an appeal about a round comes after the round ended", "Gomoku §8.11")
    return lodged - round_end - organiser_delay <= limit


def may_appeal(
    appellant: Appellant,
    *,
    team_event: bool = False,
    player_age: int | None = None,
    leader_supports: bool = False,
) -> bool:
    """Gomoku §13.1: in an individual event only the player (a child under 9 may be helped and
    represented by a parent); in a team event only the team leader or coach, and a player's
    protest without the leader's support is not received.

    >>> may_appeal(Appellant.PLAYER), may_appeal(Appellant.PLAYER, team_event=True)
    (True, False)
    >>> may_appeal(Appellant.PLAYER, team_event=True, leader_supports=True)
    True
    """
    if team_event:
        return appellant is Appellant.TEAM_LEADER or (
            appellant is Appellant.PLAYER and leader_supports
        )
    if appellant is Appellant.PLAYER:
        return True
    return appellant is Appellant.PARENT and player_age is not None and player_age < 9


def final_authority(question: Question, *, by_chief_arbiter: bool = False) -> str:
    """Gomoku §13.1: who has the last word. A decision on the facts: the arbiter's own final
    decision; an interpretation of the rules: the chief arbiter (no appeal against it); a
    question the rules do not cover, decided by the chief arbiter: an appeal goes to the
    competition (arbitration) committee, whose decision is final.

    >>> final_authority(Question.FACT), final_authority(Question.UNCOVERED, by_chief_arbiter=True)
    ('arbiter', 'competition committee')
    """
    if question is Question.FACT:
        return "arbiter"
    if question is Question.INTERPRETATION:
        return "chief arbiter"
    return "competition committee" if by_chief_arbiter else "chief arbiter"


def deposit_refund(deposit: int | Fraction, result: AppealResult) -> Fraction:
    """Gomoku §13.1-13.2: the deposit comes back in full when the appeal succeeds, half when it
    fails but had some reason, otherwise not at all.

    >>> deposit_refund(300, AppealResult.UPHELD), deposit_refund(300, AppealResult.REJECTED)
    (Fraction(300, 1), Fraction(0, 1))
    """
    amount = Fraction(deposit)
    if amount < 0:
        raise InvalidInput(f"a deposit is not negative, got {deposit!r}", "Gomoku §13.1")
    shares: dict[AppealResult, Fraction] = {
        AppealResult.UPHELD: Fraction(1),
        AppealResult.REASONABLE: Fraction(1, 2),
    }
    return amount * shares.get(result, Fraction(0))


def arbitrate(votes: Sequence[bool]) -> bool:
    """Gomoku §13.2: the arbitration committee (an odd number, three or more, one vote each)
    decides by majority; True when the request is granted.

    >>> arbitrate([False, True, False, True, True])
    True
    """
    n = len(votes)
    if n < 3 or n % 2 == 0:
        raise RefereeError(
            f"an arbitration committee has an odd number of members, at least 3, got {n}",
            "Gomoku §13.2",
        )
    if not all(isinstance(v, bool) for v in votes):
        raise InvalidInput("each member casts one vote, True or False", "Gomoku §13.2")
    return sum(votes) * 2 > n


@dataclass(frozen=True)
class AppealRecord:
    """What an appeal ruling carries (``Ruling.appeal``): the ruling it is ``against`` (its
    index in the ledger; for a decision, the index of the appeal), what it is about, who
    lodged it, its ``deadline`` (None: not checked), who has the last word (``authority``),
    the ``deposit``; a decision adds ``result``, the committee's ``votes`` and the ``refund``.

    >>> r = AppealRecord(3, Question.UNCOVERED, Appellant.PLAYER, 5400.0, "competition committee")
    >>> AppealRecord.from_json(r.to_json()) == r
    True
    """

    against: int
    question: Question = Question.FACT
    appellant: Appellant = Appellant.PLAYER
    deadline: float | None = None
    authority: str = "arbiter"
    deposit: Fraction = Fraction(0)
    result: AppealResult | None = None
    votes: tuple[bool, ...] = ()
    refund: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (money as exact text, e.g. ``"150"``)."""
        return {
            "against": self.against,
            "question": self.question.value,
            "appellant": self.appellant.value,
            "deadline": self.deadline,
            "authority": self.authority,
            "deposit": str(self.deposit),
            "result": self.result.value if self.result else None,
            "votes": list(self.votes),
            "refund": None if self.refund is None else str(self.refund),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AppealRecord:
        """Rebuild from :meth:`to_json`."""
        deadline = data.get("deadline")
        refund = data.get("refund")
        return cls(
            against=int(data["against"]),
            question=Question(data.get("question", "fact")),
            appellant=Appellant(data.get("appellant", "player")),
            deadline=None if deadline is None else float(deadline),
            authority=str(data.get("authority", "arbiter")),
            deposit=Fraction(str(data.get("deposit", "0"))),
            result=AppealResult(data["result"]) if data.get("result") else None,
            votes=tuple(bool(v) for v in data.get("votes", [])),
            refund=None if refund is None else Fraction(str(refund)),
        )
