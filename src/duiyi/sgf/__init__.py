"""One SGF (FF[4]) layer for both games, with no game rules inside.

Layers, in the manner of sgfmill:

1. :mod:`duiyi.sgf.tokenizer`: text → tokens in linear time and memory (values found with
   ``str.find``, never a backtracking regular expression), with line and column for any offset.
2. :mod:`duiyi.sgf.tree`: tokens → :class:`SgfCollection` of game trees of :class:`SgfNode`
   (raw values, variations kept); warnings as data (:class:`SgfWarning` with line and column);
   :func:`serialise` writes a tree back.
3. :mod:`duiyi.sgf.values`: raw values → Python values (Text, SimpleText, Number, Real,
   Compose), bounded so that hostile files raise :class:`~duiyi.errors.SgfError` only.

4. :mod:`duiyi.sgf.game`: :class:`SgfGame`, the one shape of a game read from SGF (root,
   main-line nodes, warnings, collection, players, the file written back).

Go (:mod:`duiyi.go.sgf`) and Gomoku (:mod:`duiyi.gomoku.notation`) read their games from these
trees into subclasses of :class:`SgfGame` (``GoSgfGame``, ``GomokuSgfGame``); each game knows
its own coordinates and properties.

>>> root = parse("(;GM[4]SZ[15]C[a \\\\] b];B[hh])").games[0]
>>> root.text("C"), root.children[0].get("B")
('a ] b', 'hh')
"""

from __future__ import annotations

from duiyi.sgf.game import SgfGame
from duiyi.sgf.tokenizer import LineIndex, Token, decode_bytes, tokenize
from duiyi.sgf.tree import SgfCollection, SgfNode, SgfWarning, parse, serialise
from duiyi.sgf.values import (
    MAX_NUMBER_CHARS,
    decode_number,
    decode_real,
    decode_simpletext,
    decode_text,
    encode_text,
    escape,
    format_decimal,
    split_compose,
)

__all__ = [
    "MAX_NUMBER_CHARS",
    "LineIndex",
    "SgfCollection",
    "SgfGame",
    "SgfNode",
    "SgfWarning",
    "Token",
    "decode_bytes",
    "decode_number",
    "decode_real",
    "decode_simpletext",
    "decode_text",
    "encode_text",
    "escape",
    "format_decimal",
    "parse",
    "serialise",
    "split_compose",
    "tokenize",
]
