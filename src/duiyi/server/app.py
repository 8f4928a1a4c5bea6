"""The ASGI application: ``create_app(settings)`` wires store, game manager, routes and sockets.

>>> app = create_app(Settings(database_url="sqlite:///var/doctest.sqlite3"))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy import text
from starlette.responses import JSONResponse, RedirectResponse

from duiyi import __version__
from duiyi.server.auth import require_operator
from duiyi.server.cluster.misrouting import GameArrivals
from duiyi.server.engines.rounds import EngineRounds
from duiyi.server.limits import LimitsMiddleware
from duiyi.server.logs import install_redaction
from duiyi.server.problems import PROBLEMS, install_handlers, report_failure
from duiyi.server.settings import Settings
from duiyi.server.state import State

__all__ = ["create_app"]

log = logging.getLogger("duiyi.server")


LOOP_TICK = 0.1
LATE = 0.05


async def _loop_lag(state: State) -> None:
    """How late this process's event loop wakes a task that sleeps LOOP_TICK seconds (kept in
    ``state.loop_lag``, seconds): what every request and socket message waits for before it is
    even read, /api/metrics' ``loop_lag_ms_*``. A tick late by over LATE seconds is counted
    as this process's own work (``state.late_busy``: its thread ran for most of the tick) or
    the machine's (``state.late_starved``: it waited for a CPU, other processes had them)."""
    loop = asyncio.get_running_loop()
    while True:
        before, cpu = loop.time(), time.thread_time()
        await asyncio.sleep(LOOP_TICK)
        wall = loop.time() - before
        lag = max(0.0, wall - LOOP_TICK)
        state.loop_lag.append(lag)
        if lag > LATE:
            if time.thread_time() - cpu >= wall / 2:
                state.late_busy += 1
            else:
                state.late_starved += 1


async def _heartbeat(state: State) -> None:
    """Beat every ``heartbeat_seconds``, and nothing else: a slow sweep must never make this
    process look dead to the others (``stale_after``)."""
    while True:
        try:
            # the beat and, behind nginx's hash, the read of which peers are alive: one
            # statement (Repository.beat)
            ownership = state.games.ownership
            now, sent = time.time(), time.monotonic()
            since = None if ownership is None else now - ownership.stale_after
            beats = await state.repo.beat(state.settings.process_id, now, since)
            state.games.beaten(sent)
            if ownership is not None:
                _see_peers(state, beats, now)
        except Exception as exc:
            report_failure("heartbeat", exc)
        await asyncio.sleep(state.settings.heartbeat_seconds)


async def _peers(state: State) -> None:
    """Behind nginx's consistent hash: which peers are alive now (their heartbeats)."""
    ownership = state.games.ownership
    if ownership is not None:
        now = time.time()
        _see_peers(state, await state.repo.heartbeats(now - ownership.stale_after), now)


def _see_peers(state: State, beats: dict[str, float], now: float) -> None:
    """The peers alive from their heartbeats; a change of them starts the misrouting watch's
    judgement afresh (ownership may be moving: duiyi.server.cluster.misrouting)."""
    ownership = state.games.ownership
    assert ownership is not None
    ownership.update(beats, now)
    if state.games.routing is not None:
        state.games.routing.peers(ownership.live, time.monotonic())


async def _sweep(state: State) -> None:
    """Every minute: idle games leave memory, idle engines stop (GameManager.sweep)."""
    while True:
        await asyncio.sleep(60 * state.settings.heartbeat_seconds)
        try:
            await state.games.sweep(state.settings.idle_seconds)
        except Exception as exc:
            report_failure("sweep", exc)


# The OpenAPI links of the two creations (a game, an event): every operation on the game or the
# event it made takes its id and a key from the answer, so that a client (schemathesis'
# stateful phase) can go from one to the next. The arbiter's operations take the arbiter key.
# Only the operations on the thing itself: one under a round or a board of a new event names
# what the creation did not make (round 2 of an event with no round paired: its 404 is right).
_CREATED = {
    "/api/games": ("game_id", "black_token", ("/rulings",)),
    "/api/events": ("event_id", "organiser_token", ("/room",)),
}


def _with_links(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (the OpenAPI document) with links from ``POST /api/games`` and ``POST
    /api/events`` to each operation on what they made.

    >>> doc = {"paths": {"/api/games": {"post": {"responses": {"201": {}}}},
    ...     "/api/games/{game_id}/rulings": {"post": {"operationId": "rule"}}}}
    >>> link = _with_links(doc)["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    >>> link["rule"]["parameters"]["header.Authorization"]
    'Bearer {$response.body#/arbiter_token}'
    """
    paths = schema.get("paths", {})
    for created, (param, key, arbiter_paths) in _CREATED.items():
        answer = paths.get(created, {}).get("post", {}).get("responses", {}).get("201")
        if answer is None:
            continue
        links: dict[str, Any] = {}
        for path, operations in paths.items():
            if not path.startswith(created + "/{" + param + "}") or path.count("{") > 1:
                continue
            for operation in operations.values():
                if not isinstance(operation, dict) or "operationId" not in operation:
                    continue
                secret = "arbiter_token" if path.endswith(arbiter_paths) else key
                links[operation["operationId"]] = {
                    "operationId": operation["operationId"],
                    "parameters": {
                        f"path.{param}": "$response.body#/id",
                        "header.Authorization": f"Bearer {{$response.body#/{secret}}}",
                    },
                }
        answer["links"] = links
    return schema


def _ms_quantile(seconds: Iterable[float], q: float) -> float | None:
    """The ``q`` quantile of durations in seconds, in milliseconds (None: none measured).

    >>> _ms_quantile([0.002, 0.001, 0.010], 0.5), _ms_quantile([0.002, 0.010], 1.0)
    (2.0, 10.0)
    >>> _ms_quantile([], 0.99) is None
    True
    """
    values = sorted(seconds)
    if not values:
        return None
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 3)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The duiyi server application."""
    settings = settings or Settings.from_env()
    state = State(settings)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        install_redaction()  # whoever configured logging, no handler prints a secret
        await asyncio.to_thread(state.db.migrate)
        await state.repo.heartbeat(settings.process_id, time.time())
        beat = asyncio.create_task(_heartbeat(state), name="heartbeat")
        sweep = asyncio.create_task(_sweep(state), name="sweep")
        lag = asyncio.create_task(_loop_lag(state), name="loop-lag")
        if settings.redis_url:
            from duiyi.server.cluster.fanout import RedisFanout

            state.fanout = RedisFanout(settings.redis_url, state)
            await state.fanout.start()
        await _peers(state)
        restored = await state.games.restore()
        log.info("restored %d live games", restored)
        if state.engine_rounds is not None:
            resumed = await state.engine_rounds.resume()
            log.info("resumed %d engine rounds", resumed)
        if settings.tune_gc:
            # Thousands of sockets and sessions make full collections slow (hundreds of ms,
            # finding almost nothing): collect less often, and keep start-up objects out.
            gc.collect()
            gc.freeze()
            gc.set_threshold(50_000, 50, 100)
        if settings.demo:
            from duiyi.server.demo import ensure_demo

            await ensure_demo(state)
        try:
            yield
        finally:
            for task in (beat, sweep, lag):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await state.games.close()
            if state.fanout is not None:
                await state.fanout.stop()
            await state.db.dispose()

    app = FastAPI(
        title="duiyi",
        version=__version__,
        description="Go (2002) and Gomoku (2013) under the Chinese competition rules: "
        "live games and tournament events.",
        lifespan=lifespan,
        responses=PROBLEMS,
    )
    app.state.duiyi = state
    install_handlers(app)
    # behind nginx's hash: each game request and socket is counted where it lands (misrouted
    # when another process owns the game: /api/metrics, and a warning when most are)
    app.add_middleware(GameArrivals, arrived=state.games.arrived)
    app.add_middleware(
        LimitsMiddleware,
        max_body=settings.max_body_bytes,
        rate=settings.rate_per_second,
        burst=settings.rate_burst,
        proxy_header=settings.proxy_header,
        proxies=settings.trusted_proxies,
    )

    from duiyi.server.routes.games import router as games_router

    app.include_router(games_router)
    from duiyi.server.events.results import install_result_hook
    from duiyi.server.routes.desk import router as desk_router
    from duiyi.server.routes.events import router as events_router
    from duiyi.server.routes.knockout import router as knockout_router
    from duiyi.server.routes.players import router as players_router
    from duiyi.server.routes.prints import router as prints_router
    from duiyi.server.routes.results import router as results_router
    from duiyi.server.routes.rounds import router as rounds_router
    from duiyi.server.routes.standings import router as standings_router

    for router in (
        events_router,
        players_router,
        rounds_router,
        results_router,
        standings_router,
        knockout_router,
        prints_router,
        desk_router,
    ):
        app.include_router(router)
    install_result_hook(state.games, state.repo)
    try:
        from duiyi.server.routes.engines import router as engines_router
    except ModuleNotFoundError as exc:  # the engine opponents are optional
        if exc.name != "duiyi.server.routes.engines":
            raise
    else:
        from duiyi.server.routes.engines import install_engine_hook

        app.include_router(engines_router)
        install_engine_hook(
            state.games,
            state.engines,
            settings.engine_idle_seconds,
            engine_players=settings.engine_players,
            move_timeout=settings.engine_move_timeout,
        )
        if settings.engine_players:
            state.engine_rounds = EngineRounds(state.games, state.repo, settings, state.engines)
            # the runners stop before the engines are killed (install_engine_hook's closer)
            state.games.closers.insert(0, state.engine_rounds.close)
            state.games.sweepers.append(state.engine_rounds.adopt)

    from duiyi.server.routes.ui import router as ui_router

    app.include_router(ui_router)
    if settings.demo:
        from duiyi.server.demo import router as demo_router

        app.include_router(demo_router)

    @app.get("/api/health", tags=["ops"])
    async def health() -> JSONResponse:
        """200 when the store answers, 503 otherwise."""
        try:
            async with state.db.session() as s:
                await s.execute(text("SELECT 1"))
        except Exception as exc:
            return JSONResponse(
                {"status": "unavailable", "detail": type(exc).__name__}, status_code=503
            )
        return JSONResponse({"status": "ok", "version": __version__})

    @app.get("/api/metrics", tags=["ops"])
    async def metrics(request: Request) -> dict[str, Any]:
        """Counters of this process, for the operator's key only (``DUIYI_OPERATOR_KEY``:
        process ids, peers and uptime are the operator's); 401 without a key, 403 with another."""
        require_operator(request, settings.operator_key)
        hosts = state.games.hosts
        routing = state.games.routing
        committer = state.games.committer
        lat = state.games.latencies
        return {
            "actions_measured": len(lat),
            # from an action's arrival at its game to its commit (the game's lock, the
            # queue of the group commit, the transaction)
            "action_commit_ms_p50": _ms_quantile(lat, 0.50),
            "action_commit_ms_p99": _ms_quantile(lat, 0.99),
            # group commits written, and how many waited for more actions (the window)
            "commit_batches": committer.batches,
            "commit_batches_waited": committer.lingered,
            # where that time goes: an action's wait in the group commit's queue, and the
            # transactions; and how late the event loop runs (every message waits for it)
            "commit_queue_ms_p99": _ms_quantile(committer.queued, 0.99),
            "commit_transaction_ms_p50": _ms_quantile(committer.spent, 0.50),
            "commit_transaction_ms_p99": _ms_quantile(committer.spent, 0.99),
            "loop_lag_ms_p50": _ms_quantile(state.loop_lag, 0.50),
            "loop_lag_ms_p99": _ms_quantile(state.loop_lag, 0.99),
            "loop_lag_ms_max": _ms_quantile(state.loop_lag, 1.0),
            "loop_late_busy": state.late_busy,
            "loop_late_starved": state.late_starved,
            "process": settings.process_id,
            "uptime_seconds": round(time.time() - state.started, 3),
            "games_hosted": len(hosts),
            "games_live": sum(1 for h in hosts.values() if h.session.outcome() is None),
            "listeners": sum(len(h.listeners) for h in hosts.values()),
            # with several processes: actions this process forwarded to a game's owner, and
            # messages it published through Redis by kind (update, call, takeover, ...)
            "forwarded": 0 if state.fanout is None else state.fanout.forwarded,
            "published": {} if state.fanout is None else dict(state.fanout.published),
            # games this process claimed from another (failover: the holder dead; handover:
            # alive, this process their ring owner), games another claimed from it, and its
            # sockets closed with 4409 for it (a read never claims: GameManager.find)
            "takeovers": dict(state.games.takeovers),
            "games_lost": state.games.lost,
            "sockets_moved": state.sockets_moved,
            "owner_by_ring": state.games.ownership is not None,
            # behind nginx's hash: the games' requests and sockets that reached this process,
            # and those of them another process owns (forwarded: DUIYI_PEERS and nginx's
            # upstream list differ, or ownership was moving); 0 in steady state
            "ring_routed": 0 if routing is None else routing.routed,
            "misrouted": 0 if routing is None else routing.misrouted,
            # behind nginx's hash: the peers this process sees alive (their heartbeats)
            "live_peers": []
            if state.games.ownership is None
            else sorted(state.games.ownership.live),
        }

    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _with_links(plain_openapi())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    web = Path(__file__).resolve().parent.parent / "web"
    has_ui = (web / "index.html").exists()
    if has_ui:
        from duiyi.server.routes.ui import UiFiles  # with the headers a page needs

        app.mount("/ui", UiFiles(directory=web, html=True), name="ui")

    @app.get("/", include_in_schema=False)
    async def root() -> RedirectResponse:
        """The browser UI when it is installed, else the API documentation."""
        return RedirectResponse("/ui/" if has_ui else "/docs")

    return app
