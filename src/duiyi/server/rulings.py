"""Typed rulings: one request shape per kind of ruling, validated by the schema (a wrong
argument is a 422 problem before the referee sees it), then turned into a call of
``duiyi.referee.Referee`` through ``Session.rule``.

>>> r = parse_ruling({"kind": "warn", "color": "black", "article": "Go §24"})
>>> r.call()
('warn', {'note': '', 'color': Color.BLACK, 'article': 'Go §24'})
>>> parse_ruling({"kind": "moved_stones", "decision": "draw"}).call()[1]["decision"].value
'draw'
>>> parse_ruling({"kind": "restore_stones", "color": "white", "points": ["C3"]}).call()[0]
'restore_stones'
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from duiyi import Color
from duiyi.errors import InvalidInput
from duiyi.referee import Decision, Referee
from duiyi.server.schemas import CHECKED, NO_BOOL, Note, text_field

__all__ = ["Ruling", "parse_ruling"]

Seat = Literal["black", "white"]
Article = Annotated[str, text_field(80, 1, examples=["Go §24"]), CHECKED]
MoveNumber = Annotated[int, Field(ge=0, le=10_000), NO_BOOL]
Seconds = Annotated[float, Field(ge=-86_400, le=86_400), NO_BOOL]
# a point as the books write it: Go "D4" (letters without I), Gomoku "h8"
Point = Annotated[
    str, Field(min_length=2, max_length=3, pattern=r"^[A-Za-z][1-9][0-9]?$", examples=["D4"])
]
DecisionName = Literal[
    "restore", "valid", "resume", "draw", "replay", "both_lose", "offender_loses"
]


class _Ruling(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: Note = ""
    action_id: str | None = Field(
        None,
        min_length=1,
        max_length=64,
        description="the arbiter's id of this ruling: a retry with the same id is applied once",
    )

    def call(self) -> tuple[str, dict[str, Any]]:
        """The referee method and its keyword arguments."""
        data = self.model_dump(exclude={"kind", "action_id"}, exclude_none=True)
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("color", "offender", "by"):
                out[key] = Color(value)
            elif key == "colors":
                out[key] = tuple(Color(v) for v in value)
            elif key == "decision":
                out[key] = Decision(value)
            else:
                out[key] = value
        method = str(getattr(self, "kind"))  # noqa: B009 - every subclass has a kind
        accepted = inspect.signature(getattr(Referee, method)).parameters
        return method, {k: v for k, v in out.items() if k in accepted}


class Warn(_Ruling):
    """A warning (Go §24.1; the second in a game loses it, Go §24.2)."""

    kind: Literal["warn"]
    color: Seat
    article: Article = "Go §24"
    move_number: MoveNumber | None = None


class Violation(_Ruling):
    """A violation (Gomoku §12.3(4)); the limit loses the game."""

    kind: Literal["violation"]
    color: Seat
    article: Article = "Gomoku §12.4"
    move_number: MoveNumber | None = None


class TimePenalty(_Ruling):
    """Time taken from one player and/or given to the opponent (Gomoku §12.3(3))."""

    kind: Literal["time_penalty"]
    color: Seat
    deduct: Annotated[float, Field(ge=0, le=3600), NO_BOOL] = 0.0
    award: Annotated[float, Field(ge=0, le=3600), NO_BOOL] = 0.0
    article: Article = "Gomoku §12.3(3)"
    move_number: MoveNumber | None = None


class AdjustClock(_Ruling):
    """A clock correction in seconds (Go §22.8, Gomoku §8.7); may be negative."""

    kind: Literal["adjust_clock"]
    color: Seat
    seconds: Seconds
    article: Article = "Go §22.8"


class VoidMove(_Ruling):
    """A void move (Go §17-19): pass and warning follow the article unless given."""

    kind: Literal["void_move"]
    color: Seat
    article: Article
    pass_turn: StrictBool | None = None
    warning: StrictBool | None = None
    move_number: MoveNumber | None = None


class OvertimePass(_Ruling):
    """A pass and a warning for a player over the last minute (Go §22.5)."""

    kind: Literal["overtime_pass"]
    color: Seat
    move_number: MoveNumber | None = None


class WrongColours(_Ruling):
    """Colours found exchanged (Go §10.3, Gomoku §5.2); moves and minutes come from the game."""

    kind: Literal["wrong_colours"]


class MovedStones(_Ruling):
    """Stones moved on the board (Go §17.5, Gomoku §4.2)."""

    kind: Literal["moved_stones"]
    decision: DecisionName
    offender: Seat | None = None
    deliberate: StrictBool = False


class Scattered(_Ruling):
    """The board scattered (Go §17.6, Gomoku §4.2)."""

    kind: Literal["scattered"]
    decision: DecisionName
    by: Seat | None = None
    deliberate: StrictBool = False


class Forfeit(_Ruling):
    """A player loses by forfeit under ``article`` (Go §23.7, Gomoku §10.1(3)G, ...)."""

    kind: Literal["forfeit"]
    color: Seat
    article: Article
    override: StrictBool = False


class DoubleForfeit(_Ruling):
    """Both players lose (Go §17.6, ...)."""

    kind: Literal["double_forfeit"]
    article: Article
    override: StrictBool = False


class NoShow(_Ruling):
    """One or both players absent past the limit (Go §22.3, Gomoku §8.5)."""

    kind: Literal["no_show"]
    colors: Annotated[list[Seat], Field(min_length=1, max_length=2)]


class Withdrawal(_Ruling):
    """A player withdraws: this game is lost (Go §28, Gomoku §10.1(3)D)."""

    kind: Literal["withdrawal"]
    color: Seat


class Disqualify(_Ruling):
    """Disqualification, once the committee approved it (Gomoku §2.20(4), §12.3(2)D)."""

    kind: Literal["disqualify"]
    color: Seat
    decided: StrictBool | None = None
    approved: StrictBool = False
    article: Article | None = None


class DisciplinaryLoss(_Ruling):
    """A disciplinary loss (Gomoku §2.20(3))."""

    kind: Literal["disciplinary_loss"]
    color: Seat
    # None: the session knows whether the result is confirmed
    decided: StrictBool | None = None
    article: Article = "Gomoku §2.20(3)"


class BothFlags(_Ruling):
    """Both flags down in an unknown order: a draw (Gomoku §10.2(4))."""

    kind: Literal["both_flags"]
    override: StrictBool = False


class LeaveSeat(_Ruling):
    """Permission to leave the seat in byo-yomi, once per game (Go §22.7)."""

    kind: Literal["leave_seat"]
    color: Seat


class DroppedStone(_Ruling):
    """A dropped stone picked up; the player plays again (Go §17.3)."""

    kind: Literal["dropped_stone"]
    color: Seat
    consent: StrictBool = True
    chief_arbiter: StrictBool = False
    move_number: MoveNumber | None = None


class RestoreStones(_Ruling):
    """Go §18.1: ``color`` removed stones of the opponent that still had liberties; they go back
    on ``points`` and ``color`` gets a warning (Go §24)."""

    kind: Literal["restore_stones"]
    color: Seat
    points: Annotated[list[Point], Field(min_length=1, max_length=361)]
    warning: StrictBool = True


class AcceptIrregular(_Ruling):
    """Gomoku §6.1: the opponent of ``color`` accepts ``color``'s irregular act just made
    instead of its correction (recorded; a later correction of the act is refused)."""

    kind: Literal["accept_irregular"]
    color: Seat
    article: Annotated[
        str, Field(pattern=r"^Gomoku §6\.1(\([1-6]\))?$", examples=["Gomoku §6.1(5)"])
    ] = "Gomoku §6.1"


class ReplaceStone(_Ruling):
    """Gomoku §6.1(5) a pushed stone, or with ``lifted`` §6.1(6) a re-lifted one: ``color``'s
    last stone goes back to ``point``, the first (empty) point it touched."""

    kind: Literal["replace_stone"]
    color: Seat
    point: Point
    lifted: StrictBool = False


Ruling = Annotated[
    Warn
    | Violation
    | TimePenalty
    | AdjustClock
    | VoidMove
    | OvertimePass
    | WrongColours
    | MovedStones
    | Scattered
    | Forfeit
    | DoubleForfeit
    | NoShow
    | Withdrawal
    | Disqualify
    | DisciplinaryLoss
    | BothFlags
    | LeaveSeat
    | DroppedStone
    | RestoreStones
    | AcceptIrregular
    | ReplaceStone,
    Field(discriminator="kind"),
]

_ADAPTER: TypeAdapter[Any] = TypeAdapter(Ruling)


def parse_ruling(data: object) -> _Ruling:
    """A typed ruling from JSON (a forwarded one is checked again); InvalidInput if malformed."""
    try:
        ruling: _Ruling = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        detail = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidInput(f"malformed ruling: {detail}") from exc
    return ruling
