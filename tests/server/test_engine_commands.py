"""Issue 25, finding 1 (critical) and the engine part of finding 6: engines come from the
operator's list only (docs/server.md, "Engines"); no request can make the server run a
command; engine processes see a minimal environment, end with the server (their whole process
group), and engine rounds count against the per-client and per-cluster engine caps."""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Server

FAKE = Path(__file__).resolve().parents[1] / "engines" / "fake_gtp.py"


def write_engines(tmp: Path, engines: dict[str, list[str]]) -> Path:
    """The operator's engine list (JSON): each a Go engine (GTP) with its argv."""
    path = tmp / f"engines-{secrets.token_hex(3)}.json"
    data = {"engines": {n: {"game": "go", "command": argv} for n, argv in engines.items()}}
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def marker(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pwned"
    yield path
    assert not path.exists(), "a command sent by a client ran on the server"


def attacks(marker: Path) -> list[str]:
    """The three commands of the finding, each of which would create ``marker``."""
    return [
        f"/bin/sh -c 'touch {marker}'",
        f"python3 -c \"open('{marker}', 'w')\"",
        f"../../bin/sh -c 'touch {marker}'",
    ]


def test_anonymous_requests_cannot_make_the_server_run_a_command(
    tmp_path: Path, marker: Path
) -> None:
    # The finding's three anonymous requests on a server that plays engine players (and
    # offers an engine): create an event (which hands out its organiser key), enter engine
    # players whose engine is a command, play the round. Every way of carrying a command is a
    # 422 problem and nothing runs: the marker file is never created.
    engines = write_engines(tmp_path, {"fake": [sys.executable, str(FAKE)]})
    server = Server(
        f"sqlite:///{tmp_path / 'db.sqlite3'}",
        None,
        extra=("--engine-players", "--engines", str(engines)),
    ).start(tmp_path)
    try:
        r = httpx.post(
            server.url + "/api/events",
            json={"name": "x", "game": "go", "system": "round-robin", "online": {"size": 9}},
        )
        assert r.status_code == 201, r.text
        event_id = r.json()["id"]
        key = {"Authorization": f"Bearer {r.json()['organiser_token']}"}
        url = f"{server.url}/api/events/{event_id}"
        for command in attacks(marker):
            for player in (
                {"name": "bot", "engine": command},
                {"name": "bot", "extra": {"engine": command}},
            ):
                r = httpx.post(url + "/players", json=[player, player], headers=key)
                assert r.status_code == 422, r.text
                assert r.headers["content-type"].startswith("application/problem+json")
            csv = f'name,engine\na,"{command}"\nb,"{command}"\n'.replace("'", "")
            r = httpx.post(
                url + "/players", content=csv, headers={**key, "Content-Type": "text/csv"}
            )
            assert r.status_code == 422, r.text
        # players entered as people, then given a command as their engine column: refused
        r = httpx.post(url + "/players", json=[{"name": "a"}, {"name": "b"}], headers=key)
        assert r.status_code == 200, r.text
        for command in attacks(marker):
            r = httpx.patch(url + "/players/1", json={"extra": {"engine": command}}, headers=key)
            assert r.status_code == 422, r.text
        r = httpx.post(url + "/rounds/1/play", json={}, headers=key)
        assert r.status_code == 409, r.text  # no board between two engines: nothing to run
        # a name the operator does not list is no engine either
        r = httpx.patch(url + "/players/1", json={"extra": {"engine": "sh"}}, headers=key)
        assert r.status_code == 200, r.text
        r = httpx.patch(url + "/players/2", json={"extra": {"engine": "fake"}}, headers=key)
        assert r.status_code == 200, r.text
        r = httpx.post(url + "/rounds/1/play", json={}, headers=key)
        assert r.status_code == 404 and "not an engine this server offers" in r.json()["detail"]
        assert httpx.get(url).json()["games"] == []
        # the game against the computer takes a name from the list, never a command
        for body in (
            {"game": "go", "engine": attacks(marker)[0]},
            {"game": "go", "engine": "fake", "command": ["/bin/sh", "-c", f"touch {marker}"]},
            {"game": "go", "engine": "fake", "argv": ["/bin/sh"]},
            {"game": "go", "engine": "../../bin/sh"},
        ):
            r = httpx.post(server.url + "/api/engine-games", json=body)
            assert r.status_code == 422, r.text
        time.sleep(1.0)  # anything started would have touched the marker by now
    finally:
        server.stop()


def test_an_engine_sees_an_allow_listed_environment_only(tmp_path: Path) -> None:
    # The server's environment holds secrets (database URL, passwords, tokens): an engine
    # process gets PATH, HOME, LANG and the like, nothing else.
    dump = tmp_path / "env.json"
    script = tmp_path / "envdump.py"
    script.write_text(
        "import json, os, runpy, sys\n"
        f"open({str(dump)!r}, 'w').write(json.dumps(dict(os.environ)))\n"
        f"sys.argv = [{str(FAKE)!r}]\n"
        f"runpy.run_path({str(FAKE)!r}, run_name='__main__')\n"
    )
    engines = write_engines(tmp_path, {"envdump": [sys.executable, str(script)]})
    secret = "s3cr3t-" + secrets.token_hex(4)
    server = Server(
        f"sqlite:///{tmp_path / 'db.sqlite3'}",
        None,
        extra=("--engines", str(engines)),
        env={"PGPASSWORD": secret, "DUIYI_ADMIN_TOKEN": secret, "LANG": "C.UTF-8"},
    ).start(tmp_path)
    try:
        r = httpx.post(
            server.url + "/api/engine-games", json={"game": "go", "size": 9, "human": "white"}
        )
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 60
        while not dump.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        seen = json.loads(dump.read_text())
    finally:
        server.stop()
    assert secret not in json.dumps(seen)
    assert set(seen) <= {"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"}, seen
    assert seen["LANG"] == "C.UTF-8" and "PATH" in seen


def processes_with(word: str) -> list[int]:
    """The pids whose command line holds ``word`` (read from /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if word.encode() in argv:
            found.append(int(proc.name))
    return found


def test_engine_processes_end_with_the_server(tmp_path: Path) -> None:
    # Finding 6: after SIGTERM, 14 engine processes were left running. Here each engine is
    # started by a shell wrapper that also leaves a child of its own (a `sleep`), and every
    # engine thinks forever: SIGTERM ends the server, and with it every engine process and
    # everything they started (their process groups).
    tag = f"{random.randrange(30_000, 39_999)}.{random.randrange(100, 999)}"
    wrapper = [
        "/bin/sh",
        "-c",
        f'sleep {tag} & exec "$0" "$1" --sleep-at 1:{tag} --name stall-{tag}',
        sys.executable,
        str(FAKE),
    ]
    engines = write_engines(tmp_path, {"stall": wrapper})
    server = Server(
        f"sqlite:///{tmp_path / 'db.sqlite3'}",
        None,
        extra=("--engine-players", "--engines", str(engines)),
        env={"DUIYI_MAX_ENGINE_GAMES_PER_CLIENT": "8"},
    ).start(tmp_path)
    try:
        r = httpx.post(
            server.url + "/api/events",
            json={"name": "x", "game": "go", "system": "round-robin", "online": {"size": 9}},
        )
        event_id = r.json()["id"]
        key = {"Authorization": f"Bearer {r.json()['organiser_token']}"}
        players = [{"name": f"s{i}", "engine": "stall"} for i in range(4)]
        url = f"{server.url}/api/events/{event_id}"
        assert httpx.post(url + "/players", json=players, headers=key).status_code == 200
        assert httpx.post(url + "/rounds/1/play", json={"concurrency": 2}, headers=key).is_success
        for _ in range(2):  # and two games against the computer (the engine plays Black)
            r = httpx.post(server.url + "/api/engine-games", json={"game": "go", "human": "white"})
            assert r.status_code == 201, r.text
        # two event games (one engine thinks in each) and two casual games: four engines
        # thinking, each with its sleeping child
        deadline = time.monotonic() + 30
        while len(processes_with(f"stall-{tag}")) < 4 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(processes_with(f"stall-{tag}")) == 4
        assert len(processes_with(tag)) >= 8  # and the four sleeping children
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(15)  # it stops by itself, without a SIGKILL
    finally:
        server.stop()
        left = processes_with(tag)
        for pid in left:  # never leave this test's processes behind, even when it fails
            with_suppress_kill(pid)
    assert left == [], f"engine processes left after the server stopped: {left}"


def with_suppress_kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_engine_rounds_count_against_the_client_and_cluster_caps(
    backend: Backend, tmp_path: Path
) -> None:
    # Finding 6: 16 boards of an engine round filled the cluster's engine places and skipped
    # the director's own cap. Two processes on one store: the round runs on the first, games
    # against the computer are asked of the second; the caps count every engine game of the
    # cluster (DUIYI_MAX_ENGINE_GAMES 3) and each client's (2), engine rounds included.
    tag = f"stall-{secrets.token_hex(4)}"
    engines = write_engines(
        tmp_path, {"stall": [sys.executable, str(FAKE), "--sleep-at", "1:600", "--name", tag]}
    )
    env = {
        "DUIYI_MAX_ENGINE_GAMES": "3",
        "DUIYI_MAX_ENGINE_GAMES_PER_CLIENT": "2",
        "DUIYI_PROXY_HEADER": "X-Forwarded-For",
    }
    extra = ("--engine-players", "--engines", str(engines))
    servers = [Server(backend.database, backend.redis, env=env, extra=extra) for _ in range(2)]
    try:
        a, b = (s.start(tmp_path) for s in servers)
        director = {"X-Forwarded-For": "203.0.113.1"}
        r = httpx.post(
            a.url + "/api/events",
            json={"name": "x", "game": "go", "system": "round-robin", "online": {"size": 9}},
        )
        event_id = r.json()["id"]
        key = {**director, "Authorization": f"Bearer {r.json()['organiser_token']}"}
        url = f"{a.url}/api/events/{event_id}"
        players = [{"name": f"s{i}", "engine": "stall"} for i in range(8)]
        assert httpx.post(url + "/players", json=players, headers=key).status_code == 200
        r = httpx.post(url + "/rounds/1/play", json={"concurrency": 4}, headers=key)
        assert r.status_code == 202 and len(r.json()["boards"]) == 4, r.text

        def live_event_games() -> list[dict[str, Any]]:
            games: list[dict[str, Any]] = httpx.get(url).json()["games"]
            return [g for g in games if g["status"] == "live"]

        deadline = time.monotonic() + 20
        while len(live_event_games()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(2 * 0.5 + 0.5)  # two more passes of the runner: no third game starts
        assert len(live_event_games()) == 2  # the director's cap, not concurrency 4

        def casual(client: str) -> httpx.Response:
            return httpx.post(
                b.url + "/api/engine-games",
                json={"game": "go", "human": "white"},
                headers={"X-Forwarded-For": client},
                timeout=20,
            )

        assert casual("203.0.113.1").status_code == 429  # the director's two are the round's
        assert casual("203.0.113.2").status_code == 201  # the cluster's third place
        full = casual("203.0.113.3")
        assert full.status_code == 503 and "limit" in full.json()["detail"]
    finally:
        for s in servers:
            s.stop()
        for pid in processes_with(tag):
            with_suppress_kill(pid)
