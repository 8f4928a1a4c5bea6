"""Secrets: random tokens handed out once, stored only as SHA-256 hashes.

>>> t = new_token()
>>> len(hash_token(t)), verify(t, hash_token(t)), verify("x", hash_token(t))
(64, True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.requests import HTTPConnection

from duiyi.errors import DuiyiError

__all__ = ["Forbidden", "Unauthorized", "bearer_token", "hash_token", "new_token", "verify"]


class Unauthorized(DuiyiError):
    """No credentials where some are needed (401)."""


class Forbidden(DuiyiError):
    """Credentials that do not allow this action (403)."""


def new_token() -> str:
    """A fresh unguessable secret."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """The stored form of a secret."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def verify(token: str | None, stored_hash: str) -> bool:
    """True when ``token`` is the secret behind ``stored_hash`` (constant time)."""
    if not token:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def bearer_token(conn: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, or of a ``?token=`` query on a
    WebSocket (browsers cannot set headers there)."""
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    if conn.scope.get("type") == "websocket":
        return conn.query_params.get("token") or None
    return None
