"""The desk's player list: edit or remove a player who has not been paired yet.

Adding players is :func:`duiyi.tournament.event.add_players` and drawing the numbers by lot
:func:`duiyi.tournament.event.draw_numbers` (appendix 五); a player already paired leaves only
by withdrawal (Go §28, Gomoku §18.5), never by removal, so no result is lost.

>>> from duiyi.tournament.event import add_players, new_event
>>> from duiyi.tournament.model import Player
>>> e = add_players(new_event("Club", "go", "swiss", 3), [Player(0, n) for n in "ABC"])
>>> e = edit_player(e, 2, rank="3d", club="Beijing")
>>> e.player(2)
Player(number=2, name='B', rank='3d', rating=None, club='Beijing', extra=())
>>> [(p.number, p.name) for p in remove_player(e, 1).players]
[(1, 'B'), (2, 'C')]
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from duiyi.errors import TournamentError
from duiyi.tournament.model import (
    ROUNDS_FROM_SYSTEM,
    Event,
    Player,
    RoundRecord,
    Team,
    TeamPairing,
    Withdrawal,
)

__all__ = ["ENGINE_KEY", "edit_player", "engine_command_of", "is_paired", "remove_player"]

_FIELDS = ("name", "rank", "rating", "club")

#: The player's column that holds an engine's command line (``duiyi event engine``, the
#: server's ``engine`` field): such a player is a program the referee drives.
ENGINE_KEY = "engine"


def engine_command_of(player: Player) -> str | None:
    """The engine command of ``player`` (its ``engine`` column), or None for a person.

    >>> engine_command_of(Player(1, "GnuGo", extra=(("engine", "gnugo --mode gtp"),)))
    'gnugo --mode gtp'
    >>> engine_command_of(Player(2, "Ann")) is None
    True
    """
    for key, value in player.extra:
        if key == ENGINE_KEY and value.strip():
            return value.strip()
    return None


def is_paired(event: Event, number: int) -> bool:
    """True when ``number`` has a game or a bye in a paired round."""
    return any(number in g.players for _, g in event.games()) or any(
        number in r.byes for r in event.history
    )


def _unpaired(event: Event, number: int, what: str) -> Player:
    player = event.player(number)
    if is_paired(event, number):
        raise TournamentError(
            f"player {number} {player.name!r} is already paired: {what} is only possible "
            "before a player's first pairing (a paired player withdraws instead)",
            "Go §28",
            code="player-already-paired",
            values={"number": str(number), "name": player.name},
        )
    return player


def edit_player(
    event: Event, number: int, *, extra: Mapping[str, str] | None = None, **changes: Any
) -> Event:
    """The event with player ``number``'s ``name``, ``rank``, ``rating`` or ``club`` (and
    ``extra`` columns, merged) changed; refused once the player has been paired (the pairing
    used them) or for a name already entered.

    >>> from duiyi.tournament.event import add_players, new_event
    >>> e = add_players(new_event("x", "go", "swiss", 2), [Player(0, "A"), Player(0, "B")])
    >>> edit_player(e, 1, name="b")
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: player 'b' is already entered
    """
    player = _unpaired(event, number, "editing")
    unknown = set(changes) - set(_FIELDS)
    if unknown:
        raise TournamentError(
            f"a player has no field {sorted(unknown)[0]!r} ({', '.join(_FIELDS)})",
            code="player-no-field",
        )
    if "name" in changes:
        name = str(changes["name"]).strip()
        if not name:
            raise TournamentError(
                f"player {number} needs a name",
                code="player-needs-name",
                values={"number": str(number)},
            )
        taken = {p.name.casefold() for p in event.players if p.number != number}
        if name.casefold() in taken:
            raise TournamentError(
                f"player {name!r} is already entered", code="player-entered", values={"name": name}
            )
        changes["name"] = name
    if extra:
        merged = {**dict(player.extra), **{str(k): str(v) for k, v in extra.items()}}
        changes["extra"] = tuple(merged.items())
    players = tuple(replace(player, **changes) if p.number == number else p for p in event.players)
    return replace(event, players=players)


def remove_player(event: Event, number: int) -> Event:
    """The event without player ``number`` (entered by mistake, or gone before being paired);
    the players after it move up one number everywhere (rounds, withdrawals, lots, teams).

    >>> import random
    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> e = add_players(new_event("x", "go", "swiss", 2), [Player(0, n) for n in "ABC"])
    >>> e, _ = pair_next_round(e, random.Random(0))
    >>> remove_player(e, 1)
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: player 1 'A' is already paired: removing is only possible before a player's first pairing (a paired player withdraws instead) (Go §28)
    """
    _unpaired(event, number, "removing")

    def move(n: int) -> int:
        return n - 1 if n > number else n

    players = tuple(replace(p, number=move(p.number)) for p in event.players if p.number != number)
    history = tuple(
        RoundRecord(
            r.number,
            tuple(replace(g, black=move(g.black), white=move(g.white)) for g in r.games),
            tuple(move(b) for b in r.byes),
            tuple(TeamPairing(m.match, m.first, m.second, m.boards) for m in r.matches),
            r.team_byes,
        )
        for r in event.history
    )
    withdrawals = tuple(
        Withdrawal(move(w.player), w.after_round) for w in event.withdrawals if w.player != number
    )
    teams = tuple(
        Team(t.number, t.name, tuple(move(m) for m in t.members if m != number))
        for t in event.teams
    )
    lots = {move(k): v for k, v in event.lots.items() if k != number}
    if not event.is_team_event and lots:
        lots = {
            k: rank for rank, (k, _) in enumerate(sorted(lots.items(), key=lambda kv: kv[1]), 1)
        }
    out = replace(
        event,
        players=players,
        history=history,
        withdrawals=withdrawals,
        teams=teams,
        lots=lots,
    )
    if out.system in ROUNDS_FROM_SYSTEM and len(out.players) >= 2:
        from duiyi.tournament.event import total_rounds

        with contextlib.suppress(TournamentError):  # the smaller field's table or bracket
            out = replace(out, rounds=total_rounds(out))
    return out
