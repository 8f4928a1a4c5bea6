"""A refusal reaches the page as a code with its values and is said in the page's language
(issue 32): on a Chinese arbiter's room, a pushed stone put back after the opponent played on
(Gomoku §6.2) and a disqualification without the committee's approval (Gomoku §2.20(4)) are
refused in Chinese, never "only black's last stone…" or "pass approved=True"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.server.conftest import Server
from tests.web.test_arbiter import card, make_event, rulings_of
from tests.web.test_player import act

pytestmark = pytest.mark.browser


def refused(page: Any) -> str:
    error = page.get_by_test_id("error")
    error.wait_for()
    text: str = error.inner_text()
    return text


def test_the_rooms_refusals_are_said_in_chinese(server: Server, context_factory: Any) -> None:
    ev = make_event(server, "gomoku", 4)
    g = ev["games"][0]
    gid = g["game_id"]
    act(server, gid, g["black_token"], {"type": "move", "move": "h8"})
    act(server, gid, g["white_token"], {"type": "move", "move": "i9"})
    page = context_factory(viewport={"width": 1024, "height": 768}, locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/room/{ev['id']}?arbiter={ev['arbiter_token']}")
    c = card(page, 1)
    c.get_by_label("裁决种类").wait_for()
    # Gomoku §6.2: White has played on, so Black's pushed stone stands
    c.get_by_label("裁决种类").select_option(label="推盘：棋子放回")
    c.get_by_label("棋手", exact=True).select_option("black")
    c.get_by_label("第一个接触的交叉点").fill("g7")
    c.get_by_role("button", name="裁决…").click()
    c.get_by_role("button", name="确认裁决").click()
    text = refused(page)
    assert "只有黑方刚下的最后一子" in text and "五子棋§6.2" in text, text
    assert not re.search(r"[A-Za-z]{3,}", text.replace("§", "")), text  # no English words
    page.get_by_test_id("error").get_by_role("button").click()
    # Gomoku §2.20(4): only with the committee's approval of the chief arbiter's request
    c.get_by_label("裁决种类").select_option(label="取消比赛资格")
    c.get_by_label("棋手", exact=True).select_option("white")
    approval = c.get_by_label("经竞赛委员会批准")
    if approval.is_checked():
        approval.uncheck()
    c.get_by_role("button", name="裁决…").click()
    c.get_by_role("button", name="确认裁决").click()
    text = refused(page)
    assert "须经竞赛委员会批准" in text and "approved" not in text, text
    assert rulings_of(server, gid) == []  # nothing was ruled
