"""WAL checkpoints away from the reactor thread.

SQLite checkpoints a WAL database itself once the log passes 1000 pages, inside the
COMMIT that crossed the line: it copies the pages back into the database file and fsyncs
it, tens of milliseconds during which, on the reactor thread, no table moves. Measured as
a stall of every table at regular intervals under load (docs/performance.md). Here a
TimerService asks for a PASSIVE checkpoint every CHECKPOINT_EVERY_S from the reactor's
thread pool, on a connection of its own: it never waits for the writer nor blocks it
(WAL lets commits go on while pages are copied), and the sqlite3 module releases the GIL
while SQLite works.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, cast

from twisted.application.internet import TimerService
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorFromThreads
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha.server.domain.persistence import Store

if TYPE_CHECKING:
    from leekha.server.reactor import ServerReactor

log = Logger()

#: Seconds between checkpoints: the WAL stays a few MB at the busiest.
CHECKPOINT_EVERY_S = 1.0


def checkpoint(path: str) -> tuple[int, int, int]:
    """One PASSIVE checkpoint of the database at `path`: (busy, log pages, checkpointed)."""
    db = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        row = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        db.close()
    return int(row[0]), int(row[1]), int(row[2])


class Checkpointer(TimerService):
    """A child service of the server: checkpoints `store` from the thread pool."""

    def __init__(self, reactor: ServerReactor, store: Store) -> None:
        super().__init__(CHECKPOINT_EVERY_S, self.tick)  # type: ignore[no-untyped-call]
        self.clock = reactor
        self.reactor = reactor
        self.store = store
        self._running: Deferred[tuple[int, int, int]] | None = None
        self._failing = False

    def startService(self) -> None:
        self.store.checkpoint_elsewhere()
        super().startService()  # type: ignore[no-untyped-call]

    def tick(self) -> None:
        if self._running is not None:  # the last one is still copying: skip a beat
            return
        pool = self.reactor.getThreadPool()
        # Twisted types the reactor as a zope interface, which a Protocol cannot match.
        threads = cast(IReactorFromThreads, self.reactor)
        self._running = deferToThreadPool(threads, pool, checkpoint, self.store.path)
        self._running.addBoth(self._done)
        self._running.addErrback(self._failed)

    def _failed(self, failure: Failure) -> None:
        """One line when checkpoints start failing (a read-only or damaged file), none
        while they go on failing, one when they work again: not a traceback a second."""
        if not self._failing:
            self._failing = True
            log.warn(
                "WAL checkpoints of {path} fail ({error}); the log file grows until they"
                " work again",
                path=self.store.path,
                error=failure.getErrorMessage(),
            )

    def _done(self, result: object) -> object:
        self._running = None
        if self._failing and not isinstance(result, Failure):
            self._failing = False
            log.info("WAL checkpoints of {path} work again", path=self.store.path)
        return result

    def stopService(self) -> Deferred[None]:
        running = self._running
        super().stopService()  # type: ignore[no-untyped-call]
        if running is None:
            d: Deferred[None] = Deferred()
            d.callback(None)
            return d
        done: Deferred[None] = Deferred()
        running.addBoth(lambda _r: done.callback(None))
        return done
