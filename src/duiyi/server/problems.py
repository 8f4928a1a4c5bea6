"""Errors as RFC 9457 problem documents: every refusal is a 4xx JSON body naming what is wrong.

>>> status_for(IllegalMove("suicide", "Go §5"))
409
>>> problem(422, "bad input", "size must be 5-25")["status"]
422
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response
from starlette.routing import Match

from duiyi.errors import (
    ClockError,
    DuiyiError,
    EventFileError,
    IllegalAction,
    IllegalMove,
    InvalidInput,
    RefereeError,
    SessionError,
    TournamentError,
)
from duiyi.server.auth import Forbidden, Unauthorized
from duiyi.server.engines.catalog import EngineNotListed
from duiyi.server.schemas import schema_refusal
from duiyi.store.db import is_outage
from duiyi.store.repository import Conflict, NotFound

__all__ = [
    "PROBLEMS",
    "PayloadTooLarge",
    "Problem",
    "RateLimited",
    "RefusedByRules",
    "Unavailable",
    "file_answer",
    "install_handlers",
    "literal_methods",
    "problem",
    "problem_body",
    "problem_response",
    "report_failure",
    "status_for",
    "store_outage",
]

PROBLEM_TYPE = "application/problem+json"

log = logging.getLogger("duiyi.server")


class Problem(BaseModel):
    """An RFC 9457 problem document, with the article of the rules when there is one."""

    model_config = ConfigDict(extra="allow")

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    article: str | None = None


def _documented(status: int, what: str) -> dict[str, Any]:
    return {"description": what, "content": {PROBLEM_TYPE: {"schema": Problem.model_json_schema()}}}


# The refusals every route may answer, documented once for the whole OpenAPI document.
PROBLEMS: dict[int | str, dict[str, Any]] = {
    400: _documented(400, "Bad request"),
    401: _documented(401, "No credentials where some are needed"),
    403: _documented(403, "Credentials that do not allow this"),
    404: _documented(404, "No such game, event or route"),
    405: _documented(405, "Method not allowed (the Allow header lists the methods)"),
    409: _documented(409, "Refused by the rules or the current state"),
    413: _documented(413, "Request body over the limit"),
    415: _documented(415, "Unsupported media type"),
    422: _documented(422, "Malformed input"),
    429: _documented(429, "Over the per-client rate"),
    503: _documented(503, "The store cannot be reached; nothing was accepted"),
}


def file_answer(media_type: str, what: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI answer of a route that sends a file (``responses=`` of its decorator): its
    200 in ``media_type`` as it is sent, not as JSON.

    >>> list(file_answer("application/zip", "the records")[200]["content"])
    ['application/zip']
    """
    binary = not media_type.startswith(("text/", "application/xml", "application/x-go-sgf"))
    schema = {"type": "string", **({"format": "binary"} if binary else {})}
    return {200: {"description": what, "content": {media_type: {"schema": schema}}}}


def attachment(content: bytes | str, media_type: str, filename: str) -> Response:
    """The answer of a route that sends a file (:func:`file_answer`): ``content`` in
    ``media_type``, for the browser to save as ``filename``.

    >>> attachment("x", "text/csv", "e1.csv").headers["content-disposition"]
    'attachment; filename="e1.csv"'
    """
    disposition = f'attachment; filename="{filename}"'
    return Response(content, media_type=media_type, headers={"content-disposition": disposition})


class RateLimited(DuiyiError):
    """Too many requests from one client (429)."""


class PayloadTooLarge(DuiyiError):
    """A request body over the limit (413)."""


class RefusedByRules(DuiyiError):
    """A well-formed request that the books forbid (a komi off the quarter-stone step,
    Go §11; a designated opening without fouls, Gomoku §2.9): 409."""


class Unavailable(DuiyiError):
    """The store could not be reached; nothing was accepted (503)."""


#: seconds a client is told to wait before it sends a refused request again (429, 503)
RETRY_AFTER = 2


def store_outage(exc: BaseException) -> Unavailable | None:
    """The 503 for an error of the store that says it cannot be reached now
    (:func:`duiyi.store.db.is_outage`), else None (a bug, not an outage).

    >>> store_outage(ConnectionRefusedError(111, "Connection refused")).message
    'the store cannot be reached (ConnectionRefusedError); nothing was changed, try again shortly'
    >>> store_outage(KeyError("x")) is None
    True
    """
    if isinstance(exc, Unavailable):
        return exc
    if not is_outage(exc):
        return None
    return Unavailable(
        f"the store cannot be reached ({type(exc).__name__}); nothing was changed, "
        "try again shortly"
    )


class _OutageLog:
    """One WARNING line when a service (the store, Redis) stops answering, then at most one
    per ``every`` seconds while it stays so (how many failures meanwhile): an expected outage
    never prints a traceback, and never a line per request."""

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        self.last: float | None = None
        self.quiet = 0

    def warn(self, down: str, what: str, exc: BaseException, now: float) -> None:
        if self.last is not None and now - self.last < self.every:
            self.quiet += 1
            return
        more = f" ({self.quiet} more failures since the last line)" if self.quiet else ""
        first = str(exc).strip().splitlines()
        log.warning(
            "%s cannot be reached: %s failed (%s: %s)%s",
            down,
            what,
            type(exc).__name__,
            first[0] if first else "",
            more,
        )
        self.last, self.quiet = now, 0


_outages: dict[str, _OutageLog] = {}


def report_failure(what: str, exc: BaseException, *, down: str | None = None) -> None:
    """Log a failure of background work or of a request: an outage as one WARNING line
    (rate-limited, no traceback): the store's (:func:`store_outage`), or ``down`` naming the
    service the caller knows ``exc`` means is unreachable (Redis); a refusal (a duiyi error:
    a commit fenced out after a failover) as one line too; anything else with its traceback
    (a bug).

    >>> report_failure("heartbeat", ConnectionRefusedError(111, "Connection refused"))
    """
    if down is None and store_outage(exc) is not None:
        down = "the store"
    if down is not None:
        _outages.setdefault(down, _OutageLog()).warn(down, what, exc, time.monotonic())
    elif isinstance(exc, DuiyiError):
        log.warning("%s refused: %s", what, exc)
    else:
        log.error("%s failed", what, exc_info=exc)


_STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (RefusedByRules, 409),
    (Unauthorized, 401),
    (Forbidden, 403),
    (NotFound, 404),
    (EngineNotListed, 404),  # an engine name the operator does not list: not on this server
    (Conflict, 409),
    (RateLimited, 429),
    (PayloadTooLarge, 413),
    (Unavailable, 503),
    (IllegalMove, 409),
    (IllegalAction, 409),
    (RefereeError, 409),
    (ClockError, 409),
    (EventFileError, 422),  # TableFileError too: a malformed CSV is bad input
    (TournamentError, 409),
    # the session refuses it now (paused, not arrived, not in byo-yomi): the state, not the input
    (SessionError, 409),
    (InvalidInput, 422),
)


def status_for(exc: BaseException) -> int:
    """The HTTP status of a duiyi error."""
    for cls, status in _STATUS:
        if isinstance(exc, cls):
            return status
    return 400


def problem(status: int, title: str, detail: str, **extra: Any) -> dict[str, Any]:
    """A problem document."""
    body: dict[str, Any] = {"type": "about:blank", "title": title, "status": status}
    body["detail"] = detail
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def problem_body(exc: DuiyiError) -> dict[str, Any]:
    """The problem document of a duiyi error.

    >>> problem_body(IllegalMove("suicide", "Go §5", move="A1"))["reason"]
    'suicide'
    >>> b = problem_body(IllegalAction("x", code="not-last-stone", values={"player": "white"}))
    >>> b["code"], b["values"]
    ('not-last-stone', {'player': 'white'})
    """
    forwarded = getattr(exc, "problem", None)  # raised by the process that owns a game
    if isinstance(forwarded, dict) and isinstance(forwarded.get("status"), int):
        return forwarded
    status = status_for(exc)
    extra: dict[str, Any] = {"article": exc.article, "error": type(exc).__name__}
    # what the refusal is, for a page to say in its language (the detail stays English)
    if exc.code:
        extra["code"] = exc.code
        extra["values"] = exc.values
    if isinstance(exc, IllegalMove):
        extra["reason"] = exc.reason
        extra["move"] = exc.move
    return problem(status, _title(status), str(exc), **extra)


def problem_response(exc: DuiyiError) -> JSONResponse:
    """The response for a duiyi error (a 503 or a 429 says when to try again)."""
    body = problem_body(exc)
    headers = {"Retry-After": str(RETRY_AFTER)} if body["status"] in (429, 503) else None
    return JSONResponse(body, status_code=body["status"], media_type=PROBLEM_TYPE, headers=headers)


def _title(status: int) -> str:
    return {
        400: "Bad request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not found",
        405: "Method not allowed",
        415: "Unsupported media type",
        409: "Refused by the rules or the current state",
        413: "Payload too large",
        422: "Invalid input",
        429: "Too many requests",
        500: "Internal error",
        503: "Service unavailable",
    }.get(status, "Error")


def _allowed_methods(app: FastAPI, request: Request) -> list[str]:
    """The methods some route answers on this path (probed: included routers nest)."""
    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        scope = {**request.scope, "method": method, "type": "http"}
        if any(route.matches(scope)[0] is Match.FULL for route in app.router.routes):
            allowed.append(method)
    return allowed


def literal_methods(app: FastAPI, request: Request) -> set[str]:
    """The documented methods of the most literal path template this path fits
    (``/players/draw`` before ``/players/{number}``)."""
    path = request.scope.get("path", "")
    best, methods = -1, set()
    for template, item in app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^/]*?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            score = sum(1 for part in template.split("/") if not part.startswith("{"))
            if score > best:
                best, methods = score, {m.upper() for m in item}
            elif score == best:
                methods |= {m.upper() for m in item}
    return methods


def _untagged(error: Any, body: Any) -> Any:
    """A schema error of a body without the tag pydantic puts in its path when the body is one
    of a tagged union (a ruling's ``kind``: ``body.warning.article`` is ``body.article``):
    the tag is no field of the body but one of its values.

    >>> _untagged({"loc": ("body", "warning", "article")}, {"kind": "warning"})["loc"]
    ('body', 'article')
    >>> _untagged({"loc": ("body", "rounds")}, {"rounds": 0})["loc"]
    ('body', 'rounds')
    """
    loc = tuple(error.get("loc", ()))
    if len(loc) > 2 and loc[0] == "body" and isinstance(body, dict) and isinstance(loc[1], str):
        tags = {v for v in body.values() if isinstance(v, str)}
        if loc[1] not in body and loc[1] in tags:
            return {**error, "loc": (loc[0], *loc[2:])}
    return error


def install_handlers(app: FastAPI) -> None:
    """Turn duiyi errors, validation errors and HTTP errors into problem documents."""

    async def on_duiyi(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, DuiyiError)
        return problem_response(exc)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        literal = literal_methods(app, request)
        if literal and request.method not in literal:
            # /players/draw is its own route: a PATCH there is a wrong method, not a player
            # number that is not a number
            body = problem(405, _title(405), f"{request.method} is not allowed here")
            return JSONResponse(
                body,
                status_code=405,
                media_type=PROBLEM_TYPE,
                headers={"Allow": ", ".join(sorted(literal))},
            )
        errors = [
            {"where": ".".join(str(p) for p in e.get("loc", ())), "what": e.get("msg")}
            for e in exc.errors()
        ]
        detail = "; ".join(f"{e['where']}: {e['what']}" for e in errors) or "invalid request"
        # the first error as a code and values, for a page to say in its language (issue 32)
        first = exc.errors()[0] if exc.errors() else {"type": "", "loc": ()}
        code, values = schema_refusal(_untagged(first, exc.body))
        body = problem(422, "Invalid input", detail, errors=errors, code=code, values=values)
        return JSONResponse(body, status_code=422, media_type=PROBLEM_TYPE)

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        body = problem(exc.status_code, _title(exc.status_code), str(exc.detail))
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # RFC 9110 §15.5.6: every method of the path (one route per method here)
            allowed = literal_methods(app, request) or set(_allowed_methods(app, request))
            if "GET" in allowed:
                allowed.add("HEAD")
            headers["Allow"] = ", ".join(sorted(allowed))
        return JSONResponse(
            body, status_code=exc.status_code, media_type=PROBLEM_TYPE, headers=headers
        )

    async def on_disconnect(_request: Request, _exc: Exception) -> JSONResponse:
        # the body stopped half-way (or went over the limit): nobody is left to answer
        body = problem(400, _title(400), "the request body was not received in full")
        return JSONResponse(body, status_code=400, media_type=PROBLEM_TYPE)

    async def on_crash(_request: Request, exc: Exception) -> JSONResponse:
        # a bug: logged (redacted) for the operator, a problem without traceback for the client
        log.error("internal error", exc_info=exc)
        body = problem(500, _title(500), f"internal error ({type(exc).__name__}); nothing changed")
        return JSONResponse(body, status_code=500, media_type=PROBLEM_TYPE)

    async def on_store(request: Request, exc: Exception) -> JSONResponse:
        # the store's connection errors, whatever the route: PostgreSQL down or restarting is
        # a 503 that says when to try again, with one warning line (never a traceback)
        outage = store_outage(exc)
        if outage is None:
            return await on_crash(request, exc)
        report_failure(f"{request.method} {request.url.path}", exc)
        return problem_response(outage)

    async def on_pool(_request: Request, exc: Exception) -> JSONResponse:
        # every database connection is busy (SQLAlchemy's QueuePool timeout): nothing was
        # done, and the client may try again shortly
        log.warning("database pool exhausted: %s", exc)
        body = problem(
            503,
            _title(503),
            "the server is busy (every database connection is in use); nothing was changed, "
            "try again in a few seconds",
        )
        return JSONResponse(
            body, status_code=503, media_type=PROBLEM_TYPE, headers={"Retry-After": "2"}
        )

    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    app.add_exception_handler(PoolTimeout, on_pool)
    for store_error in _store_errors(DBAPIError):
        app.add_exception_handler(store_error, on_store)
    app.add_exception_handler(DuiyiError, on_duiyi)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(ClientDisconnect, on_disconnect)
    app.add_exception_handler(Exception, on_crash)


def _store_errors(*more: type[Exception]) -> tuple[type[Exception], ...]:
    """The exception classes a store outage may raise (:func:`store_outage` tells which
    instances are one): SQLAlchemy's, psycopg's own (the group commit's connection), sqlite3's
    and the socket's."""
    import sqlite3

    found: list[type[Exception]] = [*more, sqlite3.OperationalError, ConnectionError]
    try:
        import psycopg
    except ModuleNotFoundError:  # SQLite only
        pass
    else:
        found.append(psycopg.Error)
    return tuple(found)
