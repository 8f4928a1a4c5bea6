"""Team events (Go §25.2; Gomoku §16.2, §17.6): boards, lineups, Scheveningen, team totals.

The kinds of team competition, and what each needs from a pairing:

- fixed boards (分台定人制): each team's board order is fixed at entry and never changes;
  :func:`team_match` pairs board *i* against board *i*;
- boards with substitutes (分台换人制, Gomoku §16.2(2)): the roster (regulars and substitutes)
  has a fixed order; each match fields any of them, but never out of that order (1, 2, 5, 6 is
  fine, 1, 6, 2, 5 is not) — :func:`check_lineup` with ``ordered=True``;
- lineups per match (临场出人制 / 临时定台制): the captain names players and boards before each
  match, in any order — :func:`check_lineup` with ``ordered=False``;
- Scheveningen (全队轮赛制): every player of one team meets every player of the other —
  :func:`scheveningen`;
- team total (队员总分制): the team's score is the sum of its members' individual scores —
  :func:`team_totals`.

Colours on the boards (Gomoku §5.1(3)): the team that has the first move plays Black on the odd
boards, the other team on the even boards.

>>> [(p.board, p.black, p.white) for p in team_match([1, 2, 3, 4], [5, 6, 7, 8])]
[(1, 1, 5), (2, 6, 2), (3, 3, 7), (4, 8, 4)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from duiyi.errors import InvalidInput

from .common import Pairing, Round, check_players

__all__ = ["check_lineup", "scheveningen", "team_match", "team_totals"]

_ARTICLE = "Go §25.2"
Score = Fraction | int


def check_lineup(
    roster: Sequence[int], lineup: Sequence[int], boards: int, *, ordered: bool = True
) -> None:
    """Refuse a lineup that does not fit the roster.

    ``ordered=True`` (分台换人制): players keep their roster order on the boards.

    >>> check_lineup([1, 2, 3, 4, 5, 6], [1, 2, 5, 6], 4)
    >>> check_lineup([1, 2, 3, 4, 5, 6], [1, 6, 2, 5], 4)
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: lineup 1, 6, 2, 5 breaks the roster order: board 3 (2) comes before 6 in the roster (Gomoku §16.2(2))
    """
    check_players(list(roster), _ARTICLE)
    if len(lineup) != boards:
        raise InvalidInput(f"a lineup fills {boards} boards, got {len(lineup)} players", _ARTICLE)
    check_players(list(lineup), _ARTICLE)
    position = {p: i for i, p in enumerate(roster)}
    for p in lineup:
        if p not in position:
            raise InvalidInput(f"player {p} is not on the team's roster", _ARTICLE)
    if ordered:
        for k in range(1, len(lineup)):
            if position[lineup[k]] < position[lineup[k - 1]]:
                shown = ", ".join(str(p) for p in lineup)
                raise InvalidInput(
                    f"lineup {shown} breaks the roster order: board {k + 1} ({lineup[k]}) "
                    f"comes before {lineup[k - 1]} in the roster",
                    "Gomoku §16.2(2)",
                )


def team_match(
    first: Sequence[int], second: Sequence[int], *, first_has_black_on_odd: bool = True
) -> tuple[Pairing, ...]:
    """Board *i* of ``first`` against board *i* of ``second``; ``first`` (the team with the
    first move) has Black on odd boards, ``second`` on even boards (Gomoku §5.1(3)).

    >>> [p.black for p in team_match([1, 2], [3, 4], first_has_black_on_odd=False)]
    [3, 2]
    """
    if len(first) != len(second):
        raise InvalidInput(
            f"teams field {len(first)} and {len(second)} players; boards must match", _ARTICLE
        )
    check_players([*first, *second], _ARTICLE)
    out: list[Pairing] = []
    for board, (a, b) in enumerate(zip(first, second, strict=True), start=1):
        a_black = (board % 2 == 1) == first_has_black_on_odd
        black, white = (a, b) if a_black else (b, a)
        out.append(Pairing(board, black, white, f"board {board}"))
    return tuple(out)


def scheveningen(first: Sequence[int], second: Sequence[int]) -> tuple[Round, ...]:
    """Scheveningen (全队轮赛制): n rounds in which every player of ``first`` meets every
    player of ``second`` once; colours alternate by round and board so that each player has
    Black about half the time (board *i* of ``first`` v board *j* of ``second``: ``first``
    has Black when i + j is even).

    >>> [[p.players for p in r.pairings] for r in scheveningen([1, 2], [3, 4])]
    [[(1, 3), (2, 4)], [(4, 1), (3, 2)]]
    """
    n = len(first)
    if n != len(second) or n == 0:
        raise InvalidInput("Scheveningen needs two teams of the same size", "Gomoku §16.2(4)")
    check_players([*first, *second], "Gomoku §16.2(4)")
    rounds: list[Round] = []
    for r in range(n):
        games: list[Pairing] = []
        for i in range(n):
            j = (i + r) % n
            a, b = first[i], second[j]
            a_black = (i + j) % 2 == 0  # every player alternates over the n games
            black, white = (a, b) if a_black else (b, a)
            games.append(Pairing(i + 1, black, white, f"round {r + 1}, board {i + 1}"))
        rounds.append(Round(r + 1, tuple(games)))
    return tuple(rounds)


def team_totals(
    scores: Mapping[int, Score],
    teams: Mapping[str, Sequence[int]],
    *,
    counted: int | None = None,
) -> dict[str, Score]:
    """Team total (队员总分制, Gomoku §16.2(5)): the sum of members' individual scores, or of
    the best ``counted`` of them.

    >>> team_totals({1: 5, 2: 3, 3: 4, 4: 1}, {"A": [1, 2], "B": [3, 4]})
    {'A': 8, 'B': 5}
    >>> team_totals({1: 5, 2: 3, 3: 4}, {"A": [1, 2, 3]}, counted=2)
    {'A': 9}
    """
    out: dict[str, Score] = {}
    for name, members in teams.items():
        values = sorted((scores.get(p, 0) for p in members), reverse=True)
        if counted is not None:
            values = values[:counted]
        total: Score = 0
        for v in values:
            total = total + v
        out[name] = total
    return out
