"""The demo that ``make run`` starts, created once per database, meant to teach the program:

- a Go Swiss of eight players with two rounds played and results entered, its third round
  paired and online;
- a 19×19 Go game and a Renju game (designated openings, Gomoku §3) between two named players;
- one finished game of each kind to review (a counted 9×9 Go game, a Renju game won by a five
  after the three-move swap).

Every live demo game waits for its players: it starts paused (the arbiter's pause, Go §14,
Gomoku §9) and its clock starts when both seats are taken (``POST /api/games/{id}/ready``), so
an unattended demo never loses on time. ``GET /api/demo`` lists the seats with a "sit here" link
each (the demo is public by design; a real server runs without ``--demo``). The keys are also
written to ``var/demo-keys.json`` (readable by the owner only), never to the log.

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

from fastapi import APIRouter, Request

from duiyi import BLACK, WHITE, Color
from duiyi.actions import SESSION_ACTIONS, Accept, Move, Pass, Pause, SetDead
from duiyi.codec import action_from_json
from duiyi.server.auth import hash_token, new_token
from duiyi.server.games.manager import NewGame
from duiyi.server.routes.ui import event_seats, given_seats
from duiyi.store.models import GameRow
from duiyi.tournament import event as ops
from duiyi.tournament.model import Player

if TYPE_CHECKING:
    from duiyi.server.games.host import GameHost
    from duiyi.server.state import State

__all__ = ["DEMO_NAME", "ensure_demo", "router"]

log = logging.getLogger("duiyi.server.demo")

DEMO_NAME = "duiyi demo: club Swiss"
KEYS_FILE = Path("var/demo-keys.json")

router = APIRouter(tags=["demo"])

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

# A 9×9 game to review: two walls, a lone white stone (B5) dead inside Black's side (Go §8).
_GO_REVIEW = list(
    zip(
        [f"E{r}" for r in range(1, 10)] + ["C3"],
        [f"F{r}" for r in range(1, 10)] + ["B5"],
        strict=True,
    )
)
# Renju to review (Gomoku §3.2 opening h8 h9 j10, the three-move swap, then Black's five).
_RENJU_REVIEW: list[tuple[str, dict[str, Any], str]] = [
    ("black", {"type": "open", "moves": ["h8", "h9", "j10"], "fifth_n": 1}, ""),
    ("white", {"type": "swap"}, ""),  # Gomoku §2.9: the White seat takes Black
    ("black", {"type": "move", "point": "a15"}, ""),  # white 4, played by the opener
    ("white", {"type": "move", "point": "i9"}, ""),  # black 5
    ("black", {"type": "move", "point": "a14"}, ""),
    ("white", {"type": "move", "point": "g7"}, ""),  # an open four g7 h8 i9 j10
    ("black", {"type": "move", "point": "f6"}, ""),
    ("white", {"type": "move", "point": "k11"}, ""),  # five in a row (Gomoku §2.12)
]


async def _set_config(state: State, game_id: str, **values: Any) -> None:
    async with state.repo.db.session() as s, s.begin():
        row = await s.get(GameRow, game_id)
        if row is not None:
            row.config = {**(row.config or {}), **values}


async def _waiting(state: State, host: GameHost, names: dict[str, str]) -> None:
    """Pause a new game until both players sit down."""
    await host.act(None, Pause())
    await _set_config(state, host.id, names=names, wait={"waiting": True, "ready": []})


async def ensure_demo(state: State) -> dict[str, Any] | None:
    """Create the demo event and games unless the database has them already."""
    repo = state.repo
    if any(r.name == DEMO_NAME for r in await repo.events()):
        return None
    rng = random.Random(2002)
    event = ops.new_event(DEMO_NAME, "go", "swiss", 5)
    event = ops.add_players(
        event, [Player(0, n, rank, rating, club) for n, rank, rating, club in _PLAYERS]
    )
    event = ops.simulate(event, 2, rng)  # two rounds played, results entered
    event, _paired = ops.pair_next_round(event, rng)
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
    seats: list[dict[str, Any]] = []
    rnd = event.round(event.current_round)
    for g in rnd.games:
        if g.black is None or g.white is None:
            continue
        host, tokens = await state.games.create(
            NewGame(
                {"game": "go", **online},
                event_id=event_id,
                round=rnd.number,
                board=g.board,
                arbiter_token_hash=hash_token(arbiter),
            )
        )
        names = {"black": event.player(g.black).name, "white": event.player(g.white).name}
        await _waiting(state, host, names)
        seats.append(_seats(host.id, "go", names, tokens, (rnd.number, g.board)))
    go, go_tokens = await state.games.create(
        NewGame(
            {
                "game": "go",
                "size": 19,
                "rules": "chinese",
                "time_control": {"system": "chinese-byoyomi", "base": 1200, "reserved_minutes": 3},
            }
        )
    )
    names = {"black": "Li Wei", "white": "Zhang Min"}
    await _waiting(state, go, names)
    seats.insert(0, _seats(go.id, "go", names, go_tokens, None))
    renju, renju_tokens = await state.games.create(
        NewGame(
            {
                "game": "gomoku",
                "rules": "chinese_2013",
                "time_control": {"system": "absolute", "base": 900},
            }
        )
    )
    names = {"black": "Wang Fang", "white": "Liu Yang"}
    await _waiting(state, renju, names)
    seats.insert(1, _seats(renju.id, "gomoku", names, renju_tokens, None))
    reviews = [await _review_go(state), await _review_renju(state)]
    keys = {
        "event_id": event_id,
        "organiser_token": organiser,
        "arbiter_token": arbiter,
        "seats": seats,
        "reviews": reviews,
    }
    KEYS_FILE.parent.mkdir(parents=True, exist_ok=True)
    KEYS_FILE.write_text(json.dumps(keys, indent=2, ensure_ascii=False), encoding="utf-8")
    os.chmod(KEYS_FILE, 0o600)
    log.warning("demo event %s created; its keys are in %s", event_id, KEYS_FILE.resolve())
    return keys


def _seats(
    game_id: str,
    kind: str,
    names: dict[str, str],
    tokens: dict[str, str],
    where: tuple[int, int] | None,
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "game": kind,
        "round": where[0] if where else None,
        "board": where[1] if where else None,
        "names": names,
        "black_token": tokens["black"],
        "white_token": tokens["white"],
    }


async def _review_go(state: State) -> str:
    host, _tokens = await state.games.create(NewGame({"game": "go", "size": 9, "rules": "chinese"}))
    await _set_config(state, host.id, names={"black": "Li Wei", "white": "Zhang Min"})
    for black_move, white_move in _GO_REVIEW:
        await host.act(BLACK, Move(black_move))
        await host.act(WHITE, Move(white_move))
    await host.act(BLACK, Pass())
    await host.act(WHITE, Pass())
    await host.act(BLACK, SetDead(("B5",)))  # Go §8: B5 has no life
    for colour in (BLACK, WHITE):
        await host.act(colour, Accept())
    return host.id


async def _review_renju(state: State) -> str:
    host, _tokens = await state.games.create(NewGame({"game": "gomoku", "rules": "chinese_2013"}))
    await _set_config(state, host.id, names={"black": "Wang Fang", "white": "Liu Yang"})
    for seat, action, _note in _RENJU_REVIEW:
        await host.act(Color(seat), action_from_json(action, SESSION_ACTIONS))
    return host.id


@router.get("/api/demo")
async def demo_seats(request: Request) -> dict[str, Any]:
    """The demo's seats still waiting for a player (game, names, a "sit here" token each) and
    its games to review. Only served by ``duiyi serve --demo``."""
    try:
        keys = json.loads(KEYS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"seats": [], "reviews": [], "event_id": None}
    repo = request.app.state.duiyi.repo
    seats = []
    for s in keys.get("seats", []):
        try:
            record = await repo.game(s["game_id"])
        except Exception:  # the database was replaced under the keys file
            continue
        wait = record.config.get("wait") or {}
        if record.status != "live":
            continue
        ready = set(wait.get("ready", [])) if wait.get("waiting") else {"black", "white"}
        seats.append(
            {
                "game_id": s["game_id"],
                "game": s["game"],
                "round": s.get("round"),
                "board": s.get("board"),
                "names": s["names"],
                # the event's players with their ranks, as the live list shows them
                "seats": {**given_seats(s["names"]), **(await event_seats(repo, record))[0]},
                "tokens": {c: s[f"{c}_token"] for c in ("black", "white") if c not in ready},
            }
        )
    return {
        "seats": seats,
        "reviews": keys.get("reviews", []),
        "event_id": keys.get("event_id"),
        # the demo event's keys, so that a visitor can try the desk and the arbiter's room
        "organiser_token": keys.get("organiser_token"),
        "arbiter_token": keys.get("arbiter_token"),
    }
