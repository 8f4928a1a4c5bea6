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


def test_a_bye_moved_by_hand_is_explained_again_and_warnings_keep_their_numbers(
    server: Server,
) -> None:
    url, auth = _new(server)
    r = httpx.post(f"{url}/players", content="E\n", headers={**auth, "content-type": "text/plain"})
    assert r.is_success, r.text
    assert httpx.post(f"{url}/rounds", headers=auth).is_success
    rnd = httpx.get(f"{url}/rounds/1").json()
    bye = rnd["byes"][0]
    bye = bye["player"] if isinstance(bye, dict) else bye
    assert any(n.startswith(f"{bye} has the bye: lowest") for n in rnd["explanation"]["notes"])
    # the bye moves to board 1's Black; the bye's player takes that seat
    games = [[g["black"], g["white"]] for g in rnd["games"]]
    moved, games[0][0] = games[0][0], bye
    r = httpx.put(f"{url}/rounds/1/pairings", headers=auth, json={"games": games, "byes": [moved]})
    assert r.is_success, r.text
    notes = httpx.get(f"{url}/rounds/1").json()["explanation"]["notes"]
    assert f"{moved} has the bye: moved by hand" in notes
    assert not any(n.startswith(f"{bye} has the bye") for n in notes), notes
    # round 2 by hand: two winners' opponents swapped; the warnings carry their numbers
    for g in httpx.get(f"{url}/rounds/1").json()["games"]:
        r = httpx.put(
            f"{url}/rounds/1/boards/{g['board']}/result", headers=auth, json={"result": "1-0"}
        )
        assert r.is_success, r.text
    assert httpx.post(f"{url}/rounds", headers=auth).is_success
    r2 = httpx.get(f"{url}/rounds/2").json()
    byes2 = [b["player"] if isinstance(b, dict) else b for b in r2["byes"]]
    winners = [g["black"] for g in httpx.get(f"{url}/rounds/1").json()["games"]]
    losers = [g["white"] for g in httpx.get(f"{url}/rounds/1").json()["games"]]
    players = [p for g in r2["games"] for p in (g["black"], g["white"])]
    a, b = winners[0], next(p for p in players if p in losers)
    rest = [p for p in players if p not in (a, b)]
    body = {"games": [[a, b], rest[:2]], "byes": byes2}
    warnings = httpx.post(f"{url}/rounds/2/pairings/check", headers=auth, json=body).json()
    score = [w for w in warnings["warnings"] if w["kind"] == "score"]
    # Go §27.1: a win is 2 points: 2 against 0
    assert score and score[0]["detail"] == "2 / 0", warnings


def test_the_sgf_archive_names_the_players_and_the_desks_result(server: Server) -> None:
    import io
    import zipfile

    from duiyi.sgf import parse

    url, auth = _new(server)
    assert httpx.post(f"{url}/rounds", headers=auth).is_success
    started = httpx.post(f"{url}/rounds/1/games", headers=auth)
    assert started.status_code == 201, started.text
    board1 = next(g for g in started.json()["games"] if g["board"] == 1)
    move = {"type": "move", "move": "D4"}
    r = httpx.post(
        f"{server.url}/api/games/{board1['game_id']}/actions",
        json=move,
        headers={"Authorization": f"Bearer {board1['black_token']}"},
    )
    assert r.is_success, r.text
    # the director enters board 1's result at the desk: the game closes with it
    r = httpx.put(f"{url}/rounds/1/boards/1/result", headers=auth, json={"result": "0-1"})
    assert r.is_success, r.text
    # the online game is over with it: closed, its clock no longer runs, no move is taken
    st = httpx.get(f"{server.url}/api/games/{board1['game_id']}").json()
    assert st["closed"] and st.get("clock_running") in (None, ""), st
    r = httpx.post(
        f"{server.url}/api/games/{board1['game_id']}/actions",
        json={"type": "move", "move": "Q16"},
        headers={"Authorization": f"Bearer {board1['white_token']}"},
    )
    assert r.status_code == 409, r.text
    ev = httpx.get(url).json()["event"]
    game = ev["history"][0]["games"][0]
    names = {p["number"]: p["name"] for p in ev["players"]}
    archive = zipfile.ZipFile(io.BytesIO(httpx.get(f"{url}/export/sgf.zip").content))
    text = archive.read(next(n for n in archive.namelist() if "board1-" in n)).decode()
    root = parse(text).games[0]
    assert (root.text("PB"), root.text("PW")) == (names[game["black"]], names[game["white"]])
    assert root.get("RE") == "W+" and root.get("RO") == "1", text
