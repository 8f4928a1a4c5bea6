"""``duiyi clock``: run a game clock in the terminal with the arbiter's calls.

This is an adapter: it reads the wall clock (``time.monotonic``) and feeds it, scaled by
``--speed``, to the pure :class:`duiyi.clock.Clock`.

    duiyi clock demo --system chinese-byoyomi --base 0 --reserved 3
    duiyi clock demo --system japanese-byoyomi --period 30 --speed 10 --press 12 --press 40
    duiyi clock settings --system moves-per-period --base 3600 --moves 15 --period 600
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import Annotated

import typer

from duiyi import BLACK, Color
from duiyi.cli import room
from duiyi.clock import (
    Absolute,
    ChineseByoyomi,
    Clock,
    Fischer,
    JapaneseByoyomi,
    MovesPerPeriod,
    NoTime,
    SharedPool,
    TimeSystem,
)
from duiyi.errors import InvalidInput
from duiyi.gtp.clock import kgs_time_settings, time_settings

__all__ = ["app", "build_system", "run_demo"]

app = room("clock")

SYSTEMS = (
    "absolute",
    "chinese-byoyomi",
    "japanese-byoyomi",
    "moves-per-period",
    "fischer",
    "shared",
    "none",
)

# the options that name a time system, the same for every command (build_system's arguments)
SystemOpt = Annotated[str, typer.Option(help="one of " + ", ".join(SYSTEMS))]
BaseOpt = Annotated[float | None, typer.Option(help="main time in seconds")]
ReservedOpt = Annotated[int, typer.Option(help="reserved minutes (Chinese byo-yomi)")]
PeriodsOpt = Annotated[int, typer.Option(help="byo-yomi periods (Japanese)")]
PeriodOpt = Annotated[float | None, typer.Option(help="period length in seconds")]
MovesOpt = Annotated[int, typer.Option(help="moves per period (moves-per-period)")]
IncrementOpt = Annotated[float, typer.Option(help="Fischer increment in seconds")]
CapOpt = Annotated[float | None, typer.Option(help="Fischer cap in seconds")]


def build_system(
    system: str,
    *,
    base: float | None = None,
    reserved: int = 3,
    periods: int = 3,
    period: float | None = None,
    moves: int = 15,
    increment: float = 10.0,
    cap: float | None = None,
) -> TimeSystem:
    """The time system named on the command line (defaults suit a short demo).

    >>> build_system("chinese-byoyomi", base=0, reserved=2).describe()
    '0 min + 2 reserved minutes (读秒)'
    """
    name = system.strip().lower()
    if name == "absolute":
        return Absolute(base=60 if base is None else base)
    if name in ("chinese-byoyomi", "chinese", "byoyomi"):
        return ChineseByoyomi(base=0 if base is None else base, reserved_minutes=reserved)
    if name in ("japanese-byoyomi", "japanese"):
        return JapaneseByoyomi(
            base=0 if base is None else base,
            periods=periods,
            period=30 if period is None else period,
        )
    if name in ("moves-per-period", "canadian"):
        return MovesPerPeriod(
            base=60 if base is None else base, moves=moves, period=300 if period is None else period
        )
    if name == "fischer":
        return Fischer(base=60 if base is None else base, increment=increment, cap=cap)
    if name in ("shared", "shared-pool"):
        return SharedPool(base=600 if base is None else base)
    if name == "none":
        return NoTime()
    raise InvalidInput(f"unknown time system {system!r}; one of {', '.join(SYSTEMS)}")


def _fmt(seconds: float) -> str:
    if seconds == float("inf"):
        return "∞"
    m, s = divmod(max(seconds, 0.0), 60.0)
    return f"{int(m):02d}:{s:04.1f}"


def run_demo(
    system: TimeSystem,
    *,
    seconds: float,
    presses: list[float],
    lang: str = "zh",
    echo: Callable[[str], None] = print,
    now_fn: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    speed: float = 1.0,
    keys: Callable[[], str | None] | None = None,
) -> Color | None:
    """Run ``system`` for ``seconds`` of clock time, pressing at the given clock times; print
    each call as it falls due. Returns the colour whose flag fell, if any.

    ``keys`` (interactive use) is polled for typed lines: an empty line presses the clock for
    the player on move, ``p`` pauses or resumes (Go §14), ``q`` quits.
    """
    if speed <= 0:
        raise InvalidInput("--speed must be positive")
    clock = Clock(system, to_move=BLACK, now=0.0)
    echo(f"{system.describe()} — Black to move")
    start = now_fn()
    pending = sorted(p for p in presses if 0 <= p <= seconds)
    said = 0.0
    while True:
        sim = min((now_fn() - start) * speed, seconds)
        mover = clock.to_move
        assert mover is not None
        key = keys() if keys is not None else None
        if key is not None:
            key = key.strip().lower()
            if key == "q":
                echo(f"[{_fmt(sim)}] stopped")
                return None
            if key == "p":
                (clock.resume if clock.paused else clock.pause)(sim)
                echo(f"[{_fmt(sim)}] {'paused' if clock.paused else 'resumed'}")
                continue
            if not clock.paused and clock.flagged(sim) is None:
                pending.insert(0, sim)
        flag = clock.flag_time()
        horizon = min(sim, flag) if flag is not None else sim
        if pending:
            horizon = min(horizon, pending[0])
        for call in clock.calls_between(mover, said, horizon):
            echo(
                f"[{_fmt(call.at)}] {mover.zh if lang == 'zh' else mover.value}: {call.text(lang)}"
            )
        said = max(said, horizon)
        if flag is not None and flag <= sim and (not pending or flag <= pending[0]):
            echo(f"[{_fmt(flag)}] {mover.value} lost on time ({clock.system.name})")
            return mover
        if pending and pending[0] <= sim:
            at = pending.pop(0)
            clock.press(mover, at)
            left = clock.remaining(mover, at)
            echo(
                f"[{_fmt(at)}] {mover.value} moves: {_fmt(left.base)} left"
                + (f", {left.periods} periods" if left.periods else "")
            )
            continue
        if sim >= seconds:
            for c in (BLACK, BLACK.opponent):
                left = clock.remaining(c, seconds)
                echo(f"{c.value}: {_fmt(left.base)} main, {left.periods} periods/moves")
            return None
        targets = [seconds]
        if flag is not None:
            targets.append(flag)
        if pending:
            targets.append(pending[0])
        nxt = next(iter(clock.calls_between(mover, sim, seconds)), None)
        if nxt is not None:
            targets.append(nxt.at)
        wait = (min(targets) - sim) / speed
        sleep(min(max(wait, 0.0), 0.5 if keys is None else 0.05))


@app.command()
def demo(
    system: SystemOpt = "chinese-byoyomi",
    base: BaseOpt = None,
    reserved: ReservedOpt = 3,
    periods: PeriodsOpt = 3,
    period: PeriodOpt = None,
    moves: MovesOpt = 15,
    increment: IncrementOpt = 10.0,
    cap: CapOpt = None,
    press: list[float] | None = typer.Option(  # noqa: B008 (Typer's way)
        None, help="clock times (s) at which the player on move presses"
    ),
    speed: float = typer.Option(1.0, help="run the clock this many times faster than real time"),
    seconds: float = typer.Option(600.0, help="stop after this much clock time"),
    lang: str = typer.Option("zh", help="zh or en"),
    interactive: bool = typer.Option(
        False, help="press Enter to press the clock, p to pause/resume, q to quit"
    ),
) -> None:
    """Run a clock in the terminal and print the arbiter's calls (Go §12.3)."""
    keys: Callable[[], str | None] | None = None
    if interactive:
        lines: queue.Queue[str] = queue.Queue()

        def read() -> None:
            for line in sys.stdin:
                lines.put(line)
            lines.put("q")

        threading.Thread(target=read, daemon=True).start()

        def poll() -> str | None:
            try:
                return lines.get_nowait()
            except queue.Empty:
                return None

        keys = poll
        typer.echo("Enter: press the clock   p: pause/resume   q: quit")
    ts = build_system(
        system,
        base=base,
        reserved=reserved,
        periods=periods,
        period=period,
        moves=moves,
        increment=increment,
        cap=cap,
    )
    run_demo(
        ts,
        seconds=seconds,
        presses=list(press or []),
        lang=lang,
        speed=speed,
        echo=typer.echo,
        keys=keys,
    )


@app.command()
def settings(
    system: SystemOpt = "chinese-byoyomi",
    base: BaseOpt = None,
    reserved: ReservedOpt = 3,
    periods: PeriodsOpt = 3,
    period: PeriodOpt = None,
    moves: MovesOpt = 15,
    increment: IncrementOpt = 10.0,
    cap: CapOpt = None,
) -> None:
    """Print a time system's GTP and KGS settings commands."""
    ts = build_system(
        system,
        base=base,
        reserved=reserved,
        periods=periods,
        period=period,
        moves=moves,
        increment=increment,
        cap=cap,
    )
    typer.echo(ts.describe())
    for cmd in (time_settings(ts), kgs_time_settings(ts)):
        typer.echo(cmd.command + ("" if cmd.exact else "   # approximate"))
