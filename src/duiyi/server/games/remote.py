"""A game hosted by another process (:class:`RemoteGame`): reads come from the store and from
the owner's broadcasts, actions are forwarded to the owner through Redis."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol

from duiyi import Color
from duiyi.actions import SESSION_ACTIONS, Action
from duiyi.codec import action_to_json
from duiyi.errors import InvalidInput
from duiyi.server.games.action_ids import ACTION_ID, RULING
from duiyi.server.games.broadcast import RECONNECT, Listener, broadcast
from duiyi.server.games.hosted import is_arbiter_of, rebuild_session, seat_of
from duiyi.server.games.rulings import parse_ruling
from duiyi.server.games.view import event_link, game_view, public_entry
from duiyi.server.problems import Unavailable
from duiyi.session import Session
from duiyi.store.repository import Repository, StoredGame

__all__ = ["Forward", "Forwarding", "RemoteGame", "stored_state"]

# (owner process, game id, seat, action type, data) -> the version the owner answers
Forward = Callable[[str, str, Color | None, str, dict[str, Any]], Any]


def stored_state(
    record: StoredGame, session: Session, timeline: float | None = None
) -> dict[str, Any]:
    """The public state of a game as the store holds it (``session``: its stored log
    replayed), its clock where the game's timeline stands now by its stored anchor (or at
    ``timeline``: stopped where a dead holder's successor will resume it); a game the director
    closed with its clocks stopped (as its host shows it)."""
    if record.closed is not None:
        state = game_view(record.id, session, len(session.log), session.now)
        state["closed"] = record.closed
        state["clock_running"] = None
    else:
        if timeline is None:
            timeline = record.anchor_timeline + (time.time() - record.anchor_wall)
        state = game_view(record.id, session, len(session.log), max(timeline, session.now))
    state["event"] = event_link(record)
    return state


class Forwarding(Protocol):
    """What a remote game needs from the manager that holds it
    (:class:`duiyi.server.games.manager.GameManager`)."""

    @property
    def repo(self) -> Repository: ...

    @property
    def forward(self) -> Forward | None: ...


class RemoteGame:
    """A game hosted by another process: reads come from the store and from the owner's
    broadcasts, actions are forwarded to the owner through Redis."""

    def __init__(self, manager: Forwarding, record: StoredGame, state: dict[str, Any]) -> None:
        self.manager = manager
        self.id = record.id
        self.record = record
        self.state = state
        self.listeners: set[Listener] = set()
        self._refreshing = asyncio.Lock()

    @property
    def version(self) -> int:
        """The last version this process heard of."""
        return int(self.state["version"])

    def view(self) -> dict[str, Any]:
        """The owner's last published state."""
        return self.state

    def seat_for(self, token: str | None) -> Color | None:
        """The seat a player token stands for, or None."""
        return seat_of(self.record, token)

    def is_arbiter(self, token: str | None) -> bool:
        """True for the game's (or its event's) arbiter key."""
        return is_arbiter_of(self.record, token)

    async def rule(self, ruling: dict[str, Any], action_id: str | None = None) -> int:
        """Forward a ruling to the owning process (checked here first, and there again)."""
        parse_ruling(ruling)
        data: dict[str, Any] = {"ruling": ruling}
        if action_id is not None:
            data[ACTION_ID] = action_id
        return await self._forward(None, RULING, data)

    async def entries(self, version: int) -> list[dict[str, Any]]:
        """The public log entries after ``version``, from the store."""
        if version < 0:
            raise InvalidInput(f"version must be 0 or more, got {version}")
        stored = await self.manager.repo.actions(self.id, after=version)
        return [public_entry(a.entry) for a in stored]

    async def read(self, since: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The stored entries after ``since`` (none when None) and the state, caught up with
        the store first (the owner's messages may have been lost: a Redis restart), so a
        process asked directly never answers from a copy older than the store. The entries
        end at the state's version: what the owner committed after the state was read comes
        as its updates (a socket's hello never says a version behind its moves)."""
        await self.refresh()
        state = self.state
        if since is None:
            return [], state
        entries = await self.entries(since)
        return entries[: max(0, int(state["version"]) - since)], state

    async def act(self, seat: Color | None, action: Action, action_id: str | None = None) -> int:
        """Forward the action to the owning process (as its JSON form, read there again) and
        wait for its answer."""
        data = action_to_json(action, SESSION_ACTIONS)
        if action_id is not None:
            data[ACTION_ID] = action_id
        return await self._forward(seat, "act", data)

    async def _forward(self, seat: Color | None, kind: str, data: dict[str, Any]) -> int:
        owner = self.record.owner
        if owner is None or self.manager.forward is None:
            raise Unavailable("this game's host process cannot be reached")
        version = await self.manager.forward(owner, self.id, seat, kind, data)
        return int(version)

    async def current_session(self) -> Session:
        """The session rebuilt from the store (for downloads)."""
        return rebuild_session(self.record, await self.manager.repo.actions(self.id))

    def reconnect(self) -> None:
        """The owner is gone: tell the sockets to reconnect (the game loads elsewhere)."""
        broadcast(self.listeners, RECONNECT)
        self.listeners.clear()

    async def refresh(self) -> None:
        """Catch up with the store: the entries committed since the last state this process
        heard of reach its sockets as one update (a game just listened to through Redis)."""
        async with self._refreshing:
            await self._refresh()

    async def _refresh(self) -> None:
        record = await self.manager.repo.game(self.id)
        if record.version <= self.version:
            return
        stored = await self.manager.repo.actions(self.id)
        if record.version <= self.version:  # an update arrived meanwhile
            return
        state = stored_state(record, rebuild_session(record, stored))
        actions = [public_entry(a.entry) for a in stored[self.version :]]
        self.record = record
        self.state = state
        update = {"type": "update", "version": state["version"], "actions": actions}
        broadcast(self.listeners, {**update, "game_id": self.id, "state": state})

    def deliver(self, message: dict[str, Any]) -> None:
        """A broadcast from the owner (an update this process already passed on, from the
        store, is not sent twice)."""
        version = message.get("version")
        if message.get("type") == "update" and isinstance(version, int) and version <= self.version:
            return
        state = message.get("state")
        if isinstance(state, dict):
            self.state = state
        broadcast(self.listeners, message)
