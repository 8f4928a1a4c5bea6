"""Players imported at the desk from another program's file (issue 20): an OpenGotha tournament
file and an EGD results file, chosen as a file or pasted, read into the players list. An
OpenGotha file goes to the server's one reader (issue 32): names kept as the file splits them,
and the desk says what it read (players, rounds, games) and what it did not enter."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.datafiles import OPENGOTHA_FILES
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
    page.get_by_text("An OpenGotha file: the server reads it when you import").wait_for()
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


def _name_parts(xml: bytes) -> list[tuple[str, str]]:
    root = ET.fromstring(xml)
    return [(p.get("name", ""), p.get("firstName", "")) for p in root.iterfind("./Players/Player")]


KIM = """<?xml version="1.0" encoding="UTF-8"?>
<Tournament dataVersion="201" runningRound="0">
<Players>
<Player firstName="Ji-woo" name="Kim" rank="2D" rating="2200" club="Seoul"/>
<Player firstName="Anna" name="Schmidt" rank="1K" rating="2000" club="Berlin"/>
</Players>
</Tournament>
"""


def test_an_opengotha_file_is_read_by_the_server_and_the_names_are_kept(
    server: Server, context_factory: Any, tmp_path: Path
) -> None:
    source = (OPENGOTHA_FILES / "Levallois2018.xml").read_bytes()
    page = context_factory().new_page()
    dst = event(server)
    page.goto(f"{server.url}/ui/#/desk/{dst['id']}/players?key={dst['organiser_token']}")
    page.get_by_label("or a file", exact=False).set_input_files(
        str(OPENGOTHA_FILES / "Levallois2018.xml")
    )
    page.get_by_role("button", name="Import", exact=True).click()
    report = page.get_by_test_id("import-report")
    report.get_by_text("Read from the OpenGotha file: 7 players, 4 rounds, 9 games.").wait_for()
    assert "Entered: 7 players" in report.inner_text()
    assert "Not entered: the file's 4 rounds and 9 games" in report.inner_text()
    # the surname stays the surname: the desk's own OpenGotha file names them as the source did
    export = httpx.get(f"{server.url}/api/events/{dst['id']}/export/opengotha.xml").content
    assert _name_parts(export) == _name_parts(source)
    assert ("Lauzanne", "Olivier") in _name_parts(export)
    # a Korean name, surname first in the file: "Kim" stays the surname (never "Ji-woo")
    kim = tmp_path / "kim.xml"
    kim.write_text(KIM, encoding="utf-8")
    dst = event(server)
    page.goto(f"{server.url}/ui/#/desk/{dst['id']}/players?key={dst['organiser_token']}")
    page.get_by_label("or a file", exact=False).set_input_files(str(kim))
    page.get_by_role("button", name="Import", exact=True).click()
    page.get_by_test_id("import-report").get_by_text(
        re.compile("Read from the OpenGotha file: 2 players, 0 rounds, 0 games")
    ).wait_for()
    assert "Not entered" not in page.get_by_test_id("import-report").inner_text()
    export = httpx.get(f"{server.url}/api/events/{dst['id']}/export/opengotha.xml").content
    assert _name_parts(export) == [("Kim", "Ji-woo"), ("Schmidt", "Anna")]
    assert names(server, dst) == [("Kim Ji-woo", "2d"), ("Schmidt Anna", "1k")]
