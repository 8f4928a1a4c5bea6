"""Processes started together on a new PostgreSQL database all come up (issue 25, finding 8):
Alembic's upgrade runs under an advisory lock, so the second and third processes find the
schema made instead of racing to make it. Real processes on a fresh database, three times."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import PG_ADMIN, Server, _pg_create, _pg_drop, wait_healthy


@pytest.mark.postgres
@pytest.mark.parametrize("attempt", [1, 2, 3])
def test_three_processes_started_together_on_a_new_database(tmp_path: Path, attempt: int) -> None:
    name = _pg_create()
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    servers = [Server(f"{base}/{name}", None) for _ in range(3)]
    failures: list[str] = []

    def start(server: Server) -> None:
        # Server.start, with the time a loaded machine needs to start three at once
        server.log = tmp_path / f"server-{server.port}.log"
        cmd = [sys.executable, "-m", "duiyi", "serve", "--port", str(server.port)]
        cmd += ["--database", server.database, "--log-level", "warning"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("DUIYI_")}
        server.proc = subprocess.Popen(
            cmd, stdout=server.log.open("wb"), stderr=subprocess.STDOUT, env=env, cwd=tmp_path
        )
        log = server.log
        try:
            wait_healthy(
                "server", server.url, server.proc, lambda: log.read_text(errors="replace"), 150
            )
        except RuntimeError as exc:
            failures.append(str(exc)[-3000:])

    try:
        threads = [threading.Thread(target=start, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        assert not failures, "\n\n".join(failures)
        for s in servers:  # every process answers, on the one schema
            r = httpx.post(s.url + "/api/games", json={"size": 9})
            assert r.status_code == 201, r.text
    finally:
        for s in servers:
            s.stop()
        _pg_drop(name)
