"""The game actions every log shares: a stone on a point (issue 34, "one ``Move`` class"), a
pass, a resignation, Go's dispute, free handicap and dead-stone marking, Gomoku's designated
opening, swap, fifth-move offer, draw offers and foul claim.

Go's game log, Gomoku's and a session's log all hold these classes. What differs is only what
a point is on each board, and whether the colour is said: the game's log names the colour that
moved, a session's entry names its seat instead (the entry's ``player``; in Gomoku a swap gives
a seat the other colour, so the session cannot know it). The type of ``point`` is the log's:
Go's :class:`~duiyi.go.point.Point`, Gomoku's, or the book's text in a session. Each log writes
and reads it with its own codec table (:class:`duiyi.codec.Vocabulary`), so the JSON of every
stored log stays what it was.

>>> Move("D4")
Move(point='D4', color=None)
>>> from duiyi import BLACK
>>> Move("h8", BLACK).color
Color.BLACK
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from duiyi import Color
from duiyi.errors import InvalidInput

__all__ = [
    "Accept",
    "AcceptDraw",
    "ChooseFifth",
    "ClaimFoul",
    "DeclineDraw",
    "Dispute",
    "MarkDead",
    "Move",
    "OfferDraw",
    "Open",
    "Pass",
    "PlaceHandicap",
    "Play",
    "ProposeFifth",
    "Resign",
    "SetDead",
    "Swap",
    "marked_points",
]

#: what a point is in the log that holds the move
P = TypeVar("P")


@dataclass(frozen=True)
class Play:
    """What every shared game action has: ``color``, the colour that acted (a game's log; None
    in a session's, whose entry names the seat), and whether it completes a turn.

    >>> from duiyi import WHITE
    >>> Pass(WHITE).by(), Pass().turn
    (Color.WHITE, True)
    """

    #: a stone, a pass or an opening step: completes a turn and presses the clock (Go §2.5)
    turn: ClassVar[bool] = False

    def by(self) -> Color:
        """The colour that acted; InvalidInput for an action that names none (a game's log
        never guesses a colour)."""
        color = getattr(self, "color", None)
        if not isinstance(color, Color):
            raise InvalidInput(f"the colour of an action must be a Color, got {color!r}")
        return color


# The docstring, up to its example, is the OpenAPI document's description of a move request
# (duiyi.server.games.action_schemas): the body of POST .../actions is a session's stone.
@dataclass(frozen=True)
class Move(Play, Generic[P]):
    """A stone on ``point``, the book's name of it ("D4" in Go, "h8" in Gomoku). A request
    may name it ``move`` instead of ``point``.

    >>> Move("E5").turn
    True
    """

    #: where the stone goes (Go §2, Gomoku §4.1), as the log holds a point
    point: P
    #: the colour that played it (a game's log); None in a session's, whose entry names the seat
    color: Color | None = None
    turn: ClassVar[bool] = True


# As the stone's, each docstring up to its example is the OpenAPI document's description.
@dataclass(frozen=True)
class Pass(Play):
    """A pass (Go §2.5, Gomoku §2.21)."""

    color: Color | None = None
    turn: ClassVar[bool] = True


@dataclass(frozen=True)
class Resign(Play):
    """The player resigns."""

    color: Color | None = None


@dataclass(frozen=True)
class Swap(Play):
    """White takes Black's stones after the opening (Gomoku §2.9)."""

    color: Color | None = None
    turn: ClassVar[bool] = True


@dataclass(frozen=True)
class OfferDraw(Play):
    """A draw offer right after one's own move (Gomoku §10.3)."""

    color: Color | None = None


@dataclass(frozen=True)
class AcceptDraw(Play):
    """The opponent's draw offer accepted (Gomoku §10.3(2))."""

    color: Color | None = None


@dataclass(frozen=True)
class DeclineDraw(Play):
    """The opponent's draw offer declined (Gomoku §10.3(2))."""

    color: Color | None = None


@dataclass(frozen=True)
class Dispute(Play, Generic[P]):
    """The player claims the group at ``point`` dead, the opponent disagrees (Go §21.4)."""

    #: a stone of the group; play resumes with the disputing ``color`` to move (Go §21.4)
    point: P
    color: Color | None = None


@dataclass(frozen=True)
class PlaceHandicap(Play, Generic[P]):
    """Black's free placement of its handicap stones (Go §4.3)."""

    points: tuple[P, ...]
    turn: ClassVar[bool] = True


@dataclass(frozen=True)
class ProposeFifth(Play, Generic[P]):
    """Black's candidate fifth moves (Gomoku §2.9)."""

    #: the N candidates in the order offered (五手N打, Gomoku §2.10)
    points: tuple[P, ...]
    color: Color | None = None
    turn: ClassVar[bool] = True


@dataclass(frozen=True)
class ChooseFifth(Play, Generic[P]):
    """White keeps one of the candidate fifth moves (Gomoku §2.9)."""

    #: the candidate kept as black 5 (Gomoku §2.10)
    point: P
    color: Color | None = None
    turn: ClassVar[bool] = True


@dataclass(frozen=True)
class MarkDead(Play, Generic[P]):
    """Toggle the groups through ``points`` dead or alive (Go §8, §21). Older logs name one
    ``point``.

    >>> MarkDead(("C3",)).points
    ('C3',)
    """

    #: the groups, a stone of each (Go's log names one ``point`` an entry, :func:`marked_points`)
    points: tuple[P, ...]


def marked_points(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A marking's JSON object with its ``points``: older logs (and Go's log, one group an
    entry) name one ``point``.

    >>> marked_points({"type": "mark_dead", "point": "C3"})
    {'type': 'mark_dead', 'point': 'C3', 'points': ['C3']}
    """
    if "points" in data:
        return data
    return {**data, "points": [data.get("point")]}


@dataclass(frozen=True)
class SetDead(Play, Generic[P]):
    """The whole marking replaced by the groups through ``points`` (Go §8)."""

    #: a stone of each dead group (Go's log: none, nothing is dead; the session's requires them)
    points: tuple[P, ...] = ()


@dataclass(frozen=True)
class Accept(Play, Generic[P]):
    """The player agrees to the marking (Go §21). ``dead`` is the marking the player was shown
    (its dead stones; the automatic proposal while nothing is marked): the game accepts that
    marking or refuses the acceptance if the game's marking is no longer it. Without ``dead``
    (older logs, engines) the game's marking at that moment is accepted.

    >>> Accept(("B5",)).dead, Accept().dead
    (('B5',), None)
    """

    #: the session's: the adapter checks it before it passes the acceptance on (Go's log holds
    #: no ``dead``, its acceptance is of the game's marking)
    dead: tuple[P, ...] | None = None
    #: the colour that accepts (a game's log); None in a session's, whose entry names the seat
    color: Color | None = None


@dataclass(frozen=True)
class Open(Play, Generic[P]):
    """The designated opening's three stones and the number of fifth moves Black will offer
    (Gomoku §3.2, §2.9)."""

    #: black 1, white 2, black 3 in the order laid down (Gomoku §3.2)
    moves: tuple[P, ...]
    #: N of the fifth-move N-dab (Gomoku §2.10); an older log without it offers one
    fifth_n: int = 1
    color: Color | None = None
    turn: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if len(self.moves) != 3:
            raise InvalidInput(
                f"the opening is three stones (Gomoku §3.2), got {[str(m) for m in self.moves]!r}",
                "Gomoku §3.2",
            )


@dataclass(frozen=True)
class ClaimFoul(Play):
    """A claim: a forbidden move of Black (Gomoku §10.1(2)); ``what`` is kept as sent."""

    color: Color | None = None
    #: the session's, as sent (Gomoku's log holds no ``what``: its claim is of a foul)
    what: str = "foul"
