"""Who owns each point at the end of play, by random playouts (Go §8: can the stones be taken?).

From a final position, many games are finished at random until neither side has a move left:
each side takes the chain the opponent just left in atari or saves its own chain the opponent
just put in atari when it can, and otherwise plays a random legal move that does not fill its
own one-point eye and does not put a chain of five stones or more into atari; each point is then counted for the colour whose stone stands
on it or whose stones alone surround it (area counting, Go §9). The share of playouts in which a
chain's points stay its owner's estimates whether the chain can be captured: Fuego and Pachi
score finished games this way. No hand-made shape knowledge is involved; the reading of
:mod:`duiyi.go.life` settles what random play gets wrong (seki, races decided by one move).

Pure and deterministic: the caller passes a seeded :class:`random.Random`; the work is bounded by
a number of playout moves (``budget``), never by the wall clock.

>>> import random
>>> from duiyi.go import Board, Point
>>> board = Board.from_diagram('''
... . X O . . . .
... X X O . . . .
... O O O . . O .
... . . . . . . .
... . . X . . . .
... . . . . . . .
... . . . . . . .''')
>>> own = ownership(board, random.Random(1), playouts=40)
>>> own[board.geometry.index(Point.parse("A6", 7))] < -0.5  # Black's corner stones die
True
"""

from __future__ import annotations

import random

from duiyi.errors import InvalidInput
from duiyi.go.board import Board

__all__ = ["DEFAULT_BUDGET", "DEFAULT_PLAYOUTS", "ownership"]

#: Playouts per estimate, and the most playout moves one estimate may spend (all playouts
#: together): about 0.2–0.4 s for a 19×19 end position on one core of the reference machine
#: (bench/life_accuracy.py prints the time).
DEFAULT_PLAYOUTS = 64
DEFAULT_BUDGET = 24_000


def ownership(
    board: Board,
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    budget: int = DEFAULT_BUDGET,
) -> list[float]:
    """The ownership of every point, indexed by bit (the layout of
    :class:`~duiyi.go.board.Geometry`): +1 always Black's, −1 always White's, 0 even or never
    owned; points off the board are 0.

    Half the playouts start with Black to move, half with White. At most ``budget`` moves are
    played in all; fewer playouts are made when the budget runs out (at least one).

    >>> import random
    >>> from duiyi.go import Board
    >>> own = ownership(Board(5), random.Random(0), playouts=2)
    >>> len(own), all(-1.0 <= x <= 1.0 for x in own)
    (30, True)
    """
    if not isinstance(rng, random.Random):
        raise InvalidInput("ownership needs a random.Random (seeded by the caller)")
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
        raise InvalidInput(f"playouts must be a positive integer, got {playouts!r}")
    geo = board.geometry
    size = geo.size
    stride = size + 2
    # padded flat layout: point (col, row) is (row + 1) * stride + col + 1
    start = [_BORDER] * (stride * stride)
    to_bit: list[tuple[int, int]] = []
    for row in range(size):
        for col in range(size):
            i = row * geo.width + col
            p = (row + 1) * stride + col + 1
            to_bit.append((p, i))
            start[p] = _B if board.black_bits >> i & 1 else _W if board.white_bits >> i & 1 else 0
    total = [0] * len(start)
    zr = random.Random(f"duiyi-go-ownership-{size}")  # fixed keys: the same in every run
    keys = [zr.getrandbits(64) for _ in range(2 * len(start))]
    spent = done = 0
    cap = 3 * start.count(0) + 60  # a playout longer than this is stopped and counted
    for k in range(playouts):
        if done and spent >= budget:
            break
        sim = _Sim(start, stride, keys)
        spent += sim.run(_B if k % 2 == 0 else _W, rng, cap)
        done += 1
        sim.score_into(total)
    out = [0.0] * (size * geo.width)
    for p, i in to_bit:
        out[i] = total[p] / done
    return out


_B, _W, _BORDER = 1, 2, 3
#: A random move may not leave a chain of this many stones or more in atari: random play
#: would otherwise break every seki; smaller chains may (nakade, throw-ins kill with them).
_SELF_ATARI_MIN = 5


class _Sim:
    """A board for fast random play: chains as circular lists of stones with pseudo-liberty
    counts, the sum and the sum of squares of their liberty points (a chain is in atari exactly
    when count × squares = sum², all its pseudo-liberties being one point)."""

    __slots__ = (
        "col", "empties", "epos", "hash", "head", "keys", "lsq", "lsum", "nbs", "nxt", "plib",
        "size",
    )  # fmt: skip

    def __init__(self, start: list[int], stride: int, keys: list[int]) -> None:
        n = len(start)
        self.keys = keys  # Zobrist keys: keys[p] for a black stone, keys[n + p] for a white one
        self.hash = 0
        self.col = col = list(start)
        self.nbs = [(p - stride, p - 1, p + 1, p + stride) for p in range(n)]
        self.head = list(range(n))
        self.nxt = list(range(n))
        self.plib = [0] * n
        self.lsum = [0] * n
        self.lsq = [0] * n
        self.size = [1] * n
        self.empties = [p for p in range(n) if col[p] == 0]
        self.epos = [0] * n
        for k, p in enumerate(self.empties):
            self.epos[p] = k
        seen = [False] * n
        for p in range(n):
            c = col[p]
            if c not in (_B, _W) or seen[p]:
                continue
            stones = [p]
            seen[p] = True
            k = 0
            while k < len(stones):
                for q in self.nbs[stones[k]]:
                    if col[q] == c and not seen[q]:
                        seen[q] = True
                        stones.append(q)
                k += 1
            pl = ls = lq = 0
            for s in stones:
                self.head[s] = p
                for q in self.nbs[s]:
                    if col[q] == 0:
                        pl += 1
                        ls += q
                        lq += q * q
            for a, b in zip(stones, stones[1:] + stones[:1], strict=True):
                self.nxt[a] = b
            self.plib[p], self.lsum[p], self.lsq[p], self.size[p] = pl, ls, lq, len(stones)

    def _take_empty(self, p: int) -> None:
        e = self.empties
        k = self.epos[p]
        last = e[-1]
        e[k] = last
        self.epos[last] = k
        e.pop()

    def _verdict(self, p: int, c: int) -> int:
        """-1 illegal or unwanted, else the number of stones ``c`` at ``p`` would capture
        (0 for a quiet move)."""
        col, head, plib, lsum, lsq = self.col, self.head, self.plib, self.lsum, self.lsq
        nbs = self.nbs[p]
        o = 3 - c
        pl = ls = lq = 0
        merged = 1
        heads: list[int] = []
        captures = 0
        eye = True
        for q in nbs:
            cq = col[q]
            if cq == 0:
                eye = False
                pl += 1
                ls += q
                lq += q * q
            elif cq == c:
                h = head[q]
                if h not in heads:
                    heads.append(h)
                    pl += plib[h]
                    ls += lsum[h]
                    lq += lsq[h]
                    merged += self.size[h]
                pl -= 1  # this stone's pseudo-liberty at p goes
                ls -= p
                lq -= p * p
            elif cq == o:
                eye = False
                h = head[q]
                n = plib[h]
                # its only liberty is p (all its pseudo-liberties are p)
                if n * p == lsum[h] and n * p * p == lsq[h] and h not in heads:
                    heads.append(h)
                    captures += self.size[h]
        if eye:
            return -1  # the mover's own one-point eye (or a point walled by the edge)
        if captures:
            return captures
        if pl == 0:
            return -1  # suicide (Go §5)
        if merged >= _SELF_ATARI_MIN and pl * lq == ls * ls:
            return -1  # a big chain into atari: random play would break seki
        return 0

    def _place(self, p: int, c: int) -> int:
        """Put the stone, merge, capture; returns the captured point when exactly one stone
        was taken, else -1."""
        col, head, plib, lsum, lsq, nxt, size = (
            self.col, self.head, self.plib, self.lsum, self.lsq, self.nxt, self.size
        )  # fmt: skip
        nbs = self.nbs[p]
        col[p] = c
        n = len(col)
        zh = self.hash ^ self.keys[p if c == _B else n + p]
        self._take_empty(p)
        head[p] = p
        nxt[p] = p
        size[p] = 1
        pl = ls = lq = 0
        for q in nbs:
            cq = col[q]
            if cq == 0:
                pl += 1
                ls += q
                lq += q * q
            elif cq != _BORDER:
                h = head[q]
                plib[h] -= 1
                lsum[h] -= p
                lsq[h] -= p * p
        plib[p], lsum[p], lsq[p] = pl, ls, lq
        for q in nbs:
            if col[q] == c:
                a, b = head[p], head[q]
                if a != b:
                    if size[a] < size[b]:
                        a, b = b, a
                    s = b
                    while True:
                        head[s] = a
                        s = nxt[s]
                        if s == b:
                            break
                    nxt[a], nxt[b] = nxt[b], nxt[a]
                    plib[a] += plib[b]
                    lsum[a] += lsum[b]
                    lsq[a] += lsq[b]
                    size[a] += size[b]
        o = 3 - c
        taken = 0
        last = -1
        for q in nbs:
            if col[q] == o and plib[head[q]] == 0:
                h = head[q]
                stones = [h]
                s = nxt[h]
                while s != h:
                    stones.append(s)
                    s = nxt[s]
                off = 0 if o == _B else n
                for s in stones:
                    col[s] = 0
                    zh ^= self.keys[off + s]
                    self.epos[s] = len(self.empties)
                    self.empties.append(s)
                for s in stones:
                    for r in self.nbs[s]:
                        if col[r] == c:
                            hr = head[r]
                            plib[hr] += 1
                            lsum[hr] += s
                            lsq[hr] += s * s
                taken += len(stones)
                last = stones[0]
        self.hash = zh
        return last if taken == 1 else -1

    def _atari_liberty(self, h: int) -> int:
        """The one liberty of the chain headed by ``h``, or -1 when it has more."""
        n = self.plib[h]
        if n and n * self.lsq[h] == self.lsum[h] * self.lsum[h]:
            return self.lsum[h] // n
        return -1

    def _urgent(self, last: int, c: int) -> list[int]:
        """Answers to the opponent's last move at ``last``: take its chain when it is in
        atari, else save an own chain next to it that it put in atari (Go §3, §4)."""
        head = self.head
        out = []
        lib = self._atari_liberty(head[last])
        if lib >= 0:
            out.append(lib)
        for q in self.nbs[last]:
            if self.col[q] == c:
                lib = self._atari_liberty(head[q])
                if lib >= 0:
                    out.append(lib)
        return out

    def run(self, first: int, rng: random.Random, cap: int) -> int:
        """Random moves from ``first`` until two passes in a row, a position seen before in
        this playout (a cycle: the playout stops there) or ``cap`` moves; returns the number of
        moves made (passes included)."""
        seen = {self.hash}
        c = first
        ko = -1
        passes = moves = 0
        randrange = rng.randrange
        last = -1
        while passes < 2 and moves < cap:
            played = -1
            if last >= 0:
                for p in self._urgent(last, c):
                    if p != ko and self._verdict(p, c) >= 0:
                        played = p
                        break
            cands = list(self.empties) if played < 0 else []
            while cands:
                k = randrange(len(cands))
                p = cands[k]
                cands[k] = cands[-1]
                cands.pop()
                if p != ko and self._verdict(p, c) >= 0:
                    played = p
                    break
            moves += 1
            last = played
            if played < 0:
                passes += 1
                ko = -1
            else:
                passes = 0
                taken = self._place(played, c)
                h = self.head[played]
                ko = taken if taken >= 0 and self.size[h] == 1 and self.plib[h] == 1 else -1
                if self.hash in seen:
                    break
                seen.add(self.hash)
            c = 3 - c
        return moves

    def score_into(self, total: list[int]) -> None:
        """Add +1 to Black's points and −1 to White's (stones, and empty points only one
        colour borders) in ``total``."""
        col, nbs = self.col, self.nbs
        for p, c in enumerate(col):
            if c == _B:
                total[p] += 1
            elif c == _W:
                total[p] -= 1
            elif c == 0:
                seen = 0
                for q in nbs[p]:
                    cq = col[q]
                    if cq != _BORDER:
                        seen |= cq
                if seen == _B:
                    total[p] += 1
                elif seen == _W:
                    total[p] -= 1
