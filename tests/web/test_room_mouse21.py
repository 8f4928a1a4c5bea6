"""Issue 21, what session 5's note left: "'Mouse only' holds for choosing rulings, players,
decisions and the confirmation. Points, minutes and notes are still typed into fields." In the
arbiter's room (a 1024×768 tablet, two events' games running) the points of a ruling are now
clicked on a small board of the game and the minutes and seconds stepped with buttons; the
fields stay for the keyboard. Playwright in Debian's chromium against a real server; the
controls are found by their words."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.conftest import Server
from tests.web.conftest import CORNER_TAKEN, play, screenshot, state
from tests.web.test_arbiter import card, landed, make_event, rulings_of
from tests.web.test_player import act

pytestmark = pytest.mark.browser


def confirm(c: Any, *words: str) -> None:
    """Rule…, read the ruling in words, confirm it (clicks only)."""
    c.get_by_role("button", name="Rule…").click()
    shown = c.get_by_role("alertdialog").inner_text()
    for w in words:
        assert w in shown, (w, shown)
    c.get_by_role("button", name="Confirm the ruling").click()


def test_points_and_minutes_by_the_mouse_in_the_room(server: Server, context_factory: Any) -> None:
    go = make_event(server, "go", 4)
    renju = make_event(server, "gomoku", 4)
    g1, r1 = go["games"][0], renju["games"][0]
    play(server, g1, CORNER_TAKEN)  # White takes Black's A1-A3
    act(server, r1["game_id"], r1["black_token"], {"type": "move", "move": "h8"})
    tablet = context_factory(viewport={"width": 1024, "height": 768}).new_page()
    tablet.goto(f"{server.url}/ui/#/room/{go['id']}?arbiter={go['arbiter_token']}")
    c = card(tablet, 1)
    tablet.wait_for_selector(f"[data-testid=room-board-1][data-version='{len(CORNER_TAKEN)}']")

    # Go §18.1: the stones wrongly removed are clicked on the game's board, not typed; a
    # second click takes a point off again
    c.get_by_label("Ruling", exact=True).select_option(label="Removed stones put back")
    c.get_by_label("Player", exact=True).select_option("white")
    board = c.get_by_role("application", name="the game's board: click the points")
    board.locator("[data-stone][data-color=black]").wait_for()  # J9, as on the game's board
    # issue 32: where no black stone was taken off (G7) nothing goes back: refused, naming it
    board.locator("[data-point='G7']").click()
    confirm(c, "G7")
    tablet.wait_for_selector("#banner.error")
    assert "G7" in tablet.inner_text("#banner"), tablet.inner_text("#banner")
    assert "G7" not in state(server, g1["game_id"])["stones"]["black"]
    assert rulings_of(server, g1["game_id"]) == []
    board.locator("[data-point='G7']").click()  # taken off the form again
    board.locator("[data-point='A1']").click()
    board.locator("[data-point='A2']").click()
    board.locator("[data-point='A2']").click()
    board.locator("[data-point='A3']").click()
    assert c.get_by_label("Points", exact=True).input_value() == "A1 A3"
    assert board.locator("[data-pick]").count() == 2  # the chosen points are ringed
    screenshot(tablet, "arbiter-room-mouse")
    confirm(c, "A1 A3")
    landed(server, g1["game_id"], "stones_restored", "Go §18.1", 0)
    assert {"A1", "A3"} <= set(state(server, g1["game_id"])["stones"]["black"])

    # Go §22.8: two and a half minutes given back to White, stepped with the buttons
    n = len(rulings_of(server, g1["game_id"]))  # the stones put back, and White's warning
    c.get_by_label("Ruling", exact=True).select_option(label="Clock adjustment (±)")
    c.get_by_label("Player", exact=True).select_option("white")
    for name in ("+1 min", "+1 min", "+1 min", "−1 min", "+10 s", "+10 s", "+10 s"):
        c.get_by_role("button", name=name, exact=True).click()
    assert c.get_by_label("Change (min)", exact=True).input_value() == "2"
    assert c.get_by_label("Change (s)", exact=True).input_value() == "30"
    c.get_by_role("button", name="+10 s", exact=True).scroll_into_view_if_needed()
    screenshot(tablet, "arbiter-room-steppers")
    confirm(c, "+2:30")
    made = landed(server, g1["game_id"], "clock_adjustment", "Go §22.8", n)
    assert made["clock"] == [["white", 150.0]], made

    # Gomoku §6.1(5) on the other tablet: the pushed stone goes back to the point clicked
    tablet2 = context_factory(viewport={"width": 1024, "height": 768}).new_page()
    tablet2.goto(f"{server.url}/ui/#/room/{renju['id']}?arbiter={renju['arbiter_token']}")
    tablet2.wait_for_selector("[data-testid=room-board-1][data-version='1']")
    c2 = card(tablet2, 1)
    c2.get_by_label("Ruling", exact=True).select_option(label="Pushed stone put back (推盘)")
    c2.get_by_label("Player", exact=True).select_option("black")
    small = c2.get_by_role("application", name="the game's board: click the points")
    small.locator("[data-point='j10']").click()
    small.locator("[data-point='i9']").click()  # one point: the last click is the one
    assert c2.get_by_label("First point it touched", exact=True).input_value() == "i9"
    confirm(c2, "i9")
    landed(server, r1["game_id"], "stone_replaced", "Gomoku §6.1(5)", 0)
    assert state(server, r1["game_id"])["moves_list"] == ["i9"]
    assert len(rulings_of(server, g1["game_id"])) == n + 1
