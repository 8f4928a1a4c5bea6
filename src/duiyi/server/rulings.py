"""Typed rulings: one request shape per kind of ruling, named as the ruling it makes
(:class:`duiyi.referee.RulingKind`), validated by the schema (a wrong argument is a 422 problem
before the referee sees it) and turned into the core's typed request
(:mod:`duiyi.referee.requests`) for ``Session.rule``: the same name in the API, the session, the
ledger and the web forms.

>>> parse_ruling({"kind": "warning", "color": "black", "article": "Go §24"}).to_request()
Warning(color=Color.BLACK, article='Go §24', note='', move_number=None)
>>> parse_ruling({"kind": "moved_stones", "decision": "draw"}).to_request().decision.value
'draw'
>>> parse_ruling({"kind": "stones_restored", "color": "white", "points": ["C3"]}).to_request().points
('C3',)
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, ClassVar, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from duiyi import Color
from duiyi.errors import InvalidInput
from duiyi.referee import BOOKS, Book, Decision, RulingRequest
from duiyi.referee import requests as rq
from duiyi.server.schemas import CHECKED, NO_BOOL, Note, text_field

__all__ = ["Ruling", "parse_ruling", "ruling_table"]

Seat = Literal["black", "white"]
Article = Annotated[str, text_field(80, 1, examples=["Go §24"]), CHECKED]
MoveNumber = Annotated[int, Field(ge=0, le=10_000), NO_BOOL]
CallNumber = Annotated[int, Field(ge=1, le=1000), NO_BOOL]
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
    answers: CallNumber | None = Field(
        None,
        description="the number of the player's call this ruling answers (the others stay open)",
    )
    action_id: str | None = Field(
        None,
        min_length=1,
        max_length=64,
        description="the arbiter's id of this ruling: a retry with the same id is applied once",
    )

    #: the core's request this body becomes
    request: ClassVar[type]

    def fields(self) -> dict[str, Any]:
        """The request's fields, typed (colours, decisions, tuples)."""
        data = self.model_dump(exclude={"kind", "action_id", "answers"}, exclude_none=True)
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("color", "offender", "by", "caller", "opponent_takes"):
                out[key] = Color(value)
            elif key == "colors":
                out[key] = tuple(Color(v) for v in value)
            elif key == "decision":
                out[key] = Decision(value)
            elif isinstance(value, list):
                out[key] = tuple(value)
            else:
                out[key] = value
        return out

    def to_request(self) -> RulingRequest:
        """The core's typed request (:mod:`duiyi.referee.requests`) for this body."""
        made: RulingRequest = type(self).request(**self.fields())
        return made


class Warning(_Ruling):
    """A warning (Go §24.1; the second in a game loses it, Go §24.2)."""

    kind: Literal["warning"]
    request: ClassVar[type] = rq.Warning
    color: Seat
    article: Article = "Go §24"
    move_number: MoveNumber | None = None


class Violation(_Ruling):
    """A violation (Gomoku §12.3(4)); the limit loses the game."""

    kind: Literal["violation"]
    request: ClassVar[type] = rq.Violation
    color: Seat
    article: Article = "Gomoku §12.4"
    move_number: MoveNumber | None = None


class TimePenalty(_Ruling):
    """Time taken from one player and/or given to the opponent (Gomoku §12.3(3))."""

    kind: Literal["time_penalty"]
    request: ClassVar[type] = rq.TimePenalty
    color: Seat
    deduct: Annotated[float, Field(ge=0, le=3600), NO_BOOL] = 0.0
    award: Annotated[float, Field(ge=0, le=3600), NO_BOOL] = 0.0
    article: Article = "Gomoku §12.3(3)"
    move_number: MoveNumber | None = None


class ClockAdjustment(_Ruling):
    """A clock correction in seconds (Go §22.8, Gomoku §8.7); may be negative."""

    kind: Literal["clock_adjustment"]
    request: ClassVar[type] = rq.ClockAdjustment
    color: Seat
    seconds: Seconds
    article: Article = "Go §22.8"


class VoidMove(_Ruling):
    """A void move (Go §17-19): pass and warning follow the article unless given."""

    kind: Literal["void_move"]
    request: ClassVar[type] = rq.VoidMove
    color: Seat
    article: Article
    pass_turn: StrictBool | None = None
    warning: StrictBool | None = None
    move_number: MoveNumber | None = None


class OvertimePass(_Ruling):
    """A pass and a warning for a player over the last minute (Go §22.5)."""

    kind: Literal["overtime_pass"]
    request: ClassVar[type] = rq.OvertimePass
    color: Seat
    move_number: MoveNumber | None = None


class ColourCorrection(_Ruling):
    """Colours found exchanged (Go §10.3, Gomoku §5.2); moves and minutes come from the game."""

    kind: Literal["colour_correction"]
    request: ClassVar[type] = rq.ColourCorrection


class MovedStones(_Ruling):
    """Stones moved on the board (Go §17.5, Gomoku §4.2)."""

    kind: Literal["moved_stones"]
    request: ClassVar[type] = rq.MovedStones
    decision: DecisionName
    offender: Seat | None = None
    deliberate: StrictBool = False


class Scattered(_Ruling):
    """The board scattered (Go §17.6, Gomoku §4.2)."""

    kind: Literal["scattered"]
    request: ClassVar[type] = rq.Scattered
    decision: DecisionName
    by: Seat | None = None
    deliberate: StrictBool = False


class Forfeit(_Ruling):
    """A player loses by forfeit under ``article`` (Go §23.7, Gomoku §10.1(3)G, ...)."""

    kind: Literal["forfeit"]
    request: ClassVar[type] = rq.Forfeit
    color: Seat
    article: Article
    override: StrictBool = False


class DoubleForfeit(_Ruling):
    """Both players lose (Go §17.6, ...)."""

    kind: Literal["double_forfeit"]
    request: ClassVar[type] = rq.DoubleForfeit
    article: Article
    override: StrictBool = False


class NoShow(_Ruling):
    """One or both players absent past the limit (Go §22.3, Gomoku §8.5)."""

    kind: Literal["no_show"]
    request: ClassVar[type] = rq.NoShow
    colors: Annotated[list[Seat], Field(min_length=1, max_length=2)]


class Withdrawal(_Ruling):
    """A player withdraws: this game is lost (Go §28, Gomoku §10.1(3)D)."""

    kind: Literal["withdrawal"]
    request: ClassVar[type] = rq.Withdrawal
    color: Seat


class Disqualification(_Ruling):
    """Disqualification, once the committee approved it (Gomoku §2.20(4), §12.3(2)D)."""

    kind: Literal["disqualification"]
    request: ClassVar[type] = rq.Disqualification
    color: Seat
    decided: StrictBool | None = None
    approved: StrictBool = False
    article: Article | None = None


class DisciplinaryLoss(_Ruling):
    """A disciplinary loss (Gomoku §2.20(3))."""

    kind: Literal["disciplinary_loss"]
    request: ClassVar[type] = rq.DisciplinaryLoss
    color: Seat
    # None: the session knows whether the result is confirmed
    decided: StrictBool | None = None
    article: Article = "Gomoku §2.20(3)"


class BothFlags(_Ruling):
    """Both flags down in an unknown order: a draw (Gomoku §10.2(4))."""

    kind: Literal["both_flags"]
    request: ClassVar[type] = rq.BothFlags
    override: StrictBool = False


class LeaveSeat(_Ruling):
    """Permission to leave the seat in byo-yomi, once per game (Go §22.7)."""

    kind: Literal["leave_seat"]
    request: ClassVar[type] = rq.LeaveSeat
    color: Seat


class DroppedStone(_Ruling):
    """A dropped stone entered as ``color``'s move is taken back and ``color`` chooses again:
    Go §17.3 (with the opponent's ``consent``, else the ``chief_arbiter``; no penalty), Gomoku
    §6.1(7) with §4.2's ``penalty``: ``violation`` (default, §12.4), ``time`` (罚时 of
    ``deduct``/``award`` seconds, §12.3(3)) or ``none``."""

    kind: Literal["dropped_stone"]
    request: ClassVar[type] = rq.DroppedStone
    color: Seat
    consent: StrictBool = True
    chief_arbiter: StrictBool = False
    penalty: Literal["violation", "time", "none"] | None = None
    deduct: Annotated[float, Field(ge=0, le=3600), NO_BOOL] = 0.0
    award: Annotated[float, Field(ge=0, le=3600), NO_BOOL] = 0.0
    move_number: MoveNumber | None = None


class StonesRestored(_Ruling):
    """Go §18.1: ``color`` removed stones of the opponent that still had liberties; they go back
    on ``points`` and ``color`` gets a warning (Go §24)."""

    kind: Literal["stones_restored"]
    request: ClassVar[type] = rq.StonesRestored
    color: Seat
    points: Annotated[list[Point], Field(min_length=1, max_length=361)]
    warning: StrictBool = True


class IrregularAccepted(_Ruling):
    """Gomoku §6.1: the opponent of ``color`` accepts ``color``'s irregular act just made
    instead of its correction (recorded; a later correction of the act is refused)."""

    kind: Literal["irregular_accepted"]
    request: ClassVar[type] = rq.IrregularAccepted
    color: Seat
    article: Annotated[
        str, Field(pattern=r"^Gomoku §6\.1(\([1-7]\))?$", examples=["Gomoku §6.1(5)"])
    ] = "Gomoku §6.1"


class StoneReplaced(_Ruling):
    """Gomoku §6.1(5) a pushed stone, or with ``lifted`` §6.1(6) a re-lifted one: ``color``'s
    last stone goes back to ``point``, the first (empty) point it touched."""

    kind: Literal["stone_replaced"]
    request: ClassVar[type] = rq.StoneReplaced
    color: Seat
    point: Point
    lifted: StrictBool = False
    violation: StrictBool = Field(
        True,
        description="the opponent pointed it out: a violation (Gomoku §6.1, §12.4); false: the "
        "correction alone",
    )


class CoinToss(_Ruling):
    """Gomoku §5.3(2): the arbiter tosses the 挑边器 and the player of seat ``caller`` calls
    ``called``; ``face`` is what came up (an arbiter's real coin), or, left out, the server
    tosses it with its own random source. Before the first move only."""

    kind: Literal["coin_toss"]
    request: ClassVar[type] = rq.CoinToss
    caller: Seat
    called: Literal["heads", "tails"]
    face: Literal["heads", "tails"] | None = None

    def fields(self) -> dict[str, Any]:
        """The request's fields, the coin tossed here when no face was given (the server's
        random source: the core takes the face as data)."""
        out = super().fields()
        out["call"] = out.pop("called")
        if out.get("face") is None:
            out["face"] = secrets.choice(("heads", "tails"))
        return out


class ColoursChosen(_Ruling):
    """Gomoku §5.3(2): the winner of the call chooses ``black``, ``white`` or
    ``opponent_first`` (C: the opponent must choose first: ``opponent_takes``). When the seat
    that was to play White takes Black, the players exchange seats (``seats_swapped``)."""

    kind: Literal["colours_chosen"]
    request: ClassVar[type] = rq.ColoursChosen
    choice: Literal["black", "white", "opponent_first"]
    opponent_takes: Seat | None = None


class Appeal(_Ruling):
    """Gomoku §13.1: ``color`` appeals against the ruling number ``against`` (its index among
    the game's rulings). With ``limit`` (seconds after the game ended, Gomoku §8.11; the
    organiser's delays excluded) a late appeal is refused; the record keeps the deadline and
    who has the last word (``question``: fact → the arbiter, interpretation → the chief
    arbiter, uncovered and decided by the chief arbiter → the competition committee)."""

    kind: Literal["appeal"]
    request: ClassVar[type] = rq.Appeal
    color: Seat
    against: MoveNumber
    question: Literal["fact", "interpretation", "uncovered"] = "fact"
    appellant: Literal["player", "parent", "team_leader", "other"] = "player"
    limit: Annotated[float, Field(gt=0, le=30 * 86_400), NO_BOOL] | None = None
    organiser_delay: Annotated[float, Field(ge=0, le=30 * 86_400), NO_BOOL] = 0.0
    by_chief_arbiter: StrictBool = False
    team_event: StrictBool = False
    leader_supports: StrictBool = False
    player_age: Annotated[int, Field(ge=0, le=150), NO_BOOL] | None = None
    deposit: Annotated[int, Field(ge=0, le=1_000_000), NO_BOOL] = 0


class AppealDecided(_Ruling):
    """Gomoku §13: the answer to the appeal number ``appeal``: ``upheld``, ``reasonable``
    (failed with some reason: half the deposit back) or ``rejected``; the competition
    committee's ``votes`` (odd, at least three, the majority decides) when it has the last
    word."""

    kind: Literal["appeal_decided"]
    request: ClassVar[type] = rq.AppealDecided
    appeal: MoveNumber
    result: Literal["upheld", "reasonable", "rejected"]
    votes: Annotated[list[StrictBool], Field(max_length=15)] = []


Ruling = Annotated[
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
    | StonesRestored
    | IrregularAccepted
    | StoneReplaced
    | Appeal
    | AppealDecided
    | CoinToss
    | ColoursChosen,
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


# ---------------------------------------------------------------------------- the forms' table

_MODELS: dict[str, type[_Ruling]] = {
    str(m.model_fields["kind"].annotation.__args__[0]): m  # type: ignore[union-attr]
    for m in _Ruling.__subclasses__()
}

# the order the arbiter reads them in (the book's commonest first); a method of a book that is
# missing here comes last, so a ruling added to a Book is offered without touching this list
_ORDER = (
    "warning",
    "violation",
    "time_penalty",
    "clock_adjustment",
    "void_move",
    "stones_restored",
    "stone_replaced",
    "irregular_accepted",
    "dropped_stone",
    "moved_stones",
    "scattered",
    "colour_correction",
    "overtime_pass",
    "leave_seat",
    "forfeit",
    "double_forfeit",
    "disqualification",
    "disciplinary_loss",
    "no_show",
    "withdrawal",
    "both_flags",
)

# articles to choose from where the ruling names its own (the book's article comes first)
_SUGGESTED: dict[tuple[str, str], tuple[str, ...]] = {
    ("go", "warning"): ("Go §24", "Go §17.2", "Go §17.4", "Go §18.1", "Go §22.6", "Go §23.3"),
    ("go", "void_move"): ("Go §19", "Go §18.3", "Go §17.2", "Go §17.3"),
    ("go", "forfeit"): ("Go §23.3", "Go §23.1", "Go §23.4", "Go §23.5", "Go §23.7"),
    ("go", "double_forfeit"): ("Go §23.1", "Go §17.6"),
    ("go", "disqualification"): ("Go §23.1",),
    ("go", "disciplinary_loss"): ("Go §23",),
    ("gomoku", "violation"): ("Gomoku §12.4", "Gomoku §12.3(2)B", "Gomoku §10.3(3)"),
    ("gomoku", "void_move"): (
        "Gomoku §6.1(4)",
        "Gomoku §6.1(1)",
        "Gomoku §6.1(2)",
        "Gomoku §6.1(3)",
    ),
    ("gomoku", "forfeit"): ("Gomoku §12.3(2)C", "Gomoku §10.1(3)G"),
    ("gomoku", "double_forfeit"): ("Gomoku §12.3(2)C",),
    ("gomoku", "irregular_accepted"): tuple(f"Gomoku §6.1({k})" for k in range(1, 7)),
}

# where the book's table shares an article between the games, this game's own article
_PRESELECTED = {("gomoku", "clock_adjustment"): "Gomoku §8.7"}

# a ruling offered twice with a field fixed (Gomoku §6.1(5) pushed, §6.1(6) re-lifted)
_VARIANTS: dict[str, tuple[tuple[str, dict[str, Any], str], ...]] = {
    "stone_replaced": (
        ("replace_pushed", {"lifted": False}, "Gomoku §6.1(5)"),
        ("replace_lifted", {"lifted": True}, "Gomoku §6.1(6)"),
    ),
}

# what each request field is on a form
_FIELD_TYPES = {
    "color": "seat",
    "caller": "seat",
    "opponent_takes": "seat",
    "offender": "seat",
    "by": "seat",
    "colors": "seats",
    "decision": "decision",
    "seconds": "signed_time",
    "deduct": "time",
    "award": "time",
    "points": "points",
    "point": "point",
    "article": "article",
    "note": "note",
}
# the session knows the move number and whether the game is decided: never asked on a form
_NOT_ON_FORMS = {"kind", "action_id", "answers", "move_number", "decided"}


def _literal_values(annotation: Any) -> list[str]:
    """The words of a ``Literal[...]`` (or an optional one), else []."""
    if get_origin(annotation) is Literal:
        return [str(a) for a in get_args(annotation)]
    for arg in get_args(annotation):
        if get_origin(arg) is Literal:
            return [str(a) for a in get_args(arg)]
    return []


def _is(annotation: Any, kinds: type | tuple[type, ...]) -> bool:
    """Whether ``annotation`` (possibly Annotated or optional) is one of ``kinds``."""
    if get_origin(annotation) is list:
        return False
    if isinstance(annotation, type):
        return issubclass(annotation, kinds) and not (
            kinds is not bool and issubclass(annotation, bool)
        )
    return any(_is(a, kinds) for a in get_args(annotation) if a is not type(None))


def _fields(model: type[_Ruling], book: Book, method: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, info in model.model_fields.items():
        if name in _NOT_ON_FORMS:
            continue
        kind = _FIELD_TYPES.get(name)
        choices = _literal_values(info.annotation)
        if kind is None and choices:  # one of a few words: a list to pick from
            kind = "select"
        elif kind is None and _is(info.annotation, bool):
            # a flag, or a flag left to the article when None
            kind = "flag" if info.default is not None else "choice"
        elif kind is None and _is(info.annotation, (int, float)):
            kind = "number"
        elif kind is None:
            continue  # nothing a form asks (a list of votes...): the request's default
        field: dict[str, Any] = {"name": name, "type": kind, "required": info.is_required()}
        if kind == "select":
            field["choices"] = choices
        if info.default is not None and not info.is_required():
            field["default"] = info.default
        if kind == "decision":
            allowed = set(book.moved if method == "moved_stones" else book.scattered)
            if method == "scattered":
                allowed.add(Decision.OFFENDER_LOSES)
            field["choices"] = [d.value for d in Decision if d in allowed]
        out.append(field)
    # whom first, then what was decided, the article and the note last
    rank = {"seat": 0, "seats": 0, "decision": 1, "select": 1, "signed_time": 2, "time": 2}
    rank |= {"points": 3, "number": 3}
    rank |= {"point": 3, "flag": 4, "choice": 4, "article": 5, "note": 6}
    return sorted(out, key=lambda f: rank[f["type"]])


def ruling_table(game: str) -> list[dict[str, Any]]:
    """The rulings the arbiter may make in ``game`` (its :class:`~duiyi.referee.Book`), each
    with the fields of its request, the article preselected and the articles to choose from.
    Forms are built from it (the room, the game page): nothing to type in JSON.

    >>> [r["id"] for r in ruling_table("gomoku")][:3]
    ['violation', 'time_penalty', 'clock_adjustment']
    >>> moved = next(r for r in ruling_table("gomoku") if r["id"] == "moved_stones")
    >>> next(f for f in moved["fields"] if f["name"] == "decision")["choices"]
    ['restore', 'valid', 'draw', 'replay']
    >>> "warning" in [r["id"] for r in ruling_table("go")], "warning" in [r["id"] for r in ruling_table("gomoku")]
    (True, False)
    """
    if game not in BOOKS:
        raise InvalidInput(f"game must be one of {', '.join(BOOKS)}, got {game!r}")
    book = BOOKS[game]
    methods = [m for m in _ORDER if m in book.articles]
    methods += sorted(m for m in book.articles if m not in _ORDER and m in _MODELS)
    table: list[dict[str, Any]] = []
    for method in methods:
        model = _MODELS.get(method)
        if model is None:
            continue
        fields = _fields(model, book, method)
        article = _PRESELECTED.get((game, method), book.articles[method])
        suggested = list(_SUGGESTED.get((game, method), ()))
        if article and article not in suggested:
            suggested.insert(0, article)
        variants = _VARIANTS.get(method, ((method, {}, article),))
        for rid, fixed, art in variants:
            editable = any(f["name"] == "article" for f in fields)
            table.append(
                {
                    "id": rid,
                    "kind": method,
                    "article": art or (suggested[0] if suggested else ""),
                    "article_editable": editable,
                    "articles": suggested if editable else [art],
                    "fixed": fixed,
                    "fields": [f for f in fields if f["name"] not in fixed],
                }
            )
    return table
