"""Gomoku §8.11 over HTTP: an appeal "应在当轮比赛结束后规定的时间内提出", within the time allowed
after the round's end. The event tells each online game of a round when the round ended (its
last result entered, online or at the desk); until then no appeal is refused as late."""

from __future__ import annotations

import time
from typing import Any

import httpx
from tests.server.conftest import Server


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _gomoku_round(server: Server) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    ev = httpx.post(
        f"{server.url}/api/events",
        json={"name": "申诉时限", "game": "gomoku", "system": "swiss", "rounds": 2},
    ).json()
    url, org = f"{server.url}/api/events/{ev['id']}", _auth(ev["organiser_token"])
    names = "name\n甲\n乙\n丙\n丁\n"
    r = httpx.post(f"{url}/players", content=names, headers={**org, "content-type": "text/csv"})
    assert r.is_success, r.text
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    games = httpx.post(f"{url}/rounds/1/games", headers=org)
    assert games.status_code == 201, games.text
    return ev, sorted(games.json()["games"], key=lambda g: g["board"])


def _rule(server: Server, ev: dict[str, Any], game: str, **ruling: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{game}/rulings",
        json=ruling,
        headers=_auth(ev["arbiter_token"]),
    )


def _resign(server: Server, game: dict[str, Any], colour: str) -> None:
    r = httpx.post(
        f"{server.url}/api/games/{game['game_id']}/actions",
        json={"type": "resign"},
        headers=_auth(game[f"{colour}_token"]),
    )
    assert r.status_code == 200, r.text


def _entered(server: Server, ev: dict[str, Any], boards: int) -> None:
    deadline = time.monotonic() + 20
    while True:
        games = httpx.get(f"{server.url}/api/events/{ev['id']}/rounds/1").json()["games"]
        if sum(1 for g in games if g.get("result")) >= boards:
            return
        assert time.monotonic() < deadline, games
        time.sleep(0.1)


def test_an_appeal_counts_from_the_rounds_end_not_the_games(server: Server) -> None:
    ev, (one, two) = _gomoku_round(server)
    # board 1: a violation ruled, then the game ends; board 2 is still being played
    assert _rule(server, ev, one["game_id"], kind="violation", color="black").status_code == 200
    _resign(server, one, "black")
    _entered(server, ev, 1)
    time.sleep(1.3)
    # 1.3 s after the game's end, with 1 s allowed: the round goes on, so it is not late
    # (issue 32: refused 1,980 s after the game while the round went on)
    r = _rule(server, ev, one["game_id"], kind="appeal", color="black", against=0, limit=1.0)
    assert r.status_code == 200, r.text
    # board 2 ends: the round's last result; the event tells both games the round ended
    _resign(server, two, "white")
    _entered(server, ev, 2)
    r = _rule(server, ev, one["game_id"], kind="appeal", color="black", against=0, limit=60.0)
    assert r.status_code == 200, r.text  # within the minute after the round's end
    time.sleep(1.3)
    r = _rule(server, ev, one["game_id"], kind="appeal", color="black", against=0, limit=1.0)
    assert r.status_code == 409, r.text
    assert "after the round ended" in r.text and "Gomoku §8.11" in r.text


def test_a_round_ended_at_the_desk_tells_its_online_games(server: Server) -> None:
    # the director enters the last result at the desk (board 2, its online game closed): the
    # round has ended, and board 1's finished online game is told
    ev, (one, _two) = _gomoku_round(server)
    assert _rule(server, ev, one["game_id"], kind="violation", color="white").status_code == 200
    _resign(server, one, "white")
    _entered(server, ev, 1)
    r = httpx.put(
        f"{server.url}/api/events/{ev['id']}/rounds/1/boards/2/result",
        json={"result": "1-0"},
        headers=_auth(ev["organiser_token"]),
    )
    assert r.status_code == 200, r.text
    time.sleep(1.3)
    r = _rule(server, ev, one["game_id"], kind="appeal", color="white", against=0, limit=1.0)
    assert r.status_code == 409 and "Gomoku §8.11" in r.text, r.text
