"""A spectator watches an event's engine game in the browser like any live game
(docs/server.md, "Engine rounds")."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

from duiyi.server.engines.driver import gnugo_command

GNUGO = "gnugo:1"  # the operator's GNU Go (--gnugo) at level 1: players name engines


@pytest.fixture
def engine_server(tmp_path: Path) -> Iterator[Server]:
    s = Server(
        f"sqlite:///{tmp_path / 'duiyi.sqlite3'}", None, extra=("--engine-players", "--gnugo")
    )
    yield s.start(tmp_path)
    s.stop()


@pytest.mark.gnugo
@pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed (.ci/run installs it)")
def test_a_spectator_opens_an_engine_game_from_the_live_list(
    engine_server: Server, context_factory: Any
) -> None:
    server = engine_server
    r = httpx.post(
        server.url + "/api/events",
        json={"name": "bots", "game": "go", "system": "round-robin", "online": {"size": 13}},
    )
    event_id, key = r.json()["id"], {"Authorization": f"Bearer {r.json()['organiser_token']}"}
    players = [{"name": n, "extra": {"engine": GNUGO}} for n in ("GnuGo-A", "GnuGo-B")]
    assert httpx.post(f"{server.url}/api/events/{event_id}/players", json=players, headers=key)
    r = httpx.post(f"{server.url}/api/events/{event_id}/rounds/1/play", json={}, headers=key)
    assert r.status_code == 202, r.text
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    # the home page's live list names the event's players, round and board
    link = page.wait_for_selector("[data-testid=live-games] li[data-game-id] a")
    row = page.inner_text("[data-testid=live-games] li[data-game-id]")
    assert "GnuGo-A – GnuGo-B" in row and "Round 1 · Board 1" in row and "engine" in row
    link.click()
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    assert page.locator("[data-testid=pass]").count() == 0  # a spectator cannot play
    # the board follows the engines' moves as they are played
    first = int(page.get_attribute("[data-testid=game-page]", "data-version") or 0)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        now = int(page.get_attribute("[data-testid=game-page]", "data-version") or 0)
        if now >= first + 4:
            break
        page.wait_for_timeout(100)
    assert now >= first + 4, (first, now)
    assert page.locator("[data-stone]").count() >= 2
