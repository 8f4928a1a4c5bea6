"""Several server processes behind one address, joined by Redis pub/sub.

Each live game is owned by one process (``games.owner`` in the store, kept alive by heartbeats;
behind nginx's consistent hash, the process nginx sends the game to: duiyi.server.cluster.ownership).
Only what another process needs goes through Redis: a process with sockets of a game it does
not host subscribes to ``duiyi:game:<id>`` and asks the owner to publish there (``watch`` on
the owner's ``duiyi:proc:<owner>``, again every WATCH_AGAIN seconds while it has such sockets);
the owner publishes a game's updates and calls only while somebody watches it. A process that
takes a game over tells the old owner (and the game's watchers) with ``takeover``; rare messages
of any game (a director's closing, the players' calls) go to every process on ``duiyi:all``.
An action that reaches a process which does not own the game is forwarded
on ``duiyi:proc:<owner>`` and answered on ``duiyi:reply:<sender>``; every forward has an
attempt id, and a sender that gives up waiting writes the attempt's tombstone in the store
before it answers an error: the owner's commit, which inserts the same key, then fails, unless
it was first (then the sender answers its version). A process whose heartbeat stops is
replaced: the next request for its games loads them from the store elsewhere.

>>> _game_channel("abc")
'duiyi:game:abc'
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from duiyi import Color
from duiyi.actions import SESSION_ACTIONS
from duiyi.codec import action_from_json
from duiyi.errors import DuiyiError, IllegalAction, InvalidInput
from duiyi.server.games.action_ids import ACTION_ID, RULING
from duiyi.server.problems import Unavailable, problem_body, report_failure, store_outage

if TYPE_CHECKING:
    from duiyi.server.state import State

__all__ = ["RedisFanout"]

log = logging.getLogger("duiyi.server.fanout")

FORWARD_TIMEOUT = 10.0
# after this process's link to Redis dropped (a Redis restart), how long the others may take
# to listen again: meanwhile a process not listening is not taken for dead, and a forward
# nobody received is sent again (every FORWARD_AGAIN seconds, for at most FORWARD_WAIT) rather
# than answered 503
REDIS_SETTLE = 5.0
FORWARD_AGAIN = 0.1
FORWARD_WAIT = 5.0
# how long the reader waits before it tries Redis again after a failure
READ_AGAIN = 0.2
# how often the sockets of games hosted elsewhere are checked for a dead host (and their games
# subscribed to)
WATCH_SECONDS = 0.5
# connections to Redis per process, and how long a publish waits for a free one (seconds)
REDIS_CONNECTIONS = 100
REDIS_WAIT = 5.0
# a watcher asks the owner again this often; the owner stops publishing a game nobody asked
# for in WATCHED_FOR seconds (or that nobody received)
WATCH_AGAIN = 5.0
WATCHED_FOR = 15.0
# the channel of the rare messages every process hears
ALL = "duiyi:all"
# the messages published only to the game's watchers (every move, every spoken call)
PER_GAME = frozenset({"update", "call"})


def _game_channel(game_id: str) -> str:
    return f"duiyi:game:{game_id}"


class ForwardedError(DuiyiError):
    """An error raised by the owner of a game, carried back with its HTTP status."""

    def __init__(self, problem: dict[str, Any]) -> None:
        super().__init__(str(problem.get("detail", "refused")), problem.get("article"))
        self.problem = problem


class RedisFanout:
    """The Redis link of one server process."""

    def __init__(self, url: str, state: State) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff

        self.url = url
        self.state = state
        self.pid = state.settings.process_id
        # a pool that waits for a free connection (redis-py's default one raises
        # MaxConnectionsError past its cap, which killed a forwarded action's reply)
        # a connection Redis closed (it restarted) is opened again once and the command sent
        # again, instead of failing its first user (a forwarded act answered 1011)
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            decode_responses=True,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 1),
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.pubsub = self.redis.pubsub()
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.writer: asyncio.Task[None] | None = None
        self.serving: set[asyncio.Task[None]] = set()
        self.watcher: asyncio.Task[None] | None = None
        # games hosted here that another process watches: game id -> when it last asked
        self.watched: dict[str, float] = {}
        # games hosted elsewhere whose channel this process listens to: game id -> when it
        # last asked the owner to publish there, and that owner
        self.subscribed: dict[str, tuple[float, str]] = {}
        # messages published, by kind, and actions forwarded to another process (for
        # /api/metrics and the benchmarks)
        self.published: collections.Counter[str] = collections.Counter()
        self.forwarded = 0
        # the link to Redis: up (cleared when the reader fails, set once it has subscribed
        # again), and until when (monotonic) the other processes may still be coming back
        self.linked = asyncio.Event()
        self.settling_until = -math.inf

    async def start(self) -> None:
        """Subscribe and hook into the game manager."""
        await self.redis.ping()
        await self.pubsub.subscribe(ALL, f"duiyi:proc:{self.pid}", f"duiyi:reply:{self.pid}")
        self.linked.set()
        self.reader = asyncio.create_task(self._read(), name="redis-reader")
        self.watcher = asyncio.create_task(self._watch(), name="redis-watcher")
        self.writer = asyncio.create_task(self._write(), name="redis-writer")
        games = self.state.games
        games.fan_out = self.publish
        games.forward = self.forward
        games.alive = self.alive
        games.on_takeover = self.takeover
        games.on_created_for = self.created_for

    async def stop(self) -> None:
        """Unsubscribe and close."""
        for task in (self.reader, self.writer, self.watcher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await cast(Any, self.pubsub).aclose()  # typed in redis 8.2, untyped before
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def publish(self, message: dict[str, Any]) -> None:
        """Queue a message of a game for the other processes that need it: an update or a call
        for the game's watchers (none: nothing is sent), anything else for every process."""
        game_id = str(message.get("game_id"))
        kind = str(message.get("type"))
        if kind in PER_GAME:
            if game_id not in self.watched:
                return
            channel = _game_channel(game_id)
        else:
            channel = ALL
        payload = json.dumps({**message, "origin": self.pid}, separators=(",", ":"))
        self.published[kind] += 1
        self.outbox.put_nowait((channel, payload))

    def takeover(self, game_id: str, old_owner: str) -> None:
        """This process took ``game_id`` over from ``old_owner``: tell it (it stops serving the
        game, its sockets reconnect) and the game's watchers (theirs reconnect too)."""
        payload = json.dumps(
            {"type": "takeover", "game_id": game_id, "owner": self.pid, "origin": self.pid}
        )
        self.published["takeover"] += 1
        self.outbox.put_nowait((f"duiyi:proc:{old_owner}", payload))
        self.outbox.put_nowait((_game_channel(game_id), payload))

    def created_for(self, owner: str, game_ids: list[str]) -> None:
        """This process stored new games for ``owner`` (their ring owner): ask it to host
        them (one message for all: an event round's boards)."""
        payload = json.dumps({"type": "host", "game_ids": game_ids, "origin": self.pid})
        self.published["host"] += 1
        self.outbox.put_nowait((f"duiyi:proc:{owner}", payload))

    async def _host(self, game_ids: list[str]) -> None:
        """Host games another process created for this one, loaded together (their timers
        start here)."""
        try:
            await self.state.games.host_many(game_ids)
        except Exception as exc:  # each loads on its first request instead
            log.warning("games %s: created for this process, not loaded (%s)", game_ids[:5], exc)

    def _watched(self, game_id: str) -> None:
        """Another process asked for ``game_id``'s updates: publish them from now on; when it
        was not watched, say so on the game's channel first (the watchers read what was
        committed before it from the store: nothing falls between the two)."""
        new = game_id not in self.watched
        self.watched[game_id] = time.monotonic()
        if new:
            payload = json.dumps({"type": "watching", "game_id": game_id, "origin": self.pid})
            self.outbox.put_nowait((_game_channel(game_id), payload))

    async def _write(self) -> None:
        while True:
            channel, payload = await self.outbox.get()
            try:
                receivers = await self.redis.publish(channel, payload)
            except Exception as exc:
                report_failure(f"publish to {channel}", exc, down=_redis_down(exc))
                continue
            if receivers == 0 and channel.startswith("duiyi:game:"):
                self.watched.pop(channel.removeprefix("duiyi:game:"), None)  # nobody left

    def settling(self) -> bool:
        """True while Redis may have restarted lately: this process's link is down, or came
        back less than REDIS_SETTLE seconds ago (the others may not listen again yet)."""
        return not self.linked.is_set() or time.monotonic() < self.settling_until

    def _link_back(self) -> None:
        """Subscribed again after the link dropped: the games listened to are asked of their
        owners again at the next watch (what they published meanwhile is lost), and read from
        the store once more."""
        self.linked.set()
        self.settling_until = time.monotonic() + REDIS_SETTLE
        self.subscribed = {g: (-math.inf, "") for g in self.subscribed}

    async def _gone(self, process: str) -> bool:
        """Whether ``process`` is gone from Redis for good: it does not listen, while this
        process does and Redis has been up for REDIS_SETTLE seconds (after a Redis restart
        every process subscribes again, some later than others: meanwhile an absence means
        nothing)."""
        if self.settling():
            return False
        own = f"duiyi:proc:{self.pid}"
        counts = await self.redis.pubsub_numsub(f"duiyi:proc:{process}", own)
        listening = {str(channel): int(n) for channel, n in counts}
        if listening.get(f"duiyi:proc:{process}", 0) > 0 or listening.get(own, 0) == 0:
            return False
        info = await self.redis.info("server")  # only for an absence: has Redis just started?
        return float(info.get("uptime_in_seconds", math.inf)) >= REDIS_SETTLE

    async def alive(self, process: str) -> bool:
        """True while ``process`` listens on Redis (a killed process stops at once; a paused
        one is found out by its heartbeat); a process not yet back after a Redis restart is
        not taken for dead (:meth:`_gone`: its heartbeat decides)."""
        try:
            return not await self._gone(process)
        except Exception:
            return True  # Redis itself is unsure: keep to the heartbeat

    async def _watch(self) -> None:
        """Sockets of games hosted elsewhere: listen to their games (and ask their owners to
        publish), and when the host dies or stops beating, tell them to reconnect (within
        WATCH_SECONDS plus the staleness limit), so that no browser keeps a frozen board."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            games = self.state.games
            try:
                await self._subscribe()
                owners = {r.record.owner for r in games.remotes.values() if r.listeners}
                dead = set()
                for owner in owners:
                    if owner is None:
                        continue
                    if await games.stale(owner) or not await self.alive(owner):
                        dead.add(owner)
                for game_id, remote in list(games.remotes.items()):
                    if remote.record.owner in dead:
                        games.remotes.pop(game_id, None)
                        remote.reconnect()
                cutoff = time.monotonic() - WATCHED_FOR
                for game_id in [g for g, t in self.watched.items() if t < cutoff]:
                    self.watched.pop(game_id, None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                report_failure("watching the other processes", exc)

    async def _subscribe(self) -> None:
        """Listen to the games whose sockets are here and whose host is elsewhere, and only
        to those; ask each one's owner to publish it (again every WATCH_AGAIN seconds). A game
        just listened to is read from the store once more (what its owner committed before it
        heard the request reaches the sockets now)."""
        games = self.state.games
        wanted = {g: r for g, r in games.remotes.items() if r.listeners and r.record.owner}
        for game_id in [g for g in self.subscribed if g not in wanted]:
            self.subscribed.pop(game_id, None)
            await self.pubsub.unsubscribe(_game_channel(game_id))
        now = time.monotonic()
        for game_id, remote in wanted.items():
            owner = str(remote.record.owner)
            new = game_id not in self.subscribed
            if new:
                await self.pubsub.subscribe(_game_channel(game_id))
            asked, asked_owner = self.subscribed.get(game_id, (0.0, ""))
            if new or asked_owner != owner or now - asked >= WATCH_AGAIN:
                request = {"type": "watch", "game_id": game_id, "reply": self.pid}
                heard = await self.redis.publish(f"duiyi:proc:{owner}", json.dumps(request))
                # nobody heard it (the owner not back on Redis yet): asked again next time
                self.subscribed[game_id] = (now if heard else -math.inf, owner)
            if new or asked_owner != owner:
                await remote.refresh()

    async def forward(
        self, owner: str, game_id: str, seat: Color | None, kind: str, data: dict[str, Any]
    ) -> int:
        """Send an action to the process that owns the game and wait for its answer.

        The forward travels with an attempt id made here (unguessable; the client's
        ``action_id``, if any, travels too and keeps retries idempotent). When the owner does
        not answer in time, the attempt's tombstone goes to the store before the error is
        answered; if the owner's commit was there first, its version is the answer instead.
        So an action answered with an error is never applied later, whatever the clocks of the
        two processes say; a client that sends it again (same ``action_id``) makes a new
        attempt, applied at most once."""
        req = secrets.token_hex(12)
        attempt = "fwd-" + req
        self.forwarded += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[req] = future
        request = {
            "req": req,
            "reply": self.pid,
            "game_id": game_id,
            "seat": seat.value if seat else None,
            "kind": kind,
            "data": data,
            "attempt": attempt,
        }
        try:
            await self._deliver(owner, game_id, json.dumps(request))
            answer = await asyncio.wait_for(future, FORWARD_TIMEOUT)
        except TimeoutError as exc:
            committed = await self._give_up(game_id, attempt)
            if committed is not None:
                return committed
            raise Unavailable(
                f"the process hosting game {game_id} did not answer; the action was not applied "
                "and this attempt never will be (send it again)"
            ) from exc
        finally:
            self.pending.pop(req, None)
        if answer.get("ok"):
            return int(answer["version"])
        raise ForwardedError(answer.get("problem") or {})

    async def _deliver(self, owner: str, game_id: str, payload: str) -> None:
        """Publish a forward to ``owner``. Nobody heard it (or Redis did not answer) while
        Redis may have restarted (the owner not :meth:`_gone`): sent again as the owner comes
        back (:meth:`_publish_heard`); else 503. (Sent again with the same attempt: received
        twice, it is applied once, and the first answer is the one taken.)"""
        if not self.linked.is_set():  # the owner's answer could not reach this process
            try:
                await asyncio.wait_for(self.linked.wait(), FORWARD_WAIT)
            except TimeoutError:
                raise Unavailable("Redis cannot be reached; retry") from None
        failure = ""

        async def again(exc: Exception | None) -> bool:
            nonlocal failure
            if exc is None:  # nobody heard it: 503 at once if the owner is gone for good
                failure = f"the process hosting game {game_id} is not listening; retry"
                return not await self._gone(owner)
            if _redis_down(exc) is None:
                raise exc
            report_failure(f"forward to {owner}", exc, down="Redis")
            failure = "Redis cannot be reached; retry"
            return True

        if not await self._publish_heard(f"duiyi:proc:{owner}", payload, again):
            raise Unavailable(failure)

    async def _publish_heard(
        self,
        channel: str,
        payload: str,
        again: Callable[[Exception | None], Awaitable[bool]],
    ) -> bool:
        """Publish ``payload`` on ``channel`` until somebody hears it: True once heard. After
        a Redis restart the processes subscribe again one after the other, so a message
        nobody heard (a forward to an owner not back yet, the owner's answer to a sender not
        back yet) is sent again every FORWARD_AGAIN seconds for at most FORWARD_WAIT, while
        ``again`` says so: ``again(None)`` when nobody heard it, ``again(exc)`` when Redis
        did not answer (it may raise). False when it says to stop, or when the time is up."""
        deadline = time.monotonic() + FORWARD_WAIT
        while True:
            try:
                if await self.redis.publish(channel, payload) > 0:
                    return True
                go_on = await again(None)
            except Exception as exc:
                go_on = await again(exc)
            if not go_on or time.monotonic() + FORWARD_AGAIN > deadline:
                return False
            await asyncio.sleep(FORWARD_AGAIN)

    async def _give_up(self, game_id: str, attempt: str) -> int | None:
        """The tombstone of a forward nobody answered: None once written (this attempt is
        refused for good), or the version it reached if the owner committed it first."""
        for n in range(3):
            try:
                return await self.state.repo.refuse_action(game_id, attempt)
            except Exception as exc:  # the store is unreachable from here: try again
                log.warning("game %s: the refusal of a forwarded action failed (%s)", game_id, exc)
                await asyncio.sleep(0.5 * (n + 1))
        raise Unavailable(
            f"neither the process hosting game {game_id} nor the store answered: the action's "
            "outcome is unknown; send it again with the same action_id to learn it"
        )

    async def _read(self) -> None:
        own = f"duiyi:proc:{self.pid}"
        subscribed = False  # the first subscription to this process's channel was confirmed
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                report_failure("redis read", exc, down=_redis_down(exc))
                self.linked.clear()
                await asyncio.sleep(READ_AGAIN)
                continue
            if message is None:
                continue
            if message.get("type") != "message":  # (un)subscribed
                if message.get("type") == "subscribe" and message.get("channel") == own:
                    if subscribed:
                        # subscribed again: the link to Redis dropped and came back, and what
                        # was published to this process meanwhile is lost (a takeover of one
                        # of its games among it): its games are checked against the store
                        self._link_back()
                        self.state.games.relinked(time.monotonic())
                    subscribed = True
                continue
            try:
                body = json.loads(message["data"])
            except (TypeError, ValueError):
                continue
            channel = str(message.get("channel", ""))
            if channel.startswith("duiyi:game:") or channel == ALL:
                if body.get("origin") != self.pid:
                    self.state.games.deliver(body)
            elif channel == f"duiyi:proc:{self.pid}":
                if body.get("type") == "watch":  # another process has sockets of this game
                    self._watched(str(body.get("game_id")))
                    continue
                if body.get("type") == "takeover":
                    self.state.games.taken_over(str(body.get("game_id")), str(body.get("owner")))
                    continue
                if body.get("type") == "host":
                    ids = body.get("game_ids")
                    ids = [str(g) for g in ids] if isinstance(ids, list) else [str(body["game_id"])]
                    task = asyncio.create_task(self._host(ids))
                else:
                    task = asyncio.create_task(self._serve(body))
                self.serving.add(task)
                task.add_done_callback(self.serving.discard)
            elif channel == f"duiyi:reply:{self.pid}":
                future = self.pending.get(str(body.get("req")))
                if future is not None and not future.done():
                    future.set_result(body)

    async def _serve(self, request: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"req": request.get("req")}
        try:
            seat = Color(request["seat"]) if request.get("seat") else None
            host = await self.state.games.local(str(request["game_id"]))
            kind, data = str(request["kind"]), dict(request["data"])
            attempt = request.get("attempt")
            attempt = str(attempt) if isinstance(attempt, str) else None
            if kind == RULING:
                ruling = dict(data["ruling"])
                answer["version"] = await host.rule(ruling, data.get(ACTION_ID), attempt)
            else:
                action = action_from_json(data, SESSION_ACTIONS)
                answer["version"] = await host.act(seat, action, data.get(ACTION_ID), attempt)
            answer["ok"] = True
        except DuiyiError as exc:
            answer["ok"] = False
            answer["problem"] = problem_body(exc)
        except (KeyError, ValueError) as exc:
            answer["ok"] = False
            answer["problem"] = problem_body(InvalidInput(f"bad forwarded request: {exc}"))
        except Exception as exc:  # never leave the sender waiting
            report_failure("a forwarded action", exc)
            answer["ok"] = False
            # the store down is a 503 the sender passes on (retryable), anything else a bug
            refusal = store_outage(exc) or IllegalAction(f"internal error: {type(exc).__name__}")
            answer["problem"] = problem_body(refusal)
        channel, payload = f"duiyi:reply:{request.get('reply')}", json.dumps(answer)

        async def again(exc: Exception | None) -> bool:
            if exc is not None:
                log.warning("the reply to a forwarded action was not sent (%r)", exc)
            return exc is None  # unheard: the sender may be subscribing again after a restart

        # not heard in time: the sender's store check answers it (FORWARD_TIMEOUT)
        await self._publish_heard(channel, payload, again)


def _redis_down(exc: BaseException) -> str | None:
    """ "Redis" when ``exc`` says Redis cannot be reached (restarting, refused, timed out): an
    expected outage (docs/deploy.md: it may restart at any time), logged as one line.

    >>> _redis_down(ConnectionRefusedError(111, "refused")), _redis_down(KeyError("x"))
    ('Redis', None)
    """
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeout

    outage = (RedisConnectionError, RedisTimeout, ConnectionError, TimeoutError)
    return "Redis" if isinstance(exc, outage) else None
