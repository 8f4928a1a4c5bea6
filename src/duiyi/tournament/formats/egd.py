"""EGD results files (``.h9``): the tournament table European federations send to the European
Go Database for the EGF rating.

What the format is, from the two descriptions this module follows:

- the EGF rating officer's *Comments on submitting tournament results* (Aleš Cieply,
  ``gemma.ujf.cas.cz/~cieply/GO/format.html``): a plain text file, one line per player, empty
  lines and everything after ``;`` ignored; the results are blank-separated entries, the same
  number for every player, each ``<opponent's place><symbol>[/<colour>[<h>]]`` with symbol
  ``+`` (win), ``-`` (loss) or ``=`` (jigo), colour ``b``/``w`` and the handicap stones; a round
  without a game is ``0+`` (a free win), ``0-`` (a free round) or ``0=`` (a free round worth
  half a point);
- OpenGotha's own writer of the file (``ExternalDocument.generateH9File`` in
  lucvannier/opengotha): the header tags in comment lines (``; CL[class]``, ``; EV[name]``,
  ``; PC[country,city]``, ``; DT[first,last day]``, ``; HA[hN]`` handicap reduction, ``; KM[komi]``,
  ``; TM[adjusted time, minutes]``, ``; CM[time system]``) and the columns before the results:
  place, surname and first name (spaces inside each as ``_``), rank, country (``XX`` unknown),
  club (``xxxx`` unknown), the placement criteria.

duiyi writes the place column as the line's position (1, 2, 3, ... also for players tied on
every criterion), so that every opponent reference names exactly one line. Games won or lost
by default are not rated games: they are written as free rounds (``0+`` for the winner, ``0-``
for the loser), a bye by what it scored (``0+`` a win, ``0=`` half, ``0-`` nothing), an absent
round ``0-`` (or what an imported OpenGotha event's rules give it). The file is ASCII: accents
are folded; names that cannot be folded stay in UTF-8 and are reported.

>>> from duiyi.tournament.model import Event, Game, Player, RoundRecord
>>> from duiyi.tournament.results import GameResult
>>> e = Event("Club Cup", "go", "swiss", 1, players=(Player(1, "Li Wei", "3d", club="Beijing",
...           extra=(("country", "CN"),)), Player(2, "Müller Hans", "1k")),
...           history=(RoundRecord(1, (Game(1, 1, 2, GameResult.BLACK_WINS),)),))
>>> text, warnings = to_egd(e)
>>> print(text.splitlines()[-2])
   1 Li Wei                          3D CN Beij    1    0    0    0    2+/b0
>>> from_egd(text)[0].history[0].games
(Game(board=1, black=1, white=2, result=<GameResult.BLACK_WINS: '1-0'>, black_warnings=0, white_warnings=0, handicap=0),)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from duiyi.errors import EventFileError
from duiyi.tournament.event import chain, event_standings
from duiyi.tournament.model import Event, Game, Player, RoundRecord
from duiyi.tournament.placement import og_rank, og_rank_text, rules_of
from duiyi.tournament.results import GameResult, SideResult, Source

__all__ = ["from_egd", "to_egd", "validate_egd"]

_ENTRY = re.compile(r"^(\d+)([+\-=])(?:/([bwBW?])(\d*))?$")
_RANK = re.compile(r"^\d{1,2}[kdpKDP]$")
_TAG = re.compile(r"^;\s*([A-Z]{2})\[(.*)\]\s*$")
_SYSTEMS = {
    "SUDDENDEATH": "Sudden death",
    "STDBYOYOMI": "Standard byo-yomi",
    "CANBYOYOMI": "Canadian byo-yomi",
    "FISCHER": "Fischer",
}


def _ascii(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _extra(p: Player) -> dict[str, str]:
    return dict(p.extra)


def _names(p: Player) -> tuple[str, str]:
    extra = _extra(p)
    if "surname" in extra:
        return extra["surname"], extra.get("firstName", "")
    surname, _, first = p.name.strip().partition(" ")
    return surname, first


def _token(text: str, fallback: str) -> str:
    cleaned = "_".join(text.split())
    return cleaned or fallback


def _rank(p: Player) -> str:
    return og_rank_text(og_rank(p.rank)) if p.rank else "30K"


def _number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")


def _general(event: Event) -> dict[str, str]:
    kept = event.options.get("opengotha")
    if not isinstance(kept, Mapping):
        return {}
    for el in kept.get("parameters", {}).get("children", ()):
        if el.get("tag") == "GeneralParameterSet":
            return dict(el.get("attrs", {}))
    return {}


def _handicap_correction(event: Event) -> int:
    kept = event.options.get("opengotha")
    if not isinstance(kept, Mapping):
        return 0
    for el in kept.get("parameters", {}).get("children", ()):
        if el.get("tag") == "HandicapParameterSet":
            try:
                return int(el.get("attrs", {}).get("hdCorrection", "0"))
            except ValueError:
                return 0
    return 0


def _adjusted_minutes(general: Mapping[str, str]) -> int | None:
    """EGF adjusted time: basic time plus 45 moves of byo-yomi (Canadian: 60 s per move of the
    period's moves; Fischer: 120 increments), in minutes, as the format page defines it."""
    try:
        basic = int(general["basicTime"]) * 60
        system = general.get("complementaryTimeSystem", "")
        if system == "STDBYOYOMI":
            return (basic + 45 * int(general.get("stdByoYomiTime", "0"))) // 60
        if system == "CANBYOYOMI":
            moves = int(general.get("nbMovesCanTime", "1")) or 1
            return (basic + 60 * int(general.get("canByoYomiTime", "0")) // moves) // 60
        if system == "FISCHER":
            return (basic + 120 * int(general.get("fischerTime", "0"))) // 60
        return basic // 60
    except (KeyError, ValueError):
        return None


def to_egd(event: Event, *, egf_class: str = "") -> tuple[str, list[str]]:
    """The event's results as an EGD tournament file and warnings about what the file holds
    differently. ``egf_class`` (``A``, ``B``, ``C`` or ``D``) is written as ``; CL[...]`` when
    given; the EGF decides it from the time limits written in ``TM`` and ``CM``."""
    warnings: list[str] = []
    rows = event_standings(event)
    full = chain(event)
    tbs = [t for t in full if t.name != "points"]
    position = {s.number: s.position for s in rows}
    general = _general(event)
    lines: list[str] = []
    if egf_class:
        lines.append(f"; CL[{egf_class}]")
    lines.append(f"; EV[{event.name}]")
    location = general.get("location", "")
    lines.append(f"; PC[,{location}]")
    if general.get("beginDate"):
        lines.append(f"; DT[{general['beginDate']},{general.get('endDate', general['beginDate'])}]")
    correction = _handicap_correction(event)
    if correction > 0 and any(g.handicap for _, g in event.games()):
        lines.append(f"; HA[h{correction}]")
    lines.append(f"; KM[{general.get('komi', '7.5')}]")
    minutes = _adjusted_minutes(general) if general else None
    if minutes is not None:
        lines.append(f"; TM[{minutes}]")
    if general.get("complementaryTimeSystem") in _SYSTEMS:
        lines.append(f"; CM[{_SYSTEMS[general['complementaryTimeSystem']]}]")
    lines.append("; Generated by duiyi")
    lines.append(";")
    header = "; Pl Name                            Rk Co Club " + " ".join(
        t.name.upper() for t in tbs
    )
    lines.append(header)
    rules = rules_of(event)
    mcmahon = rules is not None and any(c in ("MMS", "STS") for c in rules.used)
    if rules is not None:
        bye_x2 = rules.mms_bye_x2 if mcmahon else rules.nbw_bye_x2
        absent_x2 = rules.mms_absent_x2 if mcmahon else rules.nbw_absent_x2
    else:
        bye_x2 = int(2 * event.points.bye / event.points.win)
        absent_x2 = 0
    free = {2: "0+", 1: "0=", 0: "0-"}
    rounds = event.current_round
    folded: list[str] = []
    forfeits = pending = 0
    for s in rows:
        p = event.player(s.number)
        surname, first = _names(p)
        name = f"{_token(surname, '-')} {_token(first, '-')}"
        ascii_name = _ascii(name)
        if not ascii_name.isascii():
            folded.append(name)
        else:
            name = ascii_name
        extra = _extra(p)
        country = extra.get("country", "").strip().upper()
        country = country if len(country) == 2 and country.isalpha() else "XX"
        club = _ascii("".join(p.club.split()))[:4] or "xxxx"
        criteria = [
            f"{_number(t.shown(v)):>4}"
            for t, v in zip(full, s.values, strict=False)
            if t.name != "points"
        ]
        while len(criteria) < 4:
            criteria.append(f"{0:>4}")
        cells: list[str] = []
        for rnd in event.history:
            game = rnd.game_of(s.number)
            if game is None:
                if s.number in rnd.byes:
                    cells.append(free.get(bye_x2, "0-"))
                else:
                    cells.append(free.get(min(absent_x2, 2), "0-"))
                continue
            if game.result is None or game.result is GameResult.NO_RESULT:
                pending += 1
                cells.append("0-")
                continue
            black = game.black == s.number
            side = game.result.side(_colour(black))
            if not game.result.played:
                forfeits += 1
                cells.append("0+" if side is SideResult.WIN else "0-")
                continue
            symbol = {SideResult.WIN: "+", SideResult.DRAW: "=", SideResult.LOSS: "-"}[side]
            other = game.white if black else game.black
            cells.append(f"{position[other]}{symbol}/{'b' if black else 'w'}{game.handicap}")
        line = (
            f"{s.position:>4} {name:<31.31}{_rank(p):>3} {country} {club:>4} "
            + " ".join(criteria)
            + "".join(f" {c:>8}" for c in cells)
        )
        lines.append(line.rstrip())
    if rounds and not rows:
        warnings.append("the event has no players")
    if forfeits:
        warnings.append(
            f"{forfeits} game result(s) by default written as free rounds (0+ winner, 0- loser): "
            "the EGD rates played games only"
        )
    if pending:
        warnings.append(f"{pending} game(s) without a result written as free rounds (0-)")
    if folded:
        warnings.append(
            "names not in ASCII kept in UTF-8 (the EGD reads ASCII): " + ", ".join(folded[:10])
        )
    if not egf_class:
        warnings.append("no EGF class given: add ; CL[A|B|C|D] before sending the file")
    return "\n".join(lines) + "\n", warnings


def _colour(black: bool) -> Any:
    from duiyi import Color

    return Color.BLACK if black else Color.WHITE


def validate_egd(text: str) -> list[str]:
    """Check a file against the format description: every player line ends with the same number
    of result entries, each ``<place><+|-|=>[/<b|w>[<h>]]`` naming a player line (or ``0`` for
    a free round), and two players who met say so the same way (opposite results, opposite
    colours, same handicap). Returns the problems found (empty: the file is well formed)."""
    problems: list[str] = []
    players = _player_lines(text)
    places = {p["place"] for p in players}
    counts = {len(p["results"]) for p in players}
    if len(counts) > 1:
        problems.append(f"players have different numbers of results: {sorted(counts)}")
    by_place = {p["place"]: p for p in players}
    for p in players:
        for rnd, entry in enumerate(p["results"], start=1):
            m = _ENTRY.match(entry)
            assert m is not None
            opp = int(m.group(1))
            if opp == 0:
                continue
            if opp not in places:
                problems.append(f"place {p['place']} round {rnd}: opponent {opp} has no line")
                continue
            other = by_place[opp]["results"]
            if rnd > len(other):
                continue
            back = _ENTRY.match(other[rnd - 1])
            assert back is not None
            expected = {"+": "-", "-": "+", "=": "="}[m.group(2)]
            if int(back.group(1)) != p["place"] or back.group(2) != expected:
                problems.append(
                    f"place {p['place']} round {rnd}: {entry} but {opp} has {other[rnd - 1]}"
                )
            colours = {m.group(3), back.group(3)}
            if colours != {"b", "w"} and None not in colours:
                problems.append(f"place {p['place']} round {rnd}: both players have one colour")
            if (m.group(4) or "0") != (back.group(4) or "0"):
                problems.append(f"place {p['place']} round {rnd}: handicaps differ")
    return problems


def _player_lines(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        tokens = line.split()
        results: list[str] = []
        while tokens and _ENTRY.match(tokens[-1]):
            results.insert(0, tokens.pop())
        if not tokens or not tokens[0].isdigit():
            raise EventFileError(f"EGD file line {number}: no place at the start")
        rank_at = next((i for i, t in enumerate(tokens[1:], start=1) if _RANK.match(t)), None)
        if rank_at is None:
            raise EventFileError(f"EGD file line {number}: no rank (such as 3k, 2d)")
        names = tokens[1:rank_at]
        rest = tokens[rank_at + 1 :]
        out.append(
            {
                "line": number,
                "place": int(tokens[0]),
                "names": [n.replace("_", " ") for n in names],
                "rank": tokens[rank_at],
                "country": rest[0] if rest else "",
                "club": rest[1] if len(rest) > 1 else "",
                "results": results,
            }
        )
    return out


def from_egd(text: str, *, game: str = "go", system: str = "mcmahon") -> tuple[Event, list[str]]:
    """Read an EGD tournament file into an event: players in place order (name, rank,
    country, club), every game with its colour, handicap and result, free wins as byes.

    What the format does not hold is reported: the pairing order of tables (boards are numbered
    by the lower place), ratings, the event's rules; a ``0=`` free round (half a point) has no
    duiyi counterpart and counts as absent; an entry without a colour gives the lower place
    Black.
    """
    warnings: list[str] = []
    tags: dict[str, str] = {}
    for raw in text.splitlines():
        m = _TAG.match(raw.strip())
        if m:
            tags.setdefault(m.group(1), m.group(2))
    lines = _player_lines(text)
    if not lines:
        raise EventFileError("EGD file: no player lines")
    problems = validate_egd(text)
    if problems:
        raise EventFileError("EGD file: " + "; ".join(problems[:3]))
    lines.sort(key=lambda p: p["place"])
    number_of = {p["place"]: i for i, p in enumerate(lines, start=1)}
    if len(number_of) != len(lines):
        raise EventFileError("EGD file: two lines have the same place")
    players: list[Player] = []
    for i, p in enumerate(lines, start=1):
        names = p["names"] or ["?"]
        surname, first = names[0], " ".join(names[1:])
        extra: list[tuple[str, str]] = [("surname", surname), ("firstName", first)]
        if p["country"] and p["country"] != "XX":
            extra.append(("country", p["country"]))
        club = "" if p["club"] == "xxxx" else p["club"]
        players.append(Player(i, f"{surname} {first}".strip(), p["rank"].lower(), None, club,
                              tuple(extra)))  # fmt: skip
    rounds = max((len(p["results"]) for p in lines), default=0)
    history: list[RoundRecord] = []
    half = 0
    guessed = 0
    for rnd in range(1, rounds + 1):
        games: list[Game] = []
        byes: list[int] = []
        for p in lines:
            m = _ENTRY.match(p["results"][rnd - 1])
            assert m is not None
            me = number_of[p["place"]]
            opp_place = int(m.group(1))
            if opp_place == 0:
                if m.group(2) == "+":
                    byes.append(me)
                elif m.group(2) == "=":
                    half += 1
                continue
            other = number_of[opp_place]
            colour = (m.group(3) or "").lower()
            if colour not in ("b", "w"):
                if me > other:
                    continue
                guessed += 1
                colour = "b"
            if colour != "b":
                continue
            result = {
                "+": GameResult.BLACK_WINS,
                "-": GameResult.WHITE_WINS,
                "=": GameResult.DRAW,
            }[m.group(2)]
            games.append(
                Game(0, me, other, result, handicap=int(m.group(4) or 0), source=Source.IMPORT)
            )
        games.sort(key=lambda g: min(g.black, g.white))
        numbered = tuple(replace(g, board=i) for i, g in enumerate(games, start=1))
        history.append(RoundRecord(rnd, numbered, tuple(byes)))
    if half:
        warnings.append(f"{half} free round(s) worth half a point (0=): read as absent")
    if guessed:
        warnings.append(f"{guessed} game(s) without colours: the lower place is given Black")
    options: dict[str, Any] = {}
    if tags:
        options["egd"] = tags
    try:
        event = Event(tags.get("EV", "EGD import") or "EGD import", game, system,
                      max(rounds, 1), players=tuple(players), history=tuple(history),
                      options=options)  # fmt: skip
    except Exception as exc:  # TournamentError, ValueError from the model
        raise EventFileError(f"EGD file: {exc}") from None
    warnings.append("the EGD file holds no ratings and no rules: the event uses duiyi's")
    return event, warnings
