"""SGF FF[4] for Go: read real files, keep their variations, build a :class:`~duiyi.go.Game`.

Go's reading of the game-neutral SGF layer :mod:`duiyi.sgf`:

1. **Grammar** (:func:`parse`, :func:`serialise`, :class:`SgfNode`, :class:`SgfCollection`,
   re-exported from :mod:`duiyi.sgf`): text ↔ game trees with raw values. What cannot be read
   raises :class:`~duiyi.errors.SgfError` with the line and column; oddities a reader can live
   with are collected in ``collection.warnings`` (:class:`~duiyi.sgf.SgfWarning`).
2. **Typed values** (:func:`decode_text`, :func:`decode_point`, :func:`decode_points`,
   :func:`decode_komi`, :func:`decode_rules`, ...): raw value → Python value, and back with the
   ``encode_*`` functions.
3. **Games** (:func:`game_from_sgf`, :func:`game_to_sgf`, :func:`dead_stones_from_markers`): the main
   line of the first game tree is played on a :class:`~duiyi.go.Game`, every move checked by the
   rules; the other variations stay in the tree.

SGF coordinates live only here: ``"aa"`` is the top-left point, the first letter is the column and
the second counts rows from the top, so on a board of size ``n`` the SGF row letter index is
``n - 1 - row``.

>>> coll = parse("(;GM[1]SZ[9]KM[7.5];B[ee];W[cc](;B[gg])(;B[gc]))")
>>> [str(p) for _, p in game_from_sgf(coll).moves]  # the main line, played by Go's rules
['E5', 'C7', 'G3']
>>> decode_point("gc", 9), coll.games[0].main_line()[2].children[1].get("B")  # a variation
(Point.parse('G7'), 'gc')
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from duiyi import BLACK, WHITE, Color
from duiyi.errors import DuiyiError, InvalidRules, SgfError
from duiyi.go.board import Board, PointSet
from duiyi.go.game import Game
from duiyi.go.handicap import fixed_handicap_points
from duiyi.go.point import Point
from duiyi.go.replay import play_recorded
from duiyi.go.rules import MAX_KOMI_POINTS, Rules
from duiyi.go.scoring import Score
from duiyi.sgf import (
    SgfCollection,
    SgfGame,
    SgfNode,
    SgfWarning,
    decode_number,
    decode_real,
    decode_simpletext,
    decode_text,
    encode_text,
    escape,
    format_decimal,
    parse,
    serialise,
    split_compose,
)

__all__ = [
    "GoSgfGame",
    "SgfCollection",
    "SgfNode",
    "SgfResult",
    "apply_sgf_result",
    "dead_stones_from_markers",
    "decode_komi",
    "decode_number",
    "decode_point",
    "decode_point_coords",
    "decode_point_list_coords",
    "decode_points",
    "decode_real",
    "decode_simpletext",
    "decode_text",
    "encode_komi",
    "encode_point",
    "encode_point_coords",
    "encode_text",
    "escape",
    "game_from_sgf",
    "game_setup",
    "game_to_sgf",
    "parse",
    "read_game",
    "rules_from_sgf",
    "score_from_markers",
    "serialise",
    "split_compose",
]


# --------------------------------------------------------------------------------------------
# Layer 2: typed values
# --------------------------------------------------------------------------------------------


def decode_point_coords(raw: str, size: int) -> tuple[int, int] | None:
    """Decode an SGF point to duiyi's (col, row) (row 0 at the bottom); ``None`` for a pass.

    ``""`` is a pass; so is ``"tt"`` on boards up to 19×19 (the FF[3] convention).

    >>> decode_point_coords("aa", 19), decode_point_coords("sa", 19), decode_point_coords("tt", 19)
    ((0, 18), (18, 18), None)
    >>> decode_point_coords("zz", 19)
    Traceback (most recent call last):
    ...
    duiyi.errors.SgfError: SGF point 'zz' is off a 19x19 board
    """
    s = raw.strip()
    if s == "" or (s == "tt" and size <= 19):
        return None
    if len(s) != 2:
        raise SgfError(f"not an SGF point: {raw!r}")
    col = _letter_index(s[0])
    srow = _letter_index(s[1])
    if col < 0 or srow < 0:
        raise SgfError(f"not an SGF point: {raw!r}")
    if col >= size or srow >= size:
        raise SgfError(f"SGF point {raw!r} is off a {size}x{size} board")
    return col, size - 1 - srow


def _letter_index(ch: str) -> int:
    if "a" <= ch <= "z":
        return ord(ch) - 97
    if "A" <= ch <= "Z":
        return ord(ch) - 65 + 26
    return -1


def _index_letter(i: int) -> str:
    return chr(97 + i) if i < 26 else chr(65 + i - 26)


def encode_point_coords(col: int, row: int, size: int) -> str:
    """Encode duiyi (col, row) as an SGF point.

    >>> encode_point_coords(3, 15, 19)
    'dd'
    """
    if not (0 <= col < size and 0 <= row < size):
        raise SgfError(f"point ({col}, {row}) is off a {size}x{size} board")
    return _index_letter(col) + _index_letter(size - 1 - row)


def decode_point_list_coords(values: Iterable[str], size: int) -> list[tuple[int, int]]:
    """Decode a list of points, expanding compressed rectangles (``"aa:cb"``); no passes.

    >>> decode_point_list_coords(["aa:bb", "ss"], 19)
    [(0, 18), (1, 18), (0, 17), (1, 17), (18, 0)]
    """
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for raw in values:
        first, second = split_compose(raw)
        if second is None:
            p = decode_point_coords(first, size)
            if p is None:
                continue  # "" or "tt" cannot be a point of a list: ignore it
            if p not in seen:
                seen.add(p)
                out.append(p)
            continue
        a = decode_point_coords(first, size)
        b = decode_point_coords(second, size)
        if a is None or b is None:
            raise SgfError(f"bad compressed point list {raw!r}")
        c0, c1 = sorted((a[0], b[0]))
        r0, r1 = sorted((a[1], b[1]))
        for r in range(r1, r0 - 1, -1):
            for c in range(c0, c1 + 1):
                if (c, r) not in seen:
                    seen.add((c, r))
                    out.append((c, r))
    return out


def decode_komi(raw: str, warnings: list[str] | None = None) -> Fraction:
    """Decode KM to komi in **points**, tolerating the conventions real servers use.

    * A decimal number is komi in points: ``KM[6.5]``, ``KM[7.50]``, ``KM[-4.50]``.
    * An integer of magnitude 100 or more is in hundredths (Fox/Yike): ``KM[750]`` is 7.5,
      ``KM[650]`` is 6.5, ``KM[375]`` is 3.75.
    * A value ending in .25 or .75 (after that scaling) cannot be a point komi, so it is read as
      stones (Chinese software writes 3¾ stones as ``KM[3.75]``/``KM[375]``): points = 2 × stones.

    Each reinterpretation appends a note to ``warnings``; unreadable text raises SgfError.

    >>> decode_komi("6.5"), decode_komi("750"), decode_komi("3.75"), decode_komi("-4.50")
    (Fraction(13, 2), Fraction(15, 2), Fraction(15, 2), Fraction(-9, 2))
    """
    value = decode_real(raw)
    notes = warnings if warnings is not None else []
    text = raw.strip()
    if value.denominator == 1 and abs(value) >= 100 and "." not in text:
        notes.append(f"KM[{raw}] read as hundredths: {_fmt(value / 100)}")
        value = value / 100
    if (value * 4).denominator == 1 and (value * 2).denominator != 1:
        notes.append(f"KM[{raw}] read as stones: {_fmt(value * 2)} points")
        value = value * 2
    if (value * 2).denominator != 1:
        notes.append(f"KM[{raw}] is not a multiple of half a point; rounded")
        value = Fraction(round(value * 2), 2)
    if abs(value) > MAX_KOMI_POINTS:
        raise SgfError(
            f"KM[{raw.strip()}] is not a komi: beyond ±{MAX_KOMI_POINTS} points (Go §11)"
        )
    return value


def _fmt(value: Fraction) -> str:
    return format_decimal(value)


def encode_komi(points: Fraction) -> str:
    """Write komi in points as SGF's KM (a decimal number).

    >>> encode_komi(Fraction(15, 2)), encode_komi(Fraction(0))
    ('7.5', '0')
    """
    return _fmt(Fraction(points))


@dataclass(frozen=True)
class SgfResult:
    """A decoded RE value.

    ``winner`` is ``"B"``, ``"W"`` or ``None`` (draw, void, unknown); ``margin`` the points for a
    counted result; ``reason`` one of ``"score"``, ``"resign"``, ``"time"``, ``"forfeit"``,
    ``"draw"``, ``"void"``, ``"unknown"``, ``"win"`` (a bare ``B+``).

    >>> SgfResult.parse("W+Resign")
    SgfResult(winner='W', margin=None, reason='resign')
    >>> SgfResult.parse("B+12.50").margin
    Fraction(25, 2)
    """

    winner: str | None
    margin: Fraction | None
    reason: str

    @classmethod
    def parse(cls, raw: str) -> SgfResult:
        """Read an RE value (case-insensitive; ``B+R``, ``W+T``, ``B+F``, ``0``, ``Draw``...)."""
        text = decode_simpletext(raw).strip()
        low = text.lower()
        if low in ("0", "draw", "jigo", "d"):
            return cls(None, Fraction(0), "draw")
        if low == "void":
            return cls(None, None, "void")
        if len(text) >= 2 and text[0].upper() in "BW" and text[1] == "+":
            winner = text[0].upper()
            rest = text[2:].strip().lower()
            if not rest:
                return cls(winner, None, "win")
            for key, reason in (("r", "resign"), ("t", "time"), ("f", "forfeit")):
                if rest[0] == key:
                    return cls(winner, None, reason)
            try:
                return cls(winner, decode_real(rest), "score")
            except SgfError:
                return cls(winner, None, "unknown")
        return cls(None, None, "unknown")

    def __str__(self) -> str:
        if self.reason == "draw":
            return "0"
        if self.reason == "void":
            return "Void"
        if self.winner is None:
            return "?"
        if self.reason == "score" and self.margin is not None:
            return f"{self.winner}+{_fmt(self.margin)}"
        tail = {"resign": "R", "time": "T", "forfeit": "F"}.get(self.reason, "")
        return f"{self.winner}+{tail}"


def rules_from_sgf(
    ru: str | None,
    komi_points: Fraction | None,
    handicap: int = 0,
    warnings: list[str] | None = None,
) -> Rules:
    """Map RU/KM/HA to a :class:`~duiyi.go.Rules` (the recorded komi always wins over the preset).

    RU names (case-insensitive, first word): ``Chinese``/``CN`` → chinese; ``Japanese``/``JP``
    → japanese; ``Korean``/``KO``/``KR`` → korean; ``Ing``/``GOE`` → ing; ``AGA`` → aga
    (H − 1 points back, :class:`~duiyi.go.rules.HandicapConvention`); ``NZ``,
    ``Tromp-Taylor`` → area counted in points (both allow suicide; Tromp-Taylor uses
    positional superko). Unknown or missing RU → chinese with a warning.

    Komi: KM in points becomes the rule set's komi in its unit (stones for Chinese: KM/2), for
    even games *and* handicap games, as servers record it (KGS writes KM[0.50] in handicap
    games and counts it). Handicap compensation stays the preset's: for Chinese H/2 stones
    (= H points, KGS's "handicap count"); AGA H − 1 points; NZ/Tromp-Taylor one per stone.

    >>> r = rules_from_sgf("Chinese", Fraction(1, 2), 4)
    >>> r.name, r.komi, r.compensation(4)
    ('chinese', Fraction(1, 4), (Fraction(1, 4), Fraction(2, 1)))
    >>> rules_from_sgf("Japanese", Fraction(13, 2)).komi
    Fraction(13, 2)
    """
    from dataclasses import replace

    from duiyi.go.rules import Scoring

    notes = warnings if warnings is not None else []
    base = Rules.chinese()
    if ru:
        try:
            base = Rules.preset(ru)
        except InvalidRules:
            notes.append(f"unknown rules RU[{ru}]; Chinese rules used")
    if komi_points is None:
        return base
    komi = Fraction(komi_points) / base.unit_points
    step = Fraction(1, 4) if base.scoring is Scoring.AREA_STONES else Fraction(1, 2)
    if (komi / step).denominator != 1:
        notes.append(f"komi {komi_points} is not a multiple of {step}; rounded")
        komi = round(komi / step) * step
    return replace(base, komi=komi, handicap_komi=komi if handicap >= 1 else base.handicap_komi)


# --------------------------------------------------------------------------------------------
# Layer 3: games
# --------------------------------------------------------------------------------------------


_POINTS: dict[tuple[str, int], Point | None] = {}


def decode_point(raw: str, size: int) -> Point | None:
    """Decode an SGF point to a :class:`~duiyi.go.Point` (``None`` for a pass).

    >>> decode_point("pd", 19), decode_point("", 19)
    (Point.parse('Q16'), None)
    """
    key = (raw, size)
    if key in _POINTS:
        return _POINTS[key]
    rc = decode_point_coords(raw, size)
    point = None if rc is None else Point(rc[0], rc[1])
    if len(raw) <= 2:  # the cache holds at most every two-letter value per size
        _POINTS[key] = point
    return point


def decode_points(values: Iterable[str], size: int) -> list[Point]:
    """Decode a point list (compressed rectangles expanded).

    >>> [str(p) for p in decode_points(["aa:ab"], 9)]
    ['A9', 'A8']
    """
    return [Point(c, r) for c, r in decode_point_list_coords(values, size)]


def encode_point(point: Point | None, size: int) -> str:
    """Encode a point for SGF (``""`` for a pass, the FF[4] form).

    >>> encode_point(Point.parse("Q16"), 19), encode_point(None, 19)
    ('pd', '')
    """
    if point is None:
        return ""
    return encode_point_coords(point.col, point.row, size)


@dataclass
class GoSgfGame(SgfGame):
    """A Go game read from SGF: the shared shape (:class:`duiyi.sgf.SgfGame`: root, main-line
    nodes played, warnings, collection, players, :meth:`to_sgf`) plus the
    :class:`~duiyi.go.Game` after the main line and the ``RE`` value.

    ``warnings`` joins the grammar warnings and the game-level ones (komi conventions,
    out-of-turn moves...).

    >>> sg = read_game("(;SZ[9]KM[7.5]RE[B+R];B[ee];W[cc])")
    >>> sg.game.moves[-1][1], sg.result
    (Point.parse('C7'), SgfResult(winner='B', margin=None, reason='resign'))
    >>> read_game("(;SZ[9]PB[A];B[ee](;W[cc])(;W[gg]))").to_sgf().count("(;")
    3
    """

    game: Game
    result: SgfResult | None

    def dead_from_markers(self) -> frozenset[Point]:
        """Dead stones according to the TB/TW markers of the last node (see
        :func:`dead_stones_from_markers`)."""
        return dead_stones_from_markers(self.last_node, self.game.board)


def dead_stones_from_markers(node: SgfNode, board: Board) -> frozenset[Point]:
    """Stones the TB/TW territory markers of ``node`` declare dead ("sgf-markers").

    A stone of one colour standing on a territory marker of the other colour is dead: white
    stones under TB, black stones under TW (how KGS, CGoban and Sabaki record the agreed dead
    stones at the end of a counted game).

    >>> from duiyi.go import Board
    >>> b = Board.from_stones(5, black=["A1", "B2"], white=["E5"])
    >>> node = parse("(;SZ[5]TB[ea][eb]TW[ae])").games[0]
    >>> sorted(map(str, dead_stones_from_markers(node, b)))
    ['A1', 'E5']
    """
    n = board.size
    dead: set[Point] = set()
    for ident, owner in (("TB", BLACK), ("TW", WHITE)):
        for p in decode_points(node.values(ident), n):
            if board.get(p) is owner.opponent:
                dead.add(p)
    return frozenset(dead)


def _as_text(text: str | bytes | SgfCollection) -> SgfCollection:
    if isinstance(text, SgfCollection):
        return text
    return parse(text)


def read_game(
    text: str | bytes | SgfCollection,
    *,
    index: int = 0,
    until_move: int | None = None,
    rules: Rules | None = None,
) -> GoSgfGame:
    """Read game ``index`` of an SGF collection and play its main line.

    Every move is checked by the rules: an illegal one raises
    :class:`~duiyi.errors.IllegalMove` naming the move number, colour and point
    (``illegal move #57 B Q16: ...``). ``until_move`` stops after that many moves; ``rules``
    overrides RU/KM (the handicap stays the file's).

    Tolerated with a warning: a move out of turn (a pass of the other side is inserted), moves
    after two passes (play resumes, as after a dispute, Go §21.4), set-up properties after the
    first move (ignored), a HA that disagrees with the AB stones.

    >>> sg = read_game("(;SZ[9]HA[2]AB[cg][gc]KM[0.5]RU[Chinese];W[ee])")
    >>> sg.game.handicap, sg.game.rules.komi, sorted(map(str, sg.game.board.stones(BLACK)))
    (2, Fraction(1, 4), ['C3', 'G7'])
    """
    from dataclasses import replace

    coll = _as_text(text)
    if not 0 <= index < len(coll.games):
        raise SgfError(f"no game number {index + 1} in this SGF ({len(coll.games)} games)")
    root = coll.games[index]
    warnings = list(coll.warnings)

    def at(node: SgfNode, message: str) -> str:
        return SgfWarning.at(node.line, node.column, message)

    def wrap(node: SgfNode, exc: SgfError) -> SgfError:
        line = exc.line if exc.line is not None else node.line
        col = exc.column if exc.column is not None else node.column
        return SgfError(str(exc), line=line, column=col)

    gm = root.get("GM")
    if gm is not None and gm.strip() not in ("1", ""):
        raise SgfError(f"GM[{gm}] is not a Go game (GM[1])", line=root.line, column=root.column)
    try:
        size_raw = root.get("SZ")
        if size_raw is None:
            size = 19
        else:
            first, second = split_compose(size_raw)
            size = decode_number(first)
            if second is not None and decode_number(second) != size:
                raise SgfError(f"rectangular board SZ[{size_raw}] is not supported")
        if not 5 <= size <= 25:
            raise SgfError(f"board size SZ[{size}] is outside duiyi's 5–25")
        handicap = 0
        if root.get("HA") is not None:
            handicap = _decode_handicap(root.get("HA") or "0", warnings, root)
        komi: Fraction | None = None
        if root.get("KM") is not None:
            komi = decode_komi(root.get("KM") or "0", warnings)
        ru = root.simpletext("RU")
        if rules is None:
            rules = rules_from_sgf(ru, komi, handicap, warnings)
        # Set-up stones of the root and of the nodes after it that come before any move (some
        # Fox/YuanYu records write HA[2] in the root and ;AB[pd][dp] in the next node).
        setup_nodes = [root]
        while setup_nodes[-1].children:
            nxt = setup_nodes[-1].children[0]
            if "B" in nxt or "W" in nxt or not ("AB" in nxt or "AW" in nxt or "AE" in nxt):
                break
            setup_nodes.append(nxt)
        black, white, empty = _merge_setup(setup_nodes, size)
        result = SgfResult.parse(root.get("RE") or "") if "RE" in root else None
    except SgfError as exc:
        raise wrap(root, exc) from None

    game: Game
    setup_done = False
    if handicap >= 2 and handicap <= 9 and not white and not empty and len(black) == handicap:
        fixed: set[Point] = set()
        with contextlib.suppress(DuiyiError):
            fixed = set(fixed_handicap_points(size, handicap))
        if set(black) == fixed:
            game = Game(size, replace(rules, fixed_handicap=True), handicap)
        else:
            game = Game(size, replace(rules, fixed_handicap=False), handicap)
            game.place_handicap(black)
        setup_done = True
    else:
        if handicap >= 2:
            warnings.append(
                at(root, f"HA[{handicap}] but {len(black)} AB stones: handicap read as 0")
            )
        game = Game(size, rules)
    pl = root.get("PL")
    to_move: Color | None = None
    if pl is not None:
        try:
            to_move = Color.parse(decode_simpletext(pl))
        except DuiyiError:
            warnings.append(at(root, f"PL[{pl}] is not a colour; ignored"))
    if to_move is None and not setup_done:
        # Without PL, the first recorded move says who starts (a handicap or problem file
        # whose first move is White's); without any move, White starts after handicap stones.
        last_setup = setup_nodes[-1]
        opening = last_setup.children[0] if last_setup.children else None
        white_first = opening is not None and "W" in opening and "B" not in opening
        if white_first or (opening is None and handicap >= 2):
            to_move = WHITE
    if not setup_done and (black or white or empty or to_move is not None):
        try:
            game.setup(black=black, white=white, empty=empty, to_move=to_move)
        except DuiyiError as exc:
            raise SgfError(str(exc), line=root.line, column=root.column) from None

    nodes = [root]
    played = 0
    node = root
    while node.children:
        node = node.children[0]
        if until_move is not None and played >= until_move:
            break
        nodes.append(node)
        props = node.properties
        if node in setup_nodes:
            continue
        if "AB" in props or "AW" in props or "AE" in props:
            warnings.append(at(node, "set-up stones after the first move are ignored"))
        for ident, color in _MOVE_IDENTS:
            values = props.get(ident)
            if not values:
                continue
            try:
                point = decode_point(values[0], size)
            except SgfError as exc:
                raise wrap(node, exc) from None
            played += 1
            where = f"line {node.line}, column {node.column}" if node.line is not None else ""
            play_recorded(game, color, point, warnings, played, where)
    return GoSgfGame(
        root, nodes, [_as_warning(w) for w in warnings], coll, game=game, result=result
    )


_MOVE_IDENTS = (("B", BLACK), ("W", WHITE))


_WHERE = re.compile(r"line (\d+), column (\d+): ")


def _as_warning(text: str) -> SgfWarning:
    """A game-level note as an :class:`~duiyi.sgf.SgfWarning` (line and column as data)."""
    if isinstance(text, SgfWarning):
        return text
    m = _WHERE.match(text)
    if m is None:
        return SgfWarning.at(None, None, text)
    return SgfWarning.at(int(m.group(1)), int(m.group(2)), text[m.end() :])


def _decode_handicap(raw: str, warnings: list[str], node: SgfNode) -> int:
    """HA as a number of stones; a real (``HA[7.5]``, seen in real files) is read as its whole
    part with a warning; 1 and negative values mean no handicap stones."""
    try:
        handicap = decode_number(raw)
    except SgfError:
        value = decode_real(raw)
        handicap = int(value)
        note = f"HA[{raw}] is not a whole number: read as {handicap}"
        warnings.append(SgfWarning.at(node.line, node.column, note))
    return handicap if handicap >= 2 else 0


def _merge_setup(nodes: list[SgfNode], size: int) -> tuple[list[Point], list[Point], list[Point]]:
    """The stones AB/AW/AE of ``nodes`` put on an empty board in order: the black, white and
    emptied points of the result (a later node wins over an earlier one)."""
    where: dict[Point, Color | None] = {}
    for node in nodes:
        for p in decode_points(node.values("AE"), size):
            where[p] = None
        for p in decode_points(node.values("AB"), size):
            where[p] = BLACK
        for p in decode_points(node.values("AW"), size):
            where[p] = WHITE
    black = [p for p, c in where.items() if c is BLACK]
    white = [p for p, c in where.items() if c is WHITE]
    empty = [p for p, c in where.items() if c is None]
    return black, white, empty


def game_from_sgf(
    text: str | bytes,
    *,
    index: int = 0,
    until_move: int | None = None,
    rules: Rules | None = None,
    apply_result: bool = True,
) -> Game:
    """The :class:`~duiyi.go.Game` after the main line of an SGF game (python-chess style: the game core never mentions SGF).

    When the whole main line was read (no ``until_move`` cut) and ``apply_result`` is true, an
    ``RE`` that the board cannot show ends the game as recorded (:func:`apply_sgf_result`):
    ``B+R``/``W+R`` (resignation), ``B+T``/``W+T`` (time), ``B+F``/``W+F`` (forfeit).

    >>> g = game_from_sgf("(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[];B[cc])")
    >>> [(c.letter, str(p) if p else None) for c, p in g.moves]
    [('B', 'E5'), ('W', None), ('B', 'C7')]
    >>> game_from_sgf("(;SZ[9]RE[W+R];B[ee];W[cc])").result_zh
    '白中盘胜'
    """
    sg = read_game(text, index=index, until_move=until_move, rules=rules)
    whole = until_move is None or len(sg.nodes) - 1 >= _count_main_line(sg.root)
    if apply_result and whole and sg.result is not None:
        apply_sgf_result(sg.game, sg.result)
    return sg.game


def _count_main_line(root: SgfNode) -> int:
    n, node = 0, root
    while node.children:
        node = node.children[0]
        n += 1
    return n


def apply_sgf_result(game: Game, result: SgfResult) -> bool:
    """End ``game`` as a recorded ``RE`` says, when that can be done faithfully; True if it did.

    Applied: resignation (``B+R``: White resigned, Go §7.2), time (``B+T``, Go §22) and forfeit
    (``B+F``, Go §13.1) — results decided off the board. Left alone: a game the replay already
    ended (e.g. by repetition), counted results (``B+1.5``: a count goes through the counting
    phase, where the players mark dead stones and accept, Go §8–§9; nothing is accepted on
    their behalf), and ``0``/``Draw``/``Void``/unknown values: a draw comes from an equal
    count (the same counting phase) and a draw or no result from repetition (Go §6, which the
    replay applies itself), so the value alone cannot be replayed faithfully.

    >>> g = Game(9); apply_sgf_result(g, SgfResult.parse("B+T")), g.sgf_result
    (True, 'B+T')
    >>> g = Game(9); apply_sgf_result(g, SgfResult.parse("W+2.5")), g.phase.value
    (False, 'playing')
    """
    from duiyi.outcome import Outcome, Termination

    if game.outcome() is not None or result.winner is None:
        return False
    winner = Color.parse(result.winner)
    if result.reason == "resign":
        game.resign(winner.opponent)
    elif result.reason == "time":
        game.end(Outcome.win(winner, Termination.TIME, "Go §22"))
    elif result.reason == "forfeit":
        game.end(Outcome.win(winner, Termination.FORFEIT, "Go §13.1"))
    else:
        return False
    return True


_RU_NAMES = {
    "chinese": "Chinese",
    "japanese": "Japanese",
    "korean": "Korean",
    "ing": "GOE",
    "aga": "AGA",
    "nz": "NZ",
    "tromp-taylor": "Tromp-Taylor",
}


def game_setup(game: Game) -> tuple[PointSet, PointSet, Color]:
    """The stones on the board before the first move and the side that moved first.

    >>> g = Game(9, handicap=2); g.play("E5")
    >>> b, w, first = game_setup(g)
    >>> sorted(map(str, b)), first
    (['C3', 'G7'], Color.WHITE)
    """
    from duiyi.go.actions import Move, Pass, Resign

    prefix = []
    for action in game.actions:
        if isinstance(action, Move | Pass | Resign):
            break
        prefix.append(action)
    start = Game.from_actions(game.rules, prefix)
    return start.board.stones(BLACK), start.board.stones(WHITE), start.to_move


def game_to_sgf(game: Game, properties: dict[str, str] | None = None) -> str:
    """Write a game as SGF FF[4]: header, set-up stones, moves, result.

    Komi is written in points (KM[7.5] for the Chinese 3¾ stones); passes as ``[]``. A game
    counted in the game (Go §9) gets TB/TW markers on its last node: the territory plus the
    dead stones, so that reading it back with ``--dead sgf-markers`` gives the same count.
    ``properties`` adds root properties (plain text, escaped here), e.g. ``{"PB": "Ke Jie"}``.

    >>> g = Game(9); g.play("E5"); g.play("C3")
    >>> game_to_sgf(g).splitlines()[1]
    ';B[ee];W[cg])'
    """
    from duiyi import __version__

    size = game.size
    rules = game.rules
    root = SgfNode()
    root.set("GM", "1")
    root.set("FF", "4")
    root.set("CA", "UTF-8")
    root.set("AP", f"duiyi:{__version__}")
    root.set("SZ", str(size))
    root.set("RU", _RU_NAMES.get(rules.name, rules.name))
    komi, _ret = rules.compensation(game.handicap)
    root.set("KM", encode_komi(komi * rules.unit_points))
    if game.handicap >= 2:
        root.set("HA", str(game.handicap))
    black, white, first = game_setup(game)
    if black:
        root.set_values("AB", sorted(encode_point(p, size) for p in black))
    if white:
        root.set_values("AW", sorted(encode_point(p, size) for p in white))
    expected_first = WHITE if game.handicap >= 2 else BLACK
    if first is not expected_first:
        root.set("PL", first.letter)
    result = game.sgf_result
    if result is not None:
        root.set("RE", result)
    for key, value in (properties or {}).items():
        root.set(key, value)
    node = root
    restored = _restored_stones(game)
    moves = game.moves
    for i in range(len(moves) + 1):
        for owner, points, article in restored.get(i, []):
            # Go §18.1: stones wrongly removed go back mid-game: a set-up node with a comment
            node = node.add_child({"AB" if owner is BLACK else "AW": sorted(points)})
            node.set(
                "C", f"{article}: {owner.value} stones wrongly removed put back (误提有气之子)"
            )
        if i < len(moves):
            color, point = moves[i]
            node = node.add_child({color.letter: [encode_point(point, size)]})
    outcome = game.outcome()
    score = getattr(outcome, "score", None) if outcome is not None else None
    if isinstance(score, Score):
        tb = set(score.black_territory) | {p for p in score.dead if game.board.get(p) is WHITE}
        tw = set(score.white_territory) | {p for p in score.dead if game.board.get(p) is BLACK}
        if tb:
            node.set_values("TB", sorted(encode_point(p, size) for p in tb))
        if tw:
            node.set_values("TW", sorted(encode_point(p, size) for p in tw))
    return serialise(root)


def _restored_stones(game: Game) -> dict[int, list[tuple[Color, list[str], str]]]:
    """The Go §18.1 restorations of ``game`` by the number of moves made before each:
    ``{moves: [(owner, sgf points, article)]}``."""
    from duiyi.go.actions import RestoreStones

    out: dict[int, list[tuple[Color, list[str], str]]] = {}
    actions = game.actions
    for i, action in enumerate(actions):
        if isinstance(action, RestoreStones):
            before = len(Game.from_actions(game.rules, actions[:i]).moves)
            points = [encode_point(p, game.size) for p in action.points]
            out.setdefault(before, []).append((action.color, points, action.article))
    return out


def score_from_markers(
    game: Game, node: SgfNode, rules: Rules | None = None, *, territory_from_markers: bool = True
) -> Score:
    """Count ``game`` with the agreed end-of-game markers of ``node`` (TB/TW), KGS-style.

    Dead stones are those under the other colour's markers (:func:`dead_stones_from_markers`).
    Under area scoring the count is duiyi's own (Go §9) with those stones removed. Under
    territory scoring, when ``territory_from_markers`` is true, the territory is exactly the
    marked points (empty points and dead stones): servers let the players mark dame and seki
    points by hand, so the markers, not a seki heuristic, are what both players accepted;
    prisoners are captures plus dead stones, as in :func:`~duiyi.go.score_position`.

    >>> sg = read_game("(;SZ[5]RU[Japanese]KM[0.5];B[cc];W[];B[];TB[aa][ab])")
    >>> score_from_markers(sg.game, sg.last_node).sgf_result
    'B+1.5'
    """
    from dataclasses import replace

    from duiyi.go.rules import Scoring
    from duiyi.go.scoring import score_position

    rules = rules if rules is not None else game.rules
    board = game.board
    dead = dead_stones_from_markers(node, board)
    score = score_position(board, rules, dead, game.handicap, game.captures, game.warnings)
    if rules.scoring is not Scoring.TERRITORY or not territory_from_markers:
        return score
    n = board.size
    marked: dict[Color, frozenset[Point]] = {}
    for ident, owner in (("TB", BLACK), ("TW", WHITE)):
        pts = decode_points(node.values(ident), n)
        marked[owner] = frozenset(p for p in pts if board.get(p) is not owner)
    tb, tw = len(marked[BLACK]), len(marked[WHITE])
    return replace(
        score,
        black_area=Fraction(tb + score.black_prisoners),
        white_area=Fraction(tw + score.white_prisoners),
        black_territory=marked[BLACK],
        white_territory=marked[WHITE],
    )
