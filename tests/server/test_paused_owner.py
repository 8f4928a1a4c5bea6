"""A request that reaches a game's owner while the owner is paused is answered when the owner
resumes (issue 33: the 1,000-player event day's one 5xx, and a 502 in the 64-player day).

nginx keeps idle connections to the processes and reuses one for the next request of a game.
A process paused (SIGSTOP, a swapped-out or frozen machine) with such a connection open had
its own idle timer for that connection run out while it was stopped; on resuming, its event
loop ran the timer before reading what had arrived, closed the connection under the waiting
request (a reset) and nginx, which never sends a POST twice, answered 502. The processes
behind nginx keep an idle connection far longer than nginx does (``DUIYI_KEEP_ALIVE_TIMEOUT``
in docs/deploy.md), so nginx alone closes idle connections and a pause shorter than the
processes' timeout delays a request instead of failing it."""

from __future__ import annotations

import threading

import httpx
import pytest
from tests.server.nginx import Cluster
from tests.server.test_takeback_cluster import cluster  # noqa: F401 (the fixture)

PAUSE = 8.0  # longer than a process's default idle timer (5 s), shorter than a failover (10 s)


def _last_upstream(cluster: Cluster) -> int:  # noqa: F811
    assert cluster.nginx.prefix is not None
    last = (cluster.nginx.prefix / "access.log").read_text().strip().splitlines()[-1]
    return int(last.rsplit(":", 1)[1])


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_move_sent_to_a_paused_owner_is_answered_when_it_resumes(
    cluster: Cluster,  # noqa: F811
) -> None:
    http = httpx.Client(base_url=cluster.nginx.url, timeout=60)
    game = http.post("/api/games", json={"game": "go", "size": 9}).json()
    # a read of the game: nginx now holds an idle connection to the game's owner
    assert http.get(f"/api/games/{game['id']}").status_code == 200
    port = _last_upstream(cluster)
    owner = next(i for i, s in enumerate(cluster.servers) if s.port == port)
    cluster.pause(owner)
    threading.Timer(PAUSE, cluster.resume, args=(owner,)).start()
    r = http.post(
        f"/api/games/{game['id']}/actions",
        json={"type": "move", "point": "E5", "action_id": "b1"},
        headers={"Authorization": f"Bearer {game['black_token']}"},
    )
    assert r.status_code == 200, (r.status_code, r.text, cluster.nginx.error_log()[-2000:])
    assert http.get(f"/api/games/{game['id']}").json()["moves"] == [["black", "E5"]]
    assert "Traceback" not in cluster.logs()
