"""Players and results sheets as CSV.

Players: a header with at least ``name`` (usually ``name,rank,rating,club``); more columns are
kept as extras. Results: ``round,board,result`` with optional ``black_warnings`` and
``white_warnings``. Errors name the line.

>>> rows = parse_results("round,board,result\\n1,2,0-1\\n")
>>> rows[0].round, rows[0].board, rows[0].result.value
(1, 2, '0-1')
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from duiyi.errors import InvalidInput, TournamentError
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult

__all__ = ["ResultRow", "format_players", "parse_players", "parse_results"]

_PLAYER_COLUMNS = ("name", "rank", "rating", "club")


def _reader(text: str, what: str) -> csv.DictReader[str]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if reader.fieldnames is None:
        raise TournamentError(f"the {what} CSV is empty (expected a header line)")
    reader.fieldnames = [f.strip().lower() for f in reader.fieldnames]
    return reader


def parse_players(text: str) -> list[Player]:
    """Players from CSV text (numbers are given when they join an event).

    >>> parse_players("name,rank,rating,club,country\\nWang,2d,,Shanghai,CN\\n")[0]
    Player(number=0, name='Wang', rank='2d', rating=None, club='Shanghai', extra=(('country', 'CN'),))
    >>> parse_players("name,rating\\nLi,strong\\n")
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: players CSV line 2: rating must be a whole number, got 'strong'
    """
    reader = _reader(text, "players")
    if "name" not in (reader.fieldnames or []):
        raise TournamentError(
            "the players CSV needs a 'name' column (header name,rank,rating,club)"
        )
    out: list[Player] = []
    for row in reader:
        line = reader.line_num
        name = (row.get("name") or "").strip()
        if not name and not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue  # blank line
        if not name:
            raise TournamentError(f"players CSV line {line}: the name is empty")
        rating_text = (row.get("rating") or "").strip()
        rating: int | None = None
        if rating_text:
            try:
                rating = int(float(rating_text)) if "." in rating_text else int(rating_text)
            except ValueError:
                raise TournamentError(
                    f"players CSV line {line}: rating must be a whole number, got {rating_text!r}"
                ) from None
        extra = tuple(
            (k, (v or "").strip())
            for k, v in row.items()
            if k is not None and k not in _PLAYER_COLUMNS and isinstance(v, str)
        )
        out.append(
            Player(
                0,
                name,
                (row.get("rank") or "").strip(),
                rating,
                (row.get("club") or "").strip(),
                extra,
            )
        )
    return out


def format_players(players: list[Player]) -> str:
    """Players as CSV (``number,name,rank,rating,club`` plus extras)."""
    extras: list[str] = []
    for p in players:
        for k, _ in p.extra:
            if k not in extras:
                extras.append(k)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["number", *_PLAYER_COLUMNS, *extras])
    for p in players:
        extra = dict(p.extra)
        writer.writerow(
            [p.number, p.name, p.rank, "" if p.rating is None else p.rating, p.club]
            + [extra.get(k, "") for k in extras]
        )
    return buf.getvalue()


@dataclass(frozen=True)
class ResultRow:
    """One line of a results sheet."""

    round: int
    board: int
    result: GameResult
    black_warnings: int = 0
    white_warnings: int = 0


def _int(row: dict[str | None, str | None], key: str, line: int, default: int | None) -> int:
    text = (row.get(key) or "").strip()
    if not text:
        if default is None:
            raise TournamentError(f"results CSV line {line}: {key} is missing")
        return default
    try:
        return int(text)
    except ValueError:
        raise TournamentError(
            f"results CSV line {line}: {key} must be a number, got {text!r}"
        ) from None


def parse_results(text: str) -> list[ResultRow]:
    """A results sheet ``round,board,result`` (result codes as in ``duiyi event result``)."""
    reader = _reader(text, "results")
    missing = [c for c in ("round", "board", "result") if c not in (reader.fieldnames or [])]
    if missing:
        raise TournamentError(
            f"the results CSV needs columns round,board,result (missing {', '.join(missing)})"
        )
    out: list[ResultRow] = []
    for row in reader:
        line = reader.line_num
        if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue
        try:
            result = GameResult.parse(row.get("result") or "")
        except InvalidInput as exc:
            raise TournamentError(f"results CSV line {line}: {exc}") from None
        out.append(
            ResultRow(
                _int(row, "round", line, None),
                _int(row, "board", line, None),
                result,
                _int(row, "black_warnings", line, 0),
                _int(row, "white_warnings", line, 0),
            )
        )
    return out
