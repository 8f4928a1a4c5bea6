"""Session = game + clock + referee, built from and saved as one timestamped action log.

The actions are typed values (:mod:`duiyi.actions`: ``Move("D4")``, ``Pass()``, ...).

>>> from duiyi import BLACK, WHITE
>>> from duiyi.clock import Clock, Fischer
>>> from duiyi.go import Game
>>> s = Session(Game(9), Clock(Fischer(60, 5), now=0.0))
>>> s.move(BLACK, "E5", now=3.0); s.move(WHITE, "C3", now=10.0)
>>> s.clock.remaining(BLACK, 10.0).base, s.clock.remaining(WHITE, 10.0).base
(62.0, 58.0)
>>> Session.from_log(s.to_json()).to_json() == s.to_json()
True
"""

from duiyi.actions import SESSION_ACTIONS, Action, GameAction, LogEntry
from duiyi.games import (
    GameAdapter,
    GoAdapter,
    GomokuAdapter,
    adapt,
    adapter_from_config,
    register_adapter,
)
from duiyi.session.core import OVERRUN_GRACE, Event, Session

__all__ = [
    "OVERRUN_GRACE",
    "SESSION_ACTIONS",
    "Action",
    "Event",
    "GameAction",
    "GameAdapter",
    "GoAdapter",
    "GomokuAdapter",
    "LogEntry",
    "Session",
    "adapt",
    "adapter_from_config",
    "register_adapter",
]
