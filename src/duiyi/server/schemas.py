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

from duiyi.actions import Action, Move, action_from_json
from duiyi.errors import InvalidInput
from duiyi.games import GameType

__all__ = [
    "CHECKED",
    "NO_BOOL",
    "PRINTABLE",
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
    "text_field",
]

MAX_ACTION_ID = 64


def parse_action(body: object) -> tuple[Action, str | None]:
    """The typed action of a player's or the arbiter's request body (HTTP or socket), read
    once here, and the client's ``action_id`` (idempotency) if it sent one. The seat and the
    time are the server's, never the body's.

    >>> parse_action({"type": "move", "move": "D4", "action_id": "a1"})
    (Move(point='D4'), 'a1')
    >>> parse_action({"type": "at"})
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: unknown action type 'at'
    """
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise InvalidInput("an action is an object with a 'type' such as 'move' or 'pass'")
    action_id = body.get("action_id")
    if action_id is not None and (
        not isinstance(action_id, str) or not 1 <= len(action_id) <= MAX_ACTION_ID
    ):
        raise InvalidInput(f"action_id is a string of 1-{MAX_ACTION_ID} characters")
    return action_from_json(body), action_id


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
        raise type(exc)(f"{field}: {exc.message}", exc.article) from exc


def normal_action(action: Action, game: GameType) -> Action:
    """``action`` with its point in the book's form (:func:`normal_point`), so that the log
    stores one form; any other action, and a move whose point is not in the book's form, is
    returned itself (the rules refuse it, with their article and board).

    >>> from duiyi.games import GO
    >>> normal_action(Move("q06"), GO)
    Move(point='Q6')
    """
    if isinstance(action, Move):
        try:
            return dataclasses.replace(action, point=normal_point(game, action.point))
        except InvalidInput:
            return action
    return action


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
    ValueError: a control character is not allowed (found U+0009 at position 2)
    >>> check_text("Li\\u202eiL")
    Traceback (most recent call last):
    ...
    ValueError: a bidirectional override is not allowed (found U+202E RIGHT-TO-LEFT OVERRIDE at position 3)
    """
    for i, ch in enumerate(value):
        code = ord(ch)
        for low, high, what in _REFUSED_RANGES:
            if low <= code <= high:
                import unicodedata

                name = unicodedata.name(ch, "")
                label = f"U+{code:04X} {name}" if name else f"U+{code:04X}"
                raise ValueError(f"{what} is not allowed (found {label} at position {i + 1})")
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
    ValueError: ... names an engine of GET /api/engines ...
    """
    value = extra.get("engine")
    if value is not None and not re.match(ENGINE_NAME_OR_EMPTY, value.strip()):
        raise ValueError(
            "the engine column names an engine of GET /api/engines ('NAME' or 'NAME:LEVEL'), "
            "never a command"
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
