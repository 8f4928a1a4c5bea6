"""The printed wall chart in Chinese (issue 20: the 成绩公告 page was wholly in English): every
column name and the crosstable's title in Chinese, each tiebreak named once (no 积分 twice)."""

from __future__ import annotations

import random

from duiyi.tournament.event import add_players, enter_result, new_event, pair_next_round
from duiyi.tournament.formats.wallchart import standings_html
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult


def _event() -> Event:
    e = add_players(new_event("公开赛", "gomoku", "swiss", 3), [Player(0, n) for n in "甲乙丙丁"])
    e, _ = pair_next_round(e, random.Random(1))
    e = enter_result(e, 1, 1, GameResult.BLACK_WINS)
    return enter_result(e, 1, 2, GameResult.DRAW)


def test_the_wall_chart_speaks_chinese_when_asked() -> None:
    page = standings_html(_event(), lang="zh")
    assert "公开赛 — 成绩公告（第1轮后）" in page
    for word in ("名次", "序号", "姓名", "段位", "单位", "第1轮", "积分", "对手分", "胜局"):
        assert f">{word}<" in page or word in page, word
    # Gomoku §18.4(1) labels in Chinese only, and 积分 once as a column head
    assert "buchholz" not in page.lower() and ">Pts<" not in page
    assert page.count("<th>积分</th>") == 1


def test_english_stays_the_default() -> None:
    page = standings_html(_event())
    assert "standings after round 1" in page and "<th>Pts</th>" in page
