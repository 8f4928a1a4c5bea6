"""What the server's routes, workers and sockets share: one :class:`State` per process."""

from __future__ import annotations

import asyncio
import collections
import time
from typing import Any

from starlette.requests import HTTPConnection

from duiyi.server.cluster.misrouting import RoutingWatch
from duiyi.server.cluster.ownership import Ownership
from duiyi.server.engines.catalog import EngineList
from duiyi.server.engines.rounds import EngineRounds
from duiyi.server.games.manager import GameManager
from duiyi.server.limits import Quota, client_address
from duiyi.server.settings import Settings
from duiyi.store import Database, Repository

__all__ = ["State", "engines_of", "games_of", "repo_of", "state_of"]


class State:
    """What the routes share."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # the operator's engines (a malformed file stops the start, with its reason)
        self.engines = EngineList.load(settings.engines_file, gnugo=settings.gnugo)
        self.db = Database(settings.database_url)
        self.repo = Repository(self.db)
        self.games = GameManager(self.repo, settings.process_id)
        self.games.stale_after = settings.stale_after
        self.games.committer.window = settings.commit_window
        if settings.peers and settings.redis_url:
            # behind nginx's consistent hash: a game is hosted by its ring owner
            self.games.ownership = Ownership(
                settings.peers, settings.process_id, settings.stale_after
            )
            # misrouted arrivals are judged once the live peers have been the same for twice
            # the staleness limit, and warned of when they last longer than a death takes to
            # show in the heartbeats (duiyi.server.cluster.misrouting)
            self.games.routing = RoutingWatch(
                settle=2 * settings.stale_after,
                confirm=settings.stale_after + 2 * settings.heartbeat_seconds,
            )
        self.started = time.time()
        # how late the event loop woke a sleeping task, seconds (app._loop_lag)
        self.loop_lag: collections.deque[float] = collections.deque(maxlen=20_000)
        # ticks of it late by over app.LATE: this process's own work, or waiting for a CPU
        self.late_busy = 0
        self.late_starved = 0
        self.fanout: Any = None
        # the runner of events' engine rounds (only with ``engine_players``)
        self.engine_rounds: EngineRounds | None = None
        # bounds (issue 25): events created per client per hour, open sockets per client,
        # event changes made at once by this process
        self.event_quota = Quota(settings.max_events_per_client, 3600.0)
        self.sockets: dict[str, int] = {}
        # sockets closed with 4409 (their game moved to another process: reconnect)
        self.sockets_moved = 0
        self.event_writes = asyncio.Semaphore(max(1, settings.max_event_writes))

    def client(self, scope: Any) -> str:
        """The client address of a request or socket (limits.client_address)."""
        return client_address(scope, self.settings.proxy_header, self.settings.trusted_proxies)


def state_of(conn: HTTPConnection) -> State:
    """The process's :class:`State`, from a request or a socket."""
    state: State = conn.app.state.duiyi
    return state


def repo_of(conn: HTTPConnection) -> Repository:
    """The server's store."""
    return state_of(conn).repo


def games_of(conn: HTTPConnection) -> GameManager:
    """The server's games (this process's hosts and proxies)."""
    return state_of(conn).games


def engines_of(conn: HTTPConnection) -> EngineList:
    """The operator's engines (``--engines``, ``--gnugo``)."""
    return state_of(conn).engines
