"""An event's data in tables (issue 26): old documents migrated with their standings, a board's
result written as that board's rows, desks on different boards never refusing each other."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
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
from duiyi.store import event_rows as rows
from duiyi.store.migrate import config_for, upgrade
from duiyi.store.repository import BoardWrite, Conflict
from duiyi.tournament import entries, flags, participation
from duiyi.tournament.event import add_players, new_event, pair_next_round, simulate
from duiyi.tournament.formats import wallchart
from duiyi.tournament.formats.opengotha import to_opengotha
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, ResultSheet, Source


@asynccontextmanager
async def _event_desk(app: Any, names: str) -> AsyncIterator[tuple[httpx.AsyncClient, str]]:
    """A desk's client of ``app`` (its organiser key on every request) and a new three-round
    event with one player per letter of ``names``."""
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://desk") as client,
    ):
        made = (await client.post("/api/events", json={"name": "Cup", "rounds": 3})).json()
        client.headers["Authorization"] = f"Bearer {made['organiser_token']}"
        body = "name\n" + "".join(f"{n}\n" for n in names)
        await client.post(
            f"/api/events/{made['id']}/players", content=body, headers={"Content-Type": "text/csv"}
        )
        yield client, made["id"]


OLD = "0003_i12c_action_ids"
ROWS = "0004_i26_event_rows"


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
    e = _old_event()
    explanations = {"4": {"round": 4, "pairings": [{"board": 1, "reason": "top group"}]}}
    _old_document(sync, "old1", e, explanations)
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


def _old_document(
    sync: sa.Engine, event_id: str, e: Event, explanations: dict[str, Any] | None = None
) -> None:
    """The database of ``sync`` at revision 0003 with ``e`` stored as one document (as versions
    before 0004 stored an event), at version 7."""
    upgrade(str(sync.url.render_as_string(hide_password=False)), OLD)
    document: dict[str, Any] = {"event": e.to_json(), "online": {"size": 19}}
    if explanations:
        document["explanations"] = explanations
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
                    "id": event_id,
                    "name": e.name,
                    "data": document,
                    "version": 7,
                    "organiser_token_hash": "o",
                    "arbiter_token_hash": "a",
                    "created_at": 1.0,
                    "updated_at": 2.0,
                }
            ],
        )


def _with_absences(e: Event) -> tuple[Event, Event]:
    """``e`` (a Swiss of 5 rounds, 4 paired) with absences as the desk marks them (player 2
    absent from round 5; a late entry absent from rounds 1 to 4), and that event with player 5's
    flags in the form an imported OpenGotha file keeps them (20 characters, absent from rounds 5
    and 6, before another attribute)."""
    e = participation.set_present(e, 2, 5, False)
    e = add_players(e, [Player(0, "Late", "2k")])  # flags.mark_late: absent from rounds 1-4
    p5 = replace(e.player(5), extra=(("participating", "11110011111111111111"), ("og:x", "y")))
    imported = replace(e, players=tuple(p5 if p.number == 5 else p for p in e.players))
    return e, imported


async def _assembled(repo: Repository, event_id: str) -> Event:
    """The event as the store assembles it from its rows (not from a process's cache)."""
    async with repo.db.engine.connect() as conn:
        head = (
            await conn.execute(sa.select(rows.EVENTS).where(rows.EVENTS.c.id == event_id))
        ).one()
        return (await rows.load(conn, event_id, rows.Head.of(head))).event


def _absences(sync: sa.Engine, event_id: str) -> set[tuple[int, int]]:
    with sync.connect() as conn:
        found = conn.execute(
            sa.text("SELECT player, round FROM event_absences WHERE event_id = :e"),
            {"e": event_id},
        ).all()
    return {(p, r) for p, r in found}


def _extras(sync: sa.Engine, event_id: str) -> dict[int, Any]:
    with sync.connect() as conn:
        found = conn.execute(
            sa.text("SELECT number, extra FROM event_players WHERE event_id = :e"),
            {"e": event_id},
        ).all()
    return {n: json.loads(x) if isinstance(x, str) else x for n, x in found}


def _same_standings(a: Event, b: Event) -> None:
    """``a`` and ``b`` mark the same players absent, and rank and export them alike."""
    for n in range(1, max(a.rounds, b.rounds) + 3):
        assert flags.absent_in(a, n) == flags.absent_in(b, n), n
    assert [flags.flags_of(a, p.number) for p in a.players] == [
        flags.flags_of(b, p.number) for p in b.players
    ]
    assert wallchart.standings_json(a) == wallchart.standings_json(b)
    assert to_opengotha(a) == to_opengotha(b)


async def test_old_flags_in_extra_become_absence_rows(url: str) -> None:
    # Before 0005 a player's participation flags (OpenGotha's "participating") were kept in the
    # player's extra column; 0005 moves each absence to a row of event_absences. The absent
    # players, the standings (Go §27; an absent round scores nothing, docs/decisions.md) and
    # the event are those of the old rows; flags kept in another form (an imported file's) come
    # back in the desk's form, with the same absences, standings and OpenGotha file.
    db = Database(url)
    sync_url = db.url.replace("+aiosqlite", "")
    sync = sa.create_engine(sync_url)
    e, imported = _with_absences(_old_event())
    _old_document(sync, "old2", imported)
    upgrade(sync_url, ROWS)
    before = _extras(sync, "old2")
    assert before[2] == {"participating": "11110"}
    assert before[12] == {"participating": "00001"}
    assert before[5] == {"participating": "11110011111111111111", "og:x": "y"}
    db.migrate()
    assert _absences(sync, "old2") == {(2, 5), (5, 5), (5, 6), *((12, r) for r in range(1, 5))}
    extras = _extras(sync, "old2")
    assert all("participating" not in (x or {}) for x in extras.values())
    assert extras[5] == {"og:x": "y"}
    repo = Repository(db)
    stored = await repo.event("old2")
    assert stored.event is not None and stored.version == 7
    assert stored.event == await _assembled(repo, "old2") == rows.stored_players(imported)
    assert stored.event.player(5).extra == (("og:x", "y"), ("participating", "111100"))
    assert replace(stored.event, players=imported.players) == imported
    assert [p for p in stored.event.players if p.number != 5] == [
        p for p in e.players if p.number != 5
    ]
    _same_standings(stored.event, imported)
    # and back: the flags return to extra, in the desk's form
    command.downgrade(config_for(sync_url), ROWS)
    back = _extras(sync, "old2")
    assert back[2] == before[2] and back[12] == before[12]
    assert back[5] == {"og:x": "y", "participating": "111100"}
    sync.dispose()
    await db.dispose()


async def test_absences_are_rows_written_as_they_change(url: str) -> None:
    # The desk's absences (participation.set_present, a late entry) are rows; the player's row
    # keeps none. Marking one absence writes that row and not the player's; the event assembled
    # from the rows is the event stored, and so is the one a process keeps in its cache.
    db = Database(url)
    db.migrate()
    repo = Repository(db)
    sync = sa.create_engine(db.url.replace("+aiosqlite", ""))
    e, imported = _with_absences(_old_event())
    eid = await _stored(repo, e)
    assert _absences(sync, eid) == {(2, 5), *((12, r) for r in range(1, 5))}
    assert all("participating" not in (x or {}) for x in _extras(sync, eid).values())
    record = await repo.event(eid)
    assert record.event == e == await _assembled(repo, eid)
    # player 2 present again, player 3 absent from round 5, player 12 renamed
    changed = participation.set_present(e, 2, 5, True)
    changed = participation.set_present(changed, 3, 5, False)
    late = replace(changed.player(12), name="Late comer")
    changed = replace(changed, players=(*changed.players[:11], late))
    written: list[str] = []

    def spy(_c: Any, _cur: Any, statement: str, parameters: Any, _x: Any, _many: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO EVENT_PLAYERS"):
            written.append(str(parameters))

    sa.event.listen(db.engine.sync_engine, "before_cursor_execute", spy)
    await repo.save_event(
        eid, record.version, record.data, {"op": "t"}, 3.0, event=changed, before=record
    )
    sa.event.remove(db.engine.sync_engine, "before_cursor_execute", spy)
    # the renamed player's row only: players 2 and 3 (names P1, P2) changed their absences
    assert len(written) == 1 and "Late comer" in written[0], written
    assert "'P1'" not in written[0] and "'P2'" not in written[0], written
    assert _absences(sync, eid) == {(3, 5), *((12, r) for r in range(1, 5))}
    again = await repo.event(eid)
    assert again.event == changed == await _assembled(repo, eid)
    assert flags.flags_of(again.event, 2) == "11111" and flags.absent_in(again.event, 5) == {3}
    # a player whose flags came in another form: stored (and cached) in the desk's form
    odd = replace(
        changed, players=tuple(imported.player(5) if p.number == 5 else p for p in changed.players)
    )
    await repo.save_event(eid, again.version, again.data, {"op": "t"}, 4.0, event=odd, before=again)
    assert _absences(sync, eid) == {(3, 5), (5, 5), (5, 6), *((12, r) for r in range(1, 5))}
    last = await repo.event(eid)
    assert last.event == rows.stored_players(odd) == await _assembled(repo, eid)
    _same_standings(last.event, odd)
    # the event deleted with its rows: its absences go too (ON DELETE CASCADE)
    async with db.engine.begin() as conn:
        await conn.execute(sa.text("DELETE FROM events WHERE id = :e"), {"e": eid})
    assert _absences(sync, eid) == set()
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
    async with _event_desk(app, "ABCD") as (client, event_id):
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


async def test_the_desk_marks_absences_through_the_api(tmp_path: Any) -> None:
    # The desk marks a player absent from a round not paired yet (participation.set_present):
    # one row of event_absences; present again: the row goes. The round's pairing leaves the
    # absent player out, and the event read back (from the cache or assembled again from the
    # rows) has the flags one character per round, also after the number of rounds changed.
    path = tmp_path / "d.sqlite3"
    app = create_app(Settings(database_url=f"sqlite:///{path}"))
    sync = sa.create_engine(f"sqlite:///{path}")
    async with _event_desk(app, "ABCDE") as (client, eid):

        async def mark(player: int, number: int, present: bool) -> str:
            r = await client.put(
                f"/api/events/{eid}/players/{player}/rounds/{number}", json={"present": present}
            )
            assert r.status_code == 200, r.text
            return str(r.json()["participating"])

        assert await mark(2, 1, False) == "011"
        assert await mark(3, 2, False) == "101"
        assert await mark(4, 1, False) == "011"
        assert await mark(2, 1, True) == "111"
        assert _absences(sync, eid) == {(3, 2), (4, 1)}
        assert all("participating" not in (x or {}) for x in _extras(sync, eid).values())
        assert (await client.post(f"/api/events/{eid}/rounds")).is_success
        r = await client.put(f"/api/events/{eid}/players/2/rounds/1", json={"present": False})
        assert r.status_code in (409, 422), r.text  # round 1 is paired
        r = await client.patch(f"/api/events/{eid}", json={"rounds": 4})
        assert r.status_code == 200, r.text

        async def event() -> Event:
            got = await client.get(f"/api/events/{eid}")
            return Event.from_json(got.json()["event"])

        e = await event()
        playing = {n for g in e.round(1).games for n in (g.black, g.white)} | set(e.round(1).byes)
        assert playing == {1, 2, 3, 5}
        assert [flags.flags_of(e, n) for n in (2, 3, 4)] == ["1111", "1011", "0111"]
        assert dict(e.player(3).extra)["participating"] == "1011"
        rows._CACHE.clear()  # another process: the event assembled from the rows
        assert await event() == e
    sync.dispose()
