"""How many rounds an event has: stored and printed as the system gives them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from tests.tournament.conftest import players, run, write_players_csv

from duiyi.errors import PairingError, TournamentError
from duiyi.tournament import event as ops
from duiyi.tournament.model import Event


@pytest.mark.parametrize(("n", "cycles", "expected"), [(6, 1, 5), (5, 1, 5), (4, 2, 6), (7, 2, 14)])
def test_round_robin_rounds_follow_the_berger_table(n: int, cycles: int, expected: int) -> None:
    # Go appendix 三 (Berger table): n − 1 rounds for an even field, n for an odd one, per cycle
    e = ops.new_event("League", "go", "round-robin", options={"cycles": cycles})
    assert e.rounds == 0  # "from the system": no players yet
    e = ops.add_players(e, players(n))
    assert e.rounds == expected == ops.total_rounds(e)
    assert Event.from_json(json.loads(json.dumps(e.to_json()))).rounds == expected
    # the rounds can all be paired and no more
    e = ops.simulate(e, expected, random.Random(1))
    with pytest.raises(PairingError, match=f"all {expected} rounds"):
        ops.pair_next_round(e)


def test_elimination_rounds_follow_the_bracket() -> None:
    # Go appendix 一 (knockout): 5 players need a bracket of 8, three rounds; --rounds is not asked for
    e = ops.add_players(ops.new_event("Cup", "go", "knockout"), players(5))
    assert e.rounds == ops.total_rounds(e) == 3


def test_a_swiss_still_needs_its_rounds() -> None:
    # Go appendix 五: the organiser fixes a Swiss's rounds
    with pytest.raises(TournamentError, match="needs its number of rounds"):
        ops.new_event("Open", "go", "swiss")
    assert ops.new_event("Open", "go", "swiss", 5).rounds == 5


def test_old_files_with_a_wrong_round_robin_count_are_corrected_at_pairing() -> None:
    # Go appendix 三: an event file written with "rounds": 1 for six players still plays five
    e = ops.add_players(ops.new_event("League", "go", "round-robin"), players(6))
    old = Event.from_json({**e.to_json(), "rounds": 1})
    paired, _round = ops.pair_next_round(old)
    assert paired.rounds == 5


def test_removal_before_round_one_recounts_the_rounds() -> None:
    # Go §28.1: a player leaving before round 1 is removed; five players: five rounds
    e = ops.add_players(ops.new_event("League", "go", "round-robin"), players(6))
    assert ops.withdraw(e, 6).rounds == 5
    assert ops.withdraw(ops.withdraw(e, 6), 5).rounds == 3


def test_cli_new_round_robin_prints_and_stores_no_made_up_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Go appendix 三: the Berger table decides; the file and the message must not say 1 round
    ev = str(tmp_path / "league.json")
    code, out, _ = run(capsys, "event", "new", ev, "--game", "go", "--system", "round-robin")
    assert code == 0
    assert out.strip() == f"created {ev}: go round-robin, rounds from the Berger table once " \
        "players are entered"  # fmt: skip
    assert json.loads(Path(ev).read_text(encoding="utf-8"))["rounds"] == 0
    csv = write_players_csv(tmp_path / "p.csv", 7)
    code, out, err = run(capsys, "event", "players", ev, "--add", str(csv))
    assert code == 0 and out.startswith("number,name") and "round-robin: 7 round(s)" in err
    assert json.loads(Path(ev).read_text(encoding="utf-8"))["rounds"] == 7
    # --rounds for a round robin is not used, and says so
    ev2 = str(tmp_path / "cup.json")
    code, out, err = run(
        capsys, "event", "new", ev2, "--game", "go", "--system", "knockout", "--rounds", "4"
    )
    assert code == 0 and "--rounds 4 is not used" in err and "4 round" not in out
    # a Swiss keeps the planned count
    ev3 = str(tmp_path / "open.json")
    _, out, _ = run(
        capsys, "event", "new", ev3, "--game", "go", "--system", "swiss", "--rounds", "3"
    )
    assert out.strip().endswith("go swiss, 3 round(s)")
