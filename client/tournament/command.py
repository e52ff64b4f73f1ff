"""`leekha tournament`: create a tournament on a server, list them, follow one, export one.

`create`, `list` and `status HOST ID` talk to a running server; `status ID` and `export`
read the server's database (`--data-dir`), which SQLite's WAL mode lets us do next to a
running server. The simple case stays simple: three server bots and your own bot are
`--entrant server:heuristic` three times and `--entrant NAME`, then
`leekha bot HOST --tournament ID --name NAME`.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta
from pathlib import Path

from leekha import protocol as P
from leekha.client import options
from leekha.client.i18n import _
from leekha.client.options import default_help
from leekha.protocol.views import EntrantRequest

#: What a server takes in `create_tournament` (server/tournament/plan.py's MAX_DEALS and
#: MAX_STAGES, the wire's 1..3600 s timer; a test keeps them equal), checked on the
#: command line so that a value out of range is a usage error before connecting.
MAX_DEALS = 500
MAX_STAGES = 50
MAX_MOVE_TIMER_S = 3600

SERVER_PREFIX = "server:"


def _address(parser: argparse.ArgumentParser, default: str | None = "127.0.0.1") -> None:
    where = options.address_help()
    parser.add_argument(
        "address", nargs="?", default=default, metavar="HOST[:PORT]",
        help=default_help(where) if default else where + _("; omit it to read the database"),
    )  # fmt: skip
    parser.add_argument(
        "--tls",
        action="store_true",
        help=_("connect with TLS (system CAs, or the certificate seen first: see known_hosts)"),
    )


def _data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", "--data", dest="data_dir", type=Path, default=None, metavar="DIR",
        help=_("the server's data folder, holding leekha.sqlite3 (default: the server's "
               "default, the XDG data home)"),
    )  # fmt: skip


def _tournament_id(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "tournament_id", type=options.tournament_id, metavar="ID", help=_("the tournament's id")
    )


def _follow(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--follow",
        action="store_true",
        help=_("stay connected and print the progress as games finish, then the final "
               "standings"),
    )  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="tournament_command", metavar=_("ACTION"), required=True)
    create = sub.add_parser(
        "create",
        help=_("ask a server to run a tournament"),
        description=_(
            "Ask a server to run a duplicate tournament: every deal is played by each "
            "foursome in all four seat rotations. Example, your bot against three server "
            "bots: --entrant server:heuristic --entrant server:heuristic --entrant "
            "server:search --entrant mybot, then run: leekha bot HOST --tournament ID "
            "--name mybot"
        ),
    )
    _address(create)
    create.add_argument(
        "--entrant",
        action="append",
        default=[],
        metavar="server:STRATEGY|NAME",
        help=_(
            "one entrant, repeatable, 4 to 64 in all: server:STRATEGY for a bot the server "
            "runs ({strategy}), or the session name of a bot client that will enter with "
            "`leekha bot --tournament`"
        ).format(strategy=options.strategy_help()),
    )
    create.add_argument(
        "--name", default="tournament", help=default_help(_("the tournament's name"))
    )
    create.add_argument(
        "--format",
        choices=("round_robin", "swiss"),
        default="round_robin",
        help=default_help(
            _("round_robin: every foursome of entrants plays every deal; swiss: --stages "
              "stages, each grouping entrants of near standing")
        ),
    )  # fmt: skip
    create.add_argument(
        "--deals", type=options.in_range(1, MAX_DEALS), default=8, metavar="N",
        help=default_help(_("deals per foursome (per stage in swiss), each played in all "
                            "four rotations")),
    )  # fmt: skip
    create.add_argument(
        "--stages", type=options.in_range(1, MAX_STAGES), default=None, metavar="N",
        help=_("swiss only: how many stages (default: 3 for swiss)"),
    )  # fmt: skip
    options.add_rules_arguments(create)
    create.add_argument(
        "--move-timer", type=options.in_range(1, MAX_MOVE_TIMER_S), default=None,
        metavar="SECONDS",
        help=_("seconds per decision before the server plays for a silent entrant "
               "(default: the server's)"),
    )  # fmt: skip
    create.add_argument(
        "--start", type=start_of, default=None, metavar="WHEN",
        help=_("when the games begin: HH:MM (today, or tomorrow once that has passed), "
               "YYYY-MM-DD HH:MM, or +MINUTES (+90s, +10m, +2h also work); entrants may "
               "enter before it, and the fallback plays for whoever has not come (default: "
               "as soon as every client entrant has entered)"),
    )  # fmt: skip
    _follow(create)

    listing = sub.add_parser("list", help=_("list a server's tournaments"))
    _address(listing)

    status = sub.add_parser(
        "status",
        help=_("a tournament's standings: from a server, or from its database"),
        description=_(
            "With HOST[:PORT], ask that server; without, read the server's database (--data-dir)."
        ),
    )
    _address(status, default=None)
    _tournament_id(status)
    _data_dir(status)
    status.set_defaults(local=None)  # the command line hands over server/local.py
    _follow(status)

    cancel = sub.add_parser(
        "cancel",
        help=_("cancel a tournament you created (or any, on the server's own machine)"),
        description=_(
            "Its creator (the same name, from the same address, or the same identity) or "
            "the server's operator (run on the server's machine) may cancel a tournament: "
            "its live games stop and it is listed as finished."
        ),
    )
    _address(cancel)
    _tournament_id(cancel)

    export = sub.add_parser(
        "export", help=_("a tournament's full results, every game, from the server's database")
    )
    _tournament_id(export)
    _data_dir(export)
    export.set_defaults(local=None)  # the command line hands over server/local.py
    export.add_argument(
        "--format", choices=("json", "table"), default="json",
        help=default_help(_("output format")),
    )  # fmt: skip
    export.add_argument(
        "--output", "-o", type=Path, default=None, metavar="FILE",
        help=_("write to FILE (default: standard output)"),
    )  # fmt: skip


def entrant_of(spec: str) -> EntrantRequest:
    """`server:STRATEGY` or a client's NAME, as the wire's entrant request."""
    spec = spec.strip()
    if spec.startswith(SERVER_PREFIX):
        strategy = spec[len(SERVER_PREFIX) :].strip()
        if not strategy:
            raise ValueError(_("--entrant server: needs a strategy, e.g. server:heuristic"))
        return {"name": None, "strategy": strategy}
    if not spec:
        raise ValueError(_("--entrant needs server:STRATEGY or a name"))
    return {"name": spec, "strategy": None}


#: A relative start's unit -> seconds.
_UNITS = {"s": 1, "m": 60, "h": 3600}


def start_of(when: str, now: datetime | None = None) -> dict[str, float | int]:
    """`--start`: the wire's `starts_in_s` for a relative start (the server counts it on
    its own clock), else `starts_at` for a local time or date and time."""
    when = when.strip()
    now = now or datetime.now().astimezone()
    try:
        if when.startswith("+"):
            number, unit = (when[1:-1], when[-1]) if when[-1] in _UNITS else (when[1:], "m")
            return {"starts_in_s": round(float(number) * _UNITS[unit])}
        if len(when) <= 5 and ":" in when:
            hour, minute = (int(part) for part in when.split(":"))
            at = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
            if at <= now:
                at += timedelta(days=1)
        else:
            at = datetime.fromisoformat(when)
            at = at.astimezone() if at.tzinfo is None else at
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{when!r} is not a start time: give HH:MM, YYYY-MM-DD HH:MM or +MINUTES").format(
                when=when
            )
        ) from None
    return {"starts_at": at.timestamp()}


def _fail(problem: object, code: int = 2) -> int:
    print(_("leekha tournament: {problem}").format(problem=problem), file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    action = args.tournament_command
    if action == "status" and args.address is None and args.follow:
        # A database cannot be followed: `status ID --follow` (docs/tournaments.md's first
        # example) follows the server on this machine, where the database alone would
        # print the standings once and end, the games still running.
        args.address = "127.0.0.1"
    if action == "export" or (action == "status" and args.address is None):
        from leekha.client.tournament import database

        try:
            return database.run(args)
        except database.NotFound as exc:
            return _fail(exc, 1)
    try:
        host, port = options.parse_address(args.address)
        request: P.CreateTournament | None = None
        if action == "create":
            request = _create_request(args)
    except ValueError as exc:
        return _fail(exc)
    from leekha.client.eventloop import run_on_reactor
    from leekha.client.tournament import remote

    return run_on_reactor(lambda reactor: remote.main(reactor, host, port, args, request))


def _create_request(args: argparse.Namespace) -> P.CreateTournament:
    entrants = [entrant_of(spec) for spec in args.entrant]
    if len(entrants) < 4:
        raise ValueError(
            _("a tournament needs at least four entrants (--entrant); {n} given").format(
                n=len(entrants)
            )
        )
    stages = args.stages
    if args.format == "swiss" and stages is None:
        stages = 3
    if args.format == "round_robin" and stages is not None:
        raise ValueError(_("--stages is for --format swiss"))
    _config, overrides = options.rules_from_args(args)
    start: dict[str, float | int] = args.start or {}
    relative = start.get("starts_in_s")
    try:  # the wire's own limits, so a number out of range is an error and not a traceback
        request = P.CreateTournament(
            id=0,  # the client core gives it its request id
            name=args.name,
            format=args.format,
            entrants=entrants,
            deals=args.deals,
            stages=stages,
            preset=args.rules,
            overrides=overrides,
            move_timer_s=args.move_timer,
            starts_at=start.get("starts_at"),
            starts_in_s=None if relative is None else int(relative),
        )
        P.encode(request)
    except P.ProtocolError as exc:
        why = exc.message
        raise ValueError(_("that cannot be asked of a server: {why}").format(why=why)) from None
    return request
