"""The desk's own routes (issue 20): the organiser key checked at once, whether round 1's
numbers were drawn by lot (appendix 五.2(1)), and the later pairings a correction reaches."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.conftest import Server


def _new(server: Server) -> tuple[str, dict[str, str]]:
    r = httpx.post(server.url + "/api/events", json={"name": "Desk", "game": "go", "rounds": 3})
    ev: dict[str, Any] = r.json()
    url = f"{server.url}/api/events/{ev['id']}"
    auth = {"Authorization": f"Bearer {ev['organiser_token']}"}
    r = httpx.post(
        f"{url}/players", content="A\nB\nC\nD\n", headers={**auth, "content-type": "text/plain"}
    )
    assert r.is_success, r.text
    return url, auth


def test_the_key_is_checked_at_once_and_the_draw_is_told(server: Server) -> None:
    url, auth = _new(server)
    assert httpx.get(f"{url}/desk").status_code == 401
    assert httpx.get(f"{url}/desk", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert httpx.get(f"{server.url}/api/events/nope/desk", headers=auth).status_code == 404
    desk = httpx.get(f"{url}/desk", headers=auth).json()
    assert desk["numbers_drawn"] is None and desk["completed_rounds"] == 0
    # appendix 五.2(1): round 1's numbers by lot; the desk then says they were drawn
    assert httpx.post(f"{url}/players/draw", headers=auth, json={"seed": 7}).is_success
    assert httpx.get(f"{url}/desk", headers=auth).json()["numbers_drawn"] == {
        "seed": 7,
        "players": 4,
    }

    # a seed the server draws is exact in the page's numbers (below 2**53): the desk shows the
    # seed that is kept, never a rounded one (…918000 for …917436)
    for path in ("players/draw", "lots"):
        seeds = [
            httpx.post(f"{url}/{path}", headers=auth, json={}).json()["seed"] for _ in range(8)
        ]
        assert all(0 <= s < 2**53 for s in seeds) and len(set(seeds)) > 1


def test_the_pairings_a_correction_reaches(server: Server) -> None:
    url, auth = _new(server)
    assert httpx.post(f"{url}/rounds", headers=auth).is_success
    for board, res in ((1, "1-0"), (2, "0-1")):
        r = httpx.put(f"{url}/rounds/1/boards/{board}/result", headers=auth, json={"result": res})
        assert r.is_success, r.text
    assert httpx.get(f"{url}/desk", headers=auth).json()["completed_rounds"] == 1
    assert httpx.get(f"{url}/rounds/1/boards/1/affected", headers=auth).json()["affected"] == []
    r2 = httpx.post(f"{url}/rounds", headers=auth).json()
    got = httpx.get(f"{url}/rounds/1/boards/1/affected", headers=auth).json()["affected"]
    r1 = httpx.get(f"{url}/rounds/1").json()["games"][0]
    players = {r1["black"], r1["white"]}
    # the round-2 boards of board 1's two players, and nothing else
    want = [p for p in r2["pairings"] if {p["black"], p["white"]} & players]
    assert sorted(a["board"] for a in got) == sorted(p["board"] for p in want)
    assert all(a["round"] == 2 for a in got)
    assert httpx.get(f"{url}/rounds/1/boards/1/affected").status_code == 401


def test_an_opengotha_file_that_cannot_be_read_is_refused_by_name(server: Server) -> None:
    url, auth = _new(server)
    xml = {**auth, "content-type": "application/xml"}
    for body, words in (
        (b"<Tournament><Players>", "not XML (line 1"),
        (b"<Other/>", "not <Tournament>"),
        (b"<Tournament><Players/></Tournament>", "no players"),
        (b'<!DOCTYPE t [<!ENTITY a "x">]><Tournament/>', "entity declaration is refused"),
    ):
        r = httpx.post(f"{url}/players/opengotha", content=body, headers=xml)
        assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert len(httpx.get(url).json()["event"]["players"]) == 4  # nothing entered
