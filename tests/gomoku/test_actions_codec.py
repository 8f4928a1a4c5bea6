"""A Gomoku game's actions are written and read by one codec per field type (issue 34), derived
from their dataclasses: the JSON of every kind is the one stored games hold (these are what the
hand-written forms wrote), and what older records left out or wrote loosely reads as before."""

from __future__ import annotations

import json

import pytest

from duiyi import BLACK, WHITE
from duiyi.codec import action_from_json, action_to_json
from duiyi.errors import InvalidInput
from duiyi.gomoku.game import (
    GOMOKU_ACTIONS,
    AcceptDraw,
    ChooseFifth,
    ClaimFoul,
    DeclineDraw,
    Game,
    OfferDraw,
    Open,
    Pass,
    ProposeFifth,
    Resign,
    Swap,
)
from duiyi.gomoku.point import Point
from duiyi.gomoku.rules import RenjuRules
from duiyi.moves import Move

P = Point.parse
WRITTEN = [
    # Gomoku §3.2: the opener's three stones and the declared N, one action
    (
        Open((P("h8"), P("i9"), P("j8")), 2, BLACK),
        '{"v": 1, "type": "open", "color": "black", "moves": ["h8", "i9", "j8"], "fifth_n": 2}',
    ),
    (Move(P("h9"), WHITE), '{"v": 1, "type": "place", "color": "white", "point": "h9"}'),
    (Pass(BLACK), '{"v": 1, "type": "pass", "color": "black"}'),
    (Swap(WHITE), '{"v": 1, "type": "swap", "color": "white"}'),
    # Gomoku §2.10: the N candidates in the order offered
    (
        ProposeFifth((P("k7"), P("g10")), BLACK),
        '{"v": 1, "type": "propose_fifth", "color": "black", "points": ["k7", "g10"]}',
    ),
    (
        ChooseFifth(P("k7"), WHITE),
        '{"v": 1, "type": "choose_fifth", "color": "white", "point": "k7"}',
    ),
    (OfferDraw(BLACK), '{"v": 1, "type": "offer_draw", "color": "black"}'),
    (AcceptDraw(WHITE), '{"v": 1, "type": "accept_draw", "color": "white"}'),
    (DeclineDraw(WHITE), '{"v": 1, "type": "decline_draw", "color": "white"}'),
    (Resign(BLACK), '{"v": 1, "type": "resign", "color": "black"}'),
    (ClaimFoul(WHITE), '{"v": 1, "type": "claim_foul", "color": "white"}'),
]


@pytest.mark.parametrize("action, text", WRITTEN, ids=lambda x: getattr(x, "TYPE", "place"))
def test_each_action_writes_its_stored_json_and_reads_it_back(action: object, text: str) -> None:
    data = action_to_json(action, GOMOKU_ACTIONS)
    assert json.dumps(data, ensure_ascii=False) == text  # the keys in their order too
    assert action_from_json(json.loads(text), GOMOKU_ACTIONS) == action


def test_every_action_kind_is_covered() -> None:
    assert {type(a) for a, _ in WRITTEN} == set(GOMOKU_ACTIONS.types.values())


def test_a_stone_is_the_one_move_of_every_log() -> None:
    """Issue 34: Gomoku's log holds the one Move class (duiyi.moves), its point a Gomoku point,
    still written ``"place"`` as stored Gomoku logs always had it (Gomoku §4.1)."""
    from duiyi.go.actions import Move as GoMove

    assert Move is GoMove
    a = action_from_json({"v": 1, "type": "place", "color": "black", "point": "h8"}, GOMOKU_ACTIONS)
    assert type(a) is Move and a.point == P("h8") and a.color is BLACK
    with pytest.raises(InvalidInput):  # no stone without its colour
        action_from_json({"v": 1, "type": "place", "point": "h8"}, GOMOKU_ACTIONS)


def test_what_older_records_left_out_or_wrote_loosely_reads_as_before() -> None:
    # an opening written without N offers one fifth move (Gomoku §2.10, N = 1)
    assert action_from_json(
        {"v": 1, "type": "open", "color": "black", "moves": ["h8", "h9", "j10"]},
        GOMOKU_ACTIONS,
    ) == Open((P("h8"), P("h9"), P("j10")), 1, BLACK)
    # N as text, points in capitals or padded, keys nobody reads: as the old reader took them
    assert action_from_json(
        {"v": 1, "type": "open", "color": "black", "moves": ["H8", " h9 ", "j10"], "fifth_n": "3"},
        GOMOKU_ACTIONS,
    ) == Open((P("h8"), P("h9"), P("j10")), 3, BLACK)
    assert action_from_json(
        {"v": 1, "type": "place", "color": "white", "point": "H9", "at": 3},
        GOMOKU_ACTIONS,
    ) == Move(P("h9"), WHITE)
    for bad in (
        {"type": "pass", "color": "black"},  # no version
        {"v": 2, "type": "pass", "color": "black"},
        {"v": 1, "type": "pass"},  # a colour is never guessed
        {"v": 1, "type": "pass", "color": "green"},
        {"v": 1, "type": "place", "color": "black"},
        {"v": 1, "type": "place", "color": "black", "point": "z99"},
        {"v": 1, "type": "open", "color": "black", "moves": ["h8", "h9"]},
        {"v": 1, "type": "open", "color": "black", "moves": ["h8", "h9", "j10"], "fifth_n": "x"},
        {"v": 1, "type": "propose_fifth", "color": "black"},
        {"v": 1, "type": "teleport", "color": "black"},
        ["place"],
    ):
        with pytest.raises(InvalidInput):
            action_from_json(bad, GOMOKU_ACTIONS)


def test_a_stored_game_replays_to_the_same_json() -> None:
    g = Game(RenjuRules.chinese_2013())
    g.open("h8", "h9", "j10", fifth_n=2)
    g.swap()
    g.play("i9")
    g.propose_fifth(["g10", "k7"])
    g.choose_fifth("k7")
    g.play("h7")
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(data).to_json() == data
