"""Rule options of a Gomoku/Renju game, one frozen object with presets (DECISIONS.md, Gomoku).

>>> r = RenjuRules.chinese_2013()
>>> r.opening is OpeningRule.DESIGNATED, r.fouls, r.swap, r.fifth_dab
(True, True, True, True)
>>> RenjuRules.from_json(r.to_json()) == r
True
>>> RenjuRules.free().fouls
False
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, replace
from typing import Any

from duiyi.errors import InvalidRules

__all__ = ["DabSymmetry", "FoulPolicy", "OpeningRule", "RenjuRules"]


class OpeningRule(enum.Enum):
    """How the first stones are placed (Gomoku §3.1)."""

    DESIGNATED = "designated"  # 指定开局: one of the 26, with swap and fifth-move N-dab
    FREE = "free"  # 自由开局: the players alternate from the first stone


class FoulPolicy(enum.Enum):
    """What happens when Black plays a forbidden point (DECISIONS.md, Gomoku §10.1(2))."""

    AUTO = "auto"  # the game ends at once, White wins (online play)
    CLAIM = "claim"  # White must claim before its next stone; an overline until the game ends


class DabSymmetry(enum.Enum):
    """Which candidates of the fifth-move N-dab count as the same (位置不同形, Gomoku §2.10)."""

    STONES = "stones"  # the positions map onto each other by any isometry, ignoring the edge
    BOARD = "board"  # only the board's own 8 symmetries about h8


@dataclass(frozen=True)
class RenjuRules:
    """Every option of a Gomoku/Renju game. Use a preset and :func:`dataclasses.replace`.

    >>> from dataclasses import replace
    >>> replace(RenjuRules.chinese_2013(), foul_policy=FoulPolicy.CLAIM).foul_policy.value
    'claim'
    """

    opening: OpeningRule = OpeningRule.DESIGNATED
    fouls: bool = True
    swap: bool = True
    fifth_dab: bool = True
    dab_symmetry: DabSymmetry = DabSymmetry.STONES
    foul_policy: FoulPolicy = FoulPolicy.AUTO
    max_fifth_n: int = 50
    draw_offer_lead: int = 2

    def __post_init__(self) -> None:
        for name, typ in (
            ("opening", OpeningRule),
            ("dab_symmetry", DabSymmetry),
            ("foul_policy", FoulPolicy),
        ):
            if not isinstance(getattr(self, name), typ):
                raise InvalidRules(f"{name} must be a {typ.__name__}, got {getattr(self, name)!r}")
        for name in ("fouls", "swap", "fifth_dab"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRules(f"{name} must be true or false")
        if self.opening is OpeningRule.DESIGNATED and not self.fouls:
            raise InvalidRules(
                "a designated opening always plays with forbidden moves", "Gomoku §4.1"
            )
        if self.opening is OpeningRule.FREE and (self.swap or self.fifth_dab):
            raise InvalidRules(
                "a free opening has no three-move swap and no fifth-move N-dab", "Gomoku §3.3"
            )
        # 50: any 4-stone position has at least 55 classes of empty points, so N ≤ 50 can
        # always be met.
        if not isinstance(self.max_fifth_n, int) or not 1 <= self.max_fifth_n <= 50:
            raise InvalidRules("max_fifth_n must be an integer from 1 to 50", "Gomoku §2.10")
        if not isinstance(self.draw_offer_lead, int) or self.draw_offer_lead < 1:
            raise InvalidRules("draw_offer_lead must be a positive integer", "Gomoku §10.3")

    @classmethod
    def chinese_2013(cls) -> RenjuRules:
        """The book's rules: designated opening, swap, N-dab, forbidden moves, auto fouls."""
        return cls()

    @classmethod
    def free(cls) -> RenjuRules:
        """Free opening without forbidden moves (Gomoku §3.3); an overline wins for both."""
        return cls(opening=OpeningRule.FREE, fouls=False, swap=False, fifth_dab=False)

    @classmethod
    def free_renju(cls) -> RenjuRules:
        """Free opening that keeps Black's forbidden moves (Gomoku §3.3 allows either)."""
        return cls(opening=OpeningRule.FREE, fouls=True, swap=False, fifth_dab=False)

    @classmethod
    def preset(cls, name: str) -> RenjuRules:
        """A preset by name, the one spelling list for every command, the server and the files:
        ``chinese-2013`` (also ``chinese``, ``renju``, ``2013``), ``free`` (also ``gomoku``,
        ``freestyle``) and ``free-renju``; case, ``_`` and spaces as ``-`` do not matter.

        >>> RenjuRules.preset("Free_Renju") == RenjuRules.free_renju()
        True
        >>> RenjuRules.preset("chinese") == RenjuRules.chinese_2013()
        True
        >>> RenjuRules.preset("pro")
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidRules: unknown Gomoku rules 'pro' (chinese-2013, free, free-renju)
        """
        key = "-".join(name.strip().lower().replace("_", "-").split())
        factory = _PRESET_ALIASES.get(key)
        if factory is None:
            raise InvalidRules(f"unknown Gomoku rules {name!r} ({', '.join(GOMOKU_PRESETS)})")
        return getattr(cls, factory)()  # type: ignore[no-any-return]

    @property
    def black_overline_wins(self) -> bool:
        """Without forbidden moves, six in a row is a win for Black too."""
        return not self.fouls

    def with_options(self, **changes: Any) -> RenjuRules:
        """A copy with some options changed (values may be enum members or their strings).

        >>> RenjuRules.chinese_2013().with_options(foul_policy="claim").foul_policy
        <FoulPolicy.CLAIM: 'claim'>
        """
        data = self.to_json()
        data.update({k: (v.value if isinstance(v, enum.Enum) else v) for k, v in changes.items()})
        return RenjuRules.from_json(data)

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict with ``"v": 1``."""
        data: dict[str, Any] = {"v": 1}
        for k, v in asdict(self).items():
            data[k] = v.value if isinstance(v, enum.Enum) else v
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RenjuRules:
        """Rebuild rules written by :meth:`to_json`; unknown keys are refused."""
        if not isinstance(data, dict):
            raise InvalidRules("rules must be a JSON object")
        if data.get("v", 1) != 1:
            raise InvalidRules(f"unknown rules version {data.get('v')!r}")
        fields = {k: v for k, v in data.items() if k != "v"}
        unknown = set(fields) - set(cls.__dataclass_fields__)
        if unknown:
            raise InvalidRules(f"unknown rule options: {', '.join(sorted(unknown))}")
        enums: dict[str, type[enum.Enum]] = {
            "opening": OpeningRule,
            "dab_symmetry": DabSymmetry,
            "foul_policy": FoulPolicy,
        }
        try:
            for k, e in enums.items():
                if k in fields:
                    fields[k] = e(fields[k])
        except ValueError as exc:
            raise InvalidRules(f"bad rule option: {exc}") from exc
        return replace(cls(), **fields) if fields else cls()


#: The Gomoku presets, in the order commands list them (:meth:`RenjuRules.preset`).
GOMOKU_PRESETS = ("chinese-2013", "free", "free-renju")

_PRESET_ALIASES = {
    "chinese-2013": "chinese_2013",
    "chinese": "chinese_2013",
    "renju": "chinese_2013",
    "2013": "chinese_2013",
    "free": "free",
    "gomoku": "free",
    "freestyle": "free",
    "free-renju": "free_renju",
}
