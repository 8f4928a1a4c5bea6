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
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from duiyi.errors import InvalidInput, TableFileError
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult, ResultSheet

__all__ = [
    "ResultRow",
    "format_players",
    "neutralise_cell",
    "normal_rank",
    "parse_players",
    "parse_results",
    "write_csv",
]

_PLAYER_COLUMNS = ("name", "rank", "rating", "club")


#: Header names the usual player lists use, in English and Chinese, for each column.
_HEADERS = {
    "name": ("name", "player", "姓名", "名字", "选手", "棋手", "選手", "棋士"),
    "rank": ("rank", "grade", "level", "段位", "级位", "段级位", "等级", "段級位"),
    "rating": ("rating", "elo", "等级分", "積分", "等級分"),
    "club": ("club", "affiliation", "单位", "俱乐部", "代表单位", "單位"),
    "country": ("country", "nation", "国家", "地区", "国家/地区", "國家"),
    "team": ("team", "队", "队名", "队伍", "代表队", "隊"),
}
_ALIAS = {alias: key for key, names in _HEADERS.items() for alias in names}


# A cell a spreadsheet takes for a formula (CSV injection, OWASP): = + - @, a tab or a CR first.
_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?[0-9]+(\.[0-9]+)?(/[0-9]+)?$")
# numbers a sheet gives: ASCII digits only (int() and float() also read other scripts' digits)
_WHOLE = re.compile(r"^[+-]?[0-9]+$", re.ASCII)
_DECIMAL = re.compile(r"^[+-]?[0-9]+(\.[0-9]*)?$", re.ASCII)


def neutralise_cell(value: object) -> str:
    """``value`` as a cell a spreadsheet shows as text: a leading apostrophe before a formula
    trigger; plain numbers (``-3``, ``+1.5``, ``-7/2``) stay numbers.

    >>> neutralise_cell('=HYPERLINK("http://x","y")')
    '\\'=HYPERLINK("http://x","y")'
    >>> neutralise_cell("@SUM(A1)"), neutralise_cell("-12"), neutralise_cell(3), neutralise_cell("Wang")
    ("'@SUM(A1)", '-12', '3', 'Wang')
    """
    text = "" if value is None else str(value)
    if text.startswith(_TRIGGERS) and not _NUMBER.match(text):
        return "'" + text
    return text


def write_csv(rows: Iterable[Sequence[object]]) -> str:
    """The one CSV writer of every export (players, standings; the server and the CLI): commas,
    ``\\n`` lines, every cell through :func:`neutralise_cell`.

    >>> write_csv([["number", "name"], [1, "+cmd|' /C calc'!A0"], [2, "-1.5"]])
    "number,name\\n1,'+cmd|' /C calc'!A0\\n2,-1.5\\n"
    """
    # "\r\n" as the writer's terminator makes it quote a cell holding a CR as well as a LF
    # (it quotes the terminator's characters); each line then ends with "\n" alone
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    lines = []
    for row in rows:
        writer.writerow([neutralise_cell(cell) for cell in row])
        lines.append(out.getvalue()[:-2])
        out.seek(0)
        out.truncate()
    return "".join(line + "\n" for line in lines)


def _delimiter(first_line: str) -> str:
    for d in (",", "\t", ";", "，"):
        if d in first_line:
            return d
    return ","


def _reader(text: str, what: str, delimiter: str = ",") -> csv.DictReader[str]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
    try:
        fields = reader.fieldnames
    except csv.Error as exc:
        raise TableFileError(
            f"the {what} CSV cannot be read on line 1: {exc}",
            code="csv-line-unreadable",
            values={"table": what, "line": "1"},
        ) from None
    if fields is None:
        raise TableFileError(
            f"the {what} CSV is empty (expected a header line)",
            code="csv-empty",
            values={"table": what},
        )
    reader.fieldnames = [f.strip().lower() for f in fields]
    return reader


def _rows(
    reader: csv.DictReader[str], what: str
) -> Iterator[tuple[int, dict[str | None, str | None]]]:
    """Each row with its line number; a line the CSV reader cannot split (a bare CR inside a
    field, a NUL) is a ``TableFileError`` naming the line."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise TableFileError(
                f"{what} CSV line {reader.line_num}: {exc}",
                code="csv-line-unreadable",
                values={"table": what, "line": str(reader.line_num)},
            ) from None
        yield reader.line_num, row


def _is_plain_list(text: str) -> bool:
    """A list of names, one a line, without a header: no delimiter on any line and the first
    line is no known header."""
    lines = [ln.strip() for ln in text.lstrip("\ufeff").splitlines() if ln.strip()]
    if not lines or lines[0].lower() in _ALIAS:
        return False
    return not any(d in ln for ln in lines for d in (",", "\t", ";", "，"))


def parse_players(text: str) -> list[Player]:
    """Players from CSV text (numbers are given when they join an event), or from a plain list
    of names, one a line.

    The header may use the usual names in English or Chinese (``name``/``姓名``,
    ``rank``/``段位``, ``rating``/``等级分``, ``club``/``单位``, ``country``/``国家``,
    ``team``/``队名``); commas, tabs or semicolons separate the columns. Other columns are kept
    as extras.

    >>> parse_players("name,rank,rating,club,country\\nWang,2d,,Shanghai,CN\\n")[0]
    Player(number=0, name='Wang', rank='2d', rating=None, club='Shanghai', extra=(('country', 'CN'),))
    >>> [p.name for p in parse_players("Li Wei\\nZhang Min\\n")]
    ['Li Wei', 'Zhang Min']
    >>> p = parse_players("姓名\\t段位\\t单位\\n李昂\\t3段\\t北京\\n")[0]
    >>> p.name, p.rank, p.club
    ('李昂', '3d', '北京')
    >>> parse_players("name,rating\\nLi,strong\\n")
    Traceback (most recent call last):
    ...
    duiyi.errors.TableFileError: players CSV line 2: rating must be a whole number in ASCII digits (0-9), got 'strong'
    >>> parse_players("name,rating\\nLi,١٢\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.TableFileError: players CSV line 2: rating must be a whole number in ASCII ...
    """
    if _is_plain_list(text):
        names = [ln.strip() for ln in text.lstrip("\ufeff").splitlines() if ln.strip()]
        return [Player(0, n) for n in names]
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    reader = _reader(text, "players", _delimiter(first))
    reader.fieldnames = [_ALIAS.get(f, f) for f in reader.fieldnames or []]
    if "name" not in (reader.fieldnames or []):
        raise TableFileError(
            "the players CSV needs a 'name' column (header name,rank,rating,club, or 姓名,段位,"
            "等级分,单位), or give a plain list of names, one a line",
            code="players-csv-no-name-column",
            values={"header": "name,rank,rating,club", "header_zh": "姓名,段位,等级分,单位"},
        )
    out: list[Player] = []
    for line, row in _rows(reader, "players"):
        name = (row.get("name") or "").strip()
        if not name and not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue  # blank line
        if not name:
            raise TableFileError(
                f"players CSV line {line}: the name is empty",
                code="players-csv-no-name",
                values={"line": str(line)},
            )
        rating_text = (row.get("rating") or "").strip()
        rating: int | None = None
        if rating_text:
            if _DECIMAL.match(rating_text) is None:
                raise TableFileError(
                    f"players CSV line {line}: rating must be a whole number in ASCII digits "
                    f"(0-9), got {rating_text!r}",
                    code="players-csv-rating",
                    values={"line": str(line), "rating": rating_text},
                )
            rating = int(float(rating_text))
        extra = tuple(
            (k, (v or "").strip())
            for k, v in row.items()
            if k is not None and k not in _PLAYER_COLUMNS and isinstance(v, str)
        )
        out.append(
            Player(
                0,
                name,
                normal_rank((row.get("rank") or "").strip()),
                rating,
                (row.get("club") or "").strip(),
                extra,
            )
        )
    return out


_CJK_RANK = {"段": "d", "级": "k", "級": "k"}


def normal_rank(rank: str) -> str:
    """A rank as the events write it: ``3段`` → ``3d``, ``5级`` → ``5k``, ``职业2段`` → ``2p``;
    anything else as given.

    >>> normal_rank("3段"), normal_rank("10级"), normal_rank("职业九段"), normal_rank("2D")
    ('3d', '10k', '9p', '2D')
    """
    text = rank.strip()
    pro = text.startswith(("职业", "職業"))
    if pro:
        text = text[2:]
    digits = "一二三四五六七八九"
    if text and text[0] in digits:
        text = str(digits.index(text[0]) + 1) + text[1:]
    if len(text) >= 2 and text[:-1].isdigit() and text[-1] in _CJK_RANK:
        return text[:-1] + ("p" if pro else _CJK_RANK[text[-1]])
    return rank


def format_players(players: list[Player]) -> str:
    """Players as CSV (``number,name,rank,rating,club`` plus extras; :func:`write_csv`)."""
    extras: list[str] = []
    for p in players:
        for k, _ in p.extra:
            if k not in extras:
                extras.append(k)
    rows: list[list[object]] = [["number", *_PLAYER_COLUMNS, *extras]]
    for p in players:
        extra = dict(p.extra)
        rows.append(
            [p.number, p.name, p.rank, "" if p.rating is None else p.rating, p.club]
            + [extra.get(k, "") for k in extras]
        )
    return write_csv(rows)


@dataclass(frozen=True)
class ResultRow:
    """One line of a results sheet.

    >>> ResultRow(1, 2, GameResult.DRAW, 1).sheet.black_warnings
    1
    """

    round: int
    board: int
    result: GameResult
    black_warnings: int = 0
    white_warnings: int = 0

    @property
    def sheet(self) -> ResultSheet:
        """The line's result with the warnings each side received (Go §24)."""
        return ResultSheet(self.result, self.black_warnings, self.white_warnings)


def _int(row: dict[str | None, str | None], key: str, line: int, default: int | None) -> int:
    text = (row.get(key) or "").strip()
    if not text:
        if default is None:
            raise TableFileError(
                f"results CSV line {line}: {key} is missing",
                code="results-csv-missing",
                values={"line": str(line), "field": key},
            )
        return default
    if _WHOLE.match(text) is None:  # int() would read "١" (Arabic-Indic) or "１" as digits
        raise TableFileError(
            f"results CSV line {line}: {key} must be a number in ASCII digits (0-9), got {text!r}",
            code="results-csv-number",
            values={"line": str(line), "field": key, "text": text},
        )
    return int(text)


def parse_results(text: str) -> list[ResultRow]:
    """A results sheet ``round,board,result`` (result codes as in ``duiyi event result``):
    numbers in ASCII digits, one line a board.

    >>> parse_results("round,board,result\\n1,1,1-0\\n1,1,1-0\\n")
    Traceback (most recent call last):
    ...
    duiyi.errors.TableFileError: results CSV line 3: round 1 board 1 is on line 2 already (one line a board)
    >>> parse_results("round,board,result\\n١,1,1-0\\n")
    Traceback (most recent call last):
    ...
    duiyi.errors.TableFileError: results CSV line 2: round must be a number in ASCII digits (0-9), got '١'
    """
    reader = _reader(text, "results")
    missing = [c for c in ("round", "board", "result") if c not in (reader.fieldnames or [])]
    if missing:
        raise TableFileError(
            f"the results CSV needs columns round,board,result (missing {', '.join(missing)})",
            code="results-csv-columns",
            values={"columns": "round,board,result", "missing": ", ".join(missing)},
        )
    out: list[ResultRow] = []
    seen: dict[tuple[int, int], int] = {}  # (round, board) -> its line
    for line, row in _rows(reader, "results"):
        if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue
        board = (_int(row, "round", line, None), _int(row, "board", line, None))
        if board in seen:
            raise TableFileError(
                f"results CSV line {line}: round {board[0]} board {board[1]} is on line "
                f"{seen[board]} already (one line a board)",
                code="results-csv-board-twice",
                values={
                    "line": str(line),
                    "round": str(board[0]),
                    "board": str(board[1]),
                    "first": str(seen[board]),
                },
            )
        seen[board] = line
        try:
            result = GameResult.parse(row.get("result") or "")
        except InvalidInput as exc:
            raise TableFileError(
                f"results CSV line {line}: {exc}",
                code="results-csv-result",
                values={
                    "line": str(line),
                    "result": (row.get("result") or "").strip(),
                    "expected": exc.values.get("expected", ""),
                },
            ) from None
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
