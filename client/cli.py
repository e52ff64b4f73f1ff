"""The `leekha` command line: one entry point, one subcommand per job.

Each subcommand lives in the module that owns the job and is named here in `COMMANDS`.
Only the module of the subcommand being run is imported, and it imports Twisted,
prompt_toolkit or zeroconf only inside `run`: `leekha --help` loads none of them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from leekha.client.i18n import _
from leekha.common import __version__


def N_(message: str) -> str:  # Babel's marker for text translated later
    """Mark `message` for the catalogues; `_()` translates it when the parser is built."""
    return message


# subcommand -> (module, summary); the module supplies `add_arguments(parser)` and
# `run(args)`, which takes the parsed namespace and returns an exit code.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("leekha.client.tui.play", N_("play against bots right now (embedded server)")),
    "join": ("leekha.client.tui.join", N_("join a server on the network")),
    "replay": (
        "leekha.client.tui.replay",
        N_("step through a finished game from a record export"),
    ),
    "servers": ("leekha.client.discovery", N_("list Leekha servers on the local network")),
    "match": (
        "leekha.client.arena.match",
        N_("pit bot strategies against each other, on this machine or a Dask cluster"),
    ),
    "serve": ("leekha.server.cli", N_("run a table server")),
    "records": ("leekha.server.records_cli", N_("export stored games and player statistics")),
    "bot": ("leekha.client.bot.command", N_("run headless bot clients against a server")),
    "id": ("leekha.client.idcmd", N_("show, export or import your identity key")),
}


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand in `argv`: the top level takes only flags, so it is the first word."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`; its subcommand alone gets its options (all of them when
    `argv` is None, for tests and docs)."""
    only = None if argv is None else _chosen(argv)
    parser = argparse.ArgumentParser(
        prog="leekha",
        description=_("Leekha (ليخة): the Levantine trick-avoidance card game."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"leekha {__version__}",
        help=_("show the version and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, summary) in COMMANDS.items():
        p = sub.add_parser(name, help=_(summary), description=_(summary))
        if argv is None or name == only:
            module = importlib.import_module(module_name)
            module.add_arguments(p)
            p.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args._module.run(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
