"""The body of a ruling in the OpenAPI document is one schema per request of the core
(duiyi.referee.requests), built from it: each request class has exactly one schema and each
schema one request class, with the request's fields, so that a field added to a request is in
the document without a second description of it in the server."""

from __future__ import annotations

import dataclasses
import json
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from duiyi import BLACK, Color
from duiyi.referee import RulingKind, RulingRequest
from duiyi.referee import requests as rq
from duiyi.server.app import create_app
from duiyi.server.games import rulings
from duiyi.server.games.rulings import RULING_MODELS, parse_ruling

# what the server adds to every ruling: the call it answers, the arbiter's id of the ruling
SERVER_FIELDS = {"kind", "answers", "action_id"}
BODIES = Path(__file__).resolve().parents[1] / "data" / "rulings" / "bodies.json"


def _ruling_body() -> dict[str, Any]:
    doc = create_app().openapi()
    post = doc["paths"]["/api/games/{game_id}/rulings"]["post"]
    body: dict[str, Any] = post["requestBody"]["content"]["application/json"]["schema"]
    return {"body": body, "schemas": doc["components"]["schemas"]}


def test_each_request_has_exactly_one_schema_and_each_schema_one_request() -> None:
    assert set(typing.get_args(RulingRequest)) == set(rq.REQUESTS)
    assert sorted(m.request.__name__ for m in RULING_MODELS.values()) == sorted(
        c.__name__ for c in rq.REQUESTS
    )
    assert set(RULING_MODELS) == {c.kind.value for c in rq.REQUESTS}  # type: ignore[attr-defined]
    doc = _ruling_body()
    body, schemas = doc["body"], doc["schemas"]
    assert body["discriminator"]["propertyName"] == "kind"
    mapping = {k: v.rsplit("/", 1)[-1] for k, v in body["discriminator"]["mapping"].items()}
    assert set(mapping) == set(RULING_MODELS)
    assert len(body["oneOf"]) == len(rq.REQUESTS)
    for kind, name in mapping.items():
        assert name == RULING_MODELS[kind].request.__name__
        assert schemas[name]["properties"]["kind"]["const"] == kind
        assert schemas[name]["additionalProperties"] is False


def test_each_schema_has_its_requests_fields() -> None:
    schemas = _ruling_body()["schemas"]
    for kind, model in RULING_MODELS.items():
        schema = schemas[model.request.__name__]
        fields = dataclasses.fields(model.request)
        sent = {f.name for f in fields if (kind, f.name) not in rulings._NOT_SENT}
        assert set(schema["properties"]) == sent | SERVER_FIELDS, kind
        required = {
            f.name
            for f in fields
            if f.default is dataclasses.MISSING and (kind, f.name) not in rulings._DEFAULTS
        }
        assert set(schema["required"]) == required | {"kind"}, kind
    # the server's own exceptions name fields that exist
    for kind, name in {*rulings._NOT_SENT, *rulings._DEFAULTS, *rulings._NARROWER}:
        assert name in {f.name for f in dataclasses.fields(RULING_MODELS[kind].request)}


def test_a_field_added_to_a_request_is_in_its_schema() -> None:
    @dataclass(frozen=True)
    class Caution:  # a warning with one field more
        color: Color
        minutes: int
        seconds: float = 0.0
        note: str = ""
        kind: ClassVar[RulingKind] = RulingKind.WARNING

    model = rulings._model(Caution)
    schema = model.model_json_schema()
    assert set(schema["properties"]) == {"color", "minutes", "seconds", "note"} | SERVER_FIELDS
    assert set(schema["required"]) == {"kind", "color", "minutes"}
    assert schema["properties"]["minutes"]["type"] == "integer"
    assert schema["properties"]["seconds"]["maximum"] == 86_400  # bounded by its name
    made = model.model_validate({"kind": "warning", "color": "black", "minutes": 3})
    assert made.to_request() == Caution(BLACK, 3)


def test_bodies_become_the_same_requests() -> None:
    # Gomoku §13.1: the appeal's words stay text in the request, as the core takes them
    appeal = parse_ruling({"kind": "appeal", "color": "white", "against": 0}).to_request()
    assert appeal == rq.Appeal(Color.WHITE, 0, question="fact", appellant="player")
    assert parse_ruling({"kind": "no_show", "colors": ["black", "white"]}).to_request() == (
        rq.NoShow((Color.BLACK, Color.WHITE))
    )
    # Gomoku §5.3(2): the server tosses the coin when the arbiter gives no face
    toss = parse_ruling({"kind": "coin_toss", "caller": "black", "called": "heads"})
    assert typing.cast(rq.CoinToss, toss.to_request()).face in ("heads", "tails")
    # the API cites the article a warning rests on (Go §24) when the body names none
    assert parse_ruling({"kind": "warning", "color": "black"}).to_request() == rq.Warning(
        BLACK, "Go §24"
    )


def test_the_ruling_bodies_and_forms_read_as_before_the_base_request() -> None:
    # issue 34: the requests share their note, player and move through a base request; the
    # bodies (tests/data/rulings/bodies.json, written by main before that change; written
    # again by issue 35, which put the articles, the points and the time penalty in the
    # schemas on purpose) keep their schemas and the forms their fields, in the same order
    # (the forms show them as listed)
    stored = json.loads((BODIES).read_text("utf-8"))
    models = {k: m.model_json_schema() for k, m in RULING_MODELS.items()}
    assert json.dumps(models) == json.dumps(stored["ruling_models"])
    tables = {g: rulings.ruling_table(g) for g in ("go", "gomoku")}
    assert json.dumps(tables) == json.dumps(stored["tables"])
    # each request's fields in the order of its call, as it was written before the base
    assert [f.name for f in rq.request_fields(rq.TimePenalty)] == [
        "color",
        "deduct",
        "award",
        "article",
        "note",
        "move_number",
    ]
    assert repr(rq.Warning(BLACK, "Go §24")) == (
        "Warning(color=Color.BLACK, article='Go §24', note='', move_number=None)"
    )
