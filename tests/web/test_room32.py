"""Issue 32, the arbiter's side ("nothing on the screen misleads"): one answer per call whatever
the number of the arbiter's tabs (the second tab is told "already answered by …" and its
confirmation does not apply). Playwright in Debian's chromium against a real server, read by
visible words; what landed is read through the public API.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import screenshot
from tests.web.test_arbiter import card, landed, make_event, rulings_of
from tests.web.test_player import act

pytestmark = pytest.mark.browser


# whether a select shows its chosen option whole: the option's text, in the select's font, fits
# inside the select beside its arrow (about 2 rem)
FITS = """e => {
  const probe = document.createElement("span");
  probe.style.font = getComputedStyle(e).font;
  probe.style.whiteSpace = "pre";
  probe.textContent = e.selectedOptions[0].text;
  document.body.append(probe);
  const wide = probe.getBoundingClientRect().width;
  probe.remove();
  return wide + 32 <= e.clientWidth;
}"""


def room(context_factory: Any, server: Server, ev: dict[str, Any]) -> Any:
    tablet = context_factory(viewport={"width": 1024, "height": 768}).new_page()
    tablet.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    card(tablet, 1).wait_for()
    return tablet


def test_two_tabs_answer_one_call_once(server: Server, context_factory: Any) -> None:
    go = make_event(server, "go", 2)
    g1 = go["games"][0]
    act(server, g1["game_id"], g1["black_token"], {"type": "move", "move": "E5"})
    r = httpx.post(
        f"{server.url}/api/games/{g1['game_id']}/calls",
        json={"about": "time", "text": "my clock ran on"},
        headers={"Authorization": f"Bearer {g1['white_token']}"},
    )
    assert r.status_code == 201, r.text
    tabs = [room(context_factory, server, go) for _ in range(2)]
    # both tabs prepare the same answer: a minute back to White (Go §22.8), for call 1
    for tab in tabs:
        c = card(tab, 1)
        c.get_by_label("Ruling", exact=True).select_option(label="Clock adjustment (±)")
        c.get_by_label("Player", exact=True).select_option("white")
        c.get_by_role("button", name="+1 min", exact=True).click()
        call = c.get_by_label("Answers the call", exact=True)
        call.locator("option", has_text="my clock ran on").wait_for(state="attached")
        call.select_option(label=call.locator("option", has_text="my clock ran on").inner_text())
    first, second = tabs
    card(first, 1).get_by_role("button", name="Rule…").click()
    card(first, 1).get_by_role("button", name="Confirm the ruling").click()
    landed(server, g1["game_id"], "clock_adjustment", "Go §22.8", 0)
    # the second tab says so at once, and its confirmation changes nothing
    c2 = card(second, 1)
    c2.get_by_text("Call 1 was already answered by clock_adjustment · Go §22.8").wait_for()
    c2.get_by_role("button", name="Rule…").click()
    c2.get_by_role("button", name="Confirm the ruling").click()
    second.wait_for_selector("#banner.error")
    assert "already answered" in second.inner_text("#banner"), second.inner_text("#banner")
    made = rulings_of(server, g1["game_id"])
    assert [m["kind"] for m in made] == ["clock_adjustment"], made  # before: two landed
    [call] = httpx.get(f"{server.url}/api/games/{g1['game_id']}/info").json()["calls"]
    assert not call["open"] and call["ruling"] == "clock_adjustment · Go §22.8"


def test_a_void_move_names_its_move_and_voids_only_the_movers(
    server: Server, context_factory: Any
) -> None:
    go = make_event(server, "go", 2)
    g1 = go["games"][0]
    act(server, g1["game_id"], g1["black_token"], {"type": "move", "move": "E5"})
    tablet = room(context_factory, server, go)
    tablet.wait_for_selector("[data-testid=room-board-1][data-version='1']")
    c = card(tablet, 1)
    # Go §19: White is on move; voiding Black's move would change nothing (before: accepted)
    c.get_by_label("Ruling", exact=True).select_option(label="Void move")
    c.get_by_label("Player", exact=True).select_option("black")
    c.get_by_role("button", name="Rule…").click()
    assert "is not on move: move 2 is" in c.get_by_role("alertdialog").inner_text()
    c.get_by_role("button", name="Confirm the ruling").click()
    tablet.wait_for_selector("#banner.error")
    assert "not on move" in tablet.inner_text("#banner"), tablet.inner_text("#banner")
    assert rulings_of(server, g1["game_id"]) == []
    # White's move being made now is the one voided: it counts as White's pass
    c.get_by_label("Player", exact=True).select_option("white")
    c.get_by_role("button", name="Rule…").click()
    words = c.get_by_role("alertdialog").inner_text()
    assert "voids move 2" in words and "being made now" in words, words
    c.get_by_role("button", name="Confirm the ruling").click()
    landed(server, g1["game_id"], "void_move", "Go §19", 0)
    s = httpx.get(f"{server.url}/api/games/{g1['game_id']}").json()
    assert s["to_move"] == "black" and s["moves"] == [["black", "E5"], ["white", None]], s["moves"]
    # the game page's arbiter form names it too: now Black's move 3
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g1['game_id']}?arbiter={go['arbiter_token']}")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes][data-version='2']")
    page.select_option("[data-testid=rule-kind]", "void_move")
    page.select_option("[data-testid=rule-who]", "black")
    page.click("[data-testid=rule]")
    assert "voids move 3" in page.inner_text("[data-testid=rule-words]")


def test_the_room_on_a_tablet_points_big_enough_names_whole_consent_unticked(
    server: Server, context_factory: Any
) -> None:
    names = ["Lian Xiao", "Ouyang Mingzhe", "Zhang Wei", "Li Na"]
    go = make_event(server, "go", 4, size=19, names=names, rank="6d")
    g1 = go["games"][0]
    act(server, g1["game_id"], g1["black_token"], {"type": "move", "move": "Q16"})
    tablet = room(context_factory, server, go)
    tablet.wait_for_selector("[data-testid=room-board-1][data-version='1']")
    c = card(tablet, 1)
    # the player boxes are whole at 1024 px (before: "Lian Xiao 6d (Black" was cut)
    for line in c.locator(".seat-line").all():
        box = line.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert box[0] <= box[1], (line.inner_text(), box)
    assert "Lian Xiao 6d" in c.locator(".seat-line").first.inner_text()
    # a point of the small board is a finger's size, about 24 px (before: 14-16 px)
    c.get_by_label("Ruling", exact=True).select_option(label="Removed stones put back")
    board = c.get_by_role("application", name="the game's board: click the points")
    # the form's player, "Lian Xiao 6d (Black)", is whole in its field (before: "…(Black")
    player = c.get_by_label("Player", exact=True)
    assert player.evaluate(FITS), player.evaluate("e => e.selectedOptions[0].text")
    board.scroll_into_view_if_needed()
    a1 = board.locator("[data-point='A1']").bounding_box()
    b1 = board.locator("[data-point='B1']").bounding_box()
    assert b1["x"] - a1["x"] >= 23.5, (a1, b1)
    screenshot(tablet, "room-1024")
    # 掉子 (Go §17.3): "The opponent agrees" is a fact the arbiter ticks, unticked at first
    c.get_by_label("Ruling", exact=True).select_option(label="Dropped stone (掉子)")
    assert not c.get_by_label("The opponent agrees").is_checked()
