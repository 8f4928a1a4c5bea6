"""Issue 21's findings on the players' side, each a test that failed before and passes after:
a count that reads right (the count of what the board shows, the result in the page's
language, the final marking kept for review) and the layout of the clocks. Playwright in
Debian's chromium against a real server.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, screenshot
from tests.web.test_player import act, set_names

pytestmark = pytest.mark.browser


def to_counting(server: Server, g: dict[str, Any]) -> None:
    """Go §7.3: two walls, a lone white stone (B5) inside Black's side; two passes."""
    blacks = [f"E{r}" for r in range(1, 10)] + ["C3"]
    whites = [f"F{r}" for r in range(1, 10)] + ["B5"]
    for b, w in zip(blacks, whites, strict=True):
        act(server, g["id"], g["black_token"], {"type": "move", "move": b})
        act(server, g["id"], g["white_token"], {"type": "move", "move": w})
    act(server, g["id"], g["black_token"], {"type": "pass"})
    act(server, g["id"], g["white_token"], {"type": "pass"})


def test_the_count_shown_is_the_count_of_the_marking_shown(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "the dashed proposal marks a group dead but the shown count (W+35.5) ignores
    # it until 'Use the proposal' is clicked"
    g = new_game(server, game="go", size=9)
    to_counting(server, g)
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-proposal='B5']")
    score = page.get_by_test_id("score")
    score.get_by_text("B+1.5").wait_for()
    text = score.inner_text()
    # Go §8: a proposal until both accept; B5's point counts for Black as the rings show
    assert "proposal" in text and "not accepted yet" in text, text
    # the territory drawn is the proposal's: B5's point is Black's
    assert page.locator("rect.territory.black").count() > 30
    act(server, g["id"], g["black_token"], {"type": "set_dead", "points": ["B5"]})
    page.wait_for_selector("[data-testid=score]:has-text('0/2 accepted')")
    assert "B+1.5" in page.inner_text("[data-testid=score]")


def test_results_in_the_page_language_and_the_final_marking_for_review(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "the English page gives the result in Chinese"; "territory marks vanish once
    # the game ends, so a finished game cannot be reviewed with its count"
    g = new_game(server, game="go", size=9)
    to_counting(server, g)
    act(server, g["id"], g["black_token"], {"type": "set_dead", "points": ["B5"]})
    act(server, g["id"], g["black_token"], {"type": "accept"})
    act(server, g["id"], g["white_token"], {"type": "accept"})
    en = context_factory().new_page()
    en.goto(f"{server.url}/ui/#/game/{g['id']}")
    en.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    en.get_by_test_id("final-count").get_by_text("B+1.5").wait_for()
    # issue 21: "labels 'Black (Black) to move' and 'White (White) wins'": no name, no repeat
    assert "Black wins by counting" in en.get_by_test_id("status").inner_text()
    for where in ("status", "final-count"):
        text = en.get_by_test_id(where).inner_text()
        assert "B+1.5" in text and "黑胜" not in text, text
    # the final marking stays on the board: B5 crossed out, both territories drawn
    en.wait_for_selector("rect.territory.white")
    assert en.locator("rect.territory.black").count() > 30
    assert en.locator(".dead-mark").count() == 1
    screenshot(en, "finished-count")
    zh = context_factory(locale="zh-CN").new_page()
    zh.goto(f"{server.url}/ui/#/game/{g['id']}")
    zh.get_by_test_id("final-count").get_by_text("黑胜3/4子").wait_for()
    text = zh.get_by_test_id("status").inner_text()
    assert "黑胜3/4子" in text and "B+1.5" not in text, text


def test_a_byoyomi_clock_leaves_the_name_on_one_line(server: Server, context_factory: Any) -> None:
    # issue 21: "the byo-yomi label squeezes the player's name onto four lines"
    g = new_game(
        server,
        game="go",
        size=9,
        time_control={"system": "chinese-byoyomi", "base": 0, "reserved_minutes": 10},
    )
    set_names(server, g, "Ke Jie", "Gu Li")
    act(server, g["id"], g["black_token"], {"type": "move", "move": "E5"})
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-testid=clock-white]:has-text('byo-yomi')")
    for seat in ("black", "white"):
        name = page.get_by_test_id(f"name-{seat}")
        box = name.bounding_box()
        line = float(name.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20"))
        assert box["height"] < 2.2 * line, (seat, box, line)
