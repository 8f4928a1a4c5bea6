"""Single elimination (单败淘汰制, Go §26.1 and appendix 一; Gomoku §17.1, §18.2).

The draw sheet (附表一) reads: the bracket is split into sections (区; 32 players: four
sections of eight, sections 1–2 the upper half, 3–4 the lower half); line 1 of each section is a
class-1 seed, the last line a class-2 seed; with two byes, line 2 of sections 1 and 4 is the bye.
From that and the text of appendix 一:

- rounds: 4 players take 2 rounds, each further round doubles the field (一.1), so the bracket
  has the next power of two lines;
- seeds (一.2): ranked seeds go serpentine over the sections — class-1 seeds in the order
  section 1, last section, then the sections between (mirrored halves: seeds 1 and 2 meet only
  in the final, 3 and 4 only in the semi-finals), class-2 seeds back the other way, so every
  section holds the same seed total (1+8 = 2+7 = 3+6 = 4+5). ``placement="draw"`` instead
  draws each class into its lines by lot (依次抽签定位);
- byes (一.3): opposite the class-1 seeds first (in seed order, so section 1 then section 4 when
  there are two), then opposite the class-2 seeds, then the other pairs from the ends of each
  section inwards, always one section after another so they spread evenly; the non-seeded
  players take the lines opposite a bye in number order (小号选手优先轮空), then the remaining
  lines in order;
- colours: guessed before each game (一.4) when a ``random.Random`` is given, by the game's own
  method (Go §10 nigiri; Gomoku §5.1(1), §5.3(1) hand count), else the upper line plays Black;
- place matches (Gomoku §18.2): the two semi-final losers play for 3rd, the four quarter-final
  losers a small knockout for 5th, the eight losers before that one for 9th.

>>> b = knockout(6)
>>> b.lines
(1, None, 3, 4, 2, None, 5, 6)
>>> [m.id for m in b.matches if m.round == 2]
['R2.1', 'R2.2']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from duiyi.errors import InvalidInput, PairingError
from duiyi.games import GameType

from .common import JsonDict, Pairing, Round, check_players, guess_colours

__all__ = [
    "BYE",
    "Bracket",
    "Match",
    "Slot",
    "bracket_lines",
    "knockout",
    "seed_sections",
]

_ARTICLE = "Go appendix 一"


@dataclass(frozen=True)
class Slot:
    """Where one side of a match comes from: a line's player, a bye, or the winner or loser of
    an earlier match.

    >>> Slot.winner("R1.1").to_json()
    {'winner': 'R1.1'}
    """

    kind: str  # "player" | "bye" | "winner" | "loser"
    player: int = 0
    match: str = ""

    @classmethod
    def of(cls, player: int | None) -> Slot:
        """A line: its player, or a bye when ``None``."""
        return cls("bye") if player is None else cls("player", player=player)

    @classmethod
    def winner(cls, match: str) -> Slot:
        """The winner of ``match``."""
        return cls("winner", match=match)

    @classmethod
    def loser(cls, match: str) -> Slot:
        """The loser of ``match``."""
        return cls("loser", match=match)

    def to_json(self) -> JsonDict:
        """``{"player": n}``, ``{"bye": true}``, ``{"winner": id}`` or ``{"loser": id}``."""
        if self.kind == "player":
            return {"player": self.player}
        if self.kind == "bye":
            return {"bye": True}
        return {self.kind: self.match}

    @classmethod
    def from_json(cls, data: object) -> Slot:
        """Read :meth:`to_json` output back.

        >>> Slot.from_json({"loser": "W1.2"}) == Slot.loser("W1.2")
        True
        """
        if isinstance(data, dict) and len(data) == 1:
            ((key, value),) = data.items()
            if key == "player" and isinstance(value, int):
                return cls.of(value)
            if key == "bye" and value is True:
                return BYE
            if key in ("winner", "loser") and isinstance(value, str):
                return cls(key, match=value)
        raise InvalidInput(f"cannot read a bracket slot from {data!r}")

    def __str__(self) -> str:
        if self.kind == "player":
            return str(self.player)
        if self.kind == "bye":
            return "bye"
        return f"{self.kind[0].upper()}({self.match})"


BYE = Slot("bye")


@dataclass(frozen=True)
class Match:
    """One match of a bracket: ``id`` (e.g. ``"R1.3"``, ``"W2.1"``, ``"L3.2"``, ``"P3-1.1"``),
    the ``stage`` it belongs to (``"R1"``, ``"W2"``, ``"GF"``, ...), its ``round`` within the
    bracket part, the two sides and where the loser goes (``loser_to``, double elimination).

    >>> Match("R1.1", "R1", 1, Slot.of(1), BYE).to_json()["bottom"]
    {'bye': True}
    """

    id: str
    stage: str
    round: int
    top: Slot
    bottom: Slot
    part: str = "main"
    loser_to: str = ""
    reset_of: str = ""
    note: str = field(default="", compare=False)

    def to_json(self) -> JsonDict:
        """JSON form used by ``duiyi schedule``."""
        out: JsonDict = {
            "id": self.id,
            "part": self.part,
            "round": self.round,
            "top": self.top.to_json(),
            "bottom": self.bottom.to_json(),
        }
        if self.loser_to:
            out["loser_to"] = self.loser_to
        if self.note:
            out["note"] = self.note
        if self.reset_of:
            out["reset_of"] = self.reset_of
        return out

    @classmethod
    def from_json(cls, data: object) -> Match:
        """Read :meth:`to_json` output back (the stage is the id up to its dot)."""
        if not isinstance(data, dict):
            raise InvalidInput(f"a bracket match is a JSON object, got {data!r}")
        mid, part, rnd = data.get("id"), data.get("part", "main"), data.get("round")
        if not isinstance(mid, str) or not isinstance(part, str) or not isinstance(rnd, int):
            raise InvalidInput(f"a bracket match needs id, part and round: {data!r}")
        texts = {k: data.get(k, "") for k in ("loser_to", "note", "reset_of")}
        if not all(isinstance(v, str) for v in texts.values()):
            raise InvalidInput(f"{mid}: loser_to, note and reset_of are strings")
        return cls(
            mid,
            mid.split(".")[0],
            rnd,
            Slot.from_json(data.get("top")),
            Slot.from_json(data.get("bottom")),
            part,
            str(texts["loser_to"]),
            str(texts["reset_of"]),
            str(texts["note"]),
        )


_UNKNOWN = -1  # resolution: not decided yet
_NOBODY = 0  # resolution: a bye


@dataclass(frozen=True)
class Bracket:
    """A bracket: its lines (``None`` = bye), sections and matches in playing order.

    :meth:`participants` resolves the sides of every match from the winners recorded so far
    (``results`` maps match id → winner); a side that is a bye lets the other advance without
    a game. :meth:`round` gives the games of one stage as a :class:`Round`.
    """

    size: int
    sections: int
    lines: tuple[int | None, ...]
    matches: tuple[Match, ...]
    system: str = "knockout"

    @property
    def stages(self) -> tuple[str, ...]:
        """Stage names in playing order (``R1``, ``R2``, …, ``P3``, …).

        >>> knockout(4, place_matches=(3,)).stages
        ('R1', 'R2', 'P3-1')
        """
        out: list[str] = []
        for m in self.matches:
            if m.stage not in out:
                out.append(m.stage)
        return tuple(out)

    def match(self, match_id: str) -> Match:
        """The match with that id."""
        for m in self.matches:
            if m.id == match_id:
                return m
        raise InvalidInput(f"no match {match_id!r} in this bracket", _ARTICLE)

    def participants(self, results: Mapping[str, int]) -> dict[str, tuple[int, int]]:
        """For every match, its two sides: a player number, 0 for a bye, -1 if not known yet.

        >>> b = knockout(3)
        >>> b.participants({})["R2.1"]
        (1, -1)
        >>> b.participants({"R1.2": 3})["R2.1"]
        (1, 3)
        """
        sides: dict[str, tuple[int, int]] = {}
        outcome: dict[str, tuple[int, int]] = {}  # id -> (winner, loser)

        def value(slot: Slot) -> int:
            if slot.kind == "player":
                return slot.player
            if slot.kind == "bye":
                return _NOBODY
            if slot.match not in outcome:
                return _UNKNOWN
            winner, loser = outcome[slot.match]
            return winner if slot.kind == "winner" else loser

        for m in self.matches:
            a, b = value(m.top), value(m.bottom)
            sides[m.id] = (a, b)
            if m.reset_of:  # played only if the first final's lower side won it
                first = m.reset_of
                if first not in outcome:
                    sides[m.id] = (_UNKNOWN, _UNKNOWN)
                    continue
                if outcome[first][0] == sides[first][0]:
                    sides[m.id] = (_NOBODY, _NOBODY)
                    outcome[m.id] = (_NOBODY, _NOBODY)
                    continue
            if _UNKNOWN in (a, b):
                continue
            if a == _NOBODY or b == _NOBODY:
                outcome[m.id] = (a if b == _NOBODY else b, _NOBODY)
                continue
            if m.id in results:
                w = results[m.id]
                if w not in (a, b):
                    raise InvalidInput(f"{m.id}: winner {w} did not play in it ({a} v {b})")
                outcome[m.id] = (w, b if w == a else a)
        return sides

    def round(
        self,
        stage: str,
        results: Mapping[str, int],
        number: int = 1,
        rng: random.Random | None = None,
        game: GameType | str = "go",
    ) -> Round:
        """The games of ``stage`` whose players are known: upper side Black, or colours guessed
        with ``rng`` (appendix 一.4) by ``game``'s method (:func:`guess_colours`: Go §10 nigiri,
        Gomoku §5.3(1) hand count). Players who advance on a bye are listed as byes.

        >>> r = knockout(3).round("R1", {})
        >>> [(p.black, p.white) for p in r.pairings], r.byes
        ([(2, 3)], (1,))
        """
        if stage not in self.stages:
            raise InvalidInput(f"no stage {stage!r}; stages are {', '.join(self.stages)}")
        sides = self.participants(results)
        games: list[Pairing] = []
        byes: list[int] = []
        for m in self.matches:
            if m.stage != stage:
                continue
            a, b = sides[m.id]
            if _UNKNOWN in (a, b) or (a == _NOBODY and b == _NOBODY):
                continue
            if _NOBODY in (a, b):
                byes.append(a if b == _NOBODY else b)
                continue
            if rng is not None:
                (black, white), how = guess_colours(game, min(a, b), max(a, b), rng)
                why = f"colours by {how}"
            else:
                black, white = a, b
                why = "upper line plays Black"
            games.append(Pairing(len(games) + 1, black, white, f"{m.id}: {why}"))
        return Round(number, tuple(games), tuple(byes))

    def to_json(self) -> JsonDict:
        """``{"system", "size", "sections", "lines", "matches"}``."""
        return {
            "system": self.system,
            "size": self.size,
            "sections": self.sections,
            "lines": list(self.lines),
            "matches": [m.to_json() for m in self.matches],
        }

    @classmethod
    def from_json(cls, data: object) -> Bracket:
        """Read :meth:`to_json` output back.

        >>> b = knockout(6, [1, 2], place_matches=(3,))
        >>> Bracket.from_json(b.to_json()) == b
        True
        """
        if not isinstance(data, dict):
            raise InvalidInput(f"a bracket is a JSON object, got {data!r}")
        size, sections, lines = data.get("size"), data.get("sections"), data.get("lines")
        matches, system = data.get("matches"), data.get("system", "knockout")
        if not (
            isinstance(size, int)
            and isinstance(sections, int)
            and isinstance(lines, list)
            and isinstance(matches, list)
            and isinstance(system, str)
        ):
            raise InvalidInput("a bracket needs size, sections, lines and matches")
        if len(lines) != size or not all(x is None or isinstance(x, int) for x in lines):
            raise InvalidInput(f"a {size}-line bracket needs {size} lines (numbers or null)")
        return cls(
            size,
            sections,
            tuple(lines),
            tuple(Match.from_json(m) for m in matches),
            system,
        )

    def table(self) -> str:
        """A plain-text rendering: the lines by section, then the matches stage by stage."""
        per = self.size // self.sections
        out = [f"{self.system}: {self.size} lines, {self.sections} sections"]
        for s in range(self.sections):
            cells = [
                f"{per * s + k + 1}:{'bye' if p is None else p}"
                for k, p in enumerate(self.lines[per * s : per * (s + 1)])
            ]
            out.append(f"  section {s + 1}: " + " ".join(cells))
        for stage in self.stages:
            out.append(f"{stage}:")
            for m in self.matches:
                if m.stage == stage:
                    extra = f"  → loser to {m.loser_to}" if m.loser_to else ""
                    note = f"  ({m.note})" if m.note else ""
                    out.append(f"  {m.id:<8} {m.top!s:>10} v {m.bottom!s:<10}{extra}{note}")
        return "\n".join(out)


def _mirror_order(count: int) -> list[int]:
    """Section index (0-based) of class-1 seed 1, 2, … over ``count`` sections: first, last,
    then the others with the halves mirrored.

    >>> _mirror_order(4), _mirror_order(8)
    ([0, 3, 2, 1], [0, 7, 5, 2, 3, 4, 6, 1])
    """
    slots = [1]
    while len(slots) < count:
        m = 2 * len(slots)
        new: list[int] = []
        for i, x in enumerate(slots):
            pair = [x, m + 1 - x]
            new.extend(pair if i < max(1, len(slots) // 2) else pair[::-1])
        slots = new
    return [slots.index(k) for k in range(1, count + 1)]


def _default_sections(size: int) -> int:
    if size >= 16:
        return size // 8
    return 2 if size >= 4 else 1


def seed_sections(
    seeds: int, sections: int, class1: int | None = None, rng: random.Random | None = None
) -> list[tuple[int, bool]]:
    """For seed 1, 2, …: ``(section, is_class1)`` (sections 0-based).

    Serpentine: class-1 seeds in mirrored order, class-2 seeds back the other way; with ``rng``
    each class is drawn into its sections by lot instead.

    >>> seed_sections(8, 4)
    [(0, True), (3, True), (2, True), (1, True), (1, False), (2, False), (3, False), (0, False)]
    """
    c1 = min(seeds, sections) if class1 is None else class1
    c2 = seeds - c1
    if c1 < 0 or c1 > sections or c2 > sections or c2 < 0:
        raise InvalidInput(
            f"{seeds} seeds with {c1} in class 1 do not fit {sections} sections "
            "(one class-1 and one class-2 seed per section)",
            _ARTICLE,
        )
    order = _mirror_order(sections)
    first = order[:c1]
    # class 2 runs back: the section of the last class-1 slot first (蛇形)
    second = [order[sections - 1 - j] for j in range(c2)]
    if rng is not None:
        first = list(first)
        second = list(second)
        rng.shuffle(first)
        rng.shuffle(second)
    return [(s, True) for s in first] + [(s, False) for s in second]


def bracket_lines(
    players: int,
    seeds: Sequence[int] = (),
    *,
    class1: int | None = None,
    sections: int | None = None,
    placement: str = "serpentine",
    rng: random.Random | None = None,
    article: str = _ARTICLE,
) -> tuple[tuple[int | None, ...], int]:
    """The lines of the draw (``None`` = bye) and the number of sections.

    ``players`` are numbered 1 … players (drawn numbers or ranking); ``seeds`` lists seeded
    player numbers, best first.

    >>> lines, sections = bracket_lines(30, [1, 2, 3, 4, 5, 6, 7, 8])
    >>> sections, [i + 1 for i, p in enumerate(lines) if p is None]
    (4, [2, 26])
    """
    if players < 2:
        raise InvalidInput(f"a bracket needs at least 2 players, got {players}", article)
    check_players(list(seeds), article)
    if any(not 1 <= s <= players for s in seeds):
        raise InvalidInput(f"seeds must be player numbers 1 … {players}", article)
    if placement not in ("serpentine", "draw"):
        raise InvalidInput(f"placement is 'serpentine' or 'draw', got {placement!r}", article)
    if placement == "draw" and rng is None:
        raise InvalidInput("placement 'draw' needs a random.Random for the lots", article)
    size = 1
    while size < players:
        size *= 2
    count = _default_sections(size) if sections is None else sections
    if count < 1 or count & (count - 1) or size % count or (count > 1 and size // count < 2):
        raise InvalidInput(f"{count} sections do not divide a {size}-line bracket", article)
    per = size // count
    lines: list[int | None] = [None] * size
    taken: set[int] = set()
    placed = seed_sections(len(seeds), count, class1, rng if placement == "draw" else None)
    for player, (section, is_class1) in zip(seeds, placed, strict=True):
        line = section * per + (0 if is_class1 else per - 1)
        if lines[line] is not None:
            raise InvalidInput("two seeds drawn to one line", article)
        lines[line] = player
        taken.add(line)
    # Bye lines: pair by pair from the ends of each section inwards, section by section in
    # the order of their class-1 seeds (一.3).
    section_order = _mirror_order(count)
    tiers: list[tuple[int, int]] = []  # (line with the player, line with the bye) in a section
    lo, hi = 0, per - 1
    while lo < hi:
        tiers.append((lo, lo + 1))
        if hi - 1 > lo + 1:
            tiers.append((hi, hi - 1))
        lo, hi = lo + 2, hi - 2
    byes = size - players
    bye_lines: list[int] = []
    for tier, (_, bye) in enumerate(tiers):
        # the class-2 tier runs back (蛇形), so class-2 seeds get byes in seed order too
        for section in section_order if tier % 2 == 0 else section_order[::-1]:
            if len(bye_lines) == byes:
                break
            base = section * per
            bye_lines.append(base + bye)
            taken.add(base + bye)
    opposite = [line ^ 1 for line in bye_lines]
    others = iter(sorted(set(range(1, players + 1)) - set(seeds)))
    for line in opposite:
        if lines[line] is None:
            lines[line] = next(others)
            taken.add(line)
    for line in range(size):
        if line not in taken and lines[line] is None:
            lines[line] = next(others)
    for line in bye_lines:
        lines[line] = None
    return tuple(lines), count


def knockout(
    players: int,
    seeds: Sequence[int] = (),
    *,
    class1: int | None = None,
    sections: int | None = None,
    placement: str = "serpentine",
    rng: random.Random | None = None,
    place_matches: Iterable[int] = (),
) -> Bracket:
    """A single-elimination bracket (appendix 一) with optional place matches (Gomoku §18.2:
    3 for the semi-final losers, 5 for the quarter-final losers, 9, 17, …).

    >>> b = knockout(4, place_matches=(3,))
    >>> [(m.id, str(m.top), str(m.bottom)) for m in b.matches]
    [('R1.1', '1', '2'), ('R1.2', '3', '4'), ('R2.1', 'W(R1.1)', 'W(R1.2)'), ('P3-1.1', 'L(R1.1)', 'L(R1.2)')]
    """
    lines, count = bracket_lines(
        players, seeds, class1=class1, sections=sections, placement=placement, rng=rng
    )
    size = len(lines)
    rounds = size.bit_length() - 1
    matches = _elimination([Slot.of(p) for p in lines], "R")
    for place in sorted(set(place_matches)):
        depth = place - 1  # losers of the round with `depth` players left... 3→2, 5→4, 9→8
        if depth < 2 or depth & (depth - 1) or depth >= size:
            raise InvalidInput(
                f"place {place}: the place matches are for 3, 5, 9, … below the bracket size",
                "Gomoku §18.2",
            )
        source_round = rounds - depth.bit_length() + 1  # round whose losers tie for `place`
        feeders = [
            Slot.loser(f"R{source_round}.{m}") for m in range(1, size // 2**source_round + 1)
        ]
        matches += _elimination(feeders, f"P{place}-", part=f"place {place}")
    return Bracket(size, count, lines, tuple(matches), "knockout")


def _elimination(entries: Sequence[Slot], prefix: str, part: str = "main") -> list[Match]:
    """Rounds of pairwise matches over ``entries`` until one is left (ids ``{prefix}{r}.{m}``)."""
    out: list[Match] = []
    current = list(entries)
    r = 1
    while len(current) > 1:
        nxt: list[Slot] = []
        for m in range(1, len(current) // 2 + 1):
            mid = f"{prefix}{r}.{m}"
            out.append(Match(mid, f"{prefix}{r}", r, current[2 * m - 2], current[2 * m - 1], part))
            nxt.append(Slot.winner(mid))
        current = nxt
        r += 1
    if len(entries) < 2:
        raise PairingError("a bracket needs two entries", code="bracket-two-entries")
    return out
