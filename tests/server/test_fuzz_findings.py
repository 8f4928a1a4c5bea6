"""What the seeded schemathesis run found once it worked on a world of games and events (issue
35; tests/server/fuzz_world.py): each finding as a request that was answered wrongly. The rule
of the answers (docs/server.md, "Errors and limits"): what the OpenAPI document's schema refuses
is a 422; a request the schema allows is never a 422: the game's or the event's state refuses it
(409) or the thing it names is not there (404)."""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, TypeAdapter
from tests.server.conftest import Server

from duiyi.server.app import create_app
from duiyi.server.engines.driver import gnugo_command


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp: Path = tmp_path_factory.mktemp("findings")
    s = Server(f"sqlite:///{tmp / 'f.sqlite3'}", None).start(tmp)
    yield s
    s.stop()


def _key(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _game(server: Server, **spec: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9, **spec})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _event(server: Server, players: int = 4, **spec: Any) -> dict[str, Any]:
    r = httpx.post(
        server.url + "/api/events", json={"name": "Cup", "game": "go", "rounds": 3, **spec}
    )
    assert r.status_code == 201, r.text
    ev: dict[str, Any] = r.json()
    names = "".join(f"P{i}\n" for i in range(players))
    r = httpx.post(
        f"{server.url}/api/events/{ev['id']}/players",
        content=names,
        headers={**_key(ev["organiser_token"]), "Content-Type": "text/csv"},
    )
    assert r.status_code == 200, r.text
    return ev


def _act(server: Server, g: dict[str, Any], token: str, **action: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/games/{g['id']}/actions", json=action, headers=_key(token))


# --- bool and int as the schema declares them (JSON Schema: true is not an integer) -----------


def _request_models() -> list[type[BaseModel]]:
    """Every pydantic model a route of the app reads a body with, and the models inside."""
    found: list[type[BaseModel]] = []

    def visit(t: Any) -> None:
        if isinstance(t, type) and issubclass(t, BaseModel):
            if t not in found:
                found.append(t)
                for f in t.model_fields.values():
                    visit(f.annotation)
            return
        for arg in typing.get_args(t):
            visit(arg)

    from fastapi.routing import APIRoute

    def routes(items: Any) -> Iterator[APIRoute]:
        for route in items:
            if isinstance(route, APIRoute):
                yield route
            inner = getattr(route, "original_router", None)  # an included router
            if inner is not None:
                yield from routes(inner.routes)

    for route in routes(create_app().routes):
        for param in route.dependant.body_params:
            visit(param.field_info.annotation)
    return found


def _kinds(t: Any) -> set[type]:
    out = {t} if t in (int, bool) else set()
    for arg in typing.get_args(t):
        out |= _kinds(arg)
    return out


def test_no_body_field_reads_a_bool_as_an_integer_or_an_integer_as_a_bool() -> None:
    # issue 35: `{"seed": true}` drew lots with seed 1, `white_warnings: false` entered 0
    # warnings, `force: 1` forced a correction: each a body the schema refuses, accepted
    wrong = []
    models = _request_models()
    assert len(models) > 20, [m.__name__ for m in models]
    for model in models:
        for name, f in model.model_fields.items():
            kinds = _kinds(f.annotation)
            field = TypeAdapter(typing.Annotated[f.annotation, f])
            tries = [True] if kinds == {int} else [1, 0] if kinds == {bool} else []
            for value in tries:
                try:
                    field.validate_python(value)
                except ValueError:
                    continue
                wrong.append(f"{model.__name__}.{name} accepts {value!r}")
    assert not wrong, wrong


def test_a_bool_seed_is_a_422_and_draws_nothing(server: Server) -> None:
    ev = _event(server)
    for path in ("lots", "players/draw"):
        r = httpx.post(
            f"{server.url}/api/events/{ev['id']}/{path}",
            json={"seed": True},
            headers=_key(ev["organiser_token"]),
        )
        assert r.status_code == 422 and "seed" in r.text, r.text


# --- actions: the document's schema is the one that reads them --------------------------------


def test_a_sealed_move_is_checked_by_the_documents_schema(server: Server) -> None:
    # Go §14, Gomoku §9.3: the player on move seals its next move; the sealed action's body is
    # one of the game's actions as the document shows them (its action_id a string)
    g = _game(server)
    r = _act(
        server,
        g,
        g["black_token"],
        type="adjourn",
        sealed={"type": "move", "point": "A1", "action_id": {}},
    )
    assert r.status_code == 422 and "sealed" in r.json()["detail"], r.text
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["version"] == g["version"] and state["adjourned_by"] is None
    r = _act(server, g, g["black_token"], type="adjourn", sealed={"type": "move", "point": "a01"})
    assert r.status_code == 200, r.text
    sealed = httpx.get(f"{server.url}/api/games/{g['id']}/actions").json()["actions"]
    assert "A1" in str(sealed) or "sealed" in str(sealed), sealed


@pytest.mark.parametrize("point", ["A010", "e025", "D004"])
def test_a_point_with_a_leading_zero_before_two_digits_is_no_point(
    server: Server, point: str
) -> None:
    # Go §1: a column letter and a row number; "D04" is read as D4, "A010" is no row's name
    g = _game(server)
    r = _act(server, g, g["black_token"], type="move", point=point)
    assert r.status_code == 422, r.text
    document = httpx.get(server.url + "/openapi.json").json()
    pattern = document["components"]["schemas"]["MoveAction"]["properties"]["point"]["pattern"]
    assert re.match(pattern, point) is None, pattern  # the document says so too
    assert re.match(pattern, "D04") and re.match(pattern, "D4") and re.match(pattern, "D19")


def test_an_opening_stone_off_the_board_is_the_boards_refusal(server: Server) -> None:
    # Gomoku §3.2 the designated opening's three stones; y78 has the books' form (the schema
    # allows it) but no 15×15 board has it: refused by the board (409), as a move off it is
    g = _game(server, game="gomoku")
    r = _act(server, g, g["black_token"], type="open", moves=["h8", "p9", "y78"])
    assert r.status_code == 409, r.text
    r = _act(server, g, g["black_token"], type="open", moves=["H8", "h07", "J9"])
    assert r.status_code == 200, r.text
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["moves_list"][:3] == [
        "h8",
        "h7",
        "j9",
    ]


def test_a_move_off_a_small_board_is_a_409_not_a_422(server: Server) -> None:
    g = _game(server)  # 9×9: D30 is a point of the books' form, not of this board
    r = _act(server, g, g["black_token"], type="move", point="D30")
    assert r.status_code == 409, r.text


# --- rulings ---------------------------------------------------------------------------------


def test_a_ruling_answering_a_call_the_game_does_not_have_is_a_409(server: Server) -> None:
    g = _game(server)
    ruling = {"kind": "warning", "color": "black", "article": "Go §24", "answers": 7}
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/rulings", json=ruling, headers=_key(g["arbiter_token"])
    )
    assert r.status_code == 409 and "answers" in r.json()["detail"], r.text
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["version"] == g["version"]


def test_a_ruling_move_number_past_the_games_moves_is_a_409(server: Server) -> None:
    # the schema allows move numbers 0-10000; a game with no move refuses 9999 (its state)
    g = _game(server)
    ruling = {"kind": "warning", "color": "black", "article": "Go §24", "move_number": 9999}
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/rulings", json=ruling, headers=_key(g["arbiter_token"])
    )
    assert r.status_code == 409 and "move_number" in r.json()["detail"], r.text


def test_a_ruling_point_off_the_board_is_a_409_and_points_are_unique(server: Server) -> None:
    # Go §18.1 stones restored: the points named are on this 9×9 board, each once
    g = _game(server)
    ruling = {"kind": "stones_restored", "color": "white", "points": ["A33"]}
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/rulings", json=ruling, headers=_key(g["arbiter_token"])
    )
    assert r.status_code == 409, r.text
    document = httpx.get(server.url + "/openapi.json").json()
    restored = document["components"]["schemas"]["StonesRestored"]["properties"]["points"]
    assert restored.get("uniqueItems") is True, restored


def test_two_spellings_of_one_point_are_that_point_once_not_a_422(server: Server) -> None:
    # Go §18.1 stones restored: "C3" and "c3" are distinct strings to the schema's uniqueItems,
    # one point to the board: read as C3 once (then the game refuses, nothing was removed
    # there: 409); the same string twice stays the schema's refusal (422)
    g = _game(server)
    url = f"{server.url}/api/games/{g['id']}/rulings"
    ruling = {"kind": "stones_restored", "color": "black", "points": ["C3", "c3"]}
    r = httpx.post(url, json=ruling, headers=_key(g["arbiter_token"]))
    assert r.status_code == 409 and "C3" in r.json()["detail"], r.text
    twice = {**ruling, "points": ["C3", "C3"]}
    r = httpx.post(url, json=twice, headers=_key(g["arbiter_token"]))
    assert r.status_code == 422 and "distinct" in r.json()["detail"], r.text


# --- the other operations --------------------------------------------------------------------


def test_a_gomoku_game_has_no_positions_404(server: Server) -> None:
    g = _game(server, game="gomoku")
    r = httpx.get(f"{server.url}/api/games/{g['id']}/position")
    assert r.status_code == 404, r.text


def test_the_opengotha_body_is_in_the_document_and_its_example_is_entered(server: Server) -> None:
    document = httpx.get(server.url + "/openapi.json").json()
    op = document["paths"]["/api/events/{event_id}/players/opengotha"]["post"]
    body = op["requestBody"]["content"]["application/xml"]["schema"]
    r = httpx.post(server.url + "/api/events", json={"name": "Cup", "game": "go", "rounds": 3})
    ev = r.json()
    r = httpx.post(
        f"{server.url}/api/events/{ev['id']}/players/opengotha",
        content=body["example"],
        headers={**_key(ev["organiser_token"]), "Content-Type": "application/xml"},
    )
    assert r.status_code == 200 and r.json()["entered"] == 1, r.text


def test_the_hand_pairing_example_is_a_pairing(server: Server) -> None:
    ev = _event(server)
    org = _key(ev["organiser_token"])
    assert httpx.post(f"{server.url}/api/events/{ev['id']}/rounds", headers=org).status_code == 200
    document = httpx.get(server.url + "/openapi.json").json()
    example = document["components"]["schemas"]["HandPairing"]["examples"][0]
    r = httpx.put(
        f"{server.url}/api/events/{ev['id']}/rounds/1/pairings", json=example, headers=org
    )
    assert r.status_code == 200, r.text


@pytest.mark.gnugo
@pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed (.ci/run installs it)")
def test_an_engine_level_the_server_lacks_is_not_on_this_server(tmp_path: Path) -> None:
    # the document allows levels 0-999 (any engine's); gnugo here has 1-10: level 0 is an
    # engine this server does not offer (404), as an unlisted name is
    s = Server(f"sqlite:///{tmp_path / 'e.sqlite3'}", None, env={"DUIYI_GNUGO": "1"})
    s.start(tmp_path)
    try:
        r = httpx.post(s.url + "/api/engine-games", json={"engine": "", "level": 0})
        assert r.status_code == 404 and "level" in r.json()["detail"], r.text
        r = httpx.post(s.url + "/api/engine-games", json={"engine": "nobody"})
        assert r.status_code == 404, r.text
    finally:
        s.stop()
