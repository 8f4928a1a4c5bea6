"""The event's days, place and country are set on the desk and written in the EGD results file
(issue 32: never DT[2000-01-01] or PC[,]); a Gomoku event is offered no EGD file (the European
Go Database holds Go results only)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

pytestmark = pytest.mark.browser


def _event(server: Server, game: str) -> dict[str, Any]:
    ev: dict[str, Any] = httpx.post(
        f"{server.url}/api/events", json={"name": f"{game} open", "game": game, "rounds": 2}
    ).json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}", "Content-Type": "text/csv"}
    r = httpx.post(
        f"{server.url}/api/events/{ev['id']}/players",
        content="name,rank\nAnna Schmidt,3d\nJan Novak,1k\n",
        headers=org,
    )
    assert r.is_success, r.text
    return ev


def test_the_days_place_and_country_reach_the_egd_file(
    server: Server, context_factory: Any
) -> None:
    ev = _event(server, "go")
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/settings?key={ev['organiser_token']}")
    form = page.get_by_role("form", name="The event: days and place")
    form.get_by_label("First day").fill("2026-12-02")
    form.get_by_label("Last day").fill("2026-12-03")
    form.get_by_label("Place (city)").fill("Paris")
    form.get_by_label("Country (two letters, e.g. FR)").fill("fr")
    form.get_by_role("button", name="Save").click()
    page.locator(".desk-head").get_by_text("2026-12-02 – 2026-12-03 · Paris, FR").wait_for()
    h9 = httpx.get(f"{server.url}/api/events/{ev['id']}/export/results.h9").text
    assert "; DT[2026-12-02,2026-12-03]" in h9 and "; PC[FR,Paris]" in h9, h9
    assert "2000-01-01" not in h9 and "PC[,]" not in h9
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/export")
    page.get_by_test_id("export-egd").wait_for()


def test_a_gomoku_event_is_offered_no_egd_file(server: Server, context_factory: Any) -> None:
    ev = _event(server, "gomoku")
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/export?key={ev['organiser_token']}")
    page.get_by_test_id("export-opengotha").wait_for()
    assert page.get_by_test_id("export-egd").count() == 0
    # no game was played online: no game records are offered, and the desk says why
    assert (
        "no game of this event was played online"
        in page.get_by_test_id("export-sgf-none").inner_text()
    )
    r = httpx.get(f"{server.url}/api/events/{ev['id']}/export/results.h9")
    assert r.status_code == 409 and "Go results only" in r.json()["detail"], r.text
