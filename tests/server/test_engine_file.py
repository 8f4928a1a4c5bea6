"""The operator's engines file checked as strictly as docs/server.md ("Engines") says (issue
35): the program by absolute path, nobody else able to rewrite it, no variable that changes
what a program loads or the server's own settings, a sane ``max_concurrent``; and an engine
player entered at a level its engine does not have is refused when entered, not at play."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

from duiyi.errors import InvalidInput
from duiyi.server.engines.catalog import EngineEntry, EngineList

FAKE = Path(__file__).resolve().parents[1] / "engines" / "fake_gtp.py"


def program(tmp_path: Path, mode: int = 0o755, folder_mode: int = 0o755) -> str:
    """An executable script in its own folder, with those permissions."""
    folder = tmp_path / f"bin-{mode:o}-{folder_mode:o}"
    folder.mkdir()
    path = folder / "engine"
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(mode)
    folder.chmod(folder_mode)
    return str(path)


def entry(**data: Any) -> EngineEntry:
    return EngineEntry.from_json("e", {"game": "go", **data}, "engines.toml")


def test_a_sound_entry_is_read(tmp_path: Path) -> None:
    e = entry(command=[program(tmp_path), "--gtp"], env={"OMP_NUM_THREADS": "1"})
    assert e.command[1:] == ("--gtp",) and e.max_concurrent == 8


def test_a_command_by_bare_name_is_refused_even_when_it_is_on_the_path() -> None:
    # docs/server.md, "Engines" 1: list programs by absolute path (a PATH can change)
    assert os.path.isfile("/bin/sh")
    for bare in ("sh", "./sh", "bin/sh"):
        with pytest.raises(InvalidInput, match="absolute path") as refused:
            entry(command=[bare])
        assert "engines.toml: engine 'e'" in str(refused.value)


def test_a_program_or_folder_everybody_may_rewrite_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="writable by every user"):
        entry(command=[program(tmp_path, mode=0o777)])
    with pytest.raises(InvalidInput, match="directory"):
        entry(command=[program(tmp_path, folder_mode=0o777)])
    # a sticky folder (like /tmp) lets nobody replace another's program
    sticky = program(tmp_path, folder_mode=0o777 | stat.S_ISVTX)
    assert entry(command=[sticky]).command == (sticky,)


@pytest.mark.parametrize(
    "variable", ["LD_PRELOAD", "LD_LIBRARY_PATH", "ld_audit", "DUIYI_DATABASE_URL", "DUIYI_X"]
)
def test_env_may_not_set_the_loader_or_the_servers_own_settings(
    tmp_path: Path, variable: str
) -> None:
    with pytest.raises(InvalidInput, match=f"env: {variable} may not be set"):
        entry(command=[program(tmp_path)], env={variable: "/tmp/evil.so"})
    with pytest.raises(InvalidInput, match="not a variable name"):
        entry(command=[program(tmp_path, mode=0o750)], env={"A=B": "x"})


@pytest.mark.parametrize("value", [0, -1, 65, 10**8, 2.5, True, "4"])
def test_max_concurrent_is_a_whole_number_1_to_64(tmp_path: Path, value: object) -> None:
    with pytest.raises(InvalidInput, match="max_concurrent must be a whole number 1-64"):
        entry(command=[program(tmp_path)], max_concurrent=value)


def test_the_server_does_not_start_with_a_relative_command(tmp_path: Path) -> None:
    engines = tmp_path / "engines.json"
    engines.write_text(json.dumps({"engines": {"gnugo": {"game": "go", "command": ["sh"]}}}))
    with pytest.raises(InvalidInput, match="absolute path"):
        EngineList.load(str(engines))


def test_an_engine_player_at_a_level_its_engine_lacks_is_refused_when_entered(
    tmp_path: Path,
) -> None:
    engines = tmp_path / "engines.json"
    spec = {"game": "go", "command": [sys.executable, str(FAKE)]}
    levelled = {**spec, "level_option": "--level", "levels": [1, 10]}
    engines.write_text(json.dumps({"engines": {"gnugo": levelled, "plain": spec}}))
    server = Server(
        f"sqlite:///{tmp_path / 'db.sqlite3'}", None, extra=("--engines", str(engines))
    ).start(tmp_path)
    try:
        r = httpx.post(
            server.url + "/api/events",
            json={"name": "x", "game": "go", "system": "round-robin", "online": {"size": 9}},
        )
        assert r.status_code == 201, r.text
        key = {"Authorization": f"Bearer {r.json()['organiser_token']}"}
        players = f"{server.url}/api/events/{r.json()['id']}/players"
        for engine in ("gnugo:99", "gnugo:0", "plain:3"):
            r = httpx.post(players, json={"name": "bot", "engine": engine}, headers=key)
            assert r.status_code == 422, (engine, r.text)
            assert "engine" in r.json()["detail"] and "level" in r.json()["detail"]
        csv = {**key, "Content-Type": "text/csv"}
        r = httpx.post(players, content="name,engine\nbot,gnugo:99\n", headers=csv)
        assert r.status_code == 422, r.text
        r = httpx.post(players, json={"name": "bot", "engine": "gnugo:10"}, headers=key)
        assert r.status_code == 200, r.text
        entered = r.json()["players"]
        assert [p.get("extra", {}).get("engine") for p in entered] == ["gnugo:10"]
        r = httpx.patch(f"{players}/1", json={"extra": {"engine": "gnugo:11"}}, headers=key)
        assert r.status_code == 422, r.text
        r = httpx.patch(f"{players}/1", json={"extra": {"engine": "gnugo:3"}}, headers=key)
        assert r.status_code == 200, r.text
    finally:
        server.stop()
