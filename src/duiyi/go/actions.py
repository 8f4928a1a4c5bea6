"""The actions of a Go game: small frozen values that make up its log (event sourcing).

Every state of a :class:`~duiyi.go.Game` is a pure function of its rules and its action list.
The first action is always :class:`Start` (size, handicap, how handicap stones are placed); the
others are what players and arbiters do. Each action serialises to one JSON object with a
``"type"`` and ``"v": 1``.

>>> a = Move(BLACK, Point.parse("Q16"))
>>> a.to_json()
{'v': 1, 'type': 'move', 'color': 'black', 'point': 'Q16'}
>>> action_from_json(a.to_json()) == a
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from duiyi import BLACK, Color
from duiyi.errors import InvalidInput
from duiyi.go.point import MAX_SIZE, Point
from duiyi.outcome import Outcome

__all__ = [
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
    "action_from_json",
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


@dataclass(frozen=True)
class Start:
    """The header of every log: board size, handicap, and whether Black places it freely.

    >>> Start(19, 4).to_json()
    {'v': 1, 'type': 'start', 'size': 19, 'handicap': 4, 'free_placement': False}
    """

    kind: ClassVar[str] = "start"
    size: int = 19
    handicap: int = 0
    free_placement: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "v": 1,
            "type": self.kind,
            "size": self.size,
            "handicap": self.handicap,
            "free_placement": self.free_placement,
        }


@dataclass(frozen=True)
class Setup:
    """Stones set on or taken off the board before play (SGF AB/AW/AE), and who moves.

    >>> Setup(black=(Point.parse("C3"),)).to_json()["black"]
    ['C3']
    """

    kind: ClassVar[str] = "setup"
    black: tuple[Point, ...] = ()
    white: tuple[Point, ...] = ()
    empty: tuple[Point, ...] = ()
    to_move: Color | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "v": 1,
            "type": self.kind,
            "black": [str(p) for p in self.black],
            "white": [str(p) for p in self.white],
            "empty": [str(p) for p in self.empty],
            "to_move": self.to_move.value if self.to_move else None,
        }


@dataclass(frozen=True)
class PlaceHandicap:
    """Black's freely placed handicap stones.

    >>> PlaceHandicap((Point.parse("D4"), Point.parse("Q16"))).to_json()["points"]
    ['D4', 'Q16']
    """

    kind: ClassVar[str] = "place_handicap"
    points: tuple[Point, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "points": [str(p) for p in self.points]}


@dataclass(frozen=True)
class Move:
    """A stone played (Go §2).

    >>> Move(BLACK, Point.parse("D4")).point
    Point.parse('D4')
    """

    kind: ClassVar[str] = "move"
    color: Color
    point: Point

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "color": self.color.value, "point": str(self.point)}


@dataclass(frozen=True)
class _ColorAction:
    kind: ClassVar[str] = ""
    color: Color = BLACK

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "color": self.color.value}


@dataclass(frozen=True)
class Pass(_ColorAction):
    """A pass (虚着, Go §2.5).

    >>> Pass(BLACK).to_json()
    {'v': 1, 'type': 'pass', 'color': 'black'}
    """

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Resign(_ColorAction):
    """``color`` resigns (中盘认输, Go §7.2).

    >>> Resign(BLACK).kind
    'resign'
    """

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True)
class Accept(_ColorAction):
    """``color`` accepts the current dead-stone marking (Go §8, §21).

    >>> Accept(BLACK).kind
    'accept'
    """

    kind: ClassVar[str] = "accept"


@dataclass(frozen=True)
class MarkDead:
    """Toggle the chain through ``point`` between dead and alive (counting phase).

    >>> MarkDead(Point.parse("C3")).to_json()["point"]
    'C3'
    """

    kind: ClassVar[str] = "mark_dead"
    point: Point

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "point": str(self.point)}


@dataclass(frozen=True)
class SetDead:
    """Replace the whole dead-stone marking (counting phase), e.g. by a proposal.

    >>> SetDead((Point.parse("C3"),)).kind
    'set_dead'
    """

    kind: ClassVar[str] = "set_dead"
    points: tuple[Point, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "points": [str(p) for p in sorted(self.points)]}


@dataclass(frozen=True)
class Dispute:
    """``color`` claims the group at ``point`` dead and the opponent disagrees: play resumes
    with ``color`` to move (Go §21.4).

    >>> Dispute(BLACK, Point.parse("C3")).to_json()["type"]
    'dispute'
    """

    kind: ClassVar[str] = "dispute"
    color: Color
    point: Point

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "color": self.color.value, "point": str(self.point)}


@dataclass(frozen=True)
class Resume:
    """After passes ended play, ``color`` does not agree to end and plays on: play resumes with
    ``color`` to move (Go §21.1: 如果对方不同意就此终局，则应允许对方着子). Unlike
    :class:`Dispute` no group is named; the GTP front end and the tolerant SGF replay use it
    when a controller or a record goes on playing after two passes.

    >>> Resume(BLACK).to_json()
    {'v': 1, 'type': 'resume', 'color': 'black'}
    """

    kind: ClassVar[str] = "resume"
    color: Color

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "color": self.color.value}


@dataclass(frozen=True)
class Warn:
    """A warning given to ``color`` under ``article`` (Go §24).

    >>> Warn(BLACK, "Go §17.4").article
    'Go §17.4'
    """

    kind: ClassVar[str] = "warn"
    color: Color = BLACK
    article: str = "Go §24"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"v": 1, "type": self.kind, "color": self.color.value, "article": self.article}


@dataclass(frozen=True)
class VoidMove:
    """Referee mode: ``color`` attempted ``point`` (None when no point matters) and the arbiter
    ruled the move void. It counts as a pass (弃权一次, Go §18.3, §19), plus a warning when
    ``warning`` is true (Go §18.3).

    >>> VoidMove(BLACK, None, "Go §19").to_json()["point"] is None
    True
    """

    kind: ClassVar[str] = "void_move"
    color: Color
    point: Point | None
    article: str = "Go §19"
    warning: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "v": 1,
            "type": self.kind,
            "color": self.color.value,
            "point": str(self.point) if self.point else None,
            "article": self.article,
            "warning": self.warning,
        }


@dataclass(frozen=True)
class RestoreStones:
    """Referee mode, Go §18.1: stones of ``color`` that the opponent removed although they
    still had liberties (误提对方有气之子) go back on ``points`` in the middle of the game. The
    position is edited, the turn stays, the opponent's prisoners lose those stones; the warning
    is a separate :class:`Warn`.

    >>> a = RestoreStones(BLACK, (Point.parse("D4"),))
    >>> a.to_json()
    {'v': 1, 'type': 'restore', 'color': 'black', 'points': ['D4'], 'article': 'Go §18.1'}
    >>> action_from_json(a.to_json()) == a
    True
    """

    kind: ClassVar[str] = "restore"
    color: Color
    points: tuple[Point, ...]
    article: str = "Go §18.1"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "v": 1,
            "type": self.kind,
            "color": self.color.value,
            "points": [str(p) for p in self.points],
            "article": self.article,
        }


@dataclass(frozen=True)
class Adjudicate:
    """An ending decided outside the board: time, forfeit, arbiter's decision, agreement.

    >>> from duiyi.outcome import Termination
    >>> a = Adjudicate(Outcome.win(BLACK, Termination.TIME, "Go §22"))
    >>> action_from_json(a.to_json()) == a
    True
    """

    kind: ClassVar[str] = "adjudicate"
    outcome: Outcome

    def to_json(self) -> dict[str, Any]:
        """JSON form (the outcome without any score)."""
        data = self.outcome.to_json()
        data.pop("score", None)
        return {"v": 1, "type": self.kind, "outcome": data}


Action = (
    Start
    | Setup
    | PlaceHandicap
    | Move
    | Pass
    | Resign
    | Accept
    | MarkDead
    | SetDead
    | Dispute
    | Resume
    | Warn
    | VoidMove
    | RestoreStones
    | Adjudicate
)


def action_from_json(data: dict[str, Any]) -> Action:
    """Rebuild an action from its JSON form (raises InvalidInput on anything unreadable).

    >>> action_from_json({"v": 1, "type": "pass", "color": "white"})
    Pass(color=Color.WHITE)
    """
    if not isinstance(data, dict):
        raise InvalidInput(f"an action must be a JSON object, got {data!r}")
    if data.get("v", 1) != 1:
        raise InvalidInput(f"unsupported action version {data.get('v')!r}")
    kind = data.get("type")
    try:
        if kind == "start":
            size, handicap = data.get("size", 19), data.get("handicap", 0)
            if not isinstance(size, int) or not isinstance(handicap, int):
                raise InvalidInput("start needs integer size and handicap")
            return Start(size, handicap, bool(data.get("free_placement", False)))
        if kind == "setup":
            tm = data.get("to_move")
            return Setup(
                _pts(data.get("black", ())),
                _pts(data.get("white", ())),
                _pts(data.get("empty", ())),
                _color(tm) if tm else None,
            )
        if kind == "place_handicap":
            return PlaceHandicap(_pts(data["points"]))
        if kind == "move":
            return Move(_color(data["color"]), _pt(data["point"]))
        if kind == "pass":
            return Pass(_color(data["color"]))
        if kind == "resign":
            return Resign(_color(data["color"]))
        if kind == "accept":
            return Accept(_color(data["color"]))
        if kind == "mark_dead":
            return MarkDead(_pt(data["point"]))
        if kind == "set_dead":
            return SetDead(_pts(data["points"]))
        if kind == "dispute":
            return Dispute(_color(data["color"]), _pt(data["point"]))
        if kind == "resume":
            return Resume(_color(data["color"]))
        if kind == "warn":
            return Warn(_color(data["color"]), str(data.get("article", "Go §24")))
        if kind == "void_move":
            pt = data.get("point")
            return VoidMove(
                _color(data["color"]),
                _pt(pt) if pt else None,
                str(data.get("article", "Go §19")),
                bool(data.get("warning", False)),
            )
        if kind == "adjudicate":
            return Adjudicate(Outcome.from_json(data["outcome"]))
        if kind == "restore":
            return RestoreStones(
                _color(data["color"]), _pts(data["points"]), str(data.get("article", "Go §18.1"))
            )
    except KeyError as exc:
        raise InvalidInput(f"action {kind!r} lacks {exc}") from None
    raise InvalidInput(f"unknown Go action type {kind!r}")
