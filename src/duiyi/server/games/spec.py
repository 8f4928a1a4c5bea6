"""A game request made into a session: ``{"game": "go"|"gomoku", "size", "rules", "handicap",
"time_control", "overtime_pass", "lateness", "start"}`` -> :class:`~duiyi.session.Session`.

>>> new_session({"game": "go", "size": 9}).game.kind
'go'
"""

from __future__ import annotations

from typing import Any

from duiyi import BLACK, WHITE
from duiyi.clock import Clock, Lateness, NoTime, TimeSystem, system_from_json
from duiyi.errors import InvalidInput
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.server.problems import RefusedByRules
from duiyi.session import OVERRUN_GRACE, Session

__all__ = ["new_session", "refused_by_rules"]


def refused_by_rules(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` when a session can be built from it; else RefusedByRules (the request already
    passed the schema, so what is left is the rules' own refusal)."""
    try:
        new_session(spec)
    except InvalidInput as exc:
        raise RefusedByRules(str(exc), exc.article) from exc
    return spec


def new_session(spec: dict[str, Any], now: float = 0.0) -> Session:
    """A session for a game request: ``{"game": "go"|"gomoku", "size", "rules",
    "handicap", "time_control": {"system": ...}, "overtime_pass": bool, "lateness": {...}}``.

    ``start`` says when the clock starts (issue 21, ``duiyi.session.START_RULES``): a casual
    game's default ``seated`` waits until both players have opened their seats (connected, or
    acted); ``first_move`` starts it with the first move; ``scheduled`` (an event's game, and
    any game with ``lateness``) starts it at once, and with ``lateness`` both players start
    absent and the lateness rules of the book apply until they arrive (Go §22, Gomoku §8.5).

    >>> tc = {"system": "absolute", "base": 600}
    >>> new_session({"game": "go", "size": 9, "time_control": tc}).clock_start_json()["start_rule"]
    'seated'
    """
    kind = get_game(spec.get("game", "go"))  # UnknownGame (InvalidInput) for another name
    game = kind.adapter(kind.new_game(spec))
    referee = kind.referee()
    tc = spec.get("time_control")
    system: TimeSystem
    if tc is None:
        system = NoTime()
    elif isinstance(tc, dict):
        system = system_from_json(tc)
    else:
        raise InvalidInput("time_control is an object such as {'system': 'absolute', 'base': 600}")
    lateness_spec = spec.get("lateness")
    start = spec.get("start")
    if start is None:  # without a clock nothing waits for the players
        start = "seated" if lateness_spec is None and system.name != "none" else "scheduled"
    if lateness_spec is not None and start != "scheduled":
        raise InvalidInput(
            f"lateness rules go with a scheduled start (Go §22, Gomoku §8.5), not start={start!r}"
        )
    if lateness_spec is None:
        clock = Clock(system, to_move=BLACK, now=now)
    else:
        clock = Clock(
            system,
            to_move=BLACK,
            now=now,
            lateness=_lateness(kind, lateness_spec),
            absent=(BLACK, WHITE),
        )
    grace = spec.get("overrun_grace")
    return Session(
        game,
        clock,
        referee,
        overtime_pass=bool(spec.get("overtime_pass", False)),
        overrun_grace=OVERRUN_GRACE if grace is None else float(grace),  # Go §22.5
        start_rule=str(start),
        takebacks=bool(spec.get("takebacks", False)),
    )


def _lateness(kind: GameType, spec: object) -> Lateness:
    """Both players start absent and arrive when they connect (or send ``arrive``); late time
    is charged as the book says (Go §22.1-2: twice, lost past 1 h or 15 min at the lodging;
    Gomoku §8.5: once, lost past the event's limit)."""
    if not isinstance(spec, dict):
        raise InvalidInput("lateness is an object such as {'limit': 900} or {'same_site': true}")
    limit = spec.get("limit")
    if limit is not None and (not isinstance(limit, (int, float)) or limit <= 0):
        raise InvalidInput(f"lateness limit must be a positive number of seconds, got {limit!r}")
    return kind.lateness(
        limit=None if limit is None else float(limit), same_site=bool(spec.get("same_site", False))
    )
