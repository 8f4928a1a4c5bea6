"""The games duiyi plays, one object each, registered by name.

A :class:`GameType` carries what differs between Go and Gomoku: the session adapter, the
referee's table of rulings (:attr:`GameType.book`), the tournament rules (scoring, default
tiebreaks, withdrawal article and effect, how colours are guessed), SGF reading and writing,
the move notation, the default rules and the engine protocol. Events, sessions, the server and
the CLI hold the object; JSON stores its name, and :func:`get` maps the name back.

>>> from duiyi.games import GO, GOMOKU, get
>>> get("go") is GO, get(GOMOKU) is GOMOKU
(True, True)
>>> get("chess")
Traceback (most recent call last):
...
duiyi.errors.UnknownGame: unknown game 'chess' (expected go or gomoku)
>>> [g.name for g in GAMES.values()]
['go', 'gomoku']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from duiyi.errors import InvalidInput, SessionError, UnknownGame
from duiyi.games.adapters import GameAdapter, GoAdapter, GomokuAdapter
from duiyi.games.base import EngineProtocol, GameType
from duiyi.games.go import GO
from duiyi.games.gomoku import GOMOKU

__all__ = [
    "GAMES",
    "GO",
    "GOMOKU",
    "EngineProtocol",
    "GameAdapter",
    "GameType",
    "GoAdapter",
    "GomokuAdapter",
    "adapt",
    "adapter_from_config",
    "find",
    "get",
    "of",
    "register_adapter",
]

#: Every game by its stored name, in the order the books come (Go first).
GAMES: Mapping[str, GameType] = MappingProxyType({g.name: g for g in (GO, GOMOKU)})


def get(game: str | GameType) -> GameType:
    """The game named ``game`` (a game object is returned as is); :class:`UnknownGame`
    (an :class:`~duiyi.errors.InvalidInput`) for a name duiyi does not play.

    >>> get("gomoku").title
    'Gomoku'
    """
    if isinstance(game, GameType):
        return game
    found = GAMES.get(game) if isinstance(game, str) else None
    if found is None:
        raise UnknownGame(game, tuple(GAMES))
    return found


def find(name: object) -> GameType | None:
    """The game named ``name``, or None (a test's fake game, a name from elsewhere).

    >>> find("go") is GO, find("fake")
    (True, None)
    """
    if isinstance(name, GameType):
        return name
    return GAMES.get(name) if isinstance(name, str) else None


def of(adapter: GameAdapter) -> GameType | None:
    """The game a session's adapter plays, or None for a game outside the registry."""
    return find(adapter.kind)


# --------------------------------------------------------------------------- adapters

_FACTORIES: dict[str, Callable[[dict[str, Any]], GameAdapter]] = {}


def register_adapter(kind: str, factory: Callable[[dict[str, Any]], GameAdapter]) -> None:
    """Make ``adapter_from_config({"kind": kind, ...})`` call ``factory`` (a test's fake game,
    a game outside the registry)."""
    _FACTORIES[kind] = factory


def adapter_from_config(config: dict[str, Any]) -> GameAdapter:
    """Rebuild a game adapter from :meth:`GameAdapter.config_json`.

    >>> adapter_from_config({"kind": "gomoku", **GOMOKU.new_game({}).to_json()}).kind
    'gomoku'
    """
    if not isinstance(config, dict) or "kind" not in config:
        raise SessionError("a session log names its game kind ('go', 'gomoku', ...)")
    kind = str(config["kind"])
    game = GAMES.get(kind)
    if game is not None:
        return game.adapter_from_config(config)
    factory = _FACTORIES.get(kind)
    if factory is None:
        raise UnknownGame(kind, tuple(GAMES))
    return factory(config)


def adapt(game: object) -> GameAdapter:
    """Wrap a ``duiyi.go.Game`` or ``duiyi.gomoku.Game`` (an adapter passes through)."""
    if isinstance(game, (GoAdapter, GomokuAdapter)):
        return game
    module = type(game).__module__
    if module.startswith("duiyi.go.") or module == "duiyi.go":
        return GO.adapter(game)
    if module.startswith("duiyi.gomoku"):
        return GOMOKU.adapter(game)
    if isinstance(game, GameAdapter):
        return game
    raise InvalidInput(f"not a game duiyi can run a session for: {type(game).__name__}")
