"""The actions of a session: one small frozen value per thing a player, the arbiter or the
clock does, and the log entry that says who did it and when.

An action is read once from its JSON form (:func:`duiyi.codec.action_from_json` with the
session's table, :data:`SESSION_ACTIONS`, at a server's edge or from a stored log) and travels
as that value to the core: the session and the game adapters dispatch on its class, never on a
name. A stone is the one :class:`~duiyi.moves.Move` of every log, its point the book's text
("D4", "h8") and no colour (the entry names the seat). Its JSON form is the stored log's
(``"v": 1``, a ``"type"`` and the action's own fields), so logs written before these classes
existed read unchanged.

>>> from duiyi import BLACK
>>> from duiyi.codec import action_from_json, action_to_json
>>> action_to_json(Move("D4"), SESSION_ACTIONS)
{'type': 'move', 'point': 'D4'}
>>> action_from_json({"type": "move", "point": "D4"}, SESSION_ACTIONS) == Move("D4")
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
from duiyi.codec import Codec, Vocabulary, action_from_json, action_to_json
from duiyi.errors import InvalidInput, SessionError
from duiyi.moves import (
    Accept,
    AcceptDraw,
    ChooseFifth,
    ClaimFoul,
    DeclineDraw,
    Dispute,
    MarkDead,
    Move,
    OfferDraw,
    Open,
    Pass,
    PlaceHandicap,
    Play,
    ProposeFifth,
    Resign,
    SetDead,
    Swap,
    marked_points,
)
from duiyi.referee import Ruling, ruling_from_json

__all__ = [
    "SESSION_ACTIONS",
    "Accept",
    "AcceptDraw",
    "AcceptTakeback",
    "Action",
    "Adjourn",
    "Arrive",
    "ChooseFifth",
    "ClaimFoul",
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
    "is_game_action",
]


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"the action needs a point such as 'D4' (text), got {value!r}")
    return value


def _texts(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise InvalidInput(f"the action needs a list of points, got {value!r}")
    if not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"points are text such as 'D4', got {value!r}")
    return tuple(value)


def _whole(n: Any) -> int:
    try:
        if isinstance(n, bool) or float(n) != int(n):
            raise ValueError(n)
    except (TypeError, ValueError, OverflowError):
        raise InvalidInput(f"a count is a whole number, got {n!r}") from None
    return int(n)


#: the codec of each field type an action has (as its annotation reads): a point is the book's
#: text ("D4", "h8"; a stone's ``P`` too), points a list of them, a count a whole number; the
#: action reads a field that is missing as its default, and writes none of a field that is None
_CODECS: dict[str, Codec] = {
    "str": Codec(lambda v: v, _text),
    "P": Codec(lambda v: v, _text),
    "tuple[P, ...]": Codec(list, _texts),
    "tuple[P, ...] | None": Codec(list, _texts),
    "int": Codec(lambda v: v, _whole),
}


class _Base:
    """What every action of the session's own has (the game's are :mod:`duiyi.moves`; the
    JSON ``type`` of each is its name in :data:`SESSION_ACTIONS`)."""

    #: a stone, a pass or an opening step: completes a turn and presses the clock (Go §2.5)
    turn: ClassVar[bool] = False


#: what the session passes on to its game (through the game's adapter): the game actions of
#: :mod:`duiyi.moves`, a point the book's text
GameAction: TypeAlias = (
    Move[str]
    | Pass
    | Resign
    | ClaimFoul
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | MarkDead[str]
    | SetDead[str]
    | Accept[str]
    | Dispute[str]
    | PlaceHandicap[str]
    | Open[str]
    | Swap
    | ProposeFifth[str]
    | ChooseFifth[str]
)

# ---------------------------------------------------------------------------- the session's own


@dataclass(frozen=True)
class Pause(_Base):
    """The arbiter pauses the game (Go §14): the clock stops."""


@dataclass(frozen=True)
class Resume(_Base):
    """The game goes on after a pause or an adjournment (a sealed move is played)."""


@dataclass(frozen=True)
class SplitPool(_Base):
    """The arbiter splits a shared time pool in halves (Gomoku §8.1)."""


@dataclass(frozen=True)
class Adjourn(_Base):
    """The player on move seals ``sealed``, its next move (Go §14, Gomoku §9.3).

    >>> from duiyi.codec import action_from_json
    >>> action_from_json({"type": "adjourn", "sealed": {"type": "move", "point": "D4"}},
    ...                  SESSION_ACTIONS)
    Adjourn(sealed=Move(point='D4', color=None))
    """

    sealed: GameAction


@dataclass(frozen=True)
class Arrive(_Base):
    """The player sits down (issue 21; a late arrival under Go §22, Gomoku §8.5)."""


@dataclass(frozen=True)
class RequestOvertimePass(_Base):
    """The player asks for an overrun of its last minute to count as a pass (Go §22.5)."""


@dataclass(frozen=True)
class RequestTakeback(_Base):
    """The player asks to take back its last move (issue 21, a casual game only)."""


@dataclass(frozen=True)
class AcceptTakeback(_Base):
    """The opponent agrees to the takeback asked for."""


@dataclass(frozen=True)
class DeclineTakeback(_Base):
    """The opponent declines the takeback asked for."""


@dataclass(frozen=True)
class Ruled(_Base):
    """A ruling made and recorded (``override``: it changes a result already decided,
    Go §23.1)."""

    ruling: Ruling
    override: bool = False


@dataclass(frozen=True)
class Flag(_Base):
    """The player's flag fell (logged by the session itself)."""


@dataclass(frozen=True)
class NoShow(_Base):
    """``players`` were absent past the lateness limit (logged by the session itself)."""

    players: tuple[Color, ...]


@dataclass(frozen=True)
class RoundEnded(_Base):
    """The event tells the game that its round ended now (Gomoku §8.11: an appeal's deadline
    counts from the round's end, "当轮比赛结束后").

    >>> from duiyi.codec import action_from_json
    >>> action_from_json({"type": "round_ended"}, SESSION_ACTIONS)
    RoundEnded()
    """


@dataclass(frozen=True)
class OvertimePass(_Base):
    """An overrun counted as one pass on the player's request (Go §22.5; logged by the
    session itself)."""


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


def _read_move(data: Mapping[str, Any]) -> Move[str]:
    """A stone; a request may name its point ``move`` instead of ``point``.

    >>> _read_move({"type": "move", "move": "q16"})
    Move(point='q16', color=None)
    """
    if "point" not in data and "move" in data:
        data = {"point": data["move"]}
    return Move(**SESSION_ACTIONS.read_fields(Move, data))


def _read_mark(data: Mapping[str, Any]) -> MarkDead[str]:
    """The groups marked; older logs name one ``point``.

    >>> _read_mark({"type": "mark_dead", "point": "C3"})
    MarkDead(points=('C3',))
    """
    return MarkDead(**SESSION_ACTIONS.read_fields(MarkDead, marked_points(data)))


def _read_claim(data: Mapping[str, Any]) -> ClaimFoul:
    """A claim's ``what`` is kept as sent."""
    return ClaimFoul(what=str(data.get("what", "foul")))


def _read_sealed(data: Mapping[str, Any]) -> Adjourn:
    sealed = data.get("sealed")
    if isinstance(sealed, Mapping):
        action = action_from_json(sealed, SESSION_ACTIONS)
        if is_game_action(action):
            return Adjourn(action)
    raise SessionError("a sealed move is a game action such as {'type': 'move', 'point': 'D4'}")


def _read_ruled(data: Mapping[str, Any]) -> Ruled:
    ruling = data.get("ruling")
    if not isinstance(ruling, dict):
        raise SessionError("a ruling action carries the ruling as JSON")
    return Ruled(ruling_from_json(ruling), bool(data.get("override")))


def _ruled_json(a: Ruled) -> dict[str, Any]:
    return {"ruling": a.ruling.to_json(), **({"override": True} if a.override else {})}


def _sealed_json(a: Adjourn) -> dict[str, Any]:
    return {"sealed": action_to_json(a.sealed, SESSION_ACTIONS)}


def _read_no_show(data: Mapping[str, Any]) -> NoShow:
    try:
        return NoShow(tuple(Color(c) for c in data.get("players", [])))
    except (TypeError, ValueError) as exc:
        raise SessionError(f"a no-show names its players: {exc}") from exc


#: the session's log: each action's class by its JSON ``type`` (a stone is ``"move"``), the
#: codec of each field type; the entry (:class:`LogEntry`) carries ``"v"`` and names the seat,
#: so a stone's colour is neither written nor read; a field that is None is not written
SESSION_ACTIONS = Vocabulary(
    "session",
    {
        "move": Move,
        "pass": Pass,
        "resign": Resign,
        "claim": ClaimFoul,
        "mark_dead": MarkDead,
        "set_dead": SetDead,
        "accept": Accept,
        "open": Open,
        "offer_draw": OfferDraw,
        "accept_draw": AcceptDraw,
        "decline_draw": DeclineDraw,
        "swap": Swap,
        "dispute": Dispute,
        "place_handicap": PlaceHandicap,
        "propose_fifth": ProposeFifth,
        "choose_fifth": ChooseFifth,
        "pause": Pause,
        "resume": Resume,
        "split_pool": SplitPool,
        "adjourn": Adjourn,
        "arrive": Arrive,
        "request_overtime_pass": RequestOvertimePass,
        "request_takeback": RequestTakeback,
        "accept_takeback": AcceptTakeback,
        "decline_takeback": DeclineTakeback,
        "ruling": Ruled,
        "flag": Flag,
        "no_show": NoShow,
        "round_ended": RoundEnded,
        "overtime_pass": OvertimePass,
    },
    _CODECS,
    version=None,
    # a marking's points are never guessed (a set_dead without them is no marking)
    required=frozenset({"points"}),
    ignored=frozenset({"color"}),
    skip_none=True,
    readers={
        Move: _read_move,
        MarkDead: _read_mark,
        ClaimFoul: _read_claim,
        Adjourn: _read_sealed,
        Ruled: _read_ruled,
        NoShow: _read_no_show,
    },
    writers={
        Adjourn: _sealed_json,
        Ruled: _ruled_json,
        NoShow: lambda a: {"players": sorted(c.value for c in a.players)},
    },
)


def is_game_action(action: object) -> bool:
    """Whether the session passes ``action`` (or an action of that class) on to its game.

    >>> is_game_action(Move("D4")), is_game_action(Pause), is_game_action(Swap)
    (True, False, True)
    """
    if isinstance(action, type):
        return issubclass(action, Play)
    return isinstance(action, Play)


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
        return SESSION_ACTIONS.name_of(type(self.action))

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (stable, ``"v": 1``)."""
        fields = action_to_json(self.action, SESSION_ACTIONS)
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
        LogEntry(action=Pass(color=None), at=3.0, player=Color.WHITE)
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
            action: Action = action_from_json(data, SESSION_ACTIONS)
        except InvalidInput as exc:
            raise SessionError(f"not a session action: {exc}") from exc
        return cls(action, at, player)
