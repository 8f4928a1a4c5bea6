"""SGF layer 2: property values, raw text ↔ Python values, for any game.

Numbers and reals are bounded in length (:data:`MAX_NUMBER_CHARS`): a 5,000-digit ``SZ`` or ``KM``
is refused with :class:`~duiyi.errors.SgfError` instead of crashing Python's ``int``.
"""

from __future__ import annotations

import re
from fractions import Fraction

from duiyi.errors import SgfError

__all__ = [
    "MAX_NUMBER_CHARS",
    "decode_number",
    "decode_real",
    "decode_simpletext",
    "decode_text",
    "encode_text",
    "escape",
    "format_decimal",
    "split_compose",
]

#: The longest Number or Real accepted, in characters (spaces around not counted).
MAX_NUMBER_CHARS = 30


_ESCAPE = re.compile(r"\\(\r\n|\n\r|\r|\n|.)", re.S)


def _unescape(m: re.Match[str]) -> str:
    ch = m.group(1)
    return "" if ch[0] in "\r\n" else ch


_OTHER_WS = re.compile(r"[\t\v\f]")


def decode_text(raw: str) -> str:
    """Decode an SGF Text value: soft line breaks removed, escapes resolved, newlines kept.

    Whitespace other than line breaks becomes a space (FF[4] Text).

    >>> decode_text("a\\\\]b\\\\\\\\c\\\\\\nd\\te")
    'a]b\\\\cd e'
    """
    if "\\" in raw:
        # One pass, left to right: "\\" + line break is a soft break (removed), "\\" + any
        # other character is that character; so an escaped backslash before a newline stays.
        raw = _ESCAPE.sub(_unescape, raw)
    raw = raw.replace("\r\n", "\n").replace("\n\r", "\n").replace("\r", "\n")
    return _OTHER_WS.sub(" ", raw)


def decode_simpletext(raw: str) -> str:
    """Decode an SGF SimpleText value: like Text, but line breaks become spaces.

    >>> decode_simpletext("Lee\\nSedol")
    'Lee Sedol'
    """
    return decode_text(raw).replace("\n", " ")


def escape(text: str) -> str:
    """Escape ``\\`` and ``]`` for an SGF value.

    >>> escape("a]b\\\\")
    'a\\\\]b\\\\\\\\'
    """
    return text.replace("\\", "\\\\").replace("]", "\\]")


def encode_text(text: str) -> str:
    """Encode a Python string as an SGF Text value (same as :func:`escape`)."""
    return escape(text)


def split_compose(raw: str) -> tuple[str, str | None]:
    """Split a Compose value at its first unescaped ``:`` (``None`` second part if none).

    >>> split_compose("CGoban:3")
    ('CGoban', '3')
    >>> split_compose("a\\\\:b")
    ('a\\\\:b', None)
    """
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if ch == "\\":
            i += 2
            continue
        if ch == ":":
            return raw[:i], raw[i + 1 :]
        i += 1
    return raw, None


_NUMBER = re.compile(r"\s*[+-]?\d+\s*\Z")
_REAL = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*\Z")


def decode_number(raw: str) -> int:
    """Decode an SGF Number.

    >>> decode_number(" 19 ")
    19
    >>> decode_number("x")
    Traceback (most recent call last):
    ...
    duiyi.errors.SgfError: not an SGF number: 'x'
    """
    if len(raw.strip()) > MAX_NUMBER_CHARS:
        raise SgfError(f"SGF number too long: {_short(raw)}")
    if not _NUMBER.match(raw):
        raise SgfError(f"not an SGF number: {_short(raw)}")
    return int(raw)


def decode_real(raw: str) -> Fraction:
    """Decode an SGF Real exactly (as a Fraction; a comma decimal mark is accepted).

    >>> decode_real("6.5")
    Fraction(13, 2)
    """
    text = raw.strip().replace(",", ".")
    if len(text) > MAX_NUMBER_CHARS:
        raise SgfError(f"SGF real number too long: {_short(raw)}")
    if not _REAL.match(text):
        raise SgfError(f"not an SGF real number: {_short(raw)}")
    return Fraction(text)


def _short(raw: str) -> str:
    if len(raw) <= 40:
        return repr(raw)
    return f"{raw[:20]!r}… ({len(raw)} characters, at most {MAX_NUMBER_CHARS})"


def format_decimal(value: Fraction) -> str:
    """Exact decimal text of a number: halves and quarters in full, other fractions to six
    decimals; never an exponent (``1e+20``).

    >>> format_decimal(Fraction(15, 2)), format_decimal(Fraction(-3, 4))
    ('7.5', '-0.75')
    >>> format_decimal(Fraction(10**20 * 2 + 1, 2))
    '100000000000000000000.5'
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    digits = ""
    while rest and len(digits) < 6:
        d, rest = divmod(rest * 10, value.denominator)
        digits += str(d)
    return f"{sign}{whole}.{digits}" if digits else f"{sign}{whole}"
