"""Fixtures for the browser tests: a real `duiyi serve` process (SQLite) and Debian's chromium
driven headless by Playwright (never `playwright install`: the system browser is used)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

CHROMIUM = os.environ.get("DUIYI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("web")
    # GNU Go offered (the operator's switch: nothing is offered by default)
    s = Server(f"sqlite:///{tmp / 'duiyi.sqlite3'}", None, extra=("--gnugo",)).start(tmp)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"chromium is not installed at {CHROMIUM} (.ci/run installs it from Debian)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def context_factory(browser: Any) -> Iterator[Any]:
    made: list[Any] = []

    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("viewport", {"width": 1200, "height": 820})
        kwargs.setdefault("locale", "en-US")
        ctx = browser.new_context(**kwargs)
        ctx.set_default_timeout(20_000)  # CI shares two cores with the other tests
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def wait_for_js(page: Any, expression: str, arg: Any = None, timeout: float = 20.0) -> None:
    """Wait until the page's ``expression`` (or function of ``arg``) is truthy. Playwright's
    ``wait_for_function`` evaluates a string with eval, which the UI's Content-Security-Policy
    refuses (no 'unsafe-eval'); ``evaluate`` is the browser's own and is not refused."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never made this true: {expression}")
        page.wait_for_timeout(50)


def new_game(server: Server, **spec: Any) -> dict[str, Any]:
    """Create a game through the public API (its clock starting at once unless ``start`` says
    otherwise: these tests were written before the start rules of issue 21)."""
    r = httpx.post(server.url + "/api/games", json={"start": "scheduled", **spec})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def state(server: Server, game_id: str) -> dict[str, Any]:
    """The game's state as the server has it."""
    data: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game_id}").json()
    return data


def screenshot(page: Any, name: str) -> Path:
    """Take a screenshot for the docs: docs/screenshots/<name>.png when it is missing or
    ``DUIYI_UPDATE_SCREENSHOTS=1`` (so a test run does not churn the committed images),
    else next to the test's temporary files."""
    target = DOCS / f"{name}.png"
    if target.exists() and os.environ.get("DUIYI_UPDATE_SCREENSHOTS") != "1":
        target = Path(tempfile.gettempdir()) / f"duiyi-screenshot-{name}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target), full_page=False)
    assert target.stat().st_size > 10_000  # a real picture, not a blank page
    return target


#: White takes Black's A1-A3 with B1-B3 and A4 (Black plays J9 between): stones that a Go §18.1
#: ruling can put back (one at a time with A2 empty, A1 and A3 together)
CORNER_TAKEN = ("A1", "B1", "A2", "B2", "A3", "B3", "J9", "A4")


def play(server: Server, game: dict[str, Any], moves: tuple[str, ...]) -> None:
    """Play ``moves`` in turn from Black through the public API with the game's two tokens."""
    for i, point in enumerate(moves):
        token = game["black_token"] if i % 2 == 0 else game["white_token"]
        r = httpx.post(
            f"{server.url}/api/games/{game.get('game_id', game.get('id'))}/actions",
            json={"type": "move", "move": point},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
