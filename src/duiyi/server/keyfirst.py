"""Keys before bodies: on every route that changes an event or a game, the event or game is
found and the key is checked before the request body is read or parsed, so a stranger's body
(a 60 KB nested array, a CSV the reader cannot split) is never parsed: 404, 401 or 403 first.

The routers use :class:`KeyFirstRoute` as their ``route_class``; the route itself then makes
the finer check (an organiser key for an event; a seat or the arbiter for a game).

>>> needs_key("POST", "/api/events/{event_id}/players"), needs_key("GET", "/api/events/{event_id}")
('event', None)
>>> needs_key("POST", "/api/games/{game_id}/actions"), needs_key("POST", "/api/games")
('game', None)
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from duiyi.server.auth import Forbidden, Unauthorized, bearer_token, verify
from duiyi.server.games.hosted import is_arbiter_of, seat_of

__all__ = ["KeyFirstRoute", "check_key", "needs_key"]

_CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def needs_key(method: str, path: str) -> str | None:
    """``"event"`` or ``"game"`` when a ``method`` request to the route ``path`` (its template)
    needs that object's key before its body is read; None for reads and creations."""
    if method not in _CHANGES:
        return None
    if "{event_id}" in path:
        return "event"
    if "{game_id}" in path:
        return "game"
    return None


async def check_key(request: Request, kind: str) -> None:
    """The event (organiser key) or game (a seat's or the arbiter's key) of the request's path
    exists and the key sent belongs to it: NotFound, Unauthorized (no key) or Forbidden (a key
    that is not this event's organiser key, or none of this game's) otherwise."""
    state = request.app.state.duiyi
    token = bearer_token(request)
    if kind == "event":
        stored = await state.repo.event_organiser_hash(request.path_params["event_id"])
        if token is None:
            raise Unauthorized("send the organiser key as 'Authorization: Bearer <key>'")
        if not verify(token, stored):
            raise Forbidden("only the organiser of this event may change it")
        return
    # the game's row only (its keys): a check loads, replays or claims no game
    record = await state.games.record(request.path_params["game_id"])
    if token is None:
        raise Unauthorized("send your player or arbiter key as 'Authorization: Bearer <key>'")
    if seat_of(record, token) is None and not is_arbiter_of(record, token):
        # a key sent that is none of this game's (another game's arbiter, a guess): 403 like
        # an event's (docs/decisions.md: 401 only when no key came); a key of the game
        # without the right (a player sending a ruling) is the route's own 403
        raise Forbidden("this key is not a player's or the arbiter's key of this game")


class KeyFirstRoute(APIRoute):
    """An API route whose key is checked (:func:`check_key`) before its body is read."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        kinds = {needs_key(m, self.path_format) for m in self.methods or ()}
        kinds.discard(None)
        if not kinds:
            return handler

        async def keyed(request: Request) -> Response:
            kind = needs_key(request.method, self.path_format)
            if kind is not None:
                try:
                    await check_key(request, kind)
                except Exception:
                    from duiyi.server.problems import literal_methods

                    literal = literal_methods(request.app, request)
                    if not literal or request.method in literal:
                        raise
                    # a path another route owns (PATCH .../players/draw): its 405 comes from
                    # the route's own validation
            return await handler(request)

        return keyed
