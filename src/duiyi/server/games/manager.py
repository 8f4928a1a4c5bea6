"""The games of this process: :class:`GameManager` creates, restores, finds, forwards and
forgets them (docs/server.md, "Failover")."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from duiyi.server.auth import hash_token, new_token, seat_token
from duiyi.server.cluster.misrouting import RoutingWatch, warning_text
from duiyi.server.cluster.ownership import Ownership
from duiyi.server.committer import GroupCommitter
from duiyi.server.games.broadcast import broadcast
from duiyi.server.games.host import GameHost
from duiyi.server.games.hosted import CLOSED, MOVED, Hosted, rebuild_session
from duiyi.server.games.remote import Forward, RemoteGame, stored_state
from duiyi.server.games.spec import new_session
from duiyi.server.games.view import event_link, game_view, public_entry
from duiyi.server.problems import Unavailable, report_failure
from duiyi.session import Session
from duiyi.store.repository import NotFound, Repository, StoredAction, StoredGame, new_id

__all__ = ["STALE_AFTER", "GameManager", "NewGame"]

log = logging.getLogger("duiyi.server")
_Loaded = TypeVar("_Loaded")  # what a load under the loading lock gives

# A process whose heartbeat is older than this is taken for dead: its games move to another.
STALE_AFTER = 5.0


@dataclasses.dataclass(frozen=True)
class NewGame:
    """What a new game is made of (:meth:`GameManager.create`).

    ``spec`` is the game's request (``{"game": "go", "size": 19, ...}``). An event's game
    names its event, round and board and the hash of the event's arbiter key (None: the game
    gets its own arbiter secret). ``engine`` (``{"seat": "white", "kind": "go"}``; an event's
    engine game: ``{"kind": "go", "players": {"black": CMD, "white": CMD}}``) is stored with
    the game, so that the engines come back with it after a restart; ``engine_client`` (a
    digest of the address that asked) lets every process count each client's engine games.
    ``token_hashes`` (Black's, White's) seat players who already hold links: a drawn knockout
    game replayed with colours reversed keeps its players' links. ``game_id``: the id picked
    beforehand (by the ring owner's choice), else a new one."""

    spec: dict[str, Any]
    event_id: str | None = None
    round: int | None = None
    board: int | None = None
    arbiter_token_hash: str | None = None
    engine: dict[str, Any] | None = None
    engine_client: str = ""
    token_hashes: tuple[str, str] | None = None
    game_id: str | None = None
    # the director's key the seats' secrets are derived from (auth.seat_token), so that the
    # links can be given again; None: random secrets, shown once
    links_key: str | None = None


class GameManager:
    """Creates, restores and finds the games this process hosts."""

    def __init__(self, repo: Repository, process_id: str) -> None:
        self.repo = repo
        self.process_id = process_id
        # another process whose heartbeat is this old is taken for dead (Settings.stale_after)
        self.stale_after = STALE_AFTER
        self.hosts: dict[str, GameHost] = {}
        self.remotes: dict[str, RemoteGame] = {}
        self.committer = GroupCommitter(repo)
        # seconds from receiving an action to its commit, for /api/metrics
        self.latencies: collections.deque[float] = collections.deque(maxlen=20_000)
        self._loading: dict[str, asyncio.Lock] = {}
        self.fan_out: Callable[[dict[str, Any]], None] = lambda _m: None
        # set by the Redis fan-out: several processes share the games
        self.forward: Forward | None = None
        # set by the event routes: a result sheet entered the outbox (wake its reader)
        self.on_report: Callable[[], None] | None = None
        # awaited by close(): the event routes' background work
        self.closers: list[Callable[[], Awaitable[None]]] = []
        # set by the engine routes: a live game loaded from the store gets its engine back
        self.on_loaded: Callable[[GameHost], None] | None = None
        # set by the engine routes: an evicted game lets its engine go
        self.on_evicted: Callable[[GameHost], Awaitable[None]] | None = None
        # periodic housekeeping of other modules (idle engines), run by sweep()
        self.sweepers: list[Callable[[], Awaitable[None]]] = []
        # set by the Redis fan-out: is that process still listening? (a killed one is not)
        self.alive: Callable[[str], Awaitable[bool]] | None = None
        # behind nginx's consistent hash (Settings.peers): who should host each game
        self.ownership: Ownership | None = None
        # with ``ownership``: the games' requests and sockets that reached this process, and
        # how many of them another process owns (nginx's ring differs: DUIYI_PEERS is wrong)
        self.routing: RoutingWatch | None = None
        # set by the Redis fan-out: this process took ``game_id`` over from ``old_owner``
        self.on_takeover: Callable[[str, str], None] | None = None
        # set by the Redis fan-out: this process stored new games for ``owner`` to host
        self.on_created_for: Callable[[str, list[str]], None] | None = None
        self._background: set[asyncio.Future[None]] = set()
        # for /api/metrics: the games this process claimed from another (by why: "failover",
        # the holder dead; "handover", alive, this process their ring owner), and the games
        # it let go because another process claimed them (their sockets were told to
        # reconnect: 4409)
        self.takeovers: collections.Counter[str] = collections.Counter()
        self.lost = 0
        # monotonic seconds when this process's last stored heartbeat was sent, and when a
        # lapse was last seen (no heartbeat stored for ``stale_after``: another process may
        # have taken its games over meanwhile, a paused process or one cut off from the store)
        self.beat_at: float | None = None
        self.lapsed_at = -math.inf
        # games forgotten because the store could not be read after a failed commit: loaded
        # again by the sweep (a timed game's flag must fall) unless a request did it first
        self.unloaded: set[str] = set()
        # the check of every game after a lapse, while it runs (confirm_all)
        self._confirming: asyncio.Future[None] | None = None
        self._confirm_again = False
        # game id -> (version, the session of its stored log at that version): states()
        self._replayed: collections.OrderedDict[str, tuple[int, Session]] = (
            collections.OrderedDict()
        )

    def beaten(self, sent: float) -> None:
        """This process's heartbeat sent at ``sent`` (monotonic) was stored.

        After a lapse every game here is checked against the store at once
        (:meth:`confirm_all`), not only when a request next reads it: a socket waiting for
        the opponent's move on a game another process took over meanwhile is closed (4409)
        even if the takeover's message through Redis never arrived.

        >>> m = GameManager.__new__(GameManager); m.stale_after, m.beat_at = 5.0, None
        >>> m.hosts, m.remotes, m._confirming = {}, {}, None
        >>> m.lapsed_at = -math.inf; m.beaten(100.0); m.beaten(101.0); m.lapsed_at
        -inf
        >>> m.beaten(109.0); m.lapsed_at  # 8 s without a beat: the games may be another's
        109.0
        """
        lapsed = self.lapse(sent) == sent
        self.beat_at = sent
        if lapsed:
            self._check_all()

    def relinked(self, now: float) -> None:
        """This process's link to Redis dropped and is back: a message to it may have been
        lost meanwhile (another process, seeing it not listening, took a game over and said
        so), so this is a lapse too: every game here is checked against the store."""
        self.lapsed_at = max(self.lapsed_at, now)
        self._check_all()

    def _check_all(self) -> None:
        """Run :meth:`confirm_all` in the background (again once it ends, if it runs now)."""
        if not self.hosts and not self.remotes:
            return
        if self._confirming is not None:
            self._confirm_again = True
            return
        self._confirm_again = False
        self._confirming = asyncio.ensure_future(self.confirm_all())
        self._confirming.add_done_callback(self._confirmed)

    def _confirmed(self, task: asyncio.Future[None]) -> None:
        self._confirming = None
        failed = None if task.cancelled() else task.exception()
        if failed is not None:
            # the store did not answer: each game is confirmed on its next read instead
            report_failure("checking the games after a lapse", failed)
        if self._confirm_again:
            self._check_all()

    def lapse(self, now: float) -> float:
        """When this process last went ``stale_after`` without a stored heartbeat (now, if it
        is so now): a game it hosted before then is served again only once the store says it
        still owns it (:meth:`confirm`).

        >>> m = GameManager.__new__(GameManager); m.stale_after, m.lapsed_at = 5.0, -math.inf
        >>> m.beat_at = 100.0; m.lapse(103.0), m.lapse(106.0)  # no beat stored since 100
        (-inf, 106.0)
        """
        if self.beat_at is not None and now - self.beat_at >= self.stale_after:
            self.lapsed_at = now
        return self.lapsed_at

    async def confirm(self, host: GameHost) -> None:
        """After a lapse: ``host`` is served from memory again only if the store still names
        this process its owner (no other could commit then: fencing); else another process
        took it over, and this one forgets it (a request then reads the store, or forwards to
        the owner), whether or not the owner's message saying so arrived."""
        record = await self.repo.game(host.id)
        if host.abandoned:
            return
        if record.owner == self.process_id:
            host.checked_at = time.monotonic()
        else:
            self.abandon(host)

    async def confirm_all(self) -> None:
        """:meth:`confirm` of every game hosted here since before the last lapse, in one read
        of the store: those another process took over are abandoned (their sockets close with
        4409 and reconnect through nginx to the owner). The sockets here of games hosted
        elsewhere are told to reconnect too when the store names another owner than the one
        they follow (the takeover's message, through Redis, was lost during the lapse)."""
        lapsed = self.lapsed_at
        hosts = [h for h in self.hosts.values() if h.checked_at < lapsed and not h.abandoned]
        remotes = [r for r in self.remotes.values() if r.listeners]
        if not hosts and not remotes:
            return
        owners = await self.repo.owners([h.id for h in hosts] + [r.id for r in remotes])
        now = time.monotonic()
        for host in hosts:
            if host.abandoned or self.hosts.get(host.id) is not host:
                continue  # abandoned, or loaded again, while the store was read
            if owners.get(host.id) == self.process_id:
                host.checked_at = now
            else:
                self.abandon(host)
        for remote in remotes:
            if self.remotes.get(remote.id) is remote and owners.get(remote.id) != (
                remote.record.owner
            ):
                self.remotes.pop(remote.id, None)
                remote.reconnect()

    async def create(self, new: NewGame) -> tuple[GameHost, dict[str, str]]:
        """A new game hosted here; returns the host and its new secrets (``black``, ``white``,
        and ``arbiter`` unless the event's arbiter key rules the game; none for the seats when
        ``new.token_hashes`` seats players who already hold links)."""
        record, session, secrets_ = await self._insert(new)
        host = GameHost(self, record, session, offset=-time.monotonic())
        self.hosts[record.id] = host
        host.start_timer()
        return host, secrets_

    async def _insert(
        self, new: NewGame, owner: str | None = None
    ) -> tuple[StoredGame, Session, dict[str, str]]:
        """Store a new game (owned by ``owner``, this process when None): its record, its
        session and its new secrets (:meth:`create`)."""
        made = self._prepare(new, owner or self.process_id, time.time())
        await self.repo.create_games([made[0]])
        return made

    def _prepare(
        self, new: NewGame, owner: str, wall: float
    ) -> tuple[StoredGame, Session, dict[str, str]]:
        """A new game's record (as it will be stored, owned by ``owner``), its session and its
        new secrets; nothing is stored yet."""
        spec, engine = new.spec, new.engine
        if new.event_id is not None:
            # an event's game keeps its scheduled start (Go §22, Gomoku §8)
            spec = {**spec, "start": "scheduled"}
        elif engine is not None and "start" not in spec:  # the engine never opens a seat
            spec = {**spec, "start": "first_move"}
        if new.event_id is None:  # a casual game allows a takeback by agreement (issue 21)
            spec = {**spec, "takebacks": True}
        session = new_session(spec, now=0.0)
        config = session.to_json()
        config.pop("actions")
        if spec.get("hints") is not None:
            # Black's forbidden points shown to the players (off in rated events, Gomoku §12.2(7))
            config["hints"] = bool(spec["hints"])
        if engine is not None:
            config["engine"] = dict(engine)
        game_id = new.game_id or new_id()
        if new.links_key is not None:
            secrets_ = {c: seat_token(new.links_key, game_id, c) for c in ("black", "white")}
        else:
            secrets_ = {"black": new_token(), "white": new_token()}
        black_hash, white_hash = hash_token(secrets_["black"]), hash_token(secrets_["white"])
        if new.token_hashes is not None:
            black_hash, white_hash = new.token_hashes
            secrets_ = {}
        arbiter_token_hash = new.arbiter_token_hash
        if arbiter_token_hash is None:
            secrets_["arbiter"] = new_token()
            arbiter_token_hash = hash_token(secrets_["arbiter"])
        record = StoredGame(
            id=game_id,
            kind=session.game.kind,
            config=config,
            status="live",
            version=0,
            black_token_hash=black_hash,
            white_token_hash=white_hash,
            arbiter_token_hash=arbiter_token_hash,
            event_id=new.event_id,
            round=new.round,
            board=new.board,
            outcome=None,
            created_at=wall,
            anchor_wall=wall,
            anchor_timeline=0.0,
            owner=owner,
            engine_client=None if engine is None else new.engine_client,
        )
        return record, session, secrets_

    async def create_many(self, news: Sequence[NewGame]) -> list[tuple[str, dict[str, str]]]:
        """Several new games at once (an event round's boards): each one's id and secrets.

        Each is made for its ring owner, as :meth:`create_routed` does, but all are stored in
        one transaction and one statement, and each other owner is told once to host its
        share (it loads them together: :meth:`host_many`). Between two games the loop serves
        the other games' moves; a game is never read back from the store."""
        wall = time.time()
        made = []
        for new in news:
            game_id = new.game_id or new_id()
            owner = None if self.ownership is None else self.ownership.owner_process(game_id)
            new = dataclasses.replace(new, game_id=game_id)
            made.append(self._prepare(new, owner or self.process_id, wall))
            await asyncio.sleep(0)  # a board's session is built: the other games' turn
        await self.repo.create_games([record for record, _, _ in made])
        elsewhere: dict[str, list[str]] = collections.defaultdict(list)
        for record, session, _ in made:
            if record.owner == self.process_id:
                host = GameHost(self, record, session, offset=-time.monotonic())
                self.hosts[record.id] = host
                host.start_timer()
            else:
                elsewhere[str(record.owner)].append(record.id)
        for owner, ids in elsewhere.items():
            if self.on_created_for is not None:
                self.on_created_for(owner, ids)
        return [(record.id, secrets_) for record, _, secrets_ in made]

    async def host_many(self, game_ids: Sequence[str]) -> int:
        """Host games another process created for this one (:meth:`create_many`), loaded
        together (:meth:`_load_many`: one read of their logs, one claim); those hosted here
        already, or no longer owned by this process, are left. Answers how many it took."""
        records = [
            r
            for r in await self.repo.games([g for g in game_ids if g not in self.hosts])
            if r.owner == self.process_id and r.status == "live"
        ]
        if not records:
            return 0
        return await self._load_many(records, await self.repo.heartbeats(0.0))

    async def create_routed(self, new: NewGame) -> tuple[Hosted, dict[str, str]]:
        """A new game (``POST /api/games``, an event round's boards) created for the process
        nginx will send its requests to: its id is picked here (unless ``new`` names it: a
        rematch's), and the game is hosted here when this process is its ring owner, else
        stored with its owner's process id, and the owner is told to load it (its timer runs
        there from the start; a lost message only delays that to its first request). Nothing is forwarded. Without peers:
        :meth:`create`. An engine game is made by :meth:`create` (its engine is seated here)."""
        if self.ownership is None:
            return await self.create(new)
        game_id = new.game_id or new_id()  # given: a rematch's, fixed by its game's
        new = dataclasses.replace(new, game_id=game_id)
        owner = self.ownership.owner_process(game_id)
        if owner is None or owner == self.process_id:
            return await self.create(new)
        record, session, secrets_ = await self._insert(new, owner=owner)
        if self.on_created_for is not None:
            self.on_created_for(owner, [record.id])
        state = game_view(record.id, session, 0, 0.0)
        state["event"] = event_link(record)
        return RemoteGame(self, record, state), secrets_

    async def states(
        self, records: Sequence[StoredGame]
    ) -> dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]:
        """The public log and state of each game (``records``: their rows, as read), for a
        page of many games (the arbiter's room): a game hosted here from its memory, every
        other from the store, all their logs read in one query and each replayed once per
        version (kept for the next read); no game is loaded, taken over or forwarded to."""
        out: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {}
        stored_ones = []
        for record in records:
            host = self.hosts.get(record.id)
            if host is not None and not host.abandoned:
                try:
                    out[record.id] = await host.read(0)
                    continue
                except Unavailable:
                    pass  # it left this process meanwhile: the store has it
            stored_ones.append(record)
        logs = await self.repo.logs([r.id for r in stored_ones])
        for record in stored_ones:
            stored = logs[record.id]
            try:
                session = self._replay(record, stored)
            except NotFound:
                log.exception("game %s: its stored log cannot be replayed", record.id)
                continue
            out[record.id] = (
                [public_entry(a.entry) for a in stored],
                stored_state(record, session),
            )
            await asyncio.sleep(0)  # a board replayed: the other games' turn
        return out

    #: games whose stored log replayed is kept for the next read (:meth:`states`)
    REPLAYED = 2000

    def _replay(self, record: StoredGame, stored: list[StoredAction]) -> Session:
        """The session of ``record``'s stored log ``stored``, replayed once per version (kept
        for the next read: :meth:`states`, :meth:`find`); NotFound if it cannot be."""
        replayed = self._replayed.get(record.id)
        if replayed is not None and replayed[0] == len(stored):
            self._replayed.move_to_end(record.id)
            return replayed[1]
        session = rebuild_session(record, stored)
        self._replayed[record.id] = (len(stored), session)
        while len(self._replayed) > self.REPLAYED:
            self._replayed.popitem(last=False)
        return session

    async def drop(self, host: GameHost) -> None:
        """Undo :meth:`create` of a game nobody played (its creation was refused)."""
        await host.stop()
        if self.hosts.get(host.id) is host:
            self.hosts.pop(host.id, None)
        await self.repo.delete_game(host.id)

    async def find(self, game_id: str) -> Hosted:
        """The read path (a page, ``GET /api/games/{id}``, a download, a key's check): the
        game as this process may answer it without hosting it. Hosted here: from memory
        (once the store confirms it after a lapse); else as the store holds it
        (:class:`RemoteGame`, caught up with the store on each read), whoever hosts it, alive,
        dead or nobody. Never loaded here, never claimed: a read takes no game over, so its
        owner never closes its sockets for it (issue 33: a finished game read on another
        process was claimed there, 50 times at the rounds' ends and 186 by the reads after the
        day, each one a 4409 for the owner's sockets). An action or a socket takes
        :meth:`serve`."""
        host = self.hosts.get(game_id)
        if host is not None and host.checked_at < self.lapse(time.monotonic()):
            await self.confirm(host)  # another process may own it now: the store says
            host = self.hosts.get(game_id)
        if host is not None and not host.abandoned:
            return host
        remote = self.remotes.get(game_id)
        if remote is not None:
            return remote  # its reads catch up with the store first (RemoteGame.read)
        record = await self.repo.game(game_id)
        session = self._replay(record, await self.repo.actions(game_id))
        return RemoteGame(self, record, await self._stored_view(record, session))

    async def _stored_view(self, record: StoredGame, session: Session) -> dict[str, Any]:
        """The state of a game read from the store (:meth:`find`); a live game whose holder is
        dead with its clock stopped at the holder's last heartbeat, where the process that
        takes it over resumes it (the outage is charged to nobody: the clock a read shows
        never runs back)."""
        if record.status != "live" or record.closed is not None:
            return stored_state(record, session)
        if record.owner is None or record.owner == self.process_id:
            return stored_state(record, session)
        wall = time.time()
        beat = await self.repo.last_heartbeat(record.owner)
        if await self._holder_alive(record, beat, wall):
            return stored_state(record, session)
        return stored_state(record, session, self._resume_at(record, session, beat, wall))

    async def _holder_alive(self, record: StoredGame, beat: float | None, wall: float) -> bool:
        """Whether another process holds ``record``'s game and is alive: its last heartbeat
        ``beat`` (read at ``wall``) is fresh and it listens on Redis (a single process: never,
        its holder was an earlier life)."""
        return (
            beat is not None
            and record.owner not in (None, self.process_id)
            and wall - beat < self.stale_after
            and self.alive is not None
            and await self.alive(record.owner or "")
        )

    async def serve(self, game_id: str) -> Hosted:
        """The host path (an action, a ruling, a socket, the server's own action on a game):
        the game hosted here; else, with several processes, a proxy that forwards to the live
        process that holds it (finished or not); else, its holder dead or absent (or this
        process the ring owner of a live game another holds: a hand-over), loaded here and
        claimed (its old holder is told: its sockets reconnect here). A read takes
        :meth:`find`, which never claims."""

        host = self.hosts.get(game_id)
        if host is not None and host.checked_at < self.lapse(time.monotonic()):
            await self.confirm(host)  # another process may own it now: the store says

        async def load() -> Hosted:
            record = await self.repo.game(game_id)
            if (
                self.forward is not None
                and not self._ring_owner(record)
                and await self._owned_elsewhere(record)
            ):
                remote = self.remotes.get(game_id)
                # a remote game's state is kept fresh by its owner's updates only while its
                # sockets here listen to the game (fanout: watch); else it is read again
                if remote is None or remote.record.owner != record.owner or not remote.listeners:
                    if remote is not None:
                        remote.reconnect()  # its sockets (if any) come back to the new one
                    session = rebuild_session(record, await self.repo.actions(game_id))
                    state = stored_state(record, session)
                    remote = self.remotes[game_id] = RemoteGame(self, record, state)
                return remote
            gone = self.remotes.pop(game_id, None)
            if gone is not None:  # hosted here now: its sockets reconnect to the host
                gone.reconnect()
            return await self._load(record)

        return await self._hosted_or_load(game_id, load)

    async def record(self, game_id: str) -> StoredGame:
        """The game's row, for its keys (which seat a token holds, the arbiter's key): from
        memory when hosted here, else from the store; nothing is loaded or replayed."""
        host = self.hosts.get(game_id)
        return host.record if host is not None else await self.repo.game(game_id)

    async def local(self, game_id: str) -> GameHost:
        """The game hosted by this process (loading it if needed): for forwarded actions."""

        async def load() -> GameHost:
            return await self._load(await self.repo.game(game_id))

        return await self._hosted_or_load(game_id, load)

    async def _hosted_or_load(
        self, game_id: str, load: Callable[[], Awaitable[_Loaded]]
    ) -> GameHost | _Loaded:
        """The game hosted here; else what ``load`` gives, under the game's loading lock and
        only if no one hosted it here while the lock was awaited."""
        host = self.hosts.get(game_id)
        if host is not None:
            return host
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            host = self.hosts.get(game_id)
            if host is not None:
                return host
            return await load()

    def _ring_owner(self, record: StoredGame) -> bool:
        """Whether this process should host a live game another process holds: it is the
        game's ring owner among the live processes (nginx sends the game's requests here), so
        it takes the game over rather than forwarding to the holder (who is told so)."""
        return (
            self.ownership is not None
            and record.status == "live"
            and record.owner != self.process_id
            and self.ownership.mine(record.id)
        )

    def arrived(self, game_id: str) -> None:
        """A request or socket of ``game_id`` reached this process (nginx sends it by the game
        id: misrouting.GameArrivals): counted, misrouted when its ring owner among the live
        peers is another process; a lasting misrouted majority is logged (docs/deploy.md)."""
        ownership, routing = self.ownership, self.routing
        if ownership is None or routing is None:
            return
        owner = ownership.owner_process(game_id)
        if owner is None:  # nginx itself would fall back to round robin
            return
        if routing.arrived(owner != self.process_id, time.monotonic()):
            bad, seen = routing.window()
            log.warning("%s", warning_text(ownership.address, ownership.ring.servers, bad, seen))

    async def _owned_elsewhere(
        self, record: StoredGame, beats: dict[str, float] | None = None, wall: float = 0.0
    ) -> bool:
        """Whether another live process holds the game, finished or not (``beats``, ``wall``:
        the heartbeats read at ``wall``, else this process's own reading). A finished game's
        holder keeps it too: an action on it (the round's end, an appeal) is forwarded there,
        never a reason to claim it (issue 33: its sockets closed with 4409)."""
        if record.owner is None or record.owner == self.process_id:
            return False
        if beats is None:
            if await self.stale(record.owner):
                return False
        else:
            beat = beats.get(record.owner)
            if beat is None or wall - beat >= self.stale_after:
                return False
        return self.alive is None or await self.alive(record.owner)

    async def stale(self, process: str) -> bool:
        """Whether ``process`` is taken for dead by its heartbeat: none stored, or one older
        than ``stale_after`` (docs/server.md, "Failover")."""
        beat = await self.repo.last_heartbeat(process)
        return beat is None or time.time() - beat >= self.stale_after

    def taken_over(self, game_id: str, owner: str) -> None:
        """Another process (``owner``) took ``game_id`` over (its message through Redis): this
        process stops serving it, and its sockets here reconnect (nginx sends them to the
        owner). The message may be late: this process may have taken the game back since it
        was sent (a paused process, resumed, is its ring owner again and loads it before it
        reads its messages), so a game hosted here is forgotten only once the store names
        another owner (:meth:`confirm`), never on the message's word alone."""
        host = self.hosts.get(game_id)
        if host is not None and owner != self.process_id:
            self._later(self._confirm_taken(host))
        remote = self.remotes.get(game_id)
        if remote is not None and remote.record.owner != owner:
            self.remotes.pop(game_id, None)
            remote.reconnect()

    async def _confirm_taken(self, host: GameHost) -> None:
        """:meth:`confirm` after a takeover's message; the store unreachable, the message is
        believed (nothing could be committed here anyway)."""
        try:
            await self.confirm(host)
        except Exception as exc:
            report_failure(f"game {host.id}: checking a takeover", exc)
            if not host.abandoned and self.hosts.get(host.id) is host:
                self.abandon(host)

    def _later(self, work: Awaitable[None]) -> None:
        """Run ``work`` in the background (kept until it ends)."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def abandon(self, host: GameHost, reason: str = MOVED) -> None:
        """Forget ``host``'s game here: another process owns it now (MOVED: fenced out), or
        this memory may differ from the store (UNLOADED: a commit and the reload after it
        failed); the next access reads the store again."""
        if reason == MOVED:
            self.lost += 1
            log.warning("game %s: taken over by another process; no longer served here", host.id)
        else:
            self.unloaded.add(host.id)
        if self.hosts.get(host.id) is host:
            self.hosts.pop(host.id, None)
        host._abandon(reason)
        if self.on_evicted is not None:
            self._later(self.on_evicted(host))

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        """Tell a game's sockets, here and in the other processes, something that is not in its
        log (``{"type": "calls", ...}``: the players' calls and their answers)."""
        message = {**message, "game_id": game_id}
        here = self.hosts.get(game_id) or self.remotes.get(game_id)
        if here is not None:
            broadcast(here.listeners, message)
        self.fan_out(message)

    def deliver(self, message: dict[str, Any]) -> None:
        """A broadcast from another process (through Redis)."""
        if message.get("type") == "takeover":  # to the game's watchers
            self.taken_over(str(message.get("game_id")), str(message.get("owner")))
            return
        if message.get("type") == "watching":  # the owner publishes the game's updates now
            remote = self.remotes.get(str(message.get("game_id")))
            if remote is not None:
                self._later(remote.refresh())
            return
        host = self.hosts.get(str(message.get("game_id")))
        if message.get("type") in ("calls", "rematch") and host is not None:  # announce()
            broadcast(host.listeners, message)
        if message.get("type") == CLOSED:
            if host is not None and host.closed is None:  # the owner tells its sockets
                host.closed = str(message.get("reason"))
                host._publish({"type": CLOSED, "reason": host.closed})
        elif (
            host is not None
            and message.get("type") == "update"
            and isinstance(message.get("version"), int)
            and message["version"] > host.version
        ):
            # somebody else committed this game: this process was fenced out (paused, cut
            # off) and must not serve what it remembers
            self.abandon(host)
        remote = self.remotes.get(str(message.get("game_id")))
        if remote is not None:
            remote.deliver(message)

    async def _load(self, record: StoredGame) -> GameHost:
        game_id = record.id
        stored = await self.repo.actions(game_id)
        session = rebuild_session(record, stored)
        wall = time.time()
        beat = None if record.owner is None else await self.repo.last_heartbeat(record.owner)
        holder_alive = await self._holder_alive(record, beat, wall)
        resume_at = self._resume_at(record, session, beat, wall, holder_alive)
        claimed = await self.repo.claim(game_id, record.owner, self.process_id, wall, resume_at)
        if not claimed:
            raise Unavailable(f"game {game_id} was just taken over by another process; retry")
        self._took(game_id, record.owner, "handover" if holder_alive else "failover")
        record = await self.repo.game(game_id)
        if record.version != len(session.log):
            # the old owner committed between our read and the claim (never after it: its
            # commits are fenced by the owner column): read the log again
            stored = await self.repo.actions(game_id)
            session = rebuild_session(record, stored)
        return self._host(record, session, resume_at, await self.repo.action_ids(game_id))

    def _took(self, game_id: str, old_owner: str | None, why: str) -> None:
        """``game_id`` was just claimed here from ``old_owner``: when that is another process,
        counted (``why``: "failover", its holder dead; "handover", alive, this process the
        ring owner) and the old owner told (its sockets reconnect, to this process)."""
        if old_owner in (None, self.process_id):
            return
        self.takeovers[why] += 1
        log.warning("game %s: taken over from %s (%s)", game_id, old_owner, why)
        if self.on_takeover is not None:
            self.on_takeover(game_id, old_owner)

    async def restore(self) -> int:
        """Load every live game nobody alive hosts (after a start or a crash); returns how
        many this process took.

        In a few statements whatever the number of games: the live games, the heartbeats,
        then the logs and action ids of the games to take, and one claim of them all
        (:meth:`_load_many`); a game whose owner committed after it was read is read again."""
        records = [r for r in await self.repo.live_games() if r.id not in self.hosts]
        beats = await self.repo.heartbeats(0.0)  # every process's last beat
        wall = time.time()
        elsewhere: dict[str | None, bool] = {}  # is this owner alive elsewhere? once per owner
        chosen = []
        for record in records:
            # with several processes a live owner keeps its games; alone, this process is the
            # only possible host (a crashed predecessor's heartbeat may still look fresh)
            if self.forward is not None:
                if record.owner not in elsewhere:
                    elsewhere[record.owner] = await self._owned_elsewhere(record, beats, wall)
                if elsewhere[record.owner]:
                    continue
            owner = None if self.ownership is None else self.ownership.owner_process(record.id)
            if owner not in (None, self.process_id):
                continue  # its ring owner is alive: nginx sends it there, it loads it there
            chosen.append(record)
        count = 0
        for start in range(0, len(chosen), self.RESTORE_BATCH):
            count += await self._load_many(chosen[start : start + self.RESTORE_BATCH], beats)
        if self.on_report is not None:
            self.on_report()  # results left in the outbox by a crash enter their events now
        return count

    #: games loaded by one claim at start-up
    RESTORE_BATCH = 500

    async def _load_many(self, records: list[StoredGame], beats: dict[str, float]) -> int:
        """:meth:`_load` for many games: their logs and action ids read together, one claim
        for all (each game's claim is still a compare-and-set on its owner). A game being
        loaded by a request meanwhile is left to it."""
        locks = []
        try:
            mine = []
            for record in records:
                lock = self._loading.setdefault(record.id, asyncio.Lock())
                if lock.locked() or record.id in self.hosts:
                    continue  # a request is loading it (or has): that load decides
                await lock.acquire()  # free: taken at once
                locks.append(lock)
                mine.append(record)
            ids = [r.id for r in mine]
            logs = await self.repo.logs(ids)
            action_ids = await self.repo.action_ids_of(ids)
            wall = time.time()
            loaded: dict[str, tuple[StoredGame, Session, float]] = {}
            for record in mine:
                try:
                    session = rebuild_session(record, logs[record.id])
                except NotFound:
                    log.exception("game %s: not restored", record.id)
                    continue
                # restore leaves a game whose holder is alive to it: each holder here is dead
                resume_at = self._resume_at(record, session, beats.get(record.owner or ""), wall)
                loaded[record.id] = (record, session, resume_at)
            taken = await self.repo.claim_many(
                [(g, r.owner, wall, at) for g, (r, _, at) in loaded.items()], self.process_id
            )
            for game_id, version in taken.items():
                record, session, resume_at = loaded[game_id]
                self._took(game_id, record.owner, "failover")  # restore: its holder is dead
                if version != len(session.log):
                    # the old owner committed between our read and the claim (never after it:
                    # its commits are fenced by the owner column): read the log again
                    record = await self.repo.game(game_id)
                    session = rebuild_session(record, await self.repo.actions(game_id))
                    action_ids[game_id] = await self.repo.action_ids(game_id)
                record = dataclasses.replace(
                    record,
                    owner=self.process_id,
                    version=version,
                    anchor_wall=wall,
                    anchor_timeline=resume_at,
                )
                self._host(record, session, resume_at, action_ids[game_id])
            return len(taken)
        finally:
            for lock in locks:
                lock.release()

    def _resume_at(
        self,
        record: StoredGame,
        session: Session,
        beat: float | None,
        wall: float,
        holder_alive: bool = False,
    ) -> float:
        """Where a loaded game's timeline resumes: at its holder's last heartbeat ``beat`` (the
        outage is charged to nobody), at ``wall`` when the holder is alive (a hand-over)."""
        resume_at = session.now
        if record.owner is not None:
            if holder_alive:
                # the holder is alive (a hand-over to the ring owner): its timeline ran on up
                # to now; a dead one's stopped at its last heartbeat (charged to nobody)
                beat = wall
            if beat is not None and beat > record.anchor_wall:
                resume_at = max(resume_at, record.anchor_timeline + (beat - record.anchor_wall))
        return max(resume_at, record.anchor_timeline)

    def _host(
        self, record: StoredGame, session: Session, resume_at: float, action_ids: dict[str, int]
    ) -> GameHost:
        """A loaded game hosted here from now on (its timer and engine started if it is on)."""
        host = GameHost(
            self, record, session, offset=resume_at - time.monotonic(), action_ids=action_ids
        )
        self.hosts[record.id] = host
        if session.outcome() is None and host.closed is None:
            host.start_timer()
            if self.on_loaded is not None:
                self.on_loaded(host)
        return host

    async def sweep(self, idle_seconds: float = 600.0) -> int:
        """Forget games nobody watches and nobody touched for ``idle_seconds``: finished ones,
        and live ones whose clock has nothing due (no time system, paused, adjourned), so
        that a timer never misses a flag. They stay in the store and load again on demand
        (an engine comes back with its game). Returns how many left memory."""
        now = time.monotonic()
        gone = [h for h in self.hosts.values() if self._evictable(h, now, idle_seconds)]
        for host in gone:
            await host.stop()
            self.hosts.pop(host.id, None)
            self._loading.pop(host.id, None)
            if self.on_evicted is not None:
                await self.on_evicted(host)
        for game_id in [g for g, r in self.remotes.items() if not r.listeners]:
            self.remotes.pop(game_id, None)
        for game_id in list(self.unloaded):  # back from the store once it answers
            try:
                await self.serve(game_id)  # hosted here before: its timer must run
            except NotFound:
                pass  # gone from the store: nothing to load
            except Exception as exc:
                report_failure(f"game {game_id}: loading it again", exc)
                break  # the store is still down: the next sweep tries again
            self.unloaded.discard(game_id)
        for sweeper in list(self.sweepers):
            try:
                await sweeper()
            except Exception as exc:
                report_failure("sweeper", exc)
        return len(gone)

    @staticmethod
    def _evictable(host: GameHost, now: float, idle_seconds: float) -> bool:
        if host.listeners or now - host.last_active <= idle_seconds or host.lock.locked():
            return False
        session = host.session
        if session.outcome() is not None:
            return True
        return session.next_deadline(host.now()) is None

    async def close(self) -> None:
        """Stop every timer, the event routes' work and the writer."""
        for host in list(self.hosts.values()):
            await host.stop()
        for closer in self.closers:
            await closer()
        await self.committer.close()

    async def close_event_game(self, game_id: str, reason: str, *, stored: bool = False) -> None:
        """Close an event game because the director entered its result: stored first (unless
        ``stored``: the result's own transaction closed it), then this process's host and,
        through the fan-out, the others' refuse its later actions (a lost message changes
        nothing: their commits check ``closed`` in the store)."""
        if not stored:
            await self.repo.close_game(game_id, reason)
        host = self.hosts.get(game_id)
        if host is None:  # hosted elsewhere (or nowhere: the store says it on load)
            self.fan_out({"type": CLOSED, "game_id": game_id, "reason": reason})
            return
        async with host.lock:
            host.closed = reason
        await host.stop()
        host._publish({"type": CLOSED, "reason": reason})  # sockets here and elsewhere
