"""Entering a result: an online game's sheet is read from the outbox once, whatever way it
then takes (entered, held as the board's conflict, or a drawn knockout game settled by replay
or lot; Go §27.3, Gomoku §18.3(1)C), issue 34."""

from __future__ import annotations

import pytest
from tests.server.conftest import Backend

from duiyi.server.events.results import ResultReader
from duiyi.store import Database, Repository
from duiyi.store.models import OutboxRow
from duiyi.tournament import results
from duiyi.tournament.event import add_players, new_event, pair_next_round
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult, ResultSheet, Source


@pytest.fixture
async def repo(backend: Backend) -> Repository:
    db = Database(backend.database)
    db.migrate()
    yield Repository(db)  # type: ignore[misc]
    await db.dispose()


async def _report(repo: Repository, system: str, sheet: dict[str, object]) -> str:
    event = add_players(new_event("e", "go", system, 1), [Player(0, n) for n in "AB"])
    event, _ = pair_next_round(event)
    eid = await repo.create_event(
        name="e",
        data={"event": event.to_json()},
        organiser_token_hash="o",
        arbiter_token_hash="a",
        wall=1.0,
    )
    async with repo.db.session() as s, s.begin():
        s.add(
            OutboxRow(
                event_id=eid, game_id="g1", version=9, round=1, board=1, sheet=sheet, wall=2.0
            )
        )
    return eid


@pytest.mark.parametrize(
    ("system", "sheet", "status"),
    [
        ("swiss", {"result": "1-0"}, "entered"),
        # a drawn game of an elimination round: replayed with colours reversed (Go §27.3)
        ("knockout", {"result": "draw"}, "replay"),
    ],
)
async def test_the_sheet_is_read_once(
    repo: Repository,
    monkeypatch: pytest.MonkeyPatch,
    system: str,
    sheet: dict[str, object],
    status: str,
) -> None:
    reads: list[object] = []
    read = ResultSheet.from_json.__func__  # type: ignore[attr-defined]

    def counted(cls: type[ResultSheet], data: object) -> ResultSheet:
        reads.append(data)
        return read(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(results.ResultSheet, "from_json", classmethod(counted))
    eid = await _report(repo, system, sheet)
    assert await ResultReader(repo).drain() == 1
    assert reads == [sheet]  # one parse of the outbox row's sheet
    stored = await repo.event(eid)
    assert stored.event is not None
    game = stored.event.round(1).game(1)
    if status == "replay":
        assert (game.result, game.replays, game.black) == (None, 1, 2)  # colours reversed
    else:
        assert (game.result, game.source) == (GameResult.BLACK_WINS, Source.ONLINE)
