"""Issue 32: the accepted count is the count shown. An acceptance carries the marking its
player was shown (the automatic proposal while nothing is marked); the game records that
marking, or refuses the acceptance when the marking changed first (Go §21, docs/decisions.md).
"""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import Accept, MarkDead, Move, Pass
from duiyi.clock import Absolute, Clock
from duiyi.errors import MarkingChanged
from duiyi.go import Game
from duiyi.session import Session


def counting() -> Session:
    """9×9: Black walls column E, White column F, White's lone stone B5 in Black's area, both
    pass (the automatic proposal marks B5 dead)."""
    s = Session(Game(9), Clock(Absolute(3600), now=0.0))
    blacks = [f"E{r}" for r in range(1, 10)] + ["C3"]
    whites = [f"F{r}" for r in range(1, 10)] + ["B5"]
    t = 0.0
    for b, w in zip(blacks, whites, strict=True):
        s.apply(Move(b), t + 1, BLACK)
        s.apply(Move(w), t + 2, WHITE)
        t += 2
    s.apply(Pass(), t + 1, BLACK)
    s.apply(Pass(), t + 2, WHITE)
    return s


def test_accepting_the_proposal_shown_records_it_and_counts_it() -> None:
    # Go §8, §9, §21: both accept what their pages show, the proposal (B5 dead): the count is
    # that marking's, Black 45 points against White 36 with 3¾ komi: B+1.5 (not W+35.5)
    s = counting()
    assert sorted(map(str, s.game.game.propose_dead())) == ["B5"]
    s.apply(Accept(dead=("B5",)), 100.0, BLACK)
    assert sorted(map(str, s.game.game.dead)) == ["B5"]  # the proposal became the marking
    s.apply(Accept(dead=("B5",)), 101.0, WHITE)
    outcome = s.outcome()
    assert outcome is not None and outcome.winner is BLACK
    assert outcome.score is not None and outcome.score.sgf_result == "B+1.5"
    # the log alone gives the same record
    assert Session.from_log(s.to_json()).outcome() == outcome


def test_an_acceptance_of_a_marking_no_longer_shown_is_refused() -> None:
    # Go §21: White's page showed the proposal (B5); Black marked White's wall F dead
    # meanwhile: White's acceptance names a marking that is no longer the game's
    s = counting()
    s.apply(MarkDead(("F5",)), 100.0, BLACK)
    with pytest.raises(MarkingChanged, match="F1 F2 F3 F4 F5 F6 F7 F8 F9"):
        s.apply(Accept(dead=("B5",)), 101.0, WHITE)
    assert s.game.game.accepted == frozenset()
    # a refused acceptance leaves no trace in the log
    assert s.log[-1].action == MarkDead(("F5",))


def test_after_one_acceptance_a_changed_marking_is_refused_to_the_other() -> None:
    s = counting()
    s.apply(Accept(dead=("B5",)), 100.0, BLACK)
    # White's page still showed the empty marking (before Black's answer): refused
    with pytest.raises(MarkingChanged, match="B5"):
        s.apply(Accept(dead=()), 101.0, WHITE)
    assert s.outcome() is None


def test_an_acceptance_without_a_marking_accepts_the_games_own() -> None:
    # engines and older logs: the marking at that moment (nothing marked: no stone dead)
    s = counting()
    s.apply(Accept(), 100.0, BLACK)
    s.apply(Accept(), 101.0, WHITE)
    outcome = s.outcome()
    assert outcome is not None and outcome.winner is WHITE
