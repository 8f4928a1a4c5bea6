"""A drawn game of an elimination round, settled at the desk by the book.

Someone must go through a knockout board (Go appendix 一, Gomoku §17.1, §18.2); the books leave
the play-off to the organisers (Go §27.3 加赛; Gomoku §18.3(1)C 加赛快棋或抽签). The desk offers
both ways (:func:`duiyi.tournament.event.settle_draw`): the board is played again with colours
reversed (加赛), or decided at once by lot (抽签). When the event plays online, the replay is a
new online game for the board whose seats keep the players' links, colours swapped; a drawn
online game reaches the same settlement through the result reader; both end in
:mod:`duiyi.server.events.results`.
"""

from __future__ import annotations

import random
import secrets
import time
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from duiyi.errors import TournamentError
from duiyi.outcome import Outcome
from duiyi.server.events.changes import change_event, event_summary, games_of, repo_of
from duiyi.server.events.parsed import parsed_event
from duiyi.server.events.results import start_replay
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.schemas import Numbered
from duiyi.store.repository import Repository
from duiyi.tournament import event as ops
from duiyi.tournament import systems
from duiyi.tournament.model import Event
from duiyi.tournament.results import GameResult, Source

__all__ = ["drawn_online", "router"]

# where the books leave a drawn elimination game to the organisers
_ARTICLES = "Go §27.3, Gomoku §18.3(1)C"

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["events"], route_class=KeyFirstRoute)


class SettleDraw(BaseModel):
    """How the director settles a drawn game of an elimination round."""

    model_config = ConfigDict(extra="forbid")

    way: Literal["replay", "lot"] = Field(
        "replay",
        description="replay: play the board again with colours reversed (加赛; after "
        "options.draw_replays replays the lot decides); lot: draw the lot now (抽签)",
    )
    result: Literal["draw", "no-result"] = Field("draw", description="how the game ended")


def needs_winner_rounds(e: Event) -> list[int]:
    """The paired rounds of ``e`` whose games need a winner (elimination rounds).

    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> e = add_players(new_event("Cup", "gomoku", "knockout", 0), [Player(0, "A"), Player(0, "B")])
    >>> needs_winner_rounds(pair_next_round(e)[0])
    [1]
    """
    system = systems.of(e)
    return [r for r in range(1, e.current_round + 1) if system.needs_winner(e, r)]


async def drawn_online(repo: Repository, event_id: str, number: int, board: int) -> None:
    """Refuse (409, naming why) to settle a board as drawn whose last online game did not end
    without a winner: still being played, closed unfinished, or won. A board with no online
    game is played over the board: the director's word is the record.

    >>> import asyncio
    >>> class Store:
    ...     async def games_of_event(self, event_id): return []
    >>> asyncio.run(drawn_online(Store(), "e", 1, 1))  # over the board: nothing to refuse
    """
    games = [
        g for g in await repo.games_of_event(event_id) if (g.round, g.board) == (number, board)
    ]
    if not games:
        return
    game, where = games[-1], f"round {number} board {board}"
    if game.outcome is None:
        state = "is still being played" if game.closed is None else "was closed unfinished"
        raise TournamentError(
            f"{where}: its online game {game.id} {state}; only a drawn game is settled by "
            "replay or lot",
            _ARTICLES,
            code="settle-online-unfinished",
            values={"round": str(number), "board": str(board)},
        )
    outcome = Outcome.from_json(game.outcome)
    if outcome.winner is not None:
        raise TournamentError(
            f"{where}: its online game {game.id} was won by {outcome.winner.value}, not drawn; "
            "enter or correct its result instead",
            _ARTICLES,
            code="settle-online-won",
            values={"round": str(number), "board": str(board), "player": outcome.winner.value},
        )


@router.post("/{event_id}/rounds/{number}/boards/{board}/settle-draw")
async def settle_draw(
    request: Request, event_id: str, number: Numbered, board: Numbered, body: SettleDraw
) -> dict[str, Any]:
    """Settle a drawn game of an elimination round (organiser): ``replay`` plays it again with
    colours reversed (加赛, Go §27.3, Gomoku §18.3(1)C; after ``options.draw_replays`` replays
    the lot decides), ``lot`` draws the lot now (抽签). The drawn game stays in the board's
    trail. When the round is played online the replay game starts at once for the players
    (their links keep working, colours swapped). Only a drawn game: a board whose online game
    is being played or was won is refused (409); the board's trail names the organiser and the
    time as who settled it."""
    await drawn_online(repo_of(request), event_id, number, board)
    seed = secrets.randbits(64)
    result = GameResult.parse(body.result)
    wall = time.time()

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        if not systems.of(e).needs_winner(e, number):
            raise TournamentError(
                f"round {number} is not an elimination round: enter the draw as a result",
                ops.needs_winner_article(e),
                code="settle-not-knockout",
                values={"round": str(number)},
            )
        after = ops.settle_draw(
            e,
            number,
            board,
            result,
            random.Random(seed),
            lot_now=body.way == "lot",
            source=Source.DIRECTOR,
            by="organiser",
            at=wall,
            seed=str(seed),  # a string: a 64-bit seed is exact in JavaScript too
        )
        return after, wall

    change = {"op": "settle-draw", "round": number, "board": board, "seed": str(seed)}
    change.update(body.model_dump())
    record, _ = await change_event(request, event_id, change, apply)
    game = parsed_event(record).round(number).game(board)
    replay = None
    if game.lot is None:
        replay = await start_replay(games_of(request), repo_of(request), event_id, number, board)
    return {
        **event_summary(record),
        "round": number,
        "board": game.to_json(),
        "settled": "replay" if game.lot is None else "lot",
        "replay_game": replay,
    }
