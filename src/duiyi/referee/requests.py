"""What the arbiter asks the referee to rule: one small frozen request per kind of ruling,
named as the ruling it makes (:class:`~duiyi.referee.RulingKind`), the same name in the server's
API, the session, the ledger and the web forms.

A request holds what the arbiter decided; the facts only the game knows (the time, the number
of moves played, whether the game is decided, when it ended) come in a :class:`Facts` from the
session. :meth:`duiyi.referee.Referee.rule` dispatches on the request's class.

>>> from duiyi.games import GO
>>> from duiyi import BLACK
>>> from duiyi.referee import Referee
>>> [r.kind.value for r in Referee(GO).rule(Warning(BLACK, "Go §17.4"))]
['warning']
>>> Warning.kind.value, StonesRestored.kind.value
('warning', 'stones_restored')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal, TypeAlias

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
    the minutes of play, whether the game is ``decided``, when it ended (``ended_at``) and
    when its round ended (``round_end``, as the event told it: the start of an appeal's
    deadline, Gomoku §8.11). None: not known (a ledger used alone)."""

    at: float | None = None
    moves_played: int | None = None
    minutes_played: float = 0.0
    decided: bool = False
    ended_at: float | None = None
    round_end: float | None = None


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
    """Disqualification (取消比赛资格) once the committee ``approved`` (Gomoku §2.20(4),
    §12.3(2)D); ``decided`` None: the session says whether the game is decided."""

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
    """A dropped stone entered as ``color``'s move is taken back and ``color`` chooses again:
    Go §17.3 (with the opponent's ``consent``, else the ``chief_arbiter``; no penalty), Gomoku
    §6.1(7) with §4.2's ``penalty``: ``violation`` (default, §12.4), ``time`` (罚时 of
    ``deduct``/``award`` seconds, §12.3(3)) or ``none``."""

    color: Color
    consent: bool = True
    chief_arbiter: bool = False
    penalty: Literal["violation", "time", "none"] | None = None
    deduct: float = 0.0
    award: float = 0.0
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.DROPPED_STONE


@dataclass(frozen=True)
class IrregularAccepted:
    """Gomoku §6.1: the opponent of ``color`` accepts ``color``'s irregular act just made
    instead of its correction (recorded; a later correction of the act is refused)."""

    color: Color
    article: str | None = None
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.IRREGULAR_ACCEPTED


@dataclass(frozen=True)
class StoneReplaced:
    """Gomoku §6.1(5) a pushed stone, or with ``lifted`` §6.1(6) a re-lifted one: ``color``'s
    last stone goes back to ``point``, the first (empty) point it touched. ``violation``: the
    opponent pointed it out, a violation (Gomoku §6.1, §12.4); false: the correction alone."""

    color: Color
    point: str
    lifted: bool = False
    violation: bool = True
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.STONE_REPLACED


@dataclass(frozen=True)
class StonesRestored:
    """Go §18.1: ``color`` removed stones of the opponent that still had liberties; they go back
    on ``points`` and ``color`` gets a ``warning`` (Go §24)."""

    color: Color
    points: tuple[str, ...]
    warning: bool = True
    note: str = ""
    move_number: int | None = None
    kind: ClassVar[RulingKind] = RulingKind.STONES_RESTORED


@dataclass(frozen=True)
class CoinToss:
    """Gomoku §5.3(2): the arbiter tosses the 挑边器 and the player of seat ``caller`` calls
    ``called``; ``face`` is what came up (an arbiter's real coin; left out of the server's
    request, the server tosses it with its own random source). Before the first move only."""

    caller: Color
    called: Literal["heads", "tails"]
    face: Literal["heads", "tails"]
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.COIN_TOSS


@dataclass(frozen=True)
class ColoursChosen:
    """Gomoku §5.3(2): the winner of the call chooses ``black``, ``white`` or
    ``opponent_first`` (C: the opponent must choose first: ``opponent_takes``). When the seat
    that was to play White takes Black, the players exchange seats (``seats_swapped``)."""

    choice: Literal["black", "white", "opponent_first"]
    opponent_takes: Color | None = None
    note: str = ""
    kind: ClassVar[RulingKind] = RulingKind.COLOURS_CHOSEN


@dataclass(frozen=True)
class Appeal:
    """Gomoku §13.1: ``color`` appeals against the ruling number ``against`` (its index among
    the game's rulings). With ``limit`` (seconds after the round ended, Gomoku §8.11; the
    organiser's delays excluded) a late appeal is refused once the round's end is known; the record keeps the deadline and
    who has the last word (``question``: fact → the arbiter, interpretation → the chief
    arbiter, uncovered and decided by the chief arbiter → the competition committee)."""

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
    """Gomoku §13: the answer to the appeal number ``appeal``: ``upheld``, ``reasonable``
    (failed with some reason: half the deposit back) or ``rejected``; the competition
    committee's ``votes`` (odd, at least three, the majority decides) when it has the last
    word."""

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
