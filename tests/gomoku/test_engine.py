"""The Gomocup protocol manager: coordinates, handshake, answers, failures of real processes.

The brains are the small scripts in tests/gomoku/engines/ (see their docstrings).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duiyi.engines.gomocup import (
    BoardField,
    EngineCrashed,
    EngineProtocolError,
    EngineRefusal,
    EngineTimeout,
    GomocupEngine,
    GomocupMove,
    GomocupRule,
    parse_about,
)
from duiyi.engines.sync import SimpleGomocupEngine
from duiyi.errors import EngineError, InvalidInput, InvalidPoint

ENGINES = Path(__file__).parent / "engines"
ANSWER = 10.0  # generous: the machine may be busy; only the timeout tests use short limits


def brain(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / f"{name}.py"), *args]


def inline(code: str) -> list[str]:
    return [sys.executable, "-c", code]


# -- coordinates (Gomoku §1: columns a-o from the left, rows 1-15 from the bottom) ------------


def test_centre_and_corners_map_between_book_and_gomocup() -> None:
    # Gomoku §1: h8 is the centre; Gomocup counts y from the top, the book counts rows from below.
    assert GomocupMove.from_book("h8") == GomocupMove(7, 7)
    assert GomocupMove.from_book("a15") == GomocupMove(0, 0)  # top-left
    assert GomocupMove.from_book("o15") == GomocupMove(14, 0)  # top-right
    assert GomocupMove.from_book("a1") == GomocupMove(0, 14)  # bottom-left
    assert GomocupMove.from_book("o1") == GomocupMove(14, 14)  # bottom-right
    assert GomocupMove(8, 6).to_book() == "i9"  # one right of and one above the centre
    assert GomocupMove.from_book("J10") == GomocupMove(9, 5)


def test_coordinates_on_other_board_sizes() -> None:
    assert GomocupMove.from_book("a1", size=20) == GomocupMove(0, 19)
    assert GomocupMove(19, 0).to_book(size=20) == "t20"
    assert GomocupMove(10, 10).to_book(size=20) == "k10"


@given(st.integers(0, 14), st.integers(0, 14))
def test_every_point_round_trips(x: int, y: int) -> None:
    move = GomocupMove(x, y)
    book = move.to_book()
    assert GomocupMove.from_book(book) == move
    assert int(book[1:]) == 15 - y  # rows grow upwards, y grows downwards
    assert GomocupMove.parse(str(move)) == move


@pytest.mark.parametrize("text", ["p1", "a0", "a16", "h", "88", "", "h8x"])
def test_points_off_the_book_board_are_refused(text: str) -> None:
    with pytest.raises(InvalidPoint, match="Gomoku §1"):
        GomocupMove.from_book(text)


def test_gomocup_move_text_forgives_spaces_and_refuses_garbage() -> None:
    assert GomocupMove.parse(" 7 , 8 ") == GomocupMove(7, 8)
    with pytest.raises(InvalidPoint):
        GomocupMove.parse("7;8")
    with pytest.raises(InvalidPoint):
        GomocupMove(15, 0).to_book()
    with pytest.raises(InvalidInput):
        GomocupMove(0, 0).to_book(size=4)


def test_rule_bitmask_values() -> None:
    assert int(GomocupRule.EXACT_FIVE) == 1
    assert int(GomocupRule.CONTINUOUS) == 2
    assert int(GomocupRule.RENJU) == 4
    assert int(BoardField.OWN) == 1 and int(BoardField.OPPONENT) == 2
    assert int(BoardField.WINNING) == 3


def test_about_lines() -> None:
    assert parse_about('name="X", version="2.1",author="A B"') == {
        "name": "X",
        "version": "2.1",
        "author": "A B",
    }
    assert parse_about("old brain 1.0") == {"name": "old brain 1.0"}
    assert parse_about('name="X" and junk')["extra"] == "and junk"


# -- a well-behaved brain ---------------------------------------------------------------------


async def test_handshake_about_and_first_moves() -> None:
    engine = await GomocupEngine.popen(brain("greedy"))
    try:
        await engine.start(15, timeout=ANSWER)
        await engine.configure(timeout_turn=1000, timeout_match=60000, rule=GomocupRule.RENJU)
        about = await engine.about(timeout=ANSWER)
        assert about["name"] == "greedy" and about["version"] == "1.0"
        first = await engine.begin(timeout=ANSWER)
        assert first.to_book() == "h8"  # greedy opens at the centre
        assert engine.last_elapsed >= 0.0
        reply = await engine.turn("h9", timeout=ANSWER)
        assert reply.on_board() and reply.to_book() not in ("h8", "h9")
    finally:
        assert await engine.end() == 0  # END makes the brain exit on its own


async def test_manager_writes_crlf_and_board_lines_in_move_order() -> None:
    engine = await GomocupEngine.popen(brain("lattice", "--echo"))
    try:
        await engine.start(15, timeout=ANSWER)
        await engine.info("rule", GomocupRule.RENJU | GomocupRule.EXACT_FIVE)
        stones = [("h8", BoardField.OPPONENT), ("h9", BoardField.OWN), ("j10", 2)]
        move = await engine.board(stones, timeout=ANSWER)
        assert move == GomocupMove(0, 0)  # lattice's first point: the book's a15
        echoed = [m.text for m in engine.messages if m.kind == "DEBUG"]
        assert echoed == [
            r"b'START 15\r\n'",
            r"b'INFO rule 5\r\n'",
            r"b'BOARD\r\n'",
            r"b'7,7,2\r\n'",  # h8
            r"b'7,6,1\r\n'",  # h9: one row up is one y less
            r"b'9,5,2\r\n'",  # j10 (the book's columns include i)
            r"b'DONE\r\n'",
        ]
    finally:
        await engine.kill()


@pytest.mark.parametrize("eol", ["cr", "crlf", "lf"])
async def test_brain_line_endings_and_messages(eol: str) -> None:
    # Gomocup: a brain may end lines with CR, LF or CR LF; MESSAGE/DEBUG precede the answer.
    engine = await GomocupEngine.popen(brain("greedy", "--eol", eol, "--chatty"))
    try:
        await engine.start(15, timeout=ANSWER)
        assert await engine.begin(timeout=ANSWER) == GomocupMove(7, 7)
        assert await engine.turn(GomocupMove(7, 6), timeout=ANSWER) != GomocupMove(7, 6)
        kinds = [(m.kind, m.text) for m in engine.messages]
        assert kinds == [
            ("DEBUG", "thinking about 7,7"),
            ("MESSAGE", "move 1"),
            ("DEBUG", kinds[2][1]),
            ("MESSAGE", "move 2"),
        ]
    finally:
        await engine.end()


async def test_restart_and_refusals() -> None:
    engine = await GomocupEngine.popen(brain("lattice", "--only-size", "20", "--no-restart"))
    try:
        with pytest.raises(EngineRefusal, match="unsupported size 15") as info:
            await engine.start(15, timeout=ANSWER)
        assert info.value.kind == "ERROR"
        await engine.start(20, timeout=ANSWER)
        assert engine.size == 20
        assert await engine.restart(timeout=ANSWER) is False  # old brain: UNKNOWN
        assert await engine.begin(timeout=ANSWER) == GomocupMove(0, 0)
    finally:
        await engine.end()
    engine = await GomocupEngine.popen(brain("lattice"))
    try:
        await engine.start(15, timeout=ANSWER)
        assert await engine.begin(timeout=ANSWER) == GomocupMove(0, 0)
        assert await engine.restart(timeout=ANSWER) is True
        assert await engine.begin(timeout=ANSWER) == GomocupMove(0, 0)  # the board is empty again
    finally:
        await engine.end()


async def test_suggest_is_answered_with_play() -> None:
    code = (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w[0] == 'START': print('OK', flush=True)\n"
        "    elif w[0] == 'BEGIN': print('SUGGEST 7,7', flush=True)\n"
        "    elif w[0] == 'PLAY': print(w[1], flush=True)\n"
        "    elif w[0] == 'END': break\n"
    )
    engine = await GomocupEngine.popen(inline(code))
    try:
        await engine.start(timeout=ANSWER)
        assert await engine.begin(timeout=ANSWER) == GomocupMove(7, 7)
    finally:
        await engine.end()


# -- brains that fail ---------------------------------------------------------------------------


async def test_crash_is_reported_with_exit_status() -> None:
    engine = await GomocupEngine.popen(brain("crash"))
    try:
        await engine.start(timeout=ANSWER)
        with pytest.raises(EngineCrashed, match="exit status 3") as info:
            await engine.begin(timeout=ANSWER)
        assert info.value.returncode == 3
        with pytest.raises(EngineCrashed):  # a dead brain stays dead
            await engine.turn("h8", timeout=ANSWER)
    finally:
        await engine.kill()


async def test_silent_brain_times_out_quickly() -> None:
    engine = await GomocupEngine.popen(brain("silent"))
    try:
        await engine.start(timeout=ANSWER)
        began = time.monotonic()
        with pytest.raises(EngineTimeout):
            await engine.begin(timeout=0.3)
        assert 0.25 <= time.monotonic() - began < 3.0
        assert engine.returncode is None  # still running: the caller decides to kill it
    finally:
        assert await engine.kill() is not None


async def test_garbage_answer_is_a_protocol_error() -> None:
    code = (
        "import sys\n"
        "sys.stdin.readline(); print('OK', flush=True)\n"
        "sys.stdin.readline(); print('hello', flush=True)\n"
        "sys.stdin.read()\n"
    )
    engine = await GomocupEngine.popen(inline(code))
    try:
        await engine.start(timeout=ANSWER)
        with pytest.raises(EngineProtocolError, match="'hello'"):
            await engine.begin(timeout=ANSWER)
    finally:
        await engine.kill()


async def test_missing_program_and_end_of_a_stubborn_brain() -> None:
    with pytest.raises(EngineCrashed, match="cannot start"):
        await GomocupEngine.popen(["/nonexistent/pbrain-nothing"])
    # a brain that ignores END is killed after the grace period
    code = "import sys, time\nprint('OK', flush=True)\nsys.stdin.readline()\ntime.sleep(30)\n"
    engine = await GomocupEngine.popen(inline(code))
    await engine.start(timeout=ANSWER)
    began = time.monotonic()
    assert await engine.end(grace=0.2) is not None
    assert time.monotonic() - began < 5.0


def test_synchronous_facade() -> None:
    with SimpleGomocupEngine.popen(brain("greedy", "--chatty")) as engine:
        engine.start(15, timeout=ANSWER)
        engine.configure(timeout_turn=500, rule=int(GomocupRule.RENJU))
        assert engine.about()["name"] == "greedy"
        assert engine.board([("h8", 1), ("h9", 2)], timeout=ANSWER).on_board()
        with pytest.raises(InvalidInput, match="1, 2 or 3"):
            engine.board([("h8", 4)])
        assert any(m.kind == "MESSAGE" for m in engine.messages)
    with SimpleGomocupEngine.popen(brain("silent")) as engine:
        engine.start(timeout=ANSWER)
        with pytest.raises(EngineError):
            engine.begin(timeout=0.2)


def _cpu_ticks(pid: int) -> int:
    """utime + stime of a process, in clock ticks (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


async def _settled_state(pid: int, stopped: bool) -> str:
    """The process state once the signal has been delivered (it takes a moment)."""
    for _ in range(100):
        state = _state(pid)
        if (state == "T") is stopped:
            break
        await asyncio.sleep(0.01)
    return state


async def test_suspended_brain_cannot_ponder() -> None:
    # Gomocup: no pondering; the referee stops a brain between its turns (SIGSTOP / SIGCONT).
    code = (
        "import sys, threading\n"
        "def spin():\n"
        "    while True: pass\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w[0] == 'START':\n"
        "        threading.Thread(target=spin, daemon=True).start(); print('OK', flush=True)\n"
        "    elif w[0] == 'TURN': print('0,0', flush=True)\n"
        "    elif w[0] == 'END': break\n"
    )
    engine = await GomocupEngine.popen(inline(code))
    pid = engine.process.pid
    try:
        await engine.start(timeout=ANSWER)
        assert engine.suspend() is True and engine.suspended
        assert await _settled_state(pid, stopped=True) == "T"
        before = _cpu_ticks(pid)
        await asyncio.sleep(0.5)
        assert _cpu_ticks(pid) - before <= 1  # stopped: no CPU at all
        assert await engine.turn("h8", timeout=ANSWER) == GomocupMove(0, 0)  # resumed for it
        assert not engine.suspended and await _settled_state(pid, stopped=False) != "T"
        before = _cpu_ticks(pid)
        await asyncio.sleep(0.5)
        assert _cpu_ticks(pid) - before >= 2  # running: the spinner burns CPU
        engine.suspend()
    finally:
        assert await engine.end(grace=0.3) is not None  # a stopped brain is still ended
