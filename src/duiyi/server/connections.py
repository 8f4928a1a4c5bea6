"""Bounded connections, below the ASGI application (which never sees a request still arriving):
at most ``per_client`` open HTTP connections from one address, and deadlines for a request to
arrive, its head within ``header_timeout`` seconds of its first byte (or of the connection,
for a client that sends nothing) and its body within ``body_timeout`` seconds of its head.
An idle connection between requests is uvicorn's keep-alive timeout; sockets, once upgraded,
are counted by the socket route (per game and per client).

``duiyi serve`` runs uvicorn with ``http=guarded_protocol(limits)``.

>>> c = ConnectionLimits(per_client=2)
>>> [c.admit("10.0.0.1"), c.admit("10.0.0.1"), c.admit("10.0.0.1"), c.admit("10.0.0.2")]
[True, True, False, True]
>>> c.release("10.0.0.1"); c.admit("10.0.0.1")
True
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ConnectionLimits", "guarded_protocol"]


@dataclass
class ConnectionLimits:
    """The bounds, and the open connections per address (one event loop: no lock)."""

    per_client: int = 256
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    # addresses never capped (a trusted proxy carries many clients)
    exempt: frozenset[str] = frozenset()
    open: dict[str, int] = field(default_factory=dict)

    def admit(self, peer: str) -> bool:
        """Count a new connection from ``peer``; False (not counted) past the cap."""
        if peer in self.exempt:
            return True
        count = self.open.get(peer, 0)
        if count >= self.per_client:
            return False
        self.open[peer] = count + 1
        return True

    def release(self, peer: str) -> None:
        """A connection from ``peer`` ended (or became a socket)."""
        if peer in self.exempt:
            return
        count = self.open.get(peer, 0) - 1
        if count <= 0:
            self.open.pop(peer, None)
        else:
            self.open[peer] = count


def _refusal(status: int, title: str, detail: str) -> bytes:
    body = json.dumps(
        {"type": "about:blank", "title": title, "status": status, "detail": detail}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {title}\r\ncontent-type: application/problem+json\r\n"
        f"content-length: {len(body)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


def guarded_protocol(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools) with :class:`ConnectionLimits` applied."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttp(HttpToolsProtocol):
        """One HTTP connection, counted and timed (see the module)."""

        _peer: str | None = None
        _timer: asyncio.TimerHandle | None = None

        def _arm(self, seconds: float, what: str) -> None:
            self._disarm()
            self._timer = self.loop.call_later(seconds, self._expire, what)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _expire(self, what: str) -> None:
            self._timer = None
            if not self.transport.is_closing():
                self.logger.info("closing a connection from %s: %s", self._peer, what)
                if what.startswith("no request head"):
                    self.transport.write(
                        _refusal(408, "Request Timeout", f"{what}; the connection is closed")
                    )
                self.transport.close()

        def _release(self) -> None:
            if self._peer is not None:
                limits.release(self._peer)
                self._peer = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = self.client[0] if self.client else "?"
            if not limits.admit(peer):
                transport.write(
                    _refusal(
                        429,
                        "Too Many Requests",
                        f"more than {limits.per_client} open connections from this address",
                    )
                )
                transport.close()
                return
            self._peer = peer
            self._arm(limits.header_timeout, f"no request head within {limits.header_timeout} s")

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm(limits.header_timeout, f"no request head within {limits.header_timeout} s")

        def on_headers_complete(self) -> None:
            self._arm(limits.body_timeout, f"no request body within {limits.body_timeout} s")
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            # a socket from here on: the socket route counts it (per game, per client)
            self._disarm()
            self._release()
            super().handle_websocket_upgrade()

    return GuardedHttp
