"""Issue 12: every error is a problem document, typed rulings, CSV exports a spreadsheet cannot
run, socket frames the protocol does not know, and limits per client address."""

from __future__ import annotations

import csv
import io
import json
import socket
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, bearer, spectating
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

PROBLEM = "application/problem+json"


def _game(server: Server, **spec: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/games", json={"game": "go", "size": 9, **spec})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_requests_are_what_the_schema_says(server: Server) -> None:
    # a JSON false is not a number (the schema says integer): refused, not read as 0
    r = httpx.post(server.url + "/api/games", json={"game": "go", "handicap": False})
    assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM)
    # {} is not a time system: the schema says so and the server agrees
    r = httpx.post(server.url + "/api/games", json={"time_control": {}})
    assert r.status_code == 422
    spec = httpx.get(server.url + "/openapi.json").json()["components"]["schemas"]
    assert "system" in json.dumps(spec["GameSpec"]["properties"]["time_control"])
    # 3.0 is an integer in JSON Schema
    assert _game(server, size=9.0)["state"]["size"] == 9
    # a well-formed request the book forbids is refused by the rules (Go §11: komi steps of
    # a quarter stone under area counting by stones)
    r = httpx.post(server.url + "/api/games", json={"rules": {"komi": "1/3"}})
    assert r.status_code == 409, r.text
    assert "Go §11" in r.json()["detail"]


def test_405_names_every_allowed_method(server: Server) -> None:
    r = httpx.request("DELETE", server.url + "/api/games")
    assert r.status_code == 405 and r.headers["content-type"].startswith(PROBLEM)
    assert set(r.headers["allow"].replace(" ", "").split(",")) == {"POST"}
    r = httpx.request("OPTIONS", server.url + "/api/events")
    assert r.status_code == 405
    assert {"GET", "POST"} <= set(r.headers["allow"].replace(" ", "").split(","))


def test_typed_rulings(server: Server) -> None:
    g = _game(server)
    url = f"{server.url}/api/games/{g['id']}/rulings"
    arbiter = {"Authorization": f"Bearer {g['arbiter_token']}"}
    # the old shape (method name and positional arguments) is not a ruling any more
    r = httpx.post(url, json={"method": "moved_stones", "args": [0]}, headers=arbiter)
    assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM)
    # a wrongly typed argument is a 422 problem naming the field, never a 500
    r = httpx.post(url, json={"kind": "moved_stones", "decision": 0}, headers=arbiter)
    assert r.status_code == 422 and "decision" in r.json()["detail"]
    r = httpx.post(url, json={"kind": "warning", "color": "green"}, headers=arbiter)
    assert r.status_code == 422
    # Go §24.1: a warning is recorded
    r = httpx.post(url, json={"kind": "warning", "color": "black"}, headers=arbiter)
    assert r.status_code == 200, r.text
    assert r.json()["state"]["referee"]["black"]["warnings"] == 1
    # Go §17.5: moved stones put back; no outcome
    r = httpx.post(url, json={"kind": "moved_stones", "decision": "restore"}, headers=arbiter)
    assert r.status_code == 200 and r.json()["state"]["outcome"] is None
    # a Gomoku ruling in a Go game is refused by the referee (Go §24: warnings, not violations)
    r = httpx.post(url, json={"kind": "violation", "color": "white"}, headers=arbiter)
    assert r.status_code in (409, 422) and r.json()["article"] == "Go §24"


def _raw_http(server: Server, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data and b'"status"' in data:
                break
        return data


def test_a_chunked_body_over_the_limit_is_a_413(server: Server) -> None:
    g = _game(server)
    chunk = b"x" * 16_000
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(6)) + b"0\r\n\r\n"
    head = (
        f"POST /api/games/{g['id']}/actions HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {g['black_token']}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    answer = _raw_http(server, head + body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"application/problem+json" in answer
    assert b"Traceback" not in answer


def test_binary_frames_and_spent_budgets_close_the_socket(server: Server) -> None:
    g = _game(server)
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=bearer(g["black_token"])) as ws:
        json.loads(ws.recv(5))
        ws.send(b"\x00\x01binary")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
    # resync is answered once per version: a spectator cannot make the server resend the
    # whole game in a loop
    with connect(url, subprotocols=spectating()) as spectator:
        json.loads(spectator.recv(5))
        spectator.send(json.dumps({"type": "resync", "version": 0}))
        assert json.loads(spectator.recv(5))["type"] == "resync"
        spectator.send(json.dumps({"type": "resync", "version": 0}))
        again = json.loads(spectator.recv(5))
        assert again["type"] == "error" and again["problem"]["status"] == 429
        # a flood past the per-connection budget ends with a policy close (1008)
        closed = None
        try:
            for _ in range(200):
                spectator.send(json.dumps({"type": "ping"}))
            while True:
                spectator.recv(5)
        except ConnectionClosed as exc:
            closed = exc
        assert closed is not None and closed.rcvd is not None and closed.rcvd.code == 1008
    # the game itself is untouched and other sockets work
    with connect(url, subprotocols=bearer(g["black_token"])) as ws:
        assert json.loads(ws.recv(5))["seat"] == "black"


def test_rate_limit_is_per_address_not_per_header(server: Server) -> None:
    # a fresh random bearer per request is the same client (its address): the limit holds
    # (50 writes/s in bursts of 200: 600 quick requests cannot all pass, whatever the store)
    refused = 0
    with httpx.Client() as client:
        for i in range(600):
            r = client.post(
                server.url + "/api/nothing-here",
                json={"type": "pass"},
                headers={"Authorization": f"Bearer random-{i}"},
            )
            refused += r.status_code == 429
            if refused:
                break
    assert refused > 0


def test_names_and_csv_exports(server: Server) -> None:
    r = httpx.post(server.url + "/api/events", json={"name": "CSV", "game": "go"})
    ev = r.json()
    auth = {"Authorization": f"Bearer {ev['organiser_token']}"}
    players = f"{server.url}/api/events/{ev['id']}/players"
    # control characters and over-long names are refused at input (JSON and CSV)
    assert httpx.post(players, json=[{"name": "bell\x07"}], headers=auth).status_code == 422
    assert httpx.post(players, json=[{"name": "x" * 101}], headers=auth).status_code == 422
    assert (
        httpx.post(players, json=[{"name": "Li", "club": "c" * 101}], headers=auth).status_code
        == 422
    )
    bad_csv = "name,rank,rating,club\nWang\x1b[31m,1d,,Beijing\n"
    r = httpx.post(players, content=bad_csv, headers={**auth, "content-type": "text/csv"})
    assert r.status_code == 422
    # formulas are entered as names (they are printable text) but exported inert
    evil = ['=HYPERLINK("http://evil","x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]
    r = httpx.post(
        players,
        json=[{"name": n, "club": "=1+1"} for n in evil] + [{"name": "Wang", "rating": -5}],
        headers=auth,
    )
    assert r.status_code == 200, r.text
    text = httpx.get(f"{server.url}/api/events/{ev['id']}/export/players.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    for row, name in zip(rows, evil, strict=False):
        assert row["name"] == "'" + name and row["club"] == "'=1+1"
    assert rows[-1]["name"] == "Wang" and rows[-1]["rating"] == "-5"
