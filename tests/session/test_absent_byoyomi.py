"""Go §22.4 (issue 32's rules audit): "在不设规定时限或规定时限很短的快棋比赛中棋手迟到，应实施
按时缺席读秒。棋手在读秒过程中入座，允许参加比赛。如读秒过程告终，棋手即自动失去该局参赛资格。"
A player absent through the whole count of a game without main time loses the right to play the
game: a forfeit citing §22.4, not a game lost on time (§12.3)."""

from __future__ import annotations

from duiyi import BLACK, WHITE
from duiyi.clock import Clock, JapaneseByoyomi, Lateness
from duiyi.games import GO, GOMOKU
from duiyi.go import Game
from duiyi.gomoku import Game as GomokuGame
from duiyi.outcome import Termination
from duiyi.referee import Referee
from duiyi.session import Session


def fast(absent: set[object], base: float = 0.0) -> Session:
    clock = Clock(
        JapaneseByoyomi.fast(30, base=base), now=0.0, lateness=Lateness.natural(), absent=absent
    )
    return Session(Game(9), clock, Referee(GO))


def test_absent_through_the_whole_count_is_a_forfeit_citing_22_4() -> None:
    s = fast({BLACK})
    s.tick(31.0)
    o = s.outcome()
    assert o is not None and o.winner is WHITE
    assert o.termination is Termination.FORFEIT and o.article == "Go §22.4"
    assert [r.kind.value for r in s.referee.rulings] == ["no_show"]
    assert Session.from_log(s.to_json()).outcome() == o  # the log says the same


def test_a_player_who_sat_down_and_then_overran_loses_on_time() -> None:
    # Go §22.4 "棋手在读秒过程中入座，允许参加比赛": seated, the count is an ordinary one
    s = fast({BLACK})
    s.arrive(BLACK, 10.0)
    s.tick(41.0)  # the count ends at 30 s; present, Black had 10 s to ask for Go §22.5
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.TIME


def test_with_main_time_or_in_gomoku_the_flag_is_a_loss_on_time() -> None:
    # the article is about games without main time (不设规定时限); Gomoku's book has no such rule
    s = fast({BLACK}, base=60.0)
    s.tick(100.0)
    o = s.outcome()
    assert o is not None and o.termination is Termination.TIME
    clock = Clock(JapaneseByoyomi.fast(30), now=0.0, lateness=Lateness.natural(), absent={BLACK})
    g = Session(GomokuGame(), clock, Referee(GOMOKU))
    g.tick(31.0)
    o = g.outcome()
    assert o is not None and o.termination is Termination.TIME
