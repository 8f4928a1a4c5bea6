"""Gomoku notations and files: move lists, record sheets (Gomoku §7), SGF GM[4], Piskvork .psq.

Coordinates in the book's form (``h8``) everywhere except inside this module's SGF and .psq
readers and writers:

* **SGF** (FF[4], GM[4], SZ[15]): the first letter is the column (``a`` = column a), the second
  letter counts rows *from the top*, so SGF row letter ``a`` is row 15 and ``o`` is row 1:
  ``h8`` is ``hh``, ``a1`` is ``ao``, ``o15`` is ``oa``. A pass is an empty value ``B[]``.
* **.psq** (Piskvork): a header ``Piskvorky 15x15, ...`` then one ``x,y[,ms]`` line per move,
  1-based, ``y`` counting from the top as Piskvork draws the board, then trailer lines.

>>> sgf_point("h8"), sgf_point("a1"), str(point_from_sgf("oa"))
('hh', 'ao', 'o15')
>>> format_moves(parse_moves("h8 h9 pass j10"))
'h8 h9 pass j10'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from duiyi import Color
from duiyi.errors import NotationError, SgfError
from duiyi.gomoku.board import Board, parse_move_list
from duiyi.gomoku.game import Game
from duiyi.gomoku.openings import recognise
from duiyi.gomoku.point import COLUMN_LETTERS, SIZE, Point
from duiyi.gomoku.rules import RenjuRules
from duiyi.outcome import Result, Termination
from duiyi.sgf import SgfGame, SgfWarning, decode_text, escape
from duiyi.sgf import parse as sgf_parse

__all__ = [
    "GomokuSgfGame",
    "PsqRecord",
    "black_number",
    "format_moves",
    "game_from_moves",
    "game_from_psq",
    "game_from_sgf",
    "game_to_sgf",
    "parse_moves",
    "parse_psq",
    "parse_record_sheet",
    "parse_sgf",
    "point_from_sgf",
    "read_game",
    "record_sheet",
    "sgf_point",
]


# -- move lists ----------------------------------------------------------------------------------
def parse_moves(text: str) -> list[Point | None]:
    """A move list such as ``"h8 h9 j10"`` (``pass`` for a pass); Black plays the first.

    >>> parse_moves("h8, i9")
    [Point.parse('h8'), Point.parse('i9')]
    """
    return parse_move_list(text)


def format_moves(moves: Iterable[Point | None]) -> str:
    """The inverse of :func:`parse_moves`."""
    return " ".join(str(m) if m is not None else "pass" for m in moves)


# -- record sheets (Gomoku §7.2) ----------------------------------------------------------------
def black_number(n: int) -> str:
    """Black's move numbers are written circled (Gomoku §7.2): ①, ③, ... ㊿; past 50, ``(51)``.

    >>> black_number(1), black_number(21), black_number(49), black_number(51)
    ('①', '㉑', '㊾', '(51)')
    """
    if 1 <= n <= 20:
        return chr(0x2460 + n - 1)
    if 21 <= n <= 35:
        return chr(0x3251 + n - 21)
    if 36 <= n <= 50:
        return chr(0x32B1 + n - 36)
    return f"({n})"


_CIRCLED = {black_number(n): n for n in range(1, 51)}


def record_sheet(moves: Sequence[Point | None], *, swap_after: int | None = None) -> str:
    """A record sheet in the book's algebraic form: one round a line, Black's odd numbers
    circled, White's even numbers plain (Gomoku §7.2).

    >>> print(record_sheet(parse_moves("h8 h9 j10 i9 pass")))
    ① h8     2 h9
    ③ j10    4 i9
    ⑤ pass
    """
    lines = []
    for i in range(0, len(moves), 2):
        b = moves[i]
        left = f"{black_number(i + 1)} {b if b is not None else 'pass'}"
        row = f"{left:<8} "
        if i + 1 < len(moves):
            w = moves[i + 1]
            row += f"{i + 2} {w if w is not None else 'pass'}"
        if swap_after is not None and i + 1 <= swap_after <= i + 2:
            row += f"    (swap after move {swap_after})"
        lines.append(row.rstrip())
    return "\n".join(lines)


_SHEET_TOKEN = re.compile(
    r"(?P<num>\(\d+\)|\d+|[①-⑳㉑-㉟㊱-㊿])\s*[.:)]?\s*(?P<move>pass|[a-oA-O](?:1[0-5]|[1-9]))"
)


def parse_record_sheet(text: str) -> list[Point | None]:
    """Read a record sheet (numbers then moves: ``① h8 2 h9``, ``1. h8 2. h9``, ...); the
    numbers must run 1, 2, 3, ... (Gomoku §7.2).

    >>> parse_record_sheet("① h8   2 h9\\n③ j10  4. i9")
    [Point.parse('h8'), Point.parse('h9'), Point.parse('j10'), Point.parse('i9')]
    """
    moves: list[Point | None] = []
    for m in _SHEET_TOKEN.finditer(text):
        raw = m.group("num")
        n = _CIRCLED[raw] if raw in _CIRCLED else int(raw.strip("()"))
        if n != len(moves) + 1:
            raise NotationError(
                f"record sheet: move {n} where move {len(moves) + 1} was expected", "Gomoku §7.2"
            )
        mv = m.group("move")
        moves.append(None if mv.lower() == "pass" else Point.parse(mv))
    if not moves:
        raise NotationError("no numbered moves in the record sheet", "Gomoku §7.2")
    return moves


def game_from_moves(moves: Sequence[Point | None], rules: RenjuRules | None = None) -> Game:
    """Replay moves; without ``rules``: the book's designated rules when the first three
    stones are one of the 26 openings, else a free opening with forbidden moves.

    >>> game_from_moves(parse_moves("h8 h9 j10")).opening.opening.chinese
    '疏星'
    """
    if rules is None:
        first = [m for m in moves[:3] if m is not None]
        if len(first) == 3 and recognise(*first) is not None:
            rules = RenjuRules.chinese_2013()
        else:
            rules = RenjuRules.free_renju()
    return Game.from_moves(list(moves), rules)


# -- SGF -----------------------------------------------------------------------------------
def sgf_point(point: str | Point) -> str:
    """The SGF value of a point (row letter ``a`` is row 15, the top).

    >>> sgf_point("o1")
    'oo'
    """
    p = Point.parse(point)
    return COLUMN_LETTERS[p.col] + COLUMN_LETTERS[SIZE - 1 - p.row]


def point_from_sgf(value: str) -> Point | None:
    """The point of an SGF value; ``""`` (and the old ``tt``) is a pass.

    >>> point_from_sgf("ao"), point_from_sgf("")
    (Point.parse('a1'), None)
    """
    v = value.strip().lower()
    if v in ("", "tt"):
        return None
    if len(v) != 2 or v[0] not in COLUMN_LETTERS or v[1] not in COLUMN_LETTERS:
        raise NotationError(f"not an SGF point of the 15×15 board: {value!r}")
    return Point(COLUMN_LETTERS.index(v[0]), SIZE - 1 - COLUMN_LETTERS.index(v[1]))


@dataclass
class GomokuSgfGame(SgfGame):
    """A Gomoku/Renju game read from SGF: the shared shape (:class:`duiyi.sgf.SgfGame`: root
    node, main-line nodes, warnings, collection, players, :meth:`to_sgf`) plus the moves of the
    main line (colour, point or pass), their comments and the root's setup stones.

    >>> g = parse_sgf("(;GM[4]PB[甲]RE[B+];B[hh])")
    >>> g.player(Color.BLACK), g.root.get("RE"), len(g.moves)
    ('甲', 'B+', 1)
    """

    moves: list[tuple[Color, Point | None]] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)  # move number → comment
    setup: list[tuple[Color, Point]] = field(default_factory=list)  # AB/AW stones of the root

    def board(self) -> Board:
        """The final position: setup stones, then the moves (no rules checked but occupancy).

        >>> str(parse_sgf("(;GM[4]AB[hh][ii]AW[hg];W[jj])").board()["j6"])
        'white'
        """
        b = Board()
        for colour, p in self.setup:
            b.place(p, colour)
        for colour, mp in self.moves:
            if mp is not None:
                b.place(mp, colour)
        return b


def parse_sgf(text: str) -> GomokuSgfGame:
    """Read the main line of an SGF Gomoku/Renju game (GM[4], SZ[15]).

    >>> g = parse_sgf("(;GM[4]FF[4]SZ[15];B[hh];W[hg]C[close];B[])")
    >>> [(c.letter, str(p) if p else None) for c, p in g.moves], g.comments
    ([('B', 'h8'), ('W', 'h9'), ('B', None)], {2: 'close'})
    """
    # the grammar is the shared one of duiyi.sgf (linear memory, line and column in every
    # error); this module only knows Renju's coordinates and properties
    collection = sgf_parse(text)
    root_node = collection.games[0]
    main = root_node.main_line()
    nodes = [
        {ident: [decode_text(v) for v in values] for ident, values in node.properties.items()}
        for node in main
    ]
    root = nodes[0]
    gm = root.get("GM", ["4"])[0].strip()
    if gm not in ("4", ""):
        raise SgfError(f"GM[{gm}] is not Gomoku/Renju (GM[4])")
    sz = root.get("SZ", ["15"])[0].strip()
    if sz not in ("15", "15:15"):
        raise SgfError(f"SZ[{sz}]: the Renju board is 15×15 (Gomoku §1)")
    moves: list[tuple[Color, Point | None]] = []
    comments: dict[int, str] = {}
    setup: list[tuple[Color, Point]] = []
    for key, colour in (("AB", Color.BLACK), ("AW", Color.WHITE)):
        for value in root.get(key, []):
            sp = point_from_sgf(value)
            if sp is not None:
                setup.append((colour, sp))
    for node in nodes[1:]:
        for key, colour in (("B", Color.BLACK), ("W", Color.WHITE)):
            if key in node:
                moves.append((colour, point_from_sgf(node[key][0])))
                if "C" in node:
                    comments[len(moves)] = node["C"][0]
    warnings = [
        w if isinstance(w, SgfWarning) else SgfWarning.at(None, None, w)
        for w in collection.warnings
    ]
    return GomokuSgfGame(root_node, main, warnings, collection, moves, comments, setup)


def game_to_sgf(game: Game, *, black: str = "", white: str = "", event: str = "") -> str:
    """Write a game as SGF (FF[4], GM[4], SZ[15]); the swap and the fifth-move candidates go
    into comments, the result into RE (``B+``, ``W+R``, ``0`` for a draw).

    >>> g = Game.from_moves("h8 h9 j10 i9 g10")
    >>> game_to_sgf(g)
    '(;FF[4]GM[4]SZ[15]CA[UTF-8]AP[duiyi]RU[designated]GN[疏星局]\\n;B[hh];W[hg];B[jf];W[ig];B[gf])'
    """
    props = [
        "FF[4]",
        "GM[4]",
        "SZ[15]",
        "CA[UTF-8]",
        "AP[duiyi]",
        f"RU[{game.rules.opening.value}]",
    ]
    if game.opening is not None:
        props.append(f"GN[{escape(game.opening.opening.name)}]")
    if black:
        props.append(f"PB[{escape(black)}]")
    if white:
        props.append(f"PW[{escape(white)}]")
    if event:
        props.append(f"EV[{escape(event)}]")
    o = game.outcome()
    if o is not None:
        if o.result is Result.DRAW:
            props.append("RE[0]")
        elif o.winner is not None:
            reason = {Termination.RESIGNATION: "R", Termination.TIME: "T"}.get(o.termination, "")
            props.append(f"RE[{o.winner.letter}+{reason}]")
    out = ["(;" + "".join(props) + "\n"]
    for m in game.moves:
        value = sgf_point(m.point) if m.point is not None else ""
        node = f";{m.color.letter}[{value}]"
        notes = []
        if game.swap_after == m.number:
            notes.append("swap: White took Black")
        if m.number == 5 and game.fifth_candidates:
            notes.append(
                "fifth-move candidates: " + " ".join(str(p) for p in game.fifth_candidates)
            )
        if notes:
            node += f"C[{escape('; '.join(notes))}]"
        out.append(node)
    return "".join(out) + ")"


def game_from_sgf(text: str, rules: RenjuRules | None = None) -> Game:
    """Replay the main line of an SGF game (rules as in :func:`game_from_moves`)."""
    sgf = parse_sgf(text)
    if sgf.setup:
        raise SgfError(
            "a game with setup stones (AB/AW) cannot be replayed under the rules; "
            "read its position with parse_sgf(text).board()"
        )
    expected = Color.BLACK
    for n, (colour, _) in enumerate(sgf.moves, 1):
        if colour is not expected:
            raise SgfError(f"move {n} is {colour} but Black and White must alternate")
        expected = expected.opponent
    return game_from_moves([p for _, p in sgf.moves], rules)


# -- Piskvork .psq --------------------------------------------------------------------------
@dataclass
class PsqRecord:
    """A Piskvork game: its moves (Black first) and their times in milliseconds."""

    moves: list[Point]
    times: list[int]
    trailer: list[str]


_PSQ_HEADER = re.compile(r"^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)", re.IGNORECASE)
_PSQ_MOVE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*(-?\d+))?\s*$")


def parse_psq(text: str) -> PsqRecord:
    """Read a Piskvork ``.psq`` game of the 15×15 board.

    >>> r = parse_psq("Piskvorky 15x15, 11:11, 0\\n8,8,0\\n8,7,120\\n-1\\n")
    >>> [str(p) for p in r.moves], r.times
    (['h8', 'h9'], [0, 120])
    """
    lines = text.splitlines()
    if not lines:
        raise NotationError("an empty .psq file")
    m = _PSQ_HEADER.match(lines[0])
    if not m:
        raise NotationError("line 1: a .psq file starts with 'Piskvorky WxH, ...'")
    w, h = int(m.group(1)), int(m.group(2))
    if (w, h) != (SIZE, SIZE):
        raise NotationError(f"line 1: a {w}x{h} board; Renju is played on 15×15 (Gomoku §1)")
    moves: list[Point] = []
    times: list[int] = []
    k = 1
    for k in range(1, len(lines) + 1):
        if k == len(lines):
            break
        mv = _PSQ_MOVE.match(lines[k])
        if not mv:
            break
        x, y = int(mv.group(1)), int(mv.group(2))
        if not (1 <= x <= SIZE and 1 <= y <= SIZE):
            raise NotationError(f"line {k + 1}: {x},{y} is off the 15×15 board")
        moves.append(Point(x - 1, SIZE - y))
        times.append(int(mv.group(3) or 0))
    return PsqRecord(moves, times, [ln for ln in lines[k:] if ln.strip()])


def game_from_psq(text: str, rules: RenjuRules | None = None) -> Game:
    """Replay a ``.psq`` game (rules as in :func:`game_from_moves`)."""
    return game_from_moves(list(parse_psq(text).moves), rules)


def read_game(text: str, name: str = "", rules: RenjuRules | None = None) -> Game:
    """Read a game in any of the formats above, by file name or content.

    >>> read_game("① h8  2 h9  ③ j10").record_text()
    '1.h8 2.h9 3.j10'
    """
    stripped = text.lstrip()
    if name.lower().endswith(".sgf") or stripped.startswith("("):
        return game_from_sgf(text, rules)
    if name.lower().endswith(".psq") or _PSQ_HEADER.match(stripped):
        return game_from_psq(text, rules)
    if re.search(r"\d\s*[.:)]?\s*[a-oA-O]\d|[①-㊿]", stripped) and re.match(r"[\d(①-㊿]", stripped):
        return game_from_moves(parse_record_sheet(text), rules)
    return game_from_moves(parse_moves(text), rules)
