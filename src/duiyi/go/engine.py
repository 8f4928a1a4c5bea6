"""Drive external Go engines over GTP: kept for ``from duiyi.go.engine import ...``.

The code lives in :mod:`duiyi.engines.gtp` (one engine layer for Go and Gomoku); this module
re-exports its public names.

>>> from duiyi.go.engine import GtpEngine
>>> GtpEngine.__module__
'duiyi.engines.gtp'
"""

from __future__ import annotations

from duiyi.engines.gtp import (
    DEFAULT_TIMEOUT,
    GtpEngine,
    GtpMove,
    SimpleGtpEngine,
    effective_komi_points,
    format_vertex,
    parse_vertex,
    play_game,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "GtpEngine",
    "GtpMove",
    "SimpleGtpEngine",
    "effective_komi_points",
    "format_vertex",
    "parse_vertex",
    "play_game",
]
