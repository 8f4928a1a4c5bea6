"""Errors as RFC 9457 problem documents: every refusal is a 4xx JSON body naming what is wrong.

>>> status_for(IllegalMove("suicide", "Go §5"))
409
>>> problem(422, "bad input", "size must be 5-25")["status"]
422
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse

from duiyi.errors import (
    DuiyiError,
    EventFileError,
    IllegalAction,
    IllegalMove,
    InvalidInput,
    SessionError,
    TournamentError,
)
from duiyi.server.auth import Forbidden, Unauthorized
from duiyi.store.repository import Conflict, NotFound

__all__ = [
    "PayloadTooLarge",
    "RateLimited",
    "Unavailable",
    "install_handlers",
    "problem",
    "problem_body",
    "problem_response",
    "status_for",
]

PROBLEM_TYPE = "application/problem+json"


class RateLimited(DuiyiError):
    """Too many requests from one client (429)."""


class PayloadTooLarge(DuiyiError):
    """A request body over the limit (413)."""


class Unavailable(DuiyiError):
    """The store could not be reached; nothing was accepted (503)."""


_STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (Unauthorized, 401),
    (Forbidden, 403),
    (NotFound, 404),
    (Conflict, 409),
    (RateLimited, 429),
    (PayloadTooLarge, 413),
    (Unavailable, 503),
    (IllegalMove, 409),
    (IllegalAction, 409),
    (EventFileError, 422),
    (TournamentError, 409),
    (SessionError, 422),
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
    """
    forwarded = getattr(exc, "problem", None)  # raised by the process that owns a game
    if isinstance(forwarded, dict) and isinstance(forwarded.get("status"), int):
        return forwarded
    status = status_for(exc)
    extra: dict[str, Any] = {"article": exc.article, "error": type(exc).__name__}
    if isinstance(exc, IllegalMove):
        extra["reason"] = exc.reason
        extra["move"] = exc.move
    return problem(status, _title(status), str(exc), **extra)


def problem_response(exc: DuiyiError) -> JSONResponse:
    """The response for a duiyi error."""
    body = problem_body(exc)
    return JSONResponse(body, status_code=body["status"], media_type=PROBLEM_TYPE)


def _title(status: int) -> str:
    return {
        400: "Bad request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not found",
        409: "Refused by the rules or the current state",
        413: "Payload too large",
        422: "Invalid input",
        429: "Too many requests",
        503: "Service unavailable",
    }.get(status, "Error")


def install_handlers(app: FastAPI) -> None:
    """Turn duiyi errors, validation errors and HTTP errors into problem documents."""

    async def on_duiyi(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, DuiyiError)
        return problem_response(exc)

    async def on_validation(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = [
            {"where": ".".join(str(p) for p in e.get("loc", ())), "what": e.get("msg")}
            for e in exc.errors()
        ]
        detail = "; ".join(f"{e['where']}: {e['what']}" for e in errors) or "invalid request"
        body = problem(422, "Invalid input", detail, errors=errors)
        return JSONResponse(body, status_code=422, media_type=PROBLEM_TYPE)

    async def on_http(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        body = problem(exc.status_code, _title(exc.status_code), str(exc.detail))
        return JSONResponse(body, status_code=exc.status_code, media_type=PROBLEM_TYPE)

    app.add_exception_handler(DuiyiError, on_duiyi)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
