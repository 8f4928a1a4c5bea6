"""The event file's advisory lock: two directors' commands never lose each other's change.

Not a rulebook matter; the contract is the CLI's (one line on stderr, exit code 2, the file
untouched when a command is refused).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from tests.tournament.conftest import run

from duiyi.errors import EventFileError
from duiyi.tournament.event import add_players, new_event
from duiyi.tournament.formats import eventfile
from duiyi.tournament.formats.eventfile import event_lock, load_event, lock_path, save_event
from duiyi.tournament.model import Player


def test_a_locked_event_refuses_a_second_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ev = tmp_path / "e.json"
    save_event(add_players(new_event("e", "go", "swiss", 3), [Player(0, n) for n in "ABCD"]), ev)
    before = ev.read_bytes()
    monkeypatch.setattr(eventfile, "LOCK_WAIT", 0.1)
    with event_lock(ev):  # another director is between load and save
        for args in (
            ("event", "pair", str(ev)),
            ("event", "lots", str(ev), "--seed", "1"),
            ("event", "withdraw", str(ev), "2"),
            ("event", "new", str(ev), "--game", "go", "--system", "swiss", "--force"),
        ):
            code, _, err = run(capsys, *args)
            assert code == 2 and err.count("\n") == 1
            assert "being changed by another duiyi command" in err
        # reading needs no lock: the writes are atomic
        assert run(capsys, "event", "standings", str(ev))[0] == 0
        assert run(capsys, "event", "players", str(ev))[0] == 0
        code, _, err = run(capsys, "event", "players", str(ev), "--draw", "3")
        assert code == 2 and "being changed" in err
    assert ev.read_bytes() == before
    assert not lock_path(ev).exists()
    # once released the command goes through
    assert run(capsys, "event", "pair", str(ev))[0] == 0
    assert load_event(ev).current_round == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.json"]


def test_the_lock_is_released_on_error(tmp_path: Path) -> None:
    ev = tmp_path / "e.json"
    with pytest.raises(RuntimeError), event_lock(ev):
        raise RuntimeError("boom")
    with event_lock(ev, wait=0):
        pass


def test_concurrent_writers_all_land(tmp_path: Path) -> None:
    # twelve writers each add one player by load–change–save: without the lock the last
    # write wins and players go missing; with it every one of them is in the file
    ev = tmp_path / "e.json"
    save_event(new_event("e", "go", "swiss", 3), ev)
    errors: list[BaseException] = []

    def add(name: str) -> None:
        try:
            with event_lock(ev, wait=30):
                event = load_event(ev)
                save_event(add_players(event, [Player(0, name)]), ev)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=add, args=(f"P{i}",)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(p.name for p in load_event(ev).players) == sorted(f"P{i}" for i in range(12))
    assert not lock_path(ev).exists()


def test_an_unwritable_directory_is_one_clear_error(tmp_path: Path) -> None:
    with (
        pytest.raises(EventFileError, match="cannot create the lock file"),
        event_lock(tmp_path / "missing" / "e.json", wait=0),
    ):
        pass
