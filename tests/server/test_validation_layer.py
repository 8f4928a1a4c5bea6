"""One validation layer for every input (issue 25, findings 5 and 7): moves in the books' ASCII
coordinates, event options by the systems' schema, JSON bodies bounded before parsing, keys
before bodies, socket messages bounded and answered (never a dropped socket), names and free
text without control, bidi override or zero-width characters, and every CSV export written by
one writer that neutralises formulas."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, bearer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

PROBLEM = "application/problem+json"


def _game(server: Server, game: str = "go") -> dict[str, Any]:
    r = httpx.post(
        server.url + "/api/games",
        json={"game": game, "size": 9} if game == "go" else {"game": game},
    )
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _event(server: Server, **spec: Any) -> dict[str, Any]:
    body = {"name": "Cup", "game": "go", "rounds": 3, **spec}
    r = httpx.post(server.url + "/api/events", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _key(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# Go §1 (and GTP): a point is a column letter and a row number; Gomoku §1: a-o and 1-15.
@pytest.mark.parametrize("move", ["D²", "D⁴", "D٤", "D४", "Ｄ4"])
def test_a_move_in_other_digits_is_a_422_and_never_stored(server: Server, move: str) -> None:
    g = _game(server)
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "move", "move": move},
        headers=_key(g["black_token"]),
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    assert "ASCII" in r.json()["detail"] and "'D4'" in r.json()["detail"]
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["version"] == g["version"] and state["moves"] == []
    ok = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "move", "move": "D4"},
        headers=_key(g["black_token"]),
    )
    assert ok.status_code == 200, ok.text


def test_gomoku_moves_take_ascii_only(server: Server) -> None:
    g = _game(server, "gomoku")
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "move", "move": "h٨"},
        headers=_key(g["black_token"]),
    )
    assert r.status_code == 422, r.text
    assert "'h8'" in r.json()["detail"]


def test_event_options_are_checked_by_the_systems_schema(server: Server) -> None:
    # knockout seeds are player numbers; place matches are places: refused when given, not a
    # 500 at the next pairing
    r = httpx.post(
        server.url + "/api/events",
        json={"name": "KO", "system": "knockout", "options": {"seeds": {"a": 1}}},
    )
    assert r.status_code == 422, r.text
    assert "options.seeds" in r.json()["detail"]
    ev = _event(server, system="knockout", rounds=None)
    url = f"{server.url}/api/events/{ev['id']}"
    organiser = _key(ev["organiser_token"])
    for options, named in (
        ({"place_matches": "x"}, "options.place_matches"),
        ({"cycles": True}, "options.cycles"),
        ({"eliminated": {"1": [2]}}, "options.eliminated"),
        ({"no_such_option": 1}, "no_such_option"),
    ):
        r = httpx.patch(url, json={"options": options}, headers=organiser)
        assert r.status_code == 422, r.text
        assert named in r.json()["detail"]
    r = httpx.post(url + "/players", json=[{"name": n} for n in "ABCD"], headers=organiser)
    assert r.status_code == 200, r.text
    r = httpx.patch(url, json={"options": {"place_matches": [3]}}, headers=organiser)
    assert r.status_code == 200, r.text
    r = httpx.post(url + "/rounds", headers=organiser)
    assert r.status_code == 200, r.text


DEEP = b"[" * 30_000 + b"]" * 30_000  # 60 KB, under the 64 KiB body limit


def test_deep_json_is_refused_before_parsing_and_the_connection_lives(server: Server) -> None:
    ev = _event(server)
    with httpx.Client(base_url=server.url) as client:
        # nobody's body this deep is parsed, a stranger's or the organiser's
        r = client.post(
            f"/api/events/{ev['id']}/players",
            content=DEEP,
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422, r.text
        r = client.post(
            f"/api/events/{ev['id']}/players",
            content=DEEP,
            headers={"content-type": "application/json", **_key(ev["organiser_token"])},
        )
        assert r.status_code == 422, r.text
        assert "nested deeper" in r.json()["detail"]
        # a route without a key (creating a game) is bounded the same way
        r = client.post("/api/games", content=DEEP, headers={"content-type": "application/json"})
        assert r.status_code == 422, r.text
        r = client.post(
            "/api/games",
            content=b'{"size": ' + b"9" * 5000 + b"}",
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422, r.text
        assert "digits" in r.json()["detail"]
        # the same connection goes on
        assert client.get("/api/health").status_code == 200


def test_keys_are_checked_before_bodies_on_every_route_with_one(server: Server) -> None:
    ev = _event(server)
    g = _game(server)
    garbage = {"content": b"{not json", "headers": {"content-type": "application/json"}}
    routes = [
        ("PATCH", f"/api/events/{ev['id']}"),
        ("POST", f"/api/events/{ev['id']}/players"),
        ("POST", f"/api/events/{ev['id']}/results"),
        ("PUT", f"/api/events/{ev['id']}/rounds/1/boards/1/result"),
        ("POST", f"/api/events/{ev['id']}/lots"),
        ("POST", f"/api/games/{g['id']}/actions"),
        ("POST", f"/api/games/{g['id']}/rulings"),
        ("PUT", f"/api/games/{g['id']}/names"),
        ("POST", f"/api/games/{g['id']}/calls"),
    ]
    for method, path in routes:
        r = httpx.request(method, server.url + path, **garbage)  # type: ignore[arg-type]
        assert r.status_code == 401, (path, r.text)
        # the event's arbiter key does not change the event, a key that is none of the game's
        # does not change the game (403: a key came, it does not allow this; issue 35)
        wrong, status = (
            (ev["arbiter_token"], 403) if "/events/" in path else ("not-a-key-of-this-game", 403)
        )
        r = httpx.request(
            method,
            server.url + path,
            content=garbage["content"],
            headers={**garbage["headers"], **_key(wrong)},  # type: ignore[dict-item]
        )
        assert r.status_code == status, (path, r.text)
    unknown = httpx.post(server.url + "/api/events/nope/players", **garbage)  # type: ignore[arg-type]
    assert unknown.status_code == 404


def test_socket_messages_are_bounded_and_answered(server: Server) -> None:
    g = _game(server)
    url = f"{server.ws_url}/api/games/{g['id']}/socket"
    with connect(url, subprotocols=bearer(g["black_token"]), max_size=2**22) as ws:
        json.loads(ws.recv(5))
        for raw in (
            '{"type": "resync", "version": ' + "9" * 5000 + "}",
            "[" * 7000 + "]" * 7000,
            '{"type": "act", "action": {"type": "move", "move": "D²"}}',
        ):
            ws.send(raw)
            answer = json.loads(ws.recv(5))
            assert answer["type"] == "error", answer
            assert answer["problem"]["status"] == 422, answer
        ws.send(json.dumps({"type": "ping", "ref": 1}))
        assert json.loads(ws.recv(5))["type"] == "pong"  # the socket lives on
    # a message over the frame limit ends with a close frame (1009), not a dropped socket
    with connect(url, subprotocols=bearer(g["black_token"]), max_size=2**22) as ws:
        json.loads(ws.recv(5))
        ws.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


BAD_TEXT = {
    "ESC": "Li\x1b[31m",
    "NUL": "Li\x00",
    "newline": "Li\nWei",
    "U+202E": "Li\u202eieW",
    "U+200B": "Li\u200bWei",
    "U+2066": "Li\u2066Wei",
    # issue 35: the Mongolian vowel separator and the combining grapheme joiner are invisible
    "U+180E": "Li\u180eWei",
    "U+034F": "Li\u034fWei",
}


@pytest.mark.parametrize("what", sorted(BAD_TEXT))
def test_names_and_free_text_refuse_control_bidi_and_zero_width(server: Server, what: str) -> None:
    bad = BAD_TEXT[what]
    code = f"U+{ord(next(c for c in bad if not (c.isalnum() or c in '[m '))):04X}"
    r = httpx.post(server.url + "/api/events", json={"name": bad, "rounds": 1})
    assert r.status_code == 422 and code in r.text, r.text
    ev = _event(server)
    url = f"{server.url}/api/events/{ev['id']}"
    organiser = _key(ev["organiser_token"])
    r = httpx.patch(url, json={"name": bad}, headers=organiser)
    assert r.status_code == 422 and code in r.text, r.text
    r = httpx.post(url + "/players", json={"name": bad}, headers=organiser)
    assert r.status_code == 422 and code in r.text, r.text
    if what != "newline":  # a newline starts the next CSV line
        r = httpx.post(
            url + "/players",
            content=f"name,club\n{bad},A\n".encode(),
            headers={**organiser, "content-type": "text/csv"},
        )
        assert r.status_code == 422 and code in r.text, r.text
    g = _game(server)
    r = httpx.put(
        f"{server.url}/api/games/{g['id']}/names",
        json={"name": bad},
        headers=_key(g["black_token"]),
    )
    assert r.status_code == 422 and code in r.text, r.text
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/calls",
        json={"about": "other", "text": bad},
        headers=_key(g["black_token"]),
    )
    assert r.status_code == 422 and code in r.text, r.text
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/rulings",
        json={"kind": "warning", "color": "black", "article": "Go §24", "note": bad},
        headers=_key(g["arbiter_token"]),
    )
    assert r.status_code == 422 and code in r.text, r.text
    assert httpx.get(url).json()["name"] == "Cup"  # nothing stored


FORMULAS = ['=HYPERLINK("http://evil","x")', "@SUM(A1:A9)", "+cmd|' /C calc'!A0", "-2+3"]


def test_every_csv_export_neutralises_formulas(server: Server) -> None:
    ev = _event(server)
    url = f"{server.url}/api/events/{ev['id']}"
    organiser = _key(ev["organiser_token"])
    players = [{"name": f, "club": f} for f in FORMULAS]
    r = httpx.post(url + "/players", json=players, headers=organiser)
    assert r.status_code == 200, r.text
    assert httpx.post(url + "/rounds", headers=organiser).status_code == 200
    for export in ("players.csv", "standings.csv"):
        text = httpx.get(f"{url}/export/{export}").text
        cells = [c for line in text.splitlines()[1:] for c in line.split(",")]
        for formula in FORMULAS:
            assert formula.split(",")[0] not in [c.strip('"') for c in cells], (export, text)
        assert any(c.strip('"').startswith("'=HYPERLINK") for c in cells), (export, text)
        assert "'@SUM(A1:A9)" in cells, (export, text)


def test_one_csv_writer_neutralises_every_trigger() -> None:
    from duiyi.tournament.formats.csvfiles import write_csv

    text = write_csv(
        [["a"], ["\tTAB"], ["\rCR"], ["=1+1"], ["@x"], ["+x"], ["-x"], ["-3"], ["7/2"]]
    )
    rows = text.split("\n")
    assert rows[1] == "'\tTAB"
    assert rows[2] == '"\'\rCR"'
    assert rows[3:9] == ["'=1+1", "'@x", "'+x", "'-x", "-3", "7/2"]


def test_there_is_one_csv_writer() -> None:
    # every CSV export goes through duiyi.tournament.formats.csvfiles.write_csv
    src = Path(__file__).resolve().parents[2] / "src" / "duiyi"
    writers = [
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        for _ in re.finditer(r"csv\.(writer|DictWriter)\(", p.read_text())
    ]
    assert writers == ["tournament/formats/csvfiles.py"], writers


def test_the_403_for_pausing_names_the_arbiter(server: Server) -> None:
    g = _game(server)
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "pause"},
        headers=_key(g["black_token"]),
    )
    assert r.status_code == 403, r.text
    assert "organiser" not in r.json()["detail"] and "arbiter" in r.json()["detail"]
