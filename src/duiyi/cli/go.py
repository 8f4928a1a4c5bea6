"""``duiyi go``: replay, score and draw Go games from SGF files (Go rules 2002).

* ``duiyi go replay FILE.sgf``: every move is checked; an illegal one exits with code 2 and names
  the move (``illegal move #57 B Q16: ...``).
* ``duiyi go score FILE.sgf [--rules chinese] [--dead auto|sgf-markers|none] [--format json]``.
* ``duiyi go svg FILE.sgf [--move N] [-o out.svg]``.
* ``duiyi go demo``: replay and count a real KGS game (30 ship with duiyi; ``--archive`` reads
  any ``.tar.gz`` of SGF files).

>>> app.info.name
'go'
"""

from __future__ import annotations

import json
import math
import tarfile
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from duiyi import BLACK, WHITE, Color
from duiyi.cli import room
from duiyi.errors import InvalidInput

__all__ = ["DEMO_ARCHIVE", "app"]

app = room("go")

#: The games ``duiyi go demo`` replays when no ``--archive`` is given: the 30 games of KGS's
#: January 2017 archive (6-dan+ players) played under Chinese rules that ended by counting,
#: shipped as package data (their source: ``tests/data/go/README.md`` in the repository).
DEMO_ARCHIVE = "kgs-2017-01-counted.tar.gz"


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}") from None


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="SGF file to replay.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
) -> None:
    """Replay the main line, checking every move; exit 2 at the first illegal move."""
    from duiyi.go import sgf

    sg = sgf.read_game(_read(file))
    if quiet:
        return
    g = sg.game
    typer.echo(str(g.board))
    recorded = sg.root.simpletext("RE")
    typer.echo(
        f"{file.name}: {len(g.moves)} moves, all legal under {g.rules.name} rules"
        + (f"; recorded result {recorded}" if recorded else "")
    )
    for note in sg.warnings:
        typer.echo(f"warning: {note}", err=True)


@app.command()
def score(
    file: Annotated[Path, typer.Argument(help="SGF file of a finished game.")],
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Count under this rule set (its own komi) instead of the file's RU/KM: "
            "chinese, japanese, korean, ing, aga, nz, tromp-taylor.",
        ),
    ] = None,
    komi: Annotated[
        float | None, typer.Option("--komi", help="Komi in points (overrides).")
    ] = None,
    dead: Annotated[
        str,
        typer.Option(
            "--dead",
            help="Dead stones: sgf-markers (TB/TW of the last node), auto (life engine), none.",
        ),
    ] = "sgf-markers",
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
) -> None:
    """Count the final position (Go §9) and compare with the recorded result."""
    from duiyi.go import sgf
    from duiyi.go.rules import MAX_KOMI_POINTS, Rules
    from duiyi.go.scoring import score_position

    if dead not in ("sgf-markers", "auto", "none"):
        raise InvalidInput(f"--dead must be sgf-markers, auto or none, not {dead!r}")
    if fmt not in ("text", "json"):
        raise InvalidInput(f"--format must be text or json, not {fmt!r}")
    sg = sgf.read_game(_read(file))
    g = sg.game
    chosen: Rules = g.rules
    if rules is not None:
        chosen = Rules.preset(rules)  # the one list of presets (duiyi.go.rules.PRESETS)
    if komi is not None:
        if not math.isfinite(komi) or abs(komi) > MAX_KOMI_POINTS:
            raise InvalidInput(f"--komi must be a number of points within ±{MAX_KOMI_POINTS}")
        k = Fraction(komi).limit_denominator(4) / chosen.unit_points
        chosen = replace(chosen, komi=k, handicap_komi=k if g.handicap else chosen.handicap_komi)
    if dead == "sgf-markers" and not ("TB" in sg.last_node or "TW" in sg.last_node):
        typer.echo(
            "note: no TB/TW markers on the last node; dead stones from the life engine", err=True
        )
        dead = "auto"
    if dead == "sgf-markers":
        result = sgf.score_from_markers(g, sg.last_node, chosen)
    else:
        dead_points = g.propose_dead() if dead == "auto" else frozenset()
        result = score_position(g.board, chosen, dead_points, g.handicap, g.captures, g.warnings)
    recorded = sg.root.simpletext("RE")
    if fmt == "json":
        data = result.to_json()
        data["rules"] = chosen.name
        data["recorded_result"] = recorded
        data["dead"] = sorted(str(p) for p in result.dead)
        data["dead_from"] = dead
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    unit = "stones" if chosen.unit_points == 2 else "points"
    typer.echo(f"rules       {chosen.name} (komi {_num(chosen.komi, unit)} {unit})")
    typer.echo(f"dead stones {len(result.dead)} ({dead})")
    typer.echo(f"black       {_num(result.black_area, unit)} {unit}")
    typer.echo(f"white       {_num(result.white_area, unit)} {unit}")
    typer.echo(f"result      {result.result_zh}  {result.sgf_result}")
    if recorded:
        same = sgf.SgfResult.parse(recorded) == sgf.SgfResult.parse(result.sgf_result)
        typer.echo(f"recorded    {recorded}  ({'matches' if same else 'differs'})")


def _num(x: Fraction, unit: str = "stones") -> str:
    """Stones in the book's form (184又1/2), points as decimals (6.5)."""
    from duiyi.go.scoring import format_stones

    if unit == "stones":
        return format_stones(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


@app.command()
def svg(
    file: Annotated[Path, typer.Argument(help="SGF file.")],
    move: Annotated[
        int | None, typer.Option("--move", "-m", help="Show the position after N moves.")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here (default stdout).")
    ] = None,
    size: Annotated[int, typer.Option("--size", help="Width in pixels.")] = 500,
    dead: Annotated[
        str,
        typer.Option(
            "--dead",
            help="Mark dead stones and territory: none, sgf-markers (TB/TW), auto (life engine).",
        ),
    ] = "none",
) -> None:
    """Draw the final position (or the one after --move N) as SVG."""
    from duiyi.go import Point, sgf
    from duiyi.go import svg as svgmod
    from duiyi.go.scoring import score_position

    if move is not None and move < 0:
        raise InvalidInput("--move must be 0 or more")
    if dead not in ("none", "sgf-markers", "auto"):
        raise InvalidInput(f"--dead must be none, sgf-markers or auto, not {dead!r}")
    sg = sgf.read_game(_read(file), until_move=move)
    g = sg.game
    if move is not None and len(g.moves) < move:
        raise InvalidInput(f"--move {move}: {file.name} has only {len(g.moves)} moves")
    dead_stones: frozenset[Point] = frozenset()
    owners: dict[Point, Color] = {}
    if dead != "none":
        if dead == "sgf-markers":
            counted = sgf.score_from_markers(g, sg.last_node)
        else:
            counted = score_position(g.board, g.rules, g.propose_dead(), g.handicap, g.captures)
        owners = {p: BLACK for p in counted.black_territory}
        owners.update({p: WHITE for p in counted.white_territory})
        dead_stones = counted.dead
    text = svgmod.board(g, size=size, title=file.name, dead=dead_stones, territory=owners)
    if output is None:
        typer.echo(text, nl=False)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InvalidInput(f"cannot write {output}: {exc.strerror or exc}") from None


def _archive_games(archive: Path | None) -> list[tuple[str, bytes]]:
    """The SGF files of a ``.tar.gz`` archive (the packaged demo games when ``archive`` is None),
    sorted by name.

    >>> len(_archive_games(None))
    30
    """
    from importlib.resources import files

    try:
        if archive is None:
            with files("duiyi.cli").joinpath(DEMO_ARCHIVE).open("rb") as f:
                return _tar_games(f.read())
        return _tar_games(archive.read_bytes())
    except (OSError, tarfile.TarError, EOFError) as exc:
        raise InvalidInput(f"cannot read the archive {archive}: {exc}") from None


def _tar_games(data: bytes) -> list[tuple[str, bytes]]:
    import io

    out: list[tuple[str, bytes]] = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar:
            if not member.isfile() or not member.name.endswith(".sgf"):
                continue
            f = tar.extractfile(member)
            if f is not None:
                out.append((member.name, f.read()))
    out.sort()
    return out


@app.command()
def demo(
    archive: Annotated[
        Path | None,
        typer.Option(
            "--archive", help="A .tar.gz of SGF files (default: the games shipped with duiyi)."
        ),
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", help="File name inside the archive.")
    ] = None,
) -> None:
    """Replay a real KGS game that ended by counting and count it under Chinese rules."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table

    from duiyi import BLACK
    from duiyi.go import Game, Point, sgf
    from duiyi.go.point import COLUMN_LETTERS

    console = Console()
    if archive is not None and not archive.is_file():
        raise InvalidInput(f"the archive {archive} does not exist; pass a .tar.gz of SGF files")
    games = _archive_games(archive)
    path = archive if archive is not None else DEMO_ARCHIVE
    chosen: tuple[str, bytes] | None = None
    for name, data in games:
        if game is not None and not name.endswith(game):
            continue
        text = data.decode("utf-8", "replace")
        if game is None and ("RU[Chinese]" not in text or "TB[" not in text):
            continue
        re_ = sgf.parse(text).games[0].simpletext("RE") or ""
        if game is None and sgf.SgfResult.parse(re_).reason != "score":
            continue
        chosen = (name, data)
        break
    if chosen is None:
        raise InvalidInput(f"no suitable game found in {path}" + (f" named {game}" if game else ""))
    name, data = chosen
    coll = sgf.parse(data)
    root = coll.games[0]
    recorded = root.simpletext("RE") or "?"
    console.print(
        f"[bold]{Path(name).name}[/bold]  {root.simpletext('PB')} ({root.simpletext('BR')}) "
        f"vs {root.simpletext('PW')} ({root.simpletext('WR')}), RU[{root.simpletext('RU')}] "
        f"KM[{root.get('KM')}] HA[{root.get('HA') or 0}], {len(games)} games in the archive"
    )
    # Replay move by move, each checked by the rules, with a progress bar.
    full = sgf.read_game(coll)
    moves = full.game.moves
    start = sgf.read_game(coll, until_move=0).game
    replayed: Game = start
    with Progress(
        TextColumn("replaying"), BarColumn(), MofNCompleteColumn(), console=console
    ) as progress:
        task = progress.add_task("moves", total=len(moves))
        for color, point in moves:
            replayed.play(point, color)
            progress.advance(task)
    assert replayed.board == full.game.board
    dead = full.dead_from_markers()
    board = replayed.board
    n = board.size
    lines = ["   " + " ".join(COLUMN_LETTERS[:n])]
    for row in range(n - 1, -1, -1):
        cells = []
        for col in range(n):
            p = Point(col, row)
            c = board.get(p)
            if c is None:
                cells.append("[dim].[/dim]")
            elif p in dead:
                cells.append("[red]x[/red]" if c is BLACK else "[red]o[/red]")
            else:
                cells.append("[bold]X[/bold]" if c is BLACK else "O")
        lines.append(f"{row + 1:>2} " + " ".join(cells) + f"  {row + 1}")
    console.print("\n".join(lines))
    console.print("X black, O white, [red]x o[/red] dead (from the TB/TW markers)")
    chinese = sgf.rules_from_sgf(
        "Chinese", sgf.decode_komi(root.get("KM") or "7.5"), start.handicap
    )
    counted = sgf.score_from_markers(replayed, full.last_node, chinese)
    table = Table(title="Count under the Chinese rules (Go §9, §11)")
    table.add_column("")
    table.add_column("black")
    table.add_column("white")
    table.add_row("area (stones)", _num(counted.black_area), _num(counted.white_area))
    table.add_row("komi (stones)", _num(counted.komi), "")
    table.add_row("handicap return (stones)", _num(counted.handicap_return), "")
    console.print(table)
    same = sgf.SgfResult.parse(recorded) == sgf.SgfResult.parse(counted.sgf_result)
    console.print(
        f"duiyi: [bold]{counted.result_zh}[/bold] ({counted.sgf_result});  "
        f"recorded RE[{recorded}]: " + ("[green]matches[/green]" if same else "[red]differs[/red]")
    )


from duiyi.cli.go_match import register as _register_match  # noqa: E402

_register_match(app)
