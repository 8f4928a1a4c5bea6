"""The actions of a session: one small frozen value per thing a player, the arbiter or the
clock does, and the log entry that says who did it and when.

An action is read once from its JSON form (:func:`action_from_json`, at a server's edge or from
a stored log) and travels as that value to the core: the session and the game adapters dispatch
on its class, never on a name. Its JSON form is the stored log's (``"v": 1``, a ``"type"`` and
the action's own fields), so logs written before these classes existed read unchanged.

>>> from duiyi import BLACK
>>> Move("D4").to_json()
{'type': 'move', 'point': 'D4'}
>>> action_from_json({"type": "move", "point": "D4"}) == Move("D4")
True
>>> e = LogEntry(Move("D4"), 12.5, BLACK)
>>> e.to_json()
{'v': 1, 'type': 'move', 'at': 12.5, 'player': 'black', 'point': 'D4'}
>>> LogEntry.from_json(e.to_json()) == e
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from duiyi import Color
from duiyi.errors import InvalidInput, SessionError
from duiyi.referee import Ruling, ruling_from_json

__all__ = [
    "Accept",
    "AcceptDraw",
    "AcceptTakeback",
    "Action",
    "Adjourn",
    "Arrive",
    "ChooseFifth",
    "Claim",
    "DeclineDraw",
    "DeclineTakeback",
    "Dispute",
    "Flag",
    "GameAction",
    "LogEntry",
    "MarkDead",
    "Move",
    "NoShow",
    "OfferDraw",
    "Open",
    "OvertimePass",
    "Pass",
    "Pause",
    "PlaceHandicap",
    "ProposeFifth",
    "RequestOvertimePass",
    "RequestTakeback",
    "Resign",
    "Resume",
    "RoundEnded",
    "Ruled",
    "SetDead",
    "SplitPool",
    "Swap",
    "action_class",
    "action_from_json",
    "is_game_action",
]


def _text(data: Mapping[str, Any], key: str, what: str = "a point such as 'D4'") -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise InvalidInput(f"the action needs {key!r} ({what}), got {value!r}")
    return value


def _texts(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise InvalidInput(f"the action needs {key!r} (a list of points), got {value!r}")
    if not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"{key!r} lists points as text such as 'D4', got {value!r}")
    return tuple(value)


class _Base:
    """What every action has: its JSON ``type`` and how it is written and read."""

    type: ClassVar[str]
    #: a stone, a pass or an opening step: completes a turn and presses the clock (Go §2.5)
    turn: ClassVar[bool] = False

    def fields_json(self) -> dict[str, Any]:
        """The action's own fields as JSON (none by default)."""
        return {}

    def to_json(self) -> dict[str, Any]:
        """``{"type": ..., **fields}`` (a log entry adds ``v``, ``at`` and ``player``)."""
        return {"type": self.type, **self.fields_json()}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        """The action from its JSON fields (unknown keys are ignored, as older logs had some)."""
        out: Action = cls()  # type: ignore[assignment]
        return out


# ---------------------------------------------------------------------------- game actions


class _Game(_Base):
    """An action the session passes on to its game (through the game's adapter)."""


@dataclass(frozen=True)
class Move(_Game):
    """A stone on ``point``, the book's name of it ("D4" in Go, "h8" in Gomoku). A request
    may name it ``move`` instead of ``point``.

    >>> action_from_json({"type": "move", "move": "q16"})
    Move(point='q16')
    """

    point: str
    type: ClassVar[str] = "move"
    turn: ClassVar[bool] = True

    def fields_json(self) -> dict[str, Any]:
        return {"point": self.point}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        if "point" not in data and "move" in data:
            return cls(_text(data, "move"))
        return cls(_text(data, "point"))


@dataclass(frozen=True)
class Pass(_Game):
    """A pass (Go §2.5, Gomoku §2.21)."""

    type: ClassVar[str] = "pass"
    turn: ClassVar[bool] = True


@dataclass(frozen=True)
class Resign(_Game):
    """The player resigns."""

    type: ClassVar[str] = "resign"


@dataclass(frozen=True)
class Claim(_Game):
    """A claim: a forbidden move of Black (Gomoku §10.1(2)); ``what`` is kept as sent."""

    what: str = "foul"
    type: ClassVar[str] = "claim"

    def fields_json(self) -> dict[str, Any]:
        return {"what": self.what}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        return cls(str(data.get("what", "foul")))


@dataclass(frozen=True)
class OfferDraw(_Game):
    """A draw offer right after one's own move (Gomoku §10.3)."""

    type: ClassVar[str] = "offer_draw"


@dataclass(frozen=True)
class AcceptDraw(_Game):
    """The opponent's draw offer accepted (Gomoku §10.3(2))."""

    type: ClassVar[str] = "accept_draw"


@dataclass(frozen=True)
class DeclineDraw(_Game):
    """The opponent's draw offer declined (Gomoku §10.3(2))."""

    type: ClassVar[str] = "decline_draw"


@dataclass(frozen=True)
class MarkDead(_Game):
    """Toggle the groups through ``points`` dead or alive (Go §8, §21). Older logs name one
    ``point``.

    >>> action_from_json({"type": "mark_dead", "point": "C3"})
    MarkDead(points=('C3',))
    """

    points: tuple[str, ...]
    type: ClassVar[str] = "mark_dead"

    def fields_json(self) -> dict[str, Any]:
        return {"points": list(self.points)}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        if "points" in data:
            return cls(_texts(data, "points"))
        return cls((_text(data, "point"),))


@dataclass(frozen=True)
class SetDead(_Game):
    """The whole marking replaced by the groups through ``points`` (Go §8)."""

    points: tuple[str, ...]
    type: ClassVar[str] = "set_dead"

    def fields_json(self) -> dict[str, Any]:
        return {"points": list(self.points)}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        return cls(_texts(data, "points"))


@dataclass(frozen=True)
class Accept(_Game):
    """The player agrees to the marking (Go §21). ``dead`` is the marking the player was shown
    (its dead stones; the automatic proposal while nothing is marked): the game accepts that
    marking or refuses the acceptance if the game's marking is no longer it. Without ``dead``
    (older logs, engines) the game's marking at that moment is accepted.

    >>> action_from_json({"type": "accept", "dead": ["B5"]})
    Accept(dead=('B5',))
    >>> Accept().to_json()
    {'type': 'accept'}
    """

    dead: tuple[str, ...] | None = None
    type: ClassVar[str] = "accept"

    def fields_json(self) -> dict[str, Any]:
        return {} if self.dead is None else {"dead": list(self.dead)}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        return cls(None if data.get("dead") is None else _texts(data, "dead"))


@dataclass(frozen=True)
class Dispute(_Game):
    """The player claims the group at ``point`` dead, the opponent disagrees (Go §21.4)."""

    point: str
    type: ClassVar[str] = "dispute"

    def fields_json(self) -> dict[str, Any]:
        return {"point": self.point}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        return cls(_text(data, "point"))


@dataclass(frozen=True)
class PlaceHandicap(_Game):
    """Black's free placement of its handicap stones (Go §4.3)."""

    points: tuple[str, ...]
    type: ClassVar[str] = "place_handicap"
    turn: ClassVar[bool] = True

    def fields_json(self) -> dict[str, Any]:
        return {"points": list(self.points)}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        return cls(_texts(data, "points"))


@dataclass(frozen=True)
class Open(_Game):
    """The designated opening's three stones and the number of fifth moves Black will offer
    (Gomoku §3.2, §2.9)."""

    moves: tuple[str, ...]
    fifth_n: int = 1
    type: ClassVar[str] = "open"
    turn: ClassVar[bool] = True

    def fields_json(self) -> dict[str, Any]:
        return {"moves": list(self.moves), "fifth_n": self.fifth_n}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        n = data.get("fifth_n", 1)
        try:
            if isinstance(n, bool) or float(n) != int(n):
                raise ValueError(n)
        except (TypeError, ValueError, OverflowError):
            raise InvalidInput(f"fifth_n is a whole number of fifth moves, got {n!r}") from None
        return cls(_texts(data, "moves"), int(n))


@dataclass(frozen=True)
class Swap(_Game):
    """White takes Black's stones after the opening (Gomoku §2.9)."""

    type: ClassVar[str] = "swap"
    turn: ClassVar[bool] = True


@dataclass(frozen=True)
class ProposeFifth(_Game):
    """Black's candidate fifth moves (Gomoku §2.9)."""

    points: tuple[str, ...]
    type: ClassVar[str] = "propose_fifth"
    turn: ClassVar[bool] = True

    def fields_json(self) -> dict[str, Any]:
        return {"points": list(self.points)}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        return cls(_texts(data, "points"))


@dataclass(frozen=True)
class ChooseFifth(_Game):
    """White keeps one of the candidate fifth moves (Gomoku §2.9)."""

    point: str
    type: ClassVar[str] = "choose_fifth"
    turn: ClassVar[bool] = True

    def fields_json(self) -> dict[str, Any]:
        return {"point": self.point}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        return cls(_text(data, "point"))


GameAction: TypeAlias = (
    Move
    | Pass
    | Resign
    | Claim
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | MarkDead
    | SetDead
    | Accept
    | Dispute
    | PlaceHandicap
    | Open
    | Swap
    | ProposeFifth
    | ChooseFifth
)

# ---------------------------------------------------------------------------- the session's own


@dataclass(frozen=True)
class Pause(_Base):
    """The arbiter pauses the game (Go §14): the clock stops."""

    type: ClassVar[str] = "pause"


@dataclass(frozen=True)
class Resume(_Base):
    """The game goes on after a pause or an adjournment (a sealed move is played)."""

    type: ClassVar[str] = "resume"


@dataclass(frozen=True)
class SplitPool(_Base):
    """The arbiter splits a shared time pool in halves (Gomoku §8.1)."""

    type: ClassVar[str] = "split_pool"


@dataclass(frozen=True)
class Adjourn(_Base):
    """The player on move seals ``sealed``, its next move (Go §14, Gomoku §9.3).

    >>> action_from_json({"type": "adjourn", "sealed": {"type": "move", "point": "D4"}})
    Adjourn(sealed=Move(point='D4'))
    """

    sealed: GameAction
    type: ClassVar[str] = "adjourn"

    def fields_json(self) -> dict[str, Any]:
        return {"sealed": self.sealed.to_json()}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        sealed = data.get("sealed")
        if isinstance(sealed, Mapping):
            action = action_from_json(sealed)
            if isinstance(action, _Game):
                return cls(action)
        raise SessionError("a sealed move is a game action such as {'type': 'move', 'point': 'D4'}")


@dataclass(frozen=True)
class Arrive(_Base):
    """The player sits down (issue 21; a late arrival under Go §22, Gomoku §8.5)."""

    type: ClassVar[str] = "arrive"


@dataclass(frozen=True)
class RequestOvertimePass(_Base):
    """The player asks for an overrun of its last minute to count as a pass (Go §22.5)."""

    type: ClassVar[str] = "request_overtime_pass"


@dataclass(frozen=True)
class RequestTakeback(_Base):
    """The player asks to take back its last move (issue 21, a casual game only)."""

    type: ClassVar[str] = "request_takeback"


@dataclass(frozen=True)
class AcceptTakeback(_Base):
    """The opponent agrees to the takeback asked for."""

    type: ClassVar[str] = "accept_takeback"


@dataclass(frozen=True)
class DeclineTakeback(_Base):
    """The opponent declines the takeback asked for."""

    type: ClassVar[str] = "decline_takeback"


@dataclass(frozen=True)
class Ruled(_Base):
    """A ruling made and recorded (``override``: it changes a result already decided,
    Go §23.1)."""

    ruling: Ruling
    override: bool = False
    type: ClassVar[str] = "ruling"

    def fields_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ruling": self.ruling.to_json()}
        if self.override:
            out["override"] = True
        return out

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        ruling = data.get("ruling")
        if not isinstance(ruling, dict):
            raise SessionError("a ruling action carries the ruling as JSON")
        return cls(ruling_from_json(ruling), bool(data.get("override")))


@dataclass(frozen=True)
class Flag(_Base):
    """The player's flag fell (logged by the session itself)."""

    type: ClassVar[str] = "flag"


@dataclass(frozen=True)
class NoShow(_Base):
    """``players`` were absent past the lateness limit (logged by the session itself)."""

    players: tuple[Color, ...]
    type: ClassVar[str] = "no_show"

    def fields_json(self) -> dict[str, Any]:
        return {"players": sorted(c.value for c in self.players)}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Action:
        try:
            return cls(tuple(Color(c) for c in data.get("players", [])))
        except (TypeError, ValueError) as exc:
            raise SessionError(f"a no-show names its players: {exc}") from exc


@dataclass(frozen=True)
class RoundEnded(_Base):
    """The event tells the game that its round ended now (Gomoku §8.11: an appeal's deadline
    counts from the round's end, "当轮比赛结束后").

    >>> action_from_json({"type": "round_ended"})
    RoundEnded()
    """

    type: ClassVar[str] = "round_ended"


@dataclass(frozen=True)
class OvertimePass(_Base):
    """An overrun counted as one pass on the player's request (Go §22.5; logged by the
    session itself)."""

    type: ClassVar[str] = "overtime_pass"


Action: TypeAlias = (
    GameAction
    | Pause
    | Resume
    | SplitPool
    | Adjourn
    | Arrive
    | RequestOvertimePass
    | RequestTakeback
    | AcceptTakeback
    | DeclineTakeback
    | Ruled
    | Flag
    | NoShow
    | OvertimePass
    | RoundEnded
)

_CLASSES: tuple[type[_Base], ...] = (
    Move,
    Pass,
    Resign,
    Claim,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    MarkDead,
    SetDead,
    Accept,
    Dispute,
    PlaceHandicap,
    Open,
    Swap,
    ProposeFifth,
    ChooseFifth,
    Pause,
    Resume,
    SplitPool,
    Adjourn,
    Arrive,
    RequestOvertimePass,
    RequestTakeback,
    AcceptTakeback,
    DeclineTakeback,
    Ruled,
    Flag,
    NoShow,
    OvertimePass,
    RoundEnded,
)
#: the reader of each JSON ``type`` (the JSON form's names; the code dispatches on classes)
_READERS: dict[str, type[_Base]] = {c.type: c for c in _CLASSES}


def action_class(data: object) -> type[_Base]:
    """The class of the action ``data`` names by its ``"type"``, its fields not read yet (so a
    server authorises a request before it reads its body); InvalidInput for no action.

    >>> action_class({"type": "pass"}).__name__
    'Pass'
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise InvalidInput("an action is an object with a 'type' such as 'move' or 'pass'")
    kind = data["type"]
    cls = _READERS.get(kind)
    if cls is None:
        raise InvalidInput(f"unknown action type {kind!r}")
    return cls


def action_from_json(data: Mapping[str, Any]) -> Action:
    """The typed action of a JSON object ``{"type": ..., **fields}``; InvalidInput if it is
    not one (an unknown type, a field missing or of the wrong kind).

    >>> action_from_json({"type": "open", "moves": ["h8", "h9", "j10"], "fifth_n": 2})
    Open(moves=('h8', 'h9', 'j10'), fifth_n=2)
    >>> action_from_json({"type": "teleport"})
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: unknown action type 'teleport'
    """
    return action_class(data).read(data)


def is_game_action(action: Action | type[_Base]) -> bool:
    """Whether the session passes ``action`` (or an action of that class) on to its game.

    >>> is_game_action(Move("D4")), is_game_action(Pause), is_game_action(Swap)
    (True, False, True)
    """
    if isinstance(action, type):
        return issubclass(action, _Game)
    return isinstance(action, _Game)


@dataclass(frozen=True)
class LogEntry:
    """One entry of a session log: the ``action``, its time ``at`` (the caller's monotonic
    seconds) and the seat ``player`` who made it (None: the arbiter or the clock).

    Its JSON form is one flat object, ``"v": 1``, as stored logs always had it.
    """

    action: Action
    at: float
    player: Color | None = None

    @property
    def type(self) -> str:
        """The action's JSON type (for messages and displays)."""
        return self.action.type

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (stable, ``"v": 1``)."""
        fields = self.action.to_json()
        out: dict[str, Any] = {
            "v": 1,
            "type": fields.pop("type"),
            "at": self.at,
            "player": self.player.value if self.player else None,
        }
        out.update(fields)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LogEntry:
        """Rebuild from :meth:`to_json` (any stored log's entry).

        >>> LogEntry.from_json({"v": 1, "type": "pass", "at": 3, "player": "white"})
        LogEntry(action=Pass(), at=3.0, player=Color.WHITE)
        """
        if not isinstance(data, Mapping):
            raise SessionError(f"a session action is a JSON object, got {data!r}")
        if data.get("v") != 1:
            raise SessionError(f"unsupported session action version {data.get('v')!r}")
        try:
            at = float(data["at"])
            player = Color(data["player"]) if data.get("player") else None
        except (KeyError, TypeError, ValueError) as exc:
            raise SessionError(f"not a session action: {exc}") from exc
        try:
            action = action_from_json(data)
        except InvalidInput as exc:
            raise SessionError(f"not a session action: {exc}") from exc
        return cls(action, at, player)
