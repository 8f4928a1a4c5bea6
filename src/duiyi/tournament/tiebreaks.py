"""Tiebreaks: named, composable functions of a :class:`~duiyi.tournament.results.Table`.

Each tiebreak is a :class:`Tiebreak`: a name, the article it comes from, and a function that
maps every competitor of a tie group to a value (higher ranks first). Most ignore the group; the
direct encounter looks only at games inside it. Plain functions of one competitor are exported
too (``sonneborn_berger(table, 3)``).

Byes score as a win but are left out of every opponents' sum (DECISIONS: Tournaments); void
games (Go §28.2, Gomoku §18.5) never reach the table.

>>> from duiyi.tournament.results import GameResult, Scoring, Table
>>> t = Table.from_games([(1, 1, 2, GameResult.BLACK_WINS), (2, 3, 1, GameResult.DRAW),
...                       (3, 2, 3, GameResult.WHITE_WINS)], Scoring.go(), rounds=3)
>>> [sonneborn_berger(t, p) for p in (1, 2, 3)]
[Fraction(3, 2), Fraction(0, 1), Fraction(3, 2)]
>>> SB.values(t, [1, 3])
{1: Fraction(3, 2), 3: Fraction(3, 2)}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from duiyi.errors import InvalidInput, TournamentError
from duiyi.tournament.results import SideResult, Table

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
    "Tiebreak",
    "average_opponent_rating",
    "board_points",
    "boards",
    "buchholz",
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

    def shown(self, value: Fraction) -> Fraction:
        """The value as a wall chart prints it.

        >>> WARNINGS.shown(Fraction(-1))
        Fraction(1, 1)
        """
        return value * self.display_sign

    def values(self, table: Table, group: Sequence[int]) -> dict[int, Fraction]:
        """The criterion's value for each competitor of ``group``."""
        found = self.function(table, group)
        return {c: found[c] for c in group}

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
    for e in table.records(competitor):
        if e.side is SideResult.LOSS:
            lost += 1
            if lost >= lives:
                return Fraction(e.round)
    return Fraction(table.rounds + 1)


POINTS = Tiebreak("points", "积分 points", "Go §27.1, Gomoku §18.1", _each(points))
SB = Tiebreak("sb", "SB 胜者小分", "Go §27.1(1)A", _each(sonneborn_berger))
WARNINGS = Tiebreak(
    "warnings", "警告 warnings (fewer first)", "Go §27.1(1)B", _each(warnings), display_sign=-1
)
TOTAL_SCORE = Tiebreak("total-score", "总得分 total score", "Go §27.1(2)A", _each(total_score))
BUCHHOLZ = Tiebreak("buchholz", "对手分 opponents' score", "Go §27.1(2)B", _each(buchholz))
MEDIAN_BUCHHOLZ = Tiebreak(
    "median-buchholz", "中间对手分 median Buchholz", "Gomoku §18.4(1)C", _each(median_buchholz)
)
AVERAGE_OPPONENT_RATING = Tiebreak(
    "aro", "对手平均等级分 average opponent rating", "Gomoku §18.4(1)A",
    _each(average_opponent_rating),
)  # fmt: skip
WINS = Tiebreak("wins", "胜局 wins", "Gomoku §18.3(1)B", _each(wins))
DIRECT_ENCOUNTER = Tiebreak("direct", "直接对局 direct encounter", "", direct_encounter)
GAME_POINTS = Tiebreak("game-points", "局分 game points", "Go §27.2(1)", _each(game_points))
TEAM_SB = Tiebreak("team-sb", "小分 team SB", "Gomoku §18.3(2)B", _each(team_sonneborn_berger))
MMS = Tiebreak("mms", "McMahon score MMS", _MCMAHON, _each(mcmahon_score))
SOS = Tiebreak("sos", "SOS (opponents' MMS)", _MCMAHON, _each(sos))
SOSOS = Tiebreak("sosos", "SOSOS (opponents' SOS)", _MCMAHON, _each(sosos))


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

    return Tiebreak(f"board:{number}", f"第{number}台 board {number}", "Go §27.2(1)", _each(fn))


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

    return Tiebreak(f"eliminated:{lives}", "淘汰轮次 round eliminated", "Gomoku §18.2", _each(fn))


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
    raise TournamentError(f"unknown tiebreak {name!r} (known: {known})")
