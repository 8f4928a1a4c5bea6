"""What the arbiter asks the referee to rule: one small frozen request per kind of ruling,
named as the ruling it makes (:class:`~duiyi.referee.RulingKind`), the same name in the server's
API, the session, the ledger and the web forms.

A request holds what the arbiter decided; the facts only the game knows (the time, the number
of moves played, whether the game is decided, when it ended) come in a :class:`Facts` from the
session. A request's procedure is the referee's method named as its kind
(``Warning`` → ``Referee.warning``), called with :meth:`Request.arguments`: its fields and the
facts it takes; :meth:`duiyi.referee.Referee.rule` is that call.

>>> from duiyi.games import GO
>>> from duiyi import BLACK
>>> from duiyi.referee import Referee
>>> [r.kind.value for r in Referee(GO).rule(Warning(BLACK, "Go §17.4"))]
['warning']
>>> Warning.kind.value, StonesRestored.kind.value
('warning', 'stones_restored')
"""

from __future__ import annotations

import inspect
from dataclasses import Field, dataclass, field, fields
from fractions import Fraction
from typing import Any, ClassVar, Literal, TypeAlias, get_args

from duiyi import Color
from duiyi.errors import InvalidInput
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
    "JustMadeRequest",
    "LeaveSeat",
    "MoveRequest",
    "MovedStones",
    "NoShow",
    "OvertimePass",
    "PlayerRequest",
    "Request",
    "RulingRequest",
    "Scattered",
    "StoneReplaced",
    "StonesRestored",
    "TimePenalty",
    "Violation",
    "VoidMove",
    "Warning",
    "Withdrawal",
    "request_fields",
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
class Request:
    """What every request holds: the arbiter's ``note`` (keyword only, after the request's own
    fields), and its ``kind``, the ruling it makes. A request's fields are read in the order of
    its call (:func:`request_fields`): the player, what was decided, the article, the note,
    the move; the server's schema and the web forms show them in that order."""

    note: str = field(default="", kw_only=True)
    kind: ClassVar[RulingKind]

    def arguments(self, facts: Facts) -> dict[str, Any]:
        """The keyword arguments of this request's procedure, the referee's method named as its
        kind (:meth:`duiyi.referee.Referee.rule`): its fields, and the time from the session's
        ``facts``; a request that takes more of the facts adds them."""
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"at": facts.at}

    def __repr__(self) -> str:
        # the order of the call, as a request is written (the base's fields come last)
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in request_fields(type(self)))
        return f"{type(self).__name__}({args})"


@dataclass(frozen=True, repr=False)
class PlayerRequest(Request):
    """A ruling on one player, ``color`` (the offender, the one who loses, appeals...)."""

    color: Color


@dataclass(frozen=True, repr=False)
class MoveRequest(PlayerRequest):
    """A ruling on a player's act during play, at ``move_number`` (None: not named)."""

    move_number: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, repr=False)
class JustMadeRequest(MoveRequest):
    """A ruling on an act: ``move_number`` None is the act just made (the moves played, the
    session's fact): an accepted irregularity then blocks its correction (Gomoku §6.1)."""

    def arguments(self, facts: Facts) -> dict[str, Any]:
        just_made = facts.moves_played if self.move_number is None else self.move_number
        return super().arguments(facts) | {"move_number": just_made}


def request_fields(cls: type[Request]) -> tuple[Field[Any], ...]:
    """The fields of the request class ``cls`` in the order of its call (the base's keyword-only
    ``note`` and ``move_number`` after the request's own fields, as each request was written).

    >>> [f.name for f in request_fields(TimePenalty)]
    ['color', 'deduct', 'award', 'article', 'note', 'move_number']
    """
    by_name = {f.name: f for f in fields(cls)}
    return tuple(by_name[name] for name in inspect.signature(cls).parameters)


@dataclass(frozen=True, repr=False)
class Warning(MoveRequest):
    """A warning (Go §24.1; the second in a game loses it, Go §24.2)."""

    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.WARNING


@dataclass(frozen=True, repr=False)
class Violation(MoveRequest):
    """A violation (违例, Gomoku §12.3(4)); the limit loses the game."""

    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.VIOLATION


@dataclass(frozen=True, repr=False)
class TimePenalty(MoveRequest):
    """Time taken from ``color`` and/or given to the opponent (罚时, Gomoku §12.3(3))."""

    deduct: float = 0.0
    award: float = 0.0
    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.TIME_PENALTY


@dataclass(frozen=True, repr=False)
class ClockAdjustment(PlayerRequest):
    """A clock correction in seconds (Go §22.8, Gomoku §8.7); may be negative."""

    seconds: float
    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.CLOCK_ADJUSTMENT


@dataclass(frozen=True, repr=False)
class VoidMove(JustMadeRequest):
    """A void move (Go §17-19, Gomoku §6.1): pass and sanction follow the article unless
    given. ``move_number`` None: the move just made."""

    article: str
    pass_turn: bool | None = None
    warning: bool | None = None
    kind: ClassVar[RulingKind] = RulingKind.VOID_MOVE


@dataclass(frozen=True, repr=False)
class OvertimePass(MoveRequest):
    """A pass for a player over the last minute, on its request (Go §22.5)."""

    kind: ClassVar[RulingKind] = RulingKind.OVERTIME_PASS


@dataclass(frozen=True, repr=False)
class ColourCorrection(Request):
    """Colours found exchanged (Go §17.1, Gomoku §5.2); the moves and minutes played are the
    session's facts."""

    kind: ClassVar[RulingKind] = RulingKind.COLOUR_CORRECTION

    def arguments(self, facts: Facts) -> dict[str, Any]:
        if facts.moves_played is None:
            raise InvalidInput("a colour correction needs the moves played (the session's)")
        played = {"moves_played": facts.moves_played, "minutes_played": facts.minutes_played}
        return super().arguments(facts) | played


@dataclass(frozen=True, repr=False)
class MovedStones(Request):
    """Stones moved on the board (Go §17.5, Gomoku §4.2)."""

    decision: Decision
    offender: Color | None = None
    deliberate: bool = False
    kind: ClassVar[RulingKind] = RulingKind.MOVED_STONES


@dataclass(frozen=True, repr=False)
class Scattered(Request):
    """The board scattered (Go §17.6, Gomoku §4.2), ``by`` a player or not."""

    decision: Decision
    by: Color | None = None
    deliberate: bool = False
    kind: ClassVar[RulingKind] = RulingKind.SCATTERED


@dataclass(frozen=True, repr=False)
class Forfeit(PlayerRequest):
    """``color`` loses under ``article`` (Go §23, Gomoku §10.1(3)G, ...); ``override`` changes
    a result already decided (Go §23.1)."""

    article: str
    override: bool = field(default=False, kw_only=True)
    kind: ClassVar[RulingKind] = RulingKind.FORFEIT


@dataclass(frozen=True, repr=False)
class DoubleForfeit(Request):
    """Both players lose (Go §23.1, Gomoku §12.3(2)C)."""

    article: str
    override: bool = field(default=False, kw_only=True)
    kind: ClassVar[RulingKind] = RulingKind.DOUBLE_FORFEIT


@dataclass(frozen=True, repr=False)
class NoShow(Request):
    """One or both players absent past the limit (Go §22.1-3, Gomoku §8.5)."""

    colors: tuple[Color, ...]
    article: str | None = field(default=None, kw_only=True)
    kind: ClassVar[RulingKind] = RulingKind.NO_SHOW


@dataclass(frozen=True, repr=False)
class Withdrawal(PlayerRequest):
    """``color`` withdraws: this game is lost (Go §28, Gomoku §10.1(3)D)."""

    kind: ClassVar[RulingKind] = RulingKind.WITHDRAWAL


class _SessionDecides(PlayerRequest):
    """A loss that stands or not by whether the game is ``decided``, the request's own field
    (declared by each request, in its order) or, None, the session's fact."""

    decided: bool | None

    def arguments(self, facts: Facts) -> dict[str, Any]:
        # Gomoku §2.20(3): after a confirmed result the board result stands (None: the session's)
        decided = facts.decided if self.decided is None else self.decided
        return super().arguments(facts) | {"decided": decided}


@dataclass(frozen=True, repr=False)
class Disqualification(_SessionDecides):
    """Disqualification (取消比赛资格) once the committee ``approved`` (Gomoku §2.20(4),
    §12.3(2)D); ``decided`` None: the session says whether the game is decided."""

    approved: bool = False
    decided: bool | None = None
    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.DISQUALIFICATION


@dataclass(frozen=True, repr=False)
class DisciplinaryLoss(_SessionDecides):
    """A disciplinary loss (Gomoku §2.20(3)); ``decided`` None: the session's."""

    decided: bool | None = None
    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.DISCIPLINARY_LOSS


@dataclass(frozen=True, repr=False)
class BothFlags(Request):
    """Both flags down in an unknown order: a draw (Gomoku §10.2(4))."""

    override: bool = field(default=False, kw_only=True)
    kind: ClassVar[RulingKind] = RulingKind.BOTH_FLAGS


@dataclass(frozen=True, repr=False)
class LeaveSeat(JustMadeRequest):
    """Permission to leave the seat in byo-yomi, once per game (Go §22.7)."""

    kind: ClassVar[RulingKind] = RulingKind.LEAVE_SEAT


@dataclass(frozen=True, repr=False)
class DroppedStone(JustMadeRequest):
    """A dropped stone entered as ``color``'s move is taken back and ``color`` chooses again:
    Go §17.3 (with the opponent's ``consent``, else the ``chief_arbiter``; no penalty), Gomoku
    §6.1(7) with §4.2's ``penalty``: ``violation`` (default, §12.4), ``time`` (罚时 of
    ``deduct``/``award`` seconds, §12.3(3)) or ``none``."""

    consent: bool = True
    chief_arbiter: bool = False
    penalty: Literal["violation", "time", "none"] | None = None
    deduct: float = 0.0
    award: float = 0.0
    kind: ClassVar[RulingKind] = RulingKind.DROPPED_STONE


@dataclass(frozen=True, repr=False)
class IrregularAccepted(JustMadeRequest):
    """Gomoku §6.1: the opponent of ``color`` accepts ``color``'s irregular act just made
    instead of its correction (recorded; a later correction of the act is refused)."""

    article: str | None = None
    kind: ClassVar[RulingKind] = RulingKind.IRREGULAR_ACCEPTED


@dataclass(frozen=True, repr=False)
class StoneReplaced(JustMadeRequest):
    """Gomoku §6.1(5) a pushed stone, or with ``lifted`` §6.1(6) a re-lifted one: ``color``'s
    last stone goes back to ``point``, the first (empty) point it touched. ``violation``: the
    opponent pointed it out, a violation (Gomoku §6.1, §12.4); false: the correction alone."""

    point: str
    lifted: bool = False
    violation: bool = True
    kind: ClassVar[RulingKind] = RulingKind.STONE_REPLACED


@dataclass(frozen=True, repr=False)
class StonesRestored(MoveRequest):
    """Go §18.1: ``color`` removed stones of the opponent that still had liberties; they go back
    on ``points`` and ``color`` gets a ``warning`` (Go §24)."""

    points: tuple[str, ...]
    warning: bool = True
    kind: ClassVar[RulingKind] = RulingKind.STONES_RESTORED


@dataclass(frozen=True, repr=False)
class CoinToss(Request):
    """Gomoku §5.3(2): the arbiter tosses the 挑边器 and the player of seat ``caller`` calls
    ``called``; ``face`` is what came up (an arbiter's real coin; left out of the server's
    request, the server tosses it with its own random source). Before the first move only."""

    caller: Color
    called: Literal["heads", "tails"]
    face: Literal["heads", "tails"]
    kind: ClassVar[RulingKind] = RulingKind.COIN_TOSS

    def arguments(self, facts: Facts) -> dict[str, Any]:
        args = super().arguments(facts)
        args["call"] = args.pop("called")  # the procedure's word for the call
        return args


@dataclass(frozen=True, repr=False)
class ColoursChosen(Request):
    """Gomoku §5.3(2): the winner of the call chooses ``black``, ``white`` or
    ``opponent_first`` (C: the opponent must choose first: ``opponent_takes``). When the seat
    that was to play White takes Black, the players exchange seats (``seats_swapped``)."""

    choice: Literal["black", "white", "opponent_first"]
    opponent_takes: Color | None = None
    kind: ClassVar[RulingKind] = RulingKind.COLOURS_CHOSEN


@dataclass(frozen=True, repr=False)
class Appeal(PlayerRequest):
    """Gomoku §13.1: ``color`` appeals against the ruling number ``against`` (its index among
    the game's rulings). With ``limit`` (seconds after the round ended, Gomoku §8.11; the
    organiser's delays excluded) a late appeal is refused once the round's end is known; the record keeps the deadline and
    who has the last word (``question``: fact → the arbiter, interpretation → the chief
    arbiter, uncovered and decided by the chief arbiter → the competition committee)."""

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
    kind: ClassVar[RulingKind] = RulingKind.APPEAL

    def arguments(self, facts: Facts) -> dict[str, Any]:
        # the deadline runs from the end of the round (Gomoku §8.11), the session's fact
        return super().arguments(facts) | {"round_end": facts.round_end}


@dataclass(frozen=True, repr=False)
class AppealDecided(Request):
    """Gomoku §13: the answer to the appeal number ``appeal``: ``upheld``, ``reasonable``
    (failed with some reason: half the deposit back) or ``rejected``; the competition
    committee's ``votes`` (odd, at least three, the majority decides) when it has the last
    word."""

    appeal: int
    result: AppealResult | str
    votes: tuple[bool, ...] = ()
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
REQUESTS: tuple[type[Request], ...] = get_args(RulingRequest)
