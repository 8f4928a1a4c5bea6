"""Three `duiyi serve` processes on one PostgreSQL + Redis behind a real nginx (the deployment of
docs/deploy.md, deploy/nginx-duiyi.conf): games played through nginx over HTTP and WebSocket
are stored once and seen the same way by every process, also while processes are paused
(SIGSTOP) and killed (-9, restarted) at random (a seeded chaos run of about 30 s)."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from tests.server.conftest import Backend, spectating
from tests.server.nginx import Cluster, start_cluster
from websockets.sync.client import ClientConnection, connect

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("backend", ["postgres"], indirect=True),
]

COLUMNS = "ABCDEFGHJKLMNOPQRST"
# Black fills rows 1-7, White rows 13-19 of a 19x19 board: the stones of the two colours never
# touch, so there is no capture and every move on an empty point is legal (Go §5).
POINTS = {
    "black": [f"{c}{r}" for r in range(1, 8) for c in COLUMNS],
    "white": [f"{c}{r}" for r in range(19, 12, -1) for c in COLUMNS],
}


@pytest.fixture
def cluster(backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cluster]:
    assert backend.redis is not None
    # every request reaches the processes from nginx's address: lift the per-client rate limit
    monkeypatch.setenv("DUIYI_RATE_PER_SECOND", "100000")
    monkeypatch.setenv("DUIYI_PROXY_HEADER", "X-Forwarded-For")
    c = start_cluster(backend.database, backend.redis, tmp_path)
    try:
        yield c
    finally:
        c.stop()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def stored_log(backend: Backend, game_id: str) -> list[dict[str, Any]]:
    """The game's log as committed in PostgreSQL (the truth every process must serve)."""
    dsn = backend.database.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT version, entry FROM game_actions WHERE game_id = %s ORDER BY version",
            (game_id,),
        ).fetchall()
    assert [v for v, _ in rows] == list(range(1, len(rows) + 1)), "versions without a gap"
    return [e if isinstance(e, dict) else json.loads(e) for _, e in rows]


def stored_moves(log: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["player"], e["point"]) for e in log if e["type"] == "move"]


def views_agree(cluster: Cluster, game_id: str, log: list[dict[str, Any]]) -> list[str]:
    """What each process answers for the game, compared with the stored log; [] when all agree."""
    moves = stored_moves(log)
    problems = []
    for i, server in enumerate(cluster.servers):
        state = httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).json()
        seen = [(m[0], m[1]) for m in state["moves"]]
        if state["version"] != len(log) or seen != moves:
            problems.append(
                f"process {i} serves version {state['version']} with {len(seen)} moves; "
                f"stored: version {len(log)}, {len(moves)} moves"
            )
        actions = httpx.get(
            f"{server.url}/api/games/{game_id}/actions", params={"after": 0}, timeout=10
        ).json()
        if [(a["v"], a["type"], a.get("point")) for a in actions["actions"]] != [
            (e["v"], e["type"], e.get("point")) for e in log
        ]:
            problems.append(f"process {i} serves a log that is not the stored one")
    return problems


def upstreams_used(cluster: Cluster) -> set[str]:
    """The processes nginx sent requests to (its access log's last field)."""
    assert cluster.nginx.prefix is not None
    lines = (cluster.nginx.prefix / "access.log").read_text().splitlines()
    return {line.rsplit(" ", 1)[-1] for line in lines}


def play_http(url: str, game: dict[str, Any], moves: int) -> list[tuple[int, str]]:
    acked = []
    with httpx.Client(base_url=url, timeout=20) as client:
        for i in range(moves):
            color = "black" if i % 2 == 0 else "white"
            point = POINTS[color][i // 2]
            r = client.post(
                f"/api/games/{game['id']}/actions",
                json={"type": "move", "move": point},
                headers=auth(game[f"{color}_token"]),
            )
            assert r.status_code == 200, r.text
            acked.append((r.json()["version"], point))
    return acked


def recv_until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(20))
        if msg["type"] == kind:
            return msg
        assert msg["type"] != "error", msg


def play_ws(ws_url: str, game: dict[str, Any], moves: int) -> list[tuple[int, str]]:
    """Both players on their own socket through nginx (round robin: usually two processes);
    each move is acknowledged to the mover and pushed to the other player."""
    acked = []
    url = f"{ws_url}/api/games/{game['id']}/socket"
    with (
        connect(
            url, additional_headers=auth(game["black_token"]), subprotocols=spectating()
        ) as black,
        connect(
            url, additional_headers=auth(game["white_token"]), subprotocols=spectating()
        ) as white,
    ):
        assert recv_until(black, "hello")["seat"] == "black"
        assert recv_until(white, "hello")["seat"] == "white"
        for i in range(moves):
            color = "black" if i % 2 == 0 else "white"
            mover, other = (black, white) if color == "black" else (white, black)
            point = POINTS[color][i // 2]
            mover.send(
                json.dumps({"type": "act", "ref": i, "action": {"type": "move", "move": point}})
            )
            ack = recv_until(mover, "ack")
            assert ack["ref"] == i
            acked.append((ack["version"], point))
            # the opponent's socket (maybe on another process) sees the move, in order (after
            # the update of its own previous move)
            update = recv_until(other, "update")
            while update["version"] < ack["version"]:
                update = recv_until(other, "update")
            assert update["version"] == ack["version"]
            assert update["state"]["moves"][-1][1] == point
    return acked


def test_games_through_nginx(cluster: Cluster, backend: Backend) -> None:
    url = cluster.nginx.url
    games = [
        httpx.post(url + "/api/games", json={"game": "go", "size": 19}).json() for _ in range(6)
    ]
    acked: dict[str, list[tuple[int, str]]] = {}
    failures: list[BaseException] = []

    def play(game: dict[str, Any], transport: str) -> None:
        try:
            if transport == "http":
                acked[game["id"]] = play_http(url, game, 16)
            else:
                acked[game["id"]] = play_ws(cluster.nginx.ws_url, game, 16)
        except BaseException as exc:  # reported below with the processes' logs
            failures.append(exc)

    threads = [
        threading.Thread(target=play, args=(g, "http" if n % 2 else "ws"))
        for n, g in enumerate(games)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures, f"{failures!r}\n{cluster.logs()}"
    for game in games:
        log = stored_log(backend, game["id"])
        # every acknowledged move is stored at the version its acknowledgement named
        for version, point in acked[game["id"]]:
            assert log[version - 1]["point"] == point
        assert len(stored_moves(log)) == 16
        assert views_agree(cluster, game["id"], log) == []
    # nginx spread the requests over the three processes
    assert len(upstreams_used(cluster) & {f"127.0.0.1:{s.port}" for s in cluster.servers}) == 3


# --- chaos: processes paused and killed at random while clients play through nginx ----------

CHAOS_SECONDS = 30.0


@dataclass
class Ledger:
    """What the clients of one game were told."""

    acked: dict[int, str] = field(default_factory=dict)  # version -> point
    refused: dict[str, str] = field(default_factory=dict)  # point -> the error answered
    unknown: set[str] = field(default_factory=set)  # sent, no answer (timeout, dropped)
    violations: list[str] = field(default_factory=list)
    errors: collections.Counter[int] = field(default_factory=collections.Counter)
    stale_reads: int = 0
    history: list[str] = field(default_factory=list)  # every attempt, for the failure message
    last_ack: float = 0.0
    longest_gap: float = 0.0  # seconds without an acknowledgement (a failover, seen by a client)
    details: collections.Counter[str] = field(default_factory=collections.Counter)


class Player:
    """Plays both seats of one game through nginx, over HTTP or over one socket per seat; each
    move is sent once: after an error it is never sent again (so a move answered with an error
    and applied later shows in the stored log)."""

    def __init__(self, cluster: Cluster, game: dict[str, Any], transport: str) -> None:
        self.url = cluster.nginx.url
        self.ws_url = f"{cluster.nginx.ws_url}/api/games/{game['id']}/socket"
        self.game = game
        self.transport = transport
        self.ledger = Ledger()
        self.sockets: dict[str, ClientConnection] = {}
        self.http = httpx.Client(base_url=self.url, timeout=4)
        self.ref = 0

    def state(self) -> dict[str, Any] | None:
        try:
            r = self.http.get(f"/api/games/{self.game['id']}")
        except httpx.HTTPError:
            return None
        return r.json() if r.status_code == 200 else None

    def send(self, color: str, point: str) -> tuple[str, Any]:
        """("ack", version), ("error", (status, detail)) or ("unknown", why)."""
        action = {"type": "move", "move": point}
        token = self.game[f"{color}_token"]
        if self.transport == "http":
            try:
                r = self.http.post(
                    f"/api/games/{self.game['id']}/actions", json=action, headers=auth(token)
                )
            except httpx.HTTPError as exc:
                return "unknown", repr(exc)
            if r.status_code == 200:
                return "ack", r.json()["version"]
            if r.headers.get("content-type", "").startswith("application/problem+json"):
                return "error", (r.status_code, r.json().get("detail"))
            return "unknown", f"{r.status_code} from nginx"  # 502/504: no process answered
        try:
            ws = self.sockets.get(color)
            if ws is None:
                ws = self.sockets[color] = connect(
                    self.ws_url,
                    additional_headers=auth(token),
                    subprotocols=spectating(),
                    open_timeout=4,
                    legacy=True,
                )
                recv_until(ws, "hello")
            self.ref += 1
            ws.send(json.dumps({"type": "act", "ref": self.ref, "action": action}))
            while True:
                msg = json.loads(ws.recv(4))
                if msg.get("ref") == self.ref and msg["type"] == "ack":
                    return "ack", msg["version"]
                if msg.get("ref") == self.ref and msg["type"] == "error":
                    problem = msg["problem"]
                    return "error", (problem.get("status"), problem.get("detail"))
        except Exception as exc:  # timeout, closed socket, refused handshake
            self.drop(color)
            return "unknown", repr(exc)

    def drop(self, color: str) -> None:
        ws = self.sockets.pop(color, None)
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()

    def play(self, until: float) -> None:
        ledger = self.ledger
        while time.monotonic() < until:
            state = self.state()
            if state is None:
                time.sleep(0.2)
                continue
            color = state["to_move"]
            if color not in POINTS:
                break
            if state["version"] < max(ledger.acked, default=0):
                ledger.stale_reads += 1  # a process behind what another acknowledged
            # a point acknowledged or refused is never sent again
            done = {m[1] for m in state["moves"]} | set(ledger.acked.values())
            left = [p for p in POINTS[color] if p not in done and p not in ledger.refused]
            if not left:
                break
            point = left[0]
            time.sleep(0.1)  # a player's thinking time (and the shared machine's two cores)
            sent = time.monotonic()
            outcome, value = self.send(color, point)
            ledger.history.append(
                f"{sent:.1f}-{time.monotonic():.1f} {color} {point} read v{state['version']}: "
                f"{outcome} {value}"
            )
            if outcome == "ack":
                if ledger.acked.get(value, point) != point:
                    ledger.violations.append(
                        f"version {value} acknowledged twice: {ledger.acked[value]} and {point}"
                    )
                ledger.acked[value] = point
                now = time.monotonic()
                if ledger.last_ack:
                    ledger.longest_gap = max(ledger.longest_gap, now - ledger.last_ack)
                ledger.last_ack = now
            elif outcome == "error":
                ledger.refused[point] = f"{value[0]} {value[1]}"
                ledger.errors[value[0]] += 1
                ledger.details[f"{value[0]} {value[1]}"[:60]] += 1
                time.sleep(0.1)
            else:
                ledger.unknown.add(point)
                time.sleep(0.2)
        for color in list(self.sockets):
            self.drop(color)
        self.http.close()


def chaos(cluster: Cluster, rng: random.Random, until: float, journal: list[str]) -> None:
    """One disturbance at a time: SIGSTOP a process for 2-5 s, or kill -9 it and restart it."""
    start = time.monotonic()
    while time.monotonic() < until - 6:
        time.sleep(rng.uniform(1.0, 3.0))
        i = rng.randrange(len(cluster.servers))
        at = time.monotonic() - start
        if rng.random() < 0.6:
            pause = rng.uniform(2.0, 5.0)
            journal.append(f"{at:5.1f}s SIGSTOP process {i} for {pause:.1f}s")
            cluster.pause(i)
            time.sleep(pause)
            cluster.resume(i)
        else:
            journal.append(f"{at:5.1f}s kill -9 process {i}, restart")
            cluster.kill9_and_restart(i)


def test_chaos_through_nginx(cluster: Cluster, backend: Backend) -> None:
    seed = int(os.environ.get("DUIYI_CHAOS_SEED", random.SystemRandom().randrange(1 << 30)))
    print(f"chaos seed {seed} (DUIYI_CHAOS_SEED={seed} replays the same disturbances)")
    rng = random.Random(seed)
    url = cluster.nginx.url
    games = [
        httpx.post(url + "/api/games", json={"game": "go", "size": 19}).json() for _ in range(6)
    ]
    players = [Player(cluster, g, "http" if n % 2 else "ws") for n, g in enumerate(games)]
    until = time.monotonic() + CHAOS_SECONDS
    journal: list[str] = []
    threads = [threading.Thread(target=p.play, args=(until,)) for p in players]
    for t in threads:
        t.start()
    chaos(cluster, rng, until, journal)
    for t in threads:
        t.join(30)
    for i in list(cluster.stopped):
        cluster.resume(i)
    print("\n".join(journal))
    report = []
    # the processes have had time to settle (heartbeats older than 5 s mean dead): every one of
    # them must now serve the stored log
    time.sleep(6)
    for player in players:
        gid = player.game["id"]
        ledger = player.ledger
        log = stored_log(backend, gid)
        moves = stored_moves(log)
        points = [p for _, p in moves]
        print(
            f"game {gid} ({player.transport}): {len(ledger.acked)} acknowledged, "
            f"{len(moves)} stored, errors {dict(ledger.errors)}, {len(ledger.unknown)} unanswered, "
            f"{ledger.stale_reads} reads older than an acknowledgement, "
            f"longest wait between two acks {ledger.longest_gap:.1f} s"
        )
        for detail, n in ledger.details.most_common(3):
            print(f"    {n} x {detail}")
        report += [f"game {gid}: {v}" for v in ledger.violations]
        for version, point in sorted(ledger.acked.items()):
            entry = log[version - 1] if version <= len(log) else None
            if entry is None or entry.get("point") != point:
                report.append(f"game {gid}: {point} acknowledged as version {version} is lost")
        if len(points) != len(set(points)):
            report.append(f"game {gid}: a move stored twice: {points}")
        for point, error in ledger.refused.items():
            if point in points and point not in ledger.unknown | set(ledger.acked.values()):
                report.append(f"game {gid}: {point} answered '{error}' was applied anyway")
                report += [f"    {h}" for h in ledger.history if f" {point} " in h]
        report += [f"game {gid}: {p}" for p in views_agree(cluster, gid, log)]
    assert not report, "\n".join([f"seed {seed}", *report, *journal, cluster.logs()])
