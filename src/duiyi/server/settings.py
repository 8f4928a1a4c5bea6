"""Server settings, from arguments or the environment.

>>> Settings(database_url="sqlite:///x.db").max_body_bytes
65536
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field, fields

__all__ = ["Settings"]

#: the settings each read, when it is set, from its variable ``DUIYI_<NAME>`` (its name in
#: capitals), as its field's type reads it
_BOUNDS = frozenset(
    {
        "max_engine_games",
        "max_engine_games_per_client",
        "max_engine_games_per_network",
        "engine_idle_seconds",
        "engine_move_timeout",
        "idle_seconds",
        "stale_after",
        "commit_window",
        "max_players_per_event",
        "max_events_per_client",
        "max_connections_per_client",
        "max_connections",
        "header_timeout",
        "body_timeout",
        "keep_alive_timeout",
        "max_sockets_per_game",
        "max_sockets_per_client",
        "max_event_writes",
        "forwarded_allow_ips",
    }
)
_KINDS = {"int": int, "float": float, "str | None": str}


@dataclass(frozen=True)
class Settings:
    """Everything the server needs to start.

    ``DUIYI_DATABASE_URL`` and ``DUIYI_REDIS_URL`` fill the first two when they are not given;
    ``DUIYI_RATE_PER_SECOND`` sets the per-client rate limit (bursts of four times that);
    ``DUIYI_ENGINE_PLAYERS`` (``1``) lets organisers' engine players play here;
    ``DUIYI_ENGINES`` names the operator's engine list (TOML or JSON) and ``DUIYI_GNUGO``
    (``1`` or GNU Go's path) adds a ``gnugo`` entry (docs/server.md, "Engines");
    ``DUIYI_PROXY_HEADER`` (e.g. ``X-Forwarded-For``) and ``DUIYI_TRUSTED_PROXIES`` (comma
    separated addresses) say where a client's address comes from behind a proxy; the bounds
    below have ``DUIYI_<NAME>`` variables (``DUIYI_MAX_PLAYERS_PER_EVENT``, ...).
    ``DUIYI_PEERS`` (comma separated, the upstream addresses as nginx names them, in its
    order) turns on ownership by nginx's consistent hash (with Redis), and ``DUIYI_PEER_ADDRESS`` names this
    process among them (``duiyi serve`` fills it with ``--host``:``--port``).
    ``DUIYI_OPERATOR_KEY`` is the key ``GET /api/metrics`` asks for.

    >>> s = Settings(peers=("127.0.0.1:8001", "127.0.0.1:8002"), peer_address="127.0.0.1:8002")
    >>> s.process_id.endswith("@127.0.0.1:8002")
    True
    """

    database_url: str | None = None
    redis_url: str | None = None
    process_id: str = field(default_factory=lambda: "p-" + secrets.token_hex(6))
    heartbeat_seconds: float = 1.0
    # a process whose heartbeat is this old is taken for dead and its games move elsewhere
    # (only availability depends on it: commits are fenced in the store)
    stale_after: float = 5.0
    # the group commit waits at most this long for more actions before it writes a batch, and
    # only at a steady rate where another action is likely meanwhile (a move's acknowledgement
    # waits at most this much longer; 0: never wait). duiyi.server.committer, issue 26
    commit_window: float = 0.004
    # finished games nobody watches leave memory after this long (they reload on demand)
    idle_seconds: float = 600.0
    max_body_bytes: int = 65536
    rate_per_second: float = 50.0
    rate_burst: int = 200
    # behind a proxy: the header that carries the client's address (X-Forwarded-For,
    # X-Real-IP), trusted only from ``trusted_proxies``; None: the peer address is the client
    proxy_header: str | None = None
    trusted_proxies: frozenset[str] = frozenset({"127.0.0.1", "::1"})
    # live engine games: at most this many at once, and per client address; an engine game
    # idle this long is ended (its engine process stops)
    max_engine_games: int = 16
    max_engine_games_per_client: int = 2
    # and per client network (IPv4 /24, IPv6 /64): a client with many addresses (issue 33:
    # 8 addresses held the cluster's 16) holds no more than this
    max_engine_games_per_network: int = 4
    engine_idle_seconds: float = 600.0
    # events whose players are engines (arbitrary programs the organiser registers) have their
    # rounds played here only when this is set: ``duiyi serve --engine-players`` or
    # ``DUIYI_ENGINE_PLAYERS=1``; an engine player silent this long in an untimed game
    # withdraws (Go §28)
    engine_players: bool = False
    engine_move_timeout: float = 60.0
    # bounds (issue 25): players per event; events a client may create per hour; open HTTP
    # connections per client address (trusted proxies exempt) and in all (beyond: 503);
    # seconds for a request's head and body to arrive, and for an idle keep-alive
    # connection; sockets per game and per client; event changes one process makes at once
    # (the rest wait, then 503, so that event writes cannot take every database connection)
    max_players_per_event: int = 5000
    max_events_per_client: int = 100
    max_connections_per_client: int = 256
    max_connections: int = 4000
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive_timeout: float = 5.0
    max_sockets_per_game: int = 200
    max_sockets_per_client: int = 256
    max_event_writes: int = 8
    # addresses whose X-Forwarded-For uvicorn believes (comma separated, "*" for any); None:
    # nobody's, so a local client cannot forge its address past the per-client limits
    forwarded_allow_ips: str | None = None
    # the engines this server may run: the operator's file (``--engines``), and GNU Go when
    # asked (``--gnugo``); nothing else runs (duiyi.server.engines.catalog)
    engines_file: str | None = None
    gnugo: bool = False
    demo: bool = False
    tune_gc: bool = True
    # the processes behind nginx, as its upstream block names them (in order), and this one's
    # address among them: a game is owned by its point on nginx's ring (duiyi.server.cluster.ring)
    peers: tuple[str, ...] = ()
    peer_address: str | None = None
    # the operator's key (``DUIYI_OPERATOR_KEY``): ``GET /api/metrics`` answers only a bearer of
    # it (process ids, peers, uptime and counters are the operator's); None: metrics answer
    # nobody
    operator_key: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.peers and self.peer_address is not None:
            if self.peer_address not in self.peers:
                raise ValueError(
                    f"this process's address {self.peer_address!r} is not among the peers "
                    f"{list(self.peers)} (DUIYI_PEERS, as nginx's upstream block names them; "
                    "set DUIYI_PEER_ADDRESS to the name nginx gives this process)"
                )
            if "@" not in self.process_id:  # the others read the address in the process id
                object.__setattr__(self, "process_id", f"{self.process_id}@{self.peer_address}")

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings with the environment filling what ``overrides`` leaves out."""
        values: dict[str, object] = {
            "database_url": os.environ.get("DUIYI_DATABASE_URL"),
            "redis_url": os.environ.get("DUIYI_REDIS_URL") or None,
        }
        proxy = os.environ.get("DUIYI_PROXY_HEADER")
        if proxy:
            values["proxy_header"] = proxy
        trusted = os.environ.get("DUIYI_TRUSTED_PROXIES")
        if trusted:
            values["trusted_proxies"] = frozenset(t.strip() for t in trusted.split(",") if t)
        for f in fields(cls):
            raw = os.environ.get("DUIYI_" + f.name.upper()) if f.name in _BOUNDS else None
            if raw:
                values[f.name] = _KINDS[str(f.type)](raw)
        peers = os.environ.get("DUIYI_PEERS", "")
        if peers.strip():
            values["peers"] = tuple(p.strip() for p in peers.split(",") if p.strip())
        if os.environ.get("DUIYI_PEER_ADDRESS"):
            values["peer_address"] = os.environ["DUIYI_PEER_ADDRESS"].strip()
        if os.environ.get("DUIYI_ENGINE_PLAYERS", "").strip().lower() in ("1", "true", "yes"):
            values["engine_players"] = True
        if os.environ.get("DUIYI_OPERATOR_KEY", "").strip():
            values["operator_key"] = os.environ["DUIYI_OPERATOR_KEY"].strip()
        if os.environ.get("DUIYI_ENGINES"):
            values["engines_file"] = os.environ["DUIYI_ENGINES"]
        gnugo = os.environ.get("DUIYI_GNUGO", "").strip().lower()
        if gnugo and gnugo not in ("0", "false", "no"):
            values["gnugo"] = True
        rate = os.environ.get("DUIYI_RATE_PER_SECOND")
        if rate:
            values["rate_per_second"] = float(rate)
            values["rate_burst"] = max(1, int(float(rate) * 4))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
