"""Routes for the browser UI beyond the core game API: games against an engine and a read-only
analysis of a game (Black's forbidden points in Renju, the automatic dead-stone proposal in Go,
which actions each seat may take now). The UI computes nothing rule-related itself.

``POST /api/engine-games`` ``{"game": "go", "size": 9, "engine": "gnugo", "human": "black"}``
creates an ordinary game and answers only the human's token; the engine plays the other seat.
The engine is named from the operator's list (:mod:`duiyi.server.engines.catalog`), never given
as a command.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput
from duiyi.games import get as get_game
from duiyi.server.engines.catalog import (
    ENGINE_NAME,
    EngineList,
    EngineNotListed,
    EngineNotOffered,
    EngineRun,
)
from duiyi.server.engines.driver import EngineSeat
from duiyi.server.engines.seats import SEATS as _SEATS
from duiyi.server.engines.seats import check_concurrency, player_seats, seat_engines
from duiyi.server.games.manager import GameManager, NewGame
from duiyi.server.games.rematch import rematch_id
from duiyi.server.games.spec import refused_by_rules
from duiyi.server.limits import client_address
from duiyi.server.problems import RateLimited, Unavailable
from duiyi.server.schemas import NO_BOOL, Preset, TimeControl
from duiyi.server.settings import Settings
from duiyi.server.state import engines_of, games_of, repo_of
from duiyi.store.repository import Conflict, NotFound, Repository

__all__ = ["analysis", "router"]

router = APIRouter(tags=["engines"])

log = logging.getLogger("duiyi.server.engines")

# game id -> the engines playing in it (this process only): one opposite a human, two in an
# event's engine game (duiyi.server.engines.rounds)
_STARTING = asyncio.Lock()


class EngineGame(BaseModel):
    """A game against an engine."""

    # the level is given once: in ``engine`` ('NAME:LEVEL') or as ``level``, never both (the
    # document says so, as the server refuses it: resolve_choice)
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "not": {
                "required": ["engine", "level"],
                "properties": {"engine": {"pattern": ":"}, "level": {"type": "integer"}},
            }
        },
    )

    game: Literal["go", "gomoku"] = "go"
    size: Annotated[int, Field(ge=5, le=19, description="Go board size"), NO_BOOL] = 9
    engine: str = Field(
        "",
        pattern=r"^(?:" + ENGINE_NAME[1:-1] + r")?$",  # anchored: JSON Schema's are not
        description="an engine this server offers for the game (GET /api/engines), by name, "
        "'NAME:LEVEL' for a level; default: the first one offered",
    )
    level: Annotated[int, Field(ge=0, le=999), NO_BOOL] | None = Field(
        None, description="the engine's level, when it has levels (GET /api/engines)"
    )
    human: Literal["black", "white"] = Field("black", description="the human's colour")
    rules: Preset | None = Field(None, description="Go: chinese...; Gomoku: free or free_renju")
    handicap: Annotated[int, Field(ge=0, le=9), NO_BOOL] = 0
    time_control: TimeControl | None = None


@router.get("/api/engines")
async def list_engines(request: Request) -> dict[str, Any]:
    """The engines the operator offers here: names by game (``{"go": ["gnugo"], "gomoku":
    []}``) and ``engines``, each with its ``game``, ``label`` and levels (never a command)."""
    return engines_of(request).to_json()


def resolve_choice(engines: EngineList, game: str, name: str, level: int | None) -> EngineRun:
    """The engine a game against the computer asks for: ``name`` (the first offered for
    ``game`` when empty) at ``level``; EngineNotOffered (422) for anything the operator did not
    list.

    >>> resolve_choice(EngineList(), "go", "", None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.server.engines.catalog.EngineNotListed: this server offers no engine for go ...
    """
    if not name:
        offered = engines.of_game(game)
        if not offered:
            raise EngineNotListed(
                f"this server offers no engine for {game} (the operator lists engines with "
                "`duiyi serve --engines FILE` or `--gnugo`)"
            )
        name = offered[0].name
    if level is not None:
        if ":" in name:
            raise EngineNotOffered("give the level once: 'engine': 'NAME:LEVEL' or 'level'")
        name = f"{name}:{level}"
    try:
        return engines.resolve(name, game)
    except EngineNotListed:
        raise
    except EngineNotOffered as exc:
        if level is None:
            raise
        # a level the document allows (0-999) that this server's entry does not have: the
        # engine at that level is not on this server, as an unlisted name (404)
        raise EngineNotListed(exc.message) from exc


@router.get("/api/live-games")
async def live_games(request: Request, limit: int = 50) -> dict[str, Any]:
    """Every game in play, newest first, for spectators to pick from: read from the store, so
    each process lists the games of all processes. A game hosted here is described from its
    session (``moves_exact``: true); another process's game from its stored record, where
    ``moves`` is the number of logged actions, an upper bound of the moves played
    (``moves_exact``: false) and ``phase`` is null."""
    manager = games_of(request)
    records = await repo_of(request).live_games()
    records.sort(key=lambda r: r.created_at, reverse=True)
    out = []
    for record in records:
        host = manager.hosts.get(record.id)
        entry = _live_entry(record, host)
        if entry is None:
            continue
        out.append(entry)
        if len(out) >= max(1, min(limit, 200)):
            break
    return {"games": out}


def _live_entry(record: Any, host: Any) -> dict[str, Any] | None:
    """One row of :func:`live_games` (None for a game that has just ended here).

    >>> from types import SimpleNamespace as NS
    >>> rec = NS(id="g1", kind="go", version=7, event_id=None, round=None, board=None,
    ...          config={"game": {"actions": [{"type": "start", "size": 13}]}})
    >>> row = _live_entry(rec, None)
    >>> row["size"], row["moves"], row["moves_exact"], row["phase"]
    (13, 7, False, None)
    """
    base = {
        "id": record.id,
        "event_id": record.event_id,
        "round": record.round,
        "board": record.board,
        "engine": record.id in _SEATS or isinstance(record.config.get("engine"), dict),
    }
    if host is not None:
        if host.session.outcome() is not None:
            return None
        view = host.view()
        return {
            **base,
            "game": view["game"],
            "size": view.get("size") or 15,
            "phase": view["phase"],
            "moves": host.session.game.moves_played(),
            "moves_exact": True,
        }
    return {
        **base,
        "game": record.kind,
        "size": get_game(record.kind).stored_size(record.config),
        "phase": None,
        "moves": record.version,
        "moves_exact": False,
    }


@router.get("/api/gomoku/openings")
async def list_openings() -> dict[str, Any]:
    """The 26 designated openings (Gomoku §3.2) in their reference orientation."""
    from duiyi.gomoku.openings import OPENINGS

    return {"openings": [o.to_json() for o in OPENINGS]}


@router.post("/api/engine-games", status_code=201)
async def create_engine_game(request: Request, spec: EngineGame) -> dict[str, Any]:
    """Create a game against an engine; answers the game id and the human's token only."""
    if spec.human not in ("black", "white"):
        raise InvalidInput(f"human must be 'black' or 'white', got {spec.human!r}")
    human = Color(spec.human)
    run = resolve_choice(engines_of(request), spec.game, spec.engine, spec.level)
    kind = get_game(spec.game)
    rules = spec.rules or kind.engine_preset
    if kind.engine_presets is not None and rules not in kind.engine_presets:
        # Gomoku: the designated opening (swap, N-dab) has no Gomocup protocol
        raise Conflict(
            f"an engine plays {kind.title} with a free opening: rules "
            + " or ".join(kind.engine_presets)
        )
    body: dict[str, Any] = {"game": kind.name, "rules": rules, "size": spec.size}
    if spec.handicap:
        body["handicap"] = spec.handicap
    if spec.time_control is not None:
        body["time_control"] = spec.time_control.model_dump(mode="json", exclude_none=True)
    return await _start_engine_game(request, body, human, run)


async def _start_engine_game(
    request: Request,
    body: dict[str, Any],
    human: Color,
    run: EngineRun,
    *,
    game_id: str | None = None,
) -> dict[str, Any]:
    """Create the game of ``body`` with ``run`` playing the seat opposite ``human``: the
    caps checked, the engine seated; answers the game id and the human's token only."""
    kind = str(body["game"])
    # the entry's name is stored (never its command): a restart resolves it again; and the
    # game's request, for a rematch with the colours swapped
    engine = {"seat": human.opponent.value, "kind": kind, "name": run.spec, "request": body}
    settings = request.app.state.duiyi.settings
    client = client_address(request.scope, settings.proxy_header, settings.trusted_proxies)
    key = client_key(client)
    manager = games_of(request)
    async with _STARTING:  # one at a time in this process; the store decides across processes
        await _check_caps(manager, settings, key, taken=False)
        check_concurrency([run])
        host, tokens = await manager.create(
            NewGame(refused_by_rules(body), engine=engine, engine_client=key, game_id=game_id)
        )
        try:
            # counted again with the new game in: of two processes that created games at
            # once, at least the later one sees both (never more than the caps)
            await _check_caps(manager, settings, key, taken=True)
        except BaseException:
            await manager.drop(host)
            raise
        seat_engines(host, [EngineSeat(host, human.opponent, kind, run)])
    return {
        "id": host.id,
        "seat": human.value,
        "token": tokens[human.value],
        "engine": run.entry.name,
        "state": host.view(),
    }


async def engine_rematch(
    request: Request, game_id: str, seat: Color, engine: dict[str, Any]
) -> dict[str, Any]:
    """After a casual game against an engine (``POST /api/games/{id}/rematch``, issue 21): a
    new game against the same engine at the same level, with the same rules and time, the
    colours swapped, made at once. Once per game (the rematch's id is fixed by the game's, so
    the store refuses a second one); answers as ``POST /api/engine-games``."""
    if not isinstance(engine.get("request"), dict):
        raise Conflict("a rematch is for a casual game against an engine, made by this version")
    manager = games_of(request)
    again = rematch_id(game_id)
    made = Conflict(f"the rematch of this game is made already: game {again}")
    with contextlib.suppress(NotFound):
        await manager.repo.game(again)
        raise made
    kind = str(engine.get("kind", "go"))
    run = resolve_choice(engines_of(request), kind, str(engine.get("name", "")), None)
    try:
        # the colours swapped: the human takes the colour the engine had
        return await _start_engine_game(
            request, dict(engine["request"]), seat.opponent, run, game_id=again
        )
    except Conflict as exc:
        if again in str(exc):  # two asked at once: the store kept one
            raise made from None
        raise


def network_of(client: str) -> str:
    """The network a client address belongs to for the engine caps: its IPv4 /24, its IPv6
    /64 (an IPv4-mapped address as IPv4); anything else is its own network.

    >>> network_of("203.0.113.9"), network_of("2001:db8:1:2:3::9"), network_of("::ffff:10.1.2.3")
    ('203.0.113.0/24', '2001:db8:1:2::/64', '10.1.2.0/24')
    >>> network_of("testclient")
    'testclient'
    """
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return client
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    prefix = 24 if address.version == 4 else 64
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


def client_key(client: str) -> str:
    """What the store keeps of the client that started an engine game: a digest of its
    network (:func:`network_of`), a dot, a digest of its address (never the address itself).

    >>> a, b = client_key("203.0.113.9"), client_key("203.0.113.10")
    >>> len(a), a == client_key("203.0.113.9"), a != b, a.split(".")[0] == b.split(".")[0]
    (49, True, True, True)
    """

    def digest(what: str, size: int) -> str:
        return hashlib.sha256(b"duiyi-engine-client:" + what.encode()).hexdigest()[:size]

    return f"{digest(network_of(client), 16)}.{digest(client, 32)}"


async def _check_caps(manager: GameManager, settings: Settings, key: str, *, taken: bool) -> None:
    """Refuse a new engine game past the caps, counting the live engine games of every
    process in the store (those with a commit in the last ``engine_idle_seconds``): the
    cluster's, the client address's and its network's (so that many addresses of one network
    never hold every place); with ``taken`` the new game is already among them."""
    since = time.time() - settings.engine_idle_seconds
    counts = await manager.repo.engine_game_counts(since)
    network = key.partition(".")[0] + "."
    total, mine = sum(counts.values()), counts.get(key, 0)
    ours = sum(n for k, n in counts.items() if k.startswith(network))
    if taken:
        total, mine, ours = total - 1, mine - 1, ours - 1
    if total >= settings.max_engine_games:
        raise Unavailable(f"this server runs {total} engine games, its limit; try again later")
    if mine >= settings.max_engine_games_per_client:
        raise RateLimited(
            f"you already play {mine} live engine games (the limit per client): "
            "finish or resign one first"
        )
    if ours >= settings.max_engine_games_per_network:
        raise RateLimited(
            f"your network already plays {ours} live engine games (the limit per network, "
            f"{settings.max_engine_games_per_network}): finish or resign one first"
        )


@router.get("/api/games/{game_id}/analysis")
async def get_analysis(request: Request, game_id: str) -> dict[str, Any]:
    """What the rules say about the position now, for displays: each seat's allowed actions,
    Renju's forbidden points for Black (Gomoku §2.19), the Go dead-stone proposal and count."""
    host = await games_of(request).find(game_id)
    session = await host.current_session()
    out = analysis(session)
    out["version"] = host.version
    record = getattr(host, "record", None)
    if record is not None and (record.config or {}).get("hints") is False:
        # a rated event's game: Black's forbidden points are not shown (Gomoku §12.2(7))
        out["forbidden"] = {}
        out["hints"] = False
    seats = _SEATS.get(game_id, [])
    if len(seats) == 1:
        entry = seats[0].run.entry
        out["engine"] = {
            "seat": seats[0].seat.value,
            "error": seats[0].error,
            "name": entry.label or entry.name,  # the name the player sees opposite
        }
        views = dead_views(seats[0].dead_opinion, session, out.get("proposal"))
        if views is not None:
            out["engine"]["dead"] = views.pop("engine")
            out["dead_views"] = views
    elif seats:  # an event's engine game: both seats
        out["engines"] = {s.seat.value: {"error": s.error} for s in seats}
    return out


async def engine_games_live(repo: Repository, settings: Settings) -> int:
    """How many live engine games the whole cluster has (counted in the store, as the caps
    are), event games included."""
    total, _mine = await repo.engine_games("", time.time() - settings.engine_idle_seconds)
    return total


def install_engine_hook(
    manager: GameManager,
    engines: EngineList,
    idle_seconds: float = 600.0,
    *,
    engine_players: bool = False,
    move_timeout: float = 60.0,
) -> None:
    """A live engine game loaded from the store (after a restart, even a crash) gets its
    engine back at once: the seat it plays and the engine's name are stored with the game,
    and the name is resolved again in ``engines`` (a name the operator no longer lists, or a
    command stored by an older version, is not run: the game waits for the director). An
    event's engine game (``{"players": {"black": NAME, "white": NAME}}``) gets both engines
    back only on a server that allows engine players (``engine_players``). When the server
    stops, every engine's process group is killed."""

    def resume(host: Any) -> None:
        engine = host.record.config.get("engine")
        if not isinstance(engine, dict) or host.id in _SEATS:
            return
        kind = str(engine.get("kind", "go"))
        players = engine.get("players")
        try:
            if isinstance(players, dict):
                if not engine_players:
                    log.warning(
                        "game %s: engine players are not allowed here; not resumed", host.id
                    )
                    return
                runs = {seat: engines.resolve(str(name), kind) for seat, name in players.items()}
                seat_engines(host, player_seats(host, runs, move_timeout, kind))
                return
            name = engine.get("name")
            run = resolve_choice(engines, kind, "" if name is None else str(name), None)
        except EngineNotOffered as exc:
            log.warning("game %s: its engine is not offered here; not resumed (%s)", host.id, exc)
            return
        seat = EngineSeat(host, Color(engine["seat"]), kind, run)
        # the engine's dead stones read before a restart, shown again at the count
        seat.dead_opinion = stored_opinion(host.record.config)
        seat_engines(host, [seat])

    async def evicted(host: Any) -> None:
        for seat in _SEATS.pop(host.id, []):
            await seat.stop()

    async def reap() -> None:
        # finished engine games leave the table; idle engines stop their process
        now = time.monotonic()
        for game_id, seats in list(_SEATS.items()):
            if not any(s.running for s in seats):
                _SEATS.pop(game_id, None)
                continue
            for seat in seats:
                if now - seat.host.last_active > idle_seconds and await seat.reap():
                    log.info("game %s: idle engine stopped (it comes back when needed)", game_id)

    async def close() -> None:
        # the server stops: every engine's process group is killed at once, then reaped
        seats = [s for group in _SEATS.values() for s in group]
        _SEATS.clear()
        for seat in seats:
            seat.kill_now()
        await asyncio.gather(*(s.stop(kill=True) for s in seats), return_exceptions=True)

    manager.on_loaded = resume
    manager.on_evicted = evicted
    manager.sweepers.append(reap)
    manager.closers.append(close)


@router.get("/api/games/{game_id}/position")
async def get_position(
    request: Request, game_id: str, move: Annotated[int, Query(ge=0)] = 0
) -> dict[str, Any]:
    """The board after the first ``move`` moves (for the move list's navigation): stones,
    captures and the last move, for a game whose stones leave the board (Go); a Gomoku
    record is its stones (the game's adapter refuses)."""
    host = await games_of(request).find(game_id)
    session = await host.current_session()
    played = session.game.moves_played()
    if move > played:  # a move not played: no such position (yet), not a malformed request
        raise NotFound(f"move must be 0-{played}, got {move}: no such position")
    try:
        return session.game.position(move)
    except InvalidInput as exc:  # a Gomoku game: its record is its stones, no positions
        raise NotFound(f"no positions in game {game_id}: {exc.message}") from exc


def analysis(session: Any) -> dict[str, Any]:
    """The analysis of a session (see :func:`get_analysis`): the game's own view
    (:meth:`~duiyi.games.GameAdapter.analysis`) and the actions each seat may send now.

    >>> from duiyi.server.games.spec import new_session
    >>> analysis(new_session({"game": "go", "size": 9}))["allowed"]["black"]
    ['move', 'pass', 'resign']
    """
    over = session.outcome() is not None
    game = session.game
    out: dict[str, Any] = {"game": game.kind, **game.analysis(over=over)}
    allowed: dict[str, list[str]] = {"black": [], "white": []}
    if not over and not session.paused:
        for seat in (BLACK, WHITE):
            acts = game.allowed_actions(seat)
            if session.to_move() is not None and session.may_request_overtime_pass(seat):
                acts.append("request_overtime_pass")  # Go §22.5, in advance or at once
            allowed[seat.value] = acts + takeback_actions(session, seat)
    kind = session.kind
    if kind is not None and kind.overtime_pass and session.clock.system.has_overtime and not over:
        # whose overrun of the last period counts as a pass (Go §22.5): asked, or granted
        out["overtime_pass"] = [
            seat.value for seat in (BLACK, WHITE) if not session.may_request_overtime_pass(seat)
        ]
    out["allowed"] = allowed
    return out


def dead_views(
    opinion: tuple[int, list[str]] | None, session: Any, proposal: list[str] | None
) -> dict[str, list[str]] | None:
    """At the count of an engine game: the engine's dead stones (``engine``, GTP
    ``final_status_list dead`` read after the game's last move) beside duiyi's proposal, and
    where they disagree: ``engine_only`` (the engine thinks them dead, the proposal alive)
    and ``duiyi_only`` (the proposal dead, the engine alive). None without both views.

    >>> from duiyi.server.games.spec import new_session
    >>> s = new_session({"game": "go", "size": 9})
    >>> dead_views((0, ["C3", "D4"]), s, ["D4", "E5"])
    {'engine': ['C3', 'D4'], 'engine_only': ['C3'], 'duiyi_only': ['E5']}
    >>> dead_views((1, ["C3"]), s, ["D4"]) is None  # read before another move: stale
    True
    """
    if opinion is None or proposal is None:
        return None
    moves, dead = opinion
    if moves != session.game.moves_played():
        return None
    return {
        "engine": list(dead),
        "engine_only": sorted(set(dead) - set(proposal)),
        "duiyi_only": sorted(set(proposal) - set(dead)),
    }


def stored_opinion(config: dict[str, Any]) -> tuple[int, list[str]] | None:
    """The engine's dead stones stored with a game (``EngineSeat._keep_opinion``): the
    number of moves they were read after and the points; None when none were stored.

    >>> stored_opinion({"engine_dead": {"moves": 40, "dead": ["C3"]}})
    (40, ['C3'])
    >>> stored_opinion({}) is None
    True
    """
    kept = config.get("engine_dead")
    if not isinstance(kept, dict) or not isinstance(kept.get("dead"), list):
        return None
    return int(kept.get("moves", -1)), [str(p) for p in kept["dead"]]


def takeback_actions(session: Any, seat: Color) -> list[str]:
    """The takeback actions ``seat`` may send now (a casual game, issue 21): ask to take back
    its last move, or answer the opponent's request.

    >>> from duiyi.server.games.spec import new_session
    >>> s = new_session({"game": "go", "size": 9, "takebacks": True})
    >>> s.move(BLACK, "E5", now=1.0)
    >>> takeback_actions(s, BLACK), takeback_actions(s, WHITE)
    (['request_takeback'], [])
    >>> from duiyi.actions import RequestTakeback
    >>> s.apply(RequestTakeback(), 2.0, BLACK)
    >>> takeback_actions(s, BLACK), takeback_actions(s, WHITE)
    ([], ['accept_takeback', 'decline_takeback'])
    """
    if session.takeback_request is seat.opponent:
        if not session.can_take_back(seat.opponent):  # play stopped since: answer no
            return ["decline_takeback"]
        return ["accept_takeback", "decline_takeback"]
    return ["request_takeback"] if session.may_request_takeback(seat) else []
