"""Each ruling request carries its procedure (issue 34): the referee's method named as its kind,
called with the request's arguments, so that :meth:`Referee.rule` is one call and a request
whose fields do not fit its procedure fails here, not at an arbiter's table."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from typing import Any

import pytest

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput
from duiyi.games import GO, GOMOKU
from duiyi.referee import Decision, Referee
from duiyi.referee import requests as rq
from duiyi.referee.requests import REQUESTS, Facts

FACTS = Facts(at=5.0, moves_played=7, minutes_played=3.0, decided=True, round_end=100.0)


def _sample(cls: type[rq.Request]) -> rq.Request:
    """A request of ``cls`` with its required fields filled by their type."""
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            continue
        hint = hints[f.name]
        if hint is Color:
            values[f.name] = BLACK
        elif hint is Decision:
            values[f.name] = Decision.RESTORE
        elif typing.get_origin(hint) is typing.Literal:
            values[f.name] = typing.get_args(hint)[0]
        elif hint == tuple[Color, ...]:
            values[f.name] = (BLACK,)
        elif hint == tuple[str, ...]:
            values[f.name] = ("C3",)
        elif hint is int:
            values[f.name] = 0
        else:  # an article, a point, an appeal's result: text
            values[f.name] = "x"
    return cls(**values)


@pytest.mark.parametrize("cls", REQUESTS, ids=lambda c: c.__name__)
def test_each_request_binds_to_its_procedure(cls: type[rq.Request]) -> None:
    procedure = getattr(Referee, cls.kind.value)
    arguments = _sample(cls).arguments(FACTS)
    inspect.signature(procedure).bind(None, **arguments)  # TypeError if they do not fit
    assert arguments["at"] == 5.0


def test_the_facts_a_request_takes() -> None:
    # the act just made (move_number None) is the moves played: Gomoku §6.1
    assert rq.VoidMove(BLACK, "Go §18.3").arguments(FACTS)["move_number"] == 7
    assert rq.VoidMove(BLACK, "Go §18.3", move_number=3).arguments(FACTS)["move_number"] == 3
    # a warning names its move or none (Go §24.1)
    assert rq.Warning(BLACK).arguments(FACTS)["move_number"] is None
    # Gomoku §2.20(3): whether the game is decided is the session's unless the arbiter says
    assert rq.DisciplinaryLoss(WHITE).arguments(FACTS)["decided"] is True
    assert rq.Disqualification(WHITE, decided=False).arguments(FACTS)["decided"] is False
    # Go §17.1: a colour correction counts the moves and minutes played
    assert rq.ColourCorrection().arguments(FACTS)["minutes_played"] == 3.0
    with pytest.raises(InvalidInput, match="moves played"):
        rq.ColourCorrection().arguments(Facts())
    # Gomoku §8.11: an appeal's deadline runs from the end of the round
    assert rq.Appeal(WHITE, 0).arguments(FACTS)["round_end"] == 100.0
    assert rq.CoinToss(BLACK, "heads", "tails").arguments(FACTS)["call"] == "heads"


def test_rule_is_the_procedure_called_with_the_request() -> None:
    # Go §24.2: the second warning loses; rule() records what the procedure records
    by_rule, by_hand = Referee(GO), Referee(GO)
    by_rule.rule(rq.Warning(BLACK, "Go §24", note="n"), FACTS)
    ruled = by_rule.rule(rq.Warning(BLACK, "Go §24"), FACTS)
    by_hand.warning(BLACK, "Go §24", note="n", at=5.0)
    by_hand.warning(BLACK, "Go §24", at=5.0)
    assert by_rule.to_json() == by_hand.to_json()
    assert len(ruled) == 1 and ruled[0].outcome is not None and ruled[0].outcome.winner is WHITE
    # Gomoku §5.3(2): the call and the face
    toss = Referee(GOMOKU).rule(rq.CoinToss(BLACK, "heads", "tails"), FACTS)
    assert toss[0].toss == ("heads", "tails")
