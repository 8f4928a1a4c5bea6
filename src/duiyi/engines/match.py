"""Refereed Go engine games and matches: duiyi judges, the engines only play.

One game (:func:`play_game`) starts both engines afresh, sets board size, komi (in points, with
the handicap return) and the time settings, then asks each engine in turn for a move. The game
is played by the one refereed-game loop, :func:`duiyi.engines.refereed.play_refereed`, through
a :class:`~duiyi.session.Session` (the server's clock, referee and rulings); this module is
GTP's part of it (:class:`_GtpConduct`: the set-up, ``time_left``, which failure is which
ruling, the adjudication, the count):

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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.actions import SetDead
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
from duiyi.engines.process import engine_label, launch_or_error, sort_launched, split_command
from duiyi.engines.protocol import Limits, PositionRefused
from duiyi.engines.record import EngineGameRecord
from duiyi.engines.refereed import Adjudicated, Player, Ruled, play_refereed
from duiyi.engines.score import MatchScore
from duiyi.errors import (
    EngineCrashed,
    EngineError,
    EngineTimeout,
    GtpError,
    IllegalAction,
    IllegalMove,
    InvalidInput,
)
from duiyi.games import GO
from duiyi.go import Game, Phase, Point, Rules
from duiyi.gtp.clock import time_left as gtp_time_left
from duiyi.gtp.clock import time_settings as gtp_time_settings
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee import RulingRequest, requests
from duiyi.session import Session
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
    game = Game(settings.size, settings.rules, settings.handicap)
    started = await asyncio.gather(
        _start(black, settings.start_timeout), _start(white, settings.start_timeout)
    )
    engines, failed = sort_launched(dict(zip((BLACK, WHITE), started, strict=True)))
    labels = {
        BLACK: names[0] or engine_label(black),
        WHITE: names[1] or engine_label(white),
    }
    for color, eng in engines.items():
        if names[0 if color is BLACK else 1] is None:
            labels[color] = await _engine_name(eng)
    conduct = _GtpConduct(settings, game, engines)
    clock = Clock(settings.time, to_move=game.to_move, now=0.0)
    try:
        done = await play_refereed(
            GO,
            game,
            clock,
            engines,
            conduct,
            position=lambda: game,
            absent={c: str(e) for c, e in failed.items()},
        )
    finally:
        await asyncio.gather(*(e.quit() for e in engines.values()), return_exceptions=True)
    assert done.outcome is not None
    used = done.used
    return EngineGameRecord(
        number,
        labels[BLACK],
        labels[WHITE],
        None,
        tuple("pass" if p is None else str(p) for _, p in game.moves),
        done.outcome,
        done.reason,
        used_ms=(round(used[BLACK] * 1000), round(used[WHITE] * 1000)),
        dead_source=conduct.dead_source,
        final=game,
    )


class _GtpConduct:
    """GTP's part of a refereed Go game (:class:`duiyi.engines.refereed.Conduct`): the set-up
    commands, ``time_left``, the rulings on an engine's failures, the match's adjudication
    and the count from ``final_status_list dead``."""

    def __init__(self, settings: MatchSettings, game: Game, engines: dict[Color, GtpEngine]):
        self.settings = settings
        self.game = game
        self.engines = engines
        self.tolerance = settings.tolerance
        self.move_timeout = settings.move_timeout
        self.timed = not isinstance(settings.time, NoTime)
        self.limit = settings.max_moves_or_default()
        self.ahead: tuple[Color | None, int] = (None, 0)
        self.dead_source: str | None = None

    async def set_up(self, players: Mapping[Color, Player]) -> None:
        game, system = self.game, self.settings.time
        komi = effective_komi_points(game)
        settings_cmd = gtp_time_settings(system).args if self.timed else None
        for color, eng in self.engines.items():
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
                why = f"{color} engine refused the game's set-up: {exc}"
                raise Ruled(requests.Forfeit(color, "Go §23", note=why)) from exc
            except EngineError as exc:
                why = f"{color} engine failed during set-up: {exc}"
                raise Ruled(requests.Withdrawal(color, note=why)) from exc

    def limits(self, clock: Clock, color: Color, now: float, wait: float) -> Limits:
        told = gtp_time_left(clock, color, now).args if self.timed else None
        return Limits(wait, float(told[1]), int(told[2])) if told else Limits(wait)

    def failure(self, color: Color, exc: Exception, moves: int, wait: float) -> RulingRequest:
        """A crash or silence withdraws (Go §28); nonsense, or refusing the opponent's legal
        move, breaks the rules of play (Go §23)."""
        if isinstance(exc, PositionRefused):
            if exc.step != "time_left" and isinstance(exc.cause, GtpError):
                why = f"{color} engine refused a legal move {exc.move}: {exc.cause}"
                return requests.Forfeit(color, "Go §23", note=why)
            what = "failed on time_left" if exc.step == "time_left" else "failed"
            return requests.Withdrawal(color, note=f"{color} engine {what}: {exc.cause}")
        if isinstance(exc, EngineTimeout):
            return requests.Withdrawal(color, note=f"{color} engine was silent for {wait:g} s")
        if isinstance(exc, EngineCrashed):
            why = f"{color} engine crashed at move {moves + 1}: {exc}"
            return requests.Withdrawal(color, note=why)
        why = f"{color} engine answered genmove wrongly: {exc}"
        return requests.Forfeit(color, "Go §23", note=why)

    def illegal(self, color: Color, exc: IllegalAction | InvalidInput) -> RulingRequest:
        article = exc.article or "Go §19"
        return requests.Forfeit(color, article, note=f"{color} played an illegal move: {exc}")

    def late(self, color: Color, elapsed: float | None) -> str:
        if elapsed is None:
            return f"{color} did not move before its flag fell"
        return f"{color} took {elapsed:.3f} s, its flag fell"

    def after_move(self, session: Session) -> None:
        game = self.game
        if len(game.moves) >= self.limit:
            _adjudicate(game, f"move limit {self.limit} reached: counted with duiyi's proposal")
        if self.settings.resign_margin is not None:
            self.ahead = _resign_check(game, self.settings, self.ahead)

    async def count(self, session: Session, players: Mapping[Color, Player]) -> None:
        """Dead stones: both engines' ``final_status_list dead`` when they agree, else duiyi's;
        marked and accepted through the session (Go §8, §21)."""
        game, at = self.game, session.now
        lists: list[frozenset[Point]] = []
        for color in (BLACK, WHITE):
            try:
                timeout = self.move_timeout
                dead = await self.engines[color].final_status_list("dead", timeout=timeout)
                lists.append(frozenset(dead))
            except (EngineError, GtpError):
                break  # an engine that cannot say: duiyi's proposal
        source = "duiyi"
        if len(lists) == 2 and lists[0] == lists[1]:
            try:
                session.apply(SetDead(_texts(lists[0])), at, BLACK)
                source = "engines"
            except (IllegalMove, InvalidInput):  # not whole chains, or off the board: duiyi's
                source = "duiyi"
        if source == "duiyi":
            session.apply(SetDead(_texts(game.propose_dead())), at, BLACK)
        session.accept(BLACK, at)
        session.accept(WHITE, at)
        self.dead_source = source

    def describe(self, outcome: Outcome) -> str:
        if outcome.termination is Termination.RESIGNATION:
            assert outcome.loser is not None
            return f"{outcome.loser} resigned"
        if outcome.termination is Termination.COUNT:
            agreed = (
                "agreed by both engines" if self.dead_source == "engines" else "duiyi's proposal"
            )
            return f"counted after two passes, dead stones: {agreed}"
        return str(outcome.termination.value)


def _texts(points: frozenset[Point]) -> tuple[str, ...]:
    return tuple(str(p) for p in sorted(points, key=lambda p: (p.row, p.col)))


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
        raise Adjudicated(Outcome.draw(Termination.ADJUDICATION, article), reason + " (a draw)")
    winner = BLACK if margin > 0 else WHITE
    raise Adjudicated(
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
        raise Adjudicated(
            Outcome.win(leader, Termination.ADJUDICATION, "Go §9"),
            f"adjudicated: {leader} ahead by at least {settings.resign_margin:g} points "
            f"for {count} moves (duiyi's count)",
        )
    return (leader, count)


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
