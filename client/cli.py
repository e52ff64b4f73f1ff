"""The `leekha` command line: one entry point, one subcommand per job.

Each subcommand lives in the module that owns the job and registers itself here through
`COMMANDS`; heavy imports (Twisted, prompt_toolkit) happen only when a command runs, so
`leekha --help` stays instant.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from leekha.common import __version__

# subcommand -> "module:function"; the module supplies `add_arguments(parser)` and the
# function takes the parsed namespace and returns an exit code.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("leekha.client.tui.play", "play against bots right now (embedded server)"),
    "join": ("leekha.client.tui.join", "join a server on the network"),
    "replay": ("leekha.client.tui.replay", "step through a finished game from a record export"),
    "servers": ("leekha.client.discovery", "list Leekha servers on the local network"),
    "match": ("leekha.client.arena.match", "run an in-process bot arena"),
    "serve": ("leekha.server.cli", "run a table server"),
    "records": ("leekha.server.records_cli", "export stored games and player statistics"),
    "bot": ("leekha.client.bot.command", "run headless bot clients against a server"),
    "id": ("leekha.client.idcmd", "show, export or import your identity key"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="leekha",
        description="Leekha (ليخة): the Levantine trick-avoidance card game.",
    )
    parser.add_argument("--version", action="version", version=f"leekha {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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
