"""CSV files a spreadsheet may open: a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or
a carriage return is a formula to Excel and LibreOffice (CSV injection, OWASP), so it is
neutralised with a leading apostrophe; plain numbers (``-3``, ``+1.5``) stay numbers.

>>> neutralise_cell('=HYPERLINK("http://x","y")')
'\\'=HYPERLINK("http://x","y")'
>>> neutralise_cell("+cmd|' /C calc'!A0"), neutralise_cell("-12"), neutralise_cell("Wang")
("'+cmd|' /C calc'!A0", '-12', 'Wang')
>>> neutralise_csv("number,name\\n1,@SUM(A1)\\n")
"number,name\\n1,'@SUM(A1)\\n"
"""

from __future__ import annotations

import csv
import io
import re

from duiyi.server.schemas import check_text

__all__ = ["check_names", "neutralise_cell", "neutralise_csv"]

_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?[0-9]+(\.[0-9]+)?$")


def neutralise_cell(value: str) -> str:
    """``value`` made inert for a spreadsheet."""
    if value.startswith(_TRIGGERS) and not _NUMBER.match(value):
        return "'" + value
    return value


def neutralise_csv(text: str) -> str:
    """Every cell of a CSV document made inert (same dialect: commas, ``\\n`` lines)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in csv.reader(io.StringIO(text, newline="")):
        writer.writerow([neutralise_cell(cell) for cell in row])
    return out.getvalue()


def check_names(*values: str) -> None:
    """Refuse control characters and over-long text in names and clubs entered by CSV (the
    JSON schema refuses them for JSON input). Raises ValueError."""
    for value in values:
        check_text(value)
        if len(value) > 100:
            raise ValueError(f"a name or club is at most 100 characters, got {len(value)}")
