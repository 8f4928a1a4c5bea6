"""The desk gets the players' links of a round even when the answer of "start the online
games" is lost on its way (issue 33: in the 1,000-player event day nginx answered that start
504 while the server made the games, and the round's links were gone for good)."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.conftest import Server


def _event(server: Server) -> tuple[dict[str, Any], str]:
    ev = httpx.post(
        f"{server.url}/api/events",
        json={"name": "Links", "game": "go", "system": "swiss", "rounds": 2, "online": {"size": 9}},
    ).json()
    url = f"{server.url}/api/events/{ev['id']}"
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    csv = "name\nAn\nBo\nCe\nDi\n"
    assert httpx.post(f"{url}/players", content=csv, headers={**org, "content-type": "text/csv"})
    assert httpx.post(f"{url}/rounds", headers=org).is_success
    return ev, url


def test_a_lost_answer_to_the_start_still_gives_the_links(
    server: Server, context_factory: Any
) -> None:
    ev, url = _event(server)
    page = context_factory().new_page()

    def lost(route: Any) -> None:
        # the server makes the games; the proxy's answer is a 504 page, as nginx's was
        route.fetch()
        route.fulfill(
            status=504, content_type="text/html", body="<html>504 Gateway Time-out</html>"
        )

    page.route("**/api/events/*/rounds/1/games", lost)
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?key={ev['organiser_token']}")
    page.click("[data-testid=start-1]")
    page.wait_for_selector("[data-testid=player-links]")
    assert page.locator("[data-testid=player-links] a").count() == 4
    shown = page.locator("[data-testid=player-links] a").first.get_attribute("href") or ""
    # the games exist once, and the links shown are theirs
    games = httpx.get(url).json()["games"]
    assert len([g for g in games if g["round"] == 1]) == 2
    assert any(g["id"] in shown for g in games)

    # the tab read again (a reload): the links are not shown, the desk offers them again
    page.unroute("**/api/events/*/rounds/1/games")
    page.reload()
    page.click("[data-testid=links-again-1]")
    page.wait_for_selector("[data-testid=player-links]")
    assert page.locator("[data-testid=player-links] a").first.get_attribute("href") == shown


def test_another_tab_is_not_offered_the_links(server: Server, context_factory: Any) -> None:
    ev, _url = _event(server)
    first = context_factory().new_page()
    first.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?key={ev['organiser_token']}")
    first.click("[data-testid=start-1]")
    first.wait_for_selector("[data-testid=player-links]")
    other = context_factory().new_page()  # another browser: its own tab storage
    other.goto(f"{server.url}/ui/#/desk/{ev['id']}/round?key={ev['organiser_token']}")
    other.wait_for_selector("[data-testid=round-1]")
    assert other.locator("[data-testid=links-again-1]").count() == 0
    assert other.locator("[data-testid=start-1]").count() == 0  # the games are started
