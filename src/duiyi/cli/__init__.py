"""The ``duiyi`` command line: one Typer app with a sub-app per room.

Each room's commands live in their own module (``duiyi.cli.go``, ``duiyi.cli.gomoku``, ...) which
exposes a ``typer.Typer`` named ``app``. Every :class:`duiyi.errors.DuiyiError` becomes one line
on stderr and exit code 2.

>>> main(["--help"])  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

import typer

from duiyi import __version__
from duiyi.errors import DuiyiError

__all__ = ["app", "main"]

app = typer.Typer(
    name="duiyi",
    help="对弈 duiyi: Go (2002) and Gomoku (2013) under the Chinese competition rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

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


def _register() -> None:
    for name, module_name, help_text in _ROOMS:
        full = f"duiyi.cli.{module_name}"
        try:
            module = importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name == full:
                continue
            raise
        sub = module.app
        if isinstance(sub, typer.Typer):
            app.add_typer(sub, name=name, help=help_text)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"duiyi {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """对弈 duiyi: Go (2002) and Gomoku (2013) under the Chinese competition rules."""


_register()


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; errors from duiyi print one line and exit with code 2."""
    try:
        app(args=list(argv) if argv is not None else None)
    except DuiyiError as exc:
        print(f"duiyi: error: {exc}", file=sys.stderr)
        sys.exit(2)
