"""``python -m duiyi`` runs the CLI."""

from duiyi.cli import main

main()
