"""``simulate`` on an event whose next round is already paired."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.tournament.conftest import players, run, start_event, write_players_csv

from duiyi.errors import PairingError
from duiyi.tournament import event as ops
from duiyi.tournament.results import GameResult


def test_simulate_fills_a_round_already_paired() -> None:
    # Go appendix 五: a round is paired, then played; simulate plays the paired round first
    e = ops.add_players(ops.new_event("Club", "go", "swiss", 3), players(6))
    e, _ = ops.pair_next_round(e, random.Random(2))
    e = ops.enter_result(e, 1, 1, GameResult.BLACK_WINS)
    once = ops.simulate(e, 1, random.Random(4))
    assert once.current_round == 1 and once.completed_rounds == 1
    assert once.round(1).game(1).result is GameResult.BLACK_WINS  # kept as entered
    twice = ops.simulate(e, 2, random.Random(4))
    assert twice.current_round == 2 and twice.completed_rounds == 2
    with pytest.raises(PairingError, match="all 3 rounds"):
        ops.simulate(twice, 2, random.Random(4))


def test_cli_simulate_after_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the guide's flow: pair, then simulate --rounds 1 plays that round (no error)
    ev = str(tmp_path / "club.json")
    csv = write_players_csv(tmp_path / "p.csv", 6)
    start_event(capsys, ev, csv, "--game", "go", "--system", "swiss", "--rounds", "3")
    assert run(capsys, "event", "pair", ev)[0] == 0
    code, out, err = run(capsys, "event", "simulate", ev, "--rounds", "1", "--seed", "4")
    assert (code, out.strip()) == (0, "simulated through round 1"), err
    code, out, _ = run(capsys, "event", "simulate", ev, "--rounds", "2", "--seed", "4")
    assert (code, out.strip()) == (0, "simulated through round 3")
