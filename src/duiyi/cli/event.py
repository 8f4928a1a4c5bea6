"""``duiyi event``: run a tournament from one event file (JSON, written atomically).

Commands: ``new``, ``players``, ``add-player``, ``edit-player``, ``remove-player``, ``pair``,
``result``, ``conflict``, ``simulate``, ``withdraw``, ``standings``, ``lots``,
``import`` / ``export`` (OpenGotha XML, EGD results files, standings CSV) and ``promotion`` (Go
appendix 附表四/五). Bad input
raises a :class:`duiyi.errors.TournamentError` (one line on stderr, exit code 2) and leaves the
event file untouched. Every command that changes the file holds its advisory lock from load to
save (:func:`duiyi.tournament.formats.eventfile.event_lock`): a second director's command waits
a moment, then fails with exit code 2 instead of silently overwriting the first one's change.

>>> from typer.testing import CliRunner
>>> from duiyi.cli import app as root
>>> "standings" in CliRunner().invoke(root, ["event", "--help"]).output
True
"""

from __future__ import annotations

import json
import random
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from duiyi import Color
from duiyi.cli import room
from duiyi.errors import EventFileError, TournamentError
from duiyi.games import get as get_game
from duiyi.tournament import entries, roster
from duiyi.tournament import event as ops
from duiyi.tournament.formats.csvfiles import (
    format_players,
    normal_rank,
    parse_players,
    parse_results,
)
from duiyi.tournament.formats.eventfile import (
    atomic_write_text,
    event_lock,
    load_event,
    save_event,
)
from duiyi.tournament.formats.wallchart import standings_html, standings_json, standings_text
from duiyi.tournament.model import ROUNDS_FROM_SYSTEM, SYSTEMS, Player
from duiyi.tournament.promotion import promotion as promotion_verdict
from duiyi.tournament.results import GameResult, Source

__all__ = ["app"]

app = room("event")

EventPath = Annotated[Path, typer.Argument(help="The event file (JSON).")]


class PairFormat(StrEnum):
    """Output of ``pair``."""

    json = "json"
    table = "table"


class StandingsFormat(StrEnum):
    """Output of ``standings``."""

    table = "table"
    json = "json"
    html = "html"


def _read_text(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TournamentError(f"{path}: no such {what} file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError(f"{path}: cannot read the {what} file: {exc}") from None


@app.command("new")
def new_command(
    path: EventPath,
    game: Annotated[str, typer.Option(help="go or gomoku.")],
    system: Annotated[str, typer.Option(help=f"One of: {', '.join(SYSTEMS)}.")],
    rounds: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Planned rounds (Swiss-type systems; default 1). Round robins, groups, "
            "eliminations and matches take theirs from the system.",
        ),
    ] = None,
    name: Annotated[str, typer.Option(help="Event name (default: the file name).")] = "",
    tiebreaks: Annotated[
        str, typer.Option(help="Comma-separated chain overriding the book's default.")
    ] = "",
    variant: Annotated[str, typer.Option(help="Go Swiss ranking: A total score, B points.")] = "",
    cycles: Annotated[int, typer.Option(help="Round robin cycles (2 = double).")] = 0,
    option: Annotated[
        list[str] | None,
        typer.Option(
            help='System option KEY=VALUE (JSON value), e.g. groups=4, bar="3d", '
            'floor="15k", start_after=5, boards=4, seeds=[1,2], place_matches=[3].'
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite an existing event file.")] = False,
) -> None:
    """Create an event file."""
    get_game(game)  # UnknownGame: one line, exit 2
    with event_lock(path):
        if path.exists() and not force:
            raise EventFileError(f"{path} already exists (use --force to overwrite it)")
        options: dict[str, object] = {}
        if tiebreaks.strip():
            options["tiebreaks"] = [t.strip() for t in tiebreaks.split(",") if t.strip()]
        if variant:
            if variant.upper() not in ("A", "B"):
                raise TournamentError(
                    "--variant is A (total score) or B (points, opponents' score)"
                )
            options["variant"] = variant.upper()
        if cycles:
            options["cycles"] = cycles
        for item in option or []:
            key, sep, raw = item.partition("=")
            if not sep or not key.strip():
                raise TournamentError(f"--option takes KEY=VALUE, got {item!r}")
            try:
                options[key.strip()] = json.loads(raw)
            except json.JSONDecodeError:
                options[key.strip()] = raw.strip()
        from_system = system in ROUNDS_FROM_SYSTEM
        if rounds is not None and from_system:
            typer.echo(f"note: --rounds {rounds} is not used: {_ROUNDS_SOURCE[system]}", err=True)
        planned = None if from_system else (rounds or 1)
        event = ops.new_event(name or path.stem, game, system, planned, options)
        save_event(event, path)
    count = f"{event.rounds} round(s)" if event.rounds else _ROUNDS_SOURCE[system]
    typer.echo(f"created {path}: {game} {system}, {count}")


#: Where the number of rounds comes from, for the systems that decide it.
_ROUNDS_SOURCE = {
    "round-robin": "rounds from the Berger table once players are entered",
    "double-round-robin": "rounds from the Berger table once players are entered",
    "groups": "rounds from the groups and the final once players are entered",
    "knockout": "rounds from the bracket once players are entered",
    "double-elimination": "rounds from the bracket once players are entered",
    "match": "rounds from the match's games",
    "relay": "rounds from the teams once players are entered",
}


@app.command("players")
def players_command(
    path: EventPath,
    add: Annotated[Path | None, typer.Option(help="CSV with header name,rank,rating,club.")] = None,
    draw: Annotated[
        int | None, typer.Option(help="Draw numbers by lot with this seed (before round 1).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="csv or json.")] = "csv",
) -> None:
    """Add players from CSV (numbered in order) and/or list them."""
    if add is None and draw is None:
        event = load_event(path)  # listing only: the writes are atomic, no lock needed
    else:
        with event_lock(path):
            event = load_event(path)
            if add is not None:
                event = ops.add_players(event, parse_players(_read_text(add, "players")))
            if draw is not None:
                event = ops.draw_numbers(event, random.Random(draw))
            save_event(event, path)
    if fmt == "json":
        typer.echo(json.dumps([p.to_json() for p in event.players], ensure_ascii=False))
    else:
        typer.echo(format_players(list(event.players)), nl=False)
    if add is not None and event.system in ROUNDS_FROM_SYSTEM and event.rounds:
        team = event.is_team_event
        field = f"{len(event.teams)} teams" if team else f"{len(event.players)} players"
        typer.echo(f"{event.system}: {event.rounds} round(s) for {field}", err=True)


@app.command("add-player")
def add_player_command(
    path: EventPath,
    name: Annotated[str, typer.Argument(help="The player's name.")],
    rank: Annotated[str, typer.Option(help="Rank: 3d, 5k, 2p (or 3段, 5级).")] = "",
    rating: Annotated[int | None, typer.Option(help="Rating.")] = None,
    club: Annotated[str, typer.Option(help="Club or affiliation (单位).")] = "",
    team: Annotated[str, typer.Option(help="Team (team events).")] = "",
) -> None:
    """Enter one player (numbered after those already entered)."""
    extra = (("team", team),) if team else ()
    player = Player(0, name.strip(), normal_rank(rank), rating, club, extra)
    with event_lock(path):
        event = ops.add_players(load_event(path), [player])
        save_event(event, path)
    added = event.players[-1]
    typer.echo(f"entered {added.number} {added.name}")


@app.command("edit-player")
def edit_player_command(
    path: EventPath,
    number: Annotated[int, typer.Argument(help="Player number.")],
    name: Annotated[str | None, typer.Option(help="New name.")] = None,
    rank: Annotated[str | None, typer.Option(help="New rank.")] = None,
    rating: Annotated[int | None, typer.Option(help="New rating.")] = None,
    club: Annotated[str | None, typer.Option(help="New club.")] = None,
) -> None:
    """Correct a player's entry before their first pairing."""
    changes: dict[str, Any] = {}
    for key, value in (("name", name), ("rank", rank), ("rating", rating), ("club", club)):
        if value is not None:
            changes[key] = normal_rank(str(value)) if key == "rank" else value
    if not changes:
        raise TournamentError("nothing to change (give --name, --rank, --rating or --club)")
    with event_lock(path):
        event = roster.edit_player(load_event(path), number, **changes)
        save_event(event, path)
    p = event.player(number)
    typer.echo(f"{p.number} {p.name} {p.rank} {p.rating or ''} {p.club}".rstrip())


@app.command("remove-player")
def remove_player_command(
    path: EventPath,
    number: Annotated[int, typer.Argument(help="Player number.")],
) -> None:
    """Remove a player entered by mistake, before their first pairing (the players after move
    up one number); a paired player withdraws instead (``withdraw``)."""
    with event_lock(path):
        event = load_event(path)
        name = event.player(number).name
        event = roster.remove_player(event, number)
        save_event(event, path)
    typer.echo(f"removed {number} {name}; {len(event.players)} player(s) left")


@app.command("pair")
def pair_command(
    path: EventPath,
    fmt: Annotated[PairFormat, typer.Option("--format", help="json or table.")] = PairFormat.json,
    explain: Annotated[bool, typer.Option(help="Say why each pair was chosen.")] = False,
    seed: Annotated[int, typer.Option(help="Seed for any lot the pairing draws.")] = 0,
) -> None:
    """Pair the next round and print it (by player number)."""
    with event_lock(path):
        event = load_event(path)
        event, paired = ops.pair_next_round(event, random.Random(seed))
        save_event(event, path)
    if fmt is PairFormat.json:
        typer.echo(json.dumps(paired.to_json(explain), ensure_ascii=False))
        return
    typer.echo(f"Round {paired.number}")
    for board, black, white, reason in paired.pairings:
        b, w = event.player(black), event.player(white)
        line = f"  {board:>3}  {black:>4} {b.name} (B)  —  {white:>4} {w.name} (W)"
        if explain and reason:
            line += f"   [{reason}]"
        typer.echo(line)
    for bye in paired.byes:
        typer.echo(f"  bye  {bye:>4} {event.player(bye).name}")
    if explain:
        for note in paired.notes:
            typer.echo(f"  note: {note}")


class Side(StrEnum):
    """A seat at the board."""

    black = "black"
    white = "white"


@app.command("result")
def result_command(
    path: EventPath,
    round_number: Annotated[int | None, typer.Option("--round", help="Round number.")] = None,
    board: Annotated[int | None, typer.Option(help="Board number.")] = None,
    result: Annotated[
        str | None,
        typer.Option(
            help="1-0 (Black wins), 0-1, draw, forfeit-black, forfeit-white, double-forfeit, "
            "both-lose, no-result."
        ),
    ] = None,
    file: Annotated[Path | None, typer.Option(help="Results sheet CSV round,board,result.")] = None,
    black_warnings: Annotated[int, typer.Option(help="Warnings Black got (Go §24).")] = 0,
    white_warnings: Annotated[int, typer.Option(help="Warnings White got (Go §24).")] = 0,
    penalty: Annotated[
        list[Side] | None,
        typer.Option(
            help="Side losing by a disciplinary ruling after the result (Gomoku §2.20(3))."
        ),
    ] = None,
    disqualify: Annotated[
        list[Side] | None,
        typer.Option(help="Side disqualified from the event (Gomoku §2.20(4)); it withdraws."),
    ] = None,
    force: Annotated[
        bool, typer.Option(help="Confirm a change to a round followed by a paired round.")
    ] = False,
) -> None:
    """Enter one result, or a whole results sheet with --file.

    Each board records where its result came from and every change (who, when, the value
    before). Once the next round is paired a change needs --force; the pairings made on the
    old result are listed."""
    done: list[entries.Entered] = []
    with event_lock(path):
        event = load_event(path)
        wall = time.time()
        if file is not None:
            if result is not None or board is not None:
                raise TournamentError("give either --file or --round/--board/--result, not both")
            rows = parse_results(_read_text(file, "results"))
            event, done = entries.record_sheet(
                event,
                [(row.round, row.board, row.sheet) for row in rows],
                source=Source.IMPORT,
                by=file.name,
                at=wall,
                force=force,
            )
        else:
            if round_number is None or board is None or result is None:
                raise TournamentError("a result needs --round, --board and --result (or --file)")
            sheet = entries.sheet_of(
                GameResult.parse(result),
                black_warnings,
                white_warnings,
                tuple(Color(s.value) for s in penalty or ()),
                tuple(Color(s.value) for s in disqualify or ()),
            )
            entered = entries.record_result(
                event,
                round_number,
                board,
                sheet,
                source=Source.DIRECTOR,
                by="cli",
                at=wall,
                force=force,
            )
            event = entered.event
            done.append(entered)
        save_event(event, path)
    _say_entered(done)


def _say_entered(done: list[entries.Entered]) -> None:
    for d in done:
        for a in d.affected:
            typer.echo(
                f"round {d.round} board {d.board}: round {a.round} board {a.board} "
                f"({a.black}-{a.white}) was paired on the old result",
                err=True,
            )
        for p in d.withdrawn:
            typer.echo(f"player {p} disqualified: withdrawn from the event", err=True)
    typer.echo(f"entered {len(done)} result(s)")


@app.command("conflict")
def conflict_command(
    path: EventPath,
    round_number: Annotated[int, typer.Option("--round", help="Round number.")],
    board: Annotated[int, typer.Option(help="Board number.")],
    accept: Annotated[
        bool,
        typer.Option(
            "--accept/--reject",
            help="Enter the disagreeing result, or keep the board's.",
        ),
    ],
    force: Annotated[
        bool, typer.Option(help="Confirm a change to a round followed by a paired round.")
    ] = False,
) -> None:
    """Settle a board's conflict: a result (an online game's) that disagreed with the one
    entered and was kept aside."""
    with event_lock(path):
        done = entries.resolve_conflict(
            load_event(path),
            round_number,
            board,
            accept=accept,
            by="cli",
            at=time.time(),
            force=force,
        )
        save_event(done.event, path)
    for a in done.affected:
        typer.echo(
            f"round {a.round} board {a.board} ({a.black}-{a.white}) was paired on the old result",
            err=True,
        )
    game = done.game
    typer.echo(
        f"round {round_number} board {board}: {game.result.value if game.result else 'no result'}"
        f" ({'accepted' if accept else 'kept'})"
    )


@app.command("simulate")
def simulate_command(
    path: EventPath,
    rounds: Annotated[
        int,
        typer.Option(help="Rounds to play; a paired round missing results is the first."),
    ] = 1,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
) -> None:
    """Enter rating-weighted random results, pairing rounds as needed (rehearsals, benchmarks).

    A round already paired but missing results is filled first and counts as one of ROUNDS.
    """
    with event_lock(path):
        event = ops.simulate(load_event(path), rounds, random.Random(seed))
        save_event(event, path)
    typer.echo(f"simulated through round {event.current_round}")


@app.command("withdraw")
def withdraw_command(
    path: EventPath,
    player: Annotated[int, typer.Argument(help="Player number.")],
    seed: Annotated[
        int | None, typer.Option(help="Before round 1: redraw numbers by lot with this seed.")
    ] = None,
) -> None:
    """Withdraw a player (Go §28, Gomoku §18.5)."""
    with event_lock(path):
        event = load_event(path)
        name = event.player(player).name
        rng = None if seed is None else random.Random(seed)
        event = entries.withdraw(event, player, rng, by="cli", at=time.time())
        save_event(event, path)
    effect = ops.withdrawal_effects(event).get(player)
    how = effect.value if effect is not None else "removed before round 1; numbers redrawn"
    typer.echo(f"withdrew {player} {name}: {how}")


@app.command("standings")
def standings_command(
    path: EventPath,
    fmt: Annotated[
        StandingsFormat, typer.Option("--format", help="table, json or html.")
    ] = StandingsFormat.table,
    lots: Annotated[
        int | None, typer.Option(help="Settle remaining ties by lot with this seed.")
    ] = None,
    output: Annotated[Path | None, typer.Option(help="Write to this file.")] = None,
) -> None:
    """Standings with crosstable (printable wall chart with --format html)."""
    event = load_event(path)
    rng = None if lots is None else random.Random(lots)
    if fmt is StandingsFormat.json:
        text = json.dumps(standings_json(event, rng), ensure_ascii=False) + "\n"
    elif fmt is StandingsFormat.html:
        text = standings_html(event, rng)
    else:
        text = standings_text(event, rng)
    if output is not None:
        atomic_write_text(output, text)
    else:
        typer.echo(text, nl=False)


@app.command("lots")
def lots_command(
    path: EventPath,
    seed: Annotated[int, typer.Option(help="Seed of the draw.")],
) -> None:
    """Draw and keep lot numbers: standings settle remaining ties by them (Go §27.1(1)C)."""
    with event_lock(path):
        event = ops.draw_lots(load_event(path), random.Random(seed))
        save_event(event, path)
    typer.echo(json.dumps({str(k): v for k, v in sorted(event.lots.items())}))


class ExportFormat(StrEnum):
    """Formats of ``export``."""

    opengotha = "opengotha"
    egd = "egd"
    csv = "csv"


@app.command("import")
def import_command(
    source: Annotated[
        Path,
        typer.Argument(
            help="OpenGotha XML (.xml) or EGD results file (.h9) to read; with --opengotha, "
            "the event file to create."
        ),
    ],
    target: Annotated[
        Path | None,
        typer.Argument(help="The event file to create (default: SOURCE with .json)."),
    ] = None,
    opengotha: Annotated[
        Path | None, typer.Option(help="OpenGotha XML to read (SOURCE is then the event file).")
    ] = None,
    game: Annotated[str, typer.Option(help="go or gomoku.")] = "go",
    system: Annotated[
        str | None, typer.Option(help="System of the new event (default: the file's).")
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite an existing event file.")] = False,
) -> None:
    """Create an event file from OpenGotha XML or an EGD results file; warnings name what
    duiyi holds differently."""
    from duiyi.tournament.formats.exports import import_event

    if opengotha is not None:
        path, source = source, opengotha
    else:
        path = target if target is not None else source.with_suffix(".json")
    if path == source:
        raise EventFileError(f"{path}: the event file cannot be the file read")
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        raise TournamentError(f"{source}: no such file") from None
    except OSError as exc:
        raise TournamentError(f"{source}: cannot read the file: {exc}") from None
    with event_lock(path):
        if path.exists() and not force:
            raise EventFileError(f"{path} already exists (use --force to overwrite it)")
        event, warnings = import_event(data, source.name, game=game, system=system)
        save_event(event, path)
    for w in warnings:
        typer.echo(f"warning: {w}", err=True)
    typer.echo(
        f"imported {len(event.players)} players, {event.current_round} round(s)"
        + (f" into {path}" if opengotha is None else "")
    )


@app.command("export")
def export_command(
    path: EventPath,
    fmt: Annotated[
        ExportFormat, typer.Option("--format", help="opengotha, egd or csv.")
    ] = ExportFormat.opengotha,
    output: Annotated[Path | None, typer.Option(help="Write here (default: print).")] = None,
    opengotha: Annotated[
        Path | None, typer.Option(help="Write OpenGotha XML here (same as --output).")
    ] = None,
    egf_class: Annotated[
        str,
        typer.Option(
            help="EGF tournament class for the EGD file (A, B, C or D; default: the class "
            "the time limits allow)."
        ),
    ] = "",
    keep_by_default: Annotated[
        bool,
        typer.Option(
            help="EGD file: results by default marked '!' (--no-keep-by-default: free rounds "
            "0=, OpenGotha's No)."
        ),
    ] = True,
) -> None:
    """Write the event as OpenGotha XML, an EGD results file or a standings CSV (warnings name
    what the format cannot hold)."""
    from duiyi.tournament.formats.exports import export_event

    if opengotha is not None:
        fmt, output = ExportFormat.opengotha, opengotha
    text, warnings = export_event(
        load_event(path), fmt.value, egf_class=egf_class, keep_by_default=keep_by_default
    )
    for w in warnings:
        typer.echo(f"warning: {w}", err=True)
    if output is None:
        typer.echo(text, nl=False)
    else:
        atomic_write_text(output, text)
        typer.echo(f"wrote {output}")


@app.command("promotion")
def promotion_command(
    dan: Annotated[int, typer.Option(help="The player's current professional dan (1–7).")],
    games: Annotated[
        str, typer.Option(help="Games as OPP_DAN:RESULT, comma-separated (e.g. 3:win,4:loss).")
    ],
) -> None:
    """Score promotion games (Go 附表四) and test them against 附表五."""
    parsed: list[tuple[int, str]] = []
    for item in games.split(","):
        opp, _, res = item.strip().partition(":")
        try:
            parsed.append((int(opp), res))
        except ValueError:
            raise TournamentError(f"not a game {item!r} (expected OPP_DAN:win|draw|loss)") from None
    v = promotion_verdict(parsed, dan=dan)
    typer.echo(
        json.dumps(
            {
                "dan": v.dan,
                "games": v.games,
                "total": v.total,
                "average": str(v.average),
                "qualified": v.qualified,
                "to_dan": v.to_dan,
                "columns": v.needs(),
            },
            ensure_ascii=False,
        )
    )


from duiyi.cli.event_play import register as _register_play  # noqa: E402

_register_play(app)
