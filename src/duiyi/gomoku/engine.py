"""Drive Gomocup brains: kept for ``from duiyi.gomoku.engine import ...``.

The code lives in :mod:`duiyi.engines.gomocup` (one engine layer for Go and Gomoku); this module
re-exports its public names. The engine errors are those of :mod:`duiyi.errors`.

>>> from duiyi.gomoku.engine import GomocupEngine, EngineTimeout
>>> GomocupEngine.__module__, EngineTimeout.__module__
('duiyi.engines.gomocup', 'duiyi.errors')
"""

from __future__ import annotations

from duiyi.engines.gomocup import (
    DEFAULT_SIZE,
    BoardField,
    EngineCrashed,
    EngineLine,
    EngineProtocolError,
    EngineRefusal,
    EngineTimeout,
    GameClock,
    GomocupEngine,
    GomocupMove,
    GomocupRule,
    MatchTally,
    SimpleGomocupEngine,
    parse_about,
    play_game,
    play_match,
    run_game,
    run_match,
)

__all__ = [
    "DEFAULT_SIZE",
    "BoardField",
    "EngineCrashed",
    "EngineLine",
    "EngineProtocolError",
    "EngineRefusal",
    "EngineTimeout",
    "GameClock",
    "GomocupEngine",
    "GomocupMove",
    "GomocupRule",
    "MatchTally",
    "SimpleGomocupEngine",
    "parse_about",
    "play_game",
    "play_match",
    "run_game",
    "run_match",
]
