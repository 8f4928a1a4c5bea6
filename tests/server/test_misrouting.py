"""Misrouted games' requests (duiyi.server.cluster.misrouting): when nginx's ring and the processes'
differ (DUIYI_PEERS misspelt, a server missing), most arrivals reach a process that is not the
game's owner; the watch counts them and warns, but never while ownership legitimately moves (a
process died, came back or restarted). Pure: the clock is given."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest

from duiyi.server.cluster.misrouting import GameArrivals, RoutingWatch, game_of_path

PEERS = {"a:1": "p-1@a:1", "b:2": "p-2@b:2", "c:3": "p-3@c:3"}


def watch() -> RoutingWatch:
    # as a process with stale_after 5 s and heartbeats every second builds it (State)
    return RoutingWatch(settle=10.0, confirm=7.0)


def play(
    w: RoutingWatch, start: float, end: float, misrouted: list[bool], n: int = 200
) -> list[float]:
    """``n`` arrivals spread evenly over [start, end), cycling through ``misrouted``; the times
    the watch said to warn."""
    warned = []
    for i in range(n):
        at = start + (end - start) * i / n
        if w.arrived(misrouted[i % len(misrouted)], at):
            warned.append(at)
    return warned


def test_a_lasting_misrouted_majority_warns_once_a_minute() -> None:
    w = watch()
    w.peers(PEERS, now=0.0)
    # two arrivals of three misrouted, for ten minutes, the peers unchanged
    warned = play(w, 0.0, 600.0, [True, True, False], n=3000)
    assert warned, "never warned"
    # not before the set settled (10 s) and the majority lasted (7 s) with 20 arrivals judged
    assert 17.0 <= warned[0] < 30.0
    assert all(b - a >= 60.0 for a, b in itertools.pairwise(warned))
    assert len(warned) >= 9
    assert w.routed == 3000 and w.misrouted == 2000
    bad, seen = w.window()
    assert seen == 50 and 2 * bad > seen


@pytest.mark.parametrize("pattern", [[True, False], [False], [True, False, False]])
def test_half_or_fewer_never_warns(pattern: list[bool]) -> None:
    w = watch()
    w.peers(PEERS, now=0.0)
    assert play(w, 0.0, 600.0, pattern, n=3000) == []


def test_too_few_arrivals_never_warn() -> None:
    w = RoutingWatch(settle=10.0, confirm=7.0, least=20)
    w.peers(PEERS, now=0.0)
    # 19 misrouted arrivals, spread over a long quiet time
    assert [w.arrived(True, now=100.0 + 60 * i) for i in range(19)] == [False] * 19
    assert not w.arrived(True, now=2000.0)  # the 20th: a majority, to be confirmed
    assert not w.arrived(True, now=2006.0)
    assert w.arrived(True, now=2007.0)  # it lasted 7 s


def test_arrivals_while_the_peers_just_changed_are_counted_not_judged() -> None:
    w = watch()
    w.peers(PEERS, now=0.0)
    assert play(w, 0.0, 9.9, [True], n=1000) == []
    assert w.window() == (0, 0)
    assert w.routed == w.misrouted == 1000  # /api/metrics counts them all


def test_a_failover_does_not_warn() -> None:
    """A process dies: until its heartbeat is stale (5 s, read at the next beat) the others take
    its games' requests, which nginx now sends them, for misrouted; then the live set changes, nginx sends the games
    back when it restarts, before the heartbeats show it again; none of it warns."""
    w = watch()
    up = dict(PEERS)
    t = 0.0
    w.peers(up, t)
    warned = play(w, 0.0, 100.0, [False])  # steady state
    # c dies at t=100: every arrival here is one of c's games (the worst case for one process)
    warned += play(w, 100.0, 106.0, [True])
    for beat in range(100, 107):  # its beat is stale after 5 s, read at the next heartbeat
        if beat >= 106:
            up.pop("c:3", None)
        w.peers(up, float(beat))
    warned += play(w, 106.0, 130.0, [False])
    # c comes back under a new process id; nginx retries it after fail_timeout (3 s)
    up["c:3"] = "p-4@c:3"
    w.peers(up, 130.0)
    warned += play(w, 130.0, 133.0, [True])
    warned += play(w, 133.0, 200.0, [False])
    assert warned == []
    assert w.misrouted > 0


def test_a_process_restarted_at_the_same_address_is_a_change() -> None:
    """kill -9 and a restart within the staleness limit: the address stays alive all along, but
    its process id changes, and the arrivals nginx sent elsewhere meanwhile are not judged."""
    w = watch()
    w.peers(PEERS, now=0.0)
    play(w, 0.0, 50.0, [False])
    warned = play(w, 50.0, 53.0, [True])  # c down for nginx, still alive to the heartbeats
    w.peers({**PEERS, "c:3": "p-9@c:3"}, now=53.0)  # the new c beats
    warned += play(w, 53.0, 56.0, [True])  # nginx still avoids c for its fail_timeout
    warned += play(w, 56.0, 120.0, [False])
    assert warned == []


def test_a_change_before_the_majority_is_confirmed_does_not_warn() -> None:
    w = watch()
    w.peers(PEERS, now=0.0)
    warned = play(w, 20.0, 26.0, [True])  # a majority for 6 s, less than the 7 s to confirm
    w.peers({k: v for k, v in PEERS.items() if k != "c:3"}, now=26.0)  # c was dead after all
    warned += play(w, 26.0, 90.0, [False])
    assert warned == []


def test_the_window_forgets_old_arrivals() -> None:
    w = RoutingWatch(settle=0.0, confirm=0.0, size=50, least=20)
    w.peers(PEERS, now=0.0)
    for _ in range(100):
        w.arrived(True, now=1.0)
    for _ in range(26):
        w.arrived(False, now=2.0)
    assert w.window() == (24, 50)
    assert not w.arrived(False, now=100.0)  # 23 of 50: no majority, whenever


def test_a_watch_needs_a_sane_window() -> None:
    with pytest.raises(ValueError):
        RoutingWatch(settle=1.0, confirm=1.0, size=10, least=20)


NGINX_MAP = re.compile(r"^/api/games/(?P<game_id>[^/]+)")  # deploy/nginx-duiyi.conf


def test_the_game_of_a_path_is_nginxs() -> None:
    rng = random.Random(7)
    parts = ["api", "games", "events", "abc", "", "socket", "actions", "x-y_z"]
    paths = ["/api/games", "/api/games/", "/api/games//x", "/api/gamesx/y", "/ui/", "/"]
    paths += [
        "/" + "/".join(rng.choice(parts) for _ in range(rng.randint(1, 5))) for _ in range(500)
    ]
    paths += ["/api/games/" + "/".join(rng.choice(parts) for _ in range(3)) for _ in range(500)]
    for path in paths:
        m = NGINX_MAP.match(path)
        assert game_of_path(path) == (m["game_id"] if m else None), path


async def test_each_request_and_socket_is_seen_once() -> None:
    seen: list[str] = []
    calls: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        calls.append(scope["type"])

    middleware = GameArrivals(app, seen.append)
    for scope in (
        {"type": "http", "path": "/api/games/g1/actions"},
        {"type": "websocket", "path": "/api/games/g2/socket"},
        {"type": "http", "path": "/api/games"},
        {"type": "http", "path": "/api/events/e1"},
        {"type": "lifespan"},
    ):
        await middleware(scope, None, None)
    assert seen == ["g1", "g2"]
    assert len(calls) == 5  # every scope goes on to the application

    def broken(game_id: str) -> None:
        raise RuntimeError("counting failed")

    await GameArrivals(app, broken)({"type": "http", "path": "/api/games/g3"}, None, None)
    assert len(calls) == 6  # the request is served anyway
