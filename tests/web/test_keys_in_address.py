"""Keys out of addresses (issue 35): a seat's token, the organiser's key and the arbiter's are
read once from the link, kept in the tab's session and taken out of the address, so that an
address copied to invite spectators hands over nothing; a reload in the same tab keeps working.
The UI's pages are sent with a Content-Security-Policy the pages keep to (no violation), no
referrer and no framing by another site."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, state
from tests.web.test_demo_room import make_event

pytestmark = pytest.mark.browser


def watched(page: Any) -> list[str]:
    """The page's script errors and Content-Security-Policy violations, as they come."""
    seen: list[str] = []
    page.on("pageerror", lambda e: seen.append(str(e)))
    page.on(
        "console",
        lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return seen


def test_a_seat_link_leaves_the_address_and_the_tab_keeps_the_seat(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    page = context_factory().new_page()
    trouble = watched(page)
    answer = page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    # the page is its own: scripts from here only, never framed, no referrer
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-frame-options"] == "DENY"
    page.wait_for_selector(f"[data-testid=game-page][data-connected=yes][data-game-id='{g['id']}']")
    page.get_by_role("button", name="Resign").wait_for()
    # the token is gone from the address (what a player copies to invite spectators)
    assert g["black_token"] not in page.url and "token" not in page.url
    assert page.url.endswith(f"#/game/{g['id']}")
    # (the browser's own "my games" list keeps its seats: docs/decisions.md)
    # a reload in the same tab is still Black's seat: the move is Black's
    page.reload()
    page.wait_for_selector(f"[data-testid=game-page][data-connected=yes][data-game-id='{g['id']}']")
    page.click("[data-point='E5']")
    page.wait_for_selector("[data-testid=game-page][data-version='1']")
    assert state(server, g["id"])["moves"] == [["black", "E5"]]
    # the copied address, opened elsewhere, is a spectator's: no seat, nothing to resign
    elsewhere = context_factory().new_page()
    trouble += watched(elsewhere)
    elsewhere.goto(page.url)
    elsewhere.wait_for_selector("[data-testid=game-page][data-connected=yes][data-version='1']")
    assert elsewhere.get_by_role("button", name="Resign").count() == 0
    assert trouble == []


def test_the_desk_and_room_keys_stay_in_the_tab_and_out_of_the_address(
    server: Server, context_factory: Any
) -> None:
    ev = make_event(server)
    ctx = context_factory()
    desk = ctx.new_page()
    trouble = watched(desk)
    desk.goto(
        f"{server.url}/ui/#/desk/{ev['id']}/players"
        f"?key={ev['organiser_token']}&arbiter={ev['arbiter_token']}"
    )
    desk.get_by_role("link", name="Standings", exact=True).wait_for()
    assert "key=" not in desk.url and "arbiter=" not in desk.url
    assert desk.url.endswith(f"#/desk/{ev['id']}/players")
    stored = desk.evaluate("JSON.stringify(localStorage)")
    assert ev["organiser_token"] not in stored and ev["arbiter_token"] not in stored
    desk.reload()  # the same tab keeps its keys
    desk.get_by_role("link", name="Standings", exact=True).wait_for()
    # another tab of the same browser needs the link again
    other = ctx.new_page()
    trouble += watched(other)
    other.goto(f"{server.url}/ui/#/desk/{ev['id']}")
    other.get_by_text("Organiser key").first.wait_for()
    assert other.get_by_role("link", name="Standings", exact=True).count() == 0

    room = ctx.new_page()
    trouble += watched(room)
    room.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    room.wait_for_selector("[data-testid=room-board-1]")
    assert "arbiter=" not in room.url and ev["arbiter_token"] not in room.url
    room.reload()
    room.wait_for_selector("[data-testid=room-board-1]")
    assert room.locator("[data-testid=room-key]").count() == 0
    assert trouble == []


def test_the_ui_is_sent_with_its_policy_and_the_api_docs_are_not(server: Server) -> None:
    for path in ("/ui/", "/ui/app.js", "/ui/style.css"):
        r = httpx.get(server.url + path)
        assert r.status_code == 200, path
        assert "default-src 'self'" in r.headers["content-security-policy"], path
        assert r.headers["x-content-type-options"] == "nosniff"
    # the interactive API documentation loads its own scripts: no UI policy there
    assert "content-security-policy" not in httpx.get(server.url + "/docs").headers
