"""The engine protocol's one question, ``play(position, limits) -> result`` (issue 34, as
python-chess's ``engine.play(board, limit)``): GTP and Gomocup beneath it, each telling the
engine only what it has not heard, the time left first, and answering typed values."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from duiyi import BLACK, WHITE
from duiyi.engines.gomocup import GomocupEngine, GomocupMove
from duiyi.engines.gtp import GtpEngine
from duiyi.engines.protocol import PASS, RESIGN, Limits, PlayResult, PositionRefused
from duiyi.errors import GtpError
from duiyi.go import Game, Point
from duiyi.gomoku.point import Point as GPoint

FAKE = Path(__file__).with_name("fake_gtp.py")


def _commands(log: Path) -> list[str]:
    return [" ".join(line.split()[1:]) for line in log.read_text().splitlines()]


def test_gtp_play_tells_only_the_new_moves_and_the_time_then_asks(tmp_path: Path) -> None:
    log = tmp_path / "log"

    async def run() -> tuple[PlayResult[Point], PlayResult[Point], PlayResult[Point]]:
        engine = await GtpEngine.popen(
            [sys.executable, str(FAKE), "--moves", "C3,pass,resign", "--log", str(log)]
        )
        async with engine:
            await engine.boardsize(9)
            await engine.clear_board()
            game = Game(9)
            first = await engine.play(game, Limits(timeout=5))  # Black, the empty board
            game.play(first.move, BLACK)  # type: ignore[arg-type]
            game.play("E5", WHITE)
            second = await engine.play(game, Limits(5, time_left=42.7, stones=3))
            game.play(None, BLACK)
            game.play("D4", WHITE)
            third = await engine.play(game)
            return first, second, third

    first, second, third = asyncio.run(run())
    assert first.move == Point.parse("C3") and first.elapsed >= 0
    assert second.move is PASS  # GTP "pass" (Go §2.5) is a typed value, not None
    assert third.move is RESIGN  # Go §7.2
    commands = _commands(log)
    asked = commands[commands.index("genmove b") :]
    # the engine made C3 itself: only White's E5 is told; the time left in whole seconds
    assert asked[:4] == ["genmove b", "play w E5", "time_left black 42 3", "genmove b"]
    # its own pass is known too; nothing told twice
    assert asked[4:6] == ["play w D4", "genmove b"]


def test_gtp_play_refused_is_ruled_as_a_refusal_before_the_question(tmp_path: Path) -> None:
    async def run() -> PositionRefused:
        engine = await GtpEngine.popen([sys.executable, str(FAKE), "--refuse-play"])
        async with engine:
            game = Game(9)
            game.play("E5", BLACK)
            with pytest.raises(PositionRefused) as caught:
                await engine.play(game, Limits(timeout=5))
            return caught.value

    refused = asyncio.run(run())
    assert refused.step == "move" and refused.move == Point.parse("E5")
    assert isinstance(refused.cause, GtpError)


BRAIN = """
import sys
for line in sys.stdin:
    words = line.split()
    print("MESSAGE", line.strip(), flush=True)
    if words[0] in ("START", "RESTART"):
        print("OK", flush=True)
    elif words[0] in ("BEGIN", "TURN", "DONE"):
        print("7,7" if words[0] == "BEGIN" else "8,8", flush=True)
"""


class _Position:
    """What a Gomocup brain is told: the stones in the order played, and who is to move."""

    def __init__(self, moves: str) -> None:
        self.moves = [GPoint.parse(m) for m in moves.split()]
        self.to_move = BLACK if len(self.moves) % 2 == 0 else WHITE


def test_gomocup_play_begin_board_then_turn() -> None:
    seen: list[str] = []

    async def brain() -> GomocupEngine:
        engine = await GomocupEngine.open([sys.executable, "-c", BRAIN], 15, timeout=10)
        seen.clear()
        engine.on_line = lambda line: seen.append(line.text)
        return engine

    async def run() -> tuple[list[PlayResult[GomocupMove]], list[str], list[str]]:
        async with await brain() as first:
            a = await first.play(_Position(""), Limits(timeout=5, time_left=1.5))
            b = await first.play(_Position("h8 i9"), Limits(timeout=5))
            told_first = list(seen)
        async with await brain() as second:  # new to the game, after an opening (Gomoku §3.2)
            c = await second.play(_Position("h8 h9 i9"), Limits(timeout=5))
            d = await second.play(_Position("h8 h9 i9 j9 g9"), Limits(timeout=5))
            told_second = list(seen)
        return [a, b, c, d], told_first, told_second

    (a, b, c, d), told_first, told_second = asyncio.run(run())
    assert a.move == GomocupMove(7, 7) and b.move == c.move == d.move == GomocupMove(8, 8)
    assert a.elapsed >= 0
    # the time left in milliseconds before the question; an empty board is BEGIN; a brain that
    # has seen the game hears the opponent's last stone only
    assert told_first == ["INFO time_left 1500", "BEGIN", f"TURN {GomocupMove.from_book('i9')}"]
    # a brain new to the game: BOARD in move order, its own stones 1 (White here: h9), then TURN
    board = [f"{GomocupMove.from_book(p)},{f}" for p, f in (("h8", 2), ("h9", 1), ("i9", 2))]
    assert told_second[: len(board) + 2] == ["BOARD", *board, "DONE"]
    assert told_second[len(board) + 2 :] == [f"TURN {GomocupMove.from_book('g9')}"]


def test_gtp_play_sets_up_a_board_that_is_not_the_game_again(tmp_path: Path) -> None:
    log = tmp_path / "log"

    async def run() -> None:
        engine = await GtpEngine.popen(
            [sys.executable, str(FAKE), "--moves", "C3", "--log", str(log)]
        )
        async with engine:
            await engine.boardsize(9)
            await engine.play_move(BLACK, "D4")  # a move of another game
            game = Game(9)
            game.play("E5", BLACK)
            await engine.play(game, Limits(timeout=5))

    asyncio.run(run())
    commands = _commands(log)
    told = commands[commands.index("play b D4") + 1 :]
    assert told[:2] == ["boardsize 9", "clear_board"]  # set_position: the board again
    asked = told.index("genmove w")
    assert told[asked - 1] == "play b E5" and "play b D4" not in told
