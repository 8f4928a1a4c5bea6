"""Rule sets for Go: one frozen :class:`Rules` object per game, with presets.

``Rules.chinese()`` is the default and follows the 2002 Chinese rules as read in DECISIONS.md:
area counting in stones (Go §9), komi 3¾ stones (Go §11), situational superko (Go §6, §20),
suicide forbidden (Go §5), handicap games without komi where Black returns half a stone per
handicap stone (scoring-variants). ``japanese()``/``korean()`` count territory plus prisoners with
komi 6.5 points, no points in seki and simple ko; ``ing()`` counts area in points with komi 8
and allows multi-stone suicide; ``aga()`` counts area in points with H − 1 points back.

Handicap compensation is data: ``handicap_return`` per stone plus ``handicap_return_offset``
once, for handicap H ≥ 2 (:class:`HandicapConvention` names the usual pairs).

Komi and handicap compensation are in the unit of the scoring method: stones (子) for
``AREA_STONES``, points (目/点) for ``TERRITORY`` and ``AREA_POINTS``. One stone is two points.

>>> r = Rules.chinese()
>>> r.komi, r.ko_rule, r.scoring
(Fraction(15, 4), <KoRule.SITUATIONAL: 'situational'>, <Scoring.AREA_STONES: 'area_stones'>)
>>> Rules.from_json(r.to_json()) == r
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any

from duiyi.errors import InvalidRules

__all__ = [
    "MAX_KOMI_POINTS",
    "PRESETS",
    "HandicapConvention",
    "KoRule",
    "RepetitionOutcome",
    "Rules",
    "Scoring",
    "preset_name",
]


class KoRule(enum.Enum):
    """How whole-board repetition is prevented (Go §6, §20).

    >>> KoRule("situational") is KoRule.SITUATIONAL
    True
    """

    SIMPLE = "simple"  # only the immediate recapture of a single-stone ko is forbidden (§20.1)
    POSITIONAL = "positional"  # no move may recreate an earlier board position
    SITUATIONAL = "situational"  # ... an earlier position with the same side to move (Go §6)


class RepetitionOutcome(enum.Enum):
    """What a full-board repetition means under simple ko (Go §20.3 lets the event decide).

    >>> RepetitionOutcome("draw")
    <RepetitionOutcome.DRAW: 'draw'>
    """

    NO_RESULT = "no_result"  # 无胜负
    DRAW = "draw"  # 和棋
    REPLAY = "replay"  # 重赛 (recorded as no result with a replay note)


class Scoring(enum.Enum):
    """How a finished game is counted.

    >>> Scoring.AREA_STONES.value
    'area_stones'
    """

    AREA_STONES = "area_stones"  # Chinese 数子法: stones + surrounded points, in stones (Go §9)
    AREA_POINTS = "area_points"  # Ing 计点: the same area, compared in points
    TERRITORY = "territory"  # Japanese/Korean 数目法: territory + prisoners, in points


class HandicapConvention(enum.Enum):
    """Who gets what back in a handicap game with H ≥ 2 stones, as ``(per stone, once)`` points.

    White receives ``per_stone × H + once`` points on top of the handicap komi:

    * ``CHINESE``: H/2 stones = H points (scoring-variants: 讓子要貼還讓子數的一半);
    * ``AGA``: H − 1 points (AGA rules: one point for each handicap stone after the first);
    * ``NONE``: nothing (Japanese/Korean territory counting: the stones are not counted);
    * ``ING``: nothing either: the Ing rules text we follow gives no rate for handicap
      stones (scoring-variants only says 局差還點, "points back for the difference in
      strength", without a number), so duiyi does not invent one. The AGA's commentary on the
      SST rules gives White H points; that is ``CHINESE`` in points.

    >>> HandicapConvention.AGA.points
    (Fraction(1, 1), Fraction(-1, 1))
    >>> [HandicapConvention.CHINESE.return_points(h) for h in (1, 2, 4)]
    [Fraction(0, 1), Fraction(2, 1), Fraction(4, 1)]
    """

    CHINESE = "chinese"
    AGA = "aga"
    NONE = "none"
    ING = "ing"

    @property
    def points(self) -> tuple[Fraction, Fraction]:
        """``(per_stone, once)`` in points."""
        if self is HandicapConvention.CHINESE:
            return Fraction(1), Fraction(0)
        if self is HandicapConvention.AGA:
            return Fraction(1), Fraction(-1)
        return Fraction(0), Fraction(0)

    def return_points(self, handicap: int) -> Fraction:
        """Points White gets back for ``handicap`` stones (nothing below two stones)."""
        if handicap < 2:
            return Fraction(0)
        per_stone, once = self.points
        return per_stone * handicap + once


#: Every Go preset, in the order commands list them (:meth:`Rules.preset`).
PRESETS = ("chinese", "japanese", "korean", "ing", "aga", "nz", "tromp-taylor")

_ALIASES = {
    "chinese": ("chinese", "cn", "china", "中国", "中國", "chn"),
    "japanese": ("japanese", "jp", "japan", "日本", "jpn"),
    "korean": ("korean", "ko", "kr", "korea", "韩国", "韓國", "kor"),
    "ing": ("ing", "goe", "ing's", "应氏", "應氏"),
    "aga": ("aga",),
    "nz": ("nz", "new-zealand", "new", "newzealand"),
    "tromp-taylor": ("tromp-taylor", "tromp", "tt"),
}
_BY_ALIAS = {alias: name for name, aliases in _ALIASES.items() for alias in aliases}


def preset_name(text: str) -> str | None:
    """The preset a rule-set name means (its first word, ``_``/space as ``-``), or None.

    >>> preset_name("New Zealand"), preset_name("kgs_chinese"), preset_name("Japanese 1989")
    ('nz', None, 'japanese')
    """
    key = text.strip().lower().replace("_", "-")
    if key in _BY_ALIAS:
        return _BY_ALIAS[key]
    if key.replace(" ", "-") in _BY_ALIAS:
        return _BY_ALIAS[key.replace(" ", "-")]
    words = key.split()
    if words and words[0] in _BY_ALIAS:
        return _BY_ALIAS[words[0]]
    for name in ("chinese", "japanese"):
        if key.startswith(name):
            return name
    return None


#: The largest komi a rule set accepts, in points: more than a 25×25 board holds, so every real
#: komi fits; beyond it a value is a mistake or an attack (GTP ``komi 1e999999999``).
MAX_KOMI_POINTS = 1000


def _frac(value: object, name: str) -> Fraction:
    if isinstance(value, bool):
        raise InvalidRules(f"{name} must be a number, got {value!r}")
    try:
        if isinstance(value, float | int | Fraction):
            f = Fraction(value)
        elif isinstance(value, str):
            if len(value.strip()) > 30:  # Fraction("1e-999999999") builds a huge integer
                raise ValueError
            f = Fraction(value.strip())
        else:
            raise TypeError
    except (TypeError, ValueError, ZeroDivisionError):
        raise InvalidRules(f"{name} must be a number, got {value!r}") from None
    return f


# fields added after rules JSON v1: omitted from to_json() while they keep their default
_LATER_FIELDS = frozenset({"handicap_return_offset", "single_stone_suicide"})


@dataclass(frozen=True)
class Rules:
    """The options of one Go rule set. Build it with a preset and :func:`dataclasses.replace`.

    Fields:
        name: preset name (free text for custom sets).
        scoring: :class:`Scoring` method.
        komi: compensation Black gives in an even game, in the scoring unit (must be a
            multiple of ¼ stone = ½ point).
        ko_rule: :class:`KoRule`.
        repetition_outcome: result of a full-board repetition under simple ko.
        allow_suicide: permit single- and multi-stone suicide (never under Go §5).
        handicap_komi: komi in handicap games (handicap ≥ 1), in the scoring unit.
        handicap_return: compensation per handicap stone when handicap ≥ 2, in the scoring
            unit (Chinese: ½ stone each, scoring-variants 讓子要貼還讓子數的一半).
        handicap_return_offset: added once to ``handicap_return × H`` when handicap ≥ 2, in
            the scoring unit (AGA: −1 point, so H − 1 points); see :class:`HandicapConvention`.
        fixed_handicap: handicap stones go on the fixed star points; else Black places them.
        seki_points: whether empty points inside seki count (territory scoring only).
        single_stone_suicide: with ``allow_suicide``, whether a lone stone may take its own
            last liberty too (Ing: no, only multi-stone suicide is allowed).

    >>> from dataclasses import replace
    >>> replace(Rules.chinese(), komi=Fraction(13, 4)).komi_points
    Fraction(13, 2)
    """

    name: str = "chinese"
    scoring: Scoring = Scoring.AREA_STONES
    komi: Fraction = Fraction(15, 4)
    ko_rule: KoRule = KoRule.SITUATIONAL
    repetition_outcome: RepetitionOutcome = RepetitionOutcome.NO_RESULT
    allow_suicide: bool = False
    handicap_komi: Fraction = Fraction(0)
    handicap_return: Fraction = Fraction(1, 2)
    fixed_handicap: bool = True
    seki_points: bool = True
    handicap_return_offset: Fraction = Fraction(0)
    single_stone_suicide: bool = True

    def __post_init__(self) -> None:
        for name in ("komi", "handicap_komi", "handicap_return", "handicap_return_offset"):
            value = _frac(getattr(self, name), name)
            object.__setattr__(self, name, value)
            step = Fraction(1, 4) if self.scoring is Scoring.AREA_STONES else Fraction(1, 2)
            if (value / step).denominator != 1:
                raise InvalidRules(
                    f"{name} {value} must be a multiple of {step} "
                    f"{'stone' if step == Fraction(1, 4) else 'point'} (Go §11)"
                )
        for name, kind in (
            ("scoring", Scoring),
            ("ko_rule", KoRule),
            ("repetition_outcome", RepetitionOutcome),
        ):
            if not isinstance(getattr(self, name), kind):
                raise InvalidRules(f"{name} must be a {kind.__name__}, got {getattr(self, name)!r}")
        for name in ("komi", "handicap_komi"):
            if abs(getattr(self, name) * self.unit_points) > MAX_KOMI_POINTS:
                raise InvalidRules(
                    f"{name} {getattr(self, name)} is beyond ±{MAX_KOMI_POINTS} points (Go §11)"
                )
        if self.handicap_return < 0 or self.handicap_return * 2 + self.handicap_return_offset < 0:
            raise InvalidRules(
                f"handicap return {self.handicap_return} per stone + {self.handicap_return_offset}"
                " would give Black points back (scoring-variants 讓子)"
            )
        for name in ("allow_suicide", "fixed_handicap", "seki_points", "single_stone_suicide"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRules(f"{name} must be true or false, got {getattr(self, name)!r}")
        if not isinstance(self.name, str) or not self.name:
            raise InvalidRules("a rule set needs a name")

    # ------------------------------------------------------------------ presets
    @classmethod
    def chinese(cls) -> Rules:
        """The 2002 Chinese rules (the default): area in stones, komi 3¾ stones (Go §11).

        >>> Rules.chinese().komi_points
        Fraction(15, 2)
        """
        return cls()

    @classmethod
    def japanese(cls) -> Rules:
        """Japanese rules: territory + prisoners, komi 6.5, no points in seki, simple ko.

        >>> Rules.japanese().ko_rule
        <KoRule.SIMPLE: 'simple'>
        """
        return cls(
            name="japanese",
            scoring=Scoring.TERRITORY,
            komi=Fraction(13, 2),
            ko_rule=KoRule.SIMPLE,
            repetition_outcome=RepetitionOutcome.NO_RESULT,
            handicap_komi=Fraction(0),
            handicap_return=Fraction(0),
            seki_points=False,
        )

    @classmethod
    def korean(cls) -> Rules:
        """Korean rules: counted like Japanese (territory + prisoners, komi 6.5, 公活無目).

        >>> Rules.korean().name, Rules.korean().komi
        ('korean', Fraction(13, 2))
        """
        return replace(cls.japanese(), name="korean")

    @classmethod
    def ing(cls) -> Rules:
        """Ing rules (應氏): area counted in points (子空皆地), komi 8 points, draws possible.

        Multi-stone suicide is allowed, single-stone suicide is not (Ing's SST rules); handicap
        stones are placed freely (SST) and give nothing back (:attr:`HandicapConvention.ING`).
        Ing's own ko rules are not modelled: situational superko stands in (docs/decisions.md).

        >>> Rules.ing().komi, Rules.ing().scoring
        (Fraction(8, 1), <Scoring.AREA_POINTS: 'area_points'>)
        >>> Rules.ing().allow_suicide, Rules.ing().single_stone_suicide
        (True, False)
        """
        return cls(
            name="ing",
            scoring=Scoring.AREA_POINTS,
            komi=Fraction(8),
            ko_rule=KoRule.SITUATIONAL,
            handicap_komi=Fraction(0),
            allow_suicide=True,
            single_stone_suicide=False,
            fixed_handicap=False,
        ).with_handicap_convention(HandicapConvention.ING)

    @classmethod
    def aga(cls) -> Rules:
        """AGA rules as SGF ``RU[AGA]`` means them: area in points, komi 7.5, situational
        superko, ½ point komi in handicap games and H − 1 points back for H ≥ 2 stones.

        >>> Rules.aga().compensation(4)
        (Fraction(1, 2), Fraction(3, 1))
        """
        return cls(
            name="aga",
            scoring=Scoring.AREA_POINTS,
            komi=Fraction(15, 2),
            ko_rule=KoRule.SITUATIONAL,
            handicap_komi=Fraction(1, 2),
        ).with_handicap_convention(HandicapConvention.AGA)

    def with_handicap_convention(self, convention: HandicapConvention) -> Rules:
        """These rules with ``convention``'s handicap return, converted to the scoring unit.

        >>> Rules.chinese().with_handicap_convention(HandicapConvention.AGA).compensation(3)
        (Fraction(0, 1), Fraction(1, 1))
        """
        if not isinstance(convention, HandicapConvention):
            raise InvalidRules(f"not a handicap convention: {convention!r}")
        per_stone, once = convention.points
        return replace(
            self,
            handicap_return=per_stone / self.unit_points,
            handicap_return_offset=once / self.unit_points,
        )

    @property
    def handicap_convention(self) -> HandicapConvention | None:
        """The named convention these rules' handicap return is, or None for a custom one.

        ``NONE`` and ``ING`` give the same numbers; ``ING`` is reported only for rules named
        "ing".

        >>> Rules.chinese().handicap_convention, Rules.japanese().handicap_convention
        (<HandicapConvention.CHINESE: 'chinese'>, <HandicapConvention.NONE: 'none'>)
        """
        pair = (
            self.handicap_return * self.unit_points,
            self.handicap_return_offset * self.unit_points,
        )
        for conv in HandicapConvention:
            if conv is HandicapConvention.ING and self.name != "ing":
                continue
            if conv is HandicapConvention.NONE and self.name == "ing":
                continue
            if conv.points == pair:
                return conv
        return None

    @classmethod
    def nz(cls) -> Rules:
        """New Zealand rules as SGF ``RU[NZ]`` means them: area in points, komi 7.5, suicide of
        several stones allowed, one point back per handicap stone.

        >>> Rules.nz().allow_suicide, Rules.nz().komi_points
        (True, Fraction(15, 2))
        """
        return cls(
            name="nz",
            scoring=Scoring.AREA_POINTS,
            komi=Fraction(15, 2),
            handicap_komi=Fraction(0),
            handicap_return=Fraction(1),
            allow_suicide=True,
        )

    @classmethod
    def tromp_taylor(cls) -> Rules:
        """Tromp-Taylor rules: area in points, komi 7.5, suicide allowed, positional superko.

        >>> Rules.tromp_taylor().ko_rule
        <KoRule.POSITIONAL: 'positional'>
        """
        return replace(cls.nz(), name="tromp-taylor", ko_rule=KoRule.POSITIONAL)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A preset by name or alias (case-insensitive): the one list every command uses
        (:data:`PRESETS`; the SGF ``RU`` spellings servers write are aliases).

        >>> Rules.preset("Japanese").name, Rules.preset("NZ").name, Rules.preset("GOE").name
        ('japanese', 'nz', 'ing')
        >>> Rules.preset("Chinese rules 2002").name
        'chinese'
        >>> Rules.preset("frisian")
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidRules: unknown rule set 'frisian' (chinese, japanese, korean, ing, aga, nz, tromp-taylor)
        """
        key = preset_name(name)
        if key is None:
            raise InvalidRules(f"unknown rule set {name!r} ({', '.join(PRESETS)})")
        factory: dict[str, Callable[[], Rules]] = {
            "chinese": cls.chinese,
            "japanese": cls.japanese,
            "korean": cls.korean,
            "ing": cls.ing,
            "aga": cls.aga,
            "nz": cls.nz,
            "tromp-taylor": cls.tromp_taylor,
        }
        return factory[key]()

    # ------------------------------------------------------------------ derived
    @property
    def unit_points(self) -> Fraction:
        """Points per scoring unit: 2 when counting in stones, else 1.

        >>> Rules.chinese().unit_points, Rules.ing().unit_points
        (Fraction(2, 1), Fraction(1, 1))
        """
        return Fraction(2) if self.scoring is Scoring.AREA_STONES else Fraction(1)

    @property
    def komi_points(self) -> Fraction:
        """Komi in points (one stone = two points).

        >>> Rules.japanese().komi_points
        Fraction(13, 2)
        """
        return self.komi * self.unit_points

    def compensation(self, handicap: int) -> tuple[Fraction, Fraction]:
        """``(komi, handicap_return)`` in the scoring unit for a game with ``handicap`` stones.

        >>> Rules.chinese().compensation(0)
        (Fraction(15, 4), Fraction(0, 1))
        >>> Rules.chinese().compensation(4)
        (Fraction(0, 1), Fraction(2, 1))
        """
        if handicap <= 0:
            return self.komi, Fraction(0)
        ret = Fraction(0)
        if handicap >= 2:
            ret = self.handicap_return * handicap + self.handicap_return_offset
        return self.handicap_komi, ret

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict; fractions are exact strings ("15/4").

        Fields added after the first version (``_LATER_FIELDS``) are written only when they
        differ from their default, so stored games and logs of the first version re-serialise
        byte for byte.

        >>> Rules.japanese().to_json()["komi"]
        '13/2'
        >>> "single_stone_suicide" in Rules.chinese().to_json(), Rules.ing().to_json()[
        ...     "single_stone_suicide"]
        (False, False)
        """
        data: dict[str, Any] = {"v": 1}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _LATER_FIELDS and value == f.default:
                continue
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, Fraction):
                value = str(value)
            data[f.name] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        """Rebuild rules written by :meth:`to_json` (missing keys take the Chinese default).

        >>> Rules.from_json({"v": 1, "komi": 3.25}).komi
        Fraction(13, 4)
        """
        if not isinstance(data, dict):
            raise InvalidRules(f"rules must be a JSON object, got {type(data).__name__}")
        if data.get("v", 1) != 1:
            raise InvalidRules(f"unsupported rules version {data.get('v')!r}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known - {"v"}
        if unknown:
            raise InvalidRules(f"unknown rules keys: {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        try:
            for key, value in data.items():
                if key == "scoring":
                    kwargs[key] = Scoring(value)
                elif key == "ko_rule":
                    kwargs[key] = KoRule(value)
                elif key == "repetition_outcome":
                    kwargs[key] = RepetitionOutcome(value)
                elif key in (
                    "allow_suicide",
                    "fixed_handicap",
                    "seki_points",
                    "single_stone_suicide",
                ):
                    if not isinstance(value, bool):
                        raise InvalidRules(f"{key} must be true or false, got {value!r}")
                    kwargs[key] = value
                elif key != "v":
                    kwargs[key] = value
        except ValueError as exc:
            raise InvalidRules(f"bad rules value: {exc}") from exc
        return cls(**kwargs)
