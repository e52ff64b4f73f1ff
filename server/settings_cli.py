"""The server's settings as command-line options and as an example config file.

Both are generated from the one table of settings (`leekha.server.settings`): every
setting is an option (`--name`, or its `flag`), with its help, its kind and its default
shown, and a line of the example file, so none is reachable from one source and not
another.
"""

from __future__ import annotations

import argparse
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

from leekha.server.settings import (
    FIELDS,
    META,
    ServerSettings,
    allowed,
    default_config_path,
    load_settings,
)

#: Metavars of the options whose value is not named by their first word.
METAVARS = {"listen": "ENDPOINT", "web": "ENDPOINT", "web_origin": "ORIGIN"}


def option_flag(name: str) -> str:
    """The command-line option for setting `name`, e.g. "--data" for data_dir."""
    meta = META[name]
    return str(meta["flag"] or "--" + name.replace("_", "-"))


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --config and one option per setting, all defaulting to None (= file or default)."""
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"TOML config file (default: {default_config_path()} if it exists)",
    )
    group = parser.add_argument_group("server settings (override the config file)")
    for f in fields(ServerSettings):
        meta = META[f.name]
        default = f.default if f.default is not MISSING else None
        shown = f" (default: {default})" if default not in (None, ()) else ""
        help_text = f"{meta['help']}{shown}"
        kind = meta["kind"]
        flag = option_flag(f.name)
        if kind == "bool":
            group.add_argument(
                flag,
                dest=f.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=help_text,
            )
            continue
        kwargs: dict[str, Any] = {"dest": f.name, "default": None, "help": help_text}
        if kind == "list":
            help_text = meta["help"]
            kwargs.update(action="append", metavar=METAVARS[f.name], help=help_text)
        elif kind in ("int", "optional_int"):
            kwargs.update(type=int, metavar="N")
        elif kind == "float":
            seconds = f.name.endswith("_s") and not f.name.endswith("per_s")
            kwargs.update(type=float, metavar="SECONDS" if seconds else "X")
        elif kind in ("path", "optional_path"):
            kwargs.update(type=str, metavar="PATH")
        elif meta["choices"]:
            kwargs.update(type=str.lower, choices=meta["choices"])
        else:
            kwargs.update(type=str, metavar=METAVARS.get(f.name, f.name.split("_")[0].upper()))
        group.add_argument(flag, **kwargs)


def settings_from_args(args: argparse.Namespace) -> ServerSettings:
    """Settings for a namespace parsed by a parser set up with `add_server_arguments`."""
    overrides = {name: getattr(args, name, None) for name in FIELDS}
    return load_settings(getattr(args, "config", None), overrides)


def example_config() -> str:
    """A TOML file listing every key, commented out at its default value."""
    lines = [
        "# Leekha server configuration. Every key is optional; the values shown are the",
        "# defaults. Command-line options override this file.",
        "",
    ]
    for f in fields(ServerSettings):
        meta = META[f.name]
        lines.append(f"# {meta['help']}; {allowed(meta)}")
        if f.name == "data_dir":
            lines.append('# data_dir = "~/.local/share/leekha"   # platformdirs user data dir')
        elif f.name == "name":
            lines.append('# name = "Leekha on <hostname>"')
        elif f.name == "log_file":
            lines.append('# log_file = "/var/log/leekha/server.log"   # unset = stderr')
        elif f.name == "tls_cert":
            lines.append('# tls_cert = "/etc/leekha/fullchain.pem"   # unset = self-signed')
        elif f.name == "tls_key":
            lines.append('# tls_key = "/etc/leekha/privkey.pem"   # unset = in tls_cert')
        elif f.name == "game_seed":
            lines.append("# game_seed = 1234   # unset = a random seed for each game")
        else:
            value = f.default
            if isinstance(value, tuple):
                text = "[]"
            elif isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, str):
                text = f'"{value}"'
            else:
                text = repr(value)
            lines.append(f"# {f.name} = {text}")
        lines.append("")
    return "\n".join(lines)
