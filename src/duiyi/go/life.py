"""Automatic dead-stone proposal for the counting phase (Go §8, §21).

At the end of play both players agree which stones are dead (Go §8: stones that can be captured
are dead, stones that cannot are alive; Go §21.4: a disagreement is settled by playing on). The
engine offers a proposal that the players may accept or change; it never imposes it
(docs/decisions.md, base readings, "dead stones").

The proposal is pure and deterministic (no global randomness, no I/O); static rules decide
first and a small bounded reading settles the fights they only guess:

1. Benson's algorithm finds the chains that are unconditionally alive; they are never proposed.
2. For each colour, the board is cut into the regions its live stones enclose. The opponent's
   chains inside one region live only if they own two eyes there. Eye spaces are valued by size
   and shape (false eyes, straight/bent three, square/pyramid four, bulky/cross five and rabbity
   six give one eye; seven points or more give two); dead enemy stones inside an eye space are
   taken first by filling their liberties and what is left is valued.
3. Eyeless groups that share liberties with an equally weak enemy group nobody can approach are
   in seki (Go §8: neither can be captured), so both live.
4. Verdicts are committed one at a time and the analysis redone: chains in atari first, then
   regions that cannot live whatever happens to the enemy stones inside their eye spaces, then the
   smallest hopeless regions, and last the mutually dependent weak groups (each spoiling the
   other's eyes), where the side with less walled eye space and less influence dies.
5. Reading (Go §8: can the stones be captured?). Each region enclosed by unconditionally alive
   stones of one colour, with at most ``_READ_MAX_EMPTY`` empty points, is read move by move with
   the frame as an uncapturable wall: the enemy stones inside live if they keep a stone with the
   framing side to move (two passes end the line; two sure eyes end it at once), and the framing
   side's stones inside die if the enemy, moving first, takes them all; otherwise both are in
   seki. This settles capturing races inside an eye space, false eyes and seki of several
   chains. Eyeless chains of several stones found dead whose liberties are all shared with
   enemy chains are then raced on the whole board (moves only on the racers' liberties, near
   where they started): when
   neither side can take the other, all of them are in seki (a seki of several groups). Each
   search stops after ``_READ_BUDGET`` positions and all of them together after
   ``_READ_TOTAL``; a line of play may not repeat a position (so
   a ko is won by whoever takes it first), and when the budget runs out the static verdict
   stands. A final pass revives stones whose killers turned out dead.
6. Ladders and nets (Go §8 again): with the stones found dead off the board, every other chain
   of one or two liberties that is not unconditionally alive or in seki is read on the whole
   board, its owner moving first (extending from a liberty or taking an adjacent chain in
   atari, the opponent taking liberties away); a chain that is captured whatever the owner
   does is dead. Each such search stops after ``_NET_BUDGET`` positions.
7. Optionally (``budget`` playout moves, off by default), random playouts from the position
   (:mod:`duiyi.go.ownership`) settle the mutual fights of weak groups that step 4 only weighs.

Only a small surface of the board is read: ``board.size`` and ``board.stones(color)`` giving
points with ``col``/``row`` attributes (``duiyi.go.Board`` and ``Point``); the points returned are
the board's own point objects. docs/decisions.md ("Go: dead-stone proposal") lists the limits.

>>> from duiyi.go import Board
>>> board = Board.from_diagram('''
... . . . . . . .
... . X X X X X X
... . X . O . . X
... . X . . . . X
... . X X X X X X
... O O O O O O O
... . . . . . . .''')
>>> sorted(map(str, propose_dead(board)))
['D5']
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, Protocol, TypeVar

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput
from duiyi.go.board import Board
from duiyi.go.ownership import ownership

__all__ = [
    "BoardView",
    "GroupStatus",
    "Status",
    "explain",
    "propose_dead",
    "status_map",
    "unconditionally_alive",
]

_EMPTY = 0
_B = 1
_W = 2
#: Weight of a candidate's walled eye space against its influence when two weak groups of
#: opposite colours each spoil the other's eyes, and weight of its number of stones. On the KGS
#: archive any potential weight from 0 to 16 with any size weight from 1 to 10 scores the same.
_POTENTIAL_WEIGHT = 4
_SIZE_WEIGHT = 2


class _PointLike(Protocol):
    @property
    def col(self) -> int: ...

    @property
    def row(self) -> int: ...


P = TypeVar("P", bound=_PointLike)
P_co = TypeVar("P_co", bound=_PointLike, covariant=True)


class BoardView(Protocol[P_co]):
    """The part of a Go board this module reads (``duiyi.go.Board`` provides it)."""

    @property
    def size(self) -> int:
        """Board side length."""
        ...

    def stones(self, color: Color) -> AbstractSet[P_co]:
        """All points occupied by ``color``."""
        ...


class Status(enum.Enum):
    """Final status of a stone, as GTP's ``final_status_list`` names it.

    >>> Status.SEKI.value
    'seki'
    """

    ALIVE = "alive"
    DEAD = "dead"
    SEKI = "seki"


# --------------------------------------------------------------------------- geometry tables


def _on_board(
    size: int, offsets: Sequence[tuple[int, int]]
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each point (row-major index), the points at ``offsets`` (row, column) that are on the
    board, each with its offset's index, in the order of ``offsets``."""
    out: list[tuple[tuple[int, int], ...]] = []
    for i in range(size * size):
        r, c = divmod(i, size)
        pts: list[tuple[int, int]] = []
        for k, (dr, dc) in enumerate(offsets):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                pts.append((rr * size + cc, k))
        out.append(tuple(pts))
    return tuple(out)


_ORTHOGONAL = ((0, -1), (0, 1), (-1, 0), (1, 0))
_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
#: the points within Manhattan distance 4, weighted 16 at the centre, halved at each step
_DISC = tuple((dr, dc) for dr in range(-4, 5) for dc in range(-4 + abs(dr), 5 - abs(dr)))
_DISC_WEIGHTS = tuple(16 >> (abs(dr) + abs(dc)) for dr, dc in _DISC)


@lru_cache(maxsize=32)
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(p for p, _ in pts) for pts in _on_board(size, _ORTHOGONAL))


@lru_cache(maxsize=32)
def _disc(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each point, the points within Manhattan distance 4 with their weights."""
    return tuple(tuple((p, _DISC_WEIGHTS[k]) for p, k in pts) for pts in _on_board(size, _DISC))


@lru_cache(maxsize=32)
def _diagonals(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(p for p, _ in pts) for pts in _on_board(size, _DIAGONAL))


# --------------------------------------------------------------------------- analysis


class _Analysis:
    """All the work on a flat array of colours (index = row * size + col)."""

    def __init__(self, size: int, colour: list[int]) -> None:
        self.size = size
        self.n = size * size
        self.colour = colour
        self.nb = _neighbours(size)
        self.diag = _diagonals(size)
        # chains
        self.chain_of = [-1] * self.n
        self.chains: list[list[int]] = []
        self.chain_colour: list[int] = []
        self.libs: list[frozenset[int]] = []
        for i in range(self.n):
            if colour[i] != _EMPTY and self.chain_of[i] < 0:
                cid = len(self.chains)
                col = colour[i]
                stack = [i]
                self.chain_of[i] = cid
                stones: list[int] = []
                libs: set[int] = set()
                while stack:
                    p = stack.pop()
                    stones.append(p)
                    for q in self.nb[p]:
                        cq = colour[q]
                        if cq == _EMPTY:
                            libs.add(q)
                        elif cq == col and self.chain_of[q] < 0:
                            self.chain_of[q] = cid
                            stack.append(q)
                stones.sort()
                self.chains.append(stones)
                self.chain_colour.append(col)
                self.libs.append(frozenset(libs))
        self.benson: set[int] = self._benson(_B) | self._benson(_W)
        #: positions the reading may still visit on this board, all searches together
        self.budget = [_READ_TOTAL]
        #: verdicts of the local reading, by region, contents and killer
        self.read_cache: dict[
            tuple[tuple[int, ...], tuple[int, ...], int], tuple[bool, bool] | None
        ] = {}
        self.dead = [False] * len(self.chains)
        self.seki = [False] * len(self.chains)
        self.reason = ["alive: has two eyes or enough space"] * len(self.chains)
        for cid in self.benson:
            self.reason[cid] = "alive: unconditionally (Benson)"

    # ------------------------------------------------------------------ helpers

    def _components(self, inside: Sequence[bool]) -> list[list[int]]:
        seen = [False] * self.n
        comps: list[list[int]] = []
        nb = self.nb
        for i in range(self.n):
            if inside[i] and not seen[i]:
                seen[i] = True
                stack = [i]
                comp: list[int] = []
                while stack:
                    p = stack.pop()
                    comp.append(p)
                    for q in nb[p]:
                        if inside[q] and not seen[q]:
                            seen[q] = True
                            stack.append(q)
                comp.sort()
                comps.append(comp)
        return comps

    def _benson(self, col: int) -> set[int]:
        """Benson's unconditionally alive chains of colour ``col``."""
        colour = self.colour
        regions = self._components([c != col for c in colour])
        alive = {cid for cid, c in enumerate(self.chain_colour) if c == col}
        region_border: list[set[int]] = []
        vital_to: list[set[int]] = []
        for reg in regions:
            border: set[int] = set()
            for p in reg:
                for q in self.nb[p]:
                    if colour[q] == col:
                        border.add(self.chain_of[q])
            empties = [p for p in reg if colour[p] == _EMPTY]
            vital = {cid for cid in border if all(p in self.libs[cid] for p in empties)}
            region_border.append(border)
            vital_to.append(vital)
        live_regions = set(range(len(regions)))
        while True:
            count: dict[int, int] = dict.fromkeys(alive, 0)
            for r in live_regions:
                for cid in vital_to[r]:
                    if cid in count:
                        count[cid] += 1
            drop = {cid for cid, k in count.items() if k < 2}
            if not drop:
                return alive
            alive -= drop
            live_regions = {r for r in live_regions if region_border[r] <= alive}

    def _live(self, i: int, col: int) -> bool:
        return self.colour[i] == col and not self.dead[self.chain_of[i]]

    # ------------------------------------------------------------------ eye values

    def _eye_value(self, eye: list[int], owner: int) -> int:
        """How many eyes ``owner`` gets from an enclosed eye space (0, 1 or 2).

        Dead enemy stones inside are taken by filling their liberties; what is left (their
        points and the empty points away from them) is valued piece by piece.
        """
        if len(eye) >= 7:
            return 2
        colour = self.colour
        stones = [p for p in eye if colour[p] != _EMPTY]
        if not stones:
            return self._space_value(eye, owner)
        filled = {
            p
            for p in eye
            if colour[p] == _EMPTY and any(colour[q] != _EMPTY and q in stones for q in self.nb[p])
        }
        rest = [p for p in eye if p not in filled]
        inside = [False] * self.n
        for p in rest:
            inside[p] = True
        total = 0
        for comp in self._components(inside):
            total += self._space_value(comp, owner)
            if total >= 2:
                return 2
        return total

    def _space_value(self, eye: list[int], owner: int) -> int:
        """Eyes from an eye space whose points are (or will be) all empty."""
        n = len(eye)
        if n >= 7:
            return 2
        if n == 1:
            return 0 if self._false_eye(eye[0], owner) else 1
        if n <= 3:
            return 1
        members = set(eye)
        degree = {p: sum(1 for q in self.nb[p] if q in members) for p in eye}
        has_square = any(
            p + 1 in members
            and p + self.size in members
            and p + self.size + 1 in members
            and (p % self.size) != self.size - 1
            for p in eye
        )
        maxdeg = max(degree.values())
        if n == 4:
            return 1 if has_square or maxdeg == 3 else 2
        if n == 5:
            return 1 if has_square or maxdeg == 4 else 2
        # n == 6: rabbity six
        return 1 if has_square and maxdeg == 4 else 2

    def _false_eye(self, p: int, owner: int) -> bool:
        walls = {self.chain_of[q] for q in self.nb[p] if self.colour[q] == owner}
        if len(walls) <= 1:
            return False
        enemy = 3 - owner
        bad = sum(1 for d in self.diag[p] if self._live(d, enemy))
        if len(self.nb[p]) < 4:
            return bad >= 1
        return bad >= 2

    # ------------------------------------------------------------------ region verdicts

    def _region_lives(self, region: list[int], owner: int) -> tuple[bool, set[int], int]:
        """Can ``owner`` (the stones inside a region enclosed by the opponent) live there?

        Also returns the enemy chains that spoil an eye space (the verdict may change once they
        are found dead) and the owner's potential: the largest spoilt eye space weighted by the
        share of its walls that are the owner's.
        """
        colour = self.colour
        members = set(region)
        chains = {self.chain_of[p] for p in region if colour[p] == owner}
        live_chains = {cid for cid in chains if not self.dead[cid]}
        blockers: set[int] = set()
        if any(cid in self.benson for cid in live_chains):
            return True, blockers, 0
        enemy = 3 - owner
        # eye spaces: points of the region that are not live owner stones
        inside = [False] * self.n
        for p in region:
            if not (colour[p] == owner and not self.dead[self.chain_of[p]]):
                inside[p] = True
        eyes = 0
        potential = 0
        for comp in self._components(inside):
            touching: set[int] = set()
            walls = mine = 0
            for p in comp:
                for q in self.nb[p]:
                    if q not in members and self._live(q, enemy):
                        touching.add(self.chain_of[q])
                        walls += 1
                    elif colour[q] == owner and inside[q] is False:
                        walls += 1
                        mine += 1
            if touching:
                blockers |= touching
                potential = max(potential, len(comp) * mine // walls)
                continue
            eyes += self._eye_value(comp, owner)
            if eyes >= 2:
                return True, blockers, potential
        return False, blockers, potential

    def _own_eye(self, p: int, col: int) -> bool:
        return all(self.colour[q] == col for q in self.nb[p])

    def _eye_closure(self, chains: Iterable[int], col: int) -> set[int]:
        """``chains`` plus the chains of ``col`` joined to them through one-point eyes."""
        group = set(chains)
        todo = list(group)
        while todo:
            cid = todo.pop()
            for s in self.libs[cid]:
                if self._own_eye(s, col):
                    for q in self.nb[s]:
                        other = self.chain_of[q]
                        if other not in group:
                            group.add(other)
                            todo.append(other)
        return group

    def _seki(self, chains: list[int], owner: int, weak: dict[int, list[int]]) -> list[int]:
        """Chains in seki with ``chains`` (owner's stones that cannot make two eyes), or [].

        ``weak`` maps each chain (of either colour) that cannot make two eyes where it stands
        to all the chains of its region. Seki (Go §8: neither side can capture): the two sides
        share liberties, every other liberty is a one-point eye, and neither can fill a shared
        liberty without being captured (no eyes and two shared liberties, or one eye each).
        """
        attacker = 3 - owner
        ours = self._eye_closure(chains, owner)
        touching = {
            self.chain_of[q]
            for cid in ours
            for s in self.libs[cid]
            for q in self.nb[s]
            if self.colour[q] == attacker
        }
        if not touching or not all(cid in weak for cid in touching):
            return []
        theirs = self._eye_closure(touching, attacker)
        if not all(cid in weak for cid in theirs):
            return []
        our_libs = set().union(*(self.libs[c] for c in ours))
        their_libs = set().union(*(self.libs[c] for c in theirs))
        shared = our_libs & their_libs
        for side, other, col in ((ours, theirs, attacker), (theirs, ours, owner)):
            for cid in side:
                for p in self.chains[cid]:
                    for q in self.nb[p]:
                        c = self.chain_of[q]
                        if self.colour[q] == col and c not in other and c in weak:
                            return []  # it can take weak stones elsewhere and escape
        if not shared or any(len(self.libs[cid]) < 2 for cid in ours | theirs):
            return []  # a chain in atari is no seki
        own_eyes = our_libs - shared
        their_eyes = their_libs - shared
        if not all(self._own_eye(p, owner) for p in own_eyes):
            return []
        if not all(self._own_eye(p, attacker) for p in their_eyes):
            return []
        # eyes shared by several chains can be broken one chain at a time; eyeless chains that
        # all hold exactly the same shared liberties still cannot be approached
        several = len(ours) != 1 or len(theirs) != 1
        if several and (
            own_eyes or their_eyes or any(self.libs[c] != shared for c in ours | theirs)
        ):
            return []
        if own_eyes and their_eyes:
            ok = True
        elif not own_eyes and not their_eyes:
            ok = len(shared) >= 2
        else:
            ok = False
        return sorted(ours | theirs) if ok else []

    def _open(self, region: list[int], killer: int) -> bool:
        """Too few ``killer`` stones around ``region`` to call it enclosed (open play)."""
        members = set(region)
        wall = {q for p in region for q in self.nb[p] if q not in members and self._live(q, killer)}
        return len(wall) * 8 < len(region)

    def _regions(self, killer: int) -> list[list[int]]:
        """Components of the points not held by live ``killer`` stones."""
        return self._components([not self._live(i, killer) for i in range(self.n)])

    def _owner_chains(self, region: list[int], owner: int) -> list[int]:
        return sorted(
            {
                self.chain_of[p]
                for p in region
                if self.colour[p] == owner and not self.dead[self.chain_of[p]]
            }
        )

    def _dead_candidates(self) -> list[tuple[int, int, int, list[int], str]]:
        """Stones that cannot live: (priority, key, first point, chains, reason), best first.

        Priority -1: a chain in atari; 0: a region that cannot make two eyes even if the enemy
        stones spoiling its eye spaces were dead; 1: one that cannot make two eyes, with no
        doubt about its eye spaces; 2: weak groups of both colours each spoiling the other's
        eyes, ordered by atari, walled eye space and influence.
        """
        raw: list[tuple[int, int, list[int], set[int], int]] = []
        potentials: dict[tuple[int, int], int] = {}
        for killer in (_B, _W):
            owner = 3 - killer
            for reg in self._regions(killer):
                chains = self._owner_chains(reg, owner)
                if not chains or all(self.seki[c] for c in chains):
                    continue
                lives, blockers, potential = self._region_lives(reg, owner)
                potentials[owner, reg[0]] = potential
                if not lives and not self._open(reg, killer):
                    raw.append((len(reg), reg[0], chains, blockers, owner))
        doomed = {cid for *_x, chains, _b, _o in raw for cid in chains}
        ranked: list[tuple[int, int, int, list[int], int]] = []
        for size, first, chains, blockers, owner in raw:
            if not blockers & doomed:
                ranked.append((1, size, first, chains, owner))
            elif self._lives_if_dead(chains, owner, doomed):
                ranked.append((2, size, first, chains, owner))
            else:
                ranked.append((0, size, first, chains, owner))
        weak = {cid: chains for *_x, chains, _b, _o in raw for cid in chains}
        influence: list[int] = []
        out: list[tuple[int, int, int, list[int], str]] = []
        for prio, size, first, chains, owner in ranked:
            in_seki = self._seki(chains, owner, weak)
            if in_seki:
                for cid in in_seki:
                    self.seki[cid] = True
                    self.reason[cid] = "seki: shares liberties with an equally weak group"
                continue
            if prio < 2:
                why = f"dead: cannot make two eyes in its area of {size} points"
                out.append((prio, size, first, chains, why))
                continue
            if not influence:
                influence = self._influence()
            # mutual: stones all in atari first, then those deepest in the opponent's influence
            sign = 1 if owner == _B else -1
            own = sum(sign * influence[p] for cid in chains for p in self.chains[cid])
            stones = sum(len(self.chains[cid]) for cid in chains)
            atari = max(len(self.libs[cid]) for cid in chains) == 1
            # (a large, mostly walled eye space and a large group count for the owner)
            key = (0 if atari else 1_000_000_000) + _POTENTIAL_WEIGHT * potentials[owner, first]
            key += own // stones + _SIZE_WEIGHT * stones
            why = "dead: weaker than the surrounding group it fights (no two eyes for either)"
            out.append((2, key, first, chains, why))
        # a chain in atari that the opponent can take with a stone joining healthy chains is
        # dead first (Go §8: stones that can be captured are dead)
        for cid, libs in enumerate(self.libs):
            if len(libs) == 1 and not self.dead[cid] and not self.seki[cid]:
                (lib,) = libs
                enemies = {
                    self.chain_of[q]
                    for q in self.nb[lib]
                    if self.colour[q] == 3 - self.chain_colour[cid]
                }
                if not any(self.dead[e] or e in doomed for e in enemies):
                    why = "dead: in atari, the opponent can take it (Go §8)"
                    out.append((-1, 0, self.chains[cid][0], [cid], why))
        out = [t for t in out if not any(self.seki[c] for c in t[3])]
        out.sort(key=lambda t: (t[0], t[1], t[2]))
        return out

    def _lives_if_dead(self, chains: list[int], owner: int, doomed: set[int]) -> bool:
        """Would ``chains`` live if the doomed enemy chains were dead?"""
        saved = list(self.dead)
        for cid in doomed:
            if self.chain_colour[cid] != owner:
                self.dead[cid] = True
        try:
            killer = 3 - owner
            start = self.chains[chains[0]][0]
            for reg in self._regions(killer):
                if start in reg:
                    return self._region_lives(reg, owner)[0]
            return False
        finally:
            self.dead = saved

    def _influence(self) -> list[int]:
        """Black-minus-white influence of the stones not (yet) found dead."""
        disc = _disc(self.size)
        value = [0] * self.n
        for i in range(self.n):
            c = self.colour[i]
            if c == _EMPTY or self.dead[self.chain_of[i]]:
                continue
            sign = 1 if c == _B else -1
            for q, w in disc[i]:
                value[q] += sign * w
        return value

    def run(self) -> None:
        for _ in range(4 * len(self.chains) + 4):
            candidates = self._dead_candidates()
            if not candidates:
                break
            *_order, chains, why = candidates[0]
            for cid in chains:
                self.dead[cid] = True
                self.reason[cid] = why
        for _ in range(3):
            if not self._read_regions():
                break
        self._read_races()
        self._revive()
        self._read_nets()

    def _read_nets(self) -> None:
        """Chains of one or two liberties that are captured even with their owner to move
        (Go §8: stones that can be captured are dead).

        Each chain not yet found dead, in seki or unconditionally alive, with at most two
        liberties, is read as a ladder or net on the whole board (:class:`_Net`): the owner may
        extend from its liberties or take an adjacent enemy chain in atari, the opponent
        takes away liberties. When every defence fails the chain is dead; when the search
        runs out of budget the verdict stands.
        """
        # the stones found dead are off the board
        start = tuple(
            _EMPTY if c != _EMPTY and self.dead[self.chain_of[i]] else c
            for i, c in enumerate(self.colour)
        )
        for cid, stones in enumerate(self.chains):
            if self.dead[cid] or self.seki[cid] or cid in self.benson:
                continue
            libs = {q for p in stones for q in self.nb[p] if start[q] == _EMPTY}
            if len(libs) > 2:
                continue
            try:
                lost = _Net(self.nb, stones[0], self.budget).lost(start)
            except _OutOfBudget:
                continue
            if lost:
                self.dead[cid] = True
                self.reason[cid] = "dead: read out, captured in a ladder or net (Go §8)"

    def _read_races(self) -> None:
        """Seki between eyeless groups found dead and the enemy chains they race (Go §8).

        A chain of several stones proposed dead whose every liberty is shared with enemy
        chains (no eye, no liberty of its own) races them. The race is read on the whole board
        with moves only on the racers' liberties: if the enemy, moving first, cannot take the
        chain and the chain's side, moving first, cannot take the enemy chains either, all of
        them live in seki. This finds seki of several groups whose other liberties are shared
        with further groups nobody can approach.
        """
        colour = self.colour
        wall = [False] * self.n
        for x in range(len(self.chains)):
            if not self.dead[x] or self.seki[x] or x in self.benson:
                continue
            if len(self.chains[x]) < _RACE_MIN_STONES:
                continue
            col = self.chain_colour[x]
            enemy = 3 - col
            libs = self.libs[x]
            if not 2 <= len(libs) <= 4:
                continue
            ys = {self.chain_of[q] for p in libs for q in self.nb[p] if colour[q] == enemy}
            shared = set().union(*(self.libs[y] for y in ys)) & libs
            if shared != libs:
                continue  # a liberty of its own: an eye, not a bare race
            if any(
                y in self.benson
                or self.dead[y]
                or len(self.chains[y]) < _RACE_MIN_STONES
                or len(self.libs[y]) > len(libs) + 2
                for y in ys
            ):
                continue
            start = tuple(colour)
            mine = sum(1 << p for p in self.chains[x])
            theirs = sum(1 << p for y in ys for p in self.chains[y])
            # the race is played near the racers' liberties (two steps at most)
            zone = set(libs).union(*(self.libs[y] for y in ys))
            for _step in range(2):
                zone |= {q for p in zone for q in self.nb[p]}
            area = frozenset(zone)
            try:
                kept = _Local(self.nb, wall, enemy, zone=area, budget=self.budget).wins(
                    start, enemy, 0, mine, frozenset()
                )
                if not kept:
                    continue
                held = _Local(self.nb, wall, col, zone=area, budget=self.budget).wins(
                    start, col, 0, theirs, frozenset()
                )
            except _OutOfBudget:
                continue
            if held:
                for cid in (x, *ys):
                    self.dead[cid] = False
                    self.seki[cid] = True
                    self.reason[cid] = "seki: read out, neither side can take the other (Go §8)"

    def _read_regions(self) -> bool:
        """Read out the small enclosed regions where both colours fight (Go §8).

        For each region enclosed by unconditionally alive (Benson) stones of one colour (the
        killer) that holds the other colour's stones and few empty points, a bounded search with the wall taken as
        uncapturable decides whether the owner keeps stones there with the killer to move, and
        whether the owner (moving first) can take the killer's stones inside. Capturing races,
        false eyes and seki inside an eye space are settled that way; when the search runs out of
        budget the static verdict stands. Returns whether any verdict changed.
        """
        colour = self.colour
        changed = False
        for killer in (_B, _W):
            owner = 3 - killer
            framed = [
                colour[i] != killer or self.chain_of[i] not in self.benson for i in range(self.n)
            ]
            for reg in self._components(framed):
                owners = {self.chain_of[p] for p in reg if colour[p] == owner}
                if not owners or len(reg) > _READ_MAX_POINTS:
                    continue
                if sum(1 for p in reg if colour[p] == _EMPTY) > _READ_MAX_EMPTY:
                    continue
                if self._open(reg, killer) or any(self.seki[c] for c in owners):
                    continue
                inner = {self.chain_of[p] for p in reg if colour[p] == killer}
                verdict = self._read_region(reg, killer)
                if verdict is None:
                    continue
                owner_dead, inner_dead = verdict
                for cids, dead in ((owners, owner_dead), (inner, inner_dead)):
                    seki = not owner_dead and not inner_dead and bool(inner)
                    for cid in cids:
                        if self.dead[cid] != dead or self.seki[cid] != seki:
                            changed = True
                            self.dead[cid] = dead
                            self.seki[cid] = seki
                        self.reason[cid] = _READ_REASONS[dead, seki]
        return changed

    def _read_region(self, reg: list[int], killer: int) -> tuple[bool, bool] | None:
        """(owner's stones dead, killer's inner stones dead) read out, or None if unknown."""
        index = {p: k for k, p in enumerate(reg)}
        nb: list[tuple[int, ...]] = []
        wall: list[bool] = []
        for p in reg:
            nb.append(tuple(index[q] for q in self.nb[p] if q in index))
            wall.append(any(q not in index for q in self.nb[p]))
        start = tuple(self.colour[p] for p in reg)
        key = (tuple(reg), start, killer)
        if key not in self.read_cache:
            self.read_cache[key] = self._read_fresh(nb, wall, start, killer)
        return self.read_cache[key]

    def _read_fresh(
        self, nb: list[tuple[int, ...]], wall: list[bool], start: tuple[int, ...], killer: int
    ) -> tuple[bool, bool] | None:
        try:
            reader = _Local(nb, wall, killer, budget=self.budget)
            lives = reader.wins(start, killer, 0, reader.targets(start), frozenset())
            if not lives:
                return True, False
            reader = _Local(nb, wall, killer, clear=True, budget=self.budget)
            inner = reader.targets(start)
            if not inner:
                return False, False
            takes = reader.wins(start, 3 - killer, 0, inner, frozenset())
        except _OutOfBudget:
            return None
        return False, takes

    def _revive(self) -> None:
        """Dead stones whose surroundings are dead too get a second look."""
        changed = True
        while changed:
            changed = False
            for killer in (_B, _W):
                owner = 3 - killer
                for reg in self._regions(killer):
                    dead_here = {
                        self.chain_of[p]
                        for p in reg
                        if self.colour[p] == owner and self.dead[self.chain_of[p]]
                    }
                    if not dead_here:
                        continue
                    live_here = any(
                        self.colour[p] == owner and not self.dead[self.chain_of[p]] for p in reg
                    )
                    if live_here and self._region_lives(reg, owner)[0]:
                        for cid in dead_here:
                            self.dead[cid] = False
                            self.reason[cid] = "alive: inside its own living area"
                        changed = True


# --------------------------------------------------------------------------- local reading

#: Reading limits: a region is read only with at most this many empty points, and a search stops
#: (and the static verdict stands) after this many positions.
_READ_MAX_EMPTY = 8
_READ_MAX_POINTS = 40
_READ_BUDGET = 4000
#: Positions all the searches on one board may visit together (bounds the worst case).
_READ_TOTAL = 12000
#: Liberties that take a chain out of a race, and most points a race is read on.
_RACE_FREE = 6
_RACE_MAX_POINTS = 12
#: Stones each side of a race needs before it is read (single stones are left to the static
#: rules).
_RACE_MIN_STONES = 3
#: Ladder and net reading: liberties that free a chain, positions per chain, longest line.
_NET_FREE = 3
_NET_BUDGET = 200
_NET_MAX_DEPTH = 60
#: Longest line of play read.
_READ_MAX_DEPTH = 40
#: Liberty count given to killer stones joined to the wall.
_WALLED = 99


_READ_REASONS = {
    (True, False): "dead: read out, it cannot keep stones in the enclosure (Go §8)",
    (False, False): "alive: read out, it keeps its stones in the enclosure",
    (False, True): "seki: read out, neither side can take the other (Go §8)",
    (True, True): "dead: read out",
}


class _OutOfBudget(Exception):
    """The local search gave up; the static verdict stands."""


class _Local:
    """A region enclosed by a live wall of ``killer`` stones, read move by move.

    Cells are the region's points; every neighbour outside the region is a wall stone, which can
    never be captured (a killer stone touching the wall is part of it). ``owner`` is the colour
    whose stones inside are in question. Positions are tuples of cell colours.
    """

    def __init__(
        self,
        nb: Sequence[tuple[int, ...]],
        wall: Sequence[bool],
        killer: int,
        clear: bool = False,
        zone: frozenset[int] | None = None,
        budget: list[int] | None = None,
    ) -> None:
        self.nb = nb
        self.wall = wall
        self.killer = killer
        self.owner = 3 - killer
        self.clear = clear
        #: a race read on the whole board: only the racing chains' liberties inside this zone
        #: are played
        self.zone = zone
        self.race = zone is not None
        self.nodes = 0
        #: a budget shared with the other searches on the same board
        self.budget = budget if budget is not None else [_READ_TOTAL]
        self.memo: dict[tuple[tuple[int, ...], int, int, int], bool] = {}

    def _chain(self, s: Sequence[int], i: int) -> tuple[list[int], bool]:
        """The chain through ``i`` and whether it has a liberty (or is part of the wall)."""
        col = s[i]
        safe = col == self.killer and self.wall[i]
        seen = {i}
        stack = [i]
        while stack:
            p = stack.pop()
            for q in self.nb[p]:
                c = s[q]
                if c == _EMPTY:
                    safe = True
                elif c == col and q not in seen:
                    if col == self.killer and self.wall[q]:
                        safe = True
                    seen.add(q)
                    stack.append(q)
        return list(seen), safe

    def play(self, s: tuple[int, ...], i: int, col: int) -> tuple[int, ...] | None:
        """The position after ``col`` plays at ``i``, or None if that is suicide."""
        t = list(s)
        t[i] = col
        enemy = 3 - col
        for q in self.nb[i]:
            if t[q] == enemy:
                dead = self._captured(t, q)
                if dead:
                    for p in dead:
                        t[p] = _EMPTY
        if self._captured(t, i):
            return None
        return tuple(t)

    def _captured(self, s: Sequence[int], i: int) -> list[int]:
        """The chain through ``i`` if it has no liberty and is not part of the wall, else []
        (the search stops at the first liberty)."""
        col = s[i]
        killer = col == self.killer
        if killer and self.wall[i]:
            return []
        nb = self.nb
        wall = self.wall
        seen = {i}
        stack = [i]
        while stack:
            p = stack.pop()
            for q in nb[p]:
                c = s[q]
                if c == _EMPTY:
                    return []
                if c == col and q not in seen:
                    if killer and wall[q]:
                        return []
                    seen.add(q)
                    stack.append(q)
        return list(seen)

    def _pointless(self, s: Sequence[int], i: int, col: int) -> bool:
        """Filling one's own eye: every neighbour is one's own stone (or one's wall)."""
        if self.wall[i] and col != self.killer:
            return False
        return all(s[q] == col for q in self.nb[i])

    def _owner_safe(self, s: Sequence[int]) -> bool:
        """The owner has two eyes that cannot be taken: two empty cells each walled only by
        owner chains that hold both of them as liberties (a small Benson test)."""
        owner = self.owner
        eyes = [
            i
            for i, c in enumerate(s)
            if c == _EMPTY and not self.wall[i] and all(s[q] == owner for q in self.nb[i])
        ]
        if len(eyes) < 2:
            return False
        # every chain around each eye must see at least two of the eyes
        chains: dict[int, set[int]] = {}
        label = [-1] * len(s)
        for e in eyes:
            for q in self.nb[e]:
                if label[q] < 0:
                    chain, _ = self._chain(s, q)
                    for p in chain:
                        label[p] = q
                chains.setdefault(label[q], set()).add(e)
        vital = {e for e in eyes if all(len(chains[label[q]]) >= 2 for q in self.nb[e])}
        return len(vital) >= 2

    def targets(self, s: Sequence[int]) -> int:
        """Bit mask of the stones the search is about: the owner's, or (``clear``) the
        killer's stones not joined to the wall."""
        mask = 0
        if self.clear:
            for i, c in enumerate(s):
                if c == self.killer and self._liberty_count(s, i) != _WALLED:
                    mask |= 1 << i
        else:
            for i, c in enumerate(s):
                if c == self.owner:
                    mask |= 1 << i
        return mask

    def wins(
        self,
        s: tuple[int, ...],
        to_move: int,
        passes: int,
        standing: int,
        path: frozenset[tuple[int, ...]],
    ) -> bool:
        """Does the owner reach its goal with ``to_move`` to play?

        ``standing`` holds the target stones of the start that were never captured. The owner
        wants to keep one of its own (two passes in a row end the reading with them standing:
        life or seki; two sure eyes end it at once), or with ``clear`` to capture every inner
        killer stone once. A position may not repeat along one line of play.
        """
        if self.clear:
            if not standing:
                return True
            if passes >= 2:
                return False
        else:
            if not standing:
                return False
            if passes >= 2 or (not self.race and self._owner_safe(s)):
                return True
        key = (s, to_move, passes, standing)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        self.budget[0] -= 1
        if self.nodes > _READ_BUDGET or self.budget[0] < 0 or len(path) > _READ_MAX_DEPTH:
            raise _OutOfBudget
        want = to_move == self.owner  # the mover looks for this answer
        nxt = 3 - to_move
        path = path | {s}
        result = not want
        target = self.killer if self.clear else self.owner
        moves = self._moves(s, to_move, standing)
        if moves is None:
            self.memo[key] = True
            return True
        for i in moves:
            t = self.play(s, i, to_move)
            if t is None or t in path:
                continue
            left = standing
            if to_move != target:
                bits = standing
                while bits:
                    low = bits & -bits
                    if t[low.bit_length() - 1] != target:
                        left &= ~low
                    bits ^= low
            if self.wins(t, nxt, 0, left, path) == want:
                result = want
                break
        else:
            if self.wins(s, nxt, passes + 1, standing, path) == want:
                result = want
        self.memo[key] = result
        return result

    def _race_points(self, s: Sequence[int], standing: int, attacker: bool) -> list[int] | None:
        """In a race read on the whole board: the liberties of the target chains still
        standing and of the enemy chains touching them that share one of those liberties (unless
        they have more than ``_RACE_FREE``: out of reach) or have at most two (the ones the
        target could take); None once the target chains have more than ``_RACE_FREE`` liberties
        (broken out). The attacker only fills the target's
        liberties."""
        libs: set[int] = set()
        done: set[int] = set()
        starts: list[int] = []
        bits = standing
        while bits:
            low = bits & -bits
            bits ^= low
            starts.append(low.bit_length() - 1)
        enemies: list[int] = []
        for first in starts:
            if first in done or s[first] == _EMPTY:
                continue
            for p in self._flood(s, first, done):
                for q in self.nb[p]:
                    if s[q] == _EMPTY:
                        libs.add(q)
                    elif s[q] != s[first]:
                        enemies.append(q)
        if len(libs) > _RACE_FREE:
            return None
        if attacker:
            return sorted(libs)
        own = frozenset(libs)
        for first in enemies:
            if first not in done:
                theirs = {
                    q for p in self._flood(s, first, done) for q in self.nb[p] if s[q] == _EMPTY
                }
                if (theirs & own and len(theirs) <= _RACE_FREE) or len(theirs) <= 2:
                    libs |= theirs
        if len(libs) > _RACE_MAX_POINTS:
            raise _OutOfBudget
        return sorted(libs)

    def _flood(self, s: Sequence[int], first: int, done: set[int]) -> list[int]:
        """The chain through ``first``, recorded in ``done``."""
        col = s[first]
        done.add(first)
        chain = [first]
        todo = [first]
        while todo:
            p = todo.pop()
            for q in self.nb[p]:
                if s[q] == col and q not in done:
                    done.add(q)
                    chain.append(q)
                    todo.append(q)
        return chain

    def _moves(self, s: Sequence[int], col: int, standing: int = 0) -> list[int] | None:
        """Empty cells worth trying, those next to the weakest enemy chains first (None: the
        target of a race has broken out)."""
        enemy = 3 - col
        scored: list[tuple[int, int]] = []
        points: Sequence[int] = range(len(s))
        if self.race:
            race = self._race_points(s, standing, col == self.killer)
            if race is None:
                return None
            zone = self.zone or frozenset()
            points = [p for p in race if p in zone]
        counted: dict[int, int] = {}  # liberty count of each enemy stone met, by chain
        for i in points:
            if s[i] != _EMPTY or self._pointless(s, i, col):
                continue
            libs = _WALLED
            for q in self.nb[i]:
                if s[q] == enemy:
                    if q not in counted:
                        n = self._liberty_count(s, q)
                        for p in self._flood(s, q, set()):
                            counted[p] = n
                    libs = min(libs, counted[q])
            scored.append((libs, i))
        scored.sort()
        return [i for _libs, i in scored]

    def _liberty_count(self, s: Sequence[int], i: int) -> int:
        col = s[i]
        if col == self.killer and self.wall[i]:
            return _WALLED
        seen = {i}
        libs: set[int] = set()
        stack = [i]
        while stack:
            p = stack.pop()
            for q in self.nb[p]:
                c = s[q]
                if c == _EMPTY:
                    libs.add(q)
                elif c == col and q not in seen:
                    if col == self.killer and self.wall[q]:
                        return _WALLED
                    seen.add(q)
                    stack.append(q)
        return len(libs)


class _Net:
    """Ladder and net reading on the whole board: can one chain be captured?

    ``target`` is a point of the chain; the chain only grows while it stands, so the point
    names it throughout. Its owner escapes once it has ``_NET_FREE`` liberties. The owner's
    moves are its liberties and the last liberty of any adjacent enemy chain in atari; the
    attacker's moves are the target's liberties. A position may not repeat along a line
    (a ko goes to whoever takes it first); each search stops after ``_NET_BUDGET`` positions.

    >>> from duiyi.go.life import _Net, _neighbours
    >>> nb = _neighbours(5)
    >>> board = [0] * 25
    >>> for i in (6, 12, 16):   # black b2, c3, b4 around the white stone b3 (index 11)
    ...     board[i] = 1
    >>> board[11] = 2
    >>> _Net(nb, 11, [100]).lost(tuple(board))   # running out at a3 leaves two liberties
    True
    >>> board[16] = 0   # without b4 it runs out into the open
    >>> _Net(nb, 11, [100]).lost(tuple(board))
    False
    """

    def __init__(self, nb: Sequence[tuple[int, ...]], target: int, budget: list[int]) -> None:
        self.nb = nb
        self.target = target
        self.budget = budget
        self.nodes = 0
        #: plain play on the whole board: a local reader without a wall
        self.board = _Local(nb, [False] * len(nb), _B)

    def _chain_libs(self, s: Sequence[int], i: int) -> tuple[list[int], set[int]]:
        """The chain through ``i`` and its liberties."""
        chain = self.board._flood(s, i, set())
        return chain, {q for p in chain for q in self.nb[p] if s[q] == _EMPTY}

    def _tick(self, depth: int) -> None:
        self.nodes += 1
        self.budget[0] -= 1
        if self.nodes > _NET_BUDGET or self.budget[0] < 0 or depth > _NET_MAX_DEPTH:
            raise _OutOfBudget

    def lost(self, s: tuple[int, ...]) -> bool:
        """Is the target captured whatever its owner does, the owner moving first?"""
        return self._captured(s, frozenset(), 0) and self._defended(s, frozenset(), 0) is False

    def _captured(self, s: tuple[int, ...], path: frozenset[tuple[int, ...]], depth: int) -> bool:
        """The attacker to move: can it capture the target?"""
        owner = s[self.target]
        if owner == _EMPTY:
            return True
        _chain, libs = self._chain_libs(s, self.target)
        if len(libs) == 1:
            return True
        if len(libs) >= _NET_FREE:
            return False
        self._tick(depth)
        path = path | {s}
        for i in sorted(libs):
            t = self.board.play(s, i, 3 - owner)
            if t is not None and t not in path and not self._defended(t, path, depth + 1):
                return True
        return False

    def _defended(self, s: tuple[int, ...], path: frozenset[tuple[int, ...]], depth: int) -> bool:
        """The owner to move: can it save the target?"""
        owner = s[self.target]
        if owner == _EMPTY:
            return False
        chain, libs = self._chain_libs(s, self.target)
        if len(libs) >= _NET_FREE:
            return True
        self._tick(depth)
        path = path | {s}
        moves = set(libs)
        seen: set[int] = set()  # each adjacent enemy chain read once
        for p in chain:
            for q in self.nb[p]:
                if s[q] == 3 - owner and q not in seen:
                    enemy, enemy_libs = self._chain_libs(s, q)
                    seen.update(enemy)
                    if len(enemy_libs) == 1:
                        moves |= enemy_libs
        for i in sorted(moves):
            t = self.board.play(s, i, owner)
            if t is None or t in path:
                continue
            # a move that leaves one liberty is answered by the capture (_captured says so)
            if not self._captured(t, path, depth + 1):
                return True
        return False


# --------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class GroupStatus(Generic[P]):
    """One chain's verdict, as given by :func:`explain`: colour, stones, status and why.

    ``reason`` is a short English phrase starting with the status.
    """

    color: Color
    stones: tuple[P, ...]
    status: Status
    reason: str


def _read(
    board: BoardView[P],
    rng: random.Random | None = None,
    budget: int = 0,
) -> tuple[_Analysis, dict[int, P]]:
    size = board.size
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidInput(f"Go §8: board size must be a positive integer, got {size!r}")
    colour = [_EMPTY] * (size * size)
    points: dict[int, P] = {}
    for col, code in ((BLACK, _B), (WHITE, _W)):
        for p in board.stones(col):
            if not (0 <= p.col < size and 0 <= p.row < size):
                raise InvalidInput(f"Go §8: stone {p!r} lies outside the {size}x{size} board")
            i = p.row * size + p.col
            if colour[i] != _EMPTY:
                raise InvalidInput(f"Go §8: point {p!r} holds stones of both colours")
            colour[i] = code
            points[i] = p
    analysis = _Analysis(size, colour)
    analysis.run()
    if budget > 0:
        if rng is None:
            rng = random.Random(_position_seed(colour))
        _settle_by_playouts(board, analysis, rng, budget)
    return analysis, points


def _position_seed(colour: list[int]) -> int:
    """A seed fixed by the stones alone (the same position gives the same proposal)."""
    seed = 0
    for c in colour:
        seed = (seed * 3 + c) % (1 << 61)
    return seed


def _status(analysis: _Analysis, cid: int) -> Status:
    if analysis.dead[cid]:
        return Status.DEAD
    if analysis.seki[cid]:
        return Status.SEKI
    return Status.ALIVE


#: The one static verdict that weighs guesses (eye space, influence and size, with weights
#: fitted to the KGS games) rather than shape: two weak groups of opposite colours each spoiling
#: the other's eyes. Random playouts settle it instead when they are sure: a chain's mean
#: ownership for its owner above ``_SURE`` keeps it alive (and its partner in the fight dies
#: when the playouts give that one below ``-_SURE``). Tuned on half A of
#: bench/life_accuracy.py only (any value from 0.3 to 0.9 scores the same there). Letting the
#: playouts overturn every static verdict instead lost 5 of the 83 games of half B (89.2%
#: against 95.2%, bench/RESULTS.md).
_GUESS = "dead: weaker than the surrounding group"
_DEFAULT_ALIVE = "alive: has two eyes or enough space"
_SURE = 0.6


def _settle_by_playouts(
    board: BoardView[P], analysis: _Analysis, rng: random.Random, budget: int
) -> None:
    """Let random playouts from the final position (Go §8: can the stones be captured?) settle
    the mutual fights the static weighing guessed. Nothing else is touched: Benson, atari,
    shapes, seki and every read-out verdict stand. No playout is made when there is no such
    fight on the board."""
    weak = [cid for cid, why in enumerate(analysis.reason) if why.startswith(_GUESS)]
    if not weak or not isinstance(board, Board):
        return
    size = analysis.size
    width = board.geometry.width
    own = ownership(board, rng, budget=budget)

    def mean(cid: int) -> float:
        sign = 1 if analysis.chain_colour[cid] == _B else -1
        stones = analysis.chains[cid]
        return sign * sum(own[(i // size) * width + i % size] for i in stones) / len(stones)

    for cid in weak:
        m = mean(cid)
        if m <= _SURE:
            continue
        analysis.dead[cid] = False
        analysis.reason[cid] = f"alive: random playouts keep it ({m:+.2f})"
        # the groups it fights: enemy chains next to it or to the empty areas it touches
        colour, nb = analysis.colour, analysis.nb
        enemy = _B + _W - analysis.chain_colour[cid]
        area = set(analysis.libs[cid])
        todo = list(area)
        while todo:
            for q in nb[todo.pop()]:
                if colour[q] == _EMPTY and q not in area:
                    area.add(q)
                    todo.append(q)
        partners = {
            analysis.chain_of[q]
            for i in (*analysis.chains[cid], *area)
            for q in nb[i]
            if colour[q] == enemy
        }
        for other in partners:
            if analysis.reason[other] == _DEFAULT_ALIVE and not analysis.seki[other]:
                mo = mean(other)
                if mo < -_SURE:
                    analysis.dead[other] = True
                    analysis.reason[other] = f"dead: random playouts take it ({mo:+.2f})"


def propose_dead(
    board: BoardView[P],
    rules: object | None = None,
    rng: random.Random | None = None,
    budget: int = 0,
) -> frozenset[P]:
    """The stones the engine proposes as dead at the end of play (Go §8, §21).

    A proposal only: the players accept it or mark otherwise (DECISIONS.md). ``rules`` is
    accepted for the ``Game.propose_dead`` call; life and death do not depend on it (how seki
    points are counted is the scoring's affair). The board is not modified.

    The reading above decides first. With a ``budget`` (playout moves, e.g.
    :data:`duiyi.go.ownership.DEFAULT_BUDGET`) on a :class:`~duiyi.go.Board`, random playouts
    from the position (:func:`duiyi.go.ownership.ownership`) then settle the mutual fights of
    weak groups that the static rules only weigh. Off by default: on the held-out half of the
    KGS games they lost one game and cost about five times the time (bench/RESULTS.md). ``rng`` seeds them; by
    default a ``random.Random`` seeded by the position, so the same board always gets the same
    proposal.

    >>> from duiyi.go import Board
    >>> board = Board.from_diagram('''
    ... . X O . . . .
    ... X X O . . . .
    ... O O O . . O .
    ... . . . . . . .
    ... . . X . . . .
    ... . . . . . . .
    ... . . . . . . .''')
    >>> sorted(map(str, propose_dead(board)))
    ['A6', 'B6', 'B7', 'C3']
    """
    analysis, points = _read(board, rng, budget)
    return frozenset(
        points[i]
        for cid, stones in enumerate(analysis.chains)
        if analysis.dead[cid]
        for i in stones
    )


def status_map(board: BoardView[P]) -> dict[P, Status]:
    """Status (alive, dead, seki) of every stone, as GTP ``final_status_list`` reports it.

    >>> from duiyi.go import Board, Point
    >>> board = Board.from_diagram('''
    ... . O O O X O .
    ... X . X . X O .
    ... X X X X X O .
    ... O X O O O O .
    ... O O O . . . .
    ... . . . . . . .
    ... . . . . . . .''')
    >>> statuses = status_map(board)
    >>> statuses[Point.parse("B7", 7)], statuses[Point.parse("A6", 7)], statuses[Point.parse("F7", 7)]
    (<Status.SEKI: 'seki'>, <Status.SEKI: 'seki'>, <Status.ALIVE: 'alive'>)
    """
    analysis, points = _read(board)
    out: dict[P, Status] = {}
    for cid, stones in enumerate(analysis.chains):
        status = _status(analysis, cid)
        for i in stones:
            out[points[i]] = status
    return out


def explain(board: BoardView[P]) -> list[GroupStatus[P]]:
    """One :class:`GroupStatus` per chain (ordered by its lowest point), saying why.

    >>> from duiyi.go import Board
    >>> board = Board.from_diagram('''
    ... . . . . .
    ... . . . . .
    ... O O O . .
    ... X X O . .
    ... . X O . .''')
    >>> for g in explain(board):
    ...     print(g.color.letter, " ".join(map(str, g.stones)), g.status.value)
    B B1 A2 B2 dead
    W C1 C2 A3 B3 C3 alive
    """
    analysis, points = _read(board)
    out: list[GroupStatus[P]] = []
    for cid, stones in enumerate(analysis.chains):
        out.append(
            GroupStatus(
                color=BLACK if analysis.chain_colour[cid] == _B else WHITE,
                stones=tuple(points[i] for i in stones),
                status=_status(analysis, cid),
                reason=analysis.reason[cid],
            )
        )
    return out


def unconditionally_alive(board: BoardView[P]) -> frozenset[P]:
    """The stones of chains alive whatever the opponent plays, even if their owner only passes
    (Benson's algorithm, the first step of :func:`propose_dead`; KataGo calls them pass-alive).

    >>> from duiyi.go import Board
    >>> board = Board.from_diagram('''
    ... . X . X .
    ... X X X X X
    ... . . . . .
    ... . . O . .
    ... . . . . .''')
    >>> sorted(map(str, unconditionally_alive(board)))
    ['A4', 'B4', 'B5', 'C4', 'D4', 'D5', 'E4']
    """
    analysis, points = _read(board, budget=0)
    return frozenset(points[i] for cid in analysis.benson for i in analysis.chains[cid])
