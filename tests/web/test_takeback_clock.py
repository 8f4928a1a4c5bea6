"""Issue 21, what session 5's note left: taken-back moves no longer count toward a period's
moves. Two friends play under 20 moves in 10 minutes (Go §12.5 定时限步制); a takeback by
agreement gives both their moves back on the clocks the page shows. Playwright in Debian's
chromium against a real server; the controls are found by their words."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, screenshot, state

pytestmark = pytest.mark.browser

QUOTA = {"system": "moves-per-period", "base": 600, "base_moves": 20, "moves": 10, "period": 300}


def test_taken_back_moves_are_due_again_on_the_clocks(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9, time_control=QUOTA)
    black = context_factory().new_page()
    black.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    white = context_factory().new_page()
    white.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['white_token']}")
    black.get_by_test_id("moves-due-black").get_by_text("moves due: 20").wait_for()
    black.click("[data-point='E5']")
    white.wait_for_selector("[data-stone][data-color=black]")
    white.click("[data-point='D5']")
    black.wait_for_selector("[data-stone][data-color=white]")
    for seat in ("black", "white"):
        black.get_by_test_id(f"moves-due-{seat}").get_by_text("moves due: 19").wait_for()
    black.get_by_role("button", name="Take back my last move").click()
    white.get_by_role("button", name="Agree").click()
    black.wait_for_selector("[data-testid=move-counter]:has-text('0/0')")
    # both moves are off the board and off the quota: 20 moves due again, not 19
    for page in (black, white):
        for seat in ("black", "white"):
            page.get_by_test_id(f"moves-due-{seat}").get_by_text("moves due: 20").wait_for()
    s = state(server, g["id"])
    assert s["clocks"]["black"]["periods"] == s["clocks"]["white"]["periods"] == 20
    # the time the moves took stays used (docs/decisions.md)
    assert s["clocks"]["white"]["base"] < 600
    screenshot(black, "takeback-quota")
