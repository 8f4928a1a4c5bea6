"""The engines this process runs, by game (each seat whose engine plays there), and the
bounds on them: an entry's ``max_concurrent`` counted here, the seats of an event's engine
game. Shared by the engine routes (a game against the computer) and the engine rounds of
events (``duiyi.server.engines.rounds``), below both."""

from __future__ import annotations

from typing import Any

from duiyi import Color
from duiyi.server.engines.catalog import EngineRun
from duiyi.server.engines.driver import EngineSeat
from duiyi.server.problems import Unavailable

__all__ = ["SEATS", "check_concurrency", "player_seats", "running_processes", "seat_engines"]

#: game id -> the engine seats this process runs for it
SEATS: dict[str, list[EngineSeat]] = {}


def running_processes(name: str) -> int:
    """How many engine processes of the entry ``name`` this process runs now (each seat whose
    engine is up: an entry's ``max_concurrent``)."""
    return sum(
        1 for seats in SEATS.values() for s in seats if s.run.entry.name == name and s.running
    )


def check_concurrency(runs: list[EngineRun]) -> None:
    """Refuse (503) to start engines past an entry's ``max_concurrent``."""
    for run in runs:
        wanted = sum(1 for r in runs if r.entry.name == run.entry.name)
        if running_processes(run.entry.name) + wanted > run.entry.max_concurrent:
            raise Unavailable(
                f"engine {run.entry.name!r} runs {run.entry.max_concurrent:g} games at once "
                "here, its limit; try again later"
            )


def seat_engines(host: Any, seats: list[EngineSeat]) -> None:
    """Start the engines of one game and keep them in this process's table."""
    SEATS[host.id] = seats
    for seat in seats:
        seat.start()


def player_seats(
    host: Any, players: dict[str, EngineRun], move_timeout: float, kind: str = "go"
) -> list[EngineSeat]:
    """The two engines of an event's engine game (``players``: each seat's engine, resolved
    from the operator's list; ``kind``: "go" for GTP engines, "gomoku" for Gomocup brains),
    refereed as event players (:class:`EngineSeat`)."""
    return [
        EngineSeat(host, Color(seat), kind, run, player=True, move_timeout=move_timeout)
        for seat, run in sorted(players.items())
    ]
