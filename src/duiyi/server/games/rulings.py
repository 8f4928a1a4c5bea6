"""Typed rulings: one request shape per kind of ruling, named as the ruling it makes
(:class:`duiyi.referee.RulingKind`), validated by the schema (a wrong argument is a 422 problem
before the referee sees it) and turned into the core's typed request
(:mod:`duiyi.referee.requests`) for ``Session.rule``: the same name in the API, the session, the
ledger and the web forms.

Each shape is built from its request class, as :mod:`duiyi.server.games.action_schemas` builds the
actions': its ``kind``, its fields in their order with their defaults, its docstring, so that a
ruling is described once, in the core, and a field added to a request is a property of its
schema. The core's types say the values: a colour, a decision or an appeal's question is one of
its enum's words, a flag is JSON true/false and a number never one. What they do not say, the
server adds by a field's NAME, which bounds the same way in every ruling (:data:`_BY_NAME`: an
article is printable text of 1-80 characters, a move number 0-10000, ``seconds`` at most a day
either way...); the few places where the API differs from the request are listed by kind and
name: the article the server cites when the body names none (:data:`_DEFAULTS`), the coin it
tosses itself, a narrower article, and the fields the session fills in (:data:`_NOT_SENT`).

>>> parse_ruling({"kind": "warning", "color": "black", "article": "Go §24"}).to_request()
Warning(color=Color.BLACK, article='Go §24', note='', move_number=None)
>>> parse_ruling({"kind": "moved_stones", "decision": "draw"}).to_request().decision.value
'draw'
>>> parse_ruling({"kind": "stones_restored", "color": "white", "points": ["C3"]}).to_request().points
('C3',)
>>> sorted(RULING_MODELS["stone_replaced"].model_json_schema()["required"])
['color', 'kind', 'point']
"""

from __future__ import annotations

import dataclasses
import enum
import secrets
import types
import typing
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    TypeAdapter,
    ValidationError,
    create_model,
)

from duiyi.errors import RefereeError
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.referee import Book, Decision, RulingRequest
from duiyi.referee import requests as rq
from duiyi.server.games.action_schemas import POINT_PATTERN
from duiyi.server.schemas import (
    CHECKED,
    NO_BOOL,
    Int,
    Note,
    Number,
    normal_point,
    schema_error,
    text_field,
)

__all__ = ["RULING_MODELS", "Ruling", "parse_ruling", "ruling_in_game", "ruling_table"]

#: an article as duiyi cites the books (GameType.knows_article): Go §1-§33, Gomoku §1-§19, with
#: their clauses ("Go §27.1(1)B"); which of them a game's book has is the game's (409)
ARTICLE_PATTERN = (
    r"^(Go §([1-9]|[12][0-9]|3[0-3])|Gomoku §([1-9]|1[0-9]))(\.[0-9]{1,2}){0,2}"
    r"(\([0-9]{1,2}\))?[A-H]?$"
)
Article = Annotated[
    str, Field(min_length=1, max_length=80, pattern=ARTICLE_PATTERN, examples=["Go §24"]), CHECKED
]
Index = Annotated[int, Field(ge=0, le=10_000), NO_BOOL]  # a move's or a ruling's number
Penalty = Annotated[float, Field(ge=0, le=3600), NO_BOOL]  # seconds taken or given
# a point as the books write it: Go "D4" (letters without I), Gomoku "h8"
Point = Annotated[
    # a leading zero is read too ("D04"), and stored as the book writes it (ruling_in_game)
    str, Field(min_length=2, max_length=4, pattern=POINT_PATTERN, examples=["D4"])
]
_MONTH = 30 * 86_400

#: what a field's name means in every ruling beyond its type in the request
_BY_NAME: dict[str, Any] = {
    "note": Note,
    "article": Article,
    "move_number": Index,
    "against": Index,
    "appeal": Index,
    "seconds": Annotated[float, Field(ge=-86_400, le=86_400), NO_BOOL],
    "deduct": Penalty,
    "award": Penalty,
    "point": Point,
    # a point named twice is refused (ruling_in_game): the document says so
    "points": Annotated[
        list[Point], Field(min_length=1, max_length=361, json_schema_extra={"uniqueItems": True})
    ],
    "colors": Annotated[list[Literal["black", "white"]], Field(min_length=1, max_length=2)],
    "limit": Annotated[float, Field(gt=0, le=_MONTH), NO_BOOL],
    "organiser_delay": Annotated[float, Field(ge=0, le=_MONTH), NO_BOOL],
    "player_age": Annotated[int, Field(ge=0, le=150), NO_BOOL],
    "deposit": Annotated[int, Field(ge=0, le=1_000_000), NO_BOOL],
    "votes": Annotated[list[StrictBool], Field(max_length=15)],
}
#: the API's default where it is not the request's: the article the server cites when the body
#: names none; the coin the server tosses itself when no face is given (:meth:`_Ruling.fields`)
_DEFAULTS: dict[tuple[str, str], Any] = {
    ("warning", "article"): "Go §24",
    ("violation", "article"): "Gomoku §12.4",
    ("time_penalty", "article"): "Gomoku §12.3(3)",
    ("clock_adjustment", "article"): "Go §22.8",
    ("disciplinary_loss", "article"): "Gomoku §2.20(3)",
    ("irregular_accepted", "article"): "Gomoku §6.1",
    ("coin_toss", "face"): None,
}
#: an accepted irregularity is one of Gomoku §6.1's
_NARROWER: dict[tuple[str, str], Any] = {
    ("irregular_accepted", "article"): Annotated[
        str, Field(pattern=r"^Gomoku §6\.1(\([1-7]\))?$", examples=["Gomoku §6.1(5)"])
    ],
}
#: fields a client does not send: the session's (the move just made), the book's article
_NOT_SENT = {
    ("no_show", "article"),
    ("leave_seat", "move_number"),
    ("irregular_accepted", "move_number"),
    ("stone_replaced", "move_number"),
    ("stones_restored", "move_number"),
}


def _is_union(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType)


def _enum_in(hint: Any) -> type[enum.Enum] | None:
    """The enum a request's type names (``Color``, ``Question | str``...), else None."""
    for t in (hint, *get_args(hint)) if _is_union(hint) else (hint,):
        if isinstance(t, type) and issubclass(t, enum.Enum):
            return t
    return None


def _api_type(hint: Any) -> Any:
    """The JSON side of a request's type: an enum as its words, a tuple as a list, a flag as a
    JSON boolean, a number never one."""
    if (words := _enum_in(hint)) is not None:
        return Literal[tuple(w.value for w in words)]
    if get_origin(hint) is tuple:
        return list[_api_type(get_args(hint)[0])]  # type: ignore[misc]
    text = Annotated[str, text_field(80), CHECKED]
    # a Literal is its own
    return {bool: StrictBool, int: Int, float: Number, str: text}.get(hint, hint)


def _core_value(hint: Any, value: Any) -> Any:
    """A JSON value as the request's type ``hint`` holds it: a colour or a decision from its
    word (a word the request takes as text stays text), a tuple from a list."""
    if isinstance(value, list):
        return tuple(_core_value(get_args(hint)[0], v) for v in value)
    words = _enum_in(hint)
    if words is None or (_is_union(hint) and str in get_args(hint)):
        return value
    return words(value)


class _Ruling(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answers: Annotated[int, Field(ge=1, le=1000), NO_BOOL] | None = Field(
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
        """The request's fields, typed (colours, decisions, tuples); the coin tossed here when
        no face was given (the server's random source: the core takes the face as data)."""
        data = self.model_dump(exclude={"kind", "action_id", "answers"}, exclude_none=True)
        hints = typing.get_type_hints(self.request)
        out = {key: _core_value(hints[key], value) for key, value in data.items()}
        if self.request is rq.CoinToss and "face" not in out:
            out["face"] = secrets.choice(("heads", "tails"))
        return out

    def to_request(self) -> RulingRequest:
        """The core's typed request (:mod:`duiyi.referee.requests`) for this body."""
        made: RulingRequest = self.request(**self.fields())
        return made


def _model(cls: type[rq.Request]) -> type[_Ruling]:
    """The request shape of the core's request class ``cls``."""
    kind: str = cls.kind.value
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {"kind": (Literal[kind], ...)}
    for f in rq.request_fields(cls):  # in the order of the call, the base's fields last
        if (kind, f.name) in _NOT_SENT:
            continue
        hint = hints[f.name]
        if _is_union(hint):  # X | None: X, None allowed below where the default is None
            hint = Union[tuple(a for a in get_args(hint) if a is not type(None))]  # noqa: UP007
        default = ... if f.default is dataclasses.MISSING else f.default
        default = _DEFAULTS.get((kind, f.name), default)
        typ = _NARROWER.get((kind, f.name)) or _BY_NAME.get(f.name) or _api_type(hint)
        if default is None:
            typ = typ | None
        if isinstance(default, enum.Enum):
            default = default.value
        elif isinstance(default, tuple):
            default = list(default)
        fields[f.name] = (typ, default)
    model: type[_Ruling] = create_model(
        cls.__name__, __base__=_Ruling, __module__=__name__, __doc__=cls.__doc__, **fields
    )
    model.request = cls
    extra = _SCHEMA_EXTRA.get(kind)
    if extra is not None:  # what the core refuses beyond each field's type, in the document
        model.model_config["json_schema_extra"] = extra
        model.model_rebuild(force=True)
    return model


#: the rulings whose fields the core checks together: in the document too, so that a body it
#: allows is never refused as malformed (issue 35)
_SCHEMA_EXTRA: dict[str, dict[str, Any]] = {
    # a time penalty deducts or awards some time (duiyi.referee.penalties)
    "time_penalty": {
        "anyOf": [
            {"required": ["deduct"], "properties": {"deduct": {"exclusiveMinimum": 0}}},
            {"required": ["award"], "properties": {"award": {"exclusiveMinimum": 0}}},
        ]
    },
}


#: each ruling's request shape, by its ``kind``
RULING_MODELS: dict[str, type[_Ruling]] = {c.kind.value: _model(c) for c in rq.REQUESTS}

if TYPE_CHECKING:
    Ruling = _Ruling
else:
    #: the body of ``POST /api/games/{id}/rulings``: one of :data:`RULING_MODELS` by ``kind``
    Ruling = Annotated[Union[tuple(RULING_MODELS.values())], Field(discriminator="kind")]  # noqa: UP007

_ADAPTER: TypeAdapter[Any] = TypeAdapter(Ruling)


def parse_ruling(data: object) -> _Ruling:
    """A typed ruling from JSON (a forwarded one is checked again); InvalidInput if malformed."""
    try:
        ruling: _Ruling = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        errors = exc.errors()
        kind = data.get("kind") if isinstance(data, dict) else None
        if errors and errors[0]["loc"][:1] == (kind,):
            # the union's tag (the ruling's kind) leads the path: the page names the field
            errors = [{**e, "loc": e["loc"][1:]} for e in errors]
        raise schema_error(errors, "malformed ruling") from exc
    return ruling


def ruling_in_game(
    body: dict[str, Any], game: GameType, size: int | None, moves_played: int
) -> dict[str, Any]:
    """A ruling's body read against its game, as the schema cannot: the article one of the
    game's book knows (:meth:`GameType.knows_article`: ``Go §999`` is none), a
    ``move_number`` within the moves played, its points on the board in the book's form
    (``d04`` -> ``D4``; two spellings of one point, ``C3`` and ``c3``, are that point once:
    the schema's distinct items are the strings, the same string twice stays its refusal).
    InvalidInput naming the field otherwise, RefereeError (409) for a move
    number past the moves played or an article the game's book lacks (the game's state or book
    refuses it, the schema allowed it).

    >>> from duiyi.games import GO
    >>> ruling_in_game({"kind": "stones_restored", "points": ["c03"]}, GO, 9, 4)["points"]
    ['C3']
    >>> ruling_in_game({"kind": "stones_restored", "points": ["C3", "c3"]}, GO, 9, 4)["points"]
    ['C3']
    >>> ruling_in_game({"kind": "warning", "article": "Go §999"}, GO, 9, 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.RefereeError: article: 'Go §999' is not an article of the Go rules ...
    >>> ruling_in_game({"kind": "warning", "move_number": 5}, GO, 9, 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.RefereeError: move_number: 5 is past the game's last move (4 played)
    """
    article = body.get("article")
    if body.get("kind") in game.book.refusals:
        return body  # a ruling this game's book does not have: the referee says why (409)
    if isinstance(article, str) and not game.knows_article(article):
        # the form is the schema's (422); an article of the other book is this game's refusal
        raise RefereeError(
            f"article: {article!r} is not an article of the {game.title} rules "
            f"({game.title} §1-§{game.last_article}, written as {game.title} §24.1 or "
            f"{game.title} §12.3(2)B)",
            code="ruling-article-unknown",
            values={"article": article, "last": str(game.last_article)},
        )
    number = body.get("move_number")
    if isinstance(number, int) and number > moves_played:
        # the schema allows any move number 0-10000; the game's moves so far refuse it (409)
        raise RefereeError(
            f"move_number: {number} is past the game's last move ({moves_played} played)",
            code="ruling-move-past",
            values={"move": str(number), "played": str(moves_played)},
        )
    out = dict(body)
    if isinstance(body.get("point"), str):
        out["point"] = normal_point(game, body["point"], "point", size)
    raw = body.get("points")
    if isinstance(raw, list):
        points = [normal_point(game, p, f"points.{i}", size) for i, p in enumerate(raw)]
        distinct = len(set(map(str, raw))) == len(raw)
        out["points"] = list(dict.fromkeys(points)) if distinct else points
    return out


# ---------------------------------------------------------------------------- the forms' table

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
#: flags a form shows unticked whatever the request's default: facts the arbiter establishes
#: by ticking them (issue 32: "对方同意" was ticked before anyone had asked the opponent)
_UNTICKED = frozenset({("dropped_stone", "consent")})


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
            field["default"] = False if (method, name) in _UNTICKED else info.default
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


def ruling_table(game: str | GameType) -> list[dict[str, Any]]:
    """The rulings the arbiter may make in ``game`` (a game or its name; its
    :class:`~duiyi.referee.Book`), each with the fields of its request, the article
    preselected and the articles to choose from (the book's suggestions). Forms are built from
    it (the room, the game page): nothing to type in JSON.

    >>> [r["id"] for r in ruling_table("gomoku")][:3]
    ['violation', 'time_penalty', 'clock_adjustment']
    >>> moved = next(r for r in ruling_table("gomoku") if r["id"] == "moved_stones")
    >>> next(f for f in moved["fields"] if f["name"] == "decision")["choices"]
    ['restore', 'valid', 'draw', 'replay']
    >>> "warning" in [r["id"] for r in ruling_table("go")], "warning" in [r["id"] for r in ruling_table("gomoku")]
    (True, False)
    """
    book = get_game(game).book
    methods = [m for m in _ORDER if m in book.articles]
    methods += sorted(m for m in book.articles if m not in _ORDER and m in RULING_MODELS)
    table: list[dict[str, Any]] = []
    for method in methods:
        model = RULING_MODELS.get(method)
        if model is None:
            continue
        fields = _fields(model, book, method)
        article = book.preselected.get(method, book.articles[method])
        suggested = list(book.suggested.get(method, ()))
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
