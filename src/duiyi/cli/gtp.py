"""``duiyi gtp``: run duiyi as a GTP v2 engine on standard input/output.

Point a GUI (Sabaki, GoGui, ...) at ``duiyi gtp`` to get a rules-exact board: every move is
checked under the chosen rules. ``genmove`` plays random legal moves (it is not a strong player).

>>> app.info.name
'gtp'
"""

from __future__ import annotations

import typer

from duiyi.cli import room

__all__ = ["app"]

app = room("gtp", invoke_without_command=True, no_args_is_help=False)


@app.callback()
def _gtp(
    rules: str = typer.Option(
        "chinese",
        "--rules",
        help="Rule set: chinese, japanese, korean, ing, aga, nz, tromp-taylor.",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed of genmove's random player."),
) -> None:
    """Answer GTP commands on stdin/stdout until `quit` or end of input."""
    from duiyi.go.rules import Rules
    from duiyi.gtp.frontend import run

    run(rules=Rules.preset(rules), seed=seed)  # the one list of presets (duiyi.go.rules.PRESETS)
