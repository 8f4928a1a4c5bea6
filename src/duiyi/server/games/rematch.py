"""A rematch between two people (issue 21): after a casual game ends, either player offers a
new game with the colours swapped and the same settings; the opponent accepts from its page.

The offer lives in the game's stored configuration (``config["rematch"]``: who offered, who
declined, the rematch's id once made), written under the row's lock, so any process sees it.
The rematch's id is fixed by the game's (:func:`rematch_id`): the store's key on game ids
makes one rematch per game, whichever process is asked and after any restart. The players
keep their links: the new game seats each player's token at the other colour, so no new secret
travels (the socket only says where the rematch is; a spectator learns nothing it could not
watch anyway). An event's game has no rematch: its pairings decide the next game.
"""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Callable
from typing import Any

from duiyi import Color
from duiyi.store.repository import Conflict, Repository, StoredGame

__all__ = [
    "check_casual",
    "decline",
    "made",
    "offer",
    "rematch_id",
    "rematch_spec",
    "swapped_names",
]


def rematch_id(game_id: str) -> str:
    """The id of a game's rematch, fixed by the game's id: the store's key on game ids lets a
    game have one rematch, whichever process is asked and after any restart.

    >>> rematch_id("8hYgLz9KO03A") == rematch_id("8hYgLz9KO03A") != rematch_id("x")
    True
    """
    digest = hashlib.sha256(b"duiyi-rematch:" + game_id.encode()).digest()[:9]
    return base64.urlsafe_b64encode(digest).decode().replace("-", "x").replace("_", "y")


def rematch_spec(config: dict[str, Any]) -> dict[str, Any]:
    """The request of a game with the settings of the stored game ``config`` (the session's
    opening log: game, rules, size, handicap, clock, options): ``new_session`` of it starts
    the same game again.

    >>> from duiyi.server.games.spec import new_session
    >>> tc = {"system": "moves-per-period", "base": 60, "moves": 5, "period": 30}
    >>> first = new_session({"game": "go", "size": 13, "rules": "japanese", "handicap": 2,
    ...                      "time_control": tc, "start": "first_move", "takebacks": True})
    >>> again = new_session({**rematch_spec(first.to_json()), "takebacks": True})
    >>> again.to_json() == first.to_json()
    True
    """
    game = config["game"]
    spec: dict[str, Any] = {"game": game["kind"], "rules": game["rules"]}
    start: dict[str, Any] = next(
        (a for a in game.get("actions", []) if a.get("type") == "start"), {}
    )
    for key in ("size", "handicap"):  # the board the game was set up on (Go)
        if key in start:
            spec[key] = start[key]
    clock = config["clock"]
    if clock["system"].get("system") != "none":
        spec["time_control"] = clock["system"]
    lateness = clock.get("lateness") or {}
    if lateness.get("factor"):  # the game's lateness rule (Go §22, Gomoku §8.5)
        spec["lateness"] = {} if lateness.get("limit") is None else {"limit": lateness["limit"]}
    options = config.get("options") or {}
    spec["overtime_pass"] = bool(options.get("overtime_pass", False))
    if "overrun_grace" in options:
        spec["overrun_grace"] = options["overrun_grace"]
    spec["start"] = options.get("start_rule", "scheduled")
    if config.get("hints") is not None:
        spec["hints"] = config["hints"]
    return spec


def swapped_names(config: dict[str, Any]) -> dict[str, str]:
    """The names of a game's seats with the colours swapped (each player keeps its name).

    >>> swapped_names({"names": {"black": "Ke Jie", "white": "Gu Li"}})
    {'white': 'Ke Jie', 'black': 'Gu Li'}
    """
    names = config.get("names") or {}
    return {Color(seat).opponent.value: str(name) for seat, name in names.items() if name}


def check_casual(record: StoredGame) -> None:
    """Refuse (409) a rematch of an event's game or of a game still going on."""
    if record.event_id is not None:
        raise Conflict("an event's game has no rematch: the event's pairings decide the next game")


async def _change(
    repo: Repository, game_id: str, step: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    """Replace the game's rematch state by ``step(state)`` under the row's lock; answers it."""
    state: dict[str, Any] = {}

    def change(config: dict[str, Any]) -> None:
        now = step(dict(config.get("rematch") or {}))
        config["rematch"] = now
        state.update(now)

    await repo.update_config(game_id, change)
    return state


async def offer(repo: Repository, game_id: str, seat: Color) -> dict[str, Any]:
    """``seat`` offers a rematch, or accepts the opponent's offer: answers the game's rematch
    state (``offered_by``, ``accepted`` when both want it, ``game`` once it is made)."""

    def step(now: dict[str, Any]) -> dict[str, Any]:
        if not now.get("game"):
            if now.get("offered_by") == seat.opponent.value:
                now["accepted"] = True  # both want it: the caller makes the game
            elif not now.get("accepted"):
                now = {"offered_by": seat.value, "at": time.time()}
        return now

    return await _change(repo, game_id, step)


async def decline(repo: Repository, game_id: str, seat: Color) -> dict[str, Any]:
    """``seat`` withdraws its offer or declines the opponent's (nothing once it is made)."""

    def step(now: dict[str, Any]) -> dict[str, Any]:
        if now.get("game") or now.get("accepted"):
            raise Conflict(f"the rematch is agreed already: game {rematch_id(game_id)}")
        if not now.get("offered_by"):
            raise Conflict("no rematch is offered in this game")  # the game is there: 409
        return {} if now["offered_by"] == seat.value else {"declined_by": seat.value}

    return await _change(repo, game_id, step)


async def made(repo: Repository, game_id: str, new_id: str) -> dict[str, Any]:
    """Note the rematch ``new_id`` in the game's configuration; answers its rematch state."""
    return await _change(repo, game_id, lambda now: {**now, "accepted": True, "game": new_id})
