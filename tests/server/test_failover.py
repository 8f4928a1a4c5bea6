"""Two processes on one PostgreSQL + Redis, the owner of a game paused with SIGSTOP (issue 12):
the other process takes over, the paused one can never commit again (fencing on the owner column
in the same statement that commits), an action it was forwarded and answered with an error is
never applied later, and sockets on either process are told to reconnect instead of freezing.
Run twice: the creator owns its game, and (issue 26) the game's ring owner owns it
(DUIYI_PEERS), which also takes the game back once it is up again."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import redis
from tests.server.conftest import Backend, Server, bearer, free_port, operator, spectating
from tests.server.nginx import Cluster, start_cluster, wait_peers_alive
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from duiyi.server.cluster.ring import HashRing


def _until_closed(ws: ClientConnection, within: float) -> tuple[int | None, float]:
    """Read until the server closes; its close code and when (monotonic)."""
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the socket was never closed"
        try:
            ws.recv(left)
        except ConnectionClosed as exc:
            return (exc.rcvd.code if exc.rcvd else None), time.monotonic()
        except TimeoutError as exc:
            raise AssertionError("the socket stayed open on a game nobody serves") from exc


def _act_socket(ws: ClientConnection, action: dict[str, Any]) -> dict[str, Any]:
    ws.send(json.dumps({"type": "act", "ref": "x", "action": action}))
    while True:
        m: dict[str, Any] = json.loads(ws.recv(15))
        if m["type"] in ("ack", "error"):
            return m


def _act_following(url: str, owner_url: str, token: str, move: str, before: int) -> int:
    """Play ``move`` on a socket at ``url`` from version ``before``; when the socket is told to
    reconnect (4409: the game changed hands), connect to ``owner_url`` and play it there, once:
    a move applied before the socket closed is not sent again. Answers the version after it."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with connect(url, subprotocols=bearer(token)) as ws:
                version: int = json.loads(ws.recv(10))["version"]
                if version == before + 1:
                    return version  # applied, its acknowledgement lost with the old socket
                assert version == before
                ack = _act_socket(ws, {"type": "move", "move": move})
                assert ack["type"] == "ack", ack
                after: int = ack["version"]
                return after
        except ConnectionClosed as exc:
            if not (exc.rcvd and exc.rcvd.code == 4409) or time.monotonic() > deadline:
                raise
            url = owner_url


def _owned_by_a(a: Server, ring: HashRing | None) -> dict[str, Any]:
    """A new game created through A and owned by A: without peers the creator owns it; with
    them (issue 26) its ring owner, so games are created until one's ring owner is A."""
    for _ in range(40):
        g: dict[str, Any] = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()
        if ring is None or ring.owner(g["id"]) == f"127.0.0.1:{a.port}":
            return g
    raise AssertionError("no game of 40 fell on A's part of the ring")


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
@pytest.mark.parametrize("peers", [False, True], ids=["creator-owns", "ring"])
def test_a_paused_owner_is_fenced_out(
    backend: Backend, start_server: Any, peers: bool, tmp_path: Path
) -> None:
    ports = [free_port(), free_port()]
    addresses = [f"127.0.0.1:{p}" for p in ports]
    # with DUIYI_PEERS, as behind nginx's consistent hash: the owner is the game's ring owner
    env = {"DUIYI_PEERS": ",".join(addresses)} if peers else {}
    a: Server = start_server(ports[0], env)
    b: Server = start_server(ports[1], env)
    ring = HashRing(addresses) if peers else None
    assert a.proc is not None
    g = _owned_by_a(a, ring)  # A owns it
    gid = g["id"]
    held_by_a = _owner_in_store(backend, gid)
    white_auth = {"Authorization": f"Bearer {g['white_token']}"}
    url_a = f"{a.ws_url}/api/games/{gid}/socket"
    url_b = f"{b.ws_url}/api/games/{gid}/socket"
    with connect(url_b, subprotocols=bearer(g["black_token"])) as black:
        json.loads(black.recv(5))
        assert _act_socket(black, {"type": "move", "move": "E5"})["version"] == 1
    sockets = contextlib.ExitStack()
    watcher_on_b = sockets.enter_context(
        connect(url_b, subprotocols=spectating())
    )  # on the surviving process
    json.loads(watcher_on_b.recv(5))
    spectator_on_a = sockets.enter_context(
        connect(url_a, subprotocols=spectating())
    )  # on the process about to pause
    json.loads(spectator_on_a.recv(5))
    a.proc.send_signal(signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        with ThreadPoolExecutor(1) as pool:
            # white plays through B while A (the owner) is paused: forwarded, never answered
            late = pool.submit(
                httpx.post,
                f"{b.url}/api/games/{gid}/actions",
                json={"type": "move", "move": "C3"},
                headers=white_auth,
                timeout=30,
            )
            # B's sockets on the game are told to reconnect, not left frozen
            code, when = _until_closed(watcher_on_b, within=15)
            assert code == 4409
            assert when - stopped < 5.0 + 2.0  # staleness limit + the 2 s of the issue
            answer = late.result(30)
        assert answer.status_code == 503, answer.text
        # a read on B is answered from the stored truth (version 1, white to play) and takes
        # nothing over; a socket on B does (A is stale): B serves the game from the store
        state = httpx.get(f"{b.url}/api/games/{gid}", timeout=10).json()
        assert state["version"] == 1 and state["to_move"] == "white"
        with connect(url_b, subprotocols=spectating()) as taking:
            hello = json.loads(taking.recv(10))
        assert hello["version"] == 1 and hello["state"]["to_move"] == "white"
        assert _owner_in_store(backend, gid) != held_by_a  # taken over by B
    finally:
        a.proc.send_signal(signal.SIGCONT)
    # A wakes up: the forwarded C3 B refused (its id's tombstone) is not applied, nor is
    # anything else A would commit (fenced)
    # (with the ring, A, the game's ring owner awake again, may take it back from B at any
    # moment: B's socket is then told to reconnect (4409) and the client goes to the owner)
    owner_url = url_a if peers else url_b
    assert _act_following(url_b, owner_url, g["white_token"], "G7", before=1) == 2
    # the socket on A learns that A no longer serves the game
    code, _ = _until_closed(spectator_on_a, within=10)
    assert code == 4409
    # a legitimate move through the resumed process is accepted (forwarded to B; with the ring,
    # A is the game's ring owner again and takes it back from B, telling B)
    with connect(url_a, subprotocols=bearer(g["black_token"])) as black:
        hello = json.loads(black.recv(10))
        assert hello["version"] == 2
        assert _act_socket(black, {"type": "move", "move": "C3"})["version"] == 3
    if peers:
        published = httpx.get(f"{a.url}/api/metrics", headers=operator(), timeout=10).json()[
            "published"
        ]
        assert published.get("takeover", 0) >= 1
    sockets.close()
    time.sleep(0.5)
    # both processes serve the stored truth: E5, G7, C3, nothing else
    for server in (a, b):
        state = httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json()
        assert [m[1] for m in state["moves"]] == ["E5", "G7", "C3"], server.url
        log = httpx.get(f"{server.url}/api/games/{gid}/actions", timeout=10).json()
        assert [x.get("point") for x in log["actions"]] == ["E5", "G7", "C3"]
    # the requests that reached the process not owning the game while it moved are no
    # misconfiguration of DUIYI_PEERS: neither process warned of one (duiyi.server.cluster.misrouting)
    logs = "".join(p.read_text(errors="replace") for p in tmp_path.glob("server-*.log"))
    assert "owner on the ring" not in logs


def _owner_in_store(backend: Backend, game_id: str) -> str:
    dsn = backend.database.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT owner FROM games WHERE id = %s", (game_id,)).fetchone()
    assert row is not None
    return str(row[0])


def _messages_until_closed(ws: ClientConnection, within: float) -> tuple[list[dict[str, Any]], int]:
    """Every message the socket gets before the server closes it, and the close code (0: not
    closed ``within`` seconds)."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        try:
            got.append(json.loads(ws.recv(left)))
        except ConnectionClosed as exc:
            return got, (exc.rcvd.code if exc.rcvd else -1)
        except TimeoutError:
            break
    return got, 0  # not closed within the time


def _cut_from_redis(pid: int, redis_url: str) -> int:
    """Close, from Redis's side, every connection of process ``pid`` to it (what a Redis
    restart or its output-buffer limit does to a paused subscriber): the messages published
    to it meanwhile are lost. Returns how many were closed."""
    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    local_ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == port:
                    local_ports.append(int(local.rsplit(":", 1)[1], 16))
    client = redis.Redis.from_url(redis_url)
    try:
        return sum(
            client.client_kill_filter(_type=None, addr=f"127.0.0.1:{p}") for p in local_ports
        )
    finally:
        client.close()


@pytest.fixture
def cluster(backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cluster]:
    """nginx + 3 processes with DUIYI_PEERS (docs/deploy.md), every peer seen alive by all."""
    assert backend.redis is not None
    monkeypatch.setenv("DUIYI_RATE_PER_SECOND", "100000")
    monkeypatch.setenv("DUIYI_PROXY_HEADER", "X-Forwarded-For")
    c = start_cluster(backend.database, backend.redis, tmp_path)
    try:
        wait_peers_alive(c)
        yield c
    except BaseException:
        print(c.logs())
        raise
    finally:
        c.stop()


def _sockets_moved_away(
    cluster: Cluster, backend: Backend, *, pause: float, cut: bool, act: bool
) -> dict[str, tuple[list[dict[str, Any]], int]]:
    """A game through nginx, both players' sockets and a spectator's on its owner A; Black
    plays. Then A is paused for ``pause`` seconds (15: the event day's SIGSTOP) and its Redis
    connections may be closed (``cut``: the new owner's message saying it took the game never
    reaches A), and a socket is opened on the next process on the ring until it has taken the game
    over; with ``act`` White plays on its socket meanwhile (held by A: with ``pause`` the frame
    waits in the kernel until A runs again). Answers what each socket got within 5 s after A
    runs again, and its close code (0: still open). White then reconnects through nginx and
    sends its move again (same action id): applied once."""
    assert backend.redis is not None
    addresses = [f"127.0.0.1:{s.port}" for s in cluster.servers]
    ring = HashRing(addresses)
    g = httpx.post(cluster.nginx.url + "/api/games", json={"game": "go", "size": 9}).json()
    gid = g["id"]
    a = addresses.index(str(ring.owner(gid)))
    owner = cluster.servers[a]
    assert owner.proc is not None
    url = f"{cluster.nginx.ws_url}/api/games/{gid}/socket"
    late = {
        "type": "act",
        "ref": "late",
        "action": {"type": "move", "move": "C3", "action_id": "w1"},
    }
    with contextlib.ExitStack() as sockets:
        black = sockets.enter_context(connect(url, subprotocols=bearer(g["black_token"])))
        white = sockets.enter_context(connect(url, subprotocols=bearer(g["white_token"])))
        spectator = sockets.enter_context(connect(url, subprotocols=spectating()))
        for ws in (black, white, spectator):
            assert json.loads(ws.recv(10))["type"] == "hello"
        assert _act_socket(black, {"type": "move", "move": "E5"})["version"] == 1
        assert _owner_in_store(backend, gid).endswith("@" + addresses[a])
        began = time.monotonic()
        if pause:
            cluster.pause(a)
        try:
            if cut:
                assert _cut_from_redis(owner.proc.pid, backend.redis) > 0
            heir_address = str(ring.owner(gid, set(addresses) - {addresses[a]}))
            heir = cluster.servers[addresses.index(heir_address)]
            deadline = time.monotonic() + 30
            while not _owner_in_store(backend, gid).endswith("@" + heir_address):
                assert time.monotonic() < deadline, "the game was never taken over"
                # a socket takes the game over (a read never does: GameManager.find)
                with connect(
                    f"{heir.ws_url}/api/games/{gid}/socket", subprotocols=spectating()
                ) as s:
                    s.recv(10)
                time.sleep(0.5)
            if act:
                white.send(json.dumps(late))
            if pause:
                time.sleep(max(0.0, began + pause - time.monotonic()))
        finally:
            if pause:
                cluster.resume(a)
        seen = {
            name: _messages_until_closed(ws, within=5.0)
            for name, ws in (("black", black), ("spectator", spectator), ("white", white))
        }
    # White connects again through nginx and sends the same action: applied once
    with connect(url, subprotocols=bearer(g["white_token"])) as ws:
        hello = json.loads(ws.recv(10))
        ack = _act_socket(ws, late["action"])
        assert ack["type"] == "ack" and ack["version"] == 2, (hello["version"], ack)
    return seen


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
@pytest.mark.parametrize("message", ["heard", "lost"], ids=["takeover-heard", "takeover-lost"])
def test_a_resumed_owner_closes_its_sockets_with_4409_not_503(
    cluster: Cluster, backend: Backend, message: str
) -> None:
    """The event day's SIGSTOP (issue 33): the owner of a game is paused for 15 s, longer than
    the staleness limit, and another process takes the game over meanwhile. Once resumed, the
    old owner closes at once, with 4409 (the game moved), every socket it still holds of that
    game, so that the page or bot reconnects through nginx to the owner; an action that was
    waiting on such a socket is answered by that close, never by a 503 the client would have to
    interpret (``heard``). With ``lost`` its Redis connections are closed too (as a Redis restart
    during the pause would): the new owner's message never reaches it, nobody acts, and its
    idle sockets are still closed: it checks its games against the store once it sees that its
    heartbeat lapsed (docs/server.md, "Failover")."""
    seen = _sockets_moved_away(
        cluster, backend, pause=15.0, cut=message == "lost", act=message == "heard"
    )
    for name, (got, code) in seen.items():
        assert [m for m in got if m.get("type") == "error"] == [], (name, got)
        assert code == 4409, (name, code, got)


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_an_owner_cut_from_redis_closes_the_sockets_of_the_games_it_lost(
    cluster: Cluster, backend: Backend
) -> None:
    """The owner of a game stalls for 2 s (less than the staleness limit: its heartbeat does
    not lapse) while its Redis connections drop (a Redis restart): meanwhile the others see it
    not listening and the next on the ring takes the game over; the message saying so is lost.
    Once its Redis link is back it checks its games against the store, and closes the sockets
    of the game it lost with 4409 (they reconnect to the owner) rather than keeping them open
    on a game it no longer serves."""
    seen = _sockets_moved_away(cluster, backend, pause=2.0, cut=True, act=False)
    for name, (got, code) in seen.items():
        assert [m for m in got if m.get("type") == "error"] == [], (name, got)
        assert code == 4409, (name, code, got)
