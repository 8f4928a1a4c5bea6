"""Every place where play stops or the turn is handed over, per time system: the table of
docs/articles-go.md "The clock when play stops". One test per row, each over every system.

The rule of every row (Go §12.3 "不足60秒的着手不予计时，达到60秒的视为已使用保留时限之中的1分钟"):
a stone or a pass costs what a move costs, whatever happens next; time that ran without a move
is charged as time used, never a started byo-yomi minute as a whole one; a stop is never a flag.
Book: 围棋竞赛规则 (2002).
"""

from __future__ import annotations

import json

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import Pass
from duiyi.clock import (
    Absolute,
    ChineseByoyomi,
    Clock,
    Fischer,
    JapaneseByoyomi,
    MovesPerPeriod,
    MultiPeriod,
    NoTime,
    SharedPool,
    Stage,
    TimeSystem,
)
from duiyi.games import GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.outcome import Termination
from duiyi.referee import Referee
from duiyi.referee import requests as rq
from duiyi.session import Session

# base 0: every turn is in byo-yomi, the case of the issue (1 or 3 reserved minutes, 1 × 30 s)
SYSTEMS: dict[str, TimeSystem] = {
    "chinese-1": ChineseByoyomi(base=0, reserved_minutes=1),
    "chinese-3": ChineseByoyomi(base=0, reserved_minutes=3),
    "japanese-1x30": JapaneseByoyomi(base=0, periods=1, period=30),
    "absolute": Absolute(600),
    "shared": SharedPool(1200),
    "fischer": Fischer(300, 10),
    "moves-per-period": MovesPerPeriod(base=0, moves=5, period=300),
    "multi-period": MultiPeriod((Stage(20), Stage(30, 1)), carry_over=False),
    "none": NoTime(),
}
BYOYOMI = ["chinese-1", "chinese-3", "japanese-1x30"]
systems = pytest.mark.parametrize("name", list(SYSTEMS))


def go(name: str, **options: object) -> Session:
    return Session(GoGame(9), Clock(SYSTEMS[name], now=0.0), **options)  # type: ignore[arg-type]


def rebuilt(s: Session) -> Session:
    return Session.from_log(json.loads(json.dumps(s.to_json())))


def as_a_stone(name: str, actions: list[tuple[str, object, str, float]]) -> Session:
    """The same game with a stone played instead of the last action: what a move costs."""
    s = go(name)
    for kind, player, point, at in actions:
        if kind == "move":
            s.move(player, point, now=at)  # type: ignore[arg-type]
        else:
            s.pass_(player, now=at)  # type: ignore[arg-type]
    return s


OPENING = [("move", BLACK, "E5", 10.0), ("move", WHITE, "C3", 20.0), ("pass", BLACK, "", 30.0)]


def opening(s: Session) -> None:
    """Black 10 s, White 10 s, Black passes after 10 s: White is on move from 30 s."""
    s.move(BLACK, "E5", now=10.0)
    s.move(WHITE, "C3", now=20.0)
    s.pass_(BLACK, now=30.0)


@systems
def test_the_second_pass_presses_the_clock(name: str) -> None:
    # Go §7.3/§21.1 two passes end play; the second pass is a move (虚着, Go §2.5) and costs
    # what a move costs (Go §12.3): 5 s into White's last minute it costs nothing.
    s = go(name)
    opening(s)
    s.pass_(WHITE, now=35.0)
    assert s.to_move() is None and s.clock.to_move is None  # counting (Go §12.4(4))
    stone = as_a_stone(
        name,
        [*OPENING, ("move", WHITE, "G7", 35.0)],
    )
    assert s.clock.state(WHITE) == stone.clock.state(WHITE)
    assert s.clock.state(BLACK) == stone.clock.state(BLACK)
    assert s.clock.flagged(10_000.0) is None
    assert s.tick(10_000.0) == []
    s.accept(BLACK, now=10_001.0)
    s.accept(WHITE, now=10_002.0)
    o = s.outcome()
    assert o is not None and o.termination is Termination.COUNT
    assert rebuilt(s).outcome() == o


@pytest.mark.parametrize(("name", "periods"), [("chinese-1", 1), ("chinese-3", 3)])
def test_issue_22_second_pass_in_the_last_reserved_minutes(name: str, periods: int) -> None:
    # the issue's scenario: White passes 5 s into its byo-yomi; it keeps every minute (Go §12.3)
    s = go(name)
    opening(s)
    s.pass_(WHITE, now=35.0)
    assert s.clock.remaining(WHITE, 35.0).periods == periods
    s.accept(BLACK, now=40.0)
    s.accept(WHITE, now=41.0)
    assert s.outcome().termination is Termination.COUNT  # type: ignore[union-attr]


def test_issue_22_japanese_byoyomi_second_pass() -> None:
    # Japanese byo-yomi 1 × 30 s: a period is used only when it runs out (Go §12.3 fast games)
    s = go("japanese-1x30")
    opening(s)
    s.pass_(WHITE, now=35.0)
    assert s.clock.remaining(WHITE, 35.0).periods == 1
    s.accept(BLACK, now=36.0)
    s.accept(WHITE, now=37.0)
    assert s.outcome().termination is Termination.COUNT  # type: ignore[union-attr]


@systems
def test_counting_runs_nobodys_clock(name: str) -> None:
    # Go §12.4(4) 允许终止计时: while both mark dead stones no time runs, no call, no flag
    s = go(name)
    opening(s)
    s.pass_(WHITE, now=35.0)
    black, white = s.clock.state(BLACK), s.clock.state(WHITE)
    s.mark_dead(BLACK, ["C3"], now=100.0)
    assert s.tick(100_000.0) == [] and s.next_deadline(100_000.0) is None
    assert (s.clock.state(BLACK), s.clock.state(WHITE)) == (black, white)
    assert s.outcome() is None


@systems
def test_a_dispute_resumes_the_claimants_clock_and_play_stops_again(name: str) -> None:
    # Go §21.4: 重新开始对局，由认为是死的一方先下: the claimant's clock starts from what it
    # had, a fresh turn (its last minute whole); the next two passes stop play again as above
    s = go(name)
    opening(s)
    s.pass_(WHITE, now=35.0)
    white = s.clock.state(WHITE)
    s.dispute(WHITE, "E5", now=1000.0)
    assert s.clock.running_color is WHITE and s.clock.state(WHITE) == white
    assert s.clock.turn_elapsed(1000.0) == 0.0
    s.pass_(WHITE, now=1005.0)
    s.pass_(BLACK, now=1010.0)
    assert s.clock.to_move is None and s.clock.flagged(99_999.0) is None
    s.accept(BLACK, now=1011.0)
    s.accept(WHITE, now=1012.0)
    assert s.outcome().termination is Termination.COUNT  # type: ignore[union-attr]
    assert rebuilt(s).to_json() == s.to_json()


@systems
def test_a_pause_suspends_the_turn_and_resumption_continues_it(name: str) -> None:
    # Go §14: 暂停时间不计入对局时限 … 待续弈时重开计时器: the turn goes on where it stopped;
    # nothing is charged at the pause, and the time paused costs nothing
    s = go(name)
    s.move(BLACK, "E5", now=10.0)
    s.pause(now=25.0)  # White has thought 15 s
    assert s.tick(50_000.0) == [] and s.clock.flagged(50_000.0) is None
    s.resume(now=50_000.0)
    s.move(WHITE, "C3", now=50_005.0)  # 20 s in all: as a move of 20 s
    stone = as_a_stone(name, [("move", BLACK, "E5", 10.0), ("move", WHITE, "C3", 30.0)])
    assert s.clock.state(WHITE) == stone.clock.state(WHITE)
    assert s.outcome() is None


@systems
def test_a_sealed_move_costs_the_time_used_before_sealing(name: str) -> None:
    # Go §14 封棋 (by the event's rules; Gomoku §9.4(4)): the sealed move is played at
    # resumption and costs what was used before sealing, as a move (Go §12.3)
    s = go(name)
    s.move(BLACK, "E5", now=10.0)
    s.adjourn(WHITE, "C3", now=28.0)  # 18 s
    s.resume(now=90_000.0)
    stone = as_a_stone(name, [("move", BLACK, "E5", 10.0), ("move", WHITE, "C3", 28.0)])
    assert s.clock.state(WHITE) == stone.clock.state(WHITE)
    assert s.clock.running_color is BLACK
    assert s.clock.turn_elapsed(90_000.0) == 0.0  # Black's time runs from the resumption


@systems
def test_a_sealed_second_pass_presses_too(name: str) -> None:
    # Go §14 with §21.1: a sealed pass that ends play is still a move
    s = go(name)
    opening(s)
    s.adjourn(WHITE, Pass(), now=35.0)
    s.resume(now=80_000.0)
    assert s.to_move() is None and s.clock.flagged(99_999.0) is None
    stone = as_a_stone(
        name,
        [*OPENING, ("move", WHITE, "G7", 35.0)],
    )
    assert s.clock.state(WHITE) == stone.clock.state(WHITE)


@systems
def test_a_dropped_stone_picked_up_costs_the_innocent_opponent_nothing(name: str) -> None:
    # Go §17.3 如一方的棋子不慎掉落于棋盘，经对手同意后，允许其拣起后任选着点: the dropper's
    # press is undone; the opponent's time since is charged to nobody (docs/decisions.md)
    s = go(name)
    s.move(BLACK, "E5", now=10.0)
    s.move(WHITE, "C3", now=20.0)
    black_before = s.clock.state(BLACK)
    white_before = s.clock.state(WHITE)
    s.move(BLACK, "G7", now=45.0)  # the stone that fell, 25 s into Black's turn
    s.rule(rq.DroppedStone(BLACK), 50.0)  # White had thought 5 s
    assert s.outcome() is None and s.tick(50.0) == []
    assert s.clock.state(WHITE) == white_before
    assert s.clock.state(BLACK) == black_before
    assert s.clock.running_color is BLACK and s.clock.turn_elapsed(50.0) == 25.0
    s.move(BLACK, "D4", now=52.0)  # 任选着点: a move of 27 s in all
    stone = as_a_stone(
        name,
        [("move", BLACK, "E5", 10.0), ("move", WHITE, "C3", 20.0), ("move", BLACK, "D4", 47.0)],
    )
    assert s.clock.state(BLACK) == stone.clock.state(BLACK)
    assert s.clock.state(WHITE) == stone.clock.state(WHITE)  # (one pool when shared)
    assert rebuilt(s).to_json() == s.to_json()


def test_issue_22_dropped_stone_on_the_opponents_last_minute() -> None:
    # Go §17.3 with §12.3: the old clock charged White's 5 s as its last minute: White was
    # flagged at once and the dropper won on time
    s = go("chinese-1")
    s.move(BLACK, "E5", now=10.0)
    s.move(WHITE, "C3", now=20.0)
    s.move(BLACK, "G7", now=30.0)
    s.rule(rq.DroppedStone(BLACK), 35.0)
    s.tick(36.0)
    assert s.outcome() is None
    assert s.clock.remaining(WHITE, 36.0).periods == 1


@systems
@pytest.mark.parametrize("who", ["on move", "waiting"])
def test_resignation_charges_the_running_turn_without_a_flag(name: str, who: str) -> None:
    # Go §13.1 (终局 by resignation): the running turn is charged as time used; a started
    # minute is not a whole one (Go §12.3) and the result is the resignation, never time
    s = go(name)
    s.move(BLACK, "E5", now=10.0)
    resigner = WHITE if who == "on move" else BLACK
    s.resign(resigner, now=15.0)  # White has thought 5 s
    o = s.outcome()
    assert o is not None and o.termination is Termination.RESIGNATION and o.winner is not resigner
    assert s.clock.to_move is None
    assert s.clock.flagged(99_999.0) is None
    left = s.clock.remaining(WHITE, 15.0)
    assert left.periods == s.clock.system.initial().periods or name not in BYOYOMI
    assert s.clock.used(WHITE, 99_999.0) == 5.0


@systems
def test_an_arbiters_decision_stops_the_clock_without_a_flag(name: str) -> None:
    # Go §13.1 判负、判和 also end the game: the clock stops, the running turn charged as used
    s = go(name)
    s.move(BLACK, "E5", now=10.0)
    s.rule(rq.Forfeit(BLACK, "Go §23.3"), 15.0)
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.FORFEIT
    assert s.clock.to_move is None and s.clock.flagged(99_999.0) is None
    if name in BYOYOMI:
        assert s.clock.remaining(WHITE, 15.0).periods == s.clock.system.initial().periods


@pytest.mark.parametrize("name", BYOYOMI)
def test_a_second_warning_in_the_last_minute_loses_by_warnings_not_time(name: str) -> None:
    # Go §24.2: the second warning loses; the clock's stop at that moment is no flag
    s = go(name)
    s.move(BLACK, "E5", now=10.0)
    s.rule(rq.Warning(WHITE, "Go §23.8"), 12.0)
    s.rule(rq.Warning(WHITE, "Go §23.8"), 15.0)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is not Termination.TIME
    assert s.clock.remaining(WHITE, 15.0).periods == s.clock.system.initial().periods


@pytest.mark.parametrize("name", BYOYOMI)
def test_overtime_pass_then_the_opponents_pass_presses(name: str) -> None:
    # Go §22.5 改判弃权一次 then the opponent's pass: two passes end play (Go §21.1); the
    # opponent's pass 5 s into its last minute costs nothing (Go §12.3); counting, not a flag
    s = go(name, overtime_pass=True)
    s.move(BLACK, "E5", now=10.0)
    flag = s.clock.flag_time()
    assert flag is not None
    events = s.tick(flag)
    assert [e.kind for e in events if e.kind != "call"] == ["overtime_pass"]
    s.pass_(BLACK, now=flag + 5.0)
    assert s.to_move() is None and s.clock.to_move is None
    assert s.clock.remaining(BLACK, flag + 5.0).periods == s.clock.system.initial().periods
    s.accept(BLACK, now=flag + 6.0)
    s.accept(WHITE, now=flag + 7.0)
    assert s.outcome().termination is Termination.COUNT  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["absolute", "fischer", "chinese-1", "japanese-1x30"])
def test_a_five_presses_and_a_double_pass_draw_presses(name: str) -> None:
    # Gomoku §10.1 a five wins, §10.2 both passing in a round is a draw: the last stone or
    # pass is a move and presses (Go §12.3 read for both games); no flag after the end
    s = Session(GomokuGame(RenjuRules.free()), Clock(SYSTEMS[name], now=0.0), Referee(GOMOKU))
    t = 0.0
    for i, (b, w) in enumerate([("h8", "a1"), ("h9", "a2"), ("h10", "a3"), ("h11", "a4")]):
        t += 5
        s.move(BLACK, b, now=t)
        t += 5
        s.move(WHITE, w, now=t)
        assert i < 4
    before = s.clock.state(BLACK)
    s.move(BLACK, "h12", now=t + 5)  # the five, 5 s into the turn
    o = s.outcome()
    assert o is not None and o.winner is BLACK and s.clock.to_move is None
    assert s.clock.state(BLACK) == s.clock.system.spend(before, 5.0)
    assert s.clock.flagged(99_999.0) is None

    d = Session(GomokuGame(RenjuRules.free()), Clock(SYSTEMS[name], now=0.0), Referee(GOMOKU))
    d.move(BLACK, "h8", now=5.0)
    for k, (b, w) in enumerate([("a1", "a2"), ("b1", "b2")]):
        d.move(WHITE, b, now=10.0 + 20 * k)
        d.move(BLACK, w, now=15.0 + 20 * k)
    d.move(WHITE, "c1", now=50.0)
    d.pass_(BLACK, now=55.0)  # past the first five moves
    before = d.clock.state(WHITE)
    d.pass_(WHITE, now=60.0)
    o = d.outcome()
    assert o is not None and o.winner is None and d.clock.to_move is None
    assert d.clock.state(WHITE) == d.clock.system.spend(before, 5.0)
