"""The adapter protocol answers what only some games have (issue 34): a dropped stone picked
up (Go §17.3, Gomoku §6.1(7)), a pushed stone put back (Gomoku §6.1(5)-(6)), wrongly removed
stones restored (Go §18.1), a past position (Go §5: stones leave the board). A game that lacks
one refuses it with the article of the game that has it, through the protocol's defaults, so
the session and the server never ask which game they hold."""

from __future__ import annotations

import pytest
from tests.session.fake import FakeGame

from duiyi import BLACK, WHITE
from duiyi.actions import Move, Resign
from duiyi.clock import Absolute, Clock
from duiyi.errors import GameOver, IllegalAction, InvalidInput, RefereeError, SessionError
from duiyi.games import GO, GOMOKU, GameAdapter, GoAdapter, GomokuAdapter
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.referee import Referee
from duiyi.referee import requests as rq
from duiyi.session import Session


def _go(*moves: str) -> GoAdapter:
    adapter = GoAdapter(GoGame(9))
    for i, point in enumerate(moves):
        adapter.play(BLACK if i % 2 == 0 else WHITE, Move(point))
    return adapter


def test_both_games_and_a_game_outside_the_registry_are_adapters() -> None:
    assert isinstance(_go(), GameAdapter)
    assert isinstance(GomokuAdapter(GomokuGame()), GameAdapter)
    assert isinstance(FakeGame(), GameAdapter)


def test_a_go_position_is_the_board_after_that_many_moves_captures_included() -> None:
    # Go §5: a stone without liberties leaves the board; the position after move 7 has
    # Black's capture of E5, the one after move 6 still shows the white stone
    a = _go("D5", "E5", "E4", "A1", "F5", "A2", "E6")
    before, after = a.position(6), a.position(7)
    assert "E5" in before["stones"]["white"] and before["captures"]["black"] == 0
    assert "E5" not in after["stones"]["white"] and after["captures"]["black"] == 1
    assert after["last_move"] == "E6" and a.position(0)["stones"] == {"black": [], "white": []}
    with pytest.raises(InvalidInput, match="0-7"):
        a.position(8)


def test_gomoku_and_a_fake_game_serve_no_past_position() -> None:
    # Gomoku §4: no stone leaves the board, so its record is its position
    for game in (GomokuAdapter(GomokuGame()), FakeGame()):
        with pytest.raises(InvalidInput, match=r"Go §5"):
            game.position(0)


def test_only_gomoku_puts_a_pushed_stone_back() -> None:
    # Gomoku §6.1(5): the pushed stone goes back; Go has no such correction
    with pytest.raises(SessionError, match=r"Gomoku §6\.1") as refused:
        _go("E5").replace_last_stone(BLACK, "E6")
    assert refused.value.article == "Gomoku §6.1"


def test_only_go_restores_wrongly_removed_stones() -> None:
    # Go §18.1: stones taken off with liberties go back; Gomoku removes no stones
    for game in (GomokuAdapter(GomokuGame()), FakeGame()):
        with pytest.raises(SessionError, match=r"Go §18\.1"):
            game.restore_stones(WHITE, ("h8",), "Go §18.1")
    _go().check_restore_stones()  # Go: no refusal


def test_a_game_without_dropped_stones_refuses_the_ruling_through_the_session() -> None:
    # Go §17.3 / Gomoku §6.1(7) are rulings of the two books; a game outside the registry
    # (ruled by Go's book) refuses the take-back itself, and records nothing
    s = Session(FakeGame(), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "x", now=1.0)
    with pytest.raises(SessionError, match=r"Go §17\.3"):
        s.rule(rq.DroppedStone(BLACK), 2.0)
    assert len(s.referee) == 0 and s.game.moves_played() == 1
    with pytest.raises(IllegalAction, match="no takebacks"):
        s.game.takeback_count(BLACK)


def test_a_go_stone_is_not_picked_up_after_the_game_ended() -> None:
    # Go §17.3 corrects a stone during play; after a resignation (Go §7) the game stands
    a = _go("E5")
    a.play(WHITE, Resign())
    with pytest.raises(GameOver, match="resignation"):
        a.check_take_back(BLACK)


def test_the_referee_holds_its_game_and_reads_old_ledgers_unchanged() -> None:
    # a ledger stores its game's name; one written before the name was stored is Go's
    ref = GOMOKU.referee()
    ref.violation(WHITE, "Gomoku §12.4")
    data = ref.to_json()
    assert data["game"] == "gomoku" and ref.game is GOMOKU and ref.book is GOMOKU.book
    assert Referee.from_json(data, GOMOKU).to_json() == data
    old_go = {"v": 1, "limit": 2, "rulings": []}
    assert Referee.from_json(old_go, GO).game is GO
    with pytest.raises(InvalidInput, match="gomoku"):
        Referee.from_json(data, GO)
    with pytest.raises(RefereeError, match="Gomoku has no warnings"):
        Referee(GOMOKU).warning(BLACK)
