"""Quality of the browser UI (issue 15): axe-core finds no serious or critical accessibility
violation on any page, in either language; both languages are complete (every text the pages
ask for, and every outcome, foul, system and result source the core can name); the phone
width and the keyboard keep working; screenshots of a game and a phone view for the docs.

axe-core comes from npm (``make install-axe``: node_modules/ at the repository root, ignored by
git); the test fails, not skips, without it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, screenshot
from tests.web.test_player import act, set_names

from duiyi.gomoku.fouls import Foul
from duiyi.outcome import Result, Termination
from duiyi.referee import RulingKind
from duiyi.server.games.rulings import ruling_table
from duiyi.tournament import systems
from duiyi.tournament.results import Source

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "duiyi" / "web"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def i18n_table() -> dict[str, tuple[str, str]]:
    # i18n.js and the tables merged into it (i18n_desk.js ...)
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(WEB.glob("i18n*.js")))
    pairs = re.findall(
        r'^\s*"([^"]+)":\s*\["((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\],?\s*$', text, re.M
    )
    return {k: (en, zh) for k, en, zh in pairs}


def test_both_languages_are_complete() -> None:
    table = i18n_table()
    assert len(table) > 250
    for key, (en, zh) in table.items():
        assert en.strip() and zh.strip(), key
        # the same placeholders in both languages
        assert sorted(re.findall(r"\{\w+\}", en)) == sorted(re.findall(r"\{\w+\}", zh)), key
    used: set[str] = set()
    for js in WEB.glob("*.js"):
        used |= set(re.findall(r'\bt\("([A-Za-z][\w.\-]*)"', js.read_text(encoding="utf-8")))
    assert not sorted(used - table.keys())
    # every name the core can give to an outcome, a foul, a system or a result's source
    wanted = [f"term.{t.value}" for t in Termination]
    wanted += [f"res.{r.value}" for r in Result if r not in (Result.WIN, Result.DRAW)]
    wanted += [f"foul.{f.value}" for f in Foul]
    wanted += [f"sys.{name}" for name in systems.names()]
    wanted += [f"src.{s.value}" for s in Source]
    wanted += [f"rk.{k.value}" for k in RulingKind]  # the rulings the arbiter's room lists
    # the ruling forms: every ruling of both books, its fields and its decisions (issue 21)
    for game in ("go", "gomoku"):
        for row in ruling_table(game):
            wanted.append(f"rm.{row['id']}")
            wanted += [f"rf.{f['name']}" for f in row["fields"]]
            for f in row["fields"]:
                if f["type"] == "decision":
                    wanted += [f"dec.{d}" for d in f["choices"]]
                if f["type"] == "select":  # heads, upheld...: words of the page's language
                    wanted += [f"rv.{c}" for c in f["choices"]]
    assert not [k for k in wanted if k not in table]


def axe(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page."""
    assert AXE.exists(), f"axe-core is missing: run `make install-axe` ({AXE})"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated by the browser itself: a script tag would be inline script, which the UI's
        # Content-Security-Policy refuses (issue 35)
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def make_event(server: Server) -> dict[str, Any]:
    r = httpx.post(
        server.url + "/api/events",
        json={
            "name": "Axe open",
            "game": "go",
            "system": "swiss",
            "rounds": 2,
            "online": {"size": 9},
        },
    )
    ev: dict[str, Any] = r.json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    httpx.post(
        f"{server.url}/api/events/{ev['id']}/players",
        content="A\nB\nC\nD\n",
        headers={**org, "Content-Type": "text/plain"},
    )
    httpx.post(f"{server.url}/api/events/{ev['id']}/rounds", headers=org)
    games = httpx.post(f"{server.url}/api/events/{ev['id']}/rounds/1/games", headers=org).json()
    ev["games"] = games["games"]
    return ev


@pytest.mark.parametrize("lang", ["en-US", "zh-CN"])
def test_no_serious_accessibility_violation_on_any_page(
    server: Server, context_factory: Any, lang: str
) -> None:
    byoyomi = {"system": "chinese-byoyomi", "base": 1800, "reserved_minutes": 3}
    go = new_game(server, game="go", size=9, time_control=byoyomi)
    set_names(server, go, "Alice", "Bob")
    act(server, go["id"], go["black_token"], {"type": "move", "move": "E5"})
    renju = new_game(server, game="gomoku", rules="chinese_2013")
    ev = make_event(server)
    page = context_factory(locale=lang).new_page()
    pages = {
        "home": ("#/", "[data-testid=live-games] li"),
        "go game": (
            f"#/game/{go['id']}?token={go['black_token']}",
            "[data-testid=overtime-pass]",  # Go §22.5 under byo-yomi
        ),
        "renju opening": (
            f"#/game/{renju['id']}?token={renju['black_token']}",
            "[data-testid=opening-form]",
        ),
        "spectator": (f"#/game/{go['id']}", "[data-testid=game-page][data-connected=yes]"),
        "not found": ("#/game/nothing-here", "[data-testid=not-found]"),
        "new event": ("#/new-event", "[data-testid=event-name]"),
        "event": (f"#/event/{ev['id']}", "[data-testid=standings]"),
        "desk": (
            f"#/desk/{ev['id']}?key={ev['organiser_token']}&arbiter={ev['arbiter_token']}",
            "[data-testid=round-1]",
        ),
        "room": (f"#/room/{ev['id']}?arbiter={ev['arbiter_token']}", "[data-testid=room-board-1]"),
    }
    found: dict[str, list[str]] = {}
    for name, (route, ready) in pages.items():
        page.goto(f"{server.url}/ui/{route}")
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)
        if bad := axe(page):
            found[name] = bad
    # a move waiting for its confirmation
    page.goto(f"{server.url}/ui/#/game/{go['id']}?token={go['white_token']}")
    page.wait_for_selector("[data-testid=confirm-toggle]")
    page.click("[data-testid=confirm-toggle]")
    page.click("[data-point='D4']")
    page.wait_for_selector("[data-testid=move-confirm]")
    if bad := axe(page):
        found["move confirmation"] = bad
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_phone_width_and_keyboard_on_a_game(server: Server, context_factory: Any) -> None:
    tc = {"system": "chinese-byoyomi", "base": 900, "reserved_minutes": 3}
    g = new_game(server, game="go", size=13, time_control=tc)
    set_names(server, g, "Chen", "Zhou")
    for b, w in [("D4", "L11"), ("K10", "C10")]:
        act(server, g["id"], g["black_token"], {"type": "move", "move": b})
        act(server, g["id"], g["white_token"], {"type": "move", "move": w})
    phone = context_factory(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    ).new_page()
    phone.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    phone.wait_for_selector("[data-testid=overtime-pass]")
    # nothing wider than the screen (the Go §22.5 button included)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator("svg.board").bounding_box()
    assert box["width"] > 300  # the board fills the phone's width
    screenshot(phone, "phone-game")
    # the keyboard alone: focus the board, move the cursor, play, confirm
    desk = context_factory().new_page()
    desk.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    desk.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    desk.focus("svg.board")
    for key in ["ArrowRight", "ArrowUp", "Enter"]:
        desk.keyboard.press(key)
    desk.wait_for_selector("[data-testid=game-page][data-version='5']")


def test_phone_width_on_the_home_desk_and_room(server: Server, context_factory: Any) -> None:
    ev = make_event(server)
    phone = context_factory(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    ).new_page()
    for route, ready in [
        ("#/", "[data-testid=live-games] li"),
        (f"#/desk/{ev['id']}?key={ev['organiser_token']}", "[data-testid=round-1]"),
        (f"#/room/{ev['id']}?arbiter={ev['arbiter_token']}", "[data-testid=room-board-2]"),
        (f"#/event/{ev['id']}", "[data-testid=standings]"),
    ]:
        phone.goto(f"{server.url}/ui/{route}")
        phone.wait_for_selector(ready)
        # nothing wider than the screen: wide tables scroll by themselves
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, route
    # the room's ruling form works by touch on a phone too
    phone.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    phone.tap("[data-testid=rule-2]")
    phone.tap("[data-testid=rule-yes-2]")
    phone.wait_for_selector("[data-testid=rulings-2]")
