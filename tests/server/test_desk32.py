"""The desk's and the tournament's side of issue 32 over HTTP: standings after a late entry,
and what the SGF archive says of the boards it has no record of."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.conftest import Server


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _event(server: Server, **spec: Any) -> tuple[dict[str, Any], str, dict[str, str]]:
    ev = httpx.post(f"{server.url}/api/events", json=spec).json()
    return ev, f"{server.url}/api/events/{ev['id']}", _auth(ev["organiser_token"])


def _players(url: str, org: dict[str, str], names: str) -> None:
    r = httpx.post(f"{url}/players", content=names, headers={**org, "content-type": "text/csv"})
    assert r.status_code == 200, r.text


def test_standings_and_exports_after_a_late_entry_keep_the_lots(server: Server) -> None:
    # Go §27.1(1)C: the last ties go to the lot. Issue 32: after a late entry GET /standings and
    # the exports answered 409 "no lot drawn for 5" (the late entrant tied with a player who
    # drew a lot) until every lot was drawn again
    _ev, url, org = _event(server, name="晚到", game="go", system="swiss", rounds=3)
    _players(url, org, "name\nAn\nBo\nCe\nDi\n")
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    for board in (1, 2):
        r = httpx.put(f"{url}/rounds/1/boards/{board}/result", json={"result": "1-0"}, headers=org)
        assert r.status_code == 200, r.text
    lots = httpx.post(f"{url}/lots", json={}, headers=org).json()["lots"]
    _players(url, org, "name\nEd\n")  # a late entry after round 1
    assert httpx.post(f"{url}/rounds", headers=org).is_success  # Ed has the bye
    for board in (1, 2):
        r = httpx.put(f"{url}/rounds/2/boards/{board}/result", json={"result": "0-1"}, headers=org)
        assert r.status_code == 200, r.text
    stored = httpx.get(url).json()["event"]["lots"]
    r = httpx.get(f"{url}/standings")
    assert r.status_code == 200, r.text
    assert sorted(row["number"] for row in r.json()["standings"]) == [1, 2, 3, 4, 5]
    for path in ("export/standings.csv", "export/opengotha.xml", "standings.html"):
        assert httpx.get(f"{url}/{path}").status_code == 200, path
    assert {k: v for k, v in stored.items() if k != "5"} == lots  # the earlier lots stay
    assert stored["5"] == max(lots.values()) + 1


def test_a_mixed_events_archive_says_which_boards_it_lacks(server: Server) -> None:
    # issue 32: the SGF archive was empty for desk results, saying nothing; the SGF of a game
    # closed at the desk lacked PB, PW, RE; the desk's result left the game's clock running
    import io
    import zipfile

    _ev, url, org = _event(
        server, name="混合", game="go", system="swiss", rounds=2, online={"size": 9}
    )
    _players(url, org, "name\nAn\nBo\nCe\nDi\n")
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    # board 2 is played over the board: its result entered at the desk before the games start
    r = httpx.put(f"{url}/rounds/1/boards/2/result", json={"result": "1-0"}, headers=org)
    assert r.status_code == 200, r.text
    games = httpx.post(f"{url}/rounds/1/games", headers=org)
    assert games.status_code == 201, games.text
    (one,) = games.json()["games"]
    assert one["board"] == 1
    # board 1's online game is closed by the director's result
    r = httpx.put(f"{url}/rounds/1/boards/1/result", json={"result": "0-1"}, headers=org)
    assert r.status_code == 200 and r.json()["closed_games"] == [one["game_id"]], r.text
    st = httpx.get(f"{server.url}/api/games/{one['game_id']}").json()
    assert st["clock_running"] is None  # no clock runs on a closed game
    move = httpx.post(
        f"{server.url}/api/games/{one['game_id']}/actions",
        json={"type": "move", "point": "E5"},
        headers=_auth(one["black_token"]),
    )
    assert move.status_code == 409, move.text  # closed: it takes no more moves
    archive = zipfile.ZipFile(io.BytesIO(httpx.get(f"{url}/export/sgf.zip").content))
    (record,) = [n for n in archive.namelist() if n.endswith(".sgf")]
    sgf = archive.read(record).decode()
    assert "PB[An]" in sgf and "PW[Bo]" in sgf and "RE[W+]" in sgf, sgf
    missing = archive.read("missing.txt").decode()
    assert "round 1 board 2" in missing and "Ce – Di, 1-0" in missing
    assert "result entered at the desk, not played online" in missing
    assert "编排台录入成绩，未在网上对局" in missing
