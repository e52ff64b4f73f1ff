"""`leekha join [HOST[:PORT]]`: play on someone's server.

With an address it connects straight away; without one it browses the LAN (mDNS) and
lets the player pick, or asks for an address when nothing answers. The session token is
kept on disk per server and name, so joining the same server again after a crash, a quit
or a reboot resumes the seat. `--tls` (or a server that announces `tls=1`) connects with
TLS, trusting the system CAs or else the certificate seen first. Failures to connect are
printed as one plain sentence and exit code 1, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from leekha.client.i18n import _, ngettext
from leekha.client.options import (
    add_rules_arguments,
    address_help,
    default_help,
    in_range,
    no_terminal,
)
from leekha.client.tui.play import add_screen_arguments
from leekha.common.bots import LEVELS

#: The longest `--wait` a quick-play table may be asked to wait for people.
QUICK_WAIT_MAX_S = 600

if TYPE_CHECKING:
    from leekha.client.identity import Identity
    from leekha.client.tui.app import ClientApp
    from leekha.protocol.invite import Invite
    from leekha.protocol.people import QuickPlay
    from leekha.protocol.reactor import ReactorTime


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "address",
        nargs="?",
        default=None,
        metavar="HOST[:PORT]",
        help=address_help()
        + _("; or an invitation, leekha://HOST:PORT/TABLE?…; omit it to browse the local network"),
    )
    add_screen_arguments(parser, _("your name at the tables (default: your login name)"))
    parser.add_argument(
        "--tls",
        action="store_true",
        help=_("connect with TLS (a server on the internet; automatic when the LAN says so)"),
    )
    parser.add_argument(
        "--guest",
        action="store_true",
        help=_(
            "play as a guest: do not prove your name with your identity key "
            "(see leekha id; a server keeps a proved name for you alone)"
        ),
    )
    quick = parser.add_argument_group(_("quick play (--quick, or Q in the lobby)"))
    quick.add_argument(
        "--quick",
        action="store_true",
        help=_("seat me at once: a table with my rules, or a new one that bots complete"),
    )
    add_rules_arguments(parser)
    quick.add_argument(
        "--level",
        choices=LEVELS,
        default="medium",
        help=default_help(_("how well the bots that complete a quick-play table play")),
    )
    quick.add_argument(
        "--wait",
        type=in_range(0, QUICK_WAIT_MAX_S),
        default=20,
        metavar="SECONDS",
        help=default_help(_("seconds a new quick-play table waits for people before bots fill it")),
    )
    parser.add_argument(
        "--browse-timeout",
        type=in_range(0.1, 60, whole=False),
        default=2.0,
        metavar="SECONDS",
        help=default_help(_("how long to listen for servers on the LAN")),
    )


def choose_server(
    servers: list[Any], ask: Callable[[str], str] = input, say: Callable[[str], None] = print
) -> tuple[str, bool] | None:
    """Let the player pick a found server or type an address: (address, announced TLS);
    None = give up."""
    if not servers:
        say(_("No Leekha servers found on the local network."))
        answer = ask(_("Server address (HOST[:PORT]), or Enter to quit: ")).strip()
        return (answer, False) if answer else None
    say(_("Leekha servers on the local network:"))
    for i, s in enumerate(servers, 1):
        note = "" if s.compatible else "  " + _("(incompatible version)")
        tables = (
            ""
            if s.tables is None
            else "  " + ngettext("{n} table", "{n} tables", s.tables).format(n=s.tables)
        )
        secure = "  TLS" if getattr(s, "tls", False) else ""
        say(f"  {i}. {s.name}  {s.host}:{s.port}{tables}{secure}{note}")
    while True:
        answer = ask(_("Number or address (Enter to quit): ")).strip()
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(servers):
            s = servers[int(answer) - 1]
            return f"{s.host}:{s.port}", s.tls
        if answer.isdigit():
            say(_("Pick 1 to {n}, or type an address.").format(n=len(servers)))
            continue
        return answer, False


def run(args: argparse.Namespace) -> int:
    from leekha.client.invite import read_invite
    from leekha.client.options import default_name, parse_address, rules_from_args

    address, tls = args.address, bool(args.tls)
    label = None  # the server's own name, when the LAN told it
    if address is None:
        from leekha.client.discovery import browse_sync

        print(_("Looking for Leekha servers on the local network…"))
        try:
            servers = browse_sync(float(args.browse_timeout))
        except (OSError, ValueError) as exc:
            print(_("(cannot browse the network: {problem})").format(problem=exc))
            servers = []
        try:
            chosen = choose_server(servers)
        except EOFError:
            chosen = None
        if chosen is None:
            return 1
        address, announced = chosen
        tls = tls or announced
        label = next((s.name for s in servers if f"{s.host}:{s.port}" == address), None)
    invite = None
    try:
        if "leekha://" in address:
            invite = read_invite(address)
            host, port, tls = invite.host, invite.port, tls or invite.tls
        else:
            host, port = parse_address(address)
    except ValueError as exc:
        print(_("leekha join: {problem}").format(problem=exc), file=sys.stderr)
        return 2
    name = (args.name or default_name()).strip()[:24] or "you"
    try:  # every option is checked before the terminal is
        _rules, overrides = rules_from_args(args)
    except ValueError as exc:
        print(_("leekha join: {problem}").format(problem=exc), file=sys.stderr)
        return 2
    if no_terminal("join"):
        return 1
    from leekha.protocol.people import QuickPlay

    level, wait = args.level, args.wait
    quick = QuickPlay(id=0, preset=args.rules, overrides=overrides, bot=level, wait_s=wait)

    from leekha.client.eventloop import run_on_reactor
    from leekha.client.tokens import TokenStore

    identity = None if args.guest else _identity()

    return run_on_reactor(
        lambda reactor: join_main(
            reactor,
            host,
            port,
            name,
            args.ascii,
            trick_hold=args.trick_hold,
            bell=args.bell,
            label=label,
            tls=tls,
            invite=invite,
            quick=quick,
            quick_now=bool(args.quick) and invite is None,
            tokens=TokenStore(),
            identity=identity,
        )
    )


def _identity() -> Identity | None:
    """This user's identity key (made on first use); a broken key file means a guest."""
    from leekha.client import identity as I

    try:
        return I.load_or_create()
    except (I.IdentityError, OSError) as exc:
        print(_("leekha join: playing as a guest: {problem}").format(problem=exc), file=sys.stderr)
        return None


async def join_main(
    reactor: ReactorTime,
    host: str,
    port: int,
    name: str,
    ascii: bool = False,
    *,
    trick_hold: float = 0.0,
    bell: bool = False,
    label: str | None = None,
    ready: Callable[[ClientApp], None] | None = None,
    invite: Invite | None = None,
    quick: QuickPlay | None = None,
    quick_now: bool = False,
    **io: Any,
) -> int:
    """Connect, then run the lobby/table screens until the player quits. `io` passes
    on to ClientApp (input/output for tests; tls, tokens, known_hosts, retry)."""
    from leekha.client.prefs import Prefs, default_path
    from leekha.client.session import ConnectFailed
    from leekha.client.tui.app import ClientApp
    from leekha.client.tui.model import ClientModel
    from leekha.client.tui.play import best_bot

    prefs = io.pop("prefs", None) or Prefs(default_path())
    model = ClientModel(name, ascii=ascii, trick_hold=max(0.0, trick_hold), bell=bell, prefs=prefs)
    model.server_label = label or ""  # the lobby header: the LAN name, else the address
    if quick is not None:
        model.in_lobby.quick = quick
    model.in_lobby.quick_now = quick_now
    if invite is not None:  # an invitation line: that table, its certificate and no other
        model.in_lobby.invited = (invite.table_id, invite.password)
        io.setdefault("pin", invite.fingerprint)
    client = ClientApp(model, reactor, host, port, bot_strategy=best_bot(), **io)
    try:
        await client.connect()
    except ConnectFailed as exc:
        print(_("leekha join: {problem}").format(problem=exc), file=sys.stderr)
        return 1
    if ready is not None:
        ready(client)
    try:
        return await client.run()
    finally:
        # The screen is gone: say it where it stays.
        for notice in [*client.notices, *model.social.keep]:
            print(notice)
