"""`make run` starts `duiyi serve --demo`: a demo event with its third round online, keys on disk
only."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from tests.server.conftest import Server


def test_demo_event_once_and_no_secret_in_log(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    server = Server(db, None, extra=("--demo", "--log-level", "info")).start(tmp_path)
    try:
        events = httpx.get(server.url + "/api/events").json()["events"]
        assert [e["name"] for e in events] == ["duiyi demo: club Swiss"]
        keys = json.loads((tmp_path / "var" / "demo-keys.json").read_text())
        assert (tmp_path / "var" / "demo-keys.json").stat().st_mode & 0o077 == 0
        board = next(s for s in keys["seats"] if s["round"])
        board["black"], board["white"] = board["black_token"], board["white_token"]
        game = httpx.get(f"{server.url}/api/games/{board['game_id']}").json()
        assert game["clocks"]["black"]["periods"] == 3  # Chinese byo-yomi, 3 reserved minutes
        # a socket URL with a token in the access log is redacted
        httpx.get(f"{server.url}/api/games/{board['game_id']}?token={board['black']}")
    finally:
        server.stop()
    restarted = Server(db, None, extra=("--demo",)).start(tmp_path)
    try:
        assert len(httpx.get(restarted.url + "/api/events").json()["events"]) == 1
    finally:
        restarted.stop()
    logs = "".join(p.read_text() for p in tmp_path.glob("server-*.log"))
    for secret in (keys["organiser_token"], keys["arbiter_token"], board["black"], board["white"]):
        assert secret not in logs
    assert "token=***" in logs
