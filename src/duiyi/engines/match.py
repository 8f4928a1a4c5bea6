"""Refereed Go engine games and matches: duiyi judges, the engines only play.

One game (:func:`play_game`) starts both engines afresh, sets board size, komi (in points, with
the handicap return) and the time settings, then asks each engine in turn for a move:

* every move is checked by :class:`duiyi.go.Game` under the rules preset (situational superko
  for the Chinese rules, Go §6); an illegal move loses the game at once under the article that
  forbids it (online and engine play reject illegal moves, DECISIONS.md; an engine cannot be
  asked to try again without letting it search for a legal move by trial);
* the clock is a :class:`duiyi.clock.Clock` of any time system; before every ``genmove`` the
  engine hears ``time_left`` (``time_settings`` once at the start). The clock runs on the
  engines' own thinking time (from the end of writing ``genmove`` to its answer), so that the
  referee's work is not charged; a flag that falls loses (Go §12.3 with byo-yomi, §12.4 sudden
  death, §12.5 periods), with :attr:`MatchSettings.tolerance` seconds of grace for pipe latency;
* an engine that crashes, or stays silent for ``move_timeout`` seconds in an untimed game,
  withdraws from the game (Go §28, :meth:`duiyi.referee.Referee.withdrawal`); one that answers
  nonsense or refuses a legal move of its opponent loses by forfeit (Go §23, refusing the
  rules); one that cannot start is a no-show (Go §22.1), both: both lose (Go §22.3);
* after two passes (Go §8) the dead stones are those both engines name with
  ``final_status_list dead``; when they differ (or an engine cannot say), duiyi's own proposal
  (:meth:`duiyi.go.Game.propose_dead`) is used; the record's ``dead_source`` says which.
  The count is duiyi's (Go §9);
* optional adjudication: ``max_moves`` counts the position with duiyi's proposal when reached
  (a drawn count is a draw); ``resign_margin``/``resign_moves`` end the game for the side that
  duiyi's count has ahead by at least that many points for that many consecutive moves.

:func:`play_match` plays N games with colours alternating (game 1: engine A is Black), K at a
time, and keeps a :class:`~duiyi.engines.score.MatchScore` with the Elo figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.clock import (
    Absolute,
    ChineseByoyomi,
    Clock,
    Fischer,
    JapaneseByoyomi,
    MovesPerPeriod,
    NoTime,
    TimeSystem,
)
from duiyi.engines.gtp import GtpEngine, effective_komi_points
from duiyi.engines.process import engine_label, launch_or_error, split_command
from duiyi.engines.record import EngineGameRecord
from duiyi.engines.score import MatchScore
from duiyi.errors import (
    ClockError,
    EngineCrashed,
    EngineError,
    EngineTimeout,
    GtpError,
    IllegalMove,
    InvalidInput,
)
from duiyi.games import GO
from duiyi.go import Game, Phase, Point, Rules
from duiyi.gtp.clock import time_left as gtp_time_left
from duiyi.gtp.clock import time_settings as gtp_time_settings
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee import Referee
from duiyi.tournament.results import GameResult

__all__ = [
    "EngineGameRecord",
    "MatchSettings",
    "parse_time_spec",
    "play_game",
    "play_match",
    "record_json",
    "record_sgf",
    "result_letter",
    "sgf_result",
    "time_article",
]


# ------------------------------------------------------------------------------------------
# settings


def parse_time_spec(spec: str | None) -> TimeSystem:
    """Read a ``--time`` choice (seconds):

    * ``none`` (or empty): no clock;
    * ``300``: sudden death, 300 s each (Go §12.4);
    * ``300+5``: Fischer, 300 s and 5 s added per move;
    * ``300/30x3``: Japanese byo-yomi, 300 s then 3 periods of 30 s;
    * ``300/60:10``: Canadian, 300 s then 10 moves every 60 s (Go §12.5);
    * ``cn:3600:5``: the Chinese byo-yomi of Go §12.3, 3600 s and 5 reserved minutes.

    >>> parse_time_spec("60"), parse_time_spec("60+2")
    (Absolute(base=60.0), Fischer(base=60.0, increment=2.0, cap=None))
    >>> parse_time_spec("10/5x3")
    JapaneseByoyomi(base=10.0, periods=3, period=5.0)
    >>> parse_time_spec("ten minutes")
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: cannot read time spec 'ten minutes' (none, 300, 300+5, 300/30x3, 300/60:10, cn:3600:5)
    """
    text = (spec or "").strip().lower()
    num = r"(\d+(?:\.\d+)?)"
    try:
        if text in ("", "none", "0"):
            return NoTime()
        if m := re.fullmatch(num, text):
            return Absolute(float(m[1]))
        if m := re.fullmatch(rf"{num}\+{num}", text):
            return Fischer(float(m[1]), float(m[2]))
        if m := re.fullmatch(rf"{num}/{num}x(\d+)", text):
            return JapaneseByoyomi(base=float(m[1]), periods=int(m[3]), period=float(m[2]))
        if m := re.fullmatch(rf"{num}/{num}:(\d+)", text):
            return MovesPerPeriod(base=float(m[1]), moves=int(m[3]), period=float(m[2]))
        if m := re.fullmatch(rf"cn:{num}:(\d+)", text):
            return ChineseByoyomi(base=float(m[1]), reserved_minutes=int(m[2]))
    except InvalidInput as exc:
        raise InvalidInput(f"time spec {spec!r}: {exc}") from None
    raise InvalidInput(
        f"cannot read time spec {spec!r} (none, 300, 300+5, 300/30x3, 300/60:10, cn:3600:5)"
    )


def time_article(system: TimeSystem) -> str:
    """The article under which running out of ``system``'s time loses a Go game.

    >>> time_article(Absolute(60)), time_article(JapaneseByoyomi())
    ('Go §12.4', 'Go §12.3')
    """
    if system.has_overtime:
        return "Go §12.3"
    if system.name in ("moves-per-period", "multi-period"):
        return "Go §12.5"
    return "Go §12.4"


@dataclass(frozen=True)
class MatchSettings:
    """How the games of a match are played (see the module's docstring).

    ``tolerance`` (seconds) is the grace after a flag before the referee rules: pipes and the
    scheduler add a few milliseconds an engine cannot see; 0.1 s by default.
    ``move_timeout`` bounds the wait for a move when the clock does not (untimed games, and
    ``final_status_list``). ``start_timeout`` bounds starting an engine.
    """

    size: int = 19
    rules: Rules = field(default_factory=Rules.chinese)
    time: TimeSystem = field(default_factory=NoTime)
    tolerance: float = 0.1
    move_timeout: float = 60.0
    start_timeout: float = 20.0
    max_moves: int | None = None
    resign_margin: float | None = None
    resign_moves: int = 4
    handicap: int = 0

    def __post_init__(self) -> None:
        if self.tolerance < 0 or self.move_timeout <= 0 or self.start_timeout <= 0:
            raise InvalidInput("tolerance must be >= 0 s, move and start timeouts > 0 s")
        if self.max_moves is not None and self.max_moves < 1:
            raise InvalidInput("--max-moves must be at least 1")
        if self.resign_margin is not None and (self.resign_margin <= 0 or self.resign_moves < 1):
            raise InvalidInput("resignation adjudication needs a margin > 0 and moves >= 1")

    def max_moves_or_default(self) -> int:
        """The cap on moves: ``max_moves``, else 3 × size² (a game that long is counted)."""
        return self.max_moves if self.max_moves is not None else 3 * self.size * self.size


# ------------------------------------------------------------------------------------------
# records


def sgf_result(record: EngineGameRecord) -> str:
    """The SGF form of a Go record's result: ``B+3.5``, ``W+R``, ``B+T``, ``W+F``, ``0``,
    ``Void`` (from its final :class:`~duiyi.go.Game`; ``?`` without one)."""
    game = record.final
    return (game.sgf_result if isinstance(game, Game) else None) or "?"


def record_json(record: EngineGameRecord, *, sgf: str | None = None) -> dict[str, Any]:
    """A Go record as the ``go match --format json`` output shows it."""
    return {
        "number": record.number,
        "black": record.black,
        "white": record.white,
        "result": sgf_result(record),
        "termination": record.outcome.termination.value,
        "article": record.outcome.article,
        "reason": record.reason,
        "moves": record.move_count,
        "time_used": {
            "black": round(record.used_seconds(BLACK), 3),
            "white": round(record.used_seconds(WHITE), 3),
        },
        "dead_stones": record.dead_source,
        "sgf": sgf if sgf is not None else (record.sgf_path or record_sgf(record)),
    }


def record_sgf(record: EngineGameRecord) -> str:
    """SGF of an engine game: ``PB``/``PW`` engine names, ``BL``/``WL`` (time used, not left:
    see ``C``), ``RE`` and a root comment with the termination and article."""
    from duiyi.go.sgf import game_to_sgf

    if not isinstance(record.final, Game):
        raise ValueError(f"game {record.number} kept no final Go position")
    comment = (
        f"{record.reason} ({record.outcome.article}). Time used: black "
        f"{record.used_seconds(BLACK):.2f} s, white {record.used_seconds(WHITE):.2f} s."
    )
    if record.dead_source:
        comment += f" Dead stones: {record.dead_source}."
    props = {
        "PB": record.black,
        "PW": record.white,
        "EV": "duiyi go match",
        "GN": f"game {record.number}",
        "C": comment,
    }
    return game_to_sgf(record.final, props)


# ------------------------------------------------------------------------------------------
# one game


class _Ended(Exception):
    """Internal: a ruling ended the game."""

    def __init__(self, outcome: Outcome, reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


async def _start(command: str | Sequence[str], timeout: float) -> GtpEngine | EngineError:
    return await launch_or_error(GtpEngine.popen(command, timeout=timeout))


async def _engine_name(engine: GtpEngine) -> str:
    try:
        name = await engine.name()
        with contextlib.suppress(GtpError):
            version = await engine.version()
            if version:
                name = f"{name} {version}"
        return name.strip() or engine.label
    except GtpError:
        return engine.label


async def play_game(
    black: str | Sequence[str],
    white: str | Sequence[str],
    settings: MatchSettings | None = None,
    *,
    number: int = 1,
    names: tuple[str | None, str | None] = (None, None),
) -> EngineGameRecord:
    """Play one refereed game between two GTP engines (fresh processes); see the module."""
    settings = settings or MatchSettings()
    rules = settings.rules
    game = Game(settings.size, rules, settings.handicap)
    referee = GO.referee()
    started = await asyncio.gather(
        _start(black, settings.start_timeout), _start(white, settings.start_timeout)
    )
    engines: dict[Color, GtpEngine] = {}
    failed: dict[Color, EngineError] = {}
    for color, item in zip((BLACK, WHITE), started, strict=True):
        if isinstance(item, GtpEngine):
            engines[color] = item
        else:
            failed[color] = item
    labels = {
        BLACK: names[0] or engine_label(black),
        WHITE: names[1] or engine_label(white),
    }
    for color, eng in engines.items():
        if names[0 if color is BLACK else 1] is None:
            labels[color] = await _engine_name(eng)
    used = {BLACK: 0.0, WHITE: 0.0}
    dead_source: str | None = None
    try:
        if failed:
            why = "; ".join(f"{c} engine did not start: {e}" for c, e in failed.items())
            ruling = referee.no_show(set(failed), note=why)
            assert ruling.outcome is not None
            raise _Ended(ruling.outcome, why)
        dead_source = await _play(engines, game, referee, settings, used)
        outcome = game.outcome()
        assert outcome is not None
        reason = _describe(outcome, game, dead_source)
    except _Ended as end:
        outcome, reason = end.outcome, end.reason
        if game.outcome() is None:
            game.end(outcome)
    finally:
        await asyncio.gather(*(e.quit() for e in engines.values()), return_exceptions=True)
    return EngineGameRecord(
        number,
        labels[BLACK],
        labels[WHITE],
        None,
        tuple("pass" if p is None else str(p) for _, p in game.moves),
        outcome,
        reason,
        used_ms=(round(used[BLACK] * 1000), round(used[WHITE] * 1000)),
        dead_source=dead_source,
        final=game,
    )


def _describe(outcome: Outcome, game: Game, dead_source: str | None) -> str:
    if outcome.termination is Termination.RESIGNATION:
        assert outcome.loser is not None
        return f"{outcome.loser} resigned"
    if outcome.termination is Termination.COUNT:
        agreed = "agreed by both engines" if dead_source == "engines" else "duiyi's proposal"
        return f"counted after two passes, dead stones: {agreed}"
    return str(outcome.termination.value)


async def _play(
    engines: dict[Color, GtpEngine],
    game: Game,
    referee: Referee,
    settings: MatchSettings,
    used: dict[Color, float],
) -> str | None:
    system = settings.time
    timed = not isinstance(system, NoTime)
    clock = Clock(system, to_move=game.to_move, now=0.0)
    now = 0.0  # the clock's time: the engines' thinking time only
    komi = effective_komi_points(game)
    settings_cmd = gtp_time_settings(system).args if timed else None
    for color, eng in engines.items():
        try:
            await eng.boardsize(game.size)
            await eng.clear_board()
            await eng.komi(komi)
            if game.handicap >= 2:
                stones = sorted(game.board.stones(BLACK), key=lambda p: (p.row, p.col))
                await eng.set_free_handicap(stones)
            if settings_cmd is not None:
                with contextlib.suppress(GtpError):  # an engine may not know time_settings
                    await eng.command("time_settings", *settings_cmd)
        except GtpError as exc:
            _forfeit(referee, color, "Go §23", f"{color} engine refused the game's set-up: {exc}")
        except EngineError as exc:
            _withdraw(referee, color, f"{color} engine failed during set-up: {exc}")
    limit = settings.max_moves_or_default()
    ahead: tuple[Color | None, int] = (None, 0)
    knows_time_left = {c: True for c in engines}
    while game.phase is Phase.PLAYING:
        color = game.to_move
        mover, other = engines[color], engines[color.opponent]
        flag_at = clock.flag_time() if timed else None
        if timed and knows_time_left[color]:
            try:
                await mover.command("time_left", *gtp_time_left(clock, color, now).args)
            except GtpError:
                knows_time_left[color] = False
            except EngineError as exc:
                _withdraw(referee, color, f"{color} engine failed on time_left: {exc}")
        budget = (flag_at - now) if flag_at is not None else None
        wait = settings.move_timeout if budget is None else budget + settings.tolerance
        try:
            move = await mover.genmove(color, timeout=wait)
        except EngineTimeout:
            if budget is not None:
                used[color] += wait
                _flag(system, color, f"{color} did not move before its flag fell")
            _withdraw(referee, color, f"{color} engine was silent for {wait:g} s")
        except EngineCrashed as exc:
            _withdraw(
                referee, color, f"{color} engine crashed at move {len(game.moves) + 1}: {exc}"
            )
        except (GtpError, EngineError) as exc:
            _forfeit(referee, color, "Go §23", f"{color} engine answered genmove wrongly: {exc}")
        elapsed = mover.last_elapsed
        used[color] += elapsed
        if timed:
            if budget is not None and elapsed >= budget:
                if elapsed > budget + settings.tolerance:
                    _flag(system, color, f"{color} took {elapsed:.3f} s, its flag fell")
                elapsed = max(budget - 1e-6, 0.0)  # late within the tolerance: on the flag
            now += elapsed
            try:
                clock.press(color, now)
            except ClockError:
                _flag(system, color, f"{color}'s flag fell")
        if move == "resign":
            game.resign(color)  # Go §7.2
            break
        try:
            game.play(move, color)
        except IllegalMove as exc:
            article = exc.article or "Go §19"
            _forfeit(referee, color, article, f"{color} played an illegal move: {exc}")
        if game.phase is not Phase.PLAYING:
            break
        try:
            await other.play(color, move)
        except GtpError as exc:
            opp = color.opponent
            _forfeit(referee, opp, "Go §23", f"{opp} engine refused a legal move {move}: {exc}")
        except EngineError as exc:
            _withdraw(referee, color.opponent, f"{color.opponent} engine failed: {exc}")
        if len(game.moves) >= limit:
            _adjudicate(game, f"move limit {limit} reached: counted with duiyi's proposal")
        if settings.resign_margin is not None:
            ahead = _resign_check(game, settings, ahead)
    if game.phase is Phase.COUNTING:
        return await _count(engines, game, settings)
    return None


def _forfeit(referee: Referee, color: Color, article: str, reason: str) -> None:
    ruling = referee.forfeit(color, article, note=reason)
    assert ruling.outcome is not None
    raise _Ended(ruling.outcome, reason)


def _withdraw(referee: Referee, color: Color, reason: str) -> None:
    ruling = referee.withdrawal(color, note=reason)
    assert ruling.outcome is not None
    raise _Ended(ruling.outcome, reason)


def _flag(system: TimeSystem, color: Color, reason: str) -> None:
    raise _Ended(Outcome.win(color.opponent, Termination.TIME, time_article(system)), reason)


def _estimate(game: Game) -> Fraction:
    """Black's lead in points by duiyi's count with its own dead-stone proposal."""
    probe = game.copy()
    while probe.phase is Phase.PLAYING:
        probe.play(None)
    probe.set_dead(probe.propose_dead())
    score = probe.score()
    margin: Fraction = score.margin_points
    return margin


def _adjudicate(game: Game, reason: str) -> None:
    margin = _estimate(game)
    article = "Go §9"
    if margin == 0:
        raise _Ended(Outcome.draw(Termination.ADJUDICATION, article), reason + " (a draw)")
    winner = BLACK if margin > 0 else WHITE
    raise _Ended(
        Outcome.win(winner, Termination.ADJUDICATION, article),
        f"{reason} ({winner.letter}+{float(abs(margin)):g})",
    )


def _resign_check(
    game: Game, settings: MatchSettings, ahead: tuple[Color | None, int]
) -> tuple[Color | None, int]:
    assert settings.resign_margin is not None
    if len(game.moves) < game.size * 2:
        return (None, 0)
    margin = _estimate(game)
    leader = BLACK if margin > 0 else WHITE
    if abs(margin) < Fraction(settings.resign_margin):
        return (None, 0)
    count = ahead[1] + 1 if ahead[0] is leader else 1
    if count >= settings.resign_moves:
        raise _Ended(
            Outcome.win(leader, Termination.ADJUDICATION, "Go §9"),
            f"adjudicated: {leader} ahead by at least {settings.resign_margin:g} points "
            f"for {count} moves (duiyi's count)",
        )
    return (leader, count)


async def _count(engines: dict[Color, GtpEngine], game: Game, settings: MatchSettings) -> str:
    """Dead stones: both engines' ``final_status_list dead`` when they agree, else duiyi's."""
    lists: list[frozenset[Point]] = []
    for color in (BLACK, WHITE):
        try:
            dead = await engines[color].final_status_list("dead", timeout=settings.move_timeout)
            lists.append(frozenset(dead))
        except (EngineError, GtpError):
            break  # an engine that cannot say: duiyi's proposal
    source = "duiyi"
    if len(lists) == 2 and lists[0] == lists[1]:
        try:
            game.set_dead(lists[0])
            source = "engines"
        except (IllegalMove, InvalidInput):  # not whole chains, or off the board: use duiyi's
            source = "duiyi"
    if source == "duiyi":
        game.set_dead(game.propose_dead())
    game.accept(BLACK)
    game.accept(WHITE)
    return source


# ------------------------------------------------------------------------------------------
# a match


async def play_match(
    engine_a: str | Sequence[str],
    engine_b: str | Sequence[str],
    *,
    games: int = 2,
    settings: MatchSettings | None = None,
    concurrency: int = 1,
    names: tuple[str | None, str | None] = (None, None),
    on_game: Callable[[EngineGameRecord, MatchScore], Awaitable[None] | None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> tuple[list[EngineGameRecord], MatchScore]:
    """Play ``games`` games, colours alternating (game 1: A is Black), ``concurrency`` at once.

    Returns the records in game order and A's score. ``on_game`` is called as each game ends
    (in the order they end), with the score so far.
    """
    if games < 1:
        raise InvalidInput(f"a match needs at least one game, got {games}")
    if concurrency < 1:
        raise InvalidInput(f"--concurrency must be at least 1, got {concurrency}")
    split_command(engine_a), split_command(engine_b)  # refuse empty commands early
    settings = settings or MatchSettings()
    names = await _match_names(engine_a, engine_b, names, settings.start_timeout)
    score = MatchScore(names[0], names[1])
    records: dict[int, EngineGameRecord] = {}
    gate = asyncio.Semaphore(concurrency)

    async def one(n: int) -> None:
        a_black = n % 2 == 1
        black, white = (engine_a, engine_b) if a_black else (engine_b, engine_a)
        labels = names if a_black else (names[1], names[0])
        async with gate:
            if on_start is not None:
                on_start(n)
            record = await play_game(black, white, settings, number=n, names=labels)
        score.add(GameResult.from_outcome(record.outcome), a_is_black=a_black)
        records[n] = record
        if on_game is not None:
            done = on_game(record, score)
            if done is not None:
                await done

    tasks = [asyncio.ensure_future(one(n)) for n in range(1, games + 1)]
    try:
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
    return [records[n] for n in sorted(records)], score


async def _match_names(
    engine_a: str | Sequence[str],
    engine_b: str | Sequence[str],
    names: tuple[str | None, str | None],
    timeout: float,
) -> tuple[str, str]:
    """The engines' labels for the whole match: the given names, else what each engine says
    (``name`` and ``version``, asked once); equal names get `` #1``/`` #2``."""
    found: list[str] = []
    for given, command in zip(names, (engine_a, engine_b), strict=True):
        if given is not None:
            found.append(given)
            continue
        eng = await _start(command, timeout)
        if isinstance(eng, GtpEngine):
            found.append(await _engine_name(eng))
            await eng.quit()
        else:
            found.append(engine_label(command))
    a, b = found
    if a == b:
        a, b = f"{a} #1", f"{b} #2"
    return a, b


def result_letter(record: EngineGameRecord) -> str:
    """``1-0``, ``0-1``, ``½-½`` or ``0-0`` for reports.

    >>> from duiyi.go import Game
    >>> g = Game(9); o = Outcome.win(BLACK, Termination.TIME, "Go §12.4"); g.end(o)
    >>> result_letter(EngineGameRecord(1, "a", "b", None, (), o, "late", final=g))
    '1-0'
    """
    o = record.outcome
    if o.result is Result.DRAW:
        return "½-½"
    if o.winner is BLACK:
        return "1-0"
    if o.winner is WHITE:
        return "0-1"
    return "0-0"
