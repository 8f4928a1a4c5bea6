"""Fixtures: a real `duiyi serve` process on a free port, on SQLite or on the machine's PostgreSQL
(+ Redis). The PostgreSQL variant creates a fresh database per test and drops it afterwards."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from websockets.typing import Subprotocol

PG_ADMIN = os.environ.get("DUIYI_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("DUIYI_TEST_REDIS", "redis://127.0.0.1:6379/0")


# every test server's operator key (DUIYI_OPERATOR_KEY): GET /api/metrics asks for it
OPERATOR_KEY = "test-operator-" + secrets.token_urlsafe(12)


def operator() -> dict[str, str]:
    """The headers of the operator's requests (``GET /api/metrics``)."""
    return {"Authorization": f"Bearer {OPERATOR_KEY}"}


def bearer(token: str) -> list[Subprotocol]:
    """The subprotocols a client offers to authenticate a socket (never a query string)."""
    return [*spectating(), Subprotocol(f"bearer.{token}")]


def spectating() -> list[Subprotocol]:
    """The subprotocol every socket offers (the server refuses a handshake without it)."""
    return [Subprotocol("duiyi")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) process ``pid`` has used so far; None without /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_healthy(
    what: str,
    url: str,
    proc: subprocess.Popen[bytes],
    output: Callable[[], str],
    within: float = 30.0,
) -> None:
    """Poll ``url``/api/health until it answers 200; RuntimeError with ``output()`` when the
    process exits first, or has used ``within`` seconds of CPU without answering (servers,
    nginx in front of them). A loaded machine (CI runs the suite on two cores, the shared
    machine more) makes a start slower, not costlier: a server starts in about 1.5 CPU seconds
    but took over 30 s of wall time at a load of 20. The wall clock stops only a process that
    hangs without using the CPU: after ``4 * within`` seconds."""
    started = time.monotonic()
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} died at start:\n{output()}")
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        waited = time.monotonic() - started
        used = cpu_seconds(proc.pid)
        if waited > 4 * within or (waited > within and (used is None or used > within)):
            break
        time.sleep(0.1)
    raise RuntimeError(
        f"{what} did not answer {url}/api/health ({waited:.0f} s, CPU {used} s):\n{output()}"
    )


@dataclass
class Server:
    """A running `duiyi serve` process."""

    database: str
    redis: str | None
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    extra: tuple[str, ...] = ()
    # None: the server's default level (what an operator gets without asking)
    log_level: str | None = "warning"
    env: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, tmp: Path, within: float = 30.0) -> Server:
        self.log = tmp / f"server-{self.port}-{secrets.token_hex(3)}.log"
        cmd = [sys.executable, "-m", "duiyi", "serve", "--port", str(self.port)]
        cmd += ["--database", self.database]
        if self.log_level is not None:
            cmd += ["--log-level", self.log_level]
        if self.redis:
            cmd += ["--redis", self.redis]
        cmd += list(self.extra)
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "DUIYI_OPERATOR_KEY": OPERATOR_KEY,
            **self.env,
        }
        env.pop("DUIYI_DATABASE_URL", None)
        env.pop("DUIYI_REDIS_URL", None)
        self.proc = subprocess.Popen(
            cmd, stdout=self.log.open("wb"), stderr=subprocess.STDOUT, env=env, cwd=tmp
        )
        log = self.log
        output = lambda: log.read_text(errors="replace")  # noqa: E731
        wait_healthy("server", self.url, self.proc, output, within)
        return self

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def online_event_game(url: str, online: dict[str, object] | None = None, game: str = "go") -> dict:
    """Round 1's one game of a new online Swiss of two players (A and B), as the desk made it:
    ``{"game_id", "black_token", "white_token", ...}``."""
    r = httpx.post(
        url + "/api/events",
        json={
            "name": "Cup",
            "game": game,
            "system": "swiss",
            "rounds": 1,
            "online": online or {"size": 9},
        },
    )
    assert r.status_code == 201, r.text
    ev = r.json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    httpx.post(
        f"{url}/api/events/{ev['id']}/players",
        content="A\nB\n",
        headers={**org, "Content-Type": "text/plain"},
    )
    httpx.post(f"{url}/api/events/{ev['id']}/rounds", headers=org)
    games = httpx.post(f"{url}/api/events/{ev['id']}/rounds/1/games", headers=org)
    first: dict = games.json()["games"][0]
    return first


def _pg_create() -> str:
    import psycopg

    name = "duiyi_test_" + secrets.token_hex(4)
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return name


def _pg_drop(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Backend:
    """Where a test's servers keep their data."""

    name: str
    database: str
    redis: str | None


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", f"sqlite:///{tmp_path / 'duiyi.sqlite3'}", None)
        return
    name = _pg_create()
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    try:
        yield Backend("postgres", f"{base}/{name}", REDIS_URL)
    finally:
        _pg_drop(name)


@pytest.fixture
def start_server(backend: Backend, tmp_path: Path) -> Iterator[object]:
    started: list[Server] = []

    def start(port: int | None = None, env: dict[str, str] | None = None) -> Server:
        server = Server(backend.database, backend.redis, env=dict(env or {}))
        if port is not None:
            server.port = port
        server.start(tmp_path)
        started.append(server)
        return server

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def server(start_server: object) -> Server:
    return start_server()  # type: ignore[operator, no-any-return]


class PrivateRedis:
    """A redis-server of this test only, on its own port (stopped and started again)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A private redis-server (never the machine's: other tests use it), stopped after."""
    r = PrivateRedis(tmp_path)
    r.start()
    yield r
    r.stop()
