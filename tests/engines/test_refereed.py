"""The one refereed-game loop (engines/refereed.py) with players in the process: each answer
goes through the Session, so the session's log replays to the same outcome."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.clock import Absolute, Clock, NoTime, TimeSystem
from duiyi.engines.protocol import PASS, RESIGN, Limits, PlayResult
from duiyi.engines.refereed import Player, Refereed, play_refereed
from duiyi.errors import EngineCrashed, IllegalAction, InvalidInput
from duiyi.games import GO
from duiyi.go import Game, Point
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee import RulingKind, RulingRequest, requests
from duiyi.session import Session


class Scripted:
    """Answers its script: (move, thinking seconds); an exception is raised instead."""

    def __init__(self, *script: tuple[Any, float] | Exception) -> None:
        self.script = list(script)
        self.told: list[Limits | None] = []

    async def play(self, position: Any, limits: Limits | None = None) -> PlayResult[Any]:
        self.told.append(limits)
        step = self.script.pop(0) if self.script else (PASS, 0.0)
        if isinstance(step, Exception):
            raise step
        move, elapsed = step
        return PlayResult(Point.parse(move, 5) if isinstance(move, str) else move, elapsed)


class Conduct:
    """A plain conduct: every failure a withdrawal, every refused move a forfeit."""

    tolerance = 0.1
    move_timeout = 5.0

    async def set_up(self, players: Mapping[Color, Player]) -> None:
        return None

    def limits(self, clock: Clock, color: Color, now: float, wait: float) -> Limits:
        return Limits(wait)

    def failure(self, color: Color, exc: Exception, moves: int, wait: float) -> RulingRequest:
        return requests.Withdrawal(color, note=f"{color} failed at move {moves + 1}")

    def illegal(self, color: Color, exc: IllegalAction | InvalidInput) -> RulingRequest:
        return requests.Forfeit(color, exc.article or "Go §19", note=f"{color}: {exc}")

    def late(self, color: Color, elapsed: float | None) -> str:
        return f"{color} late ({elapsed})"

    def after_move(self, session: Session) -> None:
        return None

    async def count(self, session: Session, players: Mapping[Color, Player]) -> None:
        session.accept(BLACK, session.now)
        session.accept(WHITE, session.now)

    def describe(self, outcome: Outcome) -> str:
        return outcome.termination.value


def play(black: Scripted, white: Scripted, system: TimeSystem | None = None) -> Refereed:
    game = Game(5)
    clock = Clock(system or NoTime(), to_move=BLACK, now=0.0)
    players = {BLACK: black, WHITE: white}
    run = play_refereed(GO, game, clock, players, Conduct(), position=lambda: game)
    return asyncio.run(run)


def replayed(done: Refereed) -> Outcome | None:
    return Session.from_log(done.session.to_json()).outcome()


def test_two_passes_are_counted_by_the_game_and_the_log_replays() -> None:
    done = play(Scripted(("C3", 1.0)), Scripted())
    assert done.outcome is not None and done.outcome.termination is Termination.COUNT  # Go §9
    assert done.outcome.winner is BLACK and done.reason == "count"
    assert [e.type for e in done.session.log] == ["move", "pass", "pass", "accept", "accept"]
    assert replayed(done) == done.outcome


def test_the_clock_runs_on_thinking_time_and_a_late_answer_loses_on_time() -> None:
    # 10 s sudden death (Go §12.4): Black thinks 4 s, then 7 s: past its flag by more than
    # the tolerance
    black = Scripted(("C3", 4.0), ("D4", 7.0))
    done = play(black, Scripted(("B2", 2.0)), Absolute(10))
    assert done.outcome is not None and done.outcome.termination is Termination.TIME
    assert done.outcome.winner is WHITE and done.outcome.article == "Go §12.4"
    assert done.reason == "black late (7.0)" and done.used == {BLACK: 11.0, WHITE: 2.0}
    # the flag falls when Black's 10 s are used: at 12 s of thinking time (White's 2 s too)
    assert done.session.log[-1].type == "flag" and done.session.log[-1].at == 12.0
    assert black.told[1] is not None and black.told[1].timeout == 6.0 + 0.1  # flag + tolerance
    assert replayed(done) == done.outcome


def test_an_answer_late_within_the_tolerance_stands_on_the_flag() -> None:
    done = play(Scripted(("C3", 10.05)), Scripted((RESIGN, 0.5)), Absolute(10))
    assert done.outcome is not None and done.outcome.termination is Termination.RESIGNATION
    assert done.outcome.winner is BLACK and done.session.log[0].at < 10.0


def test_a_refused_move_and_a_failure_are_rulings_of_the_sessions_referee() -> None:
    # White plays on Black's stone (Go §5: an occupied point)
    illegal = play(Scripted(("C3", 1.0)), Scripted(("C3", 1.0)))
    assert illegal.outcome is not None and illegal.outcome.termination is Termination.FORFEIT
    assert illegal.outcome.winner is BLACK
    assert [r.kind for r in illegal.session.referee.rulings] == [RulingKind.FORFEIT]
    assert replayed(illegal) == illegal.outcome
    crashed = play(Scripted(EngineCrashed("gone")), Scripted())
    assert crashed.outcome is not None and crashed.outcome.winner is WHITE
    assert crashed.outcome.article == "Go §28" and crashed.reason == "black failed at move 1"


def test_players_that_did_not_start_are_no_shows() -> None:
    game = Game(5)
    clock = Clock(NoTime(), to_move=BLACK, now=0.0)
    players = {BLACK: Scripted(), WHITE: Scripted()}
    run = play_refereed(
        GO, game, clock, players, Conduct(), position=lambda: game, absent={BLACK: "x", WHITE: "y"}
    )
    done = asyncio.run(run)
    assert done.outcome is not None and done.outcome.result is Result.BOTH_LOSE
    assert done.outcome.article == "Go §22.3"  # both absent: both lose
