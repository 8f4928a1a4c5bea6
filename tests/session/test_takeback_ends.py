"""Issue 32: a takeback request by agreement (a casual game) ends when a move is played; the
asker is told how its request ended (refused, or the opponent played on); asking twice is one
request."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import AcceptTakeback, DeclineTakeback, Move, RequestTakeback
from duiyi.clock import Absolute, Clock
from duiyi.errors import IllegalAction
from duiyi.go import Game
from duiyi.session import Session


def asked() -> Session:
    s = Session(Game(9), Clock(Absolute(600), now=0.0), takebacks=True)
    s.apply(Move("E5"), 1.0, BLACK)
    s.apply(Move("D5"), 2.0, WHITE)
    s.apply(Move("C3"), 3.0, BLACK)
    s.apply(RequestTakeback(), 4.0, BLACK)
    return s


def test_the_opponents_move_ends_the_request() -> None:
    s = asked()
    s.apply(Move("G5"), 5.0, WHITE)
    assert s.takeback_request is None
    assert s.takeback_answer == {"asker": "black", "answer": "played_on"}
    # agreeing now would take back White's own G5 with Black's C3: refused, nothing undone
    with pytest.raises(IllegalAction, match="no request to take back"):
        s.apply(AcceptTakeback(), 6.0, WHITE)
    assert len(s.game.game.moves) == 4
    s.apply(Move("G3"), 7.0, BLACK)  # the asker plays: the notice ends
    assert s.takeback_answer is None
    assert Session.from_log(s.to_json()).state()["takeback_answer"] is None


def test_a_refusal_is_told_to_the_asker_and_asking_twice_is_one_request() -> None:
    s = asked()
    s.apply(RequestTakeback(), 4.5, BLACK)  # a double click: the same request, no error
    assert s.takeback_request is BLACK
    s.apply(DeclineTakeback(), 5.0, WHITE)
    assert s.takeback_answer == {"asker": "black", "answer": "refused"}
    assert s.state()["takeback_answer"] == {"asker": "black", "answer": "refused"}
    s.apply(Move("G5"), 6.0, WHITE)  # the opponent's move does not hide the refusal
    assert s.takeback_answer == {"asker": "black", "answer": "refused"}
    s.apply(RequestTakeback(), 7.0, WHITE)
    assert s.takeback_answer is None
