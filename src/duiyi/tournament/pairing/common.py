"""Shared values of every pairing system: a pairing, a round, and colour decisions.

A :class:`Pairing` is one game of a round: board number, the player with Black and the player with
White (players are plain ints: drawn numbers, team numbers or whatever the caller uses). A
:class:`Round` lists the pairings of one round and the players with a bye. Both print as the JSON
the CLI emits, with the optional human-readable ``reason`` of ``--explain``.

Colours are either fixed by the draw (the table says who is Black) or decided before the game
by each game's own method (:func:`guess_colours`): Go's nigiri (Go §10, :func:`nigiri`) or
Gomoku's hand count (Gomoku §5.3(1), :func:`nigiri_gomoku`), each from an injected
:class:`random.Random`.

>>> p = Pairing(1, 1, 8)
>>> p.to_json()
{'board': 1, 'black': 1, 'white': 8}
>>> Round(1, (p,), ()).to_json()
{'round': 1, 'pairings': [{'board': 1, 'black': 1, 'white': 8}], 'byes': []}
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from duiyi.errors import InvalidInput
from duiyi.games import GO, GOMOKU, GameType
from duiyi.games import get as get_game

__all__ = [
    "JsonDict",
    "Pairing",
    "Round",
    "check_players",
    "guess_colours",
    "nigiri",
    "nigiri_gomoku",
    "renumber_boards",
]

JsonDict = dict[str, object]


@dataclass(frozen=True)
class Pairing:
    """One game: ``board`` (1-based), ``black`` and ``white`` player numbers, optional ``reason``.

    >>> Pairing(2, 5, 3, reason="same score").to_json(explain=True)
    {'board': 2, 'black': 5, 'white': 3, 'reason': 'same score'}
    >>> Pairing(2, 5, 3).players
    (5, 3)
    """

    board: int
    black: int
    white: int
    reason: str = field(default="", compare=False)

    @property
    def players(self) -> tuple[int, int]:
        """``(black, white)``."""
        return (self.black, self.white)

    def reversed(self) -> Pairing:
        """The same game with colours swapped (second cycle of a double round robin).

        >>> Pairing(1, 1, 8).reversed()
        Pairing(board=1, black=8, white=1, reason='')
        """
        return Pairing(self.board, self.white, self.black, self.reason)

    def to_json(self, explain: bool = False) -> JsonDict:
        """``{"board", "black", "white"}`` (plus ``"reason"`` when ``explain``)."""
        out: JsonDict = {"board": self.board, "black": self.black, "white": self.white}
        if explain:
            out["reason"] = self.reason
        return out

    @classmethod
    def from_json(cls, data: object) -> Pairing:
        """Read :meth:`to_json` output back.

        >>> Pairing.from_json({"board": 1, "black": 3, "white": 4})
        Pairing(board=1, black=3, white=4, reason='')
        """
        if not isinstance(data, dict):
            raise InvalidInput(f"a pairing is a JSON object, got {data!r}")
        values = [data.get(k) for k in ("board", "black", "white")]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise InvalidInput(f"a pairing needs integer board, black and white: {data!r}")
        reason = data.get("reason", "")
        board, black, white = (int(str(v)) for v in values)
        return cls(board, black, white, reason if isinstance(reason, str) else "")


@dataclass(frozen=True)
class Round:
    """The pairings of one round and the players with a bye.

    ``notes`` carries explanation lines that belong to no single pairing (who got the bye and
    why, who was eliminated, ...).

    >>> r = Round(3, (Pairing(1, 2, 1),), (3,), notes=("3 has the bye: lowest score",))
    >>> r.players
    (2, 1, 3)
    >>> r.to_json(explain=True)["notes"]
    ['3 has the bye: lowest score']
    """

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def players(self) -> tuple[int, ...]:
        """Every player of the round: paired ones board by board (Black first), then byes."""
        out: list[int] = []
        for p in self.pairings:
            out.extend(p.players)
        out.extend(self.byes)
        return tuple(out)

    def opponent_of(self, player: int) -> int | None:
        """The opponent of ``player`` this round, or ``None`` (bye or absent).

        >>> Round(1, (Pairing(1, 1, 2),)).opponent_of(2)
        1
        """
        for p in self.pairings:
            if p.black == player:
                return p.white
            if p.white == player:
                return p.black
        return None

    def to_json(self, explain: bool = False) -> JsonDict:
        """``{"round", "pairings", "byes"}`` (plus ``"notes"`` when ``explain``)."""
        out: JsonDict = {
            "round": self.number,
            "pairings": [p.to_json(explain) for p in self.pairings],
            "byes": list(self.byes),
        }
        if explain:
            out["notes"] = list(self.notes)
        return out

    @classmethod
    def from_json(cls, data: object) -> Round:
        """Read :meth:`to_json` output back.

        >>> r = Round(2, (Pairing(1, 5, 3),), (7,))
        >>> Round.from_json(r.to_json()) == r
        True
        """
        if not isinstance(data, dict):
            raise InvalidInput(f"a round is a JSON object, got {data!r}")
        number, pairings, byes = data.get("round"), data.get("pairings"), data.get("byes", [])
        if not isinstance(number, int) or not isinstance(pairings, list):
            raise InvalidInput('a round needs "round" (a number) and "pairings" (a list)')
        if not isinstance(byes, list) or not all(isinstance(b, int) for b in byes):
            raise InvalidInput('"byes" must be a list of player numbers')
        notes = data.get("notes", [])
        return cls(
            number,
            tuple(Pairing.from_json(p) for p in pairings),
            tuple(byes),
            tuple(str(n) for n in notes) if isinstance(notes, list) else (),
        )


def renumber_boards(pairings: Iterable[Pairing]) -> tuple[Pairing, ...]:
    """Number boards 1, 2, ... in the given order.

    >>> renumber_boards([Pairing(4, 1, 2), Pairing(9, 3, 4)])[1].board
    2
    """
    return tuple(Pairing(i, p.black, p.white, p.reason) for i, p in enumerate(pairings, start=1))


def check_players(players: Sequence[int], article: str) -> None:
    """Refuse duplicate player numbers (every system needs distinct numbers).

    >>> check_players([1, 2, 2], "Go appendix 三")
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: player 2 is listed twice (Go appendix 三)
    """
    seen: set[int] = set()
    for p in players:
        if p in seen:
            raise InvalidInput(f"player {p} is listed twice", article)
        seen.add(p)


def nigiri(higher: int, lower: int, rng: random.Random) -> tuple[int, int]:
    """Go §10 nigiri: return ``(black, white)``.

    The higher-ranked player (``higher``; the elder on equal rank) grabs a handful of white
    stones; ``lower`` shows one black stone (guessing odd) or two (guessing even). A right guess
    gives ``lower`` Black, a wrong one gives ``higher`` Black. Randomness comes only from ``rng``.

    >>> black, white = nigiri(7, 3, random.Random(1))
    >>> sorted((black, white))
    [3, 7]
    """
    return GO.guess_colours(higher, lower, rng)


def nigiri_gomoku(holds_black: int, holds_white: int, rng: random.Random) -> tuple[int, int]:
    """Gomoku §5.3(1): both grab stones; an odd total gives the black-stone holder Black.

    On an even total the two swap colours, so the white-stone holder plays Black. The count is
    :func:`duiyi.gomoku.colours.hand_count`; the handfuls come from ``rng``.

    >>> sorted(nigiri_gomoku(1, 2, random.Random(5)))
    [1, 2]
    """
    return GOMOKU.guess_colours(holds_black, holds_white, rng)


def guess_colours(
    game: GameType | str, a: int, b: int, rng: random.Random
) -> tuple[tuple[int, int], str]:
    """``((black, white), why)`` for a game decided by guessing before it starts (猜先), by the
    method of the event's ``game`` (:meth:`duiyi.games.GameType.guess_colours`): Go §10 nigiri
    (``a`` is the higher-ranked, who grabs the stones) or Gomoku §5.3(1) hand count (``a`` holds
    the black stones); Gomoku §5.1(1): a one-game match between two players guesses colours.

    >>> guess_colours("gomoku", 1, 2, random.Random(0))[1]
    'hand count (Gomoku §5.1(1), §5.3(1))'
    >>> guess_colours("go", 1, 2, random.Random(0))[1]
    'nigiri (Go §10)'
    """
    kind = get_game(game)
    return kind.guess_colours(a, b, rng), kind.colour_guess
