"""Participation per round (OpenGotha's "participating" flags): a player marked absent for a
round that is not paired yet is left out of its pairing and plays no game in it.

The flags are kept where an imported OpenGotha file keeps them, in the player's ``extra``
column ``participating``: one character per round, ``1`` present, ``0`` absent (a missing or
short string means present). An absent round scores nothing under duiyi's rules (no game, no
bye: docs/decisions.md "Absent rounds"); an OpenGotha event keeps the values of its file
(:mod:`duiyi.tournament.placement`). A late entry after round N is absent from rounds 1..N.

Only Swiss-type systems pair round by round from who is there; a round robin, an elimination
or a match has its pairings from the start, where a missing player forfeits (Go §28).

Withdrawals (Go §28, Gomoku §18.5) may be undone until the next round is paired: the
withdrawal goes and a game it forfeited gets its result back (none), with the audit entry.

>>> from duiyi.tournament.event import new_event, add_players
>>> from duiyi.tournament.flags import absent_in, flags_of
>>> from duiyi.tournament.model import Player
>>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
>>> e = set_present(e, 2, 1, False)
>>> sorted(absent_in(e, 1)), flags_of(e, 2)
([2], '011')
"""

from __future__ import annotations

from dataclasses import replace

from duiyi.errors import TournamentError
from duiyi.tournament import systems
from duiyi.tournament.flags import flags_of, with_flags
from duiyi.tournament.model import Event
from duiyi.tournament.results import AuditEntry, Source
from duiyi.tournament.withdrawal import article

__all__ = ["set_present", "undo_withdrawal"]


def set_present(event: Event, player: int, round_number: int, present: bool) -> Event:
    """Mark ``player`` present or absent for round ``round_number``, which must not be paired
    yet (a paired round is changed by hand or by a result, never by a flag).

    >>> import random
    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> from duiyi.tournament.flags import flags_of
    >>> from duiyi.tournament.model import Player
    >>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
    >>> e, _ = pair_next_round(e, random.Random(1))
    >>> set_present(e, 1, 1, False)
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: round 1 is already paired: absences are marked before a round is paired (player 1)
    >>> flags_of(set_present(e, 1, 3, False), 1)
    '110'
    """
    p = event.player(player)
    if systems.of(event).family != "swiss":
        raise TournamentError(
            f"a {event.system} event has its pairings from the start: a player who does not "
            "come forfeits the game, or withdraws",
            article(event.game, systems.of(event).family),
            code="absence-not-swiss",
        )
    if round_number <= event.current_round:
        raise TournamentError(
            f"round {round_number} is already paired: absences are marked before a round is "
            f"paired (player {player})",
            code="absence-after-pairing",
            values={"round": str(round_number), "number": str(player)},
        )
    if round_number > event.rounds:
        raise TournamentError(
            f"the event has {event.rounds} rounds (round {round_number} asked)",
            code="absence-no-round",
            values={"rounds": str(event.rounds), "round": str(round_number)},
        )
    if event.withdrawal_of(player) is not None:
        raise TournamentError(
            f"player {player} has withdrawn",
            code="absence-withdrawn",
            values={"number": str(player)},
        )
    flags = list(flags_of(event, player))
    flags[round_number - 1] = "1" if present else "0"
    players = tuple(
        with_flags(p, "".join(flags)) if x.number == player else x for x in event.players
    )
    return replace(event, players=players)


def undo_withdrawal(event: Event, player: int, *, by: str = "", at: float | None = None) -> Event:
    """Take back ``player``'s withdrawal before the next round is paired: the player is paired
    again, and the game the withdrawal forfeited (if any) has no result again, with an audit
    entry.

    >>> from duiyi.tournament.event import _example, withdraw
    >>> e = withdraw(_example(), 2)
    >>> undo_withdrawal(e, 2).withdrawals
    ()
    """
    w = event.withdrawal_of(player)
    if w is None:
        raise TournamentError(
            f"player {player} has not withdrawn",
            code="not-withdrawn",
            values={"number": str(player)},
        )
    if w.after_round < event.current_round:
        raise TournamentError(
            f"player {player} withdrew after round {w.after_round} and round "
            f"{event.current_round} is paired since: the withdrawal stands",
            article(event.game, systems.of(event).family),
            code="withdrawal-stands",
            values={
                "number": str(player),
                "after": str(w.after_round),
                "round": str(event.current_round),
            },
        )
    withdrawals = tuple(x for x in event.withdrawals if x.player != player)
    out = replace(event, withdrawals=withdrawals)
    if not event.history:
        return out
    last = event.history[-1]
    game = last.game_of(player)
    if game is None or game.result is None or not game.trail:
        return out
    entry = game.trail[-1]
    if f"player {player} withdrew" not in entry.note or game.sheet != entry.value:
        return out  # the board changed since: its result stays
    note = f"withdrawal of player {player} undone"
    undo = AuditEntry(Source.DIRECTOR, by, at, entry.previous, game.sheet, note)
    restored = replace(game.with_sheet(entry.previous), trail=(*game.trail, undo))
    history = (*event.history[:-1], last.replace_game(restored))
    return replace(out, history=history)
