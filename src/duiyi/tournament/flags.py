"""The participation flags of the players (OpenGotha's "participating"): one character per
round in the player's ``extra`` column ``participating``, ``1`` present, ``0`` absent (a missing
or short string means present). The Swiss pairers leave an absent player out; the desk's
operations that set them are :mod:`duiyi.tournament.participation`.

>>> from duiyi.tournament.model import Player
>>> from duiyi.tournament.event import add_players, new_event
>>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, n) for n in "AB"])
>>> absent_in(e, 1), flags_of(e, 2)
(set(), '111')
"""

from __future__ import annotations

from dataclasses import replace

from duiyi.tournament.model import Event, Player

__all__ = ["FLAGS", "absent_in", "flags_of", "mark_late", "width", "width_of", "with_flags"]

#: The player's ``extra`` column that holds the flags (OpenGotha's attribute).
FLAGS = "participating"


def width_of(rounds: int, paired: int) -> int:
    """How many flags a player has in an event of ``rounds`` rounds with ``paired`` rounds
    paired: one per round (more rounds may have been paired than planned).

    >>> width_of(5, 2), width_of(3, 4), width_of(0, 0)
    (5, 4, 1)
    """
    return max(rounds, paired, 1)


def width(event: Event) -> int:
    """How many flags each player of ``event`` has (:func:`width_of`).

    >>> from duiyi.tournament.event import _example
    >>> width(_example())
    3
    """
    return width_of(event.rounds, event.current_round)


def flags_of(event: Event, player: int) -> str:
    """The player's flags, one per round of the event (``1`` present, ``0`` absent).

    >>> from duiyi.tournament.event import _example
    >>> flags_of(_example(), 1)
    '111'
    """
    raw = dict(event.player(player).extra).get(FLAGS, "")
    n = width(event)
    return raw[:n].ljust(n, "1")


def absent_in(event: Event, round_number: int) -> set[int]:
    """The players marked absent from round ``round_number``.

    >>> from duiyi.tournament.event import _example
    >>> absent_in(_example(), 2)
    set()
    """
    i = round_number - 1
    out = set()
    for p in event.players:
        raw = dict(p.extra).get(FLAGS, "")
        if i < len(raw) and raw[i] == "0":
            out.add(p.number)
    return out


def with_flags(p: Player, flags: str) -> Player:
    """``p`` with ``flags`` kept (none kept when present in every round)."""
    extra = [(k, v) for k, v in p.extra if k != FLAGS]
    if "0" in flags:
        extra.append((FLAGS, flags))
    return replace(p, extra=tuple(extra))


def mark_late(event: Event, first_new: int) -> Event:
    """Late entries (players numbered ``first_new`` and after, entered once rounds are
    paired) are absent from the rounds already paired: they start with no points and no game
    (a Swiss late entry, appendix 五; OpenGotha reads the same flags).

    >>> import random
    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
    >>> e, _ = pair_next_round(e, random.Random(1))
    >>> flags_of(add_players(e, [Player(0, "Late")]), 5)  # add_players calls mark_late
    '011'
    """
    done = event.current_round
    if not done:
        return event
    players = []
    for p in event.players:
        if p.number >= first_new:
            flags = "0" * done + flags_of(event, p.number)[done:]
            p = with_flags(p, flags)
        players.append(p)
    return replace(event, players=tuple(players))
