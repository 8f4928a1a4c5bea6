"""Events parsed once per stored version, shared by every part of the server that reads them.

A 10,000-player event takes about half a second to parse, and the desk's routes, the result
reader and the engine rounds all read the event they change (bench/event_server.py). Events are
immutable values, so one parse serves every reader until the stored version moves on; the key
is the row's id, creation instant, version and storing instant, so that a new version (or
another database holding the same id) is never served from here.

>>> from duiyi.store.repository import EventRecord
>>> from duiyi.tournament.event import new_event
>>> record = EventRecord("e1", "Club", {"event": new_event("Club", "go", "swiss", 3).to_json()},
...                      1, "o", "a", 1.0, 1.0)
>>> parsed_event(record) is parsed_event(record)
True
"""

from __future__ import annotations

import collections

from duiyi.store.repository import EventRecord
from duiyi.tournament.model import Event

__all__ = ["parsed_event", "remember_event"]

_PARSED: collections.OrderedDict[tuple[str, float, int, float], Event] = collections.OrderedDict()
_PARSED_MAX = 8


def parsed_event(record: EventRecord) -> Event:
    """The event of a stored record: the one the store assembled from its rows, else (a record
    made by hand) its document ``data["event"]``, parsed once per stored version."""
    if record.event is not None:
        return record.event
    found = _PARSED.get(_key(record))
    if found is None:
        return remember_event(record, Event.from_json(record.data["event"]))
    _PARSED.move_to_end(_key(record))
    return found


def _key(record: EventRecord) -> tuple[str, float, int, float]:
    return (record.id, record.created_at, record.version, record.updated_at)


def remember_event(record: EventRecord, event: Event) -> Event:
    """Keep ``event`` as the parsed form of ``record`` (the version just stored); ``event``."""
    _PARSED[_key(record)] = event
    while len(_PARSED) > _PARSED_MAX:
        _PARSED.popitem(last=False)
    return event
