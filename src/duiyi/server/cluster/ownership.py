"""Who owns a game behind nginx's consistent hash: the game's point on nginx's ring
(:mod:`duiyi.server.cluster.ring`) among the processes alive, so that the process nginx sends a game's
requests and sockets to is the one that hosts it, and nothing is forwarded but while ownership
moves (a process died, paused, or came back).

Each process knows the upstream list (``DUIYI_PEERS``) and its own address in it; its process
id ends with ``@<address>``, so the heartbeats in the store say which addresses are alive (and
which process id is the live one behind each). The store still decides who may commit (the
owner column fences every commit): this only says who *should* host a game.

>>> o = Ownership(("a:1", "b:2", "c:3"), "p-1@a:1", stale_after=5.0)
>>> o.live == {"a:1": "p-1@a:1"}
True
>>> o.update({"p-1@a:1": 100.0, "p-2@b:2": 99.0, "p-3@c:3": 90.0, "p-9@c:3": 80.0}, now=100.0)
>>> sorted(o.live)
['a:1', 'b:2']
>>> o.owner_process("some-game") in ("p-1@a:1", "p-2@b:2")
True
"""

from __future__ import annotations

from duiyi.server.cluster.ring import HashRing

__all__ = ["Ownership", "address_of"]


def address_of(process_id: str) -> str | None:
    """The upstream address a process id names (``p-1a2b@127.0.0.1:8001``), or None.

    >>> address_of("p-1a2b@127.0.0.1:8001")
    '127.0.0.1:8001'
    >>> address_of("p-1a2b") is None
    True
    """
    _, at, address = process_id.partition("@")
    return address if at else None


class Ownership:
    """The ring over the peers and the processes alive behind each address."""

    def __init__(self, peers: tuple[str, ...], process_id: str, stale_after: float) -> None:
        self.ring = HashRing(peers)
        self.process_id = process_id
        address = address_of(process_id)
        if address is None or address not in self.ring.servers:
            raise ValueError(f"process {process_id!r} is not one of the peers {list(peers)}")
        self.address: str = address
        self.stale_after = stale_after
        # address -> the process id alive there (this process is always alive to itself)
        self.live: dict[str, str] = {self.address: process_id}

    def update(self, beats: dict[str, float], now: float) -> None:
        """The live set from the heartbeats (process id -> wall clock of its last beat): a
        process is alive while its beat is younger than ``stale_after``; of two ids at one
        address (a restarted process) the one that beat last."""
        live: dict[str, tuple[float, str]] = {}
        for process, wall in beats.items():
            address = address_of(process)
            if address is None or address not in self.ring.servers:
                continue
            if now - wall >= self.stale_after or process == self.process_id:
                continue
            if address == self.address:
                continue  # an earlier life of this address: this process replaced it
            if address not in live or live[address][0] < wall:
                live[address] = (wall, process)
        self.live = {a: p for a, (_, p) in live.items()}
        self.live[self.address] = self.process_id

    def owner_process(self, game_id: str) -> str | None:
        """The process id that should host ``game_id``: its ring owner among the live ones
        (None when nginx itself would fall back to round robin)."""
        address = self.ring.owner(game_id, self.live)
        return None if address is None else self.live[address]

    def mine(self, game_id: str) -> bool:
        """Whether this process is the game's ring owner among the live ones."""
        return self.owner_process(game_id) == self.process_id
