"""Event routes: the rounds (pair the next one, read one, start its online games, play its
engine boards on this server)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from duiyi.server.auth import Forbidden, seat_token, verify
from duiyi.server.events.changes import (
    change_event,
    check_organiser,
    event_summary,
    games_of,
    online_of,
    repo_of,
)
from duiyi.server.events.pairing import pair_round
from duiyi.server.events.parsed import parsed_event
from duiyi.server.games.manager import NewGame
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.schemas import NO_BOOL, Numbered
from duiyi.store.repository import Conflict, EventRecord, NotFound, Repository
from duiyi.tournament.model import Event

__all__ = ["router"]

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["events"], route_class=KeyFirstRoute)


@router.post("/{event_id}/rounds")
async def pair_next(request: Request, event_id: str) -> dict[str, Any]:
    """Pair the next round; every pairing says why it was chosen."""
    seed = secrets.randbits(64)

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        return pair_round(e, meta, seed)

    _, (answer, version) = await change_event(
        request, event_id, {"op": "pair", "seed": seed}, apply
    )
    return {**answer, "version": version}


@router.get("/{event_id}/rounds/{number}")
async def get_round(request: Request, event_id: str, number: Numbered) -> dict[str, Any]:
    """A round's pairings and results."""
    record = await repo_of(request).event(event_id)
    e = parsed_event(record)
    if not 1 <= number <= e.current_round:
        raise NotFound(f"round {number} is not paired (paired: {e.current_round})")
    data: dict[str, Any] = e.round(number).to_json()
    explained = record.data.get("explanations", {}).get(str(number))
    if explained:
        data["explanation"] = explained
    return data


LinksKey = Annotated[str, Field(min_length=32, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]


class StartGames(BaseModel):
    """Start a round's online games. ``links_key``: a secret of the desk's own (32-128
    letters, digits, ``-`` or ``_``) the players' links are derived from, so that the desk can
    ask for the same links again (``POST .../rounds/{n}/links``) when this answer is lost;
    without it the links are random and shown once."""

    model_config = ConfigDict(extra="forbid")
    links_key: LinksKey | None = None


class LinksAgain(BaseModel):
    """The key the round's games were started with (:class:`StartGames`)."""

    model_config = ConfigDict(extra="forbid")
    links_key: LinksKey


def _board_links(
    e: Event, number: int, started: list[tuple[int, str, dict[str, str]]]
) -> dict[str, Any]:
    """The answer of a round's start: each board's players and their secret links."""
    by_board = {g.board: g for g in e.round(number).games}
    return {
        "round": number,
        "games": [
            {
                "board": board,
                "game_id": game_id,
                "black": by_board[board].black,
                "white": by_board[board].white,
                "black_token": tokens["black"],
                "white_token": tokens["white"],
            }
            for board, game_id, tokens in started
        ],
    }


async def _paired_round(
    request: Request, event_id: str, number: int
) -> tuple[Repository, EventRecord, Event]:
    """The store, the event's record and its event, for the organiser, once round ``number``
    is paired (404 before)."""
    repo = repo_of(request)
    record = await repo.event(event_id)
    check_organiser(request, record)
    e = parsed_event(record)
    if not 1 <= number <= e.current_round:
        raise NotFound(f"round {number} is not paired (paired: {e.current_round})")
    return repo, record, e


@router.post("/{event_id}/rounds/{number}/games", status_code=201)
async def start_games(
    request: Request, event_id: str, number: Numbered, body: StartGames | None = None
) -> dict[str, Any]:
    """Start the round's online games; answers each board's secret player links (hand each
    player their own: shown once, unless the desk gave a ``links_key``). Boards between two
    engine players are left to ``POST .../rounds/{n}/play``."""
    from duiyi.tournament.roster import engine_command_of

    repo, record, e = await _paired_round(request, event_id, number)

    def engines(g: Any) -> bool:
        players = (e.player(g.black), e.player(g.white))
        return all(engine_command_of(p) is not None for p in players)

    # a board with a result (entered at the desk) or with a game still to finish is left out:
    # a second "start" only starts what is missing (a drawn knockout game's replay)
    existing = {
        g.board or 0
        for g in await repo.games_of_event(event_id)
        if g.round == number
        and not isinstance(g.config.get("engine"), dict)
        and g.closed is None
        and g.outcome is None
    }
    todo = [
        g
        for g in e.round(number).games
        if g.black is not None
        and g.white is not None
        and not engines(g)
        and g.result is None
        and g.board not in existing
    ]
    if not todo:
        raise Conflict(
            f"round {number}: every board has a result or an online game already"
            + (f" (games on boards {sorted(existing)})" if existing else ""),
            code="round-nothing-to-play",
            values={"round": str(number)},
        )
    spec = e.game.event_game_spec(online_of(record))
    # every board created for the process nginx sends its game to (issue 26), all in one
    # transaction (issue 33: one by one, 31 boards took longer than nginx's 10 s)
    made = await games_of(request).create_many(
        [
            NewGame(
                spec,
                event_id=event_id,
                round=number,
                board=g.board,
                arbiter_token_hash=record.arbiter_token_hash,
                links_key=None if body is None else body.links_key,
            )
            for g in todo
        ]
    )
    started = [(g.board, game_id, tokens) for g, (game_id, tokens) in zip(todo, made, strict=True)]
    return _board_links(e, number, started)


@router.post("/{event_id}/rounds/{number}/links")
async def links_again(
    request: Request, event_id: str, number: Numbered, body: LinksAgain
) -> dict[str, Any]:
    """The players' links of the round's online games started with ``links_key`` (the same
    answer as the start's: for a desk whose answer was lost on its way). A game started
    without that key is not answered; none at all is 403 (not the key of this round)."""
    repo, _record, e = await _paired_round(request, event_id, number)
    started = []
    for g in await repo.games_of_event(event_id):
        if g.round != number or g.board is None:
            continue
        tokens = {c: seat_token(body.links_key, g.id, c) for c in ("black", "white")}
        if verify(tokens["black"], g.black_token_hash) and verify(
            tokens["white"], g.white_token_hash
        ):
            started.append((g.board, g.id, tokens))
    if not started:  # the key is the credential of the links: not this round's (403)
        raise Forbidden(
            f"no game of round {number} was started with this key",
            code="links-key-unknown",
            values={"round": str(number)},
        )
    return _board_links(e, number, sorted(started))


class PlayEngines(BaseModel):
    """Play the round's boards between two engine players on this server."""

    model_config = ConfigDict(extra="forbid")

    concurrency: Annotated[int, Field(ge=1, le=16, description="games played at once"), NO_BOOL] = 1
    all_rounds: StrictBool = Field(
        default=False,
        description="pair and play the next rounds too, each once the last is complete",
    )


@router.post("/{event_id}/rounds/{number}/play", status_code=202)
async def play_engine_round(
    request: Request, event_id: str, number: Numbered, body: PlayEngines | None = None
) -> dict[str, Any]:
    """Play the round's boards whose two players are engines (organiser; only on a server
    started with ``--engine-players``): each board becomes a live game with both seats driven
    by the server, ``concurrency`` at a time, refereed like any game; results enter the event
    through the outbox. The next round is paired first when ``number`` is the next one.
    With ``all_rounds`` the following rounds are paired and played in turn, each once the last
    is complete. Answers at once (202) with the boards to play; the games appear in ``GET
    /api/events/{id}`` and the room list as they start."""
    from duiyi.server.engines.rounds import PLAY_KEY, EnginePlay, check_engine_round
    from duiyi.server.limits import client_address
    from duiyi.server.routes.engines import client_key

    state = request.app.state.duiyi
    record = await repo_of(request).event(event_id)
    check_organiser(request, record)  # anonymous: 401, another key: 403, before anything else
    if not state.settings.engine_players or state.engine_rounds is None:
        raise Forbidden(
            "this server does not run engine players: start it with `duiyi serve "
            "--engine-players` (DUIYI_ENGINE_PLAYERS=1) to play engine rounds here"
        )
    body = body or PlayEngines()
    settings = state.settings
    client = client_key(
        client_address(request.scope, settings.proxy_header, settings.trusted_proxies)
    )
    play = EnginePlay(number, body.concurrency, settings.process_id, body.all_rounds, client)
    seed = secrets.randbits(64)

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        if number == e.current_round + 1:
            e, _answer = pair_round(e, meta, seed)
        elif not 1 <= number <= e.current_round:
            raise NotFound(f"round {number} is not paired (paired: {e.current_round})")
        running = meta.get(PLAY_KEY)
        if isinstance(running, dict) and EnginePlay.from_json(running).round != number:
            raise Conflict(
                f"round {running['round']} is being played; wait for it to end",
                code="round-being-played",
                values={"round": str(running["round"])},
            )
        boards = check_engine_round(e, number, meta.get("online"))
        for board in boards:  # only engines the operator lists (422 before anything runs)
            state.engines.resolve(board.black_engine, e.game.name)
            state.engines.resolve(board.white_engine, e.game.name)
        meta[PLAY_KEY] = play.to_json()
        return e, boards

    change = {"op": "play-engines", "round": number, "seed": seed, **play.to_json()}
    record, (boards, _version) = await change_event(request, event_id, change, apply)
    state.engine_rounds.start(event_id)
    return {
        **event_summary(record),
        "round": number,
        "concurrency": play.concurrency,
        "all_rounds": play.all_rounds,
        "boards": [b.to_json() for b in boards],
    }
