"""Players who leave an event: Go §28 and Gomoku §18.5, exactly.

Go §28:

1. before the event starts: a new draw if time allows;
2. round robin: fewer games played than half the rounds → every result of the player is void;
   at least half → the results stand and the games left are forfeits;
3. Swiss (积分编排): the results stand and the player is no longer paired;
4. matches and team events: the results stand and what is left is forfeited.

Gomoku §18.5: before the start, a new draw (or moving players between groups); after it, in
round robin and Swiss alike, fewer games than half the rounds → the games played are void; at
least half → they stand and every later round counts as a win for the opponent.

"Half" compares games played (byes are not games; forfeits are) with the total number of rounds:
void exactly when ``2 × games < rounds``.

>>> rule(game="go", family="swiss", rounds=7, games_played=1)
<Effect.KEEP_UNPAIRED: 'keep-unpaired'>
>>> rule(game="gomoku", family="swiss", rounds=7, games_played=3)
<Effect.VOID: 'void'>
>>> rule(game="go", family="round-robin", rounds=7, games_played=4)
<Effect.KEEP_FORFEIT_REST: 'keep-forfeit-rest'>
"""

from __future__ import annotations

import enum

from duiyi.errors import TournamentError
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.tournament.standings import FAMILIES

__all__ = ["Effect", "article", "rule"]


class Effect(enum.Enum):
    """What a withdrawal does to the player's results."""

    REDRAW = "redraw"  # before the start: the player is removed and numbers redrawn
    VOID = "void"  # every game of the player is void, for both sides
    KEEP_FORFEIT_REST = "keep-forfeit-rest"  # results stand; the games left are lost by forfeit
    KEEP_UNPAIRED = "keep-unpaired"  # results stand; the player is not paired any more


def _family(family: str) -> str:
    if family not in FAMILIES:
        raise TournamentError(
            f"unknown family {family!r} (known: {', '.join(FAMILIES)})",
            code="unknown-family",
            values={"family": str(family)},
        )
    return family


def article(game: GameType | str, family: str) -> str:
    """The article that governs a withdrawal, by the game
    (:meth:`duiyi.games.GameType.withdrawal_article`) and the system's family
    (:attr:`duiyi.tournament.systems.System.family`).

    >>> article("go", "round-robin"), article("gomoku", "swiss")
    ('Go §28.2', 'Gomoku §18.5')
    """
    return get_game(game).withdrawal_article(_family(family))


def rule(
    *, game: GameType | str, family: str, rounds: int, games_played: int, started: bool = True
) -> Effect:
    """The effect of a withdrawal under Go §28 or Gomoku §18.5
    (:meth:`duiyi.games.GameType.withdrawal_effect`).

    ``rounds`` is the total number of rounds of the event, ``games_played`` the games the player
    has played (byes excluded, forfeits included), ``started`` whether round 1 has been paired.

    >>> rule(game="go", family="round-robin", rounds=7, games_played=3)
    <Effect.VOID: 'void'>
    >>> rule(game="gomoku", family="round-robin", rounds=6, games_played=3)
    <Effect.KEEP_FORFEIT_REST: 'keep-forfeit-rest'>
    >>> rule(game="go", family="knockout", rounds=5, games_played=0)
    <Effect.KEEP_FORFEIT_REST: 'keep-forfeit-rest'>
    """
    kind = get_game(game)  # UnknownGame for a name duiyi does not play
    if rounds < 1 or games_played < 0:
        raise TournamentError(
            "a withdrawal needs rounds ≥ 1 and games played ≥ 0", code="withdrawal-counts"
        )
    if not started:
        return Effect.REDRAW  # Go §28.1, Gomoku §18.5
    less_than_half = 2 * games_played < rounds
    return Effect(kind.withdrawal_effect(_family(family), less_than_half=less_than_half))
