"""What a game looks like from outside: its public state (``GET /api/games/{id}``, the sockets'
``state``) and its log entries as spectators see them.

>>> public_entry({"type": "adjourn", "sealed": "D4", "action_id": "a1"})
{'type': 'adjourn', 'sealed': 'hidden'}
"""

from __future__ import annotations

from typing import Any

from duiyi import BLACK, WHITE
from duiyi.session import Session
from duiyi.store.repository import GameRecord

__all__ = ["event_link", "game_view", "public_entry"]


def public_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as spectators and players see it: a sealed move stays sealed (Go §14); the
    client's action id stays in the store (every process serves the same entries)."""
    if "action_id" in entry:
        entry = {k: v for k, v in entry.items() if k != "action_id"}
    if entry.get("type") == "adjourn" and "sealed" in entry:
        return {**entry, "sealed": "hidden"}
    return entry


def _board_view(session: Session) -> dict[str, Any]:
    inner = getattr(session.game, "game", None)
    out: dict[str, Any] = {}
    if inner is None:
        return out
    board = getattr(inner, "board", None)
    if board is not None and hasattr(board, "stones"):
        out["stones"] = {c.value: sorted(str(p) for p in board.stones(c)) for c in (BLACK, WHITE)}
        out["size"] = getattr(board, "size", None)
    if session.game.kind == "go":
        out["captures"] = {c.value: n for c, n in inner.captures.items()}
        out["dead"] = sorted(str(p) for p in inner.dead)
        out["accepted"] = sorted(c.value for c in inner.accepted)
        out["rules"] = inner.rules.to_json()
        out["handicap"] = inner.handicap
        last = inner.last_move
        out["last_move"] = None if last is None else (str(last[1]) if last[1] else "pass")
        out["sgf_result"] = inner.sgf_result
        out["result_zh"] = inner.result_zh
    else:
        moves = inner.moves
        out["last_move"] = str(moves[-1].point) if moves and moves[-1].point else None
        out["moves_list"] = [str(m.point) if m.point else "pass" for m in moves]
        out["rules"] = inner.rules.to_json()
        out["fifth_n"] = inner.fifth_n
        out["fifth_candidates"] = [str(p) for p in inner.fifth_candidates]
        out["draw_offer"] = inner.draw_offer.value if inner.draw_offer else None
        # Gomoku §10.3(4): the offers made, by stone colour, and the lead the rules allow
        out["draw_offers"] = {c.value: n for c, n in inner.draw_offers.items()}
        out["draw_offer_lead"] = inner.rules.draw_offer_lead
        known = inner.opening
        out["opening"] = (
            None
            if known is None
            else {
                "id": known.opening.id,
                "chinese": known.opening.chinese,
                "japanese": known.opening.japanese,
            }
        )
        out["to_act"] = inner.to_act.value if inner.to_act else None
        # Gomoku §2.9: after the swap the Black seat plays the white stones
        out["swapped"] = inner.swapped
        out["stone_colours"] = (
            {"black": "white", "white": "black"}
            if inner.swapped
            else {"black": "black", "white": "white"}
        )
    return out


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
    }
    view.update(_board_view(session))
    return view


def event_link(record: GameRecord) -> dict[str, Any] | None:
    """The event, round and board a game belongs to (None for a casual game)."""
    if record.event_id is None:
        return None
    return {"id": record.event_id, "round": record.round, "board": record.board}
