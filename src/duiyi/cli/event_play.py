"""``duiyi event engine`` and ``duiyi event play``: events whose players are engines.

* ``duiyi event engine EV.json NAME -- CMD ARGS...`` enters an engine player (or changes the
  command of the player called NAME). The command is kept in the player's ``extra`` columns
  under ``engine``, so the event file stays an ordinary event file.
* ``duiyi event play EV.json [--round N | --all-rounds] [--concurrency K] [--size S]
  [--time SPEC]`` pairs the next round when the last one is complete, plays every game of the
  round that has no result yet, K at a time, each refereed by duiyi (Go: GTP engines through
  :mod:`duiyi.engines.match`; Gomoku: Gomocup brains through :mod:`duiyi.engines.gomocup`),
  and enters each result in the event file as soon as the game ends (under the event file's
  lock, so ``standings`` can be read meanwhile). The SGF of each game goes to
  ``EV.games/round-R-board-B.sgf`` beside the event file.

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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from duiyi.errors import TournamentError

if TYPE_CHECKING:
    from duiyi.outcome import Outcome
    from duiyi.tournament.model import Event

__all__ = ["engine_command", "engine_of", "games_dir", "play_command", "register"]

ENGINE_KEY = "engine"


def engine_of(event: Event, number: int) -> str:
    """The engine command of player ``number``; TournamentError when it has none."""
    player = event.player(number)
    for key, value in player.extra:
        if key == ENGINE_KEY and value.strip():
            return value
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
    rules: Annotated[str, typer.Option("--rules", help="Go rules preset.")] = "chinese",
    seed: Annotated[int, typer.Option(help="Seed for any lot the pairing draws.")] = 0,
) -> None:
    """Pair and play the engine games of a round (or of every round), entering the results.

    Resumable: rerun after an interruption; boards with a result are kept, a game that was in
    progress is replayed from the first move.
    """
    import random

    from duiyi.tournament import event as ops
    from duiyi.tournament.formats.eventfile import event_lock, load_event, save_event

    if round_number is not None and all_rounds:
        raise TournamentError("give --round N or --all-rounds, not both")
    event = load_event(path)
    if event.game == "gomoku" and size not in (None, 15):
        raise TournamentError("Gomoku is played on the 15x15 board (Gomoku §1)")
    player = _player_factory(event.game, size or 19, time_spec, rules)
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
        blocked = _blocked(event, target)
        todo = [g for g in pending if g.black not in blocked and g.white not in blocked]
        for g in pending:
            if g not in todo:
                typer.echo(f"round {target} board {g.board}: a withdrawn player; not played")
        if not todo:
            typer.echo(f"round {target}: no board left to play")
            if not all_rounds or pending:
                break
        jobs = [
            (g.board, engine_of(event, g.black), engine_of(event, g.white), g.handicap)
            for g in todo
        ]
        names = {p.number: p.name for p in event.players}
        asyncio.run(
            _play_round(path, target, jobs, todo, names, concurrency, player),
        )
        played_rounds += 1
        if not all_rounds:
            break
        event = load_event(path)
        if not event.round(target).complete or target >= ops.total_rounds(event):
            break
    if played_rounds:
        typer.echo(f"results entered in {path}; `duiyi event standings {path}` shows the table")


def _blocked(event: Event, target: int) -> set[int]:
    """Players who withdrew before round ``target``: their games are the withdrawal rule's."""
    return {w.player for w in event.withdrawals if w.after_round < target}


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


_Player = Any  # a coroutine function (black cmd, white cmd, handicap, number, names) -> result


def _player_factory(game: str, size: int, time_spec: str, rules: str) -> _Player:
    if game == "go":
        from duiyi.engines.match import MatchSettings, parse_time_spec, play_game
        from duiyi.go import Rules

        base = MatchSettings(size=size, rules=Rules.preset(rules), time=parse_time_spec(time_spec))

        async def play_go(
            black: str, white: str, handicap: int, number: int, names: tuple[str, str]
        ) -> tuple[Outcome, str, str, str]:
            settings = replace(base, handicap=handicap)
            rec = await play_game(black, white, settings, number=number, names=names)
            return rec.outcome, rec.result, rec.reason, rec.sgf()

        return play_go

    from duiyi.cli.gomoku_match import record_to_sgf
    from duiyi.engines import gomocup
    from duiyi.gomoku.match import TimeControl
    from duiyi.gomoku.rules import RenjuRules

    turn = int(time_spec) if time_spec.strip().isdigit() else 5000
    free = RenjuRules.free()

    async def play_gomoku(
        black: str, white: str, handicap: int, number: int, names: tuple[str, str]
    ) -> tuple[Outcome, str, str, str]:
        rec = await gomocup.play_game(
            black,
            white,
            rules=free,
            time_control=TimeControl(turn_ms=turn),
            number=number,
            names=names,
        )
        return rec.outcome, rec.result_text, rec.reason, record_to_sgf(rec, free)

    return play_gomoku


async def _play_round(
    path: Path,
    number: int,
    jobs: list[tuple[int, str, str, int]],
    todo: list[Any],
    names: dict[int, str],
    concurrency: int,
    player: _Player,
) -> None:
    from duiyi.tournament import event as ops
    from duiyi.tournament.formats.eventfile import event_lock, load_event, save_event

    gate = asyncio.Semaphore(concurrency)
    by_board = {g.board: g for g in todo}

    async def one(board: int, black: str, white: str, handicap: int) -> None:
        g = by_board[board]
        labels = (names[g.black], names[g.white])
        async with gate:
            outcome, result, reason, sgf = await player(black, white, handicap, board, labels)
        sgf_path = games_dir(path) / f"round-{number}-board-{board}.sgf"
        sgf_path.write_text(sgf, encoding="utf-8")
        with event_lock(path):
            event = load_event(path)
            event = ops.enter_outcome(event, number, board, outcome)
            save_event(event, path)
        typer.echo(
            f"round {number} board {board}: {labels[0]} (B) - {labels[1]} (W) {result}  "
            f"{outcome.termination.value}: {reason} ({outcome.article})"
        )

    tasks = [asyncio.ensure_future(one(*job)) for job in jobs]
    try:
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()


def register(app: typer.Typer) -> None:
    """Add ``engine`` and ``play`` to the ``duiyi event`` Typer app.

    >>> sub = typer.Typer()
    >>> register(sub)
    >>> [c.name for c in sub.registered_commands]
    ['engine', 'play']
    """
    app.command("engine")(engine_command)
    app.command("play")(play_command)
