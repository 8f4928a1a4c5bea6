"""Per-client rate limits and request size limits (pure ASGI middleware).

>>> b = TokenBucket(rate=1.0, burst=2)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import json
import re
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "LimitsMiddleware",
    "Quota",
    "TokenBucket",
    "client_address",
    "json_shape",
    "repeated_parameter",
]

# No request of the API nests deeper than a few levels nor needs a number longer than 2**53:
# bodies and socket messages past these are refused before a JSON parser sees them (a parser
# recurses once per level, and Python's int() refuses more than 4,300 digits).
MAX_DEPTH = 32
MAX_DIGITS = 100
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SHAPE = re.compile(rb"[\[\]{}]|[0-9]{%d,}" % (MAX_DIGITS + 1))


def json_shape(body: bytes, max_depth: int = MAX_DEPTH) -> str | None:
    """What is wrong with the shape of a JSON document before parsing it (nested deeper than
    ``max_depth``, a number of more than :data:`MAX_DIGITS` digits), or None. Linear in the
    length; strings are skipped whole.

    >>> json_shape(b'{"a": [1, 2, {"b": "[[[["}]}') is None
    True
    >>> json_shape(b"[" * 40 + b"]" * 40)
    'JSON nested deeper than 32 levels'
    >>> json_shape(b'{"version": ' + b"9" * 5000 + b"}")
    'a JSON number longer than 100 digits'
    """
    depth = 0
    for match in _SHAPE.finditer(_STRING.sub(b'""', body)):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > max_depth:
                return f"JSON nested deeper than {max_depth} levels"
        elif token in (b"]", b"}"):
            depth -= 1
        else:
            return f"a JSON number longer than {MAX_DIGITS} digits"
    return None


class TokenBucket:
    """``burst`` requests at once, refilled at ``rate`` per second."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp: float | None = None

    def take(self, now: float) -> bool:
        """Spend one token if there is one."""
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Quota:
    """At most ``count`` uses per key in any ``window`` seconds (events a client creates).

    >>> q = Quota(count=2, window=10.0)
    >>> [q.take("a", 0.0), q.take("a", 1.0), q.take("a", 2.0), q.take("b", 2.0), q.take("a", 10.5)]
    [True, True, False, True, True]
    """

    def __init__(self, count: int, window: float) -> None:
        self.count = count
        self.window = window
        self.uses: OrderedDict[str, list[float]] = OrderedDict()

    def take(self, key: str, now: float) -> bool:
        """Spend one use of ``key`` at ``now`` if it has one left."""
        recent = [t for t in self.uses.get(key, ()) if now - t < self.window]
        if len(recent) >= self.count:
            self.uses[key] = recent
            return False
        recent.append(now)
        self.uses[key] = recent
        self.uses.move_to_end(key)
        if len(self.uses) > 50_000:
            self.uses.popitem(last=False)
        return True


def _problem(status: int, title: str, detail: str) -> bytes:
    return json.dumps(
        {"type": "about:blank", "title": title, "status": status, "detail": detail}
    ).encode()


def client_address(scope: Scope, proxy_header: str | None, proxies: frozenset[str]) -> str:
    """The address a request comes from: the peer's, or, when the peer is a trusted proxy and
    a proxy header is configured, the address that proxy reports (the last one it appended to
    ``X-Forwarded-For``; a client cannot forge what the proxy appends after its own header).

    >>> s = {"client": ("127.0.0.1", 5), "headers": [(b"x-forwarded-for", b"6.6.6.6, 10.0.0.9")]}
    >>> client_address(s, "x-forwarded-for", frozenset({"127.0.0.1"}))
    '10.0.0.9'
    >>> client_address(s, None, frozenset({"127.0.0.1"}))
    '127.0.0.1'
    >>> client_address({**s, "client": ("8.8.8.8", 5)}, "x-forwarded-for", frozenset({"127.0.0.1"}))
    '8.8.8.8'
    """
    client = scope.get("client")
    peer = str(client[0]) if client else "?"
    if proxy_header is None or peer not in proxies:
        return peer
    wanted = proxy_header.lower().encode("latin-1")
    for name, value in scope.get("headers", []):
        if name == wanted:
            reported = value.decode("latin-1").split(",")[-1].strip()
            return reported or peer
    return peer


def repeated_parameter(query: bytes) -> str | None:
    """The first query parameter that ``query`` gives more than once, else None (every
    parameter of the API is a single value: ``?limit=5&limit=7`` is refused).

    >>> repeated_parameter(b"limit=5&limit=7"), repeated_parameter(b"limit=5&since=2")
    ('limit', None)
    """
    seen: set[str] = set()
    for name, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if name in seen:
            return name[:40]
        seen.add(name)
    return None


class LimitsMiddleware:
    """Refuse bodies over ``max_body`` (413, chunked ones included) and clients over their
    rate (429) on /api; a client is its address (see :func:`client_address`), never anything
    it may choose freely such as an Authorization header."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int,
        rate: float,
        burst: int,
        proxy_header: str | None = None,
        proxies: frozenset[str] = frozenset({"127.0.0.1", "::1"}),
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.rate = rate
        self.burst = burst
        self.proxy_header = proxy_header
        self.proxies = proxies
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def _client_key(self, scope: Scope) -> str:
        return "ip:" + client_address(scope, self.proxy_header, self.proxies)

    def _allowed(self, scope: Scope) -> bool:
        key = self._client_key(scope)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
            if len(self.buckets) > 50_000:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take(time.monotonic())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"].startswith("/api"):
            if not self._allowed(scope):  # opening sockets counts against the same rate
                await send({"type": "websocket.close", "code": 1008, "reason": "too many requests"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http" or not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE") and not self._allowed(scope):
            await self._refuse(
                send, 429, "Too many requests", "slow down: too many requests from this client"
            )
            return
        twice = repeated_parameter(scope.get("query_string", b""))
        if twice is not None:  # which of them would count is left to chance: neither
            await self._refuse(
                send, 422, "Invalid input", f"query parameter {twice!r} is given twice: once only"
            )
            return
        length = None
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = None
        if length is not None and length > self.max_body:
            await self._refuse(
                send,
                413,
                "Payload too large",
                f"request body is {length} bytes; the limit is {self.max_body}",
            )
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        # read the whole body first (a chunked one has no length): over the limit is a 413
        chunks: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_body:
                await self._refuse(
                    send,
                    413,
                    "Payload too large",
                    f"request body over {self.max_body} bytes (the limit)",
                )
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        kind = ""
        for name, value in scope.get("headers", []):
            if name == b"content-type":
                kind = value.decode("latin-1").lower()
        if body and ("json" in kind or not kind):
            wrong = json_shape(body)
            if wrong is not None:  # before any parser recurses or reads a 5,000-digit number
                await self._refuse(send, 422, "Invalid input", f"request body: {wrong}")
                return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, status: int, title: str, detail: str) -> None:
        body = _problem(status, title, detail)
        headers: list[Any] = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if status == 413:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
