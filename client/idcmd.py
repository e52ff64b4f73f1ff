"""`leekha id`: see, export and import the key that proves who you are to servers.

The identity is made on first use by any command that connects; this command exists so
that a person can move it to another machine (export on one, import on the other) or
check its fingerprint when a server operator asks.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from leekha.client import identity as I
from leekha.client.i18n import _


class _ConfigIsAFile(argparse.Action):
    """`--config` names a config file in every command (`leekha serve --config FILE`);
    this command once took it for the identity's folder, so that use gets the new name
    in words rather than a silent change of meaning."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        parser.error(
            _(
                "--config names a config file (as in `leekha serve`); the folder that "
                "holds the identity is --config-dir {folder}"
            ).format(folder=values)
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config-dir",
        dest="config",
        type=Path,
        default=None,
        metavar="DIR",
        help=_("folder that holds the identity (default: the user's config folder)"),
    )
    parser.add_argument("--config", action=_ConfigIsAFile, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="id_command", metavar="ACTION", required=True)
    sub.add_parser("show", help=_("show your public key and fingerprint (made if missing)"))
    sub.add_parser(
        "export", help=_("print your identity as one line of text to carry to another machine")
    )
    imp = sub.add_parser("import", help=_("replace this machine's identity with an exported one"))
    imp.add_argument(
        "line",
        nargs="?",
        default=None,
        metavar="LINE|FILE",
        help=_("the exported line, or a file that holds it (default: read stdin)"),
    )
    imp.add_argument(
        "--force", action="store_true", help=_("replace an existing, different identity")
    )


def run(args: argparse.Namespace) -> int:
    try:
        if args.id_command == "show":
            ident = I.load_or_create(args.config)
            print(_("public key:  {key}").format(key=ident.public_key))
            print(_("fingerprint: {fp}").format(fp=ident.fingerprint))
            print(_("kept in:     {path}").format(path=I.key_path(args.config)))
            return 0
        if args.id_command == "export":
            print(I.load_or_create(args.config).export_line())
            return 0
        return _import(args)
    except I.IdentityError as exc:
        print(_("leekha id: {error}").format(error=exc), file=sys.stderr)
        return 1


def _exported_line(given: str | None) -> str:
    """The exported line: as given, read from the file it names (`leekha id export >
    FILE` on the other machine), or from stdin. An exported line has no path separator
    and is never the name of a file, so the two cannot be confused."""
    if given is None or given == "-":
        return sys.stdin.readline()
    path = Path(given).expanduser()
    if path.is_file() or os.sep in given:
        text = path.read_text(encoding="utf-8").strip()
        return text.splitlines()[0] if text else ""
    return given


def _import(args: argparse.Namespace) -> int:
    try:
        line = _exported_line(args.line)
    except OSError as exc:
        problem = _("cannot read {path}: {problem}").format(path=args.line, problem=exc.strerror)
        print(_("leekha id: {error}").format(error=problem), file=sys.stderr)
        return 1
    new = I.Identity.from_export(line)
    old = I.load(args.config)
    if old is not None and old.public_key != new.public_key and not args.force:
        print(
            _(
                "leekha id: this machine already has another identity ({fp}); "
                "names it claimed would be lost. Use --force to replace it."
            ).format(fp=old.fingerprint),
            file=sys.stderr,
        )
        return 1
    path = I.save(new, args.config)
    print(_("identity {fp} saved in {path}").format(fp=new.fingerprint, path=path))
    return 0
