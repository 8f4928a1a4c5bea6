"""SGF layer 1a: the tokenizer. Text in, tokens out, in linear time and linear memory.

A property value is found by looking for the next ``]`` that is not escaped (an odd number of
backslashes before it means escaped), with ``str.find``: no regular expression with a repeated
alternation, whose backtracking state grows with the value (a 20 MB comment used to take 4 GB).

>>> [(t.kind, t.text) for t in tokenize("(;C[a\\\\]b]B[aa])")][2:4]
[('ident', 'C'), ('value', 'a\\\\]b')]
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import NamedTuple

__all__ = ["LineIndex", "Token", "decode_bytes", "scan", "tokenize", "value_end"]

_WS = re.compile(r"[ \t\r\n\f\v]*")
_IDENT = re.compile(r"[A-Za-z]+")


class Token(NamedTuple):
    """One token: ``kind`` is ``punct`` (``(``, ``)``, ``;``), ``ident``, ``value`` (the raw
    text between the brackets, escapes kept) or ``other`` (a character that cannot start a
    token, or a ``[`` never closed); ``offset`` is where it starts, ``end`` just after it."""

    kind: str
    text: str
    offset: int
    end: int


def value_end(text: str, start: int) -> int:
    r"""The offset of the ``]`` closing the value opened at ``text[start] == "["`` (-1: none).

    >>> value_end(r"[a\]b]", 0), value_end(r"[a\\]b]", 0), value_end("[ab", 0)
    (5, 4, -1)
    """
    find = text.find
    i = start + 1
    while True:
        j = find("]", i)
        if j < 0:
            return -1
        k = j - 1
        while k > start and text[k] == "\\":
            k -= 1
        if (j - 1 - k) % 2 == 0:
            return j
        i = j + 1


# The common tokens in one match: punctuation, an identifier, or a value without a backslash.
# Each repeat is of a single character class, which the regular expression engine runs without
# keeping state per character; values with escapes go to value_end().
_COMMON = re.compile(r"[ \t\r\n\f\v]*(?:([();])|([A-Za-z]+)|\[([^\\\]]*)\])")


def scan(text: str, pos: int) -> Token | None:
    """The token at or after ``pos`` (whitespace skipped), or None at the end of the text."""
    c = _COMMON.match(text, pos)
    if c is not None:
        k = c.lastindex
        if k == 1:
            return Token("punct", c.group(1), c.start(1), c.end())
        if k == 2:
            return Token("ident", c.group(2), c.start(2), c.end())
        return Token("value", c.group(3), c.start(3) - 1, c.end())
    m = _WS.match(text, pos)
    pos = m.end() if m is not None else pos
    if pos >= len(text):
        return None
    ch = text[pos]
    if ch in "();":
        return Token("punct", ch, pos, pos + 1)
    if ch == "[":
        end = value_end(text, pos)
        if end < 0:
            return Token("other", ch, pos, pos + 1)
        return Token("value", text[pos + 1 : end], pos, end + 1)
    m = _IDENT.match(text, pos)
    if m is not None:
        return Token("ident", m.group(), pos, m.end())
    return Token("other", ch, pos, pos + 1)


def tokenize(text: str) -> Iterator[Token]:
    """All tokens of ``text`` in order."""
    pos = 0
    while True:
        tok = scan(text, pos)
        if tok is None:
            return
        yield tok
        pos = tok.end


class LineIndex:
    """Turns character offsets of one text into 1-based (line, column) pairs, on demand."""

    __slots__ = ("_starts",)

    def __init__(self, text: str) -> None:
        starts = [0]
        find = text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self._starts = starts

    def where(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


def decode_bytes(data: bytes) -> str:
    """Decode SGF bytes: UTF-8 first, then the CA[] charset if named, then Latin-1."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    m = re.search(rb"CA\[([^\]]*)\]", data)
    if m:
        try:
            return data.decode(m.group(1).decode("ascii").strip())
        except (LookupError, UnicodeDecodeError):
            pass
    return data.decode("latin-1")
