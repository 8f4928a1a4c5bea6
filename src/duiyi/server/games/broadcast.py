"""Messages to a game's sockets: each listener takes the message as JSON text, encoded once for
all of them; a broken listener is dropped and never stops the game.

>>> got = []
>>> broadcast({got.append}, {"type": "update", "version": 1})
>>> got
['{"type":"update","version":1}']
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from duiyi.server.games.jsontext import dumps

__all__ = ["RECONNECT", "RECONNECT_TEXT", "Listener", "broadcast"]

log = logging.getLogger("duiyi.server")

# A socket's listener takes each message as JSON text (encoded once for all sockets).
Listener = Callable[[str], None]


def broadcast(listeners: set[Listener], message: dict[str, Any]) -> None:
    """Send ``message`` to every listener; a broken one is dropped, never stops the game."""
    if not listeners:
        return
    text = dumps(message)
    for listener in list(listeners):
        try:
            listener(text)
        except Exception:
            log.exception("listener failed")
            listeners.discard(listener)


# Sent to a game's sockets when this process stops serving it: close with a reconnect code.
RECONNECT: dict[str, Any] = {"type": "reconnect"}
RECONNECT_TEXT = dumps(RECONNECT)
