"""Engine rounds: an event's boards between engine players played on the server as live games
(docs/server.md, "Engine rounds"; src/duiyi/server/engines/rounds.py).

Real GNU Go at level 1 on 9x9; the refereeing cases use the scripted engine of
tests/engines/fake_gtp.py."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Backend, Server, spectating
from websockets.sync.client import connect

from duiyi.server.engines.driver import gnugo_command

FAKE = Path(__file__).resolve().parents[1] / "engines" / "fake_gtp.py"
GNUGO = "/usr/games/gnugo"
needs_gnugo = pytest.mark.skipif(
    gnugo_command() is None, reason="GNU Go is not installed (.ci/run installs it)"
)
# the thinking engines of one test run (found in /proc by this tag)
TAG = f"thinker-{time.monotonic_ns()}"
# The scripted engines the operator's list offers (docs/server.md, "Engines"): players name
# them, never a command.
FAKES: dict[str, list[str]] = {
    "fake": [],
    "e5c3": ["--moves", "E5,C3"],
    "crash2": ["--crash-at", "2"],
    "d4d5": ["--moves", "D4,D5"],
    "e5": ["--moves", "E5"],
    "sleeper": ["--sleep-at", "1:30"],
    "thinker": ["--name", TAG, "--moves", "E5,C3", "--sleep-at", "2:60"],
    "thinker2": ["--name", TAG, "--moves", "D4,D5"],
}

GOMOKU = Path(__file__).resolve().parents[1] / "gomoku" / "engines"
BRAINS: dict[str, list[str]] = {
    "greedy": [],
    "greedy-3": ["--seed", "3"],
    "greedy-5": ["--seed", "5"],
    "lattice": [],
    "crash": [],
    "occupied": [],
    "filler": [],
}


def engines_file(tmp: Path) -> Path:
    """The operator's engine list of these tests: GNU Go with its levels, and the fakes."""
    engines: dict[str, Any] = {
        name: {"game": "go", "command": [sys.executable, str(FAKE), *args]}
        for name, args in FAKES.items()
    }
    engines["gnugo"] = {
        "game": "go",
        "command": [GNUGO, "--mode", "gtp"],
        "level_option": "--level",
        "levels": [1, 10],
        "max_concurrent": 16,
    }
    if gnugo_command() is None:
        del engines["gnugo"]
    for name, args in BRAINS.items():  # Gomocup brains (test_engine_rounds_gomoku)
        script = GOMOKU / f"{name.split('-')[0]}.py"
        engines[name] = {"game": "gomoku", "command": [sys.executable, str(script), *args]}
    path = tmp / "engines.json"
    path.write_text(json.dumps({"engines": engines}))
    return path


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Servers on one SQLite file: ``start()`` allows engine players, ``start(allow=False)``
    does not."""
    started: list[Server] = []

    def make(allow: bool = True, **env: str) -> Server:
        s = Server(f"sqlite:///{tmp_path / 'rounds.sqlite3'}", None, env=env)
        s.extra = ("--engines", str(engines_file(tmp_path)))
        if allow:
            s.extra += ("--engine-players",)
        started.append(s.start(tmp_path))
        return s

    yield make
    for s in started:
        s.stop()


def gnugo(level: int) -> str:
    return f"gnugo:{level}"


def fake(name: str = "fake") -> str:
    assert name in FAKES
    return name


def new_event(
    server: Server,
    engines: list[str],
    online: dict[str, Any] | None = None,
    *,
    game: str = "go",
    system: str = "round-robin",
) -> tuple[str, dict[str, str]]:
    """An event of engine players (the organiser's key with it); Go on 9x9 unless told."""
    r = httpx.post(
        server.url + "/api/events",
        json={
            "name": "engine cup",
            "game": game,
            "system": system,
            "online": {"size": 9} if online is None else online,
        },
    )
    assert r.status_code == 201, r.text
    event_id, organiser = r.json()["id"], {"Authorization": f"Bearer {r.json()['organiser_token']}"}
    players = [{"name": f"engine-{i + 1}", "engine": cmd} for i, cmd in enumerate(engines)]
    if players:
        url = f"{server.url}/api/events/{event_id}/players"
        r = httpx.post(url, json=players, headers=organiser)
        assert r.status_code == 200, r.text
    return event_id, organiser


def play(
    server: Server, event_id: str, organiser: dict[str, str], rnd: int = 1, k: int = 2
) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/events/{event_id}/rounds/{rnd}/play",
        json={"concurrency": k},
        headers=organiser,
    )


def event_doc(server: Server, event_id: str) -> dict[str, Any]:
    doc: dict[str, Any] = httpx.get(f"{server.url}/api/events/{event_id}").json()
    return doc


def boards(doc: dict[str, Any], rnd: int = 1) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = doc["event"]["history"][rnd - 1]["games"]
    return games


def wait_results(
    server: Server, event_id: str, rnd: int = 1, seconds: float = 90
) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        doc = event_doc(server, event_id)
        if all(g.get("result") for g in boards(doc, rnd)) and doc["engine_play"] is None:
            return doc
        time.sleep(0.2)
    raise AssertionError(f"the round did not finish: {boards(doc, rnd)}")


def first_game(server: Server, event_id: str, seconds: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        games = event_doc(server, event_id)["games"]
        if games:
            game: dict[str, Any] = games[0]
            return game
        time.sleep(0.02)
    raise AssertionError("no game started")


@pytest.mark.gnugo
@needs_gnugo
def test_a_round_of_gnugo_players_is_played_live_on_the_server(
    start: Callable[..., Server],
) -> None:
    # Four GNU Go players, round 1 of a round robin, two games at once: each board is a live
    # game spectators watch over the ordinary socket, with clocks (Go §12.4); results enter
    # the event as online results and the standings count them (Go §27.1: 2 points a win).
    server = start()
    event_id, organiser = new_event(
        server,
        [gnugo(1), gnugo(1), gnugo(2), gnugo(2)],
        online={"size": 9, "time_control": {"system": "absolute", "base": 120}},
    )
    r = play(server, event_id, organiser, k=2)
    assert r.status_code == 202, r.text
    assert [b["board"] for b in r.json()["boards"]] == [1, 2]
    game = first_game(server, event_id)
    updates = []
    with connect(
        f"{server.ws_url}/api/games/{game['id']}/socket", subprotocols=spectating()
    ) as spectator:
        hello = json.loads(spectator.recv(10))
        assert hello["type"] == "hello" and hello["seat"] is None
        while True:
            message = json.loads(spectator.recv(30))
            if message["type"] != "update":
                continue
            updates.append(message)
            if message["state"]["outcome"] is not None:
                break
    # the board changed live, move by move, with both clocks running down
    assert len(updates) >= 10
    moves = [len(u["state"]["moves"]) for u in updates]
    assert moves == sorted(moves) and moves[-1] >= 10
    assert updates[-1]["state"]["event"] == {"id": event_id, "round": 1, "board": game["board"]}
    clocks = updates[-1]["state"]["clocks"]
    assert all(0 < c["total"] < 120 for c in clocks.values()), clocks
    doc = wait_results(server, event_id)
    # both games were played at once (K=2) and are the event's online games
    assert sorted(g["board"] for g in doc["games"]) == [1, 2]
    assert all(g["status"] == "finished" for g in doc["games"])
    points: dict[int, int] = {}
    by_board = {g["board"]: g for g in doc["games"]}
    for b in boards(doc):
        assert b["source"] == "online", b
        outcome = by_board[b["board"]]["outcome"]
        assert outcome["termination"] in ("count", "resignation")
        winner = b["black"] if b["result"] == "1-0" else b["white"]
        assert b["result"] == ("1-0" if outcome["winner"] == "black" else "0-1")
        points[winner] = points.get(winner, 0) + 2
    standings = httpx.get(f"{server.url}/api/events/{event_id}/standings").json()["standings"]
    assert {s["number"]: int(s["points"]) for s in standings} == {
        n: points.get(n, 0) for n in (1, 2, 3, 4)
    }
    # the request is done: nothing left live, the room list is empty again
    assert httpx.get(server.url + "/api/live-games").json()["games"] == []


@pytest.mark.gnugo
@needs_gnugo
def test_a_round_on_each_store(backend: Backend, tmp_path: Path) -> None:
    # The same round on SQLite and on PostgreSQL with Redis (several processes' setup: the
    # runner and the games' owner are the same process, the fan-out carries the updates).
    server = Server(
        backend.database,
        backend.redis,
        extra=("--engine-players", "--engines", str(engines_file(tmp_path))),
    )
    server.start(tmp_path)
    try:
        event_id, organiser = new_event(server, [gnugo(1), gnugo(1)])
        assert play(server, event_id, organiser).status_code == 202
        doc = wait_results(server, event_id)
        (game,) = doc["games"]
        (board,) = boards(doc)
        assert board["source"] == "online" and game["status"] == "finished"
        winner = "black" if board["result"] == "1-0" else "white"
        assert game["outcome"]["winner"] == winner
    finally:
        server.stop()


@pytest.mark.gnugo
@needs_gnugo
def test_one_game_at_a_time_and_a_restart_resumes_the_game_in_progress(
    start: Callable[..., Server],
) -> None:
    # K=1: the second board starts only when the first has ended. The server is killed in
    # the middle of the first game; restarted on the same store it resumes that game at its
    # stored position (engines are given the whole position at every move) and plays the
    # second board: the stored request survives the restart.
    server = start()
    event_id, organiser = new_event(server, [gnugo(1), gnugo(1), gnugo(1), gnugo(1)])
    assert play(server, event_id, organiser, k=1).status_code == 202
    game = first_game(server, event_id)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        view = httpx.get(f"{server.url}/api/games/{game['id']}").json()
        if len(view["moves"]) >= 6:
            break
        time.sleep(0.02)
    # K=1: the other board has no game yet
    assert len(event_doc(server, event_id)["games"]) == 1
    server.kill9()
    seen = view["moves"]  # committed before the kill: the store keeps them
    assert len(seen) >= 6 and view["outcome"] is None
    again = start()
    doc = wait_results(again, event_id)
    games = {g["board"]: g for g in doc["games"]}
    assert sorted(games) == [1, 2]
    assert games[game["board"]]["id"] == game["id"]  # resumed, not replayed
    final = httpx.get(f"{again.url}/api/games/{game['id']}").json()
    assert final["moves"][: len(seen)] == seen and len(final["moves"]) > len(seen)
    assert final["outcome"]["termination"] in ("count", "resignation")
    assert all(b["source"] == "online" for b in boards(doc))


@pytest.mark.gnugo
@needs_gnugo
def test_all_rounds_pairs_and_plays_each_round_in_turn(start: Callable[..., Server]) -> None:
    # `event play --all-rounds` on the server: a 4-player round robin has 3 rounds (Berger
    # tables, appendix 三); each is paired once the last is complete and played, and the
    # event ends complete with every result online and 12 points shared out (Go §27.1).
    server = start()
    event_id, organiser = new_event(server, [gnugo(1)] * 4)
    r = httpx.post(
        f"{server.url}/api/events/{event_id}/rounds/1/play",
        json={"concurrency": 2, "all_rounds": True},
        headers=organiser,
    )
    assert r.status_code == 202, r.text
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        doc = event_doc(server, event_id)
        if doc["current_round"] == 3 and doc["engine_play"] is None:
            break
        time.sleep(0.3)
    assert doc["current_round"] == 3 and doc["engine_play"] is None, doc["engine_play"]
    for rnd in (1, 2, 3):
        assert all(b["result"] and b["source"] == "online" for b in boards(doc, rnd))
    assert sorted((g["round"], g["board"]) for g in doc["games"]) == [
        (r, b) for r in (1, 2, 3) for b in (1, 2)
    ]
    standings = httpx.get(f"{server.url}/api/events/{event_id}/standings").json()["standings"]
    assert sum(int(s["points"]) for s in standings) == 12


def test_engine_failures_are_ruled_by_the_referee(start: Callable[..., Server]) -> None:
    # An illegal move loses under its article (E5 twice: an occupied point, Go §2 as
    # duiyi.go says); a crash is a withdrawal from the game, lost (Go §28); both enter the
    # event.
    server = start()
    event_id, organiser = new_event(
        server,
        [
            fake("e5c3"),  # 1: Black on board 1 (1-4 in a 4-player Berger round)
            fake("crash2"),
            fake("d4d5"),
            fake("e5"),  # plays on the black stone at E5: illegal
        ],
    )
    r = play(server, event_id, organiser, k=2)
    assert r.status_code == 202, r.text
    doc = wait_results(server, event_id, seconds=30)
    by_board = {g["board"]: g for g in doc["games"]}
    found = {}
    for b in boards(doc):
        outcome = by_board[b["board"]]["outcome"]
        found[(b["black"], b["white"])] = (b["result"], outcome["termination"], outcome["article"])
    assert found[(1, 4)][:2] == ("1-0", "forfeit"), found
    assert found[(1, 4)][2].startswith("Go §"), found
    crashed = next(v for k, v in found.items() if 2 in k)
    assert crashed == ("0-1", "forfeit", "Go §28"), found  # the crashed Black lost


def test_silence_loses_on_time_or_by_withdrawal(start: Callable[..., Server]) -> None:
    # An engine that does not answer: with a clock its flag falls (Go §12.4), ruled by the
    # game's timer; without one it withdraws after the server's move timeout (Go §28).
    server = start(DUIYI_ENGINE_MOVE_TIMEOUT="1")
    sleeper = fake("sleeper")
    timed, key = new_event(
        server,
        [sleeper, fake()],
        online={"size": 9, "time_control": {"system": "absolute", "base": 2}},
    )
    untimed, key2 = new_event(server, [sleeper, fake()])
    assert play(server, timed, key).status_code == 202
    assert play(server, untimed, key2).status_code == 202
    for event_id, expected in ((timed, ("time", "Go §12.4")), (untimed, ("forfeit", "Go §28"))):
        doc = wait_results(server, event_id, seconds=20)
        (game,) = doc["games"]
        (board,) = boards(doc)
        outcome = game["outcome"]
        assert (outcome["termination"], outcome["article"]) == expected, outcome
        assert outcome["winner"] == ("white" if board["black"] == 1 else "black")


def test_the_directors_entry_closes_an_engine_game_and_stops_its_engines(
    start: Callable[..., Server],
) -> None:
    # The director may decide a board at any time (docs/server.md, Results): the engine game
    # is closed, its engines stop at once (even one thinking), and the request ends.
    server = start()
    tag = TAG
    event_id, organiser = new_event(server, [fake("thinker"), fake("thinker2")])
    assert play(server, event_id, organiser).status_code == 202
    game = first_game(server, event_id)
    deadline = time.monotonic() + 20
    while len(httpx.get(f"{server.url}/api/games/{game['id']}").json()["moves"]) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert running(tag) == 2  # Black thinks on its second move
    r = httpx.put(
        f"{server.url}/api/events/{event_id}/rounds/1/boards/1/result",
        json={"result": "0-1"},
        headers=organiser,
    )
    assert r.status_code == 200, r.text
    assert r.json()["closed_games"] == [game["id"]]
    doc = wait_results(server, event_id, seconds=20)
    assert boards(doc)[0]["source"] == "director"
    deadline = time.monotonic() + 10
    while running(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert running(tag) == 0


def running(tag: str) -> int:
    """How many processes of this test's fake engines are alive (read from /proc)."""
    count = 0
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        count += str(FAKE).encode() in argv and tag.encode() in argv
    return count


def test_only_the_organiser_on_a_server_that_allows_engine_players(
    start: Callable[..., Server],
) -> None:
    # Engine commands are programs: an anonymous request, another key, or a server not
    # started with --engine-players starts none (401, 403, 403), as RFC 9457 problems.
    server = start(allow=False)
    event_id, organiser = new_event(server, [fake(), fake()])
    anonymous = play(server, event_id, {})
    assert anonymous.status_code == 401
    assert anonymous.headers["content-type"].startswith("application/problem+json")
    stranger = play(server, event_id, {"Authorization": "Bearer not-the-key"})
    assert stranger.status_code == 403
    refused = play(server, event_id, organiser)
    assert refused.status_code == 403
    assert "--engine-players" in refused.json()["detail"]
    doc = event_doc(server, event_id)
    assert doc["current_round"] == 0 and doc["games"] == []
    server.stop()
    allowed = start()
    assert play(allowed, event_id, {}).status_code == 401
    # a round with no engine-vs-engine board, or an engine the operator does not offer:
    # refused (409; 404 for a name the operator does not list) before anything starts
    r = play(allowed, event_id, organiser, rnd=3)
    assert r.status_code == 404
    people, key = new_event(allowed, [])
    httpx.post(
        f"{allowed.url}/api/events/{people}/players",
        json=[{"name": "A"}, {"name": "B"}],
        headers=key,
    )
    assert play(allowed, people, key).status_code == 409
    missing, key = new_event(allowed, ["nosuch", fake()])
    assert play(allowed, missing, key).status_code == 404
    assert event_doc(allowed, missing)["games"] == []
