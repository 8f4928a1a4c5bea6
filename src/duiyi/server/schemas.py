"""Request schemas shared by the routes: what the OpenAPI document promises is what the server
accepts (a JSON ``false`` is not a number, ``{}`` is not a time system, a name has no control
characters).

>>> GameSpec.model_validate({"game": "go", "time_control": {"system": "absolute", "base": 60}}).time_control.system
'absolute'
>>> GameSpec.model_validate({"handicap": False})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for GameSpec
...
"""

from __future__ import annotations

import dataclasses
import re
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from duiyi.actions import SESSION_ACTIONS, Action
from duiyi.codec import action_from_json
from duiyi.errors import InvalidInput
from duiyi.games import GameType

__all__ = [
    "CHECKED",
    "NO_BOOL",
    "PRINTABLE",
    "SCHEMA_CODES",
    "Club",
    "GameSpec",
    "Int",
    "Lateness",
    "Name",
    "Note",
    "Number",
    "Numbered",
    "TimeControl",
    "check_text",
    "normal_action",
    "normal_point",
    "parse_action",
    "schema_error",
    "schema_refusal",
    "text_field",
]

MAX_ACTION_ID = 64


def parse_action(body: object) -> tuple[Action, str | None]:
    """The typed action of a player's or the arbiter's request body (HTTP or socket), read
    once here, and the client's ``action_id`` (idempotency) if it sent one. The seat and the
    time are the server's, never the body's.

    >>> parse_action({"type": "move", "move": "D4", "action_id": "a1"})
    (Move(point='D4', color=None), 'a1')
    >>> parse_action({"type": "at"})
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: unknown session action type 'at'
    """
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise InvalidInput(
            "an action is an object with a 'type' such as 'move' or 'pass'",
            code="field-missing",
            values={"field": "type"},
        )
    _documented(body)
    action_id = body.get("action_id")
    if action_id is not None and (
        not isinstance(action_id, str) or not 1 <= len(action_id) <= MAX_ACTION_ID
    ):
        raise InvalidInput(
            f"action_id is a string of 1-{MAX_ACTION_ID} characters",
            code="field-text-long",
            values={"field": "action_id", "max_length": str(MAX_ACTION_ID)},
        )
    return action_from_json(body, SESSION_ACTIONS), action_id


def _documented(body: dict[str, Any]) -> None:
    """Refuse (422, naming the field) a body the OpenAPI document's schema of the action
    refuses (``action_schemas.ActionBody``), a sealed move's included: what the document
    allows and what is read are one. A move may name its point ``move`` (the older name)."""
    from pydantic import TypeAdapter, ValidationError

    from duiyi.server.games.action_schemas import ACTION_MODELS, ActionBody

    if body["type"] not in ACTION_MODELS:
        return  # action_from_json names the unknown type
    seen = _with_point(body)
    global _ACTION_ADAPTER
    if _ACTION_ADAPTER is None:
        _ACTION_ADAPTER = TypeAdapter(ActionBody)
    try:
        _ACTION_ADAPTER.validate_python(seen)
    except ValidationError as exc:
        errors = exc.errors()
        wrong = "; ".join(_said(e) for e in errors[:5])
        # the union's tag (the action's type) leads each path: the page names the field
        code, values = schema_refusal({**errors[0], "loc": errors[0]["loc"][1:]})
        raise InvalidInput(f"action {body['type']!r}: {wrong}", code=code, values=values) from None


_ACTION_ADAPTER: Any = None


def _said(error: Any) -> str:
    """One schema error of an action, naming its field (a point's in the books' words)."""
    where = ".".join(str(x) for x in error["loc"][1:]) or "body"
    if error["type"] == "string_pattern_mismatch":
        return (
            f"{where}: {error['input']!r} is no point as the books write it: an ASCII column "
            "letter and row number such as 'D4' (Go) or 'h8' (Gomoku)"
        )
    return f"{where}: {error['msg']}"


#: A request-schema refusal by pydantic's error type: the code the pages say it with (issue
#: 32: a Chinese page says it in Chinese) and the context values it names, besides the field.
SCHEMA_CODES: dict[str, tuple[str, tuple[str, ...]]] = {
    "missing": ("field-missing", ()),
    "int_parsing": ("field-whole-number", ()),
    "int_type": ("field-whole-number", ()),
    "int_from_float": ("field-whole-number", ()),
    "float_parsing": ("field-number", ()),
    "float_type": ("field-number", ()),
    "finite_number": ("field-number", ()),
    "greater_than_equal": ("field-at-least", ("ge",)),
    "greater_than": ("field-above", ("gt",)),
    "less_than_equal": ("field-at-most", ("le",)),
    "less_than": ("field-below", ("lt",)),
    "string_too_short": ("field-text-short", ("min_length",)),
    "string_too_long": ("field-text-long", ("max_length",)),
    "too_short": ("field-list-short", ("min_length",)),
    "too_long": ("field-list-long", ("max_length",)),
    "string_type": ("field-text", ()),
    "bool_type": ("field-bool", ()),
    "bool_parsing": ("field-bool", ()),
    "literal_error": ("field-one-of", ("expected",)),
    "enum": ("field-one-of", ("expected",)),
    "union_tag_invalid": ("field-one-of", ("expected_tags",)),
    "extra_forbidden": ("field-unknown", ()),
    "string_pattern_mismatch": ("field-pattern", ()),
    "list_type": ("field-kind", ()),
    "tuple_type": ("field-kind", ()),
    "dict_type": ("field-kind", ()),
    "model_type": ("field-kind", ()),
    "model_attributes_type": ("field-kind", ()),
    "json_invalid": ("json-invalid", ()),
}
#: what a schema error of another type is (its English message stays the detail)
SCHEMA_OTHER = "field-invalid"


def schema_refusal(error: Any, prefix: tuple[Any, ...] = ()) -> tuple[str, dict[str, str]]:
    """The code and values of one request-schema error (pydantic's ``errors()`` item) for a
    page that says it in its language: ``field`` is the field's path without the request's
    part (``body``, ``query``), a list's items counted from 0 (``0.rating``: the first
    player's rating); a refusal a validator raised with its own code keeps it.

    >>> schema_refusal({"type": "less_than_equal", "loc": ("body", 0, "rating"),
    ...                 "msg": "...", "ctx": {"le": 10000}})
    ('field-at-most', {'field': '0.rating', 'le': '10000'})
    >>> schema_refusal({"type": "missing", "loc": ("name",), "msg": "Field required"}, (2,))
    ('field-missing', {'field': '2.name'})
    """
    loc = tuple(error.get("loc", ()))
    if loc and loc[0] in ("body", "query", "path"):
        loc = loc[1:]
    field = ".".join(str(p) for p in (*prefix, *loc))
    ctx = error.get("ctx") or {}
    own = ctx.get("error")
    if isinstance(own, InvalidInput) and own.code:
        return own.code, {"field": field, **own.values}
    code, keys = SCHEMA_CODES.get(error.get("type", ""), (SCHEMA_OTHER, ()))
    values = {"field": field}
    for key in keys:
        value = ctx.get(key)
        values["expected" if key == "expected_tags" else key] = "" if value is None else str(value)
    return code, values


def schema_error(errors: list[Any], what: str, prefix: tuple[Any, ...] = ()) -> InvalidInput:
    """The refusal of a body that fails its schema: the English detail names every error
    (``where: what``), the code and values the first (the one a page says).

    >>> e = schema_error([{"type": "missing", "loc": ("kind",), "msg": "Field required"}],
    ...                  "malformed ruling")
    >>> str(e), e.code, e.values
    ('malformed ruling: kind: Field required', 'field-missing', {'field': 'kind'})
    """
    detail = "; ".join(
        f"{'.'.join(str(p) for p in (*prefix, *e.get('loc', ())))}: {e.get('msg')}" for e in errors
    )
    code, values = schema_refusal(errors[0], prefix) if errors else (SCHEMA_OTHER, {"field": ""})
    return InvalidInput(f"{what}: {detail}", code=code, values=values)


def _with_point(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with a move's ``move`` read as its ``point`` (a sealed move's too)."""
    out = dict(body)
    if out.get("type") == "move" and "point" not in out and "move" in out:
        out["point"] = out["move"]
    if isinstance(out.get("sealed"), dict):
        out["sealed"] = _with_point(out["sealed"])
    return out


def normal_point(game: GameType, text: str, field: str = "point", size: int | None = None) -> str:
    """A point as the book writes it ("D4" in Go, "h8" in Gomoku) however it was typed
    ("d4", "D04", "H8"): what is stored and shown is the one form. InvalidInput naming
    ``field`` when ``text`` is no point of a board of ``size`` (None: of the game's largest
    board; ASCII only, Go §1, Gomoku §1).

    >>> from duiyi.games import GO, GOMOKU
    >>> normal_point(GO, "d04"), normal_point(GOMOKU, "H8")
    ('D4', 'h8')
    >>> normal_point(GO, "K9", "points.0", size=9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidPoint: points.0: ...
    """
    try:
        return str(game.parse_point(text, size or max(game.sizes)))
    except InvalidInput as exc:
        raise type(exc)(
            f"{field}: {exc.message}",
            exc.article,
            code="field-point",
            values={"field": field, "point": text, "size": str(size or max(game.sizes))},
        ) from exc


def normal_action(action: Action, game: GameType) -> Action:
    """``action`` with its point in the book's form (:func:`normal_point`), so that the log
    stores one form; any other action, and a move whose point is not in the book's form, is
    returned itself (the rules refuse it, with their article and board).

    >>> from duiyi.actions import Move
    >>> from duiyi.games import GO
    >>> normal_action(Move("q06"), GO)
    Move(point='Q6', color=None)
    """
    try:
        normal: Action = _normal(action, game)
    except InvalidInput:
        return action
    return normal


def _normal(action: Any, game: GameType) -> Any:
    """Every point of ``action`` (a sealed move's too) in the book's form; InvalidInput for
    one that is no point of the game's largest board."""
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return action
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.name == "point" and isinstance(value, str):
            changes[f.name] = normal_point(game, value)
        elif f.name in ("points", "moves", "dead") and isinstance(value, tuple):
            changes[f.name] = tuple(normal_point(game, p) for p in value)
        elif f.name == "sealed" and dataclasses.is_dataclass(value):
            changes[f.name] = _normal(value, game)
    return dataclasses.replace(action, **changes) if changes else action


def _no_bool(value: object) -> object:
    if isinstance(value, bool):
        raise ValueError("a number is expected, not true/false")
    return value


# Numbers as JSON Schema means them: 3 and 3.0 are integers, true is not a number. (Bounds
# go before the validator, so that the OpenAPI document carries them.)
NO_BOOL = BeforeValidator(_no_bool)
Int = Annotated[int, NO_BOOL]
Number = Annotated[float, Field(allow_inf_nan=False), NO_BOOL]
Seconds = Annotated[float, Field(ge=0, le=86_400 * 7), NO_BOOL]
Positive = Annotated[float, Field(gt=0, le=86_400 * 7), NO_BOOL]
# A round's, a board's, a player's or a call's number in a path: bounded, so that no number
# past what any event holds reaches the store (a 64-bit column) as a 500
Numbered = Annotated[int, Path(ge=0, le=1_000_000)]


# Characters a name or a note may not hold: C0/C1 controls and line separators (ESC, NUL,
# newlines), bidirectional overrides and isolates (U+202E turns "gpj.exe" around) and
# invisible zero-width characters (two names that look the same but differ).
_REFUSED_RANGES = (
    (0x00, 0x1F, "a control character"),
    (0x7F, 0x9F, "a control character"),
    (0x2028, 0x2029, "a line separator"),
    (0x202A, 0x202E, "a bidirectional override"),
    (0x2066, 0x2069, "a bidirectional isolate"),
    (0x200E, 0x200F, "a bidirectional mark"),
    (0x061C, 0x061C, "a bidirectional mark"),
    (0x200B, 0x200D, "a zero-width character"),
    (0x2060, 0x2060, "a zero-width character"),
    (0xFEFF, 0xFEFF, "a zero-width character"),
    (0x180E, 0x180E, "a zero-width character"),  # the Mongolian vowel separator (no width)
    (0x034F, 0x034F, "an invisible joiner"),  # the combining grapheme joiner
    (0x2061, 0x2064, "an invisible operator"),
)
# the code of each refused kind (the pages say it in their language, issue 32)
_REFUSED_CODES = {
    "a control character": "text-control",
    "a line separator": "text-line-separator",
    "a bidirectional override": "text-bidi",
    "a bidirectional isolate": "text-bidi",
    "a bidirectional mark": "text-bidi",
    "a zero-width character": "text-zero-width",
    "an invisible joiner": "text-invisible",
    "an invisible operator": "text-invisible",
}
# the same set as a JSON Schema pattern (the OpenAPI document promises what is checked)
PRINTABLE = (
    r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b-\u200f"
    r"\u061c\u2060-\u2064\ufeff\u180e\u034f]*$"
)


def check_text(value: str) -> str:
    """Refuse what a name or a note may not hold (it is printed in tables, CSV files, SGF
    records and terminals): control characters, bidirectional overrides, zero-width
    characters; the message names the character.

    >>> check_text("Wu Qingyuan 吴清源")
    'Wu Qingyuan 吴清源'
    >>> check_text("a\\tb")
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: a control character is not allowed (found U+0009 at position 2)
    >>> try:
    ...     check_text("Li\\u202eiL")
    ... except ValueError as exc:  # InvalidInput is one: pydantic names the field
    ...     print(exc, exc.code, exc.values)
    a bidirectional override is not allowed (found U+202E RIGHT-TO-LEFT OVERRIDE at position 3) text-bidi {'char': 'U+202E', 'position': '3'}
    """
    for i, ch in enumerate(value):
        code = ord(ch)
        for low, high, what in _REFUSED_RANGES:
            if low <= code <= high:
                import unicodedata

                name = unicodedata.name(ch, "")
                label = f"U+{code:04X} {name}" if name else f"U+{code:04X}"
                raise InvalidInput(
                    f"{what} is not allowed (found {label} at position {i + 1})",
                    code=_REFUSED_CODES[what],
                    values={"char": f"U+{code:04X}", "position": str(i + 1)},
                )
    return value


def text_field(max_length: int, min_length: int = 0, **extra: Any) -> Any:
    """The bounds of a name or free text (``Annotated[str, text_field(...), CHECKED]``): the
    pattern is documented in the OpenAPI document, :data:`CHECKED` names a refused character.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(Annotated[str, text_field(10, 1), CHECKED]).validate_python("Li")
    'Li'
    """
    return Field(
        min_length=min_length,
        max_length=max_length,
        json_schema_extra={"pattern": PRINTABLE},
        **extra,
    )


CHECKED = AfterValidator(check_text)
# A person's or a club's name: printable, bounded.
Name = Annotated[str, text_field(100, 1), CHECKED]
Club = Annotated[str, text_field(100), CHECKED]
# A note (a ruling's note...): longer free text, printable like a name.
Note = Annotated[str, text_field(500), CHECKED]
# An engine player's engine (docs/server.md, "Engines"): the name of an entry of the
# operator's list, 'NAME' or 'NAME:LEVEL', never a command; empty: a person.
ENGINE_NAME_OR_EMPTY = r"^$|^[A-Za-z0-9][A-Za-z0-9._-]{0,39}(:[0-9]{1,3})?$"
EngineName = Annotated[str, Field(max_length=44, pattern=ENGINE_NAME_OR_EMPTY)]


def check_extra_engine(extra: dict[str, str]) -> dict[str, str]:
    """A player's ``extra`` columns: an ``engine`` column names an engine, never a command.

    >>> check_extra_engine({"engine": "gnugo:3", "club": "x"})["engine"]
    'gnugo:3'
    >>> check_extra_engine({"engine": "/bin/sh -c id"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: ... names an engine of GET /api/engines ...
    """
    value = extra.get("engine")
    if value is not None and not re.match(ENGINE_NAME_OR_EMPTY, value.strip()):
        raise InvalidInput(
            "the engine column names an engine of GET /api/engines ('NAME' or 'NAME:LEVEL'), "
            "never a command",
            code="engine-column",
        )
    return extra


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoTimeSpec(_Strict):
    """No clock."""

    system: Literal["none"]


class AbsoluteSpec(_Strict):
    """Sudden death: ``base`` seconds each."""

    system: Literal["absolute", "shared"]
    base: Positive


class FischerSpec(_Strict):
    """Fischer: ``base`` plus ``increment`` per move (``cap`` at least the base)."""

    system: Literal["fischer"]
    base: Positive
    increment: Seconds
    cap: Positive | None = None


class ChineseByoyomiSpec(_Strict):
    """Chinese byo-yomi (Go §12.3): ``base`` then ``reserved_minutes`` one-minute periods."""

    system: Literal["chinese-byoyomi"]
    base: Seconds
    reserved_minutes: Annotated[int, Field(ge=1, le=60), NO_BOOL]


class JapaneseByoyomiSpec(_Strict):
    """Japanese byo-yomi: ``base`` then ``periods`` periods of ``period`` seconds."""

    system: Literal["japanese-byoyomi"]
    base: Seconds
    periods: Annotated[int, Field(ge=1, le=60), NO_BOOL]
    period: Positive


class MovesPerPeriodSpec(_Strict):
    """Canadian overtime: ``base`` then ``moves`` moves in every ``period``."""

    system: Literal["moves-per-period"]
    base: Positive
    moves: Annotated[int, Field(ge=1, le=1000), NO_BOOL]
    period: Positive
    base_moves: Annotated[int, Field(ge=1, le=1000), NO_BOOL] | None = None


class StageSpec(_Strict):
    """One stage: ``seconds`` for ``moves`` moves (None: the rest of the game)."""

    seconds: Positive
    moves: Annotated[int, Field(ge=1, le=1000), NO_BOOL] | None = None


class MultiPeriodSpec(_Strict):
    """Several stages (Gomoku §8.2)."""

    system: Literal["multi-period"]
    limits: Annotated[list[StageSpec], Field(min_length=1, max_length=10)]
    carry_over: StrictBool = True


TimeControl = Annotated[
    NoTimeSpec
    | AbsoluteSpec
    | FischerSpec
    | ChineseByoyomiSpec
    | JapaneseByoyomiSpec
    | MovesPerPeriodSpec
    | MultiPeriodSpec,
    Field(discriminator="system"),
]


class Lateness(_Strict):
    """Players start absent and arrive by connecting: ``limit`` in seconds (default Go §22.1
    1 h, Gomoku §8.5 15 min), ``same_site`` (Go §22.2, 15 min)."""

    limit: Positive | None = None
    same_site: StrictBool = False


def _fraction(value: object) -> object:
    if isinstance(value, str):
        import fractions

        try:
            fractions.Fraction(value)
        except (ValueError, ZeroDivisionError) as exc:
            raise ValueError(f"not a number or fraction: {value!r}") from exc
    return value


FractionText = Annotated[
    str, Field(pattern=r"^-?[0-9]{1,4}(/[1-9][0-9]{0,3})?$", examples=["15/4", "7"])
]
Komi = Annotated[
    FractionText | Annotated[float, Field(ge=-1000, le=1000), NO_BOOL], AfterValidator(_fraction)
]


class GoRules(_Strict):
    """A Go rules object (``duiyi.go.Rules.to_json``); missing keys take the Chinese value."""

    v: Literal[1] = 1
    name: Annotated[str, text_field(40), CHECKED] | None = None
    scoring: Literal["area_stones", "area_points", "territory"] | None = None
    komi: Komi | None = None
    ko_rule: Literal["simple", "positional", "situational"] | None = None
    repetition_outcome: Literal["no_result", "draw", "replay"] | None = None
    allow_suicide: StrictBool | None = None
    handicap_komi: Komi | None = None
    handicap_return: Komi | None = None
    fixed_handicap: StrictBool | None = None
    seki_points: StrictBool | None = None
    handicap_return_offset: Komi | None = None
    single_stone_suicide: StrictBool | None = None


class RenjuRules(_Strict):
    """A Gomoku rules object (``duiyi.gomoku.RenjuRules.to_json``)."""

    v: Literal[1] = 1
    opening: Literal["designated", "free"] | None = None
    fouls: StrictBool | None = None
    swap: StrictBool | None = None
    fifth_dab: StrictBool | None = None
    dab_symmetry: Literal["stones", "board"] | None = None
    foul_policy: Literal["auto", "claim"] | None = None
    max_fifth_n: Annotated[int, Field(ge=1, le=50), NO_BOOL] | None = None
    draw_offer_lead: Annotated[int, Field(ge=0, le=100), NO_BOOL] | None = None


Preset = Literal[
    "chinese", "japanese", "korean", "ing", "aga", "chinese_2013", "renju", "free", "free_renju"
]


class GameSpec(_Strict):
    """A game to create (also the settings of an event's online games). A preset of the
    other game (``free`` for Go) or a combination the books forbid (a komi that is not a
    multiple of 1/4 stone, Go §11) is refused by the rules: 409."""

    game: Literal["go", "gomoku"] = "go"
    size: Annotated[
        int, Field(ge=5, le=25, description="Go board size (Gomoku is always 15)"), NO_BOOL
    ] = 19
    rules: Preset | GoRules | RenjuRules | None = Field(
        None, description="a preset name (default chinese / chinese_2013) or a rules object"
    )
    handicap: Annotated[int, Field(ge=0, le=9), NO_BOOL] = 0
    time_control: TimeControl | None = Field(
        None,
        description="a clock system: {'system': 'chinese-byoyomi', 'base': 3600, "
        "'reserved_minutes': 5}, {'system': 'absolute', 'base': 600}, ...",
    )
    overtime_pass: StrictBool = False
    overrun_grace: (
        Annotated[
            float,
            Field(
                ge=0,
                le=600,
                description="seconds after an overrun of the last byo-yomi minute during which "
                "the player may still ask to count it as a pass (Go §22.5); default 10, 0: lost "
                "at once",
            ),
            NO_BOOL,
        ]
        | None
    ) = None
    lateness: Lateness | None = None
    start: Literal["seated", "first_move", "scheduled"] | None = Field(
        None,
        description="when the clock starts: 'seated' (default: when both players have opened "
        "their seats), 'first_move' (with the first move, which costs nothing) or 'scheduled' "
        "(at once; the only choice with lateness, Go §22, Gomoku §8.5); an event's games are "
        "always scheduled",
    )

    def spec(self) -> dict[str, Any]:
        """The plain JSON ``duiyi.server.games.spec.new_session`` reads."""
        out: dict[str, Any] = self.model_dump(mode="json", exclude_none=True)
        if isinstance(self.rules, BaseModel):
            out["rules"] = self.rules.model_dump(mode="json", exclude_none=True)
        return out
