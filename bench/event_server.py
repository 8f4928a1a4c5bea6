"""Benchmark: a large event's results through the server (the desk's route and the outbox).

A Go Swiss of N players is created through the HTTP API of one in-process server on SQLite
(players as CSV, round 1 paired by ``POST /rounds``). Then, for one round:

1. **The desk**: K results entered one board at a time through
   ``PUT /api/events/{id}/rounds/1/boards/{b}/result`` (the organiser's route);
2. **Online games**: K result sheets of finished online games put in the outbox (as the game's
   finishing action does) and entered by :class:`duiyi.server.events.results.ResultReader`.

Printed per size: CPU seconds per desk result, CPU seconds per outbox result and the size of
the stored event document. The cost per result is what decides whether a desk keeps up with a
10,000-player round (5,000 boards).

Usage: .venv/bin/python bench/event_server.py [--sizes 1000,10000] [--results 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from duiyi.server.app import create_app
from duiyi.server.events.results import ResultReader
from duiyi.server.settings import Settings
from duiyi.store.models import OutboxRow

CHUNK = 1500  # players per CSV body (the body limit is 64 KiB)


async def one_size(players: int, results: int, folder: Path) -> dict[str, Any]:
    settings = Settings(database_url=f"sqlite:///{folder / f'e{players}.sqlite3'}")
    app = create_app(settings)
    state = app.state.duiyi
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://bench") as client,
    ):
        made = (await client.post("/api/events", json={"name": "Big", "rounds": 5})).json()
        event_id, key = made["id"], made["organiser_token"]
        auth = {"Authorization": f"Bearer {key}"}
        for start in range(0, players, CHUNK):
            rows = "name,rating\n" + "".join(
                f"P{i},{1000 + i % 1700}\n" for i in range(start, min(players, start + CHUNK))
            )
            r = await client.post(
                f"/api/events/{event_id}/players",
                content=rows,
                headers={**auth, "Content-Type": "text/csv"},
            )
            r.raise_for_status()
        (await client.post(f"/api/events/{event_id}/rounds", headers=auth)).raise_for_status()

        cpu = time.process_time()
        for board in range(1, results + 1):
            r = await client.put(
                f"/api/events/{event_id}/rounds/1/boards/{board}/result",
                json={"result": "1-0"},
                headers=auth,
            )
            r.raise_for_status()
        desk = (time.process_time() - cpu) / results

        async with state.repo.db.session() as s, s.begin():
            for board in range(results + 1, 2 * results + 1):
                s.add(
                    OutboxRow(
                        event_id=event_id,
                        game_id=f"g{board}",
                        version=1,
                        round=1,
                        board=board,
                        sheet={"result": "0-1"},
                        wall=time.time(),
                    )
                )
        reader = ResultReader(state.repo)
        cpu = time.process_time()
        entered = await reader.drain()
        online = (time.process_time() - cpu) / results
        assert entered == results, entered
        doc = (await client.get(f"/api/events/{event_id}")).json()
        games = doc["event"]["history"][0]["games"]
        assert sum(g.get("result") is not None for g in games) == 2 * results
        size = len(json.dumps(doc["event"]))
    return {"players": players, "desk": desk, "online": online, "size": size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--results", type=int, default=20)
    args = parser.parse_args()
    print(f"{'players':>8} {'desk s/result':>14} {'outbox s/result':>16} {'document':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            row = asyncio.run(one_size(n, args.results, Path(tmp)))
            print(
                f"{row['players']:>8} {row['desk']:>14.3f} {row['online']:>16.3f} "
                f"{row['size'] / 1e6:>8.2f} MB"
            )


if __name__ == "__main__":
    main()
