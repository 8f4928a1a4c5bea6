"""Players imported at the desk from another program's file (issue 20): an OpenGotha tournament
file and an EGD results file, chosen as a file or pasted, read into the players list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

pytestmark = pytest.mark.browser


def event(server: Server, players: str = "") -> dict[str, Any]:
    ev: dict[str, Any] = httpx.post(
        f"{server.url}/api/events", json={"name": "Import", "game": "go", "rounds": 3}
    ).json()
    if players:
        org = {"Authorization": f"Bearer {ev['organiser_token']}", "Content-Type": "text/csv"}
        r = httpx.post(f"{server.url}/api/events/{ev['id']}/players", content=players, headers=org)
        assert r.is_success, r.text
    return ev


def names(server: Server, ev: dict[str, Any]) -> list[tuple[str, str]]:
    e = httpx.get(f"{server.url}/api/events/{ev['id']}").json()["event"]
    return [(p["name"], p.get("rank", "")) for p in e["players"]]


def test_players_from_an_opengotha_file_and_an_egd_file(
    server: Server, context_factory: Any, tmp_path: Path
) -> None:
    src = event(server, "name,rank,club\nAnna Schmidt,3d,Berlin\nJan Novak,1k,Praha\n")
    url = f"{server.url}/api/events/{src['id']}/export"
    xml = tmp_path / "other.xml"
    xml.write_bytes(httpx.get(f"{url}/opengotha.xml").content)
    page = context_factory().new_page()
    # an OpenGotha file chosen with the file button
    dst = event(server)
    page.goto(f"{server.url}/ui/#/desk/{dst['id']}/players?key={dst['organiser_token']}")
    page.get_by_label("or a file", exact=False).set_input_files(str(xml))
    page.get_by_text("2 players read: Anna Schmidt, Jan Novak").wait_for()
    page.get_by_role("button", name="Import", exact=True).click()
    page.get_by_text("2 player(s) added.").wait_for()
    assert names(server, dst) == [("Anna Schmidt", "3d"), ("Jan Novak", "1k")]
    # an EGD results file pasted: surname first, as the file lists them
    h9 = "; CL[A]\n; EV[Other]\n; PC[DE,Berlin]\n"
    h9 += "  1 Schmidt Anna     3d DE Berl  2\n  2 Novak Jan        1k CZ Prah  0\n"
    dst = event(server)
    page.goto(f"{server.url}/ui/#/desk/{dst['id']}/players?key={dst['organiser_token']}")
    page.get_by_label("Paste players", exact=False).fill(h9)
    page.get_by_role("button", name="Import", exact=True).click()
    page.get_by_text("2 player(s) added.").wait_for()
    assert names(server, dst) == [("Schmidt Anna", "3d"), ("Novak Jan", "1k")]
