"""Typed session actions (issue 24, "typed seams"): one frozen value per action, read once from
its JSON form, dispatched by class; stored logs written before the classes existed still load.

The two logs in tests/data/logs were written by the code of 2026-11-27 before this change
(``SessionAction(type, at, player, data)``): one with a key an old server kept from a request
body, a mark_dead naming one ``point``, a sealed move and a warning; one Renju game through
the opening, the swap and the fifth-move N-dab."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import (
    SESSION_ACTIONS,
    Accept,
    AcceptDraw,
    AcceptTakeback,
    Action,
    Adjourn,
    Arrive,
    ChooseFifth,
    ClaimFoul,
    DeclineDraw,
    DeclineTakeback,
    Dispute,
    Flag,
    LogEntry,
    MarkDead,
    Move,
    NoShow,
    OfferDraw,
    Open,
    OvertimePass,
    Pass,
    Pause,
    PlaceHandicap,
    ProposeFifth,
    RequestOvertimePass,
    RequestTakeback,
    Resign,
    Resume,
    Ruled,
    SetDead,
    SplitPool,
    Swap,
)
from duiyi.clock import Absolute, Clock
from duiyi.codec import action_from_json
from duiyi.errors import IllegalAction, InvalidInput, SessionError
from duiyi.games import GO
from duiyi.go import Game
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.outcome import Termination
from duiyi.referee import Referee
from duiyi.server.schemas import parse_action
from duiyi.session import Session

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"


def _old(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOGS / name).read_text(encoding="utf-8"))
    return data


def test_an_old_go_log_loads_and_replays_to_the_same_result() -> None:
    # stored rows stay readable: the log of a game counted under Go §9, with a warning
    # (Go §24.1: one stone off White's count) and a sealed move (Go §14)
    old = _old("go_2026-11.json")
    s = Session.from_log(old)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.COUNT
    assert s.referee.warnings(WHITE) == 1
    assert [e.action for e in s.log][:2] == [Move("E5"), Move("C3")]
    assert isinstance(s.log[2].action, Ruled) and s.log[3].action == Adjourn(Move("G7"))
    assert s.log[7].action == MarkDead(("C3",))  # the old one-point form
    # every entry writes back as it was stored, but for the key an old server kept from a
    # request body (no action has it: it was never read)
    written = s.to_json()["actions"]
    stored = old["actions"]
    assert written[1] == {k: v for k, v in stored[1].items() if k != "client_note"}
    assert written[7] == {**{k: v for k, v in stored[7].items() if k != "point"}, "points": ["C3"]}
    assert [a for i, a in enumerate(written) if i not in (1, 7)] == [
        a for i, a in enumerate(stored) if i not in (1, 7)
    ]
    # and the log written now loads again to the same state
    assert Session.from_log(s.to_json()).to_json() == s.to_json()


def test_an_old_renju_log_loads_with_its_opening_and_violation() -> None:
    # Gomoku §2.9 (swap, N fifth moves), §10.3 (draw offer declined), §12.4 (a violation)
    old = _old("gomoku_2026-11.json")
    s = Session.from_log(old)
    assert s.to_json() == old  # nothing in it that the typed actions do not read
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.RESIGNATION
    assert s.referee.violations(BLACK) == 1
    assert [type(e.action) for e in s.log] == [
        Open,
        Swap,
        Move,
        ProposeFifth,
        ChooseFifth,
        OfferDraw,
        DeclineDraw,
        Ruled,
        Resign,
    ]


EVERY = [
    Move("D4"),
    Pass(),
    Resign(),
    ClaimFoul(),
    OfferDraw(),
    AcceptDraw(),
    DeclineDraw(),
    MarkDead(("C3", "D4")),
    SetDead(("C3",)),
    Accept(),
    Dispute("E5"),
    PlaceHandicap(("D4", "Q16")),
    Open(("h8", "h9", "j10"), 3),
    Swap(),
    ProposeFifth(("g10", "k7")),
    ChooseFifth("k7"),
    Pause(),
    Resume(),
    SplitPool(),
    Adjourn(Move("D4")),
    Arrive(),
    RequestOvertimePass(),
    RequestTakeback(),
    AcceptTakeback(),
    DeclineTakeback(),
    Ruled(Referee(GO).warning(BLACK), override=True),
    Flag(),
    NoShow((BLACK, WHITE)),
    OvertimePass(),
]


@pytest.mark.parametrize("action", EVERY, ids=lambda a: SESSION_ACTIONS.name_of(type(a)))
def test_every_action_round_trips_through_its_log_entry(action: Action) -> None:
    entry = LogEntry(action, 12.5, WHITE)
    data = entry.to_json()
    assert data["v"] == 1 and data["at"] == 12.5 and data["player"] == "white"
    assert LogEntry.from_json(json.loads(json.dumps(data))) == entry


def test_the_edge_reads_a_body_once_and_refuses_what_is_no_action() -> None:
    # the server's schema edge: a body becomes its typed action, or a 4xx problem
    assert parse_action({"type": "move", "point": "D4", "action_id": "x"}) == (Move("D4"), "x")
    assert parse_action({"type": "move", "move": "D4"}) == (Move("D4"), None)
    for bad in (
        {"type": "move"},  # no point
        {"type": "move", "point": 4},
        {"type": "mark_dead", "points": "D4"},  # a list of points
        {"type": "open", "moves": ["h8"], "fifth_n": "two"},
        {"type": "teleport"},
        {"type": "pass", "action_id": ""},
        ["pass"],
    ):
        with pytest.raises(InvalidInput):
            parse_action(bad)
    with pytest.raises(SessionError):
        action_from_json(
            {"type": "adjourn", "sealed": {"type": "pause"}}, SESSION_ACTIONS
        )  # no game action


def test_each_game_takes_only_its_own_actions() -> None:
    # Go §13: no draw by agreement; Gomoku has no counting (Go §8) and its opening is three
    # stones (Gomoku §3.2)
    go = Session(Game(9), Clock(Absolute(600), now=0.0))
    for action in (OfferDraw(), Swap(), Open(("E5", "E6", "E7"))):
        with pytest.raises(IllegalAction):
            go.apply(action, 1.0, BLACK)
    renju = Session(GomokuGame(RenjuRules.chinese_2013()), Clock(Absolute(600), now=0.0))
    with pytest.raises(IllegalAction):
        renju.apply(MarkDead(("h8",)), 1.0, BLACK)
    with pytest.raises(InvalidInput, match=r"§3\.2"):
        renju.apply(Open(("h8", "h9")), 1.0, BLACK)
    assert go.log == () and renju.log == ()  # refused actions are not logged


def test_the_fields_codec_writes_and_reads_the_log_as_before() -> None:
    # issue 34: an action's JSON is derived from its fields (one codec per field type); the
    # logs keep the form they always had (these are what the hand-written forms wrote)
    written = {
        Move("D4"): {"point": "D4"},
        ClaimFoul(): {"what": "foul"},
        MarkDead(("C3", "D4")): {"points": ["C3", "D4"]},
        SetDead(("C3",)): {"points": ["C3"]},
        Accept(): {},
        Accept(("B5",)): {"dead": ["B5"]},
        Dispute("E5"): {"point": "E5"},
        PlaceHandicap(("D4", "Q16")): {"points": ["D4", "Q16"]},
        Open(("h8", "h9", "j10"), 3): {"moves": ["h8", "h9", "j10"], "fifth_n": 3},
        ProposeFifth(("g10", "k7")): {"points": ["g10", "k7"]},
        ChooseFifth("k7"): {"point": "k7"},
        NoShow((WHITE, BLACK)): {"players": ["black", "white"]},
    }
    for action, fields in written.items():
        data = LogEntry(action, 1.0, BLACK).to_json()
        assert data == {
            "v": 1,
            "type": SESSION_ACTIONS.name_of(type(action)),
            "at": 1.0,
            "player": "black",
            **fields,
        }
        assert list(data)[4:] == list(fields)  # the fields in their order
    # what older logs and clients sent reads as it did: the "move" key, one marked "point",
    # no "dead", fifth_n left out or written 2.0
    assert action_from_json({"type": "move", "move": "q16"}, SESSION_ACTIONS) == Move("q16")
    assert action_from_json({"type": "mark_dead", "point": "C3"}, SESSION_ACTIONS) == MarkDead(
        ("C3",)
    )
    assert action_from_json({"type": "accept", "dead": None}, SESSION_ACTIONS) == Accept()
    assert (
        action_from_json({"type": "open", "moves": ["h8", "h9", "j10"]}, SESSION_ACTIONS).fifth_n
        == 1
    )  # type: ignore[union-attr]
    assert action_from_json(
        {"type": "open", "moves": ["h8", "h9", "j10"], "fifth_n": 2.0}, SESSION_ACTIONS
    ) == (Open(("h8", "h9", "j10"), 2))
    for bad in ({"type": "open", "moves": ["h8"], "fifth_n": 2.5}, {"type": "dispute"}):
        with pytest.raises(InvalidInput):
            action_from_json(bad, SESSION_ACTIONS)


def test_a_session_stone_is_the_one_move_of_every_log() -> None:
    """Issue 34: the session's stone is the Move of Go's and Gomoku's logs (duiyi.moves), its
    point the book's text; the entry names the seat, so a colour a body sends is not read
    (after the swap a seat holds the other colour, Gomoku §2.9) and none is written."""
    from duiyi import moves
    from duiyi.go.actions import Move as GoMove

    assert Move is moves.Move is GoMove
    sent = action_from_json({"type": "move", "point": "D4", "color": "white"}, SESSION_ACTIONS)
    assert sent == Move("D4") and sent.color is None
    assert LogEntry(Move("D4", WHITE), 1.0, BLACK).to_json() == {
        "v": 1,
        "type": "move",
        "at": 1.0,
        "player": "black",
        "point": "D4",
    }


def test_the_plain_game_actions_are_shared_by_every_log() -> None:
    """Issue 34: a pass (Go §2.5, Gomoku §2.21), a resignation, the swap and the fifth-move
    offer (Gomoku §2.9), the draw offers (Gomoku §10.3), a dispute and a free handicap are one
    class each for the session and the games that have them; each log
    writes them as it always did (Go and Gomoku with the colour, the session without)."""
    from duiyi.codec import action_to_json
    from duiyi.go import actions as go
    from duiyi.gomoku import game as gomoku

    assert Pass is go.Pass is gomoku.Pass and Resign is go.Resign is gomoku.Resign
    assert (Swap, OfferDraw, AcceptDraw, DeclineDraw, ProposeFifth, ChooseFifth) == (
        gomoku.Swap,
        gomoku.OfferDraw,
        gomoku.AcceptDraw,
        gomoku.DeclineDraw,
        gomoku.ProposeFifth,
        gomoku.ChooseFifth,
    )
    assert (Dispute, PlaceHandicap) == (go.Dispute, go.PlaceHandicap)  # Go §21.4, §4.3
    assert action_to_json(Pass(WHITE), go.GO_ACTIONS) == {"v": 1, "type": "pass", "color": "white"}
    assert action_to_json(Swap(WHITE), gomoku.GOMOKU_ACTIONS) == {
        "v": 1,
        "type": "swap",
        "color": "white",
    }
    assert LogEntry(Pass(WHITE), 2.0, BLACK).to_json() == {
        "v": 1,
        "type": "pass",
        "at": 2.0,
        "player": "black",
    }
