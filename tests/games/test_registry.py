"""The games as objects (issue 24): the registry maps a stored name to its one object, refuses
a name duiyi does not play, and the object carries what differs between Go and Gomoku."""

from __future__ import annotations

import copy
import pickle
import random
from fractions import Fraction

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import Move, Pass
from duiyi.clock import ChineseByoyomi, Clock
from duiyi.errors import InvalidInput, SessionError, TournamentError, UnknownGame
from duiyi.games import GAMES, GO, GOMOKU, GoAdapter, GomokuAdapter, adapter_from_config, find, get
from duiyi.session import Session
from duiyi.tournament.event import new_event
from duiyi.tournament.model import Event


def test_lookup_by_name_gives_the_one_object() -> None:
    assert get("go") is GO and get("gomoku") is GOMOKU
    assert get(GO) is GO  # an object passes through
    assert list(GAMES) == ["go", "gomoku"]
    assert find("go") is GO and find("fake") is None and find(None) is None


@pytest.mark.parametrize("name", ["chess", "Go", "", None, 19])
def test_an_unknown_name_is_an_error_every_layer_catches(name: object) -> None:
    with pytest.raises(UnknownGame) as caught:
        get(name)  # type: ignore[arg-type]
    # a request (4xx), a session log and an event file all catch it as their own error
    assert isinstance(caught.value, InvalidInput)
    assert isinstance(caught.value, SessionError) and isinstance(caught.value, TournamentError)
    assert "expected go or gomoku" in str(caught.value)


def test_the_object_survives_copy_and_pickle_as_itself() -> None:
    assert copy.copy(GO) is GO and copy.deepcopy(GOMOKU) is GOMOKU
    assert pickle.loads(pickle.dumps(GOMOKU)) is GOMOKU


def test_an_event_holds_the_object_and_its_file_the_name() -> None:
    e = Event("Cup", "gomoku", "swiss", 3)
    assert e.game is GOMOKU
    data = e.to_json()
    assert data["game"] == "gomoku"
    assert Event.from_json(data).game is GOMOKU
    with pytest.raises(TournamentError, match="unknown game 'chess'"):
        Event.from_json({**data, "game": "chess"})


def test_scoring_comes_from_the_game() -> None:
    # Go §27.1: win 2, draw 1; Gomoku §18.1: win 1, draw ½
    assert new_event("a", "go", "swiss", 3).points.win == 2
    assert new_event("b", "gomoku", "swiss", 3).points.draw == Fraction(1, 2)


def test_tiebreaks_withdrawal_and_colour_guess_come_from_the_game() -> None:
    # Go §27.1(1): points, SB, fewer warnings; Gomoku §18.3(1): points, SB, wins
    assert GO.tiebreak_names("round-robin") == ("points", "sb", "warnings")
    assert GOMOKU.tiebreak_names("round-robin") == ("points", "sb", "wins")
    # Go §28.2 (round robin) and §28.3 (Swiss); Gomoku §18.5 for every system
    assert GO.withdrawal_article("round-robin") == "Go §28.2"
    assert GO.withdrawal_article("swiss") == "Go §28.3"
    assert GOMOKU.withdrawal_article("knockout") == "Gomoku §18.5"
    # Go §28.2: fewer than half the rounds played, every game is void; Gomoku §18.5 likewise
    assert GO.withdrawal_effect("round-robin", less_than_half=True) == "void"
    assert GO.withdrawal_effect("swiss", less_than_half=True) == "keep-unpaired"
    assert GOMOKU.withdrawal_effect("swiss", less_than_half=True) == "void"
    # Go §10 nigiri and Gomoku §5.3(1) hand count give the two players the two colours
    for game in (GO, GOMOKU):
        assert sorted(game.guess_colours(3, 8, random.Random(2))) == [3, 8]
    assert "Go §10" in GO.colour_method and "Gomoku §5.3(1)" in GOMOKU.colour_method


def test_the_session_adapter_and_rules_come_from_the_game() -> None:
    go = GO.adapter(GO.new_game({"size": 9}))
    assert isinstance(go, GoAdapter) and go.game.size == 9
    assert isinstance(GOMOKU.adapter(GOMOKU.new_game({})), GomokuAdapter)
    rebuilt = adapter_from_config(go.config_json())
    assert isinstance(rebuilt, GoAdapter) and rebuilt.game.size == 9
    with pytest.raises(UnknownGame):
        adapter_from_config({"kind": "chess"})
    # the referee's table is the game's (Go §17.5 vs Gomoku §4.2 for moved stones)
    assert GO.book.articles["moved_stones"] == "Go §17.5"
    assert GOMOKU.referee().article("moved_stones") == "Gomoku §4.2"


def _byoyomi() -> Clock:
    return Clock(ChineseByoyomi(base=60, reserved_minutes=1), now=0.0)


def test_a_session_knows_its_game_and_its_byoyomi_rules() -> None:
    # Go §22.5: the pass on overtime is a Go rule; a Gomoku session under the same clock
    # refuses it
    go = Session(GO.new_game({"size": 9}), _byoyomi())
    assert go.kind is GO and go.may_request_overtime_pass(BLACK)
    renju = Session(GOMOKU.new_game({}), _byoyomi())
    assert renju.kind is GOMOKU and not renju.may_request_overtime_pass(BLACK)
    with pytest.raises(SessionError, match=r"Go §22\.5"):
        renju.request_overtime_pass(BLACK, now=5.0)


def test_notation_and_sgf_come_from_the_game() -> None:
    assert str(GO.parse_point("q16")) == "Q16" and str(GOMOKU.parse_point("H8")) == "h8"
    g = GO.new_game({"size": 9})
    g.play("E5")
    assert GO.read_sgf(GO.write_sgf(g)).moves == g.moves
    r = GOMOKU.new_game({"rules": "free"})
    r.play("h8")
    assert GOMOKU.read_sgf(GOMOKU.write_sgf(r)).moves == r.moves


def test_board_sizes() -> None:
    GO.check_size(9)
    GOMOKU.check_size(None)
    with pytest.raises(InvalidInput, match="15x15"):
        GOMOKU.check_size(19)  # Gomoku §1
    with pytest.raises(InvalidInput):
        GO.check_size(27)


def test_the_board_view_tells_the_page_what_differs() -> None:
    """The game page reads the size and the number of moves from the view, not from the name
    (Go: the board of the chosen size; Gomoku §1: always 15x15)."""
    go = GO.adapter(GO.new_game({"size": 9}))
    go.play(BLACK, Move("E5"))
    go.play(WHITE, Pass())
    view = go.board_view()
    assert (view["size"], view["move_count"], view["stones"]["black"]) == (9, 2, ["E5"])
    assert view["captures"] == {"black": 0, "white": 0} and "stone_colours" not in view
    renju = GOMOKU.adapter(GOMOKU.new_game({"rules": "free"}))
    renju.play(BLACK, Move("h8"))
    view = renju.board_view()
    assert (view["size"], view["move_count"], view["moves_list"]) == (15, 1, ["h8"])
    assert "captures" not in view and view["stone_colours"]["black"] == "black"
