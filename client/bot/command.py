"""`leekha bot`: headless bot clients that play over the network like any human.

Bots here are ordinary protocol clients (one connection and one seat each), so they test
the server exactly the way players use it and let user strategies (`module:Class`) play
on any server. Several bots in one process start one after another: each sits before the
next looks the table up, so `--count 4 --table NAME` fills one table without races.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from leekha.common.config import PRESETS, preset
from leekha.common.errors import ConfigError
from leekha.server.reactor import install_asyncio_reactor as install_reactor

TABLE_HELP = (
    "table to play at, by name: join it if it exists and has a free seat, otherwise create "
    "it (the creator is the host and starts the game once all four seats are full). Several "
    "`leekha bot` processes given the same --table meet at one table."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="server address (default %(default)s)")
    parser.add_argument("--port", type=int, required=True, help="server port")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", metavar="NAME", help=TABLE_HELP)
    where.add_argument(
        "--create",
        metavar="NAME",
        help="always create a new table NAME (the first bot hosts it; the other --count bots "
        "join it)",
    )
    parser.add_argument(
        "--rules",
        default="classic",
        metavar="PRESET",
        help=f"rules preset when creating: {', '.join(sorted(PRESETS))} (default %(default)s)",
    )
    parser.add_argument(
        "--target", type=int, help="override the game's target score when creating (short games)"
    )
    parser.add_argument("--password", help="table password (to create or to join)")
    parser.add_argument(
        "--strategy",
        default="random",
        help="random, heuristic, search, or module:Class (default %(default)s)",
    )
    parser.add_argument("--name", default="bot", help="display name; numbered when --count > 1")
    parser.add_argument(
        "--count", type=int, default=1, help="bots to run in this process (default 1)"
    )
    parser.add_argument(
        "--think-ms", type=int, default=0, help="pause before each move (default 0)"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        help="games to finish before leaving, voting rematch in between; 0 = until stopped "
        "(default 1)",
    )
    parser.add_argument("--seed", type=int, default=0, help="strategy random seed")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every step")


def _options(args: argparse.Namespace) -> tuple[list[Any], str | None]:
    """Per-bot options, or an error message for the operator."""
    from leekha.client.bot.client import BotOptions
    from leekha.common.bots.base import make_strategy

    if not 0 < args.port < 65536:
        return [], f"bad port {args.port}: use 1..65535"
    if not 1 <= args.count <= 64:
        return [], "--count must be 1..64"
    if args.games < 0 or args.think_ms < 0:
        return [], "--games and --think-ms must not be negative"
    overrides: dict[str, Any] = {}
    if args.target is not None:
        overrides["target"] = args.target
    try:
        preset(args.rules, overrides)
        make_strategy(args.strategy, args.seed)
    except (ConfigError, ValueError) as exc:
        return [], str(exc)
    out = []
    for i in range(args.count):
        out.append(
            BotOptions(
                host=args.host,
                port=args.port,
                name=args.name if args.count == 1 else f"{args.name}-{i + 1}",
                strategy=args.strategy,
                table=args.table if args.table is not None else args.create,
                create=args.create if i == 0 else None,
                preset=args.rules,
                overrides=overrides,
                password=args.password,
                think_s=args.think_ms / 1000,
                games=args.games,
                seed=args.seed + i,
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
        LogLevel,
        LogLevelFilterPredicate,
        globalLogBeginner,
        textFileLogObserver,
    )

    level = LogLevel.debug if verbose else LogLevel.info
    predicate: Any = LogLevelFilterPredicate(defaultLogLevel=level)
    text: Any = textFileLogObserver(sys.stderr)
    observer: Any = FilteringLogObserver(text, [predicate])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


def run(args: argparse.Namespace) -> int:
    options, problem = _options(args)
    if problem is not None:
        print(f"leekha bot: {problem}", file=sys.stderr)
        return 2
    reactor = install_reactor()
    _begin_logging(args.verbose)

    from leekha.client.bot.run import BotFleet

    fleet = BotFleet(reactor, options)
    reactor.callWhenRunning(fleet.start)
    reactor.addSystemEventTrigger("before", "shutdown", fleet.shutdown)
    reactor.run()
    if fleet.error is not None:
        print(f"leekha bot: {fleet.error}", file=sys.stderr)
    return fleet.code
