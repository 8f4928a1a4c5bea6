"""Live games: one :class:`GameHost` per game (its session, lock, timer and subscribers) and the
:class:`GameManager` that creates, restores and finds them.

The server's monotonic clock is the authority. Each game has a *timeline*: the seconds the
server was up for it since it was created. ``timeline = time.monotonic() + offset`` while a
process hosts it; after a restart the game resumes at the timeline of the last heartbeat of the
process that hosted it, so time during an outage is charged to nobody (docs/server.md).

>>> new_session({"game": "go", "size": 9}).game.kind
'go'
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from duiyi import BLACK, WHITE, Color
from duiyi.actions import Action
from duiyi.clock import Clock, Lateness, NoTime, TimeSystem, system_from_json
from duiyi.errors import DuiyiError, InvalidInput
from duiyi.referee import Referee
from duiyi.server.auth import hash_token, new_token
from duiyi.server.committer import GroupCommitter
from duiyi.server.ownership import Ownership
from duiyi.server.problems import RefusedByRules, Unavailable
from duiyi.server.rulings import parse_ruling
from duiyi.session import OVERRUN_GRACE, Session
from duiyi.store.repository import (
    ActionIdTaken,
    Append,
    Conflict,
    GameRecord,
    NotFound,
    Repository,
    StoredAction,
    new_id,
)

__all__ = [
    "RECONNECT_TEXT",
    "GameHost",
    "GameManager",
    "Hosted",
    "RemoteGame",
    "game_view",
    "new_session",
    "public_entry",
    "refused_by_rules",
]

log = logging.getLogger("duiyi.server")
_Loaded = TypeVar("_Loaded")  # what a load under the loading lock gives

MAX_SIZE_GO = 25


def _go_game(spec: dict[str, Any]) -> Any:
    from duiyi.go import Game, Rules

    size = spec.get("size", 19)
    if not isinstance(size, int) or not 5 <= size <= MAX_SIZE_GO:
        raise InvalidInput(f"size must be a whole number from 5 to 25, got {size!r}")
    rules_spec = spec.get("rules", "chinese")
    rules = Rules.preset(rules_spec) if isinstance(rules_spec, str) else Rules.from_json(rules_spec)
    handicap = spec.get("handicap", 0)
    if not isinstance(handicap, int) or not 0 <= handicap <= 9:
        raise InvalidInput(f"handicap must be 0-9, got {handicap!r}")
    return Game(size, rules=rules, handicap=handicap)


def _gomoku_game(spec: dict[str, Any]) -> Any:
    from duiyi.gomoku import Game, RenjuRules

    rules_spec = spec.get("rules", "chinese_2013")
    if isinstance(rules_spec, dict):
        rules = RenjuRules.from_json(rules_spec)
    else:
        rules = RenjuRules.preset(str(rules_spec))  # the one list of Gomoku presets
    if spec.get("foul_policy") is not None:
        # an event's setting over its rules (Gomoku §10.1(2): White claims the foul)
        rules = rules.with_options(foul_policy=str(spec["foul_policy"]))
    return Game(rules=rules)


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
    kind = spec.get("game", "go")
    if kind == "go":
        game = _go_game(spec)
        referee = Referee("go")
    elif kind == "gomoku":
        game = _gomoku_game(spec)
        referee = Referee("gomoku")
    else:
        raise InvalidInput(f"game must be 'go' or 'gomoku', got {kind!r}")
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


def _lateness(kind: str, spec: object) -> Lateness:
    """Both players start absent and arrive when they connect (or send ``arrive``); late time
    is charged as the book says (Go §22.1-2: twice, lost past 1 h or 15 min at the lodging;
    Gomoku §8.5: once, lost past the event's limit)."""
    if not isinstance(spec, dict):
        raise InvalidInput("lateness is an object such as {'limit': 900} or {'same_site': true}")
    limit = spec.get("limit")
    if limit is not None and (not isinstance(limit, (int, float)) or limit <= 0):
        raise InvalidInput(f"lateness limit must be a positive number of seconds, got {limit!r}")
    if kind == "gomoku":
        return Lateness.gomoku(limit=float(limit) if limit is not None else 900.0)
    rule = Lateness.go(same_site=bool(spec.get("same_site", False)))
    return rule if limit is None else Lateness(rule.factor, float(limit), rule.article)


def public_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as spectators and players see it: a sealed move stays sealed (Go §14); the
    client's action id stays in the store (every process serves the same entries)."""
    if "action_id" in entry:
        entry = {k: v for k, v in entry.items() if k != "action_id"}
    if entry.get("type") == "adjourn" and "sealed" in entry:
        return {**entry, "sealed": "hidden"}
    return entry


def _board_view(session: Session) -> dict[str, Any]:
    inner = getattr(session.game, "game", None)
    out: dict[str, Any] = {}
    if inner is None:
        return out
    board = getattr(inner, "board", None)
    if board is not None and hasattr(board, "stones"):
        out["stones"] = {c.value: sorted(str(p) for p in board.stones(c)) for c in (BLACK, WHITE)}
        out["size"] = getattr(board, "size", None)
    if session.game.kind == "go":
        out["captures"] = {c.value: n for c, n in inner.captures.items()}
        out["dead"] = sorted(str(p) for p in inner.dead)
        out["accepted"] = sorted(c.value for c in inner.accepted)
        out["rules"] = inner.rules.to_json()
        out["handicap"] = inner.handicap
        last = inner.last_move
        out["last_move"] = None if last is None else (str(last[1]) if last[1] else "pass")
        out["sgf_result"] = inner.sgf_result
        out["result_zh"] = inner.result_zh
    else:
        moves = inner.moves
        out["last_move"] = str(moves[-1].point) if moves and moves[-1].point else None
        out["moves_list"] = [str(m.point) if m.point else "pass" for m in moves]
        out["rules"] = inner.rules.to_json()
        out["fifth_n"] = inner.fifth_n
        out["fifth_candidates"] = [str(p) for p in inner.fifth_candidates]
        out["draw_offer"] = inner.draw_offer.value if inner.draw_offer else None
        # Gomoku §10.3(4): the offers made, by stone colour, and the lead the rules allow
        out["draw_offers"] = {c.value: n for c, n in inner.draw_offers.items()}
        out["draw_offer_lead"] = inner.rules.draw_offer_lead
        known = inner.opening
        out["opening"] = (
            None
            if known is None
            else {
                "id": known.opening.id,
                "chinese": known.opening.chinese,
                "japanese": known.opening.japanese,
            }
        )
        out["to_act"] = inner.to_act.value if inner.to_act else None
        # Gomoku §2.9: after the swap the Black seat plays the white stones
        out["swapped"] = inner.swapped
        out["stone_colours"] = (
            {"black": "white", "white": "black"}
            if inner.swapped
            else {"black": "black", "white": "white"}
        )
    return out


def game_view(game_id: str, session: Session, version: int, now: float) -> dict[str, Any]:
    """The public state of a game (what ``GET /api/games/{id}`` answers)."""
    state = session.state(now)
    g = state["game"]
    view: dict[str, Any] = {
        "id": game_id,
        "game": session.game.kind,
        "version": version,
        "to_move": state["to_move"],
        "phase": g.get("phase"),
        "moves": g.get("moves") if "moves" in g else g.get("record"),
        "clocks": state["clock"],
        "clock_running": state["clock_running"],
        "paused": state["paused"],
        # absent at a scheduled start, or not yet seated when the clock waits for both
        "absent": sorted(c.value for c in session.waiting_for()),
        # when the clock starts and which rule applies (issue 21): start_rule ("seated",
        # "first_move", "scheduled"), started, waiting_for, lateness (or None)
        "clock": session.clock_start_json(),
        "adjourned_by": state["adjourned_by"],
        "outcome": state["outcome"],
        "referee": state["referee"],
        "seats_swapped": state["seats_swapped"],
        "time_control": session.clock.system.to_json(),
        # the seat that asked to take back its last move, until answered (casual games)
        "takeback": state["takeback"],
    }
    view.update(_board_view(session))
    return view


# A socket's listener takes each message as JSON text (encoded once for all sockets).
Listener = Callable[[str], None]


def broadcast(listeners: set[Listener], message: dict[str, Any]) -> None:
    """Send ``message`` to every listener; a broken one is dropped, never stops the game."""
    if not listeners:
        return
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    for listener in list(listeners):
        try:
            listener(text)
        except Exception:
            log.exception("listener failed")
            listeners.discard(listener)


# The client's id of an action (idempotency): stored in the game's table of action ids in the
# transaction that appends the action, never seen by the session; an action whose id is already
# committed is answered with its version, not applied again. (Older versions kept the id inside
# the log entry; migration 0003 copied those into the table and _rebuild drops them.)
ACTION_ID = "action_id"
MAX_ACTION_ID = 64


class ActionRefused(Conflict):
    """A forwarded attempt refused for good: the process it came through gave up waiting and
    answered an error, so this attempt is never applied (a new attempt may be)."""

    def __init__(self, attempt: str) -> None:
        super().__init__(
            f"forward {attempt!r} was answered with an error by the process it came through "
            "(it gave up waiting): it is not applied"
        )


def _check_action_id(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ACTION_ID:
        raise InvalidInput(f"action_id is a string of 1-{MAX_ACTION_ID} characters")
    return value


def action_keys(sender: str, action_id: str, body: Any) -> tuple[str, str]:
    """The store's keys of a client's ``action_id`` (in game_action_ids, per game): the id
    scoped to its ``sender`` (``black``, ``white``, ``arbiter``), and the id with the action's
    ``body``. The same id from another sender is another action; from the same sender with
    another body it is refused (ActionIdReused, 409).

    >>> black, body = action_keys("black", "1", {"type": "move", "point": "D4"})
    >>> black == action_keys("white", "1", {"type": "move", "point": "D4"})[0]
    False
    >>> body == action_keys("black", "1", {"type": "move", "point": "C3"})[1]
    False
    >>> len(black) <= 64 and len(body) <= 64
    True
    """
    scoped = hashlib.sha256(f"{sender}\0{action_id}".encode()).hexdigest()[:40]
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    whole = hashlib.sha256(f"{scoped}\0{text}".encode()).hexdigest()[:40]
    return "id:" + scoped, "body:" + whole


class ActionIdReused(Conflict):
    """A client's action id already used by the same sender in this game for another action
    (409): each action needs its own id; a retry sends the same body again."""

    def __init__(self, action_id: str) -> None:
        super().__init__(
            f"action_id {action_id!r} was already used by this seat (or arbiter) in this game "
            "for another action: give each action its own id (a retry sends the same action)"
        )


# Sent to a game's sockets when this process stops serving it: close with a reconnect code.
RECONNECT: dict[str, Any] = {"type": "reconnect"}
RECONNECT_TEXT = json.dumps(RECONNECT, separators=(",", ":"), ensure_ascii=False)
MOVED = "this game is now served by another process; retry (sockets: reconnect)"

# The forwarded form of an arbiter's ruling (never a session action type).
RULING = "__rule__"

# A process whose heartbeat is older than this is taken for dead: its games move to another.
STALE_AFTER = 5.0


class Hosted(Protocol):
    """What the routes need from a game, hosted here or in another process."""

    id: str
    listeners: set[Listener]

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


def _event_link(record: GameRecord) -> dict[str, Any] | None:
    if record.event_id is None:
        return None
    return {"id": record.event_id, "round": record.round, "board": record.board}


def _is_arbiter(record: GameRecord, token: str | None) -> bool:
    if not token or record.arbiter_token_hash is None:
        return False
    return hash_token(token) == record.arbiter_token_hash


def _seat(record: GameRecord, token: str | None) -> Color | None:
    if not token:
        return None
    h = hash_token(token)
    if h == record.black_token_hash:
        return BLACK
    if h == record.white_token_hash:
        return WHITE
    return None


class GameHost:
    """One live game in this process."""

    def __init__(
        self,
        manager: GameManager,
        record: GameRecord,
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
        # True once another process took the game over (fenced out: nothing more commits here)
        self.abandoned = False
        self._sheet: dict[str, Any] | None = _event_sheet(record, session)
        self.last_active = time.monotonic()

    @property
    def version(self) -> int:
        """Number of entries in the log (every accepted action has one)."""
        return len(self.session.log)

    def now(self) -> float:
        """This game's timeline now (never before the last logged action)."""
        return max(time.monotonic() + self.offset, self.session.now)

    def view(self) -> dict[str, Any]:
        """The public state now."""
        view = game_view(self.id, self.session, self.version, self.now())
        view["event"] = _event_link(self.record)
        if self.closed is not None:  # the director entered the board's result
            view["closed"] = self.closed
        return view

    async def current_session(self) -> Session:
        """The live session."""
        return self.session

    async def entries(self, version: int) -> list[dict[str, Any]]:
        """The public log entries after ``version``."""
        return (await self.read(version))[0]

    async def read(self, since: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The committed entries after ``since`` (none when None) and the state, read together.

        Taken under the game's lock, so a reader never sees an action whose commit is still
        under way (it could yet be lost, and was not acknowledged)."""
        async with self.lock:
            entries: list[dict[str, Any]] = []
            if since is not None:
                if since < 0 or since > self.version:
                    raise InvalidInput(f"version must be 0-{self.version}, got {since}")
                entries = [public_entry(a.to_json()) for a in self.session.log[since:]]
            return entries, self.view()

    def seat_for(self, token: str | None) -> Color | None:
        """The seat a player token stands for, or None."""
        return _seat(self.record, token)

    def is_arbiter(self, token: str | None) -> bool:
        """True for the game's (or its event's) arbiter key."""
        return _is_arbiter(self.record, token)

    async def rule(
        self, ruling: dict[str, Any], action_id: str | None = None, attempt: str | None = None
    ) -> int:
        """An arbiter's typed ruling (``duiyi.server.rulings``) through ``duiyi.referee``
        (Go §17-24, Gomoku §12), stored before it is acknowledged (``action_id`` and
        ``attempt``: as for :meth:`act`)."""
        request = parse_ruling(ruling).to_request()

        def change(now: float) -> None:
            try:
                self.session.rule(request, now)
            except (TypeError, ValueError) as exc:
                raise InvalidInput(f"ruling {request.kind.value!r}: {exc}") from exc

        action_id = _check_action_id(action_id)
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
        action_id = _check_action_id(action_id)
        keys = None
        if action_id is not None:
            sender = "none" if seat is None else seat.value
            keys = (action_id, *action_keys(sender, action_id, action.to_json()))
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
                raise Unavailable(MOVED)
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
            await self._reload()
            if self.abandoned:
                raise Unavailable(MOVED) from None
            raise
        except Exception as exc:  # the store refused: forget what it did not accept
            log.error("game %s: commit failed (%s); reloading from the store", self.id, exc)
            await self._reload()
            if self.closed is not None:  # the director's entry was stored first: final
                raise GameClosed(self.closed) from None
            if self.abandoned:
                raise Unavailable(MOVED) from exc
            raise Unavailable(f"the action could not be stored ({type(exc).__name__})") from exc
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

    async def _reload(self) -> None:
        record = await self.manager.repo.game(self.id)
        stored = await self.manager.repo.actions(self.id)
        self.session = _rebuild(record, stored)
        self.action_ids = await self.manager.repo.action_ids(self.id)
        self.record = record
        if record.closed is not None and self.closed is None:
            # closed in the store (the message that should have said so was lost)
            self.closed = record.closed
            self._publish({"type": CLOSED, "reason": record.closed})
        if record.owner != self.manager.process_id:
            self.manager.abandon(self)  # another process took the game over: it serves it

    def _abandon(self) -> None:
        """Stop serving this game here (another process owns it): the timer stops, sockets are
        told to reconnect (they reach the owner through this or another process)."""
        self.abandoned = True
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
            except Exception:
                log.exception("game %s: timer tick failed", self.id)
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


class RemoteGame:
    """A game hosted by another process: reads come from the store and from the owner's
    broadcasts, actions are forwarded to the owner through Redis."""

    def __init__(self, manager: GameManager, record: GameRecord, state: dict[str, Any]) -> None:
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
        return _seat(self.record, token)

    def is_arbiter(self, token: str | None) -> bool:
        """True for the game's (or its event's) arbiter key."""
        return _is_arbiter(self.record, token)

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
        """The stored entries after ``since`` (none when None) and the owner's last state."""
        return ([] if since is None else await self.entries(since)), self.state

    async def act(self, seat: Color | None, action: Action, action_id: str | None = None) -> int:
        """Forward the action to the owning process (as its JSON form, read there again) and
        wait for its answer."""
        data = action.to_json()
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
        return _rebuild(self.record, await self.manager.repo.actions(self.id))

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
        session = _rebuild(record, stored)
        timeline = record.anchor_timeline + (time.time() - record.anchor_wall)
        state = game_view(self.id, session, len(session.log), max(timeline, session.now))
        state["event"] = _event_link(record)
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


Forward = Callable[[str, str, Color | None, str, dict[str, Any]], Any]


class GameManager:
    """Creates, restores and finds the games this process hosts."""

    def __init__(self, repo: Repository, process_id: str) -> None:
        self.repo = repo
        self.process_id = process_id
        # another process whose heartbeat is this old is taken for dead (Settings.stale_after)
        self.stale_after = STALE_AFTER
        self.hosts: dict[str, GameHost] = {}
        self.remotes: dict[str, RemoteGame] = {}
        self.committer = GroupCommitter(repo)
        # seconds from receiving an action to its commit, for /api/metrics
        self.latencies: collections.deque[float] = collections.deque(maxlen=20_000)
        self._loading: dict[str, asyncio.Lock] = {}
        self.fan_out: Callable[[dict[str, Any]], None] = lambda _m: None
        # set by the Redis fan-out: several processes share the games
        self.forward: Forward | None = None
        # set by the event routes: a result sheet entered the outbox (wake its reader)
        self.on_report: Callable[[], None] | None = None
        # awaited by close(): the event routes' background work
        self.closers: list[Callable[[], Awaitable[None]]] = []
        # set by the engine routes: a live game loaded from the store gets its engine back
        self.on_loaded: Callable[[GameHost], None] | None = None
        # set by the engine routes: an evicted game lets its engine go
        self.on_evicted: Callable[[GameHost], Awaitable[None]] | None = None
        # periodic housekeeping of other modules (idle engines), run by sweep()
        self.sweepers: list[Callable[[], Awaitable[None]]] = []
        # set by the Redis fan-out: is that process still listening? (a killed one is not)
        self.alive: Callable[[str], Awaitable[bool]] | None = None
        # behind nginx's consistent hash (Settings.peers): who should host each game
        self.ownership: Ownership | None = None
        # set by the Redis fan-out: this process took ``game_id`` over from ``old_owner``
        self.on_takeover: Callable[[str, str], None] | None = None
        self._background: set[asyncio.Future[None]] = set()

    async def create(
        self,
        spec: dict[str, Any],
        *,
        event_id: str | None = None,
        round: int | None = None,
        board: int | None = None,
        arbiter_token_hash: str | None = None,
        engine: dict[str, Any] | None = None,
        engine_client: str = "",
        token_hashes: tuple[str, str] | None = None,
        game_id: str | None = None,
    ) -> tuple[GameHost, dict[str, str]]:
        """A new game from a request; returns the host and its new secrets (``black``,
        ``white``, and ``arbiter`` unless the event's arbiter key rules the game).

        ``engine`` (``{"seat": "white", "kind": "go"}``; an event's engine game:
        ``{"kind": "go", "players": {"black": CMD, "white": CMD}}``) is stored with the game,
        so that the engines come back with the game after a restart; ``engine_client`` (a
        digest of the address that asked) lets every process count each client's engine
        games (every engine game counts toward the cluster's cap).

        ``token_hashes`` (Black's, White's) seat players who already hold links: a drawn
        knockout game replayed with colours reversed keeps its players' links (no new secrets
        are answered for the seats then)."""
        record, session, secrets_ = await self._insert(
            spec,
            event_id=event_id,
            round=round,
            board=board,
            arbiter_token_hash=arbiter_token_hash,
            engine=engine,
            engine_client=engine_client,
            token_hashes=token_hashes,
            game_id=game_id,
        )
        host = GameHost(self, record, session, offset=-time.monotonic())
        self.hosts[record.id] = host
        host.start_timer()
        return host, secrets_

    async def _insert(
        self,
        spec: dict[str, Any],
        *,
        event_id: str | None = None,
        round: int | None = None,
        board: int | None = None,
        arbiter_token_hash: str | None = None,
        engine: dict[str, Any] | None = None,
        engine_client: str = "",
        token_hashes: tuple[str, str] | None = None,
        game_id: str | None = None,
        owner: str | None = None,
    ) -> tuple[GameRecord, Session, dict[str, str]]:
        """Store a new game (owned by ``owner``, this process when None): its record, its
        session and its new secrets (:meth:`create`)."""
        if event_id is not None:  # an event's game keeps its scheduled start (Go §22, Gomoku §8)
            spec = {**spec, "start": "scheduled"}
        elif engine is not None and "start" not in spec:  # the engine never opens a seat
            spec = {**spec, "start": "first_move"}
        if event_id is None:  # a casual game allows a takeback by agreement (issue 21)
            spec = {**spec, "takebacks": True}
        session = new_session(spec, now=0.0)
        config = session.to_json()
        config.pop("actions")
        if spec.get("hints") is not None:
            # Black's forbidden points shown to the players (off in rated events, Gomoku §12.2(7))
            config["hints"] = bool(spec["hints"])
        if engine is not None:
            config["engine"] = dict(engine)
        secrets_ = {"black": new_token(), "white": new_token()}
        black_hash, white_hash = hash_token(secrets_["black"]), hash_token(secrets_["white"])
        if token_hashes is not None:
            black_hash, white_hash = token_hashes
            secrets_ = {}
        if arbiter_token_hash is None:
            secrets_["arbiter"] = new_token()
            arbiter_token_hash = hash_token(secrets_["arbiter"])
        game_id = await self.repo.create_game(
            kind=session.game.kind,
            config=config,
            black_token_hash=black_hash,
            white_token_hash=white_hash,
            arbiter_token_hash=arbiter_token_hash,
            wall=time.time(),
            owner=owner or self.process_id,
            event_id=event_id,
            round=round,
            board=board,
            engine_client=None if engine is None else engine_client,
            game_id=game_id,
        )
        return await self.repo.game(game_id), session, secrets_

    async def create_routed(self, spec: dict[str, Any]) -> tuple[Hosted, dict[str, str]]:
        """A new game (``POST /api/games``) created for the process nginx will send its
        requests to: its id is picked here, and the game is hosted here when this process is
        its ring owner, else stored with its owner's process id for that process to load on
        its first request (nothing is forwarded). Without peers: :meth:`create`."""
        if self.ownership is None:
            return await self.create(spec)
        game_id = new_id()
        owner = self.ownership.owner_process(game_id)
        if owner is None or owner == self.process_id:
            return await self.create(spec, game_id=game_id)
        record, session, secrets_ = await self._insert(spec, game_id=game_id, owner=owner)
        state = game_view(record.id, session, 0, 0.0)
        state["event"] = None
        return RemoteGame(self, record, state), secrets_

    async def drop(self, host: GameHost) -> None:
        """Undo :meth:`create` of a game nobody played (its creation was refused)."""
        await host.stop()
        if self.hosts.get(host.id) is host:
            self.hosts.pop(host.id, None)
        await self.repo.delete_game(host.id)

    async def get(self, game_id: str) -> Hosted:
        """The game, hosted here (loaded from the store if nobody alive hosts it) or, with
        several processes, a proxy of the process that hosts it."""

        async def load() -> Hosted:
            record = await self.repo.game(game_id)
            if (
                self.forward is not None
                and not self._ring_owner(record)
                and await self._owned_elsewhere(record)
            ):
                remote = self.remotes.get(game_id)
                # a remote game's state is kept fresh by its owner's updates only while its
                # sockets here listen to the game (fanout: watch); else it is read again
                if remote is None or remote.record.owner != record.owner or not remote.listeners:
                    session = _rebuild(record, await self.repo.actions(game_id))
                    timeline = record.anchor_timeline + (time.time() - record.anchor_wall)
                    state = game_view(
                        game_id, session, len(session.log), max(timeline, session.now)
                    )
                    state["event"] = _event_link(record)
                    remote = self.remotes[game_id] = RemoteGame(self, record, state)
                return remote
            self.remotes.pop(game_id, None)
            return await self._load(record)

        return await self._hosted_or_load(game_id, load)

    async def local(self, game_id: str) -> GameHost:
        """The game hosted by this process (loading it if needed): for forwarded actions."""

        async def load() -> GameHost:
            return await self._load(await self.repo.game(game_id))

        return await self._hosted_or_load(game_id, load)

    async def _hosted_or_load(
        self, game_id: str, load: Callable[[], Awaitable[_Loaded]]
    ) -> GameHost | _Loaded:
        """The game hosted here; else what ``load`` gives, under the game's loading lock and
        only if no one hosted it here while the lock was awaited."""
        host = self.hosts.get(game_id)
        if host is not None:
            return host
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            host = self.hosts.get(game_id)
            if host is not None:
                return host
            return await load()

    def _ring_owner(self, record: GameRecord) -> bool:
        """Whether this process should host a live game another process holds: it is the
        game's ring owner among the live processes (nginx sends the game's requests here), so
        it takes the game over rather than forwarding to the holder (who is told so)."""
        return (
            self.ownership is not None
            and record.status == "live"
            and record.owner != self.process_id
            and self.ownership.mine(record.id)
        )

    async def _owned_elsewhere(self, record: GameRecord) -> bool:
        if record.owner is None or record.owner == self.process_id:
            return False
        if record.status != "live":
            return False
        if await self.stale(record.owner):
            return False
        return self.alive is None or await self.alive(record.owner)

    async def stale(self, process: str) -> bool:
        """Whether ``process`` is taken for dead by its heartbeat: none stored, or one older
        than ``stale_after`` (docs/server.md, "Failover")."""
        beat = await self.repo.last_heartbeat(process)
        return beat is None or time.time() - beat >= self.stale_after

    def taken_over(self, game_id: str, owner: str) -> None:
        """Another process (``owner``) took ``game_id`` over (its message through Redis): this
        process stops serving it, and its sockets here reconnect (nginx sends them to the
        owner)."""
        host = self.hosts.get(game_id)
        if host is not None and owner != self.process_id:
            self.abandon(host)
        remote = self.remotes.get(game_id)
        if remote is not None and remote.record.owner != owner:
            self.remotes.pop(game_id, None)
            remote.reconnect()

    def abandon(self, host: GameHost) -> None:
        """Another process owns ``host``'s game now: forget it here (fenced out)."""
        log.warning("game %s: taken over by another process; no longer served here", host.id)
        if self.hosts.get(host.id) is host:
            self.hosts.pop(host.id, None)
        host._abandon()
        if self.on_evicted is not None:
            task = asyncio.ensure_future(self.on_evicted(host))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        """Tell a game's sockets, here and in the other processes, something that is not in its
        log (``{"type": "calls", ...}``: the players' calls and their answers)."""
        message = {**message, "game_id": game_id}
        here = self.hosts.get(game_id) or self.remotes.get(game_id)
        if here is not None:
            broadcast(here.listeners, message)
        self.fan_out(message)

    def deliver(self, message: dict[str, Any]) -> None:
        """A broadcast from another process (through Redis)."""
        if message.get("type") == "takeover":  # to the game's watchers
            self.taken_over(str(message.get("game_id")), str(message.get("owner")))
            return
        if message.get("type") == "watching":  # the owner publishes the game's updates now
            remote = self.remotes.get(str(message.get("game_id")))
            if remote is not None:
                task = asyncio.ensure_future(remote.refresh())
                self._background.add(task)
                task.add_done_callback(self._background.discard)
            return
        host = self.hosts.get(str(message.get("game_id")))
        if message.get("type") == "calls" and host is not None:
            broadcast(host.listeners, message)
        if message.get("type") == CLOSED:
            if host is not None and host.closed is None:  # the owner tells its sockets
                host.closed = str(message.get("reason"))
                host._publish({"type": CLOSED, "reason": host.closed})
        elif (
            host is not None
            and message.get("type") == "update"
            and isinstance(message.get("version"), int)
            and message["version"] > host.version
        ):
            # somebody else committed this game: this process was fenced out (paused, cut
            # off) and must not serve what it remembers
            self.abandon(host)
        remote = self.remotes.get(str(message.get("game_id")))
        if remote is not None:
            remote.deliver(message)

    async def _load(self, record: GameRecord) -> GameHost:
        game_id = record.id
        stored = await self.repo.actions(game_id)
        session = _rebuild(record, stored)
        resume_at = session.now
        wall = time.time()
        if record.owner is not None:
            beat = await self.repo.last_heartbeat(record.owner)
            if beat is not None and wall - beat < self.stale_after:
                # the holder is alive (a hand-over to the ring owner): its timeline runs on
                beat = wall
            if beat is not None and beat > record.anchor_wall:
                resume_at = max(resume_at, record.anchor_timeline + (beat - record.anchor_wall))
        resume_at = max(resume_at, record.anchor_timeline)
        claimed = await self.repo.claim(game_id, record.owner, self.process_id, wall, resume_at)
        if not claimed:
            raise Unavailable(f"game {game_id} was just taken over by another process; retry")
        if record.owner not in (None, self.process_id) and self.on_takeover is not None:
            self.on_takeover(game_id, record.owner)  # its sockets reconnect (to this process)
        record = await self.repo.game(game_id)
        if record.version != len(session.log):
            # the old owner committed between our read and the claim (never after it: its
            # commits are fenced by the owner column): read the log again
            stored = await self.repo.actions(game_id)
            session = _rebuild(record, stored)
        host = GameHost(
            self,
            record,
            session,
            offset=resume_at - time.monotonic(),
            action_ids=await self.repo.action_ids(game_id),
        )
        self.hosts[game_id] = host
        if session.outcome() is None and host.closed is None:
            host.start_timer()
            if self.on_loaded is not None:
                self.on_loaded(host)
        return host

    async def restore(self) -> int:
        """Load every live game nobody alive hosts (after a start or a crash); returns how
        many this process took."""
        count = 0
        for record in await self.repo.live_games():
            if record.id in self.hosts:
                continue
            # with several processes a live owner keeps its games; alone, this process is the
            # only possible host (a crashed predecessor's heartbeat may still look fresh)
            if self.forward is not None and await self._owned_elsewhere(record):
                continue
            owner = None if self.ownership is None else self.ownership.owner_process(record.id)
            if owner not in (None, self.process_id):
                continue  # its ring owner is alive: nginx sends it there, it loads it there
            with contextlib.suppress(Unavailable):
                await self.local(record.id)
                count += 1
        if self.on_report is not None:
            self.on_report()  # results left in the outbox by a crash enter their events now
        return count

    async def sweep(self, idle_seconds: float = 600.0) -> int:
        """Forget games nobody watches and nobody touched for ``idle_seconds``: finished ones,
        and live ones whose clock has nothing due (no time system, paused, adjourned), so
        that a timer never misses a flag. They stay in the store and load again on demand
        (an engine comes back with its game). Returns how many left memory."""
        now = time.monotonic()
        gone = [h for h in self.hosts.values() if self._evictable(h, now, idle_seconds)]
        for host in gone:
            await host.stop()
            self.hosts.pop(host.id, None)
            self._loading.pop(host.id, None)
            if self.on_evicted is not None:
                await self.on_evicted(host)
        for game_id in [g for g, r in self.remotes.items() if not r.listeners]:
            self.remotes.pop(game_id, None)
        for sweeper in list(self.sweepers):
            try:
                await sweeper()
            except Exception:
                log.exception("sweeper failed")
        return len(gone)

    @staticmethod
    def _evictable(host: GameHost, now: float, idle_seconds: float) -> bool:
        if host.listeners or now - host.last_active <= idle_seconds or host.lock.locked():
            return False
        session = host.session
        if session.outcome() is not None:
            return True
        return session.next_deadline(host.now()) is None

    async def close(self) -> None:
        """Stop every timer, the event routes' work and the writer."""
        for host in list(self.hosts.values()):
            await host.stop()
        for closer in self.closers:
            await closer()
        await self.committer.close()

    async def close_event_game(self, game_id: str, reason: str, *, stored: bool = False) -> None:
        """Close an event game because the director entered its result: stored first (unless
        ``stored``: the result's own transaction closed it), then this process's host and,
        through the fan-out, the others' refuse its later actions (a lost message changes
        nothing: their commits check ``closed`` in the store)."""
        if not stored:
            await self.repo.close_game(game_id, reason)
        host = self.hosts.get(game_id)
        if host is None:  # hosted elsewhere (or nowhere: the store says it on load)
            self.fan_out({"type": CLOSED, "game_id": game_id, "reason": reason})
            return
        async with host.lock:
            host.closed = reason
        await host.stop()
        host._publish({"type": CLOSED, "reason": reason})  # sockets here and elsewhere


# --- event games: their results go to the event through the outbox -------------------------

# The fan-out message that closes an event game everywhere.
CLOSED = "closed-by-director"


class GameClosed(Conflict):
    """An action on an event game the director closed by entering its result (409)."""


def _event_sheet(record: GameRecord, session: Session) -> dict[str, Any] | None:
    """The result sheet an event game hands its event (None for other games and while
    playing): a typed :class:`~duiyi.tournament.results.ResultSheet`, as JSON for the outbox."""
    if record.event_id is None or record.round is None or record.board is None:
        return None
    outcome = session.outcome()
    if outcome is None:
        return None
    from duiyi.tournament.results import ResultSheet

    return ResultSheet.of_game(outcome, session.referee).to_json()


def _event_report(record: GameRecord, sheet: dict[str, Any] | None) -> dict[str, Any] | None:
    """The outbox row's data for a new sheet (committed with the action that produced it)."""
    if sheet is None:
        return None
    return {
        "event_id": record.event_id,
        "round": record.round,
        "board": record.board,
        "sheet": sheet,
    }


def _rebuild(record: GameRecord, stored: list[StoredAction]) -> Session:
    entries = [{k: v for k, v in a.entry.items() if k != ACTION_ID} for a in stored]
    try:
        return Session.from_log({**record.config, "actions": entries})
    except DuiyiError as exc:
        raise NotFound(f"game {record.id} cannot be restored: {exc}") from exc
