"""The browser forms that build game settings (home page, new event), the in-page resignation
and the phone-sized home page, driven by Playwright in Debian's chromium against a real server.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, screenshot, state, wait_for_js

pytestmark = pytest.mark.browser


def home(ctx: Any, server: Server) -> Any:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page._duiyi_errors = errors
    return open_home(page, server)


def open_home(page: Any, server: Server) -> Any:
    """Go to the home page in ``page`` and wait for its new-game form."""
    page.goto(f"{server.url}/ui/#/")
    page.wait_for_selector("[data-testid=create-game]")
    return page


def created_id(page: Any) -> str:
    """The id of the game just created: Create seats its creator at Black's seat, whose page
    offers the spectators' link."""
    page.wait_for_selector("[data-testid=game-page] [data-testid=link-watch]")
    href: str = page.get_attribute("[data-testid=link-watch]", "href")
    return href.split("#/game/")[1]


def fill_form(page: Any, fields: dict[str, str]) -> None:
    """Set form fields in order, by ``data-testid``: a ``<select>`` gets the option, any other
    field gets the text (order matters: choosing a time system shows its own fields)."""
    for testid, value in fields.items():
        selector = f"[data-testid={testid}]"
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)


def create_game(page: Any) -> str:
    """Press the home page's create button; return the new game's id and go back to the home
    page (its form shown afresh) for the next one."""
    page.click("[data-testid=create-game]")
    game_id = created_id(page)
    page.go_back()
    page.wait_for_selector("[data-testid=create-game]")
    return game_id


def test_home_form_offers_every_time_system(server: Server, context_factory: Any) -> None:
    page = home(context_factory(), server)
    expected = {
        "absolute": {"base": 900.0},
        "chinese-byoyomi": {"base": 1800.0, "reserved_minutes": 3},
        "japanese-byoyomi": {"base": 1800.0, "periods": 3, "period": 30.0},
        "fischer": {"base": 600.0, "increment": 10.0, "cap": None},
        "moves-per-period": {"base": 3600.0, "moves": 15, "period": 600.0},
    }
    page.select_option("[data-testid=new-size]", "9")
    for system, fields in expected.items():
        page.select_option("[data-testid=new-tc]", system)
        tc = state(server, create_game(page))["time_control"]
        assert tc["system"] == system
        for k, v in fields.items():
            assert tc[k] == v, (system, k, tc)
    # Fischer with a cap (minutes in the form, seconds in the game)
    page.select_option("[data-testid=new-tc]", "fischer")
    page.fill("[data-testid=new-tf-cap]", "20")
    assert state(server, create_game(page))["time_control"]["cap"] == 1200.0
    page.select_option("[data-testid=new-tc]", "none")
    assert state(server, create_game(page))["time_control"]["system"] == "none"
    assert page._duiyi_errors == []


def test_handicap_rules_and_lateness_from_the_home_page(
    server: Server, context_factory: Any
) -> None:
    page = home(context_factory(), server)
    fill_form(
        page,
        {
            "new-size": "13",
            "new-handicap": "3",
            "new-rules": "japanese",
            "new-tc": "absolute",
            "new-tf-base": "5",
            "new-lateness": "limit",
            "new-late-limit": "30",
        },
    )
    page.click("[data-testid=create-game]")
    game_id = created_id(page)
    view = state(server, game_id)
    # Go §4: handicap stones are placed before White's first move
    assert view["size"] == 13 and view["handicap"] == 3 and len(view["stones"]["black"]) == 3
    assert view["rules"]["name"] == "japanese"
    assert view["time_control"] == {"v": 1, "system": "absolute", "base": 300.0}
    # Go §22: players arrive by connecting; the creator, seated at Black at once, has arrived
    page.wait_for_selector(f"[data-testid=game-page][data-game-id='{game_id}'][data-connected=yes]")
    page.wait_for_selector("[data-testid=absent-white]")
    assert "waiting for the player" in page.inner_text("[data-testid=player-white]")
    wait_for_js(page, "!document.querySelector('[data-testid=absent-black]')")
    assert state(server, game_id)["absent"] == ["white"]
    # Gomoku: its presets; the same-site rule is Go's only (Go §22.2)
    open_home(page, server)
    page.select_option("[data-testid=new-kind]", "gomoku")
    assert page.locator("[data-testid=new-handicap]").is_hidden()
    options = page.locator("[data-testid=new-rules] option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    assert options == ["chinese_2013", "free", "free_renju"]
    page.select_option("[data-testid=new-rules]", "free_renju")
    page.select_option("[data-testid=new-lateness]", "limit")
    assert page.input_value("[data-testid=new-late-limit]") == "15"
    view = state(server, create_game(page))
    assert view["game"] == "gomoku" and view["rules"]["opening"] == "free"
    assert view["absent"] == ["white"]  # the creator arrived at Black's seat
    assert page._duiyi_errors == []


def test_event_online_settings_reach_the_round_games(server: Server, context_factory: Any) -> None:
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/new-event")
    fill_form(
        page,
        {
            "event-name": "Online Cup",
            "ev-size": "9",
            "ev-tc": "japanese-byoyomi",
            "ev-tf-base": "10",
            "ev-tf-periods": "5",
            "ev-tf-period": "20",
            "ev-lateness": "same_site",
        },
    )
    page.click("[data-testid=create-event]")
    page.wait_for_selector("[data-testid=event-keys]")
    key = page.locator("[data-testid=event-keys] code").first.inner_text()
    href = page.get_attribute("[data-testid=open-desk]", "href")
    event_id = href.split("#/desk/")[1].split("?")[0]
    auth = {"Authorization": f"Bearer {key}"}
    csv = "name,rank,rating,club\nA,1d,2000,X\nB,1k,1900,Y\n"
    r = httpx.post(
        f"{server.url}/api/events/{event_id}/players",
        content=csv,
        headers={**auth, "Content-Type": "text/csv"},
    )
    assert r.status_code < 300, r.text
    online = httpx.get(f"{server.url}/api/events/{event_id}").json()["online"]
    assert online["size"] == 9 and online["lateness"] == {"same_site": True}
    assert online["time_control"] == {
        "system": "japanese-byoyomi",
        "base": 600,
        "periods": 5,
        "period": 20,
    }
    # the desk shows the settings and changes them before the round's games start
    page.click("[data-testid=open-desk]")
    page.click("[data-testid=tab-settings]")
    page.wait_for_selector("[data-testid=online-summary]:has-text('Japanese byo-yomi')")
    assert page.input_value("[data-testid=desk-tf-period]") == "20"
    assert page.input_value("[data-testid=desk-lateness]") == "same_site"
    fill_form(
        page,
        {
            "desk-tc": "fischer",
            "desk-tf-base": "3",
            "desk-tf-increment": "5",
        },
    )
    page.click("[data-testid=save-online]")
    page.wait_for_selector("[data-testid=online-summary]:has-text('Fischer')")
    assert httpx.post(f"{server.url}/api/events/{event_id}/rounds", headers=auth).is_success
    r = httpx.post(f"{server.url}/api/events/{event_id}/rounds/1/games", headers=auth)
    assert r.is_success, r.text
    view = state(server, r.json()["games"][0]["game_id"])
    assert view["size"] == 9
    tc = view["time_control"]
    assert (tc["system"], tc["base"], tc["increment"]) == ("fischer", 180.0, 5.0)
    assert view["absent"] == ["black", "white"]  # Go §22.2: they arrive by connecting


def test_resign_asks_in_the_page(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9)
    pages = []
    for token in (g["black_token"], g["white_token"]):
        p = context_factory().new_page()
        p.goto(f"{server.url}/ui/#/game/{g['id']}?token={token}")
        p.wait_for_selector("[data-testid=game-page][data-connected=yes]")
        pages.append(p)
    black, white = pages
    black.on("dialog", lambda d: pytest.fail(f"a browser dialog appeared: {d.message}"))
    black.click("[data-testid=resign]")
    black.wait_for_selector("[data-testid=resign-confirm][role=alertdialog]")
    # the focus moves into the confirmation; Escape cancels and returns it to the button
    assert black.evaluate("document.activeElement.dataset.testid") == "resign-yes"
    black.keyboard.press("Escape")
    black.wait_for_selector("[data-testid=resign-confirm]", state="detached")
    assert black.evaluate("document.activeElement.dataset.testid") == "resign"
    assert state(server, g["id"])["outcome"] is None
    black.click("[data-testid=resign]")
    black.click("[data-testid=resign-cancel]")
    black.wait_for_selector("[data-testid=resign-confirm]", state="detached")
    # keyboard only: Enter opens it, Enter on the focused "yes" resigns
    black.focus("[data-testid=resign]")
    black.keyboard.press("Enter")
    black.wait_for_selector("[data-testid=resign-confirm]")
    black.keyboard.press("Enter")
    for p in (black, white):
        p.wait_for_selector("[data-testid=game-page][data-phase=finished]")
        assert "resignation" in p.inner_text("[data-testid=status]")
    outcome = state(server, g["id"])["outcome"]
    assert outcome["termination"] == "resignation" and outcome["winner"] == "white"


def test_the_resignation_asked_stays_open_while_a_new_position_is_analysed(
    server: Server, context_factory: Any
) -> None:
    """A new position shown before its analysis (what the seat may do) leaves the in-page
    confirmation open: White asks for the pass on overtime (Go §22.5), Black may still resign
    (it closed, and had to be asked for again)."""
    tc = {"system": "chinese-byoyomi", "base": 600, "reserved_minutes": 1}
    g = new_game(server, game="go", size=9, time_control=tc)
    black = context_factory().new_page()
    black.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    black.click("[data-testid=resign]")
    black.wait_for_selector("[data-testid=resign-confirm]")
    held: list[Any] = []
    black.route("**/analysis", lambda route: held.append(route))
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/actions",
        json={"type": "request_overtime_pass"},
        headers={"Authorization": f"Bearer {g['white_token']}"},
    )
    assert r.status_code == 200, r.text
    black.wait_for_selector("[data-testid=game-page][data-version='1']")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        black.wait_for_timeout(50)  # the route handler runs while Playwright waits
    assert held, "the page asks for the new position's analysis"
    for route in held:
        route.continue_()
    black.unroute("**/analysis")
    black.wait_for_selector("[data-testid=overtime-pass]")  # the analysis is in
    assert black.locator("[data-testid=resign-confirm]").count() == 1
    black.click("[data-testid=resign-yes]")
    black.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    assert state(server, g["id"])["outcome"]["winner"] == "white"


def test_home_page_at_phone_width_and_by_keyboard(server: Server, context_factory: Any) -> None:
    ctx = context_factory(viewport={"width": 390, "height": 844})
    page = home(ctx, server)
    for kind in ("go", "gomoku"):
        page.select_option("[data-testid=new-kind]", kind)
        for system in ("moves-per-period", "fischer"):
            page.select_option("[data-testid=new-tc]", system)
            page.select_option("[data-testid=new-lateness]", "limit")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (kind, system, width)  # nothing wider than the phone
    page.select_option("[data-testid=new-kind]", "go")
    # keyboard only: Tab reaches the create button; Enter creates the game
    page.focus("[data-testid=new-kind]")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.testid") == "create-game":
            break
    else:
        pytest.fail("Tab never reached the create button")
    page.keyboard.press("Enter")
    created_id(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the new-event form with its online settings fits too
    page.goto(f"{server.url}/ui/#/new-event")
    page.wait_for_selector("[data-testid=create-event]")
    page.select_option("[data-testid=ev-tc]", "moves-per-period")
    page.select_option("[data-testid=ev-lateness]", "limit")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page._duiyi_errors == []


@pytest.mark.gnugo
def test_engine_game_with_handicap_and_clock(server: Server, context_factory: Any) -> None:
    from duiyi.server.engines.driver import gnugo_command

    if gnugo_command() is None:
        pytest.skip("GNU Go is not installed (.ci/run installs it)")
    page = home(context_factory(), server)
    page.click("[data-testid=engine-box] summary")  # the form folds away on the home page
    page.wait_for_selector("[data-testid=play-engine]")
    assert page.locator("[data-testid=engine-lateness]").count() == 0  # not for engines
    # the operator's engines by their names (never a command), with their levels
    box = page.get_by_test_id("engine-box")
    box.get_by_label("Engine").select_option(label="Go — GNU Go")
    box.get_by_label("Level").select_option("3")
    page.get_by_test_id("play-engine").scroll_into_view_if_needed()
    screenshot(page, "engine-choice")
    fill_form(
        page,
        {
            "engine-size": "9",
            "engine-handicap": "2",
            "engine-tc": "fischer",
            "engine-tf-base": "5",
            "engine-tf-increment": "3",
        },
    )
    page.click("[data-testid=play-engine]")
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    game_id = page.get_attribute("[data-testid=game-page]", "data-game-id")
    view = state(server, game_id)
    # Go §4: two handicap stones; White (GNU Go) moves first
    assert view["size"] == 9 and view["handicap"] == 2
    tc = view["time_control"]
    assert (tc["system"], tc["base"], tc["increment"]) == ("fischer", 300.0, 3.0)
    page.wait_for_selector("[data-stone][data-color=white]", timeout=30_000)
    assert page._duiyi_errors == []
