"""SGF layer 1b: the game tree. Tokens → :class:`SgfCollection` of :class:`SgfNode` trees with raw
values (escapes kept), variations kept, warnings as data (:class:`SgfWarning`, with line and
column); and the way back (:func:`serialise`). No game rules here.

>>> coll = parse("(;GM[1]SZ[9]KM[7.5];B[ee];W[cc](;B[gg])(;B[gc]))")
>>> root = coll.games[0]
>>> root.get("SZ"), len(root.main_line())
('9', 4)
>>> [child.get("B") for child in root.main_line()[2].children]
['gg', 'gc']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from duiyi.errors import SgfError
from duiyi.sgf.tokenizer import _COMMON, LineIndex, decode_bytes, scan
from duiyi.sgf.values import decode_simpletext, decode_text, escape

__all__ = ["MAX_WARNINGS", "SgfCollection", "SgfNode", "SgfWarning", "parse", "serialise"]


#: At most this many warnings are kept per file; the rest are counted in one last warning.
MAX_WARNINGS = 100


class SgfWarning(str):
    """A reader's warning: the text ``"line L, column C: message"`` (a ``str``, so it prints
    and compares as text), with ``line``, ``column`` and ``message`` as data.

    >>> w = SgfWarning.at(3, 7, "text after a game tree ignored")
    >>> w, w.line, w.column, w.message
    ('line 3, column 7: text after a game tree ignored', 3, 7, 'text after a game tree ignored')
    """

    line: int | None
    column: int | None
    message: str

    @classmethod
    def at(cls, line: int | None, column: int | None, message: str) -> SgfWarning:
        """A warning at ``line``/``column`` (None: no position)."""
        text = message if line is None else f"line {line}, column {column}: {message}"
        w = cls(text)
        w.line, w.column, w.message = line, column, message
        return w


class SgfNode:
    """One SGF node: properties with raw values (escapes kept), children, parent, position.

    Property identifiers map to lists of raw values in the order written. ``get``/``set`` work
    on single values, ``values``/``set_values`` on lists.

    >>> node = SgfNode()
    >>> node.set("C", "a ] bracket")
    >>> node.properties["C"], node.get("C")
    (['a \\\\] bracket'], 'a \\\\] bracket')
    >>> node.text("C")
    'a ] bracket'
    """

    __slots__ = ("_index", "_offset", "children", "parent", "properties")

    def __init__(
        self,
        properties: dict[str, list[str]] | None = None,
        parent: SgfNode | None = None,
    ) -> None:
        self.properties: dict[str, list[str]] = properties if properties is not None else {}
        self.children: list[SgfNode] = []
        self.parent = parent
        self._offset = -1
        self._index: LineIndex | None = None
        if parent is not None:
            parent.children.append(self)

    # -- position --------------------------------------------------------------------------

    @property
    def line(self) -> int | None:
        """1-based line of the node's ``;`` in the parsed text (None for built nodes)."""
        if self._index is None:
            return None
        return self._index.where(self._offset)[0]

    @property
    def column(self) -> int | None:
        """1-based column of the node's ``;`` in the parsed text (None for built nodes)."""
        if self._index is None:
            return None
        return self._index.where(self._offset)[1]

    # -- properties ------------------------------------------------------------------------

    def __contains__(self, ident: object) -> bool:
        return ident in self.properties

    def get(self, ident: str, default: str | None = None) -> str | None:
        """The first raw value of ``ident``, or ``default``.

        >>> parse("(;KM[6.5])").games[0].get("KM")
        '6.5'
        """
        values = self.properties.get(ident)
        return values[0] if values else default

    def values(self, ident: str) -> list[str]:
        """All raw values of ``ident`` (an empty list when absent).

        >>> parse("(;AB[aa][bb])").games[0].values("AB")
        ['aa', 'bb']
        """
        return list(self.properties.get(ident, ()))

    def text(self, ident: str) -> str | None:
        """The value of a Text property, unescaped (see :func:`decode_text`)."""
        raw = self.get(ident)
        return None if raw is None else decode_text(raw)

    def simpletext(self, ident: str) -> str | None:
        """The value of a SimpleText property, unescaped, newlines folded to spaces."""
        raw = self.get(ident)
        return None if raw is None else decode_simpletext(raw)

    def set(self, ident: str, value: str, *, raw: bool = False) -> None:
        """Set one value; plain text is escaped unless ``raw`` is true.

        >>> n = SgfNode(); n.set("PB", "Ke Jie"); n.get("PB")
        'Ke Jie'
        """
        self.properties[_check_ident(ident)] = [value if raw else escape(value)]

    def set_values(self, ident: str, values: Iterable[str]) -> None:
        """Set a list of raw values (no escaping); an empty list removes the property."""
        vals = list(values)
        if vals:
            self.properties[_check_ident(ident)] = vals
        else:
            self.properties.pop(ident, None)

    def delete(self, ident: str) -> None:
        """Remove a property if present."""
        self.properties.pop(ident, None)

    # -- tree ------------------------------------------------------------------------------

    def add_child(self, properties: dict[str, list[str]] | None = None) -> SgfNode:
        """Append and return a new child node.

        >>> root = SgfNode(); child = root.add_child({"B": ["dd"]}); child.parent is root
        True
        """
        return SgfNode(properties, parent=self)

    def main_line(self) -> list[SgfNode]:
        """This node and the chain of first children below it.

        >>> [n.get("B") for n in parse("(;;B[aa](;B[bb])(;B[cc]))").games[0].main_line()]
        [None, 'aa', 'bb']
        """
        out = [self]
        node = self
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def walk(self) -> Iterator[SgfNode]:
        """Every node of the subtree, depth first, main line first.

        >>> sum(1 for _ in parse("(;;B[aa](;B[bb])(;B[cc];W[dd]))").games[0].walk())
        5
        """
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def root(self) -> SgfNode:
        """The root of the game tree this node belongs to."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def __repr__(self) -> str:
        props = "".join(f"{k}" + "".join(f"[{v}]" for v in vs) for k, vs in self.properties.items())
        return f"<SgfNode ;{props[:60]} children={len(self.children)}>"


@dataclass
class SgfCollection:
    """The game trees of one SGF file, plus the reader's warnings.

    >>> c = parse("(;GM[1])(;GM[1])")
    >>> len(c.games), c.warnings
    (2, [])
    """

    games: list[SgfNode] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def __iter__(self) -> Iterator[SgfNode]:
        return iter(self.games)

    def __len__(self) -> int:
        return len(self.games)

    def to_sgf(self) -> str:
        """Serialise the whole collection (see :func:`serialise`)."""
        return serialise(self)


_IDENT_RE = re.compile(r"[A-Z]+\Z")

# The common node, one property with one plain value (";B[pd]"): a single character class
# repeated, which the regular expression engine matches without growing state.
_FAST_NODE = re.compile(r"[ \t\r\n]*(;)[ \t\r\n]*([A-Z]{1,2})\[([^\\\]]*)\](?=[ \t\r\n]*[;()])")


def _check_ident(ident: str) -> str:
    if not _IDENT_RE.match(ident):
        raise SgfError(f"not an SGF property identifier: {ident!r} (upper-case letters only)")
    return ident


def parse(text: str | bytes) -> SgfCollection:
    """Read SGF text into a collection of game trees (the grammar layer; no Go rules applied).

    Raises :class:`~duiyi.errors.SgfError` with line and column for what cannot be read;
    collects recoverable oddities in ``warnings``.

    >>> c = parse("(;FF[4]C[a \\\\] b];B[aa])")
    >>> c.games[0].text("C")
    'a ] b'
    >>> parse("(;B[aa]")
    Traceback (most recent call last):
    ...
    duiyi.errors.SgfError: line 1, column 1: game tree opened here is never closed
    >>> parse("(;B[aa];W[bb)")
    Traceback (most recent call last):
    ...
    duiyi.errors.SgfError: line 1, column 10: property value opened here is never closed
    """
    if isinstance(text, bytes):
        text = decode_bytes(text)
    if text.startswith("\ufeff"):  # a UTF-8 byte-order mark is not junk
        text = text[1:]
    index = LineIndex(text)
    warnings: list[str] = []
    games: list[SgfNode] = []

    def fail(message: str, offset: int) -> SgfError:
        line, col = index.where(offset)
        return SgfError(message, line=line, column=col)

    omitted = 0

    def warn(message: str, offset: int) -> None:
        nonlocal omitted
        if len(warnings) >= MAX_WARNINGS:  # a hostile file may repeat one oddity a million times
            omitted += 1
            return
        line, col = index.where(offset)
        warnings.append(SgfWarning.at(line, col, message))

    start = text.find("(")
    while start >= 0:
        after = text[start + 1 : start + 40].lstrip()
        if after.startswith(";"):
            break
        start = text.find("(", start + 1)
    if start < 0:
        if text.strip():
            raise fail("no game tree found (expected '(;')", 0)
        raise SgfError("empty SGF text: no game tree found", line=1, column=1)
    if text[:start].strip():
        warn("text before the first game tree ignored", 0)

    pos = start
    end = len(text)
    # Each open tree: (offset of its '(', node the tree hangs from, last node of its sequence)
    opens: list[int] = []
    parents: list[SgfNode | None] = []
    current: SgfNode | None = None  # last node of the sequence being read
    seq_closed = False  # a subtree of the current sequence was closed: no more nodes allowed
    node_props: dict[str, list[str]] | None = None
    last_ident: str | None = None
    last_ident_off = 0

    fast = _FAST_NODE.match
    common = _COMMON.match
    while pos < end:
        if current is not None and not seq_closed and last_ident is None:
            # Fast path for the common node: one property, one plain value (";B[pd]").
            f = fast(text, pos)
            if f is not None:
                node = SgfNode({f.group(2): [f.group(3)]}, parent=current)
                node._offset = f.start(1)
                node._index = index
                node_props = node.properties
                current = node
                pos = f.end()
                continue
        c = common(text, pos)
        if c is not None and node_props is not None:  # the usual tokens, without token objects
            k = c.lastindex
            if k == 3 and last_ident:
                node_props[last_ident].append(c.group(3))
                pos = c.end()
                continue
            if k == 2 and (last_ident is None or node_props[last_ident]):
                ident = c.group(2)
                if ident.isupper() and ident not in node_props:
                    node_props[ident] = []
                    last_ident = ident
                    last_ident_off = c.start(2)
                    pos = c.end()
                    continue
        m = scan(text, pos)
        if m is None:  # only trailing whitespace left
            break
        kind = m.kind
        tok_off = m.offset
        pos = m.end
        if kind == "value":
            if node_props is None or last_ident is None:
                raise fail("property value without a property identifier", tok_off)
            node_props[last_ident].append(m.text)
            continue
        if kind == "other":
            ch = m.text
            if ch == "[":
                raise fail("property value opened here is never closed", tok_off)
            if ch == "]":
                raise fail("unexpected ']' (no property value open)", tok_off)
            raise fail(f"unexpected character {ch!r}", tok_off)
        if last_ident is not None and node_props is not None and not node_props[last_ident]:
            raise fail(f"property {last_ident} has no value", last_ident_off)
        if kind == "ident":
            if node_props is None:
                raise fail(f"property {m.text} outside a node (missing ';')", tok_off)
            ident = m.text
            if not ident.isupper():
                upper = "".join(ch for ch in ident if ch.isupper())
                if not upper:
                    raise fail(f"property identifier {ident!r} has no upper-case letter", tok_off)
                warn(f"FF[3]-style property name {ident!r} read as {upper!r}", tok_off)
                ident = upper
            if ident in node_props:
                warn(f"property {ident} repeated in one node; values merged", tok_off)
            else:
                node_props[ident] = []
            last_ident = ident
            last_ident_off = tok_off
            continue
        last_ident = None
        if kind == "punct":
            ch = m.text
            if ch == ";":
                if not opens:
                    raise fail("node outside a game tree", tok_off)
                if seq_closed:
                    raise fail("node after a variation (nodes must come before subtrees)", tok_off)
                node = SgfNode(None, parent=current if current is not None else parents[-1])
                node._offset = tok_off
                node._index = index
                node_props = node.properties
                if current is None and parents[-1] is None:
                    games.append(node)
                current = node
            elif ch == "(":
                if not opens:
                    parents.append(None)
                    opens.append(tok_off)
                    current = None
                    seq_closed = False
                else:
                    if current is None:
                        raise fail("game tree without a node (expected ';' after '(')", tok_off)
                    parents.append(current)
                    opens.append(tok_off)
                    current = None
                    seq_closed = False
                node_props = None
                nxt = scan(text, pos)
                if nxt is None or nxt.text != ";" or nxt.kind != "punct":
                    off = nxt.offset if nxt is not None else end
                    raise fail("game tree without a node (expected ';' after '(')", off)
            else:  # ")"
                if not opens:
                    raise fail("unexpected ')' outside a game tree", tok_off)
                opens.pop()
                parent = parents.pop()
                node_props = None
                current = parent
                seq_closed = True
                if not opens:
                    # End of a top-level tree: skip to the next '(' (tolerating junk between).
                    nxt = scan(text, pos)
                    if nxt is not None and (nxt.kind != "punct" or nxt.text != "("):
                        rest = text[pos:]
                        k = rest.find("(;")
                        junk_end = pos + k if k >= 0 else end
                        if text[pos:junk_end].strip():
                            warn("text after a game tree ignored", nxt.offset)
                        pos = junk_end
                    current = None
                    seq_closed = False
    if last_ident is not None and node_props is not None and not node_props[last_ident]:
        raise fail(f"property {last_ident} has no value", last_ident_off)
    if opens:
        raise fail("game tree opened here is never closed", opens[-1])
    if not games:
        raise SgfError("no game tree found", line=1, column=1)
    if omitted:
        warnings.append(SgfWarning.at(None, None, f"{omitted} more warnings omitted"))
    return SgfCollection(games, warnings)


# Root properties written first, in this order, when serialising.
_ROOT_ORDER = ("GM", "FF", "CA", "AP", "SZ", "RU", "KM", "HA", "TM", "OT", "PB", "BR", "PW", "WR")


def _node_text(node: SgfNode, first: bool) -> list[str]:
    props = node.properties
    keys: list[str] = []
    if first:
        keys = [k for k in _ROOT_ORDER if k in props]
        keys += [k for k in props if k not in _ROOT_ORDER]
    else:
        keys = list(props)
    pieces: list[str] = []
    for k in keys:
        values = props[k]
        if len(values) <= 4:
            pieces.append(k + "".join(f"[{v}]" for v in values))
        else:  # long lists (AB, TB, ...) may break between values
            pieces.append(f"{k}[{values[0]}]")
            pieces.extend(f"[{v}]" for v in values[1:])
    return pieces


def serialise(collection: SgfCollection | SgfNode, *, wrap: int = 79) -> str:
    """Write a collection (or one game tree) as SGF text; values are written as stored (raw).

    Lines are broken between properties and nodes, never inside a value, so that a line is at
    most ``wrap`` characters unless one property is longer. Root properties come in a fixed
    conventional order; the output ends with a newline.

    >>> serialise(parse("(;SZ[9]GM[1];B[ee](;W[cc])(;W[gg]))"))
    '(;GM[1]SZ[9]\\n;B[ee]\\n(;W[cc])\\n(;W[gg]))\\n'
    """
    trees = collection.games if isinstance(collection, SgfCollection) else [collection]
    out: list[str] = []
    for tree in trees:
        out.append(_serialise_tree(tree, wrap))
    return "\n".join(out) + "\n"


_BREAK = "\n"


def _serialise_tree(root: SgfNode, wrap: int) -> str:
    tokens: list[str] = ["("]
    stack: list[SgfNode | str] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            tokens.append(item)
            continue
        node: SgfNode = item
        while True:
            pieces = _node_text(node, node is root)
            tokens.append(";" + (pieces[0] if pieces else ""))
            tokens.extend(pieces[1:])
            if node is root and node.children:
                tokens.append(_BREAK)
            if len(node.children) != 1:
                break
            node = node.children[0]
        for child in reversed(node.children):
            stack.append(")")
            stack.append(child)
            stack.append("(")
            stack.append(_BREAK)
    tokens.append(")")
    lines: list[str] = []
    line: list[str] = []
    width = 0
    for tok in tokens:
        if tok == _BREAK or (line and width + len(tok) > wrap and tok != ")"):
            if line:
                lines.append("".join(line))
            line = []
            width = 0
            if tok == _BREAK:
                continue
        line.append(tok)
        width += len(tok)
    if line:
        lines.append("".join(line))
    return "\n".join(lines)
