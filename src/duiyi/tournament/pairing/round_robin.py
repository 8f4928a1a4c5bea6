"""Round robin schedules (循环制, Go §26.2 and appendix 三; Gomoku §17.2).

The Berger table is built from the book's rule alone, round after round:

    首尾相接，末号摆动，邻近号相对，号在前者执黑

- 首尾相接 (head joins tail): a round opens with the number that closed the round before;
- 末号摆动 (the last number swings): the last number faces it, listed first in even rounds
  (so Black) and second in odd rounds;
- 邻近号相对 (neighbouring numbers face each other): the remaining numbers, continuing round the
  ring 1…n-1 after that opening number, fill the left column downwards and the right column
  upwards, so the innermost pair are neighbours;
- 号在前者执黑: whoever is listed first plays Black.

An odd field adds the last number as the bye (appendix 三.2). Double and multiple round robins
repeat the table with colours reversed in every second cycle (Go §26.2, DECISIONS.md).

>>> berger_table(6)[1]
((6, 4), (5, 3), (1, 2))
>>> r = round_robin(3)
>>> [(p.black, p.white) for p in r[0].pairings], r[0].byes
([(2, 3)], (1,))
"""

from __future__ import annotations

from collections.abc import Sequence

from duiyi.errors import InvalidInput

from .common import Pairing, Round, renumber_boards

__all__ = ["berger_table", "round_robin", "round_robin_rounds"]

_ARTICLE = "Go appendix 三"


def berger_table(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The Berger table for an even ``size``: one tuple of ``(first, second)`` pairs per round.

    The first-listed number plays Black. Each round is derived from the one before by the rule
    quoted in the module docstring.

    >>> berger_table(4)
    (((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1)))
    """
    if size < 2 or size % 2:
        raise InvalidInput(f"a Berger table needs an even size ≥ 2, got {size}", _ARTICLE)
    last = size
    ring = size - 1  # numbers 1 … size-1 sit on a ring
    half = size // 2
    first_round = tuple((i, last + 1 - i) for i in range(1, half + 1))
    rounds = [first_round]
    for number in range(2, size):
        previous = rounds[-1]
        opener = previous[-1][1]  # 首尾相接: the number that closed the previous round
        head = (last, opener) if number % 2 == 0 else (opener, last)  # 末号摆动
        following = [(opener - 1 + k) % ring + 1 for k in range(1, ring)]
        left = following[: half - 1]
        right = following[half - 1 :][::-1]
        rounds.append((head, *zip(left, right, strict=True)))  # 邻近号相对
    return tuple(rounds)


def round_robin_rounds(size: int, cycles: int = 1) -> tuple[tuple[tuple[int, int], ...], ...]:
    """All rounds of ``cycles`` cycles of the table for ``size`` (even), colours reversed in
    every second cycle.

    >>> round_robin_rounds(2, cycles=3)
    (((1, 2),), ((2, 1),), ((1, 2),))
    """
    if cycles < 1:
        raise InvalidInput(f"a round robin needs at least one cycle, got {cycles}", _ARTICLE)
    table = berger_table(size)
    out: list[tuple[tuple[int, int], ...]] = []
    for cycle in range(cycles):
        for pairs in table:
            out.append(pairs if cycle % 2 == 0 else tuple((b, a) for a, b in pairs))
    return tuple(out)


def round_robin(
    players: int, cycles: int = 1, ids: Sequence[int] | None = None, explain: bool = True
) -> tuple[Round, ...]:
    """The schedule of a round robin of ``players`` drawn numbers (1 … players).

    ``cycles`` = 1 (单循环), 2 (双循环) or more (多循环); colours reverse each cycle. An odd
    field adds number ``players + 1`` as the bye (末号为轮空号): whoever meets it sits out.
    Boards are numbered 1, 2, … in table order once the bye is taken out. ``ids`` maps drawn
    number *k* to ``ids[k-1]`` (e.g. player ids of an event).

    >>> rounds = round_robin(4, cycles=2)
    >>> len(rounds), rounds[3].pairings[0].to_json()
    (6, {'board': 1, 'black': 4, 'white': 1})
    """
    if players < 2:
        raise InvalidInput(f"a round robin needs at least 2 players, got {players}", _ARTICLE)
    if ids is not None and len(ids) != players:
        raise InvalidInput(f"{len(ids)} ids given for {players} players", _ARTICLE)
    size = players if players % 2 == 0 else players + 1
    bye_number = size if size != players else None
    per_cycle = size - 1

    def name(k: int) -> int:
        return ids[k - 1] if ids is not None else k

    out: list[Round] = []
    for index, pairs in enumerate(round_robin_rounds(size, cycles)):
        number = index + 1
        cycle = index // per_cycle + 1
        games: list[Pairing] = []
        byes: list[int] = []
        for first, second in pairs:
            if bye_number in (first, second):
                byes.append(name(second if first == bye_number else first))
                continue
            reason = ""
            if explain:
                flip = "" if cycle % 2 else f", cycle {cycle} reverses colours"
                reason = (
                    f"Berger table round {(index % per_cycle) + 1}{flip}: "
                    f"{first} listed first plays Black (号在前者执黑)"
                )
            games.append(Pairing(0, name(first), name(second), reason))
        notes = tuple(f"{b} has the bye: meets the added last number {bye_number}" for b in byes)
        out.append(Round(number, renumber_boards(games), tuple(byes), notes if explain else ()))
    return tuple(out)
