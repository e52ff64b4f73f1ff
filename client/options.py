"""Options that several `leekha` subcommands take, spelled and checked one way everywhere.

A server address is `HOST[:PORT]` with the default port; a bot's playing style is a
*strategy* (the wire's word); rules are a preset plus `--rule KEY=VALUE` overrides checked
by the same `leekha.common.config.preset` the server runs on `create_table`, so a bad rule
gets the server's own error. Only the pure rules package is imported here: building the
parser must stay cheap (`leekha --help`); the bot registry is imported only by the
commands whose help lists strategies.
"""

from __future__ import annotations

import argparse
import getpass
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from leekha.client import systemlines
from leekha.client.i18n import N_, _
from leekha.common.config import PRESETS, RulesConfig, preset
from leekha.common.errors import ConfigError

if TYPE_CHECKING:
    from leekha.common.bots.base import Strategy

#: The TCP port a Leekha server listens on unless told otherwise; the server's
#: `leekha.server.settings.DEFAULT_PORT` (a test keeps the two equal).
DEFAULT_PORT = 7241

#: The built-in bot tiers, strongest first (what `best` picks from).
STRATEGY_TIERS = ("search", "heuristic", "random")


def default_help(text: str) -> str:
    """Help text with the option's default, written the same way in every command."""
    return text + " " + _("(default: %(default)s)")


#: The largest seed any command takes (a 63-bit whole number, as the wire's ints).
SEED_MAX = 2**63 - 1


def in_range(low: float, high: float, *, whole: bool = True) -> Callable[[str], Any]:
    """argparse's `type` for a number option from `low` to `high` (both included): a
    value out of range is a usage error (exit 2) when the command line is read, before
    any terminal, file or server is looked at. Every numeric option of every command
    takes its type from here, so that none accepts a value its command cannot use."""

    def number(text: str) -> int | float:
        try:
            value: int | float = int(text) if whole else float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # nan, inf and out of range alike
            words = (
                _("a whole number from {low} to {high}, not {text!r}")
                if whole
                else _("a number from {low} to {high}, not {text!r}")
            )
            raise argparse.ArgumentTypeError(
                words.format(low=_shown_number(low), high=_shown_number(high), text=text)
            )
        return value

    number.__name__ = "int" if whole else "float"  # argparse names the type so
    return number


def _shown_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def add_number(
    parser: argparse.ArgumentParser,
    flag: str,
    default: int,
    metavar: str,
    text: str,
    low: int,
    high: int,
) -> None:
    """A whole-number option from `low` to `high` whose help ends with its default, as
    `default_help` writes it."""
    parser.add_argument(
        flag, type=in_range(low, high), default=default, metavar=metavar, help=default_help(text)
    )


def tournament_id(text: str) -> int:
    """A tournament's id as argparse's `type`: the wire takes no negative or huge one."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(
            _("a tournament id is a whole number from 0 up, not {text!r}").format(text=text)
        )
    return value


#: The longest table name the wire carries (leekha.protocol.records.NAME).
TABLE_NAME_MAX = 64


def table_name(text: str) -> str:
    """A table's name as argparse's `type`: what the server would take, checked here so
    that a bad one is a usage error rather than a refusal after connecting."""
    name = text.strip()
    if not 1 <= len(name) <= TABLE_NAME_MAX:
        raise argparse.ArgumentTypeError(
            _("a table name is 1 to {most} characters, not {text!r}").format(
                most=TABLE_NAME_MAX, text=text
            )
        )
    return name


def default_name() -> str:
    """The player's name unless they give one: their login name, or "you"."""
    try:
        return getpass.getuser()[:24] or "you"
    except (KeyError, OSError):  # no such user (pwd), or no name to be found
        return "you"


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """HOST, HOST:PORT or [V6]:PORT; raises ValueError with a plain message."""
    text = text.strip()
    if not text:
        raise ValueError(_("empty address"))
    host, port_text = text, ""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError(_("bad address {text!r}: missing ']'").format(text=text))
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise ValueError(_("bad address {text!r}").format(text=text))
            port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    elif ":" in text and not is_ip(text):
        # More than one colon without brackets can only be a bare IPv6 address: anything
        # else is a typo that would otherwise reach the resolver as a name.
        raise ValueError(_("bad address {text!r}").format(text=text))
    if not host:
        raise ValueError(_("bad address {text!r}: no host").format(text=text))
    if any(c.isspace() or c in "/@?#[]\\" for c in host):  # no host name holds these
        raise ValueError(_("bad address {text!r}").format(text=text))
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(
            _("bad port {port!r}: use a number from 1 to 65535").format(port=port_text)
        )
    return host, int(port_text)


def is_ip(host: str) -> bool:
    """Whether `host` is an IP address (v4 or v6) rather than a name (with a colon in it,
    only a bare IPv6 address can be one)."""
    import ipaddress  # here: every command imports this module, few need this

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def address_help() -> str:
    return _("server address, HOST[:PORT]; the port defaults to {port}").format(port=DEFAULT_PORT)


def strategy_help(extra: str = "", names: Sequence[str] | None = None) -> str:
    """One description of a strategy for every command that takes one: every built-in
    name (what `make_strategy` and a server's bots accept, levels included; the list, not
    the registry, so that building a parser imports no bot), else the `names` given."""
    if names is None:
        from leekha.common.bots import BUILTIN

        names = BUILTIN
    return _("a bot strategy: {tiers}").format(tiers=", ".join(names)) + extra


#: leekha.common.bots.base's StrategyError templates, word for word (a test compares them),
#: so that a bad strategy is refused in the interface language.
STRATEGY_TEMPLATES = (
    N_("unknown strategy {spec!r}: use one of {names}, or module:Class"),
    N_("cannot load strategy {spec!r}: {why}"),
    N_("{spec!r} is not a strategy class: a class that takes a seed is needed"),
    N_("{spec!r} is not a strategy: building it with a seed failed ({why})"),
    N_("{spec!r} is not a strategy: it has no choose_doubles, choose_pass and choose_play"),
    N_("bad think budget {budget!r}: use milliseconds"),
    N_("think budget {budget!r} out of range (0 to 60000 ms)"),
    N_("{spec!r} takes no think budget"),
)


def check_strategy(spec: str, seed: int = 0) -> Strategy:
    """`make_strategy(spec, seed)`, checked before any game: a name the registry does not
    know, or a `module:Class` that is not a strategy, raises ValueError in words."""
    from leekha.common.bots.base import StrategyError, make_strategy

    try:
        return make_strategy(spec, seed)
    except StrategyError as exc:
        raise ValueError(_(exc.template).format(**exc.fields)) from None


def no_terminal(command: str) -> bool:
    """True, having said so, when `leekha COMMAND` cannot draw its screen: the keys come
    from a terminal, and a pipe or /dev/null would end it at once."""
    import sys

    if sys.stdin.isatty() and sys.stdout.isatty():
        return False
    print(
        _("leekha {command}: a terminal is needed (input and output are not a terminal)").format(
            command=command
        ),
        file=sys.stderr,
    )
    return True


def parse_rule(text: str) -> tuple[str, object]:
    """`KEY=VALUE` with VALUE read as JSON when it is JSON (true, 51, "x"), else as text."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise argparse.ArgumentTypeError(
            _("expected KEY=VALUE, for example target=51; got {text!r}").format(text=text)
        )
    raw = raw.strip()
    try:
        value: object = json.loads(raw)
    except ValueError:
        value = raw
    return key, value


def add_ascii_argument(parser: argparse.ArgumentParser) -> None:
    """`--ascii`, for every command that draws cards: play, join and replay."""
    parser.add_argument("--ascii", action="store_true", help=_("C D H S instead of ♣ ♦ ♥ ♠"))


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """`--rules PRESET` and the repeatable `--rule KEY=VALUE` on top of it."""
    parser.add_argument(
        "--rules",
        default="classic",
        choices=sorted(PRESETS),
        metavar="PRESET",
        help=default_help(_("rules preset: {names}").format(names=", ".join(sorted(PRESETS)))),
    )
    parser.add_argument(
        "--rule",
        dest="rule",
        action="append",
        type=parse_rule,
        default=[],
        metavar="KEY=VALUE",
        help=_(
            "change one rules option of the preset, for example --rule talbees=true "
            "--rule target=51; repeatable (options: {keys})"
        ).format(keys=", ".join(f.name for f in fields(RulesConfig))),
    )


def rules_from_args(args: argparse.Namespace) -> tuple[RulesConfig, dict[str, Any]]:
    """The preset with the overrides applied, and the overrides alone; raises ValueError
    with the server's message for the same rules when they do not make a valid game."""
    overrides = dict(args.rule)
    try:
        return preset(args.rules, overrides), overrides
    except ConfigError as exc:
        said = systemlines.rule(exc.rule, exc.facts)
        raise ValueError(exc.message if said is None else said) from None
