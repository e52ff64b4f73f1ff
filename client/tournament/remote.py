"""The network half of `leekha tournament`: create, list and status against a server."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from twisted.internet import defer

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.i18n import _
from leekha.client.options import default_name
from leekha.client.session import ConnectFailed, Target, dial_error
from leekha.client.tournament import text
from leekha.client.tournament.link import Link, Refused, waited
from leekha.protocol import version as V
from leekha.protocol.version import speaks
from leekha.protocol.views import Tournament

if TYPE_CHECKING:
    from leekha.protocol.reactor import ReactorTime


def _print(lines: list[str]) -> None:
    print("\n".join(lines))


async def main(
    reactor: ReactorTime,
    host: str,
    port: int,
    args: argparse.Namespace,
    request: P.CreateTournament | None,
) -> int:
    """Run one action; the exit code: 0 done, 1 the server or the link said no."""
    finished: defer.Deferred[Tournament] = defer.Deferred()
    follow = bool(getattr(args, "follow", False))

    shown: list[tuple[str, int]] = []

    def pushed(t: Tournament) -> None:
        now = (str(t["status"]), int(t["games_done"]))
        if follow and now not in shown:  # pushed as games start and as they end
            shown.append(now)
            print(text.progress(t))
        if t["status"] == "finished" and not finished.called:
            finished.callback(t)

    def lost(exc: ConnectFailed) -> None:
        if not finished.called:
            finished.errback(exc)

    finished.addErrback(lambda f: f if follow else None)  # only a follower waits for it
    link = Link(reactor, Target(host, port, args.tls), f"{default_name()}-cli", pushed, lost)
    try:
        welcome = await link.open()
    except Exception as exc:
        print(_("leekha tournament: {problem}").format(problem=dial_error(exc)), file=sys.stderr)
        return 1
    try:
        if not speaks(tuple(welcome.version), V.TOURNAMENTS):
            raise ConnectFailed(_("this server does not run tournaments (protocol 1.3 needed)"))
        timed = request is not None and (
            request.starts_at is not None or request.starts_in_s is not None
        )
        if timed and not speaks(tuple(welcome.version), V.TOURNAMENT_START):
            # An older server would drop the start time unread and begin at once.
            raise ConnectFailed(_("this server cannot start a tournament at a set time "
                                  "(protocol 1.4 needed): leave out --start"))  # fmt: skip
        cancel = args.tournament_command == "cancel"
        if cancel and not speaks(tuple(welcome.version), V.TOURNAMENT_CANCEL):
            raise ConnectFailed(_("this server cannot cancel tournaments (protocol 1.4 needed)"))
        return await _act(link, host, port, args, request, finished if follow else None)
    except (Refused, ConnectFailed) as exc:
        print(_("leekha tournament: {problem}").format(problem=exc), file=sys.stderr)
        return 1
    finally:
        await link.close()


async def _act(
    link: Link,
    host: str,
    port: int,
    args: argparse.Namespace,
    request: P.CreateTournament | None,
    finished: defer.Deferred[Tournament] | None,
) -> int:
    action = args.tournament_command
    if action == "list":
        reply = await link.ask(I.ListTournaments())
        assert isinstance(reply, P.TournamentList)
        lines = [line for t in reply.tournaments for line in text.summary_lines(t)]
        _print(lines or [_("no tournaments on this server")])
        return 0
    if action == "cancel":
        reply = await link.ask(I.CancelTournament(args.tournament_id))
        assert isinstance(reply, P.TournamentState)
        _print(text.state_lines(reply.tournament))
        return 0
    if request is not None:
        reply = await link.ask(I.CreateTournament(request))
    else:
        reply = await link.ask(I.GetTournament(args.tournament_id))
    assert isinstance(reply, P.TournamentState)
    t = reply.tournament
    _print(text.state_lines(t))
    if action == "create":
        _print(_enter_hint(t, host, port))
    if finished is None or t["status"] == "finished":
        return 0
    final = await waited(finished)
    _print(text.state_lines(final))
    return 0


def _enter_hint(t: Tournament, host: str, port: int) -> list[str]:
    """How the client entrants take part: one `leekha bot` line each."""
    names = [e["name"] for e in t["entrants"] if e.get("kind") == "client"]
    if not names:
        return []
    start = text.start_text(t)
    if start is None:
        lines = ["", _("The tournament starts once every client entrant has entered. Run:")]
    else:
        lines = ["", _("The tournament {start}; each client entrant enters before then.")
                 .format(start=start)]  # fmt: skip
        lines.append(_("A person: leekha join {host}:{port} --name NAME, then T, Enter on the "
                       "tournament, and e. A bot:").format(host=host, port=port))  # fmt: skip
    for name in names:
        lines.append(
            f"  leekha bot {host}:{port} --tournament {t['id']} --name {name} --strategy STRATEGY"
        )
    return lines
