"""The server's last gaps (issue 35): the operator's metrics behind the operator's key, the
socket's subprotocol required, one validation layer that normalises what it accepts and refuses
the rest naming the field, and the statuses of a refusal as the API documents them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, bearer, operator, spectating
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("gaps")
    s = Server(f"sqlite:///{tmp / 'gaps.sqlite3'}", None).start(tmp)
    yield s
    s.stop()


def _game(server: Server, **spec: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9, **spec})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


# -- 1. the operator's data stays the operator's ------------------------------------------------


def test_metrics_answer_only_the_operators_key(server: Server) -> None:
    anyone = httpx.get(server.url + "/api/metrics")
    assert anyone.status_code == 401, anyone.text
    assert anyone.headers["content-type"].startswith(PROBLEM)
    assert "process" not in anyone.json() and "operator" in anyone.json()["detail"]
    player = _game(server)["black_token"]
    other = httpx.get(server.url + "/api/metrics", headers={"Authorization": f"Bearer {player}"})
    assert other.status_code == 403, other.text
    assert "DUIYI_OPERATOR_KEY" in other.json()["detail"]
    mine = httpx.get(server.url + "/api/metrics", headers=operator())
    assert mine.status_code == 200, mine.text
    assert mine.json()["games_hosted"] >= 1


def test_without_an_operator_key_metrics_answer_nobody(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'n.sqlite3'}", None, env={"DUIYI_OPERATOR_KEY": ""})
    s.start(tmp_path)
    try:
        for guess in ("None", "null", "-"):
            r = httpx.get(s.url + "/api/metrics", headers={"Authorization": f"Bearer {guess}"})
            assert r.status_code == 403, r.text
    finally:
        s.stop()


# -- 3. the socket speaks its subprotocol or refuses ---------------------------------------------


def test_a_socket_without_the_duiyi_subprotocol_is_refused(server: Server) -> None:
    g = _game(server)
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=10)
    assert refused.value.response.status_code == 422
    assert b"'duiyi'" in refused.value.response.body
    with pytest.raises(InvalidStatus):  # a token alone is not the protocol either
        connect(url, subprotocols=bearer(g["black_token"])[1:], open_timeout=10)
    with connect(url, subprotocols=spectating()) as watcher:
        assert watcher.subprotocol == "duiyi"
    with connect(url, subprotocols=bearer(g["black_token"])) as black:
        assert black.subprotocol == "duiyi"


# -- 5. a key that came but does not allow this is a 403, not a 401 ----------------------------


def _key(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_key_that_does_not_allow_the_request_is_a_403(server: Server) -> None:
    g, other = _game(server), _game(server)
    base = f"{server.url}/api/games/{g['id']}"
    warning = {"kind": "warning", "color": "black", "article": "Go §24"}
    # another game's arbiter rules here; this game's arbiter asks for a player's rematch
    r = httpx.post(base + "/rulings", json=warning, headers=_key(other["arbiter_token"]))
    assert r.status_code == 403, r.text
    for method in ("POST", "DELETE"):
        r = httpx.request(method, base + "/rematch", headers=_key(g["arbiter_token"]))
        assert r.status_code == 403, (method, r.text)
        assert "player's token" in r.json()["detail"]
    r = httpx.post(base + "/calls", json={"about": "foul"}, headers=_key(g["arbiter_token"]))
    assert r.status_code == 403, r.text
    r = httpx.post(base + "/actions", json={"type": "pass"}, headers=_key(other["black_token"]))
    assert r.status_code == 403, r.text
    # without any key: 401, as before
    assert httpx.post(base + "/rematch").status_code == 401
    assert httpx.post(base + "/rulings", json=warning).status_code == 401
    # the arbiter's own ruling is made
    r = httpx.post(base + "/rulings", json=warning, headers=_key(g["arbiter_token"]))
    assert r.status_code == 200, r.text


# -- 4. one validation layer: normalise what is accepted, refuse the rest naming the field ----


def _act(server: Server, g: dict[str, Any], token: str, **action: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/games/{g['id']}/actions", json=action, headers=_key(token))


def _rule(server: Server, g: dict[str, Any], **ruling: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{g['id']}/rulings", json=ruling, headers=_key(g["arbiter_token"])
    )


def _logged(server: Server, g: dict[str, Any], plays: list[tuple[str, str]]) -> list[str]:
    """Play ``plays`` (token, point as typed) and return the points as the game's log keeps
    them: the socket's updates carry the log's entries as committed."""
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    logged: list[str] = []
    with connect(url, subprotocols=spectating()) as watcher:
        assert json.loads(watcher.recv(10))["type"] == "hello"
        for n, (token, typed) in enumerate(plays, 1):
            assert _act(server, g, token, type="move", move=typed).status_code == 200
            while len(logged) < n:
                m = json.loads(watcher.recv(10))
                if m["type"] == "update":
                    logged += [a["point"] for a in m["actions"] if a["type"] == "move"]
    return logged


def test_points_are_stored_as_the_book_writes_them(server: Server) -> None:
    # Go §1 (GTP letters): "d4" and "D04" are D4; Gomoku §1: "H08" is h8
    g = _game(server)
    plays = [(g["black_token"], "d4"), (g["white_token"], "E05")]
    assert _logged(server, g, plays) == ["D4", "E5"]
    view = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert view["moves"] == [["black", "D4"], ["white", "E5"]]
    # free Renju (no opening phase): the first stone is Black's
    k = httpx.post(server.url + "/api/games", json={"game": "gomoku", "rules": "free_renju"})
    k = k.json()
    assert _logged(server, k, [(k["black_token"], "H08")]) == ["h8"]
    # a ruling's point off the board names the field; the board refuses it (409), as an
    # action's (issue 35: the schema allows K1, so it is no malformed body)
    r = _rule(server, g, kind="stones_restored", color="white", points=["J9", "K1"])
    assert r.status_code == 409 and r.json()["detail"].startswith("points.1:"), r.text


def test_a_rulings_article_must_be_one_of_the_games_book(server: Server) -> None:
    g = _game(server)
    # no article of either book: the schema's pattern refuses it (422, naming the field)
    for article in ("Go §999", "Go §0", "Chess §1", "§24"):
        r = _rule(server, g, kind="warning", color="black", article=article)
        assert r.status_code == 422, (article, r.text)
        assert "article" in r.json()["detail"], r.text
    # an article of the other book: the schema allows it, this game's book refuses it (409;
    # issue 35: a body the schema allows is never a 422)
    r = _rule(server, g, kind="warning", color="black", article="Gomoku §12.4")
    assert r.status_code == 409 and r.json()["detail"].startswith("article:"), r.text
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["version"] == g["version"]
    # Go §24.1: a warning; Go §33 is the book's last article
    assert _rule(server, g, kind="warning", color="black", article="Go §24.1").status_code == 200
    k = httpx.post(server.url + "/api/games", json={"game": "gomoku"}).json()
    r = _rule(server, k, kind="violation", color="black", article="Go §24")
    assert r.status_code == 409 and "Gomoku §1-§19" in r.json()["detail"], r.text
    r = _rule(server, k, kind="violation", color="black", article="Gomoku §12.3(4)")
    assert r.status_code == 200, r.text


def test_a_rulings_move_number_lies_within_the_game(server: Server) -> None:
    g = _game(server)
    assert _act(server, g, g["black_token"], type="move", move="D4").status_code == 200
    r = _rule(server, g, kind="warning", color="black", article="Go §24", move_number=2)
    # issue 35: a move number the schema allows that the game has not reached is the game's
    # state refusing it (409), not a malformed body (422: what the schema refuses)
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == "move_number: 2 is past the game's last move (1 played)"
    r = _rule(server, g, kind="warning", color="black", article="Go §24", move_number=1)
    assert r.status_code == 200, r.text
    assert r.json()["rulings"][0]["move_number"] == 1


def _paired_event(server: Server) -> tuple[str, dict[str, str]]:
    r = httpx.post(server.url + "/api/events", json={"name": "Cup", "game": "go", "rounds": 2})
    ev = r.json()
    org = _key(ev["organiser_token"])
    url = f"{server.url}/api/events/{ev['id']}"
    players = httpx.post(
        url + "/players", content="A\nB\nC\nD\n", headers={**org, "content-type": "text/plain"}
    )
    assert players.status_code == 200, players.text
    assert httpx.post(url + "/rounds", headers=org).status_code in (200, 201)
    return url, org


@pytest.mark.parametrize(
    ("sheet", "said"),
    [
        ("round,board,result\n١,1,1-0\n", "round must be a number in ASCII digits"),
        ("round,board,result\n1,١,1-0\n", "board must be a number in ASCII digits"),
        ("round,board,result\n1,1,1-0\n1,2,0-1\n1,1,1-0\n", "line 4: round 1 board 1 is on line 2"),
    ],
)
def test_a_results_sheet_in_other_digits_or_with_a_board_twice_is_refused(
    server: Server, sheet: str, said: str
) -> None:
    url, org = _paired_event(server)
    csv = {**org, "content-type": "text/csv"}
    r = httpx.post(url + "/results", content=sheet.encode(), headers=csv)
    assert r.status_code == 422, r.text
    assert said in r.json()["detail"], r.text
    ok = httpx.post(url + "/results", content=b"round,board,result\n1,1,1-0\n", headers=csv)
    assert ok.status_code == 200, ok.text


def test_a_rating_in_other_digits_is_refused(server: Server) -> None:
    r = httpx.post(server.url + "/api/events", json={"name": "Cup", "game": "go", "rounds": 2})
    ev = r.json()
    url = f"{server.url}/api/events/{ev['id']}/players"
    csv = {**_key(ev["organiser_token"]), "content-type": "text/csv"}
    for rating in ("١٢", "１２", "1٢"):
        r = httpx.post(url, content=f"name,rating\nLi,{rating}\n".encode(), headers=csv)
        assert r.status_code == 422, r.text
        assert "rating must be a whole number in ASCII digits" in r.json()["detail"]
    r = httpx.post(url, content=b"name,rating\nLi,12\n", headers=csv)
    assert r.status_code == 200 and r.json()["players"][0]["rating"] == 12, r.text


# -- 6. the answers in the OpenAPI document as they are ------------------------------------------


def test_a_repeated_query_parameter_is_refused(server: Server) -> None:
    r = httpx.get(server.url + "/api/live-games?limit=5&limit=7")
    assert r.status_code == 422, r.text
    assert "'limit' is given twice" in r.json()["detail"]
    assert httpx.get(server.url + "/api/live-games?limit=5").status_code == 200


def test_the_document_says_what_the_server_answers(server: Server) -> None:
    doc = httpx.get(server.url + "/openapi.json").json()
    operations = [(p, m, op) for p, ops in doc["paths"].items() for m, op in ops.items()]
    assert all("413" in op["responses"] for _, _, op in operations)
    # the level once: 'NAME:LEVEL' or level, never both (the server refuses both: 422)
    engine_game = doc["components"]["schemas"]["EngineGame"]
    assert engine_game["not"]["required"] == ["engine", "level"]
    # the files are documented as the files they are
    content = doc["paths"]["/api/events/{event_id}/export/sgf.zip"]["get"]["responses"]["200"]
    assert list(content["content"]) == ["application/zip"]
    sgf = doc["paths"]["/api/games/{game_id}/sgf"]["get"]["responses"]["200"]["content"]
    assert "application/x-go-sgf" in sgf
    # links from what makes a game or an event to every operation on it, with its key; none to
    # an operation under a round or a board, which a new event does not have yet (make fuzz's
    # stateful phase read round 2's 404 as "created resource not found")
    for created, param in (("/api/games", "game_id"), ("/api/events", "event_id")):
        links = doc["paths"][created]["post"]["responses"]["201"]["links"]
        targets = {
            op["operationId"]
            for p, _, op in operations
            if p.startswith(created + "/{" + param + "}") and p.count("{") == 1
        }
        assert set(links) == targets and targets
        assert all(
            link["parameters"][f"path.{param}"] == "$response.body#/id" for link in links.values()
        )
    # Gomoku §3.2: the designated opening is three stones, each a point in the book's form
    schemas = doc["components"]["schemas"]
    opening = schemas["OpenAction"]["properties"]["moves"]
    assert opening["minItems"] == opening["maxItems"] == 3 and opening["items"]["pattern"]
    r = httpx.post(server.url + "/api/engine-games", json={"engine": "x:3", "level": 3})
    assert r.status_code in (404, 422), r.text


def test_what_the_state_refuses_is_a_409_and_what_is_not_there_a_404(server: Server) -> None:
    g = _game(server)
    base = f"{server.url}/api/games/{g['id']}"
    # Go §1: K10 is a point in the book's form, off this 9x9 board (409); "K٤" is no point (422)
    assert _act(server, g, g["black_token"], type="move", move="K10").status_code == 409
    assert _act(server, g, g["black_token"], type="move", move="K٤").status_code == 422
    r = httpx.delete(base + "/rematch", headers=_key(g["black_token"]))
    assert r.status_code == 409 and "no rematch is offered" in r.json()["detail"], r.text
    assert httpx.get(base + "/actions?after=99").status_code == 409
    assert httpx.get(base + "/actions?after=-1").status_code == 422
    assert httpx.get(base + "/position?move=99").status_code == 404
    # Go §14: a move during a pause is refused by the state of the game (409), not its form
    assert _act(server, g, g["arbiter_token"], type="pause").status_code == 200
    r = _act(server, g, g["black_token"], type="move", move="D4")
    assert r.status_code == 409 and "paused" in r.json()["detail"], r.text


def test_a_number_in_a_path_past_any_event_is_a_422_never_a_500(server: Server) -> None:
    # schemathesis' stateful run (issue 35): a round number past 64 bits reached the store
    url, org = _paired_event(server)
    huge = "-5422939157242428407366985711616"
    for method, path, body in (
        ("POST", f"/rounds/{huge}/boards/1/conflict", {"accept": False}),
        ("PUT", f"/rounds/1/boards/{huge}/result", {"result": "1-0"}),
        ("GET", f"/rounds/{huge}", None),
    ):
        r = httpx.request(method, url + path, json=body, headers=org)
        assert r.status_code == 422, (path, r.text)
    assert httpx.get(url + "/rounds/1").status_code == 200
