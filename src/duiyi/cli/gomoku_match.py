"""``duiyi gomoku match``: two Gomocup brains play a refereed match.

``duiyi.cli.gomoku`` calls :func:`register` to add the command to the ``gomoku`` sub-app, so it
runs as ``duiyi gomoku match A B ...`` (or ``python -m duiyi gomoku match A B ...``).

Each brain command is split like a shell would, so ``"python3 pbrain-foo.py --level 3"`` works.
Every game starts both brains afresh. With designated openings each opening is played twice,
engine A with Black first, then colours swapped, cycling through the list (the three-move swap
and the fifth-move N-dab are skipped: the Gomocup protocol has no command for them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from duiyi import BLACK, WHITE
from duiyi.cli.go_match import Progress
from duiyi.engines.gomocup_match import run_match
from duiyi.engines.process import check_command
from duiyi.engines.record import EngineGameRecord
from duiyi.errors import InvalidInput
from duiyi.gomoku.match import (
    DEFAULT_TOLERANCE_MS,
    ScheduledGame,
    TimeControl,
    openings_for,
)
from duiyi.gomoku.notation import game_from_moves, game_to_sgf
from duiyi.gomoku.point import Point
from duiyi.gomoku.rules import RenjuRules
from duiyi.outcome import Result, Termination

__all__ = ["match", "record_to_psq", "record_to_sgf", "register"]


def match(
    engine_a: Annotated[str, typer.Argument(help="Command of engine A (a Gomocup brain).")],
    engine_b: Annotated[str, typer.Argument(help="Command of engine B.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 2,
    opening: Annotated[
        str,
        typer.Option(
            "--opening",
            help="free, free-renju, designated (all 26, cycled) or opening names/ids "
            "separated by commas (sosei, 疏星, D3).",
        ),
    ] = "designated",
    timeout_turn: Annotated[
        int,
        typer.Option("--timeout-turn", min=0, help="Move time limit in ms, 0: none (Gomoku §8.2)."),
    ] = 5000,
    timeout_match: Annotated[
        int, typer.Option("--timeout-match", min=0, help="Game time per side in ms, 0: none.")
    ] = 0,
    tolerance: Annotated[
        int,
        typer.Option(
            "--tolerance",
            min=0,
            help="Grace in ms before ruling a move late (pipe and scheduler latency).",
        ),
    ] = DEFAULT_TOLERANCE_MS,
    start_timeout: Annotated[
        float,
        typer.Option("--start-timeout", min=0.1, help="Seconds a brain may take to answer START."),
    ] = 10.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", min=0, help="Bytes announced to brains, 0: none.")
    ] = 0,
    no_pondering: Annotated[
        bool,
        typer.Option(
            "--no-pondering", help="Suspend each brain (SIGSTOP) while its opponent thinks."
        ),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", "--pgn", help="Record file: *.sgf (SGF GM[4]) or JSON lines."),
    ] = None,
    sgf_dir: Annotated[
        Path | None,
        typer.Option("--sgf-dir", help="Write game-NNN.sgf and game-NNN.psq per game here."),
    ] = None,
    name_a: Annotated[str | None, typer.Option("--name-a", help="Label of engine A.")] = None,
    name_b: Annotated[str | None, typer.Option("--name-b", help="Label of engine B.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print the summary only.")] = False,
) -> None:
    """Play ENGINE_A against ENGINE_B (Gomocup protocol) with duiyi as the referee.

    Fouls, occupied or off-board points, time, crashes and silence
    are ruled with the article (Gomoku §8, §10).
    Prints each game and a summary from engine A's side.
    --out FILE.sgf writes an SGF collection, any other name JSON lines.
    """
    check_command(engine_a), check_command(engine_b)  # a missing brain: one line, exit 2
    rules, plan = openings_for(opening)
    control = TimeControl(
        turn_ms=timeout_turn or None, match_ms=timeout_match or None, tolerance_ms=tolerance
    )
    names = None
    if name_a or name_b:
        names = (name_a or "A", name_b or "B")
    sink = out.open("w", encoding="utf-8") if out is not None else None
    as_sgf = out is not None and out.suffix.lower() == ".sgf"

    progress = Progress(games, "gomoku match") if not quiet and sys.stdout.isatty() else None
    done = {"+": 0, "=": 0, "-": 0}

    if sgf_dir is not None:
        try:
            sgf_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidInput(f"cannot create {sgf_dir}: {exc.strerror or exc}") from None

    def report(record: EngineGameRecord, game: ScheduledGame) -> None:
        if sgf_dir is not None:
            stem = sgf_dir / f"game-{record.number:03d}"
            stem.with_suffix(".sgf").write_text(record_to_sgf(record, rules) + "\n", "utf-8")
            stem.with_suffix(".psq").write_text(record_to_psq(record), "utf-8")
        if sink is not None:
            line = (
                record_to_sgf(record, rules)
                if as_sgf
                else json.dumps(record.to_json(), ensure_ascii=False)
            )
            sink.write(line + "\n")
            sink.flush()
        if quiet:
            return
        where = f" {record.opening}" if record.opening else ""
        stones = len(record.moves)
        line = (
            f"game {record.number}{where}: {record.black} (black) - {record.white} (white) "
            f"{record.result_text}  {record.outcome.termination.value}: {record.reason} "
            f"({record.outcome.article}; {stones} stone{'' if stones == 1 else 's'})"
        )
        if progress is None:
            typer.echo(line)
            return
        a_color = BLACK if game.a_is_black else WHITE
        won = record.outcome.winner
        key = "+" if won is a_color else ("-" if won is a_color.opponent else "=")
        done[key] += 1
        progress.advance(line, f"engine A +{done['+']} ={done['=']} -{done['-']}")

    try:
        if progress is not None:
            progress.__enter__()
        tally = run_match(
            engine_a,
            engine_b,
            games=games,
            openings=plan,
            rules=rules,
            time_control=control,
            names=names,
            start_timeout=start_timeout,
            max_memory=max_memory or None,
            suspend_idle=no_pondering,
            on_game=report,
        )
    finally:
        if progress is not None:
            progress.__exit__()
        if sink is not None:
            sink.close()
    typer.echo(tally.summary())


def record_to_sgf(record: EngineGameRecord, rules: RenjuRules) -> str:
    """One engine game as an SGF game tree (FF[4], GM[4]) with the engines' names; endings the
    board cannot show (time, forfeit) go into ``RE`` (``B+T``, ``W+F``, ``Void`` when both lost),
    the reason, its article and each side's thinking time into ``C``.

    >>> from duiyi import BLACK
    >>> from duiyi.outcome import Outcome, Termination
    >>> late = Outcome.win(BLACK, Termination.TIME, "x")
    >>> sgf = record_to_sgf(EngineGameRecord(1, "a", "b", None, ("h8",), late, "late"), RenjuRules.free())
    >>> sgf.split("RE[")[1].split("\\n")[0]
    'B+T]C[late (x). Time used: black 0 ms, white 0 ms.]'
    """
    game = game_from_moves([Point.parse(m) for m in record.moves], rules)
    text = game_to_sgf(
        game,
        black=record.black,
        white=record.white,
        event=f"duiyi gomoku match, game {record.number}",
    )
    head, sep, rest = text.partition("\n")
    extra = ""
    if game.outcome() is None:
        o = record.outcome
        if o.result is Result.DRAW:
            extra += "RE[0]"
        elif o.winner is not None:
            code = {Termination.TIME: "T", Termination.FORFEIT: "F"}.get(o.termination, "")
            extra += f"RE[{o.winner.letter}+{code}]"
        else:
            extra += "RE[Void]"
    black_ms, white_ms = record.used_ms
    comment = f"{record.reason} ({record.outcome.article})" if record.reason else ""
    comment += f"{'. ' if comment else ''}Time used: black {black_ms} ms, white {white_ms} ms."
    extra += "C[" + comment.replace("\\", "\\\\").replace("]", "\\]") + "]"
    return head + extra + sep + rest


def record_to_psq(record: EngineGameRecord) -> str:
    """One engine game as a Piskvork ``.psq`` file: the header, one ``x,y,ms`` line per stone
    (1-based, ``y`` from the top; ``ms`` the time the brain took for that stone, measured as
    Piskvork does, 0 for an opening stone), ``-1``, then the brains' names and the referee's
    reason.

    >>> from duiyi import BLACK
    >>> from duiyi.outcome import Outcome, Termination
    >>> won = Outcome.win(BLACK, Termination.FIVE, "x")
    >>> rec = EngineGameRecord(1, "a", "b", None, ("h8", "h9"), won, "five", move_ms=(15, 230))
    >>> print(record_to_psq(rec))
    Piskvorky 15x15, 0:0, 0
    8,8,15
    8,7,230
    -1
    a
    b
    five
    <BLANKLINE>
    """
    lines = ["Piskvorky 15x15, 0:0, 0"]
    for index, move in enumerate(record.moves):
        point = Point.parse(move)
        lines.append(f"{point.col + 1},{15 - point.row},{record.move_time_ms(index)}")
    lines += ["-1", record.black, record.white, record.reason]
    return "\n".join(lines) + "\n"


def register(app: typer.Typer) -> None:
    """Add the ``match`` command to the ``duiyi gomoku`` Typer app.

    >>> import typer
    >>> sub = typer.Typer()
    >>> register(sub)
    >>> [c.name for c in sub.registered_commands]
    ['match']
    """
    app.command("match")(match)
