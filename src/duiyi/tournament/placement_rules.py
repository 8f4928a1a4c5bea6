"""OpenGotha's placement rules as a value (:class:`PlacementRules`: criteria, McMahon bar and
floor, what byes and absences are worth) and its rank numbers, apart from the computation in
:mod:`duiyi.tournament.placement` so that an event's options (:mod:`duiyi.tournament.options`)
read them without the event model.

>>> PlacementRules.from_json({"criteria": ["MMS", "SOSM"], "bar": 3}).used
('MMS', 'SOSM')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from duiyi.errors import InvalidInput

__all__ = ["ARTICLE", "CRITERIA", "PlacementRules", "og_rank", "og_rank_text"]

ARTICLE = "OpenGotha placement (event rules)"

#: OpenGotha's placement criteria: long name → (divisor of the stored value, label).
CRITERIA: dict[str, tuple[int, str]] = {
    "NULL": (1, "no criterion"),
    "CAT": (1, "category"),
    "Rank": (1, "rank"),
    "Rating": (1, "rating"),
    "NBW": (2, "number of wins"),
    "MMS": (2, "McMahon score"),
    "STS": (2, "Strasbourg score"),
    "CUSSW": (2, "cumulative sum of scores (wins)"),
    "CUSSM": (2, "cumulative sum of scores (MMS)"),
    "SOSW": (2, "sum of opponents' wins"),
    "SOSW-1": (2, "SOSW without the weakest opponent"),
    "SOSW-2": (2, "SOSW without the two weakest"),
    "SODOSW": (4, "sum of defeated opponents' wins"),
    "SOSM": (2, "sum of opponents' McMahon scores"),
    "SOSM-1": (2, "SOSM without the weakest opponent"),
    "SOSM-2": (2, "SOSM without the two weakest"),
    "SODOSM": (4, "sum of defeated opponents' McMahon scores"),
    "SOSTS": (2, "sum of opponents' Strasbourg scores"),
    "SOSOSW": (2, "sum of opponents' SOSW"),
    "SOSOSM": (2, "sum of opponents' SOSM"),
    "EXT": (2, "exploits attempted"),
    "EXR": (2, "exploits achieved"),
    "DC": (1, "direct confrontation"),
    "SDC": (1, "simplified direct confrontation"),
}


def og_rank(rank: str) -> int:
    """OpenGotha's rank number: 30k = −30 … 1k = −1, 1d = 0 … 9d = 8 (1–3p 7d, 4–6p 8d,
    7–9p 9d); a bare number is kyu; unreadable or empty ranks are 30k.

    >>> [og_rank(r) for r in ("30k", "1K", "1d", "5D", "2p", "8p", "12", "")]
    [-30, -1, 0, 4, 6, 8, -12, -30]
    """
    text = rank.strip()
    if not text:
        return -30
    last = text[-1]
    try:
        if last.isdigit():
            value = -int(text)
        else:
            number = int(text[:-1])
            if last in "dD":
                value = number - 1
            elif last in "pP":
                value = 6 if number <= 3 else 7 if number <= 6 else 8
            else:
                value = -number
    except ValueError:
        return -30
    return max(-30, min(8, value))


def og_rank_text(value: int) -> str:
    """The rank text OpenGotha writes for a rank number.

    >>> og_rank_text(-20), og_rank_text(3)
    ('20K', '4D')
    """
    return f"{value + 1}D" if value >= 0 else f"{-value}K"


@dataclass(frozen=True)
class PlacementRules:
    """An event's OpenGotha placement rules (see the module text). Ranks are OpenGotha rank
    numbers (:func:`og_rank`); bye and absence values are in half points.

    >>> r = PlacementRules(("NBW", "SOSW"), bar=8, floor=-30)
    >>> PlacementRules.from_json(r.to_json()) == r
    True
    """

    criteria: tuple[str, ...]
    bar: int = 3
    floor: int = -20
    zero: int = -30
    mms_bye_x2: int = 2
    mms_absent_x2: int = 1
    nbw_bye_x2: int = 2
    nbw_absent_x2: int = 0
    round_down: bool = True
    not_played_as_half: bool = False
    categories: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        unknown = [c for c in self.criteria if c not in CRITERIA]
        if unknown:
            raise InvalidInput(f"unknown placement criteria: {', '.join(unknown)}", ARTICLE)

    @property
    def used(self) -> tuple[str, ...]:
        """The criteria that rank (NULL left out)."""
        return tuple(c for c in self.criteria if c != "NULL")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "criteria": list(self.criteria),
            "bar": self.bar,
            "floor": self.floor,
            "zero": self.zero,
            "mms_bye_x2": self.mms_bye_x2,
            "mms_absent_x2": self.mms_absent_x2,
            "nbw_bye_x2": self.nbw_bye_x2,
            "nbw_absent_x2": self.nbw_absent_x2,
            "round_down": self.round_down,
            "not_played_as_half": self.not_played_as_half,
            "categories": list(self.categories),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlacementRules:
        """Rebuild rules written by :meth:`to_json`."""
        try:
            return cls(
                tuple(str(c) for c in data["criteria"]),
                int(data.get("bar", 3)),
                int(data.get("floor", -20)),
                int(data.get("zero", -30)),
                int(data.get("mms_bye_x2", 2)),
                int(data.get("mms_absent_x2", 1)),
                int(data.get("nbw_bye_x2", 2)),
                int(data.get("nbw_absent_x2", 0)),
                bool(data.get("round_down", True)),
                bool(data.get("not_played_as_half", False)),
                tuple(int(c) for c in data.get("categories", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(f"placement rules cannot be read: {exc!r}", ARTICLE) from None
