"""Reading and writing the event file: one JSON document, written atomically.

A save writes a temporary file in the same directory, flushes and fsyncs it, then renames it over
the event file with ``os.replace``, so a crash or a full disk never leaves a half-written event.

Two directors changing the same file at once would otherwise lose one change (the last write
wins): :func:`event_lock` takes an advisory ``fcntl.flock`` on a lock file beside the event
(``.<name>.lock``, removed again on release; the event file itself is replaced on every save,
so it cannot carry the lock) around a whole load–change–save, and refuses with :class:`EventFileError` when another command
still holds it after ``wait`` seconds.

>>> import tempfile, pathlib
>>> from duiyi.tournament.model import Event
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> save_event(Event("Cup", "go", "swiss", 5), d / "cup.json")
>>> load_event(d / "cup.json").name
'Cup'
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from duiyi.errors import EventFileError
from duiyi.tournament.model import Event

__all__ = ["atomic_write_text", "event_lock", "load_event", "lock_path", "save_event"]

LOCK_WAIT = 3.0
"""Seconds :func:`event_lock` waits for another command to finish before giving up."""


def load_event(path: str | os.PathLike[str]) -> Event:
    """Read an event file; EventFileError (one clear line) when it is missing or unreadable."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EventFileError(
            f"{p}: no such event file (create it with `duiyi event new`)"
        ) from None
    except OSError as exc:
        raise EventFileError(f"{p}: cannot read the event file: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventFileError(
            f"{p}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    try:
        return Event.from_json(data)
    except EventFileError as exc:
        raise EventFileError(f"{p}: {exc}") from None


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a fsynced temporary file and ``os.replace``."""
    p = Path(path)
    directory = p.parent if str(p.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise EventFileError(f"{p}: cannot write in {directory}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, p)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise EventFileError(f"{p}: cannot write the event file: {exc.strerror}") from None
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def save_event(event: Event, path: str | os.PathLike[str]) -> None:
    """Write the event file atomically (pretty JSON, UTF-8)."""
    text = json.dumps(event.to_json(), ensure_ascii=False, indent=1) + "\n"
    atomic_write_text(path, text)


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file of an event file: ``.<name>.lock`` in the same directory.

    >>> lock_path("events/cup.json").as_posix()
    'events/.cup.json.lock'
    """
    p = Path(path)
    return p.with_name(f".{p.name}.lock")


@contextlib.contextmanager
def event_lock(path: str | os.PathLike[str], wait: float | None = None) -> Iterator[None]:
    """Hold the event file's advisory lock for a load–change–save (``with event_lock(p): ...``).

    Waits up to ``wait`` seconds (default :data:`LOCK_WAIT`) for another holder, then raises
    :class:`EventFileError`. The lock is released when the block ends, also on errors, or when
    the process dies (the kernel drops ``flock`` locks with the file descriptor). The lock file
    is removed on release; a waiter that then finds itself holding a removed file starts over,
    so two commands never both hold the lock.

    >>> import tempfile, pathlib
    >>> ev = pathlib.Path(tempfile.mkdtemp()) / "cup.json"
    >>> with event_lock(ev):
    ...     with event_lock(ev, wait=0):
    ...         pass
    Traceback (most recent call last):
    ...
    duiyi.errors.EventFileError: ...cup.json is being changed by another duiyi command ...
    >>> lock_path(ev).exists()
    False
    """
    p = Path(path)
    lock = lock_path(p)
    limit = time.monotonic() + (LOCK_WAIT if wait is None else max(0.0, wait))
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise EventFileError(
                f"{p}: cannot create the lock file {lock}: {exc.strerror}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= limit:
                raise EventFileError(
                    f"{p} is being changed by another duiyi command (lock {lock} is held); "
                    "try again when it has finished"
                ) from None
            time.sleep(0.05)
            continue
        try:
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder removed this lock file as we waited on it: start over
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)  # closing the descriptor releases the flock
