"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm, O(V³)).

The Swiss pairer uses it only as an exact feasibility oracle on the few players left at the
bottom of a round, where the cheap degree bound (Dirac) cannot vouch for a perfect matching.

>>> maximum_matching(4, [[1], [0, 2], [1, 3], [2]])
[1, 0, 3, 2]
>>> has_perfect_matching(3, [[1, 2], [0, 2], [0, 1]])
False
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["has_perfect_matching", "maximum_matching"]


def maximum_matching(n: int, adj: Sequence[Sequence[int]]) -> list[int]:
    """A maximum matching of the graph on vertices ``0 … n-1``: ``mate[v]`` or -1.

    >>> maximum_matching(3, [[1], [0], []])
    [1, 0, -1]
    """
    mate = [-1] * n
    # A greedy start makes the augmenting searches short on the dense graphs we see.
    for v in range(n):
        if mate[v] == -1:
            for w in adj[v]:
                if mate[w] == -1 and w != v:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] != -1:
            continue
        end, parent = _augmenting_path(n, adj, mate, root)
        v = end
        while v != -1:
            pv = parent[v]
            nxt = mate[pv]
            mate[v], mate[pv] = pv, v
            v = nxt
    return mate


def _augmenting_path(
    n: int, adj: Sequence[Sequence[int]], mate: list[int], root: int
) -> tuple[int, list[int]]:
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = [root]
    head = 0

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = True
            blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent


def has_perfect_matching(n: int, adj: Sequence[Sequence[int]]) -> bool:
    """Whether every vertex can be matched.

    >>> has_perfect_matching(0, [])
    True
    """
    if n % 2:
        return False
    if any(not a for a in adj):
        return False
    return all(m != -1 for m in maximum_matching(n, adj))
