"""Issue 32, the players' side: the accepted count is the count shown. Both players press
"Accept the count" on the automatic proposal without "Use the proposal": the game is counted
with the proposal they saw, and after the first answer the other page shows the new state at
once. Playwright in Debian's chromium against a real server, read by visible words.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, screenshot, state
from tests.web.test_browser import open_game
from tests.web.test_player import act

pytestmark = pytest.mark.browser


def test_accepting_the_proposal_on_screen_counts_the_proposal(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    gid = g["id"]
    # 9×9: Black walls column E, White column F, White drops B5 in Black's area; both pass
    blacks = [f"E{r}" for r in range(1, 10)] + ["C3"]
    whites = [f"F{r}" for r in range(1, 10)] + ["B5"]
    for b, w in zip(blacks, whites, strict=True):
        act(server, gid, g["black_token"], {"type": "move", "move": b})
        act(server, gid, g["white_token"], {"type": "move", "move": w})
    act(server, gid, g["black_token"], {"type": "pass"})
    act(server, gid, g["white_token"], {"type": "pass"})
    black = open_game(
        context_factory(viewport={"width": 1024, "height": 768}), server, gid, g["black_token"]
    )
    white = open_game(context_factory(), server, gid, g["white_token"])
    for page in (black, white):
        page.get_by_text("Automatic proposal (dashed): B5").wait_for()
        page.get_by_text("Count of the proposal (not accepted yet)").wait_for()
        assert "B+1.5" in page.inner_text("[data-testid=score]")
    screenshot(black, "count-1024")
    # Go §21: Black accepts what its page shows, the proposal; White's page says so at once:
    # the proposal is now the marking, one of two accepted, still B+1.5
    black.get_by_role("button", name="Accept the count").click()
    white.get_by_text("Count of this marking (1/2 accepted)").wait_for()
    assert "B+1.5" in white.inner_text("[data-testid=score]")
    assert state(server, gid)["dead"] == ["B5"]
    white.get_by_role("button", name="Accept the count").click()
    # Go §9: the count both saw is the result: Black by ¾ stone, B+1.5 (before: W+35.5)
    for page in (black, white):
        page.wait_for_selector("[data-testid=game-page][data-phase=finished]")
        result = page.inner_text("[data-testid=status]")
        assert "Black" in result and "B+1.5" in result, result
        assert "W+" not in result
        assert page._duiyi_errors == []
