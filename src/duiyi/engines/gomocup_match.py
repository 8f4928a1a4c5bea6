"""Refereed games and matches between two Gomocup brains (fresh processes): the adapter runs
the brains and measures their time; the decisions are the pure :mod:`duiyi.gomoku.match`'s
(:class:`~duiyi.gomoku.match.MoveJudge`), the clock :class:`~duiyi.engines.gomocup_clock.GameClock`,
the score :class:`~duiyi.engines.tally.MatchTally`. :func:`run_game` and :func:`run_match` are
the blocking forms for scripts and the CLI."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.engines.gomocup import (
    DEFAULT_SIZE,
    EngineLine,
    GomocupEngine,
    GomocupMove,
    GomocupRule,
)
from duiyi.engines.gomocup_clock import GameClock
from duiyi.engines.process import engine_label, launch_or_error, sort_launched
from duiyi.engines.protocol import Limits
from duiyi.engines.record import EngineGameRecord
from duiyi.engines.tally import MatchTally
from duiyi.errors import (
    EngineCrashed,
    EngineError,
    EngineProtocolError,
    EngineRefusal,
    EngineTimeout,
)
from duiyi.games import GOMOKU
from duiyi.gomoku.match import (
    Ending,
    Failure,
    MoveJudge,
    ScheduledGame,
    TimeControl,
    forfeit,
    schedule,
)
from duiyi.gomoku.point import Point
from duiyi.gomoku.rules import RenjuRules
from duiyi.referee import Referee

__all__ = ["play_game", "play_match", "run_game", "run_match"]


_label = engine_label


async def _launch(
    command: str | Sequence[str], size: int, timeout: float
) -> GomocupEngine | EngineError:
    return await launch_or_error(GomocupEngine.open(command, size, timeout=timeout))


def _rule(judge: MoveJudge, ledger: Referee, color: Color, failure: Failure, reason: str) -> Ending:
    """A brain's failure, ruled through the shared referee ledger: a crash, a refusal
    (``ERROR``/``UNKNOWN``) or a brain that cannot start withdraws from the game (Gomoku
    §10.1(3)D); an unreadable answer or a point off the board breaks the rules of play
    (§10.1(3)G, §4.2)."""
    if failure in (Failure.CRASH, Failure.REFUSAL, Failure.START):
        entry = ledger.withdrawal(color, note=reason)
    else:
        entry = ledger.forfeit(color, forfeit(color, failure).article, note=reason)
    assert entry.outcome is not None
    return judge.end(entry.outcome, reason)


async def play_game(
    black: str | Sequence[str],
    white: str | Sequence[str],
    *,
    opening: Sequence[str | Point] = (),
    opening_name: str | None = None,
    rules: RenjuRules | None = None,
    time_control: TimeControl | None = None,
    number: int = 1,
    names: tuple[str, str] | None = None,
    start_timeout: float = 10.0,
    rule: GomocupRule | None = None,
    max_memory: int | None = None,
    suspend_idle: bool = False,
) -> EngineGameRecord:
    """Play one refereed game between two brains (fresh processes) and return its record.

    ``opening`` lists the stones already on the board (Black first, e.g. a designated opening's
    three stones); each brain receives the position with ``BOARD`` (in move order) when it is
    first asked to move. With an empty opening Black gets ``BEGIN`` and White ``TURN``, as in
    Piskvork. Afterwards each brain gets ``TURN`` with the opponent's move.

    Each move's time is measured here with the monotonic clock, from writing the command to
    reading the answer, and judged by :class:`GameClock`; a brain that does
    not answer within its budget is ruled out of time at once and killed. The time a brain
    needs to start (``START``) is not charged but limited to ``start_timeout`` seconds.

    ``rules`` (default: :meth:`RenjuRules.chinese_2013` with an opening, :meth:`RenjuRules.free`
    on an empty board) are judged by :class:`~duiyi.gomoku.match.MoveJudge`; ``rule`` is the
    ``INFO rule`` sent (default: renju when the rules have forbidden moves, else freestyle).
    ``max_memory`` (bytes) is announced with ``INFO max_memory`` but not enforced. With
    ``suspend_idle`` a brain is stopped (``SIGSTOP``) whenever it is not its turn, as Gomocup
    does against pondering.
    """
    control = time_control or TimeControl()
    if rules is None:
        rules = RenjuRules.chinese_2013() if opening else RenjuRules.free()
    judge = MoveJudge(opening, rules=rules)
    ledger = GOMOKU.referee()
    clock = GameClock(control)
    labels = names or (_label(black), _label(white))
    commands = {BLACK: black, WHITE: white}
    launched = await asyncio.gather(
        *(_launch(commands[c], DEFAULT_SIZE, start_timeout) for c in (BLACK, WHITE))
    )
    engines, failures = sort_launched(dict(zip((BLACK, WHITE), launched, strict=True)))
    notes: list[str] = []
    times: list[int] = [0] * len(judge.moves)  # each stone's thinking time; opening stones 0

    def collect(color: Color) -> Callable[[EngineLine], None]:
        def keep(line: EngineLine) -> None:
            if len(notes) < 500:
                notes.append(f"{color} {line.kind} {line.text}")

        return keep

    for color, eng in engines.items():
        keep = collect(color)
        for line in eng.messages:  # what it said while starting
            keep(line)
        eng.on_line = keep

    ruling: Ending | None
    if len(failures) == 2:
        why = "; ".join(f"{c}: {e}" for c, e in failures.items())
        entry = ledger.no_show({BLACK, WHITE}, note=why)  # both absent: both lose (§8.5)
        assert entry.outcome is not None
        ruling = judge.end(entry.outcome, f"neither engine started ({why})")
    elif failures:
        (color, error), *_ = failures.items()
        reason = f"{color} engine did not start: {error}"
        ruling = _rule(judge, ledger, color, Failure.START, reason)
    else:
        ruling = None
        try:
            ruling = await _play_moves(
                engines, judge, ledger, clock, rule, max_memory, suspend_idle, times
            )
        finally:
            await asyncio.gather(*(e.end(grace=0.5) for e in engines.values()))
    if ruling is None:  # pragma: no cover - _play_moves always ends with a ruling
        raise EngineError("the game ended without a ruling")
    return EngineGameRecord(
        number=number,
        black=labels[0],
        white=labels[1],
        opening=opening_name,
        moves=tuple(str(p) for p in judge.moves),
        outcome=ruling.outcome,
        reason=ruling.reason,
        used_ms=(clock.used_ms[BLACK], clock.used_ms[WHITE]),
        messages=tuple(notes),
        move_ms=tuple(times),
    )


async def _play_moves(
    engines: dict[Color, GomocupEngine],
    judge: MoveJudge,
    ledger: Referee,
    clock: GameClock,
    rule: GomocupRule | None,
    max_memory: int | None,
    suspend_idle: bool,
    times: list[int],
) -> Ending:
    control = clock.control
    default_rule = GomocupRule.RENJU if judge.fouls else GomocupRule.FREESTYLE
    info_rule = rule if rule is not None else default_rule
    limits = control.gomocup_info()
    for color, eng in engines.items():
        try:
            await eng.configure(
                timeout_turn=limits.get("timeout_turn"),
                timeout_match=limits.get("timeout_match"),
                max_memory=max_memory,
                game_type=1,
                rule=info_rule,
            )
        except EngineError as exc:  # only a dead pipe can fail here: INFO has no answer
            reason = f"{color} engine exited before play: {exc}"
            return _rule(judge, ledger, color, Failure.CRASH, reason)
        if suspend_idle:
            eng.suspend()
    while True:
        color = judge.to_move
        eng = engines[color]
        left = clock.time_left_ms(color)
        budget = clock.budget_ms(color)
        allowed = Limits(
            timeout=None if budget is None else budget / 1000.0,
            time_left=None if left is None else left / 1000.0,
        )
        try:
            result = await eng.play(judge, allowed)
        except EngineTimeout:
            waited = round((time.monotonic() - eng.line.last_sent) * 1000)
            reason = clock.describe_overtime(color)  # which limit bound the wait
            clock.charge(color, waited)
            await eng.kill()
            return judge.overtime(color, reason)
        except EngineCrashed as exc:
            status = f" with status {exc.returncode}" if exc.returncode is not None else ""
            n = len(judge.moves) + 1
            reason = f"{color} engine exited{status} when move {n} was due"
            return _rule(judge, ledger, color, Failure.CRASH, reason)
        except EngineRefusal as exc:
            reason = f"{color} engine refused: {exc}"
            return _rule(judge, ledger, color, Failure.REFUSAL, reason)
        except EngineProtocolError as exc:
            return _rule(judge, ledger, color, Failure.PROTOCOL, f"{color} engine: {exc}")
        # the brain's time: from the end of writing its move command to its answer (Piskvork
        # measures the same way); the INFO lines and the referee's own work are not charged
        elapsed = round(result.elapsed * 1000)
        answer = result.move
        assert isinstance(answer, GomocupMove)  # a brain answers stones only
        if suspend_idle:
            eng.suspend()  # no thinking on the opponent's time
        if clock.charge(color, elapsed) is not None:
            return judge.overtime(color, clock.describe_overtime(color, elapsed))
        if not answer.on_board(DEFAULT_SIZE):
            reason = f"{color} answered {answer}, which is off the 15x15 board"
            return _rule(judge, ledger, color, Failure.OFF_BOARD, reason)
        placed = len(judge.moves)
        ruling = judge.play(answer.to_book())
        if len(judge.moves) > placed:  # the stone is on the board (a losing one too)
            times.append(elapsed)
        if ruling is not None:
            return ruling


async def play_match(
    engine_a: str | Sequence[str],
    engine_b: str | Sequence[str],
    *,
    games: int = 2,
    openings: Sequence[tuple[str, Sequence[str | Point]]] | None = None,
    rules: RenjuRules | None = None,
    time_control: TimeControl | None = None,
    names: tuple[str, str] | None = None,
    start_timeout: float = 10.0,
    max_memory: int | None = None,
    suspend_idle: bool = False,
    on_game: Callable[[EngineGameRecord, ScheduledGame], None] | None = None,
) -> MatchTally:
    """Play ``games`` refereed games of engine A against engine B, one after another.

    ``openings`` are ``(name, stones)`` pairs; the games follow :func:`~duiyi.gomoku.match.schedule`
    (each opening twice, colours swapped, cycling through the list); ``None`` means an empty
    board with colours alternating. ``rules`` default as in :func:`play_game` (the book's rules
    with openings, the free opening without forbidden moves on an empty board).
    ``on_game`` is called after every game.
    """
    a_name, b_name = names or (_label(engine_a), _label(engine_b))
    if a_name == b_name:
        a_name, b_name = f"{a_name} (A)", f"{b_name} (B)"
    by_name = dict(openings) if openings else {}
    plan = schedule(games, [name for name, _ in openings] if openings else None)
    tally = MatchTally(a_name, b_name)
    for game in plan:
        black, white = (engine_a, engine_b) if game.a_is_black else (engine_b, engine_a)
        labels = (a_name, b_name) if game.a_is_black else (b_name, a_name)
        stones = by_name[game.opening] if game.opening is not None else ()
        record = await play_game(
            black,
            white,
            opening=stones,
            opening_name=game.opening,
            rules=rules,
            time_control=time_control,
            number=game.number,
            names=labels,
            start_timeout=start_timeout,
            max_memory=max_memory,
            suspend_idle=suspend_idle,
        )
        tally.add(record, a_is_black=game.a_is_black)
        if on_game is not None:
            on_game(record, game)
    return tally


def run_game(
    black: str | Sequence[str],
    white: str | Sequence[str],
    **options: Any,
) -> EngineGameRecord:
    """Blocking :func:`play_game` for scripts (runs its own event loop).

    >>> import sys
    >>> from duiyi.gomoku.rules import RenjuRules
    >>> dies = "import sys; print('OK', flush=True); sys.stdin.readline()"   # exits after START
    >>> waits = "import sys; print('OK', flush=True); sys.stdin.read()"
    >>> record = run_game([sys.executable, "-c", dies], [sys.executable, "-c", waits],
    ...                   rules=RenjuRules.free())
    >>> record.outcome.winner, record.outcome.termination.value
    (Color.WHITE, 'forfeit')
    """
    return asyncio.run(play_game(black, white, **options))


def run_match(
    engine_a: str | Sequence[str],
    engine_b: str | Sequence[str],
    **options: Any,
) -> MatchTally:
    """Blocking :func:`play_match` for scripts and the CLI (runs its own event loop)."""
    return asyncio.run(play_match(engine_a, engine_b, **options))
