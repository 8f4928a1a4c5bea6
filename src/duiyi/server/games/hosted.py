"""A game as the routes see it, hosted by this process (:class:`~duiyi.server.games.host.GameHost`)
or by another (:class:`~duiyi.server.games.remote.RemoteGame`): what both answer, who holds which
seat, and the session rebuilt from the store.

>>> from duiyi.store.repository import StoredGame
>>> seat_of(StoredGame.__new__(StoredGame), None) is None
True
"""

from __future__ import annotations

from typing import Any, Protocol

from duiyi import BLACK, WHITE, Color
from duiyi.actions import Action
from duiyi.errors import DuiyiError
from duiyi.server.auth import hash_token
from duiyi.server.games.action_ids import ACTION_ID
from duiyi.server.games.broadcast import Listener
from duiyi.session import Session
from duiyi.store.repository import Conflict, NotFound, StoredAction, StoredGame

__all__ = [
    "CLOSED",
    "MOVED",
    "GameClosed",
    "Hosted",
    "is_arbiter_of",
    "rebuild_session",
    "replay",
    "seat_of",
]

MOVED = "this game is now served by another process; retry (sockets: reconnect)"

# Why a host stops serving its game when a commit failed and the store could not be read after.
UNLOADED = (
    "the store did not take the last action and cannot be read now: nothing was changed; "
    "retry shortly (the game is read from the store again)"
)

# The fan-out message that closes an event game everywhere.
CLOSED = "closed-by-director"


class GameClosed(Conflict):
    """An action on an event game the director closed by entering its result (409)."""


class Hosted(Protocol):
    """What the routes need from a game, hosted here or in another process."""

    id: str
    listeners: set[Listener]
    record: StoredGame

    @property
    def version(self) -> int: ...

    def view(self) -> dict[str, Any]: ...

    async def read(
        self, since: int | None = None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]: ...

    def seat_for(self, token: str | None) -> Color | None: ...

    def is_arbiter(self, token: str | None) -> bool: ...

    async def rule(self, ruling: dict[str, Any], action_id: str | None = None) -> int: ...

    async def entries(self, version: int) -> list[dict[str, Any]]: ...

    async def act(
        self, seat: Color | None, action: Action, action_id: str | None = None
    ) -> int: ...

    async def current_session(self) -> Session: ...


def is_arbiter_of(record: StoredGame, token: str | None) -> bool:
    """True for the game's (or its event's) arbiter key."""
    if not token or record.arbiter_token_hash is None:
        return False
    return hash_token(token) == record.arbiter_token_hash


def seat_of(record: StoredGame, token: str | None) -> Color | None:
    """The seat a player token stands for, or None."""
    if not token:
        return None
    h = hash_token(token)
    if h == record.black_token_hash:
        return BLACK
    if h == record.white_token_hash:
        return WHITE
    return None


def rebuild_session(record: StoredGame, stored: list[StoredAction]) -> Session:
    """The session of a stored game: its settings and its log (NotFound if it cannot be
    replayed). The client's action ids stay in the store's table, never in the session."""
    return replay(record, [{k: v for k, v in a.entry.items() if k != ACTION_ID} for a in stored])


def replay(record: StoredGame, entries: list[dict[str, Any]]) -> Session:
    """The session of ``record``'s settings after the log ``entries`` (as stored, without
    action ids): NotFound if they cannot be replayed.

    >>> from duiyi.server.games.spec import new_session
    >>> record = StoredGame.__new__(StoredGame)
    >>> object.__setattr__(record, "config", new_session({"game": "go", "size": 9}, 0.0).to_json())
    >>> move = {"v": 1, "type": "move", "at": 1.0, "player": "black", "point": "E5"}
    >>> replay(record, [move]).to_move().value
    'white'
    """
    try:
        return Session.from_log({**record.config, "actions": entries})
    except DuiyiError as exc:
        raise NotFound(f"game {getattr(record, 'id', '?')} cannot be restored: {exc}") from exc
