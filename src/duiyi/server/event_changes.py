"""One change to a stored event, shared by the event routes (events, players, rounds, results,
standings, the desk, knockout settlements, prints): load, authorise the organiser, apply a pure
operation, store with its version, close the online games the change decides, retried on a
concurrent write; and the small readers they share (the event's head, its online settings, a
text body).

The routers import this module; it imports none of them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from fastapi import Request

from duiyi.errors import InvalidInput
from duiyi.server.auth import Forbidden, Unauthorized, bearer_token, verify
from duiyi.server.game_manager import GameManager
from duiyi.server.parsed_events import parsed_event, remember_event
from duiyi.server.problems import Unavailable
from duiyi.store.repository import Conflict, EventRecord, Repository
from duiyi.tournament.model import Event

__all__ = [
    "change_event",
    "check_organiser",
    "check_organiser_first",
    "event_summary",
    "games_of",
    "online_of",
    "repo_of",
    "text_body",
]


def repo_of(request: Request) -> Repository:
    """The server's store."""
    repo: Repository = request.app.state.duiyi.repo
    return repo


def games_of(request: Request) -> GameManager:
    """The server's games (this process's hosts and proxies)."""
    games: GameManager = request.app.state.duiyi.games
    return games


def event_summary(record: EventRecord) -> dict[str, Any]:
    """An event's head: id, name, game, system, rounds, players, current round, version."""
    e = parsed_event(record)
    return {
        "id": record.id,
        "name": e.name,
        "game": e.game.name,
        "system": e.system,
        "rounds": e.rounds,
        "players": len(e.players),
        "current_round": e.current_round,
        "version": record.version,
    }


def online_of(record: EventRecord) -> dict[str, Any]:
    """The event's settings of its online games (size, rules, handicap, time control)."""
    online: dict[str, Any] = record.data.get("online", {})
    return online


def text_body(raw: bytes, what: str) -> str:
    """A text body (UTF-8, with or without a byte order mark), or a 422 naming ``what``.

    >>> text_body("\ufeffround,board,result".encode(), "the results sheet")
    'round,board,result'
    """
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{what} is not UTF-8 text: {exc}") from exc


def check_organiser(request: Request, record: EventRecord) -> None:
    """The request carries the event's organiser key: Unauthorized (none) or Forbidden."""
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("send the organiser key as 'Authorization: Bearer <key>'")
    if not verify(token, record.organiser_token_hash):
        raise Forbidden("only the organiser of this event may change it")


async def check_organiser_first(request: Request, event_id: str) -> None:
    """The event exists and the organiser key is right, checked before a body is read or
    parsed (the routers' :class:`~duiyi.server.keyfirst.KeyFirstRoute` does it for every
    change; this is for a route that reads its body by hand)."""
    check_organiser(request, await repo_of(request).event(event_id))


async def change_event(
    request: Request,
    event_id: str,
    change: dict[str, Any],
    apply: Callable[[Event, dict[str, Any]], tuple[Event, Any]],
    closing: Callable[[Any, int], dict[tuple[int, int], str]] | None = None,
) -> tuple[EventRecord, Any]:
    """Load, authorise, apply one pure operation, store; retried on a concurrent write.

    ``apply`` gets the event and the document's other parts (``online`` game settings,
    ``explanations`` of each round's pairing), which it may change in place. ``closing``
    (given ``apply``'s answer and the new version) names the boards ``(round, board)`` whose
    online games the change closes, with the reason: they are closed in the same transaction
    (a director's entry is final in the store), and the hosts are told afterwards; the ids
    are in ``request.state.closed_games``. At most ``max_event_writes`` changes run at once
    in a process (the rest wait up to 10 s, then 503): event writes never take every
    database connection."""
    state = request.app.state.duiyi
    try:
        await asyncio.wait_for(state.event_writes.acquire(), timeout=10.0)
    except TimeoutError:
        raise Unavailable("too many event changes at once; try again in a few seconds") from None
    try:
        return await _change_once(request, event_id, change, apply, closing)
    finally:
        state.event_writes.release()


async def _change_once(
    request: Request,
    event_id: str,
    change: dict[str, Any],
    apply: Callable[[Event, dict[str, Any]], tuple[Event, Any]],
    closing: Callable[[Any, int], dict[tuple[int, int], str]] | None,
) -> tuple[EventRecord, Any]:
    repo = repo_of(request)
    for _attempt in range(5):
        record = await repo.event(event_id)
        check_organiser(request, record)
        meta = {k: v for k, v in record.data.items() if k != "event"}
        event, answer = apply(parsed_event(record), meta)
        data = {**meta, "event": event.to_json()}
        wall = time.time()
        close: dict[str, str] = {}
        if closing is not None:
            reasons = closing(answer, record.version + 1)
            if reasons:
                for g in await repo.games_of_event(event_id):
                    reason = reasons.get((g.round or 0, g.board or 0))
                    if reason is not None and g.closed is None:
                        close[g.id] = reason
        try:
            version = await repo.save_event(
                event_id, record.version, data, change, wall, close=close
            )
        except Conflict:
            continue
        # what was stored, without reading it back (a large event's document is megabytes)
        stored = dataclasses.replace(record, data=data, version=version, updated_at=wall)
        remember_event(stored, event)
        request.state.closed_games = list(close)
        for game_id, reason in close.items():  # stored: now the hosts (best effort)
            await games_of(request).close_event_game(game_id, reason, stored=True)
        return stored, (answer, version)
    raise Conflict("the event keeps changing under this request; try again")
