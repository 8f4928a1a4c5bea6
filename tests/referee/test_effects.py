"""A ruling's effects as typed values (issue 34): read from the fields its JSON has always had,
in the order the session applies them (the board put right before the record, a restart or a
decision last)."""

from __future__ import annotations

import json
from pathlib import Path

from duiyi import BLACK, WHITE
from duiyi.games import GO, GOMOKU
from duiyi.referee import Referee, RulingKind, ruling_from_json
from duiyi.referee import requests as rq
from duiyi.referee.effects import (
    AdjustClock,
    Decide,
    PassTurn,
    ReplaceStone,
    Restart,
    RestoreStones,
    SwapSeats,
    TakeBack,
    Warn,
)
from duiyi.referee.requests import Facts

LEDGERS = Path(__file__).resolve().parents[1] / "data" / "rulings" / "ledgers.json"
AT = Facts(at=1.0, moves_played=4)


def test_the_second_warning_warns_then_decides() -> None:
    # Go §24.1-24.2: the game counts the warning; the second loses the game
    ref = Referee(GO)
    (first,) = ref.rule(rq.Warning(BLACK, "Go §24"), AT)
    assert first.effects == (Warn(BLACK, "Go §24"),)
    (second,) = ref.rule(rq.Warning(BLACK, "Go §24"), AT)
    assert second.outcome is not None
    assert second.effects == (Warn(BLACK, "Go §24"), Decide(second.outcome))


def test_board_corrections_come_first() -> None:
    # Gomoku §6.1(5): the pushed stone goes back, and the opponent's complaint is a violation
    replaced = Referee(GOMOKU).rule(rq.StoneReplaced(BLACK, "h8"), AT)
    assert replaced[0].effects[0] == ReplaceStone(BLACK, "h8")
    # Go §18.1: the stones go back on the board, the remover is warned
    restored = Referee(GO).rule(rq.StonesRestored(WHITE, ("C3", "D3")), AT)
    assert restored[0].effects[0] == RestoreStones(WHITE, ("C3", "D3"))
    assert [r.effects for r in restored[1:]] == [(Warn(WHITE, restored[1].article),)]


def test_turn_clock_and_seats() -> None:
    # Go §17.3: a dropped stone comes back, its player's turn again
    (dropped,) = Referee(GO).rule(rq.DroppedStone(BLACK), AT)
    assert dropped.effects == (TakeBack(BLACK),)
    # Go §19: a void move counts as the offender's pass
    void = Referee(GO).rule(rq.VoidMove(BLACK, "Go §19"), AT)
    assert void[0].effects == (PassTurn(BLACK),)
    # Gomoku §12.3(3): time taken from one, given to the other
    (penalty,) = Referee(GOMOKU).rule(rq.TimePenalty(BLACK, deduct=60.0, award=30.0), AT)
    assert set(penalty.effects) == {AdjustClock(BLACK, -60.0), AdjustClock(WHITE, 30.0)}
    # Gomoku §5.2(3): colours found exchanged early: the game starts again, seats exchanged
    (again,) = Referee(GOMOKU).rule(rq.ColourCorrection(), Facts(at=1.0, moves_played=2))
    assert Restart(swap=True) in again.effects and SwapSeats() not in again.effects


def test_every_stored_ruling_has_the_effects_of_its_fields() -> None:
    # the golden ledgers (tests/data/rulings): each field that does something is one effect
    cases = json.loads(LEDGERS.read_text("utf-8"))["ledgers"]
    seen: set[type] = set()
    for case in cases:
        for data in case["ledger"]["rulings"]:
            ruling = ruling_from_json(data)
            kinds = [type(e) for e in ruling.effects]
            seen.update(kinds)
            assert kinds.count(AdjustClock) == len(ruling.clock)
            assert (PassTurn in kinds) == (ruling.passes is not None)
            assert (Restart in kinds) == ruling.restart
            assert (Decide in kinds) == (ruling.outcome is not None)
            assert (TakeBack in kinds) == ruling.take_back
            assert (SwapSeats in kinds) == (
                ruling.kind is RulingKind.COLOURS_CHOSEN and ruling.swap
            )
            if Decide in kinds:
                assert kinds[-1] is Decide
    assert seen >= {AdjustClock, PassTurn, Decide, TakeBack, Warn, ReplaceStone, RestoreStones}
