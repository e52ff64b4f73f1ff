"""Run several bot seats in one process and turn their outcome into an exit code.

Bots start one after another (each once the previous one sits) so that bots looking up
the same table name never race each other; a failure to reach the server stops the whole
fleet with one clear line instead of one per bot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha.client.bot.client import BotClient, BotOptions, ConnectFailed, EntryRefused

if TYPE_CHECKING:
    from leekha.protocol.reactor import ReactorTime

log = Logger()


class BotFleet:
    """`code` is 0 when every bot finished its games, 1 if one gave up or was refused a
    tournament, 2 if the server could not be reached; `error` is the line to show the
    operator."""

    def __init__(self, reactor: ReactorTime, options: list[BotOptions]) -> None:
        self.reactor = reactor
        self.options = options
        self.bots: list[BotClient] = []
        self.code = 0
        self.error: str | None = None
        self._stopping = False
        self._ending = False
        #: Fires with `code` once every bot is done.
        self.finished: defer.Deferred[int] = defer.Deferred()

    def start(self) -> None:
        self._start_next()

    def _start_next(self) -> None:
        if self._stopping or len(self.bots) >= len(self.options):
            return
        bot = BotClient(self.reactor, self.options[len(self.bots)])
        self.bots.append(bot)
        bot.seated.addCallback(lambda _: self._start_next())
        bot.done.addCallbacks(self._bot_done, self._bot_failed)
        bot.start()

    def _bot_done(self, code: int) -> None:
        self.code = max(self.code, code)
        self._maybe_end()

    def _bot_failed(self, failure: Failure) -> None:
        if isinstance(failure.value, ConnectFailed):
            self.error = str(failure.value)
            self.code = 2
        elif isinstance(failure.value, EntryRefused):
            self.error = str(failure.value)
            self.code = max(self.code, 1)
        else:
            log.failure("a bot failed", failure)
            self.error = failure.getErrorMessage()
            self.code = max(self.code, 1)
        self._stop_all()

    def _stop_all(self) -> None:
        self._stopping = True
        for bot in self.bots:
            bot.stop()
        self._maybe_end()

    def _maybe_end(self) -> None:
        started = len(self.bots) == len(self.options) or self._stopping
        if self._ending or not started or not all(b.done.called for b in self.bots):
            return
        self._ending = True
        self.finished.callback(self.code)

    def shutdown(self) -> defer.Deferred[None]:
        """Before reactor shutdown (SIGINT/SIGTERM or the end): hang up every bot cleanly."""
        self._ending = True
        self._stopping = True
        waits = [b.stop() for b in self.bots if not b.done.called]
        if not waits:
            return defer.succeed(None)
        d = defer.DeferredList(waits, consumeErrors=True)
        # Never hang the exit on a peer that does not close: give it two seconds.
        d.addTimeout(2.0, cast(IReactorTime, self.reactor))  # zope-typed: see ReactorTime
        return d.addBoth(lambda _result: None)
