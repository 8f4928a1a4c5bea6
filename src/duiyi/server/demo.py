"""The demo that ``make run`` starts: a small Go Swiss with its first round online, and one
free Renju game, created once per database. The keys are written to ``var/demo-keys.json``
(readable by the owner only), never to the log.

>>> DEMO_NAME
'duiyi demo: club Swiss'
"""

from __future__ import annotations

import json
import logging
import os
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duiyi.server.auth import hash_token, new_token
from duiyi.tournament import event as ops
from duiyi.tournament.model import Player

if TYPE_CHECKING:
    from duiyi.server.app import State

__all__ = ["DEMO_NAME", "ensure_demo"]

log = logging.getLogger("duiyi.server.demo")

DEMO_NAME = "duiyi demo: club Swiss"
KEYS_FILE = Path("var/demo-keys.json")

_PLAYERS = [
    ("Chen Yaoye", "7d", 2700, "Beijing"),
    ("Gu Li", "7d", 2690, "Chongqing"),
    ("Ke Jie", "7d", 2720, "Lishui"),
    ("Mi Yuting", "6d", 2650, "Shanghai"),
    ("Tang Weixing", "6d", 2640, "Guizhou"),
    ("Yu Zhiying", "5d", 2500, "Shanghai"),
    ("Lian Xiao", "6d", 2660, "Tianjin"),
    ("Fan Tingyu", "6d", 2630, "Beijing"),
]


async def ensure_demo(state: State) -> dict[str, Any] | None:
    """Create the demo event and games unless the database has them already."""
    repo = state.repo
    if any(r.name == DEMO_NAME for r in await repo.events()):
        return None
    event = ops.new_event(DEMO_NAME, "go", "swiss", 5)
    event = ops.add_players(
        event, [Player(0, n, rank, rating, club) for n, rank, rating, club in _PLAYERS]
    )
    event, _paired = ops.pair_next_round(event, random.Random(2002))
    online = {
        "size": 19,
        "rules": "chinese",
        "time_control": {"system": "chinese-byoyomi", "base": 1800, "reserved_minutes": 3},
    }
    organiser, arbiter = new_token(), new_token()
    event_id = await repo.create_event(
        name=DEMO_NAME,
        data={"event": event.to_json(), "online": online},
        organiser_token_hash=hash_token(organiser),
        arbiter_token_hash=hash_token(arbiter),
        wall=time.time(),
    )
    boards = []
    for g in event.round(1).games:
        if g.black is None or g.white is None:
            continue
        host, tokens = await state.games.create(
            {"game": "go", **online},
            event_id=event_id,
            round=1,
            board=g.board,
            arbiter_token_hash=hash_token(arbiter),
        )
        boards.append({"board": g.board, "game_id": host.id, **tokens})
    renju, renju_tokens = await state.games.create(
        {
            "game": "gomoku",
            "rules": "chinese_2013",
            "time_control": {"system": "absolute", "base": 900},
        }
    )
    keys = {
        "event_id": event_id,
        "organiser_token": organiser,
        "arbiter_token": arbiter,
        "round_1": boards,
        "renju_game": {"game_id": renju.id, **renju_tokens},
    }
    KEYS_FILE.parent.mkdir(parents=True, exist_ok=True)
    KEYS_FILE.write_text(json.dumps(keys, indent=2, ensure_ascii=False), encoding="utf-8")
    os.chmod(KEYS_FILE, 0o600)
    log.warning("demo event %s created; its keys are in %s", event_id, KEYS_FILE.resolve())
    return keys
