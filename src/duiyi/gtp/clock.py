"""Time settings for engines: GTP ``time_settings``, KGS ``kgs-time_settings``, ``time_left``.

GTP (version 2, section 4.2) knows only Canadian byo-yomi: ``main byo_yomi_time stones``, where
``byo_yomi_time == 0`` means absolute time and ``byo_yomi_time > 0, stones == 0`` means no limit.
KGS adds ``none``, ``absolute``, ``byoyomi main period periods`` and ``canadian``. A system
neither can say (Fischer, several stages) is sent as the closest setting with ``exact=False``;
send ``time_left`` before every move so the engine still sees the true reading.

>>> from duiyi.clock import ChineseByoyomi
>>> s = ChineseByoyomi(base=3600, reserved_minutes=5)
>>> kgs_time_settings(s).command
'kgs-time_settings byoyomi 3600 60 5'
>>> time_settings(s).command, time_settings(s).exact
('time_settings 3600 60 1', False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from duiyi import Color
from duiyi.clock.clock import Clock
from duiyi.clock.systems import (
    Absolute,
    Fischer,
    JapaneseByoyomi,
    MovesPerPeriod,
    MultiPeriod,
    NoTime,
    SharedPool,
    TimeSystem,
    _Byoyomi,
)
from duiyi.errors import InvalidInput

__all__ = [
    "TimeCommand",
    "from_kgs_time_settings",
    "from_time_settings",
    "kgs_time_settings",
    "time_left",
    "time_settings",
]


@dataclass(frozen=True)
class TimeCommand:
    """A GTP command line and whether it says the time system exactly."""

    command: str
    exact: bool = True

    @property
    def args(self) -> list[str]:
        """The command's arguments."""
        return self.command.split()[1:]


def _secs(x: float) -> int:
    """GTP times are whole seconds; round down so an engine never thinks it has more."""
    return max(math.floor(x + 1e-9), 0)


def time_settings(system: TimeSystem) -> TimeCommand:
    """The GTP ``time_settings`` command for ``system``.

    >>> from duiyi.clock import Absolute, NoTime, MovesPerPeriod
    >>> time_settings(Absolute(1800)).command
    'time_settings 1800 0 0'
    >>> time_settings(NoTime()).command
    'time_settings 0 1 0'
    >>> time_settings(MovesPerPeriod(base=3600, moves=15, period=600)).command
    'time_settings 3600 600 15'
    """
    if isinstance(system, NoTime):
        return TimeCommand("time_settings 0 1 0")
    if isinstance(system, SharedPool):
        return TimeCommand(f"time_settings {_secs(system.base)} 0 0", exact=False)
    if isinstance(system, Absolute):
        return TimeCommand(f"time_settings {_secs(system.base)} 0 0")
    if isinstance(system, Fischer):
        return TimeCommand(f"time_settings {_secs(system.base)} 0 0", exact=False)
    if isinstance(system, _Byoyomi):
        exact = system.periods == 1
        return TimeCommand(
            f"time_settings {_secs(system.base)} {_secs(system.period)} 1", exact=exact
        )
    if isinstance(system, MovesPerPeriod):
        exact = system.base_moves is None
        return TimeCommand(
            f"time_settings {_secs(system.base)} {_secs(system.period)} {system.moves}",
            exact=exact,
        )
    if isinstance(system, MultiPeriod):
        limits = system.limits
        if len(limits) == 1 and limits[0].moves is not None:
            return TimeCommand(f"time_settings 0 {_secs(limits[0].seconds)} {limits[0].moves}")
        first = system.flag_after(system.initial())
        return TimeCommand(f"time_settings {_secs(first)} 0 0", exact=False)
    raise InvalidInput(f"no GTP time settings for {system!r}")


def kgs_time_settings(system: TimeSystem) -> TimeCommand:
    """The ``kgs-time_settings`` command for ``system``.

    >>> from duiyi.clock import JapaneseByoyomi, Fischer
    >>> kgs_time_settings(JapaneseByoyomi(base=600, periods=3, period=30)).command
    'kgs-time_settings byoyomi 600 30 3'
    >>> kgs_time_settings(Fischer(300, 10)).exact
    False
    """
    if isinstance(system, NoTime):
        return TimeCommand("kgs-time_settings none")
    if isinstance(system, _Byoyomi):
        return TimeCommand(
            f"kgs-time_settings byoyomi {_secs(system.base)} {_secs(system.period)} "
            f"{system.periods}"
        )
    if isinstance(system, MovesPerPeriod) and system.base_moves is None:
        return TimeCommand(
            f"kgs-time_settings canadian {_secs(system.base)} {_secs(system.period)} {system.moves}"
        )
    plain = time_settings(system)
    main = plain.args[0]
    if isinstance(system, Absolute) and not isinstance(system, SharedPool):
        return TimeCommand(f"kgs-time_settings absolute {main}")
    return TimeCommand(f"kgs-time_settings absolute {main}", exact=False)


def time_left(clock: Clock, color: Color, now: float, *, kgs: bool = False) -> TimeCommand:
    """The ``time_left color time stones`` command for ``color``'s reading at ``now``.

    In main time ``stones`` is 0; in Canadian overtime it is the moves still due; in Japanese
    byo-yomi GTP has no word, so plain GTP gets ``period 1`` and KGS gets ``period periods``.

    >>> from duiyi import BLACK
    >>> from duiyi.clock import Clock, JapaneseByoyomi
    >>> c = Clock(JapaneseByoyomi(base=10, periods=3, period=30), now=0.0)
    >>> time_left(c, BLACK, 5.0).command
    'time_left black 5 0'
    >>> time_left(c, BLACK, 25.0, kgs=True).command
    'time_left black 15 3'
    """
    system = clock.system
    left = clock.remaining(color, now)
    name = color.value
    if isinstance(system, NoTime):
        return TimeCommand(f"time_left {name} 0 0")
    if isinstance(system, _Byoyomi):
        if left.base > 0 or left.flagged:
            return TimeCommand(f"time_left {name} {_secs(left.base)} 0")
        periods = left.periods if kgs else 1
        return TimeCommand(f"time_left {name} {_secs(left.period_time)} {periods}", exact=kgs)
    if isinstance(system, MovesPerPeriod):
        if left.stage == 0 and system.base > 0 and system.base_moves is None:
            return TimeCommand(f"time_left {name} {_secs(left.base)} 0")
        return TimeCommand(f"time_left {name} {_secs(left.base)} {left.periods}")
    return TimeCommand(f"time_left {name} {_secs(left.total)} 0")


def _ints(args: list[str], n: int, what: str) -> list[int]:
    if len(args) != n:
        raise InvalidInput(f"{what} takes {n} numbers, got {len(args)}: {' '.join(args)!r}")
    try:
        values = [int(a) for a in args]
    except ValueError as exc:
        raise InvalidInput(f"{what} takes whole numbers of seconds: {' '.join(args)!r}") from exc
    if any(v < 0 for v in values):
        raise InvalidInput(f"{what} takes non-negative numbers: {' '.join(args)!r}")
    return values


def from_time_settings(main_time: int, byo_yomi_time: int, byo_yomi_stones: int) -> TimeSystem:
    """The time system a GTP ``time_settings`` command asks for.

    >>> from_time_settings(300, 0, 0)
    Absolute(base=300.0)
    >>> from_time_settings(0, 1, 0)
    NoTime()
    >>> from_time_settings(600, 30, 1)
    JapaneseByoyomi(base=600.0, periods=1, period=30.0)
    >>> from_time_settings(600, 300, 25)
    MovesPerPeriod(base=600.0, moves=25, period=300.0, base_moves=None)
    >>> from_time_settings(0, 600, 25)      # Canadian overtime from the first move
    MovesPerPeriod(base=0.0, moves=25, period=600.0, base_moves=None)
    """
    main, byo, stones = _ints(
        [str(main_time), str(byo_yomi_time), str(byo_yomi_stones)], 3, "time_settings"
    )
    if byo > 0 and stones == 0:
        return NoTime()
    if byo == 0:
        if main == 0:
            raise InvalidInput("time_settings 0 0 0 leaves no time at all")
        return Absolute(main)
    if stones == 1:
        return JapaneseByoyomi(base=main, periods=1, period=byo)
    # main == 0: the quota periods from the very first move (定时限步制 without main time)
    return MovesPerPeriod(base=main, moves=stones, period=byo)


def from_kgs_time_settings(args: list[str] | str) -> TimeSystem:
    """The time system of a ``kgs-time_settings`` command (its arguments, or the whole line).

    >>> from_kgs_time_settings("kgs-time_settings byoyomi 1800 30 5")
    JapaneseByoyomi(base=1800.0, periods=5, period=30.0)
    >>> from_kgs_time_settings(["absolute", "600"])
    Absolute(base=600.0)
    """
    words = args.split() if isinstance(args, str) else list(args)
    if words and words[0] == "kgs-time_settings":
        words = words[1:]
    if not words:
        raise InvalidInput("kgs-time_settings needs a time system")
    kind, rest = words[0].lower(), words[1:]
    if kind == "none":
        _ints(rest, 0, "kgs-time_settings none")
        return NoTime()
    if kind == "absolute":
        (main,) = _ints(rest, 1, "kgs-time_settings absolute")
        return Absolute(main)
    if kind == "byoyomi":
        main, period, periods = _ints(rest, 3, "kgs-time_settings byoyomi")
        if period == 0 or periods == 0:
            return Absolute(main)
        return JapaneseByoyomi(base=main, periods=periods, period=period)
    if kind == "canadian":
        main, period, stones = _ints(rest, 3, "kgs-time_settings canadian")
        return from_time_settings(main, period, stones) if stones else Absolute(main)
    raise InvalidInput(
        f"unknown kgs-time_settings system {kind!r} (expected none, absolute, byoyomi or canadian)"
    )
