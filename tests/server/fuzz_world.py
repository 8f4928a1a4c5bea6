"""The world the seeded schemathesis run works on (issue 35): games of both games in each of
their states and events of both games (Swiss, knockout, teams, engine rounds) with rounds,
results, conflicts and knockout draws, all made through the API before the run. The run's
hooks (``fuzz_hooks.py``, loaded by schemathesis) put the world's ids in the path of every
generated request and its keys in ``Authorization``, so the fuzzer works on things that exist
instead of reaching only 404s; :func:`targets` lists, for each operation, the path parameters
and keys to use."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = ["World", "build", "targets"]

Json = dict[str, Any]


@dataclass
class World:
    """What :func:`build` made: games (id, game, state, keys, calls) and events (id, game,
    system, keys, player numbers, rounds with their boards)."""

    games: list[Json] = field(default_factory=list)
    events: list[Json] = field(default_factory=list)

    def to_json(self) -> Json:
        return {"games": self.games, "events": self.events}


class Maker:
    """A client of the server under test that fails loudly when the world cannot be built."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)

    def call(self, method: str, path: str, key: str | None = None, **kw: Any) -> Any:
        headers = dict(kw.pop("headers", {}))
        if key:
            headers["Authorization"] = f"Bearer {key}"
        r = self.http.request(method, path, headers=headers, **kw)
        assert r.status_code < 300, f"{method} {path}: {r.status_code} {r.text[:400]}"
        return r.json() if r.headers.get("content-type", "").endswith("json") else r.text

    def act(self, game: Json, seat: str, **action: Any) -> Json:
        data: Json = self.call("POST", f"/api/games/{game['id']}/actions", game[seat], json=action)
        return data

    def state(self, game_id: str) -> Json:
        data: Json = self.call("GET", f"/api/games/{game_id}")
        return data


def _casual(m: Maker, state: str, **spec: Any) -> Json:
    made = m.call("POST", "/api/games", json=spec)
    return {
        "id": made["id"],
        "game": spec.get("game", "go"),
        "state": state,
        "black": made["black_token"],
        "white": made["white_token"],
        "arbiter": made["arbiter_token"],
        "calls": [],
        "casual": True,
    }


GO_MOVES = ["E5", "C3", "G7", "C7", "G3", "E3"]
# Gomoku §3.2: the designated opening's three stones, then White's 4th move and Black's 5th
GOMOKU_OPEN = ["h8", "h7", "j9"]


def _go_games(m: Maker) -> list[Json]:
    made = []
    fresh = _casual(m, "live", game="go", size=9)  # no move yet
    made.append(fresh)
    live = _casual(m, "live", game="go", size=9)
    for i, mv in enumerate(GO_MOVES[:4]):
        m.act(live, "black" if i % 2 == 0 else "white", type="move", point=mv)
    made.append(live)
    timed = _casual(
        m,
        "live",
        game="go",
        size=13,
        time_control={"system": "chinese-byoyomi", "base": 600, "reserved_minutes": 3},
    )
    m.act(timed, "black", type="move", point="D4")
    made.append(timed)
    handicap = _casual(m, "live", game="go", size=9, handicap=2)
    made.append(handicap)
    counting = _casual(m, "counting", game="go", size=9)
    for i, mv in enumerate(GO_MOVES):
        m.act(counting, "black" if i % 2 == 0 else "white", type="move", point=mv)
    m.act(counting, "black", type="pass")
    m.act(counting, "white", type="pass")  # Go §7: two passes open the counting phase
    made.append(counting)
    marked = _casual(m, "counting", game="go", size=9)
    for i, mv in enumerate(GO_MOVES):
        m.act(marked, "black" if i % 2 == 0 else "white", type="move", point=mv)
    m.act(marked, "black", type="pass")
    m.act(marked, "white", type="pass")
    m.act(marked, "black", type="mark_dead", points=["E3"])
    made.append(marked)
    resigned = _casual(m, "finished", game="go", size=9)
    m.act(resigned, "black", type="move", point="E5")
    m.act(resigned, "white", type="resign")
    made.append(resigned)
    scored = _casual(m, "finished", game="go", size=9)
    for i, mv in enumerate(GO_MOVES):
        m.act(scored, "black" if i % 2 == 0 else "white", type="move", point=mv)
    m.act(scored, "black", type="pass")
    m.act(scored, "white", type="pass")
    m.act(scored, "black", type="accept")
    m.act(scored, "white", type="accept")  # Go §21: both accept the marking
    made.append(scored)
    takeback = _casual(m, "live", game="go", size=9)
    m.act(takeback, "black", type="move", point="E5")
    m.act(takeback, "black", type="request_takeback")
    takeback["takeback"] = "black"
    made.append(takeback)
    paused = _casual(m, "live", game="go", size=9)
    m.act(paused, "black", type="move", point="E5")
    m.act(paused, "arbiter", type="pause")
    made.append(paused)
    return made


def _gomoku_games(m: Maker) -> list[Json]:
    made = []
    opening = _casual(m, "live", game="gomoku")  # waits for the designated opening
    made.append(opening)
    opened = _casual(m, "live", game="gomoku")
    m.act(opened, "black", type="open", moves=GOMOKU_OPEN, fifth_n=2)
    made.append(opened)
    free = _casual(m, "live", game="gomoku", rules="free")
    for i, mv in enumerate(["h8", "h9", "j8", "j9"]):
        m.act(free, "black" if i % 2 == 0 else "white", type="move", point=mv)
    made.append(free)
    draw = _casual(m, "live", game="gomoku", rules="free")
    for i, mv in enumerate(["h8", "a1", "j8", "a3"]):
        m.act(draw, "black" if i % 2 == 0 else "white", type="move", point=mv)
    made.append(draw)
    resigned = _casual(m, "finished", game="gomoku", rules="free")
    m.act(resigned, "black", type="move", point="h8")
    m.act(resigned, "white", type="resign")
    made.append(resigned)
    five = _casual(m, "finished", game="gomoku", rules="free")
    for i, mv in enumerate(["h8", "a1", "h9", "a3", "h10", "a5", "h11", "a7", "h12"]):
        m.act(five, "black" if i % 2 == 0 else "white", type="move", point=mv)
    made.append(five)
    takeback = _casual(m, "live", game="gomoku", rules="free")
    m.act(takeback, "black", type="move", point="h8")
    m.act(takeback, "black", type="request_takeback")
    takeback["takeback"] = "black"
    made.append(takeback)
    return made


def _calls_and_rulings(m: Maker, games: list[Json]) -> None:
    """Calls to the arbiter (open, and one answered by a ruling) and rulings on live games."""
    for g in games:
        if g["state"] != "live":
            continue
        for seat, about in (("black", "time"), ("white", "foul")):
            call = m.call("POST", f"/api/games/{g['id']}/calls", g[seat], json={"about": about})
            g["calls"].append(call["n"])
        # Go §24 a warning; Gomoku has no warnings, a violation (Gomoku §12.4)
        ruling = (
            {"kind": "warning", "color": "white", "article": "Go §24"}
            if g["game"] == "go"
            else {"kind": "violation", "color": "white", "article": "Gomoku §12.4"}
        )
        m.call("POST", f"/api/games/{g['id']}/rulings", g["arbiter"], json=ruling)


def _event(m: Maker, game: str, system: str, players: list[Any], **spec: Any) -> Json:
    made = m.call(
        "POST",
        "/api/events",
        json={"name": f"{game} {system}", "game": game, "system": system, **spec},
    )
    ev = {
        "id": made["id"],
        "game": game,
        "system": system,
        "organiser": made["organiser_token"],
        "arbiter": made["arbiter_token"],
        "players": [],
        "rounds": [],
    }
    m.call("POST", f"/api/events/{ev['id']}/players", ev["organiser"], json=players)
    listed = m.call("GET", f"/api/events/{ev['id']}")
    ev["players"] = [p["number"] for p in _players_of(listed)]
    return ev


def _players_of(listed: Json) -> list[Json]:
    event = listed.get("event", listed)
    players: list[Json] = event.get("players") or []
    return players


def _pair(m: Maker, ev: Json) -> Json:
    paired = m.call("POST", f"/api/events/{ev['id']}/rounds", ev["organiser"])
    number = int(paired["round"])
    rnd = m.call("GET", f"/api/events/{ev['id']}/rounds/{number}")
    boards = [int(g["board"]) for g in rnd.get("games", [])]
    entry: Json = {"number": number, "boards": boards, "games": []}
    ev["rounds"].append(entry)
    return entry


def _result(m: Maker, ev: Json, rnd: Json, board: int, result: str) -> None:
    m.call(
        "PUT",
        f"/api/events/{ev['id']}/rounds/{rnd['number']}/boards/{board}/result",
        ev["organiser"],
        json={"result": result},
    )


#: the key the world's rounds are started with: ``POST .../rounds/{n}/links`` answers with it
LINKS_KEY = "fuzz-world-links-key-" + "k" * 24


def _online(m: Maker, ev: Json, rnd: Json) -> list[Json]:
    """The round's online games, keyed as the casual ones (the event's arbiter key rules)."""
    started = m.call(
        "POST",
        f"/api/events/{ev['id']}/rounds/{rnd['number']}/games",
        ev["organiser"],
        json={"links_key": LINKS_KEY},
    )
    out = []
    for g in started["games"]:
        game = {
            "id": g["game_id"],
            "game": ev["game"],
            "state": "live",
            "black": g["black_token"],
            "white": g["white_token"],
            "arbiter": ev["arbiter"],
            "calls": [],
            "casual": False,
            "event": ev["id"],
            "round": rnd["number"],
            "board": g.get("board"),
        }
        rnd["games"].append(game["id"])
        out.append(game)
    return out


def _names(n: int, prefix: str, **extra: Any) -> list[Json]:
    return [{"name": f"{prefix} {i + 1}", "rating": 2000 - 10 * i, **extra} for i in range(n)]


def _events(m: Maker, engines: bool) -> tuple[list[Json], list[Json]]:
    events: list[Json] = []
    games: list[Json] = []
    online = {"go": {"size": 9}, "gomoku": {"rules": "free"}}
    for game in ("go", "gomoku"):
        # Swiss: round 1 entered by the director, round 2 played online (one game over, one
        # with a conflict: the online result disagreed with the director's entry)
        swiss = _event(m, game, "swiss", _names(8, f"{game} Swiss"), rounds=4, online=online[game])
        r1 = _pair(m, swiss)
        for i, b in enumerate(r1["boards"]):
            _result(m, swiss, r1, b, "1-0" if i % 2 == 0 else "0-1")
        r2 = _pair(m, swiss)
        played = _online(m, swiss, r2)
        games += played
        resign = played[0]
        m.act(resign, "black", type="resign")
        resign["state"] = "finished"
        clash = played[1]
        m.act(clash, "black", type="resign")  # its sheet waits DUIYI_RESULT_DELAY seconds
        _result(m, swiss, r2, int(clash["board"] or r2["boards"][1]), "1-0")
        clash["state"] = "finished"
        swiss["conflict"] = {"round": r2["number"], "board": int(clash["board"] or 2)}
        events.append(swiss)
        # a Swiss not paired yet: players to edit, remove, withdraw, mark absent, draw numbers
        fresh = _event(m, game, "swiss", _names(6, f"{game} New"), rounds=3, online=online[game])
        events.append(fresh)
        # a round paired and nothing played: its pairing is changed by hand (4 players, the
        # document's example pairing [[1, 2], [3, 4]])
        hand = _event(m, game, "swiss", _names(4, f"{game} Hand"), rounds=3, online=online[game])
        _pair(m, hand)
        hand["hand"] = True
        events.append(hand)
        # knockout: boards played over the board whose draw the director settles (replay or
        # lot, appendix 一), and one won
        ko = _event(m, game, "knockout", _names(8, f"{game} KO"), online=online[game])
        k1 = _pair(m, ko)
        _result(m, ko, k1, k1["boards"][-1], "1-0")
        ko["drawn"] = [{"round": k1["number"], "board": b} for b in k1["boards"][:-1]]
        events.append(ko)
        # teams: board order is entry order
        team_players = [
            {"name": f"{game} {t}{i}", "team": f"Team {t}"} for t in "ABCD" for i in (1, 2)
        ]
        team = _event(
            m,
            game,
            "round-robin",
            team_players,
            options={"team": True, "boards": 2},
            online=online[game],
        )
        t1 = _pair(m, team)
        for b in t1["boards"]:
            _result(m, team, t1, b, "1-0")
        _pair(m, team)
        events.append(team)
    if engines:
        # engine rounds (POST .../rounds/{n}/play): two engine players per event
        for game, engine in (("go", "gnugo:1"), ("gomoku", "gomocup")):
            players = [{"name": f"Bot {i}", "engine": engine} for i in (1, 2)]
            bots = _event(m, game, "swiss", players, rounds=1, online=online[game])
            _pair(m, bots)
            bots["engines"] = True
            events.append(bots)
    return events, games


def _engine_games(m: Maker) -> list[Json]:
    made = []
    for spec in ({"game": "go", "size": 9, "engine": "gnugo", "level": 1},):
        g = m.call("POST", "/api/engine-games", json=spec)
        made.append(
            {
                "id": g["id"],
                "game": spec["game"],
                "state": "live",
                "black": g.get("token") or g.get("black_token") or g.get("human_token"),
                "white": g.get("token") or g.get("white_token") or g.get("human_token"),
                "arbiter": g.get("arbiter_token"),
                "calls": [],
                "casual": True,
                "engine": True,
            }
        )
    return made


def _wait_conflicts(m: Maker, events: list[Json], within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    for ev in events:
        if "conflict" not in ev:
            continue
        while not m.call("GET", f"/api/events/{ev['id']}/conflicts")["conflicts"]:
            assert time.monotonic() < deadline, f"no conflict in event {ev['id']}"
            time.sleep(0.1)


def build(url: str, *, engines: bool = False) -> World:
    """Make the world on the server at ``url`` (``engines``: the server offers ``gnugo`` and
    ``gomocup`` and plays engine rounds)."""
    m = Maker(url)
    world = World()
    world.games += _go_games(m)
    world.games += _gomoku_games(m)
    _calls_and_rulings(m, world.games)
    events, online = _events(m, engines)
    world.events += events
    world.games += online
    if engines:
        world.games += _engine_games(m)
    _wait_conflicts(m, world.events)
    return world


# --- the targets of each operation ------------------------------------------------------------

Target = dict[str, Any]  # {"path": {name: value}, "key": token or None}


def _game_keys(op: str, g: Json) -> list[str | None]:
    method, path = op.split(" ", 1)
    if (path.endswith("/rulings") and method == "POST") or "/calls/{n}" in path:
        return [g["arbiter"]] if g["arbiter"] else [None]
    if path.endswith("/calls") or path.endswith("/ready") or path.endswith("/rematch"):
        return [g["black"], g["white"]]
    if method == "GET":
        return [None]
    return [k for k in (g["black"], g["white"], g["arbiter"]) if k] or [None]


def targets(
    world: World | Json, operations: list[str], operator: str | None = None
) -> dict[str, list[Target]]:
    """For each operation (``"POST /api/games/{game_id}/actions"``), the path parameters and
    keys the run's requests use, in the order the hooks take them: every object of the world
    the operation applies to, its keys in turn."""
    data = world.to_json() if isinstance(world, World) else world
    games: list[Json] = data["games"]
    events: list[Json] = data["events"]
    out: dict[str, list[Target]] = {}
    for op in operations:
        _method, path = op.split(" ", 1)
        found: list[Target] = []
        if "{game_id}" in path:
            for g in games:
                if "{n}" in path:
                    found += [
                        {"path": {"game_id": g["id"], "n": n}, "key": k}
                        for n in g["calls"]
                        for k in _game_keys(op, g)
                    ]
                else:
                    found += [{"path": {"game_id": g["id"]}, "key": k} for k in _game_keys(op, g)]
        elif "{event_id}" in path:
            for ev in events:
                if _reserved(ev, op):
                    continue
                found += _event_targets(op, ev)
        elif path == "/api/metrics":  # the operator's
            found.append({"path": {}, "key": operator})
        first = [t for t in found if t.pop("first", False)]
        out[op] = first + _interleave([t for t in found if t not in first])
    return out


def _event_targets(op: str, ev: Json) -> list[Target]:
    _method, path = op.split(" ", 1)
    key = ev["arbiter"] if path.endswith("/room") else ev["organiser"]
    base = {"event_id": ev["id"]}
    found: list[Target] = []
    if "/players/{number}" in path:
        rounds = [r["number"] for r in ev["rounds"]] + [len(ev["rounds"]) + 1]
        for p in ev["players"]:
            if "{round_number}" in path:
                found += [
                    {"path": {**base, "number": p, "round_number": r}, "key": key} for r in rounds
                ]
            else:
                found.append({"path": {**base, "number": p}, "key": key})
    elif "/rounds/{number}" in path:
        for r in ev["rounds"]:
            if "{board}" in path:
                found += [
                    {
                        "path": {**base, "number": r["number"], "board": b},
                        "key": key,
                        "first": _first(op, ev, r["number"], b),
                    }
                    for b in r["boards"]
                ]
            else:
                found.append(
                    {
                        "path": {**base, "number": r["number"]},
                        "key": key,
                        "first": _first(op, ev, r["number"], None),
                        **({"body": {"links_key": LINKS_KEY}} if path.endswith("/links") else {}),
                    }
                )
        if "{board}" not in path:  # the next round, not paired yet (hand pairings)
            found.append({"path": {**base, "number": len(ev["rounds"]) + 1}, "key": key})
    else:
        found.append({"path": base, "key": key})
    return found


#: the events kept as they were made for one operation (only it and the reads reach them): the
#: round paired by hand (no result, no online game), the engine round (not started)
_RESERVED = {"hand": "/pairings", "engines": "/play"}


def _reserved(ev: Json, op: str) -> bool:
    """Whether ``op`` must leave ``ev`` alone (a write of another operation)."""
    method, path = op.split(" ", 1)
    return method != "GET" and any(
        ev.get(role) and part not in path for role, part in _RESERVED.items()
    )


def _first(op: str, ev: Json, number: int, board: int | None) -> bool:
    """Whether the target is one of the few where the operation can succeed, tried first: the
    conflict's board, the drawn knockout boards, the engine round, the round paired by hand,
    the rounds whose links can be asked for again."""
    path = op.split(" ", 1)[1]
    if path.endswith("/conflict"):
        return ev.get("conflict") == {"round": number, "board": board}
    if path.endswith("/settle-draw"):
        return {"round": number, "board": board} in ev.get("drawn", [])
    if path.endswith("/play"):
        return bool(ev.get("engines"))
    if "/pairings" in path:
        return bool(ev.get("hand"))
    if path.endswith("/links"):  # a round whose games the world started (with its key)
        return any(r["number"] == number and r.get("games") for r in ev["rounds"])
    return False


def _interleave(found: list[Target]) -> list[Target]:
    """Spread the targets so that consecutive requests go to different objects: the first
    target of each object, then the second of each, ..."""
    by_object: dict[str, list[Target]] = {}
    for t in found:
        ident = str(t["path"].get("game_id") or t["path"].get("event_id"))
        by_object.setdefault(ident, []).append(t)
    out: list[Target] = []
    rank = 0
    while len(out) < len(found):
        for items in by_object.values():
            if rank < len(items):
                out.append(items[rank])
        rank += 1
    return out
