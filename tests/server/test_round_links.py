"""The players' links of a round's online games, asked for again when the answer of "start the
games" was lost on its way (issue 33: in the 1,000-player day a start answered 504 by nginx
left a round whose games existed and whose links nobody had)."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
from tests.server.conftest import Server


def _round_started(server: Server, **start: Any) -> tuple[str, dict[str, str], httpx.Response]:
    ev = httpx.post(
        f"{server.url}/api/events",
        json={"name": "Links", "game": "go", "system": "swiss", "rounds": 2, "online": {"size": 9}},
    ).json()
    url = f"{server.url}/api/events/{ev['id']}"
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    r = httpx.post(
        f"{url}/players",
        content="name\nAn\nBo\nCe\nDi\n",
        headers={**org, "content-type": "text/csv"},
    )
    assert r.status_code == 200, r.text
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    return url, org, httpx.post(f"{url}/rounds/1/games", headers=org, json=start or None)


def test_the_links_of_a_round_started_with_a_key_are_given_again(server: Server) -> None:
    key = secrets.token_urlsafe(32)
    url, org, started = _round_started(server, links_key=key)
    assert started.status_code == 201, started.text
    again = httpx.post(f"{url}/rounds/1/links", headers=org, json={"links_key": key})
    assert again.status_code == 200, again.text
    assert again.json() == started.json()  # the same boards, players and secrets
    # the secrets given again seat their players: Black of board 1 plays
    game = again.json()["games"][0]
    r = httpx.post(
        f"{server.url}/api/games/{game['game_id']}/actions",
        json={"type": "move", "move": "E5"},
        headers={"Authorization": f"Bearer {game['black_token']}"},
    )
    assert r.status_code in (200, 201), r.text


def test_links_are_not_given_for_another_key_nor_without_the_organiser(server: Server) -> None:
    url, org, started = _round_started(server, links_key="a" * 40)
    assert started.status_code == 201, started.text
    wrong = httpx.post(f"{url}/rounds/1/links", headers=org, json={"links_key": "b" * 40})
    assert wrong.status_code == 403, wrong.text
    assert wrong.json()["code"] == "links-key-unknown"
    anyone = httpx.post(f"{url}/rounds/1/links", json={"links_key": "a" * 40})
    assert anyone.status_code == 401, anyone.text
    short = httpx.post(f"{url}/rounds/1/links", headers=org, json={"links_key": "a" * 8})
    assert short.status_code == 422, short.text


def test_a_round_started_without_a_key_has_its_links_shown_once(server: Server) -> None:
    url, org, started = _round_started(server)
    assert started.status_code == 201, started.text
    tokens = {g["black_token"] for g in started.json()["games"]}
    assert len(tokens) == 2  # random secrets, as before
    r = httpx.post(f"{url}/rounds/1/links", headers=org, json={"links_key": "a" * 40})
    assert r.status_code == 403, r.text
