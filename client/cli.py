"""The `leekha` command line: one entry point, one subcommand per job.

Each subcommand lives in the module that owns the job and is named here in `COMMANDS`.
Only the module of the subcommand being run is imported, and it imports Twisted,
prompt_toolkit or zeroconf only inside `run`: `leekha --help` loads none of them.

`--lang` and `--bidi` belong to every command (before or after its name). They are read
before the parsers are built, because the parsers' help texts are translated as they are
built.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.resources
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from leekha.client import i18n, rtl
from leekha.client.exitcodes import BROKEN_PIPE, INTERRUPTED
from leekha.client.i18n import N_, _
from leekha.client.options import default_help
from leekha.common import __version__

# subcommand -> (module, summary); the module supplies `add_arguments(parser)` and
# `run(args)`, which takes the parsed namespace and returns an exit code.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("leekha.client.tui.play", N_("play against bots right now (embedded server)")),
    "join": ("leekha.client.tui.join", N_("join a server on the network")),
    "replay": (
        "leekha.client.tui.replay",
        N_("step through a finished game from a record export"),
    ),
    "invite": ("leekha.client.invite", N_("print the line that takes a friend to your table")),
    "servers": ("leekha.client.discovery", N_("list Leekha servers on the local network")),
    "match": (
        "leekha.client.arena.match",
        N_("pit bot strategies against each other, on this machine or a Dask cluster"),
    ),
    "serve": ("leekha.server.cli", N_("run a table server")),
    "records": ("leekha.server.records_cli", N_("export stored games and player statistics")),
    "bot": ("leekha.client.bot.command", N_("run headless bot clients against a server")),
    "tournament": (
        "leekha.client.tournament.command",
        N_("create, list, follow and export the tournaments a server runs"),
    ),
    "id": ("leekha.client.idcmd", N_("show, export or import your identity key")),
}


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help and errors are printed in display order (`--bidi`)."""

    def format_help(self) -> str:
        return _shown(super().format_help())

    def format_usage(self) -> str:
        return _shown(super().format_usage())

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        super().exit(status, _shown(message) if message else message)

    def error(self, message: str) -> NoReturn:
        """A bad command line in two lines: what is wrong, and where the usage is (the
        whole usage block buried the one line that matters)."""
        text = argparse._("%(prog)s: error: %(message)s\n") % {  # type: ignore[attr-defined]
            "prog": self.prog,
            "message": message,
        }
        hint = _("(`{prog} --help` lists the options)").format(prog=self.prog)
        self.exit(2, text + hint + "\n")


def _shown(text: str) -> str:
    return rtl.display_lines(text, shutil.get_terminal_size().columns)


def _display_options(parser: argparse.ArgumentParser) -> None:
    """--lang and --bidi, on the top level and on each subcommand. Their values are read by
    `configure_display` before parsing; the parsers only document and check them."""
    parser.add_argument(
        "--lang",
        choices=i18n.LANGUAGES,
        default=None,
        help=_("language: en, ar or it (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG)"),
    )
    parser.add_argument(
        "--bidi",
        choices=rtl.MODES,
        default="auto",
        help=default_help(
            _(
                "reorder right-to-left text for display: on, off, or auto (on for terminals "
                "known not to do it themselves)"
            )
        ),
    )


class _Quiet(argparse.ArgumentParser):
    """The pre-parser: a bad value is said once, by the full parser."""

    def error(self, message: str) -> NoReturn:
        raise SystemExit(2)


def configure_display(argv: Sequence[str]) -> list[str]:
    """Read --lang and --bidi from anywhere in `argv` and set the language and bidi mode;
    returns the other arguments."""
    pre = _Quiet(add_help=False)
    pre.add_argument("--lang", choices=i18n.LANGUAGES, default=None)
    pre.add_argument("--bidi", choices=rtl.MODES, default="auto")
    # Bad values are reported later by the full parser, in the chosen language.
    try:
        known, rest = pre.parse_known_args(argv)
    except SystemExit:
        known, rest = argparse.Namespace(lang=None, bidi="auto"), list(argv)
    i18n.set_language(known.lang or i18n.language_from_environment())
    i18n.translate_argparse()
    rtl.set_enabled(rtl.resolve(known.bidi))
    return list(rest)


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand in `argv` (without --lang/--bidi): the top level takes only flags, so
    it is the first word."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`; its subcommand alone gets its options (all of them when
    `argv` is None, for tests and docs)."""
    only = None if argv is None else _chosen(argv)
    parser = Parser(
        prog="leekha",
        description=_("Leekha (ليخة): the Levantine trick-avoidance card game."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"leekha {__version__}",
        help=_("show the version and exit"),
    )
    _display_options(parser)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    for name, (module_name, summary) in COMMANDS.items():
        p = sub.add_parser(name, help=_(summary), description=_(summary))
        if argv is None or name == only:
            module = importlib.import_module(module_name)
            module.add_arguments(p)
            _display_options(p)
            p.set_defaults(_module=module)
            _mark_parsers(p)
    return parser


def _mark_parsers(parser: argparse.ArgumentParser) -> None:
    """Let each (sub)command's namespace name its own parser, the one that says an
    unknown option with the help to read (`leekha records export --help`)."""
    parser.set_defaults(_parser=parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _mark_parsers(child)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Every way it can end is decided here, once for all commands: a
    reader that went away (a closed pipe) ends it quietly, and Ctrl-C with 130."""
    try:
        try:
            return _run(list(sys.argv[1:] if argv is None else argv))
        finally:  # a closed pipe shows at the last write: this flush, not the one at exit
            sys.stdout.flush()
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return BROKEN_PIPE


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's own flush at exit finds no closed
    pipe and prints nothing (the recipe of Python's signal module documentation; ending
    by SIGPIPE instead would also end a Twisted process whose socket peer hangs up)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout (a test's capture): nothing to flush
        pass


def _run(argv: list[str]) -> int:
    rest = configure_display(argv)
    parser = build_parser(rest)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # argparse names the top level's help for an option only a subcommand's parser
        # could have known; that parser says it, and points at its own help.
        chosen = getattr(args, "_parser", parser)
        chosen.error(argparse._("unrecognized arguments: %s") % " ".join(unknown))  # type: ignore[attr-defined]
    if args.command is None:
        parser.print_help()
        return 0
    if "local" in args and args.local is None:
        # The composition root: the one door into a server on this machine, handed to the
        # commands that need one (leekha play, leekha replay), which never import it.
        args.local = importlib.import_module("leekha.server.local")
    if "web_root" in args and args.web_root is None:
        # The composition root again: the table page ships with the client (client/web/),
        # and `leekha serve` serves the folder it is handed, never importing the client.
        args.web_root = Path(str(importlib.resources.files("leekha.client") / "web"))
    return int(args._module.run(args))


if __name__ == "__main__":
    sys.exit(main())
