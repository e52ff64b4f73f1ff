"""`leekha serve`: run a table server in the foreground until SIGINT or SIGTERM.

The asyncio reactor is installed before anything imports the global reactor, because the
LAN announcer (zeroconf) and the embedded server of `leekha play` share asyncio's loop.
"""

from __future__ import annotations

import argparse
import errno
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from leekha.server.reactor import install_asyncio_reactor
from leekha.server.settings import ServerSettings, SettingsError
from leekha.server.settings_cli import add_server_arguments, settings_from_args

if TYPE_CHECKING:
    from leekha.server.reactor import ServerReactor


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_arguments(parser)
    # The table page's folder: the composition root (leekha.client.cli) fills it in.
    parser.set_defaults(web_root=None)


def _begin_logging(level: str, stream: TextIO) -> None:
    from twisted.logger import (
        FilteringLogObserver,
        ILogFilterPredicate,
        ILogObserver,
        LogLevel,
        LogLevelFilterPredicate,
        globalLogBeginner,
        textFileLogObserver,
    )

    # The interfaces adapt each object to itself (it provides them): mypy, without zope's
    # plugin, then sees the interface types Twisted's signatures ask for.
    predicate = LogLevelFilterPredicate(defaultLogLevel=LogLevel.levelWithName(level))
    text = ILogObserver(textFileLogObserver(stream))
    observer = ILogObserver(FilteringLogObserver(text, [ILogFilterPredicate(predicate)]))
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from_args(args)
    except SettingsError as exc:
        print(f"leekha serve: {exc}", file=sys.stderr)
        return 2
    install_asyncio_reactor()
    stream: TextIO = sys.stderr
    if settings.log_file is not None:
        try:
            settings.log_file.parent.mkdir(parents=True, exist_ok=True)
            stream = settings.log_file.open("a", encoding="utf-8")
        except OSError as exc:
            print(f"leekha serve: cannot write the log: {start_problem(exc)}", file=sys.stderr)
            return 1
    _begin_logging(settings.log_level, stream)

    from twisted.internet import defer, task

    # A shell starts background jobs with SIGINT ignored, and Twisted leaves an ignored
    # SIGINT alone; `leekha serve` stops on SIGINT however it was started.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        page = getattr(args, "web_root", None)
        task.react(lambda reactor: defer.ensureDeferred(_serve(reactor, settings, page)))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


async def _serve(reactor: ServerReactor, settings: ServerSettings, page: Path | None) -> None:
    """Start, then serve until SIGINT/SIGTERM (`task.react` stops the reactor, and the
    server stops before it) or a fatal database error; raises SystemExit with the code."""
    from twisted.internet.defer import Deferred, ensureDeferred
    from twisted.logger import Logger, LogLevel

    from leekha.server.app import start_server
    from leekha.server.gctune import GcTuning

    log = Logger(namespace="leekha.serve")
    try:
        server = await start_server(reactor, settings, page=page)
    except Exception as exc:
        # The sentence is the message; the traceback only for --log-level debug.
        log.failure("the server could not start", level=LogLevel.debug)
        print(f"leekha serve: cannot start: {start_problem(exc)}", file=sys.stderr)
        raise SystemExit(1) from None
    reactor.addSystemEventTrigger("before", "shutdown", lambda: ensureDeferred(server.stop()))
    # One parseable line on stdout per listener for scripts and test harnesses; the
    # first is the first listener's address and port (with `--listen` its interface,
    # not the short form's `--host`, which it replaced).
    first = server.listeners[0].interface or server.host
    first = f"[{first}]" if ":" in first else first  # IPv6, so the port stays parseable
    print(f"listening on {first}:{server.port}", flush=True)
    for listener in server.listeners[1:]:
        print(f"listening on {listener.description} port {listener.port}", flush=True)
    if server.tls is not None:
        print(f"TLS fingerprint SHA-256 {server.tls.fingerprint}", flush=True)
    if server.page is not None:
        from leekha.server.web import lan_address

        where = lan_address() if server.page.interface is None else ""
        print(f"table page: {server.page.url(where)}", flush=True)
    if server.health:
        from leekha.server.dbhealth import problems_line

        print(f"warning: {problems_line(Path(server.store.path), server.health)}", flush=True)

    # After the restore: the restored tables are the first long-lived objects frozen.
    def load() -> int:
        return len(server.factory.connections) + len(server.lobby.tables)

    GcTuning(reactor, load=load).setServiceParent(server.services)  # type: ignore[no-untyped-call]
    fatal: Deferred[None] = Deferred()
    # The database refused a commit: stop (see server/domain/outbox.py).
    server.lobby.outbox.on_fatal = lambda: fatal.callback(None)
    await fatal
    raise SystemExit(1)


def _is_name(host: str) -> bool:
    """A host name rather than an address, well-formed or not (999.1.1.1 is an address)."""
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return not set(host) <= set("0123456789.:")
    return False


def start_problem(exc: BaseException) -> str:
    """Why the server cannot start, in one line an operator can act on."""
    from twisted.internet import error

    if isinstance(exc, error.CannotListenError):
        where = f"{exc.interface or '0.0.0.0'}:{exc.port}"
        cause = exc.socketError
        if isinstance(cause, OSError) and cause.errno == errno.EADDRINUSE:
            return f"cannot listen on {where}: the port is in use (another server?)"
        if isinstance(cause, socket.gaierror) and _is_name(exc.interface or ""):
            return f"cannot listen on {where}: the host name does not resolve"
        if isinstance(cause, socket.gaierror):
            return f"cannot listen on {where}: no such address on this machine"
        why = cause.strerror if isinstance(cause, OSError) and cause.strerror else cause
        return f"cannot listen on {where}: {why}"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc) or type(exc).__name__
