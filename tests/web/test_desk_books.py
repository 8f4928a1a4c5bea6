"""Every article the desk shows comes from the event's own book (issue 32): a walk through every
desk tab, print, legend, menu and prompt of a Go and a Gomoku event of each system, in both
languages, fails on the other game's articles ("(Gomoku §18.1)" on a Go standings print,
"Go §27.1(1)C" in a Gomoku legend, 围棋§27.3 in a Gomoku knockout prompt, 双方判负（围棋§17.5）
in a Gomoku result menu). The Gomoku book has 19 articles and no appendix: an article above
§19, or an appendix, on a Gomoku page is Go's."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

pytestmark = pytest.mark.browser

# what only the other book says: its name with an article, or (Gomoku pages) Go's numbers
OTHER_BOOK = {
    "go": re.compile(r"Gomoku §|五子棋§|五子棋第|五子棋规则"),
    "gomoku": re.compile(
        r"Go §|围棋§|围棋第|围棋规则|appendix|附则|§(?:[2-9]\d)|第(?:[2-9]\d|二十|三十)[^轮台局名]{0,6}条"
    ),
}
SYSTEMS = ("swiss", "round-robin", "knockout", "team")
TABS = ("players", "teams", "round", "standings", "export", "settings")
PRINTS = ("print-standings", "print-crosstable", "print-pairings-1", "print-slips-1")


def make_event(server: Server, game: str, system: str) -> dict[str, Any]:
    team = system == "team"
    body: dict[str, Any] = {
        "name": f"{game} {system}",
        "game": game,
        "system": "round-robin" if team else system,
    }
    if system == "swiss":
        body["rounds"] = 3
    if team:
        body["options"] = {"team": True, "boards": 2}
    ev: dict[str, Any] = httpx.post(f"{server.url}/api/events", json=body).json()
    url = f"{server.url}/api/events/{ev['id']}"
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    if team:
        rows = "name,team\n" + "".join(
            f"{t}{b},{t}\n" for t in ("East", "West", "North") for b in (1, 2)
        )
    else:
        rows = "name,rank\n" + "".join(
            f"P{i},{i}d\n" for i in range(1, 9 if system != "round-robin" else 5)
        )
    r = httpx.post(f"{url}/players", content=rows, headers={**org, "Content-Type": "text/csv"})
    assert r.is_success, r.text
    assert httpx.post(f"{url}/players/draw", headers=org, json={"seed": 1}).is_success
    assert httpx.post(f"{url}/lots", headers=org, json={"seed": 1}).is_success
    paired = httpx.post(f"{url}/rounds", headers=org).json()
    for p in paired["pairings"][1:]:  # board 1 stays open: the knockout's draw is entered there
        res = ("1-0", "0-1", "draw")[p["board"] % (2 if system == "knockout" else 3)]
        r = httpx.put(
            f"{url}/rounds/1/boards/{p['board']}/result", headers=org, json={"result": res}
        )
        assert r.is_success, r.text
    return ev


def shown(page: Any) -> str:
    """Everything a reader of the page may meet: its text (menus' options and closed details
    included), titles, labels and placeholders."""
    text: str = page.evaluate(
        """() => [document.body.textContent,
          ...[...document.querySelectorAll('[title],[aria-label],[placeholder]')].flatMap(
            (e) => [e.title, e.getAttribute('aria-label'), e.getAttribute('placeholder')])].join(' ')"""
    )
    return text


def cited(page: Any, game: str, where: str) -> list[str]:
    """The other book's articles on the page, each with its words around and where it was."""
    text = shown(page)
    return [
        f"{where}: …{text[max(0, m.start() - 40) : m.end() + 20]}…"
        for m in OTHER_BOOK[game].finditer(text)
    ]


@pytest.mark.parametrize("game", ["go", "gomoku"])
def test_every_desk_page_cites_its_own_book(
    server: Server, context_factory: Any, game: str
) -> None:
    found: list[str] = []

    def check(page: Any, game: str, where: str) -> None:
        found.extend(cited(page, game, where))

    for system in SYSTEMS:
        ev = make_event(server, game, system)
        base = f"{server.url}/ui/#/desk/{ev['id']}"
        for lang, locale in (("zh", "zh-CN"), ("en", "en-US")):
            page = context_factory(locale=locale).new_page()
            page.goto(f"{base}?key={ev['organiser_token']}")
            page.locator("[data-testid=desk]").wait_for()
            for tab in TABS:
                if tab == "teams" and system != "team":
                    continue
                page.goto(f"{base}/{tab}")
                page.locator(f"[data-testid=desk][data-tab={tab}]").wait_for()
                page.wait_for_load_state("networkidle")
                check(page, game, f"{system} {lang} desk tab {tab}")
            for button in PRINTS:
                page.goto(f"{base}/{'round' if button.endswith('-1') else 'export'}")
                page.locator("[data-testid=desk]").wait_for()
                page.get_by_test_id(button).click()
                page.locator(".print-doc").wait_for()
                page.wait_for_load_state("networkidle")
                check(page, game, f"{system} {lang} {button}")
                if button == "print-standings" and system == "team" and game == "gomoku":
                    # Gomoku §18.3(2)B: 小分 is the score rate against each team met × that
                    # team's score, summed (never "match points of the teams beaten")
                    doc = page.locator(".print-doc").inner_text()
                    said = {"zh": "对该队的得分率", "en": "the share of the match's game points"}
                    assert said[lang] in doc and "所胜队的场分之和" not in doc, doc
                page.locator(".print-doc .actions a").click()  # back to the desk
                page.locator("[data-testid=desk]").wait_for()
            page.goto(f"{server.url}/ui/#/event/{ev['id']}")
            page.wait_for_load_state("networkidle")
            page.locator("main h1").first.wait_for()
            check(page, game, f"{system} {lang} public page")
            page.goto(f"{server.url}/api/events/{ev['id']}/standings.html?lang={lang}")
            check(page, game, f"{system} {lang} wall chart")
            if system == "knockout":
                # a drawn knockout game asks how it is settled: the prompt cites the event's book
                page.goto(f"{base}/round")
                page.locator("[data-testid=result-1-1]").wait_for()
                page.get_by_test_id("result-1-1").select_option(value="draw")
                page.get_by_role("alertdialog").wait_for()
                check(page, game, f"{system} {lang} knockout prompt")
            page.close()
    assert not found, "\n".join(dict.fromkeys(found))
