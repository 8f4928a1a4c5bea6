"""A PostgreSQL outage for one test: a TCP relay between the server under test and the machine's
PostgreSQL that the test cuts and restores, as a restart looks from the server (every
connection ends at once, new ones are refused until it is back). Only the test's own server
loses its database; the machine's PostgreSQL, which other tests share, keeps running.

>>> relay = StoreRelay(5432)
>>> relay.port > 0 and relay.cuts == 0
True
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

from tests.server.conftest import PG_ADMIN, Server, _pg_create, _pg_drop, free_port

__all__ = ["StoreRelay", "relayed_database", "relayed_server"]


@contextlib.contextmanager
def relayed_database() -> Iterator[tuple[str, StoreRelay]]:
    """A fresh PostgreSQL database's URL through a :class:`StoreRelay` (dropped after)."""
    name = _pg_create()
    relay = StoreRelay(int(PG_ADMIN.rsplit(":", 1)[1].split("/")[0])).start()
    user = PG_ADMIN.split("://", 1)[1].split("@", 1)[0]
    try:
        yield f"postgresql+psycopg://{user}@127.0.0.1:{relay.port}/{name}", relay
    finally:
        relay.stop()
        _pg_drop(name)


@contextlib.contextmanager
def relayed_server(tmp: Path) -> Iterator[tuple[Server, StoreRelay]]:
    """A `duiyi serve` on a fresh PostgreSQL database reached through a :class:`StoreRelay`."""
    with relayed_database() as (url, relay):
        server = Server(url, None)
        try:
            yield server.start(tmp), relay
        finally:
            server.stop()


class StoreRelay:
    """127.0.0.1:``port`` relayed to 127.0.0.1:``target``; :meth:`cut` and :meth:`restore`."""

    def __init__(self, target: int, port: int | None = None) -> None:
        self.target = target
        self.port = port or free_port()
        self.cuts = 0
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener: socket.socket | None = None

    def start(self) -> StoreRelay:
        """Accept connections (again, on the same port)."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def cut(self) -> None:
        """PostgreSQL goes away: every relayed connection is reset, new ones are refused."""
        self.cuts += 1
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            ends, self._open = list(self._open), set()
        for end in ends:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def restore(self) -> None:
        """PostgreSQL is back."""
        self.start()

    def stop(self) -> None:
        self.cut()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    client.close()
                    server.close()
                    return
                self._open |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for end in (src, dst):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
