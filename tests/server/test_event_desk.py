"""The desk's data operations over HTTP (issue 10): one player, edits and removals before a
player's first pairing, plain name lists and Chinese CSV headers, numbers drawn by lot
(appendix 五), and every competition system the CLI offers."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.conftest import Server

from duiyi.tournament.model import SYSTEMS


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _new(server: Server, **spec: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/events", json={"name": "Desk", **spec})
    assert r.status_code == 201, r.text
    ev: dict[str, Any] = r.json()
    return ev


def test_players_one_by_one_lists_edits_removals_and_the_draw(server: Server) -> None:
    ev = _new(server, game="go", system="swiss", rounds=3)
    url, auth = f"{server.url}/api/events/{ev['id']}", _auth(ev["organiser_token"])
    # a plain list of names, one a line
    r = httpx.post(
        f"{url}/players",
        content=b"Li Wei\nZhang Min\n",
        headers={**auth, "content-type": "text/plain; charset=utf-8"},
    )
    assert r.status_code == 200, r.text
    # the usual Chinese headers
    r = httpx.post(
        f"{url}/players",
        content="姓名,段位,等级分,单位\n王芳,3段,2200,上海\n".encode(),
        headers={**auth, "content-type": "text/csv"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["players"][2] == {
        "number": 3,
        "name": "王芳",
        "rank": "3d",
        "rating": 2200,
        "club": "上海",
    }
    # one player as a JSON object
    r = httpx.post(
        f"{url}/players", json={"name": "Oops", "rank": "1k", "country": "CN"}, headers=auth
    )
    assert r.status_code == 200 and r.json()["players"][-1]["extra"] == {"country": "CN"}
    r = httpx.post(f"{url}/players", json={"name": "Chen"}, headers=auth)
    # edit, remove (the players after move up)
    r = httpx.patch(f"{url}/players/1", json={"rank": "5d", "rating": 2450}, headers=auth)
    assert r.status_code == 200 and r.json()["players"][0]["rank"] == "5d", r.text
    r = httpx.delete(f"{url}/players/4", headers=auth)
    assert r.status_code == 200, r.text
    assert [p["name"] for p in r.json()["players"]] == ["Li Wei", "Zhang Min", "王芳", "Chen"]
    assert httpx.delete(f"{url}/players/4").status_code == 401
    # appendix 五.2(1): numbers by lot; the seed is answered and the draw repeats with it
    r = httpx.post(f"{url}/players/draw", json={"seed": 11}, headers=auth)
    assert r.status_code == 200, r.text
    drawn = [p["name"] for p in r.json()["players"]]
    assert sorted(drawn) == sorted(["Li Wei", "Zhang Min", "王芳", "Chen"])
    assert r.json()["seed"] == 11
    r = httpx.post(f"{url}/players/draw", headers=auth)
    assert r.status_code == 200 and isinstance(r.json()["seed"], int)
    lots = httpx.post(f"{url}/lots", json={"seed": 3}, headers=auth).json()["lots"]
    assert sorted(lots.values()) == [1, 2, 3, 4]
    # once paired, a player is no longer edited or removed (409 naming the way out)
    assert httpx.post(f"{url}/rounds", headers=auth).status_code == 200
    r = httpx.patch(f"{url}/players/1", json={"name": "X"}, headers=auth)
    assert r.status_code == 409 and "already paired" in r.json()["detail"]
    r = httpx.delete(f"{url}/players/1", headers=auth)
    assert r.status_code == 409 and "withdraws instead" in r.json()["detail"]
    assert httpx.post(f"{url}/players/draw", headers=auth).status_code == 409
    bad = httpx.post(
        f"{url}/players", content=b"rank,club\n3d,A\n", headers={**auth, "content-type": "text/csv"}
    )
    assert bad.status_code in (409, 422) and "name" in bad.json()["detail"]


def _field(system: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Event options and players that let ``system`` pair its first round."""
    if system == "match":
        return {"games": 3}, [{"name": "A"}, {"name": "B"}]
    if system == "relay":
        return {}, [{"name": f"{t}{i}", "team": t} for t in "XY" for i in range(3)]
    options = {"groups": 2} if system == "groups" else {}
    return options, [{"name": f"P{i}", "rank": f"{i + 1}k"} for i in range(8)]


def test_every_system_of_the_cli_through_the_api(server: Server) -> None:
    for system in SYSTEMS:
        options, players = _field(system)
        ev = _new(server, game="go", system=system, options=options)
        url, auth = f"{server.url}/api/events/{ev['id']}", _auth(ev["organiser_token"])
        r = httpx.post(f"{url}/players", json=players, headers=auth)
        assert r.status_code == 200, (system, r.text)
        r = httpx.post(f"{url}/rounds", headers=auth)
        assert r.status_code == 200, (system, r.text)
        assert httpx.get(f"{url}/standings").status_code == 200, system


def test_a_results_sheet_enters_whole_or_not_at_all(server: Server) -> None:
    """A results sheet (CSV round,board,result, as `duiyi event result --file`): one change
    for the whole sheet, every board the director's with its audit entry and warnings (Go §24);
    a sheet with one bad board stores nothing; a change after the next pairing needs force."""
    ev = _new(server, game="go", system="swiss", rounds=3)
    url, auth = f"{server.url}/api/events/{ev['id']}", _auth(ev["organiser_token"])
    csv = {**auth, "content-type": "text/csv"}
    r = httpx.post(
        f"{url}/players",
        content=b"A\nB\nC\nD\nE\nF\n",
        headers={**auth, "content-type": "text/plain"},
    )
    assert r.status_code == 200, r.text
    assert httpx.post(f"{url}/rounds", headers=auth).status_code == 200
    before = httpx.get(url).json()["version"]
    bad = "round,board,result\n1,1,1-0\n1,9,0-1\n"
    r = httpx.post(f"{url}/results", content=bad.encode(), headers=csv)
    assert r.status_code == 409 and r.headers["content-type"] == "application/problem+json"
    assert "9" in r.json()["detail"]
    assert httpx.get(url).json()["version"] == before  # nothing of the sheet stored
    sheet = "round,board,result,black_warnings\n1,1,1-0,1\n1,2,0-1,0\n1,3,draw,0\n"
    r = httpx.post(f"{url}/results", content=sheet.encode(), headers=csv)
    assert r.status_code == 200, r.text
    assert [e["status"] for e in r.json()["entered"]] == ["entered"] * 3
    doc = httpx.get(url).json()
    assert doc["version"] == before + 1  # one change for the whole sheet
    games = doc["event"]["history"][0]["games"]
    assert [(g["result"], g["source"]) for g in games] == [
        ("1-0", "director"),
        ("0-1", "director"),
        ("draw", "director"),
    ]
    assert games[0]["warnings"] == {"black": 1, "white": 0}
    assert httpx.post(f"{url}/rounds", headers=auth).status_code == 200
    again = "round,board,result\n1,2,1-0\n"
    r = httpx.post(f"{url}/results", content=again.encode(), headers=csv)
    assert r.status_code == 409, r.text
    r = httpx.post(f"{url}/results?force=true", content=again.encode(), headers=csv)
    assert r.status_code == 200 and r.json()["affected"], r.text
    assert (
        httpx.post(
            f"{url}/results", content=sheet.encode(), headers={"content-type": "text/csv"}
        ).status_code
        == 401
    )
