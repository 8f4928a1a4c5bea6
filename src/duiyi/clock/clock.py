"""The game clock: two players' time under one :class:`~duiyi.clock.systems.TimeSystem`.

Every call takes ``now``, a monotonic time in seconds chosen by the caller (the server's
monotonic clock, a test's numbers); the clock never reads a wall clock and refuses time going
backwards.

>>> from duiyi import BLACK, WHITE
>>> from duiyi.clock import ChineseByoyomi
>>> c = Clock(ChineseByoyomi(base=3600, reserved_minutes=5), to_move=BLACK, now=0.0)
>>> c.press(BLACK, now=75.0)
>>> c.remaining(BLACK, 80.0).base, c.remaining(WHITE, 80.0).base
(3525.0, 3595.0)
>>> c.flagged(80.0) is None
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.clock.systems import (
    PlayerTime,
    ScheduledCall,
    TimeLeft,
    TimeSystem,
    system_from_json,
)
from duiyi.errors import ClockError, InvalidInput

__all__ = ["Call", "Clock", "Lateness", "even_split", "proportional_correction"]


@dataclass(frozen=True)
class Call:
    """A spoken call: what the arbiter says (``zh``/``en``), when (``at``, monotonic seconds),
    to whom (``color``) and what it means (``kind``, see :class:`CallKind`).

    >>> Call(30.0, BLACK, "seconds", "30秒", "30 seconds").text("en")
    '30 seconds'
    """

    at: float
    color: Color
    kind: str
    zh: str
    en: str

    def text(self, lang: str = "zh") -> str:
        """The call in ``"zh"`` or ``"en"``."""
        return self.en if lang == "en" else self.zh

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        return {
            "at": self.at,
            "color": self.color.value,
            "kind": self.kind,
            "zh": self.zh,
            "en": self.en,
        }


@dataclass(frozen=True)
class Lateness:
    """How lateness at the start is treated.

    ``factor`` times the late time is taken from the late player's time, and a player later
    than ``limit`` seconds (``None``: no limit) forfeits. Arriving exactly at the limit is in
    time (Go §22.1: "不得超过1小时(含)"). ``factor`` 0 is natural timing (自然计时, Go §22.1
    after an adjournment, §22.4): nothing is taken beyond what the late player's own running
    clock already took.

    >>> Lateness.go().factor, Lateness.go().limit, Lateness.go(same_site=True).limit
    (2, 3600.0, 900.0)
    >>> Lateness.gomoku(limit=1800).factor, Lateness.natural().factor
    (1, 0)
    """

    factor: int = 1
    limit: float | None = None
    article: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.factor, bool) or not isinstance(self.factor, int) or self.factor < 0:
            raise InvalidInput(f"lateness factor must be an integer >= 0, got {self.factor!r}")
        if self.limit is not None and (math.isnan(self.limit) or self.limit < 0):
            raise InvalidInput(f"lateness limit must be >= 0 seconds, got {self.limit!r}")
        if self.limit is not None:
            object.__setattr__(self, "limit", float(self.limit))

    @classmethod
    def go(cls, same_site: bool = False) -> Lateness:
        """Go §22.1-2: late time is taken twice; past 1 h (venue away from the lodging) or
        15 min (venue at the lodging) the game is lost."""
        if same_site:
            return cls(2, 900.0, "Go §22.2")
        return cls(2, 3600.0, "Go §22.1")

    @classmethod
    def gomoku(cls, limit: float | None = 900.0) -> Lateness:
        """Gomoku §8.5: late time is taken once; past the event's limit the game is lost."""
        return cls(1, limit, "Gomoku §8.5")

    @classmethod
    def natural(cls) -> Lateness:
        """Go §22.4 (fast games) and after an adjournment (Go §22.1): the clock just runs; a
        late player loses only what its own running clock took, and may sit down while its
        byo-yomi still runs (棋手在读秒过程中入座，允许参加比赛)."""
        return cls(0, None, "Go §22.4")

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        return {"factor": self.factor, "limit": self.limit, "article": self.article}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lateness:
        """Rebuild from :meth:`to_json`."""
        limit = data.get("limit")
        return cls(
            int(data["factor"]),
            float(limit) if limit is not None else None,
            str(data.get("article", "")),
        )


def proportional_correction(
    shown_black: float, shown_white: float, actual_elapsed: float
) -> tuple[float, float]:
    """Go §22.8: a faulty clock's used times, scaled so that they add up to the real elapsed
    time ("参照双方已用时间按比例拨正时间").

    >>> proportional_correction(2400, 1200, 3000)
    (2000.0, 1000.0)
    """
    total = shown_black + shown_white
    if shown_black < 0 or shown_white < 0 or actual_elapsed < 0:
        raise InvalidInput("used times and elapsed time must be >= 0")
    if total == 0:
        return even_split(actual_elapsed)
    return (actual_elapsed * shown_black / total, actual_elapsed * shown_white / total)


def needs_replacement(shown_total: float, actual_elapsed: float) -> bool:
    """Go §22.8: a clock whose readings are off by 2 minutes per hour or more must be replaced
    (and corrected in proportion).

    >>> needs_replacement(3600 + 120, 3600), needs_replacement(3600 + 119, 3600)
    (True, False)
    """
    if actual_elapsed <= 0:
        return False
    return abs(shown_total - actual_elapsed) >= 120.0 * actual_elapsed / 3600.0


def even_split(actual_elapsed: float) -> tuple[float, float]:
    """Go §22.9: with no written record of the first half, its time is shared equally.

    >>> even_split(3000)
    (1500.0, 1500.0)
    """
    return (actual_elapsed / 2.0, actual_elapsed / 2.0)


@functools.lru_cache(maxsize=512)
def _schedule(system: TimeSystem, pt: PlayerTime) -> tuple[ScheduledCall, ...]:
    """A turn's calls depend only on the system and the time at its start: cache them."""
    return tuple(system.schedule(pt))


def _check_now(now: float) -> float:
    try:
        t = float(now)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"now must be a number of seconds, got {now!r}") from exc
    if math.isnan(t) or math.isinf(t):
        raise InvalidInput(f"now must be a finite number of seconds, got {now!r}")
    return t


class Clock:
    """A two-player game clock (Go §12, §14, §22; Gomoku §8).

    ``to_move`` is who moves (and presses) first; its time runs from ``now`` (``None``: the
    clock starts stopped; call :meth:`start`). ``lateness`` and ``absent`` set up lateness at
    the start (Go §22.1-4, Gomoku §8.5). Under a start-of-game rule (``factor`` >= 1) it is an
    absent player's time that runs, never the present player's, even when the present player
    is to move (Gomoku §8.5: "即使在席的一方不行棋，对方不在席的表也要打开"; Go §22 is silent
    and is read the same way); on :meth:`arrive` the late player is charged ``factor`` × its
    lateness in all. Under natural timing (``factor`` 0, Go §22.1 after an adjournment,
    §22.4) the clock just runs for the player to move (:attr:`running_color`).

    >>> from duiyi.clock import Absolute
    >>> c = Clock(Absolute(600), now=0.0)
    >>> c.press(BLACK, 10.0); c.press(WHITE, 30.0)
    >>> c.used(BLACK, 30.0), c.used(WHITE, 30.0)
    (10.0, 20.0)
    """

    def __init__(
        self,
        system: TimeSystem,
        to_move: Color | None = BLACK,
        now: float = 0.0,
        *,
        lateness: Lateness | None = None,
        absent: frozenset[Color] | set[Color] | tuple[Color, ...] = (),
    ) -> None:
        if not isinstance(system, TimeSystem):
            raise InvalidInput(f"not a time system: {system!r}")
        now = _check_now(now)
        self.system = system
        self.lateness = lateness or Lateness.natural()
        self._start = now
        self._now = now
        self._states: dict[Color, PlayerTime] = {BLACK: system.initial(), WHITE: system.initial()}
        self._split = False
        self._to_move = to_move
        self._turn_used = 0.0
        self._since: float | None = now if to_move is not None else None
        self._paused = False
        self._used: dict[Color, float] = {BLACK: 0.0, WHITE: 0.0}
        self._adjusted: dict[Color, float] = {BLACK: 0.0, WHITE: 0.0}
        self._moves: dict[Color, int] = {BLACK: 0, WHITE: 0}
        self._absent: set[Color] = set(absent)
        self._late: dict[Color, float] = {}
        self._runner: Color | None = self._pick_runner()
        self._paused_total = 0.0
        self._pause_since: float | None = None
        # the last press, while it can still be taken back (Go §17.3): who pressed, its time
        # before the press and how long its turn had run
        self._last_press: tuple[Color, PlayerTime, float] | None = None
        # each player's presses a takeback by agreement may still reverse (issue 21): its time
        # before the press, how long that turn ran, and the arbiter's net adjustment then;
        # emptied when the player's time is set outright (a stop, an arrival, Go §22.5, Go
        # §22.8, Gomoku §8.1)
        self._presses: dict[Color, list[tuple[PlayerTime, float, float]]] = {BLACK: [], WHITE: []}

    # ------------------------------------------------------------------ reading

    @property
    def to_move(self) -> Color | None:
        """Who presses next; ``None`` when stopped. Their time runs (or would run, when
        paused), except while an absent opponent's runs instead (:attr:`running_color`)."""
        return self._to_move

    @property
    def running_color(self) -> Color | None:
        """Whose time runs (or would run, when paused); ``None`` when stopped.

        The player to move, except during lateness at the start under a rule that charges it
        (Gomoku §8.5, Go §22.1-3): then an absent player's time runs, never a present one's.

        >>> from duiyi.clock import Absolute
        >>> c = Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={WHITE})
        >>> c.to_move, c.running_color
        (Color.BLACK, Color.WHITE)
        """
        return self._runner

    def _pick_runner(self) -> Color | None:
        """Whose time should run now: the player to move, unless it is present while its
        opponent is absent under a lateness rule that charges the late time (factor >= 1):
        then the absent opponent's (Gomoku §8.5 "对方不在席的表也要打开", "有一方到场后，则打开
        对方的表"). Both absent: the player to move's (the arbiter "打开一方的表")."""
        mover = self._to_move
        if mover is None or self.lateness.factor == 0 or mover in self._absent:
            return mover
        if mover.opponent in self._absent:
            return mover.opponent
        return mover

    @property
    def running(self) -> bool:
        """True while someone's time runs (not paused, not stopped)."""
        return self._since is not None

    @property
    def paused(self) -> bool:
        """True between :meth:`pause` and :meth:`resume`."""
        return self._paused

    @property
    def start_time(self) -> float:
        """The ``now`` the clock was created with (the official start of the game)."""
        return self._start

    @property
    def shared(self) -> bool:
        """True while both players draw on one pool (a SharedPool not yet split)."""
        return self.system.shared and not self._split

    @property
    def absent(self) -> frozenset[Color]:
        """Players who have not arrived yet."""
        return frozenset(self._absent)

    def lateness_of(self, color: Color) -> float | None:
        """How late ``color`` arrived (seconds), or None if on time or not arrived."""
        return self._late.get(color)

    def moves(self, color: Color) -> int:
        """How many times ``color`` pressed the clock."""
        return self._moves[color]

    def _check(self, now: float) -> float:
        t = _check_now(now)
        if t < self._now - 1e-9:
            raise ClockError(f"time went backwards: {t:g} < {self._now:g}")
        return max(t, self._now)

    def turn_elapsed(self, now: float) -> float:
        """Seconds the current turn has run so far (pauses excluded)."""
        now = _check_now(now)
        if self._since is None:
            return self._turn_used
        return self._turn_used + max(now - self._since, 0.0)

    def state(self, color: Color) -> PlayerTime:
        """``color``'s time at the start of its current (or next) turn."""
        return self._states[color]

    def remaining(self, color: Color, now: float) -> TimeLeft:
        """``color``'s clock reading at ``now`` (with a shared pool, both read the same pool).

        >>> from duiyi.clock import Absolute
        >>> Clock(Absolute(60), now=0.0).remaining(BLACK, 61.0).flagged
        True
        """
        running = color is self._runner or (self.shared and self._runner is not None)
        t = self.turn_elapsed(now) if running else 0.0
        return self.system.view(self._states[color], t)

    def used(self, color: Color, now: float) -> float:
        """Seconds ``color``'s clock has run in total (its own turns, and its absence at the
        start when that runs its clock; penalties excluded)."""
        t = self.turn_elapsed(now) if color is self._runner else 0.0
        return self._used[color] + t

    def elapsed(self, now: float) -> float:
        """Seconds since the start, pauses excluded."""
        now = _check_now(now)
        paused = self._paused_total
        if self._pause_since is not None:
            paused += max(now - self._pause_since, 0.0)
        return max(now - self._start - paused, 0.0)

    def flag_time(self) -> float | None:
        """The ``now`` at which the running player's flag falls if nobody presses, or None."""
        if self._since is None or self._runner is None:
            return None
        limit = self.system.flag_after(self._states[self._runner])
        if math.isinf(limit):
            return None
        at = self._since + (limit - self._turn_used)
        # floating point: make sure the flag has really fallen at the time we report
        while self._turn_used + (at - self._since) < limit:
            at = math.nextafter(at, math.inf)
        return at

    def flagged(self, now: float) -> Color | None:
        """The player whose time is up at ``now`` (the one to move first), or None.

        >>> from duiyi.clock import Absolute
        >>> c = Clock(Absolute(60), now=0.0)
        >>> c.flagged(59.9), c.flagged(60.0)
        (None, Color.BLACK)
        """
        order = [self._runner] if self._runner is not None else []
        order += [c for c in (BLACK, WHITE) if c is not self._runner]
        for color in order:
            t = self.turn_elapsed(now) if color is self._runner else 0.0
            if t >= self.system.flag_after(self._states[color]):
                return color
        return None

    def late_forfeits(self, now: float) -> frozenset[Color]:
        """Players still absent later than the lateness limit at ``now`` (Go §22.1-3,
        Gomoku §8.5); both absent means both lose."""
        now = _check_now(now)
        limit = self.lateness.limit
        if limit is None or now - self._start <= limit:
            return frozenset()
        return frozenset(self._absent)

    def lateness_deadline(self) -> float | None:
        """The ``now`` after which absent players forfeit, or None."""
        if not self._absent or self.lateness.limit is None:
            return None
        return self._start + self.lateness.limit

    def calls(self, color: Color, now: float) -> Iterator[Call]:
        """The arbiter's calls for ``color`` from ``now`` on, if nobody presses (Go §12.3).

        Nothing is called for a player whose time is not running.

        >>> from duiyi.clock import ChineseByoyomi
        >>> c = Clock(ChineseByoyomi(base=0, reserved_minutes=2), now=100.0)
        >>> [(x.at, x.zh) for x in c.calls(BLACK, 100.0)][:6]
        [(130.0, '30秒'), (140.0, '40秒'), (150.0, '50秒'), (155.0, '55秒'), (158.0, '58秒'), (160.0, '1分钟，还剩1分钟')]
        """
        return self.calls_between(color, now, math.inf, include_start=True)

    def calls_between(
        self, color: Color, after: float, until: float, *, include_start: bool = False
    ) -> Iterator[Call]:
        """The calls for ``color`` due in ``(after, until]`` (``[after, until]`` with
        ``include_start``), if nobody presses in between."""
        if color is not self._runner or self._since is None:
            return
        base = self._since - self._turn_used
        for sc in _schedule(self.system, self._states[color]):
            at = base + sc.offset
            if (at > after or (include_start and at >= after)) and at <= until:
                yield Call(at, color, sc.kind, sc.zh, sc.en)

    # ------------------------------------------------------------------ pressing

    def press(self, color: Color, now: float) -> None:
        """``color`` has finished its move: its time stops and the opponent's runs.

        Raises :class:`ClockError` for the wrong player, a paused or stopped clock, or a flag
        that has already fallen (Go §12.3: "10" called as the stone lands is too late).
        """
        now = self._check(now)
        if self._to_move is None:
            raise ClockError("the clock is stopped; start it first")
        if color is not self._to_move:
            raise ClockError(f"{color} pressed, but it is {self._to_move}'s turn to press")
        if self._paused:
            raise ClockError("the clock is paused (Go §14); resume it first", "Go §14")
        if color in self._absent:
            raise ClockError(
                f"{color} has not arrived yet (arrive first)", self.lateness.article or None
            )
        pt = self._states[color]
        if self._runner is not color:
            # the present player moves while the absent opponent's time runs (Gomoku §8.5):
            # the move costs nothing and the opponent's time keeps running
            if self.system.flag_after(pt) <= 0:
                raise ClockError(f"{color}'s time has run out", "Go §12.4")
            if not self.shared:
                self._states[color] = self.system.spend(pt, 0.0)
            self._presses[color].append((pt, 0.0, self._adjusted[color]))
            self._moves[color] += 1
            self._now = now
            self._to_move = color.opponent
            self._runner = self._pick_runner()
            self._last_press = None
            return
        t = self.turn_elapsed(now)
        if t >= self.system.flag_after(pt):
            raise ClockError(
                f"{color}'s time ran out at {self.flag_time():g}, before the press at {now:g}",
                "Go §12.3" if self.system.has_overtime else "Go §12.4",
            )
        self._states[color] = self.system.spend(pt, t)
        if self.shared:
            self._states[color.opponent] = self._states[color]
        self._end_turn(color, t, now)
        self._to_move = color.opponent
        self._runner = self._pick_runner()
        self._since = now
        self._last_press = (color, pt, t)
        self._presses[color].append((pt, t, self._adjusted[color]))

    def can_unpress(self, color: Color) -> bool:
        """Whether :meth:`unpress` can take back ``color``'s last press: it was the clock's
        last change and the opponent's turn it started is still the one running.

        >>> from duiyi.clock import Absolute
        >>> c = Clock(Absolute(600), now=0.0)
        >>> c.press(BLACK, 10.0)
        >>> c.can_unpress(BLACK), c.can_unpress(WHITE)
        (True, False)
        """
        last = self._last_press
        return last is not None and last[0] is color and self._to_move is color.opponent

    def unpress(self, color: Color, now: float) -> None:
        """Take back ``color``'s last press (Go §17.3: a dropped stone picked up, the dropper
        chooses again): the opponent's time since that press is charged to nobody (an incident
        the arbiter settles, like a pause, Go §14) and ``color``'s turn goes on as it stood when
        it pressed. A hand-back is never a flag: ``color`` pressed in time.

        >>> from duiyi.clock import ChineseByoyomi
        >>> c = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
        >>> c.press(BLACK, 50.0)          # 50 s into Black's last minute
        >>> c.unpress(BLACK, 55.0)        # the stone had dropped: Black chooses again
        >>> c.to_move, c.remaining(BLACK, 55.0).period_time, c.used(WHITE, 55.0)
        (Color.BLACK, 10.0, 0.0)
        """
        now = self._check(now)
        if not self.can_unpress(color):
            raise ClockError(
                f"{color}'s last press cannot be taken back: the clock changed since (Go §17.3)",
                "Go §17.3",
            )
        assert self._last_press is not None
        _, before, t = self._last_press
        self._states[color] = before
        if self.shared:
            self._states[color.opponent] = before
        self._used[color] -= t
        self._moves[color] -= 1
        if self._presses[color]:
            self._presses[color].pop()
        self._to_move = color
        self._runner = self._pick_runner()
        self._turn_used = t
        self._since = None if self._paused else now
        self._last_press = None
        self._now = now

    def take_back(self, color: Color, presses: int, now: float) -> int:
        """A takeback by agreement (issue 21) removed ``color``'s last ``presses`` moves: they
        no longer count as moves of a quota (moves per period, Go §12.5; Gomoku §8.2) nor
        earn an increment, and the time they took stays used (docs/decisions.md). ``color``'s
        time goes back to where it stood before the first of them, less their thinking time
        charged as a turn stopped without a move (:meth:`TimeSystem.interrupt`), with the
        arbiter's adjustments since kept. Only presses since ``color``'s time was last set
        outright are reversed (a stop, an arrival, the Go §22.5 pass, a reading set by the
        arbiter, a split pool); a shared pool keeps its reading. Returns the presses reversed.

        >>> from duiyi.clock import MovesPerPeriod
        >>> c = Clock(MovesPerPeriod(base=0, moves=5, period=300), now=0.0)
        >>> c.press(BLACK, 40.0); c.press(WHITE, 50.0)
        >>> c.remaining(BLACK, 50.0).periods      # moves still due in Black's period
        4
        >>> c.take_back(BLACK, 1, 60.0)           # agreed 10 s into Black's turn
        1
        >>> c.remaining(BLACK, 60.0).periods, c.remaining(BLACK, 60.0).base, c.moves(BLACK)
        (5, 250.0, 0)
        """
        now = self._check(now)
        history = self._presses[color]
        n = min(max(int(presses), 0), len(history))
        if n == 0:
            return 0
        taken = history[-n:]
        del history[-n:]
        self._moves[color] -= n
        self._last_press = None
        self._now = now
        if self.shared:
            return n
        before, _, adjusted = taken[0]
        pt = self.system.interrupt(before, sum(t for _, t, _ in taken))
        since = self._adjusted[color] - adjusted  # the arbiter's changes since stay
        if since > 0:
            pt = self.system.add(pt, since)
        elif since < 0:
            pt = self.system.deduct(pt, -since)
        self._states[color] = pt
        return n

    def _forget_presses(self) -> None:
        for history in self._presses.values():
            history.clear()

    def _end_turn(self, color: Color, t: float, now: float) -> None:
        self._used[color] += t
        self._moves[color] += 1
        self._turn_used = 0.0
        self._now = now

    def overtime_pass(self, color: Color, now: float) -> None:
        """Go §22.5: ``color`` overstepped its last minute and asked to count it as a pass;
        it keeps the last period and the opponent's time runs. (The pass and the warning are
        the session's and the referee's business.)"""
        now = self._check(now)
        if color is not self._to_move or color is not self._runner:
            raise ClockError(f"only the player whose time runs can pass on overtime, not {color}")
        if not self.system.has_overtime:
            self.system.last_period(self._states[color])  # raises the explanation
        if self.flagged(now) is not color:
            raise ClockError(f"{color} has not overstepped the last minute", "Go §22.5")
        t = self.turn_elapsed(now)
        self._states[color] = self.system.last_period(self._states[color])
        self._end_turn(color, t, now)
        self._moves[color] -= 1  # not a move
        self._last_press = None
        self._presses[color].clear()
        self._to_move = color.opponent
        self._runner = self._pick_runner()
        self._since = None if self._paused else now

    # ------------------------------------------------------------------ stop, start, pause

    def pause(self, now: float) -> None:
        """Go §14: stop both times for a pause or an adjournment (time does not count)."""
        now = self._check(now)
        if self._paused:
            raise ClockError("the clock is already paused")
        if self._since is not None:
            self._turn_used += now - self._since
            self._since = None
        self._paused = True
        self._pause_since = now
        self._now = now

    def resume(self, now: float) -> None:
        """Go §14: restart the clock after a pause, with the same player's time running."""
        now = self._check(now)
        if not self._paused:
            raise ClockError("the clock is not paused")
        self._paused = False
        if self._pause_since is not None:
            self._paused_total += now - self._pause_since
            self._pause_since = None
        if self._to_move is not None:
            self._since = now
        self._now = now

    def stop(self, now: float, *, whole_periods: bool = False) -> None:
        """Stop the clock for good or until :meth:`start` (the game ends, play stops for
        counting, Go §12.4(4)). The running turn's time is charged to its player as time used
        (:meth:`TimeSystem.interrupt`): a started byo-yomi period is not charged as a whole
        one (Go §12.3), so a stop is never a flag. A move that ends play (the second pass, a
        five) presses first (:meth:`press`).

        >>> from duiyi.clock import ChineseByoyomi
        >>> c = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
        >>> c.stop(5.0)
        >>> c.remaining(BLACK, 5.0).periods, c.flagged(5.0)
        (1, None)

        ``whole_periods=True`` charges a started period as a whole one, as duiyi did before
        2026-11-27; kept only so that sessions logged then replay as they were played.
        """
        now = self._check(now)
        if self._paused:
            self.resume(now)
        self._last_press = None
        self._forget_presses()
        color = self._runner
        if color is None:
            return
        t = self.turn_elapsed(now)
        pt = self._states[color]
        charge = self.system.deduct if whole_periods else self.system.interrupt
        self._states[color] = charge(pt, t) if t > 0 else pt
        if self.shared:
            self._states[color.opponent] = self._states[color]
        self._used[color] += t
        self._turn_used = 0.0
        self._since = None
        self._to_move = None
        self._runner = None
        self._now = now

    def start(self, color: Color, now: float) -> None:
        """Start ``color``'s time on a stopped clock (e.g. play resumes after a dispute over
        dead stones, Go §21.4)."""
        now = self._check(now)
        if self._to_move is not None:
            raise ClockError(f"the clock already runs for {self._to_move}")
        self._last_press = None
        self._to_move = color
        self._runner = self._pick_runner()
        self._turn_used = 0.0
        self._since = None if self._paused else now
        self._now = now

    # ------------------------------------------------------------------ the arbiter

    def arrive(self, color: Color, now: float) -> float:
        """``color`` arrives late: it is charged ``factor`` × the lateness in all (Go §22.1:
        twice, Gomoku §8.5: once), counting what its own clock ran while it was absent; the
        present player is never charged. Returns the lateness.

        While a player is absent its clock runs, not the present player's (Gomoku §8.5); on
        arrival the clock runs for the player to move again (or for the other player, if it
        is still absent: "有一方到场后，则打开对方的表").

        >>> from duiyi.clock import Absolute
        >>> c = Clock(Absolute(3600), now=0.0, lateness=Lateness.go(), absent={WHITE})
        >>> c.arrive(WHITE, 600.0)
        600.0
        >>> c.remaining(BLACK, 600.0).base, c.remaining(WHITE, 600.0).base
        (3600.0, 2400.0)

        Raises :class:`ClockError` if ``color`` is past the limit (the game is forfeit).
        """
        now = self._check(now)
        if color not in self._absent:
            raise ClockError(f"{color} is not marked absent")
        late = now - self._start
        limit = self.lateness.limit
        if limit is not None and late > limit:
            raise ClockError(
                f"{color} is {late:g} s late, past the {limit:g} s limit: the game is lost",
                self.lateness.article or None,
            )
        extra = max(self.lateness.factor * late - self.used(color, now), 0.0)
        self._last_press = None
        self._forget_presses()
        old = self._runner
        self._absent.discard(color)
        self._late[color] = late
        self._runner = self._pick_runner()
        if old is not None and self._runner is not old:
            # the absent player's clock stops and the other one's starts: what it ran is
            # charged to it as time outside a move (with the late player's extra, at once)
            t = self.turn_elapsed(now)
            take = t + (extra if old is color else 0.0)
            if take > 0:
                self._charge(old, take)
            if old is color:
                self._adjusted[color] -= extra
                extra = 0.0
            self._used[old] += t
            self._turn_used = 0.0
            if self._since is not None:
                self._since = now
        if extra > 0:
            self._charge(color, extra)
            self._adjusted[color] -= extra
        self._now = now
        return late

    def _charge(self, color: Color, seconds: float) -> None:
        """Take ``seconds`` from ``color`` outside a move (the whole pool when shared)."""
        self._last_press = None
        self._states[color] = self.system.deduct(self._states[color], seconds)
        if self.shared:
            self._states[color.opponent] = self._states[color]

    def adjust(self, color: Color, seconds: float, now: float) -> None:
        """The arbiter gives (``seconds > 0``) or takes (``< 0``) time: a faulty clock (Go §22.8,
        Gomoku §8.7), a time penalty (Gomoku §12.3(3)A)."""
        now = self._check(now)
        s = float(seconds)
        if math.isnan(s) or math.isinf(s):
            raise InvalidInput(f"adjustment must be a finite number of seconds, got {seconds!r}")
        pt = self._states[color]
        self._states[color] = self.system.add(pt, s) if s >= 0 else self.system.deduct(pt, -s)
        if self.shared:
            self._states[color.opponent] = self._states[color]
        self._adjusted[color] += s
        self._last_press = None
        self._now = now

    def adjustments(self, color: Color) -> float:
        """The net seconds the arbiter (and lateness) added to (+) or took from (-) ``color``."""
        return self._adjusted[color]

    def set_remaining(
        self, color: Color, base: float, now: float, periods: int | None = None
    ) -> None:
        """The arbiter sets ``color``'s reading (a replaced clock, Go §22.8); if ``color``'s time
        is running, its turn restarts from this reading."""
        now = self._check(now)
        if base < 0 or math.isnan(base) or math.isinf(base):
            raise InvalidInput(f"remaining time must be finite and >= 0, got {base!r}")
        if periods is not None and periods < 0:
            raise InvalidInput(f"periods must be >= 0, got {periods!r}")
        self._last_press = None
        self._forget_presses()
        if color is self._runner:
            t = self.turn_elapsed(now)
            self._used[color] += t
            self._turn_used = 0.0
            if self._since is not None:
                self._since = now
        pt = self._states[color]
        self._states[color] = PlayerTime(
            float(base), pt.periods if periods is None else periods, pt.stage
        )
        if self.shared:
            self._states[color.opponent] = self._states[color]
        self._now = now

    def split_pool(self, now: float) -> float:
        """Gomoku §8.1: the arbiter gives each side half of what is left of the shared pool
        ("每方时限为所剩共用时间的一半"). Returns each side's share.

        >>> from duiyi.clock import SharedPool
        >>> c = Clock(SharedPool(3600), now=0.0)
        >>> c.press(BLACK, 600.0)
        >>> c.split_pool(1000.0)   # 3600 - 1000 used = 2600 left, half each
        1300.0
        >>> c.remaining(WHITE, 1000.0).base, c.remaining(BLACK, 1000.0).base
        (1300.0, 1300.0)
        """
        now = self._check(now)
        if not self.shared:
            raise ClockError(
                "only a shared time pool that is not split yet can be split", "Gomoku §8.1"
            )
        left = self.remaining(self._runner or BLACK, now).base
        half = left / 2.0
        if self._runner is not None:
            t = self.turn_elapsed(now)
            self._used[self._runner] += t
            self._turn_used = 0.0
            if self._since is not None:
                self._since = now
        self._states = {BLACK: PlayerTime(half), WHITE: PlayerTime(half)}
        self._split = True
        self._last_press = None
        self._forget_presses()
        self._now = now
        return half

    # ------------------------------------------------------------------ (de)serialisation

    def to_json(self) -> dict[str, Any]:
        """A snapshot of the whole clock (stable, versioned)."""
        out: dict[str, Any] = {
            "v": 1,
            "system": self.system.to_json(),
            "lateness": self.lateness.to_json(),
            "start": self._start,
            "now": self._now,
            "states": {c.value: self._states[c].to_json() for c in (BLACK, WHITE)},
            "split": self._split,
            "to_move": self._to_move.value if self._to_move else None,
            "turn_used": self._turn_used,
            "since": self._since,
            "paused": self._paused,
            "pause_since": self._pause_since,
            "paused_total": self._paused_total,
            "used": {c.value: self._used[c] for c in (BLACK, WHITE)},
            "adjusted": {c.value: self._adjusted[c] for c in (BLACK, WHITE)},
            "moves": {c.value: self._moves[c] for c in (BLACK, WHITE)},
            "absent": sorted(c.value for c in self._absent),
            "late": {c.value: v for c, v in self._late.items()},
        }
        if self._last_press is not None:
            who, before, t = self._last_press
            out["last_press"] = {"color": who.value, "before": before.to_json(), "turn": t}
        if any(self._presses.values()):  # absent otherwise: snapshots read as before
            out["presses"] = {
                c.value: [
                    {"before": pt.to_json(), "turn": t, "adjusted": adj}
                    for pt, t, adj in self._presses[c]
                ]
                for c in (BLACK, WHITE)
            }
        if self._runner is not self._to_move:
            # an absent player's time runs (Gomoku §8.5); absent otherwise, so snapshots of
            # clocks without lateness read as before
            out["runner"] = self._runner.value if self._runner else None
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        """Rebuild a clock from :meth:`to_json`."""
        try:
            if data.get("v") != 1:
                raise InvalidInput(f"unsupported clock version {data.get('v')!r}")
            clock = cls(
                system_from_json(data["system"]),
                None,
                float(data["start"]),
                lateness=Lateness.from_json(data["lateness"]),
            )
            clock._now = float(data["now"])
            clock._states = {Color(k): PlayerTime.from_json(v) for k, v in data["states"].items()}
            clock._split = bool(data["split"])
            clock._to_move = Color(data["to_move"]) if data["to_move"] else None
            clock._turn_used = float(data["turn_used"])
            clock._since = None if data["since"] is None else float(data["since"])
            clock._paused = bool(data["paused"])
            ps = data.get("pause_since")
            clock._pause_since = None if ps is None else float(ps)
            clock._paused_total = float(data.get("paused_total", 0.0))
            clock._used = {Color(k): float(v) for k, v in data["used"].items()}
            clock._adjusted = {Color(k): float(v) for k, v in data["adjusted"].items()}
            clock._moves = {Color(k): int(v) for k, v in data["moves"].items()}
            clock._absent = {Color(v) for v in data["absent"]}
            clock._late = {Color(k): float(v) for k, v in data["late"].items()}
            # snapshots from before the runner was kept: the player to move's time ran
            runner = data.get("runner", data["to_move"])
            clock._runner = Color(runner) if runner else None
            last = data.get("last_press")
            if last is not None:
                clock._last_press = (
                    Color(last["color"]),
                    PlayerTime.from_json(last["before"]),
                    float(last["turn"]),
                )
            for colour, kept in (data.get("presses") or {}).items():
                clock._presses[Color(colour)] = [
                    (PlayerTime.from_json(p["before"]), float(p["turn"]), float(p["adjusted"]))
                    for p in kept
                ]
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(f"not a clock snapshot: {exc}") from exc
        return clock

    def __repr__(self) -> str:
        who = self._runner.value if self._runner else "nobody"
        state = "paused" if self._paused else ("running" if self.running else "stopped")
        return f"<Clock {self.system.describe()}: {who}, {state}>"
