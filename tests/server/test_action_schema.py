"""The body of an action in the OpenAPI document is one schema per action a client may send,
told apart by ``type`` (issue 24: clients and schemathesis see each action's fields), made
from duiyi.actions; the server reads the body as before."""

from __future__ import annotations

import typing
from typing import Any

import httpx
from tests.server.conftest import Server

from duiyi.actions import SESSION_ACTIONS, GameAction
from duiyi.server.app import create_app

PROBLEM = "application/problem+json"


def _document() -> dict[str, Any]:
    return create_app().openapi()


def _ref(schema: dict[str, Any]) -> str:
    return str(schema["$ref"]).rsplit("/", 1)[-1]


def test_the_actions_body_is_a_union_told_apart_by_type() -> None:
    doc = _document()
    schemas = doc["components"]["schemas"]
    post = doc["paths"]["/api/games/{game_id}/actions"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert body["discriminator"]["propertyName"] == "type"
    mapping = {k: v.rsplit("/", 1)[-1] for k, v in body["discriminator"]["mapping"].items()}
    assert {_ref(s) for s in body["oneOf"]} == set(mapping.values())
    # every game action, and what a player or the arbiter sends beside them
    game = {SESSION_ACTIONS.name_of(typing.get_origin(c) or c) for c in typing.get_args(GameAction)}
    assert game | {"adjourn", "arrive", "pause", "resume", "split_pool"} <= set(mapping)
    # what only the session logs is no request (a flag falls, Go §22; a ruling has its route)
    assert not {"flag", "no_show", "ruling", "overtime_pass"} & set(mapping)
    for kind, name in mapping.items():
        assert schemas[name]["properties"]["type"]["const"] == kind
    # each action's own fields (Gomoku §3.2: the opening is its stones and the fifth moves)
    opening = schemas[mapping["open"]]
    assert set(opening["required"]) == {"type", "moves"}
    assert opening["properties"]["moves"]["type"] == "array"
    assert opening["properties"]["fifth_n"]["type"] == "integer"
    assert set(schemas[mapping["move"]]["required"]) == {"type", "point"}
    assert "action_id" in schemas[mapping["pass"]]["properties"]
    # a sealed move is one of the game's actions (Go §14)
    sealed = schemas[mapping["adjourn"]]["properties"]["sealed"]
    assert sealed["discriminator"]["propertyName"] == "type"
    assert {_ref(s) for s in sealed["oneOf"]} == {mapping[k] for k in game}


def test_the_server_reads_actions_as_before(server: Server) -> None:
    g = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9}).json()
    url = f"{server.url}/api/games/{g['id']}/actions"
    black = {"Authorization": f"Bearer {g['black_token']}"}
    r = httpx.post(url, json={"type": "teleport"}, headers=black)
    assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM)
    assert "teleport" in r.json()["detail"]
    assert httpx.post(url, json={"type": 5}, headers=black).status_code == 422
    assert httpx.post(url, json={"type": "move"}, headers=black).status_code == 422
    # an action of the arbiter's is refused to a player (Go §14), not read as malformed
    assert httpx.post(url, json={"type": "pause"}, headers=black).status_code == 403
    # the older name of a move's point is still read
    r = httpx.post(url, json={"type": "move", "move": "E5", "note": "kept"}, headers=black)
    assert r.status_code == 200, r.text
    assert r.json()["version"] >= 1
