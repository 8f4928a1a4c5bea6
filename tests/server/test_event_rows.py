"""An event's data in tables (issue 26): old documents migrated with their standings, a board's
result written as that board's rows, desks on different boards never refusing each other."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from tests.server.conftest import Backend

from duiyi.server.app import create_app
from duiyi.server.settings import Settings
from duiyi.store import Database, Repository
from duiyi.store.migrate import config_for, upgrade
from duiyi.store.repository import BoardWrite, Conflict
from duiyi.tournament import entries
from duiyi.tournament.event import add_players, new_event, pair_next_round, simulate
from duiyi.tournament.formats import wallchart
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, ResultSheet, Source

OLD = "0003_i12c_action_ids"


def _old_event() -> Event:
    """A Swiss of 11 players, three rounds played, one paired, with every part of a board's
    record: sources, an audit trail with a correction, a conflict, warnings, a penalty, a
    withdrawal and participation flags."""
    rng = random.Random(5)
    players = [Player(0, f"P{i}", f"{1 + i % 5}d", club="Club") for i in range(11)]
    e = add_players(new_event("Old cup", "go", "swiss", 5), players)
    e = simulate(e, 3, rng)
    e = entries.record_result(
        e,
        3,
        1,
        ResultSheet(GameResult.DRAW, 1, 0),
        source=Source.DIRECTOR,
        by="desk",
        at=5.0,
        force=False,
    ).event
    e = entries.record_result(
        e, 3, 2, ResultSheet(GameResult.WHITE_WINS), source=Source.ONLINE, by="game g", at=6.0
    ).event
    e = entries.withdraw(e, 4, by="desk", at=7.0)
    e, _ = pair_next_round(e, rng)
    e = entries.record_result(
        e, 4, 1, ResultSheet(GameResult.BLACK_WINS), source=Source.DIRECTOR, by="desk", at=8.0
    ).event
    e = entries.record_result(
        e, 4, 1, ResultSheet(GameResult.WHITE_WINS), source=Source.ONLINE, by="game h", at=9.0
    ).event
    assert e.round(4).game(1).conflict is not None and e.round(3).game(1).trail
    return e


@pytest.fixture
def url(backend: Backend) -> str:
    return backend.database


async def test_an_old_event_document_is_migrated_with_its_standings(url: str) -> None:
    # Before 0004 an event was one document (events.data["event"]); the migration moves its
    # players, rounds, boards, trail and conflicts into rows. Standings (Go §27) computed from
    # the stored rows must be those of the document, and the event the same value.
    db = Database(url)
    sync = sa.create_engine(db.url.replace("+aiosqlite", ""))
    upgrade(db.url.replace("+aiosqlite", ""), OLD)
    e = _old_event()
    explanations = {"4": {"round": 4, "pairings": [{"board": 1, "reason": "top group"}]}}
    document = {"event": e.to_json(), "online": {"size": 19}, "explanations": explanations}
    with sync.begin() as conn:
        conn.execute(
            sa.table(
                "events",
                *(sa.column(c) for c in ("id", "name", "version", "created_at", "updated_at")),
                *(sa.column(c) for c in ("organiser_token_hash", "arbiter_token_hash")),
                sa.column("data", sa.JSON),
            ).insert(),
            [
                {
                    "id": "old1",
                    "name": "Old cup",
                    "data": document,
                    "version": 7,
                    "organiser_token_hash": "o",
                    "arbiter_token_hash": "a",
                    "created_at": 1.0,
                    "updated_at": 2.0,
                }
            ],
        )
    db.migrate()
    repo = Repository(db)
    stored = await repo.event("old1")
    assert stored.event == e and stored.version == 7
    assert wallchart.standings_json(stored.event) == wallchart.standings_json(e)
    assert stored.data == {"online": {"size": 19}, "explanations": explanations}
    with sync.connect() as conn:
        counts = {
            t: conn.execute(sa.text(f"SELECT count(*) FROM {t} WHERE event_id='old1'")).scalar()
            for t in ("event_players", "event_rounds", "event_boards", "event_conflicts")
        }
        head = conn.execute(sa.text("SELECT data FROM events WHERE id='old1'")).scalar()
    assert counts == {
        "event_players": 11,
        "event_rounds": 4,
        "event_boards": 20,
        "event_conflicts": sum(g.conflict is not None for _, g in e.games()),
    }
    assert "players" not in str(head) and "history" not in str(head)  # the head only
    # and back: the downgrade writes the document again
    command.downgrade(config_for(db.url.replace("+aiosqlite", "")), OLD)
    with sync.connect() as conn:
        back = conn.execute(sa.text("SELECT data FROM events WHERE id='old1'")).scalar()
    back = back if isinstance(back, dict) else json.loads(back)
    assert Event.from_json(back["event"]) == e and back["explanations"] == explanations
    sync.dispose()
    await db.dispose()


async def _stored(repo: Repository, e: Event) -> str:
    return await repo.create_event(
        name=e.name,
        data={"event": e.to_json()},
        organiser_token_hash="o",
        arbiter_token_hash="a",
        wall=1.0,
    )


async def _paired_six(url: str) -> tuple[Repository, Event, str]:
    """A store on ``url``, a Go Swiss of six players with round 1 paired, and its id there."""
    db = Database(url)
    db.migrate()
    repo = Repository(db)
    e = add_players(new_event("Cup", "go", "swiss", 3), [Player(0, n) for n in "ABCDEF"])
    e, _ = pair_next_round(e, random.Random(1))
    return repo, e, await _stored(repo, e)


def _enter(board: int, result: GameResult) -> Any:
    def apply(e: Event) -> entries.Entered:
        return entries.record_result(
            e, 1, board, ResultSheet(result), source=Source.DIRECTOR, by="desk", at=3.0
        )

    return apply


async def test_desks_on_different_boards_never_refuse_each_other(url: str) -> None:
    # Two desks read their boards of round 1 at once; both write: both are stored (each board
    # is its own compare-and-set), the event's version moves on twice, and the event read back
    # has both results with their audit entries.
    repo, e, eid = await _paired_six(url)
    one, two = await repo.board(eid, 1, 1), await repo.board(eid, 1, 2)
    assert len(one.event.players) == 6 and one.event.round(1).games == (e.round(1).game(1),)
    first = _enter(1, GameResult.BLACK_WINS)(one.event)
    second = _enter(2, GameResult.WHITE_WINS)(two.event)
    assert one.changed_only(first.event) and two.changed_only(second.event)
    assert await repo.save_board(one, first.event, {"op": "result"}, 3.0) == 2
    assert await repo.save_board(two, second.event, {"op": "result"}, 3.0) == 3
    stored = await repo.event(eid)
    assert stored.event is not None
    games = stored.event.round(1).games
    assert [g.result for g in games] == [GameResult.BLACK_WINS, GameResult.WHITE_WINS, None]
    assert [len(g.trail) for g in games] == [1, 1, 0]
    # the same board written by two desks from one reading: the second is refused, so the
    # route reads the board again and applies the record's rules to what is there
    again = await repo.board(eid, 1, 3)
    a = _enter(3, GameResult.BLACK_WINS)(again.event)
    b = _enter(3, GameResult.WHITE_WINS)(again.event)
    await repo.save_board(again, a.event, {"op": "result"}, 4.0)
    with pytest.raises(Conflict):
        await repo.save_board(again, b.event, {"op": "result"}, 4.0)
    await repo.db.dispose()


async def test_a_change_of_the_whole_event_refuses_a_board_read_before_it(url: str) -> None:
    # A board's result is checked against the event's head (withdrawals, rounds paired): when
    # the whole event changed after the board was read, its write is refused (read again).
    db = Database(url)
    db.migrate()
    repo = Repository(db)
    e = add_players(new_event("Cup", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
    e, _ = pair_next_round(e, random.Random(1))
    eid = await _stored(repo, e)
    piece = await repo.board(eid, 1, 1)
    record = await repo.event(eid)
    assert record.event is not None
    renamed = replace(record.event, name="Cup 2")
    await repo.save_event(
        eid, record.version, record.data, {"op": "t"}, 2.0, event=renamed, before=record
    )
    done = _enter(1, GameResult.DRAW)(piece.event)
    with pytest.raises(Conflict):
        await repo.save_board(piece, done.event, {"op": "result"}, 3.0)
    assert (await repo.event(eid)).event == renamed
    await db.dispose()


async def test_two_desks_writing_one_board_differently_are_told(tmp_path: Any) -> None:
    # Desk A reads board 1 (no result); desk B enters 0-1 on it before A writes; A's write is
    # refused by the board's version and A reads the board again: it now holds B's result, not
    # the one A read, so A is answered 409 naming it (the director looks, then corrects it by
    # entering again). The same result from both desks is no conflict ("unchanged", 200).
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'd.sqlite3'}"))
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://desk") as client,
    ):
        made = (await client.post("/api/events", json={"name": "Cup", "rounds": 3})).json()
        event_id = made["id"]
        client.headers["Authorization"] = f"Bearer {made['organiser_token']}"
        body = "name\nA\nB\nC\nD\n"
        await client.post(
            f"/api/events/{event_id}/players", content=body, headers={"Content-Type": "text/csv"}
        )
        assert (await client.post(f"/api/events/{event_id}/rounds")).is_success
        repo: Repository = app.state.duiyi.repo
        real = repo.change_board
        calls = 0

        async def racing(eid: str, number: int, board: int, decide: Any) -> Any:
            nonlocal calls
            calls += 1
            if calls == 1:  # A has read the board; B writes it before A's write
                decide(await repo.board(eid, number, board))
                other = await repo.board(eid, number, board)
                done = _enter(board, GameResult.WHITE_WINS)(other.event)
                await repo.save_board(other, done.event, {"op": "result"}, 5.0)
                raise Conflict("the board's version moved on")
            return await real(eid, number, board, decide)

        repo.change_board = racing  # type: ignore[method-assign]
        url = f"/api/events/{event_id}/rounds/1/boards/1/result"
        r = await client.put(url, json={"result": "1-0"})
        assert r.status_code == 409 and "0-1" in r.json()["detail"], r.text
        calls = 0
        r = await client.put(url, json={"result": "0-1"})  # B's result again: no conflict
        assert r.status_code == 200 and r.json()["status"] == "unchanged", r.text
        repo.change_board = real  # type: ignore[method-assign]
        r = await client.put(url, json={"result": "1-0"})  # the director corrects it
        assert r.status_code == 200 and r.json()["board"]["result"] == "1-0"
        assert [e["value"]["result"] for e in r.json()["board"]["trail"]] == ["0-1", "1-0"]


def _elsewhere(url: str, work: Callable[[Repository], Awaitable[Any]]) -> Any:
    """``work`` run by another desk: its own connections and event loop, to the end, while the
    caller waits (called from inside a desk's ``decide``: between its reading and its write)."""

    async def run() -> Any:
        db = Database(url)
        try:
            return await work(Repository(db))
        finally:
            await db.dispose()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def _write(board: int, result: GameResult, wall: float) -> Callable[[Any], BoardWrite]:
    def decide(piece: Any) -> BoardWrite:
        return BoardWrite(_enter(board, result)(piece.event).event, {"op": "result"}, wall)

    return decide


async def test_a_board_written_between_a_desks_reading_and_its_write_refuses_it(url: str) -> None:
    # A board's result is a compare-and-set (issue 26: no decided result is ever undone): desk A
    # reads board 3; another desk writes board 3 before A writes: A's write is refused and
    # writes nothing (not its board, its audit entry or a revision): the route reads again and
    # applies the record's rules to what is there. A write of another board in between, or a
    # result held as a conflict and settled, goes through (one statement each on PostgreSQL).
    repo, _, eid = await _paired_six(url)

    def other(board: int, result: GameResult) -> Any:
        async def work(r: Repository) -> Any:
            return await r.change_board(eid, 1, board, _write(board, result, 4.0))

        return _elsewhere(url, work)

    def a_then_board_2(piece: Any) -> BoardWrite:
        other(2, GameResult.WHITE_WINS)
        return _write(1, GameResult.BLACK_WINS, 5.0)(piece)

    _piece, _plan, version, closed = await repo.change_board(eid, 1, 1, a_then_board_2)
    assert (version, closed) == (3, [])

    def a_then_board_3(piece: Any) -> BoardWrite:
        other(3, GameResult.WHITE_WINS)
        return _write(3, GameResult.BLACK_WINS, 6.0)(piece)

    with pytest.raises(Conflict):
        await repo.change_board(eid, 1, 3, a_then_board_3)
    stored = await repo.event(eid)
    assert stored.event is not None and stored.version == 4
    games = stored.event.round(1).games
    black, white = GameResult.BLACK_WINS, GameResult.WHITE_WINS
    assert [g.result for g in games] == [black, white, white]
    assert [len(g.trail) for g in games] == [1, 1, 1]
    assert [a.by for g in games for a in g.trail] == ["desk"] * 3

    # an online result that disagrees with the desk's is held as the board's conflict; the
    # desk's entry again settles it (Go §27: the director's result stands)
    def online(piece: Any) -> BoardWrite:
        done = entries.record_result(
            piece.event,
            1,
            1,
            ResultSheet(GameResult.WHITE_WINS),
            source=Source.ONLINE,
            by="game g",
            at=7.0,
        )
        return BoardWrite(done.event, {"op": "report"}, 7.0)

    await repo.change_board(eid, 1, 1, online)
    held = (await repo.event(eid)).event
    assert held is not None and held.round(1).game(1).conflict is not None
    assert held.round(1).game(1).result is GameResult.BLACK_WINS
    await repo.change_board(eid, 1, 1, _write(1, GameResult.BLACK_WINS, 8.0))
    settled = await repo.event(eid)
    assert settled.event is not None and settled.version == 6
    assert settled.event.round(1).game(1).conflict is None
    assert [a.note for a in settled.event.round(1).game(1).trail][-1] == "conflict rejected"

    # and a change of the whole event between a desk's reading and its write refuses it
    def renamed(piece: Any) -> BoardWrite:
        async def work(r: Repository) -> None:
            record = await r.event(eid)
            assert record.event is not None
            await r.save_event(
                eid,
                record.version,
                record.data,
                {"op": "t"},
                9.0,
                event=replace(record.event, name="Cup 2"),
                before=record,
            )

        _elsewhere(url, work)
        return _write(3, GameResult.DRAW, 9.5)(piece)

    with pytest.raises(Conflict):
        await repo.change_board(eid, 1, 3, renamed)
    last = await repo.event(eid)
    assert last.event is not None and last.event.name == "Cup 2" and last.version == 7
    assert last.event.round(1).game(3).result is GameResult.WHITE_WINS
    await repo.db.dispose()
