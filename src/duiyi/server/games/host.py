"""One live game in this process: its session, lock, timer and subscribers
(:class:`GameHost`). Every accepted action is committed before it is acknowledged; an event
game's result sheet goes to its event through the outbox, in the same transaction.

The server's monotonic clock is the authority. Each game has a *timeline*: the seconds the
server was up for it since it was created. ``timeline = time.monotonic() + offset`` while a
process hosts it; after a restart the game resumes at the timeline of the last heartbeat of the
process that hosted it, so time during an outage is charged to nobody (docs/server.md).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from duiyi import Color
from duiyi.actions import SESSION_ACTIONS, Action
from duiyi.codec import action_to_json
from duiyi.errors import DuiyiError, InvalidInput
from duiyi.server.committer import GroupCommitter
from duiyi.server.games.action_ids import (
    ActionIdReused,
    ActionRefused,
    action_keys,
    check_action_id,
)
from duiyi.server.games.broadcast import RECONNECT, Listener, broadcast
from duiyi.server.games.hosted import (
    CLOSED,
    MOVED,
    UNLOADED,
    GameClosed,
    is_arbiter_of,
    rebuild_session,
    replay,
    seat_of,
)
from duiyi.server.games.rulings import parse_ruling
from duiyi.server.games.view import event_link, game_view, public_entry
from duiyi.server.problems import Unavailable, report_failure, store_outage
from duiyi.session import Session
from duiyi.store.repository import ActionIdTaken, Append, Conflict, Repository, StoredGame

__all__ = ["GameHost", "Hosting"]

log = logging.getLogger("duiyi.server")


class Hosting(Protocol):
    """What a host needs from the manager that holds it
    (:class:`duiyi.server.games.manager.GameManager`)."""

    @property
    def repo(self) -> Repository: ...

    @property
    def process_id(self) -> str: ...

    @property
    def committer(self) -> GroupCommitter: ...

    @property
    def latencies(self) -> collections.deque[float]: ...

    @property
    def forward(self) -> object | None: ...

    @property
    def on_report(self) -> Callable[[], None] | None: ...

    def fan_out(self, message: dict[str, Any], /) -> None: ...

    def abandon(self, host: GameHost, reason: str = ...) -> None: ...

    def lapse(self, now: float, /) -> float: ...

    async def confirm(self, host: GameHost, /) -> None: ...


class GameHost:
    """One live game in this process."""

    def __init__(
        self,
        manager: Hosting,
        record: StoredGame,
        session: Session,
        offset: float,
        action_ids: dict[str, int] | None = None,
    ) -> None:
        self.manager = manager
        self.id = record.id
        # committed action id -> the version its action reached (idempotent retries, Redis
        # forwards); the store's game_action_ids is the truth
        self.action_ids: dict[str, int] = dict(action_ids or {})
        self.record = record
        self.session = session
        self.offset = offset
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self._wake = asyncio.Event()
        self._timer: asyncio.Task[None] | None = None
        # event games: the director's entry that closed the game, and the last result sheet
        # written to the result outbox (restored games reported theirs when they committed it)
        self.closed: str | None = record.closed
        # why this process no longer serves the game (None while it does): another process
        # took it over (MOVED: fenced out, nothing more commits here), or its memory may
        # differ from the store (UNLOADED: a commit and the reload after it failed)
        self.abandoned: str | None = None
        self._sheet: dict[str, Any] | None = _event_sheet(record, session)
        self.last_active = time.monotonic()
        # when the store last said this process owns the game (loaded, claimed, confirmed
        # after a lapse of this process's heartbeat: GameManager._confirm)
        self.checked_at = self.last_active

    @property
    def version(self) -> int:
        """Number of entries in the log (every accepted action has one)."""
        return len(self.session.log)

    def now(self) -> float:
        """This game's timeline now (never before the last logged action)."""
        return max(time.monotonic() + self.offset, self.session.now)

    def view(self) -> dict[str, Any]:
        """The public state now."""
        if self.closed is None:
            view = game_view(self.id, self.session, self.version, self.now())
        else:  # the director entered the board's result: the clocks stopped with the game
            view = game_view(self.id, self.session, self.version, self.session.now)
            view["closed"] = self.closed
            view["clock_running"] = None
        view["event"] = event_link(self.record)
        return view

    async def current_session(self) -> Session:
        """The live session, once no commit is under way (taken under the game's lock, as
        :meth:`read`: an action not yet stored is never seen)."""
        await self._still_mine()
        async with self.lock:
            if self.abandoned:
                raise Unavailable(self.abandoned)
            return self.session

    async def entries(self, version: int) -> list[dict[str, Any]]:
        """The public log entries after ``version``."""
        return (await self.read(version))[0]

    async def read(self, since: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The committed entries after ``since`` (none when None) and the state, read together.

        Taken under the game's lock, so a reader never sees an action whose commit is still
        under way (it could yet be lost, and was not acknowledged)."""
        await self._still_mine()
        async with self.lock:
            if self.abandoned:  # the store has the truth now, not this memory
                raise Unavailable(self.abandoned)
            entries: list[dict[str, Any]] = []
            if since is not None:
                if since < 0:
                    raise InvalidInput(f"version must be 0-{self.version}, got {since}")
                if since > self.version:  # a version the game has not reached (yet): 409
                    raise Conflict(f"version must be 0-{self.version}, got {since}")
                entries = [public_entry(a.to_json()) for a in self.session.log[since:]]
            return entries, self.view()

    async def _still_mine(self) -> None:
        """After a lapse of this process's heartbeat (paused, cut off from the store) the game
        is read from memory again only once the store says this process still owns it; if
        another took it over, this host is abandoned (its readers get 503 and go to the
        owner) even when the message saying so never came (GameManager.confirm)."""
        if self.checked_at < self.manager.lapse(time.monotonic()):
            await self.manager.confirm(self)

    def seat_for(self, token: str | None) -> Color | None:
        """The seat a player token stands for, or None."""
        return seat_of(self.record, token)

    def is_arbiter(self, token: str | None) -> bool:
        """True for the game's (or its event's) arbiter key."""
        return is_arbiter_of(self.record, token)

    async def rule(
        self, ruling: dict[str, Any], action_id: str | None = None, attempt: str | None = None
    ) -> int:
        """An arbiter's typed ruling (``duiyi.server.games.rulings``) through ``duiyi.referee``
        (Go §17-24, Gomoku §12), stored before it is acknowledged (``action_id`` and
        ``attempt``: as for :meth:`act`)."""
        request = parse_ruling(ruling).to_request()

        def change(now: float) -> None:
            try:
                self.session.rule(request, now)
            except (TypeError, ValueError) as exc:
                raise InvalidInput(f"ruling {request.kind.value!r}: {exc}") from exc

        action_id = check_action_id(action_id)
        keys = (
            None if action_id is None else (action_id, *action_keys("arbiter", action_id, ruling))
        )
        return await self._change(change, keys, attempt)

    async def act(
        self,
        seat: Color | None,
        action: Action,
        action_id: str | None = None,
        attempt: str | None = None,
    ) -> int:
        """Apply one typed action of ``seat`` (already authorised) and commit it before
        returning the version.

        With an ``action_id`` the action is applied at most once: an id already
        committed answers its version. ``attempt`` names a forwarded delivery: if the process
        that forwarded it gave up waiting and wrote the attempt's tombstone first, the commit
        fails and nothing is applied (ActionRefused); if the commit was first, that process
        answers its version. The database decides which came first
        (``Repository.refuse_action``)."""
        started = time.perf_counter()
        action_id = check_action_id(action_id)
        keys = None
        if action_id is not None:
            sender = "none" if seat is None else seat.value
            keys = (
                action_id,
                *action_keys(sender, action_id, action_to_json(action, SESSION_ACTIONS)),
            )
        try:
            return await self._change(
                lambda now: self.session.apply(action, now, seat),
                keys,
                attempt,
            )
        finally:
            self.manager.latencies.append(time.perf_counter() - started)

    async def _change(
        self,
        change: Callable[[float], object],
        keys: tuple[str, str, str] | None = None,
        attempt: str | None = None,
    ) -> int:
        """Run ``change(now)`` on the session under the game's lock and commit what it logged.

        ``keys``: the client's action id, its key scoped to the sender and its key with the
        body (:func:`action_keys`). Whatever the session settled first (a flag that fell) is
        stored even if the change itself is refused; a refused change leaves nothing else
        behind."""
        async with self.lock:
            if self.closed is not None:
                raise GameClosed(self.closed)
            if self.abandoned:
                raise Unavailable(self.abandoned)
            if keys is not None:
                client_id, id_key, body_key = keys
                if body_key in self.action_ids:
                    return self.action_ids[body_key]  # a retry: applied once, answered again
                if id_key in self.action_ids:
                    raise ActionIdReused(client_id)
            before = self.version
            error: DuiyiError | None = None
            try:
                change(self.now())
            except DuiyiError as exc:
                error = exc
            try:
                if error is None:
                    await self._commit(before, keys, attempt)
                else:
                    await self._commit(before)
            except ActionIdTaken as taken:  # the store had the id first: nothing was written
                if taken.version is None:
                    raise ActionRefused(taken.action_id) from taken
                if keys is not None and taken.action_id == keys[1]:
                    raise ActionIdReused(keys[0]) from taken  # the id, not with this body
                self.action_ids[taken.action_id] = taken.version
                return taken.version
            if error is not None:
                raise error
            if keys is not None and self.version > before:
                self.action_ids[keys[1]] = self.action_ids[keys[2]] = self.version
            return self.version

    async def _commit(
        self, before: int, keys: tuple[str, str, str] | None = None, attempt: str | None = None
    ) -> None:
        new = self.session.log[before:]
        if not new:
            return
        entries = [a.to_json() for a in new]
        outcome = self.session.outcome()
        sheet = _event_sheet(self.record, self.session)
        item = Append(
            self.id,
            before,
            entries,
            time.time(),
            status="finished" if outcome is not None else None,
            outcome=outcome.to_json() if outcome is not None else None,
            report=_event_report(self.record, sheet) if sheet != self._sheet else None,
            owner=self.manager.process_id,  # fencing: refused if another process took over
            # refused if the sender's id was committed already (with this body: a retry)
            action_id=None if keys is None else keys[1],
            action_body=None if keys is None else keys[2],
            attempt=attempt,  # refused if the forwarding process's tombstone came first
        )
        try:
            await self.manager.committer.append(item)
        except ActionIdTaken:
            log.warning("game %s: an action id was taken first; reloading from the store", self.id)
            await self._recover(before)
            if self.abandoned:
                raise Unavailable(self.abandoned) from None
            raise
        except Exception as exc:  # the store refused: forget what it did not accept
            report_failure(f"game {self.id}: commit", exc)
            await self._recover(before)
            if self.closed is not None:  # the director's entry was stored first: final
                raise GameClosed(self.closed) from None
            if self.abandoned:
                raise Unavailable(self.abandoned) from exc
            raise store_outage(exc) or Unavailable(
                f"the action could not be stored ({type(exc).__name__})"
            ) from exc
        if item.report is not None:
            self._sheet = sheet
            if self.manager.on_report is not None:
                self.manager.on_report()
        self._publish(
            {
                "type": "update",
                "version": self.version,
                "actions": [public_entry(e) for e in entries],
            }
        )
        self._wake.set()

    async def _recover(self, before: int) -> None:
        """After a failed commit (the lock held): what the store did not accept leaves memory
        at once, then the game is read again from the store (the commit may have reached it
        before its connection failed, or another process committed). When that read fails
        too, this process forgets the game (UNLOADED): it loads again on its next access, and
        nothing serves this memory meanwhile."""
        entries = [a.to_json() for a in self.session.log[:before]]
        self.session = replay(self.record, entries)
        try:
            await self._reload()
        except Exception as exc:
            report_failure(f"game {self.id}: reload after a failed commit", exc)
            self.manager.abandon(self, UNLOADED)

    async def _reload(self) -> None:
        record = await self.manager.repo.game(self.id)
        stored = await self.manager.repo.actions(self.id)
        self.session = rebuild_session(record, stored)
        self.action_ids = await self.manager.repo.action_ids(self.id)
        self.record = record
        if record.closed is not None and self.closed is None:
            # closed in the store (the message that should have said so was lost)
            self.closed = record.closed
            self._publish({"type": CLOSED, "reason": record.closed})
        if record.owner != self.manager.process_id:
            self.manager.abandon(self)  # another process took the game over: it serves it

    def _abandon(self, reason: str = MOVED) -> None:
        """Stop serving this game here (``reason``: another process owns it, or this memory
        may differ from the store): the timer stops, sockets are told to reconnect (they reach
        the owner, or this process loading the game again, through nginx)."""
        self.abandoned = reason
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        broadcast(self.listeners, RECONNECT)
        self.listeners.clear()

    def _publish(self, message: dict[str, Any]) -> None:
        self.last_active = time.monotonic()
        message = {**message, "game_id": self.id, "state": self.view()}
        broadcast(self.listeners, message)
        self.manager.fan_out(message)

    def start_timer(self) -> None:
        """Run the background timer (calls and flag-falls with nobody sending anything)."""
        if self._timer is None:
            self._timer = asyncio.create_task(self._run_timer(), name=f"timer-{self.id}")

    async def stop(self) -> None:
        """Stop the timer."""
        if self._timer is not None:
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._timer
            self._timer = None

    async def _run_timer(self) -> None:
        while self.session.outcome() is None and self.closed is None and not self.abandoned:
            self._wake.clear()
            deadline = self.session.next_deadline(self.now())
            delay = None if deadline is None else max(0.0, deadline - self.now())
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
                continue  # something changed: recompute the deadline
            except TimeoutError:
                pass
            try:
                await self.tick()
            except Exception as exc:
                report_failure(f"game {self.id}: timer tick", exc)
                await asyncio.sleep(1.0)

    async def tick(self) -> None:
        """Push what is due now: spoken calls, and a flag-fall or no-show (stored first).

        Only the owner does: a flag-fall commits only while this process owns the game
        (fencing), and with several processes the calls are spoken only after checking that
        it still does (a process paused and resumed must not call over the new owner)."""
        async with self.lock:
            if self.closed is not None or self.abandoned:
                return
            before = self.version
            events = self.session.tick(self.now())
            await self._commit(before)
            calls = [ev for ev in events if ev.kind == "call"]
            if calls and self.manager.forward is not None:
                record = await self.manager.repo.game(self.id)
                if record.owner != self.manager.process_id:
                    self.manager.abandon(self)
                    return
        for ev in events:
            if ev.kind == "call":
                self._publish_event({"type": "call", **ev.to_json()})

    def _publish_event(self, message: dict[str, Any]) -> None:
        message = {**message, "game_id": self.id}
        broadcast(self.listeners, message)
        self.manager.fan_out(message)


def _event_sheet(record: StoredGame, session: Session) -> dict[str, Any] | None:
    """The result sheet an event game hands its event (None for other games and while
    playing): a typed :class:`~duiyi.tournament.results.ResultSheet`, as JSON for the outbox."""
    if record.event_id is None or record.round is None or record.board is None:
        return None
    outcome = session.outcome()
    if outcome is None:
        return None
    from duiyi.tournament.results import ResultSheet

    return ResultSheet.of_game(outcome, session.referee).to_json()


def _event_report(record: StoredGame, sheet: dict[str, Any] | None) -> dict[str, Any] | None:
    """The outbox row's data for a new sheet (committed with the action that produced it)."""
    if sheet is None:
        return None
    return {
        "event_id": record.event_id,
        "round": record.round,
        "board": record.board,
        "sheet": sheet,
    }
