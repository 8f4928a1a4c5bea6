"""Per-client rate limits and request size limits (pure ASGI middleware).

>>> b = TokenBucket(rate=1.0, burst=2)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["LimitsMiddleware", "TokenBucket"]


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


def _problem(status: int, title: str, detail: str) -> bytes:
    return json.dumps(
        {"type": "about:blank", "title": title, "status": status, "detail": detail}
    ).encode()


class LimitsMiddleware:
    """Refuse bodies over ``max_body`` (413) and clients over their rate (429) on /api."""

    def __init__(self, app: ASGIApp, *, max_body: int, rate: float, burst: int) -> None:
        self.app = app
        self.max_body = max_body
        self.rate = rate
        self.burst = burst
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def _client_key(self, scope: Scope) -> str:
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                return "t:" + str(value.decode("latin-1"))[-16:]
        client = scope.get("client")
        return "ip:" + (str(client[0]) if client else "?")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            key = self._client_key(scope)
            bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
                if len(self.buckets) > 50_000:
                    self.buckets.popitem(last=False)
            if not bucket.take(time.monotonic()):
                await self._refuse(
                    send, 429, "Too many requests", "slow down: too many requests from this client"
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
        received = 0
        too_large = False

        async def limited_receive() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    too_large = True
                    return {"type": "http.disconnect"}
            return message

        if too_large:  # pragma: no cover - set only inside limited_receive
            return
        await self.app(scope, limited_receive, send)

    async def _refuse(self, send: Send, status: int, title: str, detail: str) -> None:
        body = _problem(status, title, detail)
        headers: list[Any] = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
