"""The schema of an event's system options: every option a system reads, its type and its
bounds, checked when the options are given (a request, ``duiyi event new --option``), so a
wrong one is refused then, naming the option, and never fails the next pairing.

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
from typing import Any

from duiyi.errors import DuiyiError, InvalidInput

__all__ = ["CLIENT_OPTIONS", "SYSTEM_KEPT", "check_options"]


def _int(low: int, high: int, what: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return None
        return f"{what} (a whole number {low}-{high})"

    return check


def _ints(low: int, what: str, most: int = 4096) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if (
            isinstance(value, list)
            and len(value) <= most
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= low for v in value)
        ):
            return None
        return f"a list of {what} (whole numbers from {low})"

    return check


def _one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and value.strip().lower() in choices:
            return None
        return " or ".join(repr(c) for c in choices)

    return check


def _flag(value: Any) -> str | None:
    """A yes/no option (``team``, ``avoid_same_club``)."""
    return None if isinstance(value, bool) else "true or false"


def _text(most: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and len(value) <= most and value.isprintable():
            return None
        return f"printable text of at most {most} characters"

    return check


def _tiebreaks(value: Any) -> str | None:
    from duiyi.tournament.tiebreaks import parse_tiebreak

    if not isinstance(value, list) or len(value) > 20:
        return "a list of tiebreak names (at most 20)"
    for name in value:
        if not isinstance(name, str):
            return "a list of tiebreak names"
        try:
            parse_tiebreak(name)
        except DuiyiError as exc:
            return f"a list of tiebreak names ({exc})"
    return None


def _rank(value: Any) -> str | None:
    from duiyi.tournament.pairing.mcmahon import parse_rank

    try:
        if isinstance(value, str) and len(value) <= 10:
            parse_rank(value)
            return None
    except (DuiyiError, ValueError):
        pass
    return "a rank such as '1d' or '20k'"


def _placement(value: Any) -> str | None:
    from duiyi.tournament.placement import PlacementRules

    if not isinstance(value, Mapping):
        return "placement rules (an object)"
    try:
        PlacementRules.from_json(value)
    except DuiyiError as exc:
        return f"placement rules ({exc})"
    return None


#: The options a director gives, with what each must be (the systems that read them: swiss
#: and mcmahon bar/floor/start_after; round-robin cycles; groups groups/qualifiers/seeds_count/
#: final; knockout seeds/place_matches/colours/lines; match games/first_black; relay draw; teams
#: team/boards; swiss avoid_same_club; every system tiebreaks/variant/placement/knockout_draw/draw_replays/seed).
CLIENT_OPTIONS: dict[str, Callable[[Any], str | None]] = {
    "tiebreaks": _tiebreaks,
    "variant": _one_of("a", "b"),
    "cycles": _int(1, 20, "the number of cycles"),
    "groups": _int(1, 512, "the number of groups"),
    "qualifiers": _int(1, 512, "qualifiers per group"),
    "seeds_count": _int(0, 4096, "the number of seeded players"),
    "final": _one_of("", "none", "no", "knockout", "single-elimination", "round-robin", "rr"),
    "games": _int(1, 99, "games in the match"),
    "first_black": _int(1, 100_000, "the player number who takes Black first"),
    "draw": _one_of("both_out", "replay"),
    "bar": _rank,
    "floor": _rank,
    "start_after": _int(0, 99, "the round after which players are eliminated"),
    "seeds": _ints(1, "player numbers"),
    "place_matches": _ints(1, "places"),
    "colours": _one_of("lines", "guess"),
    "knockout_draw": _one_of("replay", "refuse"),
    "draw_replays": _int(0, 20, "replays of a drawn game"),
    "boards": _int(1, 100, "boards per team match"),
    "lines": _one_of("numbers", "lot"),
    "team": _flag,
    "avoid_same_club": _flag,
    "seed": _int(0, 2**63, "the seed of the lots"),
    "placement": _placement,
    "rules": _text(40),
    "openings": _text(40),
}

#: Options the systems and the file formats write themselves (the draw of the groups, the
#: eliminated players, the qualifiers, what an imported file kept): never given by a request.
SYSTEM_KEPT = frozenset({"group_members", "eliminated", "final_players", "opengotha", "egd"})


def check_options(options: Mapping[str, Any], *, client: bool = False) -> None:
    """Refuse an option whose value is not what its system reads (InvalidInput naming it);
    with ``client`` (a request), refuse also unknown options and those the systems keep."""
    for key, value in options.items():
        check = CLIENT_OPTIONS.get(key)
        if check is None:
            if client and key in SYSTEM_KEPT:
                raise InvalidInput(f"options.{key} is kept by the system; it cannot be set")
            if client:
                known = ", ".join(sorted(CLIENT_OPTIONS))
                raise InvalidInput(f"unknown option {key!r} (the options are {known})")
            continue
        expected = check(value)
        if expected is not None:
            raise InvalidInput(f"options.{key} is {expected}, not {value!r}")
