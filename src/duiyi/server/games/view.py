"""What a game looks like from outside: its public state (``GET /api/games/{id}``, the sockets'
``state``) and its log entries as spectators see them.

>>> public_entry({"type": "adjourn", "sealed": "D4", "action_id": "a1"})
{'type': 'adjourn', 'sealed': 'hidden'}
"""

from __future__ import annotations

from typing import Any

from duiyi.session import Session
from duiyi.store.repository import StoredGame

__all__ = ["event_link", "game_view", "public_entry"]


def public_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as spectators and players see it: a sealed move stays sealed (Go §14); the
    client's action id stays in the store (every process serves the same entries)."""
    if "action_id" in entry:
        entry = {k: v for k, v in entry.items() if k != "action_id"}
    if entry.get("type") == "adjourn" and "sealed" in entry:
        return {**entry, "sealed": "hidden"}
    return entry


def game_view(game_id: str, session: Session, version: int, now: float) -> dict[str, Any]:
    """The public state of a game (what ``GET /api/games/{id}`` answers)."""
    state = session.state(now)
    g = state["game"]
    view: dict[str, Any] = {
        "id": game_id,
        "game": session.game.kind,
        "version": version,
        "to_move": state["to_move"],
        "phase": g.get("phase"),
        "moves": g.get("moves") if "moves" in g else g.get("record"),
        "clocks": state["clock"],
        "clock_running": state["clock_running"],
        "paused": state["paused"],
        # absent at a scheduled start, or not yet seated when the clock waits for both
        "absent": sorted(c.value for c in session.waiting_for()),
        # when the clock starts and which rule applies (issue 21): start_rule ("seated",
        # "first_move", "scheduled"), started, waiting_for, lateness (or None)
        "clock": session.clock_start_json(),
        "adjourned_by": state["adjourned_by"],
        "outcome": state["outcome"],
        "referee": state["referee"],
        "seats_swapped": state["seats_swapped"],
        "time_control": session.clock.system.to_json(),
        # the seat that asked to take back its last move, until answered (casual games)
        "takeback": state["takeback"],
        # how the asker's last request ended without a takeback: refused, or the opponent
        # played on (its page says so until it asks again or plays)
        "takeback_answer": state["takeback_answer"],
    }
    view.update(session.game.board_view())
    return view


def event_link(record: StoredGame) -> dict[str, Any] | None:
    """The event, round and board a game belongs to (None for a casual game)."""
    if record.event_id is None:
        return None
    return {"id": record.event_id, "round": record.round, "board": record.board}
