"""One change to a stored event, shared by the event routes (events, players, rounds, results,
standings, the desk, knockout settlements, prints): load, authorise the organiser, apply a pure
operation, store with its version, close the online games the change decides, retried on a
concurrent write; and the small readers they share (the event's head, its online settings, a
text body).

The routers import this module; it imports none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request

from duiyi.errors import InvalidInput
from duiyi.server.auth import Forbidden, Unauthorized, bearer_token, verify
from duiyi.server.events.parsed import parsed_event, remember_event
from duiyi.server.events.results import results_entered
from duiyi.server.problems import Unavailable
from duiyi.server.state import games_of, repo_of
from duiyi.store.event_rows import BoardSlice
from duiyi.store.repository import BoardWrite, Conflict, EventRecord
from duiyi.tournament.entries import Entered
from duiyi.tournament.model import Event
from duiyi.tournament.results import Source

__all__ = [
    "change_board",
    "change_event",
    "check_organiser",
    "check_organiser_first",
    "event_summary",
    "games_of",
    "online_of",
    "repo_of",
    "text_body",
]


def event_summary(record: EventRecord) -> dict[str, Any]:
    """An event's head: id, name, game, system, rounds, players, current round, version."""
    e = parsed_event(record)
    return {
        "id": record.id,
        "name": e.name,
        "game": e.game.name,
        "system": e.system,
        "rounds": e.rounds,
        "players": len(e.players),
        "current_round": e.current_round,
        "version": record.version,
    }


def online_of(record: EventRecord) -> dict[str, Any]:
    """The event's settings of its online games (size, rules, handicap, time control)."""
    online: dict[str, Any] = record.data.get("online", {})
    return online


def text_body(raw: bytes, what: str) -> str:
    """A text body (UTF-8, with or without a byte order mark), or a 422 naming ``what``.

    >>> text_body("\ufeffround,board,result".encode(), "the results sheet")
    'round,board,result'
    """
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{what} is not UTF-8 text: {exc}", code="text-not-utf8") from exc


def check_organiser(request: Request, record: EventRecord) -> None:
    """The request carries the event's organiser key: Unauthorized (none) or Forbidden."""
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("send the organiser key as 'Authorization: Bearer <key>'")
    if not verify(token, record.organiser_token_hash):
        raise Forbidden("only the organiser of this event may change it")


async def check_organiser_first(request: Request, event_id: str) -> None:
    """The event exists and the organiser key is right, checked before a body is read or
    parsed (the routers' :class:`~duiyi.server.keyfirst.KeyFirstRoute` does it for every
    change; this is for a route that reads its body by hand)."""
    check_organiser(request, await repo_of(request).event(event_id))


@contextlib.asynccontextmanager
async def _write_slot(request: Request) -> AsyncIterator[None]:
    """Hold one of the process's ``max_event_writes`` slots for an event change (the rest
    wait up to 10 s, then 503): event writes never take every database connection."""
    slots = request.app.state.duiyi.event_writes
    try:
        await asyncio.wait_for(slots.acquire(), timeout=10.0)
    except TimeoutError:
        raise Unavailable("too many event changes at once; try again in a few seconds") from None
    try:
        yield
    finally:
        slots.release()


async def change_event(
    request: Request,
    event_id: str,
    change: dict[str, Any],
    apply: Callable[[Event, dict[str, Any]], tuple[Event, Any]],
    closing: Callable[[Any, int], dict[tuple[int, int], str]] | None = None,
) -> tuple[EventRecord, Any]:
    """Load, authorise, apply one pure operation, store; retried on a concurrent write.

    ``apply`` gets the event and the document's other parts (``online`` game settings,
    ``explanations`` of each round's pairing), which it may change in place. ``closing``
    (given ``apply``'s answer and the new version) names the boards ``(round, board)`` whose
    online games the change closes, with the reason: they are closed in the same transaction
    (a director's entry is final in the store), and the hosts are told afterwards; the ids
    are in ``request.state.closed_games``. At most ``max_event_writes`` changes run at once
    in a process (the rest wait up to 10 s, then 503): event writes never take every
    database connection."""
    async with _write_slot(request):
        return await _change_once(request, event_id, change, apply, closing)


async def _change_once(
    request: Request,
    event_id: str,
    change: dict[str, Any],
    apply: Callable[[Event, dict[str, Any]], tuple[Event, Any]],
    closing: Callable[[Any, int], dict[tuple[int, int], str]] | None,
) -> tuple[EventRecord, Any]:
    repo = repo_of(request)
    for _attempt in range(5):
        record = await repo.event(event_id)
        check_organiser(request, record)
        meta = {k: v for k, v in record.data.items() if k != "event"}
        event, answer = apply(parsed_event(record), meta)
        data = meta
        wall = time.time()
        close: dict[str, str] = {}
        if closing is not None:
            reasons = closing(answer, record.version + 1)
            if reasons:
                for g in await repo.games_of_event(event_id):
                    reason = reasons.get((g.round or 0, g.board or 0))
                    if reason is not None and g.closed is None:
                        close[g.id] = reason
        try:
            version = await repo.save_event(
                event_id,
                record.version,
                data,
                change,
                wall,
                close=close,
                event=event,
                before=record,
            )
        except Conflict:
            continue
        # what was stored, without reading it back (a large event is thousands of rows)
        stored = dataclasses.replace(
            record, data=data, version=version, updated_at=wall, event=event
        )
        remember_event(stored, event)
        request.state.closed_games = list(close)
        for game_id, reason in close.items():  # stored: now the hosts (best effort)
            await games_of(request).close_event_game(game_id, reason, stored=True)
        await _round_ends(request, event_id, change, event)
        return stored, (answer, version)
    raise Conflict("the event keeps changing under this request; try again", code="event-busy")


#: the changes that may end a round: its last result entered at the desk (one board, a
#: results sheet, a conflict settled, a knockout draw settled by lot)
_RESULT_OPS = ("result", "results", "conflict", "settle-draw")


async def _round_ends(
    request: Request, event_id: str, change: dict[str, Any], event: Event | None
) -> None:
    """After a result change, tell the games of the round it ended (Gomoku §8.11); ``event``
    is the whole event when the change had it (else it is read once no game is live)."""
    if change.get("op") not in _RESULT_OPS:
        return
    number = change.get("round")
    rounds = [number] if isinstance(number, int) else None  # a sheet: any round
    await results_entered(games_of(request), repo_of(request), event_id, event, rounds)


class EnteredMeanwhile(Conflict):
    """Another desk wrote the board, differently, between this request's reading and its
    write (409: the director looks and enters it again to correct it)."""


#: Systems whose boards are not checked from their own round alone (a groups event's final
#: stage needs winners: the groups decide where it starts), so a board's result goes through
#: the whole event.
WHOLE_EVENT_SYSTEMS = ("groups",)


async def change_board(
    request: Request,
    event_id: str,
    number: int,
    board: int,
    change: dict[str, Any],
    apply: Callable[[Event], Entered],
    closing: Callable[[Entered, int], str | None],
    whole: Callable[[], Any],
) -> tuple[EventRecord, Entered, int]:
    """A change of one board's result, read and written as that board's rows in one
    transaction (the event's head, the board with its record, the later pairings of its
    players when a correction needs them): its cost does not grow with the rounds, and changes
    of different boards of a round never refuse each other. Retried when the same board (or
    the whole event) changed meanwhile; when another desk wrote the same board differently in
    between, Conflict (409) names what it wrote: the director decides.

    ``apply`` is the pure operation on the slice's event (its answer says what it did);
    ``closing`` names the reason to close the board's online games, given the answer and the
    new version (None: they stay open). When the operation needs more than the board (a team
    event, a groups event, a disqualification that withdraws a player, a board not there)
    ``whole()`` runs it as a change of the whole event and its answer is returned.

    Answers a record whose event is the slice (only the board's round holds a game: read the
    board, not the rounds), the operation's answer, and the new version."""
    async with _write_slot(request):
        repo = repo_of(request)
        answers: list[Entered] = []
        first: list[Any] = []  # the board's result as this request first read it

        def decide(piece: BoardSlice) -> BoardWrite | None:
            check_organiser(
                request, _slice_record(piece, piece.head.version, piece.head.updated_at)
            )
            answers.clear()
            e = piece.event
            if piece.board_version == 0 or e.is_team_event or e.system in WHOLE_EVENT_SYSTEMS:
                return None
            done = apply(e)
            now = piece.game.sheet
            if not first:
                first.append(now)
            elif (
                now != first[0]
                and done.status != "unchanged"
                and piece.game.source is Source.DIRECTOR
            ):
                # another desk wrote this board since this request read it, and differently
                # (the same result is "unchanged"; an online result meanwhile yields to the
                # desk by the record's rules): the director looks and enters it again
                raise EnteredMeanwhile(
                    f"round {number} board {board} was entered meanwhile by another desk "
                    f"({'no result' if now is None else now.result.value}); "
                    "check it and enter the result again to correct it",
                    code="entered-meanwhile",
                    values={"round": str(number), "board": str(board)},
                )
            if done.withdrawn or not piece.changed_only(done.event):
                return None
            answers.append(done)
            if done.event is e:  # the same result again: nothing to write
                return None
            return BoardWrite(done.event, change, time.time(), lambda v: closing(done, v))

        for _attempt in range(5):
            try:
                piece, plan, version, closed = await repo.change_board(
                    event_id, number, board, decide
                )
            except EnteredMeanwhile:
                raise
            except Conflict:
                continue
            if not answers:
                break  # the whole event is needed
            request.state.closed_games = closed
            for game_id in closed:  # stored: now the hosts (best effort)
                reason = closing(answers[0], version) or ""
                await games_of(request).close_event_game(game_id, reason, stored=True)
            await _round_ends(request, event_id, change, None)
            wall = piece.head.updated_at if plan is None else plan.wall
            return _slice_record(piece, version, wall, answers[0].event), answers[0], version
        else:
            raise Conflict(
                "this board keeps changing under this request; try again", code="board-busy"
            )
    return await whole()  # type: ignore[no-any-return]


def _slice_record(
    piece: BoardSlice, version: int, wall: float, event: Event | None = None
) -> EventRecord:
    head = piece.head
    return EventRecord(
        head.id,
        head.name,
        {k: v for k, v in head.data.items() if k != "event"},
        version,
        head.organiser_token_hash,
        head.arbiter_token_hash,
        head.created_at,
        wall,
        piece.event if event is None else event,
    )
