"""Counting a finished Go game (Go §9, §11, §21.2, §24.1) under each rule set.

Chinese area counting (数子法, Go §9): the dead stones leave the board, then each side gets its
live stones plus the empty points surrounded only by its live stones. Every neutral empty point
(touching both colours, or touching none, including contested points left after acceptance,
Go §21.2) gives ½ to each side. Black wins iff ``B − komi − handicap return > half the points``
(180.5 on 19×19); the margin in stones is ``B − komi − return − half`` (a multiple of ¼).

>>> from duiyi.go.board import Board
>>> from duiyi.go.rules import Rules
>>> b = Board.from_diagram('''
... . X O . .
... . X O . .
... . X O . .
... . X O . .
... . X O . .''')
>>> s = score_position(b, Rules.chinese())
>>> s.black_area, s.white_area, s.result_zh, s.sgf_result
(Fraction(10, 1), Fraction(15, 1), '白胜6又1/4子', 'W+12.5')

Territory counting (Japanese/Korean) counts empty points surrounded by one side's live stones,
plus prisoners (captures and dead stones), the way an arbiter counts once the dame are filled:

* neutral points (dame) count for nobody and put nobody in seki;
* a seki (公活無目, scoring-variants) is a shared liberty neither side can fill without its group
  (chain plus its own eyes) being left one liberty: the groups beside it are in seki and the
  points they surround count for nobody (``Rules.seki_points`` counts them instead);
* 手入れ: once the dame are filled, a chain whose only liberty left is a point of its own
  territory must be connected there, so that point is a stone, not territory (``Score.teire``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.go.board import Board
from duiyi.go.point import Point
from duiyi.go.rules import Rules, Scoring
from duiyi.sgf.values import format_decimal

__all__ = ["Score", "format_stones", "score_position"]


def format_stones(x: Fraction) -> str:
    """A non-negative number of stones in the book's form: ``3/4``, ``2又1/4``, ``2``.

    >>> format_stones(Fraction(3, 4)), format_stones(Fraction(11, 4)), format_stones(Fraction(2))
    ('3/4', '2又3/4', '2')
    """
    whole, frac = divmod(x, 1)
    if frac == 0:
        return str(int(whole))
    part = f"{frac.numerator}/{frac.denominator}"
    return f"{int(whole)}又{part}" if whole else part


def _format_points(x: Fraction, unit: str) -> str:
    """Points in Chinese: 6目半, 半目, 3点."""
    whole, frac = divmod(x, 1)
    if frac == 0:
        return f"{int(whole)}{unit}"
    if frac == Fraction(1, 2):
        return f"{int(whole)}{unit}半" if whole else f"半{unit}"
    return f"{format_decimal(x)}{unit}"


def _decimal(x: Fraction) -> str:
    return format_decimal(x)


@dataclass(frozen=True)
class Score:
    """The count of a game. Numbers are exact fractions in the rule set's unit.

    ``black_area``/``white_area``: stones (Chinese) or points (Ing area; Japanese/Korean
    territory + prisoners). ``komi``/``handicap_return``/``warnings_deduction`` are in the same
    unit; ``warnings_deduction`` is what Black's side loses net of White's (one stone = 2 points
    per warning, Go §24.1). ``margin`` is Black's margin in that unit (negative: White ahead).
    Territory counting also reports ``teire`` (own points that must be filled once the dame are
    filled, so not territory) and ``seki`` (live stones in seki).

    JSON numbers are floats; every value is a multiple of ¼, so the floats are exact.

    >>> from duiyi.go.rules import Rules
    >>> s = Score(Scoring.AREA_STONES, Fraction(185), Fraction(176), Fraction(15, 4))
    >>> s.margin, s.winner, s.result_zh, s.sgf_result
    (Fraction(3, 4), Color.BLACK, '黑胜3/4子', 'B+1.5')
    """

    scoring: Scoring
    black_area: Fraction
    white_area: Fraction
    komi: Fraction
    handicap_return: Fraction = Fraction(0)
    warnings_deduction: Fraction = Fraction(0)
    black_stones: int = 0
    white_stones: int = 0
    black_prisoners: int = 0
    white_prisoners: int = 0
    black_territory: frozenset[Point] = field(default=frozenset(), compare=False, repr=False)
    white_territory: frozenset[Point] = field(default=frozenset(), compare=False, repr=False)
    neutral: frozenset[Point] = field(default=frozenset(), compare=False, repr=False)
    dead: frozenset[Point] = field(default=frozenset(), compare=False, repr=False)
    teire: frozenset[Point] = field(default=frozenset(), compare=False, repr=False)
    seki: frozenset[Point] = field(default=frozenset(), compare=False, repr=False)

    @property
    def unit_points(self) -> Fraction:
        """Points per unit: 2 for stones, 1 for points."""
        return Fraction(2) if self.scoring is Scoring.AREA_STONES else Fraction(1)

    @property
    def total(self) -> Fraction:
        """black_area + white_area."""
        return self.black_area + self.white_area

    @property
    def baseline(self) -> Fraction:
        """归本数: half the points of the board (Go §9), for area counting.

        >>> Score(Scoring.AREA_STONES, Fraction(185), Fraction(176), Fraction(15, 4)).baseline
        Fraction(361, 2)
        """
        return self.total / 2

    @property
    def margin_points(self) -> Fraction:
        """Black's margin in points: area difference − komi − return − warnings."""
        u = self.unit_points
        return (
            self.black_area
            - self.white_area
            - (self.komi + self.handicap_return + self.warnings_deduction) * u
        )

    @property
    def margin_stones(self) -> Fraction:
        """Black's margin in stones (half the margin in points)."""
        return self.margin_points / 2

    @property
    def margin(self) -> Fraction:
        """Black's margin in the rule set's unit (stones for Chinese, else points)."""
        return self.margin_points / self.unit_points

    @property
    def winner(self) -> Color | None:
        """The winner, or None for a draw (Go §9: 等于此数为和)."""
        m = self.margin_points
        return BLACK if m > 0 else WHITE if m < 0 else None

    def result_zh_for(self, color: Color) -> str:
        """The result from one side's view: ``黑负1/4子`` (Go §11's wording).

        >>> s = Score(Scoring.AREA_STONES, Fraction(184), Fraction(177), Fraction(15, 4))
        >>> s.result_zh_for(BLACK), s.result_zh_for(WHITE)
        ('黑负1/4子', '白胜1/4子')
        """
        w = self.winner
        if w is None:
            return "和棋"
        verb = "胜" if w is color else "负"
        return f"{color.zh}{verb}{self._amount()}"

    def _amount(self) -> str:
        m = abs(self.margin)
        if self.scoring is Scoring.AREA_STONES:
            return f"{format_stones(m)}子"
        if self.scoring is Scoring.TERRITORY:
            return _format_points(m, "目")
        return _format_points(m, "点")

    @property
    def result_zh(self) -> str:
        """The result named by the winner: ``黑胜3/4子``, ``白胜半目``, or ``和棋``."""
        w = self.winner
        return "和棋" if w is None else self.result_zh_for(w)

    @property
    def sgf_result(self) -> str:
        """SGF ``RE`` value in points: ``B+1.5``, ``W+0.5``, ``0`` for a draw."""
        w = self.winner
        if w is None:
            return "0"
        return f"{w.letter}+{_decimal(abs(self.margin_points))}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (floats, exact because values are multiples of ¼), with the
        territory, neutral, dead, teire and seki points as sorted GTP point lists for displays.

        >>> Score(Scoring.AREA_STONES, Fraction(185), Fraction(176), Fraction(15, 4)).to_json()[
        ...     "margin_stones"]
        0.75
        """
        return {
            "v": 1,
            "scoring": self.scoring.value,
            "black_area": float(self.black_area),
            "white_area": float(self.white_area),
            "komi_stones": float(self.komi * self.unit_points / 2),
            "komi_points": float(self.komi * self.unit_points),
            "handicap_return_stones": float(self.handicap_return * self.unit_points / 2),
            "warnings_deduction_stones": float(self.warnings_deduction * self.unit_points / 2),
            "black_stones": self.black_stones,
            "white_stones": self.white_stones,
            "black_prisoners": self.black_prisoners,
            "white_prisoners": self.white_prisoners,
            "winner": self.winner.value if self.winner else None,
            "margin_stones": float(self.margin_stones),
            "margin_points": float(self.margin_points),
            "result_zh": self.result_zh,
            "sgf_result": self.sgf_result,
            "black_territory": sorted(map(str, self.black_territory)),
            "white_territory": sorted(map(str, self.white_territory)),
            "neutral": sorted(map(str, self.neutral)),
            "dead": sorted(map(str, self.dead)),
            "teire": sorted(map(str, self.teire)),
            "seki": sorted(map(str, self.seki)),
        }


def _chains(board: Board, bits: int) -> list[int]:
    """The chains (or empty regions) of ``bits``, each as a bitboard."""
    out: list[int] = []
    rest = bits
    while rest:
        ch = board._flood(rest & -rest, bits)
        rest &= ~ch
        out.append(ch)
    return out


def _cannot_fill(board: Board, index: int, black: bool, eyes: int) -> bool:
    """True when a stone of the colour on bit ``index`` would be self-atari for good.

    Suicide, or no capture and the stone's *group* keeps at most one liberty. The group is the
    stone's chain extended through the mover's own territory (``eyes``) to the chains beyond:
    a chain short of liberties only because of this dame can still connect through its own
    territory first (手入れ), so filling is not self-atari; a group whose only other liberty is
    one eye cannot fill without being captured (the shared liberty of a seki).
    """
    t = board.try_play(index, black)
    if t is None:
        return True
    b, w, _, captured, _ = t
    if captured:
        return False
    own = b if black else w
    empty = board.geometry.on_board & ~(b | w)
    group = board._flood(1 << index, own | (eyes & empty))
    libs = (board.geometry.expand(group) | group) & empty
    return libs.bit_count() <= 1


def _can_fill(board: Board, index: int, black: bool) -> bool:
    """True when a stone on bit ``index`` captures nothing and leaves its chain two liberties
    or more (a safe way to fill a dame)."""
    t = board.try_play(index, black)
    if t is None:
        return False
    b, w, _, captured, _ = t
    if captured:
        return False
    own = b if black else w
    chain = board._flood(1 << index, own)
    geo = board.geometry
    return (geo.expand(chain) & geo.on_board & ~(b | w)).bit_count() >= 2


def _territory(
    board: Board, regions: list[tuple[int, int]], neutral: int, seki_points: bool
) -> tuple[int, int, int, int]:
    """Japanese/Korean territory: ``(black, white, seki stones, teire points)``.

    1. Seki (公活無目). A neutral point next to both colours is a shared liberty of a seki when
       neither colour can fill it (:func:`_cannot_fill`). The live groups next to it are in seki
       and the empty points they surround count for nobody (unless ``seki_points``). Other
       neutral points are plain dame: they count for nobody and put nobody in seki.
    2. Filling the dame (手入れ). Once the dame are filled, a chain whose only liberty left is
       a point of its own territory must connect there; that point is a stone, not territory.
       Repeated until no chain needs it (a connection can leave the merged chain short too).
    """
    geo = board.geometry
    black, white = board.black_bits, board.white_bits
    terr = {1: 0, 2: 0}
    for reg, owner in regions:
        if owner:
            terr[owner] |= reg
    near_both = neutral & geo.expand(black) & geo.expand(white)
    shared = 0
    for p in geo.points_of(near_both):
        i = geo.point_bit[p]
        if _cannot_fill(board, i, True, terr[1]) and _cannot_fill(board, i, False, terr[2]):
            shared |= 1 << i
    seki = 0
    if shared:
        for owner, bits in ((1, black), (2, white)):
            for ch in _chains(board, geo.expand(shared) & bits):
                group = board._flood(ch, bits | terr[owner])
                seki |= group & bits
    if not seki_points and seki:
        for reg, owner in regions:
            if owner and geo.expand(reg) & seki:
                terr[owner] &= ~reg
    dame = neutral & ~shared
    teire = 0
    work = board
    open_dame = dame
    changed = True
    while changed:
        changed = False
        # each dame goes to the colour that can fill it safely; when both can, it stays open
        # and each side must assume the other fills it
        both = 0
        for p in geo.points_of(open_dame):
            i = geo.point_bit[p]
            safe_b, safe_w = _can_fill(work, i, True), _can_fill(work, i, False)
            if safe_b and safe_w:
                both |= 1 << i
            elif safe_b or safe_w:
                b, w = work.black_bits, work.white_bits
                work = Board.from_bits(
                    geo.size, b | (1 << i) if safe_b else b, w | (1 << i) if safe_w else w
                )
                open_dame &= ~(1 << i)
                changed = True
        if changed:
            continue
        empty_now = geo.on_board & ~(work.black_bits | work.white_bits)
        for owner, black_side in ((1, True), (2, False)):
            own = work.black_bits if black_side else work.white_bits
            live = own & ~seki
            # an open dame next to two of the side's chains lets it connect them by filling it
            seen = links = 0
            for ch in _chains(work, live):
                near = geo.expand(ch) & both
                links |= seen & near
                seen |= near
            for unit in _chains(work, live | links):
                libs = geo.expand(unit) & empty_now & ~both
                if libs.bit_count() != 1 or not libs & terr[owner]:
                    continue
                # its last liberty is its own point: it must be played there (手入れ), when that
                # connects it to more stones or leads to more liberties (not a lone eye)
                joined = work._flood(unit | libs, live | libs | links)
                more = geo.expand(libs) & empty_now & ~both & ~libs
                if not (joined & own & ~unit or more):
                    continue
                b, w = work.black_bits, work.white_bits
                work = Board.from_bits(
                    geo.size, b | libs if black_side else b, w if black_side else w | libs
                )
                terr[owner] &= ~libs
                teire |= libs
                changed = True
                break
            if changed:
                break
    return terr[1], terr[2], seki, teire


def score_position(
    board: Board,
    rules: Rules,
    dead: frozenset[Point] | set[Point] = frozenset(),
    handicap: int = 0,
    captures: dict[Color, int] | None = None,
    warnings: dict[Color, int] | None = None,
) -> Score:
    """Count ``board`` with the stones in ``dead`` removed (Go §8, §9).

    ``captures`` are prisoners taken during play by each colour (used by territory scoring);
    ``warnings`` the warnings each colour received (Go §24.1: one stone off per warning).

    >>> from duiyi.go.rules import Rules
    >>> b = Board.from_diagram('''
    ... . . X O .
    ... . . X O .
    ... X X X O .
    ... O O O O .
    ... . . . . .''')
    >>> s = score_position(b, Rules.japanese())
    >>> s.black_area, s.white_area, s.margin
    (Fraction(4, 1), Fraction(9, 1), Fraction(-23, 2))
    """
    geo = board.geometry
    on = geo.on_board
    dead_bits = geo.bits_of(dead) & (board.black_bits | board.white_bits)
    black = board.black_bits & ~dead_bits
    white = board.white_bits & ~dead_bits
    empty = on & ~(black | white)
    b_terr = w_terr = neutral = 0
    regions: list[tuple[int, int]] = []  # (region, owner: 1 black, 2 white, 0 neutral)
    rest = empty
    while rest:
        reg = board._flood(rest & -rest, empty)
        rest &= ~reg
        border = geo.expand(reg) & ~reg
        tb, tw = bool(border & black), bool(border & white)
        owner = 1 if tb and not tw else 2 if tw and not tb else 0
        regions.append((reg, owner))
        if owner == 0:
            neutral |= reg
    teire = seki = 0
    if rules.scoring is Scoring.TERRITORY:
        b_terr, w_terr, seki, teire = _territory(
            Board.from_bits(geo.size, black, white), regions, neutral, rules.seki_points
        )
    else:
        for reg, owner in regions:
            if owner == 1:
                b_terr |= reg
            elif owner == 2:
                w_terr |= reg

    nb, nw = black.bit_count(), white.bit_count()
    tb_n, tw_n, nn = b_terr.bit_count(), w_terr.bit_count(), neutral.bit_count()
    caps = captures or {}
    warns = warnings or {}
    komi, hret = rules.compensation(handicap)
    warn_units = Fraction(warns.get(BLACK, 0) - warns.get(WHITE, 0)) * 2 / rules.unit_points
    dead_black = (dead_bits & board.black_bits).bit_count()
    dead_white = (dead_bits & board.white_bits).bit_count()
    if rules.scoring is Scoring.TERRITORY:
        bp = caps.get(BLACK, 0) + dead_white
        wp = caps.get(WHITE, 0) + dead_black
        b_area = Fraction(tb_n + bp)
        w_area = Fraction(tw_n + wp)
    else:
        bp, wp = caps.get(BLACK, 0), caps.get(WHITE, 0)
        b_area = Fraction(nb + tb_n) + Fraction(nn, 2)
        w_area = Fraction(nw + tw_n) + Fraction(nn, 2)
    pts = geo.points_of
    return Score(
        scoring=rules.scoring,
        black_area=b_area,
        white_area=w_area,
        komi=komi,
        handicap_return=hret,
        warnings_deduction=warn_units,
        black_stones=nb,
        white_stones=nw,
        black_prisoners=bp,
        white_prisoners=wp,
        black_territory=frozenset(pts(b_terr)),
        white_territory=frozenset(pts(w_terr)),
        neutral=frozenset(pts(neutral)),
        dead=frozenset(pts(dead_bits)),
        teire=frozenset(pts(teire)),
        seki=frozenset(pts(seki)),
    )
