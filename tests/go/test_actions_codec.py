"""A Go game's actions are written and read by one codec per field type (issue 34), derived
from their dataclasses: the JSON of every kind is the one stored games hold (these are what
the hand-written forms wrote), and what older records left out reads as before."""

from __future__ import annotations

import json

import pytest

from duiyi import BLACK, WHITE
from duiyi.codec import action_from_json, action_to_json
from duiyi.errors import InvalidInput
from duiyi.go.actions import (
    GO_ACTIONS,
    Accept,
    Adjudicate,
    Dispute,
    MarkDead,
    Move,
    Pass,
    PlaceHandicap,
    Resign,
    RestoreStones,
    Resume,
    SetDead,
    Setup,
    Start,
    VoidMove,
    Warn,
)
from duiyi.go.point import Point
from duiyi.outcome import Outcome, Termination

P = Point.parse
WRITTEN = [
    (Start(), '{"v": 1, "type": "start", "size": 19, "handicap": 0, "free_placement": false}'),
    (
        Setup((P("C3"),), (P("D4"),), (P("E5"),), WHITE),
        '{"v": 1, "type": "setup", "black": ["C3"], "white": ["D4"], "empty": ["E5"], '
        '"to_move": "white"}',
    ),
    (Setup(), '{"v": 1, "type": "setup", "black": [], "white": [], "empty": [], "to_move": null}'),
    (
        PlaceHandicap((P("D4"), P("Q16"))),
        '{"v": 1, "type": "place_handicap", "points": ["D4", "Q16"]}',
    ),
    (Move(P("D4"), BLACK), '{"v": 1, "type": "move", "color": "black", "point": "D4"}'),
    (Pass(WHITE), '{"v": 1, "type": "pass", "color": "white"}'),
    (Resign(BLACK), '{"v": 1, "type": "resign", "color": "black"}'),
    (Accept(color=WHITE), '{"v": 1, "type": "accept", "color": "white"}'),
    (MarkDead((P("C3"),)), '{"v": 1, "type": "mark_dead", "point": "C3"}'),
    # a marking is a set: its points are written in order
    (SetDead((P("D4"), P("C3"))), '{"v": 1, "type": "set_dead", "points": ["C3", "D4"]}'),
    (Dispute(P("C3"), BLACK), '{"v": 1, "type": "dispute", "color": "black", "point": "C3"}'),
    (Resume(WHITE), '{"v": 1, "type": "resume", "color": "white"}'),
    (Warn(WHITE, "Go §17.4"), '{"v": 1, "type": "warn", "color": "white", "article": "Go §17.4"}'),
    (
        VoidMove(BLACK, None),
        '{"v": 1, "type": "void_move", "color": "black", "point": null, "article": "Go §19", '
        '"warning": false}',
    ),
    (
        RestoreStones(BLACK, (P("D4"),)),
        '{"v": 1, "type": "restore", "color": "black", "points": ["D4"], "article": "Go §18.1"}',
    ),
    (
        Adjudicate(Outcome.win(BLACK, Termination.TIME, "Go §22")),
        '{"v": 1, "type": "adjudicate", "outcome": {"v": 1, "result": "win", "termination": '
        '"time", "article": "Go §22", "winner": "black"}}',
    ),
]


@pytest.mark.parametrize("action, text", WRITTEN, ids=lambda x: getattr(x, "kind", "move"))
def test_each_action_writes_its_stored_json_and_reads_it_back(action: object, text: str) -> None:
    data = action_to_json(action, GO_ACTIONS)
    assert json.dumps(data, ensure_ascii=False) == text  # the keys in their order too
    assert action_to_json(action_from_json(json.loads(text), GO_ACTIONS), GO_ACTIONS) == data


def test_a_stone_is_the_one_move_of_every_log() -> None:
    """Issue 34: Go's log holds the one Move class (duiyi.moves), its point a Go point and its
    colour said, written as stored Go logs always had it (colour first)."""
    from duiyi import moves

    a = action_from_json({"v": 1, "type": "move", "color": "white", "point": "q16"}, GO_ACTIONS)
    assert type(a) is moves.Move and a == moves.Move(P("Q16"), WHITE)
    with pytest.raises(InvalidInput):  # a stone in Go's log says its colour (Go §2.3)
        action_from_json({"v": 1, "type": "move", "point": "Q16"}, GO_ACTIONS)


def test_what_older_records_leave_out_reads_as_before() -> None:
    assert action_from_json({"type": "start", "size": 9}, GO_ACTIONS) == Start(9)
    assert action_from_json({"type": "setup", "to_move": None}, GO_ACTIONS) == Setup()
    assert action_from_json({"type": "warn", "color": "black"}, GO_ACTIONS) == Warn(BLACK, "Go §24")
    assert action_from_json({"type": "void_move", "color": "black"}, GO_ACTIONS) == VoidMove(
        BLACK, None
    )
    # a colour is never guessed, even where the class has one (Pass(), Warn())
    for bad in (
        {"type": "pass"},
        {"type": "warn"},
        {"type": "start", "size": "9"},
        {"type": "place_handicap"},
        {"type": "teleport"},
        {"v": 2, "type": "pass", "color": "black"},
    ):
        with pytest.raises(InvalidInput):
            action_from_json(bad, GO_ACTIONS)
