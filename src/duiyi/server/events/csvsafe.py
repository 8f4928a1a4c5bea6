"""Names entered by CSV: the same refusals as the JSON schema (control, bidirectional override
and zero-width characters, see :func:`duiyi.server.schemas.check_text`), and bounded. CSV
*exports* are written by one writer, :func:`duiyi.tournament.formats.csvfiles.write_csv`,
which neutralises formulas (CSV injection).

>>> check_names("Wang", "Shanghai")
>>> check_names("Li\u200b")
Traceback (most recent call last):
...
duiyi.errors.InvalidInput: a zero-width character is not allowed (found U+200B ZERO WIDTH SPACE at position 3)
"""

from __future__ import annotations

from duiyi.errors import InvalidInput
from duiyi.server.schemas import check_text

__all__ = ["check_names"]


def check_names(*values: str) -> None:
    """Refuse control characters and over-long text in names and clubs entered by CSV (the
    JSON schema refuses them for JSON input). Raises InvalidInput (a ValueError) with its code."""
    for value in values:
        check_text(value)
        if len(value) > 100:
            raise InvalidInput(
                f"a name or club is at most 100 characters, got {len(value)}",
                code="name-too-long",
                values={"most": "100", "length": str(len(value))},
            )
