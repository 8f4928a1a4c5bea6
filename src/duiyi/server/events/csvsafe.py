"""Names entered by CSV: the same refusals as the JSON schema (control, bidirectional override
and zero-width characters, see :func:`duiyi.server.schemas.check_text`), and bounded. CSV
*exports* are written by one writer, :func:`duiyi.tournament.formats.csvfiles.write_csv`,
which neutralises formulas (CSV injection).

>>> check_names("Wang", "Shanghai")
>>> check_names("Li\u200b")
Traceback (most recent call last):
...
ValueError: a zero-width character is not allowed (found U+200B ZERO WIDTH SPACE at position 3)
"""

from __future__ import annotations

from duiyi.server.schemas import check_text

__all__ = ["check_names"]


def check_names(*values: str) -> None:
    """Refuse control characters and over-long text in names and clubs entered by CSV (the
    JSON schema refuses them for JSON input). Raises ValueError."""
    for value in values:
        check_text(value)
        if len(value) > 100:
            raise ValueError(f"a name or club is at most 100 characters, got {len(value)}")
