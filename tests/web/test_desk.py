"""The director's desk (issue 15): players by hand, a pasted list of names or a table with the
usual headers, every competition system of the core, result conflicts and the audit trail where
the director works, print-ready pairings. Playwright in Debian's chromium against a real server.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import screenshot

from duiyi.store.db import Database
from duiyi.store.repository import Repository
from duiyi.tournament import systems
from duiyi.tournament.entries import record_result
from duiyi.tournament.results import GameResult, ResultSheet, Source

pytestmark = pytest.mark.browser


def new_event(page: Any, server: Server, system: str = "swiss") -> str:
    page.goto(f"{server.url}/ui/#/new-event")
    # the form is drawn once the page has the games' descriptions (GET /api/game-types)
    page.wait_for_selector("[data-testid=event-system] option", state="attached")
    options = page.eval_on_selector_all(
        "[data-testid=event-system] option", "e => e.map(o => o.value)"
    )
    # every competition system the core registers is offered
    assert sorted(options) == sorted(systems.names())
    page.select_option("[data-testid=event-system]", system)
    page.fill("[data-testid=event-name]", "Autumn Swiss")
    page.click("[data-testid=create-event]")
    page.click("[data-testid=open-desk]")
    page.wait_for_selector("[data-testid=desk]")
    return str(page.url.split("#/desk/")[1].split("?")[0])


def names(server: Server, event_id: str) -> list[tuple[str, str, int | None, str]]:
    e = httpx.get(f"{server.url}/api/events/{event_id}").json()["event"]
    return [
        (p["name"], p.get("rank", ""), p.get("rating"), p.get("club", "")) for p in e["players"]
    ]


def test_players_by_hand_by_a_list_of_names_and_by_a_table(
    server: Server, context_factory: Any
) -> None:
    page = context_factory().new_page()
    event_id = new_event(page, server)
    # one player by hand
    page.fill("[data-testid=add-name]", "Li Wei")
    page.fill("[data-testid=add-rank]", "5d")
    page.fill("[data-testid=add-rating]", "2400")
    page.click("[data-testid=add-player]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(1)")
    # a plain list of names (what the desk refused before), some with a rank
    page.fill("[data-testid=csv]", "Wang Fang\nZhang Min, 3d\n刘洋 2段\n")
    page.wait_for_selector("[data-testid=paste-preview]:has-text('3')")
    page.click("[data-testid=import]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(4)")
    # a table copied from a spreadsheet: tab-separated, Chinese headers in another order
    page.fill(
        "[data-testid=csv]", "单位\t姓名\t等级分\t段位\n上海\t陈一\t2100\t1d\n北京\t周二\t\t1k\n"
    )
    page.click("[data-testid=import]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(6)")
    got = names(server, event_id)
    assert got[0] == ("Li Wei", "5d", 2400, "")
    assert got[1:4] == [
        ("Wang Fang", "", None, ""),
        ("Zhang Min", "3d", None, ""),
        ("刘洋", "2d", None, ""),  # the server writes ranks one way
    ]
    assert got[4] == ("陈一", "1d", 2100, "上海") and got[5][:2] == ("周二", "1k")
    # a CSV with English headers of another program (OpenGotha-like: Name, First name, Club)
    page.fill("[data-testid=csv]", "Last name,First name,Rank,Club\nGu,Li,9p,Chongqing\n")
    page.click("[data-testid=import]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(7)")
    assert names(server, event_id)[6] == ("Gu Li", "9p", None, "Chongqing")


def _inject_conflict(server: Server, event_id: str) -> None:
    """An online game's result that disagrees with the director's, as the core keeps it
    (``entries.record_result`` with ``Source.ONLINE``), stored as a new version of the event
    through the store (an event is rows: its head, players, rounds and boards)."""

    async def inject() -> None:
        db = Database(server.database)
        try:
            stored = await Repository(db).event(event_id)
            assert stored.event is not None
            done = record_result(
                stored.event,
                1,
                1,
                ResultSheet(GameResult.WHITE_WINS),
                source=Source.ONLINE,
                by="game g1",
            )
            assert done.status == "conflict"
            await Repository(db).save_event(
                event_id,
                stored.version,
                stored.data,
                {"op": "test: an online result"},
                time.time(),
                event=done.event,
                before=stored,
            )
        finally:
            await db.dispose()

    # Playwright's sync API runs an event loop in this thread: the store's calls run in another
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, inject()).result()


def test_conflicts_and_the_audit_trail_at_the_desk(server: Server, context_factory: Any) -> None:
    page = context_factory().new_page()
    event_id = new_event(page, server)
    page.fill("[data-testid=csv]", "A\nB\nC\nD\n")
    page.click("[data-testid=import]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(4)")
    page.click("[data-testid=tab-round]")
    page.click("[data-testid=pair]")
    page.wait_for_selector("[data-testid=round-1]")
    page.select_option("[data-testid=result-1-1]", "1-0")  # choosing a result enters it
    page.wait_for_selector("[data-testid=trail-1-1]")
    # a correction: the trail keeps both entries with the value before
    page.select_option("[data-testid=result-1-1]", "draw")  # choosing a result enters it
    page.wait_for_selector("[data-testid=trail-1-1] summary:has-text('(2)')")
    page.click("[data-testid=trail-1-1] summary")
    trail = page.inner_text("[data-testid=trail-1-1]")
    # results in words, never codes (issue 20: "draw", "forfeit-white" on the desk)
    assert "Black wins (1-0) → Draw" in trail and "the desk" in trail
    page.select_option("[data-testid=result-1-2]", "1-0")  # choosing a result enters it
    page.wait_for_selector("[data-testid=trail-1-2]")
    page.click("[data-testid=pair]")
    page.wait_for_selector("[data-testid=round-2]")
    # the online game said otherwise: the desk shows both and the director decides
    _inject_conflict(server, event_id)
    page.reload()
    # the top of the desk says which boards wait for the director, and opens their round
    page.click("[data-testid=conflicts] a")
    page.wait_for_selector("[data-testid=conflict-1-1]")
    assert "0-1" in page.inner_text("[data-testid=conflict-1-1]")
    # the top of the desk says which boards wait for the director
    assert "Board 1" in page.inner_text("[data-testid=conflicts]")
    page.locator("[data-testid=round-1]").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -120)")
    screenshot(page, "desk")
    page.click("[data-testid=accept-conflict-1-1]")
    # round 2 is paired on the old result: the desk asks in the page before changing it
    page.wait_for_selector("[data-testid=force-confirm]")
    assert page.evaluate("document.activeElement.dataset.testid") == "force-yes"
    page.click("[data-testid=force-yes]")
    page.wait_for_selector("[data-testid=conflict-1-1]", state="detached")
    board = next(
        g
        for g in httpx.get(f"{server.url}/api/events/{event_id}/rounds/1").json()["games"]
        if g["board"] == 1
    )
    assert board["result"] == "0-1" and "conflict" not in board
    # print-ready pairings of the round
    page.click("[data-testid=sheet-1]")
    page.wait_for_selector("[data-testid=pairing-sheet] tbody tr:nth-child(2)")
    page.emulate_media(media="print")
    assert page.locator("header.top").is_hidden()
    assert page.locator("[data-testid=pairing-sheet]").is_visible()


def test_edit_remove_and_draw_the_numbers_by_lot(server: Server, context_factory: Any) -> None:
    page = context_factory().new_page()
    event_id = new_event(page, server)
    page.fill("[data-testid=csv]", "Li Wie\nWang Fang\nZhang Min\nTypo Player\n")
    page.click("[data-testid=import]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(4)")
    # a misspelt name is corrected in place
    page.click("[data-testid=edit-1]")
    page.fill("[data-testid=edit-name-1]", "Li Wei")
    page.fill("[data-testid=edit-rank-1]", "5d")
    page.click("[data-testid=save-1]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(1):has-text('Li Wei')")
    # a player entered by mistake is removed (the others move up)
    page.click("[data-testid=remove-4]")
    page.wait_for_selector("[data-testid=players] tbody tr:nth-child(4)", state="detached")
    assert [n[0] for n in names(server, event_id)] == ["Li Wei", "Wang Fang", "Zhang Min"]
    assert names(server, event_id)[0][1] == "5d"
    # appendix 五.2(1): the numbers of round 1 are drawn by lot; the seed is told and kept
    page.click("[data-testid=draw-numbers]")
    page.wait_for_selector("[data-testid=notice]:has-text('seed')")
    assert sorted(n[0] for n in names(server, event_id)) == ["Li Wei", "Wang Fang", "Zhang Min"]
    page.click("[data-testid=tab-round]")
    page.click("[data-testid=pair]")
    page.wait_for_selector("[data-testid=round-1]")
    page.click("[data-testid=tab-players]")
    page.wait_for_selector("[data-testid=players]")
    # once paired, a player withdraws instead of being removed or edited
    assert page.locator("[data-testid^=remove-]").count() == 0
    assert page.locator("[data-testid^=withdraw-]").count() == 3


def test_a_result_is_shown_from_its_boards_answer(server: Server, context_factory: Any) -> None:
    # Issue 26: a board's result answers the board (its result and audit trail); the desk puts
    # it in place and draws again without reading the whole event (megabytes for 5,000
    # players). What it shows is still what the server keeps: the result in words, the trail,
    # the rounds complete in the header.
    made = httpx.post(f"{server.url}/api/events", json={"name": "Club night", "rounds": 3}).json()
    event_id, key = made["id"], made["organiser_token"]
    auth = {"Authorization": f"Bearer {key}"}
    httpx.post(
        f"{server.url}/api/events/{event_id}/players",
        content="name\nAnn\nBen\nCai\nDai\n",
        headers={**auth, "Content-Type": "text/csv"},
    ).raise_for_status()
    httpx.post(f"{server.url}/api/events/{event_id}/rounds", headers=auth).raise_for_status()
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/desk/{event_id}/round?key={key}")
    page.get_by_role("heading", name="Round 1", exact=True).wait_for()
    page.wait_for_load_state("networkidle")
    reads: list[str] = []
    page.on(
        "request",
        lambda r: reads.append(r.url) if r.method == "GET" and "/api/" in r.url else None,
    )
    row = page.locator("[data-board='1']")
    page.get_by_label("Result Board 1", exact=True).select_option(label="Black wins (1-0)")
    row.get_by_text("Changes (1)").wait_for()
    page.get_by_text("no round has all its results yet").wait_for()
    page.get_by_label("Result Board 2", exact=True).select_option(label="Draw")
    page.locator("[data-board='2']").get_by_text("Changes (1)").wait_for()
    page.get_by_text("results complete through round 1").wait_for()
    page.wait_for_load_state("networkidle")
    assert not [u for u in reads if u.split("?")[0].endswith(f"/api/events/{event_id}")], reads
    # a correction: the trail keeps both entries, shown from the board's answer
    page.get_by_label("Result Board 1", exact=True).select_option(label="White wins (0-1)")
    row.get_by_text("Changes (2)").wait_for()
    assert page.get_by_label("Result Board 1", exact=True).input_value() == "0-1"
    stored = httpx.get(f"{server.url}/api/events/{event_id}/rounds/1").json()["games"]
    assert [g["result"] for g in stored] == ["0-1", "draw"]
    assert [len(g["trail"]) for g in stored] == [2, 1]
    assert not [u for u in reads if u.split("?")[0].endswith(f"/api/events/{event_id}")], reads
