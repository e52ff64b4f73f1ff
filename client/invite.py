"""`leekha invite HOST[:PORT] TABLE`: print the one line that takes a friend to a table.

It asks the server, so the line is never wrong: the table must exist (named by its id or
its name), and for a TLS server the fingerprint is the certificate the server really
shows, checked the way `leekha join` checks it. The password is carried only when the
host passes it (`--password`), since the line may travel where the host cannot see, and
only once the server has taken it (a wrong one fails; a friend whose line carries none is
asked for it). The
line's form is `leekha.protocol.invite`'s; a key at the table prints the same line.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from leekha.client.i18n import N_, _
from leekha.client.options import address_help
from leekha.protocol.invite import Invite, InviteError, web_link
from leekha.protocol.views import TableSummary

if TYPE_CHECKING:
    from leekha.client.session import ClientSession
    from leekha.client.tournament.link import Link
    from leekha.protocol.reactor import ReactorTime

#: What is wrong with a pasted line, by `InviteError.code`, in the reader's language.
PROBLEMS = {
    "bad_fingerprint": N_("the fingerprint must be 64 hex digits (SHA-256)"),
    "bad_host": N_("the host is missing or malformed"),
    "bad_port": N_("the port must be 1..65535"),
    "bad_table": N_("the table must be a whole number from 0 up"),
    "not_invite": N_("an invitation starts with leekha://"),
    "bad_address": N_("the address in the invitation is malformed"),
    "no_table": N_("the invitation names no table (…/TABLE, a number)"),
    "bad_option": N_("unknown invitation option {option!r}"),
    "twice": N_("an invitation option is given twice"),
    "bad_tls": N_("tls must be 0 or 1"),
    "bad_password": N_("the password must be 1 to 64 characters"),
}


def read_invite(text: str) -> Invite:
    """`Invite.parse`, its refusal worded in the reader's language (a ValueError)."""
    try:
        return Invite.parse(text)
    except InviteError as exc:
        words = PROBLEMS.get(exc.code)
        raise ValueError(_(words).format(**exc.facts) if words else str(exc)) from None


def page_of(session: ClientSession) -> str | None:
    """The server's table page (its welcome's `web`) for the browser link; None when
    offline or when the server serves none."""
    welcome = session.proto.welcome if session.proto is not None else None
    return welcome.web if welcome is not None else None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", help=address_help())
    parser.add_argument("table", metavar="TABLE", help=_("the table: its number or its name"))
    parser.add_argument(
        "--password",
        default=None,
        metavar="PASSWORD",
        help=_("carry the table's password in the line (anyone who sees it can sit)"),
    )
    parser.add_argument("--tls", action="store_true", help=_("the server serves TLS"))


def find_table(tables: list[TableSummary], wanted: str) -> TableSummary | None:
    """The table a person named: by its number first, else by its exact name, else by a
    name that differs only in case."""
    if wanted.isdigit():
        for t in tables:
            if int(t["id"]) == int(wanted):
                return t
    exact = [t for t in tables if str(t["name"]) == wanted]
    folded = [t for t in tables if str(t["name"]).casefold() == wanted.casefold()]
    return next(iter(exact or folded), None)


def run(args: argparse.Namespace) -> int:
    from leekha.client.eventloop import run_on_reactor
    from leekha.client.options import parse_address

    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        print(_("leekha invite: {problem}").format(problem=exc), file=sys.stderr)
        return 2
    if args.password is not None and not 1 <= len(args.password) <= 64:
        print(_("leekha invite: a password is 1 to 64 characters"), file=sys.stderr)
        return 2
    return run_on_reactor(lambda reactor: invite_main(reactor, host, port, args))


async def _check_password(link: Link, table_id: int, password: str | None) -> str | None:
    """Whether the table takes `password`, asked of the server the one way it answers
    that: watch the table with it (refused with `bad_password` before anything else is
    done) and leave at once. None when it does, else the words to print."""
    from leekha.client.core import intents as I
    from leekha.client.tournament.link import Refused

    try:
        await link.ask(I.Spectate(table_id, password))
    except Refused as exc:
        if exc.code == "bad_password":
            return _("that is not the table's password: the line would not seat anyone")
        raise
    await link.ask(I.Leave())
    return None


async def invite_main(reactor: ReactorTime, host: str, port: int, args: argparse.Namespace) -> int:
    """Connect, find the table, print the line; exit code 1 when any of it fails."""
    from leekha import protocol as P
    from leekha.client.core import intents as I
    from leekha.client.options import default_name
    from leekha.client.session import ConnectFailed, Target, dial_error
    from leekha.client.tournament.link import Link, Refused

    link = Link(reactor, Target(host, port, bool(args.tls)), f"{default_name()}-invite")
    try:
        await link.open()
    except Exception as exc:
        print(_("leekha invite: {problem}").format(problem=dial_error(exc)), file=sys.stderr)
        return 1
    try:
        tables: list[TableSummary] = []
        cursor: int | None = None
        while True:
            reply = await link.ask(I.ListTables(cursor=cursor))
            assert isinstance(reply, P.TableList)
            tables += reply.tables
            if reply.next is None:
                break
            cursor = reply.next
        table = find_table(tables, args.table)
        if table is None:
            print(
                _("leekha invite: no table {table!r} on this server").format(table=args.table),
                file=sys.stderr,
            )
            return 1
        password = args.password
        if table.get("has_password") and password is None:
            print(
                _("(the table has a password: give it with --password to carry it)"),
                file=sys.stderr,
            )
        elif table.get("has_password"):
            problem = await _check_password(link, int(table["id"]), password)
            if problem is not None:
                print(_("leekha invite: {problem}").format(problem=problem), file=sys.stderr)
                return 1
        elif password is not None:
            print(_("(the table has no password: the line carries none)"), file=sys.stderr)
            password = None
        invite = Invite(
            host, port, int(table["id"]), password, bool(args.tls), link.session.fingerprint
        )
        print(invite.line())
        address = page_of(link.session)
        if address is not None:  # the same table for a browser
            print(web_link(address, invite.table_id, invite.password))
        return 0
    except (Refused, ConnectFailed) as exc:
        print(_("leekha invite: {problem}").format(problem=exc), file=sys.stderr)
        return 1
    finally:
        await link.close()
