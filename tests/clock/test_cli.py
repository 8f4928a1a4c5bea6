"""``duiyi clock``: the terminal demo and the settings printer."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from duiyi.cli.clock import app, build_system, run_demo
from duiyi.errors import InvalidInput

runner = CliRunner()


def test_demo_runs_fast_with_the_calls() -> None:
    # Go §12.3 calls, at 2000× so the test takes a fraction of a second.
    result = runner.invoke(
        app,
        [
            "demo",
            "--system",
            "chinese-byoyomi",
            "--base",
            "0",
            "--reserved",
            "2",
            "--speed",
            "2000",
            "--seconds",
            "300",
            "--press",
            "45",
        ],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "[00:30.0] 黑: 30秒" in out
    assert "black moves" in out
    assert "[01:45.0] 白: 1分钟，还剩1分钟" in out
    assert "[02:45.0] 白: 10" in out
    assert "white lost on time" in out


def test_demo_stops_at_the_seconds_limit_in_english() -> None:
    result = runner.invoke(
        app,
        [
            "demo",
            "--system",
            "absolute",
            "--base",
            "600",
            "--speed",
            "5000",
            "--seconds",
            "20",
            "--lang",
            "en",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "lost on time" not in result.output
    assert "black: 09:40.0 main" in result.output


def test_demo_with_a_fake_wall_clock() -> None:
    # The adapter only needs a monotonic source: drive it by hand.
    t = [0.0]
    lines: list[str] = []

    def sleep(dt: float) -> None:
        t[0] += max(dt, 0.01)

    flagged = run_demo(
        build_system("japanese-byoyomi", base=0, periods=1, period=10),
        seconds=100,
        presses=[],
        echo=lines.append,
        now_fn=lambda: t[0],
        sleep=sleep,
        speed=1.0,
        lang="en",
    )
    assert flagged is not None
    assert [x.split("] ")[1] for x in lines[1:4]] == ["black: 1", "black: 2", "black: 3"]
    assert t[0] == pytest.approx(10.0, abs=0.6)


def test_settings_command() -> None:
    result = runner.invoke(app, ["settings", "--system", "fischer", "--base", "300"])
    assert result.exit_code == 0
    assert "time_settings 300 0 0   # approximate" in result.output


def test_unknown_system() -> None:
    with pytest.raises(InvalidInput):
        build_system("hourglass")
    with pytest.raises(InvalidInput):
        run_demo(build_system("none"), seconds=1, presses=[], speed=0)


def test_interactive_keys_press_pause_and_quit() -> None:
    # Enter presses, p pauses (Go §14: the paused time is nobody's), q quits.
    t = [0.0]
    script = {3.0: "", 5.0: "p", 60.0: "p", 64.0: "", 70.0: "q"}
    lines: list[str] = []

    def keys() -> str | None:
        for at in sorted(script):
            if t[0] >= at:
                return script.pop(at)
        return None

    def sleep(dt: float) -> None:
        t[0] += 0.5

    run_demo(
        build_system("absolute", base=100),
        seconds=1000,
        presses=[],
        echo=lines.append,
        now_fn=lambda: t[0],
        sleep=sleep,
        keys=keys,
        lang="en",
    )
    text = "\n".join(lines)
    assert "[00:03.0] black moves: 01:37.0 left" in text
    assert "[00:05.0] paused" in text and "[01:00.0] resumed" in text
    assert "[01:04.0] white moves: 01:34.0 left" in text  # 2 s before the pause + 4 after
    assert text.endswith("[01:10.0] stopped")
