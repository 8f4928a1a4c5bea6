"""Issue 32, the players' side ("nothing on the screen misleads"): the accepted count is the
count shown (both press "Accept the count" on the automatic proposal without "Use the
proposal"; after the first answer the other page shows the new state at once); a takeback
request ends when the opponent moves, its asker is told of a refusal, and a double click on
"Take back my last move" shows no error. Playwright in Debian's chromium against a real
server, read by visible words.
"""

from __future__ import annotations

from typing import Any

import httpx
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


def test_a_takeback_request_ends_with_a_move_and_its_asker_hears_the_answer(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    gid = g["id"]
    act(server, gid, g["black_token"], {"type": "move", "move": "E5"})
    act(server, gid, g["white_token"], {"type": "move", "move": "D5"})
    act(server, gid, g["black_token"], {"type": "move", "move": "C3"})
    black = open_game(context_factory(), server, gid, g["black_token"])
    white = open_game(context_factory(), server, gid, g["white_token"])
    # a double click asks once and shows no error
    black.get_by_role("button", name="Take back my last move").dblclick()
    black.get_by_text("You asked to take back your last move; waiting for White").wait_for()
    white.get_by_text("Black asks to take back their last move").wait_for()
    assert black.locator("#banner.error").count() == 0
    # the opponent refuses: the asker is told
    white.get_by_role("button", name="Refuse").click()
    black.get_by_text("White refused to take back your last move").wait_for()
    assert state(server, gid)["takeback"] is None
    # White plays on, Black asks again and White moves instead of answering: the request
    # ends (before: it survived, and agreeing later took back White's own move too)
    act(server, gid, g["white_token"], {"type": "move", "move": "G5"})
    act(server, gid, g["black_token"], {"type": "move", "move": "G3"})
    black.get_by_role("button", name="Take back my last move").click()
    white.get_by_text("Black asks to take back their last move").wait_for()
    act(server, gid, g["white_token"], {"type": "move", "move": "H5"})
    black.get_by_text("White played on: your request to take back lapsed").wait_for()
    white.get_by_text("Black asks to take back their last move").wait_for(state="detached")
    assert white.get_by_role("button", name="Agree").count() == 0
    late = httpx.post(
        f"{server.url}/api/games/{gid}/actions",
        json={"type": "accept_takeback"},
        headers={"Authorization": f"Bearer {g['white_token']}"},
    )
    assert late.status_code == 409, late.text
    assert len(state(server, gid)["moves"]) == 6  # nothing taken back
    # the asker's next move ends the notice
    act(server, gid, g["black_token"], {"type": "move", "move": "J3"})
    black.get_by_text("White played on").wait_for(state="detached")
    for page in (black, white):
        assert page._duiyi_errors == []
