"""Relay team matches, 擂台赛 (Go §26.6; Gomoku §17.5).

Each team lists its players in playing order (排定出场顺序). The winner of a game stays on
(守擂); a player who loses a game is out (败一场的棋手不再参赛), and the loser's team sends its
next player. When a team's last player loses, the team is out; teams out earlier rank lower, and
the last team with a player left wins (Gomoku §17.5). With more than two teams the challengers
come from the other teams in turn.

Decisions where the books are silent (docs/decisions.md): a drawn game puts both players out
(``draw="both_out"``, the default) or is replayed (``draw="replay"``); colours are guessed when
a ``random.Random`` is given, by the game's own method (Go §10 nigiri; Gomoku §5.1(1), §5.3(1)
hand count), otherwise the challenger plays Black.

The state is a pure function of the lineups and the results so far:

>>> s = relay([[1, 2, 3], [4, 5, 6]], [1, 1])
>>> s.next_game, s.remaining
((1, 6), ((1, 2, 3), (6,)))
>>> relay([[1, 2], [4, 5]], [4, 4]).winner
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from duiyi.errors import InvalidInput
from duiyi.games import GameType

from .common import Pairing, guess_colours

__all__ = ["RelayState", "relay"]

_ARTICLE = "Go §26.6"


@dataclass(frozen=True)
class RelayState:
    """Where a relay stands.

    - ``games``: the games played, board 1 each, in order (with colours);
    - ``remaining``: per team, the players not yet out (the one on the stage first);
    - ``next_game``: ``(holder, challenger)`` of the next game, or ``None`` when finished;
    - ``winner``: index of the winning team (0-based) once finished;
    - ``ranking``: team indices best first (teams still in share the top, in team order).
    """

    games: tuple[Pairing, ...]
    remaining: tuple[tuple[int, ...], ...]
    next_game: tuple[int, int] | None
    winner: int | None
    ranking: tuple[int, ...]
    next_colours: tuple[int, int] | None = None


def relay(
    lineups: Sequence[Sequence[int]],
    results: Sequence[int | None],
    *,
    draw: str = "both_out",
    rng: random.Random | None = None,
    game: GameType | str = "go",
) -> RelayState:
    """Replay ``results`` (winner of each game, ``None`` for a draw) over ``lineups``.

    >>> s = relay([[1, 2], [3, 4], [5, 6]], [1, 1, 1])
    >>> s.remaining, s.next_game, s.ranking
    (((1, 2), (), (6,)), (1, 6), (0, 2, 1))
    """
    if len(lineups) < 2:
        raise InvalidInput("a relay needs at least two teams", _ARTICLE)
    if draw not in ("both_out", "replay"):
        raise InvalidInput(f"draw is 'both_out' or 'replay', got {draw!r}", _ARTICLE)
    seen: set[int] = set()
    for team in lineups:
        if not team:
            raise InvalidInput("every team needs at least one player", _ARTICLE)
        for p in team:
            if p in seen:
                raise InvalidInput(f"player {p} is listed twice", _ARTICLE)
            seen.add(p)
    queues = [list(t) for t in lineups]
    team_of = {p: i for i, t in enumerate(lineups) for p in t}
    out_order: list[int] = []  # teams in the order they went out
    holder_team = 0
    challenger_team = 1
    games: list[Pairing] = []

    def alive(i: int) -> bool:
        return bool(queues[i])

    def next_team(after: int, skip: int) -> int | None:
        n = len(queues)
        for step in range(1, n + 1):
            t = (after + step) % n
            if t != skip and alive(t):
                return t
        return None

    def colours(holder: int, challenger: int) -> tuple[int, int]:
        if rng is not None:
            return guess_colours(game, holder, challenger, rng)[0]
        return challenger, holder

    pending: tuple[int, int] | None = None
    for k, w in enumerate(results, start=1):
        if len([t for t in range(len(queues)) if alive(t)]) < 2:
            raise InvalidInput(f"result {k} given after the relay ended", _ARTICLE)
        h, c = queues[holder_team][0], queues[challenger_team][0]
        black, white = pending if pending is not None else colours(h, c)
        pending = None
        games.append(Pairing(1, black, white, f"game {k}: {h} holds the stage, {c} challenges"))
        if w is None:
            if draw == "replay":
                continue
            queues[holder_team].pop(0)
            queues[challenger_team].pop(0)
            for t in (challenger_team, holder_team):
                if not alive(t) and t not in out_order:
                    out_order.append(t)
            nxt = holder_team if alive(holder_team) else next_team(holder_team, -1)
            if nxt is not None:
                holder_team = nxt
                other = next_team(challenger_team, holder_team)
                if other is not None:
                    challenger_team = other
            continue
        if w not in (h, c):
            raise InvalidInput(f"game {k}: winner {w} did not play ({h} v {c})", _ARTICLE)
        loser_team = challenger_team if w == h else holder_team
        last_challenger = challenger_team
        holder_team = team_of[w]
        queues[loser_team].pop(0)
        if not alive(loser_team):
            out_order.append(loser_team)
        other = next_team(last_challenger, holder_team)  # 轮流出场: teams challenge in turn
        if other is not None:
            challenger_team = other
    living = [t for t in range(len(queues)) if alive(t)]
    finished = len(living) < 2
    next_game = None
    next_colours = None
    if not finished:
        next_game = (queues[holder_team][0], queues[challenger_team][0])
        next_colours = colours(*next_game)
    ranking = tuple(living + out_order[::-1])
    return RelayState(
        tuple(games),
        tuple(tuple(q) for q in queues),
        next_game,
        living[0] if finished and living else None,
        ranking,
        next_colours,
    )
