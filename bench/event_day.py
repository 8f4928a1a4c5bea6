"""The event day (issue 33): a whole online event, run by its people, through faults.

Starts the deployment of docs/deploy.md on this machine (nginx with the hash on the game id in
front of 3 ``duiyi serve`` processes, a private PostgreSQL and a private Redis: bench/cluster.py's
helpers, tests/server/nginx.py's cluster), then runs two Swisses side by side: Go (19×19,
absolute time) and Gomoku (the 2013 rules' designated opening, Renju fouls claimed by White).

- **Bots on every seat**, through the browser's routes: each player's WebSocket
  (``/api/games/{id}/socket``, ``act`` with an ``action_id``, reconnecting with ``?version=N``),
  calls to the arbiter over HTTP (``POST /api/games/{id}/calls``). Think times are log-normal
  (median ``--think`` s); clocks matter: each game is given an ending when its round starts
  (Go: resignation, loss on time, a count, a count with a dispute that is played out, Go §21.4;
  Gomoku: five, resignation, time, a forbidden move of Black claimed by White, Gomoku §10.1(2)).
- **The director** through the desk's routes: players, lots, two absences, pairing, starting the
  online games, a late entry, a withdrawal during a round, a correction of the last round's
  result after the next one is paired (``force``), and the exports (OpenGotha XML, EGD, CSV).
- **Two arbiters** read the arbiter's room (``GET /api/events/{id}/room``) and answer each open
  call with a ruling through ``POST /api/games/{id}/rulings`` (warning, clock adjustment, void
  move, stones put back), naming the call it answers.
- ``--faults``: during play, one after another: kill -9 of one process (restarted as systemd
  would), SIGSTOP of another for 15 s, a Redis restart, a PostgreSQL restart.

After the day it checks what the issue lists and writes ``OUT/figures.json`` and
``OUT/report.html`` (SVG timelines drawn here, no network), with the exports beside them.

    .venv/bin/python bench/event_day.py --players 32 --rounds 2 --faults --out var/day
    make event-day PLAYERS=64 ROUNDS=3

Every request loop is bounded in count and time, all traffic goes to 127.0.0.1, and the day
ends by itself (``--max-minutes``). OpenGotha's standings are compared only when the setting
``DUIYI_OPENGOTHA`` names a folder holding OpenGotha's ``ogdump.sh``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import psycopg
import websockets
from websockets.typing import Subprotocol

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/cluster.py
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.server.nginx

import cluster

GO_COLUMNS = "ABCDEFGHJKLMNOPQRST"
# Gomoku: White plays in a 4×4 corner that can never hold five (Gomoku §10.1); Black's lines
BLACK_FIVE = ["c3", "d3", "e3", "f3", "g3"]
# d6 d7 e5 f5 make d5 a double three for Black (Gomoku §2.19, a forbidden point)
BLACK_FOUL = ["d6", "d7", "e5", "f5", "d5"]
WHITE_CORNER = [f"{c}{r}" for r in range(12, 16) for c in "lmno"]
OPENING = ["h8", "h9", "j10"]  # 疏星 (Gomoku §3.2, one of the 26 openings)
GO_ENDINGS = ("resign", "time", "count", "dispute")
GOMOKU_ENDINGS = ("five", "resign", "time", "foul")
SURNAMES = ["Li", "Wang", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou"]
STUCK = 45.0  # a socket silent this long is read again (resync), never waited on forever


def letters(i: int) -> str:
    """A number as letters only (OpenGotha's key drops digits): 0 → 'a', 27 → 'bb'.

    >>> letters(0), letters(25), letters(27)
    ('a', 'z', 'ab')
    """
    out = ""
    while True:
        out = chr(ord("a") + i % 26) + out
        i = i // 26 - 1
        if i < 0:
            return out


def players_csv(count: int, start: int = 0, prefix: str = "") -> str:
    """A players' table (name, rating) of ``count`` players with names of letters only.

    >>> players_csv(2).splitlines()
    ['name,rating', 'Li Aa,2400', 'Wang Ab,2393']
    """
    rows = ["name,rating"]
    for i in range(start, start + count):
        given = prefix + "A" + letters(i)
        rows.append(f"{SURNAMES[i % len(SURNAMES)]} {given.capitalize()},{2400 - 7 * i % 1400}")
    return "\n".join(rows) + "\n"


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` by the nearest rank; NaN for none.

    >>> quantile([1.0, 2.0, 3.0, 4.0], 0.5), quantile([5.0], 0.99)
    (2.0, 5.0)
    """
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


# ------------------------------------------------------------------ what the day records


@dataclass
class Ack:
    game: str
    version: int
    action_id: str
    kind: str
    sent: float
    acked: float


@dataclass
class Fault:
    name: str
    start: float
    end: float = float("nan")  # when the machines were whole again


@dataclass
class Day:
    """Everything measured, relative to ``t0`` (monotonic seconds)."""

    t0: float = field(default_factory=time.monotonic)
    acks: list[Ack] = field(default_factory=list)
    # what any process served, (game, version) -> (type, player, point): hello, updates,
    # resyncs, GET /actions
    served: dict[tuple[str, int], tuple[Any, ...]] = field(default_factory=dict)
    served_how: dict[tuple[str, int], str] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)
    five_xx: list[tuple[float, str]] = field(default_factory=list)
    retried_503: int = 0
    socket_errors: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    refusal_samples: list[str] = field(default_factory=list)
    # the 503s over the sockets, by detail, and the games they came from
    unavailable: Counter[str] = field(default_factory=Counter)
    unavailable_games: set[str] = field(default_factory=set)
    faults: list[Fault] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    decisions: dict[str, Any] = field(default_factory=dict)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    calls: int = 0
    room_ms: list[tuple[float, float]] = field(default_factory=list)  # the arbiters' reads
    director: list[dict[str, Any]] = field(default_factory=list)
    cpu: list[dict[str, float]] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    reconnects: int = 0
    # the sockets' closes, by the code the server sent ("None": none, the connection dropped)
    closes: Counter[str] = field(default_factory=Counter)
    # how late this harness's own event loop woke a task sleeping LAG_TICK s: (t, seconds)
    lag: list[tuple[float, float]] = field(default_factory=list)
    late: Counter[str] = field(default_factory=Counter)
    # each process's /api/metrics at the end of the day (asked directly)
    server_metrics: list[dict[str, Any]] = field(default_factory=list)

    def now(self) -> float:
        return time.monotonic() - self.t0

    def serve(self, game: str, actions: list[dict[str, Any]], last: int, how: str) -> None:
        """Record what a process served (``how``: the message or route): ``actions`` end at
        version ``last``."""
        first = last - len(actions) + 1
        for i, entry in enumerate(actions):
            self.served[(game, first + i)] = _summary(entry)
            self.served_how[(game, first + i)] = f"{how} at {self.now():.1f} s"


START = time.monotonic()


def say(text: str) -> None:
    """A line of progress on stderr, with the seconds since the harness started."""
    print(f"[{time.monotonic() - START:6.1f} s] {text}", file=sys.stderr, flush=True)


def _summary(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What identifies a log entry (its type, player and point or points), not its time."""
    return (
        entry.get("type"),
        entry.get("player"),
        entry.get("point"),
        tuple(entry.get("points") or entry.get("moves") or ()),
    )


class Http:
    """The harness's HTTP client to nginx: each answer counted; a 503 with Retry-After waited
    on and sent again (at most ``tries`` times), as the pages do."""

    def __init__(self, base: str, day: Day, tries: int = 8) -> None:
        self.client = httpx.AsyncClient(
            base_url=base, timeout=30, limits=httpx.Limits(max_connections=64)
        )
        self.day, self.tries = day, tries

    async def __call__(self, method: str, path: str, **kw: Any) -> httpx.Response:
        last: Exception | None = None
        for attempt in range(self.tries):
            try:
                r = await self.client.request(method, path, **kw)
            except httpx.TransportError as exc:  # a connection nginx or a process had closed
                last = exc
                await asyncio.sleep(0.5 + attempt * 0.5)
                continue
            self.day.statuses[r.status_code] += 1
            if r.status_code == 503 and "retry-after" in r.headers:
                self.day.retried_503 += 1
                await asyncio.sleep(min(5.0, float(r.headers["retry-after"] or 1)))
                continue
            if r.status_code >= 500:
                self.day.five_xx.append(
                    (self.day.now(), f"{method} {_route(path)} {r.status_code}")
                )
            return r
        if last is not None:
            raise last
        return r

    async def close(self) -> None:
        await self.client.aclose()


def _route(path: str) -> str:
    """A path with its ids replaced by their names (for counting by route)."""
    path = re.sub(r"/api/games/[^/]+", "/api/games/{id}", path.split("?")[0])
    path = re.sub(r"/api/events/[^/]+", "/api/events/{id}", path)
    return re.sub(r"/\d+", "/{n}", path)


# ------------------------------------------------------------------ the players (bots)


@dataclass
class Board:
    """One online game of a round and how it is to end."""

    event: str
    game: str  # go | gomoku
    round: int
    board: int
    game_id: str
    tokens: dict[str, str]
    players: dict[str, int]
    ending: str
    loser: str
    moves: int  # moves each side makes before the ending
    call_at: int | None  # the move after which a player calls the arbiter
    withdrawn: str | None = None  # a seat whose player withdrew during the round
    outcome: dict[str, Any] | None = None


class Seat:
    """One player of a board: a socket through nginx, its moves chosen by the board's ending."""

    def __init__(self, day: Day, args: argparse.Namespace, url: str, b: Board, me: str) -> None:
        self.day, self.args, self.url, self.b, self.me = day, args, url, b, me
        self.rng = random.Random(f"{args.seed}-{b.game_id}-{me}")
        self.state: dict[str, Any] = {}
        self.version = 0
        self.mine = 0  # actions sent
        self.placed = 0  # moves made
        self.acked = 0  # the version of this player's last acknowledged action
        self.disputed = False
        self.called = False
        self.ws: Any = None
        self.http: Http | None = None

    @property
    def opponent(self) -> str:
        return "white" if self.me == "black" else "black"

    async def connect(self) -> None:
        ws_url = self.url.replace("http", "ws") + f"/api/games/{self.b.game_id}/socket"
        for attempt in range(40):  # bounded: about a minute of failover at most
            try:
                self.ws = await websockets.connect(
                    f"{ws_url}?version={self.version}",
                    max_size=2**22,
                    open_timeout=15,
                    subprotocols=[
                        Subprotocol("duiyi"),
                        Subprotocol(f"bearer.{self.b.tokens[self.me]}"),
                    ],
                )
                hello = json.loads(await asyncio.wait_for(self.ws.recv(), 15))
                if hello.get("type") == "error":
                    raise ConnectionError(hello["problem"].get("detail"))
                self.absorb(hello)
                return
            except (OSError, TimeoutError, ConnectionError, websockets.WebSocketException) as exc:
                self.day.socket_errors[type(exc).__name__] += 1
                await asyncio.sleep(min(3.0, 0.3 * (attempt + 1)))
        raise RuntimeError(f"{self.b.game_id} {self.me}: could not connect")

    def absorb(self, msg: dict[str, Any]) -> None:
        version = msg.get("version")
        if isinstance(version, int) and isinstance(msg.get("actions"), list):
            self.day.serve(self.b.game_id, msg["actions"], version, str(msg.get("type")))
        if isinstance(msg.get("state"), dict) and (
            not isinstance(version, int) or version >= self.version
        ):
            self.state = msg["state"]
            self.version = int(msg["state"].get("version", self.version))

    async def recv(self, timeout: float) -> dict[str, Any] | None:
        try:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        except TimeoutError:
            return None
        self.absorb(msg)
        if msg.get("type") == "error":
            status = int(msg.get("problem", {}).get("status") or 0)
            self.day.socket_errors[f"error {status}"] += 1
            if status >= 500 and status != 503:  # a 503 is sent again (below)
                self.day.five_xx.append((self.day.now(), f"socket act {status}"))
        return msg

    async def reconnect(self, closed: websockets.ConnectionClosed | None = None) -> None:
        self.day.reconnects += 1
        if closed is not None:  # by the close code the server sent (4409: the game moved)
            code = None if closed.rcvd is None else closed.rcvd.code
            self.day.closes[str(code)] += 1
        with contextlib.suppress(Exception):
            await self.ws.close()
        await self.connect()

    async def act(self, action: dict[str, Any]) -> bool:
        """Send an action and wait for its acknowledgement (sent again with the same id after
        a reconnection or a 503); False when refused."""
        self.mine += 1
        action_id = f"{self.me[0]}{self.mine}"
        body = {**action, "action_id": action_id}
        sent = time.monotonic()
        for _attempt in range(30):  # bounded
            try:
                await self.ws.send(json.dumps({"type": "act", "ref": self.mine, "action": body}))
                deadline = time.monotonic() + STUCK
                while time.monotonic() < deadline:
                    msg = await self.recv(deadline - time.monotonic())
                    if msg is None:
                        break
                    if msg.get("type") == "ack" and msg.get("ref") == self.mine:
                        now = time.monotonic()
                        self.acked = int(msg["version"])
                        self.day.acks.append(
                            Ack(
                                self.b.game_id,
                                int(msg["version"]),
                                action_id,
                                action["type"],
                                sent - self.day.t0,
                                now - self.day.t0,
                            )
                        )
                        return True
                    if msg.get("type") == "error" and msg.get("ref") == self.mine:
                        problem = msg["problem"]
                        if problem.get("status") == 503:
                            # the store is away, or the game moved to another process: the
                            # socket is opened again (nginx sends it to the owner) and the
                            # action sent again with the same id
                            self.day.retried_503 += 1
                            self.day.unavailable[str(problem.get("detail"))[:120]] += 1
                            self.day.unavailable_games.add(self.b.game_id)
                            await asyncio.sleep(0.5)
                            msg = None
                            break
                        self.day.refusals[f"{action['type']}: {problem.get('status')}"] += 1
                        if len(self.day.refusal_samples) < 30:
                            self.day.refusal_samples.append(
                                f"{self.b.game} {self.b.ending} {self.me} {action}: "
                                f"{problem.get('detail')}"
                            )
                        return False
                else:
                    await self.reconnect()
                    continue
                if msg is None:
                    await self.reconnect()
            except websockets.ConnectionClosed as exc:
                await self.reconnect(exc)
        return False

    # -- what to play -----------------------------------------------------------------------

    def my_turn(self) -> bool:
        s = self.state
        if s.get("outcome") or s.get("paused"):
            return False
        if self.b.game == "go":
            return s.get("phase") == "counting" or s.get("to_move") == self.me
        return s.get("to_act") == self.me

    def think(self) -> float:
        return min(6 * self.args.think, self.rng.lognormvariate(math.log(self.args.think), 0.5))

    def occupied(self) -> set[str]:
        stones = self.state.get("stones") or {}
        return {p for side in stones.values() for p in side}

    def go_action(self) -> dict[str, Any] | None:
        s, b = self.state, self.b
        if s.get("phase") == "counting":
            if b.ending == "dispute" and not self.disputed and self.me == b.loser:
                # Go §21.4: the loser claims a group of the opponent dead, the other disagrees:
                # play resumes to settle it
                self.disputed = True
                theirs = (s.get("stones") or {}).get(self.opponent) or []
                if theirs:
                    return {"type": "dispute", "point": theirs[0]}
            if self.me in (s.get("accepted") or []):
                return None
            return {"type": "accept"}
        done = self.placed >= b.moves
        if b.ending in ("count", "dispute") and done:
            return {"type": "pass"}
        if b.ending == "resign" and done and self.me == b.loser:
            return {"type": "resign"}
        if b.ending == "time" and done and self.me == b.loser:
            return None  # Go §22: the flag falls
        taken = self.occupied()
        for _ in range(50):
            point = f"{self.rng.choice(GO_COLUMNS)}{self.rng.randint(1, 19)}"
            if point not in taken:
                return {"type": "move", "move": point}
        return {"type": "pass"}

    def gomoku_action(self) -> dict[str, Any] | None:
        s, b = self.state, self.b
        phase = s.get("phase")
        if phase == "opening":
            return {"type": "open", "moves": OPENING, "fifth_n": 1}
        if phase == "propose_fifth":
            return {"type": "propose_fifth", "points": [BLACK_FIVE[0]]}
        if phase == "choose_fifth":
            return {"type": "choose_fifth", "point": (s.get("fifth_candidates") or [""])[0]}
        taken = self.occupied()
        if self.me == "white":
            if b.ending == "foul" and self._last_black_was_foul():
                return {"type": "claim", "what": "foul"}
            if b.loser == "white" and self.placed >= b.moves and b.ending in ("resign", "time"):
                return {"type": "resign"} if b.ending == "resign" else None
            free = [p for p in WHITE_CORNER if p not in taken]
            return {"type": "move", "move": self.rng.choice(free)} if free else {"type": "resign"}
        line = BLACK_FOUL if b.ending == "foul" else BLACK_FIVE
        if b.loser == "black" and b.ending in ("resign", "time") and self.placed >= b.moves:
            return {"type": "resign"} if b.ending == "resign" else None
        if b.ending in ("resign", "time") and self.placed >= len(line) - 1:
            # Black holds four; waits for White's ending (never completes the five)
            free = [p for p in ("n2", "o2", "n1", "o1", "m1", "m2") if p not in taken]
            return {"type": "move", "move": free[0]} if free else {"type": "resign"}
        for p in line:
            if p not in taken:
                return {"type": "move", "move": p}
        return {"type": "resign"}

    def _last_black_was_foul(self) -> bool:
        from duiyi.gomoku.board import Board as GomokuBoard
        from duiyi.gomoku.fouls import foul

        last = self.state.get("last_move")
        stones = self.state.get("stones") or {}
        point = last if isinstance(last, str) else (last or {}).get("point")
        if not point or point not in (stones.get("black") or []):
            return False
        before = GomokuBoard.from_stones(
            black=[p for p in stones["black"] if p != point], white=stones.get("white") or []
        )
        return foul(before, point) is not None

    async def call_arbiter(self, about: str) -> None:
        if self.called or self.http is None:
            return
        self.called = True
        r = await self.http(
            "POST",
            f"/api/games/{self.b.game_id}/calls",
            json={"about": about, "text": f"board {self.b.board}: {about}"},
            headers={"Authorization": f"Bearer {self.b.tokens[self.me]}"},
        )
        if r.status_code == 201:
            self.day.calls += 1

    async def play(self, until: float) -> None:
        """Play until the game has an outcome or ``until`` (monotonic) has come; a socket that
        closes (a process killed, a game handed over: 4409) is opened again."""
        await self.connect()
        try:
            for _ in range(100000):  # bounded
                if time.monotonic() >= until:
                    break
                try:
                    if not await self.step(until):
                        break
                except websockets.ConnectionClosed as exc:
                    await self.reconnect(exc)
        finally:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.state.get("outcome"):
            self.b.outcome = self.state["outcome"]

    async def step(self, until: float) -> bool:
        """One action of this player, or one message waited for; False once the game is over."""
        if self.state.get("outcome") or self.state.get("phase") == "finished":
            return False
        if self.b.withdrawn == self.me:
            # the player withdrew (Go §28): leaves the board resigning, and hears the end
            await self.act({"type": "resign"})
            for _ in range(20):
                if self.state.get("outcome") or await self.recv(0.5) is None:
                    break
            return False
        action = None
        if self.my_turn():
            action = self.go_action() if self.b.game == "go" else self.gomoku_action()
        if action is None:
            msg = await self.recv(min(STUCK, max(0.1, until - time.monotonic())))
            if msg is None:
                await self.ws.send(json.dumps({"type": "resync", "version": self.version}))
            return True
        if action["type"] in ("move", "pass"):
            await asyncio.sleep(self.think())
            # the state may have moved on meanwhile (the opponent's flag, a ruling)
            while await self.recv(0.001) is not None:
                pass
            if not self.my_turn():
                return True
            if self.b.game == "go":
                action = self.go_action() or action
        if await self.act(action):
            if action["type"] == "move":
                self.placed += 1
            if self.b.call_at is not None and self.placed == self.b.call_at:
                await self.call_arbiter("time" if self.me == "black" else "other")
            if action["type"] == "dispute":
                await self.call_arbiter("count")
        # the update of our own action before choosing again (bounded: a lost update is
        # read again by the resync above)
        for _ in range(50):
            if self.version >= self.acked or await self.recv(0.1) is None:
                break
        return True


# ------------------------------------------------------------------ the arbiters


async def arbiter(day: Day, http: Http, ev: dict[str, Any], stop: asyncio.Event) -> None:
    """One arbiter, of one event: reads its room every 3 s (as long as the room answers) and
    answers each open call with a ruling that names the call."""
    key = {"Authorization": f"Bearer {ev['arbiter']}"}
    for _ in range(10000):  # bounded
        if stop.is_set():
            return
        began = time.monotonic()
        r = await http("GET", f"/api/events/{ev['id']}/room", headers=key)
        day.room_ms.append((day.now(), (time.monotonic() - began) * 1000))
        if r.status_code == 200:
            for board in r.json().get("boards", []):
                for call in board.get("calls") or []:
                    if call.get("open"):
                        await _rule(day, http, ev, board, call, key)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 3.0)


async def _rule(
    day: Day,
    http: Http,
    ev: dict[str, Any],
    board: dict[str, Any],
    call: dict[str, Any],
    key: dict[str, str],
) -> None:
    state = board.get("state") or {}
    if state.get("outcome"):
        await http(
            "POST",
            f"/api/games/{board['id']}/calls/{call['n']}/close",
            json={"ruling": "the game is over"},
            headers=key,
        )
        return
    seat = call.get("seat") or "black"
    other = "white" if seat == "black" else "black"
    go = ev["game"] == "go"
    article = "Go §24" if go else "Gomoku §12.4"
    kinds = [
        {"kind": "warning" if go else "violation", "color": other, "article": article},
        {"kind": "clock_adjustment", "color": seat, "seconds": 10},
    ]
    last = state.get("last_move")
    mover = "white" if state.get("to_move", state.get("to_act")) == "black" else "black"
    if last and state.get("phase") in ("playing", "play") and call.get("about") == "other":
        kinds.append(
            {"kind": "void_move", "color": mover, "article": "Go §19" if go else "Gomoku §12.4"}
        )
    if go and call.get("about") == "count":
        kinds = [{"kind": "warning", "color": other, "article": "Go §21.4"}]
    ruling = {
        **kinds[call["n"] % len(kinds)],
        "answers": call["n"],
        "action_id": f"arbiter-{board['id']}-{call['n']}",
    }
    for _ in range(4):
        r = await http("POST", f"/api/games/{board['id']}/rulings", json=ruling, headers=key)
        # nginx never repeats a POST: a game whose owner is paused answers 504 after its read
        # timeout; the same ruling is sent again (its action_id: applied once)
        if r.status_code != 504:
            break
    if r.status_code == 200:
        data = r.json()
        day.rulings.append(
            {"game": board["id"], "version": data["version"], "kind": ruling["kind"]}
        )
    else:
        day.notes.append(f"ruling {ruling['kind']} answered {r.status_code}: {r.text[:200]}")
        await http(
            "POST",
            f"/api/games/{board['id']}/calls/{call['n']}/close",
            json={"ruling": f"no ruling ({r.status_code})"},
            headers=key,
        )


# ------------------------------------------------------------------ the director


class Director:
    """The desk of both events, through the desk's routes."""

    def __init__(self, day: Day, http: Http, args: argparse.Namespace) -> None:
        self.day, self.http, self.args = day, http, args
        self.events: dict[str, dict[str, Any]] = {}

    def key(self, game: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.events[game]['organiser']}"}

    async def desk(self, game: str, method: str, path: str, **kw: Any) -> httpx.Response:
        ev = self.events[game]
        r = await self.http(method, f"/api/events/{ev['id']}{path}", headers=self.key(game), **kw)
        self.day.director.append(
            {
                "t": round(self.day.now(), 2),
                "event": game,
                "what": f"{method} {path}",
                "status": r.status_code,
            }
        )
        if r.status_code >= 400:
            self.day.notes.append(f"{game} {method} {path}: {r.status_code} {r.text[:300]}")
        return r

    async def create(self) -> None:
        a = self.args
        online = {
            "go": {"size": 19, "time_control": {"system": "absolute", "base": a.base}},
            "gomoku": {
                "rules": "chinese-2013",
                "time_control": {"system": "absolute", "base": a.base},
            },
        }
        for game in ("go", "gomoku"):
            r = await self.http(
                "POST",
                "/api/events",
                json={
                    "name": f"Event day {game}",
                    "game": game,
                    "system": "swiss",
                    "rounds": a.rounds,
                    # Go: standings by points (Go §27.1(2) variant B), as OpenGotha ranks
                    "options": {"variant": "B"} if game == "go" else {},
                    "online": online[game],
                },
            )
            r.raise_for_status()
            made = r.json()
            self.events[game] = {
                "id": made["id"],
                "organiser": made["organiser_token"],
                "arbiter": made["arbiter_token"],
                "game": game,
            }
            for start in range(0, a.players, 1500):  # bodies under the server's 64 KiB
                count = min(1500, a.players - start)
                r = await self.http(
                    "POST",
                    f"/api/events/{made['id']}/players",
                    content=players_csv(count, start),
                    headers={**self.key(game), "Content-Type": "text/csv"},
                )
                r.raise_for_status()
            await self.desk(game, "POST", "/lots")
            # two absences (docs/decisions.md, absent rounds): player 3 in round 1, player 5
            # in round 2 (or round 1 when there is one round)
            await self.desk(game, "PUT", "/players/3/rounds/1", json={"present": False})
            await self.desk(
                game, "PUT", f"/players/5/rounds/{min(2, a.rounds)}", json={"present": False}
            )

    async def late_entry(self, game: str) -> None:
        ev = self.events[game]
        r = await self.http(
            "POST",
            f"/api/events/{ev['id']}/players",
            content=players_csv(1, self.args.players, prefix="Late"),
            headers={**self.key(game), "Content-Type": "text/csv"},
        )
        self.day.director.append(
            {
                "t": round(self.day.now(), 2),
                "event": game,
                "what": "late entry",
                "status": r.status_code,
            }
        )
        # the late entrant has no lot, and the standings refuse to rank without one
        # (Go §27.1(1)C): the lots are drawn again (for every player: the route redraws all)
        await self.desk(game, "POST", "/lots")

    async def paired(self, game: str) -> int:
        """The event's paired rounds, as the store holds them."""
        r = await self.desk(game, "GET", "")
        return int(r.json()["current_round"]) if r.status_code == 200 else -1

    async def pair_and_start(self, game: str, number: int) -> list[Board]:
        """Pair round ``number`` and start its online games; a request nginx answered 5xx
        is sent again (bounded) once the event shows it was not applied."""
        for _ in range(5):
            r = await self.desk(game, "POST", "/rounds")
            if r.status_code < 500 or await self.paired(game) >= number:
                break
            await asyncio.sleep(2.0)
        # the links derived from the director's key, as the desk does: an answer lost on its
        # way (nginx's 502/504 while the server made the games) is asked for again
        links = {"links_key": f"event-day-{self.args.seed}-{game}-{number}-" + "k" * 16}
        r = await self.desk(game, "POST", f"/rounds/{number}/games", json=links)
        for _ in range(5):
            if r.status_code < 500:
                break
            await asyncio.sleep(2.0)
            r = await self.desk(game, "POST", f"/rounds/{number}/links", json=links)
            if r.status_code == 403:  # no game was made with this key: the start again
                r = await self.desk(game, "POST", f"/rounds/{number}/games", json=links)
        if r.status_code not in (200, 201):
            return []
        rng = random.Random(f"{self.args.seed}-{game}-{number}")
        endings = GO_ENDINGS if game == "go" else GOMOKU_ENDINGS
        boards = []
        for g in r.json()["games"]:
            ending = rng.choice(endings)
            boards.append(
                Board(
                    event=self.events[game]["id"],
                    game=game,
                    round=number,
                    board=g["board"],
                    game_id=g["game_id"],
                    tokens={"black": g["black_token"], "white": g["white_token"]},
                    players={"black": g["black"], "white": g["white"]},
                    ending=ending,
                    loser=rng.choice(("black", "white")) if ending != "foul" else "black",
                    moves=rng.randint(*self.args.moves) if game == "go" else rng.randint(1, 3),
                    # the first board of each event calls, then a share of the others
                    call_at=rng.randint(1, 3)
                    if not boards or rng.random() < self.args.calls
                    else None,
                )
            )
        return boards

    async def round_done(self, game: str, number: int, until: float) -> dict[str, Any]:
        """Wait (bounded) for every board of the round to have its result in the event."""
        data: dict[str, Any] = {}
        while time.monotonic() < until:
            r = await self.desk(game, "GET", f"/rounds/{number}")
            if r.status_code == 200:
                data = r.json()
                if all(g.get("result") for g in data.get("games", []) if g.get("white")):
                    return data
            await asyncio.sleep(1.0)
        return data


# ------------------------------------------------------------------ the faults


class Faults:
    """The faults of ``--faults``, one after another while a round is in play."""

    def __init__(
        self,
        day: Day,
        deployment: Any,
        pg: cluster.PrivatePostgres,
        redis: cluster.PrivateRedis,
        gap: float,
    ) -> None:
        self.day, self.deployment, self.pg, self.redis, self.gap = day, deployment, pg, redis, gap
        self.playing = asyncio.Event()
        self.plan: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("kill -9 process 1, restarted", self.kill),
            ("SIGSTOP process 2 for 15 s", self.pause),
            ("Redis restart", self.redis_restart),
            ("PostgreSQL restart", self.pg_restart),
        ]

    async def kill(self) -> None:
        await asyncio.to_thread(self.deployment.kill9_and_restart, 0)

    async def pause(self) -> None:
        self.deployment.pause(1)
        await asyncio.sleep(15)
        self.deployment.resume(1)

    async def redis_restart(self) -> None:
        def restart() -> None:
            self.redis.stop()
            self.redis.start()

        await asyncio.to_thread(restart)

    async def pg_restart(self) -> None:
        await asyncio.to_thread(self.pg.restart)

    async def run(self, stop: asyncio.Event) -> None:
        for name, fault in self.plan:
            await self.playing.wait()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.gap)
            if stop.is_set():
                self.day.notes.append(f"fault not injected (the day ended first): {name}")
                continue
            await self.playing.wait()
            say(f"fault: {name}")
            f = Fault(name, self.day.now())
            self.day.faults.append(f)
            await fault()
            f.end = self.day.now()
            say(f"fault over: {name}")


# ------------------------------------------------------------------ CPU by process kind


def cpu_groups(
    deployment: Any, pg: cluster.PrivatePostgres, redis: cluster.PrivateRedis
) -> dict[str, float]:
    """CPU seconds so far of the servers, nginx, PostgreSQL and Redis (living processes and
    their reaped children; a process killed -9 takes its CPU with it)."""
    servers = [s.proc.pid for s in deployment.servers if s.proc is not None]
    out = {"servers": cluster.tree_cpu(servers)}
    out["nginx"] = cluster.tree_cpu([deployment.nginx.proc.pid])
    with contextlib.suppress(OSError, ValueError):
        out["postgres"] = cluster.tree_cpu([pg.postmaster()])
    out["redis"] = cluster.tree_cpu([redis.proc.pid]) if redis.proc else 0.0
    return out


LAG_TICK = 0.05


async def sample_lag(day: Day, stop: asyncio.Event) -> None:
    """How late the harness's loop runs (its bots measure acknowledgements with it: a late
    loop reads an ack late), every LAG_TICK seconds."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before, cpu = loop.time(), time.thread_time()
        await asyncio.sleep(LAG_TICK)
        wall = loop.time() - before
        day.lag.append((day.now(), max(0.0, wall - LAG_TICK)))
        if wall - LAG_TICK > 0.05:  # late: its own work (the bots) or waiting for a CPU
            day.late["busy" if time.thread_time() - cpu >= wall / 2 else "starved"] += 1


async def sample_cpu(day: Day, read: Callable[[], dict[str, float]], stop: asyncio.Event) -> None:
    last = await asyncio.to_thread(read)
    base = dict(last)
    dead: dict[str, float] = defaultdict(float)
    for _ in range(100000):  # bounded
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)
        now = await asyncio.to_thread(read)
        row: dict[str, float] = {"t": day.now()}
        for k, v in now.items():
            before = last.get(k, 0.0)
            if v < before:  # a process restarted: its earlier time is gone; count from here
                dead[k] += before
                base.setdefault(k, 0.0)
            row[k] = max(0.0, v - before)
        day.cpu.append(row)
        last = now
        if stop.is_set():
            return


# ------------------------------------------------------------------ the day


async def run_day(args: argparse.Namespace, deployment: Any, pg: Any, redis: Any, dsn: str) -> Day:
    day = Day()
    url = deployment.nginx.url
    http = Http(url, day)
    director = Director(day, http, args)
    stop = asyncio.Event()
    faults = Faults(day, deployment, pg, redis, args.fault_gap) if args.faults else None
    deadline = time.monotonic() + args.max_minutes * 60
    background = [
        asyncio.create_task(
            sample_cpu(day, lambda: cpu_groups(deployment, pg, redis), stop), name="cpu"
        ),
        asyncio.create_task(sample_lag(day, stop), name="lag"),
    ]
    try:
        await director.create()
        background += [
            asyncio.create_task(arbiter(day, http, ev, stop), name=f"arbiter {game}")
            for game, ev in director.events.items()
        ]
        if faults is not None:
            background.append(asyncio.create_task(faults.run(stop), name="faults"))
        all_boards: list[Board] = []
        for number in range(1, args.rounds + 1):
            if number == 2:
                for game in director.events:
                    await director.late_entry(game)
            boards: list[Board] = []
            for game in director.events:
                boards += await director.pair_and_start(game, number)
            if number >= 2:
                # a correction of the last round after this one is paired (force: the
                # pairings made on the old result are listed)
                await correction(director, day, all_boards, number - 1)
            started = day.now()
            say(f"round {number}: {len(boards)} boards started")
            until = min(deadline, time.monotonic() + args.round_minutes * 60)
            seats = [Seat(day, args, url, b, me) for b in boards for me in ("black", "white")]
            for s in seats:
                s.http = http
            tasks = []
            for s in seats:
                tasks.append(asyncio.create_task(s.play(until)))
                await asyncio.sleep(0.005)  # no burst of thousands of sockets at once
            if faults is not None:
                faults.playing.set()
            if number == 1 and boards:
                # a withdrawal during the round (Go §28): the player leaves the board
                background.append(asyncio.create_task(withdraw(director, day, boards, 3.0)))
            ended = await asyncio.gather(*tasks, return_exceptions=True)
            if faults is not None:
                faults.playing.clear()
            for e in ended:
                if isinstance(e, BaseException):
                    day.notes.append(f"a player stopped: {e!r}")
            played = day.now()
            say(f"round {number}: played")
            results = {}
            for game in director.events:
                results[game] = await director.round_done(
                    game, number, min(deadline, time.monotonic() + 60)
                )
            for b in boards:
                day.endings[f"{b.game} {b.ending}"] += 1
            day.rounds.append(
                {
                    "round": number,
                    "start": started,
                    "played": played,
                    "results_in": day.now(),
                    "boards": len(boards),
                    "finished": sum(1 for b in boards if b.outcome),
                }
            )
            all_boards += boards
            if time.monotonic() > deadline:
                day.notes.append(f"the day's time ran out after round {number}")
                break
        # no fault left waiting for a round that will not come
        stop.set()
        if faults is not None:
            faults.playing.set()
        await asyncio.gather(*background, return_exceptions=True)
        say("the checks")
        await after_day(day, director, http, all_boards, dsn, args, deployment)
    finally:
        stop.set()
        for t in background:
            t.cancel()
        await http.close()
    return day


async def withdraw(director: Director, day: Day, boards: list[Board], after: float) -> None:
    """``after`` seconds into the round, the director withdraws White of a Go board."""
    await asyncio.sleep(after)
    b = next((b for b in boards if b.game == "go" and b.ending in ("count", "dispute")), boards[0])
    number = b.players["white"]
    r = await director.desk(b.game, "POST", f"/players/{number}/withdraw")
    if r.status_code == 200:
        b.withdrawn = "white"
        day.decisions["withdrawal"] = {"event": b.game, "player": number, "round": b.round}


async def correction(director: Director, day: Day, boards: list[Board], number: int) -> None:
    done = [b for b in boards if b.round == number and b.game == "go" and b.outcome]
    if not done:
        day.notes.append(f"no finished board of round {number} to correct")
        return
    b = done[-1]
    new = "0-1" if (b.outcome or {}).get("winner") == "black" else "1-0"
    r = await director.desk(
        b.game,
        "PUT",
        f"/rounds/{number}/boards/{b.board}/result",
        json={"result": new, "force": True},
    )
    if r.status_code >= 500:
        # nginx's answer, not the server's: the correction may have been stored; the round
        # read again says whether it was
        rnd = await director.desk(b.game, "GET", f"/rounds/{number}")
        if rnd.status_code == 200 and any(
            g.get("board") == b.board and g.get("result") == new for g in rnd.json()["games"]
        ):
            r = rnd
    if r.status_code == 200:
        # each round's correction kept: the board's result is the director's from now on
        day.decisions.setdefault("corrections", {})[(b.game, number, b.board)] = new


# ------------------------------------------------------------------ the checks


def ack_time_where(day: Day, acks: list[Ack], slow_ms: float = 200.0) -> dict[str, Any]:
    """Where the slow acknowledgements' time went: the harness's own loop (a lag sample over
    100 ms while the ack was awaited), the seconds since its round's start (many games made
    and many sockets opened at once), and each process's own figures (its loop's lag, an
    action's time from arrival to commit, the group commit's queue and transactions)."""
    lags = sorted(day.lag)
    times = [t for t, _ in lags]

    def harness_lag(a: Ack) -> float:
        import bisect

        lo, hi = bisect.bisect_left(times, a.sent), bisect.bisect_right(times, a.acked + LAG_TICK)
        return max((lag for _, lag in lags[lo:hi]), default=0.0)

    starts = sorted(r["start"] for r in day.rounds)

    def since_start(a: Ack) -> float:
        before = [s for s in starts if s <= a.sent]
        return a.sent - before[-1] if before else math.inf

    slow = [a for a in acks if (a.acked - a.sent) * 1000 > slow_ms]
    keys = (
        "action_commit_ms_p99",
        "commit_queue_ms_p99",
        "commit_transaction_ms_p50",
        "commit_transaction_ms_p99",
        "loop_lag_ms_p50",
        "loop_lag_ms_p99",
        "loop_lag_ms_max",
        "loop_late_busy",
        "loop_late_starved",
    )
    return {
        "slow_ms": slow_ms,
        "acks": len(acks),
        "slow": len(slow),
        "slow_with_harness_lag_over_100ms": sum(1 for a in slow if harness_lag(a) > 0.1),
        "slow_in_first_15s_of_a_round": sum(1 for a in slow if since_start(a) < 15),
        "acks_in_first_15s_of_a_round": sum(1 for a in acks if since_start(a) < 15),
        "harness_lag_ms_p50": quantile([lag * 1000 for _, lag in lags], 0.5),
        "harness_lag_ms_p99": quantile([lag * 1000 for _, lag in lags], 0.99),
        "harness_lag_ms_max": quantile([lag * 1000 for _, lag in lags], 1.0),
        "harness_late_busy_starved": [day.late["busy"], day.late["starved"]],
        "servers": [{k: m.get(k) for k in ("process", *keys)} for m in day.server_metrics],
    }


async def after_day(
    day: Day,
    director: Director,
    http: Http,
    boards: list[Board],
    dsn: str,
    args: argparse.Namespace,
    deployment: Any,
) -> None:
    out = Path(args.out)
    from tests.server.conftest import operator

    # what each process serves now, asked directly (not through nginx)
    for s in deployment.servers:
        async with httpx.AsyncClient(base_url=s.url, timeout=30) as direct:
            for b in boards[:: max(1, len(boards) // 40)]:
                with contextlib.suppress(httpx.HTTPError):
                    r = await direct.get(f"/api/games/{b.game_id}/actions")
                    if r.status_code == 200:
                        acts = r.json()["actions"]
                        day.serve(b.game_id, acts, len(acts), f"GET /actions from {s.port}")
    # the exports
    exports = {}
    for game in director.events:
        for name in ("opengotha.xml", "results.h9", "standings.csv"):
            r = await director.desk(game, "GET", f"/export/{name}")
            if r.status_code == 200:
                (out / f"{game}-{name}").write_bytes(r.content)
                exports[f"{game}-{name}"] = len(r.content)
    day.decisions["exports"] = exports
    standings = {}
    for game in director.events:
        r = await director.desk(game, "GET", "/standings")
        standings[game] = r.json() if r.status_code == 200 else {}
    day.decisions["standings"] = standings
    (out / "standings.json").write_text(json.dumps(standings, indent=1, ensure_ascii=False))
    # where the acknowledgements' time went, per process, and the games each took over or
    # lost (read last: the reads above must not have taken any over)
    for s in deployment.servers:
        with contextlib.suppress(httpx.HTTPError, ValueError):
            async with httpx.AsyncClient(base_url=s.url, timeout=30) as direct:
                r = await direct.get("/api/metrics", headers=operator())
                if r.status_code == 200:
                    day.server_metrics.append(r.json())
    # the store, read once the day is over
    with psycopg.connect(dsn) as conn:
        stored = {
            (g, v): e
            for g, v, e in conn.execute("SELECT game_id, version, entry FROM game_actions")
        }
        ids = {
            (g, a): v
            for g, a, v in conn.execute(
                "SELECT game_id, action_id, version FROM game_action_ids WHERE state = 'done'"
            )
        }
        games = {
            g: (o, st, c)
            for g, o, st, c in conn.execute("SELECT id, outcome, status, closed FROM games")
        }
    day.decisions["checked"] = {
        "stored": stored,
        "ids": ids,
        "games": games,
        "boards": boards,
    }
    # every board's result as the event holds it, now
    final: dict[tuple[str, int, int], Any] = {}
    for game in director.events:
        for number in range(1, args.rounds + 1):
            r = await director.desk(game, "GET", f"/rounds/{number}")
            if r.status_code == 200:
                for g in r.json().get("games", []):
                    final[(game, number, int(g.get("board") or 0))] = g.get("result")
    day.decisions["final_results"] = final


def figures(day: Day, args: argparse.Namespace) -> dict[str, Any]:
    checked = day.decisions.get("checked", {})
    stored: dict[tuple[str, int], dict[str, Any]] = checked.get("stored", {})
    ids: dict[tuple[str, str], int] = checked.get("ids", {})
    games = checked.get("games", {})
    boards: list[Board] = checked.get("boards", [])
    moves = [
        a for a in day.acks if a.kind in ("move", "pass", "open", "propose_fifth", "choose_fifth")
    ]
    lost = []
    for a in day.acks:
        entry = stored.get((a.game, a.version))
        if entry is None or entry.get("type") != a.kind:
            lost.append(a)
    # stored twice: an action id recorded at another version than its acknowledgement
    twice = [a for a in day.acks if ids.get((a.game, a.action_id), a.version) != a.version]
    # served at another version than the store's (a copy behind, or a version field behind
    # its actions): not a phantom when the same entry is stored in that game at all
    logs: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    for (g, _v), e in stored.items():
        logs[g].add(_summary(e))
    misplaced = [
        k
        for k, summary in day.served.items()
        if (k not in stored or _summary(stored[k]) != summary) and summary in logs[k[0]]
    ]
    phantom = [
        key
        for key, summary in day.served.items()
        if (key not in stored or _summary(stored[key]) != summary) and summary not in logs[key[0]]
    ]
    # a decision changed or reopened: a finished game no longer finished or with another
    # outcome, a board's result in the event other than its game's (the director's
    # correction excepted), a ruling not stored where its answer said
    changed = []
    corrected: dict[tuple[str, int, int], str] = day.decisions.get("corrections", {})
    final = day.decisions.get("final_results", {})
    for b in boards:
        if b.outcome is None:
            continue
        outcome, status, _closed = games.get(b.game_id, (None, None, None))
        if outcome is None or outcome.get("winner") != b.outcome.get("winner"):
            changed.append(f"game {b.game_id}: outcome {b.outcome} then {outcome} ({status})")
        result = final.get((b.game, b.round, b.board))
        expected = {"black": "1-0", "white": "0-1"}.get(str(b.outcome.get("winner")))
        expected = corrected.get((b.game, b.round, b.board), expected)
        forfeit = {"1-0": "forfeit-white", "0-1": "forfeit-black"}.get(str(expected))
        if expected is not None and result is not None and result not in (expected, forfeit):
            changed.append(f"{b.game} round {b.round} board {b.board}: {result}, game {expected}")
    for ruling in day.rulings:
        entry = stored.get((ruling["game"], ruling["version"]))
        if not entry or entry.get("type") != "ruling":
            changed.append(f"ruling {ruling} not stored at its version")
    unfinished = [
        b for b in boards if b.outcome is None and games.get(b.game_id, (None,))[0] is None
    ]
    unfinished_rounds = [
        key for key, result in final.items() if result in (None, "") and key[2] != 0
    ]
    # acknowledgement times outside the faults (a fault's window: from its start to 5 s after
    # its end)
    windows = [(f.start, (f.end if not math.isnan(f.end) else f.start) + 5.0) for f in day.faults]

    def during(t: float) -> str:
        names = [f.name for f, (a, b) in zip(day.faults, windows, strict=True) if a <= t <= b]
        return f"during {names[0]}" if names else f"at {t:.0f} s, outside the faults"

    def overlaps(a: Ack) -> bool:
        return any(a.sent <= end and a.acked >= start for start, end in windows)

    # a move waiting across a fault (sent before it, answered during or after) is the fault's
    outside = [(a.acked - a.sent) * 1000 for a in moves if not overlaps(a)]
    recovery = []
    for f in day.faults:
        end = f.end if not math.isnan(f.end) else f.start
        waits = [a.acked - max(a.sent, end) for a in day.acks if a.sent <= end <= a.acked]
        waits += [a.acked - a.sent for a in day.acks if end <= a.sent <= end + 5]
        recovery.append(
            {"fault": f.name, "start": f.start, "end": end, "recovery_s": max(waits, default=0.0)}
        )
    cpu_total: dict[str, float] = defaultdict(float)
    for row in day.cpu:
        for k, v in row.items():
            if k != "t":
                cpu_total[k] += v
    per_minute = []
    for minute in range(int(max((a.sent for a in moves), default=0) // 60) + 1):
        lat = [(a.acked - a.sent) * 1000 for a in moves if minute * 60 <= a.sent < minute * 60 + 60]
        per_minute.append(
            {
                "minute": minute,
                "moves": len(lat),
                "p50_ms": quantile(lat, 0.5),
                "p99_ms": quantile(lat, 0.99),
            }
        )
    og = day.decisions.get("opengotha", {"equal": None, "reason": "not compared"})
    where = ack_time_where(day, [a for a in moves if not overlaps(a)])
    return {
        "players": args.players,
        "rounds": args.rounds,
        "faults": bool(args.faults),
        "acknowledged_moves": len(moves),
        "acknowledged_actions": len(day.acks),
        "stored_moves": sum(
            1
            for (g, _v), e in stored.items()
            if e.get("type") in ("move", "pass", "open", "propose_fifth", "choose_fifth")
        ),
        "lost_moves": len(lost),
        "stored_twice": len(twice),
        "phantom_moves": len(phantom),
        "served_at_another_version": len(misplaced),
        "changed_decisions": len(changed),
        "http_5xx": len(day.five_xx),
        "http_503_retried": day.retried_503,
        "unfinished_games": len(unfinished) + len(unfinished_rounds),
        "standings_equal_opengotha": og.get("equal"),
        "standings_equal_opengotha_reason": og.get("reason"),
        "ack_p50_ms_outside_faults": quantile(outside, 0.5),
        "ack_p99_ms_outside_faults": quantile(outside, 0.99),
        "recovery_s_max": max((r["recovery_s"] for r in recovery), default=0.0),
        "recovery": recovery,
        "cpu_s_per_1000_moves": {
            k: round(v / len(moves) * 1000, 3) if moves else None for k, v in cpu_total.items()
        },
        "ack_per_minute": per_minute,
        "ack_time_where": where,
        "games": len(boards),
        "endings": dict(day.endings),
        "calls": day.calls,
        "room_ms": {
            "reads": len(day.room_ms),
            "p50": quantile([ms for _, ms in day.room_ms], 0.5),
            "max": max((ms for _, ms in day.room_ms), default=None),
        },
        "rulings": Counter(r["kind"] for r in day.rulings),
        "reconnects": day.reconnects,
        "socket_closes_by_code": dict(day.closes),
        # summed over the processes (since each one's last start: a killed one's are lost)
        "takeovers": dict(
            sum((Counter(m.get("takeovers") or {}) for m in day.server_metrics), Counter())
        ),
        "games_lost": sum(int(m.get("games_lost") or 0) for m in day.server_metrics),
        "sockets_moved_4409": sum(int(m.get("sockets_moved") or 0) for m in day.server_metrics),
        "statuses": {str(k): v for k, v in sorted(day.statuses.items())},
        "five_xx_by_route": dict(Counter(f"{what} ({during(t)})" for t, what in day.five_xx)),
        "refusal_samples": day.refusal_samples,
        "socket_503_by_detail": dict(day.unavailable),
        "socket_503_games": len(day.unavailable_games),
        "refusals": dict(day.refusals),
        "socket_errors": dict(day.socket_errors),
        "details": {
            "lost": [vars(a) for a in lost[:20]],
            "phantom": [
                [
                    *k,
                    day.served.get(k),
                    _summary(stored[k]) if k in stored else None,
                    day.served_how.get(k),
                ]
                for k in phantom[:20]
            ],
            "served_at_another_version": [
                [*k, day.served.get(k), day.served_how.get(k)] for k in misplaced[:20]
            ],
            "not_seen_finished_by_their_players": [
                f"{b.game} round {b.round} board {b.board} {b.ending}: {b.game_id}"
                for b in boards
                if b.outcome is None
            ][:20],
            "changed": changed[:20],
            "unfinished": [b.game_id for b in unfinished[:20]]
            + [list(k) for k in unfinished_rounds[:20]],
        },
        "rounds_progress": day.rounds,
        "director": day.director,
        "notes": day.notes,
        "corrected": [[*k, v] for k, v in corrected.items()],
        "withdrawal": day.decisions.get("withdrawal"),
        "exports": day.decisions.get("exports"),
    }


# OpenGotha's placement criteria (PlacementParameterSet.PLA_CRIT_*) and their column in
# ogdump.sh's lines: NBW, MMS, SOSM, SOSOSM, SODOSM, SOSW, SOSOSW, SODOSW
OGDUMP_COLUMNS: dict[int, Any] = {
    100: 3, 200: 4, 210: 5, 230: 6, 220: 7, 110: 8, 130: 9, 120: 10,
}  # fmt: skip


def compare_opengotha(day: Day, out: Path) -> None:
    """The Go event's standings against OpenGotha's on the exported file (``DUIYI_OPENGOTHA``:
    the folder of ``ogdump.sh``): every player's points (Go: 2 × OpenGotha's wins) and place."""
    folder = os.environ.get("DUIYI_OPENGOTHA")
    tool = Path(folder) / "ogdump.sh" if folder else None
    if tool is None or not tool.is_file():
        day.decisions["opengotha"] = {
            "equal": None,
            "reason": "DUIYI_OPENGOTHA does not name a folder holding ogdump.sh",
        }
        return
    xml = out / "go-opengotha.xml"
    done = subprocess.run(
        [str(tool), str(xml)], capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        day.decisions["opengotha"] = {"equal": False, "reason": done.stderr[-500:]}
        return
    rows = [x.split("\t") for x in done.stdout.splitlines() if "\t" in x and x[0] != "#"]

    # OpenGotha's key is NAME+FIRSTNAME upper-cased; the export splits "Li Aa" either way
    # round (a Chinese surname first or last): a desk name is known by both orders
    desk_rows = day.decisions.get("standings", {}).get("go", {}).get("standings", [])
    known: dict[str, str] = {}
    for r in desk_rows:
        parts = re.sub(r"[^A-Za-z ]", "", str(r["name"])).upper().split()
        for order in (parts, parts[::-1]):
            known["".join(order)] = str(r["name"])
    # (name, points, OpenGotha's columns after the key): Go points = 2 × its wins
    # OpenGotha's placement criteria (the header's crit=...) by their columns in the dump
    header = next((x for x in done.stdout.splitlines() if x.startswith("#round")), "")
    found = re.search(r"crit=([\d,]+)", header)
    codes = [int(c) for c in found.group(1).split(",") if c] if found else []
    columns = [OGDUMP_COLUMNS.get(c, slice(2, None)) for c in codes if c]
    og = [
        (known.get(r[1].upper(), r[1]), 2 * float(r[3]), tuple(str(r[c]) for c in columns))
        for r in rows
    ]
    desk = [(str(r["name"]), float(Fraction(str(r["points"])))) for r in desk_rows]
    differ = []
    if {k: p for k, p, _ in og} != dict(desk):
        differ.append("points")
    # the same order, up to players OpenGotha cannot tell apart (equal in all its criteria:
    # the desk settles those by its further tiebreaks and the lots, Go §27.1(1)C)
    i = 0
    while i < len(og) and not differ:
        j = i
        while j < len(og) and og[j][2] == og[i][2]:
            j += 1
        if sorted(k for k, _, _ in og[i:j]) != sorted(k for k, _ in desk[i:j]):
            differ.append(f"the players of OpenGotha's places {i + 1}-{j}")
        i = j
    equal = bool(desk) and not differ
    reason = (
        f"{len(desk)} players: the same points and order as OpenGotha's ogdump.sh"
        if equal
        else f"differ: {', '.join(differ) or 'no standings'}"
    )
    day.decisions["opengotha"] = {"equal": equal, "reason": reason}


# ------------------------------------------------------------------ the report


def svg_lines(
    series: dict[str, list[tuple[float, float]]],
    faults: list[Fault],
    title: str,
    unit: str,
    width: int = 860,
    height: int = 200,
    until: float | None = None,
) -> str:
    """A line chart with the faults shaded (SVG text, drawn here).

    >>> "<svg" in svg_lines({"a": [(0, 1), (1, 2)]}, [], "t", "u")
    True
    """
    points = [p for s in series.values() for p in s]
    if not points:
        return f"<p>{html.escape(title)}: no data</p>"
    x1 = until or max(p[0] for p in points) or 1.0  # the same time axis for every chart
    y1 = max(p[1] for p in points if not math.isnan(p[1])) or 1.0
    left, top, w, h = 50, 20, width - 60, height - 45

    def x(t: float) -> float:
        return left + t / x1 * w

    def y(v: float) -> float:
        return top + h - v / y1 * h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{html.escape(title)}">',
        f'<text x="{left}" y="14" font-size="13">{html.escape(title)} ({unit})</text>',
    ]
    for f in faults:
        end = f.end if not math.isnan(f.end) else f.start + 1
        parts.append(
            f'<rect x="{x(f.start):.1f}" y="{top}" width="{max(2.0, x(end) - x(f.start)):.1f}" '
            f'height="{h}" fill="#f4c7c3"><title>{html.escape(f.name)}</title></rect>'
            f'<text x="{x(f.start):.1f}" y="{top + h + 24}" font-size="10">'
            f"{html.escape(f.name.split(' ')[0])}</text>"
        )
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    for i, (name, s) in enumerate(series.items()):
        path = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in s if not math.isnan(v))
        colour = colours[i % len(colours)]
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{path}"/>'
        )
        parts.append(
            f'<text x="{left + 10 + 120 * i}" y="{height - 4}" font-size="11" '
            f'fill="{colour}">{html.escape(name)}</text>'
        )
    parts.append(f'<line x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}" stroke="#888"/>')
    parts.append(f'<text x="4" y="{top + 10}" font-size="10">{y1:.3g}</text>')
    parts.append(f'<text x="{left + w - 40}" y="{top + h + 12}" font-size="10">{x1:.0f} s</text>')
    parts.append("</svg>")
    return "".join(parts)


def report_html(day: Day, fig: dict[str, Any]) -> str:
    per_s: Counter[int] = Counter(int(a.acked) for a in day.acks)
    horizon = int(max([*per_s, *(row["t"] for row in day.cpu)], default=0)) + 1
    rate = [(float(t), float(per_s.get(t, 0))) for t in range(int(max(per_s, default=0)) + 1)]
    lat: dict[int, list[float]] = defaultdict(list)
    for a in day.acks:
        lat[int(a.sent // 5) * 5].append((a.acked - a.sent) * 1000)
    p50 = [(float(t), quantile(v, 0.5)) for t, v in sorted(lat.items())]
    p99 = [(float(t), quantile(v, 0.99)) for t, v in sorted(lat.items())]
    cpu = {
        k: [(row["t"], row.get(k, 0.0)) for row in day.cpu]
        for k in ("servers", "nginx", "postgres", "redis")
    }
    zeros = ["lost_moves", "phantom_moves", "changed_decisions", "http_5xx", "unfinished_games"]
    rows = "".join(
        f"<tr><th>{k}</th><td>{html.escape(str(fig[k]))}</td>"
        f"<td>{'ok' if fig[k] == 0 else 'FOUND'}</td></tr>"
        for k in zeros
    )
    other = "".join(
        f"<tr><th>{k}</th><td colspan=2>{html.escape(json.dumps(fig[k], default=str))}</td></tr>"
        for k in (
            "acknowledged_moves",
            "stored_moves",
            "stored_twice",
            "standings_equal_opengotha",
            "standings_equal_opengotha_reason",
            "ack_p50_ms_outside_faults",
            "ack_p99_ms_outside_faults",
            "recovery_s_max",
            "cpu_s_per_1000_moves",
            "http_503_retried",
            "endings",
            "calls",
            "rulings",
            "room_ms",
            "reconnects",
        )
    )
    rounds = "".join(
        f"<tr><td>{r['round']}</td><td>{r['boards']}</td><td>{r['finished']}</td>"
        f"<td>{r['start']:.0f}</td><td>{r['played']:.0f}</td><td>{r['results_in']:.0f}</td></tr>"
        for r in day.rounds
    )
    faults = "".join(
        f"<tr><td>{html.escape(r['fault'])}</td><td>{r['start']:.1f}</td><td>{r['end']:.1f}</td>"
        f"<td>{r['recovery_s']:.2f}</td></tr>"
        for r in fig["recovery"]
    )
    tables = []
    for game, table in (day.decisions.get("standings") or {}).items():
        rows_ = table.get("rows", table.get("standings", []))[:20]
        if not rows_:
            continue
        keys = [k for k in rows_[0] if not isinstance(rows_[0][k], (dict, list))][:8]
        head = "".join(f"<th>{html.escape(k)}</th>" for k in keys)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(r.get(k, '')))}</td>" for k in keys) + "</tr>"
            for r in rows_
        )
        tables.append(f"<h3>{game}: the first 20</h3><table><tr>{head}</tr>{body}</table>")
    findings = (
        "".join(
            f"<li>{html.escape(str(x))}</li>"
            for x in [
                *fig["details"]["lost"],
                *fig["details"]["phantom"],
                *fig["details"]["changed"],
                *fig["details"]["unfinished"],
                *(f"{k}: {v}" for k, v in fig["five_xx_by_route"].items()),
                *day.notes,
            ]
        )
        or "<li>nothing</li>"
    )
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>duiyi event day: {fig["players"]} players, {fig["rounds"]} rounds</title>
<style>body{{font:14px system-ui,sans-serif;margin:2em;max-width:60em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 8px;text-align:left}}</style></head><body>
<h1>Event day: a Go Swiss and a Gomoku Swiss of {fig["players"]} players, {fig["rounds"]} rounds</h1>
<p>nginx + 3 duiyi processes + PostgreSQL + Redis on this machine ({os.cpu_count()} cores);
faults {"injected" if fig["faults"] else "not injected"} (shaded in the timelines).</p>
<h2>What the check found</h2><table>{rows}{other}</table>
<h2>Timelines</h2>
{svg_lines({"acknowledged actions per s": rate}, day.faults, "moves per second", "1/s", until=horizon)}
{svg_lines({"p50": p50, "p99": p99}, day.faults, "acknowledgement time by 5 s of sending", "ms", until=horizon)}
{svg_lines(cpu, day.faults, "CPU by process kind", "CPU s per s", until=horizon)}
<h2>Faults and recovery</h2><table><tr><th>fault</th><th>start s</th><th>whole again s</th>
<th>recovery s</th></tr>{faults}</table>
<p>Recovery: the longest any player still waited for an acknowledgement once the machines were
whole again (a process restarted, resumed, a service back).</p>
<h2>Rounds</h2><table><tr><th>round</th><th>boards</th><th>games finished</th><th>started s</th>
<th>played s</th><th>results in s</th></tr>{rounds}</table>
<h2>Standings</h2>{"".join(tables)}
<h2>Findings and notes</h2><ul>{findings}</ul>
</body></html>"""


# ------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--players", type=int, default=1000, help="players of each event")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--faults", action="store_true", help="kill -9, SIGSTOP, Redis, PostgreSQL")
    ap.add_argument("--out", default="var/event-day")
    ap.add_argument("--think", type=float, default=0.6, help="median seconds a bot thinks")
    ap.add_argument("--base", type=float, default=30.0, help="each side's time (absolute), s")
    ap.add_argument(
        "--moves",
        type=lambda s: tuple(int(x) for x in s.split("-")),
        default=(8, 16),
        help="Go moves a side before its ending, LOW-HIGH",
    )
    ap.add_argument("--calls", type=float, default=0.15, help="share of boards calling")
    ap.add_argument("--fault-gap", type=float, default=8.0, help="seconds between faults")
    ap.add_argument("--round-minutes", type=float, default=4.0, help="a round's longest play")
    ap.add_argument("--max-minutes", type=float, default=120.0, help="the day's longest run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg-bin", help="folder of initdb and postgres")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # every bot comes from 127.0.0.1: lift the per-client limits (as bench/cluster.py does)
    os.environ.update(
        DUIYI_RATE_PER_SECOND="100000",
        DUIYI_MAX_SOCKETS_PER_CLIENT="100000",
        DUIYI_MAX_CONNECTIONS_PER_CLIENT="100000",
        DUIYI_MAX_EVENTS_PER_CLIENT="1000",
    )
    from tests.server.nginx import start_cluster

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="duiyi-eventday-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)
        say("starting PostgreSQL, Redis, 3 processes and nginx")
        pg = cluster.PrivatePostgres(work, args.pg_bin).start()
        redis = cluster.PrivateRedis(work).start()
        try:
            with cluster.database(pg.admin) as dsn:
                url = dsn.replace("postgresql://", "postgresql+psycopg://")
                deployment = start_cluster(url, redis.url, work)
                say("the deployment is up")
                try:
                    day = asyncio.run(run_day(args, deployment, pg, redis, dsn))
                finally:
                    deployment.stop()
                    (out / "logs").mkdir(exist_ok=True)
                    for name in ("error.log", "access.log"):
                        path = deployment.nginx.prefix / name
                        if path.exists():
                            (out / "logs" / f"nginx-{name}").write_bytes(
                                path.read_bytes()[-2_000_000:]
                            )
                    for log in work.glob("server-*.log"):
                        (out / "logs").mkdir(exist_ok=True)
                        (out / "logs" / log.name).write_bytes(log.read_bytes()[-200_000:])
        finally:
            redis.stop()
            pg.stop()
    say("stopped; figures")
    compare_opengotha(day, out)
    fig = figures(day, args)
    (out / "figures.json").write_text(json.dumps(fig, indent=1, default=str) + "\n")
    (out / "report.html").write_text(report_html(day, fig))
    keys = [
        "acknowledged_moves",
        "stored_moves",
        "lost_moves",
        "phantom_moves",
        "changed_decisions",
        "http_5xx",
        "unfinished_games",
        "standings_equal_opengotha",
        "ack_p99_ms_outside_faults",
        "recovery_s_max",
        "cpu_s_per_1000_moves",
        "reconnects",
        "takeovers",
        "games_lost",
        "sockets_moved_4409",
        "socket_closes_by_code",
    ]
    for k in keys:
        print(f"{k}: {fig[k]}")
    print(f"written: {out / 'figures.json'}, {out / 'report.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
