"""Reading and writing the event file: one JSON document, written atomically.

A save writes a temporary file in the same directory, flushes and fsyncs it, then renames it over
the event file with ``os.replace``, so a crash or a full disk never leaves a half-written event.

>>> import tempfile, pathlib
>>> from duiyi.tournament.model import Event
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> save_event(Event("Cup", "go", "swiss", 5), d / "cup.json")
>>> load_event(d / "cup.json").name
'Cup'
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from duiyi.errors import EventFileError
from duiyi.tournament.model import Event

__all__ = ["atomic_write_text", "load_event", "save_event"]


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
