"""Game clocks for every time system of the rulebooks, with the arbiter's spoken calls.

No wall clock inside: every call takes ``now`` (monotonic seconds) from the caller.

>>> from duiyi import BLACK, WHITE
>>> from duiyi.clock import Clock, ChineseByoyomi
>>> c = Clock(ChineseByoyomi(base=3600, reserved_minutes=5), to_move=BLACK, now=0.0)
>>> c.press(BLACK, now=75.0)      # Black's move is done; White's time runs
>>> c.remaining(BLACK, 100.0).base
3525.0
>>> c.flagged(100.0) is None
True
"""

from __future__ import annotations

from duiyi.clock.clock import (
    Call,
    Clock,
    Lateness,
    even_split,
    needs_replacement,
    proportional_correction,
)
from duiyi.clock.systems import (
    Absolute,
    CallKind,
    ChineseByoyomi,
    Fischer,
    JapaneseByoyomi,
    MovesPerPeriod,
    MultiPeriod,
    NoTime,
    PlayerTime,
    SharedPool,
    Stage,
    TimeLeft,
    TimeSystem,
    system_from_json,
)

__all__ = [
    "Absolute",
    "Call",
    "CallKind",
    "ChineseByoyomi",
    "Clock",
    "Fischer",
    "JapaneseByoyomi",
    "Lateness",
    "MovesPerPeriod",
    "MultiPeriod",
    "NoTime",
    "PlayerTime",
    "SharedPool",
    "Stage",
    "TimeLeft",
    "TimeSystem",
    "even_split",
    "needs_replacement",
    "proportional_correction",
    "system_from_json",
]
