"""Secrets: random tokens handed out once, stored only as SHA-256 hashes.

>>> t = new_token()
>>> len(hash_token(t)), verify(t, hash_token(t)), verify("x", hash_token(t))
(64, True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from starlette.requests import HTTPConnection

from duiyi.errors import DuiyiError

__all__ = [
    "BEARER_PROTOCOL",
    "SUBPROTOCOL",
    "Forbidden",
    "Unauthorized",
    "bearer_token",
    "hash_token",
    "new_token",
    "refusal",
    "require_operator",
    "seat_token",
    "secret_in_url",
    "verify",
]


class Unauthorized(DuiyiError):
    """No credentials where some are needed (401)."""


class Forbidden(DuiyiError):
    """Credentials that do not allow this action (403)."""


def new_token() -> str:
    """A fresh unguessable secret."""
    return secrets.token_urlsafe(24)


def seat_token(links_key: str, game_id: str, seat: str) -> str:
    """A seat's secret derived from the director's ``links_key`` (the key stays with the desk;
    the server keeps only the hashes): the same key gives the same links again, so an answer
    lost on its way (a timeout, a cut) can be asked for again.

    >>> seat_token("k" * 32, "g1", "black") == seat_token("k" * 32, "g1", "black")
    True
    >>> seat_token("k" * 32, "g1", "black") != seat_token("k" * 32, "g1", "white")
    True
    >>> len(seat_token("k" * 32, "g1", "black")) == len(new_token())
    True
    """
    digest = hmac.new(links_key.encode("utf-8"), f"{game_id}:{seat}".encode(), "sha256")
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode("ascii")


def hash_token(token: str) -> str:
    """The stored form of a secret."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def verify(token: str | None, stored_hash: str) -> bool:
    """True when ``token`` is the secret behind ``stored_hash`` (constant time)."""
    if not token:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


# The WebSocket subprotocols a client offers: ``duiyi`` (answered) and ``bearer.<token>``
# (browsers cannot set an Authorization header on a socket; a URL would end up in logs).
SUBPROTOCOL = "duiyi"
BEARER_PROTOCOL = "bearer."
# query parameters that must never carry a secret
SECRET_PARAMS = ("token", "key", "arbiter", "access_token")


def bearer_token(conn: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header or, on a WebSocket, of a
    ``bearer.<token>`` subprotocol. Never from the URL (it would be logged)."""
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    if conn.scope.get("type") == "websocket":
        for offered in conn.scope.get("subprotocols", ()):
            if isinstance(offered, str) and offered.startswith(BEARER_PROTOCOL):
                return offered[len(BEARER_PROTOCOL) :] or None
    return None


def secret_in_url(conn: HTTPConnection) -> bool:
    """True when a secret was put in the query string (refused: URLs end up in logs)."""
    return any(conn.query_params.get(name) for name in SECRET_PARAMS)


def require_operator(conn: HTTPConnection, operator_key: str | None) -> None:
    """The request carries the operator's key (``DUIYI_OPERATOR_KEY``): Unauthorized when it
    sends none, Forbidden when it sends another or the server has none (nobody is the operator).

    >>> from starlette.requests import Request
    >>> ask = Request({"type": "http", "headers": [(b"authorization", b"Bearer k")]})
    >>> require_operator(ask, "k")
    >>> require_operator(ask, "other")
    Traceback (most recent call last):
    ...
    duiyi.server.auth.Forbidden: only the operator's key (DUIYI_OPERATOR_KEY) opens this
    """
    sent = bearer_token(conn)
    if sent is None:
        raise Unauthorized("send the operator's key as 'Authorization: Bearer <key>'")
    if operator_key is None or not hmac.compare_digest(
        sent.encode("utf-8"), operator_key.encode("utf-8")
    ):
        raise Forbidden("only the operator's key (DUIYI_OPERATOR_KEY) opens this")


def refusal(token: str | None, needed: str) -> DuiyiError:
    """The refusal of a request that lacks ``needed`` (``"a player's token"``): Unauthorized
    when it sent no key (401), Forbidden when it sent one that does not allow this (403: the
    arbiter's key asking for a player's rematch, another game's key), whoever it belongs to.

    >>> type(refusal(None, "a player's token")).__name__, type(refusal("k", "x")).__name__
    ('Unauthorized', 'Forbidden')
    >>> str(refusal("k", "a player's token"))
    "this needs a player's token of this game: the key sent does not allow it"
    """
    if token is None:
        return Unauthorized(f"send {needed} as 'Authorization: Bearer <key>'")
    return Forbidden(f"this needs {needed} of this game: the key sent does not allow it")
