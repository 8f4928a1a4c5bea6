"""duiyi.server.cluster.ring is nginx's ``hash $key consistent``: the shipped deploy/nginx-duiyi.conf, run
by Debian's nginx, sends every game id to the upstream the Python ring names, also when an
upstream is down (nginx skips to the next point of the ring, and so does the ring given the
servers that are up)."""

from __future__ import annotations

import contextlib
import secrets
import socket
import subprocess
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import free_port, wait_healthy
from tests.server.nginx import NGINX, render

from duiyi.server.cluster.ownership import Ownership
from duiyi.server.cluster.ring import MAX_SKIPS, HashRing, split_server

SERVERS = ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]


def test_points_per_server_and_sorted() -> None:
    # nginx: weight * 160 points per server, sorted by hash
    ring = HashRing(SERVERS, weights=[1, 2, 1])
    assert len(ring.points) == 4 * 160
    assert Counter(s for _, s in ring.points) == {SERVERS[0]: 160, SERVERS[1]: 320, SERVERS[2]: 160}
    hashes = [h for h, _ in ring.points]
    assert hashes == sorted(hashes)


def test_a_server_down_moves_only_its_own_keys() -> None:
    # consistent: the keys of the servers still up stay where they were
    ring = HashRing(SERVERS)
    keys = [secrets.token_urlsafe(9) for _ in range(2000)]
    before = {k: ring.owner(k) for k in keys}
    up = {SERVERS[0], SERVERS[2]}
    after = {k: ring.owner(k, up) for k in keys}
    for k in keys:
        if before[k] in up:
            assert after[k] == before[k]
        else:
            assert after[k] in up
    # and the three share the keys (160 points each): none has less than a fifth
    assert min(Counter(before.values()).values()) > len(keys) / 5


def test_successors_follow_the_ring() -> None:
    ring = HashRing(SERVERS)
    for key in ("a", "b", "game-1"):
        order = ring.successors(key)
        assert sorted(order) == sorted(SERVERS)
        assert order[0] == ring.owner(key)
        assert ring.owner(key, set(SERVERS) - {order[0]}) == order[1]


def test_nothing_up_is_round_robin() -> None:
    # nginx gives up after MAX_SKIPS points skipped (round robin then): the ring says None
    ring = HashRing(SERVERS)
    assert ring.owner("x", set()) is None
    assert MAX_SKIPS == 20


def test_split_server_as_nginx() -> None:
    assert split_server("10.0.0.1:80") == (b"10.0.0.1", b"80")
    assert split_server("example.org") == (b"example.org", b"")
    assert split_server("host:http") == (b"host:http", b"")


def test_bad_rings_are_refused() -> None:
    with pytest.raises(ValueError):
        HashRing([])
    with pytest.raises(ValueError):
        HashRing(["a:1", "a:1"])
    with pytest.raises(ValueError):
        HashRing(["a:1"], weights=[0])


# --- against Debian's nginx ----------------------------------------------------------------

BACKEND = """
server {{
    listen 127.0.0.1:{port};
    access_log off;
    location / {{ return 200 "{port}"; }}
}}
"""


def _nginx(tmp: Path, upstreams: list[int], live: list[int]) -> tuple[subprocess.Popen[bytes], str]:
    """The shipped configuration in front of tiny nginx backends that answer their own port;
    ports in ``upstreams`` but not in ``live`` refuse connections (a dead process)."""
    port = free_port()
    conf = render(port, upstreams, tmp)
    backends = "".join(BACKEND.format(port=p) for p in live)
    conf = conf[: conf.rindex("}")] + backends + "}\n"
    (tmp / "nginx.conf").write_text(conf)
    cmd = [NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e", str(tmp / "error.log")]
    for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / sub).mkdir(exist_ok=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    wait_healthy("nginx", f"http://127.0.0.1:{live[0]}", proc, lambda: "", within=20)
    return proc, url


@pytest.mark.parametrize("dead", [None, 1])
def test_nginx_routes_game_ids_as_the_ring_says(tmp_path: Path, dead: int | None) -> None:
    upstreams = [free_port() for _ in range(3)]
    live = [p for i, p in enumerate(upstreams) if i != dead]
    proc, url = _nginx(tmp_path, upstreams, live)
    ring = HashRing([f"127.0.0.1:{p}" for p in upstreams])
    up = {f"127.0.0.1:{p}" for p in live}
    try:
        seen: Counter[str] = Counter()
        with httpx.Client(base_url=url, timeout=10) as client:
            for n in range(600):
                game_id = secrets.token_urlsafe(9)
                # the game's own paths, its socket path, and the game itself
                path = ("/api/games/{}", "/api/games/{}/actions", "/api/games/{}/socket")[n % 3]
                r = client.get(path.format(game_id))
                assert r.status_code == 200, (game_id, r.status_code, r.text)
                expected = ring.owner(game_id, up)
                assert f"127.0.0.1:{r.text}" == expected, game_id
                seen[r.text] += 1
            # a request without a game id is round robin over the servers that are up
            others = {client.get("/api/events").text for _ in range(12)}
        assert len(seen) == len(live)  # every live upstream owns some of the games
        assert others == {str(p) for p in live}
    finally:
        proc.terminate()
        proc.wait(10)


def test_ownership_follows_the_live_processes() -> None:
    me = "p-me@127.0.0.1:8001"
    own = Ownership(tuple(SERVERS), me, stale_after=5.0)
    keys = [secrets.token_urlsafe(9) for _ in range(300)]
    # alone (the others have not beaten yet): every game is this process's
    assert all(own.mine(k) for k in keys)
    own.update(
        {
            me: 100.0,
            "p-old@127.0.0.1:8001": 99.0,  # an earlier life of this address: never the owner
            "p-a@127.0.0.1:8002": 97.0,  # a process killed at 97, restarted as p-b
            "p-b@127.0.0.1:8002": 99.5,
            "p-c@127.0.0.1:8003": 94.0,  # stale: 6 s old
            "p-x@10.0.0.9:9000": 100.0,  # not a peer
        },
        now=100.0,
    )
    assert own.live == {"127.0.0.1:8001": me, "127.0.0.1:8002": "p-b@127.0.0.1:8002"}
    ring = HashRing(SERVERS)
    up = {SERVERS[0], SERVERS[1]}
    for k in keys:
        expected = {SERVERS[0]: me, SERVERS[1]: "p-b@127.0.0.1:8002"}[ring.owner(k, up)]
        assert own.owner_process(k) == expected
    with pytest.raises(ValueError):
        Ownership(tuple(SERVERS), "p-me@127.0.0.1:9999", stale_after=5.0)


def test_a_request_that_met_a_paused_process_is_answered_by_the_next(tmp_path: Path) -> None:
    # A paused process (SIGSTOP, swapping) still accepts connections (the kernel does) and
    # never answers: nginx gives up on it after proxy_read_timeout and must still have time
    # left to send a request it may repeat to the next process. The event day (issue 33) found
    # GET /api/events/{id}/room answered 504 after 10 s while a process was paused: the
    # repeat's budget (proxy_next_upstream_timeout) was spent on the first try.
    upstreams = [free_port() for _ in range(3)]
    frozen = socket.socket()
    frozen.bind(("127.0.0.1", upstreams[1]))
    frozen.listen(64)  # connections wait in the backlog: accepted by the kernel, never served
    proc, url = _nginx(tmp_path, upstreams, [upstreams[0], upstreams[2]])
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            # round robin: one of three requests without a game id reaches the paused one (not
            # under /api/events, whose director's requests nginx waits 60 s for: docs/deploy.md)
            answers = [client.get("/api/health") for _ in range(3)]
        assert [r.status_code for r in answers] == [200, 200, 200], [r.text for r in answers]
        assert {r.text for r in answers} <= {str(upstreams[0]), str(upstreams[2])}
    finally:
        frozen.close()
        proc.terminate()
        proc.wait(10)


OUTAGE = """
server {{
    listen 127.0.0.1:{port};
    access_log off;
    location / {{ add_header Retry-After 2 always; return 503 "store away"; }}
}}
"""


def test_a_store_outage_reaches_the_client_as_503_with_retry_after(tmp_path: Path) -> None:
    # While PostgreSQL restarts every process answers 503 with Retry-After (issue 33's outage
    # fix): the pages and bots wait and send again. The event day found nginx turning it into
    # 502 "no live upstreams" (no Retry-After, not retried): with http_503 in
    # proxy_next_upstream each 503 counted as a failure (max_fails=1) and took the process out.
    upstreams = [free_port() for _ in range(3)]
    port = free_port()
    conf = render(port, upstreams, tmp_path)
    backends = "".join(OUTAGE.format(port=p) for p in upstreams)
    (tmp_path / "nginx.conf").write_text(conf[: conf.rindex("}")] + backends + "}\n")
    for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / sub).mkdir(exist_ok=True)
    cmd = [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
    proc = subprocess.Popen([*cmd, "-e", str(tmp_path / "error.log")], stdout=subprocess.DEVNULL)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for _ in range(50):  # nginx is listening once it answers (bounded)
                with contextlib.suppress(httpx.TransportError):
                    client.get(f"http://127.0.0.1:{upstreams[0]}/")
                    break
                time.sleep(0.1)
            answers = [client.get(path) for path in ("/api/events", "/api/events", "/api/games/g1")]
        assert [r.status_code for r in answers] == [503, 503, 503]
        assert all(r.headers.get("retry-after") == "2" for r in answers)
    finally:
        proc.terminate()
        proc.wait(10)
