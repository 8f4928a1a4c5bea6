"""Tiebreaks: named, composable functions of a :class:`~duiyi.tournament.results.Table`.

Each tiebreak is a :class:`Tiebreak`: a name, the article it comes from, and a function that
maps every competitor of a tie group to a value (higher ranks first). Most ignore the group; the
direct encounter looks only at games inside it. Plain functions of one competitor are exported
too (``sonneborn_berger(table, 3)``).

Byes score as a win but are left out of every opponents' sum (DECISIONS: Tournaments); void
games (Go §28.2, Gomoku §18.5) never reach the table.

Standings compute each criterion once for the whole field (:meth:`Tiebreak.vector`): through
its ``field`` function when it has one (exact integers over :class:`Columns`, linear in the
games), else through its definition over every competitor. A new or parameterised criterion
(a factory such as :func:`median_buchholz_cut` or :func:`board`) needs only its definition;
a ``field`` function is an optional fast path, checked against the definition by
``tests/tournament/test_standings_fast.py``.

>>> from duiyi.tournament.results import GameResult, Scoring, Table
>>> t = Table.from_games([(1, 1, 2, GameResult.BLACK_WINS), (2, 3, 1, GameResult.DRAW),
...                       (3, 2, 3, GameResult.WHITE_WINS)], Scoring.go(), rounds=3)
>>> [sonneborn_berger(t, p) for p in (1, 2, 3)]
[Fraction(3, 2), Fraction(0, 1), Fraction(3, 2)]
>>> SB.values(t, [1, 3])
{1: Fraction(3, 2), 3: Fraction(3, 2)}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from duiyi import Color
from duiyi.errors import InvalidInput, TournamentError
from duiyi.tournament.results import Encounter, SideResult, Table

__all__ = [
    "AVERAGE_OPPONENT_RATING",
    "BUCHHOLZ",
    "DIRECT_ENCOUNTER",
    "GAME_POINTS",
    "MEDIAN_BUCHHOLZ",
    "MMS",
    "POINTS",
    "SB",
    "SOS",
    "SOSOS",
    "TEAM_SB",
    "TOTAL_SCORE",
    "WARNINGS",
    "WINS",
    "Columns",
    "Row",
    "Tiebreak",
    "Vector",
    "average_opponent_rating",
    "board_points",
    "boards",
    "buchholz",
    "columns",
    "direct_encounter",
    "elimination_round",
    "mcmahon_score",
    "median_buchholz",
    "opponents",
    "parse_tiebreak",
    "sonneborn_berger",
    "sos",
    "sosos",
    "team_sonneborn_berger",
    "total_score",
    "warnings",
    "wins",
]

GroupFunction = Callable[[Table, Sequence[int]], Mapping[int, Fraction]]
#: (round, opponent or None for a bye, side, points × scale, colour, played, warnings)
Row = tuple[int, int | None, SideResult, int, Color | None, bool, int]


@dataclass(frozen=True)
class Vector:
    """A criterion's value for every competitor of a table. With ``scale`` > 0 the values are
    integers in units of 1/``scale`` (exact, compared as integers: the whole field is ranked
    without a single fraction); with ``scale`` 0 they are the values themselves.

    >>> Vector({1: 3, 2: 4}, 2).fractions([1, 2])
    {1: Fraction(3, 2), 2: Fraction(2, 1)}
    """

    values: Mapping[int, Any]
    scale: int

    def fractions(self, group: Sequence[int]) -> dict[int, Fraction]:
        """The exact values of ``group``."""
        if not self.scale:
            return {c: Fraction(self.values[c]) for c in group}
        made: dict[int, Fraction] = {}
        out: dict[int, Fraction] = {}
        for c in group:
            v = self.values[c]
            f = made.get(v)
            if f is None:
                f = made[v] = Fraction(v, self.scale)
            out[c] = f
        return out


class Columns(Mapping[int, tuple[Encounter, ...]]):
    """Every competitor's record as plain rows of integers, the form the whole-field criteria
    read; as a mapping it gives each competitor's :class:`Encounter` tuple, built on demand
    (or the source table's own, when it was built from one).

    ``scale`` is a common denominator of every points value: ``rows`` hold points × scale,
    ``points`` their sum; ``opponents`` lists the opponents met (byes left out, forfeits
    kept), ``warnings`` the warnings over the event.
    """

    def __init__(
        self,
        rows: dict[int, list[Row]] | Callable[[], dict[int, list[Row]]],
        scale: int,
        points: dict[int, int] | None = None,
        opponents: dict[int, list[int]] | None = None,
        warnings: dict[int, int] | None = None,
        source: Mapping[int, tuple[Encounter, ...]] | None = None,
    ) -> None:
        self._rows = rows if isinstance(rows, dict) else None
        self._make_rows = None if isinstance(rows, dict) else rows
        self.scale = scale
        if points is None:
            points = {c: sum(r[3] for r in rs) for c, rs in self.rows.items()}
        if opponents is None:
            opponents = {c: [r[1] for r in rs if r[1] is not None] for c, rs in self.rows.items()}
        self.points = points
        self.opponents = opponents
        self._warnings = warnings
        self._source = source
        self._built: dict[int, tuple[Encounter, ...]] = {}
        self._memos: dict[int, tuple[Table, dict[Any, Any]]] = {}

    @property
    def rows(self) -> dict[int, list[Row]]:
        """Every competitor's rows in round order (made on first use when given as a
        function: the criteria of the usual chains need only points, opponents, warnings)."""
        if self._rows is None:
            assert self._make_rows is not None
            self._rows = self._make_rows()
        return self._rows

    def __getitem__(self, competitor: int) -> tuple[Encounter, ...]:
        if self._source is not None:
            return self._source[competitor]
        found = self._built.get(competitor)
        if found is None:
            made: dict[int, Fraction] = {}
            out = []
            for rnd, opp, side, pts, colour, played, warns in self.rows[competitor]:
                f = made.get(pts)
                if f is None:
                    f = made[pts] = Fraction(pts, self.scale)
                out.append(Encounter(rnd, opp, side, f, colour, played, warns))
            found = self._built[competitor] = tuple(out)
        return found

    def __contains__(self, competitor: object) -> bool:
        if self._source is not None:
            return competitor in self._source
        return competitor in self.points  # without building the encounters

    def __iter__(self) -> Iterator[int]:
        return iter(self.points if self._source is None else self._source)

    def __len__(self) -> int:
        return len(self.points if self._source is None else self._source)

    def memo(self, table: Table) -> dict[Any, Any]:
        """Values already computed for ``table`` (a table shares its rows with the copies
        ``dataclasses.replace`` makes of it, not its other fields)."""
        found = self._memos.get(id(table))
        if found is None or found[0] is not table:
            found = self._memos[id(table)] = (table, {})
        return found[1]

    def warnings(self) -> dict[int, int]:
        """Warnings over the event, by competitor."""
        if self._warnings is None:
            self._warnings = {c: sum(r[6] for r in rs) for c, rs in self.rows.items()}
        return self._warnings

    @classmethod
    def of_table(cls, table: Table) -> Columns:
        """The rows of a table built from encounters (the slow path, once per table)."""
        denominators = {e.points.denominator for es in table.encounters.values() for e in es}
        scale = math.lcm(1, *denominators)
        rows = {
            c: [
                (
                    e.round,
                    e.opponent,
                    e.side,
                    e.points.numerator * (scale // e.points.denominator),
                    e.color,
                    e.played,
                    e.warnings,
                )
                for e in table.records(c)
            ]
            for c in table.competitors
        }
        return cls(rows, scale, source=table.encounters)


_COLUMNS: dict[int, tuple[Table, Columns]] = {}


def columns(table: Table) -> Columns:
    """The table's records as :class:`Columns`: its own when it was built as columns (see
    :func:`duiyi.tournament.systems.base.player_table`), else made once and kept for the
    last few tables asked about.

    >>> columns(_example()).points[5], columns(_example()).scale
    (6, 1)
    """
    if isinstance(table.encounters, Columns):
        return table.encounters
    found = _COLUMNS.get(id(table))
    if found is not None and found[0] is table:
        return found[1]
    cols = Columns.of_table(table)
    if len(_COLUMNS) >= 8:
        del _COLUMNS[next(iter(_COLUMNS))]
    _COLUMNS[id(table)] = (table, cols)
    return cols


FieldFunction = Callable[[Table, Columns], Vector]


def _sum_over_opponents(cols: Columns, of: Mapping[int, int]) -> dict[int, int]:
    """Σ ``of[o]`` over each competitor's opponents (0 for one ``of`` does not know)."""
    get = of.__getitem__
    out = {}
    for c, opps in cols.opponents.items():
        try:
            out[c] = sum(map(get, opps))
        except KeyError:
            out[c] = sum(of.get(o, 0) for o in opps)
    return out


def _field_points(table: Table, cols: Columns) -> Vector:
    return Vector(cols.points, cols.scale)


def _field_buchholz(table: Table, cols: Columns) -> Vector:
    return Vector(_sum_over_opponents(cols, cols.points), cols.scale)


def _field_total_score(table: Table, cols: Columns) -> Vector:
    """points + Σ opp / (win × R / 2) − R, times D × wn × R (D the points' scale, win =
    wn / wd): p·wn·R + 2·b·wd − R·D·wn·R in integers."""
    rounds = table.rounds
    if rounds <= 0:
        return _field_points(table, cols)
    d = cols.scale
    wn, wd = table.scoring.win.numerator, table.scoring.win.denominator
    b = BUCHHOLZ.vector(table).values
    const = rounds * d * wn * rounds
    values = {c: p * wn * rounds + 2 * b[c] * wd - const for c, p in cols.points.items()}
    return Vector(values, d * wn * rounds)


def _mms(table: Table, cols: Columns) -> tuple[dict[int, int], int]:
    """McMahon scores of the competitors and of anyone with an initial score, scaled: initial
    + points / win, times D × wn × Di (Di the initial scores' common denominator)."""
    d = cols.scale
    wn, wd = table.scoring.win.numerator, table.scoring.win.denominator
    di = math.lcm(1, *(v.denominator for v in table.initial.values()))
    scale = d * wn * di
    out = {c: v.numerator * (scale // v.denominator) for c, v in table.initial.items()}
    for c, p in cols.points.items():
        out[c] = out.get(c, 0) + p * wd * di
    return out, scale


def _field_mms(table: Table, cols: Columns) -> Vector:
    mms, scale = _mms(table, cols)
    return Vector({c: mms[c] for c in cols.points}, scale)


def _field_sos(table: Table, cols: Columns) -> Vector:
    mms, scale = _mms(table, cols)
    return Vector(_sum_over_opponents(cols, mms), scale)


def _field_sosos(table: Table, cols: Columns) -> Vector:
    sos = SOS.vector(table)
    return Vector(_sum_over_opponents(cols, sos.values), sos.scale)


def _field_sb(table: Table, cols: Columns) -> Vector:
    pts = cols.points
    out: dict[int, int] = {}
    win, draw = SideResult.WIN, SideResult.DRAW
    for c, rs in cols.rows.items():
        total = 0
        for r in rs:
            o = r[1]
            if o is None:
                continue
            if r[2] is win:
                total += 2 * pts.get(o, 0)
            elif r[2] is draw:
                total += pts.get(o, 0)
        out[c] = total
    return Vector(out, 2 * cols.scale)


def _field_warnings(table: Table, cols: Columns) -> Vector:
    return Vector({c: -w for c, w in cols.warnings().items()}, 1)


def _field_wins(table: Table, cols: Columns) -> Vector:
    win = SideResult.WIN
    return Vector({c: sum(1 for r in rs if r[2] is win) for c, rs in cols.rows.items()}, 1)


def _field_median(cut_highest: int, cut_lowest: int) -> FieldFunction:
    def fn(table: Table, cols: Columns) -> Vector:
        pts = cols.points
        out = {}
        for c, opps in cols.opponents.items():
            scores = sorted(pts.get(o, 0) for o in opps)
            out[c] = sum(scores[cut_lowest : len(scores) - cut_highest])
        return Vector(out, cols.scale)

    return fn


def _field_elimination(lives: int) -> FieldFunction:
    def fn(table: Table, cols: Columns) -> Vector:
        loss = SideResult.LOSS
        out = {}
        lots = table.lots_lost
        for c, rs in cols.rows.items():
            by_lot = lots.get(c, ())  # a drawn game lost by lot (抽签) is out all the same
            lost = [r[0] for r in rs if r[2] is loss or (r[1] is not None and r[0] in by_lot)]
            out[c] = lost[lives - 1] if len(lost) >= lives else table.rounds + 1
        return Vector(out, 1)

    return fn


def _example() -> Table:
    """A three-round Swiss of five with byes, Go points (used by the examples below).

    Round 1: 1–2 1-0, 3–4 0-1, 5 bye; round 2: 4–1 draw, 5–2 1-0, 3 bye; round 3: 1–5 0-1,
    2–3 1-0, 4 bye. Points: 1 → 3, 2 → 2, 3 → 2, 4 → 5, 5 → 6. Player 5 is unrated.
    """
    from duiyi.tournament.results import GameResult, Scoring

    b, w, d = GameResult.BLACK_WINS, GameResult.WHITE_WINS, GameResult.DRAW
    games = [(1, 1, 2, b), (1, 3, 4, w), (2, 4, 1, d), (2, 5, 2, b), (3, 1, 5, w), (3, 2, 3, b)]
    return Table.from_games(
        games,
        Scoring.go(),
        rounds=3,
        byes=[(1, 5), (2, 3), (3, 4)],
        ratings={1: 2300, 2: 2200, 3: 2100, 4: 2000, 5: None},
        warnings={(2, 4): 1},
    )


@dataclass(frozen=True)
class Tiebreak:
    """A named criterion; ``values`` gives each member of a tie group its value (higher first).

    >>> WARNINGS.name, WARNINGS.article
    ('warnings', 'Go §27.1(1)B')
    """

    name: str
    label: str
    article: str
    function: GroupFunction
    # values are compared higher-first; a criterion where fewer is better (warnings) stores
    # the negated count and shows it with this sign flipped back
    display_sign: int = 1
    # the whole field at once, in integers (see Vector); None: ``function`` over the field
    field: FieldFunction | None = None
    # the value depends on the tie group (direct encounter), not only on the competitor
    by_group: bool = False
    # the article of each game's book, by game name ("go", "gomoku"); a game absent here has
    # a book silent on the criterion. Empty: ``article`` whatever the game (an option).
    books: tuple[tuple[str, str], ...] = ()

    def cited(self, game: str) -> str:
        """The article of ``game``'s book for this criterion ("" when that book is silent),
        so that a page never cites the other game's book.

        >>> SB.cited("go"), SB.cited("gomoku"), WARNINGS.cited("gomoku"), MMS.cited("go")
        ('Go §27.1(1)A', 'Gomoku §18.3(1)A', '', 'McMahon (international Go option)')
        """
        return dict(self.books).get(game, "") if self.books else self.article

    def shown(self, value: Fraction) -> Fraction:
        """The value as a wall chart prints it.

        >>> WARNINGS.shown(Fraction(-1))
        Fraction(1, 1)
        """
        return value if self.display_sign == 1 else value * self.display_sign

    def values(self, table: Table, group: Sequence[int]) -> dict[int, Fraction]:
        """The criterion's value for each competitor of ``group``."""
        if self.field is not None and not self.by_group:
            return self.vector(table).fractions(group)
        found = self.function(table, group)
        return {c: found[c] for c in group}

    def vector(self, table: Table) -> Vector:
        """The criterion over the whole field of ``table`` (not for ``by_group`` criteria),
        computed once per table."""
        cols = columns(table)
        memo = cols.memo(table)
        found = memo.get(self)  # by the criterion itself: a name may carry other parameters
        if not isinstance(found, Vector):
            if self.field is not None:
                found = self.field(table, cols)
            else:
                every = self.function(table, table.competitors)
                found = Vector({c: every[c] for c in table.competitors}, 0)
            memo[self] = found
        return found

    def __repr__(self) -> str:
        return f"Tiebreak({self.name!r})"


def _each(function: Callable[[Table, int], Fraction]) -> GroupFunction:
    def by_group(table: Table, group: Sequence[int]) -> Mapping[int, Fraction]:
        return {c: function(table, c) for c in group}

    return by_group


def opponents(table: Table, competitor: int) -> list[int]:
    """The opponents met, one entry per encounter (byes left out, forfeits kept).

    >>> from duiyi.tournament.results import GameResult, Scoring
    >>> t = Table.from_games([(1, 1, 2, GameResult.FORFEIT_WHITE)], Scoring.go(), rounds=2,
    ...                      byes=[(2, 1)])
    >>> opponents(t, 1)
    [2]
    """
    return [e.opponent for e in table.records(competitor) if e.opponent is not None]


def points(table: Table, competitor: int) -> Fraction:
    """Points (积分; match points for teams), byes included.
    >>> [points(_example(), p) for p in (1, 4, 5)]
    [Fraction(3, 1), Fraction(5, 1), Fraction(6, 1)]
    """
    return table.points(competitor)


def sonneborn_berger(table: Table, competitor: int) -> Fraction:
    """SB, 胜者小分 (Go §27.1(1)A, Gomoku §18.3(1)A).

    The points of every opponent beaten plus half the points of every opponent drawn with.
    Forfeit wins count as wins; a bye has no opponent and adds nothing.

    >>> sonneborn_berger(_example(), 1)  # beat 2 (2) + ½ × drew 4 (5)
    Fraction(9, 2)
    """
    total = Fraction(0)
    for e in table.records(competitor):
        if e.opponent is None:
            continue
        if e.side is SideResult.WIN:
            total += table.points(e.opponent)
        elif e.side is SideResult.DRAW:
            total += table.points(e.opponent) / 2
    return total


def warnings(table: Table, competitor: int) -> Fraction:
    """Warnings over the whole event, negated so that fewer ranks first (Go §27.1(1)B).
    >>> warnings(_example(), 4), warnings(_example(), 1)
    (Fraction(-1, 1), Fraction(0, 1))
    """
    return -Fraction(sum(e.warnings for e in table.records(competitor)))


def buchholz(table: Table, competitor: int) -> Fraction:
    """Opponents' score, 对手分 (Go §27.1(2)B, Gomoku §18.4(1)B): the sum of opponents' points.
    >>> buchholz(_example(), 1)  # opponents 2, 4, 5: 2 + 5 + 6
    Fraction(13, 1)
    """
    return sum((table.points(o) for o in opponents(table, competitor)), Fraction(0))


def median_buchholz(
    table: Table, competitor: int, cut_highest: int = 1, cut_lowest: int = 1
) -> Fraction:
    """Median Buchholz, 中间对手分 (Gomoku §18.4(1)C).

    The opponents' points without the ``cut_highest`` best and ``cut_lowest`` worst opponents.
    When fewer opponents remain than are cut, the value is 0.

    >>> median_buchholz(_example(), 1), median_buchholz(_example(), 1, 0, 1)
    (Fraction(5, 1), Fraction(11, 1))
    """
    scores = sorted(table.points(o) for o in opponents(table, competitor))
    kept = scores[cut_lowest : len(scores) - cut_highest]
    return sum(kept, Fraction(0))


def total_score(table: Table, competitor: int) -> Fraction:
    """Total score, 总得分 (Go §27.1(2)A).

    total = points + (sum of opponents' points / (½ × highest attainable points) − rounds), with
    highest attainable points = win points × rounds (DECISIONS: Tournaments). In Go points,
    ½ × highest = rounds, so the bracket is the opponents' average score minus the score of a
    player who won half his games. Byes are left out of the opponents' sum.

    >>> from duiyi.tournament.results import GameResult, Scoring
    >>> t = Table.from_games([(1, 1, 2, GameResult.BLACK_WINS)], Scoring.go(), rounds=1)
    >>> total_score(t, 1), total_score(t, 2)
    (Fraction(1, 1), Fraction(1, 1))
    """
    rounds = table.rounds
    if rounds <= 0:
        return table.points(competitor)
    half_highest = table.scoring.win * rounds / 2
    return table.points(competitor) + (buchholz(table, competitor) / half_highest - rounds)


def average_opponent_rating(table: Table, competitor: int) -> Fraction:
    """Average rating of the opponents met, 对手平均等级分 (Gomoku §18.4(1)A).

    Unrated opponents and byes are left out; with no rated opponent the value is 0.

    >>> average_opponent_rating(_example(), 5)  # opponents 2 (2200) and 1 (2300)
    Fraction(2250, 1)
    """
    rated = [r for o in opponents(table, competitor) if (r := table.rating(o)) is not None]
    if not rated:
        return Fraction(0)
    return Fraction(sum(rated), len(rated))


def wins(table: Table, competitor: int) -> Fraction:
    """Games won, 胜局 (Gomoku §18.3(1)B, §18.4(1)D); a bye scores as a win and counts as one.
    >>> wins(_example(), 4)  # beat 3, and the bye
    Fraction(2, 1)
    """
    return Fraction(sum(1 for e in table.records(competitor) if e.side is SideResult.WIN))


def game_points(table: Table, competitor: int) -> Fraction:
    """A team's game points, 局分 (Go §27.2(1), Gomoku §18.3(2)A).
    >>> game_points(_example(), 1)  # for a player, the points themselves
    Fraction(3, 1)
    """
    return sum(
        (e.game_points or Fraction(0) for e in table.records(competitor)),
        Fraction(0),
    )


def board_points(table: Table, competitor: int, board: int) -> Fraction:
    """A team's game points on one board (1-based), 台次 (Go §27.2(1), Gomoku §18.3(2)C).
    >>> board_points(_example(), 1, 1)  # players have no boards
    Fraction(0, 1)
    """
    total = Fraction(0)
    for e in table.records(competitor):
        if len(e.board_points) >= board:
            total += e.board_points[board - 1]
    return total


def team_sonneborn_berger(table: Table, competitor: int) -> Fraction:
    """Team SB (Gomoku §18.3(2)B): over the teams met, score rate against it × that team's score.

    The score rate is the share of the match's game points this team took.

    >>> team_sonneborn_berger(_example(), 1)  # 1 × 2 + ½ × 5 + 0 × 6
    Fraction(9, 2)
    """
    total = Fraction(0)
    for e in table.records(competitor):
        if e.opponent is None:
            continue
        rate = e.score_rate
        if rate is None:
            rate = {SideResult.WIN: Fraction(1), SideResult.DRAW: Fraction(1, 2)}.get(
                e.side, Fraction(0)
            )
        total += rate * table.points(e.opponent)
    return total


def direct_encounter(table: Table, group: Sequence[int]) -> dict[int, Fraction]:
    """Points scored in the games among the members of a tie group (直接对局).

    >>> from duiyi.tournament.results import GameResult, Scoring
    >>> t = Table.from_games([(1, 1, 2, GameResult.WHITE_WINS), (1, 3, 4, GameResult.DRAW)],
    ...                      Scoring.go(), rounds=1)
    >>> direct_encounter(t, [1, 2, 3])
    {1: Fraction(0, 1), 2: Fraction(2, 1), 3: Fraction(0, 1)}
    """
    members = set(group)
    return {
        c: sum(
            (e.points for e in table.records(c) if e.opponent in members),
            Fraction(0),
        )
        for c in group
    }


_MCMAHON = "McMahon (international Go option)"


def mcmahon_score(table: Table, competitor: int) -> Fraction:
    """McMahon score (MMS): initial score from the rank plus wins (½ a draw, a bye as a win).

    The books know no McMahon score; it is the ranking of the international McMahon option
    (see :mod:`duiyi.tournament.pairing.mcmahon`). Without initial scores it is the wins.

    >>> import dataclasses
    >>> t = dataclasses.replace(_example(), initial={1: Fraction(2), 4: Fraction(0)})
    >>> mcmahon_score(t, 1), mcmahon_score(t, 4)  # 2 + 1½ wins; 2½ wins
    (Fraction(7, 2), Fraction(5, 2))
    """
    return table.mcmahon_score(competitor)


def sos(table: Table, competitor: int) -> Fraction:
    """Sum of opponents' McMahon scores (SOS, the Buchholz of McMahon scores); byes left out
    like every opponents' sum here (DECISIONS: Tournaments).

    >>> import dataclasses
    >>> t = dataclasses.replace(_example(), initial={2: Fraction(10)})
    >>> sos(t, 1)  # opponents 2 (10 + 1), 4 (2½), 5 (3)
    Fraction(33, 2)
    """
    return sum((table.mcmahon_score(o) for o in opponents(table, competitor)), Fraction(0))


def sosos(table: Table, competitor: int) -> Fraction:
    """Sum of opponents' SOS (SOSOS), the usual McMahon tiebreak after SOS.

    >>> sosos(_example(), 3)  # opponents 4 (SOS 1 + 1½) and 2 (SOS 1½ + 3 + 1), in wins
    Fraction(8, 1)
    """
    return sum((sos(table, o) for o in opponents(table, competitor)), Fraction(0))


def elimination_round(table: Table, competitor: int, lives: int = 1) -> Fraction:
    """The round a competitor was knocked out, or rounds + 1 when still in (Gomoku §18.2).

    ``lives`` is 1 for single elimination, 2 for double: the later eliminated ranks first.

    >>> elimination_round(_example(), 1), elimination_round(_example(), 4)
    (Fraction(3, 1), Fraction(4, 1))
    """
    lost = 0
    by_lot = table.lots_lost.get(competitor, ())
    for e in table.records(competitor):
        if e.side is SideResult.LOSS or (e.opponent is not None and e.round in by_lot):
            lost += 1
            if lost >= lives:
                return Fraction(e.round)
    return Fraction(table.rounds + 1)


POINTS = Tiebreak(
    "points", "积分 points", "Go §27.1, Gomoku §18.1", _each(points), field=_field_points,
    books=(("go", "Go §27.1"), ("gomoku", "Gomoku §18.1")),
)  # fmt: skip
SB = Tiebreak(
    "sb", "SB 胜者小分", "Go §27.1(1)A", _each(sonneborn_berger), field=_field_sb,
    books=(("go", "Go §27.1(1)A"), ("gomoku", "Gomoku §18.3(1)A")),
)  # fmt: skip
WARNINGS = Tiebreak(
    "warnings",
    "警告 warnings (fewer first)",
    "Go §27.1(1)B",
    _each(warnings),
    display_sign=-1,
    field=_field_warnings,
    books=(("go", "Go §27.1(1)B"),),
)
TOTAL_SCORE = Tiebreak(
    "total-score", "总得分 total score", "Go §27.1(2)A", _each(total_score),
    field=_field_total_score, books=(("go", "Go §27.1(2)A"),),
)  # fmt: skip
BUCHHOLZ = Tiebreak(
    "buchholz", "对手分 opponents' score", "Go §27.1(2)B", _each(buchholz),
    field=_field_buchholz, books=(("go", "Go §27.1(2)B"), ("gomoku", "Gomoku §18.4(1)B")),
)  # fmt: skip
MEDIAN_BUCHHOLZ = Tiebreak(
    "median-buchholz", "中间对手分 median Buchholz", "Gomoku §18.4(1)C", _each(median_buchholz),
    field=_field_median(1, 1), books=(("gomoku", "Gomoku §18.4(1)C"),),
)  # fmt: skip
AVERAGE_OPPONENT_RATING = Tiebreak(
    "aro", "对手平均等级分 average opponent rating", "Gomoku §18.4(1)A",
    _each(average_opponent_rating), books=(("gomoku", "Gomoku §18.4(1)A"),),
)  # fmt: skip
WINS = Tiebreak(
    "wins", "胜局 wins", "Gomoku §18.3(1)B", _each(wins), field=_field_wins,
    books=(("gomoku", "Gomoku §18.3(1)B, §18.4(1)D"),),
)  # fmt: skip
DIRECT_ENCOUNTER = Tiebreak(
    "direct", "直接对局 direct encounter", "", direct_encounter, by_group=True
)
GAME_POINTS = Tiebreak(
    "game-points", "局分 game points", "Go §27.2(1)", _each(game_points),
    books=(("go", "Go §27.2(1)"), ("gomoku", "Gomoku §18.3(2)A")),
)  # fmt: skip
TEAM_SB = Tiebreak(
    "team-sb", "小分 team SB", "Gomoku §18.3(2)B", _each(team_sonneborn_berger),
    books=(("gomoku", "Gomoku §18.3(2)B"),),
)  # fmt: skip
MMS = Tiebreak("mms", "McMahon score MMS", _MCMAHON, _each(mcmahon_score), field=_field_mms)
SOS = Tiebreak("sos", "SOS (opponents' MMS)", _MCMAHON, _each(sos), field=_field_sos)
SOSOS = Tiebreak("sosos", "SOSOS (opponents' SOS)", _MCMAHON, _each(sosos), field=_field_sosos)


def median_buchholz_cut(cut_highest: int, cut_lowest: int) -> Tiebreak:
    """A median Buchholz that cuts ``cut_highest`` best and ``cut_lowest`` worst opponents.

    >>> median_buchholz_cut(2, 0).name
    'median-buchholz:2:0'
    """
    if cut_highest < 0 or cut_lowest < 0:
        raise InvalidInput("median Buchholz cuts a non-negative number of opponents")

    def fn(table: Table, c: int) -> Fraction:
        return median_buchholz(table, c, cut_highest, cut_lowest)

    return Tiebreak(
        f"median-buchholz:{cut_highest}:{cut_lowest}",
        f"中间对手分 median Buchholz (−{cut_highest} top, −{cut_lowest} bottom)",
        "Gomoku §18.4(1)C",
        _each(fn),
        field=_field_median(cut_highest, cut_lowest),
        books=(("gomoku", "Gomoku §18.4(1)C"),),
    )


def board(number: int) -> Tiebreak:
    """Game points on board ``number`` (Go §27.2(1), Gomoku §18.3(2)C).
    >>> board(2).name
    'board:2'
    """
    if number < 1:
        raise InvalidInput("boards are numbered from 1")

    def fn(table: Table, c: int) -> Fraction:
        return board_points(table, c, number)

    return Tiebreak(
        f"board:{number}", f"第{number}台 board {number}", "Go §27.2(1)", _each(fn),
        books=(("go", "Go §27.2(1)"), ("gomoku", "Gomoku §18.3(2)C")),
    )  # fmt: skip


def boards(count: int) -> tuple[Tiebreak, ...]:
    """Board-by-board comparison from board 1 to ``count`` (Go §27.2(1), Gomoku §18.3(2)C).

    >>> [t.name for t in boards(3)]
    ['board:1', 'board:2', 'board:3']
    """
    return tuple(board(n) for n in range(1, count + 1))


def elimination(lives: int) -> Tiebreak:
    """Later elimination ranks first (Gomoku §18.2); ``lives`` 1 single, 2 double elimination.
    >>> elimination(2).values(_example(), [2])  # 2 lost twice, the second in round 2
    {2: Fraction(2, 1)}
    """

    def fn(table: Table, c: int) -> Fraction:
        return elimination_round(table, c, lives)

    return Tiebreak(
        f"eliminated:{lives}",
        "淘汰轮次 round eliminated",
        "Gomoku §18.2",
        _each(fn),
        field=_field_elimination(lives),
        books=(("gomoku", "Gomoku §18.2"),),
    )


_NAMED: dict[str, Tiebreak] = {
    t.name: t
    for t in (
        POINTS,
        SB,
        WARNINGS,
        TOTAL_SCORE,
        BUCHHOLZ,
        MEDIAN_BUCHHOLZ,
        AVERAGE_OPPONENT_RATING,
        WINS,
        DIRECT_ENCOUNTER,
        GAME_POINTS,
        TEAM_SB,
        MMS,
        SOS,
        SOSOS,
    )
}


def parse_tiebreak(name: str) -> Tiebreak:
    """A tiebreak from its name, e.g. ``sb``, ``median-buchholz:1:1``, ``board:2``.

    >>> parse_tiebreak("median-buchholz:0:1").name
    'median-buchholz:0:1'
    >>> parse_tiebreak("elo")
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: unknown tiebreak 'elo' (known: aro, buchholz, direct, game-points, median-buchholz, mms, points, sb, sos, sosos, team-sb, total-score, warnings, wins, board:N, eliminated:N, median-buchholz:H:L)
    """
    key = name.strip().lower()
    if key in _NAMED:
        return _NAMED[key]
    head, _, rest = key.partition(":")
    try:
        if head == "median-buchholz" and rest:
            high, _, low = rest.partition(":")
            return median_buchholz_cut(int(high), int(low or 0))
        if head == "board" and rest:
            return board(int(rest))
        if head == "eliminated" and rest:
            return elimination(int(rest))
    except ValueError:
        pass
    known = ", ".join(sorted(_NAMED)) + ", board:N, eliminated:N, median-buchholz:H:L"
    raise TournamentError(
        f"unknown tiebreak {name!r} (known: {known})",
        code="unknown-tiebreak",
        values={"name": str(name)},
    )
