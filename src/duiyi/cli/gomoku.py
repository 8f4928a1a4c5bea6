"""``duiyi gomoku``: forbidden points, replays, the 26 openings and drawings (Gomoku rules 2013).

* ``duiyi gomoku forbidden "h8 h9 j10 ..." | FILE [--format text|json] [--explain]``: Black's
  forbidden points of the position the moves (or the game file) make (Gomoku §2.19).
* ``duiyi gomoku replay FILE``: replay a game (SGF GM[4], Piskvork .psq, a record sheet or a
  move list), checking every move, and print the record, the position and the result.
* ``duiyi gomoku openings``: the 26 designated openings with their names (Gomoku §3.2).
* ``duiyi gomoku svg "h8 h9 ..." | --file FILE [-o out.svg]``: draw the position.
* ``duiyi gomoku toss A B --call heads [--choice black|white|opponent_first] [--seed N]``: the
  arbiter's coin (Gomoku §5.3(2)): who won the call and, with the winner's choice, who plays Black.
* ``duiyi gomoku appeal --round-end T --lodged T --limit S [--delay S]``: whether an appeal came
  in time (Gomoku §8.11; times in seconds or ``HH:MM``).
* ``duiyi gomoku match ...``: engine matches (from ``duiyi.cli.gomoku_match`` when present).

>>> app.info.name
'gomoku'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from duiyi.cli import room
from duiyi.errors import InvalidInput

if TYPE_CHECKING:
    from duiyi.gomoku.rules import RenjuRules

__all__ = ["app"]

app = room("gomoku")

_RULES = ("auto", "chinese-2013", "free", "free-renju")


def _rules(name: str) -> RenjuRules | None:
    from duiyi.gomoku import RenjuRules

    key = name.strip().lower()
    if key == "auto":
        return None
    return RenjuRules.preset(key)  # the one list of Gomoku presets


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}") from None


@app.command()
def forbidden(
    moves: Annotated[
        str, typer.Argument(help='Moves, Black first: "h8 h9 j10" (pass allowed), or a game file.')
    ],
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    explain: Annotated[bool, typer.Option(help="Say which lines make each foul.")] = False,
) -> None:
    """Black's forbidden points in the position (Gomoku §2.19)."""
    from duiyi.gomoku import Board, explain_foul, forbidden_points

    path = Path(moves)
    if moves.strip() and path.is_file():
        from duiyi.gomoku.notation import parse_sgf, read_game

        text = _read(path)
        if text.lstrip().startswith("("):
            board = parse_sgf(text).board()  # setup stones allowed, no rules replay
        else:
            board = read_game(text, path.name, _rules("free")).board
    else:
        board = Board.from_moves(moves)
    found = forbidden_points(board)
    if fmt == "json":
        data: dict[str, object] = {"forbidden": {k: v.value for k, v in found.items()}}
        if explain:
            data["explanations"] = {k: str(explain_foul(board, k)) for k in found}
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    if fmt != "text":
        raise InvalidInput(f"unknown format {fmt!r} (text or json)")
    from duiyi.gomoku import Point

    marks = {
        Point.parse(k): {"double-three": "3", "double-four": "4"}.get(v.value, "6")
        for k, v in found.items()
    }
    typer.echo(board.diagram(marks))
    if not found:
        typer.echo("no forbidden point for Black")
    for k, v in found.items():
        line = f"{k}: {v.value} ({v.zh})"
        if explain:
            line = str(explain_foul(board, k))
        typer.echo(line)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="SGF, .psq, record sheet or move list file.")],
    rules: Annotated[str, typer.Option(help="auto, chinese-2013, free or free-renju.")] = "auto",
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
) -> None:
    """Replay a game, checking every move; exit 2 at the first illegal one."""
    from duiyi.gomoku.notation import read_game, record_sheet

    game = read_game(_read(file), file.name, _rules(rules))
    o = game.outcome()
    if fmt == "json":
        typer.echo(
            json.dumps(
                {
                    "moves": [str(m.point) if m.point else "pass" for m in game.moves],
                    "opening": game.opening.opening.id if game.opening else None,
                    "outcome": o.to_json() if o else None,
                    "forbidden": {k: v.value for k, v in game.forbidden_points().items()},
                },
                ensure_ascii=False,
            )
        )
        return
    if game.opening is not None:
        op = game.opening.opening
        typer.echo(f"opening: {op.id} {op.name} ({op.japanese}, {op.kind})")
    typer.echo(record_sheet([m.point for m in game.moves], swap_after=game.swap_after))
    typer.echo(game.board.diagram())
    if o is None:
        fb = game.forbidden_points()
        typer.echo(f"result: ongoing, {game.to_act} to play")
        if fb:
            typer.echo("forbidden for Black: " + ", ".join(f"{k} {v.value}" for k, v in fb.items()))
    else:
        typer.echo(f"result: {game.outcome_text()} ({o.article})")


@app.command()
def openings(
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
) -> None:
    """The 26 designated openings (Gomoku §3.2)."""
    from duiyi.gomoku.openings import OPENINGS

    if fmt == "json":
        typer.echo(json.dumps([o.to_json() for o in OPENINGS], ensure_ascii=False))
        return
    for o in OPENINGS:
        kind = "直指 direct" if o.kind == "direct" else "斜指 indirect"
        moves = " ".join(str(p) for p in o.moves)
        typer.echo(f"{o.id:<4} {o.name:<4} {o.japanese:<10} {kind:<12} {moves}")


@app.command()
def toss(
    caller: Annotated[str, typer.Argument(help="The player who calls the coin.")],
    other: Annotated[str, typer.Argument(help="The other player.")],
    call: Annotated[str, typer.Option("--call", help="heads or tails.")] = "heads",
    choice: Annotated[
        str | None,
        typer.Option("--choice", help="the winner's choice: black, white or opponent_first."),
    ] = None,
    opponent_takes: Annotated[
        str | None, typer.Option("--opponent-takes", help="with opponent_first: black or white.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="a seed for a repeatable toss.")
    ] = None,
) -> None:
    """The arbiter's coin, 挑边器 (Gomoku §5.3(2)): who won the call, and who plays Black."""
    import random

    from duiyi import Color
    from duiyi.gomoku.colours import CoinChoice, Face, coin_toss

    try:
        face_called = Face(call.strip().lower())
        picked = None if choice is None else CoinChoice(choice.strip().lower())
        takes = None if opponent_takes is None else Color(opponent_takes.strip().lower())
    except ValueError as exc:
        raise InvalidInput(f"{exc} (Gomoku §5.3(2))", "Gomoku §5.3(2)") from None
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    result = coin_toss(caller, other, rng, call=face_called)
    typer.echo(f"{caller} called {face_called.value}, {result.face.value} came up")
    typer.echo(f"{result.winner} won the call and chooses (Gomoku §5.3(2) A, B or C)")
    if picked is not None:
        black, white = result.colours(picked, takes)
        typer.echo(f"Black: {black}  White: {white}")


def _seconds(text: str) -> float:
    raw = text.strip()
    try:
        if ":" in raw:
            h, m = raw.split(":", 1)
            return int(h) * 3600.0 + int(m) * 60.0
        return float(raw)
    except ValueError:
        raise InvalidInput(f"a time is seconds or HH:MM, got {text!r}") from None


@app.command()
def appeal(
    round_end: Annotated[str, typer.Option("--round-end", help="when the round ended.")],
    lodged: Annotated[str, typer.Option("--lodged", help="when the appeal was lodged.")],
    limit: Annotated[str, typer.Option("--limit", help="the time allowed (seconds or HH:MM).")],
    delay: Annotated[
        str, typer.Option("--delay", help="time lost by the organiser's fault.")
    ] = "0",
) -> None:
    """Whether an appeal came in time (Gomoku §8.11); exit 1 when it is late."""
    from duiyi.referee.appeals import appeal_in_time

    end, at = _seconds(round_end), _seconds(lodged)
    ok = appeal_in_time(end, at, _seconds(limit), organiser_delay=_seconds(delay))
    deadline = end + _seconds(limit) + _seconds(delay)
    hh, mm = divmod(int(deadline) // 60, 60)
    typer.echo(f"deadline {hh:02d}:{mm:02d}: " + ("in time" if ok else "too late (Gomoku §8.11)"))
    if not ok:
        raise typer.Exit(1)


@app.command()
def svg(
    moves: Annotated[str, typer.Argument(help='Moves, Black first ("" with --file).')] = "",
    file: Annotated[Path | None, typer.Option("--file", "-f", help="A game file.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="SVG file.")] = None,
    show_forbidden: Annotated[
        bool, typer.Option("--forbidden/--no-forbidden", help="Mark forbidden points.")
    ] = True,
    numbers: Annotated[bool, typer.Option(help="Write move numbers on the stones.")] = False,
) -> None:
    """Draw the position as SVG, Black's forbidden points marked."""
    from duiyi.gomoku.notation import game_from_moves, parse_moves, read_game
    from duiyi.gomoku.svg import board_svg

    if file is not None:
        game = read_game(_read(file), file.name)
    elif moves.strip():
        game = game_from_moves(parse_moves(moves), _rules("free-renju"))
    else:
        raise InvalidInput("give moves or --file")
    nums = {m.point: m.number for m in game.moves if m.point is not None} if numbers else None
    last = next((m.point for m in reversed(game.moves) if m.point is not None), None)
    fb = game.forbidden_points() if show_forbidden and game.rules.fouls else False
    text = board_svg(game.board, forbidden=fb, numbers=nums, last_move=last)
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        typer.echo(f"wrote {output}")


try:
    from duiyi.cli.gomoku_match import register as _register_match
except ModuleNotFoundError as _exc:  # the Gomocup engineer's module may not exist yet
    if _exc.name != "duiyi.cli.gomoku_match":
        raise
else:
    _register_match(app)
