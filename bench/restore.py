"""Start-up with many live games: how long ``GameManager.restore`` takes to load them.

Creates a fresh PostgreSQL database (or SQLite file), plays ``--games`` Go games of ``--moves``
moves each through a GameManager (the server's own path: sessions, group commit), leaves them
live and owned by a process that never beats again (as after a crash), then times a new
manager's ``restore()``: wall seconds, this process's CPU seconds,
and the transactions PostgreSQL counted for the database meanwhile (pg_stat_database).

    PYTHONPATH=src .venv/bin/python bench/restore.py --games 200 --moves 60
    PYTHONPATH=/path/to/other/checkout/src .venv/bin/python bench/restore.py ...   # compare
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time

import psycopg

from duiyi import BLACK, WHITE
from duiyi.actions import Move
from duiyi.server.games.manager import GameManager, NewGame
from duiyi.store import Database, Repository

COLUMNS = "ABCDEFGHJKLMNOPQRST"
BLACK_POINTS = [f"{c}{r}" for r in range(1, 5) for c in COLUMNS]
WHITE_POINTS = [f"{c}{r}" for r in range(19, 15, -1) for c in COLUMNS]


def transactions(admin: str, dbname: str) -> int:
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            (dbname,),
        ).fetchone()
    return int(row[0]) if row else 0


async def prepare(url: str, games: int, moves: int) -> None:
    db = Database(url)
    db.migrate()
    manager = GameManager(Repository(db), "p-crashed")
    hosts = [(await manager.create(NewGame({"game": "go", "size": 19})))[0] for _ in range(games)]

    async def play(host: object) -> None:
        for i in range(moves):
            seat = BLACK if i % 2 == 0 else WHITE
            point = (BLACK_POINTS if seat is BLACK else WHITE_POINTS)[i // 2]
            await host.act(seat, Move(point))  # type: ignore[attr-defined]

    await asyncio.gather(*(play(h) for h in hosts))
    for host in hosts:
        await host.stop()
    await manager.committer.close()
    await db.dispose()


async def restore(url: str) -> tuple[int, float, float]:
    db = Database(url)
    manager = GameManager(Repository(db), "p-new")
    await Repository(db).heartbeat("p-new", time.time())  # the pool warm, as after start-up
    started, cpu = time.perf_counter(), time.process_time()
    count = await manager.restore()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    await manager.close()
    await db.dispose()
    return count, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--sqlite", action="store_true", help="a SQLite file instead")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.sqlite:
            url, dbname = f"sqlite:///{tmp}/restore.sqlite3", None
        else:
            dbname = "duiyi_restore_" + secrets.token_hex(4)
            with psycopg.connect(args.pg, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{dbname}"')
            url = args.pg.rsplit("/", 1)[0] + "/" + dbname
        try:
            asyncio.run(prepare(url, args.games, args.moves))
            before = 0.0 if dbname is None else transactions(args.pg, dbname)
            count, wall, cpu = asyncio.run(restore(url))
            time.sleep(1.5)  # the backends report their counts when they end
            after = 0.0 if dbname is None else transactions(args.pg, dbname)
        finally:
            if dbname is not None:
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    print(
        f"restored {count} of {args.games} games ({args.moves} moves each): {wall:.2f} s wall, "
        f"{cpu:.2f} s CPU of this process"
        + ("" if dbname is None else f", {after - before:.0f} transactions in PostgreSQL")
    )


if __name__ == "__main__":
    main()
