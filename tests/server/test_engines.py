"""Engine opponents and the read-only analysis the browser UI uses (routes_engines)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from tests.server.conftest import Backend, Server

from duiyi.server.engines.driver import gnugo_command

BRAINS = Path(__file__).resolve().parents[1] / "gomoku" / "engines"


@pytest.fixture
def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def make(**env: str) -> Server:
        # the operator's engines are only those a test names (docs/server.md, "Engines")
        for name in ("DUIYI_ENGINES", "DUIYI_GNUGO", "DUIYI_GOMOKU_ENGINE"):
            monkeypatch.delenv(name, raising=False)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        s = Server(f"sqlite:///{tmp_path / 'e.sqlite3'}", None).start(tmp_path)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


def wait_moves(server: Server, game_id: str, n: int, key: str = "moves") -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game_id}").json()
        if len(view[key]) >= n:
            return view
        time.sleep(0.1)
    raise AssertionError(f"the engine did not move: {view[key]}")


def act(server: Server, game_id: str, token: str, **action: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{game_id}/actions",
        json=action,
        headers={"Authorization": f"Bearer {token}"},
    )


@pytest.mark.gnugo
@pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed (.ci/run installs it)")
def test_gnugo_answers_the_human(start: Callable[..., Server]) -> None:
    server = start(DUIYI_GNUGO="1")
    offered = httpx.get(server.url + "/api/engines").json()
    assert offered["go"] == ["gnugo"] and offered["gomoku"] == []
    # the entry's name, label and levels; never its command
    assert offered["engines"] == [
        {"name": "gnugo", "game": "go", "label": "GNU Go", "levels": [1, 10], "level": 1}
    ]
    r = httpx.post(server.url + "/api/engine-games", json={"game": "go", "size": 9})
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["seat"] == "black" and "black_token" not in g and "white_token" not in g
    assert act(server, g["id"], g["token"], type="move", move="E5").status_code == 200
    view = wait_moves(server, g["id"], 2)
    colour, point = view["moves"][1]
    assert colour == "white" and point not in (None, "E5")
    # Go §2: the human's token plays Black only; its next move is recorded as Black's
    free = next(p for p in ("C3", "G7", "C7", "G3") if p != point)
    assert act(server, g["id"], g["token"], type="move", move=free).status_code == 200
    assert wait_moves(server, g["id"], 3)["moves"][2] == ["black", free]
    analysis = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    assert analysis["engine"] == {"seat": "white", "error": None, "name": "GNU Go"}


@pytest.mark.gnugo
@pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed (.ci/run installs it)")
def test_gnugo_moves_first_when_the_human_takes_white(start: Callable[..., Server]) -> None:
    server = start(DUIYI_GNUGO="1")
    r = httpx.post(
        server.url + "/api/engine-games",
        json={"game": "go", "size": 9, "human": "white", "engine": "gnugo", "level": 2},
    )
    assert r.status_code == 201 and r.json()["engine"] == "gnugo", r.text
    g = r.json()
    view = wait_moves(server, g["id"], 1)
    assert view["moves"][0][0] == "black" and view["to_move"] == "white"
    # the human's (white's) token cannot move for Black
    assert act(server, g["id"], g["token"], type="pass").status_code == 200


def test_no_engine_unless_the_operator_offers_one(start: Callable[..., Server]) -> None:
    # issue 25: a server offers no engine by default, even with GNU Go installed; a request
    # for one is a 404 problem (no such engine here) naming what to do
    server = start()
    assert httpx.get(server.url + "/api/engines").json() == {
        "go": [],
        "gomoku": [],
        "engines": [],
    }
    r = httpx.post(server.url + "/api/engine-games", json={"game": "go"})
    assert r.status_code == 404 and "--engines" in r.json()["detail"]
    r = httpx.post(server.url + "/api/engine-games", json={"game": "gomoku", "engine": "gomocup"})
    assert r.status_code == 404 and "not an engine this server offers" in r.json()["detail"]
    r = httpx.post(server.url + "/api/engine-games", json={"game": "chess"})
    assert r.status_code == 422


def test_a_gomocup_brain_plays_gomoku(start: Callable[..., Server]) -> None:
    brain = f"{sys.executable} {BRAINS / 'greedy.py'} --seed 3"
    server = start(DUIYI_GOMOKU_ENGINE=brain)
    # the designated opening (swap, N-dab) has no Gomocup protocol: free openings only
    r = httpx.post(server.url + "/api/engine-games", json={"game": "gomoku", "rules": "chinese"})
    assert r.status_code == 409
    r = httpx.post(server.url + "/api/engine-games", json={"game": "gomoku", "human": "black"})
    assert r.status_code == 201, r.text
    g = r.json()
    assert act(server, g["id"], g["token"], type="move", move="h8").status_code == 200
    view = wait_moves(server, g["id"], 2, key="moves_list")
    assert view["moves_list"][0] == "h8" and view["moves_list"][1] != "h8"


def test_analysis_shows_forbidden_points_and_allowed_actions(start: Callable[..., Server]) -> None:
    server = start()
    g = httpx.post(server.url + "/api/games", json={"game": "gomoku", "rules": "free_renju"}).json()
    seats = [g["black_token"], g["white_token"]]
    for i, point in enumerate(["g8", "a1", "h8", "a3", "i9", "o1", "i10", "o15"]):
        assert act(server, g["id"], seats[i % 2], type="move", move=point).status_code == 200
    a = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    # Gomoku §2.19: i8 makes two open threes at once for Black
    assert a["forbidden"] == {"i8": "double-three"}
    assert "move" in a["allowed"]["black"] and "move" not in a["allowed"]["white"]
    assert a["colours"] == {"black": "black", "white": "white"}


def test_analysis_of_the_counting_phase_and_positions(start: Callable[..., Server]) -> None:
    server = start()
    g = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9}).json()
    b, w = g["black_token"], g["white_token"]
    for token, point in ((b, "E5"), (w, "A1"), (b, "B1"), (w, "E4")):
        assert act(server, g["id"], token, type="move", move=point).status_code == 200
    # Go §5: A1 has no liberty left after B1... White's E4 keeps play going; then passes
    act(server, g["id"], b, type="pass")
    act(server, g["id"], w, type="pass")
    a = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    assert a["phase"] == "counting"
    assert set(a["allowed"]["black"]) >= {"mark_dead", "accept", "dispute"}
    assert isinstance(a["proposal"], list) and a["score"]["sgf_result"]
    live = httpx.get(f"{server.url}/api/live-games").json()["games"]
    assert [x["id"] for x in live] == [g["id"]] and live[0]["phase"] == "counting"
    assert live[0]["moves"] == 6 and live[0]["moves_exact"] is True  # 4 stones, 2 passes
    pos = httpx.get(f"{server.url}/api/games/{g['id']}/position?move=1").json()
    assert pos["stones"] == {"black": ["E5"], "white": []} and pos["last_move"] == "E5"
    # a move not played has no position (404); a negative one is malformed (422; issue 35)
    assert httpx.get(f"{server.url}/api/games/{g['id']}/position?move=99").status_code == 404
    assert httpx.get(f"{server.url}/api/games/{g['id']}/position?move=-1").status_code == 422


@pytest.mark.gnugo
@pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed (.ci/run installs it)")
def test_the_engine_comes_back_after_a_restart(
    start: Callable[..., Server], tmp_path: Path
) -> None:
    server = start(DUIYI_GNUGO="1")
    g = httpx.post(server.url + "/api/engine-games", json={"game": "go", "size": 9}).json()
    assert act(server, g["id"], g["token"], type="move", move="E5").status_code == 200
    taken = {point for _, point in wait_moves(server, g["id"], 2)["moves"]}
    free = next(p for p in ("C3", "G7", "C7", "G3", "A1") if p not in taken)
    server.kill9()
    server.start(tmp_path)
    # the seat the engine plays is stored with the game: it is back as soon as the server is
    assert act(server, g["id"], g["token"], type="move", move=free).status_code == 200
    a = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    assert a["engine"]["seat"] == "white"
    view = wait_moves(server, g["id"], 4)
    assert view["moves"][3][0] == "white"


def test_live_games_come_from_the_store_for_every_process() -> None:
    import asyncio
    from types import SimpleNamespace as NS

    from duiyi.server.routes.engines import live_games

    def record(game_id: str, kind: str, created: float, config: dict[str, Any]) -> Any:
        return NS(
            id=game_id, kind=kind, version=5, created_at=created, event_id="e1", round=2,
            board=3, config=config,
        )  # fmt: skip

    go_config = {"game": {"kind": "go", "actions": [{"type": "start", "size": 13}]}}
    records = [
        record("old", "go", 1.0, go_config),
        record("new", "gomoku", 2.0, {"game": {"kind": "gomoku", "actions": []}}),
    ]

    async def stored() -> list[Any]:
        return list(records)

    # games hosted by another process: nothing in this process's memory
    state = NS(repo=NS(live_games=stored), games=NS(hosts={}))
    request: Any = NS(app=NS(state=NS(duiyi=state)))
    games = asyncio.run(live_games(request))["games"]
    assert [g["id"] for g in games] == ["new", "old"]  # newest first
    old = games[1]
    assert (old["game"], old["size"], old["moves"], old["moves_exact"]) == ("go", 13, 5, False)
    assert games[0]["size"] == 15 and games[0]["round"] == 2 and games[0]["board"] == 3
    assert len(asyncio.run(live_games(request, limit=1))["games"]) == 1


@pytest.mark.gnugo
@pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed (.ci/run installs it)")
def test_engine_games_are_capped_per_client_and_overall(start: Callable[..., Server]) -> None:
    # each engine game is a process: one client cannot start them without bound
    server = start(
        DUIYI_GNUGO="1", DUIYI_MAX_ENGINE_GAMES_PER_CLIENT="2", DUIYI_MAX_ENGINE_GAMES="3"
    )
    new = {"game": "go", "size": 9}
    first = [httpx.post(server.url + "/api/engine-games", json=new) for _ in range(2)]
    assert [r.status_code for r in first] == [201, 201]
    third = httpx.post(server.url + "/api/engine-games", json=new)
    assert third.status_code == 429 and third.headers["content-type"].startswith(
        "application/problem+json"
    )
    # a fresh Authorization header does not make a new client
    again = httpx.post(
        server.url + "/api/engine-games", json=new, headers={"Authorization": "Bearer x"}
    )
    assert again.status_code == 429
    # a finished game frees its place
    g = first[0].json()
    assert act(server, g["id"], g["token"], type="resign").status_code == 200
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        r = httpx.post(server.url + "/api/engine-games", json=new)
        if r.status_code == 201:
            break
        time.sleep(0.2)
    assert r.status_code == 201, r.text


def _new_from(server: Server, client: str) -> httpx.Response:
    """A new Gomoku engine game asked of ``server`` by ``client`` (its address as the proxy
    header gives it)."""
    return httpx.post(
        server.url + "/api/engine-games",
        json={"game": "gomoku"},
        headers={"X-Forwarded-For": client},
        timeout=20,
    )


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_engine_game_caps_hold_for_the_cluster(backend: Backend, tmp_path: Path) -> None:
    # issue 12: the caps count the live engine games of every process (in the store), so that
    # processes behind one load balancer enforce one limit
    env = {
        "DUIYI_GOMOKU_ENGINE": f"{sys.executable} {BRAINS / 'greedy.py'} --seed 3",
        "DUIYI_MAX_ENGINE_GAMES": "3",
        "DUIYI_MAX_ENGINE_GAMES_PER_CLIENT": "2",
        "DUIYI_PROXY_HEADER": "X-Forwarded-For",
    }
    servers = [Server(backend.database, backend.redis, env=env) for _ in range(2)]
    try:
        a, b = (s.start(tmp_path) for s in servers)

        first = _new_from(a, "203.0.113.1")
        assert first.status_code == 201, first.text
        assert _new_from(b, "203.0.113.1").status_code == 201
        # each process runs one game of this client; together they are at its limit
        for server in (a, b):
            third = _new_from(server, "203.0.113.1")
            assert third.status_code == 429, third.text
            assert third.headers["content-type"].startswith("application/problem+json")
        assert _new_from(a, "203.0.113.2").status_code == 201
        full = _new_from(b, "203.0.113.3")  # three live engine games in the cluster
        assert full.status_code == 503 and "limit" in full.json()["detail"]
        # a finished game frees its place everywhere (Gomoku §10.1(3)C: resigning ends the game)
        g = first.json()
        assert act(a, g["id"], g["token"], type="resign").status_code == 200
        assert _new_from(b, "203.0.113.3").status_code == 201
        assert _new_from(b, "203.0.113.1").status_code == 503  # the cluster is full again
        with psycopg.connect(
            backend.database.replace("postgresql+psycopg://", "postgresql://")
        ) as db:
            row = db.execute(
                "SELECT count(*) FROM games WHERE engine_client IS NOT NULL AND status = 'live'"
            ).fetchone()
        assert row == (3,)  # nothing left behind by the refused requests
    finally:
        for s in servers:
            s.stop()


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_many_addresses_of_one_network_do_not_hold_the_cluster(
    backend: Backend, tmp_path: Path
) -> None:
    # issue 33: the cluster's 16 engine places were held by 8 client addresses (2 each) for
    # 10 minutes and renewed. A client's network (IPv4 /24, IPv6 /64) holds at most 4, counted
    # in the store over every process; another network still gets a place
    env = {
        "DUIYI_GOMOKU_ENGINE": f"{sys.executable} {BRAINS / 'greedy.py'} --seed 3",
        "DUIYI_PROXY_HEADER": "X-Forwarded-For",
    }
    servers = [Server(backend.database, backend.redis, env=env) for _ in range(2)]
    try:
        a, b = (s.start(tmp_path) for s in servers)

        for i in range(4):  # two addresses, two games each, on either process
            r = _new_from((a, b)[i % 2], f"203.0.113.{1 + i // 2}")
            assert r.status_code == 201, r.text
        for server, client in ((a, "203.0.113.3"), (b, "203.0.113.200")):
            refused = _new_from(server, client)  # new addresses, the same network: full
            assert refused.status_code == 429, refused.text
            assert "network" in refused.json()["detail"]
        assert _new_from(b, "2001:db8::1").status_code == 201  # another network
        assert _new_from(a, "198.51.100.7").status_code == 201
    finally:
        for s in servers:
            s.stop()
