"""deploy/nginx-duiyi.conf against the processes' own settings: nginx closes an idle connection
to a process before the process does (a request sent on a connection the process was closing
is answered with a reset, and nginx never sends a POST twice: the client got 502 on creating a
game, seen in bench/cluster.py runs)."""

from __future__ import annotations

import re
from pathlib import Path

from duiyi.server.settings import Settings

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx-duiyi.conf"


def _seconds(value: str) -> float:
    """An nginx time (``4s``, ``500ms``, ``1m``; a bare number is seconds)."""
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()  # type: ignore[union-attr]
    return int(number) * {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}[unit]


def test_every_upstream_closes_idle_connections_before_the_processes_do() -> None:
    blocks = re.findall(r"upstream (\w+) \{(.*?)\n\}", CONF.read_text(), re.S)
    assert {name for name, _ in blocks} == {"duiyi", "duiyi_games"}
    for name, body in blocks:
        assert re.search(r"^\s*keepalive \d+;", body, re.M), name  # connections are reused
        found = re.search(r"^\s*keepalive_timeout (\S+);", body, re.M)
        # nginx's default is 60 s: far longer than the processes keep an idle connection
        assert found is not None, f"upstream {name}: no keepalive_timeout"
        assert _seconds(found.group(1)) < Settings().keep_alive_timeout, name
