"""Gomoku engine rounds: an event's boards between Gomocup brains played on the server as live
games with a free opening (docs/server.md, "Engine rounds"; src/duiyi/server/engines/rounds.py).

The brains are the fake ones of tests/gomoku/engines/ (greedy beats lattice by five in either
colour, tests/gomoku/test_match.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.server.test_engine_rounds import BRAINS, new_event, play, wait_results
from tests.server.test_engine_rounds import start as start  # the fixture: engine players allowed


def brain(name: str, *args: str) -> str:
    """The name of a brain of the operator's list (test_engine_rounds.BRAINS)."""
    named = "-".join([name, *args[1:]]) if args else name
    assert named in BRAINS, named
    return named


def gomoku_event(
    server: Server, brains: list[str], online: dict[str, Any], system: str = "round-robin"
) -> tuple[str, dict[str, str]]:
    return new_event(server, brains, online, game="gomoku", system=system)


def test_a_round_of_gomocup_brains_is_played_live_with_a_free_opening(
    start: Callable[..., Server],
) -> None:
    # Gomoku §3.3 (free opening, 自由开局) under Renju fouls, with a clock (Gomoku §8): four
    # brains, each with its own registered command, two games at once; each board is a live
    # game refereed like a human one, its result enters the event (source online) and the
    # standings count it.
    server = start()
    brains = [brain("greedy", "--seed", "3"), brain("lattice"), brain("greedy", "--seed", "5")]
    event_id, organiser = gomoku_event(
        server,
        [*brains, brain("lattice")],
        {"rules": "free_renju", "time_control": {"system": "absolute", "base": 120}},
    )
    r = play(server, event_id, organiser, k=2)
    assert r.status_code == 202, r.text
    assert [(b["board"], b["black"], b["white"]) for b in r.json()["boards"]] == [
        (1, 1, 4),
        (2, 2, 3),
    ]
    doc = wait_results(server, event_id)
    assert sorted(g["board"] for g in doc["games"]) == [1, 2]
    by_board = {g["board"]: g for g in doc["games"]}
    for b in doc["event"]["history"][0]["games"]:
        assert b["source"] == "online", b
        game = by_board[b["board"]]
        assert game["status"] == "finished"
        # greedy (players 1 and 3) makes five against lattice in either colour (Gomoku §10.1(1))
        assert game["outcome"]["termination"] == "five", game["outcome"]
        assert b["result"] == ("1-0" if b["black"] in (1, 3) else "0-1")
    standings = httpx.get(f"{server.url}/api/events/{event_id}/standings").json()["standings"]
    points = {s["number"]: float(s["points"]) for s in standings}
    assert points[1] == points[3] > 0 and points[2] == points[4] == 0, points
    assert httpx.get(server.url + "/api/live-games").json()["games"] == []


def test_a_designated_opening_round_is_refused_with_what_to_do(
    start: Callable[..., Server],
) -> None:
    # Gomoku §3.2-§3.4: the designated opening's swap and fifth-move N-dab have no Gomocup
    # command, so the server refuses (409) and names `duiyi event play`, which places drawn
    # openings with BOARD.
    server = start()
    event_id, organiser = gomoku_event(server, [brain("greedy"), brain("lattice")], {})
    r = play(server, event_id, organiser)
    assert r.status_code == 409, r.text
    detail = r.json()["detail"]
    assert "designated opening" in detail and "duiyi event play" in detail
    assert "free_renju" in detail
    doc = httpx.get(f"{server.url}/api/events/{event_id}").json()
    assert doc["engine_play"] is None and doc["games"] == []


@pytest.mark.parametrize(
    ("loser", "termination", "article"),
    [
        (brain("crash"), "forfeit", "Gomoku §10.1(3)D"),  # 中途退出: it died, a withdrawal
        (brain("occupied"), "forfeit", "Gomoku §4.2"),  # a stone on a stone
    ],
    ids=["crash", "occupied"],
)
def test_a_failing_brain_is_ruled_like_a_player(
    start: Callable[..., Server], loser: str, termination: str, article: str
) -> None:
    # An engine player's failure is ruled through the game's referee at once (docs/server.md,
    # "Engine rounds", Gomoku): the other brain wins and the result enters the event.
    server = start()
    event_id, organiser = gomoku_event(server, [brain("greedy"), loser], {"rules": "free"})
    assert play(server, event_id, organiser).status_code == 202
    doc = wait_results(server, event_id)
    ((game,), (board,)) = doc["games"], doc["event"]["history"][0]["games"]
    outcome = game["outcome"]
    assert (outcome["termination"], outcome["article"]) == (termination, article), outcome
    assert board["source"] == "online"
    assert board["result"] == ("1-0" if board["black"] == 1 else "0-1")


def filler_knockout(server: Server, options: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """A Gomoku knockout of two filler brains (they always draw on a full board, Gomoku
    §10.2(3)), its round 1 asked to be played."""
    r = httpx.post(
        server.url + "/api/events",
        json={
            "name": "filler cup",
            "game": "gomoku",
            "system": "knockout",
            "options": options,
            "online": {"rules": "free"},
        },
    )
    assert r.status_code == 201, r.text
    event_id, organiser = r.json()["id"], {"Authorization": f"Bearer {r.json()['organiser_token']}"}
    players = [{"name": n, "engine": brain("filler")} for n in ("filler-1", "filler-2")]
    r = httpx.post(f"{server.url}/api/events/{event_id}/players", json=players, headers=organiser)
    assert r.status_code == 200, r.text
    assert play(server, event_id, organiser, k=1).status_code == 202
    return event_id, organiser


def test_a_drawn_knockout_game_is_replayed_with_colours_reversed_then_decided_by_lot(
    start: Callable[..., Server],
) -> None:
    # Gomoku §17.1: one of the two must go through. As `duiyi event play` does
    # (tournament.event.settle_draw), the drawn board is played again with colours reversed
    # (draw_replays: 1), then decided by lot (抽签, Gomoku §18.3(1)C) from
    # Random("{seed}:lot:{round}:{board}").
    import random

    server = start()
    event_id, _organiser = filler_knockout(server, {"draw_replays": 1, "seed": 5})
    doc = wait_results(server, event_id, seconds=120)
    games = doc["games"]
    assert len(games) == 2 and all(g["board"] == 1 for g in games)
    assert [g["outcome"]["termination"] for g in games] == ["full_board", "full_board"]
    (board,) = doc["event"]["history"][0]["games"]
    assert (board["black"], board["white"]) == (2, 1)  # the replay reversed the colours
    assert board["source"] == "arbiter" and board["replays"] == 1
    # the game stays drawn; the lot (its seed kept) names who goes through
    winner = random.Random("5:lot:1:1").choice(("black", "white"))
    assert board["result"] == "draw"
    assert board["lot"] == {"winner": winner, "seed": "5:lot:1:1"}
    notes = [t["note"] for t in board["trail"]]
    assert "replayed with colours reversed" in notes[0] and "by lot" in notes[1], notes


def test_knockout_draw_refuse_leaves_the_drawn_game_to_the_director(
    start: Callable[..., Server],
) -> None:
    # options.knockout_draw "refuse": no replay, the draw is held on the board for the
    # director to enter a winner (Gomoku §17.1), and the engine round ends.
    server = start()
    event_id, _organiser = filler_knockout(server, {"knockout_draw": "refuse"})
    deadline = time.monotonic() + 60
    while True:
        doc: dict[str, Any] = httpx.get(f"{server.url}/api/events/{event_id}").json()
        if doc["engine_play"] is None and doc["games"] and doc["games"][0]["status"] == "finished":
            break
        assert time.monotonic() < deadline, doc["games"]
        time.sleep(0.2)
    time.sleep(1.0)  # the request ended: no replay starts after it
    doc = httpx.get(f"{server.url}/api/events/{event_id}").json()
    (board,) = doc["event"]["history"][0]["games"]
    assert len(doc["games"]) == 1 and board.get("result") is None and board.get("conflict"), board
