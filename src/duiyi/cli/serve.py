"""``duiyi serve``: start the web server (SQLite by default, PostgreSQL + Redis to scale)."""

from __future__ import annotations

import logging
import re

import typer

__all__ = ["app"]

app = typer.Typer(no_args_is_help=False, invoke_without_command=True)

_SECRET = re.compile(r"(token=)[^&\s\"]+")


def _redact(record: logging.LogRecord) -> bool:
    """Keep secrets (``?token=`` of socket URLs) out of the access log.

    >>> r = logging.LogRecord("a", 20, "", 0, "GET /s?token=abc&v=1", None, None)
    >>> _redact(r), r.getMessage()
    (True, 'GET /s?token=***&v=1')
    """
    if record.args:
        record.args = tuple(
            _SECRET.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args
        )
    record.msg = _SECRET.sub(r"\1***", str(record.msg))
    return True


@app.callback(invoke_without_command=True)
def serve(
    port: int = typer.Option(8000, "--port", "-p", help="TCP port to listen on."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind."),
    database: str = typer.Option(
        None,
        "--database",
        help="Database URL (default: $DUIYI_DATABASE_URL or sqlite:///var/duiyi.sqlite3).",
    ),
    redis: str = typer.Option(
        None, "--redis", help="Redis URL for several processes (default: $DUIYI_REDIS_URL)."
    ),
    demo: bool = typer.Option(False, "--demo", help="Create a demo event and games if absent."),
    log_level: str = typer.Option("info", "--log-level", help="debug, info, warning, error."),
) -> None:
    """Start the duiyi web server.

    Example: ``duiyi serve --port 8000 --database sqlite:///var/duiyi.sqlite3``
    """
    import uvicorn

    from duiyi.server import Settings, create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("uvicorn.access").addFilter(_redact)
    settings = Settings.from_env(database_url=database, redis_url=redis, demo=demo)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level=log_level,
        ws="websockets",
        # the messages are small JSON documents: compressing them costs more CPU than it saves
        ws_per_message_deflate=False,
    )
