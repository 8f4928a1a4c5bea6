"""The schema of an event's system options: every option a system reads, its type and its
bounds, checked when the options are given (a request, ``duiyi event new --option``), so a
wrong one is refused then, naming the option, and never fails the next pairing; and
:class:`EventOptions`, the typed value an event holds, read once from that JSON when the event
is made or loaded and read by attribute afterwards.

>>> o = EventOptions.from_json({"games": 5, "seeds": [1, 2]})
>>> o.games, o.seeds, o.to_json()
(5, (1, 2), {'games': 5, 'seeds': [1, 2]})

>>> check_options({"seeds": [1, 2], "place_matches": [3], "cycles": 2})
>>> check_options({"seeds": {"a": 1}})
Traceback (most recent call last):
...
duiyi.errors.InvalidInput: options.seeds is a list of player numbers (whole numbers from 1), not {'a': 1}
>>> check_options({"place_matches": "x"})
Traceback (most recent call last):
...
duiyi.errors.InvalidInput: options.place_matches is a list of places (whole numbers from 1), not 'x'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from duiyi.errors import DuiyiError, InvalidInput, TournamentError
from duiyi.tournament.placement_rules import PlacementRules

__all__ = [
    "CLIENT_OPTIONS",
    "OPTIONS_SCHEMA",
    "SYSTEM_KEPT",
    "EventOptions",
    "Option",
    "check_options",
]


@dataclass(frozen=True)
class Option:
    """One option: its JSON Schema (what a request may send: the OpenAPI document says it)
    and the check of what the schema cannot say (``meaning``: a tiebreak's name, a rank)."""

    schema: dict[str, Any]
    what: str
    meaning: Callable[[Any], str | None] | None = None

    def check(self, value: Any) -> tuple[str | None, bool]:
        """What the value should be, and whether the fault is of meaning (True) or of form."""
        if not _fits(self.schema, value):
            return self.what, False
        if self.meaning is not None:
            wrong = self.meaning(value)
            if wrong is not None:
                return wrong, True
        return None, False


def _fits(schema: Mapping[str, Any], value: Any) -> bool:
    kind = schema.get("type")
    if kind == "integer":  # JSON Schema: 3.0 is an integer too (the systems read int(value))
        whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        return (
            whole
            and not isinstance(value, bool)
            and schema.get("minimum", value) <= value <= schema.get("maximum", value)
        )
    if kind == "string":
        return (
            isinstance(value, str)
            and len(value) <= schema.get("maxLength", len(value))
            and ("enum" not in schema or value in schema["enum"])
        )
    if kind == "array":
        return (
            isinstance(value, list)
            and len(value) <= schema.get("maxItems", len(value))
            and all(_fits(schema["items"], v) for v in value)
        )
    if kind == "object":
        return isinstance(value, Mapping)
    if kind == "boolean":
        return isinstance(value, bool)
    return False  # pragma: no cover - every option has a type


def _int(low: int, high: int, what: str) -> Option:
    schema = {"type": "integer", "minimum": low, "maximum": high}
    return Option(schema, f"{what} (a whole number {low}-{high})")


def _ints(low: int, what: str, most: int = 4096) -> Option:
    schema = {"type": "array", "maxItems": most, "items": {"type": "integer", "minimum": low}}
    return Option(schema, f"a list of {what} (whole numbers from {low})")


def _one_of(*choices: str) -> Option:
    return Option({"type": "string", "enum": list(choices)}, " or ".join(map(repr, choices)))


_FLAG = Option({"type": "boolean"}, "true or false")  # team, avoid_same_club


def _printable(value: Any) -> str | None:
    return None if str(value).isprintable() else "printable text"


def _date(value: Any) -> str | None:
    """A day as the files write it (YYYY-MM-DD), or "" to clear it.

    >>> _date("2026-12-02"), _date("2.12.2026")
    (None, 'a date YYYY-MM-DD')
    """
    import datetime

    if value == "":
        return None
    try:
        datetime.date.fromisoformat(str(value))
    except ValueError:
        return "a date YYYY-MM-DD"
    return None if len(str(value)) == 10 else "a date YYYY-MM-DD"


def _country(value: Any) -> str | None:
    """A country as the EGD writes it: two capital letters (ISO 3166, ``FR``), or ""."""
    text = str(value)
    return (
        None
        if text == "" or (len(text) == 2 and text.isascii() and text.isupper())
        else ("two capital letters (FR, CN)")
    )


def _tiebreak_names(value: Any) -> str | None:
    from duiyi.tournament.tiebreaks import parse_tiebreak

    for name in value:
        try:
            parse_tiebreak(name)
        except DuiyiError as exc:
            return str(exc)  # what the name is not, with the names known
    return None


def _rank(value: Any) -> str | None:
    from duiyi.tournament.pairing.mcmahon import parse_rank

    try:
        parse_rank(value)
    except (DuiyiError, ValueError):
        return f"a rank such as '1d' or '20k', not {value!r}"
    return None


def _placement(value: Any) -> str | None:
    try:
        PlacementRules.from_json(value)
    except DuiyiError as exc:
        return f"placement rules ({exc})"
    return None


_RANK = Option({"type": "string", "maxLength": 10}, "a rank such as '1d' or '20k'", _rank)


#: The options a director gives, with what each must be (the systems that read them: swiss
#: and mcmahon bar/floor/start_after; round-robin cycles; groups groups/qualifiers/seeds_count/
#: final; knockout seeds/place_matches/colours/lines; match games/first_black; relay draw;
#: teams team/boards; swiss avoid_same_club; every system tiebreaks/variant/placement/
#: knockout_draw/draw_replays/seed).
CLIENT_OPTIONS: dict[str, Option] = {
    "tiebreaks": Option(
        {"type": "array", "maxItems": 20, "items": {"type": "string", "maxLength": 40}},
        "a list of tiebreak names (at most 20)",
        _tiebreak_names,
    ),
    "variant": _one_of("A", "B", "a", "b"),
    "cycles": _int(1, 20, "the number of cycles"),
    "groups": _int(1, 512, "the number of groups"),
    "qualifiers": _int(1, 512, "qualifiers per group"),
    "seeds_count": _int(0, 4096, "the number of seeded players"),
    "final": _one_of("none", "knockout", "round-robin", "", "no", "single-elimination", "rr"),
    "games": _int(1, 99, "games in the match"),
    "first_black": _int(1, 100_000, "the player number who takes Black first"),
    "draw": _one_of("both_out", "replay"),
    "bar": _RANK,
    "floor": _RANK,
    "start_after": _int(0, 99, "the round after which players are eliminated"),
    "seeds": _ints(1, "player numbers"),
    "place_matches": _ints(1, "places"),
    "colours": _one_of("lines", "guess"),
    "knockout_draw": _one_of("replay", "refuse"),
    "draw_replays": _int(0, 20, "replays of a drawn game"),
    "boards": _int(1, 100, "boards per team match"),
    "lines": _one_of("numbers", "lot"),
    "team": _FLAG,
    "avoid_same_club": _FLAG,
    "seed": _int(0, 2**63, "the seed of the lots"),
    "placement": Option({"type": "object"}, "placement rules (an object)", _placement),
    "rules": Option({"type": "string", "maxLength": 40}, "a preset name", _printable),
    "openings": Option({"type": "string", "maxLength": 40}, "an opening rule", _printable),
    # the event's description for the rating files (EGD: PC[country,place], DT[first,last])
    "location": Option({"type": "string", "maxLength": 100}, "a place", _printable),
    "country": Option({"type": "string", "maxLength": 2}, "a country", _country),
    "begin_date": Option({"type": "string", "maxLength": 10}, "a date", _date),
    "end_date": Option({"type": "string", "maxLength": 10}, "a date", _date),
}

#: The JSON Schema of a request's ``options`` (the OpenAPI document of the event routes).
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {name: option.schema for name, option in CLIENT_OPTIONS.items()},
}

#: Options the systems and the file formats write themselves (the draw of the groups, the
#: eliminated players, the qualifiers, what an imported file kept): never given by a request.
SYSTEM_KEPT = frozenset({"group_members", "eliminated", "final_players", "opengotha", "egd"})


def check_options(options: Mapping[str, Any], *, client: bool = False) -> None:
    """Refuse an option whose value is not of the form its system reads (InvalidInput, 422,
    naming it) or whose meaning it cannot read (a tiebreak, a rank: TournamentError, 409);
    with ``client`` (a request), refuse also unknown options and those the systems keep."""
    for key, value in options.items():
        option = CLIENT_OPTIONS.get(key)
        if option is None:
            if client and key in SYSTEM_KEPT:
                raise InvalidInput(
                    f"options.{key} is kept by the system; it cannot be set",
                    code="option-kept",
                    values={"option": key},
                )
            if client:
                known = ", ".join(sorted(CLIENT_OPTIONS))
                raise InvalidInput(
                    f"unknown option {key!r} (the options are {known})",
                    code="option-unknown",
                    values={"option": key},
                )
            continue
        expected, meaning = option.check(value)
        if expected is not None:
            if meaning:  # the form is right, a name or rank in it is not: say which
                raise TournamentError(
                    f"options.{key}: {expected}", code="option-invalid", values={"option": key}
                )
            raise InvalidInput(
                f"options.{key} is {expected}, not {value!r}",
                code="option-form",
                values={"option": key, "value": str(value)},
            )


def _ints_of(key: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(_whole(v) for v in value):
        raise InvalidInput(
            f"options.{key} is a list of player numbers, not {value!r}",
            code="option-form",
            values={"option": key, "value": str(value)},
        )
    return tuple(int(v) for v in value)


def _whole(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _json_map(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(
            f"options.{key} is an object, not {value!r}",
            code="option-form",
            values={"option": key, "value": str(value)},
        )
    return dict(value)


@dataclass(frozen=True)
class EventOptions:
    """An event's options, typed: each field is the value given (in the JSON form's key of
    the same name) or None when it was not given, so the reader says its own default, and
    :meth:`to_json` writes back exactly the keys given. The director's options are those of
    :data:`CLIENT_OPTIONS`; ``group_members``, ``eliminated`` and ``final_players`` are what
    the systems write, ``opengotha`` and ``egd`` what an imported file kept (verbatim), and
    ``extra`` any other key (kept, never read by duiyi).

    >>> o = EventOptions.from_json({"bar": "2d", "eliminated": {"3": [7, 8]}})
    >>> o.bar, o.floor, o.eliminated
    ('2d', None, {3: (7, 8)})
    >>> o.to_json()
    {'bar': '2d', 'eliminated': {'3': [7, 8]}}
    >>> EventOptions.from_json({"cycles": 0})
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: options.cycles is the number of cycles (a whole number 1-20), not 0
    """

    # what the director gives (CLIENT_OPTIONS)
    tiebreaks: tuple[str, ...] | None = None
    variant: str | None = None
    cycles: int | None = None
    groups: int | None = None
    qualifiers: int | None = None
    seeds_count: int | None = None
    final: str | None = None
    games: int | None = None
    first_black: int | None = None
    draw: str | None = None
    bar: str | None = None
    floor: str | None = None
    start_after: int | None = None
    seeds: tuple[int, ...] | None = None
    place_matches: tuple[int, ...] | None = None
    colours: str | None = None
    knockout_draw: str | None = None
    draw_replays: int | None = None
    boards: int | None = None
    lines: str | None = None
    team: bool | None = None
    avoid_same_club: bool | None = None
    seed: int | None = None
    placement: PlacementRules | None = None
    rules: str | None = None
    openings: str | None = None
    # the OpenGotha/EGD file's description of the event (``duiyi event new --option``)
    location: str | None = None
    country: str | None = None
    begin_date: str | None = None
    end_date: str | None = None
    director: str | None = None
    online: Mapping[str, Any] | None = None
    # what the systems and the file formats write (SYSTEM_KEPT)
    group_members: tuple[tuple[int, ...], ...] | None = None
    eliminated: Mapping[int, tuple[int, ...]] | None = None
    final_players: tuple[int, ...] | None = None
    opengotha: Mapping[str, Any] | None = None
    egd: Mapping[str, Any] | None = None
    # any other key, kept verbatim
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, client: bool = False) -> EventOptions:
        """Check ``data`` (see :func:`check_options`) and read it into typed fields."""
        if not isinstance(data, Mapping):
            raise InvalidInput(
                f"options is an object, not {data!r}",
                code="option-form",
                values={"option": "options", "value": str(data)},
            )
        check_options(data, client=client)
        known = _FIELDS
        typed: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known or value is None:
                extra[key] = value
                continue
            read = _READ.get(key)
            if read is not None:
                typed[key] = read(key, value)
            elif key in CLIENT_OPTIONS:
                typed[key] = _client_value(CLIENT_OPTIONS[key], value)
            elif key == "online" and isinstance(value, Mapping):
                typed[key] = dict(value)
            elif key != "online" and isinstance(value, str):  # the event's description
                typed[key] = value
            else:
                extra[key] = value
        return cls(**typed, extra=extra)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the keys given, each as it was given (numbers as numbers, lists as
        lists).

        >>> EventOptions(cycles=2, group_members=((1, 4), (2, 3))).to_json()
        {'cycles': 2, 'group_members': [[1, 4], [2, 3]]}
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "extra" or value is None:
                continue
            out[f.name] = _json_value(f.name, value)
        out.update(self.extra)
        return out

    def updated(self, **changes: Any) -> EventOptions:
        """These options with ``changes`` (typed values, as the fields hold them).

        >>> EventOptions(groups=2).updated(final_players=(1, 2)).to_json()
        {'groups': 2, 'final_players': [1, 2]}
        """
        return replace(self, **changes)


def _client_value(option: Option, value: Any) -> Any:
    kind = option.schema["type"]
    if kind == "integer":
        return int(value)
    if kind == "array":
        return tuple(int(v) if _whole(v) else v for v in value)
    if kind == "object":
        return dict(value)
    return value


def _group_members(key: str, value: Any) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list | tuple):
        raise InvalidInput(
            f"options.{key} is a list of groups, not {value!r}",
            code="option-form",
            values={"option": key, "value": str(value)},
        )
    return tuple(_ints_of(key, g) for g in value)


def _eliminated(key: str, value: Any) -> Mapping[int, tuple[int, ...]]:
    table = _json_map(key, value)
    try:
        return {int(after): _ints_of(key, dropped) for after, dropped in table.items()}
    except ValueError:
        raise InvalidInput(
            f"options.{key} maps rounds to players, not {value!r}",
            code="option-form",
            values={"option": key, "value": str(value)},
        ) from None


_READ: dict[str, Callable[[str, Any], Any]] = {
    "group_members": _group_members,
    "eliminated": _eliminated,
    "final_players": _ints_of,
    "placement": lambda _key, value: PlacementRules.from_json(value),
    "opengotha": _json_map,
    "egd": _json_map,
}

_FIELDS = frozenset(f.name for f in fields(EventOptions)) - {"extra"}


def _json_value(name: str, value: Any) -> Any:
    if name == "eliminated":
        return {str(after): list(dropped) for after, dropped in value.items()}
    if name == "group_members":
        return [list(g) for g in value]
    if isinstance(value, PlacementRules):
        return value.to_json()
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value
