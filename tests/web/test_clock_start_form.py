"""The home page's choice of when a casual game's clock starts (issue 21): "when both players
have sat down" (the default) or "with the first move"; with lateness rules the start is the
scheduled one (Go §22) and the choice is not offered. In English and in Chinese."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tests.server.conftest import Server
from tests.web.conftest import screenshot, state
from tests.web.test_forms import created_id, open_home

pytestmark = pytest.mark.browser


def test_the_creator_chooses_when_the_clock_starts(server: Server, context_factory: Any) -> None:
    page = open_home(context_factory().new_page(), server)
    form = page.locator("form").filter(has=page.get_by_role("button", name="Create"))
    starts = form.get_by_label("Clock starts")
    assert not starts.is_visible()  # no clock, nothing to start
    form.get_by_label("Time control").select_option("absolute")
    assert starts.is_visible()
    assert starts.input_value() == "seated"  # the default: when both have sat down
    page.get_by_role("button", name="Create").click()
    game_id = created_id(page)
    # the creator sits at Black's seat at once: the clock waits for White only
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    deadline = time.monotonic() + 10
    while state(server, game_id)["clock"]["waiting_for"] != ["white"]:
        assert time.monotonic() < deadline, state(server, game_id)["clock"]
        time.sleep(0.1)
    assert state(server, game_id)["clock"] == {
        "start_rule": "seated",
        "started": False,
        "waiting_for": ["white"],
        "lateness": None,
    }
    page.go_back()
    form.get_by_label("Time control").select_option("absolute")
    starts.select_option(label="with the first move")
    screenshot(page, "home-clock-starts")
    page.get_by_role("button", name="Create").click()
    assert state(server, created_id(page))["clock"]["start_rule"] == "first_move"
    # lateness rules (Go §22.1) go with the scheduled start: the choice disappears
    page.go_back()
    form.get_by_label("Time control").select_option("absolute")
    form.get_by_label("Lateness").select_option(label="Players arrive by connecting (time limit)")
    assert not starts.is_visible()
    page.get_by_role("button", name="Create").click()
    view = state(server, created_id(page))
    assert view["clock"]["start_rule"] == "scheduled" and view["clock"]["lateness"] is not None


def test_the_choice_in_chinese(server: Server, context_factory: Any) -> None:
    page = open_home(context_factory(locale="zh-CN").new_page(), server)
    form = page.locator("form").filter(has=page.get_by_role("button", name="创建"))
    form.get_by_label("计时方式").select_option("absolute")
    form.get_by_label("开钟").select_option(label="第一手棋后")
    form.get_by_role("button", name="创建").scroll_into_view_if_needed()
    screenshot(page, "home-clock-starts-zh")
    page.get_by_role("button", name="创建").click()
    assert state(server, created_id(page))["clock"]["start_rule"] == "first_move"
