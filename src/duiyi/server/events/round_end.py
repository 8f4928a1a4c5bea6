"""The event tells the games of a round that the round ended (Gomoku §8.11: an appeal "应在当轮
比赛结束后规定的时间内提出", within the time allowed after the round's end, not the game's).

A round ends when its last board has a result: the last online game finishing (its result
entered by the result reader), or the director entering the last result at the desk. Each
online game of the round that is not closed then gets the session action ``round_ended``
(:class:`duiyi.actions.RoundEnded`), applied at the time it is told; an appeal in that game is
then refused as late once the time it allows after that moment has passed. A game never told
refuses no appeal as late (:meth:`duiyi.referee.Referee.appeal`). Told twice, the first time
stands (the session keeps it); the action's id makes a second telling a no-op.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from duiyi.actions import RoundEnded
from duiyi.errors import DuiyiError
from duiyi.server.events.parsed import parsed_event
from duiyi.server.games.manager import GameManager
from duiyi.store.repository import Repository, StoredGame
from duiyi.tournament.model import Event

__all__ = ["tell_round_ended"]

log = logging.getLogger("duiyi.server.events")


async def tell_round_ended(
    games: GameManager | None,
    repo: Repository,
    event_id: str,
    rounds: Iterable[int] | None = None,
    event: Event | None = None,
) -> list[str]:
    """Tell each open online game of the ``rounds`` (None: every round) that its round ended,
    for each round that has: no game of it is still being played and every board has a result
    (read from ``event``, else from the store, only once no game of them is live). Answers the
    games told. Best effort: a game that cannot be told (closed, gone, its process away) is
    left out and logged; it then refuses no appeal as late."""
    if games is None:
        return []
    wanted = None if rounds is None else set(rounds)
    by_round: dict[int, list[StoredGame]] = {}
    for g in await repo.games_of_event(event_id):
        if g.round is not None and (wanted is None or g.round in wanted):
            by_round.setdefault(g.round, []).append(g)
    # a round with a game still being played goes on
    ended = {
        n: mine
        for n, mine in by_round.items()
        if all(g.closed is not None or g.outcome is not None for g in mine)
    }
    if not ended:
        return []
    if event is None:
        event = parsed_event(await repo.event(event_id))
    told = []
    for number, mine in sorted(ended.items()):
        if not 1 <= number <= event.current_round or not event.round(number).complete:
            continue
        for g in mine:
            if g.closed is not None:
                continue  # closed at the desk: it takes no more actions (nor appeals)
            try:
                host = await games.serve(g.id)  # an action: forwarded to its owner
                await host.act(None, RoundEnded(), action_id=f"round-ended-{number}")
            except DuiyiError as exc:
                log.warning("game %s: not told that round %d ended: %s", g.id, number, exc)
                continue
            told.append(g.id)
    return told
