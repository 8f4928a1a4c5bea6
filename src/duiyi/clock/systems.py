"""Time systems: how much thinking time a player has and what a move costs.

A time system is a frozen value object. It never sees a wall clock: it works on a
:class:`PlayerTime` (what one player has left at the start of a turn) and a number of seconds
``t`` spent in that turn. :class:`duiyi.clock.Clock` does the bookkeeping of turns and ``now``.

The boundary rule is the same for every system (Go §12.3: a move at the 60th second counts as a
minute used, and "10" called while the stone lands is already late): a player whose turn has
lasted ``t >= flag_after(pt)`` seconds has run out of time.

>>> s = ChineseByoyomi(base=3600, reserved_minutes=5)
>>> pt = s.initial()
>>> s.flag_after(pt)
3900.0
>>> s.spend(pt, 3659.0)          # base gone, 59 s into the reserved minutes: costs nothing
PlayerTime(main=0.0, periods=5, stage=0)
>>> s.spend(pt, 3660.0).periods  # a full 60 s costs one minute
4
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from duiyi.errors import InvalidInput

__all__ = [
    "Absolute",
    "CallKind",
    "ChineseByoyomi",
    "Fischer",
    "JapaneseByoyomi",
    "MovesPerPeriod",
    "MultiPeriod",
    "NoTime",
    "PlayerTime",
    "ScheduledCall",
    "SharedPool",
    "Stage",
    "TimeLeft",
    "TimeSystem",
    "system_from_json",
]


@dataclass(frozen=True)
class PlayerTime:
    """What one player has left at the start of a turn, in the system's own terms.

    ``main`` is seconds of main time (or of the current stage), ``periods`` the byo-yomi periods
    (reserved minutes) or the moves still due in the stage, ``stage`` the stage index.

    >>> PlayerTime(60.0, 2)
    PlayerTime(main=60.0, periods=2, stage=0)
    """

    main: float
    periods: int = 0
    stage: int = 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (unlimited time, as with no clock, is ``None``: strict JSON
        has no Infinity, and PostgreSQL refuses it)."""
        main = None if math.isinf(self.main) else self.main
        return {"main": main, "periods": self.periods, "stage": self.stage}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerTime:
        """Rebuild from :meth:`to_json`.

        >>> PlayerTime.from_json(PlayerTime(math.inf).to_json()).main
        inf
        """
        main = math.inf if data["main"] is None else float(data["main"])
        return cls(main, int(data["periods"]), int(data.get("stage", 0)))


@dataclass(frozen=True)
class TimeLeft:
    """A reading of one player's clock.

    ``base`` is seconds of main time left (for stage systems: seconds left in the stage);
    ``periods`` is reserved minutes / byo-yomi periods left, or moves still due in the stage;
    ``period_time`` the seconds left in the current period (0 when the system has none);
    ``total`` the seconds until the flag falls if the player keeps thinking.

    >>> TimeLeft(base=30.0, periods=2, period_time=60.0, total=150.0).in_overtime
    False
    """

    base: float
    periods: int = 0
    period_time: float = 0.0
    total: float = math.inf
    stage: int = 0
    flagged: bool = False

    @property
    def in_overtime(self) -> bool:
        """True once main time is gone and the player lives on periods (byo-yomi)."""
        return self.base <= 0 and self.period_time > 0 and not self.flagged

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (infinite times become ``None``)."""

        def num(x: float) -> float | None:
            return None if math.isinf(x) else round(x, 6)

        return {
            "base": num(self.base),
            "periods": self.periods,
            "period_time": num(self.period_time),
            "total": num(self.total),
            "stage": self.stage,
            "flagged": self.flagged,
        }


class CallKind:
    """What kind of spoken call a :class:`ScheduledCall` is (plain string constants)."""

    SECONDS = "seconds"  # "30秒"
    PERIOD = "period"  # "1分钟，还剩4分钟": a reserved minute / period was used
    COUNTDOWN = "countdown"  # "1" ... "10" on the last minute
    FLAG = "flag"  # time is up


@dataclass(frozen=True)
class ScheduledCall:
    """A call the arbiter makes ``offset`` seconds into a turn (see :mod:`duiyi.clock.calls`)."""

    offset: float
    kind: str
    zh: str
    en: str


def _check_seconds(name: str, value: float, *, positive: bool = False) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(
            f"{name} must be a number of seconds, got {value!r}",
            code="field-number",
            values={"field": name},
        ) from exc
    if math.isnan(x) or math.isinf(x) or x < 0 or (positive and x == 0):
        need = "positive" if positive else "non-negative"
        message = f"{name} must be a finite {need} number of seconds, got {value!r}"
        if positive:
            raise InvalidInput(message, code="field-above", values={"field": name, "gt": "0"})
        raise InvalidInput(message, code="field-at-least", values={"field": name, "ge": "0"})
    return x


def _check_count(name: str, value: int, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidInput(
            f"{name} must be an integer >= {minimum}, got {value!r}",
            code="field-whole-at-least",
            values={"field": name, "ge": str(minimum)},
        )
    return value


class TimeSystem:
    """Base class of the time systems (frozen dataclasses).

    Subclasses implement :meth:`initial`, :meth:`flag_after`, :meth:`spend`, :meth:`view`,
    :meth:`deduct` and :meth:`add`; :meth:`schedule` gives the spoken calls of a turn.
    """

    name: ClassVar[str] = ""
    shared: ClassVar[bool] = False  # one pool for both players (SharedPool)
    has_overtime: ClassVar[bool] = False  # byo-yomi: Go §22.5 pass-on-overtime applies

    def initial(self) -> PlayerTime:
        """The time each player has at the start of the game."""
        raise NotImplementedError

    def flag_after(self, pt: PlayerTime) -> float:
        """Seconds of thinking, from the start of a turn, after which the flag falls."""
        raise NotImplementedError

    def spend(self, pt: PlayerTime, t: float) -> PlayerTime:
        """The time left after a move that took ``t`` seconds (``t < flag_after(pt)``)."""
        raise NotImplementedError

    def view(self, pt: PlayerTime, t: float) -> TimeLeft:
        """The reading ``t`` seconds into a turn that started with ``pt``."""
        raise NotImplementedError

    def deduct(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        """Take ``seconds`` away outside a move (lateness, a time penalty)."""
        raise NotImplementedError

    def add(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        """Give ``seconds`` more (the arbiter's adjustment)."""
        return PlayerTime(pt.main + seconds, pt.periods, pt.stage)

    def interrupt(self, pt: PlayerTime, t: float) -> PlayerTime:
        """The time left when a turn stops after ``t`` seconds without a move (the game ends
        by resignation or a ruling, play stops for counting): what ran is charged, no
        increment is earned and no move of a quota is made. A started byo-yomi period is not
        charged as a whole one (Go §12.3 "不足60秒的着手不予计时"), so for ``t <
        flag_after(pt)`` the result never has its flag down: a stop is never a flag.

        >>> Absolute(600).interrupt(PlayerTime(600.0), 5.0)
        PlayerTime(main=595.0, periods=0, stage=0)
        """
        return self.deduct(pt, t)

    def last_period(self, pt: PlayerTime) -> PlayerTime:
        """The state after a Go §22.5 pass on overtime: only the last period is left."""
        from duiyi.errors import ClockError

        raise ClockError(
            f"{self.name} has no byo-yomi, so there is no pass on overtime", "Go §22.5"
        )

    def schedule(self, pt: PlayerTime) -> list[ScheduledCall]:
        """The spoken calls of a turn starting with ``pt`` (offsets from the turn's start)."""
        limit = self.flag_after(pt)
        if math.isinf(limit):
            return []
        return [ScheduledCall(limit, CallKind.FLAG, "时间到，超时", "time is up")]

    def describe(self) -> str:
        """A short human description, e.g. ``"60 min + 5 × 60 s (Chinese byo-yomi)"``."""
        return self.name

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict with a ``"system"`` key naming the class."""
        data: dict[str, Any] = {"v": 1, "system": self.name}
        data.update(self._fields_json())
        return data

    def _fields_json(self) -> dict[str, Any]:
        return {}


def _minutes(seconds: float) -> str:
    if seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


# --------------------------------------------------------------------------- no clock


@dataclass(frozen=True)
class NoTime(TimeSystem):
    """No time limit at all (GTP ``time_settings 0 1 0``).

    >>> NoTime().flag_after(NoTime().initial())
    inf
    """

    name: ClassVar[str] = "none"

    def initial(self) -> PlayerTime:
        return PlayerTime(math.inf)

    def flag_after(self, pt: PlayerTime) -> float:
        return math.inf

    def spend(self, pt: PlayerTime, t: float) -> PlayerTime:
        return pt

    def view(self, pt: PlayerTime, t: float) -> TimeLeft:
        return TimeLeft(base=math.inf, total=math.inf)

    def deduct(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        return pt

    def add(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        return pt

    def describe(self) -> str:
        return "no time limit"


# --------------------------------------------------------------------------- one pool


@dataclass(frozen=True)
class _MainTime(TimeSystem):
    """One main time, ``base`` seconds, and nothing after it: the flag falls when it is spent
    (Absolute, Fischer; how a move spends it is each system's)."""

    base: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", _check_seconds("base", self.base, positive=True))

    def initial(self) -> PlayerTime:
        return PlayerTime(self.base)

    def flag_after(self, pt: PlayerTime) -> float:
        return max(pt.main, 0.0)

    def view(self, pt: PlayerTime, t: float) -> TimeLeft:
        left = max(pt.main - t, 0.0)
        return TimeLeft(base=left, total=left, flagged=t >= pt.main)

    def deduct(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        return PlayerTime(max(pt.main - seconds, 0.0))


@dataclass(frozen=True)
class Absolute(_MainTime):
    """包干用时制 (Go §12.4): all moves within ``base`` seconds; running out loses.

    >>> a = Absolute(base=600)
    >>> a.spend(a.initial(), 75).main
    525.0
    """

    name: ClassVar[str] = "absolute"
    base: float = 3600.0

    def spend(self, pt: PlayerTime, t: float) -> PlayerTime:
        return PlayerTime(max(pt.main - t, 0.0))

    def describe(self) -> str:
        return f"{_minutes(self.base)} absolute (包干)"

    def _fields_json(self) -> dict[str, Any]:
        return {"base": self.base}


@dataclass(frozen=True)
class SharedPool(Absolute):
    """共用时限 (Gomoku §8.1): one pool of ``base`` seconds for both players.

    Whoever is to move when the pool runs out loses. The arbiter may split what is left into
    halves (:meth:`duiyi.clock.Clock.split_pool`), after which each side plays absolute time.

    >>> SharedPool(base=7200).shared
    True
    """

    name: ClassVar[str] = "shared"
    shared: ClassVar[bool] = True

    def describe(self) -> str:
        return f"{_minutes(self.base)} shared by both players (共用时限)"


@dataclass(frozen=True)
class Fischer(_MainTime):
    """加秒制 (Gomoku §8.3): ``base`` seconds plus ``increment`` after each move, up to ``cap``.

    >>> f = Fischer(base=300, increment=10, cap=320)
    >>> f.spend(f.initial(), 5).main   # 300 - 5 + 10 = 305
    305.0
    >>> f.spend(PlayerTime(318.0), 1).main   # capped
    320.0
    """

    name: ClassVar[str] = "fischer"
    base: float = 300.0
    increment: float = 10.0
    cap: float | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "increment", _check_seconds("increment", self.increment))
        if self.cap is not None:
            cap = _check_seconds("cap", self.cap, positive=True)
            if cap < self.base:
                raise InvalidInput(
                    f"cap ({cap:g} s) must not be below the base ({self.base:g} s)",
                    code="clock-cap-below-base",
                    values={"cap": f"{cap:g}", "base": f"{self.base:g}"},
                )
            object.__setattr__(self, "cap", cap)

    def spend(self, pt: PlayerTime, t: float) -> PlayerTime:
        left = max(pt.main - t, 0.0) + self.increment
        if self.cap is not None:
            left = min(left, self.cap)
        return PlayerTime(left)

    def describe(self) -> str:
        cap = f", cap {_minutes(self.cap)}" if self.cap is not None else ""
        return f"{_minutes(self.base)} + {self.increment:g} s per move{cap} (Fischer 加秒制)"

    def _fields_json(self) -> dict[str, Any]:
        return {"base": self.base, "increment": self.increment, "cap": self.cap}


# --------------------------------------------------------------------------- byo-yomi


@dataclass(frozen=True)
class _Byoyomi(TimeSystem):
    """Main time, then ``periods`` periods of ``period`` seconds; a move inside a period is free,
    each full period spent is gone (Go §12.3)."""

    has_overtime: ClassVar[bool] = True
    base: float = 0.0
    periods: int = 1
    period: float = 60.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", _check_seconds("base", self.base))
        object.__setattr__(self, "period", _check_seconds("period", self.period, positive=True))
        _check_count("periods", self.periods, minimum=1)

    def initial(self) -> PlayerTime:
        return PlayerTime(self.base, self.periods)

    def flag_after(self, pt: PlayerTime) -> float:
        if pt.periods <= 0:
            return max(pt.main, 0.0)
        return max(pt.main, 0.0) + pt.periods * self.period

    def spend(self, pt: PlayerTime, t: float) -> PlayerTime:
        if t <= pt.main:
            return PlayerTime(pt.main - t, pt.periods)
        over = t - max(pt.main, 0.0)
        used = int(over // self.period)
        return PlayerTime(0.0, max(pt.periods - used, 0))

    def view(self, pt: PlayerTime, t: float) -> TimeLeft:
        total = max(self.flag_after(pt) - t, 0.0)
        if t >= self.flag_after(pt):
            return TimeLeft(base=0.0, periods=0, period_time=0.0, total=0.0, flagged=True)
        if t < pt.main:
            return TimeLeft(pt.main - t, pt.periods, self.period, total)
        over = t - max(pt.main, 0.0)
        used = int(over // self.period)
        in_period = over - used * self.period
        return TimeLeft(0.0, pt.periods - used, self.period - in_period, total)

    def deduct(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        if seconds <= pt.main:
            return PlayerTime(pt.main - seconds, pt.periods)
        rest = seconds - max(pt.main, 0.0)
        lost = math.ceil(rest / self.period - 1e-9)
        return PlayerTime(0.0, max(pt.periods - lost, 0))

    def interrupt(self, pt: PlayerTime, t: float) -> PlayerTime:
        """As a move: a started period is not used up (Go §12.3), unlike :meth:`deduct`.

        >>> ChineseByoyomi(base=0, reserved_minutes=1).interrupt(PlayerTime(0.0, 1), 5.0)
        PlayerTime(main=0.0, periods=1, stage=0)
        """
        return self.spend(pt, t)

    def last_period(self, pt: PlayerTime) -> PlayerTime:
        return PlayerTime(0.0, 1)

    def _fields_json(self) -> dict[str, Any]:
        return {"base": self.base, "periods": self.periods, "period": self.period}

    # the spoken calls: one block per period; the subclasses phrase them
    def _period_calls(self, start: float, left_after: int) -> list[ScheduledCall]:
        raise NotImplementedError

    def schedule(self, pt: PlayerTime) -> list[ScheduledCall]:
        start = max(pt.main, 0.0)
        calls: list[ScheduledCall] = []
        for k in range(pt.periods):
            calls.extend(self._period_calls(start + k * self.period, pt.periods - k - 1))
        calls.append(
            ScheduledCall(self.flag_after(pt), CallKind.FLAG, "时间到，超时", "time is up")
        )
        return calls


def _seconds_calls(start: float, seconds: Iterable[int]) -> list[ScheduledCall]:
    """The calls "N秒" at ``start`` + N for each N of ``seconds``."""
    return [ScheduledCall(start + s, CallKind.SECONDS, f"{s}秒", f"{s} seconds") for s in seconds]


def _period_used(at: float, zh: str, en: str) -> list[ScheduledCall]:
    """The call at ``at`` that a period (a reserved minute) is used and how many are left."""
    return [ScheduledCall(at, CallKind.PERIOD, zh, en)]


def _countdown(start: float, period: float) -> list[ScheduledCall]:
    n = min(10, int(period))
    return [
        ScheduledCall(start + period - n + i, CallKind.COUNTDOWN, str(i), str(i))
        for i in range(1, n + 1)
    ]


@dataclass(frozen=True)
class ChineseByoyomi(_Byoyomi):
    """读秒 (Go §12.3): ``base`` seconds, then ``reserved_minutes`` minutes of 60 s.

    A move under 60 s costs nothing; reaching 60 s costs a minute; on the last minute the move
    must come before the 60th second. With ``reserved_in_base=True`` the reserved minutes are
    part of ``base`` (the literal "在规定时限内保留几分钟"); by default they come on top of it
    (DECISIONS.md).

    >>> c = ChineseByoyomi(base=0, reserved_minutes=3)
    >>> c.spend(c.initial(), 60.0).periods     # exactly 60 s: one minute used (Go §12.3)
    2
    >>> c.spend(c.initial(), 59.9).periods
    3
    """

    name: ClassVar[str] = "chinese-byoyomi"
    base: float = 3600.0
    reserved_minutes: int = 5
    reserved_in_base: bool = False
    periods: int = field(init=False, default=0)
    period: float = field(init=False, default=60.0)

    def __post_init__(self) -> None:
        _check_count("reserved_minutes", self.reserved_minutes, minimum=1)
        base = _check_seconds("base", self.base)
        if self.reserved_in_base:
            if base < 60 * self.reserved_minutes:
                raise InvalidInput(
                    f"base ({base:g} s) must contain the {self.reserved_minutes} reserved minutes",
                    code="clock-base-reserved",
                    values={"base": f"{base:g}", "minutes": str(self.reserved_minutes)},
                )
            base -= 60 * self.reserved_minutes
        object.__setattr__(self, "periods", self.reserved_minutes)
        object.__setattr__(self, "period", 60.0)
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "reserved_in_base", False)
        super().__post_init__()

    def _period_calls(self, start: float, left_after: int) -> list[ScheduledCall]:
        if left_after == 0:  # the last minute: 30, 40, 50, then 1..10 (Go §12.3)
            return _seconds_calls(start, (30, 40, 50)) + _countdown(start, 60.0)
        calls = _seconds_calls(start, (30, 40, 50, 55, 58))
        return calls + _period_used(
            start + 60, f"1分钟，还剩{left_after}分钟", f"1 minute, {left_after} left"
        )

    def describe(self) -> str:
        return f"{_minutes(self.base)} + {self.reserved_minutes} reserved minutes (读秒)"

    def _fields_json(self) -> dict[str, Any]:
        return {"base": self.base, "reserved_minutes": self.reserved_minutes}


@dataclass(frozen=True)
class JapaneseByoyomi(_Byoyomi):
    """Japanese byo-yomi: ``base`` seconds, then ``periods`` periods of ``period`` seconds.

    A period is lost only when it runs out; the fast variants (Go §12.3: 30, 20 or 10 s a move)
    are :meth:`fast`.

    >>> j = JapaneseByoyomi(base=600, periods=3, period=30)
    >>> j.spend(j.initial(), 600 + 29).periods, j.spend(j.initial(), 600 + 31).periods
    (3, 2)
    """

    name: ClassVar[str] = "japanese-byoyomi"
    base: float = 0.0
    periods: int = 3
    period: float = 30.0

    @classmethod
    def fast(cls, seconds: float = 30, *, base: float = 0.0, periods: int = 1) -> JapaneseByoyomi:
        """A fast-game count (快棋): every move within ``seconds`` (30, 20, 10 are usual).

        >>> JapaneseByoyomi.fast(20).flag_after(JapaneseByoyomi.fast(20).initial())
        20.0
        """
        return cls(base=base, periods=periods, period=seconds)

    def _period_calls(self, start: float, left_after: int) -> list[ScheduledCall]:
        p = self.period
        # every ten seconds; on the last period only up to where the 1..10 countdown starts
        stop = math.floor(p - 10) + 1 if left_after == 0 else math.ceil(p)
        calls = _seconds_calls(start, range(10, stop, 10))
        if left_after == 0:
            return calls + _countdown(start, p)
        return calls + _period_used(
            start + p, f"读秒一次，还剩{left_after}次", f"one period used, {left_after} left"
        )

    def describe(self) -> str:
        return f"{_minutes(self.base)} + {self.periods} × {self.period:g} s (byo-yomi)"


# --------------------------------------------------------------------------- stages


@dataclass(frozen=True)
class Stage:
    """One time limit of a multi-stage clock: ``seconds``, and ``moves`` to make in it (or None).

    >>> Stage(600, 15)
    Stage(seconds=600.0, moves=15)
    """

    seconds: float
    moves: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "seconds", _check_seconds("stage seconds", self.seconds, positive=True)
        )
        if self.moves is not None:
            _check_count("stage moves", self.moves, minimum=1)

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        return {"seconds": self.seconds, "moves": self.moves}


class _StageSystem(TimeSystem):
    """Stages in order. A stage with a move quota must see its moves made in its time, else the
    flag falls; time left over carries into the next stage. A stage without a quota simply runs
    into the next one. The last stage repeats when it has a quota; without one it is final."""

    @property
    def stages(self) -> tuple[Stage, ...]:
        raise NotImplementedError

    @property
    def carries(self) -> bool:
        """True when time saved in a quota stage carries into the next one."""
        return True

    def _stage(self, i: int) -> Stage:
        st = self.stages
        return st[min(i, len(st) - 1)]

    def _is_last(self, i: int) -> bool:
        return i >= len(self.stages) - 1

    def _next(self, i: int) -> int:
        return i if self._is_last(i) else i + 1

    def initial(self) -> PlayerTime:
        first = self.stages[0]
        return PlayerTime(first.seconds, first.moves or 0, 0)

    def _run(self, pt: PlayerTime, t: float) -> PlayerTime:
        """Let ``t`` seconds pass without completing a move; may leave main <= 0 (flag)."""
        main, moves, i = pt.main - t, pt.periods, pt.stage
        while main <= 0 and self._stage(i).moves is None and not self._is_last(i):
            i += 1
            main += self._stage(i).seconds
            moves = self._stage(i).moves or 0
        return PlayerTime(main, moves, i)

    def flag_after(self, pt: PlayerTime) -> float:
        total, i = pt.main, pt.stage
        while self._stage(i).moves is None and not self._is_last(i):
            i += 1
            total += self._stage(i).seconds
        return max(total, 0.0)

    def spend(self, pt: PlayerTime, t: float) -> PlayerTime:
        run = self._run(pt, t)
        main, moves, i = max(run.main, 0.0), run.periods, run.stage
        if self._stage(i).moves is not None:
            moves -= 1
            if moves <= 0:
                i = self._next(i)
                main = (main if self.carries else 0.0) + self._stage(i).seconds
                moves = self._stage(i).moves or 0
        return PlayerTime(main, moves, i)

    def view(self, pt: PlayerTime, t: float) -> TimeLeft:
        total = self.flag_after(pt) - t
        if total <= 0:
            return TimeLeft(0.0, 0, 0.0, 0.0, pt.stage, flagged=True)
        run = self._run(pt, t)
        return TimeLeft(max(run.main, 0.0), run.periods, 0.0, total, run.stage)

    def deduct(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        run = self._run(pt, seconds)
        return PlayerTime(max(run.main, 0.0), run.periods, run.stage)

    def add(self, pt: PlayerTime, seconds: float) -> PlayerTime:
        return PlayerTime(pt.main + seconds, pt.periods, pt.stage)


@dataclass(frozen=True)
class MovesPerPeriod(_StageSystem):
    """定时限步制 (Go §12.5): ``base`` seconds, then ``moves`` moves in every ``period`` seconds;
    time saved in a period carries into the next. ``base_moves`` puts a quota on the base too
    (chess style: 40 moves in 2 hours, then 20 an hour). ``base=0``: no main time, the periods
    start with the first move (Canadian overtime from the start, GTP ``time_settings 0 600 25``).

    >>> m = MovesPerPeriod(base=60, moves=15, period=600)
    >>> pt = m.spend(m.initial(), 30)       # still in base time
    >>> m.flag_after(pt)                     # rest of the base + a period of 600 s
    630.0
    >>> c = MovesPerPeriod(base=0, moves=25, period=600)
    >>> pt = c.spend(c.initial(), 100)       # move 1 of 25 in the first 10 minutes
    >>> c.flag_after(pt), pt.periods
    (500.0, 24)
    """

    name: ClassVar[str] = "moves-per-period"
    base: float = 3600.0
    moves: int = 15
    period: float = 600.0
    base_moves: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", _check_seconds("base", self.base))
        object.__setattr__(self, "period", _check_seconds("period", self.period, positive=True))
        _check_count("moves", self.moves, minimum=1)
        if self.base_moves is not None:
            _check_count("base_moves", self.base_moves, minimum=1)
            if self.base == 0:
                raise InvalidInput(
                    "base_moves needs a base time to make them in", code="clock-base-moves"
                )

    @property
    def stages(self) -> tuple[Stage, ...]:
        period = Stage(self.period, self.moves)
        if self.base == 0:
            return (period,)  # no main time: the quota periods from the first move
        return (Stage(self.base, self.base_moves), period)

    def describe(self) -> str:
        if self.base == 0:
            return f"{self.moves} moves per {_minutes(self.period)}, no main time (定时限步制)"
        quota = f" ({self.base_moves} moves)" if self.base_moves else ""
        return (
            f"{_minutes(self.base)}{quota}, then {self.moves} moves per {_minutes(self.period)}"
            " (定时限步制)"
        )

    def _fields_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "moves": self.moves,
            "period": self.period,
            "base_moves": self.base_moves,
        }


@dataclass(frozen=True)
class MultiPeriod(_StageSystem):
    """多重时限 (Gomoku §8.2): several time limits in order, each optionally with a move quota.

    A quota stage whose moves are made in time passes what is left on to the next stage
    (``carry_over=False`` drops it: a last stage of one move in 30 s is then plain byo-yomi).

    >>> mp = MultiPeriod((Stage(1800), Stage(600), Stage(60, 1)))
    >>> mp.flag_after(mp.initial())   # both quota-free stages run into the first quota stage
    2460.0
    """

    name: ClassVar[str] = "multi-period"
    limits: tuple[Stage, ...] = ()
    carry_over: bool = True

    @property
    def carries(self) -> bool:
        return self.carry_over

    def __post_init__(self) -> None:
        limits = tuple(self.limits)
        if not limits or not all(isinstance(s, Stage) for s in limits):
            raise InvalidInput(
                "a multi-period clock needs at least one Stage", code="clock-no-stage"
            )
        object.__setattr__(self, "limits", limits)

    @property
    def stages(self) -> tuple[Stage, ...]:
        return self.limits

    def describe(self) -> str:
        parts = [
            _minutes(s.seconds) + (f"/{s.moves} moves" if s.moves else "") for s in self.limits
        ]
        return " → ".join(parts) + " (多重时限)"

    def _fields_json(self) -> dict[str, Any]:
        return {"limits": [s.to_json() for s in self.limits], "carry_over": self.carry_over}


def system_from_json(data: dict[str, Any]) -> TimeSystem:
    """Rebuild a time system from :meth:`TimeSystem.to_json`.

    >>> system_from_json(Fischer(60, 2).to_json())
    Fischer(base=60.0, increment=2.0, cap=None)
    """
    try:
        kind = data["system"]
        if kind == "none":
            return NoTime()
        if kind == "absolute":
            return Absolute(base=data["base"])
        if kind == "shared":
            return SharedPool(base=data["base"])
        if kind == "fischer":
            return Fischer(base=data["base"], increment=data["increment"], cap=data.get("cap"))
        if kind == "chinese-byoyomi":
            return ChineseByoyomi(base=data["base"], reserved_minutes=int(data["reserved_minutes"]))
        if kind == "japanese-byoyomi":
            return JapaneseByoyomi(
                base=data["base"], periods=int(data["periods"]), period=data["period"]
            )
        if kind == "moves-per-period":
            bm = data.get("base_moves")
            return MovesPerPeriod(
                base=data["base"],
                moves=int(data["moves"]),
                period=data["period"],
                base_moves=int(bm) if bm is not None else None,
            )
        if kind == "multi-period":
            return MultiPeriod(
                tuple(
                    Stage(s["seconds"], int(s["moves"]) if s.get("moves") is not None else None)
                    for s in data["limits"]
                ),
                carry_over=bool(data.get("carry_over", True)),
            )
    except (KeyError, TypeError) as exc:
        raise InvalidInput(
            f"not a time system: missing or bad field {exc}",
            code="clock-field",
            values={"field": str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else ""},
        ) from exc
    raise InvalidInput(
        f"unknown time system {data.get('system')!r}",
        code="clock-unknown-system",
        values={"system": str(data.get("system"))},
    )
