"""``duiyi go match``: two GTP engines play a refereed match (duiyi judges every move).

``duiyi.cli.go`` calls :func:`register` to add the command to the ``go`` sub-app. Each engine
command is one argument split like a shell would (``"gnugo --mode gtp --level 3"``). Colours
alternate, game 1 with the first engine as Black. The rules of refereeing are those of
:mod:`duiyi.engines.match`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from duiyi.errors import InvalidInput

if TYPE_CHECKING:
    from duiyi.engines.record import EngineGameRecord
    from duiyi.engines.score import MatchScore

__all__ = ["Progress", "match", "register"]


class Format(StrEnum):
    """Output of ``go match``."""

    text = "text"
    json = "json"


def match(
    black_cmd: Annotated[str, typer.Argument(help="Engine A's command (Black in game 1).")],
    white_cmd: Annotated[str, typer.Argument(help="Engine B's command.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 2,
    size: Annotated[int, typer.Option("--size", min=5, max=25, help="Board size.")] = 19,
    rules: Annotated[
        str, typer.Option("--rules", help="chinese, japanese, korean, ing or aga.")
    ] = "chinese",
    time_spec: Annotated[
        str,
        typer.Option(
            "--time",
            help="none, 300 (sudden death), 300+5 (Fischer), 300/30x3 (byo-yomi), "
            "300/60:10 (Canadian), cn:3600:5 (Chinese byo-yomi, Go §12.3). Seconds.",
        ),
    ] = "none",
    sgf_dir: Annotated[
        Path | None, typer.Option("--sgf-dir", help="Write one SGF per game here.")
    ] = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-k", min=1, help="Games played at once.")
    ] = 1,
    fmt: Annotated[Format, typer.Option("--format", help="text or json.")] = Format.text,
    tolerance: Annotated[
        float, typer.Option("--tolerance", min=0.0, help="Seconds of grace after a flag.")
    ] = 0.1,
    move_timeout: Annotated[
        float,
        typer.Option("--move-timeout", min=0.1, help="Seconds of silence that lose, untimed."),
    ] = 60.0,
    max_moves: Annotated[
        int | None,
        typer.Option("--max-moves", min=1, help="Count with duiyi's proposal after N moves."),
    ] = None,
    resign_margin: Annotated[
        float | None,
        typer.Option("--resign-margin", min=0.5, help="Adjudicate when ahead by P points..."),
    ] = None,
    resign_moves: Annotated[
        int, typer.Option("--resign-moves", min=1, help="...for N consecutive moves.")
    ] = 4,
    name_a: Annotated[str | None, typer.Option("--name-a", help="Label of engine A.")] = None,
    name_b: Annotated[str | None, typer.Option("--name-b", help="Label of engine B.")] = None,
) -> None:
    """Play BLACK_CMD against WHITE_CMD (GTP engines) with duiyi as the referee.

    Illegal moves (superko per the rules), time, crashes and silence are ruled with the
    article; the end is counted with the dead stones both engines agree on, else duiyi's.
    Exit 0 when every game was played.
    """
    from duiyi.engines.match import (
        MatchSettings,
        parse_time_spec,
        play_match,
        record_json,
        record_sgf,
        sgf_result,
    )
    from duiyi.engines.process import check_command
    from duiyi.go import Rules

    check_command(black_cmd), check_command(white_cmd)  # a missing engine: one line, exit 2

    settings = MatchSettings(
        size=size,
        rules=Rules.preset(rules),
        time=parse_time_spec(time_spec),
        tolerance=tolerance,
        move_timeout=move_timeout,
        max_moves=max_moves,
        resign_margin=resign_margin,
        resign_moves=resign_moves,
    )
    if sgf_dir is not None:
        try:
            sgf_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidInput(f"cannot create {sgf_dir}: {exc.strerror or exc}") from None
    text = fmt is Format.text
    progress = Progress(games, "go match") if text and sys.stdout.isatty() else None

    sgf_paths: dict[int, str] = {}

    def done(record: EngineGameRecord, score: MatchScore) -> None:
        if sgf_dir is not None:
            path = sgf_dir / f"game-{record.number:03d}.sgf"
            path.write_text(record_sgf(record), encoding="utf-8")
            sgf_paths[record.number] = str(path)
        if not text:
            return
        line = (
            f"game {record.number}: {record.black} (B) - {record.white} (W) {sgf_result(record)}  "
            f"{record.outcome.termination.value}: {record.reason} ({record.outcome.article}; "
            f"{record.move_count} moves)"
        )
        if progress is not None:
            progress.advance(line, score.score_line())
        else:
            typer.echo(line)
            typer.echo(f"  {score.score_line()}")

    names = (name_a, name_b)
    match = play_match(
        black_cmd,
        white_cmd,
        games=games,
        settings=settings,
        concurrency=concurrency,
        names=names,
        on_game=done,
    )
    with progress if progress is not None else contextlib.nullcontext():
        records, score = asyncio.run(match)
    if text:
        typer.echo(score.score_line())
        typer.echo(score.elo_line())
        return
    out: dict[str, Any] = {
        "games": [record_json(r, sgf=sgf_paths.get(r.number)) for r in records],
        "score": score.to_json(),
    }
    typer.echo(json.dumps(out, ensure_ascii=False))


class Progress:
    """A Rich progress bar with the running score, for matches run on a terminal."""

    def __init__(self, total: int, title: str) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
        from rich.progress import Progress as RichProgress

        self.progress = RichProgress(
            TextColumn(f"[bold]{title}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
        )
        self.task = self.progress.add_task("", total=total)

    def __enter__(self) -> Progress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def advance(self, line: str, description: str) -> None:
        """Print a game's line above the bar and move the bar on."""
        self.progress.console.print(line, markup=False, highlight=False)
        self.progress.update(self.task, advance=1, description=description)


def register(app: typer.Typer) -> None:
    """Add the ``match`` command to the ``duiyi go`` Typer app.

    >>> sub = typer.Typer()
    >>> register(sub)
    >>> [c.name for c in sub.registered_commands]
    ['match']
    """
    app.command("match")(match)
