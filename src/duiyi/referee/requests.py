"""What the arbiter asks the referee to rule: one small frozen request per kind of ruling,
named as the ruling it makes (:class:`~duiyi.referee.RulingKind`), the same name in the server's
API, the session, the ledger and the web forms.

A request holds what the arbiter decided; the facts only the game knows (the time, the number
of moves played, whether the game is decided, when it ended) come in a :class:`Facts` from the
session. :meth:`duiyi.referee.Referee.rule` dispatches on the request's class.

>>> from duiyi import BLACK
>>> from duiyi.referee import Referee
>>> [r.kind.value for r in Referee("go").rule(Warning(BLACK, "Go §17.4"))]
['warning']
>>> Warning.kind.value, StonesRestored.kind.value
('warning', 'stones_restored')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, TypeAlias

from duiyi import Color
from duiyi.referee.appeals import AppealResult, Appellant, Question
from duiyi.referee.kinds import Decision, RulingKind

__all__ = [
    "REQUESTS",
    "Appeal",
    "AppealDecided",
    "BothFlags",
    "ClockAdjustment",
    "CoinToss",
    "ColourCorrection",
    "ColoursChosen",
    "DisciplinaryLoss",
    "Disqualification",
    "DoubleForfeit",
    "DroppedStone",
    "Facts",
    "Forfeit",
    "IrregularAccepted",
    "LeaveSeat",
    "MovedStones",
    "NoShow",
    "OvertimePass",
    "RulingRequest",
    "Scattered",
    "StoneReplaced",
    "StonesRestored",
    "TimePenalty",
    "Violation",
    "VoidMove",
    "Warning",
    "Withdrawal",
]


@dataclass(frozen=True)
class Facts:
    """What the session knows when a ruling is made: the time ``at``, the moves played so far,
    the minutes of play, whether the game is ``decided`` and when it ended (``ended_at``, the
    start of an appeal's deadline, Gomoku §8.11). None: not known (a ledger used alone)."""

    at: float | None = None
    moves_played: int | None = None
    minutes_played: float = 0.0
    decided: bool = False
    ended_at: float | None = None


@dataclass(frozen=True)
class Warning:
    """A warning (Go §24.1; the second in a game loses it, Go §24.2)."""

    color: Color
    article: str | None = None
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.WARNING


@dataclass(frozen=True)
class Violation:
    """A violation (违例, Gomoku §12.3(4)); the limit loses the game."""

    color: Color
    article: str | None = None
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.VIOLATION


@dataclass(frozen=True)
class TimePenalty:
    """Time taken from ``color`` and/or given to the opponent (罚时, Gomoku §12.3(3))."""

    color: Color
    deduct: float = 0.0
    award: float = 0.0
    article: str | None = None
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.TIME_PENALTY


@dataclass(frozen=True)
class ClockAdjustment:
    """A clock correction in seconds (Go §22.8, Gomoku §8.7); may be negative."""

    color: Color
    seconds: float
    article: str | None = None
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.CLOCK_ADJUSTMENT


@dataclass(frozen=True)
class VoidMove:
    """A void move (Go §17-19, Gomoku §6.1): pass and sanction follow the article unless
    given. ``move_number`` None: the move just made."""

    color: Color
    article: str
    pass_turn: bool | None = None
    warning: bool | None = None
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.VOID_MOVE


@dataclass(frozen=True)
class OvertimePass:
    """A pass for a player over the last minute, on its request (Go §22.5)."""

    color: Color
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.OVERTIME_PASS


@dataclass(frozen=True)
class ColourCorrection:
    """Colours found exchanged (Go §17.1, Gomoku §5.2); the moves and minutes played are the
    session's facts."""

    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.COLOUR_CORRECTION


@dataclass(frozen=True)
class MovedStones:
    """Stones moved on the board (Go §17.5, Gomoku §4.2)."""

    decision: Decision
    offender: Color | None = None
    deliberate: bool = False
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.MOVED_STONES


@dataclass(frozen=True)
class Scattered:
    """The board scattered (Go §17.6, Gomoku §4.2), ``by`` a player or not."""

    decision: Decision
    by: Color | None = None
    deliberate: bool = False
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.SCATTERED


@dataclass(frozen=True)
class Forfeit:
    """``color`` loses under ``article`` (Go §23, Gomoku §10.1(3)G, ...); ``override`` changes
    a result already decided (Go §23.1)."""

    color: Color
    article: str
    note: str = ""
    override: bool = False
    kind: ClassVar[RulingKind] = RulingKind.FORFEIT


@dataclass(frozen=True)
class DoubleForfeit:
    """Both players lose (Go §23.1, Gomoku §12.3(2)C)."""

    article: str
    note: str = ""
    override: bool = False
    kind: ClassVar[RulingKind] = RulingKind.DOUBLE_FORFEIT


@dataclass(frozen=True)
class NoShow:
    """One or both players absent past the limit (Go §22.1-3, Gomoku §8.5)."""

    colors: tuple[Color, ...]
    note: str = ""
    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.NO_SHOW


@dataclass(frozen=True)
class Withdrawal:
    """``color`` withdraws: this game is lost (Go §28, Gomoku §10.1(3)D)."""

    color: Color
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.WITHDRAWAL


@dataclass(frozen=True)
class Disqualification:
    """取消比赛资格 once the committee ``approved`` (Gomoku §2.20(4)); ``decided`` None: the
    session says whether the game is decided."""

    color: Color
    approved: bool = False
    decided: bool | None = None
    article: str | None = None
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.DISQUALIFICATION


@dataclass(frozen=True)
class DisciplinaryLoss:
    """A disciplinary loss (Gomoku §2.20(3)); ``decided`` None: the session's."""

    color: Color
    decided: bool | None = None
    article: str | None = None
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.DISCIPLINARY_LOSS


@dataclass(frozen=True)
class BothFlags:
    """Both flags down in an unknown order: a draw (Gomoku §10.2(4))."""

    note: str = ""
    override: bool = False
    kind: ClassVar[RulingKind] = RulingKind.BOTH_FLAGS


@dataclass(frozen=True)
class LeaveSeat:
    """Permission to leave the seat in byo-yomi, once per game (Go §22.7)."""

    color: Color
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.LEAVE_SEAT


@dataclass(frozen=True)
class DroppedStone:
    """A dropped stone entered as ``color``'s move comes off (Go §17.3, Gomoku §6.1(7))."""

    color: Color
    consent: bool = True
    chief_arbiter: bool = False
    penalty: str | None = None
    deduct: float = 0.0
    award: float = 0.0
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.DROPPED_STONE


@dataclass(frozen=True)
class IrregularAccepted:
    """The opponent of ``color`` accepts ``color``'s irregular act (Gomoku §6.1)."""

    color: Color
    article: str | None = None
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.IRREGULAR_ACCEPTED


@dataclass(frozen=True)
class StoneReplaced:
    """``color``'s last stone back to ``point`` (Gomoku §6.1(5), ``lifted``: §6.1(6))."""

    color: Color
    point: str
    lifted: bool = False
    violation: bool = True
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.STONE_REPLACED


@dataclass(frozen=True)
class StonesRestored:
    """Stones ``color`` wrongly removed go back on ``points`` (Go §18.1), with a warning."""

    color: Color
    points: tuple[str, ...]
    warning: bool = True
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.STONES_RESTORED


@dataclass(frozen=True)
class CoinToss:
    """The 挑边器 (Gomoku §5.3(2)): the seat ``caller`` calls ``call``, ``face`` came up."""

    caller: Color
    face: str
    call: str
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.COIN_TOSS


@dataclass(frozen=True)
class ColoursChosen:
    """The winner of the call chooses (Gomoku §5.3(2) A, B, C)."""

    choice: str
    opponent_takes: Color | None = None
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.COLOURS_CHOSEN


@dataclass(frozen=True)
class Appeal:
    """``color`` appeals against the ruling number ``against`` (Gomoku §13.1; the deadline
    ``limit`` counts from the end of the game, §8.11)."""

    color: Color
    against: int
    question: Question | str = Question.FACT
    appellant: Appellant | str = Appellant.PLAYER
    limit: float | None = None
    organiser_delay: float = 0.0
    by_chief_arbiter: bool = False
    team_event: bool = False
    leader_supports: bool = False
    player_age: int | None = None
    deposit: int | str | Fraction = 0
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.APPEAL


@dataclass(frozen=True)
class AppealDecided:
    """The answer to the appeal number ``appeal`` (Gomoku §13)."""

    appeal: int
    result: AppealResult | str
    votes: tuple[bool, ...] = ()
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.APPEAL_DECIDED


RulingRequest: TypeAlias = (
    Warning
    | Violation
    | TimePenalty
    | ClockAdjustment
    | VoidMove
    | OvertimePass
    | ColourCorrection
    | MovedStones
    | Scattered
    | Forfeit
    | DoubleForfeit
    | NoShow
    | Withdrawal
    | Disqualification
    | DisciplinaryLoss
    | BothFlags
    | LeaveSeat
    | DroppedStone
    | IrregularAccepted
    | StoneReplaced
    | StonesRestored
    | CoinToss
    | ColoursChosen
    | Appeal
    | AppealDecided
)

#: every request class, for a check at the edge of the core (``isinstance(x, REQUESTS)``)
REQUESTS: tuple[type, ...] = (
    Warning,
    Violation,
    TimePenalty,
    ClockAdjustment,
    VoidMove,
    OvertimePass,
    ColourCorrection,
    MovedStones,
    Scattered,
    Forfeit,
    DoubleForfeit,
    NoShow,
    Withdrawal,
    Disqualification,
    DisciplinaryLoss,
    BothFlags,
    LeaveSeat,
    DroppedStone,
    IrregularAccepted,
    StoneReplaced,
    StonesRestored,
    CoinToss,
    ColoursChosen,
    Appeal,
    AppealDecided,
)
