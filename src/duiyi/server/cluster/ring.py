"""nginx's consistent hash (``hash $key consistent``, ngx_http_upstream_hash_module) in Python, so
that every server process computes the upstream nginx sends a game's requests to: that process
owns the game (docs/deploy.md, *Who owns a game*).

How nginx builds and reads its ring (written from its documented behaviour and source, not
copied):

- each upstream ``server`` line, named as written (``127.0.0.1:8001``), is split at its last
  ``:`` followed only by digits into a host and a port (``unix:/path`` is all host, no port);
- it gets ``weight * 160`` points; point ``j`` hashes ``crc32(host + "\\0" + port + prev)``
  where ``prev`` is point ``j-1``'s hash as 4 little-endian bytes (0 for the first point);
- the points are sorted by hash and points of equal hash kept once (the first);
- a request's key hashes to ``crc32(key)``; its first point is the first with a hash at least
  that (wrapping to point 0 past the last); a point whose server is down (failed, marked down,
  or tried already for this request) is skipped for the next point, and after 20 skipped
  points nginx falls back to round robin (here: ``None``, nobody can say).

>>> ring = HashRing(["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"])
>>> len(ring.points)
480
>>> ring.owner("abc") in ring.servers
True
>>> alive = {"127.0.0.1:8001", "127.0.0.1:8003"}
>>> ring.owner("abc", alive) in alive
True
>>> ring.owner("abc", set()) is None
True
"""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Container, Iterable, Sequence

__all__ = ["MAX_SKIPS", "POINTS_PER_WEIGHT", "HashRing", "split_server"]

# nginx: points per unit of weight, and points skipped before it gives up on the ring
POINTS_PER_WEIGHT = 160
MAX_SKIPS = 20


def split_server(server: str) -> tuple[bytes, bytes]:
    """The host and port nginx hashes for an upstream ``server`` name.

    >>> split_server("127.0.0.1:8001")
    (b'127.0.0.1', b'8001')
    >>> split_server("[::1]:80")
    (b'[::1]', b'80')
    >>> split_server("backend")
    (b'backend', b'')
    >>> split_server("unix:/run/duiyi.sock")
    (b'/run/duiyi.sock', b'')
    """
    name = server.encode()
    if name[:5].lower() == b"unix:":
        return name[5:], b""
    # nginx reads digits back from the end: a ':' before them splits host and port
    host = name.rstrip(b"0123456789")
    if host.endswith(b":"):
        return host[:-1], name[len(host) :]
    return name, b""


class HashRing:
    """The points of nginx's ring over ``servers`` (names as in the upstream block, in order)
    with their weights (1 when not given)."""

    def __init__(self, servers: Iterable[str], weights: Sequence[int] | None = None) -> None:
        self.servers: tuple[str, ...] = tuple(servers)
        if not self.servers:
            raise ValueError("a ring needs at least one server")
        if len(set(self.servers)) != len(self.servers):
            raise ValueError(f"a server is named twice: {self.servers}")
        weights = [1] * len(self.servers) if weights is None else list(weights)
        if len(weights) != len(self.servers) or any(w < 1 for w in weights):
            raise ValueError("one weight of 1 or more per server")
        points: list[tuple[int, int]] = []  # (hash, server index), in the order nginx adds them
        for index, (server, weight) in enumerate(zip(self.servers, weights, strict=True)):
            host, port = split_server(server)
            base = zlib.crc32(host + b"\0" + port)
            prev = 0
            for _ in range(weight * POINTS_PER_WEIGHT):
                prev = zlib.crc32(prev.to_bytes(4, "little"), base)
                points.append((prev, index))
        # sorted by hash; of equal hashes the first stays (nginx's sort is not stable either:
        # two servers with one hash are a 1 in 2^32 chance per pair of points)
        points.sort(key=lambda p: p[0])
        kept: list[tuple[int, int]] = []
        for point in points:
            if not kept or kept[-1][0] != point[0]:
                kept.append(point)
        self.points: list[tuple[int, str]] = [(h, self.servers[i]) for h, i in kept]
        self._hashes = [h for h, _ in kept]

    def first_point(self, key: str) -> int:
        """The index of the key's first point: the first whose hash is at least ``crc32(key)``
        (``len(points)`` past the last, which nginx reads as point 0)."""
        return bisect.bisect_left(self._hashes, zlib.crc32(key.encode()))

    def owner(self, key: str, up: Container[str] | None = None) -> str | None:
        """The server nginx sends ``key`` to when the servers in ``up`` (all when None) are
        the ones it may use; None when it would fall back to round robin (none up, or more
        than MAX_SKIPS points skipped)."""
        at = self.first_point(key)
        for skips in range(MAX_SKIPS + 1):
            server = self.points[(at + skips) % len(self.points)][1]
            if up is None or server in up:
                return server
        return None

    def successors(self, key: str) -> list[str]:
        """Every server in the order nginx would try them for ``key`` if each one before failed
        (the owner first; a server appears once, at its first point)."""
        at = self.first_point(key)
        seen: list[str] = []
        for n in range(len(self.points)):
            server = self.points[(at + n) % len(self.points)][1]
            if server not in seen:
                seen.append(server)
                if len(seen) == len(self.servers):
                    break
        return seen
