"""`leekha bot`: headless bot clients that play over the network like any human.

Bots here are ordinary protocol clients (one connection and one seat each), so they test
the server exactly the way players use it and let user strategies (`module:Class`) play
on any server. Several bots in one process start one after another: each sits before the
next looks the table up, so `--count 4 --table NAME` fills one table without races.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from leekha.client.i18n import _
from leekha.client.options import (
    SEED_MAX,
    add_number,
    add_rules_arguments,
    address_help,
    check_strategy,
    default_help,
    in_range,
    parse_address,
    rules_from_args,
    strategy_help,
    table_name,
    tournament_id,
)

if TYPE_CHECKING:  # the bot client is imported only when the command runs
    from leekha.client.bot.options import BotOptions
    from leekha.protocol.reactor import Reactor


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "address", nargs="?", default="127.0.0.1", metavar="HOST[:PORT]",
        help=default_help(address_help()),
    )  # fmt: skip
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--table",
        metavar="NAME",
        type=table_name,
        help=_(
            "table to play at, by name: join it if it exists and has a free seat, otherwise "
            "create it (the creator is the host and starts the game once all four seats are "
            "full); several `leekha bot` processes given the same --table meet at one table"
        ),
    )
    where.add_argument(
        "--create",
        metavar="NAME",
        type=table_name,
        help=_(
            "always create a new table NAME (the first bot hosts it; the other --count bots "
            "join it)"
        ),
    )
    where.add_argument(
        "--tournament",
        metavar="ID",
        type=tournament_id,
        help=_(
            "enter tournament ID as the client entrant of --name, play wherever the server "
            "seats it, and exit when the tournament finishes"
        ),
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--tls",
        action="store_true",
        help=_("connect with TLS (system CAs, or the certificate seen first: see known_hosts)"),
    )
    parser.add_argument(
        "--password", help=_("table password, to create or to join (default: none)")
    )
    parser.add_argument(
        "--strategy",
        default="random",
        metavar="STRATEGY",
        help=default_help(strategy_help(_(", or module:Class, importable by this process"))),
    )
    parser.add_argument(
        "--name",
        default="bot",
        help=default_help(_("display name, numbered when --count is more than 1")),
    )
    parser.add_argument(
        "--identity",
        action="store_true",
        help=_(
            "prove --name with your identity key (made on first use, see `leekha id`), so "
            "that no one else can take the name on that server; without it the bot is a guest"
        ),
    )
    add_number(parser, "--count", 1, "N", _("bots to run in this process, 1 to 64"), 1, 64)
    add_number(
        parser, "--delay-ms", 0, "MS", _("pause before each move, in milliseconds"), 0, 60_000
    )
    parser.add_argument(
        "--games",
        type=in_range(0, 10**6),
        default=1,
        metavar="N",
        help=default_help(
            _("games to finish before leaving, voting rematch in between; 0 = until stopped")
        ),
    )
    parser.add_argument(
        "--seed",
        type=in_range(0, SEED_MAX),
        default=0,
        help=default_help(_("strategy random seed")),
    )
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log every step"))


def _options(args: argparse.Namespace) -> tuple[list[BotOptions], str | None]:
    """Per-bot options, or an error message for the operator."""
    from leekha.client import identity as I
    from leekha.client.bot.client import BotOptions

    try:
        host, port = parse_address(args.address)
        _config, overrides = rules_from_args(args)
        check_strategy(args.strategy, args.seed)
        identity = I.load_or_create() if args.identity else None
    except (ValueError, OSError) as exc:
        return [], str(exc)
    out = []
    for i in range(args.count):
        out.append(
            BotOptions(
                host=host,
                port=port,
                name=args.name if args.count == 1 else f"{args.name}-{i + 1}",
                strategy=args.strategy,
                table=args.table if args.table is not None else args.create,
                create=args.create if i == 0 else None,
                tournament=args.tournament,
                identity=identity,
                preset=args.rules,
                overrides=overrides,
                password=args.password,
                think_s=args.delay_ms / 1000,
                games=args.games,
                seed=args.seed + i,
                tls=args.tls,
            )
        )
    # With --create only the first bot creates; the rest join that table by name.
    if args.create is not None:
        for o in out[1:]:
            o.table = args.create
    return out, None


def _begin_logging(verbose: bool) -> None:
    from twisted.logger import (
        FilteringLogObserver,
        ILogFilterPredicate,
        ILogObserver,
        LogLevel,
        LogLevelFilterPredicate,
        globalLogBeginner,
        textFileLogObserver,
    )

    level = LogLevel.debug if verbose else LogLevel.info
    predicate = LogLevelFilterPredicate(defaultLogLevel=level)
    if not verbose:  # Twisted's own steps ("Starting factory", each retry) are noise here
        predicate.setLogLevelForNamespace("twisted", LogLevel.warn)
    # Each object adapted to the interface it provides (itself), as Twisted's types ask.
    text = ILogObserver(textFileLogObserver(sys.stderr))
    observer = ILogObserver(FilteringLogObserver(text, [ILogFilterPredicate(predicate)]))
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


def run(args: argparse.Namespace) -> int:
    options, problem = _options(args)
    if problem is not None:
        print(_("leekha bot: {problem}").format(problem=problem), file=sys.stderr)
        return 2
    from leekha.client.eventloop import run_on_reactor

    return run_on_reactor(lambda reactor: _fleet_main(reactor, options, args.verbose))


async def _fleet_main(reactor: Reactor, options: list[BotOptions], verbose: bool) -> int:
    from leekha.client.bot.run import BotFleet

    _begin_logging(verbose)
    fleet = BotFleet(reactor, options)
    reactor.addSystemEventTrigger("before", "shutdown", fleet.shutdown)
    fleet.start()
    code = await fleet.finished.asFuture(asyncio.get_running_loop())
    if fleet.error is not None:
        print(_("leekha bot: {problem}").format(problem=fleet.error), file=sys.stderr)
    return code
