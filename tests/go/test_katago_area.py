"""KataGo's pass-alive area tests (lightvector/KataGo, cpp/tests/testboardarea.cpp) against duiyi.

KataGo's ``calculateArea`` with no big territories, no non-pass-alive stones and no suicide marks
the stones that are *pass-alive* (Benson: alive whatever the opponent plays, even if their owner
always passes) and the regions they control; a stone of the other colour inside such a region is
shown in the owner's colour. For each of KataGo's square boards, with KataGo's expected map:

1. duiyi's unconditionally alive chains (Benson, the first step of the dead-stone proposal,
   :func:`duiyi.go.life.unconditionally_alive`) are exactly KataGo's pass-alive stones;
2. every stone KataGo shows inside the opponent's pass-alive region is proposed dead by duiyi
   (Go §8: stones that can be captured are dead; these can be captured whatever happens).
"""

from __future__ import annotations

import pytest

from duiyi.go import Board, Point
from duiyi.go.life import propose_dead, unconditionally_alive

# (board, KataGo's expected map for "safe 0, unsafe 0, non-pass-alive stones 0, suicide 0");
# x/o stones, "." or "`" (star points) empty; X/O the area of each colour.
CASES = {
    "Area 1": (
        """
        ..o.o.xx.
        .oooo.x.x
        oo.....xx
        .........
        .........
        x......oo
        .xx...o.o
        x.x..oo.o
        .x.x.o.o.
        """,
        """
        ......XXX
        ......XXX
        .......XX
        .........
        .........
        .......OO
        ......OOO
        .....OOOO
        .....OOOO
        """,
    ),
    "Area 2": (
        """
        x.oooooo.
        oox..xx.o
        o...xox.o
        o...x.x.o
        oxxx.xx.o
        ox..x...o
        o.xox...o
        o.xxx...o
        .ooooooo.
        """,
        """
        OOOOOOOOO
        OO...XX.O
        O...XXX.O
        O...XXX.O
        OXXXXXX.O
        OXXXX...O
        O.XXX...O
        O.XXX...O
        OOOOOOOOO
        """,
    ),
    "Area 2, second board": (
        """
        ..oooooo.
        oox..xx.o
        o...xox.o
        o...x.x.o
        oxxx.xx.o
        ox..x...o
        o.x.x...o
        o.xxx...o
        .ooooooo.
        """,
        "\n".join(["........."] * 9),
    ),
    "Area 3": (
        """
        o.o....xx......o..o
        .oo.xxx.x......ooo.
        xo..x..xx........oo
        oo.`xxx..`.....`...
        ...................
        .......xx..........
        ....xxx.x......xxx.
        ....xo.xx......x.x.
        ....xxx........x.x.
        xxx`....xxxxx..`x.x
        ..x.....x...x...xx.
        o.xxx...x...x....xx
        o.x.x...x...xxx....
        ..xxx...x...x.x....
        xxx.....xxxxxxx....
        oo.`.....`.....`...
        .o.....oo.oo......o
        .oooo.o.o.o.o.oooo.
        o..o.o.oo.oo.o.o.o.
        """,
        """
        OOO................
        OOO................
        OO.................
        OO.................
        ...................
        .......XX..........
        ....XXXXX......XXX.
        ....XXXXX......XXX.
        ....XXX........XXX.
        XXX.............XXX
        ..X.............XXX
        ..XXX............XX
        ..XXX..............
        ..XXX..............
        XXX................
        ...................
        ..........OO.......
        ..........OOO.OOOO.
        ..........OOOOOOOO.
        """,
    ),
    "Area 4": (
        """
        .x.x.xxxx.xxxx.x.x.
        x.xxxx..x.x..xxxx.x
        xx.x..x.x.x.x..x.x.
        x.x`xx.xx`xx.xx`x.x
        .x.xx.xx...xx.xx.x.
        .x.x...........x.x.
        x.x.............x.x
        .x...............x.
        ...................
        xxx`....xxxxx..`...
        ..x.....x...x.xxxxx
        oxxxx...x..xx.x....
        o.x.x...x.o.xxx....
        ..xxx...x...x.x....
        xxx.....xxxxxxxxxxx
        ...`.....`....o`...
        ooooo....ooooo.oooo
        .o..oo...o...ooo...
        o.o.xo...o.o.o.o.oo
        """,
        """
        XXXXXXXXX..........
        XXXXXX..X..........
        XX.X....X..........
        X......XX..........
        ......XX...........
        ...................
        ...................
        ...................
        ...................
        XXX.....XXXXX......
        XXX.....XXXXX.XXXXX
        XXXXX...XXXXX.X....
        XXXXX...XXXXXXX....
        XXXXX...XXXXXXX....
        XXX.....XXXXXXXXXXX
        ...................
        ...................
        ...................
        ...................
        """,
    ),
    "Pass alive bug-derived test case": (
        """
        .o.ooxxo.
        o.o.ooxxo
        oooooox.x
        oxo.ooxxx
        xxooooxx.
        .xoooxxx.
        .xoooooox
        oxxoxxxxx
        .xxx.x...
        """,
        """
        OOOOOXXXX
        OOOOOOXXX
        OOOOOOXXX
        OXOOOOXXX
        XXOOOOXXX
        XXOOOXXXX
        XXOOOOOOX
        XXXOXXXXX
        XXXXXXXXX
        """,
    ),
    "One more simple test case": (
        """
        ..ooo..
        ..xxx..
        xxxxxxx
        .....x.
        ooooox.
        .o..oxx
        .x..ox.
        """,
        """
        .......
        ..XXX..
        XXXXXXX
        .....XX
        .....XX
        .....XX
        .....XX
        """,
    ),
    "Bug-derived test case, in more colors and orientations": (
        """
        .oxo.oxo.
        ooxoooxxo
        xxxxxxxxx
        .x.x.....
        xxxoooooo
        ..o.xo.o.
        ooooooooo
        xooxxxoxx
        .xox.xox.
        """,
        """
        XXXXXXXXX
        XXXXXXXXX
        XXXXXXXXX
        XXXX.....
        XXXOOOOOO
        ..OOOOOOO
        OOOOOOOOO
        OOOOOOOOO
        OOOOOOOOO
        """,
    ),
    "More tests for recursive safe": (
        """
        .xx.....o.o.o...xx.
        x.x.x...ooooo.x.x.x
        xx.x..oo...o...x.xx
        ..x`.o.o.`.o...`x..
        .x.x..oo...o...x.x.
        .x.x....ooo....xox.
        o.x...oo...o....x..
        .x.x.o.o...o...x.x.
        ..x...oo...o....x..
        .xx`....o.o....`...
        xooo.....xxxx......
        .x....xxxx..xx.....
        x.....x.x....x.....
        ...o...x.x..xx.o.o.
        o.o.oo.xxxxxxoo.o.o
        .o.o...xooooo..o.o.
        oox.o..xoxo.o.o.xoo
        o.oo..xxoxoxox.oo.o
        .oo..x..x.x.x...oo.
        """,
        """
        XXX.....OOOOO...XXX
        XXX.....OOOOO...XXX
        XX.........O.....XX
        ...........O.......
        ...........O.......
        ...................
        ...................
        ...................
        ...................
        ...................
        .........XXXX......
        ......XXXX..XX.....
        ......XXX....X.....
        .......XXX..XX.....
        .......XXXXXX......
        .O.....X.........O.
        OO.....X.........OO
        OOOO..XX.......OOOO
        OOO.............OOO
        """,
    ),
}


def _grid(text: str) -> list[str]:
    return text.strip().split()


@pytest.mark.parametrize("name", list(CASES))
def test_unconditional_life_equals_katago_pass_alive(name: str) -> None:
    rows, expected = (_grid(t) for t in CASES[name])
    n = len(rows)
    assert all(len(r) == n for r in rows) and len(expected) == n

    def point(x: int, y: int) -> Point:
        return Point(x, n - 1 - y)

    black = [point(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "x"]
    white = [point(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "o"]
    board = Board.from_stones(n, black, white)
    pass_alive = {
        point(x, y)
        for y, r in enumerate(rows)
        for x, ch in enumerate(r)
        if (ch, expected[y][x]) in (("x", "X"), ("o", "O"))
    }
    inside_enemy_area = {
        point(x, y)
        for y, r in enumerate(rows)
        for x, ch in enumerate(r)
        if (ch, expected[y][x]) in (("x", "O"), ("o", "X"))
    }
    assert unconditionally_alive(board) == pass_alive
    assert inside_enemy_area <= propose_dead(board)
