"""No secret in any log: a filter on every handler masks tokens wherever they appear.

Tokens travel in headers (``Authorization: Bearer ...``, the WebSocket subprotocol
``bearer.<token>``), never in URLs; the filter is the second line of defence for a client that
still puts one in a query string, and for anything else that may print a secret.

>>> redact("GET /api/games/x/socket?token=abc&version=3 HTTP/1.1")
'GET /api/games/x/socket?token=***&version=3 HTTP/1.1'
>>> redact("Authorization: Bearer s3cr3t")
'Authorization: Bearer ***'
>>> redact("offered bearer.ABCDEFGHIJKLMNOPQRSTUVWXYZ012345")
'offered bearer.***'
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

__all__ = ["RedactFilter", "install_redaction", "log_config", "redact"]

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # query parameters that carry secrets in the UI's routes and in old clients
    (re.compile(r"(?i)\b((?:token|key|arbiter|organiser|access_token)=)[^&\s\"'#]+"), r"\1***"),
    (re.compile(r"(?i)\b(bearer[ .:=]+)[A-Za-z0-9._~+/=-]+"), r"\1***"),
    # a bare token as ``duiyi.server.auth.new_token`` makes them (32 url-safe characters)
    (re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])"), "***"),
)


def redact(text: str) -> str:
    """``text`` with every secret masked."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _redact_value(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactFilter(logging.Filter):
    """Masks secrets in a record's message, arguments and traceback (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_value(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_value(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


_FILTER = RedactFilter()


def install_redaction() -> None:
    """Put the filter on every handler that exists now (the root's, uvicorn's, ...), whoever
    configured logging; idempotent."""
    loggers: list[logging.Logger] = [logging.getLogger()]
    for name in list(logging.root.manager.loggerDict):
        candidate = logging.getLogger(name)
        loggers.append(candidate)
    for logger in loggers:
        if not any(isinstance(f, RedactFilter) for f in logger.filters):
            logger.addFilter(_FILTER)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactFilter) for f in handler.filters):
                handler.addFilter(_FILTER)


def log_config(level: str = "info") -> dict[str, Any]:
    """uvicorn's logging configuration with the filter on every handler and a root logger
    (duiyi's own records) that uses it too."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact": {"()": "duiyi.server.logs.RedactFilter"}}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    config["formatters"]["plain"] = {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}
    config["handlers"]["plain"] = {
        "formatter": "plain",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "filters": ["redact"],
    }
    config["root"] = {"handlers": ["plain"], "level": level.upper()}
    for logger in config["loggers"].values():
        logger["level"] = level.upper()
    return config
