"""When a server game's clock starts (issue 21): a casual game waits until both players have
opened their seats (the default) or starts with the first move, as the creator chooses; an
event's game keeps its scheduled start and the lateness rules (Go §22, Gomoku §8.5); the state
says which applies (``clock.start_rule``, ``clock.started``, ``clock.waiting_for``,
``clock.lateness``)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from tests.server.conftest import Server, bearer
from websockets.sync.client import connect

from duiyi.server.games.manager import GameManager, NewGame
from duiyi.store import Database, Repository

TC = {"system": "absolute", "base": 60}


def _create(server: Server, **spec: Any) -> httpx.Response:
    return httpx.post(server.url + "/api/games", json={"game": "go", "size": 9, **spec})


def _state(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game['id']}").json()
    return data


def test_a_casual_clock_starts_when_both_have_opened_their_seats(server: Server) -> None:
    # issue 21: "13 s were gone before Black opened the link": now nothing runs until both are in
    r = _create(server, time_control=TC)
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["state"]["clock"] == {
        "start_rule": "seated",
        "started": False,
        "waiting_for": ["black", "white"],
        "lateness": None,
    }
    assert g["state"]["absent"] == ["black", "white"] and g["state"]["clock_running"] is None
    time.sleep(1.5)
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=bearer(g["black_token"])) as black:
        hello = json.loads(black.recv(5))
        assert hello["state"]["clock"]["waiting_for"] == ["white"]
        assert hello["state"]["clock_running"] is None
        time.sleep(1.0)
        seated = time.monotonic()
        with connect(url, subprotocols=bearer(g["white_token"])) as white:
            hello = json.loads(white.recv(5))
            assert hello["state"]["clock"]["started"] is True
            assert hello["state"]["clock_running"] == "black"
    state = _state(server, g)
    assert state["clock"]["waiting_for"] == [] and state["absent"] == []
    # Black's time runs from the moment White sat down: not the 2.5 s before (however long
    # a loaded machine took since)
    used = 60.0 - state["clocks"]["black"]["total"]
    assert 0.0 <= used <= time.monotonic() - seated, (used, state["clocks"])
    assert state["clocks"]["white"]["total"] == 60.0


def test_the_creator_may_start_the_clock_with_the_first_move(server: Server) -> None:
    g = _create(server, time_control=TC, start="first_move").json()
    assert g["state"]["clock"]["start_rule"] == "first_move"
    assert g["state"]["absent"] == [] and g["state"]["clock_running"] is None
    time.sleep(1.0)
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "move", "move": "E5"},
        headers={"Authorization": f"Bearer {g['black_token']}"},
    )
    assert r.status_code == 200, r.text
    state = _state(server, g)
    assert state["clock"]["started"] is True and state["clock_running"] == "white"
    assert state["clocks"]["black"]["total"] == 60.0  # the first move cost nothing


def test_lateness_goes_with_a_scheduled_start(server: Server) -> None:
    # Go §22.1: the lateness rules count from the scheduled start; a seated start has none
    g = _create(server, time_control=TC, lateness={"limit": 600}).json()
    info = g["state"]["clock"]
    assert info["start_rule"] == "scheduled" and info["started"] is True
    assert info["lateness"] == {"factor": 2, "limit": 600.0, "article": "Go §22.1"}
    r = _create(server, time_control=TC, lateness={"limit": 600}, start="seated")
    assert r.status_code in (409, 422), r.text
    assert "scheduled" in r.json()["detail"]
    assert _create(server, time_control=TC, start="whenever").status_code == 422


async def test_an_events_game_keeps_its_scheduled_start(tmp_path: Path) -> None:
    # Go §22 / Gomoku §8.4: an event's game starts at the time the round starts
    db = Database(f"sqlite:///{tmp_path / 'e.sqlite3'}")
    db.migrate()
    manager = GameManager(Repository(db), "p-test")
    try:
        host, _ = await manager.create(
            NewGame(
                {"game": "go", "size": 9, "time_control": TC, "start": "seated"},
                event_id="e1",
                round=1,
                board=1,
            )
        )
        view = host.view()
        assert view["clock"]["start_rule"] == "scheduled" and view["clock_running"] == "black"
    finally:
        await manager.close()
        await db.dispose()
