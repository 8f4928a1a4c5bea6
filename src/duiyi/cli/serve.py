"""``duiyi serve``: start the web server (SQLite by default, PostgreSQL + Redis to scale)."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(no_args_is_help=False, invoke_without_command=True)


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
    engine_players: bool = typer.Option(
        False,
        "--engine-players",
        help="Let organisers play their events' engine players here (runs the programs they "
        "register; default: $DUIYI_ENGINE_PLAYERS).",
    ),
    engines: str = typer.Option(
        None,
        "--engines",
        help="The engines this server may run: a TOML or JSON file naming each engine, its "
        "command and limits (default: $DUIYI_ENGINES; none: no engine is offered).",
    ),
    gnugo: bool = typer.Option(
        False,
        "--gnugo",
        help="Offer GNU Go (as 'gnugo', levels 1-10) when it is installed (default: $DUIYI_GNUGO).",
    ),
    log_level: str = typer.Option("info", "--log-level", help="debug, info, warning, error."),
) -> None:
    """Start the duiyi web server.

    Example: ``duiyi serve --port 8000 --database sqlite:///var/duiyi.sqlite3``
    """
    import os

    import uvicorn

    from duiyi.server import Settings, create_app
    from duiyi.server.logs import log_config

    settings = Settings.from_env(
        # behind nginx's consistent hash (DUIYI_PEERS) this process is the upstream it listens as
        peer_address=None if os.environ.get("DUIYI_PEER_ADDRESS") else f"{host}:{port}",
        database_url=database,
        redis_url=redis,
        demo=demo,
        engine_players=engine_players or None,
        engines_file=engines,
        gnugo=gnugo or None,
    )
    from duiyi.server.connections import ConnectionLimits, guarded_protocol

    limits = ConnectionLimits(
        per_client=settings.max_connections_per_client,
        header_timeout=settings.header_timeout,
        body_timeout=settings.body_timeout,
        # behind a proxy every client comes through it: the proxy itself is not capped
        exempt=settings.trusted_proxies if settings.proxy_header else frozenset(),
    )
    forwarded = settings.forwarded_allow_ips
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        # bounded connections (issue 25): per client, in all (503 beyond), request heads and
        # bodies on a deadline, idle keep-alive connections closed
        http=guarded_protocol(limits),
        limit_concurrency=settings.max_connections,
        timeout_keep_alive=max(1, round(settings.keep_alive_timeout)),
        # X-Forwarded-For is believed from the configured proxies only (default: nobody)
        proxy_headers=forwarded is not None,
        forwarded_allow_ips=forwarded,
        log_level=log_level,
        # every handler masks secrets (tokens never travel in URLs, but an old client may try)
        log_config=log_config(log_level),
        ws="websockets-sansio",
        # the messages are small JSON documents: compressing them costs more CPU than it saves
        ws_per_message_deflate=False,
        # a socket message over 64 KiB closes the connection (1009) before it is buffered
        ws_max_size=65536,
    )
