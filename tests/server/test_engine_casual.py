"""Playing the computer (issue 21): a takeback by agreement the engine agrees to, a rematch
with the colours swapped, and the count where GNU Go's dead stones stand beside duiyi's
proposal. Real GNU Go (``--gnugo``) against a real server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, online_event_game
from tests.server.test_engines import act, start, wait_moves

from duiyi import BLACK, WHITE, Color
from duiyi.actions import Action, RequestTakeback
from duiyi.errors import GtpError
from duiyi.server.engines.catalog import EngineEntry, EngineRun
from duiyi.server.engines.driver import EngineSeat, gnugo_command
from duiyi.server.games.spec import new_session
from duiyi.session import Session

__all__ = ["start"]  # the fixture, shared with test_engines

gnugo = pytest.mark.skipif(gnugo_command() is None, reason="GNU Go is not installed")
BRAINS = Path(__file__).resolve().parents[1] / "gomoku" / "engines"


def engine_game(server: Server, **spec: Any) -> dict[str, Any]:
    body = {"game": "go", "size": 9, "engine": "gnugo", "level": 1, **spec}
    r = httpx.post(server.url + "/api/engine-games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def view(server: Server, game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game_id}").json()
    return data


def wait_for(check: Callable[[], Any], what: str, within: float = 30.0) -> Any:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def engine_levels(server: Server) -> list[str]:
    """The ``--level`` of each GNU Go process the server runs now (its children)."""
    assert server.proc is not None
    levels = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == server.proc.pid and b"--level" in argv and b"gnugo" in argv[0]:
            levels.append(argv[argv.index(b"--level") + 1].decode())
    return levels


@pytest.mark.gnugo
@gnugo
def test_the_engine_agrees_to_a_takeback_and_plays_on_from_the_position(
    start: Callable[..., Server],
) -> None:
    # issue 21: "takeback by agreement in casual games (the engine agrees)"
    server = start(DUIYI_GNUGO="1")
    g = engine_game(server, time_control={"system": "absolute", "base": 600})
    assert act(server, g["id"], g["token"], type="move", move="E5").status_code == 200
    wait_moves(server, g["id"], 2)
    r = act(server, g["id"], g["token"], type="request_takeback")
    assert r.status_code == 200, r.text
    # GNU Go agrees: both moves come off (its answer and the human's), Black to move again
    v = wait_for(lambda: (s := view(server, g["id"]))["moves"] == [] and s, "the takeback")
    assert v["to_move"] == "black" and v["takeback"] is None
    assert v["clock_running"] == "black"
    # the stored log keeps the moves, the request and the engine's answer in order
    log = httpx.get(f"{server.url}/api/games/{g['id']}/actions").json()["actions"]
    kinds = [(e["type"], e["player"]) for e in log]
    assert kinds[-2:] == [("request_takeback", "black"), ("accept_takeback", "white")], kinds
    # time used stays used: Black's clock shows what it spent before the takeback
    assert v["clocks"]["black"]["base"] <= 600
    # the engine's board followed (GTP undo): it answers a new move legally, no error
    assert act(server, g["id"], g["token"], type="move", move="C3").status_code == 200
    after = wait_moves(server, g["id"], 2)
    assert after["moves"][0] == ["black", "C3"] and after["moves"][1][0] == "white"
    analysis = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    assert analysis["engine"]["error"] is None
    assert analysis["allowed"]["black"][-1] == "request_takeback"


@pytest.mark.gnugo
@gnugo
def test_nothing_decided_is_taken_back(start: Callable[..., Server]) -> None:
    # issue 21: a takeback is by agreement in a casual game, never after the game ended
    server = start(DUIYI_GNUGO="1")
    g = engine_game(server)
    # nothing of one's own to take back yet
    r = act(server, g["id"], g["token"], type="request_takeback")
    assert r.status_code == 409 and "no move of its own" in r.json()["detail"], r.text
    assert act(server, g["id"], g["token"], type="move", move="E5").status_code == 200
    wait_moves(server, g["id"], 2)
    assert act(server, g["id"], g["token"], type="resign").status_code == 200
    r = act(server, g["id"], g["token"], type="request_takeback")
    assert r.status_code == 409 and "over" in r.json()["detail"], r.text
    assert len(view(server, g["id"])["moves"]) == 2
    # the engine cannot be made to answer for itself: the human's token acts for its seat
    r = act(server, g["id"], g["token"], type="accept_takeback")
    assert r.status_code == 409


def test_no_takeback_in_an_event_game(start: Callable[..., Server]) -> None:
    # issue 21: "not in event/rated games": an event's game is played as it stands
    server = start()
    game = online_event_game(server.url)
    gid = game["game_id"]
    assert act(server, gid, game["black_token"], type="move", move="E5").status_code == 200
    r = act(server, gid, game["black_token"], type="request_takeback")
    assert r.status_code == 409 and "no takebacks" in r.json()["detail"], r.text
    analysis = httpx.get(f"{server.url}/api/games/{gid}/analysis").json()
    assert "request_takeback" not in analysis["allowed"]["black"]


@pytest.mark.gnugo
@gnugo
def test_a_rematch_swaps_the_colours_with_the_same_engine_and_rules(
    start: Callable[..., Server],
) -> None:
    # issue 21: "rematch with colours swapped"
    server = start(DUIYI_GNUGO="1")
    g = engine_game(server, size=13, level=3, rules="japanese")
    url = f"{server.url}/api/games/{g['id']}/rematch"
    me = {"Authorization": f"Bearer {g['token']}"}
    # not before the game is over, not for a stranger
    assert httpx.post(url, headers=me).status_code == 409
    assert httpx.post(url).status_code == 401
    assert act(server, g["id"], g["token"], type="resign").status_code == 200
    r = httpx.post(url, headers=me)
    assert r.status_code == 201, r.text
    again = r.json()
    assert again["seat"] == "white" and again["engine"] == "gnugo"
    # GNU Go now has Black and moves first; the size and rules are the first game's
    first = wait_moves(server, again["id"], 1)
    assert first["moves"][0][0] == "black" and first["size"] == 13
    assert first["rules"] == view(server, g["id"])["rules"]
    # the level too: GNU Go runs with --level 3 for the rematch
    assert engine_levels(server) == ["3"]
    analysis = httpx.get(f"{server.url}/api/games/{again['id']}/analysis").json()
    assert analysis["engine"]["seat"] == "black"
    assert act(server, again["id"], again["token"], type="pass").status_code == 200
    # one rematch per game, kept by the store: after a restart too
    r = httpx.post(url, headers=me)
    assert r.status_code == 409 and again["id"] in r.json()["detail"]
    server.stop()
    restarted = start(DUIYI_GNUGO="1")
    r = httpx.post(f"{restarted.url}/api/games/{g['id']}/rematch", headers=me)
    assert r.status_code == 409 and again["id"] in r.json()["detail"], r.text


def test_a_gomocup_brain_agrees_to_a_takeback(start: Callable[..., Server]) -> None:
    # issue 21: "for Gomocup engines restart/replay the position": a brain is given the whole
    # position every turn (BOARD), so it plays on from the position after the takeback
    brain = f"{sys.executable} {BRAINS / 'greedy.py'} --seed 3"
    server = start(DUIYI_GOMOKU_ENGINE=brain)
    r = httpx.post(server.url + "/api/engine-games", json={"game": "gomoku", "rules": "free"})
    assert r.status_code == 201, r.text
    g = r.json()
    assert act(server, g["id"], g["token"], type="move", move="h8").status_code == 200
    wait_moves(server, g["id"], 2, key="moves_list")
    assert act(server, g["id"], g["token"], type="request_takeback").status_code == 200
    wait_for(lambda: view(server, g["id"])["moves_list"] == [], "the takeback")
    assert act(server, g["id"], g["token"], type="move", move="c3").status_code == 200
    after = wait_moves(server, g["id"], 2, key="moves_list")
    assert after["moves_list"][0] == "c3" and after["moves_list"][1] not in ("c3", "h8")
    analysis = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    assert analysis["engine"]["error"] is None


class _Gtp:
    """A GTP engine that records what it is told (``undo`` refused when ``refuse``)."""

    def __init__(self, refuse: bool = False) -> None:
        self.commands: list[str] = []
        self.refuse = refuse

    async def undo(self) -> None:
        self.commands.append("undo")
        if self.refuse:
            raise GtpError("cannot undo")


class _Host:
    """Just enough of a game host for an engine seat: the session, and acts applied to it."""

    id = "g1"

    def __init__(self, session: Session) -> None:
        self.session = session
        self.now = 10.0

    async def current_session(self) -> Session:
        return self.session

    async def act(self, seat: Color, action: Action) -> int:
        self.now += 1.0
        self.session.apply(action, self.now, seat)
        return len(self.session.log)


def run_apart(coro: Any) -> Any:
    """``asyncio.run`` in a thread of its own: a browser test run before in the same worker
    leaves Playwright's event loop running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.mark.parametrize("refuse", [False, True])
def test_the_engine_takes_the_moves_off_its_board_with_gtp_undo(refuse: bool) -> None:
    # issue 21: "the engine agrees (GTP undo)"; an engine that refuses undo is given the
    # whole position at its next turn (nothing it knows is kept)
    session = new_session({"game": "go", "size": 9, "takebacks": True})
    session.move(BLACK, "E5", now=1.0)
    session.move(WHITE, "D5", now=2.0)
    session.apply(RequestTakeback(), 3.0, BLACK)
    host = _Host(session)
    entry = EngineEntry("gnugo", "go", ("/usr/games/gnugo", "--mode", "gtp"))
    seat = EngineSeat(host, WHITE, "go", EngineRun(entry, entry.command, "gnugo"))
    engine = _Gtp(refuse)
    seat._engine = engine
    seat._known = (engine, list(session.game.game.moves))
    run_apart(seat._turn(session))
    assert session.game.game.moves == [] and session.log[-1].type == "accept_takeback"
    assert engine.commands == ["undo"] * (1 if refuse else 2)
    assert seat._known == (None if refuse else (engine, []))


def test_a_takeback_asked_before_the_engine_answers_takes_back_one_move() -> None:
    # the engine had not been told the human's last move yet: nothing to undo on its board
    session = new_session({"game": "go", "size": 9, "takebacks": True})
    session.move(BLACK, "E5", now=1.0)
    session.move(WHITE, "D5", now=2.0)
    known = list(session.game.game.moves)
    session.move(BLACK, "C3", now=3.0)
    session.apply(RequestTakeback(), 4.0, BLACK)
    host = _Host(session)
    entry = EngineEntry("gnugo", "go", ("/usr/games/gnugo", "--mode", "gtp"))
    seat = EngineSeat(host, WHITE, "go", EngineRun(entry, entry.command, "gnugo"))
    engine = _Gtp()
    seat._engine = engine
    seat._known = (engine, known)
    run_apart(seat._turn(session))
    assert session.game.game.moves == known and session.to_move() is BLACK
    assert engine.commands == [] and seat._known == (engine, known)
