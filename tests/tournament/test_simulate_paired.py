"""``simulate`` on an event whose next round is already paired."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from duiyi.cli import main
from duiyi.errors import PairingError
from duiyi.tournament import event as ops
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _players(n: int) -> list[Player]:
    return [Player(0, f"P{i}", rating=2400 - 30 * i) for i in range(1, n + 1)]


def test_simulate_fills_a_round_already_paired() -> None:
    # Go appendix 五: a round is paired, then played; simulate plays the paired round first
    e = ops.add_players(ops.new_event("Club", "go", "swiss", 3), _players(6))
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
    run(capsys, "event", "new", ev, "--game", "go", "--system", "swiss", "--rounds", "3")
    csv = tmp_path / "p.csv"
    csv.write_text("name,rank,rating,club\n" + "".join(f"P{i},1d,2000,\n" for i in range(6)))
    run(capsys, "event", "players", ev, "--add", str(csv))
    assert run(capsys, "event", "pair", ev)[0] == 0
    code, out, err = run(capsys, "event", "simulate", ev, "--rounds", "1", "--seed", "4")
    assert (code, out.strip()) == (0, "simulated through round 1"), err
    code, out, _ = run(capsys, "event", "simulate", ev, "--rounds", "2", "--seed", "4")
    assert (code, out.strip()) == (0, "simulated through round 3")
