"""Stored rulings replay unchanged (issue 34, the referee split): the files in tests/data/rulings
were written by duiyi's main of 2026-12-02 (commit c3d9435), before the ledger was cut into
book, ruling, requests and procedures. Each holds what the old code read from it; the code of
today must read the same: the ledger's JSON back unchanged, the counts (warnings: Go §24.1, the
second warning or violation: Go §24.2, Gomoku §12.3(4)), the outcome, the open appeals
(Go §27, Gomoku §13), and for whole session logs the replayed log, outcome and result sheet.

``ledgers.json``: one referee ledger per test of tests/referee and tests/session that made one,
at least two per ruling kind; ``sessions.json``: session logs whose actions hold rulings, from the
same tests and tests/server/test_rulings.py. Frozen: never regenerate them from newer code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from duiyi import BLACK, WHITE
from duiyi.games import get as get_game
from duiyi.referee import Referee, RulingKind, outcome_json, stored_game
from duiyi.session import Session

DATA = Path(__file__).resolve().parents[1] / "data" / "rulings"
LEDGERS: list[dict[str, Any]] = json.loads((DATA / "ledgers.json").read_text("utf-8"))["ledgers"]
LOGS: list[dict[str, Any]] = json.loads((DATA / "sessions.json").read_text("utf-8"))["logs"]


def test_the_golden_files_cover_every_ruling_kind() -> None:
    # a golden file that lost its cases would pass by checking nothing
    kinds = {r["kind"] for case in LEDGERS for r in case["ledger"]["rulings"]}
    assert kinds == {k.value for k in RulingKind}
    assert len(LOGS) >= 20


@pytest.mark.parametrize("case", LEDGERS, ids=[f"{i}" for i in range(len(LEDGERS))])
def test_a_stored_ledger_reads_as_before(case: dict[str, Any]) -> None:
    ledger, expect = case["ledger"], case["expect"]
    ref = Referee.from_json(ledger, get_game(stored_game(ledger)))
    assert ref.to_json() == expect["to_json"] == ledger
    assert ref.summary() == expect["summary"]
    assert outcome_json(ref.outcome()) == expect["outcome"]
    assert sorted(c.value for c in ref.disqualified()) == expect["disqualified"]
    assert sorted(c.value for c in ref.penalty_losses()) == expect["penalty_losses"]
    assert ref.open_appeals() == expect["open_appeals"]
    counts = {
        c.value: [ref.warnings(c), ref.violations(c), ref.stone_penalty(c), ref.seat_leaves(c)]
        for c in (BLACK, WHITE)
    }
    assert counts == expect["counts"]
    assert [r.ends_game for r in ref.rulings] == expect["ends_game"]


@pytest.mark.parametrize("case", LOGS, ids=[f"{i}" for i in range(len(LOGS))])
def test_a_stored_session_log_replays_as_before(case: dict[str, Any]) -> None:
    log, expect = case["log"], case["expect"]
    session = Session.from_log(log)
    assert session.to_json() == expect["to_json"] == log
    assert outcome_json(session.outcome()) == expect["outcome"]
    assert session.result_sheet() == expect["result_sheet"]
    assert session.referee.to_json() == expect["referee"]
