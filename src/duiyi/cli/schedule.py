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
import sys
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from duiyi.cli import room
from duiyi.errors import InvalidInput
from duiyi.tournament.pairing.common import JsonDict, Round
from duiyi.tournament.pairing.double_elimination import double_elimination
from duiyi.tournament.pairing.groups import group_round_robins, serpentine_groups
from duiyi.tournament.pairing.knockout import Bracket, knockout
from duiyi.tournament.pairing.mcmahon import McMahonPlayer, pair_mcmahon
from duiyi.tournament.pairing.round_robin import round_robin
from duiyi.tournament.pairing.swiss import SwissPlayer, pair_swiss

__all__ = ["app"]

app = room("schedule")


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


def _lots(lot_seed: int | None) -> random.Random | None:
    """The random source for drawing lots, seeded by ``--lot-seed`` (None: no lots)."""
    return random.Random(lot_seed) if lot_seed is not None else None


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
    rng = _lots(lot_seed)
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
    rng = _lots(lot_seed)
    bracket = double_elimination(
        players,
        _parse_seeds(seeds),
        class1=class1,
        sections=sections,
        placement=placement,
        rng=rng,
    )
    _echo_bracket(bracket, fmt)


def _read_state(path: str) -> JsonDict:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from exc
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        raise InvalidInput(f'{path}: expected {{"round": n, "players": [...]}}')
    return doc


def _score(value: object) -> Fraction | int:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise InvalidInput(f"a score must be a number, got {value!r}")
    if isinstance(value, int):
        return value
    try:
        f = Fraction(str(value))
    except ValueError as exc:
        raise InvalidInput(f"a score must be a number, got {value!r}") from exc
    return int(f) if f.denominator == 1 else f


def _player_fields(entry: object) -> tuple[int, Fraction | int, frozenset[int], str, int, object]:
    if not isinstance(entry, dict) or not isinstance(entry.get("number"), int):
        raise InvalidInput(f'every player needs an integer "number": {entry!r}')
    opponents = entry.get("opponents", [])
    if not isinstance(opponents, list) or not all(isinstance(o, int) for o in opponents):
        raise InvalidInput(f"player {entry['number']}: opponents must be a list of numbers")
    colours = entry.get("colours", "")
    byes = entry.get("byes", 0)
    if not isinstance(colours, str) or not isinstance(byes, int):
        raise InvalidInput(f"player {entry['number']}: colours is a B/W string, byes a number")
    score = _score(entry.get("score", entry.get("points", 0)))
    return entry["number"], score, frozenset(opponents), colours.upper(), byes, entry.get("rank")


@app.command("swiss")
def swiss_command(
    players: Annotated[int | None, typer.Option("--players", "-n", help="Round 1 of N.")] = None,
    state: Annotated[
        str | None,
        typer.Option(
            "--input",
            help='JSON {"round": r, "players": [{"number", "score", "opponents", "colours", '
            '"byes", "rank"}]} ("-" = stdin).',
        ),
    ] = None,
    round_number: Annotated[int | None, typer.Option("--round", help="Round to pair.")] = None,
    bar: Annotated[str | None, typer.Option(help="McMahon bar (e.g. 3d).")] = None,
    floor: Annotated[str | None, typer.Option(help="McMahon floor (e.g. 20k).")] = None,
    explain: Annotated[bool, typer.Option(help="Say why each pair was made.")] = False,
    fmt: FormatOpt = Format.json,
) -> None:
    """Pair one Swiss round (Go appendix 五), or McMahon with --bar and --floor."""
    if (players is None) == (state is None):
        raise InvalidInput("give either --players N (round 1) or --input STATE.json")
    if (bar is None) != (floor is None):
        raise InvalidInput("McMahon needs both --bar and --floor")
    if players is not None:
        doc: JsonDict = {"round": 1, "players": [{"number": k} for k in range(1, players + 1)]}
    else:
        assert state is not None
        doc = _read_state(state)
    number = round_number if round_number is not None else doc.get("round", 1)
    if not isinstance(number, int):
        raise InvalidInput('"round" must be a number')
    raw = doc["players"]
    assert isinstance(raw, list)
    fields = [_player_fields(e) for e in raw]
    if bar is not None and floor is not None:
        mm = [
            McMahonPlayer(n, r if isinstance(r, int | str) else "30k", s, o, c, b)
            for n, s, o, c, b, r in fields
        ]
        rnd = pair_mcmahon(mm, number, bar=bar, floor=floor, explain=explain)
    else:
        sw = [
            SwissPlayer(n, s, o, c, b, r if isinstance(r, int) else None)
            for n, s, o, c, b, r in fields
        ]
        rnd = pair_swiss(sw, number, explain=explain)
    _echo_rounds((rnd,), fmt, explain)


@app.command("groups")
def groups_command(
    players: PlayersOpt,
    groups: Annotated[int, typer.Option("--groups", "-g", help="Number of groups.")],
    qualifiers: Annotated[int, typer.Option(help="Places that qualify from each group.")] = 1,
    lot_seed: LotOpt = None,
    cycles: Annotated[int, typer.Option(help="Round robin cycles inside each group.")] = 1,
    fmt: FormatOpt = Format.json,
) -> None:
    """Groups with serpentine seeds (Go appendix 四) and each group's round robin.

    Players 1 … N are taken as ranked (1 strongest); the seeds are groups × qualifiers.
    """
    rng = _lots(lot_seed)
    dealt = serpentine_groups(list(range(1, players + 1)), groups, qualifiers=qualifiers, rng=rng)
    schedules = group_round_robins(dealt, cycles)
    if fmt is Format.json:
        doc: JsonDict = {
            "groups": [
                {"group": i, "players": list(g), "rounds": [r.to_json() for r in rounds]}
                for i, (g, rounds) in enumerate(zip(dealt, schedules, strict=True), start=1)
            ]
        }
        typer.echo(json.dumps(doc, ensure_ascii=False))
        return
    for i, (g, rounds) in enumerate(zip(dealt, schedules, strict=True), start=1):
        typer.echo(f"Group {i}: {', '.join(str(p) for p in g)}")
        typer.echo(_rounds_table(rounds, False))
