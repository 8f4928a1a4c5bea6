"""The actions of a Go game: small frozen values that make up its log (event sourcing).

Every state of a :class:`~duiyi.go.Game` is a pure function of its rules and its action list.
The first action is always :class:`Start` (size, handicap, how handicap stones are placed); the
others are what players and arbiters do. A stone, a pass (虚着, Go §2.5) and a resignation
(中盘认输, Go §7.2) are the :mod:`duiyi.moves` every log shares (:class:`~duiyi.moves.Move`,
its point a Go :class:`~duiyi.go.point.Point`, ``Pass``, ``Resign``), and so are the dead-stone
marking and its acceptance (``MarkDead``, ``SetDead``, ``Accept``). Each action is one JSON object with
``"v": 1`` and a ``"type"``, written and read by the one codec of every log
(:func:`duiyi.codec.action_to_json`, :func:`duiyi.codec.action_from_json`) with Go's table,
:data:`GO_ACTIONS`.

>>> from duiyi.codec import action_from_json, action_to_json
>>> a = Move(Point.parse("Q16"), BLACK)
>>> action_to_json(a, GO_ACTIONS)
{'v': 1, 'type': 'move', 'color': 'black', 'point': 'Q16'}
>>> action_from_json(action_to_json(a, GO_ACTIONS), GO_ACTIONS) == a
True
>>> action_to_json(MarkDead((Point.parse("C3"),)), GO_ACTIONS)
{'v': 1, 'type': 'mark_dead', 'point': 'C3'}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, get_args, get_origin

from duiyi import BLACK, Color
from duiyi.codec import Codec, Vocabulary, maybe
from duiyi.errors import InvalidInput
from duiyi.go.point import MAX_SIZE, Point
from duiyi.moves import (
    Accept,
    Dispute,
    MarkDead,
    Move,
    Pass,
    PlaceHandicap,
    Resign,
    SetDead,
    marked_points,
)
from duiyi.outcome import Outcome

__all__ = [
    "GO_ACTIONS",
    "Accept",
    "Action",
    "Adjudicate",
    "Dispute",
    "MarkDead",
    "Move",
    "Pass",
    "PlaceHandicap",
    "Resign",
    "RestoreStones",
    "Resume",
    "SetDead",
    "Setup",
    "Start",
    "VoidMove",
    "Warn",
]


def _pt(value: Any) -> Point:
    if isinstance(value, Point):
        return value
    if not isinstance(value, str):
        raise InvalidInput(f"not a point: {value!r}")
    return Point.parse(value, size=MAX_SIZE)


def _pts(values: Any) -> tuple[Point, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidInput(f"expected a list of points, got {values!r}")
    return tuple(_pt(v) for v in values)


def _color(value: Any) -> Color:
    if isinstance(value, Color):
        return value
    if not isinstance(value, str):
        raise InvalidInput(f"not a colour: {value!r}")
    return Color.parse(value)


def _outcome_json(o: Outcome) -> dict[str, Any]:
    data = o.to_json()
    data.pop("score", None)  # an adjudication carries no count
    return data


def _text_of(v: Any) -> Any:
    return str(v) if v is not None else None


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(f"a Go action's count is an integer, got {value!r}")
    return value


#: the codec of each field type a Go action has (as its annotation reads; ``P``, a stone's
#: point, is a Go point)
_CODECS: dict[str, Codec] = {
    "Color": Codec(lambda c: c.value, _color),
    "Color | None": Codec(lambda c: c.value if c else None, maybe(_color)),
    "Point": Codec(str, _pt),
    "P": Codec(str, _pt),
    "Point | None": Codec(_text_of, maybe(_pt)),
    "tuple[Point, ...]": Codec(lambda ps: [str(p) for p in ps], _pts),
    "tuple[P, ...]": Codec(lambda ps: [str(p) for p in ps], _pts),
    "int": Codec(int, _whole),
    "bool": Codec(bool, bool),
    "str": Codec(str, str),
    "Outcome": Codec(_outcome_json, Outcome.from_json),
}


@dataclass(frozen=True)
class _Action:
    """What every Go action but the stone has: its ``kind``, the JSON ``type``."""

    kind: ClassVar[str] = ""


@dataclass(frozen=True)
class Start(_Action):
    """The header of every log: board size, handicap, and whether Black places it freely.

    >>> Start(19, 4)
    Start(size=19, handicap=4, free_placement=False)
    """

    kind: ClassVar[str] = "start"
    size: int = 19
    handicap: int = 0
    free_placement: bool = False


@dataclass(frozen=True)
class Setup(_Action):
    """Stones set on or taken off the board before play (SGF AB/AW/AE), and who moves.

    >>> Setup(black=(Point.parse("C3"),)).black
    (Point.parse('C3'),)
    """

    kind: ClassVar[str] = "setup"
    black: tuple[Point, ...] = ()
    white: tuple[Point, ...] = ()
    empty: tuple[Point, ...] = ()
    to_move: Color | None = None


@dataclass(frozen=True)
class Resume(_Action):
    """After passes ended play, ``color`` does not agree to end and plays on: play resumes with
    ``color`` to move (Go §21.1: 如果对方不同意就此终局，则应允许对方着子). Unlike
    :class:`Dispute` no group is named; the GTP front end and the tolerant SGF replay use it
    when a controller or a record goes on playing after two passes.

    >>> Resume(BLACK).kind
    'resume'
    """

    kind: ClassVar[str] = "resume"
    color: Color


@dataclass(frozen=True)
class Warn(_Action):
    """A warning given to ``color`` under ``article`` (Go §24).

    >>> Warn(BLACK, "Go §17.4").article
    'Go §17.4'
    """

    kind: ClassVar[str] = "warn"
    color: Color = BLACK
    article: str = "Go §24"


@dataclass(frozen=True)
class VoidMove(_Action):
    """Referee mode: ``color`` attempted ``point`` (None when no point matters) and the arbiter
    ruled the move void. It counts as a pass (弃权一次, Go §18.3, §19), plus a warning when
    ``warning`` is true (Go §18.3).

    >>> VoidMove(BLACK, None, "Go §19").warning
    False
    """

    kind: ClassVar[str] = "void_move"
    color: Color
    point: Point | None
    article: str = "Go §19"
    warning: bool = False


@dataclass(frozen=True)
class RestoreStones(_Action):
    """Referee mode, Go §18.1: stones of ``color`` that the opponent removed although they
    still had liberties (误提对方有气之子) go back on ``points`` in the middle of the game. The
    position is edited, the turn stays, the opponent's prisoners lose those stones; the warning
    is a separate :class:`Warn`.

    >>> RestoreStones(BLACK, (Point.parse("D4"),)).kind
    'restore'
    """

    kind: ClassVar[str] = "restore"
    color: Color
    points: tuple[Point, ...]
    article: str = "Go §18.1"


@dataclass(frozen=True)
class Adjudicate(_Action):
    """An ending decided outside the board: time, forfeit, arbiter's decision, agreement.

    >>> from duiyi.outcome import Termination
    >>> Adjudicate(Outcome.win(BLACK, Termination.TIME, "Go §22")).outcome.article
    'Go §22'
    """

    kind: ClassVar[str] = "adjudicate"
    outcome: Outcome


Action: TypeAlias = (
    Start
    | Setup
    | PlaceHandicap[Point]
    | Move[Point]
    | Pass
    | Resign
    | Accept[Point]
    | MarkDead[Point]
    | SetDead[Point]
    | Dispute[Point]
    | Resume
    | Warn
    | VoidMove
    | RestoreStones
    | Adjudicate
)


def _marking_json(a: SetDead[Point]) -> dict[str, Any]:
    """A marking is a set: its points are written in order."""
    return {"points": [str(p) for p in sorted(a.points)]}


def _mark_json(a: MarkDead[Point]) -> dict[str, Any]:
    """A group marked names one ``point`` (the Go log's form: one entry a group)."""
    if len(a.points) == 1:
        return {"point": str(a.points[0])}
    return {"points": [str(p) for p in a.points]}


def _read_mark(data: Any) -> MarkDead[Point]:
    return MarkDead(**GO_ACTIONS.read_fields(MarkDead, marked_points(data)))


#: Go's game log: each action's class by its JSON ``type`` (the shared ones by name), the codec of
#: each field type; every entry says ``"v": 1`` (an old one may not), the colour that acted is
#: never guessed and comes first; an acceptance is of the game's marking (the marking a player
#: was shown is the session's, checked before), so the log holds no ``dead``
GO_ACTIONS = Vocabulary(
    "Go",
    {
        "move": Move,
        "pass": Pass,
        "resign": Resign,
        "place_handicap": PlaceHandicap,
        "dispute": Dispute,
        "mark_dead": MarkDead,
        "set_dead": SetDead,
        "accept": Accept,
        **{c.kind: c for c in get_args(Action) if issubclass(get_origin(c) or c, _Action)},
    },
    _CODECS,
    version_default=1,
    required=frozenset({"color"}),
    first=("color",),
    ignored=frozenset({"dead"}),
    readers={MarkDead: _read_mark},
    writers={SetDead: _marking_json, MarkDead: _mark_json},
)
