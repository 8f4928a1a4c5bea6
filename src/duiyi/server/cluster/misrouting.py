"""Does nginx send this process the games it owns? Behind nginx's consistent hash every request
and socket of a game (``/api/games/{id}/...``) should reach the game's ring owner among the live
peers (:mod:`duiyi.server.cluster.ownership`). When ``DUIYI_PEERS`` does not name nginx's upstream
servers as nginx does (a server missing, ``localhost:8001`` for ``127.0.0.1:8001``), the two
rings differ and most arrivals reach a process that forwards them: everything works, at about
twice the CPU, silently. :class:`RoutingWatch` counts the arrivals and says when to warn;
:class:`GameArrivals` is the ASGI middleware that sees each arrival once (docs/deploy.md,
*When DUIYI_PEERS and nginx disagree*).

Ownership legitimately moves while a process dies or comes back (nginx and the heartbeats learn
of it at different moments), so arrivals are judged only once the live peer set has not changed
for ``settle`` seconds, and a misrouted majority must last ``confirm`` seconds (longer than a
death takes to show in the heartbeats) before the watch warns, at most once per ``every``.

>>> w = RoutingWatch(settle=10.0, confirm=6.0)
>>> w.peers({"a:1": "p-1@a:1", "b:2": "p-2@b:2"}, now=0.0)
>>> [w.arrived(True, now=1.0) for _ in range(30)].count(True)  # the set just changed
0
>>> [w.arrived(True, now=11.0) for _ in range(30)].count(True)  # a majority: wait to confirm
0
>>> w.arrived(True, now=17.0), w.arrived(True, now=18.0)  # it lasted: warn once
(True, False)
>>> w.routed, w.misrouted
(62, 62)
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Callable, Mapping

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["GAME_PATH", "GameArrivals", "RoutingWatch", "game_of_path", "warning_text"]

log = logging.getLogger("duiyi.server")

#: the paths nginx hashes by game id (deploy/nginx-duiyi.conf: ``map $uri $duiyi_game``)
GAME_PATH = "/api/games/"


def game_of_path(path: str) -> str | None:
    """The game id nginx hashes for a request path (``~^/api/games/(?<game_id>[^/]+)``), or None
    when nginx sends the path round robin.

    >>> game_of_path("/api/games/abc/actions"), game_of_path("/api/games/abc")
    ('abc', 'abc')
    >>> game_of_path("/api/games") is None, game_of_path("/api/events/x") is None
    (True, True)
    """
    if not path.startswith(GAME_PATH):
        return None
    game_id = path[len(GAME_PATH) :].split("/", 1)[0]
    return game_id or None


class RoutingWatch:
    """Arrivals of games' requests and sockets, misrouted or not, and when to warn.

    Pure: the caller gives the clock (monotonic seconds). ``routed`` counts every arrival,
    ``misrouted`` those that reached a process other than the game's ring owner. The judgement
    window holds the last ``size`` arrivals made while the live peer set had been unchanged for
    ``settle`` seconds; :meth:`arrived` answers True (warn now) when at least ``least`` of them
    are there, more than half misrouted, that has held for ``confirm`` seconds with the peer set
    unchanged, and no warning was given in the last ``every`` seconds.
    """

    def __init__(
        self,
        settle: float,
        confirm: float,
        *,
        size: int = 50,
        least: int = 20,
        every: float = 60.0,
    ) -> None:
        if not 0 < least <= size:
            raise ValueError(f"need 0 < least <= size, not least={least}, size={size}")
        self.settle = settle
        self.confirm = confirm
        self.size = size
        self.least = least
        self.every = every
        self.routed = 0
        self.misrouted = 0
        self._recent: collections.deque[bool] = collections.deque()
        self._bad = 0  # misrouted arrivals in _recent
        self._peers: dict[str, str] | None = None
        self._since = 0.0  # when the peer set last changed
        self._suspect: float | None = None  # since when a misrouted majority holds
        self._warned: float | None = None

    def peers(self, live: Mapping[str, str], now: float) -> None:
        """The live peers as the heartbeats say now (address -> process id): a change (a process
        died, came back, or restarted under a new id) starts the judgement afresh."""
        if self._peers is None or live != self._peers:
            self._peers = dict(live)
            self._since = now
            self._recent.clear()
            self._bad = 0
            self._suspect = None

    def window(self) -> tuple[int, int]:
        """The judgement window: (misrouted arrivals, arrivals).

        >>> w = RoutingWatch(settle=0.0, confirm=0.0, size=4, least=2)
        >>> w.peers({}, now=0.0)
        >>> for bad in (True, True, False, False, False):
        ...     _ = w.arrived(bad, now=1.0)
        >>> w.window()
        (1, 4)
        """
        return self._bad, len(self._recent)

    def arrived(self, misrouted: bool, now: float) -> bool:
        """Count one arrival; True when a warning is due now (see the class)."""
        self.routed += 1
        if misrouted:
            self.misrouted += 1
        if self._peers is None or now - self._since < self.settle:
            return False  # ownership may be moving: nginx and the heartbeats may disagree
        if len(self._recent) == self.size:
            self._bad -= self._recent.popleft()
        self._recent.append(misrouted)
        self._bad += misrouted
        if len(self._recent) < self.least or 2 * self._bad <= len(self._recent):
            self._suspect = None
            return False
        if self._suspect is None:
            self._suspect = now
        if now - self._suspect < self.confirm:
            return False
        if self._warned is not None and now - self._warned < self.every:
            return False
        self._warned = now
        return True


class GameArrivals:
    """ASGI middleware: each request and socket whose path nginx hashes by game id is reported,
    once, to ``arrived(game_id)`` (a socket once when it opens, not per message)."""

    def __init__(self, app: ASGIApp, arrived: Callable[[str], None]) -> None:
        self.app = app
        self.arrived = arrived

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            game_id = game_of_path(scope["path"])
            if game_id is not None:
                try:
                    self.arrived(game_id)
                except Exception:  # counting must never fail a request
                    log.exception("counting the arrival of game %s failed", game_id)
        await self.app(scope, receive, send)


def warning_text(address: str, peers: tuple[str, ...], bad: int, seen: int) -> str:
    """The warning logged when most arrivals are misrouted (what to check, and where).

    >>> text = warning_text("127.0.0.1:8001", ("127.0.0.1:8001", "b:2"), 30, 50)
    >>> text.startswith("30 of the last 50 requests and sockets of games reached this process")
    True
    >>> "this process is 127.0.0.1:8001, its peers 127.0.0.1:8001,b:2" in text
    True
    """
    return (
        f"{bad} of the last {seen} requests and sockets of games reached this process although "
        "another is the game's owner on the ring (each was forwarded, about twice the CPU): "
        "nginx's ring and this process's differ. DUIYI_PEERS must list nginx's upstream "
        "servers (upstream duiyi_games), each spelt as nginx spells it; this process is "
        f"{address}, its peers {','.join(peers)}. Compare /api/metrics (misrouted, ring_routed) "
        "and nginx's access log ($upstream_addr) (docs/deploy.md, *When DUIYI_PEERS and nginx "
        "disagree*)"
    )
