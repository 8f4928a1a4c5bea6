"""Six accepts of one takeback at once (issue 35: red team 3 saw one of six concurrent
``accept_takeback`` answered 503 instead of 409). A takeback by agreement (issue 21, a casual
game) is asked by the player who moved and accepted once by the opponent: of six accepts sent
together (six tabs, a double click) exactly one takes the move back and the others are 409
(nothing left to accept), never a 503 (the store is not down) and never two moves taken back.
On one process with SQLite and through nginx in front of three processes (PostgreSQL, Redis);
the operator's metrics through the same nginx."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Server, operator
from tests.server.nginx import Cluster, start_cluster, wait_peers_alive

ROUNDS = 20
ACCEPTS = 6


@pytest.fixture
def one_process(tmp_path: Path) -> Iterator[str]:
    s = Server(f"sqlite:///{tmp_path / 't.sqlite3'}", None, env={"DUIYI_RATE_PER_SECOND": "100000"})
    s.start(tmp_path)
    try:
        yield s.url
    finally:
        s.stop()
    assert s.log is not None and "Traceback" not in s.log.read_text()


@pytest.fixture
def cluster(backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cluster]:
    assert backend.redis is not None
    monkeypatch.setenv("DUIYI_RATE_PER_SECOND", "100000")
    c = start_cluster(backend.database, backend.redis, tmp_path)
    try:
        wait_peers_alive(c)
        yield c
    finally:
        c.stop()


def _act(http: httpx.Client, game: dict[str, Any], seat: str, **action: Any) -> httpx.Response:
    return http.post(
        f"/api/games/{game['id']}/actions",
        json=action,
        headers={"Authorization": f"Bearer {game[seat + '_token']}"},
    )


def accept_together(url: str, accept_at: list[str] | None = None) -> list[Counter[int]]:
    """``ROUNDS`` rounds of Black moving, asking to take it back and White accepting
    ``ACCEPTS`` times at once (at ``accept_at`` in turn: other processes forward to the game's
    owner); the statuses of each round's accepts."""
    at = accept_at or [url]
    http = httpx.Client(base_url=url, timeout=30)
    game = http.post("/api/games", json={"game": "go", "size": 9}).json()
    rounds = []
    for n in range(ROUNDS):
        assert _act(http, game, "black", type="move", point="E5").status_code == 200
        r = _act(http, game, "black", type="request_takeback")
        assert r.status_code == 200, r.text
        barrier = threading.Barrier(ACCEPTS)
        statuses: list[int] = []

        def accept(i: int, barrier: threading.Barrier, statuses: list[int]) -> None:
            with httpx.Client(base_url=at[i % len(at)], timeout=30) as own:
                barrier.wait()
                statuses.append(_act(own, game, "white", type="accept_takeback").status_code)

        threads = [
            threading.Thread(target=accept, args=(i, barrier, statuses)) for i in range(ACCEPTS)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rounds.append(Counter(statuses))
        state = http.get(f"/api/games/{game['id']}").json()
        # one move taken back, once: the board is empty again and Black is to move
        assert state["moves"] == [] and state["to_move"] == "black", (n, state)
    return rounds


def _check(rounds: list[Counter[int]]) -> None:
    wrong = [(n, dict(c)) for n, c in enumerate(rounds) if c != Counter({200: 1, 409: 5})]
    assert not wrong, f"rounds not one 200 and five 409: {wrong}"


def test_six_accepts_at_once_on_one_process(one_process: str) -> None:
    _check(accept_together(one_process))


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_six_accepts_at_once_through_nginx(cluster: Cluster) -> None:
    _check(accept_together(cluster.nginx.url))
    assert "Traceback" not in cluster.logs()


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_six_accepts_at_once_at_every_process(cluster: Cluster) -> None:
    # two accepts at each process: four of six are forwarded to the owner, racing its own two
    _check(accept_together(cluster.nginx.url, [s.url for s in cluster.servers]))
    assert "Traceback" not in cluster.logs()


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_metrics_through_nginx_answer_only_the_operators_key(cluster: Cluster) -> None:
    # issue 35: "/api/metrics answers anyone, through nginx too" (process ids, peer addresses,
    # uptime): through nginx a request without the operator's key gets no counter
    url = cluster.nginx.url + "/api/metrics"
    anyone = httpx.get(url)
    assert anyone.status_code == 401 and "live_peers" not in anyone.text, anyone.text
    other = httpx.get(url, headers={"Authorization": "Bearer guess"})
    assert other.status_code == 403 and "live_peers" not in other.text, other.text
    assert "live_peers" in httpx.get(url, headers=operator()).json()
