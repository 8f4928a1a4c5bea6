"""A slow, literal reference for Black's fouls, written straight from the definitions of
Gomoku §2.19 and DECISIONS.md, to check the fast table-driven :mod:`duiyi.gomoku.fouls`.

``depth`` limits the recursion on straight-four points (None: unlimited; 0: every such point is
taken as allowed), which lets tests show how deep a trap is nested.
"""

from __future__ import annotations

from duiyi.gomoku import Board, Foul, Point

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))
Stones = dict[tuple[int, int], str]


def stones_of(board: Board) -> Stones:
    return {(p.col, p.row): ("B" if c.value == "black" else "W") for p, c in board}


def _on(x: int, y: int) -> bool:
    return 0 <= x < 15 and 0 <= y < 15


def _run(s: Stones, x: int, y: int, d: tuple[int, int]) -> tuple[int, int]:
    """(lo, hi) offsets of the black run through (x, y) along d."""
    lo = 0
    while (
        _on(x + (lo - 1) * d[0], y + (lo - 1) * d[1])
        and s.get((x + (lo - 1) * d[0], y + (lo - 1) * d[1])) == "B"
    ):
        lo -= 1
    hi = 0
    while (
        _on(x + (hi + 1) * d[0], y + (hi + 1) * d[1])
        and s.get((x + (hi + 1) * d[0], y + (hi + 1) * d[1])) == "B"
    ):
        hi += 1
    return lo, hi


def _completions(s: Stones, x: int, y: int, d: tuple[int, int]) -> list[int]:
    """Offsets k (|k| ≤ 4) where a black stone makes exactly five including (x, y)."""
    out = []
    for k in range(-4, 5):
        e = (x + k * d[0], y + k * d[1])
        if k == 0 or not _on(*e) or e in s:
            continue
        s[e] = "B"
        lo, hi = _run(s, e[0], e[1], d)
        if hi - lo == 4 and lo <= -k <= hi:
            out.append(k)
        del s[e]
    return out


def _fours(s: Stones, x: int, y: int, d: tuple[int, int]) -> int:
    c = _completions(s, x, y, d)
    if len(c) == 2 and c[1] - c[0] == 5:
        return 1
    return len(c)


def _straight(s: Stones, x: int, y: int, d: tuple[int, int]) -> bool:
    c = _completions(s, x, y, d)
    return len(c) == 2 and c[1] - c[0] == 5


def ref_foul(
    s: Stones,
    p: tuple[int, int],
    depth: int | None = None,
    five_forbidden: bool = False,
    _nested: bool = False,
) -> Foul | None:
    """The foul of a black stone on empty ``p`` in position ``s``.

    ``five_forbidden`` reads, like Piskvork's judge (and the renju package), a straight-four
    point that makes a five as forbidden (DECISIONS.md reads it as allowed); such a point then
    answers OVERLINE here, only ever inside the recursion."""
    x, y = p
    s = dict(s)
    s[p] = "B"
    runs = [_run(s, x, y, d) for d in DIRS]
    if any(hi - lo == 4 for lo, hi in runs):
        return Foul.OVERLINE if five_forbidden and _nested else None
    if any(hi - lo >= 5 for lo, hi in runs):
        return Foul.OVERLINE
    if sum(_fours(s, x, y, d) for d in DIRS) >= 2:
        return Foul.DOUBLE_FOUR
    live = 0
    for d in DIRS:
        if _fours(s, x, y, d):
            continue
        qs = []
        for k in range(-4, 5):
            q = (x + k * d[0], y + k * d[1])
            if k == 0 or not _on(*q) or q in s:
                continue
            s[q] = "B"
            if _straight(s, x, y, d):
                qs.append(q)
            del s[q]
        sub = None if depth is None else depth - 1
        if qs and (
            depth == 0 or any(ref_foul(s, q, sub, five_forbidden, True) is None for q in qs)
        ):
            live += 1
    return Foul.DOUBLE_THREE if live >= 2 else None


def ref_map(
    board: Board, depth: int | None = None, five_forbidden: bool = False
) -> dict[str, Foul]:
    s = stones_of(board)
    out = {}
    for x in range(15):
        for y in range(15):
            if (x, y) not in s:
                f = ref_foul(s, (x, y), depth, five_forbidden)
                if f is not None:
                    out[str(Point(x, y))] = f
    return out
