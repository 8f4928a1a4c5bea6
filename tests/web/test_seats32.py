"""Issue 32, "nothing on the screen misleads": a seat's player reaches the pages as its name and
its rank apart (``seats``), and the pages show the rank in their language from that field, never
read out of the name. Before, the page cut "name rank" with a pattern: a player named "Club 2k"
without a rank read "Club 2级", a name typed for a casual game "Duo 4d" read "Duo 4段".
Playwright in Debian's chromium against a real server, read by visible words.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game
from tests.web.test_arbiter import card, make_event
from tests.web.test_browser import open_game
from tests.web.test_player import set_names

pytestmark = pytest.mark.browser


def rank_like_event(server: Server) -> dict[str, Any]:
    """A Go event of two players whose names end in something rank-like: "Team 3d" (1k) and
    "Club 2k" (no rank), its one board online."""
    ev = make_event(server, "go", 2, names=["Team 3d", "Club 2k"], ranks=["1k", ""])
    ev["game"] = ev["games"][0]
    return ev


@pytest.mark.parametrize(("locale", "kyu"), [("en-US", "1k"), ("zh-CN", "1级")])
def test_a_seat_shows_the_players_rank_from_its_own_field(
    server: Server, context_factory: Any, locale: str, kyu: str
) -> None:
    ev = rank_like_event(server)
    gid = ev["game"]["game_id"]
    info = httpx.get(f"{server.url}/api/games/{gid}/info").json()
    seats = info["seats"]
    assert sorted(seats.values(), key=lambda s: s["name"]) == [
        {"name": "Club 2k", "rank": ""},
        {"name": "Team 3d", "rank": "1k"},
    ]
    # the older field stays for the CLI and older readers: "name rank"
    assert sorted(info["names"].values()) == ["Club 2k", "Team 3d 1k"]
    team = next(c for c, s in seats.items() if s["name"] == "Team 3d")
    club = "white" if team == "black" else "black"
    want = {team: f"Team 3d {kyu}", club: "Club 2k"}
    ctx = context_factory(locale=locale)
    # the game page's player boxes
    page = open_game(ctx, server, gid)
    for seat, text in want.items():  # the names arrive with the game's info
        page.get_by_test_id(f"name-{seat}").get_by_text(text).wait_for()
    assert "2级" not in page.get_by_test_id(f"name-{club}").inner_text()
    # the arbiter's room: the board's player lines
    room = ctx.new_page()
    room.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    card(room, 1).locator(".seat-line").get_by_text(f"Team 3d {kyu}").wait_for()
    lines = " | ".join(card(room, 1).locator(".seat-line").all_inner_texts())
    assert f"Team 3d {kyu}" in lines and "Club 2k" in lines and "2级" not in lines, lines
    # the home page's list of games in play
    home = ctx.new_page()
    home.goto(f"{server.url}/ui/#/")
    row = home.locator(f"[data-testid=live-games] li[data-game-id='{gid}']")
    row.wait_for()
    assert f"Team 3d {kyu}" in row.inner_text() and "2级" not in row.inner_text(), row.inner_text()


def test_a_name_typed_for_a_casual_game_is_shown_as_typed(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    set_names(server, g, "Duo 4d", "Lin Hai")
    page = open_game(context_factory(locale="zh-CN"), server, g["id"], g["black_token"])
    page.get_by_test_id("name-black").get_by_text("Duo 4d").wait_for()
    box = page.get_by_test_id("name-black").inner_text()
    # a name given for a seat has no rank: nothing is read out of it (before: "Duo 4段")
    assert "Duo 4d" in box and "4段" not in box, box
