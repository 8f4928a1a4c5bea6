"""One codec per field type, and one reader and writer of every action log (issue 34): the frozen
dataclasses of a log are written to JSON and read back field by field, by the type their
annotation names (as sgfmill reads a property by its type). Each log (Go's, Gomoku's, the
session's) is a :class:`Vocabulary`, its own table, since a point is a different thing on each
board; :func:`action_from_json` and :func:`action_to_json` are the same for all, here below
every core.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Step:
...     n: int
...     words: str = "go"
>>> LOG = Vocabulary("toy", {"step": Step}, {"int": Codec(int, int), "str": Codec(str, str)})
>>> action_to_json(Step(3), LOG)
{'v': 1, 'type': 'step', 'n': 3, 'words': 'go'}
>>> action_from_json({"v": 1, "type": "step", "n": "4"}, LOG)
Step(n=4, words='go')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any

from duiyi.errors import InvalidInput

__all__ = [
    "Codec",
    "Vocabulary",
    "action_class",
    "action_from_json",
    "action_to_json",
    "codec_of",
    "maybe",
    "read_fields",
    "write_fields",
]


@dataclass(frozen=True)
class Codec:
    """How a field of one type is written to JSON and read back from its JSON value."""

    write: Callable[[Any], Any]
    read: Callable[[Any], Any]


def maybe(read: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A reader for a field that may be None: an empty value reads as None."""
    return lambda v: read(v) if v else None


def codec_of(table: Mapping[str, Any], f: Field[Any]) -> Any:
    """The codec of field ``f``, by its annotation as written (the modules use
    ``from __future__ import annotations``, so an annotation is its text)."""
    try:
        return table[str(f.type)]
    except KeyError:
        raise TypeError(f"no codec for the field {f.name}: {f.type}") from None


def write_fields(
    obj: Any,
    table: Mapping[str, Any],
    *,
    skip_none: bool = False,
    first: tuple[str, ...] = (),
    ignored: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The dataclass ``obj``'s fields as JSON, those named in ``first`` first, the others in
    their order (those that are None left out with ``skip_none``, those ``ignored`` always),
    each by its codec's ``write``."""
    out: dict[str, Any] = {}
    ordered = sorted(fields(obj), key=lambda f: f.name not in first)
    for f in ordered:
        value = getattr(obj, f.name)
        if (value is None and skip_none) or f.name in ignored:
            continue
        out[f.name] = codec_of(table, f).write(value)
    return out


def read_fields(
    cls: type,
    data: Mapping[str, Any],
    table: Mapping[str, Codec],
    required: frozenset[str] = frozenset(),
    ignored: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The keyword arguments of dataclass ``cls`` from the JSON object ``data``, each field's
    value read by its codec. A field missing or null is its default (None for one whose type
    allows None), and so is one ``ignored``; a field without either, or named in ``required``
    (a colour, never guessed), may not be missing."""
    out: dict[str, Any] = {}
    for f in fields(cls):
        value = None if f.name in ignored else data.get(f.name)
        if value is not None:
            out[f.name] = codec_of(table, f).read(value)
        elif f.name in required or (f.default is MISSING and not str(f.type).endswith("None")):
            raise InvalidInput(f"the action needs {f.name!r}, got {value!r}")
        else:
            out[f.name] = None if f.default is MISSING else f.default
    return out


@dataclass(frozen=True)
class Vocabulary:
    """One log's actions: each class by its JSON ``type``, the codec of each field type, and
    what the log's entries say of themselves. A class whose JSON is not its fields one by one
    has its own reader (the whole object to the action) or writer (the action to its fields)."""

    #: names the log in messages ("Go", "Gomoku", "session")
    what: str
    types: Mapping[str, type]
    codecs: Mapping[str, Codec]
    #: the ``"v"`` each entry carries (None: the log's envelope carries it)
    version: int | None = 1
    #: what an entry without ``"v"`` is (None: an entry says it)
    version_default: int | None = None
    #: fields never guessed, even where the class has a default (a colour)
    required: frozenset[str] = frozenset()
    #: fields written before the others (the colour that acted)
    first: tuple[str, ...] = ()
    #: fields this log neither writes nor reads (they are their default: a session's stone
    #: names no colour)
    ignored: frozenset[str] = frozenset()
    #: a field that is None is not written
    skip_none: bool = False
    readers: Mapping[type, Callable[[Mapping[str, Any]], Any]] = field(default_factory=dict)
    writers: Mapping[type, Callable[[Any], dict[str, Any]]] = field(default_factory=dict)

    def name_of(self, cls: type) -> str:
        """The JSON ``type`` of an action of class ``cls`` in this log."""
        for name, c in self.types.items():
            if c is cls:
                return name
        raise InvalidInput(f"not a {self.what} action: {cls.__name__}")

    def fields_json(self, action: Any) -> dict[str, Any]:
        """The action's own fields as this log writes them (no ``v``, no ``type``)."""
        writer = self.writers.get(type(action))
        if writer is not None:
            return writer(action)
        return write_fields(
            action, self.codecs, skip_none=self.skip_none, first=self.first, ignored=self.ignored
        )

    def read_fields(self, cls: type, data: Mapping[str, Any]) -> dict[str, Any]:
        """The keyword arguments of ``cls`` from its JSON object, as this log reads them."""
        return read_fields(cls, data, self.codecs, self.required, self.ignored)


def action_class(data: object, vocabulary: Vocabulary) -> type:
    """The class of the action ``data`` names by its ``"type"``, its fields not read yet (so a
    server authorises a request before it reads its body); InvalidInput for no action."""
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise InvalidInput(
            f"a {vocabulary.what} action is an object with a 'type' such as 'pass', got {data!r}"
        )
    cls = vocabulary.types.get(data["type"])
    if cls is None:
        raise InvalidInput(f"unknown {vocabulary.what} action type {data['type']!r}")
    return cls


def action_from_json(data: Any, vocabulary: Vocabulary) -> Any:
    """The typed action of the JSON object ``data`` in the log ``vocabulary``; InvalidInput if
    it is none (no object, another version, an unknown type, a field missing or unreadable).
    Keys the action does not have are ignored, as older logs wrote some."""
    v = vocabulary
    versioned = v.version is not None and isinstance(data, Mapping)
    if versioned and data.get("v", v.version_default) != v.version:
        raise InvalidInput(
            f"unsupported {v.what} action version {data.get('v')!r} (expected {v.version})"
        )
    cls = action_class(data, v)
    reader = v.readers.get(cls)
    try:
        return reader(data) if reader is not None else cls(**v.read_fields(cls, data))
    except InvalidInput:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"malformed {v.what} {data['type']!r} action: {exc}") from None


def action_to_json(action: Any, vocabulary: Vocabulary) -> dict[str, Any]:
    """The JSON object of ``action`` in the log ``vocabulary``: ``"v"`` (where the log's
    entries carry it), the ``"type"``, then the fields."""
    head: dict[str, Any] = {} if vocabulary.version is None else {"v": vocabulary.version}
    head["type"] = vocabulary.name_of(type(action))
    return head | vocabulary.fields_json(action)
