"""`leekha serve`: run a table server in the foreground until SIGINT or SIGTERM.

The asyncio reactor is installed before anything imports the global reactor, because the
LAN announcer (zeroconf) and the embedded server of `leekha play` share asyncio's loop.
"""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any, TextIO

from leekha.server.reactor import install_asyncio_reactor
from leekha.server.settings import SettingsError, add_server_arguments, settings_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_arguments(parser)


def _begin_logging(level: str, stream: TextIO) -> None:
    from twisted.logger import (
        FilteringLogObserver,
        LogLevel,
        LogLevelFilterPredicate,
        globalLogBeginner,
        textFileLogObserver,
    )

    predicate: Any = LogLevelFilterPredicate(defaultLogLevel=LogLevel.levelWithName(level))
    text: Any = textFileLogObserver(stream)
    observer: Any = FilteringLogObserver(text, [predicate])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from_args(args)
    except SettingsError as exc:
        print(f"leekha serve: {exc}", file=sys.stderr)
        return 2
    reactor = install_asyncio_reactor()
    stream: TextIO = sys.stderr
    if settings.log_file is not None:
        settings.log_file.parent.mkdir(parents=True, exist_ok=True)
        stream = settings.log_file.open("a", encoding="utf-8")
    _begin_logging(settings.log_level, stream)

    from twisted.internet.defer import Deferred, ensureDeferred
    from twisted.logger import Logger

    from leekha.server.app import RunningServer, start_server
    from leekha.server.gctune import GcTuning

    log = Logger(namespace="leekha.serve")
    outcome = {"code": 0}

    def started(server: RunningServer) -> None:
        # One parseable line on stdout per listener for scripts and test harnesses; the
        # first is the short form's host and port.
        print(f"listening on {server.host}:{server.port}", flush=True)
        for listener in server.listeners[1:]:
            print(f"listening on {listener.description} port {listener.port}", flush=True)
        if server.tls is not None:
            print(f"TLS fingerprint SHA-256 {server.tls.fingerprint}", flush=True)

        # After the restore: the restored tables are the first long-lived objects frozen.
        def load() -> int:
            return len(server.factory.connections) + len(server.lobby.tables)

        GcTuning(reactor, load=load).setServiceParent(server.services)  # type: ignore[no-untyped-call]

        def fatal() -> None:  # the database refused a commit: stop (see server/outbox.py)
            outcome["code"] = 1
            reactor.stop()

        server.lobby.outbox.on_fatal = fatal
        reactor.addSystemEventTrigger("before", "shutdown", lambda: ensureDeferred(server.stop()))

    def failed(failure: Any) -> None:
        log.failure("the server could not start", failure)
        print(f"leekha serve: cannot start: {failure.getErrorMessage()}", file=sys.stderr)
        outcome["code"] = 1
        reactor.stop()

    def go() -> None:
        d: Deferred[RunningServer] = ensureDeferred(start_server(reactor, settings))
        d.addCallbacks(started, failed)

    reactor.callWhenRunning(go)
    # A shell starts background jobs with SIGINT ignored, and Twisted leaves an ignored
    # SIGINT alone; `leekha serve` stops on SIGINT however it was started.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    reactor.run()
    return outcome["code"]
