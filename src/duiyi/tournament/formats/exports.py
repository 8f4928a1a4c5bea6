"""One door to every file an event can be written to or read from, by format name.

``opengotha`` (OpenGotha XML, :mod:`.opengotha`), ``egd`` (the European Go Database's results
file, :mod:`.egd`) and ``csv`` (the standings as a sheet: place, player, points, the event's
tiebreaks, then one column per round). The CLI (``duiyi event export EVENT --format ...``) and
the server's export routes use it, so both write the same bytes.

>>> from duiyi.tournament.model import Event, Player
>>> text, warnings = export_event(Event("Cup", "go", "swiss", 1, players=(Player(1, "Li"),)), "csv")
>>> text.splitlines()[0]
'position,place,number,name,rank,rating,club,points,total-score,warnings'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duiyi.errors import EventFileError
from duiyi.games import GameType
from duiyi.tournament.formats import csvfiles
from duiyi.tournament.model import Event

__all__ = ["FORMATS", "MEDIA_TYPES", "export_event", "import_event", "standings_csv"]

FORMATS = ("opengotha", "egd", "csv")
MEDIA_TYPES = {
    "opengotha": ("application/xml", "xml"),
    "egd": ("text/plain; charset=utf-8", "h9"),
    "csv": ("text/csv; charset=utf-8", "csv"),
}


def standings_csv(event: Event) -> str:
    """The standings as CSV: position, place, number, name, rank, rating, club, points, each
    tiebreak of the event's chain (exact values, ``7/2``), then the crosstable cell of every
    round (``4b+``: against player 4 with Black, won); written by the one CSV writer
    (:func:`duiyi.tournament.formats.csvfiles.write_csv`: formulas neutralised)."""
    from duiyi.tournament.formats.wallchart import standings_json

    doc = standings_json(event)
    names = [t["name"] for t in doc["tiebreaks"] if t["name"] != "points"]
    rounds = doc["rounds"]
    head = ["position", "place", "number", "name", "rank", "rating", "club", "points"]
    lines: list[list[object]] = [head + names + [f"round {r}" for r in range(1, rounds + 1)]]
    for row in doc["standings"]:
        rating = "" if row["rating"] is None else row["rating"]
        cells = row["rounds"]
        lines.append(
            [row["position"], row["place"], row["number"], row["name"], row["rank"], rating,
             row["club"], row["points"]]
            + [row["tiebreaks"].get(n, "") for n in names]
            + [" ".join(cells.get(str(r), [])) for r in range(1, rounds + 1)]
        )  # fmt: skip
    return csvfiles.write_csv(lines)


def export_event(
    event: Event,
    fmt: str,
    *,
    egf_class: str = "",
    keep_by_default: bool = True,
    online: Mapping[str, Any] | None = None,
) -> tuple[str, list[str]]:
    """The event in ``fmt`` (one of :data:`FORMATS`) and warnings about what the format cannot
    hold. ``online``: the desk's settings of the event's games (time control, komi, handicap),
    which the OpenGotha and EGD files carry for an event made in duiyi; ``keep_by_default``:
    the EGD file's results by default marked ``!`` (else free rounds ``0=``, OpenGotha's No)."""
    if fmt == "opengotha":
        from duiyi.tournament.formats.opengotha import export_opengotha

        return export_opengotha(event, online)
    if fmt == "egd":
        from duiyi.tournament.formats.egd import to_egd

        return to_egd(event, egf_class=egf_class, keep_by_default=keep_by_default, online=online)
    if fmt == "csv":
        return standings_csv(event), []
    raise EventFileError(f"unknown export format {fmt!r} (expected {', '.join(FORMATS)})")


def import_event(
    data: bytes, name: str, *, game: GameType | str = "go", system: str | None = None
) -> tuple[Event, list[str]]:
    """An event from a file's bytes: OpenGotha XML (``.xml``, or text starting with ``<``)
    or an EGD results file (``.h9``, ``.egd``, ``.txt``)."""
    lower = name.lower()
    if lower.endswith(".xml") or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        from duiyi.tournament.formats.opengotha import from_opengotha

        return from_opengotha(data, game=game, system=system)
    from duiyi.tournament.formats.egd import from_egd

    for encoding in ("utf-8", "iso-8859-15"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    return from_egd(text, game=game, system=system or "mcmahon")
