"""``duiyi event engine`` and ``duiyi event play``: events whose players are engines.

* ``duiyi event engine EV.json NAME -- CMD ARGS...`` enters an engine player (or changes the
  command of the player called NAME). The command is kept in the player's ``extra`` columns
  under ``engine``, so the event file stays an ordinary event file.
* ``duiyi event play EV.json [--round N | --all-rounds] [--concurrency K] [--size S]
  [--time SPEC] [--rules PRESET] [--seed N]`` pairs the next round when the last one is
  complete, plays every game of the round that has no result yet, K at a time, each refereed
  by duiyi (Go: GTP engines through :mod:`duiyi.engines.match`, on the one refereed-game loop
  :mod:`duiyi.engines.refereed`; Gomoku: Gomocup brains through
  :mod:`duiyi.engines.gomocup_match`), and enters each result in the event file as soon as the game
  ends (under the event file's lock, so ``standings`` can be read meanwhile). The SGF of each
  game goes to ``EV.games/round-R-board-B.sgf`` beside the event file (Gomoku: also the
  Piskvork ``.psq`` with each stone's time).

The rules preset (Go ``chinese`` by default; Gomoku ``chinese-2013``, the book's rules) and
the seed of every lot are recorded in the event's options at the first play, so a resumed run
plays the same rules and draws the same lots. Under a designated opening (Gomoku §3.2) the
opening of each board is drawn by :func:`duiyi.gomoku.match.pick_opening` from
``Random("seed:round:board")`` (``options.openings`` narrows the list); the three-move swap
and the fifth-move N-dab are skipped, as in ``duiyi gomoku match`` (the Gomocup protocol has no
command for them).

Interrupted runs resume. A result is in the event file once its game ended, and only then;
rerunning ``event play`` plays exactly the boards still without a result. **A game that was in
progress when the run stopped is replayed from the first move**: engine processes keep their
own state, which died with them, and no adjournment is defined for engine games. (The rulebook
puts an unfinished game back to its sealed position, Go §16; an engine game has no sealed move,
so the position it restarts from is the empty board.) See docs/decisions.md.

``cli/event.py`` registers these two commands with :func:`register`.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from duiyi.errors import TournamentError
from duiyi.games import EngineProtocol

if TYPE_CHECKING:
    from duiyi.outcome import Outcome
    from duiyi.tournament.model import Event
    from duiyi.tournament.options import EventOptions

__all__ = [
    "Board",
    "Played",
    "engine_command",
    "engine_of",
    "games_dir",
    "play_command",
    "play_options",
    "register",
]


def engine_of(event: Event, number: int) -> str:
    """The engine command of player ``number``; TournamentError when it has none."""
    from duiyi.tournament.roster import engine_command_of

    player = event.player(number)
    command = engine_command_of(player)
    if command is not None:
        return command
    raise TournamentError(
        f"player {number} ({player.name}) has no engine: "
        f"`duiyi event engine EV.json '{player.name}' -- CMD ARGS...`"
    )


def games_dir(path: Path) -> Path:
    """Where ``event play`` writes the SGF of each game: ``EV.games`` beside ``EV.json``.

    >>> games_dir(Path("cups/spring.json")).as_posix()
    'cups/spring.games'
    """
    return path.with_suffix(".games")


def engine_command(
    path: Annotated[Path, typer.Argument(help="The event file (JSON).")],
    name: Annotated[str, typer.Argument(help="The engine player's name.")],
    command: Annotated[
        list[str], typer.Argument(help="The engine's command line, after --.", metavar="CMD...")
    ],
) -> None:
    """Enter an engine player, or set the engine of the player called NAME.

    The command comes after ``--``: ``duiyi event engine cup.json GnuGo-5 -- gnugo --mode gtp
    --level 5``.
    """
    from duiyi.engines.process import check_command
    from duiyi.tournament import event as ops
    from duiyi.tournament.formats.eventfile import event_lock, load_event, save_event
    from duiyi.tournament.model import Player
    from duiyi.tournament.roster import ENGINE_KEY

    if not name.strip():
        raise TournamentError("an engine player needs a name")
    check_command(command)
    line = shlex.join(command)
    with event_lock(path):
        event = load_event(path)
        found = [p for p in event.players if p.name == name]
        if found:
            player = found[0]
            extra = tuple((k, v) for k, v in player.extra if k != ENGINE_KEY)
            changed = replace(player, extra=(*extra, (ENGINE_KEY, line)))
            players = tuple(changed if p is player else p for p in event.players)
            event = replace(event, players=players)
            what = "engine of"
        else:
            event = ops.add_players(event, [Player(0, name, extra=((ENGINE_KEY, line),))])
            what = "engine player"
        save_event(event, path)
    number = next(p.number for p in event.players if p.name == name)
    typer.echo(f"{what} {number} {name}: {line}")


def play_command(
    path: Annotated[Path, typer.Argument(help="The event file (JSON).")],
    round_number: Annotated[
        int | None, typer.Option("--round", min=1, help="Play this round (paired if next).")
    ] = None,
    all_rounds: Annotated[
        bool, typer.Option("--all-rounds", help="Pair and play every remaining round.")
    ] = False,
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-k", min=1, help="Games played at once.")
    ] = 1,
    size: Annotated[
        int | None, typer.Option("--size", min=5, max=25, help="Go board size (default 19).")
    ] = None,
    time_spec: Annotated[
        str,
        typer.Option("--time", help="Go: as `go match --time`; Gomoku: ms per move (5000)."),
    ] = "",
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Rules preset (Go: chinese...; Gomoku: chinese-2013, free, free-renju); "
            "recorded in the event at the first play.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of every lot (pairing, Gomoku openings, draws); recorded in the event "
            "at the first play (default 0)."
        ),
    ] = None,
) -> None:
    """Pair and play the engine games of a round (or of every round), entering the results.

    Resumable: rerun after an interruption; boards with a result are kept, a game that was in
    progress is replayed from the first move.
    """
    import random

    from duiyi.tournament import event as ops
    from duiyi.tournament.formats.eventfile import event_lock, load_event, save_event
    from duiyi.tournament.systems.base import withdrawn_before

    if round_number is not None and all_rounds:
        raise TournamentError("give --round N or --all-rounds, not both")
    with event_lock(path):
        event = load_event(path)
        event.game.check_size(size)  # Gomoku is played on the 15x15 board (Gomoku §1)
        recorded = play_options(event, rules, seed)
        if recorded != event.options:
            event = replace(event, options=recorded)
            save_event(event, path)
    seed = recorded.seed or 0
    player = _player_factory(event, size or 19, time_spec)
    games_dir(path).mkdir(parents=True, exist_ok=True)
    played_rounds = 0
    while True:
        with event_lock(path):
            event = load_event(path)
            target = _target_round(event, round_number)
            if target is None:
                break
            if target > event.current_round:
                event, _paired = ops.pair_next_round(event, random.Random(seed + target))
                save_event(event, path)
                typer.echo(f"round {target} paired")
        pending = [g for g in event.round(target).games if g.result is None]
        blocked = withdrawn_before(event, target)  # their games are the withdrawal rule's
        todo = [g for g in pending if g.black not in blocked and g.white not in blocked]
        for g in pending:
            if g not in todo:
                typer.echo(f"round {target} board {g.board}: a withdrawn player; not played")
        if not todo:
            typer.echo(f"round {target}: no board left to play")
            if not all_rounds or pending:
                break
        boards = [g.board for g in todo]
        asyncio.run(_play_round(path, target, boards, concurrency, player, seed))
        played_rounds += 1
        if not all_rounds:
            break
        event = load_event(path)
        if not event.round(target).complete or target >= ops.total_rounds(event):
            break
    if played_rounds:
        typer.echo(f"results entered in {path}; `duiyi event standings {path}` shows the table")


def play_options(event: Event, rules: str | None, seed: int | None) -> EventOptions:
    """The event's options with the rules preset and the seed of its lots recorded: what the
    event already records wins, a different ``--rules``/``--seed`` is refused (a resumed event
    must draw the same lots and play the same rules); otherwise the given values, else the
    defaults (Go: ``chinese``; Gomoku: ``chinese-2013``, the book's rules; seed 0).

    >>> from duiyi.tournament.model import Event
    >>> play_options(Event("x", "gomoku", "swiss", 3), None, 5).to_json()
    {'seed': 5, 'rules': 'chinese-2013'}
    >>> play_options(Event("x", "go", "swiss", 3, options={"seed": 5}), "ing", None).to_json()
    {'seed': 5, 'rules': 'ing'}
    """
    options = event.options
    for key, recorded, given in (("rules", options.rules, rules), ("seed", options.seed, seed)):
        if recorded is not None and given is not None and str(recorded) != str(given):
            raise TournamentError(
                f"the event is played with --{key} {recorded} (recorded in the event "
                f"file), not {given}"
            )
    if options.rules is None:
        options = options.updated(rules=rules if rules is not None else event.game.default_preset)
    if options.seed is None:
        options = options.updated(seed=seed if seed is not None else 0)
    event.game.rules(options.rules or "")  # an unknown preset: one line, exit 2
    return options


def _target_round(event: Event, wanted: int | None) -> int | None:
    """The round to play: ``wanted``, else the incomplete last round, else the next one."""
    from duiyi.tournament import event as ops

    current = event.current_round
    if wanted is not None:
        if wanted <= current:
            return wanted
        if wanted == current + 1:
            return wanted  # pair_next_round refuses if the last round is not complete
        raise TournamentError(f"round {wanted} cannot be played next (rounds paired: {current})")
    if current and not event.round(current).complete:
        return current
    if current >= ops.total_rounds(event):
        typer.echo(f"all {current} rounds are paired and complete")
        return None
    return current + 1


@dataclass(frozen=True)
class Board:
    """One game to play: round, board, the engines' commands and labels, the handicap."""

    round: int
    board: int
    black: str
    white: str
    names: tuple[str, str]
    handicap: int = 0


@dataclass(frozen=True)
class Played:
    """A finished engine game: its outcome, result text, reason, records and opening."""

    outcome: Outcome
    result: str
    reason: str
    sgf: str
    psq: str = ""
    opening: str = ""


_Player = Callable[[Board], Awaitable[Played]]


def _player_factory(event: Event, size: int, time_spec: str) -> _Player:
    rules = event.options.rules or event.game.default_preset
    if event.game.engine_protocol is EngineProtocol.GTP:  # Go engines; else Gomocup brains
        from duiyi.engines.match import (
            MatchSettings,
            parse_time_spec,
            play_game,
            record_sgf,
            sgf_result,
        )
        from duiyi.go import Rules

        base = MatchSettings(size=size, rules=Rules.preset(rules), time=parse_time_spec(time_spec))

        async def play_go(job: Board) -> Played:
            settings = replace(base, handicap=job.handicap)
            rec = await play_game(job.black, job.white, settings, number=job.board, names=job.names)
            return Played(rec.outcome, sgf_result(rec), rec.reason, record_sgf(rec))

        return play_go

    import random

    from duiyi.cli.gomoku_match import record_to_psq, record_to_sgf
    from duiyi.engines import gomocup_match
    from duiyi.gomoku.match import TimeControl, pick_opening
    from duiyi.gomoku.rules import RenjuRules

    turn = int(time_spec) if time_spec.strip().isdigit() else 5000
    renju = RenjuRules.preset(rules)
    seed = event.options.seed or 0
    spec = event.options.openings or "designated"

    async def play_gomoku(job: Board) -> Played:
        # the opening of a board is a function of the recorded seed, the round and the board:
        # a resumed run and a replayed game start from the same stones
        drawn = pick_opening(renju, random.Random(f"{seed}:{job.round}:{job.board}"), spec)
        name, stones = drawn if drawn is not None else ("", ())
        rec = await gomocup_match.play_game(
            job.black,
            job.white,
            opening=stones,
            opening_name=name or None,
            rules=renju,
            time_control=TimeControl(turn_ms=turn),
            number=job.board,
            names=job.names,
        )
        sgf = record_to_sgf(rec, renju)
        return Played(rec.outcome, rec.result_text, rec.reason, sgf, record_to_psq(rec), name)

    return play_gomoku


async def _play_round(
    path: Path, number: int, boards: list[int], concurrency: int, player: _Player, seed: int
) -> None:
    import random

    from duiyi.tournament import event as ops
    from duiyi.tournament.formats.eventfile import event_lock, load_event, save_event
    from duiyi.tournament.results import GameResult

    gate = asyncio.Semaphore(concurrency)
    names = {p.number: p.name for p in load_event(path).players}

    async def one(board: int) -> None:
        event = load_event(path)
        g = event.round(number).game(board)
        while g.result is None:  # a drawn elimination game is replayed (settle_draw)
            job = Board(
                number,
                board,
                engine_of(event, g.black),
                engine_of(event, g.white),
                (names[g.black], names[g.white]),
                g.handicap,
            )
            async with gate:
                played = await player(job)
            stem = f"round-{number}-board-{board}" + (f"-replay-{g.replays}" if g.replays else "")
            sgf_path = games_dir(path) / f"{stem}.sgf"
            sgf_path.write_text(played.sgf, encoding="utf-8")
            if played.psq:
                sgf_path.with_suffix(".psq").write_text(played.psq, encoding="utf-8")
            result = GameResult.from_outcome(played.outcome)
            ruled = len(g.trail)
            with event_lock(path):
                event = load_event(path)
                if result in (GameResult.DRAW, GameResult.NO_RESULT):
                    drawn_from = f"{seed}:lot:{number}:{board}"
                    lot = random.Random(drawn_from)
                    event = ops.settle_draw(event, number, board, result, lot, seed=drawn_from)
                else:
                    event = ops.enter_result(event, number, board, result)
                save_event(event, path)
            opening = f" [{played.opening}]" if played.opening else ""
            outcome = played.outcome
            typer.echo(
                f"round {number} board {board}{opening}: {job.names[0]} (B) - {job.names[1]} "
                f"(W) {played.result}  {outcome.termination.value}: {played.reason} "
                f"({outcome.article})"
            )
            g = event.round(number).game(board)
            for entry in g.trail[ruled:]:  # the arbiter's ruling on a drawn elimination game
                typer.echo(f"round {number} board {board}: {entry.note}")

    tasks = [asyncio.ensure_future(one(board)) for board in boards]
    try:
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
    main = asyncio.current_task()
    if main is not None and main.cancelling():
        # a Ctrl-C cancelled this round but a cleanup below swallowed the cancellation (in
        # Python 3.11 `wait_for` does when its awaitable is done as the cancel lands): the
        # round still stops here, so asyncio.run raises KeyboardInterrupt, not the next round
        raise asyncio.CancelledError


def register(app: typer.Typer) -> None:
    """Add ``engine`` and ``play`` to the ``duiyi event`` Typer app.

    >>> sub = typer.Typer()
    >>> register(sub)
    >>> [c.name for c in sub.registered_commands]
    ['engine', 'play']
    """
    app.command("engine")(engine_command)
    app.command("play")(play_command)
