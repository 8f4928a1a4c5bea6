"""Competition systems as objects behind one interface, registered by name (issue 10).

Old event files (written before the split) load, rank and pair exactly as they did.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from duiyi.errors import InvalidInput, PairingError, TournamentError
from duiyi.tournament import event as ops
from duiyi.tournament import systems
from duiyi.tournament.formats.wallchart import standings_json
from duiyi.tournament.model import ROUNDS_FROM_SYSTEM, SYSTEMS, Event, Player
from duiyi.tournament.results import GameResult
from duiyi.tournament.systems.base import FinalStage
from duiyi.tournament.withdrawal import Effect

DATA = Path(__file__).parent.parent / "data" / "events"
OLD_FILES = sorted(DATA.glob("*.json"))


def test_every_system_of_the_event_file_is_registered() -> None:
    assert systems.names() == list(SYSTEMS)
    for name in SYSTEMS:
        s = systems.get(name)
        assert s.name == name
        assert s.rounds_from_field == (name in ROUNDS_FROM_SYSTEM)
    with pytest.raises(TournamentError, match="unknown system"):
        systems.get("ladder")


def test_event_operations_hold_no_system_names() -> None:
    # the architecture item: event.py asks the system object, it never tests the name
    source = (Path(ops.__file__)).read_text(encoding="utf-8")
    assert not re.search(r"\.system\s*(==|!=|in\b|not in\b)", source)
    assert "system_kind" not in source


@pytest.mark.parametrize("path", OLD_FILES, ids=lambda p: p.stem)
def test_old_event_files_load_rank_and_pair_as_before(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    event = Event.from_json(data["event"])
    assert event.to_json() == data["event"]
    doc = standings_json(event)
    assert doc == data["standings"]
    try:
        got: dict[str, Any] = ops.pair_next_round(event, random.Random(9))[1].to_json(True)
    except (PairingError, TournamentError) as exc:
        got = {"error": str(exc)}
    assert got == data["next"]


def _players(n: int) -> list[Player]:
    return [Player(0, f"P{i}", "1d") for i in range(1, n + 1)]


def test_interface_total_rounds_pair_withdrawal_final_stage() -> None:
    # appendix 三: 6 players, 5 rounds; Go §28.2: fewer than half played → void
    rr = ops.add_players(ops.new_event("rr", "go", "round-robin"), _players(6))
    system = systems.of(rr)
    assert system.total_rounds(rr) == 5 and system.final_stage(rr) is None
    e, paired = system.pair(rr, 1, random.Random(1))
    assert e.current_round == 1 and len(paired.pairings) == 3
    for g in e.round(1).games:
        e = ops.enter_result(e, 1, g.board, GameResult.BLACK_WINS)
    e = ops.withdraw(e, 1)
    assert system.withdrawal_effect(e, e.withdrawals[0]) is Effect.VOID
    # Go §28.3: a Swiss withdrawal keeps results and the player is not paired any more
    sw = ops.add_players(ops.new_event("sw", "go", "swiss", 5), _players(6))
    sw, _ = ops.pair_next_round(sw)
    sw = ops.withdraw(sw, 2)
    assert systems.of(sw).withdrawal_effect(sw, sw.withdrawals[0]) is Effect.KEEP_UNPAIRED
    # appendix 四: two groups of four, two qualifiers each → a knockout of four after 3 rounds
    # an unknown final stage is refused when the event is made, not at its first pairing
    with pytest.raises(InvalidInput, match=r"options\.final"):
        ops.new_event("g", "go", "groups", None, {"groups": 2, "qualifiers": 2, "final": "ko"})
    g = ops.new_event(
        "g", "go", "groups", None, {"groups": 2, "qualifiers": 2, "final": "knockout"}
    )
    g = ops.add_players(g, _players(8))
    assert systems.of(g).final_stage(g) == FinalStage("knockout", 3, 2, 4)
    assert ops.total_rounds(g) == 5


def test_a_system_tells_its_own_family_and_a_name_is_not_one() -> None:
    # one way to tell a system's family (Go §27-28, Gomoku §18 rank and withdraw by it): the
    # System object; the withdrawal rules take the family, never a system's name
    from duiyi.tournament import withdrawal
    from duiyi.tournament.standings import FAMILIES

    assert {systems.get(n).family for n in systems.names()} == set(FAMILIES)
    assert systems.get("mcmahon").family == "swiss"
    assert withdrawal.article("go", systems.get("groups").family) == "Go §28.2"
    with pytest.raises(TournamentError, match="unknown family"):
        withdrawal.article("go", "mcmahon")
