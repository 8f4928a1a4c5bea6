"""The desk as tabs (issue 20): players, rounds, standings, export and settings, found by their
words in both languages; a wrong organiser key and an unknown event say so at once, before any
control is shown."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

pytestmark = pytest.mark.browser

TABS = {
    "en": ["Players", "Rounds", "Standings", "Export and print", "Settings"],
    "zh": ["棋手", "轮次", "名次", "导出与打印", "设置"],
}


def make_event(server: Server) -> dict[str, Any]:
    ev: dict[str, Any] = httpx.post(
        f"{server.url}/api/events", json={"name": "Tab Open", "game": "go", "rounds": 3}
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}", "Content-Type": "text/plain"}
    r = httpx.post(
        f"{server.url}/api/events/{ev['id']}/players", content="A\nB\nC\nD\n", headers=org
    )
    assert r.is_success, r.text
    return ev


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_desk_is_tabs_found_by_their_words(
    server: Server, context_factory: Any, lang: str
) -> None:
    ev = make_event(server)
    page = context_factory(locale="zh-CN" if lang == "zh" else "en-US").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}?key={ev['organiser_token']}")
    tabs = page.get_by_role("navigation", name="编排台" if lang == "zh" else "desk")
    for word in TABS[lang]:
        tabs.get_by_role("link", name=word, exact=True).wait_for()
    # the key leaves the address at once (it stays in this browser only)
    assert "key=" not in page.url
    # each tab is its own page: the players tab has the players, not the standings
    page.get_by_role("link", name=TABS[lang][0], exact=True).click()
    page.get_by_role("table").filter(has_text="B").first.wait_for()
    assert page.locator("[data-testid=standings]").count() == 0
    page.get_by_role("link", name=TABS[lang][2], exact=True).click()
    page.locator("[data-testid=standings]").wait_for()
    assert page.locator("[data-testid=players]").count() == 0
    page.get_by_role("link", name=TABS[lang][3], exact=True).click()
    page.get_by_role("link", name="OpenGotha", exact=False).wait_for()
    page.get_by_role("link", name=TABS[lang][4], exact=True).click()
    page.locator("[data-testid=online-settings]").wait_for()
    page.get_by_role("link", name=TABS[lang][1], exact=True).click()
    page.get_by_role(
        "button", name="编排第 1 轮" if lang == "zh" else "Pair round 1", exact=True
    ).wait_for()


def test_a_wrong_key_and_an_unknown_event_say_so_at_once(
    server: Server, context_factory: Any
) -> None:
    ev = make_event(server)
    page = context_factory(locale="en-US").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}?key=not-the-key")
    page.get_by_text("This is not the organiser key of this event").wait_for()
    # no control of the desk is shown with a wrong key
    for word in ["Pair round 1", "Add player", "Import", "Withdraw"]:
        assert page.get_by_role("button", name=word).count() == 0
    # the right key opens it
    page.get_by_label("Organiser key").fill(ev["organiser_token"])
    page.get_by_role("button", name="Open the desk").click()
    page.get_by_role("link", name="Players", exact=True).wait_for()
    # an unknown event: said at once, never "Loading…" forever
    page.goto(f"{server.url}/ui/#/desk/no-such-event?key=x")
    page.get_by_text("There is no event with the id no-such-event").wait_for()


def test_round_1_offers_the_numbers_by_lot_first(server: Server, context_factory: Any) -> None:
    # appendix 五.2(1): round 1's numbers are drawn by lot; the desk says when they are not and
    # draws them and pairs in one click
    ev = make_event(server)
    page = context_factory(locale="en-US").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?key={ev['organiser_token']}")
    page.get_by_text("The numbers have not been drawn by lot").wait_for()
    page.get_by_role("button", name="Draw the numbers by lot, then pair round 1").click()
    page.get_by_role("heading", name="Round 1", exact=True).wait_for()
    desk = httpx.get(
        f"{server.url}/api/events/{ev['id']}/desk",
        headers={"Authorization": f"Bearer {ev['organiser_token']}"},
    ).json()
    assert desk["numbers_drawn"]["players"] == 4 and desk["current_round"] == 1
    page.get_by_role("link", name="Players", exact=True).click()
    page.get_by_text("Numbers drawn by lot for 4 players").wait_for()
