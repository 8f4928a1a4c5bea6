"""The engines a server may run: the operator's list, never a client's command.

``duiyi serve --engines FILE`` (or ``DUIYI_ENGINES=FILE``) reads a TOML or JSON file that names
each engine and gives its command line and limits; ``--gnugo`` (``DUIYI_GNUGO``) adds a
``gnugo`` entry when GNU Go is installed, and ``DUIYI_GOMOKU_ENGINE`` a ``gomocup`` entry. With
none of them the server offers no engine. Requests (a game against the computer, an event's
engine player) name an entry (``"gnugo"``, or ``"gnugo:5"`` for a level when the entry has a
level option); a name the list does not have is refused before anything starts, and no
request can carry a command.

Engine processes run with :func:`engine_environment`: an allow-list of variables (``PATH``,
``HOME``, ``LANG`` ...), never the server's secrets (database URL, passwords, tokens).

>>> text = '''
... [engines.gnugo]
... game = "go"
... command = ["/bin/cat", "--mode", "gtp"]
... level_option = "--level"
... levels = [1, 10]
... level = 1
... max_concurrent = 4
... '''
>>> engines = EngineList.parse(text, "engines.toml")
>>> engines.resolve("gnugo:5", "go").argv
('/bin/cat', '--mode', 'gtp', '--level', '5')
>>> engines.resolve("/bin/sh -c id", "go")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
duiyi.server.engines.catalog.EngineNotOffered: ... not an engine this server offers ...
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from duiyi.errors import InvalidInput
from duiyi.games import GAMES

__all__ = [
    "ENGINE_NAME",
    "EngineEntry",
    "EngineList",
    "EngineNotListed",
    "EngineNotOffered",
    "EngineRun",
    "engine_environment",
    "gnugo_program",
]

#: How a request names an engine: an entry's name, with ``:LEVEL`` when the entry has levels.
ENGINE_NAME: Final = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}(:[0-9]{1,3})?$"
_NAME = re.compile(ENGINE_NAME)

#: An entry's ``max_concurrent`` at most (engine processes of it at once in one process).
MAX_CONCURRENT: Final = 64
_VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

#: The only variables of the server's environment an engine process sees.
ENV_ALLOWED: Final = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")
_DEFAULT_PATH: Final = "/usr/local/bin:/usr/bin:/bin:/usr/games"


class EngineNotOffered(InvalidInput):
    """A request named an engine in a form that is no name (a command, a path) or with a level
    the engine does not have: 422."""


class EngineNotListed(EngineNotOffered):
    """A well-formed engine name the operator's list does not have (or no engine at all for
    the game): 404, the engine is not on this server."""


def engine_environment(
    extra: Mapping[str, str] | None = None, source: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of an engine process: the allow-listed variables of ``source`` (the
    server's environment), then the entry's own ``extra`` (set by the operator).

    >>> env = engine_environment({"OMP_NUM_THREADS": "1"},
    ...                          {"PATH": "/bin", "DUIYI_DATABASE_URL": "postgresql://u:pw@h/db"})
    >>> sorted(env)
    ['OMP_NUM_THREADS', 'PATH']
    """
    source = os.environ if source is None else source
    env = {k: source[k] for k in ENV_ALLOWED if k in source}
    env.setdefault("PATH", _DEFAULT_PATH)
    env.update(extra or {})
    return env


GNUGO_PATHS = ("/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo")


def gnugo_program(env: Mapping[str, str] | None = None) -> str | None:
    """The GNU Go binary: ``DUIYI_GNUGO`` when it names an executable file, else ``gnugo`` on
    the PATH or in /usr/games; None when there is none.

    >>> gnugo_program(env={"DUIYI_GNUGO": "/nowhere/gnugo"}) is None
    True
    """
    env = os.environ if env is None else env
    named = env.get("DUIYI_GNUGO", "")
    # a path names it; unset, or a switch ("1"): look for it
    candidates = [named] if os.sep in named else [shutil.which("gnugo"), *GNUGO_PATHS]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
    return None


@dataclass(frozen=True)
class EngineRun:
    """One resolved engine: the entry and the argv to start (the level option added)."""

    entry: EngineEntry
    argv: tuple[str, ...]
    spec: str

    @property
    def env(self) -> dict[str, str]:
        """The process's environment (:func:`engine_environment`)."""
        return engine_environment(self.entry.env)


@dataclass(frozen=True)
class EngineEntry:
    """An engine the operator offers: its ``name``, ``game`` (``go``: GTP, ``gomoku``: a
    Gomocup brain) and ``command`` (argv), with its limits: ``max_concurrent`` processes of it
    at once in a server process, ``move_seconds`` to answer a move (in a game without a
    clock; a clock's flag comes first otherwise), and an optional level option
    (``level_option`` ``"--level"``, ``levels`` the allowed range, ``level`` the default).

    >>> e = EngineEntry("g", "go", ("/usr/games/gnugo", "--mode", "gtp"), level_option="--level")
    >>> e.argv_for(None)
    ('/usr/games/gnugo', '--mode', 'gtp', '--level', '1')
    """

    name: str
    game: str
    command: tuple[str, ...]
    label: str = ""
    max_concurrent: int = 8
    move_seconds: float | None = None
    level_option: str | None = None
    levels: tuple[int, int] = (1, 10)
    level: int = 1
    env: Mapping[str, str] = field(default_factory=dict)

    def argv_for(self, level: int | None) -> tuple[str, ...]:
        """The command line at ``level`` (the entry's default when None)."""
        if self.level_option is None:
            if level is not None:
                raise EngineNotOffered(f"engine {self.name!r} has no levels")
            return self.command
        chosen = self.level if level is None else level
        low, high = self.levels
        if not low <= chosen <= high:
            raise EngineNotOffered(f"engine {self.name!r}: level must be {low}-{high}")
        return (*self.command, self.level_option, str(chosen))

    def to_json(self) -> dict[str, Any]:
        """What clients are shown (``GET /api/engines``): never the command."""
        out: dict[str, Any] = {"name": self.name, "game": self.game, "label": self.label}
        if self.level_option is not None:
            out["levels"] = list(self.levels)
            out["level"] = self.level
        return out

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any], where: str = "") -> EngineEntry:
        """One entry of the operator's file; InvalidInput naming ``where`` when it is wrong.

        >>> EngineEntry.from_json("x", {"game": "go", "command": "/bin/cat -n"}).command
        ('/bin/cat', '-n')
        >>> EngineEntry.from_json("x", {"game": "go", "command": "/bin/cat", "max_concurrent": 10**8})
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidInput: engine 'x': max_concurrent must be a whole number 1-64 (engine processes at once), got 100000000
        """
        at = f"{where}: engine {name!r}" if where else f"engine {name!r}"
        if not _NAME.match(name) or ":" in name:
            raise InvalidInput(f"{at}: a name is 1-40 letters, digits, '.', '_' or '-'")
        known = {
            "game",
            "command",
            "label",
            "max_concurrent",
            "move_seconds",
            "level_option",
            "levels",
            "level",
            "env",
        }
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput(f"{at}: unknown setting(s) {', '.join(unknown)}")
        game = data.get("game")
        if game not in GAMES:
            raise InvalidInput(f"{at}: game must be 'go' or 'gomoku', got {game!r}")
        raw = data.get("command")
        if isinstance(raw, str):
            argv = tuple(shlex.split(raw))
        elif isinstance(raw, list) and all(isinstance(a, str) for a in raw):
            argv = tuple(raw)
        else:
            raise InvalidInput(f"{at}: command must be a list of strings (argv) or a string")
        if not argv:
            raise InvalidInput(f"{at}: empty command")
        _check_program(argv[0], at)
        levels = data.get("levels", [1, 10])
        if not (
            isinstance(levels, list)
            and len(levels) == 2
            and all(type(v) is int for v in levels)
            and 0 <= levels[0] <= levels[1] <= 999
        ):
            # a request asks for a level in at most three digits (ENGINE_NAME)
            raise InvalidInput(f"{at}: levels must be [LOW, HIGH], whole numbers 0-999")
        env = data.get("env", {})
        if not isinstance(env, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in env.items()
        ):
            raise InvalidInput(f"{at}: env must be a table of strings")
        for variable in env:
            _check_variable(variable, at)
        max_concurrent = data.get("max_concurrent", 8)
        if type(max_concurrent) is not int or not 1 <= max_concurrent <= MAX_CONCURRENT:
            raise InvalidInput(
                f"{at}: max_concurrent must be a whole number 1-{MAX_CONCURRENT} "
                f"(engine processes at once), got {max_concurrent!r}"
            )
        try:
            entry = cls(
                name=name,
                game=str(game),
                command=argv,
                label=str(data.get("label", "")),
                max_concurrent=max_concurrent,
                move_seconds=(
                    None
                    if data.get("move_seconds") is None
                    else float(_positive(data["move_seconds"], at, "move_seconds"))
                ),
                level_option=data.get("level_option"),
                levels=(levels[0], levels[1]),
                level=int(data.get("level", levels[0])),
                env=dict(env),
            )
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"{at}: {exc}") from exc
        if entry.level_option is not None and not isinstance(entry.level_option, str):
            raise InvalidInput(f"{at}: level_option must be a string such as '--level'")
        if not entry.levels[0] <= entry.level <= entry.levels[1]:
            raise InvalidInput(f"{at}: level {entry.level} is outside levels {list(levels)}")
        return entry


def _check_program(program: str, at: str) -> None:
    """The program of an entry's command as docs/server.md asks for it: an absolute path
    (never looked up on a PATH), an executable file that nobody but its owner may rewrite
    (neither it nor its directory writable by all, a sticky directory aside); InvalidInput
    naming ``at`` otherwise.

    >>> _check_program("gnugo", "engines.toml: engine 'g'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: engines.toml: engine 'g': command: 'gnugo' must be the absolute ...
    """
    if not os.path.isabs(program):
        found = shutil.which(program) or shutil.which(program, path="/usr/games")
        hint = f" (here: {found!r})" if found else ""
        raise InvalidInput(
            f"{at}: command: {program!r} must be the absolute path of a program{hint}"
        )
    if not os.path.isfile(program):
        raise InvalidInput(f"{at}: command: {program!r} is not a file")
    if not os.access(program, os.X_OK):
        raise InvalidInput(f"{at}: command: {program} is not executable")
    real = os.path.realpath(program)
    if os.stat(real).st_mode & stat.S_IWOTH:
        raise InvalidInput(f"{at}: command: {real} is writable by every user")
    folder = os.stat(os.path.dirname(real)).st_mode
    if folder & stat.S_IWOTH and not folder & stat.S_ISVTX:
        raise InvalidInput(
            f"{at}: command: {os.path.dirname(real)} (the program's directory) is writable "
            "by every user"
        )


def _check_variable(name: str, at: str) -> None:
    """A variable an entry's ``env`` may set: a plain name, none that changes how programs
    load (``LD_*``) and none of the server's own settings (``DUIYI_*``).

    >>> _check_variable("OMP_NUM_THREADS", "e")
    >>> _check_variable("LD_PRELOAD", "e")
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: e: env: LD_PRELOAD may not be set (LD_* changes what a program loads)
    """
    if not _VARIABLE.match(name):
        raise InvalidInput(f"{at}: env: {name[:40]!r} is not a variable name")
    upper = name.upper()
    if upper.startswith("LD_"):
        raise InvalidInput(f"{at}: env: {name} may not be set (LD_* changes what a program loads)")
    if upper.startswith("DUIYI_"):
        raise InvalidInput(f"{at}: env: {name} may not be set (DUIYI_* are the server's own)")


def _positive(value: Any, at: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise InvalidInput(f"{at}: {what} must be a positive number")
    return value


@dataclass(frozen=True)
class EngineList:
    """The operator's engines by name (empty: none offered)."""

    entries: Mapping[str, EngineEntry] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def of_game(self, game: str) -> list[EngineEntry]:
        """The entries that play ``game``, in the file's order."""
        return [e for e in self.entries.values() if e.game == game]

    def resolve(self, spec: str, game: str) -> EngineRun:
        """The engine a request names (``"gnugo"``, ``"gnugo:5"``) for a game of ``game``;
        :class:`EngineNotOffered` for what is no name (a command, a path),
        :class:`EngineNotListed` for a name the list lacks or another game's.

        >>> EngineList().resolve("gnugo", "go")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        duiyi.server.engines.catalog.EngineNotListed: ... offers none; ...
        """
        offered = ", ".join(e.name for e in self.of_game(game)) or "none"
        refusal = (
            f"{spec[:60]!r} is not an engine this server offers for {game} (it offers "
            f"{offered}; the operator lists engines with `duiyi serve --engines FILE`): "
            "a request names an engine, never a command"
        )
        if not isinstance(spec, str) or not _NAME.match(spec.strip()):
            raise EngineNotOffered(refusal)
        name, _, level = spec.strip().partition(":")
        entry = self.entries.get(name)
        if entry is None or entry.game != game:
            raise EngineNotListed(refusal)
        argv = entry.argv_for(int(level) if level else None)
        return EngineRun(entry, argv, spec.strip())

    def check_entered(self, spec: str, game: str, field: str = "engine") -> None:
        """An engine player entered with ``spec``: refused (:class:`EngineNotOffered`, naming
        ``field``) when this list has the entry for ``game`` but not the level asked for
        (``gnugo:99`` of levels 1-10); a name it does not list is left for the round's play
        (docs/server.md, "Engines": the list may change before then).

        >>> engines = EngineList({"g": EngineEntry("g", "go", ("/bin/cat",), level_option="-l")})
        >>> engines.check_entered("g:3", "go"), engines.check_entered("elsewhere:99", "go")
        (None, None)
        >>> engines.check_entered("g:99", "go")
        Traceback (most recent call last):
        ...
        duiyi.server.engines.catalog.EngineNotOffered: engine: engine 'g': level must be 1-10
        """
        name, _, level = spec.strip().partition(":")
        entry = self.entries.get(name)
        if entry is None or entry.game != game:
            return
        try:
            entry.argv_for(int(level) if level.isdigit() else None)
        except EngineNotOffered as exc:
            raise EngineNotOffered(f"{field}: {exc}") from exc

    def to_json(self) -> dict[str, Any]:
        """``GET /api/engines``: the names by game, and each entry (without its command)."""
        return {
            **{name: [e.name for e in self.of_game(name)] for name in GAMES},
            "engines": [e.to_json() for e in self.entries.values()],
        }

    @classmethod
    def parse(cls, text: str, where: str = "engines") -> EngineList:
        """Read the operator's file: TOML (``[engines.NAME]`` tables) or JSON (``{"engines":
        {NAME: {...}}}``), chosen by ``where``'s suffix (``.json``), else TOML."""
        try:
            data = json.loads(text) if where.endswith(".json") else tomllib.loads(text)
        except (ValueError, tomllib.TOMLDecodeError) as exc:
            raise InvalidInput(f"{where}: cannot read the engine list: {exc}") from exc
        engines = data.get("engines") if isinstance(data, dict) else None
        if not isinstance(engines, dict):
            raise InvalidInput(f"{where}: the engine list needs an 'engines' table")
        entries: dict[str, EngineEntry] = {}
        for name, spec in engines.items():
            if not isinstance(spec, dict):
                raise InvalidInput(f"{where}: engine {name!r} must be a table")
            entries[name] = EngineEntry.from_json(name, spec, where)
        return cls(entries)

    @classmethod
    def load(
        cls,
        path: str | None,
        *,
        gnugo: bool = False,
        env: Mapping[str, str] | None = None,
    ) -> EngineList:
        """The server's list: ``path`` (the operator's file, when given), then the ``gnugo``
        entry when ``gnugo`` is set (GNU Go from ``DUIYI_GNUGO`` when it names a file, else
        found on the machine; level option ``--level``, levels 1-10, default
        ``DUIYI_GNUGO_LEVEL`` or 1) and a ``gomocup`` entry from ``DUIYI_GOMOKU_ENGINE``. The
        file's own entries of those names win.

        >>> EngineList.load(None, env={})
        EngineList(entries={})
        """
        env = os.environ if env is None else env
        entries: dict[str, EngineEntry] = {}
        if gnugo:
            program = gnugo_program(env)
            if program is not None:
                level = env.get("DUIYI_GNUGO_LEVEL", "1")
                entries["gnugo"] = EngineEntry(
                    "gnugo",
                    "go",
                    (program, "--mode", "gtp"),
                    label="GNU Go",
                    level_option="--level",
                    level=int(level) if level.isdigit() and 1 <= int(level) <= 10 else 1,
                )
        brain = env.get("DUIYI_GOMOKU_ENGINE", "").strip()
        if brain:
            entries["gomocup"] = EngineEntry.from_json(
                "gomocup",
                {"game": "gomoku", "command": brain, "label": "Gomocup"},
                "DUIYI_GOMOKU_ENGINE",
            )
        if path:
            file = Path(path)
            try:
                text = file.read_text(encoding="utf-8")
            except OSError as exc:
                raise InvalidInput(f"cannot read the engine list {path}: {exc}") from exc
            entries.update(cls.parse(text, str(file)).entries)
        return cls(entries)
