"""An event in rows: the store assembles a ``duiyi.tournament`` :class:`Event` from its head
(``events.data["event"]``: the event JSON without players and rounds), its players (with
their absences), rounds, boards (each with its result record), audit trail and conflicts, and
writes back only the rows a change touched.

A player's participation flags (:mod:`duiyi.tournament.flags`, in the player's ``extra``) are
rows of ``event_absences``, one per round the player is absent from: a player's row has no
flags, and the assembled player has them back as the desk writes them (:func:`with_absences`).

Two kinds of write (docs/server.md, "Events in tables"):

- a change of the whole event (players, pairing, withdrawals, settings) is compared with the
  event it started from and writes the rows that differ, against the event's ``version``;
- a board's result (:func:`load_board`, :func:`write_board`) reads the head and that board
  only, and writes that board's row, its audit entry and its conflict row, against the board's
  own version and the head it was checked with: its cost does not grow with the rounds, and
  desks entering different boards of one round never refuse each other.

>>> from duiyi.tournament.model import Game
>>> g = Game(3, 7, 9)
>>> game_of(board_row("e1", 2, g), [], None) == g
True
>>> from types import SimpleNamespace  # a row's attributes
>>> player_of(SimpleNamespace(**player_row("e1", Player(4, "Li", "3d")))).rank
'3d'
>>> absent = Player(5, "Wu", extra=(("participating", "101"),))
>>> player_row("e1", absent)["extra"], absent_rounds(absent)
(None, [2])
>>> with_absences(player_of(SimpleNamespace(**player_row("e1", absent))), [2], 3) == absent
True
"""

from __future__ import annotations

import collections
import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Float,
    String,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from duiyi import Color
from duiyi.errors import TournamentError
from duiyi.store.models import (
    EventAbsenceRow,
    EventAuditRow,
    EventBoardRow,
    EventConflictRow,
    EventPlayerRow,
    EventRevisionRow,
    EventRoundRow,
    EventRow,
    GameRow,
)
from duiyi.tournament.event import put_game
from duiyi.tournament.flags import FLAGS, with_flags
from duiyi.tournament.flags import width as flags_width
from duiyi.tournament.flags import width_of as flags_width_of
from duiyi.tournament.model import Event, Game, Player, RoundRecord, Team, TeamPairing
from duiyi.tournament.results import AuditEntry, GameResult, ResultConflict, Source

__all__ = [
    "BoardSlice",
    "Head",
    "Loaded",
    "absent_rounds",
    "board_row",
    "cache_board",
    "cache_get",
    "cache_put",
    "game_of",
    "head_of",
    "insert_all",
    "load",
    "load_board",
    "pg_slice",
    "pg_write_params",
    "player_of",
    "player_row",
    "stored_players",
    "with_absences",
    "write_board",
    "write_diff",
]

PLAYERS = cast(Table, EventPlayerRow.__table__)
ABSENCES = cast(Table, EventAbsenceRow.__table__)
ROUNDS = cast(Table, EventRoundRow.__table__)
BOARDS = cast(Table, EventBoardRow.__table__)
AUDIT = cast(Table, EventAuditRow.__table__)
CONFLICTS = cast(Table, EventConflictRow.__table__)
EVENTS = cast(Table, EventRow.__table__)
REVISIONS = cast(Table, EventRevisionRow.__table__)


@dataclass(frozen=True)
class Head:
    """The ``events`` row of an event: its head document and versions.

    >>> Head("e1", "Cup", {}, 3, 1, "o", "a", 1.0, 2.0).version
    3
    """

    id: str
    name: str
    data: dict[str, Any]
    version: int
    head_version: int
    organiser_token_hash: str
    arbiter_token_hash: str
    created_at: float
    updated_at: float

    @classmethod
    def of(cls, row: Any) -> Head:
        """The head of an ``events`` row."""
        return cls(
            row.id,
            row.name,
            row.data,
            row.version,
            row.head_version,
            row.organiser_token_hash,
            row.arbiter_token_hash,
            row.created_at,
            row.updated_at,
        )


def head_of(event: Event) -> dict[str, Any]:
    """The event JSON without its players and rounds (they have rows of their own), made
    without writing them.

    >>> sorted(head_of(Event("Cup", "go", "swiss", 3)))
    ['game', 'lots', 'name', 'options', 'rounds', 'scoring', 'system', 'teams', 'v', 'withdrawals']
    """
    bare = Event(
        event.name,
        event.game,
        event.system,
        event.rounds,
        withdrawals=event.withdrawals,
        scoring=event.scoring,
        options=event.options,
        lots=event.lots,
    )
    data = bare.to_json()
    del data["players"], data["history"]
    data["teams"] = [t.to_json() for t in event.teams]
    return data


def _assemble(
    head: Mapping[str, Any], players: tuple[Player, ...], history: tuple[RoundRecord, ...]
) -> Event:
    """The event of a head document with its players and rounds (checked once)."""
    bare = Event.from_json({**head, "players": [], "history": [], "teams": []})
    teams = tuple(Team.from_json(t) for t in head.get("teams", []))
    return replace(bare, players=players, history=history, teams=teams)


def player_row(event_id: str, p: Player) -> dict[str, Any]:
    """The row of a player (without its participation flags: :func:`absent_rounds`)."""
    extra = {k: v for k, v in p.extra if k != FLAGS}
    return {
        "event_id": event_id,
        "number": p.number,
        "name": p.name,
        "rank": p.rank,
        "rating": p.rating,
        "club": p.club,
        "extra": extra or None,
    }


def player_of(row: Any, absent: Sequence[int] = (), width: int = 1) -> Player:
    """The player of a row, absent from the rounds ``absent`` in an event of ``width`` rounds
    (:func:`with_absences`)."""
    extra = row.extra or {}
    p = Player(
        row.number,
        row.name,
        row.rank,
        row.rating,
        row.club,
        tuple((str(k), str(v)) for k, v in extra.items()),
    )
    return with_absences(p, absent, width) if absent else p


def absent_rounds(p: Player) -> list[int]:
    """The rounds ``p`` is marked absent from: the ``0`` characters of its flags (any other
    means present, as :func:`duiyi.tournament.flags.absent_in` reads them).

    >>> absent_rounds(Player(1, "A", extra=(("participating", "01101"),)))
    [1, 4]
    """
    for k, v in p.extra:
        if k == FLAGS:
            return [i for i, c in enumerate(v, start=1) if c == "0"]
    return []


def with_absences(p: Player, absent: Sequence[int], width: int) -> Player:
    """``p`` with the flags of the rounds ``absent`` kept as the desk writes them
    (:func:`duiyi.tournament.flags.with_flags`): one character per round of an event of
    ``width`` rounds, more when an absence lies past them; none when ``absent`` is empty.

    >>> with_absences(Player(1, "A"), [2], 4).extra
    (('participating', '1011'),)
    >>> with_absences(Player(1, "A"), [6], 4).extra
    (('participating', '111110'),)
    """
    last = max(absent, default=0)
    gone = set(absent)
    flags = "".join("0" if r in gone else "1" for r in range(1, max(width, last) + 1))
    return with_flags(p, flags if last else "")


def stored_players(event: Event, only: Sequence[int] | None = None) -> Event:
    """``event`` as the store assembles it again from its rows: each player's flags as
    :func:`with_absences` writes them (flags kept in another form, as an imported file had
    them: the same absences in one character per round, last in ``extra``). The same object
    when nothing changes (the desk's flags are already in that form). ``only``: the indices
    of the players to look at (the others are known to be in that form).

    >>> from duiyi.tournament.event import add_players, new_event
    >>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, "A"), Player(0, "B")])
    >>> stored_players(e) is e
    True
    >>> odd = replace(e, players=(Player(1, "A", extra=(("participating", "01111111"),
    ...                                                  ("og:x", "y"))), e.players[1]))
    >>> stored_players(odd).player(1).extra
    (('og:x', 'y'), ('participating', '011'))
    """
    n = flags_width(event)
    players = list(event.players)
    changed = False
    for i in range(len(players)) if only is None else only:
        p = players[i]
        if any(k == FLAGS for k, _ in p.extra):
            q = with_absences(p, absent_rounds(p), n)
            if q != p:
                players[i], changed = q, True
    return replace(event, players=tuple(players)) if changed else event


def _penalty(game: Game) -> str:
    return ",".join(sorted(c.value for c in game.penalty))


def board_row(event_id: str, round_number: int, g: Game) -> dict[str, Any]:
    """The row of a board (its trail and conflict have rows of their own)."""
    return {
        "event_id": event_id,
        "round": round_number,
        "board": g.board,
        "black": g.black,
        "white": g.white,
        "result": None if g.result is None else g.result.value,
        "black_warnings": g.black_warnings,
        "white_warnings": g.white_warnings,
        "handicap": g.handicap,
        "penalty": _penalty(g),
        "source": None if g.source is None else g.source.value,
        "replays": g.replays,
    }


def game_of(row: Any, trail: Sequence[Any], conflict: Any) -> Game:
    """The game of a board row with its trail (JSON entries in order) and conflict (JSON)."""
    if isinstance(row, Mapping):
        get = row.__getitem__
    else:

        def get(name: str) -> Any:
            return getattr(row, name)

    result, source, penalty = get("result"), get("source"), get("penalty")
    return Game(
        get("board"),
        get("black"),
        get("white"),
        None if result is None else GameResult(result),
        get("black_warnings"),
        get("white_warnings"),
        get("handicap"),
        None if source is None else Source(source),
        tuple(AuditEntry.from_json(e) for e in trail),
        None if conflict is None else ResultConflict.from_json(conflict),
        frozenset(Color(c) for c in penalty.split(",")) if penalty else frozenset(),
        get("replays"),
    )


def _round_row(
    event_id: str, rnd: RoundRecord, explanation: dict[str, Any] | None
) -> dict[str, Any]:
    teams = bool(rnd.matches or rnd.team_byes)
    return {
        "event_id": event_id,
        "number": rnd.number,
        "byes": list(rnd.byes),
        "matches": [m.to_json() for m in rnd.matches] if teams else None,
        "team_byes": list(rnd.team_byes) if teams else None,
        "explanation": explanation,
    }


def _rows_of_round(
    event_id: str, rnd: RoundRecord
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    boards, audit, conflicts = [], [], []
    for g in rnd.games:
        boards.append(board_row(event_id, rnd.number, g))
        audit.extend(_audit_rows(event_id, rnd.number, g.board, g.trail, 0))
        if g.conflict is not None:
            conflicts.append(_conflict_row(event_id, rnd.number, g))
    return boards, audit, conflicts


def _audit_rows(
    event_id: str, round_number: int, board: int, trail: Sequence[AuditEntry], start: int
) -> list[dict[str, Any]]:
    return [
        {
            "event_id": event_id,
            "round": round_number,
            "board": board,
            "seq": seq,
            "entry": e.to_json(),
        }
        for seq, e in enumerate(trail[start:], start=start)
    ]


def _conflict_row(event_id: str, round_number: int, g: Game) -> dict[str, Any]:
    assert g.conflict is not None
    return {
        "event_id": event_id,
        "round": round_number,
        "board": g.board,
        "conflict": g.conflict.to_json(),
    }


async def _insert(conn: AsyncConnection, table: Any, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(table), rows)


async def insert_all(
    conn: AsyncConnection, event_id: str, event: Event, explanations: Mapping[str, Any]
) -> None:
    """Insert every row of a new event (its head row is the caller's)."""
    await _insert(conn, PLAYERS, [player_row(event_id, p) for p in event.players])
    await _insert(conn, ABSENCES, _absence_rows(event_id, _absences(event.players)))
    for rnd in event.history:
        await _insert_round(conn, event_id, rnd, explanations.get(str(rnd.number)))


async def _insert_round(
    conn: AsyncConnection, event_id: str, rnd: RoundRecord, explanation: Any
) -> None:
    await _insert(conn, ROUNDS, [_round_row(event_id, rnd, explanation)])
    boards, audit, conflicts = _rows_of_round(event_id, rnd)
    await _insert(conn, BOARDS, boards)
    await _insert(conn, AUDIT, audit)
    await _insert(conn, CONFLICTS, conflicts)


@dataclass(frozen=True)
class Loaded:
    """An event read from its rows: the head row's fields, the event, and the explanations of
    its rounds' pairings (by round number as a string, as the document kept them)."""

    head: Head
    event: Event
    explanations: dict[str, Any]


def _where(table: Any, event_id: str) -> Any:
    return table.c.event_id == event_id


def _absences(players: Sequence[Player]) -> set[tuple[int, int]]:
    """(player, round) of every absence of ``players``."""
    return {(p.number, r) for p in players for r in absent_rounds(p)}


def _absence_rows(event_id: str, absences: set[tuple[int, int]]) -> list[dict[str, Any]]:
    return [{"event_id": event_id, "player": n, "round": r} for n, r in sorted(absences)]


async def load(conn: AsyncConnection, event_id: str, head: Head) -> Loaded:
    """Assemble the whole event of the head row ``head`` from its rows."""
    players = (
        await conn.execute(select(PLAYERS).where(_where(PLAYERS, event_id)).order_by("number"))
    ).all()
    absences: dict[int, list[int]] = collections.defaultdict(list)
    for number, r in (
        await conn.execute(
            select(ABSENCES.c.player, ABSENCES.c.round)
            .where(_where(ABSENCES, event_id))
            .order_by("player", "round")
        )
    ).all():
        absences[number].append(r)
    rounds = (
        await conn.execute(select(ROUNDS).where(_where(ROUNDS, event_id)).order_by("number"))
    ).all()
    boards = (
        await conn.execute(
            select(BOARDS).where(_where(BOARDS, event_id)).order_by("round", "board")
        )
    ).all()
    trails: dict[tuple[int, int], list[Any]] = collections.defaultdict(list)
    for r, b, entry in (
        await conn.execute(
            select(AUDIT.c.round, AUDIT.c.board, AUDIT.c.entry)
            .where(_where(AUDIT, event_id))
            .order_by("round", "board", "seq")
        )
    ).all():
        trails[r, b].append(entry)
    conflicts = {
        (r, b): c
        for r, b, c in (
            await conn.execute(
                select(CONFLICTS.c.round, CONFLICTS.c.board, CONFLICTS.c.conflict).where(
                    _where(CONFLICTS, event_id)
                )
            )
        ).all()
    }
    by_round: dict[int, list[Game]] = collections.defaultdict(list)
    no_trail: list[Any] = []
    for row in boards:
        key = (row.round, row.board)
        by_round[row.round].append(game_of(row, trails.get(key, no_trail), conflicts.get(key)))
    history = tuple(
        RoundRecord(
            r.number,
            tuple(by_round.get(r.number, ())),
            tuple(r.byes or ()),
            tuple(TeamPairing.from_json(m) for m in r.matches or ()),
            tuple(r.team_byes or ()),
        )
        for r in rounds
    )
    data = head.data
    n = flags_width_of(int(data["event"]["rounds"]), len(history))
    none: list[int] = []
    event = _assemble(
        data["event"],
        tuple(player_of(p, absences.get(p.number, none), n) for p in players),
        history,
    )
    explanations = dict(data.get("explanations") or {})
    for r in rounds:
        if r.explanation is not None:
            explanations[str(r.number)] = r.explanation
    return Loaded(head, event, explanations)


def _explanation(explanations: Mapping[str, Any], number: int) -> Any:
    return explanations.get(str(number))


async def write_diff(
    conn: AsyncConnection,
    event_id: str,
    old: Event,
    new: Event,
    old_explanations: Mapping[str, Any],
    new_explanations: Mapping[str, Any],
) -> Event:
    """Write the rows where ``new`` differs from ``old`` (the event as stored): unchanged
    rounds and boards are the same objects (a pure operation copies only what it changes), so
    a change costs the rows it touched plus one identity check per board. Returns ``new`` as
    it is stored (:func:`stored_players`: what assembling it from the rows gives)."""
    changed: list[int] = []
    if new.players is not old.players:
        changed = await _write_players(conn, event_id, old.players, new.players)
    if flags_width(new) != flags_width(old):  # every player's flags have a new length
        new = stored_players(new)
    elif changed:
        new = stored_players(new, changed)
    if len(new.history) < len(old.history):
        for table, column in ((AUDIT, "round"), (CONFLICTS, "round"), (BOARDS, "round")):
            await conn.execute(
                delete(table).where(_where(table, event_id), table.c[column] > len(new.history))
            )
        await conn.execute(
            delete(ROUNDS).where(_where(ROUNDS, event_id), ROUNDS.c.number > len(new.history))
        )
    for index, rnd in enumerate(new.history):
        explanation = _explanation(new_explanations, rnd.number)
        if index >= len(old.history):
            await _insert_round(conn, event_id, rnd, explanation)
            continue
        before = old.history[index]
        row = _round_row(event_id, rnd, explanation)
        if row != _round_row(event_id, before, _explanation(old_explanations, rnd.number)):
            await conn.execute(
                update(ROUNDS)
                .where(_where(ROUNDS, event_id), ROUNDS.c.number == rnd.number)
                .values(
                    byes=row["byes"],
                    matches=row["matches"],
                    team_byes=row["team_byes"],
                    explanation=row["explanation"],
                )
            )
        if rnd is before or rnd.games is before.games:
            continue
        await _write_boards(conn, event_id, rnd.number, before.games, rnd.games)
    return new


async def _write_players(
    conn: AsyncConnection, event_id: str, old: Sequence[Player], new: Sequence[Player]
) -> list[int]:
    """The rows of the players that changed, and of their absences that changed (a player
    marked absent or present again writes one absence row, not the player's); the indices of
    the players that changed."""
    indices = [i for i, p in enumerate(new) if i >= len(old) or old[i] != p]
    changed = [new[i] for i in indices]
    was = [old[i] for i in indices if i < len(old)] + list(old[len(new) :])
    rows = {p.number: player_row(event_id, p) for p in changed}
    same = {p.number for p in was if rows.get(p.number) == player_row(event_id, p)}
    numbers = sorted(({p.number for p in was} | set(rows)) - same)
    if numbers:
        await conn.execute(
            delete(PLAYERS).where(_where(PLAYERS, event_id), PLAYERS.c.number.in_(numbers))
        )
    await _insert(conn, PLAYERS, [row for n, row in rows.items() if n not in same])
    before, after = _absences(was), _absences(changed)
    if before - after:
        await conn.execute(
            delete(ABSENCES).where(
                _where(ABSENCES, event_id),
                ABSENCES.c.player == bindparam("a_player"),
                ABSENCES.c.round == bindparam("a_round"),
            ),
            [{"a_player": n, "a_round": r} for n, r in sorted(before - after)],
        )
    await _insert(conn, ABSENCES, _absence_rows(event_id, after - before))
    return indices


_VALUES = (
    "black",
    "white",
    "result",
    "black_warnings",
    "white_warnings",
    "handicap",
    "penalty",
    "source",
    "replays",
)


async def _write_boards(
    conn: AsyncConnection,
    event_id: str,
    number: int,
    old_games: Sequence[Game],
    new_games: Sequence[Game],
) -> None:
    """The rows of the boards of round ``number`` that changed, a few statements for them all
    (a results sheet of a whole round is one change)."""
    olds = {g.board: g for g in old_games}
    news = {g.board: g for g in new_games}
    gone = [b for b in olds if b not in news]
    changed: list[dict[str, Any]] = []
    boards: list[dict[str, Any]] = []
    audit: list[dict[str, Any]] = []
    conflicts: list[dict[str, Any]] = []
    rewritten: list[int] = []  # boards whose trail is written again from its start
    unconflicted: list[int] = []  # boards whose conflict row goes
    for g in new_games:
        was = olds.get(g.board)
        if was is g:
            continue
        if was is None:
            boards.append(board_row(event_id, number, g))
            audit.extend(_audit_rows(event_id, number, g.board, g.trail, 0))
            if g.conflict is not None:
                conflicts.append(_conflict_row(event_id, number, g))
            continue
        row = board_row(event_id, number, g)
        changed.append({"b_board": g.board, **{f"b_{k}": row[k] for k in _VALUES}})
        if g.trail != was.trail:
            kept = len(was.trail)
            if g.trail[:kept] != was.trail:
                rewritten.append(g.board)
                kept = 0
            audit.extend(_audit_rows(event_id, number, g.board, g.trail, kept))
        if g.conflict != was.conflict:
            if was.conflict is not None:
                unconflicted.append(g.board)
            if g.conflict is not None:
                conflicts.append(_conflict_row(event_id, number, g))
    for table, which in (
        (AUDIT, gone + rewritten),
        (CONFLICTS, gone + unconflicted),
        (BOARDS, gone),
    ):
        if which:
            await conn.execute(
                delete(table).where(
                    _where(table, event_id), table.c.round == number, table.c.board.in_(which)
                )
            )
    if changed:
        # one statement for every changed board (executemany); each board's version moves on,
        # so a desk's write read before this change is refused
        await conn.execute(
            update(BOARDS)
            .where(
                BOARDS.c.event_id == event_id,
                BOARDS.c.round == number,
                BOARDS.c.board == bindparam("b_board"),
            )
            .values(**{k: bindparam(f"b_{k}") for k in _VALUES}, version=BOARDS.c.version + 1),
            changed,
        )
    await _insert(conn, BOARDS, boards)
    await _insert(conn, AUDIT, audit)
    await _insert(conn, CONFLICTS, conflicts)


def _board_key(table: Any, event_id: str, number: int, board: int) -> list[Any]:
    return [table.c.event_id == event_id, table.c.round == number, table.c.board == board]


async def _write_record(
    conn: AsyncConnection, event_id: str, number: int, was: Game, g: Game
) -> None:
    """The audit rows and the conflict row of a board that went from ``was`` to ``g``."""
    if g.trail != was.trail:
        kept = len(was.trail)
        if g.trail[:kept] != was.trail:
            await conn.execute(delete(AUDIT).where(*_board_key(AUDIT, event_id, number, g.board)))
            kept = 0
        await _insert(conn, AUDIT, _audit_rows(event_id, number, g.board, g.trail, kept))
    if g.conflict != was.conflict:
        if was.conflict is not None:
            await conn.execute(
                delete(CONFLICTS).where(*_board_key(CONFLICTS, event_id, number, g.board))
            )
        if g.conflict is not None:
            await _insert(conn, CONFLICTS, [_conflict_row(event_id, number, g)])


# ------------------------------------------------------------------- one board


@dataclass(frozen=True)
class BoardSlice:
    """What a board's result needs: the head row, the number of players and of rounds, the
    board (with its record) and the board row's version, and the event ``event`` assembled
    from them alone: its players stand for the real ones by number (nobody reads their names
    here), every round but the board's is empty, and the board's round holds that board only.

    A pure operation on ``event`` that changes nothing but the board (:func:`changed_only`)
    can be written with :func:`write_board`; anything else needs the whole event.
    """

    head: Head
    event: Event
    explanations: dict[str, Any]
    round: int
    board: int
    board_version: int
    open_games: int = 0  # the board's online games not closed yet

    @property
    def game(self) -> Game:
        """The board as read."""
        return self.event.round(self.round).game(self.board)

    def changed_only(self, after: Event) -> bool:
        """True when ``after`` differs from the slice's event in this board at most.

        >>> s = BoardSlice(None, Event("x", "go", "swiss", 1), {}, 1, 1, 1)
        >>> s.changed_only(s.event)
        True
        """
        before = self.event
        if (
            after.players is not before.players
            or after.withdrawals is not before.withdrawals
            or after.teams is not before.teams
            or after.lots is not before.lots
            or after.options is not before.options
            or (after.name, after.rounds, after.scoring)
            != (before.name, before.rounds, before.scoring)
            or len(after.history) != len(before.history)
        ):
            return False
        for index, rnd in enumerate(after.history):
            was = before.history[index]
            if rnd is was:
                continue
            if rnd.number != self.round or (rnd.byes, rnd.matches, rnd.team_byes) != (
                was.byes,
                was.matches,
                was.team_byes,
            ):
                return False
            if [g.board for g in rnd.games] != [g.board for g in was.games]:
                return False
        return True


_STAND_INS: dict[int, tuple[Player, ...]] = {}
# the event of a head with its stand-ins and no round, by (id, creation, head version, players)
_BARE: dict[tuple[str, float, int, int], Event] = {}


def _stand_ins(count: int) -> tuple[Player, ...]:
    """Players 1..count with no name (kept: one tuple per size serves every slice)."""
    found = _STAND_INS.get(count)
    if found is None:
        if len(_STAND_INS) > 16:
            _STAND_INS.clear()
        found = _STAND_INS[count] = tuple(Player(n, "") for n in range(1, count + 1))
    return found


async def load_board(
    conn: AsyncConnection, event_id: str, round_number: int, board: int
) -> BoardSlice | None:
    """The slice of one board (None: no such event). The board missing, or its round not
    paired, leaves that round empty: the operation's own check names what is missing."""
    players = (
        select(func.count()).select_from(PLAYERS).where(_where(PLAYERS, event_id)).scalar_subquery()
    )
    rounds = (
        select(func.count()).select_from(ROUNDS).where(_where(ROUNDS, event_id)).scalar_subquery()
    )
    hosted = cast(Table, GameRow.__table__)
    online = (
        select(func.count())
        .select_from(hosted)
        .where(
            hosted.c.event_id == event_id,
            hosted.c.round == round_number,
            hosted.c.board == board,
            hosted.c.closed.is_(None),
        )
        .scalar_subquery()
    )
    head = (
        await conn.execute(
            select(
                EVENTS,
                players.label("player_count"),
                rounds.label("round_count"),
                online.label("open_games"),
            ).where(EVENTS.c.id == event_id)
        )
    ).first()
    if head is None:
        return None
    found = (
        await conn.execute(
            select(BOARDS, CONFLICTS.c.conflict)
            .outerjoin(
                CONFLICTS,
                and_(
                    CONFLICTS.c.event_id == BOARDS.c.event_id,
                    CONFLICTS.c.round == BOARDS.c.round,
                    CONFLICTS.c.board == BOARDS.c.board,
                ),
            )
            .where(*_board_key(BOARDS, event_id, round_number, board))
        )
    ).first()
    trail: list[Any] = []
    later: Sequence[Any] = ()
    if found is not None:
        trail = list(
            (
                await conn.execute(
                    select(AUDIT.c.entry)
                    .where(*_board_key(AUDIT, event_id, round_number, board))
                    .order_by(AUDIT.c.seq)
                )
            ).scalars()
        )
        if round_number < head.round_count:
            # the later pairings of the board's players (a correction names them)
            pair = (found.black, found.white)
            later = (
                await conn.execute(
                    select(BOARDS).where(
                        _where(BOARDS, event_id),
                        BOARDS.c.round > round_number,
                        or_(BOARDS.c.black.in_(pair), BOARDS.c.white.in_(pair)),
                    )
                )
            ).all()
    return _slice(
        Head.of(head),
        head.player_count,
        head.round_count,
        head.open_games,
        round_number,
        board,
        found,
        trail,
        None if found is None else found.conflict,
        later,
    )


def _slice(
    head: Head,
    player_count: int,
    round_count: int,
    open_games: int,
    round_number: int,
    board: int,
    found: Any,
    trail: Sequence[Any],
    conflict: Any,
    later_rows: Sequence[Any],
) -> BoardSlice:
    """The slice of the board row ``found`` (None: not there) with its trail, its conflict and
    the later boards of its players (rows or mappings), as the store read them."""
    games: tuple[Game, ...] = ()
    version = 0
    if found is not None:
        games = (game_of(found, trail, conflict),)
        version = found["version"] if isinstance(found, Mapping) else found.version
    later: dict[int, list[Game]] = collections.defaultdict(list)
    for row in later_rows:
        g = game_of(row, (), None)
        later[row["round"] if isinstance(row, Mapping) else row.round].append(g)
    history = tuple(
        RoundRecord(
            n,
            games if n == round_number else tuple(sorted(later.get(n, ()), key=_by_board)),
        )
        for n in range(1, round_count + 1)
    )
    key = (head.id, head.created_at, head.head_version, player_count)
    bare = _BARE.get(key)
    if bare is None:  # once per head version: the head's JSON read, the stand-ins checked
        if len(_BARE) > 16:
            _BARE.clear()
        bare = _BARE[key] = _assemble(head.data["event"], _stand_ins(player_count), ())
    # the pairings of the slice are rows of checked events (the stand-ins were checked with
    # the head): the rounds go in without a pass over the players (Event's own check)
    event = copy.copy(bare)
    object.__setattr__(event, "history", history)
    explanations = dict(head.data.get("explanations") or {})
    return BoardSlice(head, event, explanations, round_number, board, version, open_games)


# PostgreSQL: a board's slice in ONE statement (one round trip, no transaction: a statement
# reads one snapshot): the head row, the number of players and rounds (players and rounds are
# numbered 1, 2, ... so the largest number, read from the primary key's end), the board's
# online games not closed, the board with its conflict and trail, and the later boards of its
# players (a correction names them).
PG_READ_BOARD = """
SELECT e.id, e.name, e.data, e.version, e.head_version, e.organiser_token_hash,
    e.arbiter_token_hash, e.created_at, e.updated_at,
    (SELECT coalesce(max(p.number), 0) FROM event_players AS p WHERE p.event_id = e.id)
        AS player_count,
    (SELECT coalesce(max(r.number), 0) FROM event_rounds AS r WHERE r.event_id = e.id)
        AS round_count,
    (SELECT count(*) FROM games AS g WHERE g.event_id = e.id AND g.round = %(round)s
        AND g.board = %(board)s AND g.closed IS NULL) AS open_games,
    CASE WHEN b.board IS NULL THEN NULL ELSE row_to_json(b) END AS found,
    (SELECT c.conflict FROM event_conflicts AS c WHERE c.event_id = e.id
        AND c.round = %(round)s AND c.board = %(board)s) AS conflict,
    (SELECT json_agg(a.entry ORDER BY a.seq) FROM event_audit AS a WHERE a.event_id = e.id
        AND a.round = %(round)s AND a.board = %(board)s) AS trail,
    (SELECT json_agg(row_to_json(l)) FROM event_boards AS l WHERE l.event_id = e.id
        AND l.round > %(round)s AND (l.black IN (b.black, b.white) OR l.white IN (b.black, b.white)))
        AS later
FROM events AS e
LEFT JOIN event_boards AS b ON b.event_id = e.id AND b.round = %(round)s AND b.board = %(board)s
WHERE e.id = %(id)s
"""

_HEAD_FIELDS = tuple(f for f in Head.__dataclass_fields__)


def pg_slice(row: Mapping[str, Any] | None, round_number: int, board: int) -> BoardSlice | None:
    """The slice of a row of :data:`PG_READ_BOARD` (a mapping; None: no such event)."""
    if row is None:
        return None
    head = Head(*(row[f] for f in _HEAD_FIELDS))
    return _slice(
        head,
        row["player_count"],
        row["round_count"],
        row["open_games"],
        round_number,
        board,
        row["found"],
        row["trail"] or (),
        row["conflict"],
        row["later"] or (),
    )


# PostgreSQL: a board's result in ONE statement, sent in autocommit (one round trip, no
# BEGIN/COMMIT): the board moves from the version it was read at, then (only once it did) the
# event's row from the head it was checked with, then the audit entries, the conflict row and
# the revision go in. When the board or the head moved on, the fence's cast fails and the
# statement writes nothing (the caller answers Conflict and reads again). The board's row is
# locked first and the event's row last, for this statement and its commit only.
PG_BOARD_MOVED = "duiyi-board-moved"
PG_WRITE_BOARD = f"""
WITH moved AS (
    UPDATE event_boards
    SET black = %(black)s, white = %(white)s, result = %(result)s,
        black_warnings = %(black_warnings)s, white_warnings = %(white_warnings)s,
        handicap = %(handicap)s, penalty = %(penalty)s, source = %(source)s,
        replays = %(replays)s, version = version + 1
    WHERE event_id = %(id)s AND round = %(round)s AND board = %(board)s
        AND version = %(board_version)s
    RETURNING version
), head AS (
    UPDATE events SET version = version + 1, updated_at = %(wall)s
    WHERE id = %(id)s AND head_version = %(head_version)s AND EXISTS (SELECT 1 FROM moved)
    RETURNING version
), fenced AS (
    SELECT CASE WHEN count(*) = 1 THEN 1
        ELSE ('{PG_BOARD_MOVED} ' || count(*))::int END AS ok
    FROM head
), audit AS (
    INSERT INTO event_audit (event_id, round, board, seq, entry)
    SELECT %(id)s, %(round)s, %(board)s, a.seq, a.entry
    FROM json_to_recordset(%(audit)s::json) AS a(seq int, entry json)
    WHERE (SELECT ok FROM fenced) = 1
), unconflicted AS (
    DELETE FROM event_conflicts
    WHERE %(unconflict)s AND event_id = %(id)s AND round = %(round)s AND board = %(board)s
        AND (SELECT ok FROM fenced) = 1
), conflicted AS (
    INSERT INTO event_conflicts (event_id, round, board, conflict)
    SELECT %(id)s, %(round)s, %(board)s, %(conflict)s::json
    WHERE %(conflict)s::json IS NOT NULL AND (SELECT ok FROM fenced) = 1
    ON CONFLICT (event_id, round, board) DO UPDATE SET conflict = EXCLUDED.conflict
)
INSERT INTO event_revisions (event_id, version, change, wall)
SELECT %(id)s, h.version, %(change)s::json, %(wall)s
FROM head AS h
WHERE (SELECT ok FROM fenced) = 1
RETURNING version
"""


def pg_write_params(
    piece: BoardSlice, after: Event, wall: float, change: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The parameters of :data:`PG_WRITE_BOARD` for the board of ``piece`` as ``after`` has
    it; None when one statement cannot say it (the board's trail written again from its
    start: the caller writes it in a transaction, :func:`write_board`)."""
    was = piece.game
    g = after.round(piece.round).game(piece.board)
    kept = len(was.trail)
    if g.trail[:kept] != was.trail:
        return None
    head = piece.head
    row = board_row(head.id, piece.round, g)
    audit = [{"seq": seq, "entry": e.to_json()} for seq, e in enumerate(g.trail) if seq >= kept]
    conflict = None
    if g.conflict != was.conflict and g.conflict is not None:
        conflict = json.dumps(g.conflict.to_json())
    return {
        **{k: row[k] for k in _VALUES},
        "id": head.id,
        "round": piece.round,
        "board": piece.board,
        "board_version": piece.board_version,
        "head_version": head.head_version,
        "wall": wall,
        "audit": json.dumps(audit),
        "unconflict": g.conflict is None and was.conflict is not None,
        "conflict": conflict,
        "change": json.dumps(dict(change)),
    }


def _by_board(g: Game) -> int:
    return g.board


async def write_board(
    conn: AsyncConnection,
    piece: BoardSlice,
    after: Event,
    wall: float,
    change: dict[str, Any],
    *,
    postgres: bool,
) -> int | None:
    """Write the board of ``piece`` as it is in ``after`` (with its audit and conflict rows),
    then move the event's version on with the change's revision row, in the caller's
    transaction; the new version, or None when the board or the event's head moved on since
    the slice was read (the caller rolls back).

    The event's row, which every change of the event writes, is written last, by one statement
    on PostgreSQL (the revision row in the same statement): it stays locked only for that
    statement and the commit, so desks writing different boards wait for each other that long
    and no longer. A change of the whole event locks the event's row first and a board's result
    last: when they meet on one board, PostgreSQL refuses one of them as a deadlock, and the
    store answers Conflict (retried)."""
    head = piece.head
    was = piece.game
    g = after.round(piece.round).game(piece.board)
    row = board_row(head.id, piece.round, g)
    values = {k: v for k, v in row.items() if k not in ("event_id", "round", "board")}
    done = await conn.execute(
        update(BOARDS)
        .where(
            *_board_key(BOARDS, head.id, piece.round, piece.board),
            BOARDS.c.version == piece.board_version,
        )
        .values(**values, version=piece.board_version + 1)
    )
    if getattr(done, "rowcount", 1) != 1:
        return None
    await _write_record(conn, head.id, piece.round, was, g)
    moved = (
        update(EVENTS)
        .where(EVENTS.c.id == head.id, EVENTS.c.head_version == head.head_version)
        .values(version=EVENTS.c.version + 1, updated_at=wall)
        .returning(EVENTS.c.version)
    )
    if postgres:
        bumped = moved.cte("bumped")
        revision = (
            insert(REVISIONS)
            .from_select(
                ["event_id", "version", "change", "wall"],
                select(
                    literal(head.id, String()),
                    bumped.c.version,
                    literal(change, JSON()),
                    literal(wall, Float()),
                ),
            )
            .returning(REVISIONS.c.version)
        )
        return cast("int | None", (await conn.execute(revision)).scalar())
    new_version = (await conn.execute(moved)).scalar()
    if new_version is None:
        return None
    await conn.execute(
        insert(REVISIONS),
        [{"event_id": head.id, "version": new_version, "change": change, "wall": wall}],
    )
    return int(new_version)


# ------------------------------------------------------------------- the assembled events

_CACHE: collections.OrderedDict[tuple[str, str], tuple[tuple[Any, ...], Loaded]] = (
    collections.OrderedDict()
)
_CACHE_MAX = 8


def _key(head: Any) -> tuple[Any, ...]:
    return (head.created_at, head.version, head.updated_at)


def cache_get(url: str, head: Any) -> Loaded | None:
    """The event assembled for exactly this head row (id, creation, version, last change) in
    this database, or None. Events are immutable values: one assembly serves every reader until
    the version moves on."""
    found = _CACHE.get((url, head.id))
    if found is None or found[0] != _key(head):
        return None
    _CACHE.move_to_end((url, head.id))
    return found[1]


def cache_put(url: str, loaded: Loaded) -> None:
    """Keep an assembled event (the version just read or written)."""
    _CACHE[(url, loaded.head.id)] = (_key(loaded.head), loaded)
    _CACHE.move_to_end((url, loaded.head.id))
    while len(_CACHE) > _CACHE_MAX:
        _CACHE.popitem(last=False)


def cache_board(
    url: str, event_id: str, version: int, wall: float, round_number: int, g: Game
) -> None:
    """After a board's result moved the event to ``version`` (at ``wall``): when the cache holds
    the version just before it, nobody else wrote in between, and it gets the board in place
    (the next reader of the whole event does not assemble it again)."""
    found = _CACHE.get((url, event_id))
    if found is None:
        return
    loaded = found[1]
    if loaded.head.version != version - 1:
        return
    try:
        event = put_game(loaded.event, round_number, g)
    except TournamentError:  # pragma: no cover - the rows say otherwise: assemble again
        _CACHE.pop((url, event_id), None)
        return
    head = replace(loaded.head, version=version, updated_at=wall)
    cache_put(url, Loaded(head, event, loaded.explanations))
