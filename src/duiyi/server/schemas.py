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

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

__all__ = [
    "NO_BOOL",
    "GameSpec",
    "Int",
    "Lateness",
    "Name",
    "Number",
    "TimeControl",
    "check_text",
]


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


def check_text(value: str) -> str:
    """Refuse control characters (a name is printed in tables, CSV files and SGF records).

    >>> check_text("Wu Qingyuan")
    'Wu Qingyuan'
    >>> check_text("a\\tb")
    Traceback (most recent call last):
    ...
    ValueError: control characters are not allowed (found U+0009)
    """
    for ch in value:
        if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029":
            raise ValueError(f"control characters are not allowed (found U+{ord(ch):04X})")
    return value


# A person's or a club's name: printable, bounded (JSON Schema: no C0/C1 control characters).
_PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$"
Name = Annotated[
    str, Field(min_length=1, max_length=100, pattern=_PRINTABLE), AfterValidator(check_text)
]
Club = Annotated[str, Field(max_length=100, pattern=_PRINTABLE), AfterValidator(check_text)]
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
    name: Annotated[str, Field(max_length=40, pattern=_PRINTABLE)] | None = None
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
        """The plain JSON ``duiyi.server.games.new_session`` reads."""
        out: dict[str, Any] = self.model_dump(mode="json", exclude_none=True)
        if isinstance(self.rules, BaseModel):
            out["rules"] = self.rules.model_dump(mode="json", exclude_none=True)
        return out
