"""``duiyi schedule``: print pairing schedules (Berger tables, brackets) as JSON or a table.

>>> from typer.testing import CliRunner
>>> from duiyi.cli import app as root
>>> out = CliRunner().invoke(root, ["schedule", "round-robin", "--players", "4"]).output
>>> out.startswith('{"rounds": [{"round": 1, "pairings": [{"board": 1, "black": 1, "white": 4}')
True
"""

from __future__ import annotations

import json
import random
from enum import StrEnum
from typing import Annotated

import typer

from duiyi.errors import InvalidInput
from duiyi.tournament.pairing.common import JsonDict, Round
from duiyi.tournament.pairing.double_elimination import double_elimination
from duiyi.tournament.pairing.knockout import Bracket, knockout
from duiyi.tournament.pairing.round_robin import round_robin

__all__ = ["app"]

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


class Format(StrEnum):
    """Output format."""

    json = "json"
    table = "table"


def _rounds_table(rounds: tuple[Round, ...], explain: bool) -> str:
    lines: list[str] = []
    for r in rounds:
        lines.append(f"Round {r.number}")
        for p in r.pairings:
            line = f"  {p.board:>3}  {p.black:>4} (B) — {p.white:>4} (W)"
            if explain and p.reason:
                line += f"   {p.reason}"
            lines.append(line)
        for b in r.byes:
            lines.append(f"  bye  {b:>4}")
        if explain:
            lines.extend(f"  note: {n}" for n in r.notes)
    return "\n".join(lines)


def _echo_rounds(rounds: tuple[Round, ...], fmt: Format, explain: bool) -> None:
    if fmt is Format.json:
        doc: JsonDict = {"rounds": [r.to_json(explain) for r in rounds]}
        typer.echo(json.dumps(doc, ensure_ascii=False))
    else:
        typer.echo(_rounds_table(rounds, explain))


def _parse_seeds(text: str) -> list[int]:
    if not text.strip():
        return []
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError as exc:
        raise InvalidInput(f"--seeds takes comma-separated player numbers, got {text!r}") from exc


@app.command("round-robin")
def round_robin_command(
    players: Annotated[int, typer.Option("--players", "-n", help="Number of players.")],
    cycles: Annotated[int, typer.Option(help="1 single, 2 double, 3+ multiple.")] = 1,
    fmt: Annotated[Format, typer.Option("--format", help="json or table.")] = Format.json,
    explain: Annotated[bool, typer.Option(help="Add the reason of every pairing.")] = False,
) -> None:
    """Berger tables (Go appendix 三): first-listed plays Black, odd fields get a bye."""
    _echo_rounds(round_robin(players, cycles, explain=explain), fmt, explain)


SeedsOpt = Annotated[str, typer.Option(help="Seeded player numbers, best first: 1,2,3,4.")]
Class1Opt = Annotated[
    int | None, typer.Option(help="How many seeds are class 1 (default: one per section).")
]
SectionsOpt = Annotated[int | None, typer.Option(help="Sections (区); default 4 for 32 lines.")]
PlacementOpt = Annotated[str, typer.Option(help="serpentine (蛇形) or draw (by lot).")]
LotOpt = Annotated[int | None, typer.Option(help="Seed of the random source for lots.")]
FormatOpt = Annotated[Format, typer.Option("--format", help="json or table.")]
PlayersOpt = Annotated[int, typer.Option("--players", "-n", help="Number of players.")]


def _echo_bracket(bracket: Bracket, fmt: Format) -> None:
    if fmt is Format.json:
        typer.echo(json.dumps(bracket.to_json(), ensure_ascii=False))
    else:
        typer.echo(bracket.table())


@app.command("knockout")
def knockout_command(
    players: PlayersOpt,
    seeds: SeedsOpt = "",
    class1: Class1Opt = None,
    sections: SectionsOpt = None,
    placement: PlacementOpt = "serpentine",
    lot_seed: LotOpt = None,
    place: Annotated[str, typer.Option(help="Place matches, e.g. 3,5,9 (Gomoku §18.2).")] = "",
    fmt: FormatOpt = Format.json,
) -> None:
    """Single-elimination bracket (Go appendix 一): seeds, byes, place matches."""
    rng = random.Random(lot_seed) if lot_seed is not None else None
    bracket = knockout(
        players,
        _parse_seeds(seeds),
        class1=class1,
        sections=sections,
        placement=placement,
        rng=rng,
        place_matches=_parse_seeds(place),
    )
    _echo_bracket(bracket, fmt)


@app.command("double-elimination")
def double_elimination_command(
    players: PlayersOpt,
    seeds: SeedsOpt = "",
    class1: Class1Opt = None,
    sections: SectionsOpt = None,
    placement: PlacementOpt = "serpentine",
    lot_seed: LotOpt = None,
    fmt: FormatOpt = Format.json,
) -> None:
    """Double-elimination bracket (Go appendix 二, at most 32 players)."""
    rng = random.Random(lot_seed) if lot_seed is not None else None
    bracket = double_elimination(
        players,
        _parse_seeds(seeds),
        class1=class1,
        sections=sections,
        placement=placement,
        rng=rng,
    )
    _echo_bracket(bracket, fmt)
