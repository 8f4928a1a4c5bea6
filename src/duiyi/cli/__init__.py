"""The ``duiyi`` command line: one Typer app with a sub-app per room.

Each room's commands live in their own module (``duiyi.cli.go``, ``duiyi.cli.gomoku``, ...) which
exposes a ``typer.Typer`` named ``app``. The rooms are imported lazily, when a command of theirs
runs (``duiyi --help`` lists them from the table below without importing any), so that starting
the program costs little more than starting Typer (bench/cli_startup.py).

Every :class:`duiyi.errors.DuiyiError` and every usage error (an unknown option or command, a
value that is no number...) becomes one line on stderr and exit code 2, as the README promises.

>>> main(["--help"])  # doctest: +SKIP
"""

from __future__ import annotations

import difflib
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

try:  # Typer >= 0.2x carries its own copy of click; its commands and errors are that copy's
    from typer import _click as click
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover - older Typer uses click itself
    import click  # type: ignore[no-redef]
    from click.exceptions import ClickException, UsageError  # type: ignore[assignment]

from duiyi import __version__
from duiyi.errors import DuiyiError

__all__ = ["app", "main", "room"]

# (command name, module under duiyi.cli, help). A module that does not exist yet is skipped.
_ROOMS: tuple[tuple[str, str, str], ...] = (
    ("go", "go", "Go: replay, score and draw games (Go rules 2002)."),
    ("gomoku", "gomoku", "Gomoku/Renju: forbidden points, replay, openings, matches (2013 rules)."),
    ("clock", "clock", "Game clocks of every time system, with the arbiter's spoken calls."),
    ("schedule", "schedule", "Print pairing schedules (Berger tables, brackets)."),
    ("event", "event", "Run a tournament from one event file."),
    ("gtp", "gtp", "Run duiyi as a GTP engine (rules-exact board for GUIs)."),
    ("serve", "serve", "Start the web server."),
)


_HELP = {name: help_text for name, _module, help_text in _ROOMS}
_MODULES = {name: module for name, module, _help in _ROOMS}


def room(name: str, **settings: Any) -> typer.Typer:
    """The ``app`` of the room ``name``, with its line of help from :data:`_ROOMS` and the
    settings every room shares (help when called bare, no shell completion, plain tracebacks).

    >>> app = room("gtp", no_args_is_help=False)
    >>> app.info.name, app.info.help, app.info.no_args_is_help, app.pretty_exceptions_enable
    ('gtp', 'Run duiyi as a GTP engine (rules-exact board for GUIs).', False, False)
    """
    shared: dict[str, Any] = {"no_args_is_help": True, "pretty_exceptions_enable": False}
    return typer.Typer(name=name, help=_HELP[name], add_completion=False, **(shared | settings))


def _load_room(name: str) -> click.Command | None:
    """Import the room's module and build its click command (None if it does not exist)."""
    full = f"duiyi.cli.{_MODULES[name]}"
    try:
        module = importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            return None
        raise
    sub = module.app
    if not isinstance(sub, typer.Typer):
        return None
    command = typer.main.get_command(sub)
    command.name = name
    command.help = _HELP[name]
    command.short_help = _HELP[name]
    return command


class LazyRooms(TyperGroup):
    """The root group: rooms are listed from :data:`_ROOMS` and imported on first use."""

    _listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        eager = [c for c in super().list_commands(ctx) if c not in _HELP]
        return [*eager, *(name for name, _m, _h in _ROOMS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in _HELP:
            return super().get_command(ctx, cmd_name)
        if self._listing:  # help only needs the name and the line of help
            return TyperCommand(cmd_name, help=_HELP[cmd_name], short_help=_HELP[cmd_name])
        command = _load_room(cmd_name)
        if command is not None:
            self.commands[cmd_name] = command
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as exc:
            close = difflib.get_close_matches(args[0], self.list_commands(ctx), n=1) if args else []
            if close and "Did you mean" not in exc.message:
                exc.message = f"{exc.message} Did you mean {close[0]!r}?"
            raise

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def _flag_type(original: Any) -> Any:
    """Typer's help shows ``<bool>`` beside every flag (``--version <bool>``), as if it took a
    value; a flag takes none, so it shows no type."""

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and self.metavar is None:
            return None
        result: str | None = original(self, ctx)
        return result

    return display_type_rich


if hasattr(typer.core, "TyperOption") and hasattr(typer.core.TyperOption, "display_type_rich"):
    typer.core.TyperOption.display_type_rich = _flag_type(  # type: ignore[method-assign]
        typer.core.TyperOption.display_type_rich
    )


app = typer.Typer(
    name="duiyi",
    cls=LazyRooms,
    help="对弈 duiyi: Go (2002) and Gomoku (2013) under the Chinese competition rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"duiyi {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """对弈 duiyi: Go (2002) and Gomoku (2013) under the Chinese competition rules."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI. Errors from duiyi and usage errors print one line and exit with code 2."""
    try:
        code: Any = app(args=list(argv) if argv is not None else None, standalone_mode=False)
    except DuiyiError as exc:
        print(f"duiyi: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except UsageError as exc:
        line = _usage_line(exc)
        if line:  # no line when the help was shown for a bare group (`duiyi go`)
            print(f"duiyi: error: {line}", file=sys.stderr)
        sys.exit(2)
    except ClickException as exc:
        print(f"duiyi: error: {exc.format_message()}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except typer.Abort:
        print("duiyi: aborted", file=sys.stderr)
        sys.exit(1)
    if isinstance(code, int) and not isinstance(code, bool) and code:
        sys.exit(code)


def _usage_line(exc: UsageError) -> str:
    """``duiyi go score: Invalid value for '--komi': ...`` (the command path, then the message).

    >>> _usage_line(UsageError("No such option: --nope"))
    'No such option: --nope'
    """
    message = " ".join(exc.format_message().split())
    ctx = exc.ctx
    path = ctx.command_path.split(maxsplit=1)[1:] if ctx is not None else []
    if path and message:
        return f"{path[0]}: {message}"
    return message
